#!/bin/sh
# expect.sh RC PATTERN CMD...: run CMD, require exit status RC and output
# (stdout and stderr) matching the extended regex PATTERN. CMD runs with
# a TMPDIR of its own (see ../own-tmpdir.sh).
rc_want=$1 pattern=$2
shift 2
out=$(sh "$(dirname "$0")/../own-tmpdir.sh" "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" != "$rc_want" ]; then
    echo "expect.sh: exit status $rc, wanted $rc_want: $*" >&2
    exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
    echo "expect.sh: output does not match /$pattern/: $*" >&2
    exit 1
fi
exit 0
