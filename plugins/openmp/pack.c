/* SPDX-License-Identifier: BSD-3-Clause */
/* openmp pack (gather) and unpack (scatter) between views and xchg
 * matrices. Views with long runs of consecutive points copy blocks;
 * others go point by point. Threads take contiguous ranges of points;
 * small packs stay on the calling thread, since even a one-thread
 * OpenMP team costs more than they do. */
#include "openmp.h"

#include <omp.h>

#define MIN_MEAN_RUN 8 /* below this, runs cost more than they save */
#define SMALL 4096     /* values: fewer are packed by the calling thread */

/* Points [i0, i1). Scalar points get a loop of their own, which
 * vectorises (a gather with contiguous stores): the general loop's
 * strided scalar stores are slow into a buffer MPI has just read. */
#define DEFINE_POINTWISE(name, T, GATHER)                                   \
    static void name(const frx_pack_args *a, size_t i0, size_t i1)          \
    {                                                                       \
        T *restrict base = a->base, *restrict x = a->xchg;                  \
        const frx_ix_t *restrict off = a->off, *restrict rs = a->rstride;   \
        const size_t n = a->n, nvr = a->nvrow, nvc = a->nvcol,              \
                     cs = a->cstride;                                       \
        if (nvr * nvc == 1) {                                               \
            _Pragma("omp simd")                                             \
            for (size_t i = i0; i < i1; i++) {                              \
                if (GATHER)                                                 \
                    x[i] = base[off[i]];                                    \
                else                                                        \
                    base[off[i]] = x[i];                                    \
            }                                                               \
            return;                                                         \
        }                                                                   \
        for (size_t i = i0; i < i1; i++)                                    \
            for (size_t r = 0; r < nvr; r++) {                              \
                T *bp = base + off[i] + r * rs[i];                          \
                T *xp = x + r * nvc * n + i;                                \
                for (size_t c = 0; c < nvc; c++) {                          \
                    if (GATHER)                                             \
                        xp[c * n] = bp[c * cs];                             \
                    else                                                    \
                        bp[c * cs] = xp[c * n];                             \
                }                                                           \
            }                                                               \
    }

DEFINE_POINTWISE(gather_f64, double, 1)
DEFINE_POINTWISE(scatter_f64, double, 0)
DEFINE_POINTWISE(gather_f32, float, 1)
DEFINE_POINTWISE(scatter_f32, float, 0)

/* A block copy as a plain vectorised loop, kept a loop by the build
 * (CMakeLists.txt): glibc's memcpy copies blocks of megabytes with
 * rep movsb or non-temporal stores, measured 20-30% slower than this
 * loop on the machines frx is tested on. */
#define DEFINE_COPY(name, T)                                                \
    static void name(void *restrict dst, const void *restrict src,          \
                     size_t n)                                              \
    {                                                                       \
        T *restrict d = dst;                                                \
        const T *restrict s = src;                                          \
        _Pragma("omp simd")                                                 \
        for (size_t i = 0; i < n; i++)                                      \
            d[i] = s[i];                                                    \
    }

DEFINE_COPY(copy_f64, double)
DEFINE_COPY(copy_f32, float)

/* Points [p0, p1) as block copies of the runs they cover: threads share
 * out points, so one long run is split between them too. */
static void by_runs(const frx_pack_args *a, size_t p0, size_t p1, int gather)
{
    char *base = a->base, *x = a->xchg;
    const size_t es = a->elsize, n = a->n, nvr = a->nvrow, nvc = a->nvcol;
    size_t lo = 0, hi = a->nruns; /* the run holding p0 */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if ((size_t)a->runs[mid].start <= p0)
            lo = mid;
        else
            hi = mid;
    }
    for (size_t k = lo; k < a->nruns && (size_t)a->runs[k].start < p1; k++) {
        size_t start = (size_t)a->runs[k].start;
        size_t s = start > p0 ? start : p0;
        size_t e = start + (size_t)a->runs[k].len;
        e = e < p1 ? e : p1;
        size_t off = (size_t)a->off[s], rs = (size_t)a->rstride[s];
        for (size_t r = 0; r < nvr; r++)
            for (size_t c = 0; c < nvc; c++) {
                char *xp = x + ((r * nvc + c) * n + s) * es;
                char *bp = base + (off + r * rs + c * a->cstride) * es;
                void (*copy)(void *restrict, const void *restrict, size_t) =
                    es == 8 ? copy_f64 : copy_f32;
                if (gather)
                    copy(xp, bp, e - s);
                else
                    copy(bp, xp, e - s);
            }
    }
}

/* Points [i0, i1), by runs or point by point. */
static void move(const frx_pack_args *a, size_t i0, size_t i1, int by_run,
                 int gather)
{
    if (by_run)
        by_runs(a, i0, i1, gather);
    else if (a->elsize == 8)
        (gather ? gather_f64 : scatter_f64)(a, i0, i1);
    else
        (gather ? gather_f32 : scatter_f32)(a, i0, i1);
}

/* Kept out of line: the small packs of a latency-bound exchange then
 * skip the set-up of a parallel region they do not use. */
static __attribute__((noinline)) void in_threads(const frx_pack_args *a,
                                                 int by_run, int gather)
{
#pragma omp parallel
    {
        size_t nt = (size_t)omp_get_num_threads(), t = (size_t)omp_get_thread_num();
        move(a, a->n * t / nt, a->n * (t + 1) / nt, by_run, gather);
    }
}

/* A few scalar points: the packs of a latency-bound exchange, where the
 * general path's dispatch and vector-loop set-up cost more than the
 * copies themselves. */
#define FEW 16

#define MOVE_FEW(T)                                                         \
    do {                                                                    \
        T *restrict b = a->base, *restrict x = a->xchg;                     \
        for (size_t i = 0; i < a->n; i++)                                   \
            if (gather)                                                     \
                x[i] = b[a->off[i]];                                        \
            else                                                            \
                b[a->off[i]] = x[i];                                        \
    } while (0)

/* Out of line too, so that the few-point path needs no stack frame. */
static __attribute__((noinline)) void general(const frx_pack_args *a,
                                              int gather)
{
    int by_run = a->nruns && a->n >= MIN_MEAN_RUN * a->nruns;
    if (a->n * a->nvrow * a->nvcol <= SMALL)
        move(a, 0, a->n, by_run, gather);
    else
        in_threads(a, by_run, gather);
}

static int pack_or_unpack(const frx_pack_args *a, int gather)
{
    if (a->n <= FEW && a->nvrow == 1 && a->nvcol == 1) {
        if (a->elsize == 8)
            MOVE_FEW(double);
        else
            MOVE_FEW(float);
    } else {
        general(a, gather);
    }
    return FRX_OK;
}

int frx_openmp_pack(void *state, const frx_pack_args *a)
{
    frx_openmp_flush(state);
    return pack_or_unpack(a, 1);
}

int frx_openmp_unpack(void *state, const frx_pack_args *a)
{
    frx_openmp_flush(state);
    return pack_or_unpack(a, 0);
}
