/* SPDX-License-Identifier: BSD-3-Clause */
/* frx case/: what its files share (nothing above case/ includes it). */
#ifndef FRX_CASE_IMPL_H
#define FRX_CASE_IMPL_H

#include "solver/solver-impl.h"

/* What a case runs on: every rank's backend, frx's communicator, the
 * mesh (where the case has one) and the solver. */
struct frx__case_parts {
    frx_backend *be;
    frx_comm *comm;
    frx_mesh *mesh;
    frx_solver *solver;
};

/* Collective: start them in that order (the solver from restart, or
 * NULL), each agreed by every rank; on failure what started is kept in
 * p for frx__case_stop. */
int frx__case_start(const frx_config *cfg, MPI_Comm comm,
                    const char *restart, struct frx__case_parts *p);
/* Destroy what started, keeping the message of rc (a failure before). */
int frx__case_stop(struct frx__case_parts *p, int rc);

#endif
