# Tests under mpirun with 1 to 4 ranks.
add_executable(test_exchange mpi/test_exchange.c)
target_link_libraries(test_exchange PRIVATE frx)
frx_target_defaults(test_exchange)

# each job with a TMPDIR of its own: see own-tmpdir.sh
set(FRX_MPIRUN sh ${CMAKE_CURRENT_SOURCE_DIR}/own-tmpdir.sh
  ${MPIEXEC_EXECUTABLE} --oversubscribe ${MPIEXEC_NUMPROC_FLAG})

# Exchanges bitwise against the serial reference, per backend and mode.
foreach(be IN LISTS FRX_TEST_BACKENDS)
  foreach(np 1 2 3 4)
    foreach(mode device-aware host-staged)
      foreach(shape ring halo)
        set(name mpi-exchange-${shape}-${be}-${mode}-np${np})
        add_test(NAME ${name} COMMAND ${FRX_MPIRUN} ${np}
          $<TARGET_FILE:test_exchange> ${be} ${mode} ${shape})
        set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77
          TIMEOUT 120 ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
      endforeach()
    endforeach()
  endforeach()
endforeach()

# gpu-common's host-staged exchanges (copies to and from pinned mirrors
# that complete only when waited for) on frx-fakegpu, alone and with
# openmp ranks.
foreach(be fakegpu openmp+fakegpu)
  foreach(np 2 3)
    foreach(shape ring halo)
      set(name mpi-exchange-${shape}-${be}-host-staged-np${np})
      add_test(NAME ${name} COMMAND ${FRX_MPIRUN} ${np}
        $<TARGET_FILE:test_exchange> ${be} host-staged ${shape})
      set_tests_properties(${name} PROPERTIES TIMEOUT 120 ENVIRONMENT
        "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1;FRX_PLUGIN_PATH=${FRX_FAKEGPU_DIR}")
    endforeach()
  endforeach()
endforeach()

# One job on openmp and a GPU backend: rank 1 on cuda or hip (skipped
# where it cannot start: every rank stops with rank 1's reason).
foreach(gpu cuda hip)
  if(TARGET frx-${gpu})
    foreach(np 2 3)
      foreach(shape ring halo)
        set(name mpi-exchange-${shape}-openmp+${gpu}-host-staged-np${np})
        add_test(NAME ${name} COMMAND ${FRX_MPIRUN} ${np}
          $<TARGET_FILE:test_exchange> openmp+${gpu} host-staged ${shape})
        set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77
          TIMEOUT 120 ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
      endforeach()
    endforeach()
  endif()
endforeach()

# Start-up agreed across ranks: a rank whose backend cannot start, or a
# rank on another precision, stops every rank quickly with rank 0 saying
# which rank and why.
foreach(case unavail-rank precision-mismatch missing-backend-rank)
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/data/mpi/${case}.yaml
    ${CMAKE_CURRENT_BINARY_DIR}/mpi-${case}.yaml COPYONLY)
endforeach()
add_test(NAME mpi-startup-unavailable-rank
  COMMAND sh ${FRX_EXPECT} 1
    "rank 1 \\([^)]*\\): backend 'unavail' cannot start here: libfake"
    ${FRX_MPIRUN} 2 ${FRX_EXE} run ${CMAKE_CURRENT_BINARY_DIR}/mpi-unavail-rank.yaml)
# rank 1 on a node where frx has no plugins beside it (MPMD: its own
# copy of libfrx)
add_test(NAME mpi-startup-missing-backend-rank
  COMMAND sh ${FRX_EXPECT} 1
    "rank 1 \\([^)]*\\): no plugin 'cuda' \\(frx-cuda[.]so\\) in: "
    ${FRX_MPIRUN} 1 ${FRX_EXE} run ${CMAKE_CURRENT_BINARY_DIR}/mpi-missing-backend-rank.yaml
    : ${MPIEXEC_NUMPROC_FLAG} 1 sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/without-plugins.sh
    $<TARGET_FILE_DIR:frx> ${FRX_EXE} run ${CMAKE_CURRENT_BINARY_DIR}/mpi-missing-backend-rank.yaml)
add_test(NAME mpi-startup-precision-mismatch
  COMMAND sh ${FRX_EXPECT} 1
    "rank 1 \\([^)]*\\): single"
    ${FRX_MPIRUN} 2 ${FRX_EXE} run ${CMAKE_CURRENT_BINARY_DIR}/mpi-precision-mismatch.yaml)
add_test(NAME mpi-startup-mode-logged
  COMMAND sh ${FRX_EXPECT} 0 "MPI transfers: device-aware"
    ${FRX_MPIRUN} 2 ${FRX_EXE} run ${PROJECT_SOURCE_DIR}/config/demo.yaml)
set_tests_properties(mpi-startup-unavailable-rank
  mpi-startup-missing-backend-rank
  mpi-startup-precision-mismatch mpi-startup-mode-logged PROPERTIES
  TIMEOUT 30 ENVIRONMENT
  "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1;FRX_PLUGIN_PATH=${FRX_FIXTURE_DIR}")

# One job on two backends: rank 1 on opencl, the rest on openmp, must
# give what all-openmp gives (the reference is the same serial one).
if(TARGET frx-opencl)
  foreach(shape ring halo)
    foreach(np 2 3)
      set(name mpi-exchange-${shape}-openmp+opencl-host-staged-np${np})
      add_test(NAME ${name} COMMAND ${FRX_MPIRUN} ${np}
        $<TARGET_FILE:test_exchange> openmp+opencl host-staged ${shape})
      set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77
        TIMEOUT 120 ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
    endforeach()
  endforeach()
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/data/mpi/mixed.yaml
    ${CMAKE_CURRENT_BINARY_DIR}/mpi-mixed.yaml COPYONLY)
  add_test(NAME mpi-run-demo-openmp+opencl
    COMMAND sh ${FRX_EXPECT} 0 "2 rank\\(s\\) on openmp.*: ok"
      ${FRX_MPIRUN} 2 ${FRX_EXE} run ${CMAKE_CURRENT_BINARY_DIR}/mpi-mixed.yaml)
  # opencl cannot hand MPI a device pointer: asking for it is refused
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/data/mpi/opencl-device-aware.yaml
    ${CMAKE_CURRENT_BINARY_DIR}/mpi-opencl-device-aware.yaml COPYONLY)
  add_test(NAME mpi-startup-device-aware-refused
    COMMAND sh ${FRX_EXPECT} 1
      "backend.mpi is device-aware but backend 'opencl' cannot hand MPI a device pointer"
      ${FRX_MPIRUN} 2 ${FRX_EXE} run ${CMAKE_CURRENT_BINARY_DIR}/mpi-opencl-device-aware.yaml)
  set_tests_properties(mpi-run-demo-openmp+opencl
    mpi-startup-device-aware-refused PROPERTIES TIMEOUT 60
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endif()
