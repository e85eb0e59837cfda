/* SPDX-License-Identifier: BSD-3-Clause */
/* The Euler solver's fields from the case: the constants, the initial
 * condition and the exact solution as expressions in the primitive
 * variables (rho, u, v, p), as PyFR's [constants] and [soln-ics]. */
#ifndef FRX_EULER_FIELDS_H
#define FRX_EULER_FIELDS_H

#include <frx/fr/expr.h>

#include <frx/frx.h>

#include <stddef.h>

typedef struct euler_fields euler_fields;

/* From solver.constants (gamma required: the ratio of specific heats),
 * solver.ics (rho, u, v, p in x, y), solver.exact (the same in x, y
 * and t; absent: no exact solution) and solver.sources (any of rho,
 * rhou, rhov, E in x, y and t: terms added to d/dt of those conserved
 * variables). opts is the solver.* node. */
int euler_fields_create(const frx_cfgnode *opts, int ndims,
                        euler_fields **out);
void euler_fields_destroy(euler_fields *f);

double euler_fields_gamma(const euler_fields *f);
int euler_fields_ndims(const euler_fields *f);
/* The case's named constants (for boundary values too). */
const fr_expr_consts *euler_fields_consts(const euler_fields *f);
int euler_fields_has_exact(const euler_fields *f);

/* The conserved variables at n points xyz [n][ndims] at time t into
 * vals [n][ndims + 2]: of the initial condition (t is t0; the
 * expressions do not see it) or of the exact solution. A point where
 * rho or p is not positive and finite is an error naming it. */
int euler_fields_initial(const euler_fields *f, double t, size_t n,
                         const double *xyz, double *vals);
int euler_fields_exact(const euler_fields *f, double t, size_t n,
                       const double *xyz, double *vals);

/* The FR system's fragments (system.h) for a backend of this precision:
 * the initial condition (u from x; bad where rho or p <= 0) and the
 * source (src from x and t; NULL without solver.sources). Both
 * malloc'd. */
int euler_fields_fragments(const euler_fields *f, int precision,
                           char **initial, char **source);

#endif
