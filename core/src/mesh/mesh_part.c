/* SPDX-License-Identifier: BSD-3-Clause */
/* Partitioning the global mesh: an owner rank for every element.
 *
 * metis: METIS_PartGraphKway on the element dual graph (an edge per
 * pair of elements that share faces, periodic ones included, weighted
 * by how many they share), each part's target share its rank's weight
 * over the sum, at most 1% above it; a fixed seed, so the same input
 * gives the same partition. linear: contiguous ranges of element
 * numbers, sized by weight. Either gives every rank an element (there
 * are at least as many elements as ranks). In a mesh of several element
 * types each element counts by its type's cost (PyFR's default weights:
 * a hexahedron 18, a prism 10, a quadrilateral or a pyramid 6, a
 * triangle or a tetrahedron 3), so a part's share is of the work, not of the element
 * count; a mesh of one type is split by count, as before. */
#include "mesh/mesh-impl.h"

#include <math.h>
#include <metis.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>

static void sort_idx(idx_t *a, idx_t n)
{
    for (idx_t i = 1; i < n; i++)
        for (idx_t j = i; j > 0 && a[j - 1] > a[j]; j--) {
            idx_t t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

/* The dual graph in METIS's CSR form: neighbours of each element,
 * sorted, each once, weighted by the faces shared. */
struct graph {
    idx_t *xadj, *adjncy, *adjwgt;
};

static int dual_graph(const struct frx__gmesh *g, const struct frx__conn *c,
                      struct graph *gr)
{
    size_t nsides = c->foff[g->neles];
    gr->xadj = calloc(g->neles + 1, sizeof *gr->xadj);
    gr->adjncy = calloc(nsides + 1, sizeof *gr->adjncy);
    gr->adjwgt = calloc(nsides + 1, sizeof *gr->adjwgt);
    if (!gr->xadj || !gr->adjncy || !gr->adjwgt)
        return frx_error(FRX_ENOMEM, "out of memory making the dual graph "
                         "of %zu elements for METIS", g->neles);
    idx_t n = 0;
    for (size_t e = 0; e < g->neles; e++) {
        idx_t nb[FRX__MAX_FACES], nn = 0;
        for (size_t s = c->foff[e]; s < c->foff[e + 1]; s++) {
            const struct frx__fglob *F = &c->faces[c->fidx[s]];
            if (F->ele[1] == FRX__NONE)
                continue;
            uint64_t other = F->ele[0] == e ? F->ele[1] : F->ele[0];
            if (other != e) /* a 1-element-wide periodic box */
                nb[nn++] = (idx_t)other;
        }
        sort_idx(nb, nn);
        for (idx_t i = 0; i < nn; i++) {
            if (i > 0 && nb[i] == nb[i - 1]) {
                gr->adjwgt[n - 1]++;
                continue;
            }
            gr->adjncy[n] = nb[i];
            gr->adjwgt[n++] = 1;
        }
        gr->xadj[e + 1] = n;
    }
    return FRX_OK;
}

int frx__etype_cost(int etype)
{
    switch (etype) {
    case FRX_ETYPE_HEX: return 18;
    case FRX_ETYPE_PRI: return 10;
    case FRX_ETYPE_QUAD:
    case FRX_ETYPE_PYR: return 6;
    default: return 3; /* triangles, tetrahedra */
    }
}

/* Whether g holds more than one element type. */
static int mixed(const struct frx__gmesh *g)
{
    for (size_t e = 1; e < g->neles; e++)
        if (g->etype[e] != g->etype[0])
            return 1;
    return 0;
}

/* Every rank at least one element (n >= nparts): each range ends at
 * least one past its start, and leaves one for each rank after it. Each
 * element counts by its cost where the types are mixed. */
static void linear(const struct frx__gmesh *g, int nparts, const double *weights,
                   int *part)
{
    size_t n = g->neles;
    int mix = mixed(g);
    double *cum = mix ? malloc((n + 1) * sizeof *cum) : NULL; /* cost before e */
    if (cum) {
        cum[0] = 0;
        for (size_t e = 0; e < n; e++)
            cum[e + 1] = cum[e] + frx__etype_cost(g->etype[e]);
    }
    double sum = 0, acc = 0;
    for (int r = 0; r < nparts; r++)
        sum += weights[r];
    size_t e = 0;
    for (int r = 0; r < nparts; r++) {
        acc += weights[r];
        size_t end = (size_t)floor((double)n * acc / sum + 0.5);
        if (cum) { /* the first element whose cost ends past the share */
            double want = cum[n] * acc / sum;
            end = e;
            while (end < n && cum[end + 1] - 0.5 * frx__etype_cost(g->etype[end]) <= want)
                end++;
        }
        size_t after = (size_t)(nparts - 1 - r);
        end = end < e + 1 ? e + 1 : end;
        end = end > n - after ? n - after : end;
        for (; e < end; e++)
            part[e] = r;
    }
    free(cum);
}

/* METIS may leave a part empty on a tiny graph (5 elements in a row on
 * 4 ranks): give each empty part the last element of the part fullest
 * for its weight that has two or more. */
static void fill_empty(size_t n, int nparts, const double *weights,
                       int *part, size_t *count)
{
    memset(count, 0, (size_t)nparts * sizeof *count);
    for (size_t e = 0; e < n; e++)
        count[part[e]]++;
    for (int r = 0; r < nparts; r++) {
        if (count[r])
            continue;
        int d = -1;
        for (int q = 0; q < nparts; q++)
            if (count[q] >= 2 &&
                (d < 0 || count[q] / weights[q] > count[d] / weights[d]))
                d = q;
        size_t e = n;
        while (e-- > 0 && part[e] != d)
            ;
        part[e] = r;
        count[d]--;
        count[r]++;
    }
}

/* release, if not NULL, is c: freed once the graph is made. */
static int metis(const struct frx__gmesh *g, const struct frx__conn *c,
                 int nparts, const double *weights, int *part,
                 struct frx__conn *release)
{
    struct graph gr = {0};
    real_t *tp = calloc((size_t)nparts, sizeof *tp);
    idx_t *out = calloc(g->neles, sizeof *out);
    size_t *count = calloc((size_t)nparts, sizeof *count);
    int rc = !tp || !out || !count
                 ? frx_error(FRX_ENOMEM, "out of memory partitioning")
                 : dual_graph(g, c, &gr);
    if (release)
        frx__conn_free(release);
    if (rc == FRX_OK) {
        double sum = 0;
        for (int r = 0; r < nparts; r++)
            sum += weights[r];
        for (int r = 0; r < nparts; r++)
            tp[r] = (real_t)(weights[r] / sum);
        idx_t options[METIS_NOPTIONS];
        METIS_SetDefaultOptions(options);
        options[METIS_OPTION_SEED] = 1;      /* the same partition each run */
        options[METIS_OPTION_UFACTOR] = 10;  /* parts <= 1.01 x target */
        options[METIS_OPTION_NUMBERING] = 0;
        idx_t nv = (idx_t)g->neles, ncon = 1, np = nparts, cut = 0;
        idx_t *vwgt = mixed(g) ? malloc(g->neles * sizeof *vwgt) : NULL;
        for (size_t e = 0; vwgt && e < g->neles; e++)
            vwgt[e] = frx__etype_cost(g->etype[e]);
        int mr = METIS_PartGraphKway(&nv, &ncon, gr.xadj, gr.adjncy, vwgt,
                                     NULL, gr.adjwgt, &np, tp, NULL, options,
                                     &cut, out);
        free(vwgt);
        if (mr != METIS_OK)
            rc = frx_error(mr == METIS_ERROR_MEMORY ? FRX_ENOMEM : FRX_EINVAL,
                           "METIS_PartGraphKway failed (%s) partitioning "
                           "%zu elements into %d parts; partition.method: "
                           "linear avoids METIS",
                           mr == METIS_ERROR_INPUT ? "bad input"
                           : mr == METIS_ERROR_MEMORY ? "out of memory"
                                                      : "error", g->neles,
                           nparts);
        for (size_t e = 0; rc == FRX_OK && e < g->neles; e++)
            part[e] = (int)out[e];
        if (rc == FRX_OK)
            fill_empty(g->neles, nparts, weights, part, count);
    }
    free(gr.xadj);
    free(gr.adjncy);
    free(gr.adjwgt);
    free(tp);
    free(out);
    free(count);
    return rc;
}

int frx__mesh_partition(const struct frx__gmesh *g,
                        const struct frx__conn *c, int method, int nparts,
                        const double *weights, int *part)
{
    if (nparts == 1) {
        memset(part, 0, g->neles * sizeof *part);
        return FRX_OK;
    }
    if (method == FRX__PART_LINEAR) {
        linear(g, nparts, weights, part);
        return FRX_OK;
    }
    return metis(g, c, nparts, weights, part, NULL);
}

int frx__mesh_partition_lean(const struct frx__gmesh *g,
                             struct frx__conn *c, int method, int nparts,
                             const double *weights, int *part)
{
    if (nparts == 1 || method == FRX__PART_LINEAR)
        return frx__mesh_partition(g, c, method, nparts, weights, part);
    int rc = metis(g, c, nparts, weights, part, c);
#ifdef __GLIBC__
    /* METIS frees its many blocks, but glibc keeps the pages unless
     * told; the faces about to be made need them (about a third of the
     * peak on large meshes) */
    malloc_trim(0);
#endif
    int rc2 = frx__mesh_connect(g, c); /* as it was: it matched before */
    return rc ? rc : rc2;
}
