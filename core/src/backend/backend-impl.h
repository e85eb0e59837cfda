/* SPDX-License-Identifier: BSD-3-Clause */
/* frx backend: starting a rank's backend from the case (backend.name or
 * the matching backend.rules item, auto by priority, the plugin's
 * options and products) and stopping it (start.c). Uses product, plugin
 * and config, and what they use. Never installed. */
#ifndef FRX_BACKEND_IMPL_H
#define FRX_BACKEND_IMPL_H

#include "product/product-impl.h"

/* frx_backend_create with the rank's place on its node given (-1:
 * unknown), as frx_backend_create_all finds it. */
int frx__backend_create(const frx_config *cfg, int local_rank,
                        frx_backend **out);

#endif
