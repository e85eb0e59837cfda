/* SPDX-License-Identifier: BSD-3-Clause */
/* bench/exchange: on 2 ranks, for 8 B, 64 KiB and 1 MiB, an frx exchange
 * of a packed buffer against raw MPI_Sendrecv, and a full halo (pack,
 * transfer, unpack) against a plain gather + raw MPI + a plain scatter,
 * all measured in this run.
 *
 *   mpirun -np 2 build/bench/exchange [BACKEND]      (default openmp) */
#include <frx/comm.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCHES 41
#define BATCH_SECONDS 2e-3 /* long enough to drown timer and wake-up noise */

static int rank, peer;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

typedef int (*work_fn)(void *ctx);

struct work {
    work_fn fn;
    void *ctx;
};

/* Seconds per iteration of a batch of iters, the same on both ranks
 * (the slower rank's). */
static double batch(struct work w, int iters)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++)
        if (w.fn(w.ctx)) {
            fprintf(stderr, "bench/exchange: %s\n", frx_errmsg());
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    double mine = (MPI_Wtime() - t0) / iters, t;
    MPI_Allreduce(&mine, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t;
}

/* frx against a reference: batches alternate between the two so that
 * both see the same machine; times are medians over batches and the
 * ratio the median of the batches' ratios. */
struct result {
    double frx, ref, ratio;
};

static struct result compare(struct work fx, struct work ref)
{
    double probe = batch(ref, 10); /* also the warm-up */
    batch(fx, 10);
    int iters = (int)(BATCH_SECONDS / (probe > 1e-9 ? probe : 1e-9));
    iters = iters < 10 ? 10 : iters > 100000 ? 100000 : iters;
    double tf[BATCHES], tr[BATCHES], ratio[BATCHES];
    for (int b = 0; b < BATCHES; b++) {
        tr[b] = batch(ref, iters);
        tf[b] = batch(fx, iters);
        ratio[b] = tf[b] / tr[b];
    }
    return (struct result){median(tf, BATCHES), median(tr, BATCHES),
                           median(ratio, BATCHES)};
}

struct raw {
    double *src, *dst, *sbuf, *rbuf;
    const int32_t *off;
    size_t n;
};

static int raw_sendrecv(void *ctx)
{
    struct raw *r = ctx;
    return MPI_Sendrecv(r->sbuf, (int)(r->n * 8), MPI_BYTE, peer, 0, r->rbuf,
                        (int)(r->n * 8), MPI_BYTE, peer, 0, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE) != MPI_SUCCESS;
}

/* The floor under frx's own exchange: MPI's persistent requests alone. */
struct persistent {
    MPI_Request req[2]; /* receive, send */
};

static int raw_persistent(void *ctx)
{
    struct persistent *p = ctx;
    return MPI_Start(&p->req[0]) || MPI_Start(&p->req[1]) ||
           MPI_Waitall(2, p->req, MPI_STATUSES_IGNORE);
}

static int raw_halo(void *ctx)
{
    struct raw *r = ctx;
    for (size_t i = 0; i < r->n; i++)
        r->sbuf[i] = r->src[r->off[i]];
    if (raw_sendrecv(r))
        return 1;
    for (size_t i = 0; i < r->n; i++)
        r->dst[r->off[i]] = r->rbuf[i];
    return 0;
}

static int run_graph(void *g) { return frx_graph_run(g); }

static void die(const char *what)
{
    fprintf(stderr, "bench/exchange: rank %d: %s: %s\n", rank, what,
            frx_errmsg());
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static void one_size(frx_backend *be, size_t bytes)
{
    size_t n = bytes / 8, soasz = frx_backend_soasz(be);
    frx_matrix_shape shapes[2] = {{1, 1, 2 * n}, {1, 1, 2 * n}};
    frx_matrix *m[2];
    if (frx_matrix_create_group(be, 2, shapes, m))
        die("matrices");
    /* written, as a solver's are: untouched memory reads one zero page */
    double *host = malloc(2 * n * sizeof *host);
    for (size_t i = 0; host && i < 2 * n; i++)
        host[i] = (double)i;
    if (!host || frx_matrix_write(m[0], host) ||
        frx_matrix_write(m[1], host))
        die("matrices");
    free(host);
    /* every other element, as a face of a mesh picks them */
    frx_matrix **ms = malloc(n * sizeof *ms), **md = malloc(n * sizeof *md);
    size_t *rows = calloc(n, sizeof *rows), *eles = malloc(n * sizeof *eles);
    int32_t *off = malloc(n * sizeof *off);
    for (size_t i = 0; i < n; i++) {
        ms[i] = m[0], md[i] = m[1];
        eles[i] = 2 * i;
        off[i] = (int32_t)eles[i]; /* one variable: AoSoA is plain */
    }
    (void)soasz;
    frx_view *vs, *vd;
    frx_xchg_view *xs, *xd;
    if (frx_view_create(be, n, ms, rows, eles, NULL, 1, 1, &vs) ||
        frx_view_create(be, n, md, rows, eles, NULL, 1, 1, &vd) ||
        frx_xchg_view_create(vs, &xs) || frx_xchg_view_create(vd, &xd))
        die("views");

    frx_comm *c;
    int sid, rid;
    frx_graph *gx, *gh;
    if (frx_comm_create(be, MPI_COMM_WORLD, &c) ||
        frx_comm_add_send(c, frx_xchg_view_matrix(xs), peer, &sid) ||
        frx_comm_add_recv(c, frx_xchg_view_matrix(xd), peer, &rid))
        die("comm");
    /* the packed buffer alone */
    if (frx_graph_create(be, &gx) ||
        frx_graph_add_recv(gx, c, rid, NULL, 0, NULL) ||
        frx_graph_add_send(gx, c, sid, NULL, 0, NULL) ||
        frx_graph_add_wait(gx, c, rid, NULL, 0, NULL) ||
        frx_graph_add_wait(gx, c, sid, NULL, 0, NULL) || frx_graph_commit(gx))
        die("graph");
    /* the whole halo */
    if (frx_graph_create(be, &gh) ||
        frx_graph_add_recv(gh, c, rid, NULL, 0, NULL) ||
        frx_graph_add_pack(gh, xs, NULL, 0, NULL) ||
        frx_graph_add_send(gh, c, sid, NULL, 0, NULL) ||
        frx_graph_add_wait(gh, c, rid, NULL, 0, NULL) ||
        frx_graph_add_unpack(gh, xd, NULL, 0, NULL) ||
        frx_graph_add_wait(gh, c, sid, NULL, 0, NULL) || frx_graph_commit(gh))
        die("graph");

    struct raw r = {malloc(2 * n * 8), malloc(2 * n * 8), malloc(n * 8),
                    malloc(n * 8), off, n};
    /* real pages, as frx's: untouched calloc'd ones all map one page */
    for (size_t i = 0; i < 2 * n; i++)
        r.src[i] = (double)i, r.dst[i] = 0;
    for (size_t i = 0; i < n; i++)
        r.sbuf[i] = (double)i, r.rbuf[i] = 0;
    struct persistent pr;
    MPI_Recv_init(r.rbuf, (int)(n * 8), MPI_BYTE, peer, 1, MPI_COMM_WORLD,
                  &pr.req[0]);
    MPI_Send_init(r.sbuf, (int)(n * 8), MPI_BYTE, peer, 1, MPI_COMM_WORLD,
                  &pr.req[1]);
    struct work fx = {run_graph, gx}, fh = {run_graph, gh};
    struct result x = compare(fx, (struct work){raw_sendrecv, &r});
    struct result p = compare(fx, (struct work){raw_persistent, &pr});
    MPI_Request_free(&pr.req[0]);
    MPI_Request_free(&pr.req[1]);
    struct result h = compare(fh, (struct work){raw_halo, &r});
    if (rank == 0) {
        printf("%8zu B  exchange frx %8.2f us  MPI_Sendrecv %8.2f us  ratio "
               "%.2f (target <= 1.1); raw persistent requests %8.2f us, "
               "ratio %.2f\n", bytes, 1e6 * x.frx, 1e6 * x.ref, x.ratio,
               1e6 * p.ref, p.ratio);
        printf("%8zu B  halo     frx %8.2f us  gather+MPI+scatter %8.2f us  "
               "ratio %.2f (target <= 1.15)\n", bytes, 1e6 * h.frx,
               1e6 * h.ref, h.ratio);
    }
    free(r.src), free(r.dst), free(r.sbuf), free(r.rbuf);
    free(ms), free(md), free(rows), free(eles), free(off);
    frx_graph_destroy(gx);
    frx_graph_destroy(gh);
    frx_comm_destroy(c);
    frx_xchg_view_destroy(xs);
    frx_xchg_view_destroy(xd);
    frx_view_destroy(vs);
    frx_view_destroy(vd);
    frx_matrix_destroy(m[0]);
    frx_matrix_destroy(m[1]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "bench/exchange: run it on 2 ranks: mpirun -np 2 "
                            "%s\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    peer = 1 - rank;
    char text[256];
    snprintf(text, sizeof text, "backend:\n  name: %s\n  precision: double\n"
             "  openmp: {threads: 1}\n", argc > 1 ? argv[1] : "openmp");
    frx_config *cfg;
    frx_backend *be;
    if (frx_config_parse(text, strlen(text), "bench-exchange", &cfg) ||
        frx_backend_create_all(cfg, MPI_COMM_WORLD, &be))
        die("start");
    if (rank == 0)
        printf("bench/exchange: 2 ranks, backend %s, MPI %s, medians of %d "
               "alternating batches of ~%.0f ms\n", argc > 1 ? argv[1] : "openmp",
               frx_backend_mpi_mode(be) == FRX_MPI_DEVICE_AWARE
                   ? "device-aware" : "host-staged", BATCHES, 1e3 * BATCH_SECONDS);
    size_t sizes[] = {8, 64 << 10, 1 << 20};
    for (size_t i = 0; i < 3; i++)
        one_size(be, sizes[i]);
    frx_backend_destroy(be);
    frx_config_free(cfg);
    MPI_Finalize();
    return 0;
}
