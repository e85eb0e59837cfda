# `frx run`: the demo case as one rank without mpirun, then under mpirun
# with 1 to 4 ranks. Each run checks its own checksum and prints "ok".
frx_cli_test(run-singleton 0 "checksum .*: ok" run ${PROJECT_SOURCE_DIR}/config/demo.yaml)
frx_cli_test(run-help 0 "usage: frx run" run --help)
frx_cli_test(run-missing-file 1 "no-such-case.yaml" run no-such-case.yaml)
set_tests_properties(cli-run-singleton cli-run-missing-file PROPERTIES
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
