/* SPDX-License-Identifier: BSD-3-Clause */
/* The geometry of a block of elements from their shape points:
 * physical points, |J|, the metric terms smats (PyFR's), quadrature
 * weights and the normals at the flux points.
 *
 * Metric terms come from the "metric shape": the element's own shape
 * where its order is at most max(p, 1), else its corners (PyFR's pseudo
 * grid points of order max(p, 1), which for shapes of order <= 2 are the
 * corners). Then in 2-D smats is the adjugate of the metric shape's
 * Jacobian, a polynomial the solution space holds, so a constant flux
 * has zero discrete divergence (free-stream preservation). In 3-D smats
 * is Kopriva's invariant curl form (J. Sci. Comput. 26(3), 2006, eq. 37)
 * at PyFR's pseudo grid points of order max(p, 1) (a lattice the shape
 * is sampled at), interpolated to the points by the lattice's tensor
 * Lagrange basis (on tetrahedra and prisms the equispaced lattice of
 * order max(p, 1) and its nodal basis in P_q, P_q x P_q; on pyramids
 * PyFR's lattice std_ele(q) and the pyramid's space of order q, whose
 * modes are polynomials, so the apex needs no care), as PyFR does: at
 * the shape's own 27 nodes a quadratic
 * interpolant of the curl terms (of higher degree) cost curved
 * hexahedra their order of accuracy at p >= 2. */
#include "fr-internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shape and metric-shape tables at the reference points. */
struct tables {
    const struct fr__shape *shape, *metric;
    size_t nsh, nm;
    double *ns_up, *ns_fp, *ns_vis; /* [npts][nsh] shape values */
    double *dm_up, *dm_fp, *dm_node; /* [npts][ndims][nm] metric grads */
    double *m_up, *m_fp;             /* [npts][nm] metric values (3-D) */
    double *mnodes;                  /* [nm][ndims] metric node coords */
    double *ns_mn;                   /* 3-D: [nm][nsh] shape at them */
    double *lvinv;                   /* tetrahedra: [nm][nm] the lattice's V^-1 */
    /* 3-D: dm_node's nonzeros, row by row (rows [nm][ndims]): on tensor
     * lattices p + 1 of each row's nm */
    size_t *dn_start, *dn_col;       /* [nm*3 + 1], [nonzeros] */
    double *dn_val;
};

static void tables_free(struct tables *t)
{
    free(t->ns_up);
    free(t->ns_fp);
    free(t->ns_vis);
    free(t->dm_up);
    free(t->dm_fp);
    free(t->dm_node);
    free(t->m_up);
    free(t->m_fp);
    free(t->mnodes);
    free(t->ns_mn);
    free(t->lvinv);
    free(t->dn_start);
    free(t->dn_col);
    free(t->dn_val);
}

/* dm_node's nonzeros (tables.dn_*), in each row's order. */
static int sparse_dm_node(struct tables *t)
{
    size_t rows = t->nm * 3, nz = 0;
    for (size_t i = 0; i < rows * t->nm; i++)
        nz += t->dm_node[i] != 0;
    t->dn_start = malloc((rows + 1) * sizeof *t->dn_start);
    t->dn_col = malloc((nz + 1) * sizeof *t->dn_col);
    t->dn_val = malloc((nz + 1) * sizeof *t->dn_val);
    if (!t->dn_start || !t->dn_col || !t->dn_val)
        return frx_error(FRX_ENOMEM, "fr_geometry_compute: no memory for shape tables");
    nz = 0;
    for (size_t r = 0; r < rows; r++) {
        t->dn_start[r] = nz;
        for (size_t k = 0; k < t->nm; k++)
            if (t->dm_node[r * t->nm + k] != 0) {
                t->dn_col[nz] = k;
                t->dn_val[nz++] = t->dm_node[r * t->nm + k];
            }
    }
    t->dn_start[rows] = nz;
    return FRX_OK;
}

/* 1-D Lagrange polynomial k of the q + 1 equispaced nodes of [-1, 1] at
 * x, and its derivative into *d. */
static double lagrange1(int q, int k, double x, double *d)
{
    double tk = -1 + 2.0 * k / q, v = 1, dv = 0;
    for (int i = 0; i <= q; i++) {
        if (i == k)
            continue;
        double ti = -1 + 2.0 * i / q, w = 1 / (tk - ti);
        dv = dv * (x - ti) * w + v * w; /* the product rule, a factor on */
        v *= (x - ti) * w;
    }
    *d = dv;
    return v;
}

/* 3-D: the pseudo grid of order q ((q+1)^3 nodes, x fastest) and its
 * tensor Lagrange basis at npts points: values [npts][nm] (n, or NULL)
 * and gradients [npts][3][nm] (dn). */
static void lattice_basis(int q, size_t npts, const double *pts, double *n,
                          double *dn)
{
    size_t q1 = (size_t)q + 1, nm = q1 * q1 * q1; /* q <= 7: FR_HEX_MAX_ORDER */
    for (size_t a = 0; a < npts; a++) {
        double l[3][8], dl[3][8];
        for (int d = 0; d < 3; d++)
            for (size_t k = 0; k < q1; k++)
                l[d][k] = lagrange1(q, (int)k, pts[a * 3 + d], &dl[d][k]);
        for (size_t m = 0; m < nm; m++) {
            size_t i = m % q1, j = m / q1 % q1, k = m / (q1 * q1);
            if (n)
                n[a * nm + m] = l[0][i] * l[1][j] * l[2][k];
            dn[(a * 3 + 0) * nm + m] = dl[0][i] * l[1][j] * l[2][k];
            dn[(a * 3 + 1) * nm + m] = l[0][i] * dl[1][j] * l[2][k];
            dn[(a * 3 + 2) * nm + m] = l[0][i] * l[1][j] * dl[2][k];
        }
    }
}

/* Tetrahedra, prisms and pyramids: the equispaced lattice of order q
 * ((q+1)(q+2)(q+3)/6, (q+1)^2(q+2)/2 or (q+1)(q+2)(2q+3)/6 nodes) into
 * nodes [nm][3]; its nodal basis in the element's space (P_q, P_q x P_q,
 * the pyramid's of order q) through the orthonormal basis, V^-1 into
 * t->lvinv. */
static int modal_lattice(int etype, int q, size_t nm, double *nodes, struct tables *t)
{
    size_t k = 0;
    if (etype == FR_PYR) /* PyFR's std_ele(q), the vis points' lattice */
        fr__vtk_points(FR_PYR, q, nodes);
    for (int c = 0; c <= q && etype != FR_PYR; c++)
        for (int b = 0; b <= q - (etype == FR_TET ? c : 0); b++)
            for (int a = 0; a <= q - b - (etype == FR_TET ? c : 0); a++, k++) {
                nodes[k * 3] = -1 + 2.0 * a / q;
                nodes[k * 3 + 1] = -1 + 2.0 * b / q;
                nodes[k * 3 + 2] = -1 + 2.0 * c / q;
            }
    double *v = malloc(nm * nm * sizeof *v);
    t->lvinv = malloc(nm * nm * sizeof *t->lvinv);
    if (!v || !t->lvinv) {
        free(v);
        return frx_error(FRX_ENOMEM, "fr_geometry_compute: no memory for the metric lattice");
    }
    for (size_t i = 0; i < nm; i++)
        fr__simplex_basis(etype, q, nodes + i * 3, v + i * nm, NULL);
    int rc = fr__inverse(nm, v, t->lvinv, "Vandermonde matrix of the metric lattice");
    free(v);
    return rc;
}

/* modal_lattice's nodal basis at npts points, as lattice_basis. */
static int modal_lattice_basis(const struct tables *t, int etype, int q, size_t npts,
                               const double *pts, double *n, double *dn)
{
    size_t nm = t->nm;
    double *phi = malloc(4 * nm * sizeof *phi);
    if (!phi)
        return frx_error(FRX_ENOMEM, "fr_geometry_compute: no memory for the metric lattice");
    double *grad = phi + nm;
    for (size_t a = 0; a < npts; a++) {
        fr__simplex_basis(etype, q, pts + a * 3, phi, grad);
        for (size_t j = 0; j < nm; j++) {
            double v = 0, g[3] = {0, 0, 0};
            for (size_t m = 0; m < nm; m++) {
                double c = t->lvinv[m * nm + j];
                v += phi[m] * c;
                for (size_t d = 0; d < 3; d++)
                    g[d] += grad[d * nm + m] * c;
            }
            if (n)
                n[a * nm + j] = v;
            for (size_t d = 0; d < 3; d++)
                dn[(a * 3 + d) * nm + j] = g[d];
        }
    }
    free(phi);
    return FRX_OK;
}

static int tables_make(const fr_element *e, struct tables *t)
{
    size_t nd = (size_t)e->ndims, nu = e->nupts, nf = e->nfpts;
    size_t nsh = t->nsh = fr__shape_nnodes(t->shape);
    int q = e->order > 1 ? e->order : 1; /* 3-D: the pseudo grid's order */
    size_t q1 = (size_t)q + 1;
    int et = e->etype, modal = et == FR_TET || et == FR_PRI || et == FR_PYR;
    size_t nm = t->nm = et == FR_TET   ? q1 * (q1 + 1) * (q1 + 2) / 6
                        : et == FR_PRI ? q1 * (q1 + 1) / 2 * q1
                        : et == FR_PYR ? q1 * (q1 + 1) * (2 * q1 + 1) / 6
                        : nd == 3      ? q1 * q1 * q1
                                       : fr__shape_nnodes(t->metric);
    t->ns_up = malloc(nu * nsh * sizeof(double));
    t->ns_fp = malloc(nf * nsh * sizeof(double));
    t->ns_vis = malloc(e->nvis * nsh * sizeof(double));
    t->dm_up = malloc(nu * nd * nm * sizeof(double));
    t->dm_fp = malloc(nf * nd * nm * sizeof(double));
    t->dm_node = malloc(nm * nd * nm * sizeof(double));
    t->m_up = malloc(nu * nm * sizeof(double));
    t->m_fp = malloc(nf * nm * sizeof(double));
    t->mnodes = malloc(nm * nd * sizeof(double));
    t->ns_mn = nd == 3 ? malloc(nm * nsh * sizeof(double)) : NULL;
    if (!t->ns_up || !t->ns_fp || !t->ns_vis || !t->dm_up || !t->dm_fp || !t->dm_node
        || !t->m_up || !t->m_fp || !t->mnodes || (nd == 3 && !t->ns_mn))
        return frx_error(FRX_ENOMEM, "fr_geometry_compute: no memory for shape tables");
    int rc;
    if (modal && (rc = modal_lattice(et, q, nm, t->mnodes, t)) < 0)
        return rc;
    for (size_t k = 0; k < nm && !modal; k++) {
        size_t idx[3] = {k % q1, k / q1 % q1, k / (q1 * q1)}; /* 3-D */
        for (size_t d = 0; d < nd; d++)
            t->mnodes[k * nd + d] = nd == 3 ? -1 + 2.0 * (double)idx[d] / q
                                            : fr__shape_node(t->metric, k)[d];
    }
    if ((rc = fr__shape_basis(t->shape, nu, e->upts, t->ns_up, NULL)) < 0
        || (rc = fr__shape_basis(t->shape, nf, e->fpts, t->ns_fp, NULL)) < 0
        || (rc = fr__shape_basis(t->shape, e->nvis, e->vis, t->ns_vis, NULL)) < 0)
        return rc;
    if (modal) {
        if ((rc = modal_lattice_basis(t, et, q, nu, e->upts, t->m_up, t->dm_up)) < 0
            || (rc = modal_lattice_basis(t, et, q, nf, e->fpts, t->m_fp, t->dm_fp)) < 0
            || (rc = modal_lattice_basis(t, et, q, nm, t->mnodes, NULL, t->dm_node)) < 0)
            return rc;
        return fr__shape_basis(t->shape, nm, t->mnodes, t->ns_mn, NULL) < 0
                   ? FRX_ESHAPE : FRX_OK;
    }
    if (nd == 3) {
        lattice_basis(q, nu, e->upts, t->m_up, t->dm_up);
        lattice_basis(q, nf, e->fpts, t->m_fp, t->dm_fp);
        lattice_basis(q, nm, t->mnodes, NULL, t->dm_node);
        return fr__shape_basis(t->shape, nm, t->mnodes, t->ns_mn, NULL) < 0
                   ? FRX_ESHAPE : FRX_OK;
    }
    if ((rc = fr__shape_basis(t->metric, nu, e->upts, t->m_up, t->dm_up)) < 0
        || (rc = fr__shape_basis(t->metric, nf, e->fpts, t->m_fp, t->dm_fp)) < 0
        || (rc = fr__shape_basis(t->metric, nm, t->mnodes, NULL, t->dm_node)) < 0)
        return rc;
    return FRX_OK;
}

/* out [npts][nd] = n [npts][nsh] x X [nsh][nd] */
static void interp(size_t npts, size_t nsh, size_t nd, const double *n, const double *x,
                   double *out)
{
    for (size_t a = 0; a < npts; a++)
        for (size_t d = 0; d < nd; d++) {
            double s = 0.0;
            for (size_t k = 0; k < nsh; k++)
                s += n[a * nsh + k] * x[k * nd + d];
            out[a * nd + d] = s;
        }
}

/* 2-D: smats (adjugate of J) and |J| from the metric gradients dm
 * [2][nm] at one point; J[r][c] = dx_r / dxi_c. */
static double metric_2d(size_t nm, const double *dm, const double *xm, double *sm)
{
    double j[2][2] = {{0, 0}, {0, 0}};
    for (size_t k = 0; k < nm; k++)
        for (size_t r = 0; r < 2; r++)
            for (size_t c = 0; c < 2; c++)
                j[r][c] += xm[k * 2 + r] * dm[c * nm + k];
    sm[0] = j[1][1];
    sm[1] = -j[0][1];
    sm[2] = -j[1][0];
    sm[3] = j[0][0];
    return j[0][0] * j[1][1] - j[0][1] * j[1][0];
}

static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* 3-D: Kopriva's smats and |J| at the metric nodes, [nm][10]: each
 * node's smats [3][3] then |J| (one row of 10, which the interpolation
 * to the points sums as whole vectors), by the derivatives' nonzeros
 * (t->dn_*). work holds 2 * nm * 9 doubles. */
static void metric_3d_nodes(const struct tables *t, const double *xm, double *sm,
                            double *work)
{
    size_t nm = t->nm;
    double *xd = work, *tt = work + nm * 9; /* [nm][c][3] */
    for (size_t a = 0; a < nm; a++)
        for (size_t c = 0; c < 3; c++) {
            double *v = xd + (a * 3 + c) * 3;
            v[0] = v[1] = v[2] = 0.0;
            for (size_t z = t->dn_start[a * 3 + c]; z < t->dn_start[a * 3 + c + 1]; z++)
                for (size_t r = 0; r < 3; r++)
                    v[r] += t->dn_val[z] * xm[t->dn_col[z] * 3 + r];
            cross(xm + a * 3, v, tt + (a * 3 + c) * 3); /* x cross x_c */
        }
    for (size_t a = 0; a < nm; a++) {
        double dtt[3][3][3] = {{{0}}}; /* [c][d][r] = d/dxi_d (x cross x_c) */
        for (size_t d = 0; d < 3; d++)
            for (size_t z = t->dn_start[a * 3 + d]; z < t->dn_start[a * 3 + d + 1]; z++) {
                double w = t->dn_val[z];
                size_t k = t->dn_col[z];
                for (size_t c = 0; c < 3; c++)
                    for (size_t r = 0; r < 3; r++)
                        dtt[c][d][r] += w * tt[(k * 3 + c) * 3 + r];
            }
        double *s = sm + a * 10;
        for (size_t r = 0; r < 3; r++) {
            s[0 * 3 + r] = 0.5 * (dtt[2][1][r] - dtt[1][2][r]);
            s[1 * 3 + r] = 0.5 * (dtt[0][2][r] - dtt[2][0][r]);
            s[2 * 3 + r] = 0.5 * (dtt[1][0][r] - dtt[0][1][r]);
        }
        const double *x0 = xd + a * 9; /* dx/dxi_0 */
        s[9] = x0[0] * s[0] + x0[1] * s[1] + x0[2] * s[2];
    }
}

/* 3-D: smats [9] and |J| (returned) at a point, from the metric nodes'
 * [nm][10] by the lattice's values there (m [nm]; most are zero at a
 * point on a face of a tensor lattice: skipped). */
static double metric_at(size_t nm, const double *m, const double *smn, double *sm)
{
    double acc[10] = {0};
    for (size_t a = 0; a < nm; a++) {
        double c = m[a];
        if (c == 0)
            continue;
        for (size_t k = 0; k < 10; k++)
            acc[k] += c * smn[a * 10 + k];
    }
    memcpy(sm, acc, 9 * sizeof *sm);
    return acc[9];
}

static int inverted(const fr_element *e, size_t el, const uint64_t *gid, const char *where,
                    size_t pt, const double *ref, const double *x, double dj)
{
    char gbuf[48] = "", rbuf[96], xbuf[128];
    if (gid)
        snprintf(gbuf, sizeof gbuf, " (global %" PRIu64 ")", gid[el]);
    if (e->ndims == 2) {
        snprintf(rbuf, sizeof rbuf, "(%g, %g)", ref[0], ref[1]);
        snprintf(xbuf, sizeof xbuf, "(%.17g, %.17g)", x[0], x[1]);
    } else {
        snprintf(rbuf, sizeof rbuf, "(%g, %g, %g)", ref[0], ref[1], ref[2]);
        snprintf(xbuf, sizeof xbuf, "(%.17g, %.17g, %.17g)", x[0], x[1], x[2]);
    }
    return frx_error(FRX_EINVAL,
                     "fr_geometry_compute: element %zu%s is inverted or degenerate: "
                     "|J| = %.6g at %s point %zu, reference %s, physical %s; give its "
                     "corners in Gmsh's order (counter-clockwise in 2-D) and keep "
                     "curved edges from folding the element",
                     el, gbuf, dj, where, pt, rbuf, xbuf);
}

static int alloc_geometry(fr_geometry *g)
{
    size_t ne = g->neles, nd = (size_t)g->ndims;
    g->xupts = malloc((ne * g->nupts * nd + 1) * sizeof(double));
    g->xfpts = malloc((ne * g->nfpts * nd + 1) * sizeof(double));
    g->xvis = malloc((ne * g->nvis * nd + 1) * sizeof(double));
    g->djac = malloc((ne * g->nupts + 1) * sizeof(double));
    g->rcpdjac = malloc((ne * g->nupts + 1) * sizeof(double));
    g->smats = malloc((ne * g->nupts * nd * nd + 1) * sizeof(double));
    g->qwts = malloc((ne * g->nupts + 1) * sizeof(double));
    g->pnorm = malloc((ne * g->nfpts * nd + 1) * sizeof(double));
    g->mag = malloc((ne * g->nfpts + 1) * sizeof(double));
    if (!g->xupts || !g->xfpts || !g->xvis || !g->djac || !g->rcpdjac || !g->smats
        || !g->qwts || !g->pnorm || !g->mag)
        return frx_error(FRX_ENOMEM,
                         "fr_geometry_compute: no memory for the geometry of %zu elements",
                         ne);
    return FRX_OK;
}

/* One element: X its shape points, sm/dj scratch for the metric terms
 * at the flux points (and the 3-D nodes). */
static int one_element(const fr_element *e, const struct tables *t, size_t el,
                       const double *x, const uint64_t *gid, fr_geometry *g, double *work)
{
    size_t nd = (size_t)e->ndims, nd2 = nd * nd, nu = e->nupts, nf = e->nfpts, nm = t->nm;
    double *xu = g->xupts + el * nu * nd, *xf = g->xfpts + el * nf * nd;
    interp(nu, t->nsh, nd, t->ns_up, x, xu);
    interp(nf, t->nsh, nd, t->ns_fp, x, xf);
    interp(e->nvis, t->nsh, nd, t->ns_vis, x, g->xvis + el * e->nvis * nd);

    /* the metric nodes: in 2-D the first nm shape points (corners
     * first); in 3-D the pseudo grid, where the shape puts it */
    double *smn = work, *scratch = work + nm * 10, smf[9];
    const double *xm = x;
    if (nd == 3) {
        double *at = scratch + 2 * nm * 9;
        interp(nm, t->nsh, 3, t->ns_mn, x, at);
        xm = at;
        metric_3d_nodes(t, xm, smn, scratch);
    }
    for (size_t a = 0; a < nm; a++) {
        double dj = nd == 2 ? metric_2d(nm, t->dm_node + a * 2 * nm, x, smf)
                            : smn[a * 10 + 9];
        if (!(dj > 0))
            return inverted(e, el, gid, nd == 3 ? "metric" : "shape", a,
                            t->mnodes + a * nd, xm + a * nd, dj);
    }
    for (size_t i = 0; i < nu; i++) {
        double *sm = g->smats + (el * nu + i) * nd2, dj;
        if (nd == 2) {
            dj = metric_2d(nm, t->dm_up + i * 2 * nm, x, sm);
        } else {
            dj = metric_at(nm, t->m_up + i * nm, smn, sm);
        }
        if (!(dj > 0))
            return inverted(e, el, gid, "solution", i, e->upts + i * nd, xu + i * nd, dj);
        g->djac[el * nu + i] = dj;
        g->rcpdjac[el * nu + i] = 1.0 / dj;
        g->qwts[el * nu + i] = e->uwts[i] * dj;
    }
    for (size_t f = 0; f < nf; f++) {
        double dj;
        if (nd == 2) {
            dj = metric_2d(nm, t->dm_fp + f * 2 * nm, x, smf);
        } else {
            dj = metric_at(nm, t->m_fp + f * nm, smn, smf);
        }
        /* physical normal: smats^T n_ref = |J| J^-T n_ref */
        const double *nr = e->norm_fpts + f * nd;
        double v[3] = {0, 0, 0}, mag = 0.0;
        for (size_t j = 0; j < nd; j++) {
            for (size_t i = 0; i < nd; i++)
                v[j] += smf[i * nd + j] * nr[i];
            mag += v[j] * v[j];
        }
        mag = sqrt(mag);
        if (!(dj > 0) || !(mag > 0))
            return inverted(e, el, gid, "flux", f, e->fpts + f * nd, xf + f * nd, dj);
        g->mag[el * nf + f] = mag;
        for (size_t j = 0; j < nd; j++)
            g->pnorm[(el * nf + f) * nd + j] = v[j] / mag;
    }
    return FRX_OK;
}

int fr_geometry_compute(const fr_element *e, size_t neles, size_t nshape, const double *shape,
                        const uint64_t *gid, fr_geometry *out)
{
    if (!out)
        return frx_error(FRX_EINVAL, "fr_geometry_compute: no output geometry");
    memset(out, 0, sizeof *out);
    if (!e || (neles && !shape))
        return frx_error(FRX_EINVAL, "fr_geometry_compute: no element or no shape points");
    struct tables t = {0};
    t.shape = fr__shape_find(e->etype, nshape);
    if (!t.shape)
        return frx_error(FRX_ESHAPE,
                         "fr_geometry_compute: %zu shape points per element; a %s takes %s "
                         "(Gmsh's linear and quadratic elements)",
                         nshape,
                         e->etype == FR_TRI ? "triangle" : e->etype == FR_QUAD ? "quadrilateral"
                                         : e->etype == FR_TET ? "tetrahedron"
                                         : e->etype == FR_PRI ? "prism"
                                         : e->etype == FR_PYR ? "pyramid" : "hexahedron",
                         e->etype == FR_TRI ? "3 or 6" : e->etype == FR_QUAD ? "4, 8 or 9"
                                         : e->etype == FR_TET ? "4 or 10"
                                         : e->etype == FR_PRI ? "6 or 18"
                                         : e->etype == FR_PYR ? "5 or 14" : "8 or 27");
    int mord = e->order > 1 ? e->order : 1;
    t.metric = fr__shape_order(t.shape) <= mord
                   ? t.shape
                   : fr__shape_find(e->etype, fr__reftype(e->etype)->ncorners);
    out->neles = neles;
    out->nupts = e->nupts;
    out->nfpts = e->nfpts;
    out->nvis = e->nvis;
    out->ndims = e->ndims;
    int rc = alloc_geometry(out);
    if (rc == FRX_OK)
        rc = tables_make(e, &t);
    if (rc == FRX_OK && e->ndims == 3)
        rc = sparse_dm_node(&t);
    /* one_element's work: the nodes' rows of 10 (smats, |J|), the
     * metric's scratch (2 x 9 a node) and the nodes' points (3 a node) */
    double *work = rc == FRX_OK ? malloc((t.nm * 10 + 2 * t.nm * 9 + t.nm * 3) *
                                         sizeof *work)
                                : NULL;
    if (rc == FRX_OK && !work)
        rc = frx_error(FRX_ENOMEM, "fr_geometry_compute: no memory");
    size_t nd = (size_t)e->ndims;
    for (size_t el = 0; rc == FRX_OK && el < neles; el++)
        rc = one_element(e, &t, el, shape + el * nshape * nd, gid, out, work);
    free(work);
    tables_free(&t);
    if (rc < 0)
        fr_geometry_free(out);
    return rc;
}

void fr_geometry_free(fr_geometry *g)
{
    if (!g)
        return;
    free(g->xupts);
    free(g->xfpts);
    free(g->xvis);
    free(g->djac);
    free(g->rcpdjac);
    free(g->smats);
    free(g->qwts);
    free(g->pnorm);
    free(g->mag);
    memset(g, 0, sizeof *g);
}

void fr_to_matrix_layout(const double *src, size_t neles, size_t nrow, size_t ncol,
                         double *dst)
{
    for (size_t el = 0; el < neles; el++)
        for (size_t r = 0; r < nrow; r++)
            for (size_t c = 0; c < ncol; c++)
                dst[(r * ncol + c) * neles + el] = src[(el * nrow + r) * ncol + c];
}
