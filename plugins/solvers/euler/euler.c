/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-euler: the compressible Euler equations by flux reconstruction,
 * in 2-D (rho, rhou, rhov, E) and 3-D (rho, rhou, rhov, rhow, E: the
 * mesh says which). Built again with FRX_EULER_VISCOUS as
 * frx-navier-stokes: the same with the viscous terms (viscous.h), PyFR's
 * navier-stokes boundary kinds and the options of docs/navier-stokes.md.
 *
 * The FR system (plugins/solvers/fr/system.h) does the elements,
 * interfaces and graphs; this plugin gives it the physics (physics.h:
 * the flux, the Riemann solvers, the wave speed and the boundary ghost
 * states as kernel macros) and the fields of the case (fields.h). Only
 * the public SDK. docs/euler.md describes the options. */
#include "fields.h"
#include "physics.h"
#include <frx/fr/system.h>
#if FRX_EULER_VISCOUS
#include "viscous.h"
#endif

#include <frx/mesh.h>
#include <frx/plugin.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#ifndef FRX_EULER_VISCOUS
#define FRX_EULER_VISCOUS 0
#endif

static const frx_option options[] = {
    FR_SYSTEM_OPTIONS,
#if FRX_EULER_VISCOUS
    FR_VISCOUS_OPTIONS,
    {.key = "viscosity-correction", .type = FRX_OPT_ENUM,
     .choices = "none|sutherland", .def = "none",
     .help = "the viscosity: none (constant mu) or sutherland (mu at "
             "cpT = cpTref, constants cpTref and cpTs), PyFR's"},
#endif
    {.key = "riemann-solver", .type = FRX_OPT_ENUM, .choices = "rusanov|hllc",
     .def = "rusanov",
     .help = "the common interface flux: rusanov (PyFR's) or hllc"},
    {.key = "constants", .type = FRX_OPT_MAP, .required = 1,
#if FRX_EULER_VISCOUS
     .help = "named constants of the expressions: gamma (the ratio of "
             "specific heats), mu (the viscosity), Pr (the Prandtl "
             "number) and any others, {gamma: 1.4, mu: 0.01, Pr: 0.72}"},
#else
     .help = "named constants of the expressions: gamma (the ratio of "
             "specific heats) and any others, {gamma: 1.4, M: 0.4}"},
#endif
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
 * bc_v (bc_w), bc_p. navier-stokes offers them first too. */
#define EULER_KINDS(V, VS)                                                 \
    {"sup-in-fa", "rho|" V "|p", "euler_bc_sup_in(ul, n, ur);",           \
     "supersonic inflow: the free stream rho, " VS ", p",                 \
     free_stream_check},                                                  \
    {"sup-out-fn", NULL, "euler_bc_sup_out(ul, n, ur);",                  \
     "supersonic outflow: the inside state", NULL},                       \
    {"slp-adia-wall", NULL, "euler_bc_slip_wall(ul, n, ur);",             \
     "slip (inviscid) wall", NULL},                                       \
    {"char-riem-inv", "rho|" V "|p", "euler_bc_char_riem(ul, n, ur);",    \
     "characteristic far field about the free stream rho, " VS ", p",     \
     free_stream_check}
#define EULER_KINDS_2D EULER_KINDS("u|v", "u, v")
#define EULER_KINDS_3D EULER_KINDS("u|v|w", "u, v, w")
static const fr_bc_kind bc_kinds[2][4] = {{EULER_KINDS_2D},
                                          {EULER_KINDS_3D}};

#if FRX_EULER_VISCOUS
/* A key of a boundary kind that must be positive (k: its index among
 * the kind's keys, name its name), at every point at the start. */
static int positive_key(const char *where, const double *vals, size_t n,
                        size_t nk, size_t k, const char *name,
                        const double *x, size_t nd)
{
    for (size_t i = 0; i < n; i++)
        if (!(vals[nk * i + k] > 0))
            return frx_error(FRX_ECONFIG, "%s: %s is %g at (%g, %g%s%.6g): "
                             "it must be positive", where, name,
                             vals[nk * i + k], x[nd * i], x[nd * i + 1],
                             nd == 3 ? ", " : "",
                             nd == 3 ? x[nd * i + 2] : 0.0);
    return FRX_OK;
}

/* The isothermal wall's cpTw (its last key). */
static int wall_check(void *ctx, const char *where, const double *vals,
                      size_t n, const double *x, const double *nrm,
                      const double *aux)
{
    (void)nrm, (void)aux;
    size_t nd = (size_t)euler_fields_ndims(ctx);
    return positive_key(where, vals, n, nd + 1, nd, "cpTw", x, nd);
}

/* sub-in-frv's rho (keys rho, u, v (, w)). */
static int frv_check(void *ctx, const char *where, const double *vals,
                     size_t n, const double *x, const double *nrm,
                     const double *aux)
{
    (void)nrm, (void)aux;
    size_t nd = (size_t)euler_fields_ndims(ctx);
    return positive_key(where, vals, n, nd + 1, 0, "rho", x, nd);
}

/* sub-out-fp's p. */
static int outp_check(void *ctx, const char *where, const double *vals,
                      size_t n, const double *x, const double *nrm,
                      const double *aux)
{
    (void)nrm, (void)aux;
    size_t nd = (size_t)euler_fields_ndims(ctx);
    return positive_key(where, vals, n, 1, 0, "p", x, nd);
}

/* sub-in-ftpttang's pt and cpTt (keys pt, cpTt, theta (, phi)). */
static int ftp_check(void *ctx, const char *where, const double *vals,
                     size_t n, const double *x, const double *nrm,
                     const double *aux)
{
    (void)nrm, (void)aux;
    size_t nd = (size_t)euler_fields_ndims(ctx), nk = nd + 1;
    int rc = positive_key(where, vals, n, nk, 0, "pt", x, nd);
    return rc ? rc : positive_key(where, vals, n, nk, 1, "cpTt", x, nd);
}

/* PyFR's navier-stokes boundary kinds: euler's, the walls, subsonic in-
 * and outflow; and what each does to the gradient (ns_kinds_viscous). */
static const fr_bc_kind ns_kinds[2][9] = {
    {EULER_KINDS_2D,
     {"no-slp-isot-wall", "u|v|cpTw", "ns_bc_isot_wall(ul, n, ur);",
      "no-slip isothermal wall moving at u, v, at cp T = cpTw", wall_check},
     {"no-slp-adia-wall", NULL, "ns_bc_adia_wall(ul, n, ur);",
      "no-slip adiabatic wall at rest", NULL},
     {"sub-in-frv", "rho|u|v", "ns_bc_sub_in_frv(ul, n, ur);",
      "subsonic inflow of density rho and velocity u, v", frv_check},
     {"sub-in-ftpttang", "pt|cpTt|theta",
      "ns_bc_sub_in_ftpttang(ul, n, ur);",
      "subsonic inflow of total pressure pt and cp Tt at theta degrees "
      "from x", ftp_check},
     {"sub-out-fp", "p", "ns_bc_sub_out_fp(ul, n, ur);",
      "subsonic outflow at static pressure p", outp_check}},
    {EULER_KINDS_3D,
     {"no-slp-isot-wall", "u|v|w|cpTw", "ns_bc_isot_wall(ul, n, ur);",
      "no-slip isothermal wall moving at u, v, w, at cp T = cpTw",
      wall_check},
     {"no-slp-adia-wall", NULL, "ns_bc_adia_wall(ul, n, ur);",
      "no-slip adiabatic wall at rest", NULL},
     {"sub-in-frv", "rho|u|v|w", "ns_bc_sub_in_frv(ul, n, ur);",
      "subsonic inflow of density rho and velocity u, v, w", frv_check},
     {"sub-in-ftpttang", "pt|cpTt|theta|phi",
      "ns_bc_sub_in_ftpttang(ul, n, ur);",
      "subsonic inflow of total pressure pt and cp Tt at theta degrees "
      "from x in x-y and phi from z", ftp_check},
     {"sub-out-fp", "p", "ns_bc_sub_out_fp(ul, n, ur);",
      "subsonic outflow at static pressure p", outp_check}},
};

/* PyFR 1.15's choices: the common solution is the ghost state but on
 * the no-slip walls (the wall's own), the outer gradient the inside one
 * but zero where the state is imposed from outside. */
#define NS_GRAD_ZERO                                                        \
    "for (int _d = 0; _d < NDIMS; _d++)\n"                                  \
    "    for (int _w = 0; _w < NVARS; _w++)\n"                              \
    "        gr[_d][_w] = 0;"
static const fr_bc_viscous ns_kinds_viscous[9] = {
    {NULL, NS_GRAD_ZERO, 0},                                  /* sup-in */
    {NULL, NULL, 0},                                          /* sup-out */
    {NULL, NULL, 1},                                          /* slip */
    {NULL, NS_GRAD_ZERO, 0},                                  /* char */
    {"ns_ldg_isot_wall(ul, n, ur);", NULL, 0},
    {"ns_ldg_adia_wall(ul, n, ur);", "ns_grad_adia_wall(ul, n, gl, gr);", 0},
    {NULL, NS_GRAD_ZERO, 0},                                  /* frv */
    {NULL, NULL, 0},                                          /* ftpttang */
    {NULL, NS_GRAD_ZERO, 0},                                  /* out-fp */
};
#endif

struct euler {
    euler_fields *fields;
    char *initial_src, *source_src; /* the fields' fragments */
    frx_kernel_macro *macros;
    size_t nmacros;
    fr_const consts[5];
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
    size_t nconsts = 1;
#if FRX_EULER_VISCOUS
    int suth = 0;
    if (rc == FRX_OK)
        rc = frx_cfg_enum(init->options, "viscosity-correction",
                          "none|sutherland", 0, &suth);
    if (rc == FRX_OK)
        rc = ns_constants(init->options, euler_fields_consts(s->fields),
                          suth, s->consts, &nconsts);
    if (rc == FRX_OK)
        rc = ns_macros(nd, suth, &s->macros, &s->nmacros);
#endif
    if (rc == FRX_OK)
        rc = euler_fields_fragments(s->fields,
                                    frx_backend_precision(init->backend),
                                    &s->initial_src, &s->source_src);
    if (rc) /* the other ranks agree in fr_system_create (system.h) */
        return fr_agree_setup(frx_comm_mpi(init->comm), rc,
                              FRX_EULER_VISCOUS ? "navier-stokes' set-up"
                                                : "euler's set-up");
    s->consts[0] = (fr_const){"gamma", euler_fields_gamma(s->fields)};
    s->phys = (fr_physics){
        .name = "euler",
        .nvars = (size_t)nd + 2,
        .vars = var_names[d3],
        .consts = s->consts,
        .nconsts = nconsts,
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
#if FRX_EULER_VISCOUS
    s->phys.name = "navier-stokes";
    s->phys.bcs = ns_kinds[d3];
    s->phys.nbcs = sizeof ns_kinds[0] / sizeof ns_kinds[0][0];
    s->phys.vflux = "ns_vflux(u, g, f);";
    s->phys.bcs_viscous = ns_kinds_viscous;
    s->phys.diffusivity = "ns_diffusivity(u, nu);";
#endif
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
#if FRX_EULER_VISCOUS
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_SOLVER, "navier-stokes", "1.0.0",
                         "compressible Navier-Stokes equations, flux "
                         "reconstruction with LDG, 2-D and 3-D"),
#else
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_SOLVER, "euler", "1.0.0",
                         "compressible Euler equations, flux reconstruction "
                         "in 2-D and 3-D"),
#endif
    .solver = &ops,
};

FRX_PLUGIN_DEFINE(desc)
