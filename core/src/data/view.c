/* SPDX-License-Identifier: BSD-3-Clause */
/* Views: per-point offsets and row strides into one allocation. */
#include "data/data-impl.h"

#include <stdint.h>
#include <stdlib.h>

static int run_table(frx_view *v)
{
    size_t nruns = 0;
    for (size_t i = 0; i < v->n; i++)
        if (i == 0 || v->off[i] != v->off[i - 1] + 1 ||
            v->rstride[i] != v->rstride[i - 1])
            nruns++;
    v->runs = frx__calloc(nruns, sizeof *v->runs, "a view's run table");
    if (!v->runs)
        return FRX_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < v->n; i++) {
        if (i == 0 || v->off[i] != v->off[i - 1] + 1 ||
            v->rstride[i] != v->rstride[i - 1])
            v->runs[k++] = (frx_run){.start = (frx_ix_t)i, .len = 0};
        v->runs[k - 1].len++;
    }
    v->nruns = nruns;
    return FRX_OK;
}

static int check_point(const frx_view *v, size_t i, const frx_matrix *m,
                       size_t row, size_t ele, size_t rs)
{
    if (!m)
        return frx_error(FRX_EINVAL, "view point %zu: no matrix given", i);
    if (m->alloc != v->alloc)
        return frx_error(FRX_EINVAL,
                         "view point %zu is in a matrix outside the "
                         "allocation of point 0: create the matrices a view "
                         "spans together with frx_matrix_create_group", i);
    if (ele >= m->neles)
        return frx_error(FRX_ERANGE,
                         "view point %zu: element %zu is past the matrix's "
                         "%zu elements", i, ele, m->neles);
    if (row + (v->nvrow - 1) * rs >= m->nrow)
        return frx_error(FRX_ERANGE,
                         "view point %zu: rows %zu..%zu (stride %zu) are past "
                         "the matrix's %zu rows", i, row,
                         row + (v->nvrow - 1) * rs, rs, m->nrow);
    if (v->nvcol > m->nvar)
        return frx_error(FRX_ESHAPE,
                         "view point %zu: the view has %zu columns but its "
                         "matrix has %zu variables", i, v->nvcol, m->nvar);
    return FRX_OK;
}

int frx_view_create(frx_backend *be, size_t n, frx_matrix *const *mats,
                    const size_t *rows, const size_t *eles,
                    const size_t *rstrides, size_t nvrow, size_t nvcol,
                    frx_view **out)
{
    if (!be || !mats || !rows || !eles || !out || !mats[0])
        return frx_error(FRX_EINVAL, "frx_view_create: NULL argument");
    if (!n || !nvrow || !nvcol)
        return frx_error(FRX_EINVAL,
                         "frx_view_create: %zu points of shape (%zu, %zu): "
                         "all must be at least 1", n, nvrow, nvcol);
    if (nvrow > 1 && !rstrides)
        return frx_error(FRX_EINVAL,
                         "frx_view_create: a view with %zu rows per point "
                         "needs row strides", nvrow);
    if (mats[0]->be != be) { /* its offsets are in be's units and layout */
        char mine[96], theirs[96];
        return frx_error(FRX_EINVAL, "frx_view_create: the matrices belong "
                         "to %s, not to the view's %s: make the view on "
                         "their backend", frx__backend_desc(mats[0]->be,
                         theirs, sizeof theirs),
                         frx__backend_desc(be, mine, sizeof mine));
    }
    frx_view *v = frx__calloc(1, sizeof *v, "a view");
    if (!v)
        return FRX_ENOMEM;
    *v = (frx_view){.tag = FRX__TAG_VIEW, .be = be,
                    .alloc = mats[0]->alloc, .n = n,
                    .nvrow = nvrow, .nvcol = nvcol,
                    .cstride = be->info.soasz, .refs = 1};
    v->alloc->refs++;
    v->off = frx__calloc(n, sizeof *v->off, "view offsets");
    v->rstride = frx__calloc(n, sizeof *v->rstride, "view row strides");
    int rc = v->off && v->rstride ? FRX_OK : FRX_ENOMEM;

    size_t soasz = be->info.soasz;
    for (size_t i = 0; rc == FRX_OK && i < n; i++) {
        const frx_matrix *m = mats[i];
        size_t rs = rstrides ? rstrides[i] : 0;
        rc = check_point(v, i, m, rows[i], eles[i], rs);
        if (rc)
            break;
        size_t off = m->offset / be->fpsize +
                     frx__matrix_index(m, rows[i], 0, eles[i]);
        size_t rse = rs * m->leaddim;
        if (off + (nvrow - 1) * rse + (nvcol - 1) * soasz > INT32_MAX)
            rc = frx_error(FRX_ERANGE,
                           "view point %zu: offset %zu does not fit the "
                           "32-bit index of views: split the allocation", i,
                           off);
        v->off[i] = (frx_ix_t)off;
        v->rstride[i] = (frx_ix_t)rse;
        size_t last = off + (nvrow - 1) * rse + (nvcol - 1) * soasz + 1;
        v->lo = i == 0 || off < v->lo ? off : v->lo;
        v->hi = last > v->hi ? last : v->hi;
    }
    if (rc == FRX_OK)
        rc = run_table(v);

    const frx_backend_ops *ops = be->ops;
    size_t bytes = n * sizeof(frx_ix_t);
    if (rc == FRX_OK)
        rc = ops->mem_alloc(be->state, bytes, &v->off_mem);
    if (rc == FRX_OK)
        rc = ops->mem_alloc(be->state, bytes, &v->rstride_mem);
    if (rc == FRX_OK)
        rc = ops->mem_write(be->state, v->off_mem, 0, v->off, bytes);
    if (rc == FRX_OK)
        rc = ops->mem_write(be->state, v->rstride_mem, 0, v->rstride, bytes);
    if (rc) {
        frx_view_destroy(v);
        return rc;
    }
    *out = v;
    return FRX_OK;
}

int frx__cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

size_t frx__view_elements(const frx_view *v, size_t *out)
{
    size_t k = 0;
    for (size_t i = 0; i < v->n; i++)
        for (size_t r = 0; r < v->nvrow; r++)
            for (size_t c = 0; c < v->nvcol; c++)
                out[k++] = (size_t)v->off[i] + r * (size_t)v->rstride[i] +
                           c * v->cstride;
    return k;
}

int frx__view_repeats(const frx_view *v, size_t *at)
{
    size_t n = v->n * v->nvrow * v->nvcol;
    size_t *e = malloc((n ? n : 1) * sizeof *e);
    if (!e)
        return 0; /* cannot tell; binding's other checks still hold */
    frx__view_elements(v, e);
    int twice = 0;
    size_t span = v->hi - v->lo;
    uint64_t *bits = span <= 64 * n ? calloc((span + 63) / 64, 8) : NULL;
    if (bits) { /* linear: face sets hold millions of points */
        for (size_t i = 0; i < n && !twice; i++) {
            size_t b = e[i] - v->lo;
            if (bits[b / 64] >> (b % 64) & 1)
                twice = 1, *at = e[i];
            bits[b / 64] |= (uint64_t)1 << (b % 64);
        }
    } else {
        qsort(e, n, sizeof *e, frx__cmp_size);
        for (size_t i = 1; i < n && !twice; i++)
            if (e[i] == e[i - 1])
                twice = 1, *at = e[i];
    }
    free(bits);
    free(e);
    return twice;
}

int frx__refuse_repeats(const frx_view *v, const char *what)
{
    size_t at;
    if (!frx__view_repeats(v, &at))
        return FRX_OK;
    return frx_error(FRX_EINVAL, "%s: the view holds element %zu of its "
                     "allocation more than once: writes to it would race "
                     "(which one lands depends on the threads); give each "
                     "point once, or read it only", what, at);
}

/* Drops one reference: the creator's, or a kernel's or an xchg view's
 * (which hold the view, and through it its allocation, while they may
 * run); the last one frees it. */
void frx_view_destroy(frx_view *v)
{
    if (!v || --v->refs > 0)
        return;
    if (v->off_mem)
        v->be->ops->mem_free(v->be->state, v->off_mem);
    if (v->rstride_mem)
        v->be->ops->mem_free(v->be->state, v->rstride_mem);
    frx__alloc_release(v->alloc);
    free(v->off);
    free(v->rstride);
    free(v->runs);
    free(v);
}

size_t frx_view_n(const frx_view *v) { return v->n; }
size_t frx_view_nvrow(const frx_view *v) { return v->nvrow; }
size_t frx_view_nvcol(const frx_view *v) { return v->nvcol; }
