/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-lee: the base flow (solver.baseflow: rho, u, v, p as expressions
 * in x and y, with solver.constants) and the kernel fragments of the
 * physics around it.
 *
 * The unknowns are the primitive perturbations q = (rho', u', v', p').
 * With the base flow a = (rho0, u0, v0, p0) the linearized Euler
 * equations about a steady base flow are written in flux form,
 *
 *   dq/dt + d(A_x(a) q)/dx + d(A_y(a) q)/dy = S(a, grad a) q,
 *
 *   A_n(a) q = (un0 rho' + rho0 qn, un0 u' + n_x p'/rho0,
 *               un0 v' + n_y p'/rho0, un0 p' + gamma p0 qn),
 *
 * un0 = u0.n, qn = (u', v').n; S holds what the flux form adds or
 * leaves out (docs/lee.md derives it): 0 for a uniform base flow, and
 * S_u = -v' du0/dy for a parallel shear flow u0(y). Each derivative of
 * the base flow that is not identically 0 (libmatheval differentiates
 * the expression) is one more auxiliary field. */
#include "lee.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const base_keys[LEE_NBASE] = {"rho", "u", "v", "p"};
static const char *const base_names[LEE_NBASE] = {"rho0", "u0", "v0",
                                                  "p0"};

/* ------------------------------------------------------------ reading */

int lee__base_read(struct lee *l, const frx_solver_init *init)
{
    const frx_cfgnode *o = init->options;
    int rc = fr_expr_consts_create(frx_cfg_get(o, "constants"),
                                   "solver.constants", &l->consts);
    l->uniform = 1;
    for (int f = 0; f < LEE_NBASE && !rc; f++) {
        char key[64];
        snprintf(key, sizeof key, "baseflow.%s", base_keys[f]);
        const frx_cfgnode *n = frx_cfg_get(o, key);
        if (!n)
            return frx_error(FRX_ECONFIG, "%s: solver.%s is missing: give "
                             "the base flow as solver.baseflow: {rho: ..., "
                             "u: ..., v: ..., p: ...} (numbers or "
                             "expressions in x and y)",
                             frx_config_file(init->config), key);
        char full[80];
        snprintf(full, sizeof full, "solver.%s", key);
        rc = fr_expr_compile(n, full, FR_EXPR_X | FR_EXPR_Y, l->consts,
                             &l->base[f]);
        if (rc)
            break;
        unsigned uses = fr_expr_uses(l->base[f]);
        for (int d = 0; d < 2 && !rc; d++)
            if (uses & (d ? FR_EXPR_Y : FR_EXPR_X))
                rc = fr_expr_derivative(l->base[f],
                                        d ? FR_EXPR_Y : FR_EXPR_X,
                                        &l->dbase[f][d]);
        l->uniform &= uses == 0;
    }
    if (rc)
        return rc;
    /* the auxiliary fields: the base flow, then its derivatives */
    l->naux = 0;
    for (int f = 0; f < LEE_NBASE; f++)
        l->aux[l->naux++] = base_names[f];
    for (int f = 0; f < LEE_NBASE; f++)
        for (int d = 0; d < 2; d++) {
            l->daux[f][d] = -1;
            if (!l->dbase[f][d])
                continue;
            snprintf(l->auxname[l->naux], sizeof l->auxname[0], "d%s/d%c",
                     base_names[f], "xy"[d]);
            l->aux[l->naux] = l->auxname[l->naux];
            l->daux[f][d] = (int)l->naux++;
        }
    return FRX_OK;
}

/* a[k] = the base flow's field k (then its derivatives) */
int lee__aux_fragment(struct lee *l, int precision)
{
    static const char *const names[4] = {"x[0]", "x[1]", NULL, NULL};
    size_t len;
    FILE *f = open_memstream(&l->aux_src, &len);
    if (!f)
        return frx_error(FRX_ENOMEM, "lee: out of memory");
    int rc = FRX_OK;
    for (size_t k = 0; k < l->naux && !rc; k++) {
        const fr_expr *e = k < LEE_NBASE ? l->base[k] : NULL;
        for (int b = 0; b < LEE_NBASE && !e; b++)
            for (int d = 0; d < 2; d++)
                if (l->daux[b][d] == (int)k)
                    e = l->dbase[b][d];
        char *c = NULL;
        if (!(rc = fr_expr_emit(e, names, precision, &c)))
            fprintf(f, "a[%zu] = %s;\n", k, c);
        free(c);
    }
    fprintf(f, "bad = !(a[0] > 0 && a[3] > 0);");
    if (fclose(f) && !rc)
        rc = frx_error(FRX_ENOMEM, "lee: out of memory");
    return rc;
}

void lee__base_free(struct lee *l)
{
    for (int f = 0; f < LEE_NBASE; f++) {
        fr_expr_destroy(l->base[f]);
        for (int d = 0; d < 2; d++)
            fr_expr_destroy(l->dbase[f][d]);
    }
    fr_expr_consts_destroy(l->consts);
    free(l->source);
    free(l->aux_src);
    free(l->initial_src);
}

/* The base flow and its derivatives at n points [n][2] into vals
 * [n][naux]; rho0 and p0 must be positive. */
int lee__aux_at(void *ctx, size_t n, const double *xyz, double *vals)
{
    struct lee *l = ctx;
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return frx_error(FRX_ENOMEM, "lee: out of memory");
    int rc = FRX_OK;
    for (size_t k = 0; k < l->naux && !rc; k++) {
        const fr_expr *e = k < LEE_NBASE ? l->base[k] : NULL;
        for (int f = 0; f < LEE_NBASE && !e; f++)
            for (int d = 0; d < 2; d++)
                if (l->daux[f][d] == (int)k)
                    e = l->dbase[f][d];
        if ((rc = fr_expr_eval_points(e, n, 2, xyz, 0, v)))
            break;
        for (size_t i = 0; i < n; i++) {
            if ((k == 0 || k == 3) && !(v[i] > 0)) {
                const char *w = fr_expr_where(e);
                rc = frx_error(FRX_ERANGE, "%s%slee: solver.baseflow.%s is "
                               "%g at (%g, %g): the base flow's density and "
                               "pressure must be positive everywhere",
                               w, *w ? ": " : "", base_keys[k], v[i],
                               xyz[2 * i], xyz[2 * i + 1]);
                break;
            }
            vals[i * l->naux + k] = v[i];
        }
    }
    free(v);
    return rc;
}

/* ---------------------------------------------------------- fragments */

/* F = A_n(A) Q: the normal flux of Q about the base flow A (one
 * division: they are the slow part of the interface kernels). */
static const frx_kernel_macro macros[] = {
    {"lee_nflux", "Q, A, N, F",
     "{\n"
     "    fpdtype_t nf_un = (A)[1]*(N)[0] + (A)[2]*(N)[1];\n"
     "    fpdtype_t nf_qn = (Q)[1]*(N)[0] + (Q)[2]*(N)[1];\n"
     "    fpdtype_t nf_pr = (Q)[3]/(A)[0];\n"
     "    (F)[0] = nf_un*(Q)[0] + (A)[0]*nf_qn;\n"
     "    (F)[1] = nf_un*(Q)[1] + (N)[0]*nf_pr;\n"
     "    (F)[2] = nf_un*(Q)[2] + (N)[1]*nf_pr;\n"
     "    (F)[3] = nf_un*(Q)[3] + gamma*(A)[3]*nf_qn;\n"
     "}"},
};

/* The flux in x and y, lee_nflux's terms with normals (1, 0) and (0, 1)
 * written out: one division a point, no products with zero. */
static const char flux[] =
    "fpdtype_t pr = u[3]/a[0];\n"
    "f[0][0] = a[1]*u[0] + a[0]*u[1];\n"
    "f[0][1] = a[1]*u[1] + pr;\n"
    "f[0][2] = a[1]*u[2];\n"
    "f[0][3] = a[1]*u[3] + gamma*a[3]*u[1];\n"
    "f[1][0] = a[2]*u[0] + a[0]*u[2];\n"
    "f[1][1] = a[2]*u[1];\n"
    "f[1][2] = a[2]*u[2] + pr;\n"
    "f[1][3] = a[2]*u[3] + gamma*a[3]*u[2];";

/* Rusanov: the mean of both sides' fluxes (each about its own base
 * flow) and the fastest wave of either side times the jump. */
static const char rusanov[] =
    "fpdtype_t fl[4], fr[4];\n"
    "lee_nflux(ul, al, n, fl);\n"
    "lee_nflux(ur, ar, n, fr);\n"
    "fpdtype_t sl = fabs(al[1]*n[0] + al[2]*n[1]) + sqrt(gamma*al[3]/al[0]);\n"
    "fpdtype_t sr = fabs(ar[1]*n[0] + ar[2]*n[1]) + sqrt(gamma*ar[3]/ar[0]);\n"
    "fpdtype_t s = fmax(sl, sr);\n"
    "for (int w = 0; w < 4; w++)\n"
    "    fn[w] = ((fpdtype_t)0.5)*(fl[w] + fr[w] + s*(ul[w] - ur[w]));";

/* Upwind: the mean flux less |A_n| of the jump, |A_n| about the mean
 * base flow by its characteristics (entropy, vorticity, two acoustic). */
static const char upwind[] =
    "fpdtype_t fl[4], fr[4];\n"
    "lee_nflux(ul, al, n, fl);\n"
    "lee_nflux(ur, ar, n, fr);\n"
    "fpdtype_t r0 = ((fpdtype_t)0.5)*(al[0] + ar[0]);\n"
    "fpdtype_t un = ((fpdtype_t)0.5)*((al[1] + ar[1])*n[0] "
    "+ (al[2] + ar[2])*n[1]);\n"
    "fpdtype_t c2 = gamma*(al[3] + ar[3])/(al[0] + ar[0]);\n"
    "fpdtype_t c = sqrt(c2), ic2 = 1/c2;\n"
    "fpdtype_t d0 = ur[0] - ul[0], d1 = ur[1] - ul[1];\n"
    "fpdtype_t d2 = ur[2] - ul[2], d3 = ur[3] - ul[3];\n"
    "fpdtype_t dn = d1*n[0] + d2*n[1], dt = d2*n[0] - d1*n[1];\n"
    "fpdtype_t w1 = fabs(un)*(d0 - d3*ic2), w2 = fabs(un)*dt;\n"
    "fpdtype_t w3 = fabs(un + c)*(d3 + r0*c*dn);\n"
    "fpdtype_t w4 = fabs(un - c)*(d3 - r0*c*dn);\n"
    "fpdtype_t p = ((fpdtype_t)0.5)*(w3 + w4);\n"
    "fpdtype_t qn = (w3 - w4)*c*ic2/(2*r0);\n"
    "fpdtype_t ad[4];\n"
    "ad[0] = w1 + p*ic2;\n"
    "ad[1] = qn*n[0] - w2*n[1];\n"
    "ad[2] = qn*n[1] + w2*n[0];\n"
    "ad[3] = p;\n"
    "for (int w = 0; w < 4; w++)\n"
    "    fn[w] = ((fpdtype_t)0.5)*(fl[w] + fr[w] - ad[w]);";

static const char wavespeed[] =
    "s = sqrt(a[1]*a[1] + a[2]*a[2]) + sqrt(gamma*a[3]/a[0]);";

/* Characteristic far field: outgoing characteristics (speeds un0,
 * un0 + c, un0 - c along the outward normal) from inside, incoming ones
 * zero (no perturbation comes in). */
static const char farfield[] =
    "fpdtype_t c = sqrt(gamma*al[3]/al[0]);\n"
    "fpdtype_t un = al[1]*n[0] + al[2]*n[1];\n"
    "fpdtype_t qn = ul[1]*n[0] + ul[2]*n[1];\n"
    "fpdtype_t qt = ul[2]*n[0] - ul[1]*n[1];\n"
    "fpdtype_t w1 = un > 0 ? ul[0] - ul[3]/(c*c) : 0;\n"
    "fpdtype_t w2 = un > 0 ? qt : 0;\n"
    "fpdtype_t w3 = un + c > 0 ? ul[3] + al[0]*c*qn : 0;\n"
    "fpdtype_t w4 = un - c > 0 ? ul[3] - al[0]*c*qn : 0;\n"
    "fpdtype_t p = ((fpdtype_t)0.5)*(w3 + w4);\n"
    "fpdtype_t gn = (w3 - w4)/(2*al[0]*c);\n"
    "ur[0] = w1 + p/(c*c);\n"
    "ur[1] = gn*n[0] - w2*n[1];\n"
    "ur[2] = gn*n[1] + w2*n[0];\n"
    "ur[3] = p;";

static const char slipwall[] =
    "fpdtype_t qn = ul[1]*n[0] + ul[2]*n[1];\n"
    "ur[0] = ul[0];\n"
    "ur[1] = ul[1] - 2*qn*n[0];\n"
    "ur[2] = ul[2] - 2*qn*n[1];\n"
    "ur[3] = ul[3];";

/* The share of |u0| + c0 that the base flow may cross a slip wall by:
 * enough for a wall that a mesh of straight or curved elements only
 * approximates (the flow along the true wall), little enough to refuse
 * a wall put across the flow, whose perturbations the wall would reflect
 * about a base flow that goes through it (a wrong answer, not an error). */
#define LEE_WALL_CROSSING 1e-2

static int slipwall_check(void *ctx, const char *where, const double *vals,
                          size_t n, const double *x, const double *nrm,
                          const double *aux)
{
    const struct lee *l = ctx;
    (void)vals; /* it takes no keys */
    for (size_t i = 0; i < n; i++) {
        const double *a = aux + i * l->naux;
        double un = a[1] * nrm[2 * i] + a[2] * nrm[2 * i + 1];
        double c = sqrt(l->gamma * a[3] / a[0]), q = hypot(a[1], a[2]);
        if (fabs(un) > LEE_WALL_CROSSING * (q + c))
            return frx_error(FRX_ECONFIG, "%s: slip-wall: the base flow "
                             "crosses the wall at (%g, %g): u0.n = %g "
                             "against |u0| + c0 = %g (at most %g of it): "
                             "a slip wall needs the base flow along it; "
                             "use far-field there, or change the base "
                             "flow", where, x[2 * i], x[2 * i + 1], un,
                             q + c, LEE_WALL_CROSSING);
    }
    return FRX_OK;
}

static const fr_bc_kind bcs[] = {
    {.type = "far-field", .ghost = farfield,
     .help = "characteristic non-reflecting far field: nothing comes in"},
    {.type = "slip-wall", .ghost = slipwall,
     .help = "a wall the base flow runs along: no normal velocity",
     .check = slipwall_check},
};

const char *const lee__vars[4] = {"rho", "u", "v", "p"};

/* A term c*a[k] (sign s, factor fac) of the source, if a[k] exists. */
static void term(FILE *f, int k, const char *s, const char *fac)
{
    if (k >= 0)
        fprintf(f, " %s a[%d]*%s", s, k, fac);
}

/* S(a, grad a) q (docs/lee.md), only the terms whose derivative exists. */
static char *source_text(const struct lee *l)
{
    int rx = l->daux[0][0], ry = l->daux[0][1], ux = l->daux[1][0];
    int uy = l->daux[1][1], vx = l->daux[2][0], vy = l->daux[2][1];
    int px = l->daux[3][0], py = l->daux[3][1];
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    if (!f)
        return NULL;
    if (px >= 0 || py >= 0 || rx >= 0 || ry >= 0) /* else unused */
        fprintf(f, "fpdtype_t ir2 = 1/(a[0]*a[0]);\n");
    fprintf(f, "src[1] = 0");
    term(f, px, "+", "u[0]*ir2");
    term(f, vy, "+", "u[1]");
    term(f, uy, "-", "u[2]");
    term(f, rx, "-", "u[3]*ir2");
    fprintf(f, ";\nsrc[2] = 0");
    term(f, py, "+", "u[0]*ir2");
    term(f, vx, "-", "u[1]");
    term(f, ux, "+", "u[2]");
    term(f, ry, "-", "u[3]*ir2");
    fprintf(f, ";\nsrc[3] = 0");
    term(f, px, "+", "(gamma - 1)*u[1]");
    term(f, py, "+", "(gamma - 1)*u[2]");
    term(f, ux, "-", "(gamma - 1)*u[3]");
    term(f, vy, "-", "(gamma - 1)*u[3]");
    fprintf(f, ";");
    if (fclose(f)) {
        free(s);
        return NULL;
    }
    return s;
}

void lee__physics(struct lee *l, fr_physics *p)
{
    l->consts_k[0] = (fr_const){"gamma", l->gamma};
    if (l->naux > LEE_NBASE)
        l->source = source_text(l);
    *p = (fr_physics){
        .name = "lee",
        .nvars = 4,
        .vars = lee__vars,
        .naux = l->naux,
        .aux = l->aux,
        .consts = l->consts_k,
        .nconsts = 1,
        .macros = macros,
        .nmacros = sizeof macros / sizeof *macros,
        .flux = flux,
        .rsolve = l->flux ? rusanov : upwind,
        .wavespeed = wavespeed,
        .source = l->source,
        .bcs = bcs,
        .nbcs = sizeof bcs / sizeof *bcs,
        .ctx = l,
        .initial = lee__waves_at,
        .exact = l->uniform ? lee__waves_at : NULL,
        .aux_at = lee__aux_at,
        .initial_src = l->initial_src,
        .aux_src = l->aux_src,
        .expr_consts = l->consts,
    };
}
