/* SPDX-License-Identifier: BSD-3-Clause */
/* The FR system's pointwise kernels: their declarations, written around
 * the physics' fragments (system.h says what each fragment sees), and
 * registered under names that carry a hash of the declaration, so that
 * cases of other shapes or physics share a backend. */
#include "system-internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing string; a failed allocation shows as NULL at the end. */
struct str {
    char *s;
    size_t len;
    FILE *f;
};

static int str_open(struct str *b)
{
    b->s = NULL;
    b->len = 0;
    b->f = open_memstream(&b->s, &b->len);
    return b->f ? FRX_OK : frx_error(FRX_ENOMEM, "fr: out of memory");
}

static void put(struct str *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void put(struct str *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(b->f, fmt, ap);
    va_end(ap);
}

static char *str_close(struct str *b)
{
    if (fclose(b->f)) {
        free(b->s);
        return NULL;
    }
    return b->s;
}

/* ---------------------------------------------------------- fragments */

static void prelude(struct str *b, const fr_system *s)
{
    put(b, "enum { NVARS = %zu, NDIMS = %d, NAUX = %zu };\n",
        s->phys.nvars, s->ndims, s->phys.naux);
}

static void zeroed(struct str *b, const char *name, const char *dims)
{
    put(b, "fpdtype_t %s[%s];\nfor (int _z = 0; _z < %s; _z++)\n"
           "    %s[_z] = 0;\n", name, dims, dims, name);
}

static void fragment(struct str *b, const char *what, const char *text)
{
    put(b, "{ /* %s */\n%s\n}\n", what, text);
}

static void consts_args(struct str *b, const fr_system *s)
{
    for (size_t i = 0; i < s->phys.nconsts; i++)
        put(b, ", scalar fpdtype_t %s", s->phys.consts[i].name);
}

int fr__bind_consts(const fr_system *s, frx_arg *a)
{
    for (size_t i = 0; i < s->phys.nconsts; i++)
        a[i] = frx_arg_scalar(s->phys.consts[i].value);
    return (int)s->phys.nconsts;
}

/* The common flux of (ul, ur) across unit normal n = nl into fn. */
static void common_flux(struct str *b, const fr_system *s)
{
    put(b, "fpdtype_t n[NDIMS];\nfor (int _d = 0; _d < NDIMS; _d++)\n"
           "    n[_d] = nl[_d];\n");
    zeroed(b, "fn", "NVARS");
    fragment(b, "rsolve", s->phys.rsolve);
}

/* --------------------------------------------------------- the kernels */

/* Register args/body as <base>_<hash> and write that name to out. */
static int reg(fr_system *s, const char *base, int ndim, struct str *args,
               struct str *body, char *out, size_t outlen)
{
    char *a = str_close(args), *t = str_close(body);
    int rc = FRX_OK;
    if (!a || !t) {
        rc = frx_error(FRX_ENOMEM, "fr: out of memory");
        goto done;
    }
    size_t la = strlen(a), lt = strlen(t);
    char *both = malloc(la + lt + 2), hex[65];
    if (!both) {
        rc = frx_error(FRX_ENOMEM, "fr: out of memory");
        goto done;
    }
    memcpy(both, a, la);
    both[la] = '\n';
    memcpy(both + la + 1, t, lt + 1);
    frx_sha256_hex(both, la + lt + 1, hex);
    free(both);
    snprintf(out, outlen, "%s_%.12s", base, hex);
    frx_kernel_decl d = {.name = out, .ndim = ndim, .args = a, .body = t};
    rc = frx_kernel_register(s->be, &d);
    if (rc)
        rc = frx_error(rc, "%s: kernel '%s' (%s): %s", s->phys.name, out,
                       base, frx_errmsg());
done:
    free(a);
    free(t);
    return rc;
}

/* tf = smats . F(u) at every solution point (ndim 2: nupts x neles). */
static int reg_tflux(fr_system *s)
{
    struct str a, b;
    if (str_open(&a) || str_open(&b))
        return FRX_ENOMEM;
    put(&a, "in fpdtype_t[%zu] u, in fpdtype_t[%d] smats, "
            "out fpdtype_t[%d][%zu] tf", s->phys.nvars, s->ndims * s->ndims,
        s->ndims, s->phys.nvars);
    if (s->phys.naux)
        put(&a, ", in fpdtype_t[%zu] a", s->phys.naux);
    consts_args(&a, s);
    prelude(&b, s);
    put(&b, "fpdtype_t f[NDIMS][NVARS];\n"
            "for (int _d = 0; _d < NDIMS; _d++)\n"
            "    for (int _w = 0; _w < NVARS; _w++)\n"
            "        f[_d][_w] = 0;\n");
    fragment(&b, "flux", s->phys.flux);
    put(&b, "for (int _d = 0; _d < NDIMS; _d++)\n"
            "    for (int _w = 0; _w < NVARS; _w++) {\n"
            "        fpdtype_t _s = 0;\n"
            "        for (int _e = 0; _e < NDIMS; _e++)\n"
            "            _s += smats[_d*NDIMS + _e]*f[_e][_w];\n"
            "        tf[_d][_w] = _s;\n"
            "    }\n");
    return reg(s, "tflux", 2, &a, &b, s->kn.tflux, sizeof s->kn.tflux);
}

/* The common flux at a set of faces, scaled by each side's metric
 * magnitude. Interior faces (peer 0) hold both sides' flux points in
 * place (views) and write both; faces shared with a peer rank (1) read
 * the other side as received (xchg) and write ours. */
static int reg_faceflux(fr_system *s, int peer)
{
    struct str a, b;
    if (str_open(&a) || str_open(&b))
        return FRX_ENOMEM;
    put(&a, "inout view fpdtype_t[%zu] ul, %s fpdtype_t[%zu] ur, "
            "in fpdtype_t[%d] nl, in fpdtype_t[%d] mag", s->phys.nvars,
        peer ? "in xchg" : "inout view", s->phys.nvars, s->ndims,
        peer ? 1 : 2);
    if (s->phys.naux)
        put(&a, ", in xchg fpdtype_t[%zu] al, in xchg fpdtype_t[%zu] ar",
            s->phys.naux, s->phys.naux);
    consts_args(&a, s);
    prelude(&b, s);
    common_flux(&b, s);
    if (peer) {
        put(&b, "for (int _w = 0; _w < NVARS; _w++)\n"
                "    ul[_w] = mag[0]*fn[_w];\n");
        return reg(s, "mpiflux", 1, &a, &b, s->kn.mpiflux,
                   sizeof s->kn.mpiflux);
    }
    put(&b, "for (int _w = 0; _w < NVARS; _w++) {\n"
            "    ul[_w] = mag[0]*fn[_w];\n"
            "    ur[_w] = -mag[1]*fn[_w];\n"
            "}\n");
    return reg(s, "intflux", 1, &a, &b, s->kn.intflux, sizeof s->kn.intflux);
}

/* The scalar name of a bc key: bc_<key>, '-' as '_'. */
static void bc_scalar(const char *key, size_t len, char *out, size_t n)
{
    snprintf(out, n, "bc_%.*s", (int)len, key);
    for (char *c = out; *c; c++)
        if (*c == '-')
            *c = '_';
}

/* Boundary bc's faces: its values, a ghost state, then the common
 * flux. A value that is a number is a scalar argument; an expression
 * is computed at each point, from x and t. */
static int reg_bcflux(fr_system *s, const struct fr_bc *bc, char *out)
{
    const fr_bc_kind *k = bc->kind;
    const char *const names[4] = {"x[0]", "x[1]",
                                  s->ndims == 3 ? "x[2]" : NULL, "t"};
    struct str a, b;
    if (str_open(&a) || str_open(&b))
        return FRX_ENOMEM;
    put(&a, "inout view fpdtype_t[%zu] ul, in fpdtype_t[%d] nl, "
            "in fpdtype_t[1] mag, in fpdtype_t[%d] x", s->phys.nvars,
        s->ndims, s->ndims);
    if (s->phys.naux)
        put(&a, ", in xchg fpdtype_t[%zu] al", s->phys.naux);
    put(&a, ", scalar fpdtype_t t");
    prelude(&b, s);
    int rc = FRX_OK;
    const char *key = k->keys;
    for (size_t i = 0; i < bc->nvals && !rc; i++) {
        size_t len = strcspn(key, "|");
        char name[80], *src = NULL;
        bc_scalar(key, len, name, sizeof name);
        key += len + (key[len] == '|');
        if (!fr_expr_uses(bc->exprs[i])) {
            put(&a, ", scalar fpdtype_t %s", name);
            continue;
        }
        rc = fr_expr_emit(bc->exprs[i], names, frx_backend_precision(s->be),
                          &src);
        if (!rc)
            put(&b, "fpdtype_t %s = %s;\n", name, src);
        free(src);
    }
    consts_args(&a, s);
    put(&b, "fpdtype_t n[NDIMS];\nfor (int _d = 0; _d < NDIMS; _d++)\n"
            "    n[_d] = nl[_d];\n");
    zeroed(&b, "ur", "NVARS");
    if (s->phys.naux)
        put(&b, "fpdtype_t ar[NAUX];\nfor (int _z = 0; _z < NAUX; _z++)\n"
                "    ar[_z] = al[_z];\n");
    fragment(&b, k->type, k->ghost);
    zeroed(&b, "fn", "NVARS");
    fragment(&b, "rsolve", s->phys.rsolve);
    put(&b, "for (int _w = 0; _w < NVARS; _w++)\n"
            "    ul[_w] = mag[0]*fn[_w];\n");
    if (rc) {
        free(str_close(&a));
        free(str_close(&b));
        return rc;
    }
    return reg(s, "bcflux", 1, &a, &b, out, 64);
}

/* A field at the points of a block (ndim 2: npts x neles) from its
 * fragment: the initial condition (from x, t and a) or the auxiliary
 * fields (from x); nbad counts the points where a value is not finite
 * or the fragment set bad. */
static int reg_field(fr_system *s, int initial)
{
    const char *v = initial ? "u" : "a";
    size_t nv = initial ? s->phys.nvars : s->phys.naux;
    struct str a, b;
    if (str_open(&a) || str_open(&b))
        return FRX_ENOMEM;
    put(&a, "in fpdtype_t[%d] x, out fpdtype_t[%zu] %s, "
            "out reduce(sum) fpdtype_t[1] nbad", s->ndims, nv, v);
    if (initial) {
        put(&a, ", scalar fpdtype_t t");
        if (s->phys.naux)
            put(&a, ", in fpdtype_t[%zu] a", s->phys.naux);
    }
    consts_args(&a, s);
    prelude(&b, s);
    put(&b, "for (int _z = 0; _z < %zu; _z++)\n    %s[_z] = 0;\n"
            "fpdtype_t bad = 0;\n", nv, v);
    fragment(&b, initial ? "initial" : "auxiliary fields",
             initial ? s->phys.initial_src : s->phys.aux_src);
    /* x - x is 0 for a finite x, NaN for inf and NaN */
    put(&b, "for (int _z = 0; _z < %zu; _z++)\n"
            "    bad += %s[_z] - %s[_z] != 0;\n"
            "nbad[0] = bad != 0;\n", nv, v, v);
    return initial ? reg(s, "initial", 2, &a, &b, s->kn.initial,
                         sizeof s->kn.initial)
                   : reg(s, "auxat", 2, &a, &b, s->kn.auxat,
                         sizeof s->kn.auxat);
}

/* f = -rcpdjac f (+ source) at every solution point (ndim 2). */
static int reg_negdivconf(fr_system *s)
{
    struct str a, b;
    if (str_open(&a) || str_open(&b))
        return FRX_ENOMEM;
    put(&a, "inout fpdtype_t[%zu] f, in fpdtype_t[1] rcpdjac",
        s->phys.nvars);
    prelude(&b, s);
    zeroed(&b, "src", "NVARS");
    if (s->phys.source) {
        put(&a, ", in fpdtype_t[%zu] u, in fpdtype_t[%d] x", s->phys.nvars,
            s->ndims);
        if (s->phys.naux)
            put(&a, ", in fpdtype_t[%zu] a", s->phys.naux);
        put(&a, ", scalar fpdtype_t t");
        consts_args(&a, s);
        fragment(&b, "source", s->phys.source);
    }
    put(&b, "for (int _w = 0; _w < NVARS; _w++)\n"
            "    f[_w] = -rcpdjac[0]*f[_w] + src[_w];\n");
    return reg(s, "negdivconf", 2, &a, &b, s->kn.negdivconf,
               sizeof s->kn.negdivconf);
}

/* max over points of wave speed x invh (ndim 2), for max_dt. A NaN
 * counts as 3e38 (a reduce(max) ignores NaN), which max_dt refuses. */
static int reg_wave(fr_system *s)
{
    struct str a, b;
    if (str_open(&a) || str_open(&b))
        return FRX_ENOMEM;
    put(&a, "in fpdtype_t[%zu] u, in fpdtype_t[1] invh, "
            "out reduce(max) fpdtype_t[1] r", s->phys.nvars);
    if (s->phys.naux)
        put(&a, ", in fpdtype_t[%zu] a", s->phys.naux);
    consts_args(&a, s);
    prelude(&b, s);
    put(&b, "fpdtype_t s = 0;\n");
    fragment(&b, "wavespeed", s->phys.wavespeed);
    put(&b, "fpdtype_t _r = s*invh[0];\n"
            "r[0] = _r == _r ? _r : (fpdtype_t)3.0e38;\n");
    return reg(s, "wavespeed", 2, &a, &b, s->kn.wave, sizeof s->kn.wave);
}

int fr__register_kernels(fr_system *s)
{
    const fr_physics *p = &s->phys;
    int rc = FRX_OK;
    for (size_t i = 0; i < p->nmacros && !rc; i++)
        rc = frx_kernel_register_macro(s->be, &p->macros[i]);
    if (rc || (rc = reg_tflux(s)) || (rc = reg_faceflux(s, 0)) ||
        (rc = reg_faceflux(s, 1)) || (rc = reg_negdivconf(s)))
        return rc;
    if (p->wavespeed && (rc = reg_wave(s)))
        return rc;
    if (p->initial_src && (rc = reg_field(s, 1)))
        return rc;
    if (p->naux && p->aux_src && (rc = reg_field(s, 0)))
        return rc;
    s->kn.bcflux = calloc(s->nbcs ? s->nbcs : 1, sizeof *s->kn.bcflux);
    if (!s->kn.bcflux)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    for (size_t i = 0; i < s->nbcs && !rc; i++) {
        if (!(s->kn.bcflux[i] = calloc(64, 1)))
            return frx_error(FRX_ENOMEM, "fr: out of memory");
        rc = reg_bcflux(s, &s->bcs[i], s->kn.bcflux[i]);
    }
    return rc;
}

void fr__free_knames(fr_system *s)
{
    for (size_t i = 0; s->kn.bcflux && i < s->nbcs; i++)
        free(s->kn.bcflux[i]);
    free(s->kn.bcflux);
    s->kn.bcflux = NULL;
}
