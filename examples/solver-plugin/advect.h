/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-advect, the example solver plugin: scalar linear advection
 * du/dt + a.grad(u) = 0 by first-order upwind finite volumes (one value
 * per element) on a periodic 2-D mesh of triangles or quadrilaterals.
 *
 * The advection velocity a is the "base flow": a matrix of two values
 * per element that nothing writes after create. A face's flux uses the
 * mean of its two sides' base flow; across ranks the other side's comes
 * from a snapshot of this side's, taken and exchanged once at t = 0.
 * The base-flow check (every solver.check-every steps) compares the live
 * base flow at the faces with those snapshots: they must be equal to
 * the bit, and a check that finds otherwise stops every rank.
 *
 * Files: advect.c (options, lifecycle, initial and exact solution),
 * geometry.c (elements and face lists from the mesh), rhs.c (the flux
 * kernels and the RHS graph), baseflow.c (snapshots and the check).
 * Only the public SDK is used. */
#ifndef ADVECT_H
#define ADVECT_H

#include <frx/comm.h>
#include <frx/mesh.h>
#include <frx/plugin.h>

#include <stddef.h>

#define ADVECT_MAX_NF 4 /* faces per element: triangles and quads */

/* One list of element faces on this rank: side i is face face[i] of
 * element ele[i]; sn[v*n + i] is that face's outward normal times its
 * length, v = x, y (the host layout of a 1 x 2 x n matrix). */
struct advect_sides {
    size_t n;
    size_t *ele, *face;
    double *sn;
};

/* The faces shared with one peer rank, in the order both ranks list. */
struct advect_peer {
    int rank;
    struct advect_sides local;     /* this rank's sides */
    frx_matrix *sn;                /* their scaled normals */
    frx_view *base_v, *flux_v;     /* base flow and face fluxes there */
    frx_xchg_view *base_xv;        /* packs base_v */
    frx_xchg_matrix *snap;         /* base_v at t = 0, sent to the peer */
    frx_xchg_matrix *peer_base;    /* the peer's snap, received once */
    frx_kernel *check;             /* base_v against snap */
};

struct advect {
    frx_backend *be;
    frx_comm *comm;
    int rank;
    double vel[2];       /* solver.velocity */
    double period[2];    /* the mesh's periodic shifts in x and y */
    double t0;
    long check_every;

    /* elements (one block) */
    size_t neles, nf;    /* elements, faces per element */
    double *centre;      /* [neles][2]: the solution's points */
    double *area;        /* [neles] */
    double *vis_pts;     /* [neles][nf][2]: corners, for VTK */
    double *vis_op;      /* [nf][1]: each corner shows the value */
    double rate;         /* max over elements of outflow / area */

    /* faces: interior (l: canonical side, r: the other) and per peer */
    struct advect_sides il, ir;
    struct advect_peer *peers;
    size_t npeers;

    /* device data that outlives every graph */
    frx_matrix *base;    /* 1 x 2 x neles: the base flow */
    frx_matrix *rvol;    /* 1 x 1 x neles: 1 / area */
    frx_matrix *fflux;   /* nf x 1 x neles: outgoing flux per face */
    frx_matrix *isn;     /* 1 x 2 x nifaces: l sides' scaled normals */
    frx_view *ibase_l, *ibase_r, *iflux_l, *iflux_r;
    frx_view *check_v;   /* base flow at both sides of interior faces */
    frx_xchg_view *check_xv;
    frx_xchg_matrix *check_snap;
    frx_kernel *icheck;

    /* every object made, destroyed in reverse order */
    struct advect_owned *owned;
    size_t nowned, capowned;

    frx_solver_var var;
    frx_solver_block block;
};

/* What adv_keep holds. */
enum { ADV_MATRIX, ADV_VIEW, ADV_XVIEW, ADV_XMATRIX, ADV_KERNEL };

/* Keep p (of kind ADV_*) until destroy; on failure p is destroyed. */
int adv_keep(struct advect *a, int kind, void *p);
void adv_free_owned(struct advect *a);

/* A view of matrix m at the given sides: row row_is_face ? face : 0,
 * nvcol columns; kept. */
int adv_view(struct advect *a, frx_matrix *m, const struct advect_sides *s,
             int row_is_face, size_t nvcol, frx_view **out);
/* geometry.c: elements, face lists and the periods from the mesh. */
int adv_geometry(struct advect *a, const frx_mesh *m);
void adv_geometry_free(struct advect *a);

/* rhs.c */
int adv_register_kernels(struct advect *a);
int adv_build_rhs(struct advect *a, frx_matrix *const *u,
                  frx_matrix *const *f, frx_graph *g);

/* baseflow.c */
/* rc: this rank's status so far. Every rank calls it, whatever rc is:
 * the statuses are agreed (frx_comm_agree) before the exchange, which
 * is collective, so that one rank's failure stops every rank. */
int adv_baseflow_setup(struct advect *a, int rc);
int adv_build_check(struct advect *a, frx_graph *g);

#endif
