# SPDX-License-Identifier: BSD-3-Clause
# `frx run` of cases with a solver plugin (the ODE fixtures), as a user
# runs them. Included from tests/cli/tests.cmake.
set(FRX_SOLVER_DATA ${PROJECT_SOURCE_DIR}/tests/data/solver)
set(FRX_SOLVER_ENV
  "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1;FRX_PLUGIN_PATH=${FRX_FIXTURE_DIR}")

# frx_solver_test(NAME NP RC REGEX CASE [ARGS...]): mpirun -np NP frx run.
function(frx_solver_test name np rc regex case)
  add_test(NAME solver-${name} COMMAND sh ${FRX_EXPECT} ${rc} ${regex}
    ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} --oversubscribe
    ${FRX_EXE} run ${FRX_SOLVER_DATA}/${case} ${ARGN})
  set_tests_properties(solver-${name} PROPERTIES TIMEOUT 120
    ENVIRONMENT "${FRX_SOLVER_ENV}")
endfunction()

frx_solver_test(summary 1 0
  "frx: 20 steps to step 20, t = 1, in [0-9.]+ s" ode.yaml)
frx_solver_test(rates 2 0
  "frx: 111 DOFs, 80 RHS evaluations: [0-9.e+]+ RHS evaluations/s, [0-9.e+]+ DOF-updates/s"
  ode.yaml)
frx_solver_test(norms 2 0 "frx: L2 error at t = 1: u [0-9.]+e-08" ode.yaml)
frx_solver_test(progress-lines 1 0
  "step 10  t 0.5  dt 0.05  wall [0-9:]+  ETA [0-9:]+" ode.yaml)
# a check failing on one rank stops both, naming step, time and rank
frx_solver_test(check-stops-every-rank 2 1
  "frx: step 7, t = 0.7: a check failed on 1 of 2 rank[(]s[)]:" check-fails.yaml)
frx_solver_test(check-names-rank 2 1
  "^  rank 1: ode: the check fails at step 7 on rank 1, as solver.fail-step asks"
  check-fails.yaml)
frx_solver_test(advection-wavelength-fits 1 1
  "advection-wavelength.yaml:4:49: solver.wavelength along x is 0.3, which does not divide the periodic box's 1"
  advection-wavelength.yaml)
# rk45's PI controller: a first step rejected under time.cfl, and an
# error estimate of exactly 0, both end (each hung before)
frx_solver_test(rk45-cfl-first-step-rejected 1 0
  "^frx: [0-9]+ steps [(][1-9][0-9]* rejected[)] to step [0-9]+, t = 2,"
  rk45-cfl-rejected.yaml)
frx_solver_test(rk45-zero-error 1 0
  "^frx: [0-9] steps [(]0 rejected[)] to step [0-9], t = 1,"
  rk45-zero-error.yaml)
set_tests_properties(solver-rk45-cfl-first-step-rejected solver-rk45-zero-error
  PROPERTIES TIMEOUT 30)
# no step of dt = inf where the wave speed is 0 everywhere
frx_solver_test(cfl-no-finite-step 2 1
  "the CFL step: max_dt gave no finite step on any rank .*: give time.dt instead of time.cfl"
  still-advection.yaml)
frx_solver_test(nonfinite-stops 2 1
  "^  rank 1: variable 'u' is NaN or Inf" blows-up.yaml)
frx_solver_test(nonfinite-at-last-step 1 1
  "^frx: step 999, t = 99.9: a check failed on 1 of 1 rank[(]s[)]:"
  blows-up-last-step.yaml)
frx_solver_test(nonfinite-before-output 1 1
  "^frx: step 20, t = [0-9.e+]+: a check failed on 1 of 1 rank[(]s[)]:"
  blows-up-output.yaml)
frx_solver_test(no-plugin 2 1
  "no-plugin.yaml:3:16: solver.name: no plugin 'nosuch' [(]frx-nosuch.so[)] in: .*fixtures"
  no-plugin.yaml)
frx_cli_test(run-restart-needs-solver 1 "--restart needs a case with solver.name"
  run ${PROJECT_SOURCE_DIR}/config/demo.yaml --restart nowhere.h5)
set_tests_properties(cli-run-restart-needs-solver PROPERTIES
  ENVIRONMENT "${FRX_MPI_TEST_ENV}")
# a failure inside a step: the failing rank names itself, the job ends
frx_solver_test(step-failure-aborts 2 1
  "step 3, t = 0.2: a step failed on rank 1: ode: set_time fails at t = 0.25 on rank 1.*stopping the job"
  step-fails.yaml)
# a plugin that fails without saying why is named as such
frx_solver_test(silent-failure-named 2 1
  "rank 1: solver 'ode' [(].*frx-ode.so[)] returned FRX_EINVAL without a message"
  silent-failure.yaml)
frx_solver_test(block-size-unset 1 1
  "solver 'ode' [(].*frx-ode.so[)]: block 0 has .size 0, which is not between"
  block-size-unset.yaml)
# on a terminal the progress line is rewritten in place
find_program(FRX_SCRIPT script)
if(FRX_SCRIPT)
  add_test(NAME solver-progress-in-place COMMAND sh
    ${CMAKE_CURRENT_SOURCE_DIR}/cli/tty.sh ${FRX_EXE}
    ${FRX_SOLVER_DATA}/ode-tty.yaml)
  set_tests_properties(solver-progress-in-place PROPERTIES TIMEOUT 60
    ENVIRONMENT "${FRX_SOLVER_ENV}")
endif()
# on a mesh over 2 ranks: the progress lines and the summary
frx_solver_test(mesh-progress 2 0 "step 10  t [0-9.]+  dt [0-9.e-]+  wall" ode-mesh.yaml)
frx_solver_test(mesh-summary 2 0 "frx: L2 error at t = 2: u [0-9.]+e-0[89]" ode-mesh.yaml)

# Bitwise restarts: 2N steps == N steps + checkpoint + restart + N steps,
# on the same and on another number of ranks; rk4 with N odd (u then
# sits in the other register), rk45 with its adaptive dt.
foreach(run "rk4;1;1;5" "rk45;2;2;6" "rk45;2;3;6" "ssp-rk3;3;2;4")
  list(GET run 0 scheme)
  list(GET run 1 np1)
  list(GET run 2 np2)
  list(GET run 3 n)
  set(name solver-restart-${scheme}-np${np1}-to-np${np2})
  add_test(NAME ${name} COMMAND ${FRX_OWN_TMPDIR} sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/restart.sh
    ${MPIEXEC_EXECUTABLE} ${FRX_EXE} ${np1} ${np2} ${scheme} ${n})
  set_tests_properties(${name} PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77
    ENVIRONMENT "${FRX_SOLVER_ENV}")
endforeach()
# a 3-D mesh of two types (hexahedra and prisms): checkpoints, a
# restart on fewer ranks and VTK output take both
add_test(NAME solver-mixed-3d COMMAND ${FRX_OWN_TMPDIR} sh
  ${CMAKE_CURRENT_SOURCE_DIR}/cli/mixed-3d.sh ${MPIEXEC_EXECUTABLE} ${FRX_EXE}
  ${PROJECT_SOURCE_DIR}/tests/data/mesh/hex-pri.msh)
set_tests_properties(solver-mixed-3d PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77
  ENVIRONMENT "${FRX_SOLVER_ENV}")
# hexahedra, a pyramid and tetrahedra: /solution/pyr, VTK_PYRAMID (14)
add_test(NAME solver-mixed-3d-pyr COMMAND ${FRX_OWN_TMPDIR} sh
  ${CMAKE_CURRENT_SOURCE_DIR}/cli/mixed-3d.sh ${MPIEXEC_EXECUTABLE} ${FRX_EXE}
  ${PROJECT_SOURCE_DIR}/tests/data/mesh/hex-pyr-tet.msh "tet hex pyr"
  "10 10 10 10 12 14")
set_tests_properties(solver-mixed-3d-pyr PROPERTIES TIMEOUT 120
  SKIP_RETURN_CODE 77 ENVIRONMENT "${FRX_SOLVER_ENV}")
# ranks that see different files (restart, checkpoint folder, a blocked
# piece): every rank stops with the reason, nothing half made
add_test(NAME solver-ranks-see-different-files COMMAND ${FRX_OWN_TMPDIR} sh
  ${CMAKE_CURRENT_SOURCE_DIR}/cli/ranks-files.sh ${MPIEXEC_EXECUTABLE}
  ${FRX_EXE})
set_tests_properties(solver-ranks-see-different-files PROPERTIES TIMEOUT 300
  ENVIRONMENT "${FRX_SOLVER_ENV}")
add_test(NAME solver-output-intervals COMMAND ${FRX_OWN_TMPDIR} sh
  ${CMAKE_CURRENT_SOURCE_DIR}/cli/output.sh ${MPIEXEC_EXECUTABLE} ${FRX_EXE})
set_tests_properties(solver-output-intervals PROPERTIES TIMEOUT 120
  ENVIRONMENT "${FRX_SOLVER_ENV}")
# output.dir and checkpoint.file: folders made at the first write, a
# file in the way refused before the run
add_test(NAME solver-output-folders COMMAND ${FRX_OWN_TMPDIR} sh
  ${CMAKE_CURRENT_SOURCE_DIR}/cli/folders.sh ${MPIEXEC_EXECUTABLE} ${FRX_EXE})
set_tests_properties(solver-output-folders PROPERTIES TIMEOUT 120
  ENVIRONMENT "${FRX_SOLVER_ENV}")
frx_solver_test(restart-missing-file 2 1
  "frx: cannot open the checkpoint nosuch.h5" ode-mesh.yaml --restart nosuch.h5)

# profile: true: a table of where the time went whose rows add up, and
# the same results as without it (the lee plugin; 2x1 and 1x2).
add_test(NAME solver-profile COMMAND sh
  ${CMAKE_CURRENT_SOURCE_DIR}/cli/profile.sh ${MPIEXEC_EXECUTABLE} ${FRX_EXE})
set_tests_properties(solver-profile PROPERTIES TIMEOUT 300
  ENVIRONMENT "${FRX_MPI_TEST_ENV}")

# bench/solver.sh on a small mesh: it still reads frx's output (every
# row has its numbers) and refuses an output without a wall time.
if(FRX_BUILD_BENCH)
  add_test(NAME bench-solver-smoke COMMAND ${FRX_OWN_TMPDIR} sh
    ${CMAKE_CURRENT_SOURCE_DIR}/cli/bench-solver.sh
    ${PROJECT_SOURCE_DIR}/bench/solver.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(bench-solver-smoke PROPERTIES TIMEOUT 300
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
  # bench/pool.sh: rounds of several runs pooled, the verdict against
  # the target from a 95% interval of their median
  add_test(NAME bench-pool COMMAND sh
    ${CMAKE_CURRENT_SOURCE_DIR}/cli/bench-pool.sh
    ${PROJECT_SOURCE_DIR}/bench/pool.sh)
  set_tests_properties(bench-pool PROPERTIES TIMEOUT 60
    ENVIRONMENT "${FRX_TEST_ENV}")
  # bench/weak-pyfr.sh needs PyFR (../shared/pyfr/run.sh, not in CI):
  # without it, it says where it looked and how to install it
  add_test(NAME bench-weak-pyfr-refuses COMMAND sh ${FRX_EXPECT} 1
    "no PyFR in .*/no-pyfr-here .*install it with sh ../shared/pyfr/run.sh"
    sh ${PROJECT_SOURCE_DIR}/bench/weak-pyfr.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(bench-weak-pyfr-refuses PROPERTIES TIMEOUT 60
    ENVIRONMENT "${FRX_TEST_ENV};PYFR_WORK=${CMAKE_BINARY_DIR}/no-pyfr-here")
endif()

# A rank bound to one core with more threads than that: a warning that
# says how to launch it (--bind-to none).
add_test(NAME solver-threads-bound-warned COMMAND sh ${FRX_EXPECT} 0
  "warn: openmp: 3 threads, but this rank may run on 1 CPU only .* add --bind-to none"
  ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 1 --bind-to core
  ${FRX_EXE} run ${FRX_SOLVER_DATA}/ode-threads.yaml)
set_tests_properties(solver-threads-bound-warned PROPERTIES TIMEOUT 120
  ENVIRONMENT "${FRX_SOLVER_ENV}")
