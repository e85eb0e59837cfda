/* SPDX-License-Identifier: BSD-3-Clause */
/* frx cache: the per-user disk cache of compiled kernels and product
 * choices (cache.c; frx_cache_fetch and friends are public, plugin.h).
 * Uses base. Never installed. */
#ifndef FRX_CACHE_IMPL_H
#define FRX_CACHE_IMPL_H

#include "base/base-impl.h"

/* The cache directory in use (created 0700 if absent) or an error. */
int frx__cache_dir(char *buf, size_t n);
/* The valid entry of frx_cache_fetch's key, if there is one (*found),
 * read without waiting for its lock and never built; FRX_CACHE=off finds
 * none. */
int frx__cache_peek(const char *const *parts, size_t nparts,
                    const char *suffix, frx_cache_entry *out, int *found);

#endif
