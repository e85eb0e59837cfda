# SPDX-License-Identifier: BSD-3-Clause
# `frx config ...` as a user runs it. Included from tests/cli/tests.cmake.
set(FRX_CFG_DATA ${PROJECT_SOURCE_DIR}/tests/data/config)

# Good cases.
frx_cli_test(config-check-ok 0 ": ok"
  config check ${PROJECT_SOURCE_DIR}/config/demo.yaml)
frx_cli_test(config-check-full 0 "full.yaml: ok"
  config check ${FRX_CFG_DATA}/full.yaml)
set_tests_properties(cli-config-check-full PROPERTIES ENVIRONMENT
  "${FRX_TEST_ENV};FRX_PLUGIN_PATH=${FRX_FIXTURE_DIR}")

# Bad cases: file:line:col messages, a summary line, exit status 1.
frx_cli_test(config-check-unknown-key 1
  "bad-key.yaml:4:3: unknown key 'precison' in 'backend' [(]did you mean 'precision'[?][)]"
  config check ${FRX_CFG_DATA}/bad-key.yaml)
frx_cli_test(config-check-missing-key 1
  "bad-key.yaml:2:1: missing required key 'precision' in 'backend' [(]single or double[)]"
  config check ${FRX_CFG_DATA}/bad-key.yaml)
frx_cli_test(config-check-summary 1
  "frx: .*bad-key.yaml has 2 errors. see config/README.md for every key"
  config check ${FRX_CFG_DATA}/bad-key.yaml)
frx_cli_test(config-check-every-error 1
  "bad-many.yaml:8:10: 'demo.neles' must be an integer, got 'lots'"
  config check ${FRX_CFG_DATA}/bad-many.yaml)
frx_cli_test(config-check-every-error-count 1 "bad-many.yaml has 6 errors"
  config check ${FRX_CFG_DATA}/bad-many.yaml)
frx_cli_test(config-check-syntax 1
  "bad-syntax.yaml:4:9: syntax error: mapping values are not allowed in this context"
  config check ${FRX_CFG_DATA}/bad-syntax.yaml)
frx_cli_test(config-check-empty 1
  "empty.yaml: the file is empty: a case needs at least 'backend.precision'"
  config check ${FRX_CFG_DATA}/empty.yaml)
frx_cli_test(config-check-no-such-file 1
  "no-such-case.yaml: cannot open the case file: No such file or directory"
  config check ${FRX_CFG_DATA}/no-such-case.yaml)
# With a solver, the time loop's settings as frx run reads them.
frx_cli_test(config-check-no-time 1
  "no-time.yaml:1:1: missing required key 't-end' in 'time' [(]or 'steps'[)]"
  config check ${FRX_CFG_DATA}/no-time.yaml)
frx_cli_test(config-check-dt-and-cfl 1
  "bad-time.yaml:6:31: 'time.cfl' and time.dt are both set: give one"
  config check ${FRX_CFG_DATA}/bad-time.yaml)
frx_cli_test(config-check-solver-name-path 1
  "bad-solver-name.yaml:3:16: solver.name: bad plugin name '../lee': a name such as openmp or lee"
  config check ${FRX_CFG_DATA}/bad-solver-name.yaml)
frx_cli_test(config-check-solver-name-reserved 1
  "reserved-solver-name.yaml:3:16: solver.name: bad plugin name 'frx': the name of frx's own kernels"
  config check ${FRX_CFG_DATA}/reserved-solver-name.yaml)
frx_cli_test(config-check-solver-name-empty 1
  "empty-solver-name.yaml has 1 error"
  config check ${FRX_CFG_DATA}/empty-solver-name.yaml)
frx_cli_test(config-check-output-name 1
  "bad-output.yaml:6:33: 'output.name' must be a file name stem without '/'.*got 'a/b'"
  config check ${FRX_CFG_DATA}/bad-output.yaml)
set_tests_properties(cli-config-check-no-time cli-config-check-dt-and-cfl
  cli-config-check-output-name PROPERTIES ENVIRONMENT "${FRX_TEST_ENV};FRX_PLUGIN_PATH=${FRX_FIXTURE_DIR}")
# One bad file among good ones fails the whole command.
frx_cli_test(config-check-several 1 "demo.yaml: ok"
  config check ${PROJECT_SOURCE_DIR}/config/demo.yaml ${FRX_CFG_DATA}/bad-key.yaml)

# Usage.
frx_cli_test(config-help 0 "usage: frx config check FILE" config --help)
frx_cli_test(config-check-help 0 "usage: frx config check FILE" config check --help)
frx_cli_test(config-no-args 2 "usage: frx config check FILE" config)
frx_cli_test(config-check-no-file 2 "frx config check: which file[?]" config check)
frx_cli_test(config-unknown-command 2 "frx config: unknown command 'chek'" config chek)

# backend.rules: each item needs hosts or ranks, readable ranges, a
# known backend and known keys.
frx_cli_test(config-check-rules 1
  "bad-rules.yaml:5:14: 'backend.rules.ranks': cannot read rank ranges '3-1'"
  config check ${CMAKE_CURRENT_SOURCE_DIR}/data/config/bad-rules.yaml)
frx_cli_test(config-check-rules-no-match 1
  "bad-rules.yaml:7:7: an item of 'backend.rules' needs 'hosts' or 'ranks'"
  config check ${CMAKE_CURRENT_SOURCE_DIR}/data/config/bad-rules.yaml)
frx_cli_test(config-check-rules-name 1
  "bad-rules.yaml:9:13: 'backend.rules.name' must be one of: .*got 'cdua' \\(did you mean 'cuda'\\?\\)"
  config check ${CMAKE_CURRENT_SOURCE_DIR}/data/config/bad-rules.yaml)
frx_cli_test(config-check-rules-key 1
  "bad-rules.yaml:10:7: unknown key 'devcie' in 'backend.rules' \\(did you mean 'device'\\?\\)"
  config check ${CMAKE_CURRENT_SOURCE_DIR}/data/config/bad-rules.yaml)

# mesh.*: what the schema cannot see is checked too
frx_cli_test(config-check-mesh-lengths 1
  "bad-mesh.yaml:6:10: 'mesh.lower' has 2 value[(]s[)] but 'mesh.n' has 3: give one per direction"
  config check ${FRX_CFG_DATA}/bad-mesh.yaml)
frx_cli_test(config-check-mesh-count 1 "bad-mesh.yaml has 2 errors"
  config check ${FRX_CFG_DATA}/bad-mesh.yaml)
