/* SPDX-License-Identifier: BSD-3-Clause */
/* The expressions' parser: text into a tree (expr_tree.c), by recursive
 * descent over the grammar of docs/expressions.md, with an error that
 * says what and at which character for anything else. Constants become
 * numbers here. */
#include "expr-internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deeper nesting than this is refused (the parser recurses). */
#define MAX_DEPTH 200

/* ------------------------------------------------------------- scanner */

enum {
    T_END, T_NUM, T_NAME, T_FUNC, T_CONST, T_OP, T_CMP, T_AND, T_OR,
    T_NOT, T_QUEST, T_COLON, T_COMMA, T_LP, T_RP, T_BAD
};

typedef struct scan {
    const char *s;
    size_t pos;        /* next character */
    int tok;           /* the current token */
    size_t start, len; /* its text */
    int depth;
    const char *where, *key;
    unsigned vars;
    size_t nfields;            /* names of var 4, 5, ... (FR 1.2) */
    const char *const *fields;
    const fr_expr_consts *consts;
    struct fr__etree *t;
} scan;

static size_t number_len(const char *s)
{
    size_t i = 0, d = 0;
    while (isdigit((unsigned char)s[i]))
        i++, d++;
    if (s[i] == '.') {
        i++;
        while (isdigit((unsigned char)s[i]))
            i++, d++;
    }
    if (!d)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-')
            j++;
        if (isdigit((unsigned char)s[j])) {
            while (isdigit((unsigned char)s[j]))
                j++;
            i = j;
        }
    }
    return i;
}

/* The built-in constants that start with a digit win over a number (as
 * the longest match). */
static size_t digit_constant_len(const char *s)
{
    static const char *const dc[] = {"2_sqrtpi", "1_pi", "2_pi"};
    for (size_t i = 0; i < 3; i++)
        if (!strncmp(s, dc[i], strlen(dc[i])))
            return strlen(dc[i]);
    return 0;
}

/* An operator of one or two characters, or 0. */
static size_t operator_len(const char *s, int *tok)
{
    static const struct {
        const char *text;
        int tok;
    } ops[] = {{"<=", T_CMP}, {">=", T_CMP}, {"==", T_CMP}, {"!=", T_CMP},
               {"&&", T_AND}, {"||", T_OR},  {"<", T_CMP},  {">", T_CMP},
               {"!", T_NOT},  {"?", T_QUEST}, {":", T_COLON},
               {",", T_COMMA}, {"(", T_LP},  {")", T_RP},   {"+", T_OP},
               {"-", T_OP},   {"*", T_OP},   {"/", T_OP},   {"^", T_OP}};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        size_t n = strlen(ops[i].text);
        if (!strncmp(s, ops[i].text, n)) {
            *tok = ops[i].tok;
            return n;
        }
    }
    return 0;
}

static void next(scan *sc)
{
    const char *s = sc->s;
    while (s[sc->pos] == ' ' || s[sc->pos] == '\t' || s[sc->pos] == '\n' ||
           s[sc->pos] == '\r')
        sc->pos++;
    sc->start = sc->pos;
    int c = (unsigned char)s[sc->pos];
    size_t n = 1;
    if (!c) {
        sc->tok = T_END;
        n = 0;
    } else if ((n = digit_constant_len(s + sc->pos))) {
        sc->tok = T_CONST;
    } else if ((n = number_len(s + sc->pos))) {
        sc->tok = T_NUM;
    } else if (fr__expr_name_start(c)) {
        n = 1;
        while (fr__expr_name_char((unsigned char)s[sc->pos + n]))
            n++;
        sc->tok = fr__expr_is_function(s + sc->pos, n)   ? T_FUNC
                  : fr__expr_is_constant(s + sc->pos, n) ? T_CONST
                                                         : T_NAME;
    } else if (!(n = operator_len(s + sc->pos, &sc->tok))) {
        n = 1;
        sc->tok = T_BAD;
    }
    sc->len = n;
    sc->pos += n;
}

static int is(const scan *sc, int tok, const char *text)
{
    return sc->tok == tok && sc->len == strlen(text) &&
           !memcmp(sc->s + sc->start, text, sc->len);
}

static int is_op(const scan *sc, char op)
{
    return sc->tok == T_OP && sc->s[sc->start] == op;
}

#define FAIL(sc, ...) \
    fr__expr_fail(FRX_ECONFIG, (sc)->where, (sc)->key, (sc)->s, __VA_ARGS__)

/* A character no token starts with, or a ',' outside a call's
 * parentheses. */
static int bad_char(scan *sc)
{
    unsigned char c = (unsigned char)sc->s[sc->start];
    if (isprint(c))
        return FAIL(sc, "unexpected character '%c' (character %zu)", c,
                    sc->start + 1);
    return FAIL(sc, "unexpected byte 0x%02x (character %zu)", c,
                sc->start + 1);
}

/* "before 'tok' (character N)" or "at the end" */
static const char *place(const scan *sc, char *buf, size_t n)
{
    if (sc->tok == T_END)
        snprintf(buf, n, "at the end");
    else
        snprintf(buf, n, "before '%.*s' (character %zu)", (int)sc->len,
                 sc->s + sc->start, sc->start + 1);
    return buf;
}

static int out_of_memory(scan *sc)
{
    return FAIL(sc, "out of memory");
}

/* ------------------------------------------------------------- names */

static const char *const coord[4] = {"x", "y", "z", "t"};

static int coord_bit(const char *s, size_t len)
{
    for (int k = 0; k < 4; k++)
        if (len == 1 && s[0] == coord[k][0])
            return 1 << k;
    return 0;
}

static void known_names(const scan *sc, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int k = 0; k < 4; k++)
        if (sc->vars & (1u << k))
            at += (size_t)snprintf(buf + at, n - at, "%s%s", at ? ", " : "",
                                   coord[k]);
    for (size_t i = 0; i < sc->nfields && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s%s", at ? ", " : "",
                               sc->fields[i]);
    size_t nc = sc->consts ? fr_expr_consts_count(sc->consts) : 0;
    for (size_t i = 0; i < nc && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s%s", at ? ", " : "",
                               fr_expr_consts_name(sc->consts, i));
    if (!buf[0])
        snprintf(buf, n, "none");
}

/* Field name[0..len)'s index, or -1. */
static int field_of(const scan *sc, const char *s, size_t len)
{
    for (size_t i = 0; i < sc->nfields; i++)
        if (strlen(sc->fields[i]) == len && !strncmp(sc->fields[i], s, len))
            return (int)i;
    return -1;
}

/* A coordinate, a field or a named constant, into *node. */
static int name(scan *sc, int *node)
{
    const char *s = sc->s + sc->start;
    int bit = coord_bit(s, sc->len), f = field_of(sc, s, sc->len);
    double v;
    if (f >= 0) {
        *node = fr__etree_var(sc->t, 4 + f);
    } else if (bit && (sc->vars & (unsigned)bit)) {
        for (int k = 0; k < 4; k++)
            if (bit == 1 << k)
                *node = fr__etree_var(sc->t, k);
    } else if (!bit && fr__expr_consts_find(sc->consts, s, sc->len, &v) == 0) {
        *node = fr__etree_num(sc->t, v);
    } else {
        char known[1024];
        known_names(sc, known, sizeof known);
        return FAIL(sc, "unknown variable '%.*s' (character %zu); known "
                    "names: %s", (int)sc->len, s, sc->start + 1, known);
    }
    return *node < 0 ? out_of_memory(sc) : 0;
}

/* ------------------------------------------------------------- grammar */

static int conditional(scan *sc, int *node);

/* '(' conditional ')' */
static int parenthesised(scan *sc, int *node)
{
    char buf[128];
    size_t open = sc->start;
    next(sc);
    int rc = conditional(sc, node);
    if (rc)
        return rc;
    if (sc->tok == T_BAD || sc->tok == T_COMMA)
        return bad_char(sc);
    if (sc->tok != T_RP)
        return FAIL(sc, "missing ')' for the '(' at character %zu "
                    "(expected an operator or ')' %s)", open + 1,
                    place(sc, buf, sizeof buf));
    next(sc);
    return 0;
}

/* FUNC '(' conditional [',' conditional] ')' */
static int call(scan *sc, int *node)
{
    char buf[128];
    size_t start = sc->start;
    int len = (int)sc->len, fn = fr__expr_find_func(sc->s + start, sc->len);
    int nargs = fr__expr_funcs[fn].nargs, arg[2] = {-1, -1}, got = 0, rc;
    const char *form = nargs == 2 ? "(a, b)" : "(...)";
    next(sc);
    if (sc->tok != T_LP)
        return FAIL(sc, "function '%.*s' (character %zu) takes its "
                    "argument%s in parentheses: %.*s%s", len, sc->s + start,
                    start + 1, nargs == 2 ? "s" : "", len, sc->s + start,
                    form);
    size_t open = sc->start;
    do {
        next(sc);
        if (got == nargs)
            return FAIL(sc, "function '%.*s' (character %zu) takes %d "
                        "argument%s, not more: %.*s%s", len, sc->s + start,
                        start + 1, nargs, nargs == 2 ? "s" : "", len,
                        sc->s + start, form);
        if ((rc = conditional(sc, &arg[got++])))
            return rc;
    } while (sc->tok == T_COMMA);
    if (sc->tok == T_BAD)
        return bad_char(sc);
    if (sc->tok != T_RP)
        return FAIL(sc, "missing ')' for the '(' at character %zu "
                    "(expected an operator, ',' or ')' %s)", open + 1,
                    place(sc, buf, sizeof buf));
    if (got < nargs)
        return FAIL(sc, "function '%.*s' (character %zu) takes %d "
                    "arguments, not %d: %.*s%s", len, sc->s + start,
                    start + 1, nargs, got, len, sc->s + start, form);
    next(sc);
    *node = fr__etree_call(sc->t, fn, arg[0], arg[1]);
    return *node < 0 ? out_of_memory(sc) : 0;
}

/* NUM | NAME | CONST | call | '(' conditional ')' */
static int primary(scan *sc, int *node)
{
    char buf[128];
    const char *s = sc->s + sc->start;
    switch (sc->tok) {
    case T_NUM:
        *node = fr__etree_num(sc->t, strtod(s, NULL));
        break;
    case T_CONST:
        *node = fr__etree_num(sc->t, fr__expr_constant_value(
                                         fr__expr_find_constant(s, sc->len)));
        break;
    case T_NAME: {
        if (sc->s[sc->pos + strspn(sc->s + sc->pos, " \t\r\n")] == '(') {
            char list[512];
            fr__expr_func_list(list, sizeof list);
            return FAIL(sc, "unknown function '%.*s' (character %zu); "
                        "functions: %s", (int)sc->len, s, sc->start + 1,
                        list);
        }
        int rc = name(sc, node);
        if (rc)
            return rc;
        break;
    }
    case T_FUNC:
        return call(sc, node);
    case T_LP:
        return parenthesised(sc, node);
    case T_BAD:
        return bad_char(sc);
    default:
        return FAIL(sc, "expected a number, a name or '(' %s",
                    place(sc, buf, sizeof buf));
    }
    if (*node < 0)
        return out_of_memory(sc);
    next(sc);
    return 0;
}

/* A prefix operator op over *node (when rc is 0). */
static int prefixed(scan *sc, int op, int rc, int *node)
{
    if (!rc && (*node = fr__etree_op(sc->t, op, *node, -1, -1)) < 0)
        return out_of_memory(sc);
    return rc;
}

static int deeper(scan *sc)
{
    if (++sc->depth > MAX_DEPTH)
        return FAIL(sc, "nested more than %d deep (character %zu)",
                    MAX_DEPTH, sc->start + 1);
    return 0;
}

/* ('-' | '!')* primary: an exponent */
static int signed_primary(scan *sc, int *node)
{
    if (!is_op(sc, '-') && sc->tok != T_NOT)
        return primary(sc, node);
    int op = sc->tok == T_NOT ? FR__E_NOT : FR__E_NEG, rc = deeper(sc);
    if (rc)
        return rc;
    next(sc);
    rc = prefixed(sc, op, signed_primary(sc, node), node);
    sc->depth--;
    return rc;
}

/* primary ['^' signed_primary], and no second '^': a^b^c is ambiguous
 * (C has no ^ for a power; Python and Fortran group it to the right,
 * spreadsheets and libmatheval to the left) */
static int power(scan *sc, int *node)
{
    int rc = primary(sc, node), exponent;
    if (rc || !is_op(sc, '^'))
        return rc;
    next(sc);
    if ((rc = signed_primary(sc, &exponent)))
        return rc;
    if (is_op(sc, '^'))
        return FAIL(sc, "a^b^c is ambiguous: write (a^b)^c or a^(b^c) "
                    "(character %zu)", sc->start + 1);
    if ((*node = fr__etree_op(sc->t, FR__E_POW, *node, exponent, -1)) < 0)
        return out_of_memory(sc);
    return 0;
}

/* ('-' | '!')* power: -x^2 is -(x^2) */
static int unary(scan *sc, int *node)
{
    if (!is_op(sc, '-') && sc->tok != T_NOT)
        return power(sc, node);
    int op = sc->tok == T_NOT ? FR__E_NOT : FR__E_NEG, rc = deeper(sc);
    if (rc)
        return rc;
    next(sc);
    rc = prefixed(sc, op, unary(sc, node), node);
    sc->depth--;
    return rc;
}

/* next operand of a left-grouped binary operator op */
static int binary(scan *sc, int op, int (*operand)(scan *, int *),
                  int *node)
{
    int rhs, rc;
    next(sc);
    if ((rc = operand(sc, &rhs)))
        return rc;
    if ((*node = fr__etree_op(sc->t, op, *node, rhs, -1)) < 0)
        return out_of_memory(sc);
    return 0;
}

static int term(scan *sc, int *node)
{
    int rc = unary(sc, node);
    while (!rc && (is_op(sc, '*') || is_op(sc, '/')))
        rc = binary(sc, is_op(sc, '*') ? FR__E_MUL : FR__E_DIV, unary, node);
    return rc;
}

static int sum(scan *sc, int *node)
{
    int rc = term(sc, node);
    while (!rc && (is_op(sc, '+') || is_op(sc, '-')))
        rc = binary(sc, is_op(sc, '+') ? FR__E_ADD : FR__E_SUB, term, node);
    return rc;
}

/* The comparison operator of the current token, 0 if none; equality
 * (== !=) or order (< <= > >=) as asked. */
static int comparison(const scan *sc, int equality)
{
    static const struct {
        const char *text;
        int op;
    } cmp[] = {{"<", FR__E_LT}, {"<=", FR__E_LE}, {">", FR__E_GT},
               {">=", FR__E_GE}, {"==", FR__E_EQ}, {"!=", FR__E_NE}};
    for (int i = 0; i < 6; i++)
        if (is(sc, T_CMP, cmp[i].text) && (i >= 4) == equality)
            return cmp[i].op;
    return 0;
}

/* operand [op operand] with one comparison at most: a < b < c compares
 * a < b (0 or 1) with c in C, which no one means */
static int compared(scan *sc, int equality, int (*operand)(scan *, int *),
                    int *node)
{
    int rc = operand(sc, node), op = comparison(sc, equality);
    if (rc || !op)
        return rc;
    if ((rc = binary(sc, op, operand, node)))
        return rc;
    if (comparison(sc, equality))
        return FAIL(sc, "a chain of comparisons is not a range test: "
                    "write (a < b) && (b < c) (character %zu)",
                    sc->start + 1);
    return 0;
}

static int order(scan *sc, int *node) { return compared(sc, 0, sum, node); }

static int equality(scan *sc, int *node)
{
    return compared(sc, 1, order, node);
}

static int conjunction(scan *sc, int *node)
{
    int rc = equality(sc, node);
    while (!rc && sc->tok == T_AND)
        rc = binary(sc, FR__E_AND, equality, node);
    return rc;
}

static int disjunction(scan *sc, int *node)
{
    int rc = conjunction(sc, node);
    while (!rc && sc->tok == T_OR)
        rc = binary(sc, FR__E_OR, conjunction, node);
    return rc;
}

/* disjunction ['?' conditional ':' conditional] */
static int conditional(scan *sc, int *node)
{
    char buf[128];
    int rc = deeper(sc), yes, no;
    if (!rc)
        rc = disjunction(sc, node);
    if (!rc && sc->tok == T_QUEST) {
        size_t quest = sc->start;
        next(sc);
        rc = conditional(sc, &yes);
        if (!rc && sc->tok != T_COLON)
            rc = sc->tok == T_BAD ? bad_char(sc)
                                  : FAIL(sc, "expected ':' for the '?' at "
                                         "character %zu %s", quest + 1,
                                         place(sc, buf, sizeof buf));
        if (!rc) {
            next(sc);
            rc = conditional(sc, &no);
        }
        if (!rc && (*node = fr__etree_op(sc->t, FR__E_COND, *node, yes,
                                         no)) < 0)
            rc = out_of_memory(sc);
    }
    sc->depth--;
    return rc;
}

int fr__expr_parse(const char *text, const char *where, const char *key,
                   unsigned vars, size_t nfields, const char *const *fields,
                   const fr_expr_consts *consts, struct fr__etree *out)
{
    char buf[128];
    memset(out, 0, sizeof *out);
    out->root = -1;
    scan sc = {.s = text, .where = where, .key = key, .vars = vars,
               .nfields = nfields, .fields = fields, .consts = consts,
               .t = out};
    next(&sc);
    int rc = sc.tok == T_END ? FAIL(&sc, "the expression is empty")
                             : conditional(&sc, &out->root);
    if (!rc && sc.tok == T_RP)
        rc = FAIL(&sc, "')' without a '(' (character %zu)", sc.start + 1);
    else if (!rc && (sc.tok == T_BAD || sc.tok == T_COMMA))
        rc = bad_char(&sc);
    else if (!rc && sc.tok != T_END)
        rc = FAIL(&sc, "expected an operator %s",
                  place(&sc, buf, sizeof buf));
    if (rc)
        fr__etree_free(out);
    return rc;
}
