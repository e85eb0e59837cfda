/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: a rank's part of a mesh of type partitioned (mesh-impl.h): read
 * from the file `frx mesh partition -o` wrote (io/pmesh.c), each rank
 * its own part only, then checked before any solver sees it: the file
 * was made for this job's ranks, weights and method, every index is in
 * range, and the ranks agree on the faces they share. The global mesh
 * is never built. */
#include "mesh/mesh-impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "3,1,1" into buf. */
static const char *list(const double *w, int n, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int r = 0; r < n && len + 32 < cap; r++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%g", r ? "," : "",
                                w[r]);
    if (n > 0 && len + 32 >= cap)
        snprintf(buf + len, cap - len, ",...");
    return buf;
}

/* The case's partition settings against the file's, where the case sets
 * them (a partition the case does not speak of is the file's). */
static int same_partition(const frx_config *cfg, MPI_Comm comm, int rank,
                          int nranks, const struct frx__pmesh_head *h,
                          const char *where)
{
    int method, given_m = 0, given_w = 0, rc;
    double *w = frx__calloc((size_t)nranks, sizeof *w, "weights");
    rc = w ? frx__mesh_method(cfg, &method, &given_m) : FRX_ENOMEM;
    const char *name = method == FRX__PART_LINEAR ? "linear" : "metis";
    if (rc == FRX_OK && given_m && strcmp(name, h->method))
        rc = frx_error(FRX_ECONFIG, "%s: partition.method is %s but the "
                       "mesh file was partitioned by %s: remove "
                       "partition.method, or partition again with --method "
                       "%s", where, name, h->method, name);
    rc = frx__mesh_agree(comm, rank, nranks, rc);
    if (rc == FRX_OK)
        rc = frx__mesh_weights(cfg, comm, rank, nranks, w, &given_w);
    if (rc == FRX_OK && given_w && h->nparts != nranks)
        rc = frx_error(FRX_ECONFIG, "%s: the case gives the ranks weights "
                       "(partition.weights or backend.rules), but the mesh "
                       "file holds %d parts for this job's %d ranks, which "
                       "take whole parts: partition again for %d ranks "
                       "with --weights", where, h->nparts, nranks, nranks);
    double sw = 0, sh = 0;
    for (int r = 0; rc == FRX_OK && r < nranks; r++) {
        sw += w[r];
        sh += h->weights[r];
    }
    for (int r = 0; rc == FRX_OK && given_w && r < nranks &&
                    h->nparts == nranks; r++)
        if (!(fabs(w[r] / sw - h->weights[r] / sh) <= 1e-12)) {
            char a[200], b[200];
            rc = frx_error(FRX_ECONFIG, "%s: the case gives the ranks "
                           "weights %s (partition.weights or "
                           "backend.rules) but the mesh file was "
                           "partitioned for weights %s: partition again with "
                           "--weights %s", where, list(w, nranks, a, sizeof a),
                           list(h->weights, nranks, b, sizeof b), a);
        }
    free(w);
    return rc;
}

static int bad(int rank, const char *path, const char *what, size_t i)
{
    return frx_error(FRX_EIO, "partitioned mesh file %s is damaged: part "
                     "%d: %s %zu is out of range (write it again with frx "
                     "mesh partition)", path, rank, what, i);
}

static int face_ok(const struct frx__mpart *p, frx_face f, int32_t per)
{
    return f.blk < p->info.nblocks && f.ele < p->blocks[f.blk].neles &&
           f.face < p->blocks[f.blk].nfaces && per >= -1 &&
           (per < 0 || (size_t)per < p->info.nperiodic);
}

/* Every index of the part in range, blocks of known types in order. */
static int check_part(const struct frx__mpart *p, const char *path,
                      int rank, int nranks)
{
    int d = p->info.ndims, last = 0;
    for (size_t b = 0; b < p->info.nblocks; b++) {
        const struct frx__mpart_block *B = &p->blocks[b];
        const struct frx__etype_info *t = frx__etype(B->etype);
        int key = B->etype * 16 + B->order;
        if (!t || t->ndims != d || B->order < 1 ||
            B->order > FRX__MAX_ORDER || B->nshape != t->nshape[B->order] ||
            B->nfaces != (size_t)t->nfaces || key <= last || !B->neles)
            return bad(rank, path, "the type of block", b);
        last = key;
        for (size_t e = 0; e < B->neles; e++)
            if (B->gid[e] >= p->info.neles_global ||
                (e && B->gid[e] <= B->gid[e - 1]))
                return bad(rank, path, "an element number of block", b);
    }
    for (size_t i = 0; i < p->info.nifaces; i++)
        if (!face_ok(p, p->ifaces[i].l, p->ifaces[i].periodic) ||
            !face_ok(p, p->ifaces[i].r, p->ifaces[i].periodic))
            return bad(rank, path, "interior face", i);
    for (size_t j = 0; j < p->info.npeers; j++) {
        const struct frx__mpart_peer *P = &p->peers[j];
        if (P->rank < 0 || P->rank >= nranks || P->rank == rank ||
            (j && P->rank <= p->peers[j - 1].rank))
            return bad(rank, path, "peer", j);
        for (size_t i = 0; i < P->n; i++)
            if (!face_ok(p, P->faces[i], P->periodic[i]))
                return bad(rank, path, "a face shared with a peer, face", i);
    }
    for (size_t b = 0; b < p->info.nbcs; b++)
        for (size_t i = 0; i < p->bcs[b].n; i++)
            if (!face_ok(p, p->bcs[b].faces[i], -1))
                return bad(rank, path, "a boundary face, face", i);
    return FRX_OK;
}

/* Collective: the faces rank r shares with s are as many as s shares
 * with r, and the parts' elements add up to the mesh's. */
static int check_ranks(const struct frx__mpart *p, MPI_Comm comm,
                       const char *path, int rank, int nranks)
{
    uint64_t *mine = frx__calloc((size_t)nranks, sizeof *mine, "faces");
    uint64_t *theirs = frx__calloc((size_t)nranks, sizeof *theirs, "faces");
    uint64_t n = p->info.neles, total = 0;
    int rc = mine && theirs ? FRX_OK : FRX_ENOMEM;
    rc = frx__mesh_agree(comm, rank, nranks, rc);
    for (size_t j = 0; rc == FRX_OK && j < p->info.npeers; j++)
        mine[p->peers[j].rank] = p->peers[j].n;
    if (rc == FRX_OK &&
        (MPI_Alltoall(mine, 1, MPI_UINT64_T, theirs, 1, MPI_UINT64_T,
                      comm) != MPI_SUCCESS ||
         MPI_Allreduce(&n, &total, 1, MPI_UINT64_T, MPI_SUM, comm) !=
             MPI_SUCCESS))
        rc = frx_error(FRX_EMPI, "frx_mesh_create: MPI_Alltoall failed");
    for (int r = 0; rc == FRX_OK && r < nranks; r++)
        if (mine[r] != theirs[r])
            rc = frx_error(FRX_EIO, "partitioned mesh file %s is damaged: "
                           "part %d shares %llu faces with part %d, which "
                           "shares %llu with it (write it again with frx "
                           "mesh partition)", path, rank,
                           (unsigned long long)mine[r], r,
                           (unsigned long long)theirs[r]);
    if (rc == FRX_OK && total != p->info.neles_global)
        rc = frx_error(FRX_EIO, "partitioned mesh file %s is damaged: its "
                       "parts hold %llu elements, its mesh %llu", path,
                       (unsigned long long)total,
                       (unsigned long long)p->info.neles_global);
    free(mine);
    free(theirs);
    return frx__mesh_agree(comm, rank, nranks, rc);
}

/* The file's parts for this job: as many as its ranks, or more (each
 * rank then takes several: said at log level warn where they cannot be
 * shared evenly). */
static int fits(const struct frx__pmesh_head *h, const char *path,
                const char *where, int nranks, int rank)
{
    if (h->nparts < nranks)
        return frx_error(FRX_ECONFIG, "%s: partitioned mesh file %s holds a "
                         "partition for %d ranks and this job has %d: run "
                         "it on %d ranks (or fewer: each rank then takes "
                         "several parts), or partition the mesh again for "
                         "%d (frx mesh partition %s -n %d -o %s)", where,
                         path, h->nparts, nranks, h->nparts, nranks,
                         h->source, nranks, path);
    if (h->nparts % nranks && rank == 0)
        frx_log(FRX_LOG_WARN, "mesh: %s holds %d parts, shared out among "
                "%d ranks unevenly (%d or %d a rank): partition the mesh "
                "again for %d ranks for even shares", path, h->nparts,
                nranks, h->nparts / nranks, h->nparts / nranks + 1, nranks);
    return FRX_OK;
}

/* This rank's parts of the open file, checked, made one. */
static int read_mine(struct frx__pmesh *f, const char *path, int rank,
                     int nranks, struct frx__mpart *p)
{
    const struct frx__pmesh_head *h = frx__pmesh_head(f);
    int first = frx__mesh_first_part(rank, h->nparts, nranks);
    int n = frx__mesh_first_part(rank + 1, h->nparts, nranks) - first;
    if (h->nparts == nranks) { /* the part as cut: no merge */
        int rc = frx__pmesh_read_part(f, first, p);
        return rc ? rc : check_part(p, path, first, h->nparts);
    }
    struct frx__mpart *parts = frx__calloc((size_t)n, sizeof *parts,
                                           "mesh parts");
    int rc = parts ? FRX_OK : FRX_ENOMEM;
    for (int k = 0; k < n && !rc; k++)
        if (!(rc = frx__pmesh_read_part(f, first + k, &parts[k])))
            rc = check_part(&parts[k], path, first + k, h->nparts);
    if (!rc)
        rc = frx__mesh_merge(parts, n, first, h->nparts, nranks, rank, p);
    for (int k = 0; parts && k < n; k++)
        frx__mpart_free(&parts[k]);
    free(parts);
    return rc;
}

int frx__mesh_load(const frx_config *cfg, MPI_Comm comm,
                   struct frx__mpart *p)
{
    int rank, nranks;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nranks);
    const frx_cfgnode *mesh = frx_cfg_get(frx_config_root(cfg), "mesh");
    const frx_cfgnode *at = NULL;
    char path[4096], msg[1024], where[300] = "";
    struct frx__pmesh *f = NULL;
    int rc = frx__mesh_file_path(mesh, FRX__MESH_FILE_PARTS, path,
                                 sizeof path, &at, msg, sizeof msg);
    if (rc)
        frx_error(rc, "%s", msg);
    rc = frx__mesh_agree(comm, rank, nranks, rc);
    if (at)
        frx__cfg_where(at, where, sizeof where);
    if (rc == FRX_OK && (rc = frx__pmesh_open(comm, path, &f))) {
        /* every rank has the message: say which key named the file */
        snprintf(msg, sizeof msg, "%s", frx_errmsg());
        frx_error(rc, "%s: 'mesh.file': %s", where, msg);
    }
    if (rc)
        return rc;
    const struct frx__pmesh_head *h = frx__pmesh_head(f);
    rc = fits(h, path, where, nranks, rank);
    if (rc == FRX_OK)
        rc = same_partition(cfg, comm, rank, nranks, h, where);
    if (rc == FRX_OK)
        rc = read_mine(f, path, rank, nranks, p);
    if (rc == FRX_OK && rank == 0)
        frx_log(FRX_LOG_INFO, "mesh: %llu elements in %d parts (%s) on %d "
                "ranks, read from %s", (unsigned long long)h->neles,
                h->nparts, h->method, nranks, path);
    rc = frx__pmesh_close(f, rc);
    if (rc == FRX_OK)
        rc = check_ranks(p, comm, path, rank, nranks);
    return rc;
}
