/* The names an expression may use: libmatheval's functions and built-in
 * constants, names in general, and a case's named constants once read
 * (expr.c reads them), with the error every expression file reports
 * through. The lowest of the expression files: expr_check.c and expr.c
 * use it. */
#include "expr-internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libmatheval 1.1.11's scanner.l and symbol_table.c. */
const char *const fr__expr_functions[] = {
    "exp", "log", "sqrt", "sin", "cos", "tan", "cot", "sec", "csc", "asin",
    "acos", "atan", "acot", "asec", "acsc", "sinh", "cosh", "tanh", "coth",
    "sech", "csch", "asinh", "acosh", "atanh", "acoth", "asech", "acsch",
    "abs", "step", "delta", "nandelta", "erf", NULL};
const char *const fr__expr_constants[] = {
    "e", "log2e", "log10e", "ln2", "ln10", "pi", "pi_2", "pi_4", "1_pi",
    "2_pi", "2_sqrtpi", "sqrt2", "sqrt1_2", NULL};

static int in_list(const char *const *list, const char *name, size_t len)
{
    for (size_t i = 0; list[i]; i++)
        if (strlen(list[i]) == len && !memcmp(list[i], name, len))
            return 1;
    return 0;
}

int fr__expr_is_function(const char *name, size_t len)
{
    return in_list(fr__expr_functions, name, len);
}

int fr__expr_is_constant(const char *name, size_t len)
{
    return in_list(fr__expr_constants, name, len);
}

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
