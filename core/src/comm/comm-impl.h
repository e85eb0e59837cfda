/* SPDX-License-Identifier: BSD-3-Clause */
/* frx comm: MPI. Every rank's backend started together
 * (frx_backend_create_all in comm_start.c), agreeing on the outcome of
 * a step across ranks, and the failures that cannot be agreed on
 * (agree.c), and frx_comm: persistent exchanges of xchg matrices as
 * graph nodes (comm.c). Uses graph and backend, and what they use.
 * Never installed. */
#ifndef FRX_COMM_IMPL_H
#define FRX_COMM_IMPL_H

#include "backend/backend-impl.h"
#include "graph/graph-impl.h"

#include <frx/comm.h>

/* Collective: FRX_OK on every rank when rc is FRX_OK on every rank;
 * else every rank returns the first failing rank's code, with a message
 * "<what> failed on K of N rank(s):" and each failing rank's reason. One
 * MPI_Allreduce when all is well. The same collectives as
 * frx_comm_agree (comm_start.c), so that ranks in one and in the other
 * still match. */
int frx__agree(MPI_Comm comm, int rc, const char *what);

/* A failure that cannot be agreed on (mid-step: other ranks may be
 * waiting in an exchange): log it with the rank and MPI_Abort. */
int frx__fatal(MPI_Comm comm, int rc, uint64_t step, double t,
               const char *what);

/* The step and time a graph runs for, named where a failure inside it
 * ends the job (frx_comm_abort). */
void frx__comm_set_context(frx_comm *c, uint64_t step, double t);

#endif
