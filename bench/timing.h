/* SPDX-License-Identifier: BSD-3-Clause */
/* What the benchmarks share: a backend to measure on, and the median
 * of repeated timings. */
#ifndef FRX_BENCH_TIMING_H
#define FRX_BENCH_TIMING_H

#include <frx/frx.h>

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Backend `name` in double precision (its config in *cfg, to free), or
 * NULL with the reason printed as `who: name: ...`. */
static inline frx_backend *bench_backend(const char *who, const char *name,
                                         frx_config **cfg)
{
    char text[256];
    snprintf(text, sizeof text, "backend: {name: %s, precision: double}\n",
             name);
    frx_backend *be = NULL;
    if (frx_config_parse(text, strlen(text), who, cfg) ||
        frx_backend_create(*cfg, &be)) {
        fprintf(stderr, "%s: %s: %s\n", who, name, frx_errmsg());
        return NULL;
    }
    return be;
}

#define REPEATS 9

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef void (*work_fn)(void *ctx);

/* Median seconds of REPEATS runs of fn, after one warm-up. */
static inline double median_time(work_fn fn, void *ctx)
{
    double t[REPEATS];
    fn(ctx);
    for (int k = 0; k < REPEATS; k++) {
        double t0 = omp_get_wtime();
        fn(ctx);
        t[k] = omp_get_wtime() - t0;
    }
    qsort(t, REPEATS, sizeof *t, bench_cmp_double);
    return t[REPEATS / 2];
}

/* a against b: rounds of a block of runs of a then a block of b, each
 * block's median taken after a warm-up run (so each side is measured in
 * its steady state, its data and threads warm, as in a solver's loop),
 * and the rounds alternating so both see the same machine. The medians
 * over rounds of each and of the rounds' ratios a/b. */
#define ROUNDS 5

struct bench_pair {
    double a, b, ratio;
};

static inline struct bench_pair compare_time(work_fn a, void *ca, work_fn b,
                                             void *cb)
{
    double ta[ROUNDS], tb[ROUNDS], r[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        ta[k] = median_time(a, ca);
        tb[k] = median_time(b, cb);
        r[k] = ta[k] / tb[k];
    }
    qsort(ta, ROUNDS, sizeof *ta, bench_cmp_double);
    qsort(tb, ROUNDS, sizeof *tb, bench_cmp_double);
    qsort(r, ROUNDS, sizeof *r, bench_cmp_double);
    return (struct bench_pair){ta[ROUNDS / 2], tb[ROUNDS / 2], r[ROUNDS / 2]};
}

#endif
