/* bench/pointwise: a generated triad kernel against a hand-written
 * C+OpenMP triad and a STREAM triad over arrays of the same size, and a
 * cold compile against a load from the warm disk cache, all measured in
 * this run.
 *
 *   build/bench/pointwise [BACKEND] [MPOINTS]     (default openmp, 8) */
#include "timing.h"

#include <frx/frx.h>

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const frx_kernel_decl triad = {
    .name = "bench_triad", .ndim = 1,
    .args = "in fpdtype_t b, in fpdtype_t c, out fpdtype_t a, "
            "scalar fpdtype_t s",
    .body = "a = b + s*c;"};

static int die(const char *what)
{
    fprintf(stderr, "bench/pointwise: %s: %s\n", what, frx_errmsg());
    return 1;
}

static frx_backend *bench_be;

/* Run and wait for it: asynchronous backends only enqueue. */
static void run_kernel(void *k)
{
    if (frx_kernel_run(k) != FRX_OK || frx_backend_sync(bench_be) != FRX_OK) {
        fprintf(stderr, "bench/pointwise: %s\n", frx_errmsg());
        exit(1);
    }
}

struct arrays {
    double *a, *b, *c, s;
    size_t n;
};

static void hand_triad(void *ctx)
{
    struct arrays *r = ctx;
    double *restrict a = r->a;
    const double *restrict b = r->b, *restrict c = r->c;
    const double s = r->s;
#pragma omp parallel for simd schedule(static)
    for (size_t i = 0; i < r->n; i++)
        a[i] = b[i] + s * c[i];
}

/* As in McCalpin's STREAM: a plain parallel loop over global arrays. */
static void stream_triad(void *ctx)
{
    struct arrays *r = ctx;
    const size_t n = r->n;
#pragma omp parallel for schedule(static)
    for (size_t j = 0; j < n; j++)
        r->a[j] = r->b[j] + r->s * r->c[j];
}

static int start(const char *backend, frx_config **cfg, frx_backend **be)
{
    char text[256];
    snprintf(text, sizeof text, "backend: {name: %s, precision: double}\n",
             backend);
    if (frx_config_parse(text, strlen(text), "bench-pointwise", cfg))
        return die("config");
    if (frx_backend_create(*cfg, be) || frx_kernel_register(*be, &triad))
        return die("backend");
    return 0;
}

/* Seconds to bind the triad on a fresh backend (compile or cache load). */
static double bind_time(const char *backend, frx_matrix *const *m_unused,
                        size_t n)
{
    (void)m_unused;
    frx_config *cfg;
    frx_backend *be;
    if (start(backend, &cfg, &be))
        exit(1);
    frx_matrix *m[3];
    for (int i = 0; i < 3; i++)
        if (frx_matrix_create(be, 1, 1, n, &m[i]))
            exit(die("matrix"));
    frx_arg args[] = {frx_arg_matrix(m[0]), frx_arg_matrix(m[1]),
                      frx_arg_matrix(m[2]), frx_arg_scalar(3)};
    frx_kernel *k;
    double t0 = omp_get_wtime();
    if (frx_kernel_create(be, "bench_triad", 1, n, args, 4, &k))
        exit(die("bind"));
    double t = omp_get_wtime() - t0;
    frx_kernel_destroy(k);
    for (int i = 0; i < 3; i++)
        frx_matrix_destroy(m[i]);
    frx_backend_destroy(be);
    frx_config_free(cfg);
    return t;
}

int main(int argc, char **argv)
{
    const char *backend = argc > 1 ? argv[1] : "openmp";
    size_t n = (size_t)((argc > 2 ? atof(argv[2]) : 8.0) * 1e6);

    /* Compile times in a cache of our own, so the cold one is cold. */
    char dir[] = "/tmp/frx-bench-cache-XXXXXX";
    if (!mkdtemp(dir))
        return die("mkdtemp");
    setenv("FRX_CACHE_DIR", dir, 1);
    double cold = bind_time(backend, NULL, 1024);
    double warm = bind_time(backend, NULL, 1024);

    frx_config *cfg;
    frx_backend *be;
    if (start(backend, &cfg, &be))
        return 1;
    bench_be = be;
    frx_matrix *m[3];
    double *host = malloc(n * sizeof *host);
    for (int i = 0; i < 3; i++) {
        for (size_t j = 0; j < n; j++)
            host[j] = (double)(i + j % 7);
        if (frx_matrix_create(be, 1, 1, n, &m[i]) ||
            frx_matrix_write(m[i], host))
            return die("matrix");
    }
    frx_arg args[] = {frx_arg_matrix(m[1]), frx_arg_matrix(m[2]),
                      frx_arg_matrix(m[0]), frx_arg_scalar(3)};
    frx_kernel *k;
    if (frx_kernel_create(be, "bench_triad", 1, n, args, 4, &k))
        return die("bind");

    struct arrays r = {aligned_alloc(64, n * 8 + 64),
                       aligned_alloc(64, n * 8 + 64),
                       aligned_alloc(64, n * 8 + 64), 3, n};
    for (size_t j = 0; j < n; j++)
        r.a[j] = 0, r.b[j] = (double)(j % 7), r.c[j] = 1 + (double)(j % 7);

    double t_frx = median_time(run_kernel, k);
    double t_hand = median_time(hand_triad, &r);
    double t_stream = median_time(stream_triad, &r);
    double gb = 3.0 * (double)n * sizeof(double) / 1e9;
    printf("bench/pointwise: backend %s, %d threads, %zu points, median of "
           "%d runs, double precision\n", backend, omp_get_max_threads(), n,
           REPEATS);
    printf("triad  frx %7.2f GB/s  hand-written %7.2f GB/s  ratio %.2f "
           "(target >= 0.9)\n", gb / t_frx, gb / t_hand, t_hand / t_frx);
    printf("triad  frx %7.2f GB/s  STREAM       %7.2f GB/s  ratio %.2f "
           "(target >= 0.9)\n", gb / t_frx, gb / t_stream, t_stream / t_frx);
    printf("compile cold %.3f s  warm cache load %.4f s  ratio %.3f "
           "(target <= 0.1)\n", cold, warm, warm / cold);

    frx_kernel_destroy(k);
    for (int i = 0; i < 3; i++)
        frx_matrix_destroy(m[i]);
    frx_backend_destroy(be);
    frx_config_free(cfg);
    free(host), free(r.a), free(r.b), free(r.c);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
