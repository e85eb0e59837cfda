/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-lee: plane waves (solver.waves), the initial condition and, in a
 * uniform base flow, the exact solution. Each wave has a whole number of
 * periods over the box's periodic shifts (modes), so it is periodic
 * wherever the mesh is:
 *
 *   acoustic:  p' = A cos(th), rho' = p'/c0^2, u' = k/|k| p'/(rho0 c0),
 *              th = k.x - (k.U0 + c0 |k|) t;
 *   vorticity: u' = A (-k_y, k_x)/|k| cos(th), th = k.x - (k.U0) t;
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

/* The mesh's period along x and y (0: not periodic that way). */
static int periods(const frx_mesh *m, double *len)
{
    frx_mesh_info mi = {.size = sizeof mi};
    int rc = frx_mesh_get_info(m, &mi);
    len[0] = len[1] = 0;
    for (size_t i = 0; !rc && i < mi.nperiodic; i++) {
        frx_mesh_periodic p = {.size = sizeof p};
        if ((rc = frx_mesh_get_periodic(m, i, &p)))
            break;
        for (int d = 0; d < 2; d++)
            if (p.shift[d] != 0 && p.shift[1 - d] == 0)
                len[d] = fabs(p.shift[d]);
    }
    return rc;
}

/* Every periodic shift s must give k.s a multiple of 2 pi. */
static int fits(const frx_mesh *m, const double *k, const frx_cfgnode *at)
{
    frx_mesh_info mi = {.size = sizeof mi};
    int rc = frx_mesh_get_info(m, &mi);
    for (size_t i = 0; !rc && i < mi.nperiodic; i++) {
        frx_mesh_periodic p = {.size = sizeof p};
        if ((rc = frx_mesh_get_periodic(m, i, &p)))
            break;
        double turns = (k[0] * p.shift[0] + k[1] * p.shift[1]) / (2 * M_PI);
        if (fabs(turns - nearbyint(turns)) > 1e-9 * fmax(1, fabs(turns)))
            rc = frx_error(FRX_ECONFIG, "%s:%d:%d: this wave is not "
                           "periodic over the mesh's periodic pair '%s' "
                           "(%.6g turns): its modes must fit the box",
                           frx_config_file(frx_cfg_owner(at)),
                           frx_cfg_line(at), frx_cfg_col(at), p.name, turns);
    }
    return rc;
}

static int wave_read(struct lee *l, const frx_solver_init *init,
                     const frx_cfgnode *w, struct lee_wave *out)
{
    const char *file = frx_config_file(frx_cfg_owner(w));
    int rc = frx_cfg_enum(w, "type", wave_types, 0, &out->type);
    if (!rc)
        rc = frx_cfg_double(w, "amplitude", 1e-3, -1e300, 1e300, &out->amp);
    const frx_cfgnode *m = frx_cfg_get(w, "modes");
    if (!rc && (!m || frx_cfg_type(m) != FRX_CFG_LIST ||
                frx_cfg_len(m) != 2))
        rc = frx_error(FRX_ECONFIG, "%s:%d:%d: a wave needs modes: [mx, my], "
                       "its whole periods over the box along x and y",
                       file, frx_cfg_line(m ? m : w), frx_cfg_col(m ? m : w));
    for (int d = 0; !rc && d < 2; d++) {
        const frx_cfgnode *md = frx_cfg_at(m, (size_t)d);
        rc = frx_cfg_int(md, NULL, 0, -1000000, 1000000, &out->modes[d]);
        if (!rc && out->modes[d] && !(l->len[d] > 0))
            rc = frx_error(FRX_ECONFIG, "%s:%d:%d: a wave with %ld periods "
                           "along %c needs a mesh periodic along %c",
                           file, frx_cfg_line(md), frx_cfg_col(md),
                           out->modes[d], "xy"[d], "xy"[d]);
        out->k[d] = rc || !out->modes[d]
                        ? 0 : 2 * M_PI * (double)out->modes[d] / l->len[d];
    }
    if (!rc && out->k[0] == 0 && out->k[1] == 0)
        rc = frx_error(FRX_ECONFIG, "%s:%d:%d: a wave needs modes other "
                       "than [0, 0]", file, frx_cfg_line(m), frx_cfg_col(m));
    return rc ? rc : fits(init->mesh, out->k, w);
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
    int rc = periods(init->mesh, l->len);
    l->nwaves = frx_cfg_len(ws);
    l->waves = calloc(l->nwaves, sizeof *l->waves);
    if (!l->waves)
        return frx_error(FRX_ENOMEM, "lee: out of memory");
    for (size_t i = 0; i < l->nwaves && !rc; i++)
        rc = wave_read(l, init, frx_cfg_at(ws, i), &l->waves[i]);
    return rc;
}

/* The sum of the waves at time t at n points [n][2] into vals [n][4]. */
int lee__waves_at(void *ctx, double t, size_t n, const double *xyz,
                  double *vals)
{
    const struct lee *l = ctx;
    for (size_t i = 0; i < n; i++) {
        double x = xyz[2 * i], y = xyz[2 * i + 1], a[LEE_NBASE];
        for (int f = 0; f < LEE_NBASE; f++)
            a[f] = fr_expr_eval(l->base[f], x, y, 0, 0);
        double c = sqrt(l->gamma * a[3] / a[0]), *v = &vals[4 * i];
        v[0] = v[1] = v[2] = v[3] = 0;
        for (size_t j = 0; j < l->nwaves; j++) {
            const struct lee_wave *w = &l->waves[j];
            double kk = hypot(w->k[0], w->k[1]);
            double kx = w->k[0] / kk, ky = w->k[1] / kk;
            double conv = w->k[0] * a[1] + w->k[1] * a[2];
            double om = conv + (w->type == 0 ? c * kk : 0);
            double cs = w->amp * cos(w->k[0] * x + w->k[1] * y - om * t);
            if (w->type == 0) {
                v[0] += cs / (c * c);
                v[1] += kx * cs / (a[0] * c);
                v[2] += ky * cs / (a[0] * c);
                v[3] += cs;
            } else if (w->type == 1) {
                v[1] -= ky * cs;
                v[2] += kx * cs;
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
    size_t len;
    FILE *f = open_memstream(&l->initial_src, &len);
    if (!f)
        return frx_error(FRX_ENOMEM, "lee: out of memory");
    fprintf(f, "fpdtype_t w_c = sqrt(gamma*a[3]/a[0]);\n");
    for (size_t j = 0; j < l->nwaves; j++) {
        const struct lee_wave *w = &l->waves[j];
        double kk = hypot(w->k[0], w->k[1]);
        /* th = k.x - om t; om = k.U0 (+ c0 |k| for sound) */
        fprintf(f, "{\n    fpdtype_t w_om = ((fpdtype_t)%.17g)*a[1] + "
                   "((fpdtype_t)%.17g)*a[2];\n", w->k[0], w->k[1]);
        if (w->type == 0)
            fprintf(f, "    w_om += w_c*((fpdtype_t)%.17g);\n", kk);
        fprintf(f, "    fpdtype_t w_cs = ((fpdtype_t)%.17g)*cos("
                   "((fpdtype_t)%.17g)*x[0] + ((fpdtype_t)%.17g)*x[1] - "
                   "w_om*t);\n", w->amp, w->k[0], w->k[1]);
        if (w->type == 0)
            fprintf(f, "    u[0] += w_cs/(w_c*w_c);\n"
                       "    u[1] += ((fpdtype_t)%.17g)*w_cs/(a[0]*w_c);\n"
                       "    u[2] += ((fpdtype_t)%.17g)*w_cs/(a[0]*w_c);\n"
                       "    u[3] += w_cs;\n", w->k[0] / kk, w->k[1] / kk);
        else if (w->type == 1)
            fprintf(f, "    u[1] -= ((fpdtype_t)%.17g)*w_cs;\n"
                       "    u[2] += ((fpdtype_t)%.17g)*w_cs;\n",
                    w->k[1] / kk, w->k[0] / kk);
        else
            fprintf(f, "    u[0] += w_cs;\n");
        fprintf(f, "}\n");
    }
    if (fclose(f))
        return frx_error(FRX_ENOMEM, "lee: out of memory");
    return FRX_OK;
}
