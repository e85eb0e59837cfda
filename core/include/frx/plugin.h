/* frx: plugin SDK.
 *
 * A plugin is a shared object named frx-<name>.so that exports one
 * symbol, frx_plugin_entry, returning a const descriptor. Every struct a
 * plugin fills starts with its size and only ever grows at the end: the
 * core treats a function past the plugin's struct size as absent. */
#ifndef FRX_PLUGIN_H
#define FRX_PLUGIN_H

#include "frx.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FRX_PLUGIN_EXPORT __attribute__((visibility("default")))
#define FRX_PLUGIN_ENTRY_SYMBOL "frx_plugin_entry"
#define FRX_PLUGIN_PREFIX "frx-"

enum frx_plugin_kind { FRX_PLUGIN_BACKEND = 1, FRX_PLUGIN_SOLVER = 2 };

/* ------------------------------------------------------- option schemas */

enum frx_option_type {
    FRX_OPT_STRING = 1,
    FRX_OPT_INT,
    FRX_OPT_DOUBLE,
    FRX_OPT_BOOL,
    FRX_OPT_ENUM,        /* choices: "a|b|c" */
    FRX_OPT_STRING_LIST, /* a YAML list of strings */
    FRX_OPT_MAP,         /* a mapping; its keys are checked elsewhere */
    FRX_OPT_MAP_LIST     /* a list of mappings, keys "<key>.<name>" */
};

/* One key of a schema; arrays end with a zeroed entry (key == NULL). */
typedef struct frx_option {
    const char *key;     /* relative dotted path, e.g. "cflags" */
    int type;            /* enum frx_option_type */
    const char *choices; /* FRX_OPT_ENUM */
    double min, max;     /* FRX_OPT_INT/DOUBLE; min > max: unbounded */
    const char *def;     /* default, as text for messages and docs */
    int required;
    const char *help;
} frx_option;

/* --------------------------------------------------------------- backend */

/* Device memory is a handle the backend returns from mem_alloc; offsets
 * into it are in bytes. */
typedef struct frx_backend_init {
    uint32_t size;
    const frx_cfgnode *options; /* backend.<name>, or NULL */
    const frx_config *config;
    int precision;              /* enum frx_precision */
    int rank, local_rank;
    /* ABI 1.1: the device a backend.rules entry chose: "local-rank", an
     * index or an id; NULL when no rule set one. */
    const char *device;
} frx_backend_init;

typedef struct frx_backend_info {
    uint32_t size;
    size_t soasz;        /* chunk width in elements */
    size_t alignment;    /* bytes; rows of matrices start on it */
    int host_accessible; /* mem handles are host pointers */
    char device[128];    /* for logs and `frx plugins` */
    /* ABI 1.1: device memory MPI can take: "cuda" or "rocm" (asked of
     * the MPI library at run time), or NULL; host_accessible implies it */
    const char *mpi_device_kind;
} frx_backend_info;

typedef int32_t frx_ix_t; /* view offsets, in elements */

/* A run of points whose offsets step by one and whose row strides are
 * equal: packed as block copies. */
typedef struct frx_run {
    frx_ix_t start, len;
} frx_run;

/* Does struct p (of type T, with a leading uint32_t size) hold field?
 * Structs only grow at the end, so a field past an older caller's or
 * plugin's size is absent. */
#define FRX_SIZE_HOLDS(T, p, field) \
    ((p)->size >= offsetof(T, field) + sizeof((p)->field))

/* What pack (gather) and unpack (scatter) need; value (r, c) of point i
 * lives at base + off[i] + r*rstride[i] + c*cstride, in elements of
 * elsize bytes, and goes to xchg + (r*nvcol + c)*n + i. */
typedef struct frx_pack_args {
    uint32_t size;
    void *base;              /* mem handle of the view's allocation */
    void *xchg;              /* mem handle of the xchg matrix */
    const frx_ix_t *off;     /* host copies of the maps */
    const frx_ix_t *rstride;
    void *off_mem;           /* device copies of the maps */
    void *rstride_mem;
    const frx_run *runs;     /* host, nruns entries covering 0..n-1 */
    size_t nruns;
    size_t n, nvrow, nvcol, cstride, elsize;
    uint32_t flags;          /* ABI 1.2: FRX_EXEC_* */
} frx_pack_args;

/* A generated kernel to compile: source defining the function entry. */
typedef struct frx_kernel_src {
    uint32_t size;
    const char *name;   /* the kernel's name, for messages */
    const char *entry;  /* the function to look up */
    const char *source;
    int ndim;
} frx_kernel_src;

/* Launch parameters, in the order of the generated function's
 * parameters: nrows and n first, then each argument's. */
enum frx_param_type { FRX_PARAM_MEM = 1, FRX_PARAM_INT, FRX_PARAM_FP };

enum frx_access { FRX_ACCESS_READ = 1, FRX_ACCESS_WRITE = 2 };

typedef struct frx_param {
    int type;
    void *mem;   /* FRX_PARAM_MEM: a mem handle from mem_alloc */
    int64_t i;   /* FRX_PARAM_INT */
    double d;    /* FRX_PARAM_FP, converted to the backend precision */
    int access;  /* FRX_PARAM_MEM: FRX_ACCESS_* bits, from the intents */
} frx_param;

typedef struct frx_launch {
    uint32_t size;
    size_t nrows, n; /* the iteration space */
    size_t nparams;
    const frx_param *params;
    uint32_t flags;  /* ABI 1.2: FRX_EXEC_* */
} frx_launch;

/* What a graph knows of a command it runs (frx_launch.flags and
 * frx_pack_args.flags; read them only where the struct's size holds
 * them). FRX_EXEC_NO_WAITERS: no later node of the graph depends on
 * this command, so a backend may skip making a completion event for it;
 * it must still order it before later commands on the same buffers. */
enum frx_exec_flags { FRX_EXEC_NO_WAITERS = 1 };

/* An operator product a library provider runs: C = alpha*A*B + beta*C,
 * row-major, A m x k, B k x n, C m x n, offsets and leading dimensions in
 * elements of the backend precision. A is a constant matrix, on the
 * device at a_mem (its values also given as host doubles, dense, m x k);
 * B and C are given to each run (the core times a candidate on a scratch
 * C). beta = 0 must not read C (NaN there must not leak). ABI 1.3. */
typedef struct frx_product_args {
    uint32_t size;
    size_t m, n, k;
    const double *a;   /* host, m x k row-major, exactly as the user gave */
    void *a_mem;       /* A on the device, in the backend precision */
    size_t a_off, lda;
    size_t ldb, ldc;
    double alpha, beta;
} frx_product_args;

/* One run of a prepared product on B and C (mem handles, offsets in
 * elements). ABI 1.3. */
typedef struct frx_product_exec {
    uint32_t size;
    void *b, *c;
    size_t b_off, c_off;
    uint32_t flags; /* FRX_EXEC_* */
} frx_product_exec;

typedef struct frx_backend_ops {
    uint32_t size;
    int priority;               /* for backend.name: auto; higher wins */
    const frx_option *options;  /* schema of backend.<name>.* */

    /* Can it start here? 0, or FRX_EUNAVAIL with a reason in why. */
    int (*probe)(char *why, size_t whylen);
    int (*create)(const frx_backend_init *init, frx_backend_info *info,
                  void **state);
    void (*destroy)(void *state);

    int (*mem_alloc)(void *state, size_t bytes, void **mem);
    void (*mem_free)(void *state, void *mem);
    int (*mem_write)(void *state, void *mem, size_t off, const void *src,
                     size_t bytes);
    int (*mem_read)(void *state, void *mem, size_t off, void *dst,
                    size_t bytes);

    int (*pack)(void *state, const frx_pack_args *a);
    int (*unpack)(void *state, const frx_pack_args *a);
    int (*sync)(void *state); /* NULL: every call returns done */

    /* ABI 1.1: run-time compiled kernels. */
    int target; /* enum frx_target: the code the core generates for it */
    int (*kernel_compile)(void *state, const struct frx_kernel_src *src,
                          void **prog, int *compiled);
    int (*kernel_launch)(void *state, void *prog, const struct frx_launch *l);
    void (*kernel_free)(void *state, void *prog);

    /* Optional: host memory for xchg mirrors that the device copies to
     * and from fast (pinned/mapped); *host is its address, *handle what
     * host_free gets back. Absent: plain host memory. */
    int (*host_alloc)(void *state, size_t bytes, void **host, void **handle);
    void (*host_free)(void *state, void *handle);
    /* Optional: the address MPI is given for device memory (with
     * info.mpi_device_kind); absent: mem itself. */
    void *(*mpi_ptr)(void *state, void *mem);

    /* ABI 1.2, optional: completion events made so far (for
     * frx_backend_stats.events). */
    size_t (*events_made)(void *state);

    /* ABI 1.3, optional: copy an xchg matrix (mem, from offset 0) to or
     * from its host mirror (from host_alloc) without waiting: after
     * every command issued before it, before every command issued after
     * it. *done is what copy_wait waits for and then releases; the host
     * memory must not be touched until then. Absent: mem_read and
     * mem_write, which return when the copy is done. */
    int (*copy_start)(void *state, void *mem, void *host, size_t bytes,
                      int to_host, void **done);
    int (*copy_wait)(void *state, void *done);

    /* ABI 1.3, optional: library providers of operator products, besides
     * the code the core generates. product_libs: their names, NULL at the
     * end (absent or empty: none). product_prepare makes a plan of
     * library lib for one product, or returns FRX_ENOTSUP (with a reason
     * through frx_error) when the library cannot do it; product_run runs
     * a plan on B and C, ordered like a kernel launch that reads A and B
     * (and C where beta != 0) and writes C. */
    const char *const *product_libs;
    int (*product_prepare)(void *state, const char *lib,
                           const frx_product_args *a, void **plan);
    int (*product_run)(void *state, void *plan, const frx_product_exec *e);
    void (*product_free)(void *state, void *plan);
} frx_backend_ops;

/* ---------------------------------------------------------------- solver */

typedef struct frx_solver_ops {
    uint32_t size;
    const frx_option *options; /* schema of solver.* */
} frx_solver_ops;

/* ------------------------------------------------------------ descriptor */

typedef struct frx_plugin_desc {
    uint16_t abi_major, abi_minor;
    uint32_t size;
    uint32_t kind;        /* enum frx_plugin_kind */
    const char *name;     /* must equal the file name's <name> */
    const char *version;
    const char *summary;
    const frx_backend_ops *backend;
    const frx_solver_ops *solver;
} frx_plugin_desc;

typedef const frx_plugin_desc *(*frx_plugin_entry_fn)(void);

#define FRX_PLUGIN_DESC_INIT(kind_, name_, version_, summary_)              \
    .abi_major = FRX_ABI_MAJOR, .abi_minor = FRX_ABI_MINOR,                 \
    .size = sizeof(frx_plugin_desc), .kind = (kind_), .name = (name_),      \
    .version = (version_), .summary = (summary_)

/* Define the entry point of a plugin from its descriptor. */
#define FRX_PLUGIN_DEFINE(desc)                                             \
    FRX_PLUGIN_EXPORT const frx_plugin_desc *frx_plugin_entry(void);        \
    const frx_plugin_desc *frx_plugin_entry(void) { return &(desc); }

/* ------------------------------------------- services for plugin authors */

/* Record the detailed message of a failure (printf-style) and return
 * code, so a plugin can write `return frx_error(FRX_EBACKEND, ...)`. */
FRX_EXTERN int frx_error(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------ disk cache */

/* Compiled artefacts (kernel shared objects, program binaries) cached on
 * disk per user: $FRX_CACHE_DIR, else $XDG_CACHE_HOME/frx, else
 * ~/.cache/frx; the directory must be the user's own and mode 0700.
 * FRX_CACHE=off builds into a private temporary directory instead. */

/* Writes the artefact to tmp_path (a fresh name in the cache). */
typedef int (*frx_cache_build_fn)(const char *tmp_path, void *ud);

typedef struct frx_cache_entry {
    char path[4096]; /* the artefact, valid until frx_cache_done */
    int built;       /* 1 if build ran in this call */
    int temporary;   /* 1 if path is removed by frx_cache_done */
} frx_cache_entry;

/* The entry keyed on the hash of parts (source, flags, compiler
 * identity, target...; frx's ABI is added) with the given file suffix
 * (".so"). A missing, truncated or altered entry is (re)built under a
 * lock, so processes that need the same entry at once build it once. */
FRX_EXTERN int frx_cache_fetch(const char *const *parts, size_t nparts,
                               const char *suffix, frx_cache_build_fn build,
                               void *ud, frx_cache_entry *out);
FRX_EXTERN void frx_cache_done(frx_cache_entry *e);

/* SHA-256 of data, as 64 hex digits and a NUL. */
FRX_EXTERN void frx_sha256_hex(const void *data, size_t len, char hex[65]);

/* ------------------------------------------- pack and unpack kernels */

/* ABI 1.3: the source of the pack (gather) and unpack (scatter) kernels
 * of a device target (FRX_TARGET_OPENCL, _CUDA or _HIP), from the
 * indexing of frx_pack_args, so that backends write no pack code of
 * their own. nvrow and nvcol: the view shape the kernels are made for
 * (loops of known length, no row-stride load for one row), or 0 and 0
 * for any shape. The source (malloc'd) defines three kernels, one
 * work-item (thread) per point or value, index i = 0, 1, ...:
 *
 *   FRX_PACK_ENTRY(base, xchg, off, rstride, int n, int nvrow,
 *                  int nvcol, int cstride)          i < n: point i
 *   FRX_UNPACK_ENTRY(the same)                      i < n: point i
 *   FRX_COPY_ENTRY(dst, int doff, src, int soff, int len)
 *                  i < len: dst[doff + i] = src[soff + i], one run of a
 *                  view (points whose offsets step by one)
 *
 * base, xchg, dst and src are buffers of the precision's floating type,
 * off and rstride of frx_ix_t; nvrow and nvcol are ignored by kernels
 * made for one shape. */
#define FRX_PACK_ENTRY "frx_pack"
#define FRX_UNPACK_ENTRY "frx_unpack"
#define FRX_COPY_ENTRY "frx_copy"
FRX_EXTERN int frx_pack_generate(const frx_codegen *cg, size_t nvrow,
                                 size_t nvcol, char **src);

#ifdef __cplusplus
}
#endif
#endif
