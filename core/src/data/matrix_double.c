/* SPDX-License-Identifier: BSD-3-Clause */
/* Matrices and xchg matrices written and read as doubles, whatever the
 * backend's precision: frx_matrix_write and friends take the host data
 * in the backend's own precision through a void *, so a plugin that
 * hands a single-precision backend doubles (or reads floats as doubles)
 * gets wrong numbers without an error. These convert, and refuse a
 * value that single precision cannot hold. */
#include "data/data-impl.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* src[0..n) in the backend's precision: src itself (double), or a new
 * array of floats in *tmp. */
static int to_backend(const frx_backend *be, const double *src, size_t n,
                      const char *who, const void **out, float **tmp)
{
    *tmp = NULL;
    *out = src;
    if (be->fpsize == sizeof(double))
        return FRX_OK;
    float *f = frx__calloc(n ? n : 1, sizeof *f, "single-precision values");
    if (!f)
        return FRX_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        if (isfinite(src[i]) && fabs(src[i]) > FLT_MAX) {
            free(f);
            return frx_error(FRX_ERANGE, "%s: value %zu is %g, past what "
                             "single precision holds (%g): run in double "
                             "precision or scale the values", who, i, src[i],
                             (double)FLT_MAX);
        }
        f[i] = (float)src[i];
    }
    *tmp = f;
    *out = f;
    return FRX_OK;
}

/* Reads n values in the backend's precision by read(obj, buf) and hands
 * them out as doubles. */
static int from_backend(const frx_backend *be, size_t n, double *out,
                        int (*read)(const void *obj, void *host),
                        const void *obj)
{
    if (be->fpsize == sizeof(double))
        return read(obj, out);
    float *f = frx__calloc(n ? n : 1, sizeof *f, "single-precision values");
    if (!f)
        return FRX_ENOMEM;
    int rc = read(obj, f);
    for (size_t i = 0; rc == FRX_OK && i < n; i++)
        out[i] = f[i];
    free(f);
    return rc;
}

static size_t matrix_count(const frx_matrix *m)
{
    return m->nrow * m->nvar * m->neles;
}

static size_t xchg_count(const frx_xchg_matrix *xm)
{
    return xm->n * xm->nvrow * xm->nvcol;
}

int frx_matrix_write_double(frx_matrix *m, const double *host)
{
    if (!m || !host)
        return frx_error(FRX_EINVAL, "frx_matrix_write_double: NULL "
                         "argument");
    const void *h;
    float *tmp;
    int rc = to_backend(m->be, host, matrix_count(m),
                        "frx_matrix_write_double", &h, &tmp);
    if (rc == FRX_OK)
        rc = frx_matrix_write(m, h);
    free(tmp);
    return rc;
}

static int read_matrix(const void *m, void *host)
{
    return frx_matrix_read(m, host);
}

int frx_matrix_read_double(const frx_matrix *m, double *host)
{
    if (!m || !host)
        return frx_error(FRX_EINVAL, "frx_matrix_read_double: NULL argument");
    return from_backend(m->be, matrix_count(m), host, read_matrix, m);
}

int frx_xchg_matrix_write_double(frx_xchg_matrix *xm, const double *host)
{
    if (!xm || !host)
        return frx_error(FRX_EINVAL, "frx_xchg_matrix_write_double: NULL "
                         "argument");
    const void *h;
    float *tmp;
    int rc = to_backend(xm->be, host, xchg_count(xm),
                        "frx_xchg_matrix_write_double", &h, &tmp);
    if (rc == FRX_OK)
        rc = frx_xchg_matrix_write(xm, h);
    free(tmp);
    return rc;
}

static int read_xchg(const void *xm, void *host)
{
    return frx_xchg_matrix_read(xm, host);
}

int frx_xchg_matrix_read_double(const frx_xchg_matrix *xm, double *host)
{
    if (!xm || !host)
        return frx_error(FRX_EINVAL, "frx_xchg_matrix_read_double: NULL "
                         "argument");
    return from_backend(xm->be, xchg_count(xm), host, read_xchg, xm);
}
