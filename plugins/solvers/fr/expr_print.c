/* SPDX-License-Identifier: BSD-3-Clause */
/* An expression tree as text: in the expressions' own syntax (what a
 * derivative reads like) or as C of the kernel language, which every
 * backend compiles (C with OpenMP, OpenCL C, CUDA and HIP): each node
 * in parentheses, numbers as fpdtype_t, the functions by their C names
 * or the definitions the host evaluates. */
#include "expr-internal.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct out {
    char *s;
    size_t len, cap;
    int failed;       /* out of memory */
    const char *const *names; /* C: x, y, z, t; NULL: text */
    int precision;
    char *why;        /* C: what a kernel cannot hold */
    size_t nwhy;
};

static void put(struct out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (o->failed || n < 0)
        return;
    if (o->len + (size_t)n + 1 > o->cap) {
        size_t cap = 2 * (o->len + (size_t)n + 1);
        char *s = realloc(o->s, cap);
        if (!s) {
            o->failed = 1;
            return;
        }
        o->s = s;
        o->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(o->s + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    o->len += (size_t)n;
}

static int refuse(struct out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int refuse(struct out *o, const char *fmt, ...)
{
    if (o->why && !o->why[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(o->why, o->nwhy, fmt, ap);
        va_end(ap);
    }
    return FRX_ECONFIG;
}

/* Each operator as C and as text: $1, $2, $3 stand for the operands. */
static const struct {
    const char *c, *text;
} forms[] = {
    [FR__E_NEG] = {"(-$1)", "(-$1)"},
    [FR__E_NOT] = {"((fpdtype_t)($1 == 0))", "(!$1)"},
    [FR__E_ADD] = {"($1 + $2)", "($1 + $2)"},
    [FR__E_SUB] = {"($1 - $2)", "($1 - $2)"},
    [FR__E_MUL] = {"($1 * $2)", "($1 * $2)"},
    [FR__E_DIV] = {"($1 / $2)", "($1 / $2)"},
    [FR__E_POW] = {"pow($1, $2)", "($1 ^ $2)"},
    [FR__E_LT] = {"((fpdtype_t)($1 < $2))", "($1 < $2)"},
    [FR__E_LE] = {"((fpdtype_t)($1 <= $2))", "($1 <= $2)"},
    [FR__E_GT] = {"((fpdtype_t)($1 > $2))", "($1 > $2)"},
    [FR__E_GE] = {"((fpdtype_t)($1 >= $2))", "($1 >= $2)"},
    [FR__E_EQ] = {"((fpdtype_t)($1 == $2))", "($1 == $2)"},
    [FR__E_NE] = {"((fpdtype_t)($1 != $2))", "($1 != $2)"},
    [FR__E_AND] = {"((fpdtype_t)($1 != 0 && $2 != 0))", "($1 && $2)"},
    [FR__E_OR] = {"((fpdtype_t)($1 != 0 || $2 != 0))", "($1 || $2)"},
    [FR__E_COND] = {"($1 != 0 ? $2 : $3)", "($1 ? $2 : $3)"},
};

/* A number a kernel of this precision holds: finite, and in single
 * precision neither above FLT_MAX nor (but 0) below FLT_MIN. */
static int number_c(struct out *o, double v)
{
    if (!isfinite(v))
        return refuse(o, "its value is %s where it is a number (a division "
                      "by 0?)", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
    if (o->precision == FRX_SINGLE && v != 0 &&
        (fabs(v) > FLT_MAX || fabs(v) < FLT_MIN))
        return refuse(o, "the number %.17g is out of single precision's "
                      "range (%g to %g)", v, (double)FLT_MIN,
                      (double)FLT_MAX);
    put(o, "((fpdtype_t)%.17g)", v);
    return 0;
}

static int node_out(struct out *o, const struct fr__etree *t, int i);

/* form with $1, $2, $3 as node n's operands */
static int form_out(struct out *o, const struct fr__etree *t,
                    const struct fr__enode *n, const char *form)
{
    int rc = 0;
    for (const char *c = form; *c && !rc; c++)
        if (c[0] == '$' && c[1] >= '1' && c[1] <= '3') {
            c++;
            rc = node_out(o, t, *c == '1' ? n->a : *c == '2' ? n->b : n->c);
        } else {
            put(o, "%c", *c);
        }
    return rc;
}

/* A function: name(a) or name(a, b), or in C its kernel form, "exp"
 * for exp(a) or a form with $1, $2. */
static int call_out(struct out *o, const struct fr__etree *t,
                    const struct fr__enode *n)
{
    const struct fr__efunc *f = &fr__expr_funcs[n->fn];
    const char *name = o->names ? f->c : f->name;
    if (!name)
        return refuse(o, "%s", f->why_not_c);
    if (strchr(name, '$'))
        return form_out(o, t, n, name);
    put(o, "%s(", name);
    int rc = form_out(o, t, n, f->nargs == 2 ? "$1, $2" : "$1");
    put(o, ")");
    return rc;
}

static int node_out(struct out *o, const struct fr__etree *t, int i)
{
    const struct fr__enode *n = &t->n[i];
    switch (n->op) {
    case FR__E_NUM:
        if (o->names)
            return number_c(o, n->num);
        put(o, n->num < 0 ? "(%.17g)" : "%.17g", n->num);
        return 0;
    case FR__E_VAR:
        if (o->names && !o->names[n->var])
            return refuse(o, "it uses %s, which this kernel does not have",
                          n->var < 4 ? (const char *[]){"x", "y", "z",
                                                        "t"}[n->var]
                                     : "a field");
        if (!o->names && n->var >= 4) /* a derivative's text: none */
            put(o, "_field%d", n->var - 4);
        else
            put(o, "%s", o->names ? o->names[n->var]
                                  : (const char *[]){"x", "y", "z",
                                                     "t"}[n->var]);
        return 0;
    case FR__E_CALL:
        return call_out(o, t, n);
    default:
        return form_out(o, t, n, o->names ? forms[n->op].c
                                          : forms[n->op].text);
    }
}

static int finish(struct out *o, int rc, char **out)
{
    *out = NULL;
    if (!rc && !o->failed && !o->s)
        put(o, "%s", ""); /* an empty tree cannot happen; be safe */
    if (rc || o->failed) {
        free(o->s);
        return rc ? rc : FRX_ENOMEM;
    }
    *out = o->s;
    return FRX_OK;
}

int fr__etree_text(const struct fr__etree *t, char **out)
{
    struct out o = {0};
    int rc = node_out(&o, t, t->root);
    return finish(&o, rc, out);
}

int fr__etree_c(const struct fr__etree *t, const char *const names[4],
                int precision, char **out, char *why, size_t nwhy)
{
    struct out o = {.names = names, .precision = precision, .why = why,
                    .nwhy = nwhy};
    if (why && nwhy)
        why[0] = '\0';
    int rc = node_out(&o, t, t->root);
    return finish(&o, rc, out);
}
