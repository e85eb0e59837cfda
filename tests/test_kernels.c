/* SPDX-License-Identifier: BSD-3-Clause */
/* Conformance: pointwise kernels (every argument kind against plain C
 * references), binding checks, scalars bound after compile, the disk
 * cache across processes, and graphs. Run once per backend (argv[1]) in
 * both precisions; exits 77 when the backend cannot start here. */
#include "kernels.h"
#include "testutil.h"

#include <frx/plugin.h>

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static frx_backend *be;
static const char *backend_name, *precision, *self_exe;

static double tol(void) { return frx_backend_fpsize(be) == 4 ? 1e-5 : 1e-12; }

static void assert_close(double got, double want, const char *what, size_t i)
{
    ck_assert_msg(fabs(got - want) <= tol() * (1 + fabs(want)),
                  "%s[%zu]: got %.17g, want %.17g", what, i, got, want);
}

static void register_all(void)
{
    for (size_t i = 0; i < TK_COUNT; i++)
        ck_assert_int_eq(frx_kernel_register(be, tk_all[i]), FRX_OK);
    frx_kernel_register_macro(be, &tk_square_macro); /* once per backend */
}

/* A matrix (nrow, nvar, neles) filled with random values; host copy. */
static frx_matrix *rand_matrix(size_t nrow, size_t nvar, size_t neles,
                               uint64_t *rng, void **host)
{
    return tu_rand_matrix(be, nrow, nvar, neles, rng, host);
}

static void *read_matrix(frx_matrix *m)
{
    void *h = tu_alloc(be, frx_matrix_nrow(m) * frx_matrix_nvar(m) *
                               frx_matrix_neles(m));
    ck_assert_int_eq(frx_matrix_read(m, h), FRX_OK);
    return h;
}

/* ------------------------------------------------------ argument kinds */

static void check_axpy(size_t nrows, size_t n, uint64_t rng)
{
    register_all();
    void *hx, *hy;
    frx_matrix *x = rand_matrix(nrows, 3, n, &rng, &hx);
    frx_matrix *y = rand_matrix(nrows, 3, n, &rng, &hy);
    frx_arg args[] = {frx_arg_matrix(x), frx_arg_matrix(y),
                      frx_arg_scalar(0.75)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, "tk_axpy", nrows, n, args, 3, &k),
                     FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    void *got = read_matrix(y);
    for (size_t i = 0; i < nrows * 3 * n; i++)
        assert_close(tu_get(be, got, i),
                     tu_get(be, hy, i) + 0.75 * tu_get(be, hx, i), "y", i);
    free(got), free(hx), free(hy);
    frx_kernel_destroy(k);
    frx_matrix_destroy(x);
    frx_matrix_destroy(y);
}

START_TEST(matrix_args_2d)
{
    check_axpy(5, 37, 101);
}
END_TEST

static void check_grad(size_t nrows, size_t n, uint64_t rng)
{
    register_all();
    void *hg, *hs;
    frx_matrix *g = rand_matrix(2 * nrows, 3, n, &rng, &hg);
    frx_matrix *s = rand_matrix(nrows, 3, n, &rng, &hs);
    frx_arg args[] = {frx_arg_matrix(g), frx_arg_matrix(s)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, "tk_grad", nrows, n, args, 2, &k),
                     FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    void *got = read_matrix(s);
    for (size_t j = 0; j < nrows; j++)
        for (size_t v = 0; v < 3; v++)
            for (size_t e = 0; e < n; e++) {
                double g0 = tu_get(be, hg, (j * 3 + v) * n + e);
                double g1 = tu_get(be, hg, ((nrows + j) * 3 + v) * n + e);
                assert_close(tu_get(be, got, (j * 3 + v) * n + e),
                             g0 - 2 * g1, "s", e);
            }
    free(got), free(hg), free(hs);
    frx_kernel_destroy(k);
    frx_matrix_destroy(g);
    frx_matrix_destroy(s);
}

START_TEST(matrix_args_two_dims)
{
    check_grad(4, 21, 102);
}
END_TEST

/* openmp walks the rows in groups that keep 16 rows of memory streaming
 * at once (DESIGN.md): tk_axpy's 2 a row in groups of 8 (here 8, 8, 7),
 * tk_grad's 3 in groups of 5 (5, 5, 3), each group over whole and
 * partial chunks; every point must be visited once. */
START_TEST(rows_in_groups)
{
    check_axpy(23, 37, 111);
    check_axpy(23, 8, 112);
    check_grad(13, 21, 113);
    check_grad(13, 1, 114);
}
END_TEST

/* Views of (2, 3) points with row strides in, a vector view out. */
START_TEST(view_args)
{
    register_all();
    uint64_t rng = 103;
    size_t n = 29, neles = 23;
    frx_matrix_shape shapes[2] = {{6, 3, neles}, {2, 3, n}};
    frx_matrix *m[2];
    ck_assert_int_eq(frx_matrix_create_group(be, 2, shapes, m), FRX_OK);
    void *hu = tu_alloc(be, 6 * 3 * neles);
    for (size_t i = 0; i < 6 * 3 * neles; i++)
        tu_put(be, hu, i, tu_value(&rng));
    ck_assert_int_eq(frx_matrix_write(m[0], hu), FRX_OK);
    void *hn;
    frx_matrix *nl = rand_matrix(1, 2, n, &rng, &hn);

    frx_matrix *mg[29], *mo[29];
    size_t rows[29], eles[29], rs[29], orows[29], oeles[29];
    for (size_t i = 0; i < n; i++) {
        mg[i] = m[0];
        mo[i] = m[1];
        eles[i] = tu_below(&rng, neles);
        rs[i] = 1 + tu_below(&rng, 3);
        rows[i] = tu_below(&rng, 6 - rs[i]);
        orows[i] = 1;
        oeles[i] = (i * 7) % n; /* a permutation: distinct outputs */
    }
    frx_view *g, *o;
    ck_assert_int_eq(frx_view_create(be, n, mg, rows, eles, rs, 2, 3, &g),
                     FRX_OK);
    ck_assert_int_eq(frx_view_create(be, n, mo, orows, oeles, NULL, 1, 3, &o),
                     FRX_OK);
    frx_arg args[] = {frx_arg_view(g), frx_arg_view(o), frx_arg_matrix(nl)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, "tk_views", 1, n, args, 3, &k),
                     FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    void *got = read_matrix(m[1]);
    for (size_t i = 0; i < n; i++)
        for (size_t v = 0; v < 3; v++) {
            double g0 = tu_get(be, hu, (rows[i] * 3 + v) * neles + eles[i]);
            double g1 = tu_get(be, hu, ((rows[i] + rs[i]) * 3 + v) * neles +
                                           eles[i]);
            double want = tu_get(be, hn, i) * g0 + tu_get(be, hn, n + i) * g1;
            assert_close(tu_get(be, got, (1 * 3 + v) * n + oeles[i]), want,
                         "o", i);
        }
    free(got), free(hu), free(hn);
    frx_kernel_destroy(k);
    frx_view_destroy(g);
    frx_view_destroy(o);
    frx_matrix_destroy(m[0]);
    frx_matrix_destroy(m[1]);
    frx_matrix_destroy(nl);
}
END_TEST

/* A gradient exchanged with a peer (navier-stokes' second exchange): a
 * view of ndims rows a point and an xchg matrix of the same shape meet
 * in one kernel; a view given where the xchg argument is declared, or
 * an xchg matrix of another shape, is refused naming the argument. */
START_TEST(gradient_xchg_args)
{
    register_all();
    uint64_t rng = 105;
    size_t n = 13, neles = 11;
    frx_matrix_shape shapes[2] = {{8, 3, neles}, {1, 3, n}};
    frx_matrix *m[2];
    ck_assert_int_eq(frx_matrix_create_group(be, 2, shapes, m), FRX_OK);
    void *hu = tu_alloc(be, 8 * 3 * neles);
    for (size_t i = 0; i < 8 * 3 * neles; i++)
        tu_put(be, hu, i, tu_value(&rng));
    ck_assert_int_eq(frx_matrix_write(m[0], hu), FRX_OK);
    frx_matrix *mg[13], *mo[13];
    size_t rows[13], eles[13], rs[13], orows[13], oeles[13];
    for (size_t i = 0; i < n; i++) {
        mg[i] = m[0], mo[i] = m[1];
        eles[i] = tu_below(&rng, neles);
        rows[i] = tu_below(&rng, 4);
        rs[i] = 4; /* dimension d of point f at row d*nfpts + f */
        orows[i] = 0;
        oeles[i] = (i * 5) % n;
    }
    frx_view *gl, *o, *wrong;
    ck_assert_int_eq(frx_view_create(be, n, mg, rows, eles, rs, 2, 3, &gl),
                     FRX_OK);
    ck_assert_int_eq(frx_view_create(be, n, mg, rows, eles, rs, 2, 3,
                                     &wrong), FRX_OK);
    ck_assert_int_eq(frx_view_create(be, n, mo, orows, oeles, NULL, 1, 3, &o),
                     FRX_OK);
    frx_xchg_matrix *gr, *flat;
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 2, 3, &gr), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 6, &flat), FRX_OK);
    void *hr = tu_alloc(be, 2 * 3 * n);
    for (size_t i = 0; i < 2 * 3 * n; i++)
        tu_put(be, hr, i, tu_value(&rng));
    ck_assert_int_eq(frx_xchg_matrix_write(gr, hr), FRX_OK);

    frx_arg args[] = {frx_arg_view(gl), frx_arg_xchg(gr), frx_arg_view(o)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, "tk_gradx", 1, n, args, 3, &k),
                     FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    void *got = read_matrix(m[1]);
    for (size_t i = 0; i < n; i++)
        for (size_t v = 0; v < 3; v++) {
            double g0 = tu_get(be, hu, (rows[i] * 3 + v) * neles + eles[i]);
            double g1 = tu_get(be, hu, ((rows[i] + 4) * 3 + v) * neles +
                                           eles[i]);
            /* xchg (r, c, i) at (r*nvcol + c)*n + i */
            double r0 = tu_get(be, hr, (0 * 3 + v) * n + i);
            double r1 = tu_get(be, hr, (1 * 3 + v) * n + i);
            assert_close(tu_get(be, got, v * n + oeles[i]),
                         g0 - 2 * g1 + 3 * r0 - 4 * r1, "o", i);
        }
    frx_kernel_destroy(k);

    frx_arg viewed[] = {frx_arg_view(gl), frx_arg_view(wrong),
                        frx_arg_view(o)};
    k = NULL;
    ck_assert_int_ne(frx_kernel_create(be, "tk_gradx", 1, n, viewed, 3, &k),
                     FRX_OK);
    ck_assert_ptr_null(k);
    ck_assert_msg(strstr(frx_errmsg(), "tk_gradx") &&
                  strstr(frx_errmsg(), "'gr'"), "%s", frx_errmsg());
    frx_arg flattened[] = {frx_arg_view(gl), frx_arg_xchg(flat),
                           frx_arg_view(o)};
    ck_assert_int_ne(frx_kernel_create(be, "tk_gradx", 1, n, flattened, 3,
                                       &k), FRX_OK);
    ck_assert_ptr_null(k);
    ck_assert_msg(strstr(frx_errmsg(), "tk_gradx") &&
                  strstr(frx_errmsg(), "'gr'"), "%s", frx_errmsg());
    free(got), free(hu), free(hr);
    frx_view_destroy(gl);
    frx_view_destroy(wrong);
    frx_view_destroy(o);
    frx_xchg_matrix_destroy(gr);
    frx_xchg_matrix_destroy(flat);
    frx_matrix_destroy(m[0]);
    frx_matrix_destroy(m[1]);
}
END_TEST

START_TEST(broadcast_args)
{
    register_all();
    uint64_t rng = 104;
    double B[15];
    for (size_t i = 0; i < 15; i++)
        B[i] = tu_value(&rng);
    frx_matrix *b;
    ck_assert_int_eq(frx_matrix_create_const(be, 3, 5, B, &b), FRX_OK);
    size_t nrows = 3, n = 19;
    void *hu, *hw;
    frx_matrix *u = rand_matrix(nrows, 5, n, &rng, &hu);
    frx_matrix *w = rand_matrix(nrows, 3, n, &rng, &hw);
    frx_arg args[] = {frx_arg_matrix(b), frx_arg_matrix(u), frx_arg_matrix(w)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, "tk_broadcast", nrows, n, args, 3,
                                       &k), FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    void *got = read_matrix(w);
    for (size_t j = 0; j < nrows; j++)
        for (size_t e = 0; e < n; e++)
            for (size_t r = 0; r < 3; r++) {
                double acc = 0;
                for (size_t c = 0; c < 5; c++)
                    acc += (frx_backend_fpsize(be) == 4 ? (float)B[r * 5 + c]
                                                        : B[r * 5 + c]) *
                           tu_get(be, hu, (j * 5 + c) * n + e);
                assert_close(tu_get(be, got, (j * 3 + r) * n + e), acc, "w",
                             e);
            }
    free(got), free(hu), free(hw);
    frx_kernel_destroy(k);
    frx_matrix_destroy(b);
    frx_matrix_destroy(u);
    frx_matrix_destroy(w);
}
END_TEST

START_TEST(xchg_args_and_macro)
{
    register_all();
    uint64_t rng = 105;
    size_t n = 41;
    frx_xchg_matrix *a, *r;
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 2, &a), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 2, &r), FRX_OK);
    void *ha = tu_alloc(be, 2 * n), *hr = tu_alloc(be, 2 * n);
    for (size_t i = 0; i < 2 * n; i++)
        tu_put(be, ha, i, tu_value(&rng));
    ck_assert_int_eq(frx_xchg_matrix_write(a, ha), FRX_OK);
    frx_arg args[] = {frx_arg_xchg(a), frx_arg_xchg(r)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, "tk_macro", 1, n, args, 2, &k),
                     FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_read(r, hr), FRX_OK);
    for (size_t i = 0; i < n; i++) {
        double a0 = tu_get(be, ha, i), a1 = tu_get(be, ha, n + i);
        assert_close(tu_get(be, hr, i), a0 * a0, "r0", i);
        assert_close(tu_get(be, hr, n + i), (a1 + 1) * (a1 + 1), "r1", i);
    }
    free(ha), free(hr);
    frx_kernel_destroy(k);
    frx_xchg_matrix_destroy(a);
    frx_xchg_matrix_destroy(r);
}
END_TEST

/* Inputs the body never names are bound as declared but not loaded:
 * NVRTC warns of a local that is set and never used. */
START_TEST(unread_inputs_not_loaded)
{
    register_all();
    uint64_t rng = 115;
    size_t n = 37;
    void *hx;
    frx_matrix *x = rand_matrix(1, 3, n, &rng, &hx);
    frx_xchg_matrix *w, *o;
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 2, &w), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 1, &o), FRX_OK);
    frx_arg args[] = {frx_arg_matrix(x), frx_arg_xchg(w), frx_arg_xchg(o),
                      frx_arg_scalar(2.5)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, "tk_unread", 1, n, args, 4, &k),
                     FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    void *ho = tu_alloc(be, n);
    ck_assert_int_eq(frx_xchg_matrix_read(o, ho), FRX_OK);
    for (size_t i = 0; i < n; i++)
        assert_close(tu_get(be, ho, i), 2.5, "o", i);
    /* the source of every target: no load of x or w; on the GPUs no
     * chunk index either (C's loop is over chunks) */
    for (int t = FRX_TARGET_C_OPENMP; t <= FRX_TARGET_HIP; t++) {
        frx_codegen cg = {.target = t, .precision = FRX_DOUBLE, .soasz = 8,
                          .alignment = 64};
        char *src, *entry;
        ck_assert_int_eq(frx_kernel_generate(&tk_unread, NULL, 0, &cg, &src,
                                             &entry), FRX_OK);
        ck_assert_msg(!strstr(src, "x_b[") && !strstr(src, "w_b[") &&
                          (t == FRX_TARGET_C_OPENMP || !strstr(src, "_ib")) &&
                          strstr(src, "o_b["),
                      "target %d:\n%s", t, src);
        free(src), free(entry);
    }
    free(hx), free(ho);
    frx_kernel_destroy(k);
    frx_matrix_destroy(x);
    frx_xchg_matrix_destroy(w);
    frx_xchg_matrix_destroy(o);
}
END_TEST

/* ------------------------------------------------- the forum scenario */

struct forum {
    frx_matrix *u;
    frx_view *v;
    frx_xchg_view *xv;
    frx_xchg_matrix *base, *diff;
};

static void forum_setup(struct forum *f, size_t n)
{
    uint64_t rng = 106;
    void *hu;
    f->u = rand_matrix(4, 4, 31, &rng, &hu);
    free(hu);
    frx_matrix *mats[64];
    size_t rows[64], eles[64];
    for (size_t i = 0; i < n; i++) {
        mats[i] = f->u;
        rows[i] = i % 2 ? 3 : 0; /* left and right faces */
        eles[i] = (i * 5) % 31;
    }
    ck_assert_int_eq(frx_view_create(be, n, mats, rows, eles, NULL, 1, 4,
                                     &f->v), FRX_OK);
    ck_assert_int_eq(frx_xchg_view_create(f->v, &f->xv), FRX_OK);
    ck_assert_int_eq(frx_xchg_view_snapshot(f->xv, &f->base), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 4, &f->diff), FRX_OK);
}

static void forum_teardown(struct forum *f)
{
    frx_xchg_matrix_destroy(f->diff);
    frx_xchg_matrix_destroy(f->base);
    frx_xchg_view_destroy(f->xv);
    frx_view_destroy(f->v);
    frx_matrix_destroy(f->u);
}

START_TEST(forum_baseflow_is_zero_at_t0)
{
    register_all();
    size_t n = 50;
    struct forum f;
    forum_setup(&f, n);
    frx_arg args[] = {frx_arg_view(f.v), frx_arg_xchg(f.base),
                      frx_arg_xchg(f.diff)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, "intconulin_baseflow_check", 1, n,
                                       args, 3, &k), FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    void *d = tu_alloc(be, 4 * n);
    ck_assert_int_eq(frx_xchg_matrix_read(f.diff, d), FRX_OK);
    for (size_t i = 0; i < 4 * n; i++)
        ck_assert_msg(tu_get(be, d, i) == 0.0, "diff[%zu] = %g, not 0", i,
                      tu_get(be, d, i));
    free(d);
    frx_kernel_destroy(k);
    forum_teardown(&f);
}
END_TEST

START_TEST(forum_snapshot_bound_as_view_refused)
{
    register_all();
    frx_kernel_decl wrong = tk_baseflow;
    wrong.name = "intconulin_baseflow_check_wrong";
    wrong.args = "in view fpdtype_t[4] ul, in view fpdtype_t[4] ublin, "
                 "out xchg fpdtype_t[4] diff";
    ck_assert_int_eq(frx_kernel_register(be, &wrong), FRX_OK);
    size_t n = 10;
    struct forum f;
    forum_setup(&f, n);
    frx_arg args[] = {frx_arg_view(f.v), frx_arg_xchg(f.base),
                      frx_arg_xchg(f.diff)};
    frx_kernel *k = NULL;
    ck_assert_int_eq(frx_kernel_create(be, wrong.name, 1, n, args, 3, &k),
                     FRX_ESHAPE);
    ck_assert_ptr_null(k);
    ck_assert_str_eq(frx_errmsg(),
                     "kernel 'intconulin_baseflow_check_wrong': argument "
                     "'ublin' is declared 'in view fpdtype_t[4]' but was "
                     "given an xchg matrix; declare it 'in xchg "
                     "fpdtype_t[4]'");
    forum_teardown(&f);
}
END_TEST

START_TEST(binding_shape_and_count_checked)
{
    register_all();
    uint64_t rng = 107;
    void *hx, *hy;
    frx_matrix *x = rand_matrix(5, 2, 37, &rng, &hx); /* 2 vars, not 3 */
    frx_matrix *y = rand_matrix(5, 3, 37, &rng, &hy);
    frx_arg args[] = {frx_arg_matrix(x), frx_arg_matrix(y),
                      frx_arg_scalar(1)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, "tk_axpy", 5, 37, args, 3, &k),
                     FRX_ESHAPE);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "argument 'x' is declared "
                                               "'in fpdtype_t[3]'"));
    ck_assert_int_eq(frx_kernel_create(be, "tk_axpy", 5, 37, args, 2, &k),
                     FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "takes 3 arguments"));
    ck_assert_int_eq(frx_kernel_create(be, "tk_nope", 5, 37, args, 3, &k),
                     FRX_ENOTFOUND);
    free(hx), free(hy);
    frx_matrix_destroy(x);
    frx_matrix_destroy(y);
}
END_TEST

/* A body from a file, and "mpi", the old name of xchg. */
START_TEST(body_file_and_mpi_alias)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/kernels/scale.c", getenv("FRX_TEST_DATA"));
    frx_kernel_decl d = {.name = "tk_file", .ndim = 1,
                         .args = "in mpi fpdtype_t[2] in, "
                                 "out xchg fpdtype_t[2] out",
                         .body_file = path};
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_OK);
    uint64_t rng = 110;
    size_t n = 13;
    frx_xchg_matrix *a, *b;
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 2, &a), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 2, &b), FRX_OK);
    void *ha = tu_alloc(be, 2 * n), *hb = tu_alloc(be, 2 * n);
    for (size_t i = 0; i < 2 * n; i++)
        tu_put(be, ha, i, tu_value(&rng));
    ck_assert_int_eq(frx_xchg_matrix_write(a, ha), FRX_OK);
    frx_arg args[] = {frx_arg_xchg(a), frx_arg_xchg(b)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, "tk_file", 1, n, args, 2, &k),
                     FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_read(b, hb), FRX_OK);
    for (size_t i = 0; i < 2 * n; i++)
        assert_close(tu_get(be, hb, i), 2 * tu_get(be, ha, i), "out", i);
    free(ha), free(hb);
    frx_kernel_destroy(k);
    frx_xchg_matrix_destroy(a);
    frx_xchg_matrix_destroy(b);

    d.name = "tk_nofile";
    d.body_file = "/no/such/kernel.c";
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_EIO);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "/no/such/kernel.c"));
}
END_TEST

START_TEST(bad_declarations_refused)
{
    frx_kernel_decl d = {.name = "tk_bad", .ndim = 1,
                         .args = "in veiw fpdtype_t[4] u", .body = ";"};
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "did you mean 'view'"));
    d.args = "in view double[4] u";
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "unknown type 'double'"));
    d.args = "in view fpdtype_t[4] u";
    d.ndim = 2;
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "need a kernel with ndim 1"));
}
END_TEST

/* A written argument that shares memory with another is refused at
 * bind, naming both; storage that only looks close (slices of one
 * matrix, views into rows the other does not touch) is accepted. */
static const frx_kernel_decl tk_to_view = {
    .name = "tk_to_view", .ndim = 1,
    .args = "in fpdtype_t[3] m, out view fpdtype_t[3] o",
    .body = "for (int v = 0; v < 3; v++)\n    o[v] = 2*m[v];"};

static int bind_views(frx_matrix *src, frx_matrix *const *mo,
                      const size_t *rows, const size_t *eles, size_t n)
{
    frx_view *o;
    ck_assert_int_eq(frx_view_create(be, n, mo, rows, eles, NULL, 1, 3, &o),
                     FRX_OK);
    frx_arg args[] = {frx_arg_matrix(src), frx_arg_view(o)};
    frx_kernel *k = NULL;
    int rc = frx_kernel_create(be, "tk_to_view", 1, n, args, 2, &k);
    if (rc == FRX_OK)
        ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    frx_kernel_destroy(k);
    frx_view_destroy(o);
    return rc;
}

/* tk_views with view g, a view o of mo's points (written) and nl: the
 * result of frx_kernel_create, which only binds. */
static int bind_view_pair(frx_view *g, frx_matrix *const *mo,
                          const size_t *rows, const size_t *eles, size_t n,
                          frx_matrix *nl)
{
    frx_view *o;
    ck_assert_int_eq(frx_view_create(be, n, mo, rows, eles, NULL, 1, 3, &o),
                     FRX_OK);
    frx_arg args[] = {frx_arg_view(g), frx_arg_view(o), frx_arg_matrix(nl)};
    frx_kernel *k = NULL;
    int rc = frx_kernel_create(be, "tk_views", 1, n, args, 3, &k);
    frx_kernel_destroy(k);
    frx_view_destroy(o);
    return rc;
}

START_TEST(overlapping_arguments_refused)
{
    register_all();
    ck_assert_int_eq(frx_kernel_register(be, &tk_to_view), FRX_OK);
    uint64_t rng = 110;
    size_t S = frx_backend_soasz(be), nrows = 3, n = 2 * S;
    void *hx;
    frx_matrix *x = rand_matrix(nrows, 3, 4 * S, &rng, &hx);
    frx_kernel *k;

    /* the same matrix as in x and inout y */
    frx_matrix *y;
    ck_assert_int_eq(frx_matrix_slice(x, 0, n, &y), FRX_OK);
    frx_arg same[] = {frx_arg_matrix(y), frx_arg_matrix(y),
                      frx_arg_scalar(1)};
    ck_assert_int_eq(frx_kernel_create(be, "tk_axpy", nrows, n, same, 3, &k),
                     FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "arguments 'x'"));
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "and 'y'"));

    /* overlapping slices [0, 2S) and [S, 3S) of one matrix */
    frx_matrix *z;
    ck_assert_int_eq(frx_matrix_slice(x, S, S + n, &z), FRX_OK);
    frx_arg over[] = {frx_arg_matrix(y), frx_arg_matrix(z),
                      frx_arg_scalar(1)};
    ck_assert_int_eq(frx_kernel_create(be, "tk_axpy", nrows, n, over, 3, &k),
                     FRX_EINVAL);
    frx_matrix_destroy(z);

    /* disjoint slices [0, 2S) and [2S, 4S): their rows interleave */
    ck_assert_int_eq(frx_matrix_slice(x, n, 2 * n, &z), FRX_OK);
    frx_arg apart[] = {frx_arg_matrix(y), frx_arg_matrix(z),
                       frx_arg_scalar(0.5)};
    ck_assert_int_eq(frx_kernel_create(be, "tk_axpy", nrows, n, apart, 3,
                                       &k), FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    void *got = read_matrix(x);
    size_t ne = 4 * S;
    for (size_t r = 0; r < nrows * 3; r++)
        for (size_t e = 0; e < ne; e++) {
            double want = tu_get(be, hx, r * ne + e);
            if (e >= n)
                want += 0.5 * tu_get(be, hx, r * ne + e - n);
            assert_close(tu_get(be, got, r * ne + e), want, "x", e);
        }
    free(got);
    frx_kernel_destroy(k);
    frx_matrix_destroy(z);
    frx_matrix_destroy(y);

    /* the same xchg matrix in and out */
    frx_xchg_matrix *a;
    ck_assert_int_eq(frx_xchg_matrix_create(be, 5, 1, 2, &a), FRX_OK);
    frx_arg xa[] = {frx_arg_xchg(a), frx_arg_xchg(a)};
    ck_assert_int_eq(frx_kernel_create(be, "tk_macro", 1, 5, xa, 2, &k),
                     FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "same xchg matrix"));
    frx_xchg_matrix_destroy(a);

    /* a view written into a matrix that is read */
    size_t m_ = 7;
    frx_matrix_shape shapes[2] = {{2, 3, m_}, {2, 3, m_}};
    frx_matrix *grp[2];
    ck_assert_int_eq(frx_matrix_create_group(be, 2, shapes, grp), FRX_OK);
    frx_matrix *mo[7];
    size_t rows[7], eles[7];
    for (size_t i = 0; i < m_; i++)
        eles[i] = (i * 3) % m_;
    /* the view's points in the matrix that is read */
    shapes[0].nrow = 1;
    frx_matrix *g2[2];
    ck_assert_int_eq(frx_matrix_create_group(be, 2, shapes, g2), FRX_OK);
    for (size_t i = 0; i < m_; i++)
        mo[i] = g2[0], rows[i] = 0;
    ck_assert_int_eq(bind_views(g2[0], mo, rows, eles, m_), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "arguments 'm'"));
    /* points in the other matrix of the group, beside the one read */
    for (size_t i = 0; i < m_; i++)
        mo[i] = g2[1], rows[i] = 1;
    ck_assert_int_eq(bind_views(g2[0], mo, rows, eles, m_), FRX_OK);
    /* a view that writes points another view reads: refused; one that
     * writes rows the other does not read: accepted */
    frx_matrix *mg[7];
    size_t grows[7], geles[7], grs[7];
    for (size_t i = 0; i < m_; i++)
        mg[i] = grp[0], grows[i] = 0, geles[i] = i, grs[i] = 1;
    frx_view *gv;
    ck_assert_int_eq(frx_view_create(be, m_, mg, grows, geles, grs, 2, 3,
                                     &gv), FRX_OK);
    void *hn;
    frx_matrix *nl = rand_matrix(1, 2, m_, &rng, &hn);
    for (size_t i = 0; i < m_; i++)
        mo[i] = grp[0], rows[i] = 1;
    ck_assert_int_eq(bind_view_pair(gv, mo, rows, eles, m_, nl), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "arguments 'g'"));
    for (size_t i = 0; i < m_; i++)
        mo[i] = grp[1];
    ck_assert_int_eq(bind_view_pair(gv, mo, rows, eles, m_, nl), FRX_OK);
    frx_view_destroy(gv);
    /* the same two ways on a matrix of 1000 rows whose views touch rows
     * far apart: their span is large for their few points, which the
     * check compares sorted rather than by a bit for each element */
    frx_matrix *tall;
    ck_assert_int_eq(frx_matrix_create(be, 1000, 3, m_, &tall), FRX_OK);
    for (size_t i = 0; i < m_; i++)
        mg[i] = tall, grows[i] = i % 2 ? 0 : 998, geles[i] = i;
    ck_assert_int_eq(frx_view_create(be, m_, mg, grows, geles, grs, 2, 3,
                                     &gv), FRX_OK);
    for (size_t i = 0; i < m_; i++) /* row 999, element 2: gv's point 2 */
        mo[i] = tall, rows[i] = i % 2 ? 999 : 500;
    ck_assert_int_eq(bind_view_pair(gv, mo, rows, eles, m_, nl), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "arguments 'g'"));
    for (size_t i = 0; i < m_; i++) /* rows 997 and 500: none of gv's */
        rows[i] = i % 2 ? 997 : 500;
    ck_assert_int_eq(bind_view_pair(gv, mo, rows, eles, m_, nl), FRX_OK);
    frx_view_destroy(gv);
    frx_matrix_destroy(tall);
    frx_matrix_destroy(nl);
    free(hn), free(hx);
    for (int i = 0; i < 2; i++) {
        frx_matrix_destroy(grp[i]);
        frx_matrix_destroy(g2[i]);
    }
    frx_matrix_destroy(x);
}
END_TEST

/* Offsets are 64-bit in every target's code: a matrix that starts past
 * 2^31 values of its allocation is read and written where it is, not
 * where a 32-bit offset would wrap to. openmp only: its large blocks
 * are mapped untouched, so the 8 GiB matrix between costs no memory. */
START_TEST(offsets_past_2_31_values)
{
    if (strcmp(backend_name, "openmp") != 0 || frx_backend_fpsize(be) != 4) {
        printf("offsets_past_2_31_values: openmp in single precision only "
               "(an 8 GiB allocation, untouched there)\n");
        return;
    }
    register_all();
    size_t n = 64, big = ((size_t)1 << 31) + 64;
    frx_matrix_shape shapes[3] = {{1, 1, n}, {1, 1, big}, {1, 1, n}};
    frx_matrix *m[3];
    ck_assert_int_eq(frx_matrix_create_group(be, 3, shapes, m), FRX_OK);
    void *h = tu_alloc(be, n);
    for (size_t i = 0; i < n; i++)
        tu_put(be, h, i, (double)i);
    ck_assert_int_eq(frx_matrix_write(m[0], h), FRX_OK);
    /* tk_scalars: y = x*t + dt*k, from m[0] to m[2] and back */
    for (int dir = 0; dir < 2; dir++) {
        frx_arg args[] = {frx_arg_matrix(m[dir ? 2 : 0]),
                          frx_arg_matrix(m[dir ? 0 : 2]), frx_arg_scalar(2),
                          frx_arg_scalar(0.5), frx_arg_scalar(2)};
        frx_kernel *k;
        ck_assert_int_eq(frx_kernel_create(be, "tk_scalars", 1, n, args, 5,
                                           &k), FRX_OK);
        ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
        frx_kernel_destroy(k);
    }
    ck_assert_int_eq(frx_matrix_read(m[2], h), FRX_OK);
    for (size_t i = 0; i < n; i++)
        ck_assert_double_eq(tu_get(be, h, i), 2.0 * i + 1);
    ck_assert_int_eq(frx_matrix_read(m[0], h), FRX_OK);
    for (size_t i = 0; i < n; i++)
        ck_assert_double_eq(tu_get(be, h, i), 4.0 * i + 3);
    free(h);
    for (int i = 0; i < 3; i++)
        frx_matrix_destroy(m[i]);
}
END_TEST

/* Every target indexes matrices and xchg matrices with 64-bit offsets:
 * rows times leading dimension and chunks times their width pass 2^31
 * in large matrices long before a point count does. */
START_TEST(generated_offsets_are_64_bit)
{
    static const char *const i64[] = {"", "int64_t", "long", "long long",
                                      "long long"};
    for (int t = FRX_TARGET_C_OPENMP; t <= FRX_TARGET_HIP; t++) {
        frx_codegen cg = {.target = t, .precision = FRX_DOUBLE, .soasz = 8,
                          .alignment = 64};
        char *src, *entry, want[64];
        ck_assert_int_eq(frx_kernel_generate(&tk_axpy, NULL, 0, &cg, &src,
                                             &entry), FRX_OK);
        snprintf(want, sizeof want, "typedef %s frx_ix64;", i64[t]);
        ck_assert_msg(strstr(src, want), "target %d: no '%s' in\n%s", t,
                      want, src);
        /* a chunk's start: in parts on openmp (frx.h), else plain */
        const char *chunk = t == FRX_TARGET_C_OPENMP
                                ? "const frx_ix64 y_k = _ib + y_c0;\n"
                                  "    const frx_ix64 y_cb = y_pc ? y_k / "
                                  "y_pc*y_ps + y_k % y_pc*24 : y_k*24;"
                                : "const frx_ix64 y_cb = (frx_ix64)_ib*24;";
        ck_assert_msg(strstr(src, "frx_ix64 x_o, frx_ix64 x_ld") &&
                      strstr(src, "((frx_ix64)_x*_nrows + _j)*y_ld + y_cb") &&
                      strstr(src, chunk),
                      "target %d: 32-bit matrix offsets in\n%s", t, src);
        free(src), free(entry);
        ck_assert_int_eq(frx_kernel_generate(&tk_macro, &tk_square_macro, 1,
                                             &cg, &src, &entry), FRX_OK);
        ck_assert_msg(strstr(src, "a_b[((frx_ix64)_x*2 + _v)*_n + _i]"),
                      "target %d: 32-bit xchg offsets in\n%s", t, src);
        free(src), free(entry);
    }
}
END_TEST

/* A view that holds a point twice may be read, never written: its two
 * writes would race (which lands depends on the threads). Binding it to
 * a written argument and unpacking into it are refused. */
START_TEST(written_view_with_a_repeated_point_refused)
{
    register_all();
    ck_assert_int_eq(frx_kernel_register(be, &tk_to_view), FRX_OK);
    uint64_t rng = 111;
    void *hm, *hs;
    frx_matrix *m = rand_matrix(1, 3, 8, &rng, &hm);
    frx_matrix *src = rand_matrix(1, 3, 3, &rng, &hs);
    frx_matrix *mats[] = {m, m, m};
    size_t rows[] = {0, 0, 0}, eles[] = {1, 5, 1};
    frx_view *v;
    ck_assert_int_eq(frx_view_create(be, 3, mats, rows, eles, NULL, 1, 3,
                                     &v), FRX_OK);
    frx_arg args[] = {frx_arg_matrix(src), frx_arg_view(v)};
    frx_kernel *k = NULL;
    ck_assert_int_eq(frx_kernel_create(be, "tk_to_view", 1, 3, args, 2, &k),
                     FRX_EINVAL);
    ck_assert_ptr_null(k);
    ck_assert_msg(strstr(frx_errmsg(), "kernel 'tk_to_view': written view "
                         "argument 'o': the view holds element") &&
                  strstr(frx_errmsg(), "more than once"), "%s",
                  frx_errmsg());
    /* packing it (a read) is fine; unpacking into it is not */
    frx_xchg_view *xv;
    ck_assert_int_eq(frx_xchg_view_create(v, &xv), FRX_OK);
    ck_assert_int_eq(frx_xchg_view_pack(xv), FRX_OK);
    ck_assert_int_eq(frx_xchg_view_unpack(xv), FRX_EINVAL);
    ck_assert_msg(strstr(frx_errmsg(), "frx_xchg_view_unpack: the view "
                         "holds element"), "%s", frx_errmsg());
    frx_graph *g;
    ck_assert_int_eq(frx_graph_create(be, &g), FRX_OK);
    ck_assert_int_eq(frx_graph_add_pack(g, xv, NULL, 0, NULL), FRX_OK);
    ck_assert_int_eq(frx_graph_add_unpack(g, xv, NULL, 0, NULL), FRX_EINVAL);
    frx_graph_destroy(g);
    frx_xchg_view_destroy(xv);
    frx_view_destroy(v);
    /* each point once: written */
    eles[2] = 6;
    ck_assert_int_eq(frx_view_create(be, 3, mats, rows, eles, NULL, 1, 3,
                                     &v), FRX_OK);
    args[1] = frx_arg_view(v);
    ck_assert_int_eq(frx_kernel_create(be, "tk_to_view", 1, 3, args, 2, &k),
                     FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    frx_kernel_destroy(k);
    frx_view_destroy(v);
    free(hm), free(hs);
    frx_matrix_destroy(m);
    frx_matrix_destroy(src);
}
END_TEST

/* A slice keeps its parent's row stride; a broadcast argument's code
 * reads rows of a matrix of its own shape: a slice of a wider matrix is
 * refused, where it would read the rows of another stride. */
START_TEST(broadcast_slice_refused)
{
    register_all();
    double A[3 * 200];
    for (size_t i = 0; i < 3 * 200; i++)
        A[i] = (double)i;
    frx_matrix *a, *sl, *u, *w;
    void *hu, *hw;
    uint64_t rng = 7;
    ck_assert_int_eq(frx_matrix_create_const(be, 3, 200, A, &a), FRX_OK);
    ck_assert_int_eq(frx_matrix_slice(a, 0, 5, &sl), FRX_OK);
    u = rand_matrix(1, 5, 4, &rng, &hu);
    w = rand_matrix(1, 3, 4, &rng, &hw);
    frx_arg args[] = {frx_arg_matrix(sl), frx_arg_matrix(u),
                      frx_arg_matrix(w)};
    frx_kernel *k = NULL;
    ck_assert_int_eq(frx_kernel_create(be, "tk_broadcast", 1, 4, args, 3,
                                       &k), FRX_ESHAPE);
    ck_assert_ptr_null(k);
    ck_assert_msg(strstr(frx_errmsg(), "kernel 'tk_broadcast': broadcast "
                         "argument 'B' has rows") &&
                  strstr(frx_errmsg(), "pass a matrix of its own, 3 x 1 x "
                         "5"), "%s", frx_errmsg());
    free(hu), free(hw);
    frx_matrix_destroy(sl);
    frx_matrix_destroy(a);
    frx_matrix_destroy(u);
    frx_matrix_destroy(w);
}
END_TEST

/* Data of another backend (another precision, another layout) is
 * refused by binding, by a view and by a graph: the code would read it
 * as its own kind (the forum thread's wrong numbers). */
/* An frx_arg is a plain struct: one made by hand whose kind does not
 * match its object (a matrix given as a view or an xchg matrix) is
 * refused by the object's tag, never read as the other kind. */
START_TEST(argument_of_the_wrong_kind_refused)
{
    register_all();
    frx_matrix *m;
    frx_xchg_matrix *a;
    ck_assert_int_eq(frx_matrix_create(be, 2, 1, 4, &m), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_create(be, 4, 1, 2, &a), FRX_OK);
    frx_arg args[] = {{.kind = FRX_ARG_XCHG, .obj = m}, frx_arg_xchg(a)};
    frx_kernel *k = NULL;
    ck_assert_int_eq(frx_kernel_create(be, "tk_macro", 1, 4, args, 2, &k),
                     FRX_EINVAL);
    ck_assert_ptr_null(k);
    ck_assert_msg(strstr(frx_errmsg(), "kernel 'tk_macro': argument 'a' is "
                         "given as an xchg matrix (frx_arg.kind 3) but its "
                         "object is a matrix"), "%s", frx_errmsg());
    frx_arg viewed[] = {frx_arg_xchg(a), {.kind = FRX_ARG_VIEW, .obj = a}};
    ck_assert_int_eq(frx_kernel_create(be, "tk_macro", 1, 4, viewed, 2, &k),
                     FRX_EINVAL);
    ck_assert_msg(strstr(frx_errmsg(), "argument 'r' is given as a view "
                         "(frx_arg.kind 2) but its object is an xchg "
                         "matrix"), "%s", frx_errmsg());
    double not_frx[8] = {0};
    frx_arg junk[] = {{.kind = FRX_ARG_MATRIX, .obj = not_frx},
                      frx_arg_xchg(a)};
    ck_assert_int_eq(frx_kernel_create(be, "tk_macro", 1, 4, junk, 2, &k),
                     FRX_EINVAL);
    ck_assert_msg(strstr(frx_errmsg(), "its object is no matrix, view or "
                         "xchg matrix"), "%s", frx_errmsg());
    frx_matrix_destroy(m);
    frx_xchg_matrix_destroy(a);
}
END_TEST

START_TEST(arguments_of_another_backend_refused)
{
    register_all();
    int single = frx_backend_fpsize(be) == 4;
    char text[160];
    snprintf(text, sizeof text, "backend:\n  name: openmp\n  precision: "
             "%s\n", single ? "double" : "single");
    frx_config *cfg;
    frx_backend *other;
    ck_assert_int_eq(frx_config_parse(text, strlen(text), "case.yaml", &cfg),
                     FRX_OK);
    ck_assert_int_eq(frx_backend_create(cfg, &other), FRX_OK);
    ck_assert_int_eq(frx_kernel_register(other, &tk_scale1), FRX_OK);
    frx_matrix *x, *y, *ox, *oy;
    ck_assert_int_eq(frx_matrix_create(be, 1, 1, 4, &y), FRX_OK);
    ck_assert_int_eq(frx_matrix_create(other, 1, 1, 4, &x), FRX_OK);
    frx_arg args[] = {frx_arg_matrix(x), frx_arg_matrix(y),
                      frx_arg_scalar(2)};
    frx_kernel *k = NULL;
    ck_assert_int_eq(frx_kernel_create(be, "tk_scale1", 1, 4, args, 3, &k),
                     FRX_EINVAL);
    ck_assert_ptr_null(k);
    ck_assert_msg(strstr(frx_errmsg(), "kernel 'tk_scale1': argument 'x' "
                         "belongs to backend 'openmp' (") &&
                  strstr(frx_errmsg(), "not to the kernel's backend"),
                  "%s", frx_errmsg());
    /* a view of its matrices */
    size_t row = 0, ele = 1;
    frx_view *v = NULL;
    ck_assert_int_eq(frx_view_create(be, 1, &x, &row, &ele, NULL, 1, 1, &v),
                     FRX_EINVAL);
    ck_assert_ptr_null(v);
    ck_assert_msg(strstr(frx_errmsg(), "frx_view_create: the matrices "
                         "belong to"), "%s", frx_errmsg());
    /* a kernel of the other backend in this one's graph */
    ck_assert_int_eq(frx_matrix_create(other, 1, 1, 4, &ox), FRX_OK);
    ck_assert_int_eq(frx_matrix_create(other, 1, 1, 4, &oy), FRX_OK);
    frx_arg oargs[] = {frx_arg_matrix(ox), frx_arg_matrix(oy),
                       frx_arg_scalar(2)};
    ck_assert_int_eq(frx_kernel_create(other, "tk_scale1", 1, 4, oargs, 3,
                                       &k), FRX_OK);
    frx_graph *g;
    ck_assert_int_eq(frx_graph_create(be, &g), FRX_OK);
    ck_assert_int_eq(frx_graph_add_kernel(g, k, NULL, 0, NULL), FRX_EINVAL);
    ck_assert_msg(strstr(frx_errmsg(), "frx_graph_add_kernel: kernel "
                         "'tk_scale1' belongs to"), "%s", frx_errmsg());
    frx_graph_destroy(g);
    frx_kernel_destroy(k);
    frx_matrix_destroy(x);
    frx_matrix_destroy(y);
    frx_matrix_destroy(ox);
    frx_matrix_destroy(oy);
    frx_backend_destroy(other);
    frx_config_free(cfg);
}
END_TEST

/* openmp's compiler runs from an argument vector: backend.openmp.cflags
 * is split into words (quotes group them) and never reaches a shell. */
static int omp_with_cflags(const char *cflags, frx_backend **out,
                           frx_config **cfg)
{
    char text[1024];
    snprintf(text, sizeof text, "backend:\n  name: openmp\n  precision: "
             "double\n  openmp:\n    cflags: '%s'\n", cflags);
    ck_assert_int_eq(frx_config_parse(text, strlen(text), "case.yaml", cfg),
                     FRX_OK);
    return frx_backend_create(*cfg, out);
}

START_TEST(openmp_cflags_never_reach_a_shell)
{
    if (strcmp(backend_name, "openmp") != 0 || frx_backend_fpsize(be) != 8) {
        printf("openmp_cflags_never_reach_a_shell: openmp, once\n");
        return;
    }
    static const frx_kernel_decl twice = {
        .name = "tk_cflags", .ndim = 1, .args = "in fpdtype_t x, "
        "out fpdtype_t y", .body = "y = x*FRX_TWO;"};
    char mark[512], flags[800];
    ck_assert_ptr_nonnull(getcwd(mark, 256));
    snprintf(mark + strlen(mark), 200, "/frx-shell-ran.%d", (int)getpid());
    const char *kinds[] = {"-DFRX_TWO=$(touch %s)", "-DFRX_TWO=`touch %s`",
                           "-DFRX_TWO=2 ; touch %s", "-DFRX_TWO=2 && touch %s"};
    for (int t = 0; t < 5; t++) {
        char extra[600];
        if (t < 4)
            snprintf(extra, sizeof extra, kinds[t], mark);
        else /* quotes keep a word whole; what is in it is the compiler's */
            snprintf(extra, sizeof extra, "\"-DFRX_TWO=(1 + 1)\"");
        snprintf(flags, sizeof flags, "-O1 -fopenmp %s", extra);
        frx_backend *b;
        frx_config *cfg;
        ck_assert_int_eq(omp_with_cflags(flags, &b, &cfg), FRX_OK);
        ck_assert_int_eq(frx_kernel_register(b, &twice), FRX_OK);
        frx_matrix *x, *y;
        ck_assert_int_eq(frx_matrix_create(b, 1, 1, 3, &x), FRX_OK);
        ck_assert_int_eq(frx_matrix_create(b, 1, 1, 3, &y), FRX_OK);
        frx_arg args[] = {frx_arg_matrix(x), frx_arg_matrix(y)};
        frx_kernel *k = NULL;
        int rc = frx_kernel_create(b, "tk_cflags", 1, 3, args, 2, &k);
        if (t < 4) {
            ck_assert_msg(rc == FRX_EBACKEND, "%s: %s", flags, frx_errmsg());
            ck_assert_msg(access(mark, F_OK) != 0, "%s ran a shell", flags);
        } else {
            ck_assert_msg(rc == FRX_OK, "%s: %s", flags, frx_errmsg());
            double h[3] = {1, 2, 3};
            ck_assert_int_eq(frx_matrix_write(x, h), FRX_OK);
            ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
            ck_assert_int_eq(frx_matrix_read(y, h), FRX_OK);
            ck_assert_double_eq(h[2], 6.0);
        }
        unlink(mark);
        frx_kernel_destroy(k);
        frx_matrix_destroy(x);
        frx_matrix_destroy(y);
        frx_backend_destroy(b);
        frx_config_free(cfg);
    }
    frx_backend *b;
    frx_config *cfg;
    ck_assert_int_eq(omp_with_cflags("-O1 \"-DX=a b", &b, &cfg),
                     FRX_ECONFIG);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "case.yaml:5:13: "
                                 "backend.openmp.cflags: a \" quote is "
                                 "not closed"));
    frx_config_free(cfg);
}
END_TEST

/* Equal const matrices are one matrix: writing one would change every
 * alias, so no write reaches one (nor a slice or view of one). */
START_TEST(const_matrices_never_written)
{
    register_all();
    size_t n = 2 * frx_backend_soasz(be);
    double *data = calloc(n, sizeof *data);
    for (size_t i = 0; i < n; i++)
        data[i] = (double)i;
    frx_matrix *c, *alias, *slice;
    ck_assert_int_eq(frx_matrix_create_const(be, 1, n, data, &c), FRX_OK);
    ck_assert_int_eq(frx_matrix_create_const(be, 1, n, data, &alias), FRX_OK);
    ck_assert_ptr_eq(c, alias);
    void *h = tu_alloc(be, n);
    ck_assert_int_eq(frx_matrix_write(c, h), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "const matrix"));
    ck_assert_int_eq(frx_matrix_slice(c, 0, n / 2, &slice), FRX_OK);
    ck_assert_int_eq(frx_matrix_write(slice, h), FRX_EINVAL);

    /* tk_scalars: in fpdtype_t x, out fpdtype_t y over n points */
    frx_matrix *x;
    ck_assert_int_eq(frx_matrix_create(be, 1, 1, n, &x), FRX_OK);
    frx_arg args[] = {frx_arg_matrix(x), frx_arg_matrix(c),
                      frx_arg_scalar(1), frx_arg_scalar(1),
                      frx_arg_scalar(1)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, "tk_scalars", 1, n, args, 5, &k),
                     FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "argument 'y'"));
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "const matrix"));

    /* a view of it may be packed, never unpacked into */
    size_t rows[1] = {0}, eles[1] = {3};
    frx_matrix *mats[1] = {c};
    frx_view *v;
    frx_xchg_view *xv;
    ck_assert_int_eq(frx_view_create(be, 1, mats, rows, eles, NULL, 1, 1, &v),
                     FRX_OK);
    ck_assert_int_eq(frx_xchg_view_create(v, &xv), FRX_OK);
    ck_assert_int_eq(frx_xchg_view_pack(xv), FRX_OK);
    ck_assert_int_eq(frx_xchg_view_unpack(xv), FRX_EINVAL);
    frx_graph *g;
    ck_assert_int_eq(frx_graph_create(be, &g), FRX_OK);
    ck_assert_int_eq(frx_graph_add_unpack(g, xv, NULL, 0, NULL), FRX_EINVAL);
    frx_graph_destroy(g);

    ck_assert_int_eq(frx_matrix_read(alias, h), FRX_OK);
    for (size_t i = 0; i < n; i++)
        ck_assert_double_eq(tu_get(be, h, i), (double)i);
    frx_xchg_view_destroy(xv);
    frx_view_destroy(v);
    frx_matrix_destroy(x);
    frx_matrix_destroy(slice);
    frx_matrix_destroy(alias);
    frx_matrix_destroy(c);
    free(h), free(data);
}
END_TEST

/* Names are bounded at registration (the generator builds function
 * names from them); a declaration registered again is compared field
 * by field, so another spelling of the same one is accepted. */
START_TEST(kernel_names_and_reregistration)
{
    char name[260];
    memset(name, 'k', 200);
    name[200] = '\0';
    frx_kernel_decl d = {.name = name, .ndim = 1,
                         .args = "in xchg fpdtype_t[2] a, scalar int32_t k",
                         .body = "(void)a; (void)k;"};
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "1 to 64 characters"));
    name[65] = '\0';
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_EINVAL);
    name[64] = '\0';
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_OK);
    frx_codegen cg = {.target = FRX_TARGET_C_OPENMP,
                      .precision = FRX_DOUBLE, .soasz = 8, .alignment = 64};
    char *src, *entry;
    ck_assert_int_eq(frx_kernel_generate(&d, NULL, 0, &cg, &src, &entry),
                     FRX_OK);
    ck_assert_uint_eq(strlen(entry), strlen("frx_k_") + 64 + strlen("_entry"));
    free(src), free(entry);
    const char *bad[] = {"9lives", "a-b", "", "caf\xc3\xa9"};
    for (size_t i = 0; i < 4; i++) {
        d.name = bad[i];
        ck_assert_int_eq(frx_kernel_register(be, &d), FRX_EINVAL);
    }

    d.name = "tk_again";
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_OK);
    d.args = "in  mpi fpdtype_t[2]   a,scalar int k";
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_OK);
    d.args = "in xchg fpdtype_t[3] a, scalar int32_t k";
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "already registered"));
    d.args = "in xchg fpdtype_t[2] a, scalar fpdtype_t k";
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_EINVAL);
}
END_TEST

/* ------------------------------------- scalars, compile counts, errors */

START_TEST(scalars_rebound_without_recompiling)
{
    register_all();
    uint64_t rng = 108;
    size_t n = 33;
    void *hx, *hy;
    frx_matrix *x = rand_matrix(1, 1, n, &rng, &hx);
    frx_matrix *y = rand_matrix(1, 1, n, &rng, &hy);
    frx_arg args[] = {frx_arg_matrix(x), frx_arg_matrix(y), frx_arg_unset(),
                      frx_arg_scalar(0.5), frx_arg_scalar(3)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, "tk_scalars", 1, n, args, 5, &k),
                     FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "scalar 't' was never set"));

    frx_backend_stats before, after;
    frx_backend_get_stats(be, &before);
    for (int step = 0; step < 3; step++) {
        double t = 0.25 * (step + 1);
        ck_assert_int_eq(frx_kernel_set_scalar(k, "t", t), FRX_OK);
        ck_assert_int_eq(frx_kernel_set_scalar(k, "k", step), FRX_OK);
        ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
        void *got = read_matrix(y);
        for (size_t i = 0; i < n; i++)
            assert_close(tu_get(be, got, i),
                         tu_get(be, hx, i) * t + 0.5 * step, "y", i);
        free(got);
    }
    frx_backend_get_stats(be, &after);
    ck_assert_uint_eq(after.compiles, before.compiles);
    ck_assert_uint_eq(after.cache_loads, before.cache_loads);
    ck_assert_int_eq(frx_kernel_set_scalar(k, "x", 1), FRX_EINVAL);
    /* an int32_t takes integers that fit, not a value it would cut */
    const double bad[] = {2.5, 2147483648.0, -2147483649.0, NAN};
    for (size_t i = 0; i < 4; i++) {
        ck_assert_int_eq(frx_kernel_set_scalar(k, "k", bad[i]), FRX_ERANGE);
        ck_assert_msg(strstr(frx_errmsg(), "kernel 'tk_scalars': scalar "
                             "'k' is an int32_t but was given"), "%s",
                      frx_errmsg());
    }
    ck_assert_int_eq(frx_kernel_set_scalar(k, "k", -2147483648.0), FRX_OK);
    frx_arg cut[] = {frx_arg_matrix(x), frx_arg_matrix(y), frx_arg_unset(),
                     frx_arg_scalar(0.5), frx_arg_scalar(3.5)};
    frx_kernel *kc = NULL;
    ck_assert_int_eq(frx_kernel_create(be, "tk_scalars", 1, n, cut, 5, &kc),
                     FRX_ERANGE);
    ck_assert_ptr_null(kc);

    /* A second instance of the same kernel reuses the compiled code. */
    frx_kernel *k2;
    ck_assert_int_eq(frx_kernel_create(be, "tk_scalars", 1, n, args, 5, &k2),
                     FRX_OK);
    frx_backend_get_stats(be, &after);
    ck_assert_uint_eq(after.compiles + after.cache_loads,
                      before.compiles + before.cache_loads);
    ck_assert_uint_eq(after.reuses, before.reuses + 1);
    free(hx), free(hy);
    frx_kernel_destroy(k);
    frx_kernel_destroy(k2);
    frx_matrix_destroy(x);
    frx_matrix_destroy(y);
}
END_TEST

START_TEST(compile_error_names_kernel_and_line)
{
    frx_kernel_decl d = {.name = "tk_broken", .ndim = 1,
                         .args = "in xchg fpdtype_t[1] a",
                         .body = "a[0] = ;"};
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_OK);
    frx_xchg_matrix *a;
    ck_assert_int_eq(frx_xchg_matrix_create(be, 4, 1, 1, &a), FRX_OK);
    frx_arg args[] = {frx_arg_xchg(a)};
    frx_kernel *k;
    ck_assert_int_ne(frx_kernel_create(be, "tk_broken", 1, 4, args, 1, &k),
                     FRX_OK);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "kernel 'tk_broken'"));
    /* the compiler's own message, at a line of the generated source */
    /* tk_broken.c (C), .cl (OpenCL C) or .cu (CUDA), then ":<line>" */
    const char *at = strstr(frx_errmsg(), "tk_broken.c");
    while (at) {
        size_t e = 11 + (at[11] == 'l' || at[11] == 'u');
        if (at[e] == ':' && strchr("123456789", at[e + 1]))
            break;
        at = strstr(at + 1, "tk_broken.c");
    }
    ck_assert_msg(at, "no file:line in: %s", frx_errmsg());
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "the generated source is "
                                               "kept at"));
    frx_xchg_matrix_destroy(a);
}
END_TEST

/* What C lets through and C++ (CUDA, HIP) does not, each a wrong number
 * without an error on a C target: abs() of a float is C's integer abs
 * (-2.5 gives 2), and a function used undeclared returns an int. On
 * every backend the first is |x| or refused, the second refused. */
START_TEST(c_pitfalls_refused_or_right)
{
    frx_kernel_decl dabs = {.name = "tk_abs", .ndim = 1,
                            .args = "in xchg fpdtype_t[1] a, "
                                    "out xchg fpdtype_t[1] r",
                            .body = "r[0] = abs(a[0]);"};
    frx_kernel_decl dundecl = {.name = "tk_undeclared", .ndim = 1,
                               .args = "in xchg fpdtype_t[1] a, "
                                       "out xchg fpdtype_t[1] r",
                               .body = "r[0] = frx_no_such_fn(a[0]);"};
    ck_assert_int_eq(frx_kernel_register(be, &dabs), FRX_OK);
    ck_assert_int_eq(frx_kernel_register(be, &dundecl), FRX_OK);
    size_t n = 4;
    frx_xchg_matrix *a, *r;
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 1, &a), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 1, &r), FRX_OK);
    void *ha = tu_alloc(be, n), *hr = tu_alloc(be, n);
    for (size_t i = 0; i < n; i++)
        tu_put(be, ha, i, -2.5 + 1.25 * (double)i); /* -2.5 ... 1.25 */
    ck_assert_int_eq(frx_xchg_matrix_write(a, ha), FRX_OK);
    frx_arg args[] = {frx_arg_xchg(a), frx_arg_xchg(r)};
    frx_kernel *k;
    if (frx_kernel_create(be, "tk_abs", 1, n, args, 2, &k) == FRX_OK) {
        ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
        ck_assert_int_eq(frx_xchg_matrix_read(r, hr), FRX_OK);
        for (size_t i = 0; i < n; i++)
            tu_check(tu_get(be, hr, i) == fabs(tu_get(be, ha, i)),
                     "abs(%g) gave %g", tu_get(be, ha, i), tu_get(be, hr, i));
        frx_kernel_destroy(k);
    } else
        ck_assert_msg(strstr(frx_errmsg(), "kernel 'tk_abs'"), "%s",
                      frx_errmsg());
    ck_assert_int_ne(frx_kernel_create(be, "tk_undeclared", 1, n, args, 2,
                                       &k), FRX_OK);
    ck_assert_msg(strstr(frx_errmsg(), "kernel 'tk_undeclared'") &&
                      strstr(frx_errmsg(), "frx_no_such_fn"),
                  "%s", frx_errmsg());
    free(ha), free(hr);
    frx_xchg_matrix_destroy(a);
    frx_xchg_matrix_destroy(r);
}
END_TEST

/* ------------------------------------------------------- disk cache */

/* Run this program as a child that binds tk_axpy with a body made
 * unique by tag and prints "compiles cache_loads". */
static void run_children(const char *tag, int count, size_t *compiles,
                         size_t *loads)
{
    FILE *p[4];
    *compiles = *loads = 0;
    for (int c = 0; c < count; c++) {
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "'%s' %s --child %s %s", self_exe,
                 backend_name, precision, tag);
        p[c] = popen(cmd, "r");
        ck_assert_ptr_nonnull(p[c]);
    }
    for (int c = 0; c < count; c++) {
        size_t a = 0, b = 0;
        ck_assert_int_eq(fscanf(p[c], "%zu %zu", &a, &b), 2);
        ck_assert_int_eq(pclose(p[c]), 0);
        *compiles += a;
        *loads += b;
    }
}

static int child_main(const char *tag)
{
    frx_config *cfg;
    be = tu_backend_or_skip(backend_name, precision, &cfg);
    char body[256];
    snprintf(body, sizeof body, "/* %s */\nfor (int v = 0; v < 3; v++)\n"
                                "    y[v] += a*x[v];", tag);
    frx_kernel_decl d = tk_axpy;
    d.body = body;
    frx_matrix *x, *y;
    frx_kernel *k;
    frx_arg args[3];
    int rc = frx_kernel_register(be, &d);
    if (rc == FRX_OK)
        rc = frx_matrix_create(be, 2, 3, 9, &x);
    if (rc == FRX_OK)
        rc = frx_matrix_create(be, 2, 3, 9, &y);
    args[0] = frx_arg_matrix(x), args[1] = frx_arg_matrix(y);
    args[2] = frx_arg_scalar(1);
    if (rc == FRX_OK)
        rc = frx_kernel_create(be, "tk_axpy", 2, 9, args, 3, &k);
    if (rc == FRX_OK)
        rc = frx_kernel_run(k);
    if (rc) {
        fprintf(stderr, "child: %s\n", frx_errmsg());
        return 1;
    }
    frx_backend_stats st;
    frx_backend_get_stats(be, &st);
    printf("%zu %zu\n", st.compiles, st.cache_loads);
    frx_kernel_destroy(k);
    frx_matrix_destroy(x);
    frx_matrix_destroy(y);
    frx_backend_destroy(be);
    frx_config_free(cfg);
    return 0;
}

static char *unique_tag(const char *what)
{
    static char tag[128];
    snprintf(tag, sizeof tag, "%s-%s-%ld-%d", what, precision, (long)getpid(),
             rand());
    return tag;
}

START_TEST(cache_second_process_compiles_nothing)
{
    size_t c, l;
    const char *tag = unique_tag("second");
    run_children(tag, 1, &c, &l);
    ck_assert_uint_eq(c, 1);
    ck_assert_uint_eq(l, 0);
    run_children(tag, 1, &c, &l);
    ck_assert_uint_eq(c, 0);
    ck_assert_uint_eq(l, 1);
}
END_TEST

START_TEST(cache_two_processes_at_once_compile_once)
{
    size_t c, l;
    run_children(unique_tag("together"), 2, &c, &l);
    ck_assert_uint_eq(c, 1);
    ck_assert_uint_eq(l, 1);
}
END_TEST

/* Damage every entry of the cache: each is rebuilt, not loaded. */
static void corrupt_entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || strstr(e->d_name, ".lock") ||
            strstr(e->d_name, ".sum"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            corrupt_entries(path);
        } else if (stat(path, &st) == 0 && st.st_size > 100) {
            FILE *f = fopen(path, "r+b");
            ck_assert_ptr_nonnull(f);
            fseek(f, 64, SEEK_SET);
            int ch = fgetc(f);
            fseek(f, 64, SEEK_SET);
            fputc(ch ^ 0x5a, f);
            fclose(f);
        }
    }
    closedir(d);
}

/* In a cache directory of its own: damaging every entry of the shared
 * one would break the tests that ctest runs beside this one. */
START_TEST(cache_corrupted_entry_rebuilt)
{
    size_t c, l;
    const char *tag = unique_tag("corrupt");
    /* a cache of its own: damaging the shared one would damage what
     * tests running at the same time are building (a file damaged
     * between the compiler and its checksum stays damaged) */
    char *shared = strdup(getenv("FRX_CACHE_DIR")), own[4200];
    snprintf(own, sizeof own, "%s/corrupt-%s", shared, precision);
    setenv("FRX_CACHE_DIR", own, 1);
    run_children(tag, 1, &c, &l);
    ck_assert_uint_eq(c, 1);
    corrupt_entries(own);
    run_children(tag, 1, &c, &l);
    ck_assert_uint_eq(c, 1);
    ck_assert_uint_eq(l, 0);
    run_children(tag, 1, &c, &l); /* and the rebuilt one is good */
    ck_assert_uint_eq(c, 0);
    setenv("FRX_CACHE_DIR", shared, 1);
    free(shared);
}
END_TEST

START_TEST(cache_dir_writable_by_others_refused)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/open-%s", getenv("FRX_CACHE_DIR"),
             precision);
    mkdir(dir, 0700);
    ck_assert_int_eq(chmod(dir, 0777), 0);
    char *old = strdup(getenv("FRX_CACHE_DIR"));
    setenv("FRX_CACHE_DIR", dir, 1);
    frx_kernel_decl d = tk_scalars;
    d.name = "tk_open_cache";
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_OK);
    uint64_t rng = 109;
    void *hx, *hy;
    frx_matrix *x = rand_matrix(1, 1, 8, &rng, &hx);
    frx_matrix *y = rand_matrix(1, 1, 8, &rng, &hy);
    frx_arg args[] = {frx_arg_matrix(x), frx_arg_matrix(y), frx_arg_scalar(1),
                      frx_arg_scalar(1), frx_arg_scalar(1)};
    frx_kernel *k;
    int rc = frx_kernel_create(be, "tk_open_cache", 1, 8, args, 5, &k);
    setenv("FRX_CACHE_DIR", old, 1);
    free(old);
    ck_assert_int_ne(rc, FRX_OK);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), dir));
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "chmod 700"));
    free(hx), free(hy);
    frx_matrix_destroy(x);
    frx_matrix_destroy(y);
}
END_TEST

/* ------------------------------------------------------------- graphs */

/* pack -> kernel reading the packed buffer -> kernel writing a matrix
 * the pack reads. Added in a scrambled order with no explicit edges
 * except where data cannot tell. */
START_TEST(graph_orders_by_intent)
{
    register_all();
    size_t n = 24;
    struct forum f;
    forum_setup(&f, n);
    frx_arg args[] = {frx_arg_view(f.v), frx_arg_xchg(f.base),
                      frx_arg_xchg(f.diff)};
    frx_kernel *check;
    ck_assert_int_eq(frx_kernel_create(be, "intconulin_baseflow_check", 1, n,
                                       args, 3, &check), FRX_OK);
    frx_xchg_matrix *sq;
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 2, &sq), FRX_OK);
    frx_xchg_matrix *pair;
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 2, &pair), FRX_OK);
    frx_arg margs[] = {frx_arg_xchg(pair), frx_arg_xchg(sq)};
    frx_kernel *square;
    ck_assert_int_eq(frx_kernel_create(be, "tk_macro", 1, n, margs, 2,
                                       &square), FRX_OK);

    frx_graph *g;
    int nodes[4];
    ck_assert_int_eq(frx_graph_create(be, &g), FRX_OK);
    ck_assert_int_eq(frx_graph_add_kernel(g, square, NULL, 0, &nodes[0]),
                     FRX_OK);
    ck_assert_int_eq(frx_graph_add_kernel(g, check, NULL, 0, &nodes[1]),
                     FRX_OK);
    ck_assert_int_eq(frx_graph_add_pack(g, f.xv, NULL, 0, &nodes[2]), FRX_OK);
    ck_assert_int_eq(frx_graph_add_unpack(g, f.xv, NULL, 0, &nodes[3]),
                     FRX_OK);
    ck_assert_int_eq(frx_graph_commit(g), FRX_OK);
    int order[4];
    ck_assert_int_eq(frx_graph_order(g, order, 4), FRX_OK);
    /* check reads the view the pack reads (no edge) but the pack's
     * upstream: check and pack both precede unpack, which writes the
     * view; the pack (headed for MPI) runs before the unrelated square */
    int pos[4];
    for (int i = 0; i < 4; i++)
        pos[order[i]] = i;
    ck_assert_int_lt(pos[nodes[1]], pos[nodes[3]]);
    ck_assert_int_lt(pos[nodes[2]], pos[nodes[3]]);
    ck_assert_int_lt(pos[nodes[2]], pos[nodes[0]]);
    for (int rep = 0; rep < 3; rep++)
        ck_assert_int_eq(frx_graph_run(g), FRX_OK);
    void *d = tu_alloc(be, 4 * n);
    ck_assert_int_eq(frx_xchg_matrix_read(f.diff, d), FRX_OK);
    for (size_t i = 0; i < 4 * n; i++)
        ck_assert(tu_get(be, d, i) == 0.0);
    free(d);
    ck_assert_int_eq(frx_graph_add_pack(g, f.xv, NULL, 0, NULL), FRX_EINVAL);
    int bad = 7;
    frx_graph *g2;
    ck_assert_int_eq(frx_graph_create(be, &g2), FRX_OK);
    ck_assert_int_eq(frx_graph_add_pack(g2, f.xv, &bad, 1, NULL), FRX_EINVAL);
    frx_graph_destroy(g2);
    frx_graph_destroy(g);
    frx_kernel_destroy(check);
    frx_kernel_destroy(square);
    frx_xchg_matrix_destroy(sq);
    frx_xchg_matrix_destroy(pair);
    forum_teardown(&f);
}
END_TEST

/* Kernels that touch the same memory only as the same matrix (element i
 * work item i's) or not at all may run on a worker without waiting for
 * the others (FRX_EXEC_SAME_WORKERS, on a backend that runs batches:
 * openmp); others wait. The chain runs three times and must give what
 * the same updates give in order on the host. */
START_TEST(graph_same_workers)
{
    register_all();
    uint64_t rng = 77;
    size_t q = frx_backend_soasz(be), n = 4 * q, h = 2 * q; /* chunks */
    void *hu, *hf, *hw;
    frx_matrix *u = rand_matrix(2, 3, n, &rng, &hu);
    frx_matrix *f = rand_matrix(2, 3, n, &rng, &hf);
    frx_matrix *w = rand_matrix(2, 3, h, &rng, &hw);
    frx_matrix *ulo, *uhi, *flo, *fhi, *fmid;
    ck_assert_int_eq(frx_matrix_slice(u, 0, h, &ulo), FRX_OK);
    ck_assert_int_eq(frx_matrix_slice(u, h, n, &uhi), FRX_OK);
    ck_assert_int_eq(frx_matrix_slice(f, 0, h, &flo), FRX_OK);
    ck_assert_int_eq(frx_matrix_slice(f, h, n, &fhi), FRX_OK);
    ck_assert_int_eq(frx_matrix_slice(f, q, q + h, &fmid), FRX_OK);
    /* y += a*x, and whether it may skip the wait */
    struct { frx_matrix *x, *y; double a; int same; } st[] = {
        {u, f, 1, 0},      /* the batch's first */
        {u, f, 2, 1},      /* f again, item by item */
        {f, u, 0.5, 1},    /* reads f, writes u: as the same matrices */
        {ulo, fhi, 1, 0},  /* fhi is part of f: other items */
        {ulo, flo, 3, 1},  /* flo's rows miss fhi's */
        {uhi, flo, 1, 1},  /* uhi only read in the group */
        {flo, uhi, -1, 1}, /* flo item by item, uhi misses ulo */
        {fmid, w, 1, 0},   /* fmid holds other items of flo and fhi */
    };
    size_t ns = sizeof st / sizeof *st;
    frx_kernel *k[8];
    frx_graph *g;
    ck_assert_int_eq(frx_graph_create(be, &g), FRX_OK);
    for (size_t i = 0; i < ns; i++) {
        frx_arg a[] = {frx_arg_matrix(st[i].x), frx_arg_matrix(st[i].y),
                       frx_arg_scalar(st[i].a)};
        ck_assert_int_eq(frx_kernel_create(be, "tk_axpy", 2,
                                           frx_matrix_neles(st[i].y), a, 3,
                                           &k[i]), FRX_OK);
        int node;
        ck_assert_int_eq(frx_graph_add_kernel(g, k[i], NULL, 0, &node),
                         FRX_OK);
        ck_assert_int_eq(node, (int)i);
    }
    ck_assert_int_eq(frx_graph_commit(g), FRX_OK);
    int order[8];
    ck_assert_int_eq(frx_graph_order(g, order, ns), FRX_OK);
    int batches = strcmp(backend_name, "openmp") == 0;
    for (size_t i = 0; i < ns; i++) {
        uint32_t fl;
        ck_assert_int_eq(order[i], (int)i);
        ck_assert_int_eq(frx_graph_node_flags(g, (int)i, &fl), FRX_OK);
        ck_assert_msg(!!(fl & FRX_EXEC_SAME_WORKERS) == (batches && st[i].same),
                      "node %zu: flags %u", i, (unsigned)fl);
    }
    uint32_t fl;
    ck_assert_int_eq(frx_graph_node_flags(g, (int)ns, &fl), FRX_EINVAL);
    /* the host's: matrix m's value (r, v, e), e counted from e0 */
    double *m[3] = {malloc(2 * 3 * n * sizeof(double)),
                    malloc(2 * 3 * n * sizeof(double)),
                    malloc(2 * 3 * h * sizeof(double))};
    const void *hm[3] = {hu, hf, hw};
    size_t ne[3] = {n, n, h};
    for (int j = 0; j < 3; j++)
        for (size_t i = 0; i < 2 * 3 * ne[j]; i++)
            m[j][i] = tu_get(be, hm[j], i);
    struct { int x; size_t x0; int y; size_t y0; } ref[] = {
        {0, 0, 1, 0}, {0, 0, 1, 0}, {1, 0, 0, 0}, {0, 0, 1, h},
        {0, 0, 1, 0}, {0, h, 1, 0}, {1, 0, 0, h}, {1, q, 2, 0}};
    for (int rep = 0; rep < 3; rep++) {
        ck_assert_int_eq(frx_graph_run(g), FRX_OK);
        for (size_t i = 0; i < ns; i++) {
            size_t cnt = frx_matrix_neles(st[i].y);
            for (size_t r = 0; r < 2 * 3; r++)
                for (size_t e = 0; e < cnt; e++)
                    m[ref[i].y][r * ne[ref[i].y] + ref[i].y0 + e] +=
                        st[i].a * m[ref[i].x][r * n + ref[i].x0 + e];
        }
    }
    frx_matrix *all[3] = {u, f, w};
    for (int j = 0; j < 3; j++) {
        void *got = read_matrix(all[j]);
        for (size_t i = 0; i < 2 * 3 * ne[j]; i++)
            assert_close(tu_get(be, got, i), m[j][i], "u, f, w", i);
        free(got);
        free(m[j]);
    }
    frx_graph_destroy(g);
    for (size_t i = 0; i < ns; i++)
        frx_kernel_destroy(k[i]);
    frx_matrix *sl[] = {ulo, uhi, flo, fhi, fmid, u, f, w};
    for (size_t i = 0; i < 8; i++)
        frx_matrix_destroy(sl[i]);
    free(hu), free(hf), free(hw);
}
END_TEST

static Suite *kernels_suite(void)
{
    Suite *s = suite_create("kernels");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120); /* cold compiles */
    tcase_add_test(tc, matrix_args_2d);
    tcase_add_test(tc, matrix_args_two_dims);
    tcase_add_test(tc, rows_in_groups);
    tcase_add_test(tc, view_args);
    tcase_add_test(tc, broadcast_args);
    tcase_add_test(tc, broadcast_slice_refused);
    tcase_add_test(tc, written_view_with_a_repeated_point_refused);
    tcase_add_test(tc, arguments_of_another_backend_refused);
    tcase_add_test(tc, argument_of_the_wrong_kind_refused);
    tcase_add_test(tc, gradient_xchg_args);
    tcase_add_test(tc, xchg_args_and_macro);
    tcase_add_test(tc, unread_inputs_not_loaded);
    tcase_add_test(tc, forum_baseflow_is_zero_at_t0);
    tcase_add_test(tc, forum_snapshot_bound_as_view_refused);
    tcase_add_test(tc, binding_shape_and_count_checked);
    tcase_add_test(tc, body_file_and_mpi_alias);
    tcase_add_test(tc, bad_declarations_refused);
    tcase_add_test(tc, kernel_names_and_reregistration);
    tcase_add_test(tc, const_matrices_never_written);
    tcase_add_test(tc, overlapping_arguments_refused);
    tcase_add_test(tc, offsets_past_2_31_values);
    tcase_add_test(tc, generated_offsets_are_64_bit);
    tcase_add_test(tc, openmp_cflags_never_reach_a_shell);
    tcase_add_test(tc, scalars_rebound_without_recompiling);
    tcase_add_test(tc, compile_error_names_kernel_and_line);
    tcase_add_test(tc, c_pitfalls_refused_or_right);
    tcase_add_test(tc, cache_second_process_compiles_nothing);
    tcase_add_test(tc, cache_two_processes_at_once_compile_once);
    tcase_add_test(tc, cache_corrupted_entry_rebuilt);
    tcase_add_test(tc, cache_dir_writable_by_others_refused);
    tcase_add_test(tc, graph_orders_by_intent);
    tcase_add_test(tc, graph_same_workers);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    self_exe = argv[0];
    backend_name = argc > 1 ? argv[1] : "openmp";
    if (argc == 5 && strcmp(argv[2], "--child") == 0) {
        precision = argv[3];
        return child_main(argv[4]);
    }
    srand((unsigned)getpid());
    /* the disk-cache tests are about frx's cache: opencl keeps its
     * programs' binaries there even on PoCL (test_opencl.c checks auto) */
    setenv("FRX_TEST_OPENCL_BINARIES", "on", 0);
    return tu_run_per_precision(backend_name, kernels_suite, &be, &precision);
}
