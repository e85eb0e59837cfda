/* SPDX-License-Identifier: BSD-3-Clause */
/* opencl kernels: a generated kernel's program (program.c) and its
 * launches, each with its buffers' events (events.c). */
#include "opencl.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ocl_prog {
    cl_program prog;
    cl_kernel kernel;
    size_t local; /* work-items per group */
    char name[64]; /* the kernel's, for messages */
};

/* -------------------------------------------------------------- kernels */

int frx_opencl_kernel_compile(void *state, const frx_kernel_src *src,
                              void **out, int *compiled)
{
    struct ocl_state *s = state;
    struct ocl_prog *p = calloc(1, sizeof *p);
    if (!p)
        return frx_error(FRX_ENOMEM, "opencl: out of memory");
    int rc = frx_opencl_program(s, src->name, src->source, &p->prog,
                                compiled);
    cl_int err = CL_SUCCESS;
    if (rc == FRX_OK)
        p->kernel = clCreateKernel(p->prog, src->entry, &err);
    if (rc == FRX_OK && !p->kernel)
        rc = frx_opencl_fail(err, "clCreateKernel", "kernel '%s' (%s)",
                             src->name, src->entry);
    size_t wgs = 0;
    if (rc == FRX_OK)
        err = clGetKernelWorkGroupInfo(p->kernel, s->device,
                                       CL_KERNEL_WORK_GROUP_SIZE, sizeof wgs,
                                       &wgs, NULL);
    if (rc == FRX_OK && err != CL_SUCCESS)
        rc = frx_opencl_fail(err, "clGetKernelWorkGroupInfo", "kernel '%s'",
                             src->name);
    /* ABI 1.3: a kernel that folds work-groups (a reduction) must be
     * launched with the group size its code was generated for */
    size_t need = FRX_SIZE_HOLDS(frx_kernel_src, src, local_size)
                      ? src->local_size : 0;
    if (rc == FRX_OK && need && wgs && wgs < need)
        rc = frx_error(FRX_EBACKEND, "kernel '%s' needs work-groups of %zu "
                       "on '%s', which allows %zu for it", src->name, need,
                       s->device_name, wgs);
    if (rc) {
        frx_opencl_kernel_free(s, p);
        return rc;
    }
    p->local = need ? need : wgs && wgs < s->local_size ? wgs
                                                         : s->local_size;
    snprintf(p->name, sizeof p->name, "%s", src->name);
    *out = p;
    return FRX_OK;
}

static cl_int set_param(const struct ocl_state *s, cl_kernel k, cl_uint i,
                        const frx_param *p)
{
    if (p->type == FRX_PARAM_MEM) {
        cl_mem m = frx_opencl_buf(p->mem);
        return clSetKernelArg(k, i, sizeof m, &m);
    }
    if (p->type == FRX_PARAM_INT64) {
        cl_long v = (cl_long)p->i;
        return clSetKernelArg(k, i, sizeof v, &v);
    }
    if (p->type == FRX_PARAM_INT) {
        if (p->i < INT32_MIN || p->i > INT32_MAX)
            return CL_INVALID_ARG_VALUE;
        cl_int v = (cl_int)p->i;
        return clSetKernelArg(k, i, sizeof v, &v);
    }
    if (s->precision == FRX_DOUBLE) {
        cl_double v = p->d;
        return clSetKernelArg(k, i, sizeof v, &v);
    }
    cl_float v = (cl_float)p->d;
    return clSetKernelArg(k, i, sizeof v, &v);
}

/* What the launch waits for: the buffers of its parameters, as their
 * intents say; a buffer without access bits counts as read and written. */
static int launch_deps(struct ocl_state *s, const frx_launch *l, cl_uint *n,
                       const cl_event **wait)
{
    const int rw = FRX_ACCESS_READ | FRX_ACCESS_WRITE;
    uint32_t flags = FRX_SIZE_HOLDS(frx_launch, l, flags) ? l->flags : 0;
    frx_opencl_deps_begin(s, flags);
    for (size_t i = 0; i < l->nparams; i++) {
        const frx_param *p = &l->params[i];
        if (p->type == FRX_PARAM_MEM)
            frx_opencl_deps_use(s, p->mem, p->access & rw ? p->access : rw);
    }
    return frx_opencl_deps_wait(s, n, wait);
}

/* Arguments are set on the program's one cl_kernel right before its
 * enqueue, which records them: frx calls this from one thread. */
int frx_opencl_kernel_launch(void *state, void *prog, const frx_launch *l)
{
    struct ocl_state *s = state;
    struct ocl_prog *p = prog;
    for (size_t i = 0; i < l->nparams; i++) {
        cl_int err = set_param(s, p->kernel, (cl_uint)i, &l->params[i]);
        if (err != CL_SUCCESS)
            return frx_opencl_fail(err, "clSetKernelArg", "kernel '%s', "
                                   "parameter %zu", p->name, i);
    }
    cl_uint nwait;
    const cl_event *wait;
    int rc = launch_deps(s, l, &nwait, &wait);
    if (rc)
        return rc;
    size_t local[2] = {p->local, 1};
    size_t global[2] = {(l->n + p->local - 1) / p->local * p->local,
                        l->nrows};
    cl_event ev = NULL;
    cl_int err = clEnqueueNDRangeKernel(s->queue, p->kernel, 2, NULL, global,
                                        local, nwait, wait,
                                        frx_opencl_event_out(s, &ev));
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, "clEnqueueNDRangeKernel", "kernel '%s' "
                               "over %zu x %zu points", p->name, l->nrows,
                               l->n);
    frx_opencl_deps_enqueued(s, ev);
    return FRX_OK;
}

void frx_opencl_kernel_free(void *state, void *prog)
{
    (void)state;
    struct ocl_prog *p = prog;
    if (p->kernel)
        clReleaseKernel(p->kernel);
    if (p->prog)
        clReleaseProgram(p->prog);
    free(p);
}
