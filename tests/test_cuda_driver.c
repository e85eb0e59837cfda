/* SPDX-License-Identifier: BSD-3-Clause */
/* The cuda plugin's own declarations of the driver API (cudrv.h) and of
 * cuBLAS (cublasdl.h) against the toolkit's cuda.h and cublas_v2.h where
 * they are installed (values, sizes and the symbol each call's name
 * stands for), its loaders against the toolkit's stub libcuda and its
 * libcublas (every symbol resolves), and the loaders' messages. No GPU
 * or driver needed. */
#include "cublasdl.h"
#include "cudrv.h"

#ifdef FRX_HAVE_CUDA_H
#include <cuda.h>
#endif
#ifdef FRX_HAVE_CUBLAS_H
#include <cublas_v2.h>
#endif

#include <check.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef FRX_HAVE_CUDA_H
#define SAME(ours, theirs) \
    _Static_assert((int)(ours) == (int)(theirs), #theirs)
SAME(CU_OK, CUDA_SUCCESS);
SAME(CU_ERR_OUT_OF_MEMORY, CUDA_ERROR_OUT_OF_MEMORY);
SAME(CU_ERR_NO_DEVICE, CUDA_ERROR_NO_DEVICE);
SAME(CU_ERR_STUB_LIBRARY, CUDA_ERROR_STUB_LIBRARY);
#define SAME_ERROR(value, NAME) SAME(value, CUDA_ERROR_##NAME);
CU_ERRORS(SAME_ERROR)
#undef SAME_ERROR
SAME(CU_ATTR_MAX_GRID_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
SAME(CU_ATTR_MAX_GRID_DIM_Y, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
SAME(CU_ATTR_WARP_SIZE, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
SAME(CU_ATTR_CC_MAJOR, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
SAME(CU_ATTR_CC_MINOR, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
SAME(CU_STREAM_NONBLOCKING, CU_STREAM_NON_BLOCKING);
SAME(CU_EVENT_NO_TIMING, CU_EVENT_DISABLE_TIMING);
SAME(CU_HOSTALLOC_PORTABLE, CU_MEMHOSTALLOC_PORTABLE);
_Static_assert(sizeof(cu_ptr) == sizeof(CUdeviceptr), "CUdeviceptr");
_Static_assert(sizeof(cu_uuid) == sizeof(CUuuid), "CUuuid");
_Static_assert(sizeof(cu_device) == sizeof(CUdevice), "CUdevice");
_Static_assert(__builtin_types_compatible_p(cu_context, CUcontext), "ctx");
_Static_assert(__builtin_types_compatible_p(cu_stream, CUstream), "stream");
_Static_assert(__builtin_types_compatible_p(cu_event, CUevent), "event");
_Static_assert(__builtin_types_compatible_p(cu_module, CUmodule), "module");
_Static_assert(__builtin_types_compatible_p(cu_function, CUfunction), "fn");

#define STR(a) #a
#define XSTR(a) STR(a)

/* cuda.h maps each call to the symbol of its current version
 * (cuMemAlloc to cuMemAlloc_v2...): ours must be that one. */
START_TEST(symbols_are_those_cuda_h_names)
{
#define CHECK_NAME(field, symbol, params) \
    ck_assert_str_eq(symbol, XSTR(cu##field));
    CU_FUNCTIONS(CHECK_NAME)
    CU_OPTIONAL_FUNCTIONS(CHECK_NAME)
#undef CHECK_NAME
    /* gpu-common's calls */
#define CHECK_API(field, symbol, call) ck_assert_str_eq(symbol, XSTR(call));
    CU_API_FUNCTIONS(CHECK_API)
#undef CHECK_API
}
END_TEST
#endif

#ifdef FRX_HAVE_CUBLAS_H
SAME(CUBL_SUCCESS, CUBLAS_STATUS_SUCCESS);
SAME(CUBL_OP_N, CUBLAS_OP_N);
SAME(CUBL_POINTER_MODE_HOST, CUBLAS_POINTER_MODE_HOST);
_Static_assert(sizeof(cublas_status) == sizeof(cublasStatus_t), "status");
_Static_assert(sizeof(int) == sizeof(cublasOperation_t), "operation");
_Static_assert(sizeof(int) == sizeof(cublasPointerMode_t), "pointer mode");
_Static_assert(__builtin_types_compatible_p(cublas_handle, cublasHandle_t),
               "handle");
_Static_assert(__builtin_types_compatible_p(cu_stream, cudaStream_t),
               "cudaStream_t");

/* cublas_v2.h maps each call to its symbol (cublasCreate to
 * cublasCreate_v2...): ours must be that one. */
START_TEST(symbols_are_those_cublas_v2_h_names)
{
#define CHECK_BLAS_NAME(field, symbol, params) \
    ck_assert_str_eq(symbol, XSTR(cublas##field));
    CUBLAS_FUNCTIONS(CHECK_BLAS_NAME)
#undef CHECK_BLAS_NAME
}
END_TEST
#endif

START_TEST(toolkit_cublas_has_every_symbol)
{
    const char *lib = FRX_CUDA_HOME "/lib64/libcublas.so";
    if (access(lib, R_OK) != 0) {
        printf("no libcublas at %s: not checked\n", lib);
        return;
    }
    const char *const libs[] = {lib, NULL};
    struct cu_blas b;
    char why[1024] = "";
    ck_assert_msg(frx_cublas_open(&b, libs, why, sizeof why) == 0, "%s",
                  why);
    ck_assert_str_eq(b.path, lib);
    ck_assert_ptr_nonnull(b.Dgemm);
    ck_assert_ptr_nonnull(b.Sgemm);
    /* no handle made: that needs a driver */
    if (b.StatusName)
        ck_assert_str_eq(frx_cublas_status(&b, 1),
                         "CUBLAS_STATUS_NOT_INITIALIZED");
}
END_TEST

START_TEST(missing_cublas_says_what_it_tried)
{
    const char *const libs[] = {"libfrx-no-such-cublas.so.13", "libm.so.6",
                                NULL};
    struct cu_blas b;
    char why[1024];
    ck_assert_int_eq(frx_cublas_open(&b, libs, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "libfrx-no-such-cublas.so.13: "));
    ck_assert_ptr_nonnull(strstr(why, "; libm.so.6 has no "
                                      "cublasCreate_v2()"));
    ck_assert_ptr_null(b.lib);
    ck_assert_str_eq(frx_cublas_status(&b, 7), "cuBLAS status");
}
END_TEST

START_TEST(stub_library_has_every_symbol)
{
    const char *stub = FRX_CUDA_HOME "/lib64/stubs/libcuda.so";
    if (access(stub, R_OK) != 0) {
        printf("no stub libcuda at %s: not checked\n", stub);
        return;
    }
    struct cu_driver d;
    char why[512] = "";
    ck_assert_msg(frx_cuda_driver_open(&d, stub, why, sizeof why) == 0, "%s",
                  why);
    /* the stub refuses to start (CUDA_ERROR_STUB_LIBRARY), and says
     * so by the built-in name where its cuGetErrorName fails too */
    cu_result rc = d.Init(0);
    ck_assert_int_eq(rc, CU_ERR_STUB_LIBRARY);
    ck_assert_str_eq(frx_cuda_errname(&d, rc), "CUDA_ERROR_STUB_LIBRARY");
    ck_assert_ptr_nonnull(d.GetErrorString); /* the stub has it too */
    /* gpu-common's calls, each with its name for messages */
#define HAS_API(field, symbol, call)              \
    ck_assert_ptr_nonnull(d.api.field);          \
    ck_assert_str_eq(d.api.name.field, #call);
    CU_API_FUNCTIONS(HAS_API)
#undef HAS_API
    char msg[2048];
    frx_cuda_init_failed(&d, rc, msg, sizeof msg);
    ck_assert_msg(strstr(msg, stub) == msg, "%s", msg);
    ck_assert_msg(strstr(msg, " is the CUDA toolkit's stub library "
                              "(CUDA_ERROR_STUB_LIBRARY, 34)"), "%s", msg);
}
END_TEST

START_TEST(error_names_built_in)
{
    struct cu_driver d = {0}; /* no cuGetErrorName */
    ck_assert_str_eq(frx_cuda_errname(&d, 100), "CUDA_ERROR_NO_DEVICE");
    ck_assert_str_eq(frx_cuda_errname(&d, 700), "CUDA_ERROR_ILLEGAL_ADDRESS");
    ck_assert_str_eq(frx_cuda_errname(&d, 12345), "CUDA error");
    ck_assert_str_eq(frx_cuda_err(&d, 100).s, "CUDA_ERROR_NO_DEVICE (100)");
    char msg[256];
    frx_cuda_init_failed(&d, 36, msg, sizeof msg);
    ck_assert_str_eq(msg, "the driver does not start: "
                          "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER (36)");
}
END_TEST

START_TEST(missing_driver_named)
{
    struct cu_driver d;
    char why[512];
    ck_assert_int_eq(frx_cuda_driver_open(&d, "libfrx-no-such-cuda.so.1", why,
                                          sizeof why), -1);
    ck_assert_str_eq(why, "libfrx-no-such-cuda.so.1 not found: the NVIDIA "
                          "driver is not installed here");
    ck_assert_int_eq(frx_cuda_driver_open(&d, "libm.so.6", why, sizeof why),
                     -1);
    ck_assert_str_eq(why, "libm.so.6 has no cuInit(): the NVIDIA driver is "
                          "too old for frx (update it)");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cuda-driver");
    TCase *tc = tcase_create("core");
#ifdef FRX_HAVE_CUDA_H
    tcase_add_test(tc, symbols_are_those_cuda_h_names);
#else
    printf("no cuda.h under " FRX_CUDA_HOME ": declarations not compared\n");
#endif
#ifdef FRX_HAVE_CUBLAS_H
    tcase_add_test(tc, symbols_are_those_cublas_v2_h_names);
#else
    printf("no cublas_v2.h under " FRX_CUDA_HOME ": cuBLAS's declarations "
           "not compared\n");
#endif
    tcase_add_test(tc, stub_library_has_every_symbol);
    tcase_add_test(tc, missing_driver_named);
    tcase_add_test(tc, error_names_built_in);
    tcase_add_test(tc, toolkit_cublas_has_every_symbol);
    tcase_add_test(tc, missing_cublas_says_what_it_tried);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
