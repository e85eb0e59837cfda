/* SPDX-License-Identifier: BSD-3-Clause */
/* Where ranks cannot agree on a status (mid-step), one rank stops the
 * job. frx__agree, where they can, is in comm_start.c beside
 * frx_comm_agree: the same collectives. */
#include "comm/comm-impl.h"

int frx__fatal(MPI_Comm comm, int rc, uint64_t step, double t,
               const char *what)
{
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    frx_log(FRX_LOG_ERROR, "step %llu, t = %.9g: %s failed on rank %d: %s; "
            "the other ranks may be waiting on this one: stopping the job",
            (unsigned long long)step, t, what, rank, frx_errmsg());
    MPI_Abort(comm, 1);
    return rc; /* MPI_Abort returns only if MPI is broken */
}
