/* openmp pack (gather) and unpack (scatter) between views and xchg
 * matrices. Views with long runs of consecutive points copy blocks;
 * others go plane by plane of the packed buffer. */
#include "openmp.h"

#include <string.h>

#define MIN_MEAN_RUN 8   /* below this, runs cost more than they save */
#define SMALL 4096       /* values: fewer are packed by the calling thread */

/* One plane (r, c) at a time: the packed side is written (or read)
 * contiguously and each plane's loop vectorises as a gather or scatter.
 * Threads split the points once and keep them for every plane. */
#define DEFINE_POINTWISE(name, T, GATHER)                                   \
    static void name(const frx_pack_args *a)                                \
    {                                                                       \
        T *restrict base = a->base, *restrict x = a->xchg;                  \
        const frx_ix_t *restrict off = a->off, *restrict rs = a->rstride;   \
        const size_t n = a->n, nvr = a->nvrow, nvc = a->nvcol,              \
                     cs = a->cstride;                                       \
        _Pragma("omp parallel if (n * nvr * nvc > SMALL)")                  \
        for (size_t r = 0; r < nvr; r++)                                    \
            for (size_t c = 0; c < nvc; c++) {                              \
                T *restrict xp = x + (r * nvc + c) * n;                     \
                const size_t k = c * cs;                                    \
                _Pragma("omp for simd schedule(static) nowait")             \
                for (size_t i = 0; i < n; i++) {                            \
                    if (GATHER)                                             \
                        xp[i] = base[off[i] + r * rs[i] + k];               \
                    else                                                    \
                        base[off[i] + r * rs[i] + k] = xp[i];               \
                }                                                           \
            }                                                               \
    }

DEFINE_POINTWISE(gather_f64, double, 1)
DEFINE_POINTWISE(scatter_f64, double, 0)
DEFINE_POINTWISE(gather_f32, float, 1)
DEFINE_POINTWISE(scatter_f32, float, 0)

static void by_runs(const frx_pack_args *a, int gather)
{
    char *base = a->base, *x = a->xchg;
    const size_t es = a->elsize, n = a->n, nvr = a->nvrow, nvc = a->nvcol;
    const frx_run *runs = a->runs;
    const long nruns = (long)a->nruns;
#pragma omp parallel for schedule(static) if (n * nvr * nvc > SMALL)
    for (long k = 0; k < nruns; k++) {
        size_t s = (size_t)runs[k].start, len = (size_t)runs[k].len;
        size_t off = (size_t)a->off[s], rs = (size_t)a->rstride[s];
        for (size_t r = 0; r < nvr; r++)
            for (size_t c = 0; c < nvc; c++) {
                char *xp = x + ((r * nvc + c) * n + s) * es;
                char *bp = base + (off + r * rs + c * a->cstride) * es;
                if (gather)
                    memcpy(xp, bp, len * es);
                else
                    memcpy(bp, xp, len * es);
            }
    }
}

static int use_runs(const frx_pack_args *a)
{
    return a->nruns && a->n / a->nruns >= MIN_MEAN_RUN;
}

int frx_openmp_pack(void *state, const frx_pack_args *a)
{
    (void)state;
    if (use_runs(a))
        by_runs(a, 1);
    else if (a->elsize == 8)
        gather_f64(a);
    else
        gather_f32(a);
    return FRX_OK;
}

int frx_openmp_unpack(void *state, const frx_pack_args *a)
{
    (void)state;
    if (use_runs(a))
        by_runs(a, 0);
    else if (a->elsize == 8)
        scatter_f64(a);
    else
        scatter_f32(a);
    return FRX_OK;
}
