/* SPDX-License-Identifier: BSD-3-Clause */
/* libfrx-fr: expressions in a case (initial conditions, base flows,
 * sources, boundary values), as PyFR's [soln-ics] and [constants].
 *
 * An expression is a YAML scalar in the coordinates x, y (z and t where
 * the caller allows them) and named constants. Named constants come
 * from a YAML map (solver.constants: {gamma: 1.4, S: 13.5, gm1: gamma -
 * 1}); each value is a number or an expression in the constants above
 * it. docs/expressions.md has the syntax, the functions and every
 * error.
 *
 * frx parses an expression once into a tree (its own code, no library):
 * bad input gets an error naming the YAML place (file:line:col), the
 * key, the expression, what is wrong and at which character. The tree
 * is evaluated on the host (fr_expr_eval: exact solutions, messages) or
 * written as C of the kernel language (fr_expr_emit), so that a kernel
 * computes it on the backend, GPUs included. Constants are folded in as
 * numbers. An fr_expr is read-only once compiled: threads may evaluate
 * it at once.
 *
 * Errors are negative FRX_E* codes with a message from frx_error. */
#ifndef FRX_FR_EXPR_H
#define FRX_FR_EXPR_H

#include <frx/fr/version.h>
#include <frx/plugin.h>

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The variables an expression may use (a mask). */
enum fr_expr_var { FR_EXPR_X = 1, FR_EXPR_Y = 2, FR_EXPR_Z = 4, FR_EXPR_T = 8 };

typedef struct fr_expr_consts fr_expr_consts;
typedef struct fr_expr fr_expr;

/* The named constants of a YAML map (NULL: none); key is the map's
 * dotted name for messages ("solver.constants"). Names are identifiers
 * ([_a-zA-Z][_a-zA-Z0-9]*) other than x, y, z, t, a function or a
 * built-in constant; values are finite. */
FR_EXTERN int fr_expr_consts_create(const frx_cfgnode *map, const char *key,
                                    fr_expr_consts **out);
FR_EXTERN void fr_expr_consts_destroy(fr_expr_consts *c);
FR_EXTERN size_t fr_expr_consts_count(const fr_expr_consts *c);
FR_EXTERN const char *fr_expr_consts_name(const fr_expr_consts *c, size_t i);
FR_EXTERN double fr_expr_consts_value(const fr_expr_consts *c, size_t i);
/* FRX_OK with *value, or FRX_ENOTFOUND (no message recorded). */
FR_EXTERN int fr_expr_consts_get(const fr_expr_consts *c, const char *name,
                                 double *value);

/* Compile the scalar node (key: its dotted name, "solver.ics.rho") in
 * the variables of the mask vars and the constants consts (may be
 * NULL). A number is an expression too. */
FR_EXTERN int fr_expr_compile(const frx_cfgnode *node, const char *key,
                              unsigned vars, const fr_expr_consts *consts,
                              fr_expr **out);
/* The same for text from elsewhere; where ("file:line:col", or NULL)
 * starts its messages. */
FR_EXTERN int fr_expr_compile_text(const char *text, const char *where,
                                   const char *key, unsigned vars,
                                   const fr_expr_consts *consts,
                                   fr_expr **out);
FR_EXTERN void fr_expr_destroy(fr_expr *e);

/* FR 1.2: an expression of fields too, named fields[0..nfields) (at
 * most 28 names, each [_a-zA-Z][_a-zA-Z0-9]*): a solution's variables
 * ("rho", "p"), as analysis plugins take them. A field is looked up
 * before the coordinates and the constants. fr_expr_uses has bit 4 + i
 * for field i; fr_expr_emit takes names[4 + i] for it; the host's value
 * is fr_expr_eval_fields's (fr_expr_eval gives NaN and
 * fr_expr_eval_points refuses one that uses a field). */
FR_EXTERN int fr_expr_compile_fields(const char *text, const char *where,
                                     const char *key, unsigned vars,
                                     size_t nfields,
                                     const char *const *fields,
                                     const fr_expr_consts *consts,
                                     fr_expr **out);
/* v: x, y, z, t, then field 0, 1, ... (4 + nfields values). */
FR_EXTERN double fr_expr_eval_fields(const fr_expr *e, const double *v);
FR_EXTERN size_t fr_expr_nfields(const fr_expr *e);

/* The derivative along var (one FR_EXPR_* bit), symbolic (0 where a
 * comparison, step or the like jumps); its messages name
 * "d(key)/dvar", its text is the derivative written out. */
FR_EXTERN int fr_expr_derivative(const fr_expr *e, unsigned var,
                                 fr_expr **out);

/* The variables the expression uses once simplified (0: a constant). */
FR_EXTERN unsigned fr_expr_uses(const fr_expr *e);
FR_EXTERN const char *fr_expr_text(const fr_expr *e); /* as written */
/* Its place in the case, "file:line:col", or "" (a derivative: the
 * expression's own). */
FR_EXTERN const char *fr_expr_where(const fr_expr *e);
FR_EXTERN const char *fr_expr_key(const fr_expr *e); /* "solver.ics.rho" */

/* The value at one point, unchecked (NaN and inf come back as they are). */
FR_EXTERN double fr_expr_eval(const fr_expr *e, double x, double y, double z,
                              double t);
/* out[i] = the value at point i of pts [n][ndims] (x, then y, then z) at
 * time t. FRX_EINVAL if the expression uses a coordinate that the points
 * lack; FRX_ERANGE, naming the point, if a value is not finite. */
FR_EXTERN int fr_expr_eval_points(const fr_expr *e, size_t n, size_t ndims,
                                  const double *pts, double t, double *out);

/* The expression as C of the kernel language, to paste into a kernel
 * body (*src, malloc'd): a parenthesised expression of type fpdtype_t
 * in which names[0..3] stand for x, y, z and t (what the kernel calls
 * them: "x[0]", "t"; NULL for one it lacks), and, for an expression of
 * fields, names[4 + i] for field i. FRX_ECONFIG, naming the
 * expression, for what a kernel of this precision (enum frx_precision)
 * cannot compute as the host does: a coordinate it lacks, delta or
 * nandelta, a number that is not finite or that single precision
 * cannot hold. */
FR_EXTERN int fr_expr_emit(const fr_expr *e, const char *const names[4],
                           int precision, char **src);

#ifdef __cplusplus
}
#endif
#endif
