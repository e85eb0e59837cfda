/* SPDX-License-Identifier: BSD-3-Clause */
/* What `frx mesh` asks of the mesh code (mesh-tool.h): a Gmsh file's
 * global mesh and faces, summarised, and partitioned as a job would
 * partition it. */
#include "mesh/gmsh-impl.h"
#include "mesh/mesh-tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct frx__meshfile {
    struct frx__gmesh g;
    struct frx__conn c;
    struct frx__gmsh_about about;
    size_t *pfaces;   /* [g.npers] faces of each periodic pair */
    size_t *bfaces;   /* [g.nbcs] */
    char source[300]; /* what was read, for the partitioned file */
    /* the last partition (frx__meshfile_partition), which save writes */
    int *part;        /* [g.neles] owner of each element, or NULL */
    int nparts;
    double *weights;  /* [nparts] */
    char method[16];
};

/* A case file (.yaml, .yml): its mesh section's source; else Gmsh. */
static int is_case(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot && (!strcmp(dot, ".yaml") || !strcmp(dot, ".yml"));
}

static int read_case(const char *path, frx__meshfile *f)
{
    frx_config *cfg = NULL;
    int rc = frx_config_load(path, &cfg);
    if (rc == FRX_OK)
        rc = frx__mesh_source(cfg, &f->g);
    frx_config_free(cfg);
    snprintf(f->about.format, sizeof f->about.format, "the case's mesh");
    return rc;
}

int frx__meshfile_open(const char *path, frx__meshfile **out)
{
    if (!path || !out)
        return frx_error(FRX_EINVAL, "frx__meshfile_open: NULL argument");
    *out = NULL;
    frx__meshfile *f = frx__calloc(1, sizeof *f, "mesh file");
    if (!f)
        return FRX_ENOMEM;
    snprintf(f->source, sizeof f->source, "%s", path);
    int rc = is_case(path) ? read_case(path, f)
                           : frx__mesh_gmsh_file(path, &f->g, &f->about);
    if (rc == FRX_OK)
        rc = frx__mesh_connect(&f->g, &f->c);
    if (rc == FRX_OK) {
        f->pfaces = frx__calloc(f->g.npers + 1, sizeof *f->pfaces, "faces");
        f->bfaces = frx__calloc(f->g.nbcs + 1, sizeof *f->bfaces, "faces");
        rc = f->pfaces && f->bfaces ? FRX_OK : FRX_ENOMEM;
    }
    for (size_t i = 0; rc == FRX_OK && i < f->c.nfaces; i++) {
        const struct frx__fglob *F = &f->c.faces[i];
        if (F->periodic >= 0)
            f->pfaces[F->periodic]++;
        if (F->bc >= 0)
            f->bfaces[F->bc]++;
    }
    if (rc) {
        frx__meshfile_close(f);
        return rc;
    }
    *out = f;
    return FRX_OK;
}

void frx__meshfile_close(frx__meshfile *f)
{
    if (!f)
        return;
    frx__gmesh_free(&f->g);
    frx__conn_free(&f->c);
    free(f->pfaces);
    free(f->bfaces);
    free(f->part);
    free(f->weights);
    free(f);
}

void frx__meshfile_info(const frx__meshfile *f,
                        struct frx__meshfile_info *out)
{
    const struct frx__gmesh *g = &f->g;
    memset(out, 0, sizeof *out);
    out->format = f->about.format;
    out->region = f->about.region;
    out->ndims = g->ndims;
    out->nnodes = g->nnodes;
    out->neles = g->neles;
    out->nleft = f->about.nleft;
    out->nconverted = f->about.nconverted;
    out->nfaces = f->c.nfaces;
    out->nbcs = g->nbcs;
    out->npers = g->npers;
    for (size_t i = 0; i < g->nbcs; i++)
        out->nbfaces += f->bfaces[i];
    for (size_t i = 0; i < g->npers; i++)
        out->npfaces += f->pfaces[i];
    /* types by (etype, order), as a rank's blocks are ordered */
    for (int et = 1; et <= FRX__ETYPE_LAST; et++)
        for (int o = 1; o <= FRX__MAX_ORDER; o++) {
            size_t n = 0;
            for (size_t e = 0; e < g->neles; e++)
                n += g->etype[e] == et && g->order[e] == o;
            if (!n || out->ntypes == sizeof out->types / sizeof *out->types)
                continue;
            out->types[out->ntypes].name = frx__etype(et)->name;
            out->types[out->ntypes].order = o;
            out->types[out->ntypes++].n = n;
        }
    frx__gmesh_id(g, out->id);
}

void frx__meshfile_bc(const frx__meshfile *f, size_t i, const char **name,
                      size_t *nfaces)
{
    *name = f->g.bcs[i].name;
    *nfaces = f->bfaces[i];
}

void frx__meshfile_periodic(const frx__meshfile *f, size_t i,
                            const char **name, size_t *nfaces,
                            double shift[3])
{
    *name = f->g.pers[i].name;
    *nfaces = f->pfaces[i];
    memcpy(shift, f->g.pers[i].shift, 3 * sizeof *shift);
}

/* The owners of every element, as frx_mesh_create would give them. */
static int owners(frx__meshfile *f, const char *method, int nparts,
                  const double *weights, int *part)
{
    const struct frx__gmesh *g = &f->g;
    int m = !strcmp(method, "linear") ? FRX__PART_LINEAR : FRX__PART_METIS;
    if (strcmp(method, "linear") && strcmp(method, "metis"))
        return frx_error(FRX_EINVAL, "partition method '%s': metis or "
                         "linear", method);
    if (nparts < 1 || (size_t)nparts > g->neles)
        return frx_error(FRX_EINVAL, "%d parts of a mesh of %zu elements: "
                         "every part needs an element", nparts, g->neles);
    for (int r = 0; r < nparts; r++)
        if (!(weights[r] > 0))
            return frx_error(FRX_EINVAL, "weight %d is %g: weights must be "
                             "positive", r, weights[r]);
    return frx__mesh_partition_lean(g, &f->c, m, nparts, weights, part);
}

int frx__meshfile_partition(frx__meshfile *f, const char *method,
                            int nparts, const double *weights, size_t *count,
                            double *work, size_t *ncut)
{
    const struct frx__gmesh *g = &f->g;
    free(f->part);
    free(f->weights);
    f->nparts = 0;
    f->part = frx__calloc(g->neles, sizeof *f->part, "partition");
    f->weights = frx__calloc(nparts > 0 ? (size_t)nparts : 1,
                             sizeof *f->weights, "weights");
    int rc = f->part && f->weights ? owners(f, method, nparts, weights,
                                            f->part)
                                   : FRX_ENOMEM;
    if (rc) {
        free(f->part);
        f->part = NULL;
        return rc;
    }
    f->nparts = nparts;
    memcpy(f->weights, weights, (size_t)nparts * sizeof *f->weights);
    snprintf(f->method, sizeof f->method, "%s", method);
    memset(count, 0, (size_t)nparts * sizeof *count);
    memset(work, 0, (size_t)nparts * sizeof *work);
    for (size_t e = 0; e < g->neles; e++) {
        count[f->part[e]]++;
        work[f->part[e]] += frx__etype_cost(g->etype[e]);
    }
    *ncut = 0;
    for (size_t i = 0; i < f->c.nfaces; i++) {
        const struct frx__fglob *F = &f->c.faces[i];
        *ncut += F->ele[1] != FRX__NONE &&
                 f->part[F->ele[0]] != f->part[F->ele[1]];
    }
    return FRX_OK;
}

struct saving {
    const frx__meshfile *f;
    const char *id;
    void (*say)(int r, int nparts);
};

static int cut_one(void *arg, int r, struct frx__mpart *p)
{
    const struct saving *s = arg;
    int rc = frx__mesh_cut(p, &s->f->g, &s->f->c, s->f->part, r,
                           s->f->nparts);
    memcpy(p->info.id, s->id, sizeof p->info.id);
    return rc;
}

static void say_part(void *arg, int r)
{
    const struct saving *s = arg;
    if (s->say)
        s->say(r, s->f->nparts);
}

int frx__meshfile_save(const frx__meshfile *f, const char *out,
                       void (*say)(int r, int nparts))
{
    const struct frx__gmesh *g = &f->g;
    if (!f->part)
        return frx_error(FRX_EINVAL, "frx__meshfile_save: partition the "
                         "mesh first (frx__meshfile_partition)");
    char id[65];
    frx__gmesh_id(g, id);
    struct frx__pmesh_head h = {.nparts = f->nparts, .ndims = g->ndims,
                                .neles = g->neles, .weights = f->weights};
    memcpy(h.id, id, sizeof h.id);
    snprintf(h.method, sizeof h.method, "%s", f->method);
    snprintf(h.source, sizeof h.source, "%s", f->source);
    struct saving s = {f, id, say};
    return frx__pmesh_write(out, &h, cut_one, say_part, &s);
}
