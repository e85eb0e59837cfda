/* SPDX-License-Identifier: BSD-3-Clause */
/* frx graph: graphs of kernels, products, packs, unpacks and host nodes,
 * ordered once at commit and replayed (graph.c). The host nodes below
 * are how comm/ adds MPI requests. Uses product and what it uses. Never
 * installed. */
#ifndef FRX_GRAPH_IMPL_H
#define FRX_GRAPH_IMPL_H

#include "product/product-impl.h"

/* Graph nodes that run host code (MPI requests). FRX__PRIO_FIRST nodes
 * run as soon as they are ready (receives); FRX__PRIO_FEEDS_MPI nodes
 * and all upstream of them run before other ready nodes (packs, sends). */
enum { FRX__PRIO_FIRST = 1, FRX__PRIO_FEEDS_MPI = 2 };
typedef int (*frx__host_fn)(void *ud);
int frx__graph_add_host(frx_graph *g, frx__host_fn fn, void *ud, int prio,
                        const frx__access *acc, size_t nacc, const int *deps,
                        size_t ndeps, int *node);
/* What frx_graph_run calls when a node fails (MPI nodes: end the job,
 * since peers wait on this rank); fn need not return. */
void frx__graph_on_failure(frx_graph *g, void (*fn)(void *ud, int rc),
                           void *ud);
/* A host node holds a reference on obj, the caller's to take once this
 * returns FRX_OK, and release(obj) drops it when the graph goes (an
 * exchange's node holds its comm, as a kernel node holds its kernel).
 * One object a node. */
int frx__graph_hold(frx_graph *g, int node, void *obj,
                    void (*release)(void *obj));
/* A host node's function run once, when its graph is committed. */
int frx__graph_set_prepare(frx_graph *g, int node, frx__host_fn fn);
/* a host node's kind and name in the profile (enum frx__prof_kind) */
int frx__graph_set_label(frx_graph *g, int node, int kind,
                         const char *label);

#endif
