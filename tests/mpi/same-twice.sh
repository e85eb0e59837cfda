#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# same-twice.sh CMD...: run CMD twice; both runs must pass and print the
# same "partition digest:" line.
one=$("$@") || { printf '%s\n' "$one"; exit 1; }
two=$("$@") || { printf '%s\n' "$two"; exit 1; }
d1=$(printf '%s\n' "$one" | grep '^partition digest:')
d2=$(printf '%s\n' "$two" | grep '^partition digest:')
printf '%s\n%s\n' "$d1" "$d2"
[ -n "$d1" ] && [ "$d1" = "$d2" ]
