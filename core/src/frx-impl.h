/* frx: internals shared by the core's files. Never installed; plugins
 * see only frx.h and plugin.h. */
#ifndef FRX_IMPL_H
#define FRX_IMPL_H

#include <frx/frx.h>
#include <frx/plugin.h>

#include <stdarg.h>
#include <stddef.h>

#define FRX__XSTR(x) #x
#define FRX__STR(x) FRX__XSTR(x) /* a macro's value as a string */

/* ---------------------------------------------------------------- errors */

/* frx_error() replaces the message; this appends a line to it (for
 * reporting every error of a config at once). */
int frx__error_append(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int frx__error_v(int code, const char *fmt, va_list ap);
void frx__error_clear(void);
/* The message is a report of other ranks' failures (frx_comm_agree on a
 * rank that did not fail itself) until the next frx_error replaces it:
 * a later agreement lists the ranks that failed themselves, not this
 * copy of their reasons. */
void frx__error_mark_agreed(void);
int frx__error_is_agreed(void);
/* How many errors this thread has recorded: a call that returns an error
 * without one leaves it as it was. */
unsigned long frx__error_count(void);

/* Allocation that records FRX_ENOMEM with what was being allocated. */
void *frx__calloc(size_t n, size_t size, const char *what);
char *frx__strdup(const char *s);

/* ---------------------------------------------------------------- config */

/* "file:line:col" of a node, into buf. */
const char *frx__cfg_where(const frx_cfgnode *node, char *buf, size_t n);

/* Edit distance, for "did you mean" suggestions. */
size_t frx__edit_distance(const char *a, const char *b);
/* The closest of n candidates to word, or NULL if none is close. */
const char *frx__suggest(const char *word, const char *const *cands,
                         size_t n);

/* Does rank appear in ranges like "0-3,8"? FRX_EINVAL for bad syntax
 * (match may be NULL to check the syntax only). */
int frx__rank_match(const char *ranges, int rank, int *match);

/* The backend this rank runs, from backend.* and backend.rules. */
struct frx__choice {
    const char *name;
    int precision;
    const char *device; /* from a rule, or NULL */
    int rule;           /* index of the rule that matched, or -1 */
    int local_rank;     /* the rank's place on its node, or -1 */
    char host[256];
};
int frx__backend_choice(const frx_config *cfg, int rank,
                        struct frx__choice *out);
/* frx_backend_create with the rank's place on its node given (-1:
 * unknown), as frx_backend_create_all finds it. */
int frx__backend_create(const frx_config *cfg, int local_rank,
                        frx_backend **out);

/* ---------------------------------------------------------------- plugin */

/* The directory holding libfrx itself ("" if unknown). */
const char *frx__libdir(void);
/* frx_plugin_foreach; probe: load each new file in a child process
 * first, so a plugin that crashes while loading is named and skipped
 * (for listings; not once MPI runs). */
int frx__plugin_foreach(const frx_config *cfg, frx_plugin_visit_fn fn,
                        void *ud, int probe);
/* Is there a file frx-<name>.so along the search path? Opens nothing. */
int frx__plugin_exists(const frx_config *cfg, const char *name);

/* --------------------------------------------------------------- kernels */

enum frx__kind {
    FRX__K_MATRIX = 1,
    FRX__K_VIEW,
    FRX__K_XCHG,
    FRX__K_SCALAR,
    FRX__K_BROADCAST,
    FRX__K_REDUCE /* out reduce(max|min|sum): folded over every point */
};
enum frx__reduce_op { FRX__RED_MAX = 1, FRX__RED_MIN, FRX__RED_SUM };
enum frx__intent { FRX__IN = 1, FRX__OUT = 2, FRX__INOUT = 3 };

typedef struct frx__karg {
    char name[64];
    int intent, kind;
    int is_int;     /* int32_t scalar; else fpdtype_t */
    size_t ndims;   /* 0, 1 or 2 */
    size_t dims[2];
    size_t nrow, ncol; /* dims as (rows, columns): [a] is (1, a) */
    int op;            /* FRX__K_REDUCE: enum frx__reduce_op */
} frx__karg;

/* The longest kernel name: generated function names add a few
 * characters to it, and messages quote it whole. */
#define FRX__KNAME_MAX 64

typedef struct frx__kspec {
    char *name;     /* "<namespace>.<name>" when registered in one */
    char *ns;       /* the namespace (a solver plugin's name), or NULL */
    int ndim;
    size_t nargs;
    frx__karg *args;
    char *body;
} frx__kspec;

int frx__kspec_parse(const frx_kernel_decl *d, frx__kspec **out);
/* Do two parsed declarations mean the same kernel? */
int frx__kspec_same(const frx__kspec *a, const frx__kspec *b);
void frx__kspec_free(frx__kspec *s);
/* "in view fpdtype_t[4]" as a declaration would read, with another kind
 * (kind < 0: the argument's own). */
const char *frx__karg_decl(const frx__karg *a, int kind, char *buf,
                           size_t n);
int frx__kgen(const frx__kspec *s, const frx_kernel_macro *macros,
              size_t nmacros, const frx_codegen *cg, char **src,
              char **entry);
/* Reductions: how many partial results per component a kernel of spec
 * s over nrows x n leaves for the host to fold (one per slice of
 * chunks on C with OpenMP, one per row and work-group on GPUs), and the
 * work-group size the GPU targets require. */
#define FRX__RED_SLICES 256
#define FRX__RED_WG 128
size_t frx__reduce_nparts(const frx_codegen *cg, size_t nrows, size_t n);
int frx__kspec_has_reduce(const frx__kspec *s);
/* Elements per row of a matrix of ncol columns with one variable. */
size_t frx__const_leaddim(size_t ncol, size_t soasz, size_t alignment,
                          size_t fpsize);

/* Compiled code of a generated source, shared by every user of the same
 * source (kernel.c): compiled once, or loaded from the disk cache. */
int frx__program(frx_backend *be, const char *name, const char *src,
                 const char *entry, int ndim, size_t local_size,
                 void **prog);

/* ------------------------------------------------------------- products */

/* The generated code of an operator product (product_gen.c). */
typedef struct frx__pgen {
    int target, precision;
    size_t soasz;
    size_t m, k;
    const double *a;  /* m x k, row-major */
    int beta0;        /* beta == 0: C is never read */
    size_t rows;      /* rows of C accumulated together, 1 to 256 */
    size_t ldb, ldc;  /* C with OpenMP: B's and C's leading dimensions,
                         written into the code */
    size_t width;     /* C with OpenMP: chunks a thread takes at a time,
                         each block of rows going over all of them */
    int stream;       /* C with OpenMP, beta = 0: streaming stores (chunks
                         aligned to 64 bytes) */
    int loops;        /* loop over runs of nonzero columns, reading A from
                         its buffer, rather than unroll every nonzero */
    int phased;       /* OpenCL: a barrier between blocks of rows */
    size_t vec;       /* OpenCL: columns a work-item computes as one vector
                         (2 to 16, a divisor of soasz; 0: one column) */
} frx__pgen;

int frx__pgen_source(const frx__pgen *g, char **src, char **entry);

/* C with OpenMP: the two entries of a kernel or product whose loop is an
 * orphaned `omp for nowait` and whose static <fn>_call takes the launch
 * parameters (a printf format, the name as %1$s). <fn>_entry runs it in
 * a team of its own; <fn>_entry_team on the team of a parallel region
 * the backend opened, which puts a barrier after it (openmp runs a
 * graph's stretch of kernels in one region: one barrier a kernel, not a
 * fork and a join). */
#define FRX__OPENMP_ENTRIES                                                \
    "\nvoid %1$s_entry(const frx_kp *_p);\n"                              \
    "void %1$s_entry(const frx_kp *_p)\n{\n"                               \
    "#pragma omp parallel\n"                                              \
    "    %1$s_call(_p);\n}\n"                                              \
    "\nvoid %1$s_entry_team(const frx_kp *_p);\n"                         \
    "void %1$s_entry_team(const frx_kp *_p)\n{\n"                          \
    "    %1$s_call(_p);\n}\n"

/* ------------------------------------------------------------------ hash */

typedef struct frx__sha256 {
    uint32_t h[8];
    uint64_t len;
    unsigned char buf[64];
    size_t nbuf;
} frx__sha256;

void frx__sha256_init(frx__sha256 *s);
void frx__sha256_update(frx__sha256 *s, const void *data, size_t len);
void frx__sha256_final(frx__sha256 *s, unsigned char out[32]);

/* The cache directory in use (created 0700 if absent) or an error. */
int frx__cache_dir(char *buf, size_t n);
/* The valid entry of frx_cache_fetch's key, if there is one (*found),
 * read without waiting for its lock and never built; FRX_CACHE=off finds
 * none. */
int frx__cache_peek(const char *const *parts, size_t nparts,
                    const char *suffix, frx_cache_entry *out, int *found);

/* ------------------------------------------------------------------- MPI */

/* Rank and size when MPI is initialised, else 0 and 1. */
void frx__mpi_rank_size(int *rank, int *size);
/* This rank's place on its node as the launcher's variables say it
 * (OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID...), or -1. */
int frx__mpi_local_rank(void);
int frx__mpi_running(void); /* initialised and not finalised */

/* -------------------------------------------------------- data model */

struct frx_backend {
    char *name;
    const frx_plugin *plugin;
    const frx_backend_ops *ops;
    void *state;
    frx_backend_info info;
    int precision;
    size_t fpsize;
    struct frx_const_entry *consts; /* de-duplication list */
    struct frx__kreg *kernels;      /* registered kernels */
    frx_kernel_macro *macros;       /* registered macros (copies) */
    char **macro_ns;                /* each macro's namespace, or NULL */
    size_t nmacros;
    const char *kernel_ns;          /* where kernels are registered and
                                       found now: a solver plugin's name
                                       during its calls, else NULL */
    struct frx__prog *progs;        /* compiled code, by source hash */
    frx_backend_stats stats;
    char *products;                 /* backend.<name>.products, or NULL */
    int mpi_mode;                   /* enum frx_mpi_mode, 0 until set */
    double t_pack, t_wait, t_unpack; /* seconds, for frx_comm_report */
    struct frx__profile *prof;       /* profile: true, else NULL */
};

/* profile.c: `profile: true` times every graph node and every kernel and
 * product run outside a graph, the backend synchronised after each. */
enum frx__prof_kind {
    FRX__PROF_KERNEL,
    FRX__PROF_PRODUCT,
    FRX__PROF_PACK,
    FRX__PROF_UNPACK,
    FRX__PROF_MPI,
    FRX__PROF_HOST
};
int frx__profile_enable(frx_backend *be);
void frx__profile_free(frx_backend *be);
/* the entry of (kind, label), made where new: >= 0, or FRX_ENOMEM */
int frx__profile_slot(frx_backend *be, int kind, const char *label);
/* only what runs between on and off counts (frx_solver_run's loop) */
void frx__profile_active(frx_backend *be, int on);
/* after a run that began at t0 and returned rc: sync, add; rc or sync's */
int frx__profile_time(frx_backend *be, int slot, double t0, int rc);
/* frx__profile_report (collective): solver-impl.h */

double frx__now(void); /* monotonic seconds */

/* The pack, wait and unpack timers cost two clock reads a call, a good
 * part of a small exchange where clock_gettime is slow (VMs), so they
 * run only when their report is shown: log.level info or debug. */
extern int frx__timers_on; /* log.c: 1, 0, or -1 before the level is read */
int frx__timers_update(void);

static inline double frx__timer_start(void)
{
    int on = frx__timers_on >= 0 ? frx__timers_on : frx__timers_update();
    return on ? frx__now() : 0;
}

static inline void frx__timer_stop(double *total, double t0)
{
    if (t0 > 0)
        *total += frx__now() - t0;
}

/* What a kernel instance reads and writes, for graph dependencies: an
 * allocation (struct frx_alloc *) or an xchg matrix. */
typedef struct frx__access {
    const void *res;
    int writes;
    size_t lo, hi; /* the elements touched, [lo, hi); 0, SIZE_MAX: all */
    /* MPI nodes: the node that starts request req (FRX__INFLIGHT_START)
     * holds res in flight until the one that waits for it
     * (FRX__INFLIGHT_WAIT); what names the request in messages */
    int inflight;
    const void *req;
    const char *what;
} frx__access;

enum { FRX__INFLIGHT_START = 1, FRX__INFLIGHT_WAIT = 2 };

const char *frx__kernel_name(const frx_kernel *k);
/* The backend a kernel or a product runs on. */
frx_backend *frx__kernel_backend(const frx_kernel *k);
frx_backend *frx__product_backend(const frx_product *p);
/* "backend 'openmp' (double precision)", for messages that name two. */
const char *frx__backend_desc(const frx_backend *be, char *buf, size_t n);

/* The values a constant matrix was made from (nrow x ncol doubles), or
 * NULL if m is not one. */
const double *frx__const_values(const frx_matrix *m);

/* Do matrices a and b share an element of their allocation? *at: one
 * that both hold (rows ld apart are compared row by row, so slices of
 * one matrix side by side do not meet). */
int frx__matrices_meet(const frx_matrix *a, const frx_matrix *b, size_t *at);
/* A product's name in messages: "m x k", A's shape. */
const char *frx__product_name(const frx_product *p);
/* its profile entry, "m x k (provider)" */
int frx__product_profile_slot(const frx_product *p);

/* The elements of its allocation a matrix or a view spans, [lo, hi). */
void frx__matrix_range(const frx_matrix *m, size_t *lo, size_t *hi);

size_t frx__kernel_accesses(const frx_kernel *k, const frx__access **out);
size_t frx__product_accesses(const frx_product *p, const frx__access **out);

/* Take one more reference (a graph node holding it); each is dropped
 * by the object's frx_*_destroy, which frees it with the last one. */
void frx__kernel_hold(frx_kernel *k);
void frx__product_hold(frx_product *p);

/* A kernel run and a pack (pack = 1) or unpack with frx_exec_flags. */
int frx__kernel_run(frx_kernel *k, uint32_t flags);
int frx__product_run(frx_product *p, uint32_t flags);
int frx__xchg_move(frx_xchg_view *xv, int pack, uint32_t flags);
/* Copy an xchg matrix to (to_host) or from its host mirror: started,
 * with *done to wait for, where the backend can (copy_start); else
 * done on return and *done NULL. Nothing to do without a mirror. */
int frx__xchg_copy_start(frx_xchg_matrix *xm, int to_host, void **done);
int frx__xchg_copy_wait(frx_backend *be, void *done);

/* Graph nodes that run host code (MPI requests). FRX__PRIO_FIRST nodes
 * run as soon as they are ready (receives); FRX__PRIO_FEEDS_MPI nodes
 * and all upstream of them run before other ready nodes (packs, sends). */
enum { FRX__PRIO_FIRST = 1, FRX__PRIO_FEEDS_MPI = 2 };
typedef int (*frx__host_fn)(void *ud);
int frx__graph_add_host(frx_graph *g, frx__host_fn fn, void *ud, int prio,
                        const frx__access *acc, size_t nacc, const int *deps,
                        size_t ndeps, int *node);
/* What frx_graph_run calls when a node fails (MPI nodes: end the job,
 * since peers wait on this rank); fn need not return. */
void frx__graph_on_failure(frx_graph *g, void (*fn)(void *ud, int rc),
                           void *ud);
typedef struct frx_comm frx_comm; /* frx/comm.h */
/* An exchange's host node holds its comm (frx__comm_hold), dropped when
 * the graph goes, as a kernel node holds its kernel. */
int frx__graph_hold_comm(frx_graph *g, int node, frx_comm *c);
void frx__comm_hold(frx_comm *c);
/* A host node's function run once, when its graph is committed. */
int frx__graph_set_prepare(frx_graph *g, int node, frx__host_fn fn);
/* a host node's kind and name in the profile (enum frx__prof_kind) */
int frx__graph_set_label(frx_graph *g, int node, int kind,
                         const char *label);
void frx__kernels_release(frx_backend *be);

/* Set the namespace of kernels and macros (a solver plugin's name, or
 * NULL for the application's); returns the one it replaces. */
const char *frx__kernel_ns_set(frx_backend *be, const char *ns);

/* A kernel's reduction arguments: each one's partial results on the
 * device, [component][part], folded on the host by frx_kernel_result. */
struct frx__kred {
    size_t arg;            /* its argument */
    size_t ncomp, nparts;
    void *mem;             /* device memory */
    void *host;            /* room to read it back */
};
int frx__kred_create(frx_backend *be, const frx__kspec *s, size_t nrows,
                     size_t n, struct frx__kred **out, size_t *count);
void frx__kred_free(frx_backend *be, struct frx__kred *r, size_t count);
/* Read r back and fold it with op into values[ncomp]. */
int frx__kred_fold(frx_backend *be, const struct frx__kred *r, int op,
                   double *values);

/* One block of device memory, shared by the matrices made in it. */
struct frx_alloc {
    frx_backend *be;
    void *mem;
    size_t bytes;
    int refs;
    int is_const; /* holds a const matrix: never written after creation */
};

/* The first member of a matrix, view and xchg matrix: what it is, so
 * that a kernel argument made by hand with the wrong kind (an frx_arg
 * is a plain struct) is refused, not its object read as another. */
enum {
    FRX__TAG_MATRIX = 0x4d415458, /* "MATX" */
    FRX__TAG_VIEW = 0x56494557,   /* "VIEW" */
    FRX__TAG_XCHG = 0x58434847    /* "XCHG" */
};

struct frx_matrix {
    uint32_t tag; /* FRX__TAG_MATRIX */
    frx_backend *be;
    struct frx_alloc *alloc;
    size_t offset;             /* bytes from the allocation start */
    size_t nrow, nvar, neles;  /* logical shape */
    size_t leaddim;            /* elements per row, padded */
    int is_const;
    int refs;
    frx_matrix *parent;        /* slices keep their parent alive */
};

struct frx_view {
    uint32_t tag; /* FRX__TAG_VIEW */
    frx_backend *be;
    struct frx_alloc *alloc;
    size_t n, nvrow, nvcol;
    frx_ix_t *off, *rstride;   /* host copies */
    void *off_mem, *rstride_mem;
    frx_run *runs;
    size_t nruns;
    size_t cstride;
    size_t lo, hi;             /* elements of the allocation it spans */
    int refs;                  /* its creator, kernels, xchg views */
};

struct frx_xchg_matrix {
    uint32_t tag; /* FRX__TAG_XCHG */
    frx_backend *be;
    void *mem;
    void *host;      /* mirror; == mem when the device is the host */
    void *host_handle; /* from ops->host_alloc, if it made the mirror */
    int own_host;
    size_t n, nvrow, nvcol, bytes;
    int refs;        /* its creator (or xchg view), kernels, exchanges */
};

struct frx_xchg_view {
    frx_view *view;
    frx_xchg_matrix *xm;
    /* built once (a pack of a few points takes nanoseconds): [0] plain,
     * [1] with FRX_EXEC_NO_WAITERS, as a graph runs its last nodes */
    frx_pack_args args[2];
    int unpack_ok;  /* its view holds no element twice (checked once) */
    int refs;       /* its creator, graphs */
};

void frx__alloc_release(struct frx_alloc *a);

/* The elements of its allocation a view spans, point by point, into out
 * [n * nvrow * nvcol]; their count. frx__cmp_size: qsort's for size_t. */
size_t frx__view_elements(const frx_view *v, size_t *out);
int frx__cmp_size(const void *a, const void *b);
/* Does the view hold an element twice (*at: one such)? Writing it would
 * race: which write lands depends on the threads. */
int frx__view_repeats(const frx_view *v, size_t *at);
/* FRX_EINVAL naming what would write into a view that holds an element
 * twice, or OK. */
int frx__refuse_repeats(const frx_view *v, const char *what);

/* FRX_EINVAL naming what tried to write a const matrix (what), or OK. */
int frx__refuse_const(const struct frx_alloc *a, const char *what);

/* Fields past a plugin's struct size count as absent. */
#define FRX__OPS_HAS(ops, field) \
    (FRX_SIZE_HOLDS(frx_backend_ops, ops, field) && (ops)->field != NULL)

#endif
