#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# ns.sh MODE MPIEXEC FRX ...: the navier-stokes solver through `frx run`.
#
#   couette MPIEXEC FRX CASE P NP [cfl]   config/couette.yaml (CASE: the
#       steady compressible Couette flow, 4 x 4 quadrilaterals, Re = 10)
#       at order P (dt as PyFR's run: 0.002, 0.001, 0.0005 for p = 1, 2,
#       3) on NP ranks: every variable's L2 error at t = 20 must be
#       within 2% of PyFR 1.15's on the same mesh (bench/couette-pyfr.sh
#       measures them). cfl: time.cfl 0.5 instead of dt, which the
#       viscous limit of max_dt must keep stable (the wave speed alone
#       gives a dt above the stable one at p = 3). With dt: the
#       fluidforce plugin on both walls (pressure and viscous forces) at
#       t = 20 within 1e-9 of PyFR 1.15's fluidforce plugin on the same
#       case (1 rank; relative, or of 0.1 for the smaller ones)
#   couette3d MPIEXEC FRX P          the Couette flow of couette.yaml
#       on a 4 x 4 box (quadrilaterals), extruded along z (4 x 4 x 2
#       hexahedra, periodic in z) and turned (the walls normal to x, the
#       flow along z, periodic in y and z; 4 x 2 x 4), to t = 2 on 1
#       rank: each 3-D variable's L2 error is the 2-D one of its
#       counterpart (every extent is 1) to the summary's 7 digits
#       (2e-6), the velocity the flow has not below 1e-12; fluidforce's
#       forces on the walls are the 2-D ones, turned, to 1e-9
#   mms MPIEXEC FRX P ETYPE N1 N2 [PYFR...]  the steady manufactured
#       solution of mms-2d.yaml (quad, tri: N x N on [0, 2]^2) or mms-3d.yaml
#       (hex, tet: N^3 cubes on [0, 2]^3; mms.py made both) held by its source
#       terms, from itself to t = 0.5 (or $FRX_NS_MMS_T; RK4, time.cfl 0.5) on
#       1 rank (the ranks mode checks partitions; one rank keeps ctest -j2's
#       cores busy where two would spin in MPI waiting for each other): every
#       variable's L2 error must fall at order >= P + 0.8 from N1 to N2 for odd
#       P. For even P this scheme (PyFR 1.15's, Rusanov and LDG with beta 1/2)
#       gives about P + 1/2 here, PyFR to 8 digits the same numbers
#       (docs/navier-stokes.md): >= P + 0.2, and where PYFR gives PyFR's errors
#       on N1 then N2 (rho, rhou, rhov, E), each within 0.1% of them.
#       $FRX_NS_MMS_RS=hllc: HLLC's flux instead of Rusanov's, with which even
#       P too must reach >= P + 0.8 (docs/navier-stokes.md: Rusanov's flux is
#       what costs the half order)
#   ranks MPIEXEC FRX ETYPE P             a shear layer between a moving
#       isothermal wall and an adiabatic wall (periodic in x, and z in
#       3-D) with a bump of density, 4 elements a part (the gradient's
#       parts away from and at the peers): 1, 2, 3 and 4 ranks and 2 ranks
#       with rank 1 on opencl (skipped, 77, where opencl cannot start)
#       agree to 1e-12 (h5diff on the solutions at the end)
#   uniform MPIEXEC FRX ETYPE             flows that are exact solutions
#       of the boundary kinds stay so to 1e-12 (L2 errors): a gas at
#       rest between isothermal walls at its temperature and adiabatic
#       walls; a subsonic stream in through sub-in-frv and
#       sub-in-ftpttang, out through sub-out-fp, along slip walls; a
#       subsonic far field (char-riem-inv) all round; a supersonic
#       stream (sup-in-fa, sup-out-fn)
#   bad MPIEXEC FRX                       cases refused with a message
#       that names the place and what to do: no mu, no Pr, Sutherland's
#       law without cpTref, a negative wall temperature
set -eu
mode=$1 mpiexec=$2 frx=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-ns.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
export TMPDIR="$dir" # each mpirun its own session directory
# Every product by one variant (but in the couette mode, run as a user
# would): no candidates to compile and time.
one_variant="openmp: {products: generated/r4}, opencl: {products: generated/r4}"

is3d() { [ "$1" = hex ] || [ "$1" = tet ] || [ "$1" = prism ] || [ "$1" = pyramid ]; }

# The L2 errors of a run's summary: "var value" a line.
errors() {
    sed -n 's/^frx: L2 error at t = [^:]*: //p' "$1" |
        awk '{ for (i = 1; i < NF; i += 2) print $i, $(i + 1) }'
}

case $mode in
couette)
    case=$1 p=$2 np=$3 how=${4:-dt}
    # PyFR 1.15 on config/meshes/couette.msh (bench/couette-pyfr.sh, 1
    # rank: frx orients every face as one rank does, whatever the
    # partition), t = 20: rho rhou rhov E
    # and its fluidforce plugin at t = 20 (bottom then top wall: the
    # pressure force's y, the viscous force's x and y)
    case $p in
    1) dt=0.002 ref="1.6187051087e-05 4.5157813475e-05 1.9846533767e-04 1.3027574360e-03"
       force="-9.998637286062735 0.09981967066859918 0.0004783805084565465 9.998276642646132 -0.09978605462622879 -0.0003395144009010173" ;;
    2) dt=0.001 ref="1.8805699829e-08 2.8290842882e-06 8.7133212594e-08 1.9279893082e-06"
       force="-9.999998779870932 0.09996777805866236 1.0880873383017502e-06 9.999999251120087 -0.09995906230358004 -5.408971488808854e-07" ;;
    3) dt=0.0005 ref="1.8752538145e-09 1.9160270525e-09 5.3376167349e-09 3.9082112968e-08"
       force="-9.99999989930598 0.09999994678675185 1.5769309174833727e-07 9.999999907540321 -0.09999992162467228 -5.491383795904142e-08" ;;
    *) echo "ns.sh: no PyFR figures for p = $p"; exit 2 ;;
    esac
    step="dt: $dt"
    [ "$how" = cfl ] && step="cfl: 0.5"
    sed -e "s|^\(  file:\) meshes/|\1 $(dirname "$case")/meshes/|" \
        -e "s/^  order: .*/  order: $p/" \
        -e "s/^  dt: .*/  $step/" "$case" > couette.yaml
    grep -q "order: $p" couette.yaml && grep -q "$step" couette.yaml
    # a row at t = 0, 5, 10, 15, 20 where dt is fixed
    [ "$how" = cfl ] || printf 'extensions:\n  - {name: fluidforce, every: %s, file: force.csv, boundaries: [bottom, top]}\n' \
        "$(awk -v dt=$dt 'BEGIN { printf "%.0f", 5/dt }')" >> couette.yaml
    "$mpiexec" -n "$np" "$frx" run couette.yaml > run.txt 2>&1 ||
        { cat run.txt; echo "ns.sh: the couette run failed"; exit 1; }
    tail -3 run.txt
    errors run.txt | awk -v ref="$ref" -v p=$p -v np=$np '
        BEGIN { n = split(ref, r, " ") }
        { k++; d = ($2 - r[k])/r[k]; if (d < 0) d = -d
          printf "ns.sh: couette p = %d on %d rank(s): %s %s, PyFR %s " \
                 "(%.2g%% apart)\n", p, np, $1, $2, r[k], 100*d
          if (!(d <= 0.02)) bad = 1 }
        END { exit bad || k != n }' || exit 1
    [ "$how" = cfl ] && exit 0
    # the forces: PyFR's to 1e-9 (relative, or of 0.1, the shear force,
    # for the smaller ones; its fluidforce takes the same uncorrected
    # gradient, and the two agree to 1e-12 at t = 4)
    head -n 1 force.csv | grep -qx 'step,t,bottom_fx,bottom_fy,bottom_vx,bottom_vy,top_fx,top_fy,top_vx,top_vy' ||
        { cat force.csv; echo "ns.sh: fluidforce's columns"; exit 1; }
    tail -n 1 force.csv | awk -F , -v ref="$force" -v p=$p -v np=$np '
        BEGIN { split(ref, r, " "); split("4 5 6 8 9 10", c, " ")
                split("bottom_fy bottom_vx bottom_vy top_fy top_vx top_vy", nm, " ") }
        { if ($2 < 20 - 1e-9 || $2 > 20 + 1e-9) { print "ns.sh: the last force row is at t = " $2; exit 1 }
          for (i = 1; i <= 6; i++) {
              s = r[i] < 0 ? -r[i] : r[i]; if (s < 0.1) s = 0.1
              d = ($c[i] - r[i])/s; if (d < 0) d = -d
              printf "ns.sh: couette p = %d on %d rank(s): %s %s, PyFR %s (%.2g apart)\n", \
                     p, np, nm[i], $c[i], r[i], d
              if (!(d <= 1e-9)) bad = 1 }
          if ($3 != 0 || $7 != 0) { print "ns.sh: a wall has a pressure force along x"; bad = 1 } }
        END { exit bad || NR != 1 }'
    ;;
couette3d)
    p=$1
    # config/couette.yaml's flow; Y the wall-normal coordinate, the
    # velocity along the flow U, the rest 0
    flow() { # Y U rest
        cat <<END
  constants: {gamma: 1.4, mu: 0.1, Pr: 0.72, cpTw: 35, Uw: 1, p0: 10}
  ics: &flow {rho: gamma/(gamma - 1)*p0/(cpTw + Pr*Uw^2/2*$1*(1 - $1)),
              $2: Uw*$1, $3, p: p0}
  exact: *flow
END
    }
    run() { # name mesh flow boundaries walls
        cat > $1.yaml <<END
backend: {name: openmp, precision: double, $one_variant}
mesh: {type: box, $2}
solver:
  name: navier-stokes
  order: $p
$3
  boundaries: {$4}
time: {scheme: rk4, dt: 0.0005, t-end: 2}
progress: {mode: off}
extensions:
  - {name: fluidforce, every: 4000, file: $1.csv, boundaries: [$5]}
END
        "$mpiexec" -n 1 "$frx" run $1.yaml > $1.txt 2>&1 ||
            { cat $1.txt; echo "ns.sh: the $1 run failed"; exit 1; }
        errors $1.txt > $1.err
        echo "ns.sh: couette3d p = $p, $1: $(tr '\n' ' ' < $1.err)"
    }
    iso="type: no-slp-isot-wall, cpTw: cpTw"
    run flat "n: [4, 4], periodic: [true, false]" "$(flow y u 'v: 0')" \
        "bottom: {$iso, u: 0, v: 0}, top: {$iso, u: Uw, v: 0}" "bottom, top"
    run extruded "n: [4, 4, 2], periodic: [true, false, true]" \
        "$(flow y u 'v: 0, w: 0')" \
        "bottom: {$iso, u: 0, v: 0, w: 0}, top: {$iso, u: Uw, v: 0, w: 0}" \
        "bottom, top"
    run turned "n: [4, 2, 4], periodic: [false, true, true]" \
        "$(flow x w 'u: 0, v: 0')" \
        "left: {$iso, u: 0, v: 0, w: 0}, right: {$iso, u: 0, v: 0, w: Uw}" \
        "left, right"
    # each 3-D variable and its 2-D counterpart (or none: below 1e-12)
    check() { # run pairs "var3d:var2d ..."
        for pr in $2; do
            v3=${pr%%:*} v2=${pr#*:}
            a=$(awk -v v=$v3 '$1 == v { print $2 }' $1.err)
            b=$(awk -v v=$v2 '$1 == v { print $2 }' flat.err)
            [ -n "$a" ] || { echo "ns.sh: $1 has no $v3"; exit 1; }
            awk -v a=$a -v b="$b" -v r=$1 -v v=$v3 'BEGIN {
                if (b == "") ok = a < 1e-12
                else { d = (a - b)/b; ok = (d < 0 ? -d : d) <= 2e-6 }
                if (!ok) { printf "ns.sh: %s %s %s against %s\n", r, v, a, b
                           exit 1 } }' || exit 1
        done
    }
    check extruded "rho:rho rhou:rhou rhov:rhov rhow: E:E"
    check turned "rho:rho rhow:rhou rhou:rhov rhov: E:E"
    # fluidforce at t = 2: each 3-D column (by its number in the last
    # row, from 1) against the 2-D column it turns into (or none: 0)
    # to 1e-9 (relative, or of 0.1, the shear force); the 2-D row:
    # step,t,bottom_fx,bottom_fy,bottom_vx,bottom_vy,top_...
    force() { # run pairs "col3d:col2d ..."
        paste -d , "$1.csv" flat.csv | tail -n 1 | awk -F , -v pairs="$2" \
                -v r=$1 -v n2d="$(head -n 1 flat.csv | awk -F , '{ print NF }')" '
            { n3 = NF - n2d; np = split(pairs, pr, " ")
              if ($2 != 2 || $(n3 + 2) != 2) { print "ns.sh: " r ": no force row at t = 2"; exit 1 }
              for (i = 1; i <= np; i++) {
                  split(pr[i], c, ":"); a = $c[1]; b = c[2] == "" ? 0 : $(n3 + c[2])
                  s = b < 0 ? -b : b; if (s < 0.1) s = 0.1
                  d = (a - b)/s; if (d < 0) d = -d
                  if (!(d <= 1e-9)) { printf "ns.sh: %s force column %d %s against %s\n", r, c[1], a, b; bad = 1 } } }
            END { exit bad }' || exit 1
    }
    force extruded "3:3 4:4 5: 6:5 7:6 8: 9:7 10:8 11: 12:9 13:10 14:"
    force turned "3:4 4: 5:3 6:6 7: 8:5 9:8 10: 11:7 12:10 13: 14:9"
    echo "ns.sh: couette3d p = $p: fluidforce's pressure and viscous forces on" \
         "the 3-D walls are the 2-D ones, turned"
    echo "ns.sh: couette3d p = $p: the extruded and turned flows give the" \
         "2-D errors"
    ;;
mms)
    p=$1 etype=$2 n1=$3 n2=$4
    shift 4
    pyfr="$*"
    fields="$here/mms-2d.yaml" d=2
    is3d "$etype" && fields="$here/mms-3d.yaml" d=3
    for n in $n1 $n2; do
        if [ $d = 2 ]; then
            mesh="n: [$n, $n], lower: [0, 0], upper: [2, 2], periodic: [true, true], etype: $etype"
        else
            mesh="n: [$n, $n, $n], lower: [0, 0, 0], upper: [2, 2, 2], periodic: [true, true, true], etype: $etype"
        fi
        # steady: the run settles from the exact values (error 0 at the
        # solution points) to the scheme's steady state by t = T; dt
        # from time.cfl (its error vanishes at the steady state)
        cat > mms$n.yaml <<END
backend: {name: openmp, precision: double, $one_variant}
mesh: {type: box, $mesh}
solver:
  name: navier-stokes
  order: $p
  riemann-solver: ${FRX_NS_MMS_RS:-rusanov}
$(cat "$fields")
time: {scheme: rk4, cfl: 0.5, t-end: ${FRX_NS_MMS_T:-0.5}}
progress: {mode: off}
END
        "$mpiexec" -n 1 "$frx" run mms$n.yaml > mms$n.txt 2>&1 ||
            { cat mms$n.txt; echo "ns.sh: the mms run on N = $n failed"; exit 1; }
        errors mms$n.txt > e$n.txt
        [ -s e$n.txt ] || { cat mms$n.txt; echo "ns.sh: no L2 errors"; exit 1; }
    done
    hllc=0
    [ "${FRX_NS_MMS_RS:-rusanov}" = hllc ] && hllc=1
    paste e$n1.txt e$n2.txt | awk -v p=$p -v n1=$n1 -v n2=$n2 -v e=$etype \
                                  -v pyfr="$pyfr" -v hllc=$hllc '
        BEGIN { np = split(pyfr, r, " ")
                want = p % 2 || hllc ? p + 0.8 : p + 0.2 }
        { k++; o = log($2/$4)/log(n2/n1)
          printf "ns.sh: mms %s p = %d: %s %.4e (N = %d) %.4e (N = %d): " \
                 "order %.2f (>= %.1f)\n", e, p, $1, $2, n1, $4, n2, o, want
          if (!(o >= want)) bad = 1
          for (j = 0; np && j < 2; j++) {
              x = j ? $4 : $2; y = r[k + 4*j]; d = (x - y)/y
              if (d < 0) d = -d
              printf "ns.sh:   N = %d: PyFR 1.15 %s (%.2g%% apart)\n",
                     j ? n2 : n1, y, 100*d
              if (!(d <= 0.001)) bad = 1 } }
        END { exit bad || (np && np != 2*k) }'
    ;;
ranks)
    etype=$1 p=$2
    if ! command -v h5diff > /dev/null; then
        echo "SKIP: h5diff is needed (Debian: hdf5-tools)"
        exit 77
    fi
    if is3d "$etype"; then
        mesh="n: [4, 3, 3], upper: [2, 1, 1], periodic: [true, false, true], etype: $etype"
        w=", w: 0.1*sin(pi*x)" wz=", w: 0"
    else
        mesh="n: [6, 4], upper: [2, 1], periodic: [true, false], etype: $etype"
        w= wz=
    fi
    write() { # name rules
        cat > "$1.yaml" <<END
backend: {name: openmp, precision: double, $one_variant$2}
mesh: {type: box, $mesh}
partition: {method: metis}
solver:
  name: navier-stokes
  order: $p
  riemann-solver: hllc
  ldg-beta: 0.3
  cache-block: 4
  viscosity-correction: sutherland
  constants: {gamma: 1.4, mu: 0.02, Pr: 0.72, cpTref: 3.5, cpTs: 0.4}
  ics: {rho: 1 + 0.2*exp(-20*((x - 1)^2 + (y - 0.5)^2)), u: 0.3*y,
        v: 0.05*sin(pi*x)$w, p: 1}
  boundaries:
    bottom: {type: no-slp-adia-wall}
    top: {type: no-slp-isot-wall, u: 0.3, v: 0$wz, cpTw: 3.5}
time: {scheme: rk4, cfl: 0.5, steps: 20}
progress: {mode: off}
checkpoint: {interval: 20, file: $1.h5}
END
    }
    write one ""
    for np in 2 3 4; do write np$np ""; done
    write mixed ", rules: [{ranks: \"1\", name: opencl}]"
    "$mpiexec" -n 1 "$frx" run one.yaml > one.txt 2>&1 || { cat one.txt; exit 1; }
    for np in 2 3 4; do
        "$mpiexec" -n $np "$frx" run np$np.yaml > np$np.txt 2>&1 ||
            { cat np$np.txt; exit 1; }
        h5diff -d 1e-12 one.h5 np$np.h5 /solution /solution
    done
    if [ -n "${FRX_NS_NO_MIXED:-}" ]; then
        echo "ns.sh: 1 to 4 ranks agree to 1e-12; the mixed run is left" \
             "out ($FRX_NS_NO_MIXED)"
    elif "$frx" plugins 2>/dev/null | grep -q "^backend  *opencl .*can start"; then
        "$mpiexec" -n 2 "$frx" run mixed.yaml > mixed.txt 2>&1 ||
            { cat mixed.txt; exit 1; }
        h5diff -d 1e-12 one.h5 mixed.h5 /solution /solution
        echo "ns.sh: 1 to 4 ranks and openmp + opencl agree to 1e-12"
    else
        echo "ns.sh: 1 to 4 ranks agree to 1e-12;" \
             "SKIP: opencl cannot start here for the mixed run"
        exit 77
    fi
    ;;
uniform)
    etype=$1
    # rho 1.2, p 1: cp T = gamma/(gamma - 1) p/rho = 2.9166...
    cpT=$(awk 'BEGIN { printf "%.17g", 3.5/1.2 }')
    if is3d "$etype"; then
        mesh="n: [3, 3, 2], upper: [1.2, 1, 0.6], etype: $etype"
        w=", w: 0.1" w0=", w: 0" nf=10
        zwall="back: {type: slp-adia-wall}, front: {type: slp-adia-wall}"
        zrest="back: {type: no-slp-adia-wall}, front: {type: no-slp-adia-wall}"
    else
        mesh="n: [5, 4], upper: [1.2, 1], etype: $etype"
        w= w0= nf=8 zwall= zrest=
    fi
    sep() { [ -n "$1" ] && echo ", $1" || :; }
    # the subsonic stream's total pressure, total cp T and direction
    pt=$(awk 'BEGIN { g = 1.4; c2 = g/1.2; m2 = 0.13/c2
                      printf "%.17g", (1 + (g - 1)/2*m2)^(g/(g - 1)) }')
    if is3d "$etype"; then
        # (u, v, w) = (0.2, 0.3, 0.1): theta from x in x-y, phi from z
        cpTt=$(awk -v c=$cpT 'BEGIN { printf "%.17g", c + 0.07 }')
        pt=$(awk 'BEGIN { g = 1.4; m2 = 0.14/(g/1.2)
                          printf "%.17g", (1 + (g - 1)/2*m2)^(g/(g - 1)) }')
        ang=$(awk 'BEGIN { d = 180/atan2(0, -1)
                           printf "theta: %.17g, phi: %.17g", atan2(0.3, 0.2)*d,
                                  atan2(sqrt(0.13), 0.1)*d }')
    else
        cpTt=$(awk -v c=$cpT 'BEGIN { printf "%.17g", c + 0.065 }')
        ang=$(awk 'BEGIN { printf "theta: %.17g", atan2(0.3, 0.2)*180/atan2(0, -1) }')
    fi
    fs="{type: char-riem-inv, rho: 1.2, u: 0.2, v: 0.3$w, p: 1}"
    zfs=
    is3d "$etype" && zfs="back: $fs, front: $fs"
    # pyramids' viscous terms are stable to a smaller dt (under 5e-4 on
    # these cells, over 1e-3 on the other types: sys_kernels.c,
    # fr__viscous_dt_factor)
    dt=0.001
    [ "$etype" = pyramid ] && dt=0.0003
    run() { # name velocity boundaries
        cat > $1.yaml <<END
backend: {name: openmp, precision: double, $one_variant}
mesh: {type: box, $mesh}
solver:
  name: navier-stokes
  order: 3
  riemann-solver: rusanov
  constants: {gamma: 1.4, mu: 0.05, Pr: 0.72}
  ics: {rho: 1.2, $2, p: 1}
  exact: {rho: 1.2, $2, p: 1}
  boundaries: {$3}
time: {scheme: ssp-rk3, dt: $dt, steps: 40}
progress: {mode: off}
END
        "$mpiexec" -n 2 "$frx" run $1.yaml > $1.txt 2>&1 ||
            { cat $1.txt; echo "ns.sh: the $1 run failed"; exit 1; }
        sed -n 's/^frx: L2 error at t = [^:]*: //p' $1.txt | awk -v f=$1 -v nf=$nf '{
            bad = NF != nf
            for (i = 2; i <= NF; i += 2) bad += !($i < 1e-12)
            printf "ns.sh: uniform %s: L2 errors %s\n", f, $0
            exit bad }' || exit 1
    }
    run rest "u: 0, v: 0$w0" \
        "left: {type: no-slp-isot-wall, u: 0, v: 0$w0, cpTw: $cpT},
         right: {type: no-slp-isot-wall, u: 0, v: 0$w0, cpTw: $cpT},
         bottom: {type: no-slp-adia-wall}, top: {type: no-slp-adia-wall}$(sep "$zrest")"
    run subsonic "u: 0.2, v: 0.3$w" \
        "left: {type: sub-in-frv, rho: 1.2, u: 0.2, v: 0.3$w},
         bottom: {type: sub-in-ftpttang, pt: $pt, cpTt: $cpTt, $ang},
         right: {type: sub-out-fp, p: 1}, top: {type: sub-out-fp, p: 1}$(sep "$zfs")"
    run farfield "u: 0.2, v: 0.3$w" \
        "left: $fs, right: $fs, bottom: $fs, top: $fs$(sep "$zfs")"
    run supersonic "u: 3, v: 0$w0" \
        "left: {type: sup-in-fa, rho: 1.2, u: 3, v: 0$w0, p: 1},
         right: {type: sup-out-fn}, bottom: {type: slp-adia-wall},
         top: {type: slp-adia-wall}$(sep "$zwall")"
    ;;
bad)
    base="backend: {name: openmp, precision: double}
mesh: {type: box, n: [2, 2], periodic: [true, false]}
time: {scheme: rk4, dt: 0.001, steps: 1}"
    refuse() { # name expected-message solver-lines
        { echo "$base"; echo "solver:"; echo "  name: navier-stokes"
          echo "$3"; } > $1.yaml
        if "$mpiexec" -n 1 "$frx" run $1.yaml > $1.txt 2>&1; then
            cat $1.txt; echo "ns.sh: $1 was not refused"; exit 1
        fi
        grep -q -- "$2" $1.txt ||
            { cat $1.txt; echo "ns.sh: $1: no message '$2'"; exit 1; }
        echo "ns.sh: $1 refused: $(grep -- "$2" $1.txt | head -1)"
    }
    walls="  boundaries:
    bottom: {type: no-slp-adia-wall}
    top: {type: no-slp-isot-wall, u: 0, v: 0, cpTw: 3.5}"
    ics="  ics: {rho: 1, u: 0, v: 0, p: 1}"
    refuse no-mu "no-mu.yaml:6:[0-9]*: 'solver.constants' needs mu" \
        "  constants: {gamma: 1.4, Pr: 0.72}
$ics
$walls"
    refuse no-pr "'solver.constants' needs Pr (the Prandtl number)" \
        "  constants: {gamma: 1.4, mu: 0.1}
$ics
$walls"
    refuse no-cptref "needs cpTref .*for viscosity-correction: sutherland" \
        "  viscosity-correction: sutherland
  constants: {gamma: 1.4, mu: 0.1, Pr: 0.72, cpTs: 1}
$ics
$walls"
    refuse cold-wall "solver.boundaries.top: cpTw is -1" \
        "  constants: {gamma: 1.4, mu: 0.1, Pr: 0.72}
$ics
  boundaries:
    bottom: {type: no-slp-adia-wall}
    top: {type: no-slp-isot-wall, u: 0, v: 0, cpTw: -1}"
    ;;
*)
    echo "ns.sh: no mode '$mode'" >&2
    exit 2 ;;
esac
