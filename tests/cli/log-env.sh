#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# log-env.sh FRX: FRX_LOG in any case sets the level; a value that is no
# level is named once, with the valid ones, and changes nothing.
frx=$1
fail() { echo "log-env.sh: $*" >&2; exit 1; }

out=$(FRX_LOG=DEBUG "$frx" plugins 2>&1) || fail "frx plugins failed: $out"
printf '%s\n' "$out" | grep -q "debug: loading plugin .*frx-openmp[.]so" ||
    fail "FRX_LOG=DEBUG did not log at debug level: $out"

out=$(FRX_LOG=Verbose "$frx" plugins 2>&1) || fail "frx plugins failed: $out"
n=$(printf '%s\n' "$out" | grep -c "warn: FRX_LOG=Verbose is not a log level: use error, warn, info or debug")
[ "$n" = 1 ] || fail "the warning came $n times, not once: $out"
printf '%s\n' "$out" | grep -q "debug:" && fail "debug lines at the default level: $out"
echo "log-env.sh: ok"
