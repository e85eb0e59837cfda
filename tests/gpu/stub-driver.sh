#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# stub-driver.sh STUB TEST_DATAMODEL: the CUDA toolkit's stub libcuda
# (STUB, lib64/stubs/libcuda.so), found first as libcuda.so.1 through
# LD_LIBRARY_PATH as on a login node with the toolkit's stubs/ on it:
# the cuda backend must not start, and must say which file it loaded,
# that it is the stub, and which folder to take off LD_LIBRARY_PATH.
# Exit 77 where the toolkit has no stub.
stub=$1 exe=$2
if [ ! -r "$stub" ]; then
    echo "no stub libcuda at $stub: not checked"
    exit 77
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/stub-driver-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
ln -s "$stub" "$dir/libcuda.so.1" || exit 1
out=$(LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$exe" cuda 2>&1)
rc=$?
printf '%s\n' "$out"
want="cuda: $dir/libcuda.so.1 (.*) is the CUDA toolkit's stub library \
(CUDA_ERROR_STUB_LIBRARY, 34), for linking only, not the NVIDIA driver: \
take $dir off LD_LIBRARY_PATH"
if [ "$rc" != 77 ]; then
    echo "stub-driver.sh: exit status $rc, wanted 77 (cuda cannot start)"
    exit 1
fi
if ! printf '%s\n' "$out" | grep -q -- "$want"; then
    echo "stub-driver.sh: no line matches: $want"
    exit 1
fi
exit 0
