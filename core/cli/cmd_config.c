/* SPDX-License-Identifier: BSD-3-Clause */
/* `frx config check FILE...`: validate case files without running them. */
#include "cli.h"
#include "solver/settings-tool.h"

#include <frx/frx.h>

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: frx config check FILE...\n"
          "\n"
          "Check case files: their YAML syntax, then every key against\n"
          "frx's schema and the schemas of the backend and solver plugins\n"
          "found along the search path; with a solver, then the time\n"
          "loop's settings as frx run reads them. Every error is printed\n"
          "as FILE:LINE:COL.\n"
          "\n"
          "  -h, --help  show this help\n"
          "\n"
          "Every key of a case file: config/README.md.\n",
          f);
}

static size_t count_lines(const char *s)
{
    size_t n = *s ? 1 : 0;
    for (; *s; s++)
        n += *s == '\n' && s[1];
    return n;
}

/* 0 when the file is good, 1 otherwise. */
static int check_one(const char *path)
{
    frx_config *cfg = NULL;
    int rc = frx_config_load(path, &cfg);
    if (!rc)
        rc = frx_config_check(cfg);
    if (!rc) /* with a solver, what frx run reads of time.* beyond types */
        rc = frx__settings_check(cfg);
    frx_config_free(cfg);
    if (!rc) {
        printf("%s: ok\n", path);
        return 0;
    }
    fprintf(stderr, "%s\n", frx_errmsg());
    if (rc == FRX_ECONFIG) {
        size_t n = count_lines(frx_errmsg());
        fprintf(stderr, "frx: %s has %zu error%s; see config/README.md for "
                "every key\n", path, n, n == 1 ? "" : "s");
    }
    return 1;
}

int frx_cmd_config(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (frx_cli_is_help(argv[1])) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "check") != 0) {
        fprintf(stderr, "frx config: unknown command '%s'\n\n", argv[1]);
        usage(stderr);
        return 2;
    }
    if (argc < 3) {
        fprintf(stderr, "frx config check: which file?\n\n");
        usage(stderr);
        return 2;
    }
    if (argc == 3 && frx_cli_is_help(argv[2])) {
        usage(stdout);
        return 0;
    }
    int bad = 0;
    for (int i = 2; i < argc; i++)
        bad |= check_one(argv[i]);
    return bad;
}
