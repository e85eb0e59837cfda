/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-shallow-water: the 2-D shallow-water equations by flux
 * reconstruction, a physics plugin built out of tree against frx's
 * installed FR SDK (<frx/fr/...>, frx::fr) and nothing else of frx's.
 *
 * Unknowns U = (h, hu, hv) over a bed b(x, y). The momentum flux is
 * written in the pre-balanced form (Rogers, Borthwick and Taylor),
 *
 *   F_x = (hu, hu u + g (eta^2/2 - eta b), hv u),  eta = h + b,
 *   F_y = (hv, hu v, hv v + g (eta^2/2 - eta b)),
 *   S   = (0, -g eta db/dx, -g eta db/dy),
 *
 * the same equations as the usual g h^2/2 with S = -g h grad b, but a
 * lake at rest (eta constant, u = v = 0) gives div F = S exactly for
 * the polynomials FR holds, not only up to their interpolation error:
 * it stays at rest to round-off wherever the bed is a polynomial of
 * degree <= p in each element. The common flux is Rusanov's; walls
 * mirror the normal velocity.
 *
 * The case (docs/fr.md, "Writing a physics plugin", walks through it):
 *
 *   solver:
 *     name: shallow-water
 *     constants: {g: 9.81}              # g is required
 *     bed: 0.1*exp(-20*(x*x + y*y))     # optional, 0 by default
 *     ics: {h: ..., u: ..., v: ...}     # in x, y
 *     exact: {h: ..., u: ..., v: ...}   # optional, in x, y, t
 *     sources: {h: ..., hu: ..., hv: ...} # optional, in x, y, t
 *     boundaries: {<name>: {type: wall}}
 */
#include <frx/fr/expr.h>
#include <frx/fr/system.h>

#include <frx/comm.h>
#include <frx/plugin.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const frx_option options[] = {
    FR_SYSTEM_OPTIONS,
    {.key = "constants", .type = FRX_OPT_MAP, .required = 1,
     .help = "named constants of the expressions: g (gravity) and any "
             "others"},
    {.key = "bed", .type = FRX_OPT_STRING, .def = "0",
     .help = "the bed's height b as an expression in x, y"},
    {.key = "ics", .type = FRX_OPT_MAP, .required = 1,
     .help = "the initial depth h and velocity u, v, in x and y"},
    {.key = "exact", .type = FRX_OPT_MAP,
     .help = "the exact h, u, v in x, y, t (L2 errors at the end)"},
    {.key = "sources", .type = FRX_OPT_MAP,
     .help = "source terms of h, hu, hv in x, y, t (a manufactured "
             "solution's)"},
    {0},
};

static const char *const var_names[] = {"h", "hu", "hv"};
static const char *const aux_names[] = {"b", "db/dx", "db/dy"};
static const char *const prim[] = {"h", "u", "v"};

/* The normal flux F.N of state Q over bed A (A[0] = b). */
static const frx_kernel_macro macros[] = {
    {"sw_nflux", "Q, A, N, F",
     "{\n"
     "    fpdtype_t nf_un = ((Q)[1]*(N)[0] + (Q)[2]*(N)[1])/(Q)[0];\n"
     "    fpdtype_t nf_eta = (Q)[0] + (A)[0];\n"
     "    fpdtype_t nf_p = g*(((fpdtype_t)0.5)*nf_eta*nf_eta - "
     "nf_eta*(A)[0]);\n"
     "    (F)[0] = (Q)[0]*nf_un;\n"
     "    (F)[1] = (Q)[1]*nf_un + nf_p*(N)[0];\n"
     "    (F)[2] = (Q)[2]*nf_un + nf_p*(N)[1];\n"
     "}"},
};

static const char flux[] =
    "fpdtype_t eta = u[0] + a[0], uu = u[1]/u[0], vv = u[2]/u[0];\n"
    "fpdtype_t p = g*(((fpdtype_t)0.5)*eta*eta - eta*a[0]);\n"
    "f[0][0] = u[1];\n"
    "f[0][1] = u[1]*uu + p;\n"
    "f[0][2] = u[2]*uu;\n"
    "f[1][0] = u[2];\n"
    "f[1][1] = u[1]*vv;\n"
    "f[1][2] = u[2]*vv + p;";

/* Rusanov: the mean of both normal fluxes less the fastest wave times
 * the jump; swapping the sides and n negates it (consistent). */
static const char rusanov[] =
    "fpdtype_t fl[3], fr[3];\n"
    "sw_nflux(ul, al, n, fl);\n"
    "sw_nflux(ur, ar, n, fr);\n"
    "fpdtype_t sl = fabs((ul[1]*n[0] + ul[2]*n[1])/ul[0]) + "
    "sqrt(g*ul[0]);\n"
    "fpdtype_t sr = fabs((ur[1]*n[0] + ur[2]*n[1])/ur[0]) + "
    "sqrt(g*ur[0]);\n"
    "fpdtype_t s = fmax(sl, sr);\n"
    "for (int k = 0; k < 3; k++)\n"
    "    fn[k] = ((fpdtype_t)0.5)*(fl[k] + fr[k] - s*(ur[k] - ul[k]));";

static const fr_bc_kind bcs[] = {
    {.type = "wall",
     .ghost = "fpdtype_t qn = ul[1]*n[0] + ul[2]*n[1];\n"
              "ur[0] = ul[0];\n"
              "ur[1] = ul[1] - 2*qn*n[0];\n"
              "ur[2] = ul[2] - 2*qn*n[1];",
     .help = "a wall: no flow through it"},
};

struct sw {
    fr_expr_consts *consts;
    double g;
    fr_expr *bed, *dbed[2];
    fr_expr *ics[3], *exact[3], *sources[3];
    char *initial_src, *aux_src, *source_src;
    fr_const fconsts[1];
    fr_system *sys;
    frx_solver_block *blocks; /* without norms, where there is no exact */
};

/* "file:line:col" of a node. */
static const char *at(const frx_cfgnode *n, char *buf, size_t len)
{
    snprintf(buf, len, "%s:%d:%d", frx_config_file(frx_cfg_owner(n)),
             frx_cfg_line(n), frx_cfg_col(n));
    return buf;
}

/* solver.<key>: a map of the names `names` (all of them if required) to
 * expressions in vars. */
static int read_map(struct sw *s, const frx_cfgnode *opts, const char *key,
                    const char *const *names, int required, unsigned vars,
                    fr_expr **out)
{
    const frx_cfgnode *map = frx_cfg_get(opts, key);
    char where[512], full[64];
    if (!map)
        return FRX_OK; /* required maps: the schema says so */
    if (frx_cfg_type(map) != FRX_CFG_MAP)
        return frx_error(FRX_ECONFIG, "%s: solver.%s must be a mapping of "
                         "%s, %s, %s to expressions", at(map, where,
                                                         sizeof where),
                         key, names[0], names[1], names[2]);
    for (size_t i = 0; i < frx_cfg_len(map); i++) {
        const char *k = frx_cfg_key_at(map, i);
        int v = 0;
        while (v < 3 && strcmp(k, names[v]))
            v++;
        if (v == 3)
            return frx_error(FRX_ECONFIG, "%s: unknown key '%s' in "
                             "solver.%s: give %s, %s and %s",
                             at(frx_cfg_key_node_at(map, i), where,
                                sizeof where), k, key, names[0], names[1],
                             names[2]);
    }
    for (int v = 0; v < 3; v++) {
        const frx_cfgnode *e = frx_cfg_get(map, names[v]);
        snprintf(full, sizeof full, "solver.%s.%s", key, names[v]);
        if (!e && required)
            return frx_error(FRX_ECONFIG, "%s: solver.%s needs %s",
                             at(map, where, sizeof where), key, names[v]);
        int rc = e ? fr_expr_compile(e, full, vars, s->consts, &out[v])
                   : FRX_OK;
        if (rc)
            return rc;
    }
    return FRX_OK;
}

static int read_case(struct sw *s, const frx_cfgnode *opts)
{
    const frx_cfgnode *cmap = frx_cfg_get(opts, "constants");
    int rc = fr_expr_consts_create(cmap, "solver.constants", &s->consts);
    char where[512];
    if (!rc && fr_expr_consts_get(s->consts, "g", &s->g) != FRX_OK)
        rc = frx_error(FRX_ECONFIG, "%s: solver.constants needs g, the "
                       "gravity (9.81)", at(cmap ? cmap : opts, where,
                                            sizeof where));
    if (!rc && !(s->g > 0))
        rc = frx_error(FRX_ECONFIG, "%s: solver.constants.g is %g: it must "
                       "be positive", at(cmap, where, sizeof where), s->g);
    unsigned xy = FR_EXPR_X | FR_EXPR_Y, xyt = xy | FR_EXPR_T;
    const frx_cfgnode *bed = frx_cfg_get(opts, "bed");
    if (!rc)
        rc = bed ? fr_expr_compile(bed, "solver.bed", xy, s->consts, &s->bed)
                 : fr_expr_compile_text("0", NULL, "solver.bed", xy, NULL,
                                        &s->bed);
    for (int d = 0; d < 2 && !rc; d++)
        rc = fr_expr_derivative(s->bed, d ? FR_EXPR_Y : FR_EXPR_X,
                                &s->dbed[d]);
    if (!rc)
        rc = read_map(s, opts, "ics", prim, 1, xy, s->ics);
    if (!rc)
        rc = read_map(s, opts, "exact", prim, 1, xyt, s->exact);
    if (!rc)
        rc = read_map(s, opts, "sources", var_names, 0, xyt, s->sources);
    return rc;
}

/* ---------------------------------------------------------- fragments */

/* The fragments of the case's expressions, for this backend's
 * precision: what the FR system computes in kernels. */
static int fragments(struct sw *s, int precision)
{
    static const char *const xyt[4] = {"x[0]", "x[1]", NULL, "t"};
    char *e[3] = {NULL, NULL, NULL};
    size_t len;
    FILE *f;
    int rc = FRX_OK;
    /* the initial state from h, u, v */
    for (int v = 0; v < 3 && !rc; v++)
        rc = fr_expr_emit(s->ics[v], xyt, precision, &e[v]);
    if (!rc && !(f = open_memstream(&s->initial_src, &len)))
        rc = FRX_ENOMEM;
    if (!rc) {
        fprintf(f, "fpdtype_t q_h = %s, q_u = %s, q_v = %s;\n"
                   "u[0] = q_h;\nu[1] = q_h*q_u;\nu[2] = q_h*q_v;\n"
                   "bad = !(q_h > 0);", e[0], e[1], e[2]);
        rc = fclose(f) ? FRX_ENOMEM : FRX_OK;
    }
    for (int v = 0; v < 3; v++)
        free(e[v]), e[v] = NULL;
    /* the bed and its slopes */
    rc = rc ? rc : fr_expr_emit(s->bed, xyt, precision, &e[0]);
    for (int d = 0; d < 2 && !rc; d++)
        rc = fr_expr_emit(s->dbed[d], xyt, precision, &e[1 + d]);
    if (!rc && !(f = open_memstream(&s->aux_src, &len)))
        rc = FRX_ENOMEM;
    if (!rc) {
        fprintf(f, "a[0] = %s;\na[1] = %s;\na[2] = %s;", e[0], e[1], e[2]);
        rc = fclose(f) ? FRX_ENOMEM : FRX_OK;
    }
    for (int v = 0; v < 3; v++)
        free(e[v]), e[v] = NULL;
    /* the bed's slope, and the case's own sources */
    if (!rc && !(f = open_memstream(&s->source_src, &len)))
        rc = FRX_ENOMEM;
    if (!rc) {
        fprintf(f, "fpdtype_t s_eta = u[0] + a[0];\n"
                   "src[1] = -g*s_eta*a[1];\nsrc[2] = -g*s_eta*a[2];\n");
        for (int v = 0; v < 3 && !rc; v++) {
            char *c = NULL;
            if (s->sources[v] &&
                !(rc = fr_expr_emit(s->sources[v], xyt, precision, &c)))
                fprintf(f, "src[%d] += %s;\n", v, c);
            free(c);
        }
        rc = fclose(f) && !rc ? FRX_ENOMEM : rc;
    }
    if (rc == FRX_ENOMEM)
        return frx_error(rc, "shallow-water: out of memory");
    return rc;
}

/* ------------------------------------------------------ host callbacks */

/* (h, hu, hv) of the expressions e (h, u, v) at the points, time t. */
static int state_at(const struct sw *s, fr_expr *const *e, double t,
                    size_t n, const double *xy, double *vals)
{
    double *v = malloc((n ? n : 1) * 3 * sizeof *v);
    if (!v)
        return frx_error(FRX_ENOMEM, "shallow-water: out of memory");
    int rc = FRX_OK;
    for (int k = 0; k < 3 && !rc; k++)
        rc = fr_expr_eval_points(e[k], n, 2, xy, t, v + k * n);
    for (size_t i = 0; i < n && !rc; i++) {
        double h = v[i];
        if (!(h > 0))
            rc = frx_error(FRX_ERANGE, "%s: %s is %g at (%g, %g): the depth "
                           "must be positive", fr_expr_where(e[0]),
                           fr_expr_key(e[0]), h, xy[2 * i], xy[2 * i + 1]);
        vals[3 * i] = h;
        vals[3 * i + 1] = h * v[n + i];
        vals[3 * i + 2] = h * v[2 * n + i];
    }
    (void)s;
    free(v);
    return rc;
}

static int initial_cb(void *ctx, double t0, size_t n, const double *xyz,
                      double *vals)
{
    const struct sw *s = ctx;
    return state_at(s, s->ics, t0, n, xyz, vals);
}

static int exact_cb(void *ctx, double t, size_t n, const double *xyz,
                    double *vals)
{
    const struct sw *s = ctx;
    return state_at(s, s->exact, t, n, xyz, vals);
}

/* ----------------------------------------------------------------- ops */

static void sw_destroy(void *state)
{
    struct sw *s = state;
    if (!s)
        return;
    fr_system_destroy(s->sys);
    for (int v = 0; v < 3; v++) {
        fr_expr_destroy(s->ics[v]);
        fr_expr_destroy(s->exact[v]);
        fr_expr_destroy(s->sources[v]);
    }
    fr_expr_destroy(s->bed);
    fr_expr_destroy(s->dbed[0]);
    fr_expr_destroy(s->dbed[1]);
    fr_expr_consts_destroy(s->consts);
    free(s->initial_src);
    free(s->aux_src);
    free(s->source_src);
    free(s->blocks);
    free(s);
}

/* Without solver.exact, no error norms: the core skips blocks without
 * quadrature weights. */
static int without_norms(struct sw *s, frx_solver_info *info)
{
    size_t n = info->nblocks, sz = info->block_size;
    if (!(s->blocks = calloc(n ? n : 1, sz)))
        return frx_error(FRX_ENOMEM, "shallow-water: out of memory");
    memcpy(s->blocks, info->blocks, n * sz);
    for (size_t b = 0; b < n; b++)
        ((frx_solver_block *)((char *)s->blocks + b * sz))->qweights = NULL;
    info->blocks = s->blocks;
    return FRX_OK;
}

static int sw_create(const frx_solver_init *init, frx_solver_info *info,
                     void **state)
{
    struct sw *s = calloc(1, sizeof *s);
    if (!s)
        return frx_error(FRX_ENOMEM, "shallow-water: out of memory");
    *state = s;
    int rc = read_case(s, init->options);
    if (!rc)
        rc = fragments(s, frx_backend_precision(init->backend));
    if (rc) /* the other ranks meet this in fr_system_create */
        return fr_agree_setup(frx_comm_mpi(init->comm), rc,
                              "shallow-water's set-up");
    s->fconsts[0] = (fr_const){"g", s->g};
    fr_physics p = {
        .name = "shallow-water",
        .nvars = 3,
        .vars = var_names,
        .naux = 3,
        .aux = aux_names,
        .consts = s->fconsts,
        .nconsts = 1,
        .macros = macros,
        .nmacros = sizeof macros / sizeof *macros,
        .flux = flux,
        .rsolve = rusanov,
        .wavespeed = "s = sqrt(u[1]*u[1] + u[2]*u[2])/u[0] + sqrt(g*u[0]);",
        .source = s->source_src,
        .bcs = bcs,
        .nbcs = sizeof bcs / sizeof *bcs,
        .ctx = s,
        .initial = initial_cb,
        .exact = s->exact[0] ? exact_cb : NULL,
        .initial_src = s->initial_src,
        .aux_src = s->aux_src,
        .expr_consts = s->consts,
    };
    rc = fr_system_create(init, &p, info, &s->sys);
    if (!rc && !s->exact[0])
        rc = without_norms(s, info);
    return rc;
}

static int sw_initial(void *state, frx_matrix *const *u)
{
    return fr_system_initial(((struct sw *)state)->sys, u);
}

static int sw_build_rhs(void *state, frx_matrix *const *u,
                        frx_matrix *const *f, frx_graph *g)
{
    return fr_system_build_rhs(((struct sw *)state)->sys, u, f, g);
}

static int sw_set_time(void *state, double t)
{
    return fr_system_set_time(((struct sw *)state)->sys, t);
}

static int sw_exact(void *state, double t, size_t n, const double *xyz,
                    double *vals)
{
    return fr_system_exact(((struct sw *)state)->sys, t, n, xyz, vals);
}

static int sw_max_dt(void *state, frx_matrix *const *u, double cfl,
                     double *dt)
{
    return fr_system_max_dt(((struct sw *)state)->sys, u, cfl, dt);
}

static const frx_solver_ops ops = {
    .size = sizeof(frx_solver_ops),
    .options = options,
    .api_major = FRX_SOLVER_API_MAJOR,
    .api_minor = FRX_SOLVER_API_MINOR,
    .create = sw_create,
    .destroy = sw_destroy,
    .initial = sw_initial,
    .build_rhs = sw_build_rhs,
    .set_time = sw_set_time,
    .exact = sw_exact,
    .max_dt = sw_max_dt,
};

static const frx_plugin_desc desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_SOLVER, "shallow-water", "1.0.0",
                         "2-D shallow-water equations by flux "
                         "reconstruction (an FR SDK example)"),
    .solver = &ops,
};

FRX_PLUGIN_DEFINE(desc)
