/* SPDX-License-Identifier: BSD-3-Clause */
/* Matrices in AoSoA layout, groups sharing one allocation, slices and
 * de-duplicated constant matrices. */
#include "data/data-impl.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct frx_const_entry {
    uint64_t hash;
    size_t nrow, ncol;
    double *data;
    char sha[65];                  /* sha256 of data, "" until asked */
    frx_matrix *m;
    struct frx_const_entry *next;
};

static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

/* Padded row length in elements: whole chunks, then the alignment. */
static size_t leaddim_of(const frx_backend *be, size_t nvar, size_t chunks)
{
    size_t cols = chunks * be->info.soasz * nvar;
    return round_up(cols, be->info.alignment / be->fpsize);
}

static int matrix_store(frx_matrix *m, const void *host);

/* The layout of a new matrix: in the backend's parts where it has at
 * least a chunk for each (a part of every worker), else one part. */
static void layout_of(const frx_backend *be, const frx_matrix_shape *sh,
                      int whole, frx_matrix *m)
{
    size_t chunks = (sh->neles + be->info.soasz - 1) / be->info.soasz;
    size_t parts = whole ? 1 : be->info.parts;
    m->pc = m->ps = m->c0 = 0;
    if (parts > 1 && chunks >= parts) {
        m->pc = (chunks + parts - 1) / parts;
        m->leaddim = leaddim_of(be, sh->nvar, m->pc);
        m->ps = sh->nrow * m->leaddim;
    } else {
        m->leaddim = leaddim_of(be, sh->nvar, chunks);
    }
}

/* Values the matrix's storage takes from its start. */
static size_t stored_values(const frx_matrix *m)
{
    size_t chunks = (m->neles + m->be->info.soasz - 1) / m->be->info.soasz;
    if (!m->pc)
        return m->nrow * m->leaddim;
    return (chunks + m->pc - 1) / m->pc * m->ps;
}

size_t frx__matrix_index(const frx_matrix *m, size_t r, size_t v, size_t e)
{
    size_t S = m->be->info.soasz, c = m->c0 + e / S, part = 0;
    if (m->pc) {
        part = c / m->pc;
        c %= m->pc;
    }
    return part * m->ps + r * m->leaddim + (c * m->nvar + v) * S + e % S;
}

int frx__matrix_piece(const frx_matrix *m, size_t k, size_t *base,
                      size_t *w)
{
    size_t S = m->be->info.soasz, chunks = (m->neles + S - 1) / S;
    size_t at = m->offset / m->be->fpsize;
    if (!m->pc) {
        *base = at;
        *w = chunks * S * m->nvar;
        return k == 0;
    }
    size_t first = k == 0 ? m->c0 : 0;       /* chunks within part k */
    size_t before = k == 0 ? 0 : m->pc - m->c0 + (k - 1) * m->pc;
    if (before >= chunks)
        return 0;
    size_t n = m->pc - first < chunks - before ? m->pc - first
                                               : chunks - before;
    *base = at + k * m->ps + first * S * m->nvar;
    *w = n * S * m->nvar;
    return 1;
}

static struct frx_alloc *alloc_new(frx_backend *be, size_t bytes)
{
    struct frx_alloc *a = frx__calloc(1, sizeof *a, "an allocation record");
    if (!a)
        return NULL;
    a->be = be;
    a->bytes = bytes ? bytes : be->info.alignment;
    if (be->ops->mem_alloc(be->state, a->bytes, &a->mem)) {
        free(a);
        return NULL;
    }
    a->refs = 1;
    return a;
}

void frx__alloc_release(struct frx_alloc *a)
{
    if (a && --a->refs == 0) {
        a->be->ops->mem_free(a->be->state, a->mem);
        free(a);
    }
}

static int check_shape(size_t nrow, size_t nvar, size_t neles)
{
    if (!nrow || !nvar || !neles)
        return frx_error(FRX_EINVAL,
                         "matrix shape %zu x %zu x %zu: every extent "
                         "(nrow x nvar x neles) must be at least 1",
                         nrow, nvar, neles);
    return FRX_OK;
}

/* whole: one part whatever the backend's parts (const matrices, whose
 * "elements" are an operator's columns). */
static int create_group(frx_backend *be, size_t count,
                        const frx_matrix_shape *shapes, int whole,
                        frx_matrix **out)
{
    if (!be || !shapes || !out || !count)
        return frx_error(FRX_EINVAL, "frx_matrix_create_group: NULL "
                                     "argument or empty group");
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        int rc = check_shape(shapes[i].nrow, shapes[i].nvar,
                             shapes[i].neles);
        if (rc)
            return rc;
        frx_matrix m = {.be = be, .nrow = shapes[i].nrow,
                        .nvar = shapes[i].nvar, .neles = shapes[i].neles};
        layout_of(be, &shapes[i], whole, &m);
        total = round_up(total, be->info.alignment) +
                stored_values(&m) * be->fpsize;
    }
    struct frx_alloc *a = alloc_new(be, total);
    if (!a)
        return FRX_ENOMEM;

    size_t offset = 0;
    for (size_t i = 0; i < count; i++) {
        frx_matrix *m = frx__calloc(1, sizeof *m, "a matrix");
        if (!m) {
            while (i--)
                frx_matrix_destroy(out[i]);
            frx__alloc_release(a);
            return FRX_ENOMEM;
        }
        offset = round_up(offset, be->info.alignment);
        *m = (frx_matrix){.tag = FRX__TAG_MATRIX, .be = be, .alloc = a,
                          .offset = offset,
                          .nrow = shapes[i].nrow, .nvar = shapes[i].nvar,
                          .neles = shapes[i].neles, .refs = 1};
        layout_of(be, &shapes[i], whole, m);
        m->eend = m->neles;
        offset += stored_values(m) * be->fpsize;
        a->refs++;
        out[i] = m;
    }
    frx__alloc_release(a); /* the matrices hold it now */
    return FRX_OK;
}

int frx_matrix_create_group(frx_backend *be, size_t count,
                            const frx_matrix_shape *shapes, frx_matrix **out)
{
    return create_group(be, count, shapes, 0, out);
}

int frx_matrix_create(frx_backend *be, size_t nrow, size_t nvar,
                      size_t neles, frx_matrix **out)
{
    frx_matrix_shape s = {nrow, nvar, neles};
    return frx_matrix_create_group(be, 1, &s, out);
}

/* Bytes from the matrix start to the end of its last row's data. */
static size_t span_bytes(const frx_matrix *m)
{
    return (frx__matrix_index(m, m->nrow - 1, m->nvar - 1, m->neles - 1) +
            1) * m->be->fpsize;
}

void frx__matrix_range(const frx_matrix *m, size_t *lo, size_t *hi)
{
    *lo = m->offset / m->be->fpsize;
    *hi = *lo + span_bytes(m) / m->be->fpsize;
}

int frx__refuse_const(const struct frx_alloc *a, const char *what)
{
    if (!a->is_const)
        return FRX_OK;
    return frx_error(FRX_EINVAL, "%s: the matrix is a const matrix (or a "
                     "slice or view of one), which is never written: equal "
                     "const matrices are one matrix, so a write would change "
                     "every one of them; use frx_matrix_create for data that "
                     "changes", what);
}

int frx_matrix_write(frx_matrix *m, const void *host)
{
    if (!m || !host)
        return frx_error(FRX_EINVAL, "frx_matrix_write: NULL argument");
    int rc = frx__refuse_const(m->alloc, "frx_matrix_write");
    if (rc)
        return rc;
    return matrix_store(m, host);
}

/* The write itself, also for filling a new const matrix. */
static int matrix_store(frx_matrix *m, const void *host)
{
    const frx_backend *be = m->be;
    size_t fs = be->fpsize, span = span_bytes(m);
    unsigned char *buf = frx__calloc(span, 1, "a matrix staging buffer");
    if (!buf)
        return FRX_ENOMEM;
    int rc = FRX_OK;
    /* A slice shares its last chunk with its parent's next elements:
     * read what is there so the write leaves them alone. */
    if (m->parent)
        rc = be->ops->mem_read(be->state, m->alloc->mem, m->offset, buf,
                               span);
    const unsigned char *src = host;
    for (size_t r = 0; rc == FRX_OK && r < m->nrow; r++)
        for (size_t v = 0; v < m->nvar; v++)
            for (size_t e = 0; e < m->neles; e++) {
                size_t d = frx__matrix_index(m, r, v, e);
                memcpy(buf + d * fs, src + ((r * m->nvar + v) * m->neles + e) * fs,
                       fs);
            }
    if (rc == FRX_OK)
        rc = be->ops->mem_write(be->state, m->alloc->mem, m->offset, buf,
                                span);
    free(buf);
    return rc;
}

int frx_matrix_read(const frx_matrix *m, void *host)
{
    if (!m || !host)
        return frx_error(FRX_EINVAL, "frx_matrix_read: NULL argument");
    const frx_backend *be = m->be;
    size_t fs = be->fpsize, span = span_bytes(m);
    unsigned char *buf = frx__calloc(span, 1, "a matrix staging buffer");
    if (!buf)
        return FRX_ENOMEM;
    int rc = be->ops->mem_read(be->state, m->alloc->mem, m->offset, buf,
                               span);
    unsigned char *dst = host;
    for (size_t r = 0; rc == FRX_OK && r < m->nrow; r++)
        for (size_t v = 0; v < m->nvar; v++)
            for (size_t e = 0; e < m->neles; e++) {
                size_t s = frx__matrix_index(m, r, v, e);
                memcpy(dst + ((r * m->nvar + v) * m->neles + e) * fs,
                       buf + s * fs, fs);
            }
    free(buf);
    return rc;
}

/* A new matrix sharing m's storage, its layout m's until the caller
 * narrows it; it holds m (and m's allocation) while it lives. */
static frx_matrix *child_of(frx_matrix *m)
{
    frx_matrix *s = frx__calloc(1, sizeof *s, "a matrix slice");
    if (!s)
        return NULL;
    *s = *m;
    s->refs = 1;
    s->parent = m;
    s->is_const = 0;
    m->refs++;
    m->alloc->refs++;
    return s;
}

int frx_matrix_slice(frx_matrix *m, size_t e0, size_t e1, frx_matrix **out)
{
    if (!m || !out)
        return frx_error(FRX_EINVAL, "frx_matrix_slice: NULL argument");
    size_t soasz = m->be->info.soasz;
    if (e0 >= e1 || e1 > m->neles)
        return frx_error(FRX_ERANGE,
                         "slice [%zu, %zu) of a matrix with %zu elements: "
                         "need e0 < e1 <= %zu", e0, e1, m->neles, m->neles);
    if (m->strided)
        return frx_error(FRX_EINVAL, "frx_matrix_slice: the matrix is "
                         "pieces of parts (frx_matrix_slice_parts), whose "
                         "elements are not one run of its root's: slice "
                         "the root");
    if (e0 % soasz)
        return frx_error(FRX_EALIGN,
                         "slice [%zu, %zu) starts at element %zu, which is "
                         "not a multiple of backend '%s''s chunk width %zu: "
                         "start slices at a multiple of %zu",
                         e0, e1, e0, m->be->name, soasz, soasz);
    frx_matrix *s = child_of(m);
    if (!s)
        return FRX_ENOMEM;
    size_t c = m->c0 + e0 / soasz, fs = m->be->fpsize;
    size_t chunks = (e1 - e0 + soasz - 1) / soasz;
    if (m->pc) { /* from the start of the part of e0 */
        s->offset = m->offset + c / m->pc * m->ps * fs;
        s->c0 = c % m->pc;
        if (s->c0 + chunks <= m->pc) { /* within it: one part */
            s->offset += s->c0 * soasz * m->nvar * fs;
            s->pc = s->ps = s->c0 = 0;
        }
    } else {
        s->offset = m->offset + e0 * m->nvar * fs;
    }
    s->neles = e1 - e0;
    s->eend = m->eend - m->neles + e1;
    *out = s;
    return FRX_OK;
}

int frx_matrix_slice_parts(frx_matrix *m, size_t k0, size_t k1,
                           frx_matrix **out)
{
    if (!m || !out)
        return frx_error(FRX_EINVAL, "frx_matrix_slice_parts: NULL argument");
    size_t S = m->be->info.soasz, fs = m->be->fpsize;
    size_t P = m->pc ? m->pc * S : m->neles; /* elements a part */
    if (m->parent || m->c0)
        return frx_error(FRX_EINVAL, "frx_matrix_slice_parts: the matrix is "
                         "a slice: take pieces of a whole matrix's parts");
    if (k0 >= k1 || k1 > P || k0 % S || (k1 % S && k1 != P))
        return frx_error(FRX_ERANGE, "frx_matrix_slice_parts: elements [%zu, "
                         "%zu) of each part of %zu: need k0 < k1 <= %zu, k0 "
                         "a multiple of the chunk width %zu, and k1 too "
                         "unless it is %zu", k0, k1, P, P, S, P);
    if (!m->pc)
        return frx_matrix_slice(m, k0, k1 < m->neles ? k1 : m->neles, out);
    /* the parts whose piece is not empty (only the last part is short) */
    size_t np = (m->neles - k0 + P - 1) / P, last = np - 1;
    size_t last_len = m->neles - last * P - k0;
    if (last_len > k1 - k0)
        last_len = k1 - k0;
    frx_matrix *s = child_of(m);
    if (!s)
        return FRX_ENOMEM;
    s->offset = m->offset + k0 / S * S * m->nvar * fs;
    s->pc = (k1 - k0 + S - 1) / S;
    s->neles = last * (k1 - k0) + last_len;
    s->eend = last * P + k0 + last_len;
    s->strided = 1;
    *out = s;
    return FRX_OK;
}

/* ----------------------------------------------------- const matrices */

static uint64_t fnv1a(const void *p, size_t n, uint64_t h)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

int frx_matrix_create_const(frx_backend *be, size_t nrow, size_t ncol,
                            const double *data, frx_matrix **out)
{
    if (!be || !data || !out)
        return frx_error(FRX_EINVAL, "frx_matrix_create_const: NULL argument");
    int rc = check_shape(nrow, 1, ncol);
    if (rc)
        return rc;
    size_t count = nrow * ncol;
    /* an operator's values: NaN or Inf (or, in single precision, past
     * float's range) would be compiled into code as no literal, or read
     * by a library as something else */
    for (size_t i = 0; i < count; i++)
        if (!isfinite(data[i]) ||
            (be->precision == FRX_SINGLE && fabs(data[i]) > FLT_MAX))
            return frx_error(FRX_ERANGE, "frx_matrix_create_const: the value "
                             "at row %zu, column %zu is %g%s: an operator's "
                             "values are finite numbers", i / ncol, i % ncol,
                             data[i], isfinite(data[i]) ? ", past single "
                             "precision's range" : "");
    uint64_t h = fnv1a(&nrow, sizeof nrow, 0xcbf29ce484222325ull);
    h = fnv1a(&ncol, sizeof ncol, h);
    h = fnv1a(data, count * sizeof *data, h);
    for (struct frx_const_entry *c = be->consts; c; c = c->next)
        if (c->hash == h && c->nrow == nrow && c->ncol == ncol &&
            memcmp(c->data, data, count * sizeof *data) == 0) {
            c->m->refs++;
            *out = c->m;
            return FRX_OK;
        }

    struct frx_const_entry *c = frx__calloc(1, sizeof *c, "a const entry");
    double *copy = frx__calloc(count, sizeof *copy, "const matrix data");
    void *host = frx__calloc(count, be->fpsize, "const matrix data");
    rc = c && copy && host ? FRX_OK : FRX_ENOMEM;
    /* A const matrix is nrow x 1 x ncol: with one variable the AoSoA
     * index is plain row-major (in one part). */
    frx_matrix_shape shape = {nrow, 1, ncol};
    if (rc == FRX_OK)
        rc = create_group(be, 1, &shape, 1, &c->m);
    if (rc == FRX_OK) {
        memcpy(copy, data, count * sizeof *data);
        for (size_t i = 0; i < count; i++) {
            if (be->fpsize == 4)
                ((float *)host)[i] = (float)data[i];
            else
                ((double *)host)[i] = data[i];
        }
        rc = matrix_store(c->m, host);
        if (rc)
            frx_matrix_destroy(c->m);
    }
    free(host);
    if (rc) {
        free(copy);
        free(c);
        return rc;
    }
    c->m->is_const = 1;
    c->m->alloc->is_const = 1;
    c->hash = h;
    c->nrow = nrow;
    c->ncol = ncol;
    c->data = copy;
    c->next = be->consts;
    be->consts = c;
    *out = c->m;
    return FRX_OK;
}

const double *frx__const_values(const frx_matrix *m)
{
    for (const struct frx_const_entry *c = m->be->consts; c; c = c->next)
        if (c->m == m)
            return c->data;
    return NULL;
}

const char *frx__const_sha256(const frx_matrix *m)
{
    for (struct frx_const_entry *c = m->be->consts; c; c = c->next)
        if (c->m == m) {
            if (!c->sha[0]) /* once: products of the same operator ask
                             * again for every stretch of elements */
                frx_sha256_hex(c->data, c->nrow * c->ncol * sizeof *c->data,
                               c->sha);
            return c->sha;
        }
    return NULL;
}

static void const_forget(frx_matrix *m)
{
    for (struct frx_const_entry **p = &m->be->consts; *p; p = &(*p)->next)
        if ((*p)->m == m) {
            struct frx_const_entry *c = *p;
            *p = c->next;
            free(c->data);
            free(c);
            return;
        }
}

void frx_matrix_destroy(frx_matrix *m)
{
    if (!m || --m->refs > 0)
        return;
    if (m->is_const)
        const_forget(m);
    frx__alloc_release(m->alloc);
    if (m->parent)
        frx_matrix_destroy(m->parent);
    free(m);
}

size_t frx_matrix_nrow(const frx_matrix *m) { return m->nrow; }
size_t frx_matrix_nvar(const frx_matrix *m) { return m->nvar; }
size_t frx_matrix_neles(const frx_matrix *m) { return m->neles; }
size_t frx_matrix_leaddim(const frx_matrix *m) { return m->leaddim; }
size_t frx_matrix_part_chunks(const frx_matrix *m) { return m->pc; }
