/* SPDX-License-Identifier: BSD-3-Clause */
/* A case's parts started and stopped (case-impl.h): for frx_run_case and
 * frx plot alike. */
#include "case/case-impl.h"

#include <stdlib.h>
#include <sys/resource.h>

/* At log level info, rank 0: how long each part took to start and the
 * peak memory so far, the slowest and largest rank's (bench/startup.sh
 * reads it). */
static void log_startup(MPI_Comm comm, const double *t)
{
    struct rusage ru;
    double mine[4] = {t[0], t[1], t[2], 0}, most[4];
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        mine[3] = (double)ru.ru_maxrss / 1024; /* kB on Linux */
    /* every rank reduces, whatever its log level (FRX_LOG may differ
     * between nodes): a collective some ranks skipped would hang */
    if (MPI_Allreduce(mine, most, 4, MPI_DOUBLE, MPI_MAX, comm) !=
            MPI_SUCCESS ||
        frx_log_get_level() < FRX_LOG_INFO)
        return;
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
        frx_log(FRX_LOG_INFO, "start-up: backends %.3f s, mesh %.3f s, "
                "solver %.3f s, peak memory %.0f MB (the slowest and the "
                "largest rank's)", most[0], most[1], most[2], most[3]);
}

int frx__case_start(const frx_config *cfg, MPI_Comm comm,
                    const char *restart, struct frx__case_parts *p)
{
    *p = (struct frx__case_parts){0};
    double t[3] = {0, 0, 0}, t0 = frx__now();
    int rc = frx_backend_create_all(cfg, comm, &p->be);
    if (rc == FRX_OK)
        rc = frx__agree(comm, frx_comm_create(p->be, comm, &p->comm),
                        "frx's communicator");
    t[0] = frx__now() - t0;
    if (rc == FRX_OK && frx_cfg_get(frx_config_root(cfg), "mesh"))
        rc = frx_mesh_create(cfg, frx_comm_mpi(p->comm), &p->mesh);
    t[1] = frx__now() - t0 - t[0];
    if (rc == FRX_OK)
        rc = frx_solver_create(cfg, p->be, p->comm, p->mesh, restart,
                               &p->solver);
    t[2] = frx__now() - t0 - t[0] - t[1];
    if (rc == FRX_OK) /* every rank got here: the reduction is safe */
        log_startup(frx_comm_mpi(p->comm), t);
    return rc;
}

int frx__case_stop(struct frx__case_parts *p, int rc)
{
    char *msg = rc ? frx__strdup(frx_errmsg()) : NULL;
    frx_solver_destroy(p->solver);
    if (p->mesh)
        frx_mesh_destroy(p->mesh);
    frx_comm_destroy(p->comm);
    frx_backend_destroy(p->be);
    *p = (struct frx__case_parts){0};
    if (msg)
        frx_error(rc, "%s", msg);
    free(msg);
    return rc;
}
