# SPDX-License-Identifier: BSD-3-Clause
# Sourced by bench/solver.sh, bench/weak-pyfr.sh, bench/vs-pyfr.sh,
# bench/vs-pyfr-3d.sh, bench/vortex3d-pyfr.sh and bench/couette-pyfr.sh:
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
# SYSTEM=navier-stokes: the same flow with the viscous terms (mu 1e-3,
# Pr 0.72, constant viscosity, LDG's beta 1/2 and tau 0.1: both codes'
# defaults, written out).
# euler_ini DT: PyFR's .ini (order set by the runner)
# pyfr_ini_head DT: the sections both PyFR .ini files share
FRX_BENCH_VISCOUS="mu: 1e-3, Pr: 0.72"
pyfr_ini_head() {
    cat <<EOF
[backend]
precision = double
[constants]
gamma = 1.4
EOF
    [ "${SYSTEM:-euler}" = euler ] || printf 'mu = 1e-3\nPr = 0.72\n'
    cat <<EOF
[solver]
system = ${SYSTEM:-euler}
order = 1
EOF
    [ "${SYSTEM:-euler}" = euler ] || echo "viscosity-correction = none"
    cat <<EOF
[solver-time-integrator]
scheme = rk4
controller = none
tstart = 0.0
tend = 1.0
dt = $1
[solver-interfaces]
riemann-solver = rusanov
EOF
    [ "${SYSTEM:-euler}" = euler ] || printf 'ldg-beta = 0.5\nldg-tau = 0.1\n'
}

euler_ini() {
    pyfr_ini_head "$1"
    cat <<EOF
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

# euler_case MESH P THREADS STEPS DT [ICS]: frx's case of the same, on
# MESH.msh at order P (ICS: solver.ics, default the 2-D flow's)
euler_case() {
    cat <<EOF
backend: {name: openmp, precision: double, openmp: {threads: $3${FRX_BENCH_OPENMP:+, $FRX_BENCH_OPENMP}}}
mesh: {type: gmsh, file: $1.msh}
solver:
  name: ${SYSTEM:-euler}
  order: $2
  riemann-solver: rusanov
  constants: {gamma: 1.4$([ "${SYSTEM:-euler}" = euler ] || echo ", $FRX_BENCH_VISCOUS")}
  ics: {${6:-rho: 1 + 0.1*sin(0.3*x), u: 0.2, v: 1, p: 1/(1.4*0.16)}}
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

# box3d ETYPE N FILE: a Gmsh 2.2 file of N x N x N cubes of side 20/N
# from (-10, -10, -10), periodic in x, y and z (PyFR's names periodic_0_l
# / _r (x = -10 / 10), periodic_1_* (y), periodic_2_* (z), which frx
# reads too; the elements "fluid"). ETYPE hex: one hexahedron a cube
# (Gmsh type 5); tet: six tetrahedra a cube (type 4), cut as frx's box
# cuts them (docs/mesh.md: around the cube's diagonal from (0,0,0) to
# (1,1,1), element 6c + h of cube c = i + N (j + N k) with the box's
# corners, right-handed), the sides' squares cut into two triangles
# (type 2) by their diagonal from the lowest corner to the highest;
# pri: two prisms a cube (type 6), the cube's bottom square cut by its
# diagonal from (0,0) to (1,1) in x-y, each triangle counter-clockwise
# seen from above (right-handed), extruded in z (the z sides two
# triangles a square, the x and y sides quadrilaterals). Nodes are
# numbered 1 + i + (N+1) (j + (N+1) k).
box3d() {
    awk -v et="$1" -v n="$2" 'BEGIN {
        h = 20 / n; m = n + 1
        # the cube corners 0..7 (hexahedron order) as lattice offsets
        split("0 1 1 0 0 1 1 0", cx); split("0 0 1 1 0 0 1 1", cy)
        split("0 0 0 0 1 1 1 1", cz)
        if (et == "hex") { per = 1; gt = 5; split("0 1 2 3 4 5 6 7", cell) }
        else if (et == "tet") { per = 6; gt = 4   # frx box tet_cells
            split("0 1 2 6  0 5 1 6  0 2 3 6  0 3 7 6  0 4 5 6  0 7 4 6", cell) }
        else if (et == "pri") { per = 2; gt = 6
            split("0 1 2 4 5 6  0 2 3 4 6 7", cell) }
        else { print "box3d: no element type " et > "/dev/stderr"; exit 1 }
        nc = length(cell) / per
        # faces on each side: squares (hex; pri in x and y) or two
        # triangles a square, each side the same way
        sq[0] = et == "hex" || et == "pri"; sq[1] = sq[0]; sq[2] = et == "hex"
        nb = 0
        for (d = 0; d < 3; d++) nb += 2 * n * n * (sq[d] ? 1 : 2)
        print "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n7"
        for (d = 0; d < 3; d++)
            printf "2 %d \"periodic_%d_l\"\n2 %d \"periodic_%d_r\"\n",
                   2 * d + 1, d, 2 * d + 2, d
        print "3 7 \"fluid\"\n$EndPhysicalNames\n$Nodes\n" m * m * m
        for (k = 0; k <= n; k++)
            for (j = 0; j <= n; j++)
                for (i = 0; i <= n; i++)
                    printf "%d %.15g %.15g %.15g\n", node(i, j, k),
                           -10 + i * h, -10 + j * h, -10 + k * h
        print "$EndNodes\n$Elements\n" nb + per * n * n * n
        e = 0
        for (d = 0; d < 3; d++)      # the sides normal to x, y, z
            for (s = 0; s < 2; s++)  # lower (l), upper (r)
                for (b = 0; b < n; b++)
                    for (a = 0; a < n; a++) {
                        # the square: corners lo, lo + e1, lo + e1 + e2,
                        # lo + e2 (e1, e2 the next two axes after d)
                        d1 = (d + 1) % 3; d2 = (d + 2) % 3
                        p[d] = s * n; p[d1] = a; p[d2] = b
                        c0 = nd(p, d1, 0, d2, 0); c1 = nd(p, d1, 1, d2, 0)
                        c2 = nd(p, d1, 1, d2, 1); c3 = nd(p, d1, 0, d2, 1)
                        t = 2 * d + s + 1
                        if (sq[d])
                            printf "%d 3 2 %d %d %d %d %d %d\n", ++e, t, t,
                                   c0, c1, c2, c3
                        else {
                            printf "%d 2 2 %d %d %d %d %d\n", ++e, t, t,
                                   c0, c1, c2
                            printf "%d 2 2 %d %d %d %d %d\n", ++e, t, t,
                                   c0, c2, c3
                        }
                    }
        for (k = 0; k < n; k++)
            for (j = 0; j < n; j++)
                for (i = 0; i < n; i++)
                    for (q = 0; q < per; q++) {
                        line = ++e " " gt " 2 7 7"
                        for (r = 1; r <= nc; r++) {
                            c = cell[q * nc + r] + 1
                            line = line " " node(i + cx[c], j + cy[c], k + cz[c])
                        }
                        print line
                    }
        print "$EndElements" }
        function node(i, j, k) { return 1 + i + m * (j + m * k) }
        # the node at p, moved by u along axis a and v along axis b
        function nd(p, a, u, b, v,   q) {
            q[0] = p[0]; q[1] = p[1]; q[2] = p[2]; q[a] += u; q[b] += v
            return node(q[0], q[1], q[2]) }' > "$3"
}

# The 3-D flow bench/vs-pyfr-3d.sh gives both codes on box3d's meshes:
# Euler, uniform (0.2, 1, 0.5) with a small density wave, periodic on
# [-10, 10]^3 (Rusanov, rk4, double precision; Gauss-Legendre points on
# hexahedra and on quadrilateral faces, Shunn-Ham on tetrahedra,
# Williams-Shunn on triangular faces, Williams-Shunn x Gauss-Legendre on
# prisms: frx's points).
# euler3d_ini DT: PyFR's .ini (order set by the runner)
euler3d_ini() {
    pyfr_ini_head "$1"
    cat <<EOF2
[solver-interfaces-quad]
flux-pts = gauss-legendre
[solver-interfaces-tri]
flux-pts = williams-shunn
[solver-elements-hex]
soln-pts = gauss-legendre
[solver-elements-tet]
soln-pts = shunn-ham
[solver-elements-pri]
soln-pts = williams-shunn~gauss-legendre
[soln-ics]
rho = 1 + 0.1*sin(pi*(x + y + z)/10)
u = 0.2
v = 1
w = 0.5
p = 1/(1.4*0.16)
EOF2
}

# euler3d_case MESH P THREADS STEPS DT: frx's case of the same
euler3d_case() {
    euler_case "$1" "$2" "$3" "$4" "$5" \
        "rho: 1 + 0.1*sin(pi*(x + y + z)/10), u: 0.2, v: 1, w: 0.5, p: 1/(1.4*0.16)"
}
