/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: the time loop's settings as `frx config check` reads them
 * (core/cli/cmd_config.c). Exported from libfrx for the frx program
 * only: not part of the SDK, not installed, no ABI promise. */
#ifndef FRX_SETTINGS_TOOL_H
#define FRX_SETTINGS_TOOL_H

#include <frx/frx.h>

/* A case with solver.name: its time loop's settings read as frx run
 * reads them (when the run ends, one of time.dt and time.cfl, the
 * controller), FRX_OK or FRX_ECONFIG with the first problem at its
 * file:line:col. A case without a solver (the demo): FRX_OK. */
FRX_EXTERN int frx__settings_check(const frx_config *cfg);

#endif
