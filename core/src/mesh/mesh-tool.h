/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: the mesh code as `frx mesh` uses it (core/cli/cmd_mesh.c): a
 * mesh file read, connected and partitioned in one process, without
 * MPI. Exported from libfrx for the frx program only: not part of the
 * SDK, not installed, no ABI promise. */
#ifndef FRX_MESH_TOOL_H
#define FRX_MESH_TOOL_H

#include <frx/frx.h>

typedef struct frx__meshfile frx__meshfile;

struct frx__meshfile_info {
    const char *format;     /* "Gmsh 2.2 ASCII" */
    const char *region;     /* the fluid region's name, "" if unnamed */
    int ndims;
    size_t nnodes, neles;
    size_t nleft;           /* elements outside the region, left out */
    size_t nconverted;      /* 8-node quads, 20-node hexes completed */
    size_t nfaces;          /* every face once (a periodic pair's once) */
    size_t nbfaces;         /* on boundaries */
    size_t npfaces;         /* periodic */
    size_t ntypes;          /* element types present, ascending */
    struct {
        const char *name;   /* "quadrilateral" */
        int order;
        size_t n;
    } types[8];
    size_t nbcs, npers;
    char id[65];            /* as frx_mesh_info.id */
};

/* Read a Gmsh .msh file, or the mesh of a case file (.yaml, .yml: a box
 * or a Gmsh mesh), and find its faces (every check of
 * frx_mesh_create's). */
FRX_EXTERN int frx__meshfile_open(const char *path, frx__meshfile **out);
FRX_EXTERN void frx__meshfile_close(frx__meshfile *f);

FRX_EXTERN void frx__meshfile_info(const frx__meshfile *f,
                                   struct frx__meshfile_info *out);
/* Boundary i: its name and faces. */
FRX_EXTERN void frx__meshfile_bc(const frx__meshfile *f, size_t i,
                                 const char **name, size_t *nfaces);
/* Periodic pair i: its name, faces (pairs of sides) and translation. */
FRX_EXTERN void frx__meshfile_periodic(const frx__meshfile *f, size_t i,
                                       const char **name, size_t *nfaces,
                                       double shift[3]);

/* Partition as frx_mesh_create would ("metis" or "linear", nparts of
 * the given weights): count[nparts] elements per part, work[nparts]
 * their cost by element type (frx__etype_cost), *ncut faces between
 * parts. f keeps the partition for frx__meshfile_save. */
FRX_EXTERN int frx__meshfile_partition(frx__meshfile *f,
                                       const char *method, int nparts,
                                       const double *weights, size_t *count,
                                       double *work, size_t *ncut);

/* Write every part of f's last partition (frx__meshfile_partition) to
 * the partitioned mesh file out (under out.tmp, renamed when whole),
 * which a case of mesh type partitioned reads on nparts ranks, each rank
 * its own part. say(r, nparts), if not NULL, is called before part r. */
FRX_EXTERN int frx__meshfile_save(const frx__meshfile *f, const char *out,
                                  void (*say)(int r, int nparts));

#endif
