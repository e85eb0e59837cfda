/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: partitioned mesh files (io-impl.h), format_version 1. Every part
 * of one partition of a mesh, so that each rank of a job reads its own
 * part and nothing else:
 *
 *   /            attributes: format ("frx partitioned mesh"),
 *                format_version, frx_version, nparts, ndims, neles,
 *                mesh_id, method, source, weights[nparts], nbcs,
 *                nperiodic, boundaries[nbcs] and periodic[nperiodic]
 *                (names, where there are any), shifts[nperiodic * 3]
 *   /parts       u64 [nparts][9]   neles, nblocks, block0, nifaces,
 *                                  iface0, npeers, peer0, nbfaces, bface0
 *   /blocks      u64 [][7]         etype, order, neles, nshape, nfaces,
 *                                  ele0, shape0
 *   /gid         u64 []            global element numbers
 *   /shape       f64 []            shape points, [neles][nshape][ndims]
 *   /ifaces      u32 [][9]         l (blk, ele, face, rot), r (the
 *                                  same), periodic (int32's bits)
 *   /peers       u64 [][3]         rank, nfaces, face0
 *   /peer_faces  u32 [][6]         blk, ele, face, rot, periodic, canon
 *                                  (1: this side is the face's side 0)
 *   /bc_counts   u64 [nparts * nbcs]
 *   /bc_faces    u32 [][4]         blk, ele, face, rot
 *
 * A part's rows of every table follow the previous part's, and within a
 * part a block's elements (gid, shape) and a peer's faces follow the
 * previous block's or peer's, so a rank reads each table in one range:
 * a handful of reads, whatever the number of parts. */
#include "io/h5.h"
#include "io/io-util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FORMAT "frx partitioned mesh"
#define FORMAT_VERSION 1
#define KIND "partitioned mesh file"

enum { T_PARTS, T_BLOCKS, T_GID, T_SHAPE, T_IFACES, T_PEERS, T_PFACES,
       T_BCOUNTS, T_BFACES, NTABLES };

static const struct table {
    const char *name;
    int is_u32, is_f64;
    size_t ncols;
} tables[NTABLES] = {
    {"parts", 0, 0, 9},    {"blocks", 0, 0, 7},     {"gid", 0, 0, 1},
    {"shape", 0, 1, 1},    {"ifaces", 1, 0, 9},     {"peers", 0, 0, 3},
    {"peer_faces", 1, 0, 6}, {"bc_counts", 0, 0, 1}, {"bc_faces", 1, 0, 4},
};

static hid_t mem_type(const struct table *t)
{
    return t->is_f64 ? H5T_NATIVE_DOUBLE
                     : t->is_u32 ? H5T_NATIVE_UINT32 : H5T_NATIVE_UINT64;
}

static hid_t file_type(const struct table *t)
{
    return t->is_f64 ? H5T_IEEE_F64LE
                     : t->is_u32 ? H5T_STD_U32LE : H5T_STD_U64LE;
}

void frx__mpart_free(struct frx__mpart *p)
{
    if (!p)
        return;
    for (size_t i = 0; p->blocks && i < p->info.nblocks; i++) {
        free(p->blocks[i].shape);
        free(p->blocks[i].gid);
    }
    free(p->blocks);
    free(p->ifaces);
    for (size_t i = 0; p->peers && i < p->info.npeers; i++) {
        free(p->peers[i].faces);
        free(p->peers[i].periodic);
        free(p->peers[i].canon);
    }
    free(p->peers);
    for (size_t i = 0; p->bcs && i < p->info.nbcs; i++) {
        free(p->bcs[i].name);
        free(p->bcs[i].faces);
    }
    free(p->bcs);
    for (size_t i = 0; p->pers && i < p->info.nperiodic; i++)
        free(p->pers[i].name);
    free(p->pers);
    memset(p, 0, sizeof *p);
}

void frx__pmesh_head_free(struct frx__pmesh_head *h)
{
    if (h) {
        free(h->weights);
        h->weights = NULL;
    }
}

static void face_put(uint32_t *row, frx_face f)
{
    row[0] = f.blk;
    row[1] = f.ele;
    row[2] = f.face;
    row[3] = f.rot;
}

static frx_face face_get(const uint32_t *row)
{
    frx_face f = {.blk = row[0], .ele = row[1], .face = (uint16_t)row[2],
                  .rot = (uint16_t)row[3]};
    return f;
}

/* -------------------------------------------------------------- write */

struct writer {
    struct frx__h5 c;
    hid_t ds[NTABLES];
    uint64_t rows[NTABLES];
};

/* Rows of a chunk of table i: about what the mesh needs (a small mesh
 * makes a small file), at most 1 MB. */
static hsize_t chunk_rows(int i, const struct frx__pmesh_head *h)
{
    const struct table *t = &tables[i];
    hsize_t np = (hsize_t)h->nparts, ne = h->neles, est = ne;
    if (i == T_PARTS || i == T_BLOCKS || i == T_PEERS || i == T_BCOUNTS)
        est = 4 * np;
    else if (i == T_SHAPE)
        est = 4 * (hsize_t)h->ndims * ne;
    else if (i == T_IFACES)
        est = 2 * ne;
    else if (i == T_PFACES || i == T_BFACES)
        est = ne / 8;
    hsize_t most = (1 << 20) / (t->ncols * (t->is_u32 ? 4 : 8));
    return est < 16 ? 16 : est > most ? most : est;
}

static int make_tables(struct writer *w, hid_t file,
                       const struct frx__pmesh_head *h)
{
    for (int i = 0; i < NTABLES && !w->c.rc; i++) {
        const struct table *t = &tables[i];
        int nd = t->ncols > 1 ? 2 : 1;
        hsize_t rows = chunk_rows(i, h);
        hsize_t dims[2] = {0, t->ncols}, max[2] = {H5S_UNLIMITED, t->ncols};
        hsize_t chunk[2] = {rows, t->ncols};
        hid_t sp = H5Screate_simple(nd, dims, max), pl = -1;
        if (frx__h5_ok(&w->c, sp, "make a dataspace in"))
            pl = H5Pcreate(H5P_DATASET_CREATE);
        if (frx__h5_ok(&w->c, pl, "make a property list for"))
            frx__h5_ok(&w->c, H5Pset_chunk(pl, nd, chunk), "chunk a table of");
        if (!w->c.rc)
            w->ds[i] = H5Dcreate2(file, t->name, file_type(t), sp,
                                  H5P_DEFAULT, pl, H5P_DEFAULT);
        frx__h5_ok(&w->c, w->ds[i], "add a table to");
        frx__h5_close(pl, H5Pclose);
        frx__h5_close(sp, H5Sclose);
    }
    return w->c.rc;
}

/* Rows [row0, row0 + n) of table i's dataset ds, this rank alone. */
static int table_rows(struct frx__h5 *c, hid_t ds, int i, int write,
                      uint64_t row0, size_t n, void *buf)
{
    const struct table *t = &tables[i];
    int nd = t->ncols > 1 ? 2 : 1;
    hsize_t start[2] = {row0, 0}, count[2] = {n, t->ncols};
    hid_t fs = c->rc ? -1 : H5Dget_space(ds), ms = -1;
    if (frx__h5_ok(c, fs, "read the shape of a table of"))
        frx__h5_ok(c, H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL,
                                          count, NULL),
                   "select rows of");
    if (!c->rc)
        ms = H5Screate_simple(nd, count, NULL);
    if (frx__h5_ok(c, ms, "make a dataspace for"))
        frx__h5_ok(c, write ? H5Dwrite(ds, mem_type(t), ms, fs, H5P_DEFAULT,
                                       buf)
                            : H5Dread(ds, mem_type(t), ms, fs, H5P_DEFAULT,
                                      buf),
                   write ? "write" : "read");
    frx__h5_close(ms, H5Sclose);
    frx__h5_close(fs, H5Sclose);
    return c->rc;
}

/* n rows after table i's last. */
static int append(struct writer *w, int i, const void *buf, size_t n)
{
    if (!n || w->c.rc)
        return w->c.rc;
    hsize_t dims[2] = {w->rows[i] + n, tables[i].ncols};
    if (frx__h5_ok(&w->c, H5Dset_extent(w->ds[i], dims), "grow a table of"))
        table_rows(&w->c, w->ds[i], i, 1, w->rows[i], n, (void *)buf);
    w->rows[i] += n;
    return w->c.rc;
}

static uint32_t *rows_u32(struct writer *w, size_t n, size_t ncols)
{
    uint32_t *r = calloc(n ? n * ncols : 1, sizeof *r);
    if (!r)
        w->c.rc = frx_error(FRX_ENOMEM, "out of memory writing %s",
                            w->c.path);
    return r;
}

/* Table i's rows for items [0, n) of a u32 table, filled by put and
 * written SLICE_ROWS at a time: the rows of a large part's faces never
 * sit in memory all at once beside the part. */
#define SLICE_ROWS 65536

static int append_rows(struct writer *w, int i, size_t n,
                       void (*put)(const void *arg, size_t k, uint32_t *row),
                       const void *arg)
{
    size_t nc = tables[i].ncols, m = n < SLICE_ROWS ? n : SLICE_ROWS;
    uint32_t *r = n && !w->c.rc ? rows_u32(w, m, nc) : NULL;
    for (size_t k0 = 0; r && k0 < n && !w->c.rc; k0 += m) {
        size_t k1 = n - k0 < m ? n : k0 + m;
        for (size_t k = k0; k < k1; k++)
            put(arg, k, r + nc * (k - k0));
        append(w, i, r, k1 - k0);
    }
    free(r);
    return w->c.rc;
}

static void iface_row(const void *arg, size_t k, uint32_t *row)
{
    const struct frx__mpart *p = arg;
    face_put(row, p->ifaces[k].l);
    face_put(row + 4, p->ifaces[k].r);
    row[8] = (uint32_t)p->ifaces[k].periodic;
}

static void peer_row(const void *arg, size_t k, uint32_t *row)
{
    const struct frx__mpart_peer *P = arg;
    face_put(row, P->faces[k]);
    row[4] = (uint32_t)P->periodic[k];
    row[5] = P->canon[k];
}

static void bc_row(const void *arg, size_t k, uint32_t *row)
{
    const struct frx__mpart_bc *B = arg;
    face_put(row, B->faces[k]);
}

static int write_faces(struct writer *w, const struct frx__mpart *p)
{
    append_rows(w, T_IFACES, p->info.nifaces, iface_row, p);
    for (size_t j = 0; j < p->info.npeers && !w->c.rc; j++) {
        const struct frx__mpart_peer *P = &p->peers[j];
        uint64_t row[3] = {(uint64_t)P->rank, P->n, w->rows[T_PFACES]};
        append(w, T_PEERS, row, 1);
        append_rows(w, T_PFACES, P->n, peer_row, P);
    }
    for (size_t b = 0; b < p->info.nbcs && !w->c.rc; b++) {
        const struct frx__mpart_bc *B = &p->bcs[b];
        uint64_t count = B->n;
        append(w, T_BCOUNTS, &count, 1);
        append_rows(w, T_BFACES, B->n, bc_row, B);
    }
    return w->c.rc;
}

static int write_part(struct writer *w, const struct frx__mpart *p, int d)
{
    uint64_t row[9] = {p->info.neles,          p->info.nblocks,
                       w->rows[T_BLOCKS],      p->info.nifaces,
                       w->rows[T_IFACES],      p->info.npeers,
                       w->rows[T_PEERS],       0,
                       w->rows[T_BFACES]};
    for (size_t b = 0; b < p->info.nbcs; b++)
        row[7] += p->bcs[b].n;
    append(w, T_PARTS, row, 1);
    for (size_t b = 0; b < p->info.nblocks && !w->c.rc; b++) {
        const struct frx__mpart_block *B = &p->blocks[b];
        uint64_t brow[7] = {(uint64_t)B->etype, (uint64_t)B->order, B->neles,
                            B->nshape, B->nfaces, w->rows[T_GID],
                            w->rows[T_SHAPE]};
        append(w, T_BLOCKS, brow, 1);
        append(w, T_GID, B->gid, B->neles);
        append(w, T_SHAPE, B->shape, B->neles * B->nshape * (size_t)d);
    }
    return write_faces(w, p);
}

/* The names and shifts every part shares, from part 0. */
static int write_names(struct writer *w, hid_t file,
                       const struct frx__mpart *p)
{
    size_t nb = p->info.nbcs, np = p->info.nperiodic, width = 1;
    int ib = (int)nb, ip = (int)np;
    for (size_t i = 0; i < nb; i++)
        if (strlen(p->bcs[i].name) + 1 > width)
            width = strlen(p->bcs[i].name) + 1;
    for (size_t i = 0; i < np; i++)
        if (strlen(p->pers[i].name) + 1 > width)
            width = strlen(p->pers[i].name) + 1;
    char *names = calloc((nb > np ? nb : np) + 1, width);
    double *shifts = calloc(3 * np + 1, sizeof *shifts);
    if (!names || !shifts)
        w->c.rc = frx_error(FRX_ENOMEM, "out of memory writing %s",
                            w->c.path);
    frx__h5_attr_put(&w->c, file, "nbcs", H5T_STD_I32LE, H5T_NATIVE_INT, 1,
                     &ib);
    frx__h5_attr_put(&w->c, file, "nperiodic", H5T_STD_I32LE,
                     H5T_NATIVE_INT, 1, &ip);
    for (size_t i = 0; !w->c.rc && i < nb; i++)
        memcpy(names + i * width, p->bcs[i].name, strlen(p->bcs[i].name));
    if (!w->c.rc && nb)
        frx__h5_attr_put_strs(&w->c, file, "boundaries", nb, width, names);
    if (!w->c.rc && np) {
        memset(names, 0, np * width);
        for (size_t i = 0; i < np; i++) {
            memcpy(names + i * width, p->pers[i].name,
                   strlen(p->pers[i].name));
            memcpy(shifts + 3 * i, p->pers[i].shift, 3 * sizeof *shifts);
        }
        frx__h5_attr_put_strs(&w->c, file, "periodic", np, width, names);
        frx__h5_attr_put(&w->c, file, "shifts", H5T_IEEE_F64LE,
                         H5T_NATIVE_DOUBLE, 3 * np, shifts);
    }
    free(names);
    free(shifts);
    return w->c.rc;
}

static int write_head(struct writer *w, hid_t file,
                      const struct frx__pmesh_head *h)
{
    int version = FORMAT_VERSION;
    hid_t i32 = H5T_STD_I32LE, ni = H5T_NATIVE_INT;
    struct frx__h5 *c = &w->c;
    if (!frx__h5_attr_put_str(c, file, "format", FORMAT) &&
        !frx__h5_attr_put(c, file, "format_version", i32, ni, 1, &version) &&
        !frx__h5_attr_put_str(c, file, "frx_version", FRX_VERSION) &&
        !frx__h5_attr_put(c, file, "nparts", i32, ni, 1, &h->nparts) &&
        !frx__h5_attr_put(c, file, "ndims", i32, ni, 1, &h->ndims) &&
        !frx__h5_attr_put(c, file, "neles", H5T_STD_U64LE, H5T_NATIVE_UINT64,
                          1, &h->neles) &&
        !frx__h5_attr_put_str(c, file, "mesh_id", h->id) &&
        !frx__h5_attr_put_str(c, file, "method", h->method) &&
        !frx__h5_attr_put_str(c, file, "source", h->source))
        frx__h5_attr_put(c, file, "weights", H5T_IEEE_F64LE,
                         H5T_NATIVE_DOUBLE, (size_t)h->nparts, h->weights);
    return c->rc;
}

int frx__pmesh_write(const char *path, const struct frx__pmesh_head *h,
                     int (*part)(void *arg, int r, struct frx__mpart *p),
                     void (*say)(void *arg, int r), void *arg)
{
    if (!path || !h || !part || h->nparts < 1 || !h->weights)
        return frx_error(FRX_EINVAL, "frx__pmesh_write: bad argument");
    char tmp[4200];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp)
        return frx_error(FRX_EINVAL, "%s: the path is too long", path);
    struct writer w = {.c = {MPI_COMM_SELF, path, FRX_OK, KIND}};
    for (int i = 0; i < NTABLES; i++)
        w.ds[i] = -1;
    struct frx__h5_quiet q = frx__h5_hush();
    errno = 0;
    hid_t file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0 && errno)
        w.c.rc = frx_error(FRX_EIO, "cannot write %s: %s", tmp,
                           strerror(errno));
    else
        frx__h5_ok(&w.c, file, "write");
    if (!w.c.rc)
        write_head(&w, file, h);
    if (!w.c.rc)
        make_tables(&w, file, h);
    for (int r = 0; r < h->nparts && !w.c.rc; r++) {
        struct frx__mpart p = {0};
        if (say)
            say(arg, r);
        w.c.rc = part(arg, r, &p);
        if (!w.c.rc && r == 0)
            write_names(&w, file, &p);
        if (!w.c.rc)
            write_part(&w, &p, h->ndims);
        frx__mpart_free(&p);
    }
    for (int i = 0; i < NTABLES; i++)
        frx__h5_close(w.ds[i], H5Dclose);
    if (file >= 0)
        frx__h5_ok(&w.c, H5Fclose(file), "close");
    frx__h5_unhush(q);
    if (!w.c.rc)
        w.c.rc = frx__io_rename(tmp, path);
    if (w.c.rc)
        unlink(tmp);
    return w.c.rc;
}

/* --------------------------------------------------------------- read */

struct frx__pmesh {
    struct frx__h5 c;
    char path[4096];
    hid_t file, fapl, ds[NTABLES];
    uint64_t nrows[NTABLES];
    int nbcs, npers;
    struct frx__pmesh_head head;
    struct frx__h5_quiet quiet;
};

static int damaged(struct frx__pmesh *rd, const char *what)
{
    if (!rd->c.rc)
        rd->c.rc = frx_error(FRX_EIO, "%s %s is damaged: %s (write it "
                             "again with frx mesh partition)", KIND,
                             rd->c.path, what);
    return rd->c.rc;
}

/* rows [row0, row0 + n) of table i, this rank alone. */
static int read_rows(struct frx__pmesh *rd, int i, uint64_t row0, uint64_t n,
                     void *buf)
{
    const struct table *t = &tables[i];
    if (rd->c.rc || !n)
        return rd->c.rc;
    if (row0 > rd->nrows[i] || n > rd->nrows[i] - row0) {
        char what[160];
        snprintf(what, sizeof what, "rows %llu to %llu of its table '%s', "
                 "which has %llu", (unsigned long long)row0,
                 (unsigned long long)(row0 + n - 1), t->name,
                 (unsigned long long)rd->nrows[i]);
        return damaged(rd, what);
    }
    return table_rows(&rd->c, rd->ds[i], i, 0, row0, n, buf);
}

static void *alloc(struct frx__pmesh *rd, size_t n, size_t size)
{
    void *p = rd->c.rc ? NULL : calloc(n ? n : 1, size);
    if (!p && !rd->c.rc)
        rd->c.rc = frx_error(FRX_ENOMEM, "out of memory reading %s",
                             rd->c.path);
    return p;
}

static int open_tables(struct frx__pmesh *rd)
{
    for (int i = 0; i < NTABLES && !rd->c.rc; i++) {
        const struct table *t = &tables[i];
        htri_t has = H5Lexists(rd->file, t->name, H5P_DEFAULT);
        if (!frx__h5_ok(&rd->c, has, "read") || !has) {
            frx__h5_not_ours(&rd->c, t->name);
            break;
        }
        rd->ds[i] = H5Dopen2(rd->file, t->name, H5P_DEFAULT);
        hid_t sp = -1;
        if (frx__h5_ok(&rd->c, rd->ds[i], "open a table of"))
            sp = H5Dget_space(rd->ds[i]);
        hsize_t dims[2] = {0, 1};
        int nd = -1;
        if (frx__h5_ok(&rd->c, sp, "read the shape of a table of"))
            nd = H5Sget_simple_extent_dims(sp, dims, NULL);
        frx__h5_close(sp, H5Sclose);
        if (frx__h5_ok(&rd->c, nd, "read the shape of a table of") &&
            (nd != (t->ncols > 1 ? 2 : 1) || dims[1] != t->ncols))
            damaged(rd, t->name);
        rd->nrows[i] = dims[0];
    }
    return rd->c.rc;
}

static int read_head(struct frx__pmesh *rd, struct frx__pmesh_head *h)
{
    struct frx__h5 *c = &rd->c;
    char format[64] = "";
    int version = 0;
    if (frx__h5_attr_get_str(c, rd->file, "format", format, sizeof format))
        return c->rc;
    if (strcmp(format, FORMAT))
        return frx__h5_not_ours(c, "format \"" FORMAT "\"");
    if (frx__h5_attr_get(c, rd->file, "format_version", H5T_NATIVE_INT, 1,
                         &version))
        return c->rc;
    if (version != FORMAT_VERSION)
        return c->rc = frx_error(FRX_ECONFIG, "%s %s is of format version "
                                 "%d; this frx reads version %d: partition "
                                 "the mesh again with this frx", KIND,
                                 c->path, version, FORMAT_VERSION);
    hid_t ni = H5T_NATIVE_INT;
    if (frx__h5_attr_get(c, rd->file, "nparts", ni, 1, &h->nparts) ||
        frx__h5_attr_get(c, rd->file, "ndims", ni, 1, &h->ndims) ||
        frx__h5_attr_get(c, rd->file, "neles", H5T_NATIVE_UINT64, 1,
                         &h->neles) ||
        frx__h5_attr_get_str(c, rd->file, "mesh_id", h->id, sizeof h->id) ||
        frx__h5_attr_get_str(c, rd->file, "method", h->method,
                             sizeof h->method) ||
        frx__h5_attr_get_str(c, rd->file, "source", h->source,
                             sizeof h->source) ||
        frx__h5_attr_get(c, rd->file, "nbcs", ni, 1, &rd->nbcs) ||
        frx__h5_attr_get(c, rd->file, "nperiodic", ni, 1, &rd->npers))
        return c->rc;
    if (h->nparts < 1 || h->nparts > 1 << 24 || h->ndims < 2 ||
        h->ndims > 3 || rd->nbcs < 0 || rd->npers < 0 ||
        rd->nbcs > 1 << 20 || rd->npers > 1 << 20)
        return damaged(rd, "its counts are out of range");
    h->weights = alloc(rd, (size_t)h->nparts, sizeof *h->weights);
    if (!c->rc)
        frx__h5_attr_get(c, rd->file, "weights", H5T_NATIVE_DOUBLE,
                         (size_t)h->nparts, h->weights);
    return c->rc;
}

/* Names of n boundaries or periodic pairs, each malloc'd into names[i]
 * (the first member of each struct, so one loop serves both). */
static int read_names(struct frx__pmesh *rd, const char *attr, size_t n,
                      char **first, size_t stride)
{
    size_t got = n, width = 0;
    char *all = NULL;
    if (!n || frx__h5_attr_get_strs(&rd->c, rd->file, attr, &got, &width,
                                    &all))
        return rd->c.rc;
    for (size_t i = 0; i < n && !rd->c.rc; i++) {
        char **slot = (char **)((char *)first + i * stride);
        *slot = alloc(rd, width, 1);
        if (*slot)
            memcpy(*slot, all + i * width, width);
    }
    free(all);
    return rd->c.rc;
}

static int read_blocks(struct frx__pmesh *rd, struct frx__mpart *p,
                       const uint64_t *row, int d)
{
    size_t nb = row[1];
    uint64_t *brows = alloc(rd, nb, 7 * sizeof *brows);
    p->blocks = alloc(rd, nb, sizeof *p->blocks);
    read_rows(rd, T_BLOCKS, row[2], nb, brows);
    if (rd->c.rc) {
        free(brows);
        return rd->c.rc;
    }
    p->info.nblocks = nb;
    uint64_t ne = 0, ns = 0, ele0 = nb ? brows[5] : 0,
             shape0 = nb ? brows[6] : 0;
    for (size_t b = 0; b < nb && !rd->c.rc; b++) {
        const uint64_t *r = brows + 7 * b;
        struct frx__mpart_block *B = &p->blocks[b];
        if (r[5] != ele0 + ne || r[6] != shape0 + ns || r[0] > 64 ||
            r[1] > 64 || r[3] > 4096 || r[4] > 64 || r[2] > row[0]) {
            damaged(rd, "a block's rows do not follow the previous block's");
            break;
        }
        B->etype = (int)r[0];
        B->order = (int)r[1];
        B->neles = r[2];
        B->nshape = r[3];
        B->nfaces = r[4];
        ne += r[2];
        ns += r[2] * r[3] * (uint64_t)d;
    }
    if (!rd->c.rc && ne != row[0])
        damaged(rd, "its blocks' element counts do not add up to the "
                    "part's");
    uint64_t *gid = alloc(rd, ne, sizeof *gid);
    double *shape = alloc(rd, ns, sizeof *shape);
    read_rows(rd, T_GID, ele0, ne, gid);
    read_rows(rd, T_SHAPE, shape0, ns, shape);
    for (size_t b = 0, e = 0, s = 0; b < nb && !rd->c.rc; b++) {
        struct frx__mpart_block *B = &p->blocks[b];
        size_t nsb = B->neles * B->nshape * (size_t)d;
        B->gid = alloc(rd, B->neles, sizeof *B->gid);
        B->shape = alloc(rd, nsb, sizeof *B->shape);
        if (rd->c.rc)
            break;
        memcpy(B->gid, gid + e, B->neles * sizeof *gid);
        memcpy(B->shape, shape + s, nsb * sizeof *shape);
        e += B->neles;
        s += nsb;
    }
    free(gid);
    free(shape);
    free(brows);
    p->info.neles = ne;
    return rd->c.rc;
}

static int read_ifaces(struct frx__pmesh *rd, struct frx__mpart *p,
                       const uint64_t *row)
{
    uint32_t *r = alloc(rd, row[3], 9 * sizeof *r);
    p->ifaces = alloc(rd, row[3], sizeof *p->ifaces);
    read_rows(rd, T_IFACES, row[4], row[3], r);
    for (size_t i = 0; !rd->c.rc && i < row[3]; i++) {
        p->ifaces[i].l = face_get(r + 9 * i);
        p->ifaces[i].r = face_get(r + 9 * i + 4);
        p->ifaces[i].periodic = (int32_t)r[9 * i + 8];
    }
    if (!rd->c.rc)
        p->info.nifaces = row[3];
    free(r);
    return rd->c.rc;
}

static int read_peers(struct frx__pmesh *rd, struct frx__mpart *p,
                      const uint64_t *row)
{
    size_t np = row[5];
    uint64_t *prow = alloc(rd, np, 3 * sizeof *prow);
    p->peers = alloc(rd, np, sizeof *p->peers);
    read_rows(rd, T_PEERS, row[6], np, prow);
    if (!rd->c.rc)
        p->info.npeers = np;
    uint64_t nf = 0, f0 = np && prow ? prow[2] : 0;
    for (size_t j = 0; j < np && !rd->c.rc; j++) {
        if (prow[3 * j + 2] != f0 + nf || prow[3 * j] > INT32_MAX)
            damaged(rd, "a peer's faces do not follow the previous peer's");
        nf += prow[3 * j + 1];
    }
    uint32_t *r = alloc(rd, nf, 6 * sizeof *r);
    read_rows(rd, T_PFACES, f0, nf, r);
    for (size_t j = 0, k = 0; j < np && !rd->c.rc; j++) {
        struct frx__mpart_peer *P = &p->peers[j];
        P->rank = (int)prow[3 * j];
        P->n = prow[3 * j + 1];
        P->faces = alloc(rd, P->n, sizeof *P->faces);
        P->periodic = alloc(rd, P->n, sizeof *P->periodic);
        P->canon = alloc(rd, P->n, sizeof *P->canon);
        for (size_t i = 0; !rd->c.rc && i < P->n; i++, k++) {
            P->faces[i] = face_get(r + 6 * k);
            P->periodic[i] = (int32_t)r[6 * k + 4];
            P->canon[i] = r[6 * k + 5] != 0;
        }
    }
    free(r);
    free(prow);
    return rd->c.rc;
}

static int read_bcs(struct frx__pmesh *rd, struct frx__mpart *p,
                    const uint64_t *row, int rank)
{
    size_t nb = (size_t)rd->nbcs;
    uint64_t *count = alloc(rd, nb, sizeof *count), total = 0;
    p->bcs = alloc(rd, nb, sizeof *p->bcs);
    if (!rd->c.rc)
        p->info.nbcs = nb;
    if (p->bcs)
        read_names(rd, "boundaries", nb, &p->bcs[0].name, sizeof *p->bcs);
    read_rows(rd, T_BCOUNTS, (uint64_t)rank * nb, nb, count);
    for (size_t b = 0; b < nb && !rd->c.rc; b++)
        total += count[b];
    if (!rd->c.rc && total != row[7])
        damaged(rd, "its boundary face counts do not add up to the part's");
    uint32_t *r = alloc(rd, total, 4 * sizeof *r);
    read_rows(rd, T_BFACES, row[8], total, r);
    for (size_t b = 0, k = 0; b < nb && !rd->c.rc; b++) {
        struct frx__mpart_bc *B = &p->bcs[b];
        B->n = count[b];
        B->faces = alloc(rd, B->n, sizeof *B->faces);
        for (size_t i = 0; !rd->c.rc && i < B->n; i++, k++)
            B->faces[i] = face_get(r + 4 * k);
    }
    free(r);
    free(count);
    return rd->c.rc;
}

static int read_pers(struct frx__pmesh *rd, struct frx__mpart *p)
{
    size_t np = (size_t)rd->npers;
    double *s = alloc(rd, 3 * np, sizeof *s);
    p->pers = alloc(rd, np, sizeof *p->pers);
    if (!rd->c.rc)
        p->info.nperiodic = np;
    if (p->pers)
        read_names(rd, "periodic", np, &p->pers[0].name, sizeof *p->pers);
    if (np && !rd->c.rc)
        frx__h5_attr_get(&rd->c, rd->file, "shifts", H5T_NATIVE_DOUBLE,
                         3 * np, s);
    for (size_t i = 0; i < np && !rd->c.rc; i++)
        memcpy(p->pers[i].shift, s + 3 * i, sizeof p->pers[i].shift);
    free(s);
    return rd->c.rc;
}

int frx__pmesh_read_part(struct frx__pmesh *rd, int r,
                         struct frx__mpart *p)
{
    uint64_t row[9];
    const struct frx__pmesh_head *h = &rd->head;
    memset(p, 0, sizeof *p);
    if (r < 0 || r >= h->nparts)
        return frx_error(FRX_EINVAL, "%s %s has no part %d", KIND,
                         rd->c.path, r);
    if (read_rows(rd, T_PARTS, (uint64_t)r, 1, row))
        return rd->c.rc;
    p->info.ndims = h->ndims;
    p->info.neles_global = h->neles;
    p->info.rank = r;
    p->info.nranks = h->nparts;
    memcpy(p->info.id, h->id, sizeof p->info.id);
    if (!read_blocks(rd, p, row, h->ndims) && !read_ifaces(rd, p, row) &&
        !read_peers(rd, p, row) && !read_bcs(rd, p, row, r))
        read_pers(rd, p);
    p->info.size = sizeof p->info;
    if (rd->c.rc)
        frx__mpart_free(p);
    return rd->c.rc;
}

int frx__pmesh_open(MPI_Comm comm, const char *path,
                    struct frx__pmesh **out)
{
    *out = NULL;
    int rc = FRX_OK;
    if (access(path, R_OK) != 0)
        rc = frx_error(FRX_EIO, "cannot open the %s %s: %s on this rank "
                       "(every rank must see the file: a shared folder)",
                       KIND, path, strerror(errno));
    struct frx__pmesh *rd = rc ? NULL : calloc(1, sizeof *rd);
    if (!rc && !rd)
        rc = frx_error(FRX_ENOMEM, "out of memory opening %s", path);
    if ((rc = frx__io_agree(comm, rc))) {
        free(rd);
        return rc;
    }
    rd->c = (struct frx__h5){comm, rd->path, FRX_OK, KIND};
    snprintf(rd->path, sizeof rd->path, "%s", path);
    rd->file = rd->fapl = -1;
    for (int i = 0; i < NTABLES; i++)
        rd->ds[i] = -1;
    rd->quiet = frx__h5_hush();
    rd->fapl = frx__h5_mpio_fapl(&rd->c);
    if (!rd->c.rc)
        rd->file = H5Fopen(path, H5F_ACC_RDONLY, rd->fapl);
    if (rd->file < 0 && !rd->c.rc)
        rd->c.rc = frx_error(FRX_EIO, "cannot open the %s %s: not an HDF5 "
                             "file", KIND, path);
    if (!rd->c.rc && !read_head(rd, &rd->head))
        open_tables(rd);
    /* from here each rank reads alone (independent I/O): no collective
     * call but the close, which every rank that opened the file makes */
    rc = frx__io_agree(comm, rd->c.rc);
    if (rc) {
        frx__pmesh_close(rd, rc);
        return rc;
    }
    *out = rd;
    return FRX_OK;
}

const struct frx__pmesh_head *frx__pmesh_head(const struct frx__pmesh *f)
{
    return &f->head;
}

int frx__pmesh_close(struct frx__pmesh *rd, int rc)
{
    if (!rd)
        return rc;
    MPI_Comm comm = rd->c.comm;
    for (int i = 0; i < NTABLES; i++)
        frx__h5_close(rd->ds[i], H5Dclose);
    if (rd->file >= 0)
        H5Fclose(rd->file);
    frx__h5_close(rd->fapl, H5Pclose);
    frx__h5_unhush(rd->quiet);
    frx__pmesh_head_free(&rd->head);
    free(rd);
    return frx__io_agree(comm, rc);
}
