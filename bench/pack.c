/* bench/pack: pack throughput of a shuffled and a contiguous view against
 * a plain C gather of the same index list and a STREAM-like copy, all
 * measured in this run. Prints medians and ratios.
 *
 *   build/bench/pack [BACKEND] [MPOINTS]      (default openmp, 2) */
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

static frx_backend *bench_be;

/* Pack and wait for it: asynchronous backends only enqueue. */
static void frx_pack(void *ctx)
{
    if (frx_xchg_view_pack(ctx) != FRX_OK ||
        frx_backend_sync(bench_be) != FRX_OK) {
        fprintf(stderr, "pack: %s\n", frx_errmsg());
        exit(1);
    }
}

static int fail(const char *what)
{
    fprintf(stderr, "bench/pack: %s: %s\n", what, frx_errmsg());
    return 1;
}

/* One case: n points of nvc values, elements in order or shuffled. */
static int run_case(frx_backend *be, const char *label, size_t n,
                    size_t nvar, size_t nvc, int shuffle)
{
    frx_matrix *m;
    if (frx_matrix_create(be, 1, nvar, n, &m))
        return fail("matrix");
    frx_matrix **mats = malloc(n * sizeof *mats);
    size_t *rows = calloc(n, sizeof *rows), *eles = malloc(n * sizeof *eles);
    for (size_t i = 0; i < n; i++) {
        mats[i] = m;
        eles[i] = i;
    }
    srand(12345);
    for (size_t i = n - 1; shuffle && i > 0; i--) {
        size_t j = (size_t)rand() % (i + 1), t = eles[i];
        eles[i] = eles[j];
        eles[j] = t;
    }
    frx_view *v;
    frx_xchg_view *xv;
    if (frx_view_create(be, n, mats, rows, eles, NULL, 1, nvc, &v) ||
        frx_xchg_view_create(v, &xv))
        return fail("view");

    /* References over host arrays with the same offsets. */
    size_t soasz = frx_backend_soasz(be), ld = frx_matrix_leaddim(m);
    int32_t *off = malloc(n * sizeof *off);
    for (size_t i = 0; i < n; i++)
        off[i] = (int32_t)((eles[i] / soasz) * nvar * soasz + eles[i] % soasz);
    double *src = malloc(ld * sizeof *src), *dst = malloc(n * nvc * sizeof *dst);
    /* Touch every page: calloc'd pages all map to one zero page. */
    for (size_t i = 0; i < ld; i++)
        src[i] = (double)i;
    for (size_t i = 0; i < n * nvc; i++)
        dst[i] = 0;
    struct ref r = {src, dst, off, n, nvc, soasz};

    double t_frx = median_time(frx_pack, xv);
    double t_ref = shuffle ? median_time(plain_gather, &r)
                           : median_time(stream_copy, &r);
    double gb = (double)(2 * n * nvc * sizeof(double)) / 1e9;
    printf("%-11s %9zu pts x %zu  frx %7.2f GB/s  %-12s %7.2f GB/s  "
           "ratio %.2f (target >= %.1f)\n", label, n, nvc, gb / t_frx,
           shuffle ? "plain gather" : "copy", gb / t_ref, t_ref / t_frx,
           shuffle ? 0.8 : 0.9);

    free(off), free(src), free(dst), free(mats), free(rows), free(eles);
    frx_xchg_view_destroy(xv);
    frx_view_destroy(v);
    frx_matrix_destroy(m);
    return 0;
}

int main(int argc, char **argv)
{
    const char *backend = argc > 1 ? argv[1] : "openmp";
    double mpoints = argc > 2 ? atof(argv[2]) : 2.0;
    size_t n = (size_t)(mpoints * 1e6);
    char text[256];
    snprintf(text, sizeof text,
             "backend: {name: %s, precision: double}\n", backend);
    frx_config *cfg;
    frx_backend *be;
    if (frx_config_parse(text, strlen(text), "bench-pack", &cfg))
        return fail("config");
    if (frx_backend_create(cfg, &be))
        return fail("backend");
    bench_be = be;
    printf("bench/pack: backend %s, %d threads, median of %d runs, "
           "double precision\n", backend, omp_get_max_threads(), REPEATS);
    int rc = run_case(be, "shuffled", n, 4, 4, 1) ||
             run_case(be, "contiguous", n, 1, 1, 0);
    frx_backend_destroy(be);
    frx_config_free(cfg);
    return rc;
}
