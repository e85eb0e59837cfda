/* SPDX-License-Identifier: BSD-3-Clause */
/* opencl events: hazards per buffer on an out-of-order queue. frx runs
 * a graph's nodes one after another, so the buffers each command reads
 * and writes say what it must wait for: a command that reads a buffer
 * waits for its last writer; one that writes it waits for that writer
 * and every reader since. Commands on different buffers overlap. Each
 * buffer holds one reference to each event it keeps.
 *
 * What the graph does tell: a node no later node depends on (flags
 * FRX_EXEC_NO_WAITERS) is enqueued without an event, its buffers marked
 * pending. A later command that must follow a pending one (reads what it
 * wrote, or writes what it touched) first enqueues a marker, which on an
 * out-of-order queue waits for every command before it, and waits for
 * that: one event for however many pending commands, made only when one
 * is needed. */
#include "opencl.h"

#include <stdlib.h>

#define LIST_MIN 8 /* first capacity of every list */

static void release(cl_event e)
{
    cl_int err = clReleaseEvent(e);
    if (err != CL_SUCCESS)
        frx_log(FRX_LOG_WARN, "opencl: clReleaseEvent failed: %s (%d)",
                frx_opencl_errname(err), (int)err);
}

/* One more reference to e, for one more buffer: 1. Should OpenCL refuse
 * it, wait for the command instead, which then needs no tracking: 0. */
static int hold(cl_event e)
{
    cl_int err = clRetainEvent(e);
    if (err == CL_SUCCESS)
        return 1;
    frx_log(FRX_LOG_WARN, "opencl: clRetainEvent failed: %s (%d); waiting "
            "for the command", frx_opencl_errname(err), (int)err);
    err = clWaitForEvents(1, &e);
    if (err != CL_SUCCESS)
        frx_log(FRX_LOG_WARN, "opencl: clWaitForEvents failed: %s (%d)",
                frx_opencl_errname(err), (int)err);
    return 0;
}

static int finished(cl_event e)
{
    cl_int st = CL_QUEUED;
    cl_int err = clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                sizeof st, &st, NULL);
    return err == CL_SUCCESS && st <= CL_COMPLETE; /* < 0: it failed */
}

/* p (of *cap items of size bytes) with room for more, or NULL. */
static void *grow(void *p, size_t *cap, size_t size)
{
    size_t n = *cap ? 2 * *cap : LIST_MIN;
    void *q = realloc(p, n * size);
    if (q)
        *cap = n;
    return q;
}

static void drop_writer(struct ocl_mem *m)
{
    if (m->writer)
        release(m->writer);
    m->writer = NULL;
}

static void drop_readers(struct ocl_mem *m)
{
    for (size_t i = 0; i < m->nreaders; i++)
        release(m->readers[i]);
    m->nreaders = 0;
}

/* Room for one more reader. A buffer that is read over and over and
 * never written (a constant operator) would gather readers without end:
 * those that finished are dropped first. */
static int reserve_reader(struct ocl_mem *m)
{
    if (m->nreaders < m->cap)
        return 0;
    size_t k = 0;
    for (size_t i = 0; i < m->nreaders; i++) {
        if (finished(m->readers[i]))
            release(m->readers[i]);
        else
            m->readers[k++] = m->readers[i];
    }
    m->nreaders = k;
    if (k < m->cap)
        return 0;
    cl_event *r = grow(m->readers, &m->cap, sizeof *r);
    if (!r)
        return -1;
    m->readers = r;
    return 0;
}

void frx_opencl_mem_forget(struct ocl_state *s, struct ocl_mem *m)
{
    if (m->pending)
        for (size_t i = 0; i < s->npending; i++)
            if (s->pending[i] == m) {
                s->pending[i] = s->pending[--s->npending];
                break;
            }
    m->pending = 0;
    drop_writer(m);
    drop_readers(m);
    free(m->readers);
    m->readers = NULL;
    m->cap = 0;
}

void frx_opencl_deps_begin(struct ocl_state *s, uint32_t flags)
{
    s->deps.nuse = 0;
    s->deps.nwait = 0;
    s->deps.nomem = 0;
    s->deps.no_event = (flags & FRX_EXEC_NO_WAITERS) != 0;
}

void frx_opencl_deps_synced(struct ocl_state *s)
{
    for (size_t i = 0; i < s->npending; i++)
        s->pending[i]->pending = 0;
    s->npending = 0;
}

/* A marker after every pending command becomes the writer of their
 * buffers (the readers since go: the marker follows them too). Should
 * the marker fail, wait for the queue instead. */
static int flush_pending(struct ocl_state *s)
{
    cl_event mark = NULL;
    cl_int err = clEnqueueMarkerWithWaitList(s->queue, 0, NULL, &mark);
    if (err != CL_SUCCESS) {
        err = clFinish(s->queue);
        if (err != CL_SUCCESS)
            return frx_opencl_fail(err, "clFinish", "waiting for commands "
                                   "made without events");
        frx_opencl_deps_synced(s);
        return FRX_OK;
    }
    s->nevents++;
    for (size_t i = 0; i < s->npending; i++) {
        struct ocl_mem *m = s->pending[i];
        drop_writer(m);
        drop_readers(m);
        if (hold(mark))
            m->writer = mark;
        m->pending = 0;
    }
    s->npending = 0;
    release(mark);
    return FRX_OK;
}

/* A command made without an event touched m: mark it pending. Should
 * the list not grow, wait for the queue instead. */
static void mark_pending(struct ocl_state *s, struct ocl_mem *m, int bits)
{
    if (!m->pending && s->npending == s->cappending) {
        struct ocl_mem **p = grow(s->pending, &s->cappending, sizeof *p);
        if (!p) {
            cl_int err = clFinish(s->queue);
            if (err != CL_SUCCESS)
                frx_log(FRX_LOG_WARN, "opencl: clFinish failed: %s (%d)",
                        frx_opencl_errname(err), (int)err);
            frx_opencl_deps_synced(s);
            return;
        }
        s->pending = p;
    }
    if (!m->pending)
        s->pending[s->npending++] = m;
    m->pending |= bits;
}

void frx_opencl_deps_use(struct ocl_state *s, void *mem, int access)
{
    struct ocl_deps *d = &s->deps;
    if (!s->out_of_order || !mem)
        return;
    for (size_t i = 0; i < d->nuse; i++)
        if (d->use[i].m == mem) { /* one buffer, two parameters */
            d->use[i].access |= access;
            return;
        }
    if (d->nuse == d->capuse) {
        struct ocl_use *u = grow(d->use, &d->capuse, sizeof *u);
        if (!u) {
            d->nomem = 1;
            return;
        }
        d->use = u;
    }
    d->use[d->nuse++] = (struct ocl_use){mem, access};
}

/* e on the wait list, once. */
static void wait_for(struct ocl_deps *d, cl_event e)
{
    for (size_t i = 0; i < d->nwait; i++)
        if (d->wait[i] == e)
            return;
    if (d->nwait == d->capwait) {
        cl_event *w = grow(d->wait, &d->capwait, sizeof *w);
        if (!w) {
            d->nomem = 1;
            return;
        }
        d->wait = w;
    }
    d->wait[d->nwait++] = e;
}

/* Also makes room for the command among the readers, so that recording
 * it after its enqueue cannot fail. */
int frx_opencl_deps_wait(struct ocl_state *s, cl_uint *n,
                         const cl_event **list)
{
    struct ocl_deps *d = &s->deps;
    *n = 0;
    *list = NULL;
    if (!s->out_of_order)
        return FRX_OK;
    for (size_t i = 0; i < d->nuse; i++) {
        const struct ocl_mem *m = d->use[i].m;
        int must_follow = (d->use[i].access & FRX_ACCESS_WRITE)
                              ? m->pending : m->pending & OCL_PENDING_WRITE;
        if (must_follow) {
            int rc = flush_pending(s);
            if (rc)
                return rc;
            break;
        }
    }
    for (size_t i = 0; i < d->nuse; i++) {
        struct ocl_mem *m = d->use[i].m;
        if (m->writer)
            wait_for(d, m->writer);
        if (d->use[i].access & FRX_ACCESS_WRITE)
            for (size_t r = 0; r < m->nreaders; r++)
                wait_for(d, m->readers[r]);
        else if (reserve_reader(m) != 0)
            d->nomem = 1;
    }
    if (d->nomem)
        return frx_error(FRX_ENOMEM, "opencl: out of memory for the events "
                         "of a command");
    *n = (cl_uint)d->nwait;
    *list = d->nwait ? d->wait : NULL;
    return FRX_OK;
}

cl_event *frx_opencl_event_out(struct ocl_state *s, cl_event *ev)
{
    if (!s->out_of_order || s->deps.no_event)
        return NULL;
    s->nevents++;
    return ev;
}

void frx_opencl_deps_enqueued(struct ocl_state *s, cl_event ev)
{
    const struct ocl_deps *d = &s->deps;
    if (!s->out_of_order)
        return;
    if (!ev) { /* made without an event: the command waited for them */
        for (size_t i = 0; d->no_event && i < d->nuse; i++) {
            struct ocl_mem *m = d->use[i].m;
            int write = d->use[i].access & FRX_ACCESS_WRITE;
            if (write) {
                drop_writer(m);
                drop_readers(m);
            }
            mark_pending(s, m, write ? OCL_PENDING_WRITE : OCL_PENDING_READ);
        }
        return;
    }
    for (size_t i = 0; i < d->nuse; i++) {
        struct ocl_mem *m = d->use[i].m;
        if (d->use[i].access & FRX_ACCESS_WRITE) {
            /* the command waits for them: it stands for them now */
            drop_writer(m);
            drop_readers(m);
            if (hold(ev))
                m->writer = ev;
        } else if (hold(ev)) {
            m->readers[m->nreaders++] = ev; /* room made by deps_wait */
        }
    }
    release(ev);
}

int frx_opencl_deps_enqueued_all(struct ocl_state *s, cl_event *ev,
                                 size_t n)
{
    if (n <= 1) {
        frx_opencl_deps_enqueued(s, n ? ev[0] : NULL);
        return FRX_OK;
    }
    cl_event all = NULL;
    cl_int err = clEnqueueMarkerWithWaitList(s->queue, (cl_uint)n, ev, &all);
    if (err == CL_SUCCESS)
        s->nevents++;
    if (err != CL_SUCCESS) { /* no event stands for them: let them end */
        cl_int werr = clWaitForEvents((cl_uint)n, ev);
        if (werr != CL_SUCCESS)
            frx_log(FRX_LOG_WARN, "opencl: clWaitForEvents failed: %s (%d)",
                    frx_opencl_errname(werr), (int)werr);
    }
    for (size_t i = 0; i < n; i++)
        release(ev[i]);
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, "clEnqueueMarkerWithWaitList",
                               "joining %zu commands", n);
    frx_opencl_deps_enqueued(s, all);
    return FRX_OK;
}

void frx_opencl_deps_completed(struct ocl_state *s)
{
    const struct ocl_deps *d = &s->deps;
    if (!s->out_of_order)
        return;
    for (size_t i = 0; i < d->nuse; i++) {
        drop_writer(d->use[i].m); /* it waited for it */
        if (d->use[i].access & FRX_ACCESS_WRITE)
            drop_readers(d->use[i].m);
    }
}

void frx_opencl_deps_free(struct ocl_state *s)
{
    free(s->deps.use);
    free(s->deps.wait);
    s->deps = (struct ocl_deps){0};
    free(s->pending);
    s->pending = NULL;
    s->npending = s->cappending = 0;
}
