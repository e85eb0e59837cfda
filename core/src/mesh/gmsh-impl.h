/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: Gmsh .msh files. mesh_gmsh_read.c reads what a file says
 * (struct frx__msh: physical names, entities, nodes, elements, each
 * with the line or byte offset it came from; mesh_gmsh_types.c knows
 * Gmsh's element types); mesh_gmsh.c turns that into the global mesh
 * (struct frx__gmesh), with mesh_gmsh_nodes.c, mesh_gmsh_faces.c and
 * mesh_gmsh_shape.c, checking it on the way so that every problem is
 * reported at its place in the file. Private to the mesh folder. */
#ifndef FRX_MESH_GMSH_H
#define FRX_MESH_GMSH_H

#include "mesh/mesh-impl.h"

#include <stdint.h>

/* One Gmsh element type. Corners come first in Gmsh's node order. */
struct frx__gmsh_type {
    int num;            /* Gmsh's type number */
    const char *shape;  /* "quadrilateral" */
    int dim, nnodes, ncorners;
    int order;          /* shape order (0 for a point) */
    int serendipity;    /* an incomplete type: 8-node quad, 20-node hex */
};

/* mesh_gmsh_types.c. The most nodes a type has. */
#define FRX__GMSH_MAX_NODES 1000
/* The type of Gmsh number num, or NULL if frx does not know it. */
const struct frx__gmsh_type *frx__gmsh_type(int num);

/* "a 9-node quadrilateral (Gmsh type 10)", into buf. */
const char *frx__gmsh_type_name(const struct frx__gmsh_type *t, char *buf,
                                size_t n);

struct frx__msh_name {     /* a $PhysicalNames entry */
    int dim;
    int64_t tag;
    char *name;
    uint64_t where;
};

struct frx__msh_entity {   /* an entity's physical groups (2.2: one) */
    int dim;
    int64_t tag;
    size_t nphys;
    int64_t *phys;
};

struct frx__msh_ele {
    uint64_t tag;
    uint64_t where;        /* line (ASCII) or byte offset (binary) */
    uint64_t off;          /* node tags at m->enodes[off ...] */
    int type;              /* Gmsh type number (known to frx) */
    int32_t ent;           /* index in m->ents, or -1: no group */
};

struct frx__msh {
    char *path;
    char version[8];       /* "2.2", "4.1" */
    int binary;
    size_t nnames;
    struct frx__msh_name *names;
    size_t nents;
    struct frx__msh_entity *ents;
    size_t nnodes;
    uint64_t *ntag;        /* [nnodes] */
    double *x;             /* [nnodes][3] */
    uint64_t *nwhere;      /* [nnodes] */
    size_t neles;
    struct frx__msh_ele *eles;
    size_t nenodes;
    uint64_t *enodes;
};

/* Read a whole .msh file, or return an error naming the place in the
 * file (path:line for ASCII, "path, byte N" for binary) and what is
 * wrong. */
int frx__msh_read(const char *path, struct frx__msh *m);
void frx__msh_free(struct frx__msh *m);

/* "mesh.msh:12" or "mesh.msh, byte 345" (just "mesh.msh" for
 * FRX__NOWHERE), into buf. */
#define FRX__NOWHERE UINT64_MAX
const char *frx__msh_place(const struct frx__msh *m, uint64_t where,
                           char *buf, size_t n);

/* frx_error(code, "<place>: <message>"). */
int frx__msh_error(const struct frx__msh *m, int code, uint64_t where,
                   const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ------------------------------------- from the file to the global mesh */

/* mesh_gmsh_shape.c. The smallest Jacobian determinant of an element's
 * shape map at its shape points x[nshape][ndims] (Gmsh order; a
 * pyramid's at its base corners), and in *at the point where it is. */
double frx__gmsh_min_jacobian(int etype, int order, const double *x,
                              int ndims, int *at);
/* Complete an 8-node quadrilateral (20-node hexahedron) whose first 8
 * (20) points x holds to the 9 (27) points of frx's order-2 element. */
void frx__gmsh_complete(int etype, double *x, int ndims);

/* A physical group of faces: a boundary, or one side of a periodic
 * pair. */
struct frx__ggroup {
    int64_t tag;
    char *name;            /* as the file names it, or the tag */
    char *pair;            /* periodic: the pair's id ("0"), else NULL */
    int side;              /* periodic: 0 for _l, 1 for _r */
    uint64_t where;        /* its $PhysicalNames entry (0: none) */
    size_t nfaces, cap;
    struct frx__gface *faces;
    uint64_t *fwhere;      /* [nfaces] where each face's element is */
};

/* A file node: its tag and its node in the global mesh (FRX__NONE if
 * no element of the mesh uses it), sorted by tag. */
struct frx__gnode {
    uint64_t tag, node;
};

/* What mesh_gmsh.c, mesh_gmsh_nodes.c and mesh_gmsh_faces.c share
 * while they build. */
struct frx__gbuild {
    const struct frx__msh *m;
    struct frx__gmesh *g;
    int ndims;
    size_t *sel;           /* file elements of the mesh, in file order */
    size_t nsel;
    size_t nextra;         /* nodes made by completing elements */
    uint64_t *fnode;       /* [m->nnodes] file node -> mesh node */
    size_t *src;           /* [g->neles] the element's index in m->eles */
    uint64_t *gtag;        /* [g->nnodes] Gmsh tag of each node (0: made) */
    struct frx__gnode *map;/* [m->nnodes] */
    size_t ngroups;
    struct frx__ggroup *groups;
};

/* mesh_gmsh_nodes.c. Every tag once, every node an element of sel names
 * defined; map and fnode made, *nused the nodes used, numbered in file
 * order. Then the mesh's nodes: those used, and nextra after them for
 * the points completed elements add. */
int frx__gbuild_map_nodes(struct frx__gbuild *b, size_t *nused);
int frx__gbuild_make_nodes(struct frx__gbuild *b, size_t nused);
/* The node of a file tag: FRX__NONE if unused, FRX__NONE - 1 if no node
 * has that tag. */
uint64_t frx__gbuild_node(const struct frx__gbuild *b, uint64_t tag);

/* mesh_gmsh_faces.c: match the elements' faces, give the boundary and
 * periodic groups their faces (checked: each a face of exactly one
 * element, in one group; every other face shared by two elements; the
 * two sides of a pair one translation apart, face for face), and fill
 * g->bcs and g->pers. */
int frx__gmsh_faces(struct frx__gbuild *b);

/* What `frx mesh info` says of a file beyond the global mesh. */
struct frx__gmsh_about {
    char format[32];       /* "Gmsh 2.2 ASCII" */
    char region[128];      /* the fluid region's name, "" if unnamed */
    size_t nleft;          /* elements of the mesh's dimension outside it */
    size_t nconverted;     /* serendipity elements completed */
};

/* The global mesh of a Gmsh file (about may be NULL). */
int frx__mesh_gmsh_file(const char *path, struct frx__gmesh *g,
                        struct frx__gmsh_about *about);

#endif
