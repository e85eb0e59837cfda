/* SPDX-License-Identifier: BSD-3-Clause */
/* A rank's place on its node, under mpirun with 2 or more ranks on one
 * node: frx__mpi_node_rank (core/src/base/mpi.c, built in) is the rank in
 * MPI_Comm_split_type's shared communicator, counts only the ranks of
 * its group (a backend's name), and agrees with the launcher's
 * variable where there is one. Then backends started by
 * frx_backend_create_all on rank 0 openmp and the rest on frx-fakegpu
 * (FRX_FAKEGPU_DEVICES=2): the fakegpu ranks are local ranks 0, 1...
 * among the fakegpu ranks, which the log says (the ctest checks it).
 *
 *   test_local_rank
 *
 * Prints "N passed, N failed" on rank 0. */
#include "base/base-impl.h"

#include <frx/comm.h>

#include <stdio.h>
#include <string.h>

static int rank, size, nfail, npass;

#include "mpicheck.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm node;
    int node_rank, node_size;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
                        MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &node_rank);
    MPI_Comm_size(node, &node_size);
    MPI_Comm_free(&node);

    int mine = frx__mpi_node_rank(MPI_COMM_WORLD, "cuda");
    CHECK(mine == node_rank, "node rank %d, MPI's shared rank %d", mine,
          node_rank);
    /* even ranks cuda, odd ones openmp: each counts its own kind */
    if (node_size == size) {
        mine = frx__mpi_node_rank(MPI_COMM_WORLD, rank % 2 ? "openmp"
                                                           : "cuda");
        CHECK(mine == rank / 2, "node rank %d among its group, want %d",
              mine, rank / 2);
    }
    int env = frx__mpi_local_rank();
    if (env >= 0)
        CHECK(env == node_rank, "launcher says local rank %d, MPI %d", env,
              node_rank);

    const char text[] = "backend:\n  name: fakegpu\n  precision: double\n"
                        "  rules:\n    - ranks: \"0\"\n      name: openmp\n";
    frx_config *cfg = NULL;
    frx_backend *be = NULL;
    int rc = frx_config_parse(text, strlen(text), "test.yaml", &cfg);
    if (rc == FRX_OK)
        rc = frx_backend_create_all(cfg, MPI_COMM_WORLD, &be);
    CHECK(rc == FRX_OK, "backends: %s", frx_errmsg());
    frx_backend_destroy(be);
    frx_config_free(cfg);

    int counts[2] = {npass, nfail}, all[2];
    MPI_Reduce(counts, all, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("local rank checks on %d rank(s): %d passed, %d failed\n",
               size, all[0], all[1]);
    MPI_Finalize();
    return 0;
}
