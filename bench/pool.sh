#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench/pool.sh OUTPUT...: pool the weak-scaling rounds of several runs
# of bench/solver.sh (their saved outputs) and say, for each p, whether
# they meet the target (TARGET, default 0.9).
#
# One run's median of 5 or 9 rounds moves by +-0.05 on a shared machine
# (its rounds spread over 0.7-1.3), so one run can neither meet nor miss
# a target of 0.9 with any confidence. Pooled, the rounds give the
# median with a distribution-free 95% confidence interval (the sign
# test's: the order statistics k and n + 1 - k, k the largest with
# P(Binomial(n, 1/2) < k) <= 0.025), for the 2-rank run, for the pair
# (two 1-rank runs that never talk: what the machine gives two busy
# processes) and for the 2-rank run over the pair round by round (what
# frx's parallel run itself costs).
#
# Rounds of one run share its half hour (a quiet or a noisy one), so
# they are not independent draws and the rounds' interval can be too
# narrow. The same test over the runs' own medians allows for that
# drift (each run one draw; at least 6 runs for an interval). The
# verdict needs both: "met" where both intervals lie at or above the
# target, "missed" where both lie below, else "undecided": more rounds
# and runs, not another reading of the same ones, decide it.
#
# Pool only runs of the same code on the same machine. bench/solver.sh
# starts its output with a "machine:" line (the CPU model, cores and
# last-level cache) and a "code:" line (the commit): files of different
# machines are refused, of different commits said (their solver code
# may be the same); an older output without these lines is said too. A
# file given twice, or two files with the same contents, are refused.
set -u
[ $# -ge 1 ] || { echo "usage: sh bench/pool.sh OUTPUT... (saved outputs of bench/solver.sh)" >&2; exit 2; }
target=${TARGET:-0.9}
sums=
for f in "$@"; do
    [ -r "$f" ] || { echo "bench/pool.sh: $f: cannot read it" >&2; exit 1; }
    grep -q 'each round: 2-rank' "$f" ||
        { echo "bench/pool.sh: $f: no \"each round\" line: not an output of bench/solver.sh, or one cut short" >&2; exit 1; }
    sum=$(cksum < "$f" | awk '{ print $1 "-" $2 }')
    case " $sums " in
        *" $sum "*) echo "bench/pool.sh: $f: given twice (or a copy of another file given): its rounds would count twice" >&2; exit 1 ;;
    esac
    sums="$sums $sum"
    # the machine and the commit the run was on
    m=$(sed -n 's/^machine: //p' "$f" | head -n 1)
    c=$(sed -n 's/^code: //p' "$f" | head -n 1)
    if [ -z "$m" ]; then
        echo "bench/pool.sh: $f: no machine line (an older bench/solver.sh): that it ran on the others' machine is not checked" >&2
    elif [ -z "${machine:-}" ]; then
        machine=$m machine_file=$f
    elif [ "$m" != "$machine" ]; then
        echo "bench/pool.sh: $f: another machine than $machine_file's ('$m' against '$machine'): pool the runs of one machine only" >&2
        exit 1
    fi
    if [ -n "$c" ] && [ -z "${code:-}" ]; then
        code=$c code_file=$f
    elif [ -n "$c" ] && [ "$c" != "$code" ]; then
        echo "bench/pool.sh: $f: another commit than $code_file's ($c against $code): pool them only where the solver's code is the same" >&2
    fi
done

awk -v target="$target" '
    # a positive number, or the error of the line it is on
    function value(v) {
        if (v !~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ || v + 0 <= 0) {
            bad = FILENAME ":" FNR ": \"" v "\" is not a positive number"
            exit 1
        }
        return v + 0
    }
    # "P  each round: 2-rank a b c; the pair d e f"
    /each round: 2-rank/ {
        p = $1; s = $0
        if (p !~ /^[0-9]+$/) { bad = FILENAME ":" FNR ": no order first"; exit 1 }
        sub(/.*each round: 2-rank */, "", s)
        n = split(s, half, /; the pair */)
        if (n != 2) { bad = FILENAME ":" FNR ": no \"the pair\" part"; exit 1 }
        n2 = split(half[1], a, " "); np = split(half[2], b, " ")
        if (n2 == 0) { bad = FILENAME ":" FNR ": no 2-rank rounds"; exit 1 }
        run = ++nruns[p]
        for (i = 1; i <= n2; i++) {
            two[p, ++c2[p]] = value(a[i])
            inrun[p, run, i] = a[i] + 0
        }
        rlen[p, run] = n2
        for (i = 1; i <= np; i++) pair[p, ++cp[p]] = value(b[i])
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
    # (the terms in logs: 2^-n is 0 in doubles past n = 1074)
    function ci_rank(n,    k, lt, cum, i) {
        lt = -n * log(2); cum = 0; k = 0
        for (i = 0; i < n / 2; i++) {
            if (cum + exp(lt) > 0.025) break
            cum += exp(lt); k = i + 1
            lt += log(n - i) - log(i + 1)
        }
        return k
    }
    # the median of x[p, 1..n] and its interval: into MED, LO, HI (LO
    # and HI empty where n is too small); HAS: how many at or above
    function interval(x, p, n,    s, k, i) {
        delete s
        sorted(x, p, n, s)
        MED = median(s, n); k = ci_rank(n); HAS = 0
        for (i = 1; i <= n; i++) if (s[i] >= target) HAS++
        LO = HI = ""
        if (k >= 1) { LO = s[k]; HI = s[n + 1 - k] }
    }
    function line(name, x, p, n) {
        if (n == 0) return
        interval(x, p, n)
        printf "%-3d %-22s %3d rounds: median %.3f, ", p, name, n, MED
        if (LO == "") printf "too few rounds for a 95%% interval"
        else printf "95%% interval %.3f-%.3f", LO, HI
        printf ", %d of %d at or above %s\n", HAS, n, target
    }
    END {
        if (bad != "") { print "bench/pool.sh: " bad > "/dev/stderr"; exit 1 }
        nf = 0
        for (f in files) nf++
        printf "weak scaling, %d runs pooled (target %s)\n", nf, target
        for (p = 1; p <= 16; p++) {
            if (!(p in ps)) continue
            line("2-rank run", two, p, c2[p])
            rlo = LO; rhi = HI
            # each run one draw: its own median (inrun[p, r, i] is
            # x[p SUBSEP r, i] to sorted())
            delete med
            for (r = 1; r <= nruns[p]; r++) {
                delete so
                sorted(inrun, p SUBSEP r, rlen[p, r], so)
                med[p, r] = median(so, rlen[p, r])
            }
            interval(med, p, nruns[p])
            printf "%-3d %-22s %3d runs: median %.3f, ", p,
                   "each run\047s median", nruns[p], MED
            if (LO == "") printf "too few runs for a 95%% interval"
            else printf "95%% interval %.3f-%.3f", LO, HI
            v = "undecided"
            if (rlo != "" && LO != "" && rlo >= target && LO >= target) v = "met"
            if (rhi != "" && HI != "" && rhi < target && HI < target) v = "missed"
            printf ": %s\n", v
            line("the pair", pair, p, cp[p])
            line("2-rank over the pair", over, p, co[p])
        }
    }' "$@"
