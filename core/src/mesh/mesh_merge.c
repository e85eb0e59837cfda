/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: several parts of a partitioned mesh file made one rank's part
 * (mesh-impl.h), for a job of fewer ranks than the file has parts:
 *
 * - blocks: one per element type and shape order, the parts' elements
 *   in ascending global number (as a cut part has them);
 * - interior faces: the parts' own, and the faces between two parts of
 *   this rank, their canonical side on the left (the file marks it);
 * - peer faces: those with parts of another rank, per rank, ordered by
 *   the pair of parts (lower part, higher part) and within a pair as
 *   both parts list them, so both ranks list them alike;
 * - boundary faces: each part's, one part after the other. */
#include "mesh/mesh-impl.h"

#include <stdlib.h>
#include <string.h>

struct merge {
    const struct frx__mpart *parts;
    int n, first, nparts, nranks, rank;
    int *owner;          /* [nparts] the rank holding each part */
    uint32_t **blk;      /* [n][part's nblocks] merged block */
    uint32_t ***ele;     /* [n][part's nblocks][neles] merged element */
};

static frx_face moved(const struct merge *m, int k, frx_face f)
{
    frx_face g = f;
    g.blk = m->blk[k][f.blk];
    g.ele = m->ele[k][f.blk][f.ele];
    return g;
}

struct erow {
    uint64_t gid;
    int k;
    uint32_t b, e;
};

static int by_gid(const void *a, const void *b)
{
    uint64_t x = ((const struct erow *)a)->gid;
    uint64_t y = ((const struct erow *)b)->gid;
    return (x > y) - (x < y);
}

static int merge_blocks(struct merge *m, struct frx__mpart *out)
{
    int keys[64], nkeys = 0, d = out->info.ndims;
    for (int k = 0; k < m->n; k++)
        for (size_t b = 0; b < m->parts[k].info.nblocks; b++) {
            const struct frx__mpart_block *B = &m->parts[k].blocks[b];
            int key = B->etype * 16 + B->order, i = 0;
            while (i < nkeys && keys[i] != key)
                i++;
            if (i == nkeys && nkeys < 64)
                keys[nkeys++] = key;
        }
    for (int i = 1; i < nkeys; i++) /* ascending: few keys */
        for (int j = i; j > 0 && keys[j - 1] > keys[j]; j--) {
            int x = keys[j];
            keys[j] = keys[j - 1];
            keys[j - 1] = x;
        }
    out->blocks = frx__calloc((size_t)nkeys, sizeof *out->blocks,
                              "mesh blocks");
    if (!out->blocks)
        return FRX_ENOMEM;
    out->info.nblocks = (size_t)nkeys;
    int rc = FRX_OK;
    for (int i = 0; i < nkeys && !rc; i++) {
        struct frx__mpart_block *O = &out->blocks[i];
        size_t n = 0;
        for (int k = 0; k < m->n; k++)
            for (size_t b = 0; b < m->parts[k].info.nblocks; b++) {
                const struct frx__mpart_block *B = &m->parts[k].blocks[b];
                if (B->etype * 16 + B->order != keys[i])
                    continue;
                m->blk[k][b] = (uint32_t)i;
                O->etype = B->etype;
                O->order = B->order;
                O->nshape = B->nshape;
                O->nfaces = B->nfaces;
                n += B->neles;
            }
        struct erow *rows = frx__calloc(n, sizeof *rows, "element map");
        O->gid = frx__calloc(n, sizeof *O->gid, "mesh block");
        O->shape = frx__calloc(n * O->nshape * (size_t)d, sizeof *O->shape,
                               "mesh block shape points");
        if (!rows || !O->gid || !O->shape) {
            free(rows);
            return FRX_ENOMEM;
        }
        size_t j = 0;
        for (int k = 0; k < m->n; k++)
            for (size_t b = 0; b < m->parts[k].info.nblocks; b++)
                if (m->blk[k][b] == (uint32_t)i)
                    for (size_t e = 0; e < m->parts[k].blocks[b].neles; e++)
                        rows[j++] = (struct erow){
                            m->parts[k].blocks[b].gid[e], k, (uint32_t)b,
                            (uint32_t)e};
        qsort(rows, n, sizeof *rows, by_gid);
        size_t per = O->nshape * (size_t)d;
        for (j = 0; j < n; j++) {
            const struct frx__mpart_block *B =
                &m->parts[rows[j].k].blocks[rows[j].b];
            O->gid[j] = rows[j].gid;
            memcpy(O->shape + j * per, B->shape + rows[j].e * per,
                   per * sizeof *O->shape);
            m->ele[rows[j].k][rows[j].b][rows[j].e] = (uint32_t)j;
        }
        O->neles = n;
        out->info.neles += n;
        free(rows);
    }
    return rc;
}

/* Part k's peer entry for part q, or NULL. */
static const struct frx__mpart_peer *peer_of(const struct frx__mpart *p,
                                             int q)
{
    for (size_t j = 0; j < p->info.npeers; j++)
        if (p->peers[j].rank == q)
            return &p->peers[j];
    return NULL;
}

static int merge_ifaces(struct merge *m, struct frx__mpart *out)
{
    size_t n = 0;
    for (int k = 0; k < m->n; k++) {
        n += m->parts[k].info.nifaces;
        for (size_t j = 0; j < m->parts[k].info.npeers; j++) {
            int q = m->parts[k].peers[j].rank;
            if (m->owner[q] == m->rank && q > m->first + k)
                n += m->parts[k].peers[j].n;
        }
    }
    out->ifaces = frx__calloc(n, sizeof *out->ifaces, "interior faces");
    if (!out->ifaces)
        return FRX_ENOMEM;
    for (int k = 0; k < m->n; k++) {
        const struct frx__mpart *p = &m->parts[k];
        for (size_t i = 0; i < p->info.nifaces; i++) {
            frx_mesh_iface *I = &out->ifaces[out->info.nifaces++];
            I->l = moved(m, k, p->ifaces[i].l);
            I->r = moved(m, k, p->ifaces[i].r);
            I->periodic = p->ifaces[i].periodic;
        }
        for (size_t j = 0; j < p->info.npeers; j++) {
            const struct frx__mpart_peer *P = &p->peers[j];
            int q = P->rank;
            if (m->owner[q] != m->rank || q < m->first + k)
                continue;
            const struct frx__mpart_peer *Q =
                peer_of(&m->parts[q - m->first], m->first + k);
            if (!Q || Q->n != P->n)
                return frx_error(FRX_EIO, "partitioned mesh file: parts %d "
                                 "and %d do not list the same faces "
                                 "between them (write it again with frx "
                                 "mesh partition)", m->first + k, q);
            for (size_t i = 0; i < P->n; i++) {
                frx_mesh_iface *I = &out->ifaces[out->info.nifaces++];
                frx_face a = moved(m, k, P->faces[i]);
                frx_face b = moved(m, q - m->first, Q->faces[i]);
                I->l = P->canon[i] ? a : b;
                I->r = P->canon[i] ? b : a;
                I->periodic = P->periodic[i];
            }
        }
    }
    return FRX_OK;
}

/* One face list between a part here and a part of another rank. */
struct pair {
    int lo, hi, k;
    const struct frx__mpart_peer *P;
};

static int by_pair(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    if (x->lo != y->lo)
        return (x->lo > y->lo) - (x->lo < y->lo);
    return (x->hi > y->hi) - (x->hi < y->hi);
}

static int merge_peers(struct merge *m, struct frx__mpart *out)
{
    size_t npairs = 0;
    for (int k = 0; k < m->n; k++)
        npairs += m->parts[k].info.npeers;
    struct pair *pairs = frx__calloc(npairs, sizeof *pairs, "peers");
    size_t *nfaces = frx__calloc((size_t)m->nranks, sizeof *nfaces, "peers");
    int rc = pairs && nfaces ? FRX_OK : FRX_ENOMEM;
    size_t np = 0;
    for (int k = 0; !rc && k < m->n; k++)
        for (size_t j = 0; j < m->parts[k].info.npeers; j++) {
            const struct frx__mpart_peer *P = &m->parts[k].peers[j];
            int me = m->first + k, s = m->owner[P->rank];
            if (s == m->rank)
                continue;
            pairs[np++] = (struct pair){me < P->rank ? me : P->rank,
                                        me < P->rank ? P->rank : me, k, P};
            nfaces[s] += P->n;
        }
    if (!rc)
        qsort(pairs, np, sizeof *pairs, by_pair);
    for (int s = 0; !rc && s < m->nranks; s++)
        out->info.npeers += nfaces[s] > 0;
    if (!rc) {
        out->peers = frx__calloc(out->info.npeers, sizeof *out->peers,
                                 "mesh peers");
        rc = out->peers ? FRX_OK : FRX_ENOMEM;
    }
    for (int s = 0, j = 0; !rc && s < m->nranks; s++) {
        if (!nfaces[s])
            continue;
        struct frx__mpart_peer *O = &out->peers[j++];
        O->rank = s;
        O->faces = frx__calloc(nfaces[s], sizeof *O->faces, "peer faces");
        O->periodic = frx__calloc(nfaces[s], sizeof *O->periodic,
                                  "peer faces");
        O->canon = frx__calloc(nfaces[s], sizeof *O->canon, "peer faces");
        if (!O->faces || !O->periodic || !O->canon) {
            rc = FRX_ENOMEM;
            break;
        }
        for (size_t i = 0; i < np; i++) {
            const struct pair *x = &pairs[i];
            if (m->owner[x->P->rank] != s)
                continue;
            for (size_t f = 0; f < x->P->n; f++, O->n++) {
                O->faces[O->n] = moved(m, x->k, x->P->faces[f]);
                O->periodic[O->n] = x->P->periodic[f];
                O->canon[O->n] = x->P->canon[f];
            }
        }
    }
    free(pairs);
    free(nfaces);
    return rc;
}

static int merge_bcs(struct merge *m, struct frx__mpart *out)
{
    size_t nb = m->parts[0].info.nbcs, np = m->parts[0].info.nperiodic;
    out->bcs = frx__calloc(nb, sizeof *out->bcs, "mesh boundaries");
    out->pers = frx__calloc(np, sizeof *out->pers, "periodic pairs");
    if (!out->bcs || !out->pers)
        return FRX_ENOMEM;
    out->info.nbcs = nb;
    out->info.nperiodic = np;
    for (size_t i = 0; i < np; i++) {
        out->pers[i] = m->parts[0].pers[i];
        out->pers[i].name = frx__strdup(m->parts[0].pers[i].name);
        if (!out->pers[i].name)
            return FRX_ENOMEM;
    }
    for (size_t b = 0; b < nb; b++) {
        struct frx__mpart_bc *O = &out->bcs[b];
        size_t n = 0;
        for (int k = 0; k < m->n; k++)
            n += m->parts[k].bcs[b].n;
        O->name = frx__strdup(m->parts[0].bcs[b].name);
        O->faces = frx__calloc(n, sizeof *O->faces, "boundary faces");
        if (!O->name || !O->faces)
            return FRX_ENOMEM;
        for (int k = 0; k < m->n; k++)
            for (size_t i = 0; i < m->parts[k].bcs[b].n; i++)
                O->faces[O->n++] = moved(m, k, m->parts[k].bcs[b].faces[i]);
    }
    return FRX_OK;
}

int frx__mesh_first_part(int rank, int nparts, int nranks)
{
    return (int)((int64_t)rank * nparts / nranks);
}

int frx__mesh_part_owner(int q, int nparts, int nranks)
{
    int r = 0;
    while (r + 1 < nranks && frx__mesh_first_part(r + 1, nparts, nranks) <= q)
        r++;
    return r;
}

int frx__mesh_merge(const struct frx__mpart *parts, int n, int first,
                    int nparts, int nranks, int rank, struct frx__mpart *out)
{
    struct merge m = {parts, n, first, nparts, nranks, rank, NULL, NULL,
                      NULL};
    memset(out, 0, sizeof *out);
    out->info = parts[0].info;
    out->info.neles = out->info.nblocks = out->info.nifaces = 0;
    out->info.npeers = out->info.nbcs = out->info.nperiodic = 0;
    out->info.rank = rank;
    out->info.nranks = nranks;
    m.owner = frx__calloc((size_t)nparts, sizeof *m.owner, "parts");
    m.blk = frx__calloc((size_t)n, sizeof *m.blk, "element map");
    m.ele = frx__calloc((size_t)n, sizeof *m.ele, "element map");
    int rc = m.owner && m.blk && m.ele ? FRX_OK : FRX_ENOMEM;
    for (int q = 0; !rc && q < nparts; q++)
        m.owner[q] = frx__mesh_part_owner(q, nparts, nranks);
    for (int k = 0; !rc && k < n; k++) {
        size_t nb = parts[k].info.nblocks;
        m.blk[k] = frx__calloc(nb, sizeof *m.blk[k], "element map");
        m.ele[k] = frx__calloc(nb, sizeof *m.ele[k], "element map");
        rc = m.blk[k] && m.ele[k] ? FRX_OK : FRX_ENOMEM;
        for (size_t b = 0; !rc && b < nb; b++)
            if (!(m.ele[k][b] = frx__calloc(parts[k].blocks[b].neles,
                                            sizeof *m.ele[k][b],
                                            "element map")))
                rc = FRX_ENOMEM;
    }
    if (!rc)
        rc = merge_blocks(&m, out);
    if (!rc)
        rc = merge_ifaces(&m, out);
    if (!rc)
        rc = merge_peers(&m, out);
    if (!rc)
        rc = merge_bcs(&m, out);
    for (int k = 0; k < n && m.blk && m.ele; k++) {
        for (size_t b = 0; m.ele[k] && b < parts[k].info.nblocks; b++)
            free(m.ele[k][b]);
        free(m.blk[k]);
        free(m.ele[k]);
    }
    free(m.blk);
    free(m.ele);
    free(m.owner);
    if (rc)
        frx__mpart_free(out);
    return rc;
}
