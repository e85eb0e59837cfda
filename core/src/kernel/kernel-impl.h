/* SPDX-License-Identifier: BSD-3-Clause */
/* frx kernel: pointwise kernels. Declarations parsed and compared
 * (kernel_decl.c), source generated for every target (kernel_gen.c, and
 * pack and unpack kernels in pack_gen.c), reductions (kernel_reduce.c),
 * and in kernel.c the registry with its namespaces, the compiled code
 * shared by source, binding, overlaps and runs. Uses data, cache and
 * plugin. Never installed. */
#ifndef FRX_KERNEL_IMPL_H
#define FRX_KERNEL_IMPL_H

#include "cache/cache-impl.h"
#include "data/data-impl.h"
#include "plugin/plugin-impl.h"

/* ------------------------------------------------------- declarations */

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
/* A program also known by key (a hash of what its source is made
 * from), so that a caller that would make the same source again (a
 * product's, with every literal of its operator) finds it without:
 * find gives it (NULL: not known), set names prog by key. */
void *frx__program_find_key(frx_backend *be, const char key[65]);
void frx__program_set_key(frx_backend *be, void *prog, const char key[65]);

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

/* ------------------------------------------------------------ kernel.c */

/* Set the namespace of kernels and macros (a solver plugin's name, or
 * NULL for the application's); returns the one it replaces. */
const char *frx__kernel_ns_set(frx_backend *be, const char *ns);
/* Compile (or load from the disk cache) every kernel registered in
 * namespace ns now, rather than at its first frx_kernel_create: an
 * extension's kernels are first bound in the run's hooks, inside the
 * time loop (and a kernel that does not compile is found at start). */
int frx__kernels_load(frx_backend *be, const char *ns);
/* The registry and compiled code of a backend, freed before it stops:
 * compiled code belongs to the plugin. */
void frx__kernels_release(frx_backend *be);

const char *frx__kernel_name(const frx_kernel *k);
/* The backend a kernel runs on. */
frx_backend *frx__kernel_backend(const frx_kernel *k);
size_t frx__kernel_accesses(const frx_kernel *k, const frx__access **out);
/* Take one more reference (a graph node holding it); each is dropped
 * by frx_kernel_destroy, which frees it with the last one. */
void frx__kernel_hold(frx_kernel *k);
/* A kernel run with frx_exec_flags. */
int frx__kernel_run(frx_kernel *k, uint32_t flags);

/* Do matrices a and b share an element of their allocation? *at: one
 * that both hold (rows ld apart are compared row by row, so slices of
 * one matrix side by side do not meet). */
int frx__matrices_meet(const frx_matrix *a, const frx_matrix *b, size_t *at);

/* ----------------------------------------------------- kernel_reduce.c */

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

#endif
