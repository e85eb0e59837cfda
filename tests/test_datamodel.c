/* SPDX-License-Identifier: BSD-3-Clause */
/* Conformance: matrices, slices, const matrices, views, xchg matrices,
 * pack/unpack and snapshots, against plain C references. Run once per
 * backend (argv[1]) in both precisions; exits 77 when the backend cannot
 * start here. */
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static frx_backend *be;

/* Host mirror of a matrix in the logical layout [nrow][nvar][neles]. */
struct hmat {
    frx_matrix *m;
    size_t nrow, nvar, neles;
    void *h;
};

static size_t hidx(const struct hmat *a, size_t r, size_t v, size_t e)
{
    return (r * a->nvar + v) * a->neles + e;
}

static void fill(struct hmat *a, uint64_t *rng)
{
    size_t count = a->nrow * a->nvar * a->neles;
    a->h = tu_alloc(be, count);
    for (size_t i = 0; i < count; i++)
        tu_put(be, a->h, i, tu_value(rng));
    ck_assert_int_eq(frx_matrix_write(a->m, a->h), FRX_OK);
}

static void make_group(struct hmat *a, size_t count, uint64_t *rng)
{
    frx_matrix_shape s[4] = {{0, 0, 0}};
    frx_matrix *m[4];
    for (size_t k = 0; k < count; k++)
        s[k] = (frx_matrix_shape){a[k].nrow, a[k].nvar, a[k].neles};
    ck_assert_int_eq(frx_matrix_create_group(be, count, s, m), FRX_OK);
    for (size_t k = 0; k < count; k++) {
        a[k].m = m[k];
        fill(&a[k], rng);
    }
}

static void free_group(struct hmat *a, size_t count)
{
    for (size_t k = 0; k < count; k++) {
        frx_matrix_destroy(a[k].m);
        free(a[k].h);
    }
}

/* ------------------------------------------------------------ matrices */

START_TEST(matrix_layout_and_roundtrip)
{
    uint64_t rng = 1;
    struct hmat a = {.nrow = 5, .nvar = 3, .neles = 37};
    make_group(&a, 1, &rng);
    size_t soasz = frx_backend_soasz(be), ld = frx_matrix_leaddim(a.m);
    size_t per_align = frx_backend_alignment(be) / frx_backend_fpsize(be);
    ck_assert_uint_eq(ld % per_align, 0);
    size_t pc = frx_matrix_part_chunks(a.m); /* 0: one part */
    ck_assert_uint_ge(ld, 3 * (pc ? pc : (37 + soasz - 1) / soasz) * soasz);
    /* FRX_TEST_OPENMP_PARTS=3: 5 chunks (37 elements of 8) in parts of 2 */
    const char *parts = getenv("FRX_TEST_OPENMP_PARTS");
    if (parts && atoi(parts) == 3 && !strcmp(frx_backend_name(be), "openmp"))
        ck_assert_uint_eq(pc, (36 / soasz + 1 + 2) / 3);

    void *back = tu_alloc(be, 5 * 3 * 37);
    ck_assert_int_eq(frx_matrix_read(a.m, back), FRX_OK);
    ck_assert_mem_eq(back, a.h, 5 * 3 * 37 * frx_backend_fpsize(be));
    free(back);
    free_group(&a, 1);
}
END_TEST

START_TEST(matrix_group_members_do_not_overlap)
{
    uint64_t rng = 2;
    struct hmat a[3] = {{.nrow = 3, .nvar = 2, .neles = 17},
                        {.nrow = 1, .nvar = 5, .neles = 9},
                        {.nrow = 4, .nvar = 1, .neles = 33}};
    make_group(a, 3, &rng);
    for (size_t k = 0; k < 3; k++) {
        size_t count = a[k].nrow * a[k].nvar * a[k].neles;
        void *back = tu_alloc(be, count);
        ck_assert_int_eq(frx_matrix_read(a[k].m, back), FRX_OK);
        ck_assert_mem_eq(back, a[k].h, count * frx_backend_fpsize(be));
        free(back);
    }
    free_group(a, 3);
}
END_TEST

START_TEST(matrix_bad_shape_refused)
{
    frx_matrix *m;
    ck_assert_int_eq(frx_matrix_create(be, 0, 2, 3, &m), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "at least 1"));
}
END_TEST

START_TEST(slice_aligned_writes_only_its_elements)
{
    uint64_t rng = 3;
    size_t soasz = frx_backend_soasz(be);
    struct hmat a = {.nrow = 2, .nvar = 3, .neles = 5 * soasz + 3};
    make_group(&a, 1, &rng);
    size_t e0 = soasz, e1 = 3 * soasz + 5, ns = e1 - e0;
    frx_matrix *s;
    ck_assert_int_eq(frx_matrix_slice(a.m, e0, e1, &s), FRX_OK);
    ck_assert_uint_eq(frx_matrix_neles(s), ns);

    void *sh = tu_alloc(be, 2 * 3 * ns);
    for (size_t i = 0; i < 2 * 3 * ns; i++)
        tu_put(be, sh, i, tu_value(&rng));
    ck_assert_int_eq(frx_matrix_write(s, sh), FRX_OK);

    void *back = tu_alloc(be, 2 * 3 * a.neles);
    ck_assert_int_eq(frx_matrix_read(a.m, back), FRX_OK);
    for (size_t r = 0; r < 2; r++)
        for (size_t v = 0; v < 3; v++)
            for (size_t e = 0; e < a.neles; e++) {
                double want = e >= e0 && e < e1
                    ? tu_get(be, sh, (r * 3 + v) * ns + (e - e0))
                    : tu_get(be, a.h, hidx(&a, r, v, e));
                ck_assert_double_eq(tu_get(be, back, hidx(&a, r, v, e)), want);
            }
    frx_matrix_destroy(s);
    free(sh);
    free(back);
    free_group(&a, 1);
}
END_TEST

/* frx_matrix_slice_parts: elements [k0, k1) of every part, in part
 * order, read and written where they are; the rest left alone. On a
 * matrix of one part, the slice [k0, k1). */
START_TEST(slice_parts_reads_and_writes_each_part)
{
    uint64_t rng = 4;
    size_t S = frx_backend_soasz(be);
    struct hmat a = {.nrow = 2, .nvar = 3, .neles = 7 * S + 3};
    make_group(&a, 1, &rng);
    size_t pc = frx_matrix_part_chunks(a.m);
    size_t P = pc ? pc * S : a.neles, k0 = pc > 1 ? S : 0;
    size_t k1 = pc > 1 ? 2 * S : S; /* a chunk of each part */
    frx_matrix *s;
    ck_assert_int_eq(frx_matrix_slice_parts(a.m, k0, k1, &s), FRX_OK);
    size_t *at = malloc(a.neles * sizeof *at), ns = 0; /* its elements */
    for (size_t p0 = 0; p0 + k0 < a.neles; p0 += P)
        for (size_t e = p0 + k0; e < p0 + k1 && e < a.neles; e++)
            at[ns++] = e;
    ck_assert_uint_eq(frx_matrix_neles(s), ns);
    void *got = tu_alloc(be, 2 * 3 * ns);
    ck_assert_int_eq(frx_matrix_read(s, got), FRX_OK);
    for (size_t r = 0; r < 2; r++)
        for (size_t v = 0; v < 3; v++)
            for (size_t i = 0; i < ns; i++)
                ck_assert_double_eq(tu_get(be, got, (r * 3 + v) * ns + i),
                                    tu_get(be, a.h, hidx(&a, r, v, at[i])));
    for (size_t i = 0; i < 2 * 3 * ns; i++)
        tu_put(be, got, i, tu_value(&rng));
    ck_assert_int_eq(frx_matrix_write(s, got), FRX_OK);
    void *back = tu_alloc(be, 2 * 3 * a.neles);
    ck_assert_int_eq(frx_matrix_read(a.m, back), FRX_OK);
    for (size_t r = 0; r < 2; r++)
        for (size_t v = 0; v < 3; v++)
            for (size_t e = 0, i = 0; e < a.neles; e++) {
                double want = i < ns && at[i] == e
                    ? tu_get(be, got, (r * 3 + v) * ns + i++)
                    : tu_get(be, a.h, hidx(&a, r, v, e));
                ck_assert_double_eq(tu_get(be, back, hidx(&a, r, v, e)), want);
            }
    /* pieces of parts are not sliced again (one part: a plain slice);
     * no pieces of a slice, past a part, or mid-chunk */
    frx_matrix *t;
    if (pc)
        ck_assert_int_eq(frx_matrix_slice(s, 0, S, &t), FRX_EINVAL);
    ck_assert_int_eq(frx_matrix_slice_parts(s, 0, S, &t), FRX_EINVAL);
    ck_assert_int_eq(frx_matrix_slice_parts(a.m, 0, P + S, &t), FRX_ERANGE);
    ck_assert_int_eq(frx_matrix_slice_parts(a.m, 1, S, &t), FRX_ERANGE);
    frx_matrix_destroy(s);
    free(at), free(got), free(back);
    free_group(&a, 1);
}
END_TEST

START_TEST(slice_misaligned_refused)
{
    size_t soasz = frx_backend_soasz(be);
    frx_matrix *m, *s;
    ck_assert_int_eq(frx_matrix_create(be, 1, 2, 4 * soasz, &m), FRX_OK);
    ck_assert_int_eq(frx_matrix_slice(m, soasz + 1, 2 * soasz, &s),
                     FRX_EALIGN);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "chunk width"));
    ck_assert_int_eq(frx_matrix_slice(m, 0, 4 * soasz + 1, &s), FRX_ERANGE);
    frx_matrix_destroy(m);
}
END_TEST

/* An operator's values are finite numbers, in single precision within
 * float's range: NaN, Inf or 1e39 would be compiled into no literal or
 * read by a library as something else. */
START_TEST(const_matrices_refuse_nonfinite_values)
{
    double a[6] = {1, 2, 3, 4, 5, 6};
    const double bad[] = {NAN, INFINITY, -INFINITY};
    frx_matrix *m = NULL;
    for (size_t i = 0; i < 3; i++) {
        a[4] = bad[i];
        ck_assert_int_eq(frx_matrix_create_const(be, 2, 3, a, &m),
                         FRX_ERANGE);
        ck_assert_msg(strstr(frx_errmsg(), "the value at row 1, column 1 "
                             "is"), "%s", frx_errmsg());
    }
    a[4] = 1e39;
    int single = frx_backend_fpsize(be) == 4;
    ck_assert_int_eq(frx_matrix_create_const(be, 2, 3, a, &m),
                     single ? FRX_ERANGE : FRX_OK);
    if (single)
        ck_assert_ptr_nonnull(strstr(frx_errmsg(), "past single "
                                     "precision's range"));
    else
        frx_matrix_destroy(m);
}
END_TEST

START_TEST(const_matrices_deduplicated)
{
    double a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 2, 3, 4, 5, 7};
    frx_matrix *m1, *m2, *m3, *m4;
    ck_assert_int_eq(frx_matrix_create_const(be, 2, 3, a, &m1), FRX_OK);
    ck_assert_int_eq(frx_matrix_create_const(be, 2, 3, a, &m2), FRX_OK);
    ck_assert_ptr_eq(m1, m2);
    ck_assert_int_eq(frx_matrix_create_const(be, 2, 3, b, &m3), FRX_OK);
    ck_assert_ptr_ne(m1, m3);
    ck_assert_int_eq(frx_matrix_create_const(be, 3, 2, a, &m4), FRX_OK);
    ck_assert_ptr_ne(m1, m4); /* same bytes, other shape */

    void *back = tu_alloc(be, 6);
    ck_assert_int_eq(frx_matrix_read(m3, back), FRX_OK);
    for (size_t i = 0; i < 6; i++)
        ck_assert_double_eq(tu_get(be, back, i), b[i]);
    free(back);
    frx_matrix_destroy(m1);
    frx_matrix_destroy(m2);
    frx_matrix_destroy(m3);
    frx_matrix_destroy(m4);
    /* All released: a new one works and reads back its data. */
    ck_assert_int_eq(frx_matrix_create_const(be, 2, 3, a, &m1), FRX_OK);
    back = tu_alloc(be, 6);
    ck_assert_int_eq(frx_matrix_read(m1, back), FRX_OK);
    ck_assert_double_eq(tu_get(be, back, 5), 6.0);
    free(back);
    frx_matrix_destroy(m1);
}
END_TEST

/* ----------------------------------------------------------- pack/unpack */

struct points {
    size_t n, nvrow, nvcol;
    frx_matrix **mats;
    size_t *which, *rows, *eles, *rs;
};

static void points_free(struct points *p)
{
    free(p->mats), free(p->which), free(p->rows), free(p->eles), free(p->rs);
}

static void points_alloc(struct points *p)
{
    p->mats = calloc(p->n, sizeof *p->mats);
    p->which = calloc(p->n, sizeof *p->which);
    p->rows = calloc(p->n, sizeof *p->rows);
    p->eles = calloc(p->n, sizeof *p->eles);
    p->rs = calloc(p->n, sizeof *p->rs);
    ck_assert(p->mats && p->which && p->rows && p->eles && p->rs);
}

/* Random points (repeats allowed) across the matrices of a group. */
static void random_points(struct points *p, struct hmat *a, size_t na,
                          uint64_t *rng)
{
    points_alloc(p);
    for (size_t i = 0; i < p->n; i++) {
        size_t k = tu_below(rng, na);
        p->which[i] = k;
        p->mats[i] = a[k].m;
        p->eles[i] = tu_below(rng, a[k].neles);
        p->rs[i] = p->nvrow > 1 ? 1 + tu_below(rng, 2) : 0;
        p->rows[i] = tu_below(rng, a[k].nrow - (p->nvrow - 1) * p->rs[i]);
    }
}

static double ref_value(const struct points *p, const struct hmat *a,
                        size_t i, size_t r, size_t c)
{
    const struct hmat *m = &a[p->which[i]];
    return tu_get(be, m->h, hidx(m, p->rows[i] + r * p->rs[i], c, p->eles[i]));
}

static void check_pack(const struct points *p, struct hmat *a)
{
    frx_view *v;
    frx_xchg_view *xv;
    ck_assert_int_eq(frx_view_create(be, p->n, p->mats, p->rows, p->eles,
                                     p->rs, p->nvrow, p->nvcol, &v),
                     FRX_OK);
    ck_assert_int_eq(frx_xchg_view_create(v, &xv), FRX_OK);
    ck_assert_int_eq(frx_xchg_view_pack(xv), FRX_OK);
    frx_xchg_matrix *xm = frx_xchg_view_matrix(xv);
    ck_assert_uint_eq(frx_xchg_matrix_bytes(xm),
                      p->n * p->nvrow * p->nvcol * frx_backend_fpsize(be));
    void *x = tu_alloc(be, p->n * p->nvrow * p->nvcol);
    ck_assert_int_eq(frx_xchg_matrix_read(xm, x), FRX_OK);
    for (size_t r = 0; r < p->nvrow; r++)
        for (size_t c = 0; c < p->nvcol; c++)
            for (size_t i = 0; i < p->n; i++)
                ck_assert_msg(tu_get(be, x, (r * p->nvcol + c) * p->n + i) ==
                                  ref_value(p, a, i, r, c),
                              "point %zu value (%zu, %zu) differs", i, r, c);
    /* The host mirror agrees once copied to the host. */
    ck_assert_int_eq(frx_xchg_matrix_to_host(xm), FRX_OK);
    ck_assert_mem_eq(frx_xchg_matrix_host(xm), x, frx_xchg_matrix_bytes(xm));
    free(x);
    frx_xchg_view_destroy(xv);
    frx_view_destroy(v);
}

static void pack_random_shape(size_t nvrow, size_t nvcol, uint64_t seed)
{
    uint64_t rng = seed;
    struct hmat a[2] = {{.nrow = 7, .nvar = 5, .neles = 45},
                        {.nrow = 9, .nvar = 6, .neles = 13}};
    make_group(a, 2, &rng);
    struct points p = {.n = 101, .nvrow = nvrow, .nvcol = nvcol};
    random_points(&p, a, 2, &rng);
    check_pack(&p, a);
    points_free(&p);
    free_group(a, 2);
}

START_TEST(pack_scalar_view) { pack_random_shape(1, 1, 11); }
END_TEST
START_TEST(pack_vector_view) { pack_random_shape(1, 4, 12); }
END_TEST
START_TEST(pack_ndims_nvars_view) { pack_random_shape(3, 5, 13); }
END_TEST

/* Points in element order: the block-copy path. */
START_TEST(pack_contiguous_views)
{
    uint64_t rng = 14;
    for (size_t nvar = 1; nvar <= 3; nvar += 2) {
        struct hmat a = {.nrow = 2, .nvar = nvar, .neles = 5003};
        make_group(&a, 1, &rng);
        struct points p = {.n = a.neles, .nvrow = 1, .nvcol = nvar};
        points_alloc(&p);
        for (size_t i = 0; i < p.n; i++) {
            p.mats[i] = a.m;
            p.rows[i] = 1;
            p.eles[i] = i;
        }
        check_pack(&p, &a);
        points_free(&p);
        free_group(&a, 1);
    }
}
END_TEST

/* Scatter random packed values to distinct points; everything else in
 * the matrices must stay as it was. */
static void unpack_case(size_t nvrow, size_t nvcol, int in_order,
                        uint64_t seed)
{
    uint64_t rng = seed;
    struct hmat a[2] = {{.nrow = 6, .nvar = 4, .neles = 29},
                        {.nrow = 5, .nvar = 5, .neles = 23}};
    make_group(a, 2, &rng);
    struct points p = {.n = a[0].neles + a[1].neles, .nvrow = nvrow,
                       .nvcol = nvcol};
    points_alloc(&p);
    for (size_t i = 0; i < p.n; i++) {
        size_t k = i < a[0].neles ? 0 : 1;
        p.which[i] = k;
        p.mats[i] = a[k].m;
        p.eles[i] = k ? i - a[0].neles : i;
        p.rows[i] = 1;
        p.rs[i] = nvrow > 1 ? 2 : 0;
    }
    for (size_t i = p.n - 1; !in_order && i > 0; i--) { /* shuffle */
        size_t j = tu_below(&rng, i + 1);
        size_t w = p.which[i], e = p.eles[i];
        p.which[i] = p.which[j], p.eles[i] = p.eles[j];
        p.which[j] = w, p.eles[j] = e;
        p.mats[i] = a[p.which[i]].m, p.mats[j] = a[p.which[j]].m;
    }
    frx_view *v;
    frx_xchg_view *xv;
    ck_assert_int_eq(frx_view_create(be, p.n, p.mats, p.rows, p.eles, p.rs,
                                     nvrow, nvcol, &v), FRX_OK);
    ck_assert_int_eq(frx_xchg_view_create(v, &xv), FRX_OK);
    size_t nx = p.n * nvrow * nvcol;
    void *x = tu_alloc(be, nx);
    for (size_t i = 0; i < nx; i++)
        tu_put(be, x, i, tu_value(&rng));
    ck_assert_int_eq(frx_xchg_matrix_write(frx_xchg_view_matrix(xv), x),
                     FRX_OK);
    ck_assert_int_eq(frx_xchg_view_unpack(xv), FRX_OK);

    for (size_t i = 0; i < p.n; i++) /* the reference scatter */
        for (size_t r = 0; r < nvrow; r++)
            for (size_t c = 0; c < nvcol; c++) {
                struct hmat *m = &a[p.which[i]];
                tu_put(be, m->h, hidx(m, p.rows[i] + r * p.rs[i], c, p.eles[i]),
                       tu_get(be, x, (r * nvcol + c) * p.n + i));
            }
    for (size_t k = 0; k < 2; k++) {
        size_t count = a[k].nrow * a[k].nvar * a[k].neles;
        void *back = tu_alloc(be, count);
        ck_assert_int_eq(frx_matrix_read(a[k].m, back), FRX_OK);
        ck_assert_mem_eq(back, a[k].h, count * frx_backend_fpsize(be));
        free(back);
    }
    free(x);
    frx_xchg_view_destroy(xv);
    frx_view_destroy(v);
    points_free(&p);
    free_group(a, 2);
}

START_TEST(unpack_scalar_shuffled) { unpack_case(1, 1, 0, 21); }
END_TEST
START_TEST(unpack_vector_shuffled) { unpack_case(1, 3, 0, 22); }
END_TEST
START_TEST(unpack_ndims_nvars_shuffled) { unpack_case(2, 4, 0, 23); }
END_TEST
START_TEST(unpack_vector_in_order) { unpack_case(1, 4, 1, 24); }
END_TEST

START_TEST(snapshot_keeps_values_at_its_time)
{
    uint64_t rng = 31;
    struct hmat a = {.nrow = 4, .nvar = 4, .neles = 19};
    make_group(&a, 1, &rng);
    struct points p = {.n = 33, .nvrow = 1, .nvcol = 4};
    random_points(&p, &a, 1, &rng);
    frx_view *v;
    frx_xchg_view *xv;
    frx_xchg_matrix *base;
    ck_assert_int_eq(frx_view_create(be, p.n, p.mats, p.rows, p.eles, NULL,
                                     1, 4, &v), FRX_OK);
    ck_assert_int_eq(frx_xchg_view_create(v, &xv), FRX_OK);
    ck_assert_int_eq(frx_xchg_view_snapshot(xv, &base), FRX_OK);
    ck_assert_ptr_ne(base, frx_xchg_view_matrix(xv));

    void *old = a.h; /* change the matrix after the snapshot */
    fill(&a, &rng);
    ck_assert_int_eq(frx_xchg_view_pack(xv), FRX_OK);
    void *snap = tu_alloc(be, p.n * 4), *live = tu_alloc(be, p.n * 4);
    ck_assert_int_eq(frx_xchg_matrix_read(base, snap), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_read(frx_xchg_view_matrix(xv), live),
                     FRX_OK);
    struct hmat was = a;
    was.h = old;
    for (size_t c = 0; c < 4; c++)
        for (size_t i = 0; i < p.n; i++) {
            ck_assert_double_eq(tu_get(be, snap, c * p.n + i),
                                ref_value(&p, &was, i, 0, c));
            ck_assert_double_eq(tu_get(be, live, c * p.n + i),
                                ref_value(&p, &a, i, 0, c));
        }
    free(old), free(snap), free(live);
    frx_xchg_matrix_destroy(base);
    frx_xchg_view_destroy(xv);
    frx_view_destroy(v);
    points_free(&p);
    free_group(&a, 1);
}
END_TEST

/* ------------------------------------------------------- view errors */

START_TEST(view_across_allocations_refused)
{
    frx_matrix *m1, *m2;
    ck_assert_int_eq(frx_matrix_create(be, 2, 2, 8, &m1), FRX_OK);
    ck_assert_int_eq(frx_matrix_create(be, 2, 2, 8, &m2), FRX_OK);
    frx_matrix *mats[2] = {m1, m2};
    size_t rows[2] = {0, 0}, eles[2] = {0, 1};
    frx_view *v;
    ck_assert_int_eq(frx_view_create(be, 2, mats, rows, eles, NULL, 1, 2, &v),
                     FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "view point 1"));
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "frx_matrix_create_group"));
    frx_matrix_destroy(m1);
    frx_matrix_destroy(m2);
}
END_TEST

START_TEST(view_out_of_range_refused)
{
    frx_matrix *m;
    ck_assert_int_eq(frx_matrix_create(be, 3, 2, 8, &m), FRX_OK);
    frx_matrix *mats[2] = {m, m};
    size_t rows[2] = {0, 1}, eles[2] = {7, 8}, rs[2] = {1, 1};
    frx_view *v;
    ck_assert_int_eq(frx_view_create(be, 2, mats, rows, eles, NULL, 1, 2, &v),
                     FRX_ERANGE);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "view point 1: element 8"));
    eles[1] = 0;
    ck_assert_int_eq(frx_view_create(be, 2, mats, rows, eles, rs, 3, 2, &v),
                     FRX_ERANGE);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "rows"));
    ck_assert_int_eq(frx_view_create(be, 2, mats, rows, eles, NULL, 1, 3, &v),
                     FRX_ESHAPE);
    frx_matrix_destroy(m);
}
END_TEST

START_TEST(xchg_matrix_roundtrip)
{
    uint64_t rng = 41;
    frx_xchg_matrix *xm;
    ck_assert_int_eq(frx_xchg_matrix_create(be, 77, 2, 3, &xm), FRX_OK);
    void *x = tu_alloc(be, 77 * 6), *y = tu_alloc(be, 77 * 6);
    for (size_t i = 0; i < 77 * 6; i++)
        tu_put(be, x, i, tu_value(&rng));
    ck_assert_int_eq(frx_xchg_matrix_write(xm, x), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_read(xm, y), FRX_OK);
    ck_assert_mem_eq(x, y, 77 * 6 * frx_backend_fpsize(be));
    ck_assert_int_eq(frx_xchg_matrix_to_host(xm), FRX_OK);
    ck_assert_mem_eq(frx_xchg_matrix_host(xm), x, 77 * 6 *
                     frx_backend_fpsize(be));
    free(x), free(y);
    frx_xchg_matrix_destroy(xm);
}
END_TEST

/* Doubles in and out whatever the precision: each value comes back as
 * the backend holds it (rounded to float in single precision), the
 * plain read agrees, and a value past float range is refused there. */
START_TEST(double_pairs_convert)
{
    uint64_t rng = 43;
    size_t n = 5 * 3 * 37;
    frx_matrix *m;
    frx_xchg_matrix *xm;
    ck_assert_int_eq(frx_matrix_create(be, 5, 3, 37, &m), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_create(be, 37, 5, 3, &xm), FRX_OK);
    double *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    void *plain = tu_alloc(be, n);
    ck_assert(in && out);
    for (size_t i = 0; i < n; i++)
        in[i] = tu_value(&rng) * 1e3 + 1.0 / 3;
    int single = frx_backend_fpsize(be) == 4;
    for (int x = 0; x < 2; x++) {
        ck_assert_int_eq(x ? frx_xchg_matrix_write_double(xm, in)
                           : frx_matrix_write_double(m, in), FRX_OK);
        ck_assert_int_eq(x ? frx_xchg_matrix_read_double(xm, out)
                           : frx_matrix_read_double(m, out), FRX_OK);
        ck_assert_int_eq(x ? frx_xchg_matrix_read(xm, plain)
                           : frx_matrix_read(m, plain), FRX_OK);
        for (size_t i = 0; i < n; i++) {
            double want = single ? (double)(float)in[i] : in[i];
            tu_check(out[i] == want && tu_get(be, plain, i) == want,
                     "%s value %zu: %.17g and %.17g, want %.17g",
                     x ? "xchg" : "matrix", i, out[i], tu_get(be, plain, i),
                     want);
        }
    }
    in[7] = 1e39; /* past FLT_MAX */
    int rc = frx_matrix_write_double(m, in);
    if (single)
        ck_assert_msg(rc == FRX_ERANGE && strstr(frx_errmsg(), "value 7 is "
                      "1e+39, past what single precision holds"), "%s",
                      frx_errmsg());
    else
        ck_assert_int_eq(rc, FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_write_double(xm, in),
                     single ? FRX_ERANGE : FRX_OK);
    free(in), free(out), free(plain);
    frx_matrix_destroy(m);
    frx_xchg_matrix_destroy(xm);
}
END_TEST

static Suite *datamodel_suite(void)
{
    Suite *s = suite_create("datamodel");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, matrix_layout_and_roundtrip);
    tcase_add_test(tc, matrix_group_members_do_not_overlap);
    tcase_add_test(tc, matrix_bad_shape_refused);
    tcase_add_test(tc, slice_aligned_writes_only_its_elements);
    tcase_add_test(tc, slice_parts_reads_and_writes_each_part);
    tcase_add_test(tc, slice_misaligned_refused);
    tcase_add_test(tc, const_matrices_deduplicated);
    tcase_add_test(tc, const_matrices_refuse_nonfinite_values);
    tcase_add_test(tc, pack_scalar_view);
    tcase_add_test(tc, pack_vector_view);
    tcase_add_test(tc, pack_ndims_nvars_view);
    tcase_add_test(tc, pack_contiguous_views);
    tcase_add_test(tc, unpack_scalar_shuffled);
    tcase_add_test(tc, unpack_vector_shuffled);
    tcase_add_test(tc, unpack_ndims_nvars_shuffled);
    tcase_add_test(tc, unpack_vector_in_order);
    tcase_add_test(tc, snapshot_keeps_values_at_its_time);
    tcase_add_test(tc, view_across_allocations_refused);
    tcase_add_test(tc, view_out_of_range_refused);
    tcase_add_test(tc, xchg_matrix_roundtrip);
    tcase_add_test(tc, double_pairs_convert);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    return tu_run_per_precision(argc > 1 ? argv[1] : "openmp",
                                datamodel_suite, &be, NULL);
}
