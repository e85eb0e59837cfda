#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# licences.sh check PREFIX TABLE: every shared library that ldd lists for
# the installed libraries and programs (PREFIX/lib, PREFIX/bin) has a row
# in TABLE (docs/dependencies.md) whose licence is not GPL alone: each
# alternative of an "A OR B" licence that is GPL (not LGPL) with no
# "WITH" exception counts as GPL; one alternative that is not is enough.
# Fails naming each library without a row, each GPL one, and each that
# ldd cannot find. frx's own libraries (libfrx, libfrx-fr) are
# BSD-3-Clause (LICENSE).
#
# licences.sh selftest PREFIX TABLE: the check fails, naming the library,
# on copies of TABLE with libpng's licence made GPL-3.0-only and with
# libyaml's row taken out.
set -u
mode=$1 prefix=$2 table=$3

check() { # table
    found=$(mktemp "${TMPDIR:-/tmp}/licences.XXXXXX") || exit 1
    n=0
    for f in $(find "$prefix/lib" "$prefix/bin" -type f); do
        out=$(ldd "$f" 2>/dev/null) || continue # not a dynamic ELF file
        n=$((n + 1))
        echo "$out" | awk -v f="$f" '
            /=> not found/ { print "NOTFOUND " $1 " " f; next }
            $2 == "=>" && $3 ~ /^\// { print $1 }' >> "$found"
    done
    if [ "$n" -lt 3 ]; then
        echo "licences.sh: only $n ELF files under $prefix: is it installed?"
        rm -f "$found"
        return 1
    fi
    sort -u "$found" | grep -Ev '^libfrx(-fr)?[.]so' | awk -v table="$1" '
        BEGIN {
            while ((getline line < table) > 0) {
                if (line !~ /^\| `lib/)
                    continue
                split(line, col, "|")
                lic = col[4]
                gsub(/^ +| +$/, "", lic)
                n = split(col[2], names, ",")
                for (i = 1; i <= n; i++) {
                    name = names[i]
                    gsub(/[ `]/, "", name)
                    licence[name] = lic
                }
            }
        }
        # GPL with no other choice and no exception
        function gpl_only(lic,    alt, k, i, a) {
            k = split(lic, alt, / OR /)
            for (i = 1; i <= k; i++) {
                a = alt[i]
                if (a !~ /(^|[^L])GPL-/ || a ~ / WITH /)
                    return 0
            }
            return 1
        }
        $1 == "NOTFOUND" {
            printf "licences.sh: %s needs %s, which ldd cannot find\n",
                $3, $2
            bad = 1
            next
        }
        {
            if (!($1 in licence)) {
                printf "licences.sh: %s is loaded but has no row in %s: " \
                    "add it with its licence (read /usr/share/doc/<its " \
                    "package>/copyright)\n", $1, table
                bad = 1
            } else if (gpl_only(licence[$1])) {
                printf "licences.sh: %s is %s: no GPL-only library may " \
                    "be loaded by what frx installs\n", $1, licence[$1]
                bad = 1
            } else {
                printf "%-28s %s\n", $1, licence[$1]
            }
        }
        END { exit bad }'
    rc=$?
    rm -f "$found"
    return $rc
}

case $mode in
check)
    check "$table" || exit 1
    echo "licences.sh: every library loaded has a licence that is not GPL alone"
    ;;
selftest)
    t=$(mktemp -d "${TMPDIR:-/tmp}/licences-self.XXXXXX") || exit 1
    trap 'rm -rf "$t"' EXIT
    fail=0
    sed 's/^\(| `libpng16.so.16` | [^|]*| \)[^|]*|/\1GPL-3.0-only |/' \
        "$table" > "$t/gpl.md"
    grep -q 'GPL-3.0-only' "$t/gpl.md" || { echo "FAIL: no libpng row to change"; exit 1; }
    if out=$(check "$t/gpl.md"); then
        echo "FAIL: libpng made GPL-3.0-only passed"; fail=1
    else
        case $out in
        *"libpng16.so.16 is GPL-3.0-only: no GPL-only library"*) echo "ok: a GPL library is refused" ;;
        *) echo "FAIL: no word of libpng in:"; echo "$out"; fail=1 ;;
        esac
    fi
    grep -v '^| `libyaml-0.so.2`' "$table" > "$t/missing.md"
    if out=$(check "$t/missing.md"); then
        echo "FAIL: a table without libyaml passed"; fail=1
    else
        case $out in
        *"libyaml-0.so.2 is loaded but has no row"*) echo "ok: a library without a row is refused" ;;
        *) echo "FAIL: no word of libyaml in:"; echo "$out"; fail=1 ;;
        esac
    fi
    exit $fail
    ;;
*)
    echo "usage: licences.sh check|selftest PREFIX TABLE" >&2
    exit 2
    ;;
esac
