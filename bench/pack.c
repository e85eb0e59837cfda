/* SPDX-License-Identifier: BSD-3-Clause */
/* bench/pack: pack throughput of a shuffled and a contiguous view against
 * a plain C gather of the same index list and a STREAM-like copy, and,
 * for a backend other than openmp, against the same pack on openmp; all
 * measured in this run. Prints medians and ratios.
 *
 *   build/bench/pack [BACKEND] [MPOINTS]      (default openmp, 8) */
#include "timing.h"

#include <frx/frx.h>

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ref {
    const double *src;
    double *dst;
    const int32_t *off;
    size_t n, nvc, cs;
};

/* The plain gather frx's pack is held against: same index list, same
 * output layout, same threads. */
static void plain_gather(void *ctx)
{
    struct ref *r = ctx;
    const size_t n = r->n, nvc = r->nvc, cs = r->cs;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < nvc; c++)
            r->dst[c * n + i] = r->src[r->off[i] + c * cs];
}

static void stream_copy(void *ctx)
{
    struct ref *r = ctx;
    const size_t m = r->n * r->nvc;
    const double *restrict src = r->src;
    double *restrict dst = r->dst;
#pragma omp parallel for simd schedule(static)
    for (size_t i = 0; i < m; i++)
        dst[i] = src[i];
}

static int fail(const char *what)
{
    fprintf(stderr, "bench/pack: %s: %s\n", what, frx_errmsg());
    return 1;
}

/* One case on one backend: n points of nvc values out of a matrix of
 * nvar variables, elements in order or shuffled (the same on every
 * backend: the shuffle is seeded). */
struct pack_case {
    frx_backend *be;
    frx_matrix *m;
    frx_view *v;
    frx_xchg_view *xv;
    size_t *eles;
};

static int case_make(frx_backend *be, size_t n, size_t nvar, size_t nvc,
                     int shuffle, struct pack_case *pc)
{
    pc->be = be;
    if (frx_matrix_create(be, 1, nvar, n, &pc->m))
        return fail("matrix");
    /* written, as a solver's are: untouched memory reads one zero page */
    size_t fs = frx_backend_fpsize(be);
    unsigned char *h = malloc(nvar * n * fs);
    for (size_t i = 0; h && i < nvar * n; i++) {
        double x = (double)(i % 1000);
        float y = (float)x;
        memcpy(h + i * fs, fs == 4 ? (void *)&y : (void *)&x, fs);
    }
    int wrc = h ? frx_matrix_write(pc->m, h) : FRX_ENOMEM;
    free(h);
    if (wrc)
        return fail("matrix");
    frx_matrix **mats = malloc(n * sizeof *mats);
    size_t *rows = calloc(n, sizeof *rows);
    pc->eles = malloc(n * sizeof *pc->eles);
    for (size_t i = 0; i < n; i++) {
        mats[i] = pc->m;
        pc->eles[i] = i;
    }
    srand(12345);
    for (size_t i = n - 1; shuffle && i > 0; i--) {
        size_t j = (size_t)rand() % (i + 1), t = pc->eles[i];
        pc->eles[i] = pc->eles[j];
        pc->eles[j] = t;
    }
    int rc = frx_view_create(be, n, mats, rows, pc->eles, NULL, 1, nvc,
                             &pc->v) ||
             frx_xchg_view_create(pc->v, &pc->xv);
    free(mats), free(rows);
    return rc ? fail("view") : 0;
}

static void case_free(struct pack_case *pc)
{
    frx_xchg_view_destroy(pc->xv);
    frx_view_destroy(pc->v);
    frx_matrix_destroy(pc->m);
    free(pc->eles);
}

/* Pack and wait for it: asynchronous backends only enqueue. */
static void frx_pack(void *ctx)
{
    struct pack_case *pc = ctx;
    if (frx_xchg_view_pack(pc->xv) != FRX_OK ||
        frx_backend_sync(pc->be) != FRX_OK) {
        fprintf(stderr, "pack: %s\n", frx_errmsg());
        exit(1);
    }
}

static int run_case(frx_backend *be, frx_backend *omp, const char *label,
                    size_t n, size_t nvar, size_t nvc, int shuffle)
{
    struct pack_case pc;
    if (case_make(be, n, nvar, nvc, shuffle, &pc))
        return 1;

    /* References over host arrays with the same offsets. */
    size_t soasz = frx_backend_soasz(be), ld = frx_matrix_leaddim(pc.m);
    int32_t *off = malloc(n * sizeof *off);
    for (size_t i = 0; i < n; i++)
        off[i] = (int32_t)((pc.eles[i] / soasz) * nvar * soasz +
                           pc.eles[i] % soasz);
    double *src = malloc(ld * sizeof *src), *dst = malloc(n * nvc * sizeof *dst);
    /* Touch every page: calloc'd pages all map to one zero page. */
    for (size_t i = 0; i < ld; i++)
        src[i] = (double)i;
    for (size_t i = 0; i < n * nvc; i++)
        dst[i] = 0;
    struct ref r = {src, dst, off, n, nvc, soasz};

    double gb = (double)(2 * n * nvc * sizeof(double)) / 1e9;
    struct bench_pair p = compare_time(frx_pack, &pc,
                                       shuffle ? plain_gather : stream_copy,
                                       &r);
    printf("%-11s %9zu pts x %zu  frx    %7.2f GB/s  %-12s %7.2f GB/s  "
           "ratio %.2f (target >= %.1f)\n", label, n, nvc, gb / p.a,
           shuffle ? "plain gather" : "copy", gb / p.b, 1 / p.ratio,
           shuffle ? 0.8 : 0.9);
    free(off), free(src), free(dst);

    int rc = 0;
    struct pack_case po;
    if (omp && (rc = case_make(omp, n, nvar, nvc, shuffle, &po)) == 0) {
        p = compare_time(frx_pack, &pc, frx_pack, &po);
        printf("%-11s %9zu pts x %zu  frx    %7.2f GB/s  on openmp    "
               "%7.2f GB/s  ratio %.2f (target >= 0.9)\n", label, n, nvc,
               gb / p.a, gb / p.b, 1 / p.ratio);
        case_free(&po);
    }
    case_free(&pc);
    return rc;
}

int main(int argc, char **argv)
{
    const char *backend = argc > 1 ? argv[1] : "openmp";
    double mpoints = argc > 2 ? atof(argv[2]) : 8.0;
    size_t n = (size_t)(mpoints * 1e6);
    frx_config *cfg, *ocfg = NULL;
    frx_backend *be = bench_backend("bench/pack", backend, &cfg), *omp = NULL;
    if (!be)
        return 1;
    /* another backend is also held against openmp, in the same run */
    if (strcmp(backend, "openmp") != 0 && !(omp = bench_backend("bench/pack", "openmp", &ocfg)))
        return 1;
    printf("bench/pack: backend %s, %d threads, %d alternating rounds of %d "
           "runs, double precision\n", backend, omp_get_max_threads(), ROUNDS,
           REPEATS);
    int rc = run_case(be, omp, "shuffled", n, 4, 4, 1) ||
             run_case(be, omp, "contiguous", n, 1, 1, 0);
    frx_backend_destroy(be);
    frx_backend_destroy(omp);
    frx_config_free(cfg);
    frx_config_free(ocfg);
    return rc;
}
