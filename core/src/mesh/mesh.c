/* SPDX-License-Identifier: BSD-3-Clause */
/* frx_mesh_create: the global mesh from its source, its connectivity,
 * a partition agreed by every rank, and this rank's part; the getters
 * solvers read it through.
 *
 * Every rank builds the whole global mesh (a source is cheap next to a
 * run, and every rank then derives the same faces in the same order);
 * rank 0 alone partitions it and broadcasts the owners. The global mesh
 * is freed once the part is cut out. */
#include "mesh/mesh-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mblock {
    int etype, order;
    size_t neles, nshape, nfaces;
    double *shape;
    uint64_t *gid;
};

struct mpeer {
    int rank;
    size_t n;
    frx_face *faces;
    int32_t *periodic;
};

struct mbc {
    char *name;
    size_t n;
    frx_face *faces;
};

struct mper {
    char *name;
    double shift[3];
};

struct frx_mesh {
    frx_mesh_info info;
    struct mblock *blocks;
    frx_mesh_iface *ifaces;
    struct mpeer *peers;
    struct mbc *bcs;
    struct mper *pers;
};

/* ------------------------------------------------------------- ranks */

/* Every rank learns whether any rank failed; all then return the first
 * failing rank's code and message. */
static int agree(MPI_Comm comm, int rank, int nranks, int rc)
{
    int mine = rc ? rank : nranks, first = nranks;
    if (MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm) !=
        MPI_SUCCESS)
        return frx_error(FRX_EMPI, "frx_mesh_create: MPI_Allreduce failed");
    if (first == nranks)
        return FRX_OK;
    struct {
        int rc;
        char msg[4096];
    } m = {.rc = rc};
    if (rank == first)
        snprintf(m.msg, sizeof m.msg, "%s", frx_errmsg());
    if (MPI_Bcast(&m, sizeof m, MPI_BYTE, first, comm) != MPI_SUCCESS)
        return frx_error(FRX_EMPI, "frx_mesh_create: MPI_Bcast failed");
    if (rank != first)
        frx_error(m.rc, "rank %d of %d: %s", first, nranks, m.msg);
    return m.rc;
}

/* ------------------------------------------------------------ config */

/* "case.yaml:3:1" of the mesh key, for messages about the whole mesh. */
static const char *mesh_where(const frx_config *cfg, char *buf, size_t n)
{
    const frx_cfgnode *root = frx_config_root(cfg);
    for (size_t i = 0; i < frx_cfg_len(root); i++)
        if (!strcmp(frx_cfg_key_at(root, i), "mesh"))
            return frx__cfg_where(frx_cfg_key_node_at(root, i), buf, n);
    snprintf(buf, n, "%s", frx_config_file(cfg));
    return buf;
}

static int read_source(const frx_config *cfg, struct frx__gmesh *g)
{
    const frx_cfgnode *root = frx_config_root(cfg);
    const frx_cfgnode *mesh = frx_cfg_get(root, "mesh");
    char file[300];
    snprintf(file, sizeof file, "%s", frx_config_file(cfg));
    if (!mesh || frx_cfg_type(mesh) != FRX_CFG_MAP)
        return frx_error(FRX_ECONFIG, "%s: the case has no mesh: add "
                         "'mesh: {type: box, n: [16, 16]}' (see "
                         "config/README.md)", file);
    int type;
    int rc = frx_cfg_enum(mesh, "type", "box|gmsh", -1, &type);
    if (rc)
        return rc;
    if (type < 0) {
        char where[300];
        return frx_error(FRX_ECONFIG, "%s: missing required key 'type' in "
                         "'mesh' (box or gmsh)", mesh_where(cfg, where,
                                                    sizeof where));
    }
    return type == 1 ? frx__mesh_gmsh(mesh, g) : frx__mesh_box(mesh, g);
}

static int positive(const frx_cfgnode *v, const char *what, double *w)
{
    char where[300];
    const char *text = frx_cfg_scalar(v);
    char *end = NULL;
    double x = text ? strtod(text, &end) : 0;
    if (!text || end == text || *end || !(x > 0) || x > 1e300)
        return frx_error(FRX_ECONFIG, "%s: '%s' must be a positive number "
                         "(a rank's share of the elements, relative to the "
                         "others), got '%s'",
                         frx__cfg_where(v, where, sizeof where), what,
                         text ? text : "a list or mapping");
    *w = x;
    return FRX_OK;
}

/* This rank's weight: partition.weights[rank], else the weight of the
 * backend.rules item that chose its backend, else 1. */
static int read_weight(const frx_config *cfg, int rank, int nranks,
                       double *w)
{
    const frx_cfgnode *root = frx_config_root(cfg);
    const frx_cfgnode *list = frx_cfg_get(root, "partition.weights");
    char where[300], what[64];
    *w = 1;
    if (list) {
        if (frx_cfg_type(list) != FRX_CFG_LIST)
            return frx_error(FRX_ECONFIG, "%s: 'partition.weights' must be "
                             "a list with one number per rank, like [3, 1]",
                             frx__cfg_where(list, where, sizeof where));
        if (frx_cfg_len(list) != (size_t)nranks)
            return frx_error(FRX_ECONFIG, "%s: 'partition.weights' has %zu "
                             "weight(s) but the job has %d rank(s): give one "
                             "per rank", frx__cfg_where(list, where,
                                                        sizeof where),
                             frx_cfg_len(list), nranks);
        snprintf(what, sizeof what, "partition.weights[%d]", rank);
        return positive(frx_cfg_at(list, (size_t)rank), what, w);
    }
    struct frx__choice ch;
    int rc = frx__backend_choice(cfg, rank, &ch);
    if (rc || ch.rule < 0)
        return rc;
    const frx_cfgnode *v = frx_cfg_get(
        frx_cfg_at(frx_cfg_get(root, "backend.rules"), (size_t)ch.rule),
        "weight");
    snprintf(what, sizeof what, "backend.rules[%d].weight", ch.rule);
    return v ? positive(v, what, w) : FRX_OK;
}

/* -------------------------------------------------------- this rank */

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

static int make_blocks(struct frx_mesh *m, struct cut *k)
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
        struct mblock *B = &m->blocks[b];
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
        struct mblock *B = &m->blocks[k->lblk[e]];
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
static int make_faces(struct frx_mesh *m, struct cut *k)
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
        struct mpeer *P = &m->peers[j++];
        P->rank = r;
        P->faces = frx__calloc(npeer[r], sizeof *P->faces, "peer faces");
        P->periodic = frx__calloc(npeer[r], sizeof *P->periodic,
                                  "peer faces");
        if (!P->faces || !P->periodic)
            rc = FRX_ENOMEM;
    }
    for (size_t b = 0; rc == FRX_OK && b < nbcs; b++) {
        struct mbc *B = &m->bcs[b];
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
            struct mpeer *P = &m->peers[peer_of[p0 == k->rank ? p1 : p0]];
            P->faces[P->n] = p0 == k->rank
                                 ? s0
                                 : side_of(k, F->ele[1], F->face[1], F->rot);
            P->periodic[P->n++] = F->periodic;
        }
    }
    free(npeer);
    free(peer_of);
    return rc;
}

static int make_pers(struct frx_mesh *m, const struct frx__gmesh *g)
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

static int cut_part(struct frx_mesh *m, const struct frx__gmesh *g,
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

/* ------------------------------------------------------------ create */

/* The global mesh's id, the same on every rank or an error. */
static int check_id(const frx_config *cfg, const struct frx__gmesh *g,
                    MPI_Comm comm, char id[65])
{
    char id0[65], where[300];
    frx__gmesh_id(g, id);
    memcpy(id0, id, sizeof id0);
    if (MPI_Bcast(id0, sizeof id0, MPI_CHAR, 0, comm) != MPI_SUCCESS)
        return frx_error(FRX_EMPI, "frx_mesh_create: MPI_Bcast failed");
    if (memcmp(id0, id, sizeof id0))
        return frx_error(FRX_ECONFIG, "%s: this rank built another mesh "
                         "than rank 0 (id %.12s... against %.12s...): do "
                         "all ranks read the same case and mesh files?",
                         mesh_where(cfg, where, sizeof where), id, id0);
    return FRX_OK;
}

/* Rank 0, at log level info: what the partition gave. */
static void log_partition(const struct frx__gmesh *g,
                          const struct frx__conn *c, const int *part,
                          int nranks, const double *w, int method)
{
    if (frx_log_get_level() < FRX_LOG_INFO)
        return;
    size_t *n = calloc((size_t)nranks, sizeof *n), cut = 0;
    if (!n)
        return;
    for (size_t e = 0; e < g->neles; e++)
        n[part[e]]++;
    for (size_t i = 0; i < c->nfaces; i++)
        cut += c->faces[i].ele[1] != FRX__NONE &&
               part[c->faces[i].ele[0]] != part[c->faces[i].ele[1]];
    frx_log(FRX_LOG_INFO, "mesh: %zu elements, %zu faces, %zu between "
            "ranks (%s)", g->neles, c->nfaces, cut,
            method == FRX__PART_LINEAR ? "linear" : "metis");
    for (int r = 0; r < nranks && r < 64; r++)
        frx_log(FRX_LOG_INFO, "mesh: rank %d: %zu elements (weight %g)", r,
                n[r], w[r]);
    free(n);
}

int frx_mesh_create(const frx_config *cfg, MPI_Comm comm, frx_mesh **out)
{
    if (!cfg || !out)
        return frx_error(FRX_EINVAL, "frx_mesh_create: NULL argument");
    *out = NULL;
    int rank, nranks, init = 0;
    MPI_Initialized(&init);
    if (!init || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        MPI_Comm_size(comm, &nranks) != MPI_SUCCESS)
        return frx_error(FRX_EMPI, "frx_mesh_create: MPI is not started "
                         "(call MPI_Init first)");
    struct frx__gmesh g = {0};
    struct frx__conn c = {0};
    int method = 0, *part = NULL;
    double w = 1, *weights = NULL;
    char where[300];
    struct frx_mesh *m = frx__calloc(1, sizeof *m, "mesh");
    int rc = m ? read_source(cfg, &g) : FRX_ENOMEM;
    if (rc == FRX_OK)
        rc = frx__mesh_connect(&g, &c);
    if (rc == FRX_OK && g.neles < (size_t)nranks)
        rc = frx_error(FRX_ECONFIG, "%s: the mesh has %zu element(s), fewer "
                       "than the job's %d ranks: make the mesh finer or use "
                       "fewer ranks", mesh_where(cfg, where, sizeof where),
                       g.neles, nranks);
    if (rc == FRX_OK)
        rc = frx_cfg_enum(frx_config_root(cfg), "partition.method",
                          "metis|linear", FRX__PART_METIS, &method);
    if (rc == FRX_OK)
        rc = read_weight(cfg, rank, nranks, &w);
    if (rc == FRX_OK) {
        weights = frx__calloc((size_t)nranks, sizeof *weights, "weights");
        part = frx__calloc(g.neles, sizeof *part, "partition");
        rc = weights && part ? FRX_OK : FRX_ENOMEM;
    }
    rc = agree(comm, rank, nranks, rc);
    if (rc == FRX_OK) { /* the same owners everywhere: rank 0's */
        if (MPI_Allgather(&w, 1, MPI_DOUBLE, weights, 1, MPI_DOUBLE,
                          comm) != MPI_SUCCESS)
            rc = frx_error(FRX_EMPI, "frx_mesh_create: MPI_Allgather "
                           "failed");
        if (rc == FRX_OK && rank == 0)
            rc = frx__mesh_partition(&g, &c, method, nranks, weights, part);
        rc = agree(comm, rank, nranks, rc);
    }
    /* the same mesh on every rank before rank 0's owners go out: the
     * broadcast's count is each rank's own element count */
    if (rc == FRX_OK)
        rc = agree(comm, rank, nranks, check_id(cfg, &g, comm, m->info.id));
    if (rc == FRX_OK) {
        if (MPI_Bcast(part, (int)g.neles, MPI_INT, 0, comm) != MPI_SUCCESS)
            rc = frx_error(FRX_EMPI, "frx_mesh_create: MPI_Bcast failed");
        if (rc == FRX_OK)
            rc = cut_part(m, &g, &c, part, rank, nranks);
        rc = agree(comm, rank, nranks, rc);
    }
    if (rc == FRX_OK && rank == 0)
        log_partition(&g, &c, part, nranks, weights, method);
    frx__gmesh_free(&g);
    frx__conn_free(&c);
    free(part);
    free(weights);
    if (rc) {
        frx_mesh_destroy(m);
        return rc;
    }
    m->info.size = sizeof m->info;
    *out = m;
    return FRX_OK;
}

void frx_mesh_destroy(frx_mesh *m)
{
    if (!m)
        return;
    for (size_t i = 0; m->blocks && i < m->info.nblocks; i++) {
        free(m->blocks[i].shape);
        free(m->blocks[i].gid);
    }
    free(m->blocks);
    free(m->ifaces);
    for (size_t i = 0; m->peers && i < m->info.npeers; i++) {
        free(m->peers[i].faces);
        free(m->peers[i].periodic);
    }
    free(m->peers);
    for (size_t i = 0; m->bcs && i < m->info.nbcs; i++) {
        free(m->bcs[i].name);
        free(m->bcs[i].faces);
    }
    free(m->bcs);
    for (size_t i = 0; m->pers && i < m->info.nperiodic; i++)
        free(m->pers[i].name);
    free(m->pers);
    free(m);
}

/* ----------------------------------------------------------- getters */

/* Copy the fields the caller's struct holds (its size, set before the
 * call), never past it; fields this core does not have are left as the
 * caller set them (zero-initialise the struct). */
static int fill(void *out, const void *full, size_t full_size,
                const char *fn, const char *type)
{
    uint32_t size;
    memcpy(&size, out, sizeof size);
    if (size < sizeof(uint64_t))
        return frx_error(FRX_EINVAL, "%s: set out->size = sizeof(%s) before "
                         "the call (got %u)", fn, type, size);
    size_t n = size < full_size ? size : full_size;
    memcpy((char *)out + sizeof size, (const char *)full + sizeof size,
           n - sizeof size);
    return FRX_OK;
}

static int bad_index(const char *fn, size_t i, size_t n, const char *what)
{
    return frx_error(FRX_ERANGE, "%s: index %zu, but this rank has %zu %s",
                     fn, i, n, what);
}

int frx_mesh_get_info(const frx_mesh *m, frx_mesh_info *out)
{
    if (!m || !out)
        return frx_error(FRX_EINVAL, "frx_mesh_get_info: NULL argument");
    return fill(out, &m->info, sizeof m->info, "frx_mesh_get_info",
                "frx_mesh_info");
}

int frx_mesh_get_block(const frx_mesh *m, size_t i, frx_mesh_block *out)
{
    if (!m || !out)
        return frx_error(FRX_EINVAL, "frx_mesh_get_block: NULL argument");
    if (i >= m->info.nblocks)
        return bad_index("frx_mesh_get_block", i, m->info.nblocks, "blocks");
    const struct mblock *B = &m->blocks[i];
    frx_mesh_block b = {.size = sizeof b, .etype = B->etype,
                        .order = B->order, .neles = B->neles,
                        .nshape = B->nshape, .nfaces = B->nfaces,
                        .shape = B->shape, .gid = B->gid};
    return fill(out, &b, sizeof b, "frx_mesh_get_block", "frx_mesh_block");
}

int frx_mesh_get_ifaces(const frx_mesh *m, const frx_mesh_iface **faces,
                        size_t *n, size_t *elsize)
{
    if (!m || !faces || !n || !elsize)
        return frx_error(FRX_EINVAL, "frx_mesh_get_ifaces: NULL argument");
    *faces = m->ifaces;
    *n = m->info.nifaces;
    *elsize = sizeof **faces;
    return FRX_OK;
}

int frx_mesh_get_peer(const frx_mesh *m, size_t i, frx_mesh_peer *out)
{
    if (!m || !out)
        return frx_error(FRX_EINVAL, "frx_mesh_get_peer: NULL argument");
    if (i >= m->info.npeers)
        return bad_index("frx_mesh_get_peer", i, m->info.npeers, "peers");
    const struct mpeer *P = &m->peers[i];
    frx_mesh_peer p = {.size = sizeof p, .rank = P->rank, .nfaces = P->n,
                       .faces = P->faces, .face_size = sizeof *P->faces,
                       .periodic = P->periodic};
    return fill(out, &p, sizeof p, "frx_mesh_get_peer", "frx_mesh_peer");
}

int frx_mesh_get_bc(const frx_mesh *m, size_t i, frx_mesh_bc *out)
{
    if (!m || !out)
        return frx_error(FRX_EINVAL, "frx_mesh_get_bc: NULL argument");
    if (i >= m->info.nbcs)
        return bad_index("frx_mesh_get_bc", i, m->info.nbcs, "boundaries");
    const struct mbc *B = &m->bcs[i];
    frx_mesh_bc b = {.size = sizeof b, .name = B->name, .nfaces = B->n,
                     .faces = B->faces, .face_size = sizeof *B->faces};
    return fill(out, &b, sizeof b, "frx_mesh_get_bc", "frx_mesh_bc");
}

int frx_mesh_get_periodic(const frx_mesh *m, size_t i,
                          frx_mesh_periodic *out)
{
    if (!m || !out)
        return frx_error(FRX_EINVAL, "frx_mesh_get_periodic: NULL argument");
    if (i >= m->info.nperiodic)
        return bad_index("frx_mesh_get_periodic", i, m->info.nperiodic,
                         "periodic pairs");
    const struct mper *P = &m->pers[i];
    frx_mesh_periodic p = {.size = sizeof p, .name = P->name};
    memcpy(p.shift, P->shift, sizeof p.shift);
    return fill(out, &p, sizeof p, "frx_mesh_get_periodic",
                "frx_mesh_periodic");
}
