/* SPDX-License-Identifier: BSD-3-Clause */
/* The vendor primitives (struct gpu_vendor) over a driver's calls
 * (struct gpu_api), once for cuda and hip: each call on the backend's
 * stream where it takes one, its failure mapped to an frx error that
 * names the vendor, what was being done, the call and the driver's own
 * description. */
#include "gpu.h"

#include <stdarg.h>
#include <stdio.h>

int frx_gpu_fail(const struct gpu *g, int rc, const char *call,
                 const char *fmt, ...)
{
    char what[256], why[400] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (g->api && g->api->describe)
        g->api->describe(g, rc, why, sizeof why);
    else
        snprintf(why, sizeof why, "error %d", rc);
    int code = g->api && rc == g->api->out_of_memory ? FRX_ENOMEM
                                                     : FRX_EBACKEND;
    return frx_error(code, "%s: %s: %s failed: %s", g->vendor, what, call,
                     why);
}

/* A call whose failure is only logged (freeing: nothing to undo). */
static void warn_failed(const struct gpu *g, int rc, const char *call)
{
    if (!rc)
        return;
    char why[400];
    g->api->describe(g, rc, why, sizeof why);
    frx_log(FRX_LOG_WARN, "%s: %s failed: %s", g->vendor, call, why);
}

int frx_gpu_drv_alloc(struct gpu *g, size_t bytes, uint64_t *addr)
{
    gpu_dptr p = 0;
    int rc = g->api->mem_alloc(&p, bytes);
    *addr = p;
    return rc ? frx_gpu_fail(g, rc, g->api->name.mem_alloc, "allocating %zu "
                             "bytes on '%s'", bytes, g->device) : FRX_OK;
}

void frx_gpu_drv_free(struct gpu *g, uint64_t addr)
{
    warn_failed(g, g->api->mem_free(addr), g->api->name.mem_free);
}

int frx_gpu_drv_host_alloc(struct gpu *g, size_t bytes, void **host)
{
    int rc = g->api->host_alloc(host, bytes, g->api->host_alloc_flags);
    return rc ? frx_gpu_fail(g, rc, g->api->name.host_alloc, "allocating "
                             "%zu bytes of pinned host memory", bytes)
              : FRX_OK;
}

void frx_gpu_drv_host_free(struct gpu *g, void *host)
{
    warn_failed(g, g->api->host_free(host), g->api->name.host_free);
}

int frx_gpu_drv_zero(struct gpu *g, uint64_t addr, size_t bytes)
{
    int rc = g->api->memset_async(addr, 0, bytes, g->stream);
    return rc ? frx_gpu_fail(g, rc, g->api->name.memset_async, "zeroing %zu "
                             "bytes", bytes) : FRX_OK;
}

int frx_gpu_drv_copy(struct gpu *g, uint64_t addr, void *host, size_t bytes,
                     int to_host)
{
    const struct gpu_api *a = g->api;
    int rc = to_host ? a->copy_to_host(host, addr, bytes, g->stream)
                     : a->copy_to_device(addr, host, bytes, g->stream);
    return rc ? frx_gpu_fail(g, rc, to_host ? a->name.copy_to_host
                                            : a->name.copy_to_device,
                             "copying %zu bytes %s the device", bytes,
                             to_host ? "from" : "to") : FRX_OK;
}

int frx_gpu_drv_event_new(struct gpu *g, void **ev)
{
    *ev = NULL;
    int rc = g->api->event_create(ev, g->api->event_flags);
    return rc ? frx_gpu_fail(g, rc, g->api->name.event_create, "an event")
              : FRX_OK;
}

void frx_gpu_drv_event_free(struct gpu *g, void *ev)
{
    g->api->event_destroy(ev);
}

int frx_gpu_drv_record(struct gpu *g, void *ev)
{
    int rc = g->api->event_record(ev, g->stream);
    return rc ? frx_gpu_fail(g, rc, g->api->name.event_record, "an event")
              : FRX_OK;
}

int frx_gpu_drv_event_wait(struct gpu *g, void *ev)
{
    int rc = g->api->event_wait(ev);
    return rc ? frx_gpu_fail(g, rc, g->api->name.event_wait, "waiting for a "
                             "copy on '%s'", g->device) : FRX_OK;
}

int frx_gpu_drv_stream_wait(struct gpu *g)
{
    int rc = g->api->stream_wait(g->stream);
    return rc ? frx_gpu_fail(g, rc, g->api->name.stream_wait, "waiting for "
                             "'%s'", g->device) : FRX_OK;
}

int frx_gpu_drv_module_load(struct gpu *g, const void *image, size_t size,
                            void **mod)
{
    (void)size; /* a CUBIN or code object says its own size */
    *mod = NULL;
    int rc = g->api->module_load(mod, image);
    return rc ? frx_gpu_fail(g, rc, g->api->name.module_load, "loading %s "
                             "code", g->arch) : FRX_OK;
}

void frx_gpu_drv_module_free(struct gpu *g, void *mod)
{
    g->api->module_unload(mod);
}

int frx_gpu_drv_function(struct gpu *g, void *mod, const char *entry,
                         void **fn)
{
    *fn = NULL;
    int rc = g->api->module_function(fn, mod, entry);
    return rc ? frx_gpu_fail(g, rc, g->api->name.module_function, "function "
                             "'%s'", entry) : FRX_OK;
}

int frx_gpu_drv_launch(struct gpu *g, void *fn, const unsigned grid[2],
                       unsigned block, void **params)
{
    int rc = g->api->launch(fn, grid[0], grid[1], 1, block, 1, 1, 0,
                            g->stream, params, NULL);
    return rc ? frx_gpu_fail(g, rc, g->api->name.launch, "%u x %u blocks of "
                             "%u threads", grid[0], grid[1], block) : FRX_OK;
}
