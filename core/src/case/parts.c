/* SPDX-License-Identifier: BSD-3-Clause */
/* A case's parts started and stopped (case-impl.h): for frx_run_case and
 * frx plot alike. */
#include "case/case-impl.h"

#include <stdlib.h>

int frx__case_start(const frx_config *cfg, MPI_Comm comm,
                    const char *restart, struct frx__case_parts *p)
{
    *p = (struct frx__case_parts){0};
    int rc = frx_backend_create_all(cfg, comm, &p->be);
    if (rc == FRX_OK)
        rc = frx__agree(comm, frx_comm_create(p->be, comm, &p->comm),
                        "frx's communicator");
    if (rc == FRX_OK && frx_cfg_get(frx_config_root(cfg), "mesh"))
        rc = frx_mesh_create(cfg, frx_comm_mpi(p->comm), &p->mesh);
    if (rc == FRX_OK)
        rc = frx_solver_create(cfg, p->be, p->comm, p->mesh, restart,
                               &p->solver);
    return rc;
}

int frx__case_stop(struct frx__case_parts *p, int rc)
{
    char *msg = rc ? frx__strdup(frx_errmsg()) : NULL;
    frx_solver_destroy(p->solver);
    if (p->mesh)
        frx_mesh_destroy(p->mesh);
    frx_comm_destroy(p->comm);
    frx_backend_destroy(p->be);
    *p = (struct frx__case_parts){0};
    if (msg)
        frx_error(rc, "%s", msg);
    free(msg);
    return rc;
}
