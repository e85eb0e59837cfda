/* SPDX-License-Identifier: BSD-3-Clause */
/* The orthonormal basis of P_p on the reference triangle (-1,-1),
 * (1,-1), (-1,1) (Proriol, Koornwinder, Dubiner), through the collapsed
 * coordinates a = 2(1+r)/(1-s) - 1, b = s, as in Hesthaven and Warburton,
 * "Nodal Discontinuous Galerkin Methods" (2008), Simplex2DP and
 * GradSimplex2DP:
 *   phi_ij = sqrt(2) P_i(a) P_j^(2i+1,0)(b) (1-b)^i
 * with orthonormal Jacobi polynomials. */
#include "fr-internal.h"

#include <math.h>

void fr__pkd(int p, double r, double s, double *phi, double *dr, double *ds)
{
    /* at the top corner (s = 1) every mode with i > 0 vanishes and the
     * others do not depend on a */
    double a = s != 1.0 ? 2.0 * (1.0 + r) / (1.0 - s) - 1.0 : -1.0;
    double b = s, hb = 0.5 * (1.0 - b);
    size_t m = 0;
    for (int i = 0; i <= p; i++) {
        double dfa, fa = fr_jacobi_orthonormal(i, 0, 0, a, &dfa);
        double scale = pow(2.0, i + 0.5);
        double hbi = pow(hb, i), hbi1 = i > 0 ? pow(hb, i - 1) : 0.0;
        for (int j = 0; j <= p - i; j++, m++) {
            double dgb, gb = fr_jacobi_orthonormal(j, 2.0 * i + 1, 0, b, &dgb);
            if (phi)
                phi[m] = scale * fa * gb * hbi;
            /* d/dr = 2/(1-b) d/da; d/ds = (1+a)/(1-b) d/da + d/db */
            double ddr = dfa * gb * (i > 0 ? hbi1 : 1.0);
            double dds = dfa * gb * 0.5 * (1.0 + a) * (i > 0 ? hbi1 : 1.0);
            double t = dgb * hbi;
            if (i > 0)
                t -= 0.5 * i * gb * hbi1;
            dds += fa * t;
            if (dr)
                dr[m] = scale * ddr;
            if (ds)
                ds[m] = scale * dds;
        }
    }
}
