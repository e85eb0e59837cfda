/* SPDX-License-Identifier: BSD-3-Clause */
/* Mesh partitions across ranks, under mpirun with any number of ranks:
 *
 *   test_mesh_parts CASE
 *
 *   test_mesh_parts tet-file|pri-file|pyr-file FILE NPARTS
 *
 * CASE weights | rules | linear | periodic | tri | hex | tet | pri |
 * pyr | tiny | tiny-linear makes a box mesh, CASE hex-pri | tet-pri |
 * hex-pyr-tet a Gmsh file of two or three element types (rank 0 writes
 * it with gmshwrite.c: hexahedra beside prisms, their quadrilaterals
 * meeting; tetrahedra below prisms, their triangles meeting; hexahedra,
 * pyramids and tetrahedra along x, the pyramids' bases meeting the
 * hexahedra, their sides the tetrahedra), and checks: every element on
 * exactly one
 * rank, and every rank at least one; each rank's share
 * within 5% of its weight (where weights are given); interior faces
 * meet corner for corner; each rank sends every peer, in its agreed
 * order, the global element, face, periodic pair and corners of each
 * shared face, and the peer checks them against its own list face by
 * face (same place, mod the period; the opposite walk; one order, by
 * canonical side); boundary names the same everywhere; the same id on
 * every rank; the same partition when made twice. Rank 0 prints
 * "partition digest: X" (compared across runs by same-twice.sh).
 * CASE too-few | weights-mismatch expects every rank to refuse.
 * tet-file (pri-file, pyr-file) reads FILE, the tet (pri, pyr) case's
 * box partitioned
 * for NPARTS ranks by frx mesh partition -o (box-parts.sh), and checks
 * the same; and that the box built has its id and, on NPARTS ranks, the
 * same parts. */
#include "../gmshwrite.h"
#include "../meshutil.h"

#include <unistd.h>

#include <frx/mesh.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, nfail, npass;
/* tet-file on fewer ranks than parts: a rank's faces with a peer come
 * ordered by pair of parts (mesh_merge.c), not by canonical side */
static int merged;

#include "mpicheck.h"

#define TOL 1e-12

/* ------------------------------------------------------------- cases */

/* The tet, pri and pyr cases' boxes; box-parts.sh partitions the same. */
#define TET_MESH "mesh: {type: box, lower: [-1, 0, 0], upper: [1, 2, 3], " \
                 "n: [4, 3, 3], etype: tet, periodic: [yes, no, yes]}"
#define PRI_MESH "mesh: {type: box, lower: [-1, 0, 0], upper: [1, 2, 3], " \
                 "n: [4, 3, 3], etype: prism, order: 2, "                   \
                 "periodic: [yes, no, yes]}"
#define PYR_MESH "mesh: {type: box, lower: [-1, 0, 0], upper: [1, 2, 3], " \
                 "n: [3, 3, 2], etype: pyramid, order: 2, "                 \
                 "periodic: [yes, no, yes]}"

/* The Gmsh file of a case of two types, and its folder (rank 0 removes
 * both at the end). */
static char msh_dir[4096], msh_file[4200];

struct tcase {
    char yaml[4400];
    double weights[64]; /* expected shares; 0: not checked */
    double lo[3], hi[3];
    int linear;
};

static void weights_list(char *buf, size_t n, const double *w)
{
    size_t len = (size_t)snprintf(buf, n, "[");
    for (int r = 0; r < size; r++)
        len += (size_t)snprintf(buf + len, n - len, "%s%g", r ? ", " : "",
                                w[r]);
    snprintf(buf + len, n - len, "]");
}

/* Rank 0 writes the Gmsh file of case hex-pri, tet-pri or hex-pyr-tet
 * (gmshwrite.c) and every rank learns its path; t's box [0, n]. */
static int write_mixed(const char *name, struct tcase *t)
{
    int hex = !strcmp(name, "hex-pri");
    /* hex-pri: 4 x 3 x 2 cubes, x < 2 hexahedra, periodic in z (each
     * side quadrilaterals and triangles); tet-pri: 3 x 2 x 2 cubes,
     * z < 1 tetrahedra, periodic in x (triangles and quadrilaterals)
     * and z (the tetrahedra's bottom triangles meet the prisms' top) */
    struct gw_spec s = {.n = {4, 3, 2}, .type = 12, .type2 = 13, .axis2 = 0,
                        .from2 = 2, .region = "fluid",
                        .sides = {"left", "right", "bottom", "top",
                                  "periodic_z_l", "periodic_z_r"}};
    if (!strcmp(name, "hex-pyr-tet")) {
        /* 3 x 2 x 2 cubes: hexahedra, a pyramid and four tetrahedra a
         * cube, tetrahedra along x; periodic in z (quadrilaterals and
         * triangles) */
        s = (struct gw_spec){.n = {3, 2, 2}, .type = 12, .type2 = 14,
                             .axis2 = 0, .from2 = 1, .type3 = 11,
                             .from3 = 2, .pyr_tets = 1, .region = "fluid",
                             .sides = {"left", "right", "bottom", "top",
                                       "periodic_z_l", "periodic_z_r"}};
    } else if (!hex) {
        s = (struct gw_spec){.n = {3, 2, 2}, .type = 4, .type2 = 6,
                             .axis2 = 2, .from2 = 1, .region = "fluid",
                             .sides = {"periodic_x_l", "periodic_x_r",
                                       "bottom", "top", "periodic_z_l",
                                       "periodic_z_r"}};
    }
    for (int k = 0; k < 3; k++) {
        t->lo[k] = 0;
        t->hi[k] = s.n[k];
    }
    int ok = 1;
    if (rank == 0) {
        const char *tmp = getenv("TMPDIR");
        snprintf(msh_dir, sizeof msh_dir, "%s/frx-mesh-parts.XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        ok = mkdtemp(msh_dir) != NULL;
        if (ok) {
            struct gw_mesh m;
            struct gw_file f;
            gw_make(&s, &m);
            gw_write(&m, 41, 1, &f);
            gw_save(msh_dir, "mixed.msh", f.p, f.n);
            gw_file_free(&f);
            gw_free(&m);
        }
        snprintf(msh_file, sizeof msh_file, "%s/mixed.msh", msh_dir);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(msh_file, sizeof msh_file, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (!ok && rank == 0)
        perror(msh_dir);
    return ok ? 0 : -1;
}

static int make_case(const char *name, struct tcase *t)
{
    static const double lo2[3] = {-1, 0, 0}, hi2[3] = {1, 2, 0};
    memset(t, 0, sizeof *t);
    memcpy(t->lo, lo2, sizeof lo2);
    memcpy(t->hi, hi2, sizeof hi2);
    const char *head = "backend: {precision: double}\n";
    char wl[512];
    double w[64];
    for (int r = 0; r < size && r < 64; r++)
        w[r] = 1 + (3 * r + 2) % 4; /* 3, 2, 1, 4, ... */
    weights_list(wl, sizeof wl, w);
    if (!strcmp(name, "weights") || !strcmp(name, "linear")) {
        t->linear = !strcmp(name, "linear");
        snprintf(t->yaml, sizeof t->yaml,
                 "%smesh: {type: box, lower: [-1, 0], upper: [1, 2], "
                 "n: [40, 40], periodic: [yes, no]}\n"
                 "partition: {method: %s, weights: %s}\n", head,
                 t->linear ? "linear" : "metis", wl);
        memcpy(t->weights, w, sizeof w);
    } else if (!strcmp(name, "rules")) {
        snprintf(t->yaml, sizeof t->yaml,
                 "backend:\n  precision: double\n  rules:\n"
                 "    - {ranks: \"0\", name: openmp, weight: 3}\n"
                 "    - {ranks: \"1-63\", name: openmp}\n"
                 "mesh: {type: box, lower: [-1, 0], upper: [1, 2], "
                 "n: [40, 40]}\n");
        for (int r = 0; r < size; r++)
            t->weights[r] = r == 0 ? 3 : 1;
    } else if (!strcmp(name, "periodic")) {
        snprintf(t->yaml, sizeof t->yaml,
                 "%smesh: {type: box, lower: [-1, 0], upper: [1, 2], "
                 "n: [12, 10], periodic: [yes, yes]}\n", head);
    } else if (!strcmp(name, "tri")) {
        snprintf(t->yaml, sizeof t->yaml,
                 "%smesh: {type: box, lower: [-1, 0], upper: [1, 2], "
                 "n: [16, 12], etype: tri, order: 2, periodic: [no, yes]}\n",
                 head);
    } else if (!strcmp(name, "hex")) {
        t->hi[2] = 3;
        snprintf(t->yaml, sizeof t->yaml,
                 "%smesh: {type: box, lower: [-1, 0, 0], upper: [1, 2, 3], "
                 "n: [6, 5, 4], periodic: [yes, no, yes]}\n", head);
    } else if (!strcmp(name, "tet")) {
        t->hi[2] = 3;
        snprintf(t->yaml, sizeof t->yaml, "%s" TET_MESH "\n", head);
    } else if (!strcmp(name, "pri")) {
        t->hi[2] = 3;
        snprintf(t->yaml, sizeof t->yaml, "%s" PRI_MESH "\n", head);
    } else if (!strcmp(name, "pyr")) {
        t->hi[2] = 3;
        snprintf(t->yaml, sizeof t->yaml, "%s" PYR_MESH "\n", head);
    } else if (!strcmp(name, "hex-pri") || !strcmp(name, "tet-pri") ||
               !strcmp(name, "hex-pyr-tet")) {
        if (write_mixed(name, t))
            return -1;
        snprintf(t->yaml, sizeof t->yaml, "%smesh: {type: gmsh, file: %s}\n",
                 head, msh_file);
    } else if (!strcmp(name, "tiny")) {
        /* one element more than ranks in a row: METIS alone may leave
         * ranks empty there */
        snprintf(t->yaml, sizeof t->yaml,
                 "%smesh: {type: box, lower: [-1, 0], upper: [1, 2], "
                 "n: [%d, 1]}\n", head, size + 1);
    } else if (!strcmp(name, "tiny-linear")) {
        t->linear = 1;
        size_t len = (size_t)snprintf(t->yaml, sizeof t->yaml,
                                      "%smesh: {type: box, lower: [-1, 0], "
                                      "upper: [1, 2], n: [%d, 1]}\n"
                                      "partition: {method: linear, "
                                      "weights: [100", head, size);
        for (int r = 1; r < size; r++)
            len += (size_t)snprintf(t->yaml + len, sizeof t->yaml - len,
                                    ", 1");
        snprintf(t->yaml + len, sizeof t->yaml - len, "]}\n");
    } else if (!strcmp(name, "too-few")) {
        snprintf(t->yaml, sizeof t->yaml,
                 "%smesh: {type: box, n: [1, %d]}\n", head, size - 1);
    } else if (!strcmp(name, "weights-mismatch")) {
        /* one weight more than the job has ranks */
        size_t len = (size_t)snprintf(t->yaml, sizeof t->yaml,
                                      "%smesh: {type: box, n: [4, 4]}\n"
                                      "partition: {weights: [", head);
        for (int r = 0; r <= size; r++)
            len += (size_t)snprintf(t->yaml + len, sizeof t->yaml - len,
                                    "%s1", r ? ", " : "");
        snprintf(t->yaml + len, sizeof t->yaml - len, "]}\n");
    } else {
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ checks */

static frx_mesh_info info_of(const frx_mesh *m)
{
    frx_mesh_info i = {.size = sizeof i};
    frx_mesh_get_info(m, &i);
    return i;
}

static frx_mesh_block block_of(const frx_mesh *m, size_t b)
{
    frx_mesh_block x = {.size = sizeof x};
    frx_mesh_get_block(m, b, &x);
    return x;
}

static void shift_of(const frx_mesh *m, int32_t p, double *s)
{
    frx_mesh_periodic x = {.size = sizeof x};
    memset(s, 0, 3 * sizeof *s);
    if (p >= 0 && frx_mesh_get_periodic(m, (size_t)p, &x) == FRX_OK)
        memcpy(s, x.shift, sizeof x.shift);
}

/* Every global element on exactly one rank; each rank's share by
 * weight; the owner of every element into owner[]. */
static void check_elements(const frx_mesh *m, const struct tcase *t,
                           int *owner)
{
    frx_mesh_info in = info_of(m);
    uint64_t N = in.neles_global;
    int mine = (int)in.neles, *counts = calloc((size_t)size, sizeof *counts);
    int *displs = calloc((size_t)size, sizeof *displs);
    uint64_t *gids = calloc(in.neles + 1, sizeof *gids);
    uint64_t *all = calloc(N, sizeof *all);
    size_t k = 0;
    for (size_t b = 0; b < in.nblocks; b++) {
        frx_mesh_block B = block_of(m, b);
        for (size_t e = 0; e < B.neles; e++) {
            CHECK(e == 0 || B.gid[e] > B.gid[e - 1],
                  "block %zu: gids not ascending at %zu", b, e);
            CHECK(mu_orientation(m, (uint32_t)b, (uint32_t)e) > 0,
                  "element %llu inverted", (unsigned long long)B.gid[e]);
            gids[k++] = B.gid[e];
        }
    }
    MPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (int r = 0; r < size; r++) {
        displs[r] = total;
        total += counts[r];
    }
    CHECK((uint64_t)total == N, "%d elements on the ranks, %llu in the mesh",
          total, (unsigned long long)N);
    for (int r = 0; r < size; r++)
        CHECK(counts[r] > 0, "rank %d has no element", r);
    if ((uint64_t)total == N)
        MPI_Allgatherv(gids, mine, MPI_UINT64_T, all, counts, displs,
                       MPI_UINT64_T, MPI_COMM_WORLD);
    for (size_t e = 0; e < N; e++)
        owner[e] = -1;
    int twice = 0, missing = 0;
    for (int r = 0; r < size && (uint64_t)total == N; r++)
        for (int i = 0; i < counts[r]; i++) {
            uint64_t g = all[displs[r] + i];
            if (g >= N || owner[g] >= 0)
                twice++;
            else
                owner[g] = r;
        }
    for (size_t e = 0; e < N; e++)
        missing += owner[e] < 0;
    CHECK(!twice && !missing, "%d elements on two ranks, %d on none", twice,
          missing);
    if (t->weights[0] > 0) {
        double sum = 0;
        for (int r = 0; r < size; r++)
            sum += t->weights[r];
        for (int r = 0; r < size; r++) {
            double want = (double)N * t->weights[r] / sum;
            CHECK(fabs(counts[r] - want) <= 0.05 * want,
                  "rank %d has %d elements, its weight %g of %g asks %.1f",
                  r, counts[r], t->weights[r], sum, want);
        }
    }
    if (t->linear) /* contiguous ranges in rank order */
        for (size_t e = 1; e < N; e++)
            CHECK(owner[e] >= owner[e - 1], "linear: element %zu on rank %d "
                  "after rank %d", e, owner[e], owner[e - 1]);
    free(counts);
    free(displs);
    free(gids);
    free(all);
}

/* The place where side s meets side o, corner k of s. */
static int other_corner(int ndims, int nc, int rot, int k)
{
    return ndims == 2 ? nc - 1 - k : (rot - k + nc) % nc;
}

static void check_ifaces(const frx_mesh *m)
{
    const frx_mesh_iface *f;
    size_t n, elsize;
    frx_mesh_get_ifaces(m, &f, &n, &elsize);
    int d = info_of(m).ndims;
    for (size_t i = 0; i < n; i++) {
        double shift[3], a[3], b[3];
        shift_of(m, f[i].periodic, shift);
        int nc = mu_face_ncorners(m, f[i].l);
        for (int k = 0; k < nc; k++) {
            mu_face_corner(m, f[i].l, k, a);
            mu_face_corner(m, f[i].r, other_corner(d, nc, f[i].l.rot, k), b);
            CHECK(mu_dist(b, a, shift, d) < TOL, "interior face %zu corner "
                  "%d does not meet", i, k);
        }
    }
}

/* What a rank tells a peer about one shared face. */
struct rec {
    uint64_t gid;
    int32_t face, periodic, rot, nc;
    double mid[3];
    double corner[4][3];
};

/* The canonical side's (gid, face) as one comparable number. */
static uint64_t key_of(uint64_t gid, int face)
{
    return gid * 8 + (uint64_t)face;
}

static void check_peers(const frx_mesh *m, const int *owner, size_t *nshared)
{
    frx_mesh_info in = info_of(m);
    int d = in.ndims;
    int last_rank = -1;
    *nshared = 0;
    for (size_t p = 0; p < in.npeers; p++) {
        frx_mesh_peer P = {.size = sizeof P};
        frx_mesh_get_peer(m, p, &P);
        CHECK(P.face_size == sizeof(frx_face), "face_size %zu", P.face_size);
        CHECK(P.rank > last_rank && P.rank != rank && P.rank < size &&
                  P.nfaces > 0,
              "peer %zu: rank %d after %d with %zu faces", p, P.rank,
              last_rank, P.nfaces);
        last_rank = P.rank;
        *nshared += P.nfaces;
        unsigned long long theirs_n = 0, mine_n = P.nfaces;
        MPI_Sendrecv(&mine_n, 1, MPI_UNSIGNED_LONG_LONG, P.rank, 0, &theirs_n,
                     1, MPI_UNSIGNED_LONG_LONG, P.rank, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        CHECK(theirs_n == mine_n, "rank %d lists %llu faces with me, I %llu",
              P.rank, theirs_n, mine_n);
        if (theirs_n != mine_n)
            continue;
        struct rec *mine = calloc(P.nfaces + 1, sizeof *mine);
        struct rec *other = calloc(P.nfaces + 1, sizeof *other);
        for (size_t i = 0; i < P.nfaces; i++) {
            struct rec *r = &mine[i];
            r->gid = mu_gid(m, P.faces[i]);
            r->face = P.faces[i].face;
            r->periodic = P.periodic[i];
            r->rot = P.faces[i].rot;
            r->nc = mu_face_ncorners(m, P.faces[i]);
            mu_face_mid(m, P.faces[i], r->mid);
            for (int k = 0; k < r->nc; k++)
                mu_face_corner(m, P.faces[i], k, r->corner[k]);
            CHECK(owner[r->gid] == rank, "I list element %llu, owned by %d",
                  (unsigned long long)r->gid, owner[r->gid]);
        }
        MPI_Sendrecv(mine, (int)(P.nfaces * sizeof *mine), MPI_BYTE, P.rank,
                     1, other, (int)(P.nfaces * sizeof *other), MPI_BYTE,
                     P.rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        uint64_t last = 0;
        for (size_t i = 0; i < P.nfaces; i++) {
            const struct rec *a = &mine[i], *b = &other[i];
            double shift[3];
            shift_of(m, a->periodic, shift);
            CHECK(owner[b->gid] == P.rank, "rank %d sent element %llu, owned "
                  "by %d", P.rank, (unsigned long long)b->gid, owner[b->gid]);
            CHECK(a->periodic == b->periodic && a->rot == b->rot &&
                      a->nc == b->nc,
                  "face %zu with rank %d: periodic %d/%d rot %d/%d", i,
                  P.rank, a->periodic, b->periodic, a->rot, b->rot);
            /* the other side lies at mine, mine + shift or mine - shift;
             * side 0 of a periodic pair is the one the shift moves onto
             * the other */
            int sign = 0;
            if (a->periodic >= 0)
                sign = mu_dist(b->mid, a->mid, shift, d) < TOL ? 1
                     : mu_dist(a->mid, b->mid, shift, d) < TOL ? -1 : 2;
            CHECK(sign != 2 && (a->periodic >= 0 ||
                                mu_dist(a->mid, b->mid, NULL, d) < TOL),
                  "face %zu with rank %d: midpoints (%g, %g) and (%g, %g)",
                  i, P.rank, a->mid[0], a->mid[1], b->mid[0], b->mid[1]);
            for (int k = 0; k < a->nc && sign != 2 && a->nc == b->nc; k++) {
                double s[3];
                for (int j = 0; j < 3; j++)
                    s[j] = sign * shift[j];
                int o = other_corner(d, a->nc, a->rot, k);
                CHECK(mu_dist(b->corner[o], a->corner[k], s, d) < TOL,
                      "face %zu with rank %d: corner %d meets no corner", i,
                      P.rank, k);
            }
            /* the agreed order: ascending by canonical side */
            uint64_t ka = key_of(a->gid, a->face), kb = key_of(b->gid,
                                                                b->face);
            uint64_t key = sign == 1 ? ka : sign == -1 ? kb
                         : ka < kb ? ka : kb;
            CHECK(merged || i == 0 || key > last, "face %zu with rank %d out "
                  "of order", i, P.rank);
            last = key;
        }
        free(mine);
        free(other);
    }
}

/* Boundaries: the same names on every rank, faces on their sides. */
static void check_bcs(const frx_mesh *m, const struct tcase *t, size_t *nb)
{
    static const char *const names[] = {"left", "right", "bottom", "top",
                                        "back", "front"};
    frx_mesh_info in = info_of(m);
    char list[256] = "", list0[256];
    *nb = 0;
    for (size_t i = 0; i < in.nbcs; i++) {
        frx_mesh_bc B = {.size = sizeof B};
        frx_mesh_get_bc(m, i, &B);
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s ", B.name);
        int w = 0;
        while (w < 6 && strcmp(names[w], B.name))
            w++;
        CHECK(w < 6, "boundary '%s'", B.name);
        for (size_t j = 0; j < B.nfaces && w < 6; j++) {
            double x[3];
            mu_face_mid(m, B.faces[j], x);
            double want = w % 2 ? t->hi[w / 2] : t->lo[w / 2];
            CHECK(x[w / 2] == want, "%s face %zu at %g", B.name, j,
                  x[w / 2]);
        }
        *nb += B.nfaces;
    }
    memcpy(list0, list, sizeof list);
    MPI_Bcast(list0, sizeof list0, MPI_CHAR, 0, MPI_COMM_WORLD);
    CHECK(!strcmp(list, list0), "boundaries '%s', rank 0 has '%s'", list,
          list0);
}

/* Every element face once: interior (two sides here), shared (one side
 * here, one on a peer) or boundary. */
static void check_face_total(const frx_mesh *m, size_t nshared, size_t nb)
{
    frx_mesh_info in = info_of(m);
    unsigned long long sides = 0, counted, v[2];
    for (size_t b = 0; b < in.nblocks; b++)
        sides += block_of(m, b).neles * block_of(m, b).nfaces;
    counted = 2 * in.nifaces + nshared + nb;
    unsigned long long mine[2] = {sides, counted};
    MPI_Allreduce(mine, v, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                  MPI_COMM_WORLD);
    CHECK(v[0] == v[1], "%llu element faces, %llu counted", v[0], v[1]);
}

static void check_id(const frx_mesh *m)
{
    char id[65], id0[65];
    memcpy(id, info_of(m).id, sizeof id);
    memcpy(id0, id, sizeof id);
    MPI_Bcast(id0, sizeof id0, MPI_CHAR, 0, MPI_COMM_WORLD);
    CHECK(strlen(id) == 64 && !strcmp(id, id0), "id %s, rank 0 %s", id, id0);
}

/* The same partition and face lists from a second create. */
static void check_same(const frx_mesh *a, const frx_mesh *b)
{
    frx_mesh_info ia = info_of(a), ib = info_of(b);
    CHECK(ia.neles == ib.neles && ia.nblocks == ib.nblocks &&
              ia.nifaces == ib.nifaces && ia.npeers == ib.npeers,
          "a second mesh differs: %llu/%llu elements",
          (unsigned long long)ia.neles, (unsigned long long)ib.neles);
    for (size_t k = 0; k < ia.nblocks && ia.nblocks == ib.nblocks; k++) {
        frx_mesh_block x = block_of(a, k), y = block_of(b, k);
        CHECK(x.neles == y.neles &&
                  !memcmp(x.gid, y.gid, x.neles * sizeof *x.gid),
              "block %zu differs the second time", k);
    }
    for (size_t p = 0; p < ia.npeers && ia.npeers == ib.npeers; p++) {
        frx_mesh_peer x = {.size = sizeof x}, y = {.size = sizeof y};
        frx_mesh_get_peer(a, p, &x);
        frx_mesh_get_peer(b, p, &y);
        CHECK(x.rank == y.rank && x.nfaces == y.nfaces &&
                  !memcmp(x.faces, y.faces, x.nfaces * sizeof *x.faces),
              "peer %zu differs the second time", p);
    }
}

/* A mesh read from a partitioned file against the box it was made from:
 * the same id; on as many ranks as the file has parts, the same parts. */
static void check_built(const frx_mesh *m, const char *yaml, int nparts)
{
    frx_config *cfg = NULL;
    frx_mesh *b = NULL;
    int rc = frx_config_parse(yaml, strlen(yaml), "built.yaml", &cfg);
    if (rc == FRX_OK)
        rc = frx_mesh_create(cfg, MPI_COMM_WORLD, &b);
    CHECK(rc == FRX_OK, "the box built: %s", frx_errmsg());
    if (rc == FRX_OK) {
        frx_mesh_info a = info_of(m), c = info_of(b);
        CHECK(!strcmp(a.id, c.id), "the file's mesh id %s, the box's %s",
              a.id, c.id);
        if (size == nparts)
            check_same(m, b);
    }
    frx_mesh_destroy(b);
    frx_config_free(cfg);
}

static void print_digest(const int *owner, uint64_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (uint64_t e = 0; e < n; e++) {
        h ^= (uint64_t)owner[e];
        h *= 1099511628211ULL;
    }
    if (rank == 0)
        printf("partition digest: %016llx\n", (unsigned long long)h);
}

/* ------------------------------------------------------------ main */

static int expect_refusal(const frx_config *cfg, const char *want)
{
    frx_mesh *m = NULL;
    int rc = frx_mesh_create(cfg, MPI_COMM_WORLD, &m);
    CHECK(rc == FRX_ECONFIG && !m, "rc %d: a refusal was expected", rc);
    CHECK(strstr(frx_errmsg(), want) != NULL, "message lacks '%s': %s", want,
          frx_errmsg());
    if (rank == 0)
        printf("refused: %s\n", frx_errmsg());
    frx_mesh_destroy(m);
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct tcase t;
    /* CASE-file: the box of CASE */
    char box[8] = "";
    if (argc == 4 && (!strcmp(argv[1], "tet-file") ||
                      !strcmp(argv[1], "pri-file") ||
                      !strcmp(argv[1], "pyr-file")))
        memcpy(box, argv[1], 3);
    const char *file = box[0] ? argv[2] : NULL;
    int nparts = file ? atoi(argv[3]) : 0;
    if ((argc != 2 && !file) || size > 64 ||
        make_case(file ? box : argv[1], &t)) {
        if (rank == 0)
            fprintf(stderr, "usage: test_mesh_parts weights|rules|linear|"
                    "periodic|tri|hex|tet|pri|pyr|hex-pri|tet-pri|"
                    "hex-pyr-tet|tiny|tiny-linear|too-few|weights-mismatch "
                    "(<= 64 ranks), or tet-file|pri-file|pyr-file FILE "
                    "NPARTS\n");
        MPI_Finalize();
        return 2;
    }
    merged = file && size < nparts;
    char built[sizeof t.yaml];
    memcpy(built, t.yaml, sizeof built);
    if (file)
        snprintf(t.yaml, sizeof t.yaml, "backend: {precision: double}\n"
                 "mesh: {type: partitioned, file: %s}\n", file);
    frx_config *cfg = NULL;
    if (frx_config_parse(t.yaml, strlen(t.yaml), "case.yaml", &cfg)) {
        fprintf(stderr, "rank %d: %s\n", rank, frx_errmsg());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    char want[128];
    if (!strcmp(argv[1], "too-few")) {
        snprintf(want, sizeof want, "case.yaml:2:1: the mesh has %d "
                 "element(s), fewer than the job's %d ranks", size - 1, size);
        expect_refusal(cfg, want);
    } else if (!strcmp(argv[1], "weights-mismatch")) {
        snprintf(want, sizeof want, "'partition.weights' has %d weight(s) "
                 "but the job has %d rank(s)", size + 1, size);
        expect_refusal(cfg, want);
    } else {
        frx_mesh *m = NULL, *again = NULL;
        int rc = frx_mesh_create(cfg, MPI_COMM_WORLD, &m);
        CHECK(rc == FRX_OK, "frx_mesh_create: %s", frx_errmsg());
        if (rc == FRX_OK) {
            frx_mesh_info in = info_of(m);
            int *owner = calloc(in.neles_global, sizeof *owner);
            size_t nshared, nb;
            check_elements(m, &t, owner);
            check_ifaces(m);
            check_peers(m, owner, &nshared);
            check_bcs(m, &t, &nb);
            check_face_total(m, nshared, nb);
            check_id(m);
            rc = frx_mesh_create(cfg, MPI_COMM_WORLD, &again);
            CHECK(rc == FRX_OK, "second frx_mesh_create: %s", frx_errmsg());
            if (rc == FRX_OK)
                check_same(m, again);
            if (file)
                check_built(m, built, nparts);
            print_digest(owner, in.neles_global);
            free(owner);
        }
        frx_mesh_destroy(m);
        frx_mesh_destroy(again);
    }
    frx_config_free(cfg);
    if (rank == 0 && msh_dir[0]) {
        remove(msh_file);
        rmdir(msh_dir);
    }
    int f[2] = {npass, nfail}, tot[2];
    MPI_Reduce(f, tot, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s on %d rank(s): %d passed, %d failed\n", argv[1], size,
               tot[0], tot[1]);
    MPI_Bcast(tot, 2, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return tot[1] ? 1 : 0;
}
