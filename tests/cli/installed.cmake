# SPDX-License-Identifier: BSD-3-Clause
# frx as a third party gets it: installed into a prefix in the build tree
# (once per ctest run, the fixture frx-installed), the example solver
# plugin built out of tree against that prefix, and the installed frx and
# frx-conformance run from there. Included from tests/cli/tests.cmake.
set(FRX_INSTALLED_DIR ${CMAKE_CURRENT_BINARY_DIR}/installed)
# (the MPI tests' environment unwinds fully on every malloc under the
# sanitizers: too slow for PoCL's compiler, in the tests without MPI)
set(FRX_INSTALLED_ENV "${FRX_TEST_ENV}")
set(FRX_EXAMPLE_CFLAGS "-Werror")
if(FRX_SANITIZE)
  string(APPEND FRX_EXAMPLE_CFLAGS " -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined")
endif()
add_test(NAME installed-prefix COMMAND sh
  ${CMAKE_CURRENT_SOURCE_DIR}/cli/install-prefix.sh ${CMAKE_BINARY_DIR}
  ${PROJECT_SOURCE_DIR} ${FRX_INSTALLED_DIR} "${FRX_EXAMPLE_CFLAGS}")
set_tests_properties(installed-prefix PROPERTIES FIXTURES_SETUP frx-installed
  TIMEOUT 300 ENVIRONMENT "${FRX_INSTALLED_ENV}")

# the example solver plugin on 2 ranks (cli/example.sh says what each
# mode asserts)
foreach(mode run converges corrupt setup-fails)
  add_test(NAME example-solver-${mode} COMMAND sh
    ${CMAKE_CURRENT_SOURCE_DIR}/cli/example.sh ${mode} ${MPIEXEC_EXECUTABLE}
    ${FRX_INSTALLED_DIR} ${PROJECT_SOURCE_DIR})
  set_tests_properties(example-solver-${mode} PROPERTIES
    FIXTURES_REQUIRED frx-installed TIMEOUT 120
    ENVIRONMENT "${FRX_MPI_TEST_ENV}")
endforeach()

# the installed frx-conformance: each suite (one test each: PoCL's
# compiles are slow under the sanitizers) on the backends that can start
# here (77: skipped), the data-model and kernel suites on a backend plugin
# outside the prefix (the build tree's fakegpu, which runs no reductions),
# and its exit statuses
set(FRX_CONFORMANCE_EXE ${FRX_INSTALLED_DIR}/prefix/bin/frx-conformance)
foreach(be openmp opencl)
  foreach(suite datamodel kernels reduce)
    set(name conformance-installed-${be}-${suite})
    add_test(NAME ${name} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/own-tmpdir.sh
      ${FRX_CONFORMANCE_EXE} ${be} ${suite})
    set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED frx-installed
      SKIP_RETURN_CODE 77 TIMEOUT 600 ENVIRONMENT "${FRX_INSTALLED_ENV}")
  endforeach()
endforeach()
add_test(NAME conformance-installed-outside-plugin COMMAND sh
  ${CMAKE_CURRENT_SOURCE_DIR}/own-tmpdir.sh ${FRX_CONFORMANCE_EXE} fakegpu
  datamodel kernels)
set_tests_properties(conformance-installed-outside-plugin PROPERTIES
  FIXTURES_REQUIRED frx-installed TIMEOUT 600 ENVIRONMENT
  "${FRX_INSTALLED_ENV};FRX_PLUGIN_PATH=${CMAKE_CURRENT_BINARY_DIR}/fakegpu")
add_test(NAME conformance-installed-exit-status COMMAND sh
  ${CMAKE_CURRENT_SOURCE_DIR}/cli/conformance.sh ${FRX_INSTALLED_DIR}/prefix
  ${FRX_FIXTURE_DIR})
set_tests_properties(conformance-installed-exit-status PROPERTIES
  FIXTURES_REQUIRED frx-installed TIMEOUT 120
  ENVIRONMENT "${FRX_INSTALLED_ENV}")

# What the installed frx loads: every library has a licence in
# docs/dependencies.md, and none is GPL alone (cli/licences.sh); and the
# check refuses a GPL library and one missing from the table.
foreach(mode check selftest)
  add_test(NAME licences-installed-${mode} COMMAND sh
    ${CMAKE_CURRENT_SOURCE_DIR}/cli/licences.sh ${mode}
    ${FRX_INSTALLED_DIR}/prefix ${PROJECT_SOURCE_DIR}/docs/dependencies.md)
  set_tests_properties(licences-installed-${mode} PROPERTIES
    FIXTURES_REQUIRED frx-installed TIMEOUT 120
    ENVIRONMENT "${FRX_INSTALLED_ENV}")
endforeach()

# Every source file carries its SPDX licence line (LICENSE).
add_test(NAME licences-spdx COMMAND sh
  ${CMAKE_CURRENT_SOURCE_DIR}/cli/spdx.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(licences-spdx PROPERTIES ENVIRONMENT "${FRX_TEST_ENV}")

# Every command of README.md's "Using frx", in order, as a user runs it
# (cli/readme.sh).
add_test(NAME readme-commands COMMAND sh
  ${CMAKE_CURRENT_SOURCE_DIR}/cli/readme.sh ${PROJECT_SOURCE_DIR}
  ${CMAKE_BINARY_DIR})
set_tests_properties(readme-commands PROPERTIES TIMEOUT 600
  ENVIRONMENT "${FRX_MPI_TEST_ENV}")

# Pictures (output.png, frx plot) read back: test_picture.c and
# cli/picture.sh say what they check.
frx_check_test(test_picture test_picture.c)
target_link_libraries(test_picture PRIVATE PkgConfig::LIBPNG)
add_dependencies(test_picture frx-advection)
add_test(NAME picture-read-back COMMAND sh
  ${CMAKE_CURRENT_SOURCE_DIR}/cli/picture.sh ${MPIEXEC_EXECUTABLE}
  $<TARGET_FILE:frx-cli> $<TARGET_FILE:test_picture>)
set_tests_properties(picture-read-back PROPERTIES TIMEOUT 300
  ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")

# The FR SDK from outside: examples/physics-shallow-water, built against
# the installed prefix by installed-prefix, run by the installed frx
# (cli/shallow-water.sh): a lake at rest stays at rest to round-off (2
# and 3 ranks openmp, 1 and 2 ranks opencl), and the manufactured
# solution converges at order >= p + 0.8 for p = 1..4.
set(FRX_SW_RUN sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/shallow-water.sh)
set(FRX_SW_ARGS ${MPIEXEC_EXECUTABLE} ${FRX_INSTALLED_DIR}/prefix
  ${FRX_INSTALLED_DIR}/sw ${PROJECT_SOURCE_DIR}/examples/physics-shallow-water)
foreach(run "2 openmp" "3 openmp" "1 opencl" "2 opencl")
  string(REPLACE " " ";" run "${run}")
  list(GET run 0 np)
  list(GET run 1 be)
  add_test(NAME sdk-shallow-water-lake-${be}-np${np} COMMAND ${FRX_SW_RUN}
    lake ${FRX_SW_ARGS} ${np} ${be})
  set_tests_properties(sdk-shallow-water-lake-${be}-np${np} PROPERTIES
    FIXTURES_REQUIRED frx-installed TIMEOUT 300 SKIP_RETURN_CODE 77
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endforeach()
foreach(run "1 8 16" "2 16 32" "3 12 24" "4 12 24")
  string(REPLACE " " ";" run "${run}")
  list(GET run 0 p)
  add_test(NAME sdk-shallow-water-converge-p${p} COMMAND ${FRX_SW_RUN}
    converge ${FRX_SW_ARGS} ${run})
  set_tests_properties(sdk-shallow-water-converge-p${p} PROPERTIES
    FIXTURES_REQUIRED frx-installed TIMEOUT 300
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endforeach()
