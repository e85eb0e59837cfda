# SPDX-License-Identifier: BSD-3-Clause
# The navier-stokes solver plugin through `frx run` (navier-stokes/ns.sh
# says what each mode checks).
set(FRX_NS_SH ${CMAKE_CURRENT_SOURCE_DIR}/navier-stokes/ns.sh)

# The steady Couette flow of config/couette.yaml within 2% of PyFR 1.15
# on the same mesh, every variable, p = 1..3, 1 and 2 ranks, and with dt
# from time.cfl (the viscous limit).
foreach(run "1 2" "2 1" "2 2" "3 2" "3 2 cfl")
  string(REPLACE " " ";" run "${run}")
  list(GET run 0 p)
  list(GET run 1 np)
  list(LENGTH run len)
  set(how "")
  set(name navier-stokes-couette-pyfr-p${p}-np${np})
  if(len EQUAL 3)
    set(how cfl)
    set(name ${name}-cfl)
  endif()
  add_test(NAME ${name} COMMAND sh ${FRX_NS_SH} couette ${MPIEXEC_EXECUTABLE}
    $<TARGET_FILE:frx-cli> ${PROJECT_SOURCE_DIR}/config/couette.yaml ${p} ${np}
    ${how})
  set_tests_properties(${name} PROPERTIES TIMEOUT 300
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endforeach()

# Flows that the boundary kinds hold stay uniform to 1e-12.
foreach(etype quad tri hex tet prism)
  add_test(NAME navier-stokes-uniform-${etype} COMMAND sh ${FRX_NS_SH} uniform
    ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli> ${etype})
  set_tests_properties(navier-stokes-uniform-${etype} PROPERTIES TIMEOUT 300
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endforeach()

# 1 to 4 ranks and openmp + opencl agree to 1e-12 (walls, Sutherland's
# law, ldg-beta 0.3, time.cfl).
foreach(run "quad 3" "tri 2" "hex 2" "tet 2")
  string(REPLACE " " ";" run "${run}")
  list(GET run 0 etype)
  list(GET run 1 p)
  set(name navier-stokes-ranks-p${p}-${etype})
  add_test(NAME ${name} COMMAND sh ${FRX_NS_SH} ranks ${MPIEXEC_EXECUTABLE}
    $<TARGET_FILE:frx-cli> ${etype} ${p})
  set_tests_properties(${name} PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
  if(FRX_SANITIZE) # PoCL's compiles under MPI's full unwinding: too slow
    set_tests_properties(${name} PROPERTIES ENVIRONMENT
      "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1;FRX_NS_NO_MIXED=sanitizers")
  endif()
endforeach()

# Bad cases refused, naming the place and what to do.
add_test(NAME navier-stokes-bad COMMAND sh ${FRX_NS_SH} bad
  ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli>)
set_tests_properties(navier-stokes-bad PROPERTIES TIMEOUT 300
  ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
