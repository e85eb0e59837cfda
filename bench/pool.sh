#!/bin/sh
# bench/pool.sh OUTPUT...: pool the weak-scaling rounds of several runs
# of bench/solver.sh (their saved outputs) and say, for each p, whether
# the rounds meet the target (TARGET, default 0.9).
#
# One run's median of 5 or 9 rounds moves by +-0.05 on a shared machine
# (its rounds spread over 0.7-1.3), so one run can neither meet nor miss
# a target of 0.9 with any confidence. Pooled, the rounds give the
# median with a distribution-free 95% confidence interval (the sign
# test's: the order statistics k and n + 1 - k, k the largest with
# P(Binomial(n, 1/2) < k) <= 0.025), for the 2-rank run, for the pair
# (two 1-rank runs that never talk: what the machine gives two busy
# processes) and for the 2-rank run over the pair round by round (what
# frx's parallel run itself costs). The verdict: "met" where the whole
# interval lies at or above the target, "missed" where it lies below,
# and "undecided" where it holds the target: more rounds, not another
# reading of the same ones, decide it.
#
# Pool only runs of the same code on the same machine (bench/solver.sh
# prints lscpu's model, the LLC and the triad of each p).
set -u
[ $# -ge 1 ] || { echo "usage: sh bench/pool.sh OUTPUT... (saved outputs of bench/solver.sh)" >&2; exit 2; }
target=${TARGET:-0.9}
for f in "$@"; do
    [ -r "$f" ] || { echo "bench/pool.sh: $f: cannot read it" >&2; exit 1; }
    grep -q 'each round: 2-rank' "$f" ||
        { echo "bench/pool.sh: $f: no \"each round\" line: not an output of bench/solver.sh, or one cut short" >&2; exit 1; }
done

awk -v target="$target" '
    # "P  each round: 2-rank a b c; the pair d e f"
    /each round: 2-rank/ {
        p = $1; s = $0
        sub(/.*each round: 2-rank /, "", s)
        n = split(s, half, /; the pair /)
        if (n != 2) { bad = FILENAME ": " FNR ": no \"the pair\" part"; exit 1 }
        n2 = split(half[1], a, " "); np = split(half[2], b, " ")
        for (i = 1; i <= n2; i++) two[p, ++c2[p]] = a[i]
        for (i = 1; i <= np; i++) pair[p, ++cp[p]] = b[i]
        # round by round only where the run has both for every round
        if (n2 == np)
            for (i = 1; i <= n2; i++) over[p, ++co[p]] = a[i] / b[i]
        ps[p] = 1; files[FILENAME] = 1
    }
    # sort x[p, 1..n] into s[1..n]
    function sorted(x, p, n, s,    i, j, v) {
        for (i = 1; i <= n; i++) {
            v = x[p, i]
            for (j = i - 1; j >= 1 && s[j] > v; j--) s[j + 1] = s[j]
            s[j + 1] = v
        }
    }
    function median(s, n) {
        return n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2
    }
    # the sign test: the largest k with P(Binomial(n, 1/2) < k) <= 0.025
    function ci_rank(n,    k, term, cum, i) {
        term = 2 ^ -n; cum = 0; k = 0
        for (i = 0; i < n; i++) {
            if (cum + term > 0.025) break
            cum += term; k = i + 1
            term = term * (n - i) / (i + 1)
        }
        return k
    }
    function line(name, x, p, n, check,    s, k, m, lo, hi, v, i, at) {
        if (n == 0) return
        delete s
        sorted(x, p, n, s)
        m = median(s, n); k = ci_rank(n)
        at = 0
        for (i = 1; i <= n; i++) if (s[i] >= target) at++
        if (k < 1) {
            printf "%-3d %-22s %3d rounds: median %.3f (too few rounds for a 95%% interval)\n",
                   p, name, n, m
            return
        }
        lo = s[k]; hi = s[n + 1 - k]
        v = lo >= target ? "met" : hi < target ? "missed" : "undecided"
        printf "%-3d %-22s %3d rounds: median %.3f, 95%% interval %.3f-%.3f, %d of %d at or above %s",
               p, name, n, m, lo, hi, at, n, target
        if (check) printf ": %s", v
        printf "\n"
    }
    END {
        if (bad != "") { print "bench/pool.sh: " bad > "/dev/stderr"; exit 1 }
        nf = 0
        for (f in files) nf++
        printf "weak scaling, %d runs pooled (target %s)\n", nf, target
        for (p = 1; p <= 16; p++) {
            if (!(p in ps)) continue
            line("2-rank run", two, p, c2[p], 1)
            line("the pair", pair, p, cp[p], 0)
            line("2-rank over the pair", over, p, co[p], 0)
        }
    }' "$@"
