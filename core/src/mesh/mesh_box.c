/* SPDX-License-Identifier: BSD-3-Clause */
/* The box mesh source: mesh: {type: box, lower, upper, n, periodic,
 * etype, order}. It fills the global mesh and nothing else.
 *
 * Nodes lie on a lattice of order*n[k] + 1 points per direction, x
 * fastest. Element (i, j[, k]) is number i + n0*(j + n1*k); with
 * triangles each cell holds two, numbers 2c (corners 0, 1, 2 of the
 * cell) and 2c + 1 (corners 0, 2, 3); with tetrahedra six, numbers
 * 6c .. 6c + 5 (Kuhn's split, tet_cells below); with prisms two,
 * numbers 2c and 2c + 1, the triangles of the tri box extruded along z
 * (pri_cells below); with pyramids six, numbers 6c .. 6c + 5, one on
 * each face of the cube with its apex at the cube's centre (pyr_cells
 * below). Shape points of order 2 are lattice points too: each is the
 * mean of some of the element's corners. A pyramid's apex and (order
 * 2) the middles of its edges to the apex are not: they are nodes of
 * their own after the lattice's (pyr_node). Sides that are not
 * periodic are boundaries named left/right (x), bottom/top (y) and
 * back/front (z); periodic directions make pairs named x, y and z. */
#include "mesh/mesh-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Elements the box makes at most: METIS numbers graph edges (up to six
 * per element) with 32-bit integers. */
#define MAX_ELES (1L << 28)

struct box {
    int ndims;
    double lo[3], hi[3];
    long n[3];
    int periodic[3];
    int etype, order;
};

static const char *const bc_names[3][2] = {
    {"left", "right"}, {"bottom", "top"}, {"back", "front"}};
static const char *const axis_names[3] = {"x", "y", "z"};

/* ------------------------------------------------------------ reading */

/* Every problem goes to frx_errmsg() as one more line. */
static void complain(int *nerr, const frx_cfgnode *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void complain(int *nerr, const frx_cfgnode *at, const char *fmt, ...)
{
    char where[300], msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    frx__error_append(FRX_ECONFIG, "%s: %s",
                      frx__cfg_where(at, where, sizeof where), msg);
    ++*nerr;
}

static void converted(int *nerr, int rc, const char *msg)
{
    if (rc) {
        frx__error_append(rc, "%s", msg);
        ++*nerr;
    }
}

/* Where to point at a missing key of mesh: its own key. */
static const frx_cfgnode *key_of(const frx_cfgnode *v)
{
    return v->parent && v->parent->type == FRX_CFG_MAP
               ? v->parent->keys[v->index] : v;
}

/* mesh.<key> as a list of numbers (kind 'd'), integers ('l') or
 * booleans ('b'); *len = -1 when absent or unreadable. */
static const frx_cfgnode *read_list(const frx_cfgnode *mesh, const char *key,
                                    int kind, void *out, int *len, int *nerr)
{
    const frx_cfgnode *v = frx_cfg_get(mesh, key);
    char msg[1024];
    *len = -1;
    if (!v)
        return NULL;
    if (v->type != FRX_CFG_LIST) {
        complain(nerr, v, "'mesh.%s' must be a list with one value per "
                 "direction, like [4, 4], got %s", key, frx__cfg_kind(v));
        return v;
    }
    int bad = 0;
    for (size_t i = 0; i < v->n && i < 3; i++) {
        int rc;
        if (kind == 'l')
            rc = frx__cfg_to_long(v->vals[i], 1, MAX_ELES, (long *)out + i,
                                  msg, sizeof msg);
        else if (kind == 'b')
            rc = frx__cfg_to_bool(v->vals[i], (int *)out + i, msg,
                                  sizeof msg);
        else
            rc = frx__cfg_to_double(v->vals[i], 1, 0, (double *)out + i,
                                    msg, sizeof msg);
        converted(nerr, rc, msg);
        bad |= rc != 0;
    }
    *len = bad ? -1 : (int)v->n;
    return v;
}

/* Elements a cell holds. */
static size_t per_cell(int etype)
{
    if (etype == FRX_ETYPE_TET || etype == FRX_ETYPE_PYR)
        return 6;
    return etype == FRX_ETYPE_TRI || etype == FRX_ETYPE_PRI ? 2 : 1;
}

/* Read and check the box; the number of problems found. */
static int box_read(const frx_cfgnode *mesh, struct box *b)
{
    int nerr = 0, nn, nlo, nhi, nper;
    memset(b, 0, sizeof *b);
    for (int k = 0; k < 3; k++)
        b->hi[k] = 1;
    const frx_cfgnode *vn = read_list(mesh, "n", 'l', b->n, &nn, &nerr);
    const frx_cfgnode *vlo = read_list(mesh, "lower", 'd', b->lo, &nlo,
                                       &nerr);
    const frx_cfgnode *vhi = read_list(mesh, "upper", 'd', b->hi, &nhi,
                                       &nerr);
    const frx_cfgnode *vper = read_list(mesh, "periodic", 'b', b->periodic,
                                        &nper, &nerr);
    if (!vn)
        complain(&nerr, key_of(mesh), "a mesh of type box needs 'n', the "
                 "number of elements in each direction (e.g. n: [16, 16])");
    if (nn >= 0 && nn != 2 && nn != 3)
        complain(&nerr, vn, "'mesh.n' must have 2 or 3 values (elements "
                 "in x, y[, z]), got %d", nn);
    b->ndims = nn == 2 || nn == 3 ? nn : 0;
    const struct { const frx_cfgnode *v; int len; const char *key; } l[] = {
        {vlo, nlo, "lower"}, {vhi, nhi, "upper"}, {vper, nper, "periodic"}};
    for (int i = 0; i < 3 && b->ndims; i++)
        if (l[i].len >= 0 && l[i].len != b->ndims)
            complain(&nerr, l[i].v, "'mesh.%s' has %d value(s) but 'mesh.n' "
                     "has %d: give one per direction", l[i].key, l[i].len,
                     b->ndims);
    for (int k = 0; k < b->ndims; k++) {
        int lo_ok = !vlo || nlo == b->ndims, hi_ok = !vhi || nhi == b->ndims;
        if (!lo_ok || !hi_ok || b->hi[k] > b->lo[k])
            continue;
        const frx_cfgnode *at = vhi ? vhi->vals[k] : vlo->vals[k];
        complain(&nerr, at, "'mesh.upper[%d]' (%g%s) must be greater than "
                 "'mesh.lower[%d]' (%g%s)", k, b->hi[k],
                 vhi ? "" : ", the default", k, b->lo[k],
                 vlo ? "" : ", the default");
    }

    char msg[1024];
    long order = 1;
    int et = -1;
    const frx_cfgnode *vet = frx_cfg_get(mesh, "etype");
    if (vet) {
        int rc = frx__cfg_to_enum(vet, "quad|tri|hex|tet|prism|pyramid",
                                  &et, msg, sizeof msg);
        converted(&nerr, rc, msg);
    }
    static const int etypes[] = {FRX_ETYPE_QUAD, FRX_ETYPE_TRI,
                                 FRX_ETYPE_HEX, FRX_ETYPE_TET,
                                 FRX_ETYPE_PRI, FRX_ETYPE_PYR};
    b->etype = et >= 0 ? etypes[et]
             : b->ndims == 3 ? FRX_ETYPE_HEX : FRX_ETYPE_QUAD;
    if (vet && et >= 0 && b->ndims &&
        frx__etype(b->etype)->ndims != b->ndims)
        complain(&nerr, vet, "'mesh.etype' %s needs a %d-D box, but 'mesh.n' "
                 "has %d values: use %s", vet->text,
                 frx__etype(b->etype)->ndims, b->ndims,
                 b->ndims == 3 ? "hex, tet, prism or pyramid"
                               : "quad or tri");
    const frx_cfgnode *vord = frx_cfg_get(mesh, "order");
    if (vord)
        converted(&nerr, frx__cfg_to_long(vord, 1, FRX__MAX_ORDER, &order,
                                          msg, sizeof msg), msg);
    b->order = (int)order;

    double total = (double)per_cell(b->etype);
    for (int k = 0; k < b->ndims; k++)
        total *= (double)b->n[k];
    if (b->ndims && nn > 0 && total > (double)MAX_ELES)
        complain(&nerr, vn, "'mesh.n' makes %.0f elements, more than frx "
                 "handles (%ld: METIS's 32-bit indices)", total, MAX_ELES);
    return nerr;
}

int frx__mesh_box_check(const frx_cfgnode *mesh)
{
    struct box b;
    return box_read(mesh, &b);
}

/* --------------------------------------------------------- generating */

/* Corners of a cell as lattice offsets, in hexahedron order; the first
 * four are the quadrilateral's. */
static const int cell_corner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0},
                                      {0, 1, 0}, {0, 0, 1}, {1, 0, 1},
                                      {1, 1, 1}, {0, 1, 1}};

/* Each shape point in Gmsh's order as the set of the element's corners
 * it is the mean of (bit i: corner i). */
static const unsigned char tri_shape[] = {1, 2, 4, 3, 6, 5};
static const unsigned char quad_shape[] = {1, 2, 4, 8, 3, 6, 12, 9, 15};
static const unsigned char tet_shape[] = {1, 2, 4, 8, 0x3, 0x6, 0x5, 0x9,
                                          0xc, 0xa};
static const unsigned char pri_shape[] = {
    1,    2,    4,    8,    16,   32,                   /* corners */
    0x03, 0x05, 0x09, 0x06, 0x12, 0x24, 0x18, 0x28, 0x30, /* edges */
    0x1b, 0x2d, 0x36};                                  /* faces 2-4 */
static const unsigned char hex_shape[] = {
    1, 2, 4, 8, 16, 32, 64, 128,                                 /* corners */
    0x03, 0x09, 0x11, 0x06, 0x22, 0x0c, 0x44, 0x88, 0x30, 0x90, 0x60,
    0xc0,                                                        /* edges */
    0x0f, 0x33, 0x99, 0x66, 0xcc, 0xf0,                          /* faces */
    0xff};                                                       /* centre */

/* The cell corners of each element a cell holds. A cube holds six
 * tetrahedra around its diagonal from corner 0 (0,0,0) to corner 6
 * (1,1,1), one for each order (a, b, c) of the axes: 0, then one step
 * along a, then along b, then 6 (Kuhn's, or Freudenthal's, split). Its
 * volume has the sign of the permutation (a, b, c), so the odd ones
 * swap corners 1 and 2 to turn right-handed. Every cube is split alike,
 * so each face of a cube is cut by its diagonal from its lowest corner
 * to its highest in every cube that has it: the faces conform, across
 * periodic sides too. */
static const int tet_cells[6][4] = {
    {0, 1, 2, 6}, /* x y z */
    {0, 5, 1, 6}, /* x z y, odd */
    {0, 2, 3, 6}, /* y x z, odd */
    {0, 3, 7, 6}, /* y z x */
    {0, 4, 5, 6}, /* z x y */
    {0, 7, 4, 6}, /* z y x, odd */
};
/* A cube's two prisms: the cells of the tri box, split by the diagonal
 * of the square below from (0,0) to (1,1), extruded along z (corners 0,
 * 1, 2 below, counter-clockwise seen from above, and 3, 4, 5 above
 * them). Each cube's z faces are cut by that diagonal, its x and y
 * faces whole: the faces conform, across periodic sides too. */
static const int pri_cells[2][6] = {{0, 1, 2, 4, 5, 6}, {0, 2, 3, 4, 6, 7}};
/* A cube's six pyramids: one on each face (the hexahedron's faces in
 * its order), the base the face's corners turned to run
 * counter-clockwise seen from inside, the apex the cube's centre (cell
 * point 8). Neighbouring cubes meet base to base. */
#define CENTRE 8
static const int pyr_cells[6][5] = {
    {0, 1, 2, 3, CENTRE}, {0, 4, 5, 1, CENTRE}, {0, 3, 7, 4, CENTRE},
    {1, 5, 6, 2, CENTRE}, {2, 6, 7, 3, CENTRE}, {4, 7, 6, 5, CENTRE}};
static const unsigned char pyr_shape[] = {
    1,    2,    4,    8,    16,                                 /* corners */
    0x03, 0x09, 0x11, 0x06, 0x12, 0x0c, 0x14, 0x18,             /* edges */
    0x0f};                                                      /* base */
static const int tri_cells[2][3] = {{0, 1, 2}, {0, 2, 3}};
static const int quad_cell[4] = {0, 1, 2, 3};
static const int hex_cell[8] = {0, 1, 2, 3, 4, 5, 6, 7};

struct lattice {
    int ndims;
    uint64_t m[3]; /* intervals per direction */
    uint64_t npts; /* its points; pyramids' own nodes follow */
};

/* Nodes of its own a pyramid box's cell has after the lattice: its
 * centre (order 1), or the middles of the lines from its corners to
 * its centre (order 2: the centre is a lattice point). */
static size_t cell_extra(const struct box *b)
{
    return b->etype != FRX_ETYPE_PYR ? 0 : b->order == 1 ? 1 : 8;
}

static uint64_t node_id(const struct lattice *L, const uint64_t *p)
{
    uint64_t id = 0;
    for (int k = L->ndims - 1; k >= 0; k--)
        id = id * (L->m[k] + 1) + p[k];
    return id;
}

/* Coordinate k at lattice place t (an interval's fraction too). */
static double lattice_x(const struct box *b, const struct lattice *L, int k,
                        double t)
{
    double m = (double)L->m[k];
    /* exact at both ends: lower for t = 0, upper for t = m */
    return (b->lo[k] * (m - t) + b->hi[k] * t) / m;
}

static int make_nodes(const struct box *b, const struct lattice *L,
                      struct frx__gmesh *g)
{
    size_t ncells = 1, extra = cell_extra(b);
    for (int k = 0; k < b->ndims; k++)
        ncells *= (size_t)b->n[k];
    g->nnodes = L->npts + ncells * extra;
    g->nodes = frx__calloc(g->nnodes * (size_t)b->ndims, sizeof *g->nodes,
                           "box mesh nodes");
    if (!g->nodes)
        return FRX_ENOMEM;
    for (size_t id = 0; id < L->npts; id++) {
        size_t r = id;
        for (int k = 0; k < b->ndims; k++) {
            uint64_t i = r % (L->m[k] + 1);
            r /= L->m[k] + 1;
            g->nodes[id * (size_t)b->ndims + (size_t)k] =
                lattice_x(b, L, k, (double)i);
        }
    }
    /* pyramids: cell c's centre, or the middle of the line from its
     * corner j to its centre, as node npts + extra*c + j */
    for (size_t c = 0; c < ncells * extra; c++) {
        size_t r = c / extra;
        int j = (int)(c % extra);
        for (int k = 0; k < b->ndims; k++) {
            double off = extra == 1 ? 0.5 : (cell_corner[j][k] + 0.5) / 2;
            double t = (double)(r % (size_t)b->n[k]) + off;
            r /= (size_t)b->n[k];
            g->nodes[(L->npts + c) * (size_t)b->ndims + (size_t)k] =
                lattice_x(b, L, k, t * b->order);
        }
    }
    return FRX_OK;
}

/* A pyramid's shape point that involves its apex (cell point CENTRE):
 * the apex, or the middle of the edge from it to cell corner j, in
 * cell c. */
static uint64_t pyr_node(const struct box *b, const struct lattice *L,
                         size_t c, const uint64_t *base, int j)
{
    uint64_t extra = cell_extra(b);
    if (j == CENTRE && b->order == 2) {
        uint64_t p[3] = {base[0] + 1, base[1] + 1, base[2] + 1};
        return node_id(L, p);
    }
    return L->npts + extra * c + (j == CENTRE ? 0 : (uint64_t)j);
}

/* Shape points of element e (of cell c): the cell's lattice corner
 * `base`, its corners as cell points, the masks of its shape points. */
static void element_nodes(const struct box *b, const struct lattice *L,
                          size_t c, const uint64_t *base, const int *corners,
                          const unsigned char *shape, size_t nshape,
                          uint64_t *out)
{
    int order = b->order;
    for (size_t s = 0; s < nshape; s++) {
        if (b->etype == FRX_ETYPE_PYR && shape[s] & 0x10) {
            /* the apex, or the edge to it from base corner i */
            int i = 0;
            while (i < 4 && !(shape[s] >> i & 1))
                i++;
            out[s] = pyr_node(b, L, c, base, i < 4 ? corners[i] : CENTRE);
            continue;
        }
        uint64_t p[3] = {0, 0, 0};
        unsigned cnt = 0;
        for (int i = 0; i < 8; i++) {
            if (!(shape[s] >> i & 1))
                continue;
            cnt++;
            for (int k = 0; k < L->ndims; k++)
                p[k] += (uint64_t)order * (uint64_t)cell_corner[corners[i]][k];
        }
        for (int k = 0; k < L->ndims; k++)
            p[k] = base[k] + p[k] / cnt; /* exact: see the file's head */
        out[s] = node_id(L, p);
    }
}

static int make_elements(const struct box *b, const struct lattice *L,
                         struct frx__gmesh *g)
{
    const struct frx__etype_info *t = frx__etype(b->etype);
    size_t ncells = 1, per = per_cell(b->etype);
    size_t nshape = t->nshape[b->order];
    for (int k = 0; k < b->ndims; k++)
        ncells *= (size_t)b->n[k];
    g->neles = ncells * per;
    g->etype = frx__calloc(g->neles, sizeof *g->etype, "box mesh elements");
    g->order = frx__calloc(g->neles, sizeof *g->order, "box mesh elements");
    g->eoff = frx__calloc(g->neles + 1, sizeof *g->eoff, "box mesh elements");
    g->enodes = frx__calloc(g->neles * nshape, sizeof *g->enodes,
                            "box mesh element nodes");
    if (!g->etype || !g->order || !g->eoff || !g->enodes)
        return FRX_ENOMEM;
    const unsigned char *shape = b->etype == FRX_ETYPE_TRI ? tri_shape
                               : b->etype == FRX_ETYPE_QUAD ? quad_shape
                               : b->etype == FRX_ETYPE_TET ? tet_shape
                               : b->etype == FRX_ETYPE_PRI ? pri_shape
                               : b->etype == FRX_ETYPE_PYR ? pyr_shape
                                                           : hex_shape;
    for (size_t c = 0; c < ncells; c++) {
        uint64_t base[3] = {0, 0, 0};
        size_t r = c;
        for (int k = 0; k < b->ndims; k++) {
            base[k] = (uint64_t)b->order * (r % (size_t)b->n[k]);
            r /= (size_t)b->n[k];
        }
        for (size_t h = 0; h < per; h++) {
            size_t e = c * per + h;
            const int *corners = b->etype == FRX_ETYPE_TRI ? tri_cells[h]
                               : b->etype == FRX_ETYPE_QUAD ? quad_cell
                               : b->etype == FRX_ETYPE_TET ? tet_cells[h]
                               : b->etype == FRX_ETYPE_PRI ? pri_cells[h]
                               : b->etype == FRX_ETYPE_PYR ? pyr_cells[h]
                                                           : hex_cell;
            g->etype[e] = b->etype;
            g->order[e] = b->order;
            g->eoff[e] = e * nshape;
            element_nodes(b, L, c, base, corners, shape, nshape,
                          g->enodes + e * nshape);
        }
    }
    g->eoff[g->neles] = g->neles * nshape;
    return FRX_OK;
}

/* A side's faces in one cell face, as offsets in the directions along
 * the side (bit 0: the first, bit 1: the second): an edge, a
 * quadrilateral, or (tetrahedra; prisms on the z sides) the two
 * triangles either side of the diagonal from its lowest corner to its
 * highest, as tet_cells and pri_cells cut it. Only the corners matter,
 * not their order (which the mesh id hashes, so it stays as it was). */
static const int edge_offs[1][4] = {{0, 1}};
static const int quad_offs[1][4] = {{0, 1, 2, 3}};
static const int tri_offs[2][4] = {{0, 1, 3}, {0, 3, 2}};

/* The faces of the box's side s (0 lower, 1 upper) normal to k. */
static struct frx__gface *side_faces(const struct box *b,
                                     const struct lattice *L, int k, int s,
                                     size_t *n)
{
    int tris = b->etype == FRX_ETYPE_TET ||
               (b->etype == FRX_ETYPE_PRI && k == 2); /* prisms' ends */
    const int(*offs)[4] = b->ndims == 2 ? edge_offs
                        : tris ? tri_offs : quad_offs;
    int per = tris ? 2 : 1;
    int nfc = b->ndims == 2 ? 2 : tris ? 3 : 4;
    size_t nf = (size_t)per;
    for (int d = 0; d < b->ndims; d++)
        if (d != k)
            nf *= (size_t)b->n[d];
    struct frx__gface *f = frx__calloc(nf, sizeof *f, "box mesh sides");
    if (!f)
        return NULL;
    for (size_t i = 0; i < nf; i++) {
        uint64_t cell[3] = {0, 0, 0};
        size_t r = i / (size_t)per;
        const int *off = offs[i % (size_t)per];
        for (int d = 0; d < b->ndims; d++) {
            if (d == k)
                continue;
            cell[d] = r % (size_t)b->n[d];
            r /= (size_t)b->n[d];
        }
        /* the face's corners: offsets 0 or 1 in the other directions */
        f[i].nn = nfc;
        for (int c = 0; c < nfc; c++) {
            uint64_t p[3];
            int bit = 0;
            for (int d = 0; d < b->ndims; d++)
                p[d] = d == k ? (uint64_t)s * L->m[d]
                              : (cell[d] + (uint64_t)(off[c] >> bit++ & 1)) *
                                    (uint64_t)b->order;
            f[i].n[c] = node_id(L, p);
        }
    }
    *n = nf;
    return f;
}

static char *dup_name(const char *s)
{
    char *d = frx__strdup(s);
    if (!d)
        frx_error(FRX_ENOMEM, "out of memory naming a boundary");
    return d;
}

static int make_sides(const struct box *b, const struct lattice *L,
                      struct frx__gmesh *g)
{
    g->bcs = frx__calloc(6, sizeof *g->bcs, "box mesh boundaries");
    g->pers = frx__calloc(3, sizeof *g->pers, "box mesh periodic pairs");
    if (!g->bcs || !g->pers)
        return FRX_ENOMEM;
    for (int k = 0; k < b->ndims; k++) {
        if (b->periodic[k]) {
            struct frx__gper *p = &g->pers[g->npers++];
            p->shift[k] = b->hi[k] - b->lo[k];
            if (!(p->name = dup_name(axis_names[k])))
                return FRX_ENOMEM;
            for (int s = 0; s < 2; s++)
                if (!(p->faces[s] = side_faces(b, L, k, s, &p->nfaces[s])))
                    return FRX_ENOMEM;
            continue;
        }
        for (int s = 0; s < 2; s++) {
            struct frx__gbc *bc = &g->bcs[g->nbcs++];
            if (!(bc->name = dup_name(bc_names[k][s])) ||
                !(bc->faces = side_faces(b, L, k, s, &bc->nfaces)))
                return FRX_ENOMEM;
        }
    }
    return FRX_OK;
}

int frx__mesh_box(const frx_cfgnode *mesh, struct frx__gmesh *g)
{
    struct box b;
    memset(g, 0, sizeof *g);
    frx__error_clear();
    if (box_read(mesh, &b))
        return FRX_ECONFIG; /* frx_errmsg() lists every problem */
    struct lattice L = {.ndims = b.ndims};
    L.npts = 1;
    for (int k = 0; k < b.ndims; k++) {
        L.m[k] = (uint64_t)b.order * (uint64_t)b.n[k];
        L.npts *= L.m[k] + 1;
    }
    g->ndims = b.ndims;
    char where[300];
    snprintf(g->source, sizeof g->source, "%s: the box mesh",
             frx__cfg_where(key_of(mesh), where, sizeof where));
    int rc = make_nodes(&b, &L, g);
    if (rc == FRX_OK)
        rc = make_elements(&b, &L, g);
    if (rc == FRX_OK)
        rc = make_sides(&b, &L, g);
    if (rc)
        frx__gmesh_free(g);
    return rc;
}
