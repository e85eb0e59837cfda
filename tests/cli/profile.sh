#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# profile.sh MPIEXEC FRX: `profile: true` on the lee solver, 2 ranks x 1
# thread and 1 rank x 2 threads: the same L2 errors as without it (to the
# last digit printed), and a table whose rows add up: the interface and
# flux kernels once per RHS evaluation on every rank, products, packs and
# MPI waits (2 ranks), frx's time-integration kernels, shares below 100%,
# and (2 ranks) the busiest and idlest rank's busy time.
set -eu
mpiexec=$1 frx=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-profile.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
export TMPDIR="$dir"

case_file() { # profile threads
    cat <<END
backend: {name: openmp, precision: double, openmp: {threads: $2}}
solver:
  name: lee
  order: 2
  baseflow: {rho: 1, u: 0.5, v: 0.25, p: 0.714285714285714}
  waves: [{type: acoustic, amplitude: 1e-3, modes: [1, 1]}]
mesh: {type: box, n: [8, 8], periodic: [true, true]}
time: {scheme: rk4, steps: 10, dt: 1e-3}
progress: {mode: off}
profile: $1
END
}

fail() { echo "profile.sh: $*" >&2; cat "$dir/out" >&2; exit 1; }

for layout in 2x1 1x2; do
    np=${layout%x*} th=${layout#*x}
    case_file false "$th" > plain.yaml
    case_file true "$th" > prof.yaml
    "$mpiexec" -np "$np" --oversubscribe "$frx" run plain.yaml > plain.out 2>&1 ||
        { cp plain.out out; fail "$layout: the run without profile failed"; }
    "$mpiexec" -np "$np" --oversubscribe "$frx" run prof.yaml > out 2>&1 ||
        fail "$layout: the profiled run failed"
    want=$(grep '^frx: L2 error' plain.out)
    got=$(grep '^frx: L2 error' out)
    [ -n "$want" ] && [ "$got" = "$want" ] ||
        fail "$layout: L2 errors differ: '$got' against '$want'"
    grep -q '^frx: profile: seconds summed over '"$np"' rank' out ||
        fail "$layout: no profile header"
    # 10 rk4 steps: 40 RHS evaluations on each rank
    calls=$((40 * np))
    for k in tflux intflux negdivconf; do
        n=$(awk -v k="lee.$k" '$1 == "frx:" && $6 ~ "^" k { print $4 }' out)
        [ "$n" = "$calls" ] ||
            fail "$layout: kernel lee.$k ran '$n' times, not $calls"
    done
    awk '$1 == "frx:" && $5 == "product" { n++ } END { exit !(n >= 2) }' out ||
        fail "$layout: fewer than two product rows"
    awk '$1 == "frx:" && $5 == "kernel" && $6 ~ /^frx\.axnpby/ { n++ }
         END { exit !(n >= 1) }' out ||
        fail "$layout: no time-integration kernel row"
    if [ "$np" = 2 ]; then
        for k in "pack pack" "MPI MPI wait"; do
            set -- $k
            awk -v k="$1" '$1 == "frx:" && $5 == k && $4 > 0 { f = 1 }
                           END { exit !f }' out ||
                fail "$layout: no $1 row"
        done
        awk '$1 == "frx:" && $2 == "busy" && $11 == "max" && $16 == "min" &&
             $21 == "max/min" && $22 >= 1 && $12 >= $17 && $17 > 0 { f = 1 }
             END { exit !f }' out ||
            fail "$layout: no busy-time line, or max below min"
    fi
    awk '$1 == "frx:" && $2 ~ /%$/ { s += $2 + 0 } END { exit !(s > 0 && s <= 100.5) }' out ||
        fail "$layout: the shares do not add up to at most 100%"
    grep -q '^frx:   by kind: kernels [0-9.]*% (of which frx.s own, the time integration and checks: [0-9.]*%), products [0-9.]*%, exchange (pack, unpack, MPI) [0-9.]*%, host [0-9.]*%, outside the timed nodes [0-9.-]*%$' out ||
        fail "$layout: no by-kind line"
done
echo "profile.sh: profiles on 2x1 and 1x2 agree with plain runs"
