/* SPDX-License-Identifier: BSD-3-Clause */
/* Every kernel the tests generate for CUDA and HIP (the conformance
 * kernels, and the pack kernels for views of any shape and of several
 * shapes), in both precisions, must compile with no error and an empty
 * log: NVRTC to CUBIN for sm_90; hiprtc for gfx90a, and for gfx942 where
 * the library knows it (hiprtc 5.2 does not: it is then reported, not
 * compiled, since hiprtc 5.2 crashes on an architecture it does not
 * know). No GPU is needed; the compilers
 * are opened as the plugins open them (gpu-common's loader). Exits 77
 * (ctest's skip) with the reason when the library is missing.
 *
 * Operator products are generated for FR operators of quadrilaterals and
 * hexahedra (add_products) and compiled the same way.
 *
 * Sources are compiled in batches (compile_units says how): one compile
 * a source took most of this test's time.
 *
 * With DIR: instead, every kernel source under DIR (*.cu, in DIR and its
 * folders; the same name once) is compiled the same way: those the
 * solvers' runs on frx-fakegpu kept (tests/fakegpu/solvers.sh), which
 * are the CUDA the core generates for a GPU (chunk width 32; hiprtc gets
 * the same text, which differs from HIP's only in that width). None
 * there is a failure: the runs that keep them did not run.
 *
 *   test_gpu_compile nvrtc|hiprtc [DIR] */
#include "fr_operators.h"
#include "gpu.h"
#include "kernels.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct arch {
    const char *name; /* sm_90, gfx90a */
    size_t soasz;     /* the chunk width the plugin uses there */
};

static const struct arch nv_archs[] = {{"sm_90", 32}};
static const struct arch amd_archs[] = {{"gfx90a", 64}, {"gfx942", 64}};

/* The pack kernels of these view shapes, and of any shape (0 x 0). */
static const size_t shapes[][2] = {{0, 0}, {1, 1}, {1, 4}, {2, 5}, {3, 3}};

static int only_space(const char *s)
{
    return s[strspn(s, " \t\r\n")] == '\0';
}

/* 0 if src compiles with an empty log. */
static int compile_one(const struct gpu_rtc *r, const char *opt,
                       const char *what, const char *src)
{
    char *code, *log;
    size_t size;
    const char *opts[] = {opt};
    int rc = frx_gpu_rtc_compile(r, what, src, opts, 1, &code, &size, &log);
    int bad = rc != FRX_OK || !only_space(log ? log : "");
    if (bad)
        printf("FAIL: %s %s: %s: %s\n%s\n--- source ---\n%s\n", r->name, opt,
               what, rc ? frx_errmsg() : "a non-empty log",
               log ? log : "", src);
    free(code);
    free(log);
    return bad;
}

/* ------------------------------------------------------------ batches */

/* A source to compile and what a failure calls it. */
struct unit {
    char *what, *src;
};

static struct units {
    struct unit *u;
    size_t n, cap;
} units;

/* Takes what and src (malloc'd); 1 where out of memory. */
static int unit_add(char *what, char *src)
{
    size_t cap = units.n < units.cap ? units.cap
                 : units.cap         ? 2 * units.cap
                                     : 256;
    struct unit *u = what && src && cap != units.cap
                         ? realloc(units.u, cap * sizeof *u)
                         : units.u;
    if (!what || !src || !u) {
        printf("FAIL: out of memory\n");
        free(what);
        free(src);
        return 1;
    }
    units.u = u;
    units.cap = cap;
    units.u[units.n++] = (struct unit){what, src};
    return 0;
}

static void units_free(void)
{
    for (size_t i = 0; i < units.n; i++) {
        free(units.u[i].what);
        free(units.u[i].src);
    }
    free(units.u);
    units = (struct units){0};
}

#define BATCH 40
#define IDENT "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

/* The names a source defines at file scope that a next source in the
 * same program could see: its macros (#define NAME at a line's start)
 * and its entry points (extern "C" ... void NAME(), whose names C++
 * namespaces do not separate). Written to f as "#define NAME NAMEtag"
 * (entries, before) or "#undef NAME" (both, after). */
static void names_of(FILE *f, const char *src, const char *tag, int after)
{
    for (const char *s = src; (s = strstr(s, "extern \"C\"")); s++) {
        const char *v = strstr(s, " void ");
        if (!v)
            break;
        v += 6;
        size_t n = strspn(v, IDENT);
        if (after)
            fprintf(f, "#undef %.*s\n", (int)n, v);
        else
            fprintf(f, "#define %.*s %.*s%s\n", (int)n, v, (int)n, v, tag);
    }
    for (const char *line = src; after && line; line = strchr(line, '\n')) {
        line += *line == '\n';
        if (strncmp(line, "#define ", 8) == 0)
            fprintf(f, "#undef %.*s\n", (int)strspn(line + 8, IDENT),
                    line + 8);
    }
}

/* 1 if src (a batch) compiles with an empty log; says nothing. */
static int compiles_clean(const struct gpu_rtc *r, const char *opt,
                          const char *what, const char *src)
{
    char *code = NULL, *log = NULL;
    size_t size;
    const char *opts[] = {opt};
    int ok = src && frx_gpu_rtc_compile(r, what, src, opts, 1, &code, &size,
                                        &log) == FRX_OK &&
             only_space(log ? log : "");
    free(code);
    free(log);
    return ok;
}

/* units[first, first + n) as one program: each source in a namespace of
 * its own, its entry points renamed and its macros undefined after it,
 * so that none sees what another defined (a source that would not
 * compile alone does not compile here either). */
static char *batch_source(size_t first, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    for (size_t i = first; i < first + n; i++) {
        char tag[32];
        snprintf(tag, sizeof tag, "_frx_batch%zu", i - first);
        names_of(f, units.u[i].src, tag, 0);
        fprintf(f, "namespace frx_batch%zu {\n%s\n}\n", i - first,
                units.u[i].src);
        names_of(f, units.u[i].src, tag, 1);
    }
    return fclose(f) == 0 ? buf : (free(buf), NULL);
}

/* Every unit, BATCH to a program: a program that compiles with an empty
 * log passes its units; otherwise each of them is compiled alone, so
 * that a failure names its source. Empties units. */
static int compile_units(const struct gpu_rtc *r, const char *opt,
                         int *total)
{
    int failed = 0;
    for (size_t first = 0; first < units.n; first += BATCH) {
        size_t n = units.n - first < BATCH ? units.n - first : BATCH;
        char *src = n > 1 ? batch_source(first, n) : NULL, what[64];
        snprintf(what, sizeof what, "batch of %zu", n);
        int ok = compiles_clean(r, opt, what, src);
        free(src);
        for (size_t i = first; !ok && i < first + n; i++)
            failed += compile_one(r, opt, units.u[i].what, units.u[i].src);
        *total += (int)n;
    }
    units_free();
    return failed;
}

/* The batches keep their sources apart: two that each define a type, a
 * macro and an entry point of the same names compile as one batch; a
 * source that uses the macro and the type of the one before it does
 * not (it would not compile alone). 0 if so. */
static int batches_isolate(const struct gpu_rtc *r, const char *opt)
{
    static const char one[] = "typedef double frx_t;\n#define FRX_ONE 1\n"
                              "extern \"C\" __global__ void k(frx_t *x) "
                              "{ x[0] = FRX_ONE; }\n",
                      uses[] = "extern \"C\" __global__ void k(frx_t *x) "
                               "{ x[0] = FRX_ONE; }\n";
    int ok[2];
    for (int i = 0; i < 2; i++) {
        if (unit_add(strdup("one"), strdup(one)) ||
            unit_add(strdup("uses"), strdup(i ? uses : one)))
            return 1;
        char *src = batch_source(0, 2);
        ok[i] = compiles_clean(r, opt, "isolation", src);
        free(src);
        units_free();
    }
    if (!ok[0] || ok[1])
        printf("FAIL: %s: %s\n", r->name, !ok[0]
               ? "two sources that define the same names do not compile "
                 "as one batch"
               : "a batch lets a source use another's macro and type");
    return !ok[0] || ok[1];
}

static int add_all(int target, const struct arch *a)
{
    int failed = 0;
    const int precisions[] = {FRX_DOUBLE, FRX_SINGLE};
    for (int p = 0; p < 2; p++) {
        frx_codegen cg = {.target = target, .precision = precisions[p],
                          .soasz = a->soasz,
                          .alignment = FRX_GPU_ALIGNMENT};
        for (size_t k = 0; k < TK_COUNT; k++) {
            char *src, *entry;
            if (frx_kernel_generate(tk_all[k], &tk_square_macro, 1, &cg, &src,
                                    &entry)) {
                printf("FAIL: generate %s: %s\n", tk_all[k]->name,
                       frx_errmsg());
                failed++;
                continue;
            }
            free(entry);
            failed += unit_add(strdup(tk_all[k]->name), src);
        }
        for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
            char *src, what[64];
            snprintf(what, sizeof what, "pack %zux%zu", shapes[k][0],
                     shapes[k][1]);
            if (frx_pack_generate(&cg, shapes[k][0], shapes[k][1], &src)) {
                printf("FAIL: generate %s: %s\n", what, frx_errmsg());
                failed++;
                continue;
            }
            failed += unit_add(strdup(what), src);
        }
    }
    return failed;
}

/* Product code of FR operators that cover what the generator writes:
 * small and large unrolled code, blocks of 1 to 16 rows, beta = 0 or not,
 * and loops (an operator past the unrolling limit), in both precisions.
 * (Every operator compiles the same constructs with other literals; the
 * conformance tests run them all.) */
static int add_products(int target, const struct arch *a)
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
            frx_codegen cg = {.target = target, .precision = prec,
                              .soasz = a->soasz,
                              .alignment = FRX_GPU_ALIGNMENT};
            char *src, *entry, what[64];
            snprintf(what, sizeof what, "product %s", o.name);
            if (frx_product_generate(&cg, o.m, o.k, o.a,
                                     (int)((i + (size_t)prec) % 2),
                                     cases[i].rows, 0, 0, &src, &entry)) {
                printf("FAIL: generate %s: %s\n", what, frx_errmsg());
                failed++;
                continue;
            }
            free(entry);
            failed += unit_add(strdup(what), src);
        }
        free(o.a);
    }
    return failed;
}

/* ------------------------------------------------ kept kernel sources */

static struct kept {
    char **paths;
    size_t n, cap;
} kept;

static int kept_add(const char *path, const struct stat *st, int type,
                    struct FTW *ftw)
{
    (void)st, (void)ftw;
    size_t len = strlen(path);
    if (type != FTW_F || len < 3 || strcmp(path + len - 3, ".cu") != 0)
        return 0;
    if (kept.n == kept.cap) {
        size_t cap = kept.cap ? 2 * kept.cap : 64;
        char **p = realloc(kept.paths, cap * sizeof *p);
        if (!p)
            return -1;
        kept.paths = p;
        kept.cap = cap;
    }
    if (!(kept.paths[kept.n] = strdup(path)))
        return -1;
    kept.n++;
    return 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int by_base_name(const void *a, const void *b)
{
    return strcmp(base_name(*(char *const *)a), base_name(*(char *const *)b));
}

/* The .cu files under dir, sorted by file name, each name once (a name
 * holds a hash of the source: the same name, the same source). */
static int kept_find(const char *dir)
{
    if (nftw(dir, kept_add, 16, FTW_PHYS) != 0) {
        printf("FAIL: cannot list the kernel sources under %s: %s\n", dir,
               errno ? strerror(errno) : "out of memory");
        return -1;
    }
    qsort(kept.paths, kept.n, sizeof *kept.paths, by_base_name);
    size_t k = 0;
    for (size_t i = 0; i < kept.n; i++) {
        if (k && strcmp(base_name(kept.paths[k - 1]),
                        base_name(kept.paths[i])) == 0) {
            free(kept.paths[i]);
            continue;
        }
        kept.paths[k++] = kept.paths[i];
    }
    kept.n = k;
    return 0;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *s = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (s = malloc((size_t)n + 1)) &&
        fread(s, 1, (size_t)n, f) == (size_t)n)
        s[n] = '\0';
    else if (s) {
        free(s);
        s = NULL;
    }
    if (f)
        fclose(f);
    return s;
}

static int add_kept(void)
{
    int failed = 0;
    for (size_t i = 0; i < kept.n; i++) {
        char *src = slurp(kept.paths[i]);
        if (!src) {
            printf("FAIL: cannot read %s: %s\n", kept.paths[i],
                   strerror(errno));
            failed++;
            continue;
        }
        failed += unit_add(strdup(kept.paths[i]), src);
    }
    return failed;
}

int main(int argc, char **argv)
{
    int nv = argc > 1 && strcmp(argv[1], "nvrtc") == 0;
    if (argc < 2 || argc > 3 || (!nv && strcmp(argv[1], "hiprtc") != 0)) {
        fprintf(stderr, "usage: test_gpu_compile nvrtc|hiprtc [DIR]\n");
        return 2;
    }
    const char *dir = argc == 3 ? argv[2] : NULL;
    if (dir) {
        if (kept_find(dir) != 0)
            return 1;
        if (!kept.n) {
            printf("FAIL: no kernel sources (*.cu) under %s: the solver runs "
                   "on fakegpu that keep them (fakegpu-solver-*) did not "
                   "run or kept nothing\n", dir);
            return 1;
        }
        printf("%zu kernel sources under %s\n", kept.n, dir);
    }
    static const char *const nv_libs[] = {
        FRX_CUDA_HOME "/lib64/libnvrtc.so", "libnvrtc.so", "libnvrtc.so.13",
        "libnvrtc.so.12", NULL};
    static const char *const amd_libs[] = {"libamdhip64.so.5",
                                           "libamdhip64.so", "libhiprtc.so",
                                           NULL};
    struct gpu_rtc r;
    char why[2048];
    if (frx_gpu_rtc_open(&r, nv ? "NVRTC" : "hiprtc", nv ? "nvrtc" : "hiprtc",
                         nv ? "CUBIN" : "Code", nv ? nv_libs : amd_libs, why,
                         sizeof why) != 0) {
        printf("SKIP: %s is not installed here: %s\n", argv[1], why);
        return 77;
    }
    printf("%s %d.%d from %s\n", r.name, r.major, r.minor, r.path);

    /* the architectures the library knows */
    const char *known[256];
    char names[256][16];
    int nknown;
    if (nv) {
        int archs[256];
        nknown = frx_gpu_nvrtc_archs(&r, archs, 256);
        for (int i = 0; i < nknown; i++) {
            snprintf(names[i], sizeof names[i], "sm_%d", archs[i]);
            known[i] = names[i];
        }
    } else {
        nknown = frx_gpu_amd_archs(known, 256);
    }
    if (nknown <= 0) {
        printf("FAIL: %s cannot say which architectures it knows\n", r.name);
        return 1;
    }

    const struct arch *archs = nv ? nv_archs : amd_archs;
    size_t narchs = nv ? 1 : sizeof amd_archs / sizeof *amd_archs;
    int failed = 0, total = 0, compiled_archs = 0, missing = 0;
    for (size_t a = 0; a < narchs; a++) {
        if (!frx_gpu_arch_known(archs[a].name, known, (size_t)nknown)) {
            printf("%s: not known to this %s: not compiled\n", archs[a].name,
                   r.name);
            missing += a == 0; /* sm_90 and gfx90a must be known */
            continue;
        }
        char opt[64];
        snprintf(opt, sizeof opt, nv ? "--gpu-architecture=%s"
                                     : "--offload-arch=%s", archs[a].name);
        int before = failed, total_before = total;
        int target = nv ? FRX_TARGET_CUDA : FRX_TARGET_HIP;
        failed += batches_isolate(&r, opt);
        failed += dir ? add_kept()
                      : add_all(target, &archs[a]) +
                            add_products(target, &archs[a]);
        failed += compile_units(&r, opt, &total);
        printf("%s: %d kernels compiled, %s\n", archs[a].name,
               total - total_before, failed == before ? "ok" : "FAILED");
        compiled_archs++;
    }
    printf("%s: %d compiles passed, %d failed, on %d architecture(s)\n",
           r.name, total - failed, failed, compiled_archs);
    if (missing)
        printf("FAIL: %s does not know %s\n", r.name, archs[0].name);
    for (size_t i = 0; i < kept.n; i++)
        free(kept.paths[i]);
    free(kept.paths);
    return failed || missing ? 1 : 0;
}
