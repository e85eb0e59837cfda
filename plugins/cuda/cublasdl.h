/* SPDX-License-Identifier: BSD-3-Clause */
/* The part of cuBLAS the cuda backend uses for operator products,
 * declared here so that the plugin builds without cuBLAS's headers and
 * never links it: libcublas is opened at run time, on the first product
 * that may use it. Values, types and symbol names are those of
 * cublas_api.h and cublas_v2.h (CUDA 13); tests/test_cuda_driver.c
 * checks them against those headers where the toolkit is installed, and
 * resolves every symbol in the toolkit's libcublas. */
#ifndef FRX_CUBLASDL_H
#define FRX_CUBLASDL_H

#include "cudrv.h"

typedef int cublas_status;
typedef struct cublasContext *cublas_handle;

enum {
    CUBL_SUCCESS = 0,           /* CUBLAS_STATUS_SUCCESS */
    CUBL_OP_N = 0,              /* CUBLAS_OP_N */
    CUBL_POINTER_MODE_HOST = 0  /* CUBLAS_POINTER_MODE_HOST */
};

/* X(field, symbol, parameters): the functions, by the name cublas_v2.h
 * gives the call (cublasCreate is cublasCreate_v2, ...). The enums
 * cublasOperation_t and cublasPointerMode_t are ints here. */
#define CUBLAS_FUNCTIONS(X)                                                  \
    X(Create, "cublasCreate_v2", (cublas_handle *h))                         \
    X(Destroy, "cublasDestroy_v2", (cublas_handle h))                        \
    X(SetStream, "cublasSetStream_v2", (cublas_handle h, cu_stream s))       \
    X(SetPointerMode, "cublasSetPointerMode_v2", (cublas_handle h, int mode)) \
    X(Sgemm, "cublasSgemm_v2",                                               \
      (cublas_handle h, int transa, int transb, int m, int n, int k,         \
       const float *alpha, const float *a, int lda, const float *b, int ldb, \
       const float *beta, float *c, int ldc))                                \
    X(Dgemm, "cublasDgemm_v2",                                               \
      (cublas_handle h, int transa, int transb, int m, int n, int k,         \
       const double *alpha, const double *a, int lda, const double *b,       \
       int ldb, const double *beta, double *c, int ldc))

struct cu_blas {
    void *lib;
    char path[512]; /* the library it was found in */
#define CUBL_FIELD(field, symbol, params) cublas_status(*field) params;
    CUBLAS_FUNCTIONS(CUBL_FIELD)
#undef CUBL_FIELD
    const char *(*StatusName)(cublas_status); /* optional (CUDA 11.4.2) */
};

/* Open the first of libs (NULL-terminated) that loads and has every
 * function: 0, or -1 with what was tried in why ("libcublas.so.13:
 * cannot open shared object file...; ..."). */
int frx_cublas_open(struct cu_blas *b, const char *const *libs, char *why,
                    size_t n);

/* "CUBLAS_STATUS_NOT_INITIALIZED" for st, or "cuBLAS status" where the
 * library has no name for it. */
const char *frx_cublas_status(const struct cu_blas *b, cublas_status st);

#endif
