/* SPDX-License-Identifier: BSD-3-Clause */
/* The time loop's side of output, checkpoints and error norms: the
 * solution copied to the host block by block and handed to the VTK
 * writer and the HDF5 checkpoints of io.h (which return the same code
 * on every rank); norms by quadrature with the solver's weights. All
 * collective; failures agreed by every rank. */
#include "solver/solver-impl.h"
#include "config/config-impl.h"
#include "io/io-impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* The solution's description, with room for u (read from the current
 * register when read is set). */
static int make_fields(frx_solver *s, struct frx__io_fields *f, int read)
{
    return frx__io_fields_make(s, f, s->info.nvars, s->info.vars,
                          s->info.var_size, s->reg[s->ucur], read);
}

int frx__output_write(frx_solver *s)
{
    struct frx__io_fields f;
    int rc = make_fields(s, &f, 1);
    char what[96];
    snprintf(what, sizeof what, "step %llu: output",
             (unsigned long long)s->step);
    if (s->out_first == UINT64_MAX)
        s->out_first = s->step;
    if ((rc = frx__agree(s->mpi, rc, what)) == FRX_OK)
        rc = frx__vtk_write(s->mpi, s->set.out_dir, s->set.out_name, &f,
                            s->t, s->step, s->out_from, s->out_first);
    frx__io_fields_free(&f);
    return rc;
}

/* checkpoint.file with {step} replaced by the step number. */
static void ckpt_path(const frx_solver *s, char *buf, size_t n)
{
    const char *file = s->set.ckpt_file, *at = strstr(file, "{step}");
    if (!at)
        snprintf(buf, n, "%s", file);
    else
        snprintf(buf, n, "%.*s%08llu%s", (int)(at - file), file,
                 (unsigned long long)s->step, at + 6);
}

/* frx_check_parent_folder(path), its message led by where key is. */
static int check_folder(const frx_solver *s, const char *key,
                        const char *path)
{
    int rc = frx_check_parent_folder(path);
    if (rc) {
        char where[300], why[600];
        const frx_cfgnode *k = frx_cfg_get(frx_config_root(s->cfg), key);
        snprintf(why, sizeof why, "%s", frx_errmsg());
        if (k)
            frx__cfg_where(k, where, sizeof where);
        rc = frx_error(rc, "%s%s'%s'%s: %s; name a folder that can be made",
                       k ? where : "", k ? ": " : "", key,
                       k ? "" : " (its default)", why);
    }
    return rc;
}

/* Variable name's index, or why not into an error (at: its place). */
static int var_index(const frx_solver *s, const char *name, const char *at,
                     size_t *var)
{
    char names[1024] = "";
    size_t len = 0;
    for (size_t v = 0; v < s->info.nvars; v++) {
        if (!strcmp(s->vars[v], name)) {
            *var = v;
            return FRX_OK;
        }
        len += (size_t)snprintf(names + len, len < sizeof names ?
                                sizeof names - len : 0, "%s%s",
                                v ? ", " : "", s->vars[v]);
        if (len >= sizeof names)
            len = sizeof names - 1;
    }
    return frx_error(FRX_ECONFIG, "%s: solver '%s' has no variable '%s'; "
                     "its variables: %s", at, s->name, name, names);
}

int frx__picture_check(const frx_solver *s)
{
    if (!s->set.png_var)
        return FRX_OK;
    char at[300] = "output.png.var";
    const frx_cfgnode *k = frx_cfg_get(frx_config_root(s->cfg),
                                       "output.png.var");
    if (k) {
        frx__cfg_where(k, at, sizeof at);
        snprintf(at + strlen(at), sizeof at - strlen(at), ": output.png.var");
    }
    size_t var;
    int rc = var_index(s, s->set.png_var, at, &var);
    if (!rc && s->info.ndims != 2 && s->info.ndims)
        rc = frx_error(FRX_ENOTSUP, "%s: a picture is of a 2-D field; this "
                       "mesh is %d-D: use the VTK output (output.interval)",
                       at, s->info.ndims);
    return rc;
}

int frx__picture_to(frx_solver *s, const char *var, const char *path,
                    int width)
{
    size_t v = 0;
    int rc = var_index(s, var, "picture", &v);
    char title[512], what[4200];
    const char *file = frx_config_file(s->cfg);
    file = file ? file : "case";
    const char *base = strrchr(file, '/');
    snprintf(title, sizeof title, "%s at t = %.6g, step %llu (%s)", var,
             s->t, (unsigned long long)s->step, base ? base + 1 : file);
    snprintf(what, sizeof what, "step %llu: picture %s",
             (unsigned long long)s->step, path);
    struct frx__io_fields f = {0};
    if (!rc)
        rc = make_fields(s, &f, 1);
    if (!rc) /* its folder: made as output.dir is, at the first write */
        rc = s->rank ? FRX_OK : frx_make_parent_folder(path);
    if ((rc = frx__agree(s->mpi, rc, what)) == FRX_OK)
        rc = frx__picture_write(s->mpi, path, &f, v, title, width);
    frx__io_fields_free(&f);
    return rc;
}

int frx__picture_out(frx_solver *s, int final)
{
    char path[4096];
    if (final)
        snprintf(path, sizeof path, "%s/%s-%s.png", s->set.out_dir,
                 s->set.out_name, s->set.png_var);
    else
        snprintf(path, sizeof path, "%s/%s-%s-%06llu.png", s->set.out_dir,
                 s->set.out_name, s->set.png_var,
                 (unsigned long long)s->step);
    return frx__picture_to(s, s->set.png_var, path, (int)s->set.png_width);
}

int frx__outputs_check(const frx_solver *s, int fresh)
{
    char path[4096];
    int rc = FRX_OK;
    if (s->set.out_every && fresh) { /* an earlier run's series */
        snprintf(path, sizeof path, "%s/%s.pvd", s->set.out_dir,
                 s->set.out_name);
        if (access(path, F_OK) == 0)
            frx_log(FRX_LOG_WARN, "%s is an earlier run's: this run's "
                    "series replaces it from step 0 (the earlier files "
                    "of steps it does not write stay beside it)", path);
    }
    if (s->set.out_every) { /* pieces in <dir>/<name>/ */
        snprintf(path, sizeof path, "%s/%s/%s-000000-0.vtu", s->set.out_dir,
                 s->set.out_name, s->set.out_name);
        rc = check_folder(s, "output.dir", path);
    }
    if (!rc && s->set.ckpt_every) {
        ckpt_path(s, path, sizeof path);
        rc = check_folder(s, "checkpoint.file", path);
    }
    if (!rc && s->set.png_var) {
        snprintf(path, sizeof path, "%s/%s-%s.png", s->set.out_dir,
                 s->set.out_name, s->set.png_var);
        rc = check_folder(s, "output.dir", path);
    }
    return rc;
}

/* The extensions' states for a checkpoint: each saves on every rank,
 * and rank 0's bytes go to every rank (parallel HDF5 writes attributes
 * collectively, alike everywhere). Agreed. */
static int ext_states(frx_solver *s, struct frx__ckpt_meta *m)
{
    size_t n = frx__ext_count(s);
    if (!n)
        return FRX_OK;
    m->ext_names = calloc(n, sizeof *m->ext_names);
    m->ext_data = calloc(n, sizeof *m->ext_data);
    m->ext_len = calloc(n, sizeof *m->ext_len);
    int rc = m->ext_names && m->ext_data && m->ext_len
                 ? FRX_OK
                 : frx_error(FRX_ENOMEM, "out of memory for a checkpoint");
    m->next = rc ? 0 : n;
    for (size_t i = 0; i < m->next; i++) {
        m->ext_names[i] = (char *)frx__ext_name(s, i);
        int r = rc ? rc : frx__ext_save(s, i, &m->ext_data[i],
                                        &m->ext_len[i]);
        char what[300];
        snprintf(what, sizeof what, "step %llu: extension '%s' (save)",
                 (unsigned long long)s->step, m->ext_names[i]);
        if ((rc = frx__agree(s->mpi, r, what)))
            continue;
        unsigned long long len = m->ext_len[i];
        MPI_Bcast(&len, 1, MPI_UNSIGNED_LONG_LONG, 0, s->mpi);
        if (s->rank) {
            free(m->ext_data[i]);
            m->ext_data[i] = malloc(len ? len : 1);
            m->ext_len[i] = len;
        }
        rc = frx__agree(s->mpi, m->ext_data[i] || !len
                                    ? FRX_OK
                                    : frx_error(FRX_ENOMEM, "out of memory"),
                        what);
        if (!rc && len)
            MPI_Bcast(m->ext_data[i], (int)len, MPI_BYTE, 0, s->mpi);
    }
    return rc;
}

/* The fields the extensions keep, read for a checkpoint. Agreed. */
static int kept_fields(frx_solver *s, struct frx__ckpt_meta *m,
                       struct frx__io_fields **kept, const char ***names)
{
    size_t n = frx__ext_kept_count(s);
    if (!n)
        return FRX_OK;
    *kept = calloc(n, sizeof **kept);
    *names = calloc(n, sizeof **names);
    int rc = *kept && *names ? FRX_OK
                             : frx_error(FRX_ENOMEM, "out of memory for a "
                                         "checkpoint");
    for (size_t i = 0; i < n && !rc; i++) {
        size_t nv;
        const frx_solver_var *vars;
        frx_matrix *const *mats;
        frx__ext_kept_at(s, i, &(*names)[i], &nv, &vars, &mats);
        m->nkept = i + 1;
        rc = frx__io_fields_make(s, &(*kept)[i], nv, vars, sizeof *vars, mats, 1);
    }
    m->kept_names = *names;
    m->kept = *kept;
    return frx__agree(s->mpi, rc, "the extensions' fields for a checkpoint");
}

int frx__checkpoint_write(frx_solver *s)
{
    struct frx__io_fields f;
    int rc = make_fields(s, &f, 1);
    char path[4096], what[4200];
    ckpt_path(s, path, sizeof path);
    snprintf(what, sizeof what, "step %llu: checkpoint %s",
             (unsigned long long)s->step, path);
    if ((rc = frx__agree(s->mpi, rc, what)) == FRX_OK) {
        struct frx__ckpt_meta m;
        frx__ckpt_meta_fill(s, &m);
        /* the case, so that frx plot can draw from the checkpoint alone */
        size_t len;
        char abs[4096];
        const char *file = frx_config_file(s->cfg);
        m.case_text = frx__config_text(s->cfg, &len);
        m.case_file = file && realpath(file, abs) ? abs : file;
        rc = ext_states(s, &m);
        struct frx__io_fields *kept = NULL;
        const char **kept_names = NULL;
        if (rc == FRX_OK)
            rc = kept_fields(s, &m, &kept, &kept_names);
        if (rc == FRX_OK)
            rc = frx__ckpt_write(s->mpi, path, &m, &f);
        for (size_t i = 0; kept && i < m.nkept; i++)
            frx__io_fields_free(&kept[i]);
        free(kept);
        free(kept_names);
        for (size_t i = 0; i < m.next; i++)
            free(m.ext_data[i]);
        free(m.ext_names);
        free(m.ext_data);
        free(m.ext_len);
    }
    frx__io_fields_free(&f);
    return rc;
}

/* u, time, step, dt and the controller from a checkpoint, into register
 * 0 (where the scheme starts). */
int frx__checkpoint_read(frx_solver *s, const char *path)
{
    struct frx__io_fields f;
    struct frx__ckpt_meta m;
    frx__ckpt_meta_fill(s, &m); /* this run's solver, mesh and precision */
    char what[4200];
    snprintf(what, sizeof what, "the restart from %s", path);
    int rc = make_fields(s, &f, 0);
    if ((rc = frx__agree(s->mpi, rc, what)) == FRX_OK)
        rc = frx__ckpt_read(s->mpi, path, &m, &f);
    if (rc == FRX_OK) { /* a copy failing on one rank: all say so */
        for (size_t b = 0; rc == FRX_OK && b < s->info.nblocks; b++)
            rc = frx_matrix_write(s->reg[0][b], f.blocks[b].u);
        rc = frx__agree(s->mpi, rc, what);
    }
    frx__io_fields_free(&f);
    if (rc)
        return rc;
    /* the extensions' states, for the start of the run */
    s->ckpt_next = m.next;
    s->ckpt_ext_names = m.ext_names;
    s->ckpt_ext_data = m.ext_data;
    s->ckpt_ext_len = m.ext_len;
    free(s->restart_path);
    s->restart_path = strdup(path);
    if (!s->restart_path)
        return frx_error(FRX_ENOMEM, "out of memory");
    s->t = m.t;
    s->dt = s->set.pi || !(s->set.dt > 0) ? m.dt : s->set.dt;
    s->step = m.step;
    s->nrhs = m.nrhs;
    s->errprev = m.ctrl[0] > 0 ? m.ctrl[0] : 1;
    if (strcmp(m.scheme, frx__scheme_name(s->set.scheme)) != 0 && s->rank == 0)
        frx_log(FRX_LOG_WARN, "%s was written by time.scheme %s; going on "
                "with %s", path, m.scheme, frx__scheme_name(s->set.scheme));
    frx_log(FRX_LOG_INFO, "restart from %s: step %llu, t = %.17g", path,
            (unsigned long long)m.step, m.t);
    return FRX_OK;
}

/* ----------------------------------------------------------- norms */

/* sum over this rank's points of w*(u - exact)^2 per variable. */
static int local_sq(frx_solver *s, double *sq)
{
    size_t nv = s->info.nvars;
    int rc = FRX_OK;
    for (size_t b = 0; b < s->info.nblocks && rc == FRX_OK; b++) {
        const frx_solver_block *sb = &s->blocks[b];
        size_t n = sb->nupts * sb->neles;
        void *u = frx__calloc(n * nv, s->be->fpsize, "a host copy of u");
        double *ex = frx__calloc(n * nv, sizeof *ex, "exact values");
        rc = u && ex ? frx_matrix_read(s->reg[s->ucur][b], u) : FRX_ENOMEM;
        if (rc == FRX_OK)
            rc = frx__solver_exact(s, n, s->info.ndims ? sb->upts : NULL,
                                   ex);
        for (size_t e = 0; e < sb->neles && rc == FRX_OK; e++)
            for (size_t k = 0; k < sb->nupts; k++)
                for (size_t v = 0; v < nv; v++) {
                    size_t i = (k * nv + v) * sb->neles + e;
                    double x = s->be->fpsize == 4 ? ((float *)u)[i]
                                                  : ((double *)u)[i];
                    double d = x - ex[(e * sb->nupts + k) * nv + v];
                    sq[v] += sb->qweights[e * sb->nupts + k] * d * d;
                }
        free(u);
        free(ex);
    }
    return rc;
}

int frx__error_norms(frx_solver *s, double *l2)
{
    size_t nv = s->info.nvars;
    int have = s->ops->exact != NULL;
    for (size_t b = 0; b < s->info.nblocks; b++)
        have &= s->blocks[b].qweights && (s->blocks[b].upts ||
                                          !s->info.ndims);
    for (size_t v = 0; v < nv; v++)
        l2[v] = NAN;
    if (!have)
        return FRX_OK;
    double *sq = frx__calloc(nv, sizeof *sq, "norms");
    int rc = frx__agree(s->mpi, sq ? local_sq(s, sq) : FRX_ENOMEM,
                        "the error norms");
    if (rc == FRX_OK && MPI_Allreduce(sq, l2, (int)nv, MPI_DOUBLE, MPI_SUM,
                                      s->mpi) != MPI_SUCCESS)
        rc = frx_error(FRX_EMPI, "MPI_Allreduce of the norms failed");
    for (size_t v = 0; v < nv && rc == FRX_OK; v++)
        l2[v] = sqrt(l2[v]);
    free(sq);
    return rc;
}
