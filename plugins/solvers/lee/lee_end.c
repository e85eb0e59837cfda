/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-lee: the base-flow check (solver.baseflow-check, auxcheck.h) and
 * the picture of one variable written at the end of a run
 * (solver.picture, fieldpng.h).
 *
 * The check runs once at t = 0, here at create, where every difference
 * must be exactly 0, and then in the check graph every
 * solver.baseflow-check-every steps.
 *
 * FRX_TEST_CORRUPT_BASEFLOW is for tests only, so that they see the
 * check catch a difference and name its place. After the check at t = 0
 * rank <rank> adds 1e-3 to u0:
 *   <rank>                  in its saved copy of its first peer's base
 *                           flow, as a damaged snapshot would be;
 *   <rank>:<element>:<fpt>  in the live base flow at flux point <fpt>
 *                           (the element's own numbering) of global
 *                           element <element>, which it holds. */
#include "lee.h"
#include "fieldpng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int corrupt_for_test(struct lee *l, const frx_mesh *mesh, int rank)
{
    const char *env = getenv("FRX_TEST_CORRUPT_BASEFLOW");
    if (!env || !*env)
        return FRX_OK;
    long r;
    unsigned long long gid = 0, fpt = 0;
    int n = 0, live = 0;
    if (sscanf(env, "%ld:%llu:%llu%n", &r, &gid, &fpt, &n) == 3 && !env[n])
        live = 1;
    else if (!(sscanf(env, "%ld%n", &r, &n) == 1 && !env[n]))
        return frx_error(FRX_EINVAL, "FRX_TEST_CORRUPT_BASEFLOW=%s: use "
                         "<rank> or <rank>:<element>:<flux point>", env);
    if (r != rank)
        return FRX_OK;
    int rc = live ? fr_auxcheck_damage_live(l->ck, mesh, gid, fpt, 1, 1e-3)
                  : fr_auxcheck_corrupt(l->ck, 1, 1e-3);
    if (rc == FRX_ENOTFOUND && live)
        return frx_error(FRX_EINVAL, "FRX_TEST_CORRUPT_BASEFLOW=%s: rank %d "
                         "does not hold element %llu", env, rank, gid);
    if (rc == FRX_ENOTFOUND)
        return frx_error(FRX_EINVAL, "FRX_TEST_CORRUPT_BASEFLOW=%s: rank %d "
                         "has no rank interface to corrupt", env, rank);
    if (!rc)
        frx_log(FRX_LOG_WARN, "lee: FRX_TEST_CORRUPT_BASEFLOW: rank %d "
                "damages its %s base flow (a test)", rank,
                live ? "live" : "saved");
    return rc;
}

int lee__check_setup(struct lee *l, const frx_solver_init *init)
{
    const frx_cfgnode *o = init->options;
    int rc = frx_cfg_bool(o, "baseflow-check", 0, &l->check);
    if (!rc)
        rc = frx_cfg_int(o, "baseflow-check-every", 10, 1, 1000000000,
                         &l->check_every);
    /* collective from here: every rank with its status */
    rc = frx_comm_agree(l->mpi, rc, "solver.baseflow-check");
    if (rc || !l->check)
        return rc;
    rc = fr_auxcheck_create(l->sys, init->mesh, "lee: base-flow check",
                            &l->ck);
    rc = frx_comm_agree(l->mpi, rc, "the base-flow check");
    double maxd = 0;
    size_t nsets = 0;
    int rank;
    MPI_Comm_rank(l->mpi, &rank);
    if (!rc)
        rc = fr_auxcheck_run(l->ck, &maxd, &nsets);
    if (!rc)
        frx_log(FRX_LOG_INFO, "lee: base-flow check at t = 0 on rank %d: "
                "max |saved - live| = %g over %zu interface set(s)", rank,
                maxd, nsets);
    if (!rc)
        rc = corrupt_for_test(l, init->mesh, rank);
    return frx_comm_agree(l->mpi, rc, "the base-flow check at t = 0");
}

/* ------------------------------------------------------------ picture */

static const char picture_vars[] = "none|rho|u|v|p";

int lee__png_setup(struct lee *l, const frx_solver_init *init)
{
    int v;
    l->png_var = -1;
    int rc = frx_cfg_enum(init->options, "picture", picture_vars, 0, &v);
    if (rc || v == 0)
        return rc;
    const frx_cfgnode *root = frx_config_root(init->config);
    const char *dir, *name;
    if ((rc = frx_cfg_string(root, "output.dir", ".", &dir)) ||
        (rc = frx_cfg_string(root, "output.name", "solution", &name)))
        return rc;
    const char *var = lee__vars[v - 1];
    size_t len = strlen(dir) + strlen(name) + 16;
    if (!(l->png_path = malloc(len)))
        return frx_error(FRX_ENOMEM, "lee: out of memory");
    snprintf(l->png_path, len, "%s/%s-%s.png", dir, name, var);
    l->png_var = v - 1;
    /* rank 0 writes it, making its folder then: that the folder can be
     * made is checked now, so that a run is not stopped by it at its
     * end */
    int rank;
    MPI_Comm_rank(l->mpi, &rank);
    if (rank == 0 && (rc = frx_check_parent_folder(l->png_path))) {
        char why[600];
        snprintf(why, sizeof why, "%s", frx_errmsg());
        rc = frx_error(rc, "solver.picture: %s; set output.dir to a folder "
                       "that can be made", why);
    }
    return rc;
}

/* Every rank's solution points and the variable there, to rank 0. */
int lee__png_write(struct lee *l, frx_matrix *const *u)
{
    if (l->png_var < 0)
        return FRX_OK;
    fr_system *s = l->sys;
    size_t nb = fr_system_nblocks(s), n = 0, at = 0;
    for (size_t b = 0; b < nb; b++)
        n += fr_system_geometry(s, b)->neles * fr_system_geometry(s, b)->nupts;
    double *xy = malloc((n ? n : 1) * 2 * sizeof *xy);
    double *val = malloc((n ? n : 1) * sizeof *val);
    int rc = xy && val ? FRX_OK : frx_error(FRX_ENOMEM, "lee: out of memory");
    for (size_t b = 0; b < nb && !rc; b++) {
        const fr_geometry *g = fr_system_geometry(s, b);
        size_t ne = g->neles, np = g->nupts;
        double *h = malloc((np * 4 * ne + 1) * sizeof *h);
        rc = h ? frx_matrix_read_double(u[b], h)
               : frx_error(FRX_ENOMEM, "lee: out of memory");
        for (size_t e = 0; e < ne && !rc; e++)
            for (size_t k = 0; k < np; k++, at++) {
                size_t i = (k * 4 + (size_t)l->png_var) * ne + e;
                val[at] = h[i];
                xy[2 * at] = g->xupts[(e * np + k) * 2];
                xy[2 * at + 1] = g->xupts[(e * np + k) * 2 + 1];
            }
        free(h);
    }
    fr_png_opts o = {.cmap = FR_CMAP_DIVERGING,
                     .name = lee__vars[l->png_var]};
    /* collective: every rank, whatever happened above */
    rc = frx_comm_agree(l->mpi, rc, "the picture");
    if (!rc)
        rc = fr_png_write_gather(l->mpi, 0, l->png_path, n, xy, val, &o);
    if (!rc)
        frx_log(FRX_LOG_INFO, "lee: wrote %s", l->png_path);
    free(xy);
    free(val);
    return rc;
}
