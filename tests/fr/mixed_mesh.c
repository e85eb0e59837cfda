/* SPDX-License-Identifier: BSD-3-Clause */
/* Mixed meshes for the solvers' tests (mixed_mesh.h): n^3 cubes of
 * [0,1]^3 written as a Gmsh 2.2 file, each cube cut into one element
 * type or another by its place. */
#include "mixed_mesh.h"

#include <stdio.h>
#include <stdlib.h>

void mixed_mesh_kuhn_tet(int i, int j, int k, int q, int v[4][3])
{
    static const int axes[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                   {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
    for (int m = 0; m < 4; m++) {
        v[m][0] = i + (m == 3);
        v[m][1] = j + (m == 3);
        v[m][2] = k + (m == 3);
    }
    v[1][axes[q][0]]++;
    v[2][axes[q][0]]++;
    v[2][axes[q][1]]++;
    if (q >= 3) /* an odd order of the axes: left-handed */
        for (int e = 0; e < 3; e++) {
            int t = v[1][e];
            v[1][e] = v[2][e];
            v[2][e] = t;
        }
}

enum { MX_HEX, MX_TET, MX_PRI, MX_PYR };

/* The type of cube (i, j, k) of n^3. */
static int cube_type(enum mixed_kind kind, int n, int i, int k)
{
    static const int turn[3] = {MX_HEX, MX_PRI, MX_PYR};
    switch (kind) {
    case MIXED_HEX_PRISM:
        return i < n / 2 ? MX_HEX : MX_PRI;
    case MIXED_TET_PRISM:
        return k < n / 2 ? MX_TET : MX_PRI;
    case MIXED_HEX_PYR:
        return i < n / 2 ? MX_HEX : MX_PYR;
    default:
        return turn[i % 3];
    }
}

/* The volume sign of corners a, b, c, d: (b - a) x (c - a) . (d - a). */
static double orient(const double *a, const double *b, const double *c,
                     const double *d)
{
    double u[3], v[3], w[3];
    for (int m = 0; m < 3; m++)
        u[m] = b[m] - a[m], v[m] = c[m] - a[m], w[m] = d[m] - a[m];
    return (u[1] * v[2] - u[2] * v[1]) * w[0] + (u[2] * v[0] - u[0] * v[2]) * w[1] +
           (u[0] * v[1] - u[1] * v[0]) * w[2];
}

/* A pyramid cube's elements (MX_PYR): node numbers from grid (i, j, k)
 * corners and the centre node c; each right-handed (a pyramid's base
 * counter-clockwise seen from its apex: (1-0) x (3-0) . (apex-0) > 0). */
static void write_pyr_cube(FILE *e, int *id, int i, int j, int k, int L, int c)
{
    double ctr[3] = {i + 0.5, j + 0.5, k + 0.5};
    for (int d = 0; d < 3; d++)
        for (int side = 0; side < 2; side++) {
            int q[4][3]; /* the face's corners, round it */
            for (int m = 0; m < 4; m++) {
                int a = m == 1 || m == 2, b = m >= 2;
                q[m][d] = side;
                q[m][(d + 1) % 3] = a;
                q[m][(d + 2) % 3] = b;
            }
            double x[4][3];
            int nd[4];
            for (int m = 0; m < 4; m++) {
                for (int r = 0; r < 3; r++)
                    x[m][r] = (r == 0 ? i : r == 1 ? j : k) + q[m][r];
                nd[m] = 1 + (i + q[m][0]) + L * ((j + q[m][1]) + L * (k + q[m][2]));
            }
            if (d != 2) {
                int flip = orient(x[0], x[1], x[3], ctr) < 0;
                fprintf(e, "%d 7 2 1 1 %d %d %d %d %d\n", (*id)++, nd[0],
                        nd[flip ? 3 : 1], nd[2], nd[flip ? 1 : 3], c);
                continue;
            }
            /* z faces: two tetrahedra either side of the (0,0)-(1,1)
             * diagonal, which is corners 0 and 2 here */
            for (int t = 0; t < 2; t++) {
                int o = t ? 3 : 1;
                int flip = orient(x[0], x[o], x[2], ctr) < 0;
                fprintf(e, "%d 4 2 1 1 %d %d %d %d\n", (*id)++, nd[0],
                        nd[flip ? 2 : o], nd[flip ? o : 2], c);
            }
        }
}

int mixed_mesh_write(const char *path, int n, enum mixed_kind kind,
                     int periodic_z)
{
    int L = n + 1, nel = 0, nside = 0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++) {
            int t = cube_type(kind, n, i, k);
            nel += n * (t == MX_HEX ? 1 : t == MX_TET ? 6 : t == MX_PYR ? 8 : 2);
        }
    char *body = NULL;
    size_t len = 0;
    FILE *e = open_memstream(&body, &len);
    if (!e)
        return -1;
#define NODE(i, j, k) (1 + (i) + L * ((j) + L * (k)))
    int id = 1;
    for (int d = 0; d < 3; d++) /* the sides, normal to axis d */
        for (int side = 0; side < 2; side++)
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++) {
                    int c[4][3], cube[3];
                    cube[d] = side ? n - 1 : 0;
                    cube[(d + 1) % 3] = a;
                    cube[(d + 2) % 3] = b;
                    int t = cube_type(kind, n, cube[0], cube[2]), tag = 2 + 2 * d + side;
                    for (int m = 0; m < 4; m++) { /* lowest, +a, +b, highest */
                        c[m][d] = side * n;
                        c[m][(d + 1) % 3] = a + (m == 1 || m == 3);
                        c[m][(d + 2) % 3] = b + (m >= 2);
                    }
                    if (t == MX_HEX || ((t == MX_PRI || t == MX_PYR) && d != 2)) {
                        fprintf(e, "%d 3 2 %d %d %d %d %d %d\n", id++, tag, tag,
                                NODE(c[0][0], c[0][1], c[0][2]), NODE(c[1][0], c[1][1], c[1][2]),
                                NODE(c[3][0], c[3][1], c[3][2]), NODE(c[2][0], c[2][1], c[2][2]));
                        nside++;
                    } else { /* cut along the lowest-to-highest diagonal */
                        for (int q = 1; q <= 2; q++)
                            fprintf(e, "%d 2 2 %d %d %d %d %d\n", id++, tag, tag,
                                    NODE(c[0][0], c[0][1], c[0][2]),
                                    NODE(c[q][0], c[q][1], c[q][2]),
                                    NODE(c[3][0], c[3][1], c[3][2]));
                        nside += 2;
                    }
                }
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                int t = cube_type(kind, n, i, k);
                if (t == MX_PRI) { /* two prisms, right-handed */
                    static const int tri[2][3][2] = {{{0, 0}, {1, 0}, {1, 1}},
                                                     {{0, 0}, {1, 1}, {0, 1}}};
                    for (int q = 0; q < 2; q++) {
                        fprintf(e, "%d 6 2 1 1", id++);
                        for (int z = 0; z < 2; z++)
                            for (int m = 0; m < 3; m++)
                                fprintf(e, " %d", NODE(i + tri[q][m][0], j + tri[q][m][1], k + z));
                        fprintf(e, "\n");
                    }
                } else if (t == MX_PYR) {
                    write_pyr_cube(e, &id, i, j, k, L, L * L * L + 1 + i + n * (j + n * k));
                } else if (t == MX_HEX) {
                    fprintf(e, "%d 5 2 1 1 %d %d %d %d %d %d %d %d\n", id++,
                            NODE(i, j, k), NODE(i + 1, j, k), NODE(i + 1, j + 1, k),
                            NODE(i, j + 1, k), NODE(i, j, k + 1), NODE(i + 1, j, k + 1),
                            NODE(i + 1, j + 1, k + 1), NODE(i, j + 1, k + 1));
                } else {
                    for (int q = 0; q < 6; q++) {
                        int v[4][3];
                        mixed_mesh_kuhn_tet(i, j, k, q, v);
                        fprintf(e, "%d 4 2 1 1", id++);
                        for (int m = 0; m < 4; m++)
                            fprintf(e, " %d", NODE(v[m][0], v[m][1], v[m][2]));
                        fprintf(e, "\n");
                    }
                }
            }
    if (fclose(e) != 0) {
        free(body);
        return -1;
    }
    FILE *f = id - 1 == nside + nel ? fopen(path, "w") : NULL;
    if (!f) {
        free(body);
        return -1;
    }
    int centres = kind == MIXED_HEX_PYR || kind == MIXED_ALL;
    fprintf(f, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n7\n"
            "3 1 \"fluid\"\n2 2 \"periodic_x_l\"\n2 3 \"periodic_x_r\"\n"
            "2 4 \"periodic_y_l\"\n2 5 \"periodic_y_r\"\n2 6 \"%s\"\n"
            "2 7 \"%s\"\n$EndPhysicalNames\n$Nodes\n%d\n",
            periodic_z ? "periodic_z_l" : "bottom",
            periodic_z ? "periodic_z_r" : "top",
            L * L * L + (centres ? n * n * n : 0));
    for (int k = 0; k < L; k++)
        for (int j = 0; j < L; j++)
            for (int i = 0; i < L; i++)
                fprintf(f, "%d %.17g %.17g %.17g\n", NODE(i, j, k),
                        (double)i / n, (double)j / n, (double)k / n);
    for (int k = 0; centres && k < n; k++) /* the cubes' centres */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                fprintf(f, "%d %.17g %.17g %.17g\n", L * L * L + 1 + i + n * (j + n * k),
                        (i + 0.5) / n, (j + 0.5) / n, (k + 0.5) / n);
#undef NODE
    fprintf(f, "$EndNodes\n$Elements\n%d\n%s$EndElements\n", id - 1, body);
    free(body);
    return fclose(f) == 0 ? 0 : -1;
}
