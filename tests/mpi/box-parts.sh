#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# box-parts.sh CASE FRX TEST_MESH_PARTS MPIRUN...: test_mesh_parts's tet,
# pri or pyr box (CASE) partitioned for 3 ranks by `frx mesh partition
# -o` (tetrahedra, prisms or pyramids through the partitioned mesh
# file), then read on
# 3 ranks (each its own part: the parts of the box built) and on 2 (one
# rank merges two parts). MPIRUN... is the mpirun command up to the rank
# count.
set -u
[ $# -ge 4 ] || { echo "usage: box-parts.sh tet|pri|pyr FRX TEST_MESH_PARTS MPIRUN..."; exit 2; }
case=$1 frx=$2 test=$3
shift 3
# the boxes of test_mesh_parts.c's TET_MESH, PRI_MESH and PYR_MESH (check_built
# compares the ids)
case $case in
tet) mesh='{type: box, lower: [-1, 0, 0], upper: [1, 2, 3], n: [4, 3, 3], etype: tet, periodic: [yes, no, yes]}' ;;
pri) mesh='{type: box, lower: [-1, 0, 0], upper: [1, 2, 3], n: [4, 3, 3], etype: prism, order: 2, periodic: [yes, no, yes]}' ;;
pyr) mesh='{type: box, lower: [-1, 0, 0], upper: [1, 2, 3], n: [3, 3, 2], etype: pyramid, order: 2, periodic: [yes, no, yes]}' ;;
*) echo "box-parts.sh: no case '$case' (tet, pri or pyr)"; exit 2 ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/frx-box-parts.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/box.yaml" <<YAML
backend: {precision: double}
mesh: $mesh
YAML
"$frx" mesh partition "$tmp/box.yaml" -n 3 -o "$tmp/box3.h5" > "$tmp/part.txt" 2>&1 ||
    { cat "$tmp/part.txt"; echo "box-parts.sh: frx mesh partition failed"; exit 1; }
cat "$tmp/part.txt"
for np in 3 2; do
    "$@" $np "$test" $case-file "$tmp/box3.h5" 3 || exit 1
done
