/* SPDX-License-Identifier: BSD-3-Clause */
/* The FR system's solver ops: the initial condition, the RHS graph
 * (system.h gives its order: exchanges started first, waited for
 * last), stage times, the exact solution and max_dt. */
#include "system-internal.h"

#include <frx/comm.h>

#include <math.h>
#include <stdlib.h>

int fr_system_initial(fr_system *s, frx_matrix *const *u)
{
    int rc = FRX_OK;
    for (size_t i = 0; i < s->nblocks && !rc && s->phys.initial_src; i++)
        rc = fr__field_fill(s, &s->blk[i], 1, 0, u[i]);
    for (size_t i = 0; i < s->nblocks && !rc && !s->phys.initial_src; i++) {
        struct fr_blk *b = &s->blk[i];
        size_t n = b->neles * b->nupts, nv = s->phys.nvars;
        size_t nn = n * nv > 0 ? n * nv : 1;
        double *v = malloc(nn * sizeof *v), *h = malloc(nn * sizeof *h);
        rc = v && h ? s->phys.initial(s->phys.ctx, s->t0, n, b->geo.xupts, v)
                    : frx_error(FRX_ENOMEM, "fr: out of memory");
        if (!rc) {
            fr_to_matrix_layout(v, b->neles, b->nupts, nv, h);
            rc = frx_matrix_write_double(u[i], h);
        }
        free(v);
        free(h);
    }
    return rc;
}

static int keep_product(fr_system *s, frx_product *p)
{
    frx_product **v = realloc(s->ps, (s->nps + 1) * sizeof *v);
    if (!v) {
        frx_product_destroy(p);
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    }
    s->ps = v;
    s->ps[s->nps++] = p;
    return FRX_OK;
}

/* C = A B (beta 0) or C += A B (beta 1), as a node of g. */
static int product(fr_system *s, frx_graph *g, frx_matrix *a, frx_matrix *b,
                   frx_matrix *c, double beta)
{
    frx_product *p;
    int rc = frx_product_create(a, b, c, 1.0, beta, &p);
    if (!rc)
        rc = keep_product(s, p);
    if (!rc)
        rc = frx_graph_add_product(g, p, NULL, 0, NULL);
    return rc;
}

/* A kernel over nupts x neles of block b, kept and added to g. */
static int block_kernel(fr_system *s, frx_graph *g, const char *name,
                        const struct fr_blk *b, const frx_arg *a, size_t na,
                        frx_kernel **out)
{
    frx_kernel *k;
    int rc = frx_kernel_create(s->be, name, b->nupts, b->neles, a, na, &k);
    if (rc || (rc = fr__keep_kernel(s, k)))
        return rc;
    if (out)
        *out = k;
    return g ? frx_graph_add_kernel(g, k, NULL, 0, NULL) : FRX_OK;
}

/* Room for one more slice in the system's list. */
static int slice_room(fr_system *s)
{
    if (s->nslices < s->slices_cap)
        return FRX_OK;
    size_t cap = s->slices_cap ? 2 * s->slices_cap : 64; /* thousands */
    frx_matrix **v = realloc(s->slices, cap * sizeof *v);
    if (!v)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    s->slices = v;
    s->slices_cap = cap;
    return FRX_OK;
}

/* Elements [e0, e1) of m, kept until the system goes (NULL stays NULL). */
static int slice(fr_system *s, frx_matrix *m, size_t e0, size_t e1,
                 frx_matrix **out)
{
    *out = NULL;
    if (!m)
        return FRX_OK;
    if (e0 == 0 && e1 == frx_matrix_neles(m)) {
        *out = m;
        return FRX_OK;
    }
    int rc = slice_room(s);
    if (!rc)
        rc = frx_matrix_slice(m, e0, e1, out);
    if (!rc)
        s->slices[s->nslices++] = *out;
    return rc;
}

/* The elements of a stretch: [k0, k1) of each part of the block's
 * matrices (parts of P elements, frx.h; P = neles where they are one
 * part), so that with a part a thread each thread takes its own
 * part's piece (frx_matrix_slice_parts). */
struct fr_range {
    size_t k0, k1, P;
};

static size_t range_neles(const struct fr_blk *b, const struct fr_range *r)
{
    size_t n = 0;
    for (size_t p0 = 0; p0 + r->k0 < b->neles; p0 += r->P) {
        size_t e1 = p0 + r->k1 < b->neles ? p0 + r->k1 : b->neles;
        n += e1 - (p0 + r->k0);
    }
    return n;
}

/* The range's elements of m (a matrix of the block's elements). */
static int slice_range(fr_system *s, frx_matrix *m, const struct fr_range *r,
                       frx_matrix **out)
{
    *out = NULL;
    if (!m)
        return FRX_OK;
    if (r->k0 == 0 && r->k1 >= r->P) {
        *out = m;
        return FRX_OK;
    }
    int rc = slice_room(s);
    if (!rc)
        rc = frx_matrix_slice_parts(m, r->k0, r->k1, out);
    if (!rc)
        s->slices[s->nslices++] = *out;
    return rc;
}

/* The range of a block and of its registers u and f: what a
 * stretch (late 0 or 1, below) reads and writes. The block's other
 * element matrices are left NULL, so that a node given one fails
 * loudly rather than reading the whole block. */
static int part(fr_system *s, size_t i, frx_matrix *u, frx_matrix *f,
                const struct fr_range *r, int late, struct fr_blk *p,
                frx_matrix **pu, frx_matrix **pf)
{
    const struct fr_blk *b = &s->blk[i];
    *p = *b;
    size_t n = range_neles(b, r);
    p->neles = n;
    p->smats = p->rcpdjac = p->invh = p->ploc = p->aux = p->ufp = NULL;
    p->auxfp = p->tf = p->gu = p->dufp = p->gfp = NULL;
    int src = late && s->phys.source;
    int rc = slice_range(s, f, r, pf);
    if (!rc && (!late || src))
        rc = slice_range(s, u, r, pu);
    if (!rc && (!late || src))
        rc = slice_range(s, b->aux, r, &p->aux);
    if (!rc && !late)
        rc = slice_range(s, b->smats, r, &p->smats);
    /* viscous: the gradient of the part (one part long, reused as tf
     * is), the jump to the common solution and the gradient at its flux
     * points */
    if (!rc && !late)
        rc = slice(s, b->gu, 0, n, &p->gu);
    if (!rc && !late)
        rc = slice_range(s, b->dufp, r, &p->dufp);
    if (!rc && !late)
        rc = slice_range(s, b->gfp, r, &p->gfp);
    if (!rc && !late && s->viscous)
        rc = slice_range(s, b->rcpdjac, r, &p->rcpdjac);
    if (!rc && !late) /* every part reuses tf's first elements */
        rc = slice(s, b->tf, 0, n, &p->tf);
    if (!rc && late)
        rc = slice_range(s, b->ufp, r, &p->ufp);
    if (!rc && late)
        rc = slice_range(s, b->rcpdjac, r, &p->rcpdjac);
    if (!rc && src)
        rc = slice_range(s, b->ploc, r, &p->ploc);
    return rc;
}

static int tflux(fr_system *s, frx_graph *g, const struct fr_blk *b,
                 frx_matrix *u)
{
    frx_arg *a = calloc(5 + s->phys.nconsts, sizeof *a);
    if (!a)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    size_t na = 0;
    a[na++] = frx_arg_matrix(u);
    a[na++] = frx_arg_matrix(b->smats);
    a[na++] = frx_arg_matrix(b->tf);
    if (s->phys.naux)
        a[na++] = frx_arg_matrix(b->aux);
    if (s->viscous)
        a[na++] = frx_arg_matrix(b->gu);
    na += (size_t)fr__bind_consts(s, a + na);
    int rc = block_kernel(s, g, s->kn.tflux, b, a, na, NULL);
    free(a);
    return rc;
}

static int negdivconf(fr_system *s, frx_graph *g, const struct fr_blk *b,
                      frx_matrix *u, frx_matrix *f)
{
    frx_arg *a = calloc(7 + s->phys.nconsts, sizeof *a);
    if (!a)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    size_t na = 0;
    a[na++] = frx_arg_matrix(f);
    a[na++] = frx_arg_matrix(b->rcpdjac);
    if (s->phys.source) {
        a[na++] = frx_arg_matrix(u);
        a[na++] = frx_arg_matrix(b->ploc);
        if (s->phys.naux)
            a[na++] = frx_arg_matrix(b->aux);
        a[na++] = frx_arg_scalar(s->t0);
        na += (size_t)fr__bind_consts(s, a + na);
    }
    frx_kernel *k;
    int rc = block_kernel(s, g, s->kn.negdivconf, b, a, na, &k);
    free(a);
    if (!rc && s->phys.source) {
        frx_kernel **t = realloc(s->timed, (s->ntimed + 1) * sizeof *t);
        if (!t)
            return frx_error(FRX_ENOMEM, "fr: out of memory");
        s->timed = t;
        s->timed[s->ntimed++] = k;
    }
    return rc;
}

/* Viscous physics: the corrected gradient of a part's elements at
 * their solution points (gu, in cache for tflux next) and flux points
 * (gfp): gu = M4 u + M6 (u_c - M0 u), to x, y (z), M0 for each
 * dimension. */
static int gradient_part(fr_system *s, frx_graph *g, const struct fr_blk *p,
                         frx_matrix *u)
{
    frx_arg a[3] = {frx_arg_matrix(p->gu), frx_arg_matrix(p->smats),
                    frx_arg_matrix(p->rcpdjac)};
    int rc = product(s, g, p->m4, u, p->gu, 0);
    if (!rc)
        rc = product(s, g, p->m6, p->dufp, p->gu, 1);
    if (!rc)
        rc = block_kernel(s, g, s->kn.gradtr, p, a, 3, NULL);
    if (!rc)
        rc = product(s, g, p->m0d, p->gu, p->gfp, 0);
    return rc;
}

/* Does a range of block b hold an element with a face shared with a
 * peer rank? */
static int part_at_peer(const struct fr_blk *b, const struct fr_range *r)
{
    for (size_t p0 = 0; b->at_peer && p0 + r->k0 < b->neles; p0 += r->P)
        for (size_t e = p0 + r->k0; e < p0 + r->k1 && e < b->neles; e++)
            if (b->at_peer[e])
                return 1;
    return 0;
}

/* What a stretch does: the flux at the solution points and its
 * divergence, after (STRETCH_INTERP, parts with no face on a peer) the
 * solution at the flux points, read from the part's u while it is in
 * cache; the correction and the divergence's sign and metric; or only
 * the solution at the flux points (STRETCH_M0, the parts at a peer,
 * before the exchanges start). */
enum { STRETCH_FLUX, STRETCH_CORRECT, STRETCH_INTERP, STRETCH_M0 };

/* ufp = M0 u over a range of block i. */
static int interp_part(fr_system *s, frx_graph *g, size_t i, frx_matrix *u,
                       const struct fr_range *r)
{
    frx_matrix *pu, *pufp;
    int rc = slice_range(s, u, r, &pu);
    if (!rc)
        rc = slice_range(s, s->blk[i].ufp, r, &pufp);
    return rc ? rc : product(s, g, s->blk[i].m0, pu, pufp, 0);
}

/* An element-local stretch of the RHS over a range of block i (what:
 * STRETCH_*). */
static int stretch(fr_system *s, frx_graph *g, size_t i, frx_matrix *u,
                   frx_matrix *f, const struct fr_range *r, int what)
{
    if (what == STRETCH_M0)
        return interp_part(s, g, i, u, r);
    struct fr_blk p;
    frx_matrix *pu = NULL, *pf;
    int late = what == STRETCH_CORRECT;
    int rc = part(s, i, u, f, r, late, &p, &pu, &pf);
    if (!rc && what == STRETCH_INTERP && !part_at_peer(&s->blk[i], r))
        rc = interp_part(s, g, i, u, r);
    if (rc)
        return rc;
    if (!late && s->viscous && (rc = gradient_part(s, g, &p, pu)))
        return rc;
    if (!late)
        return (rc = tflux(s, g, &p, pu)) ? rc
                                          : product(s, g, p.m132, p.tf, pf, 0);
    return (rc = product(s, g, p.m3, p.ufp, pf, 1)) ? rc
                                                   : negdivconf(s, g, &p, pu,
                                                                pf);
}

#define STRETCH_MIN_CHUNKS 8 /* the least of a thread's piece (below) */

/* solver.cache-block, or what makes about cblock_bytes of a stretch's
 * arrays (u, f, the flux at the solution points, the metric, the
 * auxiliary fields), whole chunks. The default goes whole where each
 * of the backend's parts (its threads, on openmp) is within it: a part
 * of the stretch is then each thread's own part of the block's matrices
 * (frx.h), where a cut through a part gave a thread the other's
 * elements (20 x 20 quadrilaterals at p = 4, navier-stokes: 2 slices of
 * 280 and 120 elements across the parts of 200). */
static size_t stretch_step(const fr_system *s, const struct fr_blk *b)
{
    size_t n = s->cblock, sz = frx_backend_soasz(s->be);
    size_t parts = frx_backend_parts(s->be);
    if (!n && s->cblock_bytes) {
        size_t nv = s->phys.nvars, nd = (size_t)s->ndims;
        size_t per = b->nupts * frx_backend_fpsize(s->be) *
                     (nv * (2 + nd) + nd * nd + s->phys.naux);
        if (s->viscous) /* gu, dufp and gfp too */
            per += frx_backend_fpsize(s->be) * nv *
                   (nd * b->nupts + (1 + nd) * b->nfpts);
        n = s->cblock_bytes / per;
        if (n * parts >= b->neles)
            n = 0;
        /* each thread's piece at least STRETCH_MIN_CHUNKS chunks: on
         * shorter rows the products lose more than the cache gives (16^3
         * hexahedra at p = 4, 2 threads: pieces of 4 chunks ran 6% slower
         * than pieces of 8, which overflow the 2 MiB) */
        else if (n < STRETCH_MIN_CHUNKS * sz * parts)
            n = STRETCH_MIN_CHUNKS * sz * parts;
    }
    if (!n || n >= b->neles)
        return b->neles;
    return (n + sz - 1) / sz * sz;
}

/* The most elements a stretch holds (tf and gu are that long): its step,
 * and up to a chunk more in each part where the step is cut in pieces
 * of the parts (stretches, below). */
size_t fr__stretch_elements(const fr_system *s, const struct fr_blk *b)
{
    size_t step = stretch_step(s, b);
    if (step >= b->neles)
        return b->neles;
    size_t most = step + frx_backend_parts(s->be) * frx_backend_soasz(s->be);
    return most < b->neles ? most : b->neles;
}

/* Which parts a call of stretches takes. */
enum { PARTS_ALL, PARTS_OFF_PEERS, PARTS_AT_PEERS };

/* A stretch over block i, a part at a time: what one pass writes (tf,
 * f) is still in cache when the next reads it, and tf, one part long,
 * stays there from one part to the next. which: all parts, or only
 * those without (or with) an element on a face shared with a peer;
 * what: STRETCH_*. */
static int stretches(fr_system *s, frx_graph *g, size_t i, frx_matrix *u,
                     frx_matrix *f, int what, int which)
{
    const struct fr_blk *b = &s->blk[i];
    size_t n = b->neles, step = stretch_step(s, b), taken = 0;
    size_t sz = frx_backend_soasz(s->be), P = frx_matrix_part_chunks(u) * sz;
    if (!P || P > n)
        P = n;
    /* each stretch about step elements: a piece of step / parts of each
     * of the matrices' parts, whole chunks */
    size_t nparts = (n + P - 1) / P, piece = (step + nparts - 1) / nparts;
    piece = (piece + sz - 1) / sz * sz;
    if (piece > P)
        piece = P;
    int rc = FRX_OK;
    for (size_t k0 = 0; k0 < P && !rc; k0 += piece) {
        struct fr_range r = {k0, k0 + piece < P ? k0 + piece : P, P};
        if (which == PARTS_ALL ||
            part_at_peer(b, &r) == (which == PARTS_AT_PEERS))
            rc = stretch(s, g, i, u, f, &r, what), taken++;
    }
    if (!rc && which == PARTS_OFF_PEERS && what == STRETCH_CORRECT &&
        b->at_peer && !s->parts_logged) {
        frx_log(FRX_LOG_INFO, "fr: block %zu: %zu of its %zu parts are "
                "corrected before the wait for the peers' flux points", i,
                taken, (P + piece - 1) / piece);
        s->parts_logged = 1;
    }
    return rc;
}

/* max_dt's kernels for register u, bound once (u is the input of the
 * first stage of a step, so build_rhs sees every register max_dt gets). */
static int wave_bind(fr_system *s, frx_matrix *const *u)
{
    if (!s->phys.wavespeed)
        return FRX_OK;
    for (size_t i = 0; i < s->nwaves; i++)
        if (s->waves[i].u0 == u[0])
            return FRX_OK;
    struct fr_wave *v = realloc(s->waves, (s->nwaves + 1) * sizeof *v);
    if (!v)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    s->waves = v;
    struct fr_wave *w = &v[s->nwaves++];
    w->u0 = u[0];
    w->k = calloc(s->nblocks, sizeof *w->k);
    frx_arg *a = calloc(5 + s->phys.nconsts, sizeof *a);
    int rc = w->k && a ? FRX_OK : frx_error(FRX_ENOMEM, "fr: out of memory");
    for (size_t i = 0; i < s->nblocks && !rc; i++) {
        size_t na = 0;
        a[na++] = frx_arg_matrix(u[i]);
        a[na++] = frx_arg_matrix(s->blk[i].invh);
        a[na++] = frx_arg_reduce();
        if (s->phys.diffusivity)
            a[na++] = frx_arg_scalar(fr__viscous_dt_factor(s, s->blk[i].el));
        if (s->phys.naux)
            a[na++] = frx_arg_matrix(s->blk[i].aux);
        na += (size_t)fr__bind_consts(s, a + na);
        rc = block_kernel(s, NULL, s->kn.wave, &s->blk[i], a, na, &w->k[i]);
    }
    free(a);
    return rc;
}

/* MPI moves the peers' messages along here, amid the work that
 * overlaps them (frx_graph_add_test): the solution's, and once it is
 * under way (grad) the gradient's. */
static int progress(fr_system *s, frx_graph *g, int grad)
{
    int rc = FRX_OK;
    for (size_t i = 0; i < s->nfaces && !rc; i++) {
        struct fr_faces *fs = &s->faces[i];
        if (fs->kind != FR_FACES_PEER)
            continue;
        int r = grad ? fs->grecv_id : fs->recv_id;
        int d = grad ? fs->gsend_id : fs->send_id;
        if (!(rc = frx_graph_add_test(g, s->comm, r, NULL)))
            rc = frx_graph_add_test(g, s->comm, d, NULL);
    }
    return rc;
}

/* Each peer's exchange started: the receive posted, our side packed and
 * sent; the solution at the flux points, or (grad) its gradient. */
static int start_exchanges(fr_system *s, frx_graph *g, int grad)
{
    int rc = FRX_OK;
    for (size_t i = 0; i < s->nfaces && !rc; i++) {
        struct fr_faces *fs = &s->faces[i];
        if (fs->kind != FR_FACES_PEER)
            continue;
        if (!(rc = frx_graph_add_recv(g, s->comm,
                                      grad ? fs->grecv_id : fs->recv_id,
                                      NULL, 0, NULL)) &&
            !(rc = frx_graph_add_pack(g, grad ? fs->gsendxv : fs->sendxv,
                                      NULL, 0, NULL)))
            rc = frx_graph_add_send(g, s->comm,
                                    grad ? fs->gsend_id : fs->send_id, NULL,
                                    0, NULL);
    }
    return rc;
}

/* The interface kernels of the interior and boundary sets (peer 0) or
 * of the peers' sets (peer 1, each after the waits asked for: the
 * solution's, the gradient's): the common fluxes, or (conu) the common
 * solutions. */
static int face_kernels(fr_system *s, frx_graph *g, int peer, int conu,
                        int wait_u, int wait_grad)
{
    int rc = FRX_OK;
    for (size_t i = 0; i < s->nfaces && !rc; i++) {
        struct fr_faces *fs = &s->faces[i];
        if ((fs->kind == FR_FACES_PEER) != peer)
            continue;
        if (wait_u)
            rc = frx_graph_add_wait(g, s->comm, fs->recv_id, NULL, 0, NULL);
        if (!rc && wait_grad)
            rc = frx_graph_add_wait(g, s->comm, fs->grecv_id, NULL, 0, NULL);
        if (!rc)
            rc = frx_graph_add_kernel(g, conu ? fs->kc : fs->k, NULL, 0, NULL);
    }
    return rc;
}

/* Viscous physics: the common solution at every interface, then the
 * element interiors with the gradient (docs/fr.md, "Viscous physics"):
 * the parts with no face on a peer first, while the solution travels,
 * then those at the peers, after its wait; then the gradient at the
 * flux points off to the peers. */
static int viscous_interiors(fr_system *s, frx_graph *g,
                             frx_matrix *const *u, frx_matrix *const *f,
                             int early)
{
    int rc = face_kernels(s, g, 0, 1, 0, 0);
    for (size_t i = 0; i < s->nblocks && !rc; i++)
        rc = stretches(s, g, i, u[i], f[i], STRETCH_FLUX, PARTS_OFF_PEERS);
    rc = rc ? rc : progress(s, g, 0);
    rc = rc ? rc : face_kernels(s, g, 1, 1, !early, 0);
    for (size_t i = 0; i < s->nblocks && !rc; i++)
        rc = stretches(s, g, i, u[i], f[i], STRETCH_FLUX, PARTS_AT_PEERS);
    return rc ? rc : start_exchanges(s, g, 1);
}

int fr_system_build_rhs(fr_system *s, frx_matrix *const *u,
                        frx_matrix *const *f, frx_graph *g)
{
    int rc = FRX_OK;
    /* an extension at after-exchange-waits sees the solution at every
     * interface before any common flux: the peers waited for first */
    int early = frx_extend_wants(s->extend, "after-exchange-waits");
    /* the solution at the flux points, then off to the peers: at once
     * where the common solutions (viscous) or an extension want it at
     * every interface before the interiors; else only the parts at the
     * peers, and the others' in their stretches, while u is in cache */
    int in_parts = !s->viscous && !early;
    for (size_t i = 0; i < s->nblocks && !rc && !in_parts; i++)
        rc = product(s, g, s->blk[i].m0, u[i], s->blk[i].ufp, 0);
    for (size_t i = 0; i < s->nblocks && !rc && in_parts; i++)
        rc = stretches(s, g, i, u[i], f[i], STRETCH_M0, PARTS_AT_PEERS);
    rc = rc ? rc : start_exchanges(s, g, 0);
    for (size_t i = 0; i < s->nfaces && !rc && early; i++)
        if (s->faces[i].kind == FR_FACES_PEER)
            rc = frx_graph_add_wait(g, s->comm, s->faces[i].recv_id, NULL, 0,
                                    NULL);
    if (!rc && early)
        rc = frx_extend_rhs(s->extend, "after-exchange-waits", g, u, f);
    /* element interiors while the messages travel (viscous: with the
     * gradient, the solution's exchange waited for amid them; then the
     * same as inviscid with the gradient's exchange) */
    if (!rc && s->viscous)
        rc = viscous_interiors(s, g, u, f, early);
    int waited = early || s->viscous;
    for (size_t i = 0; i < s->nblocks && !rc && !s->viscous; i++)
        rc = stretches(s, g, i, u[i], f[i],
                       in_parts ? STRETCH_INTERP : STRETCH_FLUX, PARTS_ALL);
    rc = rc ? rc : progress(s, g, s->viscous);
    rc = rc ? rc : face_kernels(s, g, 0, 0, 0, 0);
    rc = rc ? rc : progress(s, g, s->viscous);
    /* the correction of the parts that need nothing from the peers, so
     * that a rank a little behind its peer keeps it from waiting */
    for (size_t i = 0; i < s->nblocks && !rc; i++)
        rc = stretches(s, g, i, u[i], f[i], STRETCH_CORRECT,
                       PARTS_OFF_PEERS);
    rc = rc ? rc : face_kernels(s, g, 1, 0, !waited, s->viscous);
    /* every interface's common flux is in ufp now */
    if (!rc)
        rc = frx_extend_rhs(s->extend, "after-common-fluxes", g, u, f);
    for (size_t i = 0; i < s->nblocks && !rc; i++)
        rc = stretches(s, g, i, u[i], f[i], STRETCH_CORRECT,
                       PARTS_AT_PEERS);
    for (size_t i = 0; i < s->nfaces && !rc; i++) {
        struct fr_faces *fs = &s->faces[i];
        if (fs->kind != FR_FACES_PEER)
            continue;
        rc = frx_graph_add_wait(g, s->comm, fs->send_id, NULL, 0, NULL);
        if (!rc && s->viscous)
            rc = frx_graph_add_wait(g, s->comm, fs->gsend_id, NULL, 0, NULL);
    }
    if (!rc)
        rc = wave_bind(s, u);
    return rc;
}

int fr_system_set_time(fr_system *s, double t)
{
    for (size_t i = 0; i < s->ntimed; i++) {
        int rc = frx_kernel_set_scalar(s->timed[i], "t", t);
        if (rc)
            return rc;
    }
    return FRX_OK;
}

int fr_system_exact(fr_system *s, double t, size_t n, const double *xyz,
                    double *vals)
{
    if (!s->phys.exact)
        return frx_error(FRX_ENOTSUP, "%s has no exact solution",
                         s->phys.name);
    return s->phys.exact(s->phys.ctx, t, n, xyz, vals);
}

int fr_system_max_dt(fr_system *s, frx_matrix *const *u, double cfl,
                     double *dt)
{
    if (!s->phys.wavespeed)
        return frx_error(FRX_ENOTSUP, "%s gives no wave speed: set time.dt "
                         "instead of time.cfl", s->phys.name);
    struct fr_wave *w = NULL;
    for (size_t i = 0; i < s->nwaves && !w; i++)
        if (s->waves[i].u0 == u[0])
            w = &s->waves[i];
    if (!w)
        return frx_error(FRX_EINVAL, "%s: max_dt on a register no RHS "
                         "reads", s->phys.name);
    double m = 0;
    for (size_t i = 0; i < s->nblocks; i++) {
        double r;
        int rc = frx_kernel_run(w->k[i]);
        if (!rc)
            rc = frx_kernel_result(w->k[i], "r", &r, 1);
        if (rc)
            return rc;
        if (!(r <= m)) /* NaN too */
            m = isnan(r) ? HUGE_VAL : r;
    }
    /* the kernel's stand-in for NaN (3e38) or an overflow */
    if (!(m < 1e38))
        return frx_error(FRX_ERANGE, "%s: the wave speed is NaN or "
                         "infinite: the solution has blown up (lower "
                         "time.cfl)", s->phys.name);
    *dt = m > 0 ? cfl / m : HUGE_VAL;
    return FRX_OK;
}
