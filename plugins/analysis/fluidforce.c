/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-fluidforce: the pressure force on named boundaries every `every`
 * steps, to a CSV file:
 *
 *   extensions:
 *     - {name: fluidforce, every: 10, file: forces.csv,
 *        boundaries: [cylinder]}
 *
 * F = sum over the boundary's flux points of w |J||J^-T n| p n: the
 * integral of p n over the boundary with the face rule, n the unit
 * normal out of the fluid (into the wall), so F is the force the fluid
 * exerts on the wall, with p from the solution at the flux point (the
 * element's solution points through its basis, the FR system's M0).
 * One kernel per block of the boundary's points on this rank reduces
 * the components on the backend; the ranks add them up;
 * rank 0 writes step, t, then <boundary>_fx, <boundary>_fy (, _fz) for
 * each boundary. p is an expression (`pressure`, default p: euler's).
 *
 * Where the physics is viscous (fr_physics.vflux: navier-stokes) each
 * boundary also gets the viscous force <boundary>_vx, _vy (, _vz): the
 * integral of the viscous momentum flux's normal part, sum w |J||J^-T n|
 * Fv(u, grad u)[.][rhou..] n, as PyFR's fluidforce: grad u at the flux
 * point is the element's own (uncorrected) gradient at its solution
 * points (M4, then 1/|J| smats) interpolated by M0, and Fv is the
 * physics' own viscous flux (its vflux fragment), so Sutherland's law
 * and the constants come with it. */
#include "analysis.h"

#include <frx/mesh.h>

#include <stdlib.h>
#include <string.h>

#define WHO "fluidforce"

static const frx_option options[] = {
    {.key = "file", .type = FRX_OPT_STRING, .required = 1,
     .help = "the CSV file the forces go to (rank 0 writes it; a restart "
             "continues it)"},
    {.key = "boundaries", .type = FRX_OPT_STRING_LIST, .required = 1,
     .help = "the mesh's boundaries whose forces to write, each apart"},
    {.key = "pressure", .type = FRX_OPT_STRING, .def = "p",
     .help = "the pressure: an expression of the variables (and of what "
             "the solver derives: euler's p), x, y, t"},
    AN_CSV_OPTIONS,
    {0},
};

/* The points of one boundary on this rank in one block: the element
 * each lies in, the basis there (l: 1 x nupts x n), w |J||J^-T n| n
 * (nw: 1 x ndims x n), the point (x: 1 x ndims x n) and, viscous, the
 * weights of the solution points in the gradient there (gw: 1 x
 * ndims*nupts x n, d/dx_d of u = sum_k gw[d*nupts + k] u_k). */
struct group {
    size_t bnd, blk, n;
    size_t *ele;
    frx_matrix *l, *nw, *x, *gw;
    char kname[96];
};

struct force {
    an_base base; /* first, by convention (an_base) */
    int ndims;
    int viscous;        /* the physics has a viscous flux */
    const char *vflux;  /* its fragment */
    size_t ncomp;       /* numbers a boundary: ndims, 2 ndims viscous */
    size_t nbnd, ngroups, nvars;
    char **bnd;
    struct group *groups;
    an_fields f;
    an_binds binds;     /* a kernel per group, per register of u */
    double *vals, *mine; /* the row (rank 0); this rank's part, scratch */
};

static void force_destroy(void *state)
{
    struct force *g = state;
    if (!g)
        return;
    an_binds_free(&g->binds);
    for (size_t i = 0; i < g->ngroups; i++) {
        free(g->groups[i].ele);
        frx_matrix_destroy(g->groups[i].l);
        frx_matrix_destroy(g->groups[i].nw);
        frx_matrix_destroy(g->groups[i].x);
        frx_matrix_destroy(g->groups[i].gw);
    }
    free(g->groups);
    for (size_t i = 0; i < g->nbnd; i++)
        free(g->bnd[i]);
    free(g->bnd);
    an_fields_free(&g->f);
    an_csv_free(&g->base.csv);
    free(g->vals);
    free(g->mine);
    free(g);
}

/* The viscous part of a kernel's tail: the gradient at the point from
 * gw, the physics' viscous flux of (u, g), its momentum rows through nw
 * into F[NDIMS + d]. */
static char *viscous_tail(const struct force *g, size_t nupts)
{
    char *s = NULL;
    size_t len = 0;
    FILE *b = open_memstream(&s, &len);
    if (!b)
        return NULL;
    fprintf(b, "{\nfpdtype_t g[NDIMS][NVARS], f[NDIMS][NVARS];\n"
               "for (int _d = 0; _d < NDIMS; _d++)\n"
               "    for (int _v = 0; _v < NVARS; _v++) {\n"
               "        fpdtype_t _s = 0;\n"
               "        for (int _j = 0; _j < %zu; _j++)\n"
               "            _s += gw[_d*%zu + _j]*uv[_j][_v];\n"
               "        g[_d][_v] = _s;\n"
               "        f[_d][_v] = 0;\n"
               "    }\n"
               "{ /* vflux */\n%s\n}\n"
               "for (int _d = 0; _d < NDIMS; _d++) {\n"
               "    fpdtype_t _s = 0;\n"
               "    for (int _i = 0; _i < NDIMS; _i++)\n"
               "        _s += f[_i][1 + _d]*nw[_i];\n"
               "    F[NDIMS + _d] = _s;\n"
               "}\n}\n", nupts, nupts, g->vflux);
    return fclose(b) ? (free(s), NULL) : s;
}

/* The kernel of a group of block points of nupts solution points. */
static int register_kernel(struct force *g, size_t nupts, char *name)
{
    char args[1024], consts[512], head[512], gwarg[64] = "", *body = NULL;
    an_fields_const_args(&g->f, consts, sizeof consts);
    if (g->viscous)
        snprintf(gwarg, sizeof gwarg, ", in fpdtype_t[%zu] gw",
                 nupts * (size_t)g->ndims);
    snprintf(args, sizeof args, "in view fpdtype_t[%zu][%zu] uv, in "
             "fpdtype_t[%zu] l, in fpdtype_t[%d] nw, in fpdtype_t[%d] x%s, "
             "scalar fpdtype_t t, out reduce(sum) fpdtype_t[%zu] F%s", nupts,
             g->nvars, nupts, g->ndims, g->ndims, gwarg, g->ncomp, consts);
    an_interp_text(head, sizeof head, nupts, g->nvars);
    char *vt = g->viscous ? viscous_tail(g, nupts) : NULL, *tail = NULL;
    size_t tlen = 0;
    FILE *tb = open_memstream(&tail, &tlen);
    if (tb) {
        fprintf(tb, "for (int _d = 0; _d < %d; _d++)\n"
                    "    F[_d] = _e[0]*nw[_d];\n%s", g->ndims,
                vt ? vt : "");
        if (fclose(tb)) {
            free(tail);
            tail = NULL;
        }
    }
    int lost = !tail || (g->viscous && !vt);
    free(vt);
    if (lost)
        return free(tail), frx_error(FRX_ENOMEM, WHO ": out of memory");
    int rc = an_fields_body(&g->f, frx_backend_precision(g->base.be), head,
                            tail, &body);
    free(tail);
    if (rc)
        return rc;
    an_kernel_name("fluidforce", args, body, name, 96);
    frx_kernel_decl d = {.name = name, .ndim = 1, .args = args, .body = body};
    rc = frx_kernel_register(g->base.be, &d);
    free(body);
    return rc;
}

/* The boundaries asked for: each one of the mesh's. */
static int read_boundaries(struct force *g, const frx_extension_init *init)
{
    const frx_cfgnode *l = frx_cfg_get(init->options, "boundaries");
    frx_mesh_info mi = {.size = sizeof mi};
    int rc = init->mesh ? frx_mesh_get_info(init->mesh, &mi)
                        : frx_error(FRX_EINVAL, WHO ": the solver has no "
                                    "mesh");
    g->nbnd = rc ? 0 : frx_cfg_len(l);
    g->bnd = calloc(g->nbnd + 1, sizeof *g->bnd);
    if (!rc && !g->bnd)
        rc = frx_error(FRX_ENOMEM, WHO ": out of memory");
    char at[512], known[1024];
    size_t len = 0;
    known[0] = '\0';
    for (size_t b = 0; !rc && b < mi.nbcs && len < sizeof known; b++) {
        frx_mesh_bc mb = {.size = sizeof mb};
        if (frx_mesh_get_bc(init->mesh, b, &mb) == FRX_OK)
            len += (size_t)snprintf(known + len, sizeof known - len, "%s%s",
                                    b ? ", " : "", mb.name);
    }
    if (!rc && !g->nbnd)
        rc = frx_error(FRX_ECONFIG, "%s: fluidforce: boundaries is empty; "
                       "the mesh has: %s", fr_cfg_place(l, at, sizeof at),
                       known[0] ? known : "none");
    for (size_t i = 0; !rc && i < g->nbnd; i++) {
        const frx_cfgnode *n = frx_cfg_at(l, i);
        const char *name = frx_cfg_scalar(n);
        int found = 0;
        for (size_t b = 0; b < mi.nbcs && !found; b++) {
            frx_mesh_bc mb = {.size = sizeof mb};
            found = frx_mesh_get_bc(init->mesh, b, &mb) == FRX_OK &&
                    !strcmp(mb.name, name);
        }
        for (size_t k = 0; k < i && found; k++)
            if (!strcmp(g->bnd[k], name))
                return frx_error(FRX_ECONFIG, "%s: fluidforce: boundary "
                                 "'%s' twice", fr_cfg_place(n, at, sizeof at),
                                 name);
        if (!found)
            return frx_error(FRX_ECONFIG, "%s: fluidforce: the mesh has no "
                             "boundary '%s'; it has: %s",
                             fr_cfg_place(n, at, sizeof at), name,
                             known[0] ? known : "none");
        if (!(g->bnd[i] = strdup(name)))
            return frx_error(FRX_ENOMEM, WHO ": out of memory");
    }
    return rc;
}

/* A group's gw: at each of its points (element e, flux point f) the
 * weight of solution point k in du/dx_d, sum over solution points s of
 * M0[f][s] 1/|J|(s) sum_i smats(s)[i][d] M4[i][s][k] (the element's
 * gradient at its solution points, then to the point). */
static int make_gradient(struct force *g, fr_system *sys,
                         const fr_face_set *fs, struct group *gr)
{
    const fr_element *el = fr_system_element(sys, gr->blk);
    const fr_geometry *geo = fr_system_geometry(sys, gr->blk);
    size_t nup, nfp, nd = (size_t)g->ndims, n = gr->n;
    const double *m0 = fr_element_op(el, FR_M0, &nfp, &nup);
    const double *m4 = fr_element_op(el, FR_M4, NULL, NULL);
    double *gw = calloc(nd * nup * n + 1, sizeof *gw);
    double *ds = malloc(nd * nup * sizeof *ds + 1);
    if (!gw || !ds || !m0 || !m4 || !geo || !geo->smats || !geo->rcpdjac) {
        free(gw);
        free(ds);
        return frx_error(FRX_ENOMEM, WHO ": out of memory (or the FR "
                         "system gives no geometry)");
    }
    for (size_t i = 0, j = 0; i < fs->n; i++) {
        if (fs->blk[i] != gr->blk)
            continue;
        size_t e = fs->ele[i], f = fs->fpt[i];
        for (size_t k = 0; k < nup; k++) {
            /* ds[d][s]: d/dx_d of basis function k at solution point s */
            for (size_t s = 0; s < nup; s++) {
                const double *sm = geo->smats + ((e * nup + s) * nd) * nd;
                for (size_t d = 0; d < nd; d++) {
                    double v = 0;
                    for (size_t r = 0; r < nd; r++)
                        v += sm[r * nd + d] * m4[(r * nup + s) * nup + k];
                    ds[d * nup + s] = v * geo->rcpdjac[e * nup + s];
                }
            }
            for (size_t d = 0; d < nd; d++) {
                double v = 0;
                for (size_t s = 0; s < nup; s++)
                    v += m0[f * nup + s] * ds[d * nup + s];
                gw[(d * nup + k) * n + j] = v;
            }
        }
        j++;
    }
    free(ds);
    int rc = frx_matrix_create(g->base.be, 1, nd * nup, n, &gr->gw);
    if (!rc)
        rc = frx_matrix_write_double(gr->gw, gw);
    free(gw);
    return rc;
}

/* One group: the points of face set fs in block blk (host arrays of
 * the set: its normals nrm [ndims][n] and magnitudes mag [n]). */
static int make_group(struct force *g, fr_system *sys, const fr_face_set *fs,
                      size_t bnd, size_t blk, const double *nrm,
                      const double *mag)
{
    const fr_element *el = fr_system_element(sys, blk);
    size_t nup, nfp, nd = (size_t)g->ndims, n = 0;
    const double *m0 = fr_element_op(el, FR_M0, &nfp, &nup);
    for (size_t i = 0; i < fs->n; i++)
        n += fs->blk[i] == blk;
    if (!n)
        return FRX_OK;
    struct group *gr = &g->groups[g->ngroups++];
    gr->bnd = bnd;
    gr->blk = blk;
    gr->n = n;
    gr->ele = malloc(n * sizeof *gr->ele);
    double *l = malloc(n * (nup + 2 * nd) * sizeof *l);
    double *nw = l ? l + n * nup : NULL, *x = l ? nw + n * nd : NULL;
    double *xs = malloc(fs->n * nd * sizeof *xs + 1);
    int rc = gr->ele && l && xs && m0
                 ? frx_matrix_read_double(fs->x, xs)
                 : frx_error(FRX_ENOMEM, WHO ": out of memory");
    /* host layouts [1][nvar][n] */
    for (size_t i = 0, j = 0; !rc && i < fs->n; i++) {
        if (fs->blk[i] != blk)
            continue;
        gr->ele[j] = fs->ele[i];
        for (size_t k = 0; k < nup; k++)
            l[k * n + j] = m0[fs->fpt[i] * nup + k];
        for (size_t d = 0; d < nd; d++) {
            nw[d * n + j] = fs->fwts[i] * mag[i] * nrm[d * fs->n + i];
            x[d * n + j] = xs[d * fs->n + i];
        }
        j++;
    }
    if (!rc)
        rc = frx_matrix_create(g->base.be, 1, nup, n, &gr->l);
    if (!rc)
        rc = frx_matrix_write_double(gr->l, l);
    if (!rc)
        rc = frx_matrix_create(g->base.be, 1, nd, n, &gr->nw);
    if (!rc)
        rc = frx_matrix_write_double(gr->nw, nw);
    if (!rc)
        rc = frx_matrix_create(g->base.be, 1, nd, n, &gr->x);
    if (!rc)
        rc = frx_matrix_write_double(gr->x, x);
    if (!rc && g->viscous)
        rc = make_gradient(g, sys, fs, gr);
    if (!rc)
        rc = register_kernel(g, nup, gr->kname);
    free(l);
    free(xs);
    return rc;
}

/* The groups of the boundaries' points on this rank. */
static int make_groups(struct force *g, fr_system *sys)
{
    size_t ns = fr_system_nface_sets(sys), nb = fr_system_nblocks(sys);
    g->groups = calloc(ns * nb + 1, sizeof *g->groups);
    if (!g->groups)
        return frx_error(FRX_ENOMEM, WHO ": out of memory");
    int rc = FRX_OK;
    for (size_t i = 0; i < ns && !rc; i++) {
        const fr_face_set *fs = fr_system_face_set(sys, i);
        if (fs->kind != FR_FACE_BOUNDARY || !fs->n)
            continue;
        size_t b = 0;
        while (b < g->nbnd && strcmp(g->bnd[b], fs->boundary))
            b++;
        if (b == g->nbnd)
            continue;
        if (!fs->nrm || !fs->mag || !fs->fwts || !fs->blk)
            return frx_error(FRX_EINVAL, WHO ": the FR system gives no "
                             "normals or weights of boundary '%s' (an FR "
                             "SDK before 1.2)", fs->boundary);
        size_t nd = (size_t)g->ndims;
        double *nrm = malloc(fs->n * (nd + 1) * sizeof *nrm);
        double *mag = nrm ? nrm + fs->n * nd : NULL;
        rc = nrm ? frx_matrix_read_double(fs->nrm, nrm)
                 : frx_error(FRX_ENOMEM, WHO ": out of memory");
        if (!rc)
            rc = frx_matrix_read_double(fs->mag, mag);
        for (size_t blk = 0; blk < nb && !rc; blk++)
            rc = make_group(g, sys, fs, b, blk, nrm, mag);
        free(nrm);
    }
    g->binds.nblocks = g->ngroups;
    return rc;
}

static int bind(void *ud, size_t i, frx_matrix *const *u, frx_kernel **k)
{
    struct force *g = ud;
    struct group *gr = &g->groups[i];
    frx_view *v = NULL;
    int rc = an_element_view(g->base.be, u[gr->blk], gr->n, gr->ele,
                             g->nvars, &v);
    frx_arg a[7 + AN_MAX_CONSTS] = {
        frx_arg_view(v), frx_arg_matrix(gr->l), frx_arg_matrix(gr->nw),
        frx_arg_matrix(gr->x)};
    size_t na = 4;
    if (g->viscous)
        a[na++] = frx_arg_matrix(gr->gw);
    a[na++] = frx_arg_unset();
    a[na++] = frx_arg_reduce();
    na += an_fields_bind_consts(&g->f, a + na);
    if (!rc)
        rc = frx_kernel_create(g->base.be, gr->kname, 1, gr->n, a, na, k);
    frx_view_destroy(v);
    return rc;
}

/* Viscous physics: its momentum is variables 1..ndims (rhou, rhov,
 * rhow), or there is no viscous force to report. */
static int viscous_setup(struct force *g, const frx_extension_init *init)
{
    const fr_physics *ph = g->f.phys;
    g->ncomp = (size_t)g->ndims;
    if (!ph || !ph->vflux)
        return FRX_OK;
    static const char *const mom[] = {"rhou", "rhov", "rhow"};
    for (int d = 0; d < g->ndims; d++)
        if (init->nvars <= (size_t)d + 1 ||
            strcmp(init->vars[d + 1], mom[d]))
            return frx_error(FRX_EINVAL, WHO ": the physics '%s' is "
                             "viscous but its variables 2..%d are not "
                             "rhou, rhov%s: no viscous force to take",
                             ph->name, g->ndims + 1,
                             g->ndims == 3 ? ", rhow" : "");
    /* the fragment calls the physics' macros: registered again in this
     * plugin's namespace */
    for (size_t i = 0; i < ph->nmacros; i++) {
        int rc = frx_kernel_register_macro(g->base.be, &ph->macros[i]);
        if (rc)
            return rc;
    }
    g->viscous = 1;
    g->vflux = ph->vflux;
    g->ncomp = 2 * (size_t)g->ndims;
    return FRX_OK;
}

static int force_create(const frx_extension_init *init, void **state)
{
    struct force *g = calloc(1, sizeof *g);
    if (!g)
        return frx_error(FRX_ENOMEM, WHO ": out of memory");
    *state = g;
    g->ndims = init->ndims;
    g->nvars = init->nvars;
    int rc = an_base_init(&g->base, init, WHO);
    fr_system *sys = NULL;
    if (!rc)
        rc = frx_ext_handle(g->base.ext, "fr.system", "fr_system",
                            (void **)&sys);
    if (!rc)
        rc = read_boundaries(g, init);
    if (!rc)
        rc = an_fields_init(&g->f, init, g->base.ext, WHO);
    if (!rc)
        rc = viscous_setup(g, init);
    const char *p = "p";
    if (!rc)
        rc = frx_cfg_string(init->options, "pressure", "p", &p);
    if (!rc) {
        const frx_cfgnode *n = frx_cfg_get(init->options, "pressure");
        char at[512];
        rc = an_fields_add_text(&g->f, p, n ? fr_cfg_place(n, at, sizeof at)
                                            : NULL, "pressure", "p");
    }
    size_t nv = g->nbnd * g->ncomp;
    if (!rc && (!(g->vals = calloc(nv + 1, sizeof *g->vals)) ||
                !(g->mine = calloc(nv + g->ncomp, sizeof *g->mine))))
        rc = frx_error(FRX_ENOMEM, WHO ": out of memory");
    if (!rc)
        rc = make_groups(g, sys);
    return rc;
}

static int row(struct force *g, const frx_ext_now *now)
{
    size_t nd = g->ncomp, nv = g->nbnd * nd;
    double *mine = g->mine, *r = mine + nv;
    memset(mine, 0, nv * sizeof *mine);
    frx_kernel **k = NULL;
    int rc = an_binds_get(&g->binds, now->u, bind, g, &k);
    for (size_t i = 0; i < g->ngroups && !rc; i++) {
        rc = frx_kernel_set_scalar(k[i], "t", now->t);
        if (!rc)
            rc = frx_kernel_run(k[i]);
        if (!rc)
            rc = frx_kernel_result(k[i], "F", r, nd);
        for (size_t d = 0; d < nd && !rc; d++)
            mine[g->groups[i].bnd * nd + d] += r[d];
    }
    /* every rank, whatever rc (the hook's status is agreed after), to
     * rank 0, which writes */
    int rf = an_fold_values(mine, nv, MPI_SUM, g->base.mpi, rc != FRX_OK,
                            g->vals);
    rc = rc ? rc : rf;
    if (rc == AN_PEER_FAILED) /* no row: that rank says why */
        return FRX_OK;
    return rc ? rc : an_csv_row(&g->base.csv, now->step, now->t, nv,
                                g->vals);
}

static int force_initial(void *state, const frx_ext_now *now)
{
    struct force *g = state;
    static const char *const comp[] = {"fx", "fy", "fz"};
    static const char *const vcomp[] = {"vx", "vy", "vz"};
    char *header = NULL;
    size_t len = 0;
    FILE *h = an_header_open(&header, &len);
    for (size_t b = 0; h && b < g->nbnd; b++)
        for (size_t d = 0; d < g->ncomp; d++)
            an_csv_column(h, g->bnd[b], d < (size_t)g->ndims
                                             ? comp[d]
                                             : vcomp[d - (size_t)g->ndims]);
    int rc = an_header_start(&g->base, h, &header, now->step);
    if (!rc && now->step == 0)
        rc = row(g, now);
    return rc;
}

static int force_step(void *state, const frx_ext_now *now)
{
    return row(state, now);
}

static const frx_extension_ops ops = {
    .size = sizeof(frx_extension_ops),
    .options = options,
    .api_major = FRX_EXTENSION_API_MAJOR,
    .api_minor = FRX_EXTENSION_API_MINOR,
    .create = force_create,
    .destroy = force_destroy,
    .initial = force_initial,
    .step = force_step,
    .save = an_save,
    .finish = an_finish,
};

static const frx_plugin_desc desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_EXTENSION, "fluidforce", "1.0.0",
                         "the pressure (and viscous) force on named "
                         "boundaries every N steps, to a CSV file (FR "
                         "solvers)"),
    .extension = &ops,
};

FRX_PLUGIN_DEFINE(desc)
