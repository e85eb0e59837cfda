/* cuda backend: NVIDIA GPUs through the driver API, opened at run time
 * (libcuda.so.1; the plugin never links it), kernels compiled by NVRTC
 * from the toolkit for the device's own architecture (sm_XY) and cached
 * as CUBIN. One device per rank, its primary context (the one CUDA-aware
 * MPI libraries and the runtime API use), one non-blocking stream.
 * cuBLAS, opened at run time too, is a provider of operator products.
 * Everything else is gpu-common's. */
#include "cublasdl.h"
#include "cudrv.h"
#include "gpu.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CU_LIB "libcuda.so.1"
#define CU_BLOCK 128 /* threads per block */

#ifndef FRX_CUDA_HOME
#define FRX_CUDA_HOME "/usr/local/cuda"
#endif

static const frx_option cu_options[] = {
    {.key = "device", .type = FRX_OPT_STRING, .def = "local-rank",
     .help = "the GPU: local-rank (the rank's index among its node's ranks "
             "on this backend, modulo the GPUs), an index among the "
             "visible GPUs, or a GPU's UUID "
             "(GPU-..., as nvidia-smi -L shows)"},
    {0}};

struct cu_state {
    struct gpu g; /* first: gpu-common's part */
    struct cu_driver d;
    cu_device dev;
    cu_context ctx;
    cu_stream stream;
    int have_ctx;
    struct cu_blas blas;
    cublas_handle blas_h; /* made on the first product that may use it */
    char blas_why[1500];  /* why cuBLAS cannot be had, once it was tried */
};

static struct cu_state *cu(struct gpu *g) { return (struct cu_state *)g; }

/* frx_error with "cuda: <what>: <call> failed: NAME (rc)". */
static int cu_fail(const struct cu_state *s, cu_result rc, const char *call,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int cu_fail(const struct cu_state *s, cu_result rc, const char *call,
                   const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return frx_error(rc == CU_ERR_OUT_OF_MEMORY ? FRX_ENOMEM : FRX_EBACKEND,
                     "cuda: %s: %s failed: %s", what, call,
                     frx_cuda_err(&s->d, rc).s);
}

/* ------------------------------------------------------------ primitives */

static int cu_alloc(struct gpu *g, size_t bytes, uint64_t *addr)
{
    cu_ptr p = 0;
    cu_result rc = cu(g)->d.MemAlloc(&p, bytes);
    *addr = p;
    return rc ? cu_fail(cu(g), rc, "cuMemAlloc", "allocating %zu bytes on "
                        "'%s'", bytes, g->device) : FRX_OK;
}

static void cu_free(struct gpu *g, uint64_t addr)
{
    cu_result rc = cu(g)->d.MemFree(addr);
    if (rc)
        frx_log(FRX_LOG_WARN, "cuda: cuMemFree failed: %s",
                frx_cuda_err(&cu(g)->d, rc).s);
}

static int cu_host_alloc(struct gpu *g, size_t bytes, void **host)
{
    cu_result rc = cu(g)->d.MemHostAlloc(host, bytes, CU_HOSTALLOC_PORTABLE);
    return rc ? cu_fail(cu(g), rc, "cuMemHostAlloc", "allocating %zu bytes "
                        "of pinned host memory", bytes) : FRX_OK;
}

static void cu_host_free(struct gpu *g, void *host)
{
    cu_result rc = cu(g)->d.MemFreeHost(host);
    if (rc)
        frx_log(FRX_LOG_WARN, "cuda: cuMemFreeHost failed: %s",
                frx_cuda_err(&cu(g)->d, rc).s);
}

static int cu_zero(struct gpu *g, uint64_t addr, size_t bytes)
{
    struct cu_state *s = cu(g);
    cu_result rc = s->d.MemsetD8Async(addr, 0, bytes, s->stream);
    return rc ? cu_fail(s, rc, "cuMemsetD8Async", "zeroing %zu bytes",
                        bytes) : FRX_OK;
}

static int cu_copy(struct gpu *g, uint64_t addr, void *host, size_t bytes,
                   int to_host)
{
    struct cu_state *s = cu(g);
    cu_result rc = to_host ? s->d.MemcpyDtoHAsync(host, addr, bytes, s->stream)
                           : s->d.MemcpyHtoDAsync(addr, host, bytes, s->stream);
    return rc ? cu_fail(s, rc, to_host ? "cuMemcpyDtoHAsync"
                                       : "cuMemcpyHtoDAsync",
                        "copying %zu bytes %s the device", bytes,
                        to_host ? "from" : "to") : FRX_OK;
}

static int cu_event_new(struct gpu *g, void **ev)
{
    cu_event e = NULL;
    cu_result rc = cu(g)->d.EventCreate(&e, CU_EVENT_NO_TIMING);
    *ev = e;
    return rc ? cu_fail(cu(g), rc, "cuEventCreate", "an event") : FRX_OK;
}

static void cu_event_free(struct gpu *g, void *ev)
{
    cu(g)->d.EventDestroy(ev);
}

static int cu_record(struct gpu *g, void *ev)
{
    cu_result rc = cu(g)->d.EventRecord(ev, cu(g)->stream);
    return rc ? cu_fail(cu(g), rc, "cuEventRecord", "an event") : FRX_OK;
}

static int cu_event_wait(struct gpu *g, void *ev)
{
    cu_result rc = cu(g)->d.EventSynchronize(ev);
    return rc ? cu_fail(cu(g), rc, "cuEventSynchronize", "waiting for a "
                        "copy on '%s'", g->device) : FRX_OK;
}

static int cu_stream_wait(struct gpu *g)
{
    cu_result rc = cu(g)->d.StreamSynchronize(cu(g)->stream);
    return rc ? cu_fail(cu(g), rc, "cuStreamSynchronize", "waiting for "
                        "'%s'", g->device) : FRX_OK;
}

static int cu_module_load(struct gpu *g, const void *image, size_t size,
                          void **mod)
{
    (void)size; /* a CUBIN says its own size */
    cu_module m = NULL;
    cu_result rc = cu(g)->d.ModuleLoadData(&m, image);
    *mod = m;
    return rc ? cu_fail(cu(g), rc, "cuModuleLoadData", "loading %s code",
                        g->arch) : FRX_OK;
}

static void cu_module_free(struct gpu *g, void *mod)
{
    cu(g)->d.ModuleUnload(mod);
}

static int cu_get_function(struct gpu *g, void *mod, const char *entry,
                           void **fn)
{
    cu_function f = NULL;
    cu_result rc = cu(g)->d.ModuleGetFunction(&f, mod, entry);
    *fn = f;
    return rc ? cu_fail(cu(g), rc, "cuModuleGetFunction", "function '%s'",
                        entry) : FRX_OK;
}

static int cu_launch(struct gpu *g, void *fn, const unsigned grid[2],
                     unsigned block, void **params)
{
    struct cu_state *s = cu(g);
    cu_result rc = s->d.LaunchKernel(fn, grid[0], grid[1], 1, block, 1, 1, 0,
                                     s->stream, params, NULL);
    return rc ? cu_fail(s, rc, "cuLaunchKernel", "%u x %u blocks of %u "
                        "threads", grid[0], grid[1], block) : FRX_OK;
}

/* ------------------------------------------------------- the toolkit */

/* Where a library of the toolkit is looked for: lib64/<file> under
 * $CUDA_HOME, $CUDA_PATH and the toolkit frx was built with, then each
 * of names wherever the dynamic loader finds it. */
struct toolkit_libs {
    char paths[3][600];
    const char *list[8]; /* NULL-terminated */
};

static void toolkit_libs(struct toolkit_libs *t, const char *file,
                         const char *const names[3])
{
    int k = 0;
    const char *homes[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"),
                           FRX_CUDA_HOME};
    for (int i = 0; i < 3; i++)
        if (homes[i] && *homes[i]) {
            snprintf(t->paths[i], sizeof t->paths[i], "%s/lib64/%s",
                     homes[i], file);
            t->list[k++] = t->paths[i];
        }
    for (int i = 0; i < 3; i++)
        t->list[k++] = names[i];
    t->list[k] = NULL;
}

/* ---------------------------------------------------------------- cuBLAS */

/* cuBLAS on the first product that may use it: the library (from the
 * toolkit NVRTC came from, as a rule), a handle, bound to the backend's
 * stream, scalars read from the host. cuBLAS is built on the runtime
 * API, which works in the device's primary context: the one this plugin
 * retained and made current at start-up (cuDevicePrimaryCtxRetain,
 * cuCtxSetCurrent), so cuBLAS's handle, workspace and kernels share
 * frx's context, memory and stream. Where it cannot be had the reason is
 * kept, said once in the log, and given for every product (FRX_ENOTSUP:
 * the provider is left out, or refused where it is named); it is not
 * tried again. */
static int blas_start(struct cu_state *s, char *why, size_t n)
{
    static const char *const names[3] = {"libcublas.so.13",
                                         "libcublas.so.12", "libcublas.so"};
    struct toolkit_libs t;
    toolkit_libs(&t, "libcublas.so", names);
    char tried[1200];
    if (frx_cublas_open(&s->blas, t.list, tried, sizeof tried) != 0) {
        snprintf(why, n, "cuda: cuBLAS not found (%s): install the CUDA "
                 "toolkit's cuBLAS, or point CUDA_HOME or LD_LIBRARY_PATH "
                 "at it", tried);
        return -1;
    }
    const char *call = "cublasCreate_v2";
    cublas_status st = s->blas.Create(&s->blas_h);
    if (st == CUBL_SUCCESS) {
        call = "cublasSetStream_v2";
        st = s->blas.SetStream(s->blas_h, s->stream);
    }
    if (st == CUBL_SUCCESS) {
        call = "cublasSetPointerMode_v2";
        st = s->blas.SetPointerMode(s->blas_h, CUBL_POINTER_MODE_HOST);
    }
    if (st == CUBL_SUCCESS)
        return 0;
    snprintf(why, n, "cuda: cuBLAS (%s) does not start on '%s': %s failed: "
             "%s (%d)", s->blas.path, s->g.device, call,
             frx_cublas_status(&s->blas, st), st);
    if (s->blas_h)
        s->blas.Destroy(s->blas_h);
    s->blas_h = NULL;
    return -1;
}

static int cu_blas_open(struct gpu *g)
{
    struct cu_state *s = cu(g);
    if (s->blas_h)
        return FRX_OK;
    if (!s->blas_why[0]) {
        if (blas_start(s, s->blas_why, sizeof s->blas_why) == 0) {
            frx_log(FRX_LOG_DEBUG, "cuda: cuBLAS from %s", s->blas.path);
            return FRX_OK;
        }
        frx_log(FRX_LOG_INFO, "%s; products are generated code",
                s->blas_why);
    }
    return frx_error(FRX_ENOTSUP, "%s", s->blas_why);
}

static int cu_gemm(struct gpu *g, int m, int n, int k, double alpha,
                   uint64_t a, int lda, uint64_t b, int ldb, double beta,
                   uint64_t c, int ldc)
{
    struct cu_state *s = cu(g);
    int dbl = g->precision == FRX_DOUBLE;
    cublas_status st;
    if (dbl) {
        st = s->blas.Dgemm(s->blas_h, CUBL_OP_N, CUBL_OP_N, m, n, k, &alpha,
                           (const double *)(uintptr_t)a, lda,
                           (const double *)(uintptr_t)b, ldb, &beta,
                           (double *)(uintptr_t)c, ldc);
    } else {
        float fa = (float)alpha, fb = (float)beta;
        st = s->blas.Sgemm(s->blas_h, CUBL_OP_N, CUBL_OP_N, m, n, k, &fa,
                           (const float *)(uintptr_t)a, lda,
                           (const float *)(uintptr_t)b, ldb, &fb,
                           (float *)(uintptr_t)c, ldc);
    }
    return st ? frx_error(FRX_EBACKEND, "cuda: cublas%cgemm_v2 (m %d, n %d, "
                          "k %d, lda %d, ldb %d, ldc %d) on '%s' failed: %s "
                          "(%d)", dbl ? 'D' : 'S', m, n, k, lda, ldb, ldc,
                          g->device, frx_cublas_status(&s->blas, st), st)
              : FRX_OK;
}

static const struct gpu_vendor cu_vendor = {
    .alloc = cu_alloc, .free = cu_free, .host_alloc = cu_host_alloc,
    .host_free = cu_host_free, .zero = cu_zero, .copy = cu_copy,
    .event_new = cu_event_new, .event_free = cu_event_free,
    .record = cu_record, .event_wait = cu_event_wait,
    .stream_wait = cu_stream_wait, .module_load = cu_module_load,
    .module_free = cu_module_free, .function = cu_get_function,
    .launch = cu_launch, .blas = "cublas", .blas_open = cu_blas_open,
    .gemm = cu_gemm};

static const char *const cu_libs[] = {"cublas", NULL};

/* ------------------------------------------------------- driver, NVRTC */

static const char *const visible_vars[] = {"CUDA_VISIBLE_DEVICES"};

/* NVRTC: under $CUDA_HOME or $CUDA_PATH, the toolkit frx was built
 * with, then wherever the dynamic loader finds it. */
static int open_nvrtc(struct gpu_rtc *r, char *why, size_t n)
{
    static const char *const names[3] = {"libnvrtc.so", "libnvrtc.so.13",
                                         "libnvrtc.so.12"};
    struct toolkit_libs t;
    toolkit_libs(&t, "libnvrtc.so", names);
    char tried[1024];
    if (frx_gpu_rtc_open(r, "NVRTC", "nvrtc", "CUBIN", t.list, tried,
                         sizeof tried) == 0)
        return 0;
    snprintf(why, n, "cuda: NVRTC not found (%s): install the CUDA toolkit, "
             "or point CUDA_HOME or LD_LIBRARY_PATH at it", tried);
    return -1;
}

/* CUBINs load on a driver of their toolkit's major version or later
 * (minor version compatibility), not an older one. */
static int versions_agree(const struct cu_driver *d, const struct gpu_rtc *r,
                          int *version, char *why, size_t n)
{
    cu_result rc = d->DriverGetVersion(version);
    if (rc != CU_OK) {
        snprintf(why, n, "cuda: cuDriverGetVersion failed: %s",
                 frx_cuda_err(d, rc).s);
        return -1;
    }
    if (r->major <= *version / 1000)
        return 0;
    snprintf(why, n, "cuda: NVRTC %d.%d (%s) makes code that this driver "
             "(CUDA %d.%d) cannot load: update the driver, or point "
             "CUDA_HOME at a CUDA %d toolkit", r->major, r->minor, r->path,
             *version / 1000, *version % 1000 / 10, *version / 1000);
    return -1;
}

/* The driver started, NVRTC found and both of one CUDA, or why not;
 * *count devices, the driver's *version (13000 for 13.0). */
static int open_all(struct cu_driver *d, struct gpu_rtc *r, int *count,
                    int *version, char *why, size_t n)
{
    char e[400];
    if (frx_cuda_driver_open(d, CU_LIB, e, sizeof e) != 0) {
        snprintf(why, n, "cuda: %s", e);
        return -1;
    }
    char vis[256];
    frx_gpu_visible(visible_vars, 1, vis, sizeof vis);
    cu_result rc = d->Init(0);
    if (rc == CU_OK)
        rc = d->DeviceGetCount(count);
    if (rc == CU_OK && *count == 0)
        rc = CU_ERR_NO_DEVICE;
    if (rc == CU_ERR_NO_DEVICE) {
        snprintf(why, n, "cuda: no device (CUDA_ERROR_NO_DEVICE)%s%s",
                 *vis ? " with " : "", vis);
        return -1;
    }
    if (rc != CU_OK) {
        char e2[PATH_MAX * 2 + 300];
        frx_cuda_init_failed(d, rc, e2, sizeof e2);
        snprintf(why, n, "cuda: %s", e2);
        return -1;
    }
    if (open_nvrtc(r, why, n) != 0)
        return -1;
    return versions_agree(d, r, version, why, n);
}

static int describe(const struct cu_driver *d, int ordinal,
                    struct gpu_device *out)
{
    cu_device dev;
    cu_uuid u;
    int major = 0, minor = 0;
    cu_result rc = d->DeviceGet(&dev, ordinal);
    if (rc == CU_OK)
        rc = d->DeviceGetName(out->name, (int)sizeof out->name, dev);
    if (rc == CU_OK)
        rc = d->DeviceGetUuid(&u, dev);
    if (rc == CU_OK)
        rc = d->DeviceGetAttribute(&major, CU_ATTR_CC_MAJOR, dev);
    if (rc == CU_OK)
        rc = d->DeviceGetAttribute(&minor, CU_ATTR_CC_MINOR, dev);
    if (rc != CU_OK)
        return rc;
    out->name[sizeof out->name - 1] = '\0';
    frx_gpu_uuid_text((const unsigned char *)u.bytes, out->id,
                      sizeof out->id);
    snprintf(out->arch, sizeof out->arch, "sm_%d%d", major, minor);
    return CU_OK;
}

static int cu_probe(char *why, size_t n)
{
    struct cu_driver d;
    struct gpu_rtc r;
    int count = 0, version = 0;
    if (open_all(&d, &r, &count, &version, why, n) != 0)
        return FRX_EUNAVAIL;
    struct gpu_device first;
    cu_result rc = describe(&d, 0, &first);
    if (rc != CU_OK) {
        snprintf(why, n, "cuda: device 0 does not answer: %s",
                 frx_cuda_err(&d, rc).s);
        return FRX_EUNAVAIL;
    }
    snprintf(why, n, "%d device(s), 0 = %s (%s); driver %d.%d, NVRTC %d.%d",
             count, first.name, first.arch, version / 1000,
             version % 1000 / 10, r.major, r.minor);
    return FRX_OK;
}

/* Does this NVRTC compile for arch? Where it cannot say, yes. */
static int nvrtc_knows(const struct gpu_rtc *r, const char *arch, char *known,
                       size_t n)
{
    int archs[128];
    int k = frx_gpu_nvrtc_archs(r, archs, 128);
    if (k <= 0)
        return 1;
    char names[128][16];
    const char *p[128];
    for (int i = 0; i < k; i++) {
        snprintf(names[i], sizeof names[i], "sm_%d", archs[i]);
        p[i] = names[i];
    }
    snprintf(known, n, "sm_%d to sm_%d", archs[0], archs[k - 1]);
    return frx_gpu_arch_known(arch, p, (size_t)k);
}

/* ------------------------------------------------------ create, destroy */

static void cu_destroy(void *state)
{
    struct cu_state *s = state;
    if (!s)
        return;
    if (s->stream) {
        frx_gpu_stop(&s->g);
        if (s->blas_h) /* before its stream */
            s->blas.Destroy(s->blas_h);
        s->d.StreamDestroy(s->stream);
    }
    if (s->have_ctx)
        s->d.DevicePrimaryCtxRelease(s->dev);
    free(s);
}

/* The device of backend.cuda.device or a rule, its context and stream. */
static int open_device(struct cu_state *s, const frx_backend_init *init,
                       int count, struct gpu_device *chosen)
{
    struct gpu_device devs[64];
    int n = count < 64 ? count : 64;
    for (int i = 0; i < n; i++) {
        cu_result rc = describe(&s->d, i, &devs[i]);
        if (rc)
            return cu_fail(s, rc, "cuDeviceGet (name, UUID, compute "
                           "capability)", "describing device %d", i);
    }
    int k;
    int rc = frx_gpu_pick(init, "cuda", visible_vars, 1, devs, (size_t)n, &k);
    if (rc)
        return rc;
    *chosen = devs[k];
    cu_result r = s->d.DeviceGet(&s->dev, k);
    if (r == CU_OK)
        r = s->d.DevicePrimaryCtxRetain(&s->ctx, s->dev);
    if (r)
        return cu_fail(s, r, "cuDevicePrimaryCtxRetain", "device %d (%s)", k,
                       chosen->name);
    s->have_ctx = 1;
    r = s->d.CtxSetCurrent(s->ctx);
    if (r)
        return cu_fail(s, r, "cuCtxSetCurrent", "device %d (%s)", k,
                       chosen->name);
    /* non-blocking: it never waits for the legacy stream, which an MPI
     * library may use */
    r = s->d.StreamCreate(&s->stream, CU_STREAM_NONBLOCKING);
    if (r)
        return cu_fail(s, r, "cuStreamCreate", "device %d (%s)", k,
                       chosen->name);
    snprintf(s->g.device, sizeof s->g.device, "%s", chosen->name);
    return FRX_OK;
}

static int attribute(struct cu_state *s, int attr, unsigned *out)
{
    int v = 0;
    cu_result rc = s->d.DeviceGetAttribute(&v, attr, s->dev);
    if (rc)
        return cu_fail(s, rc, "cuDeviceGetAttribute", "attribute %d", attr);
    *out = v > 0 ? (unsigned)v : 0;
    return FRX_OK;
}

static int set_up(struct cu_state *s, const frx_backend_init *init,
                  unsigned *warp, struct gpu_device *dev)
{
    char why[1500];
    int count = 0, version = 0;
    if (open_all(&s->d, &s->g.rtc, &count, &version, why, sizeof why) != 0)
        return frx_error(FRX_EUNAVAIL, "%s", why);
    int rc = open_device(s, init, count, dev);
    if (rc)
        return rc;
    struct gpu *g = &s->g;
    char known[64] = "";
    if (!nvrtc_knows(&g->rtc, dev->arch, known, sizeof known))
        return frx_error(FRX_EUNAVAIL, "cuda: NVRTC %d.%d (%s) cannot "
                         "compile for %s, the architecture of '%s' (it "
                         "knows %s): use a CUDA toolkit that knows it "
                         "(CUDA_HOME)", g->rtc.major, g->rtc.minor,
                         g->rtc.path, dev->arch, dev->name, known);
    g->lim.block = CU_BLOCK;
    rc = attribute(s, CU_ATTR_MAX_GRID_DIM_X, &g->lim.max_grid_x);
    if (rc == FRX_OK)
        rc = attribute(s, CU_ATTR_MAX_GRID_DIM_Y, &g->lim.max_grid_y);
    if (rc == FRX_OK)
        rc = attribute(s, CU_ATTR_WARP_SIZE, warp);
    if (rc)
        return rc;
    snprintf(g->arch, sizeof g->arch, "%s", dev->arch);
    snprintf(g->driver, sizeof g->driver, "CUDA driver %d", version);
    snprintf(g->rtc_version, sizeof g->rtc_version, "NVRTC %d.%d",
             g->rtc.major, g->rtc.minor);
    snprintf(g->arch_opt, sizeof g->arch_opt, "--gpu-architecture=%.40s",
             dev->arch);
    g->rtc_opts[0] = g->arch_opt;
    g->nrtc_opts = 1;
    return frx_gpu_start(g);
}

static int cu_create(const frx_backend_init *init, frx_backend_info *info,
                     void **state)
{
    struct cu_state *s = calloc(1, sizeof *s);
    if (!s)
        return frx_error(FRX_ENOMEM, "cuda: out of memory");
    s->g = (struct gpu){.vd = &cu_vendor, .vendor = "cuda",
                        .target = FRX_TARGET_CUDA,
                        .precision = init->precision, .suffix = ".cubin",
                        .src_suffix = ".cu", .idle = 1};
    unsigned warp = 0;
    struct gpu_device dev;
    int rc = set_up(s, init, &warp, &dev);
    if (rc == FRX_OK)
        rc = frx_gpu_describe(&s->g, warp, "warp", &dev, "cuda", info);
    if (rc) {
        cu_destroy(s);
        return rc;
    }
    *state = s;
    return FRX_OK;
}

static const frx_backend_ops cu_ops = {
    .size = sizeof(frx_backend_ops),
    .priority = 100, /* the vendor's own backend first */
    .options = cu_options,
    .probe = cu_probe,
    .create = cu_create,
    .destroy = cu_destroy,
    .target = FRX_TARGET_CUDA,
    FRX_GPU_BACKEND_OPS,
    FRX_GPU_PRODUCT_OPS(cu_libs),
};

static const frx_plugin_desc cu_desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_BACKEND, "cuda", FRX_VERSION,
                         "NVIDIA GPUs (CUDA driver API, NVRTC)"),
    .backend = &cu_ops,
};

FRX_PLUGIN_DEFINE(cu_desc)
