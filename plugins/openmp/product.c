/* SPDX-License-Identifier: BSD-3-Clause */
/* openmp library provider of operator products: libxsmm's fixed sparse
 * matrix times dense matrix (fsspmdm), as PyFR uses it. libxsmm makes a
 * kernel for A by JIT (sparse where it can, else dense); frx's threads
 * each run it over their blocks of columns. */
#include "openmp.h"

#include <stdlib.h>
#include <string.h>

#include <libxsmm.h>

/* libxsmm 1.17's fsspmdm: alpha must be 1 (A is scaled here instead),
 * beta 0 or 1, and its kernels take 16 columns a call (8 for a sparse
 * one in double precision), so a handle's N is a multiple of 16. The
 * bulk goes in wide blocks, the rest in blocks of 16, and where the
 * columns leave 8 over (double precision, an odd number of chunks) those
 * go through a plain loop. A handle whose sparse JIT fails falls back to
 * a dense kernel that it does not check: the same dense kernel is asked
 * for here first, and the product refused where there is none. */
#define BLOCK 16
#define WIDE (4 * BLOCK)

/* A stretch of n columns where B's and C's are each contiguous: all of
 * them, or those of one part of each (matrices in parts, frx.h). Its
 * blocks are items first to first + nitems of the team's loop. */
struct xsmm_seg {
    size_t bo, co, n;   /* offsets of its first column, in values */
    long first, nwide, nnarrow, nitems;
};

struct xsmm_plan {
    int dbl;
    size_t n, m, k, ldb, ldc;
    double beta;
    void *h_wide, *h_narrow;
    void *a; /* alpha*A, for the columns left over */
    struct xsmm_seg *seg;
    size_t nseg;
    long nitems;
};

/* Chunk k of a matrix in parts of pc chunks ps apart, its first chunk k0
 * of a part: the offset of its first column; *run: the chunks left in
 * its part, at most. As the generated products' frx_part_at. */
static size_t part_at(size_t k, size_t pc, size_t ps, size_t k0, size_t V,
                      size_t *run)
{
    if (!pc)
        return k * V;
    size_t q = k + k0, left = pc - q % pc;
    if (left < *run)
        *run = left;
    return q / pc * ps + q % pc * V;
}

/* The stretches of a product's columns, and the blocks of each. */
static int make_segments(struct xsmm_plan *p, const frx_product_args *a,
                         size_t soasz)
{
    int parts = FRX_SIZE_HOLDS(frx_product_args, a, c_c0) &&
                (a->b_pc || a->c_pc);
    size_t V = parts ? a->nvar * soasz : a->n, nchunks = a->n / V;
    p->seg = calloc(parts ? nchunks : 1, sizeof *p->seg);
    if (!p->seg)
        return FRX_ENOMEM;
    for (size_t k = 0; k < nchunks;) {
        size_t run = nchunks - k;
        struct xsmm_seg *g = &p->seg[p->nseg++];
        g->bo = parts ? part_at(k, a->b_pc, a->b_ps, a->b_c0, V, &run) : 0;
        g->co = parts ? part_at(k, a->c_pc, a->c_ps, a->c_c0, V, &run) : 0;
        g->n = run * V;
        k += run;
    }
    return FRX_OK;
}

/* Blocks of each stretch once the handles are known. */
static void count_blocks(struct xsmm_plan *p)
{
    p->nitems = 0;
    for (size_t i = 0; i < p->nseg; i++) {
        struct xsmm_seg *g = &p->seg[i];
        g->nwide = p->h_wide ? (long)(g->n / WIDE) : 0;
        size_t rest = g->n - (size_t)g->nwide * WIDE;
        g->nnarrow = p->h_narrow ? (long)(rest / BLOCK) : 0;
        g->nitems = g->nwide + g->nnarrow +
                    (rest > (size_t)g->nnarrow * BLOCK); /* left over */
        g->first = p->nitems;
        p->nitems += g->nitems;
    }
}

/* What a libxsmm handle is made of: A's values (alpha folded in, in the
 * backend precision), its sizes and leading dimensions, beta and the
 * streaming-store hint. */
struct xsmm_key {
    int dbl, nt;
    size_t m, n, k, ldb, ldc;
    double beta;
    const void *a;
};

static void *make(const struct xsmm_key *y)
{
    libxsmm_blasint M = (libxsmm_blasint)y->m, N = (libxsmm_blasint)y->n,
                    K = (libxsmm_blasint)y->k, LDB = (libxsmm_blasint)y->ldb,
                    LDC = (libxsmm_blasint)y->ldc;
    int flags = LIBXSMM_GEMM_FLAGS('N', 'N') |
                (y->beta == 0 && y->nt ? LIBXSMM_GEMM_FLAG_ALIGN_C_NTS_HINT : 0);
    int dense; /* the kernel the handle falls back to */
    if (y->dbl) {
        const double one = 1, b = y->beta;
        dense = libxsmm_dmmdispatch(BLOCK, M, K, &LDB, &K, &LDC, &one, &b,
                                    &flags, NULL) != NULL;
        return dense ? libxsmm_dfsspmdm_create(M, N, K, K, LDB, LDC, 1.0,
                                               y->beta, y->nt, y->a) : NULL;
    }
    const float one = 1, b = (float)y->beta;
    dense = libxsmm_smmdispatch(BLOCK, M, K, &LDB, &K, &LDC, &one, &b,
                                &flags, NULL) != NULL;
    return dense ? libxsmm_sfsspmdm_create(M, N, K, K, LDB, LDC, 1.0f,
                                           (float)y->beta, y->nt, y->a) : NULL;
}

static void destroy_handle(int dbl, void *h)
{
    if (h && dbl)
        libxsmm_dfsspmdm_destroy(h);
    else if (h)
        libxsmm_sfsspmdm_destroy(h);
}

/* Handles are shared by every plan of one operator, block width and
 * leading dimensions (openmp.h): a block's stretches make a product
 * each, all of the same A, and libxsmm makes and times kernels for each
 * handle and keeps a copy of A in it. A tetrahedron block at p = 4 made
 * about a thousand handles, 6 s of an 8.5 s start-up. */
struct xsmm_shared {
    struct xsmm_shared *next;
    struct xsmm_key key; /* key.a: a copy of the values */
    void *h;
    size_t refs;
};

static size_t key_bytes(const struct xsmm_key *y)
{
    return y->m * y->k * (y->dbl ? 8 : 4);
}

static int same_key(const struct xsmm_key *x, const struct xsmm_key *y)
{
    return x->dbl == y->dbl && x->nt == y->nt && x->m == y->m &&
           x->n == y->n && x->k == y->k && x->ldb == y->ldb &&
           x->ldc == y->ldc && x->beta == y->beta &&
           !memcmp(x->a, y->a, key_bytes(y));
}

/* A handle made of y, shared; NULL where libxsmm cannot make one (*oom
 * set where memory ran out instead). */
static void *get_handle(struct omp_state *s, const struct xsmm_key *y,
                        int *oom)
{
    void *h = NULL;
#pragma omp critical(frx_openmp_xsmm_handles)
    {
        for (struct xsmm_shared *x = s->xsmm; x && !h; x = x->next)
            if (same_key(&x->key, y)) {
                x->refs++;
                h = x->h;
            }
        if (!h && (h = make(y))) {
            struct xsmm_shared *x = malloc(sizeof *x);
            void *copy = malloc(key_bytes(y));
            if (x && copy) {
                memcpy(copy, y->a, key_bytes(y));
                *x = (struct xsmm_shared){s->xsmm, *y, h, 1};
                x->key.a = copy;
                s->xsmm = x;
            } else {
                free(x), free(copy);
                destroy_handle(y->dbl, h);
                h = NULL;
                *oom = 1;
            }
        }
    }
    return h;
}

/* One plan's hold on h let go; the last destroys it. */
static void put_handle(struct omp_state *s, void *h)
{
    if (!h)
        return;
#pragma omp critical(frx_openmp_xsmm_handles)
    for (struct xsmm_shared **at = &s->xsmm; *at; at = &(*at)->next)
        if ((*at)->h == h) {
            struct xsmm_shared *x = *at;
            if (--x->refs == 0) {
                *at = x->next;
                destroy_handle(x->key.dbl, h);
                free((void *)x->key.a);
                free(x);
            }
            break;
        }
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
    void *scaled = malloc(count * fs);
    if (!p || !scaled) {
        free(p), free(scaled);
        return frx_error(FRX_ENOMEM, "openmp: out of memory");
    }
    for (size_t i = 0; i < count; i++) {
        if (dbl)
            ((double *)scaled)[i] = a->alpha * a->a[i];
        else
            ((float *)scaled)[i] = (float)(a->alpha * a->a[i]);
    }
    /* streaming stores where C is large and not read, as PyFR does */
    int parts = FRX_SIZE_HOLDS(frx_product_args, a, c_c0) && a->c_pc;
    int nt = a->beta == 0 && a->m * (parts ? a->n : a->ldc) * fs >= 32u << 20;
    *p = (struct xsmm_plan){.dbl = dbl, .n = a->n, .m = a->m, .k = a->k,
                            .ldb = a->ldb, .ldc = a->ldc, .beta = a->beta,
                            .a = scaled};
    if (make_segments(p, a, s->soasz)) {
        frx_openmp_product_free(s, p);
        return frx_error(FRX_ENOMEM, "openmp: out of memory");
    }
    size_t longest = 0; /* the handles the stretches need */
    for (size_t i = 0; i < p->nseg; i++)
        longest = p->seg[i].n > longest ? p->seg[i].n : longest;
    struct xsmm_key wide = {dbl, nt, a->m, WIDE, a->k, a->ldb, a->ldc,
                            a->beta, scaled}, narrow = wide;
    narrow.n = BLOCK;
    int oom = 0;
    if (longest >= WIDE)
        p->h_wide = get_handle(s, &wide, &oom);
    if (longest >= BLOCK)
        p->h_narrow = get_handle(s, &narrow, &oom);
    count_blocks(p);
    if (oom) {
        frx_openmp_product_free(s, p);
        return frx_error(FRX_ENOMEM, "openmp: out of memory");
    }
    if ((longest >= WIDE && !p->h_wide) || (longest >= BLOCK && !p->h_narrow)) {
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

/* Columns [j0, n) that no handle takes. */
static void leftover(const struct xsmm_plan *p, const char *b, char *c,
                     size_t j0, size_t n)
{
    for (size_t r = 0; r < p->m; r++)
        for (size_t j = j0; j < n; j++) {
            double acc = 0;
            for (size_t k = 0; k < p->k; k++)
                acc += p->dbl ? ((const double *)p->a)[r * p->k + k] *
                                    ((const double *)b)[k * p->ldb + j]
                              : (double)((const float *)p->a)[r * p->k + k] *
                                    ((const float *)b)[k * p->ldb + j];
            if (p->dbl) {
                double *cc = (double *)c + r * p->ldc + j;
                *cc = acc + (p->beta != 0 ? *cc : 0);
            } else {
                float *cc = (float *)c + r * p->ldc + j;
                *cc = (float)acc + (p->beta != 0 ? *cc : 0);
            }
        }
}

/* One run on the team of the caller's parallel region, no barrier: each
 * thread its blocks of the stretches, in order, so that with matrices in
 * parts a thread takes its own part's columns. */
static void product_team(const void *plan, const frx_product_exec *e)
{
    const struct xsmm_plan *p = plan;
    size_t fs = p->dbl ? 8 : 4, g = 0;
    const char *b = (const char *)e->b + e->b_off * fs;
    char *c = (char *)e->c + e->c_off * fs;
#pragma omp for schedule(static) nowait
    for (long i = 0; i < p->nitems; i++) {
        while (i >= p->seg[g].first + p->seg[g].nitems)
            g++; /* each thread's items go up */
        const struct xsmm_seg *sg = &p->seg[g];
        const char *bs = b + sg->bo * fs;
        char *cs = c + sg->co * fs;
        long t = i - sg->first;
        size_t j = t < sg->nwide ? (size_t)t * WIDE
                                 : (size_t)sg->nwide * WIDE +
                                       (size_t)(t - sg->nwide) * BLOCK;
        if (t < sg->nwide)
            execute(p->dbl, p->h_wide, bs + j * fs, cs + j * fs);
        else if (t < sg->nwide + sg->nnarrow)
            execute(p->dbl, p->h_narrow, bs + j * fs, cs + j * fs);
        else
            leftover(p, bs, cs, j, sg->n);
    }
}

int frx_openmp_product_run(void *state, void *plan, const frx_product_exec *e)
{
    struct omp_state *s = state;
    if (s->batching)
        return frx_openmp_hold_product(s, product_team, plan, e);
    frx_openmp_flush(s);
#pragma omp parallel
    product_team(plan, e);
    return FRX_OK;
}

void frx_openmp_product_free(void *state, void *plan)
{
    frx_openmp_flush(state);
    struct xsmm_plan *p = plan;
    if (!p)
        return;
    put_handle(state, p->h_wide);
    put_handle(state, p->h_narrow);
    free(p->seg);
    free(p->a);
    free(p);
}

const char *const frx_openmp_product_libs[] = {"libxsmm", NULL};
