#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vtk-reader.sh PYTHON SCRIPT TEST_VTK NP MPIRUN...: write VTK output on
# NP ranks (MPIRUN... NP TEST_VTK DIR) and load it with VTK's own reader
# (SCRIPT, vtk_reader.py). Skipped (77) where PYTHON has no vtk module.
py=$1 script=$2 test_vtk=$3 np=$4
shift 4
if ! "$py" -c "import vtk" 2>/dev/null; then
    echo "skipped: $py has no vtk module: install python3-vtk9" \
         "(scripts/install-deps)"
    exit 77
fi
dir="${TMPDIR:-/tmp}/vtk-reader"
"$@" "$np" "$test_vtk" "$dir" && "$py" "$script" "$dir" "$np"
