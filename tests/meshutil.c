/* SPDX-License-Identifier: BSD-3-Clause */
/* Geometry of a rank's mesh part for the mesh tests. */
#include "meshutil.h"

#include <math.h>
#include <string.h>

int mu_face_corners(int etype, int f, int *corners)
{
    static const int tri[3][2] = {{0, 1}, {1, 2}, {2, 0}};
    static const int quad[4][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
    static const int tet[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2},
                                  {3, 1, 2}};
    static const int hex[6][4] = {{0, 3, 2, 1}, {0, 1, 5, 4}, {0, 4, 7, 3},
                                  {1, 2, 6, 5}, {2, 3, 7, 6}, {4, 5, 6, 7}};
    static const int pri[5][4] = {{0, 2, 1}, {3, 4, 5}, {0, 1, 4, 3},
                                  {0, 3, 5, 2}, {1, 2, 5, 4}};
    static const int pyr[5][4] = {{0, 1, 4}, {3, 0, 4}, {1, 2, 4},
                                  {2, 3, 4}, {0, 3, 2, 1}};
    switch (etype) {
    case FRX_ETYPE_TRI:
        memcpy(corners, tri[f], sizeof tri[f]);
        return 2;
    case FRX_ETYPE_QUAD:
        memcpy(corners, quad[f], sizeof quad[f]);
        return 2;
    case FRX_ETYPE_TET:
        memcpy(corners, tet[f], sizeof tet[f]);
        return 3;
    case FRX_ETYPE_HEX:
        memcpy(corners, hex[f], sizeof hex[f]);
        return 4;
    case FRX_ETYPE_PRI:
        memcpy(corners, pri[f], sizeof pri[f]);
        return f < 2 ? 3 : 4;
    case FRX_ETYPE_PYR:
        memcpy(corners, pyr[f], sizeof pyr[f]);
        return f < 4 ? 3 : 4;
    default:
        return 0;
    }
}

static frx_mesh_block block(const frx_mesh *m, uint32_t blk)
{
    frx_mesh_block b = {.size = sizeof b};
    frx_mesh_get_block(m, blk, &b);
    return b;
}

static int ndims(const frx_mesh *m)
{
    frx_mesh_info info = {.size = sizeof info};
    frx_mesh_get_info(m, &info);
    return info.ndims;
}

const double *mu_shape_point(const frx_mesh *m, uint32_t blk, uint32_t ele,
                             size_t i)
{
    frx_mesh_block b = block(m, blk);
    return b.shape + ((size_t)ele * b.nshape + i) * (size_t)ndims(m);
}

int mu_face_ncorners(const frx_mesh *m, frx_face s)
{
    int c[4];
    return mu_face_corners(block(m, s.blk).etype, s.face, c);
}

void mu_face_corner(const frx_mesh *m, frx_face s, int i, double *x)
{
    int c[4];
    mu_face_corners(block(m, s.blk).etype, s.face, c);
    memcpy(x, mu_shape_point(m, s.blk, s.ele, (size_t)c[i]),
           (size_t)ndims(m) * sizeof *x);
}

void mu_face_mid(const frx_mesh *m, frx_face s, double *x)
{
    int n = mu_face_ncorners(m, s), d = ndims(m);
    double y[3];
    memset(x, 0, 3 * sizeof *x);
    for (int i = 0; i < n; i++) {
        mu_face_corner(m, s, i, y);
        for (int k = 0; k < d; k++)
            x[k] += y[k] / n;
    }
}

uint64_t mu_gid(const frx_mesh *m, frx_face s)
{
    return block(m, s.blk).gid[s.ele];
}

static double det3(const double (*u)[3])
{
    return u[0][0] * (u[1][1] * u[2][2] - u[1][2] * u[2][1]) -
           u[0][1] * (u[1][0] * u[2][2] - u[1][2] * u[2][0]) +
           u[0][2] * (u[1][0] * u[2][1] - u[1][1] * u[2][0]);
}

/* 6 times the signed volume of the tetrahedron of corners c of an
 * element: (x1 - x0, x2 - x0, x3 - x0). */
static double volume6(const frx_mesh *m, uint32_t blk, uint32_t ele,
                      const int *c)
{
    const double *x0 = mu_shape_point(m, blk, ele, (size_t)c[0]);
    double u[3][3];
    for (int k = 0; k < 3; k++)
        for (int d = 0; d < 3; d++)
            u[k][d] = mu_shape_point(m, blk, ele, (size_t)c[k + 1])[d] -
                      x0[d];
    return det3((const double(*)[3])u);
}

/* Right-handed as the reference corners (-1,-1,-1) (1,-1,-1) (-1,1,-1)
 * (-1,-1,1) are. */
double mu_tet_volume6(const frx_mesh *m, uint32_t blk, uint32_t ele)
{
    static const int c[4] = {0, 1, 2, 3};
    return volume6(m, blk, ele, c);
}

double mu_volume(const frx_mesh *m, uint32_t blk, uint32_t ele)
{
    /* each type cut into right-handed tetrahedra: a prism into three
     * (the staircase 0123, 1234, 2345), a pyramid into two by its base's
     * diagonal 0-2, a hexahedron into six around its diagonal 0-6 */
    static const int tet[1][4] = {{0, 1, 2, 3}};
    static const int pri[3][4] = {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}};
    static const int pyr[2][4] = {{0, 1, 2, 4}, {0, 2, 3, 4}};
    static const int hex[6][4] = {{0, 1, 2, 6}, {0, 5, 1, 6}, {0, 2, 3, 6},
                                  {0, 3, 7, 6}, {0, 4, 5, 6}, {0, 7, 4, 6}};
    int et = block(m, blk).etype;
    const int(*c)[4] = et == FRX_ETYPE_TET ? tet : et == FRX_ETYPE_PRI ? pri
                     : et == FRX_ETYPE_PYR ? pyr : hex;
    int n = et == FRX_ETYPE_TET ? 1 : et == FRX_ETYPE_PRI ? 3
          : et == FRX_ETYPE_PYR ? 2 : 6;
    double v = 0;
    for (int i = 0; i < n; i++)
        v += volume6(m, blk, ele, c[i]) / 6;
    return v;
}

/* Corners of an element type; 0 for one the tests do not know. */
static int ncorners(int etype)
{
    static const int n[] = {[FRX_ETYPE_TRI] = 3, [FRX_ETYPE_QUAD] = 4,
                            [FRX_ETYPE_TET] = 4, [FRX_ETYPE_HEX] = 8,
                            [FRX_ETYPE_PRI] = 6, [FRX_ETYPE_PYR] = 5};
    return etype > 0 && etype <= FRX_ETYPE_PYR ? n[etype] : 0;
}

double mu_orientation(const frx_mesh *m, uint32_t blk, uint32_t ele)
{
    static const int hexnb[8][3] = {{1, 3, 4}, {2, 0, 5}, {3, 1, 6},
                                    {0, 2, 7}, {7, 5, 0}, {4, 6, 1},
                                    {5, 7, 2}, {6, 4, 3}};
    /* a prism's corners: the edges from each, right-handed as from
     * corner 0 (along 0-1, 0-2, 0-3) */
    static const int prinb[6][3] = {{1, 2, 3}, {2, 0, 4}, {0, 1, 5},
                                    {5, 4, 0}, {3, 5, 1}, {4, 3, 2}};
    /* a pyramid's base corners: their base neighbours and the apex (not
     * the apex itself, where the map is degenerate) */
    static const int pyrnb[4][3] = {{1, 3, 4}, {2, 0, 4}, {3, 1, 4},
                                    {0, 2, 4}};
    frx_mesh_block b = block(m, blk);
    if (b.etype == FRX_ETYPE_TET)
        return mu_tet_volume6(m, blk, ele);
    double worst = INFINITY;
    int nc = ncorners(b.etype);
    if (!nc)
        return -1; /* a type the tests do not know: fail */
    const int(*nb)[3] = nc == 6 ? prinb : nc == 5 ? pyrnb : hexnb;
    for (int i = 0; i < (nc == 5 ? 4 : nc); i++) {
        const double *x = mu_shape_point(m, blk, ele, (size_t)i);
        double v;
        if (nc <= 4) {
            const double *a = mu_shape_point(m, blk, ele, (size_t)(i + 1) % nc);
            const double *p = mu_shape_point(m, blk, ele,
                                             (size_t)(i + nc - 1) % nc);
            v = (a[0] - x[0]) * (p[1] - x[1]) - (a[1] - x[1]) * (p[0] - x[0]);
        } else {
            double u[3][3];
            for (int k = 0; k < 3; k++)
                for (int d = 0; d < 3; d++)
                    u[k][d] = mu_shape_point(m, blk, ele,
                                             (size_t)nb[i][k])[d] - x[d];
            v = det3((const double(*)[3])u);
        }
        worst = fmin(worst, v);
    }
    return worst;
}

double mu_dist(const double *a, const double *b, const double *shift,
               int nd)
{
    double d = 0;
    for (int k = 0; k < nd; k++)
        d = fmax(d, fabs(a[k] - b[k] - (shift ? shift[k] : 0)));
    return d;
}

double mu_face_outward(const frx_mesh *m, frx_face s)
{
    frx_mesh_block b = block(m, s.blk);
    int c[4], n = mu_face_corners(b.etype, s.face, c), nc = 0;
    double p[4][3], mid[3] = {0, 0, 0}, centre[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        memcpy(p[i], mu_shape_point(m, s.blk, s.ele, (size_t)c[i]),
               sizeof p[i]);
        for (int d = 0; d < 3; d++)
            mid[d] += p[i][d] / n;
    }
    nc = ncorners(b.etype);
    for (int i = 0; i < nc; i++)
        for (int d = 0; d < 3; d++)
            centre[d] += mu_shape_point(m, s.blk, s.ele, (size_t)i)[d] / nc;
    /* (c1 - c0) x (c[n-1] - c0): outward when the corners turn
     * counter-clockwise seen from outside */
    double a[3], e[3], nrm[3], dot = 0;
    for (int d = 0; d < 3; d++) {
        a[d] = p[1][d] - p[0][d];
        e[d] = p[n - 1][d] - p[0][d];
    }
    nrm[0] = a[1] * e[2] - a[2] * e[1];
    nrm[1] = a[2] * e[0] - a[0] * e[2];
    nrm[2] = a[0] * e[1] - a[1] * e[0];
    for (int d = 0; d < 3; d++)
        dot += nrm[d] * (mid[d] - centre[d]);
    return dot;
}
