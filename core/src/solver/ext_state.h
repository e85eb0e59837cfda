/* SPDX-License-Identifier: BSD-3-Clause */
/* An attached extension as the core holds it: what ext.c (its life and
 * hooks) and ext_fields.c (its fields in checkpoints and outputs)
 * share. Internal to the solver folder. */
#ifndef FRX_SOLVER_EXT_STATE_H
#define FRX_SOLVER_EXT_STATE_H

#include "solver/solver-impl.h"

#include <frx/extension.h>

/* Fields an extension keeps in checkpoints (frx_ext_keep). */
struct frx__kept {
    char *group;             /* "<item>.<name>" */
    size_t nvars;
    frx_solver_var *vars;    /* their names, copied */
    frx_matrix **m;          /* one per block, the extension's */
};

/* One attached extension. */
struct frx_ext {
    frx_solver *s;
    const frx_plugin *plugin;
    const frx_extension_ops *ops;
    const char *name;
    char ns[160];                /* its kernels' namespace: its name, and
                                    "name.2", ... for a second item of
                                    one plugin */
    const frx_cfgnode *item;     /* its item of `extensions` */
    char where[300];             /* the item's "file:line:col" */
    uint64_t every;
    frx_extension_init init;     /* what its create got, until destroy */
    void *state;
    int created;
    int fail_rc;                 /* frx_ext_fail, until agreed */
    char *fail_msg;
    char **files;
    size_t nfiles;
    char progress[128];          /* frx_ext_progress's text */
    struct frx__kept *kept;      /* frx_ext_keep's fields */
    size_t nkept;
    uint64_t vtk_first;          /* frx_ext_write_vtk: the first step
                                    this run wrote, or UINT64_MAX */
};

/* ext_fields.c: an extension's kept fields freed; read back from a
 * restart's checkpoint (agreed). */
void frx__ext_kept_free(frx_ext *e);
int frx__ext_kept_load(frx_ext *e);

#endif
