/* SPDX-License-Identifier: BSD-3-Clause */
/* What frx's analysis plugins share (residual, integrate, sampler):
 * extension plugins (extension.h) built in this tree, which PyFR's
 * users know as its solution plugins. Not installed; not for plugins
 * out of the tree.
 *
 *   csv.c     a CSV file written by rank 0 that survives a restart:
 *             rows past the restart's step are dropped before new ones
 *   fields.c  expressions of the solution's variables (and of what the
 *             physics derives from them: euler's u, v, p), x, y, t,
 *             written into kernels
 *   blocks.c  each block's coordinates and quadrature weights on the
 *             backend, kernels bound to whichever register holds u, and
 *             reductions over the blocks and the ranks */
#ifndef FRX_ANALYSIS_H
#define FRX_ANALYSIS_H

#include <frx/extension.h>
#include <frx/fr/expr.h>
#include <frx/fr/system.h>

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- csv */

/* Rank 0 writes; every rank calls every function (the others do
 * nothing). The file is a log: rows are appended and flushed at each
 * checkpoint, at the end, and once the oldest row not yet in the file
 * is flush_seconds old (so a run that is killed loses at most that much
 * of its log). At the start of a run (an_csv_start) a
 * fresh run writes the header; a restart from step n keeps the file's
 * rows of steps <= n and drops the rest, so that an interrupted run and
 * its restart leave the same rows as one run. Both rewrite the file
 * through <file>.tmp and a rename, so it is never half-written. */
typedef struct an_csv {
    const char *who;  /* the plugin, for messages */
    char path[4096], tmp[4200];
    FILE *f;          /* rank 0 after an_csv_start */
    char *buf;        /* f's buffer */
    int rank;
    double flush_seconds; /* option flush-seconds */
    double pending;       /* when the oldest unflushed row was written
                             (monotonic seconds), or < 0: none */
} an_csv;

/* Every CSV plugin's option beside "file". */
#define AN_CSV_OPTIONS                                                    \
    {.key = "flush-seconds", .type = FRX_OPT_DOUBLE, .min = 0, .max = 1e9, \
     .def = "10",                                                         \
     .help = "seconds of wall-clock time at most between a row and its "  \
             "reaching the file (0: every row at once); checkpoints and " \
             "the end of the run flush too"}

/* Claim the file (frx_ext_claim_file) and check now, on rank 0, that it
 * can be written (a file that cannot is refused at start-up, not at the
 * first row). */
int an_csv_init(an_csv *c, frx_ext *e, MPI_Comm comm, const char *who,
                const char *path, double flush_seconds);
/* header: the first line without its newline ("step,t,..."). step: the
 * run's first step (0: a fresh run, else a restart's). */
int an_csv_start(an_csv *c, const char *header, uint64_t step);
/* A row: step, t, then the n values (%.17g). */
int an_csv_row(an_csv *c, uint64_t step, double t, size_t n,
               const double *v);
/* A row whose numbers are text already (",v,v,..."): "step,t" then
 * text. */
int an_csv_row_text(an_csv *c, uint64_t step, double t, const char *text,
                    size_t len);
int an_csv_flush(an_csv *c);
int an_csv_close(an_csv *c); /* the end of the run */
void an_csv_free(an_csv *c); /* closes without checks */
/* A header's column ",<prefix>_<label>" (",<label>" for an empty
 * prefix), quoted where it holds a comma or a quote. */
void an_csv_column(FILE *h, const char *prefix, const char *label);

/* What every analysis plugin's state starts with: its extension, the
 * backend, the communicator and its CSV file (its `file` option). */
typedef struct an_base {
    frx_ext *ext;
    frx_backend *be;
    MPI_Comm mpi;
    int rank;
    an_csv csv;
} an_base;

int an_base_init(an_base *b, const frx_extension_init *init,
                 const char *who);
/* The header of the CSV: an_header_open gives a stream that holds
 * "step,t" (add the columns with an_csv_column), an_header_start closes
 * it (which sets *buf), starts the file (an_csv_start) at the run's
 * first step and frees *buf. */
FILE *an_header_open(char **buf, size_t *len);
int an_header_start(an_base *b, FILE *h, char **buf, uint64_t step);
/* The hooks that are the same in each: save (the rows flushed; no
 * bytes of state) and finish (the file closed). state starts with an
 * an_base. */
int an_save(void *state, void **data, size_t *len);
int an_finish(void *state, const frx_ext_now *now);

/* v as snprintf(buf, len, "%.17g", v) writes it, faster (fmt.c); the
 * length written. */
int an_fmt_double(char *buf, size_t len, double v);

/* ------------------------------------------------------------- fields */

/* The names an expression may use: the solved variables, then the
 * derived ones (fr_physics.derived), and the coordinates and t; the
 * case's constants (solver.constants of an FR solver) too. */
typedef struct an_fields {
    const char *who;
    size_t nvars, nderived, nnames;
    const char **names;        /* nvars + nderived */
    const fr_physics *phys;    /* NULL: not on the FR layer */
    int ndims;
    size_t nexprs;
    fr_expr **exprs;
    char **labels;             /* each expression's column name */
    unsigned uses;             /* the union of fr_expr_uses */
} an_fields;

#define AN_MAX_CONSTS 16 /* physics constants a kernel passes on */
int an_fields_init(an_fields *f, const frx_extension_init *init,
                   frx_ext *ext, const char *who);
/* Compile node (a YAML scalar) as expression `label`; key names it in
 * messages ("extensions[1].exprs.mass"). */
int an_fields_add(an_fields *f, const frx_cfgnode *node, const char *key,
                  const char *label);
/* The same for text from elsewhere (where: "file:line:col" or NULL). */
int an_fields_add_text(an_fields *f, const char *text, const char *where,
                       const char *key, const char *label);
/* A field's index in names, or -1. */
int an_fields_find(const an_fields *f, const char *name);
void an_fields_free(an_fields *f);

/* The arguments the kernels of expressions take after their own (the
 * physics' constants: ", scalar fpdtype_t gamma"), as text into buf,
 * and bound into a (returns how many). */
void an_fields_const_args(const an_fields *f, char *buf, size_t n);
size_t an_fields_bind_consts(const an_fields *f, frx_arg *a);
/* Kernel body (malloc'd): head (or NULL: what declares u, where the
 * arguments do not), NVARS, NDIMS, the derived fields d[] from
 * u[NVARS] where an expression uses one, then _e[k] = expression k, for
 * a kernel whose arguments (or head) hold u[NVARS] and, where used,
 * x[NDIMS] and the scalar t; then tail. */
int an_fields_body(const an_fields *f, int precision, const char *head,
                   const char *tail, char **body);

/* ------------------------------------------------------------- blocks */

/* A block of the solver's: its points' coordinates (nupts rows, ndims
 * variables) and quadrature weights x |J| (nupts rows, 1 variable) as
 * backend matrices. */
typedef struct an_block {
    size_t nupts, neles;
    frx_matrix *x, *w;
} an_block;

int an_blocks_create(const frx_extension_init *init, const char *who,
                     an_block **out);
void an_blocks_destroy(an_block *b, size_t n);

/* Kernels bound to the register that holds u (one matrix per block):
 * the registers take turns, so one set of n kernels (nblocks: one per
 * block, or per group of points) per register met; bind makes the i-th
 * (or leaves it NULL: nothing there on this rank). */
#define AN_MAX_REGS 8
typedef int (*an_bind_fn)(void *ud, size_t i, frx_matrix *const *u,
                          frx_kernel **k);
typedef struct an_binds {
    size_t nblocks, n;
    frx_matrix *u0[AN_MAX_REGS];
    frx_kernel **k[AN_MAX_REGS];
} an_binds;

int an_binds_get(an_binds *b, frx_matrix *const *u, an_bind_fn bind,
                 void *ud, frx_kernel ***out);
void an_binds_free(an_binds *b);

/* Run the nblocks kernels (an_run), and fold their reduction arg (n
 * values) over
 * the blocks and every rank (op MPI_SUM or MPI_MAX) into out on rank 0
 * (which writes the rows; elsewhere out is left as it was); out holds
 * n + 1 values. k NULL: a rank whose kernels failed takes part with
 * nothing, and rank 0 gets AN_PEER_FAILED: its share is missing, so no
 * row may be written (the failing rank's reason stops the run). */
#define AN_PEER_FAILED 1
int an_run(frx_kernel *const *k, size_t nblocks);
int an_fold(frx_kernel *const *k, size_t nblocks, const char *arg,
            size_t n, MPI_Op op, MPI_Comm comm, double *out);
/* The same for values the caller folded on this rank: mine and out hold
 * n + 1 values (mine[n] is set to whether this rank failed). */
int an_fold_values(double *mine, size_t n, MPI_Op op, MPI_Comm comm,
                   int failed, double *out);

/* Points inside elements (sampler's probes, fluidforce's boundary
 * points): a view of n points, point i the whole of element eles[i] of
 * the block matrix u (its nupts rows x nvars), and the kernel text that
 * interpolates it: from "in view fpdtype_t[nupts][nvars] uv" and "in
 * fpdtype_t[nupts] l" (the basis at the point) it declares and sets
 * u[nvars], as an_fields_body's expressions read it. */
int an_element_view(frx_backend *be, frx_matrix *u, size_t n,
                    const size_t *eles, size_t nvars, frx_view **out);
void an_interp_text(char *buf, size_t len, size_t nupts, size_t nvars);

/* A kernel name of base and a hash of its text (args and body). */
void an_kernel_name(const char *base, const char *args, const char *body,
                    char *out, size_t n);

#endif
