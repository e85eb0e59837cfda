/* SPDX-License-Identifier: BSD-3-Clause */
/* What the core needs to know of MPI without requiring it be started. */
#include "base/base-impl.h"

#include <mpi.h>
#include <stdint.h>
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
    /* Set by the launcher: Open MPI, MPICH/Hydra, MVAPICH2, Cray PALS,
     * PMIx (OpenPMIx launchers), then Slurm's srun (under any MPI). */
    const char *vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                          "MV2_COMM_WORLD_LOCAL_RANK", "PALS_LOCAL_RANKID",
                          "PMIX_LOCAL_RANK", "SLURM_LOCALID"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return atoi(v);
    }
    return -1;
}

int frx__mpi_node_rank(MPI_Comm comm, const char *group)
{
    /* FNV-1a of the group's name: two names on one node with the same
     * colour would only share one count, never hang */
    uint32_t h = 2166136261u;
    for (const char *c = group; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    int rank = 0, r = -1;
    MPI_Comm node = MPI_COMM_NULL, same = MPI_COMM_NULL;
    MPI_Comm_rank(comm, &rank);
    int err = MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank,
                                  MPI_INFO_NULL, &node);
    if (err == MPI_SUCCESS)
        err = MPI_Comm_split(node, (int)(h & 0x7fffffff), rank, &same);
    if (err == MPI_SUCCESS)
        err = MPI_Comm_rank(same, &r);
    if (same != MPI_COMM_NULL)
        MPI_Comm_free(&same);
    if (node != MPI_COMM_NULL)
        MPI_Comm_free(&node);
    return err == MPI_SUCCESS ? r : -1;
}
