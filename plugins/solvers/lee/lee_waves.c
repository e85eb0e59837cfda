/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-lee: plane waves (solver.waves), the initial condition and, in a
 * uniform base flow, the exact solution. Each wave has a whole number of
 * periods over the box's periodic shifts (modes), so it is periodic
 * wherever the mesh is:
 *
 *   acoustic:  p' = A cos(th), rho' = p'/c0^2, u' = k/|k| p'/(rho0 c0),
 *              th = k.x - (k.U0 + c0 |k|) t;
 *   vorticity: u' = A e cos(th), th = k.x - (k.U0) t, e a unit vector
 *              normal to k: (-k_y, k_x)/|k| in 2-D; in 3-D z-hat x k
 *              normalised (the 2-D one where k_z = 0), or x-hat x k
 *              where k is along z;
 *   entropy:   rho' = A cos(th), th = k.x - (k.U0) t.
 *
 * In a base flow that is not uniform the waves are only the initial
 * condition, with the local base flow's values (no exact solution). */
#include "lee.h"

#include <frx/mesh.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char wave_types[] = "acoustic|vorticity|entropy";

/* The mesh's period along x, y (and z): a pair shifted along that axis
 * alone (0: not periodic that way). */
static int periods(const frx_mesh *m, int nd, double *len)
{
    frx_mesh_info mi = {.size = sizeof mi};
    int rc = frx_mesh_get_info(m, &mi);
    len[0] = len[1] = len[2] = 0;
    for (size_t i = 0; !rc && i < mi.nperiodic; i++) {
        frx_mesh_periodic p = {.size = sizeof p};
        if ((rc = frx_mesh_get_periodic(m, i, &p)))
            break;
        for (int d = 0; d < nd; d++) {
            int alone = p.shift[d] != 0;
            for (int o = 0; o < nd; o++)
                alone &= o == d || p.shift[o] == 0;
            if (alone)
                len[d] = fabs(p.shift[d]);
        }
    }
    return rc;
}

/* Every periodic shift s must give k.s a multiple of 2 pi. */
static int fits(const frx_mesh *m, int nd, const double *k,
                const frx_cfgnode *at)
{
    frx_mesh_info mi = {.size = sizeof mi};
    int rc = frx_mesh_get_info(m, &mi);
    for (size_t i = 0; !rc && i < mi.nperiodic; i++) {
        frx_mesh_periodic p = {.size = sizeof p};
        if ((rc = frx_mesh_get_periodic(m, i, &p)))
            break;
        double ks = k[0] * p.shift[0] + k[1] * p.shift[1];
        if (nd == 3)
            ks += k[2] * p.shift[2];
        double turns = ks / (2 * M_PI);
        if (fabs(turns - nearbyint(turns)) > 1e-9 * fmax(1, fabs(turns)))
            rc = frx_error(FRX_ECONFIG, "%s:%d:%d: this wave is not "
                           "periodic over the mesh's periodic pair '%s' "
                           "(%.6g turns): its modes must fit the box",
                           frx_config_file(frx_cfg_owner(at)),
                           frx_cfg_line(at), frx_cfg_col(at), p.name, turns);
    }
    return rc;
}

/* The vorticity wave's unit velocity direction e, normal to k: z-hat x
 * k normalised, (-k_y, k_x, 0)/|(k_x, k_y)| (2-D's (-k_y, k_x)/|k|), or
 * x-hat x k = (0, -k_z, 0) normalised where k is along z. */
static void vorticity_dir(const double *k, double *e)
{
    double h = hypot(k[0], k[1]);
    e[0] = e[1] = e[2] = 0;
    if (h > 0) {
        e[0] = -k[1] / h;
        e[1] = k[0] / h;
    } else {
        e[1] = k[2] > 0 ? -1 : 1;
    }
}

static int wave_read(struct lee *l, const frx_solver_init *init,
                     const frx_cfgnode *w, struct lee_wave *out)
{
    const char *file = frx_config_file(frx_cfg_owner(w));
    int nd = l->nd, rc = frx_cfg_enum(w, "type", wave_types, 0, &out->type);
    if (!rc)
        rc = frx_cfg_double(w, "amplitude", 1e-3, -1e300, 1e300, &out->amp);
    const frx_cfgnode *m = frx_cfg_get(w, "modes");
    int list = m && frx_cfg_type(m) == FRX_CFG_LIST;
    if (!rc && (!list || frx_cfg_len(m) != (size_t)nd)) {
        char got[80] = "";
        if (list)
            snprintf(got, sizeof got, " (%zu number%s here; the mesh is "
                     "%d-D)", frx_cfg_len(m), frx_cfg_len(m) == 1 ? "" : "s",
                     nd);
        rc = frx_error(FRX_ECONFIG, "%s:%d:%d: a wave needs modes: %s, its "
                       "whole periods over the box along %s%s", file,
                       frx_cfg_line(m ? m : w), frx_cfg_col(m ? m : w),
                       nd == 3 ? "[mx, my, mz]" : "[mx, my]",
                       nd == 3 ? "x, y and z" : "x and y", got);
    }
    for (int d = 0; !rc && d < nd; d++) {
        const frx_cfgnode *md = frx_cfg_at(m, (size_t)d);
        rc = frx_cfg_int(md, NULL, 0, -1000000, 1000000, &out->modes[d]);
        if (!rc && out->modes[d] && !(l->len[d] > 0))
            rc = frx_error(FRX_ECONFIG, "%s:%d:%d: a wave with %ld periods "
                           "along %c needs a mesh periodic along %c",
                           file, frx_cfg_line(md), frx_cfg_col(md),
                           out->modes[d], "xyz"[d], "xyz"[d]);
        out->k[d] = rc || !out->modes[d]
                        ? 0 : 2 * M_PI * (double)out->modes[d] / l->len[d];
    }
    if (!rc && out->k[0] == 0 && out->k[1] == 0 && out->k[2] == 0)
        rc = frx_error(FRX_ECONFIG, "%s:%d:%d: a wave needs modes other "
                       "than %s", file, frx_cfg_line(m), frx_cfg_col(m),
                       nd == 3 ? "[0, 0, 0]" : "[0, 0]");
    vorticity_dir(out->k, out->e);
    return rc ? rc : fits(init->mesh, nd, out->k, w);
}

int lee__waves_read(struct lee *l, const frx_solver_init *init)
{
    const frx_cfgnode *ws = frx_cfg_get(init->options, "waves");
    if (!ws || frx_cfg_type(ws) != FRX_CFG_LIST || !frx_cfg_len(ws)) {
        char at[512];
        if (ws)
            fr_cfg_place(ws, at, sizeof at);
        else
            snprintf(at, sizeof at, "%s", frx_config_file(init->config));
        return frx_error(FRX_ECONFIG, "%s: solver.waves is %s: give "
                         "the initial waves, e.g. waves: [{type: acoustic, "
                         "amplitude: 1e-3, modes: [1, 1]}]", at,
                         !ws ? "missing" : frx_cfg_type(ws) != FRX_CFG_LIST
                                         ? "not a list" : "empty");
    }
    int rc = periods(init->mesh, l->nd, l->len);
    l->nwaves = frx_cfg_len(ws);
    l->waves = calloc(l->nwaves, sizeof *l->waves);
    if (!l->waves)
        return frx_error(FRX_ENOMEM, "lee: out of memory");
    for (size_t i = 0; i < l->nwaves && !rc; i++)
        rc = wave_read(l, init, frx_cfg_at(ws, i), &l->waves[i]);
    return rc;
}

/* The sum of the waves at time t at n points [n][nd] into vals
 * [n][nd + 2]. */
int lee__waves_at(void *ctx, double t, size_t n, const double *xyz,
                  double *vals)
{
    const struct lee *l = ctx;
    size_t nd = (size_t)l->nd, nv = (size_t)l->nb, kp = nv - 1;
    for (size_t i = 0; i < n; i++) {
        const double *x = xyz + nd * i;
        double a[LEE_NBASE], *v = &vals[nv * i];
        for (size_t f = 0; f < nv; f++)
            a[f] = fr_expr_eval(l->base[f], x[0], x[1], nd == 3 ? x[2] : 0,
                                0);
        double c = sqrt(l->gamma * a[kp] / a[0]);
        for (size_t q = 0; q < nv; q++)
            v[q] = 0;
        for (size_t j = 0; j < l->nwaves; j++) {
            const struct lee_wave *w = &l->waves[j];
            double kk = hypot(hypot(w->k[0], w->k[1]), w->k[2]);
            double conv = w->k[0] * a[1], ph = w->k[0] * x[0];
            for (size_t d = 1; d < nd; d++) {
                conv += w->k[d] * a[1 + d];
                ph += w->k[d] * x[d];
            }
            double om = conv + (w->type == 0 ? c * kk : 0);
            double cs = w->amp * cos(ph - om * t);
            if (w->type == 0) {
                v[0] += cs / (c * c);
                for (size_t d = 0; d < nd; d++)
                    v[1 + d] += w->k[d] / kk * cs / (a[0] * c);
                v[kp] += cs;
            } else if (w->type == 1) {
                for (size_t d = 0; d < nd; d++)
                    v[1 + d] += w->e[d] * cs;
            } else {
                v[0] += cs;
            }
        }
    }
    return FRX_OK;
}

/* The waves as lee__waves_at computes them, about the base flow a[] at
 * the point (the auxiliary fields): one block a wave. */
int lee__waves_fragment(struct lee *l)
{
    int nd = l->nd, kp = l->nb - 1;
    size_t len;
    FILE *f = open_memstream(&l->initial_src, &len);
    if (!f)
        return frx_error(FRX_ENOMEM, "lee: out of memory");
    fprintf(f, "fpdtype_t w_c = sqrt(gamma*a[%d]/a[0]);\n", kp);
    for (size_t j = 0; j < l->nwaves; j++) {
        const struct lee_wave *w = &l->waves[j];
        double kk = hypot(hypot(w->k[0], w->k[1]), w->k[2]);
        /* th = k.x - om t; om = k.U0 (+ c0 |k| for sound) */
        fprintf(f, "{\n    fpdtype_t w_om = ((fpdtype_t)%.17g)*a[1] + "
                   "((fpdtype_t)%.17g)*a[2]", w->k[0], w->k[1]);
        if (nd == 3)
            fprintf(f, " + ((fpdtype_t)%.17g)*a[3]", w->k[2]);
        fprintf(f, ";\n");
        if (w->type == 0)
            fprintf(f, "    w_om += w_c*((fpdtype_t)%.17g);\n", kk);
        fprintf(f, "    fpdtype_t w_cs = ((fpdtype_t)%.17g)*cos("
                   "((fpdtype_t)%.17g)*x[0] + ((fpdtype_t)%.17g)*x[1]",
                w->amp, w->k[0], w->k[1]);
        if (nd == 3)
            fprintf(f, " + ((fpdtype_t)%.17g)*x[2]", w->k[2]);
        fprintf(f, " - w_om*t);\n");
        if (w->type == 0) {
            fprintf(f, "    u[0] += w_cs/(w_c*w_c);\n");
            for (int d = 0; d < nd; d++)
                fprintf(f, "    u[%d] += ((fpdtype_t)%.17g)*w_cs/"
                           "(a[0]*w_c);\n", d + 1, w->k[d] / kk);
            fprintf(f, "    u[%d] += w_cs;\n", kp);
        } else if (w->type == 1 && nd == 2) { /* as before 3-D came */
            fprintf(f, "    u[1] -= ((fpdtype_t)%.17g)*w_cs;\n"
                       "    u[2] += ((fpdtype_t)%.17g)*w_cs;\n",
                    -w->e[0], w->e[1]);
        } else if (w->type == 1) {
            for (int d = 0; d < nd; d++)
                if (w->e[d] != 0)
                    fprintf(f, "    u[%d] += ((fpdtype_t)%.17g)*w_cs;\n",
                            d + 1, w->e[d]);
        } else {
            fprintf(f, "    u[0] += w_cs;\n");
        }
        fprintf(f, "}\n");
    }
    if (fclose(f))
        return frx_error(FRX_ENOMEM, "lee: out of memory");
    return FRX_OK;
}
