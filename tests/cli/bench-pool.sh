#!/bin/sh
# bench-pool.sh SCRIPT: bench/pool.sh on outputs of bench/solver.sh made
# up here, whose medians and intervals are known: rounds of one p split
# over two files are pooled; the verdict is "met" where the 95% interval
# (for 9 rounds the 2nd and 8th smallest, for 8 the least and the
# largest) lies at or above 0.9, "missed" where it lies below,
# "undecided" where it holds 0.9; too few rounds for an interval are
# said; a file that is no such output is refused by name.
set -eu
script=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-bench-pool.XXXXXX")
trap 'rm -rf "$dir"' EXIT

fail() { echo "bench-pool.sh: $*" >&2; cat "$dir/out" >&2; exit 1; }

# the lines of bench/solver.sh that pool.sh reads, and some it skips
cat > "$dir/a" <<'END'
p   run              ns/DOF/RHS   GB/s model   x triad
1   weak scaling   efficiency 0.990 (median of 5 rounds, 0.950-1.030; of the least walls 0.97; target 0.9; bandwidth bound here 0.95)
1                  each round: 2-rank 1.030 0.950 1.010 0.970 0.990; the pair 1.000 1.000 1.000 1.000 1.000
2                  each round: 2-rank 0.800 0.880 0.820 0.860 0.840 0.810 0.870 0.830 0.850; the pair 1.000 1.000 1.000 1.000 1.000 1.000 1.000 1.000 0.850
3                  each round: 2-rank 0.880 0.920 0.860 0.940 0.900 0.870 0.930 0.890 0.910; the pair 0.900 0.900 0.900 0.900 0.900 0.900 0.900 0.900 0.900
4                  each round: 2-rank 0.950 0.960 0.970; the pair 1.000 1.000 1.000
5                  each round: 2-rank 0.950 0.910 0.970 0.930 0.990 0.920 0.980 0.940; the pair 1.000 1.000 1.000 1.000 1.000 1.000 1.000 1.000
6                  each round: 2-rank 0.950 0.910 0.970 0.930 0.990; the pair 1.000 1.000 1.000 1.000 1.000
END
cat > "$dir/b" <<'END'
1                  each round: 2-rank 0.960 1.020 0.980 1.000; the pair 1.000 1.000 1.000 1.000
END

sh "$script" "$dir/a" "$dir/b" > "$dir/out" 2>&1 || fail "pool.sh failed"
expect() { grep -Eq "$1" "$dir/out" || fail "no line /$1/"; }
expect '^weak scaling, 2 runs pooled \(target 0.9\)$'
# p = 1: 0.95..1.03 by 0.01 over the two files: median 0.99, 2nd and
# 8th smallest 0.96 and 1.02
expect '^1 +2-rank run +9 rounds: median 0.990, 95% interval 0.960-1.020, 9 of 9 at or above 0.9: met$'
expect '^1 +the pair +9 rounds: median 1.000, 95% interval 1.000-1.000, 9 of 9 at or above 0.9$'
expect '^1 +2-rank over the pair +9 rounds: median 0.990, 95% interval 0.960-1.020'
# p = 2: 0.80..0.88: missed; round 9 over its pair of 0.85 is 1.0
expect '^2 +2-rank run +9 rounds: median 0.840, 95% interval 0.810-0.870, 0 of 9 at or above 0.9: missed$'
expect '^2 +2-rank over the pair +9 rounds: median 0.840, 95% interval 0.810-0.880'
# p = 3: 0.86..0.94: the interval holds 0.9
expect '^3 +2-rank run +9 rounds: median 0.900, 95% interval 0.870-0.930, 5 of 9 at or above 0.9: undecided$'
# p = 4 and 6: 3 and 5 rounds give no 95% interval; p = 5: 8 rounds
# give the least and the largest (P(Binomial(8, 1/2) < 2) is 0.035)
expect '^4 +2-rank run +3 rounds: median 0.960 \(too few rounds for a 95% interval\)$'
expect '^5 +2-rank run +8 rounds: median 0.945, 95% interval 0.910-0.990, 8 of 8 at or above 0.9: met$'
expect '^6 +2-rank run +5 rounds: median 0.950 \(too few rounds for a 95% interval\)$'

TARGET=0.95 sh "$script" "$dir/a" "$dir/b" > "$dir/out" 2>&1 || fail "pool.sh TARGET=0.95 failed"
expect '^1 +2-rank run +9 rounds: median 0.990, 95% interval 0.960-1.020, 9 of 9 at or above 0.95: met$'
expect '^3 +2-rank run +9 rounds: median 0.900, 95% interval 0.870-0.930, 0 of 9 at or above 0.95: missed$'

# refused: no file, and a file that is not bench/solver.sh's output
if sh "$script" > "$dir/out" 2>&1; then fail "no file was accepted"; fi
expect '^usage: sh bench/pool.sh OUTPUT'
echo "frx: 2 steps to step 2" > "$dir/c"
if sh "$script" "$dir/a" "$dir/c" > "$dir/out" 2>&1; then fail "a file that is no output of bench/solver.sh was accepted"; fi
expect "bench/pool.sh: $dir/c: no \"each round\" line"
if sh "$script" "$dir/missing" > "$dir/out" 2>&1; then fail "a missing file was accepted"; fi
expect "bench/pool.sh: $dir/missing: cannot read it"
echo "bench-pool.sh: ok"
