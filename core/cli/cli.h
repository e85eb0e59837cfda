/* SPDX-License-Identifier: BSD-3-Clause */
/* The `frx` program's subcommands. Each returns the process exit status. */
#ifndef FRX_CLI_H
#define FRX_CLI_H

int frx_cmd_run(int argc, char **argv);     /* frx run CASE.yaml */
int frx_cmd_plugins(int argc, char **argv); /* frx plugins [--config F] */
int frx_cmd_config(int argc, char **argv);  /* frx config check FILE */
int frx_cmd_mesh(int argc, char **argv);    /* frx mesh info|partition */
int frx_cmd_plot(int argc, char **argv);    /* frx plot CHECKPOINT */

/* args.c: "-h", "--help" or "help". */
int frx_cli_is_help(const char *arg);

/* demo.c: the demo case behind `frx run` of a case without a solver. */
struct frx_config;
int frx_demo_run(const struct frx_config *cfg);

#endif
