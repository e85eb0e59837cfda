/* SPDX-License-Identifier: BSD-3-Clause */
/* The viscous terms of the compressible Navier-Stokes equations (the
 * navier-stokes plugin: euler.c built with FRX_EULER_VISCOUS), as frx
 * kernel macros beside physics.h's, after PyFR 1.15's navier-stokes:
 *
 *   ns_vflux(S, G, F)          F[ndims][nvars] += the viscous flux of
 *                              the state S with gradient G[ndims][nvars]
 *                              (the stress and the heat flux, negated:
 *                              du/dt = -div F)
 *   ns_diffusivity(S, NU)      NU = mu/rho max(1, gamma/Pr)
 *   ns_bc_isot_wall(UL, N, UR) ghost states of the boundary kinds
 *   ns_ldg_isot_wall(...)      (bc_*) and their common solutions
 *   ns_bc_adia_wall(...)       (ldg_*), PyFR's
 *   ns_ldg_adia_wall(...)
 *   ns_grad_adia_wall(UL, N, GL, GR)  the wall's gradient: no heat flux
 *   ns_bc_sub_in_frv, ns_bc_sub_in_ftpttang, ns_bc_sub_out_fp
 *
 * Kernels that expand them have the scalars gamma, mu, Pr (and, with
 * Sutherland's law, cpTref and cpTs: mu is then mu at cpT = cpTref). */
#ifndef FRX_EULER_VISCOUS_H
#define FRX_EULER_VISCOUS_H

#include <frx/fr/system.h>

#include <frx/frx.h>

#include <stddef.h>

/* The macros above for ndims (2 or 3) and the viscosity law
 * (sutherland 0: constant mu), appended to *m (*n of them, realloc'd;
 * free with euler_macros_free). */
int ns_macros(int ndims, int sutherland, frx_kernel_macro **m, size_t *n);

/* The constants the viscous kernels need, from solver.constants (opts is
 * the solver.* node): mu and Pr (> 0) and, for Sutherland's law, cpTref
 * and cpTs; into out[] after out[0] (gamma); *n the count in all. */
int ns_constants(const frx_cfgnode *opts, const fr_expr_consts *c,
                 int sutherland, fr_const *out, size_t *n);

#endif
