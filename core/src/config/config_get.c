/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading values out of the config tree: navigation, positions and the
 * typed getters with their "file:line:col: 'key' must be ..." errors. */
#include "config/config-impl.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------- navigation */

static const frx_cfgnode *map_find(const frx_cfgnode *map, const char *key,
                                   size_t len)
{
    for (size_t i = 0; i < map->n; i++) {
        const char *k = map->keys[i]->text;
        if (strlen(k) == len && !strncmp(k, key, len))
            return map->vals[i];
    }
    return NULL;
}

static int is_index(const char *seg, size_t len)
{
    if (!len || len > 9)
        return 0;
    for (size_t k = 0; k < len; k++)
        if (seg[k] < '0' || seg[k] > '9')
            return 0;
    return 1;
}

static const frx_cfgnode *list_find(const frx_cfgnode *list, const char *seg,
                                    size_t len)
{
    size_t i = 0;
    for (size_t k = 0; k < len; k++)
        i = 10 * i + (size_t)(seg[k] - '0');
    return i < list->n ? list->vals[i] : NULL;
}

/* Walk a dotted path. Returns the node or NULL; when the walk stopped at
 * a node that is not a mapping, *blocker is that node. */
static const frx_cfgnode *walk(const frx_cfgnode *node, const char *path,
                               const frx_cfgnode **blocker)
{
    *blocker = NULL;
    if (!node || !path || !*path)
        return node;
    while (node) {
        const char *dot = strchr(path, '.');
        size_t len = dot ? (size_t)(dot - path) : strlen(path);
        const frx_cfgnode *next = NULL;
        if (node->type == FRX_CFG_MAP)
            next = map_find(node, path, len);
        else if (node->type == FRX_CFG_LIST && is_index(path, len))
            next = list_find(node, path, len);
        else if (!node->is_null)
            *blocker = node;
        if (!dot || !next)
            return next;
        node = next;
        path = dot + 1;
    }
    return NULL;
}

const frx_cfgnode *frx_cfg_get(const frx_cfgnode *node, const char *path)
{
    const frx_cfgnode *blocker;
    return walk(node, path, &blocker);
}

int frx_cfg_type(const frx_cfgnode *node) { return node ? node->type : 0; }
int frx_cfg_line(const frx_cfgnode *node) { return node ? node->line : 0; }
int frx_cfg_col(const frx_cfgnode *node) { return node ? node->col : 0; }

const char *frx_cfg_scalar(const frx_cfgnode *node)
{
    return node && node->type == FRX_CFG_SCALAR ? node->text : NULL;
}

size_t frx_cfg_len(const frx_cfgnode *node)
{
    return node && node->type != FRX_CFG_SCALAR ? node->n : 0;
}

const frx_cfgnode *frx_cfg_at(const frx_cfgnode *node, size_t i)
{
    return node && node->type != FRX_CFG_SCALAR && i < node->n
               ? node->vals[i] : NULL;
}

const frx_cfgnode *frx_cfg_key_node_at(const frx_cfgnode *node, size_t i)
{
    return node && node->type == FRX_CFG_MAP && i < node->n ? node->keys[i]
                                                            : NULL;
}

const char *frx_cfg_key_at(const frx_cfgnode *node, size_t i)
{
    const frx_cfgnode *k = frx_cfg_key_node_at(node, i);
    return k ? k->text : NULL;
}

const frx_config *frx_cfg_owner(const frx_cfgnode *node)
{
    return node ? node->owner : NULL;
}

/* ----------------------------------------------------- where and what */

const char *frx__cfg_where(const frx_cfgnode *node, char *buf, size_t n)
{
    if (!n)
        return buf;
    if (!node)
        snprintf(buf, n, "<no position>");
    else
        snprintf(buf, n, "%s:%d:%d", node->owner->file, node->line,
                 node->col);
    return buf;
}

const char *frx__cfg_path(const frx_cfgnode *node, char *buf, size_t n)
{
    /* the depth limit of the parser bounds the chain */
    const frx_cfgnode *chain[FRX__CFG_MAX_DEPTH + 2];
    size_t depth = 0;
    if (!n)
        return buf;
    buf[0] = '\0';
    for (; node && node->parent && depth < FRX__CFG_MAX_DEPTH + 2;
         node = node->parent)
        chain[depth++] = node;
    size_t len = 0;
    while (depth-- > 0 && len < n) {
        const frx_cfgnode *c = chain[depth];
        const frx_cfgnode *p = c->parent;
        int k;
        if (p->type == FRX_CFG_LIST)
            k = snprintf(buf + len, n - len, "[%zu]", c->index);
        else
            k = snprintf(buf + len, n - len, "%s%s", len ? "." : "",
                         c->is_key ? c->text : p->keys[c->index]->text);
        if (k < 0)
            break;
        len += (size_t)k;
    }
    return buf;
}

const char *frx__cfg_kind(const frx_cfgnode *node)
{
    if (!node)
        return "nothing";
    switch (node->type) {
    case FRX_CFG_LIST: return "a list";
    case FRX_CFG_MAP: return "a mapping";
    default: return node->is_null ? "an empty value" : "a scalar";
    }
}

const char *frx__cfg_choices_text(const char *choices, const char *sep_last,
                                  char *buf, size_t n)
{
    size_t len = 0;
    if (!n)
        return buf;
    buf[0] = '\0';
    for (const char *p = choices; p && *p && len < n;) {
        const char *bar = strchr(p, '|');
        int k = (int)(bar ? (size_t)(bar - p) : strlen(p));
        const char *sep = p == choices ? "" : bar ? ", " : sep_last;
        int w = snprintf(buf + len, n - len, "%s%.*s", sep, k, p);
        if (w < 0)
            break;
        len += (size_t)w;
        p = bar ? bar + 1 : p + k;
    }
    return buf;
}

/* ---------------------------------------------------------- conversion */

/* "file:line:col: 'path' " then the rest, into msg. */
static int bad(const frx_cfgnode *v, char *msg, size_t n, const char *fmt,
               ...) __attribute__((format(printf, 4, 5)));
static int bad(const frx_cfgnode *v, char *msg, size_t n, const char *fmt,
               ...)
{
    char where[300], path[256], rest[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rest, sizeof rest, fmt, ap);
    va_end(ap);
    snprintf(msg, n, "%s: '%s' %s", frx__cfg_where(v, where, sizeof where),
             frx__cfg_path(v, path, sizeof path), rest);
    return FRX_ECONFIG;
}

/* "got 'many'", "got a list", "got an empty value". */
static const char *got(const frx_cfgnode *v, char *buf, size_t n)
{
    if (v->type == FRX_CFG_SCALAR && !v->is_null)
        snprintf(buf, n, "got '%s'", v->text);
    else
        snprintf(buf, n, "got %s", frx__cfg_kind(v));
    return buf;
}

static int is_value(const frx_cfgnode *v)
{
    return v->type == FRX_CFG_SCALAR && !v->is_null;
}

int frx__cfg_to_string(const frx_cfgnode *v, const char **out, char *msg,
                       size_t n)
{
    char g[300];
    if (!is_value(v))
        return bad(v, msg, n, "must be a string, %s", got(v, g, sizeof g));
    *out = v->text;
    return FRX_OK;
}

static int parse_long(const char *s, long *out, int *overflow)
{
    char *end;
    errno = 0;
    *out = strtol(s, &end, 10);
    *overflow = errno == ERANGE;
    return end != s && !*end && (*s == '-' || *s == '+' ||
                                 (*s >= '0' && *s <= '9'));
}

static int choice_index(const char *choices, const char *word);

/* An integer in [min, max]; words ("auto|none", or NULL) are named in
 * the message as what else the value may be. */
static int to_long(const frx_cfgnode *v, long min, long max,
                   const char *words, long *out, char *msg, size_t n)
{
    char g[300], list[512] = "", alt[520] = "";
    long x;
    int overflow;
    if (words)
        snprintf(alt, sizeof alt, " or %s",
                 frx__cfg_choices_text(words, " or ", list, sizeof list));
    if (!is_value(v) || !parse_long(v->text, &x, &overflow))
        return bad(v, msg, n, "must be an integer%s, %s", alt,
                   got(v, g, sizeof g));
    if (min > max) {
        min = LONG_MIN;
        max = LONG_MAX;
    }
    if (overflow || x < min || x > max)
        return bad(v, msg, n, "must be between %ld and %ld%s, got %s", min,
                   max, alt, v->text);
    *out = x;
    return FRX_OK;
}

int frx__cfg_to_long(const frx_cfgnode *v, long min, long max, long *out,
                     char *msg, size_t n)
{
    return to_long(v, min, max, NULL, out, msg, n);
}

int frx__cfg_to_long_or(const frx_cfgnode *v, long min, long max,
                        const char *words, long *out, int *word, char *msg,
                        size_t n)
{
    *word = is_value(v) && words ? choice_index(words, v->text) : -1;
    return *word >= 0 ? FRX_OK : to_long(v, min, max, words, out, msg, n);
}

/* x in the fewest digits that read back as x: a bound of 1.0000001 is
 * not shown as 1 */
static const char *shortest(double x, char *buf, size_t n)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    return buf;
}

int frx__cfg_to_double(const frx_cfgnode *v, double min, double max,
                       double *out, char *msg, size_t n)
{
    char g[300], *end = NULL;
    double x = 0;
    if (is_value(v)) {
        errno = 0;
        x = strtod(v->text, &end);
    }
    if (!end || end == v->text || *end || !isfinite(x) ||
        (errno == ERANGE && x != 0))
        return bad(v, msg, n, "must be a number, %s", got(v, g, sizeof g));
    if (min <= max && (x < min || x > max)) {
        char lo[32], hi[32];
        return bad(v, msg, n, "must be between %s and %s, got %s",
                   shortest(min, lo, sizeof lo), shortest(max, hi, sizeof hi),
                   v->text);
    }
    *out = x;
    return FRX_OK;
}

int frx__cfg_to_bool(const frx_cfgnode *v, int *out, char *msg, size_t n)
{
    static const char *const yes[] = {"true", "yes", "on"};
    static const char *const no[] = {"false", "no", "off"};
    char g[300];
    for (int i = 0; is_value(v) && i < 3; i++) {
        if (!strcasecmp(v->text, yes[i]) || !strcasecmp(v->text, no[i])) {
            *out = !strcasecmp(v->text, yes[i]);
            return FRX_OK;
        }
    }
    return bad(v, msg, n, "must be true or false (or yes/no, on/off), %s",
               got(v, g, sizeof g));
}

/* Index of word in "a|b|c", or -1. */
static int choice_index(const char *choices, const char *word)
{
    size_t len = strlen(word);
    int i = 0;
    for (const char *p = choices; p && *p; i++) {
        const char *bar = strchr(p, '|');
        size_t k = bar ? (size_t)(bar - p) : strlen(p);
        if (k == len && !strncmp(p, word, k))
            return i;
        if (!bar)
            break;
        p = bar + 1;
    }
    return -1;
}

/* The choice closest to word, into buf ("" if none is close). */
static const char *close_choice(const char *choices, const char *word,
                                char *buf, size_t n)
{
    char copy[512];
    const char *cands[32];
    size_t nc = 0;
    snprintf(copy, sizeof copy, "%s", choices);
    for (char *p = copy; p && *p && nc < 32;) {
        char *bar = strchr(p, '|');
        if (bar)
            *bar++ = '\0';
        cands[nc++] = p;
        p = bar;
    }
    const char *best = frx__suggest(word, cands, nc);
    snprintf(buf, n, "%s", best ? best : "");
    return buf;
}

int frx__cfg_to_enum(const frx_cfgnode *v, const char *choices, int *out,
                     char *msg, size_t n)
{
    char g[300], list[512], hint[300] = "";
    int i = is_value(v) ? choice_index(choices, v->text) : -1;
    if (i >= 0) {
        *out = i;
        return FRX_OK;
    }
    if (is_value(v)) {
        char best[128];
        if (*close_choice(choices, v->text, best, sizeof best))
            snprintf(hint, sizeof hint, " (did you mean '%s'?)", best);
    }
    frx__cfg_choices_text(choices, ", ", list, sizeof list);
    return bad(v, msg, n, "must be one of: %s; %s%s", list,
               got(v, g, sizeof g), hint);
}

/* ------------------------------------------------------- typed getters */

/* The node at path, or NULL when absent; FRX_ECONFIG when something on
 * the way is not a mapping. */
static int lookup(const frx_cfgnode *node, const char *path,
                  const frx_cfgnode **out)
{
    const frx_cfgnode *blocker;
    *out = walk(node, path, &blocker);
    if (*out || !blocker)
        return FRX_OK;
    char where[300], bpath[256];
    return frx_error(FRX_ECONFIG, "%s: '%s' must be a mapping, got %s",
                     frx__cfg_where(blocker, where, sizeof where),
                     frx__cfg_path(blocker, bpath, sizeof bpath),
                     frx__cfg_kind(blocker));
}

static int fail(int rc, const char *msg)
{
    return rc ? frx_error(rc, "%s", msg) : FRX_OK;
}

int frx_cfg_string(const frx_cfgnode *node, const char *path,
                   const char *def, const char **out)
{
    const frx_cfgnode *v;
    char msg[1024];
    *out = def;
    int rc = lookup(node, path, &v);
    if (rc || !v)
        return rc;
    return fail(frx__cfg_to_string(v, out, msg, sizeof msg), msg);
}

int frx_cfg_int(const frx_cfgnode *node, const char *path, long def,
                long min, long max, long *out)
{
    const frx_cfgnode *v;
    char msg[1024];
    *out = def;
    int rc = lookup(node, path, &v);
    if (rc || !v)
        return rc;
    return fail(frx__cfg_to_long(v, min, max, out, msg, sizeof msg), msg);
}

int frx_cfg_int_or(const frx_cfgnode *node, const char *path, long def,
                   long min, long max, const char *words, long *out,
                   int *word)
{
    const frx_cfgnode *v;
    char msg[1024];
    *out = def;
    *word = -1;
    int rc = lookup(node, path, &v);
    if (rc || !v)
        return rc;
    return fail(frx__cfg_to_long_or(v, min, max, words, out, word, msg,
                                    sizeof msg), msg);
}

int frx_cfg_double(const frx_cfgnode *node, const char *path, double def,
                   double min, double max, double *out)
{
    const frx_cfgnode *v;
    char msg[1024];
    *out = def;
    int rc = lookup(node, path, &v);
    if (rc || !v)
        return rc;
    return fail(frx__cfg_to_double(v, min, max, out, msg, sizeof msg), msg);
}

int frx_cfg_bool(const frx_cfgnode *node, const char *path, int def,
                 int *out)
{
    const frx_cfgnode *v;
    char msg[1024];
    *out = def;
    int rc = lookup(node, path, &v);
    if (rc || !v)
        return rc;
    return fail(frx__cfg_to_bool(v, out, msg, sizeof msg), msg);
}

int frx_cfg_enum(const frx_cfgnode *node, const char *path,
                 const char *choices, int def, int *out)
{
    const frx_cfgnode *v;
    char msg[1024];
    *out = def;
    int rc = lookup(node, path, &v);
    if (rc || !v)
        return rc;
    return fail(frx__cfg_to_enum(v, choices, out, msg, sizeof msg), msg);
}
