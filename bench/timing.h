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

#endif
