#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tet-parts.sh FRX TEST_MESH_PARTS MPIRUN...: test_mesh_parts's tet box
# partitioned for 3 ranks by `frx mesh partition -o` (tetrahedra through
# the partitioned mesh file), then read on 3 ranks (each its own part:
# the parts of the box built) and on 2 (one rank merges two parts).
# MPIRUN... is the mpirun command up to the rank count.
set -u
[ $# -ge 3 ] || { echo "usage: tet-parts.sh FRX TEST_MESH_PARTS MPIRUN..."; exit 2; }
frx=$1 test=$2
shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/frx-tet-parts.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# the box of test_mesh_parts.c's TET_MESH (check_built compares the ids)
cat > "$tmp/tet.yaml" <<YAML
backend: {precision: double}
mesh: {type: box, lower: [-1, 0, 0], upper: [1, 2, 3], n: [4, 3, 3], etype: tet, periodic: [yes, no, yes]}
YAML
"$frx" mesh partition "$tmp/tet.yaml" -n 3 -o "$tmp/tet3.h5" > "$tmp/part.txt" 2>&1 ||
    { cat "$tmp/part.txt"; echo "tet-parts.sh: frx mesh partition failed"; exit 1; }
cat "$tmp/part.txt"
for np in 3 2; do
    "$@" $np "$test" tet-file "$tmp/tet3.h5" 3 || exit 1
done
