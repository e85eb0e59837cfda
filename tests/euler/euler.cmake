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
