/* SPDX-License-Identifier: BSD-3-Clause */
/* frx solver: a solver plugin driven by the time loop. Shared by
 * settings.c (time.* and the rest the loop reads), calls.c (calls into
 * the plugin, the RHS), solver.c (the plugin's lifecycle), lincomb.c,
 * stepper.c (time schemes), run.c (the loop), run_io.c (output,
 * checkpoints, norms), progress.c and case/run_case.c. Uses
 * comm, mesh and io, and what they use. Never installed. */
#ifndef FRX_SOLVER_IMPL_H
#define FRX_SOLVER_IMPL_H

#include "comm/comm-impl.h"

#include <frx/comm.h>
#include <frx/mesh.h>
#include <mpi.h>
#include <stdint.h>

/* --------------------------------------------------------------- settings */

enum { FRX__RK4 = 0, FRX__SSPRK3 = 1, FRX__RK45 = 2 }; /* time.scheme */
enum { FRX__PROGRESS_AUTO = 0, FRX__PROGRESS_INPLACE, FRX__PROGRESS_LINES,
       FRX__PROGRESS_OFF };

struct frx__settings {
    int scheme, pi;            /* pi: the PI controller adapts dt */
    double t0, t_end;          /* t_end: HUGE_VAL without time.t-end */
    uint64_t steps;            /* the last step; 0: none */
    double dt, cfl;            /* one of them is 0 */
    double atol, rtol, safety, minf, maxf, alpha, beta, dt_min, dt_max;
    int progress;              /* FRX__PROGRESS_* */
    uint64_t progress_every, out_every, ckpt_every, check_every;
    const char *out_dir, *out_name, *ckpt_file;
    const char *png_var;       /* output.png.var; NULL: no pictures */
    uint64_t png_every;        /* output.png.interval; 0: the last step */
    long png_width;            /* output.png.width */
    int profile;               /* profile: true */
};

int frx__settings_read(const frx_config *cfg, struct frx__settings *st);

/* ------------------------------------------------------------ the solver */

struct frx__lincomb;

struct frx_solver {
    /* the plugin and its state */
    const frx_plugin *plugin;
    const frx_solver_ops *ops;
    const char *name;             /* the plugin's: its kernel namespace */
    unsigned long errors_before;  /* frx__error_count() at enter() */
    void *state;
    int created;                  /* create succeeded: destroy it */
    /* where it runs */
    frx_backend *be;
    frx_comm *comm;
    MPI_Comm mpi;
    int rank, nranks;
    const frx_config *cfg;
    const struct frx_mesh *mesh;
    struct frx__settings set;
    /* what it said at create, normalised: fields past its sizes zero */
    frx_solver_info info;
    frx_solver_block *blocks;     /* nblocks */
    const char **vars;            /* nvars names */
    uint64_t ndofs, *gid_base;    /* ndofs over every rank */
    uint64_t **gids;              /* per block: global element numbers */
    /* registers: reg[r][b] is block b of register r */
    int nregs;
    frx_matrix ***reg;
    frx_graph **rhs;              /* [u*nregs + f]: R(u) into f */
    frx_graph **check;            /* [u]: the solver's checks of u */
    frx_kernel ***nonfinite;      /* [u][b]: NaN/Inf per variable */
    frx_kernel **errest;          /* [b]: rk45's error norm */
    struct frx__lincomb *lc;      /* fused linear combinations */
    unsigned char *u_regs;        /* [r]: r can hold u after a step */
    /* the run */
    int ucur;                     /* the register holding u */
    double t, dt;                 /* dt: the next step's */
    uint64_t step, nrhs, nrhs0, rejected;
    /* the step this run started from, and the first it wrote output at
     * (UINT64_MAX: none yet): the .pvd entries between the two are of
     * a run this one replaces (frx__vtk_write) */
    uint64_t out_from, out_first;
    double errprev, errlast;
    int dry; /* a pass that prepares kernels and graphs, runs nothing */
    /* extension plugins (ext.c): what the solver publishes, and them */
    struct frx_extend *extend;
    struct frx_ext **exts;
    size_t nexts;
    /* the ahead or step hooks' agreement under way (ext.c) */
    struct frx__ext_pending {
        int active;
        MPI_Request req;
        int first, low;  /* this rank's first failed extension, the least */
        int rc;          /* this rank's failure, and its message */
        char *msg;
        int which;       /* the hooks', at step and t */
        uint64_t step;
        double t;
    } ext_agree;
    /* the RHS evaluation under way: its stage in the step, the step it
     * belongs to (the one before), its time */
    int stage;
    uint64_t stage_step;
    double stage_t;
    /* a restart's extension states, until frx__ext_loaded hands them
     * over (ckpt_ext_* as frx__ckpt_meta's ext_*) */
    size_t ckpt_next;
    char **ckpt_ext_names;
    void **ckpt_ext_data;
    size_t *ckpt_ext_len;
    char *restart_path;        /* the checkpoint a restart read, for the
                                  extensions' kept fields */
};

/* calls.c. Each call into the plugin runs in its kernel namespace:
 * between enter and leave (rc: the call's). A plugin that returns an
 * error without saying why (frx_error) is named, rather than an earlier
 * message shown as its. */
const char *frx__solver_enter(frx_solver *s);
int frx__solver_leave(frx_solver *s, const char *old, int rc);
/* Calls into the plugin, with its kernel namespace set: set_time, the
 * check graph of u's register, max_dt at time.cfl on u (this rank's). */
int frx__solver_set_time(frx_solver *s, double t);
int frx__solver_check(frx_solver *s);
/* The plugin's finish (solver API 1.1), if it has one; collective. */
int frx__solver_finish(frx_solver *s);
int frx__solver_max_dt(frx_solver *s, double *dt);
/* exact() at time s->t at n points xyz into vals [n][nvars]. */
int frx__solver_exact(frx_solver *s, size_t n, const double *xyz,
                      double *vals);

/* -------------------------------------------------------- time schemes */

/* The scheme's registers and formal order. */
int frx__scheme_nregs(int scheme);
int frx__scheme_order(int scheme);
/* Its name in the case (time.scheme: "rk4", "ssp-rk3", "rk45"). */
const char *frx__scheme_name(int scheme);
int frx__scheme_nstages(int scheme);
/* One step of size dt from s->t on register s->ucur (updated). With
 * s->dry set, only what it would use is prepared. rk45 leaves the error
 * estimate's inputs for frx__scheme_error. */
int frx__scheme_step(frx_solver *s, double dt);
/* rk45: the error norm of the last step (1 = at tolerance) over every
 * rank, and putting back the solution from before it (rejected). */
int frx__scheme_error(frx_solver *s, double *err);
int frx__scheme_undo(frx_solver *s);

/* f = R(u) at time t: set_time, then the RHS graph of (u, f). */
int frx__rhs(frx_solver *s, double t, int u, int f);

/* ---------------------------------------------------- linear combinations */

/* Register out = a*out + sum c[i]*in[i] (out itself ignored when a is
 * 0), one fused generated kernel per block; in[] never holds out. */
int frx__lincomb(frx_solver *s, int out, double a, int n, const int *in,
                 const double *c);
/* Two at once, in one pass over the inputs: out = a*out + sum c[i]*in[i]
 * and out2 = sum d[i]*in[i]; in[] holds neither, out2 != out. */
int frx__lincomb_pair(frx_solver *s, int out, double a, const double *c,
                      int out2, const double *d, int n, const int *in);
void frx__lincomb_free(struct frx__lincomb *lc);

/* Kernels of the core itself, in namespace "frx", made per nvars. */
int frx__core_kernel(frx_solver *s, const char *name, const char *args,
                     const char *body, int ndim);

/* ------------------------------------------------------ output and norms */

/* ext.c: extension plugins. open: the case's `extensions` found, and
 * the solver's side (s->extend), before the solver's create; create:
 * each created (its RHS places checked against the solver's), after
 * it; hook: one of the hooks below of each, agreed; failed: what an
 * extension's host node recorded with frx_ext_fail, agreed; close:
 * every extension destroyed, then the solver's side. */
enum { FRX__EXT_INITIAL, FRX__EXT_STEP, FRX__EXT_OUTPUT, FRX__EXT_FINISH,
       FRX__EXT_AHEAD };
int frx__ext_open(frx_solver *s);
int frx__ext_create(frx_solver *s);
int frx__ext_hook(frx_solver *s, int which);
/* The ahead and step hooks' statuses are agreed under the step that
 * follows them (an MPI_Iallreduce: a blocking one made the ranks wait
 * for each other at every measurement, docs/analysis.md), and settled
 * before anything else may depend on them: after that step, before
 * any other hook runs, before output or a checkpoint is written, and at
 * the end of the run. A failure stops the run there, with its hook's
 * step and reason. */
int frx__ext_settle(frx_solver *s);
int frx__ext_failed(frx_solver *s);
/* The progress texts of the extensions (frx_ext_progress), appended to
 * buf. */
void frx__ext_progress(const frx_solver *s, char *buf, size_t n);
void frx__ext_close(frx_solver *s);
/* For checkpoints: extension i's name and its state, saved and loaded. */
/* At the start of a run: a restart's states to their extensions (load;
 * an extension the checkpoint has no state of starts afresh, said at
 * log level warn). Agreed. */
int frx__ext_loaded(frx_solver *s);
size_t frx__ext_count(const frx_solver *s);
const char *frx__ext_name(const frx_solver *s, size_t i);
int frx__ext_save(frx_solver *s, size_t i, void **data, size_t *len);
int frx__ext_load(frx_solver *s, size_t i, const void *data, size_t len);

int frx__output_write(frx_solver *s);
/* The picture of output.png.var (docs/output.md): as
 * <dir>/<name>-<var>-<step>.png, or (final) <dir>/<name>-<var>.png. */
int frx__picture_out(frx_solver *s, int final);
/* output.png.var names a variable of the solver, on a 2-D mesh. */
int frx__picture_check(const frx_solver *s);
/* The picture of variable var (a name) at path, width pixels wide. */
int frx__picture_to(frx_solver *s, const char *var, const char *path,
                    int width);
int frx__checkpoint_write(frx_solver *s);
/* Can the folders of the outputs and checkpoints the settings ask for
 * be made (frx_check_parent_folder)? Nothing is made. fresh (not a
 * restart): an earlier run's series there is warned of. */
int frx__outputs_check(const frx_solver *s, int fresh);
int frx__checkpoint_read(frx_solver *s, const char *path);

/* io_fields.c: fields of the solver's blocks for io.h. _make describes
 * nvars variables (vars, var_size apart) in the matrices m (one per
 * block), with room for their values, read from m when read is set;
 * _free frees what it made. _fill: this run's meta data for a
 * checkpoint (time, step, solver, mesh, precision; nothing else). */
struct frx__io_fields;
struct frx__ckpt_meta;
int frx__io_fields_make(frx_solver *s, struct frx__io_fields *f,
                        size_t nvars, const frx_solver_var *vars,
                        size_t var_size, frx_matrix *const *m, int read);
void frx__io_fields_free(struct frx__io_fields *f);
void frx__ckpt_meta_fill(const frx_solver *s, struct frx__ckpt_meta *m);
/* Fields of the solver's blocks other than u (an extension's): nvars
 * variables vars in the matrices m (one per block), as output (VTK
 * series `series`; *first: the first step this run wrote of it, kept
 * by the caller, UINT64_MAX before), as an HDF5 file in the
 * checkpoint's layout, or read back from a checkpoint's kept fields
 * `name` (frx__ckpt_read_kept). Collective; agreed. */
int frx__fields_vtk(frx_solver *s, const char *series, size_t nvars,
                    const frx_solver_var *vars, frx_matrix *const *m,
                    double t, uint64_t step, uint64_t *first);
int frx__fields_h5(frx_solver *s, const char *path, size_t nvars,
                   const frx_solver_var *vars, frx_matrix *const *m,
                   double t, uint64_t step);
int frx__fields_read_kept(frx_solver *s, const char *name, size_t nvars,
                          const frx_solver_var *vars, frx_matrix *const *m);
/* The fields extensions keep (frx_ext_keep), for a checkpoint: how many,
 * and the i-th's group name, variables and matrices. */
size_t frx__ext_kept_count(const frx_solver *s);
void frx__ext_kept_at(const frx_solver *s, size_t i, const char **name,
                      size_t *nvars, const frx_solver_var **vars,
                      frx_matrix *const **m);
/* Each variable's L2 error norm over every rank into l2[nvars] (NaN
 * without exact() or quadrature weights). */
int frx__error_norms(frx_solver *s, double *l2);

/* ------------------------------------------------------------ progress */

struct frx__progress {
    int mode;            /* FRX__PROGRESS_INPLACE / LINES / OFF */
    double t_start;      /* wall clock at the first step */
    double t0;           /* simulated time then */
    uint64_t step0;      /* step number then */
    double last_draw;    /* in place: redrawn at most every 0.1 s */
    int drawn;           /* in place: a line is on screen */
};

void frx__progress_start(struct frx__progress *p, const frx_solver *s);
void frx__progress_step(struct frx__progress *p, const frx_solver *s);
void frx__progress_end(struct frx__progress *p, const frx_solver *s);

/* run.c: copy into the caller's struct as far as its size holds (a
 * caller built against an older frx has a smaller one). */
void frx__run_stats_copy(frx_run_stats *dst, const frx_run_stats *src);

/* Rank 0: what runs, before the loop; what it did, after. */
void frx__summary_start(const frx_solver *s);
void frx__summary(const frx_solver *s, const frx_run_stats *st);

#endif
