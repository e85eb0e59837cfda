#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# picture.sh MPIEXEC FRX TEST_PICTURE: pictures of advection's wave on a
# 2 x 1 box (p = 3, 2 ranks), read back by test_picture (test_picture.c
# says what it checks): output.png at the end and at step 0, and
# `frx plot` of a checkpoint; then the refusals: a variable the solver
# lacks (output.png.var and frx plot --var), a file that is no
# checkpoint, a 3-D mesh.
set -u
mpiexec=$1 frx=$2 check=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-picture.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
export TMPDIR="$dir"
fail() { echo "FAIL: $*"; exit 1; }

cat > wave.yaml <<END
backend: {name: openmp, precision: double}
solver: {name: advection, order: 3, velocity: [1, 0.5]}
mesh: {type: box, n: [12, 6], lower: [0, 0], upper: [2, 1],
       periodic: [true, true]}
time: {scheme: rk4, t-end: 0.25, cfl: 0.5}
output: {dir: out, png: {var: u, width: 400, interval: 1000}}
checkpoint: {interval: 1000, file: out/end.h5}
progress: {mode: off}
END
"$mpiexec" -n 2 "$frx" run wave.yaml > run.txt 2>&1 ||
    { cat run.txt; fail "the run failed"; }
ls out
"$check" out/solution-u.png 1 0.5 2 1 400 || fail "the last step's picture"
"$check" out/solution-u-000000.png 1 0.5 2 1 400 || fail "step 0's picture"

"$frx" plot out/end.h5 --var u --width 300 > plot.txt 2>&1 ||
    { cat plot.txt; fail "frx plot failed"; }
cat plot.txt
grep -q "^frx plot: wrote out/end-u.png$" plot.txt || fail "frx plot's line"
"$check" out/end-u.png 1 0.5 2 1 300 || fail "frx plot's picture"

# refusals, each naming what to do
expect() { # what text... ; runs "$@" after --
    what=$1 text=$2
    shift 2
    if "$@" > bad.txt 2>&1; then
        cat bad.txt
        fail "$what: it ran"
    fi
    grep -q -- "$text" bad.txt || { cat bad.txt; fail "$what: no '$text'"; }
    echo "ok: $what refused"
}
expect "frx plot of a variable advection lacks" \
    "solver 'advection' has no variable 'p'; its variables: u" \
    "$frx" plot out/end.h5 --var p
echo "not a checkpoint" > no.h5
expect "frx plot of a file that is no checkpoint" "cannot open checkpoint no.h5" \
    "$frx" plot no.h5 --var u
expect "frx plot without --var" "no --var" "$frx" plot out/end.h5
sed 's/png: {var: u,/png: {var: rho,/' wave.yaml > badvar.yaml
expect "output.png.var that advection lacks" \
    "badvar.yaml:6:[0-9]*: output.png.var: solver 'advection' has no variable 'rho'" \
    "$frx" run badvar.yaml
[ ! -e out/solution-rho.png ] || fail "a picture of rho was written"
echo "picture.sh: every picture read back; every refusal named"
