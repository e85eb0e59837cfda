/* Linear combinations of registers, out = a*out + sum c_i*in_i, as one
 * generated kernel per block (PyFR's axnpby): every variable of every
 * point read once and written once, on every backend. Kernels of the
 * core live in namespace "frx"; instances are made in the set-up pass
 * (s->dry) and reused with new scalars. */
#include "solver-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_IN 4

struct combo {
    int out, n, in[MAX_IN];
    frx_kernel **k; /* one per block */
};

struct frx__lincomb {
    struct combo *c;
    size_t n, cap;
    size_t nblocks;
};

void frx__lincomb_free(struct frx__lincomb *lc)
{
    if (!lc)
        return;
    for (size_t i = 0; i < lc->n; i++) {
        for (size_t b = 0; b < lc->nblocks; b++)
            frx_kernel_destroy(lc->c[i].k[b]);
        free(lc->c[i].k);
    }
    free(lc->c);
    free(lc);
}

int frx__core_kernel(frx_solver *s, const char *name, const char *args,
                     const char *body, int ndim)
{
    frx_kernel_decl d = {.name = name, .ndim = ndim, .args = args,
                         .body = body};
    const char *old = frx__kernel_ns_set(s->be, "frx");
    int rc = frx_kernel_register(s->be, &d);
    frx__kernel_ns_set(s->be, old);
    return rc;
}

/* Declare and bind axnpby<n>_<nvars> for one block. */
static int make(frx_solver *s, const struct combo *c, size_t b,
                frx_kernel **out)
{
    size_t nv = s->info.nvars;
    char name[64], args[1024], body[1024];
    snprintf(name, sizeof name, "axnpby%d_%zu", c->n, nv);
    int k = snprintf(args, sizeof args, "inout fpdtype_t[%zu] x0", nv);
    for (int i = 1; i <= c->n; i++)
        k += snprintf(args + k, sizeof args - (size_t)k,
                      ", in fpdtype_t[%zu] x%d", nv, i);
    for (int i = 0; i <= c->n; i++)
        k += snprintf(args + k, sizeof args - (size_t)k,
                      ", scalar fpdtype_t a%d", i);
    /* a0 == 0: x0 is not read into the sum, whatever it holds */
    k = snprintf(body, sizeof body, "for (int v = 0; v < %zu; v++)\n"
                 "    x0[v] = (a0 == 0 ? 0 : a0*x0[v])", nv);
    for (int i = 1; i <= c->n; i++)
        k += snprintf(body + k, sizeof body - (size_t)k, " + a%d*x%d[v]", i,
                      i);
    snprintf(body + k, sizeof body - (size_t)k, ";");
    int rc = frx__core_kernel(s, name, args, body, 2);
    if (rc)
        return rc;
    frx_arg a[1 + 2 * (MAX_IN + 1)];
    a[0] = frx_arg_matrix(s->reg[c->out][b]);
    for (int i = 0; i < c->n; i++)
        a[1 + i] = frx_arg_matrix(s->reg[c->in[i]][b]);
    for (int i = 0; i <= c->n; i++)
        a[1 + c->n + i] = frx_arg_unset();
    const frx_solver_block *blk = &s->blocks[b];
    const char *old = frx__kernel_ns_set(s->be, "frx");
    rc = frx_kernel_create(s->be, name, blk->nupts, blk->neles, a,
                           (size_t)(2 * c->n + 2), out);
    frx__kernel_ns_set(s->be, old);
    return rc;
}

static struct combo *find(struct frx__lincomb *lc, int out, int n,
                          const int *in)
{
    for (size_t i = 0; lc && i < lc->n; i++) {
        struct combo *c = &lc->c[i];
        if (c->out == out && c->n == n &&
            memcmp(c->in, in, (size_t)n * sizeof *in) == 0)
            return c;
    }
    return NULL;
}

/* The set-up pass: make the kernels of a new combination. */
static int prepare(frx_solver *s, int out, int n, const int *in)
{
    if (!s->lc && !(s->lc = frx__calloc(1, sizeof *s->lc, "combinations")))
        return FRX_ENOMEM;
    struct frx__lincomb *lc = s->lc;
    lc->nblocks = s->info.nblocks;
    if (lc->n == lc->cap) {
        size_t cap = lc->cap ? 2 * lc->cap : 8;
        struct combo *c = realloc(lc->c, cap * sizeof *c);
        if (!c)
            return frx_error(FRX_ENOMEM, "out of memory for combinations");
        lc->c = c;
        lc->cap = cap;
    }
    struct combo *c = &lc->c[lc->n];
    *c = (struct combo){.out = out, .n = n};
    memcpy(c->in, in, (size_t)n * sizeof *in);
    if (!(c->k = frx__calloc(lc->nblocks, sizeof *c->k, "kernels")))
        return FRX_ENOMEM;
    lc->n++; /* freed with the rest, made or not */
    for (size_t b = 0; b < lc->nblocks; b++) {
        int rc = make(s, c, b, &c->k[b]);
        if (rc)
            return rc;
    }
    return FRX_OK;
}

int frx__lincomb(frx_solver *s, int out, double a, int n, const int *in,
                 const double *c)
{
    if (n < 1 || n > MAX_IN)
        return frx_error(FRX_EINVAL, "linear combination of %d registers",
                         n);
    struct combo *cb = find(s->lc, out, n, in);
    if (s->dry)
        return cb ? FRX_OK : prepare(s, out, n, in);
    if (!cb)
        return frx_error(FRX_EINVAL, "time scheme: a combination into "
                         "register %d the set-up pass did not see", out);
    char name[8];
    for (size_t b = 0; b < s->info.nblocks; b++) {
        frx_kernel *k = cb->k[b];
        int rc = frx_kernel_set_scalar(k, "a0", a);
        for (int i = 0; i < n && rc == FRX_OK; i++) {
            snprintf(name, sizeof name, "a%d", i + 1);
            rc = frx_kernel_set_scalar(k, name, c[i]);
        }
        if (rc == FRX_OK)
            rc = frx_kernel_run(k);
        if (rc)
            return rc;
    }
    return FRX_OK;
}
