/* SPDX-License-Identifier: BSD-3-Clause */
/* opencl errors: OpenCL's codes by name, in frx's messages. */
#include "opencl.h"

#include <CL/cl_ext.h>
#include <stdarg.h>
#include <stdio.h>

#define CL_ERRORS(X)                                                        \
    X(CL_DEVICE_NOT_FOUND) X(CL_DEVICE_NOT_AVAILABLE)                       \
    X(CL_COMPILER_NOT_AVAILABLE) X(CL_MEM_OBJECT_ALLOCATION_FAILURE)        \
    X(CL_OUT_OF_RESOURCES) X(CL_OUT_OF_HOST_MEMORY)                         \
    X(CL_PROFILING_INFO_NOT_AVAILABLE) X(CL_MEM_COPY_OVERLAP)               \
    X(CL_BUILD_PROGRAM_FAILURE) X(CL_MAP_FAILURE)                           \
    X(CL_MISALIGNED_SUB_BUFFER_OFFSET)                                      \
    X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)                         \
    X(CL_COMPILE_PROGRAM_FAILURE) X(CL_LINKER_NOT_AVAILABLE)                \
    X(CL_LINK_PROGRAM_FAILURE) X(CL_INVALID_VALUE)                          \
    X(CL_INVALID_DEVICE_TYPE) X(CL_INVALID_PLATFORM) X(CL_INVALID_DEVICE)   \
    X(CL_INVALID_CONTEXT) X(CL_INVALID_QUEUE_PROPERTIES)                    \
    X(CL_INVALID_COMMAND_QUEUE) X(CL_INVALID_HOST_PTR)                      \
    X(CL_INVALID_MEM_OBJECT) X(CL_INVALID_BINARY)                           \
    X(CL_INVALID_BUILD_OPTIONS) X(CL_INVALID_PROGRAM)                       \
    X(CL_INVALID_PROGRAM_EXECUTABLE) X(CL_INVALID_KERNEL_NAME)              \
    X(CL_INVALID_KERNEL_DEFINITION) X(CL_INVALID_KERNEL)                    \
    X(CL_INVALID_ARG_INDEX) X(CL_INVALID_ARG_VALUE) X(CL_INVALID_ARG_SIZE)  \
    X(CL_INVALID_KERNEL_ARGS) X(CL_INVALID_WORK_DIMENSION)                  \
    X(CL_INVALID_WORK_GROUP_SIZE) X(CL_INVALID_WORK_ITEM_SIZE)              \
    X(CL_INVALID_GLOBAL_OFFSET) X(CL_INVALID_EVENT_WAIT_LIST)               \
    X(CL_INVALID_EVENT) X(CL_INVALID_OPERATION)                             \
    X(CL_INVALID_BUFFER_SIZE) X(CL_INVALID_GLOBAL_WORK_SIZE)                \
    X(CL_INVALID_PROPERTY) X(CL_INVALID_COMPILER_OPTIONS)                   \
    X(CL_INVALID_LINKER_OPTIONS) X(CL_PLATFORM_NOT_FOUND_KHR)

const char *frx_opencl_errname(cl_int err)
{
    switch (err) {
#define CL_ERROR_CASE(name) case name: return #name;
        CL_ERRORS(CL_ERROR_CASE)
#undef CL_ERROR_CASE
    default:
        return "an unknown OpenCL error";
    }
}

int frx_opencl_fail(cl_int err, const char *call, const char *fmt, ...)
{
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    int oom = err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY ||
              err == CL_MEM_OBJECT_ALLOCATION_FAILURE;
    return frx_error(oom ? FRX_ENOMEM : FRX_EBACKEND,
                     "opencl: %s: %s failed: %s (%d)", what, call,
                     frx_opencl_errname(err), (int)err);
}
