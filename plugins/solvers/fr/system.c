/* SPDX-License-Identifier: BSD-3-Clause */
/* The FR system: create (options, the blocks of elements with their
 * geometry, operators and matrices, then boundaries, kernels and faces),
 * destroy, and what a physics plugin may read back. */
#include "system-internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* [neles][npts][ncol] -> a matrix of npts rows and ncol variables. */
static int upload(fr_system *s, const double *src, size_t neles,
                  size_t npts, size_t ncol, frx_matrix **out)
{
    size_t n = neles * npts * ncol;
    double *h = malloc((n ? n : 1) * sizeof *h);
    if (!h)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    fr_to_matrix_layout(src, neles, npts, ncol, h);
    int rc = fr__matrix_from(s->be, npts, ncol, neles, h, out);
    free(h);
    return rc;
}

/* The auxiliary fields at the solution points (fpts 0) or flux points
 * of block b into m: by the physics' fragment on the backend, or its
 * host callback. */
static int aux_upload(fr_system *s, const struct fr_blk *b, int fpts,
                      frx_matrix *m)
{
    if (s->phys.aux_src)
        return fr__field_fill(s, b, 0, fpts, m);
    size_t neles = b->neles, npts = fpts ? b->nfpts : b->nupts;
    const double *xyz = fpts ? b->geo.xfpts : b->geo.xupts;
    size_t n = neles * npts, na = s->phys.naux, nn = n * na > 0 ? n * na : 1;
    double *v = malloc(nn * sizeof *v), *h = malloc(nn * sizeof *h);
    int rc = v && h ? s->phys.aux_at(s->phys.ctx, n, xyz, v)
                    : frx_error(FRX_ENOMEM, "fr: out of memory");
    if (!rc) {
        fr_to_matrix_layout(v, neles, npts, na, h);
        rc = frx_matrix_write_double(m, h);
    }
    free(v);
    free(h);
    return rc;
}

/* --------------------------------------------------------------- blocks */

static const char *etype_name(int etype)
{
    switch (etype) {
    case FRX_ETYPE_TRI: return "triangles";
    case FRX_ETYPE_QUAD: return "quadrilaterals";
    case FRX_ETYPE_TET: return "tetrahedra";
    case FRX_ETYPE_PRI: return "prisms";
    case FRX_ETYPE_PYR: return "pyramids";
    default: return "hexahedra";
    }
}

/* The operator op of an element as a const matrix. */
static int op_matrix(fr_system *s, const fr_element *e, int op,
                     frx_matrix **out)
{
    size_t nr, nc;
    const double *a = fr_element_op(e, op, &nr, &nc);
    if (!a)
        return frx_error(FRX_EINVAL, "%s: no operator %d", s->phys.name, op);
    return frx_matrix_create_const(s->be, nr, nc, a, out);
}

/* Viscous physics' operators of block b: M4 (the reference gradient),
 * M6 (its correction: M6[d][u][f] = M3[u][f] n_f[d], PyFR's, with n_f
 * the reference normal of M2 and M3) and M0 for each dimension (block
 * diagonal: the gradient's ndims row blocks to the flux points). */
static int viscous_ops(fr_system *s, struct fr_blk *b)
{
    size_t nd = (size_t)s->ndims, nu = b->nupts, nf = b->nfpts;
    const double *m3 = fr_element_op(b->el, FR_M3, NULL, NULL);
    const double *m0 = fr_element_op(b->el, FR_M0, NULL, NULL);
    const double *nrm = fr_element_norm_fpts(b->el);
    double *m6 = malloc(nd * nu * nf * sizeof *m6);
    double *m0d = calloc(nd * nf * nd * nu, sizeof *m0d);
    int rc = m6 && m0d ? FRX_OK : frx_error(FRX_ENOMEM, "fr: out of memory");
    for (size_t d = 0; d < nd && !rc; d++) {
        for (size_t u = 0; u < nu; u++)
            for (size_t f = 0; f < nf; f++)
                m6[(d * nu + u) * nf + f] = m3[u * nf + f] * nrm[f * nd + d];
        for (size_t f = 0; f < nf; f++)
            for (size_t u = 0; u < nu; u++)
                m0d[(d * nf + f) * nd * nu + d * nu + u] = m0[f * nu + u];
    }
    if (!rc)
        rc = op_matrix(s, b->el, FR_M4, &b->m4);
    if (!rc)
        rc = frx_matrix_create_const(s->be, nd * nu, nf, m6, &b->m6);
    if (!rc)
        rc = frx_matrix_create_const(s->be, nd * nf, nd * nu, m0d, &b->m0d);
    if (!rc) /* one part long: every part reuses it (sys_rhs.c) */
        rc = frx_matrix_create(s->be, nd * nu, s->phys.nvars,
                               fr__stretch_elements(s, b), &b->gu);
    free(m6);
    free(m0d);
    return rc;
}

/* max_dt's metric at each solution point: (2p+1)/2 sum_i |grad xi_i|. */
static int invh_upload(fr_system *s, struct fr_blk *b)
{
    size_t nd = (size_t)s->ndims, n = b->neles * b->nupts;
    double *v = malloc(n * sizeof *v), *h = malloc(n * sizeof *h);
    if (!v || !h) {
        free(v);
        free(h);
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        const double *sm = &b->geo.smats[i * nd * nd];
        double sum = 0;
        for (size_t r = 0; r < nd; r++) {
            double q = 0;
            for (size_t c = 0; c < nd; c++)
                q += sm[r * nd + c] * sm[r * nd + c];
            sum += sqrt(q);
        }
        v[i] = (2.0 * s->order + 1) / 2 * sum * b->geo.rcpdjac[i];
    }
    fr_to_matrix_layout(v, b->neles, b->nupts, 1, h);
    int rc = fr__matrix_from(s->be, b->nupts, 1, b->neles, h, &b->invh);
    free(v);
    free(h);
    return rc;
}

static int block_make(fr_system *s, const frx_mesh *mesh, size_t i)
{
    struct fr_blk *b = &s->blk[i];
    frx_mesh_block mb = {.size = sizeof mb};
    int rc = frx_mesh_get_block(mesh, i, &mb);
    if (rc)
        return rc;
    if ((s->ndims == 2) != (mb.etype == FRX_ETYPE_QUAD ||
                            mb.etype == FRX_ETYPE_TRI) ||
        (s->ndims == 3 && mb.etype != FRX_ETYPE_HEX && mb.etype != FRX_ETYPE_TET &&
         mb.etype != FRX_ETYPE_PRI && mb.etype != FRX_ETYPE_PYR))
        return frx_error(FRX_ENOTSUP, "%s: the mesh has %s; this FR solver "
                         "takes quadrilaterals and triangles (2-D) and "
                         "hexahedra, tetrahedra, prisms and pyramids (3-D)", s->phys.name,
                         etype_name(mb.etype));
    if ((rc = fr_element_create(mb.etype, s->order, &b->el)))
        return frx_error(rc, "%s: %s at solver.order %d: %s", s->phys.name,
                         etype_name(mb.etype), s->order, frx_errmsg());
    if ((rc = fr_geometry_compute(b->el, mb.neles, mb.nshape, mb.shape,
                                  mb.gid, &b->geo)))
        return rc;
    size_t nd = (size_t)s->ndims, nv = s->phys.nvars;
    b->neles = mb.neles;
    b->nupts = fr_element_nupts(b->el);
    b->nfpts = fr_element_nfpts(b->el);
    b->nvis = fr_element_nvis(b->el);
    if ((rc = op_matrix(s, b->el, FR_M0, &b->m0)) ||
        (rc = op_matrix(s, b->el, FR_M132, &b->m132)) ||
        (rc = op_matrix(s, b->el, FR_M3, &b->m3)) ||
        (rc = upload(s, b->geo.smats, b->neles, b->nupts, nd * nd,
                     &b->smats)) ||
        (rc = upload(s, b->geo.rcpdjac, b->neles, b->nupts, 1,
                     &b->rcpdjac)) ||
        (rc = invh_upload(s, b)) ||
        (rc = frx_matrix_create(s->be, nd * b->nupts, nv,
                                fr__stretch_elements(s, b), &b->tf)))
        return rc;
    if (s->viscous && (rc = viscous_ops(s, b)))
        return rc;
    /* the solution points, where a kernel computes a field or a source */
    const fr_physics *p = &s->phys;
    if ((p->source || p->initial_src || p->aux_src) &&
        (rc = upload(s, b->geo.xupts, b->neles, b->nupts, nd, &b->ploc)))
        return rc;
    if (s->phys.naux &&
        ((rc = frx_matrix_create(s->be, b->nupts, s->phys.naux, b->neles,
                                 &b->aux)) ||
         (rc = aux_upload(s, b, 0, b->aux))))
        return rc;
    b->info = (frx_solver_block){
        .size = sizeof b->info, .nupts = b->nupts, .neles = b->neles,
        .upts = b->geo.xupts, .qweights = b->geo.qwts,
        .vtk_type = fr_element_vtk_type(b->el), .nvis = b->nvis,
        .vis_pts = b->geo.xvis,
        .vis_op = fr_element_op(b->el, FR_MVIS, NULL, NULL)};
    return FRX_OK;
}

/* Flux-point matrices of every block in one allocation each: interface
 * views span blocks. */
static int fpts_groups(fr_system *s)
{
    frx_matrix_shape *sh = calloc(s->nblocks, sizeof *sh);
    frx_matrix **m = calloc(s->nblocks, sizeof *m);
    int rc = sh && m ? FRX_OK : frx_error(FRX_ENOMEM, "fr: out of memory");
    /* the solution, the auxiliary fields; viscous: the jump to the
     * common solution and the gradient (ndims rows a point) */
    enum { UFP, AUXFP, DUFP, GFP };
    for (int which = UFP; which <= GFP && !rc; which++) {
        size_t nv = which == AUXFP ? s->phys.naux : s->phys.nvars;
        size_t nr = which == GFP ? (size_t)s->ndims : 1;
        if (!nv || (which >= DUFP && !s->viscous))
            continue;
        for (size_t i = 0; i < s->nblocks; i++)
            sh[i] = (frx_matrix_shape){nr * s->blk[i].nfpts, nv,
                                       s->blk[i].neles};
        if ((rc = frx_matrix_create_group(s->be, s->nblocks, sh, m)))
            break;
        for (size_t i = 0; i < s->nblocks; i++) {
            struct fr_blk *b = &s->blk[i];
            frx_matrix **at[] = {&b->ufp, &b->auxfp, &b->dufp, &b->gfp};
            *at[which] = m[i];
        }
        for (size_t i = 0; which == AUXFP && i < s->nblocks && !rc; i++)
            rc = aux_upload(s, &s->blk[i], 1, s->blk[i].auxfp);
    }
    free(sh);
    free(m);
    return rc;
}

/* --------------------------------------------------------------- create */

static int check_physics(const fr_physics *p)
{
    const char *name = p->name ? p->name : "fr";
    if (!p->nvars || !p->vars || !p->flux || !p->rsolve ||
        (!p->initial && !p->initial_src))
        return frx_error(FRX_EINVAL, "%s: the physics needs variables, a "
                         "flux, a common flux (rsolve) and an initial "
                         "condition (initial or initial_src)", name);
    if (p->bcs_viscous && !p->vflux)
        return frx_error(FRX_EINVAL, "%s: viscous boundary kinds "
                         "(bcs_viscous) without a viscous flux (vflux)",
                         name);
    if (p->naux && (!p->aux || (!p->aux_at && !p->aux_src)))
        return frx_error(FRX_EINVAL, "%s: %zu auxiliary field(s) need "
                         "names and aux_at or aux_src", name, p->naux);
    if ((p->nconsts && !p->consts) || (p->nbcs && !p->bcs) ||
        (p->nmacros && !p->macros))
        return frx_error(FRX_EINVAL, "%s: a count without its array in "
                         "the physics", name);
    return FRX_OK;
}

static int fill_info(fr_system *s, frx_solver_info *info)
{
    s->vars = calloc(s->phys.nvars, sizeof *s->vars);
    if (!s->vars)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    for (size_t v = 0; v < s->phys.nvars; v++)
        s->vars[v].name = s->phys.vars[v];
    /* the blocks' info structs are apart: an array of them */
    frx_solver_block *bl = calloc(s->nblocks, sizeof *bl);
    if (!bl)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    for (size_t i = 0; i < s->nblocks; i++)
        bl[i] = s->blk[i].info;
    s->infos = bl;
    info->nvars = s->phys.nvars;
    info->vars = s->vars;
    info->var_size = sizeof *s->vars;
    info->nblocks = s->nblocks;
    info->blocks = bl;
    info->block_size = sizeof *bl;
    info->check_every = 0;
    if (FRX_SIZE_HOLDS(frx_solver_info, info, order))
        info->order = s->order + 1;
    if (FRX_SIZE_HOLDS(frx_solver_info, info, ndims))
        info->ndims = s->ndims;
    return FRX_OK;
}

/* Everything up to the interfaces: this rank's own work, no MPI. */
static int create_local(fr_system *s, const frx_solver_init *init)
{
    if (!init->mesh)
        return frx_error(FRX_ECONFIG, "%s: solver '%s' needs a mesh: add "
                         "mesh: {type: box, n: [8, 8], periodic: [true, "
                         "true]} or a Gmsh file to the case",
                         frx_config_file(init->config), s->phys.name);
    long order;
    int rc = frx_cfg_int(init->options, "order", 3, FR_MIN_ORDER,
                         FR_MAX_ORDER, &order);
    if (rc)
        return rc;
    s->order = (int)order;
    long cb;
    int word;
    if ((rc = frx_cfg_int_or(init->options, "cache-block", -1, 0, 1L << 30,
                             "auto", &cb, &word)))
        return rc;
    /* auto (or absent): a stretch's arrays about the size of a core's
     * L2, on the backend whose kernels run on the host's cores */
    if (cb < 0 && strcmp(frx_backend_name(s->be), "openmp") == 0)
        s->cblock_bytes = (size_t)2 << 20;
    else if (cb > 0)
        s->cblock = (size_t)cb;
    if (s->viscous &&
        ((rc = frx_cfg_double(init->options, "ldg-beta", 0.5, -0.5, 0.5,
                              &s->ldg_beta)) ||
         (rc = frx_cfg_double(init->options, "ldg-tau", 0.1, 0, HUGE_VAL,
                              &s->ldg_tau))))
        return rc;
    frx_mesh_info mi = {.size = sizeof mi};
    if ((rc = frx_mesh_get_info(init->mesh, &mi)))
        return rc;
    s->ndims = mi.ndims;
    unsigned dims = s->phys.dims ? s->phys.dims : FR_DIMS_2;
    if ((s->ndims != 2 && s->ndims != 3) || !(dims & (1u << s->ndims))) {
        const frx_cfgnode *mn =
            frx_cfg_get(frx_config_root(init->config), "mesh");
        char at[512] = "";
        return frx_error(FRX_ENOTSUP, "%s%s%s: the mesh is %d-D; this "
                         "solver runs %s meshes: give mesh.n %s numbers "
                         "(a box) or a %s Gmsh mesh",
                         mn ? fr_cfg_place(mn, at, sizeof at) : "",
                         mn ? ": " : "", s->phys.name, s->ndims,
                         dims & FR_DIMS_3 ? "2-D and 3-D" : "2-D",
                         dims & FR_DIMS_3 ? "two or three" : "two",
                         dims & FR_DIMS_3 ? "2-D or 3-D" : "2-D");
    }
    if ((rc = fr__read_bcs(s, init->options, init->mesh)) ||
        (rc = fr__register_kernels(s)))
        return rc;
    s->nblocks = mi.nblocks;
    s->blk = calloc(s->nblocks ? s->nblocks : 1, sizeof *s->blk);
    if (!s->blk)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    for (size_t i = 0; i < s->nblocks && !rc; i++)
        rc = block_make(s, init->mesh, i);
    if (!rc)
        rc = fpts_groups(s);
    if (!rc)
        rc = fr__build_faces(s, init->mesh);
    return rc;
}

int fr_agree_setup(MPI_Comm comm, int rc, const char *what)
{
    char *mine = rc ? strdup(frx_errmsg()) : NULL;
    int arc = frx_comm_agree(comm, rc, what);
    if (!rc)
        return arc;
    if (mine)
        frx_error(rc, "%s", mine);
    free(mine);
    return rc;
}

void fr_api_version(int *major, int *minor)
{
    *major = FR_API_MAJOR;
    *minor = FR_API_MINOR;
}

/* The FR SDK version a plugin was compiled against (version.h) against
 * this library's; its physics descriptor is not read before this. */
static int check_version(int major, int minor, size_t size,
                         const frx_solver_init *init)
{
    const char *name = NULL;
    if (frx_cfg_string(frx_config_root(init->config), "solver.name", NULL,
                       &name) || !name)
        name = "?";
    if (major != FR_API_MAJOR)
        return frx_error(FRX_EPLUGIN, "solver '%s' was built against the FR "
                         "SDK %d.%d; this libfrx-fr is %d.%d, another major "
                         "version: rebuild the plugin against this frx "
                         "(find_package(frx), frx::fr)", name, major, minor,
                         FR_API_MAJOR, FR_API_MINOR);
    if (minor > FR_API_MINOR)
        return frx_error(FRX_EPLUGIN, "solver '%s' was built against the FR "
                         "SDK %d.%d, newer than this libfrx-fr %d.%d: run it "
                         "with the frx it was built against, or rebuild it "
                         "against this one", name, major, minor,
                         FR_API_MAJOR, FR_API_MINOR);
    if (size > sizeof(fr_physics) || size < offsetof(fr_physics, expr_consts))
        return frx_error(FRX_EPLUGIN, "solver '%s': its fr_physics is %zu "
                         "bytes, which no FR SDK %d.%d has: rebuild the "
                         "plugin", name, size, major, minor);
    return FRX_OK;
}

int fr_system_create_v(int api_major, int api_minor, size_t physics_size,
                       const frx_solver_init *init, const fr_physics *phys,
                       frx_solver_info *info, fr_system **out)
{
    if (!init || !phys || !info || !out)
        return frx_error(FRX_EINVAL, "fr_system_create: NULL argument");
    *out = NULL;
    fr_system *s = calloc(1, sizeof *s);
    if (!s)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    *out = s;
    int rc = check_version(api_major, api_minor, physics_size, init);
    if (!rc) /* an older minor's shorter descriptor: the rest stays 0 */
        memcpy(&s->phys, phys, physics_size);
    if (!s->phys.name)
        s->phys.name = "fr";
    s->be = init->backend;
    s->comm = init->comm;
    s->t0 = init->t0;
    s->extend = FRX_SIZE_HOLDS(frx_solver_init, init, extend) ? init->extend
                                                             : NULL;
    MPI_Comm mc = frx_comm_mpi(init->comm);
    if (!rc)
        rc = check_physics(&s->phys);
    s->viscous = s->phys.vflux != NULL;
    if (!rc)
        rc = create_local(s, init);
    /* every rank reaches this with its status: the auxiliary fields'
     * exchange below waits for the peers. A solver whose own set-up
     * failed on some rank before it called fr_system_create calls
     * fr_agree_setup there in its place (system.h). */
    char what[96];
    snprintf(what, sizeof what, "%s's set-up", s->phys.name);
    rc = fr_agree_setup(mc, rc, what);
    if (rc)
        return rc;
    /* the interface kernels compile here, which can fail on one rank
     * (its compiler, its cache): agreed again, so that every rank
     * returns the same status and the solver's next collective step is
     * taken by all or none */
    rc = fr__finish_faces(s);
    if (!rc)
        rc = fr__publish(s);
    if (!rc)
        rc = fill_info(s, info);
    return fr_agree_setup(mc, rc, what);
}

void fr_system_destroy(fr_system *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nks; i++)
        frx_kernel_destroy(s->ks[i]);
    free(s->ks);
    for (size_t i = 0; i < s->nps; i++)
        frx_product_destroy(s->ps[i]);
    free(s->ps);
    for (size_t i = 0; i < s->nslices; i++)
        frx_matrix_destroy(s->slices[i]);
    free(s->slices);
    free(s->timed);
    for (size_t i = 0; i < s->nwaves; i++)
        free(s->waves[i].k);
    free(s->waves);
    fr__free_faces(s);
    for (size_t i = 0; s->blk && i < s->nblocks; i++) {
        struct fr_blk *b = &s->blk[i];
        frx_matrix *ms[] = {b->m0, b->m132, b->m3, b->smats, b->rcpdjac,
                            b->invh, b->ploc, b->aux, b->ufp, b->auxfp,
                            b->tf, b->gu, b->dufp, b->gfp, b->m4, b->m6,
                            b->m0d};
        for (size_t k = 0; k < sizeof ms / sizeof *ms; k++)
            if (ms[k])
                frx_matrix_destroy(ms[k]);
        free(b->at_peer);
        fr_geometry_free(&b->geo);
        fr_element_destroy(b->el);
    }
    free(s->blk);
    fr__free_knames(s);
    fr__free_bcs(s);
    free(s->vars);
    free(s->infos);
    free(s->sets);
    free(s);
}

/* ------------------------------------------------------------ accessors */

frx_backend *fr_system_backend(const fr_system *s) { return s->be; }
int fr_system_order(const fr_system *s) { return s->order; }
int fr_system_ndims(const fr_system *s) { return s->ndims; }
size_t fr_system_nblocks(const fr_system *s) { return s->nblocks; }

const fr_element *fr_system_element(const fr_system *s, size_t blk)
{
    return blk < s->nblocks ? s->blk[blk].el : NULL;
}

const fr_geometry *fr_system_geometry(const fr_system *s, size_t blk)
{
    return blk < s->nblocks ? &s->blk[blk].geo : NULL;
}
