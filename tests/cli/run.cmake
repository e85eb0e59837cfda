# SPDX-License-Identifier: BSD-3-Clause
# `frx run`: the demo case as one rank without mpirun, then under mpirun
# with 1 to 4 ranks. Each rank checks what it received; rank 0 prints "ok".
frx_cli_test(run-singleton 0 "received what its neighbour sent: ok" run ${PROJECT_SOURCE_DIR}/config/demo.yaml)
frx_cli_test(run-help 0 "usage: frx run" run --help)
frx_cli_test(run-missing-file 1 "no-such-case.yaml" run no-such-case.yaml)
frx_cli_test(run-fast-math-warned 0
  "warn: openmp: backend.openmp.cflags has -ffast-math: the compiler may assume no NaN or Inf"
  run ${PROJECT_SOURCE_DIR}/tests/data/config/fast-math.yaml)
# bad arguments: usage, led by what was wrong
frx_cli_test(run-bad-option 2
  "^frx run: unknown option '--restrat' [(]did you mean --restart[?][)]"
  run case.yaml --restrat ck.h5)
frx_cli_test(run-restart-without-file 2
  "^frx run: --restart needs a checkpoint file" run case.yaml --restart)
frx_cli_test(run-two-cases 2 "^frx run: a second case 'b.yaml'"
  run a.yaml b.yaml)
frx_cli_test(run-no-case 2 "^frx run: no case given" run)
set_tests_properties(cli-run-singleton cli-run-missing-file
  cli-run-fast-math-warned PROPERTIES
  ENVIRONMENT "${FRX_MPI_TEST_ENV}")
frx_cli_test(version 0 "frx [0-9.]+ \\(plugin ABI [0-9]+\\.[0-9]+\\)" version)
frx_cli_test(unknown-command 2 "unknown command 'frobnicate'" frobnicate)

foreach(np 1 2 3 4)
  add_test(NAME mpi-run-demo-np${np}
    COMMAND sh ${FRX_EXPECT} 0 "${np} rank\\(s\\) on openmp.*: ok"
      ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} --oversubscribe
      ${FRX_EXE} run ${PROJECT_SOURCE_DIR}/config/demo.yaml)
  set_tests_properties(mpi-run-demo-np${np} PROPERTIES
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1" TIMEOUT 120)
endforeach()

# The exchange timers run at log level info (and only then): their
# report at the end of the demo shows a pack time that is not zero ...
add_test(NAME mpi-run-demo-timers
  COMMAND sh ${FRX_EXPECT} 0
    "info: pack +min [0-9.]+ s +median [0-9.]+ s +max 0[.]0*[1-9][0-9]* s over 2 rank"
    ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 --oversubscribe
    ${FRX_EXE} run ${PROJECT_SOURCE_DIR}/config/demo.yaml)
# ... and in a solver's run, every exchange on the backend together
add_test(NAME mpi-run-solver-timers
  COMMAND sh ${FRX_EXPECT} 0
    "info: transfer wait +min [0-9.]+ s +median [0-9.]+ s +max [0-9.]+ s over 2 rank"
    --and "info: pack +min [0-9.]+ s +median [0-9.]+ s +max 0[.]0*[1-9][0-9]* s over 2 rank"
    ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 --oversubscribe
    ${FRX_EXE} run ${PROJECT_SOURCE_DIR}/config/advection.yaml)
set_tests_properties(mpi-run-demo-timers mpi-run-solver-timers PROPERTIES
  ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1;FRX_LOG=info" TIMEOUT 120)

# The 3-D example cases, as README's users run them (their output in a
# folder of its own)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/advection-hex-run)
add_test(NAME mpi-run-advection-hex
  COMMAND sh ${FRX_EXPECT} 0
    "L2 error at t = 0[.]5: u [1-9][.][0-9]+e-05"
    ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 --oversubscribe
    ${FRX_EXE} run ${PROJECT_SOURCE_DIR}/config/advection-hex.yaml
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/advection-hex-run)
set_tests_properties(mpi-run-advection-hex PROPERTIES
  ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1" TIMEOUT 120)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/advection-tet-run)
add_test(NAME mpi-run-advection-tet
  COMMAND sh ${FRX_EXPECT} 0
    "L2 error at t = 0[.]5: u [1-9][.][0-9]+e-04"
    ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 --oversubscribe
    ${FRX_EXE} run ${PROJECT_SOURCE_DIR}/config/advection-tet.yaml
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/advection-tet-run)
set_tests_properties(mpi-run-advection-tet PROPERTIES
  ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1" TIMEOUT 120)

# A backend named explicitly that cannot start is an error with its
# plugin's reason, never a silent fallback; auto skips it and falls back.
foreach(name unavail auto)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/run-${name}.yaml
    "# written by tests/cli/run.cmake\nbackend:\n  name: ${name}\n  precision: double\ndemo:\n  neles: 64\n  steps: 1\n")
endforeach()
frx_cli_test(run-named-unavailable 1
  "backend 'unavail' cannot start here: libfake[.]so[.]1 not found"
  run ${CMAKE_CURRENT_BINARY_DIR}/run-unavail.yaml)
frx_cli_test(run-auto-skips-unavailable 0 "rank\\(s\\) on (openmp|opencl|cuda|hip),.*: ok"
  run ${CMAKE_CURRENT_BINARY_DIR}/run-auto.yaml)
foreach(t run-named-unavailable run-auto-skips-unavailable)
  set_tests_properties(cli-${t} PROPERTIES ENVIRONMENT
    "${FRX_MPI_TEST_ENV};FRX_PLUGIN_PATH=${FRX_FIXTURE_DIR}")
endforeach()

# backend.name: auto passes over an OpenCL device that is this host's CPU
# (PoCL) for openmp, comes back to it where it is the only backend, and
# stops on a bad option of a backend it tries.
if(TARGET frx-opencl)
  add_test(NAME cli-run-auto-passes-over-cpu-opencl
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/auto.sh ${FRX_EXE}
      $<TARGET_FILE_DIR:frx>)
  set_tests_properties(cli-run-auto-passes-over-cpu-opencl PROPERTIES
    SKIP_RETURN_CODE 77 TIMEOUT 120 ENVIRONMENT "${FRX_MPI_TEST_ENV}")
endif()

# A case naming a GPU backend that cannot start here ends at start-up
# with exit status 1 and the backend's reason.
foreach(gpu cuda hip)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/run-${gpu}.yaml
    "# written by tests/cli/run.cmake\nbackend:\n  name: ${gpu}\n  precision: double\ndemo:\n  neles: 64\n  steps: 1\n")
endforeach()
if(NOT FRX_LIBCUDA_SO1)
  frx_cli_test(run-cuda-unavailable 1
    "backend 'cuda' cannot start here: cuda: libcuda[.]so[.]1 not found"
    run ${CMAKE_CURRENT_BINARY_DIR}/run-cuda.yaml)
  set_tests_properties(cli-run-cuda-unavailable PROPERTIES
    ENVIRONMENT "${FRX_MPI_TEST_ENV}")
endif()
if(TARGET frx-hip AND NOT EXISTS /dev/kfd)
  frx_cli_test(run-hip-unavailable 1
    "backend 'hip' cannot start here: hip: no device \\(hipErrorNoDevice\\).* no /dev/kfd: no AMD GPU driver is loaded here"
    run ${CMAKE_CURRENT_BINARY_DIR}/run-hip.yaml)
  set_tests_properties(cli-run-hip-unavailable PROPERTIES
    ENVIRONMENT "${FRX_MPI_TEST_ENV}")
endif()
