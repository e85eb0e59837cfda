/* SPDX-License-Identifier: BSD-3-Clause */
/* The global mesh: freeing it, and its identity (SHA-256 over what a
 * source filled, in a fixed little-endian layout, so the same mesh has
 * the same id on every machine and for every partition). */
#include "mesh/mesh-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void frx__gmesh_free(struct frx__gmesh *g)
{
    if (!g)
        return;
    free(g->nodes);
    free(g->etype);
    free(g->order);
    free(g->eoff);
    free(g->enodes);
    for (size_t i = 0; g->bcs && i < g->nbcs; i++) {
        free(g->bcs[i].name);
        free(g->bcs[i].faces);
    }
    free(g->bcs);
    for (size_t i = 0; g->pers && i < g->npers; i++) {
        free(g->pers[i].name);
        free(g->pers[i].faces[0]);
        free(g->pers[i].faces[1]);
    }
    free(g->pers);
    memset(g, 0, sizeof *g);
}

/* Values go through a small buffer of little-endian words. */
struct hasher {
    frx__sha256 s;
    unsigned char buf[4096];
    size_t n;
};

static void put(struct hasher *h, uint64_t v)
{
    if (h->n + 8 > sizeof h->buf) {
        frx__sha256_update(&h->s, h->buf, h->n);
        h->n = 0;
    }
    for (int i = 0; i < 8; i++)
        h->buf[h->n++] = (unsigned char)(v >> (8 * i));
}

static void put_double(struct hasher *h, double x)
{
    uint64_t bits;
    if (x == 0)
        x = 0; /* -0 and 0 are the same coordinate */
    memcpy(&bits, &x, sizeof bits);
    put(h, bits);
}

static void put_string(struct hasher *h, const char *s)
{
    size_t len = strlen(s);
    put(h, len);
    for (size_t i = 0; i < len; i += 8) {
        uint64_t v = 0;
        for (size_t k = 0; k < 8 && i + k < len; k++)
            v |= (uint64_t)(unsigned char)s[i + k] << (8 * k);
        put(h, v);
    }
}

static void put_faces(struct hasher *h, size_t n,
                      const struct frx__gface *f)
{
    put(h, n);
    for (size_t i = 0; i < n; i++) {
        put(h, (uint64_t)f[i].nn);
        for (int k = 0; k < f[i].nn; k++)
            put(h, f[i].n[k]);
    }
}

void frx__gmesh_id(const struct frx__gmesh *g, char id[65])
{
    struct hasher hs, *h = &hs;
    unsigned char out[32];
    h->n = 0;
    frx__sha256_init(&h->s);
    put_string(h, "frx mesh 1");
    put(h, (uint64_t)g->ndims);
    put(h, g->nnodes);
    for (size_t i = 0; i < g->nnodes * (size_t)g->ndims; i++)
        put_double(h, g->nodes[i]);
    put(h, g->neles);
    for (size_t e = 0; e < g->neles; e++) {
        put(h, (uint64_t)g->etype[e]);
        put(h, (uint64_t)g->order[e]);
        put(h, g->eoff[e + 1] - g->eoff[e]);
        for (size_t i = g->eoff[e]; i < g->eoff[e + 1]; i++)
            put(h, g->enodes[i]);
    }
    put(h, g->nbcs);
    for (size_t i = 0; i < g->nbcs; i++) {
        put_string(h, g->bcs[i].name);
        put_faces(h, g->bcs[i].nfaces, g->bcs[i].faces);
    }
    put(h, g->npers);
    for (size_t i = 0; i < g->npers; i++) {
        put_string(h, g->pers[i].name);
        for (int k = 0; k < 3; k++)
            put_double(h, g->pers[i].shift[k]);
        for (int s = 0; s < 2; s++)
            put_faces(h, g->pers[i].nfaces[s], g->pers[i].faces[s]);
    }
    frx__sha256_update(&h->s, h->buf, h->n);
    frx__sha256_final(&h->s, out);
    for (int i = 0; i < 32; i++)
        snprintf(id + 2 * i, 3, "%02x", out[i]);
}
