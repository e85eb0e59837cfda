# SPDX-License-Identifier: BSD-3-Clause
"""bench/couette_mesh.py NX NY LX H FILE: the Couette channel [0, LX] x
[0, H] as NX x NY straight quadrilaterals in a Gmsh 2.2 ASCII file, for
PyFR 1.15 (`pyfr import`) and frx (mesh: {type: gmsh}) alike: the sides
x = 0 and x = LX are PyFR's periodic pair periodic_0_l / periodic_0_r,
y = 0 is the wall `bottom`, y = H the wall `top`, the elements `fluid`.
Nodes are numbered 1 + i + (NX + 1) j for the node at (i LX/NX, j H/NY),
quadrilaterals counter-clockwise; python3 alone, no Gmsh. FILE - writes
to standard output. config/meshes/couette.msh is `4 4 1 1`."""
import sys


def channel(nx, ny, lx, h):
    def node(i, j):
        return 1 + i + (nx + 1) * j

    out = ['$MeshFormat', '2.2 0 8', '$EndMeshFormat', '$PhysicalNames',
           '5', '1 1 "periodic_0_l"', '1 2 "periodic_0_r"',
           '1 3 "bottom"', '1 4 "top"', '2 5 "fluid"', '$EndPhysicalNames',
           '$Nodes', str((nx + 1) * (ny + 1))]
    for j in range(ny + 1):
        for i in range(nx + 1):
            out.append('%d %.17g %.17g 0' % (node(i, j), lx * i / nx,
                                             h * j / ny))
    # lines: (physical tag, first node, second node)
    lines = [(1, node(0, j), node(0, j + 1)) for j in range(ny)]
    lines += [(2, node(nx, j), node(nx, j + 1)) for j in range(ny)]
    lines += [(3, node(i, 0), node(i + 1, 0)) for i in range(nx)]
    lines += [(4, node(i, ny), node(i + 1, ny)) for i in range(nx)]
    out += ['$EndNodes', '$Elements', str(len(lines) + nx * ny)]
    e = 0
    for t, a, b in lines:
        e += 1
        out.append('%d 1 2 %d %d %d %d' % (e, t, t, a, b))
    for j in range(ny):
        for i in range(nx):
            e += 1
            out.append('%d 3 2 5 5 %d %d %d %d' % (
                e, node(i, j), node(i + 1, j), node(i + 1, j + 1),
                node(i, j + 1)))
    out.append('$EndElements')
    return '\n'.join(out) + '\n'


def main(argv):
    if len(argv) != 6:
        sys.exit('usage: couette_mesh.py NX NY LX H FILE')
    nx, ny = int(argv[1]), int(argv[2])
    lx, h = float(argv[3]), float(argv[4])
    if nx < 1 or ny < 1 or not lx > 0 or not h > 0:
        sys.exit('couette_mesh.py: NX, NY >= 1 and LX, H > 0')
    text = channel(nx, ny, lx, h)
    if argv[5] == '-':
        sys.stdout.write(text)
    else:
        with open(argv[5], 'w') as f:
            f.write(text)


if __name__ == '__main__':
    main(sys.argv)
