/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the VTK writer and the checkpoints: one outcome across
 * ranks, files put in place atomically, element types. */
#include "io/io-util.h"

#include <frx/frx.h>
#include <frx/mesh.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int frx__io_agree(MPI_Comm comm, int rc)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int mine[2] = {rc ? rank : size, rc != 0}, all[2];
    if (MPI_Allreduce(&mine[0], &all[0], 1, MPI_INT, MPI_MIN, comm) !=
            MPI_SUCCESS ||
        MPI_Allreduce(&mine[1], &all[1], 1, MPI_INT, MPI_SUM, comm) !=
            MPI_SUCCESS)
        return frx_error(FRX_EMPI, "MPI_Allreduce failed agreeing on an "
                         "output's outcome");
    int first = all[0];
    if (first == size)
        return FRX_OK;
    struct {
        int rc;
        char msg[2048];
    } why = {rc, ""};
    if (rank == first)
        snprintf(why.msg, sizeof why.msg, "%s", frx_errmsg());
    if (MPI_Bcast(&why, sizeof why, MPI_BYTE, first, comm) != MPI_SUCCESS)
        return frx_error(FRX_EMPI, "MPI_Bcast failed sharing rank %d's "
                         "error", first);
    if (all[1] == size) /* every rank failed: the first one's words */
        return frx_error(why.rc, "%s", why.msg);
    return frx_error(why.rc, "rank %d: %s", first, why.msg);
}

int frx__io_parent_of(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    size_t n = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
    if (n >= size)
        return frx_error(FRX_EINVAL, "folder name too long: %.*s", (int)n,
                         path);
    memmove(dir, n ? path : ".", n ? n : 1); /* dir may be path */
    dir[n ? n : 1] = '\0';
    return FRX_OK;
}

int frx_make_parent_folder(const char *path)
{
    char dir[4096];
    int rc = frx__io_parent_of(path, dir, sizeof dir);
    return rc ? rc : frx__io_mkdirs(dir);
}

int frx_check_parent_folder(const char *path)
{
    char dir[4096];
    int rc = frx__io_parent_of(path, dir, sizeof dir);
    for (struct stat st; !rc;) {
        if (stat(dir, &st) == 0) {
            if (!S_ISDIR(st.st_mode))
                return frx_error(FRX_EIO, "cannot write %s: %s is a file, "
                                 "not a folder", path, dir);
            if (access(dir, W_OK | X_OK) != 0)
                return frx_error(FRX_EIO, "cannot write %s: folder %s: %s",
                                 path, dir, strerror(errno));
            return FRX_OK;
        }
        if ((errno != ENOENT && errno != ENOTDIR) || !strcmp(dir, ".") ||
            !strcmp(dir, "/"))
            return frx_error(FRX_EIO, "cannot write %s: %s: %s", path, dir,
                             strerror(errno));
        /* up one, to what exists */
        rc = frx__io_parent_of(dir, dir, sizeof dir);
    }
    return rc;
}

int frx__io_mkdirs(const char *dir)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        return frx_error(FRX_EINVAL, "folder name too long: %s", dir);
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p)
            continue;
        char c = *p;
        *p = '\0';
        struct stat st;
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return frx_error(FRX_EIO, "cannot create folder %s: %s", buf,
                             strerror(errno));
        if (stat(buf, &st) != 0)
            return frx_error(FRX_EIO, "cannot create folder %s: %s", buf,
                             strerror(errno));
        if (!S_ISDIR(st.st_mode))
            return frx_error(FRX_EIO, "cannot create folder %s: a file of "
                             "that name is in the way", buf);
        if (!c)
            return FRX_OK;
        *p = c;
    }
}

static int sync_path(const char *path, int flags)
{
    int fd = open(path, flags);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    /* some file systems cannot sync a folder: that is not a failure */
    if (rc != 0 && (flags & O_DIRECTORY) && (errno == EINVAL ||
                                             errno == EROFS))
        rc = 0;
    close(fd);
    return rc;
}

int frx__io_rename(const char *tmp, const char *path)
{
    if (sync_path(tmp, O_RDONLY) != 0)
        return frx_error(FRX_EIO, "cannot flush %s to disk: %s", tmp,
                         strerror(errno));
    if (rename(tmp, path) != 0)
        return frx_error(FRX_EIO, "cannot rename %s to %s: %s", tmp, path,
                         strerror(errno));
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    if (sync_path(dirname(dir), O_RDONLY | O_DIRECTORY) != 0)
        return frx_error(FRX_EIO, "cannot flush folder of %s to disk: %s",
                         path, strerror(errno));
    return FRX_OK;
}

int frx__io_commit(FILE *fp, int werr, const char *tmp, const char *path)
{
    int err = werr ? werr : ferror(fp) ? EIO : 0;
    if (fclose(fp) != 0 && !err)
        err = errno;
    int rc = err ? frx_error(FRX_EIO, "cannot write %s: %s", path,
                             strerror(err))
                 : frx__io_rename(tmp, path);
    if (rc)
        remove(tmp);
    return rc;
}

const struct frx__io_etype *frx__io_etype(int etype)
{
    /* VTK cell types: vtkCellType.h */
    static const struct frx__io_etype types[] = {
        [FRX_ETYPE_TRI] = {"tri", 2, 3, 5, 69},
        [FRX_ETYPE_QUAD] = {"quad", 2, 4, 9, 70},
        [FRX_ETYPE_TET] = {"tet", 3, 4, 10, 71},
        [FRX_ETYPE_HEX] = {"hex", 3, 8, 12, 72},
        [FRX_ETYPE_PRI] = {"pri", 3, 6, 13, 73},
        /* no Lagrange pyramid before VTK 9.2: linear pieces (vtk.c) */
        [FRX_ETYPE_PYR] = {"pyr", 3, 5, 14, 0},
    };
    if (etype < FRX_ETYPE_TRI || etype > FRX__ETYPE_LAST)
        return NULL;
    return &types[etype];
}

const char *frx__io_var(const struct frx__io_fields *f, size_t v)
{
    const char *p = (const char *)f->vars + v * f->var_size;
    return ((const frx_solver_var *)p)->name;
}

int frx__io_check(const struct frx__io_fields *f, const char *what)
{
    if (!f || (f->fpsize != 4 && f->fpsize != 8))
        return frx_error(FRX_EINVAL, "%s: no fields, or an fpsize of %zu "
                         "(4 or 8)", what, f ? f->fpsize : 0);
    if (!f->nvars || !f->vars || f->var_size < sizeof(frx_solver_var))
        return frx_error(FRX_EINVAL, "%s: no variables", what);
    for (size_t v = 0; v < f->nvars; v++)
        if (!frx__io_var(f, v) || !*frx__io_var(f, v))
            return frx_error(FRX_EINVAL, "%s: variable %zu has no name",
                             what, v);
    if (f->nblocks && !f->blocks)
        return frx_error(FRX_EINVAL, "%s: no blocks", what);
    for (size_t i = 0; i < f->nblocks; i++) {
        const struct frx__io_block *b = &f->blocks[i];
        const struct frx__io_etype *et = frx__io_etype(b->etype);
        if (!et)
            return frx_error(FRX_EINVAL, "%s: block %zu has unknown "
                             "element type %d", what, i, b->etype);
        if (et->ndims != f->ndims)
            return frx_error(FRX_EINVAL, "%s: block %zu has %s elements in "
                             "a %d-D mesh", what, i, et->name, f->ndims);
        for (size_t j = 0; j < i; j++)
            if (f->blocks[j].etype == b->etype)
                return frx_error(FRX_EINVAL, "%s: blocks %zu and %zu are "
                                 "both of %s elements", what, j, i,
                                 et->name);
        if (!b->sb || b->sb->size < offsetof(frx_solver_block, qweights))
            return frx_error(FRX_EINVAL, "%s: block %zu has no solver "
                             "block", what, i);
        if (b->sb->neles && (!b->sb->nupts || !b->gid || !b->u))
            return frx_error(FRX_EINVAL, "%s: block %zu has elements but "
                             "no points, gids or u", what, i);
    }
    return FRX_OK;
}
