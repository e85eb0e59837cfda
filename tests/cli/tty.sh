#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tty.sh FRX CASE: run `FRX run CASE` on a pseudo-terminal (script(1))
# and require the progress line to be rewritten in place: a carriage
# return before "step", and no line that starts with "step".
out=$(script -qec "$1 run $2" /dev/null) || { printf '%s\n' "$out"; exit 1; }
printf '%s\n' "$out" | tr '\r' '\n'
if ! printf '%s' "$out" | tr '\r' '@' | grep -q '@step 20  t 1 '; then
    echo "tty.sh: no carriage return before the last progress line" >&2
    exit 1
fi
if printf '%s\n' "$out" | grep -q '^step '; then
    echo "tty.sh: a progress line on a line of its own on a terminal" >&2
    exit 1
fi
exit 0
