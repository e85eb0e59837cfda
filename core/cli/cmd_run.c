/* SPDX-License-Identifier: BSD-3-Clause */
/* frx run CASE.yaml [--restart FILE]: validate the case on every rank,
 * then run its solver (solver.name), or the exchange demo without one. */
#include "cli.h"

#include <frx/comm.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: frx run CASE.yaml [--restart CHECKPOINT]\n"
    "       mpirun -np N frx run CASE.yaml [--restart CHECKPOINT]\n"
    "\n"
    "Runs the case on every MPI rank (one rank without mpirun). The case\n"
    "is validated first; nothing runs if it has errors. A case with\n"
    "solver.name runs that solver plugin's time loop (--restart: from a\n"
    "checkpoint, on any number of ranks); without one, the exchange demo.\n";

/* Every rank reads the case; rank 0 reports its own errors, or, where
 * it read the case but another rank did not (a file that differs from
 * node to node), each such rank's reason. Returns nonzero on every rank
 * if any rank failed. */
static int load_case(const char *path, int rank, frx_config **cfg)
{
    int rc = frx_config_load(path, cfg);
    if (rc == FRX_OK)
        rc = frx_config_check_for_run(*cfg);
    int bad = rc != FRX_OK, anybad = bad;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int bad0 = bad;
    MPI_Bcast(&bad0, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (anybad && !bad0) /* collective: the others' reasons */
        frx_comm_agree(MPI_COMM_WORLD, rc, "reading the case");
    if (anybad && rank == 0)
        fprintf(stderr, "%s%s\nfrx: %s: nothing was run; see "
                        "config/README.md for every key\n",
                bad0 ? "" : "frx: ", frx_errmsg(), path);
    if (anybad) {
        frx_config_free(*cfg);
        *cfg = NULL;
    }
    return anybad;
}

static int has_solver(const frx_config *cfg)
{
    return frx_cfg_get(frx_config_root(cfg), "solver.name") != NULL;
}

/* The solver's time loop; every rank returns the same status, rank 0
 * prints why it failed. */
static int run_solver(const frx_config *cfg, const char *restart, int rank)
{
    int rc = frx_run_case(cfg, MPI_COMM_WORLD, restart, NULL);
    if (rc && rank == 0)
        fprintf(stderr, "frx: %s\n", frx_errmsg());
    return rc;
}

/* argv: run CASE [--restart FILE]. What is wrong with it into why (""
 * if nothing); *restart the checkpoint or NULL. */
static void parse_args(int argc, char **argv, const char **restart,
                       char *why, size_t n)
{
    *restart = NULL;
    why[0] = '\0';
    if (argc < 2) {
        snprintf(why, n, "no case given");
        return;
    }
    if (argv[1][0] == '-') {
        snprintf(why, n, "unknown option '%s' (the case comes first)",
                 argv[1]);
        return;
    }
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--restart") == 0) {
            if (i + 1 >= argc) {
                snprintf(why, n, "--restart needs a checkpoint file");
                return;
            }
            *restart = argv[++i];
        } else if (argv[i][0] == '-') {
            snprintf(why, n, "unknown option '%s'%s", argv[i],
                     strncmp(argv[i], "--re", 4) == 0
                         ? " (did you mean --restart?)" : "");
            return;
        } else {
            snprintf(why, n, "a second case '%s': give one case a run",
                     argv[i]);
            return;
        }
    }
}

int frx_cmd_run(int argc, char **argv)
{
    const char *restart = NULL;
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
                      strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        return 0;
    }
    char why[512];
    parse_args(argc, argv, &restart, why, sizeof why);
    if (why[0]) {
        fprintf(stderr, "frx run: %s\n\n%s", why, usage);
        return 2;
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
        if (has_solver(cfg))
            status = run_solver(cfg, restart, rank) == FRX_OK ? 0 : 1;
        else if (restart && rank == 0)
            fprintf(stderr, "frx: %s: --restart needs a case with "
                    "solver.name\n", argv[1]);
        else if (!restart)
            status = frx_demo_run(cfg) == FRX_OK ? 0 : 1;
    }
    frx_config_free(cfg);
    MPI_Finalize();
    return status;
}
