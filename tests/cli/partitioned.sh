#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# partitioned.sh MODE MPIEXEC FRX ...: meshes read in parts (mesh type
# partitioned: `frx mesh partition CASE -n N -o FILE`, each rank reading
# its own part only) against the same meshes built on every rank.
#   agree BACKEND NP...  on NP ranks each, on BACKEND (77 where it
#       cannot start): euler on PyFR's vortex mesh (Gmsh, periodic
#       quadrilaterals) and on a box of triangles with slip walls (the
#       boundary faces), integrate's and sampler's or fluidforce's CSVs
#       of the partitioned run equal the built run's to 1e-12; the
#       partitioned run says where its mesh came from.
#   merge BACKEND NP...  a file of 4 parts run on NP ranks each (fewer
#       than 4: each rank merges the parts it takes), both cases: the
#       CSVs as the built run's on as many ranks to 1e-12 (relative, or
#       absolute for round-off near 0); 3 ranks warned of uneven shares.
#   restart  a checkpoint of a built run on 2 ranks, restarted on 3
#       ranks from a file partitioned for 3: the same mesh (its id), and
#       the CSV rows after the restart as the straight run's to 1e-12
#       (relative, or absolute for the momentum's round-off near 0);
#       frx plot draws the partitioned run's checkpoint in one process.
#   large  parts of more faces than the file's writer puts out in one
#       slice (65536 rows): advection (p = 1, 2 steps) on 200 x 200
#       periodic quadrilaterals (80000 faces), one part on 1 rank and two
#       on 2, reads back and prints the built mesh's L2 error, digit for
#       digit.
#   refusals  each with its message, nothing run: a file for 2 ranks on
#       3, weights and a method the file was not made with, weights for
#       a file of more parts than ranks, a
#       checkpoint given as the mesh file, a truncated file, a missing
#       one (frx config check too), a partitioned mesh given to frx
#       mesh partition; a file that cannot be written (no such folder)
#       is said and leaves nothing.
set -u
lib=$(cd "$(dirname "$0")" && pwd)/runlib.sh
src=$(cd "$(dirname "$0")/../.." && pwd)
mode=$1 mpiexec=$2 frx=$3
shift 3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/frx-partitioned.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export TMPDIR="$tmp" OMP_NUM_THREADS=1
me=partitioned.sh
. "$lib"

# vortex BACKEND STEPS: config/euler-vortex.yaml (PyFR's mesh, p = 3)
# for STEPS steps, with integrate and sampler
vortex() {
    sed -e "s/^  name: openmp .*/  name: $1/" \
        -e "s|file: meshes/euler-vortex.msh|file: $src/config/meshes/euler-vortex.msh|" \
        -e "s/^  t-end: 1/  steps: $2/" -e '/^extensions:/,$d' \
        "$src/config/euler-vortex.yaml"
    cat <<YAML
extensions:
  - {name: integrate, every: 5, file: int.csv,
     exprs: {mass: rho, xmom: rhou, energy: E}}
  - {name: sampler, every: 5, file: probes.csv, fields: [rho, p],
     points: {a: [0.3, 0.2], b: [-4.1, 7.7], c: [9.3, -9.6]}}
YAML
}

# walls BACKEND: euler (p = 2) on 6 x 5 triangles in a box of slip walls,
# a pressure bump at rest, with integrate and fluidforce
walls() {
    cat <<YAML
backend: {name: $1, precision: double}
mesh: {type: box, n: [6, 5], upper: [3, 2], etype: tri}
solver:
  name: euler
  order: 2
  constants: {gamma: 1.4}
  boundaries:
    left: {type: slp-adia-wall}
    right: {type: slp-adia-wall}
    bottom: {type: slp-adia-wall}
    top: {type: slp-adia-wall}
  ics: {rho: 1, u: 0, v: 0, p: 1 + 0.2*exp(-4*((x - 1)^2 + (y - 1.2)^2))}
time: {scheme: rk4, dt: 0.002, steps: 20}
progress: {mode: off}
extensions:
  - {name: integrate, every: 5, file: int.csv, exprs: {mass: rho, e: E}}
  - {name: fluidforce, every: 5, file: force.csv,
     boundaries: [left, right, bottom, top]}
YAML
}

# as_parts CASE FILE: CASE with its mesh read from FILE
as_parts() {
    awk -v f="$2" '
        /^mesh:/ { print "mesh: {type: partitioned, file: " f "}"; skip = 1
                   if ($0 ~ /}$/) skip = 0; next }
        skip && /^[a-z]/ { skip = 0 }
        skip { if ($0 ~ /}$/) skip = 0; next }
        { print }' "$1"
}

# partition CASE NP FILE: frx mesh partition, checked
partition() {
    "$frx" mesh partition "$1" -n "$2" -o "$3" > part.txt 2>&1 ||
        { cat part.txt; fail "frx mesh partition $1 -n $2 failed"; }
    grep -q "^wrote $3: $2 part" part.txt || { cat part.txt; fail "no 'wrote' line"; }
}

# same FLOOR BUILT PARTS CSV...: each CSV of the two runs' folders
# agrees to 1e-12 relative (or FLOOR absolute)
same() {
    floor=$1 a=$2 b=$3
    shift 3
    for f; do
        [ -s "$a/$f" ] || fail "$a/$f was not written"
        csv_agree "$a/$f" "$b/$f" "$floor" ||
            fail "$f: read in parts differs from built"
    done
}

# both C BACKEND NPARTS NP FLOOR: case C (vortex or walls) on NP ranks,
# its mesh built and read from a file of NPARTS parts: 77 where BACKEND
# cannot start; the CSVs agree (FLOOR as same's); out.txt the second's
both() {
    rm -rf built parts && mkdir built parts
    if [ "$1" = vortex ]; then vortex "$2" 20; else walls "$2"; fi > built/case.yaml
    partition built/case.yaml "$3" "$tmp/parts/mesh.h5"
    as_parts built/case.yaml mesh.h5 > parts/case.yaml
    (cd built && run "$4" case.yaml); rc=$?
    [ "$rc" != 0 ] && grep -q "cannot start" built/out.txt &&
        { cat built/out.txt; exit 77; }
    mv built/out.txt out.txt; expect 0
    (cd parts && FRX_LOG=info "$mpiexec" -n "$4" "$frx" run case.yaml > out.txt 2>&1); rc=$?
    mv parts/out.txt out.txt
    expect 0 "mesh: [0-9]+ elements in $3 parts [(]metis[)] on $4 ranks, read from .*mesh.h5"
    if [ "$1" = vortex ]; then same "$5" built parts int.csv probes.csv
    else same "$5" built parts int.csv force.csv; fi
}

case $mode in
agree)
    be=$1
    shift
    for np; do
        for c in vortex walls; do
            both $c "$be" "$np" "$np" 0
            echo "$me: $c, $be, $np rank(s): read in parts as built"
        done
    done
    ;;
merge)
    be=$1
    shift
    for np; do
        for c in vortex walls; do
            both $c "$be" 4 "$np" 1e-12
            [ "$np" = 3 ] && expect 0 "warn: mesh: .*mesh.h5 holds 4 parts, shared out among 3 ranks unevenly [(]1 or 2 a rank[)]"
            echo "$me: $c, $be, 4 parts on $np rank(s): as built"
        done
    done
    ;;
large)
    for np in 1 2; do
        rm -rf built parts && mkdir built parts
        cat > built/case.yaml <<YAML
backend: {name: openmp, precision: double}
solver: {name: advection, order: 1, velocity: [1, 0.5]}
mesh: {type: box, n: [200, 200], periodic: [true, true]}
time: {scheme: rk4, dt: 1e-4, steps: 2}
progress: {mode: off}
YAML
        partition built/case.yaml "$np" "$tmp/parts/mesh.h5"
        as_parts built/case.yaml mesh.h5 > parts/case.yaml
        for d in built parts; do
            (cd $d && run "$np" case.yaml); rc=$?
            mv $d/out.txt out.txt
            expect 0 "L2 error at t = "
            grep "L2 error at t = " out.txt > $d/l2.txt
        done
        cmp -s built/l2.txt parts/l2.txt ||
            fail "$np part(s) of 200 x 200: $(cat parts/l2.txt) read in parts, $(cat built/l2.txt) built"
        echo "$me: 200 x 200 in $np part(s): read in parts as built ($(cat parts/l2.txt))"
    done
    ;;
restart)
    vortex openmp 20 | sed 's/^time:/checkpoint: {interval: 10}\ntime:/' > built.yaml
    run 2 built.yaml; rc=$?
    expect 0
    [ -f checkpoint-00000010.h5 ] || fail "no checkpoint at step 10"
    mkdir ref && cp int.csv probes.csv ref/
    partition built.yaml 3 "$tmp/three.h5"
    as_parts built.yaml three.h5 > parts.yaml
    "$mpiexec" -n 3 "$frx" run parts.yaml --restart checkpoint-00000010.h5 \
        > out.txt 2>&1; rc=$?
    expect 0
    same 1e-12 ref . int.csv probes.csv
    echo "$me: restarted on 3 ranks from a file partitioned for 3, as straight"
    # the restarted run's last checkpoint keeps the partitioned case
    "$frx" plot checkpoint-00000020.h5 --var rho > out.txt 2>&1; rc=$?
    expect 0 "wrote checkpoint-00000020-rho.png"
    [ -s checkpoint-00000020-rho.png ] || fail "no picture"
    ;;
refusals)
    walls openmp > built.yaml
    partition built.yaml 2 "$tmp/two.h5"
    as_parts built.yaml two.h5 > c.yaml
    run 3 c.yaml; rc=$?
    expect 1 "c.yaml:2:[0-9]+: partitioned mesh file .*two.h5 holds a partition for 2 ranks and this job has 3: run it on 2 ranks [(]or fewer: each rank then takes several parts[)], or partition the mesh again for 3 [(]frx mesh partition .*built.yaml -n 3 -o .*two.h5[)]"
    [ -e int.csv ] && fail "a refused run wrote int.csv"
    { cat c.yaml; echo "partition: {weights: [3, 1]}"; } > w.yaml
    run 2 w.yaml; rc=$?
    expect 1 "the case gives the ranks weights 3,1 [(]partition.weights or backend.rules[)] but the mesh file was partitioned for weights 1,1: partition again with --weights 3,1"
    { cat c.yaml; echo "partition: {method: linear}"; } > m.yaml
    run 2 m.yaml; rc=$?
    expect 1 "partition.method is linear but the mesh file was partitioned by metis: remove partition.method, or partition again with --method linear"
    partition built.yaml 4 "$tmp/four.h5"
    { as_parts built.yaml four.h5; echo "partition: {weights: [3, 1]}"; } > w4.yaml
    run 2 w4.yaml; rc=$?
    expect 1 "the case gives the ranks weights [(]partition.weights or backend.rules[)], but the mesh file holds 4 parts for this job's 2 ranks, which take whole parts: partition again for 2 ranks with --weights"
    # a file made with the weights and method the case asks for is taken
    "$frx" mesh partition built.yaml -n 2 --weights 3,1 --method linear \
        -o "$tmp/w31.h5" > part.txt 2>&1 || { cat part.txt; fail "partition with weights"; }
    { as_parts built.yaml w31.h5; echo "partition: {weights: [3, 1], method: linear}"; } > ok.yaml
    run 2 ok.yaml; rc=$?
    expect 0
    # not a partitioned mesh file: a checkpoint
    sed 's/^time:/checkpoint: {interval: 20}\ntime:/' built.yaml > ck.yaml
    run 1 ck.yaml; rc=$?
    expect 0
    as_parts built.yaml checkpoint-00000020.h5 > ckm.yaml
    run 2 ckm.yaml; rc=$?
    expect 1 "'mesh.file': partitioned mesh file checkpoint-00000020.h5 has no format \"frx partitioned mesh\": it is not an frx partitioned mesh file, or a damaged one"
    # truncated
    head -c 3000 two.h5 > cut.h5
    as_parts built.yaml cut.h5 > cut.yaml
    run 2 cut.yaml; rc=$?
    expect 1 "'mesh.file': .*cut.h5"
    grep -q "Segmentation\|signal" out.txt && { cat out.txt; fail "a truncated file crashed frx"; }
    # missing
    as_parts built.yaml gone.h5 > gone.yaml
    run 2 gone.yaml; rc=$?
    expect 1 "gone.yaml:2:[0-9]+: 'mesh.file': gone.h5: cannot open the mesh file: No such file"
    "$frx" config check gone.yaml > out.txt 2>&1; rc=$?
    expect 1 "gone.yaml:2:[0-9]+: 'mesh.file': gone.h5: cannot open the mesh file: No such file"
    # frx mesh partition of a case whose mesh is already in parts
    "$frx" mesh partition c.yaml -n 2 -o again.h5 > out.txt 2>&1; rc=$?
    expect 1 "a partitioned mesh file is read by frx run, one part a rank; it is no source of a whole mesh"
    # a file that cannot be written: the error, and nothing left behind
    "$frx" mesh partition built.yaml -n 2 -o nodir/x.h5 > out.txt 2>&1; rc=$?
    expect 1 "cannot write nodir/x.h5.tmp: No such file or directory"
    [ -e nodir ] && fail "a failed write made nodir"
    echo "$me: refusals as expected"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
exit 0
