/* SPDX-License-Identifier: BSD-3-Clause */
/* Expressions (expr.h): values against C's math library, constants, and
 * every error with its exact message. */
#include "frtest.h"

#include <frx/fr/expr.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define XY (FR_EXPR_X | FR_EXPR_Y)

static fr_expr *compile(const char *text, unsigned vars,
                        const fr_expr_consts *c)
{
    fr_expr *e = NULL;
    int rc = fr_expr_compile_text(text, "case.yaml:1:1", "ic", vars, c, &e);
    ck_assert_msg(rc == 0, "'%s': %s", text, frx_errmsg());
    return e;
}

/* The message of compiling text, which must fail with FRX_ECONFIG. */
static const char *fails(const char *text, unsigned vars,
                         const fr_expr_consts *c)
{
    fr_expr *e = (fr_expr *)1;
    int rc = fr_expr_compile_text(text, "case.yaml:1:1", "ic", vars, c, &e);
    ck_assert_msg(rc == FRX_ECONFIG, "'%s' gave %d", text, rc);
    ck_assert_ptr_null(e);
    return frx_errmsg();
}

static const double pts[][2] = {{0.3, -0.7}, {1.5, 2.25}, {-2.0, 0.125},
                                {0.0, 1.0}};

START_TEST(values_match_c)
{
    fr_expr *e = compile("x*y + sin(x) - exp(-y^2)/2 + 3*x^3 - 1.5e-1", XY,
                         NULL);
    ck_assert_uint_eq(fr_expr_uses(e), XY);
    double out[4];
    ck_assert_int_eq(fr_expr_eval_points(e, 4, 2, &pts[0][0], 0.0, out), 0);
    for (int i = 0; i < 4; i++) {
        double x = pts[i][0], y = pts[i][1];
        double want = x * y + sin(x) - exp(-y * y) / 2 + 3 * pow(x, 3) - 0.15;
        ck_near(out[i], want, 1e-15);
        ck_near(fr_expr_eval(e, x, y, 0, 0), want, 1e-15);
    }
    fr_expr_destroy(e);
}
END_TEST

/* Every function libmatheval has, against C (or its definition). */
START_TEST(functions_match_c)
{
    static const struct {
        const char *text;
        double (*f)(double);
        double x;
    } fn[] = {{"exp(x)", exp, 0.7},    {"log(x)", log, 0.7},
              {"sqrt(x)", sqrt, 0.7},  {"sin(x)", sin, 0.7},
              {"cos(x)", cos, 0.7},    {"tan(x)", tan, 0.7},
              {"asin(x)", asin, 0.7},  {"acos(x)", acos, 0.7},
              {"atan(x)", atan, 0.7},  {"sinh(x)", sinh, 0.7},
              {"cosh(x)", cosh, 0.7},  {"tanh(x)", tanh, 0.7},
              {"asinh(x)", asinh, 0.7}, {"acosh(x)", acosh, 1.7},
              {"atanh(x)", atanh, 0.7}, {"abs(x)", fabs, -0.7},
              {"erf(x)", erf, 0.7}};
    for (size_t i = 0; i < sizeof fn / sizeof fn[0]; i++) {
        fr_expr *e = compile(fn[i].text, FR_EXPR_X, NULL);
        ck_near(fr_expr_eval(e, fn[i].x, 0, 0, 0), fn[i].f(fn[i].x), 1e-15);
        fr_expr_destroy(e);
    }
    static const struct {
        const char *text;
        double x, want;
    } rec[] = {{"cot(x)", 0.7, 1 / tan(0.7)},
               {"sec(x)", 0.7, 1 / cos(0.7)},
               {"csc(x)", 0.7, 1 / sin(0.7)},
               {"acot(x)", 0.7, atan(1 / 0.7)},
               {"asec(x)", 1.7, acos(1 / 1.7)},
               {"acsc(x)", 1.7, asin(1 / 1.7)},
               {"coth(x)", 0.7, 1 / tanh(0.7)},
               {"sech(x)", 0.7, 1 / cosh(0.7)},
               {"csch(x)", 0.7, 1 / sinh(0.7)},
               {"acoth(x)", 1.7, atanh(1 / 1.7)},
               {"asech(x)", 0.7, acosh(1 / 0.7)},
               {"acsch(x)", 0.7, asinh(1 / 0.7)},
               {"step(x)", 0.7, 1.0},
               {"step(x)", -0.7, 0.0},
               {"delta(x)", 0.7, 0.0},
               {"nandelta(x)", 0.7, 0.0}};
    for (size_t i = 0; i < sizeof rec / sizeof rec[0]; i++) {
        fr_expr *e = compile(rec[i].text, FR_EXPR_X, NULL);
        ck_near(fr_expr_eval(e, rec[i].x, 0, 0, 0), rec[i].want, 1e-14);
        fr_expr_destroy(e);
    }
}
END_TEST

START_TEST(builtin_constants)
{
    static const struct {
        const char *text;
        double want;
    } c[] = {{"e", M_E},         {"log2e", M_LOG2E},   {"log10e", M_LOG10E},
             {"ln2", M_LN2},     {"ln10", M_LN10},     {"pi", M_PI},
             {"pi_2", M_PI_2},   {"pi_4", M_PI_4},     {"1_pi", M_1_PI},
             {"2_pi", M_2_PI},   {"2_sqrtpi", M_2_SQRTPI},
             {"sqrt2", M_SQRT2}, {"sqrt1_2", M_SQRT1_2}, {"2*pi*x", 2 * M_PI}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        fr_expr *e = compile(c[i].text, FR_EXPR_X, NULL);
        ck_near(fr_expr_eval(e, 1, 0, 0, 0), c[i].want, 1e-15);
        ck_assert_uint_eq(fr_expr_uses(e), i == 13 ? FR_EXPR_X : 0);
        fr_expr_destroy(e);
    }
}
END_TEST

/* The grouping libmatheval uses, which the docs promise. */
START_TEST(precedence)
{
    static const struct {
        const char *text;
        double want; /* at x = 3, y = 2 */
    } p[] = {{"-x^2", -9},      {"2^-1*3", 1.5},   {"1/2/4", 0.125},
             {"x - -y", 5},     {"x-y-1", 0},      {"2*-x", -6},
             {"(x+y)*2", 10},   {"x+y*2", 7},      {"x^(y^3)", 6561},
             {"(x^y)^3", 729},  {"-x*y", -6},      {"x^0.5", sqrt(3.0)},
             {".5 + 1. + 2e1", 21.5}, {"  x\n +\ty ", 5}};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        fr_expr *e = compile(p[i].text, XY, NULL);
        ck_near(fr_expr_eval(e, 3, 2, 0, 0), p[i].want, 1e-15);
        fr_expr_destroy(e);
    }
}
END_TEST

START_TEST(z_and_t)
{
    unsigned all = XY | FR_EXPR_Z | FR_EXPR_T;
    fr_expr *e = compile("x + 10*y + 100*z + 1000*t", all, NULL);
    ck_assert_uint_eq(fr_expr_uses(e), all);
    double p3[2][3] = {{1, 2, 3}, {4, 5, 6}}, out[2];
    ck_assert_int_eq(fr_expr_eval_points(e, 2, 3, &p3[0][0], 0.5, out), 0);
    ck_near(out[0], 821, 1e-15);
    ck_near(out[1], 1154, 1e-15);
    ck_assert_int_eq(fr_expr_eval_points(e, 2, 2, &p3[0][0], 0.5, out),
                     FRX_EINVAL);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:1:1: ic = 'x + 10*y + 100*z + "
                     "1000*t': it uses z, but the points are 2-D");
    fr_expr_destroy(e);
    /* A number is an expression; it uses nothing. */
    e = compile("2.5", XY, NULL);
    ck_assert_uint_eq(fr_expr_uses(e), 0);
    ck_assert_int_eq(fr_expr_eval_points(e, 2, 1, &p3[0][0], 0.0, out), 0);
    ck_assert(out[0] == 2.5 && out[1] == 2.5);
    fr_expr_destroy(e);
}
END_TEST

START_TEST(derivative)
{
    fr_expr *e = compile("x^2*sin(y) + 3*x*t", XY | FR_EXPR_T, NULL), *d;
    ck_assert_int_eq(fr_expr_derivative(e, FR_EXPR_X, &d), 0);
    ck_near(fr_expr_eval(d, 1.5, 0.4, 0, 2), 2 * 1.5 * sin(0.4) + 6, 1e-15);
    fr_expr_destroy(d);
    ck_assert_int_eq(fr_expr_derivative(e, FR_EXPR_Y, &d), 0);
    ck_near(fr_expr_eval(d, 1.5, 0.4, 0, 2), 2.25 * cos(0.4), 1e-15);
    ck_assert_uint_eq(fr_expr_uses(d) & XY, XY);
    fr_expr_destroy(d);
    ck_assert_int_eq(fr_expr_derivative(e, 3, &d), FRX_EINVAL);
    ck_assert_ptr_null(d);
    ck_assert_str_eq(frx_errmsg(), "ic: the derivative needs one of "
                     "FR_EXPR_X, _Y, _Z or _T, not 3");
    fr_expr_destroy(e);
}
END_TEST

/* Every function libmatheval offers: its value against C's math library
 * and its derivative against a central difference, at a point of its
 * domain, alone and inside another (libmatheval's own derivatives of
 * asinh and acoth are wrong; expr.c differentiates them as logs). */
static double rcp(double (*f)(double), double x) { return f(1 / x); }
static double cot_(double x) { return 1 / tan(x); }
static double sec_(double x) { return 1 / cos(x); }
static double csc_(double x) { return 1 / sin(x); }
static double acot_(double x) { return rcp(atan, x); }
static double asec_(double x) { return rcp(acos, x); }
static double acsc_(double x) { return rcp(asin, x); }
static double coth_(double x) { return 1 / tanh(x); }
static double sech_(double x) { return 1 / cosh(x); }
static double csch_(double x) { return 1 / sinh(x); }
static double acoth_(double x) { return rcp(atanh, x); }
static double asech_(double x) { return rcp(acosh, x); }
static double acsch_(double x) { return rcp(asinh, x); }
static double step_(double x) { return x > 0; }

static const struct {
    const char *name;
    double (*c)(double);
    double at; /* a point of the domain, away from a kink */
} fn[] = {
    {"exp", exp, 0.7},      {"log", log, 1.7},      {"sqrt", sqrt, 1.7},
    {"sin", sin, 0.7},      {"cos", cos, 0.7},      {"tan", tan, 0.7},
    {"cot", cot_, 0.7},     {"sec", sec_, 0.7},     {"csc", csc_, 0.7},
    {"asin", asin, 0.4},    {"acos", acos, 0.4},    {"atan", atan, 0.7},
    {"acot", acot_, 0.7},   {"asec", asec_, 1.7},   {"acsc", acsc_, 1.7},
    {"sinh", sinh, 0.7},    {"cosh", cosh, 0.7},    {"tanh", tanh, 0.7},
    {"coth", coth_, 0.7},   {"sech", sech_, 0.7},   {"csch", csch_, 0.7},
    {"asinh", asinh, 0.7},  {"acosh", acosh, 1.7},  {"atanh", atanh, 0.4},
    {"acoth", acoth_, 1.7}, {"asech", asech_, 0.4}, {"acsch", acsch_, 0.7},
    {"abs", fabs, -0.7},    {"step", step_, 0.7},   {"erf", erf, 0.7},
    {"fabs", fabs, -0.7},   {"log10", log10, 1.7},
};

START_TEST(every_function_and_its_derivative)
{
    const double h = 1e-5;
    for (size_t i = 0; i < sizeof fn / sizeof *fn; i++) {
        char text[128];
        double a = fn[i].at;
        /* f(x) at a; f(f(x)/f(a)*a) too, where f(a) is not 0: the same
         * point, with a composite argument (f inside f, chain rule) */
        for (int nest = 0; nest < 2; nest++) {
            if (nest)
                snprintf(text, sizeof text, "%s(%s(x)/(%.17g)*(%.17g))",
                         fn[i].name, fn[i].name, fn[i].c(a), a);
            else
                snprintf(text, sizeof text, "%s(x)", fn[i].name);
            fr_expr *e = compile(text, FR_EXPR_X, NULL), *d;
            ck_assert_int_eq(fr_expr_derivative(e, FR_EXPR_X, &d), 0);
            double fd = (fr_expr_eval(e, a + h, 0, 0, 0) -
                         fr_expr_eval(e, a - h, 0, 0, 0)) / (2 * h),
                   got = fr_expr_eval(d, a, 0, 0, 0);
            ck_assert_msg(fabs(got - fd) <= 1e-7 * fmax(1, fabs(fd)),
                          "d(%s)/dx at %g = %.17g ('%s'), a difference "
                          "gives %.17g", text, a, got, fr_expr_text(d), fd);
            if (!nest)
                ck_assert_msg(fabs(fr_expr_eval(e, a, 0, 0, 0) -
                                   fn[i].c(a)) <= 1e-14 * fabs(fn[i].c(a)),
                              "%s at %g = %.17g, C gives %.17g", text, a,
                              fr_expr_eval(e, a, 0, 0, 0), fn[i].c(a));
            fr_expr_destroy(d);
            fr_expr_destroy(e);
        }
    }
}
END_TEST

static frx_config *parse(const char *yaml)
{
    frx_config *cfg = NULL;
    ck_assert_int_eq(frx_config_parse(yaml, strlen(yaml), "case.yaml", &cfg),
                     0);
    return cfg;
}

/* PyFR's vortex constants and initial density, from YAML. */
START_TEST(constants_from_yaml)
{
    frx_config *cfg = parse(
        "solver:\n"
        "  constants: {gamma: 1.4, S: 13.5, M: 0.4, R: 1.5,\n"
        "              gm1: gamma - 1, twopi: 2*pi, neg: -2.5e-1}\n"
        "  ics:\n"
        "    rho: (1 - S^2*M^2*gm1*exp(2*((1 - x^2 - y^2)/(2*R^2)))"
        "/(8*pi^2))^(1/gm1)\n");
    const frx_cfgnode *root = frx_config_root(cfg);
    fr_expr_consts *c = NULL;
    ck_assert_int_eq(fr_expr_consts_create(
                         frx_cfg_get(root, "solver.constants"),
                         "solver.constants", &c), 0);
    ck_assert_uint_eq(fr_expr_consts_count(c), 7);
    ck_assert_str_eq(fr_expr_consts_name(c, 4), "gm1");
    double v;
    ck_assert_int_eq(fr_expr_consts_get(c, "gm1", &v), 0);
    ck_near(v, 1.4 - 1, 1e-16);
    ck_assert_int_eq(fr_expr_consts_get(c, "twopi", &v), 0);
    ck_assert(v == 2 * M_PI);
    ck_assert(fr_expr_consts_value(c, 6) == -0.25);
    ck_assert_int_eq(fr_expr_consts_get(c, "nope", &v), FRX_ENOTFOUND);

    fr_expr *e = NULL;
    ck_assert_int_eq(fr_expr_compile(frx_cfg_get(root, "solver.ics.rho"),
                                     "solver.ics.rho", XY, c, &e), 0);
    double out[4];
    ck_assert_int_eq(fr_expr_eval_points(e, 4, 2, &pts[0][0], 0.0, out), 0);
    for (int i = 0; i < 4; i++) {
        double x = pts[i][0], y = pts[i][1], f = (1 - x * x - y * y) / 4.5;
        /* PyFR: exp(2 f), f = (1 - x^2 - y^2)/(2 R^2) */
        double want = pow(1 - 13.5 * 13.5 * 0.16 * 0.4 * exp(2 * f) /
                                  (8 * M_PI * M_PI),
                          1 / 0.4);
        ck_near(out[i], want, 1e-14);
    }
    fr_expr_destroy(e);
    fr_expr_consts_destroy(c);
    /* no map: no constants */
    ck_assert_int_eq(fr_expr_consts_create(NULL, "solver.constants", &c), 0);
    ck_assert_uint_eq(fr_expr_consts_count(c), 0);
    fr_expr_consts_destroy(c);
    frx_config_free(cfg);
}
END_TEST

/* The message of reading solver.constants from yaml (which must fail). */
static const char *consts_fail(const char *yaml)
{
    frx_config *cfg = parse(yaml);
    fr_expr_consts *c = (fr_expr_consts *)1;
    int rc = fr_expr_consts_create(
        frx_cfg_get(frx_config_root(cfg), "solver.constants"),
        "solver.constants", &c);
    ck_assert_int_eq(rc, FRX_ECONFIG);
    ck_assert_ptr_null(c);
    static char msg[2048];
    snprintf(msg, sizeof msg, "%s", frx_errmsg());
    frx_config_free(cfg);
    return msg;
}

START_TEST(constant_errors)
{
    ck_assert_str_eq(consts_fail("solver:\n  constants: {gamma: 1.4, e: 2}\n"),
                     "case.yaml:2:27: solver.constants.e: 'e' is a built-in "
                     "constant's name (docs/expressions.md)");
    ck_assert_str_eq(consts_fail("solver:\n  constants:\n    x: 2\n"),
                     "case.yaml:3:5: solver.constants.x: 'x' is a coordinate "
                     "(x, y, z and t are the variables)");
    ck_assert_str_eq(consts_fail("solver:\n  constants:\n    sin: 2\n"),
                     "case.yaml:3:5: solver.constants.sin: 'sin' is a "
                     "function's name");
    ck_assert_str_eq(consts_fail("solver:\n  constants:\n    2a: 2\n"),
                     "case.yaml:3:5: solver.constants.2a: '2a' is not a name: "
                     "use letters, digits and _, not starting with a digit");
    ck_assert_str_eq(consts_fail("solver:\n  constants:\n    a-b: 2\n"),
                     "case.yaml:3:5: solver.constants.a-b: 'a-b' is not a "
                     "name: use letters, digits and _, not starting with a "
                     "digit");
    /* a constant uses one defined below it */
    ck_assert_str_eq(consts_fail("solver:\n  constants:\n    a: 1\n"
                                 "    b: 2*c\n    c: 3\n"),
                     "case.yaml:4:8: solver.constants.b = '2*c': unknown "
                     "variable 'c' (character 3); known names: a");
    ck_assert_str_eq(consts_fail("solver:\n  constants:\n    a: x\n"),
                     "case.yaml:3:8: solver.constants.a = 'x': unknown "
                     "variable 'x' (character 1); known names: none");
    ck_assert_str_eq(consts_fail("solver:\n  constants:\n    a: 1/0\n"),
                     "case.yaml:3:8: solver.constants.a = '1/0': the value is "
                     "inf; a constant must be finite");
    ck_assert_str_eq(consts_fail("solver:\n  constants:\n    a: 0/0\n"),
                     "case.yaml:3:8: solver.constants.a = '0/0': the value is "
                     "nan; a constant must be finite");
    ck_assert_str_eq(consts_fail("solver:\n  constants:\n    a: [1, 2]\n"),
                     "case.yaml:3:8: solver.constants.a must be an expression "
                     "(a number or a formula), not a list");
    ck_assert_str_eq(consts_fail("solver:\n  constants: 3\n"),
                     "case.yaml:2:14: solver.constants must be a map of names "
                     "to numbers or expressions (gamma: 1.4)");
}
END_TEST

START_TEST(syntax_errors)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"", "the expression is empty"},
        {"  \n ", "the expression is empty"},
        {"x +", "expected a number, a name or '(' at the end"},
        {"x * / y", "expected a number, a name or '(' before '/' "
                    "(character 5)"},
        {"+x", "expected a number, a name or '(' before '+' (character 1)"},
        {"x y", "expected an operator before 'y' (character 3)"},
        {"2x", "expected an operator before 'x' (character 2)"},
        {"(x + y", "missing ')' for the '(' at character 1 (expected an "
                   "operator or ')' at the end)"},
        {"(x y)", "missing ')' for the '(' at character 1 (expected an "
                  "operator or ')' before 'y' (character 4))"},
        {"x + y)", "')' without a '(' (character 6)"},
        {"()", "expected a number, a name or '(' before ')' (character 2)"},
        {"x $ y", "unexpected character '$' (character 3)"},
        {"x, y", "unexpected character ',' (character 2)"},
        {"sin(x; y)", "unexpected character ';' (character 6)"},
        {"x + \x01", "unexpected byte 0x01 (character 5)"},
        {"x + .", "unexpected character '.' (character 5)"},
        {"x & y", "unexpected character '&' (character 3)"},
        {"sin x", "function 'sin' (character 1) takes its argument in "
                  "parentheses: sin(...)"},
        {"pow x", "function 'pow' (character 1) takes its arguments in "
                  "parentheses: pow(a, b)"},
        {"pow(x)", "function 'pow' (character 1) takes 2 arguments, not 1: "
                   "pow(a, b)"},
        {"sin(x, y)", "function 'sin' (character 1) takes 1 argument, not "
                      "more: sin(...)"},
        {"max(x, y", "missing ')' for the '(' at character 4 (expected an "
                     "operator, ',' or ')' at the end)"},
        {"2^3^2", "a^b^c is ambiguous: write (a^b)^c or a^(b^c) "
                  "(character 4)"},
        {"x^-y^2", "a^b^c is ambiguous: write (a^b)^c or a^(b^c) "
                   "(character 5)"},
        {"x < y < 1", "a chain of comparisons is not a range test: write "
                      "(a < b) && (b < c) (character 7)"},
        {"x == y != 1", "a chain of comparisons is not a range test: write "
                        "(a < b) && (b < c) (character 8)"},
        {"x > 0 ? 1", "expected ':' for the '?' at character 7 at the end"},
        {"x > 0 ? 1 ; 2", "unexpected character ';' (character 11)"},
        {"x ? 1 :", "expected a number, a name or '(' at the end"},
        {"pow2(x, 2)", "unknown function 'pow2' (character 1); functions: "
                       "exp, log, sqrt, sin, cos, tan, cot, sec, csc, asin, "
                       "acos, atan, acot, asec, acsc, sinh, cosh, tanh, "
                       "coth, sech, csch, asinh, acosh, atanh, acoth, asech, "
                       "acsch, abs, step, delta, nandelta, erf, fabs, log10, "
                       "pow, atan2, min, max, hypot"},
        {"1 + foo*x", "unknown variable 'foo' (character 5); known names: x, "
                      "y, gamma"},
        {"x + t", "unknown variable 't' (character 5); known names: x, y, "
                  "gamma"},
        {"x + expo", "unknown variable 'expo' (character 5); known names: x, "
                     "y, gamma"},
    };
    frx_config *cfg = parse("constants: {gamma: 1.4}\n");
    fr_expr_consts *c = NULL;
    ck_assert_int_eq(fr_expr_consts_create(
                         frx_cfg_get(frx_config_root(cfg), "constants"),
                         "constants", &c), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[2048];
        snprintf(want, sizeof want, "case.yaml:1:1: ic = '%s': %s",
                 bad[i].text, bad[i].msg);
        ck_assert_str_eq(fails(bad[i].text, XY, c), want);
    }
    fr_expr_consts_destroy(c);
    frx_config_free(cfg);
}
END_TEST

/* The YAML place, the key and the text name the failure. */
START_TEST(yaml_place)
{
    frx_config *cfg = parse("solver:\n  ics:\n    u: 1 + foo\n"
                            "    v: {a: 1}\n");
    const frx_cfgnode *root = frx_config_root(cfg);
    fr_expr *e = (fr_expr *)1;
    ck_assert_int_eq(fr_expr_compile(frx_cfg_get(root, "solver.ics.u"),
                                     "solver.ics.u", XY, NULL, &e),
                     FRX_ECONFIG);
    ck_assert_ptr_null(e);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:3:8: solver.ics.u = '1 + foo': "
                     "unknown variable 'foo' (character 5); known names: x, "
                     "y");
    ck_assert_int_eq(fr_expr_compile(frx_cfg_get(root, "solver.ics.v"),
                                     "solver.ics.v", XY, NULL, &e),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:4:8: solver.ics.v must be an "
                     "expression (a number or a formula), not a map");
    ck_assert_int_eq(fr_expr_compile(frx_cfg_get(root, "solver.ics.w"),
                                     "solver.ics.w", XY, NULL, &e),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "solver.ics.w: missing; it needs an "
                     "expression");
    /* without a place, the message starts at the key */
    ck_assert_int_eq(fr_expr_compile_text("x +", NULL, "u0", XY, NULL, &e),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "u0 = 'x +': expected a number, a name or "
                     "'(' at the end");
    frx_config_free(cfg);
}
END_TEST

START_TEST(not_finite_is_an_error)
{
    fr_expr *e = compile("log(x) + y", XY, NULL);
    double out[4];
    ck_assert_int_eq(fr_expr_eval_points(e, 4, 2, &pts[0][0], 0.25, out),
                     FRX_ERANGE);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:1:1: ic = 'log(x) + y': the "
                     "value is nan at x = -2, y = 0.125, t = 0.25; check the "
                     "expression's domain (sqrt, log, division)");
    fr_expr_destroy(e);
}
END_TEST

/* Nothing is printed for bad input (the library libmatheval that frx
 * used before printed characters it did not know to stdout). */
START_TEST(nothing_printed)
{
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    char path[] = "/tmp/frx-expr-stdout-XXXXXX";
    const char *tmpdir = getenv("TMPDIR");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/frx-expr-stdout-XXXXXX",
             tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(tmpdir ? buf : path);
    ck_assert_int_ge(fd, 0);
    dup2(fd, STDOUT_FILENO);
    static const char *const bad[] = {"x $ y", "x, y", "x # y", "x ? 1 ;",
                                      "{x}", "x @ y", "x & y"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fr_expr *e = NULL;
        ck_assert_int_eq(fr_expr_compile_text(bad[i], NULL, "ic", XY, NULL,
                                              &e), FRX_ECONFIG);
    }
    fr_expr *e = compile("x + y", XY, NULL);
    ck_assert(fr_expr_eval(e, 1, 2, 0, 0) == 3);
    fr_expr_destroy(e);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    ck_assert_int_eq(lseek(fd, 0, SEEK_END), 0);
    close(fd);
    unlink(tmpdir ? buf : path);
}
END_TEST

/* The functions of two arguments, against C, with their partial
 * derivatives against central differences (y held at 0.8). */
START_TEST(functions_of_two)
{
    static const struct {
        const char *name;
        double (*c)(double, double);
        double x; /* away from a kink: min and max at x != y */
    } fn2[] = {{"pow", pow, 1.3},   {"atan2", atan2, -0.6},
               {"min", fmin, 0.5},  {"min", fmin, 1.1},
               {"max", fmax, 0.5},  {"max", fmax, 1.1},
               {"hypot", hypot, -0.6}};
    const double y = 0.8, h = 1e-5;
    for (size_t i = 0; i < sizeof fn2 / sizeof *fn2; i++) {
        char text[64];
        snprintf(text, sizeof text, "%s(x, y)", fn2[i].name);
        fr_expr *e = compile(text, XY, NULL), *d;
        double x = fn2[i].x;
        ck_assert_msg(fr_expr_eval(e, x, y, 0, 0) == fn2[i].c(x, y),
                      "%s at (%g, %g)", text, x, y);
        for (int k = 0; k < 2; k++) {
            ck_assert_int_eq(fr_expr_derivative(e, k ? FR_EXPR_Y : FR_EXPR_X,
                                                &d), 0);
            double fd = (fn2[i].c(x + (k ? 0 : h), y + (k ? h : 0)) -
                         fn2[i].c(x - (k ? 0 : h), y - (k ? h : 0))) / (2 * h);
            double got = fr_expr_eval(d, x, y, 0, 0);
            ck_assert_msg(fabs(got - fd) <= 1e-7 * fmax(1, fabs(fd)),
                          "d(%s)/d%c = %.17g ('%s'), a difference gives "
                          "%.17g", text, "xy"[k], got, fr_expr_text(d), fd);
            fr_expr_destroy(d);
        }
        fr_expr_destroy(e);
    }
}
END_TEST

/* Comparisons and logic are 1 or 0; the conditional takes one branch;
 * precedence as in C (the conditional lowest, then ||, &&, equality,
 * order, sums). */
START_TEST(comparisons_and_conditional)
{
    static const struct {
        const char *text;
        double want; /* at x = 3, y = 2 */
    } p[] = {{"x < y", 0},           {"x > y", 1},          {"x <= 3", 1},
             {"x >= 3.5", 0},        {"x == 3", 1},         {"x != 3", 0},
             {"!x", 0},              {"!(x - 3)", 1},       {"!x + 1", 1},
             {"x > 1 && y < 3", 1},  {"x > 4 || y < 1", 0}, {"1 + (x < y)", 1},
             {"x < y + 2", 1},       {"-x^2 < 0", 1},       {"x > 1 ? 10 : 20", 10},
             {"x < 1 ? 10 : y < 3 ? 30 : 40", 30},
             {"(x < 1 ? 10 : 20) + 1", 21},
             {"x > 2 && y > 2 || x == 3", 1}};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        fr_expr *e = compile(p[i].text, XY, NULL);
        ck_assert_msg(fr_expr_eval(e, 3, 2, 0, 0) == p[i].want, "%s = %g",
                      p[i].text, fr_expr_eval(e, 3, 2, 0, 0));
        fr_expr_destroy(e);
    }
    /* only the branch taken is evaluated: no NaN from the other */
    fr_expr *e = compile("x > 0 ? sqrt(x) : sqrt(-x)", XY, NULL);
    double pts2[2][2] = {{4, 0}, {-9, 0}}, out[2];
    ck_assert_int_eq(fr_expr_eval_points(e, 2, 2, &pts2[0][0], 0, out), 0);
    ck_assert(out[0] == 2 && out[1] == 3);
    fr_expr_destroy(e);
}
END_TEST

/* Nesting deeper than the parser recurses is refused, not a crash. */
START_TEST(deep_nesting)
{
    char text[1024];
    size_t n = 0;
    for (int i = 0; i < 300; i++)
        text[n++] = '(';
    text[n++] = 'x';
    for (int i = 0; i < 300; i++)
        text[n++] = ')';
    text[n] = '\0';
    const char *msg = fails(text, XY, NULL);
    ck_assert_msg(strstr(msg, "nested more than 200 deep (character 201)"),
                  "%s", msg);
    memset(text, '-', 400);
    strcpy(text + 400, "x");
    msg = fails(text, XY, NULL);
    ck_assert_msg(strstr(msg, "nested more than 200 deep"), "%s", msg);
    /* 150 deep is fine */
    n = 0;
    for (int i = 0; i < 150; i++)
        text[n++] = '(';
    text[n++] = 'x';
    for (int i = 0; i < 150; i++)
        text[n++] = ')';
    text[n] = '\0';
    fr_expr *e = compile(text, XY, NULL);
    ck_assert(fr_expr_eval(e, 2, 0, 0, 0) == 2);
    fr_expr_destroy(e);
}
END_TEST

static const char *const xyt[4] = {"X[0]", "X[1]", NULL, "t"};

/* An expression as C for a kernel: each node in parentheses, numbers as
 * fpdtype_t, the functions by C's names or their definitions. */
START_TEST(emitted_c)
{
    static const struct {
        const char *text, *c;
    } em[] = {
        {"2*x + y", "((((fpdtype_t)2) * X[0]) + X[1])"},
        {"-x^2", "(-pow(X[0], ((fpdtype_t)2)))"},
        {"x < y ? t : 0.5", "(((fpdtype_t)(X[0] < X[1])) != 0 ? t : "
                            "((fpdtype_t)0.5))"},
        {"cot(x) + max(x, y)", "((1/tan(X[0])) + fmax(X[0], X[1]))"},
        {"step(x) * abs(y)", "(((fpdtype_t)!((X[0]) < 0)) * fabs(X[1]))"},
        {"x && !y", "((fpdtype_t)(X[0] != 0 && ((fpdtype_t)(X[1] == 0)) "
                    "!= 0))"},
        {"2*pi", "((fpdtype_t)6.2831853071795862)"},
    };
    for (size_t i = 0; i < sizeof em / sizeof *em; i++) {
        fr_expr *e = compile(em[i].text, XY | FR_EXPR_T, NULL);
        char *src = NULL;
        ck_assert_int_eq(fr_expr_emit(e, xyt, FRX_DOUBLE, &src), 0);
        ck_assert_str_eq(src, em[i].c);
        free(src);
        fr_expr_destroy(e);
    }
    static const struct {
        const char *text;
        int precision;
        const char *msg;
    } no[] = {
        {"delta(x)", FRX_DOUBLE, "delta(a) is inf where a is 0: no field "
                                 "can hold it"},
        {"x + z", FRX_DOUBLE, "it uses z, which this kernel does not have"},
        {"x + 1/0", FRX_DOUBLE, "its value is inf where it is a number (a "
                                "division by 0?)"},
        {"1e300*x", FRX_SINGLE, "the number 1.0000000000000001e+300 is out "
                                "of single precision's range (1.17549e-38 "
                                "to 3.40282e+38)"},
        {"1e-300*x", FRX_SINGLE, "the number 1e-300 is out "
                                 "of single precision's range (1.17549e-38 "
                                 "to 3.40282e+38)"},
    };
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        fr_expr *e = compile(no[i].text, XY | FR_EXPR_Z | FR_EXPR_T, NULL);
        char *src = (char *)1, want[512];
        ck_assert_int_eq(fr_expr_emit(e, xyt, no[i].precision, &src),
                         FRX_ECONFIG);
        ck_assert_ptr_null(src);
        snprintf(want, sizeof want, "case.yaml:1:1: ic = '%s': it cannot be "
                 "part of a kernel: %s", no[i].text, no[i].msg);
        ck_assert_str_eq(frx_errmsg(), want);
        fr_expr_destroy(e);
    }
    /* 1e300 is fine in double */
    fr_expr *e = compile("1e300*x", XY, NULL);
    char *src = NULL;
    ck_assert_int_eq(fr_expr_emit(e, xyt, FRX_DOUBLE, &src), 0);
    free(src);
    fr_expr_destroy(e);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fr-expr");
    TCase *tc = tcase_create("expr");
    tcase_add_test(tc, values_match_c);
    tcase_add_test(tc, functions_match_c);
    tcase_add_test(tc, builtin_constants);
    tcase_add_test(tc, precedence);
    tcase_add_test(tc, z_and_t);
    tcase_add_test(tc, derivative);
    tcase_add_test(tc, every_function_and_its_derivative);
    tcase_add_test(tc, constants_from_yaml);
    tcase_add_test(tc, constant_errors);
    tcase_add_test(tc, syntax_errors);
    tcase_add_test(tc, yaml_place);
    tcase_add_test(tc, not_finite_is_an_error);
    tcase_add_test(tc, nothing_printed);
    tcase_add_test(tc, functions_of_two);
    tcase_add_test(tc, comparisons_and_conditional);
    tcase_add_test(tc, deep_nesting);
    tcase_add_test(tc, emitted_c);
    suite_add_tcase(s, tc);
    return ft_run(s);
}
