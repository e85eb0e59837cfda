/* SPDX-License-Identifier: BSD-3-Clause */
/* bench/matmul: operator products C = A*B of the FR operators of
 * quadrilaterals p = 1..6 and hexahedra p = 1..4 (interpolation to the
 * flux points and the gradient) over enough elements that B and C are
 * several times the last-level cache, in double precision. For each
 * operator: the time, GFLOP/s (2 flops per nonzero of A and column) and
 * GB/s (B read, C written once) of every provider of frx and of the one
 * frx chooses; on openmp, libxsmm's fsspmdm called directly and OpenBLAS
 * dgemm on the same values in the same layout; on opencl, CLBlast (a
 * provider); and the bandwidth bound: the bytes of B and C at the rate
 * of a STREAM triad measured in this run (on the host, or by frx on the
 * device where that is faster, as on a GPU). The product counts as bound by
 * memory where frx's choice runs faster per column in cache than that
 * bound allows.
 *
 *   build/bench/matmul [BACKEND] [MBYTES] [ONLY] [SET]
 *                                  (default openmp, 256, all, tensor)
 *
 * ONLY: just the operators whose name ("hex p2 interp") contains it
 * ("" for all). SET: tensor (the operators above, built here from 1-D
 * Gauss-Legendre points) or elements: the operators the Euler RHS
 * multiplies, as the FR layer builds them (libfrx-fr), for every element
 * type at p = 1..4: M0 (solution to flux points), M132 (the transformed
 * flux's divergence, less the correction of its normal part) and M3
 * (the correction of the interface jumps): "pyr p3 M132". */
#include "fr_operators.h"
#include "timing.h"

#include "element_ops.h"

#include <frx/frx.h>

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef FRX_BENCH_LIBXSMM
#include <libxsmm.h>
#endif
#ifdef FRX_BENCH_OPENBLAS
#include <cblas.h>
#endif

#define NVAR 5 /* compressible Euler in 3-D */
#define MAX_SIDES 8

static void die(const char *what)
{
    fprintf(stderr, "bench/matmul: %s: %s\n", what, frx_errmsg());
    exit(1);
}

/* ------------------------------------------------------------ sides */

/* One way to compute the product, timed like the others. */
struct side {
    char name[32];
    void (*run)(void *);
    void *ctx;
    double t; /* median seconds */
};

/* Median over alternating rounds of each side's median of runs, so all
 * sides see the same machine. */
static void time_sides(struct side *s, size_t n)
{
    double t[MAX_SIDES][ROUNDS];
    for (int r = 0; r < ROUNDS; r++)
        for (size_t i = 0; i < n; i++)
            t[i][r] = median_time(s[i].run, s[i].ctx);
    for (size_t i = 0; i < n; i++) {
        qsort(t[i], ROUNDS, sizeof **t, bench_cmp_double);
        s[i].t = t[i][ROUNDS / 2];
    }
}

struct frx_side {
    frx_backend *be;
    frx_product *p;
};

static void run_frx(void *ctx)
{
    struct frx_side *f = ctx;
    if (frx_product_run(f->p) || frx_backend_sync(f->be))
        die("run");
}

struct kernel_side {
    frx_backend *be;
    frx_kernel *k;
};

static void run_kernel(void *ctx)
{
    struct kernel_side *f = ctx;
    if (frx_kernel_run(f->k) || frx_backend_sync(f->be))
        die("run");
}

/* The host copies the libraries work on: the same values in frx's
 * column order, one plain row of every column (as PyFR's matrices; frx's
 * own on openmp are in parts, a row of each part together). */
struct host {
    const fr_operator *op;
    size_t n, ldb, ldc;
    double *b, *c;
#ifdef FRX_BENCH_LIBXSMM
    libxsmm_dfsspmdm *wide, *narrow;
#endif
};

/* B in frx's layout: row r, column (chunk*NVAR + v)*soasz + lane holds
 * variable v of element chunk*soasz + lane (zero past the last). */
static void host_copy(struct host *h, const double *hb, size_t neles,
                      size_t soasz)
{
    h->b = aligned_alloc(64, h->op->k * h->ldb * 8);
    h->c = aligned_alloc(64, h->op->m * h->ldc * 8);
#pragma omp parallel for schedule(static)
    for (size_t r = 0; r < h->op->k; r++)
        for (size_t j = 0; j < h->ldb; j++) {
            size_t lane = j % soasz, v = (j / soasz) % NVAR;
            size_t e = (j / (soasz * NVAR)) * soasz + lane;
            h->b[r * h->ldb + j] = j < h->n && e < neles
                                       ? hb[(r * NVAR + v) * neles + e] : 0;
        }
    memset(h->c, 0, h->op->m * h->ldc * 8);
}

#ifdef FRX_BENCH_LIBXSMM
/* As PyFR calls it: a handle for blocks of columns, each thread running
 * it over its blocks. */
#define XSMM_WIDE 64
static void run_libxsmm(void *ctx)
{
    struct host *h = ctx;
    long nw = (long)(h->n / XSMM_WIDE), nn = (long)(h->n % XSMM_WIDE) / 16;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < nw + nn; i++) {
        size_t j = i < nw ? (size_t)i * XSMM_WIDE
                          : (size_t)nw * XSMM_WIDE + (size_t)(i - nw) * 16;
        libxsmm_dfsspmdm_execute(i < nw ? h->wide : h->narrow, h->b + j,
                                 h->c + j);
    }
}
#endif

#ifdef FRX_BENCH_OPENBLAS
static void run_openblas(void *ctx)
{
    struct host *h = ctx;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)h->op->m,
                (int)h->n, (int)h->op->k, 1.0, h->op->a, (int)h->op->k, h->b,
                (int)h->ldb, 0.0, h->c, (int)h->ldc);
}
#endif

/* ----------------------------------------------------------- STREAM */

struct stream {
    double *a, *b, *c;
    size_t n;
};

static void triad(void *ctx)
{
    struct stream *s = ctx;
    const size_t n = s->n;
#pragma omp parallel for schedule(static)
    for (size_t j = 0; j < n; j++)
        s->a[j] = s->b[j] + 3.0 * s->c[j];
}

/* GB/s of a STREAM triad over arrays of bytes/3 each. */
static double stream_rate(size_t bytes)
{
    struct stream s = {.n = bytes / 3 / sizeof(double)};
    s.a = aligned_alloc(64, s.n * 8 + 64);
    s.b = aligned_alloc(64, s.n * 8 + 64);
    s.c = aligned_alloc(64, s.n * 8 + 64);
#pragma omp parallel for schedule(static)
    for (size_t j = 0; j < s.n; j++)
        s.a[j] = 0, s.b[j] = (double)(j % 7), s.c[j] = 1;
    struct side t = {.run = triad, .ctx = &s};
    time_sides(&t, 1);
    free(s.a), free(s.b), free(s.c);
    return 24.0 * (double)s.n / t.t / 1e9;
}

/* GB/s of a triad kernel of frx on the backend, over bytes in all: the
 * STREAM of a device that is not the host (a GPU). */
static const frx_kernel_decl triad_kernel = {
    .name = "bench_matmul_triad", .ndim = 1,
    .args = "in fpdtype_t b, in fpdtype_t c, out fpdtype_t a",
    .body = "a = b + 3*c;"};

static double device_triad_rate(frx_backend *be, size_t bytes)
{
    size_t n = bytes / 3 / sizeof(double);
    frx_matrix *m[3];
    for (int i = 0; i < 3; i++)
        if (frx_matrix_create(be, 1, 1, n, &m[i]))
            die("matrix");
    frx_arg args[] = {frx_arg_matrix(m[1]), frx_arg_matrix(m[2]),
                      frx_arg_matrix(m[0])};
    frx_kernel *k;
    if (frx_kernel_register(be, &triad_kernel) ||
        frx_kernel_create(be, triad_kernel.name, 1, n, args, 3, &k))
        die("triad");
    struct side t = {.run = run_kernel, .ctx = &(struct kernel_side){be, k}};
    time_sides(&t, 1);
    frx_kernel_destroy(k);
    for (int i = 0; i < 3; i++)
        frx_matrix_destroy(m[i]);
    return 24.0 * (double)n / t.t / 1e9;
}

/* ------------------------------------------------------ one operator */

struct row {
    char name[48];
    size_t m, k, nnz, n;
    struct side sides[MAX_SIDES];
    size_t nsides;
    char chosen[32];
    double bound, cache_col; /* seconds; seconds per column */
};

/* A library: what frx's choice is held against. */
static int is_library(const struct side *s)
{
    return strcmp(s->name, "generated") != 0 && strcmp(s->name, "frx") != 0;
}

static frx_product *make_product(frx_matrix *a, frx_matrix *b, frx_matrix *c,
                                 const char *provider)
{
    frx_product *p;
    if (frx_product_create_using(a, b, c, 1, 0, provider, &p))
        die(provider ? provider : "auto");
    return p;
}

/* Seconds per column of the product in cache: B and C of 8 MB, within
 * the last level of the machines frx runs on, big enough that a parallel
 * loop's start costs little. */
static double in_cache(frx_backend *be, frx_matrix *a, const fr_operator *op,
                       const char *provider)
{
    size_t neles = (8u << 20) / ((op->m + op->k) * NVAR * 8) + 8;
    frx_matrix *b, *c;
    if (frx_matrix_create(be, op->k, NVAR, neles, &b) ||
        frx_matrix_create(be, op->m, NVAR, neles, &c))
        die("matrix");
    struct frx_side f = {be, make_product(a, b, c, provider)};
    struct side s = {.run = run_frx, .ctx = &f};
    time_sides(&s, 1);
    frx_product_destroy(f.p);
    frx_matrix_destroy(b);
    frx_matrix_destroy(c);
    return s.t / (double)(NVAR * neles);
}

static void measure(frx_backend *be, const fr_operator *op, size_t mbytes,
                    double stream, struct row *row)
{
    size_t neles = mbytes * 1024 * 1024 / ((op->m + op->k) * NVAR * 8) + 1;
    *row = (struct row){.m = op->m, .k = op->k, .nnz = fr_nonzeros(op)};
    snprintf(row->name, sizeof row->name, "%.40s", op->name);
    frx_matrix *a, *b, *c;
    if (frx_matrix_create_const(be, op->m, op->k, op->a, &a) ||
        frx_matrix_create(be, op->k, NVAR, neles, &b) ||
        frx_matrix_create(be, op->m, NVAR, neles, &c))
        die("matrix");
    size_t nb = op->k * NVAR * neles;
    double *hb = malloc(nb * sizeof *hb);
    uint64_t rng = 1;
    for (size_t i = 0; i < nb; i++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        hb[i] = (double)(rng >> 11) / 9007199254740992.0 - 0.5;
    }
    if (frx_matrix_write(b, hb))
        die("write");

    /* every provider, then frx's choice */
    const char *names[16];
    size_t np = frx_backend_products(be, names, 16);
    struct frx_side fs[MAX_SIDES];
    for (size_t i = 0; i <= np && i < MAX_SIDES - 2; i++) {
        const char *prov = i < np ? names[i] : NULL;
        fs[i] = (struct frx_side){be, make_product(a, b, c, prov)};
        struct side *s = &row->sides[row->nsides++];
        *s = (struct side){.run = run_frx, .ctx = &fs[i]};
        snprintf(s->name, sizeof s->name, "%s", prov ? prov : "frx");
        if (!prov)
            snprintf(row->chosen, sizeof row->chosen, "%s",
                     frx_product_provider(fs[i].p));
    }
    size_t nfrx = row->nsides;
    row->n = NVAR * ((neles + frx_backend_soasz(be) - 1) /
                     frx_backend_soasz(be) * frx_backend_soasz(be));

    /* the libraries called directly, on host copies */
    struct host h = {.op = op, .n = row->n, .ldb = row->n, .ldc = row->n};
    int host = strcmp(frx_backend_name(be), "openmp") == 0;
#if defined(FRX_BENCH_LIBXSMM) || defined(FRX_BENCH_OPENBLAS)
    if (host)
        host_copy(&h, hb, neles, frx_backend_soasz(be));
#endif
#ifdef FRX_BENCH_LIBXSMM
    if (host) {
        h.wide = libxsmm_dfsspmdm_create((int)op->m, XSMM_WIDE, (int)op->k,
                                         (int)op->k, (int)h.ldb, (int)h.ldc,
                                         1.0, 0.0, 1, op->a);
        h.narrow = libxsmm_dfsspmdm_create((int)op->m, 16, (int)op->k,
                                           (int)op->k, (int)h.ldb,
                                           (int)h.ldc, 1.0, 0.0, 1, op->a);
        row->sides[row->nsides++] =
            (struct side){.name = "libxsmm direct", .run = run_libxsmm,
                          .ctx = &h};
    }
#endif
#ifdef FRX_BENCH_OPENBLAS
    if (host)
        row->sides[row->nsides++] =
            (struct side){.name = "OpenBLAS dgemm", .run = run_openblas,
                          .ctx = &h};
#endif
    (void)host;
    time_sides(row->sides, row->nsides);

    double bytes = (double)(op->m + op->k) * (double)row->n * 8;
    row->bound = bytes / (stream * 1e9);
    row->cache_col = in_cache(be, a, op, row->chosen);

    for (size_t i = 0; i < nfrx; i++)
        frx_product_destroy(fs[i].p);
#ifdef FRX_BENCH_LIBXSMM
    if (h.wide)
        libxsmm_dfsspmdm_destroy(h.wide);
    if (h.narrow)
        libxsmm_dfsspmdm_destroy(h.narrow);
#endif
    free(h.b), free(h.c), free(hb);
    frx_matrix_destroy(a);
    frx_matrix_destroy(b);
    frx_matrix_destroy(c);
}

static const struct side *frx_choice(const struct row *r)
{
    for (size_t i = 0; i < r->nsides; i++)
        if (!strcmp(r->sides[i].name, "frx"))
            return &r->sides[i];
    return NULL;
}

static void print_header(const struct row *r)
{
    printf("%-14s %7s %5s", "operator", "m x k", "nnz");
    for (size_t s = 0; s < r->nsides; s++)
        printf(" | %-14.14s", r->sides[s].name);
    printf(" | %-12s", "frx chose");
    for (size_t s = 0; s < r->nsides; s++)
        if (is_library(&r->sides[s]))
            printf(" %-8.8s", r->sides[s].name);
    printf(" %6s\n%-14s %7s %5s", "bw", "", "", "");
    for (size_t s = 0; s < r->nsides; s++)
        printf(" | %6s %7s", "GF/s", "GB/s");
    printf(" | %-12s", "");
    for (size_t s = 0; s < r->nsides; s++)
        if (is_library(&r->sides[s]))
            printf(" %-8s", "ratio");
    printf(" %6s\n", "ratio");
}

static void print_row(const struct row *r)
{
    double flops = 2.0 * (double)r->nnz * (double)r->n;
    double bytes = (double)(r->m + r->k) * (double)r->n * 8;
    printf("%-14s %3zux%-3zu %5zu", r->name, r->m, r->k, r->nnz);
    for (size_t i = 0; i < r->nsides; i++)
        printf(" | %6.1f %7.1f", flops / r->sides[i].t / 1e9,
               bytes / r->sides[i].t / 1e9);
    const struct side *f = frx_choice(r);
    printf(" | %-12s", r->chosen);
    for (size_t i = 0; i < r->nsides; i++)
        if (is_library(&r->sides[i]))
            printf(" %8.2f", r->sides[i].t / f->t);
    int membound = r->cache_col * (double)r->n < r->bound;
    printf(" %5.2f%s\n", r->bound / f->t, membound ? "m" : "c");
}

/* SET elements: bench_element_op's operators (element_ops.c). */
static size_t element_operators(fr_operator *ops, size_t max)
{
    size_t n = 0;
    for (; n < max; n++) {
        fr_operator *o = &ops[n];
        *o = (fr_operator){0};
        int rc = bench_element_op(n, o->name, sizeof o->name, &o->m, &o->k,
                                  &o->a);
        if (rc < 0)
            die("an FR element's operator");
        if (rc == 0)
            break;
    }
    return n;
}

int main(int argc, char **argv)
{
    const char *backend = argc > 1 ? argv[1] : "openmp";
    size_t mbytes = argc > 2 ? (size_t)atol(argv[2]) : 256;
    const char *only = argc > 3 ? argv[3] : "";
    const char *set = argc > 4 ? argv[4] : "tensor";
    if (strcmp(set, "tensor") && strcmp(set, "elements")) {
        fprintf(stderr, "bench/matmul: SET is tensor or elements, not "
                        "'%s'\n", set);
        return 2;
    }
    frx_config *cfg;
    frx_backend *be = bench_backend("bench/matmul", backend, &cfg);
    if (!be)
        return 1;
    /* the bound: the host's STREAM, or the device's where it is faster
     * (a GPU) */
    double host = stream_rate(mbytes * 1024 * 1024);
    double dev = device_triad_rate(be, mbytes * 1024 * 1024);
    double stream = dev > host ? dev : host;
    printf("bench/matmul: backend %s, %d threads, B and C %zu MB a product, "
           "%d variables, double precision, %d alternating rounds of %d "
           "runs; STREAM triad %.1f GB/s on the host, %.1f GB/s by frx on "
           "the backend: the bound uses %.1f GB/s\n", backend,
           omp_get_max_threads(), mbytes, NVAR, ROUNDS, REPEATS, host, dev,
           stream);
    fr_operator ops[72];
    size_t nops = 0;
    if (!strcmp(set, "elements")) {
        nops = element_operators(ops, sizeof ops / sizeof *ops);
    } else {
        for (size_t p = 1; p <= 6; p++)
            for (int op = FR_INTERP; op <= FR_GRAD; op++)
                ops[nops++] = fr_make(2, p, (enum fr_op)op);
        for (size_t p = 1; p <= 4; p++)
            for (int op = FR_INTERP; op <= FR_GRAD; op++)
                ops[nops++] = fr_make(3, p, (enum fr_op)op);
    }
    int header = 0;
    for (size_t i = 0; i < nops; i++) {
        struct row r;
        if (!strstr(ops[i].name, only)) {
            free(ops[i].a);
            continue;
        }
        measure(be, &ops[i], mbytes, stream, &r);
        if (!header)
            print_header(&r);
        header = 1;
        print_row(&r);
        fflush(stdout);
        free(ops[i].a);
    }
    printf("ratio: the time of the library (or of B and C at the STREAM "
           "rate: bw) over frx's choice's; targets >= 1.0 against every "
           "library, >= 0.7 against bw where the product is bound by "
           "memory (m; c: by the CPU)\n");
    frx_backend_destroy(be);
    frx_config_free(cfg);
    return 0;
}
