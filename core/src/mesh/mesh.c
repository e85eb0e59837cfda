/* SPDX-License-Identifier: BSD-3-Clause */
/* frx_mesh_create: this rank's part of the case's mesh, and the getters
 * solvers read it through. The part is either
 *
 * - built: every rank builds the whole global mesh from its source (a
 *   source is cheap next to a run, and every rank then derives the same
 *   faces in the same order); rank 0 alone partitions it and broadcasts
 *   the owners; each rank cuts out its part (mesh_cut.c) and frees the
 *   global mesh; or
 * - read (mesh.type partitioned, mesh_load.c): each rank reads its own
 *   part of a file frx mesh partition wrote, and nothing else. */
#include "mesh/mesh-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct frx_mesh {
    struct frx__mpart p;
};

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
                         frx__mesh_where(cfg, where, sizeof where), id,
                         id0);
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

/* Every rank builds the global mesh; rank 0 partitions it. */
static int build(const frx_config *cfg, MPI_Comm comm, int rank,
                 int nranks, struct frx__mpart *p)
{
    struct frx__gmesh g = {0};
    struct frx__conn c = {0};
    int method = 0, given, *part = NULL;
    char where[300];
    double *weights = frx__calloc((size_t)nranks, sizeof *weights,
                                  "weights");
    int rc = weights ? frx__mesh_source(cfg, &g) : FRX_ENOMEM;
    if (rc == FRX_OK)
        rc = frx__mesh_connect(&g, &c);
    if (rc == FRX_OK && g.neles < (size_t)nranks)
        rc = frx_error(FRX_ECONFIG, "%s: the mesh has %zu element(s), fewer "
                       "than the job's %d ranks: make the mesh finer or use "
                       "fewer ranks", frx__mesh_where(cfg, where,
                                                      sizeof where),
                       g.neles, nranks);
    if (rc == FRX_OK)
        rc = frx__mesh_method(cfg, &method, &given);
    if (rc == FRX_OK) {
        part = frx__calloc(g.neles, sizeof *part, "partition");
        rc = part ? FRX_OK : FRX_ENOMEM;
    }
    rc = frx__mesh_agree(comm, rank, nranks, rc);
    if (rc == FRX_OK) /* the same owners everywhere: rank 0's */
        rc = frx__mesh_weights(cfg, comm, rank, nranks, weights, &given);
    if (rc == FRX_OK) {
        if (rank == 0)
            rc = frx__mesh_partition(&g, &c, method, nranks, weights, part);
        rc = frx__mesh_agree(comm, rank, nranks, rc);
    }
    /* the same mesh on every rank before rank 0's owners go out: the
     * broadcast's count is each rank's own element count */
    if (rc == FRX_OK)
        rc = frx__mesh_agree(comm, rank, nranks,
                             check_id(cfg, &g, comm, p->info.id));
    if (rc == FRX_OK) {
        if (MPI_Bcast(part, (int)g.neles, MPI_INT, 0, comm) != MPI_SUCCESS)
            rc = frx_error(FRX_EMPI, "frx_mesh_create: MPI_Bcast failed");
        if (rc == FRX_OK)
            rc = frx__mesh_cut(p, &g, &c, part, rank, nranks);
        rc = frx__mesh_agree(comm, rank, nranks, rc);
    }
    if (rc == FRX_OK && rank == 0)
        log_partition(&g, &c, part, nranks, weights, method);
    frx__gmesh_free(&g);
    frx__conn_free(&c);
    free(part);
    free(weights);
    return rc;
}

int frx_mesh_create(const frx_config *cfg, MPI_Comm comm, frx_mesh **out)
{
    if (!cfg || !out)
        return frx_error(FRX_EINVAL, "frx_mesh_create: NULL argument");
    *out = NULL;
    int rank, nranks, init = 0, type = 0;
    MPI_Initialized(&init);
    if (!init || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        MPI_Comm_size(comm, &nranks) != MPI_SUCCESS)
        return frx_error(FRX_EMPI, "frx_mesh_create: MPI is not started "
                         "(call MPI_Init first)");
    struct frx_mesh *m = frx__calloc(1, sizeof *m, "mesh");
    int rc = m ? frx__mesh_type(cfg, &type) : FRX_ENOMEM;
    rc = frx__mesh_agree(comm, rank, nranks, rc);
    if (rc == FRX_OK && type == FRX__MESH_PARTITIONED)
        rc = frx__mesh_load(cfg, comm, &m->p);
    else if (rc == FRX_OK)
        rc = build(cfg, comm, rank, nranks, &m->p);
    if (rc) {
        frx_mesh_destroy(m);
        return rc;
    }
    m->p.info.size = sizeof m->p.info;
    *out = m;
    return FRX_OK;
}

void frx_mesh_destroy(frx_mesh *m)
{
    if (!m)
        return;
    frx__mpart_free(&m->p);
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
    return fill(out, &m->p.info, sizeof m->p.info, "frx_mesh_get_info",
                "frx_mesh_info");
}

int frx_mesh_get_block(const frx_mesh *m, size_t i, frx_mesh_block *out)
{
    if (!m || !out)
        return frx_error(FRX_EINVAL, "frx_mesh_get_block: NULL argument");
    if (i >= m->p.info.nblocks)
        return bad_index("frx_mesh_get_block", i, m->p.info.nblocks, "blocks");
    const struct frx__mpart_block *B = &m->p.blocks[i];
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
    *faces = m->p.ifaces;
    *n = m->p.info.nifaces;
    *elsize = sizeof **faces;
    return FRX_OK;
}

int frx_mesh_get_peer(const frx_mesh *m, size_t i, frx_mesh_peer *out)
{
    if (!m || !out)
        return frx_error(FRX_EINVAL, "frx_mesh_get_peer: NULL argument");
    if (i >= m->p.info.npeers)
        return bad_index("frx_mesh_get_peer", i, m->p.info.npeers, "peers");
    const struct frx__mpart_peer *P = &m->p.peers[i];
    frx_mesh_peer p = {.size = sizeof p, .rank = P->rank, .nfaces = P->n,
                       .faces = P->faces, .face_size = sizeof *P->faces,
                       .periodic = P->periodic, .canonical = P->canon};
    return fill(out, &p, sizeof p, "frx_mesh_get_peer", "frx_mesh_peer");
}

int frx_mesh_get_bc(const frx_mesh *m, size_t i, frx_mesh_bc *out)
{
    if (!m || !out)
        return frx_error(FRX_EINVAL, "frx_mesh_get_bc: NULL argument");
    if (i >= m->p.info.nbcs)
        return bad_index("frx_mesh_get_bc", i, m->p.info.nbcs, "boundaries");
    const struct frx__mpart_bc *B = &m->p.bcs[i];
    frx_mesh_bc b = {.size = sizeof b, .name = B->name, .nfaces = B->n,
                     .faces = B->faces, .face_size = sizeof *B->faces};
    return fill(out, &b, sizeof b, "frx_mesh_get_bc", "frx_mesh_bc");
}

int frx_mesh_get_periodic(const frx_mesh *m, size_t i,
                          frx_mesh_periodic *out)
{
    if (!m || !out)
        return frx_error(FRX_EINVAL, "frx_mesh_get_periodic: NULL argument");
    if (i >= m->p.info.nperiodic)
        return bad_index("frx_mesh_get_periodic", i, m->p.info.nperiodic,
                         "periodic pairs");
    const struct frx__mpart_per *P = &m->p.pers[i];
    frx_mesh_periodic p = {.size = sizeof p, .name = P->name};
    memcpy(p.shift, P->shift, sizeof p.shift);
    return fill(out, &p, sizeof p, "frx_mesh_get_periodic",
                "frx_mesh_periodic");
}
