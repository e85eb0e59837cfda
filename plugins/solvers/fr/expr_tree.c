/* SPDX-License-Identifier: BSD-3-Clause */
/* Expression trees: building them (numbers folded as they are built),
 * their value on the host, the variables they use and their
 * derivatives. */
#include "expr-internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void fr__etree_free(struct fr__etree *t)
{
    free(t->n);
    memset(t, 0, sizeof *t);
    t->root = -1;
}

static int add(struct fr__etree *t, struct fr__enode node)
{
    if (t->len == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        struct fr__enode *n = cap <= (size_t)1 << 24
                                  ? realloc(t->n, cap * sizeof *n)
                                  : NULL;
        if (!n)
            return -1;
        t->n = n;
        t->cap = cap;
    }
    t->n[t->len] = node;
    return (int)t->len++;
}

static int is_num(const struct fr__etree *t, int i)
{
    return i >= 0 && t->n[i].op == FR__E_NUM;
}

static int is_value(const struct fr__etree *t, int i, double v)
{
    return is_num(t, i) && t->n[i].num == v;
}

int fr__etree_num(struct fr__etree *t, double v)
{
    return add(t, (struct fr__enode){.op = FR__E_NUM, .num = v, .a = -1,
                                     .b = -1, .c = -1});
}

int fr__etree_var(struct fr__etree *t, int var)
{
    return add(t, (struct fr__enode){.op = FR__E_VAR, .var = var, .a = -1,
                                     .b = -1, .c = -1});
}

/* What a derivative makes and no one means: 0 + a, a * 1, a^1... The
 * parser's trees keep what the text says (0*log(x) is NaN at x = -1). */
static int simpler(struct fr__etree *t, int op, int a, int b)
{
    switch (op) {
    case FR__E_NEG:
        return t->n[a].op == FR__E_NEG ? t->n[a].a : -1;
    case FR__E_ADD:
        return is_value(t, a, 0) ? b : is_value(t, b, 0) ? a : -1;
    case FR__E_SUB:
        if (is_value(t, b, 0))
            return a;
        return is_value(t, a, 0) ? fr__etree_op(t, FR__E_NEG, b, -1, -1)
                                 : -1;
    case FR__E_MUL:
        if (is_value(t, a, 0) || is_value(t, b, 0))
            return fr__etree_num(t, 0);
        if (is_value(t, a, -1))
            return fr__etree_op(t, FR__E_NEG, b, -1, -1);
        return is_value(t, a, 1) ? b : is_value(t, b, 1) ? a : -1;
    case FR__E_DIV:
        return is_value(t, a, 0) ? fr__etree_num(t, 0)
               : is_value(t, b, 1) ? a
                                   : -1;
    case FR__E_POW:
        return is_value(t, b, 1)   ? a
               : is_value(t, b, 0) ? fr__etree_num(t, 1)
                                   : -1;
    default:
        return -1;
    }
}

/* Node op of operands a, b, c (-1: none; -1 where one is needed: out
 * of memory before, so -1 again). */
static int make(struct fr__etree *t, int op, int a, int b, int c, int fn,
                int simplify)
{
    int two = op == FR__E_CALL ? fr__expr_funcs[fn].nargs == 2
                               : op >= FR__E_ADD;
    if (a < 0 || (two && b < 0) || (op == FR__E_COND && c < 0))
        return -1;
    if (op == FR__E_COND && is_num(t, a))
        return t->n[a].num != 0 ? b : c;
    int i = add(t, (struct fr__enode){.op = op, .fn = fn, .a = a, .b = b,
                                      .c = c});
    if (i < 0)
        return -1;
    int nums = is_num(t, a) && (b < 0 || is_num(t, b)) && op != FR__E_COND;
    if (nums) { /* the node's value, as the host computes it */
        double v = fr__etree_eval(t, i, (double[4]){0, 0, 0, 0});
        t->len--;
        return fr__etree_num(t, v);
    }
    if (simplify) {
        t->len--;
        int s = simpler(t, op, a, b);
        if (s >= 0)
            return s;
        return add(t, (struct fr__enode){.op = op, .fn = fn, .a = a, .b = b,
                                         .c = c});
    }
    return i;
}

int fr__etree_op(struct fr__etree *t, int op, int a, int b, int c)
{
    return make(t, op, a, b, c, 0, 0);
}

int fr__etree_call(struct fr__etree *t, int fn, int a, int b)
{
    return make(t, FR__E_CALL, a, b, -1, fn, 0);
}

/* --------------------------------------------------------------- values */

double fr__etree_eval(const struct fr__etree *t, int i, const double *v)
{
    const struct fr__enode *n = &t->n[i];
    double a, b;
    switch (n->op) {
    case FR__E_NUM:
        return n->num;
    case FR__E_VAR:
        return v[n->var];
    case FR__E_COND:
        return fr__etree_eval(t, n->a, v) != 0 ? fr__etree_eval(t, n->b, v)
                                               : fr__etree_eval(t, n->c, v);
    case FR__E_AND:
        return fr__etree_eval(t, n->a, v) != 0 &&
               fr__etree_eval(t, n->b, v) != 0;
    case FR__E_OR:
        return fr__etree_eval(t, n->a, v) != 0 ||
               fr__etree_eval(t, n->b, v) != 0;
    default:
        break;
    }
    a = fr__etree_eval(t, n->a, v);
    if (n->op == FR__E_NEG)
        return -a;
    if (n->op == FR__E_NOT)
        return a == 0;
    if (n->op == FR__E_CALL && fr__expr_funcs[n->fn].nargs == 1)
        return fr__expr_funcs[n->fn].f1(a);
    b = fr__etree_eval(t, n->b, v);
    switch (n->op) {
    case FR__E_ADD: return a + b;
    case FR__E_SUB: return a - b;
    case FR__E_MUL: return a * b;
    case FR__E_DIV: return a / b;
    case FR__E_POW: return pow(a, b);
    case FR__E_LT: return a < b;
    case FR__E_LE: return a <= b;
    case FR__E_GT: return a > b;
    case FR__E_GE: return a >= b;
    case FR__E_EQ: return a == b;
    case FR__E_NE: return a != b;
    default: return fr__expr_funcs[n->fn].f2(a, b); /* FR__E_CALL */
    }
}

unsigned fr__etree_uses(const struct fr__etree *t, int i)
{
    const struct fr__enode *n = &t->n[i];
    if (n->op == FR__E_VAR)
        return 1u << n->var;
    unsigned u = 0;
    if (n->a >= 0)
        u |= fr__etree_uses(t, n->a);
    if (n->b >= 0)
        u |= fr__etree_uses(t, n->b);
    if (n->c >= 0)
        u |= fr__etree_uses(t, n->c);
    return u;
}

/* ---------------------------------------------------------- derivatives */

struct deriv {
    const struct fr__etree *in;
    struct fr__etree *out;
    int var;
    int *copy, *diff; /* per node of in: its copy and derivative in out */
};

static int copy_of(struct deriv *d, int i)
{
    if (i < 0 || d->copy[i] >= 0)
        return i < 0 ? -1 : d->copy[i];
    const struct fr__enode *n = &d->in->n[i];
    int a = copy_of(d, n->a), b = copy_of(d, n->b), c = copy_of(d, n->c), r;
    if (n->op == FR__E_NUM)
        r = fr__etree_num(d->out, n->num);
    else if (n->op == FR__E_VAR)
        r = fr__etree_var(d->out, n->var);
    else
        r = make(d->out, n->op, a, b, c, n->fn, 0);
    return d->copy[i] = r;
}

/* Shorthands that simplify as they build (a derivative's terms). */
#define OP(op, a, b) make(d->out, FR__E_##op, a, b, -1, 0, 1)
#define NEG(a) make(d->out, FR__E_NEG, a, -1, -1, 0, 1)
#define NUM(v) fr__etree_num(d->out, v)
#define CALL(name, a) make(d->out, FR__E_CALL, a, -1, -1, func(name), 1)
#define SQ(a) OP(MUL, a, a)

static int func(const char *name)
{
    return fr__expr_find_func(name, strlen(name));
}

static int derivative_of(struct deriv *d, int i);

/* d(fn(a))/da, for the functions of one argument. */
static int outer(struct deriv *d, const char *f, int a, int self)
{
    if (!strcmp(f, "exp"))
        return self;
    if (!strcmp(f, "log"))
        return OP(DIV, NUM(1), a);
    if (!strcmp(f, "log10"))
        return OP(DIV, NUM(1), OP(MUL, a, NUM(M_LN10)));
    if (!strcmp(f, "sqrt"))
        return OP(DIV, NUM(1), OP(MUL, NUM(2), self));
    if (!strcmp(f, "sin"))
        return CALL("cos", a);
    if (!strcmp(f, "cos"))
        return NEG(CALL("sin", a));
    if (!strcmp(f, "tan"))
        return OP(DIV, NUM(1), SQ(CALL("cos", a)));
    if (!strcmp(f, "cot"))
        return NEG(OP(DIV, NUM(1), SQ(CALL("sin", a))));
    if (!strcmp(f, "sec"))
        return OP(MUL, self, CALL("tan", a));
    if (!strcmp(f, "csc"))
        return NEG(OP(MUL, self, CALL("cot", a)));
    if (!strcmp(f, "asin") || !strcmp(f, "acos")) {
        int r = OP(DIV, NUM(1), CALL("sqrt", OP(SUB, NUM(1), SQ(a))));
        return f[1] == 's' ? r : NEG(r);
    }
    if (!strcmp(f, "atan") || !strcmp(f, "acot")) {
        int r = OP(DIV, NUM(1), OP(ADD, NUM(1), SQ(a)));
        return f[1] == 't' ? r : NEG(r);
    }
    if (!strcmp(f, "asec") || !strcmp(f, "acsc")) {
        int r = OP(DIV, NUM(1), OP(MUL, CALL("abs", a),
                                   CALL("sqrt", OP(SUB, SQ(a), NUM(1)))));
        return f[2] == 'e' ? r : NEG(r);
    }
    if (!strcmp(f, "sinh"))
        return CALL("cosh", a);
    if (!strcmp(f, "cosh"))
        return CALL("sinh", a);
    if (!strcmp(f, "tanh"))
        return OP(DIV, NUM(1), SQ(CALL("cosh", a)));
    if (!strcmp(f, "coth"))
        return NEG(OP(DIV, NUM(1), SQ(CALL("sinh", a))));
    if (!strcmp(f, "sech"))
        return NEG(OP(MUL, self, CALL("tanh", a)));
    if (!strcmp(f, "csch"))
        return NEG(OP(MUL, self, CALL("coth", a)));
    if (!strcmp(f, "asinh"))
        return OP(DIV, NUM(1), CALL("sqrt", OP(ADD, SQ(a), NUM(1))));
    if (!strcmp(f, "acosh"))
        return OP(DIV, NUM(1), CALL("sqrt", OP(SUB, SQ(a), NUM(1))));
    if (!strcmp(f, "atanh") || !strcmp(f, "acoth"))
        return OP(DIV, NUM(1), OP(SUB, NUM(1), SQ(a)));
    if (!strcmp(f, "asech"))
        return NEG(OP(DIV, NUM(1),
                      OP(MUL, a, CALL("sqrt", OP(SUB, NUM(1), SQ(a))))));
    if (!strcmp(f, "acsch"))
        return NEG(OP(DIV, NUM(1), OP(MUL, CALL("abs", a),
                                      CALL("sqrt", OP(ADD, NUM(1), SQ(a))))));
    if (!strcmp(f, "abs") || !strcmp(f, "fabs"))
        return make(d->out, FR__E_COND, OP(LT, a, NUM(0)), NUM(-1), NUM(1), 0,
                    1);
    if (!strcmp(f, "erf"))
        return OP(MUL, NUM(M_2_SQRTPI), CALL("exp", NEG(SQ(a))));
    return NUM(0); /* step, delta, nandelta: 0 where they are smooth */
}

/* d(a^b) = a^b (b' log a + b a'/a); a^b' b a^(b-1) a' where b is a
 * number. */
static int power_rule(struct deriv *d, int a, int b, int da, int db,
                      int self)
{
    if (d->out->n[b].op == FR__E_NUM)
        return OP(MUL, OP(MUL, b, OP(POW, a, NUM(d->out->n[b].num - 1))),
                  da);
    return OP(MUL, self, OP(ADD, OP(MUL, db, CALL("log", a)),
                            OP(DIV, OP(MUL, b, da), a)));
}

static int derivative_calc(struct deriv *d, int i)
{
    const struct fr__enode *n = &d->in->n[i];
    int a = copy_of(d, n->a), b = copy_of(d, n->b), self = copy_of(d, i);
    int cond = n->op == FR__E_COND;
    int da = n->a >= 0 && !cond ? derivative_of(d, n->a) : -1;
    int db = n->b >= 0 && !cond ? derivative_of(d, n->b) : -1;
    switch (n->op) {
    case FR__E_NUM:
        return NUM(0);
    case FR__E_VAR:
        return NUM(n->var == d->var);
    case FR__E_NEG:
        return NEG(da);
    case FR__E_ADD:
        return OP(ADD, da, db);
    case FR__E_SUB:
        return OP(SUB, da, db);
    case FR__E_MUL:
        return OP(ADD, OP(MUL, da, b), OP(MUL, a, db));
    case FR__E_DIV:
        return OP(DIV, OP(SUB, OP(MUL, da, b), OP(MUL, a, db)), SQ(b));
    case FR__E_POW:
        return power_rule(d, a, b, da, db, self);
    case FR__E_COND:
        return make(d->out, FR__E_COND, a, derivative_of(d, n->b),
                    derivative_of(d, n->c), 0, 1);
    case FR__E_CALL:
        break;
    default: /* comparisons and logic: 0 where they do not jump */
        return NUM(0);
    }
    const char *f = fr__expr_funcs[n->fn].name;
    if (fr__expr_funcs[n->fn].nargs == 1)
        return OP(MUL, outer(d, f, a, self), da);
    if (!strcmp(f, "pow"))
        return power_rule(d, a, b, da, db, self);
    if (!strcmp(f, "atan2")) /* atan2(a, b): (b a' - a b')/(a^2 + b^2) */
        return OP(DIV, OP(SUB, OP(MUL, b, da), OP(MUL, a, db)),
                  OP(ADD, SQ(a), SQ(b)));
    if (!strcmp(f, "hypot"))
        return OP(DIV, OP(ADD, OP(MUL, a, da), OP(MUL, b, db)), self);
    /* min, max: the derivative of the one taken */
    return make(d->out, FR__E_COND,
                OP(LE, f[1] == 'i' ? a : b, f[1] == 'i' ? b : a), da, db, 0, 1);
}

static int derivative_of(struct deriv *d, int i)
{
    if (d->diff[i] < 0)
        d->diff[i] = derivative_calc(d, i);
    return d->diff[i];
}

int fr__etree_derivative(const struct fr__etree *in, int var,
                         struct fr__etree *out)
{
    memset(out, 0, sizeof *out);
    out->root = -1;
    struct deriv d = {in, out, var, malloc(in->len * sizeof(int)),
                      malloc(in->len * sizeof(int))};
    int rc = FRX_ENOMEM;
    if (d.copy && d.diff) {
        for (size_t k = 0; k < in->len; k++)
            d.copy[k] = d.diff[k] = -1;
        out->root = derivative_of(&d, in->root);
        rc = out->root >= 0 ? FRX_OK : FRX_ENOMEM;
    }
    free(d.copy);
    free(d.diff);
    if (rc)
        fr__etree_free(out);
    return rc;
}
