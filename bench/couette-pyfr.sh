#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench/couette-pyfr.sh: PyFR 1.15's L2 errors on steady compressible
# Couette flow (navier-stokes, LDG: ldg-beta 0.5, ldg-tau 0.1, Rusanov,
# constant mu), the figures frx's navier-stokes solver on
# config/couette.yaml is held against. The case (bench/pyfr-couette.ini):
# the channel [0, 1] x [0, 1] as 4 x 4 quadrilaterals
# (config/meshes/couette.msh, written again here by bench/couette_mesh.py
# and compared with it byte for byte), periodic in x; walls
# no-slp-isot-wall at y = 0 (at rest) and y = 1 (moving at Uw = 1), both
# at cpTw = 35; p0 = 10 (wall density 1, sound speed sqrt(14), so the
# moving wall's Mach number is 0.267), mu = 0.1 (Re = 10), Pr = 0.72,
# gamma = 1.4. Exact steady state: u = Uw y, v = 0, p = p0, cpT = cpTw +
# Pr Uw^2/2 y (1 - y), rho = gamma/(gamma - 1) p0/cpT; the run starts
# from it (so the errors at t = 0 are 0: PyFR's integrate plugin
# quadratures over the solution points, where the initial values are
# exact) and RK4 with a fixed dt steps it to the discrete steady state at
# t = 20 (dt 0.002, 0.001, 0.0005 for p = 1, 2, 3: about half the
# largest stable one). Per order, one line
#   pyfr-couette p=P dt=DT t=20 rho=.. rhou=.. rhov=.. E=.. steady=S wall=Ws
# the L2 errors (sqrt of the integrate plugin's integral of the squared
# error over the solution points, Gauss-Legendre), S the largest relative
# change of the four between t = 10 and t = 20 (refused above 1e-4: not
# steady yet), W the seconds `pyfr run` took. A run that blew up (PyFR's
# nancheck), errors that are not finite or a last row not at t = 20 exit
# 1. One rank: PyFR's LDG takes the common solution from one side of each
# interface (beta = 0.5: its right, rhs) and the viscous flux from the
# other; on a serial run the left (lhs) is the lower-numbered element
# (here the one below, or on the left, and periodic_0_l's), but across
# partitions the ranks choose by rank number, so PyFR's errors on 2 ranks
# differ (p = 1: rho 2.23e-5 against 1.62e-5).
#   sh bench/couette-pyfr.sh        env: PS="1 2 3" (a subset of 1 2 3)
#   PYFR_WORK=<where ../shared/pyfr/run.sh installed PyFR, default
#   $TMPDIR/frx-pyfr>  OMP_NUM_THREADS (default 2)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
. "$here/frx-output.sh"
pyfr_setup bench/couette-pyfr.sh "${PYFR_WORK:-${TMPDIR:-/tmp}/frx-pyfr}"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
tend=20
for p in ${PS:-1 2 3}; do
    case $p in 1|2|3) ;; *) echo "couette-pyfr: PS: orders 1, 2 and 3 only, not $p" >&2; exit 1 ;; esac
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-couette.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"

python3 "$here/couette_mesh.py" 4 4 1 1 couette.msh
cmp -s couette.msh "$src/config/meshes/couette.msh" || {
    echo "couette-pyfr: bench/couette_mesh.py 4 4 1 1 no longer writes config/meshes/couette.msh" >&2
    exit 1; }
"$py/pyfr" import couette.msh couette.pyfrm > /dev/null

# ini P DT: bench/pyfr-couette.ini at order P, step DT, to t = tend,
# integrating at t = 0, tend/2 and tend
ini() {
    awk -v p="$1" -v dt="$2" -v tend="$tend" '
        /^\[/ { sect = $0 }
        sect == "[solver]" && /^order *=/ { $0 = "order = " p }
        sect == "[solver-time-integrator]" && /^dt *=/ { $0 = "dt = " dt }
        sect == "[solver-time-integrator]" && /^tend *=/ { $0 = "tend = " tend }
        sect == "[soln-plugin-integrate]" && /^nsteps *=/ {
            $0 = "nsteps = " (dt ~ /^[0-9.]+$/ ? sprintf("%.0f", tend / dt / 2) : tend "/(2 " dt ")") }
        { print }' "$here/pyfr-couette.ini"
}

echo "PyFR $("$py/pyfr" --version 2>&1 | awk '{ print $NF }'), openmp, $OMP_NUM_THREADS threads, 1 rank: bench/pyfr-couette.ini, per order P:"
ini P DT | awk '/^\[/ { if (l != "") print l; l = "    " $0; s = "" }
                /^[^[;#]/ && NF { l = l s " " $0; s = "," }
                END { print l }'
for p in ${PS:-1 2 3}; do
    dt=$(awk -v p="$p" 'BEGIN { print 0.002 / 2 ^ (p - 1) }')
    ini "$p" "$dt" > couette.ini
    rm -f err.csv
    t0=$(date +%s.%N)
    "$py/pyfr" run -b openmp couette.pyfrm couette.ini > pyfr.txt 2>&1 ||
        { tail -5 pyfr.txt >&2; echo "couette-pyfr: PyFR failed at p = $p (blew up?)" >&2; exit 1; }
    t1=$(date +%s.%N)
    awk -F, -v p="$p" -v dt="$dt" -v tend="$tend" -v wall="$(echo "$t0 $t1" | awk '{ print $2 - $1 }')" '
        NR > 1 { n++; for (i = 1; i <= 5; i++) r[n, i] = $i }
        END {
            if (n < 3 || (r[n, 1] - tend) ^ 2 > 1e-18 || (r[n - 1, 1] - tend / 2) ^ 2 > 1e-18) {
                printf "couette-pyfr: p = %d: err.csv does not end at t = %g and %g\n", p, tend / 2, tend > "/dev/stderr"
                exit 1 }
            line = sprintf("pyfr-couette p=%d dt=%s t=%g", p, dt, tend)
            split("rho rhou rhov E", name, " ")
            for (i = 2; i <= 5; i++) {
                e = sqrt(r[n, i]); h = sqrt(r[n - 1, i])
                if (!(r[n, i] >= 0 && r[n, i] < 1e300) || !(r[n - 1, i] >= 0 && r[n - 1, i] < 1e300)) {
                    printf "couette-pyfr: p = %d: the %s error is not finite (blew up)\n", p, name[i - 1] > "/dev/stderr"
                    exit 1 }
                c = e > 0 ? (e > h ? e - h : h - e) / e : 0
                if (c > steady) steady = c
                line = line sprintf(" %s=%.10e", name[i - 1], e) }
            printf "%s steady=%.1e wall=%.1fs\n", line, steady, wall
            if (steady > 1e-4) {
                printf "couette-pyfr: p = %d: the errors still change by %.1e between t = %g and %g: not steady\n", p, steady, tend / 2, tend > "/dev/stderr"
                exit 1 } }' err.csv
done
