/* SPDX-License-Identifier: BSD-3-Clause */
/* opencl library provider of operator products: CLBlast's GEMM (row
 * major, no transposes) on the backend's queue. CLBlast chains its own
 * kernels by events but starts the first without waiting for anything,
 * so on an out-of-order queue a barrier on what the product must follow
 * goes first; its last kernel's event is then the product's. */
#include "opencl.h"

#include <stdlib.h>
#include <string.h>

#include <clblast_c.h>

struct clb_plan {
    size_t m, n, k, lda, ldb, ldc, a_off;
    void *a_mem;
    double alpha, beta;
};

int frx_opencl_product_prepare(void *state, const char *lib,
                               const frx_product_args *a, void **out)
{
    (void)state;
    if (strcmp(lib, "clblast") != 0)
        return frx_error(FRX_ENOTSUP, "opencl has no product library '%s'",
                         lib);
    struct clb_plan *p = calloc(1, sizeof *p);
    if (!p)
        return frx_error(FRX_ENOMEM, "opencl: out of memory");
    *p = (struct clb_plan){.m = a->m, .n = a->n, .k = a->k, .lda = a->lda,
                           .ldb = a->ldb, .ldc = a->ldc, .a_off = a->a_off,
                           .a_mem = a->a_mem, .alpha = a->alpha,
                           .beta = a->beta};
    *out = p;
    return FRX_OK;
}

static CLBlastStatusCode gemm(const struct ocl_state *s,
                              const struct clb_plan *p,
                              const frx_product_exec *e,
                              cl_command_queue *queue, cl_event *ev)
{
    cl_mem a = frx_opencl_buf(p->a_mem), b = frx_opencl_buf(e->b),
           c = frx_opencl_buf(e->c);
    if (s->precision == FRX_DOUBLE)
        return CLBlastDgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo,
                            CLBlastTransposeNo, p->m, p->n, p->k, p->alpha,
                            a, p->a_off, p->lda, b, e->b_off, p->ldb,
                            p->beta, c, e->c_off, p->ldc, queue, ev);
    return CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo,
                        CLBlastTransposeNo, p->m, p->n, p->k,
                        (float)p->alpha, a, p->a_off, p->lda, b, e->b_off,
                        p->ldb, (float)p->beta, c, e->c_off, p->ldc, queue,
                        ev);
}

int frx_opencl_product_run(void *state, void *plan, const frx_product_exec *e)
{
    struct ocl_state *s = state;
    const struct clb_plan *p = plan;
    uint32_t flags = FRX_SIZE_HOLDS(frx_product_exec, e, flags) ? e->flags
                                                                 : 0;
    frx_opencl_deps_begin(s, flags);
    frx_opencl_deps_use(s, p->a_mem, FRX_ACCESS_READ);
    frx_opencl_deps_use(s, e->b, FRX_ACCESS_READ);
    frx_opencl_deps_use(s, e->c, FRX_ACCESS_WRITE |
                                     (p->beta != 0 ? FRX_ACCESS_READ : 0));
    cl_uint nwait;
    const cl_event *wait;
    int rc = frx_opencl_deps_wait(s, &nwait, &wait);
    if (rc)
        return rc;
    if (nwait) { /* only on an out-of-order queue */
        cl_int err = clEnqueueBarrierWithWaitList(s->queue, nwait, wait,
                                                  NULL);
        if (err != CL_SUCCESS)
            return frx_opencl_fail(err, "clEnqueueBarrierWithWaitList",
                                   "before a CLBlast product");
    }
    cl_event ev = NULL;
    CLBlastStatusCode st = gemm(s, p, e, &s->queue,
                                frx_opencl_event_out(s, &ev));
    if (st != CLBlastSuccess)
        return frx_error(FRX_EBACKEND, "opencl: CLBlast %sgemm of %zu x %zu "
                         "by %zu x %zu on '%s' failed with status %d (see "
                         "clblast_c.h)", s->precision == FRX_DOUBLE ? "D"
                                                                    : "S",
                         p->m, p->k, p->k, p->n, s->device_name, (int)st);
    frx_opencl_deps_enqueued(s, ev);
    return FRX_OK;
}

void frx_opencl_product_free(void *state, void *plan)
{
    (void)state;
    free(plan);
}

const char *const frx_opencl_product_libs[] = {"clblast", NULL};
