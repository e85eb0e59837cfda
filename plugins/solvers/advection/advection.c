/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-advection: scalar linear advection du/dt + a . grad u = 0 by flux
 * reconstruction (the FR system of plugins/solvers/fr), upwind common
 * flux, in 2-D and 3-D. The initial condition is a smooth wave periodic
 * over the domain, u0 = sin(2 pi x / Lx) sin(2 pi y / Ly) (times
 * sin(2 pi z / Lz) in 3-D), and the exact solution u0(x - a t). Lx,
 * Ly, Lz: solver.wavelength, else each direction's periodic shift, else
 * the mesh's extent. A boundary may take
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
     .max = 1e6, .def = "[1, 0.5] (3-D: [1, 0.5, 0.25])",
     .help = "the advection velocity [ax, ay] ([ax, ay, az] in 3-D)"},
    {.key = "velocity-field", .type = FRX_OPT_BOOL, .def = "false",
     .help = "carry the velocity as a per-point field (as a base flow)"},
    {.key = "wavelength", .type = FRX_OPT_DOUBLE_LIST, .min = 1e-300,
     .max = 1e300, .def = "the periodic shifts", .help = "the initial "
     "wave's wavelengths [Lx, Ly] ([Lx, Ly, Lz] in 3-D)"},
    {0},
};

struct adv {
    int nd;
    double a[3], len[3];
    fr_const consts[7];
    fr_system *sys;
    /* the fragments, for nd dimensions */
    char exact[200], ghost[220], flux[120], rsolve[240], wave[80];
    char aux_src[60], aflux[120], arsolve[260], awave[80], init_src[220];
    fr_bc_kind bcs[2];
};

static const char *const vars[] = {"u"},
                         *const aux[] = {"ax", "ay", "az"};

/* The fragments of advection in nd dimensions: the exact solution at x,
 * t (the initial wave carried along), the flux, the upwind common flux
 * and the wave speed, with the velocity as constants ax, ay, az or as
 * the auxiliary field a[]. */
static void fragments(struct adv *a)
{
    const char *xyz = "xyz";
    int nd = a->nd;
    size_t at = 0;
    for (int d = 0; d < nd; d++)
        at += (size_t)snprintf(a->exact + at, sizeof a->exact - at,
                               "%ssin(twopi*(x[%d] - a%c*t)/l%c)",
                               d ? "*" : "", d, xyz[d], xyz[d]);
    snprintf(a->ghost, sizeof a->ghost, "ur[0] = %s;", a->exact);
    char an[160] = "", aan[200] = "", s2[60] = "", as2[60] = "";
    size_t fl = 0, afl = 0, ra = 0, rb = 0, wa = 0, wb = 0, au = 0;
    for (int d = 0; d < nd; d++) {
        const char *plus = d ? " + " : "";
        fl += (size_t)snprintf(a->flux + fl, sizeof a->flux - fl,
                               "%sf[%d][0] = a%c*u[0];", d ? "\n" : "", d,
                               xyz[d]);
        afl += (size_t)snprintf(a->aflux + afl, sizeof a->aflux - afl,
                                "%sf[%d][0] = a[%d]*u[0];", d ? "\n" : "",
                                d, d);
        ra += (size_t)snprintf(an + ra, sizeof an - ra, "%sa%c*n[%d]", plus,
                               xyz[d], d);
        rb += (size_t)snprintf(aan + rb, sizeof aan - rb,
                               "%s(al[%d] + ar[%d])*n[%d]", plus, d, d, d);
        wa += (size_t)snprintf(s2 + wa, sizeof s2 - wa, "%sa%c*a%c", plus,
                               xyz[d], xyz[d]);
        wb += (size_t)snprintf(as2 + wb, sizeof as2 - wb, "%sa[%d]*a[%d]",
                               plus, d, d);
        au += (size_t)snprintf(a->aux_src + au, sizeof a->aux_src - au,
                               "%sa[%d] = a%c;", d ? "\n" : "", d, xyz[d]);
    }
    /* upwind: the side the velocity comes from */
    snprintf(a->rsolve, sizeof a->rsolve, "fpdtype_t an = %s;\n"
             "fn[0] = an*(an >= 0 ? ul[0] : ur[0]);", an);
    snprintf(a->wave, sizeof a->wave, "s = sqrt(%s);", s2);
    /* the mean of both sides' velocities: symmetric, so consistent */
    snprintf(a->arsolve, sizeof a->arsolve, "fpdtype_t an = 0.5*(%s);\n"
             "fn[0] = an*(an >= 0 ? ul[0] : ur[0]);", aan);
    snprintf(a->awave, sizeof a->awave, "s = sqrt(%s);", as2);
    a->bcs[0] = (fr_bc_kind){
        .type = "exact", .ghost = a->ghost,
        .help = "the exact solution outside (inflow and outflow)"};
    a->bcs[1] = (fr_bc_kind){
        .type = "value", .keys = "u", .ghost = "ur[0] = bc_u;",
        .help = "a given value outside (inflow): u, a number or an "
                "expression in x, y (z) and t"};
}

/* The velocity as a field: the same at every point. */
static int velocity_at(void *ctx, size_t n, const double *xyz, double *vals)
{
    const struct adv *a = ctx;
    (void)xyz;
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < a->nd; d++)
            vals[(size_t)a->nd * i + (size_t)d] = a->a[d];
    return FRX_OK;
}

static int exact_at(void *ctx, double t, size_t n, const double *xyz,
                    double *vals)
{
    const struct adv *a = ctx;
    size_t nd = (size_t)a->nd;
    for (size_t i = 0; i < n; i++) {
        double v = 1;
        for (size_t d = 0; d < nd; d++)
            v *= sin(2 * M_PI * (xyz[nd * i + d] - a->a[d] * t) / a->len[d]);
        vals[i] = v;
    }
    return FRX_OK;
}

/* A list of nd numbers from solver.<key>, or def. */
static int pair(const frx_cfgnode *opt, const char *key, const double *def,
                int nd, double *out)
{
    const frx_cfgnode *n = opt ? frx_cfg_get(opt, key) : NULL;
    if (!n) {
        for (int d = 0; d < nd; d++)
            out[d] = def[d];
        return FRX_OK;
    }
    if (frx_cfg_type(n) != FRX_CFG_LIST || frx_cfg_len(n) != (size_t)nd)
        return frx_error(FRX_ECONFIG, "%s:%d:%d: solver.%s must be a list "
                         "of %d numbers, %s: the mesh is %d-D",
                         frx_config_file(frx_cfg_owner(n)), frx_cfg_line(n),
                         frx_cfg_col(n), key, nd,
                         nd == 3 ? "[x, y, z]" : "[x, y]", nd);
    for (size_t i = 0; i < (size_t)nd; i++) {
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
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL},
           hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    frx_mesh_info mi = {.size = sizeof mi};
    int rc = m ? frx_mesh_get_info(m, &mi) : FRX_OK;
    for (size_t b = 0; m && !rc && b < mi.nblocks; b++) {
        frx_mesh_block mb = {.size = sizeof mb};
        if ((rc = frx_mesh_get_block(m, b, &mb)))
            break;
        size_t nd = (size_t)mi.ndims;
        for (size_t i = 0; i < mb.neles * mb.nshape; i++)
            for (size_t d = 0; d < 3 && d < nd; d++) {
                lo[d] = fmin(lo[d], mb.shape[i * nd + d]);
                hi[d] = fmax(hi[d], mb.shape[i * nd + d]);
            }
    }
    /* collective: every rank, whatever happened above */
    double v[6] = {-lo[0], -lo[1], -lo[2], hi[0], hi[1], hi[2]};
    MPI_Allreduce(MPI_IN_PLACE, v, 6, MPI_DOUBLE, MPI_MAX,
                  frx_comm_mpi(init->comm));
    for (int d = 0; d < 3; d++)
        len[d] = v[3 + d] + v[d];
    for (size_t i = 0; m && !rc && i < mi.nperiodic; i++) {
        frx_mesh_periodic p = {.size = sizeof p};
        if ((rc = frx_mesh_get_periodic(m, i, &p)))
            break;
        for (size_t d = 0; d < 3; d++)
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
static int fits_period(const frx_solver_init *init, int nd,
                       const double *len, const double *period,
                       const int *periodic)
{
    for (int d = 0; d < nd; d++) {
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
                         fr_cfg_place(n, at, sizeof at), "xyz"[d], len[d],
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
    static const double vdef[3] = {1, 0.5, 0.25};
    double ldef[3] = {1, 1, 1};
    int field = 0, periodic[3] = {0, 0, 0};
    frx_mesh_info mi = {.size = sizeof mi};
    int rc = init->mesh ? frx_mesh_get_info(init->mesh, &mi) : FRX_OK;
    a->nd = mi.ndims == 3 ? 3 : 2; /* the system refuses what it cannot run */
    if (!rc)
        rc = pair(init->options, "velocity", vdef, a->nd, a->a);
    if (!rc)
        rc = frx_cfg_bool(init->options, "velocity-field", 0, &field);
    int rc2 = mesh_lengths(init, ldef, periodic);
    if (!rc)
        rc = rc2;
    if (!rc)
        rc = pair(init->options, "wavelength", ldef, a->nd, a->len);
    for (int d = 0; !rc && d < a->nd; d++)
        if (!(a->len[d] > 0))
            rc = frx_error(FRX_ECONFIG, "advection: the wavelength along "
                           "%c is %g: give solver.wavelength, %d positive "
                           "numbers", "xyz"[d], a->len[d], a->nd);
    if (!rc)
        rc = fits_period(init, a->nd, a->len, ldef, periodic);
    static const char *const anames[3] = {"ax", "ay", "az"},
                             *const lnames[3] = {"lx", "ly", "lz"};
    size_t nc = 0;
    for (int d = 0; d < a->nd; d++)
        a->consts[nc++] = (fr_const){anames[d], a->a[d]};
    for (int d = 0; d < a->nd; d++)
        a->consts[nc++] = (fr_const){lnames[d], a->len[d]};
    a->consts[nc++] = (fr_const){"twopi", 2 * M_PI};
    fragments(a);
    snprintf(a->init_src, sizeof a->init_src, "u[0] = %s;", a->exact);
    fr_physics p = {
        .name = "advection",
        .nvars = 1,
        .vars = vars,
        .consts = a->consts,
        .nconsts = nc,
        .flux = a->flux,
        .rsolve = a->rsolve,
        .wavespeed = a->wave,
        .bcs = a->bcs,
        .nbcs = 2,
        .ctx = a,
        .initial = exact_at,
        .exact = exact_at,
        .initial_src = a->init_src,
        .dims = FR_DIMS_2 | FR_DIMS_3,
    };
    if (field) {
        p.naux = (size_t)a->nd;
        p.aux = aux;
        p.aux_at = velocity_at;
        p.aux_src = a->aux_src;
        p.flux = a->aflux;
        p.rsolve = a->arsolve;
        p.wavespeed = a->awave;
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
