#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vtk3d.sh PYTHON MPIEXEC FRX [hex|tet|prism|pyramid]: advection on 5 x 4
# x 3 cubes (hexahedra, 6 tetrahedra, 2 prisms or 6 pyramids each; p =
# 3, 2 ranks) writes
# its VTK output
# at t = 0, and vtk3d.py loads it with VTK's own reader (ParaView's):
# cell types, where each cell's points are, the initial wave there.
# Skipped (77) where PYTHON has no vtk.
set -u
py=$1 mpiexec=$2 frx=$3 etype=${4:-hex}
here=$(cd "$(dirname "$0")" && pwd)
if ! "$py" -c "import vtk" 2>/dev/null; then
    echo "skipped: $py has no vtk module: install python3-vtk9" \
         "(scripts/install-deps)"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/frx-vtk3d.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
cat > case.yaml <<YAML
backend: {name: openmp, precision: double}
mesh: {type: box, n: [5, 4, 3], upper: [2, 1, 1.5], etype: $etype,
       periodic: [true, true, true]}
solver: {name: advection, order: 3}
time: {scheme: rk4, dt: 0.001, steps: 1}
progress: {mode: off}
output: {interval: 1, dir: out}
YAML
OMP_NUM_THREADS=1 "$mpiexec" -n 2 "$frx" run case.yaml > run.txt 2>&1 ||
    { cat run.txt; echo "vtk3d.sh: FAIL: frx run failed"; exit 1; }
"$py" "$here/vtk3d.py" out/solution-000000.pvtu 5 4 3 2 1 1.5 2 "$etype"
