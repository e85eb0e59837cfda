/* SPDX-License-Identifier: BSD-3-Clause */
/* Gmsh .msh files written by the tests: structured meshes of quads,
 * triangles, tetrahedra, hexahedra, prisms or pyramids, or of two or
 * three of these in 3-D
 * (order 1 or 2, curved by a map),
 * with named sides, in versions 2.2 and 4.1, ASCII or binary, written
 * here without Gmsh so that the reader is checked against the format as
 * documented.
 * The tests also break the files on purpose (gw_text, gw_line_of). */
#ifndef FRX_GMSHWRITE_H
#define FRX_GMSHWRITE_H

#include <stddef.h>
#include <stdint.h>

#define GW_MAX_ELES 100000

struct gw_ele {
    uint64_t tag;
    int type;       /* Gmsh type */
    int phys;       /* physical tag, 0 for none */
    int nn;
    uint64_t n[27]; /* node tags */
};

struct gw_name {
    int dim, tag;
    char name[64];
};

struct gw_mesh {
    size_t nnodes;
    uint64_t *ntag;
    double (*x)[3];
    size_t neles;
    struct gw_ele *eles;
    size_t nnames;
    struct gw_name names[16];
};

/* A structured mesh of the box [0, n[0]] x [0, n[1]] (x [0, n[2]]),
 * mapped by map (NULL: identity), of Gmsh type `type` (2, 9 triangles;
 * 3, 10, 16 quadrilaterals; 4, 11 tetrahedra, six a cube, their sides
 * triangles; 5, 12, 17 hexahedra; 6, 13 prisms, two a cube (its square
 * cut from (0, 0) to (1, 1), extruded along z), their sides
 * quadrilaterals, triangles on the z sides; 7, 14 pyramids, six a cube
 * around its centre, their sides quadrilaterals, or with pyr_tets one
 * pyramid (on the cube's x-low face) and four tetrahedra, every other
 * side cut as the tetrahedra's). With type2, the cells from index from2
 * on along axis axis2 are of that type (of the same order), with type3
 * those from from3 on of that one: a mesh of two or three types (for
 * pyramids with tetrahedra: axis2 0). The region is named
 * region (NULL: physical tag 0); side s (x low, x high, y low, y high,
 * z low, z high) is named sides[s] (NULL: in no group). Node tags are
 * sparse (2 i + 101); element tags follow the boundary faces, then
 * one point element (type 15) in group "corner". */
struct gw_spec {
    int n[3];          /* n[2] = 0 for 2-D */
    int type;
    int type2, axis2, from2; /* type2 0: one type */
    int type3, from3;        /* type3 0: none */
    int pyr_tets;
    const char *region;
    const char *sides[6];
    void (*map)(double *x);
};

void gw_make(const struct gw_spec *s, struct gw_mesh *m);
void gw_free(struct gw_mesh *m);

/* The file's bytes: version 22 or 41, ASCII (binary 0) or binary. */
struct gw_file {
    char *p;
    size_t n, cap;
    uint64_t lines; /* newlines written */
    uint64_t *line; /* [neles] line of each element (ASCII) */
};

void gw_write(const struct gw_mesh *m, int version, int binary,
              struct gw_file *f);
void gw_file_free(struct gw_file *f);

/* Write bytes to dir/name; the path written, in a static buffer. */
const char *gw_save(const char *dir, const char *name, const char *p,
                    size_t n);

/* The 1-based line holding the first match of s in text (0: none). */
int gw_line_of(const char *text, const char *s);

#endif
