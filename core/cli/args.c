/* SPDX-License-Identifier: BSD-3-Clause */
/* What every command of the frx program reads of its arguments alike. */
#include "cli.h"

#include <string.h>

int frx_cli_is_help(const char *arg)
{
    return !strcmp(arg, "-h") || !strcmp(arg, "--help") ||
           !strcmp(arg, "help");
}
