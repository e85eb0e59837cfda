/* Small helpers: edit distance and "did you mean" suggestions. */
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

int frx__rank_match(const char *ranges, int rank, int *match)
{
    int hit = 0;
    const char *p = ranges;
    if (!p || !*p)
        return frx_error(FRX_EINVAL, "no ranks given: write ranges like "
                         "\"0-3,8\"");
    while (*p) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (end == p || a < 0)
            return frx_error(FRX_EINVAL, "cannot read rank ranges '%s': "
                             "write them like \"0-3,8\"", ranges);
        p = end;
        if (*p == '-') {
            b = strtol(p + 1, &end, 10);
            if (end == p + 1 || b < a)
                return frx_error(FRX_EINVAL, "cannot read rank ranges '%s': "
                                 "a range is \"first-last\" with first <= "
                                 "last", ranges);
            p = end;
        }
        if (rank >= a && rank <= b)
            hit = 1;
        if (*p == ',')
            p++;
        else if (*p)
            return frx_error(FRX_EINVAL, "cannot read rank ranges '%s': "
                             "unexpected '%c'", ranges, *p);
    }
    if (match)
        *match = hit;
    return FRX_OK;
}

double frx__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
