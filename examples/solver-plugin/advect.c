/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-advect: options, lifecycle, initial condition and exact solution
 * (see advect.h for what it solves and how). */
#include "advect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const frx_option options[] = {
    {.key = "velocity", .type = FRX_OPT_DOUBLE_LIST, .min = -1e6,
     .max = 1e6, .def = "[1, 0.5]",
     .help = "the advection velocity (the base flow), [ax, ay]"},
    {.key = "check-every", .type = FRX_OPT_INT, .min = 0, .max = 1e6,
     .def = "10", .help = "steps between base-flow checks (0: none)"},
    {0},
};

/* ------------------------------------------------------------ helpers */

struct advect_owned {
    int kind;
    void *p;
};

static void destroy_one(int kind, void *p)
{
    switch (kind) {
    case ADV_MATRIX: frx_matrix_destroy(p); break;
    case ADV_VIEW: frx_view_destroy(p); break;
    case ADV_XVIEW: frx_xchg_view_destroy(p); break;
    case ADV_XMATRIX: frx_xchg_matrix_destroy(p); break;
    case ADV_KERNEL: frx_kernel_destroy(p); break;
    }
}

int adv_keep(struct advect *a, int kind, void *p)
{
    if (a->nowned == a->capowned) {
        size_t cap = a->capowned ? 2 * a->capowned : 32;
        struct advect_owned *v = realloc(a->owned, cap * sizeof *v);
        if (!v) {
            destroy_one(kind, p);
            return frx_error(FRX_ENOMEM, "advect: out of memory");
        }
        a->owned = v;
        a->capowned = cap;
    }
    a->owned[a->nowned++] = (struct advect_owned){kind, p};
    return FRX_OK;
}

/* Kernels first, then views and xchg views, then the data they use. */
void adv_free_owned(struct advect *a)
{
    while (a->nowned > 0) {
        a->nowned--;
        destroy_one(a->owned[a->nowned].kind, a->owned[a->nowned].p);
    }
    free(a->owned);
}

int adv_view(struct advect *a, frx_matrix *m, const struct advect_sides *s,
             int row_is_face, size_t nvcol, frx_view **out)
{
    frx_matrix **mats = malloc(s->n * sizeof *mats);
    size_t *rows = calloc(s->n, sizeof *rows);
    int rc = mats && rows ? FRX_OK
                          : frx_error(FRX_ENOMEM, "advect: out of memory");
    for (size_t i = 0; i < s->n && !rc; i++) {
        mats[i] = m;
        rows[i] = row_is_face ? s->face[i] : 0;
    }
    if (!rc)
        rc = frx_view_create(a->be, s->n, mats, rows, s->ele, NULL, 1, nvcol,
                             out);
    free(mats);
    free(rows);
    return rc ? rc : adv_keep(a, ADV_VIEW, *out);
}

/* A matrix nrow x nvar x n holding host (dense layout), kept. */
static int matrix(struct advect *a, size_t nrow, size_t nvar, size_t n,
                  const double *host, frx_matrix **out)
{
    int rc = frx_matrix_create(a->be, nrow, nvar, n, out);
    if (rc || (rc = adv_keep(a, ADV_MATRIX, *out)) || !host)
        return rc;
    /* doubles, converted to the run's precision (frx_matrix_write would
     * take them in that precision) */
    return frx_matrix_write_double(*out, host);
}

/* A 1 x 2 x n matrix of the sides' scaled normals; kept. */
static int normals(struct advect *a, const struct advect_sides *s,
                   frx_matrix **out)
{
    return matrix(a, 1, 2, s->n, s->sn, out);
}

/* ------------------------------------------------------------ options */

static int read_options(struct advect *a, const frx_cfgnode *opt)
{
    int rc = frx_cfg_int(opt, "check-every", 10, 0, 1000000,
                         &a->check_every);
    a->vel[0] = 1;
    a->vel[1] = 0.5;
    const frx_cfgnode *v = frx_cfg_get(opt, "velocity");
    if (rc || !v)
        return rc;
    if (frx_cfg_type(v) != FRX_CFG_LIST || frx_cfg_len(v) != 2)
        return frx_error(FRX_ECONFIG, "%s:%d:%d: solver.velocity: give two "
                         "numbers, [ax, ay]",
                         frx_config_file(frx_cfg_owner(v)), frx_cfg_line(v),
                         frx_cfg_col(v));
    for (size_t d = 0; d < 2 && !rc; d++)
        rc = frx_cfg_double(frx_cfg_at(v, d), NULL, 0, -1e6, 1e6,
                            &a->vel[d]);
    return rc;
}

/* ---------------------------------------------------------- lifecycle */

/* Device data every graph shares: the base flow, 1/area, the face
 * fluxes, and the interior and peer faces' views and normals. */
static int device_data(struct advect *a)
{
    /* test hook: a set-up step that fails on one rank only */
    const char *env = getenv("FRX_ADVECT_TEST_FAIL_RANK");
    if (env && atoi(env) == a->rank)
        return frx_error(FRX_EINVAL, "advect: FRX_ADVECT_TEST_FAIL_RANK: "
                         "rank %d's set-up fails here on purpose", a->rank);
    size_t n = a->neles;
    double *base = malloc(2 * n * sizeof *base), *rv = malloc(n * sizeof *rv);
    int rc = base && rv ? FRX_OK
                        : frx_error(FRX_ENOMEM, "advect: out of memory");
    for (size_t e = 0; e < n && !rc; e++) { /* host layout [row][var][e] */
        base[e] = a->vel[0];
        base[n + e] = a->vel[1];
        rv[e] = 1 / a->area[e];
    }
    if (!rc)
        rc = matrix(a, 1, 2, n, base, &a->base);
    if (!rc)
        rc = matrix(a, 1, 1, n, rv, &a->rvol);
    free(base);
    free(rv);
    if (!rc)
        rc = matrix(a, a->nf, 1, n, NULL, &a->fflux);
    if (!rc && a->il.n &&
        !(rc = normals(a, &a->il, &a->isn)) &&
        !(rc = adv_view(a, a->base, &a->il, 0, 2, &a->ibase_l)) &&
        !(rc = adv_view(a, a->base, &a->ir, 0, 2, &a->ibase_r)) &&
        !(rc = adv_view(a, a->fflux, &a->il, 1, 1, &a->iflux_l)))
        rc = adv_view(a, a->fflux, &a->ir, 1, 1, &a->iflux_r);
    for (size_t p = 0; p < a->npeers && !rc; p++) {
        struct advect_peer *pe = &a->peers[p];
        if (!(rc = normals(a, &pe->local, &pe->sn)))
            rc = adv_view(a, a->fflux, &pe->local, 1, 1, &pe->flux_v);
    }
    return rc;
}

static int adv_create(const frx_solver_init *init, frx_solver_info *info,
                      void **state)
{
    struct advect *a = calloc(1, sizeof *a);
    if (!a)
        return frx_error(FRX_ENOMEM, "advect: out of memory");
    *state = a;
    a->be = init->backend;
    a->comm = init->comm;
    a->t0 = init->t0;
    MPI_Comm_rank(frx_comm_mpi(a->comm), &a->rank);
    int rc = read_options(a, init->options);
    if (!rc)
        rc = adv_geometry(a, init->mesh);
    if (!rc)
        rc = adv_register_kernels(a);
    if (!rc)
        rc = device_data(a);
    if ((rc = adv_baseflow_setup(a, rc))) /* every rank: it agrees rc */
        return rc;
    a->var.name = "u";
    a->block = (frx_solver_block){.size = sizeof a->block, .nupts = 1,
                                  .neles = a->neles, .upts = a->centre,
                                  .qweights = a->area, .nvis = a->nf,
                                  .vis_pts = a->vis_pts,
                                  .vis_op = a->vis_op};
    info->nvars = 1;
    info->vars = &a->var;
    info->var_size = sizeof a->var;
    info->nblocks = 1;
    info->blocks = &a->block;
    info->block_size = sizeof a->block;
    info->check_every = (unsigned)a->check_every;
    info->order = 1;
    if (FRX_SIZE_HOLDS(frx_solver_info, info, ndims))
        info->ndims = 2;
    return FRX_OK;
}

static void adv_destroy(void *state)
{
    struct advect *a = state;
    if (!a)
        return;
    adv_free_owned(a);
    adv_geometry_free(a);
    free(a);
}

/* A wave that repeats with the mesh. */
static double wave(const struct advect *a, double x, double y)
{
    const double pi = 3.14159265358979323846;
    return sin(2 * pi * x / a->period[0]) * sin(2 * pi * y / a->period[1]);
}

static int adv_initial(void *state, frx_matrix *const *u)
{
    struct advect *a = state;
    double *u0 = malloc((a->neles ? a->neles : 1) * sizeof *u0);
    if (!u0)
        return frx_error(FRX_ENOMEM, "advect: out of memory");
    for (size_t e = 0; e < a->neles; e++)
        u0[e] = wave(a, a->centre[2 * e], a->centre[2 * e + 1]);
    int rc = frx_matrix_write_double(u[0], u0);
    free(u0);
    return rc;
}

static int adv_rhs(void *state, frx_matrix *const *u, frx_matrix *const *f,
                   frx_graph *g)
{
    return adv_build_rhs(state, u, f, g);
}

static int adv_check(void *state, frx_matrix *const *u, frx_graph *g)
{
    (void)u; /* the check looks at the base flow, not at u */
    return adv_build_check(state, g);
}

/* u(x, t) = u0(x - a (t - t0)). */
static int adv_exact(void *state, double t, size_t n, const double *xyz,
                     double *vals)
{
    struct advect *a = state;
    for (size_t i = 0; i < n; i++)
        vals[i] = wave(a, xyz[2 * i] - a->vel[0] * (t - a->t0),
                       xyz[2 * i + 1] - a->vel[1] * (t - a->t0));
    return FRX_OK;
}

/* Forward Euler's bound for upwinding: dt * outflow / area <= cfl. */
static int adv_max_dt(void *state, frx_matrix *const *u, double cfl,
                      double *dt)
{
    struct advect *a = state;
    (void)u;
    *dt = a->rate > 0 ? cfl / a->rate : HUGE_VAL;
    return FRX_OK;
}

static const frx_solver_ops ops = {
    .size = sizeof(frx_solver_ops),
    .options = options,
    .api_major = FRX_SOLVER_API_MAJOR,
    .api_minor = FRX_SOLVER_API_MINOR,
    .create = adv_create,
    .destroy = adv_destroy,
    .initial = adv_initial,
    .build_rhs = adv_rhs,
    .build_check = adv_check,
    .exact = adv_exact,
    .max_dt = adv_max_dt,
};

static const frx_plugin_desc desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_SOLVER, "advect", "1.0.0",
                         "linear advection, first-order upwind finite "
                         "volumes (the example solver plugin)"),
    .solver = &ops,
};

FRX_PLUGIN_DEFINE(desc)
