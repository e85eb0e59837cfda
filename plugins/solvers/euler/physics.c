/* SPDX-License-Identifier: BSD-3-Clause */
/* The compressible Euler equations as frx kernel macros (physics.h).
 *
 * Each macro body is written out for one ndims (loops unrolled, as
 * PyFR's templates do); gamma and the free-stream values are scalars of
 * the kernels that expand the macros. */
#include "physics.h"

#include <frx/plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* (a[a0]*b[b0] + ...), ndims terms. */
void euler_dot(FILE *f, int ndims, const char *a, int a0, const char *b,
               int b0)
{
    fputc('(', f);
    for (int i = 0; i < ndims; i++)
        fprintf(f, "%s(%s)[%d]*(%s)[%d]", i ? " + " : "", a, a0 + i, b,
                b0 + i);
    fputc(')', f);
}

/* euler_flux(S, F, P, V): F[ndims][nvars], pressure P, velocity V. */
static void flux_body(FILE *f, int d)
{
    int e = d + 1;
    fprintf(f, "{\n    fpdtype_t ef_ir = 1/(S)[0];\n");
    for (int i = 0; i < d; i++)
        fprintf(f, "    (V)[%d] = ef_ir*(S)[%d];\n", i, i + 1);
    fprintf(f, "    (P) = (gamma - 1)*((S)[%d] - ((fpdtype_t)0.5)*ef_ir*", e);
    euler_dot(f, d, "S", 1, "S", 1);
    fprintf(f, ");\n");
    for (int i = 0; i < d; i++) {
        fprintf(f, "    (F)[%d][0] = (S)[%d];\n", i, i + 1);
        for (int j = 0; j < d; j++)
            fprintf(f, "    (F)[%d][%d] = (S)[%d]*(V)[%d]%s;\n", i, j + 1,
                    i + 1, j, i == j ? " + (P)" : "");
        fprintf(f, "    (F)[%d][%d] = ((S)[%d] + (P))*(V)[%d];\n", i, e, e,
                i);
    }
    fprintf(f, "}");
}

/* euler_nflux(S, N, FN, P, VN): the normal flux FN[nvars] = f(S).N,
 * the pressure P and the normal velocity VN: what a Riemann solver needs
 * of each side, without the full flux tensor. */
static void nflux_body(FILE *f, int d)
{
    int e = d + 1;
    fprintf(f, "{\n    fpdtype_t nf_ir = 1/(S)[0];\n    fpdtype_t nf_mn = ");
    euler_dot(f, d, "N", 0, "S", 1);
    fprintf(f, ";\n    (VN) = nf_ir*nf_mn;\n"
               "    (P) = (gamma - 1)*((S)[%d] - ((fpdtype_t)0.5)*nf_ir*", e);
    euler_dot(f, d, "S", 1, "S", 1);
    fprintf(f, ");\n    (FN)[0] = nf_mn;\n");
    for (int i = 0; i < d; i++)
        fprintf(f, "    (FN)[%d] = (S)[%d]*(VN) + (P)*(N)[%d];\n", i + 1,
                i + 1, i);
    fprintf(f, "    (FN)[%d] = ((S)[%d] + (P))*(VN);\n}", e, e);
}

/* Both sides' normal fluxes, pressures and normal velocities (locals
 * rf_*) of a Riemann solver. */
static void lr_fluxes(FILE *f, int d)
{
    int nv = d + 2;
    fprintf(f, "    fpdtype_t rf_fl[%d], rf_fr[%d], rf_pl, rf_pr, rf_vl, "
               "rf_vr;\n"
               "    euler_nflux(UL, N, rf_fl, rf_pl, rf_vl);\n"
               "    euler_nflux(UR, N, rf_fr, rf_pr, rf_vr);\n", nv, nv);
}

/* Rusanov (local Lax-Friedrichs), with PyFR's estimate of half the
 * fastest wave: sqrt(gamma (pl + pr)/(rhol + rhor))/2 + |n.(vl + vr)|/4,
 * so nf = n.(fl + fr)/2 + a (ul - ur). */
static void rusanov_body(FILE *f, int d)
{
    int nv = d + 2;
    fprintf(f, "{\n");
    lr_fluxes(f, d);
    fprintf(f, "    fpdtype_t rs_a = sqrt(((fpdtype_t)0.25)*gamma*"
               "(rf_pl + rf_pr)/((UL)[0] + (UR)[0])) "
               "+ ((fpdtype_t)0.25)*fabs(rf_vl + rf_vr);\n");
    for (int i = 0; i < nv; i++)
        fprintf(f, "    (NF)[%d] = ((fpdtype_t)0.5)*(rf_fl[%d] + rf_fr[%d]) "
                   "+ rs_a*((UL)[%d] - (UR)[%d]);\n", i, i, i, i, i);
    fprintf(f, "}");
}

/* HLLC (Toro, Spruce and Speares) with Einfeldt's wave speeds: the
 * least and greatest of each side's n.v -+ c and the Roe average's. A
 * stationary contact (n.v = 0 and equal pressures on both sides) gets
 * its exact flux. */
static void hllc_body(FILE *f, int d)
{
    int nv = d + 2, e = d + 1;
    fprintf(f, "{\n");
    lr_fluxes(f, d);
    fprintf(f, "    fpdtype_t hc_ql = sqrt((UL)[0]), hc_qr = sqrt((UR)[0]);\n"
               "    fpdtype_t hc_w = 1/(hc_ql + hc_qr);\n"
               "    fpdtype_t hc_v2 = 0;\n"
               "    for (int hc_i = 0; hc_i < %d; hc_i++) {\n"
               "        fpdtype_t hc_vi = hc_w*((UL)[hc_i + 1]/hc_ql + "
               "(UR)[hc_i + 1]/hc_qr);\n"
               "        hc_v2 += hc_vi*hc_vi;\n"
               "    }\n"
               "    fpdtype_t hc_vn = hc_w*(hc_ql*rf_vl + hc_qr*rf_vr);\n"
               "    fpdtype_t hc_H = hc_w*(((UL)[%d] + rf_pl)/hc_ql + "
               "((UR)[%d] + rf_pr)/hc_qr);\n"
               "    fpdtype_t hc_c = sqrt((gamma - 1)*(hc_H - "
               "((fpdtype_t)0.5)*hc_v2));\n"
               "    fpdtype_t hc_cl = sqrt(gamma*rf_pl/(UL)[0]);\n"
               "    fpdtype_t hc_cr = sqrt(gamma*rf_pr/(UR)[0]);\n"
               "    fpdtype_t hc_sl = fmin(rf_vl - hc_cl, hc_vn - hc_c);\n"
               "    fpdtype_t hc_sr = fmax(rf_vr + hc_cr, hc_vn + hc_c);\n"
               "    fpdtype_t hc_ml = (UL)[0]*(hc_sl - rf_vl);\n"
               "    fpdtype_t hc_mr = (UR)[0]*(hc_sr - rf_vr);\n"
               "    fpdtype_t hc_ss = (rf_pr - rf_pl + hc_ml*rf_vl - "
               "hc_mr*rf_vr)/(hc_ml - hc_mr);\n"
               "    fpdtype_t hc_rl = 1/(hc_sl - hc_ss), "
               "hc_rr = 1/(hc_sr - hc_ss);\n"
               "    fpdtype_t hc_pl = rf_pl + hc_ml*(hc_ss - rf_vl);\n"
               "    fpdtype_t hc_pr = rf_pr + hc_mr*(hc_ss - rf_vr);\n",
            d, e, e);
    for (int i = 0; i < nv; i++) {
        /* the star states' fluxes: D = (0, n, s*) */
        char dstar[32];
        if (i == 0)
            snprintf(dstar, sizeof dstar, "0");
        else if (i == e)
            snprintf(dstar, sizeof dstar, "hc_ss");
        else
            snprintf(dstar, sizeof dstar, "(N)[%d]", i - 1);
        fprintf(f, "    {\n"
                   "        fpdtype_t hc_fls = (hc_ss*(hc_sl*(UL)[%d] - "
                   "rf_fl[%d]) + hc_sl*hc_pl*%s)*hc_rl;\n"
                   "        fpdtype_t hc_frs = (hc_ss*(hc_sr*(UR)[%d] - "
                   "rf_fr[%d]) + hc_sr*hc_pr*%s)*hc_rr;\n"
                   "        (NF)[%d] = hc_sl >= 0 ? rf_fl[%d] : hc_ss >= 0 ? "
                   "hc_fls : hc_sr >= 0 ? hc_frs : rf_fr[%d];\n    }\n",
                i, i, dstar, i, i, dstar, i, i, i);
    }
    fprintf(f, "}");
}

/* euler_wavespeed(S, A): |v| + c. */
static void wavespeed_body(FILE *f, int d)
{
    fprintf(f, "{\n    fpdtype_t ws_ir = 1/(S)[0];\n"
               "    fpdtype_t ws_m2 = ws_ir*ws_ir*");
    euler_dot(f, d, "S", 1, "S", 1);
    fprintf(f, ";\n    fpdtype_t ws_p = (gamma - 1)*((S)[%d] - "
               "((fpdtype_t)0.5)*(S)[0]*ws_m2);\n"
               "    (A) = sqrt(ws_m2) + sqrt(gamma*ws_p*ws_ir);\n}", d + 1);
}

/* The free stream's velocity component i: the scalar bc_u, bc_v, bc_w. */
static const char *bc_vel(int i)
{
    static const char *const names[] = {"bc_u", "bc_v", "bc_w"};
    return names[i];
}

/* euler_bc_sup_in(UL, N, UR): the free stream. */
static void bc_sup_in(FILE *f, int d)
{
    fprintf(f, "{\n    (UR)[0] = bc_rho;\n");
    for (int i = 0; i < d; i++)
        fprintf(f, "    (UR)[%d] = bc_rho*%s;\n", i + 1, bc_vel(i));
    fprintf(f, "    (UR)[%d] = bc_p/(gamma - 1) + ((fpdtype_t)0.5)*bc_rho*(",
            d + 1);
    for (int i = 0; i < d; i++)
        fprintf(f, "%s%s*%s", i ? " + " : "", bc_vel(i), bc_vel(i));
    fprintf(f, ");\n}");
}

/* euler_bc_sup_out(UL, N, UR): the inside state. */
static void bc_sup_out(FILE *f, int d)
{
    fprintf(f, "{\n    for (int bc_i = 0; bc_i < %d; bc_i++)\n"
               "        (UR)[bc_i] = (UL)[bc_i];\n}", d + 2);
}

/* euler_bc_slip_wall(UL, N, UR): the normal momentum mirrored. */
static void bc_slip_wall(FILE *f, int d)
{
    fprintf(f, "{\n    fpdtype_t bc_mn = ");
    euler_dot(f, d, "UL", 1, "N", 0);
    fprintf(f, ";\n    (UR)[0] = (UL)[0];\n");
    for (int i = 0; i < d; i++)
        fprintf(f, "    (UR)[%d] = (UL)[%d] - 2*bc_mn*(N)[%d];\n", i + 1,
                i + 1, i);
    fprintf(f, "    (UR)[%d] = (UL)[%d];\n}", d + 1, d + 1);
}

/* euler_bc_char_riem(UL, N, UR): from the Riemann invariants
 * V -+ 2c/(gamma-1) along n, the outgoing one from inside and the
 * incoming one from the free stream (both from the upwind side where
 * the free stream is supersonic); entropy and tangential velocity from
 * the side the flow comes from. */
static void bc_char_riem(FILE *f, int d)
{
    int e = d + 1;
    fprintf(f, "{\n    fpdtype_t cr_g = 2/(gamma - 1);\n"
               "    fpdtype_t cr_cs = sqrt(gamma*bc_p/bc_rho);\n"
               "    fpdtype_t cr_ir = 1/(UL)[0];\n    fpdtype_t cr_ve = ");
    for (int i = 0; i < d; i++)
        fprintf(f, "%s%s*(N)[%d]", i ? " + " : "", bc_vel(i), i);
    fprintf(f, ";\n    fpdtype_t cr_vi = cr_ir*");
    euler_dot(f, d, "UL", 1, "N", 0);
    fprintf(f, ";\n    fpdtype_t cr_pi = (gamma - 1)*((UL)[%d] - "
               "((fpdtype_t)0.5)*cr_ir*", e);
    euler_dot(f, d, "UL", 1, "UL", 1);
    fprintf(f, ");\n"
               "    fpdtype_t cr_ci = sqrt(gamma*cr_pi*cr_ir);\n"
               "    int cr_sup = fabs(cr_ve) >= cr_cs;\n"
               "    fpdtype_t cr_re = cr_sup && cr_vi >= 0 ? "
               "cr_vi - cr_g*cr_ci : cr_ve - cr_g*cr_cs;\n"
               "    fpdtype_t cr_ri = cr_sup && cr_vi < 0 ? "
               "cr_ve + cr_g*cr_cs : cr_vi + cr_g*cr_ci;\n"
               "    fpdtype_t cr_vb = ((fpdtype_t)0.5)*(cr_re + cr_ri);\n"
               "    fpdtype_t cr_cb = ((fpdtype_t)0.25)*(gamma - 1)*"
               "(cr_ri - cr_re);\n"
               "    fpdtype_t cr_rb = cr_vi < 0\n"
               "        ? pow(cr_cb*cr_cb*pow(bc_rho, gamma)/(gamma*bc_p), "
               "1/(gamma - 1))\n"
               "        : (UL)[0]*pow((UL)[0]*cr_cb*cr_cb/(gamma*cr_pi), "
               "1/(gamma - 1));\n"
               "    fpdtype_t cr_pb = cr_rb*cr_cb*cr_cb/gamma;\n"
               "    (UR)[0] = cr_rb;\n");
    for (int i = 0; i < d; i++)
        fprintf(f, "    (UR)[%d] = cr_vi >= 0 ? cr_rb*((UL)[%d]*cr_ir + "
                   "(cr_vb - cr_vi)*(N)[%d]) : cr_rb*(%s + "
                   "(cr_vb - cr_ve)*(N)[%d]);\n",
                i + 1, i + 1, i, bc_vel(i), i);
    fprintf(f, "    (UR)[%d] = cr_pb/(gamma - 1) + ((fpdtype_t)0.5)*", e);
    euler_dot(f, d, "UR", 1, "UR", 1);
    fprintf(f, "/cr_rb;\n}");
}

/* ------------------------------------------------------------ assembly */

char *euler_macro_text(void (*write)(FILE *, int), int ndims)
{
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    if (!f)
        return NULL;
    write(f, ndims);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        free(s);
        return NULL;
    }
    return s;
}

static char *dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

static const struct {
    const char *name, *params;
    void (*write)(FILE *, int);
} macro_list[] = {
    {"euler_flux", "S, F, P, V", flux_body},
    {"euler_nflux", "S, N, FN, P, VN", nflux_body},
    {"euler_rusanov", "UL, UR, N, NF", rusanov_body},
    {"euler_hllc", "UL, UR, N, NF", hllc_body},
    {"euler_wavespeed", "S, A", wavespeed_body},
    {"euler_bc_sup_in", "UL, N, UR", bc_sup_in},
    {"euler_bc_sup_out", "UL, N, UR", bc_sup_out},
    {"euler_bc_slip_wall", "UL, N, UR", bc_slip_wall},
    {"euler_bc_char_riem", "UL, N, UR", bc_char_riem},
};
#define NMACROS (sizeof macro_list / sizeof macro_list[0])

int euler_macros(int ndims, frx_kernel_macro **out, size_t *n)
{
    if (ndims != 2 && ndims != 3)
        return frx_error(FRX_EINVAL, "euler: ndims must be 2 or 3, got %d",
                         ndims);
    frx_kernel_macro *m = calloc(NMACROS, sizeof *m);
    int ok = m != NULL;
    for (size_t i = 0; i < NMACROS && ok; i++) {
        m[i].name = dup(macro_list[i].name);
        m[i].params = dup(macro_list[i].params);
        m[i].body = euler_macro_text(macro_list[i].write, ndims);
        ok = m[i].name && m[i].params && m[i].body;
    }
    if (!ok) {
        euler_macros_free(m, m ? NMACROS : 0);
        return frx_error(FRX_ENOMEM, "euler: out of memory writing the "
                         "physics' kernel macros");
    }
    *out = m;
    *n = NMACROS;
    return FRX_OK;
}

void euler_macros_free(frx_kernel_macro *m, size_t n)
{
    for (size_t i = 0; m && i < n; i++) {
        free((char *)m[i].name);
        free((char *)m[i].params);
        free((char *)m[i].body);
    }
    free(m);
}
