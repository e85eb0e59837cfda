/* SPDX-License-Identifier: BSD-3-Clause */
/* Operator products by a vendor's BLAS (cuBLAS on cuda): frx's products
 * are row-major, C = alpha*A*B + beta*C with A m x k (lda), B k x n
 * (ldb), C m x n (ldc); a row-major matrix read column-major is its
 * transpose, so the product is BLAS's column-major C^T = B^T A^T with no
 * transposes: gemm(n, m, k, alpha, B, ldb, A, lda, beta, C, ldc). The
 * gemm goes to the backend's stream like a launch, so it is ordered
 * after everything issued before it and before everything after. */
#include "gpu.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gpu_plan {
    int m, n, k, lda, ldb, ldc;
    uint64_t a; /* A's first element */
    double alpha, beta;
};

static size_t element(const struct gpu *g)
{
    return g->precision == FRX_DOUBLE ? 8 : 4;
}

int frx_gpu_product_prepare(void *state, const char *lib,
                            const frx_product_args *a, void **out)
{
    struct gpu *g = state;
    const struct gpu_vendor *vd = g->vd;
    if (!vd->blas || !vd->gemm || strcmp(lib, vd->blas) != 0)
        return frx_error(FRX_ENOTSUP, "%s has no product library '%s'",
                         g->vendor, lib);
    const size_t v[6] = {a->m, a->n, a->k, a->lda, a->ldb, a->ldc};
    for (int i = 0; i < 6; i++)
        if (v[i] > INT_MAX)
            return frx_error(FRX_ENOTSUP, "%s: %s takes 32-bit sizes; the "
                             "product %zu x %zu over %zu columns (leading "
                             "dimensions %zu, %zu, %zu) is past them",
                             g->vendor, lib, a->m, a->k, a->n, a->lda,
                             a->ldb, a->ldc);
    /* the column-major views B^T (n x k), A^T (k x m), C^T (n x m) */
    if (a->lda < a->k || a->ldb < a->n || a->ldc < a->n)
        return frx_error(FRX_EINVAL, "%s: product %zu x %zu over %zu "
                         "columns with leading dimensions %zu, %zu, %zu "
                         "shorter than its rows (a bug of the caller)",
                         g->vendor, a->m, a->k, a->n, a->lda, a->ldb,
                         a->ldc);
    if (vd->blas_open) {
        int rc = vd->blas_open(g);
        if (rc)
            return rc;
    }
    struct gpu_plan *p = malloc(sizeof *p);
    if (!p)
        return frx_error(FRX_ENOMEM, "%s: out of memory", g->vendor);
    *p = (struct gpu_plan){
        .m = (int)a->m, .n = (int)a->n, .k = (int)a->k, .lda = (int)a->lda,
        .ldb = (int)a->ldb, .ldc = (int)a->ldc,
        .a = frx_gpu_addr(a->a_mem) + a->a_off * element(g),
        .alpha = a->alpha, .beta = a->beta};
    *out = p;
    return FRX_OK;
}

int frx_gpu_product_run(void *state, void *plan, const frx_product_exec *e)
{
    struct gpu *g = state;
    const struct gpu_plan *p = plan;
    size_t fs = element(g);
    uint64_t b = frx_gpu_addr(e->b) + e->b_off * fs;
    uint64_t c = frx_gpu_addr(e->c) + e->c_off * fs;
    g->idle = 0;
    snprintf(g->last_launch, sizeof g->last_launch, "a %s gemm (%d x %d "
             "by %d)", g->vd->blas, p->n, p->m, p->k);
    return g->vd->gemm(g, p->n, p->m, p->k, p->alpha, b, p->ldb, p->a,
                       p->lda, p->beta, c, p->ldc);
}

/* A plan holds nothing on the device: what was issued with it needs
 * only A, B and C, which the core keeps. */
void frx_gpu_product_free(void *state, void *plan)
{
    (void)state;
    free(plan);
}
