/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-fakegpu: a GPU made of host memory, for running gpu-common and the
 * generated CUDA code (kernels and packs) through the conformance and
 * MPI tests on a machine without a GPU. It is strict where a real GPU
 * would forgive by luck:
 *
 *   - commands are queued and run only when the host waits (an event,
 *     the stream), so a missing wait reads stale data, and a copy reads
 *     or writes host memory when it runs, not when it was issued;
 *   - new device memory is filled with garbage: only the zeroing frx
 *     issues makes it zero;
 *   - freeing memory or a module while commands are queued aborts.
 *
 * Its BLAS, "fakeblas", a provider of operator products, is a plain
 * column-major gemm queued like a launch, which refuses leading
 * dimensions shorter than the rows as BLAS does, so that gpu-common's
 * mapping of frx's row-major products onto a BLAS (the one cuBLAS gets)
 * is tested here: A and B swapped, or an offset dropped, fails
 * conformance-products-fakegpu.
 *
 * Kernels: the generated CUDA source with `extern "C" __global__`
 * removed is C; a wrapper per kernel runs it for every thread of every
 * block in turn, with blockIdx, blockDim, threadIdx and gridDim as
 * variables. A kernel that folds a block in shared memory (a reduction:
 * __shared__, __syncthreads) runs a block's threads as coroutines
 * (ucontext), __syncthreads a barrier among them: about 4x faster than
 * a POSIX thread each, whose barriers cost a kernel switch per thread
 * (conformance-reduce-fakegpu: 16 s, not 70 s). Under AddressSanitizer
 * each process warns once that it does not fully support swapcontext;
 * only the uninstrumented kernel code runs on the coroutines' stacks.
 * The "compiler" is cc, the "code" a shared object.
 *
 * FRX_FAKEGPU_KEEP_SOURCES=DIR writes every source it is asked to
 * compile into DIR as <name>-<hash>.cu (the CUDA the core generates for
 * a GPU), for tests/test_gpu_compile.c to compile with NVRTC and hiprtc.
 * Test fixture only: never installed. */
#include "gpu.h"

#include <dlfcn.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define GARBAGE 0xA5
#define MAX_PARAMS 64

static void die(const char *what)
{
    fprintf(stderr, "fakegpu: %s\n", what);
    abort(); /* a test fixture: a broken promise ends the test */
}

/* ------------------------------------------------------ the compiler */

struct prog {
    char *src, *code, *log, *name;
    size_t size;
};

static int rtc_create(void **out, const char *src, const char *name,
                      int nheaders, const char *const *headers,
                      const char *const *names)
{
    (void)nheaders, (void)headers, (void)names;
    struct prog *p = calloc(1, sizeof *p);
    if (p) {
        p->src = strdup(src);
        p->name = strdup(name);
    }
    if (!p || !p->src || !p->name) {
        if (p)
            free(p->src), free(p->name);
        free(p);
        return 1;
    }
    *out = p;
    return 0;
}

/* The parameters of function name in src: 'p'ointer, 'i'nt, 'l' (a
 * 64-bit frx_ix64), 'f'loat; the number of them, or -1. */
static int signature(const char *src, const char *name, char *kinds)
{
    char head[160];
    snprintf(head, sizeof head, "void %s(", name);
    const char *at = strstr(src, head);
    if (!at)
        return -1;
    at += strlen(head);
    int n = 0;
    while (*at && *at != ')' && n < MAX_PARAMS) {
        size_t len = strcspn(at, ",)");
        char param[256];
        snprintf(param, sizeof param, "%.*s", (int)len, at);
        const char *type = param + strspn(param, " \n");
        if (strncmp(type, "const ", 6) == 0)
            type += 6;
        kinds[n++] = strchr(param, '*') ? 'p'
                   : strncmp(type, "int ", 4) == 0 ? 'i'
                   : strncmp(type, "frx_ix64 ", 9) == 0 ? 'l' : 'f';
        at += len;
        if (*at == ',')
            at++;
    }
    return *at == ')' ? n : -1;
}

static const char global_prefix[] = "extern \"C\" __global__ ";
static const char bounds_prefix[] = "__launch_bounds__(";

/* What every kernel's C starts with: CUDA's names as C, and the runner
 * of a grid. Blocks run in turn, and so do their threads; a kernel that
 * synchronizes (a reduction) runs its threads as coroutines, each up to
 * its next __syncthreads or its end in turn, so that every thread
 * reaches a barrier before any passes it. */
static const char c_prelude[] =
    "#include <math.h>\n#include <stddef.h>\n#include <stdio.h>\n"
    "#include <stdlib.h>\n#include <ucontext.h>\n"
    "#define __restrict__ restrict\n"
    "#define __launch_bounds__(n)\n"
    "#define __shared__ static\n" /* one per module: blocks run in turn */
    "#define __syncthreads() frx_fake_sync()\n"
    /* C++'s abs of a float or double, as CUDA and HIP have it */
    "#define abs(x) _Generic((x), float: fabsf, double: fabs, "
    "long: labs, long long: llabs, default: abs)(x)\n"
    "static inline float __int_as_float(int i)\n"
    "{\n    union { int i; float f; } u = {.i = i};\n    return u.f;\n}\n"
    "static struct { unsigned x, y, z; } blockIdx, blockDim, threadIdx, "
    "gridDim;\n"
    "typedef void frx_fake_call(void **p);\n"
    "static ucontext_t frx_fake_host, *frx_fake_ctx;\n"
    "static unsigned char *frx_fake_done;\n"
    "static frx_fake_call *frx_fake_fn;\n"
    "static void **frx_fake_p;\n"
    "static void frx_fake_sync(void)\n{\n"
    "    swapcontext(&frx_fake_ctx[threadIdx.x], &frx_fake_host);\n}\n"
    "static void frx_fake_thread(void)\n{\n"
    "    frx_fake_fn(frx_fake_p);\n"
    "    frx_fake_done[threadIdx.x] = 1; /* back to frx_fake_host */\n}\n"
    "static void frx_fake_grid(unsigned gx, unsigned gy, unsigned bx, "
    "void **p,\n                          frx_fake_call *call, int sync)\n{\n"
    "    enum { STACK = 256 << 10 };\n"
    "    char *stacks = NULL;\n"
    "    blockDim.x = bx, blockDim.y = blockDim.z = 1;\n"
    "    gridDim.x = gx, gridDim.y = gy, gridDim.z = 1;\n"
    "    if (sync) {\n"
    "        frx_fake_ctx = calloc(bx, sizeof *frx_fake_ctx);\n"
    "        frx_fake_done = calloc(bx, 1);\n"
    "        stacks = malloc((size_t)bx * STACK);\n"
    "        if (!frx_fake_ctx || !frx_fake_done || !stacks) {\n"
    "            fprintf(stderr, \"fakegpu: no memory for a block\\n\");\n"
    "            abort();\n"
    "        }\n"
    "        frx_fake_fn = call, frx_fake_p = p;\n"
    "    }\n"
    "    for (unsigned y = 0; y < gy; y++)\n"
    "    for (unsigned b = 0; b < gx; b++) {\n"
    "        blockIdx.x = b, blockIdx.y = y, blockIdx.z = 0;\n"
    "        if (!sync) {\n"
    "            for (unsigned t = 0; t < bx; t++) {\n"
    "                threadIdx.x = t;\n"
    "                call(p);\n"
    "            }\n"
    "            continue;\n"
    "        }\n"
    "        for (unsigned t = 0; t < bx; t++) {\n"
    "            ucontext_t *c = &frx_fake_ctx[t];\n"
    "            if (getcontext(c) != 0) {\n"
    "                fprintf(stderr, \"fakegpu: getcontext failed\\n\");\n"
    "                abort();\n"
    "            }\n"
    "            c->uc_stack.ss_sp = stacks + (size_t)t * STACK;\n"
    "            c->uc_stack.ss_size = STACK;\n"
    "            c->uc_link = &frx_fake_host;\n"
    "            makecontext(c, frx_fake_thread, 0);\n"
    "            frx_fake_done[t] = 0;\n"
    "        }\n"
    "        unsigned running;\n"
    "        do {\n"
    "            running = 0;\n"
    "            for (unsigned t = 0; t < bx; t++) {\n"
    "                if (frx_fake_done[t])\n"
    "                    continue;\n"
    "                threadIdx.x = t;\n"
    "                swapcontext(&frx_fake_host, &frx_fake_ctx[t]);\n"
    "                running += !frx_fake_done[t];\n"
    "            }\n"
    "        } while (running);\n"
    "    }\n"
    "    if (sync) {\n"
    "        free(frx_fake_ctx), free(frx_fake_done), free(stacks);\n"
    "        frx_fake_ctx = NULL;\n"
    "    }\n}\n";

/* The source as C, with a runner per kernel. */
static char *as_c(const char *src, const char *name)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        return NULL;
    fputs(c_prelude, f);
    fprintf(f, "#line 1 \"%s\"\n", name); /* messages name the source */
    for (const char *s = src; *s;) {
        const char *g = strstr(s, global_prefix);
        size_t k = g ? (size_t)(g - s) : strlen(s);
        fwrite(s, 1, k, f);
        s += k;
        if (g)
            s += strlen(global_prefix);
    }
    int dbl = strstr(src, "typedef double fpdtype_t") != NULL;
    int sync = strstr(src, "__syncthreads") != NULL;
    for (const char *g = strstr(src, global_prefix); g;
         g = strstr(g + 1, global_prefix)) {
        const char *at = g + strlen(global_prefix);
        if (strncmp(at, bounds_prefix, strlen(bounds_prefix)) == 0) {
            at = strchr(at, ')');
            at = at ? at + 1 + strspn(at + 1, " ") : "";
        }
        char fn[128];
        if (sscanf(at, "void %127[A-Za-z0-9_]", fn) != 1)
            continue;
        char kinds[MAX_PARAMS];
        int n = signature(src, fn, kinds);
        if (n < 0)
            continue;
        fprintf(f, "\nconst unsigned frx_fake_sizes_%s[] = {%d", fn, n);
        for (int i = 0; i < n; i++)
            fprintf(f, ", %d", kinds[i] == 'p' || kinds[i] == 'l' ? 8
                               : kinds[i] == 'i' ? 4 : dbl ? 8 : 4);
        fprintf(f, "};\nstatic void frx_fake_call_%s(void **p)\n{\n"
                   "    %s(", fn, fn);
        for (int i = 0; i < n; i++)
            fprintf(f, "%s*(%s *)p[%d]", i ? ", " : "",
                    kinds[i] == 'p'   ? "void *"
                    : kinds[i] == 'i' ? "int"
                    : kinds[i] == 'l' ? "frx_ix64" : "fpdtype_t", i);
        fprintf(f, ");\n}\n"
                   "void frx_fake_run_%s(unsigned gx, unsigned gy, "
                   "unsigned bx, void **p);\n"
                   "void frx_fake_run_%s(unsigned gx, unsigned gy, "
                   "unsigned bx, void **p)\n{\n"
                   "    frx_fake_grid(gx, gy, bx, p, frx_fake_call_%s, %d);\n"
                   "}\n", fn, fn, fn, sync);
    }
    return fclose(f) == 0 ? out : (free(out), NULL);
}

static int slurp(const char *path, char **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    *data = n > 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)n + 1) : NULL;
    int ok = *data && fread(*data, 1, (size_t)n, f) == (size_t)n;
    if (f)
        fclose(f);
    if (!ok) {
        free(*data);
        *data = NULL;
        return -1;
    }
    (*data)[n] = '\0';
    *size = (size_t)n;
    return 0;
}

/* FRX_FAKEGPU_KEEP_SOURCES=DIR: src as DIR/<name>-<hash>.cu (name less
 * its suffix), written under a name of this process's and renamed, so
 * that ranks writing the same kernel at once leave one whole file. */
static int keep_source(const struct prog *p)
{
    const char *dir = getenv("FRX_FAKEGPU_KEEP_SOURCES");
    if (!dir || !*dir)
        return 0;
    char hex[65], base[256], path[4096], tmp[4200];
    frx_sha256_hex(p->src, strlen(p->src), hex);
    snprintf(base, sizeof base, "%s", p->name);
    char *dot = strrchr(base, '.');
    if (dot && strcmp(dot, ".cu") == 0)
        *dot = '\0';
    snprintf(path, sizeof path, "%s/%s-%.16s.cu", dir, base, hex);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    int bad = !f || fputs(p->src, f) < 0;
    if (f && fclose(f) != 0)
        bad = 1;
    if (bad || rename(tmp, path) != 0) {
        fprintf(stderr, "fakegpu: FRX_FAKEGPU_KEEP_SOURCES: cannot write "
                "%s: %s\n", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

static int rtc_compile(void *prog, int nopts, const char *const *opts)
{
    (void)nopts, (void)opts;
    struct prog *p = prog;
    if (keep_source(p) != 0)
        return 3;
    const char *tmp = getenv("TMPDIR");
    char dir[512], c[600], so[600], log[600];
    snprintf(dir, sizeof dir, "%s/fakegpu-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return 3;
    snprintf(c, sizeof c, "%s/k.c", dir);
    snprintf(so, sizeof so, "%s/k.so", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    char *text = as_c(p->src, p->name);
    FILE *f = text ? fopen(c, "w") : NULL;
    int bad = !f || fputs(text, f) < 0;
    if (f && fclose(f) != 0)
        bad = 1;
    free(text);
    int status = -1;
    if (!bad) {
        /* a function used undeclared is an error in C++, as here */
        char *argv[] = {"cc", "-std=gnu11", "-O1",
                        "-Werror=implicit-function-declaration", "-shared",
                        "-fPIC", "-o", so, c, "-lm", NULL};
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 1, log, 01101, 0600);
        posix_spawn_file_actions_adddup2(&fa, 1, 2);
        pid_t pid;
        if (posix_spawnp(&pid, "cc", &fa, NULL, argv, environ) == 0)
            waitpid(pid, &status, 0);
        posix_spawn_file_actions_destroy(&fa);
    }
    size_t n;
    if (slurp(log, &p->log, &n) != 0)
        p->log = strdup("");
    int ok = !bad && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
             slurp(so, &p->code, &p->size) == 0;
    unlink(c), unlink(so), unlink(log), rmdir(dir);
    return ok ? 0 : 6; /* 6: NVRTC_ERROR_COMPILATION */
}

static int rtc_log_size(void *prog, size_t *n)
{
    const struct prog *p = prog;
    *n = p->log ? strlen(p->log) + 1 : 1;
    return 0;
}

static int rtc_log(void *prog, char *out)
{
    const struct prog *p = prog;
    strcpy(out, p->log ? p->log : "");
    return 0;
}

static int rtc_code_size(void *prog, size_t *n)
{
    *n = ((struct prog *)prog)->size;
    return 0;
}

static int rtc_code(void *prog, char *out)
{
    const struct prog *p = prog;
    memcpy(out, p->code, p->size);
    return 0;
}

static int rtc_destroy(void **prog)
{
    struct prog *p = *prog;
    free(p->src), free(p->code), free(p->log), free(p->name), free(p);
    *prog = NULL;
    return 0;
}

static const char *rtc_errstr(int rc)
{
    return rc == 6 ? "cc failed" : rc ? "fakegpu compiler error" : "ok";
}

/* ------------------------------------------------------ the device */

struct event {
    int pending;
};

struct fn {
    void (*run)(unsigned gx, unsigned gy, unsigned bx, void **p);
    const unsigned *sizes; /* count, then each parameter's bytes */
};

struct module {
    void *so;
    struct fn fns[8];
    int nfns;
};

enum { C_ZERO, C_COPY, C_LAUNCH, C_GEMM, C_RECORD };

/* A gemm as BLAS takes it (column-major, no transposes); C at cmd.addr. */
struct gemm {
    int dbl, m, n, k, lda, ldb, ldc;
    uint64_t a, b;
    double alpha, beta;
};

struct cmd {
    int kind;
    uint64_t addr;
    void *host;
    size_t bytes;
    int to_host;
    const struct fn *fn;
    unsigned grid[2], block;
    unsigned char *args; /* launch parameters, copied at launch */
    struct gemm gemm;
    struct event *ev;
};

struct fake {
    struct gpu g;
    struct cmd *q;
    size_t nq, cap;
};

static struct fake *fk(struct gpu *g) { return (struct fake *)g; }

static int push(struct gpu *g, struct cmd c)
{
    struct fake *s = fk(g);
    if (s->nq == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        struct cmd *q = realloc(s->q, cap * sizeof *q);
        if (!q)
            return frx_error(FRX_ENOMEM, "fakegpu: out of memory");
        s->q = q;
        s->cap = cap;
    }
    s->q[s->nq++] = c;
    return FRX_OK;
}

/* C = alpha*A*B + beta*C, column by column of C, in the precision of
 * the elements (as a BLAS accumulates); beta = 0 never reads C. */
#define FAKE_GEMM(T)                                                        \
    do {                                                                    \
        const T *a = (const T *)(uintptr_t)q->a;                            \
        const T *b = (const T *)(uintptr_t)q->b;                            \
        T *c = (T *)(uintptr_t)addr;                                        \
        for (int j = 0; j < q->n; j++) {                                    \
            T *cj = c + (size_t)j * q->ldc;                                 \
            for (int i = 0; i < q->m; i++)                                  \
                cj[i] = q->beta == 0 ? 0 : (T)q->beta * cj[i];              \
            for (int l = 0; l < q->k; l++) {                                \
                T t = (T)q->alpha * b[(size_t)j * q->ldb + l];              \
                const T *al = a + (size_t)l * q->lda;                       \
                for (int i = 0; i < q->m; i++)                              \
                    cj[i] += al[i] * t;                                     \
            }                                                               \
        }                                                                   \
    } while (0)

static void gemm_run(const struct gemm *q, uint64_t addr)
{
    if (q->dbl)
        FAKE_GEMM(double);
    else
        FAKE_GEMM(float);
}

static void execute(struct cmd *c)
{
    void *dev = (void *)(uintptr_t)c->addr;
    switch (c->kind) {
    case C_ZERO:
        memset(dev, 0, c->bytes);
        break;
    case C_COPY:
        if (c->to_host)
            memcpy(c->host, dev, c->bytes);
        else
            memcpy(dev, c->host, c->bytes);
        break;
    case C_LAUNCH: {
        void *p[MAX_PARAMS];
        size_t at = 0;
        for (unsigned k = 0; k < c->fn->sizes[0]; k++) {
            p[k] = c->args + at;
            at += c->fn->sizes[k + 1];
        }
        c->fn->run(c->grid[0], c->grid[1], c->block, p);
        free(c->args);
        break;
    }
    case C_GEMM:
        gemm_run(&c->gemm, c->addr);
        break;
    default:
        c->ev->pending = 0;
    }
}

/* Run the first n queued commands. */
static void run(struct fake *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        execute(&s->q[i]);
    memmove(s->q, s->q + n, (s->nq - n) * sizeof *s->q);
    s->nq -= n;
}

static void idle_or_die(struct gpu *g, const char *what)
{
    if (fk(g)->nq)
        die(what);
}

static int f_alloc(struct gpu *g, size_t bytes, uint64_t *addr)
{
    (void)g;
    if (bytes % FRX_GPU_ALIGNMENT)
        die("an allocation is not whole 128-byte lines");
    void *p = aligned_alloc(FRX_GPU_ALIGNMENT, bytes);
    if (!p)
        return frx_error(FRX_ENOMEM, "fakegpu: out of memory");
    memset(p, GARBAGE, bytes);
    *addr = (uint64_t)(uintptr_t)p;
    return FRX_OK;
}

static void f_free(struct gpu *g, uint64_t addr)
{
    idle_or_die(g, "device memory freed with commands queued");
    free((void *)(uintptr_t)addr);
}

static int f_host_alloc(struct gpu *g, size_t bytes, void **host)
{
    uint64_t addr = 0;
    int rc = f_alloc(g, bytes, &addr);
    *host = (void *)(uintptr_t)addr;
    return rc;
}

static void f_host_free(struct gpu *g, void *host)
{
    idle_or_die(g, "pinned memory freed with commands queued");
    free(host);
}

static int f_zero(struct gpu *g, uint64_t addr, size_t bytes)
{
    return push(g, (struct cmd){.kind = C_ZERO, .addr = addr, .bytes = bytes});
}

static int f_copy(struct gpu *g, uint64_t addr, void *host, size_t bytes,
                  int to_host)
{
    return push(g, (struct cmd){.kind = C_COPY, .addr = addr, .host = host,
                                .bytes = bytes, .to_host = to_host});
}

static int f_event_new(struct gpu *g, void **ev)
{
    (void)g;
    *ev = calloc(1, sizeof(struct event));
    return *ev ? FRX_OK : frx_error(FRX_ENOMEM, "fakegpu: out of memory");
}

static void f_event_free(struct gpu *g, void *ev)
{
    for (size_t i = 0; i < fk(g)->nq; i++)
        if (fk(g)->q[i].ev == ev)
            die("an event freed while queued");
    free(ev);
}

static int f_record(struct gpu *g, void *ev)
{
    ((struct event *)ev)->pending = 1;
    return push(g, (struct cmd){.kind = C_RECORD, .ev = ev});
}

static int f_event_wait(struct gpu *g, void *ev)
{
    struct fake *s = fk(g);
    if (!((struct event *)ev)->pending)
        return FRX_OK;
    for (size_t i = 0; i < s->nq; i++)
        if (s->q[i].ev == ev) {
            run(s, i + 1);
            return FRX_OK;
        }
    die("waiting for an event never recorded");
    return FRX_EBACKEND;
}

static int f_stream_wait(struct gpu *g)
{
    run(fk(g), fk(g)->nq);
    return FRX_OK;
}

static int f_module_load(struct gpu *g, const void *image, size_t size,
                         void **mod)
{
    (void)g;
    const char *tmp = getenv("TMPDIR");
    char path[600];
    snprintf(path, sizeof path, "%s/fakegpu-XXXXXX.so",
             tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemps(path, 3);
    int bad = fd < 0 || write(fd, image, size) != (ssize_t)size;
    if (fd >= 0 && close(fd) != 0)
        bad = 1;
    struct module *m = bad ? NULL : calloc(1, sizeof *m);
    if (m && !(m->so = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
        frx_error(FRX_EBACKEND, "fakegpu: %s", dlerror());
        free(m);
        m = NULL;
    }
    if (fd >= 0)
        unlink(path);
    if (!m)
        return bad ? frx_error(FRX_EIO, "fakegpu: cannot write %s", path)
                   : FRX_EBACKEND;
    *mod = m;
    return FRX_OK;
}

static void f_module_free(struct gpu *g, void *mod)
{
    idle_or_die(g, "a module freed with commands queued");
    struct module *m = mod;
    dlclose(m->so);
    free(m);
}

static int f_function(struct gpu *g, void *mod, const char *entry, void **fn)
{
    (void)g;
    struct module *m = mod;
    char run_name[160], sizes_name[160];
    snprintf(run_name, sizeof run_name, "frx_fake_run_%s", entry);
    snprintf(sizes_name, sizeof sizes_name, "frx_fake_sizes_%s", entry);
    if (m->nfns == 8)
        return frx_error(FRX_EBACKEND, "fakegpu: too many functions");
    struct fn *f = &m->fns[m->nfns];
    *(void **)&f->run = dlsym(m->so, run_name);
    f->sizes = dlsym(m->so, sizes_name);
    if (!f->run || !f->sizes)
        return frx_error(FRX_EBACKEND, "fakegpu: no kernel '%s'", entry);
    m->nfns++;
    *fn = f;
    return FRX_OK;
}

static int f_launch(struct gpu *g, void *fn, const unsigned grid[2],
                    unsigned block, void **params)
{
    const struct fn *f = fn;
    size_t total = 0;
    for (unsigned k = 0; k < f->sizes[0]; k++)
        total += f->sizes[k + 1];
    unsigned char *args = malloc(total ? total : 1);
    if (!args)
        return frx_error(FRX_ENOMEM, "fakegpu: out of memory");
    size_t at = 0;
    for (unsigned k = 0; k < f->sizes[0]; k++) { /* as cuLaunchKernel does */
        memcpy(args + at, params[k], f->sizes[k + 1]);
        at += f->sizes[k + 1];
    }
    struct cmd c = {.kind = C_LAUNCH, .fn = f, .grid = {grid[0], grid[1]},
                    .block = block, .args = args};
    int rc = push(g, c);
    if (rc)
        free(args);
    return rc;
}

/* BLAS's argument checks (CUBLAS_STATUS_INVALID_VALUE on a GPU), then
 * the gemm queued. */
static int f_gemm(struct gpu *g, int m, int n, int k, double alpha,
                  uint64_t a, int lda, uint64_t b, int ldb, double beta,
                  uint64_t c, int ldc)
{
    const char *bad = m < 0 ? "m < 0" : n < 0 ? "n < 0" : k < 0 ? "k < 0"
                    : lda < (m > 1 ? m : 1) ? "lda < max(1, m)"
                    : ldb < (k > 1 ? k : 1) ? "ldb < max(1, k)"
                    : ldc < (m > 1 ? m : 1) ? "ldc < max(1, m)" : NULL;
    if (bad)
        return frx_error(FRX_EBACKEND, "fakegpu: fakeblas gemm(m %d, n %d, "
                         "k %d, lda %d, ldb %d, ldc %d): %s", m, n, k, lda,
                         ldb, ldc, bad);
    struct gemm q = {.dbl = g->precision == FRX_DOUBLE, .m = m, .n = n,
                     .k = k, .lda = lda, .ldb = ldb, .ldc = ldc, .a = a,
                     .b = b, .alpha = alpha, .beta = beta};
    return push(g, (struct cmd){.kind = C_GEMM, .addr = c, .gemm = q});
}

/* The limits a device reports: grid x, grid y, warp. */
static int fake_attribute(int *value, int attribute, int ordinal)
{
    static const int limits[] = {1 << 30, 65535, 32};
    (void)ordinal;
    *value = limits[attribute];
    return 0;
}

static const struct gpu_vendor fake_vendor = {
    .alloc = f_alloc, .free = f_free, .host_alloc = f_host_alloc,
    .host_free = f_host_free, .zero = f_zero, .copy = f_copy,
    .event_new = f_event_new, .event_free = f_event_free,
    .record = f_record, .event_wait = f_event_wait,
    .stream_wait = f_stream_wait, .module_load = f_module_load,
    .module_free = f_module_free, .function = f_function,
    .launch = f_launch, .blas = "fakeblas", .gemm = f_gemm};

static const char *const fake_libs[] = {"fakeblas", NULL};

/* ------------------------------------------------------ the plugin */

/* FRX_FAKEGPU_DEVICES=N (1 to 8, else 1): devices "fake GPU 0"... to
 * choose among by backend.fakegpu.device, for tests of the choice; all
 * of them the same host memory. */
static int fake_open(struct gpu *g, int *count)
{
    static const struct gpu_api limits = {
        .device_attribute = fake_attribute,
        .name = {.device_attribute = "fakeDeviceGetAttribute"},
        .attr_max_grid_x = 0, .attr_max_grid_y = 1, .attr_warp = 2};
    g->api = &limits; /* the primitives are fake_vendor's own */
    snprintf(g->rtc.name, sizeof g->rtc.name, "cc");
    g->rtc.create = rtc_create;
    g->rtc.compile = rtc_compile;
    g->rtc.log_size = rtc_log_size;
    g->rtc.log = rtc_log;
    g->rtc.code_size = rtc_code_size;
    g->rtc.code = rtc_code;
    g->rtc.destroy = rtc_destroy;
    g->rtc.errstr = rtc_errstr;
    const char *nd = getenv("FRX_FAKEGPU_DEVICES");
    *count = nd && atoi(nd) > 0 && atoi(nd) <= 8 ? atoi(nd) : 1;
    return FRX_OK;
}

static int fake_describe(struct gpu *g, int i, struct gpu_device *out)
{
    (void)g;
    snprintf(out->name, sizeof out->name, "fake GPU %d", i);
    snprintf(out->id, sizeof out->id, "GPU-fake-%d", i);
    snprintf(out->arch, sizeof out->arch, "host");
    return FRX_OK;
}

static int fake_compiles(struct gpu *g, const struct gpu_device *dev)
{
    (void)g, (void)dev;
    return FRX_OK;
}

static int fake_open_device(struct gpu *g, const struct gpu_device *dev)
{
    (void)dev;
    g->stream = g; /* commands queue on the state */
    /* in the cache key: bumped when the runner it wraps kernels in
     * changes (2: 64-bit frx_ix64 parameters; 3: kernels that
     * synchronize, their threads as coroutines) */
    snprintf(g->driver, sizeof g->driver, "fakegpu 3");
    return FRX_OK;
}

static void fake_versions(const struct gpu *g, char *buf, size_t n)
{
    (void)g;
    snprintf(buf, n, "a GPU made of host memory (tests only)");
}

static void fake_close(struct gpu *g) { free(fk(g)->q); }

static const struct gpu_backend fake_backend = {
    .name = "fakegpu", .target = FRX_TARGET_CUDA,
    .state_size = sizeof(struct fake), .vd = &fake_vendor,
    .suffix = ".so", .src_suffix = ".cu", .chunk = "warp",
    .mpi_kind = NULL, .block = 16, /* small blocks: every launch spans
                                      several */
    .arch_opt = "--fake-arch=", .open = fake_open,
    .describe = fake_describe, .compiles = fake_compiles,
    .open_device = fake_open_device, .versions = fake_versions,
    .close = fake_close};

FRX_GPU_PLUGIN(fake_backend, "fakegpu", FRX_TARGET_CUDA, 0, NULL,
               "gpu-common on host memory (tests only)",
               FRX_GPU_PRODUCT_OPS(fake_libs))
