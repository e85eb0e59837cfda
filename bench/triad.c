/* SPDX-License-Identifier: BSD-3-Clause */
/* bench/triad: a STREAM triad a = b + 3 c over three arrays of MB
 * megabytes each (argument; default 256), OpenMP threads as
 * OMP_NUM_THREADS; prints the median GB/s of 9 runs after a warm-up.
 * bench/solver.sh measures the solver's bytes per second against it in
 * the same run. */
#include "timing.h"

struct stream {
    double *a, *b, *c;
    size_t n;
};

static void triad(void *ctx)
{
    struct stream *s = ctx;
    const size_t n = s->n;
#pragma omp parallel for schedule(static)
    for (size_t j = 0; j < n; j++)
        s->a[j] = s->b[j] + 3.0 * s->c[j];
}

int main(int argc, char **argv)
{
    size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
    struct stream s = {.n = mb * 1024 * 1024 / sizeof(double)};
    s.a = aligned_alloc(64, s.n * 8 + 64);
    s.b = aligned_alloc(64, s.n * 8 + 64);
    s.c = aligned_alloc(64, s.n * 8 + 64);
    if (!s.n || !s.a || !s.b || !s.c) {
        fprintf(stderr, "triad: cannot allocate 3 x %zu MB\n", mb);
        return 1;
    }
#pragma omp parallel for schedule(static)
    for (size_t j = 0; j < s.n; j++)
        s.a[j] = 0, s.b[j] = (double)(j % 7), s.c[j] = 1;
    double t = median_time(triad, &s);
    printf("%.3f\n", 24.0 * (double)s.n / t / 1e9);
    free(s.a), free(s.b), free(s.c);
    return 0;
}
