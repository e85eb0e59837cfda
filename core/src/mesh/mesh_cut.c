/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: one rank's part cut out of the global mesh (mesh-impl.h): its
 * blocks (one per element type and shape order, ascending), interior,
 * peer and boundary faces in the global faces' order, and the periodic
 * pairs. */
#include "mesh/mesh-impl.h"

#include <stdlib.h>
#include <string.h>

struct cut {
    const struct frx__gmesh *g;
    const struct frx__conn *c;
    const int *part;
    int rank, nranks;
    uint32_t *lblk, *lele; /* [neles] block and index of local elements */
};

static frx_face side_of(const struct cut *k, uint64_t e, uint16_t f,
                        uint16_t rot)
{
    frx_face s = {.blk = k->lblk[e], .ele = k->lele[e], .face = f,
                  .rot = rot};
    return s;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int make_blocks(struct frx__mpart *m, struct cut *k)
{
    const struct frx__gmesh *g = k->g;
    int keys[64];
    size_t nkeys = 0;
    for (size_t e = 0; e < g->neles; e++) {
        if (k->part[e] != k->rank)
            continue;
        int key = g->etype[e] * 16 + g->order[e];
        size_t i = 0;
        while (i < nkeys && keys[i] != key)
            i++;
        if (i == nkeys && nkeys < 64)
            keys[nkeys++] = key;
    }
    qsort(keys, nkeys, sizeof *keys, cmp_int);
    m->blocks = frx__calloc(nkeys, sizeof *m->blocks, "mesh blocks");
    if (!m->blocks)
        return FRX_ENOMEM;
    m->info.nblocks = nkeys;
    for (size_t e = 0; e < g->neles; e++) {
        if (k->part[e] != k->rank)
            continue;
        size_t b = 0;
        while (keys[b] != g->etype[e] * 16 + g->order[e])
            b++;
        k->lblk[e] = (uint32_t)b;
        k->lele[e] = (uint32_t)m->blocks[b].neles++;
    }
    int d = g->ndims;
    for (size_t b = 0; b < nkeys; b++) {
        struct frx__mpart_block *B = &m->blocks[b];
        const struct frx__etype_info *t = frx__etype(keys[b] / 16);
        B->etype = keys[b] / 16;
        B->order = keys[b] % 16;
        B->nshape = t->nshape[B->order];
        B->nfaces = (size_t)t->nfaces;
        B->gid = frx__calloc(B->neles, sizeof *B->gid, "mesh block");
        B->shape = frx__calloc(B->neles * B->nshape * (size_t)d,
                               sizeof *B->shape, "mesh block shape points");
        if (!B->gid || !B->shape)
            return FRX_ENOMEM;
    }
    for (size_t e = 0; e < g->neles; e++) {
        if (k->part[e] != k->rank)
            continue;
        struct frx__mpart_block *B = &m->blocks[k->lblk[e]];
        size_t i = k->lele[e];
        B->gid[i] = e;
        for (size_t s = 0; s < B->nshape; s++)
            memcpy(B->shape + (i * B->nshape + s) * (size_t)d,
                   g->nodes + g->enodes[g->eoff[e] + s] * (size_t)d,
                   (size_t)d * sizeof *B->shape);
    }
    return FRX_OK;
}

/* Two passes over the global faces in order: count, then fill. */
static int make_faces(struct frx__mpart *m, struct cut *k)
{
    const struct frx__conn *c = k->c;
    size_t nbcs = k->g->nbcs;
    size_t *npeer = frx__calloc((size_t)k->nranks, sizeof *npeer, "peers");
    int *peer_of = frx__calloc((size_t)k->nranks, sizeof *peer_of, "peers");
    m->bcs = frx__calloc(nbcs, sizeof *m->bcs, "mesh boundaries");
    if (!npeer || !peer_of || !m->bcs) {
        free(npeer);
        free(peer_of);
        return FRX_ENOMEM;
    }
    m->info.nbcs = nbcs;
    size_t nif = 0;
    for (size_t i = 0; i < c->nfaces; i++) {
        const struct frx__fglob *F = &c->faces[i];
        int p0 = k->part[F->ele[0]];
        int p1 = F->ele[1] == FRX__NONE ? -1 : k->part[F->ele[1]];
        if (p1 < 0)
            m->bcs[F->bc].n += p0 == k->rank;
        else if (p0 == k->rank && p1 == k->rank)
            nif++;
        else if (p0 == k->rank || p1 == k->rank)
            npeer[p0 == k->rank ? p1 : p0]++;
    }
    for (int r = 0; r < k->nranks; r++)
        m->info.npeers += npeer[r] > 0;
    m->ifaces = frx__calloc(nif, sizeof *m->ifaces, "interior faces");
    m->peers = frx__calloc(m->info.npeers, sizeof *m->peers, "mesh peers");
    int rc = m->ifaces && m->peers ? FRX_OK : FRX_ENOMEM;
    for (int r = 0, j = 0; rc == FRX_OK && r < k->nranks; r++) {
        peer_of[r] = npeer[r] ? j : -1;
        if (!npeer[r])
            continue;
        struct frx__mpart_peer *P = &m->peers[j++];
        P->rank = r;
        P->faces = frx__calloc(npeer[r], sizeof *P->faces, "peer faces");
        P->periodic = frx__calloc(npeer[r], sizeof *P->periodic,
                                  "peer faces");
        P->canon = frx__calloc(npeer[r], sizeof *P->canon, "peer faces");
        if (!P->faces || !P->periodic || !P->canon)
            rc = FRX_ENOMEM;
    }
    for (size_t b = 0; rc == FRX_OK && b < nbcs; b++) {
        struct frx__mpart_bc *B = &m->bcs[b];
        B->name = frx__strdup(k->g->bcs[b].name);
        B->faces = frx__calloc(B->n, sizeof *B->faces, "boundary faces");
        if (!B->name || !B->faces)
            rc = frx_error(FRX_ENOMEM, "out of memory for boundary faces");
        B->n = 0;
    }
    for (size_t i = 0; rc == FRX_OK && i < c->nfaces; i++) {
        const struct frx__fglob *F = &c->faces[i];
        int p0 = k->part[F->ele[0]];
        int p1 = F->ele[1] == FRX__NONE ? -1 : k->part[F->ele[1]];
        frx_face s0 = p0 == k->rank
                          ? side_of(k, F->ele[0], F->face[0], F->rot)
                          : (frx_face){0};
        if (p1 < 0) {
            if (p0 == k->rank)
                m->bcs[F->bc].faces[m->bcs[F->bc].n++] = s0;
        } else if (p0 == k->rank && p1 == k->rank) {
            frx_mesh_iface *I = &m->ifaces[m->info.nifaces++];
            I->l = s0;
            I->r = side_of(k, F->ele[1], F->face[1], F->rot);
            I->periodic = F->periodic;
        } else if (p0 == k->rank || p1 == k->rank) {
            int other = p0 == k->rank ? p1 : p0;
            struct frx__mpart_peer *P = &m->peers[peer_of[other]];
            P->faces[P->n] = p0 == k->rank
                                 ? s0
                                 : side_of(k, F->ele[1], F->face[1], F->rot);
            P->canon[P->n] = p0 == k->rank;
            P->periodic[P->n++] = F->periodic;
        }
    }
    free(npeer);
    free(peer_of);
    return rc;
}

static int make_pers(struct frx__mpart *m, const struct frx__gmesh *g)
{
    m->pers = frx__calloc(g->npers, sizeof *m->pers, "periodic pairs");
    if (!m->pers)
        return FRX_ENOMEM;
    m->info.nperiodic = g->npers;
    for (size_t i = 0; i < g->npers; i++) {
        memcpy(m->pers[i].shift, g->pers[i].shift, sizeof m->pers[i].shift);
        if (!(m->pers[i].name = frx__strdup(g->pers[i].name)))
            return frx_error(FRX_ENOMEM, "out of memory naming a periodic "
                             "pair");
    }
    return FRX_OK;
}

int frx__mesh_cut(struct frx__mpart *m, const struct frx__gmesh *g,
                  const struct frx__conn *c, const int *part, int rank,
                  int nranks)
{
    struct cut k = {.g = g, .c = c, .part = part, .rank = rank,
                    .nranks = nranks};
    k.lblk = frx__calloc(g->neles, sizeof *k.lblk, "element map");
    k.lele = frx__calloc(g->neles, sizeof *k.lele, "element map");
    int rc = k.lblk && k.lele ? FRX_OK : FRX_ENOMEM;
    if (rc == FRX_OK)
        rc = make_blocks(m, &k);
    if (rc == FRX_OK)
        rc = make_faces(m, &k);
    if (rc == FRX_OK)
        rc = make_pers(m, g);
    free(k.lblk);
    free(k.lele);
    for (size_t e = 0; e < g->neles; e++)
        m->info.neles += part[e] == rank;
    m->info.neles_global = g->neles;
    m->info.ndims = g->ndims;
    m->info.rank = rank;
    m->info.nranks = nranks;
    return rc;
}

