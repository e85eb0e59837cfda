/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-advection: scalar linear advection du/dt + a . grad u = 0 by flux
 * reconstruction (the FR system of plugins/solvers/fr), upwind common
 * flux. The initial condition is a smooth wave periodic over the
 * domain, u0 = sin(2 pi x / Lx) sin(2 pi y / Ly), and the exact solution
 * u0(x - a t). Lx, Ly: solver.wavelength, else each direction's
 * periodic shift, else the mesh's extent. A boundary may take
 * {type: exact} (the exact solution as the ghost state: inflow).
 * solver.velocity-field: true carries the velocity as a per-point
 * auxiliary field instead of two constants: the path a base flow takes
 * (saved at every interface at t = 0, exchanged once), with the same
 * results. */
#include <frx/fr/system.h>

#include <frx/comm.h>
#include <frx/mesh.h>
#include <frx/plugin.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const frx_option options[] = {
    FR_SYSTEM_OPTIONS,
    {.key = "velocity", .type = FRX_OPT_DOUBLE_LIST, .min = -1e6,
     .max = 1e6, .def = "[1, 0.5]", .help = "the advection velocity "
     "[ax, ay]"},
    {.key = "velocity-field", .type = FRX_OPT_BOOL, .def = "false",
     .help = "carry the velocity as a per-point field (as a base flow)"},
    {.key = "wavelength", .type = FRX_OPT_DOUBLE_LIST, .min = 1e-300,
     .max = 1e300, .def = "the periodic shifts", .help = "the initial "
     "wave's wavelengths [Lx, Ly]"},
    {0},
};

struct adv {
    double a[2], len[2];
    fr_const consts[5];
    fr_system *sys;
};

static const char *const vars[] = {"u"}, *const aux[] = {"ax", "ay"};

/* The exact solution at x, t: the initial wave carried along. */
#define EXACT "sin(twopi*(x[0] - ax*t)/lx)*sin(twopi*(x[1] - ay*t)/ly)"

static const fr_bc_kind bcs[] = {
    {.type = "exact", .ghost = "ur[0] = " EXACT ";",
     .help = "the exact solution outside (inflow and outflow)"},
    {.type = "value", .keys = "u", .ghost = "ur[0] = bc_u;",
     .help = "a given value outside (inflow): u, a number or an expression "
             "in x, y and t"},
};

/* The velocity as a field: the same at every point. */
static int velocity_at(void *ctx, size_t n, const double *xyz, double *vals)
{
    const struct adv *a = ctx;
    (void)xyz;
    for (size_t i = 0; i < n; i++) {
        vals[2 * i] = a->a[0];
        vals[2 * i + 1] = a->a[1];
    }
    return FRX_OK;
}

static int exact_at(void *ctx, double t, size_t n, const double *xyz,
                    double *vals)
{
    const struct adv *a = ctx;
    for (size_t i = 0; i < n; i++) {
        double x = xyz[2 * i] - a->a[0] * t, y = xyz[2 * i + 1] - a->a[1] * t;
        vals[i] = sin(2 * M_PI * x / a->len[0]) * sin(2 * M_PI * y / a->len[1]);
    }
    return FRX_OK;
}

/* A list of two numbers from solver.<key>, or def. */
static int pair(const frx_cfgnode *opt, const char *key, const double *def,
                double *out)
{
    const frx_cfgnode *n = opt ? frx_cfg_get(opt, key) : NULL;
    if (!n) {
        out[0] = def[0];
        out[1] = def[1];
        return FRX_OK;
    }
    if (frx_cfg_type(n) != FRX_CFG_LIST || frx_cfg_len(n) != 2)
        return frx_error(FRX_ECONFIG, "%s:%d:%d: solver.%s must be a list "
                         "of 2 numbers, [x, y]",
                         frx_config_file(frx_cfg_owner(n)), frx_cfg_line(n),
                         frx_cfg_col(n), key);
    for (size_t i = 0; i < 2; i++) {
        int rc = frx_cfg_double(frx_cfg_at(n, i), NULL, 0, -1e300, 1e300,
                                &out[i]);
        if (rc)
            return rc;
    }
    return FRX_OK;
}

/* The default wavelengths: periodic shifts (periodic[d] set), else the
 * mesh's extent over every rank. */
static int mesh_lengths(const frx_solver_init *init, double *len,
                        int *periodic)
{
    const frx_mesh *m = init->mesh;
    double lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
    frx_mesh_info mi = {.size = sizeof mi};
    int rc = m ? frx_mesh_get_info(m, &mi) : FRX_OK;
    for (size_t b = 0; m && !rc && b < mi.nblocks; b++) {
        frx_mesh_block mb = {.size = sizeof mb};
        if ((rc = frx_mesh_get_block(m, b, &mb)))
            break;
        size_t nd = (size_t)mi.ndims;
        for (size_t i = 0; i < mb.neles * mb.nshape; i++)
            for (size_t d = 0; d < 2 && d < nd; d++) {
                lo[d] = fmin(lo[d], mb.shape[i * nd + d]);
                hi[d] = fmax(hi[d], mb.shape[i * nd + d]);
            }
    }
    /* collective: every rank, whatever happened above */
    double v[4] = {-lo[0], -lo[1], hi[0], hi[1]};
    MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_DOUBLE, MPI_MAX,
                  frx_comm_mpi(init->comm));
    len[0] = v[2] + v[0];
    len[1] = v[3] + v[1];
    for (size_t i = 0; m && !rc && i < mi.nperiodic; i++) {
        frx_mesh_periodic p = {.size = sizeof p};
        if ((rc = frx_mesh_get_periodic(m, i, &p)))
            break;
        for (size_t d = 0; d < 2; d++)
            if (p.shift[d] != 0) {
                len[d] = fabs(p.shift[d]);
                periodic[d] = 1;
            }
    }
    return rc;
}

/* A wavelength given along a periodic direction must divide its period:
 * else the initial wave jumps at the periodic boundary and the exact
 * solution is not the periodic problem's (wrong L2 errors, no error). */
static int fits_period(const frx_solver_init *init, const double *len,
                       const double *period, const int *periodic)
{
    for (int d = 0; d < 2; d++) {
        double r = period[d] / len[d];
        if (!periodic[d] || fabs(r - round(r)) <= 1e-9 * fmax(1, r))
            continue;
        /* the key is there: the default fits */
        const frx_cfgnode *n = frx_cfg_get(init->options, "wavelength");
        char at[512];
        return frx_error(FRX_ECONFIG, "%s: solver.wavelength along %c is "
                         "%g, which does not divide the periodic box's %g: "
                         "the wave would jump at the periodic boundary; "
                         "give %g over a whole number",
                         fr_cfg_place(n, at, sizeof at), "xy"[d], len[d],
                         period[d], period[d]);
    }
    return FRX_OK;
}

static int adv_create(const frx_solver_init *init, frx_solver_info *info,
                      void **state)
{
    struct adv *a = calloc(1, sizeof *a);
    if (!a)
        return frx_error(FRX_ENOMEM, "advection: out of memory");
    *state = a;
    static const double vdef[2] = {1, 0.5};
    double ldef[2] = {1, 1};
    int field = 0, periodic[2] = {0, 0};
    int rc = pair(init->options, "velocity", vdef, a->a);
    if (!rc)
        rc = frx_cfg_bool(init->options, "velocity-field", 0, &field);
    int rc2 = mesh_lengths(init, ldef, periodic);
    if (!rc)
        rc = rc2;
    if (!rc)
        rc = pair(init->options, "wavelength", ldef, a->len);
    for (size_t d = 0; !rc && d < 2; d++)
        if (!(a->len[d] > 0))
            rc = frx_error(FRX_ECONFIG, "advection: the wavelength along "
                           "%c is %g: give solver.wavelength, two positive "
                           "numbers", "xy"[d], a->len[d]);
    if (!rc)
        rc = fits_period(init, a->len, ldef, periodic);
    a->consts[0] = (fr_const){"ax", a->a[0]};
    a->consts[1] = (fr_const){"ay", a->a[1]};
    a->consts[2] = (fr_const){"lx", a->len[0]};
    a->consts[3] = (fr_const){"ly", a->len[1]};
    a->consts[4] = (fr_const){"twopi", 2 * M_PI};
    fr_physics p = {
        .name = "advection",
        .nvars = 1,
        .vars = vars,
        .consts = a->consts,
        .nconsts = 5,
        .flux = "f[0][0] = ax*u[0];\nf[1][0] = ay*u[0];",
        /* upwind: the side the velocity comes from */
        .rsolve = "fpdtype_t an = ax*n[0] + ay*n[1];\n"
                  "fn[0] = an*(an >= 0 ? ul[0] : ur[0]);",
        .wavespeed = "s = sqrt(ax*ax + ay*ay);",
        .bcs = bcs,
        .nbcs = sizeof bcs / sizeof *bcs,
        .ctx = a,
        .initial = exact_at,
        .exact = exact_at,
        .initial_src = "u[0] = " EXACT ";",
    };
    if (field) {
        p.naux = 2;
        p.aux = aux;
        p.aux_at = velocity_at;
        p.aux_src = "a[0] = ax;\na[1] = ay;";
        p.flux = "f[0][0] = a[0]*u[0];\nf[1][0] = a[1]*u[0];";
        /* the mean of both sides' velocities: symmetric, so consistent */
        p.rsolve = "fpdtype_t an = 0.5*((al[0] + ar[0])*n[0] + "
                   "(al[1] + ar[1])*n[1]);\n"
                   "fn[0] = an*(an >= 0 ? ul[0] : ur[0]);";
        p.wavespeed = "s = sqrt(a[0]*a[0] + a[1]*a[1]);";
    }
    /* the system agrees across ranks (system.h): a rank that failed
     * above takes part in its first agreement alone */
    if (rc)
        return fr_agree_setup(frx_comm_mpi(init->comm), rc,
                              "advection's set-up");
    return fr_system_create(init, &p, info, &a->sys);
}

static void adv_destroy(void *state)
{
    struct adv *a = state;
    if (!a)
        return;
    fr_system_destroy(a->sys);
    free(a);
}

static int adv_initial(void *state, frx_matrix *const *u)
{
    return fr_system_initial(((struct adv *)state)->sys, u);
}

static int adv_build_rhs(void *state, frx_matrix *const *u,
                         frx_matrix *const *f, frx_graph *g)
{
    return fr_system_build_rhs(((struct adv *)state)->sys, u, f, g);
}

static int adv_set_time(void *state, double t)
{
    return fr_system_set_time(((struct adv *)state)->sys, t);
}

static int adv_exact(void *state, double t, size_t n, const double *xyz,
                     double *vals)
{
    return fr_system_exact(((struct adv *)state)->sys, t, n, xyz, vals);
}

static int adv_max_dt(void *state, frx_matrix *const *u, double cfl,
                      double *dt)
{
    return fr_system_max_dt(((struct adv *)state)->sys, u, cfl, dt);
}

static const frx_solver_ops ops = {
    .size = sizeof(frx_solver_ops),
    .options = options,
    .api_major = FRX_SOLVER_API_MAJOR,
    .api_minor = FRX_SOLVER_API_MINOR,
    .create = adv_create,
    .destroy = adv_destroy,
    .initial = adv_initial,
    .build_rhs = adv_build_rhs,
    .set_time = adv_set_time,
    .exact = adv_exact,
    .max_dt = adv_max_dt,
};

static const frx_plugin_desc desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_SOLVER, "advection", "1.0.0",
                         "scalar linear advection by flux reconstruction"),
    .solver = &ops,
};

FRX_PLUGIN_DEFINE(desc)
