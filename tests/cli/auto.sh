#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# auto.sh FRX LIBDIR: backend.name: auto where OpenCL's device is this
# host's CPU (PoCL), FRX the frx program, LIBDIR the build's lib/ (libfrx
# and frx/ with the plugins).
#   - with every plugin, auto passes opencl over and runs openmp;
#   - with opencl the only backend plugin beside libfrx, auto comes back
#     to it and runs it;
#   - an error in the case's options of a backend auto tries stops the
#     run, naming the line (it used to be skipped as "cannot start").
# Skipped (77) where opencl cannot start or its device is not PoCL's CPU.
set -u
frx=$1 lib=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-auto.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "auto.sh: $*" >&2; exit 1; }
case_file() { # NAME BACKEND [EXTRA LINE]
    printf 'backend:\n  name: %s\n  precision: double\n%s\ndemo:\n  neles: 64\n  steps: 1\n' \
        "$2" "${3:-}" > "$dir/$1.yaml"
    echo "$dir/$1.yaml"
}
# expect OUT PATTERN...: each pattern matches a line of OUT
expect() {
    out=$1
    shift
    for p in "$@"; do
        printf '%s\n' "$out" | grep -Eq -- "$p" || fail "no line /$p/"
    done
}
export FRX_LOG=info
unset FRX_PLUGIN_PATH

# opencl named: is its device PoCL's CPU?
out=$("$frx" run "$(case_file named opencl)" 2>&1) || {
    printf '%s\n' "$out" | grep 'cannot start here' >&2
    echo "auto.sh: skipped: opencl cannot start here"
    exit 77
}
printf '%s\n' "$out" | grep -Eq \
    "backend 'opencl' started [(]Portable Computing Language: (pthread|cpu)" ||
    { echo "auto.sh: skipped: opencl's device here is not PoCL's CPU"; exit 77; }

echo "== every plugin: openmp"
out=$("$frx" run "$(case_file auto auto)" 2>&1) || { echo "$out"; fail "auto failed"; }
printf '%s\n' "$out"
expect "$out" "backend auto: 'opencl' passed over for now: its device [(]Portable Computing Language: .*[)] is this host's CPU" \
    "backend auto: chose 'openmp'" '^demo: 1 rank[(]s[)] on openmp, .*: ok$'

echo "== opencl the only backend: opencl"
mkdir -p "$dir/lib/frx" && cp -P "$lib"/libfrx.so* "$dir/lib/" &&
    cp "$lib/frx/frx-opencl.so" "$dir/lib/frx/" || fail "copy failed"
out=$(LD_LIBRARY_PATH="$dir/lib" "$frx" run "$dir/auto.yaml" 2>&1) ||
    { echo "$out"; fail "auto failed"; }
printf '%s\n' "$out"
expect "$out" "backend auto: 'opencl' passed over for now" \
    "backend auto: chose 'opencl'" '^demo: 1 rank[(]s[)] on opencl, .*: ok$'
printf '%s\n' "$out" | grep -q "openmp" && fail "openmp was found"

echo "== a bad option of a backend auto tries"
out=$("$frx" run "$(case_file bad auto '  openmp: {threads: -1}')" 2>&1) &&
    { echo "$out"; fail "the run went on"; }
printf '%s\n' "$out"
expect "$out" "bad.yaml:4:21: 'backend.openmp.threads' must be between 0 and 4096, got -1"
printf '%s\n' "$out" | grep -q "chose" && fail "auto chose a backend"
echo "auto.sh: ok"
exit 0
