# SPDX-License-Identifier: BSD-3-Clause
# The layout of the tree (core/src/README.md): includes and calls go
# down core/src/layers.txt and plugins/layers.txt. `layout` checks the
# sources and the object files of libfrx, the frx program and each
# plugin; `layout-catches-mistakes` checks that the check catches a
# wrong include, a vendor header out of its plugin and a call into an
# upper folder, on a copy of the tree.
add_executable(layout layout/layout.c)
frx_target_defaults(layout)

set(FRX_LAYOUT_TARGETS frx frx-cli frx-openmp frx-opencl frx-gpu-common
  frx-cuda frx-hip frx-fr frx-advection frx-euler frx-lee)
set(objects "")
foreach(t IN LISTS FRX_LAYOUT_TARGETS)
  if(TARGET ${t})
    string(APPEND objects "${t} $<JOIN:$<TARGET_OBJECTS:${t}>,\n${t} >\n")
  endif()
endforeach()
file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/layout-objects.txt
  CONTENT "${objects}")

add_test(NAME layout COMMAND layout ${PROJECT_SOURCE_DIR}
  --objects ${CMAKE_CURRENT_BINARY_DIR}/layout-objects.txt)
add_test(NAME layout-catches-mistakes COMMAND sh
  ${CMAKE_CURRENT_SOURCE_DIR}/layout/wrong-include.sh $<TARGET_FILE:layout>
  ${PROJECT_SOURCE_DIR} ${CMAKE_C_COMPILER})
set_tests_properties(layout layout-catches-mistakes PROPERTIES
  ENVIRONMENT "${FRX_TEST_ENV}")
