/* SPDX-License-Identifier: BSD-3-Clause */
/* Exchange matrices (dense packed buffers) and exchange views. */
#include "data/data-impl.h"

#include <stdlib.h>
#include <string.h>

int frx_xchg_matrix_create(frx_backend *be, size_t n, size_t nvrow,
                           size_t nvcol, frx_xchg_matrix **out)
{
    if (!be || !out)
        return frx_error(FRX_EINVAL, "frx_xchg_matrix_create: NULL argument");
    if (!n || !nvrow || !nvcol)
        return frx_error(FRX_EINVAL,
                         "xchg matrix of %zu points of shape (%zu, %zu): all "
                         "must be at least 1", n, nvrow, nvcol);
    frx_xchg_matrix *xm = frx__calloc(1, sizeof *xm, "an xchg matrix");
    if (!xm)
        return FRX_ENOMEM;
    *xm = (frx_xchg_matrix){.tag = FRX__TAG_XCHG, .be = be, .n = n,
                            .nvrow = nvrow,
                            .nvcol = nvcol,
                            .bytes = n * nvrow * nvcol * be->fpsize,
                            .refs = 1};
    int rc = be->ops->mem_alloc(be->state, xm->bytes, &xm->mem);
    if (rc == FRX_OK && be->info.host_accessible) {
        xm->host = xm->mem; /* the device is the host: no extra bytes */
    } else if (rc == FRX_OK && FRX__OPS_HAS(be->ops, host_alloc)) {
        rc = be->ops->host_alloc(be->state, xm->bytes, &xm->host,
                                 &xm->host_handle);
        xm->own_host = rc == FRX_OK;
    } else if (rc == FRX_OK) {
        xm->host = frx__calloc(1, xm->bytes, "an xchg host mirror");
        xm->own_host = 1;
        rc = xm->host ? FRX_OK : FRX_ENOMEM;
    }
    if (rc) {
        frx_xchg_matrix_destroy(xm);
        return rc;
    }
    *out = xm;
    return FRX_OK;
}

/* Drops one reference (the creator's or xchg view's, a kernel's, an
 * exchange's); the last one frees it. */
void frx_xchg_matrix_destroy(frx_xchg_matrix *xm)
{
    if (!xm || --xm->refs > 0)
        return;
    if (xm->host_handle && FRX__OPS_HAS(xm->be->ops, host_free))
        xm->be->ops->host_free(xm->be->state, xm->host_handle);
    else if (xm->own_host)
        free(xm->host);
    if (xm->mem)
        xm->be->ops->mem_free(xm->be->state, xm->mem);
    free(xm);
}

int frx_xchg_matrix_write(frx_xchg_matrix *xm, const void *host)
{
    if (!xm || !host)
        return frx_error(FRX_EINVAL, "frx_xchg_matrix_write: NULL argument");
    return xm->be->ops->mem_write(xm->be->state, xm->mem, 0, host, xm->bytes);
}

int frx_xchg_matrix_read(const frx_xchg_matrix *xm, void *host)
{
    if (!xm || !host)
        return frx_error(FRX_EINVAL, "frx_xchg_matrix_read: NULL argument");
    return xm->be->ops->mem_read(xm->be->state, xm->mem, 0, host, xm->bytes);
}

void *frx_xchg_matrix_host(frx_xchg_matrix *xm) { return xm->host; }
size_t frx_xchg_matrix_n(const frx_xchg_matrix *xm) { return xm->n; }
size_t frx_xchg_matrix_bytes(const frx_xchg_matrix *xm) { return xm->bytes; }

int frx_xchg_matrix_to_host(frx_xchg_matrix *xm)
{
    if (!xm->own_host)
        return FRX_OK;
    return xm->be->ops->mem_read(xm->be->state, xm->mem, 0, xm->host,
                                 xm->bytes);
}

int frx_xchg_matrix_to_device(frx_xchg_matrix *xm)
{
    if (!xm->own_host)
        return FRX_OK;
    return xm->be->ops->mem_write(xm->be->state, xm->mem, 0, xm->host,
                                  xm->bytes);
}

/* Host-staged MPI: the copy to or from the mirror without waiting where
 * the backend can (*done to wait for), else a copy that returns when it
 * is done (*done NULL). */
int frx__xchg_copy_start(frx_xchg_matrix *xm, int to_host, void **done)
{
    const frx_backend_ops *ops = xm->be->ops;
    *done = NULL;
    if (!xm->own_host)
        return FRX_OK;
    if (xm->host_handle && FRX__OPS_HAS(ops, copy_start) &&
        FRX__OPS_HAS(ops, copy_wait))
        return ops->copy_start(xm->be->state, xm->mem, xm->host, xm->bytes,
                               to_host, done);
    return to_host ? frx_xchg_matrix_to_host(xm)
                   : frx_xchg_matrix_to_device(xm);
}

int frx__xchg_copy_wait(frx_backend *be, void *done)
{
    return done ? be->ops->copy_wait(be->state, done) : FRX_OK;
}

/* --------------------------------------------------------- xchg views */

static frx_pack_args pack_args(const frx_view *v, frx_xchg_matrix *xm)
{
    return (frx_pack_args){
        .size = sizeof(frx_pack_args), .base = v->alloc->mem,
        .xchg = xm->mem, .off = v->off, .rstride = v->rstride,
        .off_mem = v->off_mem, .rstride_mem = v->rstride_mem,
        .runs = v->runs, .nruns = v->nruns, .n = v->n, .nvrow = v->nvrow,
        .nvcol = v->nvcol, .cstride = v->cstride, .elsize = v->be->fpsize};
}

int frx_xchg_view_create(frx_view *v, frx_xchg_view **out)
{
    if (!v || !out)
        return frx_error(FRX_EINVAL, "frx_xchg_view_create: NULL argument");
    frx_xchg_view *xv = frx__calloc(1, sizeof *xv, "an xchg view");
    if (!xv)
        return FRX_ENOMEM;
    int rc = frx_xchg_matrix_create(v->be, v->n, v->nvrow, v->nvcol, &xv->xm);
    if (rc) {
        free(xv);
        return rc;
    }
    xv->view = v; /* held: a pack reads its offsets and allocation */
    xv->refs = 1;
    v->refs++;
    xv->args[0] = xv->args[1] = pack_args(v, xv->xm);
    xv->args[1].flags = FRX_EXEC_NO_WAITERS;
    *out = xv;
    return FRX_OK;
}

/* Drops one reference (the creator's or a graph's); the last one drops
 * its view and xchg matrix, which live on while others hold them. */
void frx_xchg_view_destroy(frx_xchg_view *xv)
{
    if (!xv || --xv->refs > 0)
        return;
    frx_xchg_matrix_destroy(xv->xm);
    frx_view_destroy(xv->view);
    free(xv);
}

frx_xchg_matrix *frx_xchg_view_matrix(frx_xchg_view *xv) { return xv->xm; }


int frx_xchg_view_pack(frx_xchg_view *xv) { return frx__xchg_move(xv, 1, 0); }

int frx_xchg_view_unpack(frx_xchg_view *xv)
{
    if (!xv)
        return frx_error(FRX_EINVAL, "frx_xchg_view_unpack: NULL argument");
    int rc = frx__refuse_const(xv->view->alloc, "frx_xchg_view_unpack");
    if (!rc && !xv->unpack_ok &&
        !(rc = frx__refuse_repeats(xv->view, "frx_xchg_view_unpack")))
        xv->unpack_ok = 1;
    return rc ? rc : frx__xchg_move(xv, 0, 0);
}

int frx__xchg_move(frx_xchg_view *xv, int pack, uint32_t flags)
{
    frx_backend *be = xv->view->be;
    const frx_pack_args *a = &xv->args[(flags & FRX_EXEC_NO_WAITERS) != 0];
    double t0 = frx__timer_start();
    int rc = (pack ? be->ops->pack : be->ops->unpack)(be->state, a);
    frx__timer_stop(pack ? &be->t_pack : &be->t_unpack, t0);
    return rc;
}

int frx_xchg_view_snapshot(frx_xchg_view *xv, frx_xchg_matrix **out)
{
    if (!xv || !out)
        return frx_error(FRX_EINVAL, "frx_xchg_view_snapshot: NULL argument");
    const frx_view *v = xv->view;
    frx_xchg_matrix *xm;
    int rc = frx_xchg_matrix_create(v->be, v->n, v->nvrow, v->nvcol, &xm);
    if (rc)
        return rc;
    frx_pack_args a = pack_args(v, xm);
    rc = v->be->ops->pack(v->be->state, &a);
    if (rc == FRX_OK)
        rc = frx_backend_sync(v->be);
    if (rc) {
        frx_xchg_matrix_destroy(xm);
        return rc;
    }
    *out = xm;
    return FRX_OK;
}
