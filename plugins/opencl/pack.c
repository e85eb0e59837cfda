/* opencl pack (gather) and unpack (scatter) between views and xchg
 * matrices: one work-item per point, built once per backend in its
 * precision. Both are only enqueued, after the commands on the buffers
 * they read and write (events.c), and before whatever reads their
 * result. */
#include "opencl.h"

#include <limits.h>
#include <stdio.h>

/* One body, two kernels: MOVE's direction is the only difference. */
static const char pack_source[] =
    "#define FRX_PACK_KERNEL(NAME, BQ, XQ, MOVE)                        \\\n"
    "__kernel void NAME(__global BQ T *restrict base,                   \\\n"
    "    __global XQ T *restrict x, __global const int *restrict off,   \\\n"
    "    __global const int *restrict rs, int n, int nvrow, int nvcol,  \\\n"
    "    int cs)                                                        \\\n"
    "{                                                                  \\\n"
    "    const int i = get_global_id(0);                                \\\n"
    "    if (i >= n)                                                    \\\n"
    "        return;                                                    \\\n"
    "    const int o = off[i], s = rs[i];                               \\\n"
    "    for (int r = 0; r < nvrow; r++)                                \\\n"
    "        for (int c = 0; c < nvcol; c++)                            \\\n"
    "            MOVE(x[(size_t)(r*nvcol + c)*n + i], base[o + r*s + c*cs]); \\\n"
    "}\n"
    "#define FRX_GATHER(packed, point) packed = point\n"
    "#define FRX_SCATTER(packed, point) point = packed\n"
    "FRX_PACK_KERNEL(frx_gather, const, , FRX_GATHER)\n"
    "FRX_PACK_KERNEL(frx_scatter, , const, FRX_SCATTER)\n";

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
               int gather)
{
    const char *what = gather ? "pack" : "unpack";
    if (a->n > INT_MAX || a->nvrow > INT_MAX || a->nvcol > INT_MAX ||
        a->cstride > INT_MAX)
        return frx_error(FRX_ERANGE, "opencl: %s of %zu points: too many "
                         "for 32-bit indices", what, a->n);
    cl_mem base = frx_opencl_buf(a->base), x = frx_opencl_buf(a->xchg),
           off = frx_opencl_buf(a->off_mem),
           rs = frx_opencl_buf(a->rstride_mem);
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
    frx_opencl_deps_use(s, a->off_mem, FRX_ACCESS_READ);
    frx_opencl_deps_use(s, a->rstride_mem, FRX_ACCESS_READ);
    cl_uint nwait;
    const cl_event *wait;
    int rc = frx_opencl_deps_wait(s, &nwait, &wait);
    if (rc)
        return rc;
    size_t local = s->pack_local;
    size_t global = (a->n + local - 1) / local * local;
    cl_event ev = NULL;
    err = clEnqueueNDRangeKernel(s->queue, k, 1, NULL, &global, &local,
                                 nwait, wait, frx_opencl_event_out(s, &ev));
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, "clEnqueueNDRangeKernel", "%s of %zu "
                               "points", what, a->n);
    frx_opencl_deps_enqueued(s, ev);
    return FRX_OK;
}

/* Views made of a few long runs are moved with buffer copies, which the
 * device does at copy speed; others with the kernel. */
#define MAX_COPIES 64

static int by_copies(struct ocl_state *s, const frx_pack_args *a,
                     const frx_run *runs, size_t nruns, int gather)
{
    const size_t es = a->elsize, n = a->n;
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
                size_t bo = (off + r * rs + c * a->cstride) * es;
                size_t xo = ((r * a->nvcol + c) * n + i) * es;
                cl_event *out = frx_opencl_event_out(s, &ev[nev]);
                cl_int err = gather
                    ? clEnqueueCopyBuffer(s->queue, base, x, bo, xo, len * es,
                                          nwait, wait, out)
                    : clEnqueueCopyBuffer(s->queue, x, base, xo, bo, len * es,
                                          nwait, wait, out);
                if (err != CL_SUCCESS)
                    rc = frx_opencl_fail(err, "clEnqueueCopyBuffer",
                                         "%s of a run of %zu points",
                                         gather ? "pack" : "unpack", len);
                else if (out)
                    nev++;
            }
    }
    /* those enqueued before a failure are recorded all the same */
    int rc2 = frx_opencl_deps_enqueued_all(s, ev, nev);
    return rc ? rc : rc2;
}

static int move(struct ocl_state *s, const frx_pack_args *a, int gather)
{
    frx_opencl_deps_begin(s);
    frx_opencl_deps_use(s, a->base,
                        gather ? FRX_ACCESS_READ : FRX_ACCESS_WRITE);
    frx_opencl_deps_use(s, a->xchg,
                        gather ? FRX_ACCESS_WRITE : FRX_ACCESS_READ);
    size_t nruns = a->runs ? a->nruns : 0;
    if (nruns && nruns * a->nvrow * a->nvcol <= MAX_COPIES &&
        a->n / nruns >= 4096)
        return by_copies(s, a, a->runs, nruns, gather);
    return run(s, gather ? s->gather : s->scatter, a, gather);
}

int frx_opencl_pack(void *state, const frx_pack_args *a)
{
    return move(state, a, 1);
}

int frx_opencl_unpack(void *state, const frx_pack_args *a)
{
    return move(state, a, 0);
}
