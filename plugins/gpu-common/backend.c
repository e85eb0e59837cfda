/* SPDX-License-Identifier: BSD-3-Clause */
/* Memory, copies and waits of a GPU backend over its vendor's primitives.
 * One in-order stream carries every command, so a command runs after
 * everything frx issued before it. The host waits for an event recorded
 * after the command it needs, or for the stream; g->idle says nothing
 * was issued since the last wait for the stream, so that a sync that
 * follows another costs nothing. */
#include "gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Allocations are whole 128-byte lines. */
static size_t padded_size(size_t bytes)
{
    size_t a = FRX_GPU_ALIGNMENT;
    return bytes ? (bytes + a - 1) / a * a : a;
}

static int copy(struct gpu *g, uint64_t addr, void *host, size_t bytes,
                int to_host)
{
    g->idle = 0;
    return g->vd->copy(g, addr, host, bytes, to_host);
}

int frx_gpu_launch(struct gpu *g, void *fn, size_t n, size_t nrows,
                   void **params, const char *what)
{
    return frx_gpu_launch_block(g, fn, n, nrows, 0, params, what);
}

int frx_gpu_launch_block(struct gpu *g, void *fn, size_t n, size_t nrows,
                         unsigned block, void **params, const char *what)
{
    struct gpu_limits lim = g->lim;
    if (block)
        lim.block = block;
    unsigned grid[2];
    int rc = frx_gpu_geometry(&lim, n, nrows, what, grid);
    if (rc)
        return rc;
    g->idle = 0;
    snprintf(g->last_launch, sizeof g->last_launch, "%s", what);
    return g->vd->launch(g, fn, grid, lim.block, params);
}

/* A kernel's fault is reported by the next wait, not by its launch:
 * a failed wait names what was launched last. */
static int waited(struct gpu *g, int rc)
{
    if (rc == FRX_OK || !g->last_launch[0])
        return rc;
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", frx_errmsg());
    return frx_error(rc, "%s (the last launch before this wait: %s; a "
                     "fault in a kernel is reported at the next wait)", msg,
                     g->last_launch);
}

int frx_gpu_sync(void *state)
{
    struct gpu *g = state;
    if (g->idle)
        return FRX_OK;
    int rc = waited(g, g->vd->stream_wait(g));
    if (rc == FRX_OK) {
        g->idle = 1;
        g->last_launch[0] = '\0'; /* all it launched ran */
    }
    return rc;
}

size_t frx_gpu_events_made(void *state)
{
    return ((const struct gpu *)state)->records;
}

/* Before memory goes back: nothing issued may still use it. */
static void drain(struct gpu *g, const char *what)
{
    if (frx_gpu_sync(g) != FRX_OK)
        frx_log(FRX_LOG_WARN, "%s: freeing %s: %s", g->vendor, what,
                frx_errmsg());
}

/* Zeroed, as openmp's memory is: padding never holds garbage. */
int frx_gpu_mem_alloc(void *state, size_t bytes, void **mem)
{
    struct gpu *g = state;
    size_t padded = padded_size(bytes);
    uint64_t addr = 0;
    int rc = g->vd->alloc(g, padded, &addr);
    if (rc)
        return rc;
    g->idle = 0;
    rc = g->vd->zero(g, addr, padded);
    if (rc) {
        /* the zeroing's message, not that of a wait that fails after it */
        char *why = strdup(frx_errmsg());
        drain(g, "device memory");
        g->vd->free(g, addr);
        if (why)
            frx_error(rc, "%s", why);
        free(why);
        return rc;
    }
    *mem = (void *)(uintptr_t)addr;
    return FRX_OK;
}

void frx_gpu_mem_free(void *state, void *mem)
{
    struct gpu *g = state;
    drain(g, "device memory");
    g->vd->free(g, frx_gpu_addr(mem));
}

/* Reads and writes return once done: the caller may reuse its memory. */
static int transfer(struct gpu *g, void *mem, size_t off, void *host,
                    size_t bytes, int to_host)
{
    if (!bytes)
        return FRX_OK;
    int rc = copy(g, frx_gpu_addr(mem) + off, host, bytes, to_host);
    return rc ? rc : frx_gpu_sync(g);
}

int frx_gpu_mem_write(void *state, void *mem, size_t off, const void *src,
                      size_t bytes)
{
    return transfer(state, mem, off, (void *)src, bytes, 0);
}

int frx_gpu_mem_read(void *state, void *mem, size_t off, void *dst,
                     size_t bytes)
{
    return transfer(state, mem, off, dst, bytes, 1);
}

/* Host mirrors of xchg matrices: pinned, so copies to and from them are
 * asynchronous and at full speed. The handle is the address. */
int frx_gpu_host_alloc(void *state, size_t bytes, void **host, void **handle)
{
    struct gpu *g = state;
    size_t padded = padded_size(bytes);
    void *p = NULL;
    int rc = g->vd->host_alloc(g, padded, &p);
    if (rc)
        return rc;
    memset(p, 0, padded);
    *host = *handle = p;
    return FRX_OK;
}

void frx_gpu_host_free(void *state, void *handle)
{
    struct gpu *g = state;
    drain(g, "pinned host memory");
    g->vd->host_free(g, handle);
}

/* ------------------------------------------------------------- events */

static int event_take(struct gpu *g, void **ev)
{
    if (g->nspare) {
        *ev = g->spare[--g->nspare];
        return FRX_OK;
    }
    return g->vd->event_new(g, ev);
}

static void event_give(struct gpu *g, void *ev)
{
    if (g->nspare == g->capspare) {
        size_t cap = g->capspare ? 2 * g->capspare : 8;
        void **s = realloc(g->spare, cap * sizeof *s);
        if (!s) {
            g->vd->event_free(g, ev);
            return;
        }
        g->spare = s;
        g->capspare = cap;
    }
    g->spare[g->nspare++] = ev;
}

/* The copy, then an event after it for copy_wait. Should no event be
 * had, the copy is waited for here and *done is NULL (nothing to wait
 * for later). */
int frx_gpu_copy_start(void *state, void *mem, void *host, size_t bytes,
                       int to_host, void **done)
{
    struct gpu *g = state;
    *done = NULL;
    void *ev = NULL;
    int rc = copy(g, frx_gpu_addr(mem), host, bytes, to_host);
    if (rc)
        return rc;
    if (event_take(g, &ev) == FRX_OK) {
        g->idle = 0;
        if (g->vd->record(g, ev) == FRX_OK) {
            g->records++;
            *done = ev;
            return FRX_OK;
        }
        event_give(g, ev);
    }
    frx_log(FRX_LOG_DEBUG, "%s: no event for a copy (%s): waiting for the "
            "stream", g->vendor, frx_errmsg());
    return frx_gpu_sync(g);
}

int frx_gpu_copy_wait(void *state, void *done)
{
    struct gpu *g = state;
    int rc = waited(g, g->vd->event_wait(g, done));
    event_give(g, done);
    return rc;
}

/* ------------------------------------------------------ start and stop */

void frx_gpu_stop(struct gpu *g)
{
    drain(g, "the backend");
    struct gpu_pack_set *sets[GPU_PACK_SHAPES + 1];
    int n = 0;
    sets[n++] = &g->pack_any;
    for (int i = 0; i < g->npack_shapes; i++)
        sets[n++] = &g->pack_shapes[i];
    for (int i = 0; i < n; i++)
        if (sets[i]->mod)
            g->vd->module_free(g, sets[i]->mod);
    for (size_t i = 0; i < g->nspare; i++)
        g->vd->event_free(g, g->spare[i]);
    free(g->spare);
    free(g->vals);
    free(g->ptrs);
    g->spare = NULL;
    g->vals = NULL;
    g->ptrs = NULL;
    g->nspare = g->capspare = g->capparams = 0;
    g->npack_shapes = 0;
    g->pack_any.mod = NULL;
}

int frx_gpu_describe(const struct gpu *g, unsigned warp, const char *what,
                     const struct gpu_device *dev, const char *mpi_kind,
                     frx_backend_info *info)
{
    if (warp == 0 || warp > 1024)
        return frx_error(FRX_EBACKEND, "%s: '%s' reports a %s of %u "
                         "threads", g->vendor, dev->name, what, warp);
    info->soasz = warp;
    info->alignment = FRX_GPU_ALIGNMENT;
    info->host_accessible = 0;
    snprintf(info->device, sizeof info->device, "%.60s (%.16s, %.45s)",
             dev->name, dev->arch, dev->id);
    if (FRX_SIZE_HOLDS(frx_backend_info, info, mpi_device_kind))
        info->mpi_device_kind = mpi_kind;
    return FRX_OK;
}
