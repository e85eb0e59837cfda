#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# ranks-files.sh MPIEXEC FRX: the ODE fixture on 2 ranks where the ranks
# see different files. Each case must stop both ranks with the reason
# (a hang, before, is cut at 60 s and fails), and leave nothing half made:
#   - --restart given to one rank only, and two different checkpoints;
#   - a checkpoint folder made by rank 0 that rank 1 does not see (each
#     rank in a working folder of its own): no .tmp left;
#   - rank 1's VTK piece blocked: rank 0's piece of that step removed.
# Runs in a folder of its own.
set -u
mpiexec=$1 frx=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-ranks-files.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() { echo "ranks-files.sh: $*" >&2; exit 1; }
cat > c.yaml <<END
backend: {name: openmp, precision: double}
mesh: {type: box, n: [7, 5]}
solver: {name: ode, points: 3}
time: {scheme: rk4, steps: 25, dt: 0.1}
progress: {mode: off}
checkpoint: {interval: 10, file: "ck/run-{step}.h5"}
END
# expect OUT PATTERN: the run failed (status in $rc) and said PATTERN
expect() {
    [ "$rc" != 0 ] || { printf '%s\n' "$1"; fail "the run went on"; }
    [ "$rc" != 124 ] || { printf '%s\n' "$1"; fail "the ranks hung"; }
    printf '%s\n' "$1" | grep -Eq -- "$2" ||
        { printf '%s\n' "$1"; fail "no line /$2/"; }
}
timeout 60 "$mpiexec" -n 2 "$frx" run c.yaml > first.out 2>&1 ||
    { cat first.out; fail "the first run failed"; }
ck=ck/run-00000010.h5
out=$(timeout 60 "$mpiexec" -n 1 "$frx" run c.yaml : -n 1 "$frx" run \
    c.yaml --restart "$ck" 2>&1)
rc=$?
expect "$out" "rank 1: this rank restarts from $ck, rank 0 has none: give every rank the same --restart"
out=$(timeout 60 "$mpiexec" -n 1 "$frx" run c.yaml --restart "$ck" : \
    -n 1 "$frx" run c.yaml --restart ck/run-00000020.h5 2>&1)
rc=$?
expect "$out" "rank 1: this rank restarts from ck/run-00000020.h5, rank 0 from $ck"
mkdir w0 w1 && cp c.yaml w0/ && cp c.yaml w1/
out=$(timeout 60 "$mpiexec" -n 1 -wdir "$dir/w0" "$frx" run c.yaml : \
    -n 1 -wdir "$dir/w1" "$frx" run c.yaml 2>&1)
rc=$?
expect "$out" "rank 1: checkpoint: the folder of $ck is not there or not writable on this rank"
left=$(find w0 w1 -name '*.tmp')
[ -z "$left" ] || fail "left behind: $left"
sed 's/^checkpoint:.*/output: {interval: 10, dir: out}/' c.yaml > o.yaml
mkdir -p out/solution/solution-000010-1.vtu
out=$(timeout 60 "$mpiexec" -n 2 "$frx" run o.yaml 2>&1)
rc=$?
expect "$out" "rank 1: cannot rename out/solution/solution-000010-1.vtu.tmp"
[ ! -e out/solution/solution-000010-0.vtu ] ||
    fail "rank 0's piece of the failed step 10 was left"
[ ! -e out/solution-000010.pvtu ] || fail "a .pvtu of step 10 was left"
echo "ranks-files.sh: every rank stopped with the reason; nothing half made"
