/* opencl backend: what its files share. */
#ifndef FRX_OPENCL_H
#define FRX_OPENCL_H

#include <frx/plugin.h>

#include <CL/cl.h>

struct ocl_state {
    int precision;
    const char *build_options; /* owned by the config */
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue; /* in order: frx runs nodes in order */
    size_t local_size;      /* work-items per group of kernel launches */
    char platform_name[256], platform_version[256];
    char device_name[256], driver_version[256];
    cl_program pack_prog;
    cl_kernel gather, scatter;
    size_t pack_local;      /* their work-items per group */
};

/* The platform and device chosen by backend.opencl.* and the MPI local
 * rank; fills in their names (device.c). */
int frx_opencl_choose(const frx_backend_init *init, struct ocl_state *s);
/* Can OpenCL start here? On success "<platform>: <device>" in why. */
int frx_opencl_probe(char *why, size_t n);

/* Device capabilities from what the device reports (caps.c). */
int frx_opencl_has_extension(const char *list, const char *ext);
int frx_opencl_check_fp64(const char *device, const char *extensions,
                          cl_ulong double_fp_config);
size_t frx_opencl_alignment(cl_uint base_addr_align_bits);

/* errors.c: "CL_INVALID_VALUE" for -30. */
const char *frx_opencl_errname(cl_int err);
/* frx_error with "opencl: <what>: <call> failed: CL_X (-N)", FRX_ENOMEM
 * for the out-of-memory codes, else FRX_EBACKEND. */
int frx_opencl_fail(cl_int err, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Programs built from source, or loaded from frx's disk cache (kernel.c). */
int frx_opencl_program(struct ocl_state *s, const char *name,
                       const char *source, cl_program *prog, int *built);
int frx_opencl_kernel_compile(void *state, const frx_kernel_src *src,
                              void **prog, int *compiled);
int frx_opencl_kernel_launch(void *state, void *prog, const frx_launch *l);
void frx_opencl_kernel_free(void *state, void *prog);

/* pack.c */
int frx_opencl_pack_init(struct ocl_state *s);
void frx_opencl_pack_free(struct ocl_state *s);
int frx_opencl_pack(void *state, const frx_pack_args *a);
int frx_opencl_unpack(void *state, const frx_pack_args *a);

#endif
