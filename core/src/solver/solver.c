/* SPDX-License-Identifier: BSD-3-Clause */
/* A solver plugin's lifecycle: find it, create it with its kernel
 * namespace set, check what it says, allocate the registers of its
 * solution, build the graphs the time scheme runs, destroy it all.
 * Every step that can fail on one rank is agreed on by all. */
#include "solver/solver-impl.h"

#include <frx/mesh.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- plugin */

static int find_plugin(frx_solver *s)
{
    const char *name;
    int rc = frx_cfg_string(frx_config_root(s->cfg), "solver.name", NULL,
                            &name);
    if (rc)
        return rc;
    if (!name)
        return frx_error(FRX_ECONFIG, "%s: the case has no solver.name",
                         frx_config_file(s->cfg));
    frx_plugin *p;
    if ((rc = frx_plugin_find(s->cfg, name, &p)))
        return rc;
    const frx_plugin_desc *d = frx_plugin_descriptor(p);
    if (d->kind != FRX_PLUGIN_SOLVER || !d->solver)
        return frx_error(FRX_EPLUGIN, "plugin %s is not a solver: name a "
                         "solver plugin in solver.name", frx_plugin_path(p));
    const frx_solver_ops *ops = d->solver;
    if (!ops->create || !ops->destroy || !ops->initial || !ops->build_rhs)
        return frx_error(FRX_EPLUGIN, "plugin %s declares options but no "
                         "solver (create, destroy, initial and build_rhs of "
                         "solver API %d.%d): it cannot run", frx_plugin_path(p),
                         FRX_SOLVER_API_MAJOR, FRX_SOLVER_API_MINOR);
    s->plugin = p;
    s->ops = ops;
    s->name = d->name;
    return FRX_OK;
}

/* --------------------------------------------------- what it says */

/* A copy of the plugin's struct, zero past its size. */
static void take(void *dst, size_t dst_size, const void *src, uint32_t size)
{
    memset(dst, 0, dst_size);
    memcpy(dst, src, size < dst_size ? size : dst_size);
}

static int bad_info(const frx_solver *s, const char *what)
{
    return frx_error(FRX_EPLUGIN, "solver '%s' (%s): %s: fix the plugin",
                     s->name, frx_plugin_path(s->plugin), what);
}

static int take_vars(frx_solver *s)
{
    const frx_solver_info *in = &s->info;
    if (!in->nvars || !in->vars || in->var_size < sizeof(const char *))
        return bad_info(s, "its info names no variables (nvars, vars, "
                           "var_size)");
    if (!(s->vars = frx__calloc(in->nvars, sizeof *s->vars, "variables")))
        return FRX_ENOMEM;
    for (size_t v = 0; v < in->nvars; v++) {
        const frx_solver_var *var =
            (const void *)((const char *)in->vars + v * in->var_size);
        if (!var->name || !var->name[0])
            return bad_info(s, "a variable without a name");
        for (size_t w = 0; w < v; w++)
            if (!strcmp(s->vars[w], var->name))
                return bad_info(s, "two variables have the same name");
        s->vars[v] = var->name;
    }
    return FRX_OK;
}

static int take_blocks(frx_solver *s)
{
    const frx_solver_info *in = &s->info;
    if (!in->nblocks || !in->blocks ||
        in->block_size < offsetof(frx_solver_block, neles) + sizeof(size_t))
        return bad_info(s, "its info has no blocks (nblocks, blocks, "
                           "block_size)");
    s->blocks = frx__calloc(in->nblocks, sizeof *s->blocks, "blocks");
    if (!s->blocks)
        return FRX_ENOMEM;
    frx_mesh_info mi = {.size = sizeof mi};
    if (s->mesh && frx_mesh_get_info(s->mesh, &mi) == FRX_OK &&
        mi.nblocks != in->nblocks) {
        char why[160];
        snprintf(why, sizeof why, "it has %zu blocks but this rank's mesh "
                 "has %zu", in->nblocks, mi.nblocks);
        return bad_info(s, why);
    }
    for (size_t b = 0; b < in->nblocks; b++) {
        const frx_solver_block *src =
            (const void *)((const char *)in->blocks + b * in->block_size);
        char why[200];
        if (src->size < offsetof(frx_solver_block, neles) + sizeof(size_t) ||
            src->size > in->block_size) {
            snprintf(why, sizeof why, "block %zu has .size %u, which is "
                     "not between its fields' %zu bytes and info.block_size "
                     "%zu: set .size = sizeof(frx_solver_block)", b,
                     (unsigned)src->size,
                     offsetof(frx_solver_block, neles) + sizeof(size_t),
                     in->block_size);
            return bad_info(s, why);
        }
        take(&s->blocks[b], sizeof s->blocks[b], src, src->size);
        frx_solver_block *blk = &s->blocks[b];
        if (!blk->nupts || !blk->neles)
            return bad_info(s, "a block with no points or no elements");
        frx_mesh_block mb = {.size = sizeof mb};
        if (s->mesh && frx_mesh_get_block(s->mesh, b, &mb) == FRX_OK &&
            mb.neles != blk->neles) {
            snprintf(why, sizeof why, "block %zu has %zu elements but the "
                     "mesh's has %zu", b, blk->neles, mb.neles);
            return bad_info(s, why);
        }
    }
    return FRX_OK;
}

/* Without a mesh, the number of the first element of each of this
 * rank's nb blocks: its elements come after those of the ranks before
 * it (an MPI_Exscan a block). Every rank makes as many calls as the rank
 * with the most blocks, whatever its own count, and makes them all even
 * when it has no memory for the result (before NULL). */
static int first_numbers(const frx_solver *s, size_t nb, uint64_t *before)
{
    uint64_t nmax = nb;
    int err = MPI_Allreduce(MPI_IN_PLACE, &nmax, 1, MPI_UINT64_T, MPI_MAX,
                            s->mpi);
    for (uint64_t b = 0; b < nmax && err == MPI_SUCCESS; b++) {
        uint64_t n = b < nb ? s->blocks[b].neles : 0, first = 0;
        err = MPI_Exscan(&n, &first, 1, MPI_UINT64_T, MPI_SUM, s->mpi);
        if (before && b < nb)
            before[b] = s->rank == 0 ? 0 : first;
    }
    return err == MPI_SUCCESS ? FRX_OK
                              : frx_error(FRX_EMPI, "MPI_Exscan failed");
}

/* Global element numbers per block: the mesh's, or without one this
 * rank's elements after those of the ranks before it. */
static int take_gids(frx_solver *s)
{
    size_t nb = s->info.nblocks;
    uint64_t *before = s->mesh ? NULL : calloc(nb, sizeof *before);
    int rc = s->mesh ? FRX_OK : first_numbers(s, nb, before);
    if (!rc && !s->mesh && !before)
        rc = frx_error(FRX_ENOMEM, "out of memory for element numbers");
    if (!rc && !(s->gids = frx__calloc(nb, sizeof *s->gids,
                                       "element numbers")))
        rc = FRX_ENOMEM;
    for (size_t b = 0; b < nb && !rc; b++) {
        size_t n = s->blocks[b].neles;
        if (!(s->gids[b] = frx__calloc(n, sizeof **s->gids, "numbers"))) {
            rc = FRX_ENOMEM;
            break;
        }
        frx_mesh_block mb = {.size = sizeof mb};
        int from_mesh = s->mesh && frx_mesh_get_block(s->mesh, b, &mb) ==
                                       FRX_OK && mb.gid;
        if (s->mesh && !from_mesh) {
            rc = frx_error(FRX_EINVAL, "block %zu of the mesh has no "
                           "global element numbers", b);
            break;
        }
        for (size_t e = 0; e < n; e++)
            s->gids[b][e] = from_mesh ? mb.gid[e] : before[b] + e;
    }
    free(before);
    return rc;
}

static int check_info(frx_solver *s)
{
    int rc = take_vars(s);
    if (!rc)
        rc = take_blocks(s);
    if (rc)
        return rc;
    frx_mesh_info mi = {.size = sizeof mi};
    if (s->mesh && frx_mesh_get_info(s->mesh, &mi) == FRX_OK) {
        if (s->info.ndims && s->info.ndims != mi.ndims)
            return bad_info(s, "its ndims differs from the mesh's");
        s->info.ndims = mi.ndims;
    }
    uint64_t mine = 0;
    for (size_t b = 0; b < s->info.nblocks; b++)
        mine += (uint64_t)s->blocks[b].nupts * s->info.nvars *
                s->blocks[b].neles;
    if (MPI_Allreduce(&mine, &s->ndofs, 1, MPI_UINT64_T, MPI_SUM, s->mpi) !=
        MPI_SUCCESS)
        return frx_error(FRX_EMPI, "MPI_Allreduce failed");
    return take_gids(s);
}

/* -------------------------------------------------------- registers */

static int make_registers(frx_solver *s)
{
    size_t nb = s->info.nblocks;
    s->nregs = frx__scheme_nregs(s->set.scheme);
    s->reg = frx__calloc((size_t)s->nregs, sizeof *s->reg, "registers");
    if (!s->reg)
        return FRX_ENOMEM;
    frx_matrix_shape *shapes = frx__calloc(nb, sizeof *shapes, "shapes");
    size_t most = 0;
    for (size_t b = 0; shapes && b < nb; b++) {
        shapes[b] = (frx_matrix_shape){s->blocks[b].nupts, s->info.nvars,
                                       s->blocks[b].neles};
        size_t n = shapes[b].nrow * shapes[b].nvar * shapes[b].neles;
        most = n > most ? n : most;
    }
    void *zeros = frx__calloc(most, s->be->fpsize, "zeros");
    int rc = shapes && zeros ? FRX_OK : FRX_ENOMEM;
    for (int r = 0; r < s->nregs && rc == FRX_OK; r++) {
        if (!(s->reg[r] = frx__calloc(nb, sizeof **s->reg, "a register")))
            rc = FRX_ENOMEM;
        else /* one allocation a register: its blocks side by side */
            rc = frx_matrix_create_group(s->be, nb, shapes, s->reg[r]);
        for (size_t b = 0; b < nb && rc == FRX_OK; b++)
            rc = frx_matrix_write(s->reg[r][b], zeros);
    }
    free(shapes);
    free(zeros);
    return rc;
}

/* ----------------------------------------------------------- graphs */

/* The checks of register u: the solver's graph and NaN/Inf per
 * variable, for each register a step can leave u in. */
static int make_checks(frx_solver *s, int u)
{
    size_t nb = s->info.nblocks, nv = s->info.nvars;
    if (s->ops->build_check && s->info.check_every) {
        int rc = frx_graph_create(s->be, &s->check[u]);
        const char *old = frx__solver_enter(s);
        if (!rc)
            rc = s->ops->build_check(s->state, s->reg[u], s->check[u]);
        rc = frx__solver_leave(s, old, rc);
        if (!rc)
            rc = frx_graph_commit(s->check[u]);
        if (rc)
            return rc;
    }
    if (!s->set.check_every)
        return FRX_OK;
    char name[64], args[160], body[160];
    snprintf(name, sizeof name, "nonfinite_%zu", nv);
    snprintf(args, sizeof args, "in fpdtype_t[%zu] u, out reduce(max) "
             "fpdtype_t[%zu] bad", nv, nv);
    snprintf(body, sizeof body, "for (int v = 0; v < %zu; v++)\n"
             "    bad[v] = isfinite(u[v]) ? 0 : 1;", nv);
    int rc = frx__core_kernel(s, name, args, body, 2);
    if (!rc && !(s->nonfinite[u] = frx__calloc(nb, sizeof **s->nonfinite,
                                               "check kernels")))
        rc = FRX_ENOMEM;
    for (size_t b = 0; b < nb && rc == FRX_OK; b++) {
        frx_arg a[] = {frx_arg_matrix(s->reg[u][b]), frx_arg_reduce()};
        const char *old = frx__kernel_ns_set(s->be, "frx");
        rc = frx_kernel_create(s->be, name, s->blocks[b].nupts,
                               s->blocks[b].neles, a, 2,
                               &s->nonfinite[u][b]);
        frx__kernel_ns_set(s->be, old);
    }
    return rc;
}

/* The set-up pass: a dry step from every register u can be in makes
 * every RHS graph and combination the scheme uses, so nothing is built
 * (or fails to build) mid-run. */
static int prepare(frx_solver *s)
{
    size_t nr = (size_t)s->nregs;
    s->rhs = frx__calloc(nr * nr, sizeof *s->rhs, "RHS graphs");
    s->check = frx__calloc(nr, sizeof *s->check, "check graphs");
    s->nonfinite = frx__calloc(nr, sizeof *s->nonfinite, "check kernels");
    s->u_regs = frx__calloc(nr, 1, "registers of u");
    if (!s->rhs || !s->check || !s->nonfinite || !s->u_regs)
        return FRX_ENOMEM;
    unsigned char stepped[8] = {0};
    int rc = FRX_OK, u;
    s->dry = 1;
    s->u_regs[0] = 1; /* the initial condition's, and a checkpoint's */
    for (;;) {
        for (u = 0; u < s->nregs && !(s->u_regs[u] && !stepped[u]); u++)
            ;
        if (u == s->nregs || rc)
            break;
        stepped[u] = 1;
        s->ucur = u;
        rc = frx__scheme_step(s, 1);
        s->u_regs[s->ucur] = 1;
    }
    for (u = 0; u < s->nregs && rc == FRX_OK; u++)
        if (s->u_regs[u])
            rc = make_checks(s, u);
    s->dry = 0;
    s->ucur = 0;
    return rc;
}

/* ------------------------------------------------------------ create */

static int initial(frx_solver *s, const char *restart)
{
    if (restart)
        return frx__checkpoint_read(s, restart);
    const char *old = frx__solver_enter(s);
    int rc = frx__solver_leave(s, old, s->ops->initial(s->state, s->reg[0]));
    s->t = s->set.t0;
    s->dt = s->set.dt;
    s->errprev = 1;
    return rc;
}

/* VTK output and checkpoints are per element type: they need a mesh. */
static int needs_mesh(const frx_solver *s, const char *restart)
{
    const char *what = s->set.out_every ? "output.interval"
                     : s->set.ckpt_every ? "checkpoint.interval"
                     : s->set.png_var ? "output.png"
                     : restart ? "--restart" : NULL;
    if (s->mesh || !what)
        return FRX_OK;
    return frx_error(FRX_ECONFIG, "%s: %s needs a mesh (VTK files and "
                     "checkpoints hold the solution per element): give the "
                     "case a 'mesh', or set it to 0",
                     frx_config_file(s->cfg), what);
}

/* Each stage in turn, agreed by every rank before the next. */
static int create_stages(frx_solver *s, const char *restart)
{
    int rc = frx__agree(s->mpi, find_plugin(s), "solver start-up");
    if (!rc) /* found before the solver's create, which publishes */
        rc = frx__agree(s->mpi, frx__ext_open(s), "the extensions");
    if (rc)
        return rc;
    frx_solver_init init = {
        .size = sizeof init, .backend = s->be, .comm = s->comm,
        .config = s->cfg,
        .options = frx_cfg_get(frx_config_root(s->cfg), "solver"),
        .mesh = s->mesh, .t0 = s->set.t0, .dt = s->set.dt,
        .t_end = s->set.t_end, .restart = restart != NULL,
        .extend = s->extend};
    s->info.size = sizeof s->info;
    const char *old = frx__solver_enter(s);
    rc = frx__solver_leave(s, old, s->ops->create(&init, &s->info, &s->state));
    /* a failed create that set its state gets destroy too, so that it
     * may return early */
    s->created = rc == FRX_OK || s->state != NULL;
    char what[300];
    snprintf(what, sizeof what, "solver '%s' create", s->name);
    if ((rc = frx__agree(s->mpi, rc, what)))
        return rc;
    rc = frx__agree(s->mpi, check_info(s), "the solver's info");
    if (!rc)
        rc = frx__agree(s->mpi, make_registers(s), "the registers");
    if (!rc) /* before the graphs, which their RHS nodes join */
        rc = frx__agree(s->mpi, frx__ext_create(s), "the extensions");
    if (!rc)
        rc = frx__agree(s->mpi, needs_mesh(s, restart), "the output");
    if (!rc)
        rc = frx__agree(s->mpi, frx__picture_check(s), "the picture");
    if (!rc)
        rc = frx__agree(s->mpi, s->set.cfl > 0 && !s->ops->max_dt
                ? frx_error(FRX_ECONFIG, "time.cfl is set but solver '%s' "
                            "has no max_dt: give time.dt", s->name)
                : FRX_OK, "the time step");
    if (!rc) /* restarts read collectively: agreed inside */
        rc = restart ? initial(s, restart)
                     : frx__agree(s->mpi, initial(s, NULL),
                                  "the initial condition");
    if (!rc)
        rc = frx__agree(s->mpi, prepare(s), "building the graphs");
    return rc;
}

/* Every rank restarts from the same checkpoint, or none does: a rank
 * that reads one while the others do not waits forever in the read's
 * collectives, and ranks reading two checkpoints start from two states.
 * Rank 0's choice ("" for none) against this rank's; agreed. */
static int same_restart(MPI_Comm mpi, int rank, const char *restart)
{
    char first[4096] = "";
    if (rank == 0 && restart)
        snprintf(first, sizeof first, "%s", restart);
    int rc = MPI_Bcast(first, sizeof first, MPI_CHAR, 0, mpi) == MPI_SUCCESS
                 ? FRX_OK
                 : frx_error(FRX_EMPI, "MPI_Bcast of --restart failed");
    const char *mine = restart ? restart : "";
    if (!rc && strcmp(first, mine) != 0)
        rc = frx_error(FRX_EINVAL, "this rank %s%s%s, rank 0 %s%s%s: give "
                       "every rank the same --restart, or none",
                       *mine ? "restarts from " : "has no --restart",
                       mine, "", *first ? "from " : "has none", first, "");
    return frx__agree(mpi, rc, "the restart");
}

int frx_solver_create(const frx_config *cfg, frx_backend *be, frx_comm *comm,
                      const struct frx_mesh *mesh, const char *restart,
                      frx_solver **out)
{
    if (!cfg || !be || !comm || !out)
        return frx_error(FRX_EINVAL, "frx_solver_create: NULL argument");
    *out = NULL;
    frx_solver *s = frx__calloc(1, sizeof *s, "a solver");
    if (!s)
        return FRX_ENOMEM;
    *s = (frx_solver){.be = be, .comm = comm, .mpi = frx_comm_mpi(comm),
                      .cfg = cfg, .mesh = mesh};
    MPI_Comm_rank(s->mpi, &s->rank);
    MPI_Comm_size(s->mpi, &s->nranks);
    int rc = same_restart(s->mpi, s->rank, restart);
    if (!rc)
        rc = frx__agree(s->mpi, frx__settings_read(cfg, &s->set),
                        "the time loop's settings");
    if (!rc) /* rank 0 makes them, at the first write */
        rc = frx__agree(s->mpi, s->rank ? FRX_OK
                                        : frx__outputs_check(s, !restart),
                        "the output folders");
    if (!rc && s->set.profile) /* before any graph is committed */
        rc = frx__agree(s->mpi, frx__profile_enable(be), "the profile");
    if (!rc)
        rc = create_stages(s, restart);
    if (rc) {
        char *msg = frx__strdup(frx_errmsg());
        frx_solver_destroy(s);
        if (msg)
            frx_error(rc, "%s", msg);
        free(msg);
        return rc;
    }
    *out = s;
    return FRX_OK;
}

void frx_solver_destroy(frx_solver *s)
{
    if (!s)
        return;
    size_t nb = s->info.nblocks, nr = (size_t)s->nregs;
    for (size_t i = 0; s->rhs && i < nr * nr; i++)
        frx_graph_destroy(s->rhs[i]);
    for (size_t u = 0; u < nr; u++) {
        if (s->check)
            frx_graph_destroy(s->check[u]);
        for (size_t b = 0; s->nonfinite && s->nonfinite[u] && b < nb; b++)
            frx_kernel_destroy(s->nonfinite[u][b]);
        if (s->nonfinite)
            free(s->nonfinite[u]);
    }
    for (size_t b = 0; s->errest && b < nb; b++)
        frx_kernel_destroy(s->errest[b]);
    frx__lincomb_free(s->lc);
    /* the extensions before the solver whose objects they hold */
    frx__ext_close(s);
    free(s->restart_path);
    /* the solver first: its kernels and graphs use the registers */
    if (s->created) {
        const char *old = frx__solver_enter(s);
        s->ops->destroy(s->state);
        frx__solver_leave(s, old, FRX_OK);
    }
    for (size_t r = 0; s->reg && r < nr; r++) {
        for (size_t b = 0; s->reg[r] && b < nb; b++)
            frx_matrix_destroy(s->reg[r][b]);
        free(s->reg[r]);
    }
    for (size_t b = 0; s->gids && b < nb; b++)
        free(s->gids[b]);
    free(s->gids);
    free(s->reg);
    free(s->rhs);
    free(s->check);
    free(s->nonfinite);
    free(s->errest);
    free(s->u_regs);
    free(s->vars);
    free(s->blocks);
    free(s);
}
