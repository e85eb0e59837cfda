#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# solvers.sh MPIEXEC FRX KEEP CASE: a short run of a solver case on
# frx-fakegpu (the GPU backends' shared code and the CUDA the core
# generates for a GPU, on host memory) against the same run on openmp:
# the solutions at the end agree to TOL (h5diff, absolute, on fields of
# order 1: relative) and the L2 errors printed are the same. Every
# kernel source the fakegpu run compiles is kept in KEEP/CASE, for
# test_gpu_compile to compile with NVRTC and hiprtc (tests/CMakeLists.txt:
# the gpu-solver-sources fixture).
#
# The cases cover what the solvers generate: advection, lee, euler and
# navier-stokes (every boundary kind, Sutherland's law, ldg-beta 0.3 and
# 0.5, the gradient's exchange) on
# quadrilaterals and triangles (on hexahedra, tetrahedra, prisms and
# pyramids too, and meshes of several of them),
# on 2 ranks (the faces shared with a
# peer), every boundary kind, every flux (lee: upwind, rusanov; euler:
# rusanov, hllc), every time scheme (rk4, ssp-rk3, rk45: the lincomb
# kernels and rk45's error), dt from time.cfl (the wave-speed
# reduction), lee's base-flow check (its reductions) and the NaN/Inf
# check (check.interval 1), expressions in a boundary value and a
# source. euler-quad-single runs in single precision. The
# navier-stokes walls cases run fluidforce (its viscous force): its rows
# agree too.
set -eu
mpiexec=$1 frx=$2 keep=$3 name=$4
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-fakegpu-solver.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
export TMPDIR="$dir" # each mpirun its own session directory

command -v h5diff > /dev/null ||
    { echo "solvers.sh: h5diff is needed (Debian: hdf5-tools)"; exit 1; }

np=2 prec=double tol=1e-12 ext=
# the vortex: constants, ics and exact, indented for the solver section
vortex=$(cat "$here/../euler/vortex-fields.yaml")
lee_waves="waves:
    - {type: acoustic, amplitude: 1, modes: [1, 1]}
    - {type: vorticity, amplitude: 0.5, modes: [1, -1]}
    - {type: entropy, amplitude: 0.25, modes: [0, 1]}"

# The case's sections but the backend's.
case $name in
advection-quad-rk4)
    body="solver: {name: advection, order: 3, velocity: [1, 0.5]}
mesh: {type: box, n: [6, 6], periodic: [true, true]}
time: {scheme: rk4, cfl: 0.5, steps: 4}" ;;
advection-tri-rk45)
    # the velocity as a field (auxiliary arrays on every face), the
    # exact solution all round
    body="solver:
  name: advection
  order: 2
  velocity: [1, 0.5]
  velocity-field: true
  wavelength: [1, 1]
  boundaries: {bottom: {type: exact}, top: {type: exact},
               left: {type: exact}, right: {type: exact}}
mesh: {type: box, n: [5, 5], etype: tri}
time: {scheme: rk45, dt: 0.01, t-end: 0.05}" ;;
advection-hex-rk4)
    # hexahedra: faces paired by their rot, the exact solution on the
    # x sides (a 3-D boundary), the velocity as a field
    body="solver:
  name: advection
  order: 2
  velocity: [1, 0.5, 0.25]
  velocity-field: true
  wavelength: [1, 1, 1]
  boundaries: {left: {type: exact}, right: {type: exact}}
mesh: {type: box, n: [4, 3, 3], periodic: [false, true, true]}
time: {scheme: rk4, cfl: 0.5, steps: 4}" ;;
advection-tet-rk4)
    # tetrahedra: triangular faces paired by their rot, the exact
    # solution on the x sides, the velocity as a field
    body="solver:
  name: advection
  order: 3
  velocity: [1, 0.5, 0.25]
  velocity-field: true
  wavelength: [1, 1, 1]
  boundaries: {left: {type: exact}, right: {type: exact}}
mesh: {type: box, n: [3, 2, 2], etype: tet, periodic: [false, true, true]}
time: {scheme: rk4, cfl: 0.5, steps: 4}" ;;
advection-hex-pri-rk4)
    # a hexahedron beside two prisms: triangles and squares in one set
    body="solver:
  name: advection
  order: 3
  velocity: [1, 0.5, 0.25]
  boundaries: {wall: {type: exact}}
mesh: {type: gmsh, file: '$here/../data/mesh/hex-pri.msh'}
time: {scheme: rk4, cfl: 0.5, steps: 4}" ;;
lee-quad-upwind)
    body="solver:
  name: lee
  order: 3
  baseflow: {rho: 1.2, u: 0.4, v: -0.3, p: 1}
  $lee_waves
  flux: upwind
  baseflow-check: true
  baseflow-check-every: 2
mesh: {type: box, n: [5, 5], periodic: [true, true]}
time: {scheme: rk4, cfl: 0.3, steps: 4}" ;;
lee-tri-rusanov)
    # a shear flow (a source term) between a far field and a slip wall
    body="solver:
  name: lee
  order: 2
  constants: {U: 0.3, d: 0.2}
  baseflow: {rho: 1, u: U*tanh((y - 0.5)/d), v: 0, p: 1/1.4}
  waves:
    - {type: acoustic, amplitude: 1, modes: [1, 0]}
  flux: rusanov
  boundaries: {bottom: {type: far-field}, top: {type: slip-wall}}
  baseflow-check: true
  baseflow-check-every: 2
mesh: {type: box, n: [5, 5], etype: tri, periodic: [true, false]}
time: {scheme: ssp-rk3, cfl: 0.3, steps: 4}" ;;
lee-hex-upwind)
    # 3-D: hexahedra, a shear flow across z (every source term) between
    # a far field and a slip wall, the base-flow check
    body="solver:
  name: lee
  order: 2
  constants: {U: 0.3, V: 0.2, d: 0.2}
  baseflow: {rho: 1 + 0.1*sin(2*pi*x)*z, u: U*tanh((z - 0.5)/d),
             v: V*tanh((z - 0.5)/d), w: 0.05*sin(2*pi*x)*z*(1 - z),
             p: 1/1.4 + 0.02*cos(2*pi*x)*(1 - z)}
  waves:
    - {type: acoustic, amplitude: 1, modes: [1, -1, 0]}
    - {type: vorticity, amplitude: 0.5, modes: [1, 1, 0]}
    - {type: entropy, amplitude: 0.25, modes: [0, 1, 0]}
  flux: upwind
  boundaries: {back: {type: far-field}, front: {type: slip-wall}}
  baseflow-check: true
  baseflow-check-every: 2
mesh: {type: box, n: [4, 3, 3], periodic: [true, true, false]}
time: {scheme: rk4, cfl: 0.3, steps: 4}" ;;
lee-tet-rusanov)
    # 3-D on tetrahedra: uniform flow, waves in x, y and z (the exact
    # solution's L2 errors), Rusanov's flux
    body="solver:
  name: lee
  order: 2
  baseflow: {rho: 1.2, u: 0.4, v: -0.3, w: 0.2, p: 1}
  waves:
    - {type: acoustic, amplitude: 1, modes: [1, -1, 1]}
    - {type: vorticity, amplitude: 0.5, modes: [0, 0, 1]}
  flux: rusanov
mesh: {type: box, n: [3, 2, 2], etype: tet, periodic: [true, true, true]}
time: {scheme: ssp-rk3, cfl: 0.3, steps: 4}" ;;
euler-quad-hllc)
    body="solver:
  name: euler
  order: 3
  riemann-solver: hllc
$vortex
mesh: {type: box, n: [6, 6], lower: [-10, -10], upper: [10, 10],
       periodic: [true, true]}
time: {scheme: rk45, dt: 0.01, t-end: 0.05}" ;;
euler-hex-hllc|euler-tet-hllc|euler-pri-hllc|euler-pyr-hllc)
    # 3-D: hexahedra (tetrahedra, prisms, pyramids), a far field and a
    # slip wall, an inflow in z
    etype=$(echo "$name" | sed 's/^euler-\([a-z]*\)-hllc$/\1/; s/^pri$/prism/; s/^pyr$/pyramid/')
    body="solver:
  name: euler
  order: 2
  riemann-solver: hllc
  constants: {gamma: 1.4}
  ics: {rho: 1 + 0.1*sin(x), u: 0.2, v: 0.1, w: 0.05, p: 1 + 0.05*cos(y)}
  boundaries:
    left: {type: char-riem-inv, rho: 1, u: 0.2, v: 0.1, w: 0.05, p: 1}
    right: {type: slp-adia-wall}
    back: {type: sup-in-fa, rho: 1, u: 0.2, v: 0.1, w: 2, p: 1}
    front: {type: sup-out-fn}
mesh: {type: box, n: [3, 3, 2], upper: [3, 3, 2], etype: $etype,
       periodic: [false, true, false]}
time: {scheme: ssp-rk3, dt: 0.005, steps: 4}" ;;
euler-tri-rusanov)
    # every boundary kind, far from the vortex; a boundary value and a
    # source as expressions (in x, y, t: a conditional, functions)
    body="solver:
  name: euler
  order: 2
  riemann-solver: rusanov
$vortex
  sources: {E: 'x > 0 ? 1e-3*max(x, y) : 1e-3*atan2(y, x)'}
  boundaries:
    bottom: {type: sup-in-fa, rho: 1 + 0.01*sin(2*pi*t), u: 0, v: 1,
             p: 4.4642857}
    top: {type: sup-out-fn}
    left: {type: slp-adia-wall}
    right: {type: char-riem-inv, rho: 1, u: 0, v: 1, p: 4.4642857}
mesh: {type: box, n: [6, 6], etype: tri, lower: [-10, -10], upper: [10, 10]}
time: {scheme: ssp-rk3, cfl: 0.5, steps: 4}" ;;
ns-quad-walls)
    # navier-stokes: two walls (one moving in time), Sutherland's law,
    # ldg-beta 0.3 (both sides' viscous fluxes), a source, time.cfl
    # (the viscous limit)
    body="solver:
  name: navier-stokes
  order: 3
  riemann-solver: hllc
  ldg-beta: 0.3
  viscosity-correction: sutherland
  constants: {gamma: 1.4, mu: 0.02, Pr: 0.72, cpTref: 3.5, cpTs: 0.4}
  ics: {rho: 1 + 0.1*sin(pi*x), u: 0.3*y, v: 0.05*sin(pi*x), p: 1}
  sources: {E: 0.01*cos(pi*x)*t}
  boundaries:
    bottom: {type: no-slp-adia-wall}
    top: {type: no-slp-isot-wall, u: 0.3*(1 + 0.1*sin(2*pi*t)), v: 0,
          cpTw: 3.5}
mesh: {type: box, n: [5, 4], upper: [2, 1], periodic: [true, false]}
time: {scheme: rk4, cfl: 0.5, steps: 4}"
    # fluidforce's viscous force (the physics' vflux and macros)
    ext="bottom, top" ;;
ns-tri-inflow)
    # navier-stokes on triangles: subsonic inflow both ways, outflow at a
    # pressure, a far field; PyFR's ldg-beta 0.5
    body="solver:
  name: navier-stokes
  order: 2
  riemann-solver: rusanov
  constants: {gamma: 1.4, mu: 0.01, Pr: 0.72}
  ics: {rho: 1.2 + 0.05*sin(pi*x), u: 0.2, v: 0.3, p: 1}
  boundaries:
    left: {type: sub-in-frv, rho: 1.2, u: 0.2, v: 0.3}
    bottom: {type: sub-in-ftpttang, pt: 1.05, cpTt: 2.98, theta: 56}
    right: {type: sub-out-fp, p: 1}
    top: {type: char-riem-inv, rho: 1.2, u: 0.2, v: 0.3, p: 1}
mesh: {type: box, n: [5, 5], etype: tri}
time: {scheme: ssp-rk3, cfl: 0.5, steps: 4}" ;;
ns-hex-walls|ns-tet-walls)
    # navier-stokes in 3-D: an isothermal wall, a slip wall, supersonic
    # in- and outflow along z (hexahedra); an adiabatic wall, subsonic
    # inflow at an angle (theta, phi), outflow, a far field (tetrahedra)
    if [ $name = ns-hex-walls ]; then
        etype=hex bcs="left: {type: no-slp-isot-wall, u: 0, v: 0, w: 0, cpTw: 3.5}
    right: {type: slp-adia-wall}
    back: {type: sup-in-fa, rho: 1, u: 0.2, v: 0.1, w: 2, p: 1}
    front: {type: sup-out-fn}" w=2
    else
        etype=tet bcs="left: {type: no-slp-adia-wall}
    right: {type: char-riem-inv, rho: 1, u: 0.2, v: 0.1, w: 0.3, p: 1}
    back: {type: sub-in-ftpttang, pt: 1.05, cpTt: 3.6, theta: 27, phi: 50}
    front: {type: sub-out-fp, p: 1}" w=0.3
    fi
    body="solver:
  name: navier-stokes
  order: 2
  riemann-solver: rusanov
  constants: {gamma: 1.4, mu: 0.02, Pr: 0.72}
  ics: {rho: 1 + 0.1*sin(x), u: 0.2, v: 0.1, w: $w, p: 1 + 0.05*cos(y)}
  boundaries:
    $bcs
mesh: {type: box, n: [3, 3, 2], upper: [3, 3, 2], etype: $etype,
       periodic: [false, true, false]}
time: {scheme: ssp-rk3, cfl: 0.5, steps: 4}"
    [ $name = ns-hex-walls ] && ext="left, right" ;;
euler-quad-single)
    # float's rounding, summed in another order on each backend
    prec=single tol=1e-4
    body="solver:
  name: euler
  order: 2
  riemann-solver: hllc
$vortex
mesh: {type: box, n: [6, 6], lower: [-10, -10], upper: [10, 10],
       periodic: [true, true]}
time: {scheme: rk4, cfl: 0.5, steps: 4}" ;;
*)
    echo "solvers.sh: no case '$name'" >&2
    exit 2 ;;
esac

for be in openmp fakegpu; do
    { echo "backend: {name: $be, precision: $prec}"
      echo "partition: {method: metis}"
      echo "$body"
      echo "check: {interval: 1}"
      echo "checkpoint: {interval: 1000000, file: $be.h5}"
      echo "progress: {mode: off}"
      [ -z "$ext" ] || printf 'extensions:\n  - {name: fluidforce, every: 2, file: %s-force.csv, boundaries: [%s]}\n' $be "$ext"
    } > $be.yaml
done

"$mpiexec" -n $np "$frx" run openmp.yaml > openmp.txt 2>&1 ||
    { cat openmp.txt; echo "solvers.sh: $name: the openmp run failed"; exit 1; }
# the fakegpu run compiles every kernel (a cache of its own): each
# source it is asked for lands in KEEP/CASE
rm -rf "$keep/$name"
mkdir -p "$keep/$name"
FRX_CACHE_DIR="$dir/cache" FRX_FAKEGPU_KEEP_SOURCES="$keep/$name" \
    "$mpiexec" -n $np "$frx" run fakegpu.yaml > fakegpu.txt 2>&1 ||
    { cat fakegpu.txt; echo "solvers.sh: $name: the fakegpu run failed"; exit 1; }
cat fakegpu.txt
n=$(ls "$keep/$name" | grep -c '[.]cu$' || :)
echo "solvers.sh: $name: $n kernel source(s) kept in $keep/$name"
[ "$n" -gt 0 ] || { echo "solvers.sh: $name: no kernel source kept"; exit 1; }

# The same end: the last step and its time, the fields, the L2 errors
# (where the case has an exact solution), to TOL relative.
summary() { # the step, t and each L2 error of a run, one a line
    sed -n 's/^frx: [0-9]* steps.* to step \([0-9]*\), t = \([^,]*\),.*/\1\n\2/p' "$1"
    sed -n 's/^frx: L2 error at t = [^:]*: //p' "$1" |
        awk '{ for (i = 2; i <= NF; i += 2) print $i }'
}
summary openmp.txt > openmp.sum
summary fakegpu.txt > fakegpu.sum
[ -s openmp.sum ] || { cat openmp.txt; echo "solvers.sh: no summary"; exit 1; }
paste openmp.sum fakegpu.sum | awk -v tol=$tol '
    { d = $1 - $2; if (d < 0) d = -d; m = $1 < 0 ? -$1 : $1
      if (NF != 2 || d > tol * m) bad = 1 }
    END { exit bad }' ||
    { paste openmp.sum fakegpu.sum
      echo "solvers.sh: $name: the step, t or the L2 errors differ (openmp" \
           "| fakegpu) by more than $tol"; exit 1; }
h5diff -d $tol openmp.h5 fakegpu.h5 /solution /solution ||
    { echo "solvers.sh: $name: fakegpu differs from openmp by more than $tol"
      exit 1; }
# fluidforce's rows: the same to TOL (relative, or of 1)
[ -z "$ext" ] || paste -d , openmp-force.csv fakegpu-force.csv | awk -F , -v tol=$tol '
    NR == 1 { n = NF / 2; next }
    { for (i = 1; i <= n; i++) { d = $i - $(i + n); if (d < 0) d = -d
          m = $i < 0 ? -$i : $i; if (m < 1) m = 1; if (d > tol * m) bad = 1 } }
    END { exit bad || NR < 3 }' ||
    { paste -d "|" openmp-force.csv fakegpu-force.csv
      echo "solvers.sh: $name: fluidforce's rows differ (openmp | fakegpu)"; exit 1; }
l2=$(tail -n +3 openmp.sum | tr '\n' ' ')
echo "solvers.sh: $name on $np ranks ($prec): fakegpu equals openmp within" \
     "$tol at step $(head -1 openmp.sum), t = $(sed -n 2p openmp.sum);" \
     "L2 errors: ${l2:-none (no exact solution)}"
