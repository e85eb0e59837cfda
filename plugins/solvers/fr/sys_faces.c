/* SPDX-License-Identifier: BSD-3-Clause */
/* The FR system's interfaces: one set of faces per kernel (the interior
 * faces, the faces shared with each peer rank, the faces of each
 * boundary), with views of their flux points, per-point normals and
 * metric magnitudes, exchanges, auxiliary fields saved at t = 0, and
 * their common-flux kernels.
 *
 * Point order (docs/mesh.md): the two sides of a face walk it in
 * opposite directions, so point k of the l side meets point nfp-1-k of
 * the other in 2-D, and the point its face's rot says in 3-D (facing).
 * Interior sets list l's points in order and r's reversed.
 * A peer set lists our points in order, and packs what it sends with
 * each face's points reversed: the peer's k-th received point is then
 * the one that meets its own k-th. */
#include "system-internal.h"

#include <stdlib.h>
#include <string.h>

/* Place k of a face's points, as the other side numbers it
 * (fr_element_facing: docs/mesh.md's rules; each map is its own inverse,
 * so either side may ask). */
static size_t facing(const fr_system *s, const frx_face *f, size_t k)
{
    return fr_element_facing(s->blk[f->blk].el, f->face, f->rot, k);
}

/* The flux point of side f at place k of its face (reversed: the place
 * the other side's k meets). */
static size_t fpt(const fr_system *s, const frx_face *f, size_t k, int rev)
{
    return fr_element_face_fpt0(s->blk[f->blk].el, f->face) +
           (rev ? facing(s, f, k) : k);
}

/* The points of side f's face: faces of one set may differ (a prism's
 * triangles and quadrilaterals; meshes of several element types). */
static size_t face_nfp(const fr_system *s, const frx_face *f)
{
    return fr_element_face_nfpts(s->blk[f->blk].el, f->face);
}

/* What a set of points needs on the host while its views are made:
 * each point's block, flux point and element. */
struct pts {
    size_t n;
    size_t *blks, *rows, *eles;
};

static int pts_alloc(struct pts *p, size_t n)
{
    p->n = n;
    p->blks = calloc(n, sizeof *p->blks);
    p->rows = calloc(n, sizeof *p->rows);
    p->eles = calloc(n, sizeof *p->eles);
    return p->blks && p->rows && p->eles
               ? FRX_OK
               : frx_error(FRX_ENOMEM, "fr: out of memory");
}

static void pts_free(struct pts *p)
{
    free(p->blks);
    free(p->rows);
    free(p->eles);
}

/* The flux-point matrices a view may read (fpts_groups). */
enum fp_field { FP_U, FP_AUX, FP_DU, FP_GRAD };

/* A view of p's points in a field at the flux points: the solution
 * (ufp), the auxiliary fields, the jump to the common solution or the
 * gradient (ndims rows a point, nfpts apart). */
static int pts_view(fr_system *s, const struct pts *p, int field,
                    frx_view **out)
{
    size_t n = p->n ? p->n : 1, nr = field == FP_GRAD ? (size_t)s->ndims : 1;
    frx_matrix **m = malloc(n * sizeof *m);
    size_t *rs = malloc(n * sizeof *rs);
    int rc = m && rs ? FRX_OK : frx_error(FRX_ENOMEM, "fr: out of memory");
    for (size_t i = 0; i < p->n && !rc; i++) {
        const struct fr_blk *b = &s->blk[p->blks[i]];
        frx_matrix *at[] = {b->ufp, b->auxfp, b->dufp, b->gfp};
        m[i] = at[field];
        rs[i] = b->nfpts;
    }
    if (!rc)
        rc = frx_view_create(s->be, p->n, m, p->rows, p->eles,
                             nr > 1 ? rs : NULL, nr,
                             field == FP_AUX ? s->phys.naux : s->phys.nvars,
                             out);
    free(m);
    free(rs);
    return rc;
}

/* The auxiliary fields at p's points, now: a view, its xchg view and a
 * snapshot of it. */
static int aux_snapshot(fr_system *s, struct pts *p, frx_view **v,
                        frx_xchg_view **xv, frx_xchg_matrix **snap)
{
    int rc = pts_view(s, p, FP_AUX, v);
    if (!rc)
        rc = frx_xchg_view_create(*v, xv);
    if (!rc)
        rc = frx_xchg_view_snapshot(*xv, snap);
    return rc;
}

/* Per-point normals, magnitudes and (boundaries) coordinates of side l
 * (and the magnitude of side r, interior faces). */
struct geo_host {
    double *nl, *mag, *x;
};

static int geo_alloc(struct geo_host *g, size_t n, size_t nd, size_t nmag)
{
    g->nl = malloc(n * nd * sizeof *g->nl);
    g->mag = malloc(n * nmag * sizeof *g->mag);
    g->x = malloc(n * nd * sizeof *g->x);
    return g->nl && g->mag && g->x
               ? FRX_OK
               : frx_error(FRX_ENOMEM, "fr: out of memory");
}

static void geo_free(struct geo_host *g)
{
    free(g->nl);
    free(g->mag);
    free(g->x);
}

/* Point i (of n) is flux point row of side f: layout [1][col][n]. */
static void geo_point(const fr_system *s, struct geo_host *g, size_t n,
                      size_t i, const frx_face *f, size_t row, size_t magcol)
{
    const fr_geometry *geo = &s->blk[f->blk].geo;
    size_t nd = (size_t)s->ndims, at = f->ele * geo->nfpts + row;
    if (magcol == 0)
        for (size_t d = 0; d < nd; d++) {
            g->nl[d * n + i] = geo->pnorm[at * nd + d];
            g->x[d * n + i] = geo->xfpts[at * nd + d];
        }
    g->mag[magcol * n + i] = geo->mag[at];
}

static int geo_upload(fr_system *s, struct fr_faces *fs, struct geo_host *g,
                      size_t nmag, int withx)
{
    size_t nd = (size_t)s->ndims;
    int rc = fr__matrix_from(s->be, 1, nd, fs->n, g->nl, &fs->nl);
    if (!rc)
        rc = fr__matrix_from(s->be, 1, nmag, fs->n, g->mag, &fs->mag);
    if (!rc && withx)
        rc = fr__matrix_from(s->be, 1, nd, fs->n, g->x, &fs->x);
    return rc;
}

static struct fr_faces *faces_add(fr_system *s, int kind)
{
    struct fr_faces *v = realloc(s->faces, (s->nfaces + 1) * sizeof *v);
    if (!v)
        return NULL;
    s->faces = v;
    struct fr_faces *fs = &v[s->nfaces++];
    memset(fs, 0, sizeof *fs);
    fs->kind = kind;
    fs->send_id = fs->recv_id = fs->asend_id = fs->arecv_id = -1;
    fs->gsend_id = fs->grecv_id = -1;
    return fs;
}

/* ------------------------------------------------------------- kernels */

/* A boundary kernel's last arguments: t, the values that are numbers
 * (the others are in the kernel), the constants. */
static size_t bc_tail(const fr_system *s, const struct fr_faces *fs,
                      frx_arg *a)
{
    size_t na = 0;
    a[na++] = frx_arg_scalar(s->t0);
    for (size_t i = 0; i < fs->bc->nvals; i++)
        if (!fr_expr_uses(fs->bc->exprs[i]))
            a[na++] = frx_arg_scalar(fs->bc->vals[i]);
    return na + (size_t)fr__bind_consts(s, a + na);
}

/* Keep a kernel with a stage time t for set_time. */
static int timed(fr_system *s, frx_kernel *k)
{
    frx_kernel **t = realloc(s->timed, (s->ntimed + 1) * sizeof *t);
    if (!t)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    s->timed = t;
    s->timed[s->ntimed++] = k;
    return FRX_OK;
}

/* The common flux's kernel of a set (fs->k). */
static int kernel_make(fr_system *s, struct fr_faces *fs, frx_arg *a)
{
    const fr_physics *p = &s->phys;
    size_t na = 0;
    const char *name;
    a[na++] = frx_arg_view(fs->ul);
    if (fs->kind == FR_FACES_INT) {
        name = s->kn.intflux;
        a[na++] = frx_arg_view(fs->ur);
    } else if (fs->kind == FR_FACES_PEER) {
        name = s->kn.mpiflux;
        a[na++] = frx_arg_xchg(fs->recv);
    } else {
        name = s->kn.bcflux[fs->bc - s->bcs];
    }
    a[na++] = frx_arg_matrix(fs->nl);
    a[na++] = frx_arg_matrix(fs->mag);
    if (fs->kind == FR_FACES_BC)
        a[na++] = frx_arg_matrix(fs->x);
    if (p->naux) {
        a[na++] = frx_arg_xchg(fs->al);
        if (fs->kind != FR_FACES_BC)
            a[na++] = frx_arg_xchg(fs->ar);
    }
    if (s->viscous) {
        a[na++] = frx_arg_view(fs->gl);
        if (fs->kind == FR_FACES_INT)
            a[na++] = frx_arg_view(fs->gr);
        else if (fs->kind == FR_FACES_PEER) {
            a[na++] = frx_arg_xchg(fs->grecv);
            a[na++] = frx_arg_matrix(fs->sb);
        }
    }
    if (fs->kind == FR_FACES_BC)
        na += bc_tail(s, fs, a + na);
    else
        na += (size_t)fr__bind_consts(s, a + na);
    int rc = frx_kernel_create(s->be, name, 1, fs->n, a, na, &fs->k);
    if (!rc && fs->kind == FR_FACES_BC)
        rc = timed(s, fs->k);
    return rc;
}

/* Viscous physics: the common solution's kernel of a set (fs->kc),
 * each side's jump to it. */
static int kernel_conu(fr_system *s, struct fr_faces *fs, frx_arg *a)
{
    size_t na = 0;
    const char *name;
    a[na++] = frx_arg_view(fs->ul);
    if (fs->kind == FR_FACES_INT) {
        name = s->kn.intconu;
        a[na++] = frx_arg_view(fs->ur);
        a[na++] = frx_arg_view(fs->dl);
        a[na++] = frx_arg_view(fs->dr);
    } else if (fs->kind == FR_FACES_PEER) {
        name = s->kn.mpiconu;
        a[na++] = frx_arg_xchg(fs->recv);
        a[na++] = frx_arg_view(fs->dl);
        a[na++] = frx_arg_matrix(fs->sb);
    } else {
        name = s->kn.bcconu[fs->bc - s->bcs];
        a[na++] = frx_arg_view(fs->dl);
        a[na++] = frx_arg_matrix(fs->nl);
        a[na++] = frx_arg_matrix(fs->x);
        if (s->phys.naux)
            a[na++] = frx_arg_xchg(fs->al);
        na += bc_tail(s, fs, a + na);
    }
    int rc = frx_kernel_create(s->be, name, 1, fs->n, a, na, &fs->kc);
    if (!rc && fs->kind == FR_FACES_BC)
        rc = timed(s, fs->kc);
    return rc;
}

static int kernels_make(fr_system *s, struct fr_faces *fs)
{
    size_t nmax = 12 + s->phys.nconsts + (fs->bc ? fs->bc->nvals : 0);
    frx_arg *a = calloc(nmax, sizeof *a);
    if (!a)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    int rc = kernel_make(s, fs, a);
    if (!rc && s->viscous)
        rc = kernel_conu(s, fs, a);
    free(a);
    return rc;
}

/* ---------------------------------------------------------------- sets */

static const frx_face *face_at(const frx_face *f, size_t size, size_t i)
{
    return (const frx_face *)(const void *)((const char *)f + i * size);
}

static const frx_face *face_at_v(const void *f, size_t size, size_t i)
{
    return face_at(f, size, i);
}

/* Interior flux points in the order of their l side's flux-point row
 * within groups of elements (block, element / group, row, element),
 * not face by face: the kernel then walks each row's points element
 * after element, a few long streams that the prefetchers follow, where
 * face by face it touched every row of an element at once (at p = 4, 40
 * streams: Euler's interior kernel takes under half the time in this
 * order, docs/euler.md). Groups keep the elements of threads that share
 * the points out in contiguous ranges apart, as they share the
 * elements, so each touches mostly its own elements' flux points: a
 * block has FR_FACE_GROUPS groups (so a split over up to that many
 * threads cuts few of them), each of FR_FACE_GROUP_MIN to
 * FR_FACE_GROUP_MAX elements (streams long enough to follow). In one
 * group a small block's two threads each took every element's points
 * of half the rows: 20 x 20 at p = 4 on 1 rank x 2 threads, the second
 * thread's share of the interior kernel took a third longer than the
 * first's, and the first waited for it. No result changes: each
 * point's flux is its own. */
#define FR_FACE_GROUPS 64
#define FR_FACE_GROUP_MIN 64
#define FR_FACE_GROUP_MAX 8192

static size_t group_size(size_t neles)
{
    size_t g = (neles + FR_FACE_GROUPS - 1) / FR_FACE_GROUPS;
    return g < FR_FACE_GROUP_MIN ? FR_FACE_GROUP_MIN
         : g > FR_FACE_GROUP_MAX ? FR_FACE_GROUP_MAX : g;
}

struct point_key {
    uint64_t at;    /* block << 48 | element / group << 16 | row */
    uint64_t ele;   /* then the element */
    size_t src;     /* the point's place in the mesh's faces' points */
};

static int by_row_in_group(const void *a, const void *b)
{
    const struct point_key *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    if (x->ele != y->ele)
        return x->ele < y->ele ? -1 : 1;
    return (x->src > y->src) - (x->src < y->src);
}

static const frx_mesh_iface *iface_at(const frx_mesh_iface *f, size_t size,
                                      size_t j)
{
    return (const frx_mesh_iface *)(const void *)((const char *)f + j * size);
}

/* The interior points in that order; pface [n]: each point's face in
 * the mesh's list (its first point at start[face]). */
static struct point_key *point_order(const fr_system *s,
                                     const frx_mesh_iface *f, size_t nf,
                                     size_t size, const size_t *start,
                                     size_t *pface)
{
    size_t n = start[nf];
    struct point_key *k = malloc((n ? n : 1) * sizeof *k);
    for (size_t j = 0; k && j < nf; j++) {
        const frx_face *l = &iface_at(f, size, j)->l;
        for (size_t i = start[j]; i < start[j + 1]; i++) {
            pface[i] = j;
            k[i] = (struct point_key){
                .at = (uint64_t)l->blk << 48 |
                      (uint64_t)(l->ele / group_size(
                                     s->blk[l->blk].neles)) << 16 |
                      fpt(s, l, i - start[j], 0),
                .ele = l->ele, .src = i};
        }
    }
    if (k)
        qsort(k, n, sizeof *k, by_row_in_group);
    return k;
}

/* Point i of p: side f's point k of its face (reversed: nfp-1-k). */
static void pts_point(const fr_system *s, struct pts *p, size_t i,
                      const frx_face *f, size_t k, int rev)
{
    p->blks[i] = f->blk;
    p->rows[i] = fpt(s, f, k, rev);
    p->eles[i] = f->ele;
}

/* Side f's points of one face from point at on into p. */
static void pts_face(const fr_system *s, struct pts *p, size_t at,
                     const frx_face *f, int rev)
{
    for (size_t k = 0; k < face_nfp(s, f); k++)
        pts_point(s, p, at + k, f, k, rev);
}

/* fs->fstart [nf + 1]: where each of the set's nf faces (side(j) the
 * side that counts) starts in its points; fs->n the points. */
static int face_starts(const fr_system *s, struct fr_faces *fs, size_t nf,
                       const frx_face *(*side)(const void *, size_t, size_t),
                       const void *faces, size_t size)
{
    fs->fstart = malloc((nf + 1) * sizeof *fs->fstart);
    if (!fs->fstart)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    fs->fstart[0] = 0;
    for (size_t j = 0; j < nf; j++)
        fs->fstart[j + 1] = fs->fstart[j] + face_nfp(s, side(faces, size, j));
    fs->nfaces = nf;
    fs->n = fs->fstart[nf];
    return FRX_OK;
}

static const frx_face *iface_l(const void *f, size_t size, size_t j)
{
    return &iface_at(f, size, j)->l;
}

static int interior(fr_system *s, const frx_mesh *mesh)
{
    const frx_mesh_iface *f;
    size_t nf, size;
    int rc = frx_mesh_get_ifaces(mesh, &f, &nf, &size);
    if (rc || !nf)
        return rc;
    struct fr_faces *fs = faces_add(s, FR_FACES_INT);
    if (!fs)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    if ((rc = face_starts(s, fs, nf, iface_l, f, size)))
        return rc;
    struct pts l = {0}, r = {0};
    struct geo_host g = {0};
    size_t *pface = malloc((fs->n ? fs->n : 1) * sizeof *pface);
    struct point_key *order =
        pface ? point_order(s, f, nf, size, fs->fstart, pface) : NULL;
    fs->pt_src = malloc((fs->n ? fs->n : 1) * sizeof *fs->pt_src);
    if (!order || !fs->pt_src) {
        free(order);
        free(pface);
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    }
    if (!(rc = pts_alloc(&l, fs->n)) && !(rc = pts_alloc(&r, fs->n)) &&
        !(rc = geo_alloc(&g, fs->n, (size_t)s->ndims, 2))) {
        for (size_t i = 0; i < fs->n; i++) {
            size_t src = fs->pt_src[i] = order[i].src, j = pface[src];
            size_t k = src - fs->fstart[j];
            const frx_mesh_iface *fj = iface_at(f, size, j);
            pts_point(s, &l, i, &fj->l, k, 0);
            pts_point(s, &r, i, &fj->r, k, 1);
            geo_point(s, &g, fs->n, i, &fj->l, fpt(s, &fj->l, k, 0), 0);
            geo_point(s, &g, fs->n, i, &fj->r, fpt(s, &fj->r, k, 1), 1);
        }
        if (!(rc = pts_view(s, &l, FP_U, &fs->ul)) &&
            !(rc = pts_view(s, &r, FP_U, &fs->ur)) && s->viscous &&
            !(rc = pts_view(s, &l, FP_DU, &fs->dl)) &&
            !(rc = pts_view(s, &r, FP_DU, &fs->dr)) &&
            !(rc = pts_view(s, &l, FP_GRAD, &fs->gl)))
            rc = pts_view(s, &r, FP_GRAD, &fs->gr);
        if (!rc && !(rc = geo_upload(s, fs, &g, 2, 0)) && s->phys.naux &&
            !(rc = aux_snapshot(s, &l, &fs->auxl, &fs->auxlxv, &fs->al)))
            rc = aux_snapshot(s, &r, &fs->auxr, &fs->auxrxv, &fs->ar);
    }
    free(order);
    free(pface);
    pts_free(&l);
    pts_free(&r);
    geo_free(&g);
    return rc;
}

/* Flags our element of a face shared with a peer (fr_blk.at_peer). */
static int mark_at_peer(fr_system *s, const frx_face *f)
{
    struct fr_blk *b = &s->blk[f->blk];
    if (!b->at_peer && !(b->at_peer = calloc(b->neles, 1)))
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    b->at_peer[f->ele] = 1;
    return FRX_OK;
}

/* Viscous physics at a peer's faces: the jump to the common solution
 * and the gradient at our points (l), and the gradient's exchange (our
 * side in the peer's order, r, and what it sends: ndims x nvars a
 * point). */
static int peer_viscous(fr_system *s, struct fr_faces *fs,
                        const struct pts *l, const struct pts *r,
                        const frx_mesh_peer *mp)
{
    if (!FRX_SIZE_HOLDS(frx_mesh_peer, mp, canonical) || !mp->canonical)
        return frx_error(FRX_ENOTSUP, "%s: this frx's mesh does not say "
                         "which side of a face shared with a peer is "
                         "canonical (ABI 1.11): viscous physics needs it",
                         s->phys.name);
    double *sb = malloc((fs->n ? fs->n : 1) * sizeof *sb);
    if (!sb)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    for (size_t j = 0; j < fs->nfaces; j++)
        for (size_t i = fs->fstart[j]; i < fs->fstart[j + 1]; i++)
            sb[i] = mp->canonical[j] ? 1 : -1;
    int rc = fr__matrix_from(s->be, 1, 1, fs->n, sb, &fs->sb);
    free(sb);
    if (!rc)
        rc = pts_view(s, l, FP_DU, &fs->dl);
    if (!rc)
        rc = pts_view(s, l, FP_GRAD, &fs->gl);
    if (!rc)
        rc = pts_view(s, r, FP_GRAD, &fs->gsend);
    if (!rc)
        rc = frx_xchg_view_create(fs->gsend, &fs->gsendxv);
    if (!rc)
        rc = frx_xchg_matrix_create(s->be, fs->n, (size_t)s->ndims,
                                    s->phys.nvars, &fs->grecv);
    return rc;
}

/* The faces shared with peer i: views, normals and the exchanges,
 * registered in the same order on both ranks (aux, then ufp). */
static int peer(fr_system *s, const frx_mesh *mesh, size_t i)
{
    frx_mesh_peer mp = {.size = sizeof mp};
    int rc = frx_mesh_get_peer(mesh, i, &mp);
    if (rc || !mp.nfaces)
        return rc;
    struct fr_faces *fs = faces_add(s, FR_FACES_PEER);
    if (!fs)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    fs->peer = mp.rank;
    if ((rc = face_starts(s, fs, mp.nfaces, face_at_v, mp.faces, mp.face_size)))
        return rc;
    struct pts l = {0}, r = {0};
    struct geo_host g = {0};
    if (!(rc = pts_alloc(&l, fs->n)) && !(rc = pts_alloc(&r, fs->n)) &&
        !(rc = geo_alloc(&g, fs->n, (size_t)s->ndims, 1))) {
        for (size_t j = 0; j < mp.nfaces && !rc; j++) {
            const frx_face *fj = face_at(mp.faces, mp.face_size, j);
            size_t at = fs->fstart[j];
            rc = mark_at_peer(s, fj);
            pts_face(s, &l, at, fj, 0);
            pts_face(s, &r, at, fj, 1); /* what we send: reversed */
            for (size_t k = 0; k < face_nfp(s, fj); k++)
                geo_point(s, &g, fs->n, at + k, fj, fpt(s, fj, k, 0), 0);
        }
        if (!rc)
            rc = pts_view(s, &l, FP_U, &fs->ul);
        if (!rc)
            rc = pts_view(s, &r, FP_U, &fs->send);
        if (!rc && s->viscous)
            rc = peer_viscous(s, fs, &l, &r, &mp);
        if (!rc)
            rc = geo_upload(s, fs, &g, 1, 0);
        if (!rc && s->phys.naux &&
            !(rc = aux_snapshot(s, &l, &fs->auxl, &fs->auxlxv, &fs->al)) &&
            !(rc = aux_snapshot(s, &r, &fs->auxr, &fs->auxrxv,
                                &fs->asend)) &&
            !(rc = frx_xchg_matrix_create(s->be, fs->n, 1, s->phys.naux,
                                          &fs->ar)) &&
            !(rc = frx_comm_add_send_named(s->comm, fs->asend, fs->peer,
                                           "auxiliary fields",
                                           &fs->asend_id)))
            rc = frx_comm_add_recv_named(s->comm, fs->ar, fs->peer,
                                         "auxiliary fields", &fs->arecv_id);
        if (!rc)
            rc = frx_xchg_view_create(fs->send, &fs->sendxv);
        if (!rc)
            rc = frx_xchg_matrix_create(s->be, fs->n, 1, s->phys.nvars,
                                        &fs->recv);
        if (!rc)
            rc = frx_comm_add_send_named(s->comm,
                                         frx_xchg_view_matrix(fs->sendxv),
                                         fs->peer, "solution at flux points",
                                         &fs->send_id);
        if (!rc)
            rc = frx_comm_add_recv_named(s->comm, fs->recv, fs->peer,
                                         "solution at flux points",
                                         &fs->recv_id);
        if (!rc && s->viscous &&
            !(rc = frx_comm_add_send_named(s->comm,
                                           frx_xchg_view_matrix(fs->gsendxv),
                                           fs->peer, "gradient at flux points",
                                           &fs->gsend_id)))
            rc = frx_comm_add_recv_named(s->comm, fs->grecv, fs->peer,
                                         "gradient at flux points",
                                         &fs->grecv_id);
    }
    pts_free(&l);
    pts_free(&r);
    geo_free(&g);
    return rc;
}

/* The kind's own check of a boundary (fr_bc_kind.check), on its flux
 * points as the kernels will see them, with its values there at the
 * start. */
static int bc_check(fr_system *s, const struct fr_faces *fs,
                    const struct geo_host *g)
{
    const fr_bc_kind *k = fs->bc->kind;
    if (!k->check)
        return FRX_OK;
    size_t n = fs->n, nd = (size_t)s->ndims, na = s->phys.naux;
    size_t nk = fs->bc->nvals;
    double *x = malloc(n * nd * sizeof *x), *nrm = malloc(n * nd * sizeof *nrm);
    double *vals = malloc((n * nk > 0 ? n * nk : 1) * sizeof *vals);
    double *aux = na && s->phys.aux_at ? malloc(n * na * sizeof *aux) : NULL;
    int rc = x && nrm && vals && (aux || !na || !s->phys.aux_at)
                 ? FRX_OK
                 : frx_error(FRX_ENOMEM, "fr: out of memory");
    for (size_t i = 0; i < n && !rc; i++) /* g's layout: [ndims][n] */
        for (size_t d = 0; d < nd; d++) {
            x[i * nd + d] = g->x[d * n + i];
            nrm[i * nd + d] = g->nl[d * n + i];
        }
    if (!rc && aux)
        rc = s->phys.aux_at(s->phys.ctx, n, x, aux);
    if (!rc)
        rc = fr__bc_values(s, fs->bc, n, x, s->t0, vals);
    if (!rc)
        rc = k->check(s->phys.ctx, fs->bc->where, vals, n, x, nrm, aux);
    free(x);
    free(nrm);
    free(vals);
    free(aux);
    return rc;
}

static int boundary(fr_system *s, const frx_mesh *mesh, size_t i)
{
    frx_mesh_bc mb = {.size = sizeof mb};
    int rc = frx_mesh_get_bc(mesh, i, &mb);
    if (rc || !mb.nfaces)
        return rc;
    struct fr_faces *fs = faces_add(s, FR_FACES_BC);
    if (!fs)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    fs->bc = &s->bcs[i];
    if ((rc = face_starts(s, fs, mb.nfaces, face_at_v, mb.faces, mb.face_size)))
        return rc;
    struct pts l = {0};
    struct geo_host g = {0};
    fs->fwts = malloc(fs->n * sizeof *fs->fwts);
    fs->pblk = malloc(fs->n * sizeof *fs->pblk);
    fs->pele = malloc(fs->n * sizeof *fs->pele);
    fs->pfpt = malloc(fs->n * sizeof *fs->pfpt);
    if (!fs->fwts || !fs->pblk || !fs->pele || !fs->pfpt)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    if (!(rc = pts_alloc(&l, fs->n)) &&
        !(rc = geo_alloc(&g, fs->n, (size_t)s->ndims, 1))) {
        for (size_t j = 0; j < mb.nfaces; j++) {
            const frx_face *fj = face_at(mb.faces, mb.face_size, j);
            const double *w = fr_element_fpts_weights(s->blk[fj->blk].el);
            pts_face(s, &l, fs->fstart[j], fj, 0);
            for (size_t k = 0; k < face_nfp(s, fj); k++) {
                size_t at = fs->fstart[j] + k;
                geo_point(s, &g, fs->n, at, fj, fpt(s, fj, k, 0), 0);
                fs->fwts[at] = w[fpt(s, fj, k, 0)];
                fs->pblk[at] = fj->blk;
                fs->pele[at] = fj->ele;
                fs->pfpt[at] = fpt(s, fj, k, 0);
            }
        }
        if (!(rc = bc_check(s, fs, &g)) &&
            !(rc = pts_view(s, &l, FP_U, &fs->ul)) && s->viscous &&
            !(rc = pts_view(s, &l, FP_DU, &fs->dl)))
            rc = pts_view(s, &l, FP_GRAD, &fs->gl);
        if (!rc && !(rc = geo_upload(s, fs, &g, 1, 1)) && s->phys.naux)
            rc = aux_snapshot(s, &l, &fs->auxl, &fs->auxlxv, &fs->al);
    }
    pts_free(&l);
    geo_free(&g);
    return rc;
}

/* Each peer's auxiliary fields, once: the snapshots cross. */
static int aux_exchange(fr_system *s)
{
    frx_graph *g;
    int rc = frx_graph_create(s->be, &g);
    for (size_t i = 0; i < s->nfaces && !rc; i++) {
        struct fr_faces *fs = &s->faces[i];
        if (fs->kind == FR_FACES_PEER && fs->asend_id >= 0 &&
            !(rc = frx_graph_add_recv(g, s->comm, fs->arecv_id, NULL, 0,
                                      NULL)))
            rc = frx_graph_add_send(g, s->comm, fs->asend_id, NULL, 0, NULL);
    }
    for (size_t i = 0; i < s->nfaces && !rc; i++) {
        struct fr_faces *fs = &s->faces[i];
        if (fs->kind == FR_FACES_PEER && fs->asend_id >= 0 &&
            !(rc = frx_graph_add_wait(g, s->comm, fs->arecv_id, NULL, 0,
                                      NULL)))
            rc = frx_graph_add_wait(g, s->comm, fs->asend_id, NULL, 0, NULL);
    }
    if (!rc)
        rc = frx_graph_commit(g);
    if (!rc)
        rc = frx_graph_run(g);
    frx_graph_destroy(g);
    return rc;
}

int fr__build_faces(fr_system *s, const frx_mesh *mesh)
{
    frx_mesh_info mi = {.size = sizeof mi};
    int rc = frx_mesh_get_info(mesh, &mi);
    if (!rc)
        rc = interior(s, mesh);
    for (size_t i = 0; i < mi.npeers && !rc; i++)
        rc = peer(s, mesh, i);
    for (size_t i = 0; i < mi.nbcs && !rc; i++)
        rc = boundary(s, mesh, i);
    return rc;
}

int fr__finish_faces(fr_system *s)
{
    int rc = s->phys.naux ? aux_exchange(s) : FRX_OK;
    for (size_t i = 0; i < s->nfaces && !rc; i++)
        rc = kernels_make(s, &s->faces[i]);
    return rc;
}

void fr__free_faces(fr_system *s)
{
    for (size_t i = 0; i < s->nfaces; i++) {
        struct fr_faces *fs = &s->faces[i];
        frx_kernel *ks[] = {fs->k, fs->kc};
        for (size_t k = 0; k < 2; k++)
            if (ks[k])
                frx_kernel_destroy(ks[k]);
        frx_xchg_view *xv[] = {fs->sendxv, fs->auxlxv, fs->auxrxv,
                               fs->gsendxv};
        for (size_t k = 0; k < 4; k++)
            if (xv[k])
                frx_xchg_view_destroy(xv[k]);
        frx_xchg_matrix *xm[] = {fs->recv, fs->al, fs->ar, fs->asend,
                                 fs->grecv};
        for (size_t k = 0; k < 5; k++)
            if (xm[k])
                frx_xchg_matrix_destroy(xm[k]);
        frx_view *v[] = {fs->ul, fs->ur, fs->send, fs->auxl, fs->auxr,
                         fs->dl, fs->dr, fs->gl, fs->gr, fs->gsend};
        for (size_t k = 0; k < 10; k++)
            if (v[k])
                frx_view_destroy(v[k]);
        frx_matrix *m[] = {fs->nl, fs->mag, fs->x, fs->sb};
        for (size_t k = 0; k < 4; k++)
            if (m[k])
                frx_matrix_destroy(m[k]);
        free(fs->pt_src);
        free(fs->fstart);
        free(fs->fwts);
        free(fs->pblk);
        free(fs->pele);
        free(fs->pfpt);
    }
    free(s->faces);
    s->faces = NULL;
    s->nfaces = 0;
}
