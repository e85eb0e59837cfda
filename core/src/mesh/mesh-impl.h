/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: the global mesh, as every mesh source fills it, and the steps
 * that turn it into a rank's part (mesh.c). Private to the mesh files.
 *
 *   source (mesh_box.c, mesh_gmsh*.c) -> struct frx__gmesh
 *   -> frx__mesh_connect (mesh_conn.c): faces, periodic pairs, checks
 *   -> frx__mesh_partition (mesh_part.c): an owner rank per element
 *   -> mesh.c: this rank's blocks, interior, peer and boundary faces.
 *
 * A source knows nothing of faces beyond the boundary and periodic face
 * lists it is given; everything else is derived here. */
#ifndef FRX_MESH_IMPL_H
#define FRX_MESH_IMPL_H

#include "config/config-impl.h"
#include "io/io-impl.h"

#include <frx/mesh.h>
#include <stdint.h>

/* ------------------------------------------------------- element types */

#define FRX__MAX_FACES 6  /* hexahedron */
#define FRX__MAX_FNC 4    /* corners of a face */
#define FRX__MAX_ORDER 2  /* shape order a source may give */

/* What the core knows of one element type. Faces list their corners in
 * Gmsh's order, which walks each face counter-clockwise seen from
 * outside the element (2-D: from the first corner to the second). */
struct frx__etype_info {
    int etype;      /* enum frx_etype */
    const char *name;
    int ndims, ncorners, nfaces;
    int fnc[FRX__MAX_FACES];                 /* corners of each face */
    int face[FRX__MAX_FACES][FRX__MAX_FNC];  /* their local numbers */
    size_t nshape[FRX__MAX_ORDER + 1];       /* shape points by order */
    int gmsh[FRX__MAX_ORDER + 1];            /* Gmsh element type number */
};

/* The type's table, or NULL for a type the core cannot handle yet. */
const struct frx__etype_info *frx__etype(int etype);

/* --------------------------------------------------------- global mesh */

/* A face given by its corners (global node numbers); nn of them. */
struct frx__gface {
    uint64_t n[FRX__MAX_FNC];
    int nn;
};

/* A named boundary: faces of elements no other element shares. */
struct frx__gbc {
    char *name;
    size_t nfaces;
    struct frx__gface *faces;
};

/* Two lists of boundary faces lying one translation apart: side 0 moved
 * by shift is side 1. Faces are paired by their translated corners. */
struct frx__gper {
    char *name;
    double shift[3];
    size_t nfaces[2];
    struct frx__gface *faces[2];
};

struct frx__gmesh {
    int ndims;
    size_t nnodes;
    double *nodes;      /* [nnodes][ndims] */
    size_t neles;
    int *etype;         /* [neles] enum frx_etype */
    int *order;         /* [neles] shape order, 1 to FRX__MAX_ORDER */
    size_t *eoff;       /* [neles + 1] element e's shape points are the */
    uint64_t *enodes;   /* nodes enodes[eoff[e] .. eoff[e+1]), Gmsh order */
    size_t nbcs;
    struct frx__gbc *bcs;
    size_t npers;
    struct frx__gper *pers;
    char source[300];   /* for messages: "case.yaml:3:3: mesh (box)" */
};

void frx__gmesh_free(struct frx__gmesh *g);

/* Sources. Each fills g from the case or returns an error naming the
 * place (file:line:col) and what to do. */
int frx__mesh_box(const frx_cfgnode *mesh, struct frx__gmesh *g);

/* mesh: {type: gmsh, file}: a Gmsh .msh file, relative to the case
 * file's directory (mesh_gmsh.c). */
int frx__mesh_gmsh(const frx_cfgnode *mesh, struct frx__gmesh *g);
/* The part of frx_config_check of a gmsh or partitioned mesh (what:
 * "the .msh file"), as frx__mesh_box_check's: no box key, mesh.file
 * there and readable. */
int frx__mesh_file_check(const frx_cfgnode *mesh, const char *what);
#define FRX__MESH_FILE_GMSH "the .msh file"
#define FRX__MESH_FILE_PARTS "the partitioned mesh file (frx mesh partition -o)"

/* Check mesh.* for frx_config_check: every problem the schema cannot
 * see (list lengths that disagree, lower >= upper, too many elements),
 * each appended to frx_errmsg(); returns how many. */
int frx__mesh_box_check(const frx_cfgnode *mesh);

/* SHA-256 of the global mesh as hex (nodes, elements, boundaries,
 * periodic pairs), into id[65]. */
void frx__gmesh_id(const struct frx__gmesh *g, char id[65]);

/* ------------------------------------------------------- connectivity */

#define FRX__NONE UINT64_MAX

/* One face of the global mesh. Side 0 is the canonical side: for an
 * interior face the lower (element, face), for a periodic face the one
 * on the pair's side 0. Side 1 is FRX__NONE for a boundary face. */
struct frx__fglob {
    uint64_t ele[2];
    uint16_t face[2];
    uint16_t rot;       /* 3-D: see mesh.h */
    int32_t periodic;   /* pair index or -1 */
    int32_t bc;         /* boundary index or -1 */
};

struct frx__conn {
    size_t nfaces;
    struct frx__fglob *faces; /* sorted by (ele[0], face[0]) */
    size_t *foff;             /* [neles + 1]: element e's face f is */
    uint64_t *fidx;           /* global face fidx[foff[e] + f] */
};

/* Match faces (sorted corners, through each corner node's elements),
 * pair periodic faces (translated coordinates), attach boundaries, and
 * check orientation; any face on no boundary, or a periodic face with
 * no partner, is an error. */
int frx__mesh_connect(const struct frx__gmesh *g, struct frx__conn *c);
void frx__conn_free(struct frx__conn *c);

/* Each corner node's elements, ascending, each element once (one that
 * names a node twice is listed once): node n's are ele[off[n] ..
 * off[n + 1]). Faces are found among the elements of their lowest
 * corner (mesh_conn.c, mesh_gmsh_faces.c). At most UINT32_MAX
 * elements. */
struct frx__corner_elements {
    size_t *off;   /* [nnodes + 1] */
    uint32_t *ele;
};
int frx__corner_elements(const struct frx__gmesh *g,
                         struct frx__corner_elements *ce);
void frx__corner_elements_free(struct frx__corner_elements *ce);
/* The element faces whose corners, sorted, are key[0 .. nn) (nn of
 * them, key[0] the lowest): how many; the first max of them, in
 * ascending order, as elements ele[] and their faces face[]. */
int frx__faces_at(const struct frx__gmesh *g,
                  const struct frx__corner_elements *ce, const uint64_t *key,
                  int nn, int max, uint64_t *ele, int *face);
/* Node numbers k[0 .. n) in ascending order (a face's key). */
void frx__sort_nodes(uint64_t *k, int n);
/* Face f of element e: its corners as global nodes, in the element's
 * face order; how many. */
int frx__face_corners(const struct frx__gmesh *g, uint64_t e, int f,
                      uint64_t *out);

/* ------------------------------------------------------ what the case says
 * (mesh_case.c) */

enum { FRX__MESH_BOX = 0, FRX__MESH_GMSH = 1, FRX__MESH_PARTITIONED = 2 };

/* mesh.type, or an error naming the place. */
int frx__mesh_type(const frx_config *cfg, int *type);
/* The whole mesh of a box or gmsh case. */
int frx__mesh_source(const frx_config *cfg, struct frx__gmesh *g);
/* "case.yaml:3:1" of the mesh key, for messages about the whole mesh. */
const char *frx__mesh_where(const frx_config *cfg, char *buf, size_t n);
/* Collective: every rank learns whether any rank failed (rc); all then
 * return the lowest failing rank's code and message. */
int frx__mesh_agree(MPI_Comm comm, int rank, int nranks, int rc);
/* Collective: every rank's weight (partition.weights[rank], else its
 * backend.rules item's weight, else 1) into weights[nranks]; *given:
 * whether the case set any. */
int frx__mesh_weights(const frx_config *cfg, MPI_Comm comm, int rank,
                      int nranks, double *weights, int *given);
/* partition.method (FRX__PART_*, metis when not given). */
int frx__mesh_method(const frx_config *cfg, int *method, int *given);

/* ---------------------------------------------------------- partition */

enum { FRX__PART_METIS = 0, FRX__PART_LINEAR = 1 };

/* An element type's relative cost an RHS (PyFR's default partition
 * weights), by which a mesh of several types is shared out. */
int frx__etype_cost(int etype);

/* part[neles]: the owner rank of each element, for nparts ranks of the
 * given relative weights (all > 0). Deterministic. */
int frx__mesh_partition(const struct frx__gmesh *g,
                        const struct frx__conn *c, int method, int nparts,
                        const double *weights, int *part);
/* As frx__mesh_partition, for one process partitioning a large mesh
 * (frx mesh partition): METIS's graph is made from c's faces, which are
 * then freed while METIS runs (it needs their memory) and connected
 * again after, so the peak is the mesh and METIS, not the two and the
 * faces. */
int frx__mesh_partition_lean(const struct frx__gmesh *g,
                             struct frx__conn *c, int method, int nparts,
                             const double *weights, int *part);

/* ------------------------------------------------------- a rank's part */

/* Cut rank's part out of the global mesh (mesh_cut.c); p->info.id is
 * left to the caller. */
int frx__mesh_cut(struct frx__mpart *p, const struct frx__gmesh *g,
                  const struct frx__conn *c, const int *part, int rank,
                  int nranks);

/* Collective: this rank's part of a mesh of type partitioned, read from
 * its file (mesh_load.c) and checked: the file's ranks, weights and
 * method against the job's, every index in range. A file of more parts
 * than the job's ranks gives rank r the parts [first(r), first(r + 1)),
 * merged. Agreed. */
int frx__mesh_load(const frx_config *cfg, MPI_Comm comm,
                   struct frx__mpart *p);

/* Parts of a file of nparts parts on nranks ranks (nranks <= nparts):
 * rank r holds [first(r), first(r + 1)); the owner of part q. */
int frx__mesh_first_part(int rank, int nparts, int nranks);
int frx__mesh_part_owner(int q, int nparts, int nranks);
/* parts[0..n), parts first..first+n-1 of a file of nparts parts, made
 * rank's part of a job of nranks ranks (mesh_merge.c); the parts are
 * left as they are. */
int frx__mesh_merge(const struct frx__mpart *parts, int n, int first,
                    int nparts, int nranks, int rank, struct frx__mpart *out);

/* mesh.file of a gmsh or partitioned mesh, relative to the case file's
 * folder, into path; a problem goes to msg (frx_errmsg() is left alone:
 * config checks collect messages), *at is the key's node (or NULL). */
int frx__mesh_file_path(const frx_cfgnode *mesh, const char *what,
                        char *path, size_t n, const frx_cfgnode **at,
                        char *msg, size_t msgn);

#endif
