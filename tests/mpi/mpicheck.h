/* SPDX-License-Identifier: BSD-3-Clause */
/* CHECK(cond, fmt, ...) for the MPI tests: counts a pass, or counts a
 * failure and prints it with the rank, file and line, so that a test
 * goes on and every rank reports all it found. It uses the including
 * file's own `rank`, `nfail` and `npass`. */
#ifndef FRX_TESTS_MPICHECK_H
#define FRX_TESTS_MPICHECK_H

#include <stdio.h>

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (cond)                                                         \
            npass++;                                                      \
        else {                                                            \
            nfail++;                                                      \
            fprintf(stderr, "rank %d: %s:%d: ", rank, __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                 \
            fputc('\n', stderr);                                          \
        }                                                                 \
    } while (0)

#endif
