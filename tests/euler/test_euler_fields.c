/* SPDX-License-Identifier: BSD-3-Clause */
/* The Euler solver's fields from a case (plugins/solvers/euler/
 * fields.c): PyFR's vortex written as expressions gives the conserved
 * variables of the vortex in plain C, at t = 0 and carried to t; bad
 * cases are refused at their YAML place. */
#include "fields.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char vortex[] =
    "solver:\n"
    "  constants: {gamma: 1.4, S: 13.5, M: 0.4, R: 1.5,\n"
    "              A: S*S*M*M*(gamma - 1)/(8*pi*pi), B: S/(2*pi*R),\n"
    "              k: 1/(2*R*R)}\n"
    "  ics:\n"
    "    rho: (1 - A*exp(2*k*(1 - x*x - y*y)))^(1/(gamma - 1))\n"
    "    u: B*y*exp(k*(1 - x*x - y*y))\n"
    "    v: 1 - B*x*exp(k*(1 - x*x - y*y))\n"
    "    p: (1 - A*exp(2*k*(1 - x*x - y*y)))^(gamma/(gamma - 1))"
    "/(gamma*M*M)\n"
    "  exact:\n"
    "    rho: (1 - A*exp(2*k*(1 - x*x - (y - t)*(y - t))))^(1/(gamma - 1))\n"
    "    u: B*(y - t)*exp(k*(1 - x*x - (y - t)*(y - t)))\n"
    "    v: 1 - B*x*exp(k*(1 - x*x - (y - t)*(y - t)))\n"
    "    p: (1 - A*exp(2*k*(1 - x*x - (y - t)*(y - t))))^(gamma/(gamma - 1))"
    "/(gamma*M*M)\n";

/* PyFR's [soln-ics] of euler-vortex.ini, conserved. */
static void pyfr_vortex(double x, double y, double *q)
{
    const double S = 13.5, M = 0.4, R = 1.5, g = 1.4, pi = M_PI;
    double f = (1 - x * x - y * y) / (2 * R * R);
    double b = 1 - S * S * M * M * (g - 1) * exp(2 * f) / (8 * pi * pi);
    double rho = pow(b, 1 / (g - 1));
    double u = S * y * exp(f) / (2 * pi * R);
    double v = 1 - S * x * exp(f) / (2 * pi * R);
    double p = 1 / (g * M * M) * pow(b, g / (g - 1));
    q[0] = rho;
    q[1] = rho * u;
    q[2] = rho * v;
    q[3] = p / (g - 1) + 0.5 * rho * (u * u + v * v);
}

static frx_config *cfg;

static int fields_of(const char *text, euler_fields **f)
{
    frx_config_free(cfg);
    cfg = NULL;
    ck_assert_msg(frx_config_parse(text, strlen(text), "case.yaml", &cfg) ==
                  FRX_OK, "%s", frx_errmsg());
    const frx_cfgnode *opts = frx_cfg_get(frx_config_root(cfg), "solver");
    return euler_fields_create(opts, 2, f);
}

START_TEST(vortex_as_pyfr)
{
    euler_fields *f;
    ck_assert_msg(fields_of(vortex, &f) == FRX_OK, "%s", frx_errmsg());
    ck_assert(fabs(euler_fields_gamma(f) - 1.4) == 0);
    ck_assert(euler_fields_has_exact(f));
    double xyz[2 * 50], q[4 * 50], want[4];
    for (int i = 0; i < 50; i++) {
        xyz[2 * i] = -3 + 0.13 * i;
        xyz[2 * i + 1] = 2.5 - 0.11 * i;
    }
    ck_assert_int_eq(euler_fields_initial(f, 0, 50, xyz, q), FRX_OK);
    for (int i = 0; i < 50; i++) {
        pyfr_vortex(xyz[2 * i], xyz[2 * i + 1], want);
        for (int c = 0; c < 4; c++)
            ck_assert_msg(fabs(q[4 * i + c] - want[c]) <=
                          1e-13 * fmax(1, fabs(want[c])),
                          "ics at point %d, var %d: %.17g vs %.17g", i, c,
                          q[4 * i + c], want[c]);
    }
    /* carried by (0, 1) for t = 0.7 */
    ck_assert_int_eq(euler_fields_exact(f, 0.7, 50, xyz, q), FRX_OK);
    for (int i = 0; i < 50; i++) {
        pyfr_vortex(xyz[2 * i], xyz[2 * i + 1] - 0.7, want);
        for (int c = 0; c < 4; c++)
            ck_assert_msg(fabs(q[4 * i + c] - want[c]) <=
                          1e-13 * fmax(1, fabs(want[c])),
                          "exact at point %d, var %d", i, c);
    }
    euler_fields_destroy(f);
}
END_TEST

/* Each bad case: its error code and a piece of its message. */
START_TEST(bad_cases_refused)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"solver:\n  constants: {S: 1}\n  ics: {rho: 1, u: 0, v: 0, p: 1}\n",
         "case.yaml:2:14: 'solver.constants' needs gamma"},
        {"solver:\n  constants: {gamma: 0.9}\n"
         "  ics: {rho: 1, u: 0, v: 0, p: 1}\n",
         "'solver.constants.gamma' must be greater than 1"},
        {"solver:\n  constants: {gamma: 1.4}\n"
         "  ics: {rho: 1, u: 0, v: 0, P: 1}\n",
         "case.yaml:3:29: unknown key 'P' in 'solver.ics'"},
        {"solver:\n  constants: {gamma: 1.4}\n  ics: {rho: 1, u: 0, v: 0}\n",
         "missing key 'p' in 'solver.ics'"},
        {"solver:\n  constants: {gamma: 1.4}\n  ics: 3\n",
         "'solver.ics' must be a mapping"},
        {"solver:\n  constants: {gamma: 1.4}\n"
         "  ics: {rho: 1, u: 0, v: 0, p: 1 +* x}\n",
         "solver.ics.p"},
        {"solver:\n  constants: {gamma: 1.4}\n"
         "  ics: {rho: 1, u: t, v: 0, p: 1}\n",
         "solver.ics.u"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        euler_fields *f = NULL;
        int rc = fields_of(bad[i].text, &f);
        ck_assert_msg(rc == FRX_ECONFIG, "case %zu: %d (%s)", i, rc,
                      frx_errmsg());
        ck_assert_msg(strstr(frx_errmsg(), bad[i].msg), "case %zu: '%s' "
                      "lacks '%s'", i, frx_errmsg(), bad[i].msg);
        euler_fields_destroy(f);
    }
    /* a negative density at a point */
    euler_fields *f;
    ck_assert_int_eq(fields_of("solver:\n  constants: {gamma: 1.4}\n"
                               "  ics: {rho: x, u: 0, v: 0, p: 1}\n", &f),
                     FRX_OK);
    double xyz[4] = {1, 0, -2, 5}, q[8];
    ck_assert_int_eq(euler_fields_initial(f, 0, 2, xyz, q), FRX_ERANGE);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "case.yaml:3:8: solver.ics at (-2, 5) gives rho = -2"));
    ck_assert_int_eq(euler_fields_exact(f, 0, 2, xyz, q), FRX_ENOTSUP);
    euler_fields_destroy(f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("euler-fields");
    TCase *tc = tcase_create("fields");
    tcase_add_test(tc, vortex_as_pyfr);
    tcase_add_test(tc, bad_cases_refused);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    frx_config_free(cfg);
    return failed ? 1 : 0;
}
