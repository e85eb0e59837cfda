/* SPDX-License-Identifier: BSD-3-Clause */
/* Checkpoints: written on N ranks with one element distribution, read
 * back on M ranks with another, bitwise equal, meta data included; the
 * file's rows in gid order whatever the writer's partition; refusals
 * naming the file and both values; missing and damaged files. Run under
 * mpirun with P ranks: every N, M in 1..P is tried, on the first N or M
 * ranks. */
#include "io_mesh.h"

#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int rank, size, nfail, npass;

#include "mpicheck.h"

#define MESH_ID "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

static struct frx__ckpt_meta meta(size_t fs)
{
    struct frx__ckpt_meta m = {
        .t = 0.1 + 1.0 / 3, .dt = 1e-3 / 7, .step = 123456789012ull,
        .nrhs = 4 * 123456789012ull, .ctrl = {1.5, -2.25, 1e-300, 7},
        .precision = fs == 4 ? FRX_SINGLE : FRX_DOUBLE};
    snprintf(m.scheme, sizeof m.scheme, "rk45");
    snprintf(m.solver, sizeof m.solver, "advect");
    snprintf(m.mesh_id, sizeof m.mesh_id, "%s", MESH_ID);
    return m;
}

/* This run's side of a restart: what it checks the file against. */
static struct frx__ckpt_meta expect(size_t fs)
{
    struct frx__ckpt_meta m = {.precision = fs == 4 ? FRX_SINGLE
                                                    : FRX_DOUBLE};
    snprintf(m.solver, sizeof m.solver, "advect");
    snprintf(m.mesh_id, sizeof m.mesh_id, "%s", MESH_ID);
    return m;
}

static size_t u_bytes(const struct io_mesh *m, size_t b)
{
    return m->sb[b].nupts * IO_NVARS * m->sb[b].neles * m->f.fpsize;
}

/* Rank 0 reads the file as any HDF5 program would: each type's rows are
 * its elements in ascending gid order, whoever wrote them, each row
 * [nupts][nvars] of that element's values. */
static void check_rows(const char *path, size_t fs)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(f >= 0, "%s: cannot open with serial HDF5", path);
    if (f < 0)
        return;
    static const char *names[] = {"quad", "tri"};
    static const int types[] = {FRX_ETYPE_QUAD, FRX_ETYPE_TRI};
    for (int t = 0; t < 2; t++) {
        char p[64];
        size_t nupts = types[t] == FRX_ETYPE_TRI ? 3 : 4, n = 0, bad = 0;
        uint64_t gid[IO_NELES];
        double u[IO_NELES * 4 * IO_NVARS];
        snprintf(p, sizeof p, "/solution/%s/gid", names[t]);
        hid_t d = H5Dopen2(f, p, H5P_DEFAULT);
        hid_t sp = d >= 0 ? H5Dget_space(d) : -1;
        n = sp >= 0 ? (size_t)H5Sget_simple_extent_npoints(sp) : 0;
        CHECK(n <= IO_NELES && d >= 0 &&
                  H5Dread(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL,
                          H5P_DEFAULT, gid) >= 0,
              "%s: %s", path, p);
        H5Sclose(sp);
        H5Dclose(d);
        snprintf(p, sizeof p, "/solution/%s/u", names[t]);
        d = H5Dopen2(f, p, H5P_DEFAULT);
        CHECK(d >= 0 && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
                                H5P_DEFAULT, u) >= 0,
              "%s: %s", path, p);
        H5Dclose(d);
        size_t i = 0;
        for (uint64_t g = 0; g < IO_NELES; g++) {
            if (io_etype(g) != types[t])
                continue;
            bad += i >= n || gid[i] != g;
            for (size_t k = 0; k < nupts && !bad; k++)
                for (size_t v = 0; v < IO_NVARS; v++) {
                    double x = io_value(IO_BITS, g, k, v, 0, 0);
                    if (fs == 4)
                        x = (float)x;
                    bad += u[(i * nupts + k) * IO_NVARS + v] != x;
                }
            i++;
        }
        CHECK(!bad && i == n, "%s: %s rows are not in gid order with their "
              "values", path, names[t]);
    }
    H5Fclose(f);
}

/* The first n ranks of the world, or MPI_COMM_NULL on the others. */
static MPI_Comm first(int n)
{
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, rank < n ? 0 : MPI_UNDEFINED, rank, &c);
    return c;
}

static void roundtrip(const char *dir, size_t fs, int n, int m, int dw,
                      int dr)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/ckpt-%zu-%d-%d.h5", dir, fs, n, m);
    struct frx__ckpt_meta wm = meta(fs);
    MPI_Comm c = first(n);
    if (c != MPI_COMM_NULL) {
        struct io_mesh w;
        CHECK(io_mesh_make(&w, rank, n, dw, fs, IO_BITS) == 0, "memory");
        int rc = frx__ckpt_write(c, path, &wm, &w.f);
        CHECK(rc == FRX_OK, "write on %d ranks: %s", n, frx_errmsg());
        io_mesh_free(&w);
        MPI_Comm_free(&c);
    }
    if (rank == 0)
        check_rows(path, fs);
    MPI_Barrier(MPI_COMM_WORLD);
    c = first(m);
    if (c == MPI_COMM_NULL)
        return;
    struct io_mesh r, want;
    CHECK(io_mesh_make(&r, rank, m, dr, fs, IO_BITS) == 0 &&
              io_mesh_make(&want, rank, m, dr, fs, IO_BITS) == 0,
          "memory");
    for (size_t b = 0; b < r.f.nblocks; b++)
        memset(r.u[b], 0, u_bytes(&r, b));
    struct frx__ckpt_meta rm = expect(fs);
    int rc = frx__ckpt_read(c, path, &rm, &r.f);
    CHECK(rc == FRX_OK, "read on %d ranks: %s", m, frx_errmsg());
    for (size_t b = 0; b < r.f.nblocks; b++)
        CHECK(memcmp(r.u[b], want.u[b], u_bytes(&r, b)) == 0,
              "%zu-byte values written on %d ranks (distribution %d), "
              "read on %d (distribution %d): block %zu differs", fs, n, dw,
              m, dr, b);
    CHECK(rm.t == wm.t && rm.dt == wm.dt && rm.step == wm.step &&
              rm.nrhs == wm.nrhs &&
              !memcmp(rm.ctrl, wm.ctrl, sizeof rm.ctrl) &&
              !strcmp(rm.scheme, wm.scheme) &&
              !strcmp(rm.solver, wm.solver) &&
              !strcmp(rm.mesh_id, wm.mesh_id) &&
              rm.precision == wm.precision,
          "meta data read back differs");
    io_mesh_free(&r);
    io_mesh_free(&want);
    MPI_Comm_free(&c);
}

/* Every rank returned want, and the message holds each needle. */
static void check_refused(int rc, int want, const char *const *needles)
{
    int lo = rc, hi = rc;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && getenv("IO_TEST_VERBOSE")) /* to read them */
        printf("refused: %s\n", frx_errmsg());
    CHECK(lo == want && hi == want, "rc %d..%d, %d expected (%s)", lo, hi,
          want, frx_errmsg());
    for (; *needles; needles++)
        CHECK(strstr(frx_errmsg(), *needles), "message \"%s\" lacks \"%s\"",
              frx_errmsg(), *needles);
}

#define NEEDLES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Read path into a fresh mesh (after edit) and expect a refusal. */
static void refused(const char *path, size_t fs, struct frx__ckpt_meta *rm,
                    void (*edit)(struct io_mesh *), int want,
                    const char *const *needles)
{
    struct io_mesh r;
    CHECK(io_mesh_make(&r, rank, size, 1, fs, IO_BITS) == 0, "memory");
    if (edit)
        edit(&r);
    struct frx__ckpt_meta before = *rm;
    int rc = frx__ckpt_read(MPI_COMM_WORLD, path, rm, &r.f);
    check_refused(rc, want, needles);
    CHECK(!memcmp(&before, rm, sizeof before), "meta changed by a refused "
          "read");
    io_mesh_free(&r);
}

static void rename_var(struct io_mesh *m) { m->vars[2].name = "E"; }
static void two_vars(struct io_mesh *m) { m->f.nvars = 2; }

static void drop_last(struct io_mesh *m)
{
    for (size_t b = 0; b < m->f.nblocks; b++)
        if (m->sb[b].neles && m->gid[b][m->sb[b].neles - 1] == IO_NELES - 1)
            m->sb[b].neles--;
}

/* the same counts, another element: 38 (a quadrilateral) for 36 */
static void other_gid(struct io_mesh *m)
{
    for (size_t b = 0; b < m->f.nblocks; b++)
        if (m->sb[b].neles && m->gid[b][m->sb[b].neles - 1] == IO_NELES - 1)
            m->gid[b][m->sb[b].neles - 1] = IO_NELES + 1;
}

static void five_upts(struct io_mesh *m)
{
    for (size_t b = 0; b < m->f.nblocks; b++)
        if (m->blocks[b].etype == FRX_ETYPE_QUAD)
            m->sb[b].nupts = 5;
}

static void refusals(const char *dir)
{
    char path[1024], msg[2048];
    snprintf(path, sizeof path, "%s/ref.h5", dir);
    struct io_mesh w;
    CHECK(io_mesh_make(&w, rank, size, 1, 8, IO_BITS) == 0, "memory");
    struct frx__ckpt_meta wm = meta(8);
    CHECK(frx__ckpt_write(MPI_COMM_WORLD, path, &wm, &w.f) == FRX_OK,
          "write: %s", frx_errmsg());

    struct frx__ckpt_meta rm = expect(8);
    rm.mesh_id[0] = 'a';
    snprintf(msg, sizeof msg, "mesh: %s in the file, a%s in this run",
             MESH_ID, MESH_ID + 1);
    refused(path, 8, &rm, NULL, FRX_ECONFIG, NEEDLES(path, msg));

    rm = expect(8);
    snprintf(rm.solver, sizeof rm.solver, "euler");
    refused(path, 8, &rm, NULL, FRX_ECONFIG,
            NEEDLES(path, "solver: advect in the file, euler in this run"));

    rm = expect(4);
    refused(path, 4, &rm, NULL, FRX_ECONFIG,
            NEEDLES(path, "precision: double in the file, single in this "
                          "run",
                    "quad solution: values of 8 bytes in the file, 4 in "
                    "this run"));

    rm = expect(8);
    refused(path, 8, &rm, rename_var, FRX_ECONFIG,
            NEEDLES(path, "variable 2: p&<q>\" in the file, E in this run"));
    refused(path, 8, &rm, two_vars, FRX_ECONFIG,
            NEEDLES(path, "variables: 3 in the file, 2 in this run"));
    refused(path, 8, &rm, drop_last, FRX_ECONFIG,
            NEEDLES(path, "quad elements: 25 in the file, 24 in this run"));
    refused(path, 8, &rm, other_gid, FRX_ECONFIG,
            NEEDLES(path, "row 24 holds quad element 36, this run's mesh "
                          "has element 38 there"));
    refused(path, 8, &rm, five_upts, FRX_ECONFIG,
            NEEDLES(path, "points per quad element: 4 in the file, 5 in "
                          "this run"));

    /* missing, not HDF5, truncated */
    char bad[1024];
    snprintf(bad, sizeof bad, "%s/missing.h5", dir);
    refused(bad, 8, &rm, NULL, FRX_EIO,
            NEEDLES(bad, "cannot open the checkpoint", "no such file"));
    snprintf(bad, sizeof bad, "%s/garbage.h5", dir);
    if (rank == 0) {
        FILE *fp = fopen(bad, "w");
        CHECK(fp && fputs("not a checkpoint\n", fp) >= 0 && !fclose(fp),
              "%s", bad);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    refused(bad, 8, &rm, NULL, FRX_EIO,
            NEEDLES(bad, "cannot open the checkpoint", "signature"));
    snprintf(bad, sizeof bad, "%s/short.h5", dir);
    if (rank == 0) {
        size_t len;
        FILE *in = fopen(path, "rb"), *out = fopen(bad, "wb");
        char buf[1 << 16];
        len = in ? fread(buf, 1, sizeof buf, in) : 0;
        CHECK(in && out && len > 2000 &&
                  fwrite(buf, 1, len / 2, out) == len / 2,
              "copy %s", bad);
        if (in)
            fclose(in);
        if (out)
            fclose(out);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    refused(bad, 8, &rm, NULL, FRX_EIO, NEEDLES(bad, "truncated"));

    /* a folder that is not there yet is made (rank 0); one that cannot
     * be made, a file in its way, is refused on every rank */
    rm = expect(8);
    snprintf(bad, sizeof bad, "%s/new/deeper/x.h5", dir);
    CHECK(frx__ckpt_write(MPI_COMM_WORLD, bad, &wm, &w.f) == FRX_OK,
          "into folders not made yet: %s", frx_errmsg());
    CHECK(access(bad, R_OK) == 0, "%s was not written", bad);
    snprintf(bad, sizeof bad, "%s/afile", dir);
    if (rank == 0) {
        FILE *f = fopen(bad, "w");
        CHECK(f && fclose(f) == 0, "cannot make %s", bad);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    snprintf(bad, sizeof bad, "%s/afile/x.h5", dir);
    int rc = frx__ckpt_write(MPI_COMM_WORLD, bad, &wm, &w.f);
    snprintf(msg, sizeof msg, "cannot create folder %s/afile: a file of "
             "that name is in the way", dir);
    check_refused(rc, FRX_EIO, NEEDLES(msg));

    /* writing over a checkpoint replaces it whole; no temporary stays */
    wm.step = 7;
    CHECK(frx__ckpt_write(MPI_COMM_WORLD, path, &wm, &w.f) == FRX_OK,
          "rewrite: %s", frx_errmsg());
    struct io_mesh r;
    CHECK(io_mesh_make(&r, rank, size, 0, 8, IO_BITS) == 0, "memory");
    CHECK(frx__ckpt_read(MPI_COMM_WORLD, path, &rm, &r.f) == FRX_OK &&
              rm.step == 7, "read the rewritten file: %s", frx_errmsg());
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    CHECK(access(tmp, F_OK) != 0, "%s left behind", tmp);
    io_mesh_free(&r);
    io_mesh_free(&w);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char dir[512];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/ckpt-%d", tmp ? tmp : "/tmp", size);
    if (rank == 0)
        CHECK(mkdir(dir, 0777) == 0 || errno == EEXIST, "mkdir %s", dir);
    MPI_Barrier(MPI_COMM_WORLD);

    for (size_t fs = 4; fs <= 8; fs += 4)
        for (int n = 1; n <= size; n++)
            for (int m = 1; m <= size; m++)
                roundtrip(dir, fs, n, m, (n + m) % IO_NDIST,
                          (n + m + 1) % IO_NDIST);
    refusals(dir);

    int bad = nfail;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &npass, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d passed, %d failed\n", npass, bad);
    MPI_Finalize();
    return bad ? 1 : 0;
}
