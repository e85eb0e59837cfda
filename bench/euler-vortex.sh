#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench/euler-vortex: frx's Euler solver on PyFR's 2-D isentropic vortex,
# in nanoseconds per DOF per RHS evaluation (DOFs = solution points x 4
# variables), for p = 1..4 on PyFR's 20 x 20 mesh and on a generated
# periodic box of about 4 M DOFs (well past the last-level cache), on
# 1 rank x 2 threads and 2 ranks x 1 thread; then PyFR 1.15 on the
# same 20 x 20 case in the same minute (../shared/pyfr/run.sh, where it
# is there) and frx's time as a ratio of PyFR's (below 1: frx faster).
# With perf installed, a profile of one run says where frx's time goes.
#
#   sh bench/euler-vortex.sh [BUILD]          (default: build)
#   env: PS="1 2 3 4"  REPS=3 (rounds on 20 x 20; the least is shown)
#        STEPS=<RK4 steps per run, default 2000 (20 x 20)
#        and 10 (box)>  WARM=<steps left out of the timing, as PyFR's
#        bench.py does: default 20 (20 x 20) and 2 (box)>  PYFR_WORK=<PyFR's scratch folder, as run.sh's
#        argument>  MESH=<PyFR's .msh>  NOPYFR=1  NOPERF=1
#        CFLAGS=<backend.openmp.cflags for frx's kernels, e.g.
#        "-O3 -march=native -fopenmp -fno-math-errno", the default>
#        BATCH=<backend.openmp.batch: true (the default) or false>
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
frx="$build/bin/frx"
[ -x "$frx" ] || { echo "euler-vortex: no $frx: build frx first" >&2; exit 1; }
shared="$src/../shared" # PyFR's run script, where it is there
mesh=${MESH:-$src/config/meshes/euler-vortex.msh}
[ -f "$mesh" ] || { echo "euler-vortex: no mesh $mesh (set MESH)" >&2; exit 1; }
mesh=$(cd "$(dirname "$mesh")" && pwd)/$(basename "$mesh")
work=$(mktemp -d "${TMPDIR:-/tmp}/frx-euler-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
export FRX_CACHE_DIR=${FRX_CACHE_DIR:-$work/cache}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# case P MESHKIND THREADS STEPS > file
write_case() {
    p=$1 kind=$2 threads=$3 steps=$4
    echo "backend: {name: openmp, precision: double, openmp: {threads: $threads${CFLAGS:+, cflags: \"$CFLAGS\"}${BATCH:+, batch: $BATCH}}}"
    if [ "$kind" = vortex ]; then
        echo "mesh: {type: gmsh, file: $mesh}"
    else
        n=$((1024 / (p + 1)))
        echo "mesh: {type: box, n: [$n, $n], lower: [-10, -10], upper: [10, 10], periodic: [true, true]}"
    fi
    cat <<EOF
solver:
  name: euler
  order: $p
  constants: {gamma: 1.4, S: 13.5, M: 0.4, R: 1.5,
              A: S*S*M*M*(gamma - 1)/(8*pi*pi), B: S/(2*pi*R), k: 1/(2*R*R)}
  ics:
    rho: (1 - A*exp(2*k*(1 - x*x - y*y)))^(1/(gamma - 1))
    u: B*y*exp(k*(1 - x*x - y*y))
    v: 1 - B*x*exp(k*(1 - x*x - y*y))
    p: (1 - A*exp(2*k*(1 - x*x - y*y)))^(gamma/(gamma - 1))/(gamma*M*M)
time: {scheme: rk4, dt: 0.001, steps: $steps}
check: {interval: 0}
progress: {mode: off}
EOF
}

# run P KIND LAYOUT: prints ns/DOF/RHS (LAYOUT 1x2: 1 rank x 2 threads)
run_frx() {
    p=$1 kind=$2 layout=$3
    np=${layout%x*} th=${layout#*x}
    steps=${STEPS:-} warm=${WARM:-}
    [ -n "$steps" ] || { [ "$kind" = vortex ] && steps=2000 || steps=10; }
    [ -n "$warm" ] || { [ "$kind" = vortex ] && warm=20 || warm=2; }
    c="$work/$kind-p$p-$layout.yaml" w="$work/$kind-p$p-$layout-warm.yaml"
    write_case "$p" "$kind" "$th" "$steps" > "$c"
    write_case "$p" "$kind" "$th" "$warm" > "$w"
    # a first run compiles the kernels into the cache; then the warm-up
    # alone and the whole run, timed: the difference is the time of the
    # steps after the warm-up (first touches, caches and threads starting
    # fall in the warm-up, which PyFR's bench.py leaves out too)
    for f in warm warm full; do
        [ $f = warm ] && cf=$w || cf=$c
        mpirun -np "$np" --oversubscribe --bind-to none "$frx" run "$cf" \
            > "$work/out" 2>&1 || { cat "$work/out" >&2; exit 1; }
        # "wall DOFs RHS-evaluations"
        sed -n 's/^frx: [0-9]* steps to step .* in \([0-9.]*\) s$/\1/p;
                s/^frx: \([0-9]*\) DOFs, \([0-9]*\) RHS evaluations.*/\1 \2/p' \
            "$work/out" | tr '\n' ' ' > "$work/t-$f"
    done
    cat "$work/t-warm" "$work/t-full" |
        awk '{ printf "%.2f", ($4 - $1) / ($2 * ($6 - $3)) * 1e9 }'
}

# PyFR's ns/DOF/RHS at order P, or nothing where PyFR is not there.
run_pyfr() {
    [ -z "${NOPYFR:-}" ] && [ -f "$shared/pyfr/run.sh" ] || return 0
    PS="$1" MESH="$mesh" OMP_NUM_THREADS=2 \
        sh "$shared/pyfr/run.sh" ${PYFR_WORK:+"$PYFR_WORK"} 2> /dev/null |
        sed -n 's/.*ns\/DOF\/RHS=\([0-9.]*\).*/\1/p'
}

min() { printf '%s\n' "$@" | awk 'NF { if (m == "" || $1 < m) m = $1 } END { print m }'; }

ps=${PS:-1 2 3 4}
reps=${REPS:-3}
echo "frx euler-vortex: ns per DOF per RHS (openmp, double; $(nproc) cores;"
echo "on the 20 x 20 mesh the least of $reps rounds, each frx 1x2, frx 2x1 and"
echo "PyFR 1.15 1x2 one after the other; a shared machine is noisy)"
printf '%-7s %-2s %9s %9s %9s %9s %9s\n' mesh p "frx 1x2" "frx 2x1" "PyFR 1x2" \
    "1x2/PyFR" "2x1/PyFR"
for p in $ps; do
    a="" b="" y=""
    r=0
    while [ $r -lt "$reps" ]; do
        a="$a $(run_frx "$p" vortex 1x2)"
        b="$b $(run_frx "$p" vortex 2x1)"
        y="$y $(run_pyfr "$p")"
        r=$((r + 1))
    done
    a=$(min $a) b=$(min $b) y=$(min $y)
    awk -v p="$p" -v a="$a" -v b="$b" -v y="$y" 'BEGIN {
        if (y == "") printf "%-7s %-2d %9.2f %9.2f %9s\n", "20x20", p, a, b, "-"
        else printf "%-7s %-2d %9.2f %9.2f %9.2f %9.2f %9.2f\n", "20x20", p, a, b, y,
                    a / y, b / y }'
done
for p in $ps; do
    n=$((1024 / (p + 1)))
    awk -v m="${n}x$n" -v p="$p" -v a="$(run_frx "$p" box 1x2)" \
        -v b="$(run_frx "$p" box 2x1)" \
        'BEGIN { printf "%-7s %-2d %9.2f %9.2f\n", m, p, a, b }'
done

if [ -z "${NOPERF:-}" ] && command -v perf > /dev/null 2>&1; then
    # one thread, so that the split is the kernels' own (with several,
    # OpenMP's waits at each kernel's end land in libgomp)
    for p in $ps; do
        c="$work/prof-p$p.yaml"
        write_case "$p" vortex 1 2000 > "$c"
        "$frx" run "$c" > /dev/null 2>&1 || continue
        perf record -q -o "$work/perf.data" "$frx" run "$c" > /dev/null 2>&1 ||
            { echo "(perf record failed: perf_event_paranoid?)"; break; }
        echo "where frx's time goes (p = $p, 20 x 20, 1 rank x 1 thread, 2000 steps; perf self time):"
        perf report -q -i "$work/perf.data" --stdio --sort sym 2>/dev/null |
            awk '$1 ~ /%$/ {
                v = $1 + 0; s = $3
                if (s ~ /^frx_k_/) { sub(/^frx_k_/, "", s); sub(/_[0-9a-f]+\._omp_fn.*/, "", s)
                    sub(/\._omp_fn.*/, "", s); gsub(/_2e/, ".", s); k = "kernel " s }
                else if (s ~ /^frx_cols|^frx_product|libxsmm|^frx_rows/) k = "operator products"
                else if ($2 == "[k]") k = "the operating system"
                else k = "other (start-up: loading, set-up)"
                t[k] += v }
            END { for (k in t) if (k ~ /^kernel |^operator/) w += t[k]
                  for (k in t) if (t[k] >= 0.3)
                      printf "  %5.1f%% of all  %5.1f%% of the solver%s %s\n", t[k],
                             k ~ /^kernel |^operator/ ? 100 * t[k] / w : 0,
                             k ~ /^kernel |^operator/ ? "" : " (not the solver)", k }' |
            sort -rn
    done
fi
