/* SPDX-License-Identifier: BSD-3-Clause */
/* Reference corners and faces of the element types, in Gmsh's order
 * (frx's mesh model, mesh.h). */
#include "fr-internal.h"

static const double tri_corners[3][3] = {{-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}};
static const int tri_faces[3][4] = {{0, 1}, {1, 2}, {2, 0}};

static const double quad_corners[4][3] = {
    {-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
static const int quad_faces[4][4] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};

static const double hex_corners[8][3] = {
    {-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
    {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
/* Gmsh's face list: each face's corners turn about its outward normal */
static const int hex_faces[6][4] = {{0, 3, 2, 1}, {0, 1, 5, 4}, {0, 4, 7, 3},
                                    {1, 2, 6, 5}, {2, 3, 7, 6}, {4, 5, 6, 7}};

static const double tet_corners[4][3] = {
    {-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
static const int tet_faces[4][4] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {3, 1, 2}};

static const struct fr__reftype reftypes[] = {
    {FR_TRI, 2, 3, 3, 2, tri_corners, tri_faces},
    {FR_QUAD, 2, 4, 4, 2, quad_corners, quad_faces},
    {FR_TET, 3, 4, 4, 3, tet_corners, tet_faces},
    {FR_HEX, 3, 8, 6, 4, hex_corners, hex_faces},
};

const struct fr__reftype *fr__reftype(int etype)
{
    for (size_t i = 0; i < sizeof reftypes / sizeof *reftypes; i++)
        if (reftypes[i].etype == etype)
            return &reftypes[i];
    return NULL;
}
