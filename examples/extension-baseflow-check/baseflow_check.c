/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-baseflow-check: lee's base-flow check rebuilt from outside the
 * tree as an extension plugin, on what the FR system publishes. It
 * attaches to any solver on the FR SDK whose physics has auxiliary
 * fields (a base flow):
 *
 *   extensions:
 *     - {name: baseflow-check, every: 10}
 *
 * At t = 0 it saves the base flow at every interface through the
 * system's exchange views: a snapshot of each side's flux points (an
 * xchg view's snapshot), and at a rank interface the peer's side, which
 * the peer packs in our order and sends once. Every `every` steps it
 * compares the saved copies with the live fields: a reduction kernel of
 * max |saved - live| over each set's points (view or, for a peer's side,
 * what the peer packs and sends again), and where one is not exactly 0,
 * the run stops with the face, the element, the flux point, the field
 * and both values. At t = 0 every difference must be exactly 0.
 *
 * Its messages are those of lee's built-in check (auxcheck.h), so the
 * two give the same verdicts in the same words; so does its test hook,
 * FRX_TEST_CORRUPT_BASEFLOW (after the check at t = 0 rank <rank> adds
 * 1e-3 to the second field: <rank> in its saved copy of its first
 * peer's side, <rank>:<element>:<fpt> in the live fields at flux point
 * <fpt> of global element <element>). */
#include <frx/extension.h>
#include <frx/fr/system.h>

#include <frx/comm.h>
#include <frx/mesh.h>

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const frx_option options[] = {
    {.key = "prefix", .type = FRX_OPT_STRING,
     .def = "<solver>: base-flow check",
     .help = "what its messages start with"},
    {0},
};

/* One comparison: the live fields at a face set's points (one side)
 * against what this extension saved there at t = 0. */
struct cmp {
    const fr_face_set *fs;
    int other;                /* 0: our side; 1: the other side */
    frx_xchg_matrix *saved;   /* at t = 0 */
    frx_xchg_matrix *live;    /* a peer's live side, received */
    frx_kernel *k;
    uint64_t *gele;           /* per face: the side's global element */
    uint16_t *gface;          /* and its face, */
    uint16_t *grot;           /* rot and block (where the point is) */
    uint32_t *gblk;
    double diff;              /* the last run's max |saved - live| */
};

struct check {
    frx_ext *ext;
    frx_backend *be;
    const frx_mesh *mesh;
    fr_system *sys;
    MPI_Comm mpi;             /* a duplicate: the peers' sides */
    int rank;
    size_t naux;
    const char *const *aux;
    char prefix[96];
    struct cmp *c;
    size_t n;
};

/* ------------------------------------------------------------- kernels */

static int reg_kernels(struct check *k)
{
    char args[256], body[512];
    snprintf(body, sizeof body,
             "d[0] = 0;\n"
             "for (int j = 0; j < %zu; j++) {\n"
             "    fpdtype_t e = fabs(live[j] - saved[j]);\n"
             "    if (!(e <= d[0]))\n"
             "        d[0] = e == e ? e : (fpdtype_t)3.0e38;\n"
             "}\n", k->naux);
    for (int x = 0; x < 2; x++) {
        char name[64];
        snprintf(name, sizeof name, "diff_%s_%zu", x ? "xchg" : "view",
                 k->naux);
        snprintf(args, sizeof args,
                 "in %s fpdtype_t[%zu] live, in xchg fpdtype_t[%zu] saved, "
                 "out reduce(max) fpdtype_t[1] d", x ? "xchg" : "view",
                 k->naux, k->naux);
        frx_kernel_decl d = {.name = name, .ndim = 1, .args = args,
                             .body = body};
        int rc = frx_kernel_register(k->be, &d);
        if (rc)
            return rc;
    }
    return FRX_OK;
}

static int make_kernel(struct check *k, struct cmp *m)
{
    const fr_face_set *fs = m->fs;
    frx_arg a[3];
    char name[64];
    int xchg = m->other && fs->kind == FR_FACE_PEER;
    snprintf(name, sizeof name, "diff_%s_%zu", xchg ? "xchg" : "view",
             k->naux);
    a[0] = xchg ? frx_arg_xchg(m->live)
                : frx_arg_view(m->other ? fs->auxr : fs->auxl);
    a[1] = frx_arg_xchg(m->saved);
    a[2] = frx_arg_reduce();
    return frx_kernel_create(k->be, name, 1, fs->n, a, 3, &m->k);
}

/* ---------------------------------------------------- where the faces are */

static const frx_face *face_at(const void *f, size_t size, size_t i)
{
    return (const frx_face *)(const void *)((const char *)f + i * size);
}

/* The faces of m's set on its compared side, in the mesh's order. */
static int locate(struct check *k, struct cmp *m)
{
    const fr_face_set *fs = m->fs;
    m->gele = calloc(fs->nfaces ? fs->nfaces : 1, sizeof *m->gele);
    m->gface = calloc(fs->nfaces ? fs->nfaces : 1, sizeof *m->gface);
    m->grot = calloc(fs->nfaces ? fs->nfaces : 1, sizeof *m->grot);
    m->gblk = calloc(fs->nfaces ? fs->nfaces : 1, sizeof *m->gblk);
    if (!m->gele || !m->gface || !m->grot || !m->gblk)
        return frx_error(FRX_ENOMEM, "%s: out of memory", k->prefix);
    const void *faces = NULL;
    size_t size = sizeof(frx_face), nf = 0;
    frx_mesh_info mi = {.size = sizeof mi};
    int rc = frx_mesh_get_info(k->mesh, &mi);
    if (!rc && fs->kind == FR_FACE_INTERIOR) {
        const frx_mesh_iface *f;
        rc = frx_mesh_get_ifaces(k->mesh, &f, &nf, &size);
        faces = m->other ? (const void *)&f->r : (const void *)&f->l;
    }
    for (size_t i = 0; !rc && fs->kind == FR_FACE_PEER && i < mi.npeers;
         i++) {
        frx_mesh_peer mp = {.size = sizeof mp};
        if (!(rc = frx_mesh_get_peer(k->mesh, i, &mp)) && mp.rank == fs->peer)
            faces = mp.faces, size = mp.face_size, nf = mp.nfaces;
    }
    for (size_t i = 0; !rc && fs->kind == FR_FACE_BOUNDARY && i < mi.nbcs;
         i++) {
        frx_mesh_bc mb = {.size = sizeof mb};
        if (!(rc = frx_mesh_get_bc(k->mesh, i, &mb)) &&
            !strcmp(mb.name, fs->boundary))
            faces = mb.faces, size = mb.face_size, nf = mb.nfaces;
    }
    if (!rc && (!faces || nf != fs->nfaces))
        rc = frx_error(FRX_EINVAL, "%s: the mesh's faces do not match the "
                       "system's (%zu, %zu)", k->prefix, nf, fs->nfaces);
    for (size_t j = 0; !rc && j < nf; j++) {
        const frx_face *f = face_at(faces, size, j);
        frx_mesh_block mb = {.size = sizeof mb};
        if (!(rc = frx_mesh_get_block(k->mesh, f->blk, &mb))) {
            m->gele[j] = mb.gid[f->ele];
            m->gface[j] = f->face;
            m->grot[j] = f->rot;
            m->gblk[j] = f->blk;
        }
    }
    return rc;
}

/* ------------------------------------------------------ the peers' sides */

/* Every rank interface: our side packed in the peer's order (auxr_xv),
 * sent, and the peer's received into into(m). Plain MPI on a
 * communicator of our own, every rank sending and receiving even after
 * a local failure, so that no peer waits in vain. */
static int swap_peers(struct check *k, frx_xchg_matrix *(*into)(struct cmp *))
{
    MPI_Request *rq = calloc(2 * k->n + 1, sizeof *rq);
    if (!rq)
        return frx_error(FRX_ENOMEM, "%s: out of memory", k->prefix);
    int rc = FRX_OK, nrq = 0;
    for (size_t i = 0; i < k->n; i++) {
        struct cmp *m = &k->c[i];
        if (!m->other || m->fs->kind != FR_FACE_PEER)
            continue;
        frx_xchg_matrix *mine = frx_xchg_view_matrix(m->fs->auxr_xv);
        frx_xchg_matrix *dst = into(m);
        int r = frx_xchg_view_pack(m->fs->auxr_xv);
        if (!r)
            r = frx_xchg_matrix_to_host(mine);
        rc = rc ? rc : r;
        int bytes = (int)frx_xchg_matrix_bytes(dst);
        MPI_Irecv(frx_xchg_matrix_host(dst), bytes, MPI_BYTE, m->fs->peer, 0,
                  k->mpi, &rq[nrq++]);
        MPI_Isend(frx_xchg_matrix_host(mine), bytes, MPI_BYTE, m->fs->peer,
                  0, k->mpi, &rq[nrq++]);
    }
    if (MPI_Waitall(nrq, rq, MPI_STATUSES_IGNORE) != MPI_SUCCESS && !rc)
        rc = frx_error(FRX_EMPI, "%s: the exchange of the base flow with "
                       "the peers failed", k->prefix);
    free(rq);
    for (size_t i = 0; i < k->n && !rc; i++)
        if (k->c[i].other && k->c[i].fs->kind == FR_FACE_PEER)
            rc = frx_xchg_matrix_to_device(into(&k->c[i]));
    return rc;
}

static frx_xchg_matrix *saved_of(struct cmp *m) { return m->saved; }
static frx_xchg_matrix *live_of(struct cmp *m) { return m->live; }

/* --------------------------------------------------------------- create */

static void check_destroy(void *state)
{
    struct check *k = state;
    if (!k)
        return;
    for (size_t i = 0; i < k->n; i++) {
        struct cmp *m = &k->c[i];
        if (m->k)
            frx_kernel_destroy(m->k);
        if (m->saved)
            frx_xchg_matrix_destroy(m->saved);
        if (m->live)
            frx_xchg_matrix_destroy(m->live);
        free(m->gele);
        free(m->gface);
        free(m->grot);
        free(m->gblk);
    }
    free(k->c);
    if (k->mpi != MPI_COMM_NULL)
        MPI_Comm_free(&k->mpi);
    free(k);
}

static int check_create(const frx_extension_init *init, void **state)
{
    struct check *k = calloc(1, sizeof *k);
    if (!k)
        return frx_error(FRX_ENOMEM, "baseflow-check: out of memory");
    *state = k;
    k->ext = init->ext;
    k->be = init->backend;
    k->mesh = init->mesh;
    k->mpi = MPI_COMM_NULL;
    MPI_Comm_rank(frx_comm_mpi(init->comm), &k->rank);
    const char *prefix = NULL;
    int rc = frx_cfg_string(init->options, "prefix", NULL, &prefix);
    if (prefix)
        snprintf(k->prefix, sizeof k->prefix, "%s", prefix);
    else
        snprintf(k->prefix, sizeof k->prefix, "%s: base-flow check",
                 init->solver);
    if (!rc)
        rc = frx_ext_handle(k->ext, "fr.system", "fr_system",
                            (void **)&k->sys);
    if (rc)
        return rc;
    const fr_physics *p = fr_system_physics(k->sys);
    k->naux = p->naux;
    k->aux = p->aux;
    if (!k->naux)
        return frx_error(FRX_ECONFIG, "%s: solver '%s' has no auxiliary "
                         "fields (a base flow) to check", k->prefix,
                         init->solver);
    if (MPI_Comm_dup(frx_comm_mpi(init->comm), &k->mpi) != MPI_SUCCESS)
        return frx_error(FRX_EMPI, "%s: MPI_Comm_dup failed", k->prefix);
    size_t nsets = fr_system_nface_sets(k->sys);
    k->c = calloc(2 * nsets + 1, sizeof *k->c);
    if (!k->c)
        return frx_error(FRX_ENOMEM, "%s: out of memory", k->prefix);
    rc = reg_kernels(k);
    for (size_t i = 0; i < nsets && !rc; i++) {
        const fr_face_set *fs = fr_system_face_set(k->sys, i);
        if (fs->size < offsetof(fr_face_set, fstart) + sizeof fs->fstart)
            return frx_error(FRX_EPLUGIN, "%s: this frx's FR SDK is older "
                             "than 1.4 (its face sets have no fstart): "
                             "rebuild the plugin against the frx it runs in",
                             k->prefix);
        for (int other = 0; other < 2 && !rc; other++) {
            if (other && fs->kind == FR_FACE_BOUNDARY)
                break;
            struct cmp *m = &k->c[k->n++];
            m->fs = fs;
            m->other = other;
            if (other && fs->kind == FR_FACE_PEER)
                rc = frx_xchg_matrix_create(k->be, fs->n, 1, k->naux,
                                            &m->saved);
            if (!rc && other && fs->kind == FR_FACE_PEER)
                rc = frx_xchg_matrix_create(k->be, fs->n, 1, k->naux,
                                            &m->live);
            if (!rc)
                rc = locate(k, m);
        }
    }
    return rc;
}

/* ------------------------------------------------------------- failing */

/* Where m found a difference: the first point, field and both values
 * (auxcheck.h's words). */
static int explain(struct check *k, const struct cmp *m)
{
    const fr_face_set *fs = m->fs;
    size_t na = k->naux, n = fs->n;
    double *sv = malloc(n * na * sizeof *sv), *lv = malloc(n * na *
                                                           sizeof *lv);
    int rc = sv && lv ? FRX_OK
                      : frx_error(FRX_ENOMEM, "%s: out of memory", k->prefix);
    frx_xchg_view *xv = m->other ? fs->auxr_xv : fs->auxl_xv;
    if (!rc)
        rc = frx_xchg_matrix_read_double(m->saved, sv);
    if (!rc && m->live)
        rc = frx_xchg_matrix_read_double(m->live, lv);
    else if (!rc && !(rc = frx_xchg_view_pack(xv)))
        rc = frx_xchg_matrix_read_double(frx_xchg_view_matrix(xv), lv);
    size_t at = n * na;
    for (size_t i = 0; !rc && i < n * na && at == n * na; i++)
        if (!(sv[i] == lv[i]))
            at = i;
    char where[160];
    if (fs->kind == FR_FACE_PEER)
        snprintf(where, sizeof where, "the interface with rank %d (%s)",
                 fs->peer, m->other ? "its side, saved here at t = 0 and "
                 "sent again now" : "this rank's side");
    else if (fs->kind == FR_FACE_INTERIOR)
        snprintf(where, sizeof where, "the interior faces (%s side)",
                 m->other ? "right" : "left");
    else
        snprintf(where, sizeof where, "boundary '%s'", fs->boundary);
    if (!rc && at < n * na) {
        size_t f = at / n, p = at % n, src = fs->pt_src ? fs->pt_src[p] : p;
        size_t j = 0; /* the face src lies on, and its place there */
        while (j + 1 < fs->nfaces && fs->fstart[j + 1] <= src)
            j++;
        size_t q = src - fs->fstart[j];
        if (fs->kind == FR_FACE_INTERIOR && m->other) /* as r walks it */
            q = fr_element_facing(fr_system_element(k->sys, m->gblk[j]),
                                  m->gface[j], m->grot[j], q);
        rc = frx_error(FRX_ERANGE, "%s: the base flow saved at t = 0 is not "
                       "the live one on %s: face %zu of %zu (element %llu, "
                       "face %u), flux point %zu: %s saved %.17g, live "
                       "%.17g; max |difference| %.3g", k->prefix, where, j,
                       fs->nfaces, (unsigned long long)m->gele[j],
                       (unsigned)m->gface[j], q, k->aux[f], sv[at], lv[at],
                       m->diff);
    } else if (!rc) {
        rc = frx_error(FRX_ERANGE, "%s: the base flow saved at t = 0 is not "
                       "the live one on %s: max |difference| %.3g",
                       k->prefix, where, m->diff);
    }
    free(sv);
    free(lv);
    return rc;
}

/* Compare now: the peers' live sides, then every kernel, then each
 * result. This rank's verdict (the hook agrees it across ranks); rc0: a
 * failure before, after which only the exchange is taken part in. */
static int compare(struct check *k, double *maxdiff, int rc0)
{
    int rc = swap_peers(k, live_of);
    rc = rc0 ? rc0 : rc;
    for (size_t i = 0; i < k->n && !rc; i++)
        rc = frx_kernel_run(k->c[i].k);
    for (size_t i = 0; i < k->n && !rc; i++)
        rc = frx_kernel_result(k->c[i].k, "d", &k->c[i].diff, 1);
    double m = 0;
    for (size_t i = 0; i < k->n && !rc; i++)
        if (!(k->c[i].diff <= m))
            m = k->c[i].diff;
    for (size_t i = 0; i < k->n && !rc; i++)
        if (k->c[i].diff != 0)
            rc = explain(k, &k->c[i]);
    if (maxdiff)
        *maxdiff = m;
    return rc;
}

/* ------------------------------------------------------- tests' damage */

static int damage_saved(struct check *k, size_t field, double delta)
{
    struct cmp *m = NULL;
    for (size_t i = 0; i < k->n && !m; i++)
        if (k->c[i].live)
            m = &k->c[i];
    if (!m)
        return FRX_ENOTFOUND;
    size_t n = m->fs->n;
    double *h = malloc(n * k->naux * sizeof *h);
    int rc = h ? frx_xchg_matrix_read_double(m->saved, h)
               : frx_error(FRX_ENOMEM, "%s: out of memory", k->prefix);
    if (!rc) {
        h[field * n + n / 2] += delta;
        rc = frx_xchg_matrix_write_double(m->saved, h);
    }
    free(h);
    return rc;
}

static int damage_live(struct check *k, uint64_t gid, size_t fpt,
                       size_t field, double delta)
{
    for (size_t b = 0; b < fr_system_nblocks(k->sys); b++) {
        frx_mesh_block mb = {.size = sizeof mb};
        int rc = frx_mesh_get_block(k->mesh, b, &mb);
        for (size_t e = 0; !rc && e < mb.neles; e++) {
            if (mb.gid[e] != gid)
                continue;
            frx_matrix *m = fr_system_auxfp(k->sys, b);
            size_t nrow = frx_matrix_nrow(m), ne = frx_matrix_neles(m);
            if (fpt >= nrow)
                return frx_error(FRX_EINVAL, "%s: no flux point %zu", k->prefix,
                                 fpt);
            double *h = malloc(nrow * k->naux * ne * sizeof *h);
            rc = h ? frx_matrix_read_double(m, h)
                   : frx_error(FRX_ENOMEM, "%s: out of memory", k->prefix);
            if (!rc) {
                h[(fpt * k->naux + field) * ne + e] += delta;
                rc = frx_matrix_write_double(m, h);
            }
            free(h);
            return rc;
        }
        if (rc)
            return rc;
    }
    return FRX_ENOTFOUND;
}

static int corrupt_for_test(struct check *k)
{
    const char *env = getenv("FRX_TEST_CORRUPT_BASEFLOW");
    if (!env || !*env)
        return FRX_OK;
    long r;
    unsigned long long gid = 0, fpt = 0;
    int n = 0, live = 0;
    if (sscanf(env, "%ld:%llu:%llu%n", &r, &gid, &fpt, &n) == 3 && !env[n])
        live = 1;
    else if (!(sscanf(env, "%ld%n", &r, &n) == 1 && !env[n]))
        return frx_error(FRX_EINVAL, "FRX_TEST_CORRUPT_BASEFLOW=%s: use "
                         "<rank> or <rank>:<element>:<flux point>", env);
    if (r != k->rank)
        return FRX_OK;
    int rc = live ? damage_live(k, gid, fpt, 1, 1e-3)
                  : damage_saved(k, 1, 1e-3);
    if (rc == FRX_ENOTFOUND && live)
        return frx_error(FRX_EINVAL, "FRX_TEST_CORRUPT_BASEFLOW=%s: rank %d "
                         "does not hold element %llu", env, k->rank, gid);
    if (rc == FRX_ENOTFOUND)
        return frx_error(FRX_EINVAL, "FRX_TEST_CORRUPT_BASEFLOW=%s: rank %d "
                         "has no rank interface to corrupt", env, k->rank);
    if (!rc)
        frx_log(FRX_LOG_WARN, "baseflow-check: FRX_TEST_CORRUPT_BASEFLOW: "
                "rank %d damages its %s base flow (a test)", k->rank,
                live ? "live" : "saved");
    return rc;
}

/* ---------------------------------------------------------------- hooks */

/* t = 0: the snapshots (each side through its xchg view; the peers'
 * sides exchanged once), the kernels over them, the check that must
 * find exactly 0, then a test's damage. A restart saves afresh: the
 * base flow of the case is the one at t = 0. */
static int check_initial(void *state, const frx_ext_now *now)
{
    struct check *k = state;
    int rc = FRX_OK;
    for (size_t i = 0; i < k->n && !rc; i++) {
        struct cmp *m = &k->c[i];
        if (m->other && m->fs->kind == FR_FACE_PEER)
            continue;
        rc = frx_xchg_view_snapshot(m->other ? m->fs->auxr_xv
                                             : m->fs->auxl_xv, &m->saved);
    }
    int r = swap_peers(k, saved_of);
    rc = rc ? rc : r;
    for (size_t i = 0; i < k->n && !rc; i++)
        rc = make_kernel(k, &k->c[i]);
    double maxd = 0;
    rc = compare(k, &maxd, rc); /* collective: every rank */
    if (!rc)
        frx_log(FRX_LOG_INFO, "%s at t = %g on rank %d: max |saved - live| "
                "= %g over %zu interface set(s)", k->prefix, now->t,
                k->rank, maxd, fr_system_nface_sets(k->sys));
    return rc ? rc : corrupt_for_test(k);
}

static int check_step(void *state, const frx_ext_now *now)
{
    (void)now;
    return compare(state, NULL, FRX_OK);
}

static const frx_extension_ops ops = {
    .size = sizeof(frx_extension_ops),
    .options = options,
    .api_major = FRX_EXTENSION_API_MAJOR,
    .api_minor = FRX_EXTENSION_API_MINOR,
    .create = check_create,
    .destroy = check_destroy,
    .initial = check_initial,
    .step = check_step,
};

static const frx_plugin_desc desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_EXTENSION, "baseflow-check", "1.0.0",
                         "the base flow saved at every interface at t = 0 "
                         "against the live one (FR solvers with a base "
                         "flow)"),
    .extension = &ops,
};

FRX_PLUGIN_DEFINE(desc)
