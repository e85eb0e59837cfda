/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-euler: the compressible Euler equations by flux reconstruction,
 * in 2-D (rho, rhou, rhov, E) and 3-D (rho, rhou, rhov, rhow, E: the
 * mesh says which).
 *
 * The FR system (plugins/solvers/fr/system.h) does the elements,
 * interfaces and graphs; this plugin gives it the physics (physics.h:
 * the flux, the Riemann solvers, the wave speed and the boundary ghost
 * states as kernel macros) and the fields of the case (fields.h). Only
 * the public SDK. docs/euler.md describes the options. */
#include "fields.h"
#include "physics.h"
#include <frx/fr/system.h>

#include <frx/mesh.h>
#include <frx/plugin.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const frx_option options[] = {
    FR_SYSTEM_OPTIONS,
    {.key = "riemann-solver", .type = FRX_OPT_ENUM, .choices = "rusanov|hllc",
     .def = "rusanov",
     .help = "the common interface flux: rusanov (PyFR's) or hllc"},
    {.key = "constants", .type = FRX_OPT_MAP, .required = 1,
     .help = "named constants of the expressions: gamma (the ratio of "
             "specific heats) and any others, {gamma: 1.4, M: 0.4}"},
    {.key = "ics", .type = FRX_OPT_MAP, .required = 1,
     .help = "the initial condition: rho, u, v, p (3-D: rho, u, v, w, p) "
             "as expressions in x, y (z) and the constants"},
    {.key = "exact", .type = FRX_OPT_MAP,
     .help = "the exact solution (L2 errors at the end): rho, u, v (w), p "
             "in x, y (z), t and the constants"},
    {.key = "sources", .type = FRX_OPT_MAP,
     .help = "source terms added to d/dt of the conserved variables: any "
             "of rho, rhou, rhov (rhow), E as expressions in x, y (z), t "
             "and the constants"},
    {0},
};

static const char *const var_names[2][5] = {
    {"rho", "rhou", "rhov", "E"}, {"rho", "rhou", "rhov", "rhow", "E"}};
/* What analysis plugins offer beside them (fr_physics.derived): the
 * velocity and the pressure. */
static const char *const derived_names[2][4] = {{"u", "v", "p"},
                                                {"u", "v", "w", "p"}};
static const char *const derived_src[2] = {
    "d[0] = u[1]/u[0];\n"
    "d[1] = u[2]/u[0];\n"
    "d[2] = (gamma - 1)*(u[3] - 0.5*u[0]*(d[0]*d[0] + d[1]*d[1]));",
    "d[0] = u[1]/u[0];\n"
    "d[1] = u[2]/u[0];\n"
    "d[2] = u[3]/u[0];\n"
    "d[3] = (gamma - 1)*(u[4] - 0.5*u[0]*(d[0]*d[0] + d[1]*d[1] + "
    "d[2]*d[2]));"};

/* A free stream (rho, u, v, p) needs rho > 0 and p > 0 at every point
 * (at the start: values in t are checked there): else the ghost state
 * is no state, and the run blows up later with no word of why. */
static int free_stream_check(void *ctx, const char *where,
                             const double *vals, size_t n, const double *x,
                             const double *nrm, const double *aux)
{
    (void)nrm, (void)aux;
    size_t nd = (size_t)euler_fields_ndims(ctx), nk = nd + 2;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < nk; k += nk - 1)
            if (!(vals[nk * i + k] > 0))
                return frx_error(FRX_ECONFIG, "%s: the free stream's %s is "
                                 "%g at (%g, %g%s%.6g): rho and p must be "
                                 "positive", where, k ? "p" : "rho",
                                 vals[nk * i + k], x[nd * i], x[nd * i + 1],
                                 nd == 3 ? ", " : "",
                                 nd == 3 ? x[nd * i + 2] : 0.0);
    return FRX_OK;
}

/* PyFR's boundary kinds, in 2-D and 3-D; the free stream of sup-in-fa
 * and char-riem-inv reaches the macros as the scalars bc_rho, bc_u,
 * bc_v (bc_w), bc_p. */
static const fr_bc_kind bc_kinds[2][4] = {
    {{"sup-in-fa", "rho|u|v|p", "euler_bc_sup_in(ul, n, ur);",
      "supersonic inflow: the free stream rho, u, v, p", free_stream_check},
     {"sup-out-fn", NULL, "euler_bc_sup_out(ul, n, ur);",
      "supersonic outflow: the inside state", NULL},
     {"slp-adia-wall", NULL, "euler_bc_slip_wall(ul, n, ur);",
      "slip (inviscid) wall", NULL},
     {"char-riem-inv", "rho|u|v|p", "euler_bc_char_riem(ul, n, ur);",
      "characteristic far field about the free stream rho, u, v, p",
      free_stream_check}},
    {{"sup-in-fa", "rho|u|v|w|p", "euler_bc_sup_in(ul, n, ur);",
      "supersonic inflow: the free stream rho, u, v, w, p",
      free_stream_check},
     {"sup-out-fn", NULL, "euler_bc_sup_out(ul, n, ur);",
      "supersonic outflow: the inside state", NULL},
     {"slp-adia-wall", NULL, "euler_bc_slip_wall(ul, n, ur);",
      "slip (inviscid) wall", NULL},
     {"char-riem-inv", "rho|u|v|w|p", "euler_bc_char_riem(ul, n, ur);",
      "characteristic far field about the free stream rho, u, v, w, p",
      free_stream_check}},
};

struct euler {
    euler_fields *fields;
    char *initial_src, *source_src; /* the fields' fragments */
    frx_kernel_macro *macros;
    size_t nmacros;
    fr_const consts[1];
    fr_physics phys;
    fr_system *sys;
    frx_solver_block *blocks; /* the system's, without norms (no exact) */
};

static int initial_cb(void *ctx, double t0, size_t n, const double *xyz,
                      double *vals)
{
    return euler_fields_initial(ctx, t0, n, xyz, vals);
}

static int exact_cb(void *ctx, double t, size_t n, const double *xyz,
                    double *vals)
{
    return euler_fields_exact(ctx, t, n, xyz, vals);
}

/* Without solver.exact there are no error norms: the core skips them for
 * blocks without quadrature weights, so hand it copies of the system's
 * blocks with none (the system keeps its weights in them). */
static int without_norms(struct euler *s, frx_solver_info *info)
{
    size_t n = info->nblocks, sz = info->block_size;
    if (sz < offsetof(frx_solver_block, qweights) + sizeof(const double *))
        return FRX_OK;
    s->blocks = calloc(n ? n : 1, sz);
    if (!s->blocks)
        return frx_error(FRX_ENOMEM, "euler: out of memory");
    memcpy(s->blocks, info->blocks, n * sz);
    for (size_t b = 0; b < n; b++)
        ((frx_solver_block *)((char *)s->blocks + b * sz))->qweights = NULL;
    info->blocks = s->blocks;
    return FRX_OK;
}

static int euler_create(const frx_solver_init *init, frx_solver_info *info,
                        void **state)
{
    struct euler *s = calloc(1, sizeof *s);
    if (!s)
        return frx_error(FRX_ENOMEM, "euler: out of memory");
    *state = s;
    int rs = 0;
    frx_mesh_info mi = {.size = sizeof mi};
    int rc = init->mesh ? frx_mesh_get_info(init->mesh, &mi) : FRX_OK;
    /* 2 or 3; the system refuses another */
    int nd = mi.ndims == 3 ? 3 : 2, d3 = nd == 3;
    if (rc == FRX_OK)
        rc = frx_cfg_enum(init->options, "riemann-solver", "rusanov|hllc", 0,
                          &rs);
    if (rc == FRX_OK)
        rc = euler_fields_create(init->options, nd, &s->fields);
    if (rc == FRX_OK)
        rc = euler_macros(nd, &s->macros, &s->nmacros);
    if (rc == FRX_OK)
        rc = euler_fields_fragments(s->fields,
                                    frx_backend_precision(init->backend),
                                    &s->initial_src, &s->source_src);
    if (rc) /* the other ranks agree in fr_system_create (system.h) */
        return fr_agree_setup(frx_comm_mpi(init->comm), rc, "euler's set-up");
    s->consts[0] = (fr_const){"gamma", euler_fields_gamma(s->fields)};
    s->phys = (fr_physics){
        .name = "euler",
        .nvars = (size_t)nd + 2,
        .vars = var_names[d3],
        .consts = s->consts,
        .nconsts = 1,
        .macros = s->macros,
        .nmacros = s->nmacros,
        .flux = "fpdtype_t p, v[NDIMS];\neuler_flux(u, f, p, v);",
        .rsolve = rs ? "euler_hllc(ul, ur, n, fn);"
                     : "euler_rusanov(ul, ur, n, fn);",
        .wavespeed = "euler_wavespeed(u, s);",
        .source = s->source_src,
        .bcs = bc_kinds[d3],
        .nbcs = sizeof bc_kinds[0] / sizeof bc_kinds[0][0],
        .ctx = s->fields,
        .initial = initial_cb,
        .exact = euler_fields_has_exact(s->fields) ? exact_cb : NULL,
        .initial_src = s->initial_src,
        .expr_consts = euler_fields_consts(s->fields),
        .nderived = (size_t)nd + 1,
        .derived = derived_names[d3],
        .derived_src = derived_src[d3],
        .dims = FR_DIMS_2 | FR_DIMS_3,
    };
    rc = fr_system_create(init, &s->phys, info, &s->sys);
    if (rc == FRX_OK && !s->phys.exact)
        rc = without_norms(s, info);
    return rc;
}

static void euler_destroy(void *state)
{
    struct euler *s = state;
    if (!s)
        return;
    fr_system_destroy(s->sys);
    free(s->blocks);
    euler_macros_free(s->macros, s->nmacros);
    euler_fields_destroy(s->fields);
    free(s->initial_src);
    free(s->source_src);
    free(s);
}

static int euler_initial(void *state, frx_matrix *const *u)
{
    return fr_system_initial(((struct euler *)state)->sys, u);
}

static int euler_build_rhs(void *state, frx_matrix *const *u,
                           frx_matrix *const *f, frx_graph *g)
{
    return fr_system_build_rhs(((struct euler *)state)->sys, u, f, g);
}

static int euler_set_time(void *state, double t)
{
    return fr_system_set_time(((struct euler *)state)->sys, t);
}

static int euler_exact(void *state, double t, size_t n, const double *xyz,
                       double *vals)
{
    return fr_system_exact(((struct euler *)state)->sys, t, n, xyz, vals);
}

static int euler_max_dt(void *state, frx_matrix *const *u, double cfl,
                        double *dt)
{
    return fr_system_max_dt(((struct euler *)state)->sys, u, cfl, dt);
}

static const frx_solver_ops ops = {
    .size = sizeof(frx_solver_ops),
    .options = options,
    .api_major = FRX_SOLVER_API_MAJOR,
    .api_minor = FRX_SOLVER_API_MINOR,
    .create = euler_create,
    .destroy = euler_destroy,
    .initial = euler_initial,
    .build_rhs = euler_build_rhs,
    .set_time = euler_set_time,
    .exact = euler_exact,
    .max_dt = euler_max_dt,
};

static const frx_plugin_desc desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_SOLVER, "euler", "1.0.0",
                         "compressible Euler equations, flux reconstruction "
                         "on quadrilaterals and triangles"),
    .solver = &ops,
};

FRX_PLUGIN_DEFINE(desc)
