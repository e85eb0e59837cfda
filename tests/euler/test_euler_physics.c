/* SPDX-License-Identifier: BSD-3-Clause */
/* The Euler physics' kernel macros (plugins/solvers/euler/physics.c) run
 * on a backend (argv[1]) in both precisions, through the public kernel
 * API, against properties and plain C: the Riemann solvers' consistency
 * F(u, u, n) = f(u).n, conservation F(ul, ur, n) = -F(ur, ul, -n), HLLC's
 * exact stationary contact and upwinding, the boundary ghost states and
 * the wave speed. Exits 77 when the backend cannot start here. */
#include "../testutil.h"
#include "physics.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static frx_backend *be;
static const char *precision;

#define GAMMA 1.4
#define NPTS 203 /* not a multiple of any chunk or work-group */

/* Boundaries and their free streams: 0 sup-in, 1 sup-out, 2 slip wall,
 * 3 characteristic subsonic (M 0.25), 4 characteristic supersonic (M 2
 * along x). */
static const struct bc {
    const char *macro;
    double rho, vel[2], p;
} bcs[] = {
    {"euler_bc_sup_in", 1.2, {2.5, -0.4}, 0.9},
    {"euler_bc_sup_out", 0, {0}, 0},
    {"euler_bc_slip_wall", 0, {0}, 0},
    {"euler_bc_char_riem", 1.1, {0.3, 0.4}, 1.0 / 1.4 / 0.25 * 1.1},
    {"euler_bc_char_riem", 1.0, {2.0 * 1.1832159566199232, 0}, 1.0},
};
#define NBCS (sizeof bcs / sizeof bcs[0])

static double tol(void)
{
    return frx_backend_fpsize(be) == 4 ? 2e-5 : 1e-13;
}

/* ---------------------------------------------------------- plain C */

static void prim_to_cons(double rho, const double *v, double p, double *u)
{
    u[0] = rho;
    u[1] = rho * v[0];
    u[2] = rho * v[1];
    u[3] = p / (GAMMA - 1) + 0.5 * rho * (v[0] * v[0] + v[1] * v[1]);
}

static double pressure(const double *u)
{
    return (GAMMA - 1) * (u[3] - 0.5 * (u[1] * u[1] + u[2] * u[2]) / u[0]);
}

/* f(u).n */
static void normal_flux(const double *u, const double *n, double *fn)
{
    double p = pressure(u), vn = (u[1] * n[0] + u[2] * n[1]) / u[0];
    fn[0] = u[0] * vn;
    fn[1] = u[1] * vn + p * n[0];
    fn[2] = u[2] * vn + p * n[1];
    fn[3] = (u[3] + p) * vn;
}

static double unif(uint64_t *rng, double a, double b)
{
    return a + (b - a) * (double)(tu_rand(rng) >> 11) / 9007199254740992.0;
}

/* A random state: rho, p in [0.5, 2], each velocity in [-1.5, 1.5]. */
static void rand_state(uint64_t *rng, double *u)
{
    double v[2] = {unif(rng, -1.5, 1.5), unif(rng, -1.5, 1.5)};
    prim_to_cons(unif(rng, 0.5, 2), v, unif(rng, 0.5, 2), u);
}

static void rand_normal(uint64_t *rng, double *n)
{
    double a = unif(rng, 0, 2 * M_PI);
    n[0] = cos(a);
    n[1] = sin(a);
}

/* ---------------------------------------------------------- kernels */

static const frx_kernel_decl k_flux = {
    .name = "et_flux", .ndim = 1,
    .args = "in xchg fpdtype_t[4] u, in xchg fpdtype_t[2] n, "
            "out xchg fpdtype_t[4] fn, scalar fpdtype_t gamma",
    .body = "fpdtype_t f[2][4], p, v[2];\n"
            "euler_flux(u, f, p, v);\n"
            "for (int i = 0; i < 4; i++)\n"
            "    fn[i] = n[0]*f[0][i] + n[1]*f[1][i];"};
static const frx_kernel_decl k_rusanov = {
    .name = "et_rusanov", .ndim = 1,
    .args = "in xchg fpdtype_t[4] ul, in xchg fpdtype_t[4] ur, "
            "in xchg fpdtype_t[2] n, out xchg fpdtype_t[4] nf, "
            "scalar fpdtype_t gamma",
    .body = "euler_rusanov(ul, ur, n, nf);"};
static const frx_kernel_decl k_hllc = {
    .name = "et_hllc", .ndim = 1,
    .args = "in xchg fpdtype_t[4] ul, in xchg fpdtype_t[4] ur, "
            "in xchg fpdtype_t[2] n, out xchg fpdtype_t[4] nf, "
            "scalar fpdtype_t gamma",
    .body = "euler_hllc(ul, ur, n, nf);"};
static const frx_kernel_decl k_wavespeed = {
    .name = "et_wavespeed", .ndim = 1,
    .args = "in xchg fpdtype_t[4] u, out xchg fpdtype_t[1] a, "
            "scalar fpdtype_t gamma",
    .body = "euler_wavespeed(u, a[0]);"};

/* The ghost state of boundary k, its free stream as scalars. */
static char bc_bodies[NBCS][64];
static char bc_names[NBCS][32];

static void register_all(void)
{
    frx_kernel_macro *m;
    size_t nm;
    ck_assert_msg(euler_macros(2, &m, &nm) == FRX_OK, "%s", frx_errmsg());
    for (size_t i = 0; i < nm; i++)
        ck_assert_msg(frx_kernel_register_macro(be, &m[i]) == FRX_OK, "%s",
                      frx_errmsg());
    euler_macros_free(m, nm);
    const frx_kernel_decl *ks[] = {&k_flux, &k_rusanov, &k_hllc,
                                   &k_wavespeed};
    for (size_t i = 0; i < 4; i++)
        ck_assert_msg(frx_kernel_register(be, ks[i]) == FRX_OK, "%s",
                      frx_errmsg());
    for (size_t k = 0; k < NBCS; k++) {
        snprintf(bc_names[k], sizeof bc_names[k], "et_bc_%zu", k);
        snprintf(bc_bodies[k], sizeof bc_bodies[k], "%s(ul, n, ur);",
                 bcs[k].macro);
        frx_kernel_decl d = {
            .name = bc_names[k], .ndim = 1,
            .args = "in xchg fpdtype_t[4] ul, in xchg fpdtype_t[2] n, "
                    "out xchg fpdtype_t[4] ur, scalar fpdtype_t gamma, "
                    "scalar fpdtype_t bc_rho, scalar fpdtype_t bc_u, "
                    "scalar fpdtype_t bc_v, scalar fpdtype_t bc_p",
            .body = bc_bodies[k]};
        ck_assert_msg(frx_kernel_register(be, &d) == FRX_OK, "%s",
                      frx_errmsg());
    }
}

/* The scalars after the xchg arguments: gamma, then a boundary's free
 * stream (bc_rho, bc_u, bc_v, bc_p) where nscal is 5. */
static double scal[5] = {GAMMA};
static size_t nscal = 1;

static void use_bc(size_t k)
{
    scal[1] = bcs[k].rho, scal[2] = bcs[k].vel[0];
    scal[3] = bcs[k].vel[1], scal[4] = bcs[k].p;
    nscal = 5;
}

/* Run kernel `name` over NPTS points: nargs xchg arguments, each
 * [ncols[a]] values a point, host data args[a] as [point][col] doubles
 * (read back into the out ones, the last nout), then the scalars. */
static void run(const char *name, size_t nargs, size_t nout,
                const size_t *ncols, double **args)
{
    frx_xchg_matrix *xm[8];
    frx_arg fa[16];
    for (size_t a = 0; a < nargs; a++) {
        ck_assert_int_eq(frx_xchg_matrix_create(be, NPTS, 1, ncols[a],
                                                &xm[a]), FRX_OK);
        void *h = tu_alloc(be, NPTS * ncols[a]);
        for (size_t i = 0; i < NPTS; i++)
            for (size_t c = 0; c < ncols[a]; c++)
                tu_put(be, h, c * NPTS + i, args[a][i * ncols[a] + c]);
        ck_assert_int_eq(frx_xchg_matrix_write(xm[a], h), FRX_OK);
        free(h);
        fa[a] = frx_arg_xchg(xm[a]);
    }
    for (size_t c = 0; c < nscal; c++)
        fa[nargs + c] = frx_arg_scalar(scal[c]);
    frx_kernel *k;
    ck_assert_msg(frx_kernel_create(be, name, 1, NPTS, fa, nargs + nscal,
                                    &k) == FRX_OK, "%s", frx_errmsg());
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    for (size_t a = nargs - nout; a < nargs; a++) {
        void *h = tu_alloc(be, NPTS * ncols[a]);
        ck_assert_int_eq(frx_xchg_matrix_read(xm[a], h), FRX_OK);
        for (size_t i = 0; i < NPTS; i++)
            for (size_t c = 0; c < ncols[a]; c++)
                args[a][i * ncols[a] + c] = tu_get(be, h, c * NPTS + i);
        free(h);
    }
    frx_kernel_destroy(k);
    for (size_t a = 0; a < nargs; a++)
        frx_xchg_matrix_destroy(xm[a]);
    nscal = 1;
}

/* Inputs of the precision: what the device sees. */
static double rounded(double x)
{
    return frx_backend_fpsize(be) == 4 ? (double)(float)x : x;
}

static void assert_near(double got, double want, double scale,
                        const char *what, size_t i, size_t c)
{
    ck_assert_msg(fabs(got - want) <= tol() * (scale > 1 ? scale : 1),
                  "%s (%s): point %zu, value %zu: got %.17g, want %.17g",
                  what, precision, i, c, got, want);
}

static double state_scale(const double *u)
{
    double s = 0;
    for (int c = 0; c < 4; c++)
        s = fmax(s, fabs(u[c]));
    return s;
}

/* Random left and right states and normals (rounded). */
static void fill(uint64_t seed, double *ul, double *ur, double *n)
{
    uint64_t rng = seed;
    for (size_t i = 0; i < NPTS; i++) {
        rand_state(&rng, ul + 4 * i);
        if (ur)
            rand_state(&rng, ur + 4 * i);
        rand_normal(&rng, n + 2 * i);
    }
    for (size_t i = 0; i < 4 * NPTS; i++) {
        ul[i] = rounded(ul[i]);
        if (ur)
            ur[i] = rounded(ur[i]);
    }
    for (size_t i = 0; i < 2 * NPTS; i++)
        n[i] = rounded(n[i]);
}

static double ul[4 * NPTS], ur[4 * NPTS], nn[2 * NPTS], out[4 * NPTS],
    out2[4 * NPTS];

START_TEST(flux_matches_plain_c)
{
    register_all();
    fill(11, ul, NULL, nn);
    size_t nc[] = {4, 2, 4};
    double *a[] = {ul, nn, out};
    run("et_flux", 3, 1, nc, a);
    for (size_t i = 0; i < NPTS; i++) {
        double fn[4];
        normal_flux(ul + 4 * i, nn + 2 * i, fn);
        for (int c = 0; c < 4; c++)
            assert_near(out[4 * i + c], fn[c], 4 * state_scale(ul + 4 * i),
                        "euler_flux . n", i, c);
    }
}
END_TEST

/* F(u, u, n) = f(u).n for both solvers. */
START_TEST(riemann_consistent)
{
    register_all();
    fill(12, ul, NULL, nn);
    const char *ks[] = {"et_rusanov", "et_hllc"};
    for (int s = 0; s < 2; s++) {
        size_t nc[] = {4, 4, 2, 4};
        double *a[] = {ul, ul, nn, out};
        run(ks[s], 4, 1, nc, a);
        for (size_t i = 0; i < NPTS; i++) {
            double fn[4];
            normal_flux(ul + 4 * i, nn + 2 * i, fn);
            for (int c = 0; c < 4; c++)
                assert_near(out[4 * i + c], fn[c],
                            8 * state_scale(ul + 4 * i), ks[s], i, c);
        }
    }
}
END_TEST

/* What leaves one side enters the other: F(ul, ur, n) = -F(ur, ul, -n),
 * and the flux differs from either side's own (the states differ). */
START_TEST(riemann_conservative)
{
    register_all();
    fill(13, ul, ur, nn);
    double neg[2 * NPTS];
    for (size_t i = 0; i < 2 * NPTS; i++)
        neg[i] = -nn[i];
    const char *ks[] = {"et_rusanov", "et_hllc"};
    for (int s = 0; s < 2; s++) {
        size_t nc[] = {4, 4, 2, 4};
        double *a[] = {ul, ur, nn, out};
        run(ks[s], 4, 1, nc, a);
        double *b[] = {ur, ul, neg, out2};
        run(ks[s], 4, 1, nc, b);
        size_t differs = 0;
        for (size_t i = 0; i < NPTS; i++) {
            double fl[4], sc = 8 * fmax(state_scale(ul + 4 * i),
                                        state_scale(ur + 4 * i));
            normal_flux(ul + 4 * i, nn + 2 * i, fl);
            for (int c = 0; c < 4; c++) {
                assert_near(out[4 * i + c], -out2[4 * i + c], sc, ks[s], i,
                            c);
                differs += fabs(out[4 * i + c] - fl[c]) > 1e-3;
            }
        }
        ck_assert_msg(differs > NPTS, "%s: the common flux is the left "
                      "side's own almost everywhere", ks[s]);
    }
}
END_TEST

/* A stationary contact (n.v = 0 both sides, equal pressure, any density
 * jump and tangential velocity): HLLC gives the exact flux (0, p n, 0);
 * Rusanov smears it (a mass flux). Supersonic flow along n: HLLC is the
 * upwind side's flux. */
START_TEST(hllc_contact_and_upwind)
{
    register_all();
    uint64_t rng = 14;
    for (size_t i = 0; i < NPTS; i++) {
        double n[2], t[2], v[2], p = unif(&rng, 0.5, 2);
        rand_normal(&rng, n);
        t[0] = -n[1], t[1] = n[0];
        double vt = unif(&rng, -1, 1);
        v[0] = vt * t[0], v[1] = vt * t[1];
        prim_to_cons(unif(&rng, 0.5, 1), v, p, ul + 4 * i);
        prim_to_cons(unif(&rng, 1.5, 3), v, p, ur + 4 * i);
        nn[2 * i] = n[0], nn[2 * i + 1] = n[1];
    }
    for (size_t i = 0; i < 4 * NPTS; i++)
        ul[i] = rounded(ul[i]), ur[i] = rounded(ur[i]);
    for (size_t i = 0; i < 2 * NPTS; i++)
        nn[i] = rounded(nn[i]);
    size_t nc[] = {4, 4, 2, 4};
    double *a[] = {ul, ur, nn, out};
    run("et_hllc", 4, 1, nc, a);
    double *b[] = {ul, ur, nn, out2};
    run("et_rusanov", 4, 1, nc, b);
    for (size_t i = 0; i < NPTS; i++) {
        /* the pressure as the device's rounded states give it */
        double p = pressure(ul + 4 * i), want[4] = {
            0, p * nn[2 * i], p * nn[2 * i + 1], 0};
        for (int c = 0; c < 4; c++)
            assert_near(out[4 * i + c], want[c], 50, "HLLC contact", i, c);
        ck_assert_msg(fabs(out2[4 * i]) > 1e-2, "Rusanov has no mass flux "
                      "across a contact at point %zu", i);
    }

    /* a contact moving subsonically along n (same velocity and pressure,
     * a density jump): the flux of the side it moves away from */
    for (int dir = -1; dir <= 1; dir += 2) {
        for (size_t i = 0; i < NPTS; i++) {
            double n[2], v[2], p = unif(&rng, 0.5, 2);
            rand_normal(&rng, n);
            double vn = dir * unif(&rng, 0.1, 0.5), vt = unif(&rng, -1, 1);
            v[0] = vn * n[0] - vt * n[1], v[1] = vn * n[1] + vt * n[0];
            prim_to_cons(unif(&rng, 0.5, 1), v, p, ul + 4 * i);
            prim_to_cons(unif(&rng, 1.5, 3), v, p, ur + 4 * i);
            nn[2 * i] = n[0], nn[2 * i + 1] = n[1];
        }
        for (size_t i = 0; i < 4 * NPTS; i++)
            ul[i] = rounded(ul[i]), ur[i] = rounded(ur[i]);
        for (size_t i = 0; i < 2 * NPTS; i++)
            nn[i] = rounded(nn[i]);
        run("et_hllc", 4, 1, nc, a);
        for (size_t i = 0; i < NPTS; i++) {
            double fn[4];
            const double *up = (dir > 0 ? ul : ur) + 4 * i;
            normal_flux(up, nn + 2 * i, fn);
            for (int c = 0; c < 4; c++)
                assert_near(out[4 * i + c], fn[c], 50 * state_scale(up),
                            "HLLC moving contact", i, c);
        }
    }

    /* supersonic along n, either way */
    for (int dir = -1; dir <= 1; dir += 2) {
        for (size_t i = 0; i < NPTS; i++) {
            double n[2], v[2];
            rand_normal(&rng, n);
            for (int s = 0; s < 2; s++) {
                double rho = unif(&rng, 0.5, 2), p = unif(&rng, 0.5, 2);
                double c = sqrt(GAMMA * p / rho), m = unif(&rng, 1.2, 3);
                v[0] = dir * m * c * n[0] - 0.3 * n[1];
                v[1] = dir * m * c * n[1] + 0.3 * n[0];
                prim_to_cons(rho, v, p, (s ? ur : ul) + 4 * i);
            }
            nn[2 * i] = n[0], nn[2 * i + 1] = n[1];
        }
        for (size_t i = 0; i < 4 * NPTS; i++)
            ul[i] = rounded(ul[i]), ur[i] = rounded(ur[i]);
        for (size_t i = 0; i < 2 * NPTS; i++)
            nn[i] = rounded(nn[i]);
        run("et_hllc", 4, 1, nc, a);
        for (size_t i = 0; i < NPTS; i++) {
            double fn[4];
            const double *up = (dir > 0 ? ul : ur) + 4 * i;
            normal_flux(up, nn + 2 * i, fn);
            for (int c = 0; c < 4; c++)
                assert_near(out[4 * i + c], fn[c], 8 * state_scale(up) * 9,
                            "HLLC supersonic", i, c);
        }
    }
}
END_TEST

START_TEST(boundary_states)
{
    register_all();
    fill(15, ul, NULL, nn);
    size_t nc[] = {4, 2, 4};
    double *a[] = {ul, nn, out};
    for (size_t k = 0; k < 3; k++) {
        use_bc(k);
        run(bc_names[k], 3, 1, nc, a);
        for (size_t i = 0; i < NPTS; i++) {
            const double *u = ul + 4 * i, *n = nn + 2 * i;
            double want[4], sc = state_scale(u);
            if (k == 0) {
                prim_to_cons(bcs[0].rho, bcs[0].vel, bcs[0].p, want);
                sc = 4;
            } else if (k == 1) {
                memcpy(want, u, sizeof want);
            } else {
                double mn = u[1] * n[0] + u[2] * n[1];
                want[0] = u[0], want[3] = u[3];
                want[1] = u[1] - 2 * mn * n[0];
                want[2] = u[2] - 2 * mn * n[1];
            }
            for (int c = 0; c < 4; c++)
                assert_near(out[4 * i + c], want[c], sc, bc_names[k], i, c);
        }
    }

    /* A slip wall's ghost state with Rusanov: no mass or energy through
     * the wall. */
    memcpy(ur, out, sizeof ur);
    size_t nr[] = {4, 4, 2, 4};
    double *r[] = {ul, ur, nn, out2};
    run("et_rusanov", 4, 1, nr, r);
    for (size_t i = 0; i < NPTS; i++) {
        assert_near(out2[4 * i], 0, 8 * state_scale(ul + 4 * i), "wall mass",
                    i, 0);
        assert_near(out2[4 * i + 3], 0, 8 * state_scale(ul + 4 * i),
                    "wall energy", i, 3);
    }
}
END_TEST

/* char-riem-inv gives back its free stream where the inside is the free
 * stream (inflow and outflow faces alike), and the inside state at a
 * supersonic outflow. */
START_TEST(far_field)
{
    register_all();
    uint64_t rng = 16;
    size_t nc[] = {4, 2, 4};
    double *a[] = {ul, nn, out};
    for (size_t k = 3; k < 5; k++) {
        double fs[4];
        prim_to_cons(bcs[k].rho, bcs[k].vel, bcs[k].p, fs);
        for (size_t i = 0; i < NPTS; i++) {
            memcpy(ul + 4 * i, fs, sizeof fs);
            rand_normal(&rng, nn + 2 * i);
        }
        for (size_t i = 0; i < 4 * NPTS; i++)
            ul[i] = rounded(ul[i]);
        for (size_t i = 0; i < 2 * NPTS; i++)
            nn[i] = rounded(nn[i]);
        use_bc(k);
        run(bc_names[k], 3, 1, nc, a);
        for (size_t i = 0; i < NPTS; i++)
            for (int c = 0; c < 4; c++)
                assert_near(out[4 * i + c], ul[4 * i + c], 40, bc_names[k],
                            i, c);
    }
    /* supersonic free stream along +x, faces whose normal has n.x > 0.6:
     * outflow; any inside state moving out */
    for (size_t i = 0; i < NPTS; i++) {
        double t = unif(&rng, -0.9, 0.9), n[2] = {cos(t), sin(t)};
        double v[2] = {unif(&rng, 0.5, 2) * n[0], unif(&rng, 0.5, 2) * n[1]};
        prim_to_cons(unif(&rng, 0.5, 2), v, unif(&rng, 0.5, 2), ul + 4 * i);
        nn[2 * i] = n[0], nn[2 * i + 1] = n[1];
    }
    for (size_t i = 0; i < 4 * NPTS; i++)
        ul[i] = rounded(ul[i]);
    for (size_t i = 0; i < 2 * NPTS; i++)
        nn[i] = rounded(nn[i]);
    use_bc(4);
    run(bc_names[4], 3, 1, nc, a);
    for (size_t i = 0; i < NPTS; i++)
        for (int c = 0; c < 4; c++)
            assert_near(out[4 * i + c], ul[4 * i + c],
                        40 * state_scale(ul + 4 * i), "supersonic outflow", i,
                        c);
}
END_TEST

START_TEST(wavespeed_matches_plain_c)
{
    register_all();
    fill(17, ul, NULL, nn);
    size_t nc[] = {4, 1};
    double *a[] = {ul, out};
    run("et_wavespeed", 2, 1, nc, a);
    for (size_t i = 0; i < NPTS; i++) {
        const double *u = ul + 4 * i;
        double want = hypot(u[1], u[2]) / u[0] +
                      sqrt(GAMMA * pressure(u) / u[0]);
        assert_near(out[i], want, 4, "wave speed", i, 0);
    }
}
END_TEST

/* Only 2-D and 3-D physics exist. */
START_TEST(bad_ndims_refused)
{
    frx_kernel_macro *m = NULL;
    size_t n = 0;
    ck_assert_int_eq(euler_macros(1, &m, &n), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "ndims"));
    ck_assert_int_eq(euler_macros(3, &m, &n), FRX_OK);
    ck_assert_ptr_nonnull(strstr(m[0].body, "(F)[2][4]"));
    euler_macros_free(m, n);
}
END_TEST

static Suite *physics_suite(void)
{
    Suite *s = suite_create("euler-physics");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, flux_matches_plain_c);
    tcase_add_test(tc, riemann_consistent);
    tcase_add_test(tc, riemann_conservative);
    tcase_add_test(tc, hllc_contact_and_upwind);
    tcase_add_test(tc, boundary_states);
    tcase_add_test(tc, far_field);
    tcase_add_test(tc, wavespeed_matches_plain_c);
    tcase_add_test(tc, bad_ndims_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_euler_physics BACKEND\n");
        return 2;
    }
    return tu_run_per_precision(argv[1], physics_suite, &be, &precision);
}
