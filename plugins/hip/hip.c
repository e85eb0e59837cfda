/* hip backend: AMD GPUs through the HIP runtime of Debian's
 * libamdhip64-dev, kernels compiled by hiprtc (in the same library) for
 * the device's own gfx architecture and cached as code objects. One
 * device per rank, one non-blocking stream. Everything else is
 * gpu-common's.
 *
 * Operator products are generated code only: a rocBLAS (or hipBLAS)
 * provider would be cuda's cuBLAS again (a vendor gemm on the stream
 * under gpu-common's FRX_GPU_PRODUCT_OPS), but no such library is
 * packaged with Debian's HIP 5.2 here to build and check it against. */
#include "gpu.h"

#include <hip/hip_runtime_api.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HIP_BLOCK 256 /* threads per block: four wavefronts of 64 */

static const frx_option hip_options[] = {
    {.key = "device", .type = FRX_OPT_STRING, .def = "local-rank",
     .help = "the GPU: local-rank (the rank's index among its node's ranks "
             "on this backend, modulo the GPUs), an index among the "
             "visible GPUs, or a GPU's unique id "
             "(GPU-..., as rocm-smi --showuniqueid shows)"},
    {0}};

struct hip_state {
    struct gpu g; /* first: gpu-common's part */
    int dev;
    hipStream_t stream;
};

static struct hip_state *hs(struct gpu *g) { return (struct hip_state *)g; }

/* rc for messages: "NAME (rc): the runtime's description". */
#define HIP_ERR_FMT "%s (%d): %s"
#define HIP_ERR(rc) hipGetErrorName(rc), (int)(rc), hipGetErrorString(rc)

/* frx_error with "hip: <what>: <call> failed: NAME (rc): description". */
static int hip_fail(hipError_t rc, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int hip_fail(hipError_t rc, const char *call, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return frx_error(rc == hipErrorOutOfMemory ? FRX_ENOMEM : FRX_EBACKEND,
                     "hip: %s: %s failed: " HIP_ERR_FMT, what, call,
                     HIP_ERR(rc));
}

/* ------------------------------------------------------------ primitives */

static int hip_alloc(struct gpu *g, size_t bytes, uint64_t *addr)
{
    void *p = NULL;
    hipError_t rc = hipMalloc(&p, bytes);
    *addr = (uint64_t)(uintptr_t)p;
    return rc ? hip_fail(rc, "hipMalloc", "allocating %zu bytes on '%s'",
                         bytes, g->device) : FRX_OK;
}

static void hip_free(struct gpu *g, uint64_t addr)
{
    (void)g;
    hipError_t rc = hipFree((void *)(uintptr_t)addr);
    if (rc)
        frx_log(FRX_LOG_WARN, "hip: hipFree failed: " HIP_ERR_FMT,
                HIP_ERR(rc));
}

static int hip_host_alloc(struct gpu *g, size_t bytes, void **host)
{
    (void)g;
    hipError_t rc = hipHostMalloc(host, bytes, hipHostMallocPortable);
    return rc ? hip_fail(rc, "hipHostMalloc", "allocating %zu bytes of "
                         "pinned host memory", bytes) : FRX_OK;
}

static void hip_host_free(struct gpu *g, void *host)
{
    (void)g;
    hipError_t rc = hipHostFree(host);
    if (rc)
        frx_log(FRX_LOG_WARN, "hip: hipHostFree failed: " HIP_ERR_FMT,
                HIP_ERR(rc));
}

static hipDeviceptr_t dptr(uint64_t addr)
{
    return (hipDeviceptr_t)(uintptr_t)addr;
}

static int hip_zero(struct gpu *g, uint64_t addr, size_t bytes)
{
    hipError_t rc = hipMemsetD8Async(dptr(addr), 0, bytes, hs(g)->stream);
    return rc ? hip_fail(rc, "hipMemsetD8Async", "zeroing %zu bytes", bytes)
              : FRX_OK;
}

static int hip_copy(struct gpu *g, uint64_t addr, void *host, size_t bytes,
                    int to_host)
{
    hipStream_t s = hs(g)->stream;
    hipError_t rc = to_host ? hipMemcpyDtoHAsync(host, dptr(addr), bytes, s)
                            : hipMemcpyHtoDAsync(dptr(addr), host, bytes, s);
    return rc ? hip_fail(rc, to_host ? "hipMemcpyDtoHAsync"
                                     : "hipMemcpyHtoDAsync",
                         "copying %zu bytes %s the device", bytes,
                         to_host ? "from" : "to") : FRX_OK;
}

static int hip_event_new(struct gpu *g, void **ev)
{
    (void)g;
    hipEvent_t e = NULL;
    hipError_t rc = hipEventCreateWithFlags(&e, hipEventDisableTiming);
    *ev = e;
    return rc ? hip_fail(rc, "hipEventCreateWithFlags", "an event") : FRX_OK;
}

static void hip_event_free(struct gpu *g, void *ev)
{
    (void)g;
    hipEventDestroy(ev);
}

static int hip_record(struct gpu *g, void *ev)
{
    hipError_t rc = hipEventRecord(ev, hs(g)->stream);
    return rc ? hip_fail(rc, "hipEventRecord", "an event") : FRX_OK;
}

static int hip_event_wait(struct gpu *g, void *ev)
{
    hipError_t rc = hipEventSynchronize(ev);
    return rc ? hip_fail(rc, "hipEventSynchronize", "waiting for a copy on "
                         "'%s'", g->device) : FRX_OK;
}

static int hip_stream_wait(struct gpu *g)
{
    hipError_t rc = hipStreamSynchronize(hs(g)->stream);
    return rc ? hip_fail(rc, "hipStreamSynchronize", "waiting for '%s'",
                         g->device) : FRX_OK;
}

static int hip_module_load(struct gpu *g, const void *image, size_t size,
                           void **mod)
{
    (void)size; /* a code object says its own size */
    hipModule_t m = NULL;
    hipError_t rc = hipModuleLoadData(&m, image);
    *mod = m;
    return rc ? hip_fail(rc, "hipModuleLoadData", "loading %s code", g->arch)
              : FRX_OK;
}

static void hip_module_free(struct gpu *g, void *mod)
{
    (void)g;
    hipModuleUnload(mod);
}

static int hip_get_function(struct gpu *g, void *mod, const char *entry,
                            void **fn)
{
    (void)g;
    hipFunction_t f = NULL;
    hipError_t rc = hipModuleGetFunction(&f, mod, entry);
    *fn = f;
    return rc ? hip_fail(rc, "hipModuleGetFunction", "function '%s'", entry)
              : FRX_OK;
}

static int hip_launch(struct gpu *g, void *fn, const unsigned grid[2],
                      unsigned block, void **params)
{
    hipError_t rc = hipModuleLaunchKernel(fn, grid[0], grid[1], 1, block, 1,
                                          1, 0, hs(g)->stream, params, NULL);
    return rc ? hip_fail(rc, "hipModuleLaunchKernel", "%u x %u blocks of %u "
                         "threads", grid[0], grid[1], block) : FRX_OK;
}

static const struct gpu_vendor hip_vendor = {
    .alloc = hip_alloc, .free = hip_free, .host_alloc = hip_host_alloc,
    .host_free = hip_host_free, .zero = hip_zero, .copy = hip_copy,
    .event_new = hip_event_new, .event_free = hip_event_free,
    .record = hip_record, .event_wait = hip_event_wait,
    .stream_wait = hip_stream_wait, .module_load = hip_module_load,
    .module_free = hip_module_free, .function = hip_get_function,
    .launch = hip_launch};

/* ------------------------------------------------ runtime, hiprtc, ISAs */

static const char *const visible_vars[] = {
    "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"};

static int open_hiprtc(struct gpu_rtc *r, char *why, size_t n)
{
    static const char *const libs[] = {"libamdhip64.so.5", "libamdhip64.so",
                                       "libhiprtc.so", NULL};
    char tried[1024];
    if (frx_gpu_rtc_open(r, "hiprtc", "hiprtc", "Code", libs, tried,
                         sizeof tried) == 0)
        return 0;
    snprintf(why, n, "hip: hiprtc not found (%s): install libamdhip64-dev",
             tried);
    return -1;
}

/* Does the code generator under hiprtc know arch? Where it cannot be
 * asked, yes. */
static int comgr_knows(const char *arch, char *known, size_t n)
{
    const char *isa[256];
    int m = frx_gpu_amd_archs(isa, 256);
    size_t at = 0;
    known[0] = '\0';
    for (int i = 0; i < m && at < n; i++) {
        int w = snprintf(known + at, n - at, "%s%s", i ? " " : "", isa[i]);
        at += w > 0 ? (size_t)w : 0;
    }
    return m < 0 || frx_gpu_arch_known(arch, isa, (size_t)m);
}

static int runtime_version(void)
{
    int v = 0;
    return hipRuntimeGetVersion(&v) == hipSuccess ? v : 0;
}

/* The runtime has a device and hiprtc is there, or why not. */
static int open_all(struct gpu_rtc *r, int *count, char *why, size_t n)
{
    char vis[256];
    frx_gpu_visible(visible_vars, 3, vis, sizeof vis);
    *count = 0;
    hipError_t rc = hipGetDeviceCount(count);
    if (rc == hipErrorNoDevice || (rc == hipSuccess && *count == 0)) {
        /* ROCm reaches its GPUs through /dev/kfd: absent, no driver;
         * there but closed to this user, the usual container or group
         * mistake, which the runtime reports as no device too */
        const char *kfd = access("/dev/kfd", F_OK) != 0
            ? "; no /dev/kfd: no AMD GPU driver is loaded here"
            : access("/dev/kfd", R_OK | W_OK) != 0
                ? "; /dev/kfd is there but this user cannot open it: add "
                  "the user to the 'render' and 'video' groups (a "
                  "container: --device=/dev/kfd --device=/dev/dri)"
                : "";
        snprintf(why, n, "hip: no device (hipErrorNoDevice)%s%s%s",
                 *vis ? " with " : "", vis, kfd);
        return -1;
    }
    if (rc != hipSuccess) {
        snprintf(why, n, "hip: the runtime does not start: " HIP_ERR_FMT,
                 HIP_ERR(rc));
        return -1;
    }
    return open_hiprtc(r, why, n);
}

static int describe(int ordinal, struct gpu_device *out)
{
    hipDeviceProp_t p;
    hipUUID u;
    hipError_t rc = hipGetDeviceProperties(&p, ordinal);
    if (rc != hipSuccess)
        return hip_fail(rc, "hipGetDeviceProperties", "device %d", ordinal);
    if (hipDeviceGetUuid(&u, ordinal) != hipSuccess)
        memset(&u, 0, sizeof u); /* no id: chosen by index only */
    snprintf(out->name, sizeof out->name, "%.127s", p.name);
    /* the base architecture: code for "gfx90a" loads in either xnack or
     * sramecc mode */
    snprintf(out->arch, sizeof out->arch, "%.*s",
             (int)strcspn(p.gcnArchName, ":"), p.gcnArchName);
    /* ROCm's unique ids are 16 hex digits given as text */
    int text = 1;
    for (int i = 0; i < 16; i++)
        text &= strchr("0123456789abcdefABCDEF", u.bytes[i]) != NULL &&
                u.bytes[i] != '\0';
    if (text)
        snprintf(out->id, sizeof out->id, "GPU-%.16s", u.bytes);
    else
        frx_gpu_uuid_text((const unsigned char *)u.bytes, out->id,
                          sizeof out->id);
    return FRX_OK;
}

static int hip_probe(char *why, size_t n)
{
    struct gpu_rtc r;
    struct gpu_device first;
    char known[1024];
    int count;
    if (open_all(&r, &count, why, n) != 0)
        return FRX_EUNAVAIL;
    if (describe(0, &first) != FRX_OK) {
        snprintf(why, n, "%s", frx_errmsg());
        return FRX_EUNAVAIL;
    }
    if (!comgr_knows(first.arch, known, sizeof known)) {
        snprintf(why, n, "hip: hiprtc does not know %s, the architecture of "
                 "'%s' (it knows %s)", first.arch, first.name, known);
        return FRX_EUNAVAIL;
    }
    int v = runtime_version();
    snprintf(why, n, "%d device(s), 0 = %s (%s); HIP %d.%d", count,
             first.name, first.arch, v / 10000000, v / 100000 % 100);
    return FRX_OK;
}

/* ------------------------------------------------------ create, destroy */

static void hip_destroy(void *state)
{
    struct hip_state *s = state;
    if (!s)
        return;
    if (s->stream) {
        frx_gpu_stop(&s->g);
        hipStreamDestroy(s->stream);
    }
    free(s);
}

static int open_device(struct hip_state *s, const frx_backend_init *init,
                       int count, struct gpu_device *chosen)
{
    struct gpu_device devs[64];
    int n = count < 64 ? count : 64;
    for (int i = 0; i < n; i++) {
        int rc = describe(i, &devs[i]);
        if (rc)
            return rc;
    }
    int k;
    int rc = frx_gpu_pick(init, "hip", visible_vars, 3, devs, (size_t)n, &k);
    if (rc)
        return rc;
    *chosen = devs[k];
    s->dev = k;
    hipError_t r = hipSetDevice(k);
    if (r)
        return hip_fail(r, "hipSetDevice", "device %d (%s)", k, chosen->name);
    /* non-blocking: it never waits for the null stream, which an MPI
     * library may use */
    r = hipStreamCreateWithFlags(&s->stream, hipStreamNonBlocking);
    if (r)
        return hip_fail(r, "hipStreamCreateWithFlags", "device %d (%s)", k,
                        chosen->name);
    snprintf(s->g.device, sizeof s->g.device, "%s", chosen->name);
    return FRX_OK;
}

static int attribute(struct hip_state *s, hipDeviceAttribute_t attr,
                     unsigned *out)
{
    int v = 0;
    hipError_t rc = hipDeviceGetAttribute(&v, attr, s->dev);
    if (rc)
        return hip_fail(rc, "hipDeviceGetAttribute", "attribute %d",
                        (int)attr);
    *out = v > 0 ? (unsigned)v : 0;
    return FRX_OK;
}

static int set_up(struct hip_state *s, const frx_backend_init *init,
                  unsigned *warp, struct gpu_device *dev)
{
    char why[1500];
    int count = 0;
    struct gpu *g = &s->g;
    if (open_all(&g->rtc, &count, why, sizeof why) != 0)
        return frx_error(FRX_EUNAVAIL, "%s", why);
    int rc = open_device(s, init, count, dev);
    if (rc)
        return rc;
    char known[1024];
    if (!comgr_knows(dev->arch, known, sizeof known))
        return frx_error(FRX_EUNAVAIL, "hip: hiprtc does not know %s, the "
                         "architecture of '%s' (it knows %s): use a newer "
                         "HIP", dev->arch, dev->name, known);
    g->lim.block = HIP_BLOCK;
    rc = attribute(s, hipDeviceAttributeMaxGridDimX, &g->lim.max_grid_x);
    if (rc == FRX_OK)
        rc = attribute(s, hipDeviceAttributeMaxGridDimY, &g->lim.max_grid_y);
    if (rc == FRX_OK)
        rc = attribute(s, hipDeviceAttributeWarpSize, warp);
    if (rc)
        return rc;
    int version = 0;
    hipDriverGetVersion(&version);
    snprintf(g->arch, sizeof g->arch, "%s", dev->arch);
    snprintf(g->driver, sizeof g->driver, "HIP driver %d, runtime %d",
             version, runtime_version());
    snprintf(g->rtc_version, sizeof g->rtc_version, "hiprtc %d.%d",
             g->rtc.major, g->rtc.minor);
    snprintf(g->arch_opt, sizeof g->arch_opt, "--offload-arch=%.40s",
             dev->arch);
    g->rtc_opts[0] = g->arch_opt;
    g->nrtc_opts = 1;
    return frx_gpu_start(g);
}

static int hip_create(const frx_backend_init *init, frx_backend_info *info,
                      void **state)
{
    struct hip_state *s = calloc(1, sizeof *s);
    if (!s)
        return frx_error(FRX_ENOMEM, "hip: out of memory");
    s->g = (struct gpu){.vd = &hip_vendor, .vendor = "hip",
                        .target = FRX_TARGET_HIP,
                        .precision = init->precision, .suffix = ".hsaco",
                        .src_suffix = ".hip", .idle = 1};
    unsigned warp = 0;
    struct gpu_device dev;
    int rc = set_up(s, init, &warp, &dev);
    if (rc == FRX_OK)
        rc = frx_gpu_describe(&s->g, warp, "wavefront", &dev, "rocm", info);
    if (rc) {
        hip_destroy(s);
        return rc;
    }
    *state = s;
    return FRX_OK;
}

static const frx_backend_ops hip_ops = {
    .size = sizeof(frx_backend_ops),
    .priority = 95, /* the vendors' own backends first */
    .options = hip_options,
    .probe = hip_probe,
    .create = hip_create,
    .destroy = hip_destroy,
    .target = FRX_TARGET_HIP,
    FRX_GPU_BACKEND_OPS,
};

static const frx_plugin_desc hip_desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_BACKEND, "hip", FRX_VERSION,
                         "AMD GPUs (HIP runtime, hiprtc)"),
    .backend = &hip_ops,
};

FRX_PLUGIN_DEFINE(hip_desc)
