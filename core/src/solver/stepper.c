/* SPDX-License-Identifier: BSD-3-Clause */
/* Explicit time schemes over registers of the solution: classic RK4,
 * SSP-RK3 (Shu-Osher) and RK45, the 2R low-storage embedded pair of
 * Kennedy, Carpenter and Lewis (2000) that PyFR calls rk45, with its
 * error estimate. Every update is a fused linear combination (lincomb.c)
 * and every f = R(u) an RHS graph whose f never aliases its u (one more
 * register than PyFR's in-place RHS needs, in exchange for solvers that
 * need not care). */
#include "solver/solver-impl.h"

#include <math.h>
#include <stdio.h>

#define TRY(x)                                                             \
    do {                                                                   \
        int rc_ = (x);                                                     \
        if (rc_)                                                           \
            return rc_;                                                    \
    } while (0)

/* out = a*out + c1*in1 (+ c2*in2) */
static int lc1(frx_solver *s, int out, double a, int in1, double c1)
{
    return frx__lincomb(s, out, a, 1, (const int[]){in1},
                        (const double[]){c1});
}

static int lc2(frx_solver *s, int out, double a, int in1, double c1,
               int in2, double c2)
{
    return frx__lincomb(s, out, a, 2, (const int[]){in1, in2},
                        (const double[]){c1, c2});
}

int frx__scheme_nregs(int scheme)
{
    return scheme == FRX__RK4 ? 4 : scheme == FRX__SSPRK3 ? 3 : 5;
}

int frx__scheme_order(int scheme) { return scheme == FRX__SSPRK3 ? 3 : 4; }

const char *frx__scheme_name(int scheme)
{
    static const char *const names[] = {"rk4", "ssp-rk3", "rk45"};
    return scheme >= 0 && scheme < 3 ? names[scheme] : "?";
}

int frx__scheme_nstages(int scheme)
{
    return scheme == FRX__RK4 ? 4 : scheme == FRX__SSPRK3 ? 3 : 5;
}

/* out = a*out + c1*in1 + c2*in2 and out2 = d1*in1 + d2*in2, one pass */
static int pair2(frx_solver *s, int out, double a, double c1, double c2,
                 int out2, double d1, double d2, int in1, int in2)
{
    return frx__lincomb_pair(s, out, a, (const double[]){c1, c2}, out2,
                             (const double[]){d1, d2}, 2,
                             (const int[]){in1, in2});
}

/* Registers: u and the accumulator swap between 0 and 1 each step; 2 is
 * the stage value, 3 the RHS. After each of the first three RHS, the
 * sum and the next stage are updated in one pass (f read once). */
static int rk4(frx_solver *s, double dt)
{
    double t = s->t;
    int a = s->ucur, b = 1 - a, y = 2, f = 3;
    TRY(frx__rhs(s, t, a, f));                      /* k1 */
    TRY(pair2(s, b, 0, 1, dt / 6, y, 1, dt / 2, a, f));
    TRY(frx__rhs(s, t + dt / 2, y, f));             /* k2 */
    TRY(pair2(s, b, 1, 0, dt / 3, y, 1, dt / 2, a, f));
    TRY(frx__rhs(s, t + dt / 2, y, f));             /* k3 */
    TRY(pair2(s, b, 1, 0, dt / 3, y, 1, dt, a, f));
    TRY(frx__rhs(s, t + dt, y, f));                 /* k4 */
    TRY(lc1(s, b, 1, f, dt / 6));
    s->ucur = b;
    return FRX_OK;
}

/* Registers: u in 0, the stage in 1, the RHS in 2. */
static int ssprk3(frx_solver *s, double dt)
{
    double t = s->t;
    TRY(frx__rhs(s, t, 0, 2));
    TRY(lc2(s, 1, 0, 0, 1, 2, dt));
    TRY(frx__rhs(s, t + dt, 1, 2));
    TRY(lc2(s, 1, 0.25, 0, 0.75, 2, 0.25 * dt));
    TRY(frx__rhs(s, t + dt / 2, 1, 2));
    TRY(lc2(s, 0, 1.0 / 3, 1, 2.0 / 3, 2, 2.0 / 3 * dt));
    return FRX_OK;
}

/* RK4(3)5[2R+]C: a (sub-diagonal), b (weights), bhat (the embedded
 * third-order weights). */
static const double rk45_a[4] = {
    970286171893.0 / 4311952581923.0, 6584761158862.0 / 12103376702013.0,
    2251764453980.0 / 15575788980749.0, 26877169314380.0 / 34165994151039.0};
static const double rk45_b[5] = {
    1153189308089.0 / 22510343858157.0, 1772645290293.0 / 4653164025191.0,
    -1672844663538.0 / 4480602732383.0, 2114624349019.0 / 3568978502595.0,
    5198255086312.0 / 14908931495163.0};
static const double rk45_bhat[5] = {
    1016888040809.0 / 7410784769900.0, 11231460423587.0 / 58533540763752.0,
    -1563879915014.0 / 6823010717585.0, 606302364029.0 / 971179775848.0,
    1097981568119.0 / 3980877426909.0};

enum { RK45_F = 2, RK45_OLD = 3, RK45_ERR = 4 };

/* The error norm's kernel, one per block (u is always in register 0). */
static int make_errest(frx_solver *s)
{
    size_t nv = s->info.nvars;
    char name[64], args[512], body[512];
    snprintf(name, sizeof name, "errest_%zu", nv);
    snprintf(args, sizeof args, "in fpdtype_t[%zu] e, in fpdtype_t[%zu] un, "
             "in fpdtype_t[%zu] uo, scalar fpdtype_t atol, scalar fpdtype_t "
             "rtol, out reduce(sum) fpdtype_t s", nv, nv, nv);
    snprintf(body, sizeof body, "for (int v = 0; v < %zu; v++) {\n"
             "    fpdtype_t m = fabs(un[v]) > fabs(uo[v]) ? fabs(un[v]) : "
             "fabs(uo[v]);\n"
             "    fpdtype_t q = e[v]/(atol + rtol*m);\n"
             "    s += q*q;\n}", nv);
    TRY(frx__core_kernel(s, name, args, body, 2));
    if (!(s->errest = frx__calloc(s->info.nblocks, sizeof *s->errest,
                                  "error kernels")))
        return FRX_ENOMEM;
    for (size_t b = 0; b < s->info.nblocks; b++) {
        frx_arg a[] = {frx_arg_matrix(s->reg[RK45_ERR][b]),
                       frx_arg_matrix(s->reg[0][b]),
                       frx_arg_matrix(s->reg[RK45_OLD][b]),
                       frx_arg_scalar(s->set.atol),
                       frx_arg_scalar(s->set.rtol), frx_arg_reduce()};
        const char *old = frx__kernel_ns_set(s->be, "frx");
        int rc = frx_kernel_create(s->be, name, s->blocks[b].nupts,
                                   s->blocks[b].neles, a, 6, &s->errest[b]);
        frx__kernel_ns_set(s->be, old);
        TRY(rc);
    }
    return FRX_OK;
}

/* Registers: r1 and r2 (0 and 1) swap at every stage; the RHS in 2,
 * the solution before the step in 3, the error in 4. r1 holds the sum
 * of the weighted stages so far, r2 the next stage's value. */
/* The time of stage i: its value is u + dt*(sum_{j<i-1} b_j F_j +
 * a_{i-1} F_{i-1}). */
static double rk45_c(int i)
{
    double c = i ? rk45_a[i - 1] : 0;
    for (int j = 0; j < i - 1; j++)
        c += rk45_b[j];
    return c;
}

static int rk45(frx_solver *s, double dt)
{
    double t = s->t;
    int r1 = s->ucur, r2 = 1 - r1, tmp;
    for (int i = 0; i < 5; i++) {
        TRY(frx__rhs(s, t + rk45_c(i) * dt, i ? r2 : r1, RK45_F));
        if (i == 0)
            TRY(lc1(s, RK45_OLD, 0, r1, 1));
        TRY(lc1(s, RK45_ERR, i ? 1 : 0, RK45_F,
                dt * (rk45_b[i] - rk45_bhat[i])));
        if (i < 4) {
            TRY(lc2(s, r2, 0, r1, 1, RK45_F, dt * rk45_b[i]));
            TRY(lc1(s, r1, 1, RK45_F, dt * rk45_a[i]));
        } else {
            TRY(lc1(s, r1, 1, RK45_F, dt * rk45_b[i]));
        }
        tmp = r1, r1 = r2, r2 = tmp;
    }
    s->ucur = r2; /* the register it started in: the swaps pair up */
    if (s->dry) { /* what the controller will need */
        TRY(lc1(s, s->ucur, 0, RK45_OLD, 1));
        if (!s->errest)
            TRY(make_errest(s));
    }
    return FRX_OK;
}

int frx__scheme_step(frx_solver *s, double dt)
{
    switch (s->set.scheme) {
    case FRX__RK4: return rk4(s, dt);
    case FRX__SSPRK3: return ssprk3(s, dt);
    default: return rk45(s, dt);
    }
}

int frx__scheme_error(frx_solver *s, double *err)
{
    double local = 0, sum;
    for (size_t b = 0; b < s->info.nblocks; b++) {
        double x;
        TRY(frx_kernel_run(s->errest[b]));
        TRY(frx_kernel_result(s->errest[b], "s", &x, 1));
        local += x;
    }
    if (MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, s->mpi) !=
        MPI_SUCCESS)
        return frx_error(FRX_EMPI, "rk45: MPI_Allreduce of the error "
                         "failed");
    *err = sqrt(sum / (double)s->ndofs);
    if (isnan(*err)) /* a step that blew up: reject it, as PyFR does */
        *err = 100;
    return FRX_OK;
}

int frx__scheme_undo(frx_solver *s)
{
    return lc1(s, s->ucur, 0, RK45_OLD, 1);
}
