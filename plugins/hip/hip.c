/* SPDX-License-Identifier: BSD-3-Clause */
/* hip backend: AMD GPUs through the HIP runtime of Debian's
 * libamdhip64-dev, kernels compiled by hiprtc (in the same library) for
 * the device's own gfx architecture and cached as code objects. One
 * device per rank, one non-blocking stream. What is here is what HIP
 * does its own way: the runtime's calls in frx's types (struct
 * gpu_api), opening the runtime and hiprtc, describing a device and
 * making it current (struct gpu_backend); everything else is
 * gpu-common's.
 *
 * Operator products are generated code only: a rocBLAS (or hipBLAS)
 * provider would be cuda's cuBLAS again (a vendor gemm on the stream
 * under gpu-common's FRX_GPU_PRODUCT_OPS), but no such library is
 * packaged with Debian's HIP 5.2 here to build and check it against. */
#include "gpu.h"

#include <hip/hip_runtime_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HIP_BLOCK 256 /* threads per block: four wavefronts of 64 */

static const frx_option hip_options[] = {
    FRX_GPU_DEVICE_OPTION("unique id (GPU-..., as rocm-smi "
                          "--showuniqueid shows)"),
    {0}};

/* "NAME (rc): the runtime's description". */
#define HIP_ERR_FMT "%s (%d): %s"
#define HIP_ERR(rc) hipGetErrorName(rc), (int)(rc), hipGetErrorString(rc)

static void hip_describe_error(const struct gpu *g, int rc, char *buf,
                               size_t n)
{
    (void)g;
    snprintf(buf, n, HIP_ERR_FMT, HIP_ERR((hipError_t)rc));
}

/* ------------------------------------------------------ driver calls */

/* The runtime's calls as gpu-common takes them (struct gpu_api): the
 * same calls, in frx's types. */
static hipDeviceptr_t dptr(gpu_dptr addr) { return (void *)(uintptr_t)addr; }

static int h_mem_alloc(gpu_dptr *addr, size_t bytes)
{
    void *p = NULL;
    int rc = hipMalloc(&p, bytes);
    *addr = (uintptr_t)p;
    return rc;
}

static int h_event_create(void **ev, unsigned flags)
{
    hipEvent_t e = NULL;
    int rc = hipEventCreateWithFlags(&e, flags);
    *ev = e;
    return rc;
}

static int h_module_load(void **mod, const void *image)
{
    hipModule_t m = NULL;
    int rc = hipModuleLoadData(&m, image);
    *mod = m;
    return rc;
}

static int h_module_function(void **fn, void *mod, const char *name)
{
    hipFunction_t f = NULL;
    int rc = hipModuleGetFunction(&f, mod, name);
    *fn = f;
    return rc;
}

/* name(parameters) as hip's call with the same arguments */
#define HIP_CALL(name, params, call) \
    static int name params { return (int)(call); }
HIP_CALL(h_mem_free, (gpu_dptr a), hipFree(dptr(a)))
HIP_CALL(h_host_alloc, (void **h, size_t n, unsigned f),
         hipHostMalloc(h, n, f))
HIP_CALL(h_host_free, (void *h), hipHostFree(h))
HIP_CALL(h_memset, (gpu_dptr a, unsigned char v, size_t n, void *s),
         hipMemsetD8Async(dptr(a), v, n, s))
/* hip's source is not const, but never written */
HIP_CALL(h_to_device, (gpu_dptr a, const void *h, size_t n, void *s),
         hipMemcpyHtoDAsync(dptr(a), (void *)(uintptr_t)h, n, s))
HIP_CALL(h_to_host, (void *h, gpu_dptr a, size_t n, void *s),
         hipMemcpyDtoHAsync(h, dptr(a), n, s))
HIP_CALL(h_event_destroy, (void *e), hipEventDestroy(e))
HIP_CALL(h_event_record, (void *e, void *s), hipEventRecord(e, s))
HIP_CALL(h_event_wait, (void *e), hipEventSynchronize(e))
HIP_CALL(h_stream_wait, (void *s), hipStreamSynchronize(s))
HIP_CALL(h_module_unload, (void *m), hipModuleUnload(m))
HIP_CALL(h_launch, (void *f, unsigned gx, unsigned gy, unsigned gz,
                    unsigned bx, unsigned by, unsigned bz, unsigned shared,
                    void *s, void **params, void **extra),
         hipModuleLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, s, params,
                               extra))
HIP_CALL(h_attribute, (int *v, int attr, int dev),
         hipDeviceGetAttribute(v, (hipDeviceAttribute_t)attr, dev))

static const struct gpu_api hip_api = {
    .mem_alloc = h_mem_alloc, .mem_free = h_mem_free,
    .host_alloc = h_host_alloc, .host_free = h_host_free,
    .memset_async = h_memset, .copy_to_device = h_to_device,
    .copy_to_host = h_to_host, .event_create = h_event_create,
    .event_destroy = h_event_destroy, .event_record = h_event_record,
    .event_wait = h_event_wait, .stream_wait = h_stream_wait,
    .module_load = h_module_load, .module_unload = h_module_unload,
    .module_function = h_module_function, .launch = h_launch,
    .device_attribute = h_attribute,
    .name = {.mem_alloc = "hipMalloc", .mem_free = "hipFree",
             .host_alloc = "hipHostMalloc", .host_free = "hipHostFree",
             .memset_async = "hipMemsetD8Async",
             .copy_to_device = "hipMemcpyHtoDAsync",
             .copy_to_host = "hipMemcpyDtoHAsync",
             .event_create = "hipEventCreateWithFlags",
             .event_destroy = "hipEventDestroy",
             .event_record = "hipEventRecord",
             .event_wait = "hipEventSynchronize",
             .stream_wait = "hipStreamSynchronize",
             .module_load = "hipModuleLoadData",
             .module_unload = "hipModuleUnload",
             .module_function = "hipModuleGetFunction",
             .launch = "hipModuleLaunchKernel",
             .device_attribute = "hipDeviceGetAttribute"},
    .host_alloc_flags = hipHostMallocPortable,
    .event_flags = hipEventDisableTiming,
    .out_of_memory = hipErrorOutOfMemory,
    .attr_max_grid_x = hipDeviceAttributeMaxGridDimX,
    .attr_max_grid_y = hipDeviceAttributeMaxGridDimY,
    .attr_warp = hipDeviceAttributeWarpSize,
    .describe = hip_describe_error};

static const struct gpu_vendor hip_vendor = {FRX_GPU_DRIVER_PRIMITIVES};

/* ------------------------------------------------ runtime, hiprtc, ISAs */

static const char *const visible_vars[] = {
    "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"};

static int open_hiprtc(struct gpu_rtc *r)
{
    static const char *const libs[] = {"libamdhip64.so.5", "libamdhip64.so",
                                       "libhiprtc.so", NULL};
    char tried[1024];
    if (frx_gpu_rtc_open(r, "hiprtc", "hiprtc", "Code", libs, tried,
                         sizeof tried) == 0)
        return FRX_OK;
    return frx_error(FRX_EUNAVAIL, "hip: hiprtc not found (%s): install "
                     "libamdhip64-dev", tried);
}

static int runtime_version(void)
{
    int v = 0;
    return hipRuntimeGetVersion(&v) == hipSuccess ? v : 0;
}

/* The runtime has a device and hiprtc is there, or why not. */
static int hip_open(struct gpu *g, int *count)
{
    char vis[256];
    frx_gpu_visible(visible_vars, 3, vis, sizeof vis);
    g->api = &hip_api;
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
        return frx_error(FRX_EUNAVAIL, "hip: no device (hipErrorNoDevice)"
                         "%s%s%s", *vis ? " with " : "", vis, kfd);
    }
    if (rc != hipSuccess)
        return frx_error(FRX_EUNAVAIL, "hip: the runtime does not start: "
                         HIP_ERR_FMT, HIP_ERR(rc));
    return open_hiprtc(&g->rtc);
}

static int hip_describe(struct gpu *g, int ordinal, struct gpu_device *out)
{
    hipDeviceProp_t p;
    hipUUID u;
    hipError_t rc = hipGetDeviceProperties(&p, ordinal);
    if (rc != hipSuccess)
        return frx_gpu_fail(g, rc, "hipGetDeviceProperties", "device %d",
                            ordinal);
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

/* Does the code generator under hiprtc know the device's architecture?
 * Where it cannot be asked, yes. */
static int hip_compiles(struct gpu *g, const struct gpu_device *dev)
{
    (void)g;
    const char *isa[256];
    char known[1024] = "";
    int m = frx_gpu_amd_archs(isa, 256);
    if (m < 0 || frx_gpu_arch_known(dev->arch, isa, (size_t)m))
        return FRX_OK;
    size_t at = 0;
    for (int i = 0; i < m && at < sizeof known; i++) {
        int w = snprintf(known + at, sizeof known - at, "%s%s", i ? " " : "",
                         isa[i]);
        at += w > 0 ? (size_t)w : 0;
    }
    return frx_error(FRX_EUNAVAIL, "hip: hiprtc does not know %s, the "
                     "architecture of '%s' (it knows %s): use a newer HIP",
                     dev->arch, dev->name, known);
}

static int hip_open_device(struct gpu *g, const struct gpu_device *dev)
{
    int k = g->ordinal;
    hipError_t r = hipSetDevice(k);
    if (r)
        return frx_gpu_fail(g, r, "hipSetDevice", "device %d (%s)", k,
                            dev->name);
    /* non-blocking: it never waits for the null stream, which an MPI
     * library may use */
    hipStream_t stream = NULL;
    r = hipStreamCreateWithFlags(&stream, hipStreamNonBlocking);
    if (r)
        return frx_gpu_fail(g, r, "hipStreamCreateWithFlags", "device %d "
                            "(%s)", k, dev->name);
    g->stream = stream;
    int version = 0;
    hipDriverGetVersion(&version);
    snprintf(g->driver, sizeof g->driver, "HIP driver %d, runtime %d",
             version, runtime_version());
    return FRX_OK;
}

static void hip_versions(const struct gpu *g, char *buf, size_t n)
{
    (void)g;
    int v = runtime_version();
    snprintf(buf, n, "HIP %d.%d", v / 10000000, v / 100000 % 100);
}

static void hip_close(struct gpu *g)
{
    if (g->stream)
        hipStreamDestroy(g->stream);
}

static const struct gpu_backend hip_backend = {
    .name = "hip", .target = FRX_TARGET_HIP,
    .state_size = sizeof(struct gpu), .vd = &hip_vendor,
    .suffix = ".hsaco", .src_suffix = ".hip", .chunk = "wavefront",
    .mpi_kind = "rocm", .block = HIP_BLOCK, .arch_opt = "--offload-arch=",
    .visible = visible_vars, .nvisible = 3, .open = hip_open,
    .describe = hip_describe, .compiles = hip_compiles,
    .open_device = hip_open_device, .versions = hip_versions,
    .close = hip_close};

/* the vendors' own backends first */
FRX_GPU_PLUGIN(hip_backend, "hip", FRX_TARGET_HIP, 95, hip_options,
               "AMD GPUs (HIP runtime, hiprtc)")
