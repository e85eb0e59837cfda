#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench/analysis.sh [BUILD] [ROUNDS] [NP]: what frx's analysis plugins
# cost. config/euler-vortex.yaml (PyFR's mesh, p = 3, openmp, double,
# 4000 steps) run with no extension and with residual + integrate (4
# integrals) + sampler (100 points, every field) + tavg (3 averages and
# their fluctuations, written at the end) at every: 10, in
# interleaved rounds (default 5) on NP ranks (default 2, one thread
# each); the medians of the wall times of the time loops, and the
# overhead (with / without - 1) against the target of 5%.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
rounds=${2:-5}
np=${3:-2}
. "$here/frx-output.sh"
frx=$build/bin/frx
[ -x "$frx" ] || { echo "analysis.sh: no $frx: build first" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/frx-bench-analysis.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cp "$here/../config/meshes/euler-vortex.msh" .
sed -e '/^extensions:/,$d' -e 's|file: meshes/euler-vortex.msh|file: euler-vortex.msh|' \
    -e 's/^  t-end: 1$/  steps: 4000/' -e 's/^  mode: lines$/  mode: off/' \
    "$here/../config/euler-vortex.yaml" > plain.yaml
grep -q "steps: 4000" plain.yaml || { echo "analysis.sh: config/euler-vortex.yaml changed: fix the sed" >&2; exit 1; }
awk 'BEGIN { for (i = 0; i < 10; i++) for (j = 0; j < 10; j++)
    printf "%.2f,%.2f\n", -9.63 + 2 * i, -9.41 + 2 * j }' > points.txt
cp plain.yaml with.yaml
cat >> with.yaml <<'YAML'
extensions:
  - {name: residual, every: 10, file: r.csv}
  - name: integrate
    every: 10
    file: i.csv
    exprs: {mass: rho, xmom: rhou, ymom: rhov, energy: E}
  - {name: sampler, every: 10, file: s.csv, points-file: points.txt}
  - {name: tavg, every: 10, exprs: {p: p, rhou: rho*u, uu: u*u},
     fluctuations: true}
YAML
export OMP_NUM_THREADS=1
run() {
    mpirun -n "$np" "$frx" run "$1" 2>&1 | frx_summary | cut -d ' ' -f 1
}
run plain.yaml > /dev/null   # kernels compiled and cached
run with.yaml > /dev/null
[ "$(wc -l < s.csv)" = 402 ] || { echo "analysis.sh: the sampler wrote $(wc -l < s.csv) lines, not 402" >&2; exit 1; }
: > plain.txt
: > with.txt
r=0
while [ "$r" -lt "$rounds" ]; do
    run plain.yaml >> plain.txt
    run with.yaml >> with.txt
    r=$((r + 1))
done
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
a=$(median plain.txt)
b=$(median with.txt)
echo "analysis.sh: $(uname -n), $(getconf _NPROCESSORS_ONLN) cores, $np rank(s) x 1 thread, $rounds rounds"
echo "    without extensions: $a s (median wall of the time loop)"
echo "    with residual + integrate + sampler(100) + tavg at every 10: $b s"
awk -v a="$a" -v b="$b" 'BEGIN { o = b / a - 1
    printf "    overhead: %.1f%% (target < 5%%: %s)\n", 100 * o, o < 0.05 ? "met" : "not met" }'
