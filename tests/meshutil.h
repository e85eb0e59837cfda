/* SPDX-License-Identifier: BSD-3-Clause */
/* Geometry of a rank's mesh part, for the mesh tests: the conventions
 * of docs/mesh.md written out again independently of the core. */
#ifndef FRX_MESHUTIL_H
#define FRX_MESHUTIL_H

#include <frx/mesh.h>

/* The corners of face f of an element type, in the element's face
 * order (counter-clockwise seen from outside); how many. */
int mu_face_corners(int etype, int f, int *corners);

/* Point i of an element's shape, and the corners of a face side. */
const double *mu_shape_point(const frx_mesh *m, uint32_t blk, uint32_t ele,
                             size_t i);
/* Corner i of face side s (in its element's face order) into x. */
void mu_face_corner(const frx_mesh *m, frx_face s, int i, double *x);
int mu_face_ncorners(const frx_mesh *m, frx_face s);
/* The mean of a face side's corners. */
void mu_face_mid(const frx_mesh *m, frx_face s, double *x);
/* The global element number of a side. */
uint64_t mu_gid(const frx_mesh *m, frx_face s);

/* The smallest signed area (2-D) or corner Jacobian (3-D) of the
 * corners of element ele of block blk: positive when the element is
 * positively oriented. */
double mu_orientation(const frx_mesh *m, uint32_t blk, uint32_t ele);

/* 6 times the signed volume of a tetrahedron (block blk holds
 * tetrahedra): positive when right-handed. */
double mu_tet_volume6(const frx_mesh *m, uint32_t blk, uint32_t ele);

/* The signed volume of a tetrahedron, prism, pyramid or hexahedron
 * with plane faces (its corners'), each cut into right-handed
 * tetrahedra. */
double mu_volume(const frx_mesh *m, uint32_t blk, uint32_t ele);

/* 3-D: the normal its corner order gives face side s (counter-clockwise
 * seen from outside: outward) dotted with the vector from the element's
 * corner mean to the face's: positive when the face's corners turn as
 * docs/mesh.md says. */
double mu_face_outward(const frx_mesh *m, frx_face s);

/* |a - b - shift| in the max norm over ndims values (shift may be
 * NULL). */
double mu_dist(const double *a, const double *b, const double *shift,
               int ndims);

#endif
