/* SPDX-License-Identifier: BSD-3-Clause */
/* Exchanges across ranks, checked bitwise against a serial reference:
 * every rank can compute what any other rank holds, so each checks what
 * it received. Run under mpirun with any number of ranks:
 *
 *   test_exchange BACKEND auto|device-aware|host-staged ring|halo
 *
 * BACKEND "a+b" runs rank 1 on b and every other rank on a.
 * ring: three fields (scalar, vector and (2, nvars) points) in flight
 * at once to the next rank; halo: a periodic 2-D grid of ranks, a field
 * to each of four neighbours (the same rank may be several of them).
 * Prints "N passed, N failed" on rank 0; exits 77 when the backend
 * cannot start here (FRX_EUNAVAIL), 1 on any other start-up error. */
#include <frx/comm.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELES 53  /* odd, not a multiple of any chunk width */
#define NVARS 5
#define NROWS 6

static int rank, size, nfail, npass;

#include "mpicheck.h"

/* The value rank r's send matrix holds at (row, var, element). */
static double value(int r, size_t row, size_t v, size_t e)
{
    return r * 1000.0 + row * 100.0 + v * 10.0 + e * 0.125;
}

/* A field: n points of shape (nvrow, nvcol) out of the send matrix and
 * into the receive matrix; the points depend only on the field's index
 * so every rank knows every other rank's. */
struct field {
    size_t n, nvrow, nvcol;
    size_t *srow, *sele, *rs, *rrow, *rele;
    frx_view *sv, *rv;
    frx_xchg_view *sx, *rx;
    int peer_to, peer_from, sid, rid;
};

static void field_points(struct field *f, int k)
{
    f->n = 7 + 4 * (size_t)k;
    f->nvrow = k % 3 == 2 ? 2 : 1;
    f->nvcol = k % 3 == 0 ? 1 : NVARS - (size_t)(k % 2);
    f->srow = calloc(f->n, sizeof *f->srow);
    f->sele = calloc(f->n, sizeof *f->sele);
    f->rs = calloc(f->n, sizeof *f->rs);
    f->rrow = calloc(f->n, sizeof *f->rrow);
    f->rele = calloc(f->n, sizeof *f->rele);
    for (size_t i = 0; i < f->n; i++) {
        f->rs[i] = 2;
        f->srow[i] = (i * 3 + (size_t)k) % (NROWS - 2);
        f->sele[i] = (i * 17 + (size_t)k * 5) % NELES;
        /* receive points: distinct per field, distinct within it */
        f->rrow[i] = (size_t)k % 2;
        f->rele[i] = i;
    }
}

static int make_views(frx_backend *be, struct field *f, frx_matrix *send,
                      frx_matrix *recv)
{
    frx_matrix **ms = calloc(f->n, sizeof *ms), **mr = calloc(f->n, sizeof *mr);
    for (size_t i = 0; i < f->n; i++)
        ms[i] = send, mr[i] = recv;
    int rc = frx_view_create(be, f->n, ms, f->srow, f->sele, f->rs, f->nvrow,
                             f->nvcol, &f->sv);
    if (rc == FRX_OK)
        rc = frx_view_create(be, f->n, mr, f->rrow, f->rele, f->rs, f->nvrow,
                             f->nvcol, &f->rv);
    if (rc == FRX_OK)
        rc = frx_xchg_view_create(f->sv, &f->sx);
    if (rc == FRX_OK)
        rc = frx_xchg_view_create(f->rv, &f->rx);
    free(ms), free(mr);
    return rc;
}

static void field_free(struct field *f)
{
    frx_xchg_view_destroy(f->sx);
    frx_xchg_view_destroy(f->rx);
    frx_view_destroy(f->sv);
    frx_view_destroy(f->rv);
    free(f->srow), free(f->sele), free(f->rs), free(f->rrow), free(f->rele);
}

static void put(size_t fs, void *a, size_t i, double x)
{
    if (fs == 4)
        ((float *)a)[i] = (float)x;
    else
        ((double *)a)[i] = x;
}

static double get(size_t fs, const void *a, size_t i)
{
    return fs == 4 ? ((const float *)a)[i] : ((const double *)a)[i];
}

/* Every field's received values against the sender's known values. */
static void check_fields(frx_backend *be, struct field *f, int nf,
                         frx_matrix *recv, int step)
{
    size_t fs = frx_backend_fpsize(be), rows = 2 * 2 + 1;
    void *h = calloc(rows * NVARS * 64, fs);
    CHECK(frx_matrix_read(recv, h) == FRX_OK, "read: %s", frx_errmsg());
    for (int k = 0; k < nf; k++) {
        const struct field *x = &f[k];
        int bad = 0;
        for (size_t i = 0; i < x->n; i++)
            for (size_t r = 0; r < x->nvrow; r++)
                for (size_t c = 0; c < x->nvcol; c++) {
                    double want = value(x->peer_from, x->srow[i] + r * 2, c,
                                        x->sele[i]) + step;
                    if (fs == 4)
                        want = (float)want;
                    size_t at = ((x->rrow[i] + r * 2 ) *
                                 NVARS + c) * 64 + x->rele[i];
                    bad += get(fs, h, at) != want;
                }
        CHECK(bad == 0, "field %d from rank %d: %d values differ", k,
              x->peer_from, bad);
    }
    free(h);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 4) {
        if (rank == 0)
            fprintf(stderr, "usage: test_exchange BACKEND MODE ring|halo\n");
        MPI_Finalize();
        return 2;
    }
    /* "openmp+opencl": rank 1 on opencl, every other rank on openmp */
    char text[512], first[64];
    snprintf(first, sizeof first, "%s", argv[1]);
    char *plus = strchr(first, '+');
    if (plus)
        *plus = '\0';
    snprintf(text, sizeof text, "backend:\n  name: %s\n  precision: double\n"
             "  mpi: %s\n%s%s%s", first, argv[2],
             plus ? "  rules:\n    - ranks: \"1\"\n      name: " : "",
             plus ? plus + 1 : "", plus ? "\n" : "");
    frx_config *cfg;
    frx_backend *be;
    if (frx_config_parse(text, strlen(text), "test.yaml", &cfg))
        return 1;
    int rc = frx_backend_create_all(cfg, MPI_COMM_WORLD, &be);
    if (rc) {
        /* skipped only where the backend cannot start here (no device,
         * driver or plugin); any other start-up error is a failure */
        int skip = rc == FRX_EUNAVAIL || rc == FRX_ENOTFOUND;
        if (rank == 0)
            printf("%s: backend '%s': %s: %s\n", skip ? "SKIP" : "FAIL",
                   argv[1], frx_err_name(rc), frx_errmsg());
        frx_config_free(cfg);
        MPI_Finalize();
        return skip ? 77 : 1;
    }
    int halo = strcmp(argv[3], "halo") == 0;

    /* Neighbours: ring, three fields to the next rank; or a periodic
     * grid, one field per direction (L, R, D, U), each received from
     * the opposite neighbour. Registration order is the same on every
     * rank, which is what pairs the tags. */
    int nf = halo ? 4 : 3, dims[2] = {0, 0};
    MPI_Dims_create(size, 2, dims);
    int px = rank % dims[0], py = rank / dims[0];
    struct field f[4];
    memset(f, 0, sizeof f);
    for (int k = 0; k < nf; k++) {
        field_points(&f[k], k);
        if (!halo) {
            f[k].peer_to = (rank + 1) % size;
            f[k].peer_from = (rank + size - 1) % size;
        } else {
            static const int dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, -1, 1};
            int tx = (px + dx[k] + dims[0]) % dims[0];
            int ty = (py + dy[k] + dims[1]) % dims[1];
            int fx = (px - dx[k] + dims[0]) % dims[0];
            int fy = (py - dy[k] + dims[1]) % dims[1];
            f[k].peer_to = ty * dims[0] + tx;
            f[k].peer_from = fy * dims[0] + fx;
        }
    }

    frx_matrix_shape shapes[2] = {{NROWS, NVARS, NELES}, {5, NVARS, 64}};
    frx_matrix *m[2];
    rc = frx_matrix_create_group(be, 2, shapes, m);
    CHECK(rc == FRX_OK, "matrices: %s", frx_errmsg());
    /* receive points of field k sit in rows k%2 (+2) of recv */
    for (int k = 0; rc == FRX_OK && k < nf; k++) {
        for (size_t i = 0; i < f[k].n; i++)
            f[k].rele[i] = i + 16 * (size_t)(k / 2);
        rc = make_views(be, &f[k], m[0], m[1]);
    }
    CHECK(rc == FRX_OK, "views: %s", frx_errmsg());

    frx_comm *comm = NULL;
    frx_graph *g = NULL;
    rc = rc ? rc : frx_comm_create(be, MPI_COMM_WORLD, &comm);
    for (int k = 0; rc == FRX_OK && k < nf; k++) {
        char name[16]; /* fields of one shape: named (frx_comm_add_*) */
        snprintf(name, sizeof name, "field %d", k);
        rc = frx_comm_add_send_named(comm, frx_xchg_view_matrix(f[k].sx),
                                     f[k].peer_to, name, &f[k].sid);
        if (rc == FRX_OK)
            rc = frx_comm_add_recv_named(comm,
                                         frx_xchg_view_matrix(f[k].rx),
                                         f[k].peer_from, name, &f[k].rid);
    }
    /* Added field by field; the commit must still post every receive
     * before anything else, and pack and send before the waits; a test
     * node (MPI progress) between start and wait stays where it was
     * added, after every node before it. */
    int recv_node[4], pack_node[4], wait_node[4], test_node[8], nnodes = 0;
    rc = rc ? rc : frx_graph_create(be, &g);
    for (int k = 0; rc == FRX_OK && k < nf; k++) {
        rc = frx_graph_add_pack(g, f[k].sx, NULL, 0, &pack_node[k]);
        rc = rc ? rc : frx_graph_add_send(g, comm, f[k].sid, NULL, 0, NULL);
        rc = rc ? rc : frx_graph_add_recv(g, comm, f[k].rid, NULL, 0,
                                          &recv_node[k]);
        rc = rc ? rc : frx_graph_add_test(g, comm, f[k].rid,
                                          &test_node[2 * k]);
        rc = rc ? rc : frx_graph_add_test(g, comm, f[k].sid,
                                          &test_node[2 * k + 1]);
        rc = rc ? rc : frx_graph_add_wait(g, comm, f[k].rid, NULL, 0,
                                          &wait_node[k]);
        rc = rc ? rc : frx_graph_add_unpack(g, f[k].rx, NULL, 0, NULL);
        rc = rc ? rc : frx_graph_add_wait(g, comm, f[k].sid, NULL, 0, NULL);
        nnodes += 8;
    }
    /* not an exchange of the comm: refused, naming it */
    if (rc == FRX_OK)
        CHECK(frx_graph_add_test(g, comm, 99, NULL) == FRX_EINVAL &&
              strstr(frx_errmsg(), "99"), "a test of exchange 99: %s",
              frx_errmsg());
    rc = rc ? rc : frx_graph_commit(g);
    CHECK(rc == FRX_OK, "graph: %s", frx_errmsg());
    int order[32], pos[32];
    if (rc == FRX_OK && frx_graph_order(g, order, 32) == FRX_OK) {
        for (int i = 0; i < nnodes; i++)
            pos[order[i]] = i;
        for (int k = 0; k < nf; k++) {
            CHECK(pos[recv_node[k]] < nf, "receive %d is run at %d, not "
                  "among the first %d", k, pos[recv_node[k]], nf);
            for (int j = 0; j < nf; j++)
                CHECK(pos[pack_node[k]] < pos[wait_node[j]], "pack %d runs "
                      "after wait %d", k, j);
        }
        for (int t = 0; t < 2 * nf; t++)
            for (int i = 0; i < test_node[t]; i++)
                CHECK(pos[i] < pos[test_node[t]], "test node %d (run at "
                      "%d) runs before node %d (run at %d), added before it",
                      test_node[t], pos[test_node[t]], i, pos[i]);
    }


    size_t fs = frx_backend_fpsize(be), ns = NROWS * NVARS * NELES;
    void *h = calloc(ns, fs);
    for (int step = 0; rc == FRX_OK && step < 3; step++) {
        for (size_t r = 0; r < NROWS; r++)
            for (size_t v = 0; v < NVARS; v++)
                for (size_t e = 0; e < NELES; e++)
                    put(fs, h, (r * NVARS + v) * NELES + e,
                        value(rank, r, v, e) + step);
        rc = frx_matrix_write(m[0], h);
        rc = rc ? rc : frx_graph_run(g);
        CHECK(rc == FRX_OK, "step %d: %s", step, frx_errmsg());
        if (rc == FRX_OK)
            check_fields(be, f, nf, m[1], step);
    }
    free(h);

    int fails = nfail, passes = npass, tf = 0, tp = 0;
    MPI_Reduce(&fails, &tf, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&passes, &tp, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("exchange %s %s on %d rank(s), mode %s: %d passed, %d failed\n",
               argv[3], argv[1], size,
               frx_backend_mpi_mode(be) == FRX_MPI_DEVICE_AWARE
                   ? "device-aware" : "host-staged", tp, tf);
    frx_graph_destroy(g);
    frx_comm_destroy(comm);
    for (int k = 0; k < nf; k++)
        field_free(&f[k]);
    frx_matrix_destroy(m[0]);
    frx_matrix_destroy(m[1]);
    frx_backend_destroy(be);
    frx_config_free(cfg);
    int any = 0;
    MPI_Allreduce(&fails, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return any ? 1 : 0;
}
