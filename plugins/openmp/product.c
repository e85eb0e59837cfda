/* openmp library provider of operator products: libxsmm's fixed sparse
 * matrix times dense matrix (fsspmdm), as PyFR uses it. libxsmm makes a
 * kernel for A with N columns by JIT (sparse or dense, whichever it times
 * faster); frx's threads each run it over their blocks of columns. */
#include "openmp.h"

#include <stdlib.h>
#include <string.h>

#include <libxsmm.h>

/* Columns a handle takes at a time: the bulk in wide blocks, the rest
 * (n is whole chunks) a chunk at a time. */
#define WIDE_CHUNKS 4

struct xsmm_plan {
    int dbl;
    size_t n, wide, narrow; /* columns: all, per wide and narrow block */
    void *h_wide, *h_narrow;
};

static void *make(int dbl, size_t m, size_t n, size_t k, size_t ldb,
                  size_t ldc, double alpha, double beta, int nt,
                  const void *a)
{
    libxsmm_blasint M = (libxsmm_blasint)m, N = (libxsmm_blasint)n,
                    K = (libxsmm_blasint)k, LDB = (libxsmm_blasint)ldb,
                    LDC = (libxsmm_blasint)ldc;
    if (dbl)
        return libxsmm_dfsspmdm_create(M, N, K, K, LDB, LDC, alpha, beta, nt,
                                       a);
    return libxsmm_sfsspmdm_create(M, N, K, K, LDB, LDC, (float)alpha,
                                   (float)beta, nt, a);
}

static void release(int dbl, void *h)
{
    if (h && dbl)
        libxsmm_dfsspmdm_destroy(h);
    else if (h)
        libxsmm_sfsspmdm_destroy(h);
}

int frx_openmp_product_prepare(void *state, const char *lib,
                               const frx_product_args *a, void **out)
{
    struct omp_state *s = state;
    if (strcmp(lib, "libxsmm") != 0)
        return frx_error(FRX_ENOTSUP, "openmp has no product library '%s'",
                         lib);
    if (a->beta != 0 && a->beta != 1)
        return frx_error(FRX_ENOTSUP, "libxsmm multiplies with beta 0 or 1 "
                         "only, not %g", a->beta);
    if (a->m > INT32_MAX || a->k > INT32_MAX || a->ldb > INT32_MAX ||
        a->ldc > INT32_MAX)
        return frx_error(FRX_ENOTSUP, "libxsmm takes 32-bit sizes");
    int dbl = s->precision == FRX_DOUBLE;
    size_t count = a->m * a->k, fs = dbl ? 8 : 4;
    struct xsmm_plan *p = calloc(1, sizeof *p);
    void *dense = malloc(count * fs);
    if (!p || !dense) {
        free(p), free(dense);
        return frx_error(FRX_ENOMEM, "openmp: out of memory");
    }
    for (size_t i = 0; i < count; i++) {
        if (dbl)
            ((double *)dense)[i] = a->a[i];
        else
            ((float *)dense)[i] = (float)a->a[i];
    }
    /* streaming stores where C is large and not read, as PyFR does */
    int nt = a->beta == 0 && a->m * a->ldc * fs > 32u << 20;
    *p = (struct xsmm_plan){.dbl = dbl, .n = a->n, .narrow = s->soasz,
                            .wide = WIDE_CHUNKS * s->soasz};
    if (a->n >= p->wide)
        p->h_wide = make(dbl, a->m, p->wide, a->k, a->ldb, a->ldc, a->alpha,
                         a->beta, nt, dense);
    p->h_narrow = make(dbl, a->m, p->narrow, a->k, a->ldb, a->ldc, a->alpha,
                       a->beta, nt, dense);
    free(dense);
    if (!p->h_narrow || (a->n >= p->wide && !p->h_wide)) {
        frx_openmp_product_free(s, p);
        return frx_error(FRX_ENOTSUP, "libxsmm cannot make a kernel for this "
                         "%zu x %zu operator on this CPU", a->m, a->k);
    }
    *out = p;
    return FRX_OK;
}

static void execute(int dbl, void *h, const char *b, char *c)
{
    if (dbl)
        libxsmm_dfsspmdm_execute(h, (const double *)b, (double *)c);
    else
        libxsmm_sfsspmdm_execute(h, (const float *)b, (float *)c);
}

int frx_openmp_product_run(void *state, void *plan, const frx_product_exec *e)
{
    (void)state;
    const struct xsmm_plan *p = plan;
    size_t fs = p->dbl ? 8 : 4;
    const char *b = (const char *)e->b + e->b_off * fs;
    char *c = (char *)e->c + e->c_off * fs;
    long nwide = p->h_wide ? (long)(p->n / p->wide) : 0;
    long nnarrow = (long)((p->n - (size_t)nwide * p->wide) / p->narrow);
    size_t base = (size_t)nwide * p->wide;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < nwide + nnarrow; i++) {
        if (i < nwide)
            execute(p->dbl, p->h_wide, b + (size_t)i * p->wide * fs,
                    c + (size_t)i * p->wide * fs);
        else
            execute(p->dbl, p->h_narrow,
                    b + (base + (size_t)(i - nwide) * p->narrow) * fs,
                    c + (base + (size_t)(i - nwide) * p->narrow) * fs);
    }
    return FRX_OK;
}

void frx_openmp_product_free(void *state, void *plan)
{
    (void)state;
    struct xsmm_plan *p = plan;
    if (!p)
        return;
    release(p->dbl, p->h_wide);
    release(p->dbl, p->h_narrow);
    free(p);
}

const char *const frx_openmp_product_libs[] = {"libxsmm", NULL};
