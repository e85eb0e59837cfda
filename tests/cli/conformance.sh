#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# conformance.sh PREFIX FIXTURES: the installed frx-conformance's help
# and exit statuses: 2 for a name with no plugin or a solver plugin, 77
# with the reason for a backend that cannot start, 1 for a backend that
# is unusable (frx refuses it when it starts).
set -u
exe=$1/bin/frx-conformance
fail() { echo "conformance.sh: $*" >&2; exit 1; }
# expect RC PATTERN ARGS...: exit status RC and a line matching PATTERN
expect() {
    want=$1 p=$2
    shift 2
    out=$(FRX_PLUGIN_PATH=$fixtures sh "$own" "$exe" "$@" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    [ "$rc" = "$want" ] || fail "exit status $rc, wanted $want: $*"
    printf '%s\n' "$out" | grep -Eq -- "$p" || fail "no line /$p/: $*"
}
fixtures=$2
own=$(dirname "$0")/../own-tmpdir.sh
expect 0 '^usage: frx-conformance BACKEND [[]SUITE...[]]$' --help
expect 2 '^usage: frx-conformance'
expect 2 "no plugin 'nosuch' [(]frx-nosuch.so[)] in: $fixtures" nosuch
expect 2 'frx-ode.so is not a backend plugin' ode
expect 2 "unknown suite 'nosuch'" openmp nosuch
expect 77 "^SKIP: backend 'unavail' cannot start here: .*libfake.so.1 not" \
    unavail
expect 1 "backend 'good': FRX_EPLUGIN: .*'mem_alloc' is missing" good datamodel
echo "conformance.sh: help and exit statuses as documented"
