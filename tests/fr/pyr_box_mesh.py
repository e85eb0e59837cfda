# SPDX-License-Identifier: BSD-3-Clause
"""tests/fr/pyr_box_mesh.py NX NY NZ LX LY LZ FILE [--check]: the box
[0, LX] x [0, LY] x [0, LZ] as NX x NY x NZ cubes, each cut into 6
pyramids around its centre (each cube face a base, the centre the apex),
as a Gmsh 2.2 ASCII file of 5-node pyramids (Gmsh type 7), for a solver
test once frx reads pyramids (not wired into ctest yet).

Nodes: 1 + i + (NX+1) (j + (NY+1) k) for the lattice node at
(i LX/NX, j LY/NY, k LZ/NZ), then one per cube at its centre. Each
pyramid lists its base counter-clockwise seen from its apex, then the
apex (Gmsh's order: right-handed, as the reference (-1,-1,-1) (1,-1,-1)
(1,1,-1) (-1,1,-1) (0,0,1)). The sides are PyFR's periodic pairs
periodic_0_l / _r (x = 0 / LX), periodic_1_* (y), periodic_2_* (z), as
quadrilaterals (Gmsh type 3) turning about the outward normal; the
pyramids are `fluid`. Every pyramid is affine (a square base), so a
neighbour's faces meet it exactly. --check verifies the mesh (volumes
positive and summing to the box's, each triangle shared by two
pyramids, each square by two or by one and a side) and prints a
summary. FILE - writes to standard output; python3 alone, no Gmsh."""
import sys


def box(nx, ny, nz, lx, ly, lz):
    def node(i, j, k):
        return 1 + i + (nx + 1) * (j + (ny + 1) * k)

    nlat = (nx + 1) * (ny + 1) * (nz + 1)

    def centre(i, j, k):
        return nlat + 1 + i + nx * (j + ny * k)

    xyz = {}
    for k in range(nz + 1):
        for j in range(ny + 1):
            for i in range(nx + 1):
                xyz[node(i, j, k)] = (lx * i / nx, ly * j / ny, lz * k / nz)
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                xyz[centre(i, j, k)] = (lx * (i + 0.5) / nx, ly * (j + 0.5) / ny,
                                        lz * (k + 0.5) / nz)

    # a cube's faces by its corners (di, dj, dk), each listed
    # counter-clockwise seen from outside the cube: (axis, side, corners)
    faces = [
        (0, 0, [(0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 0)]),
        (0, 1, [(1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1)]),
        (1, 0, [(0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)]),
        (1, 1, [(0, 1, 0), (0, 1, 1), (1, 1, 1), (1, 1, 0)]),
        (2, 0, [(0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 0)]),
        (2, 1, [(0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]),
    ]
    n = (nx, ny, nz)
    pyrs, sides = [], []
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                for axis, side, cs in faces:
                    quad = [node(i + a, j + b, k + c) for a, b, c in cs]
                    # the base seen from the apex (inside): reversed
                    pyrs.append(quad[::-1] + [centre(i, j, k)])
                    at = (i, j, k)[axis]
                    if (side == 0 and at == 0) or (side == 1 and at == n[axis] - 1):
                        sides.append((1 + 2 * axis + side, quad))
    return xyz, pyrs, sides


def write(xyz, pyrs, sides):
    out = ['$MeshFormat', '2.2 0 8', '$EndMeshFormat', '$PhysicalNames', '7']
    for axis in range(3):
        out.append('2 %d "periodic_%d_l"' % (1 + 2 * axis, axis))
        out.append('2 %d "periodic_%d_r"' % (2 + 2 * axis, axis))
    out += ['3 7 "fluid"', '$EndPhysicalNames', '$Nodes', str(len(xyz))]
    for n in sorted(xyz):
        out.append('%d %.17g %.17g %.17g' % ((n,) + xyz[n]))
    out += ['$EndNodes', '$Elements', str(len(sides) + len(pyrs))]
    e = 0
    for tag, quad in sides:
        e += 1
        out.append('%d 3 2 %d %d %s' % (e, tag, tag, ' '.join(map(str, quad))))
    for p in pyrs:
        e += 1
        out.append('%d 7 2 7 7 %s' % (e, ' '.join(map(str, p))))
    out.append('$EndElements')
    return '\n'.join(out) + '\n'


def check(xyz, pyrs, sides, vol):
    def sub(a, b):
        return [a[r] - b[r] for r in range(3)]

    def det(u, v, w):
        return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0])
                + u[2] * (v[0] * w[1] - v[1] * w[0]))

    total, count = 0.0, {}
    for p in pyrs:
        c = [xyz[n] for n in p]
        # Gmsh's order: (c1 - c0) x (c3 - c0) . (apex - c0) > 0
        d = det(sub(c[1], c[0]), sub(c[3], c[0]), sub(c[4], c[0]))
        if not d > 0:
            sys.exit('pyr_box_mesh.py: pyramid %s is left-handed' % p)
        total += d / 3  # a square base: |(c1-c0) x (c3-c0)| h / 3
        for f in ((0, 1, 4), (3, 0, 4), (1, 2, 4), (2, 3, 4), (0, 3, 2, 1)):
            key = tuple(sorted(p[i] for i in f))
            count[key] = count.get(key, 0) + 1
    for _, quad in sides:
        key = tuple(sorted(quad))
        count[key] = count.get(key, 0) + 1
    bad = [k for k, v in count.items() if v != 2]
    if bad:
        sys.exit('pyr_box_mesh.py: faces not met twice: %s' % bad[:5])
    if abs(total - vol) > 1e-12 * vol:
        sys.exit('pyr_box_mesh.py: volume %.17g, the box %.17g' % (total, vol))
    return ('%d pyramids, %d nodes, %d side squares, volume %.17g'
            % (len(pyrs), len(xyz), len(sides), total))


def main(argv):
    args = [a for a in argv[1:] if a != '--check']
    if len(args) != 7:
        sys.exit('usage: pyr_box_mesh.py NX NY NZ LX LY LZ FILE [--check]')
    nx, ny, nz = int(args[0]), int(args[1]), int(args[2])
    lx, ly, lz = float(args[3]), float(args[4]), float(args[5])
    if min(nx, ny, nz) < 1 or not min(lx, ly, lz) > 0:
        sys.exit('pyr_box_mesh.py: NX, NY, NZ >= 1 and LX, LY, LZ > 0')
    xyz, pyrs, sides = box(nx, ny, nz, lx, ly, lz)
    if '--check' in argv:
        sys.stderr.write(check(xyz, pyrs, sides, lx * ly * lz) + '\n')
    text = write(xyz, pyrs, sides)
    if args[6] == '-':
        sys.stdout.write(text)
    else:
        with open(args[6], 'w') as f:
            f.write(text)


if __name__ == '__main__':
    main(sys.argv)
