# Unit tests of frx-fr-common, the host-side FR numerics.
foreach(t poly element geometry vis expr)
  frx_check_test(test_fr_${t} fr/test_fr_${t}.c)
  target_link_libraries(test_fr_${t} PRIVATE frx-fr-common LAPACK::LAPACK)
  add_test(NAME fr-${t} COMMAND test_fr_${t})
  set_tests_properties(fr-${t} PROPERTIES ENVIRONMENT "${FRX_TEST_ENV}")
endforeach()
