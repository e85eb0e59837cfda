/* SPDX-License-Identifier: BSD-3-Clause */
/* The element types the core handles: corners, faces in Gmsh's order
 * (its MTriangle, MQuadrangle, MTetrahedron, MHexahedron, MPrism and
 * MPyramid lists, each face counter-clockwise seen from outside) and
 * shape points per order. Faces meet whole, by their corners: a
 * triangle (a tetrahedron's, a prism's, a pyramid's side) meets a
 * triangle, a quadrilateral (a hexahedron's, a prism's, a pyramid's
 * base) a quadrilateral. Where a quadrilateral touches two triangles
 * their faces are loose and the mesh is refused (mesh_gmsh_faces.c
 * says why): a pyramid or prisms must join them. */
#include "mesh/mesh-impl.h"

static const struct frx__etype_info types[] = {
    {.etype = FRX_ETYPE_TRI, .name = "triangle", .ndims = 2,
     .ncorners = 3, .nfaces = 3, .fnc = {2, 2, 2},
     .face = {{0, 1}, {1, 2}, {2, 0}},
     .nshape = {0, 3, 6}, .gmsh = {0, 2, 9}},
    {.etype = FRX_ETYPE_QUAD, .name = "quadrilateral", .ndims = 2,
     .ncorners = 4, .nfaces = 4, .fnc = {2, 2, 2, 2},
     .face = {{0, 1}, {1, 2}, {2, 3}, {3, 0}},
     .nshape = {0, 4, 9}, .gmsh = {0, 3, 10}},
    /* reference corners (-1,-1,-1) (1,-1,-1) (-1,1,-1) (-1,-1,1);
     * order 2 adds the middles of edges 0-1 1-2 2-0 3-0 3-2 3-1 */
    {.etype = FRX_ETYPE_TET, .name = "tetrahedron", .ndims = 3,
     .ncorners = 4, .nfaces = 4, .fnc = {3, 3, 3, 3},
     .face = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {3, 1, 2}},
     .nshape = {0, 4, 10}, .gmsh = {0, 4, 11}},
    {.etype = FRX_ETYPE_HEX, .name = "hexahedron", .ndims = 3,
     .ncorners = 8, .nfaces = 6, .fnc = {4, 4, 4, 4, 4, 4},
     .face = {{0, 3, 2, 1}, {0, 1, 5, 4}, {0, 4, 7, 3},
              {1, 2, 6, 5}, {2, 3, 7, 6}, {4, 5, 6, 7}},
     .nshape = {0, 8, 27}, .gmsh = {0, 5, 12}},
    /* reference corners (-1,-1,-1) (1,-1,-1) (-1,1,-1) (-1,-1,1)
     * (1,-1,1) (-1,1,1): the triangle 0 1 2 extruded along z; order 2
     * adds the middles of edges 0-1 0-2 0-3 1-2 1-4 2-5 3-4 3-5 4-5,
     * then the centres of faces 2, 3, 4 (Gmsh's 18-node prism) */
    {.etype = FRX_ETYPE_PRI, .name = "prism", .ndims = 3,
     .ncorners = 6, .nfaces = 5, .fnc = {3, 3, 4, 4, 4},
     .face = {{0, 2, 1}, {3, 4, 5}, {0, 1, 4, 3}, {0, 3, 5, 2},
              {1, 2, 5, 4}},
     .nshape = {0, 6, 18}, .gmsh = {0, 6, 13}},
    /* reference corners (-1,-1,-1) (1,-1,-1) (1,1,-1) (-1,1,-1) (0,0,1):
     * the base 0 1 2 3, then the apex; order 2 adds the middles of
     * edges 0-1 0-3 0-4 1-2 1-4 2-3 2-4 3-4, then the base's centre
     * (Gmsh's 14-node pyramid) */
    {.etype = FRX_ETYPE_PYR, .name = "pyramid", .ndims = 3,
     .ncorners = 5, .nfaces = 5, .fnc = {3, 3, 3, 3, 4},
     .face = {{0, 1, 4}, {3, 0, 4}, {1, 2, 4}, {2, 3, 4}, {0, 3, 2, 1}},
     .nshape = {0, 5, 14}, .gmsh = {0, 7, 14}},
};

const struct frx__etype_info *frx__etype(int etype)
{
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (types[i].etype == etype)
            return &types[i];
    return NULL;
}
