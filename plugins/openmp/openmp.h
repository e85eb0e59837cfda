/* openmp backend: what its files share. */
#ifndef FRX_OPENMP_H
#define FRX_OPENMP_H

#include <frx/plugin.h>

struct omp_state {
    int precision;
    const char *cc, *cflags; /* from backend.openmp, owned by the config */
    char **cflag_words;      /* cflags split into words (spawn.c) */
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

/* spawn.c: the compiler's command line, run without a shell. */
int frx_openmp_split_words(const char *text, char ***words, char *bad);
void frx_openmp_free_words(char **words);
int frx_openmp_run(char *const argv[], char **out);
void frx_openmp_show(char *const argv[], char *buf, size_t n);

#endif
