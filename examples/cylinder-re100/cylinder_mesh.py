# SPDX-License-Identifier: BSD-3-Clause
"""cylinder_mesh.py NT NR RFAR FILE [--linear]: an O-grid around the
circular cylinder of diameter 1 at the origin, out to the circle of
radius RFAR, as NT x NR quadrilaterals in a Gmsh 2.2 ASCII file for frx
(mesh: {type: gmsh}). NT elements around the circle, NR from the
cylinder out; the radii are spaced geometrically,
r(s) = 0.5 (2 RFAR)^(s/NR) for s = 0 .. NR, so that every element is
about as long as it is wide (log-polar: the radial and the azimuthal
spacing both grow as r). The elements are 9-node quadratic
quadrilaterals (Gmsh type 10) whose edge and centre points lie on the
circles and rays at the half steps, so the cylinder wall is curved;
with --linear they are straight 4-node ones (Gmsh type 3).

Physical names: the wall `cylinder` (r = 0.5), the far field `farfield`
(r = RFAR), both as lines (3-node, or 2-node with --linear), and the
elements `fluid`. Corners turn counter-clockwise (outwards along the
ray first, then around). python3 alone, no Gmsh. FILE - writes to
standard output."""
import math
import sys


def o_grid(nt, nr, rfar, quadratic=True):
    r0 = 0.5
    k = 2 if quadratic else 1     # lattice points per element edge - 1
    mt, mr = k * nt, k * nr       # lattice steps around and outwards

    def node(i, j):               # lattice point i around, j outwards
        return 1 + (i % mt) + mt * j

    out = ['$MeshFormat', '2.2 0 8', '$EndMeshFormat', '$PhysicalNames',
           '3', '1 1 "cylinder"', '1 2 "farfield"', '2 3 "fluid"',
           '$EndPhysicalNames', '$Nodes', str(mt * (mr + 1))]
    for j in range(mr + 1):
        r = r0 * (rfar / r0) ** (j / mr)
        if j == mr:
            r = rfar
        for i in range(mt):
            a = 2 * math.pi * i / mt
            out.append('%d %.17g %.17g 0' % (node(i, j), r * math.cos(a),
                                             r * math.sin(a)))
    elems = []
    # the boundaries: lines (physical tag, Gmsh type, nodes)
    for e in range(nt):
        i = k * e
        for tag, j in ((1, 0), (2, mr)):
            if quadratic:
                elems.append((tag, 8, (node(i, j), node(i + 2, j),
                                       node(i + 1, j))))
            else:
                elems.append((tag, 1, (node(i, j), node(i + 1, j))))
    # the quadrilaterals: corners (i, j) (i, j + k) (i + k, j + k) (i + k, j)
    # run out, around, in, back: counter-clockwise, since the ray
    # direction crossed with the azimuthal one is +z
    for b in range(nr):
        for e in range(nt):
            i, j = k * e, k * b
            c = (node(i, j), node(i, j + k), node(i + k, j + k),
                 node(i + k, j))
            if quadratic:
                # Gmsh's 9-node order: corners, the middles of the edges
                # (0,1) (1,2) (2,3) (3,0), the centre
                c += (node(i, j + 1), node(i + 1, j + 2), node(i + 2, j + 1),
                      node(i + 1, j), node(i + 1, j + 1))
                elems.append((3, 10, c))
            else:
                elems.append((3, 3, c))
    out += ['$EndNodes', '$Elements', str(len(elems))]
    for n, (tag, typ, nodes) in enumerate(elems, 1):
        out.append('%d %d 2 %d %d %s' % (n, typ, tag, tag,
                                         ' '.join(map(str, nodes))))
    out.append('$EndElements')
    return '\n'.join(out) + '\n'


def main(argv):
    args = [a for a in argv[1:] if a != '--linear']
    if len(args) != 4:
        sys.exit('usage: cylinder_mesh.py NT NR RFAR FILE [--linear]')
    nt, nr, rfar = int(args[0]), int(args[1]), float(args[2])
    if nt < 4 or nr < 1 or not rfar > 0.5:
        sys.exit('cylinder_mesh.py: NT >= 4, NR >= 1 and RFAR > 0.5')
    text = o_grid(nt, nr, rfar, quadratic='--linear' not in argv[1:])
    if args[3] == '-':
        sys.stdout.write(text)
    else:
        with open(args[3], 'w') as f:
            f.write(text)


if __name__ == '__main__':
    main(sys.argv)
