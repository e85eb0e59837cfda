/* SPDX-License-Identifier: BSD-3-Clause */
/* frx product: operator products C = alpha*A*B + beta*C, the generated
 * code (product_gen.c) and the providers with their timed selection
 * (product.c). Uses kernel (compiled code, overlaps) and what it uses.
 * Never installed. */
#ifndef FRX_PRODUCT_IMPL_H
#define FRX_PRODUCT_IMPL_H

#include "kernel/kernel-impl.h"

/* The generated code of an operator product (product_gen.c). */
typedef struct frx__pgen {
    int target, precision;
    size_t soasz;
    size_t m, k;
    const double *a;  /* m x k, row-major */
    int beta0;        /* beta == 0: C is never read */
    size_t rows;      /* rows of C accumulated together, 1 to 256 */
    size_t ldb, ldc;  /* C with OpenMP: B's and C's leading dimensions,
                         written into the code (both 0: read at run
                         time) */
    size_t width;     /* C with OpenMP: chunks a thread takes at a time,
                         each block of rows going over all of them */
    size_t nvar;      /* C with OpenMP: B's and C's variables, so that the
                         team splits chunks of elements as kernels do
                         (0: split chunks of columns) */
    int stream;       /* C with OpenMP, beta = 0: streaming stores (chunks
                         aligned to 64 bytes) */
    int loops;        /* loop over runs of nonzero columns, reading A from
                         its buffer, rather than unroll every nonzero */
    int phased;       /* OpenCL: a barrier between blocks of rows */
    size_t vec;       /* OpenCL: columns a work-item computes as one vector
                         (2 to 16, a divisor of soasz; 0: one column) */
} frx__pgen;

int frx__pgen_source(const frx__pgen *g, char **src, char **entry);

/* The backend a product runs on. */
frx_backend *frx__product_backend(const frx_product *p);
/* A product's name in messages: "m x k", A's shape. */
const char *frx__product_name(const frx_product *p);
/* its profile entry, "m x k (provider)" */
int frx__product_profile_slot(const frx_product *p);
size_t frx__product_accesses(const frx_product *p, const frx__access **out);
/* Take one more reference (a graph node holding it); dropped by
 * frx_product_destroy, which frees it with the last one. */
void frx__product_hold(frx_product *p);
/* A product run with frx_exec_flags. */
int frx__product_run(frx_product *p, uint32_t flags);

#endif
