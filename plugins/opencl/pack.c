/* opencl pack (gather) and unpack (scatter) between views and xchg
 * matrices: one work-item per point, built once per backend in its
 * precision. Both are only enqueued; the in-order queue puts them before
 * whatever reads their result. */
#include "opencl.h"

#include <limits.h>
#include <stdio.h>

static const char pack_source[] =
    "__kernel void frx_gather(__global const T *restrict base,\n"
    "    __global T *restrict x, __global const int *restrict off,\n"
    "    __global const int *restrict rs, int n, int nvrow, int nvcol,\n"
    "    int cs)\n"
    "{\n"
    "    const int i = get_global_id(0);\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    const int o = off[i], s = rs[i];\n"
    "    for (int r = 0; r < nvrow; r++)\n"
    "        for (int c = 0; c < nvcol; c++)\n"
    "            x[(size_t)(r*nvcol + c)*n + i] = base[o + r*s + c*cs];\n"
    "}\n"
    "\n"
    "__kernel void frx_scatter(__global T *restrict base,\n"
    "    __global const T *restrict x, __global const int *restrict off,\n"
    "    __global const int *restrict rs, int n, int nvrow, int nvcol,\n"
    "    int cs)\n"
    "{\n"
    "    const int i = get_global_id(0);\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    const int o = off[i], s = rs[i];\n"
    "    for (int r = 0; r < nvrow; r++)\n"
    "        for (int c = 0; c < nvcol; c++)\n"
    "            base[o + r*s + c*cs] = x[(size_t)(r*nvcol + c)*n + i];\n"
    "}\n";

int frx_opencl_pack_init(struct ocl_state *s)
{
    char src[sizeof pack_source + 128];
    snprintf(src, sizeof src, "/* frx pack and unpack */\n%stypedef %s T;\n%s",
             s->precision == FRX_DOUBLE
                 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "",
             s->precision == FRX_DOUBLE ? "double" : "float", pack_source);
    int built;
    int rc = frx_opencl_program(s, "frx_pack", src, &s->pack_prog, &built);
    if (rc)
        return rc;
    cl_int err;
    s->gather = clCreateKernel(s->pack_prog, "frx_gather", &err);
    if (s->gather)
        s->scatter = clCreateKernel(s->pack_prog, "frx_scatter", &err);
    if (!s->scatter)
        return frx_opencl_fail(err, "clCreateKernel", "the pack kernels");
    s->pack_local = s->local_size;
    for (int i = 0; i < 2; i++) {
        size_t wgs = 0;
        err = clGetKernelWorkGroupInfo(i ? s->scatter : s->gather, s->device,
                                       CL_KERNEL_WORK_GROUP_SIZE, sizeof wgs,
                                       &wgs, NULL);
        if (err != CL_SUCCESS)
            return frx_opencl_fail(err, "clGetKernelWorkGroupInfo",
                                   "the pack kernels");
        if (wgs && wgs < s->pack_local)
            s->pack_local = wgs;
    }
    return FRX_OK;
}

void frx_opencl_pack_free(struct ocl_state *s)
{
    if (s->gather)
        clReleaseKernel(s->gather);
    if (s->scatter)
        clReleaseKernel(s->scatter);
    if (s->pack_prog)
        clReleaseProgram(s->pack_prog);
}

static int run(struct ocl_state *s, cl_kernel k, const frx_pack_args *a,
               const char *what)
{
    if (a->n > INT_MAX || a->nvrow > INT_MAX || a->nvcol > INT_MAX ||
        a->cstride > INT_MAX)
        return frx_error(FRX_ERANGE, "opencl: %s of %zu points: too many "
                         "for 32-bit indices", what, a->n);
    cl_mem base = a->base, x = a->xchg, off = a->off_mem,
           rs = a->rstride_mem;
    cl_int n = (cl_int)a->n, nvrow = (cl_int)a->nvrow,
           nvcol = (cl_int)a->nvcol, cs = (cl_int)a->cstride;
    const struct {
        size_t size;
        const void *value;
    } args[] = {{sizeof base, &base}, {sizeof x, &x},   {sizeof off, &off},
                {sizeof rs, &rs},     {sizeof n, &n},   {sizeof nvrow, &nvrow},
                {sizeof nvcol, &nvcol}, {sizeof cs, &cs}};
    cl_int err = CL_SUCCESS;
    for (cl_uint i = 0; err == CL_SUCCESS && i < 8; i++) {
        err = clSetKernelArg(k, i, args[i].size, args[i].value);
        if (err != CL_SUCCESS)
            return frx_opencl_fail(err, "clSetKernelArg", "%s, argument %u",
                                   what, (unsigned)i);
    }
    size_t local = s->pack_local;
    size_t global = (a->n + local - 1) / local * local;
    err = clEnqueueNDRangeKernel(s->queue, k, 1, NULL, &global, &local, 0,
                                 NULL, NULL);
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, "clEnqueueNDRangeKernel", "%s of %zu "
                               "points", what, a->n);
    return FRX_OK;
}

/* Views made of a few long runs (the core cuts runs at a few thousand
 * points for CPU threads; joined again here) are moved with buffer
 * copies, which the device does at copy speed; others with the kernel. */
#define MAX_COPIES 64

static size_t joined_runs(const frx_pack_args *a, frx_run *out, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < a->nruns; i++) {
        frx_run r = a->runs[i];
        if (k && out[k - 1].start + out[k - 1].len == r.start &&
            a->off[r.start] == a->off[r.start - 1] + 1 &&
            a->rstride[r.start] == a->rstride[r.start - 1]) {
            out[k - 1].len += r.len;
            continue;
        }
        if (k == max)
            return max + 1;
        out[k++] = r;
    }
    return k;
}

static int by_copies(struct ocl_state *s, const frx_pack_args *a,
                     const frx_run *runs, size_t nruns, int gather)
{
    const size_t es = a->elsize, n = a->n;
    for (size_t k = 0; k < nruns; k++) {
        size_t i = (size_t)runs[k].start, len = (size_t)runs[k].len;
        size_t off = (size_t)a->off[i], rs = (size_t)a->rstride[i];
        for (size_t r = 0; r < a->nvrow; r++)
            for (size_t c = 0; c < a->nvcol; c++) {
                size_t bo = (off + r * rs + c * a->cstride) * es;
                size_t xo = ((r * a->nvcol + c) * n + i) * es;
                cl_int err = gather
                    ? clEnqueueCopyBuffer(s->queue, a->base, a->xchg, bo, xo,
                                          len * es, 0, NULL, NULL)
                    : clEnqueueCopyBuffer(s->queue, a->xchg, a->base, xo, bo,
                                          len * es, 0, NULL, NULL);
                if (err != CL_SUCCESS)
                    return frx_opencl_fail(err, "clEnqueueCopyBuffer",
                                           "%s of a run of %zu points",
                                           gather ? "pack" : "unpack", len);
            }
    }
    return FRX_OK;
}

static int move(struct ocl_state *s, const frx_pack_args *a, int gather)
{
    frx_run runs[MAX_COPIES];
    size_t nruns = a->runs ? joined_runs(a, runs, MAX_COPIES) : 0;
    if (nruns && nruns * a->nvrow * a->nvcol <= MAX_COPIES &&
        a->n / nruns >= 4096)
        return by_copies(s, a, runs, nruns, gather);
    return gather ? run(s, s->gather, a, "pack")
                  : run(s, s->scatter, a, "unpack");
}

int frx_opencl_pack(void *state, const frx_pack_args *a)
{
    return move(state, a, 1);
}

int frx_opencl_unpack(void *state, const frx_pack_args *a)
{
    return move(state, a, 0);
}
