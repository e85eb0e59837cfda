/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-sampler: the solution at probe points every `every` steps, to a
 * CSV file, one row per sample time:
 *
 *   extensions:
 *     - name: sampler
 *       every: 10
 *       file: probes.csv
 *       points: {inlet: [0.5, 0.25], wake: [3, 0]}   # and/or
 *       points-file: probes.txt                       # x,y per line
 *       fields: [rho, u, v, p]                        # default: all
 *
 * Each point is located once, at start: every rank looks for the
 * element that holds it by inverting the element's mapping (Newton on
 * x(xi) = sum_j l_j(xi) x_j over its solution points, which is the
 * geometry for meshes of order <= p); the lowest rank that holds it
 * samples it; a point that no rank holds is refused, naming it. The
 * element's basis at the point's xi interpolates the solution there in
 * a kernel over the rank's probes (a view gathers each probe's element
 * from the register of u), which also computes the fields (expressions
 * of the variables, as integrate's); only those values reach the host.
 * A point on a face between elements is sampled in one of them (the
 * solution may jump there): give points inside elements where results
 * must agree on any number of ranks. */
#include "analysis.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WHO "sampler"

static const frx_option options[] = {
    {.key = "file", .type = FRX_OPT_STRING, .required = 1,
     .help = "the CSV file the samples go to (rank 0 writes it; a restart "
             "continues it)"},
    {.key = "points", .type = FRX_OPT_MAP,
     .help = "{<name>: [x, y]}: the probe points by name"},
    {.key = "points-file", .type = FRX_OPT_STRING,
     .help = "a text file of probe points, one per line: 'x,y' (named "
             "p<line>) or 'name,x,y'; # starts a comment"},
    {.key = "fields", .type = FRX_OPT_STRING_LIST,
     .help = "what to sample: expressions of the variables (and of what "
             "the solver derives: euler's u, v, p), x, y, t; default: "
             "every variable and derived field"},
    AN_CSV_OPTIONS,
    {0},
};

struct probe {
    char name[64];
    char where[600];   /* where it was given */
    double x[3];
    int owner;         /* rank */
    size_t blk, ele;   /* on the owner */
    double xi[3];
};

struct pblock {        /* this rank's probes in one block */
    size_t n;
    size_t *ids;       /* global probe index */
    size_t *ele;
    frx_matrix *l, *x, *out;
    double *host;      /* nout x n */
    char kname[96];    /* its kernel (by its element's nupts) */
};

struct sampler {
    an_base base; /* first: an_save and an_finish read it */
    int ndims;
    size_t nprobes, nvars, nblocks;
    struct probe *p;
    struct pblock *pb;
    an_fields f;
    an_binds binds;
    double *vals;      /* nprobes x nfields, this rank's probes set */
    /* a row's numbers are written as text by the rank that owns them
     * (formatting is most of a row's cost: shared out, not all on rank
     * 0), each in a slot of AN_SLOT bytes (its length, then its
     * characters), and gathered on rank 0 */
    char *mine, *slots, *row;
    int *counts, *displs, *next; /* rank 0: each rank's slot bytes */
};

#define AN_SLOT 33     /* a length byte and an_fmt_double's 32 */

static void sampler_destroy(void *state)
{
    struct sampler *s = state;
    if (!s)
        return;
    an_binds_free(&s->binds);
    for (size_t b = 0; s->pb && b < s->nblocks; b++) {
        free(s->pb[b].ids);
        free(s->pb[b].ele);
        frx_matrix_destroy(s->pb[b].l);
        frx_matrix_destroy(s->pb[b].x);
        frx_matrix_destroy(s->pb[b].out);
        free(s->pb[b].host);
    }
    free(s->pb);
    free(s->p);
    an_fields_free(&s->f);
    an_csv_free(&s->base.csv);
    free(s->vals);
    free(s->mine);
    free(s->slots);
    free(s->row);
    free(s->counts);
    free(s->displs);
    free(s->next);
    free(s);
}

static int add_probe(struct sampler *s, const char *name, const char *where,
                     const double *x, size_t nx)
{
    if ((int)nx != s->ndims)
        return frx_error(FRX_ECONFIG, "%s: sampler: point '%s' has %zu "
                         "coordinates; the mesh is %d-D", where, name, nx,
                         s->ndims);
    for (size_t i = 0; i < s->nprobes; i++)
        if (!strcmp(s->p[i].name, name))
            return frx_error(FRX_ECONFIG, "%s: sampler: a second point named "
                             "'%s' (the first: %s)", where, name,
                             s->p[i].where);
    struct probe *p = realloc(s->p, (s->nprobes + 1) * sizeof *p);
    if (!p)
        return frx_error(FRX_ENOMEM, WHO ": out of memory");
    s->p = p;
    p = &s->p[s->nprobes++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->where, sizeof p->where, "%s", where);
    memcpy(p->x, x, nx * sizeof *x);
    return FRX_OK;
}

static int points_from_yaml(struct sampler *s, const frx_cfgnode *map)
{
    for (size_t i = 0; i < frx_cfg_len(map); i++) {
        const char *name = frx_cfg_key_at(map, i);
        const frx_cfgnode *v = frx_cfg_at(map, i);
        char where[512];
        fr_cfg_place(v, where, sizeof where);
        double x[3];
        size_t n = frx_cfg_type(v) == FRX_CFG_LIST ? frx_cfg_len(v) : 0;
        if (!n || n > 3)
            return frx_error(FRX_ECONFIG, "%s: sampler: points.%s must be "
                             "[x, y]", where, name);
        for (size_t d = 0; d < n; d++) {
            const frx_cfgnode *c = frx_cfg_at(v, d);
            const char *t = frx_cfg_type(c) == FRX_CFG_SCALAR
                                ? frx_cfg_scalar(c) : "";
            char *end;
            x[d] = strtod(t, &end);
            if (end == t || *end || !isfinite(x[d]))
                return frx_error(FRX_ECONFIG, "%s: sampler: points.%s: '%s' "
                                 "is no number", where, name, t);
        }
        if (strlen(name) >= sizeof s->p->name)
            return frx_error(FRX_ECONFIG, "%s: sampler: the name '%s' is "
                             "too long", where, name);
        int rc = add_probe(s, name, where, x, n);
        if (rc)
            return rc;
    }
    return FRX_OK;
}

static int points_from_file(struct sampler *s, const char *path)
{
    FILE *in = fopen(path, "r");
    if (!in)
        return frx_error(FRX_EIO, "sampler: cannot read points-file %s: %s",
                         path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    int rc = FRX_OK;
    for (int ln = 1; rc == FRX_OK && getline(&line, &cap, in) >= 0; ln++) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *tok[5], *save = NULL;
        size_t nt = 0;
        for (char *t = strtok_r(line, ", \t\r\n", &save); t && nt < 5;
             t = strtok_r(NULL, ", \t\r\n", &save))
            tok[nt++] = t;
        if (!nt)
            continue;
        char where[4200], name[64], *end;
        snprintf(where, sizeof where, "%s:%d", path, ln);
        strtod(tok[0], &end);
        size_t first = *end ? 1 : 0; /* a name first */
        double x[3];
        size_t nx = nt - first;
        int bad = nx < 1 || nx > 3;
        for (size_t d = 0; !bad && d < nx; d++) {
            x[d] = strtod(tok[first + d], &end);
            bad = *end || !isfinite(x[d]);
        }
        if (bad && ln == 1 && first) /* a header: "x,y" */
            continue;
        if (bad) {
            rc = frx_error(FRX_ECONFIG, "%s: sampler: expected 'x,y' or "
                           "'name,x,y'", where);
            break;
        }
        if (first)
            snprintf(name, sizeof name, "%s", tok[0]);
        else
            snprintf(name, sizeof name, "p%d", ln);
        rc = add_probe(s, name, where, x, nx);
    }
    free(line);
    fclose(in);
    return rc;
}

/* ------------------------------------------------------------ locating */

/* Solve the nd x nd system a x = b (a row-major) by elimination with
 * partial pivoting; 0 if singular. */
static int solve(int nd, double *a, double *b)
{
    for (int c = 0; c < nd; c++) {
        int piv = c;
        for (int r = c + 1; r < nd; r++)
            if (fabs(a[r * nd + c]) > fabs(a[piv * nd + c]))
                piv = r;
        if (a[piv * nd + c] == 0)
            return 0;
        for (int k = 0; k < nd; k++) {
            double t = a[c * nd + k];
            a[c * nd + k] = a[piv * nd + k];
            a[piv * nd + k] = t;
        }
        double t = b[c];
        b[c] = b[piv];
        b[piv] = t;
        for (int r = c + 1; r < nd; r++) {
            double m = a[r * nd + c] / a[c * nd + c];
            for (int k = c; k < nd; k++)
                a[r * nd + k] -= m * a[c * nd + k];
            b[r] -= m * b[c];
        }
    }
    for (int c = nd - 1; c >= 0; c--) {
        for (int k = c + 1; k < nd; k++)
            b[c] -= a[c * nd + k] * b[k];
        b[c] /= a[c * nd + c];
    }
    return 1;
}

static int inside(int etype, int nd, const double *xi)
{
    const double tol = 1e-10;
    if (etype == FR_TRI)
        return xi[0] >= -1 - tol && xi[1] >= -1 - tol &&
               xi[0] + xi[1] <= tol;
    if (etype == FR_TET)
        return xi[0] >= -1 - tol && xi[1] >= -1 - tol && xi[2] >= -1 - tol &&
               xi[0] + xi[1] + xi[2] <= -1 + tol;
    if (etype == FR_PRI)
        return xi[0] >= -1 - tol && xi[1] >= -1 - tol &&
               xi[0] + xi[1] <= tol && fabs(xi[2]) <= 1 + tol;
    if (etype == FR_PYR) /* |x|, |y| <= (1 - z)/2 */
        return xi[2] >= -1 - tol && xi[2] <= 1 + tol &&
               fabs(xi[0]) <= 0.5 * (1 - xi[2]) + tol &&
               fabs(xi[1]) <= 0.5 * (1 - xi[2]) + tol;
    for (int d = 0; d < nd; d++)
        if (fabs(xi[d]) > 1 + tol)
            return 0;
    return 1;
}

/* Invert element ex's mapping (X: its solution points [nupts][nd]) at
 * x: 1 with xi if x is in the element. vals/grads: scratch. */
static int locate(const fr_element *el, const double *X, const double *x,
                  double *xi, double *vals, double *grads)
{
    int nd = fr_element_ndims(el), et = fr_element_etype(el);
    size_t nu = fr_element_nupts(el);
    for (int d = 0; d < nd; d++)
        xi[d] = et == FR_TRI || (et == FR_PRI && d < 2) ? -1.0 / 3
                : et == FR_TET || (et == FR_PYR && d == 2) ? -0.5 : 0;
    for (int it = 0; it < 50; it++) {
        if (fr_element_basis_at(el, 1, xi, vals, grads))
            return 0;
        double r[3] = {0}, J[9] = {0};
        for (size_t j = 0; j < nu; j++)
            for (int a = 0; a < nd; a++) {
                r[a] += vals[j] * X[j * nd + a];
                for (int d = 0; d < nd; d++)
                    J[a * nd + d] += grads[d * nu + j] * X[j * nd + a];
            }
        for (int a = 0; a < nd; a++)
            r[a] = x[a] - r[a];
        if (!solve(nd, J, r))
            return 0;
        double step = 0;
        for (int d = 0; d < nd; d++) {
            xi[d] += r[d];
            step = fmax(step, fabs(r[d]));
        }
        if (!isfinite(step) || step > 1e3)
            return 0;
        if (step < 1e-14)
            break;
    }
    return inside(et, nd, xi);
}

static int locate_all(struct sampler *s, fr_system *sys)
{
    int *found = malloc((2 * s->nprobes + 1) * sizeof *found);
    if (!found)
        return frx_error(FRX_ENOMEM, WHO ": out of memory");
    int *owner = found + s->nprobes;
    for (size_t i = 0; i < s->nprobes; i++)
        found[i] = INT_MAX;
    int rc = FRX_OK;
    for (size_t b = 0; b < s->nblocks && !rc; b++) {
        const fr_element *el = fr_system_element(sys, b);
        const fr_geometry *g = fr_system_geometry(sys, b);
        size_t nu = g->nupts, nd = (size_t)g->ndims;
        double *vals = malloc((nu * (nd + 1) + 1) * sizeof *vals);
        if (!vals) {
            rc = frx_error(FRX_ENOMEM, WHO ": out of memory");
            break;
        }
        for (size_t e = 0; e < g->neles; e++) {
            const double *X = g->xupts + e * nu * nd;
            double lo[3], hi[3];
            for (size_t d = 0; d < nd; d++) {
                lo[d] = hi[d] = X[d];
                for (size_t j = 1; j < nu; j++) {
                    lo[d] = fmin(lo[d], X[j * nd + d]);
                    hi[d] = fmax(hi[d], X[j * nd + d]);
                }
            }
            for (size_t d = 0; d < nd; d++) { /* the points are inside */
                double m = hi[d] - lo[d];
                lo[d] -= m, hi[d] += m;
            }
            for (size_t i = 0; i < s->nprobes; i++) {
                struct probe *p = &s->p[i];
                if (found[i] != INT_MAX)
                    continue;
                int near = 1;
                for (size_t d = 0; d < nd; d++)
                    near &= p->x[d] >= lo[d] && p->x[d] <= hi[d];
                if (near && locate(el, X, p->x, p->xi, vals, vals + nu)) {
                    found[i] = s->base.rank;
                    p->blk = b;
                    p->ele = e;
                }
            }
        }
        free(vals);
    }
    MPI_Allreduce(found, owner, (int)s->nprobes, MPI_INT, MPI_MIN, s->base.mpi);
    for (size_t i = 0; i < s->nprobes && !rc; i++) {
        s->p[i].owner = owner[i];
        if (owner[i] == INT_MAX)
            rc = frx_error(FRX_ECONFIG, "%s: sampler: point '%s' at (%.9g, "
                           "%.9g) is in no element of the mesh; move it "
                           "inside", s->p[i].where, s->p[i].name,
                           s->p[i].x[0], s->ndims > 1 ? s->p[i].x[1] : 0.0);
    }
    free(found);
    return rc;
}

/* ------------------------------------------------------------- kernels */

static int register_kernel(struct sampler *s, size_t nupts, char *name)
{
    char args[1024], consts[512], head[512], tail[128], *body = NULL;
    an_fields_const_args(&s->f, consts, sizeof consts);
    snprintf(args, sizeof args, "in view fpdtype_t[%zu][%zu] uv, in "
             "fpdtype_t[%zu] l, in fpdtype_t[%d] x, scalar fpdtype_t t, out "
             "fpdtype_t[%zu] s%s", nupts, s->nvars, nupts, s->ndims,
             s->f.nexprs, consts);
    an_interp_text(head, sizeof head, nupts, s->nvars);
    snprintf(tail, sizeof tail, "for (int _k = 0; _k < %zu; _k++)\n"
             "    s[_k] = _e[_k];", s->f.nexprs);
    int rc = an_fields_body(&s->f, frx_backend_precision(s->base.be), head,
                            tail, &body);
    if (rc)
        return rc;
    char base[64];
    snprintf(base, sizeof base, "sampler%zu", nupts);
    an_kernel_name(base, args, body, name, 96);
    frx_kernel_decl d = {.name = name, .ndim = 1, .args = args, .body = body};
    rc = frx_kernel_register(s->base.be, &d);
    free(body);
    return rc;
}

static int bind(void *ud, size_t b, frx_matrix *const *u, frx_kernel **k)
{
    struct sampler *s = ud;
    struct pblock *pb = &s->pb[b];
    if (!pb->n)
        return FRX_OK;
    frx_view *v = NULL;
    int rc = an_element_view(s->base.be, u[b], pb->n, pb->ele, s->nvars, &v);
    frx_arg a[5 + AN_MAX_CONSTS] = {frx_arg_view(v), frx_arg_matrix(pb->l),
                                    frx_arg_matrix(pb->x), frx_arg_unset(),
                                    frx_arg_matrix(pb->out)};
    size_t na = 5 + an_fields_bind_consts(&s->f, a + 5);
    if (!rc)
        rc = frx_kernel_create(s->base.be, pb->kname, 1, pb->n, a, na, k);
    frx_view_destroy(v);
    return rc;
}

/* The probes of each block on this rank, with their basis weights,
 * coordinates and outputs on the backend, and the kernels' code. */
static int setup_blocks(struct sampler *s, fr_system *sys)
{
    s->pb = calloc(s->nblocks + 1, sizeof *s->pb);
    if (!s->pb)
        return frx_error(FRX_ENOMEM, WHO ": out of memory");
    int rc = FRX_OK;
    for (size_t b = 0; b < s->nblocks && !rc; b++) {
        struct pblock *pb = &s->pb[b];
        const fr_element *el = fr_system_element(sys, b);
        size_t nu = fr_element_nupts(el), nd = (size_t)s->ndims;
        rc = register_kernel(s, nu, pb->kname);
        for (size_t i = 0; i < s->nprobes; i++)
            pb->n += s->p[i].owner == s->base.rank && s->p[i].blk == b;
        if (rc || !pb->n)
            continue;
        pb->ids = malloc(pb->n * sizeof *pb->ids);
        pb->ele = malloc(pb->n * sizeof *pb->ele);
        double *l = malloc(pb->n * (nu + nd) * sizeof *l), *x = l + pb->n * nu;
        pb->host = malloc(pb->n * s->f.nexprs * sizeof *pb->host);
        if (!pb->ids || !pb->ele || !l || !pb->host) {
            free(l);
            rc = frx_error(FRX_ENOMEM, WHO ": out of memory");
            break;
        }
        /* host layouts [nrow = 1][nvar][n] */
        double *w = malloc(nu * sizeof *w);
        size_t j = 0;
        for (size_t i = 0; w && i < s->nprobes && !rc; i++) {
            const struct probe *p = &s->p[i];
            if (p->owner != s->base.rank || p->blk != b)
                continue;
            pb->ids[j] = i;
            pb->ele[j] = p->ele;
            rc = fr_element_basis_at(el, 1, p->xi, w, NULL);
            for (size_t k = 0; k < nu; k++)
                l[k * pb->n + j] = w[k];
            for (size_t d = 0; d < nd; d++)
                x[d * pb->n + j] = p->x[d];
            j++;
        }
        if (!w)
            rc = frx_error(FRX_ENOMEM, WHO ": out of memory");
        free(w);
        if (!rc)
            rc = frx_matrix_create(s->base.be, 1, nu, pb->n, &pb->l);
        if (!rc)
            rc = frx_matrix_write_double(pb->l, l);
        if (!rc)
            rc = frx_matrix_create(s->base.be, 1, nd, pb->n, &pb->x);
        if (!rc)
            rc = frx_matrix_write_double(pb->x, x);
        if (!rc)
            rc = frx_matrix_create(s->base.be, 1, s->f.nexprs, pb->n, &pb->out);
        free(l);
    }
    return rc;
}

/* The text buffers of a row: this rank's slots, and on rank 0 every
 * rank's (where each rank's start, from the probes' owners) and the
 * row. */
static int setup_slots(struct sampler *s)
{
    size_t nf = s->f.nexprs, nmine = 0;
    for (size_t i = 0; i < s->nprobes; i++)
        nmine += s->p[i].owner == s->base.rank;
    if (s->nprobes * nf * AN_SLOT > INT_MAX / 2)
        return frx_error(FRX_ECONFIG, WHO ": %zu points of %zu fields are "
                         "too many for one row", s->nprobes, nf);
    s->mine = malloc(nmine * nf * AN_SLOT + 1); /* and a status byte */
    if (!s->mine)
        return frx_error(FRX_ENOMEM, WHO ": out of memory");
    if (s->base.rank != 0)
        return FRX_OK;
    int size;
    MPI_Comm_size(s->base.mpi, &size);
    s->counts = calloc((size_t)size, sizeof *s->counts);
    s->displs = calloc((size_t)size, sizeof *s->displs);
    s->next = calloc((size_t)size, sizeof *s->next);
    s->slots = malloc(s->nprobes * nf * AN_SLOT + (size_t)size);
    s->row = malloc(s->nprobes * nf * AN_SLOT + 1);
    if (!s->counts || !s->displs || !s->next || !s->slots || !s->row)
        return frx_error(FRX_ENOMEM, WHO ": out of memory");
    for (int r = 0; r < size; r++)
        s->counts[r] = 1;
    for (size_t i = 0; i < s->nprobes; i++)
        s->counts[s->p[i].owner] += (int)(nf * AN_SLOT);
    for (int r = 1; r < size; r++)
        s->displs[r] = s->displs[r - 1] + s->counts[r - 1];
    return FRX_OK;
}

static int sampler_create(const frx_extension_init *init, void **state)
{
    struct sampler *s = calloc(1, sizeof *s);
    if (!s)
        return frx_error(FRX_ENOMEM, WHO ": out of memory");
    *state = s;
    s->ndims = init->ndims;
    s->nvars = init->nvars;
    s->nblocks = s->binds.nblocks = init->nblocks;
    const char *pfile;
    int rc = an_base_init(&s->base, init, WHO);
    fr_system *sys = NULL;
    if (!rc)
        rc = frx_ext_handle(s->base.ext, "fr.system", "fr_system", (void **)&sys);
    if (!rc)
        rc = an_fields_init(&s->f, init, s->base.ext, WHO);
    const frx_cfgnode *pts = frx_cfg_get(init->options, "points");
    if (!rc && pts)
        rc = points_from_yaml(s, pts);
    if (!rc)
        rc = frx_cfg_string(init->options, "points-file", "", &pfile);
    if (!rc && pfile[0])
        rc = points_from_file(s, pfile);
    if (!rc && !s->nprobes) {
        char at[512];
        rc = frx_error(FRX_ECONFIG, "%s: sampler: no points; give points: "
                       "{<name>: [x, y]} or points-file",
                       fr_cfg_place(init->options, at, sizeof at));
    }
    const frx_cfgnode *fl = frx_cfg_get(init->options, "fields");
    for (size_t i = 0; !rc && fl && i < frx_cfg_len(fl); i++) {
        const frx_cfgnode *n = frx_cfg_at(fl, i);
        char key[64];
        snprintf(key, sizeof key, "fields[%zu]", i);
        rc = an_fields_add(&s->f, n, key, frx_cfg_scalar(n));
    }
    for (size_t i = 0; !rc && !fl && i < s->f.nnames; i++)
        rc = an_fields_add_text(&s->f, s->f.names[i], NULL, s->f.names[i],
                                s->f.names[i]);
    size_t nv = s->nprobes * s->f.nexprs;
    if (!rc && !(s->vals = calloc(nv + 1, sizeof *s->vals)))
        rc = frx_error(FRX_ENOMEM, WHO ": out of memory");
    if (!rc)
        rc = locate_all(s, sys);
    if (!rc)
        rc = setup_slots(s);
    if (!rc)
        rc = setup_blocks(s, sys);
    return rc;
}

/* Sample the state now, and a row. */
static int sample(struct sampler *s, const frx_ext_now *now)
{
    frx_kernel **k;
    size_t nf = s->f.nexprs;
    int rc = an_binds_get(&s->binds, now->u, bind, s, &k);
    memset(s->vals, 0, s->nprobes * nf * sizeof *s->vals);
    for (size_t b = 0; b < s->nblocks && !rc; b++) {
        struct pblock *pb = &s->pb[b];
        if (!pb->n)
            continue;
        rc = frx_kernel_set_scalar(k[b], "t", now->t);
        if (!rc)
            rc = frx_kernel_run(k[b]);
        if (!rc)
            rc = frx_matrix_read_double(pb->out, pb->host);
        for (size_t j = 0; !rc && j < pb->n; j++)
            for (size_t f = 0; f < nf; f++)
                s->vals[pb->ids[j] * nf + f] = pb->host[f * pb->n + j];
    }
    /* this rank's numbers as text, its probes in order */
    char *m = s->mine;
    for (size_t i = 0; i < s->nprobes; i++)
        for (size_t f = 0; s->p[i].owner == s->base.rank && f < nf; f++) {
            m[0] = (char)an_fmt_double(m + 1, AN_SLOT - 1, s->vals[i * nf + f]);
            m += AN_SLOT;
        }
    *m++ = rc ? 1 : 0; /* a rank that failed: no row (it says why) */
    MPI_Gatherv(s->mine, (int)(m - s->mine), MPI_CHAR, s->slots, s->counts,
                s->displs, MPI_CHAR, 0, s->base.mpi);
    if (rc || s->base.rank != 0)
        return rc;
    int size, *next = s->next;
    MPI_Comm_size(s->base.mpi, &size);
    for (int r = 0; r < size; r++)
        if (s->slots[s->displs[r] + s->counts[r] - 1])
            return FRX_OK;
    /* the row, each probe's numbers from its owner's slots */
    memcpy(next, s->displs, (size_t)size * sizeof *next);
    char *row = s->row;
    for (size_t i = 0; i < s->nprobes; i++)
        for (size_t f = 0; f < nf; f++) {
            const char *slot = s->slots + next[s->p[i].owner];
            size_t len = (unsigned char)slot[0];
            next[s->p[i].owner] += AN_SLOT;
            *row++ = ',';
            memcpy(row, slot + 1, len);
            row += len;
        }
    return an_csv_row_text(&s->base.csv, now->step, now->t, s->row,
                           (size_t)(row - s->row));
}

static int sampler_initial(void *state, const frx_ext_now *now)
{
    struct sampler *s = state;
    char *header = NULL;
    size_t len = 0;
    FILE *h = an_header_open(&header, &len);
    for (size_t i = 0; h && i < s->nprobes; i++)
        for (size_t f = 0; f < s->f.nexprs; f++)
            an_csv_column(h, s->p[i].name, s->f.labels[f]);
    int rc = an_header_start(&s->base, h, &header, now->step);
    if (!rc && now->step == 0)
        rc = sample(s, now);
    return rc;
}

static int sampler_step(void *state, const frx_ext_now *now)
{
    return sample(state, now);
}

static const frx_extension_ops ops = {
    .size = sizeof(frx_extension_ops),
    .options = options,
    .api_major = FRX_EXTENSION_API_MAJOR,
    .api_minor = FRX_EXTENSION_API_MINOR,
    .create = sampler_create,
    .destroy = sampler_destroy,
    .initial = sampler_initial,
    .step = sampler_step,
    .save = an_save,
    .finish = an_finish,
};

static const frx_plugin_desc desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_EXTENSION, "sampler", "1.0.0",
                         "the solution at probe points every N steps, to a "
                         "CSV file (FR solvers)"),
    .extension = &ops,
};

FRX_PLUGIN_DEFINE(desc)
