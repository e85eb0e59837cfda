/* Every kernel of the test suite, generated for CUDA and HIP, must
 * compile with NVRTC (compute_90) and hiprtc (gfx90a) with no error and
 * no warning. No GPU is needed. The run-time compilers are opened with
 * dlopen, so the test builds without their headers; it exits 77 (ctest's
 * skip) with the reason when the library is missing.
 *
 * Operator products are generated for FR operators of quadrilaterals and
 * hexahedra (compile_products) and compiled the same way.
 *
 *   test_gpu_compile nvrtc|hiprtc */
#include "fr_operators.h"
#include "kernels.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* NVRTC and hiprtc share these signatures (the program is a pointer). */
typedef int (*create_fn)(void **prog, const char *src, const char *name,
                         int nheaders, const char *const *headers,
                         const char *const *names);
typedef int (*compile_fn)(void *prog, int nopts, const char *const *opts);
typedef int (*logsize_fn)(void *prog, size_t *size);
typedef int (*log_fn)(void *prog, char *log);
typedef int (*destroy_fn)(void **prog);

struct rtc {
    const char *name, *prefix;
    const char *libs[4];
    const char *opts[4];
    int nopts, target;
    size_t soasz, alignment;
    create_fn create;
    compile_fn compile;
    logsize_fn logsize;
    log_fn log;
    destroy_fn destroy;
};

static struct rtc rtcs[] = {
    {.name = "nvrtc", .prefix = "nvrtc",
     .libs = {"libnvrtc.so", "libnvrtc.so.13", FRX_CUDA_HOME "/lib64/libnvrtc.so",
              NULL},
     .opts = {"--gpu-architecture=compute_90", "--std=c++17"}, .nopts = 2,
     .target = FRX_TARGET_CUDA, .soasz = 32, .alignment = 128},
    {.name = "hiprtc", .prefix = "hiprtc",
     .libs = {"libhiprtc.so", "libamdhip64.so.5", "libamdhip64.so", NULL},
     .opts = {"--offload-arch=gfx90a"}, .nopts = 1,
     .target = FRX_TARGET_HIP, .soasz = 64, .alignment = 256},
};

static void *sym(void *lib, const char *prefix, const char *name)
{
    char full[64];
    snprintf(full, sizeof full, "%s%s", prefix, name);
    return dlsym(lib, full);
}

static int open_rtc(struct rtc *r)
{
    void *lib = NULL;
    char tried[1024] = "";
    for (int i = 0; r->libs[i] && !lib; i++) {
        lib = dlopen(r->libs[i], RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            strncat(tried, "\n  ", sizeof tried - strlen(tried) - 1);
            strncat(tried, dlerror(), sizeof tried - strlen(tried) - 1);
        }
    }
    if (!lib) {
        printf("SKIP: %s is not installed here:%s\n", r->name, tried);
        return 77;
    }
    *(void **)&r->create = sym(lib, r->prefix, "CreateProgram");
    *(void **)&r->compile = sym(lib, r->prefix, "CompileProgram");
    *(void **)&r->logsize = sym(lib, r->prefix, "GetProgramLogSize");
    *(void **)&r->log = sym(lib, r->prefix, "GetProgramLog");
    *(void **)&r->destroy = sym(lib, r->prefix, "DestroyProgram");
    if (!r->create || !r->compile || !r->logsize || !r->log || !r->destroy) {
        printf("FAIL: %s lacks its compile functions\n", r->name);
        return 1;
    }
    return 0;
}

static int only_space(const char *s)
{
    for (; *s; s++)
        if (!isspace((unsigned char)*s))
            return 0;
    return 1;
}

/* 0 if the source compiles with an empty log. */
static int compile_one(struct rtc *r, const char *kname, const char *src)
{
    void *prog = NULL;
    int rc = r->create(&prog, src, kname, 0, NULL, NULL);
    if (rc != 0) {
        printf("FAIL: %s: %s: cannot create the program (%d)\n", r->name,
               kname, rc);
        return 1;
    }
    rc = r->compile(prog, r->nopts, r->opts);
    size_t n = 0;
    r->logsize(prog, &n);
    char *log = calloc(n + 1, 1);
    if (log && n)
        r->log(prog, log);
    int bad = rc != 0 || (log && !only_space(log));
    if (bad)
        printf("FAIL: %s: kernel '%s' (status %d):\n%s\n--- source ---\n%s\n",
               r->name, kname, rc, log ? log : "", src);
    free(log);
    r->destroy(&prog);
    return bad;
}

/* Product code of FR operators that cover what the generator writes:
 * small and large unrolled code, blocks of 1 to 16 rows, beta = 0 or not,
 * and loops (an operator past the unrolling limit), in both precisions.
 * (Every operator compiles the same constructs with other literals; the
 * conformance tests run them all.) */
static int compile_products(struct rtc *r, int *total)
{
    static const struct {
        size_t dim, p;
        enum fr_op op;
        size_t rows;
    } cases[] = {{2, 1, FR_INTERP, 1}, {2, 3, FR_GRAD, 4},
                 {2, 6, FR_QUAD, 8}, {3, 4, FR_GRAD, 16},
                 {3, 3, FR_QUAD, 8}};
    int failed = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        fr_operator o = fr_make(cases[i].dim, cases[i].p, cases[i].op);
        for (int prec = FRX_DOUBLE; prec >= FRX_SINGLE; prec--) {
            frx_codegen cg = {.target = r->target, .precision = prec,
                              .soasz = r->soasz, .alignment = r->alignment};
            char *src, *entry;
            if (frx_product_generate(&cg, o.m, o.k, o.a,
                                     (int)((i + (size_t)prec) % 2),
                                     cases[i].rows, 0, 0, &src, &entry)) {
                printf("FAIL: generate %s: %s\n", o.name, frx_errmsg());
                failed++;
                continue;
            }
            failed += compile_one(r, o.name, src);
            (*total)++;
            free(src);
            free(entry);
        }
        free(o.a);
    }
    return failed;
}

int main(int argc, char **argv)
{
    struct rtc *r = NULL;
    for (size_t i = 0; argc > 1 && i < sizeof rtcs / sizeof *rtcs; i++)
        if (strcmp(argv[1], rtcs[i].name) == 0)
            r = &rtcs[i];
    if (!r) {
        fprintf(stderr, "usage: test_gpu_compile nvrtc|hiprtc\n");
        return 2;
    }
    int rc = open_rtc(r);
    if (rc)
        return rc;
    int failed = 0, total = 0;
    const int precisions[] = {FRX_DOUBLE, FRX_SINGLE};
    for (int p = 0; p < 2; p++)
        for (size_t k = 0; k < TK_COUNT; k++) {
            frx_codegen cg = {.target = r->target, .precision = precisions[p],
                              .soasz = r->soasz, .alignment = r->alignment};
            char *src, *entry;
            if (frx_kernel_generate(tk_all[k], &tk_square_macro, 1, &cg, &src,
                                    &entry)) {
                printf("FAIL: generate %s: %s\n", tk_all[k]->name,
                       frx_errmsg());
                failed++;
                continue;
            }
            failed += compile_one(r, tk_all[k]->name, src);
            total++;
            free(src);
            free(entry);
        }
    int ptotal = 0, pfailed = compile_products(r, &ptotal);
    printf("%s: kernels %d passed, %d failed; products %d passed, %d "
           "failed\n", r->name, total - failed, failed, ptotal - pfailed,
           pfailed);
    failed += pfailed;
    return failed ? 1 : 0;
}
