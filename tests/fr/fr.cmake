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
