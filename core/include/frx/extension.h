/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: extension plugins, attached to a running solver by the case,
 *
 *   extensions:
 *     - {name: interface-jump, every: 10, file: jump.csv}
 *
 * without changing the solver: an extension reads what the solver
 * publishes (named handles: its matrices, views, exchange views, its
 * own objects), adds kernels and host nodes to the solver's RHS graph
 * at the places the solver offers, and is called at defined points of a
 * run. docs/plugins.md ("Extension plugins") has the order of every
 * call and a full example; examples/extension-* are two.
 *
 * Two sides: a solver publishes (frx_extend_*, through the frx_extend
 * its init holds: solver.h's frx_solver_init.extend), an extension
 * reads (frx_ext_*, through the frx_ext its init holds). The interface
 * has its own version, FRX_EXTENSION_API_*; a plugin built for another
 * major is refused when it loads. Every hook is called on every rank,
 * in its own kernel namespace; a hook that fails on one rank stops
 * every rank with that rank's reason. */
#ifndef FRX_EXTENSION_H
#define FRX_EXTENSION_H

#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FRX_EXTENSION_API_MAJOR 1
#define FRX_EXTENSION_API_MINOR 2

/* ------------------------------------------------------ the solver side */

/* What a solver publishes for extensions, and where they hook in: its
 * frx_solver_init.extend (ABI 1.10), valid until the solver's destroy.
 * Every function takes NULL (a core before 1.10) and then does
 * nothing. */
typedef struct frx_extend frx_extend;

/* Publish ptr as handle `name` of C type `type` ("frx_matrix",
 * "frx_view", "frx_xchg_view", "fr_system", ...; an extension must ask
 * for the same type). In create; names are unique. */
FRX_EXTERN int frx_extend_publish(frx_extend *x, const char *name,
                                  const char *type, void *ptr);

/* The places of the RHS graph where extensions may add nodes,
 * "|"-separated ("after-exchange-waits|after-common-fluxes"), each
 * meaning what the solver documents. In create. */
FRX_EXTERN int frx_extend_places(frx_extend *x, const char *places);

/* Does an attached extension add nodes at place? (A solver may build
 * its graph otherwise where one does, as the FR system waits for its
 * peers early for after-exchange-waits.) */
FRX_EXTERN int frx_extend_wants(const frx_extend *x, const char *place);

/* In build_rhs, at each place it offers: the extensions that asked for
 * it add their nodes to g (in the order of the case's list). */
FRX_EXTERN int frx_extend_rhs(frx_extend *x, const char *place,
                              frx_graph *g, frx_matrix *const *u,
                              frx_matrix *const *f);

/* ---------------------------------------------------- the extension side */

/* One attached extension, as the core holds it. */
typedef struct frx_ext frx_ext;

/* What the core hands an extension's create (read only, valid until its
 * destroy). */
typedef struct frx_extension_init {
    uint32_t size;
    frx_backend *backend;
    struct frx_comm *comm;
    const frx_config *config;
    const frx_cfgnode *options;   /* its item of `extensions`, checked
                                     against its schema */
    const struct frx_mesh *mesh;  /* this rank's part, or NULL */
    const char *solver;           /* solver.name */
    size_t nvars;                 /* the solved variables */
    const char *const *vars;
    int ndims;
    size_t nblocks;               /* the solver's blocks (solution
                                     points, quadrature weights, output
                                     points), block_size bytes apart */
    const frx_solver_block *blocks;
    size_t block_size;
    frx_ext *ext;                 /* for frx_ext_* */
} frx_extension_init;

/* The handle `name` the solver published, of C type `type`, into *ptr.
 * FRX_ENOTFOUND naming every handle the solver publishes, or
 * FRX_EINVAL naming both types where the types differ. */
FRX_EXTERN int frx_ext_handle(frx_ext *e, const char *name,
                              const char *type, void **ptr);

/* The RHS evaluation under way (in a host node the extension added to
 * the RHS): its time, the step it is part of (the step before the one
 * being taken: 0 for the first) and its stage (0 for the first, whose u
 * is the step's starting state). */
FRX_EXTERN int frx_ext_stage(const frx_ext *e, double *t, uint64_t *step,
                             int *stage);

/* Stop the run after the step under way, with this rank's message:
 * for a host node of the RHS graph, where returning an error would
 * abort the job. Every rank stops, naming the first failing rank. */
FRX_EXTERN int frx_ext_fail(frx_ext *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Claim a file the extension writes (as given in the case, relative to
 * the working directory): two extensions claiming one file, however
 * spelt ("a.csv", "./a.csv"), are refused at start-up, naming both.
 * In create. */
FRX_EXTERN int frx_ext_claim_file(frx_ext *e, const char *path);

/* API 1.1: a short text (at most 120 characters) that rank 0's progress
 * line shows after its own ("res 1.2e-05"), until set again; "" or NULL
 * clears it. Called on rank 0 it is enough. */
FRX_EXTERN int frx_ext_progress(frx_ext *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* API 1.2: fields of the extension's own on the solver's blocks, one
 * matrix per block (nupts rows of the block, nfields variables named
 * names, in the backend's precision: frx_matrix_create(be, nupts,
 * nfields, neles)), that every checkpoint keeps beside u (group
 * extension_fields/<item>.<name>, laid out as the solution: docs/
 * output.md), and that a restart reads back into the same matrices
 * before `load`, on any number of ranks. A checkpoint that holds the
 * extension's state but not these fields is refused. In create; names
 * and the array m are copied, the matrices are the extension's. */
FRX_EXTERN int frx_ext_keep(frx_ext *e, const char *name, size_t nfields,
                            const char *const *names,
                            frx_matrix *const *m);

/* API 1.2: such fields as output, collective, each file written under a
 * temporary name and renamed: a VTK series `series` in the case's
 * output.dir laid out as the solution's output (pieces, .pvtu, a .pvd
 * naming every step; one series per extension item), and an HDF5 file
 * at path (its folder made) in the layout of a checkpoint whose
 * variables are names (without a case or extension states). */
FRX_EXTERN int frx_ext_write_vtk(frx_ext *e, const char *series,
                                 size_t nfields, const char *const *names,
                                 frx_matrix *const *m, double t,
                                 uint64_t step);
FRX_EXTERN int frx_ext_write_h5(frx_ext *e, const char *path,
                                size_t nfields, const char *const *names,
                                frx_matrix *const *m, double t,
                                uint64_t step);

/* Where a run stands, for the hooks. */
typedef struct frx_ext_now {
    uint32_t size;
    double t, dt;
    uint64_t step;
    frx_matrix *const *u;   /* the register holding u, per block */
} frx_ext_now;

typedef struct frx_extension_ops {
    uint32_t size;
    const frx_option *options; /* schema of its item (besides name and
                                  every, which the core reads) */
    uint16_t api_major, api_minor; /* FRX_EXTENSION_API_* built for */
    /* After the solver's create, before its graphs are built: read the
     * options, take handles, register kernels (its own namespace),
     * claim files. Where it fails after setting *state, destroy runs. */
    int (*create)(const frx_extension_init *init, void **state);
    void (*destroy)(void *state);
    /* The places of the solver's RHS where it adds nodes ("a|b"; NULL:
     * none): each must be one the solver offers. rhs is called at each,
     * once per (u, f) pair the time scheme uses. */
    const char *rhs_places;
    int (*rhs)(void *state, const char *place, frx_graph *g,
               frx_matrix *const *u, frx_matrix *const *f);
    /* Optional hooks, every rank, each status agreed: */
    /* at the start of a run: after the initial condition at t0, or
     * after a restart read its checkpoint (and load) */
    int (*initial)(void *state, const frx_ext_now *now);
    /* after every `every`-th step (its item's `every`, default 1),
     * after the solver's checks and before that step's output and
     * checkpoint (so a checkpoint holds the state after it) */
    int (*step)(void *state, const frx_ext_now *now);
    /* at every step that writes output (output.interval) */
    int (*output)(void *state, const frx_ext_now *now);
    /* a checkpoint: its state as bytes (*data malloc'd; rank 0's are
     * kept, so make them the same on every rank), and on a restart, on
     * every rank, those bytes back (before initial) */
    int (*save)(void *state, void **data, size_t *len);
    int (*load)(void *state, const void *data, size_t len);
    /* after the last step and its output */
    int (*finish)(void *state, const frx_ext_now *now);
    /* API 1.1: before each step that ends on an `every`-th one (step n
     * about to be taken where n % every == 0), with the state it starts
     * from: to keep u for a difference over one step (a residual) */
    int (*ahead)(void *state, const frx_ext_now *now);
} frx_extension_ops;

#ifdef __cplusplus
}
#endif
#endif
