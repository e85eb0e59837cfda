#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# mixed-3d.sh MPIEXEC FRX MSH [GROUPS CELLS]: the ODE fixture on a Gmsh
# mesh of several 3-D types (default tests/data/mesh/hex-pri.msh's
# hexahedra and prisms): checkpoints hold /solution/<t> for each t of
# GROUPS (default "hex pri"); 4 steps on 2 ranks give the bits of 2
# steps on 2 ranks, a checkpoint and 2 more restarted on 1; the VTK
# output's cell types, sorted, are CELLS (default "12 13 13":
# VTK_HEXAHEDRON, VTK_WEDGE, one per element). Runs in a folder of its
# own; needs h5diff and h5ls (hdf5-tools).
set -eu
mpiexec=$1 frx=$2 msh=$3 groups=${4:-hex pri} cells=${5:-12 13 13}
if ! command -v h5diff > /dev/null || ! command -v h5ls > /dev/null; then
    echo "SKIP: h5diff and h5ls are needed (Debian: hdf5-tools)"
    exit 77
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-mixed-3d.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() {
    echo "mixed-3d.sh: $*" >&2
    exit 1
}
write_case() { # name steps
    cat > "$1.yaml" <<END
backend: {name: openmp, precision: double}
mesh: {type: gmsh, file: $msh}
solver: {name: ode, points: 3}
time: {scheme: rk4, steps: $2, dt: 0.1}
progress: {mode: off}
output: {interval: $2, dir: out-$1, name: sol}
checkpoint: {interval: $2, file: "$1-{step}.h5"}
END
}
write_case full 4
write_case half 2
write_case rest 4
"$mpiexec" -n 2 "$frx" run full.yaml
"$mpiexec" -n 2 "$frx" run half.yaml
"$mpiexec" -n 1 "$frx" run rest.yaml --restart half-00000002.h5
for t in $groups; do
    h5ls "full-00000004.h5/solution/$t" | grep -q '^u ' ||
        fail "no /solution/$t/u in the checkpoint: $(h5ls -r full-00000004.h5)"
done
h5diff full-00000004.h5 rest-00000004.h5 /solution /solution ||
    fail "the solutions at step 4 differ after a restart on 1 rank"
# the cell types of every piece of step 4: the UInt8 array "types" in
# the raw appended data (a UInt64 byte count, then the bytes)
types=$(python3 - out-full/sol/sol-000004-*.vtu <<'PY'
import re, struct, sys
types = []
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    off = int(re.search(rb'Name="types" format="appended" offset="(\d+)"',
                        data).group(1))
    base = data.index(b'<AppendedData encoding="raw">')
    base = data.index(b"_", base) + 1 + off
    n = struct.unpack("<Q", data[base:base + 8])[0]
    types += list(data[base + 8:base + 8 + n])
print(" ".join(str(t) for t in sorted(types)))
PY
)
[ "$types" = "$cells" ] ||
    fail "the VTK cells' types are '$types', want '$cells'"
echo "mixed-3d.sh: $msh through checkpoints (groups $groups under /solution), a restart on 1 rank of 2 and VTK cells $cells"
