#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tests/gpu/run.sh [cuda|hip]: everything frx checks on a GPU node, in one
# go, from the top of a checkout (no network needed; the Debian packages
# of scripts/install-deps and, for cuda, the NVIDIA driver and a CUDA
# toolkit under $CUDA_HOME or /usr/local/cuda must be there):
#
#   1. build (Release) into build-gpu/ ($FRX_GPU_BUILD);
#   2. `frx plugins`: the backend must say "can start";
#   3. ctest: every test named for the backend (conformance data model,
#      kernels, reductions and operator products, MPI exchanges on 1 to 4
#      ranks device-aware and host-staged, mixed with openmp, CLI), the
#      NVRTC/hiprtc compiles and gpu-common's host-side tests. On cuda,
#      conformance-products-cuda runs the cuBLAS provider (cublas) forced
#      on every operator, at offsets, with beta 0 on NaN, in graphs and
#      by a case's `products: cublas`, and timed against the generated
#      code; the summary says whether it passed, or why cuBLAS did not
#      load;
#   4. bench/devcopy (the device's copy bandwidth), bench/pack and
#      bench/pointwise (and bench/matmul, where it exists) on the backend;
#   5. a one-screen summary: test counts, what failed or was skipped and
#      why, and pack and pointwise as a ratio of the device copy
#      bandwidth (target >= 0.7).
#
# Each command is printed before it runs ("+ ..."); logs go to
# build-gpu/gpu-run/. Exit status 1 if the build, a test or a benchmark
# failed; targets missed are reported, not fatal.
set -u
be=${1:-cuda}
case $be in cuda|hip) ;; *) echo "usage: tests/gpu/run.sh [cuda|hip]" >&2; exit 2 ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${FRX_GPU_BUILD:-$root/build-gpu}
logs=$build/gpu-run
jobs=$(nproc 2>/dev/null || echo 4)
tjobs=$(( jobs < 8 ? jobs : 8 )) # test processes sharing the one GPU
mpoints=${FRX_GPU_MPOINTS:-32}
start=$(date +%s)
mkdir -p "$logs" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export FRX_CACHE_DIR="$logs/frx-cache"
mkdir -p "$FRX_CACHE_DIR" && chmod 700 "$FRX_CACHE_DIR"
failed=""

say() { printf '%s\n' "$*"; }
# run LOG CMD...: print the command, run it with its output in LOG (and
# the last lines on screen if it fails); its status is returned.
run() {
    log=$1
    shift
    say "+ $* > $log"
    "$@" > "$log" 2>&1
    rc=$?
    if [ $rc != 0 ]; then
        say "!!! FAILED (exit status $rc): $*"
        tail -n 25 "$log"
    fi
    return $rc
}

say "== frx GPU run: backend $be, $(date -u '+%Y-%m-%d %H:%M UTC'), $(hostname), $jobs cores"
if [ "$be" = cuda ]; then
    command -v nvidia-smi > /dev/null && nvidia-smi -L
    [ -n "${CUDA_HOME:-}" ] || [ -d /usr/local/cuda ] ||
        say "!!! no CUDA toolkit: set CUDA_HOME (NVRTC is needed)"
else
    command -v rocm-smi > /dev/null && rocm-smi --showproductname
fi

# 1. build
if ! run "$logs/configure.log" cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release ||
   ! run "$logs/build.log" cmake --build "$build" -j "$jobs"; then
    say "!!! the build failed: see $logs (missing packages: sh scripts/install-deps)"
    exit 1
fi

# 2. can the backend start?
run "$logs/plugins.log" "$build/bin/frx" plugins
plugin=$(grep -E "^backend +$be " "$logs/plugins.log")
say "$plugin"
case $plugin in
    *"can start"*) ;;
    *) say "!!! backend $be cannot start here: its tests will be skipped"
       failed="$failed frx-plugins" ;;
esac

# 3. tests
pattern="$be|gpu-compile|gpu-common|cuda-driver|fakegpu"
run "$logs/ctest.log" ctest --test-dir "$build" -R "$pattern" -j "$tjobs" \
    --timeout 300 -V || failed="$failed ctest"

# 4. benchmarks
bench=$build/bench
run "$logs/devcopy.log" timeout 120 "$bench/devcopy" "$be" || failed="$failed devcopy"
run "$logs/pack.log" timeout 300 "$bench/pack" "$be" "$mpoints" || failed="$failed pack"
run "$logs/pointwise.log" timeout 300 "$bench/pointwise" "$be" "$mpoints" ||
    failed="$failed pointwise"
if [ -x "$bench/matmul" ]; then # operator products, once they exist
    run "$logs/matmul.log" timeout 300 "$bench/matmul" "$be" || failed="$failed matmul"
fi

# 5. summary
gbs() { sed -n "s/.*$1 *\([0-9.]*\) GB\/s.*/\1/p" "$2" | head -n 1; }
ratio() { # ratio NAME GB/S COPY
    if [ -n "$2" ] && [ -n "$3" ]; then
        awk -v n="$1" -v x="$2" -v c="$3" 'BEGIN { r = x / c;
            printf "%-22s %8.1f GB/s = %.2f x device copy (target >= 0.7)%s\n",
                   n, x, r, (r >= 0.7 ? "" : "  BELOW TARGET") }'
    else
        say "$(printf '%-22s' "$1") not measured"
    fi
}
say ""
say "================================ summary ================================"
say "$plugin"
log=$logs/ctest.log
npass=$(grep -cE 'Test +#[0-9]+: .* Passed' "$log")
nskip=$(grep -cE 'Test +#[0-9]+: .*\*\*\*Skipped' "$log")
nfail=$(grep -E 'Test +#[0-9]+: ' "$log" | grep -vcE ' Passed|\*\*\*Skipped')
say "tests: $npass passed, $nfail failed, $nskip skipped (ctest -R '$pattern')"
grep -E 'Test +#[0-9]+: ' "$log" | grep -vE ' Passed|\*\*\*Skipped' |
    sed 's/^.*Test  *#[0-9]*: /  FAILED: /; s/ \.\.*/ /'
if [ "$be" = cuda ]; then # the cuBLAS provider
    if grep -qE 'Test +#[0-9]+: conformance-products-cuda \.+ +Passed' "$log"; then
        say "cuBLAS provider: conformance-products-cuda passed (cublas forced and timed, both precisions)"
    else
        say "!!! cuBLAS provider: conformance-products-cuda did not pass"
        grep -m 1 -oE 'cuda: cuBLAS (not found|\(.*\) does not start).*' "$log" |
            cut -c1-300 | sed 's/^/  /'
        failed="$failed cublas"
    fi
fi
# why tests were skipped: the SKIP line, or for MPI jobs the first rank's
# reason on the line after it; grouped
[ "$nskip" = 0 ] || awk '
    /^[0-9]+: SKIP: / {
        n = $1; line = $0; sub(/^[0-9]+: SKIP: /, "", line)
        if (line ~ /rank\(s\):$/) { want[n] = 1; next }
        print line; next }
    ($1 in want) && /rank [0-9]+ \(/ {
        n = $1; line = $0; sub(/^[0-9]+: +rank [0-9]+ \([^)]*\): /, "", line)
        print line; delete want[n] }' "$log" |
    sed 's/ (plugin [^)]*)//; s/.*cannot start here: \(.*cannot start here: \)/\1/' |
    cut -c1-140 | sort | uniq -c | sort -rn | head -n 5 | sed 's/^/  skipped: /'
copy=$(sed -n 's/.* \([0-9.]*\) GB\/s (read + write).*/\1/p' "$logs/devcopy.log")
say "device copy: $(sed -n 's/^devcopy: //p' "$logs/devcopy.log")"
ratio "pack shuffled" "$(grep '^shuffled' "$logs/pack.log" | head -n 1 | sed -n 's/.* frx *\([0-9.]*\) GB\/s.*/\1/p')" "$copy"
ratio "pack contiguous" "$(grep '^contiguous' "$logs/pack.log" | head -n 1 | sed -n 's/.* frx *\([0-9.]*\) GB\/s.*/\1/p')" "$copy"
ratio "pointwise triad" "$(gbs 'triad  frx' "$logs/pointwise.log")" "$copy"
grep '^compile' "$logs/pointwise.log"
[ -f "$logs/matmul.log" ] && { say "bench/matmul (last lines):"; tail -n 5 "$logs/matmul.log"; }
say "logs: $logs; took $(( $(date +%s) - start )) s"
if [ -n "$failed" ]; then
    say "RESULT: FAILED:$failed"
    exit 1
fi
say "RESULT: ok"
