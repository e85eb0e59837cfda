#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench/vs-pyfr.sh [BUILD]: frx beside PyFR 1.15 on the same periodic
# meshes in the same minutes, for the Euler equations (Rusanov flux,
# rk4, Gauss-Legendre points on quadrilaterals, double precision; a
# uniform flow with a small density wave; dt 2^-13, which sums without
# round-off), in ns per DOF per RHS, on 1
# rank x 2 threads and on 2 ranks x 1 thread. Each round runs, in turn,
# PyFR 1x2, PyFR 2x1, frx 1x2, frx 2x1; the table gives each code's
# median over the rounds and the median of the rounds' ratios frx/PyFR
# (below 1: frx faster; issue 44's target is 0.9). A benchmark, not a
# test. SYSTEM=navier-stokes: the same with the viscous terms (the
# navier-stokes solvers of both; issue 42's target is 1.0).
#
# FRX_BENCH_OPENMP: more of frx's backend.openmp options ("parts: 1":
# matrices in one part, the layout before issue 44's parts).
# SIZES (default "20 80 160": N x N elements), ORDERS ("1 2 3 4"),
# ROUNDS (5); each run's steps give it about 2e8 DOF-updates (at least
# 10 timed steps); PyFR's first 3 steps and frx's first 3 are left out
# (kernels compiled, memory first touched). PYFR_WORK (default
# $TMPDIR/frx-pyfr): where ../shared/pyfr/run.sh installed PyFR (run it
# once first).
#   sh bench/vs-pyfr.sh build
set -u
build=${1:-build} rounds=${ROUNDS:-5}
pyfr=${PYFR_WORK:-${TMPDIR:-/tmp}/frx-pyfr}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/frx-output.sh"
[ -x "$build/bin/frx" ] || { echo "bench/vs-pyfr.sh: no $build/bin/frx: build frx first" >&2; exit 1; }
frx=$(cd "$build" && pwd)/bin/frx
pyfr=$(cd "$pyfr" 2>/dev/null && pwd || echo "$pyfr")
pyfr_setup bench/vs-pyfr.sh "$pyfr"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-vs-pyfr.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
export FRX_CACHE_DIR=$dir/cache

dt=0.0001220703125 # 2^-13
euler_ini $dt > case.ini

fail() { echo "bench/vs-pyfr.sh: $1" >&2; [ -n "${2:-}" ] && echo "$2" >&2; exit 1; }

# frx_case MESH P THREADS STEPS: the case file's name
frx_case() {
    f=$1-p$2-t$3-s$4.yaml
    euler_case "$1" "$2" "$3" "$4" $dt > "$f"
    echo "$f"
}

# bind NP: one rank takes both cores for its threads; two ranks a core
# each (unbound, PyFR's ranks wait 10 ms a step on each other here)
bind() { [ "$1" = 1 ] && echo none || echo core; }

# pyfr_ns NP THREADS MESH P STEPS; frx_ns NP THREADS MESH P STEPS:
# ns per DOF per RHS
pyfr_ns() {
    out=$(OMP_NUM_THREADS=$2 mpirun -np "$1" --bind-to "$(bind "$1")" \
          -x PYFR_XSMM_LIBRARY_PATH -x XDG_CACHE_HOME -x OMP_NUM_THREADS \
          "$py/python" "$here/pyfr_rhs.py" "$3" case.ini "$4" "$5" 2>&1) ||
        fail "PyFR failed" "$out"
    echo "$out" | awk 'NF == 2 && $1 + 0 > 0 { r = $1 / $2 * 1e9 }
                       END { if (r == "") exit 1; printf "%.4f\n", r }' ||
        fail "no time per RHS in PyFR's output" "$out"
}
frx_ns() {
    # the run of 3 steps first (kernels compiled and cached, memory
    # touched), then 3 + STEPS: the difference is STEPS steps' time
    w=$(frx_case "$3" "$4" "$2" 3) f=$(frx_case "$3" "$4" "$2" $((3 + $5)))
    for c in "$w" "$w" "$f"; do
        out=$(OMP_NUM_THREADS=$2 mpirun -np "$1" --bind-to "$(bind "$1")" \
              "$frx" run "$c" 2>&1) ||
            fail "frx failed" "$out"
        echo "$out" | frx_summary > "t-$c" || fail "no summary in frx's output" "$out"
    done
    cat "t-$w" "t-$f" | awk 'NR == 1 { w = $1; r = $3 }
        NR == 2 { printf "%.4f\n", ($1 - w) / ($2 * ($3 - r)) * 1e9 }'
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
    END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "frx and PyFR 1.15, ${SYSTEM:-euler}, ns per DOF per RHS: medians of $rounds interleaved rounds"
echo "machine: $(getconf _NPROCESSORS_ONLN) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%Y-%m-%d)"
printf '%-8s %-2s %9s %9s %9s %9s %9s %9s\n' mesh p "PyFR 1x2" "frx 1x2" "ratio" \
    "PyFR 2x1" "frx 2x1" "ratio"
for n in ${SIZES:-20 80 160}; do
    m=box$n
    box "$n" "$n" $m.msh
    out=$("$py/pyfr" import $m.msh $m.pyfrm 2>&1 && rm -rf part$n && mkdir part$n &&
          "$py/pyfr" partition 2 $m.pyfrm part$n 2>&1) ||
        fail "PyFR could not import or partition the mesh" "$out"
    for p in ${ORDERS:-1 2 3 4}; do
        dofs=$((n * n * (p + 1) * (p + 1) * 4))
        steps=$((200000000 / (dofs * 4)))
        [ "$steps" -ge 10 ] || steps=10
        a="" b="" c="" d="" ra="" rb="" r=0
        while [ "$r" -lt "$rounds" ]; do
            x=$(pyfr_ns 1 2 $m.pyfrm "$p" "$steps") || exit 1
            y=$(pyfr_ns 2 1 part$n/$m.pyfrm "$p" "$steps") || exit 1
            u=$(frx_ns 1 2 $m "$p" "$steps") || exit 1
            v=$(frx_ns 2 1 $m "$p" "$steps") || exit 1
            a="$a $x" b="$b $y" c="$c $u" d="$d $v"
            ra="$ra $(awk "BEGIN { print $u / $x }")"
            rb="$rb $(awk "BEGIN { print $v / $y }")"
            r=$((r + 1))
        done
        printf '%-8s %-2d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f\n' "${n}x$n" "$p" \
            "$(median $a)" "$(median $c)" "$(median $ra)" \
            "$(median $b)" "$(median $d)" "$(median $rb)"
        echo "  rounds' ratios 1x2:$ra; 2x1:$rb"
    done
done
