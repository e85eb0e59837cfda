/* SPDX-License-Identifier: BSD-3-Clause */
/* What rank 0 shows of a run: the progress line (step, t, dt, wall
 * time, ETA), rewritten in place on a terminal or one line per
 * progress.interval steps otherwise, and the summary at the end. The
 * line goes to stderr, which Open MPI leaves a pipe (its stdout is a
 * pseudo-terminal even when mpirun's output is a file); the summary,
 * the run's result, to stdout. */
#include "solver/solver-impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* "1:02:03" or "02:03" */
static const char *hms(double sec, char *buf, size_t n)
{
    if (!(sec >= 0) || sec > 1e8)
        return snprintf(buf, n, "--:--"), buf;
    long s = lround(sec), h = s / 3600, m = s / 60 % 60;
    if (h)
        snprintf(buf, n, "%ld:%02ld:%02ld", h, m, s % 60);
    else
        snprintf(buf, n, "%02ld:%02ld", m, s % 60);
    return buf;
}

/* The fraction done: of the time span, or of the steps, whichever is
 * further along. */
static double done(const frx_solver *s, const struct frx__progress *p)
{
    double f = 0;
    if (isfinite(s->set.t_end))
        f = (s->t - p->t0) / (s->set.t_end - p->t0);
    if (s->set.steps > p->step0)
        f = fmax(f, (double)(s->step - p->step0) /
                        (double)(s->set.steps - p->step0));
    return f;
}

static void line(const struct frx__progress *p, const frx_solver *s,
                 char *buf, size_t n)
{
    char w[32], eta[32];
    double wall = frx__now() - p->t_start, f = done(s, p);
    snprintf(buf, n, "step %llu  t %.6g  dt %.4g  wall %s  ETA %s",
             (unsigned long long)s->step, s->t, s->dt, hms(wall, w, sizeof w),
             f > 0 ? hms(wall * (1 - f) / f, eta, sizeof eta) : "--:--");
    frx__ext_progress(s, buf, n);
}

void frx__progress_start(struct frx__progress *p, const frx_solver *s)
{
    memset(p, 0, sizeof *p);
    p->mode = s->set.progress;
    if (p->mode == FRX__PROGRESS_AUTO)
        p->mode = isatty(STDERR_FILENO) ? FRX__PROGRESS_INPLACE
                                        : FRX__PROGRESS_LINES;
    if (s->rank != 0)
        p->mode = FRX__PROGRESS_OFF;
    p->t_start = frx__now();
    p->t0 = s->t;
    p->step0 = s->step;
}

void frx__progress_step(struct frx__progress *p, const frx_solver *s)
{
    char buf[512];
    if (p->mode == FRX__PROGRESS_LINES &&
        s->step % s->set.progress_every == 0) {
        line(p, s, buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
    } else if (p->mode == FRX__PROGRESS_INPLACE &&
               frx__now() - p->last_draw >= 0.1) {
        line(p, s, buf, sizeof buf);
        fprintf(stderr, "\r%-79s", buf); /* padded over a longer line */
        fflush(stderr);
        p->last_draw = frx__now();
        p->drawn = 1;
    }
}

void frx__progress_end(struct frx__progress *p, const frx_solver *s)
{
    char buf[512];
    if (p->mode == FRX__PROGRESS_INPLACE) {
        line(p, s, buf, sizeof buf);
        fprintf(stderr, "\r%-79s\n", buf);
    } else if (p->mode == FRX__PROGRESS_LINES &&
               s->step % s->set.progress_every != 0) {
        line(p, s, buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
    }
}

void frx__summary_start(const frx_solver *s)
{
    if (s->rank != 0)
        return;
    printf("frx: solver '%s' (%s), %s on %d rank(s), %llu DOFs, from step "
           "%llu at t = %.9g\n", s->name, frx_plugin_path(s->plugin),
           frx__scheme_name(s->set.scheme), s->nranks,
           (unsigned long long)s->ndofs, (unsigned long long)s->step, s->t);
    fflush(stdout);
}

void frx__summary(const frx_solver *s, const frx_run_stats *st)
{
    if (s->rank != 0)
        return;
    double wall = st->wall > 0 ? st->wall : 1e-9;
    printf("frx: %llu steps", (unsigned long long)st->steps_run);
    if (s->set.pi)
        printf(" (%llu rejected)", (unsigned long long)st->rejected);
    /* milliseconds from a second on, microseconds below it, so that a
     * short run's time (a benchmark's smoke test) keeps its digits */
    printf(st->wall >= 1 ? " to step %llu, t = %.9g, in %.3f s\n"
                         : " to step %llu, t = %.9g, in %.6f s\n",
           (unsigned long long)st->step, st->t, st->wall);
    printf("frx: %llu DOFs, %llu RHS evaluations: %.4g RHS evaluations/s, "
           "%.4g DOF-updates/s (DOFs x RHS evaluations / s)\n",
           (unsigned long long)st->ndofs, (unsigned long long)st->nrhs,
           (double)st->nrhs / wall,
           (double)st->ndofs * (double)st->nrhs / wall);
    if (st->l2 && s->info.nvars && !isnan(st->l2[0])) {
        printf("frx: L2 error at t = %.9g:", st->t);
        for (size_t v = 0; v < s->info.nvars && v < st->l2_cap; v++)
            printf(" %s %.6e", s->vars[v], st->l2[v]);
        printf("\n");
    }
    fflush(stdout);
}
