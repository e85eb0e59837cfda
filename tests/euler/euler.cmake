# SPDX-License-Identifier: BSD-3-Clause
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
# PyFR's density error, on 1 and 2 ranks, and with dt from time.cfl.
set(FRX_VORTEX_SH ${CMAKE_CURRENT_SOURCE_DIR}/euler/vortex.sh)
foreach(np 1 2 1-cfl)
  add_test(NAME euler-vortex-pyfr-np${np} COMMAND sh ${FRX_VORTEX_SH} pyfr
    ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli>
    ${PROJECT_SOURCE_DIR}/config/euler-vortex.yaml ${FRX_PYFR_VORTEX_MSH} ${np})
  set_tests_properties(euler-vortex-pyfr-np${np} PROPERTIES TIMEOUT 300
    SKIP_RETURN_CODE 77 ENVIRONMENT "${FRX_MPI_TEST_ENV}")
endforeach()

# The fields of a case: the vortex as expressions, bad cases refused.
frx_check_test(test_euler_fields euler/test_euler_fields.c
  ${PROJECT_SOURCE_DIR}/plugins/solvers/euler/fields.c)
target_include_directories(test_euler_fields PRIVATE
  ${PROJECT_SOURCE_DIR}/plugins/solvers/euler)
target_link_libraries(test_euler_fields PRIVATE frx-fr)
add_test(NAME euler-fields COMMAND test_euler_fields)
set_tests_properties(euler-fields PROPERTIES ENVIRONMENT "${FRX_TEST_ENV}")

# Order of accuracy >= p + 0.8 under refinement (20 x 20 to 40 x 40 box
# meshes, t = 0.5; hexahedra, tetrahedra and prisms to t = 0.25, half
# the cost), quadrilaterals, triangles, hexahedra, tetrahedra,
# prisms and pyramids (the vortex extruded along z; pyramids, 6 a cube,
# from 10 x 10 to 20 x 20 at p = 2, 3: 1.76 there at p = 1), HLLC for
# every p and Rusanov (PyFR's case's flux) for p = 3; p + 0.5 at p = 4
# on triangles (vortex.sh says why). Tetrahedra and prisms at p = 4 reach 4.67 and
# 4.75 from 20 to 40 (25 s together), short of p + 0.8 still; the
# density wave below checks p = 4 on them.
foreach(run "1 quad hllc" "2 quad hllc" "3 quad hllc" "4 quad hllc"
            "1 tri hllc" "2 tri hllc" "3 tri hllc" "4 tri hllc"
            "3 quad rusanov" "1 hex hllc" "2 hex hllc" "3 hex hllc"
            "4 hex hllc" "1 tet hllc" "2 tet hllc" "3 tet hllc"
            "1 prism hllc" "2 prism hllc" "3 prism hllc"
            "1 pyramid hllc" "2 pyramid hllc 10 20"
            "3 pyramid hllc 10 20")
  string(REPLACE " " ";" run "${run}")
  list(GET run 0 p)
  list(GET run 1 etype)
  list(GET run 2 rs)
  set(meshes 20 40)
  list(LENGTH run len)
  if(len EQUAL 5)
    list(SUBLIST run 3 2 meshes)
  endif()
  set(name euler-order-p${p}-${etype}-${rs})
  add_test(NAME ${name} COMMAND sh ${FRX_VORTEX_SH} order
    ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli> ${p} ${etype} ${rs} ${meshes})
  set_tests_properties(${name} PROPERTIES TIMEOUT 300
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endforeach()

# The same order on a mixed mesh (tests/fr/mixed_mesh.h: columns of
# hexahedra, prisms, and pyramids with tetrahedra) and, at p = 4, on
# the box's tetrahedra and prisms (where the vortex needs a finer pair
# than the suite affords): a density wave carried across the periodic
# unit cube (vortex.sh wave; docs/euler.md has the orders).
foreach(run "1 mixed 6 12" "2 mixed 5 10" "3 mixed 3 6" "4 mixed 3 6"
            "4 tet 3 6" "4 prism 3 6")
  string(REPLACE " " ";" run "${run}")
  list(GET run 0 p)
  list(GET run 1 etype)
  list(SUBLIST run 2 2 meshes)
  set(name euler-order-p${p}-${etype}-wave)
  add_test(NAME ${name} COMMAND sh ${FRX_VORTEX_SH} wave
    ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli> ${p} ${etype}
    $<TARGET_FILE:write-mixed-mesh> ${meshes})
  set_tests_properties(${name} PROPERTIES TIMEOUT 300
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endforeach()

# 1 rank, 2 ranks and 2 ranks with rank 1 on opencl agree to 1e-12.
foreach(run "3 quad" "2 tri" "2 hex" "2 tet" "2 prism" "2 pyramid")
  string(REPLACE " " ";" run "${run}")
  list(GET run 0 p)
  list(GET run 1 etype)
  set(name euler-ranks-p${p}-${etype})
  add_test(NAME ${name} COMMAND sh ${FRX_VORTEX_SH} ranks
    ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli> ${p} ${etype})
  set_tests_properties(${name} PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
  if(FRX_SANITIZE) # PoCL's compiles under MPI's full unwinding: too slow
    set_tests_properties(${name} PROPERTIES ENVIRONMENT
      "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1;FRX_EULER_NO_MIXED=sanitizers")
  endif()
endforeach()

# A uniform flow through every boundary kind stays uniform (2 ranks).
foreach(etype quad tri hex tet prism pyramid)
  add_test(NAME euler-boundaries-uniform-${etype} COMMAND sh ${FRX_VORTEX_SH}
    uniform ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli> ${etype})
  set_tests_properties(euler-boundaries-uniform-${etype} PROPERTIES
    TIMEOUT 120 ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endforeach()

# The vortex extruded along z on hexahedra: PyFR 1.15's density error on
# the same mesh (bench/vortex3d-pyfr.sh), within 2%, on 1 and 2 ranks.
foreach(np 1 2)
  add_test(NAME euler-vortex-extruded-pyfr-np${np} COMMAND sh ${FRX_VORTEX_SH}
    pyfr3d ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli> ${np})
  set_tests_properties(euler-vortex-extruded-pyfr-np${np} PROPERTIES TIMEOUT 300
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endforeach()

# The inviscid Taylor-Green vortex loses kinetic energy at order >= p + 1
# under refinement (p = 1, 2: 4^3 to 8^3 hexahedra; p = 3, 4: the
# differences between 2^3, 4^3 and 8^3, where the flow's own exchange
# with internal energy cancels).
foreach(p_n0 1:4 2:4 3:2 4:2)
  string(REPLACE ":" ";" p_n0 ${p_n0})
  list(GET p_n0 0 p)
  list(GET p_n0 1 n0)
  add_test(NAME euler-taylor-green-p${p} COMMAND sh ${FRX_VORTEX_SH}
    tgv ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli> ${p} ${n0})
  set_tests_properties(euler-taylor-green-p${p} PROPERTIES TIMEOUT 300
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endforeach()

# The vortex extruded along z on hexahedra equals the 2-D one.
foreach(rs rusanov hllc)
  add_test(NAME euler-vortex-extruded-${rs} COMMAND sh ${FRX_VORTEX_SH}
    extruded ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli> 3 ${rs})
  set_tests_properties(euler-vortex-extruded-${rs} PROPERTIES TIMEOUT 300
    ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
endforeach()

# Values in t: an inflow whose density is an expression in t lets the
# exact wave in (a constant one does not); a source in x, y, t.
foreach(mode inflow source)
  foreach(etype quad tri)
    add_test(NAME euler-${mode}-expression-${etype} COMMAND sh
      ${FRX_VORTEX_SH} ${mode} ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:frx-cli>
      ${etype})
    set_tests_properties(euler-${mode}-expression-${etype} PROPERTIES
      TIMEOUT 300 ENVIRONMENT "${FRX_MPI_TEST_ENV};OMP_NUM_THREADS=1")
  endforeach()
endforeach()

# Bad cases: each stops (at start-up, or for blow-up at its step) with
# its place and what to do.
set(FRX_EULER_DATA ${CMAKE_CURRENT_SOURCE_DIR}/data/euler)
foreach(run
    "no-gamma|no-gamma.yaml:5:14: 'solver.constants' needs gamma"
    "bad-ics|bad-ics.yaml:6:35: unknown key 'w' in 'solver.ics'"
    "bad-boundary|bad-boundary.yaml:8:20: .*no boundary condition 'wall': use one of sup-in-fa, sup-out-fn, slp-adia-wall, char-riem-inv"
    "bad-inflow|bad-inflow.yaml:8:5: .*'sup-in-fa' needs 'p'"
    "negative-density|negative-density.yaml:6:8: solver.ics at \\(0.5[0-9]*, 0.0[0-9]*\\) gives rho = -"
    "negative-free-stream|negative-free-stream.yaml:8:5: solver.boundaries.bottom: the free stream's p is -1 at \\([^)]*\\): rho and p must be positive"
    "blow-up|^  rank 0: euler: the wave speed is NaN or infinite: the solution has blown up \\(lower time.cfl\\)")
  string(FIND "${run}" "|" bar)
  string(SUBSTRING "${run}" 0 ${bar} name)
  math(EXPR bar "${bar} + 1")
  string(SUBSTRING "${run}" ${bar} -1 regex)
  add_test(NAME euler-refuses-${name} COMMAND sh ${FRX_EXPECT} 1 "${regex}"
    ${FRX_EXE} run ${FRX_EULER_DATA}/${name}.yaml)
  set_tests_properties(euler-refuses-${name} PROPERTIES
    ENVIRONMENT "${FRX_MPI_TEST_ENV}")
endforeach()
