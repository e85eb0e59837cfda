/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: what the VTK writer and the checkpoints share: agreeing on an
 * outcome across ranks, writing files under a temporary name, and the
 * element types' names. Internal to vtk.c and ckpt.c. These use only
 * libfrx's exported functions, so the tests can build them in. */
#ifndef FRX_IO_UTIL_H
#define FRX_IO_UTIL_H

#include "io/io-impl.h"

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Collective: the outcome of a step on every rank. FRX_OK if every rank
 * had rc == FRX_OK; else every rank returns the code and message of the
 * lowest rank that failed, as "rank R: ..." unless every rank failed. */
int frx__io_agree(MPI_Comm comm, int rc);

/* The folder path names before its last '/' into dir ("." for a bare
 * name, "/" for a file in /); dir may be path. */
int frx__io_parent_of(const char *path, char *dir, size_t size);

/* mkdir -p. */
int frx__io_mkdirs(const char *dir);

/* Put tmp in place as path: fsync tmp, rename, fsync the folder, so a
 * crash leaves the old file or the new one, never half of one. */
int frx__io_rename(const char *tmp, const char *path);

/* Close a file written under tmp and put it in place as path; tmp is
 * removed on failure. werr: errno of a write that failed, or 0. Errors
 * name path and the system's reason. */
int frx__io_commit(FILE *fp, int werr, const char *tmp, const char *path);

/* Element types (enum frx_etype): name ("quad") and corner count, or
 * NULL for a type frx does not know. */
struct frx__io_etype {
    const char *name;
    int ndims;
    size_t ncorners;
    int vtk_linear, vtk_lagrange; /* VTK cell types */
};
const struct frx__io_etype *frx__io_etype(int etype);

/* Variable v's name. */
const char *frx__io_var(const struct frx__io_fields *f, size_t v);

/* Check what both writers need of the fields (what names the caller in
 * messages): precision, named variables, blocks of known element types
 * with points, gids and u. */
int frx__io_check(const struct frx__io_fields *f, const char *what);

/* ------------------------------------------------- elements by gid range
 * The elements of one type, moved between the ranks that hold them and
 * the rank that owns their range of global numbers: rank r owns gids
 * [r*chunk, (r+1)*chunk), so its elements of the type are the rows
 * [row0, row0 + nown) of the type's rows in gid order, contiguous in a
 * checkpoint however the mesh is partitioned. */
struct frx__route {
    int nranks;
    int *scount, *sdisp, *rcount, *rdisp; /* per rank, in elements */
    size_t nsend;
    size_t *order;   /* [nsend] local element of each sent row */
    size_t nown;
    uint64_t *gid;   /* [nown] the owned gids, ascending */
    size_t *slot;    /* [nown] where row j arrived (received order) */
    uint64_t row0, nrows; /* first owned row; rows of the type in all */
};

/* Collective: route the n local elements gid[] (chunk: see above). Fails
 * (on every rank) if a gid is held twice. */
int frx__route_make(MPI_Comm comm, uint64_t chunk, const uint64_t *gid,
                    size_t n, struct frx__route *rt);
/* Collective: rows of rowbytes from holders (in `order`) to owners (in
 * gid order), or back (back = 1). */
int frx__route_rows(MPI_Comm comm, const struct frx__route *rt, int back,
                    const void *in, void *out, size_t rowbytes);
void frx__route_free(struct frx__route *rt);

/* Byte order of this machine as VTK writes it. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FRX__BYTE_ORDER "LittleEndian"
#else
#define FRX__BYTE_ORDER "BigEndian"
#endif

#endif
