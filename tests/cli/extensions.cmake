# SPDX-License-Identifier: BSD-3-Clause
# Extension plugins from outside: examples/extension-interface-jump and
# examples/extension-baseflow-check, built against the installed prefix
# by installed-prefix (cli/installed.cmake), run by the installed frx,
# with the probe fixtures (tests/fixtures/ext.c) for the refusals.
# cli/extensions.sh says what each mode asserts. Included from
# tests/CMakeLists.txt after the fakegpu solver runs (their fixture of
# kernel sources).
set(FRX_EXT_RUN sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/extensions.sh)
set(FRX_EXT_ARGS ${MPIEXEC_EXECUTABLE} ${FRX_INSTALLED_DIR}
  ${PROJECT_SOURCE_DIR} ${FRX_FIXTURE_DIR})
set(FRX_EXT_ENV "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")

# interface-jump on euler: 1, 2 and 3 ranks, openmp and opencl, against
# 1 rank on openmp
foreach(be openmp opencl)
  add_test(NAME ext-interface-jump-${be} COMMAND ${FRX_EXT_RUN} jump
    ${FRX_EXT_ARGS} ${be} 1 2 3)
  set_tests_properties(ext-interface-jump-${be} PROPERTIES
    FIXTURES_REQUIRED frx-installed TIMEOUT 300 SKIP_RETURN_CODE 77
    ENVIRONMENT "${FRX_EXT_ENV}")
endforeach()

# baseflow-check on lee: lee's built-in check's verdicts, undamaged on 1
# to 3 ranks, and with each damage lee's own tests inject (a saved
# snapshot on rank 1 or 2, a live point on either side of an interior
# face, a point at a rank interface under a linear partition); on
# opencl undamaged and damaged on 2 ranks
foreach(run "openmp 1 none" "openmp 2 none" "openmp 3 none" "openmp 2 1"
    "openmp 3 2" "openmp 1 0:9:0" "openmp 1 0:9:5" "openmp 2 0:24:6 linear"
    "opencl 2 none" "opencl 2 1")
  string(REPLACE " " ";" args "${run}")
  list(GET args 0 be)
  list(GET args 1 np)
  list(SUBLIST args 2 -1 rest)
  string(REPLACE ";" "-" name "${rest}")
  string(REPLACE ":" "." name "${name}")
  set(name ext-baseflow-check-${be}-np${np}-${name})
  add_test(NAME ${name} COMMAND ${FRX_EXT_RUN} baseflow ${FRX_EXT_ARGS}
    ${args})
  set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED frx-installed
    TIMEOUT 300 SKIP_RETURN_CODE 77 ENVIRONMENT "${FRX_EXT_ENV}")
endforeach()

# docs/plugins.md's full example, extracted, built (with the flags of
# the other examples) and run
add_test(NAME ext-docs-example COMMAND ${FRX_EXT_RUN} docs ${FRX_EXT_ARGS}
  "${FRX_EXAMPLE_CFLAGS}")
set_tests_properties(ext-docs-example PROPERTIES
  FIXTURES_REQUIRED frx-installed TIMEOUT 300 ENVIRONMENT "${FRX_EXT_ENV}")

foreach(mode refusals restart)
  add_test(NAME ext-${mode} COMMAND ${FRX_EXT_RUN} ${mode} ${FRX_EXT_ARGS})
  set_tests_properties(ext-${mode} PROPERTIES
    FIXTURES_REQUIRED frx-installed TIMEOUT 300 ENVIRONMENT "${FRX_EXT_ENV}")
endforeach()

# both on frx-fakegpu, their kernel sources kept for gpu-compile-solvers-*
add_test(NAME ext-fakegpu COMMAND ${FRX_EXT_RUN} fakegpu ${FRX_EXT_ARGS}
  ${FRX_FAKEGPU_DIR} ${FRX_GPU_SOLVER_SOURCES})
set_tests_properties(ext-fakegpu PROPERTIES TIMEOUT 300
  FIXTURES_REQUIRED "frx-installed;gpu-solver-clean"
  FIXTURES_SETUP gpu-solver-sources ENVIRONMENT "${FRX_EXT_ENV}")
