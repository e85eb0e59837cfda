/* SPDX-License-Identifier: BSD-3-Clause */
/* frx plot CHECKPOINT --var NAME [--case CASE.yaml] [--out FILE.png]
 * [--width PIXELS]: a picture of one variable of a checkpoint, drawn as
 * output.png draws it (docs/output.md). */
#include "cli.h"
#include "case/plot-tool.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: frx plot CHECKPOINT --var NAME [--case CASE.yaml] "
    "[--out FILE.png]\n"
    "                [--width PIXELS]\n"
    "\n"
    "Draws variable NAME of a checkpoint: each element by the polynomial\n"
    "the solver computed, a colour bar, axes and a title, as PNG. The case\n"
    "is the one the checkpoint keeps (its mesh read from where it was),\n"
    "or CASE.yaml. FILE.png: by default the checkpoint's name with\n"
    "-NAME.png for .h5. PIXELS: the plot's width, 64 to 8192 (800).\n";

struct args {
    const char *ckpt, *var, *case_path, *out;
    long width;
};

/* What is wrong with argv into why ("" if nothing). */
static void parse(int argc, char **argv, struct args *a, char *why, size_t n)
{
    *a = (struct args){.width = 800};
    why[0] = '\0';
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char **to = !strcmp(o, "--var")    ? &a->var
                          : !strcmp(o, "--case") ? &a->case_path
                          : !strcmp(o, "--out")  ? &a->out
                                                 : NULL;
        if (to || !strcmp(o, "--width")) {
            if (i + 1 >= argc) {
                snprintf(why, n, "%s needs a value", o);
                return;
            }
            if (to) {
                *to = argv[++i];
                continue;
            }
            char *end;
            a->width = strtol(argv[++i], &end, 10);
            if (*end || a->width < 64 || a->width > 8192) {
                snprintf(why, n, "--width %s: give a whole number of pixels "
                         "from 64 to 8192", argv[i]);
                return;
            }
        } else if (o[0] == '-') {
            snprintf(why, n, "unknown option '%s'", o);
            return;
        } else if (a->ckpt) {
            snprintf(why, n, "a second checkpoint '%s': draw one at a time",
                     o);
            return;
        } else {
            a->ckpt = o;
        }
    }
    if (!a->ckpt)
        snprintf(why, n, "no checkpoint given");
    else if (!a->var)
        snprintf(why, n, "no --var: name the variable to draw");
}

int frx_cmd_plot(int argc, char **argv)
{
    if (argc == 2 && frx_cli_is_help(argv[1])) {
        fputs(usage, stdout);
        return 0;
    }
    struct args a;
    char why[512], written[4096];
    parse(argc, argv, &a, why, sizeof why);
    if (why[0]) {
        fprintf(stderr, "frx plot: %s\n\n%s", why, usage);
        return 2;
    }
    MPI_Init(NULL, NULL);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int rc = frx__plot_checkpoint(MPI_COMM_WORLD, a.ckpt, a.case_path, a.var,
                                  a.out, (int)a.width, written,
                                  sizeof written);
    if (rank == 0) {
        if (rc)
            fprintf(stderr, "frx plot: %s\n", frx_errmsg());
        else
            printf("frx plot: wrote %s\n", written);
    }
    MPI_Finalize();
    return rc ? 1 : 0;
}
