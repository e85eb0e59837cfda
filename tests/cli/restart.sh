#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# restart.sh MPIEXEC FRX NP1 NP2 SCHEME N: the ODE fixture on a box mesh
# for 2N steps on NP1 ranks, and for N steps on NP1 ranks, a checkpoint,
# then N more steps restarted on NP2 ranks: both checkpoints at step 2N
# must hold the same bits (solution, time, dt, controller state, RHS
# count). Runs in a folder of its own; needs h5diff and h5dump
# (hdf5-tools).
set -eu
mpiexec=$1 frx=$2 np1=$3 np2=$4 scheme=$5 n=$6
if ! command -v h5diff > /dev/null || ! command -v h5dump > /dev/null; then
    echo "SKIP: h5diff and h5dump are needed (Debian: hdf5-tools)"
    exit 77
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-restart.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
write_case() { # name steps
    cat > "$1.yaml" <<END
backend: {name: openmp, precision: double}
mesh: {type: box, n: [7, 5], etype: tri}
solver: {name: ode, points: 3}
time: {scheme: $scheme, steps: $2, dt: 0.1}
progress: {mode: off}
checkpoint: {interval: $2, file: "$1-{step}.h5"}
END
}
two=$((2 * n))
write_case full "$two"
write_case half "$n"
write_case rest "$two"
"$mpiexec" -n "$np1" "$frx" run full.yaml
"$mpiexec" -n "$np1" "$frx" run half.yaml
"$mpiexec" -n "$np2" "$frx" run rest.yaml \
    --restart "$(printf 'half-%08d.h5' "$n")"
a=$(printf 'full-%08d.h5' "$two") b=$(printf 'rest-%08d.h5' "$two")
if ! h5diff "$a" "$b" /solution /solution; then
    echo "restart.sh: the solutions at step $two differ" >&2
    exit 1
fi
for attr in t dt step nrhs ctrl; do
    x=$(h5dump -a "/$attr" "$a" | grep '(0)')
    y=$(h5dump -a "/$attr" "$b" | grep '(0)')
    if [ "$x" != "$y" ]; then
        echo "restart.sh: attribute $attr differs: $x vs $y" >&2
        exit 1
    fi
done
echo "restart.sh: $scheme: $two steps on $np1 rank(s) give the bits of" \
    "$n, a restart and $n more on $np2"
