/* SPDX-License-Identifier: BSD-3-Clause */
/* opencl pack (gather) and unpack (scatter) between views and xchg
 * matrices: one work-item per point, built per backend in its precision
 * (and per view shape, below). Both are only enqueued, after the
 * commands on the buffers they read and write (events.c), and before
 * whatever reads their result. */
#include "opencl.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* The kernels come from the core's generator (frx_pack_generate): those
 * made for one view shape have loops of known length, which PoCL
 * unrolls, and no row-stride load for one row, which makes a gather
 * about a third faster there than the kernels for any shape. */

/* Shapes of at most this many rows and columns get kernels of their own
 * (up to FRX_OPENCL_PACK_SHAPES of them); others use the general ones. */
#define MAX_SHAPE_DIM 64

/* The pack program for shape (nvrow, nvcol), or the general one for
 * (0, 0), and its kernels. */
static int set_build(struct ocl_state *s, int nvrow, int nvcol,
                     struct ocl_pack_set *set)
{
    char name[64] = "frx_pack";
    if (nvrow)
        snprintf(name, sizeof name, "frx_pack_%dx%d", nvrow, nvcol);
    *set = (struct ocl_pack_set){nvrow, nvcol, NULL, NULL, NULL, NULL, 0};
    const frx_codegen cg = {.target = FRX_TARGET_OPENCL,
                            .precision = s->precision};
    char *src;
    int rc = frx_pack_generate(&cg, (size_t)nvrow, (size_t)nvcol, &src);
    if (rc)
        return rc;
    int built;
    rc = frx_opencl_program(s, name, src, &set->prog, &built);
    free(src);
    if (rc)
        return rc;
    cl_int err;
    set->gather = clCreateKernel(set->prog, FRX_PACK_ENTRY, &err);
    if (set->gather)
        set->scatter = clCreateKernel(set->prog, FRX_UNPACK_ENTRY, &err);
    if (set->scatter)
        set->copy = clCreateKernel(set->prog, FRX_COPY_ENTRY, &err);
    if (!set->copy)
        return frx_opencl_fail(err, "clCreateKernel", "%s", name);
    set->local = s->local_size;
    cl_kernel all[] = {set->gather, set->scatter, set->copy};
    for (int i = 0; i < 3; i++) {
        size_t wgs = 0;
        err = clGetKernelWorkGroupInfo(all[i], s->device,
                                       CL_KERNEL_WORK_GROUP_SIZE, sizeof wgs,
                                       &wgs, NULL);
        if (err != CL_SUCCESS)
            return frx_opencl_fail(err, "clGetKernelWorkGroupInfo", "%s",
                                   name);
        if (wgs && wgs < set->local)
            set->local = wgs;
    }
    return FRX_OK;
}

static void set_free(struct ocl_pack_set *set)
{
    cl_kernel all[] = {set->gather, set->scatter, set->copy};
    for (int i = 0; i < 3; i++)
        if (all[i])
            clReleaseKernel(all[i]);
    if (set->prog)
        clReleaseProgram(set->prog);
}

int frx_opencl_pack_init(struct ocl_state *s)
{
    return set_build(s, 0, 0, &s->pack_any);
}

void frx_opencl_pack_free(struct ocl_state *s)
{
    set_free(&s->pack_any);
    for (int i = 0; i < s->npack_shapes; i++)
        set_free(&s->pack_shapes[i]);
}

/* The kernels for a view of this shape: its own, built at its first pack
 * (from the disk cache after the first run), or the general ones. */
static int set_for(struct ocl_state *s, size_t nvrow, size_t nvcol,
                   const struct ocl_pack_set **out)
{
    *out = &s->pack_any;
    if (nvrow > MAX_SHAPE_DIM || nvcol > MAX_SHAPE_DIM)
        return FRX_OK;
    for (int i = 0; i < s->npack_shapes; i++)
        if (s->pack_shapes[i].nvrow == (int)nvrow &&
            s->pack_shapes[i].nvcol == (int)nvcol) {
            *out = &s->pack_shapes[i];
            return FRX_OK;
        }
    if (s->npack_shapes == FRX_OPENCL_PACK_SHAPES)
        return FRX_OK;
    struct ocl_pack_set *set = &s->pack_shapes[s->npack_shapes];
    int rc = set_build(s, (int)nvrow, (int)nvcol, set);
    if (rc) {
        set_free(set);
        return rc;
    }
    s->npack_shapes++;
    *out = set;
    return FRX_OK;
}

/* A kernel argument, and setting them all. */
struct karg {
    size_t size;
    const void *value;
};

static int set_args(cl_kernel k, const struct karg *args, cl_uint n,
                    const char *what)
{
    for (cl_uint i = 0; i < n; i++) {
        cl_int err = clSetKernelArg(k, i, args[i].size, args[i].value);
        if (err != CL_SUCCESS)
            return frx_opencl_fail(err, "clSetKernelArg", "%s, argument %u",
                                   what, (unsigned)i);
    }
    return FRX_OK;
}

static int run(struct ocl_state *s, const struct ocl_pack_set *set,
               const frx_pack_args *a, int gather)
{
    const char *what = gather ? "pack" : "unpack";
    cl_kernel k = gather ? set->gather : set->scatter;
    if (a->n > INT_MAX || a->nvrow > INT_MAX || a->nvcol > INT_MAX ||
        a->cstride > INT_MAX)
        return frx_error(FRX_ERANGE, "opencl: %s of %zu points: too many "
                         "for 32-bit indices", what, a->n);
    cl_mem base = frx_opencl_buf(a->base), x = frx_opencl_buf(a->xchg),
           off = frx_opencl_buf(a->off_mem),
           rs = frx_opencl_buf(a->rstride_mem);
    cl_int n = (cl_int)a->n, nvrow = (cl_int)a->nvrow,
           nvcol = (cl_int)a->nvcol, cs = (cl_int)a->cstride;
    const struct karg args[] = {
        {sizeof base, &base}, {sizeof x, &x},         {sizeof off, &off},
        {sizeof rs, &rs},     {sizeof n, &n},         {sizeof nvrow, &nvrow},
        {sizeof nvcol, &nvcol}, {sizeof cs, &cs}};
    int rc = set_args(k, args, 8, what);
    if (rc)
        return rc;
    frx_opencl_deps_use(s, a->off_mem, FRX_ACCESS_READ);
    frx_opencl_deps_use(s, a->rstride_mem, FRX_ACCESS_READ);
    cl_uint nwait;
    const cl_event *wait;
    rc = frx_opencl_deps_wait(s, &nwait, &wait);
    if (rc)
        return rc;
    size_t local = set->local;
    size_t global = (a->n + local - 1) / local * local;
    cl_event ev = NULL;
    cl_int err = clEnqueueNDRangeKernel(s->queue, k, 1, NULL, &global, &local,
                                 nwait, wait, frx_opencl_event_out(s, &ev));
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, "clEnqueueNDRangeKernel", "%s of %zu "
                               "points", what, a->n);
    frx_opencl_deps_enqueued(s, ev);
    return FRX_OK;
}

/* Views made of a few long runs are moved with one copy kernel per run
 * (and per value of a point): PoCL runs these at about twice the speed
 * of clEnqueueCopyBuffer, and on GPUs they are plain streaming copies. */
#define MAX_COPIES 64

static int copy_run(struct ocl_state *s, cl_mem dst, size_t doff, cl_mem src,
                    size_t soff, size_t len, cl_uint nwait,
                    const cl_event *wait, cl_event *out)
{
    if (doff > INT_MAX || soff > INT_MAX || len > INT_MAX)
        return frx_error(FRX_ERANGE, "opencl: a run at offset %zu: too far "
                         "for 32-bit indices", doff > soff ? doff : soff);
    cl_int d = (cl_int)doff, so = (cl_int)soff, n = (cl_int)len;
    cl_kernel copy = s->pack_any.copy;
    const struct karg args[] = {{sizeof dst, &dst}, {sizeof d, &d},
                                {sizeof src, &src}, {sizeof so, &so},
                                {sizeof n, &n}};
    int rc = set_args(copy, args, 5, "the run copy kernel");
    if (rc)
        return rc;
    size_t local = s->pack_any.local;
    size_t global = (len + local - 1) / local * local;
    cl_int err = clEnqueueNDRangeKernel(s->queue, copy, 1, NULL, &global,
                                        &local, nwait, wait, out);
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, "clEnqueueNDRangeKernel", "a copy of a "
                               "run of %zu points", len);
    return FRX_OK;
}

static int by_copies(struct ocl_state *s, const frx_pack_args *a,
                     const frx_run *runs, size_t nruns, int gather)
{
    const size_t n = a->n;
    cl_mem base = frx_opencl_buf(a->base), x = frx_opencl_buf(a->xchg);
    cl_uint nwait;
    const cl_event *wait;
    int rc = frx_opencl_deps_wait(s, &nwait, &wait);
    if (rc)
        return rc;
    cl_event ev[MAX_COPIES];
    size_t nev = 0;
    for (size_t k = 0; rc == FRX_OK && k < nruns; k++) {
        size_t i = (size_t)runs[k].start, len = (size_t)runs[k].len;
        size_t off = (size_t)a->off[i], rs = (size_t)a->rstride[i];
        for (size_t r = 0; rc == FRX_OK && r < a->nvrow; r++)
            for (size_t c = 0; rc == FRX_OK && c < a->nvcol; c++) {
                size_t bo = off + r * rs + c * a->cstride;
                size_t xo = (r * a->nvcol + c) * n + i;
                cl_event *out = frx_opencl_event_out(s, &ev[nev]);
                rc = gather ? copy_run(s, x, xo, base, bo, len, nwait, wait,
                                       out)
                            : copy_run(s, base, bo, x, xo, len, nwait, wait,
                                       out);
                if (rc == FRX_OK && out)
                    nev++;
            }
    }
    /* those enqueued before a failure are recorded all the same */
    int rc2 = frx_opencl_deps_enqueued_all(s, ev, nev);
    return rc ? rc : rc2;
}

static int move(struct ocl_state *s, const frx_pack_args *a, int gather)
{
    size_t nruns = a->runs ? a->nruns : 0;
    int copies = nruns && nruns * a->nvrow * a->nvcol <= MAX_COPIES &&
                 a->n / nruns >= 4096;
    const struct ocl_pack_set *set = NULL;
    int rc = copies ? FRX_OK : set_for(s, a->nvrow, a->nvcol, &set);
    if (rc)
        return rc;
    uint32_t flags = FRX_SIZE_HOLDS(frx_pack_args, a, flags) ? a->flags : 0;
    frx_opencl_deps_begin(s, flags);
    frx_opencl_deps_use(s, a->base,
                        gather ? FRX_ACCESS_READ : FRX_ACCESS_WRITE);
    frx_opencl_deps_use(s, a->xchg,
                        gather ? FRX_ACCESS_WRITE : FRX_ACCESS_READ);
    return copies ? by_copies(s, a, a->runs, nruns, gather)
                  : run(s, set, a, gather);
}

int frx_opencl_pack(void *state, const frx_pack_args *a)
{
    return move(state, a, 1);
}

int frx_opencl_unpack(void *state, const frx_pack_args *a)
{
    return move(state, a, 0);
}
