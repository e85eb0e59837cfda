/* SPDX-License-Identifier: BSD-3-Clause */
/* libfrx-fr: what the expression files share (not for plugins).
 *
 * An expression is a tree of nodes (struct fr__etree), built by the
 * parser (expr_parse.c) from text, folded as it is built (expr_tree.c),
 * evaluated on the host and differentiated there (expr_tree.c), and
 * printed back as text or as C of the kernel language (expr_print.c).
 * expr.c wraps it as the fr_expr of expr.h. */
#ifndef FRX_FR_EXPR_INTERNAL_H
#define FRX_FR_EXPR_INTERNAL_H

#include <frx/fr/expr.h>

#include <stdarg.h>

/* ------------------------------------------------------------ names */

/* A function of the expressions (expr_names.c's table). */
struct fr__efunc {
    const char *name;
    int nargs;                /* 1 or 2 */
    double (*f1)(double);     /* the host's value (nargs 1) */
    double (*f2)(double, double);
    /* The kernel's: "exp" for exp(a); or a form in which $1 and $2
     * stand for the arguments ("(1/tan($1))"), each used once. NULL:
     * it has none (refused in kernels, with why). */
    const char *c;
    const char *why_not_c;
};

extern const struct fr__efunc fr__expr_funcs[];
extern const size_t fr__expr_nfuncs;
/* The index of function name[0..len), or -1. */
int fr__expr_find_func(const char *name, size_t len);
/* "exp, log, ..." into buf. */
void fr__expr_func_list(char *buf, size_t n);

/* The built-in constants (e, pi, ...) and their values. */
extern const char *const fr__expr_constants[];
int fr__expr_find_constant(const char *name, size_t len); /* or -1 */
double fr__expr_constant_value(int i);

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

/* frx_error(code, "<where>: <key> = '<text>': <what>"), where omitted
 * when NULL or empty. */
int fr__expr_fail(int code, const char *where, const char *key,
                  const char *text, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* ------------------------------------------------------------- trees */

enum fr__eop {
    FR__E_NUM,  /* num */
    FR__E_VAR,  /* var: 0 x, 1 y, 2 z, 3 t, 4 + i field i */
    FR__E_NEG,  /* -a */
    FR__E_NOT,  /* !a: 1 where a is 0, else 0 */
    FR__E_ADD,  /* a + b, and so on */
    FR__E_SUB,
    FR__E_MUL,
    FR__E_DIV,
    FR__E_POW,  /* a^b, pow(a, b) */
    FR__E_LT,   /* comparisons and logic: 1 or 0 */
    FR__E_LE,
    FR__E_GT,
    FR__E_GE,
    FR__E_EQ,
    FR__E_NE,
    FR__E_AND,
    FR__E_OR,
    FR__E_COND, /* a ? b : c (a not 0) */
    FR__E_CALL  /* fn(a) or fn(a, b) */
};

struct fr__enode {
    int op;     /* enum fr__eop */
    int var;    /* FR__E_VAR */
    int fn;     /* FR__E_CALL: index into fr__expr_funcs */
    double num; /* FR__E_NUM */
    int a, b, c; /* operands by index, -1 where none */
};

/* Nodes in one array; operands come before the nodes that use them. */
struct fr__etree {
    struct fr__enode *n;
    size_t len, cap;
    int root;
};

void fr__etree_free(struct fr__etree *t);
/* A new node; -1 when out of memory. Numbers are folded: an operator
 * or a function of numbers is a number, and 0 + a, a * 1, a^1 and the
 * like are a (what a derivative makes of them). */
int fr__etree_num(struct fr__etree *t, double v);
int fr__etree_var(struct fr__etree *t, int var);
int fr__etree_op(struct fr__etree *t, int op, int a, int b, int c);
int fr__etree_call(struct fr__etree *t, int fn, int a, int b);

/* The value of node i at x, y, z, t (v[4]). */
double fr__etree_eval(const struct fr__etree *t, int i, const double *v);
/* The variables node i uses (a mask of 1 << var). */
unsigned fr__etree_uses(const struct fr__etree *t, int i);
/* In out (empty): d(in)/d(var); FRX_ENOMEM when out of memory. */
int fr__etree_derivative(const struct fr__etree *in, int var,
                         struct fr__etree *out);

/* expr_parse.c: text checked against the grammar (docs/expressions.md)
 * and its names against vars, the fields (var 4 + i: fields[i]) and
 * consts, into out (empty); constants become numbers. Errors name
 * where, key, the text and the character. */
#define FR__EXPR_MAX_FIELDS 28 /* 4 + 28 bits of fr_expr_uses */
int fr__expr_parse(const char *text, const char *where, const char *key,
                   unsigned vars, size_t nfields, const char *const *fields,
                   const fr_expr_consts *consts, struct fr__etree *out);

/* expr_print.c: the text of a tree in the expressions' own syntax (a
 * derivative's), or in C of the kernel language (names[k] for x, y, z,
 * t, names[4 + i] for field i; numbers as fpdtype_t). *out is malloc'd. fr__etree_c refuses what
 * a kernel cannot hold exactly: FRX_ECONFIG with the reason in why
 * (a function without a kernel form, a number the precision cannot
 * hold). */
int fr__etree_text(const struct fr__etree *t, char **out);
int fr__etree_c(const struct fr__etree *t, const char *const names[4],
                int precision, char **out, char *why, size_t nwhy);

#endif
