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

/* ------------------------------------------------------------ viscous */

static int reg(fr_system *s, const char *base, int ndim, struct str *args,
               struct str *body, char *out, size_t outlen);

/* A coefficient of LDG's as a literal (the compiler drops the side a
 * zero leaves out: PyFR's beta = +-1/2 reads one side only). */
static void lit(struct str *b, double v)
{
    put(b, "(fpdtype_t)%.17g", v);
}

/* F[NDIMS][NVARS] = the viscous flux of state U with gradient G (and
 * auxiliary fields A), by the physics' fragment in a block of its own. */
static void vflux_of(struct str *b, const fr_system *s, const char *U,
                     const char *G, const char *A, const char *F)
{
    put(b, "fpdtype_t %s[NDIMS][NVARS];\n{\n"
           "fpdtype_t u[NVARS], g[NDIMS][NVARS], f[NDIMS][NVARS];\n"
           "for (int _w = 0; _w < NVARS; _w++) {\n"
           "    u[_w] = %s[_w];\n"
           "    for (int _d = 0; _d < NDIMS; _d++) {\n"
           "        g[_d][_w] = %s[_d][_w];\n"
           "        f[_d][_w] = 0;\n"
           "    }\n"
           "}\n", F, U, G);
    if (s->phys.naux)
        put(b, "fpdtype_t a[NAUX];\nfor (int _z = 0; _z < NAUX; _z++)\n"
               "    a[_z] = %s[_z];\n", A);
    fragment(b, "vflux", s->phys.vflux);
    put(b, "for (int _d = 0; _d < NDIMS; _d++)\n"
           "    for (int _w = 0; _w < NVARS; _w++)\n"
           "        %s[_d][_w] = f[_d][_w];\n}\n", F);
}

/* LDG's weights of the two sides, (1/2 + beta, 1/2 - beta) in the
 * viscous flux and the other way round in the common solution: numbers
 * on interior faces, where l is the face's canonical side (the compiler
 * drops a side a zero leaves out: PyFR's beta = +-1/2 reads one side);
 * at a peer's faces beta times sb, the point's orientation (+1 where
 * our side is the canonical one, -1 where the peer's is), so that every
 * face is oriented as on one rank whatever the partition. */
static void ldg_weights(struct str *b, const fr_system *s, int peer)
{
    if (peer) {
        put(b, "fpdtype_t _bl = ");
        lit(b, s->ldg_beta);
        put(b, "*sb[0];\n"
               "fpdtype_t _wl = (fpdtype_t)0.5 + _bl, "
               "_wr = (fpdtype_t)0.5 - _bl;\n");
        return;
    }
    /* only the weights that are not zero: the others are never used */
    if (0.5 + s->ldg_beta != 0) {
        put(b, "const fpdtype_t _wl = ");
        lit(b, 0.5 + s->ldg_beta);
        put(b, ";\n");
    }
    if (0.5 - s->ldg_beta != 0) {
        put(b, "const fpdtype_t _wr = ");
        lit(b, 0.5 - s->ldg_beta);
        put(b, ";\n");
    }
}

/* fn += LDG's common viscous flux: (1/2 + beta) Fv(ul, gl).n +
 * (1/2 - beta) Fv(ur, gr).n + tau (ul - ur). */
static void ldg_flux(struct str *b, const fr_system *s, int peer)
{
    int l = peer || 0.5 + s->ldg_beta != 0, r = peer || 0.5 - s->ldg_beta != 0;
    ldg_weights(b, s, peer);
    if (l)
        vflux_of(b, s, "ul", "gl", "al", "_fvl");
    if (r)
        vflux_of(b, s, "ur", "gr", "ar", "_fvr");
    put(b, "for (int _w = 0; _w < NVARS; _w++) {\n"
           "    fpdtype_t _v = ");
    lit(b, s->ldg_tau);
    put(b, "*(ul[_w] - ur[_w]);\n"
           "    for (int _d = 0; _d < NDIMS; _d++) {\n");
    if (l)
        put(b, "        _v += _wl*n[_d]*_fvl[_d][_w];\n");
    if (r)
        put(b, "        _v += _wr*n[_d]*_fvr[_d][_w];\n");
    put(b, "    }\n    fn[_w] += _v;\n}\n");
}

/* The common solution of an interface, (1/2 - beta) ul + (1/2 + beta)
 * ur, as each side's jump to it: dl (and, interior, dr). */
static int reg_conu(fr_system *s, int peer)
{
    int l = peer || 0.5 - s->ldg_beta != 0, r = peer || 0.5 + s->ldg_beta != 0;
    struct str a, b;
    if (str_open(&a) || str_open(&b))
        return FRX_ENOMEM;
    put(&a, "in view fpdtype_t[%zu] ul, in %s fpdtype_t[%zu] ur, "
            "out view fpdtype_t[%zu] dl", s->phys.nvars,
        peer ? "xchg" : "view", s->phys.nvars, s->phys.nvars);
    put(&a, peer ? ", in fpdtype_t[1] sb" : ", out view fpdtype_t[%zu] dr",
        s->phys.nvars);
    prelude(&b, s);
    ldg_weights(&b, s, peer);
    put(&b, "for (int _w = 0; _w < NVARS; _w++) {\n    fpdtype_t _c = 0;\n");
    if (l)
        put(&b, "    _c += _wr*ul[_w];\n");
    if (r)
        put(&b, "    _c += _wl*ur[_w];\n");
    put(&b, "    dl[_w] = _c - ul[_w];\n");
    if (!peer)
        put(&b, "    dr[_w] = _c - ur[_w];\n");
    put(&b, "}\n");
    return peer ? reg(s, "mpiconu", 1, &a, &b, s->kn.mpiconu,
                      sizeof s->kn.mpiconu)
                : reg(s, "intconu", 1, &a, &b, s->kn.intconu,
                      sizeof s->kn.intconu);
}

/* The reference gradient at the solution points to x, y (z) (ndim 2):
 * du/dx_j = (1/|J|) sum_i smats[i][j] du/dxi_i. */
static int reg_gradtr(fr_system *s)
{
    struct str a, b;
    if (str_open(&a) || str_open(&b))
        return FRX_ENOMEM;
    put(&a, "inout fpdtype_t[%d][%zu] g, in fpdtype_t[%d] smats, "
            "in fpdtype_t[1] rcpdjac", s->ndims, s->phys.nvars,
        s->ndims * s->ndims);
    prelude(&b, s);
    put(&b, "fpdtype_t _r[NDIMS][NVARS];\n"
            "for (int _d = 0; _d < NDIMS; _d++)\n"
            "    for (int _w = 0; _w < NVARS; _w++) {\n"
            "        fpdtype_t _s = 0;\n"
            "        for (int _e = 0; _e < NDIMS; _e++)\n"
            "            _s += smats[_e*NDIMS + _d]*g[_e][_w];\n"
            "        _r[_d][_w] = rcpdjac[0]*_s;\n"
            "    }\n"
            "for (int _d = 0; _d < NDIMS; _d++)\n"
            "    for (int _w = 0; _w < NVARS; _w++)\n"
            "        g[_d][_w] = _r[_d][_w];\n");
    return reg(s, "gradtr", 2, &a, &b, s->kn.gradtr, sizeof s->kn.gradtr);
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
    if (s->viscous)
        put(&a, ", in fpdtype_t[%d][%zu] g", s->ndims, s->phys.nvars);
    consts_args(&a, s);
    prelude(&b, s);
    put(&b, "fpdtype_t f[NDIMS][NVARS];\n"
            "for (int _d = 0; _d < NDIMS; _d++)\n"
            "    for (int _w = 0; _w < NVARS; _w++)\n"
            "        f[_d][_w] = 0;\n");
    fragment(&b, "flux", s->phys.flux);
    if (s->viscous)
        fragment(&b, "vflux", s->phys.vflux);
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
    if (s->viscous)
        put(&a, ", in view fpdtype_t[%d][%zu] gl, in %s fpdtype_t[%d][%zu] gr%s",
            s->ndims, s->phys.nvars, peer ? "xchg" : "view", s->ndims,
            s->phys.nvars, peer ? ", in fpdtype_t[1] sb" : "");
    consts_args(&a, s);
    prelude(&b, s);
    common_flux(&b, s);
    if (s->viscous)
        ldg_flux(&b, s, peer);
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

/* A boundary kernel's arguments after its own (scalar t, the values
 * that are numbers, the constants) and, at the top of its body, the
 * values that are expressions (computed at each point from x and t),
 * the unit normal n and ar (= al). */
static int bc_head(fr_system *s, const struct fr_bc *bc, struct str *a,
                   struct str *b)
{
    const char *const names[4] = {"x[0]", "x[1]",
                                  s->ndims == 3 ? "x[2]" : NULL, "t"};
    put(a, ", scalar fpdtype_t t");
    prelude(b, s);
    int rc = FRX_OK;
    const char *key = bc->kind->keys;
    for (size_t i = 0; i < bc->nvals && !rc; i++) {
        size_t len = strcspn(key, "|");
        char name[80], *src = NULL;
        bc_scalar(key, len, name, sizeof name);
        key += len + (key[len] == '|');
        if (!fr_expr_uses(bc->exprs[i])) {
            put(a, ", scalar fpdtype_t %s", name);
            continue;
        }
        rc = fr_expr_emit(bc->exprs[i], names, frx_backend_precision(s->be),
                          &src);
        if (!rc)
            put(b, "fpdtype_t %s = %s;\n", name, src);
        free(src);
    }
    consts_args(a, s);
    put(b, "fpdtype_t n[NDIMS];\nfor (int _d = 0; _d < NDIMS; _d++)\n"
           "    n[_d] = nl[_d];\n");
    if (s->phys.naux)
        put(b, "fpdtype_t ar[NAUX];\nfor (int _z = 0; _z < NAUX; _z++)\n"
               "    ar[_z] = al[_z];\n");
    return rc;
}

/* Register a boundary kernel (bc_head's rc first). */
static int bc_reg(fr_system *s, int rc, const char *base, struct str *a,
                  struct str *b, char *out)
{
    if (rc) {
        free(str_close(a));
        free(str_close(b));
        return rc;
    }
    return reg(s, base, 1, a, b, out, 64);
}

/* The boundary's viscous states, where it has a viscous flux: its
 * common solution (ldg_state, or the ghost) and the gradient beyond it
 * (grad_state, or gl), into _uv and _gv, then the viscous flux there
 * into _fvr. */
static void bc_viscous_state(struct str *b, const fr_system *s,
                             const struct fr_bc *bc,
                             const fr_bc_viscous *v)
{
    put(b, "fpdtype_t _uv[NVARS], _gv[NDIMS][NVARS];\n{\n");
    zeroed(b, "ur", "NVARS");
    if (v && v->ldg_state)
        fragment(b, "ldg state", v->ldg_state);
    else
        fragment(b, bc->kind->type, bc->kind->ghost);
    put(b, "fpdtype_t gr[NDIMS][NVARS];\n"
           "for (int _d = 0; _d < NDIMS; _d++)\n"
           "    for (int _w = 0; _w < NVARS; _w++)\n"
           "        gr[_d][_w] = gl[_d][_w];\n");
    if (v && v->grad_state)
        fragment(b, "gradient state", v->grad_state);
    put(b, "for (int _w = 0; _w < NVARS; _w++) {\n"
           "    _uv[_w] = ur[_w];\n"
           "    for (int _d = 0; _d < NDIMS; _d++)\n"
           "        _gv[_d][_w] = gr[_d][_w];\n"
           "}\n}\n");
    vflux_of(b, s, "_uv", "_gv", "ar", "_fvr");
}

/* What a boundary kind does in viscous physics (NULL: the defaults). */
static const fr_bc_viscous *bc_viscous(const fr_system *s,
                                       const struct fr_bc *bc)
{
    const fr_physics *p = &s->phys;
    if (!s->viscous || !p->bcs_viscous)
        return NULL;
    return &p->bcs_viscous[bc->kind - p->bcs];
}

/* Boundary bc's faces: its values, a ghost state, then the common
 * flux (viscous physics: PyFR's, the ghost's inviscid flux plus the
 * viscous flux of the boundary's common solution and gradient, and
 * LDG's penalty on the jump to the ghost). A value that is a number is
 * a scalar argument; an expression is computed at each point, from x
 * and t. */
static int reg_bcflux(fr_system *s, const struct fr_bc *bc, char *out)
{
    const fr_bc_viscous *v = bc_viscous(s, bc);
    int visc = s->viscous && !(v && v->inviscid);
    struct str a, b;
    if (str_open(&a) || str_open(&b))
        return FRX_ENOMEM;
    put(&a, "inout view fpdtype_t[%zu] ul, in fpdtype_t[%d] nl, "
            "in fpdtype_t[1] mag, in fpdtype_t[%d] x", s->phys.nvars,
        s->ndims, s->ndims);
    if (s->phys.naux)
        put(&a, ", in xchg fpdtype_t[%zu] al", s->phys.naux);
    if (s->viscous)
        put(&a, ", in view fpdtype_t[%d][%zu] gl", s->ndims, s->phys.nvars);
    int rc = bc_head(s, bc, &a, &b);
    if (visc)
        bc_viscous_state(&b, s, bc, v);
    zeroed(&b, "ur", "NVARS");
    fragment(&b, bc->kind->type, bc->kind->ghost);
    zeroed(&b, "fn", "NVARS");
    fragment(&b, "rsolve", s->phys.rsolve);
    if (visc) {
        put(&b, "for (int _w = 0; _w < NVARS; _w++) {\n    fn[_w] += ");
        lit(&b, s->ldg_tau);
        put(&b, "*(ul[_w] - ur[_w]);\n"
                "    for (int _d = 0; _d < NDIMS; _d++)\n"
                "        fn[_w] += n[_d]*_fvr[_d][_w];\n}\n");
    }
    put(&b, "for (int _w = 0; _w < NVARS; _w++)\n"
            "    ul[_w] = mag[0]*fn[_w];\n");
    return bc_reg(s, rc, "bcflux", &a, &b, out);
}

/* Boundary bc's common solution (its ldg state, or the ghost) as the
 * jump dl to it from ul. */
static int reg_bcconu(fr_system *s, const struct fr_bc *bc, char *out)
{
    const fr_bc_viscous *v = bc_viscous(s, bc);
    struct str a, b;
    if (str_open(&a) || str_open(&b))
        return FRX_ENOMEM;
    put(&a, "in view fpdtype_t[%zu] ul, out view fpdtype_t[%zu] dl, "
            "in fpdtype_t[%d] nl, in fpdtype_t[%d] x", s->phys.nvars,
        s->phys.nvars, s->ndims, s->ndims);
    if (s->phys.naux)
        put(&a, ", in xchg fpdtype_t[%zu] al", s->phys.naux);
    int rc = bc_head(s, bc, &a, &b);
    if (s->phys.naux)
        put(&b, "(void)ar;\n");
    zeroed(&b, "ur", "NVARS");
    if (v && v->ldg_state)
        fragment(&b, "ldg state", v->ldg_state);
    else
        fragment(&b, bc->kind->type, bc->kind->ghost);
    /* a wall's common solution needs no normal, but a NaN one (a broken
     * metric) is carried into the result, not lost: and n is read, which
     * GPU compilers want of a local that is set */
    put(&b, "for (int _w = 0; _w < NVARS; _w++)\n"
            "    dl[_w] = ur[_w] - ul[_w] + (n[0] != n[0] ? n[0] : 0);\n");
    return bc_reg(s, rc, "bcconu", &a, &b, out);
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

/* max_dt's viscous limit grows as p^4/h^2 where invh^2 grows as
 * p^2/h^2: the rest of the factor, per block. On pyramids the viscous
 * terms are stable to a dt about 2.5 times smaller than the metric says
 * (points crowd towards the apex, which the reference metric does not
 * see): measured stable cfl on viscous-dominated flows p = 1..4 0.65-0.77
 * against 1.4-1.9 on tetrahedra and 1.7-3.3 on hexahedra, where their
 * inviscid limit is the same as the hexahedra's. */
double fr__viscous_dt_factor(const fr_system *s, const fr_element *el)
{
    double p1 = s->order + 1.0;
    return p1 * p1 / (2.0 * s->order + 1) *
           (fr_element_etype(el) == FR_PYR ? 2.5 : 1);
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
    if (s->phys.diffusivity) /* fr__viscous_dt_factor */
        put(&a, ", scalar fpdtype_t vf");
    if (s->phys.naux)
        put(&a, ", in fpdtype_t[%zu] a", s->phys.naux);
    consts_args(&a, s);
    prelude(&b, s);
    put(&b, "fpdtype_t s = 0;\n");
    fragment(&b, "wavespeed", s->phys.wavespeed);
    put(&b, "fpdtype_t _r = s*invh[0];\n");
    if (s->phys.diffusivity) {
        put(&b, "fpdtype_t nu = 0;\n");
        fragment(&b, "diffusivity", s->phys.diffusivity);
        put(&b, "_r += nu*invh[0]*invh[0]*vf;\n");
    }
    put(&b, "r[0] = _r == _r ? _r : (fpdtype_t)3.0e38;\n");
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
    if (s->viscous && ((rc = reg_conu(s, 0)) || (rc = reg_conu(s, 1)) ||
                       (rc = reg_gradtr(s))))
        return rc;
    s->kn.bcflux = calloc(s->nbcs ? s->nbcs : 1, sizeof *s->kn.bcflux);
    s->kn.bcconu = calloc(s->nbcs ? s->nbcs : 1, sizeof *s->kn.bcconu);
    if (!s->kn.bcflux || !s->kn.bcconu)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    for (size_t i = 0; i < s->nbcs && !rc; i++) {
        if (!(s->kn.bcflux[i] = calloc(64, 1)) ||
            !(s->kn.bcconu[i] = calloc(64, 1)))
            return frx_error(FRX_ENOMEM, "fr: out of memory");
        rc = reg_bcflux(s, &s->bcs[i], s->kn.bcflux[i]);
        if (!rc && s->viscous)
            rc = reg_bcconu(s, &s->bcs[i], s->kn.bcconu[i]);
    }
    return rc;
}

void fr__free_knames(fr_system *s)
{
    for (size_t i = 0; i < s->nbcs; i++) {
        if (s->kn.bcflux)
            free(s->kn.bcflux[i]);
        if (s->kn.bcconu)
            free(s->kn.bcconu[i]);
    }
    free(s->kn.bcflux);
    free(s->kn.bcconu);
    s->kn.bcflux = s->kn.bcconu = NULL;
}

