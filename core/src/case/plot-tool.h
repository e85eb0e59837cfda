/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: `frx plot` (core/cli/cmd_plot.c): a picture of one variable from
 * a checkpoint. Exported from libfrx for the frx program only: not part
 * of the SDK, not installed, no ABI promise. */
#ifndef FRX_PLOT_TOOL_H
#define FRX_PLOT_TOOL_H

#include <frx/frx.h>

#include <mpi.h>

/* Collective over comm. The case is the one the checkpoint keeps (a
 * checkpoint written since frx keeps it), or case_path's; its backend, mesh
 * and solver start as for a restart from ckpt, and variable var is drawn
 * (docs/output.md) width pixels wide into out, or (out NULL) into
 * <ckpt less .h5>-<var>.png; the path written goes to written. */
FRX_EXTERN int frx__plot_checkpoint(MPI_Comm comm, const char *ckpt,
                                    const char *case_path, const char *var,
                                    const char *out, int width,
                                    char *written, size_t n);

#endif
