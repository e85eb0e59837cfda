/* openmp backend: what its files share. */
#ifndef FRX_OPENMP_H
#define FRX_OPENMP_H

#include <frx/plugin.h>

int frx_openmp_pack(void *state, const frx_pack_args *a);
int frx_openmp_unpack(void *state, const frx_pack_args *a);

#endif
