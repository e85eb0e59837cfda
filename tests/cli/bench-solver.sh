#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench-solver.sh SCRIPT BUILD: bench/solver.sh on a small mesh (p = 1,
# 96 x 96, 2 rounds of 40 steps: runs of tens of milliseconds, which frx
# prints to the microsecond; 16 MB triad arrays), so that the
# benchmark keeps reading frx's output: every row it prints has its
# numbers, finite and positive; it starts with the machine and the
# commit; the weak-scaling line has 2 rounds; the
# profiled run has shares for products, interface kernels, exchange and
# integration, and a busy ratio of at least 1. Its timings mean nothing
# at this size.
set -eu
script=$1 build=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-bench-solver.XXXXXX")
trap 'rm -rf "$dir"' EXIT
out=$dir/out

fail() { echo "bench-solver.sh: $*" >&2; cat "$out" >&2; exit 1; }

ORDERS=1 ROUNDS=2 STEPS=40 TRIAD_MB=16 sh "$script" "$build" 96 > "$out" 2>&1 ||
    fail "bench/solver.sh failed"

# a positive, finite number
num='[0-9]+(\.[0-9]+)?'
# the machine and the commit first, for bench/pool.sh (the source tree
# is a git checkout or not: a commit or "unknown")
grep -Eq "^machine: .+, [0-9]+ cores, last-level cache [0-9]+ MB$" "$out" ||
    fail "no machine line"
grep -Eq "^code: commit ([0-9a-f]{7,}( with uncommitted changes)?|unknown \(not a git checkout\))$" "$out" ||
    fail "no code line"
grep -Eq "^1 +STREAM triad, the best of 2 rounds: $num GB/s \(2 threads\), $num GB/s \(1 thread\)$" "$out" ||
    fail "no triad line"
for run in 1x2 2x1 1x1-half; do
    grep -Eq "^1 +$run +$num +$num +$num$" "$out" || fail "no row for $run"
done
grep -Eq "^1 +weak scaling +efficiency $num \(median of 2 rounds, $num-$num; of the least walls $num; target 0.9; bandwidth bound here $num\)$" "$out" ||
    fail "no weak-scaling line"
grep -Eq "^1 +two independent 1-rank runs at once: $num \(median, $num-$num\); the 2-rank run over them: $num" "$out" ||
    fail "no line for the pair"
grep -Eq "^1 +each round: 2-rank $num $num; the pair $num $num$" "$out" ||
    fail "not two rounds in the round-by-round line"
# bench/pool.sh reads the output (2 rounds: no interval, said so)
sh "$(dirname "$script")/pool.sh" "$out" > "$dir/pool" 2>&1 ||
    { cat "$dir/pool" >> "$out"; fail "bench/pool.sh refused the output"; }
grep -Eq "^1 +2-rank run +2 rounds: median $num, too few rounds for a 95% interval, [0-2] of 2 at or above 0.9$" "$dir/pool" ||
    { cat "$dir/pool" >> "$out"; fail "bench/pool.sh did not read the rounds"; }
# the mesh against the last-level cache: N given, so only said
if [ -n "$(. "$(dirname "$script")/frx-output.sh" && llc_bytes)" ]; then
    grep -Eq "^    a rank's arrays: about $num MB against a $num MB last-level cache \($num times\)$" "$out" ||
        fail "no line comparing a rank's arrays with the last-level cache"
fi
# no zero where a time or a rate belongs (a wall time of 0 would give
# inf; an empty one is refused by the script itself)
if grep -Eiqw 'nan|inf' "$out"; then fail "a NaN or Inf in the output"; fi

shares=$(grep '^ *shares (2x1, profiled):' "$out") || fail "no shares line"
for group in products "interface kernels" exchange integration; do
    v=$(echo "$shares" | sed -n "s/.*$group \([0-9.]*\)%.*/\1/p")
    [ -n "$v" ] || fail "no share for $group"
    awk -v v="$v" 'BEGIN { exit !(v > 0) }' || fail "$group: share $v%, not > 0"
done
ratio=$(sed -n 's/^ *busy time of the busier rank over the other (2x1, profiled): //p' "$out")
awk -v r="$ratio" 'BEGIN { exit !(r >= 1 && r < 100) }' ||
    fail "busy ratio '$ratio' is not a number >= 1"

# an frx whose output lacks the wall time, or says 0 s, is refused
mkdir "$dir/fake" "$dir/fake/bin" "$dir/fake/bench"
cp "$build/bench/triad" "$dir/fake/bench/"
cat > "$dir/fake/bin/frx" <<'END'
#!/bin/sh
echo "frx: 2 steps to step 2"
END
chmod +x "$dir/fake/bin/frx"
if ORDERS=1 ROUNDS=1 STEPS=1 TRIAD_MB=16 sh "$script" "$dir/fake" 32 > "$dir/fake.out" 2>&1; then
    cp "$dir/fake.out" "$out"; fail "an frx without a wall time was accepted"
fi
grep -q "bench/solver.sh: no wall time, DOFs or RHS count" "$dir/fake.out" ||
    { cp "$dir/fake.out" "$out"; fail "the refusal does not say why"; }
cat > "$dir/fake/bin/frx" <<'END'
#!/bin/sh
echo "frx: 2 steps to step 2, t = 2e-05, in 0.000 s"
echo "frx: 8192 DOFs, 8 RHS evaluations: 1 RHS evaluations/s"
END
if ORDERS=1 ROUNDS=1 STEPS=1 TRIAD_MB=16 sh "$script" "$dir/fake" 32 > "$dir/fake.out" 2>&1; then
    cp "$dir/fake.out" "$out"; fail "a wall time of 0 s was accepted"
fi
grep -q "raise STEPS or N" "$dir/fake.out" ||
    { cp "$dir/fake.out" "$out"; fail "the refusal of 0 s does not say what to do"; }
# a default mesh (no N) under twice the last-level cache is refused
if [ -n "$(. "$(dirname "$script")/frx-output.sh" && llc_bytes)" ]; then
    if ORDERS=1 ROUNDS=1 STEPS=1 TRIAD_MB=16 DOFS_PER_RANK=1000 sh "$script" "$dir/fake" > "$dir/fake.out" 2>&1; then
        cp "$dir/fake.out" "$out"; fail "a mesh in cache was accepted"
    fi
    grep -q "under twice the last-level cache: raise DOFS_PER_RANK" "$dir/fake.out" ||
        { cp "$dir/fake.out" "$out"; fail "the refusal of a mesh in cache does not say what to do"; }
fi
echo "bench-solver.sh: ok"
