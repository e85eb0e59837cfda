#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# readme.sh ROOT BUILD: every command of README.md's "Using frx" section
# (each line of its ```sh blocks, comments cut), run in order as a user
# would from the top of a checkout: in a fresh folder holding ROOT's
# config/, tests/ and examples/ and BUILD as build/, so that what the
# commands write lands there. Each must exit 0; the first that does not
# fails the test, with its output. So the README cannot promise a
# command that does not work.
#
# readme.sh --list ROOT: the commands only, one a line.
set -u
list=0
[ "$1" = --list ] && { list=1; shift; }
root=$1
readme=$root/README.md

commands() {
    awk '
        /^## / { inside = ($0 == "## Using frx") ; next }
        inside && /^```sh$/ { code = 1; next }
        inside && /^```/ { code = 0; next }
        inside && code {
            sub(/[ \t]+#.*$/, "")   # a comment after the command
            if ($0 ~ /^[ \t]*(#|$)/) next
            print
        }' "$readme"
}

if [ $list = 1 ]; then
    commands
    exit 0
fi
build=$(cd "$2" && pwd)
n=$(commands | wc -l)
if [ "$n" -lt 5 ]; then
    echo "readme.sh: only $n commands in the 'Using frx' section of $readme"
    exit 1
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/frx-readme.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
for d in config tests examples; do
    ln -s "$root/$d" "$dir/$d"
done
ln -s "$build" "$dir/build"
cd "$dir" || exit 1
export TMPDIR="$dir" # each mpirun its own session directory
i=0
commands > "$dir/commands.txt"
while IFS= read -r cmd; do
    i=$((i + 1))
    echo "readme.sh: [$i/$n] $cmd"
    if ! sh -c "$cmd" > "$dir/out.txt" 2>&1 < /dev/null; then
        cat "$dir/out.txt"
        echo "readme.sh: README.md's command '$cmd' failed (above)"
        exit 1
    fi
    tail -n 2 "$dir/out.txt" | sed 's/^/    /'
done < "$dir/commands.txt"
echo "readme.sh: all $n commands of 'Using frx' ran"
