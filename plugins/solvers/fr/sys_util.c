/* SPDX-License-Identifier: BSD-3-Clause */
/* What every file of the FR system uses: a matrix made from host
 * doubles, and the kernels the system keeps until it is destroyed. */
#include "system-internal.h"

#include <stdlib.h>

int fr__matrix_from(frx_backend *be, size_t nrow, size_t nvar, size_t neles,
                    const double *host, frx_matrix **out)
{
    int rc = frx_matrix_create(be, nrow, nvar, neles, out);
    if (!rc && host)
        rc = frx_matrix_write_double(*out, host);
    return rc;
}

int fr__keep_kernel(fr_system *s, frx_kernel *k)
{
    frx_kernel **v = realloc(s->ks, (s->nks + 1) * sizeof *v);
    if (!v) {
        frx_kernel_destroy(k);
        return frx_error(FRX_ENOMEM, "fr: out of memory");
    }
    s->ks = v;
    s->ks[s->nks++] = k;
    return FRX_OK;
}
