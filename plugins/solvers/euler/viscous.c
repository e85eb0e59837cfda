/* SPDX-License-Identifier: BSD-3-Clause */
/* The Navier-Stokes equations' viscous terms and boundary states as frx
 * kernel macros (viscous.h), written out for one ndims like physics.c's;
 * the formulas are PyFR 1.15's (navstokes/kernels/flux.mako, bcs/), so
 * that frx and PyFR compute the same numbers. */
#include "viscous.h"

#include "physics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* (a[a0]*a[a0] + ...), d terms. */
static void sq(FILE *f, int d, const char *a, int a0)
{
    euler_dot(f, d, a, a0, a, a0);
}

/* MU = the viscosity at state S (into a local named mu_var). */
static void mu_code(FILE *f, int d, int sutherland, const char *mu_var)
{
    if (!sutherland) {
        fprintf(f, "    fpdtype_t %s = mu;\n", mu_var);
        return;
    }
    /* Sutherland's law in cp T: mu (T/Tref)^(3/2) (Tref + Ts)/(T + Ts) */
    fprintf(f, "    fpdtype_t %s;\n    {\n"
               "        fpdtype_t sl_ir = 1/(S)[0];\n"
               "        fpdtype_t sl_cpT = gamma*(sl_ir*(S)[%d] - "
               "((fpdtype_t)0.5)*sl_ir*sl_ir*", mu_var, d + 1);
    sq(f, d, "S", 1);
    fprintf(f, ");\n        fpdtype_t sl_tr = sl_cpT/cpTref;\n"
               "        %s = mu*(cpTref + cpTs)*sl_tr*sqrt(sl_tr)/"
               "(sl_cpT + cpTs);\n    }\n", mu_var);
}

/* ns_vflux(S, G, F): the negated stress and heat flux added to F. */
static void vflux_body(FILE *f, int d, int sutherland)
{
    int e = d + 1;
    fprintf(f, "{\n    fpdtype_t vf_ir = 1/(S)[0];\n"
               "    fpdtype_t vf_v[%d], vf_dv[%d][%d];\n", d, d, d);
    for (int j = 0; j < d; j++)
        fprintf(f, "    vf_v[%d] = vf_ir*(S)[%d];\n", j, j + 1);
    /* dv_j/dx_i from the gradient of the momentum and the density */
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++)
            fprintf(f, "    vf_dv[%d][%d] = vf_ir*((G)[%d][%d] - "
                       "vf_v[%d]*(G)[%d][0]);\n", i, j, i, j + 1, j, i);
    mu_code(f, d, sutherland, "vf_mu");
    fprintf(f, "    fpdtype_t vf_div = ");
    for (int i = 0; i < d; i++)
        fprintf(f, "%svf_dv[%d][%d]", i ? " + " : "", i, i);
    fprintf(f, ";\n");
    for (int i = 0; i < d; i++) {
        /* d(cv T)/dx_i = (dE/dx_i - E/rho drho/dx_i)/rho - v.dv/dx_i */
        fprintf(f, "    {\n        fpdtype_t vf_de = vf_ir*((G)[%d][%d] - "
                   "vf_ir*(S)[%d]*(G)[%d][0])", i, e, e, i);
        for (int j = 0; j < d; j++)
            fprintf(f, " - vf_v[%d]*vf_dv[%d][%d]", j, i, j);
        fprintf(f, ";\n        fpdtype_t vf_q = -vf_mu*gamma/Pr*vf_de;\n");
        for (int j = 0; j < d; j++) {
            fprintf(f, "        fpdtype_t vf_t%d = -vf_mu*(vf_dv[%d][%d] + "
                       "vf_dv[%d][%d]", j, i, j, j, i);
            if (i == j)
                fprintf(f, " - ((fpdtype_t)2)/3*vf_div");
            fprintf(f, ");\n        (F)[%d][%d] += vf_t%d;\n", i, j + 1, j);
            fprintf(f, "        vf_q += vf_v[%d]*vf_t%d;\n", j, j);
        }
        fprintf(f, "        (F)[%d][%d] += vf_q;\n    }\n", i, e);
    }
    fprintf(f, "}");
}

static void vflux_const(FILE *f, int d) { vflux_body(f, d, 0); }
static void vflux_suth(FILE *f, int d) { vflux_body(f, d, 1); }

/* ns_diffusivity(S, NU): the larger of the momentum's and the heat's. */
static void diffusivity_body(FILE *f, int d, int sutherland)
{
    fprintf(f, "{\n");
    mu_code(f, d, sutherland, "df_mu");
    fprintf(f, "    (NU) = df_mu/(S)[0]*fmax((fpdtype_t)1, gamma/Pr);\n}");
}

static void diffusivity_const(FILE *f, int d) { diffusivity_body(f, d, 0); }
static void diffusivity_suth(FILE *f, int d) { diffusivity_body(f, d, 1); }

static const char *bc_vel(int i)
{
    static const char *const names[] = {"bc_u", "bc_v", "bc_w"};
    return names[i];
}

/* E = cpTw/gamma rho + |m|^2/(2 rho) of UR, whose rho and m are set. */
static void isot_energy(FILE *f, int d)
{
    fprintf(f, "    (UR)[%d] = bc_cpTw/gamma*(UR)[0] + "
               "((fpdtype_t)0.5)/(UR)[0]*", d + 1);
    sq(f, d, "UR", 1);
    fprintf(f, ";\n");
}

/* ns_bc_isot_wall(UL, N, UR): the velocity mirrored about the wall's. */
static void isot_wall(FILE *f, int d)
{
    fprintf(f, "{\n    (UR)[0] = (UL)[0];\n");
    for (int i = 0; i < d; i++)
        fprintf(f, "    (UR)[%d] = -(UL)[%d] + 2*%s*(UL)[0];\n", i + 1,
                i + 1, bc_vel(i));
    isot_energy(f, d);
    fprintf(f, "}");
}

/* ns_ldg_isot_wall(UL, N, UR): the wall's velocity and temperature. */
static void isot_wall_ldg(FILE *f, int d)
{
    fprintf(f, "{\n    (UR)[0] = (UL)[0];\n");
    for (int i = 0; i < d; i++)
        fprintf(f, "    (UR)[%d] = %s*(UL)[0];\n", i + 1, bc_vel(i));
    isot_energy(f, d);
    fprintf(f, "}");
}

/* ns_bc_adia_wall(UL, N, UR): the momentum reversed. */
static void adia_wall(FILE *f, int d)
{
    fprintf(f, "{\n    (UR)[0] = (UL)[0];\n");
    for (int i = 0; i < d; i++)
        fprintf(f, "    (UR)[%d] = -(UL)[%d];\n", i + 1, i + 1);
    fprintf(f, "    (UR)[%d] = (UL)[%d];\n}", d + 1, d + 1);
}

/* ns_ldg_adia_wall(UL, N, UR): at rest, the inside's internal energy. */
static void adia_wall_ldg(FILE *f, int d)
{
    fprintf(f, "{\n    (UR)[0] = (UL)[0];\n");
    for (int i = 0; i < d; i++)
        fprintf(f, "    (UR)[%d] = 0;\n", i + 1);
    fprintf(f, "    (UR)[%d] = (UL)[%d] - ((fpdtype_t)0.5)/(UL)[0]*", d + 1,
            d + 1);
    sq(f, d, "UL", 1);
    fprintf(f, ";\n}");
}

/* ns_grad_adia_wall(UL, N, GL, GR): GR holds GL; the normal part of the
 * temperature's gradient (in rho cv T) taken off: no heat through it. */
static void adia_wall_grad(FILE *f, int d)
{
    int e = d + 1;
    fprintf(f, "{\n    fpdtype_t aw_ir = 1/(UL)[0];\n"
               "    fpdtype_t aw_t[%d];\n", d);
    for (int i = 0; i < d; i++) {
        fprintf(f, "    aw_t[%d] = (GL)[%d][%d] - aw_ir*(GL)[%d][0]*(UL)[%d]",
                i, i, e, i, e);
        /* - sum_j v_j rho dv_j/dx_i, rho dv_j/dx_i = G_ij - v_j G_i0 */
        for (int j = 0; j < d; j++)
            fprintf(f, " - aw_ir*(UL)[%d]*((GL)[%d][%d] - aw_ir*(UL)[%d]*"
                       "(GL)[%d][0])", j + 1, i, j + 1, j + 1, i);
        fprintf(f, ";\n");
    }
    for (int i = 0; i < d; i++) {
        fprintf(f, "    (GR)[%d][%d] -= ", i, e);
        for (int j = 0; j < d; j++)
            fprintf(f, "%s(N)[%d]*(N)[%d]*aw_t[%d]", j ? " + " : "", i, j, j);
        fprintf(f, ";\n");
    }
    fprintf(f, "}");
}

/* ns_bc_sub_in_frv(UL, N, UR): density and velocity given, the
 * inside's internal energy. */
static void sub_in_frv(FILE *f, int d)
{
    fprintf(f, "{\n    (UR)[0] = bc_rho;\n");
    for (int i = 0; i < d; i++)
        fprintf(f, "    (UR)[%d] = bc_rho*%s;\n", i + 1, bc_vel(i));
    fprintf(f, "    (UR)[%d] = (UL)[%d] - ((fpdtype_t)0.5)/(UL)[0]*", d + 1,
            d + 1);
    sq(f, d, "UL", 1);
    fprintf(f, " + ((fpdtype_t)0.5)/(UR)[0]*");
    sq(f, d, "UR", 1);
    fprintf(f, ";\n}");
}

/* ns_bc_sub_in_ftpttang(UL, N, UR): total pressure bc_pt and
 * temperature bc_cpTt, the flow's direction at bc_theta degrees from x
 * (3-D: and bc_phi from z), the inside's static pressure. */
static void sub_in_ftpttang(FILE *f, int d)
{
    fprintf(f, "{\n    fpdtype_t ft_rd = (gamma - 1)/gamma;\n"
               "    fpdtype_t ft_pl = (gamma - 1)*((UL)[%d] - "
               "((fpdtype_t)0.5)/(UL)[0]*", d + 1);
    sq(f, d, "UL", 1);
    fprintf(f, ");\n    fpdtype_t ft_q = 2*bc_cpTt*(1 - pow(bc_pt, -ft_rd)*"
               "pow(ft_pl, ft_rd));\n"
               "    fpdtype_t ft_th = bc_theta*(fpdtype_t)%.17g;\n",
            3.14159265358979323846 / 180);
    if (d == 3)
        fprintf(f, "    fpdtype_t ft_ph = bc_phi*(fpdtype_t)%.17g;\n",
                3.14159265358979323846 / 180);
    fprintf(f, "    (UR)[0] = ft_pl/(ft_rd*(bc_cpTt - "
               "((fpdtype_t)0.5)*ft_q));\n"
               "    fpdtype_t ft_s = (UR)[0]*sqrt(ft_q);\n");
    if (d == 2)
        fprintf(f, "    (UR)[1] = cos(ft_th)*ft_s;\n"
                   "    (UR)[2] = sin(ft_th)*ft_s;\n");
    else
        fprintf(f, "    (UR)[1] = cos(ft_th)*sin(ft_ph)*ft_s;\n"
                   "    (UR)[2] = sin(ft_th)*sin(ft_ph)*ft_s;\n"
                   "    (UR)[3] = cos(ft_ph)*ft_s;\n");
    fprintf(f, "    (UR)[%d] = ft_pl/(gamma - 1) + "
               "((fpdtype_t)0.5)*(UR)[0]*ft_q;\n}", d + 1);
}

/* ns_bc_sub_out_fp(UL, N, UR): the pressure bc_p, the rest inside's. */
static void sub_out_fp(FILE *f, int d)
{
    fprintf(f, "{\n");
    for (int i = 0; i <= d; i++)
        fprintf(f, "    (UR)[%d] = (UL)[%d];\n", i, i);
    fprintf(f, "    (UR)[%d] = bc_p/(gamma - 1) + ((fpdtype_t)0.5)/(UL)[0]*",
            d + 1);
    sq(f, d, "UL", 1);
    fprintf(f, ";\n}");
}

static const struct {
    const char *name, *params;
    void (*write)(FILE *, int);     /* constant viscosity, or every law */
    void (*write_suth)(FILE *, int); /* Sutherland's, where it differs */
} macro_list[] = {
    {"ns_vflux", "S, G, F", vflux_const, vflux_suth},
    {"ns_diffusivity", "S, NU", diffusivity_const, diffusivity_suth},
    {"ns_bc_isot_wall", "UL, N, UR", isot_wall, NULL},
    {"ns_ldg_isot_wall", "UL, N, UR", isot_wall_ldg, NULL},
    {"ns_bc_adia_wall", "UL, N, UR", adia_wall, NULL},
    {"ns_ldg_adia_wall", "UL, N, UR", adia_wall_ldg, NULL},
    {"ns_grad_adia_wall", "UL, N, GL, GR", adia_wall_grad, NULL},
    {"ns_bc_sub_in_frv", "UL, N, UR", sub_in_frv, NULL},
    {"ns_bc_sub_in_ftpttang", "UL, N, UR", sub_in_ftpttang, NULL},
    {"ns_bc_sub_out_fp", "UL, N, UR", sub_out_fp, NULL},
};
#define NMACROS (sizeof macro_list / sizeof macro_list[0])

int ns_macros(int ndims, int sutherland, frx_kernel_macro **m, size_t *n)
{
    frx_kernel_macro *v = realloc(*m, (*n + NMACROS) * sizeof *v);
    if (!v)
        return frx_error(FRX_ENOMEM, "navier-stokes: out of memory");
    *m = v;
    int ok = 1;
    for (size_t i = 0; i < NMACROS && ok; i++) {
        frx_kernel_macro *k = &v[(*n)++];
        void (*w)(FILE *, int) = sutherland && macro_list[i].write_suth
                                     ? macro_list[i].write_suth
                                     : macro_list[i].write;
        k->name = strdup(macro_list[i].name);
        k->params = strdup(macro_list[i].params);
        k->body = euler_macro_text(w, ndims);
        ok = k->name && k->params && k->body;
    }
    return ok ? FRX_OK
              : frx_error(FRX_ENOMEM, "navier-stokes: out of memory writing "
                          "the viscous kernel macros");
}

int ns_constants(const frx_cfgnode *opts, const fr_expr_consts *c,
                 int sutherland, fr_const *out, size_t *n)
{
    static const char *const names[] = {"mu", "Pr", "cpTref", "cpTs"};
    static const char *const what[] = {
        "the dynamic viscosity; with Sutherland's law, at cpT = cpTref",
        "the Prandtl number", "Sutherland's reference cp T",
        "Sutherland's constant times cp"};
    size_t need = sutherland ? 4 : 2;
    char at[512] = "";
    const frx_cfgnode *cn = frx_cfg_get(opts, "constants");
    if (cn)
        fr_cfg_place(cn, at, sizeof at);
    *n = 1; /* out[0] is gamma */
    for (size_t i = 0; i < need; i++) {
        double v;
        if (fr_expr_consts_get(c, names[i], &v) != FRX_OK)
            return frx_error(FRX_ECONFIG, "%s%s'solver.constants' needs %s "
                             "(%s)%s", at, *at ? ": " : "", names[i],
                             what[i],
                             i >= 2 ? " for viscosity-correction: "
                                      "sutherland"
                                    : "");
        if (!(v > 0))
            return frx_error(FRX_ECONFIG, "%s%s'solver.constants.%s' (%s) "
                             "must be positive, got %g", at, *at ? ": " : "",
                             names[i], what[i], v);
        out[(*n)++] = (fr_const){names[i], v};
    }
    return FRX_OK;
}
