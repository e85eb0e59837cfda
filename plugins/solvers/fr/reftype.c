/* SPDX-License-Identifier: BSD-3-Clause */
/* Reference corners and faces of the element types, in Gmsh's order
 * (frx's mesh model, mesh.h). */
#include "fr-internal.h"

static const double tri_corners[3][3] = {{-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}};
static const int tri_faces[3][4] = {{0, 1}, {1, 2}, {2, 0}};
static const int two[4] = {2, 2, 2, 2}, three[4] = {3, 3, 3, 3};
static const int four[6] = {4, 4, 4, 4, 4, 4};

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

static const double pri_corners[6][3] = {
    {-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}};
static const int pri_faces[5][4] = {
    {0, 2, 1}, {3, 4, 5}, {0, 1, 4, 3}, {0, 3, 5, 2}, {1, 2, 5, 4}};
static const int pri_fnc[5] = {3, 3, 4, 4, 4};

/* Gmsh's MPyramid: the base counter-clockwise seen from above, the apex;
 * its four triangles, then the base */
static const double pyr_corners[5][3] = {
    {-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {0, 0, 1}};
static const int pyr_faces[5][4] = {
    {0, 1, 4}, {3, 0, 4}, {1, 2, 4}, {2, 3, 4}, {0, 3, 2, 1}};
static const int pyr_fnc[5] = {3, 3, 3, 3, 4};

static const struct fr__reftype reftypes[] = {
    {FR_TRI, 2, 3, 3, tri_corners, tri_faces, two},
    {FR_QUAD, 2, 4, 4, quad_corners, quad_faces, two},
    {FR_TET, 3, 4, 4, tet_corners, tet_faces, three},
    {FR_HEX, 3, 8, 6, hex_corners, hex_faces, four},
    {FR_PRI, 3, 6, 5, pri_corners, pri_faces, pri_fnc},
    {FR_PYR, 3, 5, 5, pyr_corners, pyr_faces, pyr_fnc},
};

const struct fr__reftype *fr__reftype(int etype)
{
    for (size_t i = 0; i < sizeof reftypes / sizeof *reftypes; i++)
        if (reftypes[i].etype == etype)
            return &reftypes[i];
    return NULL;
}
