/* The CUDA driver, opened at run time: a machine without it still loads
 * the plugin, which then says why it cannot start. */
#include "cudrv.h"

#include <dlfcn.h>
#include <stdio.h>
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
    return name ? name : "CUDA error";
}
