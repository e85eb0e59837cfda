/* SPDX-License-Identifier: BSD-3-Clause */
/* The field of a picture, drawn element by element from the solver's
 * output points: a Lagrange cell of order q (the points VTK's Lagrange
 * quadrilateral or triangle has, in its order) holds the polynomial of
 * degree q that the solver's solution is inside the element; each pixel
 * gets that polynomial's value at its own reference coordinates, not an
 * average of nearby points. */
#include "io/picture.h"

#include <frx/mesh.h>

#include <math.h>
#include <stdlib.h>

#define MAX_ORDER 16

int frx__pic_order(int etype, size_t nvis)
{
    for (int q = 1; q <= MAX_ORDER; q++) {
        size_t n = etype == FRX_ETYPE_QUAD ? (size_t)(q + 1) * (q + 1)
                                           : (size_t)(q + 1) * (q + 2) / 2;
        if (n == nvis)
            return q;
    }
    return 0;
}

/* ------------------------------------------- the points' integer places */

/* Quadrilateral node (i, j), 0 <= i, j <= q, in VTK's order: corners,
 * the edges (the third runs along +x, from corner 3 to 2), then the
 * interior, x fastest. */
static void quad_nodes(int q, int (*ij)[2])
{
    int n = 0;
    static const int corner[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (int c = 0; c < 4; c++, n++)
        ij[n][0] = corner[c][0] * q, ij[n][1] = corner[c][1] * q;
    for (int k = 1; k < q; k++, n++) /* edge 0: y = 0 */
        ij[n][0] = k, ij[n][1] = 0;
    for (int k = 1; k < q; k++, n++) /* edge 1: x = q */
        ij[n][0] = q, ij[n][1] = k;
    for (int k = 1; k < q; k++, n++) /* edge 2: y = q, along +x */
        ij[n][0] = k, ij[n][1] = q;
    for (int k = 1; k < q; k++, n++) /* edge 3: x = 0, along +y */
        ij[n][0] = 0, ij[n][1] = k;
    for (int j = 1; j < q; j++)
        for (int i = 1; i < q; i++, n++)
            ij[n][0] = i, ij[n][1] = j;
}

/* Triangle node (i, j), i + j <= q (i along corner 0 -> 1, j along
 * 0 -> 2), in VTK's order: corners, edges 0->1, 1->2, 2->0, then the
 * interior as a triangle of order q - 3, recursively. */
static int tri_nodes(int q, int off, int (*ij)[2], int n)
{
    if (q < 0)
        return n;
    if (q == 0) {
        ij[n][0] = ij[n][1] = off;
        return n + 1;
    }
    ij[n][0] = off, ij[n++][1] = off;
    ij[n][0] = off + q, ij[n++][1] = off;
    ij[n][0] = off, ij[n++][1] = off + q;
    for (int k = 1; k < q; k++, n++)
        ij[n][0] = off + k, ij[n][1] = off;
    for (int k = 1; k < q; k++, n++)
        ij[n][0] = off + q - k, ij[n][1] = off + k;
    for (int k = 1; k < q; k++, n++)
        ij[n][0] = off, ij[n][1] = off + q - k;
    return tri_nodes(q - 3, off + 1, ij, n);
}

/* ----------------------------------------------------- the polynomial */

struct cell {
    int etype, q;
    size_t n;
    int (*ij)[2];
};

/* The n basis functions at reference point (u, w): on the unit square
 * (quadrilaterals), or barycentric (u, w, 1 - u - w) on triangles. */
static void basis(const struct cell *c, double u, double w, double *b)
{
    int q = c->q;
    double lu[MAX_ORDER + 1], lw[MAX_ORDER + 1], l0[MAX_ORDER + 1];
    if (c->etype == FRX_ETYPE_QUAD) {
        /* 1-D Lagrange polynomials of the points k/q */
        for (int k = 0; k <= q; k++) {
            lu[k] = lw[k] = 1;
            for (int m = 0; m <= q; m++)
                if (m != k) {
                    lu[k] *= (q * u - m) / (k - m);
                    lw[k] *= (q * w - m) / (k - m);
                }
        }
        for (size_t i = 0; i < c->n; i++)
            b[i] = lu[c->ij[i][0]] * lw[c->ij[i][1]];
        return;
    }
    /* f_m(l) = prod_{k < m} (q l - k)/(m - k), of each coordinate */
    double bary[3] = {1 - u - w, u, w}, *f[3] = {l0, lu, lw};
    for (int a = 0; a < 3; a++) {
        f[a][0] = 1;
        for (int m = 1; m <= q; m++)
            f[a][m] = f[a][m - 1] * (q * bary[a] - (m - 1)) / m;
    }
    for (size_t i = 0; i < c->n; i++) {
        int ii = c->ij[i][0], jj = c->ij[i][1];
        b[i] = l0[q - ii - jj] * lu[ii] * lw[jj];
    }
}

static double dot(const double *b, const double *v, size_t n, size_t stride)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += b[i] * v[i * stride];
    return s;
}

/* ---------------------------------------------------------- raster */

/* A sub-triangle: pixel coordinates X, Y and reference u, w at its
 * corners. */
struct corner {
    double X, Y, u, w;
};

static void fill(struct frx__raster *r, const struct cell *c,
                 const double *v, const struct corner *k, double *b)
{
    double area = (k[1].X - k[0].X) * (k[2].Y - k[0].Y) -
                  (k[2].X - k[0].X) * (k[1].Y - k[0].Y);
    if (!(fabs(area) > 1e-12))
        return;
    double xmin = fmin(k[0].X, fmin(k[1].X, k[2].X));
    double xmax = fmax(k[0].X, fmax(k[1].X, k[2].X));
    double ymin = fmin(k[0].Y, fmin(k[1].Y, k[2].Y));
    double ymax = fmax(k[0].Y, fmax(k[1].Y, k[2].Y));
    int i0 = (int)fmax(0, floor(xmin - 0.5)), i1 = (int)fmin(r->w - 1,
                                                              ceil(xmax));
    int j0 = (int)fmax(0, floor(ymin - 0.5)), j1 = (int)fmin(r->h - 1,
                                                              ceil(ymax));
    const double eps = -1e-9;
    for (int j = j0; j <= j1; j++)
        for (int i = i0; i <= i1; i++) {
            double X = i + 0.5, Y = j + 0.5, l[3];
            for (int e = 0; e < 3; e++) {
                const struct corner *p = &k[(e + 1) % 3], *q = &k[(e + 2) % 3];
                l[e] = ((q->X - p->X) * (Y - p->Y) -
                        (X - p->X) * (q->Y - p->Y)) / area;
            }
            if (l[0] < eps || l[1] < eps || l[2] < eps)
                continue;
            double u = l[0] * k[0].u + l[1] * k[1].u + l[2] * k[2].u;
            double w = l[0] * k[0].w + l[1] * k[1].w + l[2] * k[2].w;
            basis(c, u, w, b);
            r->val[(size_t)j * (size_t)r->w + (size_t)i] = dot(b, v, c->n, 1);
        }
}

void frx__raster_element(struct frx__raster *r, int etype, int q,
                         const double *xy, const double *v)
{
    int quad = etype == FRX_ETYPE_QUAD;
    size_t n = quad ? (size_t)(q + 1) * (q + 1)
                    : (size_t)(q + 1) * (q + 2) / 2;
    int ij[(MAX_ORDER + 1) * (MAX_ORDER + 1)][2];
    double b[(MAX_ORDER + 1) * (MAX_ORDER + 1)];
    if (q < 1 || q > MAX_ORDER)
        return;
    if (quad)
        quad_nodes(q, ij);
    else
        tri_nodes(q, 0, ij, 0);
    struct cell c = {etype, q, n, ij};
    /* pixel coordinates of the points, and the element's size in pixels */
    double sx = r->w / (r->x1 - r->x0), sy = r->h / (r->y1 - r->y0);
    double X0 = HUGE_VAL, X1 = -HUGE_VAL, Y0 = HUGE_VAL, Y1 = -HUGE_VAL;
    for (size_t i = 0; i < n; i++) {
        double X = (xy[2 * i] - r->x0) * sx, Y = (r->y1 - xy[2 * i + 1]) * sy;
        X0 = fmin(X0, X), X1 = fmax(X1, X), Y0 = fmin(Y0, Y), Y1 = fmax(Y1, Y);
    }
    if (X1 < 0 || Y1 < 0 || X0 > r->w || Y0 > r->h)
        return;
    /* sub-cells of about 3 pixels, at least q a side */
    int m = (int)ceil(fmax(X1 - X0, Y1 - Y0) / 3);
    m = m < q ? q : m > 64 ? 64 : m;
    struct corner *g = malloc((size_t)(m + 1) * (m + 1) * sizeof *g);
    if (!g)
        return; /* the element stays blank */
    for (int bj = 0; bj <= m; bj++)
        for (int ai = 0; ai <= m; ai++) {
            struct corner *p = &g[bj * (m + 1) + ai];
            p->u = (double)ai / m, p->w = (double)bj / m;
            if (!quad && ai + bj > m)
                continue;
            basis(&c, p->u, p->w, b);
            p->X = (dot(b, xy, n, 2) - r->x0) * sx;
            p->Y = (r->y1 - dot(b, xy + 1, n, 2)) * sy;
        }
    for (int bj = 0; bj < m; bj++)
        for (int ai = 0; ai < m; ai++) {
            const struct corner *p00 = &g[bj * (m + 1) + ai];
            const struct corner *p10 = p00 + 1, *p01 = p00 + m + 1;
            const struct corner *p11 = p01 + 1;
            if (quad) {
                struct corner t1[3] = {*p00, *p10, *p11};
                struct corner t2[3] = {*p00, *p11, *p01};
                fill(r, &c, v, t1, b);
                fill(r, &c, v, t2, b);
                continue;
            }
            if (ai + bj >= m)
                continue;
            struct corner t1[3] = {*p00, *p10, *p01};
            fill(r, &c, v, t1, b);
            if (ai + bj + 1 < m) {
                struct corner t2[3] = {*p10, *p11, *p01};
                fill(r, &c, v, t2, b);
            }
        }
    free(g);
}
