/* SPDX-License-Identifier: BSD-3-Clause */
/* Starting a rank's backend from the case (backend.name, or the item of
 * backend.rules that matches it; auto by priority) and stopping it. */
#include "backend/backend-impl.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const required_ops[] = {"create", "mem_alloc", "mem_free",
                                           "mem_write", "mem_read", "pack",
                                           "unpack"};

static int check_ops(const frx_plugin *p)
{
    const frx_backend_ops *ops = frx_plugin_descriptor(p)->backend;
    const int have[] = {
        FRX__OPS_HAS(ops, create),    FRX__OPS_HAS(ops, mem_alloc),
        FRX__OPS_HAS(ops, mem_free),  FRX__OPS_HAS(ops, mem_write),
        FRX__OPS_HAS(ops, mem_read),  FRX__OPS_HAS(ops, pack),
        FRX__OPS_HAS(ops, unpack)};
    for (size_t i = 0; i < sizeof have / sizeof *have; i++)
        if (!have[i])
            return frx_error(FRX_EPLUGIN,
                             "plugin %s: backend function '%s' is missing: "
                             "rebuild the plugin against this frx",
                             frx_plugin_path(p), required_ops[i]);
    return FRX_OK;
}

/* backend.<name>.products: auto, generated or a library the plugin
 * offers (for its operator products). */
static int read_products(frx_backend *be, const frx_cfgnode *options)
{
    const char *v;
    int rc = frx_cfg_string(options, "products", "auto", &v);
    if (rc)
        return rc;
    if (strcmp(v, "auto") != 0) {
        const char *names[16];
        size_t n = frx_backend_products(be, names, 16);
        /* one variant of the generated code: checked by each product */
        int ok = strncmp(v, "generated/r", 11) == 0 &&
                 isdigit((unsigned char)v[11]);
        char list[256] = "auto";
        for (size_t i = 0; i < n && i < 16; i++) {
            ok |= strcmp(v, names[i]) == 0;
            snprintf(list + strlen(list), sizeof list - strlen(list),
                     ", %s", names[i]);
        }
        if (!ok) {
            char where[256];
            return frx_error(FRX_ECONFIG, "%s: backend.%s.products: '%s' is "
                             "not a product provider of this backend (it "
                             "has: %s, or a variant such as generated/r8)",
                             frx__cfg_where(frx_cfg_get(options, "products"),
                                            where, sizeof where),
                             be->name, v, list);
        }
        if (!(be->products = frx__strdup(v)))
            return FRX_ENOMEM;
    }
    return FRX_OK;
}

/* Start the backend of plugin p; on failure nothing is left allocated. */
static int start(const frx_config *cfg, const frx_plugin *p,
                 const struct frx__choice *ch, frx_backend **out)
{
    const frx_plugin_desc *d = frx_plugin_descriptor(p);
    if (d->kind != FRX_PLUGIN_BACKEND || !d->backend)
        return frx_error(FRX_EPLUGIN,
                         "plugin %s is not a backend: choose a backend "
                         "plugin for backend.name", frx_plugin_path(p));
    char why[512] = "";
    int rc = frx_plugin_probe(p, why, sizeof why);
    if (rc)
        return frx_error(FRX_EUNAVAIL,
                         "backend '%s' cannot start here: %s (plugin %s; "
                         "choose another backend.name, or auto)",
                         d->name, why[0] ? why : frx_errmsg(),
                         frx_plugin_path(p));
    rc = check_ops(p);
    if (rc)
        return rc;

    frx_backend *be = frx__calloc(1, sizeof *be, "a backend");
    if (!be)
        return FRX_ENOMEM;
    be->name = frx__strdup(d->name);
    be->plugin = p;
    be->ops = d->backend;
    be->precision = ch->precision;
    be->fpsize = ch->precision == FRX_SINGLE ? 4 : 8;
    be->info.size = sizeof be->info;

    char key[160];
    snprintf(key, sizeof key, "backend.%s", d->name);
    frx_backend_init init = {
        .size = sizeof init,
        .options = cfg ? frx_cfg_get(frx_config_root(cfg), key) : NULL,
        .config = cfg,
        .precision = ch->precision,
        .local_rank = ch->local_rank < 0 ? 0 : ch->local_rank,
        .device = ch->device,
    };
    int size;
    frx__mpi_rank_size(&init.rank, &size);

    rc = be->name ? be->ops->create(&init, &be->info, &be->state) : FRX_ENOMEM;
    if (rc == FRX_OK && (be->info.soasz == 0 || be->info.alignment == 0 ||
                         be->info.alignment % be->fpsize))
        rc = frx_error(FRX_EPLUGIN,
                       "plugin %s reported chunk width %zu and alignment "
                       "%zu bytes: both must be positive and the alignment "
                       "a multiple of %zu; fix the plugin",
                       frx_plugin_path(p), be->info.soasz,
                       be->info.alignment, be->fpsize);
    if (rc == FRX_OK)
        rc = read_products(be, init.options);
    if (rc) {
        if (be->state && be->ops->destroy)
            be->ops->destroy(be->state);
        free(be->products);
        free(be->name);
        free(be);
        return rc;
    }
    *out = be;
    return FRX_OK;
}

/* backend.name: auto -- every backend plugin found, by priority. */
struct candidates {
    const frx_plugin *p[64];
    size_t n;
};

static void collect(const char *path, const frx_plugin *p, int err,
                    const char *msg, void *ud)
{
    (void)path, (void)err, (void)msg;
    struct candidates *c = ud;
    if (!p || c->n == 64)
        return;
    const frx_plugin_desc *d = frx_plugin_descriptor(p);
    if (d->kind == FRX_PLUGIN_BACKEND && d->backend)
        c->p[c->n++] = p;
}

static int by_priority(const void *a, const void *b)
{
    const frx_plugin *pa = *(const frx_plugin *const *)a;
    const frx_plugin *pb = *(const frx_plugin *const *)b;
    int x = frx_plugin_descriptor(pa)->backend->priority;
    int y = frx_plugin_descriptor(pb)->backend->priority;
    return (x < y) - (x > y);
}

/* backend.name: auto: start the plugins by priority and keep the first
 * that starts, except that the first whose device is the host's CPU
 * behind a device API (host_cpu_device) is kept aside, and chosen only
 * when no other backend starts. An error in the case's options of a
 * backend tried (FRX_ECONFIG) ends the search. */
static int start_auto(const frx_config *cfg, const struct frx__choice *ch,
                      frx_backend **out)
{
    struct candidates c = {.n = 0};
    int rc = frx__plugin_foreach(cfg, collect, &c, 0);
    if (rc)
        return rc;
    qsort(c.p, c.n, sizeof *c.p, by_priority);

    char tried[2048] = "";
    size_t len = 0;
    frx_backend *be = NULL, *host_cpu = NULL;
    for (size_t i = 0; i < c.n && !be && rc != FRX_ECONFIG; i++) {
        const char *name = frx_plugin_descriptor(c.p[i])->name;
        rc = start(cfg, c.p[i], ch, &be);
        if (rc == FRX_OK && be->info.host_cpu_device) {
            frx_log(FRX_LOG_INFO,
                    "backend auto: '%s' passed over for now: its device "
                    "(%s) is this host's CPU, which a host backend runs "
                    "without a run-time compiler's start-up cost; name "
                    "it in backend.name to use it", name, be->info.device);
            if (host_cpu)
                frx_backend_destroy(be);
            else
                host_cpu = be;
            be = NULL;
        } else if (rc != FRX_OK && rc != FRX_ECONFIG) {
            frx_log(FRX_LOG_INFO, "backend auto: %s", frx_errmsg());
            int k = snprintf(tried + len, sizeof tried - len, "\n  %s: %s",
                             name, frx_errmsg());
            if (k > 0 && len + (size_t)k < sizeof tried)
                len += (size_t)k;
        }
    }
    if (rc == FRX_ECONFIG) { /* the case's backend.<name> is wrong */
        frx_backend_destroy(host_cpu);
        return rc;
    }
    if (be)
        frx_backend_destroy(host_cpu);
    else
        be = host_cpu;
    if (be) {
        *out = be;
        frx_log(FRX_LOG_INFO, "backend auto: chose '%s' (%s)", be->name,
                be->info.device);
        return FRX_OK;
    }
    char path[1024];
    frx_plugin_search_path(cfg, path, sizeof path);
    return frx_error(FRX_EUNAVAIL,
                     "backend auto: no backend can start here (searched %s)%s",
                     path, c.n ? tried : "\n  no backend plugin was found");
}

int frx__backend_create(const frx_config *cfg, int local_rank,
                        frx_backend **out)
{
    if (!cfg || !out)
        return frx_error(FRX_EINVAL, "frx_backend_create: NULL argument");
    *out = NULL;
    int rank, size;
    frx__mpi_rank_size(&rank, &size);
    struct frx__choice ch;
    double lock_timeout;
    int rc = frx__backend_choice(cfg, rank, &ch);
    if (rc == FRX_OK)
        rc = frx_cfg_double(frx_config_root(cfg), "cache.lock-timeout", 300,
                            0, 86400, &lock_timeout);
    if (rc)
        return rc;
    frx_cache_set_lock_timeout(lock_timeout);
    if (ch.rule >= 0)
        frx_log(FRX_LOG_INFO, "backend.rules item %d matches (host %s): "
                "backend '%s'", ch.rule + 1, ch.host, ch.name);
    /* alone a rank is its node's first; among several, a guess that may
     * put every rank of a node on its first device */
    ch.local_rank = local_rank;
    if (local_rank < 0 && size > 1)
        frx_log(FRX_LOG_WARN, "backend '%s': this rank's place on its node "
                "is unknown (no launcher variable such as "
                "OMPI_COMM_WORLD_LOCAL_RANK or SLURM_LOCALID, and the "
                "backend was not started by frx_backend_create_all): it "
                "counts as local rank 0, so a device chosen by local-rank "
                "is the node's first", ch.name);
    if (strcmp(ch.name, "auto") == 0)
        return start_auto(cfg, &ch, out);

    frx_plugin *p;
    rc = frx_plugin_find(cfg, ch.name, &p);
    if (rc)
        return rc;
    rc = start(cfg, p, &ch, out);
    if (rc == FRX_OK)
        frx_log(FRX_LOG_INFO, "backend '%s' started (%s, %s precision)",
                ch.name, (*out)->info.device,
                ch.precision == FRX_SINGLE ? "single" : "double");
    return rc;
}

/* Without MPI's help: the launcher's variables say where the rank is. */
int frx_backend_create(const frx_config *cfg, frx_backend **out)
{
    return frx__backend_create(cfg, frx__mpi_local_rank(), out);
}

void frx_backend_destroy(frx_backend *be)
{
    if (!be)
        return;
    frx__kernels_release(be); /* compiled code belongs to the plugin */
    if (be->ops->destroy)
        be->ops->destroy(be->state);
    free(be->products);
    free(be->name);
    frx__profile_free(be);
    free(be);
}
