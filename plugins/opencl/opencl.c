/* SPDX-License-Identifier: BSD-3-Clause */
/* opencl backend: any OpenCL device through the ICD loader. Memory is
 * buffers (the mem handle is a struct ocl_mem around the cl_mem). Every
 * command goes to one queue: out of order where the device has it, each
 * command waiting for the commands before it on the same buffers
 * (events.c); else in order, so work runs in the order frx issues it. */
#include "opencl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OCL_PAD 64 /* buffers are whole 64-byte lines */

static const frx_option ocl_options[] = {
    {.key = "platform", .type = FRX_OPT_STRING, .def = "0",
     .help = "platform: its index, or part of its name"},
    {.key = "device", .type = FRX_OPT_STRING, .def = "local-rank",
     .help = "device on the platform: its index, part of its name, or "
             "local-rank (the rank's index among its node's ranks on this "
             "backend, modulo the devices)"},
    {.key = "device-type", .type = FRX_OPT_ENUM,
     .choices = "all|cpu|gpu|accelerator", .def = "all",
     .help = "the kinds of device to choose from"},
    {.key = "build-options", .type = FRX_OPT_STRING, .def = "",
     .help = "options for clBuildProgram, e.g. -cl-mad-enable"},
    {.key = "queue", .type = FRX_OPT_ENUM, .choices = "auto|in-order",
     .def = "auto",
     .help = "auto: an out-of-order queue where the device has one, "
             "commands ordered by the buffers they share; in-order: every "
             "command after the one before"},
    {.key = "binaries", .type = FRX_OPT_ENUM, .choices = "auto|on|off",
     .def = "auto",
     .help = "keep each built program's binary in frx's disk cache: auto "
             "(on, except on PoCL with its own kernel cache on: PoCL "
             "compiles every kernel a second time to give out a binary, "
             "and its cache finds the build again anyway), on, off"},
    {0}};

enum { QUEUE_AUTO, QUEUE_IN_ORDER };
enum { BINARIES_AUTO, BINARIES_ON, BINARIES_OFF };

/* PoCL keeps a cache of its builds unless POCL_KERNEL_CACHE is 0. */
static int caches_own_builds(const struct ocl_state *s)
{
    const char *env = getenv("POCL_KERNEL_CACHE");
    return strstr(s->platform_name, "Portable Computing Language") &&
           !(env && strcmp(env, "0") == 0);
}

static void choose_binaries(struct ocl_state *s, int mode)
{
    s->keep_binaries = mode == BINARIES_ON ||
                       (mode == BINARIES_AUTO && !caches_own_builds(s));
    if (mode == BINARIES_AUTO && !s->keep_binaries)
        frx_log(FRX_LOG_DEBUG, "opencl: %s keeps its own cache of builds: "
                "frx keeps no program binaries (backend.opencl.binaries)",
                s->platform_name);
}

/* Work-items per group of pack/unpack and kernel launches (fewer where a
 * kernel allows fewer): a CPU device runs a group as one loop, so wider
 * groups cost it less; 64 fills a GPU's multiprocessors. */
static size_t local_size_for(cl_device_id d)
{
    cl_device_type t = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    return t & CL_DEVICE_TYPE_CPU ? 256 : 64;
}

static void ocl_destroy(void *state)
{
    struct ocl_state *s = state;
    if (!s)
        return;
    if (s->queue)
        clFinish(s->queue);
    frx_opencl_pack_free(s);
    frx_opencl_deps_free(s);
    if (s->queue)
        clReleaseCommandQueue(s->queue);
    if (s->ctx)
        clReleaseContext(s->ctx);
    free(s);
}

/* Out of order where the device has it and queue: auto; a device that
 * reports it and then refuses it gets an in-order queue. */
static int make_queue(struct ocl_state *s, int mode)
{
    cl_command_queue_properties have = 0;
    cl_int err = clGetDeviceInfo(s->device, CL_DEVICE_QUEUE_PROPERTIES,
                                 sizeof have, &have, NULL);
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, "clGetDeviceInfo", "the queue properties "
                               "of '%s'", s->device_name);
    cl_command_queue_properties props =
        frx_opencl_queue_props(have, mode == QUEUE_IN_ORDER);
    s->queue = clCreateCommandQueue(s->ctx, s->device, props, &err);
    if (!s->queue && props) {
        frx_log(FRX_LOG_DEBUG, "opencl: '%s' refuses an out-of-order queue: "
                "%s (%d)", s->device_name, frx_opencl_errname(err), (int)err);
        props = 0;
        s->queue = clCreateCommandQueue(s->ctx, s->device, props, &err);
    }
    if (!s->queue)
        return frx_opencl_fail(err, "clCreateCommandQueue", "device '%s'",
                               s->device_name);
    s->out_of_order = props != 0;
    frx_log(FRX_LOG_DEBUG, "opencl: '%s': %s%s", s->device_name,
            frx_opencl_queue_name(props),
            s->out_of_order ? ", commands wait for those on their buffers"
            : mode == QUEUE_IN_ORDER ? " (backend.opencl.queue: in-order)"
                                     : " (the device has no out-of-order "
                                       "execution)");
    return FRX_OK;
}

static int start_device(struct ocl_state *s, int mode)
{
    cl_int err;
    cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)s->platform, 0};
    s->ctx = clCreateContext(props, 1, &s->device, NULL, NULL, &err);
    if (!s->ctx)
        return frx_opencl_fail(err, "clCreateContext", "device '%s'",
                               s->device_name);
    int rc = make_queue(s, mode);
    if (rc)
        return rc;
    s->local_size = local_size_for(s->device);
    return frx_opencl_pack_init(s);
}

static int ocl_create(const frx_backend_init *init, frx_backend_info *info,
                      void **state)
{
    struct ocl_state *s = calloc(1, sizeof *s);
    if (!s)
        return frx_error(FRX_ENOMEM, "opencl: out of memory");
    s->precision = init->precision;
    int mode = QUEUE_AUTO, binaries = BINARIES_AUTO;
    int rc = frx_cfg_enum(init->options, "queue", "auto|in-order", QUEUE_AUTO,
                          &mode);
    if (rc == FRX_OK)
        rc = frx_cfg_enum(init->options, "binaries", "auto|on|off",
                          BINARIES_AUTO, &binaries);
    if (rc == FRX_OK)
        rc = frx_opencl_choose(init, s);
    if (rc == FRX_OK)
        choose_binaries(s, binaries);
    if (rc == FRX_OK)
        rc = start_device(s, mode);
    cl_uint align_bits = 0;
    cl_int err = rc ? CL_SUCCESS
                    : clGetDeviceInfo(s->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                      sizeof align_bits, &align_bits, NULL);
    if (err != CL_SUCCESS)
        rc = frx_opencl_fail(err, "clGetDeviceInfo", "device '%s'",
                             s->device_name);
    if (rc) {
        ocl_destroy(s);
        return rc;
    }
    info->alignment = frx_opencl_alignment(align_bits);
    info->soasz = init->precision == FRX_SINGLE ? 32 : 16;
    info->host_accessible = 0;
    cl_device_type type = 0;
    if (FRX_SIZE_HOLDS(frx_backend_info, info, host_cpu_device) &&
        clGetDeviceInfo(s->device, CL_DEVICE_TYPE, sizeof type, &type,
                        NULL) == CL_SUCCESS)
        info->host_cpu_device = (type & CL_DEVICE_TYPE_CPU) != 0;
    snprintf(info->device, sizeof info->device, "%.40s: %.60s, %s",
             s->platform_name, s->device_name,
             frx_opencl_queue_name(s->out_of_order
                                       ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
                                       : 0));
    *state = s;
    return FRX_OK;
}

static size_t padded_size(size_t bytes)
{
    return bytes ? (bytes + OCL_PAD - 1) / OCL_PAD * OCL_PAD : OCL_PAD;
}

static void release_mem(cl_mem m)
{
    cl_int err = clReleaseMemObject(m); /* freed once its work is done */
    if (err != CL_SUCCESS)
        frx_log(FRX_LOG_WARN, "opencl: clReleaseMemObject failed: %s (%d)",
                frx_opencl_errname(err), (int)err);
}

/* Zeroed, as openmp's memory is: padding never holds garbage. The fill
 * is the buffer's first writer. */
static int zero(struct ocl_state *s, struct ocl_mem *m, size_t padded)
{
    const cl_ulong zeros = 0;
    cl_uint n;
    const cl_event *wait;
    frx_opencl_deps_begin(s, 0);
    frx_opencl_deps_use(s, m, FRX_ACCESS_WRITE);
    int rc = frx_opencl_deps_wait(s, &n, &wait);
    if (rc)
        return rc;
    cl_event ev = NULL;
    cl_int err = clEnqueueFillBuffer(s->queue, m->mem, &zeros, sizeof zeros,
                                     0, padded, n, wait,
                                     frx_opencl_event_out(s, &ev));
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, "clEnqueueFillBuffer", "zeroing %zu "
                               "bytes on '%s'", padded, s->device_name);
    frx_opencl_deps_enqueued(s, ev);
    return FRX_OK;
}

static int ocl_mem_alloc(void *state, size_t bytes, void **mem)
{
    struct ocl_state *s = state;
    struct ocl_mem *m = calloc(1, sizeof *m);
    if (!m)
        return frx_error(FRX_ENOMEM, "opencl: out of memory");
    size_t padded = padded_size(bytes);
    cl_int err;
    m->mem = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, padded, NULL, &err);
    if (!m->mem) {
        free(m);
        return frx_opencl_fail(err, "clCreateBuffer", "allocating %zu bytes "
                               "on '%s'", bytes, s->device_name);
    }
    int rc = zero(s, m, padded);
    if (rc) {
        frx_opencl_mem_forget(s, m);
        release_mem(m->mem);
        free(m);
        return rc;
    }
    *mem = m;
    return FRX_OK;
}

static void ocl_mem_free(void *state, void *mem)
{
    struct ocl_state *s = state;
    struct ocl_mem *m = mem;
    frx_opencl_mem_forget(s, m);
    release_mem(m->mem);
    free(m);
}

/* Reads and writes block, after the commands they must follow. */
static int transfer(struct ocl_state *s, void *mem, size_t off, void *host,
                    size_t bytes, int write)
{
    if (!bytes)
        return FRX_OK;
    cl_uint n;
    const cl_event *wait;
    frx_opencl_deps_begin(s, 0);
    frx_opencl_deps_use(s, mem, write ? FRX_ACCESS_WRITE : FRX_ACCESS_READ);
    int rc = frx_opencl_deps_wait(s, &n, &wait);
    if (rc)
        return rc;
    cl_mem buf = frx_opencl_buf(mem);
    cl_int err = write ? clEnqueueWriteBuffer(s->queue, buf, CL_TRUE, off,
                                              bytes, host, n, wait, NULL)
                       : clEnqueueReadBuffer(s->queue, buf, CL_TRUE, off,
                                             bytes, host, n, wait, NULL);
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, write ? "clEnqueueWriteBuffer"
                                          : "clEnqueueReadBuffer",
                               "%s %zu bytes at offset %zu",
                               write ? "writing" : "reading", bytes, off);
    frx_opencl_deps_completed(s);
    return FRX_OK;
}

static int ocl_mem_write(void *state, void *mem, size_t off, const void *src,
                         size_t bytes)
{
    return transfer(state, mem, off, (void *)src, bytes, 1);
}

static int ocl_mem_read(void *state, void *mem, size_t off, void *dst,
                        size_t bytes)
{
    return transfer(state, mem, off, dst, bytes, 0);
}

/* Host-staged MPI: a transfer between an xchg matrix and its mirror that
 * does not block, with an event of its own to wait for. */
static int ocl_copy_start(void *state, void *mem, void *host, size_t bytes,
                          int to_host, void **done)
{
    struct ocl_state *s = state;
    cl_uint n;
    const cl_event *wait;
    frx_opencl_deps_begin(s, 0);
    frx_opencl_deps_use(s, mem, to_host ? FRX_ACCESS_READ : FRX_ACCESS_WRITE);
    int rc = frx_opencl_deps_wait(s, &n, &wait);
    if (rc)
        return rc;
    cl_mem buf = frx_opencl_buf(mem);
    cl_event ev = NULL;
    cl_int err = to_host ? clEnqueueReadBuffer(s->queue, buf, CL_FALSE, 0,
                                               bytes, host, n, wait, &ev)
                         : clEnqueueWriteBuffer(s->queue, buf, CL_FALSE, 0,
                                                bytes, host, n, wait, &ev);
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, to_host ? "clEnqueueReadBuffer"
                                            : "clEnqueueWriteBuffer",
                               "%s %zu bytes of an xchg matrix without "
                               "waiting", to_host ? "reading" : "writing",
                               bytes);
    s->nevents++;
    if (s->out_of_order) { /* the buffer keeps a reference of its own */
        if (clRetainEvent(ev) == CL_SUCCESS) {
            frx_opencl_deps_enqueued(s, ev);
        } else {
            clWaitForEvents(1, &ev);
            frx_opencl_deps_completed(s);
        }
    }
    *done = ev;
    return FRX_OK;
}

static int ocl_copy_wait(void *state, void *done)
{
    (void)state;
    cl_event ev = done;
    cl_int err = clWaitForEvents(1, &ev);
    clReleaseEvent(ev);
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, "clWaitForEvents", "waiting for a copy "
                               "between an xchg matrix and its host mirror");
    return FRX_OK;
}

/* Host mirrors of xchg matrices: a host-allocated buffer mapped once,
 * which the driver can copy to and from without staging. Only the map
 * and the unmap run on the device; both go through the buffer's events
 * like any other command. */
struct ocl_host {
    struct ocl_mem m;
    void *ptr;
};

static int map_host(struct ocl_state *s, struct ocl_host *h, size_t padded)
{
    cl_uint n;
    const cl_event *wait;
    frx_opencl_deps_begin(s, 0);
    frx_opencl_deps_use(s, &h->m, FRX_ACCESS_READ | FRX_ACCESS_WRITE);
    int rc = frx_opencl_deps_wait(s, &n, &wait);
    if (rc)
        return rc;
    cl_int err;
    h->ptr = clEnqueueMapBuffer(s->queue, h->m.mem, CL_TRUE,
                                CL_MAP_READ | CL_MAP_WRITE, 0, padded, n,
                                wait, NULL, &err);
    if (!h->ptr)
        return frx_opencl_fail(err, "clEnqueueMapBuffer", "mapping %zu "
                               "bytes of host memory", padded);
    frx_opencl_deps_completed(s);
    return FRX_OK;
}

static int ocl_host_alloc(void *state, size_t bytes, void **host,
                          void **handle)
{
    struct ocl_state *s = state;
    struct ocl_host *h = calloc(1, sizeof *h);
    if (!h)
        return frx_error(FRX_ENOMEM, "opencl: out of memory");
    size_t padded = padded_size(bytes);
    cl_int err;
    h->m.mem = clCreateBuffer(s->ctx,
                              CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                              padded, NULL, &err);
    if (!h->m.mem) {
        free(h);
        return frx_opencl_fail(err, "clCreateBuffer", "allocating %zu bytes "
                               "of mapped host memory", bytes);
    }
    int rc = map_host(s, h, padded);
    if (rc) {
        frx_opencl_mem_forget(s, &h->m);
        release_mem(h->m.mem);
        free(h);
        return rc;
    }
    memset(h->ptr, 0, padded);
    *host = h->ptr;
    *handle = h;
    return FRX_OK;
}

/* The unmap is only enqueued: the buffer goes once it is done. */
static void ocl_host_free(void *state, void *handle)
{
    struct ocl_state *s = state;
    struct ocl_host *h = handle;
    cl_uint n = 0;
    const cl_event *wait = NULL;
    frx_opencl_deps_begin(s, 0);
    frx_opencl_deps_use(s, &h->m, FRX_ACCESS_READ | FRX_ACCESS_WRITE);
    cl_int err = CL_SUCCESS;
    if (frx_opencl_deps_wait(s, &n, &wait) != FRX_OK)
        err = clFinish(s->queue); /* no wait list: wait for everything */
    if (err == CL_SUCCESS)
        err = clEnqueueUnmapMemObject(s->queue, h->m.mem, h->ptr, n, wait,
                                      NULL);
    frx_opencl_mem_forget(s, &h->m);
    cl_int err2 = clReleaseMemObject(h->m.mem);
    if (err == CL_SUCCESS)
        err = err2;
    if (err != CL_SUCCESS)
        frx_log(FRX_LOG_WARN, "opencl: freeing mapped host memory failed: "
                "%s (%d)", frx_opencl_errname(err), (int)err);
    free(h);
}

static int ocl_sync(void *state)
{
    struct ocl_state *s = state;
    cl_int err = clFinish(s->queue);
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, "clFinish", "waiting for '%s'",
                               s->device_name);
    frx_opencl_deps_synced(s);
    return FRX_OK;
}

static size_t ocl_events_made(void *state)
{
    return ((const struct ocl_state *)state)->nevents;
}

static int ocl_probe(char *why, size_t n) { return frx_opencl_probe(why, n); }

static const frx_backend_ops ocl_ops = {
    .size = sizeof(frx_backend_ops),
    .priority = 50, /* above openmp, below the vendors' own backends */
    .options = ocl_options,
    .probe = ocl_probe,
    .create = ocl_create,
    .destroy = ocl_destroy,
    .mem_alloc = ocl_mem_alloc,
    .mem_free = ocl_mem_free,
    .mem_write = ocl_mem_write,
    .mem_read = ocl_mem_read,
    .pack = frx_opencl_pack,
    .unpack = frx_opencl_unpack,
    .sync = ocl_sync,
    .events_made = ocl_events_made,
    .target = FRX_TARGET_OPENCL,
    .kernel_compile = frx_opencl_kernel_compile,
    .kernel_launch = frx_opencl_kernel_launch,
    .kernel_free = frx_opencl_kernel_free,
    .host_alloc = ocl_host_alloc,
    .host_free = ocl_host_free,
    .copy_start = ocl_copy_start,
    .copy_wait = ocl_copy_wait,
#ifdef FRX_HAVE_CLBLAST
    .product_libs = frx_opencl_product_libs,
    .product_prepare = frx_opencl_product_prepare,
    .product_run = frx_opencl_product_run,
    .product_free = frx_opencl_product_free,
#endif
};

static const frx_plugin_desc ocl_desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_BACKEND, "opencl", FRX_VERSION,
                         "any OpenCL device (ICD loader)"),
    .backend = &ocl_ops,
};

FRX_PLUGIN_DEFINE(ocl_desc)
