# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the tests/cli scripts that run frx under mpirun and read
# what it printed: set `me` (the script's name), `mpiexec` and `frx`
# first.

fail() { echo "$me: FAIL: $*"; exit 1; }

# run NP CASE [ARGS]: frx run on NP ranks, its output (both streams) in
# out.txt; its exit status
run() {
    np=$1
    shift
    "$mpiexec" -n "$np" "$frx" run "$@" > out.txt 2>&1
}

# expect RC PATTERN...: the last run ended with status RC (0 or not 0),
# and out.txt has a line matching each extended regular expression
expect() {
    want=$1
    shift
    if { [ "$want" = 0 ] && [ "$rc" != 0 ]; } ||
        { [ "$want" != 0 ] && [ "$rc" = 0 ]; }; then
        cat out.txt
        fail "exit status $rc, expected $want"
    fi
    for pat; do
        grep -Eq -- "$pat" out.txt || { cat out.txt; fail "no line /$pat/"; }
    done
}
