/* frx: internals shared by the core's files. Never installed; plugins
 * see only frx.h and plugin.h. */
#ifndef FRX_IMPL_H
#define FRX_IMPL_H

#include <frx/frx.h>
#include <frx/plugin.h>

#include <stdarg.h>
#include <stddef.h>

/* ---------------------------------------------------------------- errors */

/* frx_error() replaces the message; this appends a line to it (for
 * reporting every error of a config at once). */
int frx__error_append(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int frx__error_v(int code, const char *fmt, va_list ap);
void frx__error_clear(void);

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

/* ---------------------------------------------------------------- plugin */

/* The directory holding libfrx itself ("" if unknown). */
const char *frx__libdir(void);

/* ------------------------------------------------------------------- MPI */

/* Rank and size when MPI is initialised, else 0 and 1. */
void frx__mpi_rank_size(int *rank, int *size);
int frx__mpi_local_rank(void);

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
};

/* One block of device memory, shared by the matrices made in it. */
struct frx_alloc {
    frx_backend *be;
    void *mem;
    size_t bytes;
    int refs;
};

struct frx_matrix {
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
    frx_backend *be;
    struct frx_alloc *alloc;
    size_t n, nvrow, nvcol;
    frx_ix_t *off, *rstride;   /* host copies */
    void *off_mem, *rstride_mem;
    frx_run *runs;
    size_t nruns;
    size_t cstride;
};

struct frx_xchg_matrix {
    frx_backend *be;
    void *mem;
    void *host;      /* mirror; == mem when the device is the host */
    int own_host;
    size_t n, nvrow, nvcol, bytes;
};

struct frx_xchg_view {
    frx_view *view;
    frx_xchg_matrix *xm;
};

void frx__alloc_release(struct frx_alloc *a);

#endif
