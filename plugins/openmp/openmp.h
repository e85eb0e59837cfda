/* openmp backend: what its files share. */
#ifndef FRX_OPENMP_H
#define FRX_OPENMP_H

#include <frx/plugin.h>

struct omp_state {
    int precision;
    const char *cc, *cflags; /* from backend.openmp, owned by the config */
    long threads;
    char cc_id[256];         /* `cc --version`, read once */
};

int frx_openmp_pack(void *state, const frx_pack_args *a);
int frx_openmp_kernel_compile(void *state, const frx_kernel_src *src,
                              void **prog, int *compiled);
int frx_openmp_kernel_launch(void *state, void *prog, const frx_launch *l);
void frx_openmp_kernel_free(void *state, void *prog);
const char *frx_openmp_compiler_id(struct omp_state *s);
int frx_openmp_unpack(void *state, const frx_pack_args *a);

#endif
