/* SPDX-License-Identifier: BSD-3-Clause */
/* Generated operator products C = alpha*A*B + beta*C for the four
 * targets, from A's values (as GiMMiK does for PyFR).
 *
 * Every target computes, for each column of B and C (an element's
 * variable), the rows of C in blocks of g->rows: the B rows that the
 * block's nonzeros need are loaded once each and multiplied into the
 * block's accumulators, which are then stored. Where A is small every
 * nonzero is a statement with its value as a literal (zeros skipped);
 * where it is large (g->loops) each block loops over the runs of columns
 * where it has nonzeros, reading A from its buffer, so that the code stays
 * small while all-zero stretches are still skipped.
 *
 * C with OpenMP: threads over chunks of soasz contiguous columns, each
 * chunk one vector of the compiler's vector extension (whole SIMD
 * registers on any ISA), the leading dimensions written in as literals.
 * GPU targets (OpenCL, CUDA, HIP): one work-item per column. OpenCL's
 * phased variants put a barrier between blocks of rows (every work-item
 * goes through them; those past the columns compute nothing): PoCL runs
 * each stretch between barriers for the whole work-group before the
 * next, so a block of rows streams over the group's columns, as on the
 * host. OpenCL's vector variants give a work-item g->vec contiguous
 * columns as one vector type (double4 ...), loaded and stored whole: a
 * CPU device (PoCL) then runs whole SIMD registers without having to
 * vectorise across work-items itself.
 *
 * Parameters, in order: _nrows (1), _n (columns), A, its offset and
 * leading dimension, B likewise, C likewise, _nfull, _rem, alpha, beta.
 * Offsets and leading dimensions are 64-bit (frx_ix64, FRX_PARAM_INT64):
 * rows times a leading dimension pass 2^31 in large matrices long before
 * a column count does; the counts are int (the core checks they fit).
 * Columns [0, _nfull) are computed; beyond them, only the first _rem
 * lanes of each chunk of soasz columns (a slice of C that ends inside a
 * chunk leaves the rest of that chunk to its neighbours). */
#include "product/product-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gen {
    const frx__pgen *g;
    FILE *f;
    int dbl;
    int host; /* C with OpenMP: offsets from a chunk's start, as literals;
                 GPU targets: row numbers, leading dimensions parameters */
    int ldrun; /* C with OpenMP, ldb = ldc = 0: row numbers too, the
                  leading dimensions read at run time */
};

/* A literal of the backend precision that reads back exactly. */
static void literal(struct gen *s, double v)
{
    if (s->dbl)
        fprintf(s->f, "%.17g", v); /* "2" is fine: 2*x is a double */
    else
        fprintf(s->f, "%.9ef", (double)(float)v);
}

static double a_at(const frx__pgen *g, size_t r, size_t c)
{
    double v = g->a[r * g->k + c];
    return g->precision == FRX_SINGLE ? (double)(float)v : v;
}

/* What FRX_B() and FRX_C() take for row r of B or C. */
static size_t brow(const struct gen *s, size_t r)
{
    return s->host && !s->ldrun ? r * s->g->ldb : r;
}
static size_t crow(const struct gen *s, size_t r)
{
    return s->host && !s->ldrun ? r * s->g->ldc : r;
}

/* acc (+)= v*x, with v = +-1 as an add or subtract. */
static void term(struct gen *s, size_t acc, double v, int first)
{
    FILE *f = s->f;
    if (first) {
        fprintf(f, " s%zu = ", acc);
        if (v == -1)
            fprintf(f, "-x;");
        else if (v == 1)
            fprintf(f, "x;");
        else {
            literal(s, v);
            fprintf(f, "*x;");
        }
        return;
    }
    if (v == 1 || v == -1) {
        fprintf(f, " s%zu %c= x;", acc, v == 1 ? '+' : '-');
        return;
    }
    fprintf(f, " s%zu += ", acc);
    literal(s, v);
    fprintf(f, "*x;");
}

/* Row r of C from accumulator acc (set = 0: the row has no nonzero). */
static void store(struct gen *s, size_t r, size_t acc, int set,
                  const char *ind)
{
    FILE *f = s->f;
    size_t at = crow(s, r);
    fprintf(f, "%sFRX_SET(%zu, ", ind, at);
    if (set && s->g->beta0)
        fprintf(f, "alpha*s%zu", acc);
    else if (set)
        fprintf(f, "alpha*s%zu + beta*FRX_C(%zu)", acc, at);
    else if (s->g->beta0)
        fprintf(f, "FRX_ZERO");
    else
        fprintf(f, "beta*FRX_C(%zu)", at);
    fprintf(f, ");\n");
}

/* Rows [r0, r1), every nonzero a statement. */
static void block_unrolled(struct gen *s, size_t r0, size_t r1,
                           const char *ind)
{
    const frx__pgen *g = s->g;
    unsigned char set[256] = {0};
    for (size_t c = 0; c < g->k; c++) {
        int any = 0;
        for (size_t r = r0; r < r1 && !any; r++)
            any = a_at(g, r, c) != 0;
        if (!any)
            continue;
        fprintf(s->f, "%sx = FRX_B(%zu);", ind, brow(s, c));
        for (size_t r = r0; r < r1; r++) {
            double v = a_at(g, r, c);
            if (v == 0)
                continue;
            term(s, r - r0, v, !set[r - r0]);
            set[r - r0] = 1;
        }
        fprintf(s->f, "\n");
    }
    for (size_t r = r0; r < r1; r++)
        store(s, r, r - r0, set[r - r0], ind);
}

/* Rows [r0, r1), loops over the runs of columns where any of them has a
 * nonzero (gaps of a few zero columns are run through). */
static void block_loops(struct gen *s, size_t r0, size_t r1, const char *ind)
{
    const frx__pgen *g = s->g;
    FILE *f = s->f;
    const size_t gap = 4;
    int any_run = 0;
    for (size_t c = 0; c < g->k;) {
        int nz = 0;
        for (size_t r = r0; r < r1 && !nz; r++)
            nz = a_at(g, r, c) != 0;
        if (!nz) {
            c++;
            continue;
        }
        size_t end = c + 1, last = c;
        while (end < g->k && end - last <= gap) {
            for (size_t r = r0; r < r1; r++)
                if (a_at(g, r, end) != 0) {
                    last = end;
                    break;
                }
            end++;
        }
        if (!any_run) {
            for (size_t r = r0; r < r1; r++)
                fprintf(f, "%ss%zu = FRX_ZERO;\n", ind, r - r0);
            any_run = 1;
        }
        fprintf(f, "%sfor (int kk = %zu; kk < %zu; kk++) {\n"
                   "%s    x = FRX_B(kk*%zu);\n", ind, c, last + 1, ind,
                brow(s, 1));
        for (size_t r = r0; r < r1; r++)
            fprintf(f, "%s    s%zu += a[%zu*lda + kk]*x;\n", ind, r - r0, r);
        fprintf(f, "%s}\n", ind);
        c = last + 1;
    }
    for (size_t r = r0; r < r1; r++)
        store(s, r, r - r0, any_run, ind);
}

static void accumulators(struct gen *s, const char *ind)
{
    fprintf(s->f, "%sfrx_acc x", ind);
    for (size_t i = 0; i < s->g->rows; i++)
        fprintf(s->f, ", s%zu", i);
    fprintf(s->f, ";\n%s(void)x;\n", ind);
}

/* Every block of rows: the computation of one column (GPU targets). On
 * the host, of nq chunks from b0 and c0, a block of rows over all of them
 * before the next block: each block streams its few rows of C (and of B,
 * read from DRAM once and from cache after) over nq contiguous chunks,
 * instead of every row of B and C a chunk at a time, which is more
 * streams than the hardware prefetchers follow. */
static void column(struct gen *s, const char *ind)
{
    const frx__pgen *g = s->g;
    if (!s->host)
        accumulators(s, ind);
    for (size_t r0 = 0; r0 < g->m; r0 += g->rows) {
        size_t r1 = r0 + g->rows < g->m ? r0 + g->rows : g->m;
        fprintf(s->f, "%s/* rows %zu to %zu */\n", ind, r0, r1 - 1);
        if (g->phased) { /* every work-item of the group passes barriers */
            if (r0)
                fprintf(s->f, "%sbarrier(CLK_LOCAL_MEM_FENCE);\n", ind);
            fprintf(s->f, "%sif (_on) {\n", ind);
        }
        if (s->host) {
            fprintf(s->f, "%sfor (int q = 0; q < nq; q++) {\n"
                          "%s    const fpdtype_t *restrict b = b0 + "
                          "q*%zu;\n"
                          "%s    fpdtype_t *restrict c = c0 + q*%zu;\n",
                    ind, ind, g->soasz, ind, g->soasz);
            accumulators(s, "        ");
        }
        const char *in = s->host || g->phased ? "        " : ind;
        if (g->loops)
            block_loops(s, r0, r1, in);
        else
            block_unrolled(s, r0, r1, in);
        if (s->host || g->phased)
            fprintf(s->f, "%s}\n", ind);
    }
}

static size_t nonzeros(const frx__pgen *g)
{
    size_t nnz = 0;
    for (size_t r = 0; r < g->m; r++)
        for (size_t c = 0; c < g->k; c++)
            nnz += a_at(g, r, c) != 0;
    return nnz;
}

static void prelude(struct gen *s)
{
    static const char *const names[] = {"", "C with OpenMP", "OpenCL C",
                                        "CUDA", "HIP"};
    const frx__pgen *g = s->g;
    FILE *f = s->f;
    fprintf(f, "/* frx product: a %zu x %zu operator with %zu nonzeros, "
               "%s, %s precision, chunk width %zu, rows in blocks of %zu, "
               "%zu chunks a block, %s%s%s%s%s%s */\n", g->m, g->k,
            nonzeros(g),
            names[g->target], s->dbl ? "double" : "single", g->soasz,
            g->rows, g->width,
            g->loops ? "loops over runs of nonzero columns"
                     : "every nonzero unrolled",
            g->beta0 ? ", beta = 0" : "",
            g->stream ? ", streaming stores" : "",
            g->phased ? ", a barrier between blocks of rows" : "",
            g->vec > 1 ? ", a vector of columns a work-item" : "",
            s->ldrun ? ", leading dimensions at run time" : "");
    if (g->target == FRX_TARGET_C_OPENMP)
        fprintf(f, "#include <stdint.h>\n"
                   "#ifdef _OPENMP\n#include <omp.h>\n#endif\n"
                   "typedef union { void *p; int64_t i; double d; } frx_kp;\n");
    if (g->target == FRX_TARGET_OPENCL && s->dbl)
        fprintf(f, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    fprintf(f, "typedef %s fpdtype_t;\ntypedef %s frx_ix64;\n",
            s->dbl ? "double" : "float",
            g->target == FRX_TARGET_CUDA || g->target == FRX_TARGET_HIP
                ? "long long" : "long");
}

/* The parameter list; gl is the address space of buffers, r restrict. */
static void params(struct gen *s, const char *gl, const char *r)
{
    fprintf(s->f, "int _nrows, int _n, %sconst fpdtype_t *%s a_b, "
                  "frx_ix64 a_o, frx_ix64 a_ld, %sconst fpdtype_t *%s b_b, "
                  "frx_ix64 b_o, frx_ix64 b_ld, %sfpdtype_t *%s c_b, "
                  "frx_ix64 c_o, frx_ix64 c_ld, int _nfull, "
                  "int _rem, fpdtype_t alpha, fpdtype_t beta, "
                  "frx_ix64 b_pc, frx_ix64 b_ps, frx_ix64 b_c0, "
                  "frx_ix64 c_pc, frx_ix64 c_ps, frx_ix64 c_c0",
            gl, r, gl, r, gl, r);
}

/* The host's chunk type and its loads and stores. Streaming stores (C is
 * written without being read into the cache first) where the compiler
 * targets x86 with AVX-512 or AVX and the chunk is whole vectors of it;
 * plain stores elsewhere. */
static void host_vectors(struct gen *s)
{
    const frx__pgen *g = s->g;
    FILE *f = s->f;
    size_t bytes = g->soasz * (s->dbl ? 8 : 4);
    const char *t = s->dbl ? "pd" : "ps";
    /* FRX_BO, FRX_CO: where row o of B or C starts (an offset or a row) */
    fprintf(f, "typedef fpdtype_t frx_acc __attribute__((vector_size(%zu), "
               "aligned(sizeof(fpdtype_t)), may_alias));\n"
               "#define FRX_BO(o) %s\n#define FRX_CO(o) %s\n"
               "#define FRX_B(o) (*(const frx_acc *)(b + FRX_BO(o)))\n"
               "#define FRX_C(o) (*(const frx_acc *)(c + FRX_CO(o)))\n"
               "#define FRX_ZERO ((frx_acc){0})\n", bytes,
            s->ldrun ? "((o)*ldb)" : "(o)", s->ldrun ? "((o)*ldc)" : "(o)");
    if (g->stream && bytes % 32 == 0)
        fprintf(f, "#if defined(__AVX512F__) && %zu %% 64 == 0\n"
                   "#include <immintrin.h>\n"
                   "#define FRX_SET(o, v) do { frx_acc v_ = (v); "
                   "for (int q_ = 0; q_ < %zu; q_ += 64) "
                   "_mm512_stream_%s((void *)((char *)(c + FRX_CO(o)) + q_), "
                   "*(__m512%s *)((char *)&v_ + q_)); } while (0)\n"
                   "#define FRX_FENCE() _mm_sfence()\n"
                   "#elif defined(__AVX__)\n"
                   "#include <immintrin.h>\n"
                   "#define FRX_SET(o, v) do { frx_acc v_ = (v); "
                   "for (int q_ = 0; q_ < %zu; q_ += 32) "
                   "_mm256_stream_%s((void *)((char *)(c + FRX_CO(o)) + q_), "
                   "*(__m256%s *)((char *)&v_ + q_)); } while (0)\n"
                   "#define FRX_FENCE() _mm_sfence()\n"
                   "#else\n"
                   "#define FRX_SET(o, v) (*(frx_acc *)(c + FRX_CO(o)) = (v))\n"
                   "#define FRX_FENCE() ((void)0)\n"
                   "#endif\n", bytes, bytes, t, s->dbl ? "d" : "", bytes, t,
                s->dbl ? "d" : "");
    else
        fprintf(f, "#define FRX_SET(o, v) (*(frx_acc *)(c + FRX_CO(o)) = "
                   "(v))\n#define FRX_FENCE() ((void)0)\n");
}

/* C with OpenMP: one function for a chunk, with the leading dimensions
 * as literals, so that every load and store is a register plus a
 * constant; or, where ldb = ldc = 0 (a small mesh's product, whose code
 * then serves every small mesh: product.c), read at run time (GCC takes
 * 1.2-1.7x as long over that code). One copy of it (GCC is kept from cloning it): a copy costs
 * the compiler as much time as the first. Without predictive commoning:
 * where a row is a few chunks long (a small matrix, or a part of one),
 * GCC 12 sees the stores of chunk q's row r + 1 and chunk q + 2's row r
 * land on one address, and keeps the column's values in registers,
 * loading and storing back columns the call does not own; another
 * thread's results there were lost (3% of runs of a 12 x 9 product on
 * 3 parts of 40 elements, 2 threads). Registers allocated over the
 * function as one region: the body is one loop of straight-line code,
 * so GCC's regions gain nothing there, and their allocation was half of
 * its time (the products of a test's cases compile in 16% less time, a
 * 75 x 105 prism operator in 1.0 s instead of 1.5 s; the code runs as
 * fast, bench/matmul). The chunks at a slice's end
 * where only the first _rem lanes are C's are computed whole, the other
 * lanes of C saved before and put back. */
static void openmp_body(struct gen *s)
{
    const frx__pgen *g = s->g;
    FILE *f = s->f;
    size_t S = g->soasz;
    size_t V = (g->nvar ? g->nvar : 1) * S; /* columns a chunk of elements */
    s->host = 1;
    s->ldrun = !g->ldb;
    host_vectors(s);
    fprintf(f, "\n#if defined(__GNUC__) && !defined(__clang__)\n"
               "__attribute__((noinline, noclone, "
               "optimize(\"no-predictive-commoning\", "
               "\"ira-region=one\")))\n#endif\n"
               "static void frx_cols(const fpdtype_t *restrict a, "
               "frx_ix64 lda, const fpdtype_t *restrict b0, "
               "fpdtype_t *restrict c0, int nq, fpdtype_t alpha, "
               "fpdtype_t beta, frx_ix64 ldb, frx_ix64 ldc)\n{\n"
               "    (void)a, (void)lda, (void)alpha, (void)beta, (void)ldb, "
               "(void)ldc;\n");
    column(s, "    ");
    fprintf(f, "}\n");
    /* B and C may be in parts (frx.h): chunk k of a matrix whose first
     * chunk is chunk k0 of a part, parts of pc chunks ps values apart */
    fprintf(f, "\nstatic inline frx_ix64 frx_part_at(int k, frx_ix64 pc, "
               "frx_ix64 ps, frx_ix64 k0,\n"
               "                                   int *run)\n{\n"
               "    if (!pc)\n        return (frx_ix64)k*%zu;\n"
               "    const frx_ix64 q = k + k0, left = pc - q %% pc;\n"
               "    if (left < *run) /* chunks before the part's end */\n"
               "        *run = (int)left;\n"
               "    return q / pc*ps + q %% pc*%zu;\n}\n", V, V);
    fprintf(f, "\nvoid frx_product(");
    params(s, "", "restrict");
    fprintf(f, ");\nvoid frx_product(");
    params(s, "", "restrict");
    fprintf(f, ")\n{\n"
               "    (void)_nrows;\n"
               "    const frx_ix64 ldb = b_ld, ldc = c_ld;\n"
               "    const fpdtype_t *a = a_b + a_o, *b = b_b + b_o;\n"
               "    fpdtype_t *c = c_b + c_o;\n"
               "    const frx_ix64 lda = a_ld;\n"
               "    /* this thread's chunks of elements, as a kernel's "
               "schedule(static) loop\n"
               "     * of the same count gives them to it */\n"
               "    const int nc = _n / %zu;\n"
               "    int c0 = 0, c1 = 0;\n"
               "#pragma omp for schedule(static) nowait\n"
               "    for (int ic = 0; ic < nc; ic++) {\n"
               "        if (c1 == 0)\n"
               "            c0 = ic;\n"
               "        c1 = ic + 1;\n"
               "    }\n"
               "    const int k1 = c1*%zu < _nfull ? c1 : _nfull / %zu;\n"
               "    for (int k = c0; k < k1;) {\n"
               "        int run = k1 - k; /* chunks in one part of B and C */\n"
               "        const frx_ix64 bo = frx_part_at(k, b_pc, b_ps, b_c0, "
               "&run);\n"
               "        const frx_ix64 co = frx_part_at(k, c_pc, c_ps, c_c0, "
               "&run);\n"
               "        /* frx_cols takes up to %zu vectors of %zu columns */\n"
               "        const int nq = run*%zu;\n"
               "        for (int q = 0; q < nq; q += %zu)\n"
               "            frx_cols(a, lda, b + bo + q*%zu, c + co + q*%zu, "
               "nq - q < %zu ? nq - q : %zu, alpha, beta, ldb, ldc);\n"
               "        k += run;\n"
               "    }\n"
               "    FRX_FENCE(); /* this thread's streaming stores */\n",
            V, V, V, g->width, S, V / S, g->width, S, S, g->width, g->width);
    /* the last chunk, where it is partly C's, by the thread that has it */
    fprintf(f, "    if (_rem <= 0 || c1 != nc || c1 == 0)\n"
               "        return;\n"
               "    {\n"
               "    fpdtype_t keep[%zu];\n"
               "    int run = 1;\n"
               "    const frx_ix64 bo = frx_part_at(_nfull / %zu, b_pc, b_ps, "
               "b_c0, &run);\n"
               "    const frx_ix64 co = frx_part_at(_nfull / %zu, c_pc, c_ps, "
               "c_c0, &run);\n"
               "    for (int u = 0; u < _n - _nfull; u += %zu) {\n"
               "        for (int r = 0; r < %zu; r++)\n"
               "            for (int l = _rem; l < %zu; l++)\n"
               "                keep[r*%zu + l] = c[co + u + r*ldc + l];\n"
               "        frx_cols(a, lda, b + bo + u, c + co + u, 1, alpha, "
               "beta, ldb, ldc);\n",
            g->m * S, V, V, S, g->m, S, S);
    fprintf(f, "        FRX_FENCE();\n"
               "        for (int r = 0; r < %zu; r++)\n"
               "            for (int l = _rem; l < %zu; l++)\n"
               "                c[co + u + r*ldc + l] = keep[r*%zu + l];\n"
               "    }\n    }\n}\n", g->m, S, S);
    /* the backend calls every kernel through one function type */
    fprintf(f, "\nstatic void frx_product_call(const frx_kp *_p)\n{\n"
               "    frx_product((int)_p[0].i, (int)_p[1].i, _p[2].p, "
               "(frx_ix64)_p[3].i, (frx_ix64)_p[4].i, _p[5].p, "
               "(frx_ix64)_p[6].i, (frx_ix64)_p[7].i, _p[8].p, "
               "(frx_ix64)_p[9].i, (frx_ix64)_p[10].i, "
               "(int)_p[11].i, (int)_p[12].i, (fpdtype_t)_p[13].d, "
               "(fpdtype_t)_p[14].d, (frx_ix64)_p[15].i, (frx_ix64)_p[16].i, "
               "(frx_ix64)_p[17].i, (frx_ix64)_p[18].i, (frx_ix64)_p[19].i, "
               "(frx_ix64)_p[20].i);\n}\n");
    fprintf(f, FRX__OPENMP_ENTRIES, "frx_product");
}

/* OpenCL vectors of g->vec columns: loads and stores of whole vectors,
 * except in the last work-items, where only the lanes in _lanes are C's
 * (the rest of the vector is past C, or a neighbour's). */
static void vector_access(struct gen *s)
{
    const frx__pgen *g = s->g;
    FILE *f = s->f;
    size_t v = g->vec;
    fprintf(f, "typedef %s%zu frx_acc;\n"
               "#define FRX_B(r) vload%zu(0, b + (r)*ldb)\n"
               "#define FRX_C(r) vload%zu(0, c + (r)*ldc)\n"
               "#define FRX_SET(r, v) frx_set(c + (r)*ldc, (v), _lanes)\n"
               "#define FRX_ZERO ((frx_acc)(0))\n"
               "\nstatic inline void frx_set(__global fpdtype_t *p, "
               "frx_acc v, uint lanes)\n{\n"
               "    if (lanes == 0x%zxu) {\n"
               "        vstore%zu(v, 0, p);\n"
               "        return;\n"
               "    }\n", s->dbl ? "double" : "float", v, v, v,
            ((size_t)1 << v) - 1, v);
    for (size_t l = 0; l < v; l++)
        fprintf(f, "    if (lanes & 0x%zxu)\n        p[%zu] = v.s%zx;\n",
                (size_t)1 << l, l, l);
    fprintf(f, "}\n");
}

/* The columns of this work-item that are C's: _on (one column) or the
 * lanes of _lanes (vectors). Unsigned: some compilers (PoCL) only
 * vectorise that division. */
static void device_columns(struct gen *s)
{
    const frx__pgen *g = s->g;
    FILE *f = s->f;
    if (g->vec > 1) {
        fprintf(f, "    const int _j = _i*%zu;\n"
                   "    uint _lanes = 0;\n"
                   "    if (_j + %zu <= _nfull)\n"
                   "        _lanes = 0x%zxu;\n"
                   "    else\n"
                   "        for (int l = 0; l < %zu; l++)\n"
                   "            if (_j + l < _nfull || (_j + l < _n && "
                   "(int)((unsigned)(_j + l) %% %zuu) < _rem))\n"
                   "                _lanes |= 1u << l;\n"
                   "    const int _on = _lanes != 0;\n",
                g->vec, g->vec, ((size_t)1 << g->vec) - 1, g->vec, g->soasz);
        return;
    }
    fprintf(f, "    const int _j = _i;\n"
               "    const int _on = !(_i >= _n || (_i >= _nfull && "
               "(int)((unsigned)_i %% %zuu) >= _rem));\n", g->soasz);
}

static void device_body(struct gen *s)
{
    const frx__pgen *g = s->g;
    FILE *f = s->f;
    int cl = g->target == FRX_TARGET_OPENCL;
    const char *gl = cl ? "__global " : "";
    if (g->vec > 1)
        vector_access(s);
    else
        fprintf(f, "typedef fpdtype_t frx_acc;\n"
                   "#define FRX_B(r) b[(r)*ldb]\n"
                   "#define FRX_C(r) c[(r)*ldc]\n"
                   "#define FRX_SET(r, v) (c[(r)*ldc] = (v))\n"
                   "#define FRX_ZERO ((fpdtype_t)0)\n");
    fprintf(f, "\n%svoid frx_product(",
            cl ? "__kernel " : "extern \"C\" __global__ ");
    params(s, gl, cl ? "restrict" : "__restrict__");
    fprintf(f, ")\n{\n");
    if (cl)
        fprintf(f, "    const int _i = get_global_id(0);\n");
    else
        fprintf(f, "    const int _i = blockIdx.x*blockDim.x + "
                   "threadIdx.x;\n");
    fprintf(f, "    (void)_nrows;\n");
    device_columns(s);
    fprintf(f, "%s"
               "    %sconst fpdtype_t *b = b_b + b_o + _j;\n"
               "    %sfpdtype_t *c = c_b + c_o + _j;\n"
               "    const frx_ix64 ldb = b_ld, ldc = c_ld;\n"
               "    (void)alpha, (void)beta;\n",
            g->phased ? "" : "    if (!_on)\n        return;\n", gl, gl);
    if (g->loops) /* only loops read A: NVRTC warns of unused variables */
        fprintf(f, "    %sconst fpdtype_t *a = a_b + a_o;\n"
                   "    const frx_ix64 lda = a_ld;\n", gl);
    else
        fprintf(f, "    (void)a_b, (void)a_o, (void)a_ld;\n");
    column(s, "    ");
    fprintf(f, "}\n");
}

int frx__pgen_source(const frx__pgen *g, char **src, char **entry)
{
    int host = g->target == FRX_TARGET_C_OPENMP;
    size_t bytes = g->soasz * (g->precision == FRX_DOUBLE ? 8 : 4);
    if (g->target < FRX_TARGET_C_OPENMP || g->target > FRX_TARGET_HIP ||
        !g->soasz || !g->rows || g->rows > 256 || !g->m || !g->k ||
        (host && (!g->ldb != !g->ldc || !g->width ||
                  (bytes & (bytes - 1)))) ||
        (g->vec > 1 && (g->target != FRX_TARGET_OPENCL || g->vec > 16 ||
                        g->soasz % g->vec)))
        return frx_error(FRX_EINVAL, "product generator: no such target or "
                         "layout (target %d, chunk %zu, rows %zu, vector "
                         "%zu)", g->target, g->soasz, g->rows, g->vec);
    char *buf = NULL;
    size_t len = 0;
    struct gen s = {.g = g, .f = open_memstream(&buf, &len),
                    .dbl = g->precision == FRX_DOUBLE};
    if (!s.f)
        return frx_error(FRX_ENOMEM, "product generator: out of memory");
    prelude(&s);
    if (host)
        openmp_body(&s);
    else
        device_body(&s);
    int bad = ferror(s.f);
    bad |= fclose(s.f) != 0;
    const char *name = host ? "frx_product_entry" : "frx_product";
    char *e = bad ? NULL : frx__strdup(name);
    if (!e) {
        free(buf);
        return frx_error(FRX_ENOMEM, "product generator: out of memory "
                         "writing a %zu x %zu operator", g->m, g->k);
    }
    *src = buf;
    *entry = e;
    return FRX_OK;
}
