/* SPDX-License-Identifier: BSD-3-Clause */
/* The fields the FR system computes on the backend from the physics'
 * fragments (fr_physics.initial_src, aux_src): one kernel over a
 * block's points, which also counts the points whose value is no value.
 * Where there is one, the host callback of the same field then names
 * the first such point (the message a user can act on). */
#include "system-internal.h"

#include <stdio.h>
#include <stdlib.h>

/* The kernel over the block's points x (npts rows) into out; *nbad the
 * points it refused. */
static int field_run(fr_system *s, const struct fr_blk *b, int initial,
                     frx_matrix *x, size_t npts, frx_matrix *out,
                     double *nbad)
{
    frx_arg *a = calloc(5 + s->phys.nconsts, sizeof *a);
    if (!a)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    size_t na = 0;
    a[na++] = frx_arg_matrix(x);
    a[na++] = frx_arg_matrix(out);
    a[na++] = frx_arg_reduce();
    if (initial) {
        a[na++] = frx_arg_scalar(s->t0);
        if (s->phys.naux)
            a[na++] = frx_arg_matrix(b->aux);
    }
    na += (size_t)fr__bind_consts(s, a + na);
    frx_kernel *k = NULL;
    int rc = frx_kernel_create(s->be, initial ? s->kn.initial : s->kn.auxat,
                               npts, b->neles, a, na, &k);
    free(a);
    if (!rc)
        rc = frx_kernel_run(k);
    if (!rc)
        rc = frx_kernel_result(k, "nbad", nbad, 1);
    frx_kernel_destroy(k);
    return rc;
}

/* The kernel refused nbad points: the host callback's word on them, or
 * what frx can say itself. */
static int refused(fr_system *s, int initial, size_t n, const double *xyz,
                   double nbad, size_t blk)
{
    const fr_physics *p = &s->phys;
    size_t nv = initial ? p->nvars : p->naux, nn = n * nv > 0 ? n * nv : 1;
    const char *what = initial ? "initial condition" : "auxiliary fields";
    int host = initial ? p->initial != NULL : p->aux_at != NULL;
    if (host) {
        double *v = malloc(nn * sizeof *v);
        if (!v)
            return frx_error(FRX_ENOMEM, "fr: out of memory");
        int rc = initial ? p->initial(p->ctx, s->t0, n, xyz, v)
                         : p->aux_at(p->ctx, n, xyz, v);
        free(v);
        if (rc)
            return rc;
    }
    int single = frx_backend_precision(s->be) == FRX_SINGLE;
    return frx_error(FRX_ERANGE, "%s: the %s computed on the backend is not "
                     "finite, or no state, at %.0f point(s) of block %zu%s; "
                     "check its expressions' domain (sqrt, log, division)%s",
                     p->name, what, nbad, blk,
                     host ? ", though in double on the host it is" : "",
                     single ? " and range (single precision holds 3.4e38 "
                              "at most)" : "");
}

int fr__field_fill(fr_system *s, const struct fr_blk *b, int initial,
                   int fpts, frx_matrix *out)
{
    size_t npts = fpts ? b->nfpts : b->nupts;
    const double *xyz = fpts ? b->geo.xfpts : b->geo.xupts;
    frx_matrix *x = b->ploc;
    int rc = FRX_OK;
    if (fpts) { /* the flux points' coordinates, for this once */
        size_t nd = (size_t)s->ndims, n = b->neles * npts * nd;
        double *h = malloc((n ? n : 1) * sizeof *h);
        if (!h)
            return frx_error(FRX_ENOMEM, "fr: out of memory");
        fr_to_matrix_layout(xyz, b->neles, npts, nd, h);
        rc = fr__matrix_from(s->be, npts, nd, b->neles, h, &x);
        free(h);
        if (rc)
            return rc;
    }
    double nbad = 0;
    rc = field_run(s, b, initial, x, npts, out, &nbad);
    if (fpts)
        frx_matrix_destroy(x);
    if (!rc && nbad > 0)
        rc = refused(s, initial, b->neles * npts, xyz, nbad,
                     (size_t)(b - s->blk));
    return rc;
}
