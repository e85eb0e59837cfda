/* Small dense linear algebra: inverses through LAPACK, products. */
#include "fr-internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK's Fortran interface (liblapack; no lapacke header needed). */
extern void dgesv_(const int *n, const int *nrhs, double *a, const int *lda,
                   int *ipiv, double *b, const int *ldb, int *info);

int fr__inverse(size_t n, const double *a, double *inv, const char *what)
{
    if (n == 0 || n > INT_MAX / (int)sizeof(double))
        return frx_error(FRX_ERANGE, "fr: cannot invert the %zu x %zu %s", n,
                         n, what);
    double *lu = malloc(n * n * sizeof *lu);
    int *piv = malloc(n * sizeof *piv);
    if (!lu || !piv) {
        free(lu);
        free(piv);
        return frx_error(FRX_ENOMEM, "fr: no memory to invert the %s", what);
    }
    /* LAPACK reads the row-major a as a^T and leaves (a^T)^-1 = (a^-1)^T
     * in column-major order, which read row-major is a^-1. */
    memcpy(lu, a, n * n * sizeof *lu);
    memset(inv, 0, n * n * sizeof *inv);
    for (size_t i = 0; i < n; i++)
        inv[i * n + i] = 1.0;
    int in = (int)n, info = 0;
    dgesv_(&in, &in, lu, &in, piv, inv, &in, &info);
    free(lu);
    free(piv);
    if (info != 0)
        return frx_error(FRX_EINVAL,
                         "fr: the %s is singular (LAPACK dgesv info %d): its "
                         "points do not determine a polynomial",
                         what, info);
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
