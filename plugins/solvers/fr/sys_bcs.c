/* SPDX-License-Identifier: BSD-3-Clause */
/* solver.boundaries: one condition per boundary of the mesh,
 *
 *   boundaries:
 *     left: {type: <kind>, <key>: <value>, ...}
 *
 * the kinds and their keys from the physics (fr_bc_kind), each value a
 * number or an expression in x, y (z), t and the case's constants.
 * Every mesh boundary needs one; an entry that names no boundary of the
 * mesh, a kind the physics lacks, a key the kind does not take and an
 * expression that does not parse are refused at their line. */
#include "system-internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void kinds_list(const fr_physics *p, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = 0;
    for (size_t i = 0; i < p->nbcs && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "",
                              p->bcs[i].type);
    if (!p->nbcs)
        snprintf(buf, len, "none: use periodic directions");
}

/* Is key (len) one of the kind's "|"-separated keys? Its index or -1. */
static long key_index(const fr_bc_kind *k, const char *key)
{
    long i = 0;
    for (const char *c = k->keys; c && *c; i++) {
        size_t len = strcspn(c, "|");
        if (strlen(key) == len && !strncmp(c, key, len))
            return i;
        c += len + (c[len] == '|');
    }
    return -1;
}

static size_t key_count(const fr_bc_kind *k)
{
    size_t n = 0;
    for (const char *c = k->keys; c && *c; n++) {
        size_t len = strcspn(c, "|");
        c += len + (c[len] == '|');
    }
    return n;
}

static int read_one(fr_system *s, struct fr_bc *bc, const frx_cfgnode *keyn,
                    const frx_cfgnode *m)
{
    char at[512], kinds[512];
    const fr_physics *p = &s->phys;
    kinds_list(p, kinds, sizeof kinds);
    snprintf(bc->where, sizeof bc->where, "%.480s: solver.boundaries.%.480s",
             fr_cfg_place(keyn, at, sizeof at), bc->name);
    if (frx_cfg_type(m) != FRX_CFG_MAP)
        return frx_error(FRX_ECONFIG, "%s: solver.boundaries.%s must be a "
                         "mapping such as {type: <kind>, ...} (kinds of %s: "
                         "%s)", fr_cfg_place(keyn, at, sizeof at), bc->name,
                         p->name, kinds);
    const char *type;
    int rc = frx_cfg_string(m, "type", NULL, &type);
    if (rc)
        return rc;
    if (!type)
        return frx_error(FRX_ECONFIG, "%s: solver.boundaries.%s has no "
                         "'type': give one of %s", fr_cfg_place(keyn, at, sizeof at),
                         bc->name, kinds);
    for (size_t i = 0; i < p->nbcs && !bc->kind; i++)
        if (!strcmp(p->bcs[i].type, type))
            bc->kind = &p->bcs[i];
    if (!bc->kind)
        return frx_error(FRX_ECONFIG, "%s: solver.boundaries.%s.type: %s "
                         "has no boundary condition '%s': use one of %s",
                         fr_cfg_place(frx_cfg_get(m, "type"), at, sizeof at),
                         bc->name, p->name, type, kinds);
    bc->nvals = key_count(bc->kind);
    bc->vals = calloc(bc->nvals ? bc->nvals : 1, sizeof *bc->vals);
    bc->exprs = calloc(bc->nvals ? bc->nvals : 1, sizeof *bc->exprs);
    if (!bc->vals || !bc->exprs)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    for (size_t i = 0; i < frx_cfg_len(m); i++) {
        const char *key = frx_cfg_key_at(m, i);
        if (!strcmp(key, "type"))
            continue;
        if (key_index(bc->kind, key) < 0)
            return frx_error(FRX_ECONFIG, "%s: solver.boundaries.%s: '%s' "
                             "takes no key '%s' (its keys: %s)",
                             fr_cfg_place(frx_cfg_key_node_at(m, i), at, sizeof at),
                             bc->name, type, key,
                             bc->kind->keys ? bc->kind->keys : "none");
    }
    unsigned vars = FR_EXPR_X | FR_EXPR_Y | FR_EXPR_T |
                    (s->ndims == 3 ? FR_EXPR_Z : 0);
    const char *c = bc->kind->keys;
    for (size_t i = 0; i < bc->nvals; i++) {
        size_t len = strcspn(c, "|");
        char key[64], full[600];
        snprintf(key, sizeof key, "%.*s", (int)len, c);
        c += len + (c[len] == '|');
        const frx_cfgnode *v = frx_cfg_get(m, key);
        if (!v)
            return frx_error(FRX_ECONFIG, "%s: solver.boundaries.%s: '%s' "
                             "needs '%s' (its keys: %s)",
                             fr_cfg_place(keyn, at, sizeof at), bc->name, type, key,
                             bc->kind->keys);
        snprintf(full, sizeof full, "solver.boundaries.%s.%s", bc->name,
                 key);
        if ((rc = fr_expr_compile(v, full, vars, p->expr_consts,
                                  &bc->exprs[i])))
            return rc;
        /* a number is a scalar argument: a case that changes it shares
         * the kernel */
        bc->vals[i] = NAN;
        if (!fr_expr_uses(bc->exprs[i])) {
            bc->vals[i] = fr_expr_eval(bc->exprs[i], 0, 0, 0, 0);
            if (!isfinite(bc->vals[i]))
                return frx_error(FRX_ECONFIG, "%s: %s = '%s' is %g: give a "
                                 "finite value", fr_cfg_place(v, at,
                                                              sizeof at),
                                 full, frx_cfg_scalar(v), bc->vals[i]);
        }
    }
    return FRX_OK;
}

void fr__free_bcs(fr_system *s)
{
    for (size_t i = 0; s->bcs && i < s->nbcs; i++) {
        for (size_t k = 0; s->bcs[i].exprs && k < s->bcs[i].nvals; k++)
            fr_expr_destroy(s->bcs[i].exprs[k]);
        free(s->bcs[i].exprs);
        free(s->bcs[i].vals);
    }
    free(s->bcs);
    s->bcs = NULL;
}

int fr__bc_values(const fr_system *s, const struct fr_bc *bc, size_t n,
                  const double *x, double t, double *vals)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    int rc = FRX_OK;
    for (size_t k = 0; k < bc->nvals && !rc; k++) {
        rc = fr_expr_eval_points(bc->exprs[k], n, (size_t)s->ndims, x, t, v);
        for (size_t i = 0; i < n && !rc; i++)
            vals[i * bc->nvals + k] = v[i];
    }
    free(v);
    return rc;
}

int fr__read_bcs(fr_system *s, const frx_cfgnode *opts, const frx_mesh *mesh)
{
    frx_mesh_info mi = {.size = sizeof mi};
    int rc = frx_mesh_get_info(mesh, &mi);
    if (rc)
        return rc;
    const frx_cfgnode *all = opts ? frx_cfg_get(opts, "boundaries") : NULL;
    char at[512], kinds[512], names[1024];
    kinds_list(&s->phys, kinds, sizeof kinds);
    s->bcs = calloc(mi.nbcs ? mi.nbcs : 1, sizeof *s->bcs);
    if (!s->bcs)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    size_t k = 0;
    names[0] = 0;
    for (size_t i = 0; i < mi.nbcs; i++) {
        frx_mesh_bc mb = {.size = sizeof mb};
        if ((rc = frx_mesh_get_bc(mesh, i, &mb)))
            return rc;
        s->bcs[i].name = mb.name;
        k += (size_t)snprintf(names + k, k < sizeof names ?
                              sizeof names - k : 0, "%s%s", i ? ", " : "",
                              mb.name);
        if (k >= sizeof names)
            k = sizeof names - 1;
    }
    s->nbcs = mi.nbcs;
    if (all && frx_cfg_type(all) != FRX_CFG_MAP)
        return frx_error(FRX_ECONFIG, "%s: solver.boundaries must be a "
                         "mapping of mesh boundary names to conditions",
                         fr_cfg_place(all, at, sizeof at));
    /* every entry names a boundary of the mesh */
    for (size_t i = 0; all && i < frx_cfg_len(all); i++) {
        const char *key = frx_cfg_key_at(all, i);
        size_t j = 0;
        while (j < s->nbcs && strcmp(s->bcs[j].name, key))
            j++;
        if (j == s->nbcs)
            return frx_error(FRX_ECONFIG, "%s: solver.boundaries.%s: the "
                             "mesh has no boundary '%s' (%s%s)",
                             fr_cfg_place(frx_cfg_key_node_at(all, i), at,
                                   sizeof at), key, key,
                             s->nbcs ? "its boundaries: " : "it has none: "
                             "every side is periodic", names);
        if ((rc = read_one(s, &s->bcs[j], frx_cfg_key_node_at(all, i),
                           frx_cfg_at(all, i))))
            return rc;
    }
    for (size_t j = 0; j < s->nbcs; j++)
        if (!s->bcs[j].kind)
            return frx_error(FRX_ECONFIG, "%s: the mesh's boundary '%s' has "
                             "no condition: add solver.boundaries.%s: {type: "
                             "...} (kinds of %s: %s)",
                             opts ? fr_cfg_place(opts, at, sizeof at) : "solver",
                             s->bcs[j].name, s->bcs[j].name, s->phys.name,
                             kinds);
    return FRX_OK;
}
