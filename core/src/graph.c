/* Graphs: nodes with explicit and derived dependencies, ordered once at
 * commit, run many times. */
#include "frx-impl.h"

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
    void *ud;
    int prio;
    frx__access acc[2]; /* pack, unpack and host nodes */
    size_t nacc;
    int *deps;
    size_t ndeps;
    uint32_t flags; /* set by commit: frx_exec_flags */
};

/* What run calls, in order: one indirect call a node, since a graph of
 * a small exchange runs in a fraction of a microsecond. */
struct step {
    int (*run)(const struct node *nd);
    const struct node *nd;
};

struct frx_graph {
    frx_backend *be;
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
    for (size_t i = 0; i < g->n; i++)
        free(g->nodes[i].deps);
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

int frx_graph_add_kernel(frx_graph *g, frx_kernel *k, const int *deps,
                         size_t ndeps, int *node)
{
    if (!g || !k)
        return frx_error(FRX_EINVAL, "frx_graph_add_kernel: NULL argument");
    return add(g, (struct node){.type = NODE_KERNEL, .kernel = k}, deps,
               ndeps, node);
}

int frx_graph_add_product(frx_graph *g, frx_product *p, const int *deps,
                          size_t ndeps, int *node)
{
    if (!g || !p)
        return frx_error(FRX_EINVAL, "frx_graph_add_product: NULL argument");
    return add(g, (struct node){.type = NODE_PRODUCT, .product = p}, deps,
               ndeps, node);
}

static int add_xchg(frx_graph *g, frx_xchg_view *xv, int type,
                    const int *deps, size_t ndeps, int *node)
{
    if (!g || !xv)
        return frx_error(FRX_EINVAL, "graph: NULL xchg view");
    int pack = type == NODE_PACK;
    struct node nd = {.type = type, .xv = xv, .nacc = 2,
                      .prio = pack ? FRX__PRIO_FEEDS_MPI : 0};
    nd.acc[0] = (frx__access){xv->view->alloc, !pack, xv->view->lo,
                              xv->view->hi};
    nd.acc[1] = (frx__access){xv->xm, pack, 0, SIZE_MAX};
    return add(g, nd, deps, ndeps, node);
}

int frx__graph_add_host(frx_graph *g, frx__host_fn fn, void *ud, int prio,
                        const frx__access *acc, size_t nacc, const int *deps,
                        size_t ndeps, int *node)
{
    if (!g || !fn || nacc > 2)
        return frx_error(FRX_EINVAL, "graph: bad host node");
    struct node nd = {.type = NODE_HOST, .fn = fn, .ud = ud, .prio = prio,
                      .nacc = nacc};
    for (size_t i = 0; i < nacc; i++)
        nd.acc[i] = acc[i];
    return add(g, nd, deps, ndeps, node);
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
static int run_host(const struct node *nd) { return nd->fn(nd->ud); }
static int run_product(const struct node *nd)
{
    return frx__product_run(nd->product, nd->flags);
}

int frx_graph_commit(frx_graph *g)
{
    if (!g)
        return frx_error(FRX_EINVAL, "frx_graph_commit: NULL graph");
    if (g->order)
        return FRX_OK;
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
            if (conflicts(&g->nodes[a], &g->nodes[b]))
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
    for (size_t k = 0, n = g->n; k < n; k++) {
        int rc = st[k].run(st[k].nd);
        if (rc)
            return rc;
    }
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
