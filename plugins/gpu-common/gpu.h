/* SPDX-License-Identifier: BSD-3-Clause */
/* gpu-common: what the cuda and hip backends share, with no vendor
 * header. A plugin gives its vendor's driver calls (struct gpu_api, in
 * the shape both CUDA's driver API and HIP's module API have) and the
 * steps of its start-up that differ (struct gpu_backend: opening the
 * runtime, describing a device, making it current); this library makes
 * the backend of them: create, probe and destroy (plugin.c), the
 * primitives over the driver calls with their messages and error codes
 * (driver.c), memory, copies and events (backend.c), the pack and unpack
 * kernels (from the core's generator), the kernel cache, launches with
 * their parameters, and operator products by the vendor's BLAS where it
 * has one (cuBLAS). The pieces that need no device (device choice,
 * launch geometry, parameters, the run-time compilers' loader, the
 * primitives over a recorded driver) are unit-tested here without a
 * GPU; frx-fakegpu runs the rest on host memory through its own
 * primitives (struct gpu_vendor).
 *
 * Ordering: every command goes to one in-order stream, in the order frx
 * issues it, which is every dependency a graph has; the host waits only
 * for an event after the command it needs (a copy to a host mirror, the
 * stream for a sync), never for the whole device. */
#ifndef FRX_GPU_H
#define FRX_GPU_H

#include <frx/plugin.h>

#include <stdint.h>

/* ------------------------------------------------- device choice (select.c) */

struct gpu_device {
    char name[128];
    char id[80];   /* "GPU-<uuid>" */
    char arch[64]; /* "sm_90", "gfx90a" */
};

/* The index of the device that spec names among the n visible ones:
 * "local-rank" (the MPI rank on its node, modulo n), an index, or an id
 * (the whole id or a start of it that only one device has, with or
 * without "GPU-", in any case). -1 with the reason in why otherwise,
 * which lists the devices; visible (may be "") says how the vendor's
 * environment narrowed them, e.g. "CUDA_VISIBLE_DEVICES=1,3". */
int frx_gpu_choose(const char *spec, int local_rank,
                   const struct gpu_device *d, size_t n, const char *visible,
                   char *why, size_t whylen);

/* The device spec of backend.<backend>.device (default local-rank), or
 * of a backend.rules entry, which wins; *where names it for messages
 * ("case.yaml:5:13: backend.cuda.device"). */
int frx_gpu_device_spec(const frx_backend_init *init, const char *backend,
                        const char **spec, char *where, size_t n);

/* The device of backend.<vendor>.device or a backend.rules entry among
 * the n described, chosen by frx_gpu_choose (vars: the variables that
 * narrow what the vendor's runtime shows, CUDA_VISIBLE_DEVICES...), in
 * *k, logged at info; FRX_ECONFIG with the reason otherwise. */
int frx_gpu_pick(const frx_backend_init *init, const char *vendor,
                 const char *const *vars, size_t nvars,
                 const struct gpu_device *d, size_t n, int *k);

/* "NAME=value" of the first of the variables set, or "". */
void frx_gpu_visible(const char *const *vars, size_t nvars, char *out,
                     size_t n);

/* 16 bytes of a device UUID as "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx". */
void frx_gpu_uuid_text(const unsigned char uuid[16], char *out, size_t n);

/* Is arch ("gfx90a:sramecc+:xnack-", "sm_90") among the n names known
 * (compared up to a ':', any case)? */
int frx_gpu_arch_known(const char *arch, const char *const *known, size_t n);

/* ------------------------------------- launches without a device (launch.c) */

struct gpu_limits {
    unsigned block;      /* threads per block, along x */
    unsigned max_grid_x; /* blocks along x */
    unsigned max_grid_y; /* blocks along y: rows of an ndim 2 kernel */
};

/* Blocks of lim->block threads over n points (x) and nrows rows (y):
 * grid[0] x grid[1]. FRX_ERANGE, naming what, where the device cannot. */
int frx_gpu_geometry(const struct gpu_limits *lim, size_t n, size_t nrows,
                     const char *what, unsigned grid[2]);

/* One kernel parameter, as the generated function declares it. */
union gpu_value {
    uint64_t p; /* a device address */
    int32_t i;
    int64_t l;  /* FRX_PARAM_INT64: offsets, leading dimensions */
    float f;
    double d;
};

/* The parameters of a launch as a kernel takes them: v[k] set from
 * params[k] (mem handles are device addresses; FRX_PARAM_INT must fit
 * 32 bits, FRX_PARAM_INT64 is 64; floating values in the backend's
 * precision) and ptr[k] = &v[k]. */
int frx_gpu_params(const frx_param *params, size_t n, int precision,
                   const char *what, union gpu_value *v, void **ptr);

/* A mem handle is the device address itself. */
static inline uint64_t frx_gpu_addr(const void *mem)
{
    return (uint64_t)(uintptr_t)mem;
}

/* ---------------------------------------------- run-time compilers (rtc.c) */

/* NVRTC and hiprtc have the same functions under two prefixes; each
 * result is an int (0: success), each program a pointer. */
struct gpu_rtc {
    char name[16];  /* "NVRTC", "hiprtc" */
    char path[512]; /* the library it was found in */
    void *lib;
    int major, minor;
    int (*create)(void **prog, const char *src, const char *name,
                  int nheaders, const char *const *headers,
                  const char *const *names);
    int (*compile)(void *prog, int nopts, const char *const *opts);
    int (*log_size)(void *prog, size_t *size);
    int (*log)(void *prog, char *log);
    int (*code_size)(void *prog, size_t *size);
    int (*code)(void *prog, char *code);
    int (*destroy)(void **prog);
    const char *(*errstr)(int rc);
};

/* Open the first of libs (NULL-terminated) that loads and has every
 * function "<prefix>CreateProgram"... with code fetched by
 * "<prefix>Get<code>Size" and "<prefix>Get<code>" ("CUBIN", "Code").
 * -1 with what was tried in why. */
int frx_gpu_rtc_open(struct gpu_rtc *r, const char *name, const char *prefix,
                     const char *code, const char *const *libs, char *why,
                     size_t whylen);

/* Compile src with opts: FRX_OK with *code (*size bytes); else
 * FRX_EBACKEND naming the call and result. *log (the compiler's
 * messages, maybe empty) either way; free both. */
int frx_gpu_rtc_compile(const struct gpu_rtc *r, const char *name,
                        const char *src, const char *const *opts, int nopts,
                        char **code, size_t *size, char **log);

/* A compiler's log (malloc'd) with each "file(12)" (NVRTC) or "file:12"
 * (clang, under hiprtc) naming path instead: "path:12". NULL if out of
 * memory. */
char *frx_gpu_log_with_path(const char *log, const char *file,
                            const char *path);

/* The architectures NVRTC compiles for (90 for sm_90...), or -1 where it
 * cannot say. */
int frx_gpu_nvrtc_archs(const struct gpu_rtc *r, int *archs, size_t max);
/* The AMD architectures ("gfx90a"...) the code generator under hiprtc
 * (amd_comgr) knows, or -1 where it cannot be asked. hiprtc 5.2 crashes
 * the process on an architecture it does not know: ask first. */
int frx_gpu_amd_archs(const char **names, size_t max);

/* -------------------------------- the backend over a vendor (backend.c...) */

struct gpu;

/* A vendor's primitives. Each returns FRX_OK or an FRX_E* code with its
 * message recorded (naming the vendor call); "on the stream" means
 * issued to the backend's stream, in order, without waiting. */
struct gpu_vendor {
    int (*alloc)(struct gpu *g, size_t bytes, uint64_t *addr);
    void (*free)(struct gpu *g, uint64_t addr);
    int (*host_alloc)(struct gpu *g, size_t bytes, void **host); /* pinned */
    void (*host_free)(struct gpu *g, void *host);
    int (*zero)(struct gpu *g, uint64_t addr, size_t bytes); /* on the stream */
    int (*copy)(struct gpu *g, uint64_t addr, void *host, size_t bytes,
                int to_host);                                /* on the stream */
    int (*event_new)(struct gpu *g, void **ev);
    void (*event_free)(struct gpu *g, void *ev);
    int (*record)(struct gpu *g, void *ev); /* on the stream */
    int (*event_wait)(struct gpu *g, void *ev);
    int (*stream_wait)(struct gpu *g);
    int (*module_load)(struct gpu *g, const void *image, size_t size,
                       void **mod);
    void (*module_free)(struct gpu *g, void *mod);
    int (*function)(struct gpu *g, void *mod, const char *entry, void **fn);
    int (*launch)(struct gpu *g, void *fn, const unsigned grid[2],
                  unsigned block, void **params); /* on the stream */

    /* Optional: a vendor BLAS as a provider of operator products, named
     * blas in the plugin's product_libs (NULL: none). blas_open (may be
     * NULL) makes it ready on first use (load it, make a handle on the
     * stream): FRX_OK, or FRX_ENOTSUP with the reason where it cannot
     * be had. gemm is BLAS's column-major C = alpha*A*B + beta*C, no
     * transposes, A m x k, B k x n, C m x n, addresses of elements of
     * g->precision, on the stream; beta = 0 never reads C. */
    const char *blas;
    int (*blas_open)(struct gpu *g);
    int (*gemm)(struct gpu *g, int m, int n, int k, double alpha,
                uint64_t a, int lda, uint64_t b, int ldb, double beta,
                uint64_t c, int ldc); /* on the stream */
};

/* Pack kernels for views of one shape (nvrow x nvcol), or any (0 x 0). */
struct gpu_pack_set {
    int nvrow, nvcol;
    void *mod;
    void *fn[3]; /* FRX_PACK_ENTRY, FRX_UNPACK_ENTRY, FRX_COPY_ENTRY */
};
#define GPU_PACK_SHAPES 16

struct gpu_api;
struct gpu_backend;

/* The shared state: the first member of each plugin's own. */
struct gpu {
    const struct gpu_vendor *vd;
    const struct gpu_backend *backend; /* plugin.c's: NULL in tests */
    const struct gpu_api *api; /* driver.c's primitives call these */
    void *stream;         /* the backend's stream (driver.c) */
    int ordinal;          /* the device's, as the driver numbers it */
    const char *vendor;   /* "cuda", "hip": messages, cache keys */
    int target;           /* FRX_TARGET_CUDA, FRX_TARGET_HIP */
    int precision;
    struct gpu_limits lim;
    struct gpu_rtc rtc;
    const char *rtc_opts[4];
    int nrtc_opts;
    char arch_opt[80];    /* "--gpu-architecture=sm_90"... */
    char arch[64];        /* cache keys: the device's architecture, */
    char driver[64];      /* the driver's version, */
    char rtc_version[64]; /* the compiler's */
    const char *suffix;   /* of cached code: ".cubin", ".hsaco" */
    const char *src_suffix; /* of kept sources: ".cu", ".hip" */
    char device[128];     /* for messages */
    int idle;             /* nothing issued since the stream was waited for */
    /* what was launched last since the stream was waited for ("kernel
     * 'x'"): a kernel's fault is reported by a later wait, which names it */
    char last_launch[112];
    size_t records;       /* events recorded, for frx_backend_stats */
    void **spare;         /* events not in use */
    size_t nspare, capspare;
    union gpu_value *vals; /* launch parameters, reused */
    void **ptrs;
    size_t capparams;
    struct gpu_pack_set pack_any;
    struct gpu_pack_set pack_shapes[GPU_PACK_SHAPES];
    int npack_shapes;
};

/* After the vendor set up g (and g->idle = 1): builds the pack kernels
 * for any shape, so a broken compiler shows at start-up. */
int frx_gpu_start(struct gpu *g);
/* Waits for the stream and frees what frx_gpu_start and later calls
 * made; the vendor then frees its own. */
void frx_gpu_stop(struct gpu *g);

/* After the vendor's set-up: a chunk is a warp (or wavefront) of
 * `warp` threads, refused unless 1..1024 (what: "warp", "wavefront");
 * info gets it, the alignment, the device's name, architecture and id,
 * and the kind of device memory MPI may be given (mpi_kind). */
int frx_gpu_describe(const struct gpu *g, unsigned warp, const char *what,
                     const struct gpu_device *dev, const char *mpi_kind,
                     frx_backend_info *info);

/* Issue through these, which mark the stream busy. */
int frx_gpu_launch(struct gpu *g, void *fn, size_t n, size_t nrows,
                   void **params, const char *what);
/* The same with `block` threads a block (0: g->lim.block): kernels that
 * fold a block in shared memory (reductions) need theirs (ABI 1.3,
 * frx_kernel_src.local_size). */
int frx_gpu_launch_block(struct gpu *g, void *fn, size_t n, size_t nrows,
                         unsigned block, void **params, const char *what);

/* Code from source, through frx's disk cache (kernel.c). */
int frx_gpu_program(struct gpu *g, const char *name, const char *source,
                    void **mod, int *built);

/* frx_backend_ops on top of the vendor's primitives; state is the
 * plugin's state, whose first member is a struct gpu. */
int frx_gpu_mem_alloc(void *state, size_t bytes, void **mem);
void frx_gpu_mem_free(void *state, void *mem);
int frx_gpu_mem_write(void *state, void *mem, size_t off, const void *src,
                      size_t bytes);
int frx_gpu_mem_read(void *state, void *mem, size_t off, void *dst,
                     size_t bytes);
int frx_gpu_host_alloc(void *state, size_t bytes, void **host, void **handle);
void frx_gpu_host_free(void *state, void *handle);
int frx_gpu_copy_start(void *state, void *mem, void *host, size_t bytes,
                       int to_host, void **done);
int frx_gpu_copy_wait(void *state, void *done);
int frx_gpu_sync(void *state);
size_t frx_gpu_events_made(void *state);
int frx_gpu_pack(void *state, const frx_pack_args *a);
int frx_gpu_unpack(void *state, const frx_pack_args *a);
int frx_gpu_kernel_compile(void *state, const frx_kernel_src *src,
                           void **prog, int *compiled);
int frx_gpu_kernel_launch(void *state, void *prog, const frx_launch *l);
void frx_gpu_kernel_free(void *state, void *prog);
/* Operator products by the vendor's BLAS (product.c): the row-major
 * product C = alpha*A*B + beta*C is the column-major C^T = B^T A^T, one
 * gemm(n, m, k, B, A, C). FRX_ENOTSUP with the reason where the vendor
 * has no BLAS, it cannot be had, or a size is past its int. */
int frx_gpu_product_prepare(void *state, const char *lib,
                            const frx_product_args *a, void **plan);
int frx_gpu_product_run(void *state, void *plan, const frx_product_exec *e);
void frx_gpu_product_free(void *state, void *plan);

/* The shared part of a GPU backend's frx_backend_ops. Operator products
 * run as generated code through kernel_compile and kernel_launch; a
 * vendor with a BLAS adds FRX_GPU_PRODUCT_OPS(libs), libs its name. */
#define FRX_GPU_BACKEND_OPS                                                 \
    .mem_alloc = frx_gpu_mem_alloc, .mem_free = frx_gpu_mem_free,           \
    .mem_write = frx_gpu_mem_write, .mem_read = frx_gpu_mem_read,           \
    .pack = frx_gpu_pack, .unpack = frx_gpu_unpack, .sync = frx_gpu_sync,   \
    .kernel_compile = frx_gpu_kernel_compile,                               \
    .kernel_launch = frx_gpu_kernel_launch,                                 \
    .kernel_free = frx_gpu_kernel_free, .host_alloc = frx_gpu_host_alloc,   \
    .host_free = frx_gpu_host_free, .events_made = frx_gpu_events_made,     \
    .copy_start = frx_gpu_copy_start, .copy_wait = frx_gpu_copy_wait

#define FRX_GPU_PRODUCT_OPS(libs)                                           \
    .product_libs = (libs), .product_prepare = frx_gpu_product_prepare,     \
    .product_run = frx_gpu_product_run,                                     \
    .product_free = frx_gpu_product_free

/* Chunk width and alignment of matrices on these devices: a chunk is a
 * warp's (or wavefront's) worth of elements, so that the threads of one
 * read whole lines; rows start on 128-byte lines. */
#define FRX_GPU_ALIGNMENT 128

/* ---------------------------------- a vendor's driver calls (driver.c) */

/* A device address as the driver APIs take it (CUdeviceptr). */
typedef unsigned long long gpu_dptr;

/* X(call, parameters): the driver calls the primitives are made of, as
 * CUDA's driver API has them (cuMemAlloc, ...) and HIP's module API too
 * (hipMalloc, ...). Each returns the vendor's result, 0 for success;
 * handles are pointers. */
#define GPU_API_CALLS(X)                                                    \
    X(mem_alloc, (gpu_dptr * addr, size_t bytes))                           \
    X(mem_free, (gpu_dptr addr))                                            \
    X(host_alloc, (void **host, size_t bytes, unsigned flags))              \
    X(host_free, (void *host))                                              \
    X(memset_async,                                                         \
      (gpu_dptr addr, unsigned char value, size_t bytes, void *stream))     \
    X(copy_to_device,                                                       \
      (gpu_dptr dst, const void *src, size_t bytes, void *stream))          \
    X(copy_to_host, (void *dst, gpu_dptr src, size_t bytes, void *stream))  \
    X(event_create, (void **ev, unsigned flags))                            \
    X(event_destroy, (void *ev))                                            \
    X(event_record, (void *ev, void *stream))                               \
    X(event_wait, (void *ev))                                               \
    X(stream_wait, (void *stream))                                          \
    X(module_load, (void **mod, const void *image))                         \
    X(module_unload, (void *mod))                                           \
    X(module_function, (void **fn, void *mod, const char *name))            \
    X(launch, (void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, \
               unsigned by, unsigned bz, unsigned shared, void *stream,      \
               void **params, void **extra))                                \
    X(device_attribute, (int *value, int attribute, int ordinal))

struct gpu_api {
#define GPU_API_FIELD(call, params) int(*call) params;
    GPU_API_CALLS(GPU_API_FIELD)
#undef GPU_API_FIELD
    /* each call's name in messages: "cuMemAlloc", "hipMalloc" */
    struct {
#define GPU_API_NAME(call, params) const char *call;
        GPU_API_CALLS(GPU_API_NAME)
#undef GPU_API_NAME
    } name;
    unsigned host_alloc_flags; /* pinned memory any context may use */
    unsigned event_flags;      /* events that keep no time */
    int out_of_memory;         /* the result that says so: FRX_ENOMEM */
    int attr_max_grid_x, attr_max_grid_y, attr_warp; /* device_attribute */
    /* "NAME (rc): the driver's description" of a result, into buf */
    void (*describe)(const struct gpu *g, int rc, char *buf, size_t n);
};

/* frx_error with "<vendor>: <what>: <call> failed: <description>":
 * FRX_ENOMEM where rc is the driver's out of memory, else FRX_EBACKEND.
 * For every driver call, the vendor's own (contexts, streams) too. */
int frx_gpu_fail(const struct gpu *g, int rc, const char *call,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The primitives over g->api and g->stream, for a vendor's table:
 * {FRX_GPU_DRIVER_PRIMITIVES, .blas = ...}. */
int frx_gpu_drv_alloc(struct gpu *g, size_t bytes, uint64_t *addr);
void frx_gpu_drv_free(struct gpu *g, uint64_t addr);
int frx_gpu_drv_host_alloc(struct gpu *g, size_t bytes, void **host);
void frx_gpu_drv_host_free(struct gpu *g, void *host);
int frx_gpu_drv_zero(struct gpu *g, uint64_t addr, size_t bytes);
int frx_gpu_drv_copy(struct gpu *g, uint64_t addr, void *host, size_t bytes,
                     int to_host);
int frx_gpu_drv_event_new(struct gpu *g, void **ev);
void frx_gpu_drv_event_free(struct gpu *g, void *ev);
int frx_gpu_drv_record(struct gpu *g, void *ev);
int frx_gpu_drv_event_wait(struct gpu *g, void *ev);
int frx_gpu_drv_stream_wait(struct gpu *g);
int frx_gpu_drv_module_load(struct gpu *g, const void *image, size_t size,
                            void **mod);
void frx_gpu_drv_module_free(struct gpu *g, void *mod);
int frx_gpu_drv_function(struct gpu *g, void *mod, const char *entry,
                         void **fn);
int frx_gpu_drv_launch(struct gpu *g, void *fn, const unsigned grid[2],
                       unsigned block, void **params);

#define FRX_GPU_DRIVER_PRIMITIVES                                           \
    .alloc = frx_gpu_drv_alloc, .free = frx_gpu_drv_free,                   \
    .host_alloc = frx_gpu_drv_host_alloc,                                   \
    .host_free = frx_gpu_drv_host_free, .zero = frx_gpu_drv_zero,           \
    .copy = frx_gpu_drv_copy, .event_new = frx_gpu_drv_event_new,           \
    .event_free = frx_gpu_drv_event_free, .record = frx_gpu_drv_record,     \
    .event_wait = frx_gpu_drv_event_wait,                                   \
    .stream_wait = frx_gpu_drv_stream_wait,                                 \
    .module_load = frx_gpu_drv_module_load,                                 \
    .module_free = frx_gpu_drv_module_free,                                 \
    .function = frx_gpu_drv_function, .launch = frx_gpu_drv_launch

/* ------------------------------------ a GPU backend plugin (plugin.c) */

/* A vendor's plugin as gpu-common starts it: what differs, around the
 * start-up every GPU backend follows (open the runtime and its
 * compiler, describe the visible devices, pick one by backend.<name>.
 * device or a rule, make it current with a stream, read its limits,
 * check the compiler knows its architecture, build the pack kernels).
 * Each step returns FRX_OK or an error with its message recorded. */
struct gpu_backend {
    const char *name;          /* "cuda": messages, options, cache keys */
    int target;                /* FRX_TARGET_CUDA */
    size_t state_size;         /* the plugin's state: struct gpu first */
    const struct gpu_vendor *vd;
    const char *suffix;        /* of cached code: ".cubin" */
    const char *src_suffix;    /* of kept sources: ".cu" */
    const char *chunk;         /* a chunk's threads are a "warp" */
    const char *mpi_kind;      /* device memory MPI may be given: "cuda" */
    unsigned block;            /* threads a block */
    const char *arch_opt;      /* the compiler's option, "%s" the arch */
    const char *const *visible; /* variables that narrow the devices */
    size_t nvisible;
    /* the runtime and its compiler (g->api, g->rtc), *count devices;
     * FRX_EUNAVAIL saying why it cannot start here */
    int (*open)(struct gpu *g, int *count);
    /* device ordinal's name, id and architecture */
    int (*describe)(struct gpu *g, int ordinal, struct gpu_device *out);
    /* can g->rtc compile for dev's architecture? FRX_EUNAVAIL if not */
    int (*compiles)(struct gpu *g, const struct gpu_device *dev);
    /* g->ordinal current, with its stream in g->stream; g->driver set */
    int (*open_device)(struct gpu *g, const struct gpu_device *dev);
    /* the versions frx_gpu_probe names: "driver 13.0, NVRTC 13.0" */
    void (*versions)(const struct gpu *g, char *buf, size_t n);
    /* after frx_gpu_stop: the vendor's own (stream, context, BLAS) */
    void (*close)(struct gpu *g);
};

/* backend.<name>.device, the one option of a GPU backend; id says how
 * its vendor names a GPU: "UUID (GPU-..., as nvidia-smi -L shows)". */
#define FRX_GPU_DEVICE_OPTION(id)                                           \
    {.key = "device", .type = FRX_OPT_STRING, .def = "local-rank",          \
     .help = "the GPU: local-rank (the rank's index among its node's ranks " \
             "on this backend, modulo the GPUs), an index among the "       \
             "visible GPUs, or a GPU's " id}

/* The plugin's create, probe and destroy (frx_backend_ops). */
int frx_gpu_create(const struct gpu_backend *b, const frx_backend_init *init,
                   frx_backend_info *info, void **state);
int frx_gpu_probe(const struct gpu_backend *b, char *why, size_t n);
void frx_gpu_destroy(void *state);

/* A GPU backend plugin's ops table and descriptor, every op gpu-common's:
 * name and target as b has them, priority for backend.name: auto, the
 * plugin's options, its summary, then more ops (FRX_GPU_PRODUCT_OPS). */
#define FRX_GPU_PLUGIN(b, name, target_, priority_, options_, summary,     \
                       ...)                                                 \
    static int gpu_plugin_create(const frx_backend_init *init,              \
                                 frx_backend_info *info, void **state)      \
    {                                                                       \
        return frx_gpu_create(&(b), init, info, state);                     \
    }                                                                       \
    static int gpu_plugin_probe(char *why, size_t n)                        \
    {                                                                       \
        return frx_gpu_probe(&(b), why, n);                                 \
    }                                                                       \
    static const frx_backend_ops gpu_plugin_ops = {                         \
        .size = sizeof(frx_backend_ops), .priority = (priority_),           \
        .options = (options_), .probe = gpu_plugin_probe,                   \
        .create = gpu_plugin_create, .destroy = frx_gpu_destroy,            \
        .target = (target_), FRX_GPU_BACKEND_OPS, __VA_ARGS__};             \
    static const frx_plugin_desc gpu_plugin_desc = {                        \
        FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_BACKEND, name, FRX_VERSION,         \
                             summary),                                      \
        .backend = &gpu_plugin_ops};                                        \
    FRX_PLUGIN_DEFINE(gpu_plugin_desc)

#endif
