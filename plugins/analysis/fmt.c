/* SPDX-License-Identifier: BSD-3-Clause */
/* Numbers for the analysis plugins' CSV files, as printf's "%.17g"
 * writes them (every double read back exactly), but without glibc's
 * multiple-precision path, which costs about 0.2 us a number and was
 * most of the sampler's cost (docs/analysis.md). The usual range is
 * done in exact integer arithmetic: v = m 2^e, and its 17 significant
 * digits N = v / 10^k, k = E - 16, rounded half to even, computed as
 * m 5^-k 2^(e-k) in 128 bits (exact for 10^-10 <= |v| < 10^10, where
 * 5^-k < 2^63: one 64 x 64 bit product), the decimal exponent guessed
 * from the binary one; everything else goes to snprintf. The same characters
 * as snprintf's (tests/test_csv_format.c compares them on millions of
 * numbers). */
#include "analysis.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* 5^n, n = 0..27 (5^27 < 2^63) */
static const uint64_t pow5[28] = {
    1ULL, 5ULL, 25ULL, 125ULL, 625ULL, 3125ULL, 15625ULL, 78125ULL,
    390625ULL, 1953125ULL, 9765625ULL, 48828125ULL, 244140625ULL,
    1220703125ULL, 6103515625ULL, 30517578125ULL, 152587890625ULL,
    762939453125ULL, 3814697265625ULL, 19073486328125ULL,
    95367431640625ULL, 476837158203125ULL, 2384185791015625ULL,
    11920928955078125ULL, 59604644775390625ULL, 298023223876953125ULL,
    1490116119384765625ULL, 7450580596923828125ULL};

/* 17 digits of |v| (v finite, not 0) into N and its decimal exponent
 * into *E (v ~ N 10^(E-16)); 0 where |v| is out of the exact range. */
static int digits17(double v, uint64_t *N, int *E)
{
    double a = fabs(v);
    if (!(a >= 1e-10 && a < 1e10))
        return 0;
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);               /* a normal double */
    uint64_t m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
    int e = (int)(bits >> 52) - 1075;             /* a = m 2^e */
    /* floor(log10(a)) from the binary exponent: 78913 / 2^18 is
     * log10(2) to 6 digits, so this is the true one or one below; a
     * wrong guess is caught below by the digits' count */
    int E10 = (int)(((int64_t)(e + 52) * 78913) >> 18);
    for (int tries = 0; tries < 3; tries++) {
        int k = E10 - 16;                         /* N = a / 10^k */
        if (k > 0 || -k > 27)
            return 0;
        unsigned __int128 x = (unsigned __int128)m * pow5[-k];
        int sh = e - k;                           /* times 2^sh */
        unsigned __int128 q, qt; /* rounded, truncated */
        if (sh >= 0) {
            if (sh > 10)
                return 0;
            q = qt = x << sh;
        } else {
            int r = -sh;
            if (r >= 127)
                return 0;
            q = qt = x >> r;
            unsigned __int128 rem = x - (qt << r), half =
                (unsigned __int128)1 << (r - 1);
            if (rem > half || (rem == half && (q & 1)))
                q++;
        }
        /* the exponent from the digits before rounding: 9.99...95e-8
         * has 17 digits at 10^-24, not 1e-07's at 10^-23 */
        if (qt < (unsigned __int128)10000000000000000ULL) { /* 16 */
            E10--;
            continue;
        }
        if (qt >= (unsigned __int128)100000000000000000ULL) { /* 18 */
            E10++;
            continue;
        }
        if (q == (unsigned __int128)100000000000000000ULL) { /* 99..9 up */
            q /= 10;
            E10++;
        }
        *N = (uint64_t)q;
        *E = E10;
        return 1;
    }
    return 0;
}

/* x < 10^8 as 8 digits: two halves of 4, each two pairs from the table
 * "00" .. "99" */
static void eight(char *d, uint32_t x)
{
    static const char two[201] =
        "00010203040506070809101112131415161718192021222324252627282930"
        "31323334353637383940414243444546474849505152535455565758596061"
        "62636465666768697071727374757677787980818283848586878889909192"
        "93949596979899";
    uint32_t a = x / 10000, b = x % 10000;
    memcpy(d, two + 2 * (a / 100), 2);
    memcpy(d + 2, two + 2 * (a % 100), 2);
    memcpy(d + 4, two + 2 * (b / 100), 2);
    memcpy(d + 6, two + 2 * (b % 100), 2);
}

int an_fmt_double(char *buf, size_t len, double v)
{
    uint64_t N;
    int E;
    if (len < 32 || !isfinite(v) || v == 0 || !digits17(v, &N, &E))
        return snprintf(buf, len, "%.17g", v);
    /* N = d0 10^16 + hi 10^8 + lo: the two 8-digit halves written side
     * by side (independent 32-bit work, not one chain of 64-bit
     * divisions) */
    char d[18];
    uint64_t q = N / 100000000;
    uint32_t lo = (uint32_t)(N - q * 100000000), d0 = (uint32_t)(q / 100000000),
             hi = (uint32_t)q - d0 * 100000000;
    d[0] = (char)('0' + d0);
    eight(d + 1, hi);
    eight(d + 9, lo);
    int nd = 17;
    while (nd > 1 && d[nd - 1] == '0') /* %g drops trailing zeros */
        nd--;
    char *p = buf;
    if (v < 0)
        *p++ = '-';
    if (E < -4 || E >= 17) { /* d.ddde-05 */
        *p++ = d[0];
        if (nd > 1) {
            *p++ = '.';
            memcpy(p, d + 1, (size_t)nd - 1);
            p += nd - 1;
        }
        int ae = E < 0 ? -E : E;
        *p++ = 'e';
        *p++ = E < 0 ? '-' : '+';
        if (ae >= 100)
            *p++ = (char)('0' + ae / 100);
        *p++ = (char)('0' + ae / 10 % 10);
        *p++ = (char)('0' + ae % 10);
    } else if (E >= 0) { /* ddd.ddd */
        for (int i = 0; i <= E; i++)
            *p++ = i < nd ? d[i] : '0';
        if (nd > E + 1) {
            *p++ = '.';
            memcpy(p, d + E + 1, (size_t)(nd - E - 1));
            p += nd - E - 1;
        }
    } else { /* 0.000ddd */
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -E - 1; i++)
            *p++ = '0';
        memcpy(p, d, (size_t)nd);
        p += nd;
    }
    *p = '\0';
    return (int)(p - buf);
}
