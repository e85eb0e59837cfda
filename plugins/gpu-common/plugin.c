/* SPDX-License-Identifier: BSD-3-Clause */
/* A GPU backend plugin's create, probe and destroy, once for cuda and
 * hip: the start-up every GPU backend follows, around the steps of
 * struct gpu_backend that differ by vendor. */
#include "gpu.h"

#include <stdio.h>
#include <stdlib.h>

/* A zeroed state of b's size, its struct gpu filled from b. */
static struct gpu *new_state(const struct gpu_backend *b, int precision)
{
    struct gpu *g = calloc(1, b->state_size);
    if (!g)
        return NULL;
    *g = (struct gpu){.vd = b->vd, .backend = b, .vendor = b->name,
                      .target = b->target, .precision = precision,
                      .suffix = b->suffix, .src_suffix = b->src_suffix,
                      .idle = 1};
    return g;
}

/* The visible devices described, one picked by backend.<name>.device or
 * a rule, made current with its stream. */
static int open_device(struct gpu *g, const frx_backend_init *init,
                       int count, struct gpu_device *chosen)
{
    const struct gpu_backend *b = g->backend;
    struct gpu_device devs[64];
    int n = count < 64 ? count : 64, k;
    for (int i = 0; i < n; i++) {
        int rc = b->describe(g, i, &devs[i]);
        if (rc)
            return rc;
    }
    int rc = frx_gpu_pick(init, b->name, b->visible, b->nvisible, devs,
                          (size_t)n, &k);
    if (rc)
        return rc;
    *chosen = devs[k];
    g->ordinal = k;
    if ((rc = b->open_device(g, chosen)))
        return rc;
    snprintf(g->device, sizeof g->device, "%s", chosen->name);
    return FRX_OK;
}

static int attribute(struct gpu *g, int attr, unsigned *out)
{
    int v = 0;
    int rc = g->api->device_attribute(&v, attr, g->ordinal);
    if (rc)
        return frx_gpu_fail(g, rc, g->api->name.device_attribute,
                            "attribute %d", attr);
    *out = v > 0 ? (unsigned)v : 0;
    return FRX_OK;
}

/* Everything after the prototype: the runtime, the device, its limits,
 * the compiler's options, the pack kernels. */
static int set_up(struct gpu *g, const frx_backend_init *init,
                  unsigned *warp, struct gpu_device *dev)
{
    const struct gpu_backend *b = g->backend;
    int count = 0;
    int rc = b->open(g, &count);
    if (rc == FRX_OK)
        rc = open_device(g, init, count, dev);
    if (rc == FRX_OK)
        rc = b->compiles(g, dev);
    if (rc)
        return rc;
    g->lim.block = b->block;
    rc = attribute(g, g->api->attr_max_grid_x, &g->lim.max_grid_x);
    if (rc == FRX_OK)
        rc = attribute(g, g->api->attr_max_grid_y, &g->lim.max_grid_y);
    if (rc == FRX_OK)
        rc = attribute(g, g->api->attr_warp, warp);
    if (rc)
        return rc;
    snprintf(g->arch, sizeof g->arch, "%s", dev->arch);
    snprintf(g->rtc_version, sizeof g->rtc_version, "%s %d.%d", g->rtc.name,
             g->rtc.major, g->rtc.minor);
    snprintf(g->arch_opt, sizeof g->arch_opt, "%s%.40s", b->arch_opt,
             dev->arch);
    g->rtc_opts[0] = g->arch_opt;
    g->nrtc_opts = 1;
    return frx_gpu_start(g);
}

int frx_gpu_create(const struct gpu_backend *b, const frx_backend_init *init,
                   frx_backend_info *info, void **state)
{
    struct gpu *g = new_state(b, init->precision);
    if (!g)
        return frx_error(FRX_ENOMEM, "%s: out of memory", b->name);
    unsigned warp = 0;
    struct gpu_device dev;
    int rc = set_up(g, init, &warp, &dev);
    if (rc == FRX_OK)
        rc = frx_gpu_describe(g, warp, b->chunk, &dev, b->mpi_kind, info);
    if (rc) {
        frx_gpu_destroy(g);
        return rc;
    }
    *state = g;
    return FRX_OK;
}

int frx_gpu_probe(const struct gpu_backend *b, char *why, size_t n)
{
    struct gpu *g = new_state(b, FRX_DOUBLE);
    if (!g) {
        snprintf(why, n, "%s: out of memory", b->name);
        return FRX_ENOMEM;
    }
    int count = 0;
    struct gpu_device first;
    int rc = b->open(g, &count);
    if (rc == FRX_OK)
        rc = b->describe(g, 0, &first);
    if (rc == FRX_OK)
        rc = b->compiles(g, &first);
    if (rc) {
        snprintf(why, n, "%s", frx_errmsg());
        rc = FRX_EUNAVAIL;
    } else {
        char versions[200] = "";
        b->versions(g, versions, sizeof versions);
        snprintf(why, n, "%d device(s), 0 = %s (%s); %s", count, first.name,
                 first.arch, versions);
    }
    frx_gpu_destroy(g);
    return rc;
}

void frx_gpu_destroy(void *state)
{
    struct gpu *g = state;
    if (!g)
        return;
    if (g->stream) /* what frx_gpu_start and later calls made */
        frx_gpu_stop(g);
    if (g->backend && g->backend->close)
        g->backend->close(g);
    free(g);
}
