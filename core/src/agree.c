/* Ranks agreeing on a status: every rank stops together, each failing
 * rank's reason in the message; or, where they cannot agree, one rank
 * stops the job. */
#include "solver-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a rank tells the others when some rank failed. */
struct status {
    int rc;
    char msg[1020];
};

int frx__agree(MPI_Comm comm, int rc, const char *what)
{
    int bad = rc != FRX_OK, anybad = bad;
    if (MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, comm) !=
        MPI_SUCCESS)
        return frx_error(FRX_EMPI, "%s: MPI_Allreduce failed", what);
    if (!anybad)
        return FRX_OK;
    int size;
    MPI_Comm_size(comm, &size);
    struct status mine = {.rc = rc};
    if (bad)
        snprintf(mine.msg, sizeof mine.msg, "%s", frx_errmsg());
    struct status *all = calloc((size_t)size, sizeof *all);
    if (!all) /* a few KiB a rank: this rank alone can say no more */
        return frx_error(bad ? rc : FRX_ENOMEM, "%s failed", what);
    if (MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine,
                      MPI_BYTE, comm) != MPI_SUCCESS) {
        free(all);
        return frx_error(FRX_EMPI, "%s failed, and MPI_Allgather too",
                         what);
    }
    int nbad = 0, code = FRX_OK;
    for (int r = 0; r < size; r++)
        if (all[r].rc) {
            nbad++;
            code = code ? code : all[r].rc;
        }
    frx_error(code, "%s failed on %d of %d rank(s):", what, nbad, size);
    for (int r = 0; r < size; r++)
        if (all[r].rc)
            frx__error_append(code, "  rank %d: %s", r, all[r].msg);
    free(all);
    return code;
}

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
