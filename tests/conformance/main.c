/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-conformance: frx's conformance suites (data model, kernels,
 * reductions) run against one backend plugin, for third parties who
 * test a backend outside frx's tree. The suites are the test programs'
 * own sources (tests/test_datamodel.c, test_kernels.c, test_reduce.c),
 * compiled with their main renamed to frx_conformance_<suite>.
 *
 * Each suite runs its tests once per precision. The disk cache is a
 * private temporary directory (the kernel suite's cache tests damage
 * the entries they find); the suites' data lives in
 * ../share/frx/conformance beside this program. */
#include <frx/frx.h>
#include <frx/plugin.h>

#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FRX_CONFORMANCE_DATA_REL
#define FRX_CONFORMANCE_DATA_REL "../share/frx/conformance"
#endif

int frx_conformance_datamodel(int argc, char **argv);
int frx_conformance_kernels(int argc, char **argv);
int frx_conformance_reduce(int argc, char **argv);

static const struct suite {
    const char *name, *what;
    int (*run)(int argc, char **argv);
} suites[] = {
    {"datamodel", "matrices, slices, views, packs, xchg matrices",
     frx_conformance_datamodel},
    {"kernels", "generated kernels, binding, disk cache, graphs",
     frx_conformance_kernels},
    {"reduce", "reductions and host nodes", frx_conformance_reduce},
};
#define NSUITES (sizeof suites / sizeof suites[0])

static const char usage[] =
    "usage: frx-conformance BACKEND [SUITE...]\n"
    "\n"
    "Runs frx's conformance suites against the backend plugin\n"
    "frx-BACKEND.so, found along FRX_PLUGIN_PATH, then beside libfrx.\n"
    "Every suite runs in single and in double precision. SUITE is one of\n"
    "datamodel, kernels, reduce (default: all three).\n"
    "\n"
    "Exit status: 0 every test passed; 1 a test failed; 77 the backend\n"
    "cannot start here (the reason is printed); 2 misuse, or no backend\n"
    "plugin of that name.\n"
    "\n"
    "Kernels are cached in a private temporary directory (under TMPDIR),\n"
    "removed at the end. FRX_TEST_DATA overrides where the suites' data\n"
    "is looked for. Check's CK_RUN_CASE and CK_VERBOSITY apply.\n";

static char cache_dir[PATH_MAX];

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_cache(void)
{
    if (cache_dir[0])
        nftw(cache_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The environment the suites expect: a cache of their own and the
 * directory of their data. */
static int environment(const char *exe)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(cache_dir, sizeof cache_dir, "%s/frx-conformance.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(cache_dir)) {
        perror("frx-conformance: a temporary cache directory");
        cache_dir[0] = 0;
        return 1;
    }
    atexit(remove_cache);
    setenv("FRX_CACHE_DIR", cache_dir, 1);
    if (!getenv("FRX_TEST_DATA")) {
        char dir[PATH_MAX], data[PATH_MAX + 64];
        snprintf(dir, sizeof dir, "%s", exe);
        snprintf(data, sizeof data, "%s/%s", dirname(dir),
                 FRX_CONFORMANCE_DATA_REL);
        setenv("FRX_TEST_DATA", data, 1);
    }
    return 0;
}

/* A backend plugin of that name along the search path, or why not. */
static int find_backend(const char *name)
{
    frx_plugin *p;
    if (frx_plugin_find(NULL, name, &p) != FRX_OK) {
        fprintf(stderr, "frx-conformance: %s\n", frx_errmsg());
        return 2;
    }
    if (frx_plugin_descriptor(p)->kind != FRX_PLUGIN_BACKEND) {
        fprintf(stderr, "frx-conformance: %s is not a backend plugin\n",
                frx_plugin_path(p));
        return 2;
    }
    printf("frx-conformance: backend '%s' from %s\n", name,
           frx_plugin_path(p));
    return 0;
}

static const struct suite *suite_named(const char *name)
{
    for (size_t i = 0; i < NSUITES; i++)
        if (strcmp(suites[i].name, name) == 0)
            return &suites[i];
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        int help = argc >= 2 && (!strcmp(argv[1], "--help") ||
                                 !strcmp(argv[1], "-h"));
        fputs(usage, help ? stdout : stderr);
        return help ? 0 : 2;
    }
    /* the absolute path: the kernel suite runs this program again, as
     * "BACKEND --child PRECISION TAG", to test the cache across
     * processes (it inherits the cache directory) */
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        perror("frx-conformance: /proc/self/exe");
        return 1;
    }
    exe[len] = 0;
    argv[0] = exe;
    if (argc == 5 && strcmp(argv[2], "--child") == 0)
        return frx_conformance_kernels(argc, argv);

    const struct suite *run[NSUITES];
    size_t nrun = 0;
    for (int i = 2; i < argc; i++) {
        const struct suite *s = suite_named(argv[i]);
        if (!s || nrun == NSUITES) {
            fprintf(stderr, "frx-conformance: unknown suite '%s'\n\n%s",
                    argv[i], usage);
            return 2;
        }
        run[nrun++] = s;
    }
    for (size_t i = 0; nrun == 0 && i < NSUITES; i++)
        run[i] = &suites[i];
    nrun = nrun ? nrun : NSUITES;
    int rc = find_backend(argv[1]);
    if (rc || (rc = environment(exe)))
        return rc;

    int failed = 0;
    for (size_t i = 0; i < nrun; i++) {
        printf("frx-conformance: suite %s (%s)\n", run[i]->name,
               run[i]->what);
        fflush(stdout);
        char *args[] = {exe, argv[1], NULL};
        /* a backend that cannot start exits 77 from inside the suite */
        int src = run[i]->run(2, args);
        printf("frx-conformance: suite %s %s\n", run[i]->name,
               src ? "FAILED" : "passed");
        failed += src != 0;
    }
    printf("frx-conformance: backend '%s': %zu of %zu suite(s) passed\n",
           argv[1], nrun - (size_t)failed, nrun);
    return failed ? 1 : 0;
}
