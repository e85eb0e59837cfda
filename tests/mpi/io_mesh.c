/* SPDX-License-Identifier: BSD-3-Clause */
/* The made-up mesh of io_mesh.h. */
#include "io_mesh.h"

#include <stdlib.h>
#include <string.h>

/* Reference points: quadrilateral corners (the solution points) and a
 * second-order Lagrange quadrilateral in VTK's order (output points). */
static const double quad_upts[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
static const double quad_vis[9][2] = {{0, 0},     {1, 0},   {1, 1},
                                      {0, 1},     {.5, 0},  {1, .5},
                                      {.5, 1},    {0, .5},  {.5, .5}};
static const double tri_upts[3][2] = {{0, 0}, {1, 0}, {0, 1}};

int io_etype(uint64_t g)
{
    return g % 3 == 1 ? FRX_ETYPE_TRI : FRX_ETYPE_QUAD;
}

int io_owner(uint64_t g, int dist, int n)
{
    switch (dist) {
    case 0: return (int)(g * (uint64_t)n / IO_NELES);
    case 1: return (int)((g * 7 + 3) % (uint64_t)n);
    default:
        if (n < 3)
            return (int)(g % (uint64_t)n);
        if (io_etype(g) == FRX_ETYPE_TRI)
            return 0;
        return 1 + (int)(g % (uint64_t)(n - 2));
    }
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

double io_value(int values, uint64_t g, size_t k, size_t v, double x,
                double y)
{
    if (values == IO_LINEAR)
        return (double)(v + 1) + 0.25 * (double)(v + 2) * x -
               0.125 * (double)(v + 3) * y;
    uint64_t h = mix(g * 1000003u + k * 101u + v);
    uint64_t bits = (h >> 12) | 0x3ff0000000000000ull; /* [1, 2) */
    double d;
    memcpy(&d, &bits, sizeof d);
    return (h & 1 ? -1e3 : 1e-3) * (d - 1.0 + 1e-9);
}

static void corner(uint64_t g, double r, double s, double *xy)
{
    xy[0] = (double)(g % 7) + r * 1.5;
    xy[1] = (double)(g / 7) * 2.0 + s;
}

size_t io_vis(uint64_t g, double *xy)
{
    if (io_etype(g) == FRX_ETYPE_TRI) {
        for (size_t j = 0; j < 3; j++)
            corner(g, tri_upts[j][0], tri_upts[j][1], xy + 2 * j);
        return 3;
    }
    for (size_t j = 0; j < 9; j++)
        corner(g, quad_vis[j][0], quad_vis[j][1], xy + 2 * j);
    return 9;
}

static void put(size_t fpsize, void *u, size_t i, double x)
{
    if (fpsize == 4)
        ((float *)u)[i] = (float)x;
    else
        ((double *)u)[i] = x;
}

static int make_block(struct io_mesh *m, int ib, int etype, size_t ne,
                      size_t fpsize, int values)
{
    int tri = etype == FRX_ETYPE_TRI;
    size_t nupts = tri ? 3 : 4, nvis = tri ? 3 : 9;
    frx_solver_block *sb = &m->sb[ib];
    m->upts[ib] = calloc(ne * nupts * 2 + 1, sizeof(double));
    m->vis_pts[ib] = calloc(ne * nvis * 2 + 1, sizeof(double));
    m->vis_op[ib] = calloc(nvis * nupts, sizeof(double));
    m->u[ib] = calloc(nupts * IO_NVARS * ne + 1, fpsize);
    if (!m->upts[ib] || !m->vis_pts[ib] || !m->vis_op[ib] || !m->u[ib])
        return -1;
    for (size_t j = 0; j < nvis; j++)
        for (size_t k = 0; k < nupts; k++) {
            double w = k == j;
            if (!tri) { /* bilinear weights of corner k at point j */
                double r = quad_vis[j][0], s = quad_vis[j][1];
                w = (quad_upts[k][0] ? r : 1 - r) *
                    (quad_upts[k][1] ? s : 1 - s);
            }
            m->vis_op[ib][j * nupts + k] = w;
        }
    for (size_t e = 0; e < ne; e++) {
        uint64_t g = m->gid[ib][e];
        io_vis(g, m->vis_pts[ib] + e * nvis * 2);
        for (size_t k = 0; k < nupts; k++) {
            double *xy = m->upts[ib] + (e * nupts + k) * 2;
            const double *ref = tri ? tri_upts[k] : quad_upts[k];
            corner(g, ref[0], ref[1], xy);
            for (size_t v = 0; v < IO_NVARS; v++)
                put(fpsize, m->u[ib], (k * IO_NVARS + v) * ne + e,
                    io_value(values, g, k, v, xy[0], xy[1]));
        }
    }
    *sb = (frx_solver_block){.size = sizeof *sb, .nupts = nupts,
                             .neles = ne, .upts = m->upts[ib],
                             .vtk_type = 0, .nvis = nvis,
                             .vis_pts = m->vis_pts[ib],
                             .vis_op = m->vis_op[ib]};
    m->blocks[ib] = (struct frx__io_block){sb, etype, m->gid[ib], m->u[ib]};
    return 0;
}

int io_mesh_make(struct io_mesh *m, int rank, int nranks, int dist,
                 size_t fpsize, int values)
{
    static const char *names[IO_NVARS] = {"rho", "rho u", "p&<q>\""};
    memset(m, 0, sizeof *m);
    for (size_t v = 0; v < IO_NVARS; v++)
        m->vars[v].name = names[v];
    m->f = (struct frx__io_fields){.ndims = 2, .fpsize = fpsize,
                                   .nvars = IO_NVARS, .vars = m->vars,
                                   .var_size = sizeof m->vars[0],
                                   .blocks = m->blocks};
    /* blocks only for the types this rank holds, as a mesh gives them */
    static const int types[2] = {FRX_ETYPE_QUAD, FRX_ETYPE_TRI};
    for (int t = 0; t < 2; t++) {
        size_t ne = 0;
        for (uint64_t g = 0; g < IO_NELES; g++)
            ne += io_etype(g) == types[t] && io_owner(g, dist, nranks) == rank;
        if (!ne)
            continue;
        int ib = (int)m->f.nblocks++;
        m->gid[ib] = calloc(ne, sizeof(uint64_t));
        if (!m->gid[ib])
            return -1;
        ne = 0;
        for (uint64_t g = 0; g < IO_NELES; g++)
            if (io_etype(g) == types[t] && io_owner(g, dist, nranks) == rank)
                m->gid[ib][ne++] = g;
        if (make_block(m, ib, types[t], ne, fpsize, values))
            return -1;
    }
    return 0;
}

void io_mesh_free(struct io_mesh *m)
{
    for (int i = 0; i < 2; i++) {
        free(m->gid[i]);
        free(m->upts[i]);
        free(m->vis_pts[i]);
        free(m->vis_op[i]);
        free(m->u[i]);
    }
    memset(m, 0, sizeof *m);
}
