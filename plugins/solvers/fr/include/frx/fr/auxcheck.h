/* SPDX-License-Identifier: BSD-3-Clause */
/* The base-flow check of an FR system with auxiliary fields (a base
 * flow, fr_physics.naux > 0).
 *
 * The system saves the auxiliary fields at every interface once, at
 * t = 0 (sys_faces.c): each side's flux points as a snapshot of an xchg
 * view, and at a rank interface the peer's side, packed by the peer in
 * our order and exchanged once. Every interface kernel reads those
 * snapshots as `xchg` arguments at every step. The check compares them
 * with the live fields:
 *
 *   every interface: our saved side (al) against the live flux points
 *   of auxfp (a view); interior faces: the other side (ar) likewise;
 *   rank interfaces: the peer packs its live side again (the same xchg
 *   view it packed at t = 0) and sends it; we compare what we saved
 *   from the peer at t = 0 (ar) with what arrives. The messages go in
 *   a host node, on a duplicate of frx's communicator: the check graph
 *   has no exchange nodes, so a failure is agreed by every rank.
 *
 * Each comparison is a reduction kernel, out reduce(max) of |saved -
 * live| (NaN counted as a difference), and a host node reads them: any
 * difference that is not exactly 0 is an error (FRX_ERANGE) naming the
 * interface (the peer rank, or interior, or the boundary), the face (its
 * element's global number and face), the field and both values.
 *
 * Errors are negative FRX_E* codes with a message from frx_error. */
#ifndef FRX_FR_AUXCHECK_H
#define FRX_FR_AUXCHECK_H

#include <frx/fr/system.h>

#include <frx/mesh.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fr_auxcheck fr_auxcheck;

/* Make the check of s (which has auxiliary fields) on mesh (the mesh s
 * was made from; it must live as long as the check): its kernels, and
 * a duplicate of the system's communicator for the live fields.
 * Collective: call it on every rank. prefix starts its messages
 * ("lee: base-flow check"). */
FR_EXTERN int fr_auxcheck_create(fr_system *s, const frx_mesh *mesh,
                                 const char *prefix, fr_auxcheck **out);
FR_EXTERN void fr_auxcheck_destroy(fr_auxcheck *c);

/* Add the check's nodes to g: exchanges, comparisons and the host node
 * that fails where a difference is not 0. */
FR_EXTERN int fr_auxcheck_build(fr_auxcheck *c, frx_graph *g);

/* Run the check now in a graph of its own (collective): FRX_OK when
 * every difference is exactly 0. *maxdiff (may be NULL) gets this
 * rank's largest |difference|, *nsets the interfaces compared (face
 * sets: interior, each peer, each boundary). */
FR_EXTERN int fr_auxcheck_run(fr_auxcheck *c, double *maxdiff, size_t *nsets);

/* Test only: add delta to field `field` of the saved copy of the peer's
 * side (ar) at the middle flux point of the first rank interface, as a
 * damaged snapshot would be. FRX_ENOTFOUND where this rank has no peer. */
FR_EXTERN int fr_auxcheck_corrupt(fr_auxcheck *c, size_t field, double delta);

/* Test only: add delta to field `field` of the live auxiliary fields at
 * flux point fpt (the element's own numbering: face fpt / nfp, point
 * fpt % nfp along it) of global element gid, as a base flow changed
 * after t = 0 would be: the next check must name that element, face and
 * point. FRX_ENOTFOUND where this rank does not hold the element. */
FR_EXTERN int fr_auxcheck_damage_live(fr_auxcheck *c, const frx_mesh *mesh,
                                      uint64_t gid, size_t fpt, size_t field,
                                      double delta);

#ifdef __cplusplus
}
#endif
#endif
