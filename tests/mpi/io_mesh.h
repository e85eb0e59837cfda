/* SPDX-License-Identifier: BSD-3-Clause */
/* A made-up 2-D mesh and solution for the output and checkpoint tests,
 * standing in for the mesh and the solver: IO_NELES elements, element g
 * a triangle when g % 3 == 1, else a quadrilateral, spread over the
 * ranks by one of several distributions. Every rank can build any
 * rank's part. */
#ifndef IO_MESH_H
#define IO_MESH_H

#include "io/io-impl.h"

#define IO_NELES 37
#define IO_NVARS 3

enum io_values {
    IO_LINEAR = 0, /* variable v = a_v + b_v x + c_v y: interpolates exactly */
    IO_BITS = 1    /* arbitrary bit patterns per (element, point, variable) */
};

struct io_mesh {
    struct frx__io_fields f;
    struct frx__io_block blocks[2];
    frx_solver_block sb[2];
    frx_solver_var vars[IO_NVARS];
    uint64_t *gid[2];
    double *upts[2], *vis_pts[2], *vis_op[2];
    void *u[2];
};

/* Distributions: 0 contiguous runs, 1 scattered, 2 triangles on rank 0,
 * quadrilaterals on ranks 1..n-2, nothing on the last rank (n >= 3). */
#define IO_NDIST 3
int io_owner(uint64_t g, int dist, int nranks);

int io_etype(uint64_t g);

/* This rank's part; u per `values`. Returns 0, or -1 out of memory. */
int io_mesh_make(struct io_mesh *m, int rank, int nranks, int dist,
                 size_t fpsize, int values);
void io_mesh_free(struct io_mesh *m);

/* Variable v of element g at solution point k (IO_BITS) or at (x, y)
 * (IO_LINEAR). */
double io_value(int values, uint64_t g, size_t k, size_t v, double x,
                double y);

/* The output points of element g: nvis and their coordinates. */
size_t io_vis(uint64_t g, double *xy);

#endif
