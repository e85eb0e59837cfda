/* SPDX-License-Identifier: BSD-3-Clause */
/* frx_run_case, what `frx run` does with a case that names a solver:
 * every rank's backend, frx's communicator, the mesh, the solver, its
 * run and summary, the profile and exchange times, then all of it
 * destroyed; the first failure's message is kept. */
#include "case/case-impl.h"

#include <math.h>
#include <stdlib.h>

int frx_run_case(const frx_config *cfg, MPI_Comm comm, const char *restart,
                 frx_run_stats *stats)
{
    if (!cfg)
        return frx_error(FRX_EINVAL, "frx_run_case: no case");
    struct frx__case_parts p;
    int rc = frx__case_start(cfg, comm, restart, &p);
    frx_solver *s = p.solver;
    frx_backend *be = p.be;
    frx_comm *c = p.comm;
    double *l2 = s ? frx__calloc(s->info.nvars, sizeof *l2, "norms") : NULL;
    frx_run_stats mine = {.size = sizeof mine, .l2 = l2,
                          .l2_cap = s ? s->info.nvars : 0};
    if (rc == FRX_OK) {
        frx__summary_start(s);
        rc = frx_solver_run(s, &mine);
    }
    if (rc == FRX_OK) {
        frx__summary(s, &mine);
        rc = frx__agree(frx_comm_mpi(c), frx__profile_report(be,
                        frx_comm_mpi(c), mine.wall), "the profile");
        /* the backend's pack, transfer-wait and unpack times, of every
         * comm on it (kept and logged at info; called on every rank,
         * whatever its level: it is collective) */
        if (rc == FRX_OK)
            rc = frx_comm_report(c);
        if (stats) {
            int has_l2 = FRX_SIZE_HOLDS(frx_run_stats, stats, l2_cap);
            mine.l2 = has_l2 ? stats->l2 : NULL;
            mine.l2_cap = has_l2 ? stats->l2_cap : 0;
            for (size_t v = 0; mine.l2 && v < mine.l2_cap; v++)
                mine.l2[v] = v < s->info.nvars && l2 ? l2[v] : NAN;
            frx__run_stats_copy(stats, &mine);
        }
    }
    free(l2);
    return frx__case_stop(&p, rc);
}
