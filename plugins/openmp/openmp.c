/* SPDX-License-Identifier: BSD-3-Clause */
/* openmp backend: the device is the host; memory is aligned host memory
 * and kernels are OpenMP loops. */
#include "openmp.h"

#include <ltdl.h>
#include <sched.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OMP_ALIGN 64 /* bytes: one cache line, a full AVX-512 vector */
/* -fno-math-errno: sqrt's errno handling (a call on a negative argument)
 * stops GCC from vectorizing loops such as the Riemann solvers; kernels
 * never read errno, and IEEE sqrt is correctly rounded either way. */
#define OMP_CFLAGS "-O3 -march=native -fopenmp -fno-math-errno"

static const frx_option omp_options[] = {
    {.key = "cc", .type = FRX_OPT_STRING, .def = "cc",
     .help = "C compiler for run-time kernels"},
    {.key = "cflags", .type = FRX_OPT_STRING,
     .def = OMP_CFLAGS,
     .help = "flags for run-time kernels"},
    {.key = "threads", .type = FRX_OPT_INT, .min = 0, .max = 4096, .def = "0",
     .help = "OpenMP threads; 0 keeps OpenMP's default (OMP_NUM_THREADS)"},
    {.key = "parts", .type = FRX_OPT_INT, .min = 0, .max = 4096, .def = "0",
     .help = "parts a matrix's elements are stored in, each part's rows "
             "together; 0: one a thread (a thread then touches memory of "
             "its own), 1: one"},
    {.key = "batch", .type = FRX_OPT_BOOL, .def = "true",
     .help = "run a graph's stretch of kernels and products in one "
             "parallel region (false: a region each)"},
    {0}};

static int omp_probe(char *why, size_t n)
{
    (void)why, (void)n;
    return FRX_OK; /* the host is always there */
}

/* More threads than the CPUs this rank may run on: they share cores and
 * wait for each other at every kernel. Open MPI binds each rank of a
 * small job to one core unless told otherwise. */
/* Flags that let the compiler assume no NaN or Inf: the NaN/Inf checks
 * (x != x, isfinite) of frx and of solvers may then see none. */
static void warn_finite_math(char **words)
{
    static const char *const risky[] = {"-ffast-math", "-Ofast",
                                        "-ffinite-math-only"};
    const char *last = NULL; /* the last word that decides it */
    for (size_t i = 0; words && words[i]; i++) {
        if (!strcmp(words[i], "-fno-finite-math-only") ||
            !strcmp(words[i], "-fno-fast-math"))
            last = NULL;
        for (size_t k = 0; k < sizeof risky / sizeof *risky; k++)
            if (!strcmp(words[i], risky[k]))
                last = risky[k];
    }
    if (last)
        frx_log(FRX_LOG_WARN, "openmp: backend.openmp.cflags has %s: the "
                "compiler may assume no NaN or Inf, and the NaN/Inf checks "
                "(check.interval, a solver's own) may then miss a solution "
                "that blew up; add -fno-finite-math-only after it", last);
}

static void warn_affinity(int threads)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    int ncpu = CPU_COUNT(&set);
    if (threads > ncpu)
        frx_log(FRX_LOG_WARN, "openmp: %d threads, but this rank may run on "
                "%d CPU%s only (its affinity mask), so they take turns and "
                "wait for each other. Under mpirun, which binds each rank to a core, add "
                "--bind-to none, or --map-by slot:PE=%d", threads, ncpu,
                ncpu == 1 ? "" : "s", threads);
}

static int omp_create(const frx_backend_init *init, frx_backend_info *info,
                      void **state)
{
    struct omp_state *s = calloc(1, sizeof *s);
    if (!s)
        return frx_error(FRX_ENOMEM, "openmp: out of memory");
    s->precision = init->precision;
    s->strict = -1; /* asked at the first compile */
    int rc = frx_cfg_string(init->options, "cc", "cc", &s->cc);
    if (rc == FRX_OK)
        rc = frx_cfg_string(init->options, "cflags",
                            OMP_CFLAGS, &s->cflags);
    if (rc == FRX_OK)
        rc = frx_cfg_int(init->options, "threads", 0, 0, 4096, &s->threads);
    if (rc == FRX_OK)
        rc = frx_cfg_bool(init->options, "batch", 1, &s->batch);
    long parts = 0;
    if (rc == FRX_OK)
        rc = frx_cfg_int(init->options, "parts", 0, 0, 4096, &parts);
    char bad = 0;
    if (rc == FRX_OK &&
        frx_openmp_split_words(s->cflags, &s->cflag_words, &bad) != FRX_OK) {
        const frx_cfgnode *at = frx_cfg_get(init->options, "cflags");
        char where[512] = "";
        if (at)
            snprintf(where, sizeof where, "%s:%d:%d: ",
                     frx_config_file(frx_cfg_owner(at)), frx_cfg_line(at),
                     frx_cfg_col(at));
        rc = bad ? frx_error(FRX_ECONFIG, "%sbackend.openmp.cflags: a %c "
                             "quote is not closed (cflags are words split at "
                             "blanks, quoted with ' or \"; no shell runs "
                             "them)", where, bad)
                 : frx_error(FRX_ENOMEM, "openmp: out of memory");
    }
    if (rc) {
        free(s);
        return rc;
    }
    warn_finite_math(s->cflag_words);
    if (s->threads > 0) {
        omp_set_num_threads((int)s->threads);
        warn_affinity((int)s->threads);
    }
    if (lt_dlinit() != 0) {
        free(s);
        return frx_error(FRX_EBACKEND, "openmp: libltdl failed to start: %s",
                         lt_dlerror());
    }

    size_t fpsize = init->precision == FRX_SINGLE ? 4 : 8;
    info->alignment = OMP_ALIGN;
    info->soasz = 2 * 32 / fpsize; /* two AVX vectors, as PyFR does */
    s->soasz = info->soasz;
    /* a thread's chunks of elements in a kernel, schedule(static), are
     * then its part's (all of them on 2 threads, nearly so on more) */
    info->parts = parts > 0 ? (size_t)parts
                            : (size_t)(s->threads > 0 ? (int)s->threads
                                                      : omp_get_max_threads());
    info->host_accessible = 1;
    snprintf(info->device, sizeof info->device, "host, %d OpenMP threads, "
             "matrices in %zu part%s", s->threads > 0 ? (int)s->threads
                                                     : omp_get_max_threads(),
             info->parts, info->parts == 1 ? "" : "s");
    *state = s;
    return FRX_OK;
}

static void omp_destroy(void *state)
{
    struct omp_state *s = state;
    frx_openmp_batch_free(s);
    frx_openmp_free_words(s->cflag_words);
    free(s); /* libltdl stays up: kernels are never unloaded */
}

/* Zeroed and aligned. calloc takes large blocks straight from mmap,
 * zero and untouched until used (by the threads that use them first),
 * where aligned_alloc and memset would touch every page now. The block
 * calloc gave is kept just below the address handed out, for free. */
static int omp_mem_alloc(void *state, size_t bytes, void **mem)
{
    (void)state;
    size_t padded = (bytes + OMP_ALIGN - 1) / OMP_ALIGN * OMP_ALIGN;
    char *raw = padded >= bytes && padded < SIZE_MAX - OMP_ALIGN
                    ? calloc(1, (padded ? padded : OMP_ALIGN) + OMP_ALIGN)
                    : NULL;
    if (!raw)
        return frx_error(FRX_ENOMEM,
                         "openmp: cannot allocate %zu bytes of host memory",
                         bytes);
    /* malloc aligns to 16, so there are at least 16 bytes below p */
    char *p = (char *)(((uintptr_t)raw + OMP_ALIGN) &
                       ~(uintptr_t)(OMP_ALIGN - 1));
    ((void **)p)[-1] = raw;
    *mem = p;
    return FRX_OK;
}

static void omp_mem_free(void *state, void *mem)
{
    frx_openmp_flush(state);
    if (mem)
        free(((void **)mem)[-1]);
}

static int omp_mem_write(void *state, void *mem, size_t off, const void *src,
                         size_t bytes)
{
    frx_openmp_flush(state);
    memcpy((char *)mem + off, src, bytes);
    return FRX_OK;
}

static int omp_mem_read(void *state, void *mem, size_t off, void *dst,
                        size_t bytes)
{
    frx_openmp_flush(state);
    memcpy(dst, (const char *)mem + off, bytes);
    return FRX_OK;
}

static const frx_backend_ops omp_ops = {
    .size = sizeof(frx_backend_ops),
    .priority = 10, /* the fallback: any accelerator ranks higher */
    .options = omp_options,
    .probe = omp_probe,
    .create = omp_create,
    .destroy = omp_destroy,
    .mem_alloc = omp_mem_alloc,
    .mem_free = omp_mem_free,
    .mem_write = omp_mem_write,
    .mem_read = omp_mem_read,
    .pack = frx_openmp_pack,
    .unpack = frx_openmp_unpack,
    /* every call returns when its work is done, but for launches held
     * in a batch (batch.c): sync runs those */
    .sync = frx_openmp_sync,
    .target = FRX_TARGET_C_OPENMP,
    .kernel_compile = frx_openmp_kernel_compile,
    .kernel_launch = frx_openmp_kernel_launch,
    .kernel_free = frx_openmp_kernel_free,
#ifdef FRX_HAVE_LIBXSMM
    .product_libs = frx_openmp_product_libs,
    .product_prepare = frx_openmp_product_prepare,
    .product_run = frx_openmp_product_run,
    .product_free = frx_openmp_product_free,
#endif
    .batch_begin = frx_openmp_batch_begin,
    .batch_end = frx_openmp_batch_end,
};

static const frx_plugin_desc omp_desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_BACKEND, "openmp", FRX_VERSION,
                         "CPU threads with OpenMP"),
    .backend = &omp_ops,
};

FRX_PLUGIN_DEFINE(omp_desc)
