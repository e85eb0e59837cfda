/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-interface-jump: an extension plugin, built out of tree, that
 * attaches to a solver on the FR SDK (euler, lee, advection, a physics
 * plugin) without changing it and measures how far the solution jumps
 * across the faces between elements:
 *
 *   extensions:
 *     - {name: interface-jump, every: 10, file: jump.csv}
 *
 * An interface kernel per face set, over this side's flux points (a
 * `view` argument) and the other side's: a view on interior faces, the
 * peer's `xchg` matrix on faces shared with another rank (the very
 * objects the FR system exchanges), at the place of the RHS where every
 * interface holds the solution (after-exchange-waits). Per variable it
 * reduces the sum of the squared jumps, (ul - ur)^2, over the flux
 * points (a face shared with a peer counts half on each rank, so the
 * total is the same on any number of ranks), and the largest |ul - ur|.
 * A host node keeps them from the first stage of each step (u at the
 * step's start). Every `every` steps the ranks add them up and rank 0
 * writes a row: the step and t of the solution measured (the start of
 * the step just taken: 4 and 0.04 after step 5 at dt = 0.01), then
 * sqrt(sum) of each variable, then each maximum, to <file>.tmp, which
 * becomes <file> at the end of the run. A restart starts the file
 * afresh. */
#include <frx/extension.h>
#include <frx/fr/system.h>

#include <frx/comm.h>

#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const frx_option options[] = {
    {.key = "file", .type = FRX_OPT_STRING, .required = 1,
     .help = "the CSV file the jumps go to (rank 0 writes it)"},
    {0},
};

struct set {
    const fr_face_set *fs;
    frx_kernel *k;
};

struct jump {
    frx_ext *ext;
    frx_backend *be;
    MPI_Comm mpi;
    int rank;
    size_t nvars;
    const char *const *vars;
    const char *path;
    char tmp[4096];
    FILE *csv;                /* rank 0, writing tmp */
    struct set *sets;
    size_t nsets;
    /* the first stage's sums and maxima, this rank's, and when */
    double *sq, *mx;
    double t;
    uint64_t step;
    int have;
};

/* The two kernels: the other side as a view (interior faces) or as the
 * peer's received xchg matrix. */
static int register_kernels(struct jump *j)
{
    char args[512], body[512];
    snprintf(body, sizeof body,
             "for (int v = 0; v < %zu; v++) {\n"
             "    fpdtype_t d = ul[v] - ur[v];\n"
             "    sq[v] = w*d*d;\n"
             "    mx[v] = fabs(d);\n"
             "}", j->nvars);
    for (int peer = 0; peer < 2; peer++) {
        char name[64];
        snprintf(name, sizeof name, "jump_%s_%zu", peer ? "peer" : "int",
                 j->nvars);
        snprintf(args, sizeof args,
                 "in view fpdtype_t[%zu] ul, in %s fpdtype_t[%zu] ur, "
                 "scalar fpdtype_t w, out reduce(sum) fpdtype_t[%zu] sq, "
                 "out reduce(max) fpdtype_t[%zu] mx", j->nvars,
                 peer ? "xchg" : "view", j->nvars, j->nvars, j->nvars);
        frx_kernel_decl d = {.name = name, .ndim = 1, .args = args,
                             .body = body};
        int rc = frx_kernel_register(j->be, &d);
        if (rc)
            return rc;
    }
    return FRX_OK;
}

/* Rows go to <file>.tmp, renamed to <file> at the end of the run: a
 * run that stops half-way leaves the .tmp, never a file that looks
 * whole. */
static int open_csv(struct jump *j)
{
    snprintf(j->tmp, sizeof j->tmp, "%s.tmp", j->path);
    j->csv = fopen(j->tmp, "w");
    if (!j->csv)
        return frx_error(FRX_EIO, "interface-jump: cannot write %s: %s; "
                         "check that its folder exists and can be written",
                         j->tmp, strerror(errno));
    fprintf(j->csv, "step,t");
    for (int k = 0; k < 2; k++)
        for (size_t v = 0; v < j->nvars; v++)
            fprintf(j->csv, ",%s_%s", j->vars[v], k ? "max" : "l2");
    fprintf(j->csv, "\n");
    return fflush(j->csv) ? frx_error(FRX_EIO, "interface-jump: cannot "
                                      "write %s", j->path)
                          : FRX_OK;
}

static void jump_destroy(void *state)
{
    struct jump *j = state;
    if (!j)
        return;
    for (size_t i = 0; i < j->nsets; i++)
        frx_kernel_destroy(j->sets[i].k);
    free(j->sets);
    free(j->sq);
    free(j->mx);
    if (j->csv)
        fclose(j->csv);
    free(j);
}

static int jump_create(const frx_extension_init *init, void **state)
{
    struct jump *j = calloc(1, sizeof *j);
    if (!j)
        return frx_error(FRX_ENOMEM, "interface-jump: out of memory");
    *state = j;
    j->ext = init->ext;
    j->be = init->backend;
    j->mpi = frx_comm_mpi(init->comm);
    MPI_Comm_rank(j->mpi, &j->rank);
    j->nvars = init->nvars;
    j->vars = init->vars;
    int rc = frx_cfg_string(init->options, "file", NULL, &j->path);
    if (!rc)
        rc = frx_ext_claim_file(j->ext, j->path);
    fr_system *sys = NULL;
    if (!rc)
        rc = frx_ext_handle(j->ext, "fr.system", "fr_system",
                            (void **)&sys);
    j->sq = calloc(j->nvars, sizeof *j->sq);
    j->mx = calloc(j->nvars, sizeof *j->mx);
    j->sets = calloc(sys ? fr_system_nface_sets(sys) + 1 : 1,
                     sizeof *j->sets);
    if (!rc && (!j->sq || !j->mx || !j->sets))
        rc = frx_error(FRX_ENOMEM, "interface-jump: out of memory");
    if (!rc)
        rc = register_kernels(j);
    for (size_t i = 0; sys && !rc && i < fr_system_nface_sets(sys); i++) {
        const fr_face_set *fs = fr_system_face_set(sys, i);
        if (fs->kind == FR_FACE_BOUNDARY) /* no other side */
            continue;
        int peer = fs->kind == FR_FACE_PEER;
        char name[64];
        snprintf(name, sizeof name, "jump_%s_%zu", peer ? "peer" : "int",
                 j->nvars);
        frx_arg a[5] = {frx_arg_view(fs->ul),
                        peer ? frx_arg_xchg(fs->recv) : frx_arg_view(fs->ur),
                        frx_arg_scalar(peer ? 0.5 : 1.0), frx_arg_reduce(),
                        frx_arg_reduce()};
        struct set *s = &j->sets[j->nsets++];
        s->fs = fs;
        rc = frx_kernel_create(j->be, name, 1, fs->n, a,
                               5, &s->k);
    }
    return rc;
}

/* The run starts: rank 0 opens the CSV (not at create, so that a run
 * refused at start-up leaves no file behind). */
static int jump_initial(void *state, const frx_ext_now *now)
{
    struct jump *j = state;
    (void)now;
    return j->rank == 0 ? open_csv(j) : FRX_OK;
}

/* In the RHS graph, after the kernels: the first stage's results. */
static int keep(void *ud)
{
    struct jump *j = ud;
    double t;
    uint64_t step;
    int stage;
    frx_ext_stage(j->ext, &t, &step, &stage);
    if (stage != 0)
        return FRX_OK;
    for (size_t v = 0; v < j->nvars; v++)
        j->sq[v] = j->mx[v] = 0;
    double *r = malloc(2 * j->nvars * sizeof *r);
    if (!r)
        return frx_ext_fail(j->ext, FRX_ENOMEM, "out of memory");
    for (size_t i = 0; i < j->nsets; i++) {
        int rc = frx_kernel_result(j->sets[i].k, "sq", r, j->nvars);
        if (!rc)
            rc = frx_kernel_result(j->sets[i].k, "mx", r + j->nvars,
                                   j->nvars);
        if (rc) { /* stop after the step, with this reason */
            free(r);
            return frx_ext_fail(j->ext, rc, "%s", frx_errmsg());
        }
        for (size_t v = 0; v < j->nvars; v++) {
            j->sq[v] += r[v];
            j->mx[v] = fmax(j->mx[v], r[j->nvars + v]);
        }
    }
    free(r);
    j->t = t;
    j->step = step;
    j->have = 1;
    return FRX_OK;
}

static int jump_rhs(void *state, const char *place, frx_graph *g,
                    frx_matrix *const *u, frx_matrix *const *f)
{
    struct jump *j = state;
    (void)place, (void)u, (void)f;
    int rc = FRX_OK;
    for (size_t i = 0; i < j->nsets && !rc; i++)
        rc = frx_graph_add_kernel(g, j->sets[i].k, NULL, 0, NULL);
    return rc ? rc : frx_graph_add_host(g, keep, j, NULL);
}

/* Every `every` steps: the ranks' sums and maxima, a row. */
static int jump_step(void *state, const frx_ext_now *now)
{
    struct jump *j = state;
    (void)now;
    if (!j->have)
        return FRX_OK;
    size_t nv = j->nvars;
    double *sum = malloc(2 * nv * sizeof *sum);
    if (!sum)
        return frx_error(FRX_ENOMEM, "interface-jump: out of memory");
    MPI_Allreduce(j->sq, sum, (int)nv, MPI_DOUBLE, MPI_SUM, j->mpi);
    MPI_Allreduce(j->mx, sum + nv, (int)nv, MPI_DOUBLE, MPI_MAX, j->mpi);
    int rc = FRX_OK;
    if (j->rank == 0) {
        fprintf(j->csv, "%llu,%.17g", (unsigned long long)j->step, j->t);
        for (size_t v = 0; v < nv; v++)
            fprintf(j->csv, ",%.17g", sqrt(sum[v]));
        for (size_t v = 0; v < nv; v++)
            fprintf(j->csv, ",%.17g", sum[nv + v]);
        fprintf(j->csv, "\n");
        if (fflush(j->csv))
            rc = frx_error(FRX_EIO, "interface-jump: cannot write %s",
                           j->path);
    }
    free(sum);
    return rc;
}

/* The run's end: the rows in place. */
static int jump_finish(void *state, const frx_ext_now *now)
{
    struct jump *j = state;
    (void)now;
    if (!j->csv)
        return FRX_OK;
    int bad = fclose(j->csv) != 0;
    j->csv = NULL;
    if (bad || rename(j->tmp, j->path))
        return frx_error(FRX_EIO, "interface-jump: cannot put %s in place "
                         "as %s: %s", j->tmp, j->path, strerror(errno));
    return FRX_OK;
}

static const frx_extension_ops ops = {
    .size = sizeof(frx_extension_ops),
    .options = options,
    .api_major = FRX_EXTENSION_API_MAJOR,
    .api_minor = FRX_EXTENSION_API_MINOR,
    .create = jump_create,
    .destroy = jump_destroy,
    .rhs_places = "after-exchange-waits",
    .rhs = jump_rhs,
    .initial = jump_initial,
    .step = jump_step,
    .finish = jump_finish,
};

static const frx_plugin_desc desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_EXTENSION, "interface-jump", "1.0.0",
                         "the solution's jump across element faces, per "
                         "variable, to a CSV file (FR solvers)"),
    .extension = &ops,
};

FRX_PLUGIN_DEFINE(desc)
