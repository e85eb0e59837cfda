/* SPDX-License-Identifier: BSD-3-Clause */
/* Small dense linear algebra: inverses, products. */
#include "fr-internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* LU with partial pivoting (what LAPACK's dgesv does), then the n
 * columns of the identity solved through it at once. Our own rather
 * than LAPACK's: the matrices are small and inverted once at set-up,
 * and Debian's LAPACK is OpenBLAS, whose thread pool starts spinning
 * when the plugin loads (0.1-0.2 s of CPU in every run, against the
 * backend's threads). tests/fr/test_fr_element.c checks it against
 * LAPACK. */
int fr__inverse(size_t n, const double *a, double *inv, const char *what)
{
    if (n == 0 || n > SIZE_MAX / sizeof(double) / n)
        return frx_error(FRX_ERANGE, "fr: cannot invert the %zu x %zu %s", n,
                         n, what);
    double *lu = malloc(n * n * sizeof *lu);
    if (!lu)
        return frx_error(FRX_ENOMEM, "fr: no memory to invert the %s", what);
    memcpy(lu, a, n * n * sizeof *lu);
    memset(inv, 0, n * n * sizeof *inv);
    for (size_t i = 0; i < n; i++)
        inv[i * n + i] = 1.0;
    for (size_t k = 0; k < n; k++) {
        size_t p = k;
        for (size_t i = k + 1; i < n; i++)
            if (fabs(lu[i * n + k]) > fabs(lu[p * n + k]))
                p = i;
        if (!(lu[p * n + k] != 0)) { /* zero, or NaN */
            free(lu);
            return frx_error(FRX_EINVAL, "fr: the %s is singular (column "
                             "%zu has no pivot): its points do not "
                             "determine a polynomial", what, k + 1);
        }
        if (p != k) /* the rows of L and U so far, and of P*I */
            for (size_t j = 0; j < n; j++) {
                double t = lu[k * n + j];
                lu[k * n + j] = lu[p * n + j], lu[p * n + j] = t;
                t = inv[k * n + j];
                inv[k * n + j] = inv[p * n + j], inv[p * n + j] = t;
            }
        for (size_t i = k + 1; i < n; i++) {
            double l = lu[i * n + k] /= lu[k * n + k];
            for (size_t j = k + 1; j < n; j++)
                lu[i * n + j] -= l * lu[k * n + j];
        }
    }
    /* L Y = P, then U X = Y, every column of X at once, row by row */
    for (size_t i = 1; i < n; i++)
        for (size_t k = 0; k < i; k++)
            for (size_t j = 0; j < n; j++)
                inv[i * n + j] -= lu[i * n + k] * inv[k * n + j];
    for (size_t i = n; i-- > 0;) {
        for (size_t k = i + 1; k < n; k++)
            for (size_t j = 0; j < n; j++)
                inv[i * n + j] -= lu[i * n + k] * inv[k * n + j];
        for (size_t j = 0; j < n; j++)
            inv[i * n + j] /= lu[i * n + i];
    }
    free(lu);
    return FRX_OK;
}

void fr__matmul(size_t m, size_t n, size_t k, const double *a, const double *b,
                double *c)
{
    memset(c, 0, m * n * sizeof *c);
    for (size_t i = 0; i < m; i++)
        for (size_t l = 0; l < k; l++) {
            double ail = a[i * k + l];
            if (ail == 0.0) /* tensor operators are mostly zeros */
                continue;
            for (size_t j = 0; j < n; j++)
                c[i * n + j] += ail * b[l * n + j];
        }
}
