# SPDX-License-Identifier: BSD-3-Clause
"""frx's VTK output as VTK's own readers (those ParaView uses) see it.

    python3 vtk_reader.py DIR NRANKS

DIR holds what `test_vtk DIR` wrote on NRANKS ranks. Loads
dbl-000010.pvtu and sgl-000010.pvtu with vtkXMLPUnstructuredGridReader
and checks the counts, the cell types, the arrays and, through VTK's own
cell interpolation, that each cell's points are in the order VTK expects:
at interior parametric points the cell's location must be the element's
affine map and the interpolated values the known linear functions.
Exits 77 (skipped) where the vtk module is not installed.
"""
import sys

try:
    import vtk
except ImportError as e:
    print("skipped: no vtk module for %s (%s): install python3-vtk9"
          % (sys.executable, e))
    sys.exit(77)

NELES, NVARS = 37, 3
NAMES = ["rho", "rho u", 'p&<q>"']
failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print("FAIL:", what)


def value(v, x, y):  # io_mesh.c, io_value(IO_LINEAR, ...)
    return (v + 1) + 0.25 * (v + 2) * x - 0.125 * (v + 3) * y


def corner(g, r, s):  # io_mesh.c, corner()
    return (g % 7 + 1.5 * r, (g // 7) * 2.0 + s)


def check_file(path, nranks, float_type, tol):
    r = vtk.vtkXMLPUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    g = r.GetOutput()
    ntri = sum(1 for e in range(NELES) if e % 3 == 1)
    nquad = NELES - ntri
    check(r.GetNumberOfPieces() == nranks if hasattr(r, "GetNumberOfPieces")
          else True, "%s: pieces" % path)
    check(g.GetNumberOfCells() == NELES, "%s: %d cells" %
          (path, g.GetNumberOfCells()))
    check(g.GetNumberOfPoints() == 9 * nquad + 3 * ntri, "%s: %d points" %
          (path, g.GetNumberOfPoints()))
    pd, cd = g.GetPointData(), g.GetCellData()
    arrays = [pd.GetArray(n) for n in NAMES]
    check(all(a is not None and a.GetDataType() == float_type
              for a in arrays), "%s: point arrays %s" % (path, [
                  pd.GetArrayName(i) for i in range(pd.GetNumberOfArrays())]))
    gid, rank = cd.GetArray("gid"), cd.GetArray("rank")
    check(gid is not None and rank is not None, "%s: cell arrays" % path)
    if failed:
        return
    seen = set()
    weights = [0.0] * 9
    x = [0.0, 0.0, 0.0]
    sub = vtk.reference(0)
    for c in range(g.GetNumberOfCells()):
        e = int(gid.GetTuple1(c))
        seen.add(e)
        cell = g.GetCell(c)
        tri = e % 3 == 1
        check(cell.GetCellType() == (vtk.VTK_TRIANGLE if tri
                                     else vtk.VTK_LAGRANGE_QUADRILATERAL),
              "%s: cell %d type %d" % (path, c, cell.GetCellType()))
        ids = cell.GetPointIds()
        for pc in ([0.2, 0.3, 0], [0.6, 0.1, 0]) if tri else \
                ([0.25, 0.75, 0], [0.9, 0.4, 0], [0.5, 0.5, 0]):
            cell.EvaluateLocation(sub, pc, x, weights)
            want = corner(e, pc[0], pc[1])
            check(abs(x[0] - want[0]) < 1e-12 and
                  abs(x[1] - want[1]) < 1e-12,
                  "%s: element %d at %s is %s, not %s" %
                  (path, e, pc, x[:2], want))
            for v, a in enumerate(arrays):
                got = sum(weights[i] * a.GetTuple1(ids.GetId(i))
                          for i in range(ids.GetNumberOfIds()))
                w = value(v, *want)
                check(abs(got - w) < tol * (1 + abs(w)),
                      "%s: %s of element %d at %s is %g, not %g" %
                      (path, NAMES[v], e, pc, got, w))
    check(seen == set(range(NELES)), "%s: elements %s" % (path, seen))
    check(sorted(set(int(rank.GetTuple1(c)) for c in
                     range(g.GetNumberOfCells()))) ==
          sorted(set(range(nranks)) - ({nranks - 1} if nranks >= 3 else
                                         set())),
          "%s: ranks" % path)


def main():
    d, nranks = sys.argv[1], int(sys.argv[2])
    check_file(d + "/dbl-000010.pvtu", nranks, vtk.VTK_DOUBLE, 1e-12)
    check_file(d + "/sgl-000010.pvtu", nranks, vtk.VTK_FLOAT, 1e-5)
    print("vtk %s: %s" % (vtk.vtkVersion.GetVTKVersion(),
                          "failed" if failed else "passed"))
    sys.exit(1 if failed else 0)


main()
