#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# output.sh MPIEXEC FRX: the ODE fixture on a box mesh, 25 steps on 2
# ranks with output and checkpoints every 10 steps: VTK files at steps
# 0, 10, 20 and the last, 25, each listed once in the .pvd; a restart
# from step 10 writes 20 and 25 again, and the .pvd still lists each
# step once. Runs in a folder of its own.
set -eu
mpiexec=$1 frx=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-output.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cat > case.yaml <<END
backend: {name: openmp, precision: double}
mesh: {type: box, n: [7, 5]}
solver: {name: ode, points: 3}
time: {scheme: rk4, steps: 25, dt: 0.1}
progress: {mode: off}
output: {interval: 10, dir: out, name: sol}
checkpoint: {interval: 10, file: "ckpt-{step}.h5"}
END
fail() {
    echo "output.sh: $*" >&2
    exit 1
}
check() { # what
    got=$(cd out && ls sol-*.pvtu | tr '\n' ' ')
    want="sol-000000.pvtu sol-000010.pvtu sol-000020.pvtu sol-000025.pvtu "
    [ "$got" = "$want" ] || fail "$1: $got, want $want"
    n=$(grep -c '<DataSet ' out/sol.pvd)
    [ "$n" = 4 ] || fail "$1: $n steps in sol.pvd, want 4: $(cat out/sol.pvd)"
    for s in 000000 000010 000020 000025; do
        [ -f "out/sol/sol-$s-0.vtu" ] && [ -f "out/sol/sol-$s-1.vtu" ] ||
            fail "$1: a piece of step $s is missing"
    done
}
"$mpiexec" -n 2 "$frx" run case.yaml > first.out 2>&1 ||
    { cat first.out; fail "the first run failed"; }
grep -q "sol.pvd is an earlier run's" first.out &&
    fail "a first run was warned of an earlier run's series"
ls ckpt-00000010.h5 ckpt-00000020.h5 ckpt-00000025.h5 > /dev/null
check "a run"
rm out/sol-000020.pvtu out/sol-000025.pvtu
"$mpiexec" -n 2 "$frx" run case.yaml --restart ckpt-00000010.h5 \
    > restart.out 2>&1 || { cat restart.out; fail "the restart failed"; }
grep -q "sol.pvd is an earlier run's" restart.out &&
    fail "a restart, which continues the series, was warned of it"
check "a restart from step 10"
# the case run again from step 0: warned once that the series restarts
"$mpiexec" -n 2 "$frx" run case.yaml > again.out 2>&1 ||
    { cat again.out; fail "the second run failed"; }
[ "$(grep -c "out/sol.pvd is an earlier run's: this run's series replaces it from step 0" again.out)" = 1 ] ||
    { cat again.out; fail "a second run from step 0 was not warned once"; }
check "a second run"
echo "output.sh: outputs and checkpoints at their intervals and the last step"
