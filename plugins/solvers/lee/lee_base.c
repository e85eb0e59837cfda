/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-lee: the base flow (solver.baseflow: rho, u, v, (w,) p as
 * expressions in x, y (and z) with solver.constants) and its
 * derivatives, the auxiliary fields of the physics (lee_frag.c).
 *
 * Each derivative of the base flow that is not identically 0
 * (the expression differentiated symbolically) is one more auxiliary
 * field: a uniform flow has nd + 2 fields and no source term. */
#include "lee.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const base_keys[2][LEE_NBASE] = {
    {"rho", "u", "v", "p"}, {"rho", "u", "v", "w", "p"}};
static const char *const base_names[2][LEE_NBASE] = {
    {"rho0", "u0", "v0", "p0"}, {"rho0", "u0", "v0", "w0", "p0"}};
static const unsigned coord[3] = {FR_EXPR_X, FR_EXPR_Y, FR_EXPR_Z};

/* ------------------------------------------------------------ reading */

/* A base flow with w on a 2-D mesh, or without it on a 3-D one. */
static int check_w(const struct lee *l, const frx_solver_init *init)
{
    const frx_cfgnode *map = frx_cfg_get(init->options, "baseflow");
    const frx_cfgnode *w = frx_cfg_get(init->options, "baseflow.w");
    char at[512];
    if (l->nd == 2 && w)
        return frx_error(FRX_ECONFIG, "%s: solver.baseflow.w is given, but "
                         "the mesh is 2-D: its base flow is rho, u, v and p "
                         "(w is for a 3-D mesh); remove w",
                         fr_cfg_place(w, at, sizeof at));
    if (l->nd == 3 && !w) {
        if (map)
            fr_cfg_place(map, at, sizeof at);
        else
            snprintf(at, sizeof at, "%s", frx_config_file(init->config));
        return frx_error(FRX_ECONFIG, "%s: solver.baseflow.w is missing: "
                         "the mesh is 3-D, so the base flow is rho, u, v, "
                         "w and p (numbers or expressions in x, y and z)",
                         at);
    }
    return FRX_OK;
}

int lee__base_read(struct lee *l, const frx_solver_init *init)
{
    const frx_cfgnode *o = init->options;
    const char *const *keys = base_keys[l->nd == 3];
    int rc = check_w(l, init);
    if (!rc)
        rc = fr_expr_consts_create(frx_cfg_get(o, "constants"),
                                   "solver.constants", &l->consts);
    unsigned vars = FR_EXPR_X | FR_EXPR_Y | (l->nd == 3 ? FR_EXPR_Z : 0);
    l->uniform = 1;
    for (int f = 0; f < l->nb && !rc; f++) {
        char key[64];
        snprintf(key, sizeof key, "baseflow.%s", keys[f]);
        const frx_cfgnode *n = frx_cfg_get(o, key);
        if (!n)
            return frx_error(FRX_ECONFIG, "%s: solver.%s is missing: give "
                             "the base flow as solver.baseflow: {rho: ..., "
                             "u: ..., v: ..., %sp: ...} (numbers or "
                             "expressions in %s)",
                             frx_config_file(init->config), key,
                             l->nd == 3 ? "w: ..., " : "",
                             l->nd == 3 ? "x, y and z" : "x and y");
        char full[80];
        snprintf(full, sizeof full, "solver.%s", key);
        rc = fr_expr_compile(n, full, vars, l->consts, &l->base[f]);
        if (rc)
            break;
        unsigned uses = fr_expr_uses(l->base[f]);
        for (int d = 0; d < l->nd && !rc; d++)
            if (uses & coord[d])
                rc = fr_expr_derivative(l->base[f], coord[d],
                                        &l->dbase[f][d]);
        l->uniform &= uses == 0;
    }
    if (rc)
        return rc;
    /* the auxiliary fields: the base flow, then its derivatives */
    l->naux = 0;
    for (int f = 0; f < l->nb; f++)
        l->aux[l->naux++] = base_names[l->nd == 3][f];
    for (int f = 0; f < l->nb; f++)
        for (int d = 0; d < l->nd; d++) {
            l->daux[f][d] = -1;
            if (!l->dbase[f][d])
                continue;
            snprintf(l->auxname[l->naux], sizeof l->auxname[0], "d%s/d%c",
                     base_names[l->nd == 3][f], "xyz"[d]);
            l->aux[l->naux] = l->auxname[l->naux];
            l->daux[f][d] = (int)l->naux++;
        }
    return FRX_OK;
}

/* The expression of auxiliary field k. */
static const fr_expr *aux_expr(const struct lee *l, size_t k)
{
    if (k < (size_t)l->nb)
        return l->base[k];
    for (int f = 0; f < l->nb; f++)
        for (int d = 0; d < l->nd; d++)
            if (l->daux[f][d] == (int)k)
                return l->dbase[f][d];
    return NULL;
}

/* a[k] = the base flow's field k (then its derivatives) */
int lee__aux_fragment(struct lee *l, int precision)
{
    const char *const names[4] = {"x[0]", "x[1]",
                                  l->nd == 3 ? "x[2]" : NULL, NULL};
    size_t len;
    FILE *f = open_memstream(&l->aux_src, &len);
    if (!f)
        return frx_error(FRX_ENOMEM, "lee: out of memory");
    int rc = FRX_OK;
    for (size_t k = 0; k < l->naux && !rc; k++) {
        char *c = NULL;
        if (!(rc = fr_expr_emit(aux_expr(l, k), names, precision, &c)))
            fprintf(f, "a[%zu] = %s;\n", k, c);
        free(c);
    }
    fprintf(f, "bad = !(a[0] > 0 && a[%d] > 0);", l->nb - 1);
    if (fclose(f) && !rc)
        rc = frx_error(FRX_ENOMEM, "lee: out of memory");
    return rc;
}

void lee__base_free(struct lee *l)
{
    for (int f = 0; f < LEE_NBASE; f++) {
        fr_expr_destroy(l->base[f]);
        for (int d = 0; d < 3; d++)
            fr_expr_destroy(l->dbase[f][d]);
    }
    fr_expr_consts_destroy(l->consts);
    free(l->source);
    free(l->aux_src);
    free(l->initial_src);
}

const char *lee__point(const struct lee *l, const double *x, char *buf,
                       size_t n)
{
    if (l->nd == 3)
        snprintf(buf, n, "(%g, %g, %g)", x[0], x[1], x[2]);
    else
        snprintf(buf, n, "(%g, %g)", x[0], x[1]);
    return buf;
}

/* The base flow and its derivatives at n points [n][nd] into vals
 * [n][naux]; rho0 and p0 must be positive. */
int lee__aux_at(void *ctx, size_t n, const double *xyz, double *vals)
{
    struct lee *l = ctx;
    size_t nd = (size_t)l->nd, kp = (size_t)l->nb - 1;
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return frx_error(FRX_ENOMEM, "lee: out of memory");
    int rc = FRX_OK;
    for (size_t k = 0; k < l->naux && !rc; k++) {
        const fr_expr *e = aux_expr(l, k);
        if ((rc = fr_expr_eval_points(e, n, nd, xyz, 0, v)))
            break;
        for (size_t i = 0; i < n; i++) {
            if ((k == 0 || k == kp) && !(v[i] > 0)) {
                const char *w = fr_expr_where(e);
                char pt[96];
                rc = frx_error(FRX_ERANGE, "%s%slee: solver.baseflow.%s is "
                               "%g at %s: the base flow's density and "
                               "pressure must be positive everywhere",
                               w, *w ? ": " : "", base_keys[nd == 3][k],
                               v[i], lee__point(l, xyz + nd * i, pt,
                                                sizeof pt));
                break;
            }
            vals[i * l->naux + k] = v[i];
        }
    }
    free(v);
    return rc;
}
