/* SPDX-License-Identifier: BSD-3-Clause */
/* Extensions' fields on the solver's blocks (extension.h, API 1.2):
 * kept in checkpoints and read back by a restart, and written as VTK
 * and HDF5 outputs, through the io folder as the solution is. */
#include "solver/ext_state.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* names copied as solver variables (vars[i].name malloc'd). */
static frx_solver_var *copy_names(size_t n, const char *const *names)
{
    frx_solver_var *v = calloc(n ? n : 1, sizeof *v);
    for (size_t i = 0; v && i < n; i++)
        if (!names[i] || !(v[i].name = strdup(names[i]))) {
            for (size_t k = 0; k < i; k++)
                free((char *)v[k].name);
            free(v);
            return NULL;
        }
    return v;
}

static void free_names(frx_solver_var *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free((char *)v[i].name);
    free(v);
}

/* Names a checkpoint or an output can hold: not empty, no '/' (HDF5's
 * paths), no XML markup (VTK's), all different. */
static int check_names(const frx_ext *e, const char *what, size_t n,
                       const char *const *names)
{
    if (!n || !names)
        return frx_error(FRX_EINVAL, "extension '%s': %s with no fields",
                         e->name, what);
    for (size_t i = 0; i < n; i++) {
        if (!names[i] || !names[i][0] || strpbrk(names[i], "/&<>\""))
            return frx_error(FRX_EINVAL, "extension '%s': %s: field %zu is "
                             "named '%s'; a name is not empty and has none "
                             "of / & < > \"", e->name, what, i,
                             names[i] ? names[i] : "(null)");
        for (size_t k = 0; k < i; k++)
            if (!strcmp(names[i], names[k]))
                return frx_error(FRX_EINVAL, "extension '%s': %s: two "
                                 "fields named '%s'", e->name, what,
                                 names[i]);
    }
    return FRX_OK;
}

int frx_ext_keep(frx_ext *e, const char *name, size_t nfields,
                 const char *const *names, frx_matrix *const *m)
{
    if (!e || !name || !m)
        return frx_error(FRX_EINVAL, "frx_ext_keep: NULL argument");
    int rc = check_names(e, "frx_ext_keep", nfields, names);
    if (rc)
        return rc;
    size_t nb = e->s->info.nblocks;
    char group[400];
    snprintf(group, sizeof group, "%s.%s", e->ns, name);
    if (!name[0] || strchr(name, '/'))
        return frx_error(FRX_EINVAL, "extension '%s': frx_ext_keep: '%s' "
                         "cannot name fields in a checkpoint", e->name, name);
    for (size_t i = 0; i < e->nkept; i++)
        if (!strcmp(e->kept[i].group, group))
            return frx_error(FRX_EINVAL, "extension '%s' keeps fields '%s' "
                             "twice", e->name, name);
    struct frx__kept *k = realloc(e->kept, (e->nkept + 1) * sizeof *k);
    if (!k)
        return frx_error(FRX_ENOMEM, "out of memory");
    e->kept = k;
    k = &e->kept[e->nkept];
    memset(k, 0, sizeof *k);
    k->group = strdup(group);
    k->vars = copy_names(nfields, names);
    k->m = calloc(nb ? nb : 1, sizeof *k->m);
    if (!k->group || !k->vars || !k->m) {
        free(k->group);
        free_names(k->vars, nfields);
        free(k->m);
        return frx_error(FRX_ENOMEM, "out of memory");
    }
    k->nvars = nfields;
    memcpy(k->m, m, nb * sizeof *m);
    e->nkept++;
    return FRX_OK;
}

void frx__ext_kept_free(frx_ext *e)
{
    for (size_t i = 0; i < e->nkept; i++) {
        free(e->kept[i].group);
        free_names(e->kept[i].vars, e->kept[i].nvars);
        free(e->kept[i].m);
    }
    free(e->kept);
    e->kept = NULL;
    e->nkept = 0;
}

int frx__ext_kept_load(frx_ext *e)
{
    int rc = FRX_OK;
    for (size_t i = 0; i < e->nkept && !rc; i++) {
        const struct frx__kept *k = &e->kept[i];
        rc = frx__fields_read_kept(e->s, k->group, k->nvars, k->vars, k->m);
    }
    return rc;
}

size_t frx__ext_kept_count(const frx_solver *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nexts; i++)
        n += s->exts[i]->nkept;
    return n;
}

void frx__ext_kept_at(const frx_solver *s, size_t i, const char **name,
                      size_t *nvars, const frx_solver_var **vars,
                      frx_matrix *const **m)
{
    for (size_t x = 0; x < s->nexts; x++) {
        const frx_ext *e = s->exts[x];
        if (i >= e->nkept) {
            i -= e->nkept;
            continue;
        }
        *name = e->kept[i].group;
        *nvars = e->kept[i].nvars;
        *vars = e->kept[i].vars;
        *m = e->kept[i].m;
        return;
    }
}

/* The names as solver variables for one call; the outputs. */
static int write(frx_ext *e, int vtk, const char *where, size_t nfields,
                 const char *const *names, frx_matrix *const *m, double t,
                 uint64_t step)
{
    int rc = !where || !where[0] || !m
                 ? frx_error(FRX_EINVAL, "extension '%s': no %s to write",
                             e->name, vtk ? "series name" : "file")
                 : check_names(e, vtk ? "frx_ext_write_vtk"
                                      : "frx_ext_write_h5",
                               nfields, names);
    if (vtk && !rc && strpbrk(where, "/&<>\""))
        rc = frx_error(FRX_EINVAL, "extension '%s': the series name '%s' "
                       "has one of / & < > \"", e->name, where);
    frx_solver_var *vars = rc ? NULL : copy_names(nfields, names);
    if (!rc && !vars)
        rc = frx_error(FRX_ENOMEM, "out of memory");
    /* every rank takes part, whatever its arguments: agreed first */
    char what[300];
    snprintf(what, sizeof what, "extension '%s' (%s)", e->name,
             vtk ? "frx_ext_write_vtk" : "frx_ext_write_h5");
    rc = frx__agree(e->s->mpi, rc, what);
    if (!rc)
        rc = vtk ? frx__fields_vtk(e->s, where, nfields, vars, m, t, step,
                                   &e->vtk_first)
                 : frx__fields_h5(e->s, where, nfields, vars, m, t, step);
    free_names(vars, nfields);
    return rc;
}

int frx_ext_write_vtk(frx_ext *e, const char *series, size_t nfields,
                      const char *const *names, frx_matrix *const *m,
                      double t, uint64_t step)
{
    if (!e)
        return frx_error(FRX_EINVAL, "frx_ext_write_vtk: NULL extension");
    return write(e, 1, series, nfields, names, m, t, step);
}

int frx_ext_write_h5(frx_ext *e, const char *path, size_t nfields,
                     const char *const *names, frx_matrix *const *m,
                     double t, uint64_t step)
{
    if (!e)
        return frx_error(FRX_EINVAL, "frx_ext_write_h5: NULL extension");
    return write(e, 0, path, nfields, names, m, t, step);
}
