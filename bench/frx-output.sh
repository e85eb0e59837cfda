# SPDX-License-Identifier: BSD-3-Clause
# Sourced by bench/solver.sh, bench/weak-pyfr.sh and bench/vs-pyfr.sh:
# what they read and make the same way, so that their meshes and numbers
# stay comparable.

# mesh_n P DOFS_PER_RANK: the least multiple of 32, N, whose N x N/2
# elements of order P (4 variables, (P+1)^2 points each) hold at least
# DOFS_PER_RANK DOFs
mesh_n() {
    awk -v p="$1" -v d="$2" 'BEGIN {
        n = 32; while (n * n / 2 * 4 * (p + 1) ^ 2 < d) n += 32; print n }'
}

# frx_summary: "wall_s dofs nrhs" from the output of `frx run` on stdin;
# status 1 when a wall time above 0 s, the DOFs or the RHS count is
# missing
frx_summary() {
    awk '/^frx: [0-9]+ steps to step/ { for (i = 1; i <= NF; i++)
                                          if ($i == "in") wall = $(i + 1) }
         /DOFs, [0-9]+ RHS evaluations/ { dofs = $2; nrhs = $4 }
         END { if (wall + 0 <= 0 || dofs == "" || nrhs == "") exit 1
               printf "%s %s %s\n", wall, dofs, nrhs }'
}

# llc_bytes: the size of this machine's last-level cache in bytes (the
# highest level cpu0 reports in sysfs), or nothing where sysfs says none
llc_bytes() {
    for d in /sys/devices/system/cpu/cpu0/cache/index*; do
        [ -r "$d/level" ] && [ -r "$d/size" ] &&
            echo "$(cat "$d/level") $(cat "$d/size")"
    done 2>/dev/null | awk '{ s = $2 + 0
        if ($2 ~ /K$/) s *= 1024; else if ($2 ~ /M$/) s *= 1048576
        if ($1 > lvl || ($1 == lvl && s > b)) { lvl = $1; b = s } }
        END { if (b > 0) printf "%.0f\n", b }'
}

# rank_bytes P N: the bytes one rank of N x N/2 elements of order P moves
# in an RHS by bench/solver.sh's traffic model (docs/lee.md): 8 x (46 nu
# + 22 nf) an element, where the working set of its arrays lies
rank_bytes() {
    awk -v p="$1" -v n="$2" 'BEGIN { nu = (p + 1) ^ 2; nf = 4 * (p + 1)
        printf "%.0f\n", 8 * (46 * nu + 22 * nf) * n * n / 2 }'
}

# check_exceeds_llc P N FIXED WHO: say how a rank's arrays compare with
# the last-level cache; status 1 when they are under twice its size and
# N was not given (FIXED empty): the 1-rank reference would then run
# partly in cache and the 2-rank run, twice the data, would not
check_exceeds_llc() {
    llc=$(llc_bytes)
    [ -n "$llc" ] || { echo "$4: this machine does not say how large its last-level cache is (sysfs): the meshes are sized by DOFS_PER_RANK alone"; return 0; }
    rb=$(rank_bytes "$1" "$2")
    awk -v rb="$rb" -v llc="$llc" -v fixed="$3" -v who="$4" 'BEGIN {
        printf "    a rank'"'"'s arrays: about %.0f MB against a %.0f MB last-level cache (%.1f times)\n",
               rb / 1e6, llc / 1e6, rb / llc
        if (rb < 2 * llc && fixed == "") {
            printf "%s: a rank'"'"'s arrays are under twice the last-level cache: raise DOFS_PER_RANK\n", who > "/dev/stderr"
            exit 1 }
        if (rb < 2 * llc)
            printf "    (N given: under twice the last-level cache, the runs are partly in cache)\n" }'
}

# box NX NY FILE: NX x NY quadrilaterals of side 20/NX from (-10, -10),
# periodic both ways (PyFR's boundary names, which frx reads too)
box() {
    awk -v nx="$1" -v ny="$2" 'BEGIN {
        h = 20 / nx; np = (nx + 1) * (ny + 1)
        print "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n5"
        print "1 2 \"periodic_0_r\"\n1 3 \"periodic_0_l\""
        print "1 4 \"periodic_1_r\"\n1 5 \"periodic_1_l\"\n2 1 \"Fluid\""
        print "$EndPhysicalNames\n$Nodes\n" np
        for (j = 0; j <= ny; j++)
            for (i = 0; i <= nx; i++)
                printf "%d %.15g %.15g 0\n", j * (nx + 1) + i + 1,
                       -10 + i * h, -10 + j * h
        print "$EndNodes\n$Elements\n" nx * ny + 2 * (nx + ny)
        e = 0
        for (j = 0; j < ny; j++) {   # x = -10 and x = 10
            printf "%d 1 2 3 3 %d %d\n", ++e, node(0, j), node(0, j + 1)
            printf "%d 1 2 2 2 %d %d\n", ++e, node(nx, j), node(nx, j + 1)
        }
        for (i = 0; i < nx; i++) {   # the bottom and the top
            printf "%d 1 2 5 5 %d %d\n", ++e, node(i, 0), node(i + 1, 0)
            printf "%d 1 2 4 4 %d %d\n", ++e, node(i, ny), node(i + 1, ny)
        }
        for (j = 0; j < ny; j++)
            for (i = 0; i < nx; i++)
                printf "%d 3 2 1 1 %d %d %d %d\n", ++e, node(i, j),
                       node(i + 1, j), node(i + 1, j + 1), node(i, j + 1)
        print "$EndElements" }
        function node(i, j) { return j * (nx + 1) + i + 1 }' > "$3"
}

# The flow bench/weak-pyfr.sh and bench/vs-pyfr.sh give both codes:
# Euler, uniform with a small density wave (Rusanov, rk4,
# Gauss-Legendre points on quadrilaterals, double precision).
# euler_ini DT: PyFR's .ini (order set by the runner)
euler_ini() {
    cat <<EOF
[backend]
precision = double
[constants]
gamma = 1.4
[solver]
system = euler
order = 1
[solver-time-integrator]
scheme = rk4
controller = none
tstart = 0.0
tend = 1.0
dt = $1
[solver-interfaces]
riemann-solver = rusanov
[solver-interfaces-line]
flux-pts = gauss-legendre
[solver-elements-quad]
soln-pts = gauss-legendre
[soln-ics]
rho = 1 + 0.1*sin(0.3*x)
u = 0.2
v = 1
p = 1/(1.4*0.16)
EOF
}

# euler_case MESH P THREADS STEPS DT: frx's case of the same, on
# MESH.msh at order P
euler_case() {
    cat <<EOF
backend: {name: openmp, precision: double, openmp: {threads: $3}}
mesh: {type: gmsh, file: $1.msh}
solver:
  name: euler
  order: $2
  riemann-solver: rusanov
  constants: {gamma: 1.4}
  ics: {rho: 1 + 0.1*sin(0.3*x), u: 0.2, v: 1, p: 1/(1.4*0.16)}
time: {scheme: rk4, steps: $4, dt: $5}
progress: {mode: off}
EOF
}

# pyfr_setup NAME DIR: PyFR as ../shared/pyfr/run.sh installed it in DIR
# (venv/bin/pyfr, libxsmm.so): sets py (its venv's bin) and exports
# what PyFR reads; exits naming NAME where it is not there
pyfr_setup() {
    py=$2/venv/bin
    [ -x "$py/pyfr" ] && [ -f "$2/libxsmm.so" ] || {
        echo "$1: no PyFR in $2 (venv/bin/pyfr, libxsmm.so): install it with sh ../shared/pyfr/run.sh $2, or set PYFR_WORK to where it is" >&2
        exit 1; }
    export PYFR_XSMM_LIBRARY_PATH=$2/libxsmm.so XDG_CACHE_HOME=$2/cache
}
