/* Check an expression before libmatheval parses it, and rewrite it with
 * the constants' values. libmatheval's scanner silently drops (and
 * prints) characters it does not know ("x, y" is x), groups a^b^c as
 * (a^b)^c and only says "no" to a syntax error; this recursive-descent
 * check mirrors its grammar and says what and where instead. */
#include "expr-internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- scanner */

enum { T_END, T_NUM, T_NAME, T_FUNC, T_CONST, T_OP, T_LP, T_RP, T_BAD };

typedef struct scan {
    const char *s;
    size_t pos;        /* next character */
    int tok;           /* the current token */
    size_t start, len; /* its text */
    const char *where, *key;
    unsigned vars;
    const fr_expr_consts *consts;
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

/* The built-in constants that start with a digit win over a number (the
 * scanner takes the longest match). */
static size_t digit_constant_len(const char *s)
{
    static const char *const dc[] = {"2_sqrtpi", "1_pi", "2_pi"};
    for (size_t i = 0; i < 3; i++)
        if (!strncmp(s, dc[i], strlen(dc[i])))
            return strlen(dc[i]);
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
    } else {
        n = 1;
        sc->tok = strchr("+-*/^", c) ? T_OP
                  : c == '('         ? T_LP
                  : c == ')'         ? T_RP
                                     : T_BAD;
    }
    sc->len = n;
    sc->pos += n;
}

static int is_op(const scan *sc, char op)
{
    return sc->tok == T_OP && sc->s[sc->start] == op;
}

#define FAIL(sc, ...) \
    fr__expr_fail(FRX_ECONFIG, (sc)->where, (sc)->key, (sc)->s, __VA_ARGS__)

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
    size_t nc = sc->consts ? fr_expr_consts_count(sc->consts) : 0;
    for (size_t i = 0; i < nc && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s%s", at ? ", " : "",
                               fr_expr_consts_name(sc->consts, i));
    if (!buf[0])
        snprintf(buf, n, "none");
}

static int check_name(scan *sc)
{
    const char *s = sc->s + sc->start;
    int bit = coord_bit(s, sc->len);
    if (bit && (sc->vars & (unsigned)bit))
        return 0;
    double v;
    if (!bit && fr__expr_consts_find(sc->consts, s, sc->len, &v) == 0)
        return 0;
    char known[1024];
    known_names(sc, known, sizeof known);
    return FAIL(sc, "unknown variable '%.*s' (character %zu); known names: "
                "%s", (int)sc->len, s, sc->start + 1, known);
}

/* ------------------------------------------------------------- grammar */

static int expression(scan *sc);

/* '(' expression ')' */
static int parenthesised(scan *sc)
{
    char buf[128];
    size_t open = sc->start;
    next(sc);
    int rc = expression(sc);
    if (rc)
        return rc;
    if (sc->tok == T_BAD)
        return bad_char(sc);
    if (sc->tok != T_RP)
        return FAIL(sc, "missing ')' for the '(' at character %zu "
                    "(expected an operator or ')' %s)", open + 1,
                    place(sc, buf, sizeof buf));
    next(sc);
    return 0;
}

/* NUM | NAME | CONST | FUNC '(' expression ')' | '(' expression ')' */
static int primary(scan *sc)
{
    char buf[128];
    size_t start = sc->start;
    int rc;
    switch (sc->tok) {
    case T_NUM:
    case T_CONST:
        next(sc);
        return 0;
    case T_NAME:
        if (sc->s[sc->pos + strspn(sc->s + sc->pos, " \t\r\n")] == '(')
            return FAIL(sc, "unknown function '%.*s' (character %zu); "
                        "functions: exp, log, sqrt, sin, cos, tan, cot, sec, "
                        "csc, asin, acos, atan, acot, asec, acsc, sinh, cosh, "
                        "tanh, coth, sech, csch, asinh, acosh, atanh, acoth, "
                        "asech, acsch, abs, step, delta, nandelta, erf "
                        "(write a^b for a power)",
                        (int)sc->len, sc->s + sc->start, sc->start + 1);
        if ((rc = check_name(sc)))
            return rc;
        next(sc);
        return 0;
    case T_FUNC: {
        int len = (int)sc->len;
        next(sc);
        if (sc->tok != T_LP)
            return FAIL(sc, "function '%.*s' (character %zu) takes its "
                        "argument in parentheses: %.*s(...)",
                        len, sc->s + start, start + 1, len, sc->s + start);
        return parenthesised(sc);
    }
    case T_LP:
        return parenthesised(sc);
    case T_BAD:
        return bad_char(sc);
    default:
        return FAIL(sc, "expected a number, a name or '(' %s",
                    place(sc, buf, sizeof buf));
    }
}

/* primary ['^' '-'* primary], and no second '^' */
static int power(scan *sc)
{
    int rc = primary(sc);
    if (rc || !is_op(sc, '^'))
        return rc;
    next(sc);
    while (is_op(sc, '-'))
        next(sc);
    if ((rc = primary(sc)))
        return rc;
    if (is_op(sc, '^'))
        return FAIL(sc, "a^b^c is ambiguous (libmatheval reads (a^b)^c): "
                    "add parentheses (character %zu)", sc->start + 1);
    return 0;
}

static int unary(scan *sc)
{
    while (is_op(sc, '-'))
        next(sc);
    return power(sc);
}

static int term(scan *sc)
{
    int rc = unary(sc);
    while (!rc && (is_op(sc, '*') || is_op(sc, '/'))) {
        next(sc);
        rc = unary(sc);
    }
    return rc;
}

static int expression(scan *sc)
{
    int rc = term(sc);
    while (!rc && (is_op(sc, '+') || is_op(sc, '-'))) {
        next(sc);
        rc = term(sc);
    }
    return rc;
}

static int check(scan *sc)
{
    char buf[128];
    next(sc);
    if (sc->tok == T_END)
        return FAIL(sc, "the expression is empty");
    int rc = expression(sc);
    if (rc)
        return rc;
    if (sc->tok == T_RP)
        return FAIL(sc, "')' without a '(' (character %zu)", sc->start + 1);
    if (sc->tok == T_BAD)
        return bad_char(sc);
    if (sc->tok != T_END)
        return FAIL(sc, "expected an operator %s", place(sc, buf, sizeof buf));
    return 0;
}

/* ------------------------------------------------------------- rewrite */

int fr__expr_rewrite(const char *text, const char *where, const char *key,
                     unsigned vars, const fr_expr_consts *consts, char **out)
{
    scan sc = {.s = text, .where = where, .key = key, .vars = vars,
               .consts = consts};
    int rc = check(&sc);
    if (rc)
        return rc;
    /* Each token grows by at most "(%.17g) " (28 bytes) over its text. */
    size_t ntok = 0, cap;
    for (sc.pos = 0, next(&sc); sc.tok != T_END; next(&sc))
        ntok++;
    cap = strlen(text) + 32 * ntok + 1;
    char *buf = malloc(cap);
    if (!buf)
        return frx_error(FRX_ENOMEM, "out of memory for an expression");
    size_t at = 0;
    for (sc.pos = 0, next(&sc); sc.tok != T_END; next(&sc)) {
        const char *tok = text + sc.start;
        double v;
        if (sc.tok == T_NAME && !coord_bit(tok, sc.len) &&
            fr__expr_consts_find(consts, tok, sc.len, &v) == 0)
            at += (size_t)snprintf(buf + at, cap - at, "(%.17g) ", v);
        else
            at += (size_t)snprintf(buf + at, cap - at, "%.*s ", (int)sc.len,
                                   tok);
    }
    buf[at] = '\0';
    *out = buf;
    return 0;
}

/* ------------------------------------------- derivatives libmatheval errs */

/* libmatheval 1.1.11 differentiates asinh as 1/sqrt(1-x^2) and acoth as
 * 1/(x^2-1), both wrong; the text it differentiates has them in logs:
 * asinh(a) = log(a+sqrt(a^2+1)), acoth(a) = log((a+1)/(a-1))/2. */
static const struct {
    const char *name, *form; /* form: printf of the argument, twice */
} log_forms[] = {
    {"asinh", "log((%s)+sqrt((%s)^2+1))"},
    {"acoth", "(log(((%s)+1)/((%s)-1))/2)"},
};

/* Where in s the first call of a log_forms function starts (its name),
 * with *which, *arg and *end (past its ')'); NULL if none. s is text
 * that passed check(), so every '(' has its ')'. */
static const char *find_call(const char *s, size_t *which, size_t *arg,
                             size_t *arglen, size_t *end)
{
    for (const char *p = s; *p; p++) {
        if (p > s && fr__expr_name_char((unsigned char)p[-1]))
            continue;
        for (size_t k = 0; k < sizeof log_forms / sizeof *log_forms; k++) {
            size_t n = strlen(log_forms[k].name);
            if (strncmp(p, log_forms[k].name, n) ||
                fr__expr_name_char((unsigned char)p[n]))
                continue;
            size_t i = n + strspn(p + n, " \t\r\n"), depth = 0, j;
            for (j = i; p[j]; j++) {
                depth += p[j] == '(';
                depth -= p[j] == ')';
                if (!depth)
                    break;
            }
            *which = k;
            *arg = (size_t)(p - s) + i + 1;
            *arglen = j - i - 1;
            *end = (size_t)(p - s) + j + 1;
            return p;
        }
    }
    return NULL;
}

int fr__expr_for_derivative(const char *clean, char **out)
{
    *out = NULL;
    char *s = malloc(strlen(clean) + 1);
    if (!s)
        return frx_error(FRX_ENOMEM, "out of memory for an expression");
    strcpy(s, clean);
    size_t which, arg, arglen, end;
    const char *call;
    /* one call at a time, outermost first: an argument that holds
     * another call is copied with it, which the next rounds rewrite */
    while ((call = find_call(s, &which, &arg, &arglen, &end))) {
        size_t at = (size_t)(call - s), tail = strlen(s + end);
        size_t cap = at + 2 * arglen + strlen(log_forms[which].form) +
                     tail + 1;
        if (cap > (size_t)1 << 20) {
            free(s);
            return frx_error(FRX_ERANGE, "an expression nests asinh or "
                             "acoth too deeply to differentiate it");
        }
        char *a = malloc(arglen + 1), *t = malloc(cap);
        if (!a || !t) {
            free(a);
            free(t);
            free(s);
            return frx_error(FRX_ENOMEM, "out of memory for an expression");
        }
        memcpy(a, s + arg, arglen);
        a[arglen] = '\0';
        memcpy(t, s, at);
        size_t n = (size_t)snprintf(t + at, cap - at, log_forms[which].form,
                                    a, a);
        memcpy(t + at + n, s + end, tail + 1);
        free(a);
        free(s);
        s = t;
    }
    *out = s;
    return FRX_OK;
}
