/* SPDX-License-Identifier: BSD-3-Clause */
/* frx plot (plot-tool.h): the case a checkpoint keeps, started as for a
 * restart from it, and one variable drawn; then all of it destroyed. */
#include "case/plot-tool.h"
#include "case/case-impl.h"
#include "io/io-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The case: case_path's, or the checkpoint's. */
static int load(const char *ckpt, const char *case_path, frx_config **cfg)
{
    if (case_path)
        return frx_config_load(case_path, cfg);
    char *text = NULL, *file = NULL;
    int rc = frx__ckpt_case(ckpt, &text, &file);
    if (!rc)
        rc = frx_config_parse(text, strlen(text), file, cfg);
    free(text);
    free(file);
    return rc;
}

int frx__plot_checkpoint(MPI_Comm comm, const char *ckpt,
                         const char *case_path, const char *var,
                         const char *out, int width, char *written, size_t n)
{
    if (!ckpt || !var || !written)
        return frx_error(FRX_EINVAL, "frx__plot_checkpoint: NULL argument");
    frx_config *cfg = NULL;
    struct frx__case_parts p = {0};
    int rc = frx__agree(comm, load(ckpt, case_path, &cfg), "the case");
    if (!rc)
        rc = frx__agree(comm, frx_config_check_for_run(cfg), "the case");
    if (!rc && !frx_cfg_get(frx_config_root(cfg), "solver.name"))
        rc = frx_error(FRX_ECONFIG, "%s: the case has no solver.name: "
                       "nothing to draw", frx_config_file(cfg));
    if (!rc)
        rc = frx__case_start(cfg, comm, ckpt, &p);
    if (!rc) {
        size_t len = strlen(ckpt);
        if (out)
            snprintf(written, n, "%s", out);
        else if (len > 3 && !strcmp(ckpt + len - 3, ".h5"))
            snprintf(written, n, "%.*s-%s.png", (int)(len - 3), ckpt, var);
        else
            snprintf(written, n, "%s-%s.png", ckpt, var);
        rc = frx__picture_to(p.solver, var, written, width);
    }
    rc = frx__case_stop(&p, rc);
    frx_config_free(cfg);
    return rc;
}
