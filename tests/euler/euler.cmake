# The Euler solver plugin: its physics' kernel macros on every backend.
frx_check_test(test_euler_physics euler/test_euler_physics.c testutil.c
  ${PROJECT_SOURCE_DIR}/plugins/solvers/euler/physics.c)
target_include_directories(test_euler_physics PRIVATE
  ${PROJECT_SOURCE_DIR}/plugins/solvers/euler)
foreach(be IN LISTS FRX_TEST_BACKENDS)
  add_test(NAME euler-physics-${be} COMMAND test_euler_physics ${be})
  set_tests_properties(euler-physics-${be} PROPERTIES
    SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${FRX_TEST_ENV}")
endforeach()

# The vortex through `frx run` (tests/euler/vortex.sh): PyFR's case from
# its own mesh (skipped where the peer cases are absent) within 2% of
# PyFR's density error, on 1 and 2 ranks.
set(FRX_VORTEX_SH ${CMAKE_CURRENT_SOURCE_DIR}/euler/vortex.sh)
foreach(np 1 2)
  add_test(NAME euler-vortex-pyfr-np${np} COMMAND sh ${FRX_VORTEX_SH} pyfr
    ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli>
    ${PROJECT_SOURCE_DIR}/config/euler-vortex.yaml ${FRX_PYFR_VORTEX_MSH} ${np})
  set_tests_properties(euler-vortex-pyfr-np${np} PROPERTIES TIMEOUT 300
    SKIP_RETURN_CODE 77 ENVIRONMENT "${FRX_TEST_ENV}")
endforeach()

# The fields of a case: the vortex as expressions, bad cases refused.
frx_check_test(test_euler_fields euler/test_euler_fields.c
  ${PROJECT_SOURCE_DIR}/plugins/solvers/euler/fields.c)
target_include_directories(test_euler_fields PRIVATE
  ${PROJECT_SOURCE_DIR}/plugins/solvers/euler)
target_link_libraries(test_euler_fields PRIVATE frx-fr-common)
add_test(NAME euler-fields COMMAND test_euler_fields)
set_tests_properties(euler-fields PROPERTIES ENVIRONMENT "${FRX_TEST_ENV}")
