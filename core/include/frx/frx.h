/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: application API.
 *
 * Everything here returns an int status: FRX_OK (0) or a negative FRX_E*
 * code. The detailed message of the last failure on the calling thread
 * (what failed, where, what to do) is frx_errmsg(). The library never
 * exits the process. */
#ifndef FRX_FRX_H
#define FRX_FRX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(FRX_BUILDING_LIBFRX)
#define FRX_EXTERN __attribute__((visibility("default")))
#else
#define FRX_EXTERN
#endif

/* ABI of the plugin interface (plugin.h). Bump the major on any change
 * that breaks a compiled plugin; the minor when fields are appended. */
#define FRX_ABI_MAJOR 1
#define FRX_ABI_MINOR 13
#define FRX_VERSION "0.1.0"

/* ---------------------------------------------------------------- errors */

/* One list, three uses: the enum, frx_err_name() and frx_strerror(). */
#define FRX_ERRNO_MAP(X)                                            \
    X(EINVAL, -1, "invalid argument")                               \
    X(ENOMEM, -2, "out of memory")                                  \
    X(EIO, -3, "input/output error")                                \
    X(ECONFIG, -4, "invalid configuration")                         \
    X(EPLUGIN, -5, "unusable plugin")                               \
    X(ENOTFOUND, -6, "not found")                                   \
    X(EUNAVAIL, -7, "cannot start here")                            \
    X(EALIGN, -8, "misaligned slice")                               \
    X(ESHAPE, -9, "shape mismatch")                                 \
    X(ERANGE, -10, "value out of range")                            \
    X(EBACKEND, -11, "backend failure")                             \
    X(EMPI, -12, "MPI error")                                       \
    X(ENOTSUP, -13, "not supported")

enum {
    FRX_OK = 0,
#define FRX__ERRNO_ENUM(name, val, str) FRX_##name = (val),
    FRX_ERRNO_MAP(FRX__ERRNO_ENUM)
#undef FRX__ERRNO_ENUM
};

FRX_EXTERN const char *frx_strerror(int code);  /* "invalid argument" */
FRX_EXTERN const char *frx_err_name(int code);  /* "FRX_EINVAL" */
FRX_EXTERN const char *frx_errmsg(void);        /* last detailed message */

/* ------------------------------------------------------------------ files */

/* ABI 1.7, for outputs a plugin writes. frx_make_parent_folder makes
 * the folder that is to hold the file path, and the folders above it
 * (mkdir -p of what comes before path's last '/'; nothing for a bare
 * file name): FRX_OK, or FRX_EIO naming the folder that could not be
 * made. frx_check_parent_folder makes nothing: FRX_OK if the nearest
 * folder above path that exists is a folder this process can write in
 * (so that the other call should succeed), else FRX_EIO naming what is
 * in the way. Check at set-up, make at the first write: a case that
 * fails in between leaves nothing behind. */
FRX_EXTERN int frx_make_parent_folder(const char *path);
FRX_EXTERN int frx_check_parent_folder(const char *path);

/* --------------------------------------------------------------- logging */

enum frx_log_level {
    FRX_LOG_ERROR = 0,
    FRX_LOG_WARN = 1,
    FRX_LOG_INFO = 2,
    FRX_LOG_DEBUG = 3
};

/* Messages go to stderr as "[frx 0/2] info: ...": rank/size prefix once
 * MPI is initialised. FRX_LOG (error|warn|info|debug) overrides the
 * level set here or from the case's log.level. */
FRX_EXTERN void frx_log_set_level(int level);
FRX_EXTERN int frx_log_get_level(void);
FRX_EXTERN int frx_log_level_from_name(const char *name); /* -1 if bad */
FRX_EXTERN void frx_log(int level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---------------------------------------------------------------- config */

typedef struct frx_config frx_config;   /* a parsed case file */
typedef struct frx_cfgnode frx_cfgnode; /* one node of it */

enum frx_cfg_type {
    FRX_CFG_SCALAR = 1,
    FRX_CFG_LIST = 2,
    FRX_CFG_MAP = 3
};

/* Parse only (syntax errors are reported here as file:line:col). */
FRX_EXTERN int frx_config_load(const char *path, frx_config **out);
FRX_EXTERN int frx_config_parse(const char *text, size_t len,
                                const char *name, frx_config **out);
FRX_EXTERN void frx_config_free(frx_config *cfg);
FRX_EXTERN const char *frx_config_file(const frx_config *cfg);
FRX_EXTERN const frx_cfgnode *frx_config_root(const frx_config *cfg);

/* Validate against frx's schema and the schemas of the plugins it can
 * find (backend.<name>.*). Every error is reported, one per line of
 * frx_errmsg(); returns FRX_ECONFIG if there was any. */
FRX_EXTERN int frx_config_check(const frx_config *cfg);
/* The same checks, opening only the backend plugins the case names
 * (backend.name and each backend.rules name; every backend plugin if
 * one of them is auto): what `frx run` does, so that a broken plugin
 * the case does not use cannot stop a run. A backend.<name> section of
 * a backend the case does not name is accepted unchecked when
 * frx-<name>.so is along the search path. */
FRX_EXTERN int frx_config_check_for_run(const frx_config *cfg);

/* Tree access. path is dotted ("backend.openmp.cc"); NULL/"" = node. */
FRX_EXTERN const frx_cfgnode *frx_cfg_get(const frx_cfgnode *node,
                                          const char *path);
FRX_EXTERN int frx_cfg_type(const frx_cfgnode *node);
FRX_EXTERN int frx_cfg_line(const frx_cfgnode *node); /* 1-based */
FRX_EXTERN int frx_cfg_col(const frx_cfgnode *node);  /* 1-based */
FRX_EXTERN const char *frx_cfg_scalar(const frx_cfgnode *node);
FRX_EXTERN size_t frx_cfg_len(const frx_cfgnode *node); /* list/map size */
FRX_EXTERN const frx_cfgnode *frx_cfg_at(const frx_cfgnode *node, size_t i);
FRX_EXTERN const char *frx_cfg_key_at(const frx_cfgnode *node, size_t i);
FRX_EXTERN const frx_cfgnode *frx_cfg_key_node_at(const frx_cfgnode *node,
                                                   size_t i);
FRX_EXTERN const frx_config *frx_cfg_owner(const frx_cfgnode *node);

/* Typed getters: an absent key gives the default; a present one of the
 * wrong type or out of range is FRX_ECONFIG with "file:line:col: ...". */
FRX_EXTERN int frx_cfg_string(const frx_cfgnode *node, const char *path,
                              const char *def, const char **out);
FRX_EXTERN int frx_cfg_int(const frx_cfgnode *node, const char *path,
                           long def, long min, long max, long *out);
/* ABI 1.6: an integer in [min, max] or one of words ("auto|none"):
 * *word is the word's index (*out left at def), or -1 with the integer
 * in *out; absent: def and -1. Declare the key FRX_OPT_INT with the
 * same words as its choices. */
FRX_EXTERN int frx_cfg_int_or(const frx_cfgnode *node, const char *path,
                              long def, long min, long max,
                              const char *words, long *out, int *word);
FRX_EXTERN int frx_cfg_double(const frx_cfgnode *node, const char *path,
                              double def, double min, double max,
                              double *out);
FRX_EXTERN int frx_cfg_bool(const frx_cfgnode *node, const char *path,
                            int def, int *out);
/* choices is "a|b|c"; *out is the index of the match. */
FRX_EXTERN int frx_cfg_enum(const frx_cfgnode *node, const char *path,
                            const char *choices, int def, int *out);

/* --------------------------------------------------------------- plugins */

typedef struct frx_plugin frx_plugin;
struct frx_plugin_desc;

/* Open and validate one plugin file (ABI, entry symbol, name). */
FRX_EXTERN int frx_plugin_open(const char *path, frx_plugin **out);
/* Find "frx-<name>.so" along the search path: plugins.path from cfg (may
 * be NULL), then FRX_PLUGIN_PATH, then the directory beside libfrx. */
FRX_EXTERN int frx_plugin_find(const frx_config *cfg, const char *name,
                               frx_plugin **out);
FRX_EXTERN const struct frx_plugin_desc *
frx_plugin_descriptor(const frx_plugin *p);
FRX_EXTERN const char *frx_plugin_path(const frx_plugin *p);
/* Backends: can it start here? FRX_OK, or FRX_EUNAVAIL with why. */
FRX_EXTERN int frx_plugin_probe(const frx_plugin *p, char *why, size_t n);

/* Every frx-*.so along the search path, in search order (first one of a
 * name wins; later ones are reported as shadowed). p is NULL when the
 * file could not be opened; err and msg say why. Unless MPI is running,
 * each file not loaded yet is first loaded in a forked child, so that
 * one whose constructor crashes is reported (with its signal) instead
 * of ending the process. */
typedef void (*frx_plugin_visit_fn)(const char *path, const frx_plugin *p,
                                    int err, const char *msg, void *ud);
FRX_EXTERN int frx_plugin_foreach(const frx_config *cfg,
                                  frx_plugin_visit_fn fn, void *ud);
/* The directories searched, for messages: "dir1:dir2:...". */
FRX_EXTERN int frx_plugin_search_path(const frx_config *cfg, char *buf,
                                      size_t n);

/* --------------------------------------------------------------- backend */

typedef struct frx_backend frx_backend;
typedef struct frx_matrix frx_matrix;
typedef struct frx_view frx_view;
typedef struct frx_xchg_matrix frx_xchg_matrix;
typedef struct frx_xchg_view frx_xchg_view;

enum frx_precision { FRX_SINGLE = 1, FRX_DOUBLE = 2 };

/* Lifetimes. Matrices, views, xchg matrices and views, kernels, products
 * are reference counted: an object that uses another holds a reference
 * on it, and frx_*_destroy drops the caller's reference, freeing the
 * object with the last one. A slice holds its parent; a view its
 * allocation; an xchg view its view; a kernel every matrix, view and
 * xchg matrix bound to it; a product A, B and C; a graph the kernel,
 * product or xchg view of each node, and the frx_comm of each exchange
 * node; a frx_comm each xchg matrix it exchanges. So they may be
 * destroyed in any order, and what one still uses lives on until it
 * goes (a graph that holds the last reference on a frx_comm frees its
 * MPI communicators: destroy it before MPI_Finalize). Call destroy once
 * per create (each frx_matrix_create_const is one, even where it
 * returns a matrix made before): a second destroy of the same handle is
 * not detected and reads freed memory. The backend is not counted:
 * destroy everything made on it first. */

/* Create this rank's backend from the case (backend.name, precision,
 * backend.<name>.*). "auto" picks the highest-priority backend that
 * starts; a named backend that cannot start is an error. */
FRX_EXTERN int frx_backend_create(const frx_config *cfg, frx_backend **out);
FRX_EXTERN void frx_backend_destroy(frx_backend *be);
FRX_EXTERN const char *frx_backend_name(const frx_backend *be);
FRX_EXTERN int frx_backend_precision(const frx_backend *be);
FRX_EXTERN size_t frx_backend_fpsize(const frx_backend *be); /* 4 or 8 */
FRX_EXTERN size_t frx_backend_soasz(const frx_backend *be);
FRX_EXTERN size_t frx_backend_alignment(const frx_backend *be); /* bytes */
/* ABI 1.13: the parts the backend stores a matrix of at least that many
 * chunks in (the matrix layout, below; openmp: one a thread); 1: one. */
FRX_EXTERN size_t frx_backend_parts(const frx_backend *be);
FRX_EXTERN int frx_backend_sync(frx_backend *be);

/* ---------------------------------------------------------------- matrix */

/* A matrix holds nrow x nvar x neles values in AoSoA layout: elements in
 * chunks of soasz, value (r, v, e) at
 *   r*leaddim + (e/soasz)*nvar*soasz + v*soasz + e%soasz
 * with leaddim a multiple of the alignment. On a backend that stores
 * matrices in parts (openmp: one a thread), chunk c = e/soasz is in part
 * c/pc, which holds its own rows:
 *   (c/pc)*ps + r*leaddim + (c%pc)*nvar*soasz + v*soasz + e%soasz
 * with pc chunks a part and ps = nrow*leaddim. Host copies use the
 * logical dense layout [nrow][nvar][neles] in the backend's precision. */
typedef struct frx_matrix_shape {
    size_t nrow, nvar, neles;
} frx_matrix_shape;

FRX_EXTERN int frx_matrix_create(frx_backend *be, size_t nrow, size_t nvar,
                                 size_t neles, frx_matrix **out);
/* Several matrices in one allocation: views may span them. */
FRX_EXTERN int frx_matrix_create_group(frx_backend *be, size_t count,
                                       const frx_matrix_shape *shapes,
                                       frx_matrix **out);
/* Constant operator matrix, nrow x ncol row-major doubles (converted to
 * the backend precision). Equal contents give the same matrix. */
FRX_EXTERN int frx_matrix_create_const(frx_backend *be, size_t nrow,
                                       size_t ncol, const double *data,
                                       frx_matrix **out);
/* Elements [e0, e1) of m, sharing its storage; e0 must be a multiple of
 * soasz (FRX_EALIGN otherwise). */
FRX_EXTERN int frx_matrix_slice(frx_matrix *m, size_t e0, size_t e1,
                                frx_matrix **out);
/* ABI 1.13: elements [k0, k1) of each part of m (a whole matrix, not a
 * slice), as one matrix sharing its storage: part 0's piece first, then
 * part 1's, and so on, each piece the part of the result that lies in
 * the part of m (the pieces of a part that is shorter may be shorter or
 * absent). k0 a multiple of soasz, k1 too unless it is the part's size
 * in elements (frx_matrix_part_chunks x soasz). On a matrix of one part
 * it is the slice [k0, k1). The result cannot be sliced again. */
FRX_EXTERN int frx_matrix_slice_parts(frx_matrix *m, size_t k0, size_t k1,
                                      frx_matrix **out);
/* Drops one reference (Lifetimes, above). */
FRX_EXTERN void frx_matrix_destroy(frx_matrix *m);
/* host: [nrow][nvar][neles] values in the backend's precision (double
 * or float, frx_backend_fpsize), or as doubles by the _double pair,
 * which converts (and refuses a value single precision cannot hold):
 * the safe choice where a plugin's data are doubles (ABI 1.8). */
FRX_EXTERN int frx_matrix_write(frx_matrix *m, const void *host);
FRX_EXTERN int frx_matrix_read(const frx_matrix *m, void *host);
FRX_EXTERN int frx_matrix_write_double(frx_matrix *m, const double *host);
FRX_EXTERN int frx_matrix_read_double(const frx_matrix *m, double *host);
FRX_EXTERN size_t frx_matrix_nrow(const frx_matrix *m);
FRX_EXTERN size_t frx_matrix_nvar(const frx_matrix *m);
FRX_EXTERN size_t frx_matrix_neles(const frx_matrix *m);
FRX_EXTERN size_t frx_matrix_leaddim(const frx_matrix *m);
/* ABI 1.13: pc, the chunks of soasz elements a part holds (the layout
 * above), 0 where the matrix is one part. */
FRX_EXTERN size_t frx_matrix_part_chunks(const frx_matrix *m);

/* ------------------------------------------------------------------ view */

/* n points; point i reads matrix mats[i] at element eles[i]; its value
 * (r, c) is mats[i] row rows[i] + r*rstrides[i], variable c. rstrides
 * may be NULL when nvrow == 1. All matrices share one allocation. */
FRX_EXTERN int frx_view_create(frx_backend *be, size_t n,
                               frx_matrix *const *mats, const size_t *rows,
                               const size_t *eles, const size_t *rstrides,
                               size_t nvrow, size_t nvcol, frx_view **out);
FRX_EXTERN void frx_view_destroy(frx_view *v); /* drops one reference */
FRX_EXTERN size_t frx_view_n(const frx_view *v);
FRX_EXTERN size_t frx_view_nvrow(const frx_view *v);
FRX_EXTERN size_t frx_view_nvcol(const frx_view *v);

/* ---------------------------------------------------------- xchg matrix */

/* Dense, unpadded; value (r, c, i) at (r*nvcol + c)*n + i on every
 * backend. It has a host mirror for MPI when the device is not the host. */
FRX_EXTERN int frx_xchg_matrix_create(frx_backend *be, size_t n,
                                      size_t nvrow, size_t nvcol,
                                      frx_xchg_matrix **out);
FRX_EXTERN void frx_xchg_matrix_destroy(frx_xchg_matrix *xm); /* one ref */
/* In the backend's precision, or as doubles (converted) by the _double
 * pair (ABI 1.8), as for frx_matrix_write. */
FRX_EXTERN int frx_xchg_matrix_write(frx_xchg_matrix *xm, const void *host);
FRX_EXTERN int frx_xchg_matrix_read(const frx_xchg_matrix *xm, void *host);
FRX_EXTERN int frx_xchg_matrix_write_double(frx_xchg_matrix *xm,
                                            const double *host);
FRX_EXTERN int frx_xchg_matrix_read_double(const frx_xchg_matrix *xm,
                                           double *host);
FRX_EXTERN void *frx_xchg_matrix_host(frx_xchg_matrix *xm);
FRX_EXTERN int frx_xchg_matrix_to_host(frx_xchg_matrix *xm);
FRX_EXTERN int frx_xchg_matrix_to_device(frx_xchg_matrix *xm);
FRX_EXTERN size_t frx_xchg_matrix_n(const frx_xchg_matrix *xm);
FRX_EXTERN size_t frx_xchg_matrix_bytes(const frx_xchg_matrix *xm);

/* ------------------------------------------------------------ xchg view */

/* It holds v: v may be destroyed first. */
FRX_EXTERN int frx_xchg_view_create(frx_view *v, frx_xchg_view **out);
FRX_EXTERN void frx_xchg_view_destroy(frx_xchg_view *xv); /* one ref */
/* Its xchg matrix, lent: valid while xv is (not to be destroyed by the
 * caller; a kernel bound to it or an exchange holds it beyond). */
FRX_EXTERN frx_xchg_matrix *frx_xchg_view_matrix(frx_xchg_view *xv);
/* Gather the view's points into its xchg matrix. */
FRX_EXTERN int frx_xchg_view_pack(frx_xchg_view *xv);
/* Scatter the xchg matrix back into the view's points. */
FRX_EXTERN int frx_xchg_view_unpack(frx_xchg_view *xv);
/* Pack now into a new persistent xchg matrix (the base flow at t = 0). */
FRX_EXTERN int frx_xchg_view_snapshot(frx_xchg_view *xv,
                                      frx_xchg_matrix **out);

/* --------------------------------------------------------------- kernels */

/* A pointwise kernel, written once for every backend.
 *
 * args: comma-separated "[in|out|inout] [view|xchg|scalar|broadcast]
 * dtype[dims] name"; intent defaults to in, "mpi" is an old name for
 * xchg, no kind means a plain matrix. dtype is fpdtype_t (int32_t for
 * scalars too); dims are [a] or [a][b]. In the body each argument is a
 * local array of its dims (a scalar a plain value): in/inout arguments
 * are loaded before the body, out/inout ones stored after it.
 *
 *   ndim 1 runs over n points: a matrix [a][b] has a rows, b variables
 *   and n elements; a view [a][b] has a rows and b columns per point; an
 *   xchg matrix [a][b] likewise, packed.
 *   ndim 2 runs over nrows x n: a matrix [a][b] has a*nrows rows (row
 *   x*nrows + j for row j of the kernel) and b variables.
 *   broadcast [a][b]: a const matrix (a x b) read whole by every point.
 *   out reduce(max|min|sum) [a][b]: a result folded over every point:
 *   the body's local copy starts at the operator's identity (-inf, +inf
 *   or 0) at each point and whatever the body leaves in it is folded
 *   in; bind it with frx_arg_reduce() and read it with
 *   frx_kernel_result() after a run. max and min ignore NaN (as fmax
 *   and fmin); a sum keeps it. The fold is the same on every run of
 *   the same kernel on the same backend, whatever the number of threads.
 */
typedef struct frx_kernel_decl {
    const char *name;
    int ndim;
    const char *args;
    const char *body;      /* or NULL and body_file */
    const char *body_file; /* a file holding the body */
} frx_kernel_decl;

/* A macro a kernel body may call: name(params) expands to body. */
typedef struct frx_kernel_macro {
    const char *name;
    const char *params; /* "a, b, c" */
    const char *body;
} frx_kernel_macro;

enum frx_target {
    FRX_TARGET_C_OPENMP = 1, /* C with OpenMP, compiled by cc */
    FRX_TARGET_OPENCL = 2,   /* OpenCL C */
    FRX_TARGET_CUDA = 3,     /* CUDA C for NVRTC */
    FRX_TARGET_HIP = 4       /* HIP for hiprtc */
};

typedef struct frx_codegen {
    int target;       /* enum frx_target */
    int precision;    /* enum frx_precision */
    size_t soasz;     /* chunk width of matrices */
    size_t alignment; /* bytes */
} frx_codegen;

/* Generate the source of one kernel for a target. *src (malloc'd, free
 * it) defines the function *entry (malloc'd too). */
FRX_EXTERN int frx_kernel_generate(const frx_kernel_decl *d,
                                   const frx_kernel_macro *macros,
                                   size_t nmacros, const frx_codegen *cg,
                                   char **src, char **entry);

/* Register a kernel or a macro with a backend (for solver plugins). */
FRX_EXTERN int frx_kernel_register(frx_backend *be, const frx_kernel_decl *d);
FRX_EXTERN int frx_kernel_register_macro(frx_backend *be,
                                         const frx_kernel_macro *m);

typedef struct frx_kernel frx_kernel;

/* What an argument is bound to. */
typedef struct frx_arg {
    int kind; /* one of the FRX_ARG_* below */
    void *obj;
    double value;
} frx_arg;

enum {
    FRX_ARG_MATRIX = 1,
    FRX_ARG_VIEW,
    FRX_ARG_XCHG,
    FRX_ARG_SCALAR,
    FRX_ARG_UNSET, /* a scalar set later with frx_kernel_set_scalar */
    FRX_ARG_REDUCE /* a reduction's result (frx_kernel_result) */
};

FRX_EXTERN frx_arg frx_arg_matrix(frx_matrix *m);
FRX_EXTERN frx_arg frx_arg_view(frx_view *v);
FRX_EXTERN frx_arg frx_arg_xchg(frx_xchg_matrix *xm);
FRX_EXTERN frx_arg frx_arg_scalar(double value);
FRX_EXTERN frx_arg frx_arg_unset(void);
FRX_EXTERN frx_arg frx_arg_reduce(void);

/* Bind a registered kernel to its arguments (in declaration order) over
 * nrows x n (nrows is 1 for ndim 1). Every argument's kind, dtype,
 * shape and size is checked against the declaration; the code is
 * compiled once (or loaded from the disk cache) and shared. The kernel
 * holds a reference on each matrix, view and xchg matrix bound, until
 * its last reference goes. */
FRX_EXTERN int frx_kernel_create(frx_backend *be, const char *name,
                                 size_t nrows, size_t n, const frx_arg *args,
                                 size_t nargs, frx_kernel **out);
/* Change a scalar argument without recompiling. */
FRX_EXTERN int frx_kernel_set_scalar(frx_kernel *k, const char *arg,
                                     double value);
FRX_EXTERN int frx_kernel_run(frx_kernel *k);
FRX_EXTERN void frx_kernel_destroy(frx_kernel *k); /* drops one ref */
/* The result of reduction argument arg over every point of the kernel's
 * last run: n values (its dims, row-major: n = a*b for [a][b], 1 for a
 * scalar shape), in double. It waits for that run; only the partial
 * results (one per slice of chunks, or per work-group) are copied. */
FRX_EXTERN int frx_kernel_result(frx_kernel *k, const char *arg,
                                 double *values, size_t n);

typedef struct frx_backend_stats {
    size_t compiles;    /* kernels compiled by this process */
    size_t cache_loads; /* kernels loaded from the disk cache */
    size_t reuses;      /* kernel binds that reused compiled code */
    size_t events;      /* completion events the backend made (opencl on
                           an out-of-order queue, cuda, hip); 0 where it
                           has none */
    size_t product_timings; /* products whose provider this process chose
                               by timing the candidates */
    size_t product_cached;  /* products whose provider came from the disk
                               cache, timing nothing */
} frx_backend_stats;

FRX_EXTERN void frx_backend_get_stats(const frx_backend *be,
                                      frx_backend_stats *out);

/* -------------------------------------------------------------- products */

/* Operator products C = alpha*A*B + beta*C, A a constant operator (m x k,
 * frx_matrix_create_const), B (k rows) and C (m rows) matrices of the
 * same nvar and neles (slices and group members too). Row r of a matrix
 * holds its nvar x neles values contiguously, so the product is one
 * row-major GEMM over the element columns. beta = 0 never reads C.
 *
 * Providers: "generated" (code written from A's values, zeros skipped),
 * and the libraries the backend offers (openmp: "libxsmm"; opencl:
 * "clblast"; cuda: "cublas"). With provider NULL or "auto" every candidate is timed once
 * on B and a scratch copy of C's layout, the fastest kept, and the choice
 * stored in frx's disk cache (keyed by A's values, the shapes, the
 * precision, backend and device), so later runs time nothing;
 * backend.<name>.products in the case forces one. A provider that cannot
 * do this product (a library where C is a slice ending inside a chunk,
 * or beta other than 0 or 1 for libxsmm) is an error when named, skipped
 * by auto. */
typedef struct frx_product frx_product;

FRX_EXTERN int frx_product_create(frx_matrix *a, frx_matrix *b,
                                  frx_matrix *c, double alpha, double beta,
                                  frx_product **out);
FRX_EXTERN int frx_product_create_using(frx_matrix *a, frx_matrix *b,
                                        frx_matrix *c, double alpha,
                                        double beta, const char *provider,
                                        frx_product **out);
FRX_EXTERN int frx_product_run(frx_product *p);
/* Drops one reference; a product holds A, B and C. */
FRX_EXTERN void frx_product_destroy(frx_product *p);
/* The provider that runs it: "generated", "libxsmm", ... */
FRX_EXTERN const char *frx_product_provider(const frx_product *p);
/* The source of one variant of the generated code (for tools, and tests
 * that compile GPU code without a GPU): A m x k, beta zero (C never read)
 * or not, rows of C accumulated together (the N of "generated/rN"); ldb
 * and ldc are written into C with OpenMP code (both 0 there: read at run
 * time; 0 elsewhere). *src and *entry are malloc'd, like
 * frx_kernel_generate's. */
FRX_EXTERN int frx_product_generate(const frx_codegen *cg, size_t m,
                                    size_t k, const double *a, int beta0,
                                    size_t rows, size_t ldb, size_t ldc,
                                    char **src, char **entry);
/* The providers a backend offers, "generated" first: names[0..n) (at most
 * max written); returns how many there are. */
FRX_EXTERN size_t frx_backend_products(const frx_backend *be,
                                       const char **names, size_t max);

/* ---------------------------------------------------------------- graphs */

/* Nodes run in an order fixed once by frx_graph_commit: explicit
 * dependencies, plus those derived from what each node reads and
 * writes (a node that reads or writes data an earlier node writes, or
 * writes data an earlier node reads, runs after it). */
typedef struct frx_graph frx_graph;

/* A graph holds a reference on the kernel, product or xchg view of each
 * node added (the caller may destroy its own at once); destroy drops
 * them. A host node's ud is the caller's to keep while the graph runs. */
FRX_EXTERN int frx_graph_create(frx_backend *be, frx_graph **out);
FRX_EXTERN void frx_graph_destroy(frx_graph *g);
/* Each add returns the new node's index in *node (may be NULL); deps
 * are indices of nodes added before. */
FRX_EXTERN int frx_graph_add_kernel(frx_graph *g, frx_kernel *k,
                                    const int *deps, size_t ndeps, int *node);
FRX_EXTERN int frx_graph_add_pack(frx_graph *g, frx_xchg_view *xv,
                                  const int *deps, size_t ndeps, int *node);
FRX_EXTERN int frx_graph_add_unpack(frx_graph *g, frx_xchg_view *xv,
                                    const int *deps, size_t ndeps,
                                    int *node);
/* A product reads A and B (and C when beta != 0) and writes C. */
FRX_EXTERN int frx_graph_add_product(frx_graph *g, frx_product *p,
                                     const int *deps, size_t ndeps,
                                     int *node);
/* A host node: fn(ud) runs on the host in graph order, as a barrier.
 * It runs after every node added before it has completed (the backend
 * is synchronised first, so the callback may read what they wrote:
 * frx_kernel_result, frx_matrix_read) and before any node added after
 * it starts (so it may set scalars those use). A nonzero return stops
 * frx_graph_run, which returns it; record the reason with frx_error. */
typedef int (*frx_host_fn)(void *ud);
FRX_EXTERN int frx_graph_add_host(frx_graph *g, frx_host_fn fn, void *ud,
                                  int *node);
FRX_EXTERN int frx_graph_commit(frx_graph *g);
FRX_EXTERN int frx_graph_run(frx_graph *g);
/* The committed order: order[k] is the k-th node run (n entries). */
FRX_EXTERN int frx_graph_order(const frx_graph *g, int *order, size_t n);
/* ABI 1.12: what the commit tells the backend of a node when it runs
 * (frx_exec_flags, <frx/plugin.h>): FRX_EXEC_SAME_WORKERS where the
 * backend runs batches and the node may start on a worker that is done
 * with its own share of the nodes before it. */
FRX_EXTERN int frx_graph_node_flags(const frx_graph *g, int node,
                                    uint32_t *flags);

#ifdef __cplusplus
}
#endif
#endif
