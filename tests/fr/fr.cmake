# Unit tests of frx-fr-common, the host-side FR numerics.
foreach(t poly element geometry vis expr)
  frx_check_test(test_fr_${t} fr/test_fr_${t}.c)
  target_link_libraries(test_fr_${t} PRIVATE frx-fr-common LAPACK::LAPACK)
  add_test(NAME fr-${t} COMMAND test_fr_${t})
  set_tests_properties(fr-${t} PROPERTIES ENVIRONMENT "${FRX_TEST_ENV}")
endforeach()

# PNG pictures: serial, and gathered from 2 and 3 ranks under mpirun.
frx_check_test(test_fr_png fr/test_fr_png.c)
target_link_libraries(test_fr_png PRIVATE frx-fr-common PkgConfig::LIBPNG)
add_test(NAME fr-png COMMAND ${FRX_MPIRUN} 1 $<TARGET_FILE:test_fr_png>)
foreach(np 2 3)
  add_test(NAME fr-png-np${np}
    COMMAND ${FRX_MPIRUN} ${np} $<TARGET_FILE:test_fr_png>)
endforeach()
set_tests_properties(fr-png fr-png-np2 fr-png-np3 PROPERTIES TIMEOUT 60
  ENVIRONMENT "${FRX_MPI_TEST_ENV}")

# The advection solver plugin on the FR system, under mpirun: the
# convergence orders (openmp; the finer meshes under the label `long`),
# the solution on 1 to 4 ranks, on opencl and on openmp + opencl (rank 1
# on opencl, weight 2) against 1 rank on openmp, and the refusals.
frx_check_test(test_advection fr/test_advection.c testutil.c)
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
add_test(NAME fr-advection-long-openmp-np2 COMMAND ${FRX_MPIRUN} 2
  $<TARGET_FILE:test_advection> openmp long)
set_tests_properties(fr-advection-long-openmp-np2 PROPERTIES LABELS long
  TIMEOUT 1200 ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
