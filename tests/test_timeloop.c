/* SPDX-License-Identifier: BSD-3-Clause */
/* The time loop on an ODE at every point (tests/fixtures/ode.c), on the
 * backend argv[1] (exits 77 where it cannot start): each scheme's order
 * of accuracy, the rk45 controller meeting its tolerance, dt from the
 * CFL number, when runs stop, set-up errors, two solvers with kernels
 * of the same name on one backend, and the solver lifecycle (leaks show
 * under the sanitizers). Runs under mpirun with any number of ranks:
 * the elements are shared out, the norms are global. */
#include "testutil.h"

#include <check.h>
#include <frx/comm.h>
#include <frx/mesh.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *backend_name;
static int rank;

static frx_config *config(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* A case on the test's backend: fmt adds the rest (double precision
 * unless it says otherwise). */
static frx_config *config(const char *fmt, ...)
{
    char body[2048], head[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    snprintf(head, sizeof head, "backend: {name: %s, precision: %s}\n",
             backend_name, strstr(body, "#single") ? "single" : "double");
    return tu_case(head, body);
}

/* The backend (double precision) and communicator most runs share:
 * starting a device once, not once a run. */
static frx_backend *shared_be;
static frx_comm *shared_comm;

/* Run a case; its stats (L2 error of the first variables into l2). A
 * double-precision case runs on the shared backend (with its mesh, if
 * it has one), any other through frx_run_case as `frx run` does. */
static frx_run_stats run(frx_config *cfg, double *l2, size_t n)
{
    frx_run_stats st = {.size = sizeof st, .l2 = l2, .l2_cap = n};
    const char *prec = NULL;
    frx_cfg_string(frx_config_root(cfg), "backend.precision", NULL, &prec);
    if (strcmp(prec, "double") != 0) {
        int rc = frx_run_case(cfg, MPI_COMM_WORLD, NULL, &st);
        ck_assert_msg(rc == FRX_OK, "%s", frx_errmsg());
        frx_config_free(cfg);
        return st;
    }
    frx_mesh *mesh = NULL;
    frx_solver *s;
    if (frx_cfg_get(frx_config_root(cfg), "mesh"))
        ck_assert_msg(frx_mesh_create(cfg, MPI_COMM_WORLD, &mesh) == FRX_OK,
                      "%s", frx_errmsg());
    ck_assert_msg(frx_solver_create(cfg, shared_be, shared_comm, mesh, NULL,
                                    &s) == FRX_OK, "%s", frx_errmsg());
    ck_assert_msg(frx_solver_run(s, &st) == FRX_OK, "%s", frx_errmsg());
    frx_solver_destroy(s);
    frx_mesh_destroy(mesh);
    frx_config_free(cfg);
    return st;
}

/* The error of scheme at dt to t = 1 on the forced ODE. */
static double forced_error(const char *scheme, double dt, uint64_t *nrhs,
                           double *errest)
{
    double l2;
    frx_run_stats st = run(config("solver: {name: ode}\n"
                                  "time: {scheme: %s, controller: none, "
                                  "t-end: 1, dt: %g}\n", scheme, dt),
                           &l2, 1);
    ck_assert_msg(fabs(st.t - 1) == 0, "t = %.17g, not 1", st.t);
    ck_assert_uint_eq(st.steps_run, (uint64_t)lround(1 / dt));
    if (nrhs)
        *nrhs = st.nrhs;
    if (errest)
        *errest = st.errest;
    return l2;
}

/* Halving dt divides the error by 2^order, within 0.2 in the order. */
static void assert_order(const char *scheme, int stages, double want)
{
    double e[3], est[3];
    uint64_t nrhs;
    for (int i = 0; i < 3; i++) {
        double dt = 0.1 / (1 << i);
        e[i] = forced_error(scheme, dt, &nrhs, NULL);
        ck_assert_uint_eq(nrhs, (uint64_t)stages * (uint64_t)lround(1 / dt));
    }
    for (int i = 0; i < 2; i++) {
        double p = log2(e[i] / e[i + 1]);
        if (rank == 0)
            printf("%s: dt %g -> %g: error %.3e -> %.3e, order %.3f\n",
                   scheme, 0.1 / (1 << i), 0.1 / (2 << i), e[i], e[i + 1],
                   p);
        ck_assert_msg(fabs(p - want) <= 0.2, "%s: observed order %.3f, "
                      "want %g", scheme, p, want);
    }
    if (strcmp(scheme, "rk45") != 0)
        return;
    /* the embedded third-order solution: its local error, the last
     * step's estimate, goes as dt^4 (the estimate's weights make the
     * coarsest steps pre-asymptotic: these start at dt = 0.025) */
    for (int i = 0; i < 3; i++)
        forced_error(scheme, 0.025 / (1 << i), NULL, &est[i]);
    for (int i = 0; i < 2; i++) {
        double p = log2(est[i] / est[i + 1]);
        if (rank == 0)
            printf("rk45 embedded: estimate %.3e -> %.3e: local order %.3f "
                   "(method order %.3f)\n", est[i], est[i + 1], p, p - 1);
        ck_assert_msg(fabs(p - 1 - 3) <= 0.2, "rk45's embedded method: "
                      "order %.3f, want 3", p - 1);
    }
}
END_TEST

START_TEST(rk4_is_fourth_order) { assert_order("rk4", 4, 4); }
END_TEST

START_TEST(ssprk3_is_third_order) { assert_order("ssp-rk3", 3, 3); }
END_TEST

START_TEST(rk45_is_fourth_order) { assert_order("rk45", 5, 4); }
END_TEST

/* The PI controller: the RMS error (weights sum to the 37 elements)
 * within the tolerance, more steps for a tighter one, and a first dt
 * far too big is rejected and shrunk. */
START_TEST(rk45_adaptive_meets_tolerance)
{
    uint64_t steps[2];
    const double tols[2] = {1e-5, 1e-8};
    for (int i = 0; i < 2; i++) {
        double l2;
        frx_run_stats st = run(config("solver: {name: ode}\n"
                                      "time: {scheme: rk45, t-end: 5, "
                                      "dt: 2, atol: %g, rtol: %g}\n",
                                      tols[i], tols[i]), &l2, 1);
        double rms = l2 / sqrt(37.0);
        if (rank == 0)
            printf("rk45 tolerance %g: %llu steps, %llu rejected, RMS "
                   "error %.3e\n", tols[i], (unsigned long long)st.step,
                   (unsigned long long)st.rejected, rms);
        ck_assert_msg(rms <= tols[i], "tolerance %g: RMS error %g", tols[i],
                      rms);
        ck_assert_uint_ge(st.rejected, 1);
        ck_assert_msg(st.t == 5, "t = %.17g", st.t);
        ck_assert_uint_eq(st.nrhs, 5 * (st.step + st.rejected));
        steps[i] = st.step;
    }
    ck_assert_uint_gt(steps[1], 3 * steps[0]);
}
END_TEST

/* A system (2 variables) with dt from time.cfl: cfl/omega. */
START_TEST(cfl_rotation)
{
    double l2[2];
    frx_run_stats st = run(config("solver: {name: ode, problem: rotation, "
                                  "omega: 2}\n"
                                  "time: {scheme: ssp-rk3, t-end: 3, "
                                  "cfl: 0.05}\n"), l2, 2);
    ck_assert_uint_eq(st.steps_run, 120);
    ck_assert_msg(st.dt == 0.025, "dt %.17g", st.dt);
    ck_assert_msg(l2[0] < 1e-3 && l2[1] < 1e-3 && l2[0] > 0,
                  "errors %g %g", l2[0], l2[1]);
    ck_assert_uint_eq(st.ndofs, 37 * 3 * 2);
}
END_TEST

/* time.steps ends a run by step number, time.t-start shifts the clock
 * (the forced ODE depends on t: set_time must say it), single
 * precision runs too. */
START_TEST(steps_start_and_single)
{
    double l2;
    frx_run_stats st = run(config("solver: {name: ode}\n"
                                  "time: {t-start: 2, steps: 7, "
                                  "dt: 0.01}\n"), &l2, 1);
    ck_assert_uint_eq(st.step, 7);
    ck_assert_msg(fabs(st.t - 2.07) < 1e-12, "t %.17g", st.t);
    ck_assert_msg(l2 < 1e-9, "error %g", l2);
    st = run(config("#single\nsolver: {name: ode}\n"
                    "time: {t-end: 1, dt: 0.05}\n"), &l2, 1);
    ck_assert_msg(l2 < 1e-4, "single precision: error %g", l2);
}
END_TEST

/* On a box mesh of quadrilaterals, then of triangles, METIS-partitioned
 * across the ranks: the loop takes the mesh's blocks and element
 * numbers. */
START_TEST(on_a_mesh)
{
    static const char *const etypes[] = {"quad", "tri"};
    for (int i = 0; i < 2; i++) {
        double l2;
        frx_run_stats st = run(config("mesh: {type: box, n: [6, 5], "
                                      "etype: %s}\n"
                                      "solver: {name: ode, points: 2}\n"
                                      "time: {t-end: 1, dt: 0.05}\n",
                                      etypes[i]), &l2, 1);
        uint64_t neles = i ? 60 : 30;
        ck_assert_uint_eq(st.ndofs, neles * 2);
        /* weights 1/2 a point: the norm of an error e everywhere is
         * e*sqrt(neles) */
        ck_assert_msg(l2 > 0 && l2 / sqrt((double)neles) < 5e-8,
                      "%s: error %g", etypes[i], l2);
    }
}
END_TEST

START_TEST(setup_errors)
{
    frx_config *cfg = config("solver: {name: ode}\ntime: {t-end: 1}\n");
    ck_assert_int_eq(frx_run_case(cfg, MPI_COMM_WORLD, NULL, NULL),
                     FRX_ECONFIG);
    ck_assert_msg(strstr(frx_errmsg(), "case.yaml:4:1: missing required key "
                                       "'dt' in 'time' (or 'cfl')"),
                  "%s", frx_errmsg());
    frx_config_free(cfg);
    cfg = config("solver: {name: ode}\ntime: {dt: 1}\n");
    ck_assert_int_eq(frx_run_case(cfg, MPI_COMM_WORLD, NULL, NULL),
                     FRX_ECONFIG);
    ck_assert_msg(strstr(frx_errmsg(), "missing required key 't-end' in "
                                       "'time' (or 'steps')"),
                  "%s", frx_errmsg());
    frx_config_free(cfg);
    cfg = config("solver: {name: ode}\n"
                 "time: {scheme: rk4, controller: pi, dt: 1, t-end: 2}\n");
    ck_assert_int_eq(frx_run_case(cfg, MPI_COMM_WORLD, NULL, NULL),
                     FRX_ECONFIG);
    ck_assert_msg(strstr(frx_errmsg(), "'time.controller' is pi, which needs "
                                       "an error estimate"), "%s",
                  frx_errmsg());
    frx_config_free(cfg);
    /* a failure in the plugin's create: every rank says so */
    cfg = config("solver: {name: ode, elements: 1}\n"
                 "time: {dt: 1, t-end: 2}\n");
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rc = frx_run_case(cfg, MPI_COMM_WORLD, NULL, NULL);
    if (size > 1) {
        ck_assert_int_eq(rc, FRX_ECONFIG);
        ck_assert_msg(strstr(frx_errmsg(), "solver 'ode' create failed on "),
                      "%s", frx_errmsg());
        ck_assert_msg(strstr(frx_errmsg(), "rank 1: ode: rank 1 has no "
                                           "element of 1"), "%s",
                      frx_errmsg());
    } else {
        ck_assert_int_eq(rc, FRX_OK);
    }
    frx_config_free(cfg);
    /* output and checkpoints are per element type: no mesh, none */
    cfg = config("solver: {name: ode}\ntime: {dt: 1, t-end: 2}\n"
                 "checkpoint: {interval: 5}\n");
    ck_assert_int_eq(frx_run_case(cfg, MPI_COMM_WORLD, NULL, NULL),
                     FRX_ECONFIG);
    ck_assert_msg(strstr(frx_errmsg(), "case.yaml: checkpoint.interval "
                                       "needs a mesh"), "%s", frx_errmsg());
    frx_config_free(cfg);
    /* a kernel error in a solver's graph names the plugin */
    cfg = config("solver: {name: ode, fault: bind}\n"
                 "time: {dt: 1, t-end: 2}\n");
    ck_assert_int_eq(frx_run_case(cfg, MPI_COMM_WORLD, NULL, NULL),
                     FRX_ESHAPE);
    ck_assert_msg(strstr(frx_errmsg(), "building the graphs failed on "),
                  "%s", frx_errmsg());
    ck_assert_msg(strstr(frx_errmsg(), ": kernel 'ode.rhs': argument 'u' is "
                                       "declared 'in fpdtype_t' but was "
                                       "given a scalar"), "%s",
                  frx_errmsg());
    frx_config_free(cfg);
}
END_TEST

/* Two solver plugins on one backend, each with its own kernel "rhs"
 * (different bodies; one plugin's name is no C identifier): each runs
 * its own, as its exact solution says. */
START_TEST(two_solvers_one_backend)
{
    frx_config *c1 = config("solver: {name: ode}\n"
                            "time: {t-end: 1, dt: 0.05}\n");
    frx_config *c2 = config("solver: {name: ode-2x}\n"
                            "time: {t-end: 1, dt: 0.05}\n");
    frx_backend *be;
    frx_comm *comm;
    ck_assert_int_eq(frx_backend_create_all(c1, MPI_COMM_WORLD, &be),
                     FRX_OK);
    ck_assert_int_eq(frx_comm_create(be, MPI_COMM_WORLD, &comm), FRX_OK);
    frx_solver *s1, *s2;
    ck_assert_msg(frx_solver_create(c1, be, comm, NULL, NULL, &s1) == FRX_OK,
                  "%s", frx_errmsg());
    ck_assert_msg(frx_solver_create(c2, be, comm, NULL, NULL, &s2) == FRX_OK,
                  "%s", frx_errmsg());
    double e1, e2;
    frx_run_stats st1 = {.size = sizeof st1, .l2 = &e1, .l2_cap = 1};
    frx_run_stats st2 = {.size = sizeof st2, .l2 = &e2, .l2_cap = 1};
    ck_assert_int_eq(frx_solver_run(s1, &st1), FRX_OK);
    ck_assert_int_eq(frx_solver_run(s2, &st2), FRX_OK);
    ck_assert_msg(e1 < 1e-6 && e2 < 1e-6, "errors %g and %g", e1, e2);
    /* the kernel each registered: ode's is not ode2's */
    frx_kernel *k;
    frx_arg none[1];
    ck_assert_int_eq(frx_kernel_create(be, "rhs", 1, 1, none, 0, &k),
                     FRX_ENOTFOUND);
    frx_solver_destroy(s2);
    frx_solver_destroy(s1);
    frx_comm_destroy(comm);
    frx_backend_destroy(be);
    frx_config_free(c1);
    frx_config_free(c2);
}
END_TEST

/* Create and destroy with nothing run, twice on one backend; a stats
 * struct from an older caller is written only as far as its size. */
START_TEST(lifecycle)
{
    frx_config *cfg = config("solver: {name: ode, check-every: 2}\n"
                             "time: {scheme: rk45, controller: none, "
                             "t-end: 1, dt: 0.1}\n");
    frx_backend *be;
    frx_comm *comm;
    ck_assert_int_eq(frx_backend_create_all(cfg, MPI_COMM_WORLD, &be),
                     FRX_OK);
    ck_assert_int_eq(frx_comm_create(be, MPI_COMM_WORLD, &comm), FRX_OK);
    for (int i = 0; i < 2; i++) {
        frx_solver *s;
        ck_assert_msg(frx_solver_create(cfg, be, comm, NULL, NULL, &s) ==
                          FRX_OK, "%s", frx_errmsg());
        if (i) {
            struct {
                frx_run_stats st;
                uint64_t canary;
            } old = {.st = {.size = offsetof(frx_run_stats, t)},
                     .canary = 0x5a5a};
            old.st.t = -1;
            ck_assert_int_eq(frx_solver_run(s, &old.st), FRX_OK);
            ck_assert_uint_eq(old.st.step, 10);
            ck_assert_msg(old.st.t == -1, "past the caller's size");
            ck_assert_uint_eq(old.canary, 0x5a5a);
        }
        frx_solver_destroy(s);
    }
    frx_solver_destroy(NULL);
    frx_comm_destroy(comm);
    frx_backend_destroy(be);
    frx_config_free(cfg);
}
END_TEST

static Suite *timeloop_suite(void)
{
    Suite *s = suite_create("timeloop");
    TCase *tc = tcase_create("ode");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, rk4_is_fourth_order);
    tcase_add_test(tc, ssprk3_is_third_order);
    tcase_add_test(tc, rk45_is_fourth_order);
    tcase_add_test(tc, rk45_adaptive_meets_tolerance);
    tcase_add_test(tc, cfl_rotation);
    tcase_add_test(tc, steps_start_and_single);
    tcase_add_test(tc, on_a_mesh);
    tcase_add_test(tc, setup_errors);
    tcase_add_test(tc, two_solvers_one_backend);
    tcase_add_test(tc, lifecycle);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_timeloop BACKEND\n");
        return 2;
    }
    backend_name = argv[1];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* skip where the backend cannot start, on every rank alike */
    char text[128];
    snprintf(text, sizeof text, "backend: {name: %s, precision: double}\n",
             backend_name);
    return tu_run_mpi_suite(text, backend_name, timeloop_suite, &shared_be,
                            &shared_comm);
}
