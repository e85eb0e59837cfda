/* SPDX-License-Identifier: BSD-3-Clause */
/* Conformance: reductions (max, min, sum over points, into host values)
 * against plain C references, and host nodes in graphs. Run once per
 * backend (argv[1]) in both precisions; exits 77 when the backend
 * cannot start here. */
#include "kernels.h"
#include "testutil.h"

#include <check.h>
#include <frx/plugin.h> /* frx_error, for the callback */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A sum of n values each |x| <= big is exact to this in the precision. */
static double sum_tol(double abs_sum)
{
    return abs_sum * (frx_backend_fpsize(be) == 4 ? 1e-6 : 1e-14);
}

/* max, min and sum of a (2, 3)-per-point matrix over n points, n not a
 * multiple of any chunk width or work-group, and several sizes so that
 * one, some and every slice / work-group is in play. */
START_TEST(max_min_sum_match_host)
{
    register_all();
    static const size_t sizes[] = {1, 37, 1000, 100003};
    for (size_t t = 0; t < 4; t++) {
        size_t n = sizes[t];
        uint64_t rng = 201 + t;
        void *hu;
        frx_matrix *u = rand_matrix(2, 3, n, &rng, &hu);
        frx_arg args[] = {frx_arg_matrix(u), frx_arg_reduce(),
                          frx_arg_reduce(), frx_arg_reduce()};
        frx_kernel *k;
        ck_assert_int_eq(frx_kernel_create(be, tk_reduce3.name, 1, n, args, 4,
                                           &k), FRX_OK);
        ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
        double mx[6], mn[3], sm, sm2;
        ck_assert_int_eq(frx_kernel_result(k, "mx", mx, 6), FRX_OK);
        ck_assert_int_eq(frx_kernel_result(k, "mn", mn, 3), FRX_OK);
        ck_assert_int_eq(frx_kernel_result(k, "sm", &sm, 1), FRX_OK);
        double wmx[6], wmn[3], wsm = 0, abs = 0;
        for (size_t c = 0; c < 6; c++)
            wmx[c] = -INFINITY;
        for (size_t c = 0; c < 3; c++)
            wmn[c] = INFINITY;
        for (size_t e = 0; e < n; e++)
            for (size_t r = 0; r < 2; r++)
                for (size_t v = 0; v < 3; v++) {
                    double x = tu_get(be, hu, (r * 3 + v) * n + e);
                    wmx[r * 3 + v] = fmax(wmx[r * 3 + v], x);
                    if (r == 1)
                        wmn[v] = fmin(wmn[v], x);
                    wsm += x;
                    abs += fabs(x);
                }
        for (size_t c = 0; c < 6; c++)
            ck_assert_msg(mx[c] == wmx[c], "n %zu: max[%zu] = %g, want %g", n,
                          c, mx[c], wmx[c]);
        for (size_t c = 0; c < 3; c++)
            ck_assert_msg(mn[c] == wmn[c], "n %zu: min[%zu] = %g, want %g", n,
                          c, mn[c], wmn[c]);
        ck_assert_msg(fabs(sm - wsm) <= sum_tol(abs), "n %zu: sum %.17g, "
                      "want %.17g", n, sm, wsm);
        /* the same fold each run: bitwise */
        ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
        ck_assert_int_eq(frx_kernel_result(k, "sm", &sm2, 1), FRX_OK);
        ck_assert_msg(memcmp(&sm, &sm2, sizeof sm) == 0, "n %zu: sums %.17g "
                      "and %.17g differ between runs", n, sm, sm2);
        frx_kernel_destroy(k);
        frx_matrix_destroy(u);
        free(hu);
    }
}
END_TEST

/* ndim 2: over rows x points, each point's values per variable. */
START_TEST(rows_by_points)
{
    register_all();
    size_t nrows = 5, n = 301;
    uint64_t rng = 211;
    void *hu;
    frx_matrix *u = rand_matrix(nrows, 4, n, &rng, &hu);
    frx_arg args[] = {frx_arg_matrix(u), frx_arg_reduce()};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, tk_normsq.name, nrows, n, args, 2,
                                       &k), FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    double got[4], want[4] = {0}, abs[4] = {0};
    ck_assert_int_eq(frx_kernel_result(k, "s", got, 4), FRX_OK);
    for (size_t j = 0; j < nrows; j++)
        for (size_t v = 0; v < 4; v++)
            for (size_t e = 0; e < n; e++) {
                double x = tu_get(be, hu, (j * 4 + v) * n + e);
                want[v] += x * x;
                abs[v] += x * x;
            }
    for (size_t v = 0; v < 4; v++)
        ck_assert_msg(fabs(got[v] - want[v]) <= sum_tol(abs[v]),
                      "sum of squares[%zu] = %.17g, want %.17g", v, got[v],
                      want[v]);
    frx_kernel_destroy(k);
    frx_matrix_destroy(u);
    free(hu);
}
END_TEST

/* The base-flow check of an interface: the largest |live - snapshot|
 * over a view's points, exactly 0 at t = 0, then the change made. */
START_TEST(view_and_xchg_reduced)
{
    register_all();
    size_t n = 45, neles = 33;
    uint64_t rng = 221;
    void *hu;
    frx_matrix *u = rand_matrix(4, 4, neles, &rng, &hu);
    frx_matrix *mats[45];
    size_t rows[45], eles[45];
    for (size_t i = 0; i < n; i++) {
        mats[i] = u;
        rows[i] = i % 2 ? 3 : 0;
        eles[i] = (i * 7) % neles;
    }
    frx_view *v;
    frx_xchg_view *xv;
    frx_xchg_matrix *base;
    ck_assert_int_eq(frx_view_create(be, n, mats, rows, eles, NULL, 1, 4, &v),
                     FRX_OK);
    ck_assert_int_eq(frx_xchg_view_create(v, &xv), FRX_OK);
    ck_assert_int_eq(frx_xchg_view_snapshot(xv, &base), FRX_OK);
    frx_arg args[] = {frx_arg_view(v), frx_arg_xchg(base), frx_arg_reduce()};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, tk_baseflow_max.name, 1, n, args,
                                       3, &k), FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    double d;
    ck_assert_int_eq(frx_kernel_result(k, "dmax", &d, 1), FRX_OK);
    ck_assert_msg(d == 0.0, "at t = 0 the difference is %g, not 0", d);
    /* change one value the view sees: point 5 is row 3 of element 2 */
    tu_put(be, hu, (3 * 4 + 2) * neles + eles[5],
           tu_get(be, hu, (3 * 4 + 2) * neles + eles[5]) - 2.5);
    ck_assert_int_eq(frx_matrix_write(u, hu), FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    ck_assert_int_eq(frx_kernel_result(k, "dmax", &d, 1), FRX_OK);
    ck_assert_msg(d == 2.5, "after the change: %g, want 2.5", d);
    frx_kernel_destroy(k);
    frx_xchg_matrix_destroy(base);
    frx_xchg_view_destroy(xv);
    frx_view_destroy(v);
    frx_matrix_destroy(u);
    free(hu);
}
END_TEST

/* NaN and Inf found per variable, and max ignores NaN as fmax does. */
START_TEST(nonfinite_found_per_variable)
{
    register_all();
    size_t nrows = 3, n = 77;
    uint64_t rng = 231;
    void *hu;
    frx_matrix *u = rand_matrix(nrows, 4, n, &rng, &hu);
    tu_put(be, hu, (2 * 4 + 1) * n + 76, NAN);      /* variable 1 */
    tu_put(be, hu, (0 * 4 + 3) * n + 40, -INFINITY); /* variable 3 */
    ck_assert_int_eq(frx_matrix_write(u, hu), FRX_OK);
    frx_arg args[] = {frx_arg_matrix(u), frx_arg_reduce(), frx_arg_reduce()};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, tk_nonfinite.name, nrows, n, args,
                                       3, &k), FRX_OK);
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    double bad[4], mx[4];
    ck_assert_int_eq(frx_kernel_result(k, "bad", bad, 4), FRX_OK);
    ck_assert_int_eq(frx_kernel_result(k, "mx", mx, 4), FRX_OK);
    ck_assert(bad[0] == 0 && bad[1] == 1 && bad[2] == 0 && bad[3] == 1);
    ck_assert_msg(!isnan(mx[1]), "max took a NaN");
    frx_kernel_destroy(k);
    frx_matrix_destroy(u);
    free(hu);
}
END_TEST

START_TEST(misuse_refused)
{
    register_all();
    frx_kernel_decl d = {.name = "tk_bad_reduce", .ndim = 1,
                         .args = "in reduce(max) fpdtype_t r", .body = ";"};
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "a reduction is written, "
                                               "never read"));
    d.args = "out reduce(avg) fpdtype_t r";
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "'reduce(avg)' is no "
                                               "reduction"));
    uint64_t rng = 241;
    void *hu;
    frx_matrix *u = rand_matrix(5, 4, 20, &rng, &hu);
    frx_arg wrong[] = {frx_arg_matrix(u), frx_arg_matrix(u)};
    frx_kernel *k = NULL;
    ck_assert_int_eq(frx_kernel_create(be, tk_normsq.name, 5, 20, wrong, 2,
                                       &k), FRX_ESHAPE);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "argument 's' is declared "
                                               "'out reduce(sum) fpdtype_t[4]'"
                                               " but was given a matrix"));
    frx_arg args[] = {frx_arg_matrix(u), frx_arg_reduce()};
    ck_assert_int_eq(frx_kernel_create(be, tk_normsq.name, 5, 20, args, 2,
                                       &k), FRX_OK);
    double v[4];
    ck_assert_int_eq(frx_kernel_result(k, "s", v, 4), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "before the kernel has run"));
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    ck_assert_int_eq(frx_kernel_result(k, "s", v, 3), FRX_ESHAPE);
    ck_assert_int_eq(frx_kernel_result(k, "u", v, 4), FRX_ENOTFOUND);
    frx_kernel_destroy(k);
    frx_matrix_destroy(u);
    free(hu);
}
END_TEST

/* A macro registered again: the same one is fine (a second solver of
 * one plugin), another body under its name is refused. */
START_TEST(macro_registered_twice)
{
    frx_kernel_macro m = {.name = "tk_twice", .params = "a",
                          .body = "((a) + 1)"};
    ck_assert_int_eq(frx_kernel_register_macro(be, &m), FRX_OK);
    ck_assert_int_eq(frx_kernel_register_macro(be, &m), FRX_OK);
    m.body = "((a) + 2)";
    ck_assert_int_eq(frx_kernel_register_macro(be, &m), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "macro 'tk_twice' is "
                                               "already registered with "
                                               "another body"));
}
END_TEST

/* ------------------------------------------------------------ host nodes */

struct probe {
    frx_kernel *k;     /* its reduction is read by the callback */
    frx_kernel *scale; /* its scalar is set by the callback */
    double seen;
    int calls, fail_at;
};

static int probe_cb(void *ud)
{
    struct probe *p = ud;
    p->calls++;
    int rc = frx_kernel_result(p->k, "s", &p->seen, 1);
    if (rc)
        return rc;
    if (p->calls == p->fail_at)
        return frx_error(FRX_ERANGE, "probe: failing on call %d", p->calls);
    return frx_kernel_set_scalar(p->scale, "a", p->seen);
}

/* A host node runs after everything added before it (it reads their
 * results) and before everything added after (the scalar it sets is
 * used), even nodes with no data in common with it. */
START_TEST(host_node_is_a_barrier)
{
    register_all();
    size_t n = 50;
    uint64_t rng = 251;
    void *hx, *hy, *hz;
    frx_matrix *x = rand_matrix(1, 1, n, &rng, &hx);
    frx_matrix *y = rand_matrix(1, 1, n, &rng, &hy);
    frx_matrix *z = rand_matrix(1, 1, n, &rng, &hz);
    /* y = 2*x; s = sum(y); then z += s*x, unrelated data to the host */
    frx_arg a1[] = {frx_arg_matrix(x), frx_arg_matrix(y), frx_arg_scalar(2)};
    frx_arg a2[] = {frx_arg_matrix(y), frx_arg_reduce()};
    frx_arg a3[] = {frx_arg_matrix(x), frx_arg_matrix(z), frx_arg_unset()};
    frx_kernel *twice, *sum, *axpy;
    ck_assert_int_eq(frx_kernel_create(be, tk_scale1.name, 1, n, a1, 3,
                                       &twice), FRX_OK);
    ck_assert_int_eq(frx_kernel_create(be, tk_sum1.name, 1, n, a2, 2, &sum),
                     FRX_OK);
    ck_assert_int_eq(frx_kernel_create(be, tk_axpy1.name, 1, n, a3, 3,
                                       &axpy), FRX_OK);
    struct probe p = {.k = sum, .scale = axpy, .fail_at = 2};
    frx_graph *g;
    int nodes[4], order[4];
    ck_assert_int_eq(frx_graph_create(be, &g), FRX_OK);
    ck_assert_int_eq(frx_graph_add_kernel(g, twice, NULL, 0, &nodes[0]),
                     FRX_OK);
    ck_assert_int_eq(frx_graph_add_kernel(g, sum, NULL, 0, &nodes[1]),
                     FRX_OK);
    ck_assert_int_eq(frx_graph_add_host(g, probe_cb, &p, &nodes[2]), FRX_OK);
    ck_assert_int_eq(frx_graph_add_kernel(g, axpy, NULL, 0, &nodes[3]),
                     FRX_OK);
    ck_assert_int_eq(frx_graph_commit(g), FRX_OK);
    ck_assert_int_eq(frx_graph_order(g, order, 4), FRX_OK);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(order[i], nodes[i]);
    ck_assert_int_eq(frx_graph_run(g), FRX_OK);
    double want = 0;
    for (size_t e = 0; e < n; e++)
        want += 2 * tu_get(be, hx, e);
    ck_assert_msg(p.seen == want, "the callback saw %g, want %g", p.seen,
                  want);
    void *got = tu_alloc(be, n);
    ck_assert_int_eq(frx_matrix_read(z, got), FRX_OK);
    for (size_t e = 0; e < n; e++) {
        double w = tu_get(be, hz, e) + want * tu_get(be, hx, e);
        ck_assert_msg(fabs(tu_get(be, got, e) - w) <= 1e-5 * (1 + fabs(w)),
                      "z[%zu] = %g, want %g", e, tu_get(be, got, e), w);
    }
    /* a failing callback stops the run with its code and message */
    ck_assert_int_eq(frx_graph_run(g), FRX_ERANGE);
    ck_assert_str_eq(frx_errmsg(), "probe: failing on call 2");
    ck_assert_int_eq(frx_graph_add_host(g, NULL, NULL, NULL), FRX_EINVAL);
    frx_graph_destroy(g);
    frx_kernel_destroy(twice);
    frx_kernel_destroy(sum);
    frx_kernel_destroy(axpy);
    frx_matrix_destroy(x);
    frx_matrix_destroy(y);
    frx_matrix_destroy(z);
    free(got), free(hx), free(hy), free(hz);
}
END_TEST

static Suite *reduce_suite(void)
{
    Suite *s = suite_create("reduce");
    TCase *tc = tcase_create(precision);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, max_min_sum_match_host);
    tcase_add_test(tc, rows_by_points);
    tcase_add_test(tc, view_and_xchg_reduced);
    tcase_add_test(tc, nonfinite_found_per_variable);
    tcase_add_test(tc, misuse_refused);
    tcase_add_test(tc, macro_registered_twice);
    tcase_add_test(tc, host_node_is_a_barrier);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_reduce BACKEND\n");
        return 2;
    }
    return tu_run_per_precision(argv[1], reduce_suite, &be, &precision);
}
