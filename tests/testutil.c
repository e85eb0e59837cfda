/* SPDX-License-Identifier: BSD-3-Clause */
#include "testutil.h"

#include <check.h>
#include <frx/comm.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

frx_backend *tu_backend_or_skip(const char *name, const char *precision,
                                frx_config **cfg)
{
    char text[320];
    /* FRX_TEST_OPENMP_PARTS: openmp's matrices in that many parts;
     * FRX_TEST_OPENCL_BINARIES: opencl's binaries (auto, on, off) */
    const char *parts = getenv("FRX_TEST_OPENMP_PARTS");
    const char *binaries = getenv("FRX_TEST_OPENCL_BINARIES");
    snprintf(text, sizeof text, "backend:\n  name: %s\n  precision: %s\n"
             "  openmp:\n    parts: %s\n  opencl:\n    binaries: %s\n",
             name, precision, parts ? parts : "0",
             binaries ? binaries : "auto");
    if (frx_config_parse(text, strlen(text), "test.yaml", cfg)) {
        fprintf(stderr, "config: %s\n", frx_errmsg());
        exit(1);
    }
    frx_backend *be;
    int rc = frx_backend_create(*cfg, &be);
    if (rc == FRX_EUNAVAIL || rc == FRX_ENOTFOUND) {
        printf("SKIP: backend '%s' cannot start here: %s\n", name,
               frx_errmsg());
        exit(77);
    }
    if (rc) {
        fprintf(stderr, "backend '%s': %s: %s\n", name, frx_err_name(rc),
                frx_errmsg());
        exit(1);
    }
    return be;
}

uint64_t tu_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

size_t tu_below(uint64_t *s, size_t n) { return (size_t)(tu_rand(s) % n); }

double tu_value(uint64_t *s)
{
    return (double)((int64_t)(tu_rand(s) % 200001) - 100000) / 64.0;
}

frx_matrix *tu_rand_matrix(frx_backend *be, size_t nrow, size_t nvar,
                           size_t neles, uint64_t *rng, void **host)
{
    frx_matrix *m;
    ck_assert_int_eq(frx_matrix_create(be, nrow, nvar, neles, &m), FRX_OK);
    *host = tu_alloc(be, nrow * nvar * neles);
    for (size_t i = 0; i < nrow * nvar * neles; i++)
        tu_put(be, *host, i, tu_value(rng));
    ck_assert_int_eq(frx_matrix_write(m, *host), FRX_OK);
    return m;
}

void *tu_alloc(const frx_backend *be, size_t count)
{
    void *p = calloc(count ? count : 1, frx_backend_fpsize(be));
    if (!p)
        abort();
    return p;
}

void tu_put(const frx_backend *be, void *a, size_t i, double x)
{
    if (frx_backend_fpsize(be) == 4)
        ((float *)a)[i] = (float)x;
    else
        ((double *)a)[i] = x;
}

double tu_get(const frx_backend *be, const void *a, size_t i)
{
    return frx_backend_fpsize(be) == 4 ? ((const float *)a)[i]
                                       : ((const double *)a)[i];
}

int tu_run_per_precision(const char *name, Suite *(*make_suite)(void),
                         frx_backend **be, const char **precision)
{
    static const char *const precisions[] = {"double", "single"};
    /* FRX_TEST_PRECISION: one of them only (a long suite split in two
     * ctest tests, so that -j runs the halves side by side) */
    const char *only = getenv("FRX_TEST_PRECISION");
    int failed = 0;
    for (int k = 0; k < 2; k++) {
        if (only && *only && strcmp(only, precisions[k]) != 0)
            continue;
        frx_config *cfg;
        if (precision)
            *precision = precisions[k];
        *be = tu_backend_or_skip(name, precisions[k], &cfg);
        printf("backend %s, %s precision, chunk width %zu, alignment %zu\n",
               name, precisions[k], frx_backend_soasz(*be),
               frx_backend_alignment(*be));
        SRunner *sr = srunner_create(make_suite());
        srunner_set_fork_status(sr, CK_NOFORK);
        srunner_run_all(sr, CK_NORMAL);
        failed += srunner_ntests_failed(sr);
        srunner_free(sr);
        frx_backend_destroy(*be);
        frx_config_free(cfg);
    }
    return failed ? 1 : 0;
}

frx_config *tu_parse(const char *text)
{
    frx_config *cfg;
    ck_assert_msg(frx_config_parse(text, strlen(text), "case.yaml", &cfg) ==
                      FRX_OK, "%s", frx_errmsg());
    return cfg;
}

frx_config *tu_case(const char *head, const char *body)
{
    size_t n = strlen(head) + strlen(body) + 32;
    char *text = malloc(n);
    ck_assert_ptr_nonnull(text);
    snprintf(text, n, "%sprogress: {mode: off}\n%s", head, body);
    frx_config *cfg = tu_parse(text);
    ck_assert_msg(frx_config_check(cfg) == FRX_OK, "%s\n%s", frx_errmsg(),
                  text);
    free(text);
    return cfg;
}

int tu_run_mpi_suite(const char *text, const char *label,
                     Suite *(*make_suite)(void), frx_backend **be,
                     frx_comm **comm)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    frx_config *cfg = NULL; /* the backend keeps pointers into it */
    int rc = frx_config_parse(text, strlen(text), "case.yaml", &cfg);
    if (rc == FRX_OK)
        rc = frx_backend_create_all(cfg, MPI_COMM_WORLD, be);
    if (rc == FRX_OK)
        rc = frx_comm_create(*be, MPI_COMM_WORLD, comm);
    if (rc) {
        int skip = rc == FRX_EUNAVAIL || rc == FRX_ENOTFOUND;
        if (rank == 0)
            printf("%s: backend '%s': %s\n", skip ? "SKIP" : "FAIL", label,
                   frx_errmsg());
        frx_backend_destroy(*be);
        frx_config_free(cfg);
        MPI_Finalize();
        return skip ? 77 : 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    SRunner *sr = srunner_create(make_suite());
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, rank == 0 ? CK_NORMAL : CK_SILENT);
    int failed = srunner_ntests_failed(sr), any;
    srunner_free(sr);
    frx_comm_destroy(*comm);
    frx_backend_destroy(*be);
    frx_config_free(cfg);
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return any ? 1 : 0;
}
