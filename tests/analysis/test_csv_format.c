/* SPDX-License-Identifier: BSD-3-Clause */
/* The analysis plugins' number formatting (plugins/analysis/fmt.c)
 * against snprintf's "%.17g", character for character: random bit
 * patterns (every exponent, NaN, inf, subnormals), random numbers in
 * the range it computes itself, short decimals (0.1, 2.5e-3...), the
 * range's edges, and powers of two and ten; and every string reads
 * back as the same double. */
#include "analysis.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void) /* xorshift64* */
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ULL;
}

static long checked;

static void same(double v)
{
    char a[64], b[64];
    int la = an_fmt_double(a, sizeof a, v);
    int lb = snprintf(b, sizeof b, "%.17g", v);
    ck_assert_msg(la == lb && !strcmp(a, b),
                  "%a: '%s' (%d), snprintf '%s' (%d)", v, a, la, b, lb);
    if (isfinite(v))
        ck_assert_msg(strtod(a, NULL) == v, "%a: '%s' reads back as %a", v,
                      a, strtod(a, NULL));
    checked++;
}

START_TEST(bit_patterns)
{
    for (long i = 0; i < 500000; i++) {
        uint64_t u = next();
        double v;
        memcpy(&v, &u, sizeof v);
        same(v);
    }
}
END_TEST

START_TEST(its_range)
{
    for (long i = 0; i < 500000; i++) {
        double mant = 1 + (double)(next() >> 11) / 9007199254740992.0;
        int ex = (int)(next() % 67) - 34; /* 2^-34 .. 2^33 */
        double v = ldexp(mant, ex) * (next() & 1 ? -1 : 1);
        same(v);
        same(nextafter(v, 0));
        same(nextafter(v, INFINITY));
    }
}
END_TEST

START_TEST(short_decimals)
{
    for (long n = -25000; n <= 25000; n++)
        for (int k = -14; k <= 12; k++)
            same((double)n * pow(10, k));
}
END_TEST

START_TEST(edges)
{
    static const double v[] = {1e-10, 1e10, 9.9999999999999995e9,
                               1.0000000000000001e-10, 1e-5, 1e-4,
                               9.9999999999999991e-5, 1e16, 1e17,
                               99999999999999984.0, 0.1, 0.5, 1, 10,
                               0, -0.0, 1.5, 123456789.123456789};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        same(v[i]);
        same(-v[i]);
        same(nextafter(v[i], 0));
        same(nextafter(v[i], INFINITY));
    }
    for (int e = -1074; e <= 1023; e++)
        same(ldexp(1, e));
    for (int e = -30; e <= 30; e++)
        same(pow(10, e));
    same(NAN);
    same(INFINITY);
    same(-INFINITY);
    ck_assert(checked > 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("csv-format");
    TCase *tc = tcase_create("fmt");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, bit_patterns);
    tcase_add_test(tc, its_range);
    tcase_add_test(tc, short_decimals);
    tcase_add_test(tc, edges);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
