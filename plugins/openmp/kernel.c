/* SPDX-License-Identifier: BSD-3-Clause */
/* openmp kernels: generated C compiled by the configured cc into a
 * shared object (through frx's disk cache) and loaded with libltdl. */
#include "openmp.h"

#include <ltdl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct omp_prog {
    void (*entry)(const omp_kp *); /* in a parallel region of its own */
    void (*team)(const omp_kp *);  /* on a batch's team (batch.c) */
};

const char *frx_openmp_compiler_id(struct omp_state *s)
{
    if (s->cc_id[0])
        return s->cc_id;
    char *argv[] = {(char *)s->cc, "--version", NULL}, *out = NULL;
    int rc = frx_openmp_run(argv, &out);
    snprintf(s->cc_id, sizeof s->cc_id, "%s: %s", s->cc,
             rc == 0 && out ? strtok(out, "\n") : "unknown");
    free(out);
    return s->cc_id;
}

/* Mistakes C lets through and the GPU targets (C++) do not: abs() of a
 * float is the integer abs in C, and a function used undeclared (a typo,
 * or exp10 without _GNU_SOURCE) returns an int; both give wrong numbers
 * without an error. Passed where the compiler takes them (asked once). */
#define OMP_STRICT_FLAGS "-Werror=absolute-value", \
                         "-Werror=implicit-function-declaration"

static int strict_flags_taken(struct omp_state *s)
{
    if (s->strict < 0) {
        char *argv[] = {(char *)s->cc, OMP_STRICT_FLAGS, "-fsyntax-only",
                        "-x", "c", "/dev/null", NULL};
        char *out = NULL;
        s->strict = frx_openmp_run(argv, &out) == 0;
        free(out);
        if (!s->strict)
            frx_log(FRX_LOG_WARN, "openmp: %s does not take -Werror="
                    "absolute-value or -Werror=implicit-function-"
                    "declaration: abs() of a float or a function used "
                    "undeclared in a kernel body will not be refused",
                    s->cc);
    }
    return s->strict;
}

/* The host CPU, since -march=native code is only good for it. */
static void host_id(char *buf, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096], model[256] = "", flags[65] = "";
    while (f && fgets(line, sizeof line, f)) {
        if (!model[0] && strncmp(line, "model name", 10) == 0)
            snprintf(model, sizeof model, "%.200s", line);
        if (!flags[0] && strncmp(line, "flags", 5) == 0)
            frx_sha256_hex(line, strlen(line), flags);
    }
    if (f)
        fclose(f);
    snprintf(buf, n, "%s|%s", model, flags);
}

struct build {
    struct omp_state *s;
    const frx_kernel_src *src;
};

static int build(const char *out_path, void *ud)
{
    struct build *b = ud;
    const char *tmp = getenv("TMPDIR");
    char dir[4096], file[4200];
    snprintf(dir, sizeof dir, "%s/frx-cc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return frx_error(FRX_EIO, "kernel '%s': cannot make a directory for "
                         "the compiler in %s: %m", b->src->name, dir);
    snprintf(file, sizeof file, "%s/%s.c", dir, b->src->name);
    FILE *f = fopen(file, "w");
    if (!f || fputs(b->src->source, f) < 0 || fclose(f) != 0)
        return frx_error(FRX_EIO, "kernel '%s': cannot write %s: %m",
                         b->src->name, file);

    /* cc, the words of cflags, then ours: an argument vector */
    size_t nf = 0;
    while (b->s->cflag_words[nf])
        nf++;
    char *strict[] = {OMP_STRICT_FLAGS};
    size_t ns = strict_flags_taken(b->s) ? sizeof strict / sizeof *strict : 0;
    char *tail[] = {"-fPIC", "-shared", "-o", (char *)out_path, file, NULL};
    char **argv = calloc(1 + nf + ns + sizeof tail / sizeof *tail,
                         sizeof *argv), *log = NULL, cmd[12000];
    if (!argv)
        return frx_error(FRX_ENOMEM, "openmp: out of memory");
    argv[0] = (char *)b->s->cc;
    memcpy(argv + 1, b->s->cflag_words, nf * sizeof *argv);
    memcpy(argv + 1 + nf, strict, ns * sizeof *argv);
    memcpy(argv + 1 + nf + ns, tail, sizeof tail);
    int status = frx_openmp_run(argv, &log);
    frx_openmp_show(argv, cmd, sizeof cmd);
    free(argv);
    if (status < 0)
        return frx_error(FRX_EBACKEND, "kernel '%s': cannot run the C "
                         "compiler '%s': %m; set backend.openmp.cc to a "
                         "compiler on PATH or its full path", b->src->name,
                         b->s->cc);
    if (status != 0) {
        int rc = frx_error(FRX_EBACKEND,
                           "kernel '%s': the C compiler failed (exit %d): "
                           "%s\n%sthe generated source is kept at %s; fix "
                           "the kernel body or backend.openmp.cc/cflags",
                           b->src->name, status, cmd, log ? log : "", file);
        free(log);
        return rc;
    }
    free(log);
    unlink(file);
    rmdir(dir);
    return FRX_OK;
}

int frx_openmp_kernel_compile(void *state, const frx_kernel_src *src,
                              void **prog, int *compiled)
{
    struct omp_state *s = state;
    char host[512];
    host_id(host, sizeof host);
    const char *parts[] = {"openmp", src->source, s->cc, s->cflags,
                           frx_openmp_compiler_id(s), host,
                           /* whether cc takes them follows from cc,
                            * asked only when a kernel is built */
                           "strict"};
    struct build b = {s, src};
    frx_cache_entry e;
    int rc = frx_cache_fetch(parts, sizeof parts / sizeof *parts, ".so",
                             build, &b, &e);
    if (rc)
        return rc;
    *compiled = e.built;

    lt_dladvise adv;
    lt_dladvise_init(&adv);
    lt_dladvise_local(&adv);
    lt_dladvise_resident(&adv); /* never unloaded, see below */
    lt_dlhandle h = lt_dlopenadvise(e.path, adv);
    lt_dladvise_destroy(&adv);
    void *fn = h ? lt_dlsym(h, src->entry) : NULL;
    char team[512];
    snprintf(team, sizeof team, "%s_team", src->entry);
    void *team_fn = fn ? lt_dlsym(h, team) : NULL; /* optional */
    if (!fn) {
        rc = frx_error(FRX_EBACKEND, "kernel '%s': cannot load %s: %s; "
                       "remove it and run again", src->name, e.path,
                       lt_dlerror());
        frx_cache_done(&e);
        return rc;
    }
    frx_cache_done(&e); /* a temporary file can go once it is mapped */
    struct omp_prog *p = calloc(1, sizeof *p);
    if (!p)
        return frx_error(FRX_ENOMEM, "openmp: out of memory");
    *(void **)&p->entry = fn;
    *(void **)&p->team = team_fn;
    *prog = p;
    return FRX_OK;
}

int frx_openmp_kernel_launch(void *state, void *prog, const frx_launch *l)
{
    struct omp_state *s = state;
    const struct omp_prog *pr = prog;
    int held = s->batching && pr->team;
    if (!held)
        frx_openmp_flush(s);
    omp_kp small[32] = {{0}};
    uint32_t flags = FRX_SIZE_HOLDS(frx_launch, l, flags) ? l->flags : 0;
    omp_kp *kp = held ? frx_openmp_hold_kernel(s, pr->team, l->nparams,
                                               flags)
               : l->nparams <= 32 ? small : calloc(l->nparams, sizeof *kp);
    if (!kp)
        return held ? FRX_ENOMEM : frx_error(FRX_ENOMEM, "openmp: out of "
                                              "memory");
    for (size_t i = 0; i < l->nparams; i++) {
        const frx_param *p = &l->params[i];
        if (p->type == FRX_PARAM_MEM)
            kp[i].p = p->mem; /* the host is the device */
        else if (p->type == FRX_PARAM_INT || p->type == FRX_PARAM_INT64)
            kp[i].i = p->i;
        else
            kp[i].d = p->d;
    }
    if (held)
        return FRX_OK; /* runs at batch_end */
    pr->entry(kp);
    if (kp != small)
        free(kp);
    return FRX_OK;
}

/* The shared object stays mapped: unloading code whose OpenMP threads
 * may still be parked is not safe. */
void frx_openmp_kernel_free(void *state, void *prog)
{
    frx_openmp_flush(state);
    free(prog);
}
