/* SPDX-License-Identifier: BSD-3-Clause */
/* frx data: the data model. The backend object as every layer sees it
 * (the plugin's ops and state, precision, statistics), matrices and
 * their allocations, views, xchg matrices and views with their pack and
 * unpack, host copies in double (matrix_double.c), and the profile's
 * timers (profile.c). The core computes every layout and index here; a
 * backend plugin only allocates, copies and packs. Starting and stopping
 * a backend is backend/'s. Uses base. Never installed. */
#ifndef FRX_DATA_IMPL_H
#define FRX_DATA_IMPL_H

#include "base/base-impl.h"

/* ------------------------------------------------------------ backend */

/* kernels, macros and compiled programs hang off the backend but belong
 * to kernel/ (registered kernels, compiled code by source hash) */
struct frx__kreg;
struct frx__prog;

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

/* Fields past a plugin's struct size count as absent. */
#define FRX__OPS_HAS(ops, field) \
    (FRX_SIZE_HOLDS(frx_backend_ops, ops, field) && (ops)->field != NULL)

/* "backend 'openmp' (double precision)", for messages that name two. */
const char *frx__backend_desc(const frx_backend *be, char *buf, size_t n);

/* ------------------------------------------------------------ profile */

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

/* collective over comm: rank 0 prints where the time went (wall: the
 * run's), where profile: true */
int frx__profile_report(frx_backend *be, MPI_Comm comm, double wall);

/* ---------------------------------------------------- what nodes touch */

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
    /* a matrix argument: the matrix, and whether its element i belongs
     * to the command's work item i (a kernel's matrix argument, a
     * product's B and C; not a broadcast row or a product's A) */
    const struct frx_matrix *m;
    int by_item;
} frx__access;

enum { FRX__INFLIGHT_START = 1, FRX__INFLIGHT_WAIT = 2 };

/* --------------------------------------------------- matrices and views */

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
    size_t leaddim;            /* elements per row (of a part), padded */
    /* Parts (a backend's info.parts): the chunks of elements are cut
     * into parts of pc chunks, each part's rows stored together, parts
     * ps values apart; offset is then the start of the part that holds
     * the first element, and c0 that element's chunk within it. pc 0:
     * one part (ps and c0 0). */
    size_t pc, ps, c0;
    size_t eend;               /* one past its last element in its root */
    int strided;               /* frx_matrix_slice_parts made it */
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

/* The values a constant matrix was made from (nrow x ncol doubles), or
 * NULL if m is not one. */
const double *frx__const_values(const frx_matrix *m);
/* The sha256 (hex) of those values, computed once; NULL as above. */
const char *frx__const_sha256(const frx_matrix *m);

/* The elements of its allocation a matrix or a view spans, [lo, hi). */
void frx__matrix_range(const frx_matrix *m, size_t *lo, size_t *hi);
/* Value (r, v, e) of m, in values from m->offset. */
size_t frx__matrix_index(const frx_matrix *m, size_t r, size_t v, size_t e);
/* Piece k of m's storage: nrow rows, leaddim apart, of w values from
 * *base (values from the allocation start), one for each part m
 * touches; 0 past the last. */
int frx__matrix_piece(const frx_matrix *m, size_t k, size_t *base,
                      size_t *w);

/* A pack (pack = 1) or unpack with frx_exec_flags. */
int frx__xchg_move(frx_xchg_view *xv, int pack, uint32_t flags);
/* Copy an xchg matrix to (to_host) or from its host mirror: started,
 * with *done to wait for, where the backend can (copy_start); else
 * done on return and *done NULL. Nothing to do without a mirror. */
int frx__xchg_copy_start(frx_xchg_matrix *xm, int to_host, void **done);
int frx__xchg_copy_wait(frx_backend *be, void *done);

#endif
