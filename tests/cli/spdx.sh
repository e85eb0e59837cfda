#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# spdx.sh ROOT: every source file of frx (C, headers, CMake, shell) in
# ROOT's folders says its licence in an SPDX line within its first three
# lines (LICENSE: BSD-3-Clause). Fails naming each file that does not.
set -u
root=$1
cd "$root" || exit 1
bad=0 n=0
for f in $(find core plugins tests examples bench scripts .ci CMakeLists.txt \
        \( -name 'build*' -prune \) -o -type f \( -name '*.c' -o -name '*.h' \
        -o -name '*.sh' -o -name '*.cmake' -o -name 'CMakeLists.txt' \
        -o -name run -o -name install-deps \) -print); do
    n=$((n + 1))
    if ! head -n 3 "$f" | grep -q 'SPDX-License-Identifier: BSD-3-Clause'; then
        echo "spdx.sh: $f: no 'SPDX-License-Identifier: BSD-3-Clause' line at its top"
        bad=1
    fi
done
[ "$n" -gt 100 ] || { echo "spdx.sh: only $n files found under $root"; exit 1; }
[ $bad = 0 ] && echo "spdx.sh: $n files, each with its SPDX line"
exit $bad
