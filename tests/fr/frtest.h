/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers of the libfrx-fr tests: tolerances, monomials, exact
 * integrals on the reference elements. */
#ifndef FRX_FRTEST_H
#define FRX_FRTEST_H

#include <frx/fr/fr.h>
#include <frx/frx.h>

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

/* |a - b| <= tol * max(1, |b|), with both values in the message. */
#define ck_near(a, b, tol)                                                   \
    do {                                                                     \
        double a_ = (a), b_ = (b), t_ = (tol) * fmax(1.0, fabs(b_));         \
        ck_assert_msg(fabs(a_ - b_) <= t_, "%s = %.17g, expected %s = %.17g " \
                      "(difference %.3g > %.3g)", #a, a_, #b, b_,            \
                      fabs(a_ - b_), t_);                                    \
    } while (0)

/* x^a y^b z^c and its derivative along axis d (d < 0: the value). */
static inline double ft_mono(const int *ex, const double *x, int nd, int d)
{
    double v = 1.0;
    for (int k = 0; k < nd; k++) {
        if (k == d)
            v *= ex[k] ? ex[k] * pow(x[k], ex[k] - 1) : 0.0;
        else
            v *= pow(x[k], ex[k]);
    }
    return v;
}

/* int_{-1}^{1} x^a dx */
static inline double ft_int1(int a) { return a % 2 ? 0.0 : 2.0 / (a + 1); }

/* A rule on the reference triangle exact to degree 2n-2 (collapsed
 * Gauss-Legendre): x [n*n][2], w [n*n]. */
static inline void ft_tri_rule(int n, double *x, double *w)
{
    double g[64], gw[64];
    ck_assert_int_eq(fr_gauss_legendre((size_t)n, g, gw), 0);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double a = g[i], b = g[j];
            x[2 * (i * n + j)] = 0.5 * (1 + a) * (1 - b) - 1;
            x[2 * (i * n + j) + 1] = b;
            w[i * n + j] = gw[i] * gw[j] * 0.5 * (1 - b);
        }
}

/* A rule on the reference tetrahedron exact to degree 2n-3 (collapsed
 * Gauss-Legendre): x [n^3][3], w [n^3]. */
static inline void ft_tet_rule(int n, double *x, double *w)
{
    double g[64], gw[64];
    ck_assert_int_eq(fr_gauss_legendre((size_t)n, g, gw), 0);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                double a = g[i], b = g[j], c = g[k];
                int q = (i * n + j) * n + k;
                x[3 * q] = 0.25 * (1 + a) * (1 - b) * (1 - c) - 1;
                x[3 * q + 1] = 0.5 * (1 + b) * (1 - c) - 1;
                x[3 * q + 2] = c;
                w[q] = gw[i] * gw[j] * gw[k] * 0.125 * (1 - b) * (1 - c) * (1 - c);
            }
}

/* A rule on the reference prism: the triangle's ft_tri_rule(n) times
 * n Gauss-Legendre points in z: x [n^3][3], w [n^3]. */
static inline void ft_prism_rule(int n, double *x, double *w)
{
    double g[64], gw[64], *tx = malloc(2 * (size_t)(n * n) * sizeof *tx);
    double *tw = malloc((size_t)(n * n) * sizeof *tw);
    ck_assert_ptr_nonnull(tx);
    ck_assert_ptr_nonnull(tw);
    ck_assert_int_eq(fr_gauss_legendre((size_t)n, g, gw), 0);
    ft_tri_rule(n, tx, tw);
    for (int k = 0; k < n; k++)
        for (int t = 0; t < n * n; t++) {
            int q = k * n * n + t;
            x[3 * q] = tx[2 * t];
            x[3 * q + 1] = tx[2 * t + 1];
            x[3 * q + 2] = g[k];
            w[q] = tw[t] * gw[k];
        }
    free(tx);
    free(tw);
}

/* A rule on the reference pyramid exact to degree 2n-3 (collapsed
 * Gauss-Legendre: x = a (1-z)/2, y = b (1-z)/2): x [n^3][3], w [n^3]. */
static inline void ft_pyr_rule(int n, double *x, double *w)
{
    double g[64], gw[64];
    ck_assert_int_eq(fr_gauss_legendre((size_t)n, g, gw), 0);
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                int q = (k * n + j) * n + i;
                double h = 0.5 * (1 - g[k]);
                x[3 * q] = g[i] * h;
                x[3 * q + 1] = g[j] * h;
                x[3 * q + 2] = g[k];
                w[q] = gw[i] * gw[j] * gw[k] * h * h;
            }
}

/* The integral of x^a y^b over the reference element of etype. */
static inline double ft_int(int etype, const int *ex)
{
    if (etype == FR_QUAD)
        return ft_int1(ex[0]) * ft_int1(ex[1]);
    if (etype == FR_HEX)
        return ft_int1(ex[0]) * ft_int1(ex[1]) * ft_int1(ex[2]);
    if (etype == FR_PRI) {
        int tri[3] = {ex[0], ex[1], 0};
        return ft_int(FR_TRI, tri) * ft_int1(ex[2]);
    }
    if (etype == FR_TET || etype == FR_PYR) {
        static double x[3 * 16 * 16 * 16], w[16 * 16 * 16];
        double s = 0.0;
        if (etype == FR_TET)
            ft_tet_rule(16, x, w);
        else
            ft_pyr_rule(16, x, w);
        for (int q = 0; q < 16 * 16 * 16; q++)
            s += w[q] * ft_mono(ex, x + 3 * q, 3, -1);
        return s;
    }
    double x[2 * 24 * 24], w[24 * 24], s = 0.0;
    ft_tri_rule(24, x, w);
    for (int q = 0; q < 24 * 24; q++)
        s += w[q] * ft_mono(ex, x + 2 * q, 2, -1);
    return s;
}

/* The reference element, or the test fails with frx's message. */
static inline fr_element *ft_element(int etype, int p)
{
    fr_element *e = NULL;
    int rc = fr_element_create(etype, p, &e);
    ck_assert_msg(rc == 0, "etype %d order %d: %s", etype, p, frx_errmsg());
    return e;
}

/* Run one suite, forking (Check's default). */
static inline int ft_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
