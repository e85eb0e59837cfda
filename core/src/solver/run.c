/* SPDX-License-Identifier: BSD-3-Clause */
/* The time loop: steps of the case's scheme to time.t-end or
 * time.steps, dt fixed, from the CFL number or from the PI controller;
 * checks, output and checkpoints at their intervals. */
#include "solver/solver-impl.h"

#include <frx/mesh.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------- checks */

/* NaN or Inf in any variable of u, named. */
static int nonfinite(frx_solver *s)
{
    size_t nv = s->info.nvars;
    double *bad = frx__calloc(nv, sizeof *bad, "check results"), *any =
                  frx__calloc(nv, sizeof *any, "check results");
    int rc = bad && any ? FRX_OK : FRX_ENOMEM;
    for (size_t b = 0; b < s->info.nblocks && rc == FRX_OK; b++) {
        frx_kernel *k = s->nonfinite[s->ucur][b];
        rc = frx_kernel_run(k);
        if (!rc)
            rc = frx_kernel_result(k, "bad", bad, nv);
        for (size_t v = 0; v < nv && rc == FRX_OK; v++)
            any[v] = any[v] || bad[v] > 0;
    }
    int nbad = 0;
    for (size_t v = 0; v < nv && rc == FRX_OK; v++) {
        if (!any[v])
            continue;
        if (nbad++ == 0)
            frx_error(FRX_ERANGE, "variable '%s' is NaN or Inf (the "
                      "solution has blown up: lower time.dt or time.cfl)",
                      s->vars[v]);
        else
            frx__error_append(FRX_ERANGE, "variable '%s' is NaN or Inf",
                              s->vars[v]);
    }
    if (rc == FRX_OK && nbad)
        rc = FRX_ERANGE;
    free(bad);
    free(any);
    return rc;
}

static int finished(const frx_solver *s);

/* After a step: the solver's checks and NaN/Inf, where due; every rank
 * stops if one fails, the message naming step, time and rank. NaN/Inf
 * is also looked for before anything is written (output, a checkpoint,
 * the last step's), so that no file holds a solution that blew up. */
static int run_checks(frx_solver *s)
{
    uint64_t st = s->step;
    int writes = (s->set.out_every && st % s->set.out_every == 0) ||
                 (s->set.ckpt_every && st % s->set.ckpt_every == 0) ||
                 (s->set.png_every && st % s->set.png_every == 0) ||
                 finished(s);
    int solver_due = s->check[s->ucur] && st % s->info.check_every == 0;
    int nan_due = s->set.check_every &&
                  (st % s->set.check_every == 0 || writes);
    if (!solver_due && !nan_due)
        return FRX_OK;
    int rc = solver_due ? frx__solver_check(s) : FRX_OK;
    if (rc == FRX_OK && nan_due)
        rc = nonfinite(s);
    char what[128];
    snprintf(what, sizeof what, "step %llu, t = %.9g: a check",
             (unsigned long long)s->step, s->t);
    return frx__agree(s->mpi, rc, what);
}

/* Output and checkpoints at their intervals (at_end: the last step's,
 * unless its interval wrote it already). Collective. */
static int write_due(frx_solver *s, int at_end)
{
    uint64_t st = s->step;
    int out = s->set.out_every && (st % s->set.out_every == 0) != at_end,
        ckpt = s->set.ckpt_every && (st % s->set.ckpt_every == 0) != at_end,
        png = s->set.png_every && (st % s->set.png_every == 0) != at_end;
    /* nothing is written after a hook that failed (at the end the run
     * has settled already) */
    int rc = out || ckpt || png ? frx__ext_settle(s) : FRX_OK;
    if (rc == FRX_OK && out) {
        rc = frx__output_write(s);
        if (rc == FRX_OK)
            rc = frx__ext_hook(s, FRX__EXT_OUTPUT);
    }
    if (rc == FRX_OK && ckpt)
        rc = frx__checkpoint_write(s);
    if (rc == FRX_OK && png)
        rc = frx__picture_out(s, 0);
    if (rc == FRX_OK && s->set.png_var && at_end) /* the last picture */
        rc = frx__picture_out(s, 1);
    return rc;
}

/* ----------------------------------------------------------------- dt */

/* The solver's largest stable step at time.cfl, the least over ranks. */
static int cfl_dt(frx_solver *s, double *dt)
{
    double mine = HUGE_VAL;
    int rc = frx__solver_max_dt(s, &mine);
    if (rc == FRX_OK && !(mine > 0))
        rc = frx_error(FRX_ERANGE, "solver '%s': max_dt gave %g at CFL %g",
                       s->name, mine, s->set.cfl);
    char what[128];
    snprintf(what, sizeof what, "step %llu, t = %.9g: the CFL step",
             (unsigned long long)s->step, s->t);
    if ((rc = frx__agree(s->mpi, rc, what)))
        return rc;
    if (MPI_Allreduce(&mine, dt, 1, MPI_DOUBLE, MPI_MIN, s->mpi) !=
        MPI_SUCCESS)
        return frx_error(FRX_EMPI, "MPI_Allreduce of dt failed");
    /* the same on every rank: each refuses it alike */
    if (!isfinite(*dt))
        return frx_error(FRX_ERANGE, "solver '%s': %s: max_dt gave no "
                         "finite step on any rank (a zero wave speed "
                         "everywhere?): give time.dt instead of time.cfl",
                         s->name, what);
    return FRX_OK;
}

/* The next step's size *dt, *h before it was cut to end at t-end
 * (*last). */
static int next_dt(frx_solver *s, double *dt, double *h_out, int *last)
{
    const struct frx__settings *st = &s->set;
    double h = st->pi ? s->dt : st->dt;
    if (st->cfl > 0) {
        double c;
        int rc = cfl_dt(s, &c);
        if (rc)
            return rc;
        /* with the controller, the CFL step bounds its dt once there is
         * one (after a step, a rejection or a restart) */
        h = st->pi && s->dt > 0 ? fmin(h, c) : c;
    }
    if (st->pi)
        h = fmax(fmin(h, st->dt_max), st->dt_min);
    /* land on t-end, leaving no sliver of a step behind */
    double left = st->t_end - s->t;
    *last = h >= left || left - h < 1e-9 * h;
    *dt = *last ? left : h;
    *h_out = h;
    return FRX_OK;
}

static int finished(const frx_solver *s)
{
    return (s->set.steps && s->step >= s->set.steps) ||
           s->t >= s->set.t_end;
}

/* ------------------------------------------------------------- a step */

/* One step, retried while the PI controller rejects it. Failures in
 * the middle of a step cannot be agreed on (ranks may be inside an
 * exchange): they stop the job. */
static int step(frx_solver *s)
{
    for (;;) {
        double dt, h, err = 0;
        int last, rc = next_dt(s, &dt, &h, &last);
        if (rc)
            return rc;
        frx__comm_set_context(s->comm, s->step + 1, s->t);
        s->stage = -1, s->stage_step = s->step;
        if ((rc = frx__scheme_step(s, dt)))
            return frx__fatal(s->mpi, rc, s->step + 1, s->t, "a step");
        if (s->set.scheme == FRX__RK45 &&
            (rc = frx__scheme_error(s, &err)))
            return frx__fatal(s->mpi, rc, s->step + 1, s->t,
                              "the error estimate");
        s->errlast = err;
        if (s->set.pi) { /* PyFR's PI controller: err alike on every rank */
            const struct frx__settings *st = &s->set;
            double ord = frx__scheme_order(st->scheme);
            /* an error of exactly 0 (a right-hand side of 0) would make
             * the next step's errprev^beta 0 and shrink dt to dt-min */
            err = fmax(err, 1e-12);
            double fac = pow(err, -st->alpha / ord) *
                         pow(s->errprev, st->beta / ord);
            fac = fmin(st->maxf, fmax(st->minf, st->safety * fac));
            s->dt = fac * dt;
            if (err >= 1) {
                /* a rejected step always shrinks (safety 1, err 1) */
                s->dt = fmin(fac, 0.9) * dt;
                if ((rc = frx__scheme_undo(s)))
                    return frx__fatal(s->mpi, rc, s->step + 1, s->t,
                                      "rejecting a step");
                s->rejected++;
                if (dt <= st->dt_min)
                    return frx_error(FRX_ERANGE, "step %llu, t = %.9g: rk45 "
                                     "rejected a step of dt = %g, the "
                                     "smallest time.dt-min allows (error "
                                     "%g x the tolerance): the solution may "
                                     "be unstable, or lower time.dt-min",
                                     (unsigned long long)s->step + 1, s->t,
                                     dt, err);
                continue;
            }
            s->errprev = err;
        } else {
            s->dt = h;
        }
        s->t = last ? s->set.t_end : s->t + dt;
        s->step++;
        return FRX_OK;
    }
}

/* -------------------------------------------------------------- the run */

void frx__run_stats_copy(frx_run_stats *dst, const frx_run_stats *src)
{
    uint32_t size = dst->size < sizeof *dst ? dst->size : sizeof *dst;
    memcpy(dst, src, size);
    dst->size = size;
}

static void fill_stats(frx_solver *s, frx_run_stats *stats, uint64_t step0,
                       double wall)
{
    frx_run_stats out = {.size = stats->size, .step = s->step,
                         .steps_run = s->step - step0,
                         .rejected = s->rejected,
                         .nrhs = s->nrhs - s->nrhs0, .ndofs = s->ndofs,
                         .t = s->t, .dt = s->dt, .wall = wall,
                         .errest = s->errlast, .l2 = stats->l2,
                         .l2_cap = stats->l2_cap};
    frx__run_stats_copy(stats, &out);
}

/* Each variable's L2 error into l2[0..n) (NaN past the variables). */
static int norms_into(frx_solver *s, double *l2, size_t n)
{
    size_t nv = s->info.nvars;
    double *all = frx__calloc(nv, sizeof *all, "norms");
    int rc = all ? frx__error_norms(s, all) : FRX_ENOMEM;
    for (size_t v = 0; v < n && rc == FRX_OK; v++)
        l2[v] = v < nv ? all[v] : NAN;
    free(all);
    return rc;
}

int frx_solver_run(frx_solver *s, frx_run_stats *stats)
{
    if (!s)
        return frx_error(FRX_EINVAL, "frx_solver_run: NULL solver");
    uint64_t step0 = s->step;
    s->nrhs0 = s->nrhs;
    s->out_from = step0, s->out_first = UINT64_MAX;
    s->rejected = 0;
    struct frx__progress pr;
    int rc = frx__ext_loaded(s); /* a restart's extension states */
    if (rc == FRX_OK)
        rc = frx__ext_hook(s, FRX__EXT_INITIAL);
    if (rc == FRX_OK && step0 == 0 && s->set.out_every) {
        rc = frx__output_write(s);
        if (rc == FRX_OK)
            rc = frx__ext_hook(s, FRX__EXT_OUTPUT);
    }
    if (rc == FRX_OK && step0 == 0 && s->set.png_every)
        rc = frx__picture_out(s, 0);
    double w0 = frx__now();
    frx__progress_start(&pr, s);
    frx__profile_active(s->be, 1); /* the loop's time, as wall's */
    while (rc == FRX_OK && !finished(s)) {
        if (s->nexts) /* those that keep the state a step starts from */
            rc = frx__ext_hook(s, FRX__EXT_AHEAD);
        if (rc == FRX_OK)
            rc = step(s);
        if (s->nexts) { /* the hooks' agreement, made under the step: a
                           * hook's failure came first, and is agreed */
            int r = frx__ext_settle(s);
            rc = r ? r : rc;
        }
        if (rc == FRX_OK && s->nexts) /* what their RHS nodes recorded */
            rc = frx__ext_failed(s);
        if (rc == FRX_OK)
            rc = run_checks(s);
        if (rc == FRX_OK && s->nexts) /* before a checkpoint saves them */
            rc = frx__ext_hook(s, FRX__EXT_STEP);
        if (rc == FRX_OK)
            rc = write_due(s, 0);
        frx__progress_step(&pr, s);
    }
    if (s->nexts) {
        int r = frx__ext_settle(s);
        rc = r ? r : rc;
    }
    if (rc == FRX_OK)
        rc = write_due(s, 1);
    double wall = frx__now() - w0;
    frx__profile_active(s->be, 0);
    frx__progress_end(&pr, s);
    if (rc == FRX_OK) /* not timed: the solver's own output */
        rc = frx__solver_finish(s);
    if (rc == FRX_OK && s->nexts)
        rc = frx__ext_hook(s, FRX__EXT_FINISH);
    if (rc == FRX_OK && stats) {
        fill_stats(s, stats, step0, wall);
        if (FRX_SIZE_HOLDS(frx_run_stats, stats, l2_cap) && stats->l2)
            rc = norms_into(s, stats->l2, stats->l2_cap);
    }
    return rc;
}
