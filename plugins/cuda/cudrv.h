/* SPDX-License-Identifier: BSD-3-Clause */
/* The part of the CUDA driver API the cuda backend uses, declared here so
 * that the plugin builds without the toolkit and never links libcuda:
 * libcuda.so.1 is opened at run time. Values, sizes and symbol names are
 * those of cuda.h (CUDA 13); tests/test_cuda_driver.c checks them
 * against cuda.h where the toolkit is installed, and resolves every
 * symbol in the toolkit's stub libcuda. The opaque types carry cuda.h's
 * struct tags. */
#ifndef FRX_CUDRV_H
#define FRX_CUDRV_H

#include "gpu.h"

#include <stddef.h>

typedef int cu_result;
typedef int cu_device;
typedef unsigned long long cu_ptr;
typedef struct CUctx_st *cu_context;
typedef struct CUstream_st *cu_stream;
typedef struct CUevent_st *cu_event;
typedef struct CUmod_st *cu_module;
typedef struct CUfunc_st *cu_function;
typedef struct {
    char bytes[16];
} cu_uuid;

enum {
    CU_OK = 0,                    /* CUDA_SUCCESS */
    CU_ERR_OUT_OF_MEMORY = 2,     /* CUDA_ERROR_OUT_OF_MEMORY */
    CU_ERR_STUB_LIBRARY = 34,     /* CUDA_ERROR_STUB_LIBRARY */
    CU_ERR_NO_DEVICE = 100,       /* CUDA_ERROR_NO_DEVICE */
    CU_ATTR_MAX_GRID_DIM_X = 5,   /* CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X */
    CU_ATTR_MAX_GRID_DIM_Y = 6,   /* CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y */
    CU_ATTR_WARP_SIZE = 10,       /* CU_DEVICE_ATTRIBUTE_WARP_SIZE */
    CU_ATTR_CC_MAJOR = 75, /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
    CU_ATTR_CC_MINOR = 76, /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR */
    CU_STREAM_NONBLOCKING = 1,    /* CU_STREAM_NON_BLOCKING */
    CU_EVENT_NO_TIMING = 2,       /* CU_EVENT_DISABLE_TIMING */
    CU_HOSTALLOC_PORTABLE = 1     /* CU_MEMHOSTALLOC_PORTABLE */
};

/* X(value, NAME): common CUresults, named where cuGetErrorName cannot
 * (the toolkit's stub library, an old driver): CUDA_ERROR_<NAME>. */
#define CU_ERRORS(X)                                                      \
    X(1, INVALID_VALUE) X(2, OUT_OF_MEMORY) X(3, NOT_INITIALIZED)         \
    X(4, DEINITIALIZED) X(34, STUB_LIBRARY)                               \
    X(36, CALL_REQUIRES_NEWER_DRIVER) X(46, DEVICE_UNAVAILABLE)           \
    X(100, NO_DEVICE) X(101, INVALID_DEVICE) X(200, INVALID_IMAGE)        \
    X(201, INVALID_CONTEXT) X(209, NO_BINARY_FOR_GPU)                     \
    X(214, ECC_UNCORRECTABLE) X(218, INVALID_PTX)                         \
    X(222, UNSUPPORTED_PTX_VERSION) X(400, INVALID_HANDLE)                \
    X(500, NOT_FOUND) X(600, NOT_READY) X(700, ILLEGAL_ADDRESS)           \
    X(701, LAUNCH_OUT_OF_RESOURCES) X(702, LAUNCH_TIMEOUT) X(710, ASSERT) \
    X(719, LAUNCH_FAILED) X(803, SYSTEM_DRIVER_MISMATCH)                  \
    X(804, COMPAT_NOT_SUPPORTED_ON_DEVICE) X(999, UNKNOWN)

/* X(field, symbol, parameters): the functions only the cuda plugin
 * calls, by the symbol cuda.h gives the call (cuStreamDestroy is
 * cuStreamDestroy_v2, ...). */
#define CU_FUNCTIONS(X)                                                      \
    X(Init, "cuInit", (unsigned flags))                                      \
    X(DriverGetVersion, "cuDriverGetVersion", (int *version))                \
    X(GetErrorName, "cuGetErrorName", (cu_result rc, const char **name))     \
    X(DeviceGetCount, "cuDeviceGetCount", (int *count))                      \
    X(DeviceGet, "cuDeviceGet", (cu_device *dev, int ordinal))               \
    X(DeviceGetName, "cuDeviceGetName", (char *name, int len, cu_device d))  \
    X(DeviceGetUuid, "cuDeviceGetUuid_v2", (cu_uuid *uuid, cu_device d))     \
    X(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",                    \
      (cu_context *ctx, cu_device d))                                        \
    X(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (cu_device d)) \
    X(CtxSetCurrent, "cuCtxSetCurrent", (cu_context ctx))                    \
    X(StreamCreate, "cuStreamCreate", (cu_stream *s, unsigned flags))        \
    X(StreamDestroy, "cuStreamDestroy_v2", (cu_stream s))                    \
    X(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2",                               \
      (cu_ptr dst, cu_ptr src, size_t bytes, cu_stream s))

/* X(field, symbol, call): the calls gpu-common makes its primitives of
 * (struct gpu_api, gpu.h's parameters: handles as pointers), by symbol,
 * and the call's name in cuda.h and in messages. */
#define CU_API_FUNCTIONS(X)                                                  \
    X(mem_alloc, "cuMemAlloc_v2", cuMemAlloc)                                \
    X(mem_free, "cuMemFree_v2", cuMemFree)                                   \
    X(host_alloc, "cuMemHostAlloc", cuMemHostAlloc)                          \
    X(host_free, "cuMemFreeHost", cuMemFreeHost)                             \
    X(memset_async, "cuMemsetD8Async", cuMemsetD8Async)                      \
    X(copy_to_device, "cuMemcpyHtoDAsync_v2", cuMemcpyHtoDAsync)             \
    X(copy_to_host, "cuMemcpyDtoHAsync_v2", cuMemcpyDtoHAsync)               \
    X(event_create, "cuEventCreate", cuEventCreate)                          \
    X(event_destroy, "cuEventDestroy_v2", cuEventDestroy)                    \
    X(event_record, "cuEventRecord", cuEventRecord)                          \
    X(event_wait, "cuEventSynchronize", cuEventSynchronize)                  \
    X(stream_wait, "cuStreamSynchronize", cuStreamSynchronize)               \
    X(module_load, "cuModuleLoadData", cuModuleLoadData)                     \
    X(module_unload, "cuModuleUnload", cuModuleUnload)                       \
    X(module_function, "cuModuleGetFunction", cuModuleGetFunction)           \
    X(launch, "cuLaunchKernel", cuLaunchKernel)                              \
    X(device_attribute, "cuDeviceGetAttribute", cuDeviceGetAttribute)

/* The same, for the functions used where the driver has them (NULL
 * where not). */
#define CU_OPTIONAL_FUNCTIONS(X)                                             \
    X(GetErrorString, "cuGetErrorString", (cu_result rc, const char **text))

struct cu_driver {
    void *lib;
#define CU_FIELD(field, symbol, params) cu_result(*field) params;
    CU_FUNCTIONS(CU_FIELD)
    CU_OPTIONAL_FUNCTIONS(CU_FIELD)
#undef CU_FIELD
    /* CU_API_FUNCTIONS and their names; the rest is the plugin's to
     * fill (constants, describe) */
    struct gpu_api api;
};

/* Open the driver library (normally "libcuda.so.1") and every function
 * of both lists: 0, or -1 with the reason in why ("libcuda.so.1 not
 * found: ..."). */
int frx_cuda_driver_open(struct cu_driver *d, const char *lib, char *why,
                         size_t n);

/* "CUDA_ERROR_NO_DEVICE" for rc: the driver's name for it, else that of
 * CU_ERRORS, else "CUDA error". */
const char *frx_cuda_errname(const struct cu_driver *d, cu_result rc);

/* rc for messages: "NAME (rc): the driver's description", or without
 * the description where the driver has none. */
struct cu_errtext {
    char s[320];
};
struct cu_errtext frx_cuda_err(const struct cu_driver *d, cu_result rc);

/* Why cuInit failed with rc: "the driver does not start: " and rc, or
 * for the toolkit's stub libcuda (CUDA_ERROR_STUB_LIBRARY) which file
 * was loaded and which folder to take off LD_LIBRARY_PATH. */
void frx_cuda_init_failed(const struct cu_driver *d, cu_result rc,
                          char *why, size_t n);

#endif
