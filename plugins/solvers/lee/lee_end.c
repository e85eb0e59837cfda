/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-lee: the base-flow check (solver.baseflow-check, auxcheck.h).
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
