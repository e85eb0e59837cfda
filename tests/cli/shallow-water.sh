#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# shallow-water.sh MODE MPIEXEC PREFIX PLUGINS EXAMPLE ...: the
# physics-shallow-water example (built out of tree against the
# installed FR SDK, PLUGINS its build) run by the installed frx (PREFIX)
# on EXAMPLE's cases:
#   lake NP BACKEND   lake.yaml (a lake at rest over a bump, walls all
#       round) on NP ranks and BACKEND: it stays at rest, every L2 error
#       below 1e-12 (77 where BACKEND cannot start)
#   converge P N1 N2  wave.yaml (a manufactured solution: sources, a
#       bed of ripples) at order P on N1 x N1 and N2 x N2 elements, to
#       t = 0.1: every variable's L2 error falls at order >= P + 0.8
set -u
mode=$1 mpiexec=$2 prefix=$3 plugins=$4 example=$5
shift 5
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-sw.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
export TMPDIR="$dir" FRX_PLUGIN_PATH="$plugins"
fail() { echo "FAIL: $*"; exit 1; }
errors() { # FILE: the L2 errors, one a line
    sed -n 's/^frx: L2 error at t = [^:]*: //p' "$1" |
        awk '{ for (i = 2; i <= NF; i += 2) print $i }'
}

case $mode in
lake)
    np=$1 be=$2
    sed "s/backend: {name: openmp,/backend: {name: $be,/" \
        "$example/lake.yaml" > lake.yaml
    if ! "$mpiexec" -n "$np" "$prefix/bin/frx" run lake.yaml > lake.txt 2>&1
    then
        cat lake.txt
        grep -q "cannot start" lake.txt && exit 77
        fail "the lake on $np rank(s), $be"
    fi
    cat lake.txt
    errors lake.txt > e.txt
    [ "$(wc -l < e.txt)" -eq 3 ] || fail "no L2 errors"
    awk '{ if (!($1 < 1e-12)) bad = 1 } END { exit bad }' e.txt ||
        fail "the lake did not stay at rest to round-off"
    echo "shallow-water.sh: the lake stays at rest: $(tr '\n' ' ' < e.txt)"
    ;;
converge)
    p=$1 n1=$2 n2=$3
    for n in "$n1" "$n2"; do
        sed -e "s/n: \[8, 8\]/n: [$n, $n]/" -e "s/order: 3/order: $p/" \
            -e "s/t-end: 0.25/t-end: 0.1/" "$example/wave.yaml" > w$n.yaml
        "$prefix/bin/frx" run w$n.yaml > w$n.txt 2>&1 ||
            { cat w$n.txt; fail "p = $p, n = $n"; }
        errors w$n.txt > e$n.txt
        [ "$(wc -l < e$n.txt)" -eq 3 ] || { cat w$n.txt; fail "no L2 errors"; }
    done
    paste "e$n1.txt" "e$n2.txt" | awk -v p="$p" -v n1="$n1" -v n2="$n2" '
        { order = log($1 / $2) / log(n2 / n1)
          printf "variable %d: %g -> %g, order %.3f\n", NR, $1, $2, order
          if (!(order >= p + 0.8)) bad = 1 }
        END { exit bad }' || fail "p = $p: an order below p + 0.8"
    ;;
*)
    echo "shallow-water.sh: no mode '$mode'" >&2
    exit 2 ;;
esac
