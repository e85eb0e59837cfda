#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench/vortex3d-pyfr.sh [BUILD]: the isentropic vortex extruded along z
# on a periodic box of 20 x 20 x 2 hexahedra ([-10, 10]^2 x [0, 4]), run
# by PyFR 1.15 (bench/pyfr-vortex3d.ini: p = 3, Rusanov, RK4, dt =
# 0.005, to t = 1) and by frx on the same Gmsh file: each one's density
# L2 error at t = 1 (PyFR's from its integrate plugin over its solution
# points' quadrature, frx's from its summary). The test
# euler-vortex-extruded-pyfr-np* holds PyFR's figure (1.493698e-03):
# this is how it was measured. PYFR_WORK: where ../shared/pyfr/run.sh
# installed PyFR (default $TMPDIR/frx-pyfr).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
[ -x "$build/bin/frx" ] || { echo "vortex3d-pyfr: no $build/bin/frx: build frx first" >&2; exit 1; }
. "$here/frx-output.sh"
pyfr_setup bench/vortex3d-pyfr.sh "${PYFR_WORK:-${TMPDIR:-/tmp}/frx-pyfr}"
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-vortex3d.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

# The box as a Gmsh 2.2 file: x fastest, the sides as PyFR's and frx's
# periodic pairs (periodic_<axis>_l/_r)
awk -v nx=20 -v ny=20 -v nz=2 'function node(i, j, k) { return 1 + i + (nx + 1) * (j + (ny + 1) * k) }
BEGIN {
    print "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n7\n3 1 \"fluid\""
    print "2 2 \"periodic_x_l\"\n2 3 \"periodic_x_r\"\n2 4 \"periodic_y_l\"\n2 5 \"periodic_y_r\""
    print "2 6 \"periodic_z_l\"\n2 7 \"periodic_z_r\"\n$EndPhysicalNames\n$Nodes"
    print (nx + 1) * (ny + 1) * (nz + 1)
    for (k = 0; k <= nz; k++) for (j = 0; j <= ny; j++) for (i = 0; i <= nx; i++)
        printf "%d %.17g %.17g %.17g\n", node(i, j, k), -10 + 20 * i / nx, -10 + 20 * j / ny, 4 * k / nz
    print "$EndNodes\n$Elements"
    print 2 * (ny * nz + nx * nz + nx * ny) + nx * ny * nz
    e = 0
    for (j = 0; j < ny; j++) for (k = 0; k < nz; k++) for (s = 0; s < 2; s++) {
        i = s * nx
        printf "%d 3 2 %d %d %d %d %d %d\n", ++e, 2 + s, 2 + s, node(i, j, k), node(i, j + 1, k), node(i, j + 1, k + 1), node(i, j, k + 1) }
    for (i = 0; i < nx; i++) for (k = 0; k < nz; k++) for (s = 0; s < 2; s++) {
        j = s * ny
        printf "%d 3 2 %d %d %d %d %d %d\n", ++e, 4 + s, 4 + s, node(i, j, k), node(i + 1, j, k), node(i + 1, j, k + 1), node(i, j, k + 1) }
    for (i = 0; i < nx; i++) for (j = 0; j < ny; j++) for (s = 0; s < 2; s++) {
        k = s * nz
        printf "%d 3 2 %d %d %d %d %d %d\n", ++e, 6 + s, 6 + s, node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k), node(i, j + 1, k) }
    for (k = 0; k < nz; k++) for (j = 0; j < ny; j++) for (i = 0; i < nx; i++)
        printf "%d 5 2 1 1 %d %d %d %d %d %d %d %d\n", ++e, node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k), node(i, j + 1, k), node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1), node(i, j + 1, k + 1)
    print "$EndElements" }' > vortex3d.msh

"$py/pyfr" import vortex3d.msh vortex3d.pyfrm > /dev/null
"$py/pyfr" run -b openmp vortex3d.pyfrm "$here/pyfr-vortex3d.ini" > pyfr.txt 2>&1 ||
    { cat pyfr.txt; echo "vortex3d-pyfr: PyFR failed" >&2; exit 1; }
pyfr_e=$(awk -F, '$1 == 1.0 || $1 == "1.0" { printf "%.6e", sqrt($2) }' err.csv)

{ echo "backend: {name: openmp, precision: double}"
  echo "mesh: {type: gmsh, file: vortex3d.msh}"
  printf 'solver:\n  name: euler\n  order: 3\n  riemann-solver: rusanov\n'
  sed -e 's/^\(    v: .*\)$/\1\
    w: 0/' "$src/tests/euler/vortex-fields.yaml"
  echo "time: {scheme: rk4, dt: 0.005, t-end: 1}"
  echo "progress: {mode: off}"; } > frx.yaml
"$build/bin/frx" run frx.yaml > frx.txt
frx_e=$(sed -n 's/^frx: L2 error at t = [^:]*: rho \([^ ]*\) .*/\1/p' frx.txt)
echo "extruded vortex, 20 x 20 x 2 hexahedra, p = 3, t = 1: density L2 error"
echo "  PyFR 1.15: $pyfr_e"
echo "  frx:       $frx_e ($(awk -v a="$frx_e" -v b="$pyfr_e" 'BEGIN { printf "%.5f", a / b }') x PyFR's)"
