/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-lee: the kernel fragments of the physics, in 2-D and 3-D.
 *
 * The unknowns are the primitive perturbations q = (rho', u', v', (w',)
 * p'). With the base flow a = (rho0, u0, v0, (w0,) p0) the linearized
 * Euler equations about a steady base flow are written in flux form,
 *
 *   dq/dt + sum_j d(F_j(a) q)/dx_j = S(a, grad a) q,
 *
 *   F_n(a) q = (un0 rho' + rho0 qn, un0 u' + n p'/rho0,
 *               un0 p' + gamma p0 qn),
 *
 * un0 = u0.n, qn = u'.n; S holds what the flux form adds or leaves out
 * (docs/lee.md derives it): 0 for a uniform base flow, and S_u = -v'
 * du0/dy for a parallel shear flow u0(y). Each fragment is written out
 * for one dimension (the 2-D ones as they were before 3-D came: the
 * same kernels); in 3-D the pressure is q[4] and a[4], not q[3]. */
#include "lee.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const vars[2][5] = {{"rho", "u", "v", "p"},
                                       {"rho", "u", "v", "w", "p"}};

/* F = F_n(A) Q: the normal flux of Q about the base flow A (one
 * division: they are the slow part of the interface kernels). */
static const frx_kernel_macro macros[2][1] = {
    {{"lee_nflux", "Q, A, N, F",
      "{\n"
      "    fpdtype_t nf_un = (A)[1]*(N)[0] + (A)[2]*(N)[1];\n"
      "    fpdtype_t nf_qn = (Q)[1]*(N)[0] + (Q)[2]*(N)[1];\n"
      "    fpdtype_t nf_pr = (Q)[3]/(A)[0];\n"
      "    (F)[0] = nf_un*(Q)[0] + (A)[0]*nf_qn;\n"
      "    (F)[1] = nf_un*(Q)[1] + (N)[0]*nf_pr;\n"
      "    (F)[2] = nf_un*(Q)[2] + (N)[1]*nf_pr;\n"
      "    (F)[3] = nf_un*(Q)[3] + gamma*(A)[3]*nf_qn;\n"
      "}"}},
    {{"lee_nflux", "Q, A, N, F",
      "{\n"
      "    fpdtype_t nf_un = (A)[1]*(N)[0] + (A)[2]*(N)[1] + "
      "(A)[3]*(N)[2];\n"
      "    fpdtype_t nf_qn = (Q)[1]*(N)[0] + (Q)[2]*(N)[1] + "
      "(Q)[3]*(N)[2];\n"
      "    fpdtype_t nf_pr = (Q)[4]/(A)[0];\n"
      "    (F)[0] = nf_un*(Q)[0] + (A)[0]*nf_qn;\n"
      "    (F)[1] = nf_un*(Q)[1] + (N)[0]*nf_pr;\n"
      "    (F)[2] = nf_un*(Q)[2] + (N)[1]*nf_pr;\n"
      "    (F)[3] = nf_un*(Q)[3] + (N)[2]*nf_pr;\n"
      "    (F)[4] = nf_un*(Q)[4] + gamma*(A)[4]*nf_qn;\n"
      "}"}},
};

/* The flux along x, y (z), lee_nflux's terms with the axes as normals
 * written out: one division a point, no products with zero. */
static const char *const flux[2] = {
    "fpdtype_t pr = u[3]/a[0];\n"
    "f[0][0] = a[1]*u[0] + a[0]*u[1];\n"
    "f[0][1] = a[1]*u[1] + pr;\n"
    "f[0][2] = a[1]*u[2];\n"
    "f[0][3] = a[1]*u[3] + gamma*a[3]*u[1];\n"
    "f[1][0] = a[2]*u[0] + a[0]*u[2];\n"
    "f[1][1] = a[2]*u[1];\n"
    "f[1][2] = a[2]*u[2] + pr;\n"
    "f[1][3] = a[2]*u[3] + gamma*a[3]*u[2];",

    "fpdtype_t pr = u[4]/a[0];\n"
    "f[0][0] = a[1]*u[0] + a[0]*u[1];\n"
    "f[0][1] = a[1]*u[1] + pr;\n"
    "f[0][2] = a[1]*u[2];\n"
    "f[0][3] = a[1]*u[3];\n"
    "f[0][4] = a[1]*u[4] + gamma*a[4]*u[1];\n"
    "f[1][0] = a[2]*u[0] + a[0]*u[2];\n"
    "f[1][1] = a[2]*u[1];\n"
    "f[1][2] = a[2]*u[2] + pr;\n"
    "f[1][3] = a[2]*u[3];\n"
    "f[1][4] = a[2]*u[4] + gamma*a[4]*u[2];\n"
    "f[2][0] = a[3]*u[0] + a[0]*u[3];\n"
    "f[2][1] = a[3]*u[1];\n"
    "f[2][2] = a[3]*u[2];\n"
    "f[2][3] = a[3]*u[3] + pr;\n"
    "f[2][4] = a[3]*u[4] + gamma*a[4]*u[3];"};

/* Rusanov: the mean of both sides' fluxes (each about its own base
 * flow) and the fastest wave of either side times the jump. */
static const char *const rusanov[2] = {
    "fpdtype_t fl[4], fr[4];\n"
    "lee_nflux(ul, al, n, fl);\n"
    "lee_nflux(ur, ar, n, fr);\n"
    "fpdtype_t sl = fabs(al[1]*n[0] + al[2]*n[1]) + sqrt(gamma*al[3]/al[0]);\n"
    "fpdtype_t sr = fabs(ar[1]*n[0] + ar[2]*n[1]) + sqrt(gamma*ar[3]/ar[0]);\n"
    "fpdtype_t s = fmax(sl, sr);\n"
    "for (int w = 0; w < 4; w++)\n"
    "    fn[w] = ((fpdtype_t)0.5)*(fl[w] + fr[w] + s*(ul[w] - ur[w]));",

    "fpdtype_t fl[5], fr[5];\n"
    "lee_nflux(ul, al, n, fl);\n"
    "lee_nflux(ur, ar, n, fr);\n"
    "fpdtype_t sl = fabs(al[1]*n[0] + al[2]*n[1] + al[3]*n[2]) "
    "+ sqrt(gamma*al[4]/al[0]);\n"
    "fpdtype_t sr = fabs(ar[1]*n[0] + ar[2]*n[1] + ar[3]*n[2]) "
    "+ sqrt(gamma*ar[4]/ar[0]);\n"
    "fpdtype_t s = fmax(sl, sr);\n"
    "for (int w = 0; w < 5; w++)\n"
    "    fn[w] = ((fpdtype_t)0.5)*(fl[w] + fr[w] + s*(ul[w] - ur[w]));"};

/* Upwind: the mean flux less |F_n| of the jump, |F_n| about the mean
 * base flow by its characteristics: entropy |un|(d_rho - d_p/c^2),
 * vorticity |un| (d_u - dn n) (the tangential jump; in 2-D the scalar
 * w2 along (-n_y, n_x)), acoustic |un +- c|(d_p +- rho0 c dn). */
static const char *const upwind[2] = {
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
    "    fn[w] = ((fpdtype_t)0.5)*(fl[w] + fr[w] - ad[w]);",

    "fpdtype_t fl[5], fr[5];\n"
    "lee_nflux(ul, al, n, fl);\n"
    "lee_nflux(ur, ar, n, fr);\n"
    "fpdtype_t r0 = ((fpdtype_t)0.5)*(al[0] + ar[0]);\n"
    "fpdtype_t un = ((fpdtype_t)0.5)*((al[1] + ar[1])*n[0] "
    "+ (al[2] + ar[2])*n[1] + (al[3] + ar[3])*n[2]);\n"
    "fpdtype_t c2 = gamma*(al[4] + ar[4])/(al[0] + ar[0]);\n"
    "fpdtype_t c = sqrt(c2), ic2 = 1/c2, an = fabs(un);\n"
    "fpdtype_t d0 = ur[0] - ul[0], d1 = ur[1] - ul[1];\n"
    "fpdtype_t d2 = ur[2] - ul[2], d3 = ur[3] - ul[3];\n"
    "fpdtype_t d4 = ur[4] - ul[4];\n"
    "fpdtype_t dn = d1*n[0] + d2*n[1] + d3*n[2];\n"
    "fpdtype_t w1 = an*(d0 - d4*ic2);\n"
    "fpdtype_t w3 = fabs(un + c)*(d4 + r0*c*dn);\n"
    "fpdtype_t w4 = fabs(un - c)*(d4 - r0*c*dn);\n"
    "fpdtype_t p = ((fpdtype_t)0.5)*(w3 + w4);\n"
    "fpdtype_t qn = (w3 - w4)*c*ic2/(2*r0);\n"
    "fpdtype_t ad[5];\n"
    "ad[0] = w1 + p*ic2;\n"
    "ad[1] = qn*n[0] + an*(d1 - dn*n[0]);\n"
    "ad[2] = qn*n[1] + an*(d2 - dn*n[1]);\n"
    "ad[3] = qn*n[2] + an*(d3 - dn*n[2]);\n"
    "ad[4] = p;\n"
    "for (int w = 0; w < 5; w++)\n"
    "    fn[w] = ((fpdtype_t)0.5)*(fl[w] + fr[w] - ad[w]);"};

static const char *const wavespeed[2] = {
    "s = sqrt(a[1]*a[1] + a[2]*a[2]) + sqrt(gamma*a[3]/a[0]);",
    "s = sqrt(a[1]*a[1] + a[2]*a[2] + a[3]*a[3]) + sqrt(gamma*a[4]/a[0]);"};

/* Characteristic far field: outgoing characteristics (speeds un0,
 * un0 + c, un0 - c along the outward normal) from inside, incoming ones
 * zero (no perturbation comes in). The tangential velocity (a vector in
 * 3-D) is the vorticity characteristic's, kept where un0 > 0. */
static const char *const farfield[2] = {
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
    "ur[3] = p;",

    "fpdtype_t c = sqrt(gamma*al[4]/al[0]);\n"
    "fpdtype_t un = al[1]*n[0] + al[2]*n[1] + al[3]*n[2];\n"
    "fpdtype_t qn = ul[1]*n[0] + ul[2]*n[1] + ul[3]*n[2];\n"
    "fpdtype_t w1 = un > 0 ? ul[0] - ul[4]/(c*c) : 0;\n"
    "fpdtype_t w3 = un + c > 0 ? ul[4] + al[0]*c*qn : 0;\n"
    "fpdtype_t w4 = un - c > 0 ? ul[4] - al[0]*c*qn : 0;\n"
    "fpdtype_t p = ((fpdtype_t)0.5)*(w3 + w4);\n"
    "fpdtype_t gn = (w3 - w4)/(2*al[0]*c);\n"
    "ur[0] = w1 + p/(c*c);\n"
    "ur[1] = gn*n[0] + (un > 0 ? ul[1] - qn*n[0] : 0);\n"
    "ur[2] = gn*n[1] + (un > 0 ? ul[2] - qn*n[1] : 0);\n"
    "ur[3] = gn*n[2] + (un > 0 ? ul[3] - qn*n[2] : 0);\n"
    "ur[4] = p;"};

static const char *const slipwall[2] = {
    "fpdtype_t qn = ul[1]*n[0] + ul[2]*n[1];\n"
    "ur[0] = ul[0];\n"
    "ur[1] = ul[1] - 2*qn*n[0];\n"
    "ur[2] = ul[2] - 2*qn*n[1];\n"
    "ur[3] = ul[3];",

    "fpdtype_t qn = ul[1]*n[0] + ul[2]*n[1] + ul[3]*n[2];\n"
    "ur[0] = ul[0];\n"
    "ur[1] = ul[1] - 2*qn*n[0];\n"
    "ur[2] = ul[2] - 2*qn*n[1];\n"
    "ur[3] = ul[3] - 2*qn*n[2];\n"
    "ur[4] = ul[4];"};

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
    size_t nd = (size_t)l->nd;
    (void)vals; /* it takes no keys */
    for (size_t i = 0; i < n; i++) {
        const double *a = aux + i * l->naux, *nr = nrm + nd * i;
        double un = 0, q2 = 0;
        for (size_t d = 0; d < nd; d++) {
            un += a[1 + d] * nr[d];
            q2 += a[1 + d] * a[1 + d];
        }
        double c = sqrt(l->gamma * a[nd + 1] / a[0]);
        double q = nd == 3 ? sqrt(q2) : hypot(a[1], a[2]);
        char pt[96];
        if (fabs(un) > LEE_WALL_CROSSING * (q + c))
            return frx_error(FRX_ECONFIG, "%s: slip-wall: the base flow "
                             "crosses the wall at %s: u0.n = %g "
                             "against |u0| + c0 = %g (at most %g of it): "
                             "a slip wall needs the base flow along it; "
                             "use far-field there, or change the base "
                             "flow", where, lee__point(l, x + nd * i, pt,
                                                       sizeof pt),
                             un, q + c, LEE_WALL_CROSSING);
    }
    return FRX_OK;
}

static const fr_bc_kind bcs[2][2] = {
    {{.type = "far-field", .ghost = farfield[0],
      .help = "characteristic non-reflecting far field: nothing comes in"},
     {.type = "slip-wall", .ghost = slipwall[0],
      .help = "a wall the base flow runs along: no normal velocity",
      .check = slipwall_check}},
    {{.type = "far-field", .ghost = farfield[1],
      .help = "characteristic non-reflecting far field: nothing comes in"},
     {.type = "slip-wall", .ghost = slipwall[1],
      .help = "a wall the base flow runs along: no normal velocity",
      .check = slipwall_check}},
};

/* A term s a[k]*fac of the source, if a[k] exists. */
static void term(FILE *f, int k, const char *s, const char *fac)
{
    if (k >= 0)
        fprintf(f, " %s a[%d]*%s", s, k, fac);
}

/* S(a, grad a) q (docs/lee.md), only the terms whose derivative
 * exists: with D[f][j] the aux index of d(base f)/dx_j (or -1), u0_i
 * field 1 + i, p0 field P = nd + 1,
 *   S_u_i = rho' d_i p0/rho0^2
 *         + sum_{j != i} (u'_i d_j u0_j - u'_j d_j u0_i)
 *         - p' d_i rho0/rho0^2,
 *   S_p = (gamma - 1)(u'.grad p0 - p' div u0),
 * each pair of the sum with the lower u' index first (2-D's order). */
static char *source_text(const struct lee *l)
{
    int nd = l->nd, P = nd + 1;
    const int(*D)[3] = l->daux;
    char *s = NULL, fac[32];
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    if (!f)
        return NULL;
    int grad = 0; /* 1/rho0^2 is used */
    for (int d = 0; d < nd; d++)
        grad |= D[P][d] >= 0 || D[0][d] >= 0;
    if (grad)
        fprintf(f, "fpdtype_t ir2 = 1/(a[0]*a[0]);\n");
    for (int i = 0; i < nd; i++) {
        fprintf(f, "%ssrc[%d] = 0", i ? ";\n" : "", i + 1);
        term(f, D[P][i], "+", "u[0]*ir2");
        for (int j = 0; j < nd; j++) {
            if (j == i)
                continue;
            char ui[16], uj[16];
            snprintf(ui, sizeof ui, "u[%d]", i + 1);
            snprintf(uj, sizeof uj, "u[%d]", j + 1);
            if (i < j) {
                term(f, D[1 + j][j], "+", ui);
                term(f, D[1 + i][j], "-", uj);
            } else {
                term(f, D[1 + i][j], "-", uj);
                term(f, D[1 + j][j], "+", ui);
            }
        }
        snprintf(fac, sizeof fac, "u[%d]*ir2", P);
        term(f, D[0][i], "-", fac);
    }
    fprintf(f, ";\nsrc[%d] = 0", P);
    for (int d = 0; d < nd; d++) {
        snprintf(fac, sizeof fac, "(gamma - 1)*u[%d]", d + 1);
        term(f, D[P][d], "+", fac);
    }
    snprintf(fac, sizeof fac, "(gamma - 1)*u[%d]", P);
    for (int d = 0; d < nd; d++)
        term(f, D[1 + d][d], "-", fac);
    fprintf(f, ";");
    if (fclose(f)) {
        free(s);
        return NULL;
    }
    return s;
}

void lee__physics(struct lee *l, fr_physics *p)
{
    int d3 = l->nd == 3;
    l->consts_k[0] = (fr_const){"gamma", l->gamma};
    if (l->naux > (size_t)l->nb)
        l->source = source_text(l);
    *p = (fr_physics){
        .name = "lee",
        .nvars = (size_t)l->nb,
        .vars = vars[d3],
        .naux = l->naux,
        .aux = l->aux,
        .consts = l->consts_k,
        .nconsts = 1,
        .macros = macros[d3],
        .nmacros = sizeof macros[0] / sizeof macros[0][0],
        .flux = flux[d3],
        .rsolve = l->flux ? rusanov[d3] : upwind[d3],
        .wavespeed = wavespeed[d3],
        .source = l->source,
        .bcs = bcs[d3],
        .nbcs = sizeof bcs[0] / sizeof bcs[0][0],
        .ctx = l,
        .initial = lee__waves_at,
        .exact = l->uniform ? lee__waves_at : NULL,
        .aux_at = lee__aux_at,
        .initial_src = l->initial_src,
        .aux_src = l->aux_src,
        .expr_consts = l->consts,
        .dims = FR_DIMS_2 | FR_DIMS_3,
    };
}
