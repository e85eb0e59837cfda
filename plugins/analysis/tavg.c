/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-tavg: time averages of expressions of the solution over a window
 * of time, at every solution point, written at intervals as VTK and
 * HDF5, restart-safe:
 *
 *   extensions:
 *     - name: tavg
 *       every: 1                  # steps between samples
 *       exprs: {p: p, uu: u*u, rhou: rho*u}
 *       window: [0.5, 2]          # default: the whole run
 *       fluctuations: true        # also <name>_fluct
 *       write-every: 100          # steps; 0: at the end of the window
 *       basename: tavg
 *
 * The average of f over the samples taken (every `every` steps inside
 * the window) is the trapezoid rule over their times divided by the
 * time they span. Fluctuations are the mean of f^2 minus the square of
 * the mean, computed stably: each point's first sample K is subtracted
 * before anything is summed (the sums are of f - K and (f - K)^2), so
 * that a large mean does not cancel the variance away. The sums are
 * matrices on the backend, updated by one kernel per block and sample;
 * they are kept in every checkpoint (frx_ext_keep) with the samples'
 * times (its saved state), so that a run interrupted and restarted
 * gives bitwise the averages of one that was not. Outputs: the VTK
 * series <basename> in output.dir (as the solution's) and
 * <output.dir>/<basename>-<step>.h5 (a checkpoint's layout), each
 * holding <name> (and <name>_fluct) for every expression. */
#include "analysis.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WHO "tavg"

static const frx_option options[] = {
    {.key = "exprs", .type = FRX_OPT_MAP, .required = 1,
     .help = "{<name>: <expression>}: what to average, in the solution's "
             "variables (and what the solver derives from them: euler's u, "
             "v, p), x, y, t and solver.constants"},
    {.key = "window", .type = FRX_OPT_DOUBLE_LIST, .min = 1, .max = 0,
     .help = "[tstart, tend]: the times whose samples are averaged "
             "(default: the whole run)"},
    {.key = "fluctuations", .type = FRX_OPT_BOOL, .def = "false",
     .help = "also write <name>_fluct, the mean of the square minus the "
             "square of the mean"},
    {.key = "write-every", .type = FRX_OPT_INT, .min = 0, .max = 1e9,
     .def = "0",
     .help = "steps between writes of the averages so far (a multiple of "
             "`every`); 0: once, at the end of the window or of the run"},
    {.key = "basename", .type = FRX_OPT_STRING, .def = "tavg",
     .help = "the outputs' name: the VTK series <basename> and the files "
             "<basename>-<step>.h5, in output.dir"},
    {0},
};

/* What goes through a checkpoint beside the sums (the same on every
 * rank): the samples' span and the last write. */
struct times {
    double t_first, t_last;
    uint64_t nsamples, written; /* the last step written, or UINT64_MAX */
    uint64_t closed;            /* past the window's end: written */
};

struct tavg {
    an_base base; /* first, by convention (an_base) */
    const char *out_dir;
    const char *basename;
    size_t nblocks, ne, nout;  /* expressions; output fields */
    int fluct;
    uint64_t write_every;
    double tstart, tend;
    an_block *blk;
    an_fields f;
    an_binds acc;              /* the accumulating kernel per register */
    frx_matrix **sums;         /* per block: K, P, A1 (, A2), ne each */
    frx_matrix **out;          /* per block: the averages (, fluct) */
    frx_kernel **avg;          /* per block: sums -> out */
    char kacc[96], kavg[96];
    const char **sum_names, **out_names;
    struct times tm;
};

static void tavg_destroy(void *state)
{
    struct tavg *a = state;
    if (!a)
        return;
    an_binds_free(&a->acc);
    for (size_t b = 0; b < a->nblocks; b++) {
        if (a->sums)
            frx_matrix_destroy(a->sums[b]);
        if (a->out)
            frx_matrix_destroy(a->out[b]);
        if (a->avg)
            frx_kernel_destroy(a->avg[b]);
    }
    free(a->sums);
    free(a->out);
    free(a->avg);
    for (size_t i = 0; a->sum_names && i < 4 * a->ne; i++)
        free((char *)a->sum_names[i]);
    for (size_t i = 0; a->out_names && i < a->nout; i++)
        free((char *)a->out_names[i]);
    free(a->sum_names);
    free(a->out_names);
    an_blocks_destroy(a->blk, a->nblocks);
    an_fields_free(&a->f);
    free(a);
}

static int register_kernels(struct tavg *a)
{
    char args[1024], consts[512], tail[1024], *body = NULL;
    size_t ns = (a->fluct ? 4 : 3) * a->ne;
    an_fields_const_args(&a->f, consts, sizeof consts);
    snprintf(args, sizeof args, "in fpdtype_t[%zu] u, in fpdtype_t[%d] x, "
             "scalar fpdtype_t t, scalar fpdtype_t hdt, scalar int32_t "
             "first, inout fpdtype_t[%zu] s%s", a->f.nvars, a->f.ndims, ns,
             consts);
    /* s: K[ne], P[ne], A1[ne] (, A2[ne]) */
    snprintf(tail, sizeof tail,
             "for (int _k = 0; _k < %zu; _k++) {\n"
             "    if (first)\n"
             "        s[_k] = _e[_k];\n"
             "    fpdtype_t _d = _e[_k] - s[_k], _p = s[%zu + _k];\n"
             "    s[%zu + _k] += hdt*(_p + _d);\n"
             "%s"
             "    s[%zu + _k] = _d;\n"
             "}", a->ne, a->ne, 2 * a->ne,
             a->fluct ? "    s[3*NE + _k] += hdt*(_p*_p + _d*_d);\n" : "",
             a->ne);
    char full[1200];
    snprintf(full, sizeof full, "enum { NE = %zu };\n%s", a->ne, tail);
    int rc = an_fields_body(&a->f, frx_backend_precision(a->base.be), NULL, full,
                            &body);
    if (rc)
        return rc;
    an_kernel_name("tavg_acc", args, body, a->kacc, sizeof a->kacc);
    frx_kernel_decl d = {.name = a->kacc, .ndim = 2, .args = args,
                         .body = body};
    rc = frx_kernel_register(a->base.be, &d);
    free(body);
    if (rc)
        return rc;
    char body2[1024];
    snprintf(args, sizeof args, "in fpdtype_t[%zu] s, scalar fpdtype_t rT, "
             "out fpdtype_t[%zu] o", ns, a->nout);
    /* the mean K + E[f - K]; the variance E[(f-K)^2] - E[f-K]^2 */
    snprintf(body2, sizeof body2,
             "for (int _k = 0; _k < %zu; _k++) {\n"
             "    fpdtype_t _m = s[%zu + _k]*rT;\n"
             "    o[_k] = s[_k] + _m;\n"
             "%s"
             "}", a->ne, 2 * a->ne,
             a->fluct ? "    o[NE + _k] = s[3*NE + _k]*rT - _m*_m;\n" : "");
    char full2[1200];
    snprintf(full2, sizeof full2, "enum { NE = %zu };\n%s", a->ne, body2);
    an_kernel_name("tavg_out", args, full2, a->kavg, sizeof a->kavg);
    d = (frx_kernel_decl){.name = a->kavg, .ndim = 2, .args = args,
                          .body = full2};
    return frx_kernel_register(a->base.be, &d);
}

static int bind_acc(void *ud, size_t i, frx_matrix *const *u,
                    frx_kernel **k)
{
    struct tavg *a = ud;
    if (!a->blk[i].neles) /* a block with no element here */
        return FRX_OK;
    frx_arg g[6 + AN_MAX_CONSTS] = {
        frx_arg_matrix(u[i]), frx_arg_matrix(a->blk[i].x), frx_arg_unset(),
        frx_arg_unset(), frx_arg_unset(), frx_arg_matrix(a->sums[i])};
    size_t n = 6 + an_fields_bind_consts(&a->f, g + 6);
    return frx_kernel_create(a->base.be, a->kacc, a->blk[i].nupts,
                             a->blk[i].neles, g, n, k);
}

/* "<prefix><name><suffix>", malloc'd */
static char *named(const char *prefix, const char *name, const char *suffix)
{
    size_t n = strlen(prefix) + strlen(name) + strlen(suffix) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", prefix, name, suffix);
    return s;
}

static int make_names(struct tavg *a)
{
    static const char *const parts[] = {"shift_", "last_", "sum_",
                                        "sumsq_"};
    size_t ns = (a->fluct ? 4 : 3) * a->ne;
    a->sum_names = calloc(4 * a->ne, sizeof *a->sum_names);
    a->out_names = calloc(a->nout, sizeof *a->out_names);
    if (!a->sum_names || !a->out_names)
        return frx_error(FRX_ENOMEM, WHO ": out of memory");
    for (size_t i = 0; i < ns; i++)
        if (!(a->sum_names[i] = named(parts[i / a->ne],
                                      a->f.labels[i % a->ne], "")))
            return frx_error(FRX_ENOMEM, WHO ": out of memory");
    for (size_t i = 0; i < a->nout; i++)
        if (!(a->out_names[i] = named("", a->f.labels[i % a->ne],
                                      i < a->ne ? "" : "_fluct")))
            return frx_error(FRX_ENOMEM, WHO ": out of memory");
    return FRX_OK;
}

static int read_options(struct tavg *a, const frx_extension_init *init)
{
    const frx_cfgnode *o = init->options, *ex = frx_cfg_get(o, "exprs");
    char at[512];
    int rc = an_fields_init(&a->f, init, a->base.ext, WHO);
    if (!rc && (!ex || !frx_cfg_len(ex)))
        rc = frx_error(FRX_ECONFIG, "%s: tavg: exprs is empty; give "
                       "{<name>: <expression>}",
                       fr_cfg_place(ex ? ex : o, at, sizeof at));
    for (size_t i = 0; !rc && i < frx_cfg_len(ex); i++) {
        char key[256];
        snprintf(key, sizeof key, "exprs.%s", frx_cfg_key_at(ex, i));
        rc = an_fields_add(&a->f, frx_cfg_at(ex, i), key,
                           frx_cfg_key_at(ex, i));
    }
    int fluct = 0;
    long we = 0;
    if (!rc)
        rc = frx_cfg_bool(o, "fluctuations", 0, &fluct);
    if (!rc)
        rc = frx_cfg_int(o, "write-every", 0, 0, 1000000000, &we);
    if (!rc)
        rc = frx_cfg_string(o, "basename", "tavg", &a->basename);
    if (!rc && (!a->basename[0] || strpbrk(a->basename, "/&<>\"")))
        rc = frx_error(FRX_ECONFIG, "%s: tavg: basename '%s' must be a "
                       "name without / & < > \"",
                       fr_cfg_place(frx_cfg_get(o, "basename"), at,
                                    sizeof at), a->basename);
    a->fluct = fluct;
    a->write_every = (uint64_t)we;
    a->tstart = -INFINITY;
    a->tend = INFINITY;
    const frx_cfgnode *w = frx_cfg_get(o, "window");
    if (!rc && w) {
        fr_cfg_place(w, at, sizeof at);
        if (frx_cfg_len(w) != 2)
            rc = frx_error(FRX_ECONFIG, "%s: tavg: window is [tstart, tend]",
                           at);
        else {
            a->tstart = strtod(frx_cfg_scalar(frx_cfg_at(w, 0)), NULL);
            a->tend = strtod(frx_cfg_scalar(frx_cfg_at(w, 1)), NULL);
            if (!(a->tend > a->tstart))
                rc = frx_error(FRX_ECONFIG, "%s: tavg: the window [%g, %g] "
                               "ends before it starts", at, a->tstart,
                               a->tend);
        }
    }
    a->ne = a->f.nexprs;
    a->nout = (a->fluct ? 2 : 1) * a->ne;
    if (!rc && 4 * a->ne > 1000)
        rc = frx_error(FRX_ECONFIG, "%s: tavg: %zu expressions; at most 250",
                       fr_cfg_place(ex, at, sizeof at), a->ne);
    return rc;
}

static int tavg_create(const frx_extension_init *init, void **state)
{
    struct tavg *a = calloc(1, sizeof *a);
    if (!a)
        return frx_error(FRX_ENOMEM, WHO ": out of memory");
    *state = a;
    a->base.ext = init->ext;
    a->base.be = init->backend;
    a->base.mpi = frx_comm_mpi(init->comm);
    MPI_Comm_rank(a->base.mpi, &a->base.rank);
    a->nblocks = a->acc.nblocks = init->nblocks;
    a->tm.written = UINT64_MAX;
    int rc = frx_cfg_string(frx_config_root(init->config), "output.dir",
                            ".", &a->out_dir);
    if (!rc)
        rc = read_options(a, init);
    if (!rc)
        rc = make_names(a);
    if (!rc)
        rc = an_blocks_create(init, WHO, &a->blk);
    a->sums = calloc(a->nblocks + 1, sizeof *a->sums);
    a->out = calloc(a->nblocks + 1, sizeof *a->out);
    a->avg = calloc(a->nblocks + 1, sizeof *a->avg);
    if (!rc && (!a->sums || !a->out || !a->avg))
        rc = frx_error(FRX_ENOMEM, WHO ": out of memory");
    if (!rc)
        rc = register_kernels(a);
    size_t ns = (a->fluct ? 4 : 3) * a->ne;
    for (size_t b = 0; b < a->nblocks && !rc; b++) {
        size_t nu = a->blk[b].nupts, ne = a->blk[b].neles;
        rc = frx_matrix_create(a->base.be, nu, ns, ne, &a->sums[b]);
        if (!rc)
            rc = frx_matrix_create(a->base.be, nu, a->nout, ne, &a->out[b]);
        frx_arg g[3] = {frx_arg_matrix(a->sums[b]), frx_arg_unset(),
                        frx_arg_matrix(a->out[b])};
        if (!rc && ne)
            rc = frx_kernel_create(a->base.be, a->kavg, nu, ne, g, 3,
                                   &a->avg[b]);
    }
    if (!rc)
        rc = frx_ext_keep(a->base.ext, "sums", ns, a->sum_names, a->sums);
    return rc;
}

/* The averages so far as outputs (every rank). */
static int write_out(struct tavg *a, uint64_t step)
{
    double T = a->tm.t_last - a->tm.t_first;
    if (!(T > 0) || a->tm.written == step)
        return FRX_OK;
    int rc = FRX_OK;
    for (size_t b = 0; b < a->nblocks && !rc; b++)
        if (a->avg[b]) {
            rc = frx_kernel_set_scalar(a->avg[b], "rT", 1 / T);
            if (!rc)
                rc = frx_kernel_run(a->avg[b]);
        }
    if (rc)
        return rc;
    rc = frx_ext_write_vtk(a->base.ext, a->basename, a->nout, a->out_names,
                           a->out, a->tm.t_last, step);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%08" PRIu64 ".h5", a->out_dir,
             a->basename, step);
    if (!rc)
        rc = frx_ext_write_h5(a->base.ext, path, a->nout, a->out_names,
                              a->out, a->tm.t_last, step);
    if (!rc)
        a->tm.written = step;
    return rc;
}

/* A sample of the state now, where it is in the window. */
static int sample(struct tavg *a, const frx_ext_now *now)
{
    if (now->t < a->tstart || now->t > a->tend)
        return FRX_OK;
    frx_kernel **k;
    int first = a->tm.nsamples == 0;
    double hdt = first ? 0 : 0.5 * (now->t - a->tm.t_last);
    int rc = an_binds_get(&a->acc, now->u, bind_acc, a, &k);
    for (size_t b = 0; b < a->nblocks && !rc; b++) {
        if (!k[b])
            continue;
        rc = frx_kernel_set_scalar(k[b], "t", now->t);
        if (!rc)
            rc = frx_kernel_set_scalar(k[b], "hdt", hdt);
        if (!rc)
            rc = frx_kernel_set_scalar(k[b], "first", first);
        if (!rc)
            rc = frx_kernel_run(k[b]);
    }
    if (rc)
        return rc;
    if (first)
        a->tm.t_first = now->t;
    a->tm.t_last = now->t;
    a->tm.nsamples++;
    return FRX_OK;
}

static int tavg_initial(void *state, const frx_ext_now *now)
{
    struct tavg *a = state;
    /* a restart has its samples from the checkpoint (load) */
    return now->step == 0 ? sample(a, now) : FRX_OK;
}

static int tavg_step(void *state, const frx_ext_now *now)
{
    struct tavg *a = state;
    if (a->tm.closed)
        return FRX_OK;
    int rc = sample(a, now);
    if (!rc && now->t > a->tend) { /* the window closed: its averages */
        a->tm.closed = 1;
        return write_out(a, now->step);
    }
    if (!rc && a->write_every && now->step % a->write_every == 0)
        rc = write_out(a, now->step);
    return rc;
}

static int tavg_finish(void *state, const frx_ext_now *now)
{
    struct tavg *a = state;
    return a->tm.closed ? FRX_OK : write_out(a, now->step);
}

static int tavg_save(void *state, void **data, size_t *len)
{
    struct tavg *a = state;
    *data = malloc(sizeof a->tm);
    if (!*data)
        return frx_error(FRX_ENOMEM, WHO ": out of memory");
    memcpy(*data, &a->tm, sizeof a->tm);
    *len = sizeof a->tm;
    return FRX_OK;
}

static int tavg_load(void *state, const void *data, size_t len)
{
    struct tavg *a = state;
    if (len != sizeof a->tm)
        return frx_error(FRX_ECONFIG, "tavg: the checkpoint's state has %zu "
                         "bytes, not %zu: written by another frx", len,
                         sizeof a->tm);
    memcpy(&a->tm, data, len);
    return FRX_OK;
}

static const frx_extension_ops ops = {
    .size = sizeof(frx_extension_ops),
    .options = options,
    .api_major = FRX_EXTENSION_API_MAJOR,
    .api_minor = FRX_EXTENSION_API_MINOR,
    .create = tavg_create,
    .destroy = tavg_destroy,
    .initial = tavg_initial,
    .step = tavg_step,
    .save = tavg_save,
    .load = tavg_load,
    .finish = tavg_finish,
};

static const frx_plugin_desc desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_EXTENSION, "tavg", "1.0.0",
                         "time averages (and fluctuations) of expressions "
                         "of the solution over a window, as VTK and HDF5, "
                         "kept through restarts"),
    .extension = &ops,
};

FRX_PLUGIN_DEFINE(desc)
