/* SPDX-License-Identifier: BSD-3-Clause */
/* Gmsh import on one rank: files written by the tests (gmshwrite.c) in
 * versions 2.2 and 4.1, ASCII and binary, read through a case's
 * mesh: {type: gmsh, file} into frx_mesh: counts, boundaries, periodic
 * pairs and their translation, shape points (order 2, curved, and the
 * completed 8-node quadrilateral and 20-node hexahedron), face geometry,
 * the same id from every format; every kind of bad file refused with
 * its line or byte offset. `test_gmsh pyfr FILE` reads PyFR's own
 * vortex mesh (exit 77 when the file is absent): on one rank every face
 * interior; on several, every element and face once. */
#include "gmshwrite.h"
#include "meshcheck.h"
#include "meshutil.h"

#include <check.h>
#include <frx/mesh.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[4096];
static frx_config *cfg;
static frx_mesh *mesh;
static const char *pyfr_file;

static void teardown(void)
{
    frx_mesh_destroy(mesh);
    mesh = NULL;
    frx_config_free(cfg);
    cfg = NULL;
}

/* A case in dir naming `mesh` (its flow-style mapping). */
static int make_case(const char *m)
{
    char text[2048], cfile[4200];
    teardown();
    snprintf(text, sizeof text, "backend:\n  precision: double\nmesh: %s\n",
             m);
    snprintf(cfile, sizeof cfile, "%s/case.yaml", dir);
    int rc = frx_config_parse(text, strlen(text), cfile, &cfg);
    ck_assert_msg(rc == FRX_OK, "%s", frx_errmsg());
    return frx_mesh_create(cfg, MPI_COMM_SELF, &mesh);
}

/* The bytes as dir/name, read by a case. */
static int load_bytes(const char *name, const char *p, size_t n)
{
    char m[300];
    gw_save(dir, name, p, n);
    snprintf(m, sizeof m, "{type: gmsh, file: %s}", name);
    return make_case(m);
}

static void load_ok(const struct gw_mesh *m, int version, int binary)
{
    struct gw_file f;
    gw_write(m, version, binary, &f);
    int rc = load_bytes("mesh.msh", f.p, f.n);
    ck_assert_msg(rc == FRX_OK, "version %d binary %d: %s", version, binary,
                  frx_errmsg());
    gw_file_free(&f);
}

/* Every interior face's two sides meet corner for corner (r at l plus
 * the pair's shift); every element is positively oriented; every
 * element face is interior or on a boundary. Returns the number of
 * periodic interior faces of each pair in per[]. */
static void check_geometry(size_t *per)
{
    frx_mesh_info in = mc_info(mesh);
    const frx_mesh_iface *f;
    size_t n, elsize, nb = 0, nfaces = 0;
    ck_assert_int_eq(frx_mesh_get_ifaces(mesh, &f, &n, &elsize), FRX_OK);
    for (size_t p = 0; p < in.nperiodic; p++)
        per[p] = 0;
    for (size_t i = 0; i < n; i++) {
        double shift[3] = {0, 0, 0}, a[3], b[3];
        if (f[i].periodic >= 0) {
            frx_mesh_periodic P = mc_periodic(mesh, (size_t)f[i].periodic);
            memcpy(shift, P.shift, sizeof shift);
            per[f[i].periodic]++;
        }
        int nc = mu_face_ncorners(mesh, f[i].l);
        for (int k = 0; k < nc; k++) {
            int other = in.ndims == 2 ? nc - 1 - k
                                      : (f[i].l.rot - k + nc) % nc;
            mu_face_corner(mesh, f[i].l, k, a);
            mu_face_corner(mesh, f[i].r, other, b);
            ck_assert_msg(mu_dist(b, a, shift, in.ndims) < 1e-9,
                          "face %zu corner %d: (%g, %g) and (%g, %g)", i, k,
                          a[0], a[1], b[0], b[1]);
        }
    }
    for (size_t i = 0; i < in.nbcs; i++)
        nb += mc_bc(mesh, i).nfaces;
    for (size_t b = 0; b < in.nblocks; b++) {
        frx_mesh_block B = mc_block(mesh, b);
        nfaces += B.neles * B.nfaces;
        for (size_t e = 0; e < B.neles; e++)
            ck_assert_msg(mu_orientation(mesh, (uint32_t)b, (uint32_t)e) > 0,
                          "element %zu of block %zu is inverted", e, b);
    }
    ck_assert_uint_eq(nfaces, 2 * n + nb);
}

/* The coordinates of a node of a gw_mesh by its tag (2 id + 101). */
static const double *node_x(const struct gw_mesh *m, uint64_t tag)
{
    return m->x[(tag - 101) / 2];
}

/* Block 0's shape points are the file's nodes of its elements, in file
 * order (the mesh's elements: those of Gmsh type `type`); the first
 * `given` points of each, the rest from lattice points want[]. */
static void check_block_shapes(size_t blk, const struct gw_mesh *m, int type,
                               int given, const int *want_extra)
{
    frx_mesh_block B = mc_block(mesh, blk);
    int d = mc_info(mesh).ndims;
    size_t e = 0;
    for (size_t i = 0; i < m->neles; i++) {
        const struct gw_ele *g = &m->eles[i];
        if (g->type != type)
            continue;
        ck_assert_uint_lt(e, B.neles);
        for (size_t s = 0; s < B.nshape; s++) {
            const double *got = B.shape + (e * B.nshape + s) * (size_t)d;
            const double *want = (int)s < given
                ? node_x(m, g->n[s])
                : node_x(m, g->n[want_extra[s - (size_t)given]]);
            ck_assert_msg(mu_dist(got, want, NULL, d) < 1e-12,
                          "element %zu point %zu: (%.17g, %.17g) not "
                          "(%.17g, %.17g)", e, s, got[0], got[1], want[0],
                          want[1]);
        }
        e++;
    }
    ck_assert_uint_eq(e, B.neles);
}

static void check_shapes(const struct gw_mesh *m, int type, int given,
                         const int *want_extra)
{
    check_block_shapes(0, m, type, given, want_extra);
}

/* ------------------------------------------------------ good files */

static const char *const four_sides[6] = {"left", "right", "bottom",
                                          "top", "back", "front"};

START_TEST(formats_agree)
{
    struct gw_spec s = {.n = {4, 3, 0}, .type = 3, .region = "Fluid"};
    memcpy(s.sides, four_sides, sizeof s.sides);
    struct gw_mesh m;
    gw_make(&s, &m);
    static const int versions[4][2] = {{22, 0}, {22, 1}, {41, 0}, {41, 1}};
    char id0[65] = "";
    for (int v = 0; v < 4; v++) {
        load_ok(&m, versions[v][0], versions[v][1]);
        frx_mesh_info in = mc_info(mesh);
        ck_assert_int_eq(in.ndims, 2);
        ck_assert_uint_eq(in.neles, 12);
        ck_assert_uint_eq(in.nblocks, 1);
        ck_assert_uint_eq(in.nifaces, 3 * 3 + 4 * 2);
        ck_assert_uint_eq(in.nperiodic, 0);
        ck_assert_uint_eq(in.nbcs, 4);
        frx_mesh_block B = mc_block(mesh, 0);
        ck_assert_int_eq(B.etype, FRX_ETYPE_QUAD);
        ck_assert_int_eq(B.order, 1);
        static const size_t nf[4] = {3, 3, 4, 4};
        for (size_t i = 0; i < 4; i++) {
            ck_assert_str_eq(mc_bc(mesh, i).name, four_sides[i]);
            ck_assert_uint_eq(mc_bc(mesh, i).nfaces, nf[i]);
            for (size_t j = 0; j < mc_bc(mesh, i).nfaces; j++) {
                double x[3];
                mu_face_mid(mesh, mc_bc(mesh, i).faces[j], x);
                double want = i == 0 ? 0 : i == 1 ? 4 : i == 2 ? 0 : 3;
                ck_assert(x[i / 2] == want);
            }
        }
        check_shapes(&m, 3, 4, NULL);
        size_t per[1];
        check_geometry(per);
        if (v == 0)
            memcpy(id0, in.id, sizeof id0);
        ck_assert_str_eq(in.id, id0); /* the same mesh in every format */
    }
    gw_free(&m);
}
END_TEST

START_TEST(triangles_periodic)
{
    struct gw_spec s = {.n = {3, 2, 0}, .type = 2, .region = "fluid",
                        .sides = {"periodic_0_l", "periodic_0_r", "Bottom",
                                  "Top"}};
    struct gw_mesh m;
    gw_make(&s, &m);
    load_ok(&m, 41, 0);
    frx_mesh_info in = mc_info(mesh);
    ck_assert_uint_eq(in.neles, 12);
    ck_assert_int_eq(mc_block(mesh, 0).etype, FRX_ETYPE_TRI);
    ck_assert_uint_eq(in.nperiodic, 1);
    frx_mesh_periodic P = mc_periodic(mesh, 0);
    ck_assert_str_eq(P.name, "periodic_0");
    ck_assert(P.shift[0] == 3 && P.shift[1] == 0);
    ck_assert_uint_eq(in.nbcs, 2);
    ck_assert_str_eq(mc_bc(mesh, 0).name, "Bottom");
    ck_assert_uint_eq(mc_bc(mesh, 0).nfaces, 3);
    ck_assert_uint_eq(mc_bc(mesh, 1).nfaces, 3);
    size_t per[1];
    check_geometry(per);
    ck_assert_uint_eq(per[0], 2);
    check_shapes(&m, 2, 3, NULL);
    gw_free(&m);

    /* periodic both ways, PyFR's spellings: no boundary faces */
    s.sides[2] = "Periodic-1-L";
    s.sides[3] = "periodic 1 r";
    gw_make(&s, &m);
    load_ok(&m, 22, 1);
    in = mc_info(mesh);
    ck_assert_uint_eq(in.nbcs, 0);
    ck_assert_uint_eq(in.nperiodic, 2);
    ck_assert_uint_eq(in.nifaces, 3 * in.neles / 2);
    ck_assert_str_eq(mc_periodic(mesh, 1).name, "periodic_1");
    frx_mesh_periodic p1 = mc_periodic(mesh, 1);
    ck_assert(p1.shift[0] == 0 && p1.shift[1] == 2);
    size_t per2[2];
    check_geometry(per2);
    ck_assert_uint_eq(per2[0], 2);
    ck_assert_uint_eq(per2[1], 3);
    gw_free(&m);
}
END_TEST

/* A map each element's image under which is in the span of its shape
 * functions, even of the 8-node and 20-node ones (x y z is in the
 * 20-node hexahedron's); z = 0 stays 0. */
static void bend(double *x)
{
    double a = x[0], b = x[1], c = x[2];
    x[0] = a + 0.04 * b * b + 0.01 * c * c;
    x[1] = b + 0.03 * a * a;
    x[2] = c + 0.02 * a * b * c;
}

/* Bent in x and y only: the sides z = 0 and z = 2 stay a translation
 * apart. */
static void bend_xy(double *x)
{
    double a = x[0], b = x[1];
    x[0] = a + 0.04 * b * b;
    x[1] = b + 0.03 * a * a;
}

START_TEST(second_order)
{
    struct gw_spec s = {.n = {3, 2, 0}, .type = 10, .region = "Fluid",
                        .map = bend};
    memcpy(s.sides, four_sides, sizeof s.sides);
    struct gw_mesh m;
    size_t per[1];
    /* 9-node quadrilaterals: every point read */
    gw_make(&s, &m);
    load_ok(&m, 41, 1);
    ck_assert_int_eq(mc_block(mesh, 0).order, 2);
    ck_assert_uint_eq(mc_block(mesh, 0).nshape, 9);
    check_shapes(&m, 10, 9, NULL);
    check_geometry(per);
    gw_free(&m);
    /* 6-node triangles */
    s.type = 9;
    gw_make(&s, &m);
    load_ok(&m, 22, 0);
    ck_assert_int_eq(mc_block(mesh, 0).etype, FRX_ETYPE_TRI);
    ck_assert_uint_eq(mc_block(mesh, 0).nshape, 6);
    check_shapes(&m, 9, 6, NULL);
    check_geometry(per);
    gw_free(&m);
    /* 8-node quadrilaterals: the centre made is the map's centre, the
     * lattice node the file has but no element uses */
    s.type = 16;
    gw_make(&s, &m);
    load_ok(&m, 22, 1);
    ck_assert_uint_eq(mc_block(mesh, 0).nshape, 9);
    frx_mesh_block B = mc_block(mesh, 0);
    int d = 2;
    for (size_t i = 0, e = 0; i < m.neles; i++) {
        const struct gw_ele *g = &m.eles[i];
        if (g->type != 16)
            continue;
        for (int k = 0; k < 8; k++)
            ck_assert(mu_dist(B.shape + (e * 9 + (size_t)k) * (size_t)d,
                              node_x(&m, g->n[k]), NULL, d) < 1e-12);
        /* the centre's lattice tag: the mean of corners 0 and 2's ids */
        uint64_t c = ((g->n[0] - 101) / 2 + (g->n[2] - 101) / 2) / 2;
        ck_assert_msg(mu_dist(B.shape + (e * 9 + 8) * (size_t)d, m.x[c],
                              NULL, d) < 1e-12, "element %zu's centre", e);
        e++;
    }
    check_geometry(per);
    gw_free(&m);
}
END_TEST

START_TEST(hexahedra)
{
    struct gw_spec s = {.n = {2, 2, 2}, .type = 5, .region = "Fluid"};
    memcpy(s.sides, four_sides, sizeof s.sides);
    struct gw_mesh m;
    size_t per[1];
    gw_make(&s, &m);
    load_ok(&m, 41, 1);
    frx_mesh_info in = mc_info(mesh);
    ck_assert_int_eq(in.ndims, 3);
    ck_assert_uint_eq(in.neles, 8);
    ck_assert_uint_eq(in.nbcs, 6);
    ck_assert_uint_eq(in.nifaces, 12);
    for (size_t i = 0; i < 6; i++)
        ck_assert_uint_eq(mc_bc(mesh, i).nfaces, 4);
    check_shapes(&m, 5, 8, NULL);
    check_geometry(per);
    gw_free(&m);
    /* 27-node, curved; periodic in z */
    s.type = 12;
    s.map = bend_xy;
    s.sides[4] = "periodic_z_l";
    s.sides[5] = "periodic_z_r";
    gw_make(&s, &m);
    load_ok(&m, 22, 0);
    ck_assert_uint_eq(mc_block(mesh, 0).nshape, 27);
    ck_assert_uint_eq(mc_info(mesh).nperiodic, 1);
    check_shapes(&m, 12, 27, NULL);
    check_geometry(per);
    ck_assert_uint_eq(per[0], 4);
    gw_free(&m);
    /* 20-node: faces and centre completed exactly */
    s.type = 17;
    s.map = bend;
    s.sides[4] = "back";
    s.sides[5] = "front";
    gw_make(&s, &m);
    load_ok(&m, 41, 0);
    ck_assert_uint_eq(mc_block(mesh, 0).nshape, 27);
    check_geometry(per);
    frx_mesh_block B = mc_block(mesh, 0);
    for (size_t i = 0, e = 0; i < m.neles; i++) {
        const struct gw_ele *g = &m.eles[i];
        if (g->type != 17)
            continue;
        /* the completed face centres and centre: the lattice points
         * amid their corners */
        static const int faces[7][4] = {{0, 3, 2, 1}, {0, 1, 5, 4},
                                        {0, 4, 7, 3}, {1, 2, 6, 5},
                                        {2, 3, 7, 6}, {4, 5, 6, 7},
                                        {0, 6, 0, 6}};
        for (int f = 0; f < 7; f++) {
            uint64_t c = 0;
            for (int k = 0; k < 4; k++)
                c += (g->n[faces[f][k]] - 101) / 2;
            ck_assert_msg(mu_dist(B.shape + (e * 27 + 20 + (size_t)f) * 3,
                                  m.x[c / 4], NULL, 3) < 1e-12,
                          "element %zu point %d", e, 20 + f);
        }
        e++;
    }
    gw_free(&m);
}
END_TEST

/* Every face of every element of block b turns counter-clockwise seen
 * from outside. */
static void check_outward(size_t b)
{
    frx_mesh_block B = mc_block(mesh, b);
    for (uint32_t e = 0; e < B.neles; e++)
        for (uint16_t f = 0; f < B.nfaces; f++) {
            frx_face side = {(uint32_t)b, e, f, 0};
            ck_assert_msg(mu_face_outward(mesh, side) > 0,
                          "block %zu element %u face %u turns inwards", b, e,
                          f);
        }
}

START_TEST(tetrahedra)
{
    struct gw_spec s = {.n = {2, 2, 2}, .type = 4, .region = "Fluid"};
    memcpy(s.sides, four_sides, sizeof s.sides);
    struct gw_mesh m;
    size_t per[1];
    gw_make(&s, &m);
    static const int versions[4][2] = {{22, 0}, {22, 1}, {41, 0}, {41, 1}};
    char id0[65] = "";
    for (int v = 0; v < 4; v++) {
        load_ok(&m, versions[v][0], versions[v][1]);
        frx_mesh_info in = mc_info(mesh);
        ck_assert_int_eq(in.ndims, 3);
        ck_assert_uint_eq(in.neles, 48);
        ck_assert_uint_eq(in.nblocks, 1);
        frx_mesh_block B = mc_block(mesh, 0);
        ck_assert_int_eq(B.etype, FRX_ETYPE_TET);
        ck_assert_int_eq(B.order, 1);
        ck_assert_uint_eq(B.nshape, 4);
        ck_assert_uint_eq(B.nfaces, 4);
        /* 6 inside each cube, 2 on each of the 12 between cubes */
        ck_assert_uint_eq(in.nifaces, 8 * 6 + 12 * 2);
        ck_assert_uint_eq(in.nbcs, 6);
        for (size_t i = 0; i < 6; i++) {
            frx_mesh_bc bc = mc_bc(mesh, i);
            ck_assert_str_eq(bc.name, four_sides[i]);
            ck_assert_uint_eq(bc.nfaces, 2 * 2 * 2); /* triangles */
            for (size_t j = 0; j < bc.nfaces; j++) {
                double x[3];
                mu_face_mid(mesh, bc.faces[j], x);
                ck_assert(x[i / 2] == (i % 2 ? 2 : 0));
            }
        }
        check_shapes(&m, 4, 4, NULL);
        check_geometry(per);
        check_outward(0);
        if (v == 0)
            memcpy(id0, in.id, sizeof id0);
        ck_assert_str_eq(in.id, id0);
    }
    gw_free(&m);
    /* 10-node, straight: points 4..9 amid the edges (0,1) (1,2) (2,0)
     * (3,0) (3,2) (3,1), Gmsh's order */
    s.type = 11;
    gw_make(&s, &m);
    load_ok(&m, 41, 1);
    frx_mesh_block B = mc_block(mesh, 0);
    ck_assert_int_eq(B.order, 2);
    ck_assert_uint_eq(B.nshape, 10);
    static const int edge[6][2] = {{0, 1}, {1, 2}, {2, 0},
                                   {3, 0}, {3, 2}, {3, 1}};
    for (size_t e = 0; e < B.neles; e++)
        for (int i = 0; i < 6; i++)
            for (int k = 0; k < 3; k++) {
                const double *x = B.shape + e * 10 * 3;
                ck_assert_double_eq_tol(x[(4 + i) * 3 + k],
                                        (x[edge[i][0] * 3 + k] +
                                         x[edge[i][1] * 3 + k]) / 2, 1e-15);
            }
    check_shapes(&m, 11, 10, NULL);
    check_geometry(per);
    gw_free(&m);
    /* 10-node, curved, periodic in z: the pair's triangles matched */
    s.map = bend_xy;
    s.sides[4] = "periodic_z_l";
    s.sides[5] = "periodic_z_r";
    gw_make(&s, &m);
    load_ok(&m, 22, 0);
    ck_assert_uint_eq(mc_info(mesh).nperiodic, 1);
    ck_assert_uint_eq(mc_info(mesh).nbcs, 4);
    frx_mesh_periodic P = mc_periodic(mesh, 0);
    ck_assert(P.shift[0] == 0 && P.shift[1] == 0 && P.shift[2] == 2);
    check_shapes(&m, 11, 10, NULL);
    check_geometry(per);
    ck_assert_uint_eq(per[0], 2 * 2 * 2);
    check_outward(0);
    gw_free(&m);
}
END_TEST

/* o's nodes and elements added to m, its nodes moved by dx along x and
 * its tags by dtag (elements: after m's); o's names are m's. */
static void append(struct gw_mesh *m, const struct gw_mesh *o, double dx,
                   uint64_t dtag)
{
    size_t n = m->nnodes + o->nnodes;
    m->ntag = realloc(m->ntag, n * sizeof *m->ntag);
    m->x = realloc(m->x, n * sizeof *m->x);
    ck_assert(m->ntag && m->x && m->neles + o->neles <= GW_MAX_ELES);
    for (size_t i = 0; i < o->nnodes; i++) {
        m->ntag[m->nnodes + i] = o->ntag[i] + dtag;
        memcpy(m->x[m->nnodes + i], o->x[i], sizeof *m->x);
        m->x[m->nnodes + i][0] += dx;
    }
    m->nnodes = n;
    uint64_t etag = m->neles;
    for (size_t i = 0; i < o->neles; i++) {
        struct gw_ele *e = &m->eles[m->neles++];
        *e = o->eles[i];
        e->tag += etag;
        for (int k = 0; k < e->nn; k++)
            e->n[k] += dtag;
    }
}

/* Tetrahedra and hexahedra in one mesh: two blocks, by type; where a
 * hexahedron's face meets two tetrahedra's it is met by none (frx does
 * not join a quadrilateral to triangles): refused, saying so. */
START_TEST(mixed_tet_hex)
{
    struct gw_spec st = {.n = {1, 1, 1}, .type = 4, .region = "Fluid"};
    struct gw_spec sh = {.n = {1, 1, 1}, .type = 5, .region = "Fluid"};
    memcpy(st.sides, four_sides, sizeof st.sides);
    memcpy(sh.sides, four_sides, sizeof sh.sides);
    struct gw_mesh m, h;
    size_t per[1];
    gw_make(&st, &m);
    gw_make(&sh, &h);
    append(&m, &h, 3, 10000); /* apart: [0, 1] and [3, 4] in x */
    load_ok(&m, 41, 0);
    frx_mesh_info in = mc_info(mesh);
    ck_assert_uint_eq(in.neles, 7);
    ck_assert_uint_eq(in.nblocks, 2);
    ck_assert_int_eq(mc_block(mesh, 0).etype, FRX_ETYPE_TET);
    ck_assert_uint_eq(mc_block(mesh, 0).neles, 6);
    ck_assert_int_eq(mc_block(mesh, 1).etype, FRX_ETYPE_HEX);
    ck_assert_uint_eq(mc_block(mesh, 1).neles, 1);
    ck_assert_uint_eq(mc_bc(mesh, 0).nfaces, 2 + 1);
    check_geometry(per);
    check_outward(0);
    check_outward(1);
    gw_free(&m);
    gw_free(&h);
    /* touching at x = 1, the hexahedron's nodes there the tetrahedra's,
     * no group on either side of it */
    st.sides[1] = NULL;
    sh.sides[0] = NULL;
    gw_make(&st, &m);
    gw_make(&sh, &h);
    size_t first = m.neles;
    append(&m, &h, 1, 10000);
    for (size_t i = first; i < m.neles; i++)
        for (int k = 0; k < m.eles[i].nn; k++) {
            uint64_t t = m.eles[i].n[k];
            const double *x = m.x[m.nnodes - h.nnodes + (t - 10000 - 101) / 2];
            for (size_t j = 0; j < m.nnodes - h.nnodes; j++)
                if (mu_dist(m.x[j], x, NULL, 3) == 0)
                    m.eles[i].n[k] = m.ntag[j];
        }
    struct gw_file f;
    gw_write(&m, 22, 0, &f);
    ck_assert_int_eq(load_bytes("mixed.msh", f.p, f.n), FRX_ECONFIG);
    size_t hex = first; /* the hexahedron, after its sides */
    while (m.eles[hex].type != 5)
        hex++;
    char want[200];
    snprintf(want, sizeof want, "mixed.msh:%llu: face ",
             (unsigned long long)f.line[hex]);
    assert_msg(want);
    snprintf(want, sizeof want, "of element %llu, a quadrilateral (nodes ",
             (unsigned long long)m.eles[hex].tag);
    assert_msg(want);
    assert_msg("at (1, 0.5, 0.5)), meets a triangle face of element ");
    assert_msg("a quadrilateral face meets triangles, and frx joins faces "
               "whole (a quadrilateral to a quadrilateral, a triangle to a "
               "triangle): put pyramids (or prisms) between them");
    gw_file_free(&f);
    gw_free(&m);
    gw_free(&h);
}
END_TEST

/* The volumes of every block's elements add up to the box [0, n]'s;
 * boundary faces lie on their sides (four_sides' names). */
static void check_fills(const int *n)
{
    frx_mesh_info in = mc_info(mesh);
    double vol = 0;
    for (size_t b = 0; b < in.nblocks; b++) {
        frx_mesh_block B = mc_block(mesh, b);
        for (uint32_t e = 0; e < B.neles; e++) {
            double v = mu_volume(mesh, (uint32_t)b, e);
            ck_assert_msg(v > 0, "block %zu element %u: volume %g", b, e, v);
            vol += v;
        }
    }
    ck_assert_double_eq_tol(vol, n[0] * n[1] * n[2], 1e-12);
    for (size_t i = 0; i < in.nbcs; i++) {
        frx_mesh_bc bc = mc_bc(mesh, i);
        int w = 0;
        while (w < 6 && strcmp(bc.name, four_sides[w]))
            w++;
        ck_assert_int_lt(w, 6);
        for (size_t j = 0; j < bc.nfaces; j++) {
            double x[3];
            mu_face_mid(mesh, bc.faces[j], x);
            ck_assert(x[w / 2] == (w % 2 ? n[w / 2] : 0));
        }
    }
}

/* Faces of a boundary with 3 and with 4 corners. */
static void count_bc_faces(size_t i, size_t *ntri, size_t *nquad)
{
    frx_mesh_bc bc = mc_bc(mesh, i);
    *ntri = *nquad = 0;
    for (size_t j = 0; j < bc.nfaces; j++) {
        int nc = mu_face_ncorners(mesh, bc.faces[j]);
        *ntri += nc == 3;
        *nquad += nc == 4;
    }
}

/* Prisms of 6 and 18 nodes (Gmsh types 6 and 13), two a cube in
 * corner orders other than the box's (one upside down, one turned):
 * their sides quadrilaterals, triangles at the z ends. */
START_TEST(prisms)
{
    struct gw_spec s = {.n = {2, 2, 2}, .type = 6, .region = "Fluid"};
    memcpy(s.sides, four_sides, sizeof s.sides);
    struct gw_mesh m;
    size_t per[2];
    gw_make(&s, &m);
    static const int versions[4][2] = {{22, 0}, {22, 1}, {41, 0}, {41, 1}};
    char id0[65] = "";
    for (int v = 0; v < 4; v++) {
        load_ok(&m, versions[v][0], versions[v][1]);
        frx_mesh_info in = mc_info(mesh);
        ck_assert_int_eq(in.ndims, 3);
        ck_assert_uint_eq(in.neles, 16);
        ck_assert_uint_eq(in.nblocks, 1);
        frx_mesh_block B = mc_block(mesh, 0);
        ck_assert_int_eq(B.etype, FRX_ETYPE_PRI);
        ck_assert_int_eq(B.order, 1);
        ck_assert_uint_eq(B.nshape, 6);
        ck_assert_uint_eq(B.nfaces, 5);
        /* 1 inside each cube; between cubes 1 in x, 1 in y, 2 in z */
        ck_assert_uint_eq(in.nifaces, 8 + 4 + 4 + 4 * 2);
        ck_assert_uint_eq(in.nbcs, 6);
        for (size_t i = 0; i < 6; i++) {
            size_t nt, nq;
            count_bc_faces(i, &nt, &nq);
            ck_assert_str_eq(mc_bc(mesh, i).name, four_sides[i]);
            ck_assert_uint_eq(nt, i < 4 ? 0 : 8);
            ck_assert_uint_eq(nq, i < 4 ? 4 : 0);
        }
        check_shapes(&m, 6, 6, NULL);
        check_geometry(per);
        check_outward(0);
        check_fills(s.n);
        if (v == 0)
            memcpy(id0, in.id, sizeof id0);
        ck_assert_str_eq(in.id, id0);
    }
    gw_free(&m);
    /* 18-node, straight: points 6..14 amid the edges (0,1) (0,2) (0,3)
     * (1,2) (1,4) (2,5) (3,4) (3,5) (4,5), 15..17 amid the faces
     * (0,1,4,3) (0,3,5,2) (1,2,5,4), Gmsh's order */
    s.type = 13;
    gw_make(&s, &m);
    load_ok(&m, 41, 1);
    frx_mesh_block B = mc_block(mesh, 0);
    ck_assert_int_eq(B.order, 2);
    ck_assert_uint_eq(B.nshape, 18);
    static const int mid[12][4] = {
        {0, 1, 0, 1}, {0, 2, 0, 2}, {0, 3, 0, 3}, {1, 2, 1, 2},
        {1, 4, 1, 4}, {2, 5, 2, 5}, {3, 4, 3, 4}, {3, 5, 3, 5},
        {4, 5, 4, 5}, {0, 1, 4, 3}, {0, 3, 5, 2}, {1, 2, 5, 4}};
    for (size_t e = 0; e < B.neles; e++)
        for (int i = 0; i < 12; i++)
            for (int k = 0; k < 3; k++) {
                const double *x = B.shape + e * 18 * 3;
                double want = 0;
                for (int c = 0; c < 4; c++)
                    want += x[mid[i][c] * 3 + k] / 4;
                ck_assert_double_eq_tol(x[(6 + i) * 3 + k], want, 1e-15);
            }
    check_shapes(&m, 13, 18, NULL);
    check_geometry(per);
    check_outward(0);
    gw_free(&m);
    /* 18-node, curved in x and y, periodic in x (quadrilaterals) and z
     * (triangles) */
    s.map = bend_xy;
    s.sides[0] = "periodic_x_l";
    s.sides[1] = "periodic_x_r";
    s.sides[4] = "periodic_z_l";
    s.sides[5] = "periodic_z_r";
    gw_make(&s, &m);
    load_ok(&m, 22, 0);
    frx_mesh_info in = mc_info(mesh);
    ck_assert_uint_eq(in.nperiodic, 2);
    ck_assert_uint_eq(in.nbcs, 2);
    ck_assert_str_eq(mc_periodic(mesh, 0).name, "periodic_x");
    frx_mesh_periodic P = mc_periodic(mesh, 1);
    ck_assert(P.shift[0] == 0 && P.shift[1] == 0 && P.shift[2] == 2);
    check_shapes(&m, 13, 18, NULL);
    check_geometry(per);
    ck_assert_uint_eq(per[0], 2 * 2);
    ck_assert_uint_eq(per[1], 2 * 2 * 2);
    check_outward(0);
    gw_free(&m);
}
END_TEST

/* Faces between blocks a and b (either way round). */
static size_t cross_faces(uint32_t a, uint32_t b, int nc)
{
    const frx_mesh_iface *f;
    size_t n, elsize, k = 0;
    ck_assert_int_eq(frx_mesh_get_ifaces(mesh, &f, &n, &elsize), FRX_OK);
    for (size_t i = 0; i < n; i++)
        k += ((f[i].l.blk == a && f[i].r.blk == b) ||
              (f[i].l.blk == b && f[i].r.blk == a)) &&
             mu_face_ncorners(mesh, f[i].l) == nc;
    return k;
}

/* Hexahedra (x < 2) beside prisms (x > 2), their quadrilaterals meeting
 * at x = 2: two blocks, hexahedra first; the z sides hold both
 * quadrilaterals and triangles, as boundaries and as a periodic pair. */
START_TEST(mixed_hex_pri)
{
    struct gw_spec s = {.n = {4, 2, 2}, .type = 5, .type2 = 6, .axis2 = 0,
                        .from2 = 2, .region = "fluid"};
    memcpy(s.sides, four_sides, sizeof s.sides);
    struct gw_mesh m;
    size_t per[1];
    gw_make(&s, &m);
    load_ok(&m, 41, 1);
    frx_mesh_info in = mc_info(mesh);
    ck_assert_uint_eq(in.neles, 8 + 16);
    ck_assert_uint_eq(in.nblocks, 2);
    ck_assert_int_eq(mc_block(mesh, 0).etype, FRX_ETYPE_HEX);
    ck_assert_uint_eq(mc_block(mesh, 0).neles, 8);
    ck_assert_int_eq(mc_block(mesh, 1).etype, FRX_ETYPE_PRI);
    ck_assert_uint_eq(mc_block(mesh, 1).neles, 16);
    ck_assert_uint_eq(cross_faces(0, 1, 4), 2 * 2);
    for (size_t i = 4; i < 6; i++) { /* back, front */
        size_t nt, nq;
        count_bc_faces(i, &nt, &nq);
        ck_assert_uint_eq(nq, 2 * 2);
        ck_assert_uint_eq(nt, 2 * 2 * 2);
    }
    check_shapes(&m, 5, 8, NULL);
    check_block_shapes(1, &m, 6, 6, NULL);
    check_geometry(per);
    check_outward(0);
    check_outward(1);
    check_fills(s.n);
    gw_free(&m);
    /* order 2, periodic in z: each side's quadrilaterals and triangles
     * paired */
    s.type = 12;
    s.type2 = 13;
    s.sides[4] = "periodic_z_l";
    s.sides[5] = "periodic_z_r";
    gw_make(&s, &m);
    load_ok(&m, 22, 0);
    in = mc_info(mesh);
    ck_assert_uint_eq(in.nperiodic, 1);
    ck_assert_uint_eq(mc_block(mesh, 0).nshape, 27);
    ck_assert_uint_eq(mc_block(mesh, 1).nshape, 18);
    check_shapes(&m, 12, 27, NULL);
    check_block_shapes(1, &m, 13, 18, NULL);
    check_geometry(per);
    ck_assert_uint_eq(per[0], 2 * 2 + 2 * 2 * 2);
    size_t np[2] = {0, 0};
    const frx_mesh_iface *f;
    size_t n, elsize;
    ck_assert_int_eq(frx_mesh_get_ifaces(mesh, &f, &n, &elsize), FRX_OK);
    for (size_t i = 0; i < n; i++)
        if (f[i].periodic == 0)
            np[mu_face_ncorners(mesh, f[i].l) == 4]++;
    ck_assert_uint_eq(np[0], 2 * 2 * 2);
    ck_assert_uint_eq(np[1], 2 * 2);
    check_fills(s.n);
    gw_free(&m);
}
END_TEST

/* Tetrahedra (z < 1) below prisms (z > 1): the tetrahedra's top
 * triangles (each cube face cut by its diagonal from (0,0) to (1,1))
 * are the prisms' bottom ones; periodic in z, the prisms' top triangles
 * meet the tetrahedra's bottom ones too. Two blocks, tetrahedra first. */
START_TEST(mixed_tet_pri)
{
    struct gw_spec s = {.n = {2, 2, 2}, .type = 4, .type2 = 6, .axis2 = 2,
                        .from2 = 1, .region = "fluid"};
    memcpy(s.sides, four_sides, sizeof s.sides);
    struct gw_mesh m;
    size_t per[1];
    gw_make(&s, &m);
    load_ok(&m, 22, 1);
    frx_mesh_info in = mc_info(mesh);
    ck_assert_uint_eq(in.neles, 24 + 8);
    ck_assert_uint_eq(in.nblocks, 2);
    ck_assert_int_eq(mc_block(mesh, 0).etype, FRX_ETYPE_TET);
    ck_assert_int_eq(mc_block(mesh, 1).etype, FRX_ETYPE_PRI);
    ck_assert_uint_eq(cross_faces(0, 1, 3), 2 * 2 * 2);
    for (size_t i = 0; i < 4; i++) { /* the x and y sides: both kinds */
        size_t nt, nq;
        count_bc_faces(i, &nt, &nq);
        ck_assert_uint_eq(nt, 2 * 2);
        ck_assert_uint_eq(nq, 2);
    }
    check_shapes(&m, 4, 4, NULL);
    check_block_shapes(1, &m, 6, 6, NULL);
    check_geometry(per);
    check_outward(0);
    check_outward(1);
    check_fills(s.n);
    gw_free(&m);
    /* order 2, curved in x and y, periodic in z */
    s.type = 11;
    s.type2 = 13;
    s.map = bend_xy;
    s.sides[4] = "periodic_z_l";
    s.sides[5] = "periodic_z_r";
    gw_make(&s, &m);
    load_ok(&m, 41, 0);
    ck_assert_uint_eq(mc_info(mesh).nperiodic, 1);
    check_shapes(&m, 11, 10, NULL);
    check_block_shapes(1, &m, 13, 18, NULL);
    check_geometry(per);
    ck_assert_uint_eq(per[0], 2 * 2 * 2);
    ck_assert_uint_eq(cross_faces(0, 1, 3), 2 * 2 * 2 * 2);
    check_outward(0);
    check_outward(1);
    gw_free(&m);
}
END_TEST

/* Pyramids of 5 and 14 nodes (Gmsh types 7 and 14), six a cube around
 * its centre, bases started at other corners than the box's: their
 * sides quadrilaterals (bases), triangles inside the cubes. */
START_TEST(pyramids)
{
    struct gw_spec s = {.n = {2, 2, 2}, .type = 7, .region = "Fluid"};
    memcpy(s.sides, four_sides, sizeof s.sides);
    struct gw_mesh m;
    size_t per[2];
    gw_make(&s, &m);
    static const int versions[4][2] = {{22, 0}, {22, 1}, {41, 0}, {41, 1}};
    char id0[65] = "";
    for (int v = 0; v < 4; v++) {
        load_ok(&m, versions[v][0], versions[v][1]);
        frx_mesh_info in = mc_info(mesh);
        ck_assert_int_eq(in.ndims, 3);
        ck_assert_uint_eq(in.neles, 48);
        ck_assert_uint_eq(in.nblocks, 1);
        frx_mesh_block B = mc_block(mesh, 0);
        ck_assert_int_eq(B.etype, FRX_ETYPE_PYR);
        ck_assert_int_eq(B.order, 1);
        ck_assert_uint_eq(B.nshape, 5);
        ck_assert_uint_eq(B.nfaces, 5);
        /* 12 triangles inside each cube, a quadrilateral between two */
        ck_assert_uint_eq(in.nifaces, 8 * 12 + 12);
        ck_assert_uint_eq(in.nbcs, 6);
        for (size_t i = 0; i < 6; i++) {
            size_t nt, nq;
            count_bc_faces(i, &nt, &nq);
            ck_assert_str_eq(mc_bc(mesh, i).name, four_sides[i]);
            ck_assert_uint_eq(nt, 0);
            ck_assert_uint_eq(nq, 4);
        }
        check_shapes(&m, 7, 5, NULL);
        check_geometry(per);
        check_outward(0);
        check_fills(s.n);
        if (v == 0)
            memcpy(id0, in.id, sizeof id0);
        ck_assert_str_eq(in.id, id0);
    }
    gw_free(&m);
    /* 14-node, straight: points 5..12 amid the edges (0,1) (0,3) (0,4)
     * (1,2) (1,4) (2,3) (2,4) (3,4), 13 amid the base, Gmsh's order */
    s.type = 14;
    gw_make(&s, &m);
    load_ok(&m, 41, 1);
    frx_mesh_block B = mc_block(mesh, 0);
    ck_assert_int_eq(B.order, 2);
    ck_assert_uint_eq(B.nshape, 14);
    static const int mid[9][4] = {
        {0, 1, 0, 1}, {0, 3, 0, 3}, {0, 4, 0, 4}, {1, 2, 1, 2},
        {1, 4, 1, 4}, {2, 3, 2, 3}, {2, 4, 2, 4}, {3, 4, 3, 4},
        {0, 1, 2, 3}};
    for (size_t e = 0; e < B.neles; e++)
        for (int i = 0; i < 9; i++)
            for (int k = 0; k < 3; k++) {
                const double *x = B.shape + e * 14 * 3;
                double want = 0;
                for (int c = 0; c < 4; c++)
                    want += x[mid[i][c] * 3 + k] / 4;
                ck_assert_double_eq_tol(x[(5 + i) * 3 + k], want, 1e-15);
            }
    check_shapes(&m, 14, 14, NULL);
    check_geometry(per);
    check_outward(0);
    check_fills(s.n);
    gw_free(&m);
    /* 14-node, curved in x and y, periodic in x and z */
    s.map = bend_xy;
    s.sides[0] = "periodic_x_l";
    s.sides[1] = "periodic_x_r";
    s.sides[4] = "periodic_z_l";
    s.sides[5] = "periodic_z_r";
    gw_make(&s, &m);
    load_ok(&m, 22, 0);
    frx_mesh_info in = mc_info(mesh);
    ck_assert_uint_eq(in.nperiodic, 2);
    ck_assert_uint_eq(in.nbcs, 2);
    frx_mesh_periodic P = mc_periodic(mesh, 1);
    ck_assert(P.shift[0] == 0 && P.shift[1] == 0 && P.shift[2] == 2);
    check_shapes(&m, 14, 14, NULL);
    check_geometry(per);
    ck_assert_uint_eq(per[0], 2 * 2);
    ck_assert_uint_eq(per[1], 2 * 2);
    check_outward(0);
    gw_free(&m);
}
END_TEST

/* Hexahedra (x < 1), pyramids joining them to tetrahedra (1 < x < 2:
 * a cube's pyramid on its x-low face, four tetrahedra about it) and
 * tetrahedra (x > 2): a pyramid's base meets a hexahedron's
 * quadrilateral, its sides the tetrahedra's triangles. Three blocks by
 * type: tetrahedra, hexahedra, pyramids. */
START_TEST(mixed_hex_pyr_tet)
{
    struct gw_spec s = {.n = {3, 2, 2}, .type = 5, .type2 = 7, .axis2 = 0,
                        .from2 = 1, .type3 = 4, .from3 = 2, .pyr_tets = 1,
                        .region = "fluid"};
    memcpy(s.sides, four_sides, sizeof s.sides);
    struct gw_mesh m;
    size_t per[1];
    gw_make(&s, &m);
    load_ok(&m, 41, 0);
    frx_mesh_info in = mc_info(mesh);
    ck_assert_uint_eq(in.neles, 4 + 4 * 5 + 4 * 6);
    ck_assert_uint_eq(in.nblocks, 3);
    ck_assert_int_eq(mc_block(mesh, 0).etype, FRX_ETYPE_TET);
    ck_assert_uint_eq(mc_block(mesh, 0).neles, 4 * 4 + 4 * 6);
    ck_assert_int_eq(mc_block(mesh, 1).etype, FRX_ETYPE_HEX);
    ck_assert_uint_eq(mc_block(mesh, 1).neles, 4);
    ck_assert_int_eq(mc_block(mesh, 2).etype, FRX_ETYPE_PYR);
    ck_assert_uint_eq(mc_block(mesh, 2).neles, 4);
    ck_assert_uint_eq(cross_faces(1, 2, 4), 2 * 2); /* bases at x = 1 */
    ck_assert_uint_eq(cross_faces(0, 1, 4) + cross_faces(0, 2, 4), 0);
    /* a pyramid's sides: two inside its cube, one in y and one in z
     * meeting the next cube's tetrahedra where there is one */
    ck_assert_uint_eq(cross_faces(0, 2, 3), 4 * 2 + 2 + 2);
    check_block_shapes(2, &m, 7, 5, NULL);
    check_geometry(per);
    for (size_t b = 0; b < 3; b++)
        check_outward(b);
    check_fills(s.n);
    gw_free(&m);
    /* order 2, curved, periodic in z: each side's quadrilaterals and
     * triangles paired */
    s.type = 12;
    s.type2 = 14;
    s.type3 = 11;
    s.map = bend_xy;
    s.sides[4] = "periodic_z_l";
    s.sides[5] = "periodic_z_r";
    gw_make(&s, &m);
    load_ok(&m, 22, 1);
    in = mc_info(mesh);
    ck_assert_uint_eq(in.nperiodic, 1);
    ck_assert_uint_eq(mc_block(mesh, 2).nshape, 14);
    check_block_shapes(1, &m, 12, 27, NULL);
    check_block_shapes(2, &m, 14, 14, NULL);
    check_geometry(per);
    ck_assert_uint_eq(per[0], 2 + 2 * 2 + 2 * 2);
    ck_assert_uint_eq(cross_faces(0, 2, 3), 4 * 2 + 2 + 2 + 2);
    for (size_t b = 0; b < 3; b++)
        check_outward(b);
    gw_free(&m);
}
END_TEST

/* Without a region named fluid, the highest dimension's elements; a
 * boundary group with no name is named by its number. */
START_TEST(unnamed)
{
    struct gw_spec s = {.n = {2, 2, 0}, .type = 3};
    memcpy(s.sides, four_sides, sizeof s.sides);
    struct gw_mesh m;
    gw_make(&s, &m);
    m.nnames = 0; /* no $PhysicalNames entries at all */
    load_ok(&m, 22, 0);
    ck_assert_uint_eq(mc_info(mesh).neles, 4);
    ck_assert_uint_eq(mc_info(mesh).nbcs, 4);
    ck_assert_str_eq(mc_bc(mesh, 0).name, "2");
    ck_assert_str_eq(mc_bc(mesh, 3).name, "5");
    gw_free(&m);
}
END_TEST

START_TEST(case_keys)
{
    struct gw_spec s = {.n = {2, 2, 0}, .type = 3, .region = "fluid"};
    memcpy(s.sides, four_sides, sizeof s.sides);
    struct gw_mesh m;
    gw_make(&s, &m);
    load_ok(&m, 41, 0);
    ck_assert_int_eq(frx_config_check(cfg), FRX_OK);
    gw_free(&m);
    ck_assert_int_eq(make_case("{type: gmsh, file: nope.msh}"), FRX_EIO);
    assert_msg("case.yaml:3:26: 'mesh.file': ");
    assert_msg("/nope.msh: cannot open the mesh file: No such file");
    ck_assert_int_eq(make_case("{type: gmsh}"), FRX_ECONFIG);
    assert_msg("case.yaml:3:1: a mesh of type gmsh needs 'file'");
    ck_assert_int_eq(frx_config_check(cfg), FRX_ECONFIG);
    assert_msg("case.yaml:3:1: a mesh of type gmsh needs 'file'");
    make_case("{type: gmsh, file: nope.msh, n: [2, 2]}");
    ck_assert_int_eq(frx_config_check(cfg), FRX_ECONFIG);
    assert_msg("case.yaml:3:39: 'mesh.n' is a key of the box mesh");
    assert_msg("case.yaml:3:26: 'mesh.file': ");
    assert_msg("/nope.msh: cannot open the mesh file: No such file");
}
END_TEST

/* ------------------------------------------------------- bad files */

/* The base of the bad files: 3 x 4 quadrilaterals, periodic in x,
 * 'wall' below and 'lid' above, version 2.2 ASCII. */
static struct gw_mesh base;
static struct gw_file basef;

static void base_setup(int version, int binary, int type)
{
    struct gw_spec s = {.n = {3, 4, 0}, .type = type, .region = "Fluid",
                        .sides = {"periodic_0_l", "periodic_0_r", "wall",
                                  "lid"}};
    gw_make(&s, &base);
    gw_write(&base, version, binary, &basef);
}

static void base_free(void)
{
    gw_free(&base);
    gw_file_free(&basef);
}

/* Line `line` of text replaced by s (NULL: removed), in a new string. */
static char *set_line(const char *text, int line, const char *s)
{
    const char *a = text;
    for (int l = 1; l < line; l++)
        a = strchr(a, '\n') + 1;
    const char *b = strchr(a, '\n') + 1;
    size_t n = strlen(text) + (s ? strlen(s) : 0) + 2;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s%s", (int)(a - text), text, s ? s : "",
             s ? "\n" : "", b);
    return out;
}

/* Element i of the base's line, as text. */
static char *line_of_ele(size_t i, char *buf, size_t n)
{
    const char *a = basef.p;
    for (uint64_t l = 1; l < basef.line[i]; l++)
        a = strchr(a, '\n') + 1;
    snprintf(buf, n, "%.*s", (int)(strchr(a, '\n') - a), a);
    return buf;
}

/* The base's text with element i's type (2.2 ASCII) made `type`. */
static char *retype(size_t i, int type)
{
    char line[700], out[800];
    line_of_ele(i, line, sizeof line);
    const char *rest = strchr(strchr(line, ' ') + 1, ' '); /* " 2 1 1 .." */
    snprintf(out, sizeof out, "%llu %d%s",
             (unsigned long long)base.eles[i].tag, type, rest);
    return set_line(basef.p, (int)basef.line[i], out);
}

/* The first element of the base of Gmsh type `type` (and its index). */
static const struct gw_ele *first_of(int type, size_t *index)
{
    for (size_t i = 0; i < base.neles; i++)
        if (base.eles[i].type == type) {
            *index = i;
            return &base.eles[i];
        }
    ck_abort_msg("no element of type %d", type);
    return NULL;
}

static void expect_bad(const char *text, size_t n, int code,
                       const char *want1, const char *want2)
{
    ck_assert_int_eq(load_bytes("bad.msh", text, n), code);
    ck_assert_ptr_null(mesh);
    assert_msg(want1);
    if (want2)
        assert_msg(want2);
}

static void expect_bad_text(char *text, int code, const char *want1,
                            const char *want2)
{
    expect_bad(text, strlen(text), code, want1, want2);
    free(text);
}

START_TEST(bad_truncated)
{
    base_setup(22, 0, 3);
    size_t i;
    first_of(3, &i);
    char want[4600];
    const char *cut = basef.p;
    for (uint64_t l = 1; l < basef.line[i]; l++)
        cut = strchr(cut, '\n') + 1;
    snprintf(want, sizeof want, "bad.msh:%llu: the file ends inside "
             "$Elements (opened at ", (unsigned long long)basef.line[i]);
    expect_bad(basef.p, (size_t)(cut - basef.p) + 6, FRX_ECONFIG, want,
               "is it truncated?");
    base_free();
    /* binary: the byte offset where the file ends */
    base_setup(41, 1, 3);
    const char *eles = memmem(basef.p, basef.n, "$Elements\n", 10);
    const char *end = memmem(basef.p, basef.n, "\n$EndElements", 13);
    size_t n = (size_t)(end - basef.p) - 20;
    snprintf(want, sizeof want, "bad.msh, byte %zu: the file ends inside "
             "$Elements (opened at %s/bad.msh, byte %zu) (element ", n, dir,
             (size_t)(eles - basef.p));
    expect_bad(basef.p, n, FRX_ECONFIG, want, NULL);
    /* a count the rest of the file cannot hold */
    const char *nodes = memmem(basef.p, basef.n, "$Nodes\n", 7);
    n = (size_t)(nodes - basef.p) + 100;
    snprintf(want, sizeof want, "bad.msh, byte %zu: $Nodes says 20 nodes, "
             "more than the rest of the file can hold: is it truncated?",
             (size_t)(nodes - basef.p) + 7);
    expect_bad(basef.p, n, FRX_ECONFIG, want, NULL);
    base_free();
}
END_TEST

START_TEST(bad_element_type)
{
    base_setup(22, 0, 3);
    size_t i;
    first_of(3, &i);
    char want[4600];
    snprintf(want, sizeof want, "bad.msh:%llu: unknown element type 99 "
             "(element %zu of %zu)", (unsigned long long)basef.line[i], i + 1,
             base.neles);
    expect_bad_text(retype(i, 99), FRX_ECONFIG, want, NULL);
    base_free();
}
END_TEST

START_TEST(bad_missing_end)
{
    base_setup(22, 0, 3);
    int l = gw_line_of(basef.p, "$EndNodes");
    char *t = set_line(basef.p, l, NULL), want[4600];
    snprintf(want, sizeof want, "bad.msh:%d: expected $EndNodes to close "
             "$Nodes (opened at %s/bad.msh:%d), found '$Elements'", l, dir,
             gw_line_of(basef.p, "$Nodes"));
    expect_bad_text(t, FRX_ECONFIG, want, NULL);
    /* the last $End line */
    size_t n = strlen(basef.p) - strlen("$EndElements\n");
    snprintf(want, sizeof want, "the file ends before $EndElements closes "
             "$Elements (opened at %s/bad.msh:%d)", dir,
             gw_line_of(basef.p, "$Elements"));
    expect_bad(basef.p, n, FRX_ECONFIG, want, "is it truncated?");
    base_free();
}
END_TEST

START_TEST(bad_node_missing)
{
    base_setup(41, 0, 3);
    size_t i;
    const struct gw_ele *e = first_of(3, &i);
    char line[400], want[4600];
    snprintf(line, sizeof line, "%llu %llu %llu %llu 99999",
             (unsigned long long)e->tag, (unsigned long long)e->n[0],
             (unsigned long long)e->n[1], (unsigned long long)e->n[2]);
    snprintf(want, sizeof want, "bad.msh:%llu: element %llu names node "
             "99999, which $Nodes does not define",
             (unsigned long long)basef.line[i], (unsigned long long)e->tag);
    expect_bad_text(set_line(basef.p, (int)basef.line[i], line), FRX_ECONFIG,
                    want, NULL);
    base_free();
}
END_TEST

START_TEST(bad_periodic_unmatched)
{
    base_setup(22, 0, 3);
    /* move the node at (3, 2) on side r up by 0.25: the two faces of side
     * l at y in [1, 2] and [2, 3] lose their partners; the first is the
     * second face element of side l */
    uint64_t tag = 2 * (3 + 4 * 2) + 101;
    char key[64], line[200], want[4600];
    snprintf(key, sizeof key, "\n%llu 3 2 0\n", (unsigned long long)tag);
    int l = gw_line_of(basef.p, key) + 1;
    snprintf(line, sizeof line, "%llu 3 2.25 0", (unsigned long long)tag);
    snprintf(want, sizeof want, "bad.msh:%llu: the face element here "
             "(nodes %llu, %llu at (0, 1.5)) of 'periodic_0_l' has no partner "
             "in 'periodic_0_r' when moved by (3, 0)",
             (unsigned long long)basef.line[1],
             (unsigned long long)base.eles[1].n[0],
             (unsigned long long)base.eles[1].n[1]);
    expect_bad_text(set_line(basef.p, l, line), FRX_ECONFIG, want,
                    "must match face for face");
    base_free();
    /* a side without its partner; sides of unequal counts */
    base_setup(22, 0, 3);
    char *t = set_line(basef.p, gw_line_of(basef.p, "\"periodic_0_r\""),
                       "1 3 \"outlet\"");
    snprintf(want, sizeof want, "bad.msh:%d: 'periodic_0_l' has no partner: "
             "periodic pair 'periodic_0' needs both periodic_0_l and "
             "periodic_0_r", gw_line_of(basef.p, "\"periodic_0_l\""));
    expect_bad_text(t, FRX_ECONFIG, want, NULL);
    base_free();
    base_setup(22, 0, 3);
    base.eles[4].phys = 4; /* the first face of side r: a 'wall' face */
    gw_file_free(&basef);
    gw_write(&base, 22, 0, &basef);
    expect_bad(basef.p, basef.n, FRX_ECONFIG, "periodic pair 'periodic_0': "
               "'periodic_0_l' has 4 face(s) and 'periodic_0_r' 3", NULL);
    base_free();
}
END_TEST

START_TEST(bad_inverted)
{
    base_setup(22, 0, 3);
    size_t i;
    const struct gw_ele *e = first_of(3, &i);
    char line[400], want[4600];
    snprintf(line, sizeof line, "%llu 3 2 1 1 %llu %llu %llu %llu",
             (unsigned long long)e->tag, (unsigned long long)e->n[0],
             (unsigned long long)e->n[3], (unsigned long long)e->n[2],
             (unsigned long long)e->n[1]);
    snprintf(want, sizeof want, "bad.msh:%llu: element %llu (a 4-node "
             "quadrilateral (Gmsh type 3)) is inverted: its Jacobian is "
             "negative", (unsigned long long)basef.line[i],
             (unsigned long long)e->tag);
    expect_bad_text(set_line(basef.p, (int)basef.line[i], line), FRX_ECONFIG,
                    want, "corners must turn counter-clockwise");
    base_free();
    /* a 9-node quadrilateral whose corners are fine but whose mid-edge
     * point lies beyond the opposite edge */
    base_setup(41, 1, 10);
    e = first_of(10, &i);
    size_t id = (e->n[4] - 101) / 2;
    base.x[id][1] += 1.6;
    gw_file_free(&basef);
    gw_write(&base, 41, 1, &basef);
    snprintf(want, sizeof want, "element %llu (a 9-node quadrilateral (Gmsh "
             "type 10)) is inverted: its Jacobian is negative",
             (unsigned long long)e->tag);
    expect_bad(basef.p, basef.n, FRX_ECONFIG, "bad.msh, byte ", want);
    base_free();
}
END_TEST

START_TEST(bad_face)
{
    /* a wall face across a cell's diagonal */
    base_setup(22, 0, 3);
    size_t i = 0;
    while (base.eles[i].phys != 4)
        i++;
    const struct gw_ele *e = &base.eles[i];
    uint64_t diag = e->n[0] + 2 * 5; /* one lattice row (4 nodes) up, one
                                        across */
    char line[300], want[4600];
    snprintf(line, sizeof line, "%llu 1 2 4 4 %llu %llu",
             (unsigned long long)e->tag, (unsigned long long)e->n[0],
             (unsigned long long)diag);
    snprintf(want, sizeof want, "bad.msh:%llu: element %llu of 'wall' (a "
             "2-node line (Gmsh type 1), nodes %llu, %llu at ",
             (unsigned long long)basef.line[i], (unsigned long long)e->tag,
             (unsigned long long)e->n[0], (unsigned long long)diag);
    expect_bad_text(set_line(basef.p, (int)basef.line[i], line), FRX_ECONFIG,
                    want, "is no face of any element of the mesh");
    base_free();
    /* the lid left out of every group */
    base_setup(22, 0, 3);
    for (size_t k = 0; k < base.neles; k++)
        if (base.eles[k].phys == 5)
            base.eles[k].phys = 0;
    gw_file_free(&basef);
    gw_write(&base, 22, 0, &basef);
    size_t q = 0;
    while (base.eles[q].type != 3)
        q++;
    q += 9; /* the first element of the top row */
    snprintf(want, sizeof want, "bad.msh:%llu: face 2 of element %llu "
             "(nodes ", (unsigned long long)basef.line[q],
             (unsigned long long)base.eles[q].tag);
    expect_bad(basef.p, basef.n, FRX_ECONFIG, want,
               "meets no other element and is in no physical group (3 such "
               "faces in all)");
    /* a face in two groups */
    base.eles[base.neles++] = base.eles[i];
    base.eles[base.neles - 1].tag = 1000;
    base.eles[base.neles - 1].phys = 2;
    gw_file_free(&basef);
    gw_write(&base, 22, 0, &basef);
    expect_bad(basef.p, basef.n, FRX_ECONFIG, "bad.msh:", "puts a face in "
               "'periodic_0_l' that is in 'wall' already");
    base_free();
}
END_TEST

/* Two 9-node quadrilaterals whose shared edge (x = 1) each curves with
 * a middle node of its own: matched by corners alone they would leave
 * a gap. With one middle node for both, the curved edge loads. */
static const char curved_edge[] =
    "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
    "$PhysicalNames\n2\n1 1 \"wall\"\n2 2 \"fluid\"\n$EndPhysicalNames\n"
    "$Nodes\n16\n1 0 0 0\n2 1 0 0\n3 2 0 0\n4 0 1 0\n5 1 1 0\n6 2 1 0\n"
    "11 0.5 0 0\n12 1.5 0 0\n13 2 0.5 0\n14 1.5 1 0\n15 0.5 1 0\n"
    "16 0 0.5 0\n17 1.2 0.5 0\n18 0.9 0.5 0\n19 0.5 0.5 0\n20 1.5 0.5 0\n"
    "$EndNodes\n$Elements\n8\n1 8 2 1 1 1 2 11\n2 8 2 1 1 2 3 12\n"
    "3 8 2 1 1 3 6 13\n4 8 2 1 1 6 5 14\n5 8 2 1 1 5 4 15\n"
    "6 8 2 1 1 4 1 16\n7 10 2 2 1 1 2 5 4 11 17 15 16 19\n"
    "8 10 2 2 1 2 3 6 5 12 13 14 %d 20\n$EndElements\n";

START_TEST(bad_curved_edge)
{
    char text[sizeof curved_edge + 8];
    snprintf(text, sizeof text, curved_edge, 18);
    expect_bad(text, strlen(text), FRX_ECONFIG, "curve their shared face "
               "differently: its middle is at (1.2, 0.5) for the one and at "
               "(0.9, 0.5) for the other (two middle nodes)", NULL);
    snprintf(text, sizeof text, curved_edge, 17);
    ck_assert_msg(load_bytes("curved.msh", text, strlen(text)) == FRX_OK,
                  "%s", frx_errmsg());
}
END_TEST

/* Gmsh 2.2 lists an element once per physical group: with two unnamed
 * 2-D groups both copies are fluid, and the message says why. */
START_TEST(bad_element_listed_twice)
{
    static const char text[] =
        "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
        "$PhysicalNames\n1\n1 1 \"wall\"\n$EndPhysicalNames\n"
        "$Nodes\n6\n1 0 0 0\n2 1 0 0\n3 2 0 0\n4 0 1 0\n5 1 1 0\n6 2 1 0\n"
        "$EndNodes\n$Elements\n10\n1 1 2 1 1 1 2\n2 1 2 1 1 2 3\n"
        "3 1 2 1 1 3 6\n4 1 2 1 1 6 5\n5 1 2 1 1 5 4\n6 1 2 1 1 4 1\n"
        "7 3 2 2 1 1 2 5 4\n8 3 2 2 1 2 3 6 5\n7 3 2 3 1 1 2 5 4\n"
        "8 3 2 3 1 2 3 6 5\n$EndElements\n";
    expect_bad(text, strlen(text), FRX_ECONFIG, "they overlap (one element "
               "listed twice, as Gmsh 2.2 writes an element in two physical "
               "groups", NULL);
}
END_TEST

/* Two quadrilaterals side by side, their sides in 'wall', then the
 * elements after them (each line "tag type ..."). */
static char *two_quads(const char *more, int nmore)
{
    static const char head[] =
        "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
        "$PhysicalNames\n1\n1 1 \"wall\"\n$EndPhysicalNames\n"
        "$Nodes\n6\n1 0 0 0\n2 1 0 0\n3 2 0 0\n4 0 1 0\n5 1 1 0\n"
        "6 2 1 0\n$EndNodes\n$Elements\n%d\n1 1 2 1 1 1 2\n"
        "2 1 2 1 1 2 3\n3 1 2 1 1 3 6\n4 1 2 1 1 6 5\n5 1 2 1 1 5 4\n"
        "6 1 2 1 1 4 1\n7 3 2 2 1 1 2 5 4\n8 3 2 2 1 2 3 6 5\n%s"
        "$EndElements\n";
    size_t n = sizeof head + strlen(more) + 16;
    char *text = malloc(n);
    ck_assert_ptr_nonnull(text);
    snprintf(text, n, head, 8 + nmore, more);
    return text;
}

/* Faces that meet wrongly, each named with its elements' lines: three
 * elements on one face; two that overlap (a second element on the
 * first's nodes, not a copy Gmsh 2.2 wrote); a boundary's face between
 * two elements. */
START_TEST(bad_shared_face)
{
    char *t = two_quads("9 3 2 2 1 2 3 6 5\n", 1);
    expect_bad_text(t, FRX_ECONFIG, "bad.msh:25: a face (nodes 2, 5 at (1, "
                    "0.5)) is shared by more than two elements: element 7 "
                    "(at ", "bad.msh:25), element 8 (at ");
    assert_msg("bad.msh:26) and element 9 (at ");
    assert_msg("bad.msh:27)");
    t = two_quads("9 3 2 2 1 1 2 5 4\n", 1);
    expect_bad_text(t, FRX_ECONFIG, "bad.msh:27: element 7 (at ",
                    "bad.msh:25) and element 9 (at ");
    assert_msg("bad.msh:27) lie on the same side of their shared face "
               "(nodes 1, 2 at (0.5, 0)): they overlap");
    ck_assert_ptr_null(strstr(frx_errmsg(), "listed twice"));
    t = two_quads("9 1 2 1 1 2 5\n", 1);
    expect_bad_text(t, FRX_ECONFIG, "bad.msh:27: element 9 of 'wall' (nodes "
                    "2, 5 at (1, 0.5)) lies between two elements, element 7 "
                    "(at ", "bad.msh:25) and element 8 (at ");
    assert_msg("bad.msh:26), not on the mesh's boundary");
}
END_TEST

/* An MSH 4.1 element block naming an entity $Entities lacks. */
START_TEST(bad_entity)
{
    static const char text[] =
        "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
        "$PhysicalNames\n2\n1 1 \"wall\"\n2 2 \"fluid\"\n$EndPhysicalNames\n"
        "$Entities\n0 1 1 0\n1 0 0 0 2 1 0 1 1 0\n1 0 0 0 2 1 0 1 2 0\n"
        "$EndEntities\n"
        "$Nodes\n1 6 1 6\n2 1 0 6\n1\n2\n3\n4\n5\n6\n"
        "0 0 0\n1 0 0\n2 0 0\n0 1 0\n1 1 0\n2 1 0\n$EndNodes\n"
        "$Elements\n2 8 1 8\n1 1 1 6\n1 1 2\n2 2 3\n3 3 6\n4 6 5\n5 5 4\n"
        "6 4 1\n2 7 3 2\n7 1 2 5 4\n8 2 3 6 5\n$EndElements\n";
    expect_bad(text, strlen(text), FRX_ECONFIG, "bad.msh:39: element block "
               "2 names entity 7 of dimension 2, which $Entities does not "
               "define", NULL);
}
END_TEST

START_TEST(bad_no_elements)
{
    base_setup(22, 0, 3);
    for (size_t k = 0; k < base.neles; k++)
        if (base.eles[k].type == 3)
            base.eles[k].phys = 7;
    gw_file_free(&basef);
    gw_write(&base, 22, 0, &basef);
    char want[4600];
    snprintf(want, sizeof want, "bad.msh:%d: the region 'Fluid' has no 2-D "
             "elements", gw_line_of(basef.p, "\"Fluid\""));
    expect_bad(basef.p, basef.n, FRX_ECONFIG, want, NULL);
    /* only lines and points */
    size_t n = 0;
    for (size_t k = 0; k < base.neles; k++)
        if (base.eles[k].type != 3)
            base.eles[n++] = base.eles[k];
    base.neles = n;
    base.nnames = 0;
    gw_file_free(&basef);
    gw_write(&base, 41, 1, &basef);
    expect_bad(basef.p, basef.n, FRX_ECONFIG, "bad.msh: the mesh has no "
               "elements of dimension 2 or 3", NULL);
    base_free();
}
END_TEST

START_TEST(bad_headers)
{
    base_setup(22, 1, 3);
    /* the endianness marker of a big-endian writer */
    char *t = malloc(basef.n);
    memcpy(t, basef.p, basef.n);
    char *one = (char *)memmem(t, basef.n, "2.2 1 8\n", 8) + 8;
    memcpy(one, "\0\0\0\1", 4);
    char want[4600];
    snprintf(want, sizeof want, "bad.msh, byte %zu: the file is big-endian",
             (size_t)(one - t));
    expect_bad(t, basef.n, FRX_ENOTSUP, want, NULL);
    free(t);
    base_free();
    base_setup(22, 0, 3);
    expect_bad_text(set_line(basef.p, 2, "3.0 0 8"), FRX_ENOTSUP,
                    "bad.msh:2: Gmsh file format 3.0: frx reads versions "
                    "2.2 and 4.1", NULL);
    expect_bad_text(set_line(basef.p, 1, "$Nodes"), FRX_ECONFIG,
                    "bad.msh:1: the file starts with $Nodes, not $MeshFormat",
                    NULL);
    base_free();
}
END_TEST

START_TEST(bad_lines)
{
    base_setup(22, 0, 3);
    size_t i;
    const struct gw_ele *e = first_of(3, &i);
    char line[400], want[4500];
    line_of_ele(i, line, sizeof line);
    *strrchr(line, ' ') = 0; /* one node tag short */
    snprintf(want, sizeof want, "bad.msh:%llu: element %llu has fewer values "
             "than a 4-node quadrilateral (Gmsh type 3) with 2 tags needs",
             (unsigned long long)basef.line[i], (unsigned long long)e->tag);
    expect_bad_text(set_line(basef.p, (int)basef.line[i], line), FRX_ECONFIG,
                    want, NULL);
    /* a node out of the plane */
    int l = gw_line_of(basef.p, "\n103 ") + 1;
    snprintf(want, sizeof want, "bad.msh:%d: node 103 lies at z = 0.5 but "
             "node 101 (at %s/bad.msh:%d) at z = 0: a 2-D mesh must lie in a "
             "plane z = constant", l, dir, l - 1);
    expect_bad_text(set_line(basef.p, l, "103 1 0 0.5"), FRX_ECONFIG, want,
                    NULL);
    /* a node defined twice */
    snprintf(want, sizeof want, "bad.msh:%d: node 101 is defined a second "
             "time (first at %s/bad.msh:%d)", l, dir, l - 1);
    expect_bad_text(set_line(basef.p, l, "101 1 0 0"), FRX_ECONFIG, want,
                    NULL);
    base_free();
}
END_TEST

START_TEST(bad_unsupported)
{
    /* a 9-node quadrilateral relabelled a 9-node (third-order) triangle */
    base_setup(22, 0, 10);
    size_t i;
    const struct gw_ele *e = first_of(10, &i);
    char want[4600];
    snprintf(want, sizeof want, "bad.msh:%llu: element %llu is a 9-node "
             "triangle (Gmsh type 20), of shape order 3: frx holds shape "
             "order 1 and 2", (unsigned long long)basef.line[i],
             (unsigned long long)e->tag);
    expect_bad_text(retype(i, 20), FRX_ENOTSUP, want, NULL);
    base_free();
}
END_TEST

/* Tetrahedra refused as hexahedra are: inverted (at a corner, or at a
 * curved point), a loose face, a periodic face with no partner, a face
 * element across a cube's other diagonal. Base: 2 x 2 x 2 cubes of 6,
 * periodic in z. */
static void tet_setup(int type, int version, int binary)
{
    struct gw_spec s = {.n = {2, 2, 2}, .type = type, .region = "fluid",
                        .sides = {"left", "right", "wall", "lid",
                                  "periodic_0_l", "periodic_0_r"}};
    gw_make(&s, &base);
    gw_write(&base, version, binary, &basef);
}

START_TEST(bad_tetrahedra)
{
    tet_setup(4, 22, 0);
    size_t i;
    const struct gw_ele *e = first_of(4, &i);
    char line[400], want[4600];
    snprintf(line, sizeof line, "%llu 4 2 1 1 %llu %llu %llu %llu",
             (unsigned long long)e->tag, (unsigned long long)e->n[0],
             (unsigned long long)e->n[2], (unsigned long long)e->n[1],
             (unsigned long long)e->n[3]);
    snprintf(want, sizeof want, "bad.msh:%llu: element %llu (a 4-node "
             "tetrahedron (Gmsh type 4)) is inverted: its Jacobian is "
             "negative", (unsigned long long)basef.line[i],
             (unsigned long long)e->tag);
    expect_bad_text(set_line(basef.p, (int)basef.line[i], line), FRX_ECONFIG,
                    want, "a tetrahedron's corners 0-2 must turn "
                    "counter-clockwise seen from corner 3");
    /* a wall triangle across the cube's other diagonal */
    size_t w = 0;
    while (base.eles[w].phys != 4)
        w++;
    const struct gw_ele *f = &base.eles[w];
    uint64_t other = f->n[0] + 2 * 1; /* the corner beside n[0] in x */
    snprintf(line, sizeof line, "%llu 2 2 4 4 %llu %llu %llu",
             (unsigned long long)f->tag, (unsigned long long)other,
             (unsigned long long)f->n[1], (unsigned long long)f->n[2]);
    snprintf(want, sizeof want, "bad.msh:%llu: element %llu of 'wall' (a "
             "3-node triangle (Gmsh type 2), nodes ",
             (unsigned long long)basef.line[w], (unsigned long long)f->tag);
    expect_bad_text(set_line(basef.p, (int)basef.line[w], line), FRX_ECONFIG,
                    want, "is no face of any element of the mesh");
    base_free();
    /* one lid triangle left out of every group */
    tet_setup(4, 22, 0);
    w = 0;
    while (base.eles[w].phys != 5)
        w++;
    base.eles[w].phys = 0;
    gw_file_free(&basef);
    gw_write(&base, 22, 0, &basef);
    expect_bad(basef.p, basef.n, FRX_ECONFIG, "bad.msh:", "meets no other "
               "element and is in no physical group (1 such face)");
    base_free();
    /* the corner (2, 0, 2) of side r moved along it: the one triangle
     * there loses its partner */
    tet_setup(4, 22, 0);
    uint64_t tag = 2 * (2 + 3 * (0 + 3 * 2)) + 101;
    char key[64];
    snprintf(key, sizeof key, "\n%llu 2 0 2\n", (unsigned long long)tag);
    int l = gw_line_of(basef.p, key) + 1;
    snprintf(line, sizeof line, "%llu 2 0.25 2", (unsigned long long)tag);
    expect_bad_text(set_line(basef.p, l, line), FRX_ECONFIG, "of "
                    "'periodic_0_l' has no partner in 'periodic_0_r' when "
                    "moved by (0, 0, 2)", "must match face for face");
    base_free();
    /* 10-node: a mid-edge point beyond the opposite face */
    tet_setup(11, 41, 1);
    e = first_of(11, &i);
    size_t id = (e->n[4] - 101) / 2;
    base.x[id][1] += 1.6;
    gw_file_free(&basef);
    gw_write(&base, 41, 1, &basef);
    snprintf(want, sizeof want, "element %llu (a 10-node tetrahedron (Gmsh "
             "type 11)) is inverted: its Jacobian is negative",
             (unsigned long long)e->tag);
    expect_bad(basef.p, basef.n, FRX_ECONFIG, "bad.msh, byte ", want);
    /* that point along its edge (0, 1): the map's derivative along the
     * edge at corner 0 is (4 t - 1) (x1 - x0) with the point at
     * x0 + t (x1 - x0), so t = 0.3 is fine and t = 0.2 inverted there */
    for (int k = 0; k < 3; k++)
        base.x[id][k] = 0.7 * base.x[(e->n[0] - 101) / 2][k] +
                        0.3 * base.x[(e->n[1] - 101) / 2][k];
    gw_file_free(&basef);
    gw_write(&base, 41, 0, &basef);
    ck_assert_msg(load_bytes("bent.msh", basef.p, basef.n) == FRX_OK, "%s",
                  frx_errmsg());
    for (int k = 0; k < 3; k++)
        base.x[id][k] = 0.8 * base.x[(e->n[0] - 101) / 2][k] +
                        0.2 * base.x[(e->n[1] - 101) / 2][k];
    gw_file_free(&basef);
    gw_write(&base, 41, 0, &basef);
    snprintf(want, sizeof want, "element %llu (a 10-node tetrahedron (Gmsh "
             "type 11)) is inverted: its Jacobian is negative",
             (unsigned long long)e->tag);
    expect_bad(basef.p, basef.n, FRX_ECONFIG, want, "at its point 0");
    base_free();
}
END_TEST

/* Prisms refused as tetrahedra are: inverted (at a corner, or at a
 * curved point), a face element across a cube's other diagonal. Base:
 * 2 x 2 x 2 cubes of 2, periodic in z. */
START_TEST(bad_prisms)
{
    tet_setup(6, 22, 0);
    size_t i;
    const struct gw_ele *e = first_of(6, &i);
    char line[400], want[4600];
    /* the bottom triangle's corners 1 and 2 swapped, and the top's */
    snprintf(line, sizeof line, "%llu 6 2 1 1 %llu %llu %llu %llu %llu %llu",
             (unsigned long long)e->tag, (unsigned long long)e->n[0],
             (unsigned long long)e->n[2], (unsigned long long)e->n[1],
             (unsigned long long)e->n[3], (unsigned long long)e->n[5],
             (unsigned long long)e->n[4]);
    snprintf(want, sizeof want, "bad.msh:%llu: element %llu (a 6-node "
             "prism (Gmsh type 6)) is inverted: its Jacobian is negative",
             (unsigned long long)basef.line[i], (unsigned long long)e->tag);
    expect_bad_text(set_line(basef.p, (int)basef.line[i], line), FRX_ECONFIG,
                    want, "a prism's corners 0-2 must turn "
                    "counter-clockwise seen from corners 3-5");
    /* a lid triangle (z = 2) across the square's other diagonal */
    size_t w = 0;
    while (base.eles[w].phys != 7)
        w++;
    const struct gw_ele *f = &base.eles[w];
    uint64_t other = f->n[0] + 2 * 3; /* the corner beside n[0] in y */
    snprintf(line, sizeof line, "%llu 2 2 7 7 %llu %llu %llu",
             (unsigned long long)f->tag, (unsigned long long)other,
             (unsigned long long)f->n[1], (unsigned long long)f->n[2]);
    snprintf(want, sizeof want, "bad.msh:%llu: element %llu of "
             "'periodic_0_r' (a 3-node triangle (Gmsh type 2), nodes ",
             (unsigned long long)basef.line[w], (unsigned long long)f->tag);
    expect_bad_text(set_line(basef.p, (int)basef.line[w], line), FRX_ECONFIG,
                    want, "is no face of any element of the mesh");
    base_free();
    /* 18-node: the middle of edge (0, 1) at t along it; the map's
     * derivative along the edge at corner 0 is (4 t - 1) (x1 - x0), so
     * t = 0.3 is fine and t = 0.2 inverted there */
    tet_setup(13, 41, 0);
    e = first_of(13, &i);
    size_t id = (e->n[6] - 101) / 2;
    const double *x0 = base.x[(e->n[0] - 101) / 2];
    const double *x1 = base.x[(e->n[1] - 101) / 2];
    for (int k = 0; k < 3; k++)
        base.x[id][k] = 0.7 * x0[k] + 0.3 * x1[k];
    gw_file_free(&basef);
    gw_write(&base, 41, 0, &basef);
    ck_assert_msg(load_bytes("bent.msh", basef.p, basef.n) == FRX_OK, "%s",
                  frx_errmsg());
    for (int k = 0; k < 3; k++)
        base.x[id][k] = 0.8 * x0[k] + 0.2 * x1[k];
    gw_file_free(&basef);
    gw_write(&base, 41, 1, &basef);
    snprintf(want, sizeof want, "element %llu (an 18-node prism (Gmsh type "
             "13)) is inverted: its Jacobian is negative",
             (unsigned long long)e->tag);
    expect_bad(basef.p, basef.n, FRX_ECONFIG, "bad.msh, byte ", want);
    assert_msg("at its point 0");
    base_free();
    /* the centre of face (0,1,4,3) moved past the middle of the
     * opposite edge (2,5): inverted there */
    tet_setup(13, 22, 1);
    e = first_of(13, &i);
    id = (e->n[15] - 101) / 2;
    const double *m25 = base.x[(e->n[11] - 101) / 2];
    for (int k = 0; k < 3; k++)
        base.x[id][k] += 1.6 * (m25[k] - base.x[id][k]);
    gw_file_free(&basef);
    gw_write(&base, 22, 1, &basef);
    snprintf(want, sizeof want, "element %llu (an 18-node prism (Gmsh type "
             "13)) is inverted: its Jacobian is negative",
             (unsigned long long)e->tag);
    expect_bad(basef.p, basef.n, FRX_ECONFIG, "bad.msh, byte ", want);
    base_free();
}
END_TEST

/* 13-node pyramids, 15-node prisms and third-order tetrahedra: named,
 * and what frx takes; an inverted pyramid. */
START_TEST(bad_unsupported_3d)
{
    static const char pyramid13[] =
        "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
        "$Nodes\n5\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 0 0 1\n"
        "$EndNodes\n"
        "$Elements\n1\n7 19 2 1 1 1 2 3 4 5 1 1 1 1 1 1 1 1\n"
        "$EndElements\n";
    expect_bad(pyramid13, strlen(pyramid13), FRX_ENOTSUP, "bad.msh:14: "
               "element 7 is a 13-node pyramid (Gmsh type 19): frx takes "
               "pyramids of 5 and 14 nodes (Gmsh types 7 and 14), not 13; "
               "mesh with Mesh.SecondOrderIncomplete = 0", NULL);
    /* the base turning clockwise seen from the apex */
    static const char inverted[] =
        "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
        "$Nodes\n5\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 0.5 0.5 1\n"
        "$EndNodes\n"
        "$Elements\n1\n7 7 2 1 1 1 4 3 2 5\n$EndElements\n";
    expect_bad(inverted, strlen(inverted), FRX_ECONFIG, "bad.msh:14: "
               "element 7 (a 5-node pyramid (Gmsh type 7)) is inverted: its "
               "Jacobian is negative", "at its point 0, node 1 at (0, 0, 0): "
               "a pyramid's base corners 0-3 must turn counter-clockwise "
               "seen from its apex 4");
    /* 14-node: the middle of edge (0, 1) at t = 0.2 along it (the map's
     * derivative there is (4 t - 1) (x1 - x0) at corner 0) */
    static const char bent[] =
        "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
        "$Nodes\n14\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 0.5 0.5 1\n"
        "6 0.2 0 0\n7 0 0.5 0\n8 0.25 0.25 0.5\n9 1 0.5 0\n"
        "10 0.75 0.25 0.5\n11 0.5 1 0\n12 0.75 0.75 0.5\n"
        "13 0.25 0.75 0.5\n14 0.5 0.5 0\n$EndNodes\n"
        "$Elements\n1\n7 14 2 1 1 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n"
        "$EndElements\n";
    expect_bad(bent, strlen(bent), FRX_ECONFIG, "bad.msh:23: element 7 (a "
               "14-node pyramid (Gmsh type 14)) is inverted: its Jacobian is "
               "negative", "at its point 0, node 1 at (0, 0, 0)");
    static const char prism15[] =
        "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
        "$Nodes\n6\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 1 0 1\n"
        "6 0 1 1\n$EndNodes\n"
        "$Elements\n1\n8 18 2 1 1 1 2 3 4 5 6 1 1 1 1 1 1 1 1 1\n"
        "$EndElements\n";
    expect_bad(prism15, strlen(prism15), FRX_ENOTSUP, "bad.msh:15: element "
               "8 is a 15-node prism (Gmsh type 18): frx takes prisms of 6 "
               "and 18 nodes (Gmsh types 6 and 13), not 15; mesh with "
               "Mesh.SecondOrderIncomplete = 0", NULL);
    char text[2048];
    size_t n = (size_t)snprintf(text, sizeof text, "$MeshFormat\n2.2 0 8\n"
                                "$EndMeshFormat\n$Nodes\n20\n");
    for (int k = 1; k <= 20; k++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%d %d %d %d\n", k,
                              k % 4, k / 4 % 4, k / 16);
    n += (size_t)snprintf(text + n, sizeof text - n, "$EndNodes\n"
                          "$Elements\n1\n9 29 2 1 1");
    for (int k = 1; k <= 20; k++)
        n += (size_t)snprintf(text + n, sizeof text - n, " %d", k);
    snprintf(text + n, sizeof text - n, "\n$EndElements\n");
    expect_bad(text, strlen(text), FRX_ENOTSUP, "bad.msh:29: element 9 is a "
               "20-node tetrahedron (Gmsh type 29), of shape order 3: frx "
               "holds shape order 1 and 2", NULL);
}
END_TEST

/* ------------------------------------------------------ PyFR's mesh */

START_TEST(pyfr_vortex)
{
    char m[4200];
    snprintf(m, sizeof m, "{type: gmsh, file: %s}", pyfr_file);
    int rc = make_case(m);
    ck_assert_msg(rc == FRX_OK, "%s", frx_errmsg());
    frx_mesh_info in = mc_info(mesh);
    ck_assert_int_eq(in.ndims, 2);
    ck_assert_uint_eq(in.neles, 400);
    ck_assert_uint_eq(in.nblocks, 1);
    ck_assert_int_eq(mc_block(mesh, 0).etype, FRX_ETYPE_QUAD);
    ck_assert_int_eq(mc_block(mesh, 0).order, 1);
    ck_assert_uint_eq(in.nbcs, 0);           /* no boundary faces left */
    ck_assert_uint_eq(in.npeers, 0);
    ck_assert_uint_eq(in.nifaces, 800);      /* every face interior */
    ck_assert_uint_eq(in.nperiodic, 2);
    size_t per[2];
    check_geometry(per);
    for (size_t p = 0; p < 2; p++) {
        frx_mesh_periodic P = mc_periodic(mesh, p);
        char name[32];
        snprintf(name, sizeof name, "periodic_%zu", p);
        ck_assert_str_eq(P.name, name);
        ck_assert_uint_eq(per[p], 20);       /* both pairs matched */
        /* one side of [-10, 10]^2 onto the other */
        ck_assert_msg(fabs(P.shift[p]) == 20 && P.shift[1 - p] == 0,
                      "pair %zu shift (%g, %g)", p, P.shift[0], P.shift[1]);
    }
    /* the elements fill [-10, 10]^2 */
    frx_mesh_block B = mc_block(mesh, 0);
    double lo = 0, hi = 0;
    for (size_t i = 0; i < B.neles * B.nshape * 2; i++) {
        lo = fmin(lo, B.shape[i]);
        hi = fmax(hi, B.shape[i]);
    }
    ck_assert(fabs(lo + 10) < 1e-9 && fabs(hi - 10) < 1e-9);
}
END_TEST

/* The same on several ranks (METIS, weights 3, 1, ...): every element
 * on one rank, every face once, each peer's count the same both ways. */
START_TEST(pyfr_vortex_ranks)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char m[4400], cfile[4200];
    size_t len = (size_t)snprintf(m, sizeof m, "backend: {precision: "
                                  "double}\nmesh: {type: gmsh, file: %s}\n"
                                  "partition: {weights: [3", pyfr_file);
    for (int r = 1; r < size; r++)
        len += (size_t)snprintf(m + len, sizeof m - len, ", 1");
    snprintf(m + len, sizeof m - len, "]}\n");
    snprintf(cfile, sizeof cfile, "%s/case.yaml", dir);
    ck_assert_int_eq(frx_config_parse(m, strlen(m), cfile, &cfg), FRX_OK);
    int rc = frx_mesh_create(cfg, MPI_COMM_WORLD, &mesh);
    ck_assert_msg(rc == FRX_OK, "%s", frx_errmsg());
    frx_mesh_info in = mc_info(mesh);
    unsigned long long n = in.neles, total = 0;
    MPI_Allreduce(&n, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                  MPI_COMM_WORLD);
    ck_assert_uint_eq(total, 400);
    ck_assert_uint_eq(in.nbcs, 0);
    ck_assert_uint_gt(in.npeers, 0);
    size_t shared = 0;
    for (size_t i = 0; i < in.npeers; i++) {
        frx_mesh_peer P = {.size = sizeof P};
        ck_assert_int_eq(frx_mesh_get_peer(mesh, i, &P), FRX_OK);
        unsigned long long mine = P.nfaces, theirs = 0;
        MPI_Sendrecv(&mine, 1, MPI_UNSIGNED_LONG_LONG, P.rank, 0, &theirs, 1,
                     MPI_UNSIGNED_LONG_LONG, P.rank, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        ck_assert_uint_eq(mine, theirs);
        shared += P.nfaces;
    }
    ck_assert_uint_eq(4 * in.neles, 2 * in.nifaces + shared);
}
END_TEST

static Suite *gmsh_suite(void)
{
    Suite *s = suite_create("gmsh");
    TCase *tc = tcase_create("good");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, formats_agree);
    tcase_add_test(tc, triangles_periodic);
    tcase_add_test(tc, second_order);
    tcase_add_test(tc, hexahedra);
    tcase_add_test(tc, tetrahedra);
    tcase_add_test(tc, mixed_tet_hex);
    tcase_add_test(tc, prisms);
    tcase_add_test(tc, mixed_hex_pri);
    tcase_add_test(tc, mixed_tet_pri);
    tcase_add_test(tc, pyramids);
    tcase_add_test(tc, mixed_hex_pyr_tet);
    tcase_add_test(tc, unnamed);
    tcase_add_test(tc, case_keys);
    suite_add_tcase(s, tc);
    TCase *bad = tcase_create("bad");
    tcase_add_checked_fixture(bad, NULL, teardown);
    tcase_add_test(bad, bad_truncated);
    tcase_add_test(bad, bad_element_type);
    tcase_add_test(bad, bad_missing_end);
    tcase_add_test(bad, bad_node_missing);
    tcase_add_test(bad, bad_periodic_unmatched);
    tcase_add_test(bad, bad_inverted);
    tcase_add_test(bad, bad_face);
    tcase_add_test(bad, bad_curved_edge);
    tcase_add_test(bad, bad_entity);
    tcase_add_test(bad, bad_element_listed_twice);
    tcase_add_test(bad, bad_shared_face);
    tcase_add_test(bad, bad_no_elements);
    tcase_add_test(bad, bad_headers);
    tcase_add_test(bad, bad_lines);
    tcase_add_test(bad, bad_unsupported);
    tcase_add_test(bad, bad_tetrahedra);
    tcase_add_test(bad, bad_prisms);
    tcase_add_test(bad, bad_unsupported_3d);
    suite_add_tcase(s, bad);
    return s;
}

static Suite *pyfr_suite(void)
{
    Suite *s = suite_create("gmsh-pyfr");
    TCase *tc = tcase_create("pyfr");
    tcase_add_checked_fixture(tc, NULL, teardown);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    tcase_add_test(tc, size == 1 ? pyfr_vortex : pyfr_vortex_ranks);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "pyfr")) {
        pyfr_file = argv[2];
        if (access(pyfr_file, R_OK) != 0) {
            printf("FAIL: PyFR's vortex mesh %s cannot be read (it ships "
                   "in config/meshes/)\n", pyfr_file);
            return 1;
        }
    }
    MPI_Init(&argc, &argv);
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/frx-gmsh-XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        MPI_Finalize();
        return 1;
    }
    SRunner *sr = srunner_create(pyfr_file ? pyfr_suite() : gmsh_suite());
    srunner_set_fork_status(sr, CK_NOFORK); /* MPI is started once */
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    teardown();
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    MPI_Finalize();
    return failed ? 1 : 0;
}
