/* SPDX-License-Identifier: BSD-3-Clause */
/* Expressions computed in kernels (fr_expr_emit) on a backend: every
 * function, operator, comparison and the conditional, at points of
 * their domains, against C's math library on the host, in units of the
 * precision's last place (ulps). Run per backend and precision:
 *
 *   test_fr_expr_kernels BACKEND
 *
 * Tolerances, in ulps of the reference (C's double result rounded to
 * the precision): 2 for the functions a backend computes itself (all
 * measured within 1 on openmp, PoCL and fakegpu), 8 for those frx
 * writes as a composition of two (cot(x) is 1/tan(x), asech(x) is
 * acosh(1/x)): the inner result is rounded to the precision before
 * the outer function, whose condition number can magnify it (asech near
 * 1: 6 ulps measured in single precision). A value further off fails,
 * with the point, both values and the ulps; the largest error of each
 * function is printed. */
#include "../testutil.h"

#include <frx/fr/expr.h>

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ULPS 2
#define MAX_ULPS_COMPOSED 8
#define NPTS 61

static frx_backend *be;
static const char *precision;

static double cot_(double x) { return 1 / tan(x); }
static double sec_(double x) { return 1 / cos(x); }
static double csc_(double x) { return 1 / sin(x); }
static double acot_(double x) { return atan(1 / x); }
static double asec_(double x) { return acos(1 / x); }
static double acsc_(double x) { return asin(1 / x); }
static double coth_(double x) { return 1 / tanh(x); }
static double sech_(double x) { return 1 / cosh(x); }
static double csch_(double x) { return 1 / sinh(x); }
static double acoth_(double x) { return atanh(1 / x); }
static double asech_(double x) { return acosh(1 / x); }
static double acsch_(double x) { return asinh(1 / x); }
static double step_(double x) { return !(x < 0); }

/* An expression of x (and y), C's value of it, and the interval of x
 * (y runs over [ylo, yhi]). */
static const struct {
    const char *text;
    double (*f1)(double);
    double (*f2)(double, double);
    double lo, hi, ylo, yhi;
} cases[] = {
    {"exp(x)", exp, NULL, -5, 5, 0, 0},
    {"log(x)", log, NULL, 0.01, 50, 0, 0},
    {"sqrt(x)", sqrt, NULL, 0, 50, 0, 0},
    {"sin(x)", sin, NULL, -3, 3, 0, 0},
    {"cos(x)", cos, NULL, -1.5, 1.5, 0, 0},
    {"tan(x)", tan, NULL, -1.4, 1.4, 0, 0},
    {"cot(x)", cot_, NULL, 0.1, 1.5, 0, 0},
    {"sec(x)", sec_, NULL, -1.4, 1.4, 0, 0},
    {"csc(x)", csc_, NULL, 0.1, 3, 0, 0},
    {"asin(x)", asin, NULL, -0.99, 0.99, 0, 0},
    {"acos(x)", acos, NULL, -0.99, 0.99, 0, 0},
    {"atan(x)", atan, NULL, -20, 20, 0, 0},
    {"acot(x)", acot_, NULL, 0.05, 20, 0, 0},
    {"asec(x)", asec_, NULL, 1.05, 20, 0, 0},
    {"acsc(x)", acsc_, NULL, 1.05, 20, 0, 0},
    {"sinh(x)", sinh, NULL, -5, 5, 0, 0},
    {"cosh(x)", cosh, NULL, -5, 5, 0, 0},
    {"tanh(x)", tanh, NULL, -5, 5, 0, 0},
    {"coth(x)", coth_, NULL, 0.1, 5, 0, 0},
    {"sech(x)", sech_, NULL, -5, 5, 0, 0},
    {"csch(x)", csch_, NULL, 0.1, 5, 0, 0},
    {"asinh(x)", asinh, NULL, -20, 20, 0, 0},
    {"acosh(x)", acosh, NULL, 1.05, 20, 0, 0},
    {"atanh(x)", atanh, NULL, -0.95, 0.95, 0, 0},
    {"acoth(x)", acoth_, NULL, 1.05, 20, 0, 0},
    {"asech(x)", asech_, NULL, 0.05, 0.95, 0, 0},
    {"acsch(x)", acsch_, NULL, 0.05, 20, 0, 0},
    {"abs(x)", fabs, NULL, -3, 3, 0, 0},
    {"fabs(x)", fabs, NULL, -3, 3, 0, 0},
    {"step(x)", step_, NULL, -3, 3, 0, 0},
    {"erf(x)", erf, NULL, -3, 3, 0, 0},
    {"log10(x)", log10, NULL, 0.01, 50, 0, 0},
    {"pow(x, y)", NULL, pow, 0.1, 5, -3, 3},
    {"x^y", NULL, pow, 0.1, 5, -3, 3},
    {"atan2(x, y)", NULL, atan2, -3, 3, -2, 2.5},
    {"min(x, y)", NULL, fmin, -3, 3, -2, 2},
    {"max(x, y)", NULL, fmax, -3, 3, -2, 2},
    {"hypot(x, y)", NULL, hypot, -3, 3, -2, 2},
};

static double add_(double a, double b) { return a + b; }
static double sub_(double a, double b) { return a - b; }
static double mul_(double a, double b) { return a * b; }
static double div_(double a, double b) { return a / b; }
static double lt_(double a, double b) { return a < b; }
static double le_(double a, double b) { return a <= b; }
static double gt_(double a, double b) { return a > b; }
static double ge_(double a, double b) { return a >= b; }
static double eq_(double a, double b) { return a == b; }
static double ne_(double a, double b) { return a != b; }
static double and_(double a, double b) { return a != 0 && b != 0; }
static double or_(double a, double b) { return a != 0 || b != 0; }
static double cond_(double a, double b) { return a > b ? a - b : 2 * b; }
static double not_(double a, double b) { return (a == 0) + b; }
static double neg_(double a, double b) { return -a * b; }

/* Operators, comparisons and logic: exact in any precision (y on a
 * grid that makes some points equal). */
static const struct {
    const char *text;
    double (*f)(double, double);
} ops[] = {{"x + y", add_},  {"x - y", sub_},  {"x * y", mul_},
           {"x / y", div_},  {"x < y", lt_},   {"x <= y", le_},
           {"x > y", gt_},   {"x >= y", ge_},  {"x == y", eq_},
           {"x != y", ne_},  {"x && y", and_}, {"x || y", or_},
           {"x > y ? x - y : 2*y", cond_},     {"!x + y", not_},
           {"-x*y", neg_}};

/* Points: exact in single precision (multiples of 2^-6). */
static double point(double lo, double hi, int i)
{
    return round((lo + (hi - lo) * i / (NPTS - 1)) * 64) / 64;
}

static double round_to(double v)
{
    return strcmp(precision, "single") == 0 ? (double)(float)v : v;
}

/* The distance from got to want in ulps of the precision at want. */
static double ulps(double got, double want)
{
    if (got == want)
        return 0;
    int single = strcmp(precision, "single") == 0;
    double m = fmax(fabs(want), single ? FLT_MIN : DBL_MIN);
    double ulp = ldexp(1.0, ilogb(m) - (single ? 23 : 52));
    return fabs(got - want) / ulp;
}

/* Is text one of frx's compositions: f(x) written g(1/x) or 1/g(x)? */
static int is_composed(const char *text)
{
    static const char *const names[] = {
        "cot(", "sec(", "csc(", "acot(", "asec(", "acsc(",
        "coth(", "sech(", "csch(", "acoth(", "asech(", "acsch("};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strncmp(text, names[i], strlen(names[i])))
            return 1;
    return 0;
}

/* The expression text of x and y as a kernel over NPTS points of
 * matrices X and Y into Z; Z read back into out. */
static void run(const char *text, const double *x, const double *y,
                double *out, int idx)
{
    fr_expr *e = NULL;
    ck_assert_msg(fr_expr_compile_text(text, NULL, "case", FR_EXPR_X |
                                       FR_EXPR_Y, NULL, &e) == 0, "%s: %s",
                  text, frx_errmsg());
    static const char *const names[4] = {"x[0]", "y[0]", NULL, NULL};
    char *src = NULL, body[4096], name[64];
    ck_assert_msg(fr_expr_emit(e, names, frx_backend_precision(be), &src) ==
                  0, "%s: %s", text, frx_errmsg());
    snprintf(body, sizeof body, "z[0] = %s;", src);
    snprintf(name, sizeof name, "expr_%d_%s", idx, precision);
    frx_kernel_decl d = {.name = name, .ndim = 1,
                         .args = "in fpdtype_t[1] x, in fpdtype_t[1] y, "
                                 "out fpdtype_t[1] z",
                         .body = body};
    ck_assert_msg(frx_kernel_register(be, &d) == 0, "%s: %s", text,
                  frx_errmsg());
    frx_matrix *mx, *my, *mz;
    ck_assert_int_eq(frx_matrix_create(be, 1, 1, NPTS, &mx), 0);
    ck_assert_int_eq(frx_matrix_create(be, 1, 1, NPTS, &my), 0);
    ck_assert_int_eq(frx_matrix_create(be, 1, 1, NPTS, &mz), 0);
    ck_assert_int_eq(frx_matrix_write_double(mx, x), 0);
    ck_assert_int_eq(frx_matrix_write_double(my, y), 0);
    frx_arg a[3] = {frx_arg_matrix(mx), frx_arg_matrix(my),
                    frx_arg_matrix(mz)};
    frx_kernel *k;
    ck_assert_msg(frx_kernel_create(be, name, 1, NPTS, a, 3, &k) == 0,
                  "%s: %s\n%s", text, frx_errmsg(), body);
    ck_assert_int_eq(frx_kernel_run(k), 0);
    ck_assert_int_eq(frx_matrix_read_double(mz, out), 0);
    frx_kernel_destroy(k);
    frx_matrix_destroy(mx);
    frx_matrix_destroy(my);
    frx_matrix_destroy(mz);
    free(src);
    fr_expr_destroy(e);
}

START_TEST(functions_match_c)
{
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        double x[NPTS], y[NPTS], got[NPTS], worst = 0;
        for (int i = 0; i < NPTS; i++) {
            x[i] = point(cases[c].lo, cases[c].hi, i);
            /* y on its own grid, reversed: every pair differs */
            y[i] = point(cases[c].ylo, cases[c].yhi, NPTS - 1 - i);
        }
        run(cases[c].text, x, y, got, (int)c);
        for (int i = 0; i < NPTS; i++) {
            double want = round_to(cases[c].f1 ? cases[c].f1(x[i])
                                               : cases[c].f2(x[i], y[i]));
            double u = ulps(got[i], want);
            int composed = is_composed(cases[c].text);
            ck_assert_msg(u <= (composed ? MAX_ULPS_COMPOSED : MAX_ULPS), "%s at x = %.17g, y = %.17g on %s "
                          "(%s): %.17g, C: %.17g (%.1f ulps)",
                          cases[c].text, x[i], y[i], frx_backend_name(be),
                          precision, got[i], want, u);
            worst = fmax(worst, u);
        }
        printf("%-12s %s %s: at most %.1f ulps\n", cases[c].text,
               frx_backend_name(be), precision, worst);
    }
}
END_TEST

START_TEST(operators_exact)
{
    for (size_t c = 0; c < sizeof ops / sizeof *ops; c++) {
        double x[NPTS], y[NPTS], got[NPTS];
        for (int i = 0; i < NPTS; i++) {
            x[i] = point(-3, 3, i);
            y[i] = i % 3 ? point(-3, 3, NPTS - 1 - i) : x[i];
            if (y[i] == 0 && ops[c].f == div_)
                y[i] = 0.5;
        }
        run(ops[c].text, x, y, got, 100 + (int)c);
        for (int i = 0; i < NPTS; i++) {
            double want = round_to(ops[c].f(x[i], y[i]));
            ck_assert_msg(ulps(got[i], want) <= (ops[c].f == div_ ? 3 : 0),
                          "%s at x = %g, y = %g on %s (%s): %.17g, C: %.17g",
                          ops[c].text, x[i], y[i], frx_backend_name(be),
                          precision, got[i], want);
        }
    }
}
END_TEST

/* Single precision refuses what it cannot hold, before any kernel. */
START_TEST(out_of_range_refused)
{
    fr_expr *e = NULL;
    ck_assert_int_eq(fr_expr_compile_text("1e39*x", NULL, "big", FR_EXPR_X,
                                          NULL, &e), 0);
    static const char *const names[4] = {"x[0]", NULL, NULL, NULL};
    char *src = NULL;
    int rc = fr_expr_emit(e, names, frx_backend_precision(be), &src);
    if (strcmp(precision, "single") == 0) {
        ck_assert_int_eq(rc, FRX_ECONFIG);
        ck_assert_ptr_nonnull(strstr(frx_errmsg(), "out of single "
                                                   "precision's range"));
    } else {
        ck_assert_int_eq(rc, 0);
    }
    free(src);
    fr_expr_destroy(e);
}
END_TEST

static Suite *expr_suite(void)
{
    Suite *s = suite_create("fr-expr-kernels");
    TCase *tc = tcase_create(precision);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, functions_match_c);
    tcase_add_test(tc, operators_exact);
    tcase_add_test(tc, out_of_range_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_fr_expr_kernels BACKEND\n");
        return 2;
    }
    return tu_run_per_precision(argv[1], expr_suite, &be, &precision);
}
