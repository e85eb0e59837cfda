#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# analysis.sh MODE MPIEXEC FRX ...: frx's analysis plugins (residual,
# integrate, sampler, tavg, fluidforce: plugins/analysis) on euler.
#   agree BACKEND NP...  the three on 1 rank on openmp, then on NP ranks
#       on BACKEND each: every CSV agrees with the first to 1e-12
#       (relative, or absolute below 1); rows at the steps asked for;
#       the mass integral constant to 1e-12 relative over the run; the
#       residual finite and not 0; the progress line shows it. 77 where
#       BACKEND cannot start.
#   exact  a polynomial field of degree p (on quadrilaterals and on
#       triangles, 1 and 3 ranks): the sampler's values at t = 0 are the
#       polynomial's to 1e-12, and integrate's integrals its exact ones.
#   restart  a run interrupted at step 30 (its last checkpoint at step
#       20) and restarted from that checkpoint leaves every CSV byte for
#       byte as one run to the end does (rows past step 20 dropped
#       first, none twice, none missing).
#   killed  a run killed (SIGKILL) in the middle of its time loop, with
#       no checkpoint: its CSVs already hold rows, written while it ran
#       (residual with flush-seconds 0, integrate with 0.3, each every
#       500 steps: a buffer's worth of rows would take minutes), each row
#       whole (as many fields as the first, the file ending a line).
#   refusals  bad input, each with its message, before anything is
#       written: an expression that does not parse (its column), a name
#       that is no variable, a file that cannot be written, a point
#       outside the mesh, no points, an empty exprs, a bad points-file
#       line, every: 0, and a CSV of another case on a restart.
#   tavg BACKEND  time averages on BACKEND (77 where it cannot start): of t and of a constant, exact (the trapezoid
#       rule's values) with their fluctuations, at every point, on 1 and
#       3 ranks, whose averages of rho agree to 1e-12; the VTK series
#       and HDF5 files at every write; a run interrupted at step 30 and
#       restarted from its checkpoint at 20 writes bitwise the averages
#       (HDF5 and VTK) of one run straight through.
#   force BACKEND  fluidforce on BACKEND (77 where it cannot start) on a closed box of slip walls at rest (p = 1.5;
#       quadrilaterals and triangles; 1 and 3 ranks): each wall's force
#       is p x its length along its outward normal, to 1e-12, and they
#       add up to 0 to round-off; in a channel with a uniform flow along
#       it, the same on its walls at every step. Refused: a boundary the
#       mesh has not (its list of boundaries), none.
#   extruded  the vortex on 6 x 6 quadrilaterals and extruded along z
#       on 6 x 6 x 2 hexahedra (Lz = 2, w = 0), 2 ranks: the 3-D run's
#       sampler columns equal the 2-D run's to 1e-12 (rhow and w 0), its
#       integrals are Lz times them and its residual's L2 norms sqrt(Lz)
#       times them (its max norms equal) to 1e-10.
#   peer-fails  a reduction that fails on rank 1 of 2 (FRX_FAULT_LIB,
#       tests/fault.c: residual's, then integrate's): the run stops with
#       rank 1's reason, rank 0 not named, and rank 0 writes no row of
#       its own share alone (the CSV holds its header only).
#   fakegpu FAKEGPU KEEP  every analysis plugin on frx-fakegpu, CSVs as
#       openmp's to 1e-12, their kernel sources kept in KEEP for
#       gpu-compile-solvers-* (NVRTC, hiprtc).
set -u
lib=$(cd "$(dirname "$0")" && pwd)/runlib.sh
src=$(cd "$(dirname "$0")/../.." && pwd)
mode=$1 mpiexec=$2 frx=$3
shift 3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/frx-analysis.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export TMPDIR="$tmp" OMP_NUM_THREADS=1
me=analysis.sh
. "$lib"

# steps FILE: the first column, space-separated, after the header
steps() { awk -F , 'NR > 1 { printf "%s ", $1 }' "$1"; }

# the vortex (examples/extension-interface-jump's: 8 x 8, p = 2, here
# 40 steps of 0.01) on BACKEND with the three plugins (sampler points
# inside elements, away from every face)
vortex() {
    sed -e "s/backend: {name: openmp,/backend: {name: $1,/" \
        -e "s/steps: 20}/steps: ${2:-40}}/" \
        -e 's/^progress: {mode: off}/progress: {mode: lines, interval: 10}/' \
        -e '/^#/d' -e '/^extensions:/,$d' \
        "$src/examples/extension-interface-jump/vortex.yaml"
    cat <<YAML
extensions:
  - {name: residual, every: 5, file: res.csv}
  - name: integrate
    every: 10
    file: int.csv
    exprs: {mass: rho, xmom: rhou, energy: E, ke: 0.5*rho*(u*u + v*v),
            'max(p, 2)': 'max(p, 2)*(x + 20)'}
  - name: sampler
    every: 10
    file: probes.csv
    points: {core: [0.3, 0.2], far: [-4.1, 7.7], edge: [9.3, -9.6]}
    fields: [rho, p, u*u + v*v]
YAML
}

# walled BACKEND UPPER ICS DT STEPS [ETYPE [PERIODIC]]: euler (p = 2) on
# a box of 3 x 4 elements (ETYPE, default quad) from 0 to UPPER ("2, 3")
# with slip walls (but left and right where PERIODIC is true: periodic
# in x), initial state ICS, up to its `extensions:` line
walled() {
    cat <<YAML
backend: {name: $1, precision: double}
mesh: {type: box, n: [3, 4], upper: [$2], etype: ${6:-quad},
       periodic: [${7:-false}, false]}
solver:
  name: euler
  order: 2
  constants: {gamma: 1.4}
  boundaries:
YAML
    [ "${7:-false}" = true ] ||
        printf '    left: {type: slp-adia-wall}\n    right: {type: slp-adia-wall}\n'
    cat <<YAML
    bottom: {type: slp-adia-wall}
    top: {type: slp-adia-wall}
  ics: {$3}
time: {scheme: rk4, dt: $4, steps: $5}
progress: {mode: off}
output: {dir: out}
extensions:
YAML
}

case $mode in
agree)
    be=$1
    shift
    vortex openmp > ref.yaml
    run 1 ref.yaml; rc=$?
    expect 0 "step 40 .* res [0-9.e+-]+ [0-9.e+-]+ [0-9.e+-]+ [0-9.e+-]+$"
    for f in res int probes; do mv $f.csv ref-$f.csv; done
    [ "$(steps ref-res.csv)" = "5 10 15 20 25 30 35 40 " ] ||
        { cat ref-res.csv; fail "residual rows not every 5 steps"; }
    for f in int probes; do
        [ "$(steps ref-$f.csv)" = "0 10 20 30 40 " ] ||
            { cat ref-$f.csv; fail "$f rows not at 0 and every 10 steps"; }
    done
    head -n 1 ref-int.csv | grep -qx 'step,t,mass,xmom,energy,ke,"max(p, 2)"' ||
        fail "integrate's header: $(head -n 1 ref-int.csv)"
    awk -F , 'NR == 2 { m = $3 } NR > 2 { d = $3 - m; d = d < 0 ? -d : d
        if (d > 1e-12 * m) bad = 1 } END { exit bad || !(m > 0) }' ref-int.csv ||
        { cat ref-int.csv; fail "the mass is not constant to 1e-12"; }
    awk -F , 'NR > 1 { for (i = 3; i <= NF; i++)
        if (!($i + 0 > 0) || $i + 0 > 1e3) bad = 1 } END { exit bad }' ref-res.csv ||
        { cat ref-res.csv; fail "a residual is 0 or not finite"; }
    for np; do
        vortex "$be" > c.yaml
        run "$np" c.yaml; rc=$?
        [ "$rc" != 0 ] && grep -q "cannot start" out.txt && { cat out.txt; exit 77; }
        expect 0
        for f in res int probes; do
            csv_agree $f.csv ref-$f.csv 1e-12 ||
                fail "$f.csv on $np rank(s), $be, differs from 1 rank on openmp"
        done
        echo "analysis.sh: $be, $np rank(s): the CSVs agree"
    done
    ;;
exact)
    # degree 2 (p = 2): exact at any point; integrals of the box [0,2]^2
    #   rho = 1 + 0.1 x + 0.05 x y - 0.02 y^2: 4 + 0.4 + 0.2 - 0.10667
    for etype in quad tri; do
        walled openmp "2, 2" "rho: 1 + 0.1*x + 0.05*x*y - 0.02*y*y, u: 0.1, v: -0.2, p: 1" \
            0.001 1 $etype > p.yaml
        cat >> p.yaml <<YAML
  - {name: integrate, file: int.csv, exprs: {mass: rho, xmom: rhou}}
  - name: sampler
    file: probes.csv
    points: {a: [0.1234, 1.777], b: [1.9, 0.05], c: [1.01, 1.3]}
    fields: [rho]
YAML
        for np in 1 3; do
            run "$np" p.yaml; rc=$?
            expect 0
            awk -F , 'NR == 2 {
                split("0.1234 1.777 1.9 0.05 1.01 1.3", c, " ")
                for (i = 0; i < 3; i++) {
                    x = c[2*i + 1]; y = c[2*i + 2]
                    r = 1 + 0.1*x + 0.05*x*y - 0.02*y*y
                    d = $(3 + i) - r; d = d < 0 ? -d : d
                    if (d > 1e-12) { printf "point %d: %.17g, exact %.17g\n", i, $(3 + i), r; bad = 1 }
                }
            } END { exit bad }' probes.csv ||
                { cat probes.csv; fail "sampled values not exact ($etype, $np ranks)"; }
            awk -F , 'NR == 2 { m = 4 + 0.4 + 0.2 - 0.16/1.5; d = $3 - m
                d = d < 0 ? -d : d; u = $4 - 0.1*m; u = u < 0 ? -u : u
                if (d > 1e-12 || u > 1e-12) { printf "%.17g, %.17g against %.17g, %.17g\n", $3, $4, m, 0.1*m; exit 1 } }' int.csv ||
                fail "integrals not exact ($etype, $np ranks)"
        done
        echo "analysis.sh: $etype: sampled and integrated exactly on 1 and 3 ranks"
    done
    ;;
restart)
    vortex openmp 40 > a.yaml
    printf 'checkpoint: {interval: 20, file: "ck-{step}.h5"}\n' >> a.yaml
    run 2 a.yaml; rc=$?
    expect 0
    for f in res int probes; do mv $f.csv whole-$f.csv; done
    # interrupted: 30 steps, the last checkpoint at step 20 (the last
    # step is written too: drop it, as a run killed would not have it)
    vortex openmp 30 > b.yaml
    printf 'checkpoint: {interval: 20, file: "ck-{step}.h5"}\n' >> b.yaml
    run 2 b.yaml; rc=$?
    expect 0
    rm -f ck-00000030.h5
    [ "$(steps res.csv)" = "5 10 15 20 25 30 " ] || fail "the first half's rows: $(steps res.csv)"
    FRX_LOG=info run 2 a.yaml --restart ck-00000020.h5; rc=$?
    expect 0 "residual: res.csv continues after step 20 [(]4 rows kept, 2 after it dropped[)]"
    for f in res int probes; do
        cmp $f.csv whole-$f.csv ||
            { diff $f.csv whole-$f.csv; fail "$f.csv after the restart differs from one run's"; }
    done
    echo "analysis.sh: the restarted run's CSVs are byte for byte one run's"
    ;;
killed)
    # one rank, no mpirun, so that SIGKILL stops the very process
    vortex openmp 1000000 |
        sed -e 's/{name: residual, every: 5, file: res.csv}/{name: residual, every: 500, file: res.csv, flush-seconds: 0}/' \
            -e 's/^    every: 10$/    every: 500/' \
            -e 's/^    file: int.csv/    file: int.csv\n    flush-seconds: 0.3/' > a.yaml
    grep -q 'flush-seconds: 0}' a.yaml && grep -q 'flush-seconds: 0.3' a.yaml ||
        fail "the case lacks its flush-seconds"
    "$frx" run a.yaml > out.txt 2>&1 &
    pid=$!
    # rows reach the files while the run goes on: wait for 4 of each
    n=0
    while [ $n -lt 600 ]; do
        kill -0 $pid 2> /dev/null || { cat out.txt; fail "the run ended before it was killed"; }
        [ -f res.csv ] && [ -f int.csv ] && [ "$(wc -l < res.csv)" -gt 4 ] &&
            [ "$(wc -l < int.csv)" -gt 4 ] && break
        sleep 0.1
        n=$((n + 1))
    done
    kill -9 $pid
    wait $pid 2> /dev/null
    [ $n -lt 600 ] || { cat out.txt; fail "no rows in res.csv or int.csv after 60 s"; }
    for f in res int; do
        # (the header may quote a comma: rows are counted from the first)
        awk -F , 'NR == 2 { n = NF } NR > 1 && (NF != n || $NF == "") { bad = 1 }
                  END { exit bad || NR < 5 }' $f.csv &&
            [ "$(tail -c 1 $f.csv | od -An -c | tr -d ' ')" = '\n' ] ||
            { cat $f.csv; fail "$f.csv of the killed run: not whole rows"; }
    done
    echo "analysis.sh: the killed run left $(($(wc -l < res.csv) - 1)) and $(($(wc -l < int.csv) - 1)) whole rows"
    ;;
refusals)
    # try ITEM PATTERN...: the vortex with ITEM alone refused by frx run,
    # with the patterns; nothing written
    try() {
        item=$1
        shift
        vortex openmp | sed '/^extensions:/,$d' > r.yaml
        printf 'extensions:\n%s\n' "$item" >> r.yaml
        run 2 r.yaml; rc=$?
        expect 1 "$@"
        ls | grep -Eq '[.]csv' && { ls; fail "a file was written"; }
    }
    try '  - {name: integrate, file: i.csv, exprs: {m: rho*(u + * v)}}' \
        'r.yaml:[0-9]+:[0-9]+: exprs.m = .rho[*][(]u [+] [*] v[)].: .*character 10'
    try '  - {name: integrate, file: i.csv, exprs: {m: rho*w}}' \
        "unknown variable 'w' .*known names: x, y, t, rho, rhou, rhov, E, u, v, p"
    touch plain
    try '  - {name: residual, file: plain/r.csv}' 'residual: cannot write plain/r.csv'
    try '  - {name: sampler, file: s.csv, points: {out: [10.5, 0]}}' \
        "r.yaml:[0-9]+:[0-9]+: sampler: point 'out' at [(]10.5, 0[)] is in no element of the mesh"
    try '  - {name: sampler, file: s.csv}' 'sampler: no points'
    try '  - {name: integrate, file: i.csv, exprs: {}}' 'integrate: exprs is empty'
    try '  - {name: tavg, exprs: {p: p}, window: [1, 0.5]}' \
        'r.yaml:17:41: tavg: the window \[1, 0.5\] ends before it starts'
    try '  - {name: tavg, exprs: {p: p*q}}' "unknown variable 'q'"
    printf '1,2\n3,oops\n' > pts.txt
    try '  - {name: sampler, file: s.csv, points-file: pts.txt}' \
        "pts.txt:2: sampler: expected 'x,y' or 'name,x,y'"
    # what the options' schemas refuse, frx config check too
    for one in '  - {name: residual, every: 0, file: r.csv}|r.yaml:17:29: .extensions.0..every. must be between 1 and 1000000000, got 0' \
        '  - {name: sampler, file: s.csv, point: {a: [0, 0]}}|r.yaml:17:34: unknown key .point. in .extensions.sampler. [(]did you mean .points.[?][)]'; do
        try "${one%|*}" "${one#*|}"
        "$frx" config check r.yaml > out.txt 2>&1; rc=$?
        expect 1 "${one#*|}"
    done
    # a restart over a CSV another case wrote
    vortex openmp 10 > a.yaml
    printf 'checkpoint: {interval: 10, file: "ck-{step}.h5"}\n' >> a.yaml
    run 1 a.yaml; rc=$?
    expect 0
    printf 'step,t,other\n' > res.csv
    run 1 a.yaml --restart ck-00000010.h5; rc=$?
    expect 1 "residual: res.csv has the columns 'step,t,other', this run writes 'step,t,rho_l2,.*': it was written by another case"
    echo "analysis.sh: every refusal as documented"
    ;;
tavg)
    be=$1
    # h5 FILE: the averages of an HDF5 output, one value a line (%.17g)
    h5() {
        h5dump -m %.17g -d /solution/quad/u -y -w 0 "$1" |
            awk '/DATA {/ { on = 1; next } on && /}/ { on = 0 }
                 on { gsub(/,/, " "); for (i = 1; i <= NF; i++) print $i }'
    }
    walled "$be" "2, 2" "rho: 1 + 0.1*x + 0.05*x*y - 0.02*y*y, u: 0.1, v: -0.2, p: 1" \
        0.01 10 > t.yaml
    cat >> t.yaml <<YAML
  - {name: tavg, exprs: {a: t, c: 2, r: rho}, fluctuations: true,
     write-every: 5}
YAML
    for np in 1 3; do
        rm -rf out
        run "$np" t.yaml; rc=$?
        [ "$rc" != 0 ] && grep -q "cannot start" out.txt && { cat out.txt; exit 77; }
        expect 0
        for f in out/tavg-00000005.h5 out/tavg-00000010.h5 out/tavg.pvd \
            out/tavg-000010.pvtu; do
            [ -s "$f" ] || { ls -R out; fail "no $f on $np rank(s)"; }
        done
        h5dump -a variables out/tavg-00000010.h5 | tr -d '\n ' |
            grep -q '"a","c","r","a_fluct","c_fluct","r_fluct"' ||
            fail "the averages' names: $(h5dump -a variables out/tavg-00000010.h5)"
        h5 out/tavg-00000010.h5 > v$np.txt
        # 12 elements x 9 points x 6 fields; a = 0.05, its fluctuation
        # the trapezoid rule's, c = 2 with none
        awk 'BEGIN { h = 0.01; for (i = 0; i <= 10; i++) {
                t = i * h; s += (i == 0 || i == 10 ? h / 2 : h) * t * t }
                want[0] = 0.05; want[1] = 2; want[3] = s / 0.1 - 0.0025
                want[4] = 0 }
            { k = (NR - 1) % 6; if (k in want) { d = $1 - want[k]
                d = d < 0 ? -d : d; if (d > 1e-15) { print NR ": " $1 " not " want[k]; bad = 1 } } }
            END { exit bad || NR != 648 }' v$np.txt ||
            fail "averages not the trapezoid rule's on $np rank(s)"
    done
    paste v1.txt v3.txt | awk '{ d = $1 - $2; d = d < 0 ? -d : d
        if (d > 1e-12 * ($1 < 0 ? -$1 : $1)) bad = 1 } END { exit bad }' ||
        fail "the averages on 3 ranks differ from 1 rank's"
    echo "analysis.sh: tavg on $be: exact, and the same on 1 and 3 ranks"
    # restart: the vortex, window [0.05, 0.35], written every 10 steps
    tv() {
        vortex "$be" "$1" | sed '/^extensions:/,$d'
        printf 'output: {dir: out}\n'
        printf 'checkpoint: {interval: 20, file: "ck-{step}.h5"}\n'
        printf 'extensions:\n  - {name: tavg, every: 2, window: [0.05, 0.35],\n'
        printf '     exprs: {p: p, ke: 0.5*rho*(u*u + v*v)}, fluctuations: true,\n'
        printf '     write-every: 10}\n'
    }
    tv 40 > a.yaml
    rm -rf out
    run 2 a.yaml; rc=$?
    expect 0
    mv out whole
    tv 30 > b.yaml
    run 2 b.yaml; rc=$?
    expect 0
    rm -f ck-00000030.h5
    run 2 a.yaml --restart ck-00000020.h5; rc=$?
    expect 0
    [ -s out/tavg-00000036.h5 ] || { ls out; fail "no averages at the window's end (step 36)"; }
    for step in 30 36; do
        h5 out/tavg-000000$step.h5 > r.txt
        h5 whole/tavg-000000$step.h5 > w.txt
        [ -s w.txt ] && cmp -s r.txt w.txt ||
            fail "the averages at step $step after the restart differ from one run's"
        for piece in out/tavg/tavg-0000$step-*.vtu; do
            cmp "$piece" "whole/${piece#out/}" ||
                fail "$piece differs from one run's"
        done
    done
    ls out/tavg-*.h5 | tr '\n' ' ' | grep -q "^out/tavg-00000010.h5 out/tavg-00000020.h5 out/tavg-00000030.h5 out/tavg-00000036.h5 $" ||
        fail "the writes: $(ls out/tavg-*.h5)"
    echo "analysis.sh: tavg on $be: the restarted run's averages are bitwise one run's"
    ;;
force)
    be=$1
    # box ETYPE PERIODIC U: the closed box [0,2] x [0,3] (or a channel
    # periodic in x), at rest or with u = U
    box() { walled "$be" "2, 3" "rho: 1, u: $3, v: 0, p: 1.5" 0.01 10 "$1" "$2"; }
    for etype in quad tri; do
        for np in 1 3; do
            box $etype false 0 > f.yaml
            echo '  - {name: fluidforce, every: 5, file: f.csv, boundaries: [left, right, bottom, top]}' >> f.yaml
            run "$np" f.yaml; rc=$?
            [ "$rc" != 0 ] && grep -q "cannot start" out.txt && { cat out.txt; exit 77; }
            expect 0
            awk -F , 'NR == 1 && $0 != "step,t,left_fx,left_fy,right_fx,right_fy,bottom_fx,bottom_fy,top_fx,top_fy" { bad = 1 }
                NR > 1 { split("-4.5 0 4.5 0 0 -3 0 3", w, " ")
                    for (i = 1; i <= 8; i++) { d = $(i + 2) - w[i]; d = d < 0 ? -d : d
                        if (d > 1e-12 * 4.5) { print "column " i + 2 ": " $(i + 2) " not " w[i]; bad = 1 } }
                    sx = $3 + $5 + $7 + $9; sy = $4 + $6 + $8 + $10
                    if (sx > 1e-13 || sx < -1e-13 || sy > 1e-13 || sy < -1e-13) { print "sum " sx ", " sy; bad = 1 }
                    n++ }
                END { exit bad || n != 3 }' f.csv ||
                { cat f.csv; fail "the box's forces ($etype, $np ranks)"; }
        done
        box $etype true 0.3 > c.yaml
        echo '  - {name: fluidforce, every: 5, file: c.csv, boundaries: [top, bottom]}' >> c.yaml
        run 2 c.yaml; rc=$?
        expect 0
        awk -F , 'NR > 1 { split("0 3 0 -3", w, " ")
                for (i = 1; i <= 4; i++) { d = $(i + 2) - w[i]; d = d < 0 ? -d : d
                    if (d > 1e-12 * 3) { print "column " i + 2 ": " $(i + 2) " not " w[i]; bad = 1 } }
                n++ }
            END { exit bad || n != 3 }' c.csv ||
            { cat c.csv; fail "the channel's forces ($etype)"; }
        echo "analysis.sh: fluidforce on $be: $etype: p x length on each wall, 0 in all"
    done
    rm -f f.csv
    box quad false 0 > r.yaml
    echo '  - {name: fluidforce, file: f.csv, boundaries: [left, wall]}' >> r.yaml
    run 2 r.yaml; rc=$?
    expect 1 "r.yaml:[0-9]+:[0-9]+: fluidforce: the mesh has no boundary 'wall'; it has: left, right, bottom, top|r.yaml:[0-9]+:[0-9]+: fluidforce: the mesh has no boundary 'wall'; it has: .*left"
    box quad false 0 > r.yaml
    echo '  - {name: fluidforce, file: f.csv, boundaries: []}' >> r.yaml
    run 2 r.yaml; rc=$?
    expect 1 "fluidforce: boundaries is empty; the mesh has: "
    [ ! -e f.csv ] || fail "a refused run wrote f.csv"
    echo "analysis.sh: fluidforce: refusals"
    ;;
extruded)
    for d in 2 3; do
        mkdir d$d
        if [ $d = 2 ]; then
            mesh="n: [6, 6], lower: [-5, -5], upper: [5, 5], periodic: [true, true]"
            pts="a: [0.3, 0.2], b: [-2.1, 3.3]" wmom=rhov
            fields=$(cat "$src/tests/euler/vortex-fields.yaml")
        else
            mesh="n: [6, 6, 2], lower: [-5, -5, 0], upper: [5, 5, 2], periodic: [true, true, true]"
            pts="a: [0.3, 0.2, 0.7], b: [-2.1, 3.3, 1.5]" wmom=rhow
            # the vortex's fields (tests/euler), w = 0 after each v
            fields=$(sed -e 's/^\(    v: .*\)$/\1\
    w: 0/' "$src/tests/euler/vortex-fields.yaml")
        fi
        cat > d$d/case.yaml <<YAML
backend: {name: openmp, precision: double}
mesh: {type: box, $mesh}
solver:
  name: euler
  order: 2
$fields
time: {scheme: rk4, dt: 0.01, steps: 20}
progress: {mode: off}
extensions:
  - {name: residual, every: 5, file: r.csv}
  - {name: integrate, every: 5, file: i.csv, exprs: {mass: rho, energy: E, wmom: $wmom}}
  - {name: sampler, every: 5, file: s.csv, points: {$pts}}
YAML
        (cd d$d && "$mpiexec" -n 2 "$frx" run case.yaml > out.txt 2>&1) ||
            { cat d$d/out.txt; fail "the $d-D run failed"; }
    done
    # NAME TOL SCALE: every column of d2/NAME (by its name) against
    # d3/NAME's, times SCALE (a column whose name ends in _max: 1);
    # columns only d3 has must be 0 to TOL
    compare() {
        paste -d '\n' "d2/$1" "d3/$1" | awk -F , -v tol="$2" -v sc="$3" -v f="$1" '
            NR == 1 { for (i = 1; i <= NF; i++) h2[i] = $i; n2 = NF; next }
            NR == 2 { for (i = 1; i <= NF; i++) c3[$i] = i; n3 = NF
                      for (i = 1; i <= NF; i++) only3[i] = 1
                      for (i = 1; i <= n2; i++) {
                          if (!(h2[i] in c3)) { print f ": no column " h2[i] " in 3-D"; bad++ }
                          else only3[c3[h2[i]]] = 0 }
                      next }
            NR % 2 == 1 { for (i = 1; i <= NF; i++) a[i] = $i; next }
            { for (i = 3; i <= n2; i++) {
                  s = h2[i] ~ /_max$/ ? 1 : sc
                  j = c3[h2[i]]; want = a[i] * s
                  if (h2[i] == "wmom") continue # rhow against rhov: below
                  if (!(abs($j - want) <= tol * (abs(want) > 1 ? abs(want) : 1))) {
                      printf "%s step %s: %s 3-D %s, 2-D x %s %s\n", f, $1, h2[i], $j, s, want; bad++ } }
              for (j = 3; j <= n3; j++)
                  if (only3[j] && !(abs($j) <= tol)) { printf "%s: 3-D only %s = %s\n", f, j, $j; bad++ }
              rows++ }
            function abs(x) { return x < 0 ? -x : x }
            END { printf "analysis.sh: %s: %d rows compared\n", f, rows; exit bad || !rows }' ||
            fail "$1: the 3-D run is not the 2-D one extruded"
    }
    compare s.csv 1e-12 1
    compare i.csv 1e-12 2
    compare r.csv 1e-10 1.4142135623730951
    awk -F , 'NR > 1 && ($5 + 0 > 1e-12 || $5 + 0 < -1e-12) { bad = 1 } END { exit bad }' d3/i.csv ||
        { cat d3/i.csv; fail "the 3-D run's z momentum is not 0"; }
    echo "analysis.sh: residual, integrate and sampler on hexahedra as on the 2-D run"
    ;;
peer-fails)
    [ -n "${FRX_FAULT_LIB:-}" ] || fail "FRX_FAULT_LIB is not set"
    for one in 'residual|sq|res.csv' 'integrate|s|int.csv'; do
        plugin=${one%%|*} arg=${one#*|} arg=${arg%|*} csv=${one##*|}
        vortex openmp 10 | sed '/^extensions:/,$d' > f.yaml
        printf 'extensions:\n  - {name: %s, every: 2, file: %s%s}\n' \
            "$plugin" "$csv" \
            "$([ "$plugin" = integrate ] && echo ', exprs: {mass: rho}')" >> f.yaml
        "$mpiexec" -n 2 -x LD_PRELOAD="$FRX_FAULT_LIB" \
            -x FRX_FAULT="result:1:$arg" "$frx" run f.yaml > out.txt 2>&1
        rc=$?
        expect 1 "extension '$plugin' [(](initial|step)[)] failed on 1 of 2 rank[(]s[)]" \
            "^  rank 1: .*frx_kernel_result of '$arg': the backend failed [(]injected"
        grep -q "^  rank 0:" out.txt && { cat out.txt; fail "$plugin: rank 0 is named: it did not fail"; }
        [ -f "$csv" ] || fail "$plugin: no $csv (its header is written at start)"
        [ "$(wc -l < "$csv")" = 1 ] ||
            { cat "$csv"; fail "$plugin: $csv has a row of rank 0's share alone"; }
        rm -f "$csv"
    done
    echo "analysis.sh: no row where a rank's share is missing"
    ;;
fakegpu)
    fakegpu=$1 keep=$2
    rm -rf "$keep/analysis"
    mkdir -p "$keep/analysis"
    vortex openmp > ref.yaml
    run 2 ref.yaml; rc=$?
    expect 0
    for f in res int probes; do mv $f.csv ref-$f.csv; done
    vortex fakegpu > g.yaml
    FRX_CACHE_DIR="$tmp/cache" FRX_FAKEGPU_KEEP_SOURCES="$keep/analysis" \
        FRX_PLUGIN_PATH="$fakegpu:${FRX_PLUGIN_PATH:-}" run 2 g.yaml; rc=$?
    expect 0
    for f in res int probes; do
        csv_agree $f.csv ref-$f.csv 1e-12 || fail "$f.csv on fakegpu is not openmp's"
    done
    # tavg and fluidforce on a closed box
    walled openmp "2, 3" "rho: 1 + 0.1*x*y, u: 0.1, v: 0, p: 1.5" 0.01 10 > fb.yaml
    cat >> fb.yaml <<YAML
  - {name: fluidforce, every: 5, file: f.csv, boundaries: [left, right]}
  - {name: tavg, every: 2, exprs: {p: p}, fluctuations: true}
YAML
    run 1 fb.yaml; rc=$?
    expect 0
    mv f.csv ref-f.csv
    sed 's/name: openmp,/name: fakegpu,/' fb.yaml > fg.yaml
    FRX_CACHE_DIR="$tmp/cache" FRX_FAKEGPU_KEEP_SOURCES="$keep/analysis" \
        FRX_PLUGIN_PATH="$fakegpu:${FRX_PLUGIN_PATH:-}" run 1 fg.yaml; rc=$?
    expect 0
    csv_agree f.csv ref-f.csv 1e-12 || fail "fluidforce on fakegpu is not openmp's"
    for k in residual.residual_keep residual.residual_norm integrate.integrate sampler.sampler \
        tavg.tavg_acc tavg.tavg_out fluidforce.fluidforce; do
        grep -lq "$k" "$keep/analysis"/* ||
            fail "no kernel source of $k kept in $keep/analysis"
    done
    echo "analysis.sh: $(ls "$keep/analysis" | grep -c '[.]cu$') kernel source(s) kept"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
