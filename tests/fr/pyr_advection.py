# SPDX-License-Identifier: BSD-3-Clause
"""tests/fr/pyr_advection.py BUILD [P ...]: linear advection of
sin(2 pi x) sin(2 pi y) sin(2 pi z) by c = (1, 0.5, 0.25) to t = 1/4 on
periodic unit boxes of 4^3 and 8^3 cubes cut into 6 pyramids each
(pyr_box_mesh.py), through libfrx-fr's pyramid element and geometry
(ctypes: BUILD/lib/libfrx-fr.so), upwind fluxes, rk4: the L2 errors,
their order, and the change of the solution's integral (conservation).
Flux points are paired by position (the box is periodic), not by the
core's rot, so it runs before frx reads pyramid meshes; not in ctest
(python3 with numpy). At the commit that added it: p = 1: 4.32e-2,
1.15e-2 (order 1.91); p = 2: 6.83e-3, 8.72e-4 (2.97); the integral
kept to 1e-17."""
import ctypes as C
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyr_box_mesh as pbm  # noqa: E402

BUILD = sys.argv[1] if len(sys.argv) > 1 else 'build'
lib = C.CDLL(os.path.join(BUILD, 'lib', 'libfrx-fr.so'))
frx = C.CDLL(os.path.join(BUILD, 'lib', 'libfrx.so'))
frx.frx_errmsg.restype = C.c_char_p


class Geo(C.Structure):  # fr_geometry (fr.h)
    _fields_ = [('neles', C.c_size_t), ('nupts', C.c_size_t), ('nfpts', C.c_size_t),
                ('nvis', C.c_size_t), ('ndims', C.c_int)] + \
               [(n, C.POINTER(C.c_double)) for n in
                ('xupts', 'xfpts', 'xvis', 'djac', 'rcpdjac', 'smats', 'qwts', 'pnorm', 'mag')]
for f in ('fr_element_nupts', 'fr_element_nfpts'):
    getattr(lib, f).restype = C.c_size_t
lib.fr_element_op.restype = C.POINTER(C.c_double)
lib.fr_element_upts_weights.restype = C.POINTER(C.c_double)


def arr(p, *shape):
    return np.ctypeslib.as_array(p, shape=shape).copy()


def run(p, N, L=1.0, c=(1.0, 0.5, 0.25), tend=0.25):
    e = C.c_void_p()
    assert lib.fr_element_create(6, p, C.byref(e))  # FR_PYR == 0, frx.frx_errmsg()
    nu, nf = lib.fr_element_nupts(e), lib.fr_element_nfpts(e)
    ops = {}
    for name, op in (('M0', 0), ('M132', 4), ('M3', 3)):  # enum fr_op
        r, cc = C.c_size_t(), C.c_size_t()
        ptr = lib.fr_element_op(e, op, C.byref(r), C.byref(cc))
        ops[name] = arr(ptr, r.value, cc.value)
    xyz, pyrs, sides = pbm.box(N, N, N, L, L, L)
    ne = len(pyrs)
    shape = np.array([[xyz[n] for n in pyr] for pyr in pyrs], dtype=float)
    g = Geo()
    assert lib.fr_geometry_compute(e, C.c_size_t(ne), C.c_size_t(5),
                                   shape.ctypes.data_as(C.POINTER(C.c_double)), None,
                                   C.byref(g)) == 0, frx.frx_errmsg()
    xu = arr(g.xupts, ne, nu, 3); xf = arr(g.xfpts, ne, nf, 3)
    sm = arr(g.smats, ne, nu, 3, 3); rj = arr(g.rcpdjac, ne, nu)
    qw = arr(g.qwts, ne, nu); pn = arr(g.pnorm, ne, nf, 3); mag = arr(g.mag, ne, nf)
    # pair flux points by position, periodic
    key = lambda x: tuple(np.round(np.mod(x + 1e-9, L) - 1e-9, 9))
    where = {}
    for el in range(ne):
        for k in range(nf):
            where.setdefault(key(xf[el, k]), []).append(el * nf + k)
    other = np.empty(ne * nf, dtype=int)
    for v in where.values():
        assert len(v) == 2, (len(v))
        other[v[0]], other[v[1]] = v[1], v[0]
    cvec = np.array(c)
    cn = (pn @ cvec).reshape(-1)          # c . n at each flux point
    tc = np.einsum('eidj,j->eid', sm, cvec)  # smats c
    def rhs(u):
        uf = (u @ ops['M0'].T).reshape(-1)
        up = np.where(cn > 0, uf, uf[other])
        fn = (mag.reshape(-1) * cn * up).reshape(ne, nf)
        tf = (tc * u[:, :, None]).transpose(0, 2, 1).reshape(ne, 3 * nu)
        return -rj * (tf @ ops['M132'].T + fn @ ops['M3'].T)
    k = 2 * np.pi / L
    exact = lambda x, t: np.sin(k * (x[..., 0] - c[0] * t)) * np.sin(k * (x[..., 1] - c[1] * t)) * np.sin(k * (x[..., 2] - c[2] * t))
    u = exact(xu, 0.0)
    h = L / N
    nstep = int(np.ceil(tend / (0.1 * h / (p + 1) ** 2)))
    dt = tend / nstep
    m0 = (qw * u).sum()
    for _ in range(nstep):
        k1 = rhs(u); k2 = rhs(u + dt / 2 * k1); k3 = rhs(u + dt / 2 * k2); k4 = rhs(u + dt * k3)
        u = u + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    err = np.sqrt((qw * (u - exact(xu, tend)) ** 2).sum())
    lib.fr_geometry_free(C.byref(g)); lib.fr_element_destroy(e)
    return err, (qw * u).sum() - m0, ne


for p in [int(a) for a in sys.argv[2:]] or [1, 2]:
    errs = []
    for N in (4, 8):
        err, dm, ne = run(p, N)
        errs.append(err)
        print('p %d N %d (%d pyramids): L2 %.3e, mass change %.1e' % (p, N, ne, err, dm), flush=True)
    print('  order %.2f' % np.log2(errs[0] / errs[1]), flush=True)
