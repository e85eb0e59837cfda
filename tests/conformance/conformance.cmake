# SPDX-License-Identifier: BSD-3-Clause
# frx-conformance (installed to bin/): the conformance suites of
# test_datamodel.c, test_kernels.c and test_reduce.c in one program, for
# a backend plugin built outside this tree. Each suite's source is
# compiled once more with its main renamed; conformance/main.c runs them.
set(FRX_CONFORMANCE_SUITES datamodel kernels reduce)
set(FRX_CONFORMANCE_OBJECTS)
foreach(suite IN LISTS FRX_CONFORMANCE_SUITES)
  add_library(frx-conformance-${suite} OBJECT
    ${CMAKE_CURRENT_SOURCE_DIR}/test_${suite}.c)
  target_compile_definitions(frx-conformance-${suite} PRIVATE
    main=frx_conformance_${suite})
  target_link_libraries(frx-conformance-${suite} PRIVATE frx PkgConfig::CHECK)
  frx_target_defaults(frx-conformance-${suite})
  list(APPEND FRX_CONFORMANCE_OBJECTS $<TARGET_OBJECTS:frx-conformance-${suite}>)
endforeach()

# Its data (a kernel body in a file) under share/, found from bin/; the
# build tree mirrors the install tree.
set(FRX_CONFORMANCE_DATA_DIR ${CMAKE_INSTALL_DATADIR}/frx/conformance)
file(RELATIVE_PATH FRX_CONFORMANCE_DATA_REL ${CMAKE_INSTALL_FULL_BINDIR}
  ${CMAKE_INSTALL_FULL_DATADIR}/frx/conformance)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/data/kernels/scale.c
  ${CMAKE_BINARY_DIR}/${FRX_CONFORMANCE_DATA_DIR}/kernels/scale.c COPYONLY)

add_executable(frx-conformance ${CMAKE_CURRENT_SOURCE_DIR}/conformance/main.c
  ${CMAKE_CURRENT_SOURCE_DIR}/testutil.c ${FRX_CONFORMANCE_OBJECTS})
target_compile_definitions(frx-conformance PRIVATE
  FRX_CONFORMANCE_DATA_REL="${FRX_CONFORMANCE_DATA_REL}")
target_link_libraries(frx-conformance PRIVATE frx PkgConfig::CHECK m)
frx_target_defaults(frx-conformance)
install(TARGETS frx-conformance RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/data/kernels/scale.c
  DESTINATION ${FRX_CONFORMANCE_DATA_DIR}/kernels)
