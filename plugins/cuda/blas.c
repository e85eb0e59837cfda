/* SPDX-License-Identifier: BSD-3-Clause */
/* cuBLAS, opened at run time: a machine without it still runs the cuda
 * backend, whose products then use generated code. */
#include "cublasdl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* Every function of lib, or the name of the first it lacks. */
static const char *resolve(struct cu_blas *b)
{
#define CUBL_LOAD(field, symbol, params)                                 \
    if (!(*(void **)&b->field = dlsym(b->lib, symbol)))                  \
        return symbol;
    CUBLAS_FUNCTIONS(CUBL_LOAD)
#undef CUBL_LOAD
    *(void **)&b->StatusName = dlsym(b->lib, "cublasGetStatusName");
    return NULL;
}

static void append(char *why, size_t n, size_t *at, const char *text)
{
    if (*at >= n)
        return;
    int k = snprintf(why + *at, n - *at, "%s%s", *at ? "; " : "", text);
    *at += k > 0 ? (size_t)k : 0;
}

int frx_cublas_open(struct cu_blas *b, const char *const *libs, char *why,
                    size_t n)
{
    size_t at = 0;
    why[0] = '\0';
    for (int i = 0; libs[i]; i++) {
        memset(b, 0, sizeof *b);
        b->lib = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
        if (!b->lib) {
            const char *e = dlerror();
            append(why, n, &at, e ? e : libs[i]);
            continue;
        }
        const char *missing = resolve(b);
        if (!missing) {
            snprintf(b->path, sizeof b->path, "%s", libs[i]);
            return 0;
        }
        char text[700];
        snprintf(text, sizeof text, "%s has no %s()", libs[i], missing);
        append(why, n, &at, text);
        /* left loaded: libraries are never unloaded */
    }
    memset(b, 0, sizeof *b);
    return -1;
}

const char *frx_cublas_status(const struct cu_blas *b, cublas_status st)
{
    const char *name = b->StatusName ? b->StatusName(st) : NULL;
    return name ? name : "cuBLAS status";
}
