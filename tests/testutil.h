/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the conformance tests. */
#ifndef FRX_TESTUTIL_H
#define FRX_TESTUTIL_H

#include <frx/frx.h>
#include <stddef.h>
#include <stdint.h>

/* Start backend `name` in `precision` ("single"/"double"). Exits 77
 * (ctest's skip) with the reason when it cannot start here. */
frx_backend *tu_backend_or_skip(const char *name, const char *precision,
                                frx_config **cfg);

/* Run the suite made by make_suite once per precision on backend
 * `name`, with *be (and *precision, if not NULL) set for its tests; no
 * fork, since GPU runtimes cannot be used in a forked child. Exits 77
 * when the backend cannot start. Returns the process exit status. */
struct Suite;
int tu_run_per_precision(const char *name, struct Suite *(*make_suite)(void),
                         frx_backend **be, const char **precision);

/* After MPI_Init: start the backend of case text on every rank and a
 * communicator over MPI_COMM_WORLD into *be and *comm, run the suite
 * made by make_suite without fork on every rank (rank 0 prints), free
 * them and end MPI. Returns the exit status: 77 (skip) where the backend
 * cannot start, on every rank alike, 1 where a test failed on any rank. */
struct frx_comm;
int tu_run_mpi_suite(const char *text, const char *label,
                     struct Suite *(*make_suite)(void), frx_backend **be,
                     struct frx_comm **comm);

/* Parse text as case.yaml; a failed parse fails the test. */
frx_config *tu_parse(const char *text);
/* A case of head (the backend), "progress: {mode: off}", then body, parsed
 * and checked; a failure fails the test, showing the text. */
frx_config *tu_case(const char *head, const char *body);

/* ck_assert_msg for loops over every element of a matrix: Check's
 * assertions record the place of every check that passes (a write to its
 * message file each time), which over millions of elements is most of a
 * test's time; this one tests first and reports only a failure, with
 * the message (a format and its arguments) it is given. */
#define tu_check(expr, ...)                                                  \
    do {                                                                     \
        if (!(expr))                                                         \
            ck_abort_msg(__VA_ARGS__);                                       \
    } while (0)

/* Deterministic random numbers. */
uint64_t tu_rand(uint64_t *state);
size_t tu_below(uint64_t *state, size_t n);
/* A value exact in single and double precision. */
double tu_value(uint64_t *state);

/* Host arrays in the backend's precision. */
void *tu_alloc(const frx_backend *be, size_t count);
void tu_put(const frx_backend *be, void *a, size_t i, double x);
double tu_get(const frx_backend *be, const void *a, size_t i);
/* A matrix of random values (tu_value), written; *host its host copy. */
frx_matrix *tu_rand_matrix(frx_backend *be, size_t nrow, size_t nvar,
                           size_t neles, uint64_t *rng, void **host);

#endif
