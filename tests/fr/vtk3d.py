# SPDX-License-Identifier: BSD-3-Clause
"""frx's VTK output of 3-D elements as VTK's own reader (ParaView's) sees it.

    python3 vtk3d.py FILE.pvtu NX NY NZ LX LY LZ NRANKS [hex|tet|prism|pyramid]

FILE.pvtu: advection at t = 0 on a box of NX x NY x NZ cubes from 0 to
(LX, LY, LZ), hexahedra, 6 tetrahedra or 2 prisms a cube, periodic, run
on NRANKS ranks. Every cell must be a VTK_LAGRANGE_HEXAHEDRON (or
_TETRAHEDRON, _WEDGE); through VTK's own cell interpolation, each cell's
points must be where the element's affine map puts them (hexahedra: the
box numbers element (i, j, k) i + NX (j + NY k); tetrahedra and prisms:
the map of its points 0, 1, 2, 3, corners on the box's lattice, the
cells' volumes adding up to the box's) and u there the initial wave sin(2 pi x / LX) sin(2 pi y / LY)
sin(2 pi z / LZ) to the interpolation's accuracy. Pyramids (6 a cube)
come as linear cells, VTK_PYRAMID and VTK_TETRA, cut from each
element's lattice of order 3 (p = 3) as PyFR cuts them: 19 pyramids and
16 tetrahedra an element, each right-handed, their volumes adding up
to the element's (a sixth of its cube) and u at their points the wave
there. Exits 77 (skipped) without the vtk module.
"""
import math
import sys

try:
    import vtk
except ImportError as e:
    print("skipped: no vtk module for %s (%s): install python3-vtk9"
          % (sys.executable, e))
    sys.exit(77)

failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        if failed <= 10:
            print("FAIL:", what)


def tet_volume(a, b, c, d):
    u = [b[k] - a[k] for k in range(3)]
    v = [c[k] - a[k] for k in range(3)]
    w = [d[k] - a[k] for k in range(3)]
    return (u[0] * (v[1] * w[2] - v[2] * w[1])
            - u[1] * (v[0] * w[2] - v[2] * w[0])
            + u[2] * (v[0] * w[1] - v[1] * w[0])) / 6


def pyramids(g, n, ln, nranks):
    """The pyramid box's cells: see the module's text."""
    nel = n[0] * n[1] * n[2] * 6
    m = 3  # the lattice's order at p = 3
    per = sum(i * i + (i - 1) ** 2 + 2 * i * (i - 1) for i in range(1, m + 1))
    check(g.GetNumberOfCells() == nel * per,
          "%d cells, not %d" % (g.GetNumberOfCells(), nel * per))
    u, gid = g.GetPointData().GetArray("u"), g.GetCellData().GetArray("gid")
    rank = g.GetCellData().GetArray("rank")
    check(u is not None and gid is not None and rank is not None,
          "the arrays u, gid, rank")
    if failed:
        sys.exit(1)
    vol, worst = {}, 0.0
    for c in range(g.GetNumberOfCells()):
        cell = g.GetCell(c)
        t = cell.GetCellType()
        check(t in (vtk.VTK_PYRAMID, vtk.VTK_TETRA),
              "cell %d has type %d" % (c, t))
        p = [cell.GetPoints().GetPoint(k) for k in range(cell.GetNumberOfPoints())]
        if t == vtk.VTK_PYRAMID:
            parts = [tet_volume(p[0], p[1], p[2], p[4]),
                     tet_volume(p[0], p[2], p[3], p[4])]
        else:
            parts = [tet_volume(*p)]
        check(min(parts) > 0, "cell %d is inverted" % c)
        e = int(gid.GetTuple1(c))
        vol[e] = vol.get(e, 0.0) + sum(parts)
        ids = cell.GetPointIds()
        for k in range(ids.GetNumberOfIds()):
            x = g.GetPoint(ids.GetId(k))
            w = 1.0
            for d in range(3):
                w *= math.sin(2 * math.pi * x[d] / ln[d])
            worst = max(worst, abs(u.GetTuple1(ids.GetId(k)) - w))
    want = ln[0] * ln[1] * ln[2] / (n[0] * n[1] * n[2] * 6)
    check(sorted(vol) == list(range(nel)), "elements %s" % sorted(vol)[:10])
    bad = [e for e in vol if abs(vol[e] - want) > 1e-12]
    check(not bad, "elements %s: sub-cells' volume not a sixth of a cube"
          % bad[:5])
    # every lattice point, corners too, where the interpolation reaches
    # past the solution points (1.9e-2 at the cubes' corners; 2.3e-3 in
    # the median)
    check(worst < 0.03, "u differs from the wave by %g" % worst)
    check(len(set(int(rank.GetTuple1(c)) for c in range(g.GetNumberOfCells())))
          == nranks, "the ranks' pieces")
    print("vtk %s: %d pyramids in %d cells, u within %.2e of the wave: %s"
          % (vtk.vtkVersion.GetVTKVersion(), nel, g.GetNumberOfCells(), worst,
             "failed" if failed else "passed"))
    sys.exit(1 if failed else 0)


def main():
    path = sys.argv[1]
    n = [int(a) for a in sys.argv[2:5]]
    ln = [float(a) for a in sys.argv[5:8]]
    nranks = int(sys.argv[8])
    etype = sys.argv[9] if len(sys.argv) > 9 else "hex"
    tet = etype != "hex"  # corners from the cell's own points
    r = vtk.vtkXMLPUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    g = r.GetOutput()
    if etype == "pyramid":
        pyramids(g, n, ln, nranks)
    per = {"hex": 1, "tet": 6, "prism": 2}[etype]
    ncells = n[0] * n[1] * n[2] * per
    check(g.GetNumberOfCells() == ncells,
          "%d cells, not %d" % (g.GetNumberOfCells(), ncells))
    u, gid = g.GetPointData().GetArray("u"), g.GetCellData().GetArray("gid")
    rank = g.GetCellData().GetArray("rank")
    check(u is not None and gid is not None and rank is not None,
          "the arrays u, gid, rank")
    if failed:
        sys.exit(1)
    x = [0.0, 0.0, 0.0]
    sub = vtk.reference(0)
    seen, worst, volume = set(), 0.0, 0.0
    want_type = {"hex": vtk.VTK_LAGRANGE_HEXAHEDRON,
                 "tet": vtk.VTK_LAGRANGE_TETRAHEDRON,
                 "prism": vtk.VTK_LAGRANGE_WEDGE}[etype]
    samples = (([0.2, 0.3, 0.1], [0.1, 0.1, 0.6], [0.25, 0.25, 0.25])
               if tet else
               ([0.25, 0.75, 0.5], [0.9, 0.4, 0.1], [0.1, 0.2, 0.8]))
    for c in range(g.GetNumberOfCells()):
        cell = g.GetCell(c)
        check(cell.GetCellType() == want_type,
              "cell %d has type %d" % (c, cell.GetCellType()))
        e = int(gid.GetTuple1(c))
        seen.add(e)
        ijk = (e % n[0], e // n[0] % n[1], e // (n[0] * n[1]))
        ids = cell.GetPointIds()
        weights = [0.0] * ids.GetNumberOfIds()
        if tet:
            cs = [cell.GetPoints().GetPoint(k) for k in range(4)]
            for p in cs:
                for d in range(3):
                    k = p[d] * n[d] / ln[d]
                    check(abs(k - round(k)) < 1e-9,
                          "element %d: corner %s off the lattice" % (e, p))
            ed = [[cs[k][d] - cs[0][d] for d in range(3)] for k in (1, 2, 3)]
            det = (ed[0][0] * (ed[1][1] * ed[2][2] - ed[1][2] * ed[2][1])
                   - ed[0][1] * (ed[1][0] * ed[2][2] - ed[1][2] * ed[2][0])
                   + ed[0][2] * (ed[1][0] * ed[2][1] - ed[1][1] * ed[2][0]))
            check(det > 0, "element %d is inverted" % e)
            volume += det / (6 if etype == "tet" else 2)
        for pc in samples:
            cell.EvaluateLocation(sub, pc, x, weights)
            if tet:
                want = [cs[0][d] + sum(pc[k] * ed[k][d] for k in range(3))
                        for d in range(3)]
            else:
                want = [(ijk[d] + pc[d]) * ln[d] / n[d] for d in range(3)]
            check(max(abs(x[d] - want[d]) for d in range(3)) < 1e-12,
                  "element %d at %s is %s, not %s" % (e, pc, x, want))
            got = sum(weights[i] * u.GetTuple1(ids.GetId(i))
                      for i in range(ids.GetNumberOfIds()))
            w = 1.0
            for d in range(3):
                w *= math.sin(2 * math.pi * want[d] / ln[d])
            worst = max(worst, abs(got - w))
    check(worst < 0.02, "u differs from the wave by %g" % worst)
    if tet:
        check(abs(volume - ln[0] * ln[1] * ln[2]) < 1e-12,
              "the cells' volume %.17g, not the box's" % volume)
    check(seen == set(range(ncells)), "elements %s" % sorted(seen)[:10])
    check(len(set(int(rank.GetTuple1(c)) for c in range(ncells))) ==
          nranks, "the ranks' pieces")
    print("vtk %s: %d %s, u within %.2e of the wave: %s"
          % (vtk.vtkVersion.GetVTKVersion(), ncells,
             {"hex": "hexahedra", "tet": "tetrahedra", "prism": "prisms"}[etype],
             worst,
             "failed" if failed else "passed"))
    sys.exit(1 if failed else 0)


main()
