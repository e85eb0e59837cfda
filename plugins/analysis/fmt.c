/* SPDX-License-Identifier: BSD-3-Clause */
/* Numbers for the analysis plugins' CSV files, as printf's "%.17g"
 * writes them (every double read back exactly), but without glibc's
 * multiple-precision path, which costs about 0.2 us a number and was
 * most of the sampler's cost (docs/analysis.md). The usual range is
 * done in exact integer arithmetic: v = m 2^e, and its 17 significant
 * digits N = v / 10^k, k = E - 16, rounded half to even, computed as
 * m 5^-k 2^(e-k) in 128 bits (exact for 10^-10 <= |v| < 10^10, where
 * 5^-k < 2^62); everything else goes to snprintf. The same characters
 * as snprintf's (tests/test_csv_format.c compares them on millions of
 * numbers). */
#include "analysis.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* 17 digits of |v| (v finite, not 0) into N and its decimal exponent
 * into *E (v ~ N 10^(E-16)); 0 where |v| is out of the exact range. */
static int digits17(double v, uint64_t *N, int *E)
{
    double a = fabs(v);
    if (!(a >= 1e-10 && a < 1e10))
        return 0;
    int e2;
    double fr = frexp(a, &e2);                    /* a = fr 2^e2 */
    uint64_t m = (uint64_t)ldexp(fr, 53);         /* exact: 53 bits */
    int e = e2 - 53;                              /* a = m 2^e */
    int E10 = (int)floor(log10(a));
    for (int tries = 0; tries < 2; tries++) {
        int k = E10 - 16;                         /* N = a / 10^k */
        if (k > 0 || -k > 27)
            return 0;
        unsigned __int128 x = m;
        for (int i = 0; i < -k; i++)
            x *= 5;                               /* m 5^-k < 2^115 */
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

int an_fmt_double(char *buf, size_t len, double v)
{
    uint64_t N;
    int E;
    if (len < 32 || !isfinite(v) || v == 0 || !digits17(v, &N, &E))
        return snprintf(buf, len, "%.17g", v);
    char d[18];
    for (int i = 16; i >= 0; i--, N /= 10)
        d[i] = (char)('0' + N % 10);
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
