/* SPDX-License-Identifier: BSD-3-Clause */
/* Pack (gather) and unpack (scatter) kernels for the device targets,
 * written from the indexing of frx_pack_args: value (r, c) of point i at
 * base[off[i] + r*rstride[i] + c*cstride], packed at
 * xchg[(r*nvcol + c)*n + i]. One work-item per point; kernels made for
 * one view shape have loops of known length (which the compilers
 * unroll) and skip the row-stride load for one row. */
#include "kernel/kernel-impl.h"

#include <stdio.h>
#include <stdlib.h>

struct dialect {
    const char *name;
    const char *prefix;    /* before "void name(" */
    const char *global;    /* address space of buffers */
    const char *restrict_; /* the compiler's spelling of restrict */
    const char *index;     /* this work-item's index */
    const char *ix64;      /* a 64-bit integer, for 64-bit view offsets */
};

static const struct dialect dialects[] = {
    [FRX_TARGET_OPENCL] = {"OpenCL C", "__kernel ", "__global ", "restrict",
                           "(int)get_global_id(0)", "long"},
    [FRX_TARGET_CUDA] = {"CUDA", "extern \"C\" __global__ ", "", "__restrict__",
                         "blockIdx.x*blockDim.x + threadIdx.x", "long long"},
    [FRX_TARGET_HIP] = {"HIP", "extern \"C\" __global__ ", "", "__restrict__",
                        "blockIdx.x*blockDim.x + threadIdx.x", "long long"},
};

/* FRX_PACK_ENTRY (gather) or FRX_UNPACK_ENTRY (scatter). */
static void move_kernel(FILE *f, const struct dialect *d, size_t nvrow,
                        size_t nvcol, int gather)
{
    const char *g = d->global, *r = d->restrict_;
    fprintf(f, "\n%svoid %s(%s%sfpdtype_t *%s base, %s%sfpdtype_t *%s x,\n"
               "    %sconst frx_ix_t *%s off, %sconst frx_ix_t *%s rs, "
               "int n, int nvrow, int nvcol, int cs)\n{\n"
               "    const int i = %s;\n"
               "    if (i >= n)\n        return;\n",
            d->prefix, gather ? FRX_PACK_ENTRY : FRX_UNPACK_ENTRY, g,
            gather ? "const " : "", r, g, gather ? "" : "const ", r, g, r, g,
            r, d->index);
    char nvr[32] = "nvrow", nvc[32] = "nvcol", packed[96], point[64];
    if (nvrow) {
        snprintf(nvr, sizeof nvr, "%zu", nvrow);
        snprintf(nvc, sizeof nvc, "%zu", nvcol);
    }
    const char *indent = "        ";
    if (nvrow == 1) { /* one row: no row stride to load */
        fprintf(f, "    const frx_ix_t o = off[i];\n"
                   "    for (int c = 0; c < %s; c++)\n", nvc);
        snprintf(packed, sizeof packed, "x[(size_t)c*n + i]");
        snprintf(point, sizeof point, "base[o + c*cs]");
    } else {
        fprintf(f, "    const frx_ix_t o = off[i], s = %s;\n"
                   "    for (int r = 0; r < %s; r++)\n"
                   "        for (int c = 0; c < %s; c++)\n",
                nvrow ? "rs[i]" : "nvrow > 1 ? rs[i] : 0", nvr, nvc);
        snprintf(packed, sizeof packed, "x[(size_t)(r*%s + c)*n + i]", nvc);
        snprintf(point, sizeof point, "base[o + r*s + c*cs]");
        indent = "            ";
    }
    fprintf(f, "%s%s = %s;\n}\n", indent, gather ? packed : point,
            gather ? point : packed);
}

static void copy_kernel(FILE *f, const struct dialect *d)
{
    const char *g = d->global, *r = d->restrict_;
    fprintf(f, "\n%svoid %s(%sfpdtype_t *%s dst, int doff,\n"
               "    %sconst fpdtype_t *%s src, int soff, int len)\n{\n"
               "    const int i = %s;\n"
               "    if (i < len)\n"
               "        dst[doff + i] = src[soff + i];\n}\n",
            d->prefix, FRX_COPY_ENTRY, g, r, g, r, d->index);
}

int frx_pack_generate(const frx_codegen *cg, size_t nvrow, size_t nvcol,
                      char **src)
{
    if (!cg || !src)
        return frx_error(FRX_EINVAL, "frx_pack_generate: NULL argument");
    if (cg->target != FRX_TARGET_OPENCL && cg->target != FRX_TARGET_CUDA &&
        cg->target != FRX_TARGET_HIP)
        return frx_error(FRX_EINVAL, "frx_pack_generate: target %d has no "
                         "pack kernels (OpenCL, CUDA and HIP do)",
                         cg->target);
    if (cg->precision != FRX_SINGLE && cg->precision != FRX_DOUBLE)
        return frx_error(FRX_EINVAL, "frx_pack_generate: no precision %d",
                         cg->precision);
    if ((nvrow == 0) != (nvcol == 0) || nvrow > 4096 || nvcol > 4096)
        return frx_error(FRX_EINVAL, "frx_pack_generate: a view shape of "
                         "%zu x %zu: give both (at most 4096 each) or "
                         "neither", nvrow, nvcol);
    const struct dialect *d = &dialects[cg->target];
    int dbl = cg->precision == FRX_DOUBLE;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return frx_error(FRX_ENOMEM, "out of memory generating pack kernels");
    fprintf(f, "/* frx pack and unpack for %s, %s precision, ", d->name,
            dbl ? "double" : "single");
    if (nvrow)
        fprintf(f, "views of %zu x %zu values */\n", nvrow, nvcol);
    else
        fprintf(f, "views of any shape */\n");
    if (cg->target == FRX_TARGET_OPENCL && dbl)
        fprintf(f, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    fprintf(f, "typedef %s fpdtype_t;\ntypedef %s frx_ix_t;\n",
            dbl ? "double" : "float",
            sizeof(frx_ix_t) == 4 ? "int" : d->ix64);
    move_kernel(f, d, nvrow, nvcol, 1);
    move_kernel(f, d, nvrow, nvcol, 0);
    copy_kernel(f, d);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        free(buf);
        return frx_error(FRX_ENOMEM, "out of memory generating pack kernels");
    }
    *src = buf;
    return FRX_OK;
}
