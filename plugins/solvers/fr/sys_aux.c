/* SPDX-License-Identifier: BSD-3-Clause */
/* The base-flow check (auxcheck.h): the auxiliary fields saved at t = 0
 * at every interface against the live ones, by reduction kernels and a
 * host node. It reads the system's face sets (system-internal.h) and
 * adds nothing to the system itself. */
#include <frx/fr/auxcheck.h>
#include "system-internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One comparison: the live fields at a face set's points against what
 * the set saved at t = 0. */
struct cmp {
    struct fr_faces *fs;
    int other;                /* 0: our side (al); 1: the other (ar) */
    frx_kernel *k;
    frx_xchg_matrix *live;    /* a peer's live side, received */
    uint64_t *gele;           /* per face: the side's global element */
    uint16_t *gface;          /* and its face, */
    uint16_t *grot;           /* rot and */
    uint32_t *gblk;           /* block (explain's own numbering) */
    double diff;              /* the last run's max |saved - live| */
};

struct fr_auxcheck {
    fr_system *s;
    MPI_Comm mpi;             /* a duplicate: the live sides' messages */
    char prefix[96];
    char kview[64], kxchg[64];
    struct cmp *c;
    size_t n;
};

/* ------------------------------------------------------------- kernels */

/* live is a view of auxfp (or a received xchg matrix); saved the
 * snapshot. NaN counts as the largest difference (max ignores NaN). */
static int reg_kernels(fr_auxcheck *c)
{
    size_t na = c->s->phys.naux;
    char args[256], body[512];
    snprintf(body, sizeof body,
             "d[0] = 0;\n"
             "for (int _k = 0; _k < %zu; _k++) {\n"
             "    fpdtype_t _e = fabs(live[_k] - saved[_k]);\n"
             "    if (!(_e <= d[0]))\n"
             "        d[0] = _e == _e ? _e : (fpdtype_t)3.0e38;\n"
             "}\n", na);
    int rc = FRX_OK;
    for (int x = 0; x < 2 && !rc; x++) {
        char *name = x ? c->kxchg : c->kview;
        snprintf(name, 64, "auxdiff_%s_%zu", x ? "xchg" : "view", na);
        snprintf(args, sizeof args,
                 "in %s fpdtype_t[%zu] live, in xchg fpdtype_t[%zu] saved, "
                 "out reduce(max) fpdtype_t[1] d", x ? "xchg" : "view", na,
                 na);
        frx_kernel_decl d = {.name = name, .ndim = 1, .args = args,
                             .body = body};
        rc = frx_kernel_register(c->s->be, &d);
    }
    return rc;
}

static int make_kernel(fr_auxcheck *c, struct cmp *m)
{
    struct fr_faces *fs = m->fs;
    frx_arg a[3];
    const char *name = c->kview;
    if (!m->other)
        a[0] = frx_arg_view(fs->auxl);
    else if (fs->kind == FR_FACES_INT)
        a[0] = frx_arg_view(fs->auxr);
    else {
        a[0] = frx_arg_xchg(m->live);
        name = c->kxchg;
    }
    a[1] = frx_arg_xchg(m->other ? fs->ar : fs->al);
    a[2] = frx_arg_reduce();
    return frx_kernel_create(c->s->be, name, 1, fs->n, a, 3, &m->k);
}

/* ---------------------------------------------------- where the faces are */

static const frx_face *face_at(const void *f, size_t size, size_t i)
{
    return (const frx_face *)(const void *)((const char *)f + i * size);
}

/* The faces of m's set on its compared side, in the mesh's order (an
 * interior set's points say where they come from: pt_src). */
static int locate(fr_auxcheck *c, const frx_mesh *mesh, struct cmp *m)
{
    struct fr_faces *fs = m->fs;
    m->gele = calloc(fs->nfaces ? fs->nfaces : 1, sizeof *m->gele);
    m->gface = calloc(fs->nfaces ? fs->nfaces : 1, sizeof *m->gface);
    m->grot = calloc(fs->nfaces ? fs->nfaces : 1, sizeof *m->grot);
    m->gblk = calloc(fs->nfaces ? fs->nfaces : 1, sizeof *m->gblk);
    if (!m->gele || !m->gface || !m->grot || !m->gblk)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    const void *faces = NULL;
    size_t size = sizeof(frx_face), stride = 0, nf = 0;
    int rc = FRX_OK;
    if (fs->kind == FR_FACES_INT) {
        const frx_mesh_iface *f;
        rc = frx_mesh_get_ifaces(mesh, &f, &nf, &size);
        faces = m->other ? (const void *)&f->r : (const void *)&f->l;
    } else if (fs->kind == FR_FACES_PEER) {
        frx_mesh_info mi = {.size = sizeof mi};
        rc = frx_mesh_get_info(mesh, &mi);
        for (size_t i = 0; !rc && i < mi.npeers && !faces; i++) {
            frx_mesh_peer mp = {.size = sizeof mp};
            rc = frx_mesh_get_peer(mesh, i, &mp);
            if (!rc && mp.rank == fs->peer) {
                faces = mp.faces;
                size = mp.face_size;
                nf = mp.nfaces;
            }
        }
    } else {
        frx_mesh_bc mb = {.size = sizeof mb};
        rc = frx_mesh_get_bc(mesh, (size_t)(fs->bc - c->s->bcs), &mb);
        faces = mb.faces;
        size = mb.face_size;
        nf = mb.nfaces;
    }
    stride = size;
    if (!rc && (!faces || nf != fs->nfaces))
        rc = frx_error(FRX_EINVAL, "%s: the mesh's faces do not match the "
                       "system's (%zu, %zu)", c->prefix, nf, fs->nfaces);
    for (size_t j = 0; !rc && j < nf; j++) {
        const frx_face *f = face_at(faces, stride, j);
        frx_mesh_block mb = {.size = sizeof mb};
        if (!(rc = frx_mesh_get_block(mesh, f->blk, &mb))) {
            m->gele[j] = mb.gid[f->ele];
            m->gface[j] = f->face;
            m->grot[j] = f->rot;
            m->gblk[j] = f->blk;
        }
    }
    return rc;
}

/* -------------------------------------------------------------- create */

static struct cmp *cmp_add(fr_auxcheck *c, struct fr_faces *fs, int other)
{
    struct cmp *v = realloc(c->c, (c->n + 1) * sizeof *v);
    if (!v)
        return NULL;
    c->c = v;
    struct cmp *m = &v[c->n++];
    memset(m, 0, sizeof *m);
    m->fs = fs;
    m->other = other;
    return m;
}

int fr_auxcheck_create(fr_system *s, const frx_mesh *mesh,
                       const char *prefix, fr_auxcheck **out)
{
    *out = NULL;
    if (!s->phys.naux)
        return frx_error(FRX_EINVAL, "%s: the physics has no auxiliary "
                         "fields to check", prefix);
    fr_auxcheck *c = calloc(1, sizeof *c);
    if (!c)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    *out = c;
    c->s = s;
    c->mpi = MPI_COMM_NULL;
    snprintf(c->prefix, sizeof c->prefix, "%s", prefix);
    int rc = MPI_Comm_dup(frx_comm_mpi(s->comm), &c->mpi) == MPI_SUCCESS
                 ? FRX_OK
                 : frx_error(FRX_EMPI, "%s: MPI_Comm_dup failed", prefix);
    if (!rc)
        rc = reg_kernels(c);
    for (size_t i = 0; i < s->nfaces && !rc; i++) {
        struct fr_faces *fs = &s->faces[i];
        for (int other = 0; other < 2 && !rc; other++) {
            if (other && fs->kind == FR_FACES_BC)
                break;
            struct cmp *m = cmp_add(c, fs, other);
            if (!m)
                return frx_error(FRX_ENOMEM, "fr: out of memory");
            if (other && fs->kind == FR_FACES_PEER)
                rc = frx_xchg_matrix_create(s->be, fs->n, 1, s->phys.naux,
                                            &m->live);
            if (!rc)
                rc = make_kernel(c, m);
            if (!rc)
                rc = locate(c, mesh, m);
        }
    }
    return rc;
}

void fr_auxcheck_destroy(fr_auxcheck *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        if (c->c[i].k)
            frx_kernel_destroy(c->c[i].k);
        if (c->c[i].live)
            frx_xchg_matrix_destroy(c->c[i].live);
        free(c->c[i].gele);
        free(c->c[i].gface);
        free(c->c[i].grot);
        free(c->c[i].gblk);
    }
    free(c->c);
    if (c->mpi != MPI_COMM_NULL)
        MPI_Comm_free(&c->mpi);
    free(c);
}

/* ------------------------------------------------------------- failing */

/* Where m found a difference: the first point, field and both values. */
static int explain(fr_auxcheck *c, const struct cmp *m)
{
    struct fr_faces *fs = m->fs;
    size_t na = c->s->phys.naux, n = fs->n;
    double *sv = malloc(n * na * sizeof *sv), *lv = malloc(n * na *
                                                           sizeof *lv);
    int rc = sv && lv ? FRX_OK : frx_error(FRX_ENOMEM, "fr: out of memory");
    frx_xchg_view *xv = m->other ? fs->auxrxv : fs->auxlxv;
    if (!rc)
        rc = frx_xchg_matrix_read_double(m->other ? fs->ar : fs->al, sv);
    if (!rc && m->live)
        rc = frx_xchg_matrix_read_double(m->live, lv);
    else if (!rc && !(rc = frx_xchg_view_pack(xv)))
        rc = frx_xchg_matrix_read_double(frx_xchg_view_matrix(xv), lv);
    size_t at = n * na;
    for (size_t i = 0; !rc && i < n * na && at == n * na; i++)
        if (!(sv[i] == lv[i]))
            at = i;
    char where[160];
    if (fs->kind == FR_FACES_PEER)
        snprintf(where, sizeof where, "the interface with rank %d (%s)",
                 fs->peer, m->other ? "its side, saved here at t = 0 and "
                 "sent again now" : "this rank's side");
    else if (fs->kind == FR_FACES_INT)
        snprintf(where, sizeof where, "the interior faces (%s side)",
                 m->other ? "right" : "left");
    else
        snprintf(where, sizeof where, "boundary '%s'", fs->bc->name);
    if (!rc && at < n * na) {
        size_t f = at / n, p = at % n, src = fs->pt_src ? fs->pt_src[p] : p;
        size_t j = 0;
        while (j + 1 < fs->nfaces && fs->fstart[j + 1] <= src)
            j++;
        size_t k = src - fs->fstart[j];
        if (fs->kind == FR_FACES_INT && m->other) /* as r numbers it */
            k = fr_element_facing(c->s->blk[m->gblk[j]].el, m->gface[j], m->grot[j], k);
        rc = frx_error(FRX_ERANGE, "%s: the base flow saved at t = 0 is not "
                       "the live one on %s: face %zu of %zu (element %llu, "
                       "face %u), flux point %zu: %s saved %.17g, live "
                       "%.17g; max |difference| %.3g", c->prefix, where, j,
                       fs->nfaces, (unsigned long long)m->gele[j],
                       (unsigned)m->gface[j], k, c->s->phys.aux[f],
                       sv[at], lv[at], m->diff);
    } else if (!rc) /* the kernel saw what the host cannot: say so */
        rc = frx_error(FRX_ERANGE, "%s: the base flow saved at t = 0 is not "
                       "the live one on %s: max |difference| %.3g",
                       c->prefix, where, m->diff);
    free(sv);
    free(lv);
    return rc;
}

static int host_check(void *ud)
{
    fr_auxcheck *c = ud;
    int rc = FRX_OK;
    for (size_t i = 0; i < c->n && !rc; i++)
        rc = frx_kernel_result(c->c[i].k, "d", &c->c[i].diff, 1);
    for (size_t i = 0; i < c->n && !rc; i++)
        if (c->c[i].diff != 0)
            rc = explain(c, &c->c[i]);
    return rc;
}

/* --------------------------------------------------------------- graphs */

/* Each peer's live side, packed again by the peer as at t = 0, into
 * m->live. Plain MPI on a communicator of our own, inside a host node:
 * the graph holds no exchange nodes, so a failing check is agreed by
 * every rank (frx's time loop names step, time and rank) rather than
 * ending the job. Every rank sends and receives even after a local
 * failure, so that no peer waits in vain. */
static int host_exchange(void *ud)
{
    fr_auxcheck *c = ud;
    MPI_Request *rq = calloc(2 * c->n + 1, sizeof *rq);
    if (!rq)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    int rc = FRX_OK;
    size_t nrq = 0;
    for (size_t i = 0; i < c->n; i++) {
        struct cmp *m = &c->c[i];
        if (!m->live)
            continue;
        frx_xchg_matrix *mine = frx_xchg_view_matrix(m->fs->auxrxv);
        int r = frx_xchg_view_pack(m->fs->auxrxv);
        if (!r)
            r = frx_xchg_matrix_to_host(mine);
        rc = rc ? rc : r;
        int bytes = (int)frx_xchg_matrix_bytes(m->live);
        MPI_Irecv(frx_xchg_matrix_host(m->live), bytes, MPI_BYTE,
                  m->fs->peer, 0, c->mpi, &rq[nrq++]);
        MPI_Isend(frx_xchg_matrix_host(mine), bytes, MPI_BYTE, m->fs->peer,
                  0, c->mpi, &rq[nrq++]);
    }
    if (MPI_Waitall((int)nrq, rq, MPI_STATUSES_IGNORE) != MPI_SUCCESS &&
        !rc)
        rc = frx_error(FRX_EMPI, "%s: the exchange of the live base flow "
                       "failed", c->prefix);
    free(rq);
    for (size_t i = 0; i < c->n && !rc; i++)
        if (c->c[i].live)
            rc = frx_xchg_matrix_to_device(c->c[i].live);
    return rc;
}

int fr_auxcheck_build(fr_auxcheck *c, frx_graph *g)
{
    int rc = frx_graph_add_host(g, host_exchange, c, NULL);
    for (size_t i = 0; i < c->n && !rc; i++)
        rc = frx_graph_add_kernel(g, c->c[i].k, NULL, 0, NULL);
    if (!rc)
        rc = frx_graph_add_host(g, host_check, c, NULL);
    return rc;
}

int fr_auxcheck_run(fr_auxcheck *c, double *maxdiff, size_t *nsets)
{
    frx_graph *g;
    int rc = frx_graph_create(c->s->be, &g);
    if (!rc)
        rc = fr_auxcheck_build(c, g);
    if (!rc)
        rc = frx_graph_commit(g);
    if (!rc)
        rc = frx_graph_run(g);
    frx_graph_destroy(g);
    double m = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!(c->c[i].diff <= m))
            m = c->c[i].diff;
    if (maxdiff)
        *maxdiff = m;
    if (nsets)
        *nsets = c->s->nfaces;
    return rc;
}

/* Tests' damage: delta added to one value. */
int fr_auxcheck_corrupt(fr_auxcheck *c, size_t field, double delta)
{
    struct cmp *m = NULL;
    for (size_t i = 0; i < c->n && !m; i++)
        if (c->c[i].live)
            m = &c->c[i];
    if (!m)
        return FRX_ENOTFOUND;
    size_t n = m->fs->n, na = c->s->phys.naux;
    if (field >= na)
        return frx_error(FRX_EINVAL, "%s: no field %zu", c->prefix, field);
    double *h = malloc(n * na * sizeof *h);
    int rc = h ? frx_xchg_matrix_read_double(m->fs->ar, h)
               : frx_error(FRX_ENOMEM, "fr: out of memory");
    if (!rc) {
        h[field * n + n / 2] += delta;
        rc = frx_xchg_matrix_write_double(m->fs->ar, h);
    }
    free(h);
    return rc;
}

/* The block and local element of global element gid (the blocks' gid
 * lists ascend), or FRX_ENOTFOUND. */
static int find_element(const frx_mesh *mesh, size_t nblocks, uint64_t gid,
                        size_t *blk, size_t *ele)
{
    for (size_t b = 0; b < nblocks; b++) {
        frx_mesh_block mb = {.size = sizeof mb};
        int rc = frx_mesh_get_block(mesh, b, &mb);
        if (rc)
            return rc;
        size_t lo = 0, hi = mb.neles;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (mb.gid[mid] < gid)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < mb.neles && mb.gid[lo] == gid) {
            *blk = b;
            *ele = lo;
            return FRX_OK;
        }
    }
    return FRX_ENOTFOUND;
}

int fr_auxcheck_damage_live(fr_auxcheck *c, const frx_mesh *mesh,
                            uint64_t gid, size_t fpt, size_t field,
                            double delta)
{
    size_t b = 0, e = 0, na = c->s->phys.naux;
    int rc = find_element(mesh, c->s->nblocks, gid, &b, &e);
    if (rc)
        return rc;
    frx_matrix *m = c->s->blk[b].auxfp;
    size_t nrow = frx_matrix_nrow(m), neles = frx_matrix_neles(m);
    if (field >= na || fpt >= nrow)
        return frx_error(FRX_EINVAL, "%s: no field %zu or flux point %zu "
                         "(%zu fields, %zu points an element)", c->prefix,
                         field, fpt, na, nrow);
    double *h = malloc(nrow * na * neles * sizeof *h);
    rc = h ? frx_matrix_read_double(m, h)
           : frx_error(FRX_ENOMEM, "fr: out of memory");
    if (!rc) {
        h[(fpt * na + field) * neles + e] += delta;
        rc = frx_matrix_write_double(m, h);
    }
    free(h);
    return rc;
}
