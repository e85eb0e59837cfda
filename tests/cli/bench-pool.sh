#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench-pool.sh SCRIPT: bench/pool.sh on outputs of bench/solver.sh made
# up here, whose medians and intervals are known: rounds of one p split
# over two files are pooled (for 9 rounds the interval is the 2nd and
# 8th smallest, for 8 the least and the largest, for 2000 the 956th and
# 1045th); each run's median is one draw of the run-level interval (6
# runs at least); the verdict is "met" where both intervals lie at or
# above 0.9, "missed" where both lie below, else "undecided" (rounds
# that meet it in runs whose medians do not: undecided); too few rounds
# or runs for an interval are said; a file given twice or copied, a
# value that is not a positive number, a line without rounds, a file
# that is no such output and files of two machines are refused by name;
# files of two commits, or with no machine line, are said.
set -eu
script=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-bench-pool.XXXXXX")
trap 'rm -rf "$dir"' EXIT

fail() { echo "bench-pool.sh: $*" >&2; cat "$dir/out" >&2; exit 1; }
expect() { grep -Eq "$1" "$dir/out" || fail "no line /$1/"; }
refused() { # refused PATTERN FILE...: pool.sh fails saying PATTERN
    pattern=$1; shift
    if sh "$script" "$@" > "$dir/out" 2>&1; then fail "accepted: $*"; fi
    expect "$pattern"
}

# the lines of bench/solver.sh that pool.sh reads, and some it skips
cat > "$dir/a" <<'END'
p   run              ns/DOF/RHS   GB/s model   x triad
1   weak scaling   efficiency 0.990 (median of 5 rounds, 0.950-1.030; of the least walls 0.97; target 0.9; bandwidth bound here 0.95)
1                  each round: 2-rank 1.030 0.950 1.010 0.970 0.990; the pair 1.000 1.000 1.000 1.000 1.000
2                  each round: 2-rank 0.800 0.880 0.820 0.860 0.840 0.810 0.870 0.830 0.850; the pair 1.000 1.000 1.000 1.000 1.000 1.000 1.000 1.000 0.850
4                  each round: 2-rank 0.950 0.960 0.970; the pair 1.000 1.000 1.000
5                  each round: 2-rank 0.950 0.910 0.970 0.930 0.990 0.920 0.980 0.940; the pair 1.000 1.000 1.000 1.000 1.000 1.000 1.000 1.000
END
cat > "$dir/b" <<'END'
1                  each round: 2-rank 0.960 1.020 0.980 1.000; the pair 1.000 1.000 1.000 1.000
END

sh "$script" "$dir/a" "$dir/b" > "$dir/out" 2>&1 || fail "pool.sh failed"
expect '^weak scaling, 2 runs pooled \(target 0.9\)$'
# p = 1: 0.95..1.03 by 0.01 over the two files; the runs' medians 0.99
# and 0.99: too few runs to decide
expect '^1 +2-rank run +9 rounds: median 0.990, 95% interval 0.960-1.020, 9 of 9 at or above 0.9$'
expect "^1 +each run's median +2 runs: median 0.990, too few runs for a 95% interval: undecided$"
expect '^1 +the pair +9 rounds: median 1.000, 95% interval 1.000-1.000, 9 of 9 at or above 0.9$'
expect '^1 +2-rank over the pair +9 rounds: median 0.990, 95% interval 0.960-1.020'
# p = 2: round 9 over its pair of 0.85 is 1.0
expect '^2 +2-rank run +9 rounds: median 0.840, 95% interval 0.810-0.870, 0 of 9 at or above 0.9$'
expect '^2 +2-rank over the pair +9 rounds: median 0.840, 95% interval 0.810-0.880'
# p = 4: 3 rounds give no interval; p = 5: 8 rounds give the least and
# the largest (P(Binomial(8, 1/2) < 2) is 0.035)
expect '^4 +2-rank run +3 rounds: median 0.960, too few rounds for a 95% interval, 3 of 3 at or above 0.9$'
expect '^5 +2-rank run +8 rounds: median 0.945, 95% interval 0.910-0.990, 8 of 8 at or above 0.9$'

# verdicts from 6 runs: p = 1 high in every run (met), p = 2 low in
# every run (missed), p = 3 high rounds but one run whose median is low
# (undecided), p = 4 around the target (undecided), p = 5 low runs'
# medians but rounds on both sides (undecided)
for r in 1 2 3 4 5 6; do
    low=0.950; [ "$r" = 6 ] && low=0.850
    cat > "$dir/r$r" <<END
1                  each round: 2-rank 0.95$r 0.960 0.970; the pair 1.000 1.000 1.000
2                  each round: 2-rank 0.80$r 0.820 0.840; the pair 1.000 1.000 1.000
3                  each round: 2-rank 0.95$r $low $low; the pair 1.000 1.000 1.000
4                  each round: 2-rank 0.8$r 0.900 0.9$r; the pair 1.000 1.000 1.000
5                  each round: 2-rank 0.850 0.860 0.990; the pair 1.000 1.000 1.000
END
done
sh "$script" "$dir"/r1 "$dir"/r2 "$dir"/r3 "$dir"/r4 "$dir"/r5 "$dir"/r6 > "$dir/out" 2>&1 || fail "pool.sh of 6 runs failed"
expect '^weak scaling, 6 runs pooled'
expect "^1 +each run's median +6 runs: median 0.960, 95% interval 0.960-0.960: met$"
expect "^2 +each run's median +6 runs: median 0.820, 95% interval 0.820-0.820: missed$"
# p = 3: 18 rounds, the 5th and 14th smallest 0.950 and 0.952 (the rounds'
# interval meets it), but run 6's median is 0.85
expect '^3 +2-rank run +18 rounds: median 0.950, 95% interval 0.950-0.952, 16 of 18 at or above 0.9$'
expect "^3 +each run's median +6 runs: median 0.950, 95% interval 0.850-0.950: undecided$"
expect "^4 +each run's median +6 runs: median 0.900, 95% interval 0.900-0.900: undecided$"
# p = 5: every run's median 0.86, but the rounds' interval (0.85-0.99)
# holds the target: undecided, not missed
expect '^5 +2-rank run +18 rounds: median 0.860, 95% interval 0.850-0.990, 6 of 18 at or above 0.9$'
expect "^5 +each run's median +6 runs: median 0.860, 95% interval 0.860-0.860: undecided$"

TARGET=0.95 sh "$script" "$dir"/r1 "$dir"/r2 "$dir"/r3 "$dir"/r4 "$dir"/r5 "$dir"/r6 > "$dir/out" 2>&1 || fail "pool.sh TARGET=0.95 failed"
expect '^1 +2-rank run +18 rounds: median 0.960, 95% interval 0.955-0.970, 18 of 18 at or above 0.95$'
expect "^1 +each run's median +6 runs: median 0.960, 95% interval 0.960-0.960: met$"
expect "^4 +each run's median +6 runs: median 0.900, 95% interval 0.900-0.900: missed$"

# 2000 rounds: the 956th and the 1045th (2^-2000 is 0 in doubles)
awk 'BEGIN { printf "1   each round: 2-rank"; for (i = 1; i <= 2000; i++) printf " %.4f", i / 1000
             printf "; the pair"; for (i = 1; i <= 2000; i++) printf " 1"; printf "\n" }' > "$dir/big"
sh "$script" "$dir/big" > "$dir/out" 2>&1 || fail "pool.sh of 2000 rounds failed"
expect '^1 +2-rank run +2000 rounds: median 1.000, 95% interval 0.956-1.045, '

# refused, each by name
refused '^usage: sh bench/pool.sh OUTPUT'
echo "frx: 2 steps to step 2" > "$dir/c"
refused "bench/pool.sh: $dir/c: no \"each round\" line" "$dir/a" "$dir/c"
refused "bench/pool.sh: $dir/missing: cannot read it" "$dir/missing"
refused "bench/pool.sh: $dir/a: given twice" "$dir/a" "$dir/b" "$dir/a"
cp "$dir/a" "$dir/a-copy"
refused "bench/pool.sh: $dir/a-copy: given twice \\(or a copy" "$dir/a" "$dir/a-copy"
echo "1   each round: 2-rank 0.9 x 1.0; the pair 1 1 1" > "$dir/d"
refused "bench/pool.sh: $dir/d:1: \"x\" is not a positive number" "$dir/d"
echo "1   each round: 2-rank 0.9 0.8; the pair 1 0" > "$dir/e"
refused "bench/pool.sh: $dir/e:1: \"0\" is not a positive number" "$dir/e"
echo "1   each round: 2-rank; the pair 1 1" > "$dir/f"
refused "bench/pool.sh: $dir/f:1: no 2-rank rounds" "$dir/f"

# the machine and the commit: outputs without them are pooled, and said;
# two machines are refused, naming both; two commits are pooled, and said
sh "$script" "$dir/a" "$dir/b" > "$dir/out" 2>&1 || fail "pool.sh failed"
expect "^bench/pool.sh: $dir/b: no machine line \\(an older bench/solver.sh\\)"
for k in 1 2 3; do
    m="Xeon"; [ "$k" = 3 ] && m="EPYC"
    c="abc1234"; [ "$k" = 2 ] && c="def5678"
    { echo "machine: $m, 2 cores, last-level cache 273 MB"
      echo "code: commit $c"
      echo "1   each round: 2-rank 0.9$k 0.95; the pair 1 1"; } > "$dir/m$k"
done
sh "$script" "$dir/m1" "$dir/m2" > "$dir/out" 2>&1 || fail "pool.sh of one machine, two commits failed"
expect "^bench/pool.sh: $dir/m2: another commit than $dir/m1's \\(commit def5678 against commit abc1234\\)"
expect '^1 +2-rank run +4 rounds'
grep -q "no machine line" "$dir/out" && fail "a machine line not seen"
refused "bench/pool.sh: $dir/m3: another machine than $dir/m1's \\('EPYC, 2 cores, last-level cache 273 MB' against 'Xeon, 2 cores, last-level cache 273 MB'\\): pool the runs of one machine only" "$dir/m1" "$dir/m2" "$dir/m3"
echo "bench-pool.sh: ok"
