/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: the command-line program. */
#include "cli.h"

#include <frx/frx.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: frx <command> [options]\n"
    "\n"
    "commands:\n"
    "  run CASE.yaml             run a case (under mpirun for several ranks)\n"
    "  plugins [--config FILE]   list the plugins found and whether each can\n"
    "                            start here\n"
    "  config check FILE         validate a case file without running it\n"
    "  mesh info FILE            a Gmsh mesh as frx reads it: elements,\n"
    "                            boundaries, periodic pairs, id\n"
    "  mesh partition FILE -n N  its partition into N parts: sizes, cut\n"
    "                            faces (see frx mesh --help)\n"
    "  plot CHECKPOINT --var V   a PNG picture of variable V of a\n"
    "                            checkpoint (see frx plot --help)\n"
    "  version                   print frx's version and plugin ABI\n"
    "  help                      this text\n"
    "\n"
    "Plugins are searched in the case's plugins.path, then FRX_PLUGIN_PATH,\n"
    "then in frx/ beside libfrx, then in the install's plugin folder.\n"
    "FRX_LOG=error|warn|info|debug sets the log level.\n"
    "Every key of a case file: config/README.md.\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0)
        return frx_cmd_run(argc - 1, argv + 1);
    if (strcmp(cmd, "plugins") == 0)
        return frx_cmd_plugins(argc - 1, argv + 1);
    if (strcmp(cmd, "config") == 0)
        return frx_cmd_config(argc - 1, argv + 1);
    if (strcmp(cmd, "mesh") == 0)
        return frx_cmd_mesh(argc - 1, argv + 1);
    if (strcmp(cmd, "plot") == 0)
        return frx_cmd_plot(argc - 1, argv + 1);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("frx %s (plugin ABI %d.%d)\n", FRX_VERSION, FRX_ABI_MAJOR,
               FRX_ABI_MINOR);
        return 0;
    }
    if (frx_cli_is_help(cmd)) {
        fputs(usage, stdout);
        return 0;
    }
    fprintf(stderr, "frx: unknown command '%s'\n\n%s", cmd, usage);
    return 2;
}
