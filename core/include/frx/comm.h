/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: MPI exchange of xchg matrices between ranks.
 *
 * Each rank registers its sends and receives in the same order as its
 * neighbours do; the k-th exchange registered with a peer in each
 * direction gets tag k, so fields never mix. Requests are persistent
 * (MPI_Send_init / MPI_Recv_init), but for sends of at most 256 bytes,
 * issued with MPI_Isend each run (faster in Open MPI 4.1, DESIGN.md);
 * they run as graph nodes. */
#ifndef FRX_COMM_H
#define FRX_COMM_H

#include "frx.h"

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

enum frx_mpi_mode { FRX_MPI_HOST_STAGED = 1, FRX_MPI_DEVICE_AWARE = 2 };

/* Collective over comm: every rank creates its backend (backend.name, or
 * the first of backend.rules matching its rank or host), then all agree:
 * if any rank failed, every rank returns the same code, FRX_ECONFIG for
 * a bad case, FRX_EUNAVAIL where each failing rank's backend cannot
 * start there (FRX_EUNAVAIL or FRX_ENOTFOUND on that rank: no device,
 * driver or plugin), else the first failing rank's code (a start-up
 * that should have worked: FRX_EBACKEND, FRX_ENOMEM...), and its
 * message lists each failing rank, its host and the reason; every rank
 * must have read the same case (a hash of its tree,
 * less backend.rules: ranks that differ are named) and ended up on the
 * same precision; backend.mpi is resolved and logged. */
FRX_EXTERN int frx_backend_create_all(const frx_config *cfg, MPI_Comm comm,
                                      frx_backend **out);
FRX_EXTERN int frx_backend_mpi_mode(const frx_backend *be);

/* Set-up across ranks follows one rule: every collective step is
 * entered by every rank, with the status of what it did before, so that
 * all return an error together instead of one rank entering a
 * collective that the others never reach. frx's own collective steps
 * (frx_backend_create_all, frx_comm_create, frx_comm_report) do this
 * inside; between them, an application passes each rank's status of its
 * local steps (matrices, views, kernels) to frx_comm_agree.
 *
 * Collective over comm: FRX_OK on every rank if rc is FRX_OK on every
 * rank; else every rank returns the first failing rank's code, with a
 * message "<what> failed on N of M rank(s):" and a line "rank R (host):
 * reason" per failing rank. A rank whose status is the report of an
 * earlier agreement (it failed only because others did) is not counted
 * or listed again where some rank failed by itself. Costs one small MPI_Allreduce when all went
 * well.
 *
 * What cannot be agreed -- a failure while a graph with MPI nodes runs,
 * when the other ranks already wait for this one -- ends the job: the
 * rank logs its number and the reason and calls MPI_Abort on frx's
 * communicator with code 1. */
FRX_EXTERN int frx_comm_agree(MPI_Comm comm, int rc, const char *what);


typedef struct frx_comm frx_comm;

/* A communicator of frx's own (duplicates of comm that return MPI
 * errors instead of aborting). Collective, agreed as above. */
FRX_EXTERN int frx_comm_create(frx_backend *be, MPI_Comm comm,
                               frx_comm **out);
FRX_EXTERN void frx_comm_destroy(frx_comm *c);
FRX_EXTERN MPI_Comm frx_comm_mpi(const frx_comm *c);

/* For a failure mid-run that the other ranks cannot be told of: logs
 * "rank R of N stops the job: <frx_errmsg()> (<code>)" and calls
 * MPI_Abort on c's communicator with code 1. frx_graph_run does this
 * itself for a graph holding MPI nodes. */
FRX_EXTERN void frx_comm_abort(frx_comm *c, int rc);

/* Register the exchange of xm with peer; *id names it in graph nodes.
 * Each side sends the other its shape as it registers; the first
 * frx_graph_commit of a graph holding the exchange compares them and
 * refuses (FRX_ESHAPE, both shapes named, on both ranks) a pair that
 * differs, so a receive never overflows or half-fills; and (FRX_EINVAL)
 * a pair whose names differ (the _named pair below). That commit waits
 * for the peer to register the exchange: register every exchange before
 * committing graphs. Nothing of it runs per graph run. c holds a
 * reference on xm until c is freed: at frx_comm_destroy, or at the
 * destroy of the last graph holding c (frx.h, Lifetimes). */
FRX_EXTERN int frx_comm_add_send(frx_comm *c, frx_xchg_matrix *xm, int peer,
                                 int *id);
FRX_EXTERN int frx_comm_add_recv(frx_comm *c, frx_xchg_matrix *xm, int peer,
                                 int *id);

/* ABI 1.9: the same, with a name (NULL or "" for none; at most
 * FRX_COMM_NAME_MAX - 1 bytes) that the first commit also compares with
 * the peer's side: two exchanges of one shape registered in different
 * orders on the two ranks would otherwise swap their data without an
 * error, and differ only by name. Give every exchange between two
 * ranks a name of what it carries ("flux points", "base flow"), on both
 * sides (a side registered without one is refused as another name). A
 * second unnamed exchange with the same peer, in the same direction and
 * of the same shape as an earlier one, is registered with a warning
 * (once a comm) that names both. */
#define FRX_COMM_NAME_MAX 32
FRX_EXTERN int frx_comm_add_send_named(frx_comm *c, frx_xchg_matrix *xm,
                                       int peer, const char *name, int *id);
FRX_EXTERN int frx_comm_add_recv_named(frx_comm *c, frx_xchg_matrix *xm,
                                       int peer, const char *name, int *id);

/* Graph nodes: start a receive (posted before anything else), start a
 * send (after what writes its buffer, with the device synchronised and
 * the buffer on the host when host-staged), wait for either (a received
 * buffer is then on the device for what reads it).
 *
 * From its start to its wait MPI holds the buffer: a receive writes it,
 * a send reads it. frx_graph_commit refuses (FRX_EINVAL, naming the
 * node and the start and wait nodes) a node added between them that
 * reads or writes a receive's buffer, or writes a send's; a node that
 * reads a receive's buffer before the graph's first start of it, with
 * no wait for it earlier (it would read the previous run's data); a
 * second start of a transfer before the wait of the first; a start with
 * no later wait in the graph; and a wait with no start before it. The
 * graph never reorders such a node itself: add it after the wait (or,
 * for a send, before its start). A graph holds c (frx.h, Lifetimes):
 * c may be destroyed before the graphs holding its nodes, which then
 * free it, and must go before MPI_Finalize. */
FRX_EXTERN int frx_graph_add_recv(frx_graph *g, frx_comm *c, int id,
                                  const int *deps, size_t ndeps, int *node);
FRX_EXTERN int frx_graph_add_send(frx_graph *g, frx_comm *c, int id,
                                  const int *deps, size_t ndeps, int *node);
FRX_EXTERN int frx_graph_add_wait(frx_graph *g, frx_comm *c, int id,
                                  const int *deps, size_t ndeps, int *node);

/* A node that lets MPI move transfer id along (MPI_Test) where it is
 * added, after every node added before it: MPI progresses a transfer
 * only inside MPI calls, so a large message between ranks that compute
 * between start and wait may otherwise move only at the wait, and the
 * peer's send complete only then. Add one after a long stretch of work
 * between the start and the wait; the wait is still needed. */
FRX_EXTERN int frx_graph_add_test(frx_graph *g, frx_comm *c, int id,
                                  int *node);

/* Collective: pack, transfer-wait and unpack times of each rank, as
 * min/median/max over ranks, logged by rank 0 at level info. */
FRX_EXTERN int frx_comm_report(frx_comm *c);

/* ---------------------------------------------------------------- solvers */

/* A solver plugin driven by frx's time loop (DESIGN.md, "Solver
 * lifecycle" and "Time loop"). Every function here is collective over
 * the communicator's ranks: a failure on one rank is a failure on every
 * rank, with each failing rank's reason in frx_errmsg(). */
struct frx_mesh;
typedef struct frx_solver frx_solver;

/* What a run did. Set size (and l2, l2_cap) before the call. */
typedef struct frx_run_stats {
    uint32_t size;
    uint64_t step;      /* the step number reached (a restart continues
                           the count of the run it came from) */
    uint64_t steps_run; /* steps this run took */
    uint64_t rejected;  /* steps the PI controller rejected */
    uint64_t nrhs;      /* RHS evaluations of this run */
    uint64_t ndofs;     /* solution values over every rank */
    double t, dt;       /* the time reached; the size of the next step */
    double wall;        /* seconds in the time loop */
    double errest;      /* rk45: the last step's error estimate, in units
                           of the tolerance; 0 otherwise */
    double *l2;         /* room for l2_cap values, or NULL: the L2 norm
                           of each variable's error at the end (NaN when
                           the solver has no exact solution) */
    size_t l2_cap;
} frx_run_stats;

/* Start the solver of the case's solver.name (options solver.*, time
 * loop time.*, output.*, checkpoint.*, check.*) on this rank's backend,
 * communicator and part of the mesh (NULL: a case without a mesh): its
 * registers, its RHS and check graphs, and the initial condition, or
 * the checkpoint restart (not NULL). */
FRX_EXTERN int frx_solver_create(const frx_config *cfg, frx_backend *be,
                                 frx_comm *comm, const struct frx_mesh *mesh,
                                 const char *restart, frx_solver **out);
/* Run the time loop to time.t-end or time.steps; stats may be NULL. */
FRX_EXTERN int frx_solver_run(frx_solver *s, frx_run_stats *stats);
FRX_EXTERN void frx_solver_destroy(frx_solver *s);

/* `frx run` of a case with a solver: backends, frx's communicator (a
 * duplicate of comm), the mesh when the case has one, the solver and
 * its time loop; progress and summary on rank 0. */
FRX_EXTERN int frx_run_case(const frx_config *cfg, MPI_Comm comm,
                            const char *restart, frx_run_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
