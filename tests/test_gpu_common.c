/* SPDX-License-Identifier: BSD-3-Clause */
/* gpu-common's parts that need no GPU (device choice, launch geometry and
 * parameters, the compilers' loader, products by a vendor BLAS on a
 * vendor that records its gemm) and the core's pack kernel generator,
 * unit-tested. */
#include "gpu.h"

#include <check.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct gpu_device devs[] = {
    {"NVIDIA H200", "GPU-5f8a1c2e-0b3d-4e6f-8a9b-0c1d2e3f4a5b", "sm_90"},
    {"NVIDIA H200", "GPU-5f8a9999-0000-1111-2222-333344445555", "sm_90"},
    {"NVIDIA A100", "GPU-a100beef-0000-1111-2222-333344445555", "sm_80"},
};

static int choose(const char *spec, int local_rank, char *why, size_t n)
{
    return frx_gpu_choose(spec, local_rank, devs, 3, "", why, n);
}

START_TEST(choose_local_rank_wraps)
{
    char why[1024];
    ck_assert_int_eq(choose("local-rank", 0, why, sizeof why), 0);
    ck_assert_int_eq(choose("local-rank", 2, why, sizeof why), 2);
    ck_assert_int_eq(choose("local-rank", 7, why, sizeof why), 1);
    ck_assert_int_eq(choose("local-rank", -1, why, sizeof why), 0);
}
END_TEST

START_TEST(choose_index)
{
    char why[1024] = "";
    ck_assert_int_eq(choose("1", 0, why, sizeof why), 1);
    ck_assert_int_eq(choose("3", 0, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "no device 3 (there are 3: 0 = NVIDIA "
                                      "H200 (sm_90, GPU-5f8a1c2e"));
    ck_assert_ptr_nonnull(strstr(why, "2 = NVIDIA A100 (sm_80"));
    ck_assert_int_eq(frx_gpu_choose("1", 0, devs, 1, "CUDA_VISIBLE_DEVICES=4",
                                    why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "there is 1 with "
                                      "CUDA_VISIBLE_DEVICES=4"));
    ck_assert_int_eq(choose("99999999999", 0, why, sizeof why), -1);
}
END_TEST

START_TEST(choose_by_id)
{
    char why[1024] = "";
    ck_assert_int_eq(choose("GPU-a100beef-0000-1111-2222-333344445555", 0,
                            why, sizeof why), 2);
    ck_assert_int_eq(choose("gpu-A100BEEF", 0, why, sizeof why), 2);
    ck_assert_int_eq(choose("5f8a1c", 0, why, sizeof why), 0);
    ck_assert_int_eq(choose("5f8a", 0, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "more than one device has an id "
                                      "starting with '5f8a'"));
    ck_assert_int_eq(choose("GPU-ffff", 0, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "no device has the id or index "
                                      "'GPU-ffff'"));
    ck_assert_ptr_nonnull(strstr(why, "use local-rank"));
    ck_assert_int_eq(choose("GPU-", 0, why, sizeof why), -1);
}
END_TEST

START_TEST(choose_without_devices)
{
    char why[256];
    ck_assert_int_eq(frx_gpu_choose("local-rank", 0, devs, 0,
                                    "HIP_VISIBLE_DEVICES=", why, sizeof why),
                     -1);
    ck_assert_str_eq(why, "no device is visible with HIP_VISIBLE_DEVICES=");
}
END_TEST

/* backend.<name>.device, its place in the file, and a rule that wins. */
START_TEST(device_spec_from_option_or_rule)
{
    const char text[] = "backend:\n  precision: double\n  cuda:\n"
                        "    device: GPU-a100\n";
    frx_config *cfg;
    ck_assert_int_eq(frx_config_parse(text, strlen(text), "case.yaml", &cfg),
                     FRX_OK);
    frx_backend_init init = {
        .size = sizeof init,
        .options = frx_cfg_get(frx_config_root(cfg), "backend.cuda")};
    const char *spec;
    char where[256];
    ck_assert_int_eq(frx_gpu_device_spec(&init, "cuda", &spec, where,
                                         sizeof where), FRX_OK);
    ck_assert_str_eq(spec, "GPU-a100");
    ck_assert_str_eq(where, "case.yaml:4:13: backend.cuda.device");
    init.device = "1";
    ck_assert_int_eq(frx_gpu_device_spec(&init, "cuda", &spec, where,
                                         sizeof where), FRX_OK);
    ck_assert_str_eq(spec, "1");
    ck_assert_str_eq(where, "backend.rules device");
    /* an older core's init, which ends before device */
    init.size = offsetof(frx_backend_init, device);
    init.options = NULL;
    ck_assert_int_eq(frx_gpu_device_spec(&init, "hip", &spec, where,
                                         sizeof where), FRX_OK);
    ck_assert_str_eq(spec, "local-rank");
    ck_assert_str_eq(where, "backend.hip.device");
    frx_config_free(cfg);
}
END_TEST

START_TEST(visible_and_uuid_text)
{
    static const char *const vars[] = {"FRX_TEST_NOT_SET_1",
                                       "FRX_TEST_VISIBLE"};
    char out[64];
    unsetenv("FRX_TEST_NOT_SET_1");
    unsetenv("FRX_TEST_VISIBLE");
    frx_gpu_visible(vars, 2, out, sizeof out);
    ck_assert_str_eq(out, "");
    setenv("FRX_TEST_VISIBLE", "1,3", 1);
    frx_gpu_visible(vars, 2, out, sizeof out);
    ck_assert_str_eq(out, "FRX_TEST_VISIBLE=1,3");
    const unsigned char u[16] = {0x5f, 0x8a, 0x1c, 0x2e, 0x0b, 0x3d,
                                 0x4e, 0x6f, 0x8a, 0x9b, 0x0c, 0x1d,
                                 0x2e, 0x3f, 0x4a, 0x5b};
    char id[80];
    frx_gpu_uuid_text(u, id, sizeof id);
    ck_assert_str_eq(id, devs[0].id);
}
END_TEST

START_TEST(arch_known)
{
    const char *const amd[] = {"gfx908", "gfx90a", "gfx1030"};
    ck_assert(frx_gpu_arch_known("gfx90a:sramecc+:xnack-", amd, 3));
    ck_assert(frx_gpu_arch_known("GFX1030", amd, 3));
    ck_assert(!frx_gpu_arch_known("gfx90", amd, 3));
    ck_assert(!frx_gpu_arch_known("gfx942", amd, 3));
    const char *const nv[] = {"sm_80", "sm_90"};
    ck_assert(frx_gpu_arch_known("sm_90", nv, 2));
    ck_assert(!frx_gpu_arch_known("sm_9", nv, 2));
}
END_TEST

/* ------------------------------------------------------------ launches */

START_TEST(geometry)
{
    struct gpu_limits lim = {128, 1000, 65535};
    unsigned grid[2];
    ck_assert_int_eq(frx_gpu_geometry(&lim, 1000, 1, "k", grid), FRX_OK);
    ck_assert_uint_eq(grid[0], 8);
    ck_assert_uint_eq(grid[1], 1);
    ck_assert_int_eq(frx_gpu_geometry(&lim, 128, 7, "k", grid), FRX_OK);
    ck_assert_uint_eq(grid[0], 1);
    ck_assert_uint_eq(grid[1], 7);
    ck_assert_int_eq(frx_gpu_geometry(&lim, 128000, 1, "k", grid), FRX_OK);
    ck_assert_uint_eq(grid[0], 1000);
    ck_assert_int_eq(frx_gpu_geometry(&lim, 128001, 1, "kernel 'big'", grid),
                     FRX_ERANGE);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "kernel 'big': 128001 points "
                                               "need 1001 blocks"));
    ck_assert_int_eq(frx_gpu_geometry(&lim, 10, 65536, "kernel 'rows'",
                                      grid), FRX_ERANGE);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "kernel 'rows': 65536 rows"));
    ck_assert_int_eq(frx_gpu_geometry(&lim, 0, 1, "k", grid), FRX_ERANGE);
    ck_assert_int_eq(frx_gpu_geometry(&lim, 10, 0, "k", grid), FRX_ERANGE);
    lim.max_grid_x = UINT_MAX;
    ck_assert_int_eq(frx_gpu_geometry(&lim, (size_t)INT_MAX + 1, 1, "k",
                                      grid), FRX_ERANGE);
    lim.block = 0;
    ck_assert_int_eq(frx_gpu_geometry(&lim, 10, 1, "k", grid), FRX_EINVAL);
}
END_TEST

START_TEST(params_as_kernels_take_them)
{
    double d;
    frx_param p[] = {{.type = FRX_PARAM_MEM, .mem = &d},
                     {.type = FRX_PARAM_INT, .i = -7},
                     {.type = FRX_PARAM_FP, .d = 0.1},
                     {.type = FRX_PARAM_INT64, .i = (int64_t)5 << 32}};
    union gpu_value v[4];
    void *ptr[4];
    ck_assert_int_eq(frx_gpu_params(p, 4, FRX_DOUBLE, "k", v, ptr), FRX_OK);
    ck_assert(*(void **)ptr[0] == (void *)&d);
    ck_assert_int_eq(*(int32_t *)ptr[1], -7);
    ck_assert(*(double *)ptr[2] == 0.1);
    ck_assert(*(int64_t *)ptr[3] == (int64_t)5 << 32); /* a matrix offset */
    ck_assert_int_eq(frx_gpu_params(p, 3, FRX_SINGLE, "k", v, ptr), FRX_OK);
    ck_assert(*(float *)ptr[2] == 0.1f);
    for (int k = 0; k < 4; k++)
        ck_assert_ptr_eq(ptr[k], &v[k]);
    p[1].i = (int64_t)INT32_MAX + 1;
    ck_assert_int_eq(frx_gpu_params(p, 3, FRX_DOUBLE, "kernel 'x'", v, ptr),
                     FRX_ERANGE);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "kernel 'x': parameter 1"));
    p[1].type = 99;
    ck_assert_int_eq(frx_gpu_params(p, 3, FRX_DOUBLE, "k", v, ptr),
                     FRX_EINVAL);
}
END_TEST

START_TEST(rtc_open_says_what_it_tried)
{
    struct gpu_rtc r;
    char why[1024];
    const char *const none[] = {"libfrx-no-such-rtc.so",
                                "/nonexistent/libnvrtc.so", NULL};
    ck_assert_int_eq(frx_gpu_rtc_open(&r, "NVRTC", "nvrtc", "CUBIN", none, why,
                                      sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "libfrx-no-such-rtc.so"));
    ck_assert_ptr_nonnull(strstr(why, "; /nonexistent/libnvrtc.so"));
    const char *const libm[] = {"libm.so.6", NULL};
    ck_assert_int_eq(frx_gpu_rtc_open(&r, "NVRTC", "nvrtc", "CUBIN", libm, why,
                                      sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "libm.so.6 lacks NVRTC's functions"));
}
END_TEST

START_TEST(log_names_the_kept_source)
{
    char *s = frx_gpu_log_with_path(
        "k.cu(21): error: expected an expression\n1 error detected in k.cu.\n"
        "k.cu:7:3: error: x\nk.cu(x) k.c", "k.cu", "/tmp/d/k.cu");
    ck_assert_str_eq(s, "/tmp/d/k.cu:21: error: expected an expression\n"
                        "1 error detected in k.cu.\n/tmp/d/k.cu:7:3: error: "
                        "x\nk.cu(x) k.c");
    free(s);
    s = frx_gpu_log_with_path("k.cu", "k.cu", "/p");
    ck_assert_str_eq(s, "k.cu");
    free(s);
}
END_TEST

/* ------------------------------------- the primitives over a driver */

/* A driver that records its last call and answers with drv.rc. */
static struct {
    int rc, calls;
    const char *last;
    gpu_dptr addr;
    size_t bytes;
    unsigned flags, grid[3], block[3];
    void *stream, *ev, **params;
    const void *host;
    int to_host;
} drv;

#define RECORD(name) (drv.calls++, drv.last = name, drv.rc)

static int d_alloc(gpu_dptr *a, size_t n)
{
    drv.bytes = n;
    *a = drv.rc ? 0 : 0x7000;
    return RECORD("alloc");
}

static int d_host_alloc(void **h, size_t n, unsigned f)
{
    drv.bytes = n, drv.flags = f;
    *h = NULL;
    return RECORD("host_alloc");
}

static int d_memset(gpu_dptr a, unsigned char v, size_t n, void *s)
{
    ck_assert_int_eq(v, 0);
    drv.addr = a, drv.bytes = n, drv.stream = s;
    return RECORD("memset");
}

static int d_to_device(gpu_dptr a, const void *h, size_t n, void *s)
{
    drv.addr = a, drv.host = h, drv.bytes = n, drv.stream = s;
    drv.to_host = 0;
    return RECORD("to_device");
}

static int d_to_host(void *h, gpu_dptr a, size_t n, void *s)
{
    drv.addr = a, drv.host = h, drv.bytes = n, drv.stream = s;
    drv.to_host = 1;
    return RECORD("to_host");
}

static int d_event_create(void **ev, unsigned f)
{
    drv.flags = f;
    *ev = &drv;
    return RECORD("event_create");
}

static int d_record(void *ev, void *s)
{
    drv.ev = ev, drv.stream = s;
    return RECORD("record");
}

static int d_stream_wait(void *s)
{
    drv.stream = s;
    return RECORD("stream_wait");
}

static int d_launch(void *f, unsigned gx, unsigned gy, unsigned gz,
                    unsigned bx, unsigned by, unsigned bz, unsigned shared,
                    void *s, void **params, void **extra)
{
    (void)f;
    ck_assert_uint_eq(shared, 0);
    ck_assert_ptr_null(extra);
    drv.grid[0] = gx, drv.grid[1] = gy, drv.grid[2] = gz;
    drv.block[0] = bx, drv.block[1] = by, drv.block[2] = bz;
    drv.stream = s, drv.params = params;
    return RECORD("launch");
}

static void d_describe(const struct gpu *g, int rc, char *buf, size_t n)
{
    (void)g;
    snprintf(buf, n, "TEST_ERROR_%d (%d): it went wrong", rc, rc);
}

static const struct gpu_api rec_api = {
    .mem_alloc = d_alloc, .host_alloc = d_host_alloc,
    .memset_async = d_memset, .copy_to_device = d_to_device,
    .copy_to_host = d_to_host, .event_create = d_event_create,
    .event_record = d_record, .stream_wait = d_stream_wait,
    .launch = d_launch,
    .name = {.mem_alloc = "tMemAlloc", .host_alloc = "tHostAlloc",
             .memset_async = "tMemset", .copy_to_device = "tCopyHtoD",
             .copy_to_host = "tCopyDtoH", .event_create = "tEventCreate",
             .event_record = "tEventRecord", .stream_wait = "tStreamSync",
             .launch = "tLaunch"},
    .host_alloc_flags = 5, .event_flags = 7, .out_of_memory = 2,
    .describe = d_describe};

/* Each primitive makes its call on the backend's stream with the
 * driver's flags; a failure names the vendor, what was being done, the
 * call and the driver's description, and the driver's out of memory is
 * FRX_ENOMEM. */
START_TEST(driver_primitives_call_and_name)
{
    int stream;
    struct gpu g = {.api = &rec_api, .vendor = "testgpu", .stream = &stream,
                    .device = "Test GPU"};
    memset(&drv, 0, sizeof drv);
    uint64_t addr = 0;
    ck_assert_int_eq(frx_gpu_drv_alloc(&g, 256, &addr), FRX_OK);
    ck_assert_uint_eq(addr, 0x7000);
    ck_assert_uint_eq(drv.bytes, 256);
    drv.rc = 2;
    ck_assert_int_eq(frx_gpu_drv_alloc(&g, 512, &addr), FRX_ENOMEM);
    ck_assert_str_eq(frx_errmsg(), "testgpu: allocating 512 bytes on 'Test "
                     "GPU': tMemAlloc failed: TEST_ERROR_2 (2): it went "
                     "wrong");
    drv.rc = 700;
    void *host;
    ck_assert_int_eq(frx_gpu_drv_host_alloc(&g, 64, &host), FRX_EBACKEND);
    ck_assert_uint_eq(drv.flags, 5);
    ck_assert_str_eq(frx_errmsg(), "testgpu: allocating 64 bytes of pinned "
                     "host memory: tHostAlloc failed: TEST_ERROR_700 (700): "
                     "it went wrong");
    drv.rc = 0;
    ck_assert_int_eq(frx_gpu_drv_zero(&g, 0x7100, 128), FRX_OK);
    ck_assert(drv.addr == 0x7100 && drv.bytes == 128);
    ck_assert_ptr_eq(drv.stream, &stream);
    char buf[8];
    ck_assert_int_eq(frx_gpu_drv_copy(&g, 0x7200, buf, 8, 1), FRX_OK);
    ck_assert_str_eq(drv.last, "to_host");
    ck_assert(drv.addr == 0x7200 && drv.host == buf && drv.bytes == 8);
    drv.rc = 1;
    ck_assert_int_eq(frx_gpu_drv_copy(&g, 0x7200, buf, 8, 0), FRX_EBACKEND);
    ck_assert_str_eq(drv.last, "to_device");
    ck_assert_str_eq(frx_errmsg(), "testgpu: copying 8 bytes to the device: "
                     "tCopyHtoD failed: TEST_ERROR_1 (1): it went wrong");
    drv.rc = 0;
    void *ev = NULL;
    ck_assert_int_eq(frx_gpu_drv_event_new(&g, &ev), FRX_OK);
    ck_assert_uint_eq(drv.flags, 7);
    ck_assert_int_eq(frx_gpu_drv_record(&g, ev), FRX_OK);
    ck_assert(drv.ev == ev && drv.stream == &stream);
    drv.rc = 3;
    ck_assert_int_eq(frx_gpu_drv_stream_wait(&g), FRX_EBACKEND);
    ck_assert_str_eq(frx_errmsg(), "testgpu: waiting for 'Test GPU': "
                     "tStreamSync failed: TEST_ERROR_3 (3): it went wrong");
    drv.rc = 0;
    void *params[2];
    ck_assert_int_eq(frx_gpu_drv_launch(&g, &drv, (unsigned[]){40, 3}, 128,
                                        params), FRX_OK);
    ck_assert(drv.grid[0] == 40 && drv.grid[1] == 3 && drv.grid[2] == 1);
    ck_assert(drv.block[0] == 128 && drv.block[1] == 1 && drv.block[2] == 1);
    ck_assert(drv.params == params && drv.stream == &stream);
    ck_assert_int_eq(drv.calls, 10);
}
END_TEST

/* ------------------------------------------- products by a vendor BLAS */

/* A vendor whose BLAS records the last gemm it was given. */
static struct {
    int m, n, k, lda, ldb, ldc, calls, opened, refuse;
    uint64_t a, b, c;
    double alpha, beta;
} seen;

static int rec_open(struct gpu *g)
{
    (void)g;
    seen.opened++;
    return seen.refuse ? frx_error(FRX_ENOTSUP, "testblas: not here")
                       : FRX_OK;
}

static int rec_gemm(struct gpu *g, int m, int n, int k, double alpha,
                    uint64_t a, int lda, uint64_t b, int ldb, double beta,
                    uint64_t c, int ldc)
{
    (void)g;
    seen.m = m, seen.n = n, seen.k = k, seen.lda = lda, seen.ldb = ldb;
    seen.ldc = ldc, seen.a = a, seen.b = b, seen.c = c;
    seen.alpha = alpha, seen.beta = beta;
    seen.calls++;
    return FRX_OK;
}

static const struct gpu_vendor rec_vendor = {
    .blas = "testblas", .blas_open = rec_open, .gemm = rec_gemm};

/* A 18 x 9 at element 4, B 9 x 96 at element 32, C 18 x 96 at element
 * 64: row-major C = A*B is column-major C^T = B^T A^T, one gemm of
 * 96 x 18 by 9 with B's and A's places swapped, offsets in elements of
 * the backend's precision. */
START_TEST(product_is_one_column_major_gemm)
{
    for (int dbl = 0; dbl <= 1; dbl++) {
        struct gpu g = {.vd = &rec_vendor, .vendor = "testgpu",
                        .precision = dbl ? FRX_DOUBLE : FRX_SINGLE,
                        .idle = 1};
        uint64_t fs = dbl ? 8 : 4;
        frx_product_args a = {.size = sizeof a, .m = 18, .n = 96, .k = 9,
                              .a_mem = (void *)(uintptr_t)0x10000,
                              .a_off = 4, .lda = 12, .ldb = 128, .ldc = 160,
                              .alpha = -1.5, .beta = dbl};
        void *plan = NULL;
        ck_assert_int_eq(frx_gpu_product_prepare(&g, "testblas", &a, &plan),
                         FRX_OK);
        ck_assert_int_eq(seen.opened, dbl + 1);
        frx_product_exec e = {.size = sizeof e,
                              .b = (void *)(uintptr_t)0x20000,
                              .c = (void *)(uintptr_t)0x40000, .b_off = 32,
                              .c_off = 64};
        ck_assert_int_eq(frx_gpu_product_run(&g, plan, &e), FRX_OK);
        ck_assert_int_eq(seen.calls, dbl + 1);
        ck_assert_int_eq(g.idle, 0); /* the stream is busy */
        ck_assert_int_eq(seen.m, 96);
        ck_assert_int_eq(seen.n, 18);
        ck_assert_int_eq(seen.k, 9);
        ck_assert_uint_eq(seen.a, 0x20000 + 32 * fs);
        ck_assert_int_eq(seen.lda, 128);
        ck_assert_uint_eq(seen.b, 0x10000 + 4 * fs);
        ck_assert_int_eq(seen.ldb, 12);
        ck_assert_uint_eq(seen.c, 0x40000 + 64 * fs);
        ck_assert_int_eq(seen.ldc, 160);
        ck_assert(seen.alpha == -1.5 && seen.beta == dbl);
        frx_gpu_product_free(&g, plan);
    }
}
END_TEST

/* What a GPU backend tells the core of its device, and a warp it cannot
 * take refused with the device's name. */
START_TEST(describe_fills_info)
{
    struct gpu g = {.vendor = "testgpu"};
    struct gpu_device dev = {.name = "Test GPU", .id = "GPU-1234",
                             .arch = "sm_90"};
    frx_backend_info info = {.size = sizeof info};
    ck_assert_int_eq(frx_gpu_describe(&g, 32, "warp", &dev, "cuda", &info),
                     FRX_OK);
    ck_assert_uint_eq(info.soasz, 32);
    ck_assert_uint_eq(info.alignment, FRX_GPU_ALIGNMENT);
    ck_assert_int_eq(info.host_accessible, 0);
    ck_assert_str_eq(info.device, "Test GPU (sm_90, GPU-1234)");
    ck_assert_str_eq(info.mpi_device_kind, "cuda");
    for (unsigned bad = 0; bad <= 2048; bad += 2048) {
        ck_assert_int_eq(frx_gpu_describe(&g, bad, "wavefront", &dev, "rocm",
                                          &info), FRX_EBACKEND);
        char want[96];
        snprintf(want, sizeof want, "testgpu: 'Test GPU' reports a "
                 "wavefront of %u threads", bad);
        ck_assert_str_eq(frx_errmsg(), want);
    }
}
END_TEST

START_TEST(product_refusals)
{
    static const struct gpu_vendor none = {0};
    struct gpu g = {.vd = &rec_vendor, .vendor = "testgpu",
                    .precision = FRX_DOUBLE, .idle = 1};
    frx_product_args a = {.size = sizeof a, .m = 18, .n = 96, .k = 9,
                          .lda = 12, .ldb = 128, .ldc = 160, .alpha = 1};
    void *plan = NULL;
    ck_assert_int_eq(frx_gpu_product_prepare(&g, "cublas", &a, &plan),
                     FRX_ENOTSUP);
    ck_assert_str_eq(frx_errmsg(), "testgpu has no product library "
                                   "'cublas'");
    a.n = (size_t)INT_MAX + 1;
    a.ldb = a.ldc = a.n;
    ck_assert_int_eq(frx_gpu_product_prepare(&g, "testblas", &a, &plan),
                     FRX_ENOTSUP);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "testblas takes 32-bit "
                                               "sizes"));
    a.n = 96;
    a.ldc = 160;
    a.ldb = 95; /* shorter than a row of B */
    ck_assert_int_eq(frx_gpu_product_prepare(&g, "testblas", &a, &plan),
                     FRX_EINVAL);
    a.ldb = a.ldc = 128;
    a.lda = 8;
    ck_assert_int_eq(frx_gpu_product_prepare(&g, "testblas", &a, &plan),
                     FRX_EINVAL);
    a.lda = 12;
    seen.refuse = 1; /* the library cannot be had: its reason */
    ck_assert_int_eq(frx_gpu_product_prepare(&g, "testblas", &a, &plan),
                     FRX_ENOTSUP);
    ck_assert_str_eq(frx_errmsg(), "testblas: not here");
    ck_assert_int_eq(seen.calls, 0);
    ck_assert_ptr_null(plan);
    g.vd = &none;
    ck_assert_int_eq(frx_gpu_product_prepare(&g, "testblas", &a, &plan),
                     FRX_ENOTSUP);
    ck_assert_ptr_null(plan);
}
END_TEST

/* ------------------------------------------------- pack kernel sources */

static char *pack_src(int target, int precision, size_t nvrow, size_t nvcol)
{
    frx_codegen cg = {.target = target, .precision = precision};
    char *src = NULL;
    ck_assert_int_eq(frx_pack_generate(&cg, nvrow, nvcol, &src), FRX_OK);
    return src;
}

START_TEST(pack_sources)
{
    const int targets[] = {FRX_TARGET_OPENCL, FRX_TARGET_CUDA,
                           FRX_TARGET_HIP};
    for (int t = 0; t < 3; t++) {
        char *s = pack_src(targets[t], FRX_DOUBLE, 0, 0);
        ck_assert_ptr_nonnull(strstr(s, "void " FRX_PACK_ENTRY "("));
        ck_assert_ptr_nonnull(strstr(s, "void " FRX_UNPACK_ENTRY "("));
        ck_assert_ptr_nonnull(strstr(s, "void " FRX_COPY_ENTRY "("));
        ck_assert_ptr_nonnull(strstr(s, "typedef double fpdtype_t;"));
        ck_assert_ptr_nonnull(strstr(s, "s = nvrow > 1 ? rs[i] : 0"));
        ck_assert_ptr_nonnull(strstr(s, "c < nvcol"));
        ck_assert_ptr_nonnull(strstr(s, "x[(size_t)(r*nvcol + c)*n + i] = "
                                        "base[o + r*s + c*cs];"));
        ck_assert_ptr_nonnull(strstr(s, "base[o + r*s + c*cs] = "
                                        "x[(size_t)(r*nvcol + c)*n + i];"));
        ck_assert((strstr(s, "cl_khr_fp64") != NULL) ==
                  (targets[t] == FRX_TARGET_OPENCL));
        free(s);
    }
    /* one shape: known loop lengths; one row: no row stride */
    char *s = pack_src(FRX_TARGET_CUDA, FRX_SINGLE, 2, 4);
    ck_assert_ptr_nonnull(strstr(s, "typedef float fpdtype_t;"));
    ck_assert_ptr_nonnull(strstr(s, "s = rs[i];"));
    ck_assert_ptr_nonnull(strstr(s, "r < 2"));
    ck_assert_ptr_nonnull(strstr(s, "x[(size_t)(r*4 + c)*n + i]"));
    free(s);
    s = pack_src(FRX_TARGET_HIP, FRX_DOUBLE, 1, 3);
    ck_assert_ptr_null(strstr(s, "rs[i]"));
    ck_assert_ptr_nonnull(strstr(s, "x[(size_t)c*n + i] = base[o + c*cs];"));
    free(s);
}
END_TEST

START_TEST(pack_generate_refuses)
{
    frx_codegen cg = {.target = FRX_TARGET_C_OPENMP, .precision = FRX_DOUBLE};
    char *src;
    ck_assert_int_eq(frx_pack_generate(&cg, 0, 0, &src), FRX_EINVAL);
    cg.target = FRX_TARGET_CUDA;
    ck_assert_int_eq(frx_pack_generate(&cg, 2, 0, &src), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "give both"));
    cg.precision = 0;
    ck_assert_int_eq(frx_pack_generate(&cg, 1, 1, &src), FRX_EINVAL);
    ck_assert_int_eq(frx_pack_generate(NULL, 1, 1, &src), FRX_EINVAL);
}
END_TEST

/* ------------------------------------------ failures and their messages */

/* A vendor whose launches are queued and whose waits fail as a kernel's
 * fault (an illegal address) surfaces on a GPU: at the next wait. */
static int fault_launch(struct gpu *g, void *fn, const unsigned grid[2],
                        unsigned block, void **params)
{
    (void)g, (void)fn, (void)grid, (void)block, (void)params;
    return FRX_OK;
}

static int fault_stream_wait(struct gpu *g)
{
    (void)g;
    return frx_error(FRX_EBACKEND, "testgpu: waiting: cuStreamSynchronize "
                     "failed: CUDA_ERROR_ILLEGAL_ADDRESS (700)");
}

static int fault_event_wait(struct gpu *g, void *ev)
{
    (void)ev;
    return fault_stream_wait(g);
}

static const struct gpu_vendor fault_vendor = {
    .launch = fault_launch, .stream_wait = fault_stream_wait,
    .event_wait = fault_event_wait};

START_TEST(failed_wait_names_last_launch)
{
    struct gpu g = {.vd = &fault_vendor, .vendor = "testgpu",
                    .lim = {.block = 128, .max_grid_x = 1u << 30,
                            .max_grid_y = 65535}, .idle = 1};
    ck_assert_int_eq(frx_gpu_sync(&g), FRX_OK); /* nothing issued */
    ck_assert_int_eq(frx_gpu_launch(&g, NULL, 1000, 1, NULL,
                                    "kernel 'first'"), FRX_OK);
    ck_assert_int_eq(frx_gpu_launch(&g, NULL, 1000, 1, NULL,
                                    "kernel 'faulty'"), FRX_OK);
    ck_assert_int_eq(frx_gpu_sync(&g), FRX_EBACKEND);
    ck_assert_str_eq(frx_errmsg(), "testgpu: waiting: cuStreamSynchronize "
                     "failed: CUDA_ERROR_ILLEGAL_ADDRESS (700) (the last "
                     "launch before this wait: kernel 'faulty'; a fault in "
                     "a kernel is reported at the next wait)");
    int ev;
    ck_assert_int_eq(frx_gpu_copy_wait(&g, &ev), FRX_EBACKEND);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "wait: kernel 'faulty'"));
    free(g.spare);
}
END_TEST

/* A vendor where all but the call under test works, and every stream
 * wait fails: what it reports must be the first failure, not the
 * clean-up's. */
static int stub_alloc(struct gpu *g, size_t bytes, uint64_t *addr)
{
    (void)g, (void)bytes;
    *addr = 0x1000;
    return FRX_OK;
}

static void stub_free(struct gpu *g, uint64_t addr) { (void)g, (void)addr; }

static int wait_fails(struct gpu *g)
{
    (void)g;
    return frx_error(FRX_EBACKEND, "testgpu: the clean-up's wait failed");
}

static int zero_fails(struct gpu *g, uint64_t addr, size_t bytes)
{
    (void)g, (void)addr;
    return frx_error(FRX_EBACKEND, "testgpu: zeroing %zu bytes failed",
                     bytes);
}

static int stub_load(struct gpu *g, const void *image, size_t size,
                     void **mod)
{
    (void)g, (void)image, (void)size;
    *mod = (void *)0x2000;
    return FRX_OK;
}

static void stub_module_free(struct gpu *g, void *mod) { (void)g, (void)mod; }

static int function_fails(struct gpu *g, void *mod, const char *entry,
                          void **fn)
{
    (void)g, (void)mod, (void)fn;
    return frx_error(FRX_EBACKEND, "testgpu: no function '%s'", entry);
}

static const struct gpu_vendor cleanup_vendor = {
    .alloc = stub_alloc, .free = stub_free, .zero = zero_fails,
    .stream_wait = wait_fails, .module_load = stub_load,
    .module_free = stub_module_free, .function = function_fails};

/* An "RTC" whose every program compiles to four bytes. */
static int t_create(void **prog, const char *src, const char *name, int nh,
                    const char *const *h, const char *const *names)
{
    (void)src, (void)name, (void)nh, (void)h, (void)names;
    *prog = (void *)0x3000;
    return 0;
}
static int t_compile(void *prog, int n, const char *const *o)
{
    (void)prog, (void)n, (void)o;
    return 0;
}
static int t_log_size(void *prog, size_t *n)
{
    (void)prog;
    *n = 0;
    return 0;
}
static int t_log(void *prog, char *log) { (void)prog, (void)log; return 0; }
static int t_code_size(void *prog, size_t *n)
{
    (void)prog;
    *n = 4;
    return 0;
}
static int t_code(void *prog, char *code)
{
    (void)prog;
    memcpy(code, "code", 4);
    return 0;
}
static int t_destroy(void **prog) { (void)prog; return 0; }
static const char *t_errstr(int rc) { return rc ? "error" : "ok"; }

START_TEST(cleanup_keeps_the_first_message)
{
    struct gpu g = {.vd = &cleanup_vendor, .vendor = "testgpu",
                    .precision = FRX_DOUBLE, .idle = 1, .suffix = ".bin",
                    .src_suffix = ".cu"};
    void *mem = NULL;
    ck_assert_int_eq(frx_gpu_mem_alloc(&g, 100, &mem), FRX_EBACKEND);
    ck_assert_str_eq(frx_errmsg(), "testgpu: zeroing 128 bytes failed");

    g.rtc = (struct gpu_rtc){.name = "testrtc", .create = t_create,
                             .compile = t_compile, .log_size = t_log_size,
                             .log = t_log, .code_size = t_code_size,
                             .code = t_code, .destroy = t_destroy,
                             .errstr = t_errstr};
    snprintf(g.arch, sizeof g.arch, "test");
    snprintf(g.driver, sizeof g.driver, "test 1");
    snprintf(g.rtc_version, sizeof g.rtc_version, "testrtc 1");
    g.idle = 0; /* something is queued: freeing the module waits */
    frx_kernel_src src = {.size = sizeof src, .name = "k", .entry = "k",
                          .source = "/* cleanup_keeps_the_first_message */"};
    void *prog = NULL;
    int compiled = 0;
    ck_assert_int_eq(frx_gpu_kernel_compile(&g, &src, &prog, &compiled),
                     FRX_EBACKEND);
    ck_assert_str_eq(frx_errmsg(), "testgpu: no function 'k'");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gpu-common");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, choose_local_rank_wraps);
    tcase_add_test(tc, choose_index);
    tcase_add_test(tc, choose_by_id);
    tcase_add_test(tc, choose_without_devices);
    tcase_add_test(tc, device_spec_from_option_or_rule);
    tcase_add_test(tc, visible_and_uuid_text);
    tcase_add_test(tc, arch_known);
    tcase_add_test(tc, geometry);
    tcase_add_test(tc, params_as_kernels_take_them);
    tcase_add_test(tc, rtc_open_says_what_it_tried);
    tcase_add_test(tc, log_names_the_kept_source);
    tcase_add_test(tc, driver_primitives_call_and_name);
    tcase_add_test(tc, product_is_one_column_major_gemm);
    tcase_add_test(tc, product_refusals);
    tcase_add_test(tc, describe_fills_info);
    tcase_add_test(tc, pack_sources);
    tcase_add_test(tc, pack_generate_refuses);
    tcase_add_test(tc, failed_wait_names_last_launch);
    tcase_add_test(tc, cleanup_keeps_the_first_message);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
