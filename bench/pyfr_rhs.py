# SPDX-License-Identifier: BSD-3-Clause
# bench/pyfr_rhs.py MESH.pyfrm CASE.ini ORDER STEPS: PyFR's seconds per
# RHS evaluation over STEPS steps of rk4, after 3 untimed steps (PyFR
# compiles its kernels on first use), the slowest rank's; printed by
# rank 0 as "seconds_per_rhs DOFs". Run under mpirun, one rank per part
# of the mesh, by bench/weak-pyfr.sh, bench/vs-pyfr.sh and
# bench/vs-pyfr-3d.sh. A solution that is not finite at the end (NaN or
# Inf on any rank) prints no time and exits 1: a run that blew up times
# nothing worth comparing.
import sys
import time

from pytools.prefork import enable_prefork

enable_prefork()  # before MPI: PyFR's openmp backend forks its compiler

import mpi4py

mpi4py.rc.initialize = mpi4py.rc.finalize = False
from mpi4py import MPI

MPI.Init()
import numpy as np
from pyfr.backends import get_backend
from pyfr.inifile import Inifile
from pyfr.rank_allocator import get_rank_allocation
from pyfr.readers.native import NativeReader
from pyfr.solvers import get_solver

mesh_file, ini_file, order, steps = sys.argv[1:5]
steps, warm = int(steps), 3
comm = MPI.COMM_WORLD
cfg = Inifile.load(ini_file)
cfg.set('solver', 'order', order)
dt = cfg.getfloat('solver-time-integrator', 'dt')
# tend past the last step by half a step: PyFR's last step is not cut
cfg.set('solver-time-integrator', 'tend', repr((warm + steps + 0.5) * dt))
mesh = NativeReader(mesh_file)
backend = get_backend('openmp', cfg)
solver = get_solver(backend, get_rank_allocation(mesh, cfg), mesh, None,
                    cfg)
solver.advance_to(warm * dt)
comm.Barrier()
n0, t0 = solver.nacptsteps, time.perf_counter()
solver.advance_to((warm + steps) * dt)
wall = comm.allreduce(time.perf_counter() - t0, op=MPI.MAX)
ran = solver.nacptsteps - n0
ndofs = comm.allreduce(sum(nu * nv * ne for nu, nv, ne
                           in solver.system.ele_shapes))
finite = all(np.isfinite(s).all() for s in solver.soln)
finite = comm.allreduce(finite, op=MPI.LAND)
for bad, why in ((ran != steps, '%d steps ran, not %d' % (ran, steps)),
                 (not finite, 'the solution is not finite (NaN or Inf) '
                  'after %d steps' % (warm + steps))):
    if bad:
        if comm.rank == 0:  # one rank's words, not a line of each
            print('pyfr_rhs.py: ' + why, file=sys.stderr, flush=True)
        sys.exit(1)
if comm.rank == 0:
    print('%.6e %d' % (wall / (4 * steps), ndofs))  # rk4: 4 RHS a step
MPI.Finalize()
