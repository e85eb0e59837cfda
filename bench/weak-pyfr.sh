#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench/weak-pyfr.sh [BUILD] [N]: 2-rank weak scaling of frx beside
# PyFR 1.15's, on the same machine in the same minutes, for the Euler
# equations (Rusanov flux, rk4, Gauss-Legendre points on quadrilaterals,
# double precision, 1 thread a rank) on the same Gmsh meshes:
#
#   1 rank on N x N/2 elements against 2 ranks on N x N (each its own
#   METIS partition), round by round: PyFR 1 rank, PyFR 2 ranks, frx 1
#   rank, frx 2 ranks; each code's efficiency (its 1-rank time per RHS
#   over its 2-rank time, the work per rank being the same), the median
#   and range of the rounds, and frx's median over PyFR's.
#
# Where both codes move memory faster than two cores of the machine can
# share, neither reaches 1: PyFR's efficiency is what a mature FR code
# gets here, the reference for frx's (bench/solver.sh's target is 0.9).
# It also prints each code's time per DOF per RHS (the least of the
# rounds) and their ratio.
#
# PYFR_WORK (default $TMPDIR/frx-pyfr, as bench/euler-vortex.sh): where
# ../shared/pyfr/run.sh installed PyFR (venv/ and libxsmm.so); run that
# first. ORDERS (default "1 2 3 4"), ROUNDS (5), STEPS (10, after 3
# untimed ones in PyFR) and DOFS_PER_RANK (6.4 million: N is the least
# multiple of 32 that gives each rank that many) as in bench/solver.sh;
# an N given fixes it for every p.
#   sh bench/weak-pyfr.sh build
set -u
build=${1:-build} fixed_n=${2:-} pyfr=${PYFR_WORK:-${TMPDIR:-/tmp}/frx-pyfr}
steps=${STEPS:-10} rounds=${ROUNDS:-5} dofs_per_rank=${DOFS_PER_RANK:-6400000}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/frx-output.sh"
[ -x "$build/bin/frx" ] || { echo "bench/weak-pyfr.sh: no $build/bin/frx: build frx first" >&2; exit 1; }
frx=$(cd "$build" && pwd)/bin/frx   # the runs are in a folder of their own
pyfr=$(cd "$pyfr" 2>/dev/null && pwd || echo "$pyfr")
pyfr_setup bench/weak-pyfr.sh "$pyfr"
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-weak-pyfr.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1

# The same flow for both (frx-output.sh)
euler_ini 1e-4 > case.ini

# frx_case MESH P: frx's case for MESH at order P, its path
frx_case() {
    euler_case "$1" "$2" 1 "$steps" 1e-4 > "$1-p$2.yaml"
    echo "$1-p$2.yaml"
}

# refuse WHAT OUTPUT: say what failed, with its output; exit 1
refuse() {
    echo "$2" >&2
    echo "bench/weak-pyfr.sh: $1" >&2
    exit 1
}

# pyfr_rhs NP MESH P, frx_rhs NP CASE: "seconds_per_rhs dofs"
pyfr_rhs() {
    out=$(mpirun -np "$1" --bind-to core -x PYFR_XSMM_LIBRARY_PATH \
          -x XDG_CACHE_HOME -x OMP_NUM_THREADS "$py/python" \
          "$here/pyfr_rhs.py" "$2" case.ini "$3" "$steps" 2>&1) ||
        refuse "PyFR on $1 rank(s) failed" "$out"
    echo "$out" | awk 'NF == 2 && $1 + 0 > 0 { r = $0 } END { if (r == "") exit 1; print r }' ||
        refuse "no time per RHS in PyFR's output above" "$out"
}
frx_rhs() {
    out=$(mpirun -np "$1" --bind-to core "$frx" run "$2" 2>&1) ||
        refuse "frx on $1 rank(s) failed" "$out"
    res=$(echo "$out" | frx_summary) ||
        refuse "no wall time, DOFs or RHS count in frx's output above (a run too short shows 0 s: raise STEPS)" "$out"
    echo "$res" | awk '{ printf "%.6e %s\n", $1 / $3, $2 }'
}

echo "2-rank weak scaling, Euler (Rusanov, rk4), 1 thread a rank; each round: PyFR 1 rank, PyFR 2 ranks, frx 1 rank, frx 2 ranks"
for p in ${ORDERS:-1 2 3 4}; do
    n=$fixed_n
    [ -n "$n" ] || n=$(mesh_n "$p" "$dofs_per_rank")
    h=$((n / 2))
    box "$n" "$h" half.msh
    box "$n" "$n" full.msh
    out=$("$py/pyfr" import half.msh half.pyfrm 2>&1 &&
          "$py/pyfr" import full.msh full.pyfrm 2>&1 &&
          rm -rf part && mkdir part &&
          "$py/pyfr" partition 2 full.pyfrm part 2>&1) ||
        refuse "PyFR could not import or partition the meshes" "$out"
    fh=$(frx_case half "$p") ff=$(frx_case full "$p")
    : > times
    r=0
    while [ "$r" -lt "$rounds" ]; do
        # the runs in turn, so that a slow minute does not fall on one
        # code only (a refusal inside $(...) ends only it: hence || exit)
        p1=$(pyfr_rhs 1 half.pyfrm "$p") || exit 1
        p2=$(pyfr_rhs 2 part/full.pyfrm "$p") || exit 1
        f1=$(frx_rhs 1 "$fh") || exit 1
        f2=$(frx_rhs 2 "$ff") || exit 1
        echo "pyfr1 $p1 pyfr2 $p2 frx1 $f1 frx2 $f2" >> times
        r=$((r + 1))
    done
    awk -v p="$p" -v n="$n" '
        function sorted(x, k, s,    i, j) {
            for (i = 0; i < k; i++) {
                for (j = i; j > 0 && s[j - 1] > x[i]; j--) s[j] = s[j - 1]
                s[j] = x[i]
            }
        }
        function median(s, k) {
            return k % 2 ? s[(k - 1) / 2] : (s[k / 2 - 1] + s[k / 2]) / 2
        }
        { ep[NR - 1] = $2 / $5; ef[NR - 1] = $8 / $11
          # least time per DOF per RHS of each run
          t = $2 / $3; if (NR == 1 || t < tp1) tp1 = t
          t = $5 / $6; if (NR == 1 || t < tp2) tp2 = t
          t = $8 / $9; if (NR == 1 || t < tf1) tf1 = t
          t = $11 / $12; if (NR == 1 || t < tf2) tf2 = t
          line = line sprintf(" %.3f/%.3f", ef[NR - 1], ep[NR - 1]) }
        END {
            k = NR; sorted(ep, k, sp); sorted(ef, k, sf)
            printf "p = %d, %d x %d elements (%d x %d on 1 rank), %d rounds\n", p, n, n, n, n / 2, k
            printf "  ns/DOF/RHS, the least of the rounds: 1 rank PyFR %.3f, frx %.3f (frx %.2fx as fast); 2 ranks PyFR %.3f, frx %.3f\n",
                   tp1 * 1e9, tf1 * 1e9, tp1 / tf1, tp2 * 1e9, tf2 * 1e9
            printf "  weak scaling: frx %.3f (median, %.3f-%.3f), PyFR %.3f (median, %.3f-%.3f); frx over PyFR %.3f\n",
                   median(sf, k), sf[0], sf[k - 1], median(sp, k), sp[0],
                   sp[k - 1], median(sf, k) / median(sp, k)
            printf "  each round, frx/PyFR:%s\n", line }' times
done
