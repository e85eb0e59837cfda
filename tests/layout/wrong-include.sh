#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The layout check must catch what it is for: on a copy of the tree, one
# wrong include (or call) at a time, it fails and names the file, the
# line and the rule; the untouched copy passes, so each failure is the
# mistake's.
#
#   wrong-include.sh LAYOUT ROOT CC
set -u
layout=$1 root=$2 cc=$3
t=$(mktemp -d "${TMPDIR:-/tmp}/layout.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/tree/core"
cp -R "$root/core/src" "$root/core/cli" "$t/tree/core/"
cp -R "$root/plugins" "$root/examples" "$t/tree/"
fail=0

# expect WHAT TEXT...: the check fails, and its output holds each TEXT
expect() {
    what=$1
    shift
    out=$("$layout" "$t/tree" ${objects:+--objects "$objects"} 2>&1)
    rc=$?
    if [ $rc -ne 1 ]; then
        echo "FAIL: $what: the check exited $rc, not 1:"
        echo "$out"
        fail=1
        return
    fi
    for text in "$@"; do
        case $out in
        *"$text"*) ;;
        *) echo "FAIL: $what: no '$text' in:"; echo "$out"; fail=1 ;;
        esac
    done
    echo "ok: $what"
}

# insert FILE LINE TEXT: TEXT becomes line LINE of the copy's FILE
insert() {
    cp "$t/tree/$1" "$t/saved"
    awk -v n="$2" -v text="$3" 'NR == n { print text } { print }' \
        "$t/saved" > "$t/tree/$1"
}
restore() { cp "$t/saved" "$t/tree/$1"; }

objects=
if ! "$layout" "$t/tree" > "$t/out" 2>&1; then
    echo "FAIL: the untouched copy does not pass:"
    cat "$t/out"
    exit 1
fi
echo "ok: the untouched copy passes"

insert core/src/data/view.c 3 '#include "solver/solver-impl.h"'
expect "an upper folder's header" \
    'core/src/data/view.c:3: includes "solver/solver-impl.h", but data does not use solver'
restore core/src/data/view.c

insert core/src/solver/run_io.c 2 '#include "io/io-util.h"'
expect "a lower folder's private header" \
    'core/src/solver/run_io.c:2: includes "io/io-util.h": other folders see io through "io/io-impl.h" only'
restore core/src/solver/run_io.c

insert core/src/data/xchg.c 4 '#include <CL/cl.h>'
expect "a vendor header in libfrx" \
    'core/src/data/xchg.c:4: includes <CL/cl.h>, which only opencl may include'
restore core/src/data/xchg.c

insert core/src/graph/graph.c 4 '#include <yaml.h>'
expect "another folder's third-party header" \
    'core/src/graph/graph.c:4: includes <yaml.h>, which only config may include'
restore core/src/graph/graph.c

insert plugins/openmp/pack.c 2 '#include <cuda.h>'
expect "another plugin's vendor header" \
    'plugins/openmp/pack.c:2: includes <cuda.h>, which only cuda may include'
restore plugins/openmp/pack.c

insert plugins/opencl/events.c 2 '#include "data/data-impl.h"'
expect "libfrx's internals in a plugin" \
    'plugins/opencl/events.c:2: includes "data/data-impl.h": plugins see libfrx only through the public headers'
restore plugins/opencl/events.c

insert plugins/cuda/cuda.c 2 '#include "openmp.h"'
expect "a plugin folder it does not use" \
    'plugins/cuda/cuda.c:2: includes "openmp.h", which is in none of its folders'
restore plugins/cuda/cuda.c

insert core/cli/main.c 2 '#include "base/base-impl.h"'
expect "libfrx's internals in the frx program" \
    'core/cli/main.c:2: includes "base/base-impl.h": the frx program uses libfrx through'
restore core/cli/main.c

echo '/* astray */' > "$t/tree/core/src/stray.c"
expect "a file outside the folders" \
    'core/src/stray.c: a file outside libfrx'"'"'s subsystem folders'
rm "$t/tree/core/src/stray.c"

cp "$t/tree/core/src/layers.txt" "$t/saved"
sed 's/^base:$/base: solver/' "$t/saved" > "$t/tree/core/src/layers.txt"
expect "a folder that uses one above it" \
    "core/src/layers.txt:13: 'base' uses 'solver', which no line above lists"
restore core/src/layers.txt

# Calls the includes cannot show: a file of data that calls a function of
# solver, and two files of one folder that call each other.
mkdir -p "$t/obj/src/data" "$t/obj/src/solver"
printf 'int frx__up(void);\nint frx__low(void) { return frx__up(); }\n' \
    > "$t/low.c"
printf 'int frx__up(void) { return 1; }\n' > "$t/up.c"
printf 'int frx__b(int);\nint frx__a(int n) { return n ? frx__b(n - 1) : 0; }\n' \
    > "$t/a.c"
printf 'int frx__a(int);\nint frx__b(int n) { return n ? frx__a(n - 1) : 1; }\n' \
    > "$t/b.c"
"$cc" -c "$t/low.c" -o "$t/obj/src/data/low.c.o" &&
    "$cc" -c "$t/up.c" -o "$t/obj/src/solver/up.c.o" &&
    "$cc" -c "$t/a.c" -o "$t/obj/src/solver/a.c.o" &&
    "$cc" -c "$t/b.c" -o "$t/obj/src/solver/b.c.o" || exit 1
objects=$t/objects.txt
for o in data/low solver/up solver/a solver/b; do
    echo "frx $t/obj/src/$o.c.o"
done > "$objects"
expect "calls into an upper folder, and a cycle between files" \
    'core/src/data/low.c: calls frx__up of core/src/solver/up.c, but data does not use solver' \
    'core/src/solver: files that call each other in a cycle: a.c, b.c'

exit $fail
