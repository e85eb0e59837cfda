/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: output for ParaView, VTK XML unstructured grids (io.h). Each
 * element is one cell with its own points (the solution is discontinuous
 * between elements), but for pyramids: VTK 9.1 (Debian's) has no
 * Lagrange pyramid, so a pyramid's points (an equispaced lattice) are
 * cut into linear pyramids and tetrahedra as PyFR 1.15's writer cuts
 * them (pyr_cells). Arrays are appended raw binary, each a UInt64 byte
 * count then the values, at the offsets the XML header gives. */
#include "io/io-impl.h"
#include "io/io-util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATH_BYTES 4096

/* ------------------------------------------------------- checking input */

#define VTK_TETRA 10
#define VTK_PYRAMID 14

/* The points of a pyramid's equispaced lattice of order n. */
static size_t pyr_npts(size_t n)
{
    return (n + 1) * (n + 2) * (2 * n + 3) / 6;
}

static size_t lagrange_npts(int etype, size_t p)
{
    switch (etype) {
    case FRX_ETYPE_TRI: return (p + 1) * (p + 2) / 2;
    case FRX_ETYPE_QUAD: return (p + 1) * (p + 1);
    case FRX_ETYPE_TET: return (p + 1) * (p + 2) * (p + 3) / 6;
    case FRX_ETYPE_PRI: return (p + 1) * (p + 1) * (p + 2) / 2;
    default: return (p + 1) * (p + 1) * (p + 1);
    }
}

/* The VTK cells of each element of a block: n cells, of type[i], whose
 * points are conn[end[i-1] .. end[i]) (end[-1] = 0), numbers of the
 * element's own points. */
struct cells {
    size_t n, nconn;
    uint8_t *type;
    int64_t *end, *conn;
};

static void cells_free(struct cells *c)
{
    free(c->type);
    free(c->end);
    free(c->conn);
    memset(c, 0, sizeof *c);
}

static int cells_alloc(struct cells *c, size_t n, size_t nconn)
{
    c->n = c->nconn = 0;
    c->type = malloc(n * sizeof *c->type);
    c->end = malloc(n * sizeof *c->end);
    c->conn = malloc(nconn * sizeof *c->conn);
    if (!c->type || !c->end || !c->conn) {
        cells_free(c);
        return frx_error(FRX_ENOMEM, "out of memory writing VTK output");
    }
    return FRX_OK;
}

static void add_cell(struct cells *c, int type, int npts, const int64_t *p)
{
    c->type[c->n] = (uint8_t)type;
    for (int i = 0; i < npts; i++)
        c->conn[c->nconn++] = p[i];
    c->end[c->n++] = (int64_t)c->nconn;
}

/* A pyramid's lattice of order n cut as PyFR 1.15 cuts it
 * (PyrShapeSubDiv): the points layer by layer from the base (m + 1 by
 * m + 1 points in the layer of m = n .. 0, x fastest), each layer and
 * the one above it holding m^2 pyramids on the layer's squares (apex
 * up), (m - 1)^2 on the upper layer's squares (apex down, on the
 * layer's inner points), and 2 m (m - 1) tetrahedra between. */
static int pyr_cells(size_t n, struct cells *c)
{
    size_t ncells = 0;
    for (size_t m = 1; m <= n; m++)
        ncells += m * m + (m - 1) * (m - 1) + 2 * m * (m - 1);
    int rc = cells_alloc(c, ncells, 5 * ncells);
    int64_t l = 0; /* the layer's first point */
    for (int64_t m = (int64_t)n; !rc && m > 0; m--) {
        int64_t N = m + 1, u = l + N * N; /* the next layer's */
#define LO(i, j) (l + (i) + N * (j))
#define UP(i, j) (u + (i) + m * (j))
        for (int64_t b = 0; b < m; b++)
            for (int64_t a = 0; a < m; a++) {
                int64_t p[5] = {LO(a, b), LO(a + 1, b), LO(a + 1, b + 1),
                                LO(a, b + 1), UP(a, b)};
                add_cell(c, VTK_PYRAMID, 5, p);
            }
        for (int64_t b = 0; b < m - 1; b++)
            for (int64_t a = 0; a < m - 1; a++) {
                int64_t p[5] = {UP(a, b + 1), UP(a + 1, b + 1), UP(a + 1, b),
                                UP(a, b), LO(a + 1, b + 1)};
                add_cell(c, VTK_PYRAMID, 5, p);
            }
        for (int64_t y = 0; y < m; y++)
            for (int64_t x = 0; x < m - 1; x++) {
                int64_t p[4] = {LO(x + 1, y), LO(x + 1, y + 1), UP(x, y),
                                UP(x + 1, y)};
                add_cell(c, VTK_TETRA, 4, p);
            }
        for (int64_t y = 0; y < m - 1; y++)
            for (int64_t x = 0; x < m; x++) {
                int64_t p[4] = {LO(x + 1, y + 1), LO(x, y + 1), UP(x, y),
                                UP(x, y + 1)};
                add_cell(c, VTK_TETRA, 4, p);
            }
#undef LO
#undef UP
        l = u;
    }
    return rc;
}

/* Pyramids: the solver's vtk_type 0 or VTK_PYRAMID, nvis a lattice's
 * points; cut into cells. */
static int pyr_block(const struct frx__io_block *b, size_t ib,
                     struct cells *c)
{
    size_t nvis = b->sb->nvis, n = 1;
    while (pyr_npts(n) < nvis)
        n++;
    int want = b->sb->vtk_type;
    if ((want != 0 && want != VTK_PYRAMID) || pyr_npts(n) != nvis)
        return frx_error(FRX_EINVAL, "output block %zu (pyr): VTK cell type "
                         "%d with %zu points per element is not written: "
                         "give %d (linear pyramids: VTK 9.1 has no Lagrange "
                         "pyramid) and an equispaced lattice's points "
                         "(%zu, %zu, %zu, ...: order n's (n+1)(n+2)(2n+3)/6)",
                         ib, want, nvis, VTK_PYRAMID, pyr_npts(1),
                         pyr_npts(2), pyr_npts(3));
    return pyr_cells(n, c);
}

/* The VTK cells of block ib: one of the solver's vtk_type, or chosen
 * from nvis, checked against the element type and nvis; pyramids cut
 * (pyr_block). */
static int block_cells(const struct frx__io_block *b, size_t ib,
                       struct cells *c)
{
    const struct frx__io_etype *et = frx__io_etype(b->etype);
    size_t nvis = b->sb->nvis;
    if (b->etype == FRX_ETYPE_PYR)
        return pyr_block(b, ib, c);
    int linear = nvis == et->ncorners, lagrange = 0;
    for (size_t p = 1; lagrange_npts(b->etype, p) <= nvis; p++)
        lagrange |= lagrange_npts(b->etype, p) == nvis;
    int want = b->sb->vtk_type;
    if (want == 0)
        want = linear ? et->vtk_linear : et->vtk_lagrange;
    if ((want == et->vtk_linear && linear) ||
        (want == et->vtk_lagrange && lagrange)) {
        int rc = cells_alloc(c, 1, nvis);
        for (size_t j = 0; !rc && j < nvis; j++)
            c->conn[j] = (int64_t)j;
        if (!rc) {
            c->nconn = nvis;
            c->type[0] = (uint8_t)want;
            c->end[0] = (int64_t)nvis;
            c->n = 1;
        }
        return rc;
    }
    return frx_error(FRX_EINVAL, "output block %zu (%s): VTK cell type %d "
                     "with %zu points per element is no VTK cell: use %d "
                     "(linear, %zu points) or %d (Lagrange, a whole order's "
                     "points: %zu, %zu, ...)", ib, et->name, want, nvis,
                     et->vtk_linear, et->ncorners, et->vtk_lagrange,
                     lagrange_npts(b->etype, 1), lagrange_npts(b->etype, 2));
}

static int check_fields(const struct frx__io_fields *f, struct cells *cells)
{
    int rc = frx__io_check(f, "VTK output");
    for (size_t i = 0; !rc && i < f->nblocks; i++) {
        const struct frx__io_block *b = &f->blocks[i];
        const frx_solver_block *sb = b->sb;
        if (!FRX_SIZE_HOLDS(frx_solver_block, sb, vis_op))
            return frx_error(FRX_EINVAL, "VTK output: block %zu has no "
                             "output points (the solver's block is older "
                             "than its interface)", i);
        if (!sb->neles)
            continue;
        if (!sb->nvis || !sb->vis_pts || !sb->vis_op)
            return frx_error(FRX_EINVAL, "VTK output: block %zu lacks "
                             "nvis, vis_pts or vis_op", i);
        rc = block_cells(b, i, &cells[i]);
    }
    return rc;
}

/* ------------------------------------------------------------- writing */

/* XML attribute text. */
static void put_escaped(FILE *fp, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", fp); break;
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '"': fputs("&quot;", fp); break;
        default: fputc(*s, fp);
        }
}

/* Buffered binary output that keeps the errno of its first failure. */
struct out {
    FILE *fp;
    int err;
    size_t n;
    unsigned char buf[1 << 16];
};

static void out_flush(struct out *o)
{
    if (o->n && fwrite(o->buf, 1, o->n, o->fp) != o->n && !o->err)
        o->err = errno ? errno : EIO;
    o->n = 0;
}

static void out_put(struct out *o, const void *p, size_t n)
{
    if (o->n + n > sizeof o->buf)
        out_flush(o);
    memcpy(o->buf + o->n, p, n);
    o->n += n;
}

/* The arrays of a piece, in the order of the appended section. */
enum { A_TIME, A_VAR, A_RANK, A_GID, A_POINTS, A_CONN, A_OFFSETS, A_TYPES };

struct arr {
    int kind;
    size_t var;
    const char *type;
    size_t ncomp, elsize;
    uint64_t nvals, offset;
};

struct piece {
    const struct frx__io_fields *f;
    const struct cells *cells; /* [nblocks] */
    int rank;
    double t;
    uint64_t npts, ncells, nconn;
    size_t narr;
    struct arr *arr;
};

static const char *fp_type(size_t fpsize)
{
    return fpsize == 4 ? "Float32" : "Float64";
}

static void plan_arrays(struct piece *pc)
{
    const struct frx__io_fields *f = pc->f;
    size_t n = 0;
    pc->arr[n++] = (struct arr){A_TIME, 0, "Float64", 1, 8, 1, 0};
    for (size_t v = 0; v < f->nvars; v++)
        pc->arr[n++] = (struct arr){A_VAR, v, fp_type(f->fpsize), 1,
                                    f->fpsize, pc->npts, 0};
    pc->arr[n++] = (struct arr){A_RANK, 0, "Int32", 1, 4, pc->ncells, 0};
    pc->arr[n++] = (struct arr){A_GID, 0, "UInt64", 1, 8, pc->ncells, 0};
    pc->arr[n++] = (struct arr){A_POINTS, 0, "Float64", 3, 8, pc->npts, 0};
    pc->arr[n++] = (struct arr){A_CONN, 0, "Int64", 1, 8, pc->nconn, 0};
    pc->arr[n++] = (struct arr){A_OFFSETS, 0, "Int64", 1, 8, pc->ncells, 0};
    pc->arr[n++] = (struct arr){A_TYPES, 0, "UInt8", 1, 1, pc->ncells, 0};
    uint64_t off = 0;
    for (size_t i = 0; i < n; i++) {
        pc->arr[i].offset = off;
        off += 8 + pc->arr[i].nvals * pc->arr[i].ncomp * pc->arr[i].elsize;
    }
    pc->narr = n;
}

static void put_array_xml(FILE *fp, const struct piece *pc, int kind,
                          const char *name, const char *indent)
{
    for (size_t i = 0; i < pc->narr; i++) {
        const struct arr *a = &pc->arr[i];
        if (a->kind != kind)
            continue;
        fprintf(fp, "%s<DataArray type=\"%s\"", indent, a->type);
        if (kind == A_VAR)
            name = frx__io_var(pc->f, a->var);
        if (name) {
            fputs(" Name=\"", fp);
            put_escaped(fp, name);
            fputc('"', fp);
        }
        if (a->ncomp > 1)
            fprintf(fp, " NumberOfComponents=\"%zu\"", a->ncomp);
        if (kind == A_TIME)
            fputs(" NumberOfTuples=\"1\"", fp);
        fprintf(fp, " format=\"appended\" offset=\"%" PRIu64 "\"/>\n",
                a->offset);
    }
}

/* Version 2.1: VTK's readers renumber the Lagrange hexahedra of older
 * files (VTK 8's node order); ours are in VTK 9's (fr's vtk_points.c). */
static void put_header(FILE *fp, const struct piece *pc)
{
    fprintf(fp, "<?xml version=\"1.0\"?>\n"
            "<VTKFile type=\"UnstructuredGrid\" version=\"2.1\" "
            "byte_order=\"" FRX__BYTE_ORDER "\" header_type=\"UInt64\">\n"
            "  <UnstructuredGrid>\n    <FieldData>\n");
    put_array_xml(fp, pc, A_TIME, "TimeValue", "      ");
    fprintf(fp, "    </FieldData>\n    <Piece NumberOfPoints=\"%" PRIu64
            "\" NumberOfCells=\"%" PRIu64 "\">\n      <PointData>\n",
            pc->npts, pc->ncells);
    put_array_xml(fp, pc, A_VAR, NULL, "        ");
    fputs("      </PointData>\n      <CellData>\n", fp);
    put_array_xml(fp, pc, A_RANK, "rank", "        ");
    put_array_xml(fp, pc, A_GID, "gid", "        ");
    fputs("      </CellData>\n      <Points>\n", fp);
    put_array_xml(fp, pc, A_POINTS, NULL, "        ");
    fputs("      </Points>\n      <Cells>\n", fp);
    put_array_xml(fp, pc, A_CONN, "connectivity", "        ");
    put_array_xml(fp, pc, A_OFFSETS, "offsets", "        ");
    put_array_xml(fp, pc, A_TYPES, "types", "        ");
    fputs("      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n"
          "  <AppendedData encoding=\"raw\">\n   _", fp);
}

/* Variable v at the output points of element e of block b: vis_op x u. */
static void put_values(struct out *o, const struct frx__io_fields *f,
                       const struct frx__io_block *b, size_t v, size_t e,
                       double *uk)
{
    const frx_solver_block *sb = b->sb;
    size_t nupts = sb->nupts, neles = sb->neles;
    for (size_t k = 0; k < nupts; k++) {
        size_t i = (k * f->nvars + v) * neles + e;
        uk[k] = f->fpsize == 4 ? ((const float *)b->u)[i]
                               : ((const double *)b->u)[i];
    }
    for (size_t j = 0; j < sb->nvis; j++) {
        const double *op = sb->vis_op + j * nupts;
        double s = 0;
        for (size_t k = 0; k < nupts; k++)
            s += op[k] * uk[k];
        if (f->fpsize == 4) {
            float x = (float)s;
            out_put(o, &x, 4);
        } else {
            out_put(o, &s, 8);
        }
    }
}

static void put_array(struct out *o, const struct piece *pc,
                      const struct arr *a, double *uk)
{
    const struct frx__io_fields *f = pc->f;
    uint64_t nbytes = a->nvals * a->ncomp * a->elsize;
    out_put(o, &nbytes, 8);
    if (a->kind == A_TIME) {
        out_put(o, &pc->t, 8);
        return;
    }
    int64_t pt = 0, off = 0; /* the element's first point, the cells' end */
    for (size_t ib = 0; ib < f->nblocks; ib++) {
        const struct frx__io_block *b = &f->blocks[ib];
        const frx_solver_block *sb = b->sb;
        const struct cells *c = &pc->cells[ib];
        int32_t rank = pc->rank;
        for (size_t e = 0; e < sb->neles; e++, pt += (int64_t)sb->nvis) {
            switch (a->kind) {
            case A_VAR: put_values(o, f, b, a->var, e, uk); break;
            case A_RANK:
                for (size_t i = 0; i < c->n; i++)
                    out_put(o, &rank, 4);
                break;
            case A_GID:
                for (size_t i = 0; i < c->n; i++)
                    out_put(o, &b->gid[e], 8);
                break;
            case A_TYPES: out_put(o, c->type, c->n); break;
            case A_OFFSETS:
                for (size_t i = 0; i < c->n; i++) {
                    int64_t end = off + c->end[i];
                    out_put(o, &end, 8);
                }
                off += (int64_t)c->nconn;
                break;
            case A_CONN:
                for (size_t j = 0; j < c->nconn; j++) {
                    int64_t q = pt + c->conn[j];
                    out_put(o, &q, 8);
                }
                break;
            case A_POINTS:
                for (size_t j = 0; j < sb->nvis; j++) {
                    const double *x =
                        sb->vis_pts + (e * sb->nvis + j) * (size_t)f->ndims;
                    double xyz[3] = {0, 0, 0};
                    memcpy(xyz, x, (size_t)f->ndims * sizeof *x);
                    out_put(o, xyz, sizeof xyz);
                }
                break;
            }
        }
    }
}

static int open_tmp(const char *path, char *tmp, FILE **fp)
{
    snprintf(tmp, PATH_BYTES + 8, "%s.tmp", path);
    *fp = fopen(tmp, "wb");
    if (!*fp)
        return frx_error(FRX_EIO, "cannot create %s: %s", tmp,
                         strerror(errno));
    return FRX_OK;
}

static int write_piece(const char *path, struct piece *pc)
{
    const struct frx__io_fields *f = pc->f;
    size_t maxupts = 1;
    for (size_t ib = 0; ib < f->nblocks; ib++) {
        const frx_solver_block *sb = f->blocks[ib].sb;
        pc->npts += (uint64_t)sb->neles * sb->nvis;
        pc->ncells += (uint64_t)sb->neles * pc->cells[ib].n;
        pc->nconn += (uint64_t)sb->neles * pc->cells[ib].nconn;
        if (sb->nupts > maxupts)
            maxupts = sb->nupts;
    }
    pc->arr = calloc(f->nvars + 7, sizeof *pc->arr);
    double *uk = calloc(maxupts, sizeof *uk);
    struct out *o = calloc(1, sizeof *o);
    int rc = FRX_OK;
    if (!pc->arr || !uk || !o)
        rc = frx_error(FRX_ENOMEM, "out of memory writing %s", path);
    char tmp[PATH_BYTES + 8];
    if (!rc)
        rc = open_tmp(path, tmp, &o->fp);
    if (!rc) {
        plan_arrays(pc);
        put_header(o->fp, pc);
        for (size_t i = 0; i < pc->narr; i++)
            put_array(o, pc, &pc->arr[i], uk);
        out_flush(o);
        fputs("\n  </AppendedData>\n</VTKFile>\n", o->fp);
        rc = frx__io_commit(o->fp, o->err, tmp, path);
    }
    free(pc->arr);
    free(uk);
    free(o);
    return rc;
}

static int write_pvtu(const char *path, const char *name, uint64_t step,
                      const struct frx__io_fields *f, int nranks)
{
    char tmp[PATH_BYTES + 8];
    FILE *fp;
    int rc = open_tmp(path, tmp, &fp);
    if (rc)
        return rc;
    fprintf(fp, "<?xml version=\"1.0\"?>\n"
            "<VTKFile type=\"PUnstructuredGrid\" version=\"2.1\" "
            "byte_order=\"" FRX__BYTE_ORDER "\" header_type=\"UInt64\">\n"
            "  <PUnstructuredGrid GhostLevel=\"0\">\n    <PPointData>\n");
    for (size_t v = 0; v < f->nvars; v++) {
        fprintf(fp, "      <PDataArray type=\"%s\" Name=\"",
                fp_type(f->fpsize));
        put_escaped(fp, frx__io_var(f, v));
        fputs("\"/>\n", fp);
    }
    fputs("    </PPointData>\n    <PCellData>\n"
          "      <PDataArray type=\"Int32\" Name=\"rank\"/>\n"
          "      <PDataArray type=\"UInt64\" Name=\"gid\"/>\n"
          "    </PCellData>\n    <PPoints>\n"
          "      <PDataArray type=\"Float64\" NumberOfComponents=\"3\"/>\n"
          "    </PPoints>\n", fp);
    /* the name needs no escaping: frx__vtk_write refuses & < > " */
    for (int r = 0; r < nranks; r++)
        fprintf(fp, "    <Piece Source=\"%s/%s-%06" PRIu64 "-%d.vtu\"/>\n",
                name, name, step, r);
    fputs("  </PUnstructuredGrid>\n</VTKFile>\n", fp);
    return frx__io_commit(fp, 0, tmp, path);
}

/* ------------------------------------------------------ the .pvd series */

/* The step of a .pvd entry's file if it is "<name>-<digits>.pvtu", the
 * name this writer gives; -1 for an entry of another name. */
static long long entry_step(const char *line, const char *name)
{
    const char *p = strstr(line, " file=\"");
    size_t n = strlen(name);
    if (!p || strncmp(p + 7, name, n) != 0 || p[7 + n] != '-')
        return -1;
    char *end;
    errno = 0;
    long long s = strtoll(p + 8 + n, &end, 10);
    if (errno || end == p + 8 + n || strncmp(end, ".pvtu\"", 6) != 0)
        return -1;
    return s;
}

/* The existing .pvd's text ("" if there is none). */
static int read_all(const char *path, char **text)
{
    *text = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp && errno == ENOENT) {
        *text = calloc(1, 1);
        return *text ? FRX_OK : frx_error(FRX_ENOMEM, "out of memory");
    }
    if (!fp)
        return frx_error(FRX_EIO, "cannot read %s: %s", path,
                         strerror(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (size_t k; buf && (k = fread(buf + n, 1, cap - n - 1, fp)) > 0;) {
        n += k;
        if (n + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    int bad = ferror(fp);
    fclose(fp);
    if (!buf)
        return frx_error(FRX_ENOMEM, "out of memory reading %s", path);
    if (bad) {
        free(buf);
        return frx_error(FRX_EIO, "cannot read %s", path);
    }
    buf[n] = '\0';
    *text = buf;
    return FRX_OK;
}

static int update_pvd(const char *path, const char *name, uint64_t step,
                      double t, uint64_t run_from, uint64_t run_first)
{
    char *old;
    int rc = read_all(path, &old);
    if (rc)
        return rc;
    char tmp[PATH_BYTES + 8];
    FILE *fp;
    rc = open_tmp(path, tmp, &fp);
    if (rc) {
        free(old);
        return rc;
    }
    fputs("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" "
          "version=\"0.1\" byte_order=\"" FRX__BYTE_ORDER "\">\n"
          "  <Collection>\n", fp);
    /* the earlier steps' entries, one a line as written below */
    for (char *p = strstr(old, "<DataSet "); p; p = strstr(p, "<DataSet ")) {
        char *end = strstr(p, "/>");
        if (!end)
            break;
        *end = '\0';
        long long s = entry_step(p, name);
        int replaced = s >= 0 && (uint64_t)s > run_from &&
                       (uint64_t)s < run_first;
        if (s < 0 || ((uint64_t)s < step && !replaced))
            fprintf(fp, "    %s/>\n", p);
        p = end + 2;
    }
    free(old);
    fprintf(fp, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"0\" "
            "file=\"%s-%06" PRIu64 ".pvtu\"/>\n  </Collection>\n"
            "</VTKFile>\n", t, name, step);
    return frx__io_commit(fp, 0, tmp, path);
}

/* ---------------------------------------------------------------- entry */

static int path_of(char *buf, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int path_of(char *buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, PATH_BYTES, fmt, ap);
    va_end(ap);
    if (k < 0 || k >= PATH_BYTES - 8) /* room for ".tmp" */
        return frx_error(FRX_EINVAL, "VTK output: path too long: %s", buf);
    return FRX_OK;
}

int frx__vtk_write(MPI_Comm comm, const char *dir, const char *name,
                   const struct frx__io_fields *f, double t, uint64_t step,
                   uint64_t run_from, uint64_t run_first)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int rc = FRX_OK;
    size_t nb = f && f->nblocks ? f->nblocks : 1;
    struct cells *cells = calloc(nb, sizeof *cells);
    char path[PATH_BYTES];
    if (!cells)
        rc = frx_error(FRX_ENOMEM, "out of memory writing VTK output");
    else if (!dir || !*dir || !name || !*name || strpbrk(name, "/&<>\""))
        rc = frx_error(FRX_EINVAL, "VTK output: a folder and a name "
                       "without '/', '&', '<', '>' or '\"' are needed (got "
                       "'%s', '%s')", dir ? dir : "(null)",
                       name ? name : "(null)");
    if (!rc)
        rc = check_fields(f, cells);
    if (!rc && rank == 0 && !(rc = path_of(path, "%s/%s", dir, name)))
        rc = frx__io_mkdirs(path);
    rc = frx__io_agree(comm, rc);

    /* this rank's piece, once written: removed again where the step's
     * output fails as a whole, so that no piece is left without its
     * .pvtu */
    char piece[PATH_BYTES] = "";
    if (!rc) {
        struct piece pc = {.f = f, .cells = cells, .rank = rank, .t = t};
        rc = path_of(path, "%s/%s/%s-%06" PRIu64 "-%d.vtu", dir, name, name,
                     step, rank);
        if (!rc && !(rc = write_piece(path, &pc)))
            memcpy(piece, path, sizeof piece);
        rc = frx__io_agree(comm, rc);
    }
    char pvtu[PATH_BYTES] = "";
    if (!rc) {
        if (rank == 0) {
            rc = path_of(path, "%s/%s-%06" PRIu64 ".pvtu", dir, name, step);
            if (!rc && !(rc = write_pvtu(path, name, step, f, size)))
                memcpy(pvtu, path, sizeof pvtu);
            if (!rc)
                rc = path_of(path, "%s/%s.pvd", dir, name);
            if (!rc)
                rc = update_pvd(path, name, step, t, run_from, run_first);
        }
        rc = frx__io_agree(comm, rc);
    }
    if (rc && piece[0])
        remove(piece);
    if (rc && pvtu[0])
        remove(pvtu);
    for (size_t i = 0; cells && i < nb; i++)
        cells_free(&cells[i]);
    free(cells);
    return rc;
}
