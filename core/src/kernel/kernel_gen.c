/* SPDX-License-Identifier: BSD-3-Clause */
/* One generator, four targets: C with OpenMP, OpenCL C, CUDA (NVRTC) and
 * HIP (hiprtc). Each kernel becomes a function over its iteration space
 * whose body sees every argument as a local array of its declared dims:
 * loaded through the indexing of the argument's kind before the body,
 * stored after it. Only the loop around the point differs by target. */
#include "kernel/kernel-impl.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sbuf {
    char *s;
    size_t len, cap;
    int failed;
};

static void put(struct sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void put(struct sbuf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->failed = 1;
            return;
        }
        if (b->len + (size_t)k < b->cap) {
            b->len += (size_t)k;
            return;
        }
        size_t cap = (b->cap + (size_t)k) * 2 + 256;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->failed = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

size_t frx__const_leaddim(size_t ncol, size_t soasz, size_t alignment,
                          size_t fpsize)
{
    size_t per = alignment / fpsize, cols = (ncol + soasz - 1) / soasz * soasz;
    return (cols + per - 1) / per * per;
}

struct target {
    const char *global;   /* address space of buffers */
    const char *prefix;   /* before "void name(" */
    const char *restrict_; /* the compiler's spelling of restrict */
    const char *i64;      /* a 64-bit signed integer */
};

/* Buffers are restrict: a kernel's arguments never overlap where one of
 * them is written (several may read the same data), as in PyFR. */
static const struct target targets[] = {
    [FRX_TARGET_C_OPENMP] = {"", "", "restrict", "int64_t"},
    [FRX_TARGET_OPENCL] = {"__global ", "__kernel ", "restrict", "long"},
    [FRX_TARGET_CUDA] = {"", "extern \"C\" __global__ ", "__restrict__",
                         "long long"},
    [FRX_TARGET_HIP] = {"", "extern \"C\" __global__ ", "__restrict__",
                        "long long"},
};

static void prelude(struct sbuf *b, const frx__kspec *s,
                    const frx_codegen *cg)
{
    static const char *const names[] = {"", "C with OpenMP", "OpenCL C",
                                        "CUDA", "HIP"};
    int dbl = cg->precision == FRX_DOUBLE;
    put(b, "/* frx kernel '%s' for %s, %s precision, chunk width %zu */\n",
        s->name, names[cg->target], dbl ? "double" : "single", cg->soasz);
    if (cg->target == FRX_TARGET_C_OPENMP)
        put(b, "#include <math.h>\n#include <stdint.h>\n"
               "typedef union { void *p; int64_t i; double d; } frx_kp;\n");
    if (cg->target == FRX_TARGET_OPENCL && dbl)
        put(b, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    put(b, "typedef %s fpdtype_t;\n", dbl ? "double" : "float");
    /* offsets into matrices: an allocation may hold more than 2^31
     * values (view offsets and point counts stay 32-bit, checked when
     * they are made) */
    put(b, "typedef %s frx_ix64;\n", targets[cg->target].i64);
}

/* A macro's body, its lines continued. A // comment is left out: the
 * preprocessor joins continued lines before it removes comments, so one
 * would end the macro there and drop the lines after it, silently. */
static void macro_body_out(struct sbuf *b, const char *c)
{
    char quote = 0; /* inside "..." or '...' */
    int block = 0;  /* inside a block comment */
    for (; *c; c++) {
        if (*c == '\n') {
            put(b, " \\\n");
            continue;
        }
        if (quote && *c == '\\' && c[1] && c[1] != '\n')
            put(b, "%c", *c++);
        else if (quote && *c == quote)
            quote = 0;
        else if (block && *c == '*' && c[1] == '/')
            block = 0, put(b, "%c", *c++);
        else if (!quote && !block && (*c == '"' || *c == '\''))
            quote = *c;
        else if (!quote && !block && *c == '/' && c[1] == '*')
            block = 1, put(b, "%c", *c++);
        else if (!quote && !block && *c == '/' && c[1] == '/') {
            while (c[1] && c[1] != '\n')
                c++;
            continue;
        }
        put(b, "%c", *c);
    }
}

static void macros_out(struct sbuf *b, const frx_kernel_macro *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        put(b, "#define %s(%s) \\\n", m[i].name, m[i].params ? m[i].params
                                                             : "");
        macro_body_out(b, m[i].body);
        put(b, "\n");
    }
}

static void params(struct sbuf *b, const frx__kspec *s, const char *g,
                   const char *r)
{
    put(b, "int _nrows, int _n");
    for (size_t i = 0; i < s->nargs; i++) {
        const frx__karg *a = &s->args[i];
        const char *c = a->intent == FRX__IN ? "const " : "";
        const char *n = a->name;
        switch (a->kind) {
        case FRX__K_MATRIX:
            put(b, ", %s%sfpdtype_t *%s %s_b, frx_ix64 %s_o, frx_ix64 %s_ld"
                   ", frx_ix64 %s_pc, frx_ix64 %s_ps, frx_ix64 %s_c0",
                g, c, r, n, n, n, n, n, n);
            break;
        case FRX__K_BROADCAST:
            put(b, ", %sconst fpdtype_t *%s %s_b, frx_ix64 %s_o", g, r, n, n);
            break;
        case FRX__K_VIEW:
            put(b, ", %s%sfpdtype_t *%s %s_b, %sconst int *%s %s_off, "
                   "%sconst int *%s %s_rs", g, c, r, n, g, r, n, g, r, n);
            break;
        case FRX__K_XCHG:
        case FRX__K_REDUCE: /* its partial results */
            put(b, ", %s%sfpdtype_t *%s %s_b", g, c, r, n);
            break;
        default:
            put(b, ", %s %s", a->is_int ? "int" : "fpdtype_t", n);
        }
    }
}

/* The element of argument a at (_x, _v) for the current point. */
static void element(struct sbuf *b, const frx__karg *a, size_t soasz)
{
    switch (a->kind) {
    case FRX__K_MATRIX:
        put(b, "%s_b[%s_o + ((frx_ix64)_x*_nrows + _j)*%s_ld + "
               "%s_cb + _v*%zu + _il]",
            a->name, a->name, a->name, a->name, soasz);
        break;
    case FRX__K_VIEW:
        put(b, "%s_b[%s_off[_i] + _x*%s_rs[_i] + _v*%zu]", a->name, a->name,
            a->name, soasz);
        break;
    default: /* xchg */
        put(b, "%s_b[((frx_ix64)_x*%zu + _v)*_n + _i]", a->name, a->ncol);
    }
}

static void local_ref(struct sbuf *b, const frx__karg *a)
{
    if (a->ndims == 0)
        put(b, "%s", a->name);
    else if (a->ndims == 1)
        put(b, "%s[_v]", a->name);
    else
        put(b, "%s[_x][_v]", a->name);
}

static void copy_loop(struct sbuf *b, const frx__karg *a, size_t soasz,
                      int load)
{
    put(b, "        for (int _x = 0; _x < %zu; _x++)\n"
           "            for (int _v = 0; _v < %zu; _v++)\n                ",
        a->nrow, a->ncol);
    if (load) {
        local_ref(b, a);
        put(b, " = ");
        element(b, a, soasz);
    } else {
        element(b, a, soasz);
        put(b, " = ");
        local_ref(b, a);
    }
    put(b, ";\n");
}

static void reduce_local(struct sbuf *b, const frx__karg *a);
static void reduce_combine(struct sbuf *b, const frx__kspec *s,
                           const frx_codegen *cg);

/* Does text name the identifier id (a whole token)? */
static int names(const char *text, const char *id)
{
    size_t n = strlen(id);
    for (const char *t = strstr(text, id); t; t = strstr(t + 1, id)) {
        int before = t > text && (isalnum((unsigned char)t[-1]) ||
                                  t[-1] == '_');
        int after = isalnum((unsigned char)t[n]) || t[n] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* named[i]: is argument i named by the body or by a macro (which may use
 * it by name)? An input nothing names is not loaded: NVRTC warns of a
 * local that is set and never used, and the compile must be clean. */
static unsigned char *named_args(const frx__kspec *s,
                                 const frx_kernel_macro *m, size_t nm)
{
    unsigned char *named = calloc(s->nargs ? s->nargs : 1, 1);
    for (size_t i = 0; named && i < s->nargs; i++) {
        named[i] = names(s->body, s->args[i].name);
        for (size_t k = 0; k < nm && !named[i]; k++)
            named[i] = names(m[k].body, s->args[i].name);
    }
    return named;
}

static void point(struct sbuf *b, const frx__kspec *s, const frx_codegen *cg,
                  const unsigned char *named)
{
    const char *g = targets[cg->target].global;
    size_t fpsize = cg->precision == FRX_DOUBLE ? 8 : 4;
    for (size_t i = 0; i < s->nargs; i++) {
        const frx__karg *a = &s->args[i];
        if (a->kind == FRX__K_SCALAR)
            continue;
        if (!named[i] && a->intent == FRX__IN)
            continue;
        if (a->kind == FRX__K_BROADCAST) {
            size_t ld = frx__const_leaddim(a->ncol, cg->soasz, cg->alignment,
                                           fpsize);
            if (a->ndims == 2)
                put(b, "        %sconst fpdtype_t (*%s)[%zu] = (%sconst "
                       "fpdtype_t (*)[%zu])(%s_b + %s_o);\n", g, a->name, ld,
                    g, ld, a->name, a->name);
            else if (a->ndims == 1)
                put(b, "        %sconst fpdtype_t *%s = %s_b + %s_o;\n", g,
                    a->name, a->name, a->name);
            else
                put(b, "        const fpdtype_t %s = %s_b[%s_o];\n", a->name,
                    a->name, a->name);
            continue;
        }
        if (a->kind == FRX__K_REDUCE) {
            reduce_local(b, a);
            continue;
        }
        put(b, "        fpdtype_t %s", a->name);
        for (size_t d = 0; d < a->ndims; d++)
            put(b, "[%zu]", a->dims[d]);
        put(b, ";\n");
        if (a->intent == FRX__OUT) {
            put(b, "        for (int _x = 0; _x < %zu; _x++)\n"
                   "            for (int _v = 0; _v < %zu; _v++)\n"
                   "                ", a->nrow, a->ncol);
            local_ref(b, a);
            put(b, " = 0;\n");
        } else {
            copy_loop(b, a, cg->soasz, 1);
        }
    }
    put(b, "        {\n%s\n        }\n", s->body);
    for (size_t i = 0; i < s->nargs; i++) {
        const frx__karg *a = &s->args[i];
        if (a->intent != FRX__IN && a->kind != FRX__K_SCALAR &&
            a->kind != FRX__K_BROADCAST && a->kind != FRX__K_REDUCE)
            copy_loop(b, a, cg->soasz, 0);
    }
    reduce_combine(b, s, cg);
}

/* How many rows of memory a point of a matrix argument walks: one per
 * row block (_x) of each matrix the point loads or stores. */
static size_t matrix_streams(const frx__kspec *s, const unsigned char *named)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nargs; i++)
        if (s->args[i].kind == FRX__K_MATRIX &&
            (named[i] || s->args[i].intent != FRX__IN))
            n += s->args[i].nrow;
    return n;
}

/* Is a matrix argument loaded or stored (so that _ib and _il are used)? */
static int has_matrix(const frx__kspec *s, const unsigned char *named)
{
    return matrix_streams(s, named) > 0;
}

/* Where chunk _ib of each matrix argument the point touches starts in
 * its rows (X_cb). On openmp a matrix may be in parts (frx.h): chunk k
 * (from the start of the part at X_o) is in part k/X_pc; X_pc 0: one
 * part. The GPU targets are never given parts. */
static void chunk_bases(struct sbuf *b, const frx__kspec *s,
                        const frx_codegen *cg, const unsigned char *named)
{
    for (size_t i = 0; i < s->nargs; i++) {
        const frx__karg *a = &s->args[i];
        if (a->kind != FRX__K_MATRIX || (!named[i] && a->intent == FRX__IN))
            continue;
        size_t w = a->ncol * cg->soasz;
        if (cg->target == FRX_TARGET_C_OPENMP)
            put(b, "    const frx_ix64 %1$s_k = _ib + %1$s_c0;\n"
                   "    const frx_ix64 %1$s_cb = %1$s_pc ? %1$s_k / %1$s_pc*"
                   "%1$s_ps + %1$s_k %% %1$s_pc*%2$zu : %1$s_k*%2$zu;\n",
                a->name, w);
        else
            put(b, "    const frx_ix64 %s_cb = (frx_ix64)_ib*%zu;\n",
                a->name, w);
    }
}

/* Full chunks get a constant lane count, so the compiler turns the lane
 * loop into whole vectors; the last, partial chunk is the only one that
 * needs a run-time bound. The rows _j0 to _j1 of one chunk in turn. */
static void openmp_lanes(struct sbuf *b, const frx__kspec *s,
                         const frx_codegen *cg, const unsigned char *named,
                         const char *bound)
{
    chunk_bases(b, s, cg, named);
    put(b, "    for (int _j = _j0; _j < _j1; _j++) {\n"
           "#pragma omp simd\n"
           "    for (int _il = 0; _il < %s; _il++) {\n"
           "        const int _i = _ib*%zu + _il;\n"
           "        (void)_i;\n", bound, cg->soasz);
    point(b, s, cg, named);
    put(b, "    }\n    }\n");
}

/* The points go a group of rows at a time, each group chunk by chunk.
 * Every row of every matrix is a stream of its own in memory (rows lie
 * leaddim apart), and a core's prefetchers follow only a few dozen:
 * walked chunk by chunk over all rows at once, an axnpby at p = 4 (25
 * rows, 4 matrices) ran at a third of its speed at p = 3, while one row
 * at a time was a fifth slower than chunk by chunk where the streams
 * are few (DESIGN.md). So a group holds as many rows as keep its
 * streams within FRX__OPENMP_STREAMS, and at least one. */
#define FRX__OPENMP_STREAMS 16

static void openmp_loop(struct sbuf *b, const frx__kspec *s,
                        const frx_codegen *cg, const unsigned char *named)
{
    size_t S = cg->soasz, per = matrix_streams(s, named);
    size_t rows = per ? FRX__OPENMP_STREAMS / per : FRX__OPENMP_STREAMS;
    if (rows < 1)
        rows = 1;
    char full[32];
    snprintf(full, sizeof full, "%zu", S);
    put(b, "    const int _nb = _n / %zu + (_n %% %zu != 0);\n"
           "    for (int _j0 = 0; _j0 < _nrows; _j0 += %zu) {\n"
           "    const int _j1 = _nrows - _j0 < %zu ? _nrows : _j0 + %zu;\n"
           "#pragma omp for schedule(static) nowait\n"
           "    for (int _ib = 0; _ib < _nb; _ib++) {\n"
           "    const int _ie = _n - _ib*%zu;\n"
           "    if (_ie >= %zu) {\n", S, S, rows, rows, rows, S, S);
    openmp_lanes(b, s, cg, named, full);
    put(b, "    } else {\n");
    openmp_lanes(b, s, cg, named, "_ie");
    put(b, "    }\n    }\n    }\n");
}

static void device_index(struct sbuf *b, const frx__kspec *s,
                         const frx_codegen *cg, const unsigned char *named)
{
    /* the global index is compared before it becomes an int: the work
     * rounded up to whole groups may pass INT32_MAX */
    if (cg->target == FRX_TARGET_OPENCL)
        put(b, "    const size_t _g = get_global_id(0);\n"
               "    const int _j = (int)get_global_id(1);\n");
    else
        put(b, "    const frx_ix64 _g = (frx_ix64)blockIdx.x*blockDim.x + "
               "threadIdx.x;\n"
               "    const int _j = (int)blockIdx.y;\n");
    put(b, "    if (_g >= %s_n || _j >= _nrows)\n        return;\n"
           "    const int _i = (int)_g;\n",
        cg->target == FRX_TARGET_OPENCL ? "(size_t)" : "");
    if (has_matrix(s, named)) {
        /* unsigned: _i is never negative, and some compilers (PoCL)
         * only vectorise the unsigned division */
        put(b, "    const int _ib = (unsigned)_i / %zuu, "
               "_il = (unsigned)_i %% %zuu;\n", cg->soasz, cg->soasz);
        chunk_bases(b, s, cg, named);
    }
    point(b, s, cg, named);
}

/* openmp: entries taking the launch parameters as one array, so the
 * backend can call every kernel through one function type. The loop is
 * an orphaned `omp for nowait`: <fn>_entry runs it in a team of its own,
 * <fn>_entry_team on the team of the caller's parallel region (a
 * backend running several kernels in one region, with a barrier after
 * each). */
static void openmp_entry(struct sbuf *b, const frx__kspec *s,
                         const char *fn)
{
    put(b, "\nstatic void %s_call(const frx_kp *_p)\n{\n"
           "    %s((int)_p[0].i, (int)_p[1].i", fn, fn);
    size_t k = 2;
    for (size_t i = 0; i < s->nargs; i++) {
        const frx__karg *a = &s->args[i];
        switch (a->kind) {
        case FRX__K_MATRIX:
            put(b, ", _p[%zu].p, _p[%zu].i, _p[%zu].i, _p[%zu].i, _p[%zu].i, "
                   "_p[%zu].i", k, k + 1, k + 2, k + 3, k + 4, k + 5);
            k += 6;
            break;
        case FRX__K_BROADCAST:
            put(b, ", _p[%zu].p, _p[%zu].i", k, k + 1);
            k += 2;
            break;
        case FRX__K_VIEW:
            put(b, ", _p[%zu].p, _p[%zu].p, _p[%zu].p", k, k + 1, k + 2);
            k += 3;
            break;
        case FRX__K_XCHG:
        case FRX__K_REDUCE:
            put(b, ", _p[%zu].p", k++);
            break;
        default:
            put(b, a->is_int ? ", (int)_p[%zu].i" : ", (fpdtype_t)_p[%zu].d",
                k++);
        }
    }
    put(b, ");\n}\n");
    put(b, FRX__OPENMP_ENTRIES, fn);
}

/* ---------------------------------------------------------- reductions
 *
 * An "out reduce(op)" argument is a local array the body fills at each
 * point, starting from op's identity; the generated code folds it over
 * the points into partial results, [component][part], which the core
 * folds on the host (frx_kernel_result) in a fixed order, so a sum does
 * not depend on the number of threads. C with OpenMP folds each of at
 * most FRX__RED_SLICES slices of chunks in per-lane slots (the lane
 * loop stays a plain simd loop); the GPU targets fold one work-group of
 * FRX__RED_WG work-items in local memory, one row at a time. */

int frx__kspec_has_reduce(const frx__kspec *s)
{
    for (size_t i = 0; i < s->nargs; i++)
        if (s->args[i].kind == FRX__K_REDUCE)
            return 1;
    return 0;
}

size_t frx__reduce_nparts(const frx_codegen *cg, size_t nrows, size_t n)
{
    if (cg->target == FRX_TARGET_C_OPENMP) {
        size_t nb = (n + cg->soasz - 1) / cg->soasz;
        return nb < FRX__RED_SLICES ? nb : FRX__RED_SLICES;
    }
    return (n + FRX__RED_WG - 1) / FRX__RED_WG * nrows;
}

static const char *reduce_identity(int op)
{
    return op == FRX__RED_MAX ? "-FRX_INF" : op == FRX__RED_MIN ? "FRX_INF"
                                                                : "0";
}

/* acc = op(acc, x); max and min ignore a NaN x, as fmax and fmin do. */
static void reduce_fold(struct sbuf *b, int op, const char *acc,
                        const char *x)
{
    if (op == FRX__RED_SUM)
        put(b, "%s += %s;\n", acc, x);
    else
        put(b, "%s = %s %c %s ? %s : %s;\n", acc, x,
            op == FRX__RED_MAX ? '>' : '<', acc, x, acc);
}

static void reduce_prelude(struct sbuf *b, const frx__kspec *s,
                           const frx_codegen *cg)
{
    if (!frx__kspec_has_reduce(s))
        return;
    if (cg->target == FRX_TARGET_CUDA || cg->target == FRX_TARGET_HIP)
        put(b, "#define FRX_INF __int_as_float(0x7f800000)\n");
    else /* math.h's, and OpenCL C's own */
        put(b, "#define FRX_INF INFINITY\n");
}

/* What the GPU targets need to launch FRX__RED_WG work-items a group. */
static const char *reduce_attribute(const frx__kspec *s,
                                    const frx_codegen *cg)
{
    if (!frx__kspec_has_reduce(s))
        return "";
    if (cg->target == FRX_TARGET_OPENCL)
        return "__attribute__((reqd_work_group_size(" FRX__STR(FRX__RED_WG)
               ", 1, 1))) ";
    return "__launch_bounds__(" FRX__STR(FRX__RED_WG) ") ";
}

/* The body's local copy of a reduction, at the identity. */
static void reduce_local(struct sbuf *b, const frx__karg *a)
{
    put(b, "        fpdtype_t %s", a->name);
    for (size_t d = 0; d < a->ndims; d++)
        put(b, "[%zu]", a->dims[d]);
    put(b, ";\n        for (int _x = 0; _x < %zu; _x++)\n"
           "            for (int _v = 0; _v < %zu; _v++)\n                ",
        a->nrow, a->ncol);
    local_ref(b, a);
    put(b, " = %s;\n", reduce_identity(a->op));
}

/* After the body: fold each reduction into this lane's slot (C) or this
 * work-item's accumulator (GPUs). */
static void reduce_combine(struct sbuf *b, const frx__kspec *s,
                           const frx_codegen *cg)
{
    for (size_t i = 0; i < s->nargs; i++) {
        const frx__karg *a = &s->args[i];
        if (a->kind != FRX__K_REDUCE)
            continue;
        char acc[160], x[96];
        snprintf(acc, sizeof acc, cg->target == FRX_TARGET_C_OPENMP
                 ? "_rl_%s[_x*%zu + _v][_il]" : "_racc_%s[_x*%zu + _v]",
                 a->name, a->ncol);
        snprintf(x, sizeof x, a->ndims == 0 ? "%s" : a->ndims == 1
                 ? "%s[_v]" : "%s[_x][_v]", a->name);
        put(b, "        for (int _x = 0; _x < %zu; _x++)\n"
               "            for (int _v = 0; _v < %zu; _v++)\n"
               "                ", a->nrow, a->ncol);
        reduce_fold(b, a->op, acc, x);
    }
}

/* C: per-lane slots of each reduction for one slice, at the identity. */
static void openmp_reduce_slots(struct sbuf *b, const frx__kspec *s,
                                size_t soasz)
{
    for (size_t i = 0; i < s->nargs; i++) {
        const frx__karg *a = &s->args[i];
        if (a->kind == FRX__K_REDUCE)
            put(b, "    fpdtype_t _rl_%s[%zu][%zu];\n"
                   "    for (int _k = 0; _k < %zu; _k++)\n"
                   "        for (int _l = 0; _l < %zu; _l++)\n"
                   "            _rl_%s[_k][_l] = %s;\n", a->name,
                a->nrow * a->ncol, soasz, a->nrow * a->ncol, soasz,
                a->name, reduce_identity(a->op));
    }
}

/* C: the slice's lanes folded in order into its partial result. */
static void openmp_reduce_out(struct sbuf *b, const frx__kspec *s,
                              size_t soasz)
{
    for (size_t i = 0; i < s->nargs; i++) {
        const frx__karg *a = &s->args[i];
        if (a->kind != FRX__K_REDUCE)
            continue;
        char x[96];
        snprintf(x, sizeof x, "_rl_%s[_k][_l]", a->name);
        put(b, "    for (int _k = 0; _k < %zu; _k++) {\n"
               "        fpdtype_t _a = _rl_%s[_k][0];\n"
               "        for (int _l = 1; _l < %zu; _l++)\n            ",
            a->nrow * a->ncol, a->name, soasz);
        reduce_fold(b, a->op, "_a", x);
        put(b, "        %s_b[_k*_np + _is] = _a;\n    }\n", a->name);
    }
}

/* C: slices of whole chunks, one partial result each. */
static void openmp_reduce_loop(struct sbuf *b, const frx__kspec *s,
                               const frx_codegen *cg,
                               const unsigned char *named)
{
    size_t S = cg->soasz;
    char full[32];
    snprintf(full, sizeof full, "%zu", S);
    put(b, "    const int _nb = (_n + %zu - 1) / %zu;\n"
           "    const int _np = _nb < %d ? _nb : %d;\n"
           "    const int _j0 = 0, _j1 = _nrows;\n"
           "#pragma omp for schedule(static) nowait\n"
           "    for (int _is = 0; _is < _np; _is++) {\n", S, S,
        FRX__RED_SLICES, FRX__RED_SLICES);
    openmp_reduce_slots(b, s, S);
    put(b, "    const int _b1 = (int)((long long)_nb*(_is + 1)/_np);\n"
           "    for (int _ib = (int)((long long)_nb*_is/_np); _ib < _b1; "
           "_ib++) {\n"
           "    const int _ie = _n - _ib*%zu;\n"
           "    if (_ie >= %zu) {\n", S, S);
    openmp_lanes(b, s, cg, named, full);
    put(b, "    } else {\n");
    openmp_lanes(b, s, cg, named, "_ie");
    put(b, "    }\n    }\n");
    openmp_reduce_out(b, s, S);
    put(b, "    }\n");
}

/* GPUs: one point per work-item, then a tree over the work-group for
 * each component; work-item 0 writes the group's partial result. */
static void device_reduce(struct sbuf *b, const frx__kspec *s,
                          const frx_codegen *cg, const unsigned char *named)
{
    int ocl = cg->target == FRX_TARGET_OPENCL;
    const char *sync = ocl ? "barrier(CLK_LOCAL_MEM_FENCE)"
                           : "__syncthreads()";
    if (ocl)
        put(b, "    const int _i = get_global_id(0), _j = get_global_id(1);\n"
               "    const int _t = get_local_id(0), _g = get_group_id(0), "
               "_ng = get_num_groups(0);\n"
               "    __local fpdtype_t _red[%d];\n", FRX__RED_WG);
    else
        put(b, "    const int _i = blockIdx.x*blockDim.x + threadIdx.x;\n"
               "    const int _j = blockIdx.y;\n"
               "    const int _t = threadIdx.x, _g = blockIdx.x, "
               "_ng = gridDim.x;\n"
               "    __shared__ fpdtype_t _red[%d];\n", FRX__RED_WG);
    for (size_t i = 0; i < s->nargs; i++) {
        const frx__karg *a = &s->args[i];
        if (a->kind == FRX__K_REDUCE)
            put(b, "    fpdtype_t _racc_%s[%zu];\n"
                   "    for (int _k = 0; _k < %zu; _k++)\n"
                   "        _racc_%s[_k] = %s;\n", a->name,
                a->nrow * a->ncol, a->nrow * a->ncol, a->name,
                reduce_identity(a->op));
    }
    put(b, "    if (_i < _n && _j < _nrows) {\n");
    if (has_matrix(s, named)) {
        put(b, "    const int _ib = (unsigned)_i / %zuu, "
               "_il = (unsigned)_i %% %zuu;\n", cg->soasz, cg->soasz);
        chunk_bases(b, s, cg, named);
    }
    point(b, s, cg, named);
    put(b, "    }\n");
    /* no barrier is needed between components: work-item 0 alone reads
     * _red[0] after the last step, and writes it first in the next */
    for (size_t i = 0; i < s->nargs; i++) {
        const frx__karg *a = &s->args[i];
        if (a->kind != FRX__K_REDUCE)
            continue;
        put(b, "    for (int _k = 0; _k < %zu; _k++) {\n"
               "        _red[_t] = _racc_%s[_k];\n"
               "        %s;\n"
               "        for (int _s = %d; _s > 0; _s >>= 1) {\n"
               "            if (_t < _s)\n                ",
            a->nrow * a->ncol, a->name, sync, FRX__RED_WG / 2);
        reduce_fold(b, a->op, "_red[_t]", "_red[_t + _s]");
        put(b, "            %s;\n        }\n"
               "        if (_t == 0)\n"
               "            %s_b[_k*_ng*_nrows + _j*_ng + _g] = _red[0];\n"
               "    }\n", sync, a->name);
    }
}

/* The generated function's name: frx_k_<name>, a namespaced kernel's
 * "<plugin>.<name>" with every character a C identifier cannot hold
 * written as _XX (its hex code), so the name stays an identifier. */
static int entry_name(const frx__kspec *s, char *fn, size_t n)
{
    size_t k = (size_t)snprintf(fn, n, "frx_k_");
    for (const char *c = s->name; *c && k + 4 < n; c++) {
        unsigned char u = (unsigned char)*c;
        if (isalnum(u) || u == '_')
            fn[k++] = (char)u;
        else
            k += (size_t)snprintf(fn + k, n - k, "_%02x", u);
    }
    fn[k < n ? k : n - 1] = '\0';
    if (k + 16 >= n) /* room for "_entry" */
        return frx_error(FRX_EINVAL, "kernel '%s': the name is too long "
                         "(at most %zu characters with its namespace)",
                         s->name, n / 2);
    return FRX_OK;
}

int frx__kgen(const frx__kspec *s, const frx_kernel_macro *macros,
              size_t nmacros, const frx_codegen *cg, char **src, char **entry)
{
    if (!cg || cg->target < FRX_TARGET_C_OPENMP || cg->target > FRX_TARGET_HIP
        || !cg->soasz || !cg->alignment)
        return frx_error(FRX_EINVAL, "kernel '%s': no such code target or "
                         "layout", s->name);
    struct sbuf b = {0};
    char fn[256];
    int rc = entry_name(s, fn, sizeof fn);
    if (rc)
        return rc;
    unsigned char *named = named_args(s, macros, nmacros);
    if (!named)
        return frx_error(FRX_ENOMEM, "kernel '%s': out of memory generating "
                         "its source", s->name);
    prelude(&b, s, cg);
    reduce_prelude(&b, s, cg);
    macros_out(&b, macros, nmacros);
    if (cg->target == FRX_TARGET_C_OPENMP)
        put(&b, "\nvoid %s(", fn);
    else
        put(&b, "\n%s%svoid %s(", targets[cg->target].prefix,
            reduce_attribute(s, cg), fn);
    const struct target *t = &targets[cg->target];
    params(&b, s, t->global, t->restrict_);
    if (cg->target == FRX_TARGET_C_OPENMP) {
        put(&b, ");\nvoid %s(", fn);
        params(&b, s, "", t->restrict_);
    }
    put(&b, ")\n{\n");
    int red = frx__kspec_has_reduce(s);
    if (cg->target == FRX_TARGET_C_OPENMP)
        (red ? openmp_reduce_loop : openmp_loop)(&b, s, cg, named);
    else
        (red ? device_reduce : device_index)(&b, s, cg, named);
    free(named);
    put(&b, "}\n");
    if (cg->target == FRX_TARGET_C_OPENMP)
        openmp_entry(&b, s, fn);

    if (cg->target == FRX_TARGET_C_OPENMP)
        strcat(fn, "_entry"); /* fits: the name's length is bounded */
    char *e = frx__strdup(fn);
    if (b.failed || !e) {
        free(b.s);
        free(e);
        return frx_error(FRX_ENOMEM, "kernel '%s': out of memory generating "
                         "its source", s->name);
    }
    *src = b.s;
    *entry = e;
    return FRX_OK;
}

int frx_kernel_generate(const frx_kernel_decl *d,
                        const frx_kernel_macro *macros, size_t nmacros,
                        const frx_codegen *cg, char **src, char **entry)
{
    frx__kspec *s;
    int rc = frx__kspec_parse(d, &s);
    if (rc)
        return rc;
    rc = frx__kgen(s, macros, nmacros, cg, src, entry);
    frx__kspec_free(s);
    return rc;
}
