#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench/solver.sh BUILD [N]: the lee solver (config-like cases written
# here), p = 1..4, for STEPS rk4 steps (default 10):
#
#   - time per DOF per RHS evaluation (the run's wall time, integration
#     included, over DOFs x RHS evaluations) on 1 rank x 2 threads and
#     on 2 ranks x 1 thread, on a mesh of N x N quadrilaterals;
#   - 2-rank weak scaling: 1 rank x 1 thread on N x N/2 elements
#     against 2 ranks x 1 thread on N x N (target 0.9), and beside it
#     what the machine gives two processes that never talk: two 1-rank
#     runs of N x N/2 at once, against the same 1-rank run;
#   - bytes per second of the RHS by a traffic model (each array an RHS
#     reads or writes counted once per pass, docs/lee.md) against a
#     STREAM triad (bench/triad) measured in every round of the same
#     run, the best of the rounds for each p (target 0.5).
#
#   - where the time goes: a run of 2 ranks x 1 thread with `profile:
#     true` (every graph node timed, the backend synchronised after
#     each), its shares summed into products, interface kernels (intflux,
#     mpiflux, bcflux), other solver kernels, exchange (pack, unpack, MPI
#     start and wait) and time integration (frx's axnpby kernels).
#
# N: by default, for each p the least multiple of 32 that gives each rank
# (N x N/2 elements) at least DOFS_PER_RANK DOFs (default 6.4 million:
# 51 MB a field, a rank's arrays 0.9-1.2 GB by the traffic model below).
# A rank's arrays must be at least twice the last-level cache (read from
# sysfs, printed for each p; the script refuses a smaller default
# mesh): a smaller mesh of the 1-rank reference would run partly in
# cache and the 2-rank run, twice the data, would not. An N given fixes
# it for every p.
#
# ORDERS (default "1 2 3 4") picks the orders; TRIAD_MB (default 256)
# the triad's arrays, each larger than the last-level cache. Each run is repeated
# ROUNDS times (default 5), the runs of a p in turn. The time per DOF
# counts each run's least wall time: a shared machine's noise is 10%
# from one run to the next. Weak scaling is taken round by round, the
# 2-rank run against the 1-rank run just after it (the machine's speed
# drifts from minute to minute): the median of the rounds, with their
# range, and the efficiency of the least wall times beside it; then
# each round's, in order, so that several runs can be pooled. The
# profiled run also prints how much busier one rank was than the other:
# the two cores of a virtual machine need not be equally fast, and the
# faster rank waits for the slower.
#
# Weak scaling on one node shares its memory bandwidth between the
# ranks: where the RHS is bandwidth-bound, triad(2 threads) over 2 x
# triad(1 thread) bounds the efficiency, printed beside it. The pair of
# independent runs measures that bound directly, with everything else
# two busy cores share (cache, the host's other guests): the 2-rank
# run over the pair is what frx's parallel run itself costs (exchange,
# waiting for the slower rank).
#
# The output starts with the machine and the commit, which bench/pool.sh
# compares before it pools several outputs.
#
# Ratios only; timings on a shared machine are noisy. Run it by hand:
#   sh bench/solver.sh build
set -u
build=$1 fixed_n=${2:-} steps=${STEPS:-10} rounds=${ROUNDS:-5}
dofs_per_rank=${DOFS_PER_RANK:-6400000} triad_mb=${TRIAD_MB:-256}
frx=$build/bin/frx
triad=$build/bench/triad
. "$(dirname "$0")/frx-output.sh"
export OMPI_MCA_rmaps_base_oversubscribe=1
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-solver.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT

# case P NX NY THREADS: the case file's path
case_file() {
    f=$dir/p$1-$2x$3-t$4.yaml
    cat > "$f" <<EOF
backend: {name: openmp, precision: double, openmp: {threads: $4}}
solver:
  name: lee
  order: $1
  baseflow: {rho: 1, u: 0.5, v: 0.25, p: 0.714285714285714}
  waves: [{type: acoustic, amplitude: 1e-3, modes: [1, 1]}]
mesh: {type: box, n: [$2, $3], periodic: [true, true], upper: [1, $(awk "BEGIN { print $3 / $2 }")]}
partition: {method: linear}
time: {scheme: rk4, steps: $steps, dt: 1e-5}
progress: {mode: off}
profile: ${5:-false}
EOF
    echo "$f"
}

# refuse MESSAGE: frx's output ($out), then why it is no use; exit 1
refuse() {
    echo "$out" >&2
    echo "bench/solver.sh: $1" >&2
    exit 1
}

# frx_run NP CASE: frx's output in $out, or refuse. Open MPI binds each
# rank of a small job to one core: a rank of two threads must not be
# bound.
frx_run() {
    out=$(mpirun -np "$1" --bind-to none "$frx" run "$2" 2>&1) ||
        refuse "frx run failed"
}

# shares NP CASE: the profile's shares, grouped (see the top)
shares() {
    frx_run "$1" "$2"
    echo "$out" | awk '$1 == "frx:" && $2 ~ /%$/ {
        s = $2 + 0; k = $5; name = $6
        if (k == "product") g["products"] += s
        else if (k == "pack" || k == "unpack" || k == "MPI") g["exchange"] += s
        else if (name ~ /^frx\.axnpby/) g["integration"] += s
        else if (name ~ /\.(intflux|mpiflux|bcflux)/) g["interface kernels"] += s
        else g["other kernels"] += s; t += s }
        $1 == "frx:" && $2 == "busy" { ratio = $22 }
        END { if (t == 0 || ratio == "") exit 1
              printf "    shares (2x1, profiled): products %.1f%%, interface kernels %.1f%%, other kernels %.1f%%, exchange %.1f%%, integration %.1f%%, untimed %.1f%%\n",
              g["products"], g["interface kernels"], g["other kernels"],
              g["exchange"], g["integration"], 100 - t
              printf "    busy time of the busier rank over the other (2x1, profiled): %s\n", ratio }' ||
        refuse "no profile table or busy ratio in frx's output above"
}

# run NP CASE: "wall_s dofs nrhs"
run() {
    frx_run "$1" "$2"
    echo "$out" | frx_summary ||
        refuse "no wall time, DOFs or RHS count in frx's output above (a wall time of 0 s: raise STEPS or N)"
}

# what bench/pool.sh checks before pooling runs: one machine, the commit
model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
llc=$(llc_bytes)
echo "machine: ${model:-unknown CPU}, $(nproc 2>/dev/null || echo '?') cores, last-level cache $(awk -v b="${llc:-0}" 'BEGIN { printf "%.0f MB", b / 1e6 }')"
rev=$(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null) &&
    { git -C "$(dirname "$0")" diff --quiet HEAD 2>/dev/null || rev="$rev with uncommitted changes"; }
echo "code: commit ${rev:-unknown (not a git checkout)}"
echo "time per DOF: each run's least wall time of $rounds rounds (the runs in turn)"
printf '%-3s %-14s %12s %12s %9s\n' p run "ns/DOF/RHS" "GB/s model" \
    "x triad"
for p in ${ORDERS:-1 2 3 4}; do
    # the mesh: N x N, each rank's N x N/2 of at least dofs_per_rank
    # DOFs (4 variables, (p+1)^2 points an element) unless N is given
    n=$fixed_n
    [ -n "$n" ] || n=$(mesh_n "$p" "$dofs_per_rank")
    echo "p = $p: $n x $n elements, $((n * n / 2 * 4 * (p + 1) * (p + 1))) DOFs a rank in the 2 x 1 and 1 x 1 runs"
    check_exceeds_llc "$p" "$n" "$fixed_n" bench/solver.sh || exit 1
    full=$(case_file "$p" "$n" "$n" 2)
    one=$(case_file "$p" "$n" "$n" 1)
    half=$(case_file "$p" "$n" $((n / 2)) 1)
    # rounds: each run in turn, so that a noisy minute of a
    # shared machine does not fall on one of them only
    : > "$dir/walls"
    : > "$dir/triads"
    r=0
    while [ $r -lt "$rounds" ]; do
        # the triad in every round, on 2 threads and on 1: the best of
        # the rounds is the machine's bandwidth over this p (one
        # measurement can fall on a slow second: STREAM reports the best)
        tt2=$(OMP_NUM_THREADS=2 "$triad" "$triad_mb") || exit 1
        tt1=$(OMP_NUM_THREADS=1 "$triad" "$triad_mb") || exit 1
        echo "$tt2 $tt1" >> "$dir/triads"
        for c in "1x2 1 $full" "2x1 2 $one" "1x1-half 1 $half"; do
            set -- $c
            res=$(run "$2" "$3") || exit 1
            echo "$1 $r $res" >> "$dir/walls"
        done
        # the pair: two independent 1-rank runs of the half mesh at once
        # (the one in the background with a TMPDIR of its own: two
        # mpiruns starting at once in one TMPDIR can fail, see
        # tests/own-tmpdir.sh)
        mkdir -p "$dir/pair-tmp" || exit 1
        (TMPDIR=$dir/pair-tmp && export TMPDIR && run 1 "$half") \
            > "$dir/pair-a" & pid=$!
        res=$(run 1 "$half") || exit 1
        wait $pid || exit 1
        echo "pair $r $res" >> "$dir/walls"
        echo "pair $r $(cat "$dir/pair-a")" >> "$dir/walls"
        r=$((r + 1))
    done
    set -- $(awk '$1 > t2 { t2 = $1 } $2 > t1 { t1 = $2 }
                  END { print t2, t1 }' "$dir/triads")
    t2=$1 t1=$2
    echo "$p   STREAM triad, the best of $rounds rounds: $t2 GB/s (2 threads), $t1 GB/s (1 thread)"
    for c in "1x2 $t2" "2x1 $t2" "1x1-half $t1"; do
        set -- $c
        set -- "$1" "$2" $(awk -v k="$1" '$1 == k && (w == "" || $3 < w) {
            w = $3; d = $4; n = $5 } END { print w, d, n }' "$dir/walls")
        [ "$1" = 2x1 ] && w2=$3 d2=$4
        [ "$1" = 1x1-half ] && w1=$3 d1=$4
        # model: doubles to or from memory per element per RHS, nu =
        # (p+1)^2, nf = 4 (p+1), 4 variables, 4 base-flow fields, each
        # array counted once a pass that reads or writes it (docs/lee.md):
        #   M0: u 4 nu, ufp 4 nf; tflux: u, smats, base flow 12 nu (tf
        #   stays in cache, one part long); M132: f 4 nu; interfaces:
        #   ufp read and written 8 nf, base flow both sides 4 nf,
        #   normals 2 nf; M3 + negdivconf: ufp 4 nf, f read and written
        #   8 nu, rcpdjac 1 nu; rk4: 17 register passes a step (three
        #   paired updates of 4 and 5, one of 3), 17 nu an RHS. In all
        #   46 nu + 22 nf.
        echo "$p $1 $3 $4 $5 $2" | awk '{
            p = $1; wall = $3; dofs = $4; nrhs = $5; triad = $6
            nu = (p + 1) * (p + 1); nf = 4 * (p + 1); ne = dofs / (4 * nu)
            bytes = 8 * (nu * 46 + nf * 22) * ne * nrhs
            ns = wall / (dofs * nrhs) * 1e9; gbs = bytes / wall / 1e9
            printf "%-3d %-14s %12.3f %12.2f %9.2f\n", p, $2, ns,
                   gbs, gbs / triad }'
    done
    # weak scaling round by round: the 2 x 1 run against the 1 x 1 run
    # just after it; the median and range of the rounds
    awk -v w1="$w1" -v d1="$d1" -v w2="$w2" -v d2="$d2" -v p="$p" \
        -v t1="$t1" -v t2="$t2" '
        $1 == "2x1" { r2[$2] = $4 / $3 }
        $1 == "1x1-half" { r1[$2] = $4 / $3 }
        $1 == "pair" { rp[$2] += $4 / $3 }
        # sorted: the values of x into s[0..n-1], ascending; n
        function sorted(x, s,    r, i, n) {
            n = 0
            for (r in x) {
                for (i = n; i > 0 && s[i - 1] > x[r]; i--)
                    s[i] = s[i - 1]
                s[i] = x[r]; n++
            }
            return n
        }
        function median(s, n) {
            return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
        }
        END {
            # per round: 2-rank and pair against the 1-rank run, and
            # the 2-rank run against the pair
            for (r in r1) {
                if (r in r2) e2[r] = r2[r] / (2 * r1[r])
                if (r in rp) ep[r] = rp[r] / (2 * r1[r])
                if (r in r2 && r in rp) er[r] = r2[r] / rp[r]
            }
            n = sorted(e2, eff); np = sorted(ep, peff); nr = sorted(er, reff)
            printf "%-3d %-14s efficiency %.3f (median of %d rounds, %.3f-%.3f; of the least walls %.3f; target 0.9; bandwidth bound here %.3f)\n",
                   p, "weak scaling", median(eff, n), n, eff[0], eff[n - 1],
                   (d2 / w2) / (2 * d1 / w1), t2 / (2 * t1)
            printf "%-3d %-14s two independent 1-rank runs at once: %.3f (median, %.3f-%.3f); the 2-rank run over them: %.3f (median, %.3f-%.3f)\n",
                   p, "", median(peff, np), peff[0], peff[np - 1],
                   median(reff, nr), reff[0], reff[nr - 1]
            # each round, in order, so that runs can be pooled
            printf "%-3d %-14s each round: 2-rank", p, ""
            for (r = 0; r < n; r++) printf " %.3f", e2[r]
            printf "; the pair"
            for (r = 0; r < np; r++) printf " %.3f", ep[r]
            printf "\n" }' "$dir/walls"
    shares 2 "$(case_file "$p" "$n" "$n" 1 true)" || exit 1
done
