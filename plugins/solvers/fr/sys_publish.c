/* SPDX-License-Identifier: BSD-3-Clause */
/* What the FR system publishes for extension plugins (extension.h):
 * itself, each block's solution and auxiliary fields at the flux
 * points, each face set, and two places of its RHS graph (docs/fr.md,
 * "Extensions"), with the accessors of system.h behind them. */
#include "system-internal.h"

#include <stdio.h>
#include <stdlib.h>

/* The public view of face set fs. */
static fr_face_set view_of(const struct fr_faces *fs)
{
    static const int kinds[] = {[FR_FACES_INT] = FR_FACE_INTERIOR,
                                [FR_FACES_PEER] = FR_FACE_PEER,
                                [FR_FACES_BC] = FR_FACE_BOUNDARY};
    return (fr_face_set){
        .size = sizeof(fr_face_set), .kind = kinds[fs->kind],
        .peer = fs->kind == FR_FACES_PEER ? fs->peer : -1,
        .boundary = fs->bc ? fs->bc->name : NULL, .nfaces = fs->nfaces,
        .n = fs->n, .pt_src = fs->pt_src, .ul = fs->ul, .ur = fs->ur,
        .recv = fs->recv, .send = fs->sendxv, .auxl = fs->auxl,
        .auxr = fs->auxr, .auxl_xv = fs->auxlxv, .auxr_xv = fs->auxrxv,
        .al = fs->al, .ar = fs->ar,
        .nrm = fs->kind == FR_FACES_BC ? fs->nl : NULL,
        .mag = fs->kind == FR_FACES_BC ? fs->mag : NULL,
        .x = fs->kind == FR_FACES_BC ? fs->x : NULL,
        .fwts = fs->kind == FR_FACES_BC ? fs->fwts : NULL,
        .blk = fs->kind == FR_FACES_BC ? fs->pblk : NULL,
        .ele = fs->kind == FR_FACES_BC ? fs->pele : NULL,
        .fpt = fs->kind == FR_FACES_BC ? fs->pfpt : NULL, .fstart = fs->fstart};
}

int fr__publish(fr_system *s)
{
    frx_extend *x = s->extend;
    s->sets = calloc(s->nfaces ? s->nfaces : 1, sizeof *s->sets);
    if (!s->sets)
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    for (size_t i = 0; i < s->nfaces; i++)
        s->sets[i] = view_of(&s->faces[i]);
    if (!x)
        return FRX_OK;
    int rc = frx_extend_publish(x, "fr.system", "fr_system", s);
    for (size_t b = 0; b < s->nblocks && !rc; b++) {
        char name[64];
        snprintf(name, sizeof name, "fr.ufp.%zu", b);
        rc = frx_extend_publish(x, name, "frx_matrix", s->blk[b].ufp);
        snprintf(name, sizeof name, "fr.auxfp.%zu", b);
        if (!rc && s->blk[b].auxfp)
            rc = frx_extend_publish(x, name, "frx_matrix", s->blk[b].auxfp);
    }
    for (size_t i = 0; i < s->nfaces && !rc; i++) {
        const struct fr_faces *fs = &s->faces[i];
        char name[600];
        if (fs->kind == FR_FACES_INT)
            snprintf(name, sizeof name, "fr.faces.interior");
        else if (fs->kind == FR_FACES_PEER)
            snprintf(name, sizeof name, "fr.faces.peer.%d", fs->peer);
        else
            snprintf(name, sizeof name, "fr.faces.boundary.%s",
                     fs->bc->name);
        rc = frx_extend_publish(x, name, "fr_face_set", &s->sets[i]);
    }
    if (!rc)
        rc = frx_extend_places(x, "after-exchange-waits|"
                                  "after-common-fluxes");
    return rc;
}

size_t fr_system_nface_sets(const fr_system *s) { return s->nfaces; }

const fr_face_set *fr_system_face_set(const fr_system *s, size_t i)
{
    return i < s->nfaces && s->sets ? &s->sets[i] : NULL;
}

frx_matrix *fr_system_ufp(const fr_system *s, size_t blk)
{
    return blk < s->nblocks ? s->blk[blk].ufp : NULL;
}

frx_matrix *fr_system_auxfp(const fr_system *s, size_t blk)
{
    return blk < s->nblocks ? s->blk[blk].auxfp : NULL;
}

const fr_physics *fr_system_physics(const fr_system *s) { return &s->phys; }
