/* SPDX-License-Identifier: BSD-3-Clause */
/* Gmsh 2.2 files of n^3 cubes of [0,1]^3 cut into elements of several
 * types (mixed_mesh.c), for the tests of solvers on mixed meshes. */
#ifndef FRX_TEST_MIXED_MESH_H
#define FRX_TEST_MIXED_MESH_H

/* Tetrahedron q (0..5) of the box's cut of cube (i, j, k): its corners
 * as lattice points, right-handed (the lower corner, a step along one
 * axis, then another, the upper corner; odd orders of the axes with
 * corners 1 and 2 swapped). */
void mixed_mesh_kuhn_tet(int i, int j, int k, int q, int v[4][3]);

/* What the cubes are cut into, by their place:
 * MIXED_HEX_PRISM  hexahedra where x < 1/2 beside prisms (their squares
 *                  meet); a prism cube holds the two prisms either side
 *                  of its xy square's (0,0)-(1,1) diagonal
 * MIXED_TET_PRISM  the box's 6 tetrahedra a cube where z < 1/2 under
 *                  prisms (their triangles meet: the tetrahedra's tops
 *                  are cut along the same diagonal)
 * MIXED_HEX_PYR    hexahedra where x < 1/2 beside cubes cut about their
 *                  centre into four pyramids on their x and y faces
 *                  (squares meeting the hexahedra's and each other's)
 *                  and four tetrahedra on their z faces, cut along that
 *                  diagonal (triangles meeting the pyramids' and the
 *                  next cube's in z)
 * MIXED_ALL        columns of hexahedra, prisms and pyramid cubes in
 *                  turn along x (column i: i mod 3): every type, and
 *                  squares between every two of hexahedra, prisms and
 *                  pyramids */
enum mixed_kind { MIXED_HEX_PRISM, MIXED_TET_PRISM, MIXED_HEX_PYR,
                  MIXED_ALL };

/* Write path: n^3 cubes cut as kind says, periodic in x and y
 * (periodic_x_l/_r, periodic_y_l/_r); the z = 0 and z = 1 sides
 * "bottom" and "top", or where periodic_z the pair periodic_z_l/_r.
 * 0, or -1 with errno where the file cannot be written. */
int mixed_mesh_write(const char *path, int n, enum mixed_kind kind,
                     int periodic_z);

#endif
