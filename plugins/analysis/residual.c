/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-residual: how fast the solution still changes, per variable, the
 * norms of du/dt over the domain, every `every` steps, to a CSV file
 * and to the progress line (steady cases watch it fall):
 *
 *   extensions:
 *     - {name: residual, every: 10, file: residual.csv}
 *
 * As PyFR's residual plugin: before each step that ends on an every-th
 * one (the `ahead` hook) it keeps u; after it, du/dt = (u - u_kept) /
 * dt over that one step. One kernel per block reduces, per variable,
 * the integral of (du/dt)^2 with the solver's quadrature (weights x
 * |J|) and the largest |du/dt| over the solution points, on the
 * backend; rank 0 writes step, t, then <var>_l2 = sqrt(integral) for
 * each variable, then <var>_max. */
#include "analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WHO "residual"

static const frx_option options[] = {
    {.key = "file", .type = FRX_OPT_STRING, .required = 1,
     .help = "the CSV file the norms of du/dt go to (rank 0 writes it; a "
             "restart continues it)"},
    AN_CSV_OPTIONS,
    {0},
};

struct resid {
    an_base base; /* first: an_save and an_finish read it */
    size_t nblocks, nvars;
    const char *const *vars;
    an_block *blk;
    frx_matrix **prev;    /* u kept before the step, per block */
    an_binds copy, norm;  /* per register of u */
    char kcopy[96], knorm[96];
    double t_prev;
    int have;             /* prev holds the start of the step just taken */
    double *vals;         /* 2 nvars: l2, then max */
};

static void resid_destroy(void *state)
{
    struct resid *r = state;
    if (!r)
        return;
    an_binds_free(&r->copy);
    an_binds_free(&r->norm);
    for (size_t i = 0; r->prev && i < r->nblocks; i++)
        frx_matrix_destroy(r->prev[i]);
    free(r->prev);
    an_blocks_destroy(r->blk, r->nblocks);
    an_csv_free(&r->base.csv);
    free(r->vals);
    free(r);
}

static int register_kernels(struct resid *r)
{
    char args[512], body[512];
    snprintf(args, sizeof args, "in fpdtype_t[%zu] u, out fpdtype_t[%zu] p",
             r->nvars, r->nvars);
    snprintf(body, sizeof body, "for (int _v = 0; _v < %zu; _v++)\n"
             "    p[_v] = u[_v];", r->nvars);
    an_kernel_name("residual_keep", args, body, r->kcopy, sizeof r->kcopy);
    frx_kernel_decl d = {.name = r->kcopy, .ndim = 2, .args = args,
                         .body = body};
    int rc = frx_kernel_register(r->base.be, &d);
    if (rc)
        return rc;
    snprintf(args, sizeof args, "in fpdtype_t[%zu] u, in fpdtype_t[%zu] p, "
             "in fpdtype_t[1] w, scalar fpdtype_t rdt, out reduce(sum) "
             "fpdtype_t[%zu] sq, out reduce(max) fpdtype_t[%zu] mx",
             r->nvars, r->nvars, r->nvars, r->nvars);
    snprintf(body, sizeof body, "for (int _v = 0; _v < %zu; _v++) {\n"
             "    fpdtype_t _d = (u[_v] - p[_v])*rdt;\n"
             "    sq[_v] = w[0]*_d*_d;\n"
             "    mx[_v] = fabs(_d);\n"
             "}", r->nvars);
    an_kernel_name("residual_norm", args, body, r->knorm, sizeof r->knorm);
    d = (frx_kernel_decl){.name = r->knorm, .ndim = 2, .args = args,
                          .body = body};
    return frx_kernel_register(r->base.be, &d);
}

static int bind_copy(void *ud, size_t i, frx_matrix *const *u,
                     frx_kernel **k)
{
    struct resid *r = ud;
    if (!r->blk[i].neles) /* a block with no element here */
        return FRX_OK;
    frx_arg a[2] = {frx_arg_matrix(u[i]), frx_arg_matrix(r->prev[i])};
    return frx_kernel_create(r->base.be, r->kcopy, r->blk[i].nupts,
                             r->blk[i].neles, a, 2, k);
}

static int bind_norm(void *ud, size_t i, frx_matrix *const *u,
                     frx_kernel **k)
{
    struct resid *r = ud;
    if (!r->blk[i].neles)
        return FRX_OK;
    frx_arg a[6] = {frx_arg_matrix(u[i]), frx_arg_matrix(r->prev[i]),
                    frx_arg_matrix(r->blk[i].w), frx_arg_unset(),
                    frx_arg_reduce(), frx_arg_reduce()};
    return frx_kernel_create(r->base.be, r->knorm, r->blk[i].nupts,
                             r->blk[i].neles, a, 6, k);
}

static int resid_create(const frx_extension_init *init, void **state)
{
    struct resid *r = calloc(1, sizeof *r);
    if (!r)
        return frx_error(FRX_ENOMEM, WHO ": out of memory");
    *state = r;
    r->nblocks = r->copy.nblocks = r->norm.nblocks = init->nblocks;
    r->nvars = init->nvars;
    r->vars = init->vars;
    int rc = an_base_init(&r->base, init, WHO);
    if (!rc)
        rc = an_blocks_create(init, WHO, &r->blk);
    r->prev = calloc(r->nblocks + 1, sizeof *r->prev);
    r->vals = calloc(2 * r->nvars + 1, sizeof *r->vals);
    if (!rc && (!r->prev || !r->vals))
        rc = frx_error(FRX_ENOMEM, WHO ": out of memory");
    for (size_t i = 0; i < r->nblocks && !rc; i++)
        if (r->blk[i].neles)
            rc = frx_matrix_create(r->base.be, r->blk[i].nupts, r->nvars,
                                   r->blk[i].neles, &r->prev[i]);
    if (!rc)
        rc = register_kernels(r);
    return rc;
}

static int resid_initial(void *state, const frx_ext_now *now)
{
    struct resid *r = state;
    char *header = NULL;
    size_t len = 0;
    FILE *h = an_header_open(&header, &len);
    for (int k = 0; h && k < 2; k++)
        for (size_t v = 0; v < r->nvars; v++)
            an_csv_column(h, r->vars[v], k ? "max" : "l2");
    return an_header_start(&r->base, h, &header, now->step);
}

/* Before a step that ends on an every-th one: keep u. */
static int resid_ahead(void *state, const frx_ext_now *now)
{
    struct resid *r = state;
    frx_kernel **k;
    int rc = an_binds_get(&r->copy, now->u, bind_copy, r, &k);
    if (!rc)
        rc = an_run(k, r->nblocks);
    r->t_prev = now->t;
    r->have = rc == FRX_OK;
    return rc;
}

static int resid_step(void *state, const frx_ext_now *now)
{
    struct resid *r = state;
    if (!r->have) /* the first step of a run that starts past step 0 */
        return FRX_OK;
    r->have = 0;
    double dt = now->t - r->t_prev;
    frx_kernel **k;
    int rc = an_binds_get(&r->norm, now->u, bind_norm, r, &k);
    for (size_t i = 0; i < r->nblocks && !rc; i++)
        if (k[i])
            rc = frx_kernel_set_scalar(k[i], "rdt", 1 / dt);
    if (!rc)
        rc = an_run(k, r->nblocks);
    int r1 = an_fold(rc ? NULL : k, r->nblocks, "sq", r->nvars,
                     MPI_SUM, r->base.mpi, r->vals);
    int r2 = an_fold(rc ? NULL : k, r->nblocks, "mx", r->nvars,
                     MPI_MAX, r->base.mpi, r->vals + r->nvars);
    if (!rc)
        rc = r1 ? r1 : r2;
    if (rc == AN_PEER_FAILED) /* no row: that rank says why */
        return FRX_OK;
    if (rc)
        return rc;
    char prog[128];
    size_t at = (size_t)snprintf(prog, sizeof prog, "res");
    for (size_t v = 0; v < r->nvars; v++) {
        r->vals[v] = sqrt(r->vals[v]);
        if (at < sizeof prog)
            at += (size_t)snprintf(prog + at, sizeof prog - at, " %.2e",
                                   r->vals[v]);
    }
    frx_ext_progress(r->base.ext, "%s", prog);
    return an_csv_row(&r->base.csv, now->step, now->t, 2 * r->nvars, r->vals);
}

static const frx_extension_ops ops = {
    .size = sizeof(frx_extension_ops),
    .options = options,
    .api_major = FRX_EXTENSION_API_MAJOR,
    .api_minor = FRX_EXTENSION_API_MINOR,
    .create = resid_create,
    .destroy = resid_destroy,
    .initial = resid_initial,
    .step = resid_step,
    .save = an_save,
    .finish = an_finish,
    .ahead = resid_ahead,
};

static const frx_plugin_desc desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_EXTENSION, "residual", "1.0.0",
                         "the L2 and max norms of du/dt per variable every "
                         "N steps, to a CSV file and the progress line"),
    .extension = &ops,
};

FRX_PLUGIN_DEFINE(desc)
