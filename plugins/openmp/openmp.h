/* SPDX-License-Identifier: BSD-3-Clause */
/* openmp backend: what its files share. */
#ifndef FRX_OPENMP_H
#define FRX_OPENMP_H

#include <frx/plugin.h>

/* A launch parameter, as the generated source's frx_kp. */
typedef union {
    void *p;
    int64_t i;
    double d;
} omp_kp;

struct omp_held;

struct omp_state {
    int precision;
    const char *cc, *cflags; /* from backend.openmp, owned by the config */
    char **cflag_words;      /* cflags split into words (spawn.c) */
    long threads;
    size_t soasz;
    char cc_id[256];         /* `cc --version`, read once */
    int strict;              /* cc takes kernel.c's strict flags: 1, 0, or
                                -1 not asked yet */
    /* batch.c: launches held between batch_begin and batch_end */
    int batch;    /* backend.openmp.batch */
    int batching; /* between batch_begin and batch_end */
    struct omp_held *held;
    size_t nheld, held_cap;
    omp_kp *held_kp;
    size_t nkp, kp_cap;
    /* product.c: libxsmm handles shared by the plans of one operator and
     * shape; empty once every product is freed */
    struct xsmm_shared *xsmm;
};

/* batch.c */
int frx_openmp_batch_begin(void *state);
int frx_openmp_batch_end(void *state);
int frx_openmp_sync(void *state);
void frx_openmp_flush(struct omp_state *s); /* run what is held */
void frx_openmp_batch_free(struct omp_state *s);
/* flags: the launch's (FRX_EXEC_SAME_WORKERS: no barrier before it) */
omp_kp *frx_openmp_hold_kernel(struct omp_state *s,
                               void (*team)(const omp_kp *), size_t nparams,
                               uint32_t flags);
/* team: the product's run on the team of the caller's parallel region,
 * no barrier (product.c) */
int frx_openmp_hold_product(struct omp_state *s,
                            void (*team)(const void *plan,
                                         const frx_product_exec *e),
                            const void *plan, const frx_product_exec *e);

int frx_openmp_pack(void *state, const frx_pack_args *a);
int frx_openmp_kernel_compile(void *state, const frx_kernel_src *src,
                              void **prog, int *compiled);
int frx_openmp_kernel_launch(void *state, void *prog, const frx_launch *l);
void frx_openmp_kernel_free(void *state, void *prog);
const char *frx_openmp_compiler_id(struct omp_state *s);
int frx_openmp_unpack(void *state, const frx_pack_args *a);

/* product.c, built where libxsmm is installed */
extern const char *const frx_openmp_product_libs[];
int frx_openmp_product_prepare(void *state, const char *lib,
                               const frx_product_args *a, void **plan);
int frx_openmp_product_run(void *state, void *plan,
                           const frx_product_exec *e);
void frx_openmp_product_free(void *state, void *plan);

/* spawn.c: the compiler's command line, run without a shell. */
int frx_openmp_split_words(const char *text, char ***words, char *bad);
void frx_openmp_free_words(char **words);
int frx_openmp_run(char *const argv[], char **out);
void frx_openmp_show(char *const argv[], char *buf, size_t n);

#endif
