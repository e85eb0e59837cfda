/* frx run CASE.yaml: validate the case on every rank, then run it. */
#include "cli.h"

#include <frx/frx.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: frx run CASE.yaml\n"
    "       mpirun -np N frx run CASE.yaml\n"
    "\n"
    "Runs the case on every MPI rank (one rank without mpirun). The case\n"
    "is validated first; nothing runs if it has errors.\n";

/* Every rank reads the case; rank 0 alone reports its errors. Returns
 * nonzero on every rank if any rank failed. */
static int load_case(const char *path, int rank, frx_config **cfg)
{
    int rc = frx_config_load(path, cfg);
    if (rc == FRX_OK)
        rc = frx_config_check_for_run(*cfg);
    int bad = rc != FRX_OK, anybad = bad;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad && rank == 0)
        fprintf(stderr, "%s\nfrx: %s: nothing was run; see config/README.md "
                        "for every key\n", frx_errmsg(), path);
    if (anybad && !bad && rank == 0)
        fprintf(stderr, "frx: %s: another rank could not read the case\n",
                path);
    if (anybad) {
        frx_config_free(*cfg);
        *cfg = NULL;
    }
    return anybad;
}

int frx_cmd_run(int argc, char **argv)
{
    if (argc != 2 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "-h") == 0) {
        int help = argc == 2;
        fputs(usage, help ? stdout : stderr);
        return help ? 0 : 2;
    }
    MPI_Init(NULL, NULL);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    frx_config *cfg = NULL;
    int status = 1;
    if (load_case(argv[1], rank, &cfg) == 0) {
        const char *level;
        if (frx_cfg_string(frx_config_root(cfg), "log.level", "warn",
                           &level) == FRX_OK)
            frx_log_set_level(frx_log_level_from_name(level));
        status = frx_demo_run(cfg) == FRX_OK ? 0 : 1;
    }
    frx_config_free(cfg);
    MPI_Finalize();
    return status;
}
