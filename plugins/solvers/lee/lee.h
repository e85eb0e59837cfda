/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-lee: the linearized Euler equations in 2-D and 3-D (docs/lee.md),
 * shared by its files: lee.c (the plugin: options, create, ops),
 * lee_base.c (the base flow from expressions), lee_frag.c (the kernel
 * fragments of the physics around it), lee_waves.c (plane waves: the
 * initial condition and the exact solution), lee_end.c (the base-flow
 * check). */
#ifndef FRX_LEE_H
#define FRX_LEE_H

#include <frx/fr/auxcheck.h>
#include <frx/fr/expr.h>
#include <frx/fr/system.h>

#include <frx/comm.h>
#include <frx/plugin.h>

/* The base flow's fields and their derivatives: aux fields 0..nd+1 are
 * rho0, u0, v0, (w0,) p0; then d<f>/d<x|y|z> for each expression that
 * uses that coordinate (the others are 0 and left out). */
enum { LEE_NBASE = 5, LEE_MAXAUX = LEE_NBASE * 4 };

/* One plane wave of the initial condition (uniform base flow). */
struct lee_wave {
    int type;          /* 0 acoustic, 1 vorticity, 2 entropy */
    double amp;
    long modes[3];     /* periods over the box along x, y (and z) */
    double k[3];       /* the wave vector (k[2] = 0 in 2-D) */
    double e[3];       /* vorticity: the velocity's unit direction */
};

struct lee {
    int nd;                            /* the mesh's dimension, 2 or 3 */
    int nb;                            /* base fields: nd + 2 */
    double gamma;
    fr_expr_consts *consts;
    fr_expr *base[LEE_NBASE];          /* rho0, u0, v0, (w0,) p0 */
    fr_expr *dbase[LEE_NBASE][3];      /* d/dx, d/dy, d/dz, or NULL */
    int uniform;                       /* every base field a constant */
    size_t naux;
    const char *aux[LEE_MAXAUX];
    char auxname[LEE_MAXAUX][16];
    int daux[LEE_NBASE][3];            /* aux index of a derivative, -1 */
    char *source;                      /* the source fragment, or NULL */
    char *aux_src, *initial_src;       /* the fields' fragments */
    int flux;                          /* 0 upwind, 1 rusanov */
    struct lee_wave *waves;
    size_t nwaves;
    double len[3];                     /* the box's periods (0: none) */
    fr_const consts_k[1];
    fr_system *sys;
    /* the base-flow check */
    int check;
    long check_every;
    fr_auxcheck *ck;
    MPI_Comm mpi;
    frx_solver_block *blocks;          /* info.blocks without norms */
};

/* lee_base.c */
int lee__base_read(struct lee *l, const frx_solver_init *init);
void lee__base_free(struct lee *l);
int lee__aux_at(void *ctx, size_t n, const double *xyz, double *vals);
/* l->aux_src: the base flow and its derivatives from x, for a backend
 * of this precision (bad where rho0 or p0 <= 0). */
int lee__aux_fragment(struct lee *l, int precision);
/* "(x, y)" or "(x, y, z)" of the point x[nd] into buf, for messages. */
const char *lee__point(const struct lee *l, const double *x, char *buf,
                       size_t n);

/* lee_frag.c */
/* The physics for l's dimension (l->source made here: NULL where it
 * should exist means out of memory). */
void lee__physics(struct lee *l, fr_physics *p);

/* lee_waves.c */
int lee__waves_read(struct lee *l, const frx_solver_init *init);
int lee__waves_at(void *ctx, double t, size_t n, const double *xyz,
                  double *vals);
/* l->initial_src: the waves at x and t about the base flow a[]. */
int lee__waves_fragment(struct lee *l);

/* lee_end.c */
int lee__check_setup(struct lee *l, const frx_solver_init *init);

#endif
