#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench/vs-pyfr-3d.sh [BUILD]: bench/vs-pyfr.sh in 3-D. frx beside PyFR
# 1.15 on the same periodic Gmsh boxes in the same minutes, for the
# Euler equations (Rusanov flux, rk4, double precision, openmp; a
# uniform flow (0.2, 1, 0.5) with a small density wave; dt 2^-13), in ns
# per DOF per RHS, on 1 rank x 2 threads and on 2 ranks x 1 thread, and
# in bytes of memory per DOF. A benchmark, not a test.
#
# The meshes (box3d in bench/frx-output.sh, one .msh each, read by frx
# and imported by PyFR, partitioned by PyFR for its 2 ranks): N^3 cubes
# of side 20/N on [-10, 10]^3, periodic (periodic_0_l/_r ...), of
#   hexahedra   SIZES_HEX (default "16 32"), Gauss-Legendre points
#   tetrahedra  SIZES_TET ("13 26": about the hexahedra's DOFs), 6 a
#               cube cut as frx's box cuts them; Shunn-Ham points,
#               Williams-Shunn on the faces
#   prisms      SIZES_PRI ("15 30"), 2 a cube; Williams-Shunn x
#               Gauss-Legendre points. Skipped, with a line saying why,
#               while frx refuses prisms
# at the orders ORDERS ("1 2 3 4"). Each round runs, in turn, PyFR 1x2,
# PyFR 2x1, frx 1x2, frx 2x1 (1 rank unbound, 2 ranks bound to a core
# each, as vs-pyfr.sh); ROUNDS (3) rounds; the table gives each code's
# median over the rounds and the median of the rounds' ratios frx/PyFR
# (below 1: frx faster). Each run's steps give it about 2e8 DOF-updates
# (at least 10 timed steps); PyFR's first 3 steps and frx's first 3 are
# left out (kernels compiled, memory first touched).
#
# Memory: the peak resident set of each rank (GNU time's "Maximum
# resident set size"), summed over the ranks, median over the rounds;
# the fixed part (libraries, interpreter, MPI, kernels) is taken out by
# running the same code, layout, element type and order on a 3^3-cube
# mesh once: bytes per DOF = (peak - the small mesh's peak) / (DOFs -
# its DOFs). The table gives 1x2's; the line under it 2x1's and the
# peaks in MB. Without /usr/bin/time (GNU time) the memory is "n/a".
#
# A run that fails (PyFR's openmp backend on some element type and
# order, a solution that is not finite at the end, a crash at exit) is
# "n/a" in the table, its reason on a line under the row and its output
# on stderr; it is not run again in later rounds. Both codes must report
# the DOFs the mesh has, else the script stops (not the same mesh).
#
# PYFR_WORK (default $TMPDIR/frx-pyfr): where ../shared/pyfr/run.sh
# installed PyFR (run it once first).
#   sh bench/vs-pyfr-3d.sh build
#   SIZES_HEX=8 SIZES_TET=5 SIZES_PRI= ORDERS="1 2" ROUNDS=1 sh bench/vs-pyfr-3d.sh build
set -u
build=${1:-build} rounds=${ROUNDS:-3} small=3
pyfr=${PYFR_WORK:-${TMPDIR:-/tmp}/frx-pyfr}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/frx-output.sh"
me=bench/vs-pyfr-3d.sh
[ -x "$build/bin/frx" ] || { echo "$me: no $build/bin/frx: build frx first" >&2; exit 1; }
frx=$(cd "$build" && pwd)/bin/frx
pyfr=$(cd "$pyfr" 2>/dev/null && pwd || echo "$pyfr")
pyfr_setup $me "$pyfr"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-vs-pyfr-3d.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
export FRX_CACHE_DIR=$dir/cache
# GNU time, for the peak resident set of each rank
gtime=""
/usr/bin/time -f %M true > /dev/null 2>&1 && gtime=/usr/bin/time

dt=0.0001220703125 # 2^-13
euler3d_ini $dt > case.ini

fail() { echo "$me: $1" >&2; [ -n "${2:-}" ] && cat "$2" >&2; exit 1; }

# dofs ETYPE N P: the DOFs (5 variables) of box3d's mesh at order P
dofs() {
    case $1 in
        hex) echo $(($2 * $2 * $2 * ($3 + 1) * ($3 + 1) * ($3 + 1) * 5)) ;;
        tet) echo $(($2 * $2 * $2 * ($3 + 1) * ($3 + 2) * ($3 + 3) * 5)) ;;
        pri) echo $(($2 * $2 * $2 * ($3 + 1) * ($3 + 1) * ($3 + 2) * 5)) ;;
    esac
}

# bind NP: one rank takes both cores for its threads; two ranks a core
# each (as vs-pyfr.sh)
bind() { [ "$1" = 1 ] && echo none || echo core; }

# mpi NP THREADS OUT CMD...: CMD on NP ranks of THREADS threads,
# stdout and stderr in OUT; CMD's status. Each rank runs under GNU time,
# which writes its peak resident set (kB) to rss.RANK (a file each: the
# ranks' lines in OUT may run into each other)
mpi() {
    np=$1 nt=$2 out=$3
    shift 3
    rm -f rss.*
    if [ -n "$gtime" ]; then
        set -- sh -c 'exec '"$gtime"' -o "rss.${OMPI_COMM_WORLD_RANK:-0}" -f %M "$@"' \
            sh "$@"
    fi
    OMP_NUM_THREADS=$nt mpirun -np "$np" --bind-to "$(bind "$np")" \
        -x PYFR_XSMM_LIBRARY_PATH -x XDG_CACHE_HOME -x OMP_NUM_THREADS \
        "$@" > "$out" 2>&1
}

# rss NP: the last run's ranks' peak resident sets summed, in kB ("-"
# unless each of the NP ranks gave one)
rss() {
    for f in rss.*; do [ -f "$f" ] && tail -n 1 "$f"; done |
        awk -v np="$1" '/^[0-9]+$/ { s += $1; n++ } END { print n == np ? s : "-" }'
}

# why OUT: one line on why a run failed: our scripts' own words, frx's
# last error, Python's exception, glibc's words or the signal that
# ended it
why() {
    awk '/^pyfr_rhs\.py: / && !o { o = $0 }
         /^frx: / && !/^frx: (solver|[0-9]+ steps|[0-9]+ DOFs|L2 error)/ { f = $0 }
         /^[A-Za-z_.]*(Error|Exception): / { x = $0 }
         /corrupted|invalid pointer|double free|free\(\)|Segmentation fault/ && !g {
             g = $0; sub(/^\[[^]]*\] /, "", g) }
         /(exited|terminated) on signal|terminated by signal/ && !s {
             s = $0; sub(/^.*(exited|terminated) (on|by) /, "", s) }
         END { r = o ? o : f ? f : x ? x : g ? g : s ? s : "exit status not 0, no message"
               if (g && r != g) r = r " (" g ")"
               if (s && r != s && !o && !f && !x) r = r ", " s
               print substr(r, 1, 160) }' "$1"
}

# show WHO OUT: a failed run's output on stderr
show() {
    { echo "--- $me: $1 failed; its output (less Open MPI's backtrace):"
      grep -Ev '^\[[^]]*\] \[ *[0-9]+\]' "$2" | tail -40
      echo "---"; } >&2
}

# pyfr_run NP THREADS MESH P STEPS: "ns_per_dof_rhs rss_kB dofs", or
# "n/a REASON"
pyfr_run() {
    if mpi "$1" "$2" out.txt "$py/python" "$here/pyfr_rhs.py" "$3" case.ini "$4" "$5"; then
        awk -v m="$(rss "$1")" '/^[0-9.]+e[-+][0-9]+ [0-9]+$/ { t = $1; d = $2 }
            END { if (t == "") exit 1; printf "%.4f %s %d\n", t / d * 1e9, m, d }' out.txt ||
            { show "PyFR $1x$2 on $3, p = $4" out.txt
              echo "n/a no time per RHS in PyFR's output"; }
    else
        show "PyFR $1x$2 on $3, p = $4" out.txt
        t=$(awk '/^[0-9.]+e[-+][0-9]+ [0-9]+$/ { printf "%.4f", $1 / $2 * 1e9 }' out.txt)
        echo "n/a $(why out.txt)${t:+ [it printed its time first: $t ns, not used]}"
    fi
}

# frx_run NP THREADS MESH P STEPS: the same for frx. The run of 3 steps
# first (kernels compiled and cached, memory touched), again, then 3 +
# STEPS: the difference is STEPS steps' time; the peak memory is the
# last run's
frx_run() {
    for s in 3 3 $((3 + $5)); do
        euler3d_case "$3" "$4" "$2" "$s" $dt > frx.yaml
        mpi "$1" "$2" out.txt "$frx" run frx.yaml ||
            { show "frx $1x$2 on $3.msh, p = $4" out.txt; echo "n/a $(why out.txt)"; return; }
        frx_summary < out.txt > "t-$s" ||
            { show "frx $1x$2 on $3.msh, p = $4" out.txt
              echo "n/a no summary in frx's output"; return; }
    done
    cat t-3 "t-$((3 + $5))" | awk -v m="$(rss "$1")" 'NR == 1 { w = $1; r = $3 }
        NR == 2 { printf "%.4f %s %d\n", ($1 - w) / ($2 * ($3 - r)) * 1e9, m, $2 }'
}

# mesh ETYPE N: box3d's mesh ETYPE-N.msh, PyFR's ETYPE-N.pyfrm and its 2
# parts in part-ETYPE-N/
mesh() {
    m=$1-$2
    [ -f "$m.pyfrm" ] && return
    box3d "$1" "$2" "$m.msh" || fail "box3d $1 $2 failed"
    { "$py/pyfr" import "$m.msh" "$m.pyfrm" && rm -rf "part-$m" &&
      mkdir "part-$m" && "$py/pyfr" partition 2 "$m.pyfrm" "part-$m"; } > out.txt 2>&1 ||
        fail "PyFR could not import or partition $m.msh" out.txt
}

# check_dofs WHO RESULT WANT: stop unless a run that worked reports WANT DOFs
check_dofs() {
    set -- "$1" $2 "$3"
    [ "$2" = n/a ] || [ "$4" = "$5" ] ||
        fail "$1 reports $4 DOFs, the mesh has $5: not the mesh this script made"
}

# small CODE NP THREADS ETYPE P: the peak memory (kB, summed over the
# ranks) of CODE (pyfr or frx) on the 3^3-cube mesh, run once before
# (kernels compiled, so that no compiler's memory counts) and kept in a
# file for the later sizes; "-" where it failed
small() {
    f=small-$1-$2x$3-$4-p$5
    if [ ! -f "$f" ]; then
        mesh "$4" $small
        m=$4-$small
        if [ "$1" = pyfr ]; then
            [ "$2" = 1 ] || m=part-$m/$m
            pyfr_run "$2" "$3" "$m.pyfrm" "$5" 10 > /dev/null 2>&1
            r=$(pyfr_run "$2" "$3" "$m.pyfrm" "$5" 10 2> /dev/null)
        else
            r=$(frx_run "$2" "$3" "$m" "$5" 10 2> /dev/null)
        fi
        set -- $r
        if [ "$1" = n/a ]; then echo -; else echo "$2"; fi > "$f"
    fi
    cat "$f"
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
    END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# bpd PEAK SMALL DOFS SMALLDOFS: bytes per DOF above the small mesh's
bpd() {
    if [ "$1" = - ] || [ "$2" = - ] || [ -z "$1" ] || [ "$3" -le "$4" ]; then echo n/a
    else awk -v a="$1" -v b="$2" -v d="$3" -v e="$4" 'BEGIN {
        printf "%.0f\n", (a - b) * 1024 / (d - e) }'; fi
}

mb() { [ "$1" = - ] || [ -z "$1" ] && echo - || awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

# med WHY VALUE...: the median of the values, or n/a where WHY (the
# column failed); medk WHY KB...: of peaks, or "-" where one is missing
med() { [ -n "$1" ] && echo n/a || { shift; median "$@"; }; }
medk() {
    [ -n "$1" ] && echo - ||
        { shift; case " $* " in *" - "*) echo - ;; *) median "$@" ;; esac; }
}

# cell VALUE: a table cell, a number to 3 decimals or "n/a"
cell() { case $1 in n/a | "") printf '%10s' n/a ;; *) printf '%10.3f' "$1" ;; esac; }

echo "frx and PyFR 1.15, 3-D Euler (Rusanov, rk4, double, openmp), ns per DOF per RHS: medians of $rounds interleaved rounds;"
echo "memory: bytes per DOF of the peak resident set (ranks summed) above a $small^3-cube mesh's"
echo "machine: $(getconf _NPROCESSORS_ONLN) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%Y-%m-%d)"
[ -n "$gtime" ] || echo "(no GNU time in /usr/bin/time: memory n/a)"
printf '%-5s %3s %2s %9s %10s %10s %10s %10s %10s %10s %10s %10s\n' etype N p DOFs \
    "PyFR 1x2" "frx 1x2" ratio "PyFR 2x1" "frx 2x1" ratio "PyFR B/DOF" "frx B/DOF"

# the element types and their sizes
for et in hex tet pri; do
    case $et in
        hex) sizes=${SIZES_HEX-16 32} ;;
        tet) sizes=${SIZES_TET-13 26} ;;
        pri) sizes=${SIZES_PRI-15 30} ;;
    esac
    [ -n "$sizes" ] || continue
    # an element type frx refuses: skipped, saying why
    mesh $et $small
    euler3d_case $et-$small 1 1 1 $dt > probe.yaml
    if ! OMP_NUM_THREADS=1 "$frx" run probe.yaml > out.txt 2>&1; then
        echo "$et: skipped: frx does not run it here ($(why out.txt))"
        continue
    fi
    for n in $sizes; do
        mesh $et "$n"
        m=$et-$n
        for p in ${ORDERS:-1 2 3 4}; do
            d=$(dofs $et "$n" "$p") ds=$(dofs $et $small "$p")
            steps=$((200000000 / (d * 4)))
            [ "$steps" -ge 10 ] || steps=10
            # the small mesh's memory first (its runs warm the caches)
            s1=$(small pyfr 1 2 $et "$p") s2=$(small pyfr 2 1 $et "$p")
            s3=$(small frx 1 2 $et "$p") s4=$(small frx 2 1 $et "$p")
            # per column (PyFR 1x2, PyFR 2x1, frx 1x2, frx 2x1): the
            # rounds' times and peaks, or why it failed
            t1="" t2="" t3="" t4="" k1="" k2="" k3="" k4=""
            n1="" n2="" n3="" n4="" ra="" rb="" r=0
            while [ "$r" -lt "$rounds" ]; do
                for c in 1 2 3 4; do
                    eval "bad=\$n$c"
                    [ -z "$bad" ] || continue
                    case $c in
                        1) x=$(pyfr_run 1 2 $m.pyfrm "$p" $steps) ;;
                        2) x=$(pyfr_run 2 1 part-$m/$m.pyfrm "$p" $steps) ;;
                        3) x=$(frx_run 1 2 $m "$p" $steps) ;;
                        4) x=$(frx_run 2 1 $m "$p" $steps) ;;
                    esac
                    set -- $x
                    if [ "$1" = n/a ]; then
                        eval "n$c=\${x#n/a }"
                        continue
                    fi
                    check_dofs "$( [ $c -le 2 ] && echo PyFR || echo frx)" "$x" "$d"
                    eval "t$c=\"\$t$c $1\" k$c=\"\$k$c $2\""
                done
                # the round's ratios, where both ran
                [ -n "$n1$n3" ] || ra="$ra $(awk -v a="${t3##* }" -v b="${t1##* }" 'BEGIN { printf "%.3f", a / b }')"
                [ -n "$n2$n4" ] || rb="$rb $(awk -v a="${t4##* }" -v b="${t2##* }" 'BEGIN { printf "%.3f", a / b }')"
                r=$((r + 1))
            done
            a1=$(med "$n1" $t1) a2=$(med "$n2" $t2) a3=$(med "$n3" $t3) a4=$(med "$n4" $t4)
            m1=$(medk "$n1" $k1) m2=$(medk "$n2" $k2) m3=$(medk "$n3" $k3) m4=$(medk "$n4" $k4)
            qa=$( [ -n "$ra" ] && median $ra || echo n/a)
            qb=$( [ -n "$rb" ] && median $rb || echo n/a)
            printf '%-5s %3d %2d %9d %s %s %s %s %s %s %10s %10s\n' $et "$n" "$p" "$d" \
                "$(cell "$a1")" "$(cell "$a3")" "$(cell "$qa")" \
                "$(cell "$a2")" "$(cell "$a4")" "$(cell "$qb")" \
                "$(bpd "$m1" "$s1" "$d" "$ds")" "$(bpd "$m3" "$s3" "$d" "$ds")"
            echo "  rounds' ratios 1x2:${ra:- n/a}; 2x1:${rb:- n/a}"
            echo "  B/DOF 2x1: PyFR $(bpd "$m2" "$s2" "$d" "$ds"), frx $(bpd "$m4" "$s4" "$d" "$ds");" \
                 "peak MB (the $small^3 mesh's): PyFR 1x2 $(mb "$m1") ($(mb "$s1")), 2x1 $(mb "$m2") ($(mb "$s2"));" \
                 "frx 1x2 $(mb "$m3") ($(mb "$s3")), 2x1 $(mb "$m4") ($(mb "$s4"))"
            [ -z "$n1" ] || echo "  n/a: PyFR 1x2: $n1"
            [ -z "$n2" ] || echo "  n/a: PyFR 2x1: $n2"
            [ -z "$n3" ] || echo "  n/a: frx 1x2: $n3"
            [ -z "$n4" ] || echo "  n/a: frx 2x1: $n4"
        done
    done
done
