/* SPDX-License-Identifier: BSD-3-Clause */
/* Conformance: operator products C = alpha*A*B + beta*C. Every provider
 * of the backend against a plain reference, on the FR operators of
 * quadrilaterals p = 1..6 and hexahedra p = 1..4 (sparse) and their
 * anti-aliasing interpolations (dense), beta 0 and 1, element counts that
 * are not whole chunks; beta = 0 never reading C; slices, group members
 * and graph nodes; libraries at offsets into their allocations; shape
 * checks; the choice of provider by timing kept in the disk cache
 * across processes. Run once per backend (argv[1]) in
 * both precisions; exits 77 when the backend cannot start here. */
#include "fr_operators.h"
#include "testutil.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static frx_backend *be;
static const char *backend_name, *precision, *self_exe;

static double tol(void) { return frx_backend_fpsize(be) == 4 ? 2e-6 : 1e-13; }

/* A's value as the backend holds it. */
static double held(double a)
{
    return frx_backend_fpsize(be) == 4 ? (double)(float)a : a;
}

/* ------------------------------------------------------------ operators */

#define MAX_OPS 40

/* quad p = 1..6 and hex p = 1..4: interp and grad (sparse); quad p =
 * 1..6 and hex p = 1..3: quad (dense; hex p = 3 is past the unrolling
 * limit, so it also covers the generated loops) */
static size_t all_operators(fr_operator *ops)
{
    size_t n = 0;
    for (size_t p = 1; p <= 6; p++)
        for (int op = FR_INTERP; op <= FR_QUAD; op++)
            ops[n++] = fr_make(2, p, (enum fr_op)op);
    for (size_t p = 1; p <= 4; p++)
        for (int op = FR_INTERP; op <= FR_QUAD; op++)
            if (op != FR_QUAD || p <= 3)
                ops[n++] = fr_make(3, p, (enum fr_op)op);
    return n;
}

static size_t op_nonzeros(const fr_operator *op)
{
    size_t n = 0;
    for (size_t i = 0; i < op->m * op->k; i++)
        n += op->a[i] != 0;
    return n;
}

static void free_operators(fr_operator *ops, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(ops[i].a);
}

/* ------------------------------------------------------------- a case */

struct pcase {
    const fr_operator *op;
    size_t nvar, neles;
    frx_matrix *a, *b, *c;
    void *hb, *hc; /* host B, and C as it was before the product */
};

static frx_matrix *filled(size_t nrow, size_t nvar, size_t neles,
                          uint64_t *rng, int nan, void **host)
{
    frx_matrix *m;
    ck_assert_int_eq(frx_matrix_create(be, nrow, nvar, neles, &m), FRX_OK);
    *host = tu_alloc(be, nrow * nvar * neles);
    for (size_t i = 0; i < nrow * nvar * neles; i++)
        tu_put(be, *host, i, nan ? NAN : tu_value(rng));
    ck_assert_int_eq(frx_matrix_write(m, *host), FRX_OK);
    return m;
}

/* B random; C random, or NaN (what beta = 0 must never read). */
static void pcase_make(struct pcase *t, const fr_operator *op, size_t nvar,
                       size_t neles, uint64_t *rng, int c_nan)
{
    *t = (struct pcase){.op = op, .nvar = nvar, .neles = neles};
    ck_assert_int_eq(frx_matrix_create_const(be, op->m, op->k, op->a, &t->a),
                     FRX_OK);
    t->b = filled(op->k, nvar, neles, rng, 0, &t->hb);
    t->c = filled(op->m, nvar, neles, rng, c_nan, &t->hc);
}

/* t's host B and C random (t->b and t->c made by the test), B written;
 * C is written by each run_one. */
static void pcase_fill(struct pcase *t, uint64_t *rng)
{
    size_t nb = t->op->k * t->nvar * t->neles;
    size_t nc = t->op->m * t->nvar * t->neles;
    t->hb = tu_alloc(be, nb);
    t->hc = tu_alloc(be, nc);
    for (size_t i = 0; i < nb; i++)
        tu_put(be, t->hb, i, tu_value(rng));
    for (size_t i = 0; i < nc; i++)
        tu_put(be, t->hc, i, tu_value(rng));
    ck_assert_int_eq(frx_matrix_write(t->b, t->hb), FRX_OK);
}

static void pcase_free(struct pcase *t)
{
    frx_matrix_destroy(t->a);
    frx_matrix_destroy(t->b);
    frx_matrix_destroy(t->c);
    free(t->hb), free(t->hc);
}

/* Row r, column j (variable x element) of C after C = alpha*A*B + beta*C,
 * given C before as c0 (dense host layout); *scale is the size of what
 * was summed, for the tolerance. */
static double reference(const fr_operator *op, const void *hb, const void *c0,
                        size_t ncols, size_t r, size_t j, double alpha,
                        double beta, double *scale)
{
    double s = 0, mag = 0;
    for (size_t c = 0; c < op->k; c++) {
        double t = held(op->a[r * op->k + c]) * tu_get(be, hb, c * ncols + j);
        s += t;
        mag += fabs(t);
    }
    double v = alpha * s;
    *scale = 1 + fabs(alpha) * mag;
    if (beta != 0) {
        double cv = tu_get(be, c0, r * ncols + j);
        v += beta * cv;
        *scale += fabs(beta * cv);
    }
    return v;
}

static void check_c(const struct pcase *t, double alpha, double beta,
                    const char *what)
{
    size_t ncols = t->nvar * t->neles;
    void *got = tu_alloc(be, t->op->m * ncols);
    ck_assert_int_eq(frx_matrix_read(t->c, got), FRX_OK);
    for (size_t r = 0; r < t->op->m; r++)
        for (size_t j = 0; j < ncols; j++) {
            double scale;
            double want = reference(t->op, t->hb, t->hc, ncols, r, j, alpha,
                                    beta, &scale);
            double g = tu_get(be, got, r * ncols + j);
            tu_check(fabs(g - want) <= tol() * scale,
                          "%s, %s, alpha %g, beta %g, %zu vars x %zu "
                          "elements: C[%zu][%zu] = %.17g, want %.17g", what,
                          t->op->name, alpha, beta, t->nvar, t->neles, r, j,
                          g, want);
        }
    free(got);
}

/* One product of case t by provider, run and checked; C is rewritten
 * first so every run starts from t->hc. Returns the provider the
 * product got ("generated" for any of its variants), or "" where
 * may_refuse is set and the name is refused with FRX_ENOTFOUND. */
static const char *run_by(struct pcase *t, const char *provider,
                          double alpha, double beta, int may_refuse)
{
    static char got[64];
    ck_assert_int_eq(frx_matrix_write(t->c, t->hc), FRX_OK);
    frx_product *p;
    int rc = frx_product_create_using(t->a, t->b, t->c, alpha, beta,
                                      provider, &p);
    if (rc == FRX_ENOTFOUND && may_refuse)
        return "";
    ck_assert_msg(rc == FRX_OK, "%s by %s: %s", t->op->name, provider,
                  frx_errmsg());
    ck_assert_int_eq(frx_product_run(p), FRX_OK);
    check_c(t, alpha, beta, provider);
    snprintf(got, sizeof got, "%s", frx_product_provider(p));
    frx_product_destroy(p);
    return got;
}

static void run_one(struct pcase *t, const char *provider, double alpha,
                    double beta)
{
    run_by(t, provider, alpha, beta, 0);
}

/* A variant this backend does not offer is refused by name. */
static void refused(struct pcase *t, const char *provider)
{
    frx_product *p;
    ck_assert_int_eq(frx_product_create_using(t->a, t->b, t->c, 1, 0,
                                              provider, &p), FRX_ENOTFOUND);
}

/* The library providers of the backend. */
static size_t libraries(const char **names)
{
    const char *all[16];
    size_t n = frx_backend_products(be, all, 16), k = 0;
    for (size_t i = 1; i < n && i < 16; i++) /* [0] is "generated" */
        names[k++] = all[i];
    return k;
}

/* The provider a product of t by name gets, or "" (refused). */
static const char *provider_for(struct pcase *t, const char *name)
{
    return run_by(t, name, 1, 0, 1);
}

/* ------------------------------------------------------------- tests */

/* Every operator by a variant of the generated code (the variants and
 * beta 0 and 1 in turn, so that each variant meets both; a compile per
 * case is what this test spends its time on) and by every library (beta
 * 0 and 1, alpha 1 and not), on element counts that are not whole
 * chunks. On opencl every operator meets a plain, a phased and (up to
 * the sizes below) a vector variant, each in one of the precisions. */
START_TEST(every_provider_every_operator)
{
    static const size_t rows[] = {1, 4, 8, 16};
    fr_operator ops[MAX_OPS];
    size_t nops = all_operators(ops);
    const char *libs[16];
    size_t nlibs = libraries(libs);
    uint64_t rng = 201;
    for (size_t i = 0; i < nops; i++) {
        struct pcase t;
        pcase_make(&t, &ops[i], 1 + i % 3, 13 + 2 * i, &rng, 0);
        char gen[32];
        /* opencl's phased variants (a barrier between blocks of rows)
         * instead of the plain ones for every other operator, the others
         * in the other precision: each operator meets both, each in
         * both precisions (a compile on PoCL is seconds) */
        int ocl = strcmp(backend_name, "opencl") == 0;
        int phased = ocl && (int)(i % 2) == (frx_backend_fpsize(be) == 8);
        size_t pick = ocl ? i / 2 : i; /* opencl: half the operators */
        size_t r = rows[pick % 4] < ops[i].m ? rows[pick % 4] : ops[i].m;
        /* not r1 on the hexahedron p = 4 gradient (375 x 125): GCC took
         * 8-12 s over it with beta 1, a third of this test's compiles; r1
         * is the same code on the smaller operators */
        if (r == 1 && ops[i].m * ops[i].k > 40000)
            r = 4;
        snprintf(gen, sizeof gen, "generated/r%zu", r);
        if (phased)
            ; /* the plain variant in the other precision */
        else if ((pick / 4) % 2)
            run_one(&t, gen, -0.5, 1);
        else
            run_one(&t, gen, 1, 0);
        r = rows[1 + i % 3] < ops[i].m ? rows[1 + i % 3] : ops[i].m;
        snprintf(gen, sizeof gen, "generated/r%zup", r);
        if (phased)
            run_one(&t, gen, (i / 4) % 2 ? 1 : -0.5, (i / 4) % 2 ? 0 : 1);
        else if (!ocl)
            refused(&t, gen);
        /* opencl's vectors of 4, 8 or 16 columns a work-item, phased or
         * not; the element counts leave the last vector part-filled.
         * PoCL takes 2-5x as long to compile vector code (up to a minute
         * on the largest operators; the code is the same, only longer),
         * so: operators of up to 1000 nonzeros, and those past 4096,
         * whose code loops (hex p3 quad), 16 lanes up to 256 nonzeros,
         * each operator in one of the two precisions. */
        size_t nnz = op_nonzeros(&ops[i]);
        int vec = 4 << (i % 3);
        if (vec == 16 && nnz > 256)
            vec = 8;
        r = rows[1 + (i / 3) % 3] < ops[i].m ? rows[1 + (i / 3) % 3]
                                             : ops[i].m;
        snprintf(gen, sizeof gen, "generated/r%zu%sv%d", r,
                 (i / 2) % 2 ? "p" : "", vec);
        int mine = (int)(i % 2) == (frx_backend_fpsize(be) == 4);
        if (strcmp(backend_name, "opencl") != 0)
            refused(&t, gen);
        else if (mine && (nnz <= 1000 || nnz > 4096))
            run_one(&t, gen, i % 4 < 2 ? 1 : 0.5, i % 4 < 2 ? 0 : 1);
        for (size_t l = 0; l < nlibs; l++) {
            run_one(&t, libs[l], 1, 0);
            run_one(&t, libs[l], 0.75, 1);
        }
        pcase_free(&t);
    }
    free_operators(ops, nops);
}
END_TEST

/* beta = 0: C full of NaN comes out right from every provider. */
START_TEST(beta_zero_never_reads_c)
{
    fr_operator ops[2] = {fr_make(2, 3, FR_GRAD), fr_make(2, 2, FR_QUAD)};
    const char *names[16];
    size_t n = frx_backend_products(be, names, 16);
    uint64_t rng = 202;
    for (size_t i = 0; i < 2; i++) {
        struct pcase t;
        pcase_make(&t, &ops[i], 2, 45, &rng, 1);
        for (size_t k = 0; k < n && k < 16; k++)
            run_one(&t, names[k], 2, 0);
        pcase_free(&t);
    }
    free_operators(ops, 2);
}
END_TEST

/* C past 32 MiB and beta = 0: where the backend has variants of the
 * generated code with streaming stores (openmp), they are right too, NaN
 * in C never read; auto still picks something that is right. */
START_TEST(streaming_stores_large_c)
{
    fr_operator op = fr_make(2, 1, FR_INTERP); /* 8 x 4 */
    size_t neles = (32u << 20) / (8 * frx_backend_fpsize(be)) + 3;
    uint64_t rng = 206;
    struct pcase t;
    pcase_make(&t, &op, 1, neles, &rng, 1);
    frx_product *p;
    int rc = frx_product_create_using(t.a, t.b, t.c, 1, 0, "generated/r8s",
                                      &p);
    if (strcmp(backend_name, "openmp") == 0)
        ck_assert_msg(rc == FRX_OK, "%s", frx_errmsg());
    else
        ck_assert_int_eq(rc, FRX_ENOTFOUND);
    if (rc == FRX_OK) {
        ck_assert_int_eq(frx_product_run(p), FRX_OK);
        check_c(&t, 1, 0, "generated/r8s");
        frx_product_destroy(p);
    }
    /* the plain variant, named, is there as well (a case that names
     * generated/r8 gets it for every product); C starts as NaN again */
    run_one(&t, "generated/r8", 0.5, 0);
    run_one(&t, "auto", -1, 0);
    pcase_free(&t);
    free(op.a);
}
END_TEST

/* B and C that start past 2^31 values of their allocation are read and
 * written where they are by every provider, not where a 32-bit offset
 * would wrap to. openmp in single precision only: its large blocks are
 * mapped untouched, so the 8 GiB matrix in front costs no memory. */
START_TEST(offsets_past_2_31_values)
{
    if (strcmp(backend_name, "openmp") != 0 || frx_backend_fpsize(be) != 4) {
        printf("offsets_past_2_31_values: openmp in single precision only "
               "(an 8 GiB allocation, untouched there)\n");
        return;
    }
    fr_operator op = fr_make(2, 2, FR_GRAD);
    size_t nvar = 2, neles = 3 * frx_backend_soasz(be) + 1;
    frx_matrix_shape shapes[3] = {{1, 1, ((size_t)1 << 31) + 64},
                                  {op.k, nvar, neles}, {op.m, nvar, neles}};
    frx_matrix *g[3];
    ck_assert_int_eq(frx_matrix_create_group(be, 3, shapes, g), FRX_OK);
    uint64_t rng = 207;
    struct pcase t = {.op = &op, .nvar = nvar, .neles = neles, .b = g[1],
                      .c = g[2]};
    ck_assert_int_eq(frx_matrix_create_const(be, op.m, op.k, op.a, &t.a),
                     FRX_OK);
    pcase_fill(&t, &rng);
    const char *names[16];
    size_t n = frx_backend_products(be, names, 16);
    for (size_t k = 0; k < n && k < 16; k++)
        run_one(&t, names[k], 1.5, 1);
    frx_matrix_destroy(g[0]);
    pcase_free(&t);
    free(op.a);
}
END_TEST

/* The generated code of every target takes offsets and leading
 * dimensions as 64-bit values. */
START_TEST(generated_offsets_are_64_bit)
{
    static const char *const i64[] = {"", "long", "long", "long long",
                                      "long long"};
    fr_operator op = fr_make(2, 1, FR_INTERP);
    for (int t = FRX_TARGET_C_OPENMP; t <= FRX_TARGET_HIP; t++) {
        frx_codegen cg = {.target = t, .precision = FRX_DOUBLE, .soasz = 8,
                          .alignment = 64};
        char *src, *entry, want[64];
        ck_assert_int_eq(frx_product_generate(&cg, op.m, op.k, op.a, 0, 4,
                                              64, 64, &src, &entry), FRX_OK);
        snprintf(want, sizeof want, "typedef %s frx_ix64;", i64[t]);
        ck_assert_msg(strstr(src, want), "target %d: no '%s' in\n%s", t,
                      want, src);
        ck_assert_msg(strstr(src, "frx_ix64 a_o, frx_ix64 a_ld") &&
                      strstr(src, "frx_ix64 b_o, frx_ix64 b_ld") &&
                      strstr(src, "frx_ix64 c_o, frx_ix64 c_ld"),
                      "target %d: 32-bit offsets in\n%s", t, src);
        free(src), free(entry);
    }
    free(op.a);
}
END_TEST

/* Slices of B and C ending inside a chunk of their parents: the product
 * writes the slice and leaves the parent's other elements alone; a
 * library, which writes whole chunks, is refused there when named and
 * skipped by auto. C's parent is cwider elements wider than B's: the
 * two are read with their own leading dimensions. C = A B + beta C. */
static void slice_by(const char *provider, size_t cwider, double beta)
{
    size_t soasz = frx_backend_soasz(be), nvar = 3;
    size_t neles = 4 * soasz + 5, e0 = soasz, e1 = 3 * soasz + 3;
    size_t nc = neles + cwider; /* C's parent's elements */
    fr_operator op = fr_make(2, 2, FR_INTERP);
    uint64_t rng = 203;
    void *hbp, *hcp;
    frx_matrix *bp = filled(op.k, nvar, neles, &rng, 0, &hbp);
    frx_matrix *cp = filled(op.m, nvar, nc, &rng, 0, &hcp);
    frx_matrix *a, *b, *c;
    ck_assert_int_eq(frx_matrix_create_const(be, op.m, op.k, op.a, &a),
                     FRX_OK);
    ck_assert_int_eq(frx_matrix_slice(bp, e0, e1, &b), FRX_OK);
    ck_assert_int_eq(frx_matrix_slice(cp, e0, e1, &c), FRX_OK);

    const char *libs[16];
    size_t nlibs = libraries(libs);
    frx_product *p;
    for (size_t l = 0; l < nlibs; l++) {
        ck_assert_int_eq(frx_product_create_using(a, b, c, 1, 0, libs[l],
                                                  &p), FRX_ENOTSUP);
        ck_assert_ptr_nonnull(strstr(frx_errmsg(), "ends inside a chunk"));
    }
    ck_assert_msg(frx_product_create_using(a, b, c, 1, beta, provider, &p) ==
                      FRX_OK, "%s: %s", provider, frx_errmsg());
    ck_assert_str_eq(frx_product_provider(p), "generated");
    ck_assert_int_eq(frx_product_run(p), FRX_OK);
    frx_product_destroy(p);

    size_t w = e1 - e0;
    void *got = tu_alloc(be, op.m * nvar * nc);
    ck_assert_int_eq(frx_matrix_read(cp, got), FRX_OK);
    for (size_t r = 0; r < op.m; r++)
        for (size_t v = 0; v < nvar; v++)
            for (size_t e = 0; e < nc; e++) {
                size_t at = (r * nvar + v) * nc + e;
                double want = tu_get(be, hcp, at), scale = 1;
                if (e >= e0 && e < e1) {
                    double s = 0;
                    for (size_t k = 0; k < op.k; k++) {
                        double x = held(op.a[r * op.k + k]) *
                                   tu_get(be, hbp, (k * nvar + v) * neles + e);
                        s += x;
                        scale += fabs(x);
                    }
                    scale += fabs(beta * want);
                    want = beta * want + s;
                }
                ck_assert_msg(fabs(tu_get(be, got, at) - want) <=
                                  tol() * scale,
                              "C[%zu][%zu][%zu] = %.17g, want %.17g (the "
                              "slice is elements %zu to %zu, %zu wide; %s)",
                              r, v, e, tu_get(be, got, at), want, e0, e1 - 1,
                              w, provider);
            }
    free(got), free(hbp), free(hcp), free(op.a);
    frx_matrix_destroy(a);
    frx_matrix_destroy(b);
    frx_matrix_destroy(c);
    frx_matrix_destroy(bp);
    frx_matrix_destroy(cp);
}

START_TEST(slice_ending_inside_a_chunk)
{
    slice_by("auto", 0, 1);
    /* beta = 0: on openmp the code of a product this small reads the
     * leading dimensions at run time (product.c) */
    slice_by("generated/r4", 2 * frx_backend_soasz(be) + 1, 0);
    /* opencl's vectors: the slice's last vector is C's in its first lanes
     * only */
    if (strcmp(backend_name, "opencl") == 0) {
        slice_by("generated/r4v4", 0, 1);
        slice_by("generated/r8pv16", 0, 1);
    }
}
END_TEST

/* B and C members of one group; the same matrix as B and C refused. */
START_TEST(group_members_and_overlap)
{
    fr_operator op = fr_make(3, 2, FR_GRAD);
    size_t nvar = 5, neles = 23;
    frx_matrix_shape shapes[2] = {{op.k, nvar, neles}, {op.m, nvar, neles}};
    frx_matrix *g[2], *a;
    ck_assert_int_eq(frx_matrix_create_group(be, 2, shapes, g), FRX_OK);
    ck_assert_int_eq(frx_matrix_create_const(be, op.m, op.k, op.a, &a),
                     FRX_OK);
    uint64_t rng = 204;
    struct pcase t = {.op = &op, .nvar = nvar, .neles = neles, .a = a,
                      .b = g[0], .c = g[1]};
    pcase_fill(&t, &rng);
    run_one(&t, NULL, 1, 1);

    frx_matrix *sq;
    fr_operator d = fr_make(3, 2, FR_GRAD);
    d.m = d.k; /* the x derivative alone: square */
    ck_assert_int_eq(frx_matrix_create_const(be, d.m, d.k, d.a, &sq),
                     FRX_OK);
    frx_product *p;
    ck_assert_int_eq(frx_product_create(sq, g[0], g[0], 1, 0, &p),
                     FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "overlap"));
    frx_matrix_destroy(sq);
    pcase_free(&t);
    free(op.a), free(d.a);
}
END_TEST

/* Slices of one matrix side by side are B and C of a product (their rows
 * interleave in the allocation but share no element); slices that share
 * elements are refused, naming one; C in a const matrix (or a slice of
 * one) is refused, as const matrices are never written. */
START_TEST(slices_side_by_side_overlap_and_const_c)
{
    fr_operator d = fr_make(3, 2, FR_GRAD);
    d.m = d.k; /* the x derivative alone: square, 9 x 9 */
    size_t soasz = frx_backend_soasz(be), nvar = 2, w = 2 * soasz;
    frx_matrix *sq, *whole, *b, *c, *c2;
    ck_assert_int_eq(frx_matrix_create_const(be, d.m, d.k, d.a, &sq),
                     FRX_OK);
    ck_assert_int_eq(frx_matrix_create(be, d.k, nvar, 2 * w, &whole),
                     FRX_OK);
    ck_assert_int_eq(frx_matrix_slice(whole, 0, w, &b), FRX_OK);
    ck_assert_int_eq(frx_matrix_slice(whole, w, 2 * w, &c), FRX_OK);
    uint64_t rng = 206;
    struct pcase t = {.op = &d, .nvar = nvar, .neles = w, .a = sq, .b = b,
                      .c = c};
    pcase_fill(&t, &rng);
    run_one(&t, NULL, 1, 1);
    ck_assert_int_eq(frx_matrix_write(b, t.hb), FRX_OK);
    run_one(&t, "generated", 0.5, 0);

    frx_product *p = NULL;
    ck_assert_int_eq(frx_matrix_slice(whole, soasz, soasz + w, &c2),
                     FRX_OK);
    ck_assert_int_eq(frx_product_create(sq, b, c2, 1, 0, &p), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "B and C overlap (element"));
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "a matrix of its own"));
    frx_matrix_destroy(c2);

    /* C a const matrix (9 x 1 x 9) and a slice of one (of 9 x 18) */
    double *vals = calloc(d.m * 2 * d.k, sizeof *vals);
    for (size_t i = 0; i < d.m * 2 * d.k; i++)
        vals[i] = 1 + (double)i;
    frx_matrix *k2, *cs, *b1;
    ck_assert_int_eq(frx_matrix_create_const(be, d.m, 2 * d.k, vals, &k2),
                     FRX_OK);
    ck_assert_int_eq(frx_matrix_slice(k2, 0, d.k, &cs), FRX_OK);
    ck_assert_int_eq(frx_matrix_create(be, d.k, 1, d.k, &b1), FRX_OK);
    ck_assert_int_eq(frx_product_create(sq, b1, cs, 1, 0, &p), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "product C = A*B: C: the "
                                               "matrix is a const matrix"));
    ck_assert_ptr_null(p);
    frx_matrix_destroy(cs);
    frx_matrix_destroy(b1);
    frx_matrix_destroy(k2);
    free(vals), free(d.a);
    frx_matrix_destroy(whole);
    pcase_free(&t);
}
END_TEST

/* Every library on B and C that start inside their allocations: B a
 * slice from the second chunk on, C the middle member of a group of
 * three (its element count not whole chunks), alpha not 1, beta 0 (C
 * NaN first) and 1. C comes out right, so each offset reached the
 * library, and the members before and after C are left alone. A
 * backend without libraries has none to check. */
START_TEST(libraries_at_offsets)
{
    const char *libs[16];
    size_t nlibs = libraries(libs);
    size_t soasz = frx_backend_soasz(be), nvar = 3, neles = 2 * soasz + 5;
    fr_operator op = fr_make(2, 2, FR_GRAD); /* 18 x 9 */
    uint64_t rng = 208;
    void *hwhole, *hg[3];
    frx_matrix *whole = filled(op.k, nvar, neles + 2 * soasz, &rng, 0,
                               &hwhole);
    frx_matrix_shape shapes[3];
    for (int i = 0; i < 3; i++)
        shapes[i] = (frx_matrix_shape){op.m, nvar, neles};
    frx_matrix *g[3];
    ck_assert_int_eq(frx_matrix_create_group(be, 3, shapes, g), FRX_OK);
    struct pcase t = {.op = &op, .nvar = nvar, .neles = neles, .c = g[1]};
    ck_assert_int_eq(frx_matrix_create_const(be, op.m, op.k, op.a, &t.a),
                     FRX_OK);
    ck_assert_int_eq(frx_matrix_slice(whole, soasz, soasz + neles, &t.b),
                     FRX_OK);
    size_t nb = op.k * nvar * neles, nc = op.m * nvar * neles;
    t.hb = tu_alloc(be, nb);
    for (size_t i = 0; i < nb; i++)
        tu_put(be, t.hb, i, tu_value(&rng));
    ck_assert_int_eq(frx_matrix_write(t.b, t.hb), FRX_OK);
    for (int i = 0; i < 3; i++) {
        hg[i] = tu_alloc(be, nc);
        for (size_t j = 0; j < nc; j++)
            tu_put(be, hg[i], j, tu_value(&rng));
        ck_assert_int_eq(frx_matrix_write(g[i], hg[i]), FRX_OK);
    }
    t.hc = tu_alloc(be, nc);
    void *got = tu_alloc(be, nc);
    for (size_t l = 0; l < nlibs; l++)
        for (int beta = 0; beta <= 1; beta++) {
            for (size_t j = 0; j < nc; j++)
                tu_put(be, t.hc, j, beta ? tu_value(&rng) : NAN);
            run_one(&t, libs[l], -1.5, beta);
            for (int i = 0; i < 3; i += 2) {
                ck_assert_int_eq(frx_matrix_read(g[i], got), FRX_OK);
                ck_assert_msg(memcmp(got, hg[i], nc * frx_backend_fpsize(be))
                              == 0, "%s, beta %d: group member %d, beside "
                              "C, was written", libs[l], beta, i);
            }
        }
    free(got), free(hwhole), free(hg[0]), free(hg[1]), free(hg[2]);
    frx_matrix_destroy(g[0]);
    frx_matrix_destroy(g[2]);
    frx_matrix_destroy(whole);
    pcase_free(&t);
    free(op.a);
}
END_TEST

/* Products of one operator by a library, each its own: destroying one
 * leaves the others whole (openmp's libxsmm shares its handles between
 * them), and another alpha or beta is a product of its own. */
START_TEST(library_products_of_one_operator)
{
    const char *libs[16];
    size_t nlibs = libraries(libs);
    fr_operator op = fr_make(3, 2, FR_GRAD); /* 81 x 27 */
    uint64_t rng = 209;
    for (size_t l = 0; l < nlibs; l++) {
        struct pcase t1, t2;
        pcase_make(&t1, &op, 2, 3 * frx_backend_soasz(be) + 2, &rng, 0);
        pcase_make(&t2, &op, 2, 3 * frx_backend_soasz(be) + 2, &rng, 0);
        frx_product *p1, *p2, *p3;
        ck_assert_int_eq(frx_product_create_using(t1.a, t1.b, t1.c, 1, 0,
                                                  libs[l], &p1), FRX_OK);
        ck_assert_int_eq(frx_product_create_using(t2.a, t2.b, t2.c, 1, 0,
                                                  libs[l], &p2), FRX_OK);
        ck_assert_int_eq(frx_product_run(p1), FRX_OK);
        check_c(&t1, 1, 0, libs[l]);
        frx_product_destroy(p1);
        ck_assert_int_eq(frx_product_create_using(t2.a, t2.b, t2.c, 0.5, 1,
                                                  libs[l], &p3), FRX_OK);
        ck_assert_int_eq(frx_product_run(p2), FRX_OK);
        check_c(&t2, 1, 0, libs[l]);
        frx_product_destroy(p2);
        ck_assert_int_eq(frx_matrix_write(t2.c, t2.hc), FRX_OK);
        ck_assert_int_eq(frx_product_run(p3), FRX_OK);
        check_c(&t2, 0.5, 1, libs[l]);
        frx_product_destroy(p3);
        pcase_free(&t1);
        pcase_free(&t2);
    }
    free(op.a);
}
END_TEST

/* Generated products that would make the same source share one program
 * without making it again (frx__program_set_key: A's values, its shape,
 * the leading dimensions...): the second of two equal products compiles
 * nothing; another A of the same shape, or the same A over other
 * leading dimensions, gets its own program; each computes its own C. */
START_TEST(generated_products_share_programs)
{
    fr_operator op = fr_make(3, 2, FR_GRAD); /* 81 x 27 */
    fr_operator other = op;
    other.a = malloc(op.m * op.k * sizeof *other.a);
    ck_assert_ptr_nonnull(other.a);
    for (size_t i = 0; i < op.m * op.k; i++)
        other.a[i] = op.a[i] == 0 ? 0 : 0.5 * op.a[i] + 0.25;
    uint64_t rng = 311;
    size_t S = frx_backend_soasz(be);
    /* big: rows over 32 KiB in either precision, in up to 3 parts */
    size_t n = 3 * S + 2, big = 16400 / S * S + 2;
    struct pcase t[6];
    pcase_make(&t[0], &op, 2, n, &rng, 0);
    pcase_make(&t[1], &op, 2, n, &rng, 0);
    pcase_make(&t[2], &other, 2, n, &rng, 0);
    pcase_make(&t[3], &op, 2, n + 4 * S, &rng, 0);
    pcase_make(&t[4], &op, 2, big, &rng, 0);
    pcase_make(&t[5], &op, 2, big + 4 * S, &rng, 0);
    /* programs each product adds: none where it shares one made before.
     * Leading dimensions are in the code on openmp where B's and C's
     * rows are over 32 KiB (t[5]: one more than t[4]); on smaller ones
     * (t[3]) it reads them at run time, and on opencl always */
    int openmp = strcmp(frx_backend_name(be), "openmp") == 0;
    const size_t fresh[6] = {1, 0, 1, 0, 1, (size_t)openmp};
    frx_product *p[6];
    for (int i = 0; i < 6; i++) {
        frx_backend_stats s0, s1;
        frx_backend_get_stats(be, &s0);
        ck_assert_int_eq(frx_product_create_using(t[i].a, t[i].b, t[i].c, 1,
                                                  0, "generated/r4", &p[i]),
                         FRX_OK);
        frx_backend_get_stats(be, &s1);
        size_t made = s1.compiles + s1.cache_loads -
                      s0.compiles - s0.cache_loads;
        if (i == 0 || i == 4) /* may be made already */
            ck_assert_uint_le(made, fresh[i]);
        else
            ck_assert_msg(made == fresh[i], "product %d: %zu programs made, "
                          "%zu expected", i, made, fresh[i]);
    }
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(frx_product_run(p[i]), FRX_OK);
        check_c(&t[i], 1, 0, "generated/r4");
        frx_product_destroy(p[i]);
        pcase_free(&t[i]);
    }
    free(op.a);
    free(other.a);
}
END_TEST

START_TEST(shapes_checked)
{
    fr_operator op = fr_make(2, 1, FR_INTERP); /* 8 x 4 */
    frx_matrix *a, *b, *c, *b3;
    ck_assert_int_eq(frx_matrix_create_const(be, op.m, op.k, op.a, &a),
                     FRX_OK);
    ck_assert_int_eq(frx_matrix_create(be, 4, 2, 10, &b), FRX_OK);
    ck_assert_int_eq(frx_matrix_create(be, 8, 2, 11, &c), FRX_OK);
    ck_assert_int_eq(frx_matrix_create(be, 3, 2, 10, &b3), FRX_OK);
    frx_product *p = NULL;
    ck_assert_int_eq(frx_product_create(a, b, c, 1, 0, &p), FRX_ESHAPE);
    ck_assert_str_eq(frx_errmsg(), "product C = A*B: A is 8 x 4, B is 4 x 2 "
                     "x 10 and C is 8 x 2 x 11 (rows x nvar x neles): B and "
                     "C need the same nvar and neles");
    ck_assert_int_eq(frx_product_create(a, b3, c, 1, 0, &p), FRX_ESHAPE);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "B is 3 x 2 x 10"));
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "B needs as many rows as A "
                                               "has columns"));
    ck_assert_int_eq(frx_product_create(b, b, c, 1, 0, &p), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "frx_matrix_create_const"));
    ck_assert_int_eq(frx_product_create_using(a, b, b, 1, 0, "nope", &p),
                     FRX_ESHAPE); /* shapes first */
    frx_matrix *c10;
    ck_assert_int_eq(frx_matrix_create(be, 8, 2, 10, &c10), FRX_OK);
    ck_assert_int_eq(frx_product_create(a, b, c10, NAN, 0, &p), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "must be finite"));
    ck_assert_int_eq(frx_product_create_using(a, b, c10, 1, 0, "nope", &p),
                     FRX_ENOTFOUND);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "no provider 'nope'"));
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "auto, generated"));
    ck_assert_int_eq(frx_product_create_using(a, b, c10, 1, 0,
                                              "generated/r3", &p),
                     FRX_ENOTFOUND);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "generated/r4"));
    ck_assert_ptr_null(p);
    frx_matrix_destroy(a);
    frx_matrix_destroy(b);
    frx_matrix_destroy(b3);
    frx_matrix_destroy(c);
    frx_matrix_destroy(c10);
    free(op.a);
}
END_TEST

/* A graph: a kernel writes B, a product reads it into C, another kernel
 * scales C; added out of order where the data tells, and run twice. */
static const frx_kernel_decl tp_fill = {
    .name = "tp_fill", .ndim = 2,
    .args = "in fpdtype_t[2] x, out fpdtype_t[2] y",
    .body = "y[0] = 2*x[0];\ny[1] = x[1] - 1;"};
static const frx_kernel_decl tp_scale = {
    .name = "tp_scale", .ndim = 2,
    .args = "inout fpdtype_t[2] y", .body = "y[0] *= 3;\ny[1] *= 3;"};

/* What tp_fill makes of x (2 variables), on the host. */
static void fill_reference(const void *hx, void *hb, size_t nrow,
                           size_t neles)
{
    for (size_t k = 0; k < nrow; k++)
        for (size_t e = 0; e < neles; e++) {
            tu_put(be, hb, (k * 2 + 0) * neles + e,
                   2 * tu_get(be, hx, (k * 2 + 0) * neles + e));
            tu_put(be, hb, (k * 2 + 1) * neles + e,
                   tu_get(be, hx, (k * 2 + 1) * neles + e) - 1);
        }
}

/* x -> fill -> B -> product -> C -> scale: the kernels, the matrices
 * (B and C of a pcase, C NaN at first) and host copies. */
struct chain {
    fr_operator op;
    struct pcase t;
    frx_matrix *x;
    void *hx;
    frx_kernel *fill, *scale;
};

static void chain_make(struct chain *ch, size_t p, size_t neles,
                       uint64_t *rng)
{
    ch->op = fr_make(2, p, FR_GRAD);
    pcase_make(&ch->t, &ch->op, 2, neles, rng, 1);
    ch->x = filled(ch->op.k, 2, neles, rng, 0, &ch->hx);
    ck_assert_int_eq(frx_kernel_register(be, &tp_fill), FRX_OK);
    ck_assert_int_eq(frx_kernel_register(be, &tp_scale), FRX_OK);
    frx_arg fa[] = {frx_arg_matrix(ch->x), frx_arg_matrix(ch->t.b)};
    frx_arg sa[] = {frx_arg_matrix(ch->t.c)};
    ck_assert_int_eq(frx_kernel_create(be, "tp_fill", ch->op.k, neles, fa, 2,
                                       &ch->fill), FRX_OK);
    ck_assert_int_eq(frx_kernel_create(be, "tp_scale", ch->op.m, neles, sa,
                                       1, &ch->scale), FRX_OK);
}

static void chain_free(struct chain *ch)
{
    frx_kernel_destroy(ch->fill);
    frx_kernel_destroy(ch->scale);
    frx_matrix_destroy(ch->x);
    free(ch->hx), free(ch->op.a);
    pcase_free(&ch->t);
}

START_TEST(graph_orders_products)
{
    struct chain ch;
    uint64_t rng = 205;
    chain_make(&ch, 2, 19, &rng); /* 18 x 9 */
    frx_product *p;
    ck_assert_int_eq(frx_product_create(ch.t.a, ch.t.b, ch.t.c, 1, 0, &p),
                     FRX_OK);
    frx_graph *g;
    int n[3];
    ck_assert_int_eq(frx_graph_create(be, &g), FRX_OK);
    ck_assert_int_eq(frx_graph_add_kernel(g, ch.fill, NULL, 0, &n[0]),
                     FRX_OK);
    ck_assert_int_eq(frx_graph_add_product(g, p, NULL, 0, &n[1]), FRX_OK);
    ck_assert_int_eq(frx_graph_add_kernel(g, ch.scale, NULL, 0, &n[2]),
                     FRX_OK);
    ck_assert_int_eq(frx_graph_commit(g), FRX_OK);
    int order[3];
    ck_assert_int_eq(frx_graph_order(g, order, 3), FRX_OK);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(order[i], n[i]);
    for (int rep = 0; rep < 2; rep++)
        ck_assert_int_eq(frx_graph_run(g), FRX_OK);
    /* B = fill(x); C = 3*A*B (beta 0: the NaN C never mattered) */
    fill_reference(ch.hx, ch.t.hb, ch.op.k, ch.t.neles);
    check_c(&ch.t, 3, 0, "graph");
    frx_graph_destroy(g);
    frx_product_destroy(p);
    chain_free(&ch);
}
END_TEST

static const frx_kernel_decl tp_sum = {
    .name = "tp_sum", .ndim = 2,
    .args = "in fpdtype_t[2] y, out reduce(sum) fpdtype_t[2] s",
    .body = "s[0] = y[0];\ns[1] = y[1];"};

/* The sums of C's two variables against tp_sum's. */
static void check_sum(const struct chain *ch, frx_kernel *sum,
                      const char *what, int rep)
{
    size_t neles = ch->t.neles, ncols = 2 * neles;
    void *got = tu_alloc(be, ch->op.m * ncols);
    double s[2], want[2] = {0, 0}, mag = 0;
    ck_assert_int_eq(frx_kernel_result(sum, "s", s, 2), FRX_OK);
    ck_assert_int_eq(frx_matrix_read(ch->t.c, got), FRX_OK);
    for (size_t r = 0; r < ch->op.m; r++)
        for (size_t j = 0; j < ncols; j++) {
            double v = tu_get(be, got, r * ncols + j);
            want[j / neles] += v;
            mag += fabs(v);
        }
    double rel = frx_backend_fpsize(be) == 4 ? 1e-4 : 1e-12;
    for (int v = 0; v < 2; v++)
        ck_assert_msg(fabs(s[v] - want[v]) <= rel * mag, "%s, run %d: sum "
                      "of variable %d is %.17g, C sums to %.17g", what, rep,
                      v, s[v], want[v]);
    free(got);
}

/* The same chain, large, by every provider, x new before each run, and
 * a sum of C at its end: each node reads what other threads (work-items)
 * of the node before wrote, for the product splits the columns otherwise
 * than the kernels, and the sum reads them all. A backend that runs the
 * chain as one batch (openmp: one parallel region) must order its nodes
 * as separate launches would: C and the sum are checked after every run,
 * against this run's x. */
START_TEST(graph_chain_by_every_provider)
{
    struct chain ch;
    uint64_t rng = 207;
    chain_make(&ch, 3, 3001, &rng); /* 32 x 16 */
    ck_assert_int_eq(frx_kernel_register(be, &tp_sum), FRX_OK);
    frx_kernel *sum;
    frx_arg sa[] = {frx_arg_matrix(ch.t.c), frx_arg_reduce()};
    int rc = frx_kernel_create(be, "tp_sum", ch.op.m, ch.t.neles, sa, 2,
                               &sum);
    ck_assert_msg(rc == FRX_OK, "tp_sum: %s", frx_errmsg());
    const char *providers[17] = {"generated"};
    size_t nprov = 1 + libraries(providers + 1);
    for (size_t pi = 0; pi < nprov; pi++) {
        frx_product *p;
        ck_assert_int_eq(frx_product_create_using(ch.t.a, ch.t.b, ch.t.c, 1,
                                                  0, providers[pi], &p),
                         FRX_OK);
        frx_graph *g;
        ck_assert_int_eq(frx_graph_create(be, &g), FRX_OK);
        ck_assert_int_eq(frx_graph_add_kernel(g, ch.fill, NULL, 0, NULL),
                         FRX_OK);
        ck_assert_int_eq(frx_graph_add_product(g, p, NULL, 0, NULL), FRX_OK);
        ck_assert_int_eq(frx_graph_add_kernel(g, ch.scale, NULL, 0, NULL),
                         FRX_OK);
        ck_assert_int_eq(frx_graph_add_kernel(g, sum, NULL, 0, NULL),
                         FRX_OK);
        ck_assert_int_eq(frx_graph_commit(g), FRX_OK);
        for (int rep = 0; rep < 4; rep++) {
            for (size_t i = 0; i < ch.op.k * 2 * ch.t.neles; i++)
                tu_put(be, ch.hx, i, tu_value(&rng));
            ck_assert_int_eq(frx_matrix_write(ch.x, ch.hx), FRX_OK);
            ck_assert_int_eq(frx_graph_run(g), FRX_OK);
            fill_reference(ch.hx, ch.t.hb, ch.op.k, ch.t.neles);
            check_c(&ch.t, 3, 0, providers[pi]);
            check_sum(&ch, sum, providers[pi], rep);
        }
        frx_graph_destroy(g);
        frx_product_destroy(p);
    }
    frx_kernel_destroy(sum);
    chain_free(&ch);
}
END_TEST

/* backend.<name>.products forces a provider; a provider the backend does
 * not have is refused at start-up with its place in the case. */
START_TEST(case_forces_a_provider)
{
    const char *names[17];
    size_t n = frx_backend_products(be, names, 16);
    names[n++] = "generated/r1"; /* one variant */
    for (size_t i = 0; i < n && i < 17; i++) {
        char text[512];
        snprintf(text, sizeof text, "backend:\n  name: %s\n  precision: %s\n"
                 "  %s:\n    products: %s\n", backend_name, precision,
                 backend_name, names[i]);
        frx_config *cfg;
        frx_backend *b2;
        ck_assert_int_eq(frx_config_parse(text, strlen(text), "case.yaml",
                                          &cfg), FRX_OK);
        ck_assert_int_eq(frx_config_check(cfg), FRX_OK);
        ck_assert_int_eq(frx_backend_create(cfg, &b2), FRX_OK);
        fr_operator op = fr_make(2, 1, FR_GRAD);
        frx_matrix *a, *b, *c;
        ck_assert_int_eq(frx_matrix_create_const(b2, op.m, op.k, op.a, &a),
                         FRX_OK);
        ck_assert_int_eq(frx_matrix_create(b2, op.k, 1, 64, &b), FRX_OK);
        ck_assert_int_eq(frx_matrix_create(b2, op.m, 1, 64, &c), FRX_OK);
        frx_product *p;
        ck_assert_int_eq(frx_product_create(a, b, c, 1, 0, &p), FRX_OK);
        ck_assert_str_eq(frx_product_provider(p), i + 1 == n ? "generated"
                                                              : names[i]);
        /* a library or a variant is used as it is; the generated code's
         * variants are timed against each other */
        frx_backend_stats st;
        frx_backend_get_stats(b2, &st);
        ck_assert_uint_eq(st.product_timings + st.product_cached, i == 0);
        frx_product_destroy(p);
        frx_matrix_destroy(a);
        frx_matrix_destroy(b);
        frx_matrix_destroy(c);
        frx_backend_destroy(b2);
        frx_config_free(cfg);
        free(op.a);
    }
    char text[512];
    snprintf(text, sizeof text, "backend:\n  name: %s\n  precision: %s\n"
             "  %s:\n    products: nosuchblas\n", backend_name, precision,
             backend_name);
    frx_config *cfg;
    frx_backend *b2;
    ck_assert_int_eq(frx_config_parse(text, strlen(text), "case.yaml", &cfg),
                     FRX_OK);
    ck_assert_int_eq(frx_backend_create(cfg, &b2), FRX_ECONFIG);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "case.yaml:5:15: backend."));
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "'nosuchblas' is not a "
                                               "product provider"));
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "it has: auto, generated"));
    frx_config_free(cfg);
}
END_TEST

/* A case names one variant for all of its products ("products:
 * generated/r4"): an operator with fewer rows than the name's gets its
 * variant of all of its rows (r3 here), the rest of the name kept
 * (r16p is r3p, on opencl); a name with no number of rows, or 0, is
 * refused. */
START_TEST(named_rows_past_m)
{
    fr_operator op = fr_make(2, 1, FR_INTERP); /* 8 x 4 */
    op.m = 3;                                  /* its first 3 rows */
    uint64_t rng = 210;
    struct pcase t;
    pcase_make(&t, &op, 2, 21, &rng, 0);
    const char *g = "generated";
    ck_assert_str_eq(provider_for(&t, "generated/r4"), g);
    ck_assert_str_eq(provider_for(&t, "generated/r3"), g);
    ck_assert_str_eq(provider_for(&t, "generated/r01"), g);
    ck_assert_str_eq(provider_for(&t, "generated/r99999999999999999999"),
                     g);
    ck_assert_str_eq(provider_for(&t, "generated/r16p"),
                     strcmp(backend_name, "opencl") == 0 ? g : "");
    ck_assert_str_eq(provider_for(&t, "generated/r0"), "");
    ck_assert_str_eq(provider_for(&t, "generated/r"), "");
    ck_assert_str_eq(provider_for(&t, "generated/r-4"), "");
    ck_assert_str_eq(provider_for(&t, "generated/rx4"), "");
    pcase_free(&t);
    free(op.a);
}
END_TEST

/* ---------------------------------------------------------- disk cache */

/* A child process makes an auto product of an operator unique to tag and
 * prints "provider timings cached". */
static int child_main(const char *tag)
{
    frx_config *cfg;
    be = tu_backend_or_skip(backend_name, precision, &cfg);
    fr_operator op = fr_make(2, 1, FR_INTERP);
    op.a[0] += (double)(strlen(tag) + (size_t)atoi(tag)) / 1024; /* unique */
    frx_matrix *a, *b, *c;
    frx_product *p;
    int rc = frx_matrix_create_const(be, op.m, op.k, op.a, &a);
    if (rc == FRX_OK)
        rc = frx_matrix_create(be, op.k, 2, 300, &b);
    if (rc == FRX_OK)
        rc = frx_matrix_create(be, op.m, 2, 300, &c);
    if (rc == FRX_OK)
        rc = frx_product_create(a, b, c, 1, 0, &p);
    if (rc == FRX_OK)
        rc = frx_product_run(p);
    if (rc) {
        fprintf(stderr, "child: %s\n", frx_errmsg());
        return 1;
    }
    frx_backend_stats st;
    frx_backend_get_stats(be, &st);
    printf("%s %zu %zu\n", frx_product_provider(p), st.product_timings,
           st.product_cached);
    frx_product_destroy(p);
    frx_matrix_destroy(a);
    frx_matrix_destroy(b);
    frx_matrix_destroy(c);
    frx_backend_destroy(be);
    frx_config_free(cfg);
    free(op.a);
    return 0;
}

/* The child, with dir as its cache directory. */
static FILE *child_start(const char *tag, const char *dir)
{
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "FRX_CACHE_DIR='%s' '%s' %s --child %s %s", dir,
             self_exe, backend_name, precision, tag);
    FILE *f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    return f;
}

/* Has the child printed its line (or ended) within secs? */
static int child_done_within(FILE *f, double secs)
{
    struct pollfd pfd = {.fd = fileno(f), .events = POLLIN};
    return poll(&pfd, 1, (int)(secs * 1000)) == 1;
}

static void child_finish(FILE *f, char *provider, size_t *timings,
                         size_t *cached)
{
    ck_assert_int_eq(fscanf(f, "%63s %zu %zu", provider, timings, cached), 3);
    ck_assert_int_eq(pclose(f), 0);
}

static void run_child(const char *tag, const char *dir, char *provider,
                      size_t *timings, size_t *cached)
{
    child_finish(child_start(tag, dir), provider, timings, cached);
}

/* A fresh cache directory of the children's own, beside the shared one:
 * tests running beside this one (one damages every entry it finds)
 * cannot touch it. */
static void child_cache_dir(const char *name, const char *tag, char *dir,
                            size_t n)
{
    snprintf(dir, n, "%s/%s-%s", getenv("FRX_CACHE_DIR"), name, tag);
    ck_assert_int_eq(mkdir(dir, 0700), 0);
}

/* The entries of a cache directory other than a product's choice (the
 * compiled kernels), and the key of its one choice, if asked. */
static size_t kernel_entries(const char *dir, char key[65])
{
    size_t n = 0;
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        char sub[4400];
        ck_assert_int_lt(snprintf(sub, sizeof sub, "%s/%s", dir, de->d_name),
                         (int)sizeof sub);
        DIR *s = de->d_name[0] == '.' ? NULL : opendir(sub);
        for (struct dirent *f; s && (f = readdir(s)) != NULL;) {
            const char *dot = strchr(f->d_name, '.');
            if (f->d_name[0] == '.' || !dot)
                continue;
            if (!strcmp(dot, ".choice") && key)
                snprintf(key, 65, "%.64s", f->d_name);
            else if (strcmp(dot, ".choice") && strcmp(dot, ".sum") &&
                     strcmp(dot, ".lock") && strncmp(dot, ".tmp.", 5))
                n++;
        }
        if (s)
            closedir(s);
    }
    closedir(d);
    return n;
}

/* Holds the lock of cache entry key in dir, as a process building it
 * would: the descriptor, closed to let it go. */
static int hold_entry_lock(const char *dir, const char *key)
{
    char sub[4400], lock[4600];
    snprintf(sub, sizeof sub, "%s/%.2s", dir, key);
    ck_assert(mkdir(sub, 0700) == 0 || errno == EEXIST);
    snprintf(lock, sizeof lock, "%s/%s.lock", sub, key);
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(flock(fd, LOCK_EX), 0);
    return fd;
}

START_TEST(second_process_times_nothing)
{
    char tag[64], first[64], second[64], dir[4200];
    snprintf(tag, sizeof tag, "%d%s", (int)getpid() % 100000, precision);
    child_cache_dir("products", tag, dir, sizeof dir);
    size_t t1, c1, t2, c2;
    run_child(tag, dir, first, &t1, &c1);
    ck_assert_uint_eq(t1, 1);
    ck_assert_uint_eq(c1, 0);
    run_child(tag, dir, second, &t2, &c2);
    ck_assert_uint_eq(t2, 0);
    ck_assert_uint_eq(c2, 1);
    ck_assert_str_eq(first, second);
}
END_TEST

/* The lock on a product's choice is held only while the candidates are
 * timed: a process that finds a valid choice reads it without the lock,
 * and one that must time compiles every candidate before it waits for
 * the lock (a rank waiting for another's choice once gave up after
 * cache.lock-timeout, the other rank's compiles of the candidates taking
 * more than 300 s under the lock). Here this process holds the choice's
 * lock while a child makes the product. */
START_TEST(choice_lock_held_only_to_time)
{
    char tag[64], prov[64], warm[4200], cold[4200], key[65] = "";
    snprintf(tag, sizeof tag, "%dlock%s", (int)getpid() % 100000, precision);
    child_cache_dir("products", tag, warm, sizeof warm);
    child_cache_dir("products-cold", tag, cold, sizeof cold);
    size_t timings, cached;
    run_child(tag, warm, prov, &timings, &cached);
    ck_assert_uint_eq(timings, 1);
    size_t kernels = kernel_entries(warm, key);
    ck_assert_msg(key[0], "no choice in %s", warm);

    /* a valid choice: the child ends while the lock is held */
    int fd = hold_entry_lock(warm, key);
    FILE *f = child_start(tag, warm);
    int done = child_done_within(f, 120);
    close(fd);
    child_finish(f, prov, &timings, &cached);
    ck_assert_msg(done, "a valid choice waited for its lock");
    ck_assert_uint_eq(cached, 1);

    /* no choice: every kernel is compiled while the child waits */
    fd = hold_entry_lock(cold, key);
    f = child_start(tag, cold);
    size_t seen = 0;
    for (int i = 0; i < 1200 && seen < kernels && !child_done_within(f, 0);
         i++) {
        struct timespec ts = {0, 100000000};
        nanosleep(&ts, NULL);
        seen = kernel_entries(cold, NULL);
    }
    done = child_done_within(f, 0);
    close(fd);
    child_finish(f, prov, &timings, &cached);
    ck_assert_msg(!done, "the child did not wait for the choice's lock");
    ck_assert_msg(seen >= kernels, "%zu of %zu kernels compiled before the "
                  "choice's lock was taken", seen, kernels);
    ck_assert_uint_eq(timings, 1);
}
END_TEST

static Suite *products_suite(void)
{
    Suite *s = suite_create("products");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 900); /* cold compiles of many operators */
    tcase_add_test(tc, shapes_checked);
    tcase_add_test(tc, every_provider_every_operator);
    tcase_add_test(tc, beta_zero_never_reads_c);
    tcase_add_test(tc, streaming_stores_large_c);
    tcase_add_test(tc, slice_ending_inside_a_chunk);
    tcase_add_test(tc, offsets_past_2_31_values);
    tcase_add_test(tc, generated_offsets_are_64_bit);
    tcase_add_test(tc, group_members_and_overlap);
    tcase_add_test(tc, slices_side_by_side_overlap_and_const_c);
    tcase_add_test(tc, libraries_at_offsets);
    tcase_add_test(tc, library_products_of_one_operator);
    tcase_add_test(tc, generated_products_share_programs);
    tcase_add_test(tc, graph_orders_products);
    tcase_add_test(tc, graph_chain_by_every_provider);
    tcase_add_test(tc, case_forces_a_provider);
    tcase_add_test(tc, named_rows_past_m);
    tcase_add_test(tc, second_process_times_nothing);
    tcase_add_test(tc, choice_lock_held_only_to_time);
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
    return tu_run_per_precision(backend_name, products_suite, &be,
                                &precision);
}
