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

/* The tetrahedron (-1,-1,-1), (1,-1,-1), (-1,1,-1), (-1,-1,1) through
 * a = 2(1+r)/(-s-t) - 1, b = 2(1+s)/(1-t) - 1, c = t (Simplex3DP and
 * GradSimplex3DP of the same book):
 *   phi_ijk = 2 sqrt(2) P_i(a) P_j^(2i+1,0)(b) (1-b)^i
 *             P_k^(2i+2j+2,0)(c) (1-c)^(i+j). */
void fr__pkd3(int p, const double *x, double *phi, double *grad)
{
    double r = x[0], s = x[1], t = x[2];
    /* on the edge s + t = 0 and at the top corner t = 1 the modes that
     * depend on a (or b) vanish, so any value does */
    double a = s + t != 0.0 ? 2.0 * (1.0 + r) / (-s - t) - 1.0 : -1.0;
    double b = t != 1.0 ? 2.0 * (1.0 + s) / (1.0 - t) - 1.0 : -1.0, c = t;
    double hb = 0.5 * (1.0 - b), hc = 0.5 * (1.0 - c);
    size_t nm = (size_t)(p + 1) * (size_t)(p + 2) * (size_t)(p + 3) / 6, m = 0;
    for (int i = 0; i <= p; i++) {
        double dfa, fa = fr_jacobi_orthonormal(i, 0, 0, a, &dfa);
        for (int j = 0; j <= p - i; j++) {
            double dgb, gb = fr_jacobi_orthonormal(j, 2.0 * i + 1, 0, b, &dgb);
            int ij = i + j;
            double hbi = pow(hb, i), hbi1 = i > 0 ? pow(hb, i - 1) : 1.0;
            double hcij = pow(hc, ij), hcij1 = ij > 0 ? pow(hc, ij - 1) : 1.0;
            for (int k = 0; k <= p - ij; k++, m++) {
                double dgc, gc = fr_jacobi_orthonormal(k, 2.0 * ij + 2, 0, c, &dgc);
                double scale = pow(2.0, 2 * i + j + 1.5);
                if (phi)
                    phi[m] = scale * fa * gb * hbi * gc * hcij;
                if (!grad)
                    continue;
                double vr = dfa * gb * gc * hbi1 * hcij1;
                double tb = dgb * hbi; /* d/db of P_j(b) hb^i */
                if (i > 0)
                    tb -= 0.5 * i * gb * hbi1;
                double vs_b = fa * tb * gc * hcij1;
                double tc = dgc * hcij; /* d/dc of P_k(c) hc^(i+j) */
                if (ij > 0)
                    tc -= 0.5 * ij * gc * hcij1;
                grad[m] = scale * vr;
                grad[nm + m] = scale * (0.5 * (1.0 + a) * vr + vs_b);
                grad[2 * nm + m] = scale * (0.5 * (1.0 + a) * vr
                                            + 0.5 * (1.0 + b) * vs_b
                                            + fa * gb * hbi * tc);
            }
        }
    }
}

/* The prism: the triangle's modes times the line's, each orthonormal,
 * so their products are orthonormal on the prism. */
void fr__prism_basis(int p, const double *x, double *phi, double *grad)
{
    size_t nt = (size_t)(p + 1) * (size_t)(p + 2) / 2, nm = nt * (size_t)(p + 1);
    double t[64], dr[64], ds[64], lz[8], dlz[8]; /* p <= 6 */
    fr__pkd(p, x[0], x[1], t, dr, ds);
    for (int k = 0; k <= p; k++)
        lz[k] = fr_jacobi_orthonormal(k, 0, 0, x[2], &dlz[k]);
    for (size_t k = 0; k <= (size_t)p; k++)
        for (size_t m = 0; m < nt; m++) {
            size_t i = m + nt * k;
            if (phi)
                phi[i] = t[m] * lz[k];
            if (grad) {
                grad[i] = dr[m] * lz[k];
                grad[nm + i] = ds[m] * lz[k];
                grad[2 * nm + i] = t[m] * dlz[k];
            }
        }
}

/* The pyramid (-1,-1,-1), (1,-1,-1), (1,1,-1), (-1,1,-1), (0,0,1), as
 * PyFR's PyrPolyBasis (polys.py), through a = 2x/(1-z), b = 2y/(1-z),
 * c = z:
 *   phi_ijk = sqrt(2(i+j+k)+3) s_i P_i(a) s_j P_j(b) (1-c)^(i+j)
 *             P_k^(2(i+j+1),0)(c),  s_i = 2^(-i-1/4) sqrt(i+1/2),
 * classical Legendre and Jacobi polynomials, i, j = 0..p,
 * k = 0..p-max(i,j). Each mode is a polynomial in (x, y, z) (the
 * (1-c) powers clear the denominators); the formulas divide by (1-c)
 * only below the apex, and at the apex take a = b = 0, PyFR's choice,
 * which is the polynomial's own value there (and its gradient); on the
 * plane z = 1 away from the apex, outside the element, the values are
 * not the polynomials'. */
void fr__pyr_basis(int p, const double *x, double *phi, double *grad)
{
    double c = x[2], oc = 1.0 - c;
    double a = c != 1.0 ? 2.0 * x[0] / oc : 0.0, b = c != 1.0 ? 2.0 * x[1] / oc : 0.0;
    double f[8], df[8], g[8], dg[8]; /* p <= 6 */
    for (int i = 0; i <= p; i++) {
        double s = pow(2.0, -i - 0.25) * sqrt(i + 0.5);
        f[i] = s * fr_legendre(i, a, &df[i]);
        df[i] *= s;
        g[i] = s * fr_legendre(i, b, &dg[i]);
        dg[i] *= s;
    }
    size_t nm = (size_t)(p + 1) * (size_t)(p + 2) * (size_t)(2 * p + 3) / 6, m = 0;
    for (int i = 0; i <= p; i++)
        for (int j = 0; j <= p; j++) {
            int ij = i + j, top = p - (i > j ? i : j);
            double cij = pow(oc, ij), tmp = ij > 0 ? pow(oc, ij - 1) : 1.0;
            for (int k = 0; k <= top; k++, m++) {
                double dh, h = fr_jacobi(k, 2.0 * (ij + 1), 0.0, c, &dh);
                double ck = sqrt(2.0 * (k + ij) + 3.0);
                if (phi)
                    phi[m] = ck * cij * f[i] * g[j] * h;
                if (!grad)
                    continue;
                grad[m] = ck * 2.0 * tmp * df[i] * g[j] * h;
                grad[nm + m] = ck * 2.0 * tmp * f[i] * dg[j] * h;
                grad[2 * nm + m] = ck * (tmp * (a * df[i] * g[j] + b * f[i] * dg[j]
                                                - ij * f[i] * g[j]) * h
                                         + cij * f[i] * g[j] * dh);
            }
        }
}

void fr__simplex_basis(int etype, int p, const double *x, double *phi,
                       double *grad)
{
    if (etype == FR_PYR) {
        fr__pyr_basis(p, x, phi, grad);
        return;
    }
    if (etype == FR_TET) {
        fr__pkd3(p, x, phi, grad);
        return;
    }
    if (etype == FR_PRI) {
        fr__prism_basis(p, x, phi, grad);
        return;
    }
    size_t nm = (size_t)(p + 1) * (size_t)(p + 2) / 2;
    fr__pkd(p, x[0], x[1], phi, grad, grad ? grad + nm : NULL);
}
