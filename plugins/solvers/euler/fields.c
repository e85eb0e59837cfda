/* SPDX-License-Identifier: BSD-3-Clause */
/* The Euler solver's fields from the case (fields.h): expressions of
 * the primitive variables, turned into the conserved ones. */
#include "fields.h"

#include <frx/fr/expr.h>

#include <frx/plugin.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXV 5 /* rho, u, v, w, p */

struct euler_fields {
    int ndims;
    double gamma;
    fr_expr_consts *consts;
    fr_expr *ics[MAXV], *exact[MAXV]; /* rho, u, v(, w), p */
    fr_expr *sources[MAXV];           /* rho, rhou, rhov(, rhow), E */
    char ics_at[512], exact_at[512];  /* "file:line:col" of each map */
};

static const char *const prim_2d[] = {"rho", "u", "v", "p"};
static const char *const prim_3d[] = {"rho", "u", "v", "w", "p"};
static const char *const cons_2d[] = {"rho", "rhou", "rhov", "E"};
static const char *const cons_3d[] = {"rho", "rhou", "rhov", "rhow", "E"};

static const char *const *prim_names(int ndims)
{
    return ndims == 3 ? prim_3d : prim_2d;
}

/* "file:line:col" of a node. */
static void where(const frx_cfgnode *n, char *buf, size_t len)
{
    snprintf(buf, len, "%s:%d:%d", frx_config_file(frx_cfg_owner(n)),
             frx_cfg_line(n), frx_cfg_col(n));
}

/* Compile the map solver.<key> of expressions, one per primitive
 * variable, each in vars; every variable required, no other key. */
static int compile_map(const euler_fields *f, const frx_cfgnode *opts,
                       const char *key, unsigned vars, fr_expr **out,
                       char *map_at, size_t map_at_len)
{
    const frx_cfgnode *map = frx_cfg_get(opts, key);
    const char *const *names = prim_names(f->ndims);
    int nv = f->ndims + 2;
    char at[512], full[64];
    where(map ? map : opts, at, sizeof at);
    snprintf(map_at, map_at_len, "%s", at);
    if (!map || frx_cfg_type(map) != FRX_CFG_MAP)
        return frx_error(FRX_ECONFIG, "%s: 'solver.%s' must be a mapping of "
                         "rho, u, v%s, p to expressions", at, key,
                         f->ndims == 3 ? ", w" : "");
    for (size_t i = 0; i < frx_cfg_len(map); i++) {
        const char *k = frx_cfg_key_at(map, i);
        int known = 0;
        for (int v = 0; v < nv; v++)
            known |= strcmp(k, names[v]) == 0;
        if (!known) {
            where(frx_cfg_key_node_at(map, i), at, sizeof at);
            return frx_error(FRX_ECONFIG, "%s: unknown key '%s' in "
                             "'solver.%s': give the primitive variables "
                             "rho, u, v%s and p", at, k, key,
                             f->ndims == 3 ? ", w" : "");
        }
    }
    for (int v = 0; v < nv; v++) {
        const frx_cfgnode *e = frx_cfg_get(map, names[v]);
        snprintf(full, sizeof full, "solver.%s.%s", key, names[v]);
        if (!e)
            return frx_error(FRX_ECONFIG, "%s: missing key '%s' in "
                             "'solver.%s' (an expression for %s)", at,
                             names[v], key, names[v]);
        int rc = fr_expr_compile(e, full, vars, f->consts, &out[v]);
        if (rc)
            return rc;
    }
    return FRX_OK;
}

/* solver.sources: any of the conserved variables' names, each an
 * expression. */
static int compile_sources(euler_fields *f, const frx_cfgnode *map,
                           unsigned vars)
{
    const char *const *names = f->ndims == 3 ? cons_3d : cons_2d;
    int nv = f->ndims + 2;
    char at[512], full[64];
    where(map, at, sizeof at);
    if (frx_cfg_type(map) != FRX_CFG_MAP)
        return frx_error(FRX_ECONFIG, "%s: 'solver.sources' must be a "
                         "mapping of conserved variables (rho, rhou, rhov%s, "
                         "E) to expressions in x, y and t", at,
                         f->ndims == 3 ? ", rhow" : "");
    for (size_t i = 0; i < frx_cfg_len(map); i++) {
        const char *k = frx_cfg_key_at(map, i);
        int v = 0;
        while (v < nv && strcmp(k, names[v]))
            v++;
        where(frx_cfg_key_node_at(map, i), at, sizeof at);
        if (v == nv)
            return frx_error(FRX_ECONFIG, "%s: unknown key '%s' in "
                             "'solver.sources': the conserved variables are "
                             "rho, rhou, rhov%s and E", at, k,
                             f->ndims == 3 ? ", rhow" : "");
        snprintf(full, sizeof full, "solver.sources.%s", k);
        int rc = fr_expr_compile(frx_cfg_at(map, i), full, vars, f->consts,
                                 &f->sources[v]);
        if (rc)
            return rc;
    }
    return FRX_OK;
}

int euler_fields_create(const frx_cfgnode *opts, int ndims,
                        euler_fields **out)
{
    euler_fields *f = calloc(1, sizeof *f);
    if (!f)
        return frx_error(FRX_ENOMEM, "euler: out of memory");
    *out = f;
    f->ndims = ndims;
    const frx_cfgnode *cmap = frx_cfg_get(opts, "constants");
    int rc = fr_expr_consts_create(cmap, "solver.constants", &f->consts);
    if (rc)
        return rc;
    if (fr_expr_consts_get(f->consts, "gamma", &f->gamma) != FRX_OK) {
        char at[512];
        where(cmap ? cmap : opts, at, sizeof at);
        return frx_error(FRX_ECONFIG, "%s: 'solver.constants' needs gamma, "
                         "the ratio of specific heats (1.4 for air)", at);
    }
    if (!(f->gamma > 1)) {
        char at[512];
        where(frx_cfg_get(cmap, "gamma"), at, sizeof at);
        return frx_error(FRX_ECONFIG, "%s: 'solver.constants.gamma' must be "
                         "greater than 1, got %g", at, f->gamma);
    }
    unsigned xy = FR_EXPR_X | FR_EXPR_Y | (ndims == 3 ? FR_EXPR_Z : 0);
    rc = compile_map(f, opts, "ics", xy, f->ics, f->ics_at,
                     sizeof f->ics_at);
    if (rc == FRX_OK && frx_cfg_get(opts, "exact"))
        rc = compile_map(f, opts, "exact", xy | FR_EXPR_T, f->exact,
                         f->exact_at, sizeof f->exact_at);
    if (rc == FRX_OK && frx_cfg_get(opts, "sources"))
        rc = compile_sources(f, frx_cfg_get(opts, "sources"),
                             xy | FR_EXPR_T);
    return rc;
}

void euler_fields_destroy(euler_fields *f)
{
    if (!f)
        return;
    for (int v = 0; v < MAXV; v++) {
        fr_expr_destroy(f->ics[v]);
        fr_expr_destroy(f->exact[v]);
        fr_expr_destroy(f->sources[v]);
    }
    fr_expr_consts_destroy(f->consts);
    free(f);
}

int euler_fields_ndims(const euler_fields *f) { return f->ndims; }

double euler_fields_gamma(const euler_fields *f) { return f->gamma; }

const fr_expr_consts *euler_fields_consts(const euler_fields *f)
{
    return f->consts;
}

int euler_fields_has_exact(const euler_fields *f)
{
    return f->exact[0] != NULL;
}

/* Evaluate the primitive expressions e at the points, then convert. */
static int conserved(const euler_fields *f, fr_expr *const *e,
                     const char *what, const char *at, double t, size_t n,
                     const double *xyz, double *vals)
{
    int d = f->ndims, nv = d + 2;
    double *prim = malloc((n ? n : 1) * sizeof *prim);
    if (!prim)
        return frx_error(FRX_ENOMEM, "euler: out of memory");
    int rc = FRX_OK;
    for (int v = 0; v < nv && rc == FRX_OK; v++) {
        rc = fr_expr_eval_points(e[v], n, (size_t)d, xyz, t, prim);
        for (size_t i = 0; i < n && rc == FRX_OK; i++)
            vals[i * nv + v] = prim[i];
    }
    free(prim);
    for (size_t i = 0; i < n && rc == FRX_OK; i++) {
        double *q = vals + i * nv, rho = q[0], p = q[nv - 1], ke = 0;
        if (!(rho > 0 && p > 0 && isfinite(rho) && isfinite(p)))
            return frx_error(FRX_ERANGE, "%s: solver.%s at (%g, %g%s) "
                             "gives rho = %g and p = %g: both must be "
                             "positive", at, what, xyz[i * d],
                             xyz[i * d + 1], d == 3 ? ", ..." : "", rho, p);
        for (int k = 1; k <= d; k++) {
            ke += 0.5 * rho * q[k] * q[k];
            q[k] *= rho;
        }
        q[nv - 1] = p / (f->gamma - 1) + ke;
    }
    return rc;
}

int euler_fields_initial(const euler_fields *f, double t, size_t n,
                         const double *xyz, double *vals)
{
    return conserved(f, f->ics, "ics", f->ics_at, t, n, xyz, vals);
}

int euler_fields_exact(const euler_fields *f, double t, size_t n,
                       const double *xyz, double *vals)
{
    if (!f->exact[0])
        return frx_error(FRX_ENOTSUP, "euler: the case has no "
                         "solver.exact");
    return conserved(f, f->exact, "exact", f->exact_at, t, n, xyz, vals);
}

/* ------------------------------------------------------------ kernels */

static const char *const kernel_names[4] = {"x[0]", "x[1]", "x[2]", "t"};

/* "<lhs> = <expression's C>;\n" to f */
static int emit(FILE *out, const fr_expr *e, int precision, const char *lhs)
{
    char *c = NULL;
    int rc = fr_expr_emit(e, kernel_names, precision, &c);
    if (!rc)
        fprintf(out, "%s = %s;\n", lhs, c);
    free(c);
    return rc;
}

/* The primitive variables as q_rho, q_u... then the conserved ones. */
static int initial_text(const euler_fields *f, int precision, FILE *out)
{
    const char *const *names = prim_names(f->ndims);
    int d = f->ndims, rc = FRX_OK;
    for (int v = 0; v < d + 2 && !rc; v++) {
        char lhs[32];
        snprintf(lhs, sizeof lhs, "fpdtype_t q_%s", names[v]);
        rc = emit(out, f->ics[v], precision, lhs);
    }
    fprintf(out, "fpdtype_t q_ke = 0;\n");
    for (int k = 1; k <= d; k++)
        fprintf(out, "q_ke += q_%s*q_%s;\nu[%d] = q_rho*q_%s;\n", names[k],
                names[k], k, names[k]);
    fprintf(out, "u[0] = q_rho;\n"
                 "u[%d] = q_p/(gamma - 1) + ((fpdtype_t)0.5)*q_rho*q_ke;\n"
                 "bad = !(q_rho > 0 && q_p > 0);", d + 1);
    return rc;
}

static int source_text(const euler_fields *f, int precision, FILE *out)
{
    int rc = FRX_OK;
    for (int v = 0; v < f->ndims + 2 && !rc; v++) {
        char lhs[32];
        snprintf(lhs, sizeof lhs, "src[%d]", v);
        if (f->sources[v])
            rc = emit(out, f->sources[v], precision, lhs);
    }
    return rc;
}

static int text(const euler_fields *f, int precision, int which, char **out)
{
    size_t len;
    FILE *m = open_memstream(out, &len);
    if (!m)
        return frx_error(FRX_ENOMEM, "euler: out of memory");
    int rc = which ? source_text(f, precision, m)
                   : initial_text(f, precision, m);
    if (fclose(m) && !rc)
        rc = frx_error(FRX_ENOMEM, "euler: out of memory");
    if (rc) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

int euler_fields_fragments(const euler_fields *f, int precision,
                           char **initial, char **source)
{
    *initial = *source = NULL;
    int any = 0;
    for (int v = 0; v < f->ndims + 2; v++)
        any |= f->sources[v] != NULL;
    int rc = text(f, precision, 0, initial);
    if (!rc && any)
        rc = text(f, precision, 1, source);
    return rc;
}
