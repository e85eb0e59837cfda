# Sourced by bench/solver.sh and bench/weak-pyfr.sh: what both read the
# same way, so that their meshes and numbers stay comparable.

# mesh_n P DOFS_PER_RANK: the least multiple of 32, N, whose N x N/2
# elements of order P (4 variables, (P+1)^2 points each) hold at least
# DOFS_PER_RANK DOFs
mesh_n() {
    awk -v p="$1" -v d="$2" 'BEGIN {
        n = 32; while (n * n / 2 * 4 * (p + 1) ^ 2 < d) n += 32; print n }'
}

# frx_summary: "wall_s dofs nrhs" from the output of `frx run` on stdin;
# status 1 when a wall time above 0 s, the DOFs or the RHS count is
# missing (frx prints milliseconds: a run too short shows 0 s)
frx_summary() {
    awk '/^frx: [0-9]+ steps to step/ { for (i = 1; i <= NF; i++)
                                          if ($i == "in") wall = $(i + 1) }
         /DOFs, [0-9]+ RHS evaluations/ { dofs = $2; nrhs = $4 }
         END { if (wall + 0 <= 0 || dofs == "" || nrhs == "") exit 1
               printf "%s %s %s\n", wall, dofs, nrhs }'
}
