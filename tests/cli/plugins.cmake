# SPDX-License-Identifier: BSD-3-Clause
# `frx plugins`: the openmp backend is found beside libfrx with no
# variable set; fixtures show up only when their directory is searched.
frx_cli_test(plugins 0 "backend +openmp .*can start" plugins)
frx_cli_test(plugins-searched 0 "searched: .*/frx" plugins)
frx_cli_test(plugins-help 0 "usage: frx plugins" plugins --help)
frx_cli_test(plugins-bad-arg 1 "unknown argument '--bogus'" plugins --bogus)
frx_cli_test(plugins-config-missing 1 "no-such-case[.]yaml" plugins --config
  ${CMAKE_CURRENT_BINARY_DIR}/no-such-case.yaml)

# Through FRX_PLUGIN_PATH: each kind of status, each on its own line.
frx_cli_test(plugins-env-unavail 0
  "backend +unavail +0[.]1[.]0 +abi [0-9]+[.][0-9]+ +[^ ]*/frx-unavail[.]so +cannot start: libfake[.]so[.]1 not found"
  plugins)
frx_cli_test(plugins-env-unusable 0
  "frx-badabi[.]so +unusable: was built for frx plugin ABI 99[.][0-9]+" plugins)
foreach(t plugins-env-unavail plugins-env-unusable)
  set_property(TEST cli-${t} APPEND PROPERTY ENVIRONMENT
    "FRX_PLUGIN_PATH=${FRX_FIXTURE_DIR}")
endforeach()

# Through plugins.path in a case file (relative to the file).
file(RELATIVE_PATH fixtures_rel ${CMAKE_CURRENT_BINARY_DIR}/plugins-case
  ${FRX_FIXTURE_DIR})
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/plugins-case/case.yaml
  "# written by tests/cli/plugins.cmake\nplugins:\n  path: [${fixtures_rel}]\n")
frx_cli_test(plugins-config 0 "backend +good .*can start" plugins --config
  ${CMAKE_CURRENT_BINARY_DIR}/plugins-case/case.yaml)

# FRX_LOG: any case; an unknown value named once with the valid ones.
add_test(NAME cli-log-env COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/log-env.sh ${FRX_EXE})
set_tests_properties(cli-log-env PROPERTIES ENVIRONMENT "${FRX_TEST_ENV}")

# Plugins that would take the process down as it opens them (a
# constructor that crashes, a file cut short, a build for another
# machine): `frx plugins` and `frx config check`, which open every file,
# name them and go on; `frx run` opens only what its case names; at
# FRX_LOG=debug each file is named before it is loaded.
add_test(NAME cli-plugins-hazards
  COMMAND sh ${FRX_EXPECT} 0
    "frx-crash[.]so +unusable: crashed while being loaded [(](signal 11|it ended the process with exit status 1)"
    --and "frx-truncated[.]so +unusable: is cut short: it has [0-9]+ bytes"
    --and "frx-aarch64[.]so +unusable: was built for aarch64"
    --and "backend +openmp .*can start"
    ${FRX_EXE} plugins)
frx_cli_test(config-check-hazards 0 "demo[.]yaml: ok"
  config check ${PROJECT_SOURCE_DIR}/config/demo.yaml)
frx_cli_test(run-ignores-unused-plugins 0 "received what its neighbour sent: ok"
  run ${PROJECT_SOURCE_DIR}/config/demo.yaml)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/run-crash.yaml
  "# written by tests/cli/plugins.cmake\nbackend:\n  name: crash\n  precision: double\n")
set(crash_rc 139) # SIGSEGV; ASan reports the fault and exits 1
if(FRX_SANITIZE)
  set(crash_rc 1)
endif()
add_test(NAME cli-run-debug-names-plugin-before-loading
  COMMAND sh ${FRX_EXPECT} ${crash_rc} "debug: loading plugin [^ ]*/hazard/frx-crash[.]so"
    ${FRX_EXE} run ${CMAKE_CURRENT_BINARY_DIR}/run-crash.yaml)
set_tests_properties(cli-plugins-hazards cli-config-check-hazards
  cli-run-ignores-unused-plugins cli-run-debug-names-plugin-before-loading
  PROPERTIES ENVIRONMENT
  "${FRX_MPI_TEST_ENV};FRX_PLUGIN_PATH=${FRX_HAZARD_DIR};FRX_LOG=debug;OMP_NUM_THREADS=1")

# The GPU backends say exactly why they cannot start on a machine without
# their driver or device, and that they can where they can.
# (where the dynamic loader would find the driver: its paths, and those
# container runtimes use)
find_library(FRX_LIBCUDA_SO1 NAMES libcuda.so.1
  HINTS ENV LD_LIBRARY_PATH PATHS /usr/local/nvidia/lib64 /usr/lib/wsl/lib)
if(FRX_LIBCUDA_SO1)
  frx_cli_test(plugins-cuda 0 "backend +cuda .*can start: [0-9]+ device" plugins)
else()
  frx_cli_test(plugins-cuda 0
    "backend +cuda .*cannot start: cuda: libcuda[.]so[.]1 not found" plugins)
endif()
if(TARGET frx-hip)
  if(EXISTS /dev/kfd)
    frx_cli_test(plugins-hip 0 "backend +hip .*can start: [0-9]+ device" plugins)
  else()
    frx_cli_test(plugins-hip 0
      "backend +hip .*cannot start: hip: no device \\(hipErrorNoDevice\\)" plugins)
  endif()
endif()
