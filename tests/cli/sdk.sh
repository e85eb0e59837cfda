#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Install frx into a temporary prefix, build examples/plugin-hello against
# it alone, and check that the installed frx lists the new plugin.
#   sdk.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/examples/plugin-hello" -B "$tmp/hello" \
    -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/hello" >/dev/null
out=$(FRX_PLUGIN_PATH="$tmp/hello" "$tmp/prefix/bin/frx" plugins)
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -Eq "^solver +hello +1[.]0[.]0 +abi [0-9]+[.][0-9]+ .*frx-hello[.]so +ok: options only: it cannot run$"
printf '%s\n' "$out" | grep -Eq "^backend +openmp .*can start"
pkg=$(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --variable=plugindir frx)
test "$(realpath "$pkg")" = "$(realpath "$tmp/prefix/lib/frx")"
echo "sdk: the installed frx builds and finds an out-of-tree plugin"
