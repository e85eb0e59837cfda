#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# install-prefix.sh BUILD SOURCE DIR [CFLAGS]: install frx from BUILD
# into DIR/prefix and build, out of tree against that prefix alone and
# with CFLAGS (-Werror), examples/solver-plugin into DIR/advect and
# examples/physics-shallow-water (on the FR SDK) into DIR/sw, and the
# extension examples interface-jump and baseflow-check into DIR/jump and
# DIR/bfc. The fixture of the tests of an installed frx
# (cli/installed.cmake).
set -eu
build=$1 src=$2 dir=$3 cflags=${4:-}
rm -rf "$dir"
cmake --install "$build" --prefix "$dir/prefix" >/dev/null
cmake -S "$src/examples/solver-plugin" -B "$dir/advect" \
    -DCMAKE_PREFIX_PATH="$dir/prefix" -DCMAKE_C_FLAGS="$cflags" >/dev/null
cmake --build "$dir/advect" >/dev/null
out=$(FRX_PLUGIN_PATH="$dir/advect" "$dir/prefix/bin/frx" plugins)
printf '%s\n' "$out"
printf '%s\n' "$out" |
    grep -Eq "^solver +advect +1[.]0[.]0 .*/advect/frx-advect[.]so +ok"
# the FR SDK: headers, library, its CMake target and pkg-config file
test -f "$dir/prefix/include/frx/fr/system.h"
test -f "$dir/prefix/lib/pkgconfig/frx-fr.pc"
cmake -S "$src/examples/physics-shallow-water" -B "$dir/sw" \
    -DCMAKE_PREFIX_PATH="$dir/prefix" -DCMAKE_C_FLAGS="$cflags" >/dev/null
cmake --build "$dir/sw" >/dev/null
out=$(FRX_PLUGIN_PATH="$dir/sw" "$dir/prefix/bin/frx" plugins)
printf '%s\n' "$out" |
    grep -Eq "^solver +shallow-water +1[.]0[.]0 .*/sw/frx-shallow-water[.]so +ok" ||
    { printf '%s\n' "$out"; echo "install-prefix: frx-shallow-water is not ok"; exit 1; }
# the extension examples
for ext in jump:interface-jump bfc:baseflow-check; do
    sub=${ext%%:*} name=${ext#*:}
    cmake -S "$src/examples/extension-$name" -B "$dir/$sub" \
        -DCMAKE_PREFIX_PATH="$dir/prefix" -DCMAKE_C_FLAGS="$cflags" >/dev/null
    cmake --build "$dir/$sub" >/dev/null
    out=$(FRX_PLUGIN_PATH="$dir/$sub" "$dir/prefix/bin/frx" plugins)
    printf '%s\n' "$out" |
        grep -Eq "^extension +$name +1[.]0[.]0 .*/$sub/frx-$name[.]so +ok" ||
        { printf '%s\n' "$out"; echo "install-prefix: frx-$name is not ok"; exit 1; }
done
test -x "$dir/prefix/bin/frx-conformance"
test -f "$dir/prefix/share/frx/conformance/kernels/scale.c"
echo "install-prefix: frx installed in $dir/prefix; frx-advect, frx-shallow-water, frx-interface-jump and frx-baseflow-check built against it"
