/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: what a case says of its mesh (mesh.type, the source of a whole
 * mesh, partition.method and the ranks' weights), and the ranks agreeing
 * on an outcome while the mesh is made (mesh-impl.h). */
#include "mesh/mesh-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every rank learns whether any rank failed; all then return the first
 * failing rank's code and message. */
int frx__mesh_agree(MPI_Comm comm, int rank, int nranks, int rc)
{
    int mine = rc ? rank : nranks, first = nranks;
    if (MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm) !=
        MPI_SUCCESS)
        return frx_error(FRX_EMPI, "frx_mesh_create: MPI_Allreduce failed");
    if (first == nranks)
        return FRX_OK;
    struct {
        int rc;
        char msg[4096];
    } m = {.rc = rc};
    if (rank == first)
        snprintf(m.msg, sizeof m.msg, "%s", frx_errmsg());
    if (MPI_Bcast(&m, sizeof m, MPI_BYTE, first, comm) != MPI_SUCCESS)
        return frx_error(FRX_EMPI, "frx_mesh_create: MPI_Bcast failed");
    if (rank != first)
        frx_error(m.rc, "rank %d of %d: %s", first, nranks, m.msg);
    return m.rc;
}

/* ------------------------------------------------------------ config */

/* "case.yaml:3:1" of the mesh key, for messages about the whole mesh. */
const char *frx__mesh_where(const frx_config *cfg, char *buf, size_t n)
{
    const frx_cfgnode *root = frx_config_root(cfg);
    for (size_t i = 0; i < frx_cfg_len(root); i++)
        if (!strcmp(frx_cfg_key_at(root, i), "mesh"))
            return frx__cfg_where(frx_cfg_key_node_at(root, i), buf, n);
    snprintf(buf, n, "%s", frx_config_file(cfg));
    return buf;
}

int frx__mesh_type(const frx_config *cfg, int *type)
{
    const frx_cfgnode *mesh = frx_cfg_get(frx_config_root(cfg), "mesh");
    char where[300];
    if (!mesh || frx_cfg_type(mesh) != FRX_CFG_MAP)
        return frx_error(FRX_ECONFIG, "%s: the case has no mesh: add "
                         "'mesh: {type: box, n: [16, 16]}' (see "
                         "config/README.md)", frx_config_file(cfg));
    int rc = frx_cfg_enum(mesh, "type", "box|gmsh|partitioned", -1, type);
    if (rc == FRX_OK && *type < 0)
        rc = frx_error(FRX_ECONFIG, "%s: missing required key 'type' in "
                       "'mesh' (box, gmsh or partitioned)",
                       frx__mesh_where(cfg, where, sizeof where));
    return rc;
}

int frx__mesh_source(const frx_config *cfg, struct frx__gmesh *g)
{
    const frx_cfgnode *mesh = frx_cfg_get(frx_config_root(cfg), "mesh");
    int type;
    int rc = frx__mesh_type(cfg, &type);
    if (rc == FRX_OK && type == FRX__MESH_PARTITIONED)
        rc = frx_error(FRX_ECONFIG, "%s: a partitioned mesh file is read "
                       "by frx run, one part a rank; it is no source of a "
                       "whole mesh", frx_config_file(cfg));
    if (rc)
        return rc;
    return type == FRX__MESH_GMSH ? frx__mesh_gmsh(mesh, g)
                                  : frx__mesh_box(mesh, g);
}

static int positive(const frx_cfgnode *v, const char *what, double *w)
{
    char where[300];
    const char *text = frx_cfg_scalar(v);
    char *end = NULL;
    double x = text ? strtod(text, &end) : 0;
    if (!text || end == text || *end || !(x > 0) || x > 1e300)
        return frx_error(FRX_ECONFIG, "%s: '%s' must be a positive number "
                         "(a rank's share of the elements, relative to the "
                         "others), got '%s'",
                         frx__cfg_where(v, where, sizeof where), what,
                         text ? text : "a list or mapping");
    *w = x;
    return FRX_OK;
}

/* This rank's weight: partition.weights[rank], else the weight of the
 * backend.rules item that chose its backend, else 1. */
static int read_weight(const frx_config *cfg, int rank, int nranks,
                       double *w, int *given)
{
    const frx_cfgnode *root = frx_config_root(cfg);
    const frx_cfgnode *list = frx_cfg_get(root, "partition.weights");
    char where[300], what[64];
    *w = 1;
    *given = list != NULL;
    if (list) {
        if (frx_cfg_type(list) != FRX_CFG_LIST)
            return frx_error(FRX_ECONFIG, "%s: 'partition.weights' must be "
                             "a list with one number per rank, like [3, 1]",
                             frx__cfg_where(list, where, sizeof where));
        if (frx_cfg_len(list) != (size_t)nranks)
            return frx_error(FRX_ECONFIG, "%s: 'partition.weights' has %zu "
                             "weight(s) but the job has %d rank(s): give one "
                             "per rank", frx__cfg_where(list, where,
                                                        sizeof where),
                             frx_cfg_len(list), nranks);
        snprintf(what, sizeof what, "partition.weights[%d]", rank);
        return positive(frx_cfg_at(list, (size_t)rank), what, w);
    }
    struct frx__choice ch;
    int rc = frx__backend_choice(cfg, rank, &ch);
    if (rc || ch.rule < 0)
        return rc;
    const frx_cfgnode *v = frx_cfg_get(
        frx_cfg_at(frx_cfg_get(root, "backend.rules"), (size_t)ch.rule),
        "weight");
    snprintf(what, sizeof what, "backend.rules[%d].weight", ch.rule);
    *given = v != NULL;
    return v ? positive(v, what, w) : FRX_OK;
}

int frx__mesh_weights(const frx_config *cfg, MPI_Comm comm, int rank,
                      int nranks, double *weights, int *given)
{
    double w = 1;
    int mine = 0;
    int rc = frx__mesh_agree(comm, rank, nranks,
                             read_weight(cfg, rank, nranks, &w, &mine));
    if (rc == FRX_OK &&
        (MPI_Allgather(&w, 1, MPI_DOUBLE, weights, 1, MPI_DOUBLE, comm) !=
             MPI_SUCCESS ||
         MPI_Allreduce(&mine, given, 1, MPI_INT, MPI_MAX, comm) !=
             MPI_SUCCESS))
        rc = frx_error(FRX_EMPI, "frx_mesh_create: MPI_Allgather failed");
    return rc;
}

int frx__mesh_method(const frx_config *cfg, int *method, int *given)
{
    const frx_cfgnode *root = frx_config_root(cfg);
    *given = frx_cfg_get(root, "partition.method") != NULL;
    return frx_cfg_enum(root, "partition.method", "metis|linear",
                        FRX__PART_METIS, method);
}

