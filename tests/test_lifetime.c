/* SPDX-License-Identifier: BSD-3-Clause */
/* Conformance: objects that use others hold references on them, so that
 * destroying in any order is safe. Each test destroys what a kernel,
 * an xchg view or a graph uses before running it, then checks what it
 * computed (under ASan, a read of freed memory fails the test). Run once
 * per backend (argv[1]) in both precisions; exits 77 when the backend
 * cannot start here. */
#include "kernels.h"
#include "testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static frx_backend *be;
static const char *precision;

static void register_all(void)
{
    for (size_t i = 0; i < TK_COUNT; i++)
        ck_assert_int_eq(frx_kernel_register(be, tk_all[i]), FRX_OK);
}

static frx_matrix *rand_matrix(size_t nrow, size_t nvar, size_t neles,
                               uint64_t *rng, void **host)
{
    return tu_rand_matrix(be, nrow, nvar, neles, rng, host);
}

static void assert_near(double got, double want, const char *what, size_t i)
{
    double tol = (frx_backend_fpsize(be) == 4 ? 1e-5 : 1e-12) *
                 (1 + fabs(want));
    tu_check(fabs(got - want) <= tol, "%s[%zu] = %.17g, want %.17g", what, i,
             got, want);
}

/* A view of n points of u (4 rows, 4 variables, 31 elements), one row
 * of 4 values each, as a face's points; the host values it holds in
 * want (n x 4, as an xchg matrix: value c of point i at c*n + i). */
static frx_view *face_view(frx_matrix *u, const void *hu, size_t n,
                           double *want)
{
    frx_matrix *mats[64];
    size_t rows[64], eles[64];
    for (size_t i = 0; i < n; i++) {
        mats[i] = u;
        rows[i] = i % 2 ? 3 : 0;
        eles[i] = (i * 5) % 31;
        for (size_t c = 0; c < 4; c++)
            want[c * n + i] = tu_get(be, hu, (rows[i] * 4 + c) * 31 + eles[i]);
    }
    frx_view *v;
    ck_assert_int_eq(frx_view_create(be, n, mats, rows, eles, NULL, 1, 4, &v),
                     FRX_OK);
    return v;
}

/* B3: a kernel holds the matrices, views and xchg matrices it is bound
 * to: destroyed by the caller first, its launch still reads them. */
START_TEST(kernel_holds_what_it_is_bound_to)
{
    register_all();
    uint64_t rng = 301;
    size_t n = 50;
    void *hx, *hy, *hu;
    /* matrices: y = 3*x with x destroyed */
    frx_matrix *x = rand_matrix(1, 1, n, &rng, &hx);
    frx_matrix *y = rand_matrix(1, 1, n, &rng, &hy);
    frx_arg a1[] = {frx_arg_matrix(x), frx_arg_matrix(y), frx_arg_scalar(3)};
    frx_kernel *scale;
    ck_assert_int_eq(frx_kernel_create(be, tk_scale1.name, 1, n, a1, 3,
                                       &scale), FRX_OK);
    frx_matrix_destroy(x);
    ck_assert_int_eq(frx_kernel_run(scale), FRX_OK);
    void *got = tu_alloc(be, 4 * n);
    ck_assert_int_eq(frx_matrix_read(y, got), FRX_OK);
    for (size_t e = 0; e < n; e++)
        assert_near(tu_get(be, got, e), 3 * tu_get(be, hx, e), "y", e);
    frx_kernel_destroy(scale);
    frx_matrix_destroy(y);

    /* a view, an xchg matrix read and the one written: diff = ul - base
     * with the view, its matrix and base destroyed; diff is read after
     * its creator's reference is gone too, through a second kernel's */
    frx_matrix *u = rand_matrix(4, 4, 31, &rng, &hu);
    double want[4 * 64];
    frx_view *v = face_view(u, hu, n, want);
    frx_xchg_matrix *base, *diff;
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 4, &base), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 4, &diff), FRX_OK);
    void *hb = tu_alloc(be, 4 * n);
    for (size_t i = 0; i < 4 * n; i++)
        tu_put(be, hb, i, tu_value(&rng));
    ck_assert_int_eq(frx_xchg_matrix_write(base, hb), FRX_OK);
    frx_arg a2[] = {frx_arg_view(v), frx_arg_xchg(base), frx_arg_xchg(diff)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, tk_baseflow.name, 1, n, a2, 3,
                                       &k), FRX_OK);
    frx_view_destroy(v);
    frx_matrix_destroy(u);
    frx_xchg_matrix_destroy(base);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_read(diff, got), FRX_OK);
    for (size_t i = 0; i < 4 * n; i++)
        assert_near(tu_get(be, got, i), want[i] - tu_get(be, hb, i), "diff",
                    i);
    frx_kernel_destroy(k);
    frx_xchg_matrix_destroy(diff);

    /* a const matrix broadcast: destroyed first, it stays registered
     * while the kernel holds it (equal contents give the held one) */
    static const double B[15] = {1, 2, 0, -1, 0.5, 0, 1, 1, 0, 2,
                                 -3, 0, 0.25, 1, 1};
    frx_matrix *b, *b2, *uu, *w;
    void *huu, *hw;
    ck_assert_int_eq(frx_matrix_create_const(be, 3, 5, B, &b), FRX_OK);
    uu = rand_matrix(1, 5, n, &rng, &huu);
    w = rand_matrix(1, 3, n, &rng, &hw);
    frx_arg a3[] = {frx_arg_matrix(b), frx_arg_matrix(uu), frx_arg_matrix(w)};
    ck_assert_int_eq(frx_kernel_create(be, tk_broadcast.name, 1, n, a3, 3,
                                       &k), FRX_OK);
    frx_matrix_destroy(b);
    frx_matrix_destroy(uu);
    ck_assert_int_eq(frx_matrix_create_const(be, 3, 5, B, &b2), FRX_OK);
    ck_assert_ptr_eq(b2, b);
    frx_matrix_destroy(b2);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    void *gw = tu_alloc(be, 3 * n);
    ck_assert_int_eq(frx_matrix_read(w, gw), FRX_OK);
    for (size_t e = 0; e < n; e++)
        for (size_t r = 0; r < 3; r++) {
            double acc = 0;
            for (size_t c = 0; c < 5; c++)
                acc += B[r * 5 + c] * tu_get(be, huu, c * n + e);
            assert_near(tu_get(be, gw, r * n + e), acc, "w", r * n + e);
        }
    frx_kernel_destroy(k);
    frx_matrix_destroy(w);
    free(got), free(gw), free(hx), free(hy), free(hu), free(hb), free(huu);
    free(hw);
}
END_TEST

/* B2: an xchg view holds its view (and so the view's allocation). */
START_TEST(xchg_view_holds_its_view)
{
    uint64_t rng = 302;
    size_t n = 40;
    void *hu;
    double want[4 * 64];
    frx_matrix *u = rand_matrix(4, 4, 31, &rng, &hu);
    frx_view *v = face_view(u, hu, n, want);
    frx_xchg_view *xv;
    ck_assert_int_eq(frx_xchg_view_create(v, &xv), FRX_OK);
    /* pack with the view and its matrix gone */
    frx_view_destroy(v);
    frx_matrix_destroy(u);
    ck_assert_int_eq(frx_xchg_view_pack(xv), FRX_OK);
    void *got = tu_alloc(be, 4 * n);
    frx_xchg_matrix *xm = frx_xchg_view_matrix(xv);
    ck_assert_int_eq(frx_xchg_matrix_read(xm, got), FRX_OK);
    for (size_t i = 0; i < 4 * n; i++)
        tu_check(tu_get(be, got, i) == want[i], "packed[%zu] = %g, want %g",
                 i, tu_get(be, got, i), want[i]);
    /* the snapshot and unpack too: unpack writes new values into the
     * points, read back through a second view's pack */
    frx_xchg_matrix *snap;
    ck_assert_int_eq(frx_xchg_view_snapshot(xv, &snap), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_read(snap, got), FRX_OK);
    for (size_t i = 0; i < 4 * n; i++)
        tu_check(tu_get(be, got, i) == want[i], "snapshot[%zu] = %g, want "
                 "%g", i, tu_get(be, got, i), want[i]);
    frx_xchg_matrix_destroy(snap);
    for (size_t i = 0; i < 4 * n; i++)
        tu_put(be, got, i, -1.0 - (double)i);
    ck_assert_int_eq(frx_xchg_matrix_write(xm, got), FRX_OK);
    ck_assert_int_eq(frx_xchg_view_unpack(xv), FRX_OK);
    ck_assert_int_eq(frx_xchg_view_pack(xv), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_read(xm, got), FRX_OK);
    for (size_t i = 0; i < 4 * n; i++)
        tu_check(tu_get(be, got, i) == -1.0 - (double)i, "repacked[%zu] = "
                 "%g, want %g", i, tu_get(be, got, i), -1.0 - (double)i);
    frx_xchg_view_destroy(xv);
    free(got), free(hu);
}
END_TEST

/* B1: a graph holds its nodes' kernels, products and xchg views, each
 * destroyed by the caller before the graph commits and runs. */
START_TEST(graph_holds_its_nodes)
{
    register_all();
    uint64_t rng = 303;
    size_t n = 37;
    void *hx, *hy, *hb, *hc, *hu;
    double want[4 * 64];
    frx_matrix *x = rand_matrix(1, 1, n, &rng, &hx);
    frx_matrix *y = rand_matrix(1, 1, n, &rng, &hy);
    frx_arg a1[] = {frx_arg_matrix(x), frx_arg_matrix(y), frx_arg_scalar(2)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, tk_scale1.name, 1, n, a1, 3, &k),
                     FRX_OK);
    /* C = A*B with A 2 x 3 */
    static const double A[6] = {1, -2, 0.5, 0, 3, 1};
    frx_matrix *a, *b = rand_matrix(3, 1, n, &rng, &hb);
    frx_matrix *c = rand_matrix(2, 1, n, &rng, &hc);
    ck_assert_int_eq(frx_matrix_create_const(be, 2, 3, A, &a), FRX_OK);
    frx_product *p;
    ck_assert_int_eq(frx_product_create_using(a, b, c, 1, 0, "generated/r1",
                                              &p), FRX_OK);
    frx_matrix *u = rand_matrix(4, 4, 31, &rng, &hu);
    frx_view *v = face_view(u, hu, n, want);
    frx_xchg_view *xv;
    ck_assert_int_eq(frx_xchg_view_create(v, &xv), FRX_OK);
    frx_xchg_matrix *xm = frx_xchg_view_matrix(xv);

    frx_graph *g;
    ck_assert_int_eq(frx_graph_create(be, &g), FRX_OK);
    ck_assert_int_eq(frx_graph_add_kernel(g, k, NULL, 0, NULL), FRX_OK);
    ck_assert_int_eq(frx_graph_add_product(g, p, NULL, 0, NULL), FRX_OK);
    ck_assert_int_eq(frx_graph_add_pack(g, xv, NULL, 0, NULL), FRX_OK);
    /* a node that failed to be added holds nothing */
    int bad = 99;
    ck_assert_int_eq(frx_graph_add_kernel(g, k, &bad, 1, NULL), FRX_EINVAL);
    frx_kernel_destroy(k);
    frx_product_destroy(p);
    frx_matrix_destroy(a);
    frx_matrix_destroy(b);
    frx_matrix_destroy(x);
    frx_view_destroy(v);
    frx_matrix_destroy(u);
    /* xm is the xchg view's: the graph's reference keeps both */
    frx_xchg_view_destroy(xv);
    ck_assert_int_eq(frx_graph_commit(g), FRX_OK);
    for (int run = 0; run < 2; run++)
        ck_assert_int_eq(frx_graph_run(g), FRX_OK);
    ck_assert_int_eq(frx_backend_sync(be), FRX_OK);

    void *got = tu_alloc(be, 4 * n);
    ck_assert_int_eq(frx_matrix_read(y, got), FRX_OK);
    for (size_t e = 0; e < n; e++)
        assert_near(tu_get(be, got, e), 2 * tu_get(be, hx, e), "y", e);
    ck_assert_int_eq(frx_matrix_read(c, got), FRX_OK);
    for (size_t r = 0; r < 2; r++)
        for (size_t e = 0; e < n; e++) {
            double acc = 0;
            for (size_t j = 0; j < 3; j++)
                acc += A[r * 3 + j] * tu_get(be, hb, j * n + e);
            assert_near(tu_get(be, got, r * n + e), acc, "C", r * n + e);
        }
    ck_assert_int_eq(frx_xchg_matrix_read(xm, got), FRX_OK);
    for (size_t i = 0; i < 4 * n; i++)
        tu_check(tu_get(be, got, i) == want[i], "packed[%zu] = %g, want %g",
                 i, tu_get(be, got, i), want[i]);
    frx_graph_destroy(g); /* the last references: all freed here */
    frx_matrix_destroy(y);
    frx_matrix_destroy(c);
    free(got), free(hx), free(hy), free(hb), free(hc), free(hu);
}
END_TEST

/* Kernels in two graphs, the graphs destroyed in either order, and a
 * kernel destroyed while a graph still runs it. */
START_TEST(kernel_in_two_graphs)
{
    register_all();
    uint64_t rng = 304;
    size_t n = 20;
    void *hx, *hz;
    frx_matrix *x = rand_matrix(1, 1, n, &rng, &hx);
    frx_matrix *z = rand_matrix(1, 1, n, &rng, &hz);
    frx_arg a[] = {frx_arg_matrix(x), frx_arg_matrix(z), frx_arg_scalar(1)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, tk_axpy1.name, 1, n, a, 3, &k),
                     FRX_OK);
    frx_graph *g1, *g2;
    ck_assert_int_eq(frx_graph_create(be, &g1), FRX_OK);
    ck_assert_int_eq(frx_graph_create(be, &g2), FRX_OK);
    ck_assert_int_eq(frx_graph_add_kernel(g1, k, NULL, 0, NULL), FRX_OK);
    ck_assert_int_eq(frx_graph_add_kernel(g2, k, NULL, 0, NULL), FRX_OK);
    ck_assert_int_eq(frx_graph_add_kernel(g2, k, NULL, 0, NULL), FRX_OK);
    ck_assert_int_eq(frx_graph_commit(g1), FRX_OK);
    ck_assert_int_eq(frx_graph_commit(g2), FRX_OK);
    frx_kernel_destroy(k);
    frx_matrix_destroy(x);
    ck_assert_int_eq(frx_graph_run(g1), FRX_OK); /* z += x */
    frx_graph_destroy(g1);
    ck_assert_int_eq(frx_graph_run(g2), FRX_OK); /* z += 2x */
    frx_graph_destroy(g2);
    void *got = tu_alloc(be, n);
    ck_assert_int_eq(frx_matrix_read(z, got), FRX_OK);
    for (size_t e = 0; e < n; e++)
        assert_near(tu_get(be, got, e),
                    tu_get(be, hz, e) + 3 * tu_get(be, hx, e), "z", e);
    frx_matrix_destroy(z);
    free(got), free(hx), free(hz);
}
END_TEST

static Suite *lifetime_suite(void)
{
    Suite *s = suite_create("lifetime");
    TCase *tc = tcase_create(precision);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, kernel_holds_what_it_is_bound_to);
    tcase_add_test(tc, xchg_view_holds_its_view);
    tcase_add_test(tc, graph_holds_its_nodes);
    tcase_add_test(tc, kernel_in_two_graphs);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_lifetime BACKEND\n");
        return 2;
    }
    return tu_run_per_precision(argv[1], lifetime_suite, &be, &precision);
}
