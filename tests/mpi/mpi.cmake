# SPDX-License-Identifier: BSD-3-Clause
# Tests under mpirun with 1 to 4 ranks.
add_executable(test_exchange mpi/test_exchange.c)
target_link_libraries(test_exchange PRIVATE frx)
frx_target_defaults(test_exchange)

# each job with a TMPDIR of its own: see own-tmpdir.sh
set(FRX_MPIRUN ${FRX_OWN_TMPDIR}
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

# Skipped only where the backend cannot start here: a backend whose
# probe says it can and whose start-up then fails (the fixture 'good',
# a plugin without its ops) is a failure, alone or on rank 1 only; one
# that cannot start ('unavail': no library) is skipped.
foreach(run "good|1|1|FAIL: backend 'good': FRX_EPLUGIN"
    "openmp+good|2|1|FAIL: backend 'openmp[+]good': FRX_EPLUGIN"
    "unavail|1|77|SKIP: backend 'unavail': FRX_EUNAVAIL"
    "openmp+unavail|2|77|SKIP: backend 'openmp[+]unavail': FRX_EUNAVAIL")
  string(REPLACE "|" ";" run "${run}")
  list(GET run 0 be)
  list(GET run 1 np)
  list(GET run 2 rc)
  list(GET run 3 regex)
  set(name mpi-exchange-startup-${be}-np${np})
  add_test(NAME ${name} COMMAND sh ${FRX_EXPECT} ${rc} "${regex}"
    ${FRX_MPIRUN} ${np} $<TARGET_FILE:test_exchange> ${be} host-staged ring)
  set_tests_properties(${name} PROPERTIES TIMEOUT 60 ENVIRONMENT
    "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1;FRX_PLUGIN_PATH=${FRX_FIXTURE_DIR}")
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
# rank 1 reads another file, which has an error (a case edited on one
# node): rank 0, which read its own, prints rank 1's reason and place
add_test(NAME mpi-startup-case-unreadable-on-rank
  COMMAND sh ${FRX_EXPECT} 1
    "^  rank 1 \\([^)]*\\): [^ ]*bad-order20.yaml:5:10: 'solver.order' must be between 1 and 6, got 20"
    ${FRX_MPIRUN} 1 ${FRX_EXE} run ${PROJECT_SOURCE_DIR}/config/lee-acoustic.yaml
    : ${MPIEXEC_NUMPROC_FLAG} 1 ${FRX_EXE} run ${PROJECT_SOURCE_DIR}/tests/data/lee/bad-order20.yaml)
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

# Ranks started with different cases (MPMD, or a file edited on one
# node) are refused at start-up with the ranks that differ; layout,
# comments and backend.rules do not count.
foreach(case case-a case-b case-a-rules)
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/data/mpi/${case}.yaml
    ${CMAKE_CURRENT_BINARY_DIR}/mpi-${case}.yaml COPYONLY)
endforeach()
add_test(NAME mpi-startup-different-cases
  COMMAND sh ${FRX_EXPECT} 1
    "rank 1 \\([^)]*\\): [^ ]*mpi-case-b[.]yaml \\(case [0-9a-f]+\\): differs from rank 0"
    ${FRX_MPIRUN} 1 ${FRX_EXE} run ${CMAKE_CURRENT_BINARY_DIR}/mpi-case-a.yaml
    : -n 1 ${FRX_EXE} run ${CMAKE_CURRENT_BINARY_DIR}/mpi-case-b.yaml)
add_test(NAME mpi-startup-same-case-other-rules
  COMMAND sh ${FRX_EXPECT} 0 "2 rank\\(s\\) on openmp.*: ok"
    ${FRX_MPIRUN} 1 ${FRX_EXE} run ${CMAKE_CURRENT_BINARY_DIR}/mpi-case-a.yaml
    : -n 1 ${FRX_EXE} run ${CMAKE_CURRENT_BINARY_DIR}/mpi-case-a-rules.yaml)
set_tests_properties(mpi-startup-different-cases
  mpi-startup-same-case-other-rules mpi-startup-case-unreadable-on-rank
  PROPERTIES TIMEOUT 30
  ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")

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

# The time loop on the ODE fixture (tests/fixtures/ode.c), per backend;
# on openmp also with the elements shared out over 2 ranks.
frx_check_test(test_timeloop test_timeloop.c testutil.c)
add_dependencies(test_timeloop frx-fixtures)
foreach(be IN LISTS FRX_TEST_BACKENDS)
  set(nps 1)
  if(be STREQUAL "openmp")
    set(nps 1 2)
  endif()
  foreach(np IN LISTS nps)
    add_test(NAME timeloop-${be}-np${np} COMMAND ${FRX_MPIRUN} ${np}
      $<TARGET_FILE:test_timeloop> ${be})
    set_tests_properties(timeloop-${be}-np${np} PROPERTIES SKIP_RETURN_CODE 77
      TIMEOUT 600 ENVIRONMENT
      "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1;FRX_PLUGIN_PATH=${FRX_FIXTURE_DIR}")
  endforeach()
endforeach()

# Mesh partitions: every element on one rank, weights honoured within
# 5%, shared faces matched face by face on both sides, the same
# partition twice; refusals on every rank.
add_executable(test_mesh_parts mpi/test_mesh_parts.c meshutil.c gmshwrite.c)
target_link_libraries(test_mesh_parts PRIVATE frx m)
frx_target_defaults(test_mesh_parts)
foreach(np 2 3 4)
  foreach(case weights rules linear periodic tri hex tet pri pyr hex-pri
      tet-pri hex-pyr-tet tiny tiny-linear too-few weights-mismatch)
    set(name mpi-mesh-${case}-np${np})
    add_test(NAME ${name} COMMAND ${FRX_MPIRUN} ${np}
      $<TARGET_FILE:test_mesh_parts> ${case})
    set_tests_properties(${name} PROPERTIES TIMEOUT 60
      ENVIRONMENT "${FRX_MPI_TEST_ENV}")
  endforeach()
endforeach()
# tetrahedra, prisms and pyramids through a partitioned mesh file (frx
# mesh partition -o), read on 3 ranks (as built) and 2 (merged)
foreach(case tet pri pyr)
  add_test(NAME mpi-mesh-${case}-file COMMAND sh
    ${CMAKE_CURRENT_SOURCE_DIR}/mpi/box-parts.sh ${case}
    $<TARGET_FILE:frx-cli> $<TARGET_FILE:test_mesh_parts> ${FRX_MPIRUN})
  set_tests_properties(mpi-mesh-${case}-file PROPERTIES TIMEOUT 60
    ENVIRONMENT "${FRX_MPI_TEST_ENV}")
endforeach()
# METIS's partition is the same from one run to the next
add_test(NAME mpi-mesh-same-twice-np3 COMMAND sh
  ${CMAKE_CURRENT_SOURCE_DIR}/mpi/same-twice.sh
  ${FRX_MPIRUN} 3 $<TARGET_FILE:test_mesh_parts> weights)
set_tests_properties(mpi-mesh-same-twice-np3 PROPERTIES TIMEOUT 60
  ENVIRONMENT "${FRX_MPI_TEST_ENV}")

# Output and checkpoints (core/src/io/io-impl.h): the internal writers
# built in from their sources, on a made-up mesh (io_mesh.c).
set(FRX_IO_SRC ${PROJECT_SOURCE_DIR}/core/src/io)
add_executable(test_vtk mpi/test_vtk.c mpi/io_mesh.c
  ${FRX_IO_SRC}/io_util.c ${FRX_IO_SRC}/vtk.c)
add_executable(test_ckpt mpi/test_ckpt.c mpi/io_mesh.c
  ${FRX_IO_SRC}/io_util.c ${FRX_IO_SRC}/io_route.c ${FRX_IO_SRC}/h5.c
  ${FRX_IO_SRC}/ckpt.c)
foreach(t test_vtk test_ckpt)
  target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/core/src)
  target_link_libraries(${t} PRIVATE frx PkgConfig::HDF5_MPI m)
  frx_target_defaults(${t})
endforeach()
foreach(np 1 2 3)
  add_test(NAME mpi-vtk-np${np}
    COMMAND ${FRX_MPIRUN} ${np} $<TARGET_FILE:test_vtk>)
endforeach()
foreach(np 1 2 3 4)
  add_test(NAME mpi-ckpt-np${np}
    COMMAND ${FRX_MPIRUN} ${np} $<TARGET_FILE:test_ckpt>)
endforeach()
set_tests_properties(mpi-vtk-np1 mpi-vtk-np2 mpi-vtk-np3 mpi-ckpt-np1
  mpi-ckpt-np2 mpi-ckpt-np3 mpi-ckpt-np4 PROPERTIES TIMEOUT 120
  ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")

# The same files through VTK's own reader (what ParaView uses), with
# Debian's python3-vtk9; skipped where it is not installed.
find_program(FRX_SYSTEM_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(FRX_SYSTEM_PYTHON3)
  add_test(NAME mpi-vtk-reader-np3 COMMAND sh
    ${CMAKE_CURRENT_SOURCE_DIR}/own-tmpdir.sh
    sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/vtk-reader.sh ${FRX_SYSTEM_PYTHON3}
    ${CMAKE_CURRENT_SOURCE_DIR}/mpi/vtk_reader.py $<TARGET_FILE:test_vtk> 3
    ${MPIEXEC_EXECUTABLE} --oversubscribe ${MPIEXEC_NUMPROC_FLAG})
  set_tests_properties(mpi-vtk-reader-np3 PROPERTIES SKIP_RETURN_CODE 77
    TIMEOUT 120 ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endif()
# Pyramids in VTK output: cut into linear pyramids and tetrahedra (VTK
# 9.1 has no Lagrange pyramid); VTK's reader checks that they fill each
# element.
add_executable(test_vtk_pyr mpi/test_vtk_pyr.c ${FRX_IO_SRC}/io_util.c
  ${FRX_IO_SRC}/vtk.c)
target_include_directories(test_vtk_pyr PRIVATE ${PROJECT_SOURCE_DIR}/core/src)
target_link_libraries(test_vtk_pyr PRIVATE frx m)
frx_target_defaults(test_vtk_pyr)
add_test(NAME mpi-vtk-pyr-np2
  COMMAND ${FRX_MPIRUN} 2 $<TARGET_FILE:test_vtk_pyr>)
set_tests_properties(mpi-vtk-pyr-np2 PROPERTIES TIMEOUT 60
  ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
if(FRX_SYSTEM_PYTHON3)
  add_test(NAME mpi-vtk-pyr-reader COMMAND sh
    ${CMAKE_CURRENT_SOURCE_DIR}/own-tmpdir.sh
    sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/vtk-reader.sh ${FRX_SYSTEM_PYTHON3}
    ${CMAKE_CURRENT_SOURCE_DIR}/mpi/vtk_pyr.py $<TARGET_FILE:test_vtk_pyr> 1
    ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG})
  set_tests_properties(mpi-vtk-pyr-reader PROPERTIES SKIP_RETURN_CODE 77
    TIMEOUT 60 ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endif()
# Set-up checks across ranks: graphs touching a buffer MPI holds, and
# exchanges whose sides disagree, are refused at commit.
add_executable(test_setup mpi/test_setup.c)
target_link_libraries(test_setup PRIVATE frx)
frx_target_defaults(test_setup)
foreach(np 2 3)
  add_test(NAME mpi-setup-checks-np${np}
    COMMAND sh ${FRX_EXPECT} 0 "set-up checks on ${np} rank\\(s\\): [0-9]+ passed, 0 failed"
      --and "warn: frx_comm_add: the send to rank 1 \\(tag 1\\) has the shape of the send to rank 1 \\(tag 0\\) and neither has a name: .* frx_comm_add_send_named"
      ${FRX_MPIRUN} ${np} $<TARGET_FILE:test_setup>)
  set_tests_properties(mpi-setup-checks-np${np} PROPERTIES TIMEOUT 60
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endforeach()

# One rank failing: at set-up every rank stops together, naming it; mid-
# run it ends the job at once (MPI_Abort), naming itself. Faults come
# from an LD_PRELOAD library (fault.c), never from libfrx. A wrong
# value received by one rank is named by that rank, even where a sum
# over ranks would cancel it (+1 on rank 1, -1 on rank 2).
set(FRX_FAULT_RUN ${FRX_MPIRUN} 3 -x LD_PRELOAD=$<TARGET_FILE:frx-fault>)
add_test(NAME mpi-fault-setup-np3
  COMMAND sh ${FRX_EXPECT} 1
    "rank 1 \\([^)]*\\): frx_view_create: out of memory for 4096 points \\(injected"
    --and "demo: views failed on 1 of 3 rank"
    ${FRX_FAULT_RUN} -x FRX_FAULT=views:1
    ${FRX_EXE} run ${PROJECT_SOURCE_DIR}/config/demo.yaml)
add_test(NAME mpi-fault-midrun-np3
  COMMAND sh ${FRX_EXPECT} 1
    "rank 1 of 3 stops the job: MPI_Start \\(receive from rank 0, tag 0\\) failed on rank 1"
    ${FRX_FAULT_RUN} -x FRX_FAULT=start:1:5
    ${FRX_EXE} run ${PROJECT_SOURCE_DIR}/config/demo.yaml)
# ... in a solver's time loop, the message names the step and time
add_test(NAME mpi-fault-midrun-solver-np3
  COMMAND sh ${FRX_EXPECT} 1
    "step [0-9]+, t = [0-9.e-]+: rank 1 of 3 stops the job: MPI_Start"
    ${FRX_FAULT_RUN} -x FRX_FAULT=start:1:50
    ${FRX_EXE} run ${PROJECT_SOURCE_DIR}/config/advection.yaml)
add_test(NAME mpi-fault-received-values-np3
  COMMAND sh ${FRX_EXPECT} 1
    "rank 1 \\([^)]*\\): 1 of 16384 values received from rank 0 differ"
    --and "rank 2 \\([^)]*\\): 1 of 16384 values received from rank 1 differ"
    ${FRX_FAULT_RUN} -x FRX_FAULT=recv-add:1:1,recv-add:2:-1
    ${FRX_EXE} run ${PROJECT_SOURCE_DIR}/config/demo.yaml)
set_tests_properties(mpi-fault-setup-np3 mpi-fault-midrun-np3
  mpi-fault-midrun-solver-np3 mpi-fault-received-values-np3
  PROPERTIES TIMEOUT 30
  ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1;${FRX_FAULT_ENV}")

# A rank's place on its node (core/src/base/mpi.c built in): MPI's shared
# communicator, counted among the ranks of one backend, so that rank 0
# on openmp does not push the fakegpu ranks onto other devices: with 2
# fake devices, the fakegpu ranks take devices 0, 1 in turn.
add_executable(test_local_rank mpi/test_local_rank.c
  ${PROJECT_SOURCE_DIR}/core/src/base/mpi.c)
target_include_directories(test_local_rank PRIVATE
  ${PROJECT_SOURCE_DIR}/core/src)
target_link_libraries(test_local_rank PRIVATE frx)
frx_target_defaults(test_local_rank)
add_dependencies(test_local_rank frx-fakegpu)
set(FRX_LOCAL_RANK_2 --and "\\[frx 1/2\\] info: fakegpu: device 0 = fake GPU 0 \\(GPU-fake-0\\): local rank 0 ")
set(FRX_LOCAL_RANK_3 --and "\\[frx 1/3\\] info: fakegpu: device 0 = fake GPU 0 "
  --and "\\[frx 2/3\\] info: fakegpu: device 1 = fake GPU 1 \\(GPU-fake-1\\): local rank 1 ")
foreach(np 2 3)
  add_test(NAME mpi-local-rank-np${np}
    COMMAND sh ${FRX_EXPECT} 0 "local rank checks on ${np} rank\\(s\\): [0-9]+ passed, 0 failed"
      ${FRX_LOCAL_RANK_${np}} ${FRX_MPIRUN} ${np} $<TARGET_FILE:test_local_rank>)
  set_tests_properties(mpi-local-rank-np${np} PROPERTIES TIMEOUT 60
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1;FRX_LOG=info;FRX_FAKEGPU_DEVICES=2;FRX_PLUGIN_PATH=${FRX_FAKEGPU_DIR}")
endforeach()
