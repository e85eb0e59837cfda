/* SPDX-License-Identifier: BSD-3-Clause */
/* Reference elements: solution, flux and vis points, normals, and the
 * FR operators M0, M1, M2, M3, M132 = M1 - M3*M2, M4 and the vis
 * interpolation (PyFR's definitions; docs/fr.md). */
#include "fr-internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *etype_name(int etype)
{
    switch (etype) {
    case FR_TRI: return "triangle";
    case FR_QUAD: return "quadrilateral";
    case FR_TET: return "tetrahedron";
    case FR_HEX: return "hexahedron";
    case FR_PRI: return "prism";
    case FR_PYR: return "pyramid";
    default: return "unknown element type";
    }
}

static int check_order(int etype, int p)
{
    int lo = etype == FR_TRI ? FR_TRI_MIN_ORDER : etype == FR_TET ? FR_TET_MIN_ORDER
             : etype == FR_PRI ? FR_PRI_MIN_ORDER : etype == FR_PYR ? FR_PYR_MIN_ORDER : 0;
    int hi = etype == FR_TRI ? FR_TRI_MAX_ORDER
             : etype == FR_TET ? FR_TET_MAX_ORDER
             : etype == FR_PRI ? FR_PRI_MAX_ORDER
             : etype == FR_PYR ? FR_PYR_MAX_ORDER
             : etype == FR_QUAD ? FR_QUAD_MAX_ORDER
                                : FR_HEX_MAX_ORDER;
    if (p < lo || p > hi)
        return frx_error(FRX_ERANGE,
                         "fr_element_create: a %s of order %d is not "
                         "supported; choose an order in %d..%d",
                         etype_name(etype), p, lo, hi);
    return FRX_OK;
}

static double *alloc0(size_t n)
{
    return calloc(n ? n : 1, sizeof(double));
}

/* Gauss-Legendre tensor points (x fastest) and weights. */
static int tensor_upts(fr_element *e, const double *w1)
{
    size_t n1 = (size_t)e->order + 1, nd = (size_t)e->ndims;
    for (size_t i = 0; i < e->nupts; i++) {
        size_t id[3] = {i % n1, (i / n1) % n1, i / (n1 * n1)};
        e->uwts[i] = 1.0;
        for (size_t d = 0; d < nd; d++) {
            e->upts[i * nd + d] = e->gl[id[d]];
            e->uwts[i] *= w1[id[d]];
        }
    }
    return FRX_OK;
}

/* The pyramid's solution points, PyFR's gauss-legendre-n*-su.txt (built
 * here, not tabulated): layer k = 0..p at z_k, the (p+1)-point
 * Gauss-Legendre points, holds the tensor square of the (p+1-k)-point
 * ones scaled by (1-z_k)/2, row by row in y, x fastest. */
static int pyr_upts(fr_element *e)
{
    size_t n1 = (size_t)e->order + 1, i = 0;
    double g[FR_MAX_1D], w[FR_MAX_1D];
    for (size_t k = 0; k < n1; k++) {
        size_t m = n1 - k;
        int rc = fr_gauss_legendre(m, g, w);
        if (rc < 0)
            return rc;
        double z = e->gl[k], h = 0.5 * (1.0 - z);
        for (size_t b = 0; b < m; b++)
            for (size_t a = 0; a < m; a++, i++) {
                e->upts[3 * i] = h * g[a];
                e->upts[3 * i + 1] = h * g[b];
                e->upts[3 * i + 2] = z;
            }
    }
    return FRX_OK;
}

/* Simplices and prisms: Williams-Shunn (triangle), Shunn-Ham
 * (tetrahedron) or Williams-Shunn x Gauss-Legendre (prism, the triangle
 * fastest) points and weights, and the inverse Vandermonde matrix of
 * the orthonormal basis at them. Pyramids: pyr_upts, and weights that
 * integrate the space exactly: the nodal basis l_j = sum_m V^-1[m][j]
 * phi_m integrates to V^-1[0][j] / phi_0 (phi_0 the constant mode, the
 * others orthogonal to it). */
static int simplex_upts(fr_element *e, const double *w1)
{
    size_t n, nd = (size_t)e->ndims;
    int degree, rc;
    if (e->etype == FR_PYR) {
        n = e->nupts;
        if ((rc = pyr_upts(e)) < 0)
            return rc;
    } else if (e->etype == FR_PRI) {
        const double(*ws)[3];
        size_t nt, n1 = (size_t)e->order + 1;
        if ((rc = fr__ws_rule(e->order, &nt, &degree, &ws)) < 0)
            return rc;
        n = nt * n1;
        for (size_t i = 0; i < n; i++) {
            const double *t = ws[i % nt];
            e->upts[3 * i] = t[0];
            e->upts[3 * i + 1] = t[1];
            e->upts[3 * i + 2] = e->gl[i / nt];
            e->uwts[i] = t[2] * w1[i / nt];
        }
    } else if (e->etype == FR_TRI) {
        const double(*ws)[3];
        if ((rc = fr__ws_rule(e->order, &n, &degree, &ws)) < 0)
            return rc;
        for (size_t i = 0; i < n; i++) {
            e->upts[2 * i] = ws[i][0];
            e->upts[2 * i + 1] = ws[i][1];
            e->uwts[i] = ws[i][2];
        }
    } else {
        const double(*sh)[4];
        if ((rc = fr__sh_rule(e->order, &n, &degree, &sh)) < 0)
            return rc;
        for (size_t i = 0; i < n; i++) {
            for (size_t d = 0; d < 3; d++)
                e->upts[3 * i + d] = sh[i][d];
            e->uwts[i] = sh[i][3];
        }
    }
    double *v = malloc(n * n * sizeof *v);
    if (!v)
        return frx_error(FRX_ENOMEM, "fr: no memory for a Vandermonde matrix");
    for (size_t i = 0; i < n; i++)
        fr__simplex_basis(e->etype, e->order, e->upts + i * nd, v + i * n, NULL);
    char what[80];
    snprintf(what, sizeof what, "Vandermonde matrix of the %s's solution points",
             etype_name(e->etype));
    rc = fr__inverse(n, v, e->vinv, what);
    if (rc == FRX_OK && e->etype == FR_PYR) {
        double phi0 = v[0]; /* the constant mode, anywhere */
        for (size_t j = 0; j < n; j++)
            e->uwts[j] = e->vinv[j] / phi0;
    }
    free(v);
    return rc;
}

/* Flux points: on each face the Gauss-Legendre rule of order+1 points
 * (squared on quadrilateral faces), walked from the face's first corner;
 * on triangular faces the Williams-Shunn triangle rule (tw), whose
 * symmetry lets every rot pair the points. Points are written centre +
 * half-edge * t so that they are the 1-D points (or their negatives)
 * exactly. */
static void face_points(fr_element *e, const struct fr__reftype *rt,
                        const double *w1, const double (*tw)[3])
{
    size_t n1 = (size_t)e->order + 1, nd = (size_t)e->ndims;
    for (size_t f = 0; f < rt->nfaces; f++) {
        const int *fc = rt->faces[f];
        const double *c0 = rt->corners[fc[0]], *c1 = rt->corners[fc[1]];
        int tri = nd == 3 && rt->fnc[f] == 3;
        /* second direction of a 3-D face: towards its last corner */
        const double *c3 = nd == 3 ? rt->corners[fc[rt->fnc[f] - 1]] : c0;
        double h1[3], h3[3], mid[3], nrm[3];
        for (size_t d = 0; d < 3; d++) {
            h1[d] = 0.5 * (c1[d] - c0[d]);
            h3[d] = 0.5 * (c3[d] - c0[d]);
            mid[d] = c0[d] + h1[d] + h3[d];
        }
        double jac;
        if (nd == 2) { /* outward: the walk's direction turned clockwise */
            jac = hypot(h1[0], h1[1]);
            nrm[0] = h1[1] / jac;
            nrm[1] = -h1[0] / jac;
        } else {
            nrm[0] = h1[1] * h3[2] - h1[2] * h3[1];
            nrm[1] = h1[2] * h3[0] - h1[0] * h3[2];
            nrm[2] = h1[0] * h3[1] - h1[1] * h3[0];
            jac = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
            for (size_t d = 0; d < 3; d++)
                nrm[d] /= jac;
        }
        e->face_jac[f] = jac;
        for (size_t k = 0; k < e->face_nfp[f]; k++) {
            size_t i = k % n1, j = k / n1, fp = e->face_off[f] + k;
            double s = e->gl[i], t = nd == 3 ? e->gl[j] : 0.0;
            if (tri) {
                s = tw[k][0];
                t = tw[k][1];
            }
            for (size_t d = 0; d < nd; d++) {
                e->fpts[fp * nd + d] = mid[d] + h1[d] * s + h3[d] * t;
                e->unorm_fpts[fp * nd + d] = nrm[d];
                e->norm_fpts[fp * nd + d] = nrm[d] * jac;
            }
            e->fwts[fp] = tri ? tw[k][2] : w1[i] * (nd == 3 ? w1[j] : 1.0);
        }
    }
}

/* Barycentric coordinates of Williams-Shunn point (x, y). */
static void tri_bary(const double *p, double *l)
{
    l[1] = 0.5 * (1.0 + p[0]);
    l[2] = 0.5 * (1.0 + p[1]);
    l[0] = 1.0 - l[1] - l[2];
}

/* Triangular faces: the point the other side's face point k meets for
 * each rot. This side's corner i is the other side's corner
 * (rot - i) mod 3, so the point with barycentrics l here has
 * m_j = l_(rot - j) there. */
static int tri_facing(fr_element *e, const double (*tw)[3])
{
    size_t n = e->ntri;
    e->tri_facing = malloc(3 * n * sizeof *e->tri_facing);
    if (!e->tri_facing)
        return frx_error(FRX_ENOMEM, "fr: no memory for the face point pairs");
    for (int rot = 0; rot < 3; rot++)
        for (size_t k = 0; k < n; k++) {
            double l[3], m[3], q[3];
            tri_bary(tw[k], l);
            for (int j = 0; j < 3; j++)
                m[j] = l[(rot - j + 3) % 3];
            size_t hit = n;
            for (size_t k2 = 0; k2 < n && hit == n; k2++) {
                tri_bary(tw[k2], q);
                if (fabs(q[0] - m[0]) < 1e-9 && fabs(q[1] - m[1]) < 1e-9)
                    hit = k2;
            }
            if (hit == n)
                return frx_error(FRX_EINVAL,
                                 "fr_element_create: the triangle rule of order %d on a "
                                 "tetrahedron's faces is not symmetric (point %zu has no "
                                 "partner for rot %d)", e->order, k, rot);
            e->tri_facing[(size_t)rot * n + k] = hit;
        }
    return FRX_OK;
}

size_t fr_element_facing(const fr_element *e, size_t f, int rot, size_t k)
{
    size_t nfp = e->face_nfp[f];
    if (e->ndims == 2)
        return nfp - 1 - k;
    if (fr__reftype(e->etype)->fnc[f] == 3)
        return e->tri_facing[(size_t)rot * nfp + k];
    size_t n1 = (size_t)e->order + 1, p = n1 - 1;
    size_t i = k % n1, j = k / n1, ii, jj;
    switch (rot) {
    case 0: ii = j, jj = i; break;
    case 1: ii = p - i, jj = j; break;
    case 2: ii = p - j, jj = p - i; break;
    default: ii = i, jj = p - j; break;
    }
    return ii + n1 * jj;
}

/* Huynh's g_DG correction on tensor elements: a flux point on the face
 * normal to axis a (outward sign sg) corrects the solution points on its
 * line with sg * g'(xi_a), g the Radau polynomial of degree p+1 that is 1
 * on that face. */
static void tensor_m3(fr_element *e, double *m3)
{
    size_t nd = (size_t)e->ndims;
    for (size_t f = 0; f < e->nfpts; f++) {
        const double *nf = e->unorm_fpts + f * nd, *xf = e->fpts + f * nd;
        size_t a = 0;
        for (size_t d = 0; d < nd; d++)
            if (fabs(nf[d]) > 0.5)
                a = d;
        int sg = nf[a] > 0 ? 1 : -1;
        for (size_t i = 0; i < e->nupts; i++) {
            const double *xi = e->upts + i * nd;
            int online = 1;
            for (size_t d = 0; d < nd; d++)
                if (d != a && xi[d] != xf[d])
                    online = 0;
            m3[i * e->nfpts + f] =
                online ? sg * fr_gdg_deriv(e->order, sg, xi[a]) : 0.0;
        }
    }
}

/* The DG lifting on simplices (VCJH with c = 0): the correction field
 * of a jump j at flux point f is the polynomial L in P_p with
 * int L v = w_f j v(x_f) for all v in P_p; in the orthonormal basis
 * L = sum_m phi_m w_f phi_m(x_f). */
static int simplex_m3(fr_element *e, double *m3)
{
    size_t nb = e->nupts, nd = (size_t)e->ndims;
    double *pu = malloc((e->nupts + e->nfpts) * nb * sizeof *pu);
    if (!pu)
        return frx_error(FRX_ENOMEM, "fr: no memory for the correction");
    double *pf = pu + e->nupts * nb;
    for (size_t i = 0; i < e->nupts; i++)
        fr__simplex_basis(e->etype, e->order, e->upts + i * nd, pu + i * nb, NULL);
    for (size_t f = 0; f < e->nfpts; f++)
        fr__simplex_basis(e->etype, e->order, e->fpts + f * nd, pf + f * nb, NULL);
    for (size_t i = 0; i < e->nupts; i++)
        for (size_t f = 0; f < e->nfpts; f++) {
            double s = 0.0;
            for (size_t m = 0; m < nb; m++)
                s += pu[i * nb + m] * pf[f * nb + m];
            m3[i * e->nfpts + f] = e->fwts[f] * s;
        }
    free(pu);
    return FRX_OK;
}

/* Pyramids: PyFR's gbasis. The correction field of flux point f on
 * face F is L_f = sum_m phi_m S[f][m], S[f][m] the integral over F (in
 * its own parameters, as the face weights) of l_f phi_m, l_f the face's
 * nodal basis of its flux points (P_p on a triangle, Q_p on the base),
 * so int L_f v = int_F l_f v for every v of the space: the DG lifting.
 * A pyramid's modes restricted to a triangle are of degree up to 2p,
 * so S is computed with a collapsed Gauss-Legendre rule of 2p+2 points
 * a direction (exact to degree 4p+2; PyFR 1.15 uses a 36-point
 * Williams-Shunn rule of degree 12, exact to p = 4); on the base, the
 * (p+2)^2-point tensor rule (exact to 2p+3 in each variable). */
static int pyr_m3(fr_element *e, double *m3)
{
    size_t nb = e->nupts, n1 = (size_t)e->order + 1, nt = e->ntri;
    size_t nq = 2 * n1; /* points a direction of the face rules */
    double g[FR_MAX_1D], gw[FR_MAX_1D], gq[FR_MAX_1D], wq[FR_MAX_1D];
    double *s = calloc(e->nfpts * nb + nb + nt * nt * 2 + n1 * n1, sizeof *s);
    if (!s)
        return frx_error(FRX_ENOMEM, "fr: no memory for the correction");
    double *phi = s + e->nfpts * nb, *tv = phi + nb;
    double *tvinv = tv + nt * nt, *tl = tvinv + nt * nt; /* tl: a face's points */
    const double(*tw)[3];
    size_t ntw;
    int deg, rc;
    if ((rc = fr__ws_rule(e->order, &ntw, &deg, &tw)) < 0
        || (rc = fr_gauss_legendre(nq, gq, wq)) < 0 || (rc = fr_gauss_legendre(n1, g, gw)) < 0)
        goto out;
    /* the triangle's nodal basis of its Williams-Shunn points */
    for (size_t k = 0; k < nt; k++)
        fr__pkd(e->order, tw[k][0], tw[k][1], tv + k * nt, NULL, NULL);
    if ((rc = fr__inverse(nt, tv, tvinv, "Vandermonde matrix of a pyramid face's points")) < 0)
        goto out;
    const struct fr__reftype *rt = fr__reftype(FR_PYR);
    for (size_t f = 0; f < e->nfaces; f++) {
        const int *fc = rt->faces[f];
        int tri = rt->fnc[f] == 3;
        const double *c0 = rt->corners[fc[0]], *c1 = rt->corners[fc[1]];
        const double *c3 = rt->corners[fc[rt->fnc[f] - 1]];
        size_t nqf = tri ? nq * nq : (n1 + 1) * (n1 + 1), nfp = e->face_nfp[f];
        if (!tri && (rc = fr_gauss_legendre(n1 + 1, gq + nq, wq + nq)) < 0)
            goto out;
        for (size_t a = 0; a < nqf; a++) {
            double u, t, w;
            if (tri) { /* collapsed: u = (1+r)(1-t)/2 - 1 */
                double r = gq[a % nq];
                t = gq[a / nq];
                u = 0.5 * (1.0 + r) * (1.0 - t) - 1.0;
                w = wq[a % nq] * wq[a / nq] * 0.5 * (1.0 - t);
            } else {
                u = gq[nq + a % (n1 + 1)];
                t = gq[nq + a / (n1 + 1)];
                w = wq[nq + a % (n1 + 1)] * wq[nq + a / (n1 + 1)];
            }
            double x[3];
            for (size_t d = 0; d < 3; d++)
                x[d] = c0[d] + 0.5 * (1.0 + u) * (c1[d] - c0[d])
                       + 0.5 * (1.0 + t) * (c3[d] - c0[d]);
            fr__pyr_basis(e->order, x, phi, NULL);
            /* the face's nodal basis at (u, t) */
            if (tri) {
                double pk[64];
                fr__pkd(e->order, u, t, pk, NULL, NULL);
                for (size_t k = 0; k < nt; k++) {
                    tl[k] = 0.0;
                    for (size_t m = 0; m < nt; m++)
                        tl[k] += tvinv[m * nt + k] * pk[m];
                }
            } else {
                double lu[FR_MAX_1D], lt[FR_MAX_1D];
                if ((rc = fr_lagrange(n1, g, u, lu, NULL)) < 0
                    || (rc = fr_lagrange(n1, g, t, lt, NULL)) < 0)
                    goto out;
                for (size_t k = 0; k < nfp; k++)
                    tl[k] = lu[k % n1] * lt[k / n1];
            }
            for (size_t k = 0; k < nfp; k++) {
                double *row = s + (e->face_off[f] + k) * nb, c = w * tl[k];
                for (size_t m = 0; m < nb; m++)
                    row[m] += c * phi[m];
            }
        }
    }
    for (size_t i = 0; i < e->nupts; i++) {
        fr__pyr_basis(e->order, e->upts + 3 * i, phi, NULL);
        for (size_t f = 0; f < e->nfpts; f++) {
            double v = 0.0;
            for (size_t m = 0; m < nb; m++)
                v += phi[m] * s[f * nb + m];
            m3[i * e->nfpts + f] = v;
        }
    }
out:
    free(s);
    return rc;
}

static int set_op(fr_element *e, int op, size_t nrow, size_t ncol)
{
    e->op[op] = alloc0(nrow * ncol);
    e->nrow[op] = nrow;
    e->ncol[op] = ncol;
    return e->op[op] ? FRX_OK : frx_error(FRX_ENOMEM, "fr: no memory for an operator");
}

/* Entries that are zero but for round-off (below 1e-10 of the largest,
 * as PyFR's operators are cleaned) made exact zeros. Through a modal
 * basis a prism's operators come out full of them (its solution to flux
 * point operator at p = 4: 1275 true nonzeros of 7839), and a product
 * skips only exact zeros: without this a prism multiplies six times the
 * work it needs. The values dropped are ~1e-16 of the operator's. */
static void flush_roundoff(double *a, size_t n)
{
    double amax = 0;
    for (size_t i = 0; i < n; i++)
        amax = fmax(amax, fabs(a[i]));
    for (size_t i = 0; i < n; i++)
        if (fabs(a[i]) < 1e-10 * amax)
            a[i] = 0;
}

static int build_ops(fr_element *e)
{
    size_t nu = e->nupts, nf = e->nfpts, nd = (size_t)e->ndims, nv = e->nvis;
    int rc;
    if ((rc = set_op(e, FR_M0, nf, nu)) < 0 || (rc = set_op(e, FR_M1, nu, nd * nu)) < 0
        || (rc = set_op(e, FR_M2, nf, nd * nu)) < 0 || (rc = set_op(e, FR_M3, nu, nf)) < 0
        || (rc = set_op(e, FR_M132, nu, nd * nu)) < 0
        || (rc = set_op(e, FR_M4, nd * nu, nu)) < 0 || (rc = set_op(e, FR_MVIS, nv, nu)) < 0)
        return rc;
    double *g = malloc(nd * nu * nu * sizeof *g);
    if (!g)
        return frx_error(FRX_ENOMEM, "fr: no memory for the gradient");
    if ((rc = fr_element_basis_at(e, nf, e->fpts, e->op[FR_M0], NULL)) < 0
        || (rc = fr_element_basis_at(e, nv, e->vis, e->op[FR_MVIS], NULL)) < 0
        || (rc = fr_element_basis_at(e, nu, e->upts, NULL, g)) < 0) {
        free(g);
        return rc;
    }
    /* g is [ndims][nupts][nupts]: M4 is it as it stands; M1 puts the
     * dimension into the columns */
    memcpy(e->op[FR_M4], g, nd * nu * nu * sizeof *g);
    for (size_t d = 0; d < nd; d++)
        for (size_t i = 0; i < nu; i++)
            for (size_t j = 0; j < nu; j++)
                e->op[FR_M1][i * nd * nu + d * nu + j] = g[(d * nu + i) * nu + j];
    free(g);
    for (size_t f = 0; f < nf; f++)
        for (size_t d = 0; d < nd; d++)
            for (size_t j = 0; j < nu; j++)
                e->op[FR_M2][f * nd * nu + d * nu + j] =
                    e->norm_fpts[f * nd + d] * e->op[FR_M0][f * nu + j];
    if (e->etype == FR_PYR) {
        if ((rc = pyr_m3(e, e->op[FR_M3])) < 0)
            return rc;
    } else if (e->vinv) {
        if ((rc = simplex_m3(e, e->op[FR_M3])) < 0)
            return rc;
    } else {
        tensor_m3(e, e->op[FR_M3]);
    }
    double *m32 = e->op[FR_M132];
    fr__matmul(nu, nd * nu, nf, e->op[FR_M3], e->op[FR_M2], m32);
    for (size_t k = 0; k < nu * nd * nu; k++)
        m32[k] = e->op[FR_M1][k] - m32[k];
    for (int op = 0; op < FR_NOPS; op++)
        flush_roundoff(e->op[op], e->nrow[op] * e->ncol[op]);
    return FRX_OK;
}

int fr_element_create(int etype, int order, fr_element **out)
{
    const struct fr__reftype *rt = fr__reftype(etype);
    if (!out)
        return frx_error(FRX_EINVAL, "fr_element_create: no place for the element");
    *out = NULL;
    if (!rt)
        return frx_error(FRX_EINVAL,
                         "fr_element_create: element type %d is not one of "
                         "FR_TRI (1), FR_QUAD (2), FR_TET (3), FR_HEX (4), FR_PRI (5), "
                         "FR_PYR (6)",
                         etype);
    int rc = check_order(etype, order);
    if (rc < 0)
        return rc;
    fr_element *e = calloc(1, sizeof *e);
    if (!e)
        return frx_error(FRX_ENOMEM, "fr: no memory for an element");
    size_t n1 = (size_t)order + 1;
    double w1[FR_MAX_1D];
    e->etype = etype;
    e->order = order;
    e->ndims = rt->ndims;
    e->nfaces = rt->nfaces;
    /* a modal (orthonormal) basis and the DG lifting: not tensor */
    int simplex = etype == FR_TRI || etype == FR_TET || etype == FR_PRI || etype == FR_PYR;
    e->ntri = n1 * (n1 + 1) / 2;
    e->nupts = etype == FR_TRI ? e->ntri
               : etype == FR_TET ? n1 * (n1 + 1) * (n1 + 2) / 6
               : etype == FR_PRI ? e->ntri * n1
               : etype == FR_PYR ? n1 * (n1 + 1) * (2 * n1 + 1) / 6
               : etype == FR_QUAD ? n1 * n1 : n1 * n1 * n1;
    for (size_t f = 0; f < e->nfaces; f++) {
        e->face_nfp[f] = rt->ndims == 2 ? n1 : rt->fnc[f] == 3 ? e->ntri : n1 * n1;
        e->face_off[f + 1] = e->face_off[f] + e->face_nfp[f];
    }
    e->nfpts = e->face_off[e->nfaces];
    e->nfacefpts = etype == FR_PRI || etype == FR_PYR ? 0 : e->face_nfp[0];
    e->vis_order = order > 1 ? order : 1;
    e->nvis = fr__vtk_npts(etype, e->vis_order);
    e->vtk_type = etype == FR_TRI ? FR_VTK_LAGRANGE_TRIANGLE
                  : etype == FR_QUAD ? FR_VTK_LAGRANGE_QUADRILATERAL
                  : etype == FR_TET ? FR_VTK_LAGRANGE_TETRAHEDRON
                  : etype == FR_PRI ? FR_VTK_LAGRANGE_WEDGE
                  : etype == FR_PYR ? FR_VTK_PYRAMID
                                     : FR_VTK_LAGRANGE_HEXAHEDRON;
    size_t nd = (size_t)e->ndims;
    e->upts = alloc0(e->nupts * nd);
    e->uwts = alloc0(e->nupts);
    e->fpts = alloc0(e->nfpts * nd);
    e->fwts = alloc0(e->nfpts);
    e->norm_fpts = alloc0(e->nfpts * nd);
    e->unorm_fpts = alloc0(e->nfpts * nd);
    e->face_jac = alloc0(e->nfaces);
    e->vis = alloc0(e->nvis * nd);
    if (simplex)
        e->vinv = alloc0(e->nupts * e->nupts);
    if (!e->upts || !e->uwts || !e->fpts || !e->fwts || !e->norm_fpts || !e->unorm_fpts
        || !e->face_jac || !e->vis || (simplex && !e->vinv)) {
        fr_element_destroy(e);
        return frx_error(FRX_ENOMEM, "fr: no memory for an element");
    }
    const double(*tw)[3] = NULL; /* the triangular faces' rule */
    size_t ntw;
    int twdeg;
    if ((rc = fr_gauss_legendre(n1, e->gl, w1)) < 0
        || (rc = simplex ? simplex_upts(e, w1) : tensor_upts(e, w1)) < 0
        || ((etype == FR_TET || etype == FR_PRI || etype == FR_PYR)
            && (rc = fr__ws_rule(order, &ntw, &twdeg, &tw)) < 0)) {
        fr_element_destroy(e);
        return rc;
    }
    face_points(e, rt, w1, tw);
    if (tw && (rc = tri_facing(e, tw)) < 0) {
        fr_element_destroy(e);
        return rc;
    }
    fr__vtk_points(etype, e->vis_order, e->vis);
    if ((rc = build_ops(e)) < 0) {
        fr_element_destroy(e);
        return rc;
    }
    *out = e;
    return FRX_OK;
}

void fr_element_destroy(fr_element *e)
{
    if (!e)
        return;
    free(e->upts);
    free(e->uwts);
    free(e->fpts);
    free(e->fwts);
    free(e->norm_fpts);
    free(e->unorm_fpts);
    free(e->face_jac);
    free(e->vis);
    free(e->vinv);
    free(e->tri_facing);
    for (int i = 0; i < FR_NOPS; i++)
        free(e->op[i]);
    free(e);
}

/* ------------------------------------------------------------ accessors */

int fr_element_etype(const fr_element *e) { return e->etype; }
int fr_element_order(const fr_element *e) { return e->order; }
int fr_element_ndims(const fr_element *e) { return e->ndims; }
size_t fr_element_nupts(const fr_element *e) { return e->nupts; }
size_t fr_element_nfpts(const fr_element *e) { return e->nfpts; }
size_t fr_element_nfaces(const fr_element *e) { return e->nfaces; }
size_t fr_element_nfacefpts(const fr_element *e) { return e->nfacefpts; }
size_t fr_element_face_nfpts(const fr_element *e, size_t f) { return f < e->nfaces ? e->face_nfp[f] : 0; }
size_t fr_element_face_fpt0(const fr_element *e, size_t f) { return f < e->nfaces ? e->face_off[f] : 0; }
size_t fr_element_nvis(const fr_element *e) { return e->nvis; }
int fr_element_vtk_type(const fr_element *e) { return e->vtk_type; }
int fr_element_vis_order(const fr_element *e) { return e->vis_order; }
const double *fr_element_upts(const fr_element *e) { return e->upts; }
const double *fr_element_upts_weights(const fr_element *e) { return e->uwts; }
const double *fr_element_fpts(const fr_element *e) { return e->fpts; }
const double *fr_element_fpts_weights(const fr_element *e) { return e->fwts; }
const double *fr_element_norm_fpts(const fr_element *e) { return e->norm_fpts; }
const double *fr_element_unorm_fpts(const fr_element *e) { return e->unorm_fpts; }
const double *fr_element_face_jac(const fr_element *e) { return e->face_jac; }
const double *fr_element_vis_pts(const fr_element *e) { return e->vis; }

const double *fr_element_op(const fr_element *e, int op, size_t *nrow, size_t *ncol)
{
    if (op < 0 || op >= FR_NOPS) {
        frx_error(FRX_EINVAL, "fr_element_op: operator %d is not one of enum fr_op", op);
        return NULL;
    }
    if (nrow)
        *nrow = e->nrow[op];
    if (ncol)
        *ncol = e->ncol[op];
    return e->op[op];
}
