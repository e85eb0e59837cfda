# SPDX-License-Identifier: BSD-3-Clause
"""frx's pyramids in VTK output as VTK's own reader sees them.

    python3 vtk_pyr.py DIR NRANKS

DIR holds what `test_vtk_pyr DIR` wrote: pyr<n>-000000.pvtu for n = 1..4,
two pyramids (affine images of the reference pyramid) each cut into
linear pyramids (VTK_PYRAMID, 14) and tetrahedra (VTK_TETRA, 10).
Checks the counts and types of the cells, that every sub-cell is
positively oriented as VTK has it (a pyramid's base turns
counter-clockwise seen from its apex, a tetrahedron's 0 1 2 from 3),
that an element's sub-cells' volumes add up to its volume (so they
cover it, not overlapping), that every point is used, and that the
point data are at their points (u is x). Exits 77 (skipped) where the
vtk module is not installed.
"""
import sys

try:
    import vtk
except ImportError as e:
    print("skipped: no vtk module for %s (%s): install python3-vtk9"
          % (sys.executable, e))
    sys.exit(77)

NELES = 2
# det A of test_vtk_pyr.c's maps (an element's volume: det A times the
# reference pyramid's 8/3)
DETS = [1.0, 1.5]
failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print("FAIL:", what)


def det(a, b, c, d):
    u = [[b[k] - a[k] for k in range(3)], [c[k] - a[k] for k in range(3)],
         [d[k] - a[k] for k in range(3)]]
    return (u[0][0] * (u[1][1] * u[2][2] - u[1][2] * u[2][1]) -
            u[0][1] * (u[1][0] * u[2][2] - u[1][2] * u[2][0]) +
            u[0][2] * (u[1][0] * u[2][1] - u[1][1] * u[2][0]))


def volume(cell, pts):
    """Signed volume: a tetrahedron's, or a pyramid's (plane base) as two
    tetrahedra across its base's diagonal 0-2."""
    p = [pts.GetPoint(cell.GetPointId(i))
         for i in range(cell.GetNumberOfPoints())]
    if cell.GetCellType() == vtk.VTK_TETRA:
        return det(*p) / 6
    return (det(p[0], p[1], p[2], p[4]) + det(p[0], p[2], p[3], p[4])) / 6


def check_order(n):
    path = "%s/pyr%d-000000.pvtu" % (sys.argv[1], n)
    r = vtk.vtkXMLPUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    g = r.GetOutput()
    npyr = sum(m * m + (m - 1) ** 2 for m in range(1, n + 1))
    ntet = sum(2 * m * (m - 1) for m in range(1, n + 1))
    nvis = (n + 1) * (n + 2) * (2 * n + 3) // 6
    check(g.GetNumberOfCells() == NELES * (npyr + ntet),
          "%s: %d cells" % (path, g.GetNumberOfCells()))
    check(g.GetNumberOfPoints() == NELES * nvis,
          "%s: %d points" % (path, g.GetNumberOfPoints()))
    gid, u = g.GetCellData().GetArray("gid"), g.GetPointData().GetArray("u")
    check(gid is not None and u is not None, "%s: arrays" % path)
    if failed:
        return
    pts = g.GetPoints()
    vol = [0.0] * NELES
    types = {vtk.VTK_PYRAMID: 0, vtk.VTK_TETRA: 0}
    used = set()
    for c in range(g.GetNumberOfCells()):
        cell = g.GetCell(c)
        t = cell.GetCellType()
        check(t in types, "%s: cell %d of type %d" % (path, c, t))
        types[t] = types.get(t, 0) + 1
        e = int(gid.GetTuple1(c))
        v = volume(cell, pts)
        check(v > 0, "%s: cell %d (element %d) has volume %g" %
              (path, c, e, v))
        vol[e] += v
        ids = [cell.GetPointId(i) for i in range(cell.GetNumberOfPoints())]
        check(all(e * nvis <= i < (e + 1) * nvis for i in ids),
              "%s: cell %d of element %d uses points %s" % (path, c, e, ids))
        used.update(ids)
    check(types[vtk.VTK_PYRAMID] == NELES * npyr and
          types[vtk.VTK_TETRA] == NELES * ntet, "%s: types %s" %
          (path, types))
    for e in range(NELES):
        want = DETS[e] * 8 / 3
        check(abs(vol[e] - want) < 1e-12 * want, "%s: element %d's cells "
              "add up to %.17g, not %.17g" % (path, e, vol[e], want))
    check(used == set(range(NELES * nvis)), "%s: points %s unused" %
          (path, set(range(NELES * nvis)) - used))
    for i in range(g.GetNumberOfPoints()):
        check(u.GetTuple1(i) == pts.GetPoint(i)[0], "%s: u at point %d" %
              (path, i))


def main():
    for n in range(1, 5):
        check_order(n)
    print("vtk %s: %s" % (vtk.vtkVersion.GetVTKVersion(),
                          "failed" if failed else "passed"))
    sys.exit(1 if failed else 0)


main()
