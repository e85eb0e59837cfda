/* SPDX-License-Identifier: BSD-3-Clause */
/* Linear combinations of registers, out = a*out + sum c_i*in_i, as one
 * generated kernel per block (PyFR's axnpby): every variable of every
 * point read once and written once, on every backend. A pair adds a
 * second output, out2 = sum d_i*in_i, from the same inputs in the same
 * pass (a scheme's two updates after an RHS read f once, not twice).
 * Kernels of the core live in namespace "frx"; instances are made in
 * the set-up pass (s->dry) and reused with new scalars. */
#include "solver/solver-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_IN 4

struct combo {
    int out, out2, n, in[MAX_IN]; /* out2: -1 unless a pair */
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

/* Declare and bind axnpby<n>_<nvars> (a pair: axnpby<n>p_<nvars>, its
 * second output y0 and scalars b1..bn) for one block. */
static int make(frx_solver *s, const struct combo *c, size_t b,
                frx_kernel **out)
{
    size_t nv = s->info.nvars;
    int pair = c->out2 >= 0;
    char name[64], args[1024], body[1024];
    snprintf(name, sizeof name, "axnpby%d%s_%zu", c->n, pair ? "p" : "", nv);
    int k = snprintf(args, sizeof args, "inout fpdtype_t[%zu] x0", nv);
    if (pair)
        k += snprintf(args + k, sizeof args - (size_t)k,
                      ", out fpdtype_t[%zu] y0", nv);
    for (int i = 1; i <= c->n; i++)
        k += snprintf(args + k, sizeof args - (size_t)k,
                      ", in fpdtype_t[%zu] x%d", nv, i);
    for (int i = 0; i <= c->n; i++)
        k += snprintf(args + k, sizeof args - (size_t)k,
                      ", scalar fpdtype_t a%d", i);
    for (int i = 1; pair && i <= c->n; i++)
        k += snprintf(args + k, sizeof args - (size_t)k,
                      ", scalar fpdtype_t b%d", i);
    /* a0 == 0: x0 is not read into the sum, whatever it holds */
    k = snprintf(body, sizeof body, "for (int v = 0; v < %zu; v++) {\n"
                 "    x0[v] = (a0 == 0 ? 0 : a0*x0[v])", nv);
    for (int i = 1; i <= c->n; i++)
        k += snprintf(body + k, sizeof body - (size_t)k, " + a%d*x%d[v]", i,
                      i);
    k += snprintf(body + k, sizeof body - (size_t)k, ";\n");
    if (pair) { /* the same sum as a lone combination with a0 = 0 */
        k += snprintf(body + k, sizeof body - (size_t)k, "    y0[v] = 0");
        for (int i = 1; i <= c->n; i++)
            k += snprintf(body + k, sizeof body - (size_t)k,
                          " + b%d*x%d[v]", i, i);
        k += snprintf(body + k, sizeof body - (size_t)k, ";\n");
    }
    snprintf(body + k, sizeof body - (size_t)k, "}");
    int rc = frx__core_kernel(s, name, args, body, 2);
    if (rc)
        return rc;
    frx_arg a[2 + 3 * MAX_IN + 1];
    size_t na = 0;
    a[na++] = frx_arg_matrix(s->reg[c->out][b]);
    if (pair)
        a[na++] = frx_arg_matrix(s->reg[c->out2][b]);
    for (int i = 0; i < c->n; i++)
        a[na++] = frx_arg_matrix(s->reg[c->in[i]][b]);
    for (int i = 0; i <= c->n + (pair ? c->n : 0); i++)
        a[na++] = frx_arg_unset();
    const frx_solver_block *blk = &s->blocks[b];
    const char *old = frx__kernel_ns_set(s->be, "frx");
    rc = frx_kernel_create(s->be, name, blk->nupts, blk->neles, a, na, out);
    frx__kernel_ns_set(s->be, old);
    return rc;
}

static struct combo *find(struct frx__lincomb *lc, int out, int out2,
                          int n, const int *in)
{
    for (size_t i = 0; lc && i < lc->n; i++) {
        struct combo *c = &lc->c[i];
        if (c->out == out && c->out2 == out2 && c->n == n &&
            memcmp(c->in, in, (size_t)n * sizeof *in) == 0)
            return c;
    }
    return NULL;
}

/* The set-up pass: make the kernels of a new combination. */
static int prepare(frx_solver *s, int out, int out2, int n, const int *in)
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
    *c = (struct combo){.out = out, .out2 = out2, .n = n};
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

static int run(frx_solver *s, int out, double a, int out2, int n,
               const int *in, const double *c, const double *d)
{
    if (n < 1 || n > MAX_IN)
        return frx_error(FRX_EINVAL, "linear combination of %d registers",
                         n);
    struct combo *cb = find(s->lc, out, out2, n, in);
    if (s->dry)
        return cb ? FRX_OK : prepare(s, out, out2, n, in);
    if (!cb)
        return frx_error(FRX_EINVAL, "time scheme: a combination into "
                         "register %d the set-up pass did not see", out);
    char name[16];
    for (size_t b = 0; b < s->info.nblocks; b++) {
        frx_kernel *k = cb->k[b];
        int rc = frx_kernel_set_scalar(k, "a0", a);
        for (int i = 0; i < n && rc == FRX_OK; i++) {
            snprintf(name, sizeof name, "a%d", i + 1);
            rc = frx_kernel_set_scalar(k, name, c[i]);
        }
        for (int i = 0; d && i < n && rc == FRX_OK; i++) {
            snprintf(name, sizeof name, "b%d", i + 1);
            rc = frx_kernel_set_scalar(k, name, d[i]);
        }
        if (rc == FRX_OK)
            rc = frx_kernel_run(k);
        if (rc)
            return rc;
    }
    return FRX_OK;
}

int frx__lincomb(frx_solver *s, int out, double a, int n, const int *in,
                 const double *c)
{
    return run(s, out, a, -1, n, in, c, NULL);
}

int frx__lincomb_pair(frx_solver *s, int out, double a, const double *c,
                      int out2, const double *d, int n, const int *in)
{
    if (out2 < 0 || out2 == out)
        return frx_error(FRX_EINVAL, "a pair of linear combinations into "
                         "registers %d and %d", out, out2);
    return run(s, out, a, out2, n, in, c, d);
}
