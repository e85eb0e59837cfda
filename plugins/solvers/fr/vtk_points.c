/* SPDX-License-Identifier: BSD-3-Clause */
/* The points of VTK's Lagrange cells (VTK_LAGRANGE_TRIANGLE,
 * _QUADRILATERAL, _TETRAHEDRON, _HEXAHEDRON, _WEDGE) in VTK's own order,
 * as VTK >= 9 numbers them (vtkHigherOrderQuadrilateral/Hexahedron/
 * Wedge::PointIndexFromIJK, vtkHigherOrderTriangle/Tetra::
 * BarycentricIndex): corners, then edges, then faces, then the interior.
 * Quadrilateral and hexahedron edges all run along +i, +j or +k;
 * triangle edges run 0->1, 1->2, 2->0 and the interior repeats the
 * pattern on a triangle of order n-3; tetrahedron edges run 0-1, 1-2,
 * 2-0, 0-3, 1-3, 2-3, each face's interior is a triangle of order n-3
 * and the interior a tetrahedron of order n-4; a wedge lists its
 * triangles' edges, then its vertical edges, the triangles' interiors,
 * the quadrilaterals' and the interior layer by layer. A pyramid has no
 * Lagrange cell in VTK 9.1: its points are PyFR's equispaced lattice
 * (std_ele), layer by layer from the base, which the core cuts into
 * linear cells. tests/fr/
 * test_fr_vis.c holds VTK's own lists (python3-vtk9) for some orders. */
#include "fr-internal.h"

size_t fr__vtk_npts(int etype, int n)
{
    size_t m = (size_t)n + 1;
    switch (etype) {
    case FR_TRI: return m * (m + 1) / 2;
    case FR_QUAD: return m * m;
    case FR_TET: return m * (m + 1) * (m + 2) / 6;
    case FR_HEX: return m * m * m;
    case FR_PRI: return m * (m + 1) / 2 * m;
    case FR_PYR: return m * (m + 1) * (2 * m + 1) / 6;
    default: return 0;
    }
}

/* corner number of (i, j) on the corners of the square of side n */
static int corner(int i, int j) { return i ? (j ? 2 : 1) : (j ? 3 : 0); }

static size_t quad_index(int i, int j, int n)
{
    int ib = i == 0 || i == n, jb = j == 0 || j == n;
    if (ib && jb)
        return (size_t)corner(i, j);
    int off = 4;
    if (!ib && jb) /* edges along i: j = 0 (edge 0), j = n (edge 2) */
        return (size_t)(off + (i - 1) + (j ? 2 * (n - 1) : 0));
    if (ib && !jb) /* edges along j: i = n (edge 1), i = 0 (edge 3) */
        return (size_t)(off + (j - 1) + (i ? n - 1 : 3 * (n - 1)));
    off += 4 * (n - 1);
    return (size_t)(off + (i - 1) + (n - 1) * (j - 1));
}

static size_t hex_index(int i, int j, int k, int n)
{
    int ib = i == 0 || i == n, jb = j == 0 || j == n, kb = k == 0 || k == n;
    int nb = ib + jb + kb, m = n - 1;
    if (nb == 3)
        return (size_t)(corner(i, j) + (k ? 4 : 0));
    int off = 8;
    if (nb == 2) { /* edges: the 4 of the bottom, the 4 of the top, the
                      4 vertical ones from corners 0, 1, 2, 3 */
        if (!ib)
            return (size_t)(off + (i - 1) + (j ? 2 * m : 0) + (k ? 4 * m : 0));
        if (!jb)
            return (size_t)(off + (j - 1) + (i ? m : 3 * m) + (k ? 4 * m : 0));
        return (size_t)(off + 8 * m + (k - 1) + m * corner(i, j));
    }
    off += 12 * m;
    if (nb == 1) { /* faces: i = 0, i = n, j = 0, j = n, k = 0, k = n */
        if (ib)
            return (size_t)(off + (j - 1) + m * (k - 1) + (i ? m * m : 0));
        off += 2 * m * m;
        if (jb)
            return (size_t)(off + (i - 1) + m * (k - 1) + (j ? m * m : 0));
        off += 2 * m * m;
        return (size_t)(off + (i - 1) + m * (j - 1) + (k ? m * m : 0));
    }
    off += 6 * m * m;
    return (size_t)(off + (i - 1) + m * ((j - 1) + m * (k - 1)));
}

/* barycentric index (b0, b1, b2), b0 + b1 + b2 = n, of triangle point
 * index; the point sits at (b0, b1)/n of VTK's unit triangle */
static void tri_bindex(int index, int n, int b[3])
{
    int max = n, min = 0;
    while (index != 0 && index >= 3 * n) { /* the inner triangle */
        index -= 3 * n;
        max -= 2;
        min++;
        n -= 3;
    }
    if (index < 3) {
        b[index] = b[(index + 1) % 3] = min;
        b[(index + 2) % 3] = max;
    } else {
        index -= 3;
        int dim = index / (n - 1), off = index - dim * (n - 1);
        b[(dim + 1) % 3] = min;
        b[(dim + 2) % 3] = max - 1 - off;
        b[dim] = min + 1 + off;
    }
}

/* barycentric index (b0, b1, b2, b3), sum n, of tetrahedron point
 * index; the point sits at (b0, b1, b2)/n of VTK's unit tetrahedron
 * (b3 belongs to corner 0) */
static void tet_bindex(int index, int n, int b[4])
{
    static const int corner_coord[4] = {3, 0, 1, 2};
    static const int lin[4][4] = {{0, 0, 0, 1}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};
    static const int edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
    /* a face's three varying coordinates, and the one held at min */
    static const int face_coords[4][3] = {{0, 2, 3}, {2, 0, 1}, {2, 1, 3}, {1, 0, 3}};
    static const int face_min[4] = {1, 3, 0, 2};
    int max = n, min = 0;
    while (index != 0 && index >= 2 * (n * n + 1) && n > 3) { /* inner tetrahedra */
        index -= 2 * (n * n + 1);
        max -= 3;
        min++;
        n -= 4;
    }
    if (index < 4) {
        for (int c = 0; c < 4; c++)
            b[c] = c == corner_coord[index] ? max : min;
        return;
    }
    index -= 4;
    if (index < 6 * (n - 1)) {
        int e = index / (n - 1), v = index % (n - 1);
        for (int c = 0; c < 4; c++)
            b[c] = min + lin[edges[e][0]][c] * (max - min - 1 - v)
                   + lin[edges[e][1]][c] * (1 + v);
        return;
    }
    index -= 6 * (n - 1);
    int per = (n - 2) * (n - 1) / 2, f = index / per, v = index % per;
    int tb[3] = {0, 0, 0};
    if (n > 3)
        tri_bindex(v, n - 3, tb);
    b[face_min[f]] = min;
    for (int i = 0; i < 3; i++)
        b[face_coords[f][i]] = min + 1 + tb[i];
}

/* The place of wedge point (i, j, k) (triangle lattice i + j <= n,
 * layer k) in VTK's order. */
static size_t wedge_index(int i, int j, int k, int n)
{
    int m = n - 1, ib = i == 0, jb = j == 0, ijb = i + j == n;
    int kb = k == 0 || k == n, nb = ib + jb + ijb + kb;
    int corner = ib && jb ? 0 : jb && ijb ? 1 : 2; /* of the triangle */
    if (nb == 3)
        return (size_t)(corner + (k ? 3 : 0));
    int off = 6;
    if (nb == 2) {
        if (!kb) /* a vertical edge */
            return (size_t)(off + 6 * m + (k - 1) + corner * m);
        off += k == n ? 3 * m : 0; /* a triangle's edge: 0-1, 1-2, 2-0 */
        if (jb)
            return (size_t)(off + i - 1);
        off += m;
        if (ijb)
            return (size_t)(off + j - 1);
        return (size_t)(off + m + (n - j - 1));
    }
    off += 6 * m + 3 * m;
    int ntf = (m - 1) * m / 2, nqf = m * m;
    if (nb == 1) {
        if (kb) /* a triangle's interior */
            return (size_t)(off + (k ? ntf : 0) + i + n * (j - 1) - j * (j + 1) / 2);
        off += 2 * ntf;
        if (jb)
            return (size_t)(off + (i - 1) + m * (k - 1));
        off += nqf;
        if (ijb)
            return (size_t)(off + (n - i - 1) + m * (k - 1));
        off += nqf; /* the face i = 0 runs from corner 2 down to 0 */
        return (size_t)(off + (n - j - 1) + m * (k - 1));
    }
    off += 2 * ntf + 3 * nqf;
    return (size_t)(off + i + n * (j - 1) - j * (j + 1) / 2 + ntf * (k - 1));
}

static double coord(int i, int n) { return -1.0 + 2.0 * i / n; }

void fr__vtk_points(int etype, int n, double *pts)
{
    switch (etype) {
    case FR_QUAD:
        for (int j = 0; j <= n; j++)
            for (int i = 0; i <= n; i++) {
                double *p = pts + 2 * quad_index(i, j, n);
                p[0] = coord(i, n);
                p[1] = coord(j, n);
            }
        break;
    case FR_HEX:
        for (int k = 0; k <= n; k++)
            for (int j = 0; j <= n; j++)
                for (int i = 0; i <= n; i++) {
                    double *p = pts + 3 * hex_index(i, j, k, n);
                    p[0] = coord(i, n);
                    p[1] = coord(j, n);
                    p[2] = coord(k, n);
                }
        break;
    case FR_TRI:
        for (size_t idx = 0; idx < fr__vtk_npts(FR_TRI, n); idx++) {
            int b[3];
            tri_bindex((int)idx, n, b);
            pts[2 * idx] = coord(b[0], n);
            pts[2 * idx + 1] = coord(b[1], n);
        }
        break;
    case FR_PRI:
        for (int k = 0; k <= n; k++)
            for (int j = 0; j <= n; j++)
                for (int i = 0; i + j <= n; i++) {
                    double *p = pts + 3 * wedge_index(i, j, k, n);
                    p[0] = coord(i, n);
                    p[1] = coord(j, n);
                    p[2] = coord(k, n);
                }
        break;
    case FR_TET:
        for (size_t idx = 0; idx < fr__vtk_npts(FR_TET, n); idx++) {
            int b[4];
            tet_bindex((int)idx, n, b);
            for (int d = 0; d < 3; d++)
                pts[3 * idx + (size_t)d] = coord(b[d], n);
        }
        break;
    case FR_PYR: /* PyFR's std_ele: layer k has (n-k+1)^2 points */
        for (int k = 0, idx = 0; k <= n; k++) {
            int m = n - k;
            for (int j = 0; j <= m; j++)
                for (int i = 0; i <= m; i++, idx++) {
                    pts[3 * idx] = (double)(2 * i - m) / n;
                    pts[3 * idx + 1] = (double)(2 * j - m) / n;
                    pts[3 * idx + 2] = coord(k, n);
                }
        }
        break;
    }
}
