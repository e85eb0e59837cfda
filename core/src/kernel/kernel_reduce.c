/* SPDX-License-Identifier: BSD-3-Clause */
/* Reductions: the partial results a kernel's "out reduce(op)" arguments
 * leave on the device, and their fold on the host. Where the partials
 * come from is kernel_gen.c's business; here they are [ncomp][nparts]
 * values of the backend's precision, folded in order in double. */
#include "kernel/kernel-impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void frx__kred_free(frx_backend *be, struct frx__kred *r, size_t count)
{
    for (size_t i = 0; r && i < count; i++) {
        if (r[i].mem)
            be->ops->mem_free(be->state, r[i].mem);
        free(r[i].host);
    }
    free(r);
}

/* A GPU backend must launch reductions with the work-group size their
 * code folds: only plugins built for ABI 1.3 read frx_kernel_src's
 * local_size. On C with OpenMP the generated loop needs nothing. */
static int can_reduce(const frx_backend *be, const frx__kspec *s)
{
    const frx_plugin_desc *d = frx_plugin_descriptor(be->plugin);
    if (be->ops->target == FRX_TARGET_C_OPENMP || !d ||
        d->abi_major > 1 || d->abi_minor >= 3)
        return FRX_OK;
    return frx_error(FRX_ENOTSUP, "kernel '%s' has a reduction, which "
                     "backend '%s' (plugin ABI %u.%u) cannot launch: "
                     "rebuild the plugin against this frx (ABI %d.%d)",
                     s->name, be->name, (unsigned)d->abi_major,
                     (unsigned)d->abi_minor, FRX_ABI_MAJOR, FRX_ABI_MINOR);
}

int frx__kred_create(frx_backend *be, const frx__kspec *s, size_t nrows,
                     size_t n, struct frx__kred **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    size_t nred = 0;
    for (size_t i = 0; i < s->nargs; i++)
        nred += s->args[i].kind == FRX__K_REDUCE;
    if (!nred)
        return FRX_OK;
    int rc = can_reduce(be, s);
    if (rc)
        return rc;
    struct frx__kred *r = frx__calloc(nred, sizeof *r, "reductions");
    if (!r)
        return FRX_ENOMEM;
    frx_codegen cg = {.target = be->ops->target, .soasz = be->info.soasz};
    size_t nparts = frx__reduce_nparts(&cg, nrows, n), j = 0;
    for (size_t i = 0; i < s->nargs && rc == FRX_OK; i++) {
        const frx__karg *a = &s->args[i];
        if (a->kind != FRX__K_REDUCE)
            continue;
        struct frx__kred *x = &r[j++];
        *x = (struct frx__kred){.arg = i, .ncomp = a->nrow * a->ncol,
                                .nparts = nparts};
        size_t bytes = x->ncomp * nparts * be->fpsize;
        rc = be->ops->mem_alloc(be->state, bytes, &x->mem);
        if (rc == FRX_OK && !(x->host = frx__calloc(1, bytes,
                                                    "reduction results")))
            rc = FRX_ENOMEM;
    }
    if (rc) {
        frx__kred_free(be, r, nred);
        return rc;
    }
    *out = r;
    *count = nred;
    return FRX_OK;
}

static double fold(int op, double acc, double x)
{
    if (op == FRX__RED_SUM)
        return acc + x;
    if (op == FRX__RED_MAX)
        return x > acc ? x : acc;
    return x < acc ? x : acc;
}

int frx__kred_fold(frx_backend *be, const struct frx__kred *r, int op,
                   double *values)
{
    size_t count = r->ncomp * r->nparts;
    int rc = be->ops->mem_read(be->state, r->mem, 0, r->host,
                               count * be->fpsize);
    if (rc)
        return rc;
    for (size_t c = 0; c < r->ncomp; c++) {
        double acc = op == FRX__RED_SUM ? 0 : op == FRX__RED_MAX ? -INFINITY
                                                                 : INFINITY;
        for (size_t p = 0; p < r->nparts; p++) {
            size_t i = c * r->nparts + p;
            double x = be->fpsize == 4 ? ((const float *)r->host)[i]
                                       : ((const double *)r->host)[i];
            acc = fold(op, acc, x);
        }
        values[c] = acc;
    }
    return FRX_OK;
}
