/* What the benchmarks share: the median of repeated timings. */
#ifndef FRX_BENCH_TIMING_H
#define FRX_BENCH_TIMING_H

#include <omp.h>
#include <stdlib.h>

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
