/* SPDX-License-Identifier: BSD-3-Clause */
/* The host side of the mesh: each element's centre and area, each
 * face's outward normal times its length, the lists of interior and
 * peer faces, and the periods of the mesh. */
#include "advect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int oom(void) { return frx_error(FRX_ENOMEM, "advect: out of memory"); }

static int sides_alloc(struct advect_sides *s, size_t n)
{
    s->n = n;
    s->ele = calloc(n ? n : 1, sizeof *s->ele);
    s->face = calloc(n ? n : 1, sizeof *s->face);
    s->sn = calloc(2 * (n ? n : 1), sizeof *s->sn);
    return s->ele && s->face && s->sn ? FRX_OK : oom();
}

static void sides_free(struct advect_sides *s)
{
    free(s->ele);
    free(s->face);
    free(s->sn);
}

/* Side i: face `face` of element `ele`, its scaled outward normal. In
 * 2-D a face k runs from corner k to corner k+1 with the element on its
 * left: (dy, -dx) points out and is as long as the face. */
static void side_set(struct advect *a, struct advect_sides *s, size_t i,
                     const frx_face *f)
{
    const double *c = &a->vis_pts[f->ele * a->nf * 2];
    const double *p = &c[2 * f->face], *q = &c[2 * ((f->face + 1) % a->nf)];
    s->ele[i] = f->ele;
    s->face[i] = f->face;
    s->sn[i] = q[1] - p[1];
    s->sn[s->n + i] = -(q[0] - p[0]);
}

/* Centre (of area), area and corners of every element; the largest
 * outflow over area, for max_dt. */
static int elements(struct advect *a, const frx_mesh_block *mb)
{
    size_t n = mb->neles, nf = mb->nfaces;
    a->neles = n;
    a->nf = nf;
    a->centre = calloc(2 * n, sizeof(double));
    a->area = calloc(n, sizeof(double));
    a->vis_pts = calloc(n * nf * 2, sizeof(double));
    a->vis_op = calloc(nf, sizeof(double));
    if (!a->centre || !a->area || !a->vis_pts || !a->vis_op)
        return oom();
    for (size_t k = 0; k < nf; k++)
        a->vis_op[k] = 1;
    for (size_t e = 0; e < n; e++) {
        const double *sh = &mb->shape[e * mb->nshape * 2];
        double *c = &a->vis_pts[e * nf * 2];
        memcpy(c, sh, nf * 2 * sizeof(double)); /* corners come first */
        double ar = 0, cx = 0, cy = 0, out = 0;
        for (size_t k = 0; k < nf; k++) { /* the shoelace formula */
            const double *p = &c[2 * k], *q = &c[2 * ((k + 1) % nf)];
            double w = p[0] * q[1] - q[0] * p[1];
            ar += w / 2;
            cx += (p[0] + q[0]) * w / 6;
            cy += (p[1] + q[1]) * w / 6;
            double an = a->vel[0] * (q[1] - p[1]) - a->vel[1] * (q[0] - p[0]);
            out += an > 0 ? an : 0;
        }
        a->area[e] = ar;
        a->centre[2 * e] = cx / ar;
        a->centre[2 * e + 1] = cy / ar;
        if (out / ar > a->rate)
            a->rate = out / ar;
    }
    return FRX_OK;
}

/* The wave of the initial condition repeats with the mesh: a periodic
 * pair along x and one along y give its periods. */
static int periods(struct advect *a, const frx_mesh *m, size_t nperiodic)
{
    for (size_t i = 0; i < nperiodic; i++) {
        frx_mesh_periodic p = {.size = sizeof p};
        int rc = frx_mesh_get_periodic(m, i, &p);
        if (rc)
            return rc;
        for (int d = 0; d < 2; d++)
            if (p.shift[d] != 0 && p.shift[1 - d] == 0)
                a->period[d] = fabs(p.shift[d]);
    }
    if (!(a->period[0] > 0 && a->period[1] > 0))
        return frx_error(FRX_ECONFIG, "advect: the mesh must be periodic in "
                         "x and in y (mesh.periodic: [true, true]): the "
                         "example has no boundary conditions");
    return FRX_OK;
}

static int face_lists(struct advect *a, const frx_mesh *m, size_t npeers)
{
    const frx_mesh_iface *fs;
    size_t n, elsize;
    int rc = frx_mesh_get_ifaces(m, &fs, &n, &elsize);
    if (rc || (rc = sides_alloc(&a->il, n)) || (rc = sides_alloc(&a->ir, n)))
        return rc;
    for (size_t i = 0; i < n; i++) {
        const frx_mesh_iface *f =
            (const void *)((const char *)fs + i * elsize);
        side_set(a, &a->il, i, &f->l);
        side_set(a, &a->ir, i, &f->r);
    }
    a->peers = calloc(npeers ? npeers : 1, sizeof *a->peers);
    if (!a->peers)
        return oom();
    a->npeers = npeers;
    for (size_t p = 0; p < npeers; p++) {
        frx_mesh_peer mp = {.size = sizeof mp};
        if ((rc = frx_mesh_get_peer(m, p, &mp)) ||
            (rc = sides_alloc(&a->peers[p].local, mp.nfaces)))
            return rc;
        a->peers[p].rank = mp.rank;
        for (size_t i = 0; i < mp.nfaces; i++)
            side_set(a, &a->peers[p].local, i,
                     (const void *)((const char *)mp.faces +
                                    i * mp.face_size));
    }
    return FRX_OK;
}

int adv_geometry(struct advect *a, const frx_mesh *m)
{
    if (!m)
        return frx_error(FRX_ECONFIG, "advect: the case needs a mesh (mesh: "
                         "{type: box, n: [32, 32], periodic: [true, "
                         "true]})");
    frx_mesh_info mi = {.size = sizeof mi};
    frx_mesh_block mb = {.size = sizeof mb};
    int rc = frx_mesh_get_info(m, &mi);
    if (rc)
        return rc;
    if (mi.ndims != 2 || mi.nblocks != 1)
        return frx_error(FRX_ENOTSUP, "advect: rank %d holds %zu block(s) "
                         "in %d-D: the example solves on one block of "
                         "triangles or quadrilaterals in 2-D", mi.rank,
                         mi.nblocks, mi.ndims);
    if ((rc = frx_mesh_get_block(m, 0, &mb)))
        return rc;
    if (mb.etype != FRX_ETYPE_TRI && mb.etype != FRX_ETYPE_QUAD)
        return frx_error(FRX_ENOTSUP, "advect: element type %d: the example "
                         "takes triangles and quadrilaterals", mb.etype);
    size_t nper = FRX_SIZE_HOLDS(frx_mesh_info, &mi, nperiodic)
                      ? mi.nperiodic : 0;
    if ((rc = periods(a, m, nper)) || (rc = elements(a, &mb)))
        return rc;
    return face_lists(a, m, mi.npeers);
}

void adv_geometry_free(struct advect *a)
{
    sides_free(&a->il);
    sides_free(&a->ir);
    for (size_t p = 0; p < a->npeers; p++)
        sides_free(&a->peers[p].local);
    free(a->peers);
    free(a->centre);
    free(a->area);
    free(a->vis_pts);
    free(a->vis_op);
}
