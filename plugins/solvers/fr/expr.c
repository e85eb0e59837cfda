/* SPDX-License-Identifier: BSD-3-Clause */
/* Expressions (expr.h): named constants, compiling text into a tree
 * (expr_parse.c), evaluation on the host into arrays, derivatives, and
 * the C that puts an expression into a kernel (expr_print.c). */
#include "expr-internal.h"
#include <frx/fr/fr.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

/* How a value that is not finite is printed (glibc prints -nan too). */
static const char *not_finite(double v)
{
    return isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
}

const char *fr_cfg_place(const frx_cfgnode *node, char *buf, size_t n)
{
    const char *file = frx_config_file(frx_cfg_owner(node));
    snprintf(buf, n, "%s:%d:%d", file ? file : "<case>", frx_cfg_line(node),
             frx_cfg_col(node));
    return buf;
}

/* ------------------------------------------------------------ constants */


/* Why name cannot be a constant's, or NULL. */
static const char *bad_const_name(const char *name)
{
    if (!fr__expr_is_name(name))
        return "is not a name: use letters, digits and _, not starting with "
               "a digit";
    if (strlen(name) == 1 && strchr("xyzt", name[0]))
        return "is a coordinate (x, y, z and t are the variables)";
    if (fr__expr_is_function(name, strlen(name)))
        return "is a function's name";
    if (fr__expr_is_constant(name, strlen(name)))
        return "is a built-in constant's name (docs/expressions.md)";
    return NULL;
}

/* Constant i: the value of its expression in the constants before it. */
static int read_const(fr_expr_consts *c, const frx_cfgnode *map,
                      const char *key, size_t i)
{
    const char *name = frx_cfg_key_at(map, i);
    const frx_cfgnode *node = frx_cfg_at(map, i);
    char where[512], ckey[512];
    const char *why = bad_const_name(name);
    snprintf(ckey, sizeof ckey, "%s.%s", key, name);
    fr_cfg_place(frx_cfg_key_node_at(map, i), where, sizeof where);
    if (why)
        return frx_error(FRX_ECONFIG, "%s: %s: '%s' %s", where, ckey, name,
                         why);
    double v;
    if (fr__expr_consts_find(c, name, strlen(name), &v) == 0)
        return frx_error(FRX_ECONFIG, "%s: %s: '%s' is given twice", where,
                         ckey, name);
    fr_cfg_place(node, where, sizeof where);
    fr_expr *e = NULL;
    int rc = fr_expr_compile(node, ckey, 0, c, &e);
    if (rc)
        return rc;
    v = fr_expr_eval(e, 0, 0, 0, 0);
    fr_expr_destroy(e);
    if (!isfinite(v))
        return fr__expr_fail(FRX_ECONFIG, where, ckey, frx_cfg_scalar(node),
                             "the value is %s; a constant must be finite",
                             not_finite(v));
    c->names[i] = dupstr(name);
    if (!c->names[i])
        return frx_error(FRX_ENOMEM, "out of memory for constant %s", ckey);
    c->values[i] = v;
    c->n = i + 1;
    return FRX_OK;
}

int fr_expr_consts_create(const frx_cfgnode *map, const char *key,
                          fr_expr_consts **out)
{
    *out = NULL;
    if (!key)
        key = "constants";
    char where[512];
    if (map && frx_cfg_type(map) != FRX_CFG_MAP)
        return frx_error(FRX_ECONFIG, "%s: %s must be a map of names to "
                         "numbers or expressions (gamma: 1.4)",
                         fr_cfg_place(map, where, sizeof where), key);
    size_t n = map ? frx_cfg_len(map) : 0;
    fr_expr_consts *c = calloc(1, sizeof *c);
    if (c) {
        c->names = calloc(n + 1, sizeof *c->names);
        c->values = calloc(n + 1, sizeof *c->values);
    }
    if (!c || !c->names || !c->values) {
        fr_expr_consts_destroy(c);
        return frx_error(FRX_ENOMEM, "out of memory for %s", key);
    }
    for (size_t i = 0; i < n; i++) {
        int rc = read_const(c, map, key, i);
        if (rc) {
            fr_expr_consts_destroy(c);
            return rc;
        }
    }
    *out = c;
    return FRX_OK;
}

/* ---------------------------------------------------------- expressions */

static const char *const coord_names[4] = {"x", "y", "z", "t"};

struct fr_expr {
    struct fr__etree tree;
    char *text;  /* as written (a derivative: as expr_print.c writes it) */
    char *where; /* "file:line:col" or "" */
    char *key;
    unsigned uses;
    size_t nfields; /* fr_expr_compile_fields's */
};

void fr_expr_destroy(fr_expr *e)
{
    if (!e)
        return;
    fr__etree_free(&e->tree);
    free(e->text);
    free(e->where);
    free(e->key);
    free(e);
}

/* A new expression around tree (taken, even on failure). */
static int wrap(struct fr__etree *tree, const char *text, const char *where,
                const char *key, fr_expr **out)
{
    fr_expr *e = calloc(1, sizeof *e);
    if (!e) {
        fr__etree_free(tree);
        return frx_error(FRX_ENOMEM, "out of memory for expression %s", key);
    }
    e->tree = *tree;
    e->text = dupstr(text);
    e->where = dupstr(where ? where : "");
    e->key = dupstr(key);
    if (!e->text || !e->where || !e->key) {
        fr_expr_destroy(e);
        return frx_error(FRX_ENOMEM, "out of memory for expression %s", key);
    }
    e->uses = fr__etree_uses(&e->tree, e->tree.root);
    *out = e;
    return FRX_OK;
}

int fr_expr_compile_fields(const char *text, const char *where,
                           const char *key, unsigned vars, size_t nfields,
                           const char *const *fields,
                           const fr_expr_consts *consts, fr_expr **out)
{
    *out = NULL;
    if (!key)
        key = "expression";
    if (!text)
        return frx_error(FRX_EINVAL, "%s%s%s: no expression given",
                         where ? where : "", where ? ": " : "", key);
    if (nfields > FR__EXPR_MAX_FIELDS)
        return frx_error(FRX_EINVAL, "%s: %zu fields; an expression takes "
                         "at most %d", key, nfields, FR__EXPR_MAX_FIELDS);
    for (size_t i = 0; i < nfields; i++)
        if (!fields[i] || !fr__expr_is_name(fields[i]))
            return frx_error(FRX_EINVAL, "%s: field %zu ('%s') is no name "
                             "([_a-zA-Z][_a-zA-Z0-9]*)", key, i,
                             fields[i] ? fields[i] : "(null)");
    struct fr__etree tree;
    int rc = fr__expr_parse(text, where, key, vars & 15u, nfields, fields,
                            consts, &tree);
    if (!rc)
        rc = wrap(&tree, text, where, key, out);
    if (!rc)
        (*out)->nfields = nfields;
    return rc;
}

int fr_expr_compile_text(const char *text, const char *where,
                         const char *key, unsigned vars,
                         const fr_expr_consts *consts, fr_expr **out)
{
    return fr_expr_compile_fields(text, where, key, vars, 0, NULL, consts,
                                  out);
}

int fr_expr_compile(const frx_cfgnode *node, const char *key, unsigned vars,
                    const fr_expr_consts *consts, fr_expr **out)
{
    *out = NULL;
    if (!key)
        key = "expression";
    if (!node)
        return frx_error(FRX_ECONFIG, "%s: missing; it needs an expression",
                         key);
    char where[512];
    fr_cfg_place(node, where, sizeof where);
    if (frx_cfg_type(node) != FRX_CFG_SCALAR)
        return frx_error(FRX_ECONFIG, "%s: %s must be an expression (a "
                         "number or a formula), not a %s", where, key,
                         frx_cfg_type(node) == FRX_CFG_MAP ? "map" : "list");
    return fr_expr_compile_text(frx_cfg_scalar(node), where, key, vars,
                                consts, out);
}

int fr_expr_derivative(const fr_expr *e, unsigned var, fr_expr **out)
{
    *out = NULL;
    if (e->nfields)
        return frx_error(FRX_EINVAL, "%s: an expression of fields has no "
                         "derivative here", e->key);
    int k = var == FR_EXPR_X ? 0 : var == FR_EXPR_Y ? 1
          : var == FR_EXPR_Z ? 2 : var == FR_EXPR_T ? 3 : -1;
    if (k < 0)
        return frx_error(FRX_EINVAL, "%s: the derivative needs one of "
                         "FR_EXPR_X, _Y, _Z or _T, not %u", e->key, var);
    char key[512];
    snprintf(key, sizeof key, "d(%s)/d%s", e->key, coord_names[k]);
    struct fr__etree d;
    char *text = NULL;
    if (fr__etree_derivative(&e->tree, k, &d))
        return frx_error(FRX_ENOMEM, "out of memory for %s", key);
    if (fr__etree_text(&d, &text)) {
        fr__etree_free(&d);
        return frx_error(FRX_ENOMEM, "out of memory for %s", key);
    }
    int rc = wrap(&d, text, e->where, key, out);
    free(text);
    return rc;
}

unsigned fr_expr_uses(const fr_expr *e) { return e->uses; }

const char *fr_expr_text(const fr_expr *e) { return e->text; }

const char *fr_expr_where(const fr_expr *e) { return e->where; }

const char *fr_expr_key(const fr_expr *e) { return e->key; }

double fr_expr_eval(const fr_expr *e, double x, double y, double z, double t)
{
    if (e->uses & ~15u) /* fields: fr_expr_eval_fields */
        return NAN;
    return fr__etree_eval(&e->tree, e->tree.root, (double[4]){x, y, z, t});
}

double fr_expr_eval_fields(const fr_expr *e, const double *v)
{
    return fr__etree_eval(&e->tree, e->tree.root, v);
}

size_t fr_expr_nfields(const fr_expr *e) { return e->nfields; }

int fr_expr_eval_points(const fr_expr *e, size_t n, size_t ndims,
                        const double *pts, double t, double *out)
{
    if (e->uses & ~15u)
        return frx_error(FRX_EINVAL, "%s: it uses fields; evaluate it with "
                         "fr_expr_eval_fields", e->key);
    if (ndims < 1 || ndims > 3)
        return frx_error(FRX_EINVAL, "%s: points of %zu dimensions (1, 2 "
                         "or 3)", e->key, ndims);
    for (size_t k = ndims; k < 3; k++)
        if (e->uses & (1u << k))
            return fr__expr_fail(FRX_EINVAL, e->where, e->key, e->text,
                                 "it uses %s, but the points are %zu-D",
                                 coord_names[k], ndims);
    for (size_t p = 0; p < n; p++) {
        const double *q = pts + p * ndims;
        double v[4] = {0, 0, 0, t};
        memcpy(v, q, ndims * sizeof *q);
        out[p] = fr__etree_eval(&e->tree, e->tree.root, v);
        if (!isfinite(out[p])) {
            char at[160];
            int m = snprintf(at, sizeof at, "x = %.9g", q[0]);
            for (size_t d = 1; d < ndims; d++)
                m += snprintf(at + m, sizeof at - (size_t)m, ", %s = %.9g",
                              coord_names[d], q[d]);
            return fr__expr_fail(FRX_ERANGE, e->where, e->key, e->text,
                                 "the value is %s at %s, t = %.9g; check the "
                                 "expression's domain (sqrt, log, division)",
                                 not_finite(out[p]), at, t);
        }
    }
    return FRX_OK;
}

int fr_expr_emit(const fr_expr *e, const char *const names[4],
                 int precision, char **src)
{
    char why[512];
    *src = NULL;
    int rc = fr__etree_c(&e->tree, names, precision, src, why, sizeof why);
    if (rc == FRX_ENOMEM)
        return frx_error(rc, "out of memory for the kernel of %s", e->key);
    if (rc)
        return fr__expr_fail(rc, e->where, e->key, e->text, "it cannot be "
                             "part of a kernel: %s", why);
    return FRX_OK;
}
