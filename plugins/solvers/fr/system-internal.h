/* SPDX-License-Identifier: BSD-3-Clause */
/* The FR system's own state, shared by its files (system.c: create and
 * blocks; sys_kernels.c: kernel sources; sys_bcs.c: boundary options;
 * sys_faces.c: interfaces and exchanges; sys_rhs.c: the RHS graph and
 * the other solver ops). Not for solver plugins: they use system.h. */
#ifndef FRX_FR_SYSTEM_INTERNAL_H
#define FRX_FR_SYSTEM_INTERNAL_H

#include <frx/fr/system.h>

#include <frx/comm.h>
#include <frx/extension.h>
#include <frx/mesh.h>

/* One block of elements of one type (the mesh's block of that index). */
struct fr_blk {
    fr_element *el;
    fr_geometry geo;
    size_t neles, nupts, nfpts, nvis;
    frx_matrix *m0, *m132, *m3;    /* const operators */
    frx_matrix *smats;             /* nupts x ndims*ndims x neles */
    frx_matrix *rcpdjac;           /* nupts x 1 x neles */
    frx_matrix *invh;              /* nupts x 1 x neles: max_dt's metric */
    frx_matrix *ploc;              /* nupts x ndims x neles (source) */
    frx_matrix *aux;               /* nupts x naux x neles, or NULL */
    frx_matrix *ufp;               /* nfpts x nvars x neles (group) */
    frx_matrix *auxfp;             /* nfpts x naux x neles (group) */
    /* ndims*nupts x nvars x (one part's elements): the flux at the
     * solution points, scratch between tflux and the M132 product, which
     * every part of a stretch reuses (so it stays in cache) */
    frx_matrix *tf;
    /* viscous physics (fr_physics.vflux), else NULL: the gradient at the
     * solution points (ndims*nupts x nvars: reference, then physical
     * after gradtr), the common solution's jump at the flux points
     * (dufp: nfpts x nvars, group) and the gradient there (gfp:
     * ndims*nfpts x nvars, group); M4, M6 (the gradient's correction,
     * ndims*nupts x nfpts) and M0 for each dimension (block diagonal) */
    frx_matrix *gu, *dufp, *gfp;
    frx_matrix *m4, *m6, *m0d;
    /* neles flags: the element has a face shared with a peer rank (NULL
     * where none has); the RHS corrects the others before it waits */
    unsigned char *at_peer;
    frx_solver_block info;
};

/* A boundary condition of one mesh boundary. */
struct fr_bc {
    const char *name;              /* the mesh's boundary name */
    const fr_bc_kind *kind;
    /* the kind's keys, in its order: each an expression; the value of
     * each that is a number (a scalar of the kernel, NAN for the
     * others, which the kernel computes) */
    fr_expr **exprs;
    double *vals;
    size_t nvals;
    char where[1024];              /* "file:line:col: solver.boundaries.
                                    * <name>", for the kind's check */
};

enum fr__faces_kind { FR_FACES_INT = 1, FR_FACES_PEER, FR_FACES_BC };

/* One set of faces served by one kernel: the interior faces, the faces
 * shared with one peer rank, or the faces of one boundary. */
struct fr_faces {
    int kind;                      /* enum fr__faces_kind */
    size_t nfaces, n;              /* faces and flux points */
    size_t *pt_src;                /* interior: each point's place in the
                                    * mesh's faces' points (fstart[face]
                                    * + point along it); the set reorders
                                    * them */
    size_t *fstart;                /* [nfaces + 1]: each face's first
                                    * point in the mesh's face order */
    int peer;                      /* FR_FACES_PEER: the peer's rank */
    const struct fr_bc *bc;        /* FR_FACES_BC */
    frx_view *ul, *ur;             /* flux points of ufp (ur: interior) */
    frx_matrix *nl;                /* 1 x ndims x n: l's unit normal */
    frx_matrix *mag;               /* 1 x 2 x n (interior), 1 x 1 x n */
    frx_matrix *x;                 /* 1 x ndims x n: points (BC) */
    double *fwts;                  /* BC: each point's face-rule weight */
    uint32_t *pblk;                /* BC: each point's block, element and */
    size_t *pele, *pfpt;           /* flux point (of the l side) */
    /* the peer's flux points every RHS: our side packed in its order */
    frx_view *send;
    frx_xchg_view *sendxv;
    frx_xchg_matrix *recv;
    int send_id, recv_id;
    /* auxiliary fields at t = 0 (naux > 0): al our side, ar the other
     * (interior: snapshots of views; peer: received once) */
    frx_view *auxl, *auxr;
    frx_xchg_view *auxlxv, *auxrxv;
    frx_xchg_matrix *al, *ar;
    frx_xchg_matrix *asend;        /* peer: auxr's snapshot, sent once */
    int asend_id, arecv_id;
    frx_kernel *k;
    /* viscous physics: the jump to the common solution at each side's
     * points (views of dufp), the gradient there (views of gfp: ndims
     * rows a point), the gradient's exchange with a peer (our side in
     * its order, and what it sends) and the common solution's kernel */
    frx_view *dl, *dr, *gl, *gr, *gsend;
    frx_xchg_view *gsendxv;
    frx_xchg_matrix *grecv;
    frx_matrix *sb;                /* peer: 1 x 1 x n, +1 where our side
                                    * is the face's canonical side (LDG's
                                    * beta as is), -1 where the peer's is */
    int gsend_id, grecv_id;
    frx_kernel *kc;
};

/* The kernels' registered names (hash-suffixed, see sys_kernels.c). */
struct fr_knames {
    char tflux[64], intflux[64], mpiflux[64], negdivconf[64], wave[64];
    char initial[64], auxat[64];   /* fields from fragments, or "" */
    char **bcflux;                 /* one per boundary (s->bcs) */
    /* viscous physics: the common solution (interior, peer, one per
     * boundary) and the gradient's transform to x, y (z) */
    char intconu[64], mpiconu[64], gradtr[64];
    char **bcconu;
};

/* max_dt's kernels for one register (found by its first matrix). */
struct fr_wave {
    const frx_matrix *u0;
    frx_kernel **k;                /* one per block */
};

struct fr_system {
    frx_backend *be;
    frx_comm *comm;
    struct frx_extend *extend;     /* for extension plugins (extension.h) */
    fr_face_set *sets;             /* the face sets as extensions see
                                    * them (nfaces, built at publish) */
    int ndims, order;
    double t0;
    int viscous;                   /* phys.vflux is set */
    double ldg_beta, ldg_tau;      /* solver.ldg-beta, ldg-tau */
    fr_physics phys;
    size_t nblocks;
    struct fr_blk *blk;
    frx_solver_var *vars;
    frx_solver_block *infos;       /* info.blocks */
    struct fr_bc *bcs;
    size_t nbcs;
    struct fr_faces *faces;
    size_t nfaces;
    struct fr_knames kn;
    /* what build_rhs made: freed at destroy */
    frx_kernel **ks;
    size_t nks;
    frx_product **ps;
    size_t nps;
    frx_kernel **timed;            /* kernels with a scalar t */
    size_t ntimed;
    struct fr_wave *waves;
    size_t nwaves;
    /* solver.cache-block: the element-local stretches of the RHS run
     * cblock elements at a time, or (cblock 0) about cblock_bytes of
     * their arrays at a time (0: whole blocks); the slices they use,
     * freed at destroy */
    size_t cblock, cblock_bytes;
    frx_matrix **slices;
    size_t nslices, slices_cap;
    int parts_logged;              /* the info line on parts, once */
};

/* sys_rhs.c: the elements of block b an element-local stretch of the
 * RHS takes at a time (b->neles when it is not cut into parts). */
size_t fr__stretch_elements(const fr_system *s, const struct fr_blk *b);

/* sys_kernels.c */
int fr__register_kernels(fr_system *s);
void fr__free_knames(fr_system *s);
/* The physics' constants as kernel arguments, after a kernel's own. */
int fr__bind_consts(const fr_system *s, frx_arg *a);
double fr__viscous_dt_factor(const fr_system *s, const fr_element *el);

/* sys_bcs.c: solver.boundaries against the mesh's boundaries, and
 * their values at points (for the kinds' checks). */
int fr__read_bcs(fr_system *s, const frx_cfgnode *opts,
                 const frx_mesh *mesh);
void fr__free_bcs(fr_system *s);
/* vals [n][bc->nvals]: bc's values at points x [n][ndims], time t. */
int fr__bc_values(const fr_system *s, const struct fr_bc *bc, size_t n,
                  const double *x, double t, double *vals);

/* sys_fields.c: a field from the physics' fragment (initial_src or
 * aux_src, as initial says) at the solution points (fpts 0) or flux
 * points of block b into out; refused, with the host callback's
 * message where there is one, where a point's value is no value. */
int fr__field_fill(fr_system *s, const struct fr_blk *b, int initial,
                   int fpts, frx_matrix *out);

/* sys_faces.c: face sets, their views, exchanges and kernels: build
 * (local: views, normals, snapshots, exchanges registered), then, once
 * every rank got there, finish (the auxiliary fields' one exchange,
 * the kernels). */
int fr__build_faces(fr_system *s, const frx_mesh *mesh);
int fr__finish_faces(fr_system *s);
void fr__free_faces(fr_system *s);

/* sys_publish.c: the handles and RHS places extensions see. */
int fr__publish(fr_system *s);

/* sys_util.c: keep k until the system goes (destroyed here if it
 * cannot be kept). */
int fr__keep_kernel(fr_system *s, frx_kernel *k);
/* A matrix from dense host doubles [nrow][nvar][neles] (converted to
 * the backend's precision). */
int fr__matrix_from(frx_backend *be, size_t nrow, size_t nvar, size_t neles,
                    const double *host, frx_matrix **out);

#endif
