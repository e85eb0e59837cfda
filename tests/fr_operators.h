/* SPDX-License-Identifier: BSD-3-Clause */
/* Flux-reconstruction operators of tensor-product elements, built from
 * 1-D Gauss-Legendre points and Lagrange polynomials: what a solver
 * multiplies into its solution every stage. Shared by the product tests
 * and bench/matmul.
 *
 * Solution points of an element of order p are the (p+1)^d tensor GL
 * points, x fastest. The operators (rows x columns, row-major doubles):
 *   interp  solution -> flux points, (p+1)^(d-1) GL points on each of
 *           the 2d faces: sparse, p+1 nonzeros a row
 *   grad    solution -> d/dx, d/dy (, d/dz) at the solution points,
 *           stacked: sparse, p+1 nonzeros a row
 *   quad    solution -> the (p+2)^d GL points of order p+1 (anti-aliasing
 *           quadrature): dense */
#ifndef FRX_TEST_FR_OPERATORS_H
#define FRX_TEST_FR_OPERATORS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The n Gauss-Legendre points on [-1, 1], ascending (Newton on P_n). */
static inline void fr_gauss_legendre(size_t n, double *x)
{
    const double pi = 3.14159265358979323846;
    for (size_t i = 0; i < n; i++) {
        double z = -cos(pi * ((double)i + 0.75) / ((double)n + 0.5));
        for (int it = 0; it < 100; it++) {
            double p0 = 1, p1 = z; /* P_0, P_1, then up to P_n */
            for (size_t k = 2; k <= n; k++) {
                double p2 = ((2.0 * (double)k - 1) * z * p1 -
                             ((double)k - 1) * p0) / (double)k;
                p0 = p1;
                p1 = p2;
            }
            double dp = (double)n * (z * p1 - p0) / (z * z - 1);
            double dz = p1 / dp;
            z -= dz;
            if (fabs(dz) < 1e-15)
                break;
        }
        x[i] = z;
    }
}

/* Lagrange basis i of the points x[0..n) at y. */
static inline double fr_lagrange(size_t n, const double *x, size_t i,
                                 double y)
{
    double v = 1;
    for (size_t j = 0; j < n; j++)
        if (j != i)
            v *= (y - x[j]) / (x[i] - x[j]);
    return v;
}

/* Its derivative at y. */
static inline double fr_lagrange_d(size_t n, const double *x, size_t i,
                                   double y)
{
    double s = 0;
    for (size_t m = 0; m < n; m++) {
        if (m == i)
            continue;
        double t = 1 / (x[i] - x[m]);
        for (size_t j = 0; j < n; j++)
            if (j != i && j != m)
                t *= (y - x[j]) / (x[i] - x[j]);
        s += t;
    }
    return s;
}

/* The GL point of axis a of solution point s (x fastest), n a side. */
static inline size_t fr_digit(size_t s, size_t a, size_t n)
{
    for (size_t k = 0; k < a; k++)
        s /= n;
    return s % n;
}

static inline size_t fr_pow(size_t n, size_t d)
{
    size_t r = 1;
    while (d--)
        r *= n;
    return r;
}

enum fr_op { FR_INTERP, FR_GRAD, FR_QUAD };

typedef struct fr_operator {
    char name[48];
    size_t m, k;
    double *a; /* m x k, malloc'd */
} fr_operator;

/* Operator op of a quadrilateral (dim 2) or hexahedron (dim 3) of order
 * p. Every basis value is exactly 0 or 1 where it should be (points on
 * a GL point's own line), so the sparsity is exact. */
static inline fr_operator fr_make(size_t dim, size_t p, enum fr_op op)
{
    size_t n = p + 1, nupts = fr_pow(n, dim);
    double x[16], q[16];
    fr_gauss_legendre(n, x);
    fr_operator o = {.k = nupts};
    static const char *const ops[] = {"interp", "grad", "quad"};
    snprintf(o.name, sizeof o.name, "%s p%zu %s", dim == 2 ? "quad" : "hex",
             p, ops[op]);
    if (op == FR_INTERP) {
        size_t per = fr_pow(n, dim - 1);
        o.m = 2 * dim * per;
        o.a = calloc(o.m * o.k, sizeof *o.a);
        for (size_t f = 0; f < 2 * dim; f++) { /* face: axis f/2, side f%2 */
            size_t axis = f / 2;
            double at = f % 2 ? 1.0 : -1.0;
            for (size_t fp = 0; fp < per; fp++) {
                size_t row = f * per + fp;
                for (size_t s = 0; s < nupts; s++) {
                    double v = 1;
                    for (size_t a = 0, t = 0; a < dim; a++) {
                        size_t ds = fr_digit(s, a, n);
                        if (a == axis) {
                            v *= fr_lagrange(n, x, ds, at);
                        } else {
                            v *= ds == fr_digit(fp, t, n) ? 1.0 : 0.0;
                            t++;
                        }
                    }
                    o.a[row * o.k + s] = v;
                }
            }
        }
    } else if (op == FR_GRAD) {
        o.m = dim * nupts;
        o.a = calloc(o.m * o.k, sizeof *o.a);
        for (size_t d = 0; d < dim; d++)
            for (size_t r = 0; r < nupts; r++)
                for (size_t s = 0; s < nupts; s++) {
                    double v = 1;
                    for (size_t a = 0; a < dim; a++) {
                        size_t dr = fr_digit(r, a, n), ds = fr_digit(s, a, n);
                        v *= a == d ? fr_lagrange_d(n, x, ds, x[dr])
                                    : (dr == ds ? 1.0 : 0.0);
                    }
                    o.a[(d * nupts + r) * o.k + s] = v;
                }
    } else {
        size_t nq = n + 1;
        fr_gauss_legendre(nq, q);
        o.m = fr_pow(nq, dim);
        o.a = calloc(o.m * o.k, sizeof *o.a);
        for (size_t r = 0; r < o.m; r++)
            for (size_t s = 0; s < nupts; s++) {
                double v = 1;
                for (size_t a = 0; a < dim; a++)
                    v *= fr_lagrange(n, x, fr_digit(s, a, n),
                                     q[fr_digit(r, a, nq)]);
                o.a[r * o.k + s] = v;
            }
    }
    return o;
}

static inline size_t fr_nonzeros(const fr_operator *o)
{
    size_t nnz = 0;
    for (size_t i = 0; i < o->m * o->k; i++)
        nnz += o->a[i] != 0;
    return nnz;
}

#endif
