/* SPDX-License-Identifier: BSD-3-Clause */
/* The Gmsh source: mesh: {type: gmsh, file: PATH}, PATH relative to the
 * case file's directory. It reads the file (mesh_gmsh_read.c) and fills
 * the global mesh, following PyFR's conventions for physical names:
 *
 * - the region named "fluid" (any case) holds the elements; without
 *   one, every element of the file's highest dimension (2 or 3) does,
 *   unless such elements carry other names (then the fluid is unclear);
 * - "periodic_<id>_l" and "periodic_<id>_r" (any case, '_', '-' or ' '
 *   between the parts) are the two sides of periodic pair
 *   "periodic_<id>"; the translation between them is found from their
 *   faces (mesh_gmsh_faces.c);
 * - every other group of faces (elements one dimension lower) is a
 *   boundary of that name (an unnamed group: its number).
 *
 * Nodes no element of the mesh uses are dropped; the rest keep the
 * file's order. A 2-D mesh must lie in a plane z = constant. Elements
 * are triangles and quadrilaterals (2-D), tetrahedra, hexahedra,
 * prisms and pyramids (3-D), of order 1 or 2, their points in Gmsh's
 * order. 8-node quadrilaterals and 20-node hexahedra are completed to 9
 * and 27 points (exactly: mesh_gmsh_shape.c); the 15-node prism and the
 * 13-node pyramid are refused (their completion to 18 and 14 points is
 * not written). Every check names the place
 * in the file (line, or byte offset in a binary file). */
#include "mesh/gmsh-impl.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* METIS numbers graph edges with 32-bit integers (see mesh_box.c). */
#define MAX_ELES (1L << 28)

struct build {
    struct frx__gbuild b;
    struct frx__gmsh_about *about;
    int64_t fluid;          /* the fluid group's tag, or 0 */
    const struct frx__msh_name *fluid_name;
};

/* A problem with the file, at its place. */
#define ecode(m, where, ...) frx__msh_error(m, FRX_ECONFIG, where, __VA_ARGS__)

/* ------------------------------------------------------ physical names */

/* "periodic_0_l": 1 with the pair's id and side; 0 for a name that does
 * not start with "periodic"; -1 for one that does but is malformed. */
static int periodic_name(const char *s, char *id, size_t n, int *side)
{
    static const char seps[] = "_- ";
    if (strncasecmp(s, "periodic", 8))
        return 0;
    s += 8;
    if (!*s || !strchr(seps, *s))
        return -1;
    const char *a = ++s;
    while ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
           (*s >= 'A' && *s <= 'Z'))
        s++;
    size_t len = (size_t)(s - a);
    if (!len || len >= n || !*s || !strchr(seps, *s) ||
        (s[1] != 'l' && s[1] != 'L' && s[1] != 'r' && s[1] != 'R') || s[2])
        return -1;
    for (size_t i = 0; i < len; i++)
        id[i] = (char)(a[i] >= 'A' && a[i] <= 'Z' ? a[i] - 'A' + 'a' : a[i]);
    id[len] = 0;
    *side = s[1] == 'r' || s[1] == 'R';
    return 1;
}

/* The fluid region's name, and names used twice. */
static int scan_names(struct build *B)
{
    const struct frx__msh *m = B->b.m;
    char at[400];
    for (size_t i = 0; i < m->nnames; i++) {
        const struct frx__msh_name *p = &m->names[i];
        for (size_t j = 0; j < i; j++) {
            const struct frx__msh_name *q = &m->names[j];
            if (q->dim == p->dim && q->tag == p->tag)
                return ecode(m, p->where, "physical group %lld of dimension "
                             "%d is named a second time ('%s'; first '%s' "
                             "at %s)", (long long)p->tag, p->dim, p->name,
                             q->name, frx__msh_place(m, q->where, at,
                                                     sizeof at));
            if (q->dim == p->dim && !strcasecmp(q->name, p->name))
                return ecode(m, p->where, "two physical groups of dimension "
                             "%d are named '%s' (the other at %s): frx "
                             "matches names without regard to case", p->dim,
                             p->name, frx__msh_place(m, q->where, at,
                                                     sizeof at));
        }
        if (strcasecmp(p->name, "fluid"))
            continue;
        if (B->fluid_name)
            return ecode(m, p->where, "a second region named '%s' (the "
                         "first at %s): name one region 'fluid'", p->name,
                         frx__msh_place(m, B->fluid_name->where, at,
                                        sizeof at));
        B->fluid_name = p;
        B->fluid = p->tag;
    }
    return FRX_OK;
}

static int in_group(const struct frx__msh *m, const struct frx__msh_ele *e,
                    int64_t tag)
{
    if (e->ent < 0)
        return 0;
    const struct frx__msh_entity *E = &m->ents[e->ent];
    for (size_t i = 0; i < E->nphys; i++)
        if (E->phys[i] == tag)
            return 1;
    return 0;
}

static int edim(const struct frx__msh_ele *e)
{
    return frx__gmsh_type(e->type)->dim;
}

static const struct frx__msh_name *name_of(const struct frx__msh *m,
                                           int dim, int64_t tag)
{
    for (size_t i = 0; i < m->nnames; i++)
        if (m->names[i].dim == dim && m->names[i].tag == tag)
            return &m->names[i];
    return NULL;
}

/* The mesh's dimension: the fluid region's, else the highest. */
static int find_ndims(struct build *B)
{
    const struct frx__msh *m = B->b.m;
    if (B->fluid_name) {
        B->b.ndims = B->fluid_name->dim;
        if (B->b.ndims < 2)
            return ecode(m, B->fluid_name->where, "the region '%s' is of "
                         "dimension %d: it must hold the 2-D or 3-D elements "
                         "frx solves on", B->fluid_name->name, B->b.ndims);
        return FRX_OK;
    }
    for (size_t i = 0; i < m->neles; i++)
        B->b.ndims = edim(&m->eles[i]) > B->b.ndims ? edim(&m->eles[i])
                                                    : B->b.ndims;
    if (B->b.ndims < 2)
        return ecode(m, FRX__NOWHERE, "the mesh has no elements of dimension "
                     "2 or 3 (only %s): frx solves on surfaces (2-D) or "
                     "volumes (3-D)", m->neles ? "lines and points"
                                               : "no elements at all");
    return FRX_OK;
}

/* The file's elements that make the mesh. */
static int select_elements(struct build *B)
{
    const struct frx__msh *m = B->b.m;
    int d = B->b.ndims;
    B->b.sel = frx__calloc(m->neles, sizeof *B->b.sel, "Gmsh elements");
    if (!B->b.sel && m->neles)
        return FRX_ENOMEM;
    const struct frx__msh_name *other = NULL;
    size_t nd = 0;
    for (size_t i = 0; i < m->neles; i++) {
        const struct frx__msh_ele *e = &m->eles[i];
        if (edim(e) != d)
            continue;
        nd++;
        if (B->fluid_name ? in_group(m, e, B->fluid) : 1)
            B->b.sel[B->b.nsel++] = i;
        for (size_t k = 0; !B->fluid_name && !other && e->ent >= 0 &&
                           k < m->ents[e->ent].nphys; k++)
            other = name_of(m, d, m->ents[e->ent].phys[k]);
    }
    if (other)
        return ecode(m, other->where, "the %d-D elements are in the region "
                     "'%s', and no region is named 'fluid': name the region "
                     "frx solves on 'fluid' (as PyFR does)", d, other->name);
    if (B->b.nsel == 0)
        return ecode(m, B->fluid_name->where, "the region '%s' has no %d-D "
                     "elements: the mesh has no elements to solve on",
                     B->fluid_name->name, d);
    if (B->b.nsel > (size_t)MAX_ELES)
        return ecode(m, FRX__NOWHERE, "%zu elements, more than frx handles "
                     "(%ld: METIS's 32-bit indices)", B->b.nsel, MAX_ELES);
    if (B->about)
        B->about->nleft = nd - B->b.nsel;
    return FRX_OK;
}

/* The boundary and periodic groups: named groups of faces first, in the
 * order of $PhysicalNames, then unnamed ones as elements name them. */
static int add_group(struct build *B, int64_t tag,
                     const struct frx__msh_name *p)
{
    const struct frx__msh *m = B->b.m;
    struct frx__ggroup *gr = realloc(B->b.groups, (B->b.ngroups + 1) *
                                     sizeof *gr);
    if (!gr)
        return frx_error(FRX_ENOMEM, "out of memory reading %s", m->path);
    B->b.groups = gr;
    gr = &gr[B->b.ngroups];
    memset(gr, 0, sizeof *gr);
    gr->tag = tag;
    gr->where = p ? p->where : FRX__NOWHERE;
    char id[64], num[32];
    snprintf(num, sizeof num, "%lld", (long long)tag);
    int per = p ? periodic_name(p->name, id, sizeof id, &gr->side) : 0;
    if (per < 0)
        return ecode(m, p->where, "'%s' starts with 'periodic' but is not "
                     "the name of a periodic side: write periodic_<id>_l and "
                     "periodic_<id>_r (<id> letters or digits), as PyFR does",
                     p->name);
    if (!(gr->name = frx__strdup(p ? p->name : num)) ||
        (per && !(gr->pair = frx__strdup(id))))
        return frx_error(FRX_ENOMEM, "out of memory reading %s", m->path);
    B->b.ngroups++;
    return FRX_OK;
}

static int make_groups(struct build *B)
{
    const struct frx__msh *m = B->b.m;
    int fd = B->b.ndims - 1, rc = FRX_OK;
    for (size_t i = 0; rc == FRX_OK && i < m->nnames; i++)
        if (m->names[i].dim == fd)
            rc = add_group(B, m->names[i].tag, &m->names[i]);
    for (size_t i = 0; rc == FRX_OK && i < m->neles; i++) {
        const struct frx__msh_ele *e = &m->eles[i];
        if (edim(e) != fd || e->ent < 0)
            continue;
        const struct frx__msh_entity *E = &m->ents[e->ent];
        for (size_t k = 0; rc == FRX_OK && k < E->nphys; k++) {
            size_t g = 0;
            while (g < B->b.ngroups && B->b.groups[g].tag != E->phys[k])
                g++;
            if (g == B->b.ngroups)
                rc = add_group(B, E->phys[k], NULL);
        }
    }
    return rc;
}

/* The frx type of a Gmsh type, or an error naming the element. */
static int frx_type(const struct frx__msh *m, const struct frx__msh_ele *e,
                    int *etype, int *order)
{
    static const int map[][3] = {
        {2, FRX_ETYPE_TRI, 1},   {9, FRX_ETYPE_TRI, 2},
        {3, FRX_ETYPE_QUAD, 1},  {10, FRX_ETYPE_QUAD, 2},
        {16, FRX_ETYPE_QUAD, 2}, {4, FRX_ETYPE_TET, 1},
        {11, FRX_ETYPE_TET, 2},  {5, FRX_ETYPE_HEX, 1},
        {12, FRX_ETYPE_HEX, 2},  {17, FRX_ETYPE_HEX, 2},
        {6, FRX_ETYPE_PRI, 1},   {13, FRX_ETYPE_PRI, 2},
        {7, FRX_ETYPE_PYR, 1},   {14, FRX_ETYPE_PYR, 2}};
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (map[i][0] == e->type) {
            *etype = map[i][1];
            *order = map[i][2];
            return FRX_OK;
        }
    const struct frx__gmsh_type *t = frx__gmsh_type(e->type);
    char tn[80];
    frx__gmsh_type_name(t, tn, sizeof tn);
    if (strcmp(t->shape, "triangle") && strcmp(t->shape, "quadrilateral") &&
        strcmp(t->shape, "tetrahedron") && strcmp(t->shape, "hexahedron") &&
        strcmp(t->shape, "prism") && strcmp(t->shape, "pyramid"))
        return frx__msh_error(m, FRX_ENOTSUP, e->where, "element %llu is %s: "
                              "frx meshes are of triangles and "
                              "quadrilaterals (2-D) or tetrahedra, "
                              "hexahedra, prisms and pyramids (3-D)",
                              (unsigned long long)e->tag, tn);
    if (t->num == 18) /* the serendipity prism */
        return frx__msh_error(m, FRX_ENOTSUP, e->where, "element %llu is %s: "
                              "frx takes prisms of 6 and 18 nodes (Gmsh "
                              "types 6 and 13), not 15; mesh with "
                              "Mesh.SecondOrderIncomplete = 0",
                              (unsigned long long)e->tag, tn);
    if (t->num == 19) /* the serendipity pyramid */
        return frx__msh_error(m, FRX_ENOTSUP, e->where, "element %llu is %s: "
                              "frx takes pyramids of 5 and 14 nodes (Gmsh "
                              "types 7 and 14), not 13; mesh with "
                              "Mesh.SecondOrderIncomplete = 0",
                              (unsigned long long)e->tag, tn);
    return frx__msh_error(m, FRX_ENOTSUP, e->where, "element %llu is %s, of "
                          "shape order %d: frx holds shape order 1 and 2; "
                          "mesh with Mesh.ElementOrder = 2 at most",
                          (unsigned long long)e->tag, tn, t->order);
}

/* ---------------------------------------------------------- elements */

static int check_jacobian(const struct build *B, size_t e, const double *x)
{
    const struct frx__msh *m = B->b.m;
    const struct frx__gmesh *g = B->b.g;
    const struct frx__msh_ele *fe = &m->eles[B->b.src[e]];
    int at, d = B->b.ndims;
    double j = frx__gmsh_min_jacobian(g->etype[e], g->order[e], x, d, &at);
    if (j > 0)
        return FRX_OK;
    char tn[80], pt[100], nd[40] = "the completed point";
    uint64_t node = g->enodes[g->eoff[e] + (size_t)at];
    const double *p = x + at * d;
    if (d == 2)
        snprintf(pt, sizeof pt, "(%g, %g)", p[0], p[1]);
    else
        snprintf(pt, sizeof pt, "(%g, %g, %g)", p[0], p[1], p[2]);
    if (B->b.gtag[node])
        snprintf(nd, sizeof nd, "node %llu",
                 (unsigned long long)B->b.gtag[node]);
    return ecode(m, fe->where, "element %llu (%s) is inverted: its Jacobian "
                 "is %s (%g) at its point %d, %s at %s: %s",
                 (unsigned long long)fe->tag,
                 frx__gmsh_type_name(frx__gmsh_type(fe->type), tn,
                                     sizeof tn),
                 j < 0 ? "negative" : "zero", j, at, nd, pt,
                 d == 2 ? "a 2-D element's corners must turn "
                          "counter-clockwise (reverse the surface in Gmsh, "
                          "or its curve loop)"
                 : g->etype[e] == FRX_ETYPE_TET
                        ? "a tetrahedron's corners 0-2 must turn "
                          "counter-clockwise seen from corner 3"
                 : g->etype[e] == FRX_ETYPE_PRI
                        ? "a prism's corners 0-2 must turn "
                          "counter-clockwise seen from corners 3-5"
                 : g->etype[e] == FRX_ETYPE_PYR
                        ? "a pyramid's base corners 0-3 must turn "
                          "counter-clockwise seen from its apex 4"
                        : "a hexahedron's corners 0-3 must turn "
                          "counter-clockwise seen from corners 4-7");
}

static int make_elements(struct build *B)
{
    const struct frx__msh *m = B->b.m;
    struct frx__gmesh *g = B->b.g;
    int d = B->b.ndims;
    size_t total = 0, made = g->nnodes - B->b.nextra;
    g->neles = B->b.nsel;
    g->etype = frx__calloc(g->neles, sizeof *g->etype, "mesh elements");
    g->order = frx__calloc(g->neles, sizeof *g->order, "mesh elements");
    g->eoff = frx__calloc(g->neles + 1, sizeof *g->eoff, "mesh elements");
    B->b.src = frx__calloc(g->neles, sizeof *B->b.src, "mesh elements");
    if (!g->etype || !g->order || !g->eoff || !B->b.src)
        return FRX_ENOMEM;
    for (size_t e = 0; e < g->neles; e++) {
        B->b.src[e] = B->b.sel[e];
        frx_type(m, &m->eles[B->b.sel[e]], &g->etype[e], &g->order[e]);
        g->eoff[e] = total;
        total += frx__etype(g->etype[e])->nshape[g->order[e]];
    }
    g->eoff[g->neles] = total;
    g->enodes = frx__calloc(total, sizeof *g->enodes, "mesh elements");
    if (!g->enodes)
        return FRX_ENOMEM;
    for (size_t e = 0; e < g->neles; e++) {
        const struct frx__msh_ele *fe = &m->eles[B->b.sel[e]];
        int given = frx__gmsh_type(fe->type)->nnodes;
        size_t ns = g->eoff[e + 1] - g->eoff[e];
        uint64_t *en = g->enodes + g->eoff[e];
        double x[27 * 3];
        for (int k = 0; k < given; k++) {
            en[k] = frx__gbuild_node(&B->b, m->enodes[fe->off + (size_t)k]);
            memcpy(x + k * d, g->nodes + en[k] * (size_t)d,
                   (size_t)d * sizeof *x);
        }
        if ((size_t)given < ns) {
            frx__gmsh_complete(g->etype[e], x, d);
            for (size_t k = (size_t)given; k < ns; k++, made++) {
                en[k] = made;
                memcpy(g->nodes + made * (size_t)d, x + k * (size_t)d,
                       (size_t)d * sizeof *x);
            }
        }
        int rc = check_jacobian(B, e, x);
        if (rc)
            return rc;
    }
    return FRX_OK;
}

/* Types frx holds, elements counted once (2.2 files list an element
 * once per group it is in, but the fluid is one group). */
static int check_types(struct build *B)
{
    const struct frx__msh *m = B->b.m;
    for (size_t s = 0; s < B->b.nsel; s++) {
        const struct frx__msh_ele *e = &m->eles[B->b.sel[s]];
        int etype, order, rc = frx_type(m, e, &etype, &order);
        if (rc)
            return rc;
        const struct frx__gmsh_type *t = frx__gmsh_type(e->type);
        if (t->serendipity) {
            B->b.nextra += t->nnodes == 8 ? 1 : 7;
            if (B->about)
                B->about->nconverted++;
        }
    }
    return FRX_OK;
}

/* -------------------------------------------------------------- entry */

static void build_free(struct build *B)
{
    free(B->b.sel);
    free(B->b.fnode);
    free(B->b.src);
    free(B->b.gtag);
    free(B->b.map);
    for (size_t i = 0; i < B->b.ngroups; i++) {
        free(B->b.groups[i].name);
        free(B->b.groups[i].pair);
        free(B->b.groups[i].faces);
        free(B->b.groups[i].fwhere);
    }
    free(B->b.groups);
}

int frx__mesh_gmsh_file(const char *path, struct frx__gmesh *g,
                        struct frx__gmsh_about *about)
{
    struct frx__msh m;
    memset(g, 0, sizeof *g);
    if (about)
        memset(about, 0, sizeof *about);
    int rc = frx__msh_read(path, &m);
    if (rc)
        return rc;
    struct build B = {.b = {.m = &m, .g = g}, .about = about};
    snprintf(g->source, sizeof g->source, "%s", path);
    size_t nused = 0;
    if (rc == FRX_OK)
        rc = scan_names(&B);
    if (rc == FRX_OK)
        rc = find_ndims(&B);
    if (rc == FRX_OK)
        rc = select_elements(&B);
    if (rc == FRX_OK)
        rc = check_types(&B);
    if (rc == FRX_OK)
        rc = frx__gbuild_map_nodes(&B.b, &nused);
    if (rc == FRX_OK) {
        g->ndims = B.b.ndims;
        rc = frx__gbuild_make_nodes(&B.b, nused);
    }
    free(m.x); /* copied into g->nodes: room for the faces */
    m.x = NULL;
    if (rc == FRX_OK)
        rc = make_elements(&B);
    if (rc == FRX_OK)
        rc = make_groups(&B);
    if (rc == FRX_OK)
        rc = frx__gmsh_faces(&B.b);
    if (rc == FRX_OK && about) {
        snprintf(about->format, sizeof about->format, "Gmsh %s %s",
                 m.version, m.binary ? "binary" : "ASCII");
        snprintf(about->region, sizeof about->region, "%s",
                 B.fluid_name ? B.fluid_name->name : "");
    }
    build_free(&B);
    frx__msh_free(&m);
    if (rc)
        frx__gmesh_free(g);
    return rc;
}

/* The mesh's type as written ("gmsh"), for messages. */
static const char *type_of(const frx_cfgnode *mesh)
{
    const char *s = frx_cfg_scalar(frx_cfg_get(mesh, "type"));
    return s ? s : "gmsh";
}

int frx__mesh_file_path(const frx_cfgnode *mesh, const char *what,
                        char *path, size_t n, const frx_cfgnode **at,
                        char *msg, size_t msgn)
{
    char where[300];
    const char *file;
    *at = frx_cfg_get(mesh, "file");
    if (!*at) {
        const frx_cfgnode *key = mesh->parent && mesh->parent->type ==
                                 FRX_CFG_MAP ? mesh->parent->keys[mesh->index]
                                             : mesh;
        snprintf(msg, msgn, "%s: a mesh of type %s needs 'file', %s "
                 "(relative to the case file's directory)",
                 frx__cfg_where(key, where, sizeof where), type_of(mesh),
                 what);
        return FRX_ECONFIG;
    }
    if (frx__cfg_to_string(*at, &file, msg, msgn))
        return FRX_ECONFIG;
    const char *cfile = mesh->owner ? frx_config_file(mesh->owner) : NULL;
    if (file[0] == '/' || !cfile || !strchr(cfile, '/')) {
        snprintf(path, n, "%s", file);
        return FRX_OK;
    }
    char *copy = frx__strdup(cfile);
    if (!copy) {
        snprintf(msg, msgn, "out of memory");
        return FRX_ENOMEM;
    }
    snprintf(path, n, "%s/%s", dirname(copy), file);
    free(copy);
    return FRX_OK;
}

int frx__mesh_gmsh(const frx_cfgnode *mesh, struct frx__gmesh *g)
{
    char path[4096], where[300];
    const frx_cfgnode *at;
    char msg[1024];
    memset(g, 0, sizeof *g);
    int rc = frx__mesh_file_path(mesh, FRX__MESH_FILE_GMSH, path, sizeof path,
                                 &at, msg, sizeof msg);
    if (rc)
        return frx_error(rc, "%s", msg);
    rc = frx__mesh_gmsh_file(path, g, NULL);
    if (rc == FRX_EIO) { /* say which key named the file */
        snprintf(msg, sizeof msg, "%s", frx_errmsg());
        return frx_error(rc, "%s: 'mesh.file': %s",
                         frx__cfg_where(at, where, sizeof where), msg);
    }
    return rc;
}

int frx__mesh_file_check(const frx_cfgnode *mesh, const char *what)
{
    static const char *const box_keys[] = {"n", "lower", "upper",
                                           "periodic", "etype", "order"};
    char path[4096], where[300];
    const frx_cfgnode *at;
    int nerr = 0;
    for (size_t i = 0; i < sizeof box_keys / sizeof *box_keys; i++) {
        const frx_cfgnode *v = frx_cfg_get(mesh, box_keys[i]);
        if (!v)
            continue;
        frx__error_append(FRX_ECONFIG, "%s: 'mesh.%s' is a key of the box "
                          "mesh; a %s mesh takes only 'file'",
                          frx__cfg_where(v, where, sizeof where),
                          box_keys[i], type_of(mesh));
        nerr++;
    }
    char msg[1024];
    if (frx__mesh_file_path(mesh, what, path, sizeof path, &at, msg,
                            sizeof msg)) {
        frx__error_append(FRX_ECONFIG, "%s", msg);
        return nerr + 1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        frx__error_append(FRX_ECONFIG, "%s: 'mesh.file': %s: cannot open "
                          "the mesh file: %s",
                          frx__cfg_where(at, where, sizeof where), path,
                          strerror(errno));
        return nerr + 1;
    }
    fclose(f);
    return nerr;
}
