/* SPDX-License-Identifier: BSD-3-Clause */
/* Gmsh's element types: every one up to the 1000-node hexahedron, so
 * that a reader can read past elements frx does not use, and their
 * names in messages. */
#include "mesh/gmsh-impl.h"

#include <stdio.h>

/* Every type of Gmsh's list up to the 1000-node hexahedron, so that
 * elements frx does not use can still be read past. */
static const struct frx__gmsh_type types[] = {
    {1, "line", 1, 2, 2, 1, 0},          {2, "triangle", 2, 3, 3, 1, 0},
    {3, "quadrilateral", 2, 4, 4, 1, 0}, {4, "tetrahedron", 3, 4, 4, 1, 0},
    {5, "hexahedron", 3, 8, 8, 1, 0},    {6, "prism", 3, 6, 6, 1, 0},
    {7, "pyramid", 3, 5, 5, 1, 0},       {8, "line", 1, 3, 2, 2, 0},
    {9, "triangle", 2, 6, 3, 2, 0},      {10, "quadrilateral", 2, 9, 4, 2, 0},
    {11, "tetrahedron", 3, 10, 4, 2, 0}, {12, "hexahedron", 3, 27, 8, 2, 0},
    {13, "prism", 3, 18, 6, 2, 0},       {14, "pyramid", 3, 14, 5, 2, 0},
    {15, "point", 0, 1, 1, 0, 0},        {16, "quadrilateral", 2, 8, 4, 2, 1},
    {17, "hexahedron", 3, 20, 8, 2, 1},  {18, "prism", 3, 15, 6, 2, 1},
    {19, "pyramid", 3, 13, 5, 2, 1},     {20, "triangle", 2, 9, 3, 3, 1},
    {21, "triangle", 2, 10, 3, 3, 0},    {22, "triangle", 2, 12, 3, 4, 1},
    {23, "triangle", 2, 15, 3, 4, 0},    {24, "triangle", 2, 15, 3, 5, 1},
    {25, "triangle", 2, 21, 3, 5, 0},    {26, "line", 1, 4, 2, 3, 0},
    {27, "line", 1, 5, 2, 4, 0},         {28, "line", 1, 6, 2, 5, 0},
    {29, "tetrahedron", 3, 20, 4, 3, 0}, {30, "tetrahedron", 3, 35, 4, 4, 0},
    {31, "tetrahedron", 3, 56, 4, 5, 0}, {32, "tetrahedron", 3, 22, 4, 4, 1},
    {33, "tetrahedron", 3, 28, 4, 5, 1}, {36, "quadrilateral", 2, 16, 4, 3, 0},
    {37, "quadrilateral", 2, 25, 4, 4, 0},
    {38, "quadrilateral", 2, 36, 4, 5, 0},
    {39, "quadrilateral", 2, 12, 4, 3, 1},
    {40, "quadrilateral", 2, 16, 4, 4, 1},
    {41, "quadrilateral", 2, 20, 4, 5, 1},
    {42, "triangle", 2, 28, 3, 6, 0},    {43, "triangle", 2, 36, 3, 7, 0},
    {44, "triangle", 2, 45, 3, 8, 0},    {45, "triangle", 2, 55, 3, 9, 0},
    {46, "triangle", 2, 66, 3, 10, 0},
    {47, "quadrilateral", 2, 49, 4, 6, 0},
    {48, "quadrilateral", 2, 64, 4, 7, 0},
    {49, "quadrilateral", 2, 81, 4, 8, 0},
    {50, "quadrilateral", 2, 100, 4, 9, 0},
    {51, "quadrilateral", 2, 121, 4, 10, 0},
    {62, "line", 1, 7, 2, 6, 0},         {63, "line", 1, 8, 2, 7, 0},
    {64, "line", 1, 9, 2, 8, 0},         {65, "line", 1, 10, 2, 9, 0},
    {66, "line", 1, 11, 2, 10, 0},
    {92, "hexahedron", 3, 64, 8, 3, 0},  {93, "hexahedron", 3, 125, 8, 4, 0},
    {94, "hexahedron", 3, 216, 8, 5, 0}, {95, "hexahedron", 3, 343, 8, 6, 0},
    {96, "hexahedron", 3, 512, 8, 7, 0}, {97, "hexahedron", 3, 729, 8, 8, 0},
    {98, "hexahedron", 3, 1000, 8, 9, 0},
};

const struct frx__gmsh_type *frx__gmsh_type(int num)
{
    size_t lo = 0, hi = sizeof types / sizeof *types; /* ascending */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (types[mid].num < num)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < sizeof types / sizeof *types && types[lo].num == num
               ? &types[lo] : NULL;
}

const char *frx__gmsh_type_name(const struct frx__gmsh_type *t, char *buf,
                                size_t n)
{
    if (t->dim == 0)
        snprintf(buf, n, "a point (Gmsh type %d)", t->num);
    else
        snprintf(buf, n, "a%s %d-node %s (Gmsh type %d)",
                 t->nnodes == 8 || t->nnodes == 11 || t->nnodes == 18
                     ? "n" : "",
                 t->nnodes, t->shape, t->num);
    return buf;
}
