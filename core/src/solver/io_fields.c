/* SPDX-License-Identifier: BSD-3-Clause */
/* Fields of the solver's blocks as the io folder takes them: the
 * solution, or an extension's fields (ext_fields.c), described for
 * io.h, written as VTK or HDF5 and read back from a checkpoint. Below
 * both run_io.c (the solution's outputs and checkpoints) and
 * ext_fields.c. */
#include "solver/solver-impl.h"
#include "io/io-impl.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void frx__io_fields_free(struct frx__io_fields *f)
{
    for (size_t b = 0; f->blocks && b < f->nblocks; b++)
        free(f->blocks[b].u);
    free(f->blocks);
}

/* Fields of the solver's blocks for io.h: nvars variables (vars,
 * var_size apart), with room for their values (read from the matrices
 * m, one per block, when read is set). */
int frx__io_fields_make(frx_solver *s, struct frx__io_fields *f,
                          size_t nvars, const frx_solver_var *vars,
                          size_t var_size, frx_matrix *const *m, int read)
{
    size_t nb = s->info.nblocks;
    *f = (struct frx__io_fields){.ndims = s->info.ndims,
                                 .fpsize = s->be->fpsize,
                                 .nvars = nvars,
                                 .vars = vars,
                                 .var_size = var_size,
                                 .nblocks = nb};
    if (!(f->blocks = frx__calloc(nb, sizeof *f->blocks, "io blocks")))
        return FRX_ENOMEM;
    for (size_t b = 0; b < nb; b++) {
        const frx_solver_block *sb = &s->blocks[b];
        struct frx__io_block *ib = &f->blocks[b];
        frx_mesh_block mb = {.size = sizeof mb};
        ib->sb = sb;
        ib->gid = s->gids[b];
        ib->etype = s->mesh && frx_mesh_get_block(s->mesh, b, &mb) ==
                    FRX_OK ? mb.etype : 0;
        ib->u = frx__calloc(sb->nupts * nvars * sb->neles, s->be->fpsize,
                            "a host copy of fields");
        if (!ib->u)
            return FRX_ENOMEM;
        if (read) {
            int rc = frx_matrix_read(m[b], ib->u);
            if (rc)
                return rc;
        }
    }
    return FRX_OK;
}

void frx__ckpt_meta_fill(const frx_solver *s, struct frx__ckpt_meta *m)
{
    memset(m, 0, sizeof *m);
    m->t = s->t;
    m->dt = s->dt;
    m->step = s->step;
    m->nrhs = s->nrhs;
    m->ctrl[0] = s->errprev;
    snprintf(m->scheme, sizeof m->scheme, "%s",
             frx__scheme_name(s->set.scheme));
    snprintf(m->solver, sizeof m->solver, "%s", s->name);
    frx_mesh_info mi = {.size = sizeof mi};
    if (s->mesh && frx_mesh_get_info(s->mesh, &mi) == FRX_OK)
        memcpy(m->mesh_id, mi.id, sizeof m->mesh_id);
    m->precision = s->be->precision;
}

/* An extension's matrices against the blocks: one per block, of the
 * block's points and elements and nvars variables. */
static int check_matrices(frx_solver *s, size_t nvars, frx_matrix *const *m,
                          const char *what)
{
    for (size_t b = 0; b < s->info.nblocks; b++) {
        const frx_solver_block *sb = &s->blocks[b];
        if (!m[b] || frx_matrix_nrow(m[b]) != sb->nupts ||
            frx_matrix_nvar(m[b]) != nvars ||
            frx_matrix_neles(m[b]) != sb->neles)
            return frx_error(FRX_EINVAL, "%s: block %zu's matrix is not "
                             "%zu rows x %zu variables x %zu elements", what,
                             b, sb->nupts, nvars, sb->neles);
    }
    return FRX_OK;
}

int frx__fields_vtk(frx_solver *s, const char *series, size_t nvars,
                    const frx_solver_var *vars, frx_matrix *const *m,
                    double t, uint64_t step, uint64_t *first)
{
    struct frx__io_fields f = {0};
    char what[300];
    snprintf(what, sizeof what, "step %llu: output %s",
             (unsigned long long)step, series);
    int rc = check_matrices(s, nvars, m, what);
    if (!rc)
        rc = frx__io_fields_make(s, &f, nvars, vars, sizeof *vars, m, 1);
    if (*first == UINT64_MAX)
        *first = step;
    if ((rc = frx__agree(s->mpi, rc, what)) == FRX_OK)
        rc = frx__vtk_write(s->mpi, s->set.out_dir, series, &f, t, step,
                            s->out_from, *first);
    frx__io_fields_free(&f);
    return rc;
}

int frx__fields_h5(frx_solver *s, const char *path, size_t nvars,
                   const frx_solver_var *vars, frx_matrix *const *m,
                   double t, uint64_t step)
{
    struct frx__io_fields f = {0};
    char what[4200];
    snprintf(what, sizeof what, "step %llu: %s", (unsigned long long)step,
             path);
    int rc = check_matrices(s, nvars, m, what);
    if (!rc)
        rc = frx__io_fields_make(s, &f, nvars, vars, sizeof *vars, m, 1);
    if ((rc = frx__agree(s->mpi, rc, what)) == FRX_OK) {
        struct frx__ckpt_meta meta;
        frx__ckpt_meta_fill(s, &meta);
        meta.t = t;
        meta.step = step;
        rc = frx__ckpt_write(s->mpi, path, &meta, &f);
    }
    frx__io_fields_free(&f);
    return rc;
}

int frx__fields_read_kept(frx_solver *s, const char *name, size_t nvars,
                          const frx_solver_var *vars, frx_matrix *const *m)
{
    struct frx__io_fields f = {0};
    char what[4200];
    snprintf(what, sizeof what, "the restart from %s: fields %s",
             s->restart_path ? s->restart_path : "?", name);
    int rc = s->restart_path ? check_matrices(s, nvars, m, what)
                             : frx_error(FRX_EINVAL, "%s: not a restart",
                                         what);
    if (!rc)
        rc = frx__io_fields_make(s, &f, nvars, vars, sizeof *vars, m, 0);
    if ((rc = frx__agree(s->mpi, rc, what)) == FRX_OK)
        rc = frx__ckpt_read_kept(s->mpi, s->restart_path, name, &f);
    for (size_t b = 0; rc == FRX_OK && b < s->info.nblocks; b++)
        rc = frx_matrix_write(m[b], f.blocks[b].u);
    if (rc == FRX_OK)
        rc = frx__agree(s->mpi, rc, what);
    frx__io_fields_free(&f);
    return rc;
}

