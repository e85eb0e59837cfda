/* SPDX-License-Identifier: BSD-3-Clause */
/* Graphs: nodes with explicit and derived dependencies, ordered once at
 * commit, run many times. */
#include "graph/graph-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum node_type {
    NODE_KERNEL = 1,
    NODE_PACK,
    NODE_UNPACK,
    NODE_HOST,
    NODE_PRODUCT
};

struct node {
    int type;
    frx_kernel *kernel;
    frx_product *product;
    frx_xchg_view *xv;
    frx__host_fn fn; /* NODE_HOST */
    frx__host_fn prepare; /* NODE_HOST, optional: once, at commit */
    void *ud;
    int prio;
    frx__access acc[2]; /* pack, unpack and host nodes */
    size_t nacc;
    int *deps;
    size_t ndeps;
    uint32_t flags; /* set by commit: frx_exec_flags */
    frx_backend *barrier; /* a public host node: sync this, then fn */
    const char *label;    /* NODE_HOST: its name in the profile */
    int prof_kind;        /* NODE_HOST: FRX__PROF_HOST or _MPI */
    void *held;           /* NODE_HOST: what it holds (an exchange's */
    void (*release)(void *held); /* comm), let go with the graph */
};

/* What run calls, in order: one indirect call a node, since a graph of
 * a small exchange runs in a fraction of a microsecond. */
struct step {
    int (*run)(const struct node *nd);
    const struct node *nd;
    unsigned char batch; /* BATCH_FIRST, BATCH_LAST: see batches() */
    int prof;            /* its profile entry (profile: true) */
};

enum { BATCH_FIRST = 1, BATCH_LAST = 2 };

struct frx_graph {
    frx_backend *be;
    /* a graph with MPI nodes: what ends the job when a node fails */
    void (*on_failure)(void *ud, int rc);
    void *on_failure_ud;
    struct node *nodes;
    size_t n, cap;
    int *order;         /* set by commit */
    struct step *steps; /* set by commit */
};

int frx_graph_create(frx_backend *be, frx_graph **out)
{
    if (!be || !out)
        return frx_error(FRX_EINVAL, "frx_graph_create: NULL argument");
    frx_graph *g = frx__calloc(1, sizeof *g, "a graph");
    if (!g)
        return FRX_ENOMEM;
    g->be = be;
    *out = g;
    return FRX_OK;
}

void frx_graph_destroy(frx_graph *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++) { /* the references its nodes hold */
        struct node *nd = &g->nodes[i];
        if (nd->type == NODE_KERNEL)
            frx_kernel_destroy(nd->kernel);
        else if (nd->type == NODE_PRODUCT)
            frx_product_destroy(nd->product);
        else if (nd->type == NODE_PACK || nd->type == NODE_UNPACK)
            frx_xchg_view_destroy(nd->xv);
        if (nd->release) /* exchanges' nodes: their comm */
            nd->release(nd->held);
        free(nd->deps);
    }
    free(g->nodes);
    free(g->order);
    free(g->steps);
    free(g);
}

static size_t accesses(const struct node *nd, const frx__access **acc)
{
    if (nd->type == NODE_KERNEL)
        return frx__kernel_accesses(nd->kernel, acc);
    if (nd->type == NODE_PRODUCT)
        return frx__product_accesses(nd->product, acc);
    *acc = nd->acc;
    return nd->nacc;
}

/* Does b (added after a) have to run after a? Both touch the same data,
 * one writes it, and the spans of the allocation they touch overlap. */
static int conflicts(const struct node *a, const struct node *b)
{
    const frx__access *x, *y;
    size_t nx = accesses(a, &x), ny = accesses(b, &y);
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++)
            if (x[i].res && x[i].res == y[j].res &&
                (x[i].writes || y[j].writes) && x[i].lo < y[j].hi &&
                y[j].lo < x[i].hi)
                return 1;
    return 0;
}

static int add(frx_graph *g, struct node nd, const int *deps, size_t ndeps,
               int *node)
{
    if (g->order)
        return frx_error(FRX_EINVAL, "graph: nodes cannot be added after "
                         "frx_graph_commit");
    for (size_t i = 0; i < ndeps; i++)
        if (deps[i] < 0 || (size_t)deps[i] >= g->n)
            return frx_error(FRX_EINVAL, "graph: dependency %d of node %zu "
                             "is not a node added before it", deps[i], g->n);
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        struct node *v = realloc(g->nodes, cap * sizeof *v);
        if (!v)
            return frx_error(FRX_ENOMEM, "graph: out of memory");
        g->nodes = v;
        g->cap = cap;
    }
    nd.deps = frx__calloc(ndeps, sizeof *nd.deps, "graph dependencies");
    if (!nd.deps)
        return FRX_ENOMEM;
    if (ndeps)
        memcpy(nd.deps, deps, ndeps * sizeof *deps);
    nd.ndeps = ndeps;
    g->nodes[g->n] = nd;
    if (node)
        *node = (int)g->n;
    g->n++;
    return FRX_OK;
}

/* A node runs on the graph's backend: its queue, its order. */
static int same_backend(const frx_graph *g, const frx_backend *be,
                        const char *fn, const char *what)
{
    if (be == g->be)
        return FRX_OK;
    char mine[96], theirs[96];
    return frx_error(FRX_EINVAL, "%s: %s belongs to %s, not to the graph's "
                     "%s: make the graph on its backend", fn, what,
                     frx__backend_desc(be, theirs, sizeof theirs),
                     frx__backend_desc(g->be, mine, sizeof mine));
}

int frx_graph_add_kernel(frx_graph *g, frx_kernel *k, const int *deps,
                         size_t ndeps, int *node)
{
    if (!g || !k)
        return frx_error(FRX_EINVAL, "frx_graph_add_kernel: NULL argument");
    char what[160];
    snprintf(what, sizeof what, "kernel '%s'", frx__kernel_name(k));
    int rc = same_backend(g, frx__kernel_backend(k), "frx_graph_add_kernel",
                          what);
    if (!rc)
        rc = add(g, (struct node){.type = NODE_KERNEL, .kernel = k}, deps,
                 ndeps, node);
    if (!rc) /* a node holds what it runs: destroy drops the caller's */
        frx__kernel_hold(k);
    return rc;
}

int frx_graph_add_product(frx_graph *g, frx_product *p, const int *deps,
                          size_t ndeps, int *node)
{
    if (!g || !p)
        return frx_error(FRX_EINVAL, "frx_graph_add_product: NULL argument");
    char what[160];
    snprintf(what, sizeof what, "product %s", frx__product_name(p));
    int rc = same_backend(g, frx__product_backend(p),
                          "frx_graph_add_product", what);
    if (!rc)
        rc = add(g, (struct node){.type = NODE_PRODUCT, .product = p}, deps,
                 ndeps, node);
    if (!rc)
        frx__product_hold(p);
    return rc;
}

static int add_xchg(frx_graph *g, frx_xchg_view *xv, int type,
                    const int *deps, size_t ndeps, int *node)
{
    if (!g || !xv)
        return frx_error(FRX_EINVAL, "graph: NULL xchg view");
    int pack = type == NODE_PACK;
    int rc = same_backend(g, xv->view->be, pack ? "frx_graph_add_pack"
                                                : "frx_graph_add_unpack",
                          "the xchg view");
    if (!rc && !pack)
        rc = frx__refuse_const(xv->view->alloc, "frx_graph_add_unpack");
    if (!rc && !pack && !xv->unpack_ok &&
        !(rc = frx__refuse_repeats(xv->view, "frx_graph_add_unpack")))
        xv->unpack_ok = 1;
    if (rc)
        return rc;
    struct node nd = {.type = type, .xv = xv, .nacc = 2,
                      .prio = pack ? FRX__PRIO_FEEDS_MPI : 0};
    nd.acc[0] = (frx__access){.res = xv->view->alloc, .writes = !pack,
                              .lo = xv->view->lo, .hi = xv->view->hi};
    nd.acc[1] = (frx__access){.res = xv->xm, .writes = pack,
                              .hi = SIZE_MAX};
    rc = add(g, nd, deps, ndeps, node);
    if (!rc)
        xv->refs++;
    return rc;
}

int frx__graph_add_host(frx_graph *g, frx__host_fn fn, void *ud, int prio,
                        const frx__access *acc, size_t nacc, const int *deps,
                        size_t ndeps, int *node)
{
    if (!g || !fn || nacc > 2)
        return frx_error(FRX_EINVAL, "graph: bad host node");
    struct node nd = {.type = NODE_HOST, .fn = fn, .ud = ud, .prio = prio,
                      .nacc = nacc, .label = "host",
                      .prof_kind = FRX__PROF_HOST};
    for (size_t i = 0; i < nacc; i++)
        nd.acc[i] = acc[i];
    return add(g, nd, deps, ndeps, node);
}

int frx_graph_add_host(frx_graph *g, frx_host_fn fn, void *ud, int *node)
{
    if (!g || !fn)
        return frx_error(FRX_EINVAL, "frx_graph_add_host: NULL argument");
    struct node nd = {.type = NODE_HOST, .fn = fn, .ud = ud,
                      .barrier = g->be, .label = "host",
                      .prof_kind = FRX__PROF_HOST};
    return add(g, nd, NULL, 0, node);
}

void frx__graph_on_failure(frx_graph *g, void (*fn)(void *ud, int rc),
                           void *ud)
{
    g->on_failure = fn;
    g->on_failure_ud = ud;
}

/* Host node number node of g, or NULL with the error set. */
static struct node *host_node(frx_graph *g, int node)
{
    if (!g || node < 0 || (size_t)node >= g->n ||
        g->nodes[node].type != NODE_HOST) {
        frx_error(FRX_EINVAL, "graph: %d is not a host node", node);
        return NULL;
    }
    return &g->nodes[node];
}

int frx__graph_set_label(frx_graph *g, int node, int kind, const char *label)
{
    struct node *nd = host_node(g, node);
    if (!nd)
        return FRX_EINVAL;
    nd->prof_kind = kind;
    nd->label = label;
    return FRX_OK;
}

int frx__graph_hold(frx_graph *g, int node, void *obj,
                    void (*release)(void *obj))
{
    struct node *nd = host_node(g, node);
    if (!nd || nd->release || !release) /* one a node: two would leak */
        return frx_error(FRX_EINVAL, "graph: node %d cannot hold another "
                         "object", node);
    nd->held = obj;
    nd->release = release;
    return FRX_OK;
}

int frx__graph_set_prepare(frx_graph *g, int node, frx__host_fn fn)
{
    struct node *nd = host_node(g, node);
    if (!nd)
        return FRX_EINVAL;
    nd->prepare = fn;
    return FRX_OK;
}

int frx_graph_add_pack(frx_graph *g, frx_xchg_view *xv, const int *deps,
                       size_t ndeps, int *node)
{
    return add_xchg(g, xv, NODE_PACK, deps, ndeps, node);
}

int frx_graph_add_unpack(frx_graph *g, frx_xchg_view *xv, const int *deps,
                         size_t ndeps, int *node)
{
    return add_xchg(g, xv, NODE_UNPACK, deps, ndeps, node);
}

/* ------------------------------------------------- buffers in flight */

/* An MPI request's buffer is in flight from the node that starts it to
 * the node that waits for it: a receive writes it all along, a send
 * reads it. Nodes touching data in flight conflict with it, and the
 * order nodes were added in is the order they run in wherever they
 * conflict, so a node added between the two would run while MPI holds
 * the buffer: refused at commit, with both nodes named. */
static void describe(const struct node *nd, char *buf, size_t n)
{
    switch (nd->type) {
    case NODE_KERNEL:
        snprintf(buf, n, "kernel '%s'", frx__kernel_name(nd->kernel));
        break;
    case NODE_PACK: snprintf(buf, n, "a pack"); break;
    case NODE_UNPACK: snprintf(buf, n, "an unpack"); break;
    case NODE_PRODUCT:
        snprintf(buf, n, "product %s", frx__product_name(nd->product));
        break;
    default:
        snprintf(buf, n, "%s", nd->nacc && nd->acc[0].what
                                   ? nd->acc[0].what : "a host step");
    }
}

static const frx__access *inflight_of(const struct node *nd, int kind,
                                      const void *req)
{
    const frx__access *acc;
    size_t na = accesses(nd, &acc);
    for (size_t i = 0; i < na; i++)
        if (acc[i].inflight == kind && (!req || acc[i].req == req))
            return &acc[i];
    return NULL;
}

/* Does b touch what start holds in flight, in a way that conflicts? */
static const frx__access *touches(const struct node *b,
                                  const frx__access *start)
{
    const frx__access *acc;
    size_t na = accesses(b, &acc);
    for (size_t i = 0; i < na; i++)
        if (acc[i].res == start->res && (start->writes || acc[i].writes) &&
            acc[i].lo < start->hi && start->lo < acc[i].hi)
            return &acc[i];
    return NULL;
}

static int check_inflight(const frx_graph *g)
{
    char who[160];
    for (size_t a = 0; a < g->n; a++) {
        const frx__access *s = inflight_of(&g->nodes[a], FRX__INFLIGHT_START,
                                           NULL);
        const frx__access *w = inflight_of(&g->nodes[a], FRX__INFLIGHT_WAIT,
                                           NULL);
        int started = 0;
        for (size_t k = 0; w && k < a && !started; k++)
            started = inflight_of(&g->nodes[k], FRX__INFLIGHT_START,
                                  w->req) != NULL;
        if (w && !started)
            return frx_error(FRX_EINVAL, "graph: node %zu waits for the %s, "
                             "which no node before it starts: add the start "
                             "(frx_graph_add_recv or frx_graph_add_send) "
                             "before it", a, w->what);
        if (!s)
            continue;
        /* a receive's buffer read before the graph's first start of it
         * (no wait for it earlier): the read would see what the graph's
         * previous run received */
        int waited = 0;
        for (size_t k = 0; k < a && !waited; k++)
            waited = inflight_of(&g->nodes[k], FRX__INFLIGHT_WAIT,
                                 s->req) != NULL;
        for (size_t b = 0; s->writes && !waited && b < a; b++) {
            const frx__access *t = touches(&g->nodes[b], s);
            if (!t || t->writes)
                continue;
            describe(&g->nodes[b], who, sizeof who);
            return frx_error(FRX_EINVAL, "graph: node %zu (%s) reads the "
                             "buffer of the %s before node %zu starts it: it "
                             "would read what the graph's previous run "
                             "received; add the node after the receive's "
                             "wait", b, who, s->what, a);
        }
        size_t end = a + 1;
        while (end < g->n &&
               !inflight_of(&g->nodes[end], FRX__INFLIGHT_WAIT, s->req))
            end++;
        if (end == g->n)
            return frx_error(FRX_EINVAL, "graph: node %zu starts the %s but "
                             "no later node waits for it: add "
                             "frx_graph_add_wait for it to this graph", a,
                             s->what);
        for (size_t b = a + 1; b < end; b++) {
            const struct node *nb = &g->nodes[b];
            if (inflight_of(nb, FRX__INFLIGHT_START, s->req))
                return frx_error(FRX_EINVAL, "graph: node %zu starts the %s "
                                 "again while the start at node %zu is in "
                                 "flight until node %zu: add a wait in "
                                 "between", b, s->what, a, end);
            const frx__access *t = touches(nb, s);
            if (!t)
                continue;
            describe(nb, who, sizeof who);
            return frx_error(FRX_EINVAL, "graph: node %zu (%s) %s the buffer "
                             "of the %s, which MPI holds from node %zu until "
                             "its wait at node %zu: add the node after the "
                             "wait%s", b, who, t->writes ? "writes" : "reads",
                             s->what, a, end,
                             s->writes ? "" : " or before the start");
        }
    }
    return FRX_OK;
}

/* Kahn's algorithm over explicit and derived edges. Among ready nodes:
 * receives are posted first, then whatever feeds a buffer headed for
 * MPI (packs, sends and everything upstream of them), then the rest in
 * the order they were added. */
static int rank_of(const unsigned char *urgent, const struct node *nd,
                   size_t i)
{
    if (nd->prio == FRX__PRIO_FIRST)
        return 2;
    return urgent[i] ? 1 : 0;
}

static int run_kernel(const struct node *nd)
{
    return frx__kernel_run(nd->kernel, nd->flags);
}
static int run_pack(const struct node *nd)
{
    return frx__xchg_move(nd->xv, 1, nd->flags);
}
static int run_unpack(const struct node *nd)
{
    return frx__xchg_move(nd->xv, 0, nd->flags);
}
static int run_host(const struct node *nd)
{
    if (nd->barrier) {
        int rc = frx_backend_sync(nd->barrier);
        if (rc)
            return rc;
    }
    return nd->fn(nd->ud);
}

static int run_product(const struct node *nd)
{
    return frx__product_run(nd->product, nd->flags);
}

/* Stretches of two or more kernel and product nodes in a row, for a
 * backend that runs such a stretch together (batch_begin/batch_end). */
static void batches(const frx_backend *be, struct step *steps, size_t n)
{
    if (!FRX__OPS_HAS(be->ops, batch_begin) ||
        !FRX__OPS_HAS(be->ops, batch_end))
        return;
    for (size_t k = 0; k < n;) {
        size_t end = k;
        while (end < n && (steps[end].nd->type == NODE_KERNEL ||
                           steps[end].nd->type == NODE_PRODUCT))
            end++;
        if (end - k >= 2) {
            steps[k].batch |= BATCH_FIRST;
            steps[end - 1].batch |= BATCH_LAST;
        }
        k = end > k ? end : k + 1;
    }
}

/* FRX_EXEC_SAME_WORKERS (plugin.h): may a node be in a group? A
 * product, or a kernel whose arguments are all matrices and scalars (no
 * view, xchg matrix or reduction). */
static int item_wise(const struct node *nd)
{
    if (nd->type == NODE_PRODUCT)
        return 1;
    if (nd->type != NODE_KERNEL)
        return 0;
    const frx__access *x;
    size_t nx = accesses(nd, &x);
    for (size_t i = 0; i < nx; i++)
        if (x[i].res && !x[i].m)
            return 0;
    return 1;
}

static int same_matrix(const frx_matrix *a, const frx_matrix *b)
{
    return a->offset == b->offset && a->nrow == b->nrow &&
           a->nvar == b->nvar && a->neles == b->neles &&
           a->leaddim == b->leaddim && a->pc == b->pc && a->ps == b->ps &&
           a->c0 == b->c0;
}

/* May b (item-wise, after a in a batch) skip waiting for a? Wherever
 * they touch the same allocation, one writing: the same matrix, element
 * i work item i's in both, or rows that do not meet. */
static int shares_workers(const struct node *a, const struct node *b)
{
    const frx__access *x, *y;
    size_t nx = accesses(a, &x), ny = accesses(b, &y);
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++) {
            if (!x[i].res || x[i].res != y[j].res ||
                !(x[i].writes || y[j].writes))
                continue;
            if (x[i].by_item && y[j].by_item && same_matrix(x[i].m, y[j].m))
                continue;
            size_t at;
            if (frx__matrices_meet(x[i].m, y[j].m, &at))
                return 0;
        }
    return 1;
}

/* Flag each kernel and product of a batch that may share the workers of
 * every node of its group (the nodes since the last one not flagged). */
static void same_workers(frx_graph *g, const int *order,
                         const struct step *steps)
{
    size_t g0 = 0;
    int in = 0;
    for (size_t k = 0; k < g->n; k++) {
        struct node *nd = &g->nodes[order[k]];
        if (steps[k].batch & BATCH_FIRST) {
            in = 1;
            g0 = k;
        } else if (in) {
            int ok = item_wise(nd);
            for (size_t j = g0; ok && j < k; j++)
                ok = item_wise(&g->nodes[order[j]]) &&
                     shares_workers(&g->nodes[order[j]], nd);
            if (ok)
                nd->flags |= FRX_EXEC_SAME_WORKERS;
            else
                g0 = k;
        }
        if (steps[k].batch & BATCH_LAST)
            in = 0;
    }
}

/* profile: true: each step's entry, by its kind and name. */
static int profile_slots(frx_backend *be, struct step *steps, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const struct node *nd = steps[k].nd;
        int slot =
            nd->type == NODE_PRODUCT ? frx__product_profile_slot(nd->product)
            : nd->type == NODE_KERNEL
                ? frx__profile_slot(be, FRX__PROF_KERNEL,
                                    frx__kernel_name(nd->kernel))
            : nd->type == NODE_PACK ? frx__profile_slot(be, FRX__PROF_PACK,
                                                        "pack")
            : nd->type == NODE_UNPACK
                ? frx__profile_slot(be, FRX__PROF_UNPACK, "unpack")
                : frx__profile_slot(be, nd->prof_kind, nd->label);
        if (slot < 0)
            return slot;
        steps[k].prof = slot;
    }
    return FRX_OK;
}

/* A run with every node timed (profile: true). */
static int run_profiled(frx_graph *g)
{
    const struct step *st = g->steps;
    for (size_t k = 0; k < g->n; k++) {
        double t0 = frx__now();
        int rc = frx__profile_time(g->be, st[k].prof, t0, st[k].run(st[k].nd));
        if (rc)
            return rc;
    }
    return FRX_OK;
}

int frx_graph_commit(frx_graph *g)
{
    if (!g)
        return frx_error(FRX_EINVAL, "frx_graph_commit: NULL graph");
    if (g->order)
        return FRX_OK;
    int rc = check_inflight(g);
    for (size_t i = 0; rc == FRX_OK && i < g->n; i++)
        if (g->nodes[i].prepare)
            rc = g->nodes[i].prepare(g->nodes[i].ud);
    if (rc)
        return rc;
    size_t n = g->n;
    unsigned char *edge = frx__calloc(n ? n * n : 1, 1, "graph edges");
    size_t *indeg = frx__calloc(n, sizeof *indeg, "graph in-degrees");
    unsigned char *urgent = frx__calloc(n, 1, "graph priorities");
    unsigned char *done = frx__calloc(n, 1, "graph order");
    unsigned char *waited = frx__calloc(n, 1, "graph order");
    int *order = frx__calloc(n, sizeof *order, "graph order");
    struct step *steps = frx__calloc(n, sizeof *steps, "graph steps");
    if (!edge || !indeg || !urgent || !done || !waited || !order || !steps) {
        free(edge), free(indeg), free(urgent), free(done), free(waited);
        free(order), free(steps);
        return FRX_ENOMEM;
    }
    for (size_t b = 0; b < n; b++) { /* edge[a*n + b]: a before b */
        for (size_t d = 0; d < g->nodes[b].ndeps; d++)
            edge[(size_t)g->nodes[b].deps[d] * n + b] = 1;
        for (size_t a = 0; a < b; a++)
            if (g->nodes[a].barrier || g->nodes[b].barrier ||
                conflicts(&g->nodes[a], &g->nodes[b]))
                edge[a * n + b] = 1;
    }
    for (size_t b = n; b-- > 0;) { /* what feeds MPI: a reverse pass */
        if (g->nodes[b].prio == FRX__PRIO_FEEDS_MPI)
            urgent[b] = 1;
        if (urgent[b])
            for (size_t a = 0; a < b; a++)
                if (edge[a * n + b])
                    urgent[a] = 1;
    }
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++) {
            indeg[b] += edge[a * n + b];
            waited[a] |= edge[a * n + b];
        }
    for (size_t k = 0; k < n; k++) {
        size_t pick = n;
        for (size_t i = 0; i < n; i++)
            if (!done[i] && indeg[i] == 0 &&
                (pick == n || rank_of(urgent, &g->nodes[i], i) >
                                  rank_of(urgent, &g->nodes[pick], pick)))
                pick = i;
        /* edges only point forward, so a ready node always exists */
        done[pick] = 1;
        order[k] = (int)pick;
        for (size_t b = 0; b < n; b++)
            indeg[b] -= edge[pick * n + b];
    }
    for (size_t k = 0; k < n; k++) {
        struct node *nd = &g->nodes[order[k]];
        /* no later node depends on it: the backend need make no event */
        nd->flags = waited[order[k]] ? 0 : FRX_EXEC_NO_WAITERS;
        steps[k].nd = nd;
        steps[k].run = nd->type == NODE_KERNEL ? run_kernel
                     : nd->type == NODE_PACK   ? run_pack
                     : nd->type == NODE_UNPACK ? run_unpack
                     : nd->type == NODE_PRODUCT ? run_product
                                               : run_host;
    }
    if (g->be->prof)
        rc = profile_slots(g->be, steps, n);
    else {
        batches(g->be, steps, n);
        same_workers(g, order, steps);
    }
    if (rc) {
        free(edge), free(indeg), free(urgent), free(done), free(waited);
        free(order), free(steps);
        return rc;
    }
    free(edge), free(indeg), free(urgent), free(done), free(waited);
    g->order = order;
    g->steps = steps;
    return FRX_OK;
}

int frx_graph_run(frx_graph *g)
{
    if (!g || !g->order)
        return frx_error(FRX_EINVAL, "frx_graph_run: commit the graph first");
    const struct step *st = g->steps;
    const frx_backend_ops *ops = g->be->ops;
    void *state = g->be->state;
    int in_batch = 0;
    if (g->be->prof) {
        int rc = run_profiled(g);
        if (rc && g->on_failure)
            g->on_failure(g->on_failure_ud, rc);
        return rc;
    }
    for (size_t k = 0, n = g->n; k < n; k++) {
        int rc = FRX_OK;
        if (st[k].batch & BATCH_FIRST) {
            rc = ops->batch_begin(state);
            in_batch = rc == FRX_OK;
        }
        if (rc == FRX_OK)
            rc = st[k].run(st[k].nd);
        if (in_batch && (rc || (st[k].batch & BATCH_LAST))) {
            int end = ops->batch_end(state); /* runs what was held */
            rc = rc ? rc : end;
            in_batch = 0;
        }
        if (rc) {
            if (g->on_failure) /* peers wait on this rank: end the job */
                g->on_failure(g->on_failure_ud, rc);
            return rc;
        }
    }
    return FRX_OK;
}

int frx_graph_node_flags(const frx_graph *g, int node, uint32_t *flags)
{
    if (!g || !g->order || !flags || node < 0 || (size_t)node >= g->n)
        return frx_error(FRX_EINVAL, "frx_graph_node_flags: commit the "
                         "graph first and name one of its %zu nodes",
                         g ? g->n : 0);
    *flags = g->nodes[node].flags;
    return FRX_OK;
}

int frx_graph_order(const frx_graph *g, int *order, size_t n)
{
    if (!g || !g->order || n < g->n)
        return frx_error(FRX_EINVAL, "frx_graph_order: commit the graph "
                         "first and pass room for %zu nodes", g ? g->n : 0);
    memcpy(order, g->order, g->n * sizeof *order);
    return FRX_OK;
}
