/* SPDX-License-Identifier: BSD-3-Clause */
/* Kernel registry, binding with checks, compile once, launch. */
#include "kernel/kernel-impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct frx__kreg {
    frx__kspec *spec;
    void *prog;        /* its compiled code once made (program_for) */
    size_t prog_nmacros; /* be->nmacros then: the code holds macros */
    struct frx__kreg *next;
};

struct frx__prog {
    char hash[65];
    char key[65];                  /* frx__program_set_key's, or "" */
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
    struct frx__kred *red; /* its reductions' partial results */
    size_t nred;
    int ran;               /* frx_kernel_result needs a run */
    int prof;              /* its profile entry; -1 before the first */
    frx_arg *held;         /* what it is bound to and holds a reference on */
    int refs;              /* its creator, graphs */
};

/* ---------------------------------------------------------- registry */

/* Kernels and macros a solver plugin registers live in its namespace
 * (the core sets it around every call into the plugin): a kernel is
 * registered and found as "<plugin>.<name>", so two plugins may both
 * have a `tflux`, and messages name the plugin. */
const char *frx__kernel_ns_set(frx_backend *be, const char *ns)
{
    const char *old = be->kernel_ns;
    be->kernel_ns = ns;
    return old;
}

/* name as registered in be's current namespace, in buf if qualified. */
static const char *qualified(const frx_backend *be, const char *name,
                             char *buf, size_t n)
{
    if (!be->kernel_ns)
        return name;
    snprintf(buf, n, "%s.%s", be->kernel_ns, name);
    return buf;
}

static struct frx__kreg *find_reg(const frx_backend *be, const char *name)
{
    char buf[512];
    name = qualified(be, name, buf, sizeof buf);
    for (struct frx__kreg *r = be->kernels; r; r = r->next)
        if (strcmp(r->spec->name, name) == 0)
            return r;
    return NULL;
}

static const frx__kspec *find_spec(const frx_backend *be, const char *name)
{
    const struct frx__kreg *r = find_reg(be, name);
    return r ? r->spec : NULL;
}

/* Put s in be's current namespace. */
static int set_namespace(const frx_backend *be, frx__kspec *s)
{
    if (!be->kernel_ns)
        return FRX_OK;
    char buf[512];
    char *name = frx__strdup(qualified(be, s->name, buf, sizeof buf));
    char *ns = frx__strdup(be->kernel_ns);
    if (!name || !ns) {
        free(name), free(ns);
        return FRX_ENOMEM;
    }
    free(s->name);
    s->name = name;
    s->ns = ns;
    return FRX_OK;
}

static int same_ns(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

int frx_kernel_register(frx_backend *be, const frx_kernel_decl *d)
{
    if (!be || !d)
        return frx_error(FRX_EINVAL, "frx_kernel_register: NULL argument");
    frx__kspec *s;
    int rc = frx__kspec_parse(d, &s);
    if (rc == FRX_OK && (rc = set_namespace(be, s)))
        frx__kspec_free(s);
    if (rc)
        return rc;
    const frx__kspec *old = find_spec(be, d->name);
    if (old) {
        int same = frx__kspec_same(old, s);
        if (!same)
            frx_error(FRX_EINVAL, "kernel '%s' is already registered with "
                      "another declaration: give this one another name",
                      s->name);
        frx__kspec_free(s);
        return same ? FRX_OK : FRX_EINVAL;
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
        if (strcmp(be->macros[i].name, m->name) == 0 &&
            same_ns(be->macro_ns[i], be->kernel_ns)) {
            /* the same macro again (a second solver of one plugin) */
            if (!strcmp(be->macros[i].params, m->params ? m->params : "") &&
                !strcmp(be->macros[i].body, m->body))
                return FRX_OK;
            return frx_error(FRX_EINVAL, "macro '%s' is already registered%s"
                             "%s with another body: give this one another "
                             "name", m->name, be->kernel_ns ? " by " : "",
                             be->kernel_ns ? be->kernel_ns : "");
        }
    frx_kernel_macro *v = realloc(be->macros, (be->nmacros + 1) * sizeof *v);
    if (!v)
        return frx_error(FRX_ENOMEM, "out of memory registering a macro");
    be->macros = v;
    char **ns = realloc(be->macro_ns, (be->nmacros + 1) * sizeof *ns);
    if (!ns)
        return frx_error(FRX_ENOMEM, "out of memory registering a macro");
    be->macro_ns = ns;
    frx_kernel_macro *c = &v[be->nmacros];
    c->name = frx__strdup(m->name);
    c->params = frx__strdup(m->params ? m->params : "");
    c->body = frx__strdup(m->body);
    ns[be->nmacros] = be->kernel_ns ? frx__strdup(be->kernel_ns) : NULL;
    if (!c->name || !c->params || !c->body ||
        (be->kernel_ns && !ns[be->nmacros])) {
        free((char *)c->name), free((char *)c->params), free((char *)c->body);
        free(ns[be->nmacros]);
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
        free(be->macro_ns[i]);
    }
    free(be->macros);
    free(be->macro_ns);
    be->macros = NULL;
    be->macro_ns = NULL;
    be->nmacros = 0;
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
frx_arg frx_arg_reduce(void) { return (frx_arg){.kind = FRX_ARG_REDUCE}; }

/* What a matrix, view or xchg argument is, by kind; and their tags. */
static const char *const data_names[] = {[FRX_ARG_MATRIX] = "a matrix",
                                         [FRX_ARG_VIEW] = "a view",
                                         [FRX_ARG_XCHG] = "an xchg matrix"};
static const uint32_t data_tags[] = {[FRX_ARG_MATRIX] = FRX__TAG_MATRIX,
                                     [FRX_ARG_VIEW] = FRX__TAG_VIEW,
                                     [FRX_ARG_XCHG] = FRX__TAG_XCHG};

static const char *given_name(const frx_arg *g)
{
    switch (g->kind) {
    case FRX_ARG_MATRIX:
        return ((frx_matrix *)g->obj)->is_const ? "a const matrix"
                                                : data_names[g->kind];
    case FRX_ARG_VIEW:
    case FRX_ARG_XCHG: return data_names[g->kind];
    case FRX_ARG_SCALAR:
    case FRX_ARG_UNSET: return "a scalar";
    case FRX_ARG_REDUCE: return "a reduction (frx_arg_reduce)";
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
    case FRX_ARG_REDUCE: return FRX__K_REDUCE;
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

/* The allocation a matrix or view argument is bound to, else NULL. */
static const struct frx_alloc *alloc_of(const frx_arg *g)
{
    if (!g->obj)
        return NULL;
    if (g->kind == FRX_ARG_MATRIX)
        return ((const frx_matrix *)g->obj)->alloc;
    if (g->kind == FRX_ARG_VIEW)
        return ((const frx_view *)g->obj)->alloc;
    return NULL;
}

frx_backend *frx__kernel_backend(const frx_kernel *k) { return k->be; }

/* The backend an argument's data lives on (NULL: a scalar, a reduction). */
static const frx_backend *arg_backend(const frx_arg *g)
{
    if (!g->obj)
        return NULL;
    switch (g->kind) {
    case FRX_ARG_MATRIX: return ((const frx_matrix *)g->obj)->be;
    case FRX_ARG_VIEW: return ((const frx_view *)g->obj)->be;
    case FRX_ARG_XCHG: return ((const frx_xchg_matrix *)g->obj)->be;
    default: return NULL;
    }
}

/* An int32_t scalar takes an integer that fits: the code would wrap or
 * cut another silently. */
static int check_int_scalar(const frx__kspec *s, const frx__karg *a,
                            double value)
{
    if (!a->is_int || (value == floor(value) && value >= INT32_MIN &&
                       value <= INT32_MAX))
        return FRX_OK;
    return frx_error(FRX_ERANGE, "kernel '%s': scalar '%s' is an int32_t "
                     "but was given %.17g: give an integer from %d to %d",
                     s->name, a->name, value, INT32_MIN, INT32_MAX);
}

/* What the object of a matrix, view or xchg argument is by its tag, or
 * NULL where that is its kind. */
static const char *mistagged(const frx_arg *g)
{
    if (!g->obj || g->kind < FRX_ARG_MATRIX || g->kind > FRX_ARG_XCHG)
        return NULL;
    uint32_t tag = *(const uint32_t *)g->obj;
    if (tag == data_tags[g->kind])
        return NULL;
    for (int k = FRX_ARG_MATRIX; k <= FRX_ARG_XCHG; k++)
        if (tag == data_tags[k])
            return data_names[k];
    return "no matrix, view or xchg matrix";
}

static int check_arg(frx_backend *be, const frx__kspec *s,
                     const frx__karg *a, const frx_arg *g, size_t nrows,
                     size_t n)
{
    const char *is = mistagged(g);
    if (is)
        return frx_error(FRX_EINVAL, "kernel '%s': argument '%s' is given "
                         "as %s (frx_arg.kind %d) but its object is %s: make "
                         "it with frx_arg_matrix(), frx_arg_view() or "
                         "frx_arg_xchg()", s->name, a->name,
                         data_names[g->kind], g->kind, is);
    const struct frx_alloc *al = alloc_of(g);
    if (a->intent != FRX__IN && al && al->is_const) {
        char what[200], decl[96];
        snprintf(what, sizeof what, "kernel '%s': argument '%s' (declared "
                 "'%s')", s->name, a->name,
                 frx__karg_decl(a, -1, decl, sizeof decl));
        return frx__refuse_const(al, what);
    }
    int ok_kind;
    switch (a->kind) {
    case FRX__K_MATRIX:
        ok_kind = g->kind == FRX_ARG_MATRIX &&
                  !((frx_matrix *)g->obj)->is_const;
        break;
    case FRX__K_BROADCAST: ok_kind = g->kind == FRX_ARG_MATRIX; break;
    case FRX__K_VIEW: ok_kind = g->kind == FRX_ARG_VIEW; break;
    case FRX__K_XCHG: ok_kind = g->kind == FRX_ARG_XCHG; break;
    case FRX__K_REDUCE: ok_kind = g->kind == FRX_ARG_REDUCE; break;
    default:
        ok_kind = g->kind == FRX_ARG_SCALAR || g->kind == FRX_ARG_UNSET;
    }
    if (!ok_kind || (g->kind != FRX_ARG_SCALAR && g->kind != FRX_ARG_UNSET &&
                     g->kind != FRX_ARG_REDUCE && !g->obj))
        return ok_kind ? frx_error(FRX_EINVAL, "kernel '%s': argument '%s' "
                                   "is NULL", s->name, a->name)
                       : wrong_kind(s, a, g);
    if (g->kind == FRX_ARG_SCALAR && a->kind == FRX__K_SCALAR)
        return check_int_scalar(s, a, g->value);
    /* the generated code reads it in its own backend's precision and
     * layout: data of another backend would be read as the wrong kind */
    const frx_backend *obe = arg_backend(g);
    if (obe && obe != be) {
        char mine[96], theirs[96];
        return frx_error(FRX_EINVAL, "kernel '%s': argument '%s' belongs "
                         "to %s, not to the kernel's %s: make it on the "
                         "kernel's backend, or the kernel on its", s->name,
                         a->name, frx__backend_desc(obe, theirs,
                                                    sizeof theirs),
                         frx__backend_desc(be, mine, sizeof mine));
    }

    if (a->kind == FRX__K_MATRIX) {
        const frx_matrix *m = g->obj;
        if (m->nrow != a->nrow * nrows || m->nvar != a->ncol || m->neles != n)
            return wrong_shape(s, a, "a matrix", m->nrow / nrows, m->nvar,
                               m->neles, n);
    } else if (a->kind == FRX__K_BROADCAST) {
        const frx_matrix *m = g->obj;
        if (m->nvar != 1 || m->nrow != a->nrow || m->neles != a->ncol)
            return wrong_shape(s, a, "a matrix", m->nrow, m->neles, 1, 1);
        /* the code takes its rows to be those of a matrix of its own
         * shape; a slice keeps its parent's */
        size_t ld = frx__const_leaddim(a->ncol, be->info.soasz,
                                       be->info.alignment, be->fpsize);
        if (a->ndims == 2 && a->nrow > 1 && m->leaddim != ld)
            return frx_error(FRX_ESHAPE, "kernel '%s': broadcast argument "
                             "'%s' has rows %zu values apart (a slice of a "
                             "wider matrix?) where the kernel reads them %zu "
                             "apart: pass a matrix of its own, %zu x 1 x %zu",
                             s->name, a->name, m->leaddim, ld, a->nrow,
                             a->ncol);
    } else if (a->kind == FRX__K_VIEW) {
        const frx_view *v = g->obj;
        if (v->nvrow != a->nrow || v->nvcol != a->ncol || v->n != n)
            return wrong_shape(s, a, "a view", v->nvrow, v->nvcol, v->n, n);
        if (a->intent != FRX__IN) {
            char what[200];
            snprintf(what, sizeof what, "kernel '%s': written view argument "
                     "'%s'", s->name, a->name);
            return frx__refuse_repeats(v, what);
        }
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
    case FRX__K_MATRIX: return 6;
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
/* Offsets and leading dimensions: 64-bit in the generated code. */
static frx_param i64val(size_t i)
{
    return (frx_param){.type = FRX_PARAM_INT64, .i = (int64_t)i};
}

/* Parameters and accesses of argument a bound to g. A matrix, view or
 * xchg matrix is held (*held, one reference) while the kernel lives: its
 * launch reads their memory, whatever the caller destroyed since. */
static void bind(frx_kernel *k, const frx__karg *a, const frx_arg *g,
                 frx_param *p, frx__access *acc, frx_arg *held)
{
    size_t fs = k->be->fpsize;
    int writes = a->intent != FRX__IN;
    int access = (a->intent != FRX__OUT ? FRX_ACCESS_READ : 0) |
                 (writes ? FRX_ACCESS_WRITE : 0);
    switch (a->kind) {
    case FRX__K_MATRIX:
    case FRX__K_BROADCAST: {
        frx_matrix *m = g->obj;
        p[0] = mem(m->alloc->mem, access);
        p[1] = i64val(m->offset / fs);
        if (a->kind == FRX__K_MATRIX) {
            p[2] = i64val(m->leaddim);
            p[3] = i64val(m->pc); /* its parts (frx.h) */
            p[4] = i64val(m->ps);
            p[5] = i64val(m->c0);
        }
        *acc = (frx__access){.res = m->alloc, .writes = writes, .m = m,
                             .by_item = a->kind == FRX__K_MATRIX};
        frx__matrix_range(m, &acc->lo, &acc->hi);
        m->refs++;
        *held = *g;
        break;
    }
    case FRX__K_VIEW: {
        frx_view *v = g->obj;
        p[0] = mem(v->alloc->mem, access);
        p[1] = mem(v->off_mem, FRX_ACCESS_READ);
        p[2] = mem(v->rstride_mem, FRX_ACCESS_READ);
        *acc = (frx__access){.res = v->alloc, .writes = writes,
                             .lo = v->lo, .hi = v->hi};
        v->refs++;
        *held = *g;
        break;
    }
    case FRX__K_XCHG: {
        frx_xchg_matrix *x = g->obj;
        p[0] = mem(x->mem, access);
        *acc = (frx__access){.res = x, .writes = writes,
                             .hi = SIZE_MAX};
        x->refs++;
        *held = *g;
        break;
    }
    case FRX__K_REDUCE: { /* g->obj: its partial results (create) */
        const struct frx__kred *r = g->obj;
        p[0] = mem(r->mem, FRX_ACCESS_WRITE);
        *acc = (frx__access){.res = r, .writes = 1, .hi = SIZE_MAX};
        break;
    }
    default:
        *p = a->is_int ? ival((int64_t)g->value)
                       : (frx_param){.type = FRX_PARAM_FP, .d = g->value};
        *acc = (frx__access){.res = NULL};
    }
}

/* ---------------------------------------------------------- overlaps */

/* The elements of its allocation an argument touches: rows of a matrix
 * (nrow runs ld apart in each piece), a view's points, or a whole xchg
 * matrix. */
struct footprint {
    const void *res;         /* allocation or xchg matrix; NULL: none */
    size_t lo, hi;           /* span, [lo, hi) */
    const frx_matrix *m;     /* matrices: nrow rows, ld apart, a piece */
    size_t nrow, ld;         /* of them a part (frx__matrix_piece) */
    const frx_view *v;       /* views */
};

static struct footprint footprint_of(const frx_arg *g)
{
    struct footprint f = {0};
    if (g->kind == FRX_ARG_XCHG && g->obj) {
        f.res = g->obj;
        f.hi = SIZE_MAX;
    } else if (g->kind == FRX_ARG_MATRIX && g->obj) {
        const frx_matrix *m = g->obj;
        f = (struct footprint){.res = m->alloc, .m = m, .nrow = m->nrow,
                               .ld = m->leaddim};
        frx__matrix_range(m, &f.lo, &f.hi);
    } else if (g->kind == FRX_ARG_VIEW && g->obj) {
        const frx_view *v = g->obj;
        f = (struct footprint){.res = v->alloc, .v = v, .lo = v->lo,
                               .hi = v->hi};
    }
    return f;
}

static int in_matrix(const struct footprint *m, size_t e)
{
    size_t base, w;
    for (size_t k = 0; frx__matrix_piece(m->m, k, &base, &w); k++)
        if (e >= base && (e - base) / m->ld < m->nrow &&
            (e - base) % m->ld < w)
            return 1;
    return 0;
}

/* Rows ld apart, nrow of a from abase (aw wide) and of b: is some row of
 * a on some row of b? Row i of a meets row j of b iff -bw < (bbase -
 * abase) + (j-i)*ld < aw: only k = j - i near (abase - bbase)/ld can. */
static int pieces_meet(size_t ld, size_t anrow, size_t abase, size_t aw,
                       size_t bnrow, size_t bbase, size_t bw, size_t *at)
{
    long long l = (long long)ld, d = (long long)bbase - (long long)abase;
    long long k0 = -d / l;
    for (long long k = k0 - 1; k <= k0 + 1; k++) {
        long long x = d + k * l;
        if (k <= -(long long)anrow || k >= (long long)bnrow ||
            x <= -(long long)bw || x >= (long long)aw)
            continue;
        long long i = k < 0 ? -k : 0; /* the first row pair at distance k */
        *at = (size_t)((long long)abase + i * l + (x > 0 ? x : 0));
        return 1;
    }
    return 0;
}

/* Do two matrices' rows meet? Each is a piece of rows for every part it
 * touches (frx__matrix_piece). */
static int rows_meet(const struct footprint *a, const struct footprint *b,
                     size_t *at)
{
    if (a->ld != b->ld) { /* not slices of one matrix: spans decide */
        *at = a->lo > b->lo ? a->lo : b->lo;
        return 1;
    }
    size_t ab, aw, bb, bw;
    for (size_t i = 0; frx__matrix_piece(a->m, i, &ab, &aw); i++)
        for (size_t j = 0; frx__matrix_piece(b->m, j, &bb, &bw); j++)
            if (pieces_meet(a->ld, a->nrow, ab, aw, b->nrow, bb, bw, at))
                return 1;
    return 0;
}

/* Do the sorted lists e and f share an element? */
static int sorted_meet(const size_t *e, size_t ne, const size_t *f,
                       size_t nf, size_t *at)
{
    for (size_t i = 0, j = 0; i < ne && j < nf;)
        if (e[i] == f[j])
            return *at = e[i], 1;
        else if (e[i] < f[j])
            i++;
        else
            j++;
    return 0;
}

/* Do the elements e and f share one within [lo, hi)? A bit for each
 * element of the span: linear, where sorting a face set's millions of
 * points took seconds at set-up. */
static int bitmap_meet(const size_t *e, size_t ne, const size_t *f,
                       size_t nf, size_t lo, size_t hi, uint64_t *bits,
                       size_t *at)
{
    memset(bits, 0, ((hi - lo + 63) / 64) * sizeof *bits);
    for (size_t i = 0; i < ne; i++)
        if (e[i] >= lo && e[i] < hi)
            bits[(e[i] - lo) / 64] |= (uint64_t)1 << ((e[i] - lo) % 64);
    for (size_t j = 0; j < nf; j++)
        if (f[j] >= lo && f[j] < hi &&
            bits[(f[j] - lo) / 64] >> ((f[j] - lo) % 64) & 1)
            return *at = f[j], 1;
    return 0;
}

/* Does a view share an element with a matrix or another view? */
static int view_meets(const struct footprint *v, const struct footprint *o,
                      size_t *at)
{
    size_t nv = v->v->n * v->v->nvrow * v->v->nvcol;
    size_t no = o->v ? o->v->n * o->v->nvrow * o->v->nvcol : 0;
    size_t *e = malloc((nv + no) * sizeof *e);
    if (!e) { /* cannot tell: the spans meet, so say so */
        *at = v->lo > o->lo ? v->lo : o->lo;
        return 1;
    }
    frx__view_elements(v->v, e);
    int meet = 0;
    if (!o->v) {
        for (size_t i = 0; i < nv && !meet; i++)
            if (in_matrix(o, e[i]))
                meet = 1, *at = e[i];
        free(e);
        return meet;
    }
    size_t *f = e + nv;
    frx__view_elements(o->v, f);
    /* only the spans' common part can hold an element of both */
    size_t lo = v->lo > o->lo ? v->lo : o->lo;
    size_t hi = v->hi < o->hi ? v->hi : o->hi;
    uint64_t *bits = hi - lo <= 64 * (nv + no)
                         ? malloc((hi - lo + 63) / 64 * sizeof *bits)
                         : NULL;
    if (bits) {
        meet = bitmap_meet(e, nv, f, no, lo, hi, bits, at);
    } else { /* a sparse span (or no memory for bits): sort */
        qsort(e, nv, sizeof *e, frx__cmp_size);
        qsort(f, no, sizeof *f, frx__cmp_size);
        meet = sorted_meet(e, nv, f, no, at);
    }
    free(bits);
    free(e);
    return meet;
}

static int meets(const struct footprint *a, const struct footprint *b,
                 size_t *at)
{
    if (!a->res || a->res != b->res || a->lo >= b->hi || b->lo >= a->hi)
        return 0;
    *at = 0;
    if (a->v)
        return view_meets(a, b, at);
    if (b->v)
        return view_meets(b, a, at);
    if (a->m && b->m)
        return rows_meet(a, b, at);
    return 1; /* xchg matrices: the same one */
}

int frx__matrices_meet(const frx_matrix *a, const frx_matrix *b, size_t *at)
{
    frx_arg x = frx_arg_matrix((frx_matrix *)a);
    frx_arg y = frx_arg_matrix((frx_matrix *)b);
    struct footprint fa = footprint_of(&x);
    struct footprint fb = footprint_of(&y);
    return meets(&fa, &fb, at);
}

/* A written argument may not share memory with any other: each point
 * loads its inputs and stores its outputs, and the buffers are restrict,
 * so an overlap gives results that differ by backend. */
static int check_overlaps(const frx__kspec *s, const frx_arg *args)
{
    for (size_t i = 0; i < s->nargs; i++) {
        struct footprint fi = footprint_of(&args[i]);
        for (size_t j = i + 1; fi.res && j < s->nargs; j++) {
            const frx__karg *a = &s->args[i], *b = &s->args[j];
            if (a->intent == FRX__IN && b->intent == FRX__IN)
                continue;
            struct footprint fj = footprint_of(&args[j]);
            size_t at;
            if (!meets(&fi, &fj, &at))
                continue;
            char da[96], db[96], where[96];
            if (fi.m || fi.v)
                snprintf(where, sizeof where, "element %zu of their "
                         "allocation is in both", at);
            else
                snprintf(where, sizeof where, "the same xchg matrix");
            return frx_error(FRX_EINVAL,
                             "kernel '%s': arguments '%s' ('%s') and '%s' "
                             "('%s') share memory (%s) and one of them is "
                             "written: bind separate storage, since what a "
                             "point reads would depend on the order the "
                             "backend runs points in", s->name, a->name,
                             frx__karg_decl(a, -1, da, sizeof da), b->name,
                             frx__karg_decl(b, -1, db, sizeof db), where);
        }
    }
    return FRX_OK;
}

/* Can the backend's code address this iteration space? Counts are
 * 32-bit ints in the generated code (offsets are 64-bit); CUDA and HIP
 * run one row of blocks per kernel row, and a grid has at most 65535
 * blocks in y. */
#define GPU_GRID_Y_MAX 65535

static int check_space(const frx_backend *be, const char *name,
                       size_t nrows, size_t n)
{
    const frx_plugin_desc *d = frx_plugin_descriptor(be->plugin);
    if (d && d->abi_minor < 3)
        return frx_error(FRX_EPLUGIN, "backend '%s': its plugin %s was "
                         "built for plugin ABI %u.%u, whose kernel launches "
                         "lack 64-bit offsets (ABI 1.3): rebuild it against "
                         "this frx", be->name, frx_plugin_path(be->plugin),
                         (unsigned)d->abi_major, (unsigned)d->abi_minor);
    if (!n || !nrows || n > INT32_MAX || nrows > INT32_MAX)
        return frx_error(FRX_ERANGE, "kernel '%s': %zu x %zu is not a usable "
                         "iteration space: both must be from 1 to %d", name,
                         nrows, n, INT32_MAX);
    int target = be->ops->target;
    if ((target == FRX_TARGET_CUDA || target == FRX_TARGET_HIP) &&
        nrows > GPU_GRID_Y_MAX)
        return frx_error(FRX_ERANGE, "kernel '%s': %zu rows is more than "
                         "the %d blocks a %s grid has in y (one block row "
                         "per kernel row): bind it over at most %d rows",
                         name, nrows, GPU_GRID_Y_MAX,
                         target == FRX_TARGET_CUDA ? "CUDA" : "HIP",
                         GPU_GRID_Y_MAX);
    return FRX_OK;
}

void *frx__program_find_key(frx_backend *be, const char key[65])
{
    for (struct frx__prog *p = be->progs; p; p = p->next)
        if (strcmp(p->key, key) == 0) {
            be->stats.reuses++;
            return p->prog;
        }
    return NULL;
}

void frx__program_set_key(frx_backend *be, void *prog, const char key[65])
{
    for (struct frx__prog *p = be->progs; p; p = p->next)
        if (p->prog == prog) {
            memcpy(p->key, key, sizeof p->key);
            return;
        }
}

/* Compile (or reuse) src on be: programs are kept by the hash of their
 * source. local_size: the work-group size the code needs, 0 for any
 * (frx_kernel_src.local_size). */
int frx__program(frx_backend *be, const char *name, const char *src,
                 const char *entry, int ndim, size_t local_size,
                 void **prog)
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
                         .source = src, .ndim = ndim,
                         .local_size = local_size};
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

/* Compile (or reuse) the code of r's kernel on be, and remember it on
 * r: generating the source and hashing it to find the program again
 * costs 0.1 ms a kernel, which extensions that bind their kernels in a
 * run's first hooks paid inside the time loop. The source holds the
 * namespace's macros, so a macro added since means generating again. */
static int program_for(frx_backend *be, struct frx__kreg *r, void **prog)
{
    if (r->prog && r->prog_nmacros == be->nmacros) {
        be->stats.reuses++;
        *prog = r->prog;
        return FRX_OK;
    }
    const frx__kspec *s = r->spec;
    frx_codegen cg = {.target = be->ops->target, .precision = be->precision,
                      .soasz = be->info.soasz,
                      .alignment = be->info.alignment};
    char *src, *entry;
    /* the macros of the kernel's own namespace */
    frx_kernel_macro *ms = frx__calloc(be->nmacros, sizeof *ms, "macros");
    size_t nms = 0;
    for (size_t i = 0; ms && i < be->nmacros; i++)
        if (same_ns(be->macro_ns[i], s->ns))
            ms[nms++] = be->macros[i];
    int rc = ms ? frx__kgen(s, ms, nms, &cg, &src, &entry) : FRX_ENOMEM;
    free(ms);
    if (rc)
        return rc;
    size_t local = frx__kspec_has_reduce(s) && cg.target != FRX_TARGET_C_OPENMP
                       ? FRX__RED_WG : 0;
    rc = frx__program(be, s->name, src, entry, s->ndim, local, prog);
    free(src), free(entry);
    if (rc == FRX_OK) {
        r->prog = *prog;
        r->prog_nmacros = be->nmacros;
    }
    return rc;
}

int frx__kernels_load(frx_backend *be, const char *ns)
{
    if (!FRX__OPS_HAS(be->ops, kernel_compile))
        return FRX_OK; /* frx_kernel_create says why */
    for (struct frx__kreg *r = be->kernels; r; r = r->next) {
        void *prog;
        int rc = same_ns(r->spec->ns, ns) ? program_for(be, r, &prog)
                                          : FRX_OK;
        if (rc)
            return rc;
    }
    return FRX_OK;
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
    struct frx__kreg *reg = find_reg(be, name);
    const frx__kspec *s = reg ? reg->spec : NULL;
    char qbuf[512];
    if (!s)
        return frx_error(FRX_ENOTFOUND, "kernel '%s' is not registered: "
                         "register it with frx_kernel_register first%s%s%s",
                         qualified(be, name, qbuf, sizeof qbuf),
                         be->kernel_ns ? " (in a solver's calls, its own "
                         "kernels are found: those of namespace '" : "",
                         be->kernel_ns ? be->kernel_ns : "",
                         be->kernel_ns ? "')" : "");
    name = s->name;
    if (nargs != s->nargs)
        return frx_error(FRX_EINVAL, "kernel '%s' takes %zu arguments but "
                         "was given %zu", name, s->nargs, nargs);
    if (s->ndim == 1 && nrows != 1)
        return frx_error(FRX_EINVAL, "kernel '%s' has ndim 1: nrows must be "
                         "1, not %zu", name, nrows);
    int rc0 = check_space(be, name, nrows, n);
    if (rc0)
        return rc0;
    for (size_t i = 0; i < nargs; i++) {
        int rc = check_arg(be, s, &s->args[i], &args[i], nrows, n);
        if (rc)
            return rc;
    }
    rc0 = check_overlaps(s, args);
    if (rc0)
        return rc0;

    frx_kernel *k = frx__calloc(1, sizeof *k, "a kernel");
    if (!k)
        return FRX_ENOMEM;
    *k = (frx_kernel){.be = be, .spec = s, .nrows = nrows, .n = n, .prof = -1,
                      .nacc = nargs, .refs = 1};
    k->nparams = 2;
    for (size_t i = 0; i < nargs; i++)
        k->nparams += nparams_of(&s->args[i]);
    k->params = frx__calloc(k->nparams, sizeof *k->params, "kernel params");
    k->param_of = frx__calloc(nargs, sizeof *k->param_of, "kernel params");
    k->unset = frx__calloc(nargs, 1, "kernel params");
    k->acc = frx__calloc(nargs, sizeof *k->acc, "kernel accesses");
    k->held = frx__calloc(nargs, sizeof *k->held, "kernel arguments");
    int rc = k->params && k->param_of && k->unset && k->acc && k->held
                 ? FRX_OK : FRX_ENOMEM;
    if (rc == FRX_OK)
        rc = frx__kred_create(be, s, nrows, n, &k->red, &k->nred);
    if (rc == FRX_OK) {
        k->params[0] = ival((int64_t)nrows);
        k->params[1] = ival((int64_t)n);
        size_t at = 2;
        for (size_t i = 0, r = 0; i < nargs; i++) {
            k->param_of[i] = at;
            frx_arg a = args[i];
            if (s->args[i].kind == FRX__K_REDUCE)
                a.obj = &k->red[r++];
            bind(k, &s->args[i], &a, &k->params[at], &k->acc[i],
                 &k->held[i]);
            k->unset[i] = args[i].kind == FRX_ARG_UNSET;
            at += nparams_of(&s->args[i]);
        }
        rc = program_for(be, reg, &k->prog);
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
        int rc = check_int_scalar(k->spec, a, value);
        if (rc)
            return rc;
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

int frx_kernel_run(frx_kernel *k)
{
    if (!k || !k->be->prof)
        return frx__kernel_run(k, 0);
    if (k->prof < 0 &&
        (k->prof = frx__profile_slot(k->be, FRX__PROF_KERNEL,
                                     k->spec->name)) < 0)
        return k->prof;
    double t0 = frx__now(); /* before the run: arguments have no order */
    return frx__profile_time(k->be, k->prof, t0, frx__kernel_run(k, 0));
}

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
    int rc = k->be->ops->kernel_launch(k->be->state, k->prog, &l);
    k->ran |= rc == FRX_OK;
    return rc;
}

int frx_kernel_result(frx_kernel *k, const char *arg, double *values,
                      size_t n)
{
    if (!k || !arg || !values)
        return frx_error(FRX_EINVAL, "frx_kernel_result: NULL argument");
    for (size_t i = 0; i < k->nred; i++) {
        const frx__karg *a = &k->spec->args[k->red[i].arg];
        if (strcmp(a->name, arg) != 0)
            continue;
        if (n != k->red[i].ncomp)
            return frx_error(FRX_ESHAPE, "kernel '%s': reduction '%s' has "
                             "%zu values, not %zu", k->spec->name, arg,
                             k->red[i].ncomp, n);
        if (!k->ran)
            return frx_error(FRX_EINVAL, "kernel '%s': reduction '%s' has "
                             "no result before the kernel has run",
                             k->spec->name, arg);
        return frx__kred_fold(k->be, &k->red[i], a->op, values);
    }
    return frx_error(FRX_ENOTFOUND, "kernel '%s' has no reduction '%s'%s",
                     k->spec->name, arg, k->nred ? "" : " (it has none: "
                     "declare one 'out reduce(max|min|sum) ...')");
}

/* Drops one reference (the creator's or a graph's); the last one frees
 * it and drops those it holds on what it is bound to. */
void frx_kernel_destroy(frx_kernel *k)
{
    if (!k || --k->refs > 0)
        return;
    for (size_t i = 0; k->held && i < k->nacc; i++) {
        frx_arg *h = &k->held[i];
        if (h->kind == FRX_ARG_MATRIX)
            frx_matrix_destroy(h->obj);
        else if (h->kind == FRX_ARG_VIEW)
            frx_view_destroy(h->obj);
        else if (h->kind == FRX_ARG_XCHG)
            frx_xchg_matrix_destroy(h->obj);
    }
    free(k->held);
    frx__kred_free(k->be, k->red, k->nred);
    free(k->params);
    free(k->param_of);
    free(k->unset);
    free(k->acc);
    free(k);
}

const char *frx__kernel_name(const frx_kernel *k) { return k->spec->name; }

void frx__kernel_hold(frx_kernel *k) { k->refs++; }

size_t frx__kernel_accesses(const frx_kernel *k, const frx__access **out)
{
    *out = k->acc;
    return k->nacc;
}
