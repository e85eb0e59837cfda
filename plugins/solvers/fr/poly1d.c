/* SPDX-License-Identifier: BSD-3-Clause */
/* 1-D polynomials: Legendre, Jacobi, Lagrange (barycentric), Radau and
 * Huynh's g_DG, and the Gauss-Legendre and Gauss-Lobatto rules. */
#include "fr-internal.h"

#include <float.h>
#include <math.h>

/* ------------------------------------------------------------- Legendre */

/* P_n(x) and P_n'(x) in long double: the rules below use these to place
 * their points to within an ulp of double. */
static long double legendre_ld(int n, long double x, long double *dp)
{
    long double p0 = 1.0L, p1 = x, d0 = 0.0L, d1 = 1.0L;
    if (n == 0) {
        if (dp)
            *dp = 0.0L;
        return 1.0L;
    }
    for (int k = 1; k < n; k++) {
        long double p2 = ((2 * k + 1) * x * p1 - k * p0) / (k + 1);
        long double d2 = d0 + (2 * k + 1) * p1; /* P'_{k+1} = P'_{k-1} + (2k+1) P_k */
        p0 = p1;
        p1 = p2;
        d0 = d1;
        d1 = d2;
    }
    if (dp)
        *dp = d1;
    return p1;
}

double fr_legendre(int n, double x, double *dp)
{
    long double d;
    double p = (double)legendre_ld(n < 0 ? 0 : n, x, &d);
    if (dp)
        *dp = (double)d;
    return p;
}

/* --------------------------------------------------------------- Jacobi */

double fr_jacobi(int n, double a, double b, double x, double *dp)
{
    /* d/dx P_n^(a,b) = (n + a + b + 1)/2 P_{n-1}^(a+1,b+1) */
    if (dp)
        *dp = n > 0 ? 0.5 * (n + a + b + 1) * fr_jacobi(n - 1, a + 1, b + 1, x, NULL)
                    : 0.0;
    if (n <= 0)
        return 1.0;
    double p0 = 1.0, p1 = 0.5 * ((a + b + 2) * x + (a - b));
    for (int k = 1; k < n; k++) {
        double c = 2 * k + a + b;
        double a1 = 2 * (k + 1) * (k + a + b + 1) * c;
        double a2 = (c + 1) * (a * a - b * b);
        double a3 = c * (c + 1) * (c + 2);
        double a4 = 2 * (k + a) * (k + b) * (c + 2);
        double p2 = ((a2 + a3 * x) * p1 - a4 * p0) / a1;
        p0 = p1;
        p1 = p2;
    }
    return p1;
}

double fr_jacobi_orthonormal(int n, double a, double b, double x, double *dp)
{
    /* h_n = 2^(a+b+1) G(n+a+1) G(n+b+1) / ((2n+a+b+1) G(n+a+b+1) n!),
     * with (2n+a+b+1) G(n+a+b+1) = G(a+b+2) at n = 0 */
    double lh = (a + b + 1) * log(2.0) + lgamma(n + a + 1) + lgamma(n + b + 1)
                - lgamma(n + 1.0);
    lh -= n == 0 ? lgamma(a + b + 2) : log(2 * n + a + b + 1) + lgamma(n + a + b + 1);
    double s = exp(-0.5 * lh);
    double p = fr_jacobi(n, a, b, x, dp);
    if (dp)
        *dp *= s;
    return p * s;
}

/* ------------------------------------------------------------- Lagrange */

int fr_lagrange(size_t n, const double *nodes, double x, double *l, double *dl)
{
    double w[FR_MAX_1D];
    if (n < 1 || n > FR_MAX_1D)
        return frx_error(FRX_ERANGE, "fr_lagrange: %zu nodes; give 1 to %d", n,
                         FR_MAX_1D);
    /* barycentric weights w_j = 1 / prod_{k != j} (x_j - x_k) */
    for (size_t j = 0; j < n; j++) {
        double p = 1.0;
        for (size_t k = 0; k < n; k++)
            if (k != j)
                p *= nodes[j] - nodes[k];
        if (p == 0.0)
            return frx_error(FRX_EINVAL,
                             "fr_lagrange: node %zu repeats another (%.17g); "
                             "give distinct nodes",
                             j, nodes[j]);
        w[j] = 1.0 / p;
    }
    size_t at = n;
    for (size_t j = 0; j < n; j++)
        if (x == nodes[j])
            at = j;
    if (at < n) { /* at a node: a delta, and the differentiation matrix row */
        for (size_t j = 0; j < n; j++) {
            if (l)
                l[j] = j == at ? 1.0 : 0.0;
            if (dl) {
                double d = 0.0;
                if (j == at) {
                    for (size_t k = 0; k < n; k++)
                        if (k != at)
                            d += 1.0 / (x - nodes[k]);
                } else {
                    d = w[j] / w[at] / (x - nodes[j]);
                }
                dl[j] = d;
            }
        }
        return FRX_OK;
    }
    /* first barycentric form: l_j = ell(x) w_j / (x - x_j),
     * l_j' = l_j sum_{k != j} 1 / (x - x_k) */
    double ell = 1.0;
    for (size_t k = 0; k < n; k++)
        ell *= x - nodes[k];
    for (size_t j = 0; j < n; j++) {
        double lj = ell * w[j] / (x - nodes[j]);
        if (l)
            l[j] = lj;
        if (dl) {
            double s = 0.0;
            for (size_t k = 0; k < n; k++)
                if (k != j)
                    s += 1.0 / (x - nodes[k]);
            dl[j] = lj * s;
        }
    }
    return FRX_OK;
}

/* ---------------------------------------------------- Radau and g_DG */

double fr_radau_right(int k, double x, double *dr)
{
    double d1, d0;
    double p1 = fr_legendre(k, x, &d1), p0 = fr_legendre(k - 1, x, &d0);
    if (dr)
        *dr = 0.5 * (d1 + d0);
    return 0.5 * (p1 + p0);
}

double fr_radau_left(int k, double x, double *dr)
{
    double r = fr_radau_right(k, -x, dr);
    if (dr)
        *dr = -*dr;
    return r;
}

double fr_gdg_deriv(int p, int side, double x)
{
    double d;
    if (side > 0)
        fr_radau_right(p + 1, x, &d);
    else
        fr_radau_left(p + 1, x, &d);
    return d;
}

/* -------------------------------------------------------- quadrature */

/* Newton on f = P_n (Gauss) or P'_n (Lobatto) from guess z. */
static long double newton_root(int n, int lobatto, long double z)
{
    for (int it = 0; it < 100; it++) {
        long double dp, p = legendre_ld(n, z, &dp), f, df;
        if (lobatto) { /* (1 - z^2) P'' = 2 z P' - n (n+1) P */
            f = dp;
            df = (2 * z * dp - (long double)n * (n + 1) * p) / (1 - z * z);
        } else {
            f = p;
            df = dp;
        }
        long double dz = f / df;
        z -= dz;
        if (fabsl(dz) <= 4 * LDBL_EPSILON)
            break;
    }
    return z;
}

#define PI_L 3.14159265358979323846264338327950288L

/* Point i and its mirror n-1-i of a symmetric rule (the middle point of
 * an odd rule stays +0). */
static void put_pair(size_t n, size_t i, long double z, long double wi, double *x,
                     double *w)
{
    x[i] = -(double)z;
    x[n - 1 - i] = (double)z;
    w[i] = w[n - 1 - i] = (double)wi;
}

int fr_gauss_legendre(size_t n, double *x, double *w)
{
    if (n < 1 || n > FR_MAX_1D)
        return frx_error(FRX_ERANGE,
                         "fr_gauss_legendre: %zu points; give 1 to %d", n,
                         FR_MAX_1D);
    /* the i-th largest root from Tricomi's guess; the rule is mirrored */
    for (size_t i = 0; i < (n + 1) / 2; i++) {
        long double z = cosl(PI_L * (i + 0.75L) / (n + 0.5L)), dp;
        z = (n % 2 && i == n / 2) ? 0.0L : newton_root((int)n, 0, z);
        legendre_ld((int)n, z, &dp);
        put_pair(n, i, z, 2.0L / ((1.0L - z * z) * dp * dp), x, w);
    }
    return FRX_OK;
}

int fr_gauss_lobatto(size_t n, double *x, double *w)
{
    if (n < 2 || n > FR_MAX_1D)
        return frx_error(FRX_ERANGE,
                         "fr_gauss_lobatto: %zu points; give 2 to %d", n,
                         FR_MAX_1D);
    int m = (int)n - 1; /* interior points: roots of P'_m */
    for (size_t i = 0; i < (n + 1) / 2; i++) {
        long double z;
        if (i == 0)
            z = 1.0L;
        else if (n % 2 && i == n / 2)
            z = 0.0L;
        else /* Chebyshev-Gauss-Lobatto guess */
            z = newton_root(m, 1, cosl(PI_L * i / m));
        long double p = legendre_ld(m, z, NULL);
        put_pair(n, i, z, 2.0L / ((long double)m * (m + 1) * p * p), x, w);
    }
    return FRX_OK;
}
