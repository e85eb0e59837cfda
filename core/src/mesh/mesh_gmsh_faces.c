/* SPDX-License-Identifier: BSD-3-Clause */
/* Faces of a Gmsh mesh, checked where the file can be named: which
 * element faces meet (found through each corner node's elements, as
 * mesh_conn.c finds them), which boundary or
 * periodic group each face element of the file gives its face to, and
 * how the two sides of each periodic pair match. The connectivity step
 * (mesh_conn.c) then finds the same faces again; what it would refuse
 * is refused here first, with the line (or byte offset) of the element.
 *
 * A periodic pair's translation, along each axis, is the median of the
 * differences between side r's face centres and side l's, each side's
 * sorted along that axis: if the sides match face for face, every
 * difference is the translation (a translation keeps the order), and a
 * few faces that do not match cannot move the median. Each face of
 * side l, moved by it, must then meet one face of side r corner for
 * corner, within a millionth of the face's size (as mesh_conn.c checks),
 * or the first that does not is named. Components of the translation
 * below 1e-10 of its length are the rounding of the file's coordinates
 * (PyFR's vortex mesh: 1e-11 across a 20-wide box) and are made 0. */
#include "mesh/gmsh-impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERIODIC_TOL 1e-6

/* Sides are s = element * FRX__MAX_FACES + face. Each corner node lists
 * the elements that have it, so the sides with a given set of corners
 * are found among the elements of its lowest corner. */
struct faces {
    struct frx__gbuild *b;
    struct frx__corner_elements ce; /* each corner node's elements */
    /* [neles * FRX__MAX_FACES]: 1 + group; SHARED where the side meets
     * another element's; 0 while it is loose */
    int32_t *grp;
};

#define SHARED (-1)

/* The sides whose corners, sorted, are key[0 .. nn): how many, the
 * first three (ascending) in found[]. */
static int sides_with(const struct faces *F, const uint64_t *key, int nn,
                      size_t found[3])
{
    uint64_t ele[3];
    int face[3];
    int n = frx__faces_at(F->b->g, &F->ce, key, nn, 3, ele, face);
    for (int i = 0; i < n && i < 3; i++)
        found[i] = (size_t)ele[i] * FRX__MAX_FACES + (size_t)face[i];
    return n;
}

static const struct frx__msh_ele *file_ele(const struct frx__gbuild *b,
                                           size_t e)
{
    return &b->m->eles[b->src[e]];
}

/* "nodes 5, 6 at (0.5, 1)": a face's corners as the file's tags. */
static const char *face_text(const struct frx__gbuild *b, const uint64_t *c,
                             int nn, char *buf, size_t n)
{
    const struct frx__gmesh *g = b->g;
    double x[3] = {0, 0, 0};
    size_t len = (size_t)snprintf(buf, n, "nodes");
    for (int k = 0; k < nn; k++) {
        for (int d = 0; d < g->ndims; d++)
            x[d] += g->nodes[c[k] * (size_t)g->ndims + (size_t)d] / nn;
        if (len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s %llu",
                                    k ? "," : "",
                                    (unsigned long long)b->gtag[c[k]]);
    }
    if (len < n)
        snprintf(buf + len, n - len, g->ndims == 2 ? " at (%g, %g)"
                                                   : " at (%g, %g, %g)",
                 x[0], x[1], x[2]);
    return buf;
}

/* "element 12 (at mesh.msh:40)". */
static const char *ele_text(const struct frx__gbuild *b, size_t e,
                            char *buf, size_t n)
{
    char at[400];
    const struct frx__msh_ele *fe = file_ele(b, e);
    snprintf(buf, n, "element %llu (at %s)", (unsigned long long)fe->tag,
             frx__msh_place(b->m, fe->where, at, sizeof at));
    return buf;
}

/* ------------------------------------------------ the elements' faces */

/* Two sides of a face walk it in opposite directions (mesh.h): b's
 * corner (r - i) mod n is a's corner i, where a's corner 0 is b's r. */
static int opposite(const uint64_t *a, const uint64_t *c, int n)
{
    int r = 0;
    while (r < n && c[r] != a[0])
        r++;
    int ok = r < n && (n > 2 || r == 1);
    for (int i = 0; ok && i < n; i++)
        ok = c[(r - i + n) % n] == a[i];
    return ok;
}

/* Every side against the others with its corners, once, from the
 * lowest of them: two must walk their face in opposite directions,
 * three are an error. */
static int match_elements(struct faces *F)
{
    const struct frx__gbuild *b = F->b;
    const struct frx__gmesh *g = b->g;
    F->grp = frx__calloc(g->neles * FRX__MAX_FACES + 1, sizeof *F->grp,
                         "mesh faces");
    if (!F->grp)
        return FRX_ENOMEM;
    int rc = frx__corner_elements(g, &F->ce);
    for (size_t e = 0; rc == FRX_OK && e < g->neles; e++)
        for (int f = 0; f < frx__etype(g->etype[e])->nfaces; f++) {
            size_t s = e * FRX__MAX_FACES + (size_t)f;
            if (F->grp[s])
                continue; /* met from the lower side */
            uint64_t c0[FRX__MAX_FNC], c1[FRX__MAX_FNC], key[FRX__MAX_FNC];
            int nn = frx__face_corners(g, e, f, c0);
            memcpy(key, c0, (size_t)nn * sizeof *key);
            frx__sort_nodes(key, nn);
            size_t found[3];
            int n = sides_with(F, key, nn, found);
            if (n < 2)
                continue;
            size_t e1 = found[1] / FRX__MAX_FACES;
            char t0[500], t1[500], t2[500], ft[300];
            if (n > 2)
                return frx__msh_error(b->m, FRX_ECONFIG,
                                      file_ele(b, e)->where,
                                      "a face (%s) is shared by more than "
                                      "two elements: %s, %s and %s",
                                      face_text(b, c0, nn, ft, sizeof ft),
                                      ele_text(b, e, t0, sizeof t0),
                                      ele_text(b, e1, t1, sizeof t1),
                                      ele_text(b, found[2] / FRX__MAX_FACES,
                                               t2, sizeof t2));
            frx__face_corners(g, e1, (int)(found[1] % FRX__MAX_FACES), c1);
            /* the same element twice: Gmsh 2.2 lists an element once
             * for each physical group it is in */
            int twice = file_ele(b, e)->tag == file_ele(b, e1)->tag;
            if (!opposite(c0, c1, nn))
                return frx__msh_error(b->m, FRX_ECONFIG,
                                      file_ele(b, e1)->where,
                                      "%s and %s lie on the same side of "
                                      "their shared face (%s): they overlap"
                                      "%s", ele_text(b, e, t0, sizeof t0),
                                      ele_text(b, e1, t1, sizeof t1),
                                      face_text(b, c0, nn, ft, sizeof ft),
                                      twice ? " (one element listed twice, "
                                      "as Gmsh 2.2 writes an element in "
                                      "two physical groups: keep the "
                                      "fluid in one group, or name it "
                                      "'fluid')" : "");
            F->grp[found[0]] = F->grp[found[1]] = SHARED;
        }
    return rc;
}

/* ----------------------------------------------------- face elements */

static int add_face(struct frx__ggroup *gr, const uint64_t *c, int nn,
                    uint64_t where)
{
    if (gr->nfaces == gr->cap) {
        size_t cap = gr->cap ? 2 * gr->cap : 16;
        struct frx__gface *f = realloc(gr->faces, cap * sizeof *f);
        if (f)
            gr->faces = f;
        uint64_t *w = realloc(gr->fwhere, cap * sizeof *w);
        if (w)
            gr->fwhere = w;
        if (!f || !w)
            return frx_error(FRX_ENOMEM, "out of memory reading boundaries");
        gr->cap = cap;
    }
    struct frx__gface *f = &gr->faces[gr->nfaces];
    memset(f, 0, sizeof *f);
    f->nn = nn;
    memcpy(f->n, c, (size_t)nn * sizeof *c);
    gr->fwhere[gr->nfaces++] = where;
    return FRX_OK;
}

/* One face element given to group gi. */
static int place_face(struct faces *F, const struct frx__msh_ele *fe,
                      size_t gi)
{
    const struct frx__gbuild *b = F->b;
    const struct frx__gmsh_type *t = frx__gmsh_type(fe->type);
    struct frx__ggroup *gr = &b->groups[gi];
    uint64_t c[FRX__MAX_FNC];
    char tn[80], t0[500], t1[500], ft[300];
    int nn = t->ncorners;
    frx__gmsh_type_name(t, tn, sizeof tn);
    for (int k = 0; k < nn; k++) {
        uint64_t tag = b->m->enodes[fe->off + (size_t)k];
        c[k] = frx__gbuild_node(b, tag);
        if (c[k] == FRX__NONE - 1)
            return frx__msh_error(b->m, FRX_ECONFIG, fe->where, "element "
                                  "%llu of '%s' names node %llu, which "
                                  "$Nodes does not define",
                                  (unsigned long long)fe->tag, gr->name,
                                  (unsigned long long)tag);
        if (c[k] == FRX__NONE || nn > FRX__MAX_FNC)
            return frx__msh_error(b->m, FRX_ECONFIG, fe->where, "element "
                                  "%llu of '%s' (%s) is no face of any "
                                  "element of the mesh: a boundary's faces "
                                  "must be faces of its %d-D elements",
                                  (unsigned long long)fe->tag, gr->name, tn,
                                  b->ndims);
    }
    uint64_t key[FRX__MAX_FNC];
    size_t p[3];
    memcpy(key, c, (size_t)nn * sizeof *key);
    frx__sort_nodes(key, nn);
    int n = sides_with(F, key, nn, p);
    if (!n)
        return frx__msh_error(b->m, FRX_ECONFIG, fe->where, "element %llu "
                              "of '%s' (%s, %s) is no face of any element of "
                              "the mesh: a boundary's faces must be faces of "
                              "its %d-D elements", (unsigned long long)fe->tag,
                              gr->name, tn, face_text(b, c, nn, ft, sizeof ft),
                              b->ndims);
    if (n > 1)
        return frx__msh_error(b->m, FRX_ECONFIG, fe->where, "element %llu "
                              "of '%s' (%s) lies between two elements, %s "
                              "and %s, not on the mesh's boundary",
                              (unsigned long long)fe->tag, gr->name,
                              face_text(b, c, nn, ft, sizeof ft),
                              ele_text(b, p[0] / FRX__MAX_FACES, t0,
                                       sizeof t0),
                              ele_text(b, p[1] / FRX__MAX_FACES, t1,
                                       sizeof t1));
    int32_t *grp = &F->grp[p[0]];
    if (*grp)
        return frx__msh_error(b->m, FRX_ECONFIG, fe->where, "element %llu "
                              "(%s) puts a face in '%s' that is in '%s' "
                              "already: a face belongs to one boundary or "
                              "periodic side", (unsigned long long)fe->tag,
                              face_text(b, c, nn, ft, sizeof ft), gr->name,
                              b->groups[*grp - 1].name);
    *grp = (int32_t)gi + 1;
    return add_face(gr, c, nn, fe->where);
}

static int place_faces(struct faces *F)
{
    const struct frx__gbuild *b = F->b;
    const struct frx__msh *m = b->m;
    for (size_t i = 0; i < m->neles; i++) {
        const struct frx__msh_ele *fe = &m->eles[i];
        if (frx__gmsh_type(fe->type)->dim != b->ndims - 1 || fe->ent < 0)
            continue;
        const struct frx__msh_entity *E = &m->ents[fe->ent];
        for (size_t k = 0; k < E->nphys; k++) {
            size_t gi = 0;
            while (gi < b->ngroups && b->groups[gi].tag != E->phys[k])
                gi++;
            int rc = gi < b->ngroups ? place_face(F, fe, gi) : FRX_OK;
            if (rc)
                return rc;
        }
    }
    return FRX_OK;
}

/* Side s, a quadrilateral that meets no other element, if three of
 * its corners are a triangle's (a hexahedron beside tetrahedra): an
 * error saying that faces meet whole. FRX_OK otherwise. */
static int quad_meets_triangle(const struct faces *F, size_t s)
{
    const struct frx__gbuild *b = F->b;
    size_t e = s / FRX__MAX_FACES, p[3];
    int f = (int)(s % FRX__MAX_FACES);
    uint64_t c[FRX__MAX_FNC], tri[3];
    if (frx__face_corners(b->g, e, f, c) != 4)
        return FRX_OK;
    for (int skip = 0; skip < 4; skip++) {
        for (int k = 0, i = 0; k < 4; k++)
            if (k != skip)
                tri[i++] = c[k];
        frx__sort_nodes(tri, 3);
        if (!sides_with(F, tri, 3, p))
            continue;
        char ft[300], t1[500];
        return frx__msh_error(b->m, FRX_ECONFIG, file_ele(b, e)->where,
                              "face %d of element %llu, a quadrilateral "
                              "(%s), meets a triangle face of %s: a "
                              "quadrilateral face meets triangles, and frx "
                              "joins faces whole (a quadrilateral to a "
                              "quadrilateral, a triangle to a triangle): "
                              "put pyramids (or prisms) between them", f,
                              (unsigned long long)file_ele(b, e)->tag,
                              face_text(b, c, 4, ft, sizeof ft),
                              ele_text(b, p[0] / FRX__MAX_FACES, t1,
                                       sizeof t1));
    }
    return FRX_OK;
}

/* Every face of one element only is in a group. */
static int check_loose(const struct faces *F)
{
    const struct frx__gbuild *b = F->b;
    const struct frx__gmesh *g = b->g;
    size_t nloose = 0, first = 0;
    for (size_t e = 0; e < g->neles; e++)
        for (int f = 0; f < frx__etype(g->etype[e])->nfaces; f++) {
            size_t s = e * FRX__MAX_FACES + (size_t)f;
            if (F->grp[s])
                continue;
            if (nloose++ == 0)
                first = s;
            int rc = quad_meets_triangle(F, s);
            if (rc)
                return rc;
        }
    if (!nloose)
        return FRX_OK;
    size_t e = first / FRX__MAX_FACES;
    int f = (int)(first % FRX__MAX_FACES);
    uint64_t c[FRX__MAX_FNC];
    char ft[300];
    int nn = frx__face_corners(g, e, f, c);
    return frx__msh_error(b->m, FRX_ECONFIG, file_ele(b, e)->where,
                          "face %d of element %llu (%s) meets no other "
                          "element and is in no physical group (%zu such "
                          "face%s): put the mesh's boundary in named "
                          "physical groups (a boundary name, or "
                          "periodic_<id>_l / periodic_<id>_r)", f,
                          (unsigned long long)file_ele(b, e)->tag,
                          face_text(b, c, nn, ft, sizeof ft), nloose,
                          nloose == 1 ? "" : "s in all");
}

/* ----------------------------------------------------------- periodic */

struct pface {
    double c[3];   /* centre */
    double h;      /* smallest distance between two corners */
};

static void pface_of(const struct frx__gmesh *g, const struct frx__gface *f,
                     struct pface *p)
{
    int d = g->ndims;
    memset(p, 0, sizeof *p);
    p->h = INFINITY;
    for (int i = 0; i < f->nn; i++) {
        const double *x = g->nodes + f->n[i] * (size_t)d;
        for (int k = 0; k < d; k++)
            p->c[k] += x[k] / f->nn;
        for (int j = i + 1; j < f->nn; j++) {
            const double *y = g->nodes + f->n[j] * (size_t)d;
            double s = 0;
            for (int k = 0; k < d; k++)
                s += (x[k] - y[k]) * (x[k] - y[k]);
            p->h = fmin(p->h, sqrt(s));
        }
    }
}

/* Side r's faces sorted by their centre along one axis. */
struct along {
    double v;
    size_t i;
};

static int cmp_along(const void *a, const void *b)
{
    const struct along *x = a, *y = b;
    return (x->v > y->v) - (x->v < y->v);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The translation from side l's face centres to side r's (see the
 * file's head); tmp holds 3 n doubles. */
static void find_shift(const struct pface *pl, const struct pface *pr,
                       size_t n, int d, double *tmp, double *shift)
{
    double *a = tmp, *b = tmp + n, *diff = tmp + 2 * n;
    for (int k = 0; k < d; k++) {
        for (size_t i = 0; i < n; i++) {
            a[i] = pl[i].c[k];
            b[i] = pr[i].c[k];
        }
        qsort(a, n, sizeof *a, cmp_double);
        qsort(b, n, sizeof *b, cmp_double);
        for (size_t i = 0; i < n; i++)
            diff[i] = b[i] - a[i];
        qsort(diff, n, sizeof *diff, cmp_double);
        shift[k] = diff[(n - 1) / 2];
    }
    double len = 0;
    for (int k = 0; k < d; k++)
        len = fmax(len, fabs(shift[k]));
    for (int k = 0; k < d; k++)
        if (fabs(shift[k]) < 1e-10 * len)
            shift[k] = 0;
}

/* Each corner of a, moved by shift, within tol of a corner of r. */
static int corners_meet(const struct frx__gmesh *g,
                        const struct frx__gface *a,
                        const struct frx__gface *r, const double *shift,
                        double tol)
{
    int d = g->ndims;
    if (a->nn != r->nn)
        return 0;
    for (int i = 0; i < a->nn; i++) {
        const double *x = g->nodes + a->n[i] * (size_t)d;
        int hit = 0;
        for (int j = 0; j < r->nn && !hit; j++) {
            const double *y = g->nodes + r->n[j] * (size_t)d;
            double dist = 0;
            for (int k = 0; k < d; k++)
                dist = fmax(dist, fabs(x[k] + shift[k] - y[k]));
            hit = dist <= tol;
        }
        if (!hit)
            return 0;
    }
    return 1;
}

static int match_pair(const struct frx__gbuild *b, const struct frx__ggroup *L,
                      const struct frx__ggroup *R, double *shift)
{
    const struct frx__gmesh *g = b->g;
    int d = g->ndims, rc = FRX_OK;
    size_t n = L->nfaces;
    struct pface *pl = frx__calloc(n, sizeof *pl, "periodic faces");
    struct pface *pr = frx__calloc(n, sizeof *pr, "periodic faces");
    struct along *order = frx__calloc(n, sizeof *order, "periodic faces");
    unsigned char *used = frx__calloc(n, 1, "periodic faces");
    double *tmp = frx__calloc(3 * n, sizeof *tmp, "periodic faces");
    if (!pl || !pr || !order || !used || !tmp)
        rc = FRX_ENOMEM;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++)
        hi[k] = -INFINITY;
    for (size_t i = 0; rc == FRX_OK && i < n; i++) {
        pface_of(g, &L->faces[i], &pl[i]);
        pface_of(g, &R->faces[i], &pr[i]);
        for (int k = 0; k < d; k++) {
            lo[k] = fmin(lo[k], pr[i].c[k]);
            hi[k] = fmax(hi[k], pr[i].c[k]);
        }
    }
    if (rc == FRX_OK)
        find_shift(pl, pr, n, d, tmp, shift);
    int a = 0; /* the axis along which side r spreads most */
    for (int k = 1; k < d; k++)
        if (hi[k] - lo[k] > hi[a] - lo[a])
            a = k;
    for (size_t i = 0; rc == FRX_OK && i < n; i++)
        order[i] = (struct along){pr[i].c[a], i};
    if (rc == FRX_OK)
        qsort(order, n, sizeof *order, cmp_along);
    for (size_t i = 0; rc == FRX_OK && i < n; i++) {
        double t[3], tol = PERIODIC_TOL * pl[i].h;
        for (int k = 0; k < d; k++)
            t[k] = pl[i].c[k] + shift[k];
        size_t lo_i = 0, hi_i = n; /* first with c[a] >= t[a] - tol */
        while (lo_i < hi_i) {
            size_t mid = lo_i + (hi_i - lo_i) / 2;
            if (order[mid].v < t[a] - tol)
                lo_i = mid + 1;
            else
                hi_i = mid;
        }
        size_t hit = n;
        for (size_t j = lo_i; j < n && order[j].v <= t[a] + tol && hit == n;
             j++)
            if (!used[order[j].i] &&
                corners_meet(g, &L->faces[i], &R->faces[order[j].i], shift,
                             tol))
                hit = order[j].i;
        if (hit < n) {
            used[hit] = 1;
            continue;
        }
        char ft[300], sh[100];
        snprintf(sh, sizeof sh, d == 2 ? "(%g, %g)" : "(%g, %g, %g)",
                 shift[0], shift[1], shift[2]);
        const struct frx__gface *f = &L->faces[i];
        rc = frx__msh_error(b->m, FRX_ECONFIG, L->fwhere[i], "the face "
                            "element here (%s) of '%s' has no partner in "
                            "'%s' when moved by %s (the translation between the "
                            "two sides' faces): the sides of a periodic pair "
                            "must match face for face (within %g of a "
                            "face's size)",
                            face_text(b, f->n, f->nn, ft, sizeof ft),
                            L->name, R->name, sh, PERIODIC_TOL);
    }
    free(pl);
    free(pr);
    free(order);
    free(used);
    free(tmp);
    return rc;
}

/* The two sides of group gi's periodic pair, or an error. */
static int pair_sides(const struct frx__gbuild *b, size_t gi,
                      struct frx__ggroup **side)
{
    const struct frx__ggroup *gr = &b->groups[gi];
    side[0] = side[1] = NULL;
    for (size_t j = 0; j < b->ngroups; j++) {
        struct frx__ggroup *o = &b->groups[j];
        if (!o->pair || strcmp(o->pair, gr->pair))
            continue;
        if (side[o->side]) {
            char at[400];
            return frx__msh_error(b->m, FRX_ECONFIG, o->where, "'%s' is a "
                                  "second %s side of periodic pair "
                                  "'periodic_%s' (the first: '%s' at %s)",
                                  o->name, o->side ? "r" : "l", o->pair,
                                  side[o->side]->name,
                                  frx__msh_place(b->m, side[o->side]->where,
                                                 at, sizeof at));
        }
        side[o->side] = o;
    }
    const struct frx__ggroup *one = side[0] ? side[0] : side[1];
    if (!side[0] || !side[1])
        return frx__msh_error(b->m, FRX_ECONFIG, one->where, "'%s' has no "
                              "partner: periodic pair 'periodic_%s' needs "
                              "both periodic_%s_l and periodic_%s_r",
                              one->name, one->pair, one->pair, one->pair);
    if (side[0]->nfaces != side[1]->nfaces || !side[0]->nfaces)
        return frx__msh_error(b->m, FRX_ECONFIG, side[0]->where, "periodic "
                              "pair 'periodic_%s': '%s' has %zu face(s) and "
                              "'%s' %zu: the two sides must match face for "
                              "face", one->pair, side[0]->name,
                              side[0]->nfaces, side[1]->name,
                              side[1]->nfaces);
    return FRX_OK;
}

/* ------------------------------------------------------------ results */

/* Boundaries in group order; each periodic pair at its l side's place.
 * The groups' faces move to the global mesh. */
static int fill_mesh(struct frx__gbuild *b)
{
    struct frx__gmesh *g = b->g;
    g->bcs = frx__calloc(b->ngroups, sizeof *g->bcs, "mesh boundaries");
    g->pers = frx__calloc(b->ngroups, sizeof *g->pers, "periodic pairs");
    if (!g->bcs || !g->pers)
        return b->ngroups ? FRX_ENOMEM : FRX_OK;
    for (size_t i = 0; i < b->ngroups; i++) {
        struct frx__ggroup *gr = &b->groups[i], *side[2];
        if (!gr->pair) {
            struct frx__gbc *bc = &g->bcs[g->nbcs++];
            bc->name = gr->name;
            bc->faces = gr->faces;
            bc->nfaces = gr->nfaces;
            gr->name = NULL;
            gr->faces = NULL;
            continue;
        }
        int rc = pair_sides(b, i, side);
        if (rc)
            return rc;
        if (side[0] != gr)
            continue;
        struct frx__gper *p = &g->pers[g->npers++];
        char name[80];
        snprintf(name, sizeof name, "periodic_%s", gr->pair);
        if (!(p->name = frx__strdup(name)))
            return frx_error(FRX_ENOMEM, "out of memory naming a periodic "
                             "pair");
        if ((rc = match_pair(b, side[0], side[1], p->shift)))
            return rc;
        for (int s = 0; s < 2; s++) {
            p->nfaces[s] = side[s]->nfaces;
            p->faces[s] = side[s]->faces;
            side[s]->faces = NULL;
        }
    }
    return FRX_OK;
}

int frx__gmsh_faces(struct frx__gbuild *b)
{
    struct faces F = {.b = b};
    int rc = match_elements(&F);
    if (rc == FRX_OK)
        rc = place_faces(&F);
    if (rc == FRX_OK)
        rc = check_loose(&F);
    frx__corner_elements_free(&F.ce);
    free(F.grp);
    if (rc == FRX_OK)
        rc = fill_mesh(b);
    return rc;
}
