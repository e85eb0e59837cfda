/* SPDX-License-Identifier: BSD-3-Clause */
/* Launch geometry and parameters: the generated kernels take one thread
 * per point, _i = blockIdx.x*blockDim.x + threadIdx.x, and one block row
 * per kernel row, _j = blockIdx.y; their parameters are the values of
 * frx_launch.params in order. */
#include "gpu.h"

#include <limits.h>

int frx_gpu_geometry(const struct gpu_limits *lim, size_t n, size_t nrows,
                     const char *what, unsigned grid[2])
{
    if (!lim->block || !lim->max_grid_x || !lim->max_grid_y)
        return frx_error(FRX_EINVAL, "%s: no launch limits (a plugin bug)",
                         what);
    /* the kernels index points with an int */
    if (n == 0 || n > INT_MAX)
        return frx_error(FRX_ERANGE, "%s: %zu points: a launch takes 1 to "
                         "%d", what, n, INT_MAX);
    size_t blocks = (n + lim->block - 1) / lim->block;
    if (blocks > lim->max_grid_x)
        return frx_error(FRX_ERANGE, "%s: %zu points need %zu blocks of %u "
                         "threads; the device runs at most %u: split the "
                         "work", what, n, blocks, lim->block, lim->max_grid_x);
    if (nrows == 0 || nrows > lim->max_grid_y)
        return frx_error(FRX_ERANGE, "%s: %zu rows: the device runs 1 to %u "
                         "rows of blocks; split the rows over several "
                         "kernels", what, nrows, lim->max_grid_y);
    grid[0] = (unsigned)blocks;
    grid[1] = (unsigned)nrows;
    return FRX_OK;
}

int frx_gpu_params(const frx_param *params, size_t n, int precision,
                   const char *what, union gpu_value *v, void **ptr)
{
    for (size_t k = 0; k < n; k++) {
        const frx_param *p = &params[k];
        v[k].p = 0;
        switch (p->type) {
        case FRX_PARAM_MEM:
            v[k].p = frx_gpu_addr(p->mem);
            break;
        case FRX_PARAM_INT:
            if (p->i < INT32_MIN || p->i > INT32_MAX)
                return frx_error(FRX_ERANGE, "%s: parameter %zu is %lld, "
                                 "past the kernels' 32-bit int", what, k,
                                 (long long)p->i);
            v[k].i = (int32_t)p->i;
            break;
        case FRX_PARAM_INT64: /* frx_ix64 in the generated code */
            v[k].l = p->i;
            break;
        case FRX_PARAM_FP:
            if (precision == FRX_DOUBLE)
                v[k].d = p->d;
            else
                v[k].f = (float)p->d;
            break;
        default:
            return frx_error(FRX_EINVAL, "%s: parameter %zu has unknown type "
                             "%d", what, k, p->type);
        }
        ptr[k] = &v[k];
    }
    return FRX_OK;
}
