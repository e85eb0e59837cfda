/* SPDX-License-Identifier: BSD-3-Clause */
/* frx plugin: finding, checking and loading plugin files (loader.c; the
 * frx_plugin_* functions are public, plugin.h). Uses config (the case's
 * plugins.path) and base. Never installed. */
#ifndef FRX_PLUGIN_IMPL_H
#define FRX_PLUGIN_IMPL_H

#include "config/config-impl.h"

/* The directory holding libfrx itself ("" if unknown). */
const char *frx__libdir(void);
/* frx_plugin_foreach; probe: load each new file in a child process
 * first, so a plugin that crashes while loading is named and skipped
 * (for listings; not once MPI runs). */
int frx__plugin_foreach(const frx_config *cfg, frx_plugin_visit_fn fn,
                        void *ud, int probe);
/* Is there a file frx-<name>.so along the search path? Opens nothing. */
int frx__plugin_exists(const frx_config *cfg, const char *name);

#endif
