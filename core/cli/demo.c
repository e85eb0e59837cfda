/* SPDX-License-Identifier: BSD-3-Clause */
/* The demo case: each rank packs the right face of its elements into an
 * xchg view, sends it to the next rank around a ring and unpacks what
 * it receives into the left face of a second matrix; then each rank
 * checks every value it received against what its neighbour sent,
 * computed independently in plain C.
 * It stands in for a solver until solver plugins exist. */
#include "cli.h"

#include <frx/comm.h>
#include <frx/plugin.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

struct demo {
    long neles, nvars, nupts, steps;
    int rank, size;
    size_t fpsize;
};

/* The value at (row, var, element) of rank's matrix u at a step: exact
 * in single and double precision. */
static double field(int rank, long r, long v, long e, long step)
{
    return (rank + 1) * 4096.0 + r * 64.0 + v * 8.0 + (e % 61) * 0.25 +
           (double)step;
}

static void put(void *a, size_t i, size_t fpsize, double x)
{
    if (fpsize == 4)
        ((float *)a)[i] = (float)x;
    else
        ((double *)a)[i] = x;
}

static double get(const void *a, size_t i, size_t fpsize)
{
    return fpsize == 4 ? ((const float *)a)[i] : ((const double *)a)[i];
}

/* Elements in a scattered order, as an unstructured mesh gives them. */
static long shuffled(long i, long n)
{
    long stride = n / 2 + 1;
    while (stride > 1) {
        long a = stride, b = n;
        while (b) {
            long t = a % b;
            a = b;
            b = t;
        }
        if (a == 1)
            break;
        stride--;
    }
    return (i * stride) % n;
}

static int read_options(const frx_config *cfg, struct demo *d)
{
    const frx_cfgnode *root = frx_config_root(cfg);
    int rc = frx_cfg_int(root, "demo.neles", 4096, 1, 100000000, &d->neles);
    if (rc == FRX_OK)
        rc = frx_cfg_int(root, "demo.nvars", 4, 1, 64, &d->nvars);
    if (rc == FRX_OK)
        rc = frx_cfg_int(root, "demo.nupts", 8, 2, 1000, &d->nupts);
    if (rc == FRX_OK)
        rc = frx_cfg_int(root, "demo.steps", 10, 1, 1000000, &d->steps);
    return rc;
}

/* What rank from's matrix u holds at the last step in the right face:
 * what this rank's left face of v must hold after the run. */
static double sent(const struct demo *d, int from, long k, long e)
{
    double x = field(from, d->nupts - 1, k, e, d->steps - 1);
    return d->fpsize == 4 ? (double)(float)x : x;
}

/* Each rank checks every value it received against what its neighbour
 * must have sent (computed here without frx): a sum over ranks could
 * cancel a wrong value on one rank against another's. */
static int check_received(const struct demo *d, const void *host)
{
    int from = (d->rank + d->size - 1) % d->size;
    size_t n = (size_t)d->neles, bad = 0;
    long first_k = 0, first_e = 0;
    double got = 0, want = 0;
    for (long k = 0; k < d->nvars; k++)
        for (long e = 0; e < d->neles; e++) {
            double g = get(host, (size_t)k * n + (size_t)e, d->fpsize);
            double w = sent(d, from, k, e);
            if (g != w && bad++ == 0)
                first_k = k, first_e = e, got = g, want = w;
        }
    if (!bad)
        return FRX_OK;
    return frx_error(FRX_EBACKEND, "%zu of %zu values received from rank "
                     "%d differ from what it sent (first: element %ld, "
                     "variable %ld: got %.17g, want %.17g)", bad,
                     n * (size_t)d->nvars, from, first_e, first_k, got, want);
}

/* Collective: the status of a set-up step, agreed by every rank before
 * the next collective one. */
static int agree(int rc, const char *what)
{
    return frx_comm_agree(MPI_COMM_WORLD, rc, what);
}

static int exchange(struct demo *d, frx_backend *be, frx_matrix *u,
                    frx_matrix *v)
{
    size_t n = (size_t)d->neles, fs = d->fpsize;
    size_t nu = (size_t)(d->nupts * d->nvars) * n;
    frx_matrix *umats[1] = {u}, *vmats[1] = {v};
    size_t *eles = calloc(n, sizeof *eles), *rows_r = calloc(n, sizeof *eles),
           *rows_l = calloc(n, sizeof *eles);
    void *host = calloc(nu, fs);
    frx_matrix **mu = calloc(n, sizeof *mu), **mv = calloc(n, sizeof *mv);
    frx_view *right = NULL, *left = NULL;
    frx_xchg_view *xr = NULL, *xl = NULL;
    int rc = eles && rows_r && rows_l && host && mu && mv
                 ? FRX_OK
                 : frx_error(FRX_ENOMEM, "demo: out of memory for %zu "
                             "points", n);
    for (size_t i = 0; rc == FRX_OK && i < n; i++) {
        eles[i] = (size_t)shuffled((long)i, d->neles);
        rows_r[i] = (size_t)d->nupts - 1;
        mu[i] = umats[0];
        mv[i] = vmats[0];
    }
    if (rc == FRX_OK)
        rc = frx_view_create(be, n, mu, rows_r, eles, NULL, 1,
                             (size_t)d->nvars, &right);
    if (rc == FRX_OK)
        rc = frx_view_create(be, n, mv, rows_l, eles, NULL, 1,
                             (size_t)d->nvars, &left);
    if (rc == FRX_OK)
        rc = frx_xchg_view_create(right, &xr);
    if (rc == FRX_OK)
        rc = frx_xchg_view_create(left, &xl);

    /* One graph per step: post the receive, pack and send the right
     * faces, wait, unpack into the left faces. */
    int to = (d->rank + 1) % d->size, from = (d->rank + d->size - 1) % d->size;
    frx_comm *comm = NULL;
    frx_graph *g = NULL;
    int sid, rid;
    rc = agree(rc, "demo: views");
    if (rc == FRX_OK) /* collective: every rank or none */
        rc = frx_comm_create(be, MPI_COMM_WORLD, &comm);
    if (rc == FRX_OK)
        rc = frx_comm_add_send(comm, frx_xchg_view_matrix(xr), to, &sid);
    if (rc == FRX_OK)
        rc = frx_comm_add_recv(comm, frx_xchg_view_matrix(xl), from, &rid);
    if (rc == FRX_OK)
        rc = frx_graph_create(be, &g);
    if (rc == FRX_OK)
        rc = frx_graph_add_recv(g, comm, rid, NULL, 0, NULL);
    if (rc == FRX_OK)
        rc = frx_graph_add_pack(g, xr, NULL, 0, NULL);
    if (rc == FRX_OK)
        rc = frx_graph_add_send(g, comm, sid, NULL, 0, NULL);
    if (rc == FRX_OK)
        rc = frx_graph_add_wait(g, comm, rid, NULL, 0, NULL);
    if (rc == FRX_OK)
        rc = frx_graph_add_unpack(g, xl, NULL, 0, NULL);
    if (rc == FRX_OK)
        rc = frx_graph_add_wait(g, comm, sid, NULL, 0, NULL);
    if (rc == FRX_OK)
        rc = frx_graph_commit(g);
    rc = agree(rc, "demo: exchanges");
    int agreed = rc != FRX_OK; /* every rank has this failure already */

    /* Mid-run, a rank that fails cannot tell the others, which wait for
     * its data: it ends the job (frx_graph_run does so itself). */
    size_t bytes = n * (size_t)d->nvars * fs;
    for (long s = 0; rc == FRX_OK && s < d->steps; s++) {
        for (long r = 0; r < d->nupts; r++)
            for (long k = 0; k < d->nvars; k++)
                for (long e = 0; e < d->neles; e++)
                    put(host, (size_t)((r * d->nvars + k) * d->neles + e), fs,
                        field(d->rank, r, k, e, s));
        rc = frx_matrix_write(u, host);
        if (rc)
            frx_comm_abort(comm, rc);
        rc = frx_graph_run(g);
        if (d->rank == 0 && rc == FRX_OK)
            frx_log(FRX_LOG_INFO, "step %ld/%ld: exchanged %zu bytes", s + 1,
                    d->steps, bytes);
    }
    if (comm && rc == FRX_OK)
        rc = frx_comm_report(comm);
    frx_graph_destroy(g);
    frx_comm_destroy(comm);
    if (rc == FRX_OK)
        rc = frx_matrix_read(v, host);
    if (rc == FRX_OK) /* row 0 of v: the left faces */
        rc = check_received(d, host);
    if (!agreed)
        rc = agree(rc, "demo: what the ranks received");

    frx_xchg_view_destroy(xr);
    frx_xchg_view_destroy(xl);
    frx_view_destroy(right);
    frx_view_destroy(left);
    free(eles), free(rows_r), free(rows_l), free(host), free(mu), free(mv);
    return rc;
}

int frx_demo_run(const frx_config *cfg)
{
    struct demo d;
    MPI_Comm_rank(MPI_COMM_WORLD, &d.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &d.size);
    frx_backend *be = NULL;
    int rc = read_options(cfg, &d);
    if (rc) /* the case was checked on every rank: all fail alike */
        return rc;
    rc = frx_backend_create_all(cfg, MPI_COMM_WORLD, &be);
    if (rc) {
        if (d.rank == 0)
            frx_log(FRX_LOG_ERROR, "%s", frx_errmsg());
        return rc;
    }
    d.fpsize = frx_backend_fpsize(be);

    frx_matrix_shape shape = {(size_t)d.nupts, (size_t)d.nvars,
                              (size_t)d.neles};
    frx_matrix_shape shapes[2] = {shape, shape};
    frx_matrix *m[2] = {NULL, NULL};
    rc = frx_matrix_create_group(be, 2, shapes, m);
    rc = agree(rc, "demo: matrices");
    if (rc == FRX_OK)
        rc = exchange(&d, be, m[0], m[1]);
    if (rc && d.rank == 0) /* agreed: every rank has the same message */
        frx_log(FRX_LOG_ERROR, "%s", frx_errmsg());
    if (rc == FRX_OK && d.rank == 0)
        printf("demo: %d rank(s) on %s, %ld elements x %ld variables per "
               "rank, %ld exchanges: every rank received what its "
               "neighbour sent: ok\n", d.size, frx_backend_name(be),
               d.neles, d.nvars, d.steps);
    if (m[0])
        frx_matrix_destroy(m[0]);
    if (m[1])
        frx_matrix_destroy(m[1]);
    frx_backend_destroy(be);
    return rc;
}
