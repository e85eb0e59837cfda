/* SPDX-License-Identifier: BSD-3-Clause */
/* bench/devcopy: the device's own copy bandwidth, the reference that
 * tests/gpu/run.sh holds pack and pointwise against: one device-to-device
 * copy through the vendor's API (cuMemcpyDtoDAsync, hipMemcpyDtoDAsync),
 * waited for, the median of rounds of runs. Bytes counted as read plus
 * written, as bench/pack and bench/pointwise count theirs.
 *
 *   build/bench/devcopy cuda|hip [MBYTES]     (default 1024) */
#include "timing.h"

#include "cudrv.h"

#ifdef FRX_HAVE_HIP
#include <hip/hip_runtime_api.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct copy {
    int hip;
    struct cu_driver d;
    cu_stream stream;
    cu_ptr a, b;
#ifdef FRX_HAVE_HIP
    hipStream_t hstream;
    void *ha, *hb;
#endif
    size_t bytes;
    int failed;
};

static void one_copy(void *ctx)
{
    struct copy *c = ctx;
#ifdef FRX_HAVE_HIP
    if (c->hip) {
        c->failed |= hipMemcpyDtoDAsync(c->hb, c->ha, c->bytes,
                                        c->hstream) != hipSuccess;
        c->failed |= hipStreamSynchronize(c->hstream) != hipSuccess;
        return;
    }
#endif
    c->failed |= c->d.MemcpyDtoDAsync(c->b, c->a, c->bytes, c->stream) != 0;
    c->failed |= c->d.api.stream_wait(c->stream) != 0;
}

static int cuda_start(struct copy *c, char *name, size_t n)
{
    char why[512];
    cu_device dev;
    cu_context ctx;
    int major = 0, minor = 0;
    if (frx_cuda_driver_open(&c->d, "libcuda.so.1", why, sizeof why) != 0) {
        fprintf(stderr, "bench/devcopy: cuda: %s\n", why);
        return 1;
    }
    int rc = c->d.Init(0);
    rc = rc ? rc : c->d.DeviceGet(&dev, 0);
    rc = rc ? rc : c->d.DeviceGetName(name, (int)n, dev);
    rc = rc ? rc : c->d.api.device_attribute(&major, CU_ATTR_CC_MAJOR, dev);
    rc = rc ? rc : c->d.api.device_attribute(&minor, CU_ATTR_CC_MINOR, dev);
    rc = rc ? rc : c->d.DevicePrimaryCtxRetain(&ctx, dev);
    rc = rc ? rc : c->d.CtxSetCurrent(ctx);
    rc = rc ? rc : c->d.StreamCreate(&c->stream, CU_STREAM_NONBLOCKING);
    rc = rc ? rc : c->d.api.mem_alloc(&c->a, c->bytes);
    rc = rc ? rc : c->d.api.mem_alloc(&c->b, c->bytes);
    rc = rc ? rc : c->d.api.memset_async(c->a, 1, c->bytes, c->stream);
    rc = rc ? rc : c->d.api.stream_wait(c->stream);
    if (rc) {
        fprintf(stderr, "bench/devcopy: cuda: device 0: %s (%d)\n",
                frx_cuda_errname(&c->d, rc), rc);
        return 1;
    }
    size_t len = strlen(name);
    snprintf(name + len, n - len, " (sm_%d%d)", major, minor);
    return 0;
}

static int hip_start(struct copy *c, char *name, size_t n)
{
#ifdef FRX_HAVE_HIP
    hipDeviceProp_t p;
    hipError_t rc = hipGetDeviceProperties(&p, 0);
    rc = rc ? rc : hipSetDevice(0);
    rc = rc ? rc : hipStreamCreateWithFlags(&c->hstream, hipStreamNonBlocking);
    rc = rc ? rc : hipMalloc(&c->ha, c->bytes);
    rc = rc ? rc : hipMalloc(&c->hb, c->bytes);
    rc = rc ? rc : hipMemsetD8Async(c->ha, 1, c->bytes, c->hstream);
    rc = rc ? rc : hipStreamSynchronize(c->hstream);
    if (rc) {
        fprintf(stderr, "bench/devcopy: hip: device 0: %s (%d)\n",
                hipGetErrorName(rc), (int)rc);
        return 1;
    }
    snprintf(name, n, "%.100s (%.40s)", p.name, p.gcnArchName);
    return 0;
#else
    (void)c, (void)name, (void)n;
    fprintf(stderr, "bench/devcopy: hip: built without HIP "
            "(libamdhip64-dev)\n");
    return 1;
#endif
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "cuda") && strcmp(argv[1], "hip"))) {
        fprintf(stderr, "usage: devcopy cuda|hip [MBYTES]\n");
        return 2;
    }
    struct copy c = {.hip = strcmp(argv[1], "hip") == 0};
    c.bytes = (size_t)((argc > 2 ? atof(argv[2]) : 1024.0) * (1 << 20));
    char name[256] = "";
    if (c.hip ? hip_start(&c, name, sizeof name)
              : cuda_start(&c, name, sizeof name))
        return 1;
    double t[ROUNDS];
    for (int k = 0; k < ROUNDS; k++)
        t[k] = median_time(one_copy, &c);
    if (c.failed) {
        fprintf(stderr, "bench/devcopy: a copy failed\n");
        return 1;
    }
    qsort(t, ROUNDS, sizeof *t, bench_cmp_double);
    double gb = 2.0 * (double)c.bytes / 1e9;
    printf("devcopy: %s: %s: %zu-byte copies: %.1f GB/s (read + write), "
           "median of %d rounds of %d\n", argv[1], name, c.bytes,
           gb / t[ROUNDS / 2], ROUNDS, REPEATS);
    return 0;
}
