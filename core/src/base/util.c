/* SPDX-License-Identifier: BSD-3-Clause */
/* Small helpers: edit distance, "did you mean" suggestions, the clock. */
#include "base/base-impl.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* Levenshtein distance that also counts swapping two neighbours as one
 * edit (optimal string alignment): "lgo" is one typo away from "log".
 * Three rows of the table; on the stack for the short words it is
 * meant for. */
size_t frx__edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t stack_rows[3 * 64], *rows = stack_rows;
    if (3 * (lb + 1) > sizeof stack_rows / sizeof *stack_rows) {
        rows = malloc(3 * (lb + 1) * sizeof *rows);
        if (!rows) /* an upper bound is good enough for suggestions */
            return la > lb ? la : lb;
    }
    size_t *prev2 = rows, *prev = rows + lb + 1, *cur = rows + 2 * (lb + 1);
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
                a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < best)
                best = prev2[j - 2] + 1;
            cur[j] = best;
        }
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    size_t d = prev[lb];
    if (rows != stack_rows)
        free(rows);
    return d;
}

const char *frx__suggest(const char *word, const char *const *cands,
                         size_t n)
{
    if (!word)
        return NULL;
    for (size_t i = 0; i < n; i++) /* OpenMP for openmp */
        if (cands[i] && !strcasecmp(word, cands[i]))
            return cands[i];
    size_t len = strlen(word);
    size_t limit = len / 3 > 1 ? len / 3 : 1;
    const char *best = NULL;
    size_t best_d = limit + 1;
    for (size_t i = 0; i < n; i++) {
        if (!cands[i])
            continue;
        size_t d = frx__edit_distance(word, cands[i]);
        if (d < best_d) {
            best = cands[i];
            best_d = d;
        }
    }
    return best;
}

double frx__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
