# SPDX-License-Identifier: BSD-3-Clause
# Unit tests of frx-fr (libfrx-fr), the host-side FR numerics.
foreach(t poly element geometry vis expr)
  frx_check_test(test_fr_${t} fr/test_fr_${t}.c)
  target_link_libraries(test_fr_${t} PRIVATE frx-fr LAPACK::LAPACK)
  add_test(NAME fr-${t} COMMAND test_fr_${t})
  set_tests_properties(fr-${t} PROPERTIES ENVIRONMENT "${FRX_TEST_ENV}")
endforeach()
# the element test checks the library's own inverse (fr__inverse, which
# libfrx-fr does not export) against LAPACK and the pyramid's modes
# (fr__pyr_basis): its own copies of linalg.c and pkd.c
target_sources(test_fr_element PRIVATE
  ${PROJECT_SOURCE_DIR}/plugins/solvers/fr/linalg.c
  ${PROJECT_SOURCE_DIR}/plugins/solvers/fr/pkd.c)
target_include_directories(test_fr_element PRIVATE
  ${PROJECT_SOURCE_DIR}/plugins/solvers/fr)

# Expressions as kernels on every backend and precision: each function
# against C's math library, in ulps (fr/test_fr_expr_kernels.c). On
# fakegpu (CUDA compiled as C) with a cache of its own, keeping every
# source for the gpu-compile-solvers-* tests (NVRTC, hiprtc).
frx_check_test(test_fr_expr_kernels fr/test_fr_expr_kernels.c testutil.c)
target_link_libraries(test_fr_expr_kernels PRIVATE frx-fr)
foreach(be IN LISTS FRX_TEST_BACKENDS)
  add_test(NAME fr-expr-kernels-${be} COMMAND test_fr_expr_kernels ${be})
  set_tests_properties(fr-expr-kernels-${be} PROPERTIES SKIP_RETURN_CODE 77
    TIMEOUT 600 ENVIRONMENT "${FRX_TEST_ENV}")
endforeach()
set(FRX_EXPR_FAKEGPU_CACHE ${CMAKE_CURRENT_BINARY_DIR}/expr-kernels-cache)
add_test(NAME fr-expr-kernels-fakegpu COMMAND sh -c
  "rm -rf \"$0\" \"$1\" && mkdir -p \"$1\" && FRX_CACHE_DIR=\"$0\" FRX_FAKEGPU_KEEP_SOURCES=\"$1\" exec \"$2\" fakegpu"
  ${FRX_EXPR_FAKEGPU_CACHE} ${FRX_GPU_SOLVER_SOURCES}/expr-kernels
  $<TARGET_FILE:test_fr_expr_kernels>)
set_tests_properties(fr-expr-kernels-fakegpu PROPERTIES TIMEOUT 600
  FIXTURES_REQUIRED gpu-solver-clean FIXTURES_SETUP gpu-solver-sources
  ENVIRONMENT "${FRX_TEST_ENV};FRX_PLUGIN_PATH=${FRX_FAKEGPU_DIR}")

# The advection solver plugin on the FR system, under mpirun: the
# convergence orders (openmp, 1 rank; on finer meshes, on 2 ranks, with
# -DFRX_LONG_TESTS=ON, label `long`),
# the solution on 1 to 4 ranks, on opencl and on openmp + opencl (rank 1
# on opencl, weight 2) against 1 rank on openmp, and the refusals.
frx_check_test(test_advection fr/test_advection.c fr/mixed_mesh.c testutil.c)
# its mixed meshes as files, for tests that run `frx run` (euler)
add_executable(write-mixed-mesh fr/write_mixed_mesh.c fr/mixed_mesh.c)
frx_target_defaults(write-mixed-mesh)
target_link_libraries(test_advection PRIVATE PkgConfig::HDF5_MPI)
add_dependencies(test_advection frx-advection)
set(advection_runs openmp:1 openmp:2 openmp:3 openmp:4 opencl:1 opencl:2
  openmp+opencl:2 openmp+opencl:3)
foreach(run IN LISTS advection_runs)
  string(REPLACE ":" ";" run ${run})
  list(GET run 0 be)
  list(GET run 1 np)
  add_test(NAME fr-advection-${be}-np${np} COMMAND ${FRX_MPIRUN} ${np}
    $<TARGET_FILE:test_advection> ${be})
  # long enough for a cold kernel cache under the sanitizers (PoCL
  # compiling every product variant the timing tries): about 8 minutes
  set_tests_properties(fr-advection-${be}-np${np} PROPERTIES
    SKIP_RETURN_CODE 77 TIMEOUT 1500
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endforeach()
# the orders on finer meshes, on 2 ranks (FRX_LONG_TESTS)
if(FRX_LONG_TESTS)
  add_test(NAME fr-advection-long-openmp-np2 COMMAND ${FRX_MPIRUN} 2
    $<TARGET_FILE:test_advection> openmp long)
  set_tests_properties(fr-advection-long-openmp-np2 PROPERTIES LABELS long
    TIMEOUT 1200 ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endif()

# The FR SDK's version checks (fr/test_fr_sdk.c), under mpirun.
frx_check_test(test_fr_sdk fr/test_fr_sdk.c testutil.c)
target_link_libraries(test_fr_sdk PRIVATE frx-fr)
add_test(NAME fr-sdk-versions COMMAND ${FRX_MPIRUN} 1 $<TARGET_FILE:test_fr_sdk>)
set_tests_properties(fr-sdk-versions PROPERTIES TIMEOUT 120
  ENVIRONMENT "${FRX_MPI_TEST_ENV}")

# 3-D elements. VTK output through VTK.s own reader (python3-vtk9; skipped
# where it is not installed)
find_program(FRX_SYSTEM_PYTHON3_FR python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(FRX_SYSTEM_PYTHON3_FR)
  foreach(etype hex tet prism pyramid)
    add_test(NAME fr-advection-${etype}-vtk COMMAND ${FRX_OWN_TMPDIR} sh
      ${CMAKE_CURRENT_SOURCE_DIR}/fr/vtk3d.sh ${FRX_SYSTEM_PYTHON3_FR}
      ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli> ${etype})
    set_tests_properties(fr-advection-${etype}-vtk PROPERTIES SKIP_RETURN_CODE 77
      TIMEOUT 120 ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
  endforeach()
endif()
