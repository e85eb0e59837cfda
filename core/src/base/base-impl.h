/* SPDX-License-Identifier: BSD-3-Clause */
/* frx base: what every other folder of libfrx may use. Errors and their
 * messages, the log and its timers, clocks, edit distance, SHA-256, and
 * what the core asks of MPI (without requiring it be started). Uses
 * nothing of libfrx but the public headers. Never installed. */
#ifndef FRX_BASE_IMPL_H
#define FRX_BASE_IMPL_H

#include <frx/frx.h>
#include <frx/plugin.h>

#include <mpi.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define FRX__XSTR(x) #x
#define FRX__STR(x) FRX__XSTR(x) /* a macro's value as a string */

/* ---------------------------------------------------- errors (error.c) */

/* frx_error() replaces the message; this appends a line to it (for
 * reporting every error of a config at once). */
int frx__error_append(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int frx__error_v(int code, const char *fmt, va_list ap);
void frx__error_clear(void);
/* The message is a report of other ranks' failures (frx_comm_agree on a
 * rank that did not fail itself) until the next frx_error replaces it:
 * a later agreement lists the ranks that failed themselves, not this
 * copy of their reasons. */
void frx__error_mark_agreed(void);
int frx__error_is_agreed(void);
/* How many errors this thread has recorded: a call that returns an error
 * without one leaves it as it was. */
unsigned long frx__error_count(void);

/* Allocation that records FRX_ENOMEM with what was being allocated. */
void *frx__calloc(size_t n, size_t size, const char *what);
char *frx__strdup(const char *s);

/* ------------------------------------------------------------ util.c */

/* Edit distance, for "did you mean" suggestions. */
size_t frx__edit_distance(const char *a, const char *b);
/* The closest of n candidates to word, or NULL if none is close. */
const char *frx__suggest(const char *word, const char *const *cands,
                         size_t n);

double frx__now(void); /* monotonic seconds */

/* ------------------------------------------------------- timers (log.c) */

/* The pack, wait and unpack timers cost two clock reads a call, a good
 * part of a small exchange where clock_gettime is slow (VMs), so they
 * run only when their report is shown: log.level info or debug. */
extern int frx__timers_on; /* log.c: 1, 0, or -1 before the level is read */
int frx__timers_update(void);

static inline double frx__timer_start(void)
{
    int on = frx__timers_on >= 0 ? frx__timers_on : frx__timers_update();
    return on ? frx__now() : 0;
}

static inline void frx__timer_stop(double *total, double t0)
{
    if (t0 > 0)
        *total += frx__now() - t0;
}

/* ---------------------------------------------------------- sha256.c */

typedef struct frx__sha256 {
    uint32_t h[8];
    uint64_t len;
    unsigned char buf[64];
    size_t nbuf;
} frx__sha256;

void frx__sha256_init(frx__sha256 *s);
void frx__sha256_update(frx__sha256 *s, const void *data, size_t len);
void frx__sha256_final(frx__sha256 *s, unsigned char out[32]);

/* ------------------------------------------------------------- mpi.c */

/* Rank and size when MPI is initialised, else 0 and 1. */
void frx__mpi_rank_size(int *rank, int *size);
/* This rank's place on its node as the launcher's variables say it
 * (OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID...), or -1. */
int frx__mpi_local_rank(void);
int frx__mpi_running(void); /* initialised and not finalised */
/* Collective over comm: this rank's place among the ranks of comm on
 * its node (MPI_COMM_TYPE_SHARED) that pass the same group, or -1 if
 * MPI fails. */
int frx__mpi_node_rank(MPI_Comm comm, const char *group);

#endif
