/* SPDX-License-Identifier: BSD-3-Clause */
/* Connectivity of the global mesh: which element faces meet, which lie
 * on which boundary, and which periodic faces pair up.
 *
 * A "side" is one face of one element, numbered foff[e] + f. Sides meet
 * when their sorted corner nodes are equal. Each corner node lists the
 * elements that have it (a CSR table: counted, then filled), so the sides
 * that share a side's corners are found among the elements of its
 * lowest corner: linear time, memory a few words per element corner,
 * and elements near in number stay near in memory (no hash table over
 * every side). Periodic sides meet when the corners of one, moved by
 * the pair's shift, are the corners of the other within a millionth of
 * the face's size. */
#include "mesh/mesh-impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct conn {
    const struct frx__gmesh *g;
    size_t nsides;
    size_t *foff;      /* [neles + 1] */
    int nf;            /* faces of every element where one type; else 0 */
    struct frx__corner_elements ce; /* each corner node's elements */
    uint64_t *partner; /* [nsides] the other side, or NONE */
    uint16_t *rot;     /* [nsides] rotation to the partner (3-D) */
    int32_t *group;    /* [nsides] 0; 1 + boundary; -(1 + 2 pair + side) */
};

/* ---------------------------------------------------------- sides */

static const struct frx__etype_info *type_of(const struct conn *c,
                                             uint64_t e)
{
    return frx__etype(c->g->etype[e]);
}

static uint64_t side_ele(const struct conn *c, uint64_t s)
{
    if (c->nf)
        return s / (uint64_t)c->nf;
    size_t lo = 0, hi = c->g->neles; /* last e with foff[e] <= s */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->foff[mid] <= s)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

int frx__face_corners(const struct frx__gmesh *g, uint64_t e, int f,
                      uint64_t *out)
{
    const struct frx__etype_info *t = frx__etype(g->etype[e]);
    for (int k = 0; k < t->fnc[f]; k++)
        out[k] = g->enodes[g->eoff[e] + (size_t)t->face[f][k]];
    return t->fnc[f];
}

/* The corners of a side as global nodes, in the element's face order. */
static int side_corners(const struct conn *c, uint64_t s, uint64_t *out)
{
    uint64_t e = side_ele(c, s);
    return frx__face_corners(c->g, e, (int)(s - c->foff[e]), out);
}

static const double *node_at(const struct conn *c, uint64_t n)
{
    return c->g->nodes + n * (uint64_t)c->g->ndims;
}

/* "(0.5, 1)" or "(0.5, 1, 2)". */
static const char *point(const double *x, int d, char *buf, size_t n)
{
    if (d == 3)
        snprintf(buf, n, "(%g, %g, %g)", x[0], x[1], x[2]);
    else
        snprintf(buf, n, "(%g, %g)", x[0], x[1]);
    return buf;
}

/* "element 12 face 3 at (0.5, 1)": the side's corner mean. */
static const char *describe(const struct conn *c, uint64_t s, char *buf,
                            size_t n)
{
    uint64_t corners[FRX__MAX_FNC], e = side_ele(c, s);
    int nn = side_corners(c, s, corners), d = c->g->ndims;
    double x[3] = {0, 0, 0};
    char at[100];
    for (int k = 0; k < nn; k++)
        for (int i = 0; i < d; i++)
            x[i] += node_at(c, corners[k])[i] / nn;
    snprintf(buf, n, "element %llu face %d at %s", (unsigned long long)e,
             (int)(s - c->foff[e]), point(x, d, at, sizeof at));
    return buf;
}

/* ------------------------------------------------- finding sides */

void frx__sort_nodes(uint64_t *k, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && k[j - 1] > k[j]; j--) {
            uint64_t t = k[j];
            k[j] = k[j - 1];
            k[j - 1] = t;
        }
}

int frx__faces_at(const struct frx__gmesh *g,
                  const struct frx__corner_elements *ce, const uint64_t *key,
                  int nn, int max, uint64_t *ele, int *face)
{
    int n = 0;
    if (key[0] >= g->nnodes)
        return 0;
    for (size_t i = ce->off[key[0]]; i < ce->off[key[0] + 1]; i++) {
        uint64_t e = ce->ele[i];
        const struct frx__etype_info *t = frx__etype(g->etype[e]);
        for (int f = 0; f < t->nfaces; f++) {
            uint64_t k[FRX__MAX_FNC];
            if (t->fnc[f] != nn)
                continue;
            frx__face_corners(g, e, f, k);
            frx__sort_nodes(k, nn);
            if (memcmp(k, key, (size_t)nn * sizeof *k))
                continue;
            if (n < max) {
                ele[n] = e;
                face[n] = f;
            }
            n++;
        }
    }
    return n;
}

/* The sides other than skip whose corners, sorted, are key[0 .. nn):
 * how many, the first two of them in found[] (ascending). */
static int sides_with(const struct conn *c, const uint64_t *key, int nn,
                      uint64_t skip, uint64_t found[2])
{
    uint64_t ele[3];
    int face[3], n = 0;
    int all = frx__faces_at(c->g, &c->ce, key, nn, 3, ele, face);
    for (int i = 0; i < all; i++) {
        uint64_t s = i < 3 ? c->foff[ele[i]] + (uint64_t)face[i] : FRX__NONE;
        if (s == skip)
            continue;
        if (n < 2)
            found[n] = s;
        n++;
    }
    return n;
}

/* The one side whose corners are corners[0 .. nn) in any order (a face
 * two elements share gives the lower-numbered side), or NONE. */
static uint64_t side_at(const struct conn *c, const uint64_t *corners,
                        int nn)
{
    uint64_t key[FRX__MAX_FNC], found[2];
    if (nn < 2 || nn > FRX__MAX_FNC)
        return FRX__NONE;
    memcpy(key, corners, (size_t)nn * sizeof *key);
    frx__sort_nodes(key, nn);
    return sides_with(c, key, nn, FRX__NONE, found) ? found[0] : FRX__NONE;
}

int frx__corner_elements(const struct frx__gmesh *g,
                         struct frx__corner_elements *ce)
{
    memset(ce, 0, sizeof *ce);
    if (g->neles > UINT32_MAX)
        return frx_error(FRX_ENOTSUP, "%s: %zu elements: frx finds the "
                         "faces of meshes of at most %u elements",
                         g->source, g->neles, (unsigned)UINT32_MAX);
    ce->off = frx__calloc(g->nnodes + 1, sizeof *ce->off, "node elements");
    size_t *at = frx__calloc(g->nnodes + 1, sizeof *at, "node elements");
    if (!ce->off || !at) {
        free(at);
        frx__corner_elements_free(ce);
        return FRX_ENOMEM;
    }
    for (size_t e = 0; e < g->neles; e++) {
        const struct frx__etype_info *t = frx__etype(g->etype[e]);
        for (int k = 0; k < t->ncorners; k++)
            ce->off[g->enodes[g->eoff[e] + (size_t)k] + 1]++;
    }
    for (size_t n = 0; n < g->nnodes; n++)
        ce->off[n + 1] += ce->off[n];
    ce->ele = frx__calloc(ce->off[g->nnodes] + 1, sizeof *ce->ele,
                          "node elements");
    if (!ce->ele) {
        free(at);
        frx__corner_elements_free(ce);
        return FRX_ENOMEM;
    }
    memcpy(at, ce->off, g->nnodes * sizeof *at);
    for (size_t e = 0; e < g->neles; e++) {
        const struct frx__etype_info *t = frx__etype(g->etype[e]);
        for (int k = 0; k < t->ncorners; k++) {
            uint64_t n = g->enodes[g->eoff[e] + (size_t)k];
            if (at[n] == ce->off[n] || ce->ele[at[n] - 1] != e)
                ce->ele[at[n]++] = (uint32_t)e;
        }
    }
    /* a node named twice by one element left its list short */
    size_t to = 0;
    for (size_t n = 0; n < g->nnodes; n++) {
        size_t from = ce->off[n], end = at[n];
        ce->off[n] = to;
        memmove(ce->ele + to, ce->ele + from, (end - from) * sizeof *ce->ele);
        to += end - from;
    }
    ce->off[g->nnodes] = to;
    free(at);
    return FRX_OK;
}

void frx__corner_elements_free(struct frx__corner_elements *ce)
{
    free(ce->off);
    free(ce->ele);
    memset(ce, 0, sizeof *ce);
}

/* ------------------------------------------------------ orientation */

/* Every element's corners turn counter-clockwise (2-D), or its
 * Jacobian is positive at every corner (3-D): the corner's three
 * neighbours, in an order that is right-handed in the reference
 * element. A tetrahedron's is the same at every corner (its map is
 * linear): (x1 - x0, x2 - x0, x3 - x0) right-handed; each row below is
 * an even permutation of (0, 1, 2, 3). A prism's corners 0, 1, 2 turn
 * counter-clockwise seen from corners 3, 4, 5 (above them). A
 * pyramid's base corners turn counter-clockwise seen from its apex:
 * each base corner, its two neighbours and the apex are a right-handed
 * tetrahedron (the map is degenerate at the apex, which is not
 * checked). */
static int check_element(const struct conn *c, uint64_t e)
{
    static const int hexnb[8][3] = {{1, 3, 4}, {2, 0, 5}, {3, 1, 6},
                                    {0, 2, 7}, {7, 5, 0}, {4, 6, 1},
                                    {5, 7, 2}, {6, 4, 3}};
    static const int tetnb[4][3] = {{1, 2, 3}, {2, 0, 3}, {0, 1, 3},
                                    {0, 2, 1}};
    static const int prinb[6][3] = {{1, 2, 3}, {2, 0, 4}, {0, 1, 5},
                                    {5, 4, 0}, {3, 5, 1}, {4, 3, 2}};
    static const int pyrnb[4][3] = {{1, 3, 4}, {2, 0, 4}, {3, 1, 4},
                                    {0, 2, 4}};
    const struct frx__etype_info *t = type_of(c, e);
    const int(*nb)[3] = t->etype == FRX_ETYPE_TET ? tetnb
                      : t->etype == FRX_ETYPE_PRI ? prinb
                      : t->etype == FRX_ETYPE_PYR ? pyrnb : hexnb;
    int ncheck = t->etype == FRX_ETYPE_PYR ? 4 : t->ncorners;
    const uint64_t *en = c->g->enodes + c->g->eoff[e];
    for (int i = 0; i < ncheck; i++) {
        const double *x = node_at(c, en[i]);
        double v;
        if (t->ndims == 2) {
            const double *a = node_at(c, en[(i + 1) % t->ncorners]);
            const double *b = node_at(c, en[(i + t->ncorners - 1) %
                                            t->ncorners]);
            v = (a[0] - x[0]) * (b[1] - x[1]) - (a[1] - x[1]) * (b[0] - x[0]);
        } else {
            double u[3][3];
            for (int k = 0; k < 3; k++)
                for (int d = 0; d < 3; d++)
                    u[k][d] = node_at(c, en[nb[i][k]])[d] - x[d];
            v = u[0][0] * (u[1][1] * u[2][2] - u[1][2] * u[2][1]) -
                u[0][1] * (u[1][0] * u[2][2] - u[1][2] * u[2][0]) +
                u[0][2] * (u[1][0] * u[2][1] - u[1][1] * u[2][0]);
        }
        char at[100];
        if (!(v > 0))
            return frx_error(FRX_ECONFIG, "%s: element %llu (a %s) is "
                             "inverted or flat at its corner %d (node %llu "
                             "at %s): corners must turn counter-clockwise "
                             "(2-D) or give a positive Jacobian (3-D)",
                             c->g->source, (unsigned long long)e, t->name,
                             i, (unsigned long long)en[i],
                             point(x, t->ndims, at, sizeof at));
    }
    return FRX_OK;
}

/* How side b meets side a: ac are a's corners as b's nodes (moved by
 * the shift for a periodic pair), bc b's corners, each in its element's
 * face order. In 2-D the two walk the face in opposite directions; in
 * 3-D rot is the place of a's corner 0 in b's list, and b's corner
 * (rot - i) mod n is a's corner i (a reflection: the sides face each
 * other). */
static int face_rot(const struct conn *c, uint64_t sa, uint64_t sb,
                    const uint64_t *ac, const uint64_t *bc, int n,
                    uint16_t *rot)
{
    int r = 0;
    while (r < n && bc[r] != ac[0])
        r++;
    int ok = r < n && (n > 2 || r == 1); /* 2-D: b = (a1, a0) */
    for (int i = 0; ok && i < n; i++)
        ok = bc[(r - i + n) % n] == ac[i];
    if (!ok) {
        char da[200], db[200];
        return frx_error(FRX_ECONFIG, "%s: %s and %s walk their shared face "
                         "the same way: one of the two elements is "
                         "inverted", c->g->source,
                         describe(c, sa, da, sizeof da),
                         describe(c, sb, db, sizeof db));
    }
    *rot = (uint16_t)(c->g->ndims == 3 ? r : 0);
    return FRX_OK;
}

/* 2-D: side s's middle node (Gmsh numbers an order-2 triangle's or
 * quadrilateral's edge nodes after its corners, edge f as face f), or
 * NULL where its element is of order 1 (a straight side). */
static const double *side_middle(const struct conn *c, uint64_t s)
{
    uint64_t e = side_ele(c, s);
    if (c->g->ndims != 2 || c->g->order[e] < 2)
        return NULL;
    const struct frx__etype_info *t = type_of(c, e);
    size_t k = (size_t)t->ncorners + (size_t)(s - c->foff[e]);
    return node_at(c, c->g->enodes[c->g->eoff[e] + k]);
}

/* Both sides of a 2-D face curve it alike: matched by their corners
 * alone, two order-2 sides with different middle nodes (or an order-2
 * side bent where its order-1 neighbour is straight) leave a gap or an
 * overlap. ac: the face's corners. 3-D faces are not compared here. */
static int same_curve(const struct conn *c, uint64_t t, uint64_t s,
                      const uint64_t *ac)
{
    const double *mt = side_middle(c, t), *ms = side_middle(c, s);
    if (!mt && !ms)
        return FRX_OK;
    const double *a = node_at(c, ac[0]), *b = node_at(c, ac[1]);
    double mid[2] = {(a[0] + b[0]) / 2, (a[1] + b[1]) / 2};
    const double *p = mt ? mt : mid, *q = ms ? ms : mid;
    double len = hypot(b[0] - a[0], b[1] - a[1]);
    if (hypot(p[0] - q[0], p[1] - q[1]) <= 1e-9 * len)
        return FRX_OK;
    char dt[200], ds[200], pt[100], ps[100];
    return frx_error(FRX_ECONFIG, "%s: %s and %s curve their shared face "
                     "differently: its middle is at %s for the one and at "
                     "%s for the other (%s): give both elements the same "
                     "middle node", c->g->source,
                     describe(c, t, dt, sizeof dt),
                     describe(c, s, ds, sizeof ds),
                     point(p, 2, pt, sizeof pt), point(q, 2, ps, sizeof ps),
                     mt && ms ? "two middle nodes"
                              : "a middle node off the straight side");
}

/* ------------------------------------------------------ interior */

/* Pair every side with the one side that has its corners, the lower
 * first; a third side with them is an error. */
static int match_interior(struct conn *c)
{
    uint64_t key[FRX__MAX_FNC], ac[FRX__MAX_FNC], bc[FRX__MAX_FNC];
    for (uint64_t s = 0; s < c->nsides; s++) {
        if (c->partner[s] != FRX__NONE)
            continue; /* paired from its lower partner */
        int nn = side_corners(c, s, ac);
        memcpy(key, ac, (size_t)nn * sizeof *key);
        frx__sort_nodes(key, nn);
        uint64_t found[2];
        int n = sides_with(c, key, nn, s, found);
        if (n == 0)
            continue;
        if (n > 1) {
            char d0[200], d1[200], d2[200];
            return frx_error(FRX_ECONFIG, "%s: a face is shared by more "
                             "than two elements: %s, %s and %s",
                             c->g->source, describe(c, s, d0, sizeof d0),
                             describe(c, found[0], d1, sizeof d1),
                             describe(c, found[1], d2, sizeof d2));
        }
        uint64_t t = found[0];
        c->partner[s] = t;
        c->partner[t] = s;
        side_corners(c, t, bc); /* equal keys: as many corners as s */
        int rc = face_rot(c, s, t, ac, bc, nn, &c->rot[s]);
        if (!rc)
            rc = same_curve(c, s, t, ac);
        if (rc)
            return rc;
        c->rot[t] = c->rot[s];
    }
    return FRX_OK;
}

/* ----------------------------------------------- boundaries, periodic */

static const char *group_name(const struct conn *c, int32_t gr, char *buf,
                              size_t n)
{
    if (gr > 0)
        snprintf(buf, n, "boundary '%s'", c->g->bcs[gr - 1].name);
    else
        snprintf(buf, n, "side %d of periodic pair '%s'", (-gr - 1) % 2,
                 c->g->pers[(-gr - 1) / 2].name);
    return buf;
}

/* Mark the sides a list of faces names as belonging to group gr. */
static int tag_faces(struct conn *c, size_t n, const struct frx__gface *f,
                     int32_t gr, uint64_t *sides)
{
    char what[200], other[200], d[200];
    for (size_t i = 0; i < n; i++) {
        uint64_t s = side_at(c, f[i].n, f[i].nn);
        group_name(c, gr, what, sizeof what);
        if (s == FRX__NONE)
            return frx_error(FRX_ECONFIG, "%s: face %zu of %s (nodes "
                             "%llu, %llu, ...) is no face of any element",
                             c->g->source, i, what,
                             (unsigned long long)f[i].n[0],
                             (unsigned long long)f[i].n[1]);
        if (c->partner[s] != FRX__NONE)
            return frx_error(FRX_ECONFIG, "%s: face %zu of %s lies between "
                             "two elements (%s), not on the mesh's "
                             "boundary", c->g->source, i, what,
                             describe(c, s, d, sizeof d));
        if (c->group[s])
            return frx_error(FRX_ECONFIG, "%s: %s is in both %s and %s",
                             c->g->source, describe(c, s, d, sizeof d),
                             group_name(c, c->group[s], other, sizeof other),
                             what);
        c->group[s] = gr;
        if (sides)
            sides[i] = s;
    }
    return FRX_OK;
}

/* Corner nodes of one side of a periodic pair, by lattice cell. */
struct pnode {
    int64_t cell[3];
    uint64_t node;
};

static int cmp_pnode(const void *a, const void *b)
{
    const struct pnode *x = a, *y = b;
    for (int k = 0; k < 3; k++)
        if (x->cell[k] != y->cell[k])
            return x->cell[k] < y->cell[k] ? -1 : 1;
    return (x->node > y->node) - (x->node < y->node);
}

struct grid {
    struct pnode *p;
    size_t n;
    double q; /* cell size */
};

static void cell_of(const struct grid *gr, const double *x, int d,
                    int64_t *cell)
{
    for (int k = 0; k < 3; k++)
        cell[k] = k < d ? (int64_t)floor(x[k] / gr->q) : 0;
}

/* The node of the grid within tol of x (the nearest), or NONE. */
static uint64_t grid_find(const struct conn *c, const struct grid *gr,
                          const double *x, double tol)
{
    int d = c->g->ndims, nb = d == 2 ? 9 : 27;
    int64_t cell[3];
    cell_of(gr, x, d, cell);
    uint64_t best = FRX__NONE;
    double bestd = tol;
    for (int m = 0; m < nb; m++) {
        struct pnode key = {{cell[0] + m % 3 - 1, cell[1] + m / 3 % 3 - 1,
                             d == 3 ? cell[2] + m / 9 - 1 : 0}, 0};
        size_t lo = 0, hi = gr->n; /* first entry >= key */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (cmp_pnode(&gr->p[mid], &key) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < gr->n && !memcmp(gr->p[lo].cell, key.cell,
                                      sizeof key.cell); lo++) {
            const double *y = node_at(c, gr->p[lo].node);
            double dist = 0;
            for (int k = 0; k < d; k++)
                dist = fmax(dist, fabs(y[k] - x[k]));
            if (dist <= bestd) {
                bestd = dist;
                best = gr->p[lo].node;
            }
        }
    }
    return best;
}

/* The smallest distance between two corners of a side. */
static double side_size(const struct conn *c, uint64_t s)
{
    uint64_t n[FRX__MAX_FNC];
    int nn = side_corners(c, s, n);
    double h = INFINITY;
    for (int i = 0; i < nn; i++)
        for (int j = i + 1; j < nn; j++) {
            double dd = 0;
            for (int k = 0; k < c->g->ndims; k++) {
                double t = node_at(c, n[i])[k] - node_at(c, n[j])[k];
                dd += t * t;
            }
            h = fmin(h, sqrt(dd));
        }
    return h;
}

#define PERIODIC_TOL 1e-6 /* of a face's size */

static int pair_sides(struct conn *c, int p, const uint64_t *sa, size_t na,
                      const struct grid *gr)
{
    const struct frx__gper *pr = &c->g->pers[p];
    int d = c->g->ndims;
    for (size_t i = 0; i < na; i++) {
        uint64_t ac[FRX__MAX_FNC], mapped[FRX__MAX_FNC], bc[FRX__MAX_FNC];
        int nn = side_corners(c, sa[i], ac);
        double tol = PERIODIC_TOL * side_size(c, sa[i]);
        uint64_t t = FRX__NONE;
        for (int k = 0; k < nn; k++) {
            double x[3];
            for (int j = 0; j < d; j++)
                x[j] = node_at(c, ac[k])[j] + pr->shift[j];
            mapped[k] = grid_find(c, gr, x, tol);
        }
        int all = 1;
        for (int k = 0; k < nn; k++)
            all &= mapped[k] != FRX__NONE;
        if (all)
            t = side_at(c, mapped, nn);
        if (t == FRX__NONE || c->group[t] != -(1 + 2 * p + 1) ||
            c->partner[t] != FRX__NONE) {
            char da[200], sh[100];
            return frx_error(FRX_ECONFIG, "%s: periodic pair '%s': %s has "
                             "no partner on the other side, moved by %s: "
                             "the two sides must match node for node "
                             "(within %g of the face's size)", c->g->source,
                             pr->name, describe(c, sa[i], da, sizeof da),
                             point(pr->shift, d, sh, sizeof sh),
                             PERIODIC_TOL);
        }
        side_corners(c, t, bc);
        int rc = face_rot(c, sa[i], t, mapped, bc, nn, &c->rot[sa[i]]);
        if (rc)
            return rc;
        c->rot[t] = c->rot[sa[i]];
        c->partner[sa[i]] = t;
        c->partner[t] = sa[i];
    }
    return FRX_OK;
}

static int match_periodic(struct conn *c, int p)
{
    const struct frx__gper *pr = &c->g->pers[p];
    if (pr->nfaces[0] != pr->nfaces[1])
        return frx_error(FRX_ECONFIG, "%s: periodic pair '%s' has %zu faces "
                         "on one side and %zu on the other: the sides must "
                         "match face for face", c->g->source, pr->name,
                         pr->nfaces[0], pr->nfaces[1]);
    size_t n = pr->nfaces[0];
    uint64_t *sa = frx__calloc(n, sizeof *sa, "periodic faces");
    uint64_t *sb = frx__calloc(n, sizeof *sb, "periodic faces");
    struct grid gr = {.p = frx__calloc(n * FRX__MAX_FNC, sizeof *gr.p,
                                       "periodic nodes")};
    int rc = !sa || !sb || !gr.p ? FRX_ENOMEM : FRX_OK;
    if (rc == FRX_OK)
        rc = tag_faces(c, n, pr->faces[0], -(1 + 2 * p), sa);
    if (rc == FRX_OK)
        rc = tag_faces(c, n, pr->faces[1], -(1 + 2 * p + 1), sb);
    if (rc == FRX_OK) {
        /* cells no smaller than the tolerance, so a node within it of a
         * point lies in that point's cell or a neighbouring one */
        double hmin = INFINITY, hmax = 0;
        for (size_t i = 0; i < n; i++) {
            double ha = side_size(c, sa[i]), hb = side_size(c, sb[i]);
            hmin = fmin(hmin, hb);
            hmax = fmax(hmax, fmax(ha, hb));
        }
        gr.q = fmax(0.5 * hmin, PERIODIC_TOL * hmax);
        if (!(gr.q > 0) || !isfinite(gr.q))
            rc = frx_error(FRX_ECONFIG, "%s: periodic pair '%s' has faces "
                           "of zero size", c->g->source, pr->name);
    }
    if (rc == FRX_OK) {
        for (size_t i = 0; i < n; i++) {
            uint64_t bc[FRX__MAX_FNC];
            int nn = side_corners(c, sb[i], bc);
            for (int k = 0; k < nn; k++) {
                struct pnode *q = &gr.p[gr.n++];
                q->node = bc[k];
                cell_of(&gr, node_at(c, bc[k]), c->g->ndims, q->cell);
            }
        }
        qsort(gr.p, gr.n, sizeof *gr.p, cmp_pnode);
        rc = pair_sides(c, p, sa, n, &gr);
    }
    free(sa);
    free(sb);
    free(gr.p);
    return rc;
}

/* ------------------------------------------------------ global faces */

static int build_faces(const struct conn *c, struct frx__conn *out)
{
    size_t nf = 0, nloose = 0;
    uint64_t first_loose = FRX__NONE;
    for (uint64_t s = 0; s < c->nsides; s++) {
        uint64_t t = c->partner[s];
        if (t == FRX__NONE) {
            nf += c->group[s] > 0;
            if (!c->group[s] && nloose++ == 0)
                first_loose = s;
        } else {
            nf += c->group[s] < 0 ? (-c->group[s] - 1) % 2 == 0 : s < t;
        }
    }
    if (nloose) {
        char d[200];
        return frx_error(FRX_ECONFIG, "%s: %zu element face(s) lie on no "
                         "boundary and meet no other element, e.g. %s: put "
                         "them in a named boundary or a periodic pair",
                         c->g->source, nloose,
                         describe(c, first_loose, d, sizeof d));
    }
    out->faces = frx__calloc(nf, sizeof *out->faces, "mesh faces");
    out->fidx = frx__calloc(c->nsides, sizeof *out->fidx, "mesh faces");
    if (!out->faces || !out->fidx)
        return FRX_ENOMEM;
    for (uint64_t e = 0, s = 0; e < c->g->neles; e++) {
        for (; s < c->foff[e + 1]; s++) {
            uint64_t t = c->partner[s];
            int periodic = c->group[s] < 0;
            int canonical = t == FRX__NONE
                          || (periodic ? (-c->group[s] - 1) % 2 == 0 : s < t);
            if (!canonical)
                continue;
            struct frx__fglob *F = &out->faces[out->nfaces];
            out->fidx[s] = out->nfaces;
            if (t != FRX__NONE)
                out->fidx[t] = out->nfaces;
            out->nfaces++;
            F->ele[0] = e;
            F->face[0] = (uint16_t)(s - c->foff[e]);
            F->ele[1] = t == FRX__NONE ? FRX__NONE : side_ele(c, t);
            F->face[1] = t == FRX__NONE
                             ? 0 : (uint16_t)(t - c->foff[F->ele[1]]);
            F->rot = c->rot[s];
            F->periodic = periodic ? (-c->group[s] - 1) / 2 : -1;
            F->bc = c->group[s] > 0 ? c->group[s] - 1 : -1;
        }
    }
    return FRX_OK;
}

/* ------------------------------------------------------------ entry */

static int setup(struct conn *c, const struct frx__gmesh *g)
{
    c->g = g;
    c->foff = frx__calloc(g->neles + 1, sizeof *c->foff, "mesh faces");
    if (!c->foff)
        return FRX_ENOMEM;
    const struct frx__etype_info *t0 = g->neles ? frx__etype(g->etype[0])
                                                : NULL;
    c->nf = t0 ? t0->nfaces : 0; /* 0 below if the types' counts differ */
    for (size_t e = 0; e < g->neles; e++) {
        const struct frx__etype_info *t = frx__etype(g->etype[e]);
        if (!t || t->ndims != g->ndims || g->order[e] < 1 ||
            g->order[e] > FRX__MAX_ORDER ||
            g->eoff[e + 1] - g->eoff[e] != t->nshape[g->order[e]])
            return frx_error(FRX_ENOTSUP, "%s: element %zu has type %d of "
                             "order %d with %zu shape points: frx takes "
                             "triangles, quadrilaterals (2-D), tetrahedra, "
                             "hexahedra, prisms and pyramids (3-D) of "
                             "order 1 or 2 with all their points",
                             g->source, e, g->etype[e], g->order[e],
                             g->eoff[e + 1] - g->eoff[e]);
        c->foff[e + 1] = c->foff[e] + (size_t)t->nfaces;
        if (t->nfaces != c->nf)
            c->nf = 0;
        for (size_t i = g->eoff[e]; i < g->eoff[e + 1]; i++)
            if (g->enodes[i] >= g->nnodes)
                return frx_error(FRX_ECONFIG, "%s: element %zu names node "
                                 "%llu, but there are %zu nodes", g->source,
                                 e, (unsigned long long)g->enodes[i],
                                 g->nnodes);
    }
    c->nsides = c->foff[g->neles];
    c->partner = malloc((c->nsides + 1) * sizeof *c->partner);
    c->rot = frx__calloc(c->nsides, sizeof *c->rot, "face rotations");
    c->group = frx__calloc(c->nsides, sizeof *c->group, "face groups");
    if (!c->partner || !c->rot || !c->group)
        return frx_error(FRX_ENOMEM, "out of memory matching the faces of "
                         "%zu elements", g->neles);
    memset(c->partner, 0xff, (c->nsides + 1) * sizeof *c->partner);
    return frx__corner_elements(g, &c->ce);
}

static void teardown(struct conn *c)
{
    frx__corner_elements_free(&c->ce);
    free(c->partner);
    free(c->rot);
    free(c->group);
}

int frx__mesh_connect(const struct frx__gmesh *g, struct frx__conn *out)
{
    struct conn c = {0};
    memset(out, 0, sizeof *out);
    int rc = setup(&c, g);
    for (size_t e = 0; rc == FRX_OK && e < g->neles; e++)
        rc = check_element(&c, e);
    if (rc == FRX_OK)
        rc = match_interior(&c);
    for (size_t i = 0; rc == FRX_OK && i < g->nbcs; i++)
        rc = tag_faces(&c, g->bcs[i].nfaces, g->bcs[i].faces,
                       (int32_t)i + 1, NULL);
    for (size_t p = 0; rc == FRX_OK && p < g->npers; p++)
        rc = match_periodic(&c, (int)p);
    if (rc == FRX_OK) {
        frx__corner_elements_free(&c.ce); /* matched: room for the faces */
        rc = build_faces(&c, out);
    }
    if (rc == FRX_OK) {
        out->foff = c.foff;
        c.foff = NULL;
    }
    free(c.foff);
    teardown(&c);
    if (rc)
        frx__conn_free(out);
    return rc;
}

void frx__conn_free(struct frx__conn *c)
{
    free(c->faces);
    free(c->foff);
    free(c->fidx);
    memset(c, 0, sizeof *c);
}
