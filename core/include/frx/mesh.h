/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: the mesh a rank holds.
 *
 * A mesh is made once per job from the case (mesh.*: a generated box
 * today, an imported file later), partitioned across the ranks of a
 * communicator (METIS, weighted per rank), and handed to the solver as
 * this rank's part: its elements in blocks of one element type, and its
 * faces classified as interior (both sides here, periodic pairs
 * included), rank boundary (the other side on a peer rank, in an order
 * both ranks agree on) or boundary (named).
 *
 * Conventions (docs/mesh.md has the pictures):
 * - Shape points are in Gmsh's node order; corners first.
 * - Elements are positively oriented (2-D: corners counter-clockwise;
 *   3-D: positive Jacobian at every corner).
 * - Faces are numbered as in Gmsh's edge/face lists: quadrilateral
 *   0:(0,1) 1:(1,2) 2:(2,3) 3:(3,0); triangle 0:(0,1) 1:(1,2) 2:(2,0);
 *   tetrahedron 0:(0,2,1) 1:(0,1,3) 2:(0,3,2) 3:(3,1,2);
 *   hexahedron 0:(0,3,2,1) 1:(0,1,5,4) 2:(0,4,7,3) 3:(1,2,6,5)
 *   4:(2,3,7,6) 5:(4,5,6,7); prism 0:(0,2,1) 1:(3,4,5) 2:(0,1,4,3)
 *   3:(0,3,5,2) 4:(1,2,5,4) (two triangles, then three
 *   quadrilaterals); pyramid (corners 0..3 the base, counter-clockwise
 *   seen from the apex 4) 0:(0,1,4) 1:(3,0,4) 2:(1,2,4) 3:(2,3,4)
 *   4:(0,3,2,1) (four triangles, then the base); each counter-clockwise
 *   seen from outside.
 *   A 10-node tetrahedron's points 4..9 are the middles of its edges
 *   (0,1) (1,2) (2,0) (3,0) (3,2) (3,1). An 18-node prism's points
 *   6..14 are the middles of its edges (0,1) (0,2) (0,3) (1,2) (1,4)
 *   (2,5) (3,4) (3,5) (4,5), 15..17 the centres of its faces 2, 3, 4.
 *   A 14-node pyramid's points 5..12 are the middles of its edges
 *   (0,1) (0,3) (0,4) (1,2) (1,4) (2,3) (2,4) (3,4), 13 the centre of
 *   its base.
 * - In 2-D each side walks a shared face in its own counter-clockwise
 *   sense, so the two sides walk it in opposite directions: point k of
 *   one side meets point nfp-1-k of the other; rot is 0. In 3-D
 *   frx_face.rot says how the two sides' face frames are rotated: it is
 *   the place, in the other side's corner list of the face, of this
 *   side's corner 0, and the other side's corner (rot - i) mod n is this
 *   side's corner i (n = 4 for a quadrilateral face, 3 for a
 *   triangle). Both sides have the same rot. Faces meet whole: a
 *   triangle meets a triangle, a quadrilateral a quadrilateral, across
 *   blocks of different types too (a prism's triangle a tetrahedron's,
 *   its quadrilateral a hexahedron's, a pyramid's base a hexahedron's
 *   or a prism's quadrilateral, its sides tetrahedra's or prisms'
 *   triangles).
 * - Every face has a canonical side: for an interior face the side of
 *   the lower global element number (then the lower face number); for a
 *   periodic face the side on the pair's side 0. It is the l side of an
 *   frx_mesh_iface, and faces are listed in the order of their canonical
 *   (global element, face), on every rank.
 * - The box mesh's boundaries are left/right (x lower/upper),
 *   bottom/top (y) and back/front (z), each only where that direction
 *   is not periodic; its periodic pairs are named x, y and z.
 *
 * Every struct the core fills starts with its size (set it to sizeof
 * before the call); arrays of structs come with their element size so
 * the structs can grow. Pointers stay valid until frx_mesh_destroy. */
#ifndef FRX_MESH_H
#define FRX_MESH_H

#include "frx.h"

#include <mpi.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct frx_mesh frx_mesh;

enum frx_etype {
    FRX_ETYPE_TRI = 1,
    FRX_ETYPE_QUAD = 2,
    FRX_ETYPE_TET = 3,
    FRX_ETYPE_HEX = 4,
    FRX_ETYPE_PRI = 5, /* prism (wedge) */
    FRX_ETYPE_PYR = 6  /* pyramid */
};

typedef struct frx_mesh_info {
    uint32_t size;
    int ndims;
    int rank, nranks;       /* the partition this rank holds */
    size_t nblocks;         /* one per element type and shape order
                               present on this rank, ascending by
                               (etype, order) */
    size_t nifaces;         /* interior faces (both sides on this rank) */
    size_t npeers;          /* ranks this rank shares faces with */
    size_t nbcs;            /* named boundaries (the same list on every
                               rank, possibly with no faces here) */
    uint64_t neles_global;
    uint64_t neles;         /* on this rank */
    char id[65];            /* SHA-256 of the global mesh: checkpoints */
    size_t nperiodic;       /* ABI 1.3: periodic pairs of the mesh */
} frx_mesh_info;

typedef struct frx_mesh_block {
    uint32_t size;
    int etype;              /* enum frx_etype */
    int order;              /* shape order: 1 straight, 2 quadratic */
    size_t neles;
    size_t nshape;          /* shape points per element */
    size_t nfaces;          /* faces per element */
    const double *shape;    /* [neles][nshape][ndims] */
    const uint64_t *gid;    /* [neles] global element numbers, ascending */
} frx_mesh_block;

/* One side of a face: face `face` of element `ele` of block `blk`. */
typedef struct frx_face {
    uint32_t blk, ele;
    uint16_t face;
    uint16_t rot; /* 3-D only: rotation relative to the other side */
} frx_face;

/* A face with both sides on this rank, l the canonical side. periodic
 * is -1, or the index of the periodic pair the face belongs to: r then
 * lies at l + that pair's shift. */
typedef struct frx_mesh_iface {
    frx_face l, r;
    int32_t periodic;
} frx_mesh_iface;

/* The faces shared with one other rank, in the same order on both (by
 * canonical side); peers come in ascending rank order. */
typedef struct frx_mesh_peer {
    uint32_t size;
    int rank;
    size_t nfaces;
    const frx_face *faces;     /* this rank's sides */
    size_t face_size;          /* sizeof(frx_face) as the core has it */
    const int32_t *periodic;   /* [nfaces]: as frx_mesh_iface.periodic */
    /* ABI 1.11: [nfaces] 1 where this rank's side is the face's
     * canonical side (the l side it would be if both were here), else
     * 0: a one-sided scheme (LDG) orients each face as one rank would */
    const uint8_t *canonical;
} frx_mesh_peer;

/* One named boundary: its faces on this rank, by (element, face). */
typedef struct frx_mesh_bc {
    uint32_t size;
    const char *name;          /* the boundary's name in the mesh */
    size_t nfaces;
    const frx_face *faces;
    size_t face_size;
} frx_mesh_bc;

/* ABI 1.3: one periodic pair of the mesh: the faces of its side 0
 * moved by shift are the faces of its side 1. */
typedef struct frx_mesh_periodic {
    uint32_t size;
    const char *name;          /* "x", "y", "z" for the box */
    double shift[3];           /* ndims values used */
} frx_mesh_periodic;

FRX_EXTERN int frx_mesh_get_info(const frx_mesh *m, frx_mesh_info *out);
FRX_EXTERN int frx_mesh_get_block(const frx_mesh *m, size_t i,
                                  frx_mesh_block *out);
FRX_EXTERN int frx_mesh_get_ifaces(const frx_mesh *m,
                                   const frx_mesh_iface **faces, size_t *n,
                                   size_t *elsize);
FRX_EXTERN int frx_mesh_get_peer(const frx_mesh *m, size_t i,
                                 frx_mesh_peer *out);
FRX_EXTERN int frx_mesh_get_bc(const frx_mesh *m, size_t i,
                               frx_mesh_bc *out);
FRX_EXTERN int frx_mesh_get_periodic(const frx_mesh *m, size_t i,
                                     frx_mesh_periodic *out);

/* Collective over comm: build the mesh of the case (mesh.*) and give
 * this rank its part (partition.*, each rank weighted by
 * partition.weights or its backend.rules item's weight). Every rank
 * gets the same partition; if any rank fails, every rank returns that
 * rank's error. */
FRX_EXTERN int frx_mesh_create(const frx_config *cfg, MPI_Comm comm,
                               frx_mesh **out);
FRX_EXTERN void frx_mesh_destroy(frx_mesh *m);

#ifdef __cplusplus
}
#endif
#endif
