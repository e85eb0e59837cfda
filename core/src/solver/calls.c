/* SPDX-License-Identifier: BSD-3-Clause */
/* Calls into a solver plugin, each in its kernel namespace, and the RHS
 * f = R(u): set_time and the (u, f) graph, which the set-up pass (dry)
 * builds. What the time schemes, output and lifecycle call the plugin
 * through. */
#include "solver/solver-impl.h"

const char *frx__solver_enter(frx_solver *s)
{
    s->errors_before = frx__error_count();
    return frx__kernel_ns_set(s->be, s->name);
}

int frx__solver_leave(frx_solver *s, const char *old, int rc)
{
    frx__kernel_ns_set(s->be, old);
    if (rc != FRX_OK && frx__error_count() == s->errors_before)
        frx_error(rc, "solver '%s' (%s) returned %s without a message: a "
                  "plugin says why with frx_error() before it returns an "
                  "error", s->name, frx_plugin_path(s->plugin),
                  frx_err_name(rc));
    return rc;
}

int frx__solver_set_time(frx_solver *s, double t)
{
    if (!s->ops->set_time)
        return FRX_OK;
    const char *old = frx__solver_enter(s);
    return frx__solver_leave(s, old, s->ops->set_time(s->state, t));
}

int frx__solver_check(frx_solver *s)
{
    const char *old = frx__solver_enter(s);
    return frx__solver_leave(s, old, frx_graph_run(s->check[s->ucur]));
}

int frx__solver_finish(frx_solver *s)
{
    int rc = FRX_OK;
    if (FRX_SIZE_HOLDS(frx_solver_ops, s->ops, finish) && s->ops->finish) {
        const char *old = frx__solver_enter(s);
        rc = frx__solver_leave(s, old, s->ops->finish(s->state, s->reg[s->ucur], s->t));
    }
    return frx__agree(s->mpi, rc, "the solver's end of run");
}

int frx__solver_max_dt(frx_solver *s, double *dt)
{
    const char *old = frx__solver_enter(s);
    return frx__solver_leave(s, old, s->ops->max_dt(s->state, s->reg[s->ucur],
                                        s->set.cfl, dt));
}

int frx__solver_exact(frx_solver *s, size_t n, const double *xyz,
                      double *vals)
{
    const char *old = frx__solver_enter(s);
    return frx__solver_leave(s, old, s->ops->exact(s->state, s->t, n, xyz, vals));
}

int frx__rhs(frx_solver *s, double t, int u, int f)
{
    frx_graph **g = &s->rhs[u * s->nregs + f];
    if (s->dry) {
        if (*g)
            return FRX_OK;
        int rc = frx_graph_create(s->be, g);
        const char *old = frx__solver_enter(s);
        if (!rc)
            rc = s->ops->build_rhs(s->state, s->reg[u], s->reg[f], *g);
        rc = frx__solver_leave(s, old, rc);
        return rc ? rc : frx_graph_commit(*g);
    }
    s->stage++; /* where an extension's host node asks (frx_ext_stage) */
    s->stage_t = t;
    int rc = frx__solver_set_time(s, t);
    if (!rc)
        rc = frx_graph_run(*g);
    s->nrhs++;
    return rc;
}
