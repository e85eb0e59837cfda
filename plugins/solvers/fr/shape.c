/* SPDX-License-Identifier: BSD-3-Clause */
/* Shape functions of the Gmsh elements: the nodal basis of the shape
 * points (Gmsh's node order, in the reference elements of fr.h) in the
 * element's polynomial space, built from monomials (from the
 * orthonormal modes on pyramids). */
#include "fr-internal.h"

#include <stdlib.h>

struct fr__shape {
    int etype, ndims, order;
    size_t n;
    const double (*nodes)[3];
    const int (*mono)[3]; /* exponents of x, y, z */
};

static const double tri6_nodes[6][3] = {
    {-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}, {0, -1, 0}, {0, 0, 0}, {-1, 0, 0}};
static const int tri6_mono[6][3] = {
    {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {2, 0, 0}, {1, 1, 0}, {0, 2, 0}};

/* corners, then the middles of edges 0-1, 1-2, 2-3, 3-0, then the centre */
static const double quad9_nodes[9][3] = {
    {-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}, {0, -1, 0},
    {1, 0, 0},   {0, 1, 0},  {-1, 0, 0}, {0, 0, 0}};
static const int quad4_mono[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
static const int quad8_mono[8][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {2, 0, 0},
                                     {1, 1, 0}, {0, 2, 0}, {2, 1, 0}, {1, 2, 0}};
static const int quad9_mono[9][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0},
                                     {2, 0, 0}, {1, 1, 0}, {0, 2, 0},
                                     {2, 1, 0}, {1, 2, 0}, {2, 2, 0}};

static const double hex8_nodes[8][3] = {
    {-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
    {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
static const int hex8_mono[8][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1},
                                    {1, 1, 0}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1}};

/* Gmsh's 27-node hexahedron: corners, the middles of edges 0-1 0-3 0-4
 * 1-2 1-5 2-3 2-6 3-7 4-5 4-7 5-6 6-7, of faces 0123 0145 0347 1256
 * 2367 4567, the centre (docs/mesh.md) */
static const double hex27_nodes[27][3] = {
    {-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {-1, -1, 1},
    {1, -1, 1},   {1, 1, 1},   {-1, 1, 1}, {0, -1, -1}, {-1, 0, -1},
    {-1, -1, 0},  {1, 0, -1},  {1, -1, 0}, {0, 1, -1},  {1, 1, 0},
    {-1, 1, 0},   {0, -1, 1},  {-1, 0, 1}, {1, 0, 1},   {0, 1, 1},
    {0, 0, -1},   {0, -1, 0},  {-1, 0, 0}, {1, 0, 0},   {0, 1, 0},
    {0, 0, 1},    {0, 0, 0}};
/* x^a y^b z^c, a, b, c = 0..2 */
static const int hex27_mono[27][3] = {
    {0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 1, 0},
    {0, 2, 0}, {1, 2, 0}, {2, 2, 0}, {0, 0, 1}, {1, 0, 1}, {2, 0, 1},
    {0, 1, 1}, {1, 1, 1}, {2, 1, 1}, {0, 2, 1}, {1, 2, 1}, {2, 2, 1},
    {0, 0, 2}, {1, 0, 2}, {2, 0, 2}, {0, 1, 2}, {1, 1, 2}, {2, 1, 2},
    {0, 2, 2}, {1, 2, 2}, {2, 2, 2}};

/* Gmsh's 10-node tetrahedron: corners, then the middles of edges 0-1,
 * 1-2, 2-0, 0-3, 2-3, 1-3 (docs/mesh.md) */
static const double tet10_nodes[10][3] = {
    {-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}, {0, -1, -1},
    {0, 0, -1},   {-1, 0, -1}, {-1, -1, 0}, {-1, 0, 0},  {0, -1, 0}};
static const int tet10_mono[10][3] = {
    {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {2, 0, 0},
    {0, 2, 0}, {0, 0, 2}, {1, 1, 0}, {0, 1, 1}, {1, 0, 1}};

/* Gmsh's 18-node prism: corners, then the middles of edges 0-1, 0-2,
 * 0-3, 1-2, 1-4, 2-5, 3-4, 3-5, 4-5, then the centres of the
 * quadrilateral faces 0143, 0253, 1254 (docs/mesh.md) */
static const double pri18_nodes[18][3] = {
    {-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1},
    {-1, 1, 1},   {0, -1, -1}, {-1, 0, -1}, {-1, -1, 0}, {0, 0, -1},
    {1, -1, 0},   {-1, 1, 0},  {0, -1, 1},  {-1, 0, 1},  {0, 0, 1},
    {0, -1, 0},   {-1, 0, 0},  {0, 0, 0}};
/* P_1 x P_1 and P_2 x P_2 (triangle x line) */
static const int pri6_mono[6][3] = {
    {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
static const int pri18_mono[18][3] = {
    {0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 2, 0},
    {0, 0, 1}, {1, 0, 1}, {2, 0, 1}, {0, 1, 1}, {1, 1, 1}, {0, 2, 1},
    {0, 0, 2}, {1, 0, 2}, {2, 0, 2}, {0, 1, 2}, {1, 1, 2}, {0, 2, 2}};

/* Gmsh's 14-node pyramid: corners, the middles of edges 0-1, 0-3, 0-4,
 * 1-2, 1-4, 2-3, 2-4, 3-4, the centre of the base (docs/mesh.md). Its
 * space is the pyramid's own of order 1 or 2 (PyFR's: fr__pyr_basis),
 * not monomials: mono is NULL. */
static const double pyr14_nodes[14][3] = {
    {-1, -1, -1}, {1, -1, -1},     {1, 1, -1},     {-1, 1, -1},  {0, 0, 1},
    {0, -1, -1},  {-1, 0, -1},     {-0.5, -0.5, 0}, {1, 0, -1},  {0.5, -0.5, 0},
    {0, 1, -1},   {0.5, 0.5, 0},   {-0.5, 0.5, 0}, {0, 0, -1}};

static const struct fr__shape shapes[] = {
    {FR_TRI, 2, 1, 3, tri6_nodes, tri6_mono},
    {FR_TRI, 2, 2, 6, tri6_nodes, tri6_mono},
    {FR_QUAD, 2, 1, 4, quad9_nodes, quad4_mono},
    {FR_QUAD, 2, 2, 8, quad9_nodes, quad8_mono},
    {FR_QUAD, 2, 2, 9, quad9_nodes, quad9_mono},
    {FR_TET, 3, 1, 4, tet10_nodes, tet10_mono},
    {FR_TET, 3, 2, 10, tet10_nodes, tet10_mono},
    {FR_HEX, 3, 1, 8, hex8_nodes, hex8_mono},
    {FR_HEX, 3, 2, 27, hex27_nodes, hex27_mono},
    {FR_PRI, 3, 1, 6, pri18_nodes, pri6_mono},
    {FR_PRI, 3, 2, 18, pri18_nodes, pri18_mono},
    {FR_PYR, 3, 1, 5, pyr14_nodes, NULL},
    {FR_PYR, 3, 2, 14, pyr14_nodes, NULL},
};

const struct fr__shape *fr__shape_find(int etype, size_t nshape)
{
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        if (shapes[i].etype == etype && shapes[i].n == nshape)
            return &shapes[i];
    return NULL;
}

int fr__shape_order(const struct fr__shape *s) { return s->order; }
size_t fr__shape_nnodes(const struct fr__shape *s) { return s->n; }
const double *fr__shape_node(const struct fr__shape *s, size_t k) { return s->nodes[k]; }

static double ipow(double x, int e)
{
    double r = 1.0;
    while (e-- > 0)
        r *= x;
    return r;
}

/* monomial m at x, or its derivative along axis d (d >= 0) */
static double mono(const int *ex, const double *x, int nd, int d)
{
    double v = 1.0;
    for (int k = 0; k < nd; k++) {
        if (k == d)
            v *= ex[k] ? ex[k] * ipow(x[k], ex[k] - 1) : 0.0;
        else
            v *= ipow(x[k], ex[k]);
    }
    return v;
}

/* the modal shapes (pyramids): the orthonormal modes at x [nn] and
 * their gradients [3][nn] */
static void modes(const struct fr__shape *s, const double *x, double *phi, double *grad)
{
    fr__pyr_basis(s->order, x, phi, grad);
}

int fr__shape_basis(const struct fr__shape *s, size_t npts, const double *pts,
                    double *n, double *dn)
{
    size_t nn = s->n, nd = (size_t)s->ndims;
    double *v = malloc((2 * nn * nn + 4 * nn) * sizeof *v);
    if (!v)
        return frx_error(FRX_ENOMEM, "fr: no memory for shape functions");
    double *c = v + nn * nn, *phi = c + nn * nn, *grad = phi + nn;
    for (size_t i = 0; i < nn; i++) {
        if (!s->mono)
            modes(s, s->nodes[i], v + i * nn, NULL);
        for (size_t m = 0; m < nn && s->mono; m++)
            v[i * nn + m] = mono(s->mono[m], s->nodes[i], s->ndims, -1);
    }
    int rc = fr__inverse(nn, v, c, "Vandermonde matrix of the shape points");
    if (rc < 0) {
        free(v);
        return rc;
    }
    /* N_k(x) = sum_m mono_m(x) c[m][k] */
    for (size_t a = 0; a < npts; a++) {
        if (!s->mono)
            modes(s, pts + a * nd, phi, grad);
        for (int d = -1; d < (int)nd; d++) {
            double *out = d < 0 ? (n ? n + a * nn : NULL)
                                : (dn ? dn + (a * nd + (size_t)d) * nn : NULL);
            if (!out)
                continue;
            for (size_t k = 0; k < nn; k++)
                out[k] = 0.0;
            for (size_t m = 0; m < nn; m++) {
                double pm = !s->mono ? (d < 0 ? phi[m] : grad[(size_t)d * nn + m])
                                     : mono(s->mono[m], pts + a * nd, s->ndims, d);
                for (size_t k = 0; k < nn; k++)
                    out[k] += pm * c[m * nn + k];
            }
        }
    }
    free(v);
    return FRX_OK;
}
