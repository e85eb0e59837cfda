#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench/startup.sh [BUILD] [N...]: start-up time and peak memory per rank
# of frx on large meshes, the mesh built on every rank (mesh type box)
# against read in parts (mesh type partitioned, one part a rank), on 1,
# 2 and 4 ranks. A benchmark, not a test: it asserts nothing.
#
# Each N (default 316 1000 2000: about 1e5, 1e6 and 4e6 elements) is a
# periodic box of N x N quadrilaterals; the case is advection at p = 1,
# one step, one thread a rank. For each rank count R, `frx mesh
# partition -n R -o` writes the parts once (its time and peak memory in
# the table, "partition"), then both runs go. From frx's "start-up:"
# line (FRX_LOG=info; the slowest rank's seconds, the largest rank's
# peak memory at the end of start-up) the table gives the mesh's time,
# the whole start-up's (backends, mesh, solver) and the peak resident
# memory of a rank; and the run's wall time. The target (issue 44):
# memory per rank about its share of the mesh, start-up at 4 ranks no
# slower than at 1.
#   sh bench/startup.sh build 316 1000 2000
set -eu
build=$(cd "${1:-build}" && pwd)
[ $# -gt 0 ] && shift
sizes=${*:-316 1000 2000}
frx=$build/bin/frx
[ -x "$frx" ] || { echo "startup.sh: no $frx: build frx first"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/frx-startup.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export OMP_NUM_THREADS=1 OMPI_MCA_rmaps_base_oversubscribe=1
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

now() { date +%s.%N; }

case_of() { # N: the box case
    cat <<YAML
backend: {name: openmp, precision: double, openmp: {threads: 1}}
solver: {name: advection, order: 1, velocity: [1, 0.5]}
mesh: {type: box, n: [$1, $1], periodic: [true, true]}
time: {scheme: rk4, dt: 1e-6, steps: 1}
progress: {mode: off}
YAML
}

# go R CASE: run on R ranks; prints "mesh_s startup_s wall_s rss_MB"
go() {
    t0=$(now)
    FRX_LOG=info mpirun -n "$1" "$frx" run "$2" > out.txt 2>&1 ||
        { cat out.txt >&2; echo "startup.sh: the run failed" >&2; exit 1; }
    t1=$(now)
    awk -v w="$(awk "BEGIN { print $t1 - $t0 }")" '/start-up: backends/ {
             for (i = 1; i <= NF; i++) {
                 if ($i == "backends") b = $(i + 1)
                 if ($i == "mesh") m = $(i + 1)
                 if ($i == "solver") s = $(i + 1)
                 if ($i == "memory") r = $(i + 1) } }
         END { printf "%8.2f %9.2f %7.2f %9.0f\n", m, b + m + s, w, r }' out.txt
}

echo "frx start-up, $(getconf _NPROCESSORS_ONLN) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf '%9s %5s %-12s %8s %9s %7s %9s\n' elements ranks mesh mesh_s startup_s wall_s rss_MB
for n in $sizes; do
    case_of "$n" > box.yaml
    for r in 1 2 4; do
        t0=$(now)
        "$frx" mesh partition box.yaml -n "$r" -o "$tmp/parts.h5" \
            > part.txt 2>&1 ||
            { cat part.txt; echo "startup.sh: frx mesh partition failed"; exit 1; }
        t1=$(now)
        awk -v n=$((n * n)) -v r="$r" -v w="$(awk "BEGIN { print $t1 - $t0 }")" '
            /^wrote / { m = $(NF - 1) }
            END { printf "%9d %5d %-12s %8s %9s %7.2f %9.0f\n", n, r,
                         "partition", "-", "-", w, m }' part.txt
        sed 's|^mesh: .*|mesh: {type: partitioned, file: parts.h5}|' box.yaml > parts.yaml
        res=$(go "$r" box.yaml)
        printf '%9d %5d %-12s %s\n' $((n * n)) "$r" built "$res"
        res=$(go "$r" parts.yaml)
        printf '%9d %5d %-12s %s\n' $((n * n)) "$r" "in parts" "$res"
    done
done
