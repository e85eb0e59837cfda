/* SPDX-License-Identifier: BSD-3-Clause */
/* The FR SDK's version checks (frx/fr/version.h): fr_system_create
 * refuses a plugin built against another major version, a newer minor
 * version or a physics descriptor of a size no version has, naming both
 * versions, before it reads the descriptor. Under mpirun (1 rank): the
 * system agrees its status over the communicator. */
#include "../testutil.h"

#include <frx/comm.h>
#include <frx/fr/system.h>

#include <check.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static frx_backend *be;
static frx_comm *comm;
static frx_config *cfg;

/* fr_system_create_v as a plugin of version (major, minor) calls it,
 * with a descriptor of `size` bytes that must not be read. */
static int create_as(int major, int minor, size_t size)
{
    frx_solver_init init = {.size = sizeof init, .backend = be,
                            .comm = comm, .config = cfg,
                            .options = frx_cfg_get(frx_config_root(cfg),
                                                   "solver")};
    unsigned char junk[sizeof(fr_physics) + 64];
    memset(junk, 0xff, sizeof junk); /* pointers that crash if read */
    frx_solver_info info = {.size = sizeof info};
    fr_system *s = NULL;
    int rc = fr_system_create_v(major, minor, size, &init,
                                (const fr_physics *)(void *)junk, &info, &s);
    fr_system_destroy(s);
    return rc;
}

START_TEST(library_version)
{
    int major = -1, minor = -1;
    fr_api_version(&major, &minor);
    ck_assert_int_eq(major, FR_API_MAJOR);
    ck_assert_int_eq(minor, FR_API_MINOR);
}
END_TEST

START_TEST(another_major_refused)
{
    char want[512];
    ck_assert_int_eq(create_as(FR_API_MAJOR + 1, 0, sizeof(fr_physics)),
                     FRX_EPLUGIN);
    snprintf(want, sizeof want, "solver 'shallow-water' was built against "
             "the FR SDK %d.0; this libfrx-fr is %d.%d, another major "
             "version: rebuild the plugin against this frx "
             "(find_package(frx), frx::fr)", FR_API_MAJOR + 1, FR_API_MAJOR,
             FR_API_MINOR);
    ck_assert_str_eq(frx_errmsg(), want);
}
END_TEST

START_TEST(newer_minor_refused)
{
    char want[512];
    ck_assert_int_eq(create_as(FR_API_MAJOR, FR_API_MINOR + 1,
                               sizeof(fr_physics)), FRX_EPLUGIN);
    snprintf(want, sizeof want, "solver 'shallow-water' was built against "
             "the FR SDK %d.%d, newer than this libfrx-fr %d.%d: run it "
             "with the frx it was built against, or rebuild it against "
             "this one", FR_API_MAJOR, FR_API_MINOR + 1, FR_API_MAJOR,
             FR_API_MINOR);
    ck_assert_str_eq(frx_errmsg(), want);
}
END_TEST

START_TEST(bad_size_refused)
{
    ck_assert_int_eq(create_as(FR_API_MAJOR, FR_API_MINOR,
                               sizeof(fr_physics) + 8), FRX_EPLUGIN);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "its fr_physics is"));
    ck_assert_int_eq(create_as(FR_API_MAJOR, FR_API_MINOR, 16),
                     FRX_EPLUGIN);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "16 bytes, which no FR SDK"));
}
END_TEST

int main(void)
{
    MPI_Init(NULL, NULL);
    frx_config *bcfg = NULL;
    be = tu_backend_or_skip("openmp", "double", &bcfg);
    int rc = frx_comm_create(be, MPI_COMM_WORLD, &comm);
    const char *text = "solver: {name: shallow-water}\n";
    if (!rc)
        rc = frx_config_parse(text, strlen(text), "case.yaml", &cfg);
    if (rc) {
        printf("FAIL: set-up: %s\n", frx_errmsg());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    Suite *s = suite_create("fr-sdk");
    TCase *tc = tcase_create("version");
    tcase_add_test(tc, library_version);
    tcase_add_test(tc, another_major_refused);
    tcase_add_test(tc, newer_minor_refused);
    tcase_add_test(tc, bad_size_refused);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    frx_config_free(cfg);
    frx_comm_destroy(comm);
    frx_backend_destroy(be);
    frx_config_free(bcfg);
    MPI_Finalize();
    return failed ? 1 : 0;
}
