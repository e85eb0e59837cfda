/* SPDX-License-Identifier: BSD-3-Clause */
/* Operator products C = alpha*A*B + beta*C: shape checks, the candidate
 * providers of a backend (variants of the generated code, libraries the
 * plugin offers), the choice among them by timing, kept in the disk
 * cache, and runs alone or as graph nodes. */
#include "product/product-impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CANDS 32
#define NPARAMS 21 /* of the generated code (product_gen.c, params) */
#define TIMED_RUNS 5 /* rounds after a warm-up; the fastest counts */

/* Past this many nonzeros the generated code loops over runs of nonzero
 * columns instead of spelling out every one: compile time and code size
 * grow with the unrolled statements. */
#define UNROLL_MAX 4096

/* C at least this large (bytes) is worth writing with streaming stores,
 * as PyFR decides for libxsmm: past any last-level cache. */
#define STREAM_BYTES (32u << 20)

/* The columns of B a thread works on at a time, in bytes: within a share
 * of a core's L2, as each block of rows of C reads them again. */
#define WIDTH_BYTES (128u << 10)

/* B and C whose rows are at most this many bytes long (a small mesh, or
 * a rank's share of one): their generated code on the host reads the
 * leading dimensions at run time rather than as literals (ld_at_run_time
 * says where), so that one compile of an operator serves every small
 * mesh and partition. The compiles are most of a small case's start-up
 * (3.7 s of 5.6 s for 4^3 hexahedra at p = 3), each mesh size and rank
 * count its own; the cost, an address computed for each row of B and C
 * a block reads, is lost in a product this small (6^3 hexahedra at
 * p = 3 and 20 x 20 quadrilaterals at p = 4 ran as fast). */
#define LDRUN_BYTES (32u << 10)

/* One way to compute the product. */
struct cand {
    char id[48];     /* "generated/r4", "libxsmm": the cache and logs */
    const char *lib; /* a library of the plugin; NULL: generated code */
    frx__pgen gen;
};

/* A candidate made ready to run: compiled code or a library's plan. */
struct impl {
    const struct cand *cand;
    void *prog, *plan;
};

struct frx_product {
    frx_backend *be;
    frx_matrix *a, *b, *c;
    size_t m, k, ncols, nfull, rem;
    double alpha, beta;
    struct cand cands[MAX_CANDS];
    size_t ncands;
    struct cand chosen;
    struct impl run;
    frx_param params[NPARAMS]; /* generated code's launch, on the real C */
    frx__access acc[3];
    char name[48]; /* "m x k", for messages */
    int prof;      /* its profile entry; -1 before the first */
    int refs;      /* its creator, graphs */
};

/* ------------------------------------------------------------ checks */

static const frx_matrix *root_of(const frx_matrix *m)
{
    while (m->parent)
        m = m->parent;
    return m;
}

static int shape_error(const frx_matrix *a, const frx_matrix *b,
                       const frx_matrix *c, const char *what)
{
    return frx_error(FRX_ESHAPE,
                     "product C = A*B: A is %zu x %zu, B is %zu x %zu x %zu "
                     "and C is %zu x %zu x %zu (rows x nvar x neles): %s",
                     a->nrow, a->neles, b->nrow, b->nvar, b->neles, c->nrow,
                     c->nvar, c->neles, what);
}

static int check_args(const frx_matrix *a, const frx_matrix *b,
                      const frx_matrix *c, frx_product **out)
{
    if (!a || !b || !c || !out)
        return frx_error(FRX_EINVAL, "frx_product_create: NULL argument");
    if (!a->is_const)
        return frx_error(FRX_EINVAL, "product C = A*B: A must be a constant "
                         "matrix: make it with frx_matrix_create_const");
    if (b->is_const)
        return frx_error(FRX_EINVAL, "product C = A*B: B is a constant "
                         "matrix; B and C must be plain matrices (slices and "
                         "group members are fine)");
    int rc = frx__refuse_const(c->alloc, "product C = A*B: C");
    if (rc)
        return rc;
    if (a->be != b->be || a->be != c->be)
        return frx_error(FRX_EINVAL, "product C = A*B: A, B and C belong to "
                         "different backends: make them on one");
    if (b->nrow != a->neles)
        return shape_error(a, b, c, "B needs as many rows as A has columns");
    if (c->nrow != a->nrow)
        return shape_error(a, b, c, "C needs as many rows as A");
    if (b->nvar != c->nvar || b->neles != c->neles)
        return shape_error(a, b, c, "B and C need the same nvar and neles");
    size_t at;
    if (frx__matrices_meet(b, c, &at))
        return frx_error(FRX_EINVAL, "product C = A*B: B and C overlap "
                         "(element %zu of their allocation is in both), and "
                         "C is written while B is read: write the product "
                         "to a matrix of its own", at);
    return FRX_OK;
}

/* ------------------------------------------------------- candidates */

static size_t nonzeros(const double *a, size_t count)
{
    size_t nnz = 0;
    for (size_t i = 0; i < count; i++)
        nnz += a[i] != 0;
    return nnz;
}

/* Values from C's start to the end of its last chunk, whole (a library
 * checks that much is there), in whatever parts C is stored. */
static size_t c_values(const frx_product *p)
{
    const frx_matrix *c = p->c;
    size_t S = p->be->info.soasz, last = (c->neles + S - 1) / S * S - 1;
    return frx__matrix_index(c, c->nrow - 1, c->nvar - 1, last) + 1;
}

/* Variant rows of the generated code: every nonzero unrolled, or loops
 * where A has too many. */
static frx__pgen variant(const frx_codegen *cg, size_t m, size_t k,
                         const double *a, int beta0, size_t rows)
{
    return (frx__pgen){.target = cg->target, .precision = cg->precision,
                       .soasz = cg->soasz, .m = m, .k = k, .a = a,
                       .beta0 = beta0, .rows = rows < m ? rows : m,
                       .loops = nonzeros(a, m * k) > UNROLL_MAX};
}

int frx_product_generate(const frx_codegen *cg, size_t m, size_t k,
                         const double *a, int beta0, size_t rows, size_t ldb,
                         size_t ldc, char **src, char **entry)
{
    if (!cg || !a || !src || !entry || !m || !k || !rows)
        return frx_error(FRX_EINVAL, "frx_product_generate: NULL argument "
                         "or empty operator");
    frx__pgen g = variant(cg, m, k, a, beta0, rows);
    g.ldb = ldb;
    g.ldc = ldc;
    g.width = 1; /* C with OpenMP: one chunk at a time (a product sizes it) */
    return frx__pgen_source(&g, src, entry);
}

/* Chunks of columns a thread takes at a time on the host: as many as
 * keep the block's columns of B within WIDTH_BYTES (a share of a core's
 * L2), at most 64. */
static size_t width_for(const frx_product *p)
{
    size_t chunk = p->be->info.soasz * p->be->fpsize;
    size_t w = WIDTH_BYTES / (p->k * chunk);
    return w < 1 ? 1 : w > 64 ? 64 : w;
}

/* Does the generated host code of blocks of rows (more than one) read
 * B's and C's leading dimensions at run time (LDRUN_BYTES)? Only where
 * beta = 0: where C is read too, GCC cannot tell C's rows apart without
 * the literal leading dimension, and took 48 s over the 375 x 125
 * operator of hexahedra at p = 4 (against 1-2 s). */
static int ld_at_run_time(const frx_product *p)
{
    const frx_backend *be = p->be;
    return be->ops->target == FRX_TARGET_C_OPENMP && p->beta == 0 &&
           p->b->leaddim * be->fpsize <= LDRUN_BYTES &&
           p->c->leaddim * be->fpsize <= LDRUN_BYTES;
}

static void add_generated(frx_product *p, const double *a, size_t rows,
                          int stream, int phased, size_t vec)
{
    frx_backend *be = p->be;
    struct cand *c = &p->cands[p->ncands++];
    frx_codegen cg = {.target = be->ops->target, .precision = be->precision,
                      .soasz = be->info.soasz,
                      .alignment = be->info.alignment};
    c->gen = variant(&cg, p->m, p->k, a, p->beta == 0, rows);
    int ldrun = ld_at_run_time(p) && c->gen.rows > 1;
    c->gen.ldb = ldrun ? 0 : p->b->leaddim; /* 0: read at run time */
    c->gen.ldc = ldrun ? 0 : p->c->leaddim;
    c->gen.width = width_for(p);
    c->gen.nvar = p->c->nvar;
    c->gen.stream = stream;
    c->gen.phased = phased;
    c->gen.vec = vec;
    char v[24] = "";
    if (vec > 1)
        snprintf(v, sizeof v, "v%zu", vec);
    snprintf(c->id, sizeof c->id, "generated/r%zu%s%s%s", c->gen.rows,
             stream ? "s" : "", phased ? "p" : "", v);
    for (size_t i = 0; i + 1 < p->ncands; i++)
        if (strcmp(p->cands[i].id, c->id) == 0) {
            p->ncands--; /* rows past m: the same code again */
            break;
        }
}

/* OpenCL vectors of vec columns: B's and C's columns start at multiples
 * of vec in every row, so a vector never straddles two chunks. */
static int vectors_fit(const frx_product *p, size_t vec)
{
    size_t fs = p->be->fpsize;
    return p->be->info.soasz % vec == 0 &&
           (p->b->offset / fs) % vec == 0 && p->b->leaddim % vec == 0 &&
           (p->c->offset / fs) % vec == 0 && p->c->leaddim % vec == 0;
}

/* The variants of the generated code on this target: the rows of C a
 * block accumulates; on the host, where C is large (past any cache) and
 * not read, with streaming stores, which write it without reading it
 * into the cache first (chunks must be whole 64-byte lines), and with
 * plain stores too where every is set (a variant named by the caller:
 * "generated/r4" names one for every product of a case). On OpenCL
 * the phased and vector variants too: all of them where every is set,
 * otherwise two phased vector ones,
 * which on PoCL came within 11% of the fastest of all 25 variants on
 * every FR operator of bench/matmul (and were 1.5-2x faster than the
 * others on the larger ones). Vector code takes PoCL 2-5x as long to
 * compile, so each one more costs seconds on a large operator (once: the
 * choice is cached). */
static void generated_candidates(frx_product *p, const double *a, int every)
{
    static const size_t rows[] = {1, 4, 8, 16}, vecs[] = {4, 8, 16};
    const frx_backend *be = p->be;
    size_t chunk = be->info.soasz * be->fpsize;
    int stream = be->ops->target == FRX_TARGET_C_OPENMP && p->beta == 0 &&
                 c_values(p) * be->fpsize >= STREAM_BYTES &&
                 chunk % 64 == 0 && be->info.alignment % 64 == 0;
    /* r1 reloads each row of B for every row of C: with the leading
     * dimensions at run time GCC took 2.5-3x as long over it as over
     * the literal code (6.6 s for a 125 x 375 operator), so it keeps
     * them literal, and a product that small, which times r1 within
     * its noise of r4, does not time it (a compile for each mesh) */
    for (size_t i = every || !ld_at_run_time(p) ? 0 : 1; i < 4; i++) {
        add_generated(p, a, rows[i], stream, 0, 0);
        if (stream && every) /* named by the caller: plain stores too */
            add_generated(p, a, rows[i], 0, 0, 0);
    }
    if (be->ops->target != FRX_TARGET_OPENCL)
        return;
    if (!every) { /* r8pv4 and r8pv8 */
        for (size_t j = 0; j < 2 && vectors_fit(p, vecs[j]); j++)
            add_generated(p, a, 8, 0, 1, vecs[j]);
        return;
    }
    for (size_t i = 1; i < 4; i++)
        add_generated(p, a, rows[i], 0, 1, 0);
    for (size_t j = 0; j < 3; j++)
        for (size_t i = 1; i < 4 && vectors_fit(p, vecs[j]); i++) {
            add_generated(p, a, rows[i], 0, 0, vecs[j]);
            add_generated(p, a, rows[i], 0, 1, vecs[j]);
        }
}

static const char *const *libs_of(const frx_backend *be)
{
    return FRX__OPS_HAS(be->ops, product_libs) &&
                   FRX__OPS_HAS(be->ops, product_prepare) &&
                   FRX__OPS_HAS(be->ops, product_run) &&
                   FRX__OPS_HAS(be->ops, product_free)
               ? be->ops->product_libs : NULL;
}

size_t frx_backend_products(const frx_backend *be, const char **names,
                            size_t max)
{
    size_t n = 0;
    if (max > 0)
        names[0] = "generated";
    n++;
    const char *const *libs = libs_of(be);
    for (size_t i = 0; libs && libs[i]; i++, n++)
        if (n < max)
            names[n] = libs[i];
    return n;
}

/* The providers as "generated, libxsmm", for messages. */
static void provider_list(const frx_backend *be, char *buf, size_t n)
{
    const char *names[16];
    size_t k = frx_backend_products(be, names, 16);
    buf[0] = '\0';
    for (size_t i = 0; i < k && i < 16; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? ", " : "",
                 names[i]);
}

static int is_provider(const frx_backend *be, const char *name)
{
    const char *names[16];
    size_t k = frx_backend_products(be, names, 16);
    for (size_t i = 0; i < k && i < 16; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

/* id with its rows cut to the operator's m, as the variants' own ids
 * are ("generated/r4" of a 3-row operator is its "generated/r3"). */
static void rows_at_most_m(const frx_product *p, const char *id, char *out,
                           size_t n)
{
    static const char head[] = "generated/r";
    snprintf(out, n, "%s", id);
    if (strncmp(id, head, strlen(head)) != 0)
        return;
    const char *r = id + strlen(head), *end = r;
    size_t rows = 0;
    for (; *end >= '0' && *end <= '9'; end++)
        rows = rows > p->m ? rows : rows * 10 + (size_t)(*end - '0');
    if (end != r) /* a number of rows, "r04" read as r4 */
        snprintf(out, n, "generated/r%zu%s", rows > p->m ? p->m : rows,
                 end);
}

/* One variant of the generated code, named by its id ("generated/r4",
 * for tests and benchmarks; a case names one for all its products, so
 * rows past an operator's m mean all of its rows). */
static int one_variant(frx_product *p, const double *a, const char *id)
{
    char want[64];
    rows_at_most_m(p, id, want, sizeof want);
    generated_candidates(p, a, 1);
    for (size_t i = 0; i < p->ncands; i++)
        if (strcmp(p->cands[i].id, want) == 0) {
            p->cands[0] = p->cands[i];
            p->ncands = 1;
            return FRX_OK;
        }
    char list[1024] = "";
    for (size_t i = 0; i < p->ncands; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                 i ? ", " : "", p->cands[i].id);
    p->ncands = 0;
    return frx_error(FRX_ENOTFOUND, "product %zu x %zu: no generated "
                     "variant '%s' here (there are: %s)", p->m, p->k, id,
                     list);
}

/* The candidates for provider (NULL or "auto": all of them). */
static int candidates(frx_product *p, const double *a, const char *provider)
{
    int all = !provider || strcmp(provider, "auto") == 0;
    if (provider && strncmp(provider, "generated/", 10) == 0)
        return one_variant(p, a, provider);
    if (!all && !is_provider(p->be, provider)) {
        char list[256];
        provider_list(p->be, list, sizeof list);
        return frx_error(FRX_ENOTFOUND, "product: backend '%s' has no "
                         "provider '%s' (it has: auto, %s)", p->be->name,
                         provider, list);
    }
    if (all || strcmp(provider, "generated") == 0)
        generated_candidates(p, a, 0);
    const char *const *libs = libs_of(p->be);
    for (size_t i = 0; libs && libs[i] && p->ncands < MAX_CANDS; i++) {
        if (!all && strcmp(provider, libs[i]) != 0)
            continue;
        /* a library computes whole chunks: C must own its last one */
        if (p->rem) {
            if (!all)
                return frx_error(FRX_ENOTSUP, "product: provider '%s' "
                                 "cannot write a slice of C that ends "
                                 "inside a chunk of %zu elements (it would "
                                 "write the neighbours' lanes); use "
                                 "'generated' or 'auto'", libs[i],
                                 p->be->info.soasz);
            continue;
        }
        struct cand *c = &p->cands[p->ncands++];
        snprintf(c->id, sizeof c->id, "%s", libs[i]);
        c->lib = libs[i];
    }
    return FRX_OK;
}

/* ------------------------------------------------------------ running */

static frx_param mem(void *m, int access)
{
    return (frx_param){.type = FRX_PARAM_MEM, .mem = m, .access = access};
}
static frx_param ival(size_t i)
{
    return (frx_param){.type = FRX_PARAM_INT, .i = (int64_t)i};
}
static frx_param lval(size_t i) /* offsets, leading dimensions */
{
    return (frx_param){.type = FRX_PARAM_INT64, .i = (int64_t)i};
}
static frx_param fval(double d)
{
    return (frx_param){.type = FRX_PARAM_FP, .d = d};
}

static void gen_params(const frx_product *p, void *c_mem, size_t c_off,
                       frx_param *out)
{
    size_t fs = p->be->fpsize;
    int c_access = FRX_ACCESS_WRITE | (p->beta == 0 ? 0 : FRX_ACCESS_READ);
    frx_param v[NPARAMS] = {
        ival(1), ival(p->ncols),
        mem(p->a->alloc->mem, FRX_ACCESS_READ), lval(p->a->offset / fs),
        lval(p->a->leaddim),
        mem(p->b->alloc->mem, FRX_ACCESS_READ), lval(p->b->offset / fs),
        lval(p->b->leaddim),
        mem(c_mem, c_access), lval(c_off), lval(p->c->leaddim),
        ival(p->nfull), ival(p->rem), fval(p->alpha), fval(p->beta),
        lval(p->b->pc), lval(p->b->ps), lval(p->b->c0),
        lval(p->c->pc), lval(p->c->ps), lval(p->c->c0)};
    memcpy(out, v, sizeof v);
}

/* One run of impl with C at (c_mem, c_off). */
static int run_impl(frx_product *p, const struct impl *im, void *c_mem,
                    size_t c_off, const frx_param *params, uint32_t flags)
{
    frx_backend *be = p->be;
    if (im->cand->lib) {
        frx_product_exec e = {.size = sizeof e, .b = p->b->alloc->mem,
                              .c = c_mem, .b_off = p->b->offset / be->fpsize,
                              .c_off = c_off, .flags = flags};
        return be->ops->product_run(be->state, im->plan, &e);
    }
    size_t vec = im->cand->gen.vec > 1 ? im->cand->gen.vec : 1;
    frx_launch l = {.size = sizeof l, .nrows = 1,
                    .n = (p->ncols + vec - 1) / vec,
                    .nparams = NPARAMS, .params = params, .flags = flags};
    return be->ops->kernel_launch(be->state, im->prog, &l);
}

static void impl_free(frx_product *p, struct impl *im)
{
    if (im->plan)
        p->be->ops->product_free(p->be->state, im->plan);
    im->plan = NULL;
    im->prog = NULL; /* compiled code belongs to the backend */
}

/* A key for the source g makes: every field of g but the values of A,
 * which its hash stands for. A field added to frx__pgen must be added
 * here too, or two sources would share a key (the size check says so
 * on 64-bit hosts). */
_Static_assert(sizeof(void *) != 8 || sizeof(frx__pgen) == 112,
               "frx__pgen changed: add its new field to pgen_key");
static void pgen_key(const frx_product *p, const frx__pgen *g, char key[65])
{
    char d[512];
    snprintf(d, sizeof d, "pgen 1 %s %d %d %zu %zu %zu %d %zu %zu %zu %zu "
             "%zu %d %d %d %zu", frx__const_sha256(p->a), g->target,
             g->precision, g->soasz, g->m, g->k, g->beta0, g->rows, g->ldb,
             g->ldc, g->width, g->nvar, g->stream, g->loops, g->phased,
             g->vec);
    frx_sha256_hex(d, strlen(d), key);
}

/* Compile or plan candidate c. FRX_ENOTSUP: a library cannot do it. */
static int impl_prepare(frx_product *p, const struct cand *c,
                        const double *a, struct impl *im)
{
    frx_backend *be = p->be;
    *im = (struct impl){.cand = c};
    if (c->lib) {
        frx_product_args args = {
            .size = sizeof args, .m = p->m, .n = p->ncols, .k = p->k,
            .a = a, .a_mem = p->a->alloc->mem,
            .a_off = p->a->offset / be->fpsize, .lda = p->a->leaddim,
            .ldb = p->b->leaddim, .ldc = p->c->leaddim, .alpha = p->alpha,
            .beta = p->beta, .nvar = p->c->nvar, .b_pc = p->b->pc,
            .b_ps = p->b->ps, .b_c0 = p->b->c0, .c_pc = p->c->pc,
            .c_ps = p->c->ps, .c_c0 = p->c->c0};
        return be->ops->product_prepare(be->state, c->lib, &args, &im->plan);
    }
    /* the source holds every value of A: made (and hashed) once for
     * all the products that would make the same */
    char key[65];
    pgen_key(p, &c->gen, key);
    if ((im->prog = frx__program_find_key(be, key)))
        return FRX_OK;
    char *src, *entry;
    int rc = frx__pgen_source(&c->gen, &src, &entry);
    if (rc)
        return rc;
    char name[64];
    snprintf(name, sizeof name, "product_%zux%zu", p->m, p->k);
    rc = frx__program(be, name, src, entry, 1, 0, &im->prog);
    free(src), free(entry);
    if (rc == FRX_OK)
        frx__program_set_key(be, im->prog, key);
    return rc;
}

/* ---------------------------------------------------------- selection */

struct timing {
    frx_product *p;
    const double *a;
    struct impl impls[MAX_CANDS];
    double secs[MAX_CANDS];
    int best; /* index into p->cands, or -1 */
};

/* Seconds of one run on the scratch C; < 0 if it failed. */
static double time_impl(frx_product *p, const struct impl *im, void *scratch)
{
    frx_param params[NPARAMS];
    gen_params(p, scratch, 0, params);
    double t0 = frx__now();
    if (run_impl(p, im, scratch, 0, params, 0) || frx_backend_sync(p->be))
        return -1;
    return frx__now() - t0;
}

/* Rounds of one run of each candidate in turn, the first a warm-up, the
 * fastest run of each counting: a burst of other work on a shared
 * machine slows one run of every candidate rather than every run of
 * one, which would pick a slower candidate for good (the choice is
 * cached). FRX_EBACKEND if a run failed. */
static int time_rounds(frx_product *p, struct timing *t, void *scratch)
{
    for (int r = 0; r <= TIMED_RUNS; r++)
        for (size_t i = 0; i < p->ncands; i++) {
            if (!t->impls[i].prog && !t->impls[i].plan)
                continue; /* the candidate cannot do it */
            double s = time_impl(p, &t->impls[i], scratch);
            if (s < 0)
                return FRX_EBACKEND;
            if (r > 0 && (t->secs[i] < 0 || s < t->secs[i]))
                t->secs[i] = s;
        }
    for (size_t i = 0; i < p->ncands; i++)
        if (t->secs[i] >= 0 && (t->best < 0 || t->secs[i] < t->secs[t->best]))
            t->best = (int)i;
    return FRX_OK;
}

/* Compile or plan every candidate; one that cannot do it is left empty.
 * Each compile takes the lock of its own kernel's cache entry only. */
static int prepare_all(frx_product *p, struct timing *t)
{
    for (size_t i = 0; i < p->ncands; i++) {
        struct impl *im = &t->impls[i];
        int rc = impl_prepare(p, &p->cands[i], t->a, im);
        if (rc == FRX_ENOTSUP) {
            frx_log(FRX_LOG_DEBUG, "product %zu x %zu: %s cannot do it: %s",
                    p->m, p->k, p->cands[i].id, frx_errmsg());
            *im = (struct impl){0};
        } else if (rc) {
            return rc;
        }
    }
    return FRX_OK;
}

/* The cache's build step: time the prepared candidates and write the
 * winner. */
static int time_all(const char *path, void *ud)
{
    struct timing *t = ud;
    frx_product *p = t->p;
    frx_backend *be = p->be;
    size_t bytes = c_values(p) * be->fpsize; /* C's layout, parts and all */
    void *scratch;
    int rc = be->ops->mem_alloc(be->state, bytes, &scratch);
    if (rc)
        return rc;
    t->best = -1;
    for (size_t i = 0; i < p->ncands; i++)
        t->secs[i] = -1;
    rc = time_rounds(p, t, scratch);
    if (frx_backend_sync(be) == FRX_OK)
        be->ops->mem_free(be->state, scratch);
    if (rc)
        return rc;
    if (t->best < 0)
        return frx_error(FRX_ENOTSUP, "product %zu x %zu: no provider can "
                         "do it", p->m, p->k);
    FILE *f = fopen(path, "w");
    if (!f)
        return frx_error(FRX_EIO, "product: cannot write %s: %m", path);
    fprintf(f, "%s\n", p->cands[t->best].id);
    for (size_t i = 0; i < p->ncands; i++)
        if (t->secs[i] >= 0)
            fprintf(f, "%s %.6e\n", p->cands[i].id, t->secs[i]);
    return fclose(f) == 0 ? FRX_OK
                          : frx_error(FRX_EIO, "product: cannot write %s: %m",
                                      path);
}

/* The first line of the cached choice. */
static int read_choice(const char *path, char *id, size_t n)
{
    FILE *f = fopen(path, "r");
    int ok = f && fgets(id, (int)n, f) && strchr(id, '\n');
    if (f)
        fclose(f);
    if (!ok)
        return frx_error(FRX_EIO, "product: cannot read the cached choice "
                         "%s: remove it and run again", path);
    *strchr(id, '\n') = '\0';
    return FRX_OK;
}

static void log_timing(const frx_product *p, const struct timing *t,
                       const char *ahash)
{
    char line[1024] = "";
    for (size_t i = 0; i < p->ncands; i++)
        if (t->secs[i] >= 0)
            snprintf(line + strlen(line), sizeof line - strlen(line),
                     "%s%s %.3g ms", line[0] ? ", " : "", p->cands[i].id,
                     t->secs[i] * 1e3);
    frx_log(FRX_LOG_INFO, "product %zu x %zu (A %.12s) over %zu columns: %s "
            "chosen by timing (%s)", p->m, p->k, ahash, p->ncols,
            p->cands[t->best].id, line);
}

/* Time the candidates, or read which won from the disk cache. */
static int select_impl(frx_product *p, const double *a)
{
    frx_backend *be = p->be;
    char ahash[65], shape[256], ids[MAX_CANDS * 48 + 1] = "";
    memcpy(ahash, frx__const_sha256(p->a), sizeof ahash);
    snprintf(shape, sizeof shape, "%zu %zu %zu %zu %zu %zu %zu %a %a",
             p->m, p->k, p->ncols, p->nfull, p->rem, p->b->leaddim,
             p->c->leaddim, p->alpha, p->beta);
    for (size_t i = 0; i < p->ncands; i++)
        snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%s ",
                 p->cands[i].id);
    const char *parts[] = {"product-choice 1", ahash, shape,
                           be->precision == FRX_DOUBLE ? "double" : "single",
                           be->name, be->info.device, ids};
    struct timing t = {.p = p, .a = a, .best = -1};
    frx_cache_entry e;
    int cached;
    int rc = frx__cache_peek(parts, sizeof parts / sizeof *parts, ".choice",
                             &e, &cached);
    if (rc == FRX_OK && !cached) {
        /* Compile every candidate before the choice's lock, so that a
         * process that needs the same choice waits for the timing only,
         * not for all the compiles too (minutes on a slow compiler). */
        rc = prepare_all(p, &t);
        if (rc == FRX_OK)
            rc = frx_cache_fetch(parts, sizeof parts / sizeof *parts,
                                 ".choice", time_all, &t, &e);
    }
    char id[64] = "";
    if (rc == FRX_OK) {
        rc = read_choice(e.path, id, sizeof id);
        if (e.built)
            be->stats.product_timings++;
        else
            be->stats.product_cached++;
        frx_cache_done(&e);
    }
    int found = -1;
    for (size_t i = 0; rc == FRX_OK && i < p->ncands; i++)
        if (strcmp(p->cands[i].id, id) == 0)
            found = (int)i;
    if (rc == FRX_OK && found < 0)
        rc = frx_error(FRX_EIO, "product: the disk cache chose '%s', which "
                       "is not a candidate here: remove the cache entry "
                       "(FRX_CACHE_DIR) and run again", id);
    if (rc == FRX_OK && t.best == found)
        log_timing(p, &t, ahash);
    else if (rc == FRX_OK)
        frx_log(FRX_LOG_DEBUG, "product %zu x %zu (A %.12s) over %zu "
                "columns: %s, from the disk cache", p->m, p->k, ahash,
                p->ncols, id);
    if (rc == FRX_OK && (t.impls[found].prog || t.impls[found].plan)) {
        p->run = t.impls[found]; /* prepared above: kept */
        t.impls[found] = (struct impl){0};
    } else if (rc == FRX_OK) {
        rc = impl_prepare(p, &p->cands[found], a, &p->run);
    }
    for (size_t i = 0; i < p->ncands; i++)
        impl_free(p, &t.impls[i]);
    if (rc == FRX_OK)
        p->chosen = p->cands[found];
    return rc;
}

/* ---------------------------------------------------------------- API */

/* Columns [0, ncols) of each row hold whole chunks of soasz elements.
 * Where C's last chunk is partly another matrix's (a slice ending
 * inside a chunk), only the first rem lanes of that chunk are C's. */
static void layout(frx_product *p)
{
    const frx_matrix *c = p->c, *root = root_of(c);
    size_t soasz = p->be->info.soasz;
    size_t nchunks = (c->neles + soasz - 1) / soasz;
    size_t e1 = c->eend;
    p->ncols = nchunks * c->nvar * soasz;
    int owned = e1 % soasz == 0 || e1 == root->neles;
    p->nfull = owned ? p->ncols : (nchunks - 1) * c->nvar * soasz;
    p->rem = owned ? 0 : c->neles % soasz;
}

/* The generated code counts columns in int (offsets are 64-bit): the
 * columns, rounded up to the chunks a thread takes, must fit. */
static int columns_fit(const frx_product *p)
{
    return p->ncols <= (size_t)INT32_MAX - 4096;
}

int frx_product_create(frx_matrix *a, frx_matrix *b, frx_matrix *c,
                       double alpha, double beta, frx_product **out)
{
    return frx_product_create_using(a, b, c, alpha, beta, NULL, out);
}

int frx_product_create_using(frx_matrix *a, frx_matrix *b, frx_matrix *c,
                             double alpha, double beta, const char *provider,
                             frx_product **out)
{
    int rc = check_args(a, b, c, out);
    if (rc)
        return rc;
    frx_backend *be = a->be;
    if (!FRX__OPS_HAS(be->ops, kernel_compile) ||
        !FRX__OPS_HAS(be->ops, kernel_launch))
        return frx_error(FRX_ENOTSUP, "backend '%s' cannot run products: "
                         "its plugin predates plugin ABI 1.1; rebuild it",
                         be->name);
    if (!isfinite(alpha) || !isfinite(beta))
        return frx_error(FRX_EINVAL, "product: alpha (%g) and beta (%g) must "
                         "be finite", alpha, beta);
    const double *av = frx__const_values(a);
    if (!av)
        return frx_error(FRX_EINVAL, "product: A is not a registered "
                         "constant matrix");
    frx_product *p = frx__calloc(1, sizeof *p, "a product");
    if (!p)
        return FRX_ENOMEM;
    *p = (frx_product){.be = be, .prof = -1, .refs = 1, .a = a, .b = b,
                       .c = c, .m = a->nrow,
                       .k = a->neles, .alpha = alpha, .beta = beta};
    layout(p);
    if (!provider)
        provider = be->products;
    rc = columns_fit(p) ? candidates(p, av, provider)
                        : frx_error(FRX_ERANGE, "product %zu x %zu: C has "
                                    "%zu columns (variables x elements), "
                                    "past the 2^31 - 4097 a product takes: "
                                    "split the elements into blocks",
                                    p->m, p->k, p->ncols);
    if (rc == FRX_OK && p->ncands == 1) {
        rc = impl_prepare(p, &p->cands[0], av, &p->run);
        p->chosen = p->cands[0];
        if (rc == FRX_ENOTSUP)
            rc = frx_error(FRX_ENOTSUP, "product %zu x %zu: provider '%s' "
                           "cannot do it: %s", p->m, p->k, p->cands[0].id,
                           frx_errmsg());
    } else if (rc == FRX_OK) {
        rc = select_impl(p, av);
    }
    if (rc) {
        free(p);
        return rc;
    }
    p->run.cand = &p->chosen;
    snprintf(p->name, sizeof p->name, "%zu x %zu", p->m, p->k);
    gen_params(p, c->alloc->mem, c->offset / be->fpsize, p->params);
    a->refs++, b->refs++, c->refs++; /* held while it may run */
    size_t lo, hi;
    frx__matrix_range(a, &lo, &hi);
    p->acc[0] = (frx__access){.res = a->alloc, .writes = 0, .lo = lo,
                               .hi = hi, .m = a};
    frx__matrix_range(b, &lo, &hi);
    p->acc[1] = (frx__access){.res = b->alloc, .writes = 0, .lo = lo,
                               .hi = hi, .m = b, .by_item = 1};
    frx__matrix_range(c, &lo, &hi);
    p->acc[2] = (frx__access){.res = c->alloc, .writes = 1, .lo = lo,
                               .hi = hi, .m = c, .by_item = 1};
    *out = p;
    return FRX_OK;
}

int frx__product_run(frx_product *p, uint32_t flags)
{
    return run_impl(p, &p->run, p->c->alloc->mem,
                    p->c->offset / p->be->fpsize, p->params, flags);
}

int frx_product_run(frx_product *p)
{
    if (!p)
        return frx_error(FRX_EINVAL, "frx_product_run: NULL product");
    if (!p->be->prof)
        return frx__product_run(p, 0);
    if (p->prof < 0 && (p->prof = frx__product_profile_slot(p)) < 0)
        return p->prof;
    double t0 = frx__now(); /* before the run: arguments have no order */
    return frx__profile_time(p->be, p->prof, t0, frx__product_run(p, 0));
}

int frx__product_profile_slot(const frx_product *p)
{
    char label[96];
    snprintf(label, sizeof label, "%s (%s)", p->name,
             frx_product_provider(p));
    return frx__profile_slot(p->be, FRX__PROF_PRODUCT, label);
}

/* Drops one reference (the creator's or a graph's); the last one frees
 * it and drops its references on A, B and C. */
void frx_product_destroy(frx_product *p)
{
    if (!p || --p->refs > 0)
        return;
    impl_free(p, &p->run);
    frx_matrix_destroy(p->a);
    frx_matrix_destroy(p->b);
    frx_matrix_destroy(p->c);
    free(p);
}

const char *frx_product_provider(const frx_product *p)
{
    return !p ? NULL : p->chosen.lib ? p->chosen.lib : "generated";
}

const char *frx__product_name(const frx_product *p) { return p->name; }

void frx__product_hold(frx_product *p) { p->refs++; }

frx_backend *frx__product_backend(const frx_product *p) { return p->be; }

size_t frx__product_accesses(const frx_product *p, const frx__access **out)
{
    *out = p->acc;
    return 3;
}
