/* SPDX-License-Identifier: BSD-3-Clause */
/* The names an expression may use: its functions (with their value on
 * the host and their form in a kernel) and built-in constants, names in
 * general, and a case's named constants once read (expr.c reads them),
 * with the error every expression file reports through. The lowest of
 * the expression files. */
#include "expr-internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ functions */

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
/* libmatheval's: 0 below 0, else 1 (NaN: 1) */
static double step_(double x) { return !(x < 0); }
static double delta_(double x) { return x == 0 ? INFINITY : 0; }
static double nandelta_(double x) { return x == 0 ? NAN : 0; }

#define F1(name, f, c) {name, 1, f, NULL, c, NULL}
#define F2(name, f, c) {name, 2, NULL, f, c, NULL}

/* The first 32 are libmatheval's (whose syntax frx took over); then C's
 * that PyFR's users write. Each kernel form uses each argument once and
 * is the definition the host evaluates. */
const struct fr__efunc fr__expr_funcs[] = {
    F1("exp", exp, "exp"),
    F1("log", log, "log"),
    F1("sqrt", sqrt, "sqrt"),
    F1("sin", sin, "sin"),
    F1("cos", cos, "cos"),
    F1("tan", tan, "tan"),
    F1("cot", cot_, "(1/tan($1))"),
    F1("sec", sec_, "(1/cos($1))"),
    F1("csc", csc_, "(1/sin($1))"),
    F1("asin", asin, "asin"),
    F1("acos", acos, "acos"),
    F1("atan", atan, "atan"),
    F1("acot", acot_, "atan(1/($1))"),
    F1("asec", asec_, "acos(1/($1))"),
    F1("acsc", acsc_, "asin(1/($1))"),
    F1("sinh", sinh, "sinh"),
    F1("cosh", cosh, "cosh"),
    F1("tanh", tanh, "tanh"),
    F1("coth", coth_, "(1/tanh($1))"),
    F1("sech", sech_, "(1/cosh($1))"),
    F1("csch", csch_, "(1/sinh($1))"),
    F1("asinh", asinh, "asinh"),
    F1("acosh", acosh, "acosh"),
    F1("atanh", atanh, "atanh"),
    F1("acoth", acoth_, "atanh(1/($1))"),
    F1("asech", asech_, "acosh(1/($1))"),
    F1("acsch", acsch_, "asinh(1/($1))"),
    F1("abs", fabs, "fabs"),
    F1("step", step_, "((fpdtype_t)!(($1) < 0))"),
    {"delta", 1, delta_, NULL, NULL,
     "delta(a) is inf where a is 0: no field can hold it"},
    {"nandelta", 1, nandelta_, NULL, NULL,
     "nandelta(a) is NaN where a is 0: no field can hold it"},
    F1("erf", erf, "erf"),
    F1("fabs", fabs, "fabs"),
    F1("log10", log10, "log10"),
    F2("pow", pow, "pow"),
    F2("atan2", atan2, "atan2"),
    F2("min", fmin, "fmin"),
    F2("max", fmax, "fmax"),
    F2("hypot", hypot, "hypot"),
};
const size_t fr__expr_nfuncs = sizeof fr__expr_funcs / sizeof *fr__expr_funcs;

int fr__expr_find_func(const char *name, size_t len)
{
    for (size_t i = 0; i < fr__expr_nfuncs; i++)
        if (strlen(fr__expr_funcs[i].name) == len &&
            !memcmp(fr__expr_funcs[i].name, name, len))
            return (int)i;
    return -1;
}

void fr__expr_func_list(char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < fr__expr_nfuncs && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s%s", i ? ", " : "",
                               fr__expr_funcs[i].name);
}

int fr__expr_is_function(const char *name, size_t len)
{
    return fr__expr_find_func(name, len) >= 0;
}

/* ------------------------------------------------------------ constants */

const char *const fr__expr_constants[] = {
    "e", "log2e", "log10e", "ln2", "ln10", "pi", "pi_2", "pi_4", "1_pi",
    "2_pi", "2_sqrtpi", "sqrt2", "sqrt1_2", NULL};
static const double constant_values[] = {
    M_E,    M_LOG2E, M_LOG10E, M_LN2,      M_LN10,  M_PI,     M_PI_2,
    M_PI_4, M_1_PI,  M_2_PI,   M_2_SQRTPI, M_SQRT2, M_SQRT1_2};

int fr__expr_find_constant(const char *name, size_t len)
{
    for (int i = 0; fr__expr_constants[i]; i++)
        if (strlen(fr__expr_constants[i]) == len &&
            !memcmp(fr__expr_constants[i], name, len))
            return i;
    return -1;
}

double fr__expr_constant_value(int i) { return constant_values[i]; }

int fr__expr_is_constant(const char *name, size_t len)
{
    return fr__expr_find_constant(name, len) >= 0;
}

/* ---------------------------------------------------------------- names */

int fr__expr_name_start(int c) { return isalpha(c) || c == '_'; }
int fr__expr_name_char(int c) { return isalnum(c) || c == '_'; }

int fr__expr_is_name(const char *s)
{
    if (!s || !fr__expr_name_start((unsigned char)*s))
        return 0;
    while (*++s)
        if (!fr__expr_name_char((unsigned char)*s))
            return 0;
    return 1;
}

int fr__expr_fail(int code, const char *where, const char *key,
                  const char *text, const char *fmt, ...)
{
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    int w = where && *where;
    return frx_error(code, "%s%s%s = '%s': %s", w ? where : "", w ? ": " : "",
                     key ? key : "expression", text, what);
}

/* ------------------------------------------------------------ constants */

void fr_expr_consts_destroy(fr_expr_consts *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        free(c->names[i]);
    free(c->names);
    free(c->values);
    free(c);
}

size_t fr_expr_consts_count(const fr_expr_consts *c) { return c ? c->n : 0; }

const char *fr_expr_consts_name(const fr_expr_consts *c, size_t i)
{
    return c && i < c->n ? c->names[i] : NULL;
}

double fr_expr_consts_value(const fr_expr_consts *c, size_t i)
{
    return c && i < c->n ? c->values[i] : NAN;
}

int fr__expr_consts_find(const fr_expr_consts *c, const char *name,
                         size_t len, double *value)
{
    for (size_t i = 0; c && i < c->n; i++)
        if (strlen(c->names[i]) == len && !memcmp(c->names[i], name, len)) {
            *value = c->values[i];
            return FRX_OK;
        }
    return FRX_ENOTFOUND;
}

int fr_expr_consts_get(const fr_expr_consts *c, const char *name,
                       double *value)
{
    return fr__expr_consts_find(c, name, strlen(name), value);
}
