/* SPDX-License-Identifier: BSD-3-Clause */
/* The backend object as every layer sees it: its name, precision and
 * chunk width, its statistics, waiting for its device, and its name in
 * messages. Starting and stopping one is backend/start.c's. */
#include "data/data-impl.h"

#include <stdio.h>

const char *frx_backend_name(const frx_backend *be) { return be->name; }
int frx_backend_precision(const frx_backend *be) { return be->precision; }
size_t frx_backend_fpsize(const frx_backend *be) { return be->fpsize; }
size_t frx_backend_soasz(const frx_backend *be) { return be->info.soasz; }
size_t frx_backend_parts(const frx_backend *be)
{
    return be->info.parts > 1 ? be->info.parts : 1;
}
size_t frx_backend_alignment(const frx_backend *be)
{
    return be->info.alignment;
}

int frx_backend_sync(frx_backend *be)
{
    return FRX__OPS_HAS(be->ops, sync) ? be->ops->sync(be->state) : FRX_OK;
}

const char *frx__backend_desc(const frx_backend *be, char *buf, size_t n)
{
    snprintf(buf, n, "backend '%s' (%s precision)", be->name,
             be->precision == FRX_SINGLE ? "single" : "double");
    return buf;
}

void frx_backend_get_stats(const frx_backend *be, frx_backend_stats *out)
{
    *out = be->stats;
    out->events = FRX__OPS_HAS(be->ops, events_made)
                      ? be->ops->events_made(be->state) : 0;
}
