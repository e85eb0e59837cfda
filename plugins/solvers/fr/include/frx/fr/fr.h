/* SPDX-License-Identifier: BSD-3-Clause */
/* libfrx-fr (the FR SDK): the host-side numerics of flux
 * reconstruction (FR).
 *
 * For FR solver plugins (docs/fr.md): 1-D polynomials and
 * quadrature, reference elements with their operators (M0 ... M4, M132,
 * vis), and the geometry of a block of elements (coordinates, metric
 * terms, normals). Host doubles only; no backend code. docs/fr.md says
 * how a solver assembles its right-hand side from these pieces.
 *
 * Conventions (those of frx's mesh model, mesh.h):
 * - Reference elements: quadrilateral [-1,1]^2 with corners (-1,-1),
 *   (1,-1), (1,1), (-1,1); triangle (-1,-1), (1,-1), (-1,1); hexahedron
 *   [-1,1]^3, corners as Gmsh (0-3 at z = -1 counter-clockwise, 4-7
 *   above them); tetrahedron (-1,-1,-1), (1,-1,-1), (-1,1,-1),
 *   (-1,-1,1); prism the triangle's corners at z = -1, then at z = 1;
 *   pyramid the square's corners at z = -1, then the apex (0,0,1).
 *   Shape points are in Gmsh's node order, corners first.
 * - Faces: quadrilateral 0:(0,1) 1:(1,2) 2:(2,3) 3:(3,0); triangle
 *   0:(0,1) 1:(1,2) 2:(2,0); hexahedron as Gmsh's face list
 *   {0,3,2,1} {0,1,5,4} {0,4,7,3} {1,2,6,5} {2,3,7,6} {4,5,6,7};
 *   tetrahedron {0,2,1} {0,1,3} {0,3,2} {3,1,2}; prism {0,2,1} {3,4,5}
 *   {0,1,4,3} {0,3,5,2} {1,2,5,4}; pyramid as Gmsh's MPyramid {0,1,4}
 *   {3,0,4} {1,2,4} {2,3,4} {0,3,2,1} (each counter-clockwise seen from
 *   outside).
 * - Flux points are numbered face by face: point k of face f is flux
 *   point fr_element_face_fpt0(e, f) + k, f*nfacefpts + k where every
 *   face holds as many (all but the prism and the pyramid). In 2-D the points of a face run along the
 *   face from its first corner to its second (the element's
 *   counter-clockwise walk), so the two sides of a shared face meet
 *   point k to point nfacefpts-1-k. On a hexahedron face (c0,c1,c2,c3)
 *   point i + n*j sits at s_i along c0->c1 and t_j along c0->c3. On a
 *   tetrahedron face (c0,c1,c2) point k is the Williams-Shunn triangle
 *   point (x_k, y_k) placed at c0 + (1+x_k)/2 (c1-c0) + (1+y_k)/2 (c2-c0);
 *   a prism's and a pyramid's triangles as a tetrahedron's, their
 *   quadrilaterals as a hexahedron's.
 * - Matrices are row-major doubles. Per-element arrays of a geometry
 *   are element-major, [neles][npts][...]; fr_to_matrix_layout turns one
 *   into frx's matrix host layout [npts][...][neles].
 *
 * Errors are negative FRX_E* codes with a message from frx_error. */
#ifndef FRX_FR_H
#define FRX_FR_H

#include <frx/fr/version.h>
#include <frx/plugin.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types: the values of enum frx_etype in frx/mesh.h. */
enum fr_etype { FR_TRI = 1, FR_QUAD = 2, FR_TET = 3, FR_HEX = 4, FR_PRI = 5, FR_PYR = 6 };

/* Orders each element type supports. */
#define FR_QUAD_MAX_ORDER 8
#define FR_TRI_MIN_ORDER 1 /* Williams-Shunn points are tabulated for */
#define FR_TRI_MAX_ORDER 6 /* p = 1..6 */
#define FR_HEX_MAX_ORDER 6
#define FR_TET_MIN_ORDER 1 /* Shunn-Ham points are tabulated for */
#define FR_TET_MAX_ORDER 6 /* p = 1..6 */
#define FR_PRI_MIN_ORDER 1 /* Williams-Shunn x Gauss-Legendre: */
#define FR_PRI_MAX_ORDER 6 /* p = 1..6 */
#define FR_PYR_MIN_ORDER 1 /* PyFR's Gauss-Legendre pyramid points: */
#define FR_PYR_MAX_ORDER 6 /* p = 1..6 */

/* VTK cell types of the vis points (VTK's vtkCellType.h). */
enum {
    FR_VTK_LAGRANGE_TRIANGLE = 69,
    FR_VTK_LAGRANGE_QUADRILATERAL = 70,
    FR_VTK_LAGRANGE_TETRAHEDRON = 71,
    FR_VTK_LAGRANGE_HEXAHEDRON = 72,
    FR_VTK_LAGRANGE_WEDGE = 73,
    FR_VTK_PYRAMID = 14 /* linear cells: VTK 9.1 has no Lagrange pyramid */
};

/* ------------------------------------------------------------------ 1-D */

/* Gauss-Legendre points (ascending, exactly symmetric) and weights, n >= 1:
 * exact for polynomials of degree 2n-1 on [-1,1]. */
FR_EXTERN int fr_gauss_legendre(size_t n, double *x, double *w);
/* Gauss-Lobatto points (ascending, both ends included) and weights,
 * n >= 2: exact for degree 2n-3. */
FR_EXTERN int fr_gauss_lobatto(size_t n, double *x, double *w);

/* Legendre polynomial P_n(x) (P_n(1) = 1); its derivative into *dp if
 * dp is not NULL. */
FR_EXTERN double fr_legendre(int n, double x, double *dp);
/* Jacobi polynomial P_n^(a,b)(x), classical normalisation
 * (P_n(1) = binomial(n+a, n)), a, b > -1; derivative into *dp. */
FR_EXTERN double fr_jacobi(int n, double a, double b, double x, double *dp);
/* The same scaled to unit norm under the weight (1-x)^a (1+x)^b. */
FR_EXTERN double fr_jacobi_orthonormal(int n, double a, double b, double x,
                                       double *dp);

/* Lagrange basis of the n distinct nodes at x (barycentric form): l[j]
 * and dl[j] for j < n (either may be NULL). Exact delta at a node. */
FR_EXTERN int fr_lagrange(size_t n, const double *nodes, double x, double *l,
                          double *dl);

/* Radau polynomials of degree k >= 1: right R_k = (P_k + P_{k-1})/2 is 1
 * at x = 1 and 0 at -1; left R_k(x) = right R_k(-x). Derivative in *dr. */
FR_EXTERN double fr_radau_right(int k, double x, double *dr);
FR_EXTERN double fr_radau_left(int k, double x, double *dr);
/* Derivative at x of Huynh's g_DG for order p: the correction function
 * (Radau of degree p+1) that is 1 at side (+1 right, -1 left) and 0 at
 * the other end. */
FR_EXTERN double fr_gdg_deriv(int p, int side, double x);

/* ------------------------------------------------------------- elements */

typedef struct fr_element fr_element;

/* The operators of an element, each row-major nrow x ncol. */
enum fr_op {
    FR_M0,   /* nfpts x nupts: solution to flux points */
    FR_M1,   /* nupts x ndims*nupts: divergence of a transformed flux
                stacked [ndims][nupts] */
    FR_M2,   /* nfpts x ndims*nupts: transformed flux to its normal
                component at the flux points (norm_fpts . M0) */
    FR_M3,   /* nupts x nfpts: the correction of normal-flux jumps */
    FR_M132, /* nupts x ndims*nupts: M1 - M3*M2 */
    FR_M4,   /* ndims*nupts x nupts: reference gradient, stacked
                [ndims][nupts] */
    FR_MVIS, /* nvis x nupts: solution to the vis points */
    FR_NOPS
};

/* The reference element of etype (enum fr_etype) at order p. */
FR_EXTERN int fr_element_create(int etype, int order, fr_element **out);
FR_EXTERN void fr_element_destroy(fr_element *e);

FR_EXTERN int fr_element_etype(const fr_element *e);
FR_EXTERN int fr_element_order(const fr_element *e);
FR_EXTERN int fr_element_ndims(const fr_element *e);
FR_EXTERN size_t fr_element_nupts(const fr_element *e);
FR_EXTERN size_t fr_element_nfpts(const fr_element *e);
FR_EXTERN size_t fr_element_nfaces(const fr_element *e);
/* Flux points a face, where every face holds as many; 0 on a prism or
 * a pyramid (their triangles and quadrilaterals differ:
 * fr_element_face_nfpts). */
FR_EXTERN size_t fr_element_nfacefpts(const fr_element *e);
/* FR 1.4: face f's flux points, and the first of them. */
FR_EXTERN size_t fr_element_face_nfpts(const fr_element *e, size_t f);
FR_EXTERN size_t fr_element_face_fpt0(const fr_element *e, size_t f);
FR_EXTERN size_t fr_element_nvis(const fr_element *e);
FR_EXTERN int fr_element_vtk_type(const fr_element *e);
FR_EXTERN int fr_element_vis_order(const fr_element *e);    /* max(p, 1) */

/* Reference solution points [nupts][ndims] and their quadrature weights
 * [nupts] (Gauss-Legendre products; Williams-Shunn on triangles: the
 * weights sum to the reference area, 4 or 2 or 8). On a pyramid the
 * points are PyFR's Gauss-Legendre layers and the weights integrate
 * the element's space exactly (they sum to 8/3). */
FR_EXTERN const double *fr_element_upts(const fr_element *e);
FR_EXTERN const double *fr_element_upts_weights(const fr_element *e);
/* Flux points [nfpts][ndims] and the weights of the face rule in the
 * face's own parameter(s) in [-1,1] ([nfpts]; 2 per face in 2-D). */
FR_EXTERN const double *fr_element_fpts(const fr_element *e);
FR_EXTERN const double *fr_element_fpts_weights(const fr_element *e);
/* Outward reference normals at the flux points [nfpts][ndims]: the unit
 * normal times the face Jacobian (reference face measure per unit of the
 * face parameter: sqrt(2) on the triangle's face 1, else 1), as PyFR's
 * norm_fpts. These are the normals of M2 and of the physical normals. */
FR_EXTERN const double *fr_element_norm_fpts(const fr_element *e);
/* Unit reference normals [nfpts][ndims] and face Jacobians [nfaces]. */
FR_EXTERN const double *fr_element_unorm_fpts(const fr_element *e);
FR_EXTERN const double *fr_element_face_jac(const fr_element *e);
/* Vis points [nvis][ndims], equispaced of order max(p,1), in VTK's
 * Lagrange cell order (corners, edges, faces, interior); on a pyramid
 * (vtk_type FR_VTK_PYRAMID) in PyFR's order: layers from the base up,
 * each row by row in y, x fastest (the core cuts them into linear
 * cells). */
FR_EXTERN const double *fr_element_vis_pts(const fr_element *e);
/* FR 1.4: the place, on the other side of a shared face f, of this
 * side's face point k (0 <= k < fr_element_face_nfpts(e, f)), for the
 * face's rot (frx_face.rot; docs/mesh.md "3-D rule"). Its own inverse. */
FR_EXTERN size_t fr_element_facing(const fr_element *e, size_t f, int rot, size_t k);

/* Operator op (enum fr_op); its shape into *nrow, *ncol if not NULL. */
FR_EXTERN const double *fr_element_op(const fr_element *e, int op,
                                      size_t *nrow, size_t *ncol);

/* The nodal basis of the solution points at n reference points:
 * vals [n][nupts] and grads [ndims][n][nupts] (either may be NULL). */
FR_EXTERN int fr_element_basis_at(const fr_element *e, size_t n,
                                  const double *pts, double *vals,
                                  double *grads);

/* ------------------------------------------------------------- geometry */

/* The geometry of a block of neles elements. All arrays are allocated
 * by fr_geometry_compute and freed by fr_geometry_free. */
typedef struct fr_geometry {
    size_t neles, nupts, nfpts, nvis;
    int ndims;
    double *xupts;   /* [neles][nupts][ndims] physical solution points */
    double *xfpts;   /* [neles][nfpts][ndims] physical flux points */
    double *xvis;    /* [neles][nvis][ndims] physical vis points */
    double *djac;    /* [neles][nupts] |J| at the solution points */
    double *rcpdjac; /* [neles][nupts] 1/|J| */
    double *smats;   /* [neles][nupts][ndims][ndims]: smats[i][j] =
                        |J| d(xi_i)/d(x_j); transformed flux
                        F~_i = sum_j smats[i][j] F_j */
    double *qwts;    /* [neles][nupts] quadrature weight x |J| (norms) */
    double *pnorm;   /* [neles][nfpts][ndims] unit outward normals */
    double *mag;     /* [neles][nfpts] |smats^T norm_fpts| = |J| |J^-T n| */
} fr_geometry;

/* Shape points: shape [neles][nshape][ndims] in Gmsh order, nshape one
 * of: triangle 3 (linear) or 6 (quadratic); quadrilateral 4, 8
 * (serendipity) or 9; hexahedron 8 or 27; tetrahedron 4 or 10; prism
 * 6 or 18; pyramid 5 or 14 (nodal in the pyramid's own space, as
 * PyFR's). gid (or NULL) numbers the elements
 * in messages. Metric terms are those of the shape interpolated at
 * order max(p,1) where the shape's order is higher (PyFR's pseudo grid
 * points), so a constant flux stays constant (free-stream
 * preservation). An element with |J| <= 0 at any solution, flux or
 * metric point is refused, naming the element and the point. */
FR_EXTERN int fr_geometry_compute(const fr_element *e, size_t neles,
                                  size_t nshape, const double *shape,
                                  const uint64_t *gid, fr_geometry *out);
FR_EXTERN void fr_geometry_free(fr_geometry *g);

/* [neles][nrow][ncol] -> [nrow][ncol][neles] (frx_matrix_write's host
 * layout for a matrix of nrow rows and ncol variables). */
FR_EXTERN void fr_to_matrix_layout(const double *src, size_t neles,
                                   size_t nrow, size_t ncol, double *dst);

/* "file:line:col" of a node of the case into buf, for messages. */
FR_EXTERN const char *fr_cfg_place(const frx_cfgnode *node, char *buf,
                                   size_t n);

#ifdef __cplusplus
}
#endif
#endif
