/* SPDX-License-Identifier: BSD-3-Clause */
/* The compressible Euler equations as frx kernel macros.
 *
 * Conserved variables rho, rho*u, rho*v (, rho*w), E; pressure
 * p = (gamma - 1) (E - rho |v|^2 / 2). Every piece of physics the FR
 * system needs is a macro of the generated code, written out for one
 * ndims. The kernels that expand them have a scalar `gamma`, and the
 * boundary ones the free stream as scalars bc_rho, bc_u, bc_v (, bc_w),
 * bc_p (the FR system's constants and boundary keys):
 *
 *   euler_flux(S, F, P, V)          F[ndims][nvars], pressure P and
 *                                   velocity V[ndims] of the state S
 *   euler_nflux(S, N, FN, P, VN)    FN[nvars] = F.N, pressure P and
 *                                   normal velocity VN (for N unit)
 *   euler_rusanov(UL, UR, N, NF)    common normal flux NF[nvars] for the
 *   euler_hllc(UL, UR, N, NF)       unit normal N (from l to r)
 *   euler_wavespeed(S, A)           A = |v| + c, the fastest wave of S
 *   euler_bc_sup_in(UL, N, UR)      ghost states UR of the boundary
 *   euler_bc_sup_out(UL, N, UR)     kinds (PyFR's sup-in-fa, sup-out-fn,
 *   euler_bc_slip_wall(UL, N, UR)   slp-adia-wall, char-riem-inv); N the
 *   euler_bc_char_riem(UL, N, UR)   unit outward normal
 *
 * The definitions follow PyFR 1.15 (rsolvers/rusanov, bcs) so that frx
 * and PyFR compute the same numbers; HLLC takes Einfeldt's wave speeds.
 * Bodies are wrapped in braces (their locals do not leak) and hold no
 * // comments (a macro's lines are joined). */
#ifndef FRX_EULER_PHYSICS_H
#define FRX_EULER_PHYSICS_H

#include <frx/frx.h>

#include <stddef.h>
#include <stdio.h>

/* The macros above for ndims (2 or 3): *out (malloc'd, with malloc'd
 * strings) holds *n macros; free them with euler_macros_free. */
int euler_macros(int ndims, frx_kernel_macro **out, size_t *n);
void euler_macros_free(frx_kernel_macro *m, size_t n);

/* For viscous.c's macros: the body write gives for ndims (malloc'd; NULL
 * out of memory), and (a[a0]*b[b0] + ...) of ndims terms into f. */
char *euler_macro_text(void (*write)(FILE *, int), int ndims);
void euler_dot(FILE *f, int ndims, const char *a, int a0, const char *b,
               int b0);

#endif
