/* SPDX-License-Identifier: BSD-3-Clause */
/* frx io: output (VTK) and checkpoints (HDF5) of a solution, as the
 * time loop hands them over. Internal: the time loop (solver/run_io.c)
 * calls these; solvers never do. Every function here is collective over
 * comm and returns the same code on every rank: where one rank fails,
 * all return that rank's error ("rank R: ..."; no prefix when every
 * rank failed). */
#ifndef FRX_IO_H
#define FRX_IO_H

#include <frx/frx.h>
#include <frx/plugin.h>

#include <frx/mesh.h>
#include <mpi.h>
#include <stdint.h>

/* The highest enum frx_etype: tables by element type have
 * FRX__ETYPE_LAST + 1 entries (0 unused). */
#define FRX__ETYPE_LAST FRX_ETYPE_PYR

/* One block of the solution, copied to the host. */
struct frx__io_block {
    const frx_solver_block *sb; /* the solver's description of it */
    int etype;                  /* enum frx_etype, from the mesh */
    const uint64_t *gid;        /* [neles] global element numbers */
    void *u;                    /* [nupts][nvars][neles] host layout of
                                   frx_matrix_read, fpsize bytes each;
                                   filled by frx__ckpt_read */
};

struct frx__io_fields {
    int ndims;
    size_t fpsize;              /* 4 or 8: the backend's precision */
    size_t nvars;
    const frx_solver_var *vars; /* nvars of var_size bytes */
    size_t var_size;
    size_t nblocks;
    struct frx__io_block *blocks;
};

/* Write the output of one step of the series `name`:
 *   dir/<name>/<name>-<step>-<rank>.vtu   every rank's piece
 *   dir/<name>-<step>.pvtu                the step's pieces (rank 0)
 *   dir/<name>.pvd                        every step's file and time t
 * (<step> in at least 6 digits; folders made when missing). Each element
 * is one cell of the solver's vtk_type (0: linear where nvis is the
 * corner count, else Lagrange) whose points are vis_pts (a pyramid:
 * vtk_type 0 or 14, nvis an equispaced lattice's points, cut into
 * linear pyramids and tetrahedra as PyFR does: vtk.c), with one point
 * array per variable, vis_op x u, in the backend's precision; cell
 * arrays "rank" and "gid"; the time as field data TimeValue; appended
 * raw binary. Every file is written under a temporary name and renamed,
 * the pieces before the .pvtu, the .pvtu before the .pvd names it. The
 * .pvd keeps earlier steps' entries and drops those of steps >= step
 * and those after run_from (the step this run started from) and before
 * run_first (the first step it wrote): the entries of a run it replaces
 * from a checkpoint at run_from. */
int frx__vtk_write(MPI_Comm comm, const char *dir, const char *name,
                   const struct frx__io_fields *f, double t, uint64_t step,
                   uint64_t run_from, uint64_t run_first);

/* A picture of variable var of a 2-D solution as PNG at path (under a
 * temporary name, renamed): each element drawn from its output points
 * (vis_pts, vis_op x u) by the polynomial they interpolate, width
 * pixels across the mesh's extent (the height to scale), in viridis
 * from the drawn field's least to largest value, with a frame, ticks
 * and values on both axes, a colour bar and the title. Text chunks say
 * where the plot area and the colour bar lie and the range
 * (docs/output.md). Drawn on rank 0 from every rank's elements. */
int frx__picture_write(MPI_Comm comm, const char *path,
                       const struct frx__io_fields *f, size_t var,
                       const char *title, int width);

/* What a checkpoint holds besides the solution. */
struct frx__ckpt_meta {
    double t, dt;
    uint64_t step;
    uint64_t nrhs;          /* RHS evaluations so far */
    double ctrl[4];         /* the dt controller's state (scheme's own) */
    char scheme[32];        /* time.scheme */
    char solver[64];        /* solver.name */
    char mesh_id[65];       /* frx_mesh_info.id */
    int precision;          /* enum frx_precision */
    /* written when not NULL (frx plot reads them back): the case's YAML
     * and its file's absolute path */
    const char *case_text, *case_file;
    /* extension plugins' states (extension.h save and load), the same
     * on every rank: written where next > 0, each under 60 kB; a read
     * fills them with malloc'd copies (frx__ckpt_meta_free) */
    size_t next;
    char **ext_names;
    void **ext_data;
    size_t *ext_len;
    /* fields that extensions keep in checkpoints (extension.h
     * frx_ext_keep), written where nkept > 0: group
     * extension_fields/<kept_names[i]>, laid out as the solution (per
     * element type, ascending global element number, its variables'
     * names as an attribute); read back by frx__ckpt_read_kept */
    size_t nkept;
    const char *const *kept_names;
    const struct frx__io_fields *kept;
};

/* Read the kept fields `name` of checkpoint path into f's blocks (any
 * number of ranks): FRX_ECONFIG where the file has none of that name or
 * they do not fit f (variables, element types, points), naming what
 * differs. */
int frx__ckpt_read_kept(MPI_Comm comm, const char *path, const char *name,
                        struct frx__io_fields *f);
/* Free what frx__ckpt_read allocated in m (the extensions' states). */
void frx__ckpt_meta_free(struct frx__ckpt_meta *m);

/* Write a checkpoint (parallel HDF5) to path: under path.tmp, renamed
 * by rank 0 once every rank closed it and it is on disk. The solution is
 * stored per element type in ascending global element number, bit for
 * bit (m->precision must be f->fpsize's), so any number of ranks can
 * read it back. docs/output.md has the layout. */
int frx__ckpt_write(MPI_Comm comm, const char *path,
                    const struct frx__ckpt_meta *m,
                    const struct frx__io_fields *f);

/* Read a checkpoint into each block's u (for the global elements this
 * rank holds, any number of ranks) and m. On entry m->solver, mesh_id
 * and precision are this run's; the checkpoint is refused (FRX_ECONFIG,
 * naming the file and both values) if they, the variables (count and
 * names), ndims, the element types, counts or points per element
 * differ. On success m holds the file's meta data (scheme included: the
 * caller decides whether its controller state applies). A missing or
 * damaged file is FRX_EIO with HDF5's reason. */
int frx__ckpt_read(MPI_Comm comm, const char *path,
                   struct frx__ckpt_meta *m, struct frx__io_fields *f);

/* The case a checkpoint was written with (one process, no MPI): *text
 * and *file malloc'd. A checkpoint without one (written by an frx
 * that did not keep it yet, or of a case over 60 kB) is FRX_ENOTFOUND. */
int frx__ckpt_case(const char *path, char **text, char **file);

/* ----------------------------------------------------- a rank's mesh
 * One rank's part of a mesh: what frx_mesh holds (mesh/mesh.c fills it
 * from the global mesh or reads it) and a partitioned mesh file stores
 * per part. Faces and their orders are frx/mesh.h's. */
struct frx__mpart_block {
    int etype, order;
    size_t neles, nshape, nfaces;
    double *shape;          /* [neles][nshape][ndims] */
    uint64_t *gid;          /* [neles] ascending */
};

struct frx__mpart_peer {
    int rank;
    size_t n;
    frx_face *faces;
    int32_t *periodic;
    uint8_t *canon;         /* 1 where this side is the face's side 0
                               (frx__fglob's canonical side) */
};

struct frx__mpart_bc {
    char *name;
    size_t n;
    frx_face *faces;
};

struct frx__mpart_per {
    char *name;
    double shift[3];
};

struct frx__mpart {
    frx_mesh_info info;     /* its counts size the arrays below */
    struct frx__mpart_block *blocks;
    frx_mesh_iface *ifaces;
    struct frx__mpart_peer *peers;
    struct frx__mpart_bc *bcs;
    struct frx__mpart_per *pers;
};

/* Free p's arrays (not p), leaving it zeroed. */
void frx__mpart_free(struct frx__mpart *p);

/* A partitioned mesh file (io/pmesh.c; docs/mesh.md has the layout):
 * every part of one mesh partition, so that each rank of a job reads
 * only its own. */
struct frx__pmesh_head {
    int nparts;
    int ndims;
    uint64_t neles;         /* of the whole mesh */
    char id[65];            /* the mesh's (frx_mesh_info.id) */
    char method[16];        /* "metis" or "linear" */
    char source[300];       /* where the mesh came from, for messages */
    double *weights;        /* [nparts] the parts' relative weights */
};

void frx__pmesh_head_free(struct frx__pmesh_head *h);

/* One process, no MPI needed: write h->nparts parts to path (under
 * path.tmp, then renamed). part(arg, r, p) fills part r, which is
 * written and freed before the next; a failure of part() stops the
 * write (its error kept) and leaves no file. say(arg, r) may report
 * progress before each part (NULL: nothing said). */
int frx__pmesh_write(const char *path, const struct frx__pmesh_head *h,
                     int (*part)(void *arg, int r, struct frx__mpart *p),
                     void (*say)(void *arg, int r), void *arg);

/* Reading a partitioned mesh file: open it (collective over comm,
 * agreed: a missing, damaged or foreign file is FRX_EIO naming it, a
 * newer format FRX_ECONFIG), read any of its parts (this rank alone, as
 * often as it likes; r in [0, head's nparts)), close it (collective:
 * returns rc agreed over the ranks, so that a rank's failure to read
 * stops every rank). The caller checks the parts' contents against the
 * element types it knows. */
struct frx__pmesh;
int frx__pmesh_open(MPI_Comm comm, const char *path,
                    struct frx__pmesh **out);
const struct frx__pmesh_head *frx__pmesh_head(const struct frx__pmesh *f);
int frx__pmesh_read_part(struct frx__pmesh *f, int r, struct frx__mpart *p);
int frx__pmesh_close(struct frx__pmesh *f, int rc);

#endif
