/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the folders of outputs (frx_make_parent_folder,
 * frx_check_parent_folder): made with the folders above them, a bare
 * name left alone, a file in the way named, and the check making
 * nothing. Each test gets a fresh folder, and runs in it. */
#include <frx/frx.h>

#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[1024];

static void setup(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/frx-files-XXXXXX", t && *t ? t : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(root));
    ck_assert_int_eq(chdir(root), 0);
}

static int remove_one(const char *p, const struct stat *st, int flag,
                      struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(p);
}

static void teardown(void)
{
    if (chdir("/") != 0 ||
        nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
        fprintf(stderr, "test_files: could not remove %s\n", root);
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static void touch(const char *p)
{
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
}

START_TEST(makes_the_folders_above)
{
    ck_assert_int_eq(frx_make_parent_folder("a/b/c/file.png"), FRX_OK);
    ck_assert(is_dir("a/b/c"));
    ck_assert(!is_dir("a/b/c/file.png")); /* the file's name is not made */
    ck_assert_int_eq(frx_make_parent_folder("a/b/c/other"), FRX_OK);
    char abs[1200];
    snprintf(abs, sizeof abs, "%s/x/y/f.h5", root);
    ck_assert_int_eq(frx_make_parent_folder(abs), FRX_OK);
    ck_assert(is_dir("x/y"));
}
END_TEST

START_TEST(bare_name_and_root)
{
    ck_assert_int_eq(frx_make_parent_folder("file.png"), FRX_OK);
    ck_assert_int_eq(frx_check_parent_folder("file.png"), FRX_OK);
    ck_assert(access("file.png", F_OK) != 0); /* nothing written */
    int root_writable = access("/", W_OK) == 0;
    ck_assert_int_eq(frx_check_parent_folder("/frx-no-such/f"),
                     root_writable ? FRX_OK : FRX_EIO);
}
END_TEST

START_TEST(file_in_the_way)
{
    touch("plain");
    ck_assert_int_eq(frx_make_parent_folder("plain/sub/f.png"), FRX_EIO);
    ck_assert_msg(strstr(frx_errmsg(), "plain"), "%s", frx_errmsg());
    ck_assert_int_eq(frx_check_parent_folder("plain/sub/f.png"), FRX_EIO);
    ck_assert_msg(strstr(frx_errmsg(), "cannot write plain/sub/f.png: plain "
                         "is a file, not a folder"), "%s", frx_errmsg());
    ck_assert_int_eq(frx_check_parent_folder("plain/f.png"), FRX_EIO);
}
END_TEST

START_TEST(check_makes_nothing)
{
    ck_assert_int_eq(frx_check_parent_folder("p/q/r/f.png"), FRX_OK);
    ck_assert(!is_dir("p"));
    ck_assert_int_eq(mkdir("p", 0777), 0);
    ck_assert_int_eq(frx_check_parent_folder("p/f.png"), FRX_OK);
    ck_assert_int_eq(frx_check_parent_folder("p/q/f.png"), FRX_OK);
    ck_assert(!is_dir("p/q"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("files");
    TCase *tc = tcase_create("folders");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, makes_the_folders_above);
    tcase_add_test(tc, bare_name_and_root);
    tcase_add_test(tc, file_in_the_way);
    tcase_add_test(tc, check_makes_nothing);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
