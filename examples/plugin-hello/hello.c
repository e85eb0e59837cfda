/* SPDX-License-Identifier: BSD-3-Clause */
/* A solver plugin in one file: its descriptor and the schema of the
 * solver.* keys it takes. Built against the installed SDK only. */
#include <frx/plugin.h>

static const frx_option hello_options[] = {
    {.key = "greeting", .type = FRX_OPT_STRING, .def = "hello",
     .help = "what to say"},
    {0}};

static const frx_solver_ops hello_ops = {
    .size = sizeof(frx_solver_ops),
    .options = hello_options,
};

static const frx_plugin_desc hello_desc = {
    FRX_PLUGIN_DESC_INIT(FRX_PLUGIN_SOLVER, "hello", "1.0.0",
                         "an example solver plugin built out of tree"),
    .solver = &hello_ops,
};

FRX_PLUGIN_DEFINE(hello_desc)
