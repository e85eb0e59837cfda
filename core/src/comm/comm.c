/* SPDX-License-Identifier: BSD-3-Clause */
/* Persistent MPI requests for xchg matrices, run as graph nodes.
 *
 * Sends of a few hundred bytes are the exception: Open MPI (ob1, 4.1)
 * starts a persistent send without its inline-send path, which costs
 * about 1.6x MPI_Sendrecv at 8 B, while MPI_Isend of the same buffer
 * and tag matches it. Those sends are issued with MPI_Isend each run;
 * receives and larger sends stay persistent. */
#include "comm/comm-impl.h"

#include <frx/comm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Sends up to this size go out with MPI_Isend (see above). */
#define SMALL_SEND_BYTES 256

/* What each side of an exchange sends the other as it registers it:
 * its shape (n, nvrow, nvcol, bytes per value) and its name ("" where
 * it has none). */
struct setup_msg {
    int shape[4];
    char name[FRX_COMM_NAME_MAX];
};

struct xfer {
    frx_comm *c;
    frx_xchg_matrix *xm;
    int peer, tag, is_send;
    void *buf;      /* small sends: what MPI_Isend reads */
    int small_send; /* 1: MPI_Isend each start; 0: persistent request */
    MPI_Request req;
    char what[96];  /* "receive from rank 1 (tag 0, 'flux points')" */
    /* The set-up check: each side sends the other its setup_msg when it
     * registers the exchange; the first commit of a graph holding the
     * exchange compares them. */
    struct setup_msg mine, theirs;
    MPI_Request hs[2]; /* sending ours, receiving the peer's */
    int checked;
    void *staged;   /* host-staged receive: the copy from the mirror to
                       the device still in flight, or NULL */
};

struct frx_comm {
    frx_backend *be;
    MPI_Comm comm;
    MPI_Comm ctl; /* set-up messages, apart from the exchanges' tags */
    int rank, size, tag_ub;
    int refs; /* the creator's, and one a graph node that uses it */
    int warned_unnamed; /* the warning of unnamed look-alikes, once */
    struct xfer **x;
    size_t n, cap;
    int *nsend, *nrecv; /* per peer: the next tag */
    char context[96];   /* "step 12, t = 0.5": what runs now, for aborts */
};

void frx__comm_set_context(frx_comm *c, uint64_t step, double t)
{
    if (c)
        snprintf(c->context, sizeof c->context, "step %llu, t = %.9g",
                 (unsigned long long)step, t);
}

static int mpi_fail(const frx_comm *c, int err, const char *call,
                    const struct xfer *x)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(err, text, &len);
    if (x)
        return frx_error(FRX_EMPI, "%s (%s rank %d, tag %d) failed on rank "
                         "%d: %s", call, x->is_send ? "send to" : "receive "
                         "from", x->peer, x->tag, c->rank, text);
    return frx_error(FRX_EMPI, "%s failed on rank %d: %s", call, c->rank,
                     text);
}

/* Collective: every rank duplicates comm twice, whatever happened to
 * it locally, then all agree on the outcome. */
int frx_comm_create(frx_backend *be, MPI_Comm comm, frx_comm **out)
{
    int size;
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return frx_error(FRX_EMPI, "frx_comm_create: not a communicator, or "
                         "MPI is not started");
    frx_comm *c = frx__calloc(1, sizeof *c, "a communicator");
    int rc = !be || !out ? frx_error(FRX_EINVAL, "frx_comm_create: NULL "
                                     "argument")
                         : c ? FRX_OK : FRX_ENOMEM;
    if (c) {
        c->refs = 1;
        c->comm = c->ctl = MPI_COMM_NULL;
        c->nsend = frx__calloc((size_t)size, sizeof *c->nsend, "tag counters");
        c->nrecv = frx__calloc((size_t)size, sizeof *c->nrecv, "tag counters");
        if (rc == FRX_OK && (!c->nsend || !c->nrecv))
            rc = FRX_ENOMEM;
    }
    MPI_Comm dup[2] = {MPI_COMM_NULL, MPI_COMM_NULL};
    int err = MPI_Comm_dup(comm, &dup[0]);
    if (err == MPI_SUCCESS)
        err = MPI_Comm_dup(comm, &dup[1]);
    if (err != MPI_SUCCESS && rc == FRX_OK)
        rc = frx_error(FRX_EMPI, "frx_comm_create: MPI_Comm_dup failed");
    rc = frx_comm_agree(comm, rc, "frx_comm_create");
    if (rc) {
        for (int i = 0; i < 2; i++)
            if (dup[i] != MPI_COMM_NULL)
                MPI_Comm_free(&dup[i]);
        frx_comm_destroy(c);
        return rc;
    }
    c->be = be;
    c->comm = dup[0];
    c->ctl = dup[1];
    /* MPI errors on frx's communicators come back as values */
    MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(c->ctl, MPI_ERRORS_RETURN);
    MPI_Comm_rank(c->comm, &c->rank);
    c->size = size;
    int *ub, flag = 0;
    MPI_Comm_get_attr(c->comm, MPI_TAG_UB, &ub, &flag);
    c->tag_ub = flag ? *ub : 32767;
    *out = c;
    return FRX_OK;
}

/* A set-up message still in flight when the comm goes. */
static void cancel(MPI_Request *r)
{
    if (*r == MPI_REQUEST_NULL)
        return;
    MPI_Cancel(r);
    MPI_Wait(r, MPI_STATUS_IGNORE);
}


void frx_comm_destroy(frx_comm *c)
{
    if (!c || --c->refs > 0)
        return;
    for (size_t i = 0; i < c->n; i++) {
        if (frx__xchg_copy_wait(c->be, c->x[i]->staged) != FRX_OK)
            frx_log(FRX_LOG_WARN, "frx_comm_destroy: %s", frx_errmsg());
        if (c->x[i]->req != MPI_REQUEST_NULL)
            MPI_Request_free(&c->x[i]->req);
        cancel(&c->x[i]->hs[0]);
        cancel(&c->x[i]->hs[1]);
        frx_xchg_matrix_destroy(c->x[i]->xm); /* add's reference */
        free(c->x[i]);
    }
    free(c->x);
    free(c->nsend);
    free(c->nrecv);
    if (c->comm != MPI_COMM_NULL)
        MPI_Comm_free(&c->comm);
    if (c->ctl != MPI_COMM_NULL)
        MPI_Comm_free(&c->ctl);
    free(c);
}

MPI_Comm frx_comm_mpi(const frx_comm *c) { return c->comm; }

/* Two unnamed exchanges with one peer, one way, of one shape: nothing
 * tells them apart if the peer registers them in the other order, and
 * their data would swap without an error. Said once a comm. */
static void warn_unnamed_alike(frx_comm *c, const struct xfer *x)
{
    if (x->mine.name[0] || c->warned_unnamed)
        return;
    for (size_t i = 0; i < c->n; i++) {
        const struct xfer *o = c->x[i];
        if (o->peer != x->peer || o->is_send != x->is_send ||
            o->mine.name[0] ||
            memcmp(o->mine.shape, x->mine.shape, sizeof o->mine.shape))
            continue;
        frx_log(FRX_LOG_WARN, "frx_comm_add: the %s has the shape of the "
                "%s and neither has a name: were rank %d to register "
                "the two in the other order, their data would swap without "
                "an error. Register them with frx_comm_add_send_named / "
                "frx_comm_add_recv_named, and the first commit checks the "
                "order", x->what, o->what, x->peer);
        c->warned_unnamed = 1;
        return;
    }
}

/* The address MPI reads or writes for xm in this rank's mode. */
static void *mpi_buffer(const frx_comm *c, frx_xchg_matrix *xm)
{
    const frx_backend *be = c->be;
    if (be->mpi_mode != FRX_MPI_DEVICE_AWARE)
        return xm->host;
    if (FRX__OPS_HAS(be->ops, mpi_ptr))
        return be->ops->mpi_ptr(be->state, xm->mem);
    return xm->mem;
}

static int add(frx_comm *c, frx_xchg_matrix *xm, int peer, int is_send,
               const char *name, int *id)
{
    if (!c || !xm || !id)
        return frx_error(FRX_EINVAL, "frx_comm_add: NULL argument");
    if (!name)
        name = "";
    if (strlen(name) >= FRX_COMM_NAME_MAX)
        return frx_error(FRX_EINVAL, "frx_comm_add: the exchange's name "
                         "'%.40s...' is longer than %d bytes: give a shorter "
                         "one", name, FRX_COMM_NAME_MAX - 1);
    if (peer < 0 || peer >= c->size)
        return frx_error(FRX_EINVAL, "frx_comm_add: peer %d is not a rank "
                         "(there are %d)", peer, c->size);
    if (xm->be != c->be)
        return frx_error(FRX_EINVAL, "frx_comm_add: the xchg matrix belongs "
                         "to another backend");
    if (xm->bytes > INT32_MAX)
        return frx_error(FRX_ERANGE, "frx_comm_add: %zu bytes is more than "
                         "one MPI message holds here", xm->bytes);
    int *next = is_send ? &c->nsend[peer] : &c->nrecv[peer];
    if (*next > (c->tag_ub - 1) / 2) /* set-up messages use 2k and 2k+1 */
        return frx_error(FRX_ERANGE, "frx_comm_add: more than %d exchanges "
                         "with rank %d", c->tag_ub, peer);
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        struct xfer **v = realloc(c->x, cap * sizeof *v);
        if (!v)
            return frx_error(FRX_ENOMEM, "out of memory");
        c->x = v;
        c->cap = cap;
    }
    struct xfer *x = frx__calloc(1, sizeof *x, "an exchange");
    if (!x)
        return FRX_ENOMEM;
    *x = (struct xfer){.c = c, .xm = xm, .peer = peer, .tag = *next,
                       .is_send = is_send, .req = MPI_REQUEST_NULL,
                       .hs = {MPI_REQUEST_NULL, MPI_REQUEST_NULL},
                       .mine.shape = {(int)xm->n, (int)xm->nvrow,
                                      (int)xm->nvcol, (int)c->be->fpsize}};
    strcpy(x->mine.name, name); /* length checked above */
    x->buf = mpi_buffer(c, xm);
    snprintf(x->what, sizeof x->what, "%s rank %d (tag %d%s%s%s)",
             is_send ? "send to" : "receive from", peer, x->tag,
             *name ? ", '" : "", name, *name ? "'" : "");
    x->small_send = is_send && xm->bytes <= SMALL_SEND_BYTES;
    int err = x->small_send ? MPI_SUCCESS
            : is_send ? MPI_Send_init(x->buf, (int)xm->bytes, MPI_BYTE, peer,
                                      x->tag, c->comm, &x->req)
                      : MPI_Recv_init(x->buf, (int)xm->bytes, MPI_BYTE, peer,
                                      x->tag, c->comm, &x->req);
    const char *call = is_send ? "MPI_Send_init" : "MPI_Recv_init";
    /* the data sender's setup_msg goes with tag 2k, the receiver's
     * 2k+1 (plain bytes: both sides are the same build of frx) */
    if (err == MPI_SUCCESS) {
        call = "MPI_Isend";
        err = MPI_Isend(&x->mine, (int)sizeof x->mine, MPI_BYTE, peer,
                        2 * x->tag + !is_send, c->ctl, &x->hs[0]);
    }
    if (err == MPI_SUCCESS) {
        call = "MPI_Irecv";
        err = MPI_Irecv(&x->theirs, (int)sizeof x->theirs, MPI_BYTE, peer,
                        2 * x->tag + is_send, c->ctl, &x->hs[1]);
    }
    if (err != MPI_SUCCESS) {
        int rc = mpi_fail(c, err, call, x);
        if (x->req != MPI_REQUEST_NULL)
            MPI_Request_free(&x->req);
        cancel(&x->hs[0]);
        free(x);
        return rc;
    }
    (*next)++;
    warn_unnamed_alike(c, x);
    xm->refs++; /* MPI's requests hold its buffer until destroy */
    c->x[c->n] = x;
    *id = (int)c->n++;
    return FRX_OK;
}

int frx_comm_add_send(frx_comm *c, frx_xchg_matrix *xm, int peer, int *id)
{
    return add(c, xm, peer, 1, NULL, id);
}

int frx_comm_add_recv(frx_comm *c, frx_xchg_matrix *xm, int peer, int *id)
{
    return add(c, xm, peer, 0, NULL, id);
}

int frx_comm_add_send_named(frx_comm *c, frx_xchg_matrix *xm, int peer,
                            const char *name, int *id)
{
    return add(c, xm, peer, 1, name, id);
}

int frx_comm_add_recv_named(frx_comm *c, frx_xchg_matrix *xm, int peer,
                            const char *name, int *id)
{
    return add(c, xm, peer, 0, name, id);
}

/* ------------------------------------------------------------ nodes */

/* Host-staged send: the buffer to its mirror, waited for by its own
 * completion (not the whole device's) where the backend can. */
static int stage_send(struct xfer *x)
{
    void *done;
    int rc = frx__xchg_copy_start(x->xm, 1, &done);
    return rc ? rc : frx__xchg_copy_wait(x->c->be, done);
}

/* Before MPI writes a receive buffer again, what still reads it must be
 * done: the copy from its mirror (host-staged), or the device commands
 * of the last run, such as its unpack (device-aware, where the device
 * is not the host). */
static int receive_ready(struct xfer *x)
{
    frx_backend *be = x->c->be;
    if (be->mpi_mode != FRX_MPI_DEVICE_AWARE) {
        void *done = x->staged;
        x->staged = NULL;
        return frx__xchg_copy_wait(be, done);
    }
    return be->info.host_accessible ? FRX_OK : frx_backend_sync(be);
}

static int start_node(void *ud)
{
    struct xfer *x = ud;
    frx_backend *be = x->c->be;
    /* a send's buffer must be complete where MPI reads it */
    int rc = !x->is_send ? receive_ready(x)
           : be->mpi_mode == FRX_MPI_DEVICE_AWARE ? frx_backend_sync(be)
                                                  : stage_send(x);
    if (rc)
        return rc;
    if (x->small_send) {
        int err = MPI_Isend(x->buf, (int)x->xm->bytes, MPI_BYTE, x->peer,
                            x->tag, x->c->comm, &x->req);
        return err == MPI_SUCCESS ? FRX_OK
                                  : mpi_fail(x->c, err, "MPI_Isend", x);
    }
    int err = MPI_Start(&x->req);
    return err == MPI_SUCCESS ? FRX_OK : mpi_fail(x->c, err, "MPI_Start", x);
}

static int wait_node(void *ud)
{
    struct xfer *x = ud;
    frx_backend *be = x->c->be;
    double t0 = frx__timer_start();
    int err = MPI_Wait(&x->req, MPI_STATUS_IGNORE);
    frx__timer_stop(&be->t_wait, t0);
    if (err != MPI_SUCCESS)
        return mpi_fail(x->c, err, "MPI_Wait", x);
    /* the copy to the device is only started: what reads the buffer
     * next is a device command, which runs after it */
    if (!x->is_send && be->mpi_mode != FRX_MPI_DEVICE_AWARE)
        return frx__xchg_copy_start(x->xm, 0, &x->staged);
    return FRX_OK;
}

/* MPI moves a transfer only inside MPI calls: a rendezvous's copy and
 * the acknowledgement that completes the peer's send happen when a rank
 * tests or waits. A test between start and wait lets them happen while
 * the rank still has work, rather than at its wait. */
static int test_node(void *ud)
{
    struct xfer *x = ud;
    int done;
    int err = MPI_Test(&x->req, &done, MPI_STATUS_IGNORE);
    return err == MPI_SUCCESS ? FRX_OK : mpi_fail(x->c, err, "MPI_Test", x);
}

/* At commit: did the peer register this exchange with our shape? The
 * peer's message was sent when it registered the exchange, so this
 * waits only for a peer that has not registered it yet. */
static int check_peer(void *ud)
{
    struct xfer *x = ud;
    if (x->checked)
        return FRX_OK;
    double t0 = frx__now();
    int done = 0, warned = 0;
    for (;;) {
        int err = MPI_Testall(2, x->hs, &done, MPI_STATUSES_IGNORE);
        if (err != MPI_SUCCESS)
            return mpi_fail(x->c, err, "MPI_Testall (set-up check)", x);
        if (done)
            break;
        if (!warned && frx__now() - t0 > 10) {
            const char *ns = x->c->be->kernel_ns;
            frx_log(FRX_LOG_WARN, "frx_graph_commit%s%s%s: waiting for rank "
                    "%d to register the other side of the %s (each "
                    "exchange in a graph is checked against its peer at "
                    "commit); if the job hangs here, the two ranks "
                    "registered different numbers of exchanges with each "
                    "other: each pair must register the same exchanges, in "
                    "the same order", ns ? " (plugin '" : "", ns ? ns : "",
                    ns ? "')" : "", x->peer, x->what);
            warned = 1;
        }
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    /* the other side's name, terminated whatever it sent */
    x->theirs.name[FRX_COMM_NAME_MAX - 1] = '\0';
    if (strcmp(x->mine.name, x->theirs.name) != 0) {
        char theirs[FRX_COMM_NAME_MAX + 8] = "without a name";
        if (x->theirs.name[0])
            snprintf(theirs, sizeof theirs, "as '%s'", x->theirs.name);
        return frx_error(FRX_EINVAL, "exchange %s: rank %d registered the "
                         "other side of it %s: the two ranks registered "
                         "the exchanges between them in different orders "
                         "(or named them differently); register them in the "
                         "same order on both, with the same names", x->what,
                         x->peer, theirs);
    }
    const int *mine = x->mine.shape, *theirs = x->theirs.shape;
    if (memcmp(mine, theirs, sizeof x->mine.shape) == 0) {
        x->checked = 1;
        return FRX_OK;
    }
    const int *snd = x->is_send ? mine : theirs, *rcv = x->is_send ? theirs
                                                                   : mine;
    int me = x->c->rank;
    return frx_error(FRX_ESHAPE, "exchange %s: rank %d sends %d points of "
                     "%d x %d values of %d bytes (%lld bytes) but rank %d "
                     "receives %d points of %d x %d values of %d bytes (%lld "
                     "bytes): both ranks must register the exchange with the "
                     "same shape, in the same order", x->what,
                     x->is_send ? me : x->peer, snd[0], snd[1], snd[2],
                     snd[3], (long long)snd[0] * snd[1] * snd[2] * snd[3],
                     x->is_send ? x->peer : me, rcv[0], rcv[1], rcv[2],
                     rcv[3], (long long)rcv[0] * rcv[1] * rcv[2] * rcv[3]);
}

static struct xfer *lookup(frx_comm *c, int id)
{
    if (!c || id < 0 || (size_t)id >= c->n) {
        frx_error(FRX_EINVAL, "graph: %d is not an exchange of this comm",
                  id);
        return NULL;
    }
    return c->x[id];
}

void frx_comm_abort(frx_comm *c, int rc)
{
    frx_log(FRX_LOG_ERROR, "%s%srank %d of %d stops the job: %s (%s); the "
            "other ranks wait on this one, so MPI_Abort ends them all",
            c->context, c->context[0] ? ": " : "", c->rank, c->size,
            frx_errmsg(), frx_err_name(rc));
    MPI_Abort(c->comm, 1);
}

static void abort_job(void *ud, int rc) { frx_comm_abort(ud, rc); }

/* A start node, checked against its peer when the graph is committed;
 * a graph holding one ends the job when a node fails mid-run. */
/* What every exchange node is besides its function: MPI in the
 * profile, under label, and a holder of x's comm. */
static void release_comm(void *c) { frx_comm_destroy(c); }

static int mpi_node(frx_graph *g, int at, struct xfer *x, const char *label)
{
    int rc = frx__graph_set_label(g, at, FRX__PROF_MPI, label);
    if (rc == FRX_OK && (rc = frx__graph_hold(g, at, x->c, release_comm)) ==
                            FRX_OK)
        x->c->refs++; /* dropped by release_comm */
    return rc;
}

static int add_start(frx_graph *g, struct xfer *x, int prio,
                     const frx__access *acc, const int *deps, size_t ndeps,
                     int *node)
{
    int at;
    int rc = frx__graph_add_host(g, start_node, x, prio, acc, 1, deps, ndeps,
                                 &at);
    rc = rc ? rc : frx__graph_set_prepare(g, at, check_peer);
    rc = rc ? rc : mpi_node(g, at, x, "MPI start");
    if (rc == FRX_OK)
        frx__graph_on_failure(g, abort_job, x->c);
    if (rc == FRX_OK && node)
        *node = at;
    return rc;
}

int frx_graph_add_recv(frx_graph *g, frx_comm *c, int id, const int *deps,
                       size_t ndeps, int *node)
{
    struct xfer *x = lookup(c, id);
    if (!x || x->is_send)
        return x ? frx_error(FRX_EINVAL, "graph: exchange %d is a send", id)
                 : FRX_EINVAL;
    frx__access acc = {.res = x->xm, .writes = 1, .hi = SIZE_MAX,
                       .inflight = FRX__INFLIGHT_START, .req = x,
                       .what = x->what};
    return add_start(g, x, FRX__PRIO_FIRST, &acc, deps, ndeps, node);
}

int frx_graph_add_send(frx_graph *g, frx_comm *c, int id, const int *deps,
                       size_t ndeps, int *node)
{
    struct xfer *x = lookup(c, id);
    if (!x || !x->is_send)
        return x ? frx_error(FRX_EINVAL, "graph: exchange %d is a receive",
                             id)
                 : FRX_EINVAL;
    frx__access acc = {.res = x->xm, .hi = SIZE_MAX,
                       .inflight = FRX__INFLIGHT_START, .req = x,
                       .what = x->what};
    return add_start(g, x, FRX__PRIO_FEEDS_MPI, &acc, deps, ndeps, node);
}

int frx_graph_add_wait(frx_graph *g, frx_comm *c, int id, const int *deps,
                       size_t ndeps, int *node)
{
    struct xfer *x = lookup(c, id);
    if (!x)
        return FRX_EINVAL;
    /* a receive's wait delivers the buffer: it writes it */
    frx__access acc = {.res = x->xm, .writes = !x->is_send, .hi = SIZE_MAX,
                       .inflight = FRX__INFLIGHT_WAIT, .req = x,
                       .what = x->what};
    int at;
    int rc = frx__graph_add_host(g, wait_node, x, 0, &acc, 1, deps, ndeps,
                                 &at);
    rc = rc ? rc : mpi_node(g, at, x, "MPI wait");
    if (rc == FRX_OK && node)
        *node = at;
    return rc;
}

int frx_graph_add_test(frx_graph *g, frx_comm *c, int id, int *node)
{
    struct xfer *x = lookup(c, id);
    if (!x)
        return FRX_EINVAL;
    int at;
    /* no dependencies, no priority: it runs after every node added
     * before it (the commit keeps the order nodes were added in, but for
     * receives first and what feeds a send) */
    int rc = frx__graph_add_host(g, test_node, x, 0, NULL, 0, NULL, 0, &at);
    rc = rc ? rc : mpi_node(g, at, x, "MPI test");
    if (rc == FRX_OK && node)
        *node = at;
    return rc;
}

/* ----------------------------------------------------------- timers */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int frx_comm_report(frx_comm *c)
{
    double mine[3] = {c->be->t_pack, c->be->t_wait, c->be->t_unpack};
    double *all = NULL;
    int rc = FRX_OK;
    if (c->rank == 0) {
        all = frx__calloc((size_t)c->size * 3, sizeof *all, "timers");
        rc = all ? FRX_OK : FRX_ENOMEM;
    }
    rc = frx_comm_agree(c->comm, rc, "frx_comm_report");
    if (rc) {
        free(all);
        return rc;
    }
    int err = MPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, c->comm);
    if (err != MPI_SUCCESS) {
        free(all);
        return mpi_fail(c, err, "MPI_Gather", NULL);
    }
    if (c->rank != 0)
        return FRX_OK;
    static const char *const names[] = {"pack", "transfer wait", "unpack"};
    double *col = frx__calloc((size_t)c->size, sizeof *col, "timers");
    for (int k = 0; col && k < 3; k++) {
        for (int r = 0; r < c->size; r++)
            col[r] = all[r * 3 + k];
        qsort(col, (size_t)c->size, sizeof *col, cmp_double);
        frx_log(FRX_LOG_INFO, "%-13s min %.6f s  median %.6f s  max %.6f s "
                "over %d rank(s)", names[k], col[0], col[c->size / 2],
                col[c->size - 1], c->size);
    }
    free(col);
    free(all);
    return FRX_OK;
}
