/* The Euler solver's fields from the case: the constants, the initial
 * condition and the exact solution as expressions in the primitive
 * variables (rho, u, v, p), as PyFR's [constants] and [soln-ics]. */
#ifndef FRX_EULER_FIELDS_H
#define FRX_EULER_FIELDS_H

#include <frx/frx.h>

#include <stddef.h>

typedef struct euler_fields euler_fields;

/* From solver.constants (gamma required: the ratio of specific heats),
 * solver.ics (rho, u, v, p in x, y) and solver.exact (the same in x, y
 * and t; absent: no exact solution). opts is the solver.* node. */
int euler_fields_create(const frx_cfgnode *opts, int ndims,
                        euler_fields **out);
void euler_fields_destroy(euler_fields *f);

double euler_fields_gamma(const euler_fields *f);
int euler_fields_has_exact(const euler_fields *f);

/* The conserved variables at n points xyz [n][ndims] at time t into
 * vals [n][ndims + 2]: of the initial condition (t is t0; the
 * expressions do not see it) or of the exact solution. A point where
 * rho or p is not positive and finite is an error naming it. */
int euler_fields_initial(const euler_fields *f, double t, size_t n,
                         const double *xyz, double *vals);
int euler_fields_exact(const euler_fields *f, double t, size_t n,
                       const double *xyz, double *vals);

#endif
