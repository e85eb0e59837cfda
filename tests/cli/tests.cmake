# SPDX-License-Identifier: BSD-3-Clause
# Tests of the `frx` program as a user runs it.
set(FRX_EXPECT ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect.sh)
set(FRX_EXE $<TARGET_FILE:frx-cli>)

# frx_cli_test(NAME RC REGEX ARGS...): run `frx ARGS...`.
function(frx_cli_test name rc regex)
  add_test(NAME cli-${name} COMMAND sh ${FRX_EXPECT} ${rc} ${regex} ${FRX_EXE} ${ARGN})
  set_tests_properties(cli-${name} PROPERTIES ENVIRONMENT "${FRX_TEST_ENV}")
endfunction()

include(cli/config.cmake OPTIONAL)
include(cli/plugins.cmake OPTIONAL)
include(cli/run.cmake OPTIONAL)
include(cli/solver.cmake OPTIONAL)
include(cli/mesh.cmake)
include(cli/installed.cmake)

# The installed SDK builds a plugin out of tree (examples/plugin-hello).
add_test(NAME sdk-out-of-tree-plugin
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/sdk.sh ${CMAKE_BINARY_DIR} ${PROJECT_SOURCE_DIR})
set_tests_properties(sdk-out-of-tree-plugin PROPERTIES TIMEOUT 300
  ENVIRONMENT "${FRX_TEST_ENV}")
