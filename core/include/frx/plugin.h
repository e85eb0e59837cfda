/* SPDX-License-Identifier: BSD-3-Clause */
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

enum frx_plugin_kind {
    FRX_PLUGIN_BACKEND = 1,
    FRX_PLUGIN_SOLVER = 2,
    FRX_PLUGIN_EXTENSION = 3 /* ABI 1.10: extension.h */
};

/* ------------------------------------------------------- option schemas */

enum frx_option_type {
    FRX_OPT_STRING = 1,
    FRX_OPT_INT,
    FRX_OPT_DOUBLE,
    FRX_OPT_BOOL,
    FRX_OPT_ENUM,        /* choices: "a|b|c" */
    FRX_OPT_STRING_LIST, /* a YAML list of strings */
    FRX_OPT_MAP,         /* a mapping; its keys are checked elsewhere */
    FRX_OPT_MAP_LIST,    /* a list of mappings, keys "<key>.<name>" */
    /* ABI 1.3: YAML lists of numbers or booleans, like [4, 4]; min and
     * max bound each item */
    FRX_OPT_INT_LIST,
    FRX_OPT_DOUBLE_LIST,
    FRX_OPT_BOOL_LIST
};

/* One key of a schema; arrays end with a zeroed entry (key == NULL). */
typedef struct frx_option {
    const char *key;     /* relative dotted path, e.g. "cflags" */
    int type;            /* enum frx_option_type */
    const char *choices; /* FRX_OPT_ENUM; FRX_OPT_INT (ABI 1.6): words
                            the value may be instead of an integer */
    double min, max;     /* FRX_OPT_INT/DOUBLE and their lists; min >
                            max: unbounded */
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
    /* local_rank: the rank's place among the ranks of its node on the
     * same backend.name (frx_backend_create_all asks MPI), else the
     * launcher's word; 0 where neither says */
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
    /* ABI 1.5: the device is this host's own CPU behind a device API
     * (OpenCL on a CPU, as PoCL): backend.name: auto tries every other
     * backend first, since the native host backend (openmp) runs the
     * same cores without the run-time compiler's start-up cost */
    int host_cpu_device;
    /* ABI 1.13: parts a matrix's elements are stored in (0 or 1: one),
     * each part's rows together (frx.h, matrix layout): a backend whose
     * workers each take a part (openmp: one a thread) then touches
     * memory of its own only. A backend that sets it takes the part
     * parameters of kernels and products (pc, ps, c0) */
    size_t parts;
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
    const char *name;   /* the kernel's name, for messages (a solver's
                           kernels: "<plugin>.<name>") */
    const char *entry;  /* the function to look up */
    const char *source;
    int ndim;
    /* ABI 1.3: work-items per group every launch of this kernel must
     * use (GPU targets of kernels with reductions, whose generated code
     * folds one group in local memory); 0: the backend's choice. */
    size_t local_size;
} frx_kernel_src;

/* Launch parameters, in the order of the generated function's
 * parameters: nrows and n first, then each argument's. FRX_PARAM_INT is
 * a 32-bit int in the generated code (counts, int32_t scalars);
 * FRX_PARAM_INT64 (ABI 1.3) a 64-bit one (offsets into allocations and
 * leading dimensions: int64_t in C, long in OpenCL C, long long in CUDA
 * and HIP). */
enum frx_param_type {
    FRX_PARAM_MEM = 1,
    FRX_PARAM_INT,
    FRX_PARAM_FP,
    FRX_PARAM_INT64 /* ABI 1.3 */
};

enum frx_access { FRX_ACCESS_READ = 1, FRX_ACCESS_WRITE = 2 };

typedef struct frx_param {
    int type;
    void *mem;   /* FRX_PARAM_MEM: a mem handle from mem_alloc */
    int64_t i;   /* FRX_PARAM_INT and FRX_PARAM_INT64 */
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
 * it must still order it before later commands on the same buffers.
 * FRX_EXEC_SAME_WORKERS (ABI 1.12), on a kernel or product of a batch:
 * this command and every one before it back to the last without the
 * flag (its "group") are kernels without views, xchg matrices or
 * reductions, and products; where two of them touch the same memory,
 * one writing, they touch it as the same matrix, whose element i
 * belongs to work item i of both, or not at all (disjoint rows, whole
 * chunks). So a backend that gives work item i of every command of a
 * group to the same worker (OpenMP: schedule(static) over the same
 * number of chunks) may let a worker start this command as soon as it
 * has done its own share of the others, without a barrier. */
enum frx_exec_flags { FRX_EXEC_NO_WAITERS = 1, FRX_EXEC_SAME_WORKERS = 2 };

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
    /* ABI 1.13, where the backend reports parts: B's and C's columns in
     * parts of b_pc (c_pc) chunks of soasz elements, b_ps (c_ps) values
     * apart, the first column in chunk b_c0 (c_c0) of its part (the
     * offsets given to each run are that part's start); pc 0: one part.
     * Column j of C is then at part (c_c0 + j/(nvar*soasz))/c_pc. */
    size_t nvar;
    size_t b_pc, b_ps, b_c0, c_pc, c_ps, c_c0;
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

    /* ABI 1.4, optional: a graph runs each stretch of two or more
     * kernel and product nodes between batch_begin and batch_end. A
     * backend whose calls return when the work is done (openmp) may hold
     * the launches in between and run them all at batch_end, in order
     * (openmp: one parallel region, a barrier after each, instead of a
     * region each); every other call in between runs what is held
     * first. batch_end returns when the work is done. */
    int (*batch_begin)(void *state);
    int (*batch_end)(void *state);
} frx_backend_ops;

/* ---------------------------------------------------------------- solver */

/* The solver interface is versioned on its own (frx_solver_ops.api_*):
 * a solver plugin built for another major is refused at load; minors
 * only append. A plugin whose ops leave api_major 0 and create NULL
 * only declares options. The core drives a solver through `frx run`
 * (frx_solver_create/run/destroy in comm.h):
 *
 *   create -> the core allocates the registers of the solution (per
 *   register one matrix per block: nupts x nvars x neles) -> initial
 *   into register 0 (or a checkpoint is read) -> build_rhs once for
 *   each (u, f) register pair the time scheme uses, build_check once
 *   for each register that can hold u after a step -> the time loop
 *   runs those graphs (set_time before each RHS) -> destroy.
 *
 * Every call happens on every rank, in the same order; a failure on
 * one rank (an FRX_E* code, message through frx_error) stops every
 * rank with that rank's message. Kernels and macros a solver registers
 * are namespaced: the core sets the backend's kernel namespace to the
 * plugin's name around every call into the solver, where
 * frx_kernel_register and frx_kernel_create see only the plugin's own
 * kernels (messages call them "<plugin>.<name>"), so two solver plugins
 * may both have a `tflux`. */
#define FRX_SOLVER_API_MAJOR 1
#define FRX_SOLVER_API_MINOR 1

struct frx_comm; /* comm.h */
struct frx_mesh; /* mesh.h */

/* What the core hands the solver (read only, valid until destroy). */
typedef struct frx_solver_init {
    uint32_t size;
    frx_backend *backend;
    struct frx_comm *comm;        /* frx's communicator, for exchanges */
    const frx_config *config;
    const frx_cfgnode *options;   /* solver.*, checked against the schema */
    const struct frx_mesh *mesh;  /* this rank's part of the mesh; NULL
                                     for a case without `mesh` */
    double t0;                    /* time.t-start (a restart continues
                                     from the checkpoint's time, which
                                     set_time gives) */
    double dt;                    /* time.dt; 0 with time.cfl */
    double t_end;                 /* time.t-end; HUGE_VAL without */
    int restart;                  /* 1: u comes from a checkpoint and
                                     initial is not called */
    /* ABI 1.10: what the solver publishes for extension plugins and
     * where they hook in (extension.h); never NULL from this core */
    struct frx_extend *extend;
} frx_solver_init;

/* One solved variable ("rho", "u", ...): output, checkpoints, norms. */
typedef struct frx_solver_var {
    const char *name;
} frx_solver_var;

/* The solution on the elements of one block of the mesh (one element
 * type): a matrix of nupts rows, nvars variables and neles elements.
 * Host arrays belong to the solver and live until destroy. */
typedef struct frx_solver_block {
    uint32_t size;
    size_t nupts, neles;
    const double *upts;     /* [neles][nupts][ndims] point coordinates */
    const double *qweights; /* [neles][nupts] quadrature weight x |J|, for
                               norms; NULL: no norms */
    /* output: nvis points per element at vis_pts [neles][nvis][ndims],
     * values vis_op [nvis][nupts] x the solution; written as one VTK
     * cell of type vtk_type (VTK_LAGRANGE_QUADRILATERAL = 70, ...) whose
     * points are the nvis points in VTK's order. Pyramids (VTK 9.1 has
     * no Lagrange pyramid): vtk_type 14 (VTK_PYRAMID) and the points of
     * the equispaced lattice of an order n >= 1, layer by layer from
     * the base (z = -1 + 2k/n, k = 0..n), each layer (m = n - k) row by
     * row in y, x fastest (x, y = (2i - m)/n, (2j - m)/n): the core
     * cuts them into linear pyramids and tetrahedra as PyFR 1.15 does */
    int vtk_type;
    size_t nvis;
    const double *vis_pts;
    const double *vis_op;
} frx_solver_block;

/* What the solver tells the core at create. The core zeroes it and
 * sets size; the solver fills the fields that size holds. */
typedef struct frx_solver_info {
    uint32_t size;
    size_t nvars;
    const frx_solver_var *vars;     /* nvars entries of var_size bytes */
    size_t var_size;
    size_t nblocks;                 /* as the mesh's blocks, same order */
    const frx_solver_block *blocks; /* nblocks entries of block_size */
    size_t block_size;
    unsigned check_every;           /* run the check graph every N steps
                                       (0: never) */
    int order;                      /* formal order of accuracy (logs) */
    int ndims;                      /* coordinates of a point in upts,
                                       vis_pts and exact(): the mesh's
                                       (0 here takes it); without a mesh
                                       the solver's own, 0 if it has
                                       none */
} frx_solver_info;

typedef struct frx_solver_ops {
    uint32_t size;
    const frx_option *options; /* schema of solver.* */

    /* ABI 1.3: the solver interface. */
    uint16_t api_major, api_minor; /* FRX_SOLVER_API_* it was built for */
    /* Fill info, register kernels, return the state in *state. Where
     * it fails after setting *state, destroy(*state) is still called,
     * so it may return as soon as something fails. */
    int (*create)(const frx_solver_init *init, frx_solver_info *info,
                  void **state);
    void (*destroy)(void *state);
    /* The initial condition at t0 into u (one matrix per block; the
     * registers start at zero). */
    int (*initial)(void *state, frx_matrix *const *u);
    /* Add to g the nodes that compute f = R(u); the core commits and
     * runs g. Called at start-up once per (u, f) register pair the time
     * scheme uses; f never aliases u. */
    int (*build_rhs)(void *state, frx_matrix *const *u,
                     frx_matrix *const *f, frx_graph *g);
    /* Optional: called before each RHS evaluation with its stage time
     * (to set time-dependent scalars with frx_kernel_set_scalar). */
    int (*set_time)(void *state, double t);
    /* Optional: add nodes that check u, run after every check_every-th
     * step; called once per register that can hold u. A check is a
     * reduction kernel and a host node (frx_graph_add_host) that reads
     * its result and returns an FRX_E* code with its message
     * (frx_error); every rank stops, the message naming step, time,
     * rank and the check's message. Put failing host nodes after any
     * exchange in the graph. */
    int (*build_check)(void *state, frx_matrix *const *u, frx_graph *g);
    /* Optional: the exact solution at time t at n points xyz [n][ndims]
     * (each block's upts; NULL when ndims is 0) into vals [n][nvars]:
     * L2 error norms, with the blocks' qweights, at the end of a run. */
    int (*exact)(void *state, double t, size_t n, const double *xyz,
                 double *vals);
    /* Optional (needed for time.cfl): this rank's largest stable dt for
     * u at the CFL number cfl; the core takes the least over ranks,
     * before every step. */
    int (*max_dt)(void *state, frx_matrix *const *u, double cfl,
                  double *dt);
    /* Solver API 1.1, optional: called on every rank once a run has
     * taken its last step and written its output, with the register
     * holding u and the time: the solver's own end-of-run output (a
     * picture). May be collective; its status is agreed by all ranks. */
    int (*finish)(void *state, frx_matrix *const *u, double t);
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
    /* ABI 1.10: an extension plugin's (FRX_PLUGIN_EXTENSION) */
    const struct frx_extension_ops *extension;
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

/* ABI 1.3: how long frx_cache_fetch waits for another process's lock on
 * an entry before it gives up with an error (default 300 s; the case's
 * cache.lock-timeout sets it when a backend starts). It says that it
 * waits, and for which pid, after 2 s. A cache directory that cannot be
 * written is used read-only: its valid entries load, nothing is built. */
FRX_EXTERN void frx_cache_set_lock_timeout(double seconds);

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
