/* SPDX-License-Identifier: BSD-3-Clause */
/* Device choice: backend.<name>.device or a backend.rules entry, among
 * the devices the vendor's runtime shows (it applies CUDA_VISIBLE_DEVICES
 * and its kin itself). */
#include "gpu.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "0 = NVIDIA H200 (sm_90, GPU-...), 1 = ..." into out. */
static void list_devices(const struct gpu_device *d, size_t n, char *out,
                         size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && at < len; i++) {
        int k = snprintf(out + at, len - at, "%s%zu = %s (%s, %s)",
                         i ? ", " : "", i, d[i].name, d[i].arch, d[i].id);
        if (k < 0)
            break;
        at += (size_t)k;
    }
}

static const char *without_gpu_prefix(const char *id)
{
    return strncasecmp(id, "GPU-", 4) == 0 ? id + 4 : id;
}

static int all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

int frx_gpu_choose(const char *spec, int local_rank,
                   const struct gpu_device *d, size_t n, const char *visible,
                   char *why, size_t whylen)
{
    char list[1024];
    list_devices(d, n, list, sizeof list);
    const char *vis = visible && *visible ? visible : NULL;
    if (n == 0) {
        snprintf(why, whylen, "no device is visible%s%s", vis ? " with " : "",
                 vis ? vis : "");
        return -1;
    }
    if (strcmp(spec, "local-rank") == 0)
        return (int)((size_t)(local_rank < 0 ? 0 : local_rank) % n);
    if (all_digits(spec)) {
        unsigned long k = strtoul(spec, NULL, 10);
        if (k < n && strlen(spec) < 10)
            return (int)k;
        snprintf(why, whylen, "no device %s (there %s %zu%s%s: %s)", spec,
                 n == 1 ? "is" : "are", n, vis ? " with " : "",
                 vis ? vis : "", list);
        return -1;
    }
    const char *want = without_gpu_prefix(spec);
    size_t wlen = strlen(want);
    int found = -1, nfound = 0;
    for (size_t i = 0; wlen && i < n; i++)
        if (strncasecmp(without_gpu_prefix(d[i].id), want, wlen) == 0) {
            found = (int)i;
            nfound++;
        }
    if (nfound == 1)
        return found;
    snprintf(why, whylen, "%s '%s': use local-rank, a device index or a "
             "device id (%s%s%s)", nfound ? "more than one device has an id "
             "starting with" : "no device has the id or index", spec, list,
             vis ? "; visible with " : "", vis ? vis : "");
    return -1;
}

int frx_gpu_device_spec(const frx_backend_init *init, const char *backend,
                        const char **spec, char *where, size_t n)
{
    if (FRX_SIZE_HOLDS(frx_backend_init, init, device) && init->device) {
        *spec = init->device;
        snprintf(where, n, "backend.rules device");
        return FRX_OK;
    }
    const frx_cfgnode *node = frx_cfg_get(init->options, "device");
    if (node)
        snprintf(where, n, "%s:%d:%d: backend.%s.device",
                 frx_config_file(frx_cfg_owner(node)), frx_cfg_line(node),
                 frx_cfg_col(node), backend);
    else
        snprintf(where, n, "backend.%s.device", backend);
    return frx_cfg_string(init->options, "device", "local-rank", spec);
}

int frx_gpu_pick(const frx_backend_init *init, const char *vendor,
                 const char *const *vars, size_t nvars,
                 const struct gpu_device *d, size_t n, int *k)
{
    const char *spec;
    char where[256], vis[256], why[1500];
    int rc = frx_gpu_device_spec(init, vendor, &spec, where, sizeof where);
    if (rc)
        return rc;
    frx_gpu_visible(vars, nvars, vis, sizeof vis);
    *k = frx_gpu_choose(spec, init->local_rank, d, n, vis, why, sizeof why);
    if (*k < 0)
        return frx_error(FRX_ECONFIG, "%s: %s", where, why);
    /* which rank took which device: the first thing to look at when
     * ranks of a node share a GPU they should not */
    if (strcmp(spec, "local-rank") == 0)
        frx_log(FRX_LOG_INFO, "%s: device %d = %s (%s): local rank %d on "
                "this node among the %s ranks, of %zu device(s)%s%s",
                vendor, *k, d[*k].name, d[*k].id, init->local_rank, vendor,
                n, *vis ? " with " : "", vis);
    else
        frx_log(FRX_LOG_INFO, "%s: device %d = %s (%s): %s is %s", vendor,
                *k, d[*k].name, d[*k].id, where, spec);
    return FRX_OK;
}

void frx_gpu_visible(const char *const *vars, size_t nvars, char *out,
                     size_t n)
{
    out[0] = '\0';
    for (size_t i = 0; i < nvars; i++) {
        const char *v = getenv(vars[i]);
        if (v) {
            snprintf(out, n, "%s=%s", vars[i], v);
            return;
        }
    }
}

void frx_gpu_uuid_text(const unsigned char u[16], char *out, size_t n)
{
    snprintf(out, n, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
             "%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4], u[5],
             u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
             u[15]);
}

int frx_gpu_arch_known(const char *arch, const char *const *known, size_t n)
{
    size_t len = strcspn(arch, ":");
    for (size_t i = 0; i < n; i++)
        if (strcspn(known[i], ":") == len &&
            strncasecmp(known[i], arch, len) == 0)
            return 1;
    return 0;
}
