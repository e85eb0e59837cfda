#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# extensions.sh MODE MPIEXEC DIR SOURCE FIXTURES ...: extension plugins
# attached to the solvers of the frx installed in DIR/prefix: the two
# examples built out of tree against it (install-prefix.sh: DIR/jump,
# DIR/bfc; SOURCE the project's tree) and the probe fixtures of the
# build tree (FIXTURES: tests/fixtures/ext.c).
#   jump BACKEND NP...  examples/extension-interface-jump on euler's
#       vortex, on NP ranks and BACKEND each: its CSV agrees with 1 rank
#       on openmp to 1e-12 (relative, floor 1e-15), has a row every 5
#       steps, its jumps are not all zero; on openmp 2 ranks, a second
#       item of the same plugin (its own file) writes the same rows.
#       77 where BACKEND cannot start.
#   baseflow BACKEND NP CORRUPT [PARTITION]  lee's shear flow on
#       BACKEND with its built-in base-flow check, then with the check
#       off and examples/extension-baseflow-check attached: the same exit
#       status and the same messages (each rank's verdict; at t = 0,
#       exactly 0 on every rank), with FRX_TEST_CORRUPT_BASEFLOW=CORRUPT
#       (none: no damage) and partition.method PARTITION. 77 where
#       BACKEND cannot start.
#   refusals  every refusal of docs/plugins.md's list, each with its
#       message (and frx config check's), nothing written.
#   restart  a probe's state saved in a checkpoint and restored: a run
#       restarted half-way ends with the state of one run straight
#       through; an extension the checkpoint does not know starts
#       afresh, with a warning.
#   docs [CFLAGS]  the full example of docs/plugins.md (umax.c and its
#       CMakeLists.txt) built against the prefix and run on euler's
#       vortex: its rows, the same on 1 and 2 ranks; its limit stops
#       the run on every rank.
#   fakegpu FAKEGPU KEEP  both examples on frx-fakegpu (FAKEGPU its
#       folder), the jumps equal to openmp's to 1e-12, every kernel
#       source kept in KEEP for gpu-compile-solvers-* (NVRTC, hiprtc),
#       the extensions' own kernels among them.
set -u
mode=$1 mpiexec=$2 dir=$3 src=$4 fixtures=$5
shift 5
frx=$dir/prefix/bin/frx
tmp=$(mktemp -d "${TMPDIR:-/tmp}/frx-ext.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export TMPDIR="$tmp" OMP_NUM_THREADS=1
export FRX_PLUGIN_PATH="$dir/jump:$dir/bfc:$fixtures"
me=extensions.sh
. "$src/tests/cli/runlib.sh"

# the vortex case for BACKEND, with its own extensions and ITEMs
vortex() {
    vbe=$1
    shift
    sed "s/backend: {name: openmp,/backend: {name: $vbe,/" \
        "$src/examples/extension-interface-jump/vortex.yaml"
    for item; do echo "  - $item"; done
}

case $mode in
jump)
    be=$1
    shift
    vortex openmp > ref.yaml
    run 1 ref.yaml; rc=$?
    expect 0
    mv jump.csv ref.csv
    rows=$(($(wc -l < ref.csv) - 1))
    [ "$rows" = 4 ] || { cat ref.csv; fail "$rows rows, not 4 (every 5 of 20 steps)"; }
    # each row the solution at the start of the step just taken
    cut -d , -f 1 ref.csv | tr '\n' ' ' | grep -q "^step 4 9 14 19 $" ||
        { cat ref.csv; fail "rows not at steps 4, 9, 14, 19"; }
    awk -F , 'NR > 1 { for (i = 3; i <= NF; i++) if ($i + 0 > 0) ok = 1 }
        END { exit !ok }' ref.csv || fail "every jump is 0"
    for np; do
        second=
        [ "$be" != openmp ] || [ "$np" != 2 ] || second=1
        vortex "$be" ${second:+"{name: interface-jump, every: 5, file: ./jump2.csv}"} > c.yaml
        run "$np" c.yaml; rc=$?
        if [ "$rc" != 0 ] && grep -q "cannot start" out.txt; then
            cat out.txt
            exit 77
        fi
        expect 0
        csv_agree jump.csv ref.csv 1e-15 ||
            fail "$np rank(s), $be: jump.csv differs from 1 rank on openmp"
        [ -z "$second" ] || cmp jump.csv jump2.csv ||
            fail "a second interface-jump wrote other rows"
        [ ! -e jump.csv.tmp ] || fail "jump.csv.tmp left behind"
        echo "extensions.sh: $np rank(s), $be: the jumps agree with 1 rank on openmp"
    done
    ;;
baseflow)
    be=$1 np=$2 corrupt=$3 part=${4:-}
    sed "s/backend: {name: openmp,/backend: {name: $be,/" \
        "$src/tests/data/lee/shear.yaml" > builtin.yaml
    grep -q "name: $be," builtin.yaml || fail "shear.yaml names no backend"
    [ -z "$part" ] || echo "partition: {method: $part}" >> builtin.yaml
    sed 's/baseflow-check: true/baseflow-check: false/' builtin.yaml > ext.yaml
    printf 'extensions:\n  - {name: baseflow-check, every: 5}\n' >> ext.yaml
    grep -q "baseflow-check: false" ext.yaml || fail "shear.yaml has no check"
    [ "$corrupt" = none ] || export FRX_TEST_CORRUPT_BASEFLOW="$corrupt"
    for c in builtin ext; do
        FRX_LOG=info run "$np" $c.yaml
        echo "exit $?" > $c.txt
        cat out.txt
        grep -q "cannot start" out.txt && exit 77
        # the verdicts: each rank's reason, each rank's check at t = 0
        grep -E '^  rank [0-9]+: |saved - live' out.txt |
            sed 's/^\[frx [0-9]*\/[0-9]*\] info: //' | sort >> $c.txt
    done
    diff builtin.txt ext.txt ||
        fail "the extension's verdicts are not the built-in check's"
    n=$(grep -c "at t = 0 on rank [0-9]*: max |saved - live| = 0 over" ext.txt)
    [ "$n" = "$np" ] || fail "not exactly 0 at t = 0 on each of $np rank(s)"
    if [ "$corrupt" = none ]; then
        grep -q "exit 0" ext.txt || fail "the check failed with no damage"
    else
        grep -q "exit 0" ext.txt && fail "the damage was not caught"
        grep -q "^  rank [0-9]*: lee: base-flow check: the base flow saved at t = 0 is not the live one on " ext.txt ||
            fail "no rank named the damage"
    fi
    echo "extensions.sh: $np rank(s), $be, FRX_TEST_CORRUPT_BASEFLOW=$corrupt: the same verdicts"
    ;;
refusals)
    base="backend: {name: openmp, precision: double}
time: {scheme: rk4, dt: 0.01, steps: 6}
progress: {mode: off}"
    ode="$base
mesh: {type: box, n: [4, 4]}
solver: {name: ode, points: 2}"
    euler=$(vortex openmp | sed '/^extensions:/,$d')
    # case NAME SOLVER-PART ITEM...: NAME.yaml, its extensions the items
    mk() {
        name=$1 body=$2
        shift 2
        { printf '%s\nextensions:\n' "$body"
          for item; do echo "  - $item"; done; } > "$name.yaml"
    }
    # refused NAME NP PATTERN...: frx config check and frx run of NAME
    # fail with each pattern; nothing written
    refused() {
        name=$1 np=$2
        shift 2
        "$frx" config check "$name.yaml" > out.txt 2>&1; rc=$?
        cat out.txt
        expect 1 "$@"
        run "$np" "$name.yaml"; rc=$?
        expect 1 "$@" "nothing was run"
        ! ls | grep -Eq "[.]csv|[.]tmp" || fail "$name: a file was written"
    }
    # fails NAME NP PATTERN...: passes frx config check, frx run fails
    fails() {
        name=$1 np=$2
        shift 2
        "$frx" config check "$name.yaml" > out.txt 2>&1 ||
            { cat out.txt; fail "$name: frx config check refused it"; }
        run "$np" "$name.yaml"; rc=$?
        cat out.txt
        expect 1 "$@"
        ! ls | grep -Eq "[.]csv$" || fail "$name: a CSV was written"
    }
    path="$dir/jump, $dir/bfc, $fixtures"
    mk unknown "$euler" "{name: no-such-thing, every: 5}"
    refused unknown 2 "^unknown.yaml:[0-9]+:12: extensions: no plugin 'no-such-thing' [(]frx-no-such-thing.so[)] in: $path"
    mk option "$euler" "{name: interface-jump, every: 5, file: j.csv,
       colour: red}"
    refused option 2 "^option.yaml:[0-9]+:8: unknown key 'colour' in 'extensions.interface-jump'"
    mk value "$euler" "{name: interface-jump, every: 0, file: j.csv}"
    refused value 1 "^value.yaml:[0-9]+:35: 'extensions[[]0[]].every' must be between 1 and"
    mk required "$euler" "{name: interface-jump}"
    refused required 1 "^required.yaml:[0-9]+:5: missing required key 'file' in 'extensions.interface-jump'"
    # every error at once: the solver's and the extension's
    mk both "$(printf '%s\n' "$euler" | sed 's/name: euler/name: no-solver/')" \
        "{name: no-such-thing}"
    "$frx" config check both.yaml > out.txt 2>&1; rc=$?
    cat out.txt
    expect 1 "^both.yaml:[0-9]+:[0-9]+: solver.name: no plugin 'no-solver'" \
        "^both.yaml:[0-9]+:12: extensions: no plugin 'no-such-thing'" \
        "^frx: both.yaml has 2 errors"
    mk badapi "$euler" "{name: probe-badapi}"
    refused badapi 1 "extensions: plugin $fixtures/frx-probe-badapi.so was built for frx extension API 99[.][0-9]+ but this frx has extension API 1[.][0-9]+: rebuild the plugin against this frx"
    mk notext "$euler" "{name: ode}"
    refused notext 1 "extensions: plugin $fixtures/frx-ode.so is a solver, not an extension"
    # the handle and the place: said by the solver, which knows
    mk handle "$ode" "{name: baseflow-check}"
    fails handle 2 "^  rank 1: handle.yaml:[0-9]+:5: extension 'baseflow-check' create: extension 'baseflow-check' needs handle 'fr.system', which solver 'ode' does not publish; it publishes: nothing"
    mk handle-type "$euler" "{name: probe, handle: fr.ufp.0}"
    fails handle-type 1 "extension 'probe' asks for handle 'fr.ufp.0' as a fr_system, but solver 'euler' publishes it as a frx_matrix"
    mk handle-euler "$euler" "{name: probe, handle: fr.auxfp.0}"
    fails handle-euler 1 "needs handle 'fr.auxfp.0', which solver 'euler' does not publish; it publishes: fr.system [(]fr_system[)], fr.ufp.0 [(]frx_matrix[)], fr.faces.interior [(]fr_face_set[)]"
    mk noaux "$euler" "{name: baseflow-check}"
    fails noaux 1 "^  rank 0: noaux.yaml:[0-9]+:5: extension 'baseflow-check' create: euler: base-flow check: solver 'euler' has no auxiliary fields [(]a base flow[)] to check"
    mk place "$ode" "{name: interface-jump, file: j.csv}"
    fails place 2 "^  rank 0: place.yaml:[0-9]+:5: extension 'interface-jump' adds nodes at 'after-exchange-waits' in the RHS, which solver 'ode' does not offer; it offers: none"
    mk samefile "$euler" "{name: interface-jump, file: j.csv}" \
        "{name: probe, file: ./j.csv}"
    fails samefile 2 "^  rank [01]: samefile.yaml:[0-9]+:5: extension 'probe' create: extension 'probe' writes ./j.csv, which extension 'interface-jump' [(]samefile.yaml:[0-9]+:5[)] writes too: give each its own file"
    # one rank fails: every rank stops, with that rank's reason
    for hook in create initial step finish; do
        mk fail-$hook "$euler" "{name: probe, fail: $hook, fail-rank: 1}"
        fails fail-$hook 2 "failed on 1 of 2 rank[(]s[)]:" \
            "^  rank 1: .*probe fails at $hook"
        grep -q "^  rank 0:" out.txt && fail "rank 0 is named: it did not fail"
    done
    # the step hooks' agreement is settled under the next step, but
    # before anything is written: no checkpoint after the failed hook
    mk fail-ckpt "$euler
checkpoint: {interval: 1, file: \"ck-{step}.h5\"}" \
        "{name: probe, fail: step, fail-rank: 1}"
    run 2 fail-ckpt.yaml; rc=$?
    cat out.txt
    expect 1 "^frx: step 3, t = 0.03: extension 'probe' [(]step[)] failed on 1 of 2 rank[(]s[)]:" \
        "^  rank 1: .*probe fails at step 3 on rank 1"
    [ -f ck-00000002.h5 ] || fail "no checkpoint of step 2, before the failure"
    ! ls ck-0000000[3-9].h5 2> /dev/null || fail "a checkpoint after the failed step hook"
    rm -f ck-*.h5
    mk fail-rhs "$euler" "{name: probe-rhs, fail: rhs, fail-rank: 2}"
    "$frx" config check fail-rhs.yaml > /dev/null || fail "fail-rhs refused"
    run 3 fail-rhs.yaml; rc=$?
    cat out.txt
    expect 1 "^frx: step 3, t = 0.03: extension 'probe-rhs' failed on 1 of 3 rank[(]s[)]:" \
        "^  rank 2: extension 'probe-rhs': probe's RHS node fails in step 3 on rank 2"
    grep -q "steps to step" out.txt && fail "the run went on to its end"
    echo "extensions.sh: every refusal said"
    ;;
restart)
    cat > r.yaml <<END
backend: {name: openmp, precision: double}
mesh: {type: box, n: [6, 6], periodic: [true, true]}
solver: {name: advection, order: 1}
time: {scheme: rk4, dt: 0.01, steps: 10}
progress: {mode: off}
checkpoint: {interval: 4, file: "ck-{step}.h5"}
extensions:
  - {name: probe-rhs, every: 2}
END
    FRX_LOG=info run 2 r.yaml; rc=$?
    cat out.txt
    expect 0 "probe: rank 1 finish at step 10: 5 step calls, counter 5, 40 RHS runs, 10 at stage 0"
    FRX_LOG=info run 2 r.yaml --restart ck-00000004.h5; rc=$?
    cat out.txt
    expect 0 "probe: loaded counter 2" \
        "probe: rank 1 finish at step 10: 3 step calls, counter 5, 24 RHS runs, 6 at stage 0"
    echo "  - {name: probe, every: 3}" >> r.yaml
    FRX_LOG=info run 2 r.yaml --restart ck-00000004.h5; rc=$?
    cat out.txt
    expect 0 "warn: r.yaml:9:5: the checkpoint holds no state of extension 'probe' [(]item 2 of extensions[)]: it starts afresh" \
        "probe: rank 0 finish at step 10: 2 step calls, counter 2, 0 RHS runs"
    echo "extensions.sh: the probe's state went through a checkpoint"
    ;;
fakegpu)
    fakegpu=$1 keep=$2
    rm -rf "$keep/extensions"
    mkdir -p "$keep/extensions"
    vortex openmp > ref.yaml
    run 2 ref.yaml; rc=$?
    expect 0
    mv jump.csv ref.csv
    vortex fakegpu > g.yaml
    export FRX_CACHE_DIR="$tmp/cache" FRX_FAKEGPU_KEEP_SOURCES="$keep/extensions"
    FRX_PLUGIN_PATH="$fakegpu:$FRX_PLUGIN_PATH" run 2 g.yaml; rc=$?
    cat out.txt
    expect 0
    csv_agree jump.csv ref.csv 1e-15 || fail "the jumps on fakegpu are not openmp's"
    sed -e 's/name: openmp,/name: fakegpu,/' -e 's/baseflow-check: true/baseflow-check: false/' \
        "$src/tests/data/lee/shear.yaml" > l.yaml
    printf 'extensions:\n  - {name: baseflow-check, every: 5}\n' >> l.yaml
    FRX_LOG=info FRX_PLUGIN_PATH="$fakegpu:$FRX_PLUGIN_PATH" run 2 l.yaml; rc=$?
    cat out.txt
    expect 0 "at t = 0 on rank 1: max [|]saved - live[|] = 0"
    for k in interface-jump.jump_int interface-jump.jump_peer baseflow-check.; do
        grep -lq "$k" "$keep/extensions"/* ||
            fail "no kernel source of $k kept in $keep/extensions"
    done
    echo "extensions.sh: $(ls "$keep/extensions" | grep -c '[.]cu$') kernel source(s) kept"
    ;;
docs)
    # umax.c and its CMakeLists.txt, as docs/plugins.md shows them
    mkdir umax
    for f in umax.c CMakeLists.txt; do
        awk -v m="<!-- $f -->" '$0 == m { on = 1; getline; next }
            on && $0 == "```" { exit } on' "$src/docs/plugins.md" > umax/$f
        [ -s umax/$f ] || fail "no $f in docs/plugins.md"
    done
    cmake -S umax -B build-umax -DCMAKE_PREFIX_PATH="$dir/prefix" \
        -DCMAKE_C_FLAGS="-Wall -Wextra -Werror ${1:-}" > build.txt 2>&1 &&
        cmake --build build-umax >> build.txt 2>&1 ||
        { cat build.txt; fail "docs/plugins.md's umax does not build"; }
    export FRX_PLUGIN_PATH="$tmp/build-umax:$FRX_PLUGIN_PATH"
    vortex openmp "{name: umax, every: 5}" > u.yaml
    for np in 1 2; do
        FRX_LOG=info run $np u.yaml; rc=$?
        cat out.txt
        expect 0 "info: umax: step 5, t = 0.05: rho [0-9.]+ rhou [0-9.]+ rhov [0-9.]+ E [0-9.]+$" \
            "info: umax: largest [|]E[|] up to t = 0.2: "
        grep "umax:" out.txt | sed 's/^.*info: //' > umax$np.txt
    done
    [ "$(wc -l < umax1.txt)" = 8 ] || fail "not 4 rows and 4 maxima"
    diff umax1.txt umax2.txt || fail "umax differs on 1 and 2 ranks"
    # |E| is 12.731 at step 5, 12.755 at step 10
    vortex openmp "{name: umax, every: 5, limit: 12.74}" > l.yaml
    run 2 l.yaml; rc=$?
    cat out.txt
    expect 1 "^frx: step 10, t = 0.1: extension 'umax' [(]step[)] failed on 2 of 2 rank[(]s[)]:" \
        "^  rank 0: umax: [|]E[|] reached 12.75[0-9]*, past the limit 12.74"
    echo "extensions.sh: docs/plugins.md's example builds and runs"
    ;;
*)
    echo "extensions.sh: no mode '$mode'" >&2
    exit 2 ;;
esac
