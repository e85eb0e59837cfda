/* SPDX-License-Identifier: BSD-3-Clause */
/* The CUDA driver, opened at run time: a machine without it still loads
 * the plugin, which then says why it cannot start. */
#include "cudrv.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int frx_cuda_driver_open(struct cu_driver *d, const char *lib, char *why,
                         size_t n)
{
    memset(d, 0, sizeof *d);
    d->lib = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!d->lib) {
        const char *e = dlerror();
        if (e && strstr(e, "No such file"))
            snprintf(why, n, "%s not found: the NVIDIA driver is not "
                     "installed here", lib);
        else
            snprintf(why, n, "%s does not load: %s", lib, e ? e : "?");
        return -1;
    }
    const char *missing = NULL;
#define CU_LOAD(field, symbol, params)                                   \
    if (!missing && !(*(void **)&d->field = dlsym(d->lib, symbol)))     \
        missing = symbol;
    CU_FUNCTIONS(CU_LOAD)
#undef CU_LOAD
#define CU_LOAD_API(field, symbol, call)                                     \
    if (!missing && !(*(void **)&d->api.field = dlsym(d->lib, symbol)))  \
        missing = symbol;                                                \
    d->api.name.field = #call;
    CU_API_FUNCTIONS(CU_LOAD_API)
#undef CU_LOAD_API
#define CU_LOAD_OPTIONAL(field, symbol, params) \
    *(void **)&d->field = dlsym(d->lib, symbol);
    CU_OPTIONAL_FUNCTIONS(CU_LOAD_OPTIONAL)
#undef CU_LOAD_OPTIONAL
    if (missing) {
        snprintf(why, n, "%s has no %s(): the NVIDIA driver is too old for "
                 "frx (update it)", lib, missing);
        d->lib = NULL; /* left loaded: libraries are never unloaded */
        return -1;
    }
    return 0;
}

const char *frx_cuda_errname(const struct cu_driver *d, cu_result rc)
{
    const char *name = NULL;
    if (d->GetErrorName && d->GetErrorName(rc, &name) != CU_OK)
        name = NULL;
    if (name)
        return name;
    switch (rc) {
#define CU_NAME(value, NAME) case value: return "CUDA_ERROR_" #NAME;
    CU_ERRORS(CU_NAME)
#undef CU_NAME
    default:
        return "CUDA error";
    }
}

struct cu_errtext frx_cuda_err(const struct cu_driver *d, cu_result rc)
{
    struct cu_errtext t;
    const char *text = NULL;
    if (d->GetErrorString && d->GetErrorString(rc, &text) != CU_OK)
        text = NULL;
    snprintf(t.s, sizeof t.s, "%s (%d)%s%s", frx_cuda_errname(d, rc), rc,
             text ? ": " : "", text ? text : "");
    return t;
}

/* The file d->lib was loaded from ("" if unknown). */
static void loaded_from(const struct cu_driver *d, char *out, size_t n)
{
    struct link_map *map = NULL;
    out[0] = '\0';
    if (d->lib && dlinfo(d->lib, RTLD_DI_LINKMAP, &map) == 0 && map &&
        map->l_name)
        snprintf(out, n, "%s", map->l_name);
}

/* Is dir one of LD_LIBRARY_PATH's folders? */
static int on_library_path(const char *dir)
{
    const char *p = getenv("LD_LIBRARY_PATH");
    size_t len = strlen(dir);
    while (p && *p) {
        const char *end = strchr(p, ':');
        size_t k = end ? (size_t)(end - p) : strlen(p);
        if (k == len && strncmp(p, dir, len) == 0)
            return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

void frx_cuda_init_failed(const struct cu_driver *d, cu_result rc,
                          char *why, size_t n)
{
    if (rc != CU_ERR_STUB_LIBRARY) {
        snprintf(why, n, "the driver does not start: %s",
                 frx_cuda_err(d, rc).s);
        return;
    }
    /* the toolkit's lib64/stubs/libcuda.so, for linking without a
     * driver, found first as libcuda.so.1 (a folder on the library
     * path, or a link to it): every call fails */
    char file[PATH_MAX], real[PATH_MAX], dir[PATH_MAX];
    loaded_from(d, file, sizeof file);
    if (!file[0]) {
        snprintf(why, n, "the libcuda.so.1 loaded is the CUDA toolkit's "
                 "stub library (CUDA_ERROR_STUB_LIBRARY, 34), not the NVIDIA "
                 "driver: take the toolkit's stubs/ folder off "
                 "LD_LIBRARY_PATH, or install the driver");
        return;
    }
    snprintf(dir, sizeof dir, "%s", file);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    int same = !realpath(file, real) || strcmp(real, file) == 0;
    snprintf(why, n, "%s%s%s%s is the CUDA toolkit's stub library "
             "(CUDA_ERROR_STUB_LIBRARY, 34), for linking only, not the "
             "NVIDIA driver: %s%s%s, or install the driver", file,
             same ? "" : " (", same ? "" : real, same ? "" : ")",
             slash && on_library_path(dir) ? "take " : "",
             slash && on_library_path(dir) ? dir : "remove it from the "
             "dynamic loader's search path (LD_LIBRARY_PATH, ldconfig)",
             slash && on_library_path(dir) ? " off LD_LIBRARY_PATH" : "");
}
