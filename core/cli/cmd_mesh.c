/* SPDX-License-Identifier: BSD-3-Clause */
/* `frx mesh info FILE` and `frx mesh partition FILE -n N [-o OUT]`: a
 * Gmsh mesh (or a case's mesh) as frx reads it, in one process, without
 * MPI; with -o, every part written to a partitioned mesh file. */
#include "cli.h"
#include "mesh/mesh-tool.h"

#include <frx/frx.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static void usage(FILE *f)
{
    fputs("usage: frx mesh info FILE\n"
          "       frx mesh partition FILE -n N [--weights W0,W1,...] "
          "[--method metis|linear]\n"
          "                          [-o OUT.h5]\n"
          "\n"
          "Read a Gmsh .msh file (2.2 or 4.1, ASCII or binary), or the mesh\n"
          "of a case file (.yaml: a box or a Gmsh mesh), as a run reads it,\n"
          "with every check, in one process (no mpirun).\n"
          "\n"
          "  info        element counts by type, nodes, faces, boundaries\n"
          "              (faces each), periodic pairs (faces, translation)\n"
          "              and the mesh id\n"
          "  partition   each part's elements and share of the work\n"
          "              (elements by their type's cost: hexahedron\n"
          "              18, prism 10, quadrilateral and pyramid 6,\n"
          "              triangle and tetrahedron 3) against its\n"
          "              weight's share, as a job of N ranks gets\n"
          "              them, and the faces cut between parts\n"
          "\n"
          "  -n N             the number of parts (ranks)\n"
          "  --weights W,...  each part's relative weight (as\n"
          "                   partition.weights), default all 1\n"
          "  --method M       metis (default) or linear (as\n"
          "                   partition.method)\n"
          "  -o OUT.h5        also write every part to the partitioned mesh\n"
          "                   file OUT.h5: a case with 'mesh: {type:\n"
          "                   partitioned, file: OUT.h5}' then runs on N\n"
          "                   ranks, each reading its own part only (no\n"
          "                   rank builds the whole mesh)\n"
          "  -h, --help       show this help\n"
          "\n"
          "Physical names (as PyFR's): 'fluid' (any case) marks the\n"
          "elements; periodic_<id>_l and periodic_<id>_r are the sides of\n"
          "a periodic pair; other groups of faces are boundaries. See\n"
          "docs/mesh.md.\n",
          f);
}

static int open_file(const char *path, frx__meshfile **f)
{
    if (frx__meshfile_open(path, f) == FRX_OK)
        return 0;
    fprintf(stderr, "%s\n", frx_errmsg());
    return 1;
}

static const char *point(const double *x, int d, char *buf, size_t n)
{
    if (d == 3)
        snprintf(buf, n, "(%.10g, %.10g, %.10g)", x[0], x[1], x[2]);
    else
        snprintf(buf, n, "(%.10g, %.10g)", x[0], x[1]);
    return buf;
}

static int info(const char *path)
{
    frx__meshfile *f;
    if (open_file(path, &f))
        return 1;
    struct frx__meshfile_info in;
    frx__meshfile_info(f, &in);
    printf("file:            %s (%s)\n", path, in.format);
    printf("dimensions:      %d\n", in.ndims);
    if (!strncmp(in.format, "Gmsh", 4))
        printf("region:          %s\n", in.region[0] ? in.region
                                       : "(unnamed: every element of the "
                                         "highest dimension)");
    printf("elements:        %zu\n", in.neles);
    for (size_t i = 0; i < in.ntypes; i++)
        printf("  %s, order %d: %zu\n", in.types[i].name, in.types[i].order,
               in.types[i].n);
    if (in.nconverted)
        printf("  (%zu serendipity element(s) completed to 9 or 27 points)\n",
               in.nconverted);
    if (in.nleft)
        printf("  (%zu element(s) of other regions left out)\n", in.nleft);
    printf("nodes:           %zu\n", in.nnodes);
    printf("faces:           %zu (%zu interior, %zu periodic, %zu on "
           "boundaries)\n", in.nfaces, in.nfaces - in.npfaces - in.nbfaces,
           in.npfaces, in.nbfaces);
    printf("boundaries:      %zu\n", in.nbcs);
    for (size_t i = 0; i < in.nbcs; i++) {
        const char *name;
        size_t n;
        frx__meshfile_bc(f, i, &name, &n);
        printf("  %-20s %zu face%s\n", name, n, n == 1 ? "" : "s");
    }
    printf("periodic pairs:  %zu\n", in.npers);
    for (size_t i = 0; i < in.npers; i++) {
        const char *name;
        size_t n;
        double s[3];
        char pt[120];
        frx__meshfile_periodic(f, i, &name, &n, s);
        printf("  %-20s %zu face%s, translation %s\n", name, n,
               n == 1 ? "" : "s",
               point(s, in.ndims, pt, sizeof pt));
    }
    printf("mesh id:         %s\n", in.id);
    frx__meshfile_close(f);
    return 0;
}

/* "3,1,2": exactly n positive numbers. */
static int parse_weights(const char *text, int n, double *w)
{
    const char *s = text;
    for (int i = 0; i < n; i++) {
        char *end;
        w[i] = strtod(s, &end);
        if (end == s || !(w[i] > 0) || w[i] > 1e300 ||
            (*end != ',' && *end) || (*end == ',' && i == n - 1) ||
            (!*end && i < n - 1)) {
            fprintf(stderr, "frx mesh partition: --weights needs %d positive "
                    "numbers separated by commas, like 3,1: got '%s'\n", n,
                    text);
            return 2;
        }
        s = end + 1;
    }
    return 0;
}

static void say_part(int r, int nparts)
{
    fprintf(stderr, "frx mesh partition: writing part %d of %d\n", r + 1,
            nparts);
}

static int partition(const char *path, int argc, char **argv)
{
    long n = 0;
    const char *weights = NULL, *method = "metis", *out = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc && (!strcmp(a, "-n") || !strcmp(a, "--weights") ||
                              !strcmp(a, "--method") || !strcmp(a, "-o"))) {
            fprintf(stderr, "frx mesh partition: %s needs a value\n", a);
            return 2;
        }
        if (!strcmp(a, "-n")) {
            char *end;
            n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 1000000) {
                fprintf(stderr, "frx mesh partition: -n needs a number of "
                        "parts, 1 or more, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "-o")) {
            out = argv[++i];
        } else if (!strcmp(a, "--weights")) {
            weights = argv[++i];
        } else if (!strcmp(a, "--method")) {
            method = argv[++i];
            if (strcmp(method, "metis") && strcmp(method, "linear")) {
                fprintf(stderr, "frx mesh partition: --method is metis or "
                        "linear, got '%s'\n", method);
                return 2;
            }
        } else {
            fprintf(stderr, "frx mesh partition: unknown option '%s'\n\n",
                    a);
            usage(stderr);
            return 2;
        }
    }
    if (n == 0) {
        fprintf(stderr, "frx mesh partition: how many parts? (-n N)\n\n");
        usage(stderr);
        return 2;
    }
    double *w = calloc((size_t)n, sizeof *w);
    size_t *count = calloc((size_t)n, sizeof *count), ncut = 0;
    double *work = calloc((size_t)n, sizeof *work);
    frx__meshfile *f = NULL;
    int rc = !w || !count || !work ? 1 : 0;
    if (rc)
        fprintf(stderr, "frx mesh partition: out of memory\n");
    for (long r = 0; !rc && r < n; r++)
        w[r] = 1;
    if (!rc && weights)
        rc = parse_weights(weights, (int)n, w);
    if (!rc)
        rc = open_file(path, &f);
    if (!rc && frx__meshfile_partition(f, method, (int)n, w, count, work,
                                       &ncut)) {
        fprintf(stderr, "%s\n", frx_errmsg());
        rc = 1;
    }
    if (!rc) {
        struct frx__meshfile_info in;
        frx__meshfile_info(f, &in);
        double sum = 0, total = 0;
        for (long r = 0; r < n; r++) {
            sum += w[r];
            total += work[r];
        }
        printf("%s: %zu elements in %ld part%s (%s)\n", path, in.neles, n,
               n == 1 ? "" : "s", method);
        /* the share of the work: elements by their type's cost */
        printf("%6s %10s %9s %9s\n", "part", "elements", "share", "target");
        for (long r = 0; r < n; r++)
            printf("%6ld %10zu %8.2f%% %8.2f%%\n", r, count[r],
                   100.0 * work[r] / total, 100.0 * w[r] / sum);
        printf("cut faces: %zu of %zu (%.2f%%)\n", ncut, in.nfaces,
               in.nfaces ? 100.0 * (double)ncut / (double)in.nfaces : 0.0);
        fflush(stdout);
    }
    if (!rc && out) {
        if (frx__meshfile_save(f, out, say_part)) {
            fprintf(stderr, "%s\n", frx_errmsg());
            rc = 1;
        } else {
            struct rusage ru;
            double mb = getrusage(RUSAGE_SELF, &ru) == 0
                            ? (double)ru.ru_maxrss / 1024 : 0;
            printf("wrote %s: %ld part%s, for a run on %ld rank%s (peak "
                   "memory %.0f MB)\n", out, n, n == 1 ? "" : "s", n,
                   n == 1 ? "" : "s", mb);
        }
    }
    frx__meshfile_close(f);
    free(w);
    free(count);
    free(work);
    return rc;
}

int frx_cmd_mesh(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (frx_cli_is_help(argv[1])) {
        usage(stdout);
        return 0;
    }
    int is_info = !strcmp(argv[1], "info");
    if (!is_info && strcmp(argv[1], "partition")) {
        fprintf(stderr, "frx mesh: unknown command '%s'\n\n", argv[1]);
        usage(stderr);
        return 2;
    }
    if (argc >= 3 && frx_cli_is_help(argv[2])) {
        usage(stdout);
        return 0;
    }
    if (argc < 3) {
        fprintf(stderr, "frx mesh %s: which file?\n\n", argv[1]);
        usage(stderr);
        return 2;
    }
    if (is_info) {
        if (argc > 3) {
            fprintf(stderr, "frx mesh info: one file, got '%s' too\n",
                    argv[3]);
            return 2;
        }
        return info(argv[2]);
    }
    return partition(argv[2], argc - 3, argv + 3);
}
