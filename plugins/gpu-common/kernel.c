/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU kernels: generated source compiled by the run-time compiler for
 * the device's own architecture, the code cached in frx's disk cache
 * (keyed on the vendor, driver, architecture, compiler, options and
 * source) and loaded as a module. */
#include "gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gpu_prog {
    void *mod, *fn;
    unsigned block; /* threads a block it needs (reductions), or 0 */
    char name[64];  /* the kernel's, for messages */
};

/* Keep the source in $TMPDIR/frx-<vendor>-XXXXXX/<name><suffix>. */
static int keep_source(const struct gpu *g, const char *name,
                       const char *source, char *path, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/frx-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp",
             g->vendor);
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, n, "%s/%s%s", dir, name, g->src_suffix);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int bad = fputs(source, f) < 0;
    return fclose(f) != 0 || bad ? -1 : 0;
}

struct build {
    struct gpu *g;
    const char *name, *source;
};

static int write_code(const char *path, const char *code, size_t size,
                      const char *name)
{
    FILE *f = fopen(path, "wb");
    int rc = f && fwrite(code, 1, size, f) == size ? FRX_OK : FRX_EIO;
    if (f && fclose(f) != 0)
        rc = FRX_EIO;
    return rc ? frx_error(rc, "kernel '%s': cannot write %s: %m", name, path)
              : FRX_OK;
}

static int build(const char *out_path, void *ud)
{
    const struct build *b = ud;
    struct gpu *g = b->g;
    char file[128], *code, *log;
    size_t size;
    snprintf(file, sizeof file, "%s%s", b->name, g->src_suffix);
    int rc = frx_gpu_rtc_compile(&g->rtc, file, b->source, g->rtc_opts,
                                 g->nrtc_opts, &code, &size, &log);
    if (rc == FRX_OK) {
        if (log && log[strspn(log, " \t\r\n")])
            frx_log(FRX_LOG_DEBUG, "kernel '%s': %s says:\n%s", b->name,
                    g->rtc.name, log);
        rc = write_code(out_path, code, size, b->name);
    } else {
        char why[512], path[4300];
        snprintf(why, sizeof why, "%s", frx_errmsg());
        int kept = keep_source(g, b->name, b->source, path, sizeof path) == 0;
        char *shown = kept && log ? frx_gpu_log_with_path(log, file, path)
                                  : NULL;
        rc = frx_error(FRX_EBACKEND, "kernel '%s': %s for %s failed: %s\n%s\n"
                       "%s%s; fix the kernel body", b->name, g->rtc.name,
                       g->arch, why,
                       shown ? shown : log && *log ? log : "(no log)",
                       kept ? "the generated source is kept at "
                            : "the generated source could not be kept",
                       kept ? path : "");
        free(shown);
    }
    free(code);
    free(log);
    return rc;
}

static int read_file(const char *path, char **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    *data = n > 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)n) : NULL;
    int ok = *data && fread(*data, 1, (size_t)n, f) == (size_t)n;
    if (f)
        fclose(f);
    if (!ok) {
        free(*data);
        *data = NULL;
        return -1;
    }
    *size = (size_t)n;
    return 0;
}

int frx_gpu_program(struct gpu *g, const char *name, const char *source,
                    void **mod, int *built)
{
    char opts[512] = "";
    for (int i = 0; i < g->nrtc_opts; i++) {
        size_t at = strlen(opts);
        snprintf(opts + at, sizeof opts - at, "%s%s", i ? " " : "",
                 g->rtc_opts[i]);
    }
    const char *parts[] = {g->vendor,      g->driver, g->arch,
                           g->rtc_version, opts,      source};
    struct build b = {g, name, source};
    frx_cache_entry e;
    int rc = frx_cache_fetch(parts, sizeof parts / sizeof *parts, g->suffix,
                             build, &b, &e);
    char *image = NULL;
    size_t size = 0;
    if (rc == FRX_OK && read_file(e.path, &image, &size) != 0)
        rc = frx_error(FRX_EIO, "kernel '%s': cannot read the compiled code "
                       "%s: %m", name, e.path);
    if (rc == FRX_OK) {
        rc = g->vd->module_load(g, image, size, mod);
        char why[512];
        snprintf(why, sizeof why, "%s", rc ? frx_errmsg() : "");
        if (rc)
            rc = frx_error(rc, "kernel '%s': the compiled code %s does not "
                           "load on '%s' (%s; %s, %s for %s); if it is "
                           "damaged, remove it and run again", name, e.path,
                           g->device, why, g->driver, g->rtc_version,
                           g->arch);
    }
    if (rc == FRX_OK)
        *built = e.built;
    free(image);
    frx_cache_done(&e);
    return rc;
}

int frx_gpu_kernel_compile(void *state, const frx_kernel_src *src,
                           void **out, int *compiled)
{
    struct gpu *g = state;
    struct gpu_prog *p = calloc(1, sizeof *p);
    if (!p)
        return frx_error(FRX_ENOMEM, "%s: out of memory", g->vendor);
    snprintf(p->name, sizeof p->name, "%s", src->name);
    size_t need = FRX_SIZE_HOLDS(frx_kernel_src, src, local_size)
                      ? src->local_size : 0;
    if (need > 1024) { /* the most threads a block any device runs */
        free(p);
        return frx_error(FRX_EBACKEND, "%s: kernel '%s' needs blocks of %zu "
                         "threads: at most 1024", g->vendor, src->name, need);
    }
    p->block = (unsigned)need;
    int rc = frx_gpu_program(g, src->name, src->source, &p->mod, compiled);
    if (rc == FRX_OK)
        rc = g->vd->function(g, p->mod, src->entry, &p->fn);
    if (rc) {
        /* the compiler's or loader's message, not that of the wait
         * freeing the module may do */
        char *why = strdup(frx_errmsg());
        frx_gpu_kernel_free(g, p);
        if (why)
            frx_error(rc, "%s", why);
        free(why);
        return rc;
    }
    *out = p;
    return FRX_OK;
}

/* Room for n parameters in the reused arrays. */
static int reserve_params(struct gpu *g, size_t n)
{
    if (n <= g->capparams)
        return FRX_OK;
    union gpu_value *v = realloc(g->vals, n * sizeof *v);
    if (v)
        g->vals = v;
    void **p = v ? realloc(g->ptrs, n * sizeof *p) : NULL;
    if (!p)
        return frx_error(FRX_ENOMEM, "%s: out of memory", g->vendor);
    g->ptrs = p;
    g->capparams = n;
    return FRX_OK;
}

int frx_gpu_kernel_launch(void *state, void *prog, const frx_launch *l)
{
    struct gpu *g = state;
    const struct gpu_prog *p = prog;
    char what[96];
    snprintf(what, sizeof what, "kernel '%s'", p->name);
    int rc = reserve_params(g, l->nparams);
    if (rc == FRX_OK)
        rc = frx_gpu_params(l->params, l->nparams, g->precision, what,
                            g->vals, g->ptrs);
    return rc ? rc : frx_gpu_launch_block(g, p->fn, l->n, l->nrows, p->block,
                                          g->ptrs, what);
}

void frx_gpu_kernel_free(void *state, void *prog)
{
    struct gpu *g = state;
    struct gpu_prog *p = prog;
    if (p->mod) {
        /* no launch of it may still be queued */
        if (frx_gpu_sync(g) != FRX_OK)
            frx_log(FRX_LOG_WARN, "%s: kernel '%s': %s", g->vendor, p->name,
                    frx_errmsg());
        g->vd->module_free(g, p->mod);
    }
    free(p);
}
