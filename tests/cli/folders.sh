#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# folders.sh MPIEXEC FRX: where output.dir and checkpoint.file go.
# Folders not made yet are made, at the first write; one that cannot be
# made (a file in the way) is refused before the run starts, naming the
# key at file:line:col, with nothing written, on 2 ranks (rank 0 checks
# it). The ODE fixture on a box mesh; a folder of its own.
set -u
mpiexec=$1 frx=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-folders.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() {
    echo "folders.sh: $*" >&2
    exit 1
}
# case NAME OUTPUT-DIR CHECKPOINT-FILE: NAME.yaml
case_file() {
    cat > "$1.yaml" <<END
backend: {name: openmp, precision: double}
mesh: {type: box, n: [7, 5]}
solver: {name: ode, points: 3}
time: {scheme: rk4, steps: 4, dt: 0.1}
progress: {mode: off}
output: {interval: 2, dir: "$2", name: sol}
checkpoint: {interval: 2, file: "$3"}
END
}
case_file made out/a/b "ck/c/ckpt-{step}.h5"
"$mpiexec" -n 2 "$frx" run made.yaml > made.out 2>&1 ||
    { cat made.out; fail "a run into folders not made yet failed"; }
for f in out/a/b/sol.pvd out/a/b/sol/sol-000004-1.vtu ck/c/ckpt-00000004.h5; do
    [ -s "$f" ] || fail "$f was not written: $(find . -type f)"
done
echo "made out/a/b and ck/c: $(ls out/a/b ck/c | tr '\n' ' ')"

# refused: KEY CASE-LINE OUTPUT-DIR CHECKPOINT-FILE
refused() {
    case_file bad "$3" "$4"
    : > bad.out
    before=$(find . | sort)
    if "$mpiexec" -n 2 "$frx" run bad.yaml > bad.out 2>&1; then
        fail "$1 behind a file was run"
    fi
    cat bad.out
    grep -q "bad.yaml:$2: '$1': cannot write .*: made.yaml is a file, not a folder; name a folder that can be made" bad.out ||
        fail "the message does not name $1 at bad.yaml:$2 and the file in the way"
    grep -q "frx: [0-9]* steps" bad.out && fail "the run started"
    [ "$(find . | sort)" = "$before" ] ||
        fail "something was written: $(find . | sort)"
}
refused output.dir 6:28 made.yaml/x "ckpt-{step}.h5"
refused checkpoint.file 7:33 out made.yaml/y/ckpt.h5
echo "folders.sh: folders made at the first write; a file in the way refused before the run"
