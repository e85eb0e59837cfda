/* SPDX-License-Identifier: BSD-3-Clause */
/* bench/pointwise: a generated triad kernel against a hand-written
 * C+OpenMP triad and a STREAM triad over arrays of the same size, for a
 * backend other than openmp against the same kernel on openmp, and a
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

/* A triad bound on one backend. */
struct triad {
    frx_backend *be;
    frx_matrix *m[3];
    frx_kernel *k;
};

/* Run and wait for it: asynchronous backends only enqueue. */
static void run_kernel(void *ctx)
{
    struct triad *t = ctx;
    if (frx_kernel_run(t->k) != FRX_OK || frx_backend_sync(t->be) != FRX_OK) {
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

static int triad_make(struct triad *t, size_t n)
{
    double *host = malloc(n * sizeof *host);
    for (int i = 0; i < 3; i++) {
        for (size_t j = 0; j < n; j++)
            host[j] = (double)(i + j % 7);
        if (frx_matrix_create(t->be, 1, 1, n, &t->m[i]) ||
            frx_matrix_write(t->m[i], host))
            return die("matrix");
    }
    free(host);
    frx_arg args[] = {frx_arg_matrix(t->m[1]), frx_arg_matrix(t->m[2]),
                      frx_arg_matrix(t->m[0]), frx_arg_scalar(3)};
    return frx_kernel_create(t->be, "bench_triad", 1, n, args, 4, &t->k)
               ? die("bind") : 0;
}

static void triad_free(struct triad *t)
{
    if (!t->be)
        return;
    frx_kernel_destroy(t->k);
    for (int i = 0; i < 3; i++)
        frx_matrix_destroy(t->m[i]);
    frx_backend_destroy(t->be);
}

/* The backend with the triad registered: 0, or 1 with the reason. */
static int start(const char *backend, frx_config **cfg, frx_backend **be)
{
    *be = bench_backend("bench/pointwise", backend, cfg);
    if (!*be)
        return 1;
    return frx_kernel_register(*be, &triad) ? die("register") : 0;
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
    const char *tmp = getenv("TMPDIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/frx-bench-cache-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return die("mkdtemp");
    setenv("FRX_CACHE_DIR", dir, 1);
    char pocl[sizeof dir + 8]; /* PoCL keeps a cache of its own */
    snprintf(pocl, sizeof pocl, "%s/pocl", dir);
    setenv("POCL_CACHE_DIR", pocl, 1);
    double cold = bind_time(backend, NULL, 1024);
    double warm = bind_time(backend, NULL, 1024);

    frx_config *cfg, *ocfg = NULL;
    struct triad t, to = {0};
    if (start(backend, &cfg, &t.be) || triad_make(&t, n))
        return 1;
    /* another backend is also held against openmp, in the same run */
    if (strcmp(backend, "openmp") != 0 &&
        (start("openmp", &ocfg, &to.be) || triad_make(&to, n)))
        return 1;

    struct arrays r = {aligned_alloc(64, n * 8 + 64),
                       aligned_alloc(64, n * 8 + 64),
                       aligned_alloc(64, n * 8 + 64), 3, n};
    for (size_t j = 0; j < n; j++)
        r.a[j] = 0, r.b[j] = (double)(j % 7), r.c[j] = 1 + (double)(j % 7);

    double gb = 3.0 * (double)n * sizeof(double) / 1e9;
    printf("bench/pointwise: backend %s, %d threads, %zu points, %d "
           "alternating rounds of %d runs, double precision\n", backend,
           omp_get_max_threads(), n, ROUNDS, REPEATS);
    struct bench_pair p = compare_time(run_kernel, &t, hand_triad, &r);
    printf("triad  frx %7.2f GB/s  hand-written %7.2f GB/s  ratio %.2f "
           "(target >= 0.9)\n", gb / p.a, gb / p.b, 1 / p.ratio);
    p = compare_time(run_kernel, &t, stream_triad, &r);
    printf("triad  frx %7.2f GB/s  STREAM       %7.2f GB/s  ratio %.2f "
           "(target >= 0.9)\n", gb / p.a, gb / p.b, 1 / p.ratio);
    if (to.be) {
        p = compare_time(run_kernel, &t, run_kernel, &to);
        printf("triad  frx %7.2f GB/s  on openmp    %7.2f GB/s  ratio %.2f "
               "(target >= 0.9)\n", gb / p.a, gb / p.b, 1 / p.ratio);
    }
    printf("compile cold %.3f s  warm cache load %.4f s  ratio %.3f "
           "(target <= 0.1)\n", cold, warm, warm / cold);

    triad_free(&t);
    triad_free(&to);
    frx_config_free(cfg);
    frx_config_free(ocfg);
    free(r.a), free(r.b), free(r.c);
    char cmd[sizeof dir + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
