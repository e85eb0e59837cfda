# SPDX-License-Identifier: BSD-3-Clause
# frx's analysis plugins (plugins/analysis: residual, integrate,
# sampler) on euler's vortex; cli/analysis.sh says what each mode
# asserts. Included from tests/CMakeLists.txt after the fakegpu solver
# runs (their fixture of kernel sources).
set(FRX_AN_RUN ${FRX_OWN_TMPDIR} sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/analysis.sh)
set(FRX_AN_ENV "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")

# 1 to 4 ranks on openmp, 1 and 2 on opencl, against 1 on openmp
foreach(run "openmp 1 2 3 4" "opencl 1 2")
  string(REPLACE " " ";" args "${run}")
  list(GET args 0 be)
  add_test(NAME analysis-agree-${be} COMMAND ${FRX_AN_RUN} agree
    ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli> ${args})
  set_tests_properties(analysis-agree-${be} PROPERTIES TIMEOUT 300
    SKIP_RETURN_CODE 77 ENVIRONMENT "${FRX_AN_ENV}")
endforeach()
foreach(mode exact restart killed refusals extruded)
  add_test(NAME analysis-${mode} COMMAND ${FRX_AN_RUN} ${mode}
    ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli>)
  set_tests_properties(analysis-${mode} PROPERTIES TIMEOUT 300
    ENVIRONMENT "${FRX_AN_ENV}")
endforeach()
# a reduction that fails on one rank (tests/fault.c preloaded)
add_test(NAME analysis-peer-fails COMMAND ${FRX_AN_RUN} peer-fails
  ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli>)
set_tests_properties(analysis-peer-fails PROPERTIES TIMEOUT 300
  ENVIRONMENT "${FRX_AN_ENV};${FRX_FAULT_ENV}")
# tavg and fluidforce on each backend that starts
foreach(mode tavg force)
  foreach(be openmp opencl)
    add_test(NAME analysis-${mode}-${be} COMMAND ${FRX_AN_RUN} ${mode}
      ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli> ${be})
    set_tests_properties(analysis-${mode}-${be} PROPERTIES TIMEOUT 300
      SKIP_RETURN_CODE 77 ENVIRONMENT "${FRX_AN_ENV}")
  endforeach()
endforeach()
# on frx-fakegpu, their kernel sources kept for gpu-compile-solvers-*
add_test(NAME analysis-fakegpu COMMAND ${FRX_AN_RUN} fakegpu
  ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli> ${FRX_FAKEGPU_DIR}
  ${FRX_GPU_SOLVER_SOURCES})
set_tests_properties(analysis-fakegpu PROPERTIES TIMEOUT 300
  FIXTURES_REQUIRED gpu-solver-clean FIXTURES_SETUP gpu-solver-sources
  ENVIRONMENT "${FRX_AN_ENV}")

# their CSV numbers: plugins/analysis/fmt.c against snprintf's %.17g
frx_check_test(test_csv_format analysis/test_csv_format.c)
target_link_libraries(test_csv_format PRIVATE frx-analysis-common)
target_include_directories(test_csv_format PRIVATE
  ${PROJECT_SOURCE_DIR}/plugins/analysis)
add_test(NAME analysis-csv-format COMMAND test_csv_format)
set_tests_properties(analysis-csv-format PROPERTIES ENVIRONMENT
  "${FRX_TEST_ENV}")
