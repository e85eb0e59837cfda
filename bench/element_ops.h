/* SPDX-License-Identifier: BSD-3-Clause */
/* bench/matmul's SET elements: the FR layer's operators, apart from
 * matmul.c (tests/fr_operators.h, which it also includes, names some of
 * the FR SDK's symbols again). */
#ifndef FRX_BENCH_ELEMENT_OPS_H
#define FRX_BENCH_ELEMENT_OPS_H

#include <stddef.h>

/* Operator i of M0, M132 and M3 for each element type (tri, quad, tet,
 * pri, pyr, hex) at p = 1..4, in that order: its name ("pyr p3 M132")
 * into name, its shape into *m x *k and a malloc'd row-major copy into
 * *a. 1: done, 0: no operator i, -1: the FR layer failed (frx_errmsg). */
int bench_element_op(size_t i, char *name, size_t len, size_t *m, size_t *k,
                     double **a);

#endif
