/* SPDX-License-Identifier: BSD-3-Clause */
/* Set-up checks across ranks, under mpirun with 2 or more ranks on
 * openmp: graphs that would touch a buffer MPI holds are refused at
 * commit with both nodes named; exchanges whose two sides registered
 * different shapes are refused at commit with both shapes, and named
 * exchanges whose two sides differ in name (registered in another
 * order) with the other side's name; a graph runs its exchanges after
 * their comm was destroyed (it holds it); every rank returns a set-up
 * failure of one rank together.
 *
 *   test_setup
 *
 * Prints "N passed, N failed" on rank 0. */
#include <frx/comm.h>
#include <frx/plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, nfail, npass;

#include "mpicheck.h"

#define HAS(text) (strstr(frx_errmsg(), (text)) != NULL)

/* A view of n points of (1, 2) in m, and its xchg view. */
struct side {
    frx_view *v;
    frx_xchg_view *xv;
};

static void side_make(frx_backend *be, frx_matrix *m, size_t n,
                      struct side *s)
{
    frx_matrix **ms = calloc(n, sizeof *ms);
    size_t *rows = calloc(n, sizeof *rows), *eles = calloc(n, sizeof *eles);
    for (size_t i = 0; i < n; i++)
        ms[i] = m, eles[i] = i;
    int rc = frx_view_create(be, n, ms, rows, eles, NULL, 1, 2, &s->v);
    rc = rc ? rc : frx_xchg_view_create(s->v, &s->xv);
    CHECK(rc == FRX_OK, "views: %s", frx_errmsg());
    free(ms), free(rows), free(eles);
}

static void side_free(struct side *s)
{
    frx_xchg_view_destroy(s->xv);
    frx_view_destroy(s->v);
}

static const frx_kernel_decl twice = {
    .name = "setup_twice", .ndim = 1,
    .args = "in xchg fpdtype_t[2] a, out xchg fpdtype_t[2] r",
    .body = "r[0] = 2*a[0]; r[1] = 2*a[1];"};

/* A node that touches a buffer MPI holds is refused at commit. */
static void inflight_refused(frx_backend *be, frx_comm *c, int sid, int rid,
                             struct side *snd, struct side *rcv,
                             frx_kernel *k)
{
    int from = (rank + size - 1) % size, to = (rank + 1) % size;
    char want[200];
    frx_graph *g;

    /* a kernel reading the receive buffer between start and wait */
    frx_graph_create(be, &g);
    frx_graph_add_recv(g, c, rid, NULL, 0, NULL);
    frx_graph_add_kernel(g, k, NULL, 0, NULL);
    frx_graph_add_wait(g, c, rid, NULL, 0, NULL);
    CHECK(frx_graph_commit(g) == FRX_EINVAL, "reader before wait committed");
    snprintf(want, sizeof want, "node 1 (kernel 'setup_twice') reads the "
             "buffer of the receive from rank %d (tag 0), which MPI holds "
             "from node 0 until its wait at node 2", from);
    CHECK(HAS(want), "message: %s", frx_errmsg());
    frx_graph_destroy(g);

    /* a kernel reading the receive buffer before its start: it would
     * read what the graph's previous run received */
    frx_graph_create(be, &g);
    frx_graph_add_kernel(g, k, NULL, 0, NULL);
    frx_graph_add_recv(g, c, rid, NULL, 0, NULL);
    frx_graph_add_wait(g, c, rid, NULL, 0, NULL);
    CHECK(frx_graph_commit(g) == FRX_EINVAL, "reader before start committed");
    snprintf(want, sizeof want, "node 0 (kernel 'setup_twice') reads the "
             "buffer of the receive from rank %d (tag 0) before node 1 "
             "starts it: it would read what the graph's previous run "
             "received", from);
    CHECK(HAS(want), "message: %s", frx_errmsg());
    frx_graph_destroy(g);
    /* ... but after an earlier start and wait of it, it reads that */
    frx_graph_create(be, &g);
    frx_graph_add_recv(g, c, rid, NULL, 0, NULL);
    frx_graph_add_pack(g, snd->xv, NULL, 0, NULL);
    frx_graph_add_send(g, c, sid, NULL, 0, NULL);
    frx_graph_add_wait(g, c, rid, NULL, 0, NULL);
    frx_graph_add_wait(g, c, sid, NULL, 0, NULL);
    frx_graph_add_kernel(g, k, NULL, 0, NULL);
    frx_graph_add_recv(g, c, rid, NULL, 0, NULL);
    frx_graph_add_send(g, c, sid, NULL, 0, NULL);
    frx_graph_add_wait(g, c, rid, NULL, 0, NULL);
    frx_graph_add_wait(g, c, sid, NULL, 0, NULL);
    CHECK(frx_graph_commit(g) == FRX_OK, "reader between two exchanges: %s",
          frx_errmsg());
    frx_graph_destroy(g);

    /* an unpack of it, the same */
    frx_graph_create(be, &g);
    frx_graph_add_recv(g, c, rid, NULL, 0, NULL);
    frx_graph_add_pack(g, snd->xv, NULL, 0, NULL);
    frx_graph_add_unpack(g, rcv->xv, NULL, 0, NULL);
    frx_graph_add_wait(g, c, rid, NULL, 0, NULL);
    CHECK(frx_graph_commit(g) == FRX_EINVAL, "unpack before wait committed");
    CHECK(HAS("node 2 (an unpack) reads the buffer") && HAS("at node 3"),
          "message: %s", frx_errmsg());
    frx_graph_destroy(g);

    /* a pack writing the send buffer between start and wait */
    frx_graph_create(be, &g);
    frx_graph_add_recv(g, c, rid, NULL, 0, NULL);
    frx_graph_add_send(g, c, sid, NULL, 0, NULL);
    frx_graph_add_pack(g, snd->xv, NULL, 0, NULL);
    frx_graph_add_wait(g, c, sid, NULL, 0, NULL);
    frx_graph_add_wait(g, c, rid, NULL, 0, NULL);
    CHECK(frx_graph_commit(g) == FRX_EINVAL, "write into a send committed");
    snprintf(want, sizeof want, "node 2 (a pack) writes the buffer of the "
             "send to rank %d (tag 0), which MPI holds from node 1 until its "
             "wait at node 3", to);
    CHECK(HAS(want), "message: %s", frx_errmsg());
    frx_graph_destroy(g);

    /* a start with no wait, a wait with no start */
    frx_graph_create(be, &g);
    frx_graph_add_recv(g, c, rid, NULL, 0, NULL);
    CHECK(frx_graph_commit(g) == FRX_EINVAL && HAS("no later node waits"),
          "start without wait: %s", frx_errmsg());
    frx_graph_destroy(g);
    frx_graph_create(be, &g);
    frx_graph_add_wait(g, c, sid, NULL, 0, NULL);
    CHECK(frx_graph_commit(g) == FRX_EINVAL && HAS("no node before it"),
          "wait without start: %s", frx_errmsg());
    frx_graph_destroy(g);
}

/* The same nodes in a good order commit and deliver. */
static void inflight_good(frx_backend *be, frx_comm *c, int sid, int rid,
                          frx_matrix *src, struct side *snd, frx_kernel *k,
                          frx_xchg_matrix *out, size_t n)
{
    frx_graph *g;
    frx_graph_create(be, &g);
    frx_graph_add_recv(g, c, rid, NULL, 0, NULL);
    frx_graph_add_pack(g, snd->xv, NULL, 0, NULL);
    frx_graph_add_send(g, c, sid, NULL, 0, NULL);
    frx_graph_add_wait(g, c, rid, NULL, 0, NULL);
    frx_graph_add_kernel(g, k, NULL, 0, NULL);
    frx_graph_add_wait(g, c, sid, NULL, 0, NULL);
    int rc = frx_graph_commit(g);
    CHECK(rc == FRX_OK, "good graph: %s", frx_errmsg());
    size_t ne = frx_matrix_neles(src);
    double *h = calloc(2 * ne, sizeof *h);
    for (size_t e = 0; e < ne; e++) /* variable 0, then variable 1 */
        h[e] = rank * 100.0 + (double)e, h[ne + e] = -h[e];
    rc = rc ? rc : frx_matrix_write(src, h);
    rc = rc ? rc : frx_graph_run(g);
    rc = rc ? rc : frx_xchg_matrix_read(out, h);
    CHECK(rc == FRX_OK, "run: %s", frx_errmsg());
    int from = (rank + size - 1) % size, bad = 0;
    for (size_t i = 0; rc == FRX_OK && i < n; i++) /* (0, c, i) at c*n + i */
        bad += h[i] != 2 * (from * 100.0 + (double)i) ||
               h[n + i] != -h[i];
    CHECK(bad == 0, "%d values differ", bad);
    free(h);
    frx_graph_destroy(g);
}

/* Both sides of each exchange must have registered the same shape:
 * rank 0 sends 6 points where rank 1 expects 5. Both are told at
 * commit, with both shapes; frx_comm_agree then stops every rank. */
static void shapes_checked(frx_backend *be)
{
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    frx_xchg_matrix *s, *r;
    frx_xchg_matrix_create(be, rank == 0 ? 6 : 5, 1, 2, &s);
    frx_xchg_matrix_create(be, 5, 1, 2, &r);
    frx_comm *c;
    int sid, rid;
    int rc = frx_comm_create(be, MPI_COMM_WORLD, &c);
    rc = rc ? rc : frx_comm_add_send(c, s, to, &sid);
    rc = rc ? rc : frx_comm_add_recv(c, r, from, &rid);
    CHECK(rc == FRX_OK, "comm: %s", frx_errmsg());
    frx_graph *g;
    frx_graph_create(be, &g);
    frx_graph_add_recv(g, c, rid, NULL, 0, NULL);
    frx_graph_add_send(g, c, sid, NULL, 0, NULL);
    frx_graph_add_wait(g, c, rid, NULL, 0, NULL);
    frx_graph_add_wait(g, c, sid, NULL, 0, NULL);
    rc = frx_graph_commit(g);
    const char *want = "rank 0 sends 6 points of 1 x 2 values of 8 bytes "
                       "(96 bytes) but rank 1 receives 5 points of 1 x 2 "
                       "values of 8 bytes (80 bytes)";
    if (rank <= 1)
        CHECK(rc == FRX_ESHAPE && HAS(want), "commit: %s", frx_errmsg());
    else
        CHECK(rc == FRX_OK, "commit: %s", frx_errmsg());
    rc = frx_comm_agree(MPI_COMM_WORLD, rc, "graph commit");
    CHECK(rc == FRX_ESHAPE && HAS("graph commit failed on 2 of") &&
          HAS("rank 0 (") && HAS("rank 1 (") && HAS(want),
          "agree: %s", frx_errmsg());
    frx_graph_destroy(g);
    frx_comm_destroy(c);
    frx_xchg_matrix_destroy(s);
    frx_xchg_matrix_destroy(r);
}

/* Two exchanges of one shape with each neighbour, named "a" and "b".
 * order: the names in the order this rank registers its receives (the
 * sends always "a", "b"; NULL: the k-th receive goes into the k-th
 * buffer, unnamed). Returns the commit's code; fills got[2] with
 * the first value received into each of "a"'s and "b"'s buffers when
 * the graph ran. */
static int named_pair(frx_backend *be, const char *const order[2],
                      double got[2])
{
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    const char *names[2] = {"a", "b"};
    frx_xchg_matrix *s[2], *r[2];
    frx_comm *c;
    int sid[2], rid[2];
    int rc = frx_comm_create(be, MPI_COMM_WORLD, &c);
    for (int k = 0; k < 2; k++) {
        frx_xchg_matrix_create(be, 4, 1, 2, &s[k]);
        frx_xchg_matrix_create(be, 4, 1, 2, &r[k]);
        double v[8];
        for (int i = 0; i < 8; i++) /* "a" sends 1000 + rank, "b" 2000 */
            v[i] = 1000.0 * (k + 1) + rank;
        rc = rc ? rc : frx_xchg_matrix_write(s[k], v);
    }
    for (int k = 0; k < 2 && !rc; k++)
        rc = frx_comm_add_send_named(c, s[k], to, names[k], &sid[k]);
    for (int k = 0; k < 2 && !rc; k++) { /* into the buffer of its name */
        int j = !order[k] ? k : strcmp(order[k], "a") == 0 ? 0 : 1;
        rc = frx_comm_add_recv_named(c, r[j], from, order[k], &rid[j]);
    }
    CHECK(rc == FRX_OK, "comm: %s", frx_errmsg());
    frx_graph *g;
    frx_graph_create(be, &g);
    for (int k = 0; k < 2; k++)
        frx_graph_add_recv(g, c, rid[k], NULL, 0, NULL);
    for (int k = 0; k < 2; k++)
        frx_graph_add_send(g, c, sid[k], NULL, 0, NULL);
    for (int k = 0; k < 2; k++) {
        frx_graph_add_wait(g, c, rid[k], NULL, 0, NULL);
        frx_graph_add_wait(g, c, sid[k], NULL, 0, NULL);
    }
    rc = frx_graph_commit(g);
    int ran = frx_comm_agree(MPI_COMM_WORLD, rc, "named commit");
    if (ran == FRX_OK && (ran = frx_graph_run(g)) == FRX_OK) {
        for (int k = 0; k < 2; k++) {
            double v[8];
            frx_xchg_matrix_read(r[k], v);
            got[k] = v[0];
        }
    }
    frx_graph_destroy(g);
    frx_comm_destroy(c);
    for (int k = 0; k < 2; k++) {
        frx_xchg_matrix_destroy(s[k]);
        frx_xchg_matrix_destroy(r[k]);
    }
    return rc;
}

/* Named exchanges: in the same order on every rank, each buffer gets
 * the data of its name; rank 1 registering its receives in the other
 * order is refused at commit on both ranks of that pair, each naming
 * the other side's name, and so is rank 1 receiving in the right order
 * without names; a name too long is refused. */
static void names_checked(frx_backend *be)
{
    int from = (rank + size - 1) % size;
    const char *same[2] = {"a", "b"}, *swapped[2] = {"b", "a"};
    double got[2] = {0, 0};
    int rc = named_pair(be, same, got);
    CHECK(rc == FRX_OK, "named, same order: %s", frx_errmsg());
    CHECK(got[0] == 1000 + from && got[1] == 2000 + from,
          "named, same order: got %g and %g", got[0], got[1]);

    rc = named_pair(be, rank == 1 ? swapped : same, got);
    char want[160];
    if (rank == 0) { /* its sends to rank 1 met the swapped receives */
        snprintf(want, sizeof want, "exchange send to rank 1 (tag 0, 'a'): "
                 "rank 1 registered the other side of it as 'b'");
        CHECK(rc == FRX_EINVAL && HAS(want) && HAS("different orders"),
              "swapped, rank 0: %s", frx_errmsg());
    } else if (rank == 1) { /* its graph checks the receive of "a" first */
        CHECK(rc == FRX_EINVAL &&
              HAS("exchange receive from rank 0 (tag 1, 'a'): rank 0 "
                  "registered the other side of it as 'b'"),
              "swapped, rank 1: %s", frx_errmsg());
    } else {
        CHECK(rc == FRX_OK, "swapped, rank %d: %s", rank, frx_errmsg());
    }

    /* rank 1 receives in the right order, but without the names: a
     * side without a name is refused as another name */
    const char *unnamed[2] = {NULL, NULL};
    rc = named_pair(be, rank == 1 ? unnamed : same, got);
    if (rank == 0) {
        CHECK(rc == FRX_EINVAL &&
              HAS("exchange send to rank 1 (tag 0, 'a'): rank 1 "
                  "registered the other side of it without a name"),
              "unnamed side, rank 0: %s", frx_errmsg());
    } else if (rank == 1) {
        CHECK(rc == FRX_EINVAL &&
              HAS("exchange receive from rank 0 (tag 0): rank 0 "
                  "registered the other side of it as 'a'"),
              "unnamed side, rank 1: %s", frx_errmsg());
    } else {
        CHECK(rc == FRX_OK, "unnamed side, rank %d: %s", rank, frx_errmsg());
    }

    frx_comm *c;
    frx_xchg_matrix *x;
    int id;
    rc = frx_comm_create(be, MPI_COMM_WORLD, &c);
    rc = rc ? rc : frx_xchg_matrix_create(be, 4, 1, 2, &x);
    CHECK(rc == FRX_OK, "comm: %s", frx_errmsg());
    rc = frx_comm_add_send_named(c, x, (rank + 1) % size,
                                 "a name of more than thirty-one bytes", &id);
    CHECK(rc == FRX_EINVAL && HAS("is longer than 31 bytes"),
          "long name: %s", frx_errmsg());
    frx_comm_destroy(c);
    frx_xchg_matrix_destroy(x);
}

/* Two unnamed sends of one shape to one peer (and two such receives):
 * registered, with a warning (once) that names both and says to name
 * them; the test's CMake line looks for it. */
static void unnamed_alike_warned(frx_backend *be)
{
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    frx_xchg_matrix *x[4];
    frx_comm *c;
    int id[4];
    int rc = frx_comm_create(be, MPI_COMM_WORLD, &c);
    for (int k = 0; k < 4 && !rc; k++)
        rc = frx_xchg_matrix_create(be, 3, 1, 2, &x[k]);
    for (int k = 0; k < 2 && !rc; k++)
        rc = frx_comm_add_send(c, x[k], to, &id[k]);
    for (int k = 2; k < 4 && !rc; k++)
        rc = frx_comm_add_recv(c, x[k], from, &id[k]);
    CHECK(rc == FRX_OK, "unnamed alike: %s", frx_errmsg());
    frx_comm_destroy(c);
    for (int k = 0; k < 4; k++)
        frx_xchg_matrix_destroy(x[k]);
}

/* A graph holds the comm of its exchange nodes: the comm destroyed
 * after the commit, the graph still runs its exchange (twice), and
 * destroying the graph frees the comm (ASan: nothing leaked or read
 * after free). */
static void graph_holds_comm(frx_backend *be)
{
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    frx_xchg_matrix *s, *r;
    frx_comm *c;
    frx_graph *g = NULL;
    int sid, rid;
    int rc = frx_xchg_matrix_create(be, 3, 1, 2, &s);
    rc = rc ? rc : frx_xchg_matrix_create(be, 3, 1, 2, &r);
    rc = rc ? rc : frx_comm_create(be, MPI_COMM_WORLD, &c);
    rc = rc ? rc : frx_comm_add_send_named(c, s, to, "held", &sid);
    rc = rc ? rc : frx_comm_add_recv_named(c, r, from, "held", &rid);
    rc = rc ? rc : frx_graph_create(be, &g);
    rc = rc ? rc : frx_graph_add_recv(g, c, rid, NULL, 0, NULL);
    rc = rc ? rc : frx_graph_add_send(g, c, sid, NULL, 0, NULL);
    rc = rc ? rc : frx_graph_add_test(g, c, rid, NULL);
    rc = rc ? rc : frx_graph_add_wait(g, c, rid, NULL, 0, NULL);
    rc = rc ? rc : frx_graph_add_wait(g, c, sid, NULL, 0, NULL);
    rc = rc ? rc : frx_graph_commit(g);
    CHECK(rc == FRX_OK, "graph: %s", frx_errmsg());
    if (rc != FRX_OK)
        return;
    frx_comm_destroy(c); /* the graph's nodes still hold it */
    for (int run = 0; run < 2; run++) {
        double v[6];
        for (int i = 0; i < 6; i++)
            v[i] = 100.0 * run + 10.0 * rank + i;
        rc = frx_xchg_matrix_write(s, v);
        rc = rc ? rc : frx_graph_run(g);
        rc = rc ? rc : frx_xchg_matrix_read(r, v);
        CHECK(rc == FRX_OK, "run %d: %s", run, frx_errmsg());
        int bad = 0;
        for (int i = 0; i < 6; i++)
            bad += v[i] != 100.0 * run + 10.0 * from + i;
        CHECK(bad == 0, "run %d: %d values differ", run, bad);
    }
    frx_xchg_matrix_destroy(s); /* the comm holds both */
    frx_xchg_matrix_destroy(r);
    frx_graph_destroy(g); /* the last references: comm, s and r go */
}

/* One rank's failure, agreed: every rank returns it, named. */
static void agreement(void)
{
    CHECK(frx_comm_agree(MPI_COMM_WORLD, FRX_OK, "step") == FRX_OK,
          "all ok: %s", frx_errmsg());
    int rc = rank == size - 1 ? frx_error(FRX_ENOMEM, "out of memory for "
                                          "the views (injected)")
                              : FRX_OK;
    rc = frx_comm_agree(MPI_COMM_WORLD, rc, "building views");
    char want[128];
    snprintf(want, sizeof want, "building views failed on 1 of %d rank(s):"
             "\n  rank %d (", size, size - 1);
    CHECK(rc == FRX_ENOMEM && HAS(want) &&
          HAS("out of memory for the views (injected)"),
          "agree: %s", frx_errmsg());
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *text = "backend: {name: openmp, precision: double}\n";
    frx_config *cfg;
    frx_backend *be;
    if (frx_config_parse(text, strlen(text), "test.yaml", &cfg) ||
        frx_backend_create_all(cfg, MPI_COMM_WORLD, &be)) {
        fprintf(stderr, "rank %d: %s\n", rank, frx_errmsg());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    size_t n = 11;
    frx_matrix_shape shapes[2] = {{1, 2, 16}, {1, 2, 16}};
    frx_matrix *m[2];
    frx_matrix_create_group(be, 2, shapes, m);
    struct side snd, rcv;
    side_make(be, m[0], n, &snd);
    side_make(be, m[1], n, &rcv);
    frx_xchg_matrix *out;
    frx_xchg_matrix_create(be, n, 1, 2, &out);
    frx_kernel_register(be, &twice);
    frx_arg args[] = {frx_arg_xchg(frx_xchg_view_matrix(rcv.xv)),
                      frx_arg_xchg(out)};
    frx_kernel *k;
    int rc = frx_kernel_create(be, "setup_twice", 1, n, args, 2, &k);
    CHECK(rc == FRX_OK, "kernel: %s", frx_errmsg());

    frx_comm *c;
    int sid, rid;
    rc = frx_comm_create(be, MPI_COMM_WORLD, &c);
    rc = rc ? rc : frx_comm_add_send(c, frx_xchg_view_matrix(snd.xv),
                                     (rank + 1) % size, &sid);
    rc = rc ? rc : frx_comm_add_recv(c, frx_xchg_view_matrix(rcv.xv),
                                     (rank + size - 1) % size, &rid);
    CHECK(rc == FRX_OK, "comm: %s", frx_errmsg());
    if (rc == FRX_OK) {
        inflight_refused(be, c, sid, rid, &snd, &rcv, k);
        inflight_good(be, c, sid, rid, m[0], &snd, k, out, n);
    }
    shapes_checked(be);
    names_checked(be);
    graph_holds_comm(be);
    unnamed_alike_warned(be);
    agreement();
    frx_comm_destroy(c);
    frx_kernel_destroy(k);
    frx_xchg_matrix_destroy(out);
    side_free(&snd);
    side_free(&rcv);
    frx_matrix_destroy(m[0]);
    frx_matrix_destroy(m[1]);

    int fails = nfail, passes = npass, tf = 0, tp = 0;
    MPI_Reduce(&fails, &tf, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&passes, &tp, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("set-up checks on %d rank(s): %d passed, %d failed\n", size,
               tp, tf);
    frx_backend_destroy(be);
    frx_config_free(cfg);
    int any = 0;
    MPI_Allreduce(&fails, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return any ? 1 : 0;
}
