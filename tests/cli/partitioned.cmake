# SPDX-License-Identifier: BSD-3-Clause
# Meshes read in parts (mesh type partitioned, `frx mesh partition -o`);
# cli/partitioned.sh says what each mode asserts. Included from
# tests/CMakeLists.txt.
set(FRX_PM_RUN ${FRX_OWN_TMPDIR} sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/partitioned.sh)
set(FRX_PM_ENV "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
foreach(run "openmp 1 2 3 4" "opencl 1 2")
  string(REPLACE " " ";" args "${run}")
  list(GET args 0 be)
  add_test(NAME partitioned-agree-${be} COMMAND ${FRX_PM_RUN} agree
    ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli> ${args})
  set_tests_properties(partitioned-agree-${be} PROPERTIES TIMEOUT 300
    SKIP_RETURN_CODE 77 ENVIRONMENT "${FRX_PM_ENV}")
endforeach()
foreach(be openmp opencl)
  add_test(NAME partitioned-merge-${be} COMMAND ${FRX_PM_RUN} merge
    ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli> ${be} 1 2 3)
  set_tests_properties(partitioned-merge-${be} PROPERTIES TIMEOUT 300
    SKIP_RETURN_CODE 77 ENVIRONMENT "${FRX_PM_ENV}")
endforeach()
foreach(mode restart refusals large)
  add_test(NAME partitioned-${mode} COMMAND ${FRX_PM_RUN} ${mode}
    ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli>)
  set_tests_properties(partitioned-${mode} PROPERTIES TIMEOUT 300
    ENVIRONMENT "${FRX_PM_ENV}")
endforeach()
