/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: checkpoints in parallel HDF5 (io.h), format_version 1:
 *
 *   /                      attributes: format ("frx checkpoint"),
 *                          format_version, frx_version, t, dt, step, nrhs,
 *                          ctrl[4], scheme, solver, mesh_id, precision
 *                          ("single"/"double"), ndims, variables[nvars],
 *                          nranks (the writer's; for information)
 *   /solution/<etype>/u    [n][nupts][nvars], the backend's precision
 *   /solution/<etype>/gid  [n] uint64: row i's global element number,
 *                          ascending
 *
 * Rows are in gid order whatever the partition (io_route.c), so any
 * number of ranks reads a checkpoint back, each owning one contiguous
 * run of rows, with collective I/O. */
#include "io/io-impl.h"
#include "io/h5.h"
#include "io/io-util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FORMAT "frx checkpoint"
#define FORMAT_VERSION 1
#define PATH_BYTES 4096
/* a case kept in an attribute: HDF5 keeps attributes of up to 64 kB in
 * the object header */
#define CASE_BYTES 60000

/* ------------------------------------------------------------- the layout */

/* Tables by element type (index: enum frx_etype, 0 unused). */
#define NTYPES (FRX__ETYPE_LAST + 1)

/* What the ranks agree on per element type. */
struct types {
    uint64_t n[NTYPES];     /* elements in all */
    uint64_t nupts[NTYPES];
    const struct frx__io_block *b[NTYPES]; /* this rank's block, or NULL */
    uint64_t chunk;         /* gids per owning rank (io-util.h) */
};

static int layout(MPI_Comm comm, const struct frx__io_fields *f,
                  struct types *t)
{
    uint64_t lo[NTYPES], hi[NTYPES] = {0}, top = 0;
    memset(t, 0, sizeof *t);
    for (int k = 0; k < NTYPES; k++)
        lo[k] = UINT64_MAX;
    for (size_t i = 0; i < f->nblocks; i++) {
        const struct frx__io_block *b = &f->blocks[i];
        size_t ne = b->sb->neles;
        t->b[b->etype] = b;
        t->n[b->etype] = ne;
        if (ne) {
            lo[b->etype] = hi[b->etype] = b->sb->nupts;
            for (size_t e = 0; e < ne; e++)
                if (b->gid[e] >= top)
                    top = b->gid[e] + 1;
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, t->n, NTYPES, MPI_UINT64_T, MPI_SUM, comm);
    MPI_Allreduce(MPI_IN_PLACE, lo, NTYPES, MPI_UINT64_T, MPI_MIN, comm);
    MPI_Allreduce(MPI_IN_PLACE, hi, NTYPES, MPI_UINT64_T, MPI_MAX, comm);
    MPI_Allreduce(MPI_IN_PLACE, &top, 1, MPI_UINT64_T, MPI_MAX, comm);
    int size;
    MPI_Comm_size(comm, &size);
    t->chunk = top ? (top + (uint64_t)size - 1) / (uint64_t)size : 1;
    for (int k = 1; k < NTYPES; k++) {
        t->nupts[k] = hi[k];
        if (t->n[k] && lo[k] != hi[k])
            return frx_error(FRX_EINVAL, "checkpoint: ranks disagree on the "
                             "points per %s element (%llu and %llu)",
                             frx__io_etype(k)->name,
                             (unsigned long long)lo[k],
                             (unsigned long long)hi[k]);
    }
    return FRX_OK;
}

/* Between the host layout [nupts][nvars][neles] and rows of
 * [nupts][nvars] per element, for the elements in `order`. */
static void to_rows(const struct frx__io_fields *f,
                    const struct frx__io_block *b, const size_t *order,
                    size_t n, unsigned char *rows, int back)
{
    size_t fs = f->fpsize, nv = b->sb->nupts * f->nvars;
    size_t ne = b->sb->neles;
    unsigned char *u = b->u;
    for (size_t i = 0; i < n; i++)
        for (size_t kv = 0; kv < nv; kv++) {
            unsigned char *h = u + (kv * ne + order[i]) * fs;
            unsigned char *r = rows + (i * nv + kv) * fs;
            memcpy(back ? h : r, back ? r : h, fs);
        }
}

/* -------------------------------------------------------------- writing */

/* The extensions' names ("extensions") and each one's bytes
 * ("extension_<i>", where it saved any). */
static int write_extensions(struct frx__h5 *c, hid_t file,
                            const struct frx__ckpt_meta *m)
{
    size_t width = 1;
    for (size_t i = 0; i < m->next; i++)
        if (strlen(m->ext_names[i]) + 1 > width)
            width = strlen(m->ext_names[i]) + 1;
    char *names = m->next ? calloc(m->next, width) : NULL;
    if (m->next && !names)
        return c->rc = frx_error(FRX_ENOMEM, "out of memory writing %s",
                                 c->path);
    for (size_t i = 0; i < m->next; i++)
        memcpy(names + i * width, m->ext_names[i], strlen(m->ext_names[i]));
    if (m->next)
        frx__h5_attr_put_strs(c, file, "extensions", m->next, width, names);
    free(names);
    for (size_t i = 0; i < m->next && !c->rc; i++) {
        char key[64];
        snprintf(key, sizeof key, "extension_%zu", i);
        if (m->ext_len[i] >= CASE_BYTES)
            c->rc = frx_error(FRX_EINVAL, "checkpoint %s: extension '%s' "
                              "saves %zu bytes; a checkpoint keeps at most "
                              "%d of an extension's own state", c->path,
                              m->ext_names[i], m->ext_len[i], CASE_BYTES);
        else if (m->ext_len[i])
            frx__h5_attr_put(c, file, key, H5T_STD_U8LE, H5T_NATIVE_UCHAR,
                             m->ext_len[i], m->ext_data[i]);
    }
    return c->rc;
}

/* What write_extensions wrote, if anything, into m. */
static int read_extensions(struct frx__h5 *c, hid_t file,
                           struct frx__ckpt_meta *m)
{
    if (H5Aexists(file, "extensions") <= 0)
        return FRX_OK;
    size_t n = 0, width;
    char *names;
    if (frx__h5_attr_get_strs(c, file, "extensions", &n, &width, &names))
        return c->rc;
    m->ext_names = calloc(n ? n : 1, sizeof *m->ext_names);
    m->ext_data = calloc(n ? n : 1, sizeof *m->ext_data);
    m->ext_len = calloc(n ? n : 1, sizeof *m->ext_len);
    if (!m->ext_names || !m->ext_data || !m->ext_len)
        c->rc = frx_error(FRX_ENOMEM, "out of memory reading %s", c->path);
    m->next = c->rc ? 0 : n;
    for (size_t i = 0; i < m->next && !c->rc; i++) {
        char key[64];
        snprintf(key, sizeof key, "extension_%zu", i);
        m->ext_names[i] = strdup(names + i * width);
        if (!m->ext_names[i])
            c->rc = frx_error(FRX_ENOMEM, "out of memory reading %s",
                              c->path);
        if (c->rc || H5Aexists(file, key) <= 0)
            continue;
        size_t len = 0;
        hid_t a = frx__h5_attr_open(c, file, key, &len);
        if (a >= 0 && !(m->ext_data[i] = malloc(len ? len : 1)))
            c->rc = frx_error(FRX_ENOMEM, "out of memory reading %s",
                              c->path);
        if (a >= 0 && !c->rc)
            frx__h5_ok(c, H5Aread(a, H5T_NATIVE_UCHAR, m->ext_data[i]),
                       "read an attribute of");
        m->ext_len[i] = len;
        frx__h5_close(a, H5Aclose);
    }
    free(names);
    return c->rc;
}

void frx__ckpt_meta_free(struct frx__ckpt_meta *m)
{
    for (size_t i = 0; i < m->next; i++) {
        free(m->ext_names[i]);
        free(m->ext_data[i]);
    }
    free(m->ext_names);
    free(m->ext_data);
    free(m->ext_len);
    m->next = 0;
    m->ext_names = NULL;
    m->ext_data = NULL;
    m->ext_len = NULL;
}

static int write_meta(struct frx__h5 *c, hid_t file,
                      const struct frx__ckpt_meta *m,
                      const struct frx__io_fields *f)
{
    int version = FORMAT_VERSION, ndims = f->ndims, nranks;
    MPI_Comm_size(c->comm, &nranks);
    size_t width = 1;
    for (size_t v = 0; v < f->nvars; v++)
        if (strlen(frx__io_var(f, v)) + 1 > width)
            width = strlen(frx__io_var(f, v)) + 1;
    char *names = calloc(f->nvars, width);
    if (!names)
        return c->rc = frx_error(FRX_ENOMEM, "out of memory writing %s",
                                 c->path);
    for (size_t v = 0; v < f->nvars; v++)
        memcpy(names + v * width, frx__io_var(f, v),
               strlen(frx__io_var(f, v)));
    hid_t i32 = H5T_STD_I32LE, f64 = H5T_IEEE_F64LE, u64 = H5T_STD_U64LE;
    struct frx__h5 *h = c;
    if (!frx__h5_attr_put_str(h, file, "format", FORMAT) &&
        !frx__h5_attr_put(h, file, "format_version", i32, H5T_NATIVE_INT, 1,
                          &version) &&
        !frx__h5_attr_put_str(h, file, "frx_version", FRX_VERSION) &&
        !frx__h5_attr_put(h, file, "t", f64, H5T_NATIVE_DOUBLE, 1, &m->t) &&
        !frx__h5_attr_put(h, file, "dt", f64, H5T_NATIVE_DOUBLE, 1, &m->dt) &&
        !frx__h5_attr_put(h, file, "step", u64, H5T_NATIVE_UINT64, 1,
                          &m->step) &&
        !frx__h5_attr_put(h, file, "nrhs", u64, H5T_NATIVE_UINT64, 1,
                          &m->nrhs) &&
        !frx__h5_attr_put(h, file, "ctrl", f64, H5T_NATIVE_DOUBLE, 4,
                          m->ctrl) &&
        !frx__h5_attr_put_str(h, file, "scheme", m->scheme) &&
        !frx__h5_attr_put_str(h, file, "solver", m->solver) &&
        !frx__h5_attr_put_str(h, file, "mesh_id", m->mesh_id) &&
        !frx__h5_attr_put_str(h, file, "precision",
                              f->fpsize == 4 ? "single" : "double") &&
        !frx__h5_attr_put(h, file, "ndims", i32, H5T_NATIVE_INT, 1,
                          &ndims) &&
        !frx__h5_attr_put_strs(h, file, "variables", f->nvars, width,
                               names) &&
        !frx__h5_attr_put(h, file, "nranks", i32, H5T_NATIVE_INT, 1,
                          &nranks) &&
        m->case_text && strlen(m->case_text) < CASE_BYTES && m->case_file)
        if (!frx__h5_attr_put_str(h, file, "case", m->case_text))
            frx__h5_attr_put_str(h, file, "case_file", m->case_file);
    free(names);
    return c->rc ? c->rc : write_extensions(c, file, m);
}

static hid_t make_dataset(struct frx__h5 *c, hid_t grp, const char *name,
                          hid_t type, int nd, const hsize_t *dims)
{
    hid_t sp = H5Screate_simple(nd, dims, NULL), ds = -1;
    if (frx__h5_ok(c, sp, "make a dataspace in"))
        ds = H5Dcreate2(grp, name, type, sp, H5P_DEFAULT, H5P_DEFAULT,
                        H5P_DEFAULT);
    frx__h5_ok(c, ds, "add a dataset to");
    frx__h5_close(sp, H5Sclose);
    return ds;
}

/* Route this rank's elements of type k to their owners and write. */
static int write_type(struct frx__h5 *c, hid_t sol,
                      const struct frx__io_fields *f,
                      const struct types *t, int k)
{
    const struct frx__io_block *b = t->b[k];
    size_t nloc = b ? b->sb->neles : 0;
    size_t rowbytes = t->nupts[k] * f->nvars * f->fpsize;
    struct frx__route rt;
    int rc = frx__route_make(c->comm, t->chunk, b ? b->gid : NULL, nloc,
                             &rt);
    if (rc)
        return c->rc = rc;
    unsigned char *send = calloc(nloc ? nloc : 1, rowbytes);
    unsigned char *slab = calloc(rt.nown ? rt.nown : 1, rowbytes);
    if (!send || !slab)
        rc = frx_error(FRX_ENOMEM, "out of memory writing %s", c->path);
    else if (nloc)
        to_rows(f, b, rt.order, nloc, send, 0);
    rc = frx__io_agree(c->comm, rc);
    if (!rc)
        rc = frx__route_rows(c->comm, &rt, 0, send, slab, rowbytes);
    free(send);
    hid_t grp = -1, du = -1, dg = -1;
    if (!rc) {
        hsize_t dims[3] = {rt.nrows, t->nupts[k], f->nvars};
        grp = H5Gcreate2(sol, frx__io_etype(k)->name, H5P_DEFAULT,
                         H5P_DEFAULT, H5P_DEFAULT);
        if (frx__h5_ok(c, grp, "add a group to"))
            du = make_dataset(c, grp, "u", f->fpsize == 4 ? H5T_IEEE_F32LE
                                                          : H5T_IEEE_F64LE,
                              3, dims);
        if (!c->rc)
            dg = make_dataset(c, grp, "gid", H5T_STD_U64LE, 1, dims);
        if (!c->rc)
            frx__h5_slab(c, du, 1, f->fpsize == 4 ? H5T_NATIVE_FLOAT
                                                  : H5T_NATIVE_DOUBLE,
                         rt.row0, rt.nown, slab);
        if (!c->rc)
            frx__h5_slab(c, dg, 1, H5T_NATIVE_UINT64, rt.row0, rt.nown,
                         rt.gid);
        frx__h5_close(dg, H5Dclose);
        frx__h5_close(du, H5Dclose);
        frx__h5_close(grp, H5Gclose);
        rc = frx__io_agree(c->comm, c->rc);
    }
    free(slab);
    frx__route_free(&rt);
    return c->rc = rc;
}

static int check_call(const char *what, const char *path,
                      const struct frx__ckpt_meta *m,
                      const struct frx__io_fields *f)
{
    int rc = frx__io_check(f, what);
    if (!rc && (!path || !*path || !m))
        rc = frx_error(FRX_EINVAL, "%s: no file name or meta data", what);
    if (!rc && m->precision != (f->fpsize == 4 ? FRX_SINGLE : FRX_DOUBLE))
        rc = frx_error(FRX_EINVAL, "%s: precision %d but values of %zu "
                       "bytes", what, m->precision, f->fpsize);
    if (!rc && strlen(path) + 16 > PATH_BYTES)
        rc = frx_error(FRX_EINVAL, "%s: path too long: %s", what, path);
    return rc;
}

/* Every rank sees the file (read) or its folder, made by rank 0 just
 * before (write): an MPI-IO open that fails on one rank does not return
 * on the others (Open MPI's OMPIO waits in a barrier). That every rank
 * names the same file is agreed before (frx_solver_create for
 * --restart; the case's hash for checkpoint.file). Collective;
 * agreed. */
static int seen_everywhere(MPI_Comm comm, const char *what,
                           const char *path, int reading)
{
    int rc = FRX_OK;
    char dir[PATH_BYTES];
    if (reading && access(path, R_OK) != 0) {
        int e = errno;
        rc = frx_error(FRX_EIO, "cannot open the checkpoint %s: %s on this "
                       "rank (every rank must see the file: a shared "
                       "folder)", path,
                       e == ENOENT ? "no such file" : strerror(e));
    } else if (!reading && !(rc = frx__io_parent_of(path, dir, sizeof dir)) &&
               access(dir, W_OK | X_OK) != 0) {
        rc = frx_error(FRX_EIO, "%s: the folder of %s is not there or not "
                       "writable on this rank: %s (every rank must see the "
                       "folder rank 0 made: a shared folder)", what, path,
                       strerror(errno));
    }
    return frx__io_agree(comm, rc);
}

/* The extensions' kept fields, each a group laid out as the solution. */
static int write_kept(struct frx__h5 *c, hid_t file,
                      const struct frx__ckpt_meta *m)
{
    hid_t top = H5Gcreate2(file, "extension_fields", H5P_DEFAULT,
                           H5P_DEFAULT, H5P_DEFAULT);
    int made = frx__h5_ok(c, top, "add a group to");
    int rc = frx__io_agree(c->comm, made ? 0 : c->rc);
    for (size_t i = 0; i < m->nkept && !rc; i++) {
        const struct frx__io_fields *kf = &m->kept[i];
        struct types t;
        rc = frx__io_agree(c->comm, layout(c->comm, kf, &t));
        hid_t g = -1;
        if (!rc) {
            g = H5Gcreate2(top, m->kept_names[i], H5P_DEFAULT, H5P_DEFAULT,
                           H5P_DEFAULT);
            if (frx__h5_ok(c, g, "add a group to")) {
                size_t width = 1;
                for (size_t v = 0; v < kf->nvars; v++)
                    if (strlen(frx__io_var(kf, v)) + 1 > width)
                        width = strlen(frx__io_var(kf, v)) + 1;
                char *names = calloc(kf->nvars ? kf->nvars : 1, width);
                if (!names)
                    c->rc = frx_error(FRX_ENOMEM, "out of memory writing %s",
                                      c->path);
                for (size_t v = 0; names && v < kf->nvars; v++)
                    memcpy(names + v * width, frx__io_var(kf, v),
                           strlen(frx__io_var(kf, v)));
                if (names)
                    frx__h5_attr_put_strs(c, g, "variables", kf->nvars,
                                          width, names);
                free(names);
            }
            rc = frx__io_agree(c->comm, c->rc);
        }
        for (int k = 1; k < NTYPES && !rc; k++)
            if (t.n[k])
                rc = write_type(c, g, kf, &t, k);
        frx__h5_close(g, H5Gclose);
    }
    frx__h5_close(top, H5Gclose);
    return c->rc = rc;
}

int frx__ckpt_write(MPI_Comm comm, const char *path,
                    const struct frx__ckpt_meta *m,
                    const struct frx__io_fields *f)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    struct types t;
    int rc = frx__io_agree(comm, check_call("checkpoint", path, m, f));
    if (!rc)
        rc = frx__io_agree(comm, layout(comm, f, &t));
    if (!rc) /* checkpoint.file may name a folder not made yet */
        rc = frx__io_agree(comm, rank == 0 ? frx_make_parent_folder(path)
                                           : FRX_OK);
    if (!rc)
        rc = seen_everywhere(comm, "checkpoint", path, 0);
    if (rc)
        return rc;
    char tmp[PATH_BYTES];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    struct frx__h5 c = {comm, path, FRX_OK, "checkpoint"};
    struct frx__h5_quiet q = frx__h5_hush();
    hid_t fapl = frx__h5_mpio_fapl(&c), file = -1, sol = -1;
    if (!c.rc)
        file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    frx__h5_ok(&c, file, "create the checkpoint");
    rc = frx__io_agree(comm, c.rc);
    if (!rc)
        rc = frx__io_agree(comm, write_meta(&c, file, m, f));
    if (!rc) {
        sol = H5Gcreate2(file, "solution", H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
        rc = frx__io_agree(comm, frx__h5_ok(&c, sol, "add a group to")
                                     ? 0 : c.rc);
    }
    for (int k = 1; k < NTYPES && !rc; k++)
        if (t.n[k])
            rc = write_type(&c, sol, f, &t, k);
    frx__h5_close(sol, H5Gclose);
    if (!rc && m->nkept)
        rc = write_kept(&c, file, m);
    if (file >= 0) {
        if (!rc) /* MPI_File_sync: the data on disk before the rename */
            frx__h5_ok(&c, H5Fflush(file, H5F_SCOPE_GLOBAL), "flush");
        frx__h5_ok(&c, H5Fclose(file), "close");
        if (!rc)
            rc = frx__io_agree(comm, c.rc);
    }
    frx__h5_close(fapl, H5Pclose);
    frx__h5_unhush(q);
    if (!rc) {
        if (rank == 0)
            rc = frx__io_rename(tmp, path);
        rc = frx__io_agree(comm, rc);
    }
    if (rc && rank == 0)
        remove(tmp);
    return rc;
}

/* -------------------------------------------------------------- reading */

/* A line of what does not fit, into buf. */
static void misfit(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void misfit(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
}

static const char *prec_name(int p)
{
    return p == FRX_SINGLE ? "single" : p == FRX_DOUBLE ? "double" : "?";
}

/* The file's meta data into fm, and into bad how it differs from this
 * run's (m). */
static int read_meta(struct frx__h5 *c, hid_t file,
                     const struct frx__ckpt_meta *m,
                     const struct frx__io_fields *f,
                     struct frx__ckpt_meta *out, char *bad, size_t cap)
{
    char format[64] = "", prec[16] = "";
    int version = 0, ndims = 0;
    struct frx__ckpt_meta fm = {0};
    if (frx__h5_attr_get_str(c, file, "format", format, sizeof format))
        return c->rc;
    if (strcmp(format, FORMAT) != 0)
        return frx__h5_not_ours(c, "format \"" FORMAT "\"");
    if (frx__h5_attr_get(c, file, "format_version", H5T_NATIVE_INT, 1,
                         &version))
        return c->rc;
    if (version != FORMAT_VERSION)
        return c->rc = frx_error(FRX_ECONFIG, "checkpoint %s is of format "
                                 "version %d; this frx reads version %d",
                                 c->path, version, FORMAT_VERSION);
    if (frx__h5_attr_get(c, file, "t", H5T_NATIVE_DOUBLE, 1, &fm.t) ||
        frx__h5_attr_get(c, file, "dt", H5T_NATIVE_DOUBLE, 1, &fm.dt) ||
        frx__h5_attr_get(c, file, "step", H5T_NATIVE_UINT64, 1, &fm.step) ||
        frx__h5_attr_get(c, file, "nrhs", H5T_NATIVE_UINT64, 1, &fm.nrhs) ||
        frx__h5_attr_get(c, file, "ctrl", H5T_NATIVE_DOUBLE, 4, fm.ctrl) ||
        frx__h5_attr_get_str(c, file, "scheme", fm.scheme,
                             sizeof fm.scheme) ||
        frx__h5_attr_get_str(c, file, "solver", fm.solver,
                             sizeof fm.solver) ||
        frx__h5_attr_get_str(c, file, "mesh_id", fm.mesh_id,
                             sizeof fm.mesh_id) ||
        frx__h5_attr_get_str(c, file, "precision", prec, sizeof prec) ||
        frx__h5_attr_get(c, file, "ndims", H5T_NATIVE_INT, 1, &ndims))
        return c->rc;
    fm.precision = strcmp(prec, "single") == 0   ? FRX_SINGLE
                   : strcmp(prec, "double") == 0 ? FRX_DOUBLE
                                                 : 0;
    if (strcmp(fm.mesh_id, m->mesh_id) != 0)
        misfit(bad, cap, "\n  mesh: %s in the file, %s in this run",
               fm.mesh_id, m->mesh_id);
    if (strcmp(fm.solver, m->solver) != 0)
        misfit(bad, cap, "\n  solver: %s in the file, %s in this run",
               fm.solver, m->solver);
    if (fm.precision != m->precision)
        misfit(bad, cap, "\n  precision: %s in the file, %s in this run",
               prec, prec_name(m->precision));
    if (ndims != f->ndims)
        misfit(bad, cap, "\n  dimensions: %d in the file, %d in this run",
               ndims, f->ndims);

    size_t n = 0, width;
    char *names;
    if (frx__h5_attr_get_strs(c, file, "variables", &n, &width, &names))
        return c->rc;
    if (n != f->nvars)
        misfit(bad, cap, "\n  variables: %zu in the file, %zu in this run",
               n, f->nvars);
    for (size_t v = 0; v < n && v < f->nvars; v++)
        if (strcmp(names + v * width, frx__io_var(f, v)) != 0)
            misfit(bad, cap, "\n  variable %zu: %s in the file, %s in this "
                   "run", v, names + v * width, frx__io_var(f, v));
    free(names);
    read_extensions(c, file, &fm);
    *out = fm;
    return c->rc;
}

/* Type k's datasets against this run; u and gid stay open. */
static int check_type(struct frx__h5 *c, hid_t sol, const struct types *t,
                      const struct frx__io_fields *f, int k, hid_t *du,
                      hid_t *dg, char *bad, size_t cap)
{
    const char *name = frx__io_etype(k)->name;
    htri_t has = H5Lexists(sol, name, H5P_DEFAULT);
    if (!frx__h5_ok(c, has, "look into"))
        return c->rc;
    if (!has || !t->n[k]) {
        if (has || t->n[k])
            misfit(bad, cap, "\n  %s elements: %s in the file, %llu in "
                   "this run", name, has ? "some" : "none",
                   (unsigned long long)t->n[k]);
        return c->rc;
    }
    char p[64];
    snprintf(p, sizeof p, "%s/u", name);
    *du = H5Dopen2(sol, p, H5P_DEFAULT);
    snprintf(p, sizeof p, "%s/gid", name);
    if (frx__h5_ok(c, *du, "open the solution in"))
        *dg = H5Dopen2(sol, p, H5P_DEFAULT);
    hid_t sp = -1, ty = -1;
    hsize_t dims[3] = {0, 0, 0};
    if (frx__h5_ok(c, *dg, "open the element numbers in"))
        sp = H5Dget_space(*du);
    if (frx__h5_ok(c, sp, "read the shape of the solution in") &&
        H5Sget_simple_extent_ndims(sp) != 3)
        frx__h5_not_ours(c, "solution of rank 3");
    if (!c->rc)
        frx__h5_ok(c, H5Sget_simple_extent_dims(sp, dims, NULL),
                   "read the shape of the solution in");
    if (!c->rc)
        ty = H5Dget_type(*du);
    if (frx__h5_ok(c, ty, "read the type of the solution in")) {
        size_t fs = H5Tget_size(ty);
        if (dims[0] != t->n[k])
            misfit(bad, cap, "\n  %s elements: %llu in the file, %llu in "
                   "this run", name, (unsigned long long)dims[0],
                   (unsigned long long)t->n[k]);
        if (dims[1] != t->nupts[k])
            misfit(bad, cap, "\n  points per %s element: %llu in the file, "
                   "%llu in this run", name, (unsigned long long)dims[1],
                   (unsigned long long)t->nupts[k]);
        if (dims[2] != f->nvars)
            misfit(bad, cap, "\n  variables of the %s solution: %llu in "
                   "the file, %zu in this run", name,
                   (unsigned long long)dims[2], f->nvars);
        if (H5Tget_class(ty) != H5T_FLOAT || fs != f->fpsize)
            misfit(bad, cap, "\n  %s solution: values of %zu bytes in the "
                   "file, %zu in this run", name, fs, f->fpsize);
    }
    frx__h5_close(ty, H5Tclose);
    frx__h5_close(sp, H5Sclose);
    return c->rc;
}

/* Each owner reads its rows, checks their element numbers, and sends
 * them to the ranks that hold the elements. */
static int read_type(struct frx__h5 *c, hid_t du, hid_t dg,
                     const struct frx__io_fields *f, const struct types *t,
                     int k)
{
    const struct frx__io_block *b = t->b[k];
    size_t nloc = b ? b->sb->neles : 0;
    size_t rowbytes = t->nupts[k] * f->nvars * f->fpsize;
    struct frx__route rt;
    int rc = frx__route_make(c->comm, t->chunk, b ? b->gid : NULL, nloc,
                             &rt);
    if (rc)
        return c->rc = rc;
    unsigned char *recv = calloc(nloc ? nloc : 1, rowbytes);
    unsigned char *slab = calloc(rt.nown ? rt.nown : 1, rowbytes);
    uint64_t *gid = calloc(rt.nown ? rt.nown : 1, sizeof *gid);
    if (!recv || !slab || !gid)
        c->rc = frx_error(FRX_ENOMEM, "out of memory reading %s", c->path);
    if (!c->rc)
        frx__h5_slab(c, dg, 0, H5T_NATIVE_UINT64, rt.row0, rt.nown, gid);
    for (size_t j = 0; !c->rc && j < rt.nown; j++)
        if (gid[j] != rt.gid[j])
            c->rc = frx_error(FRX_ECONFIG, "checkpoint %s: row %llu holds "
                              "%s element %llu, this run's mesh has element "
                              "%llu there: restart on the mesh the "
                              "checkpoint was written for", c->path,
                              (unsigned long long)(rt.row0 + j),
                              frx__io_etype(k)->name,
                              (unsigned long long)gid[j],
                              (unsigned long long)rt.gid[j]);
    rc = frx__io_agree(c->comm, c->rc);
    if (!rc) {
        frx__h5_slab(c, du, 0, f->fpsize == 4 ? H5T_NATIVE_FLOAT
                                              : H5T_NATIVE_DOUBLE,
                     rt.row0, rt.nown, slab);
        rc = frx__io_agree(c->comm, c->rc);
    }
    if (!rc)
        rc = frx__route_rows(c->comm, &rt, 1, slab, recv, rowbytes);
    if (!rc && nloc)
        to_rows(f, b, rt.order, nloc, recv, 1);
    free(recv);
    free(slab);
    free(gid);
    frx__route_free(&rt);
    return c->rc = rc;
}

/* Every type's datasets not open (yet). */
static void no_handles(hid_t *du, hid_t *dg)
{
    for (int k = 0; k < NTYPES; k++)
        du[k] = dg[k] = -1;
}

/* The meta data and every type's shape against this run: FRX_ECONFIG
 * listing every difference. */
static int check_file(struct frx__h5 *c, hid_t file, hid_t *sol,
                      const struct frx__ckpt_meta *m,
                      struct frx__ckpt_meta *fm,
                      const struct frx__io_fields *f, const struct types *t,
                      hid_t *du, hid_t *dg)
{
    char bad[2048] = "";
    if (read_meta(c, file, m, f, fm, bad, sizeof bad))
        return c->rc;
    htri_t has = H5Lexists(file, "solution", H5P_DEFAULT);
    if (frx__h5_ok(c, has, "look into") && !has)
        return frx__h5_not_ours(c, "solution group");
    if (!c->rc)
        *sol = H5Gopen2(file, "solution", H5P_DEFAULT);
    frx__h5_ok(c, *sol, "open the solution group of");
    for (int k = 1; k < NTYPES && !c->rc; k++)
        check_type(c, *sol, t, f, k, &du[k], &dg[k], bad, sizeof bad);
    if (!c->rc && bad[0])
        c->rc = frx_error(FRX_ECONFIG, "checkpoint %s does not fit this "
                          "run:%s\nrestart with the mesh, solver, precision "
                          "and variables it was written with", c->path,
                          bad);
    return c->rc;
}

/* Each element type's rows read (where rc is 0), then its datasets, the
 * group and the file closed: the status, agreed. */
static int read_and_close(struct frx__h5 *c, int rc, hid_t file, hid_t grp,
                          hid_t *du, hid_t *dg,
                          const struct frx__io_fields *f,
                          const struct types *t)
{
    for (int k = 1; k < NTYPES && !rc; k++)
        if (t->n[k])
            rc = read_type(c, du[k], dg[k], f, t, k);
    for (int k = 1; k < NTYPES; k++) {
        frx__h5_close(du[k], H5Dclose);
        frx__h5_close(dg[k], H5Dclose);
    }
    frx__h5_close(grp, H5Gclose);
    if (file >= 0) {
        frx__h5_ok(c, H5Fclose(file), "close");
        if (!rc)
            rc = frx__io_agree(c->comm, c->rc);
    }
    return rc;
}

/* Before a read (rc: the checks of the call, this rank's): the file seen
 * by every rank, f's layout. Agreed. */
static int read_ready(MPI_Comm comm, int rc, const char *path,
                      const struct frx__io_fields *f, struct types *t)
{
    rc = frx__io_agree(comm, rc);
    if (!rc)
        rc = seen_everywhere(comm, "restart", path, 1);
    if (!rc)
        rc = frx__io_agree(comm, layout(comm, f, t));
    return rc;
}

int frx__ckpt_read(MPI_Comm comm, const char *path,
                   struct frx__ckpt_meta *m, struct frx__io_fields *f)
{
    struct types t;
    struct frx__ckpt_meta fm = {0};
    int rc = read_ready(comm, check_call("restart", path, m, f), path, f,
                        &t);
    if (rc)
        return rc;
    struct frx__h5 c = {comm, path, FRX_OK, "checkpoint"};
    struct frx__h5_quiet q = frx__h5_hush();
    hid_t fapl = frx__h5_mpio_fapl(&c), file = -1, sol = -1;
    hid_t du[NTYPES], dg[NTYPES];
    no_handles(du, dg);
    if (!c.rc)
        file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    frx__h5_ok(&c, file, "open the checkpoint");
    rc = frx__io_agree(comm, c.rc);
    if (!rc)
        rc = frx__io_agree(comm, check_file(&c, file, &sol, m, &fm, f, &t,
                                            du, dg));
    rc = read_and_close(&c, rc, file, sol, du, dg, f, &t);
    frx__h5_close(fapl, H5Pclose);
    frx__h5_unhush(q);
    if (!rc)
        *m = fm;
    else
        frx__ckpt_meta_free(&fm);
    return rc;
}

int frx__ckpt_read_kept(MPI_Comm comm, const char *path, const char *name,
                        struct frx__io_fields *f)
{
    struct types t;
    int rc = read_ready(comm, frx__io_check(f, "restart"), path, f, &t);
    if (rc)
        return rc;
    struct frx__h5 c = {comm, path, FRX_OK, "checkpoint"};
    struct frx__h5_quiet q = frx__h5_hush();
    hid_t fapl = frx__h5_mpio_fapl(&c), file = -1, g = -1;
    hid_t du[NTYPES], dg[NTYPES];
    no_handles(du, dg);
    char p[600], bad[2048] = "";
    snprintf(p, sizeof p, "extension_fields/%s", name);
    if (!c.rc)
        file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    frx__h5_ok(&c, file, "open the checkpoint");
    htri_t has = 0;
    if (!c.rc && (has = H5Lexists(file, "extension_fields", H5P_DEFAULT)) > 0)
        has = H5Lexists(file, p, H5P_DEFAULT);
    if (!c.rc && has <= 0)
        c.rc = frx_error(FRX_ECONFIG, "checkpoint %s holds no fields '%s' of "
                         "an extension (written before it was attached, or "
                         "by another case)", path, name);
    if (!c.rc)
        g = H5Gopen2(file, p, H5P_DEFAULT);
    if (frx__h5_ok(&c, g, "open a group of")) {
        size_t n = 0, width;
        char *names = NULL;
        if (!frx__h5_attr_get_strs(&c, g, "variables", &n, &width, &names)) {
            if (n != f->nvars)
                misfit(bad, sizeof bad, "\n  fields: %zu in the file, %zu "
                       "in this run", n, f->nvars);
            for (size_t v = 0; v < n && v < f->nvars; v++)
                if (strcmp(names + v * width, frx__io_var(f, v)) != 0)
                    misfit(bad, sizeof bad, "\n  field %zu: %s in the file, "
                           "%s in this run", v, names + v * width,
                           frx__io_var(f, v));
        }
        free(names);
    }
    for (int k = 1; k < NTYPES && !c.rc; k++)
        check_type(&c, g, &t, f, k, &du[k], &dg[k], bad, sizeof bad);
    if (!c.rc && bad[0])
        c.rc = frx_error(FRX_ECONFIG, "checkpoint %s: the fields '%s' do "
                         "not fit this run:%s", path, name, bad);
    rc = frx__io_agree(comm, c.rc);
    rc = read_and_close(&c, rc, file, g, du, dg, f, &t);
    frx__h5_close(fapl, H5Pclose);
    frx__h5_unhush(q);
    return rc;
}

/* ---------------------------------------------------------- its case */

int frx__ckpt_case(const char *path, char **text, char **file)
{
    *text = *file = NULL;
    struct frx__h5 c = {MPI_COMM_SELF, path, FRX_OK, "checkpoint"};
    struct frx__h5_quiet q = frx__h5_hush();
    hid_t f = access(path, R_OK) == 0 ? H5Fopen(path, H5F_ACC_RDONLY,
                                                H5P_DEFAULT)
                                      : -1;
    if (f < 0)
        c.rc = frx_error(FRX_EIO, "cannot open checkpoint %s: %s", path,
                         access(path, R_OK) ? strerror(errno)
                                            : "not an HDF5 file");
    char format[64] = "";
    if (!c.rc &&
        !frx__h5_attr_get_str(&c, f, "format", format, sizeof format) &&
        strcmp(format, FORMAT) != 0)
        frx__h5_not_ours(&c, "format \"" FORMAT "\"");
    htri_t has = c.rc ? 0 : H5Aexists(f, "case");
    if (!c.rc && has <= 0)
        c.rc = frx_error(FRX_ENOTFOUND, "checkpoint %s holds no case (an "
                         "older frx's, or a case over %d bytes): give it "
                         "with --case CASE.yaml", path, CASE_BYTES);
    size_t n = 1, width;
    if (!c.rc && !frx__h5_attr_get_strs(&c, f, "case", &n, &width, text)) {
        n = 1;
        frx__h5_attr_get_strs(&c, f, "case_file", &n, &width, file);
    }
    if (f >= 0)
        H5Fclose(f);
    frx__h5_unhush(q);
    if (c.rc) {
        free(*text);
        free(*file);
        *text = *file = NULL;
    }
    return c.rc;
}
