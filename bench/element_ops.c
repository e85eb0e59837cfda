/* SPDX-License-Identifier: BSD-3-Clause */
/* bench/matmul's SET elements (element_ops.h). */
#include "element_ops.h"

#include <frx/fr/fr.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bench_element_op(size_t i, char *name, size_t len, size_t *m, size_t *k,
                     double **a)
{
    static const struct {
        int etype;
        const char *name;
    } types[] = {{FR_TRI, "tri"}, {FR_QUAD, "quad"}, {FR_TET, "tet"},
                 {FR_PRI, "pri"}, {FR_PYR, "pyr"},   {FR_HEX, "hex"}};
    static const struct {
        int op;
        const char *name;
    } ops[] = {{FR_M0, "M0"}, {FR_M132, "M132"}, {FR_M3, "M3"}};
    const size_t nops = sizeof ops / sizeof *ops, norders = 4;
    size_t t = i / (nops * norders), p = i / nops % norders + 1,
           w = i % nops;
    if (t >= sizeof types / sizeof *types)
        return 0;
    fr_element *e;
    if (fr_element_create(types[t].etype, (int)p, &e))
        return -1;
    const double *op = fr_element_op(e, ops[w].op, m, k);
    *a = op ? malloc(*m * *k * sizeof **a) : NULL;
    if (*a)
        memcpy(*a, op, *m * *k * sizeof **a);
    snprintf(name, len, "%s p%zu %s", types[t].name, p, ops[w].name);
    fr_element_destroy(e);
    return *a ? 1 : -1;
}
