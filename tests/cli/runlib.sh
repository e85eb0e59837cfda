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

# csv_agree A B FLOOR: the same header and as many rows, and every
# number of A within 1e-12 of B's relative to the larger of the two, or
# within FLOOR
csv_agree() {
    [ "$(wc -l < "$1")" = "$(wc -l < "$2")" ] &&
        [ "$(head -n 1 "$1")" = "$(head -n 1 "$2")" ] || return 1
    paste -d , "$1" "$2" | awk -F , -v floor="$3" 'NR > 1 {
        n = NF / 2
        for (i = 1; i <= n; i++) {
            a = $i + 0; b = $(i + n) + 0
            d = a - b; d = d < 0 ? -d : d
            s = (a < 0 ? -a : a) > (b < 0 ? -b : b) ? a : b
            s = s < 0 ? -s : s
            if (d > 1e-12 * s && d > floor + 0) {
                printf "row %d, column %d: %.17g against %.17g\n", NR, i, a, b
                bad = 1
            }
        }
    } END { exit bad }'
}
