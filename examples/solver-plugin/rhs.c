/* SPDX-License-Identifier: BSD-3-Clause */
/* The right-hand side R(u) = -(1/|V|) sum over faces of (a.n) u_upwind
 * |f|, as kernels: a flux kernel over interior faces, an interface
 * kernel per peer rank (this side through a view, the other side's u
 * through an xchg matrix received each evaluation) and an element
 * kernel that sums each element's outgoing fluxes. */
#include "advect.h"

#include <stdio.h>
#include <stdlib.h>

/* The flux through a face, as seen from side l (whose normal sn is):
 * the base flow is the mean of both sides', the state the upwind one.
 * Both sides of a face compute the same value with opposite signs. */
static const frx_kernel_macro normal_speed = {
    .name = "normal_speed", .params = "al, ar, sn",
    .body = "(((al)[0] + (ar)[0])*(sn)[0] + ((al)[1] + (ar)[1])*(sn)[1])"
            "/2"};
static const frx_kernel_macro upwind = {
    .name = "upwind", .params = "an, ul, ur",
    .body = "((an) > 0 ? (an)*(ul) : (an)*(ur))"};

/* Interior faces: both sides here, each side's outgoing flux. */
static const frx_kernel_decl flux_interior = {
    .name = "flux_interior", .ndim = 1,
    .args = "in view fpdtype_t ul, in view fpdtype_t ur, "
            "in view fpdtype_t[2] al, in view fpdtype_t[2] ar, "
            "in fpdtype_t[2] sn, out view fpdtype_t fl, "
            "out view fpdtype_t fr",
    .body = "fpdtype_t an = normal_speed(al, ar, sn);\n"
            "fl = upwind(an, ul, ur);\n"
            "fr = -fl;"};

/* Faces shared with a peer: this side's u and base flow through views,
 * the peer's through xchg matrices (u received before each evaluation,
 * the base flow once at t = 0). */
static const frx_kernel_decl flux_interface = {
    .name = "flux_interface", .ndim = 1,
    .args = "in view fpdtype_t ul, in xchg fpdtype_t ur, "
            "in view fpdtype_t[2] al, in xchg fpdtype_t[2] ar, "
            "in fpdtype_t[2] sn, out view fpdtype_t fl",
    .body = "fpdtype_t an = normal_speed(al, ar, sn);\n"
            "fl = upwind(an, ul, ur);"};

/* du/dt of an element: minus its outgoing fluxes over its area. */
static int register_divergence(struct advect *a)
{
    char name[32], args[128], body[256];
    int at = snprintf(body, sizeof body, "f = -(ff[0][0]");
    for (size_t k = 1; k < a->nf; k++)
        at += snprintf(body + at, sizeof body - (size_t)at, " + ff[%zu][0]",
                       k);
    snprintf(body + at, sizeof body - (size_t)at, ")*rv;");
    snprintf(name, sizeof name, "divergence_%zu", a->nf);
    snprintf(args, sizeof args, "in fpdtype_t[%zu][1] ff, in fpdtype_t rv, "
             "out fpdtype_t f", a->nf);
    frx_kernel_decl d = {.name = name, .ndim = 1, .args = args,
                         .body = body};
    return frx_kernel_register(a->be, &d);
}

int adv_register_kernels(struct advect *a)
{
    int rc = frx_kernel_register_macro(a->be, &normal_speed);
    if (!rc)
        rc = frx_kernel_register_macro(a->be, &upwind);
    if (!rc)
        rc = frx_kernel_register(a->be, &flux_interior);
    if (!rc)
        rc = frx_kernel_register(a->be, &flux_interface);
    if (!rc)
        rc = register_divergence(a);
    return rc;
}

static int kernel(struct advect *a, const char *name, size_t n,
                  const frx_arg *args, size_t nargs, frx_kernel **out)
{
    int rc = frx_kernel_create(a->be, name, 1, n, args, nargs, out);
    return rc ? rc : adv_keep(a, ADV_KERNEL, *out);
}

/* What one RHS graph needs per peer: u at this side, packed and sent;
 * the peer's u at its side, received. */
struct exchange {
    frx_view *ul;
    frx_xchg_view *send;
    frx_xchg_matrix *recv;
    int send_id, recv_id;
};

static int exchange_setup(struct advect *a, struct advect_peer *p,
                          frx_matrix *u, struct exchange *x)
{
    int rc = adv_view(a, u, &p->local, 0, 1, &x->ul);
    if (!rc && !(rc = frx_xchg_view_create(x->ul, &x->send)))
        rc = adv_keep(a, ADV_XVIEW, x->send);
    if (!rc && !(rc = frx_xchg_matrix_create(a->be, p->local.n, 1, 1,
                                             &x->recv)))
        rc = adv_keep(a, ADV_XMATRIX, x->recv);
    /* both ranks register in the same order: peers ascending, send then
     * receive, so the k-th exchange with a peer matches its k-th; the
     * names let the first commit refuse two ranks that do not */
    if (!rc)
        rc = frx_comm_add_send_named(a->comm, frx_xchg_view_matrix(x->send),
                                     p->rank, "solution", &x->send_id);
    if (!rc)
        rc = frx_comm_add_recv_named(a->comm, x->recv, p->rank, "solution",
                                     &x->recv_id);
    return rc;
}

/* Interior faces' fluxes, or none. */
static int add_interior(struct advect *a, frx_matrix *u, frx_graph *g)
{
    if (a->il.n == 0)
        return FRX_OK;
    frx_view *ul, *ur;
    int rc = adv_view(a, u, &a->il, 0, 1, &ul);
    if (!rc)
        rc = adv_view(a, u, &a->ir, 0, 1, &ur);
    if (rc)
        return rc;
    frx_arg args[] = {frx_arg_view(ul), frx_arg_view(ur),
                      frx_arg_view(a->ibase_l), frx_arg_view(a->ibase_r),
                      frx_arg_matrix(a->isn), frx_arg_view(a->iflux_l),
                      frx_arg_view(a->iflux_r)};
    frx_kernel *k;
    rc = kernel(a, "flux_interior", a->il.n, args, 7, &k);
    return rc ? rc : frx_graph_add_kernel(g, k, NULL, 0, NULL);
}

int adv_build_rhs(struct advect *a, frx_matrix *const *u,
                  frx_matrix *const *f, frx_graph *g)
{
    struct exchange *x = calloc(a->npeers ? a->npeers : 1, sizeof *x);
    if (!x)
        return frx_error(FRX_ENOMEM, "advect: out of memory");
    int rc = FRX_OK;
    for (size_t p = 0; p < a->npeers && !rc; p++)
        rc = exchange_setup(a, &a->peers[p], u[0], &x[p]);
    /* receives first, then what feeds the sends, so the messages fly
     * while the interior faces are computed */
    for (size_t p = 0; p < a->npeers && !rc; p++)
        rc = frx_graph_add_recv(g, a->comm, x[p].recv_id, NULL, 0, NULL);
    for (size_t p = 0; p < a->npeers && !rc; p++) {
        rc = frx_graph_add_pack(g, x[p].send, NULL, 0, NULL);
        if (!rc)
            rc = frx_graph_add_send(g, a->comm, x[p].send_id, NULL, 0, NULL);
    }
    if (!rc)
        rc = add_interior(a, u[0], g);
    for (size_t p = 0; p < a->npeers && !rc; p++) {
        struct advect_peer *pe = &a->peers[p];
        frx_arg args[] = {frx_arg_view(x[p].ul), frx_arg_xchg(x[p].recv),
                          frx_arg_view(pe->base_v),
                          frx_arg_xchg(pe->peer_base),
                          frx_arg_matrix(pe->sn), frx_arg_view(pe->flux_v)};
        frx_kernel *k;
        if ((rc = frx_graph_add_wait(g, a->comm, x[p].recv_id, NULL, 0,
                                     NULL)) ||
            (rc = kernel(a, "flux_interface", pe->local.n, args, 6, &k)) ||
            (rc = frx_graph_add_kernel(g, k, NULL, 0, NULL)))
            break;
        rc = frx_graph_add_wait(g, a->comm, x[p].send_id, NULL, 0, NULL);
    }
    free(x);
    if (rc)
        return rc;
    char name[32];
    snprintf(name, sizeof name, "divergence_%zu", a->nf);
    frx_arg args[] = {frx_arg_matrix(a->fflux), frx_arg_matrix(a->rvol),
                      frx_arg_matrix(f[0])};
    frx_kernel *k;
    rc = kernel(a, name, a->neles, args, 3, &k);
    return rc ? rc : frx_graph_add_kernel(g, k, NULL, 0, NULL);
}
