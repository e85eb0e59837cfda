/* SPDX-License-Identifier: BSD-3-Clause */
/* VTK output read back by a parser of its own: every DataArray's offset
 * and byte count against the appended section, the counts of points,
 * cells, connectivity, offsets and types, and the values against the
 * known functions of the coordinates they were made from; the .pvtu's
 * pieces and the .pvd's steps (a restart drops later steps); refusals.
 * Run under mpirun with any number of ranks:
 *
 *   test_vtk [KEEP_DIR]
 *
 * With KEEP_DIR the files stay there (for VTK's own reader). */
#include "io_mesh.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int rank, size, nfail, npass;

#include "mpicheck.h"

/* ------------------------------------------------------------ the parser */

struct darr {
    char section[16], type[16], name[64], format[16];
    size_t ncomp;
    uint64_t offset, nbytes;
    const unsigned char *data; /* after the byte count */
};

struct vtu {
    char *buf;
    size_t len;
    char type[32], byte_order[16], header_type[16], encoding[16];
    char version[16];
    uint64_t npts, ncells;
    int npieces;
    size_t narr;
    struct darr arr[32];
    size_t base, end; /* the appended data: after '_', up to its end */
};

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, fp) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(fp);
    if (b)
        b[n] = '\0';
    *len = (size_t)n;
    return b;
}

/* Attribute name of the tag at [p, end), unescaped, into out. */
static int attr(const char *p, const char *end, const char *name, char *out,
                size_t cap)
{
    char key[64];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *a = strstr(p, key);
    if (!a || a >= end)
        return 0;
    a += strlen(key);
    size_t n = 0;
    while (a < end && *a != '"' && n + 1 < cap) {
        static const char *ent[][2] = {{"&amp;", "&"}, {"&lt;", "<"},
                                       {"&gt;", ">"}, {"&quot;", "\""}};
        int hit = 0;
        for (int i = 0; i < 4 && !hit; i++)
            if (strncmp(a, ent[i][0], strlen(ent[i][0])) == 0) {
                out[n++] = ent[i][1][0];
                a += strlen(ent[i][0]);
                hit = 1;
            }
        if (!hit)
            out[n++] = *a++;
    }
    out[n] = '\0';
    return 1;
}

static uint64_t attr_u64(const char *p, const char *end, const char *name)
{
    char v[32] = "";
    attr(p, end, name, v, sizeof v);
    return strtoull(v, NULL, 10);
}

/* Tags up to the appended data, then the data's bounds. */
static int parse_vtu(const char *path, struct vtu *x)
{
    memset(x, 0, sizeof *x);
    x->buf = slurp(path, &x->len);
    if (!x->buf)
        return -1;
    const char *app = strstr(x->buf, "<AppendedData");
    if (!app)
        return -1;
    char section[16] = ""; /* FieldData, PointData, ...: short tags */
    for (const char *p = strchr(x->buf, '<'); p && p <= app;
         p = strchr(p + 1, '<')) {
        const char *end = strchr(p, '>');
        char tag[32] = "";
        sscanf(p + 1, "%31[A-Za-z/]", tag);
        if (!strcmp(tag, "FieldData") || !strcmp(tag, "PointData") ||
            !strcmp(tag, "CellData") || !strcmp(tag, "Points") ||
            !strcmp(tag, "Cells"))
            snprintf(section, sizeof section, "%.15s", tag);
        else if (!strcmp(tag, "VTKFile")) {
            attr(p, end, "type", x->type, sizeof x->type);
            attr(p, end, "version", x->version, sizeof x->version);
            attr(p, end, "byte_order", x->byte_order, sizeof x->byte_order);
            attr(p, end, "header_type", x->header_type,
                 sizeof x->header_type);
        } else if (!strcmp(tag, "Piece")) {
            x->npieces++;
            x->npts = attr_u64(p, end, "NumberOfPoints");
            x->ncells = attr_u64(p, end, "NumberOfCells");
        } else if (!strcmp(tag, "AppendedData")) {
            attr(p, end, "encoding", x->encoding, sizeof x->encoding);
        } else if (!strcmp(tag, "DataArray") && x->narr < 32) {
            struct darr *a = &x->arr[x->narr++];
            snprintf(a->section, sizeof a->section, "%.15s", section);
            attr(p, end, "type", a->type, sizeof a->type);
            attr(p, end, "Name", a->name, sizeof a->name);
            attr(p, end, "format", a->format, sizeof a->format);
            char nc[16] = "1";
            attr(p, end, "NumberOfComponents", nc, sizeof nc);
            a->ncomp = strtoull(nc, NULL, 10);
            a->offset = attr_u64(p, end, "offset");
        }
    }
    const char *q = strchr(app, '>') + 1;
    while (*q == ' ' || *q == '\n')
        q++;
    if (*q != '_')
        return -1;
    x->base = (size_t)(q + 1 - x->buf);
    /* the data ends where the closing text starts: the file's tail */
    const char *tail = "\n  </AppendedData>\n</VTKFile>\n";
    if (x->len < strlen(tail) ||
        strcmp(x->buf + x->len - strlen(tail), tail) != 0)
        return -1;
    x->end = x->len - strlen(tail);
    return 0;
}

static size_t type_size(const char *t)
{
    static const struct { const char *n; size_t s; } ts[] = {
        {"Int8", 1}, {"UInt8", 1}, {"Int32", 4}, {"UInt32", 4},
        {"Int64", 8}, {"UInt64", 8}, {"Float32", 4}, {"Float64", 8}};
    for (size_t i = 0; i < sizeof ts / sizeof *ts; i++)
        if (!strcmp(ts[i].n, t))
            return ts[i].s;
    return 0;
}

static struct darr *find(struct vtu *x, const char *section,
                         const char *name)
{
    for (size_t i = 0; i < x->narr; i++)
        if (!strcmp(x->arr[i].section, section) &&
            (!name || !strcmp(x->arr[i].name, name)))
            return &x->arr[i];
    return NULL;
}

static double num(const struct darr *a, size_t i)
{
    const unsigned char *p = a->data + i * type_size(a->type);
    if (!strcmp(a->type, "Float32")) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    if (!strcmp(a->type, "UInt8"))
        return *p;
    if (!strcmp(a->type, "Int32")) {
        int32_t k;
        memcpy(&k, p, 4);
        return k;
    }
    if (!strcmp(a->type, "Int64") || !strcmp(a->type, "UInt64")) {
        int64_t k;
        memcpy(&k, p, 8);
        return (double)k;
    }
    double d;
    memcpy(&d, p, 8);
    return d;
}

/* ------------------------------------------------------------- checks */

/* The appended section tiled by the arrays' blocks, every block's byte
 * count what its type, components and the piece's counts make. */
static void check_layout(struct vtu *x, const char *path)
{
    /* 2.1 or later: VTK renumbers Lagrange hexahedra of older files */
    CHECK(!strcmp(x->type, "UnstructuredGrid") && x->npieces == 1 &&
              !strcmp(x->version, "2.1") &&
              !strcmp(x->header_type, "UInt64") &&
              !strcmp(x->encoding, "raw") &&
              !strcmp(x->byte_order, "LittleEndian"),
          "%s: header", path);
    struct darr *sorted[32];
    for (size_t i = 0; i < x->narr; i++)
        sorted[i] = &x->arr[i];
    for (size_t i = 1; i < x->narr; i++) /* by offset */
        for (size_t j = i; j > 0 && sorted[j]->offset < sorted[j - 1]->offset;
             j--) {
            struct darr *t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    uint64_t at = 0;
    for (size_t i = 0; i < x->narr; i++) {
        struct darr *a = sorted[i];
        CHECK(!strcmp(a->format, "appended") && type_size(a->type),
              "%s: %s: format %s type %s", path, a->name, a->format, a->type);
        CHECK(a->offset == at, "%s: %s at offset %llu, the previous block "
              "ends at %llu", path, a->name,
              (unsigned long long)a->offset, (unsigned long long)at);
        if (x->base + a->offset + 8 > x->end) {
            CHECK(0, "%s: %s: offset past the end", path, a->name);
            return;
        }
        memcpy(&a->nbytes, x->buf + x->base + a->offset, 8);
        a->data = (const unsigned char *)x->buf + x->base + a->offset + 8;
        uint64_t n = !strcmp(a->section, "PointData") ||
                             !strcmp(a->section, "Points") ||
                             !strcmp(a->name, "connectivity")
                         ? x->npts
                     : !strcmp(a->section, "FieldData") ? 1
                                                        : x->ncells;
        CHECK(a->nbytes == n * a->ncomp * type_size(a->type),
              "%s: %s holds %llu bytes, %llu values of %zu x %zu expected",
              path, a->name, (unsigned long long)a->nbytes,
              (unsigned long long)n, a->ncomp, type_size(a->type));
        at = a->offset + 8 + a->nbytes;
    }
    CHECK(x->base + at == x->end, "%s: the blocks end at %llu, the "
          "appended data at %zu", path, (unsigned long long)at,
          x->end - x->base);
}

/* Cells, points, gids, ranks and values of rank r's piece. */
static void check_piece(struct vtu *x, const char *path,
                        const struct io_mesh *m, int r, double t)
{
    size_t fs = m->f.fpsize;
    struct darr *tv = find(x, "FieldData", "TimeValue");
    struct darr *conn = find(x, "Cells", "connectivity");
    struct darr *offs = find(x, "Cells", "offsets");
    struct darr *types = find(x, "Cells", "types");
    struct darr *pts = find(x, "Points", NULL);
    struct darr *gid = find(x, "CellData", "gid");
    struct darr *rk = find(x, "CellData", "rank");
    struct darr *var[IO_NVARS];
    int have = tv && conn && offs && types && pts && gid && rk;
    for (size_t v = 0; v < IO_NVARS; v++) {
        var[v] = find(x, "PointData", m->vars[v].name);
        have = have && var[v] &&
               !strcmp(var[v]->type, fs == 4 ? "Float32" : "Float64");
    }
    CHECK(have && x->narr == 7 + IO_NVARS, "%s: arrays missing", path);
    if (!have || nfail)
        return;
    CHECK(num(tv, 0) == t, "%s: TimeValue %g, wrote %g", path, num(tv, 0),
          t);
    CHECK(pts->ncomp == 3 && !strcmp(pts->type, "Float64") &&
              !strcmp(conn->type, "Int64") && !strcmp(offs->type, "Int64") &&
              !strcmp(types->type, "UInt8"),
          "%s: array types", path);
    uint64_t ncells = 0, npts = 0;
    for (size_t b = 0; b < m->f.nblocks; b++) {
        ncells += m->sb[b].neles;
        npts += m->sb[b].neles * m->sb[b].nvis;
    }
    CHECK(x->ncells == ncells && x->npts == npts, "%s: %llu cells %llu "
          "points, wrote %llu and %llu", path,
          (unsigned long long)x->ncells, (unsigned long long)x->npts,
          (unsigned long long)ncells, (unsigned long long)npts);
    if (nfail)
        return;
    size_t p = 0, seen = 0, bad = 0;
    double tol = fs == 4 ? 1e-5 : 1e-13;
    for (size_t c = 0; c < x->ncells; c++) {
        uint64_t g = (uint64_t)num(gid, c);
        double xy[18];
        size_t nvis = io_vis(g, xy);
        int type = (int)num(types, c);
        bad += g >= IO_NELES || (int)num(rk, c) != r ||
               type != (io_etype(g) == FRX_ETYPE_TRI ? 5 : 70) ||
               num(offs, c) != (double)(p + nvis);
        if (bad)
            break;
        seen++;
        for (size_t j = 0; j < nvis; j++, p++) {
            bad += num(conn, p) != (double)p;
            bad += num(pts, 3 * p) != xy[2 * j] ||
                   num(pts, 3 * p + 1) != xy[2 * j + 1] ||
                   num(pts, 3 * p + 2) != 0;
            for (size_t v = 0; v < IO_NVARS; v++) {
                double want = io_value(IO_LINEAR, g, 0, v, xy[2 * j],
                                       xy[2 * j + 1]);
                bad += fabs(num(var[v], p) - want) > tol * (1 + fabs(want));
            }
        }
    }
    CHECK(!bad && seen == ncells && p == npts, "%s: cell %zu of %llu wrong "
          "(type, rank, gid, offsets, connectivity, points or values)",
          path, seen, (unsigned long long)ncells);
    /* the cells are this rank's elements, each once */
    size_t mine = 0;
    for (size_t c = 0; c < x->ncells; c++) {
        uint64_t g = (uint64_t)num(gid, c);
        mine += g < IO_NELES && io_owner(g, 2, size) == r;
        for (size_t d = 0; d < c; d++)
            mine -= (uint64_t)num(gid, d) == g;
    }
    CHECK(mine == ncells, "%s: gids are not this rank's elements", path);
}

static void check_pvtu(const char *dir, const char *name, uint64_t step,
                       size_t fs)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%06llu.pvtu", dir, name,
             (unsigned long long)step);
    size_t len;
    char *b = slurp(path, &len);
    CHECK(b, "%s: %s", path, strerror(errno));
    if (!b)
        return;
    CHECK(strstr(b, "<VTKFile type=\"PUnstructuredGrid\"") &&
              strstr(b, "</VTKFile>"), "%s: not a pvtu", path);
    int npieces = 0, nvars = 0;
    for (char *p = strstr(b, "<Piece "); p; p = strstr(p + 1, "<Piece ")) {
        char src[256], piece[4096];
        attr(p, strchr(p, '>'), "Source", src, sizeof src);
        snprintf(piece, sizeof piece, "%s/%s", dir, src);
        char want[256];
        snprintf(want, sizeof want, "%s/%s-%06llu-%d.vtu", name, name,
                 (unsigned long long)step, npieces);
        struct stat st;
        CHECK(!strcmp(src, want) && stat(piece, &st) == 0,
              "%s: piece %d is %s", path, npieces, src);
        npieces++;
    }
    for (char *p = strstr(b, "<PDataArray "); p;
         p = strstr(p + 1, "<PDataArray ")) {
        char nm[64], ty[16];
        attr(p, strchr(p, '>'), "Name", nm, sizeof nm);
        attr(p, strchr(p, '>'), "type", ty, sizeof ty);
        for (int v = 0; v < IO_NVARS; v++)
            nvars += !strcmp(nm, ((const char *[]){"rho", "rho u",
                                                   "p&<q>\""})[v]) &&
                     !strcmp(ty, fs == 4 ? "Float32" : "Float64");
    }
    CHECK(npieces == size && nvars == IO_NVARS, "%s: %d pieces, %d "
          "variables", path, npieces, nvars);
    free(b);
}

/* The .pvd lists exactly these steps at these times, in order. */
static void check_pvd(const char *dir, const char *name, int n,
                      const uint64_t *steps, const double *times)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.pvd", dir, name);
    size_t len;
    char *b = slurp(path, &len);
    CHECK(b && strstr(b, "<VTKFile type=\"Collection\""), "%s missing",
          path);
    if (!b)
        return;
    int i = 0;
    for (char *p = strstr(b, "<DataSet "); p; p = strstr(p + 1, "<DataSet ")) {
        char ts[64], file[256], want[256];
        attr(p, strchr(p, '>'), "timestep", ts, sizeof ts);
        attr(p, strchr(p, '>'), "file", file, sizeof file);
        if (i < n)
            snprintf(want, sizeof want, "%s-%06llu.pvtu", name,
                     (unsigned long long)steps[i]);
        CHECK(i < n && !strcmp(file, want) && strtod(ts, NULL) == times[i],
              "%s: entry %d is %s at %s", path, i, file, ts);
        i++;
    }
    CHECK(i == n, "%s: %d entries, %d expected", path, i, n);
    free(b);
}

/* No temporary file left behind in dir. */
static void check_no_tmp(const char *dir)
{
    DIR *d = opendir(dir);
    CHECK(d, "%s: %s", dir, strerror(errno));
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        CHECK(n < 4 || strcmp(e->d_name + n - 4, ".tmp") != 0,
              "%s/%s left behind", dir, e->d_name);
    }
    if (d)
        closedir(d);
}

/* Every rank returned rc, and the message names what it should. */
static void check_refused(int rc, int want, const char *needle)
{
    int lo = rc, hi = rc;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && getenv("IO_TEST_VERBOSE")) /* to read them */
        printf("refused: %s\n", frx_errmsg());
    CHECK(lo == want && hi == want, "rc %d..%d, %d expected", lo, hi, want);
    CHECK(strstr(frx_errmsg(), needle), "message \"%s\" lacks \"%s\"",
          frx_errmsg(), needle);
}

static void series(const char *dir, const char *name, size_t fs)
{
    struct io_mesh m;
    CHECK(io_mesh_make(&m, rank, size, 2, fs, IO_LINEAR) == 0, "memory");
    uint64_t steps[] = {0, 10, 20, 30};
    double times[] = {0, 0.5, 1.0 / 3, 0.75};
    for (int i = 0; i < 4; i++) {
        int rc = frx__vtk_write(MPI_COMM_WORLD, dir, name, &m.f, times[i],
                                steps[i], 0, 0);
        CHECK(rc == FRX_OK, "vtk_write: %s", frx_errmsg());
    }
    if (rank == 0)
        check_pvd(dir, name, 4, steps, times);
    /* a run restarted at step 10 that writes first at step 30: the
     * replaced run's 20 goes with its 30, the new 30 and 40 come after
     * its own entries */
    uint64_t after[] = {0, 10, 30, 40};
    double after_t[] = {0, 0.5, 0.875, 1};
    for (int i = 2; i < 4; i++) {
        int rc = frx__vtk_write(MPI_COMM_WORLD, dir, name, &m.f, after_t[i],
                                after[i], 10, 30);
        CHECK(rc == FRX_OK, "vtk_write: %s", frx_errmsg());
    }
    if (rank == 0)
        check_pvd(dir, name, 4, after, after_t);
    /* a run restarted at step 10 that writes it again: the rest goes */
    int rc = frx__vtk_write(MPI_COMM_WORLD, dir, name, &m.f, 0.5, 10, 10,
                            10);
    CHECK(rc == FRX_OK, "vtk_write: %s", frx_errmsg());
    char path[2048], sub[1024];
    snprintf(sub, sizeof sub, "%s/%s", dir, name);
    snprintf(path, sizeof path, "%s/%s-%06d-%d.vtu", sub, name, 10, rank);
    struct vtu x;
    CHECK(parse_vtu(path, &x) == 0, "%s: cannot parse", path);
    if (x.buf) {
        check_layout(&x, path);
        check_piece(&x, path, &m, rank, 0.5);
    }
    free(x.buf);
    if (rank == 0) {
        check_pvd(dir, name, 2, steps, times);
        check_pvtu(dir, name, 10, fs);
        check_no_tmp(dir);
    }
    check_no_tmp(sub);
    io_mesh_free(&m);
}

static void refusals(const char *dir)
{
    struct io_mesh m;
    CHECK(io_mesh_make(&m, rank, size, 0, 8, IO_LINEAR) == 0, "memory");
    /* 5 points is no quadrilateral cell (only ranks with quads see it) */
    for (size_t b = 0; b < m.f.nblocks; b++)
        if (m.blocks[b].etype == FRX_ETYPE_QUAD)
            m.sb[b].nvis = 5;
    int rc = frx__vtk_write(MPI_COMM_WORLD, dir, "bad", &m.f, 0, 0, 0, 0);
    check_refused(rc, FRX_EINVAL, "VTK cell type 70 with 5 points");
    for (size_t b = 0; b < m.f.nblocks; b++)
        if (m.blocks[b].etype == FRX_ETYPE_QUAD)
            m.sb[b].nvis = 9;
    /* a file where the folder should be */
    char path[1024];
    snprintf(path, sizeof path, "%s/afile", dir);
    if (rank == 0) {
        FILE *fp = fopen(path, "w");
        CHECK(fp && fclose(fp) == 0, "%s: %s", path, strerror(errno));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    snprintf(path, sizeof path, "%s/afile/out", dir);
    rc = frx__vtk_write(MPI_COMM_WORLD, path, "x", &m.f, 0, 0, 0, 0);
    check_refused(rc, FRX_EIO, "afile: a file of that name is in the way");
    rc = frx__vtk_write(MPI_COMM_WORLD, dir, "afile/x", &m.f, 0, 0, 0, 0);
    check_refused(rc, FRX_EINVAL, "name without '/'");
    rc = frx__vtk_write(MPI_COMM_WORLD, dir, "a&b", &m.f, 0, 0, 0, 0);
    check_refused(rc, FRX_EINVAL, "(got '");
    /* the last rank cannot write its piece (a folder is in the way of its
     * temporary file): every rank stops with its reason, naming the file
     * and errno's text, and no .pvtu appears */
    char want[4096];
    snprintf(path, sizeof path, "%s/y/y-000000-%d.vtu.tmp", dir, size - 1);
    if (size > 1)
        snprintf(want, sizeof want, "rank %d: cannot create %s: Is a "
                 "directory", size - 1, path);
    else
        snprintf(want, sizeof want, "cannot create %s: Is a directory",
                 path);
    if (rank == 0) {
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/y", dir);
        CHECK(mkdir(sub, 0777) == 0 && mkdir(path, 0777) == 0, "mkdir %s",
              path);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rc = frx__vtk_write(MPI_COMM_WORLD, dir, "y", &m.f, 0, 0, 0, 0);
    check_refused(rc, FRX_EIO, want);
    snprintf(path, sizeof path, "%s/y-000000.pvtu", dir);
    struct stat st;
    CHECK(stat(path, &st) != 0, "%s written after a rank failed", path);
    io_mesh_free(&m);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char dir[512];
    const char *tmp = getenv("TMPDIR");
    if (argc > 1)
        snprintf(dir, sizeof dir, "%s", argv[1]);
    else
        snprintf(dir, sizeof dir, "%s/vtk-out", tmp ? tmp : "/tmp");

    series(dir, "dbl", 8);
    series(dir, "sgl", 4);
    refusals(dir);

    int bad = nfail;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &npass, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d passed, %d failed\n", npass, bad);
    MPI_Finalize();
    return bad ? 1 : 0;
}
