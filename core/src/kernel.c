/* Kernel registry, binding with checks, compile once, launch. */
#include "frx-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct frx__kreg {
    frx__kspec *spec;
    struct frx__kreg *next;
};

struct frx__prog {
    char hash[65];
    void *prog;
    struct frx__prog *next;
};

struct frx_kernel {
    frx_backend *be;
    const frx__kspec *spec;
    void *prog;
    size_t nrows, n;
    frx_param *params;
    size_t nparams;
    size_t *param_of;      /* argument -> its first parameter */
    unsigned char *unset;  /* scalars still to be set */
    frx__access *acc;
    size_t nacc;
};

/* ---------------------------------------------------------- registry */

static const frx__kspec *find_spec(const frx_backend *be, const char *name)
{
    for (const struct frx__kreg *r = be->kernels; r; r = r->next)
        if (strcmp(r->spec->name, name) == 0)
            return r->spec;
    return NULL;
}

int frx_kernel_register(frx_backend *be, const frx_kernel_decl *d)
{
    if (!be || !d)
        return frx_error(FRX_EINVAL, "frx_kernel_register: NULL argument");
    frx__kspec *s;
    int rc = frx__kspec_parse(d, &s);
    if (rc)
        return rc;
    const frx__kspec *old = find_spec(be, s->name);
    if (old) {
        int same = strcmp(old->body, s->body) == 0 &&
                   old->nargs == s->nargs && old->ndim == s->ndim &&
                   memcmp(old->args, s->args, s->nargs * sizeof *s->args) == 0;
        frx__kspec_free(s);
        return same ? FRX_OK
                    : frx_error(FRX_EINVAL, "kernel '%s' is already "
                                "registered with another declaration: give "
                                "this one another name", d->name);
    }
    struct frx__kreg *r = frx__calloc(1, sizeof *r, "a kernel registration");
    if (!r) {
        frx__kspec_free(s);
        return FRX_ENOMEM;
    }
    r->spec = s;
    r->next = be->kernels;
    be->kernels = r;
    return FRX_OK;
}

int frx_kernel_register_macro(frx_backend *be, const frx_kernel_macro *m)
{
    if (!be || !m || !m->name || !m->body)
        return frx_error(FRX_EINVAL, "frx_kernel_register_macro: a macro "
                         "needs a name and a body");
    for (size_t i = 0; i < be->nmacros; i++)
        if (strcmp(be->macros[i].name, m->name) == 0)
            return frx_error(FRX_EINVAL, "macro '%s' is already registered",
                             m->name);
    frx_kernel_macro *v = realloc(be->macros, (be->nmacros + 1) * sizeof *v);
    if (!v)
        return frx_error(FRX_ENOMEM, "out of memory registering a macro");
    be->macros = v;
    frx_kernel_macro *c = &v[be->nmacros];
    c->name = frx__strdup(m->name);
    c->params = frx__strdup(m->params ? m->params : "");
    c->body = frx__strdup(m->body);
    if (!c->name || !c->params || !c->body) {
        free((char *)c->name), free((char *)c->params), free((char *)c->body);
        return FRX_ENOMEM;
    }
    be->nmacros++;
    return FRX_OK;
}

void frx__kernels_release(frx_backend *be)
{
    while (be->progs) {
        struct frx__prog *p = be->progs;
        be->progs = p->next;
        if (FRX__OPS_HAS(be->ops, kernel_free))
            be->ops->kernel_free(be->state, p->prog);
        free(p);
    }
    while (be->kernels) {
        struct frx__kreg *r = be->kernels;
        be->kernels = r->next;
        frx__kspec_free(r->spec);
        free(r);
    }
    for (size_t i = 0; i < be->nmacros; i++) {
        free((char *)be->macros[i].name);
        free((char *)be->macros[i].params);
        free((char *)be->macros[i].body);
    }
    free(be->macros);
    be->macros = NULL;
    be->nmacros = 0;
}

void frx_backend_get_stats(const frx_backend *be, frx_backend_stats *out)
{
    *out = be->stats;
    out->events = FRX__OPS_HAS(be->ops, events_made)
                      ? be->ops->events_made(be->state) : 0;
}

/* ----------------------------------------------------------- binding */

frx_arg frx_arg_matrix(frx_matrix *m)
{
    return (frx_arg){.kind = FRX_ARG_MATRIX, .obj = m};
}
frx_arg frx_arg_view(frx_view *v)
{
    return (frx_arg){.kind = FRX_ARG_VIEW, .obj = v};
}
frx_arg frx_arg_xchg(frx_xchg_matrix *xm)
{
    return (frx_arg){.kind = FRX_ARG_XCHG, .obj = xm};
}
frx_arg frx_arg_scalar(double value)
{
    return (frx_arg){.kind = FRX_ARG_SCALAR, .value = value};
}
frx_arg frx_arg_unset(void) { return (frx_arg){.kind = FRX_ARG_UNSET}; }

static const char *given_name(const frx_arg *g)
{
    switch (g->kind) {
    case FRX_ARG_MATRIX:
        return ((frx_matrix *)g->obj)->is_const ? "a const matrix"
                                                : "a matrix";
    case FRX_ARG_VIEW: return "a view";
    case FRX_ARG_XCHG: return "an xchg matrix";
    case FRX_ARG_SCALAR:
    case FRX_ARG_UNSET: return "a scalar";
    default: return "something unknown";
    }
}

/* The kind a declaration would need for what was given. */
static int kind_for(const frx_arg *g, const frx__karg *a)
{
    switch (g->kind) {
    case FRX_ARG_MATRIX:
        return a->kind == FRX__K_BROADCAST || ((frx_matrix *)g->obj)->is_const
                   ? FRX__K_BROADCAST : FRX__K_MATRIX;
    case FRX_ARG_VIEW: return FRX__K_VIEW;
    case FRX_ARG_XCHG: return FRX__K_XCHG;
    default: return FRX__K_SCALAR;
    }
}

static int wrong_kind(const frx__kspec *s, const frx__karg *a,
                      const frx_arg *g)
{
    char want[96], fix[96];
    frx__karg shown = *a;
    int k = kind_for(g, a);
    if (k == FRX__K_SCALAR)
        shown.ndims = 0;
    return frx_error(FRX_ESHAPE,
                     "kernel '%s': argument '%s' is declared '%s' but was "
                     "given %s; declare it '%s'", s->name, a->name,
                     frx__karg_decl(a, -1, want, sizeof want), given_name(g),
                     frx__karg_decl(&shown, k, fix, sizeof fix));
}

static int wrong_shape(const frx__kspec *s, const frx__karg *a,
                       const char *what, size_t r, size_t c, size_t n,
                       size_t want_n)
{
    char decl[96];
    return frx_error(FRX_ESHAPE,
                     "kernel '%s': argument '%s' is declared '%s' (%zu x %zu "
                     "per point over %zu points) but was given %s of %zu x "
                     "%zu over %zu", s->name, a->name,
                     frx__karg_decl(a, -1, decl, sizeof decl), a->nrow,
                     a->ncol, want_n, what, r, c, n);
}

static int check_arg(const frx__kspec *s, const frx__karg *a,
                     const frx_arg *g, size_t nrows, size_t n)
{
    int ok_kind;
    switch (a->kind) {
    case FRX__K_MATRIX:
        ok_kind = g->kind == FRX_ARG_MATRIX &&
                  !((frx_matrix *)g->obj)->is_const;
        break;
    case FRX__K_BROADCAST: ok_kind = g->kind == FRX_ARG_MATRIX; break;
    case FRX__K_VIEW: ok_kind = g->kind == FRX_ARG_VIEW; break;
    case FRX__K_XCHG: ok_kind = g->kind == FRX_ARG_XCHG; break;
    default:
        ok_kind = g->kind == FRX_ARG_SCALAR || g->kind == FRX_ARG_UNSET;
    }
    if (!ok_kind || (g->kind != FRX_ARG_SCALAR && g->kind != FRX_ARG_UNSET &&
                     !g->obj))
        return ok_kind ? frx_error(FRX_EINVAL, "kernel '%s': argument '%s' "
                                   "is NULL", s->name, a->name)
                       : wrong_kind(s, a, g);

    if (a->kind == FRX__K_MATRIX) {
        const frx_matrix *m = g->obj;
        if (m->nrow != a->nrow * nrows || m->nvar != a->ncol || m->neles != n)
            return wrong_shape(s, a, "a matrix", m->nrow / nrows, m->nvar,
                               m->neles, n);
    } else if (a->kind == FRX__K_BROADCAST) {
        const frx_matrix *m = g->obj;
        if (m->nvar != 1 || m->nrow != a->nrow || m->neles != a->ncol)
            return wrong_shape(s, a, "a matrix", m->nrow, m->neles, 1, 1);
    } else if (a->kind == FRX__K_VIEW) {
        const frx_view *v = g->obj;
        if (v->nvrow != a->nrow || v->nvcol != a->ncol || v->n != n)
            return wrong_shape(s, a, "a view", v->nvrow, v->nvcol, v->n, n);
    } else if (a->kind == FRX__K_XCHG) {
        const frx_xchg_matrix *x = g->obj;
        if (x->nvrow != a->nrow || x->nvcol != a->ncol || x->n != n)
            return wrong_shape(s, a, "an xchg matrix", x->nvrow, x->nvcol,
                               x->n, n);
    }
    return FRX_OK;
}

static size_t nparams_of(const frx__karg *a)
{
    switch (a->kind) {
    case FRX__K_MATRIX:
    case FRX__K_VIEW: return 3;
    case FRX__K_BROADCAST: return 2;
    default: return 1;
    }
}

static frx_param mem(void *m, int access)
{
    return (frx_param){.type = FRX_PARAM_MEM, .mem = m, .access = access};
}
static frx_param ival(int64_t i) { return (frx_param){.type = FRX_PARAM_INT, .i = i}; }

/* Parameters and accesses of argument a bound to g. */
static void bind(frx_kernel *k, const frx__karg *a, const frx_arg *g,
                 frx_param *p, frx__access *acc)
{
    size_t fs = k->be->fpsize;
    int writes = a->intent != FRX__IN;
    int access = (a->intent != FRX__OUT ? FRX_ACCESS_READ : 0) |
                 (writes ? FRX_ACCESS_WRITE : 0);
    switch (a->kind) {
    case FRX__K_MATRIX:
    case FRX__K_BROADCAST: {
        const frx_matrix *m = g->obj;
        p[0] = mem(m->alloc->mem, access);
        p[1] = ival((int64_t)(m->offset / fs));
        if (a->kind == FRX__K_MATRIX)
            p[2] = ival((int64_t)m->leaddim);
        *acc = (frx__access){m->alloc, writes, 0, 0};
        frx__matrix_range(m, &acc->lo, &acc->hi);
        break;
    }
    case FRX__K_VIEW: {
        const frx_view *v = g->obj;
        p[0] = mem(v->alloc->mem, access);
        p[1] = mem(v->off_mem, FRX_ACCESS_READ);
        p[2] = mem(v->rstride_mem, FRX_ACCESS_READ);
        *acc = (frx__access){v->alloc, writes, v->lo, v->hi};
        break;
    }
    case FRX__K_XCHG: {
        const frx_xchg_matrix *x = g->obj;
        p[0] = mem(x->mem, access);
        *acc = (frx__access){x, writes, 0, SIZE_MAX};
        break;
    }
    default:
        *p = a->is_int ? ival((int64_t)g->value)
                       : (frx_param){.type = FRX_PARAM_FP, .d = g->value};
        *acc = (frx__access){NULL, 0, 0, 0};
    }
}

int frx__program(frx_backend *be, const char *name, const char *src,
                 const char *entry, int ndim, void **prog)
{
    char hash[65];
    frx_sha256_hex(src, strlen(src), hash);
    for (struct frx__prog *p = be->progs; p; p = p->next)
        if (strcmp(p->hash, hash) == 0) {
            be->stats.reuses++;
            *prog = p->prog;
            return FRX_OK;
        }
    struct frx__prog *p = frx__calloc(1, sizeof *p, "a program record");
    int compiled = 0;
    frx_kernel_src ks = {.size = sizeof ks, .name = name, .entry = entry,
                         .source = src, .ndim = ndim};
    int rc = p ? be->ops->kernel_compile(be->state, &ks, &p->prog, &compiled)
               : FRX_ENOMEM;
    if (rc) {
        free(p);
        return rc;
    }
    if (compiled)
        be->stats.compiles++;
    else
        be->stats.cache_loads++;
    memcpy(p->hash, hash, sizeof hash);
    p->next = be->progs;
    be->progs = p;
    *prog = p->prog;
    return FRX_OK;
}

/* Compile (or reuse) the code of spec on be. */
static int program_for(frx_backend *be, const frx__kspec *s, void **prog)
{
    frx_codegen cg = {.target = be->ops->target, .precision = be->precision,
                      .soasz = be->info.soasz,
                      .alignment = be->info.alignment};
    char *src, *entry;
    int rc = frx__kgen(s, be->macros, be->nmacros, &cg, &src, &entry);
    if (rc)
        return rc;
    rc = frx__program(be, s->name, src, entry, s->ndim, prog);
    free(src), free(entry);
    return rc;
}

int frx_kernel_create(frx_backend *be, const char *name, size_t nrows,
                      size_t n, const frx_arg *args, size_t nargs,
                      frx_kernel **out)
{
    if (!be || !name || (nargs && !args) || !out)
        return frx_error(FRX_EINVAL, "frx_kernel_create: NULL argument");
    if (!FRX__OPS_HAS(be->ops, kernel_compile) ||
        !FRX__OPS_HAS(be->ops, kernel_launch))
        return frx_error(FRX_ENOTSUP, "backend '%s' cannot run kernels: "
                         "its plugin predates plugin ABI 1.1; rebuild it",
                         be->name);
    const frx__kspec *s = find_spec(be, name);
    if (!s)
        return frx_error(FRX_ENOTFOUND, "kernel '%s' is not registered: "
                         "register it with frx_kernel_register first", name);
    if (nargs != s->nargs)
        return frx_error(FRX_EINVAL, "kernel '%s' takes %zu arguments but "
                         "was given %zu", name, s->nargs, nargs);
    if (s->ndim == 1 && nrows != 1)
        return frx_error(FRX_EINVAL, "kernel '%s' has ndim 1: nrows must be "
                         "1, not %zu", name, nrows);
    if (!n || !nrows || n > INT32_MAX || nrows > INT32_MAX)
        return frx_error(FRX_ERANGE, "kernel '%s': %zu x %zu is not a usable "
                         "iteration space", name, nrows, n);
    for (size_t i = 0; i < nargs; i++) {
        int rc = check_arg(s, &s->args[i], &args[i], nrows, n);
        if (rc)
            return rc;
    }

    frx_kernel *k = frx__calloc(1, sizeof *k, "a kernel");
    if (!k)
        return FRX_ENOMEM;
    *k = (frx_kernel){.be = be, .spec = s, .nrows = nrows, .n = n,
                      .nacc = nargs};
    k->nparams = 2;
    for (size_t i = 0; i < nargs; i++)
        k->nparams += nparams_of(&s->args[i]);
    k->params = frx__calloc(k->nparams, sizeof *k->params, "kernel params");
    k->param_of = frx__calloc(nargs, sizeof *k->param_of, "kernel params");
    k->unset = frx__calloc(nargs, 1, "kernel params");
    k->acc = frx__calloc(nargs, sizeof *k->acc, "kernel accesses");
    int rc = k->params && k->param_of && k->unset && k->acc ? FRX_OK
                                                             : FRX_ENOMEM;
    if (rc == FRX_OK) {
        k->params[0] = ival((int64_t)nrows);
        k->params[1] = ival((int64_t)n);
        size_t at = 2;
        for (size_t i = 0; i < nargs; i++) {
            k->param_of[i] = at;
            bind(k, &s->args[i], &args[i], &k->params[at], &k->acc[i]);
            k->unset[i] = args[i].kind == FRX_ARG_UNSET;
            at += nparams_of(&s->args[i]);
        }
        rc = program_for(be, s, &k->prog);
    }
    if (rc) {
        frx_kernel_destroy(k);
        return rc;
    }
    *out = k;
    return FRX_OK;
}

int frx_kernel_set_scalar(frx_kernel *k, const char *arg, double value)
{
    for (size_t i = 0; k && arg && i < k->spec->nargs; i++) {
        const frx__karg *a = &k->spec->args[i];
        if (strcmp(a->name, arg) != 0)
            continue;
        if (a->kind != FRX__K_SCALAR)
            return frx_error(FRX_EINVAL, "kernel '%s': argument '%s' is not "
                             "a scalar", k->spec->name, arg);
        frx_param *p = &k->params[k->param_of[i]];
        if (a->is_int)
            p->i = (int64_t)value;
        else
            p->d = value;
        k->unset[i] = 0;
        return FRX_OK;
    }
    return frx_error(FRX_ENOTFOUND, "kernel '%s' has no argument '%s'",
                     k ? k->spec->name : "?", arg ? arg : "(null)");
}

int frx_kernel_run(frx_kernel *k) { return frx__kernel_run(k, 0); }

int frx__kernel_run(frx_kernel *k, uint32_t flags)
{
    if (!k)
        return frx_error(FRX_EINVAL, "frx_kernel_run: NULL kernel");
    for (size_t i = 0; i < k->spec->nargs; i++)
        if (k->unset[i])
            return frx_error(FRX_EINVAL, "kernel '%s': scalar '%s' was never "
                             "set: call frx_kernel_set_scalar first",
                             k->spec->name, k->spec->args[i].name);
    frx_launch l = {.size = sizeof l, .nrows = k->nrows, .n = k->n,
                    .nparams = k->nparams, .params = k->params,
                    .flags = flags};
    return k->be->ops->kernel_launch(k->be->state, k->prog, &l);
}

void frx_kernel_destroy(frx_kernel *k)
{
    if (!k)
        return;
    free(k->params);
    free(k->param_of);
    free(k->unset);
    free(k->acc);
    free(k);
}

size_t frx__kernel_accesses(const frx_kernel *k, const frx__access **out)
{
    *out = k->acc;
    return k->nacc;
}
