/* SPDX-License-Identifier: BSD-3-Clause */
/* libfrx-fr: what the library's files share (not for plugins). */
#ifndef FRX_FR_INTERNAL_H
#define FRX_FR_INTERNAL_H

#include <frx/fr/fr.h>

#include <stddef.h>

/* The most points of a 1-D rule the library builds. */
#define FR_MAX_1D 64

#define FR__MAX_FACES 6

struct fr_element {
    int etype, order, ndims, vtk_type, vis_order;
    size_t nupts, nfpts, nfaces, nfacefpts, nvis;
    size_t face_nfp[FR__MAX_FACES], face_off[FR__MAX_FACES + 1];
    double *upts, *uwts;        /* [nupts][ndims], [nupts] */
    double *fpts, *fwts;        /* [nfpts][ndims], [nfpts] */
    double *norm_fpts;          /* [nfpts][ndims] unit normal x face jac */
    double *unorm_fpts;         /* [nfpts][ndims] */
    double *face_jac;           /* [nfaces] */
    double *vis;                /* [nvis][ndims] */
    double *op[FR_NOPS];
    size_t nrow[FR_NOPS], ncol[FR_NOPS];
    /* the nodal basis: tensor elements interpolate on the 1-D
     * Gauss-Legendre points, triangles go through the orthonormal basis */
    double gl[FR_MAX_1D];       /* n1d = order + 1 points */
    double *vinv;               /* simplices, prisms, pyramids:
                                   [nupts][nupts] V^-1 */
    /* triangular faces (tetrahedra, prisms): the face point the other
     * side's point k meets, for each rot: [3][ntri] (docs/mesh.md,
     * "3-D rule") */
    size_t *tri_facing, ntri;
};

/* Reference corners and faces of an element type (Gmsh order). */
struct fr__reftype {
    int etype, ndims;
    size_t ncorners, nfaces;
    const double (*corners)[3];
    const int (*faces)[4];
    const int *fnc;             /* each face's corners */
};
const struct fr__reftype *fr__reftype(int etype);

/* Williams-Shunn rule for triangles of order p: n points (x, y, w). */
int fr__ws_rule(int p, size_t *n, int *degree, const double (**pts)[3]);

/* Shunn-Ham rule for tetrahedra of order p: n points (x, y, z, w). */
int fr__sh_rule(int p, size_t *n, int *degree, const double (**pts)[4]);

/* The orthonormal (Proriol-Koornwinder-Dubiner) basis of P_p on the
 * reference triangle at (r, s): (p+1)(p+2)/2 values, modes (i, j) with
 * i + j <= p, j fastest; dr, ds may be NULL. */
void fr__pkd(int p, double r, double s, double *phi, double *dr,
             double *ds);
/* The orthonormal basis of P_p(triangle) x P_p(line) on the reference
 * prism at x: PKD mode m times the normalised Legendre polynomial k,
 * m + (p+1)(p+2)/2 k; grad [3][nmodes] may be NULL. */
void fr__prism_basis(int p, const double *x, double *phi, double *grad);
/* The same on the reference tetrahedron at x = (r, s, t): (p+1)(p+2)(p+3)/6
 * values, modes (i, j, k) with i + j + k <= p, k fastest; grad
 * [3][nmodes] may be NULL. */
void fr__pkd3(int p, const double *x, double *phi, double *grad);
/* The orthonormal basis of the pyramid's space of order p at x, as
 * PyFR's PyrPolyBasis: (p+1)(p+2)(2p+3)/6 modes (i, j, k), i, j <= p,
 * k <= p - max(i, j), k fastest, then j; grad [3][nmodes] may be NULL. */
void fr__pyr_basis(int p, const double *x, double *phi, double *grad);
/* The orthonormal basis of etype (FR_TRI, FR_TET, FR_PRI or FR_PYR) at x;
 * grad is [ndims][nmodes] or NULL. */
void fr__simplex_basis(int etype, int p, const double *x, double *phi,
                       double *grad);


/* VTK Lagrange cell points of order n >= 1 in VTK's order: nvis points
 * [nvis][ndims] into pts (which holds enough). */
size_t fr__vtk_npts(int etype, int n);
void fr__vtk_points(int etype, int n, double *pts);

/* Dense linear algebra, row-major. inv = a^-1 (LU with partial
 * pivoting, as LAPACK's dgesv); what names the matrix in the error
 * message when a is singular. */
int fr__inverse(size_t n, const double *a, double *inv, const char *what);
/* c (m x n) = a (m x k) * b (k x n). */
void fr__matmul(size_t m, size_t n, size_t k, const double *a,
                const double *b, double *c);

/* Shape functions of the Gmsh elements the geometry takes: the nodal
 * basis of the shape points in their polynomial space. */
struct fr__shape;
const struct fr__shape *fr__shape_find(int etype, size_t nshape);
int fr__shape_order(const struct fr__shape *s);
size_t fr__shape_nnodes(const struct fr__shape *s);
const double *fr__shape_node(const struct fr__shape *s, size_t k); /* [3] */
/* Values n [npts][nnodes] and gradients dn [npts][ndims][nnodes]
 * (either may be NULL) at reference points pts [npts][ndims]. */
int fr__shape_basis(const struct fr__shape *s, size_t npts,
                    const double *pts, double *n, double *dn);

#endif
