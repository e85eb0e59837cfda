#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Tests of the lee solver through `frx run` (tests/lee/lee.cmake):
#   lee.sh FRX MPIRUN DATA converge FLUX P N1 N2   L2 errors fall at
#       order >= P + 0.8 from N1 x N1 to N2 x N2 elements, every variable
#   lee.sh FRX MPIRUN DATA converge3d ETYPE FLUX P N1 N2   the same in
#       3-D (wave3d.yaml: an acoustic and a vorticity wave) on N1^3 and
#       N2^3 cubes (ETYPE hex, or tet, prism, pyramid: 6, 2, 6 a cube)
#   lee.sh FRX MPIRUN DATA extruded FLUX   shear3d.yaml (a shear flow
#       across z, sources, far field and slip wall, 2 ranks) against its 2-D
#       twin in (x, y): the integrals of rho'^2, u'^2, w'^2 (v'^2 in
#       2-D) and p'^2 agree to 1e-10 (nothing depends on y), and v' grows
#       from w' dv0/dz; the base-flow check passes
#   lee.sh FRX MPIRUN DATA ranks3d ETYPE NP...   shear3d.yaml (ETYPE hex
#       or tet; amplitudes 1: relative) on each NP ranks equals 1 rank
#       to 1e-12
#   lee.sh FRX MPIRUN DATA mixed3d ETYPE   the same with rank 1 on opencl
#       (77 where opencl cannot start)
#   lee.sh FRX MPIRUN DATA ranks NP...   the solution on each NP ranks
#       equals the one on 1 rank to 1e-12 (amplitudes are 1: relative)
#   lee.sh FRX MPIRUN DATA cache-block BACKEND   solver.cache-block: 8
#       (the element-local kernels 8 elements at a time, on 1 and 2
#       ranks) equals cache-block: 0 to 1e-12, and ran in parts; on 2
#       ranks some parts were corrected before the wait for the peer;
#       cache-block: auto equals it too, and a word that is not auto is
#       refused with file:line:col
#   lee.sh FRX MPIRUN DATA parts   openmp's matrices in 3 parts on 2
#       threads (which then share a part), with the element-local
#       kernels whole and 32 elements at a time (4 chunks, so slices
#       cross the parts of 6), and with libxsmm's products: each equals
#       one part to 1e-12
#   lee.sh FRX MPIRUN DATA mixed   rank 1 on opencl: the same solution
#       (77 where opencl cannot start)
#   lee.sh FRX MPIRUN DATA main CASE   config/lee-acoustic.yaml on 2
#       ranks: L2 errors below 1e-7, the VTK series and the picture of p
#   lee.sh FRX MPIRUN DATA bad-expr   a base flow that does not parse:
#       file:line:col, and nothing written
#   lee.sh FRX MPIRUN DATA picture-folder   output.png into an
#       output.dir not made yet (no VTK output to make it): made, the
#       picture in it; an output.dir behind a file: refused before the
#       run on 2 ranks (only rank 0 checks it), nothing written
#   lee.sh FRX MPIRUN DATA setup-fails-on-one-rank   lee's own set-up
#       fails on rank 0 only, before the FR system's (an injected fault
#       in reading the mesh's periodic pairs, FRX_FAULT_LIB): both ranks
#       stop with rank 0's reason, rank 1 is not listed, nothing runs
#   lee.sh FRX MPIRUN DATA one-rank-cannot-compile   rank 1's kernel
#       cache is a file, so its interface kernels fail to build while
#       rank 0's build: both ranks stop, naming rank 1's reason, with
#       no hang (each rank its own app context of mpirun)
# It runs in a directory of its own under TMPDIR.
set -u
frx=$1 mpirun=$2 data=$3 what=$4
shift 4
dir=$(mktemp -d "${TMPDIR:-/tmp}/lee-test.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1

fail() { echo "lee.sh: $*" >&2; exit 1; }

# case NAME ORDER N FLUX BACKEND CKPT: write NAME.yaml from wave.yaml
# at cfl $cfl (0.1 unless set)
case_file() {
    sed -e "s/@ORDER@/$2/g; s/@N@/$3/g; s/@TEND@/0.25/; s/@CFL@/${cfl:-0.1}/" \
        -e "s/@THREADS@/1/; s/@BACKEND@/$5/; s/@FLUX@/$4/" \
        -e "s/@CKPT@/$6/; s#@DIR@#$dir/$1#" "$data/wave.yaml" > "$1.yaml"
    [ "$6" = 0 ] || mkdir -p "$1"
}

# case3d NAME ORDER N FLUX BACKEND CKPT ETYPE: NAME.yaml from
# wave3d.yaml (cfl 1: the L2 errors those of cfl 0.1 to 5 digits)
case3d() {
    sed -e "s/@ORDER@/$2/g; s/@N@/$3/g; s/@TEND@/0.25/; s/@CFL@/1/" \
        -e "s/@THREADS@/1/; s/@BACKEND@/$5/; s/@FLUX@/$4/; s/@ETYPE@/$7/" \
        -e "s/@CKPT@/$6/; s#@DIR@#$dir/$1#" "$data/wave3d.yaml" > "$1.yaml"
    [ "$6" = 0 ] || mkdir -p "$1"
}

# shear3d NAME ETYPE: NAME.yaml, shear3d.yaml on ETYPE with a checkpoint
# at the end in NAME/end.h5
shear3d() {
    sed -e "s/^mesh: {type: box, /mesh: {type: box, etype: $2, /" \
        "$data/shear3d.yaml" > "$1.yaml"
    echo "checkpoint: {interval: 1000000, file: $dir/$1/end.h5}" >> "$1.yaml"
    mkdir -p "$1"
}

# run NP NAME: frx run on NP ranks, output in NAME.out
run() {
    $mpirun -np "$1" "$frx" run "$2.yaml" > "$2.out" 2>&1 ||
        { cat "$2.out"; fail "frx run $2.yaml on $1 rank(s) failed"; }
}

# The L2 errors of NAME.out, one per line.
errors() {
    sed -n 's/^frx: L2 error at t = [^:]*: //p' "$1.out" |
        awk '{ for (i = 2; i <= NF; i += 2) print $i }'
}

# orders NVARS P N1 N2: the L2 errors of a.out and b.out (N1 and N2
# elements a side) fall at order >= P + 0.8, each of NVARS variables
orders() {
    errors a > a.err
    errors b > b.err
    [ "$(wc -l < a.err)" -eq "$1" ] || { cat a.out; fail "no L2 errors"; }
    paste a.err b.err | awk -v p="$2" -v n1="$3" -v n2="$4" '
        { order = log($1 / $2) / log(n2 / n1)
          printf "variable %d: %g -> %g, order %.3f\n", NR, $1, $2, order
          if (!(order >= p + 0.8)) bad = 1 }
        END { if (bad) { print "order below p + 0.8 = " p + 0.8; exit 1 } }' ||
        fail "p = $2: the error does not fall at order p + 0.8"
}

# integrals NAME: the last row of NAME.csv (the integrate extension)
integrals() {
    tail -n 1 "$1.csv" | tr ',' '\n' | tail -n +3
}

case $what in
converge)
    flux=$1 p=$2 n1=$3 n2=$4
    # cfl 0.5: every L2 error that of cfl 0.1 to 5 digits (p = 1..4,
    # upwind and Rusanov, on these meshes): RK4's error is far below the
    # space error, and a fifth of the steps
    cfl=0.5
    case_file a "$p" "$n1" "$flux" openmp 0
    case_file b "$p" "$n2" "$flux" openmp 0
    run 1 a
    run 1 b
    orders 4 "$p" "$n1" "$n2"
    ;;
converge3d)
    etype=$1 flux=$2 p=$3 n1=$4 n2=$5
    case3d a "$p" "$n1" "$flux" openmp 0 "$etype"
    case3d b "$p" "$n2" "$flux" openmp 0 "$etype"
    run 1 a
    run 1 b
    orders 5 "$p" "$n1" "$n2"
    ;;
extruded)
    flux=$1
    # the 2-D twin: y for z, v for w (v0 left out), bottom and top for
    # back and front
    sed -e '/^#/d; s/z/y/g; /^    v: /d; s/^    w: /    v: /' \
        -e 's/\[1, 0, 0\]/[1, 0]/; s/\[2, 0, 0\]/[2, 0]/' \
        -e 's/back:/bottom:/; s/front:/top:/' \
        -e 's/n: \[6, 2, 6\], periodic: \[true, true, false\]/n: [6, 6], periodic: [true, false]/' \
        -e "s/^  baseflow-check: true/  flux: $flux\n  baseflow-check: true/" \
        "$data/shear3d.yaml" > d2.yaml
    sed -e "s/^  baseflow-check: true/  flux: $flux\n  baseflow-check: true/" \
        "$data/shear3d.yaml" > d3.yaml
    grep -q "^    v: 0.05\*sin(2\*pi\*x)\*(1 - y)" d2.yaml &&
        ! grep -q "^    w:\|back:\|front:\|z" d2.yaml ||
        { cat d2.yaml; fail "the 2-D twin is not as expected"; }
    printf 'extensions:\n  - {name: integrate, every: 40, file: d2.csv, exprs: {rr: rho*rho, uu: u*u, vv: v*v, pp: p*p}}\n' >> d2.yaml
    printf 'extensions:\n  - {name: integrate, every: 40, file: d3.csv, exprs: {rr: rho*rho, uu: u*u, ww: w*w, pp: p*p, vv: v*v}}\n' >> d3.yaml
    run 2 d2
    FRX_LOG=info run 2 d3
    for r in 0 1; do
        grep -q "lee: base-flow check at t = 0 on rank $r: max |saved - live| = 0 over" d3.out ||
            { cat d3.out; fail "no base-flow check of 0 on rank $r"; }
    done
    integrals d2 > d2.int
    integrals d3 > d3.int
    [ "$(wc -l < d2.int)" -eq 4 ] && [ "$(wc -l < d3.int)" -eq 5 ] ||
        { cat d2.csv d3.csv; fail "no integrals"; }
    echo "2-D: $(tr '\n' ' ' < d2.int); 3-D: $(tr '\n' ' ' < d3.int)"
    head -4 d3.int | paste d2.int - | awk '
        { d = $1 - $2; if (d < 0) d = -d
          if (!($1 > 0 && d <= 1e-10 * $1)) bad = 1 }
        END { exit bad }' ||
        fail "rho'^2, u'^2, w'^2, p'^2 in 3-D differ from the 2-D twin's by more than 1e-10"
    awk -v uu="$(sed -n 2p d3.int)" '
        NR == 5 { exit !($1 > 1e-8 * uu) }' d3.int ||
        fail "v' did not grow from w' dv0/dz"
    echo "$flux: 3-D equals its 2-D twin to 1e-10; v'^2 $(sed -n 5p d3.int)"
    ;;
ranks3d)
    etype=$1
    shift
    shear3d one "$etype"
    run 1 one
    for np in "$@"; do
        shear3d "np$np" "$etype"
        run "$np" "np$np"
        h5diff -d 1e-12 one/end.h5 "np$np/end.h5" /solution /solution ||
            fail "$np rank(s) differ from 1 rank by more than 1e-12"
        echo "$etype: $np rank(s) equal to 1 rank within 1e-12"
    done
    ;;
mixed3d)
    etype=$1
    shear3d one "$etype"
    run 2 one
    shear3d mix "$etype"
    printf '  rules:\n    - {ranks: "1", name: opencl}\n' > rules
    sed -i -e '/^  precision: double/r rules' mix.yaml
    if ! $mpirun -np 2 "$frx" run mix.yaml > mix.out 2>&1; then
        cat mix.out
        grep -q "cannot start\|no OpenCL\|no device" mix.out && exit 77
        fail "the mixed run failed"
    fi
    h5diff -d 1e-12 one/end.h5 mix/end.h5 /solution /solution ||
        fail "openmp + opencl differs from openmp by more than 1e-12"
    echo "$etype: openmp + opencl equal to openmp within 1e-12"
    ;;
ranks)
    case_file one 3 6 upwind openmp 1000000
    run 1 one
    for np in "$@"; do
        case_file "np$np" 3 6 upwind openmp 1000000
        run "$np" "np$np"
        h5diff -d 1e-12 one/end.h5 "np$np/end.h5" /solution/quad/u /solution/quad/u ||
            fail "$np rank(s) differ from 1 rank by more than 1e-12"
        echo "$np rank(s): equal to 1 rank within 1e-12"
    done
    ;;
parts)
    case_file one 2 12 upwind openmp 1000000
    sed -i -e 's/^    threads: 1/    threads: 2\n    parts: 1/' one.yaml
    run 1 one
    for how in whole sliced libxsmm; do
        case_file "$how" 2 12 upwind openmp 1000000
        sed -i -e 's/^    threads: 1/    threads: 2\n    parts: 3/' "$how.yaml"
        [ "$how" = whole ] &&
            sed -i -e 's/^  order: 2/  order: 2\n  cache-block: 0/' "$how.yaml"
        [ "$how" = sliced ] &&
            sed -i -e "s/^  order: 2/  order: 2\\n  cache-block: 32/" "$how.yaml"
        [ "$how" = libxsmm ] &&
            sed -i -e '0,/products: generated\/r4/s//products: libxsmm/' \
                "$how.yaml"
        FRX_LOG=info
        export FRX_LOG
        run 1 "$how"
        grep -q "host, 2 OpenMP threads, matrices in 3 parts" "$how.out" ||
            { cat "$how.out"; fail "$how: the backend did not say 3 parts"; }
        h5diff -d 1e-12 one/end.h5 "$how/end.h5" /solution/quad/u \
            /solution/quad/u ||
            fail "3 parts ($how) differ from one part by more than 1e-12"
        echo "3 parts, $how: equal to one part within 1e-12"
    done
    ;;
cache-block)
    # 12 x 12 in rows of elements (linear): on 2 ranks, parts away from
    # the rank boundary too
    case_file whole 2 12 upwind "$1" 1000000
    sed -i -e 's/^  order: 2/  order: 2\n  cache-block: 0/' whole.yaml
    run 1 whole
    for np in 1 2; do
        case_file "parts$np" 2 12 upwind "$1" 1000000
        sed -i -e 's/^  order: 2/  order: 2\n  cache-block: 8/' \
            -e 's/^  method: metis/  method: linear/' \
            -e 's/^  mode: off/  mode: off\nprofile: true/' "parts$np.yaml"
        if ! FRX_LOG=info $mpirun -np "$np" "$frx" run "parts$np.yaml" \
            > "parts$np.out" 2>&1
        then
            cat "parts$np.out"
            grep -q "cannot start\|no OpenCL\|no device" "parts$np.out" && exit 77
            fail "the run in parts on $np rank(s) failed"
        fi
        h5diff -d 1e-12 whole/end.h5 "parts$np/end.h5" /solution/quad/u \
            /solution/quad/u ||
            fail "cache-block 8 on $np rank(s) differs from 0 by more than 1e-12"
        # 36 elements in parts of 8 (rounded up to whole chunks of the
        # backend): the flux kernel runs more than once an RHS on some
        # rank (the profile sums the ranks' calls)
        nrhs=$(sed -n 's/.* DOFs, \([0-9]*\) RHS evaluations.*/\1/p' "parts$np.out")
        calls=$(awk '$NF ~ /^lee[.]tflux_/ { print $(NF - 2) }' "parts$np.out")
        [ -n "$nrhs" ] && [ -n "$calls" ] && [ "$calls" -gt $((np * nrhs)) ] ||
            { cat "parts$np.out"; fail "the flux kernel ran $calls times for $nrhs RHS evaluations on $np rank(s): not in parts"; }
        echo "$np rank(s): in parts ($calls flux kernel runs for $nrhs RHS evaluations), equal within 1e-12"
        # on 2 ranks, the parts with no face on the rank boundary are
        # corrected before the peers' flux points are waited for
        [ "$np" = 2 ] || continue
        line=$(grep -m1 "parts are corrected before the wait" "parts$np.out")
        echo "$line" | awk '{ for (i = 1; i <= NF; i++) if ($i == "of")
                                 { k = $(i - 1); n = $(i + 2) } }
                            END { exit !(k > 0 && k < n) }' ||
            { cat "parts$np.out"; fail "on 2 ranks no part (or every part) was corrected before the wait for the peers: '$line'"; }
        echo "$line"
    done
    # auto, said: the same as absent (equal to all at once); a word
    # that is neither refused, naming the key and the words it takes
    case_file auto 2 12 upwind "$1" 1000000
    sed -i -e 's/^  order: 2/  order: 2\n  cache-block: auto/' auto.yaml
    run 1 auto
    h5diff -d 1e-12 whole/end.h5 auto/end.h5 /solution/quad/u \
        /solution/quad/u || fail "cache-block auto differs from 0 by more than 1e-12"
    case_file word 2 12 upwind "$1" 1000000
    rmdir word
    sed -i -e 's/^  order: 2/  order: 2\n  cache-block: fast/' word.yaml
    if $mpirun -np 1 "$frx" run word.yaml > word.out 2>&1; then
        cat word.out; fail "cache-block: fast was accepted"
    fi
    grep -q "word.yaml:[0-9]*:[0-9]*: 'solver.cache-block' must be an integer or auto, got 'fast'" word.out ||
        { cat word.out; fail "cache-block: fast: not the message expected"; }
    [ ! -e word ] || fail "cache-block: fast wrote $(ls word)"
    echo "cache-block: auto equals 0 within 1e-12; cache-block: fast refused"
    ;;
mixed)
    case_file one 2 6 upwind openmp 1000000
    run 2 one
    case_file mix 2 6 upwind openmp 1000000
    printf '  rules:\n    - {ranks: "1", name: opencl}\n' > rules
    sed -i -e '/^  precision: double/r rules' mix.yaml
    sed -i -e 's/^  method: metis/  method: metis\n  weights: [2, 1]/' mix.yaml
    if ! $mpirun -np 2 "$frx" run mix.yaml > mix.out 2>&1; then
        cat mix.out
        grep -q "cannot start\|no OpenCL\|no device" mix.out && exit 77
        fail "the mixed run failed"
    fi
    h5diff -d 1e-12 one/end.h5 mix/end.h5 /solution/quad/u /solution/quad/u ||
        fail "openmp + opencl differs from openmp by more than 1e-12"
    errors one > one.err
    errors mix > mix.err
    cmp one.err mix.err || fail "the L2 errors differ"
    echo "openmp + opencl: equal to openmp within 1e-12, same L2 errors"
    ;;
main)
    $mpirun -np 2 "$frx" run "$1" > main.out 2>&1 ||
        { cat main.out; fail "the main job failed"; }
    cat main.out
    errors main > main.err
    [ "$(wc -l < main.err)" -eq 4 ] || fail "no L2 errors"
    awk '{ if (!($1 < 1e-7)) bad = 1 } END { exit bad }' main.err ||
        fail "an L2 error is not below 1e-7"
    [ -s lee-acoustic/solution.pvd ] || fail "no VTK series"
    [ "$(head -c 4 lee-acoustic/solution-p.png | tail -c 3)" = PNG ] ||
        fail "no PNG picture of p beside the VTK files"
    ;;
bad-expr)
    case_file bad 2 4 upwind openmp 1
    rmdir bad
    sed -i -e 's/u: 0.4,/u: 0.4 + sin(,/' bad.yaml
    if $mpirun -np 2 "$frx" run bad.yaml > bad.out 2>&1; then
        fail "a base flow that does not parse was run"
    fi
    cat bad.out
    grep -Eq "bad.yaml:[0-9]+:[0-9]+: .*solver.baseflow.u" bad.out ||
        fail "the message does not name file:line:col and the key"
    [ ! -e bad ] || fail "something was written: $(ls bad)"
    ;;
picture-folder)
    case_file pic 1 4 upwind openmp 0
    sed -i -e 's/^progress:/output_here\nprogress:/' pic.yaml
    sed -e 's#^output_here#output: {interval: 0, dir: new/deeper, png: {var: u}}#' \
        pic.yaml > made.yaml
    sed -e 's#^output_here#output: {interval: 0, dir: made.yaml/x, png: {var: u}}#' \
        pic.yaml > blocked.yaml
    run 2 made
    [ "$(head -c 4 new/deeper/solution-u.png | tail -c 3)" = PNG ] ||
        { cat made.out; fail "no picture in the folder made for it"; }
    echo "made new/deeper for the picture: $(ls new/deeper)"
    : > blocked.out
    before=$(ls | sort | tr '\n' ' ')
    if $mpirun -np 2 "$frx" run blocked.yaml > blocked.out 2>&1; then
        fail "a picture behind a file was run"
    fi
    cat blocked.out
    grep -q "^  rank 0: blocked.yaml:[0-9]*:[0-9]*: 'output.dir': .*made.yaml is a file, not a folder" blocked.out ||
        fail "rank 0's message does not name the key and what is in the way"
    grep -q "failed on 1 of 2 rank" blocked.out ||
        fail "the report does not say that one rank of two failed"
    grep -q "^  rank 1:" blocked.out &&
        fail "rank 1, stopped by rank 0, is listed as failing too"
    grep -q "frx: [0-9]* steps" blocked.out && fail "the run started"
    after=$(ls | sort | tr '\n' ' ')
    [ "$before" = "$after" ] || fail "something was written: $after"
    ;;
setup-fails-on-one-rank)
    [ -n "${FRX_FAULT_LIB:-}" ] || fail "FRX_FAULT_LIB is not set"
    case_file one 1 4 upwind openmp 0
    if timeout 120 $mpirun -np 2 -x LD_PRELOAD="$FRX_FAULT_LIB" \
        -x FRX_FAULT=mesh-periodic:0 "$frx" run one.yaml > one.out 2>&1
    then
        fail "rank 0's set-up failed, yet the run went on"
    fi
    cat one.out
    grep -q "create failed on 1 of 2 rank" one.out ||
        fail "the ranks did not stop with rank 0's failure (timed out?)"
    grep -q "^  rank 0: .*frx_mesh_get_periodic: injected" one.out ||
        fail "rank 0's reason is not named"
    grep -q "^  rank 1:" one.out &&
        fail "rank 1, stopped by rank 0, is listed as failing too"
    grep -q "frx: [0-9]* steps" one.out && fail "the run started"
    ;;
one-rank-cannot-compile)
    case_file one 1 4 upwind openmp 0
    : > notadir
    if timeout 120 $mpirun -np 1 "$frx" run one.yaml : -np 1 \
        env FRX_CACHE_DIR="$dir/notadir" "$frx" run one.yaml > one.out 2>&1
    then
        fail "rank 1 could not compile, yet the run went on"
    fi
    cat one.out
    grep -q "create failed on 1 of 2 rank" one.out ||
        fail "rank 0 did not stop with rank 1's failure (timed out: $(grep -c . one.out) lines)"
    grep -q "^  rank 1: the cache directory $dir/notadir is not a directory" one.out ||
        fail "rank 1's reason is not named"
    ;;
*)
    fail "unknown test '$what'"
    ;;
esac
exit 0
