/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-integrate: volume integrals of expressions of the solution over
 * the whole domain, with the solver's quadrature at the solution points
 * (weights x |J|), every `every` steps, to a CSV file:
 *
 *   extensions:
 *     - name: integrate
 *       every: 10
 *       file: integrals.csv
 *       exprs: {mass: rho, energy: E, ke: 0.5*rho*(u*u + v*v)}
 *
 * One kernel per block reduces every expression at once on the backend
 * (the sums alone reach the host), the ranks add them up, rank 0 writes
 * a row: step, t, then each integral in the order of exprs. A row at
 * the start of a fresh run too. */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

#define WHO "integrate"

static const frx_option options[] = {
    {.key = "file", .type = FRX_OPT_STRING, .required = 1,
     .help = "the CSV file the integrals go to (rank 0 writes it; a "
             "restart continues it)"},
    {.key = "exprs", .type = FRX_OPT_MAP, .required = 1,
     .help = "{<column>: <expression>}: what to integrate, in the "
             "solution's variables (and what the solver derives from them: "
             "euler's u, v, p), x, y, t and solver.constants"},
    AN_CSV_OPTIONS,
    {0},
};

struct integ {
    an_base base; /* first: an_save and an_finish read it */
    size_t nblocks;
    an_block *blk;
    an_fields f;
    an_binds binds;
    char kname[96];
    double *vals;
};

static void integ_destroy(void *state)
{
    struct integ *g = state;
    if (!g)
        return;
    an_binds_free(&g->binds);
    an_blocks_destroy(g->blk, g->nblocks);
    an_fields_free(&g->f);
    an_csv_free(&g->base.csv);
    free(g->vals);
    free(g);
}

static int register_kernel(struct integ *g)
{
    char args[1024], consts[512], *body = NULL;
    an_fields_const_args(&g->f, consts, sizeof consts);
    snprintf(args, sizeof args, "in fpdtype_t[%zu] u, in fpdtype_t[%d] x, "
             "in fpdtype_t[1] w, scalar fpdtype_t t, out reduce(sum) "
             "fpdtype_t[%zu] s%s", g->f.nvars, g->f.ndims, g->f.nexprs,
             consts);
    char tail[128];
    snprintf(tail, sizeof tail, "for (int _k = 0; _k < %zu; _k++)\n"
             "    s[_k] = w[0]*_e[_k];", g->f.nexprs);
    int rc = an_fields_body(&g->f, frx_backend_precision(g->base.be), NULL, tail,
                            &body);
    if (rc)
        return rc;
    an_kernel_name("integrate", args, body, g->kname, sizeof g->kname);
    frx_kernel_decl d = {.name = g->kname, .ndim = 2, .args = args,
                         .body = body};
    rc = frx_kernel_register(g->base.be, &d);
    free(body);
    return rc;
}

static int bind(void *ud, size_t i, frx_matrix *const *u, frx_kernel **k)
{
    struct integ *g = ud;
    if (!g->blk[i].neles) /* a block with no element here */
        return FRX_OK;
    frx_arg a[5 + AN_MAX_CONSTS] = {frx_arg_matrix(u[i]), frx_arg_matrix(g->blk[i].x),
                         frx_arg_matrix(g->blk[i].w), frx_arg_unset(),
                         frx_arg_reduce()};
    size_t n = 5 + an_fields_bind_consts(&g->f, a + 5);
    return frx_kernel_create(g->base.be, g->kname, g->blk[i].nupts,
                             g->blk[i].neles, a, n, k);
}

static int integ_create(const frx_extension_init *init, void **state)
{
    struct integ *g = calloc(1, sizeof *g);
    if (!g)
        return frx_error(FRX_ENOMEM, WHO ": out of memory");
    *state = g;
    g->nblocks = g->binds.nblocks = init->nblocks;
    int rc = an_base_init(&g->base, init, WHO);
    if (!rc)
        rc = an_fields_init(&g->f, init, g->base.ext, WHO);
    const frx_cfgnode *ex = frx_cfg_get(init->options, "exprs");
    if (!rc && (!ex || !frx_cfg_len(ex))) {
        char at[512];
        rc = frx_error(FRX_ECONFIG, "%s: extension integrate: exprs is empty;"
                       " give {<column>: <expression>}, e.g. {mass: %s}",
                       fr_cfg_place(ex ? ex : init->options, at, sizeof at),
                       init->nvars ? init->vars[0] : "rho");
    }
    for (size_t i = 0; !rc && i < frx_cfg_len(ex); i++) {
        char key[256];
        snprintf(key, sizeof key, "exprs.%s", frx_cfg_key_at(ex, i));
        rc = an_fields_add(&g->f, frx_cfg_at(ex, i), key,
                           frx_cfg_key_at(ex, i));
    }
    if (!rc && !(g->vals = calloc(g->f.nexprs + 1, sizeof *g->vals)))
        rc = frx_error(FRX_ENOMEM, WHO ": out of memory");
    if (!rc)
        rc = an_blocks_create(init, WHO, &g->blk);
    if (!rc)
        rc = register_kernel(g);
    return rc;
}

/* The integrals of the state now into g->vals, and a row. */
static int row(struct integ *g, const frx_ext_now *now)
{
    frx_kernel **k;
    int rc = an_binds_get(&g->binds, now->u, bind, g, &k);
    for (size_t i = 0; i < g->nblocks && !rc; i++)
        if (k[i])
            rc = frx_kernel_set_scalar(k[i], "t", now->t);
    if (!rc)
        rc = an_run(k, g->nblocks);
    /* every rank folds, even one that failed above (it passes zeros) */
    int rf = an_fold(rc ? NULL : k, g->nblocks,
                     "s", g->f.nexprs, MPI_SUM, g->base.mpi, g->vals);
    if (!rc)
        rc = rf;
    if (rc == AN_PEER_FAILED) /* no row: that rank says why */
        return FRX_OK;
    return rc ? rc : an_csv_row(&g->base.csv, now->step, now->t, g->f.nexprs,
                                g->vals);
}

static int integ_initial(void *state, const frx_ext_now *now)
{
    struct integ *g = state;
    char *header = NULL;
    size_t len = 0;
    FILE *h = an_header_open(&header, &len);
    for (size_t k = 0; h && k < g->f.nexprs; k++)
        an_csv_column(h, NULL, g->f.labels[k]);
    int rc = an_header_start(&g->base, h, &header, now->step);
    if (!rc && now->step == 0) /* a restart has this step's row */
        rc = row(g, now);
    return rc;
}

static int integ_step(void *state, const frx_ext_now *now)
{
    return row(state, now);
}

static const frx_extension_ops ops = {
    .size = sizeof(frx_extension_ops),
    .options = options,
    .api_major = FRX_EXTENSION_API_MAJOR,
    .api_minor = FRX_EXTENSION_API_MINOR,
    .create = integ_create,
    .destroy = integ_destroy,
    .initial = integ_initial,
    .step = integ_step,
    .save = an_save,
    .finish = an_finish,
};

static const frx_plugin_desc desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_EXTENSION, "integrate", "1.0.0",
                         "volume integrals of expressions of the solution "
                         "(mass, momentum, energy) every N steps, to a CSV "
                         "file"),
    .extension = &ops,
};

FRX_PLUGIN_DEFINE(desc)
