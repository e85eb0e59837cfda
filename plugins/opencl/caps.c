/* SPDX-License-Identifier: BSD-3-Clause */
/* opencl device capabilities, decided from what the device reports:
 * plain functions of strings and numbers, so the tests can feed them
 * what PoCL never reports. */
#include "opencl.h"

#include <string.h>

/* ext in a space-separated list, as a whole word. */
int frx_opencl_has_extension(const char *list, const char *ext)
{
    size_t n = strlen(ext);
    if (!list || !n)
        return 0;
    for (const char *p = list; (p = strstr(p, ext)) != NULL; p += n) {
        int starts = p == list || p[-1] == ' ';
        int ends = p[n] == '\0' || p[n] == ' ';
        if (starts && ends)
            return 1;
    }
    return 0;
}

int frx_opencl_check_fp64(const char *device, const char *extensions,
                          cl_ulong double_fp_config)
{
    if (frx_opencl_has_extension(extensions, "cl_khr_fp64") ||
        double_fp_config != 0)
        return FRX_OK;
    return frx_error(FRX_EUNAVAIL,
                     "backend.opencl: device '%s' has no double precision "
                     "(cl_khr_fp64): use backend.precision: single or "
                     "another device", device);
}

/* Rows start on the device's base address alignment, and at least on a
 * 64-byte line, so that every chunk of a matrix is a whole vector. */
size_t frx_opencl_alignment(cl_uint base_addr_align_bits)
{
    size_t bytes = base_addr_align_bits / 8;
    bytes = (bytes + 7) / 8 * 8;
    return bytes < 64 ? 64 : bytes;
}

/* Out of order only where the device says it can: the queue must not be
 * refused for a property it lacks. */
cl_command_queue_properties
frx_opencl_queue_props(cl_command_queue_properties device_props,
                       int in_order_asked)
{
    if (in_order_asked || !(device_props &
                            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
        return 0;
    return CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
}

const char *frx_opencl_queue_name(cl_command_queue_properties props)
{
    return props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
               ? "out-of-order queue"
               : "in-order queue";
}
