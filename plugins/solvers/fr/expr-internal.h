/* frx-fr-common: what expr_names.c, expr_check.c and expr.c share (not
 * for plugins). */
#ifndef FRX_FR_EXPR_INTERNAL_H
#define FRX_FR_EXPR_INTERNAL_H

#include "expr.h"

#include <stdarg.h>

/* expr_names.c: libmatheval's functions and built-in constants
 * (docs/expressions.md). */
extern const char *const fr__expr_functions[];
extern const char *const fr__expr_constants[];
int fr__expr_is_function(const char *name, size_t len);
int fr__expr_is_constant(const char *name, size_t len);
int fr__expr_is_name(const char *s); /* [_a-zA-Z][_a-zA-Z0-9]* */
int fr__expr_name_start(int c);      /* [_a-zA-Z] */
int fr__expr_name_char(int c);       /* [_a-zA-Z0-9] */

/* A case's constants, in the order read (expr.c makes them). */
struct fr_expr_consts {
    size_t n;
    char **names;
    double *values;
};

/* The constant name[0..len), as fr_expr_consts_get (c may be NULL). */
int fr__expr_consts_find(const fr_expr_consts *c, const char *name,
                         size_t len, double *value);

/* expr_check.c: check text against the grammar libmatheval accepts
 * (less a^b^c) and its names against vars and consts; on success *out
 * (malloc'd) is the text for libmatheval: constants replaced by their
 * values, line breaks by spaces. Errors go through fr__expr_fail. */
int fr__expr_rewrite(const char *text, const char *where, const char *key,
                     unsigned vars, const fr_expr_consts *consts,
                     char **out);

/* clean (fr__expr_rewrite's text) with the functions whose derivative
 * libmatheval gets wrong (asinh, acoth) written as logs: the text to
 * differentiate. *out is malloc'd. */
int fr__expr_for_derivative(const char *clean, char **out);

/* expr_names.c: frx_error(code, "<where>: <key> = '<text>': <what>"),
 * where omitted when NULL or empty. */
int fr__expr_fail(int code, const char *where, const char *key,
                  const char *text, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
