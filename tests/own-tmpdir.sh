#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# own-tmpdir.sh CMD...: run CMD with a TMPDIR of its own, removed after.
# Open MPI 4.1 creates its session directory (/tmp/ompi.<host>.<uid>)
# with a check-then-mkdir that fails ("File exists") when two jobs start
# at the same moment, as under ctest -j; a private TMPDIR per test keeps
# each job's session directory apart.
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-test.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 143' TERM INT
TMPDIR=$dir "$@"
