/* SPDX-License-Identifier: BSD-3-Clause */
/* Gmsh .msh files for the tests (gmshwrite.h), written from Gmsh's
 * format description: version 2.2 and 4.1, ASCII and little-endian
 * binary. */
#include "gmshwrite.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "gmshwrite: out of memory\n");
        abort();
    }
    return p;
}

/* ---------------------------------------------------------- the mesh */

/* Cell corners as lattice offsets, in hexahedron order. */
static const int corner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0},
                                 {0, 1, 0}, {0, 0, 1}, {1, 0, 1},
                                 {1, 1, 1}, {0, 1, 1}};
static const int hex_edges[12][2] = {{0, 1}, {0, 3}, {0, 4}, {1, 2},
                                     {1, 5}, {2, 3}, {2, 6}, {3, 7},
                                     {4, 5}, {4, 7}, {5, 6}, {6, 7}};
static const int hex_faces[6][4] = {{0, 3, 2, 1}, {0, 1, 5, 4},
                                    {0, 4, 7, 3}, {1, 2, 6, 5},
                                    {2, 3, 7, 6}, {4, 5, 6, 7}};
/* Gmsh's 10-node tetrahedron: points 4..9 on these edges. */
static const int tet_edges[6][2] = {{0, 1}, {1, 2}, {2, 0},
                                    {3, 0}, {3, 2}, {3, 1}};
/* A cube's six tetrahedra around its diagonal from corner 0 to corner
 * 6 (Kuhn's split): for each order (a, b, c) of the axes, 0, a step
 * along a, then along b, then 6. The odd orders are left-handed and
 * get corners 0 and 3 swapped (the box source swaps 1 and 2: the
 * reader must take any right-handed order). */
static const int tet_paths[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                    {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
static const int tet_odd[6] = {0, 1, 1, 0, 0, 1};
/* A cube's two prisms, the box source's (its square cut by the diagonal
 * from (0,0) to (1,1), extruded along z), in other right-handed corner
 * orders: the first upside down (corners 0-2 on top, clockwise seen
 * from above), the second turned (starting at cube corner 2). */
static const int pri_cells[2][6] = {{4, 6, 5, 0, 2, 1}, {2, 3, 0, 6, 7, 4}};
/* Gmsh's 18-node prism: points 6..14 on these edges, 15..17 amid these
 * faces (MPrism18). */
static const int pri_edges[9][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 4},
                                    {2, 5}, {3, 4}, {3, 5}, {4, 5}};
static const int pri_quads[3][4] = {{0, 1, 4, 3}, {0, 3, 5, 2},
                                    {1, 2, 5, 4}};
/* Gmsh's 14-node pyramid: points 5..12 on these edges
 * (MPyramid::edges_pyramid), 13 amid the base. */
static const int pyr_edges[8][2] = {{0, 1}, {0, 3}, {0, 4}, {1, 2},
                                    {1, 4}, {2, 3}, {2, 4}, {3, 4}};
/* The box's cut into pyramids: one on each cube face (hex_faces), the
 * apex at the centre, each base started at another of its corners so
 * that the reader sees other right-handed orders than the box's. With
 * tetrahedra beside (gw_spec.pyr_tets) a cube holds one pyramid on its
 * x-low face, the apex at its corner 6 (1,1,1), and four tetrahedra
 * from corner 6 to the triangles of its y-low and z-low faces (each cut
 * by its diagonal from corner 0): every face but the x-low one is cut
 * as Kuhn's tetrahedra cut it. */
static const int trans_tets[4][4] = {{0, 1, 5, 6}, {0, 5, 4, 6},
                                     {0, 1, 2, 6}, {0, 2, 3, 6}};

struct lat {
    int nd, o; /* o: lattice points per cell edge (the order, doubled
                  for pyramids: their apexes and edges to it) */
    int ord;   /* the elements' order */
    int L[3];
};

static uint64_t tag_of(const struct lat *l, const int *p)
{
    uint64_t id = (uint64_t)p[0] +
                  (uint64_t)l->L[0] * ((uint64_t)p[1] +
                                       (uint64_t)l->L[1] * (uint64_t)p[2]);
    return 2 * id + 101;
}

/* The lattice point that is the mean of points a[0..n). */
static uint64_t mean_tag(const struct lat *l, int (*a)[3], int n)
{
    int p[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < n; i++)
            p[k] += a[i][k];
        p[k] /= n;
    }
    return tag_of(l, p);
}

static int order_of(int type)
{
    return type == 8 || type == 9 || type == 10 || type == 16 ||
                   type == 11 || type == 12 || type == 17 || type == 13 ||
                   type == 14
               ? 2 : 1;
}

static struct gw_ele *add(struct gw_mesh *m, int type, int phys)
{
    if (m->neles == GW_MAX_ELES)
        abort();
    struct gw_ele *e = &m->eles[m->neles];
    memset(e, 0, sizeof *e);
    e->tag = ++m->neles;
    e->type = type;
    e->phys = phys;
    return e;
}

/* Shape points of a cell's element with corners c (lattice points),
 * in Gmsh order, for the given type. */
static void shape(const struct lat *l, int type, int (*c)[3], int nc,
                  struct gw_ele *e)
{
    for (int i = 0; i < nc; i++)
        e->n[e->nn++] = tag_of(l, c[i]);
    if (order_of(type) == 1)
        return;
    int two[2][3], four[4][3];
    if (type == 11) {
        for (int i = 0; i < 6; i++) {
            memcpy(two[0], c[tet_edges[i][0]], sizeof two[0]);
            memcpy(two[1], c[tet_edges[i][1]], sizeof two[1]);
            e->n[e->nn++] = mean_tag(l, two, 2);
        }
        return;
    }
    if (type == 13) {
        for (int i = 0; i < 9; i++) {
            memcpy(two[0], c[pri_edges[i][0]], sizeof two[0]);
            memcpy(two[1], c[pri_edges[i][1]], sizeof two[1]);
            e->n[e->nn++] = mean_tag(l, two, 2);
        }
        for (int f = 0; f < 3; f++) {
            for (int k = 0; k < 4; k++)
                memcpy(four[k], c[pri_quads[f][k]], sizeof four[k]);
            e->n[e->nn++] = mean_tag(l, four, 4);
        }
        return;
    }
    if (type == 14) {
        for (int i = 0; i < 8; i++) {
            memcpy(two[0], c[pyr_edges[i][0]], sizeof two[0]);
            memcpy(two[1], c[pyr_edges[i][1]], sizeof two[1]);
            e->n[e->nn++] = mean_tag(l, two, 2);
        }
        e->n[e->nn++] = mean_tag(l, c, 4);
        return;
    }
    if (nc <= 4) { /* line, triangle, quadrilateral: edges, centre */
        for (int i = 0; i < (nc == 2 ? 1 : nc); i++) {
            memcpy(two[0], c[i], sizeof two[0]);
            memcpy(two[1], c[(i + 1) % nc], sizeof two[1]);
            e->n[e->nn++] = mean_tag(l, two, 2);
        }
        if (type == 10)
            e->n[e->nn++] = mean_tag(l, c, 4);
        return;
    }
    if (nc != 8) /* only hexahedra are left; says so to gcc -O3 too */
        abort();
    for (int i = 0; i < 12; i++) {
        memcpy(two[0], c[hex_edges[i][0]], sizeof two[0]);
        memcpy(two[1], c[hex_edges[i][1]], sizeof two[1]);
        e->n[e->nn++] = mean_tag(l, two, 2);
    }
    if (type == 17)
        return;
    for (int f = 0; f < 6; f++) {
        for (int k = 0; k < 4; k++)
            memcpy(four[k], c[hex_faces[f][k]], sizeof four[k]);
        e->n[e->nn++] = mean_tag(l, four, 4);
    }
    e->n[e->nn++] = mean_tag(l, c, 8);
}

static int is_tet(int type)
{
    return type == 4 || type == 11;
}

static int is_pri(int type)
{
    return type == 6 || type == 13;
}

static int is_pyr(int type)
{
    return type == 7 || type == 14;
}

/* 6 times the signed volume of the tetrahedron (a, b, c, d). */
static long vol6(const int *a, const int *b, const int *c, const int *d)
{
    long u[3][3];
    for (int k = 0; k < 3; k++) {
        u[0][k] = b[k] - a[k];
        u[1][k] = c[k] - a[k];
        u[2][k] = d[k] - a[k];
    }
    return u[0][0] * (u[1][1] * u[2][2] - u[1][2] * u[2][1]) -
           u[0][1] * (u[1][0] * u[2][2] - u[1][2] * u[2][0]) +
           u[0][2] * (u[1][0] * u[2][1] - u[1][1] * u[2][0]);
}

/* A cube's pyramids (and tetrahedra, with pyr_tets), corners c[8]. */
static void pyr_cube(const struct gw_spec *s, const struct lat *l,
                     int (*c)[3], int type, int phys, struct gw_mesh *m)
{
    int v[5][3];
    if (s->pyr_tets) {
        static const int base[4] = {0, 3, 7, 4}; /* x low, turned below */
        for (int q = 0; q < 4; q++)
            memcpy(v[q], c[base[q]], sizeof v[q]);
        memcpy(v[4], c[6], sizeof v[4]);
        if (vol6(v[0], v[1], v[3], v[4]) < 0) { /* turn the base */
            memcpy(v[1], c[4], sizeof v[1]);
            memcpy(v[3], c[3], sizeof v[3]);
        }
        shape(l, type, v, 5, add(m, type, phys));
        int tt = type == 7 ? 4 : 11;
        for (int t = 0; t < 4; t++) {
            for (int q = 0; q < 4; q++)
                memcpy(v[q], c[trans_tets[t][q]], sizeof v[q]);
            if (vol6(v[0], v[1], v[2], v[3]) < 0) {
                memcpy(v[1], c[trans_tets[t][2]], sizeof v[1]);
                memcpy(v[2], c[trans_tets[t][1]], sizeof v[2]);
            }
            shape(l, tt, v, 4, add(m, tt, phys));
        }
        return;
    }
    for (int f = 0; f < 6; f++) {
        /* the face's corners, counter-clockwise seen from inside */
        for (int q = 0; q < 4; q++)
            memcpy(v[q], c[hex_faces[f][(4 - q + f) % 4]], sizeof v[q]);
        for (int k = 0; k < 3; k++) {
            v[4][k] = 0;
            for (int q = 0; q < 8; q++)
                v[4][k] += c[q][k];
            v[4][k] /= 8; /* exact: pyramids double the lattice */
        }
        shape(l, type, v, 5, add(m, type, phys));
    }
}

/* The Gmsh type of cell idx. */
static int cell_type(const struct gw_spec *s, const int *idx)
{
    if (s->type3 && idx[s->axis2] >= s->from3)
        return s->type3;
    return s->type2 && idx[s->axis2] >= s->from2 ? s->type2 : s->type;
}

static void cells(const struct gw_spec *s, const struct lat *l,
                  struct gw_mesh *m)
{
    int nz = l->nd == 3 ? s->n[2] : 1;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < s->n[1]; j++)
            for (int i = 0; i < s->n[0]; i++) {
                int c[8][3], base[3] = {i, j, k};
                for (int v = 0; v < 8; v++)
                    for (int d = 0; d < 3; d++)
                        c[v][d] = l->o * (base[d] + corner[v][d]);
                int phys = s->region ? 1 : 0, type = cell_type(s, base);
                if (type == 2 || type == 9) {
                    int t0[3][3], t1[3][3];
                    memcpy(t0[0], c[0], sizeof t0[0]);
                    memcpy(t0[1], c[1], sizeof t0[0]);
                    memcpy(t0[2], c[2], sizeof t0[0]);
                    memcpy(t1[0], c[0], sizeof t1[0]);
                    memcpy(t1[1], c[2], sizeof t1[0]);
                    memcpy(t1[2], c[3], sizeof t1[0]);
                    shape(l, type, t0, 3, add(m, type, phys));
                    shape(l, type, t1, 3, add(m, type, phys));
                } else if (is_pyr(type)) {
                    pyr_cube(s, l, c, type, phys, m);
                } else if (is_pri(type)) {
                    for (int h = 0; h < 2; h++) {
                        int v[6][3];
                        for (int q = 0; q < 6; q++)
                            memcpy(v[q], c[pri_cells[h][q]], sizeof v[q]);
                        shape(l, type, v, 6, add(m, type, phys));
                    }
                } else if (is_tet(type)) {
                    for (int t = 0; t < 6; t++) {
                        int v[4][3], p[3] = {0, 0, 0};
                        for (int q = 0; q < 4; q++) {
                            if (q == 3)
                                p[0] = p[1] = p[2] = 1;
                            else if (q > 0)
                                p[tet_paths[t][q - 1]] = 1;
                            int w = tet_odd[t] && (q == 0 || q == 3) ? 3 - q
                                                                     : q;
                            for (int d = 0; d < 3; d++)
                                v[w][d] = l->o * (base[d] + p[d]);
                        }
                        shape(l, type, v, 4, add(m, type, phys));
                    }
                } else {
                    shape(l, type, c, l->nd == 2 ? 4 : 8,
                          add(m, type, phys));
                }
            }
}

/* The faces of side sd (k = sd / 2 at its low or high end). */
static void side(const struct gw_spec *s, const struct lat *l, int sd,
                 struct gw_mesh *m)
{
    int k = sd / 2, a = (k + 1) % l->nd, b = (k + 2) % l->nd;
    int na = s->n[a], nb = l->nd == 3 ? s->n[b] : 1;
    /* a cell's side: an edge, a quadrilateral, or (tetrahedra; prisms
     * on the z sides) the two triangles either side of its diagonal
     * from (0, 0) to (1, 1) */
    static const int off[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    static const int quad[1][4] = {{0, 1, 2, 3}}, tri[2][4] = {
        {0, 1, 2}, {0, 2, 3}};
    for (int j = 0; j < nb; j++)
        for (int i = 0; i < na; i++) {
            int idx[3] = {0, 0, 0};
            idx[k] = sd % 2 ? s->n[k] - 1 : 0;
            idx[a] = i;
            if (l->nd == 3)
                idx[b] = j;
            int type = cell_type(s, idx);
            int tris = is_tet(type) || (is_pri(type) && k == 2) ||
                       (is_pyr(type) && s->pyr_tets && sd != 0);
            int ftype = l->nd == 2 ? (l->ord == 2 ? 8 : 1)
                      : tris ? (l->ord == 1 ? 2 : 9)
                      : l->ord == 1 ? 3 : type == 17 ? 16 : 10;
            const int(*pieces)[4] = tris ? tri : quad;
            int npieces = tris ? 2 : 1, nc = l->nd == 2 ? 2 : tris ? 3 : 4;
            for (int h = 0; h < npieces; h++) {
                struct gw_ele *e = add(m, ftype, 2 + sd);
                int c[4][3];
                for (int v = 0; v < nc; v++) {
                    const int *o = off[pieces[h][v]];
                    c[v][k] = sd % 2 ? l->L[k] - 1 : 0;
                    c[v][a] = l->o * (i + o[0]);
                    if (l->nd == 3)
                        c[v][b] = l->o * (j + o[1]);
                    else
                        c[v][2] = 0;
                }
                if (l->nd == 2)
                    c[0][2] = c[1][2] = 0;
                shape(l, ftype, c, nc, e);
            }
        }
}

void gw_make(const struct gw_spec *s, struct gw_mesh *m)
{
    struct lat l = {.nd = s->n[2] ? 3 : 2, .o = order_of(s->type),
                    .ord = order_of(s->type)};
    /* pyramids around a cube's centre: the centre and the middles of
     * the edges to it on the lattice too */
    if (((is_pyr(s->type) || is_pyr(s->type2) || is_pyr(s->type3)) &&
         !s->pyr_tets))
        l.o *= 2;
    memset(m, 0, sizeof *m);
    l.L[2] = 1;
    for (int k = 0; k < l.nd; k++)
        l.L[k] = l.o * s->n[k] + 1;
    m->nnodes = (size_t)l.L[0] * (size_t)l.L[1] * (size_t)l.L[2];
    m->ntag = xcalloc(m->nnodes, sizeof *m->ntag);
    m->x = xcalloc(m->nnodes, sizeof *m->x);
    for (size_t id = 0; id < m->nnodes; id++) {
        size_t r = id;
        int p[3];
        for (int k = 0; k < 3; k++) {
            p[k] = (int)(r % (size_t)l.L[k]);
            r /= (size_t)l.L[k];
            m->x[id][k] = (double)p[k] / l.o;
        }
        m->ntag[id] = tag_of(&l, p);
        if (s->map)
            s->map(m->x[id]);
    }
    m->eles = xcalloc(GW_MAX_ELES, sizeof *m->eles);
    for (int sd = 0; sd < 2 * l.nd; sd++)
        if (s->sides[sd]) {
            side(s, &l, sd, m);
            struct gw_name *nm = &m->names[m->nnames++];
            nm->dim = l.nd - 1;
            nm->tag = 2 + sd;
            snprintf(nm->name, sizeof nm->name, "%s", s->sides[sd]);
        }
    cells(s, &l, m);
    if (s->region) {
        struct gw_name *nm = &m->names[m->nnames++];
        nm->dim = l.nd;
        nm->tag = 1;
        snprintf(nm->name, sizeof nm->name, "%s", s->region);
    }
    struct gw_ele *pt = add(m, 15, 20);
    pt->n[pt->nn++] = m->ntag[0];
    struct gw_name *nm = &m->names[m->nnames++];
    nm->dim = 0;
    nm->tag = 20;
    snprintf(nm->name, sizeof nm->name, "corner");
}

void gw_free(struct gw_mesh *m)
{
    free(m->ntag);
    free(m->x);
    free(m->eles);
    memset(m, 0, sizeof *m);
}

/* ---------------------------------------------------------- writing */

static void put(struct gw_file *f, const void *d, size_t n)
{
    if (f->n + n + 1 > f->cap) {
        f->cap = 2 * (f->n + n + 1024);
        f->p = realloc(f->p, f->cap);
        if (!f->p)
            abort();
    }
    memcpy(f->p + f->n, d, n);
    for (size_t i = 0; i < n; i++)
        f->lines += ((const char *)d)[i] == '\n';
    f->n += n;
    f->p[f->n] = 0;
}

static void putf(struct gw_file *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void putf(struct gw_file *f, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    put(f, buf, (size_t)n);
}

static void put_le(struct gw_file *f, uint64_t v, int n)
{
    unsigned char b[8];
    for (int i = 0; i < n; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    put(f, b, (size_t)n);
}

static void put_dbl(struct gw_file *f, double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    put_le(f, bits, 8);
}

static uint64_t line_now(const struct gw_file *f)
{
    return f->lines + 1;
}

static int dim_of(int type)
{
    return type == 15 ? 0 : type == 1 || type == 8 ? 1
         : type == 4 || type == 11 || type == 5 || type == 12 || type == 17 ||
                   type == 6 || type == 13 || type == 7 || type == 14
             ? 3 : 2;
}

static void header(struct gw_file *f, const struct gw_mesh *m, int version,
                   int binary)
{
    putf(f, "$MeshFormat\n%s %d 8\n", version == 22 ? "2.2" : "4.1", binary);
    if (binary) {
        put_le(f, 1, 4);
        putf(f, "\n");
    }
    putf(f, "$EndMeshFormat\n$PhysicalNames\n%zu\n", m->nnames);
    for (size_t i = 0; i < m->nnames; i++)
        putf(f, "%d %d \"%s\"\n", m->names[i].dim, m->names[i].tag,
             m->names[i].name);
    putf(f, "$EndPhysicalNames\n");
}

static void write22(const struct gw_mesh *m, int binary, struct gw_file *f)
{
    putf(f, "$Nodes\n%zu\n", m->nnodes);
    for (size_t i = 0; i < m->nnodes; i++) {
        if (!binary) {
            putf(f, "%llu %.17g %.17g %.17g\n",
                 (unsigned long long)m->ntag[i], m->x[i][0], m->x[i][1],
                 m->x[i][2]);
            continue;
        }
        put_le(f, m->ntag[i], 4);
        for (int k = 0; k < 3; k++)
            put_dbl(f, m->x[i][k]);
    }
    putf(f, "%s$EndNodes\n$Elements\n%zu\n", binary ? "\n" : "", m->neles);
    for (size_t i = 0; i < m->neles; i++) {
        const struct gw_ele *e = &m->eles[i];
        int elem = e->phys ? e->phys : 1;
        if (!binary) {
            f->line[i] = line_now(f);
            putf(f, "%llu %d 2 %d %d", (unsigned long long)e->tag, e->type,
                 e->phys, elem);
            for (int k = 0; k < e->nn; k++)
                putf(f, " %llu", (unsigned long long)e->n[k]);
            putf(f, "\n");
            continue;
        }
        int32_t hdr[3] = {e->type, 1, 2};
        for (int k = 0; k < 3; k++)
            put_le(f, (uint32_t)hdr[k], 4);
        put_le(f, e->tag, 4);
        put_le(f, (uint32_t)e->phys, 4);
        put_le(f, (uint32_t)elem, 4);
        for (int k = 0; k < e->nn; k++)
            put_le(f, e->n[k], 4);
    }
    putf(f, "%s$EndElements\n", binary ? "\n" : "");
}

/* 4.1: one entity per (dimension, physical tag); tag 999 for none. */
static int ent_tag(int phys)
{
    return phys ? phys : 999;
}

static void put_size(struct gw_file *f, int binary, uint64_t v,
                     const char *sep)
{
    if (binary)
        put_le(f, v, 8);
    else
        putf(f, "%llu%s", (unsigned long long)v, sep);
}

static void put_int(struct gw_file *f, int binary, int v, const char *sep)
{
    if (binary)
        put_le(f, (uint32_t)v, 4);
    else
        putf(f, "%d%s", v, sep);
}

static void put_real(struct gw_file *f, int binary, double v,
                     const char *sep)
{
    if (binary)
        put_dbl(f, v);
    else
        putf(f, "%.17g%s", v, sep);
}

static void entities41(const struct gw_mesh *m, int binary,
                       struct gw_file *f)
{
    int ent[4][64], nent[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < m->neles; i++) {
        int d = dim_of(m->eles[i].type), t = ent_tag(m->eles[i].phys), j = 0;
        while (j < nent[d] && ent[d][j] != t)
            j++;
        if (j == nent[d])
            ent[d][nent[d]++] = t;
    }
    putf(f, "$Entities\n");
    for (int d = 0; d < 4; d++)
        put_size(f, binary, (uint64_t)nent[d], d < 3 ? " " : "\n");
    for (int d = 0; d < 4; d++)
        for (int j = 0; j < nent[d]; j++) {
            put_int(f, binary, ent[d][j], " ");
            for (int k = 0; k < (d ? 6 : 3); k++)
                put_real(f, binary, 0, " ");
            int phys = ent[d][j] == 999 ? 0 : ent[d][j];
            put_size(f, binary, phys ? 1 : 0, " ");
            if (phys)
                put_int(f, binary, phys, " ");
            if (d)
                put_size(f, binary, 0, " ");
            if (!binary)
                putf(f, "\n");
        }
    putf(f, "%s$EndEntities\n", binary ? "\n" : "");
}

static void write41(const struct gw_mesh *m, int binary, struct gw_file *f)
{
    entities41(m, binary, f);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < m->nnodes; i++) {
        lo = m->ntag[i] < lo ? m->ntag[i] : lo;
        hi = m->ntag[i] > hi ? m->ntag[i] : hi;
    }
    putf(f, "$Nodes\n");
    put_size(f, binary, 1, " ");
    put_size(f, binary, m->nnodes, " ");
    put_size(f, binary, lo, " ");
    put_size(f, binary, hi, "\n");
    put_int(f, binary, 2, " ");
    put_int(f, binary, 1, " ");
    put_int(f, binary, 0, " ");
    put_size(f, binary, m->nnodes, "\n");
    for (size_t i = 0; i < m->nnodes; i++)
        put_size(f, binary, m->ntag[i], "\n");
    for (size_t i = 0; i < m->nnodes; i++)
        for (int k = 0; k < 3; k++)
            put_real(f, binary, m->x[i][k], k < 2 ? " " : "\n");
    putf(f, "%s$EndNodes\n$Elements\n", binary ? "\n" : "");
    /* blocks: runs of elements of one dimension, entity and type */
    size_t nblocks = 0;
    for (size_t i = 0; i < m->neles; i++)
        nblocks += i == 0 || m->eles[i].type != m->eles[i - 1].type ||
                   m->eles[i].phys != m->eles[i - 1].phys;
    put_size(f, binary, nblocks, " ");
    put_size(f, binary, m->neles, " ");
    put_size(f, binary, 1, " ");
    put_size(f, binary, m->neles, "\n");
    for (size_t i = 0; i < m->neles;) {
        size_t j = i;
        while (j < m->neles && m->eles[j].type == m->eles[i].type &&
               m->eles[j].phys == m->eles[i].phys)
            j++;
        put_int(f, binary, dim_of(m->eles[i].type), " ");
        put_int(f, binary, ent_tag(m->eles[i].phys), " ");
        put_int(f, binary, m->eles[i].type, " ");
        put_size(f, binary, j - i, "\n");
        for (; i < j; i++) {
            const struct gw_ele *e = &m->eles[i];
            if (!binary)
                f->line[i] = line_now(f);
            put_size(f, binary, e->tag, "");
            for (int k = 0; k < e->nn; k++) {
                if (!binary)
                    putf(f, " ");
                put_size(f, binary, e->n[k], "");
            }
            if (!binary)
                putf(f, "\n");
        }
    }
    putf(f, "%s$EndElements\n", binary ? "\n" : "");
}

void gw_write(const struct gw_mesh *m, int version, int binary,
              struct gw_file *f)
{
    memset(f, 0, sizeof *f);
    f->line = xcalloc(m->neles, sizeof *f->line);
    header(f, m, version, binary);
    if (version == 22)
        write22(m, binary, f);
    else
        write41(m, binary, f);
}

void gw_file_free(struct gw_file *f)
{
    free(f->p);
    free(f->line);
    memset(f, 0, sizeof *f);
}

const char *gw_save(const char *dir, const char *name, const char *p,
                    size_t n)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(p, 1, n, fp) != n || fclose(fp)) {
        perror(path);
        abort();
    }
    return path;
}

int gw_line_of(const char *text, const char *s)
{
    const char *p = strstr(text, s);
    if (!p)
        return 0;
    int line = 1;
    for (const char *q = text; q < p; q++)
        line += *q == '\n';
    return line;
}
