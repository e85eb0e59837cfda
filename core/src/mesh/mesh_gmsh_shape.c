/* SPDX-License-Identifier: BSD-3-Clause */
/* Element geometry in Gmsh's node order, for the Gmsh source: the
 * Jacobian determinant of an element's shape map at its own shape
 * points (an inverted or tangled element has one that is not positive),
 * and the completion of Gmsh's incomplete (serendipity) quadratic
 * elements to the complete ones frx holds.
 *
 * Reference elements: triangle (0,0) (1,0) (0,1); tetrahedron (0,0,0)
 * (1,0,0) (0,1,0) (0,0,1); prism that triangle times [-1, 1] in z, as
 * Gmsh has them (the Jacobian's sign is that on frx's (-1,-1,-1) ...:
 * the two differ by a positive scaling); quadrilateral and hexahedron
 * [-1, 1]^d with Gmsh's corner order. Order-2 points are the means of
 * corner sets: edges, then (hexahedron, prism) quadrilateral faces,
 * then (quadrilateral, hexahedron) the centre. A prism's shape
 * functions are a triangle's times a line's. A pyramid's map is not
 * polynomial at its apex: it is checked at its base corners only, each
 * by the three edges from it (to its base neighbours and the apex),
 * their tangents there (order 1: the edges; order 2: the quadratic
 * through the edge's middle) right-handed.
 *
 * Completion is exact: the 8-node quadrilateral's map lies in the span
 * of the 9-node one's (and the 20-node hexahedron's in the 27-node
 * one's), so the missing points are the old map evaluated there:
 * a quadrilateral's centre is -1/4 of its corners plus 1/2 of its edge
 * points (so is each face of a hexahedron), a hexahedron's centre -1/4
 * of its corners plus 1/4 of its edge points. */
#include "mesh/gmsh-impl.h"

#include <string.h>

/* Gmsh's hexahedron edges, points 8..19. */
static const int hex_edges[12][2] = {{0, 1}, {0, 3}, {0, 4}, {1, 2},
                                     {1, 5}, {2, 3}, {2, 6}, {3, 7},
                                     {4, 5}, {4, 7}, {5, 6}, {6, 7}};

/* Gmsh's tetrahedron edges, points 4..9 (MTetrahedron::edges_tetra). */
static const int tet_edges[6][2] = {{0, 1}, {1, 2}, {2, 0},
                                    {3, 0}, {3, 2}, {3, 1}};

/* Gmsh's prism edges, points 6..14 (MPrism::edges_prism); its
 * quadrilateral faces 2, 3, 4 give points 15..17. */
static const int pri_edges[9][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 4},
                                    {2, 5}, {3, 4}, {3, 5}, {4, 5}};

static const double tri_corners[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
static const double tet_corners[4][3] = {
    {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
static const double pri_corners[6][3] = {
    {0, 0, -1}, {1, 0, -1}, {0, 1, -1}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
static const double hex_corners[8][3] = {
    {-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
    {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

static void mean_of(const double (*c)[3], const int *idx, int n, double *out)
{
    for (int d = 0; d < 3; d++) {
        out[d] = 0;
        for (int i = 0; i < n; i++)
            out[d] += c[idx[i]][d] / n;
    }
}

/* The reference points of an element's shape points; how many. */
static int ref_points(int etype, int order, double (*r)[3])
{
    const struct frx__etype_info *t = frx__etype(etype);
    const double(*c)[3] = etype == FRX_ETYPE_TRI ? tri_corners
                        : etype == FRX_ETYPE_TET ? tet_corners
                        : etype == FRX_ETYPE_PRI ? pri_corners : hex_corners;
    int n = 0;
    for (int i = 0; i < t->ncorners; i++)
        memcpy(r[n++], c[i], sizeof *r);
    if (order < 2)
        return n;
    if (t->ndims == 2) {
        for (int f = 0; f < t->nfaces; f++)
            mean_of(c, t->face[f], 2, r[n++]);
    } else if (etype == FRX_ETYPE_TET) {
        for (int e = 0; e < 6; e++)
            mean_of(c, tet_edges[e], 2, r[n++]);
        return n;
    } else if (etype == FRX_ETYPE_PRI) {
        for (int e = 0; e < 9; e++)
            mean_of(c, pri_edges[e], 2, r[n++]);
        for (int f = 2; f < t->nfaces; f++)
            mean_of(c, t->face[f], 4, r[n++]);
        return n;
    } else {
        for (int e = 0; e < 12; e++)
            mean_of(c, hex_edges[e], 2, r[n++]);
        for (int f = 0; f < t->nfaces; f++)
            mean_of(c, t->face[f], 4, r[n++]);
    }
    if (etype != FRX_ETYPE_TRI) {
        static const int all[8] = {0, 1, 2, 3, 4, 5, 6, 7};
        mean_of(c, all, t->ncorners, r[n++]);
    }
    return n;
}

/* 1-D Lagrange basis on {-1, 1} (order 1) or {-1, 0, 1} (order 2):
 * value and derivative of function i at x. */
static void lagrange(int order, int i, double x, double *v, double *dv)
{
    if (order == 1) {
        *v = i ? (1 + x) / 2 : (1 - x) / 2;
        *dv = i ? 0.5 : -0.5;
    } else if (i == 0) {
        *v = x * (x - 1) / 2;
        *dv = x - 0.5;
    } else if (i == 1) {
        *v = 1 - x * x;
        *dv = -2 * x;
    } else {
        *v = x * (x + 1) / 2;
        *dv = x + 0.5;
    }
}

/* Gradient of shape function n of a triangle or tetrahedron (nb
 * barycentric coordinates l, of gradients dl) at reference point p:
 * l_n of order 1; of order 2, l_n (2 l_n - 1) at the corners and
 * 4 l_a l_b at the middle of edge (a, b). */
static void grad_simplex(int nb, const int (*edges)[2], int order, int n,
                         const double *p, double *g)
{
    static const double dl[4][3] = {
        {-1, -1, -1}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double l[4] = {1, p[0], p[1], p[2]};
    for (int k = 1; k < nb; k++)
        l[0] -= p[k - 1];
    for (int k = 0; k < nb - 1; k++) {
        if (order == 1)
            g[k] = dl[n][k];
        else if (n < nb)
            g[k] = (4 * l[n] - 1) * dl[n][k];
        else {
            int a = edges[n - nb][0], b = edges[n - nb][1];
            g[k] = 4 * (l[a] * dl[b][k] + l[b] * dl[a][k]);
        }
    }
}

/* Value and gradient (in u, v) of a triangle's shape function n (the
 * 6-node one's numbering) at (u, v). */
static void tri_shape(int order, int n, double u, double v, double *val,
                      double *g)
{
    static const int mid[3][2] = {{0, 1}, {1, 2}, {2, 0}};
    static const double dl[3][2] = {{-1, -1}, {1, 0}, {0, 1}};
    double l[3] = {1 - u - v, u, v};
    if (order == 1) {
        *val = l[n];
        g[0] = dl[n][0];
        g[1] = dl[n][1];
    } else if (n < 3) {
        *val = l[n] * (2 * l[n] - 1);
        g[0] = (4 * l[n] - 1) * dl[n][0];
        g[1] = (4 * l[n] - 1) * dl[n][1];
    } else {
        int a = mid[n - 3][0], b = mid[n - 3][1];
        *val = 4 * l[a] * l[b];
        g[0] = 4 * (l[a] * dl[b][0] + l[b] * dl[a][0]);
        g[1] = 4 * (l[a] * dl[b][1] + l[b] * dl[a][1]);
    }
}

/* Gradient of a prism's shape function n at reference point p: the
 * function of the triangle's point at shape point n's (u, v) times the
 * line's of its w. */
static void grad_prism(int order, const double (*r)[3], int n,
                       const double *p, double *g)
{
    /* the 6-node triangle's points */
    static const double tri[6][2] = {{0, 0},   {1, 0},     {0, 1},
                                     {0.5, 0}, {0.5, 0.5}, {0, 0.5}};
    int k = 0, i = (int)((r[n][2] + 1) * order / 2 + 0.5);
    while (k < 5 && (tri[k][0] != r[n][0] || tri[k][1] != r[n][1]))
        k++;
    double t, dt[2], l, dl;
    tri_shape(order, k, p[0], p[1], &t, dt);
    lagrange(order, i, p[2], &l, &dl);
    g[0] = dt[0] * l;
    g[1] = dt[1] * l;
    g[2] = t * dl;
}

/* Gradient of shape function n at reference point p. */
static void grad(int etype, int order, const double (*r)[3], int n,
                 const double *p, double *g)
{
    static const int tri_edges[3][2] = {{0, 1}, {1, 2}, {2, 0}};
    if (etype == FRX_ETYPE_PRI) {
        grad_prism(order, r, n, p, g);
        return;
    }
    if (etype == FRX_ETYPE_TRI || etype == FRX_ETYPE_TET) {
        grad_simplex(etype == FRX_ETYPE_TRI ? 3 : 4,
                     etype == FRX_ETYPE_TRI ? tri_edges : tet_edges, order,
                     n, p, g);
        return;
    }
    int d = etype == FRX_ETYPE_QUAD ? 2 : 3;
    double v[3], dv[3];
    for (int k = 0; k < d; k++) {
        int i = (int)((r[n][k] + 1) * order / 2 + 0.5);
        lagrange(order, i, p[k], &v[k], &dv[k]);
    }
    for (int k = 0; k < d; k++) {
        g[k] = dv[k];
        for (int j = 0; j < d; j++)
            if (j != k)
                g[k] *= v[j];
    }
}

/* Gmsh's pyramid edges, points 5..12 (MPyramid::edges_pyramid). */
static const int pyr_edges[8][2] = {{0, 1}, {0, 3}, {0, 4}, {1, 2},
                                    {1, 4}, {2, 3}, {2, 4}, {3, 4}};

/* The tangent at corner a of its edge to corner b: b - a (order 1),
 * or 4 m - 3 a - b through the edge's middle m (order 2). */
static void pyr_tangent(int order, const double *x, int a, int b,
                        double *t)
{
    int m = 0;
    while (m < 7 && !((pyr_edges[m][0] == a && pyr_edges[m][1] == b) ||
                      (pyr_edges[m][0] == b && pyr_edges[m][1] == a)))
        m++;
    for (int d = 0; d < 3; d++)
        t[d] = order == 1 ? x[3 * b + d] - x[3 * a + d]
                          : 4 * x[3 * (5 + m) + d] - 3 * x[3 * a + d] -
                                x[3 * b + d];
}

static double pyr_min_jacobian(int order, const double *x, int *at)
{
    double best = 0;
    for (int i = 0; i < 4; i++) {
        double u[3][3];
        pyr_tangent(order, x, i, (i + 1) % 4, u[0]);
        pyr_tangent(order, x, i, (i + 3) % 4, u[1]);
        pyr_tangent(order, x, i, 4, u[2]);
        double det = u[0][0] * (u[1][1] * u[2][2] - u[1][2] * u[2][1]) -
                     u[0][1] * (u[1][0] * u[2][2] - u[1][2] * u[2][0]) +
                     u[0][2] * (u[1][0] * u[2][1] - u[1][1] * u[2][0]);
        if (i == 0 || det < best) {
            best = det;
            *at = i;
        }
    }
    return best;
}

double frx__gmsh_min_jacobian(int etype, int order, const double *x,
                              int ndims, int *at)
{
    if (etype == FRX_ETYPE_PYR)
        return pyr_min_jacobian(order, x, at);
    double r[27][3], best = 0;
    int n = ref_points(etype, order, r);
    for (int q = 0; q < n; q++) {
        double J[3][3] = {{0}};
        for (int s = 0; s < n; s++) {
            double g[3];
            grad(etype, order, r, s, r[q], g);
            for (int i = 0; i < ndims; i++)
                for (int k = 0; k < ndims; k++)
                    J[i][k] += x[s * ndims + i] * g[k];
        }
        double det = ndims == 2
            ? J[0][0] * J[1][1] - J[0][1] * J[1][0]
            : J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
              J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
              J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
        if (q == 0 || det < best) {
            best = det;
            *at = q;
        }
    }
    return best;
}

/* out = a * (sum of x[ia]) + b * (sum of x[ib]). */
static void combine(double *x, int ndims, int out, double a, const int *ia,
                    int na, double b, const int *ib, int nb)
{
    for (int d = 0; d < ndims; d++) {
        double s = 0, t = 0;
        for (int i = 0; i < na; i++)
            s += x[ia[i] * ndims + d];
        for (int i = 0; i < nb; i++)
            t += x[ib[i] * ndims + d];
        x[out * ndims + d] = a * s + b * t;
    }
}

void frx__gmsh_complete(int etype, double *x, int ndims)
{
    static const int corners[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    static const int qedges[4] = {4, 5, 6, 7};
    static const int hedges[12] = {8,  9,  10, 11, 12, 13,
                                   14, 15, 16, 17, 18, 19};
    if (etype == FRX_ETYPE_QUAD) {
        combine(x, ndims, 8, -0.25, corners, 4, 0.5, qedges, 4);
        return;
    }
    const struct frx__etype_info *t = frx__etype(FRX_ETYPE_HEX);
    for (int f = 0; f < 6; f++) {
        int fe[4], n = 0;
        for (int e = 0; e < 12; e++) {
            int in = 0;
            for (int k = 0; k < 4; k++)
                in += t->face[f][k] == hex_edges[e][0] ||
                      t->face[f][k] == hex_edges[e][1];
            if (in == 2)
                fe[n++] = 8 + e;
        }
        combine(x, ndims, 20 + f, -0.25, t->face[f], 4, 0.5, fe, 4);
    }
    combine(x, ndims, 26, -0.25, corners, 8, 0.25, hedges, 12);
}
