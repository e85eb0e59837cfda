/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda backend: NVIDIA GPUs through the driver API, opened at run time
 * (libcuda.so.1; the plugin never links it), kernels compiled by NVRTC
 * from the toolkit for the device's own architecture (sm_XY) and cached
 * as CUBIN. One device per rank, its primary context (the one CUDA-aware
 * MPI libraries and the runtime API use), one non-blocking stream.
 * cuBLAS, opened at run time too, is a provider of operator products.
 * What is here is what CUDA does its own way: the driver's calls found
 * by name (cudrv.h), NVRTC and the toolkit, describing a device, its
 * context, cuBLAS (struct gpu_backend); everything else is
 * gpu-common's. */
#include "cublasdl.h"
#include "cudrv.h"
#include "gpu.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CU_LIB "libcuda.so.1"
#define CU_BLOCK 128 /* threads per block */

#ifndef FRX_CUDA_HOME
#define FRX_CUDA_HOME "/usr/local/cuda"
#endif

static const frx_option cu_options[] = {
    FRX_GPU_DEVICE_OPTION("UUID (GPU-..., as nvidia-smi -L shows)"), {0}};

struct cu_state {
    struct gpu g; /* first: gpu-common's part */
    struct cu_driver d;
    int version;  /* the driver's, 13000 for 13.0 */
    cu_device dev;
    cu_context ctx;
    int have_ctx;
    struct cu_blas blas;
    cublas_handle blas_h; /* made on the first product that may use it */
    char blas_why[1500];  /* why cuBLAS cannot be had, once it was tried */
};

static struct cu_state *cu(struct gpu *g) { return (struct cu_state *)g; }

static void cu_describe_error(const struct gpu *g, int rc, char *buf,
                              size_t n)
{
    snprintf(buf, n, "%s",
             frx_cuda_err(&((const struct cu_state *)g)->d, rc).s);
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
        st = s->blas.SetStream(s->blas_h, s->g.stream);
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
    FRX_GPU_DRIVER_PRIMITIVES, .blas = "cublas", .blas_open = cu_blas_open,
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
 * *count devices. */
static int open_all(struct cu_state *s, int *count, char *why, size_t n)
{
    struct cu_driver *d = &s->d;
    char e[400];
    if (frx_cuda_driver_open(d, CU_LIB, e, sizeof e) != 0) {
        snprintf(why, n, "cuda: %s", e);
        return -1;
    }
    d->api.host_alloc_flags = CU_HOSTALLOC_PORTABLE;
    d->api.event_flags = CU_EVENT_NO_TIMING;
    d->api.out_of_memory = CU_ERR_OUT_OF_MEMORY;
    d->api.attr_max_grid_x = CU_ATTR_MAX_GRID_DIM_X;
    d->api.attr_max_grid_y = CU_ATTR_MAX_GRID_DIM_Y;
    d->api.attr_warp = CU_ATTR_WARP_SIZE;
    d->api.describe = cu_describe_error;
    s->g.api = &d->api;
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
    if (open_nvrtc(&s->g.rtc, why, n) != 0)
        return -1;
    return versions_agree(d, &s->g.rtc, &s->version, why, n);
}

static int cu_open(struct gpu *g, int *count)
{
    char why[PATH_MAX * 2 + 400];
    return open_all(cu(g), count, why, sizeof why) == 0
               ? FRX_OK : frx_error(FRX_EUNAVAIL, "%s", why);
}

static int cu_describe(struct gpu *g, int ordinal, struct gpu_device *out)
{
    const struct cu_driver *d = &cu(g)->d;
    cu_device dev;
    cu_uuid u;
    int major = 0, minor = 0;
    cu_result rc = d->DeviceGet(&dev, ordinal);
    if (rc == CU_OK)
        rc = d->DeviceGetName(out->name, (int)sizeof out->name, dev);
    if (rc == CU_OK)
        rc = d->DeviceGetUuid(&u, dev);
    if (rc == CU_OK)
        rc = d->api.device_attribute(&major, CU_ATTR_CC_MAJOR, dev);
    if (rc == CU_OK)
        rc = d->api.device_attribute(&minor, CU_ATTR_CC_MINOR, dev);
    if (rc != CU_OK)
        return frx_gpu_fail(g, rc, "cuDeviceGet (name, UUID, compute "
                            "capability)", "describing device %d", ordinal);
    out->name[sizeof out->name - 1] = '\0';
    frx_gpu_uuid_text((const unsigned char *)u.bytes, out->id,
                      sizeof out->id);
    snprintf(out->arch, sizeof out->arch, "sm_%d%d", major, minor);
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

static int cu_compiles(struct gpu *g, const struct gpu_device *dev)
{
    char known[64] = "";
    if (nvrtc_knows(&g->rtc, dev->arch, known, sizeof known))
        return FRX_OK;
    return frx_error(FRX_EUNAVAIL, "cuda: NVRTC %d.%d (%s) cannot compile "
                     "for %s, the architecture of '%s' (it knows %s): use a "
                     "CUDA toolkit that knows it (CUDA_HOME)", g->rtc.major,
                     g->rtc.minor, g->rtc.path, dev->arch, dev->name, known);
}

/* The device's primary context, current, and a stream on it. */
static int cu_open_device(struct gpu *g, const struct gpu_device *dev)
{
    struct cu_state *s = cu(g);
    int k = g->ordinal;
    cu_result r = s->d.DeviceGet(&s->dev, k);
    if (r == CU_OK)
        r = s->d.DevicePrimaryCtxRetain(&s->ctx, s->dev);
    if (r)
        return frx_gpu_fail(g, r, "cuDevicePrimaryCtxRetain", "device %d "
                            "(%s)", k, dev->name);
    s->have_ctx = 1;
    g->ordinal = s->dev; /* as cuDeviceGetAttribute takes it */
    r = s->d.CtxSetCurrent(s->ctx);
    if (r)
        return frx_gpu_fail(g, r, "cuCtxSetCurrent", "device %d (%s)", k,
                            dev->name);
    /* non-blocking: it never waits for the legacy stream, which an MPI
     * library may use */
    cu_stream stream = NULL;
    r = s->d.StreamCreate(&stream, CU_STREAM_NONBLOCKING);
    if (r)
        return frx_gpu_fail(g, r, "cuStreamCreate", "device %d (%s)", k,
                            dev->name);
    g->stream = stream;
    snprintf(g->driver, sizeof g->driver, "CUDA driver %d", s->version);
    return FRX_OK;
}

static void cu_versions(const struct gpu *g, char *buf, size_t n)
{
    int v = ((const struct cu_state *)g)->version;
    snprintf(buf, n, "driver %d.%d, NVRTC %d.%d", v / 1000, v % 1000 / 10,
             g->rtc.major, g->rtc.minor);
}

static void cu_close(struct gpu *g)
{
    struct cu_state *s = cu(g);
    if (g->stream) {
        if (s->blas_h) /* before its stream */
            s->blas.Destroy(s->blas_h);
        s->d.StreamDestroy(g->stream);
    }
    if (s->have_ctx)
        s->d.DevicePrimaryCtxRelease(s->dev);
}

static const struct gpu_backend cu_backend = {
    .name = "cuda", .target = FRX_TARGET_CUDA,
    .state_size = sizeof(struct cu_state), .vd = &cu_vendor,
    .suffix = ".cubin", .src_suffix = ".cu", .chunk = "warp",
    .mpi_kind = "cuda", .block = CU_BLOCK,
    .arch_opt = "--gpu-architecture=", .visible = visible_vars,
    .nvisible = 1, .open = cu_open, .describe = cu_describe,
    .compiles = cu_compiles, .open_device = cu_open_device,
    .versions = cu_versions, .close = cu_close};

/* the vendor's own backend first */
FRX_GPU_PLUGIN(cu_backend, "cuda", FRX_TARGET_CUDA, 100, cu_options,
               "NVIDIA GPUs (CUDA driver API, NVRTC)",
               FRX_GPU_PRODUCT_OPS(cu_libs))
