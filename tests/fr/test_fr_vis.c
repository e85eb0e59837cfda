/* SPDX-License-Identifier: BSD-3-Clause */
/* libfrx-fr, vis points: VTK's Lagrange cell order (tables worked out
 * by hand from VTK's PointIndexFromIJK and BarycentricIndex for small
 * orders; corners, then edges, then faces, then the interior for every
 * order), and the vis interpolation exact on polynomials. */
#include "frtest.h"

#include <frx/frx.h>

static void expect(fr_element *e, const double *want, size_t n)
{
    int nd = fr_element_ndims(e);
    ck_assert_uint_eq(fr_element_nvis(e), n);
    const double *v = fr_element_vis_pts(e);
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < nd; d++)
            ck_assert_msg(fabs(v[i * (size_t)nd + (size_t)d] - want[i * (size_t)nd + (size_t)d]) < 1e-15,
                          "vis point %zu coordinate %d: %g, VTK has %g", i, d,
                          v[i * (size_t)nd + (size_t)d], want[i * (size_t)nd + (size_t)d]);
}

START_TEST(vtk_tables)
{
    const double t = 1.0 / 3;
    fr_element *e = ft_element(FR_QUAD, 2);
    ck_assert_int_eq(fr_element_vtk_type(e), 70);
    const double quad2[] = {-1, -1, 1, -1, 1, 1, -1, 1, 0, -1, 1, 0, 0, 1, -1, 0, 0, 0};
    expect(e, quad2, 9);
    fr_element_destroy(e);
    /* VTK's quadrilateral edges all run along +x or +y: edge 2 too */
    e = ft_element(FR_QUAD, 3);
    const double quad3[] = {-1, -1, 1, -1, 1, 1, -1, 1,        /* corners */
                            -t, -1, t, -1, 1, -t, 1, t,        /* edges 0, 1 */
                            -t, 1,  t, 1,  -1, -t, -1, t,      /* edges 2, 3 */
                            -t, -t, t, -t, -t, t, t, t};       /* interior */
    expect(e, quad3, 16);
    fr_element_destroy(e);
    /* VTK's triangle edges run 0->1, 1->2, 2->0 */
    e = ft_element(FR_TRI, 3);
    ck_assert_int_eq(fr_element_vtk_type(e), 69);
    const double tri3[] = {-1, -1, 1, -1, -1, 1,      /* corners */
                           -t, -1, t, -1,             /* edge 0 */
                           t, -t, -t, t,              /* edge 1 */
                           -1, t, -1, -t,             /* edge 2 */
                           -t, -t};                   /* interior */
    expect(e, tri3, 10);
    fr_element_destroy(e);
    /* order 4: the interior is a triangle of order 1, VTK's corner order */
    e = ft_element(FR_TRI, 4);
    const double *v = fr_element_vis_pts(e);
    ck_assert_uint_eq(fr_element_nvis(e), 15);
    ck_assert(v[24] == -0.5 && v[25] == -0.5 && v[26] == 0 && v[27] == -0.5);
    ck_assert(v[28] == -0.5 && v[29] == 0);
    fr_element_destroy(e);
    e = ft_element(FR_HEX, 2);
    ck_assert_int_eq(fr_element_vtk_type(e), 72);
    const double hex2[] = {
        -1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, /* corners */
        -1, -1, 1,  1, -1, 1,  1, 1, 1,  -1, 1, 1,
        0, -1, -1,  1, 0, -1,  0, 1, -1,  -1, 0, -1, /* bottom edges */
        0, -1, 1,   1, 0, 1,   0, 1, 1,   -1, 0, 1,  /* top edges */
        -1, -1, 0,  1, -1, 0,  1, 1, 0,   -1, 1, 0,  /* vertical (VTK 9) */
        -1, 0, 0,   1, 0, 0,   0, -1, 0,  0, 1, 0,   /* faces -x +x -y +y */
        0, 0, -1,   0, 0, 1,                         /* faces -z +z */
        0, 0, 0};
    expect(e, hex2, 27);
    fr_element_destroy(e);
    /* VTK's vtkLagrangeTetra::GetParametricCoords of 20 points, as
     * python3-vtk9 prints them, on [-1, 1] */
    e = ft_element(FR_TET, 3);
    static const double tet3[] = {
        -1, -1, -1,
        1, -1, -1,
        -1, 1, -1,
        -1, -1, 1,
        -1.0 / 3, -1, -1,
        1.0 / 3, -1, -1,
        1.0 / 3, -1.0 / 3, -1,
        -1.0 / 3, 1.0 / 3, -1,
        -1, 1.0 / 3, -1,
        -1, -1.0 / 3, -1,
        -1, -1, -1.0 / 3,
        -1, -1, 1.0 / 3,
        1.0 / 3, -1, -1.0 / 3,
        -1.0 / 3, -1, 1.0 / 3,
        -1, 1.0 / 3, -1.0 / 3,
        -1, -1.0 / 3, 1.0 / 3,
        -1.0 / 3, -1, -1.0 / 3,
        -1.0 / 3, -1.0 / 3, -1.0 / 3,
        -1, -1.0 / 3, -1.0 / 3,
        -1.0 / 3, -1.0 / 3, -1};
    expect(e, tet3, 20);
    fr_element_destroy(e);
    /* vtkLagrangeWedge::GetParametricCoords of 40 points (SetOrder(3,
     * 3, 3, 40)), as python3-vtk9 prints them, in thirds of [-1, 1] */
    static const int wedge3[] = {
        -3, -3, -3, 3, -3, -3, -3, 3, -3, -3, -3, 3,
        3, -3, 3, -3, 3, 3, -1, -3, -3, 1, -3, -3,
        1, -1, -3, -1, 1, -3, -3, 1, -3, -3, -1, -3,
        -1, -3, 3, 1, -3, 3, 1, -1, 3, -1, 1, 3,
        -3, 1, 3, -3, -1, 3, -3, -3, -1, -3, -3, 1,
        3, -3, -1, 3, -3, 1, -3, 3, -1, -3, 3, 1,
        -1, -1, -3, -1, -1, 3, -1, -3, -1, 1, -3, -1,
        -1, -3, 1, 1, -3, 1, 1, -1, -1, -1, 1, -1,
        1, -1, 1, -1, 1, 1, -3, 1, -1, -3, -1, -1,
        -3, 1, 1, -3, -1, 1, -1, -1, -1, -1, -1, 1,
    };
    double w3[120];
    for (int i = 0; i < 120; i++)
        w3[i] = wedge3[i] / 3.0;
    e = ft_element(FR_PRI, 3);
    expect(e, w3, 40);
    fr_element_destroy(e);
}
END_TEST

/* On how many faces (edges in 2-D) x lies: ndims at a corner, one less
 * on an edge, ..., 0 inside. */
static int nbound(int etype, const double *x)
{
    if (etype == FR_TRI)
        return (x[1] == -1.0) + (x[0] == -1.0) + (fabs(x[0] + x[1]) < 1e-15);
    if (etype == FR_TET)
        return (x[0] == -1.0) + (x[1] == -1.0) + (x[2] == -1.0)
               + (fabs(x[0] + x[1] + x[2] + 1) < 1e-14);
    if (etype == FR_PRI)
        return (x[0] == -1.0) + (x[1] == -1.0) + (fabs(x[0] + x[1]) < 1e-14)
               + (fabs(x[2]) == 1.0);
    int nd = etype == FR_HEX ? 3 : 2, n = 0;
    for (int d = 0; d < nd; d++)
        n += fabs(x[d]) == 1.0;
    return n;
}

START_TEST(vtk_order_all_orders)
{
    const int types[] = {FR_QUAD, FR_TRI, FR_HEX, FR_TET, FR_PRI};
    for (int t = 0; t < 5; t++)
        for (int p = t == 1 || t >= 3 ? 1 : 0; p <= (t == 2 ? 4 : 6); p++) {
            int et = types[t], nd = et == FR_HEX || et == FR_TET || et == FR_PRI ? 3 : 2;
            fr_element *e = ft_element(et, p);
            int n = fr_element_vis_order(e);
            ck_assert_int_eq(n, p > 1 ? p : 1);
            size_t nv = fr_element_nvis(e);
            size_t want = et == FR_TRI ? (size_t)(n + 1) * (n + 2) / 2
                          : et == FR_QUAD ? (size_t)(n + 1) * (n + 1)
                          : et == FR_TET ? (size_t)(n + 1) * (n + 2) * (n + 3) / 6
                          : et == FR_PRI ? (size_t)(n + 1) * (n + 2) / 2 * (n + 1)
                                          : (size_t)(n + 1) * (n + 1) * (n + 1);
            ck_assert_uint_eq(nv, want);
            const double *v = fr_element_vis_pts(e);
            size_t ncorner = et == FR_TRI ? 3 : et == FR_QUAD || et == FR_TET ? 4
                             : et == FR_PRI ? 6 : 8;
            /* boundary count never rises along the list: corners, edges,
             * faces, interior; and the counts of each are VTK's */
            int prev = 4;
            size_t count[4] = {0};
            for (size_t i = 0; i < nv; i++) {
                int b = nbound(et, v + i * (size_t)nd);
                int cls = nd - b; /* 0 corner, 1 edge, 2 face (3-D), ... */
                ck_assert_msg(b <= prev, "etype %d p %d: point %zu after a lower class", et, p, i);
                prev = b;
                count[cls]++;
                /* on the lattice of step 2/n */
                for (int d = 0; d < nd; d++) {
                    double k = (v[i * (size_t)nd + (size_t)d] + 1) * n / 2;
                    ck_assert(fabs(k - round(k)) < 1e-12);
                }
                for (size_t j = 0; j < i; j++) { /* distinct */
                    double dist = 0;
                    for (int d = 0; d < nd; d++)
                        dist += fabs(v[i * (size_t)nd + (size_t)d] - v[j * (size_t)nd + (size_t)d]);
                    ck_assert(dist > 1e-12);
                }
            }
            ck_assert_uint_eq(count[0], ncorner);
            size_t nedges = et == FR_TRI ? 3 : et == FR_QUAD ? 4 : et == FR_TET ? 6
                            : et == FR_PRI ? 9 : 12;
            ck_assert_uint_eq(count[1], nedges * (size_t)(n - 1));
            fr_element_destroy(e);
        }
}
END_TEST

/* Pyramids: no Lagrange cell in VTK 9.1, so the vis points are PyFR's
 * std_ele(n), n = max(p, 1), (n+1)(n+2)(2n+3)/6 of them: layers k = 0..n
 * from the base (z = -1 + 2k/n), each of (m+1)^2 points, m = n - k, row
 * by row in y, x fastest, x = (2i - m)/n, y = (2j - m)/n; vtk_type 14.
 * At n = 2 PyFR's list (pyfr.shapes.PyrShape.std_ele(2)) in full. */
START_TEST(pyramid_vis_points)
{
    static const double pyfr2[14][3] = {
        {-1, -1, -1},    {0, -1, -1},    {1, -1, -1},   {-1, 0, -1}, {0, 0, -1},
        {1, 0, -1},      {-1, 1, -1},    {0, 1, -1},    {1, 1, -1},  {-0.5, -0.5, 0},
        {0.5, -0.5, 0},  {-0.5, 0.5, 0}, {0.5, 0.5, 0}, {0, 0, 1}};
    for (int p = 1; p <= 6; p++) {
        fr_element *e = ft_element(FR_PYR, p);
        int n = fr_element_vis_order(e);
        ck_assert_int_eq(n, p);
        ck_assert_int_eq(fr_element_vtk_type(e), 14);
        ck_assert_uint_eq(fr_element_nvis(e), (size_t)(n + 1) * (n + 2) * (2 * n + 3) / 6);
        const double *v = fr_element_vis_pts(e);
        size_t idx = 0;
        for (int k = 0; k <= n; k++)
            for (int j = 0; j <= n - k; j++)
                for (int i = 0; i <= n - k; i++, idx++) {
                    int m = n - k;
                    ck_near(v[3 * idx], (double)(2 * i - m) / n, 1e-15);
                    ck_near(v[3 * idx + 1], (double)(2 * j - m) / n, 1e-15);
                    ck_near(v[3 * idx + 2], -1.0 + 2.0 * k / n, 1e-15);
                    if (n == 2)
                        for (int d = 0; d < 3; d++)
                            ck_near(v[3 * idx + (size_t)d], pyfr2[idx][d], 1e-15);
                }
        ck_assert_uint_eq(idx, fr_element_nvis(e));
        fr_element_destroy(e);
    }
}
END_TEST

static Suite *vis_suite(void)
{
    Suite *s = suite_create("fr-vis");
    TCase *tc = tcase_create("vis");
    tcase_add_test(tc, vtk_tables);
    tcase_add_test(tc, vtk_order_all_orders);
    tcase_add_test(tc, pyramid_vis_points);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return ft_run(vis_suite()); }
