/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-lee: the linearized Euler equations in 2-D and 3-D (the mesh says
 * which) for the perturbations (rho', u', v', (w',) p') about a base
 * flow given in the case (uniform, or expressions in x, y (and z) such
 * as a parallel shear flow u0(y)), by flux
 * reconstruction on the FR system (plugins/solvers/fr). The base flow at
 * every interface is saved once at t = 0 through xchg views and read by
 * the interface kernels at every step; solver.baseflow-check compares
 * the saved copies with the live base flow. docs/lee.md has the
 * equations, options and boundary conditions. */
#include "lee.h"

#include <frx/mesh.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const frx_option options[] = {
    FR_SYSTEM_OPTIONS,
    {.key = "gamma", .type = FRX_OPT_DOUBLE, .min = 1.0000001, .max = 10,
     .def = "1.4", .help = "the ratio of specific heats"},
    {.key = "constants", .type = FRX_OPT_MAP,
     .help = "named constants for the expressions: {name: value or "
             "expression in the constants above}"},
    {.key = "baseflow", .type = FRX_OPT_MAP, .required = 1,
     .help = "the base flow: rho, u, v, p (3-D: rho, u, v, w, p) as "
             "numbers or expressions in x, y (and z)"},
    {.key = "baseflow.rho", .type = FRX_OPT_STRING, .required = 1,
     .help = "base density rho0 > 0, in x, y (and z)"},
    {.key = "baseflow.u", .type = FRX_OPT_STRING, .required = 1,
     .help = "base velocity u0, in x, y (and z)"},
    {.key = "baseflow.v", .type = FRX_OPT_STRING, .required = 1,
     .help = "base velocity v0, in x, y (and z)"},
    {.key = "baseflow.w", .type = FRX_OPT_STRING,
     .help = "base velocity w0, in x, y and z: required on a 3-D mesh, "
             "refused on a 2-D one"},
    {.key = "baseflow.p", .type = FRX_OPT_STRING, .required = 1,
     .help = "base pressure p0 > 0, in x, y (and z)"},
    {.key = "waves", .type = FRX_OPT_MAP_LIST, .required = 1,
     .help = "the initial plane waves: [{type, amplitude, modes}]"},
    {.key = "waves.type", .type = FRX_OPT_ENUM, .required = 1,
     .choices = "acoustic|vorticity|entropy", .help = "the kind of wave"},
    {.key = "waves.amplitude", .type = FRX_OPT_DOUBLE, .min = -1e300,
     .max = 1e300, .def = "1e-3",
     .help = "p' (acoustic), |u'| (vorticity) or rho' (entropy)"},
    {.key = "waves.modes", .type = FRX_OPT_INT_LIST, .min = -1000000,
     .max = 1000000, .required = 1,
     .help = "[mx, my] (3-D: [mx, my, mz]): whole periods over the box "
             "along x, y (and z)"},
    {.key = "flux", .type = FRX_OPT_ENUM, .choices = "upwind|rusanov",
     .def = "upwind", .help = "the common flux at interfaces: upwind "
                              "(exact for the linear equations) or "
                              "Rusanov (more dissipative)"},
    {.key = "baseflow-check", .type = FRX_OPT_BOOL, .def = "false",
     .help = "check that the base flow saved at every interface at t = 0 "
             "is the live one (exactly)"},
    {.key = "baseflow-check-every", .type = FRX_OPT_INT, .min = 1,
     .max = 1000000000, .def = "10",
     .help = "steps between base-flow checks"},
    {0},
};

/* info.blocks without quadrature weights: no L2 errors where the base
 * flow is not uniform (the waves are not an exact solution there). */
static int no_norms(struct lee *l, frx_solver_info *info)
{
    l->blocks = calloc(info->nblocks ? info->nblocks : 1, sizeof *l->blocks);
    if (!l->blocks)
        return frx_error(FRX_ENOMEM, "lee: out of memory");
    for (size_t b = 0; b < info->nblocks; b++) {
        memcpy(&l->blocks[b],
               (const char *)info->blocks + b * info->block_size,
               sizeof *l->blocks < info->block_size ? sizeof *l->blocks
                                                    : info->block_size);
        l->blocks[b].qweights = NULL;
    }
    info->blocks = l->blocks;
    info->block_size = sizeof *l->blocks;
    return FRX_OK;
}

static int lee_create(const frx_solver_init *init, frx_solver_info *info,
                      void **state)
{
    struct lee *l = calloc(1, sizeof *l);
    if (!l)
        return frx_error(FRX_ENOMEM, "lee: out of memory");
    *state = l;
    l->mpi = frx_comm_mpi(init->comm);
    int rc = frx_cfg_double(init->options, "gamma", 1.4, 1.0000001, 10,
                            &l->gamma);
    if (!rc)
        rc = frx_cfg_enum(init->options, "flux", "upwind|rusanov", 0,
                          &l->flux);
    if (!rc && !init->mesh)
        rc = frx_error(FRX_ECONFIG, "%s: solver 'lee' needs a mesh",
                       frx_config_file(init->config));
    frx_mesh_info mi = {.size = sizeof mi};
    if (!rc)
        rc = frx_mesh_get_info(init->mesh, &mi);
    l->nd = mi.ndims == 3 ? 3 : 2; /* the system refuses another */
    l->nb = l->nd + 2;
    if (!rc)
        rc = lee__base_read(l, init);
    if (!rc)
        rc = lee__waves_read(l, init);
    if (!rc) /* the base flow and the waves, computed on the backend */
        rc = lee__aux_fragment(l, frx_backend_precision(init->backend));
    if (!rc)
        rc = lee__waves_fragment(l);
    fr_physics p;
    lee__physics(l, &p);
    if (!rc && l->naux > (size_t)l->nb && !l->source)
        rc = frx_error(FRX_ENOMEM, "lee: out of memory");
    /* fr_system_create agrees every rank's status (fr_agree_setup)
     * before its exchanges: a rank that failed above takes part in that
     * first agreement alone, so that every rank stops with its message */
    if (rc)
        return fr_agree_setup(l->mpi, rc, "lee's set-up");
    rc = fr_system_create(init, &p, info, &l->sys);
    if (!rc)
        rc = lee__check_setup(l, init);
    if (!rc && l->check)
        info->check_every = (unsigned)l->check_every;
    if (!rc && !l->uniform)
        rc = no_norms(l, info);
    return rc;
}

static void lee_destroy(void *state)
{
    struct lee *l = state;
    if (!l)
        return;
    fr_auxcheck_destroy(l->ck);
    fr_system_destroy(l->sys);
    lee__base_free(l);
    free(l->waves);
    free(l->blocks);
    free(l);
}

static int lee_initial(void *state, frx_matrix *const *u)
{
    return fr_system_initial(((struct lee *)state)->sys, u);
}

static int lee_build_rhs(void *state, frx_matrix *const *u,
                         frx_matrix *const *f, frx_graph *g)
{
    return fr_system_build_rhs(((struct lee *)state)->sys, u, f, g);
}

static int lee_build_check(void *state, frx_matrix *const *u, frx_graph *g)
{
    (void)u; /* the base flow does not depend on u */
    struct lee *l = state;
    return l->ck ? fr_auxcheck_build(l->ck, g) : FRX_OK;
}

static int lee_set_time(void *state, double t)
{
    return fr_system_set_time(((struct lee *)state)->sys, t);
}

static int lee_exact(void *state, double t, size_t n, const double *xyz,
                     double *vals)
{
    return fr_system_exact(((struct lee *)state)->sys, t, n, xyz, vals);
}

static int lee_max_dt(void *state, frx_matrix *const *u, double cfl,
                      double *dt)
{
    return fr_system_max_dt(((struct lee *)state)->sys, u, cfl, dt);
}

static const frx_solver_ops ops = {
    .size = sizeof(frx_solver_ops),
    .options = options,
    .api_major = FRX_SOLVER_API_MAJOR,
    .api_minor = FRX_SOLVER_API_MINOR,
    .create = lee_create,
    .destroy = lee_destroy,
    .initial = lee_initial,
    .build_rhs = lee_build_rhs,
    .set_time = lee_set_time,
    .build_check = lee_build_check,
    .exact = lee_exact,
    .max_dt = lee_max_dt,
};

static const frx_plugin_desc desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_SOLVER, "lee", "1.0.0",
                         "linearized Euler equations about a base flow by "
                         "flux reconstruction"),
    .solver = &ops,
};

FRX_PLUGIN_DEFINE(desc)
