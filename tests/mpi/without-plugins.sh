#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# without-plugins.sh LIBDIR CMD...: run CMD with a copy of libfrx (from
# LIBDIR) in a directory of its own, beside which there are no plugins:
# a node where frx is installed without them. (The build tree's programs
# find libfrx through RUNPATH, which LD_LIBRARY_PATH overrides.)
lib=$1
shift
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-noplugins.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 143' TERM INT
cp -P "$lib"/libfrx.so* "$dir"/ || exit 1
LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$@"
