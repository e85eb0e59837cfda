/* SPDX-License-Identifier: BSD-3-Clause */
/* The run-time compilers, NVRTC and hiprtc, opened with dlopen: their
 * functions have the same shapes under two prefixes, so one loader and
 * one compile serve both (and the test that compiles every generated
 * kernel). */
#include "gpu.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *sym(void *lib, const char *prefix, const char *name)
{
    char full[96];
    snprintf(full, sizeof full, "%s%s", prefix, name);
    return dlsym(lib, full);
}

int frx_gpu_rtc_open(struct gpu_rtc *r, const char *name, const char *prefix,
                     const char *code, const char *const *libs, char *why,
                     size_t whylen)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    size_t at = 0;
    why[0] = '\0';
    for (int i = 0; libs[i] && !r->lib; i++) {
        r->lib = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
        if (r->lib) {
            snprintf(r->path, sizeof r->path, "%s", libs[i]);
        } else if (at < whylen) {
            const char *e = dlerror();
            int k = snprintf(why + at, whylen - at, "%s%s", at ? "; " : "",
                             e ? e : libs[i]);
            at += k > 0 ? (size_t)k : 0;
        }
    }
    if (!r->lib)
        return -1;
    char get[64], get_size[64];
    snprintf(get, sizeof get, "Get%s", code);
    snprintf(get_size, sizeof get_size, "Get%sSize", code);
    int (*version)(int *, int *);
    *(void **)&r->create = sym(r->lib, prefix, "CreateProgram");
    *(void **)&r->compile = sym(r->lib, prefix, "CompileProgram");
    *(void **)&r->log_size = sym(r->lib, prefix, "GetProgramLogSize");
    *(void **)&r->log = sym(r->lib, prefix, "GetProgramLog");
    *(void **)&r->code_size = sym(r->lib, prefix, get_size);
    *(void **)&r->code = sym(r->lib, prefix, get);
    *(void **)&r->destroy = sym(r->lib, prefix, "DestroyProgram");
    *(void **)&r->errstr = sym(r->lib, prefix, "GetErrorString");
    *(void **)&version = sym(r->lib, prefix, "Version");
    if (!r->create || !r->compile || !r->log_size || !r->log ||
        !r->code_size || !r->code || !r->destroy || !r->errstr || !version) {
        snprintf(why, whylen, "%s lacks %s's functions (%sCreateProgram, "
                 "%s%s...)", r->path, name, prefix, prefix, get);
        r->lib = NULL; /* left loaded: libraries are never unloaded */
        return -1;
    }
    if (version(&r->major, &r->minor) != 0)
        r->major = r->minor = 0;
    return 0;
}

static char *program_log(const struct gpu_rtc *r, void *prog)
{
    size_t n = 0;
    if (r->log_size(prog, &n) != 0)
        n = 0;
    char *log = calloc(n + 1, 1);
    if (log && n && r->log(prog, log) != 0)
        log[0] = '\0';
    return log;
}

int frx_gpu_rtc_compile(const struct gpu_rtc *r, const char *name,
                        const char *src, const char *const *opts, int nopts,
                        char **code, size_t *size, char **log)
{
    *code = NULL;
    *size = 0;
    *log = NULL;
    void *prog = NULL;
    int rc = r->create(&prog, src, name, 0, NULL, NULL);
    if (rc != 0)
        return frx_error(rc == 1 ? FRX_ENOMEM : FRX_EBACKEND, "%s: %s: "
                         "CreateProgram failed: %s (%d)", r->name, name,
                         r->errstr(rc), rc);
    const char *call = "CompileProgram";
    rc = r->compile(prog, nopts, opts);
    *log = program_log(r, prog);
    size_t n = 0;
    if (rc == 0) {
        call = "GetCodeSize";
        rc = r->code_size(prog, &n);
    }
    char *bin = rc == 0 ? malloc(n ? n : 1) : NULL;
    if (rc == 0 && !bin) {
        r->destroy(&prog);
        return frx_error(FRX_ENOMEM, "%s: %s: out of memory", r->name, name);
    }
    if (rc == 0) {
        call = "GetCode";
        rc = r->code(prog, bin);
    }
    r->destroy(&prog);
    if (rc != 0 || n == 0) {
        free(bin);
        return frx_error(FRX_EBACKEND, "%s: %s: %s failed: %s (%d)", r->name,
                         name, call, rc ? r->errstr(rc) : "no code", rc);
    }
    *code = bin;
    *size = n;
    return FRX_OK;
}

/* The log with each "file(line)" (NVRTC) or "file:line" (clang, under
 * hiprtc) naming the kept source instead: "path:line", which editors
 * and the eye can follow. */
char *frx_gpu_log_with_path(const char *log, const char *file,
                            const char *path)
{
    size_t flen = strlen(file), plen = strlen(path), len = 0;
    char *out = malloc(strlen(log) * (plen + 1) / (flen ? flen : 1) +
                       strlen(log) + 1);
    if (!out)
        return NULL;
    for (const char *c = log; *c;) {
        const char *after = strncmp(c, file, flen) == 0 ? c + flen : NULL;
        size_t digits = after && after[0] == '('
                            ? strspn(after + 1, "0123456789") : 0;
        int at_line = after && (after[0] == ':' ||
                                (digits && after[1 + digits] == ')'));
        if (!at_line) {
            out[len++] = *c++;
            continue;
        }
        memcpy(out + len, path, plen);
        len += plen;
        c = after;
        if (digits) { /* "(12)" becomes ":12" */
            out[len++] = ':';
            memcpy(out + len, c + 1, digits);
            len += digits;
            c += digits + 2;
        }
    }
    out[len] = '\0';
    return out;
}

int frx_gpu_nvrtc_archs(const struct gpu_rtc *r, int *archs, size_t max)
{
    int (*count)(int *), (*list)(int *);
    *(void **)&count = dlsym(r->lib, "nvrtcGetNumSupportedArchs");
    *(void **)&list = dlsym(r->lib, "nvrtcGetSupportedArchs");
    int k = 0;
    if (!count || !list || count(&k) != 0 || k <= 0 || (size_t)k > max ||
        list(archs) != 0)
        return -1;
    return k;
}

int frx_gpu_amd_archs(const char **names, size_t max)
{
    void *lib = dlopen("libamd_comgr.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("libamd_comgr.so", RTLD_NOW | RTLD_LOCAL);
    int (*count)(size_t *), (*name)(size_t, const char **);
    *(void **)&count = lib ? dlsym(lib, "amd_comgr_get_isa_count") : NULL;
    *(void **)&name = lib ? dlsym(lib, "amd_comgr_get_isa_name") : NULL;
    size_t k = 0, m = 0;
    if (!count || !name || count(&k) != 0 || k == 0)
        return -1;
    for (size_t i = 0; i < k && m < max; i++) {
        const char *s = NULL;
        if (name(i, &s) != 0 || !s)
            continue;
        const char *gfx = strstr(s, "--"); /* amdgcn-amd-amdhsa--gfx90a */
        names[m++] = gfx ? gfx + 2 : s;
    }
    return (int)m;
}
