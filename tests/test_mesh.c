/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the box mesh on one rank: counts of elements, faces and
 * boundaries, orientation, face geometry (both sides of every face meet,
 * periodic ones one shift apart), quadrilaterals, triangles, hexahedra,
 * tetrahedra and prisms (each face outward, the volumes filling the
 * box),
 * shape points of order 2, the mesh id,
 * and the file:line:col refusals of bad cases (at create and in
 * frx_config_check). Runs without fork: MPI is started once. */
#include "meshcheck.h"
#include "meshutil.h"

#include <check.h>
#include <frx/mesh.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static frx_config *cfg;
static frx_mesh *mesh;

static void teardown(void)
{
    frx_mesh_destroy(mesh);
    mesh = NULL;
    frx_config_free(cfg);
    cfg = NULL;
}

/* A case whose mesh section is `m` (flow style, one line). */
static int make(const char *m)
{
    char text[2048];
    teardown();
    snprintf(text, sizeof text, "backend:\n  precision: double\nmesh: %s\n",
             m);
    int rc = frx_config_parse(text, strlen(text), "case.yaml", &cfg);
    ck_assert_msg(rc == FRX_OK, "%s", frx_errmsg());
    return frx_mesh_create(cfg, MPI_COMM_SELF, &mesh);
}

static void make_ok(const char *m)
{
    int rc = make(m);
    ck_assert_msg(rc == FRX_OK, "%s: %s", m, frx_errmsg());
}

static const frx_mesh_iface *ifaces(size_t *n)
{
    const frx_mesh_iface *f;
    size_t elsize;
    ck_assert_int_eq(frx_mesh_get_ifaces(mesh, &f, n, &elsize), FRX_OK);
    ck_assert_uint_eq(elsize, sizeof *f);
    return f;
}

static void shift_of(int32_t p, double *s)
{
    frx_mesh_periodic x = {.size = sizeof x};
    memset(s, 0, 3 * sizeof *s);
    if (p < 0)
        return;
    ck_assert_int_eq(frx_mesh_get_periodic(mesh, (size_t)p, &x), FRX_OK);
    memcpy(s, x.shift, sizeof x.shift);
}

/* The point (s, t) of a face side: corner 0 + s (corner 1 - corner 0)
 * + t (corner n-1 - corner 0) (a triangle's, or the bilinear one of a
 * quadrilateral's). */
static void face_point(frx_face side, int nc, double s, double t,
                       double *x)
{
    double c[4][3];
    for (int k = 0; k < nc; k++)
        mu_face_corner(mesh, side, k, c[k]);
    for (int d = 0; d < 3; d++)
        x[d] = nc == 3 ? c[0][d] + s * (c[1][d] - c[0][d]) +
                             t * (c[2][d] - c[0][d])
                       : (1 - s) * (1 - t) * c[0][d] + s * (1 - t) * c[1][d] +
                             s * t * c[2][d] + (1 - s) * t * c[3][d];
}

/* docs/mesh.md's tables: the point (s, t) of one side is (s', t') of
 * the other. */
static void other_st(int nc, int rot, double s, double t, double *st)
{
    const double tri[3][2] = {{t, s}, {1 - s - t, t}, {s, 1 - s - t}};
    const double quad[4][2] = {{t, s}, {1 - s, t}, {1 - t, 1 - s},
                               {s, 1 - t}};
    st[0] = nc == 3 ? tri[rot][0] : quad[rot][0];
    st[1] = nc == 3 ? tri[rot][1] : quad[rot][1];
}

/* Both sides of every interior face meet corner for corner: in 2-D
 * walking opposite ways, in 3-D as rot says (and a point inside, as
 * docs/mesh.md's rot tables say); r at l + shift. */
static void check_ifaces(void)
{
    size_t n;
    const frx_mesh_iface *f = ifaces(&n);
    int d = mc_info(mesh).ndims;
    for (size_t i = 0; i < n; i++) {
        double shift[3], a[3], b[3];
        shift_of(f[i].periodic, shift);
        int nc = mu_face_ncorners(mesh, f[i].l);
        ck_assert_int_eq(nc, mu_face_ncorners(mesh, f[i].r));
        ck_assert_int_eq(f[i].l.rot, f[i].r.rot);
        for (int k = 0; k < nc; k++) {
            int other = d == 2 ? nc - 1 - k : (f[i].l.rot - k + nc) % nc;
            mu_face_corner(mesh, f[i].l, k, a);
            mu_face_corner(mesh, f[i].r, other, b);
            ck_assert_msg(mu_dist(b, a, shift, d) < 1e-12,
                          "face %zu corner %d: (%g, %g, %g) and (%g, %g, "
                          "%g)", i, k, a[0], a[1], d == 3 ? a[2] : 0, b[0],
                          b[1], d == 3 ? b[2] : 0);
        }
        if (d == 3) {
            double st[2];
            other_st(nc, f[i].l.rot, 0.2, 0.3, st);
            face_point(f[i].l, nc, 0.2, 0.3, a);
            face_point(f[i].r, nc, st[0], st[1], b);
            ck_assert_msg(mu_dist(b, a, shift, d) < 1e-12, "face %zu: its "
                          "point (0.2, 0.3) is not (%g, %g) of the other "
                          "side (rot %d)", i, st[0], st[1], f[i].l.rot);
        }
        /* l is the canonical side */
        if (f[i].periodic < 0) {
            uint64_t gl = mu_gid(mesh, f[i].l), gr = mu_gid(mesh, f[i].r);
            ck_assert(gl < gr || (gl == gr && f[i].l.face < f[i].r.face));
        }
    }
}

static void check_orientation(void)
{
    frx_mesh_info in = mc_info(mesh);
    uint64_t next = 0;
    for (size_t b = 0; b < in.nblocks; b++) {
        frx_mesh_block B = mc_block(mesh, b);
        for (size_t e = 0; e < B.neles; e++) {
            ck_assert_msg(mu_orientation(mesh, (uint32_t)b, (uint32_t)e) > 0,
                          "element %zu of block %zu is inverted", e, b);
            if (in.nblocks == 1)
                ck_assert_uint_eq(B.gid[e], next++);
        }
    }
}

/* Boundary faces lie on their side of the box [lo, hi]. */
static void check_bcs(const double *lo, const double *hi)
{
    frx_mesh_info in = mc_info(mesh);
    for (size_t i = 0; i < in.nbcs; i++) {
        frx_mesh_bc B = mc_bc(mesh, i);
        static const char *const names[] = {"left", "right", "bottom",
                                            "top", "back", "front"};
        int which = 0;
        while (which < 6 && strcmp(names[which], B.name))
            which++;
        ck_assert_int_lt(which, 6);
        ck_assert_uint_eq(B.face_size, sizeof(frx_face));
        int k = which / 2;
        double want = which % 2 ? hi[k] : lo[k];
        for (size_t j = 0; j < B.nfaces; j++) {
            double x[3];
            mu_face_mid(mesh, B.faces[j], x);
            ck_assert_msg(x[k] == want, "%s face %zu at %g, not %g", B.name,
                          j, x[k], want);
        }
    }
}

/* Every element face is an interior side, or a boundary face. */
static void check_face_count(size_t faces_per_ele)
{
    frx_mesh_info in = mc_info(mesh);
    size_t nb = 0;
    for (size_t i = 0; i < in.nbcs; i++)
        nb += mc_bc(mesh, i).nfaces;
    ck_assert_uint_eq(faces_per_ele * in.neles, 2 * in.nifaces + nb);
}

/* ------------------------------------------------------------- tests */

START_TEST(box_quad_counts)
{
    make_ok("{type: box, lower: [-1, 0], upper: [1, 3], n: [4, 3]}");
    frx_mesh_info in = mc_info(mesh);
    ck_assert_int_eq(in.ndims, 2);
    ck_assert_int_eq(in.rank, 0);
    ck_assert_int_eq(in.nranks, 1);
    ck_assert_uint_eq(in.neles, 12);
    ck_assert_uint_eq(in.neles_global, 12);
    ck_assert_uint_eq(in.nblocks, 1);
    ck_assert_uint_eq(in.npeers, 0);
    ck_assert_uint_eq(in.nperiodic, 0);
    ck_assert_uint_eq(in.nifaces, 3 * 3 + 4 * 2);
    frx_mesh_block b = mc_block(mesh, 0);
    ck_assert_int_eq(b.etype, FRX_ETYPE_QUAD);
    ck_assert_int_eq(b.order, 1);
    ck_assert_uint_eq(b.nshape, 4);
    ck_assert_uint_eq(b.nfaces, 4);
    ck_assert_uint_eq(in.nbcs, 4);
    const char *names[] = {"left", "right", "bottom", "top"};
    size_t counts[] = {3, 3, 4, 4};
    for (size_t i = 0; i < 4; i++) {
        ck_assert_str_eq(mc_bc(mesh, i).name, names[i]);
        ck_assert_uint_eq(mc_bc(mesh, i).nfaces, counts[i]);
    }
    /* element 5 is cell (1, 1): corners counter-clockwise from (-0.5, 1) */
    const double want[4][2] = {{-0.5, 1}, {0, 1}, {0, 2}, {-0.5, 2}};
    for (size_t i = 0; i < 4; i++) {
        ck_assert_double_eq(b.shape[(5 * 4 + i) * 2], want[i][0]);
        ck_assert_double_eq(b.shape[(5 * 4 + i) * 2 + 1], want[i][1]);
    }
    double lo[] = {-1, 0}, hi[] = {1, 3};
    check_orientation();
    check_ifaces();
    check_bcs(lo, hi);
    check_face_count(4);
}
END_TEST

START_TEST(box_periodic_all_interior)
{
    make_ok("{type: box, upper: [2, 3], n: [4, 3], periodic: [yes, yes]}");
    frx_mesh_info in = mc_info(mesh);
    ck_assert_uint_eq(in.nbcs, 0);
    ck_assert_uint_eq(in.nifaces, 2 * 12);
    ck_assert_uint_eq(in.nperiodic, 2);
    frx_mesh_periodic p = {.size = sizeof p};
    ck_assert_int_eq(frx_mesh_get_periodic(mesh, 0, &p), FRX_OK);
    ck_assert_str_eq(p.name, "x");
    ck_assert_double_eq(p.shift[0], 2);
    ck_assert_double_eq(p.shift[1], 0);
    ck_assert_int_eq(frx_mesh_get_periodic(mesh, 1, &p), FRX_OK);
    ck_assert_str_eq(p.name, "y");
    ck_assert_double_eq(p.shift[1], 3);
    size_t n, nper[2] = {0, 0};
    const frx_mesh_iface *f = ifaces(&n);
    for (size_t i = 0; i < n; i++)
        if (f[i].periodic >= 0)
            nper[f[i].periodic]++;
    ck_assert_uint_eq(nper[0], 3);
    ck_assert_uint_eq(nper[1], 4);
    check_orientation();
    check_ifaces();
    check_face_count(4);
}
END_TEST

START_TEST(box_periodic_one_direction)
{
    make_ok("{type: box, n: [3, 2], periodic: [no, true]}");
    frx_mesh_info in = mc_info(mesh);
    ck_assert_uint_eq(in.nbcs, 2);
    ck_assert_str_eq(mc_bc(mesh, 0).name, "left");
    ck_assert_str_eq(mc_bc(mesh, 1).name, "right");
    ck_assert_uint_eq(mc_bc(mesh, 0).nfaces, 2);
    ck_assert_uint_eq(in.nperiodic, 1);
    double lo[] = {0, 0}, hi[] = {1, 1};
    check_ifaces();
    check_bcs(lo, hi);
    check_face_count(4);
}
END_TEST

/* One element, periodic both ways: it is its own neighbour twice. */
START_TEST(box_single_periodic_element)
{
    make_ok("{type: box, n: [1, 1], periodic: [true, true]}");
    size_t n;
    const frx_mesh_iface *f = ifaces(&n);
    ck_assert_uint_eq(n, 2);
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(f[i].l.ele, 0);
        ck_assert_uint_eq(f[i].r.ele, 0);
    }
    /* by canonical side: face 0 (bottom, side 0 of pair y) moved by +1
     * is face 2; face 3 (left, side 0 of pair x) is face 1 */
    ck_assert_int_eq(f[0].periodic, 1);
    ck_assert_uint_eq(f[0].l.face, 0);
    ck_assert_uint_eq(f[0].r.face, 2);
    ck_assert_int_eq(f[1].periodic, 0);
    ck_assert_uint_eq(f[1].l.face, 3);
    ck_assert_uint_eq(f[1].r.face, 1);
    check_ifaces();
}
END_TEST

START_TEST(box_triangles)
{
    make_ok("{type: box, n: [3, 2], etype: tri, periodic: [yes, no]}");
    frx_mesh_info in = mc_info(mesh);
    ck_assert_uint_eq(in.neles, 12);
    frx_mesh_block b = mc_block(mesh, 0);
    ck_assert_int_eq(b.etype, FRX_ETYPE_TRI);
    ck_assert_uint_eq(b.nshape, 3);
    ck_assert_uint_eq(b.nfaces, 3);
    /* 6 diagonals, 3 + 3 periodic-or-inner x faces, 3 inner y faces */
    ck_assert_uint_eq(in.nifaces, 6 + 6 + 3);
    ck_assert_uint_eq(in.nbcs, 2);
    ck_assert_uint_eq(mc_bc(mesh, 0).nfaces, 3);
    double lo[] = {0, 0}, hi[] = {1, 1};
    check_orientation();
    check_ifaces();
    check_bcs(lo, hi);
    check_face_count(3);
}
END_TEST

START_TEST(box_order2)
{
    make_ok("{type: box, n: [2, 2], order: 2, periodic: [yes, no]}");
    frx_mesh_block b = mc_block(mesh, 0);
    ck_assert_int_eq(b.order, 2);
    ck_assert_uint_eq(b.nshape, 9);
    /* Gmsh quad9: 4..7 mid-edges (0,1) (1,2) (2,3) (3,0), 8 the centre */
    const int edge[4][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
    for (size_t e = 0; e < b.neles; e++) {
        const double *x = b.shape + e * 9 * 2;
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < 4; i++)
                ck_assert_double_eq_tol(x[(4 + i) * 2 + k],
                                        (x[edge[i][0] * 2 + k] +
                                         x[edge[i][1] * 2 + k]) / 2, 1e-15);
            ck_assert_double_eq_tol(x[8 * 2 + k],
                                    (x[k] + x[2 + k] + x[4 + k] + x[6 + k]) /
                                        4, 1e-15);
        }
    }
    check_orientation();
    check_ifaces();
    /* triangles of order 2: 3..5 mid-edges (0,1) (1,2) (2,0) */
    make_ok("{type: box, n: [2, 1], etype: tri, order: 2}");
    b = mc_block(mesh, 0);
    ck_assert_uint_eq(b.nshape, 6);
    for (size_t e = 0; e < b.neles; e++) {
        const double *x = b.shape + e * 6 * 2;
        for (int k = 0; k < 2; k++)
            ck_assert_double_eq_tol(x[5 * 2 + k], (x[k] + x[2 * 2 + k]) / 2,
                                    1e-15);
    }
    check_ifaces();
}
END_TEST

START_TEST(box_hex)
{
    make_ok("{type: box, lower: [0, 0, 0], upper: [2, 3, 4], n: [2, 3, 2], "
            "periodic: [yes, no, no]}");
    frx_mesh_info in = mc_info(mesh);
    ck_assert_int_eq(in.ndims, 3);
    ck_assert_uint_eq(in.neles, 12);
    frx_mesh_block b = mc_block(mesh, 0);
    ck_assert_int_eq(b.etype, FRX_ETYPE_HEX);
    ck_assert_uint_eq(b.nshape, 8);
    ck_assert_uint_eq(b.nfaces, 6);
    /* x: 2 x 3 x 2 faces (periodic included); y: 2 x 2 x 2; z: 2 x 3 */
    ck_assert_uint_eq(in.nifaces, 12 + 8 + 6);
    ck_assert_uint_eq(in.nbcs, 4);
    ck_assert_str_eq(mc_bc(mesh, 0).name, "bottom");
    ck_assert_str_eq(mc_bc(mesh, 3).name, "front");
    ck_assert_uint_eq(mc_bc(mesh, 0).nfaces, 4);
    ck_assert_uint_eq(mc_bc(mesh, 2).nfaces, 6);
    double lo[] = {0, 0, 0}, hi[] = {2, 3, 4};
    check_orientation();
    check_ifaces();
    check_bcs(lo, hi);
    check_face_count(6);
    /* rot is not always 0: faces between cells in z meet turned */
    size_t n;
    const frx_mesh_iface *f = ifaces(&n);
    int rots = 0;
    for (size_t i = 0; i < n; i++)
        rots |= 1 << f[i].l.rot;
    ck_assert_int_gt(rots, 1);
}
END_TEST

START_TEST(box_hex_order2)
{
    make_ok("{type: box, n: [1, 2, 1], order: 2, periodic: [yes, yes, yes]}");
    frx_mesh_block b = mc_block(mesh, 0);
    ck_assert_uint_eq(b.nshape, 27);
    ck_assert_uint_eq(mc_info(mesh).nbcs, 0);
    for (size_t e = 0; e < b.neles; e++) {
        const double *x = b.shape + e * 27 * 3;
        for (int k = 0; k < 3; k++) {
            double mean = 0;
            for (int c = 0; c < 8; c++)
                mean += x[c * 3 + k] / 8;
            ck_assert_double_eq_tol(x[26 * 3 + k], mean, 1e-15);
            /* node 10 is the middle of edge (0, 4); 25 of face 4567 */
            ck_assert_double_eq_tol(x[10 * 3 + k],
                                    (x[k] + x[4 * 3 + k]) / 2, 1e-15);
            ck_assert_double_eq_tol(x[25 * 3 + k],
                                    (x[4 * 3 + k] + x[5 * 3 + k] +
                                     x[6 * 3 + k] + x[7 * 3 + k]) / 4,
                                    1e-15);
        }
    }
    check_ifaces();
    check_face_count(6);
}
END_TEST

/* Every face of every element (of block 0, of type etype) turns
 * counter-clockwise seen from outside; the elements fill the box: their
 * volumes add up to its. */
static void check_solid(int etype, const double *lo, const double *hi)
{
    frx_mesh_block B = mc_block(mesh, 0);
    ck_assert_int_eq(B.etype, etype);
    ck_assert_uint_eq(B.nfaces, etype == FRX_ETYPE_TET ? 4 : 5);
    double vol = 0;
    for (uint32_t e = 0; e < B.neles; e++) {
        double v = mu_volume(mesh, 0, e);
        ck_assert_msg(v > 0, "element %u: volume %g", e, v);
        vol += v;
        for (uint16_t f = 0; f < B.nfaces; f++) {
            frx_face s = {0, e, f, 0};
            ck_assert_msg(mu_face_outward(mesh, s) > 0,
                          "element %u face %u turns inwards", e, f);
        }
    }
    double want = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    ck_assert_double_eq_tol(vol, want, 1e-12 * want);
}

/* Cells of 6 tetrahedra, Kuhn's split, every face matched. */
START_TEST(box_tet)
{
    make_ok("{type: box, lower: [0, 0, 0], upper: [1, 2, 3], n: [2, 2, 2], "
            "etype: tet}");
    frx_mesh_info in = mc_info(mesh);
    ck_assert_int_eq(in.ndims, 3);
    ck_assert_uint_eq(in.neles, 48);
    ck_assert_uint_eq(in.nblocks, 1);
    frx_mesh_block b = mc_block(mesh, 0);
    ck_assert_int_eq(b.order, 1);
    ck_assert_uint_eq(b.nshape, 4);
    /* 6 inside each cube, 2 on each of the 12 faces between cubes */
    ck_assert_uint_eq(in.nifaces, 8 * 6 + 12 * 2);
    ck_assert_uint_eq(in.nbcs, 6);
    ck_assert_uint_eq(in.nperiodic, 0);
    for (size_t i = 0; i < 6; i++) /* 2 x 2 cube faces of 2 triangles */
        ck_assert_uint_eq(mc_bc(mesh, i).nfaces, 2 * 2 * 2);
    double lo[] = {0, 0, 0}, hi[] = {1, 2, 3};
    check_solid(FRX_ETYPE_TET, lo, hi);
    check_orientation();
    check_ifaces();
    check_bcs(lo, hi);
    check_face_count(4);
    /* cell 0's first tetrahedron: (0,0,0), then along x, y, then z */
    const double want[4][3] = {{0, 0, 0}, {0.5, 0, 0}, {0.5, 1, 0},
                               {0.5, 1, 1.5}};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++)
            ck_assert_double_eq(b.shape[i * 3 + k], want[i][k]);
    /* the faces meet at more than one rotation */
    size_t n;
    const frx_mesh_iface *f = ifaces(&n);
    int rots = 0;
    for (size_t i = 0; i < n; i++)
        rots |= 1 << f[i].l.rot;
    ck_assert_int_gt(rots, 1);
}
END_TEST

START_TEST(box_tet_periodic)
{
    make_ok("{type: box, lower: [-1, 0, 0], upper: [1, 2, 3], n: [2, 2, 2], "
            "etype: tet, periodic: [yes, yes, yes]}");
    frx_mesh_info in = mc_info(mesh);
    ck_assert_uint_eq(in.neles, 48);
    ck_assert_uint_eq(in.nbcs, 0);
    ck_assert_uint_eq(in.nperiodic, 3);
    ck_assert_uint_eq(in.nifaces, 4 * 48 / 2);
    size_t n, nper[3] = {0, 0, 0};
    const frx_mesh_iface *f = ifaces(&n);
    for (size_t i = 0; i < n; i++)
        if (f[i].periodic >= 0)
            nper[f[i].periodic]++;
    for (int k = 0; k < 3; k++)
        ck_assert_uint_eq(nper[k], 2 * 2 * 2);
    double lo[] = {-1, 0, 0}, hi[] = {1, 2, 3};
    check_solid(FRX_ETYPE_TET, lo, hi);
    check_ifaces();
    check_face_count(4);
    /* one direction periodic, boundaries on the others */
    make_ok("{type: box, n: [2, 3, 2], etype: tet, periodic: [no, yes, no]}");
    in = mc_info(mesh);
    ck_assert_uint_eq(in.neles, 72);
    ck_assert_uint_eq(in.nperiodic, 1);
    ck_assert_uint_eq(in.nbcs, 4);
    ck_assert_str_eq(mc_bc(mesh, 0).name, "left");
    ck_assert_uint_eq(mc_bc(mesh, 0).nfaces, 3 * 2 * 2);
    ck_assert_str_eq(mc_bc(mesh, 2).name, "back");
    ck_assert_uint_eq(mc_bc(mesh, 2).nfaces, 2 * 3 * 2);
    double lo1[] = {0, 0, 0}, hi1[] = {1, 1, 1};
    check_solid(FRX_ETYPE_TET, lo1, hi1);
    check_ifaces();
    check_bcs(lo1, hi1);
    check_face_count(4);
}
END_TEST

/* Order 2: Gmsh's 10-node tetrahedron, 4..9 the middles of the edges
 * (0,1) (1,2) (2,0) (3,0) (3,2) (3,1). */
START_TEST(box_tet_order2)
{
    make_ok("{type: box, upper: [2, 1, 1], n: [2, 1, 2], etype: tet, "
            "order: 2, periodic: [yes, no, yes]}");
    frx_mesh_block b = mc_block(mesh, 0);
    ck_assert_int_eq(b.order, 2);
    ck_assert_uint_eq(b.nshape, 10);
    static const int edge[6][2] = {{0, 1}, {1, 2}, {2, 0},
                                   {3, 0}, {3, 2}, {3, 1}};
    for (size_t e = 0; e < b.neles; e++) {
        const double *x = b.shape + e * 10 * 3;
        for (int i = 0; i < 6; i++)
            for (int k = 0; k < 3; k++)
                ck_assert_double_eq_tol(x[(4 + i) * 3 + k],
                                        (x[edge[i][0] * 3 + k] +
                                         x[edge[i][1] * 3 + k]) / 2, 1e-15);
    }
    double lo[] = {0, 0, 0}, hi[] = {2, 1, 1};
    check_solid(FRX_ETYPE_TET, lo, hi);
    check_ifaces();
    check_bcs(lo, hi);
    check_face_count(4);
}
END_TEST

/* Boundary faces normal to x and y are quadrilaterals, to z triangles
 * (the prisms' ends). */
static void check_pri_bcs(void)
{
    frx_mesh_info in = mc_info(mesh);
    for (size_t i = 0; i < in.nbcs; i++) {
        frx_mesh_bc B = mc_bc(mesh, i);
        int z = !strcmp(B.name, "back") || !strcmp(B.name, "front");
        for (size_t j = 0; j < B.nfaces; j++)
            ck_assert_int_eq(mu_face_ncorners(mesh, B.faces[j]), z ? 3 : 4);
    }
}

/* Cells of 2 prisms, the tri box's triangles extruded along z. */
START_TEST(box_pri)
{
    make_ok("{type: box, lower: [0, 0, 0], upper: [1, 2, 3], n: [2, 2, 2], "
            "etype: prism}");
    frx_mesh_info in = mc_info(mesh);
    ck_assert_int_eq(in.ndims, 3);
    ck_assert_uint_eq(in.neles, 16);
    ck_assert_uint_eq(in.nblocks, 1);
    frx_mesh_block b = mc_block(mesh, 0);
    ck_assert_int_eq(b.order, 1);
    ck_assert_uint_eq(b.nshape, 6);
    /* 1 inside each cube (the diagonal quadrilateral); between cubes 1
     * in x, 1 in y, 2 triangles in z */
    ck_assert_uint_eq(in.nifaces, 8 + 4 + 4 + 4 * 2);
    ck_assert_uint_eq(in.nbcs, 6);
    ck_assert_uint_eq(in.nperiodic, 0);
    static const size_t nbf[6] = {4, 4, 4, 4, 8, 8};
    for (size_t i = 0; i < 6; i++)
        ck_assert_uint_eq(mc_bc(mesh, i).nfaces, nbf[i]);
    double lo[] = {0, 0, 0}, hi[] = {1, 2, 3};
    check_solid(FRX_ETYPE_PRI, lo, hi);
    check_orientation();
    check_ifaces();
    check_bcs(lo, hi);
    check_pri_bcs();
    check_face_count(5);
    /* cell 0's prisms: (0,0) (1,0) (1,1) of its square, then (0,0)
     * (1,1) (0,1), extruded along z */
    const double want[2][6][3] = {
        {{0, 0, 0}, {0.5, 0, 0}, {0.5, 1, 0},
         {0, 0, 1.5}, {0.5, 0, 1.5}, {0.5, 1, 1.5}},
        {{0, 0, 0}, {0.5, 1, 0}, {0, 1, 0},
         {0, 0, 1.5}, {0.5, 1, 1.5}, {0, 1, 1.5}}};
    for (int e = 0; e < 2; e++)
        for (int i = 0; i < 6; i++)
            for (int k = 0; k < 3; k++)
                ck_assert_double_eq(b.shape[(e * 6 + i) * 3 + k],
                                    want[e][i][k]);
    /* triangles and quadrilaterals meet, quadrilaterals at more than
     * one rotation */
    size_t n;
    const frx_mesh_iface *f = ifaces(&n);
    int ntri = 0, rots = 0;
    for (size_t i = 0; i < n; i++) {
        int nc = mu_face_ncorners(mesh, f[i].l);
        ntri += nc == 3;
        if (nc == 4)
            rots |= 1 << f[i].l.rot;
    }
    ck_assert_int_eq(ntri, 8);
    ck_assert_int_gt(rots & (rots - 1), 0);
}
END_TEST

START_TEST(box_pri_periodic)
{
    make_ok("{type: box, lower: [-1, 0, 0], upper: [1, 2, 3], n: [2, 2, 2], "
            "etype: prism, periodic: [yes, yes, yes]}");
    frx_mesh_info in = mc_info(mesh);
    ck_assert_uint_eq(in.neles, 16);
    ck_assert_uint_eq(in.nbcs, 0);
    ck_assert_uint_eq(in.nperiodic, 3);
    ck_assert_uint_eq(in.nifaces, 5 * 16 / 2);
    size_t n, nper[3] = {0, 0, 0};
    const frx_mesh_iface *f = ifaces(&n);
    for (size_t i = 0; i < n; i++)
        if (f[i].periodic >= 0) {
            nper[f[i].periodic]++;
            ck_assert_int_eq(mu_face_ncorners(mesh, f[i].l),
                             f[i].periodic == 2 ? 3 : 4);
        }
    ck_assert_uint_eq(nper[0], 2 * 2);
    ck_assert_uint_eq(nper[1], 2 * 2);
    ck_assert_uint_eq(nper[2], 2 * 2 * 2);
    double lo[] = {-1, 0, 0}, hi[] = {1, 2, 3};
    check_solid(FRX_ETYPE_PRI, lo, hi);
    check_orientation();
    check_ifaces();
    check_face_count(5);
    /* periodic in z only, boundaries on the others */
    make_ok("{type: box, n: [3, 2, 2], etype: prism, "
            "periodic: [no, no, yes]}");
    in = mc_info(mesh);
    ck_assert_uint_eq(in.neles, 24);
    ck_assert_uint_eq(in.nperiodic, 1);
    ck_assert_uint_eq(in.nbcs, 4);
    ck_assert_str_eq(mc_bc(mesh, 0).name, "left");
    ck_assert_uint_eq(mc_bc(mesh, 0).nfaces, 2 * 2);
    ck_assert_str_eq(mc_bc(mesh, 3).name, "top");
    ck_assert_uint_eq(mc_bc(mesh, 3).nfaces, 3 * 2);
    double lo1[] = {0, 0, 0}, hi1[] = {1, 1, 1};
    check_solid(FRX_ETYPE_PRI, lo1, hi1);
    check_ifaces();
    check_bcs(lo1, hi1);
    check_pri_bcs();
    check_face_count(5);
}
END_TEST

/* Order 2: Gmsh's 18-node prism, 6..14 the middles of the edges (0,1)
 * (0,2) (0,3) (1,2) (1,4) (2,5) (3,4) (3,5) (4,5), 15..17 the centres of
 * the faces (0,1,4,3) (0,3,5,2) (1,2,5,4). */
START_TEST(box_pri_order2)
{
    make_ok("{type: box, upper: [2, 1, 1], n: [2, 1, 2], etype: prism, "
            "order: 2, periodic: [yes, no, no]}");
    frx_mesh_block b = mc_block(mesh, 0);
    ck_assert_int_eq(b.order, 2);
    ck_assert_uint_eq(b.nshape, 18);
    static const int mid[12][4] = {
        {0, 1, 0, 1}, {0, 2, 0, 2}, {0, 3, 0, 3}, {1, 2, 1, 2},
        {1, 4, 1, 4}, {2, 5, 2, 5}, {3, 4, 3, 4}, {3, 5, 3, 5},
        {4, 5, 4, 5}, {0, 1, 4, 3}, {0, 3, 5, 2}, {1, 2, 5, 4}};
    for (size_t e = 0; e < b.neles; e++) {
        const double *x = b.shape + e * 18 * 3;
        for (int i = 0; i < 12; i++)
            for (int k = 0; k < 3; k++) {
                double m = 0;
                for (int c = 0; c < 4; c++)
                    m += x[mid[i][c] * 3 + k] / 4;
                ck_assert_double_eq_tol(x[(6 + i) * 3 + k], m, 1e-15);
            }
    }
    double lo[] = {0, 0, 0}, hi[] = {2, 1, 1};
    check_solid(FRX_ETYPE_PRI, lo, hi);
    check_orientation();
    check_ifaces();
    check_bcs(lo, hi);
    check_pri_bcs();
    check_face_count(5);
}
END_TEST

/* Cells of 6 pyramids, one on each face, the apex at the centre. */
START_TEST(box_pyr)
{
    make_ok("{type: box, lower: [0, 0, 0], upper: [1, 2, 3], n: [2, 2, 2], "
            "etype: pyramid}");
    frx_mesh_info in = mc_info(mesh);
    ck_assert_int_eq(in.ndims, 3);
    ck_assert_uint_eq(in.neles, 48);
    ck_assert_uint_eq(in.nblocks, 1);
    frx_mesh_block b = mc_block(mesh, 0);
    ck_assert_int_eq(b.etype, FRX_ETYPE_PYR);
    ck_assert_int_eq(b.order, 1);
    ck_assert_uint_eq(b.nshape, 5);
    /* 12 triangles inside each cube, a quadrilateral (two bases) on
     * each of the 12 faces between cubes */
    ck_assert_uint_eq(in.nifaces, 8 * 12 + 12);
    ck_assert_uint_eq(in.nbcs, 6);
    ck_assert_uint_eq(in.nperiodic, 0);
    for (size_t i = 0; i < 6; i++) /* 2 x 2 bases */
        ck_assert_uint_eq(mc_bc(mesh, i).nfaces, 4);
    double lo[] = {0, 0, 0}, hi[] = {1, 2, 3};
    check_solid(FRX_ETYPE_PYR, lo, hi);
    check_orientation();
    check_ifaces();
    check_bcs(lo, hi);
    check_face_count(5);
    /* boundary faces are bases */
    for (size_t i = 0; i < 6; i++)
        for (size_t j = 0; j < mc_bc(mesh, i).nfaces; j++)
            ck_assert_int_eq(mc_bc(mesh, i).faces[j].face, 4);
    /* cell 0's first pyramid: its bottom face, turned to run
     * counter-clockwise seen from the apex, the cell's centre */
    const double want[5][3] = {{0, 0, 0}, {0.5, 0, 0}, {0.5, 1, 0},
                               {0, 1, 0}, {0.25, 0.5, 0.75}};
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < 3; k++)
            ck_assert_double_eq(b.shape[i * 3 + k], want[i][k]);
    /* triangles meet triangles, bases bases */
    size_t n;
    const frx_mesh_iface *f = ifaces(&n);
    int ntri = 0, rots = 0;
    for (size_t i = 0; i < n; i++) {
        int nc = mu_face_ncorners(mesh, f[i].l);
        ntri += nc == 3;
        ck_assert_int_eq(f[i].l.face == 4, nc == 4);
        ck_assert_int_eq(f[i].r.face == 4, nc == 4);
        rots |= 1 << f[i].l.rot;
    }
    ck_assert_int_eq(ntri, 8 * 12);
    ck_assert_int_gt(rots & (rots - 1), 0);
}
END_TEST

START_TEST(box_pyr_periodic)
{
    make_ok("{type: box, lower: [-1, 0, 0], upper: [1, 2, 3], n: [2, 1, 2], "
            "etype: pyramid, periodic: [yes, yes, yes]}");
    frx_mesh_info in = mc_info(mesh);
    ck_assert_uint_eq(in.neles, 24);
    ck_assert_uint_eq(in.nbcs, 0);
    ck_assert_uint_eq(in.nperiodic, 3);
    ck_assert_uint_eq(in.nifaces, 5 * 24 / 2);
    size_t n, nper[3] = {0, 0, 0};
    const frx_mesh_iface *f = ifaces(&n);
    for (size_t i = 0; i < n; i++)
        if (f[i].periodic >= 0) {
            nper[f[i].periodic]++;
            ck_assert_int_eq(f[i].l.face, 4);
            ck_assert_int_eq(f[i].r.face, 4);
        }
    ck_assert_uint_eq(nper[0], 1 * 2);
    ck_assert_uint_eq(nper[1], 2 * 2);
    ck_assert_uint_eq(nper[2], 2 * 1);
    double lo[] = {-1, 0, 0}, hi[] = {1, 2, 3};
    check_solid(FRX_ETYPE_PYR, lo, hi);
    check_orientation();
    check_ifaces();
    check_face_count(5);
    /* periodic in y only, boundaries on the others */
    make_ok("{type: box, n: [3, 2, 1], etype: pyramid, "
            "periodic: [no, yes, no]}");
    in = mc_info(mesh);
    ck_assert_uint_eq(in.neles, 36);
    ck_assert_uint_eq(in.nperiodic, 1);
    ck_assert_uint_eq(in.nbcs, 4);
    ck_assert_str_eq(mc_bc(mesh, 0).name, "left");
    ck_assert_uint_eq(mc_bc(mesh, 0).nfaces, 2 * 1);
    ck_assert_str_eq(mc_bc(mesh, 3).name, "front");
    ck_assert_uint_eq(mc_bc(mesh, 3).nfaces, 3 * 2);
    double lo1[] = {0, 0, 0}, hi1[] = {1, 1, 1};
    check_solid(FRX_ETYPE_PYR, lo1, hi1);
    check_ifaces();
    check_bcs(lo1, hi1);
    check_face_count(5);
}
END_TEST

/* Order 2: Gmsh's 14-node pyramid, 5..12 the middles of the edges
 * (0,1) (0,3) (0,4) (1,2) (1,4) (2,3) (2,4) (3,4), 13 the centre of
 * the base. */
START_TEST(box_pyr_order2)
{
    make_ok("{type: box, upper: [2, 1, 1], n: [2, 1, 2], etype: pyramid, "
            "order: 2, periodic: [yes, no, yes]}");
    frx_mesh_block b = mc_block(mesh, 0);
    ck_assert_int_eq(b.order, 2);
    ck_assert_uint_eq(b.nshape, 14);
    static const int mid[9][4] = {
        {0, 1, 0, 1}, {0, 3, 0, 3}, {0, 4, 0, 4}, {1, 2, 1, 2},
        {1, 4, 1, 4}, {2, 3, 2, 3}, {2, 4, 2, 4}, {3, 4, 3, 4},
        {0, 1, 2, 3}};
    for (size_t e = 0; e < b.neles; e++) {
        const double *x = b.shape + e * 14 * 3;
        for (int i = 0; i < 9; i++)
            for (int k = 0; k < 3; k++) {
                double m = 0;
                for (int c = 0; c < 4; c++)
                    m += x[mid[i][c] * 3 + k] / 4;
                ck_assert_double_eq_tol(x[(5 + i) * 3 + k], m, 1e-15);
            }
    }
    double lo[] = {0, 0, 0}, hi[] = {2, 1, 1};
    check_solid(FRX_ETYPE_PYR, lo, hi);
    check_orientation();
    check_ifaces();
    check_bcs(lo, hi);
    check_face_count(5);
}
END_TEST

/* The id is the global mesh's: stable, and changed by any change. */
START_TEST(mesh_id)
{
    char id[65], other[65];
    make_ok("{type: box, n: [4, 3], periodic: [yes, no]}");
    memcpy(id, mc_info(mesh).id, sizeof id);
    ck_assert_uint_eq(strlen(id), 64);
    make_ok("{type: box, n: [4, 3], periodic: [yes, no]}");
    ck_assert_str_eq(mc_info(mesh).id, id);
    make_ok("{type: box, n: [4, 3], periodic: [yes, no], lower: [0, 0], "
            "upper: [1, 1], etype: quad, order: 1}");
    ck_assert_str_eq(mc_info(mesh).id, id); /* the defaults written out */
    const char *changed[] = {
        "{type: box, n: [4, 4], periodic: [yes, no]}",
        "{type: box, n: [4, 3], periodic: [no, no]}",
        "{type: box, n: [4, 3], periodic: [yes, yes]}",
        "{type: box, n: [4, 3], periodic: [yes, no], upper: [1, 1.5]}",
        "{type: box, n: [4, 3], periodic: [yes, no], lower: [1e-9, 0]}",
        "{type: box, n: [4, 3], periodic: [yes, no], etype: tri}",
        "{type: box, n: [4, 3], periodic: [yes, no], order: 2}",
        "{type: box, n: [3, 4], periodic: [yes, no]}",
    };
    /* hexahedra and tetrahedra of one box differ */
    make_ok("{type: box, n: [2, 2, 2]}");
    memcpy(other, mc_info(mesh).id, sizeof other);
    make_ok("{type: box, n: [2, 2, 2], etype: tet}");
    ck_assert_str_ne(mc_info(mesh).id, other);
    char tet[65];
    memcpy(tet, mc_info(mesh).id, sizeof tet);
    make_ok("{type: box, n: [2, 2, 2], etype: prism}");
    ck_assert_str_ne(mc_info(mesh).id, other);
    ck_assert_str_ne(mc_info(mesh).id, tet);
    char pri[65];
    memcpy(pri, mc_info(mesh).id, sizeof pri);
    make_ok("{type: box, n: [2, 2, 2], etype: pyramid}");
    ck_assert_str_ne(mc_info(mesh).id, other);
    ck_assert_str_ne(mc_info(mesh).id, tet);
    ck_assert_str_ne(mc_info(mesh).id, pri);
    for (size_t i = 0; i < sizeof changed / sizeof *changed; i++) {
        make_ok(changed[i]);
        memcpy(other, mc_info(mesh).id, sizeof other);
        ck_assert_msg(strcmp(other, id) != 0, "same id for %s", changed[i]);
    }
    /* the partition is not part of it */
    teardown();
    const char *text = "backend: {precision: double}\n"
                       "mesh: {type: box, n: [4, 3], periodic: [yes, no]}\n"
                       "partition: {method: linear, weights: [2]}\n";
    ck_assert_int_eq(frx_config_parse(text, strlen(text), "case.yaml", &cfg),
                     FRX_OK);
    ck_assert_int_eq(frx_mesh_create(cfg, MPI_COMM_SELF, &mesh), FRX_OK);
    ck_assert_str_eq(mc_info(mesh).id, id);
}
END_TEST

START_TEST(getters_checked)
{
    make_ok("{type: box, n: [2, 2]}");
    frx_mesh_info small = {.size = 2};
    ck_assert_int_eq(frx_mesh_get_info(mesh, &small), FRX_EINVAL);
    assert_msg("set out->size = sizeof(frx_mesh_info)");
    /* an older, shorter struct gets only what it holds */
    frx_mesh_info part;
    memset(&part, 0x5a, sizeof part);
    part.size = (uint32_t)offsetof(frx_mesh_info, nblocks);
    ck_assert_int_eq(frx_mesh_get_info(mesh, &part), FRX_OK);
    ck_assert_int_eq(part.ndims, 2);
    ck_assert_int_eq(part.nranks, 1);
    unsigned char *tail = (unsigned char *)&part.nblocks;
    ck_assert_int_eq(tail[0], 0x5a);
    frx_mesh_block b = {.size = sizeof b};
    ck_assert_int_eq(frx_mesh_get_block(mesh, 1, &b), FRX_ERANGE);
    assert_msg("index 1, but this rank has 1 blocks");
    frx_mesh_peer p = {.size = sizeof p};
    ck_assert_int_eq(frx_mesh_get_peer(mesh, 0, &p), FRX_ERANGE);
    frx_mesh_bc x = {.size = sizeof x};
    ck_assert_int_eq(frx_mesh_get_bc(mesh, 4, &x), FRX_ERANGE);
    frx_mesh_periodic q = {.size = sizeof q};
    ck_assert_int_eq(frx_mesh_get_periodic(mesh, 0, &q), FRX_ERANGE);
    ck_assert_int_eq(frx_mesh_create(NULL, MPI_COMM_SELF, &mesh),
                     FRX_EINVAL);
}
END_TEST

/* ------------------------------------------------------- bad cases */

struct bad {
    const char *mesh, *want;
};

/* Refused at create, with the place; and by frx_config_check. */
static const struct bad bad_cases[] = {
    {"{type: box, n: [0, 4]}",
     "case.yaml:3:23: 'mesh.n[0]' must be between 1 and 268435456, got 0"},
    {"{type: box, n: [4, -2]}",
     "case.yaml:3:26: 'mesh.n[1]' must be between 1 and 268435456, got -2"},
    {"{type: box, n: [4, 4], lower: [0, 1], upper: [1, 1]}",
     "case.yaml:3:56: 'mesh.upper[1]' (1) must be greater than "
     "'mesh.lower[1]' (1)"},
    {"{type: box, n: [4, 4], lower: [2, 0]}",
     "case.yaml:3:38: 'mesh.upper[0]' (1, the default) must be greater "
     "than 'mesh.lower[0]' (2)"},
    {"{type: box, n: [4, 4], upper: [1, 1, 1]}",
     "case.yaml:3:37: 'mesh.upper' has 3 value(s) but 'mesh.n' has 2: give "
     "one per direction"},
    {"{type: box, n: [4, 4], periodic: [yes]}",
     "case.yaml:3:40: 'mesh.periodic' has 1 value(s) but 'mesh.n' has 2"},
    {"{type: box, n: [4]}",
     "case.yaml:3:22: 'mesh.n' must have 2 or 3 values"},
    {"{type: box, n: [4, 4], etype: hex}",
     "case.yaml:3:37: 'mesh.etype' hex needs a 3-D box, but 'mesh.n' has 2 "
     "values: use quad or tri"},
    {"{type: box, n: [2, 2, 2], etype: tri}",
     "'mesh.etype' tri needs a 2-D box, but 'mesh.n' has 3 values: use hex, "
     "tet, prism or pyramid"},
    {"{type: box, n: [4, 4], etype: pyramid}",
     "case.yaml:3:37: 'mesh.etype' pyramid needs a 3-D box, but 'mesh.n' "
     "has 2 values: use quad or tri"},
    {"{type: box, n: [1024, 1024, 64], etype: pyramid}",
     "'mesh.n' makes 402653184 elements, more than frx handles"},
    {"{type: box, n: [4, 4], etype: prism}",
     "case.yaml:3:37: 'mesh.etype' prism needs a 3-D box, but 'mesh.n' has "
     "2 values: use quad or tri"},
    {"{type: box, n: [4096, 4096, 16], etype: prism}",
     "'mesh.n' makes 536870912 elements, more than frx handles"},
    {"{type: box, n: [4, 4], etype: tet}",
     "case.yaml:3:37: 'mesh.etype' tet needs a 3-D box, but 'mesh.n' has 2 "
     "values: use quad or tri"},
    {"{type: box, n: [1024, 1024, 64], etype: tet}",
     "'mesh.n' makes 402653184 elements, more than frx handles"},
    {"{type: box, lower: [0, 0]}",
     "case.yaml:3:1: a mesh of type box needs 'n'"},
    {"{type: box, n: [4, 4], order: 3}",
     "case.yaml:3:37: 'mesh.order' must be between 1 and 2, got 3"},
    {"{type: box, n: 4}",
     "case.yaml:3:22: 'mesh.n' must be a list"},
    {"{type: box, n: [65536, 65536]}",
     "'mesh.n' makes 4294967296 elements, more than frx handles"},
};

START_TEST(bad_box_refused)
{
    const struct bad *b = &bad_cases[_i];
    ck_assert_int_eq(make(b->mesh), FRX_ECONFIG);
    ck_assert_ptr_null(mesh);
    assert_msg(b->want);
    ck_assert_int_eq(frx_config_check(cfg), FRX_ECONFIG);
    assert_msg(b->want);
}
END_TEST

START_TEST(bad_case_level)
{
    const char *text = "backend: {precision: double}\n";
    ck_assert_int_eq(frx_config_parse(text, strlen(text), "case.yaml", &cfg),
                     FRX_OK);
    ck_assert_int_eq(frx_mesh_create(cfg, MPI_COMM_SELF, &mesh),
                     FRX_ECONFIG);
    assert_msg("case.yaml: the case has no mesh");
    ck_assert_int_eq(make("{n: [2, 2]}"), FRX_ECONFIG);
    assert_msg("case.yaml:3:1: missing required key 'type' in 'mesh' (box, gmsh or partitioned)");
    ck_assert_int_eq(make("{type: boxx, n: [2, 2]}"), FRX_ECONFIG);
    assert_msg("'mesh.type' must be one of: box, gmsh, partitioned; got 'boxx'");
    teardown();
    text = "backend: {precision: double}\n"
           "mesh: {type: box, n: [2, 2]}\n"
           "partition:\n  weights: [3, 1]\n";
    ck_assert_int_eq(frx_config_parse(text, strlen(text), "case.yaml", &cfg),
                     FRX_OK);
    ck_assert_int_eq(frx_config_check(cfg), FRX_OK);
    ck_assert_int_eq(frx_mesh_create(cfg, MPI_COMM_SELF, &mesh),
                     FRX_ECONFIG);
    assert_msg("case.yaml:4:12: 'partition.weights' has 2 weight(s) but the "
               "job has 1 rank(s): give one per rank");
}
END_TEST

/* frx_config_check: the mesh and partition keys and every error. */
START_TEST(config_check_keys)
{
    const char *text =
        "backend:\n"
        "  precision: double\n"
        "  rules:\n"
        "    - {ranks: \"0\", name: openmp, weight: 0}\n"
        "mesh:\n"
        "  type: box\n"
        "  n: [4, x]\n"
        "  lower: [0, zero]\n"
        "  periodic: [maybe, no]\n"
        "  etype: quadd\n"
        "  nn: 3\n"
        "partition: {method: metiss, weights: [1, -2]}\n";
    ck_assert_int_eq(frx_config_parse(text, strlen(text), "case.yaml", &cfg),
                     FRX_OK);
    ck_assert_int_eq(frx_config_check(cfg), FRX_ECONFIG);
    assert_msg("case.yaml:4:42: 'backend.rules[0].weight' must be a positive "
               "number");
    assert_msg("case.yaml:7:10: 'mesh.n[1]' must be an integer, got 'x'");
    assert_msg("case.yaml:8:14: 'mesh.lower[1]' must be a number, got "
               "'zero'");
    assert_msg("case.yaml:9:14: 'mesh.periodic[0]' must be true or false");
    assert_msg("case.yaml:10:10: 'mesh.etype' must be one of: quad, tri, "
               "hex, tet, prism, pyramid; got 'quadd' (did you mean 'quad'?)");
    assert_msg("case.yaml:11:3: unknown key 'nn' in 'mesh' (did you mean "
               "'n'?)");
    assert_msg("case.yaml:12:21: 'partition.method' must be one of: metis, "
               "linear; got 'metiss'");
    assert_msg("case.yaml:12:42: 'partition.weights[1]' must be a positive "
               "number");
    /* the semantic checks wait for the schema's to pass */
    ck_assert(strstr(frx_errmsg(), "give one per direction") == NULL);
    teardown();
    text = "backend: {precision: double}\n"
           "mesh: {type: box, n: [8, 8], lower: [0, 0], upper: [1, 2], "
           "periodic: [true, false], etype: tri, order: 2}\n"
           "partition: {method: linear, weights: [3, 1.5]}\n";
    ck_assert_int_eq(frx_config_parse(text, strlen(text), "case.yaml", &cfg),
                     FRX_OK);
    ck_assert_msg(frx_config_check(cfg) == FRX_OK, "%s", frx_errmsg());
}
END_TEST

static Suite *mesh_suite(void)
{
    Suite *s = suite_create("mesh");
    TCase *tc = tcase_create("box");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, box_quad_counts);
    tcase_add_test(tc, box_periodic_all_interior);
    tcase_add_test(tc, box_periodic_one_direction);
    tcase_add_test(tc, box_single_periodic_element);
    tcase_add_test(tc, box_triangles);
    tcase_add_test(tc, box_order2);
    tcase_add_test(tc, box_hex);
    tcase_add_test(tc, box_hex_order2);
    tcase_add_test(tc, box_tet);
    tcase_add_test(tc, box_tet_periodic);
    tcase_add_test(tc, box_tet_order2);
    tcase_add_test(tc, box_pri);
    tcase_add_test(tc, box_pri_periodic);
    tcase_add_test(tc, box_pri_order2);
    tcase_add_test(tc, box_pyr);
    tcase_add_test(tc, box_pyr_periodic);
    tcase_add_test(tc, box_pyr_order2);
    tcase_add_test(tc, mesh_id);
    tcase_add_test(tc, getters_checked);
    suite_add_tcase(s, tc);
    TCase *bad = tcase_create("bad");
    tcase_add_checked_fixture(bad, NULL, teardown);
    tcase_add_loop_test(bad, bad_box_refused, 0,
                        (int)(sizeof bad_cases / sizeof *bad_cases));
    tcase_add_test(bad, bad_case_level);
    tcase_add_test(bad, config_check_keys);
    suite_add_tcase(s, bad);
    return s;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    SRunner *sr = srunner_create(mesh_suite());
    srunner_set_fork_status(sr, CK_NOFORK); /* MPI is started once */
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    teardown();
    MPI_Finalize();
    return failed ? 1 : 0;
}
