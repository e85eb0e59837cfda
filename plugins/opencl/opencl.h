/* SPDX-License-Identifier: BSD-3-Clause */
/* opencl backend: what its files share. */
#ifndef FRX_OPENCL_H
#define FRX_OPENCL_H

#include <frx/plugin.h>

#include <CL/cl.h>

/* A mem handle (mem_alloc returns one): the buffer and, on an
 * out-of-order queue, the commands that last touched it (events.c). */
struct ocl_mem {
    cl_mem mem;
    cl_event writer;   /* the last command that writes it, or NULL */
    cl_event *readers; /* the commands that read it since */
    size_t nreaders, cap;
    int pending;       /* OCL_PENDING_*: commands on it without events */
};
enum { OCL_PENDING_READ = 1, OCL_PENDING_WRITE = 2 };

/* A buffer one command reads or writes. */
struct ocl_use {
    struct ocl_mem *m;
    int access; /* FRX_ACCESS_* bits */
};

/* The command being enqueued: its buffers and its wait list, reused
 * from command to command (frx calls a backend from one thread). */
struct ocl_deps {
    struct ocl_use *use;
    size_t nuse, capuse;
    cl_event *wait;
    size_t nwait, capwait;
    int nomem;    /* a list could not grow */
    int no_event; /* FRX_EXEC_NO_WAITERS: make no event for it */
};

/* Pack kernels for views of one shape (nvrow x nvcol), or of any shape
 * (0 x 0), and their work-items per group. */
struct ocl_pack_set {
    int nvrow, nvcol;
    cl_program prog;
    cl_kernel gather, scatter, copy;
    size_t local;
};
#define FRX_OPENCL_PACK_SHAPES 16

struct ocl_state {
    int precision;
    const char *build_options; /* owned by the config */
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue;
    int out_of_order;       /* else in order: commands run as issued */
    struct ocl_deps deps;   /* out of order only */
    struct ocl_mem **pending; /* buffers with OCL_PENDING_* set */
    size_t npending, cappending;
    size_t nevents;         /* events made, for frx_backend_stats */
    size_t local_size;      /* work-items per group of kernel launches */
    int keep_binaries;      /* programs' binaries in frx's disk cache */
    char platform_name[256], platform_version[256];
    char device_name[256], driver_version[256];
    struct ocl_pack_set pack_any;
    struct ocl_pack_set pack_shapes[FRX_OPENCL_PACK_SHAPES];
    int npack_shapes;
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
/* The properties of the queue for a device that reports these queue
 * properties: out of order where it can, unless in order is asked. */
cl_command_queue_properties
frx_opencl_queue_props(cl_command_queue_properties device_props,
                       int in_order_asked);
/* "out-of-order queue" or "in-order queue". */
const char *frx_opencl_queue_name(cl_command_queue_properties props);

/* errors.c: "CL_INVALID_VALUE" for -30. */
const char *frx_opencl_errname(cl_int err);
/* frx_error with "opencl: <what>: <call> failed: CL_X (-N)", FRX_ENOMEM
 * for the out-of-memory codes, else FRX_EBACKEND. */
int frx_opencl_fail(cl_int err, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* program.c: a program built from source, or loaded from frx's disk
 * cache (*built: it was built). */
int frx_opencl_program(struct ocl_state *s, const char *name,
                       const char *source, cl_program *prog, int *built);
/* kernel.c */
int frx_opencl_kernel_compile(void *state, const frx_kernel_src *src,
                              void **prog, int *compiled);
int frx_opencl_kernel_launch(void *state, void *prog, const frx_launch *l);
void frx_opencl_kernel_free(void *state, void *prog);

/* The buffer of a mem handle. */
static inline cl_mem frx_opencl_buf(void *mem)
{
    return ((struct ocl_mem *)mem)->mem;
}

/* events.c: on an out-of-order queue, a command waits for the last
 * writer of each buffer it reads, and for that writer and the readers
 * since of each buffer it writes. A command a graph says nobody waits
 * for (flags FRX_EXEC_NO_WAITERS) gets no event; its buffers are marked
 * pending, and the first later command that must follow it waits for a
 * marker enqueued then, which stands for every command before it.
 * Around each enqueue:
 *
 *   frx_opencl_deps_begin(s, flags);
 *   frx_opencl_deps_use(s, mem, FRX_ACCESS_READ);   (each buffer)
 *   rc = frx_opencl_deps_wait(s, &n, &list);
 *   cl_event ev = NULL;
 *   err = clEnqueueX(..., n, list, frx_opencl_event_out(s, &ev));
 *   frx_opencl_deps_enqueued(s, ev);   (after a blocking one:
 *                                       frx_opencl_deps_completed(s))
 *
 * Nothing is recorded for a command that failed to enqueue. On an
 * in-order queue all of these do nothing and there are no events. */
void frx_opencl_deps_begin(struct ocl_state *s, uint32_t flags);
void frx_opencl_deps_use(struct ocl_state *s, void *mem, int access);
int frx_opencl_deps_wait(struct ocl_state *s, cl_uint *n,
                         const cl_event **list);
cl_event *frx_opencl_event_out(struct ocl_state *s, cl_event *ev);
/* ev (taken over) is now the writer or a reader of the buffers; NULL
 * for a command made without an event: they are pending. */
void frx_opencl_deps_enqueued(struct ocl_state *s, cl_event ev);
/* Several commands enqueued with the same wait list, n events (taken
 * over): they count as one, joined by a marker. */
int frx_opencl_deps_enqueued_all(struct ocl_state *s, cl_event *ev,
                                 size_t n);
/* A blocking command has finished, and so has all it waited for. */
void frx_opencl_deps_completed(struct ocl_state *s);
/* clFinish returned: nothing is pending any more. */
void frx_opencl_deps_synced(struct ocl_state *s);
/* Release a buffer's events (before the buffer goes). */
void frx_opencl_mem_forget(struct ocl_state *s, struct ocl_mem *m);
void frx_opencl_deps_free(struct ocl_state *s);

/* product.c, built where CLBlast is installed */
extern const char *const frx_opencl_product_libs[];
int frx_opencl_product_prepare(void *state, const char *lib,
                               const frx_product_args *a, void **plan);
int frx_opencl_product_run(void *state, void *plan,
                           const frx_product_exec *e);
void frx_opencl_product_free(void *state, void *plan);

/* pack.c */
int frx_opencl_pack_init(struct ocl_state *s);
void frx_opencl_pack_free(struct ocl_state *s);
int frx_opencl_pack(void *state, const frx_pack_args *a);
int frx_opencl_unpack(void *state, const frx_pack_args *a);

#endif
