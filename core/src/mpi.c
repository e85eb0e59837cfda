/* What the core needs to know of MPI without requiring it be started. */
#include "frx-impl.h"

#include <mpi.h>
#include <stdlib.h>

void frx__mpi_rank_size(int *rank, int *size)
{
    int init = 0, fin = 0;
    *rank = 0;
    *size = 1;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin) {
        MPI_Comm_rank(MPI_COMM_WORLD, rank);
        MPI_Comm_size(MPI_COMM_WORLD, size);
    }
}

int frx__mpi_running(void)
{
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    return init && !fin;
}

int frx__mpi_local_rank(void)
{
    /* Set by the launcher: Open MPI, then MPICH/Hydra, then Slurm. */
    const char *vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                          "SLURM_LOCALID"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return atoi(v);
    }
    return 0;
}
