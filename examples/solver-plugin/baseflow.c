/* SPDX-License-Identifier: BSD-3-Clause */
/* The base flow at the faces: snapshots at t = 0 and the check.
 *
 * At t = 0, for every peer, the base flow at this rank's sides of the
 * shared faces is packed once into an xchg matrix (the snapshot,
 * frx_xchg_view_snapshot) and sent to the peer once; the peer's arrives
 * the same way and serves as the other side's base flow in the
 * interface kernel from then on. The interior faces get a snapshot of
 * both their sides too. Every check_every steps a reduction kernel
 * compares each live view of the base flow with its snapshot (the count
 * of points that differ, and the largest difference), and a host node
 * stops the run where they are not equal to the bit.
 *
 * Test hook: FRX_ADVECT_TEST_CORRUPT_RANK=R makes rank R change one
 * value of its first snapshot after the exchange, as a fault would; the
 * first check must then stop every rank, naming rank R. */
#include "advect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* live (a view) against snap (its snapshot): bad counts the points that
 * differ (NaN included), dmax is the largest difference. */
static const frx_kernel_decl baseflow_check = {
    .name = "baseflow_check", .ndim = 1,
    .args = "in view fpdtype_t[2] live, in xchg fpdtype_t[2] snap, "
            "out reduce(sum) fpdtype_t bad, out reduce(max) fpdtype_t dmax",
    .body = "bad = live[0] != snap[0] || live[1] != snap[1];\n"
            "dmax = fmax(fabs(live[0] - snap[0]), fabs(live[1] - snap[1]));"};

/* A view of the base flow at sides s, and its snapshot now. */
static int snapshot(struct advect *a, const struct advect_sides *s,
                    frx_view **v, frx_xchg_view **xv, frx_xchg_matrix **snap)
{
    int rc = adv_view(a, a->base, s, 0, 2, v);
    if (!rc && !(rc = frx_xchg_view_create(*v, xv)))
        rc = adv_keep(a, ADV_XVIEW, *xv);
    if (!rc && !(rc = frx_xchg_view_snapshot(*xv, snap)))
        rc = adv_keep(a, ADV_XMATRIX, *snap);
    return rc;
}

static int check_kernel(struct advect *a, frx_view *v, frx_xchg_matrix *snap,
                        frx_kernel **k)
{
    frx_arg args[] = {frx_arg_view(v), frx_arg_xchg(snap), frx_arg_reduce(),
                      frx_arg_reduce()};
    int rc = frx_kernel_create(a->be, "baseflow_check", 1, frx_view_n(v),
                               args, 4, k);
    return rc ? rc : adv_keep(a, ADV_KERNEL, *k);
}

/* Send each peer our snapshot, receive theirs: once, at t = 0. */
static int exchange_once(struct advect *a)
{
    if (a->npeers == 0)
        return FRX_OK;
    int *ids = calloc(2 * a->npeers, sizeof *ids);
    frx_graph *g = NULL;
    int rc = ids ? frx_graph_create(a->be, &g)
                 : frx_error(FRX_ENOMEM, "advect: out of memory");
    for (size_t p = 0; p < a->npeers && !rc; p++) {
        struct advect_peer *pe = &a->peers[p];
        if (!(rc = frx_xchg_matrix_create(a->be, pe->local.n, 1, 2,
                                          &pe->peer_base)) &&
            !(rc = adv_keep(a, ADV_XMATRIX, pe->peer_base)) &&
            !(rc = frx_comm_add_send_named(a->comm, pe->snap, pe->rank,
                                           "base flow", &ids[2 * p])))
            rc = frx_comm_add_recv_named(a->comm, pe->peer_base, pe->rank,
                                         "base flow", &ids[2 * p + 1]);
    }
    for (size_t p = 0; p < a->npeers && !rc; p++)
        rc = frx_graph_add_recv(g, a->comm, ids[2 * p + 1], NULL, 0, NULL);
    for (size_t p = 0; p < a->npeers && !rc; p++)
        rc = frx_graph_add_send(g, a->comm, ids[2 * p], NULL, 0, NULL);
    for (size_t i = 0; i < 2 * a->npeers && !rc; i++)
        rc = frx_graph_add_wait(g, a->comm, ids[i], NULL, 0, NULL);
    if (!rc)
        rc = frx_graph_commit(g);
    if (!rc)
        rc = frx_graph_run(g);
    frx_graph_destroy(g);
    free(ids);
    return rc;
}

/* ------------------------------------------------------------ checking */

/* The results of every check kernel's last run: FRX_OK when the live
 * base flow equals its snapshots everywhere, else the reason. */
static int verdict(struct advect *a, const char *when)
{
    for (size_t i = 0; i <= a->npeers; i++) {
        frx_kernel *k = i < a->npeers ? a->peers[i].check : a->icheck;
        double bad, dmax;
        int rc;
        if (!k)
            continue;
        if ((rc = frx_kernel_result(k, "bad", &bad, 1)) ||
            (rc = frx_kernel_result(k, "dmax", &dmax, 1)))
            return rc;
        if (bad == 0)
            continue;
        char where[64];
        if (i < a->npeers)
            snprintf(where, sizeof where, "faces shared with rank %d",
                     a->peers[i].rank);
        else
            snprintf(where, sizeof where, "interior faces");
        return frx_error(FRX_ERANGE, "advect: base-flow check on rank %d%s: "
                         "%.0f point(s) of the %s differ from the snapshot "
                         "taken at t = 0, by up to %.17g (they must stay "
                         "equal to the bit)", a->rank, when, bad, where,
                         dmax);
    }
    return FRX_OK;
}

static int check_node(void *ud)
{
    return verdict(ud, "");
}

int adv_build_check(struct advect *a, frx_graph *g)
{
    int rc = FRX_OK;
    for (size_t p = 0; p < a->npeers && !rc; p++)
        rc = frx_graph_add_kernel(g, a->peers[p].check, NULL, 0, NULL);
    if (!rc && a->icheck)
        rc = frx_graph_add_kernel(g, a->icheck, NULL, 0, NULL);
    return rc ? rc : frx_graph_add_host(g, check_node, a, NULL);
}

/* FRX_ADVECT_TEST_CORRUPT_RANK (tests only): change one value of this
 * rank's first snapshot, as a fault would. */
static int corrupt_for_test(struct advect *a)
{
    const char *env = getenv("FRX_ADVECT_TEST_CORRUPT_RANK");
    if (!env || atoi(env) != a->rank)
        return FRX_OK;
    frx_xchg_matrix *xm = a->npeers ? a->peers[0].snap : a->check_snap;
    if (!xm)
        return FRX_OK;
    double *h = malloc(frx_xchg_matrix_bytes(xm) / frx_backend_fpsize(a->be) *
                       sizeof *h);
    if (!h)
        return frx_error(FRX_ENOMEM, "advect: out of memory");
    int rc = frx_xchg_matrix_read_double(xm, h);
    if (!rc) {
        h[0] += 0.25;
        rc = frx_xchg_matrix_write_double(xm, h);
    }
    free(h);
    frx_log(FRX_LOG_WARN, "advect: FRX_ADVECT_TEST_CORRUPT_RANK: the "
            "base-flow snapshot of rank %d is changed on purpose", a->rank);
    return rc;
}

int adv_baseflow_setup(struct advect *a, int rc)
{
    if (!rc)
        rc = frx_kernel_register(a->be, &baseflow_check);
    for (size_t p = 0; p < a->npeers && !rc; p++) {
        struct advect_peer *pe = &a->peers[p];
        if (!(rc = snapshot(a, &pe->local, &pe->base_v, &pe->base_xv,
                            &pe->snap)))
            rc = check_kernel(a, pe->base_v, pe->snap, &pe->check);
    }
    /* each rank's status before the collective exchange: a rank that
     * failed alone would leave the others waiting for its side */
    rc = frx_comm_agree(frx_comm_mpi(a->comm), rc, "advect's set-up");
    if (!rc)
        rc = exchange_once(a);
    if (!rc && a->il.n) { /* interior faces: l sides, then r sides */
        struct advect_sides both = {.n = 2 * a->il.n};
        both.ele = malloc(both.n * sizeof *both.ele);
        both.face = malloc(both.n * sizeof *both.face);
        if (both.ele && both.face) {
            size_t n = a->il.n;
            memcpy(both.ele, a->il.ele, n * sizeof *both.ele);
            memcpy(both.ele + n, a->ir.ele, n * sizeof *both.ele);
            memcpy(both.face, a->il.face, n * sizeof *both.face);
            memcpy(both.face + n, a->ir.face, n * sizeof *both.face);
            rc = snapshot(a, &both, &a->check_v, &a->check_xv,
                          &a->check_snap);
        } else {
            rc = frx_error(FRX_ENOMEM, "advect: out of memory");
        }
        free(both.ele);
        free(both.face);
        if (!rc)
            rc = check_kernel(a, a->check_v, a->check_snap, &a->icheck);
    }
    /* at t = 0 the difference is exactly 0: what the pack gathered is
     * what the check's view reads */
    for (size_t i = 0; i <= a->npeers && !rc; i++) {
        frx_kernel *k = i < a->npeers ? a->peers[i].check : a->icheck;
        if (k)
            rc = frx_kernel_run(k);
    }
    if (!rc)
        rc = verdict(a, " at t = 0");
    return rc ? rc : corrupt_for_test(a);
}
