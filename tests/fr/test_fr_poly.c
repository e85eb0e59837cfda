/* SPDX-License-Identifier: BSD-3-Clause */
/* libfrx-fr, 1-D: Gauss-Legendre and Gauss-Lobatto rules (closed
 * forms, ulp accuracy, exactness), Legendre and Jacobi polynomials,
 * Lagrange bases, Radau polynomials and Huynh's g_DG. */
#include "frtest.h"

#include <frx/frx.h>

#include <string.h>

/* a few ulp of x */
static double ulps(double x, double n) { return n * DBL_EPSILON * fmax(fabs(x), DBL_MIN); }

START_TEST(gauss_legendre_closed_forms)
{
    double x[5], w[5];
    ck_assert_int_eq(fr_gauss_legendre(1, x, w), 0);
    ck_assert(x[0] == 0.0 && w[0] == 2.0);
    ck_assert_int_eq(fr_gauss_legendre(2, x, w), 0);
    ck_assert(fabs(x[1] - 1 / sqrt(3.0)) <= ulps(x[1], 2));
    ck_assert(fabs(w[0] - 1.0) <= ulps(1, 2));
    ck_assert_int_eq(fr_gauss_legendre(3, x, w), 0);
    ck_assert(x[1] == 0.0 && !signbit(x[1]));
    ck_assert(fabs(x[2] - sqrt(0.6)) <= ulps(x[2], 2));
    ck_assert(fabs(w[1] - 8.0 / 9) <= ulps(w[1], 2));
    ck_assert(fabs(w[2] - 5.0 / 9) <= ulps(w[2], 2));
    ck_assert_int_eq(fr_gauss_legendre(5, x, w), 0);
    double a = sqrt(5 - 2 * sqrt(10.0 / 7)) / 3, b = sqrt(5 + 2 * sqrt(10.0 / 7)) / 3;
    ck_assert_msg(fabs(x[3] - a) <= ulps(a, 3), "%.17g vs %.17g", x[3], a);
    ck_assert_msg(fabs(x[4] - b) <= ulps(b, 3), "%.17g vs %.17g", x[4], b);
    ck_assert(fabs(w[2] - 128.0 / 225) <= ulps(w[2], 3));
    ck_assert(fabs(w[3] - (322 + 13 * sqrt(70.0)) / 900) <= ulps(w[3], 4));
    ck_assert(fabs(w[4] - (322 - 13 * sqrt(70.0)) / 900) <= ulps(w[4], 4));
}
END_TEST

/* Every point is a root of P_n to within an ulp or two: one Newton step
 * from it (in long double inside fr_legendre) moves it by less. */
START_TEST(gauss_legendre_roots_to_ulps)
{
    for (size_t n = 1; n <= 40; n++) {
        double x[64], w[64];
        ck_assert_int_eq(fr_gauss_legendre(n, x, w), 0);
        for (size_t i = 0; i < n; i++) {
            double dp, p = fr_legendre((int)n, x[i], &dp);
            ck_assert_msg(fabs(p / dp) <= ulps(x[i], 2) + 1e-300,
                          "n %zu point %zu: Newton step %.3g", n, i, p / dp);
            ck_assert(x[i] == -x[n - 1 - i]);
            ck_assert(w[i] == w[n - 1 - i] && w[i] > 0);
            if (i)
                ck_assert(x[i] > x[i - 1]);
        }
    }
}
END_TEST

START_TEST(gauss_legendre_exactness)
{
    for (size_t n = 1; n <= 24; n++) {
        double x[64], w[64];
        ck_assert_int_eq(fr_gauss_legendre(n, x, w), 0);
        for (int k = 0; k <= (int)(2 * n - 1); k++) {
            double s = 0.0;
            for (size_t i = 0; i < n; i++)
                s += w[i] * pow(x[i], k);
            ck_near(s, ft_int1(k), 1e-14);
        }
        /* and not beyond: x^(2n) is integrated wrongly (by an error that
         * falls like 4^-n, far above rounding up to n = 12) */
        double s = 0.0, exact = ft_int1((int)(2 * n));
        for (size_t i = 0; i < n; i++)
            s += w[i] * pow(x[i], (double)(2 * n));
        if (n <= 12)
            ck_assert_msg(fabs(s - exact) > 1e-9 * exact, "n %zu integrates x^%zu", n, 2 * n);
    }
}
END_TEST

START_TEST(gauss_lobatto_rules)
{
    double x[64], w[64];
    ck_assert_int_eq(fr_gauss_lobatto(3, x, w), 0);
    ck_assert(x[0] == -1 && x[1] == 0 && x[2] == 1);
    ck_assert(fabs(w[0] - 1.0 / 3) <= ulps(w[0], 2) && fabs(w[1] - 4.0 / 3) <= ulps(w[1], 2));
    ck_assert_int_eq(fr_gauss_lobatto(4, x, w), 0);
    ck_assert(fabs(x[2] - 1 / sqrt(5.0)) <= ulps(x[2], 2));
    ck_assert(fabs(w[2] - 5.0 / 6) <= ulps(w[2], 2));
    ck_assert_int_eq(fr_gauss_lobatto(5, x, w), 0);
    ck_assert(fabs(x[3] - sqrt(3.0 / 7)) <= ulps(x[3], 2));
    ck_assert(fabs(w[0] - 0.1) <= ulps(0.1, 2) && fabs(w[1] - 49.0 / 90) <= ulps(w[1], 3));
    ck_assert(fabs(w[2] - 32.0 / 45) <= ulps(w[2], 3));
    for (size_t n = 2; n <= 24; n++) {
        ck_assert_int_eq(fr_gauss_lobatto(n, x, w), 0);
        ck_assert(x[0] == -1.0 && x[n - 1] == 1.0);
        for (size_t i = 1; i + 1 < n; i++) { /* interior: roots of P'_m */
            double dp, m = (double)n - 1, p = fr_legendre((int)n - 1, x[i], &dp);
            double d2p = (2 * x[i] * dp - m * (m + 1) * p) / (1 - x[i] * x[i]);
            ck_assert(x[i] > x[i - 1] && x[i] == -x[n - 1 - i]);
            ck_assert_msg(fabs(dp / d2p) <= ulps(x[i], 2) + 1e-300,
                          "n %zu point %zu: Newton step %.3g", n, i, dp / d2p);
        }
        for (int k = 0; k <= (int)(2 * n - 3); k++) {
            double s = 0.0;
            for (size_t i = 0; i < n; i++)
                s += w[i] * pow(x[i], k);
            ck_near(s, ft_int1(k), 1e-14);
        }
    }
    ck_assert_int_lt(fr_gauss_lobatto(1, x, w), 0);
    ck_assert_int_lt(fr_gauss_legendre(0, x, w), 0);
    ck_assert_int_lt(fr_gauss_legendre(65, x, w), 0);
}
END_TEST

START_TEST(legendre_values)
{
    for (int n = 0; n <= 12; n++) {
        double d1, dm1;
        ck_near(fr_legendre(n, 1.0, &d1), 1.0, 1e-15);
        ck_near(fr_legendre(n, -1.0, &dm1), n % 2 ? -1.0 : 1.0, 1e-15);
        ck_near(d1, n * (n + 1) / 2.0, 1e-14);
        ck_near(dm1, (n % 2 ? 1.0 : -1.0) * n * (n + 1) / 2.0, 1e-14);
    }
    for (double x = -1; x <= 1; x += 0.125) {
        double d;
        ck_near(fr_legendre(3, x, &d), 0.5 * (5 * x * x * x - 3 * x), 1e-15);
        ck_near(d, 0.5 * (15 * x * x - 3), 1e-14);
        ck_near(fr_legendre(4, x, &d), (35 * pow(x, 4) - 30 * x * x + 3) / 8, 1e-15);
        ck_near(d, (140 * x * x * x - 60 * x) / 8, 1e-14);
    }
}
END_TEST

START_TEST(jacobi_closed_forms_and_orthonormality)
{
    const double ab[][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {3, 0}, {5, 2}, {0.5, 1.5}};
    for (size_t c = 0; c < sizeof ab / sizeof *ab; c++) {
        double a = ab[c][0], b = ab[c][1];
        for (double x = -1; x <= 1; x += 0.25) {
            double d, xm = x - 1;
            ck_near(fr_jacobi(0, a, b, x, &d), 1.0, 1e-15);
            ck_near(fr_jacobi(1, a, b, x, &d), 0.5 * ((a + b + 2) * x + a - b), 1e-14);
            ck_near(d, 0.5 * (a + b + 2), 1e-14);
            double p2 = (a + 1) * (a + 2) / 2 + (a + 2) * (a + b + 3) * xm / 2
                        + (a + b + 3) * (a + b + 4) * xm * xm / 8;
            ck_near(fr_jacobi(2, a, b, x, &d), p2, 1e-13);
            ck_near(d, (a + 2) * (a + b + 3) / 2 + (a + b + 3) * (a + b + 4) * xm / 4, 1e-13);
        }
        if (a != floor(a) || b != floor(b))
            continue;
        /* orthonormal under (1-x)^a (1+x)^b: a polynomial weight, so
         * Gauss-Legendre integrates exactly */
        double x[64], w[64];
        ck_assert_int_eq(fr_gauss_legendre(20, x, w), 0);
        for (int m = 0; m <= 7; m++)
            for (int n = 0; n <= 7; n++) {
                double s = 0.0;
                for (int i = 0; i < 20; i++)
                    s += w[i] * pow(1 - x[i], a) * pow(1 + x[i], b)
                         * fr_jacobi_orthonormal(m, a, b, x[i], NULL)
                         * fr_jacobi_orthonormal(n, a, b, x[i], NULL);
                ck_near(s, m == n ? 1.0 : 0.0, 1e-13);
            }
    }
    /* P^(0,0) is Legendre, derivative included */
    for (double x = -1; x <= 1; x += 0.1)
        for (int n = 0; n <= 9; n++) {
            double dj, dl;
            ck_near(fr_jacobi(n, 0, 0, x, &dj), fr_legendre(n, x, &dl), 1e-14);
            ck_near(dj, dl, 1e-13);
        }
}
END_TEST

START_TEST(lagrange_exact_on_polynomials)
{
    for (size_t n = 1; n <= 12; n++) {
        double nodes[64], w[64], l[64], dl[64];
        ck_assert_int_eq(fr_gauss_legendre(n, nodes, w), 0);
        /* points off the nodes, and the nodes themselves */
        double pts[40];
        size_t np = 0;
        for (int i = 0; i < 21; i++)
            pts[np++] = -1.0 + 0.1 * i + 0.0123;
        for (size_t i = 0; i < n; i++)
            pts[np++] = nodes[i];
        for (size_t a = 0; a < np; a++) {
            ck_assert_int_eq(fr_lagrange(n, nodes, pts[a], l, dl), 0);
            for (int k = 0; k < (int)n; k++) {
                double v = 0, d = 0;
                for (size_t j = 0; j < n; j++) {
                    v += l[j] * pow(nodes[j], k);
                    d += dl[j] * pow(nodes[j], k);
                }
                ck_near(v, pow(pts[a], k), 1e-13);
                ck_near(d, k ? k * pow(pts[a], k - 1) : 0.0, 1e-12 * n);
            }
        }
        ck_assert_int_eq(fr_lagrange(n, nodes, nodes[n / 2], l, NULL), 0);
        for (size_t j = 0; j < n; j++)
            ck_assert(l[j] == (j == n / 2 ? 1.0 : 0.0));
    }
    double same[3] = {0, 0.5, 0.5}, l[3];
    ck_assert_int_eq(fr_lagrange(3, same, 0.2, l, NULL), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "distinct"));
}
END_TEST

START_TEST(radau_and_gdg)
{
    double x[64], w[64];
    ck_assert_int_eq(fr_gauss_legendre(12, x, w), 0);
    for (int k = 1; k <= 9; k++) {
        ck_near(fr_radau_right(k, 1.0, NULL), 1.0, 1e-15);
        ck_near(fr_radau_right(k, -1.0, NULL), 0.0, 1e-15);
        ck_near(fr_radau_left(k, -1.0, NULL), 1.0, 1e-15);
        ck_near(fr_radau_left(k, 1.0, NULL), 0.0, 1e-15);
        /* orthogonal to P_{k-2} */
        for (int m = 0; m <= k - 2; m++) {
            double s = 0;
            for (int i = 0; i < 12; i++)
                s += w[i] * fr_radau_right(k, x[i], NULL) * pow(x[i], m);
            ck_near(s, 0.0, 1e-14);
        }
    }
    /* g_DG lifts: int g_R' v = v(1), int g_L' v = -v(-1) for v in P_p */
    for (int p = 0; p <= 8; p++)
        for (int m = 0; m <= p; m++) {
            double sr = 0, sl = 0;
            for (int i = 0; i < 12; i++) {
                sr += w[i] * fr_gdg_deriv(p, 1, x[i]) * pow(x[i], m);
                sl += w[i] * fr_gdg_deriv(p, -1, x[i]) * pow(x[i], m);
            }
            ck_near(sr, 1.0, 1e-13);
            ck_near(sl, -pow(-1.0, m), 1e-13);
        }
}
END_TEST

static Suite *poly_suite(void)
{
    Suite *s = suite_create("fr-poly");
    TCase *tc = tcase_create("1-D");
    tcase_add_test(tc, gauss_legendre_closed_forms);
    tcase_add_test(tc, gauss_legendre_roots_to_ulps);
    tcase_add_test(tc, gauss_legendre_exactness);
    tcase_add_test(tc, gauss_lobatto_rules);
    tcase_add_test(tc, legendre_values);
    tcase_add_test(tc, jacobi_closed_forms_and_orthonormality);
    tcase_add_test(tc, lagrange_exact_on_polynomials);
    tcase_add_test(tc, radau_and_gdg);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return ft_run(poly_suite()); }
