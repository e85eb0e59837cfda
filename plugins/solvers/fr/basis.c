/* SPDX-License-Identifier: BSD-3-Clause */
/* The nodal basis of an element's solution points at any reference
 * points: products of 1-D Lagrange polynomials on tensor elements, the
 * orthonormal basis times the inverse Vandermonde matrix on triangles
 * and tetrahedra. */
#include "fr-internal.h"

#include <stdlib.h>

static int tensor_at(const fr_element *e, size_t n, const double *pts,
                     double *vals, double *grads)
{
    size_t n1 = (size_t)e->order + 1, nd = (size_t)e->ndims;
    double l[3][FR_MAX_1D], dl[3][FR_MAX_1D];
    for (size_t a = 0; a < n; a++) {
        for (size_t d = 0; d < nd; d++) {
            int rc = fr_lagrange(n1, e->gl, pts[a * nd + d], l[d], dl[d]);
            if (rc < 0)
                return rc;
        }
        for (size_t j = 0; j < e->nupts; j++) {
            size_t jd[3] = {j % n1, (j / n1) % n1, j / (n1 * n1)};
            double v = 1.0;
            for (size_t d = 0; d < nd; d++)
                v *= l[d][jd[d]];
            if (vals)
                vals[a * e->nupts + j] = v;
            for (size_t d = 0; grads && d < nd; d++) {
                double g = dl[d][jd[d]];
                for (size_t b = 0; b < nd; b++)
                    if (b != d)
                        g *= l[b][jd[b]];
                grads[(d * n + a) * e->nupts + j] = g;
            }
        }
    }
    return FRX_OK;
}

static int simplex_at(const fr_element *e, size_t n, const double *pts,
                      double *vals, double *grads)
{
    size_t nb = e->nupts, nd = (size_t)e->ndims;
    double *phi = malloc((1 + nd) * nb * sizeof *phi);
    if (!phi)
        return frx_error(FRX_ENOMEM, "fr: no memory for the simplex basis");
    double *dphi = phi + nb; /* [nd][nb] */
    for (size_t a = 0; a < n; a++) {
        fr__simplex_basis(e->etype, e->order, pts + a * nd, phi, grads ? dphi : NULL);
        for (size_t j = 0; j < nb; j++) {
            double v = 0, g[3] = {0, 0, 0};
            for (size_t m = 0; m < nb; m++) {
                double c = e->vinv[m * nb + j];
                v += phi[m] * c;
                for (size_t d = 0; grads && d < nd; d++)
                    g[d] += dphi[d * nb + m] * c;
            }
            if (vals)
                vals[a * nb + j] = v;
            for (size_t d = 0; grads && d < nd; d++)
                grads[(d * n + a) * nb + j] = g[d];
        }
    }
    free(phi);
    return FRX_OK;
}

int fr_element_basis_at(const fr_element *e, size_t n, const double *pts,
                        double *vals, double *grads)
{
    if (!e || (n && !pts))
        return frx_error(FRX_EINVAL, "fr_element_basis_at: no element or no points");
    return e->vinv ? simplex_at(e, n, pts, vals, grads)
                   : tensor_at(e, n, pts, vals, grads);
}
