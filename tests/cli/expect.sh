#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# expect.sh RC PATTERN [--and PATTERN]... CMD...: run CMD, require exit
# status RC and output (stdout and stderr) with a line matching each
# extended regex PATTERN. CMD runs with a TMPDIR of its own (see
# ../own-tmpdir.sh).
rc_want=$1 pattern=$2
shift 2
patterns=$pattern
while [ "$1" = "--and" ]; do
    patterns="$patterns
$2"
    shift 2
done
out=$(sh "$(dirname "$0")/../own-tmpdir.sh" "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" != "$rc_want" ]; then
    echo "expect.sh: exit status $rc, wanted $rc_want: $*" >&2
    exit 1
fi
printf '%s\n' "$patterns" | while IFS= read -r p; do
    if ! printf '%s\n' "$out" | grep -Eq -- "$p"; then
        echo "expect.sh: output does not match /$p/: $*" >&2
        exit 1
    fi
done || exit 1
exit 0
