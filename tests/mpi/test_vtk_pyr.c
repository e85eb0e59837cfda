/* SPDX-License-Identifier: BSD-3-Clause */
/* Pyramids in VTK output: VTK 9.1 has no Lagrange pyramid, so the
 * writer cuts a pyramid's output points (the equispaced lattice of
 * order n, layer by layer from the base, x fastest) into linear
 * pyramids and tetrahedra as PyFR 1.15 does. Writes, on rank 0, two
 * pyramids (affine images of the reference pyramid) at n = 1 .. 4 as
 * DIR/pyr<n>-000000.pvtu, the one variable u the x coordinate; checks
 * the cell counts in the files and the refusals here. vtk_pyr.py then
 * reads them with VTK's own reader. Run under mpirun:
 *
 *   test_vtk_pyr [DIR]     (default $TMPDIR/vtk-pyr) */
#include "io/io-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, nfail, npass;

#include "mpicheck.h"

#define NELES 2
#define MAXN 4
#define NPTS 55 /* order MAXN's lattice */

/* Element g's map: x = A r + b, det A > 0. */
static void map(int g, const double *r, double *x)
{
    static const double A[NELES][3][3] = {
        {{1, 0.2, 0}, {0, 2, 0.1}, {0, 0, 0.5}},
        {{0, -1, 0}, {1.5, 0, 0}, {0.3, 0.2, 1}}};
    static const double b[NELES][3] = {{0, 0, 0}, {5, 1, -2}};
    for (int i = 0; i < 3; i++)
        x[i] = b[g][i] + A[g][i][0] * r[0] + A[g][i][1] * r[1] +
               A[g][i][2] * r[2];
}

static size_t lattice(size_t n, double (*r)[3])
{
    size_t k = 0;
    for (size_t l = 0; l <= n; l++) {
        size_t m = n - l;
        for (size_t j = 0; j <= m; j++)
            for (size_t i = 0; i <= m; i++, k++) {
                r[k][0] = (2.0 * (double)i - (double)m) / (double)n;
                r[k][1] = (2.0 * (double)j - (double)m) / (double)n;
                r[k][2] = -1 + 2.0 * (double)l / (double)n;
            }
    }
    return k;
}

struct pyr_out {
    frx_solver_var var;
    frx_solver_block sb;
    struct frx__io_block blk;
    struct frx__io_fields f;
    uint64_t gid[NELES];
    double vis_pts[NELES * NPTS * 3], vis_op[NPTS * NPTS], u[NPTS * NELES];
};

/* The output of order n (rank 0's two elements; none elsewhere). */
static void make(struct pyr_out *o, size_t n, int vtk_type)
{
    double r[NPTS][3];
    size_t nvis = lattice(n, r), ne = rank == 0 ? NELES : 0;
    memset(o, 0, sizeof *o);
    o->var.name = "u";
    for (size_t j = 0; j < nvis; j++)
        o->vis_op[j * nvis + j] = 1;
    for (size_t e = 0; e < ne; e++) {
        o->gid[e] = e;
        for (size_t j = 0; j < nvis; j++) {
            double *x = o->vis_pts + (e * nvis + j) * 3;
            map((int)e, r[j], x);
            o->u[j * ne + e] = x[0]; /* [nupts][nvars][neles] */
        }
    }
    o->sb = (frx_solver_block){.size = sizeof o->sb, .nupts = nvis,
                               .neles = ne, .upts = o->vis_pts,
                               .vtk_type = vtk_type, .nvis = nvis,
                               .vis_pts = o->vis_pts, .vis_op = o->vis_op};
    o->blk = (struct frx__io_block){&o->sb, FRX_ETYPE_PYR, o->gid, o->u};
    o->f = (struct frx__io_fields){.ndims = 3, .fpsize = 8, .nvars = 1,
                                   .vars = &o->var,
                                   .var_size = sizeof o->var,
                                   .nblocks = 1, .blocks = &o->blk};
}

/* NumberOfCells in rank 0's piece of output `name`. */
static long cells_in(const char *dir, const char *name)
{
    char path[700], buf[4096] = "";
    snprintf(path, sizeof path, "%s/%s/%s-000000-0.vtu", dir, name, name);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return -1;
    size_t k = fread(buf, 1, sizeof buf - 1, fp);
    buf[k] = '\0';
    fclose(fp);
    const char *p = strstr(buf, "NumberOfCells=\"");
    return p ? atol(p + 15) : -1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char dir[512];
    const char *tmp = getenv("TMPDIR");
    if (argc > 1)
        snprintf(dir, sizeof dir, "%s", argv[1]);
    else
        snprintf(dir, sizeof dir, "%s/vtk-pyr", tmp ? tmp : "/tmp");
    static struct pyr_out o;
    long want = 0; /* cells a pyramid of order n is cut into */
    for (size_t n = 1; n <= MAXN; n++) {
        want += (long)(n * n + (n - 1) * (n - 1) + 2 * n * (n - 1));
        make(&o, n, n == 2 ? 0 : 14); /* 0: chosen, the same */
        char name[16];
        snprintf(name, sizeof name, "pyr%zu", n);
        int rc = frx__vtk_write(MPI_COMM_WORLD, dir, name, &o.f, 0, 0, 0, 0);
        CHECK(rc == FRX_OK, "order %zu written: %s", n, frx_errmsg());
        if (rank == 0)
            CHECK(cells_in(dir, name) == NELES * want, "order %zu: %ld "
                  "cells, want %ld", n, cells_in(dir, name), NELES * want);
    }
    /* not a lattice's points, and VTK 9.2's Lagrange pyramid */
    make(&o, 2, 14);
    o.sb.nvis = 13;
    int rc = frx__vtk_write(MPI_COMM_WORLD, dir, "bad", &o.f, 0, 0, 0, 0);
    CHECK(rc == FRX_EINVAL && strstr(frx_errmsg(), "output block 0 (pyr): "
          "VTK cell type 14 with 13 points per element is not written: "
          "give 14 (linear pyramids: VTK 9.1 has no Lagrange pyramid) and "
          "an equispaced lattice's points (5, 14, 30, ...: order n's "
          "(n+1)(n+2)(2n+3)/6)"), "13 points: %s", frx_errmsg());
    make(&o, 2, 74);
    rc = frx__vtk_write(MPI_COMM_WORLD, dir, "bad", &o.f, 0, 0, 0, 0);
    CHECK(rc == FRX_EINVAL && strstr(frx_errmsg(), "VTK cell type 74 with "
          "14 points"), "type 74: %s", frx_errmsg());

    int bad = nfail;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &npass, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d passed, %d failed\n", npass, bad);
    MPI_Finalize();
    return bad ? 1 : 0;
}
