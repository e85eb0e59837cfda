/* SPDX-License-Identifier: BSD-3-Clause */
/* Pack (gather) and unpack (scatter) on a GPU: the kernels come from the
 * core's generator (frx_pack_generate), built per view shape, one thread
 * per point. Views made of a few long runs are moved with one copy
 * kernel per run and value of a point, which streams like a memcpy. */
#include "gpu.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* Shapes of at most this many rows and columns get kernels of their own
 * (up to GPU_PACK_SHAPES of them); others use those for any shape. */
#define MAX_SHAPE_DIM 64
/* Views of at most this many run copies, of 4096 points a run or more
 * on average, are moved by run copies. */
#define MAX_COPIES 64
#define MIN_RUN 4096

static const char *const entries[3] = {FRX_PACK_ENTRY, FRX_UNPACK_ENTRY,
                                       FRX_COPY_ENTRY};

static int set_build(struct gpu *g, int nvrow, int nvcol,
                     struct gpu_pack_set *set)
{
    *set = (struct gpu_pack_set){.nvrow = nvrow, .nvcol = nvcol};
    char name[64] = "frx_pack";
    if (nvrow)
        snprintf(name, sizeof name, "frx_pack_%dx%d", nvrow, nvcol);
    const frx_codegen cg = {.target = g->target, .precision = g->precision};
    char *src;
    int rc = frx_pack_generate(&cg, (size_t)nvrow, (size_t)nvcol, &src);
    if (rc)
        return rc;
    int built;
    rc = frx_gpu_program(g, name, src, &set->mod, &built);
    free(src);
    for (int i = 0; rc == FRX_OK && i < 3; i++)
        rc = g->vd->function(g, set->mod, entries[i], &set->fn[i]);
    if (rc && set->mod) {
        g->vd->module_free(g, set->mod);
        set->mod = NULL;
    }
    return rc;
}

int frx_gpu_start(struct gpu *g)
{
    return set_build(g, 0, 0, &g->pack_any);
}

/* The kernels for a view of this shape: its own, built at its first
 * pack (from the disk cache after the first run), or those for any. */
static int set_for(struct gpu *g, size_t nvrow, size_t nvcol,
                   const struct gpu_pack_set **out)
{
    *out = &g->pack_any;
    if (nvrow > MAX_SHAPE_DIM || nvcol > MAX_SHAPE_DIM)
        return FRX_OK;
    for (int i = 0; i < g->npack_shapes; i++)
        if (g->pack_shapes[i].nvrow == (int)nvrow &&
            g->pack_shapes[i].nvcol == (int)nvcol) {
            *out = &g->pack_shapes[i];
            return FRX_OK;
        }
    if (g->npack_shapes == GPU_PACK_SHAPES)
        return FRX_OK;
    struct gpu_pack_set *set = &g->pack_shapes[g->npack_shapes];
    int rc = set_build(g, (int)nvrow, (int)nvcol, set);
    if (rc)
        return rc;
    g->npack_shapes++;
    *out = set;
    return FRX_OK;
}

static int by_kernel(struct gpu *g, const struct gpu_pack_set *set,
                     const frx_pack_args *a, int gather, const char *what)
{
    uint64_t base = frx_gpu_addr(a->base), x = frx_gpu_addr(a->xchg),
             off = frx_gpu_addr(a->off_mem), rs = frx_gpu_addr(a->rstride_mem);
    int32_t n = (int32_t)a->n, nvrow = (int32_t)a->nvrow,
            nvcol = (int32_t)a->nvcol, cs = (int32_t)a->cstride;
    void *params[] = {&base, &x, &off, &rs, &n, &nvrow, &nvcol, &cs};
    return frx_gpu_launch(g, set->fn[gather ? 0 : 1], a->n, 1, params, what);
}

static int copy_run(struct gpu *g, uint64_t dst, size_t doff, uint64_t src,
                    size_t soff, size_t len)
{
    if (doff > INT_MAX || soff > INT_MAX || len > INT_MAX)
        return frx_error(FRX_ERANGE, "%s: a run at offset %zu: too far for "
                         "32-bit indices", g->vendor,
                         doff > soff ? doff : soff);
    int32_t d = (int32_t)doff, s = (int32_t)soff, n = (int32_t)len;
    void *params[] = {&dst, &d, &src, &s, &n};
    return frx_gpu_launch(g, g->pack_any.fn[2], len, 1, params,
                          "the run copy of a pack");
}

static int by_copies(struct gpu *g, const frx_pack_args *a, int gather)
{
    uint64_t base = frx_gpu_addr(a->base), x = frx_gpu_addr(a->xchg);
    int rc = FRX_OK;
    for (size_t k = 0; rc == FRX_OK && k < a->nruns; k++) {
        size_t i = (size_t)a->runs[k].start, len = (size_t)a->runs[k].len;
        size_t off = (size_t)a->off[i], rs = (size_t)a->rstride[i];
        for (size_t r = 0; rc == FRX_OK && r < a->nvrow; r++)
            for (size_t c = 0; rc == FRX_OK && c < a->nvcol; c++) {
                size_t bo = off + r * rs + c * a->cstride;
                size_t xo = (r * a->nvcol + c) * a->n + i;
                rc = gather ? copy_run(g, x, xo, base, bo, len)
                            : copy_run(g, base, bo, x, xo, len);
            }
    }
    return rc;
}

static int move(struct gpu *g, const frx_pack_args *a, int gather)
{
    const char *what = gather ? "pack" : "unpack";
    if (a->n > INT_MAX || a->nvrow > INT_MAX || a->nvcol > INT_MAX ||
        a->cstride > INT_MAX)
        return frx_error(FRX_ERANGE, "%s: %s of %zu points of %zu x %zu: "
                         "too many for 32-bit indices", g->vendor, what, a->n,
                         a->nvrow, a->nvcol);
    size_t nruns = a->runs ? a->nruns : 0;
    if (nruns && nruns * a->nvrow * a->nvcol <= MAX_COPIES &&
        a->n / nruns >= MIN_RUN)
        return by_copies(g, a, gather);
    const struct gpu_pack_set *set;
    int rc = set_for(g, a->nvrow, a->nvcol, &set);
    return rc ? rc : by_kernel(g, set, a, gather, what);
}

int frx_gpu_pack(void *state, const frx_pack_args *a)
{
    return move(state, a, 1);
}

int frx_gpu_unpack(void *state, const frx_pack_args *a)
{
    return move(state, a, 0);
}
