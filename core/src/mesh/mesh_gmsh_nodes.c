/* SPDX-License-Identifier: BSD-3-Clause */
/* The Gmsh file's nodes in the global mesh: which the mesh's elements
 * use (in file order), their coordinates (a 2-D mesh must lie in a plane
 * z = constant), and the node of a file tag, for mesh_gmsh.c and
 * mesh_gmsh_faces.c. */
#include "mesh/gmsh-impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A problem with the file, at its place. */
#define ecode(m, where, ...) frx__msh_error(m, FRX_ECONFIG, where, __VA_ARGS__)

static int cmp_gnode(const void *a, const void *b)
{
    const struct frx__gnode *x = a, *y = b;
    return (x->tag > y->tag) - (x->tag < y->tag);
}

uint64_t frx__gbuild_node(const struct frx__gbuild *b, uint64_t tag)
{
    struct frx__gnode key = {tag, 0};
    const struct frx__gnode *p = bsearch(&key, b->map, b->m->nnodes,
                                         sizeof key, cmp_gnode);
    return p ? p->node : FRX__NONE - 1;
}

int frx__gbuild_map_nodes(struct frx__gbuild *b, size_t *nused)
{
    const struct frx__msh *m = b->m;
    char at[400];
    b->map = frx__calloc(m->nnodes, sizeof *b->map, "Gmsh nodes");
    uint64_t *num = b->fnode = frx__calloc(m->nnodes, sizeof *num,
                                           "Gmsh nodes");
    int rc = (b->map && num) || !m->nnodes ? FRX_OK : FRX_ENOMEM;
    for (size_t i = 0; rc == FRX_OK && i < m->nnodes; i++)
        b->map[i] = (struct frx__gnode){m->ntag[i], i};
    if (rc == FRX_OK)
        qsort(b->map, m->nnodes, sizeof *b->map, cmp_gnode);
    for (size_t i = 1; rc == FRX_OK && i < m->nnodes; i++)
        if (b->map[i].tag == b->map[i - 1].tag) {
            uint64_t x = b->map[i - 1].node, y = b->map[i].node;
            rc = ecode(m, m->nwhere[x > y ? x : y], "node %llu is defined a "
                       "second time (first at %s)",
                       (unsigned long long)b->map[i].tag,
                       frx__msh_place(m, m->nwhere[x < y ? x : y], at,
                                      sizeof at));
        }
    for (size_t i = 0; rc == FRX_OK && i < m->nnodes; i++)
        num[i] = FRX__NONE;
    for (size_t s = 0; rc == FRX_OK && s < b->nsel; s++) {
        const struct frx__msh_ele *e = &m->eles[b->sel[s]];
        int nn = frx__gmsh_type(e->type)->nnodes;
        for (int k = 0; rc == FRX_OK && k < nn; k++) {
            struct frx__gnode key = {m->enodes[e->off + (size_t)k], 0};
            struct frx__gnode *p = bsearch(&key, b->map, m->nnodes,
                                           sizeof key, cmp_gnode);
            if (!p)
                rc = ecode(m, e->where, "element %llu names node %llu, "
                           "which $Nodes does not define",
                           (unsigned long long)e->tag,
                           (unsigned long long)key.tag);
            else
                num[p->node] = 0;
        }
    }
    *nused = 0;
    for (size_t i = 0; rc == FRX_OK && i < m->nnodes; i++)
        if (num[i] == 0)
            num[i] = (*nused)++;
    for (size_t i = 0; rc == FRX_OK && i < m->nnodes; i++)
        b->map[i].node = num[b->map[i].node];
    return rc;
}

int frx__gbuild_make_nodes(struct frx__gbuild *b, size_t nused)
{
    const struct frx__msh *m = b->m;
    struct frx__gmesh *g = b->g;
    int d = b->ndims;
    g->nnodes = nused + b->nextra;
    if (g->nnodes >= UINT32_MAX)
        return ecode(m, FRX__NOWHERE, "%zu nodes, more than frx handles",
                     g->nnodes);
    g->nodes = frx__calloc(g->nnodes, (size_t)d * sizeof *g->nodes,
                           "mesh nodes");
    b->gtag = frx__calloc(g->nnodes, sizeof *b->gtag, "mesh nodes");
    if (!g->nodes || !b->gtag)
        return FRX_ENOMEM;
    double scale = 1;
    for (size_t i = 0; i < 3 * m->nnodes; i++)
        scale = fmax(scale, fabs(m->x[i]));
    size_t first = FRX__NONE;
    for (size_t i = 0; i < m->nnodes; i++) {
        uint64_t n = b->fnode[i];
        if (n == FRX__NONE)
            continue;
        b->gtag[n] = m->ntag[i];
        memcpy(g->nodes + n * (size_t)d, m->x + 3 * i,
               (size_t)d * sizeof *g->nodes);
        if (d == 3)
            continue;
        if (first == FRX__NONE)
            first = i;
        double z = m->x[3 * i + 2], z0 = m->x[3 * first + 2];
        if (fabs(z - z0) > 1e-12 * scale) {
            char at[400];
            return ecode(m, m->nwhere[i], "node %llu lies at z = %.17g but "
                         "node %llu (at %s) at z = %.17g: a 2-D mesh must "
                         "lie in a plane z = constant",
                         (unsigned long long)m->ntag[i], z,
                         (unsigned long long)m->ntag[first],
                         frx__msh_place(m, m->nwhere[first], at, sizeof at),
                         z0);
        }
    }
    return FRX_OK;
}
