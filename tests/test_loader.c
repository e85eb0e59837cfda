/* SPDX-License-Identifier: BSD-3-Clause */
/* The plugin loader: every refusal with its message, the registry, the
 * search path and the listing. Fixtures (tests/fixtures) are found
 * through FRX_FIXTURE_DIR. */
#include <frx/frx.h>
#include <frx/plugin.h>

#include <check.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------- helpers */

static const char *fixture_dir(void)
{
    const char *d = getenv("FRX_FIXTURE_DIR");
    ck_assert_msg(d && *d, "FRX_FIXTURE_DIR is not set");
    return d;
}

/* Path of fixture frx-<name>.so; one static buffer per call site is
 * enough for these tests, so two are rotated. */
static const char *fixture(const char *name)
{
    static char buf[2][2 * PATH_MAX];
    static int k;
    k ^= 1;
    snprintf(buf[k], sizeof buf[k], "%s/frx-%s.so", fixture_dir(), name);
    return buf[k];
}

#define assert_msg_has(s)                                                  \
    ck_assert_msg(strstr(frx_errmsg(), (s)) != NULL,                       \
                  "message lacks \"%s\": %s", (s), frx_errmsg())

static void setup(void)
{
    unsetenv("FRX_PLUGIN_PATH");
}

/* A fresh directory for one test, and its removal. */
static char tmp[PATH_MAX];

static void make_tmp(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/frx-test-loader-XXXXXX", t && *t ? t : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    char *real = realpath(tmp, NULL);
    ck_assert_ptr_nonnull(real);
    snprintf(tmp, sizeof tmp, "%s", real);
    free(real);
}

static int rm_one(const char *path, const struct stat *st, int flag,
                  struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void rm_tmp(void)
{
    if (tmp[0])
        nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    tmp[0] = '\0';
}

static void copy_file(const char *src, const char *dst)
{
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    ck_assert_msg(in && out, "cannot copy %s to %s", src, dst);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
    fclose(in);
    ck_assert_int_eq(fclose(out), 0);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* tmp/<rel> */
static const char *in_tmp(const char *rel)
{
    static char buf[2][2 * PATH_MAX];
    static int k;
    k ^= 1;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmp, rel);
    return buf[k];
}

/* Open a fixture that must be refused with code. */
static void refuse(const char *name, int code)
{
    frx_plugin *p = (frx_plugin *)1;
    int r = frx_plugin_open(fixture(name), &p);
    ck_assert_msg(r == code, "%s: got %s, wanted %s: %s", name,
                  frx_err_name(r), frx_err_name(code), frx_errmsg());
    ck_assert_ptr_null(p);
    assert_msg_has(fixture(name));
}

/* ------------------------------------------------------------ refusals */

START_TEST(open_missing_file)
{
    refuse("doesnotexist", FRX_ENOTFOUND);
    assert_msg_has("no such file");
}
END_TEST

START_TEST(open_not_elf)
{
    refuse("notelf", FRX_EPLUGIN);
    assert_msg_has("cannot be loaded");
    assert_msg_has("invalid ELF header");
    assert_msg_has("not a shared object: rebuild the plugin");
}
END_TEST

START_TEST(open_missing_dependency)
{
    refuse("missingdep", FRX_EPLUGIN);
    assert_msg_has("cannot be loaded");
    assert_msg_has("libfrxdep.so: cannot open shared object file");
    assert_msg_has("LD_LIBRARY_PATH");
}
END_TEST

/* A plugin that calls a function this libfrx lacks (built against a
 * newer frx) is refused when opened, naming the function, rather than
 * taking the process down at its first call: libltdl alone would bind
 * it lazily. */
START_TEST(open_undefined_symbol)
{
    refuse("futurecall", FRX_EPLUGIN);
    assert_msg_has("cannot be loaded");
    assert_msg_has("undefined symbol: frx_function_of_a_newer_frx");
    assert_msg_has("rebuild the plugin against this frx");
}
END_TEST

START_TEST(open_no_entry_symbol)
{
    refuse("noentry", FRX_EPLUGIN);
    assert_msg_has("no entry symbol 'frx_plugin_entry'");
    assert_msg_has("FRX_PLUGIN_DEFINE");
}
END_TEST

START_TEST(open_abi_mismatch)
{
    refuse("badabi", FRX_EPLUGIN);
    char ours[64];
    snprintf(ours, sizeof ours, "ABI %d.%d", FRX_ABI_MAJOR, FRX_ABI_MINOR);
    assert_msg_has("ABI 99.");
    assert_msg_has(ours);
    assert_msg_has("rebuild the plugin");
}
END_TEST

START_TEST(open_wrong_name)
{
    refuse("wrongname", FRX_EPLUGIN);
    assert_msg_has("calls itself 'other'");
    assert_msg_has("file name says 'wrongname'");
    assert_msg_has("frx-other.so");
}
END_TEST

START_TEST(open_no_name)
{
    refuse("noname", FRX_EPLUGIN);
    assert_msg_has("no name");
}
END_TEST

START_TEST(open_bad_kind)
{
    refuse("badkind", FRX_EPLUGIN);
    assert_msg_has("unknown kind 7");
}
END_TEST

START_TEST(open_backend_without_ops)
{
    refuse("noops", FRX_EPLUGIN);
    assert_msg_has("without backend ops");
}
END_TEST

START_TEST(open_descriptor_too_small)
{
    refuse("smalldesc", FRX_EPLUGIN);
    assert_msg_has("descriptor is");
}
END_TEST

START_TEST(open_bad_file_name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/deplib/libfrxdep.so", fixture_dir());
    frx_plugin *p;
    ck_assert_int_eq(frx_plugin_open(path, &p), FRX_EPLUGIN);
    assert_msg_has(path);
    assert_msg_has("frx-<name>.so");
}
END_TEST

/* ------------------------------------------------------------- opening */

START_TEST(open_good)
{
    frx_plugin *p, *q;
    ck_assert_int_eq(frx_plugin_open(fixture("good"), &p), FRX_OK);
    const frx_plugin_desc *d = frx_plugin_descriptor(p);
    ck_assert_str_eq(d->name, "good");
    ck_assert_str_eq(d->version, "0.1.0");
    ck_assert_int_eq(d->kind, FRX_PLUGIN_BACKEND);
    ck_assert_int_eq(d->abi_major, FRX_ABI_MAJOR);
    ck_assert_ptr_nonnull(d->backend);
    ck_assert_ptr_nonnull(d->backend->create);
    ck_assert_int_eq(frx_plugin_probe(p, NULL, 0), FRX_OK);

    char *real = realpath(fixture("good"), NULL);
    ck_assert_str_eq(frx_plugin_path(p), real);
    free(real);

    ck_assert_int_eq(frx_plugin_open(fixture("good"), &q), FRX_OK);
    ck_assert_ptr_eq(p, q);
}
END_TEST

/* The registry is keyed by real path; the name check still applies to
 * the name a link gives it. */
START_TEST(open_through_links)
{
    frx_plugin *p, *q;
    make_tmp();
    ck_assert_int_eq(symlink(fixture("good"), in_tmp("frx-good.so")), 0);
    ck_assert_int_eq(symlink(fixture("good"), in_tmp("frx-alias.so")), 0);
    ck_assert_int_eq(frx_plugin_open(fixture("good"), &p), FRX_OK);
    ck_assert_int_eq(frx_plugin_open(in_tmp("frx-good.so"), &q), FRX_OK);
    ck_assert_ptr_eq(p, q);
    ck_assert_int_eq(frx_plugin_open(in_tmp("frx-alias.so"), &q), FRX_EPLUGIN);
    assert_msg_has("calls itself 'good' but its file name says 'alias'");
    rm_tmp();
}
END_TEST

START_TEST(probe_unavailable)
{
    frx_plugin *p;
    char why[128];
    ck_assert_int_eq(frx_plugin_open(fixture("unavail"), &p), FRX_OK);
    ck_assert_int_eq(frx_plugin_probe(p, why, sizeof why), FRX_EUNAVAIL);
    ck_assert_str_eq(why, "libfake.so.1 not found");
    assert_msg_has("libfake.so.1 not found");
    assert_msg_has("unavail");

    char small[8];
    ck_assert_int_eq(frx_plugin_probe(p, small, sizeof small), FRX_EUNAVAIL);
    ck_assert_str_eq(small, "libfake");
}
END_TEST

/* Ops that end before probe: the plugin's probe (which refuses) is
 * absent, so the backend can start; later functions are absent too. */
START_TEST(ops_past_size_are_absent)
{
    frx_plugin *p;
    ck_assert_int_eq(frx_plugin_open(fixture("oldops"), &p), FRX_OK);
    const frx_backend_ops *ops = frx_plugin_descriptor(p)->backend;
    ck_assert_ptr_nonnull(ops);
    ck_assert_uint_eq(ops->size, offsetof(frx_backend_ops, probe));
    ck_assert_int_eq(ops->priority, -100);
    ck_assert_ptr_null(ops->probe);
    ck_assert_ptr_null(ops->create);
    ck_assert_int_eq(frx_plugin_probe(p, NULL, 0), FRX_OK);
}
END_TEST

START_TEST(newer_minor_is_accepted)
{
    frx_plugin *p;
    ck_assert_int_eq(frx_plugin_open(fixture("newminor"), &p), FRX_OK);
    const frx_plugin_desc *d = frx_plugin_descriptor(p);
    ck_assert_int_eq(d->abi_minor, FRX_ABI_MINOR + 5);
    ck_assert_uint_eq(d->size, sizeof(frx_plugin_desc));
    ck_assert_ptr_nonnull(d->backend);
}
END_TEST

START_TEST(open_solver)
{
    frx_plugin *p;
    ck_assert_int_eq(frx_plugin_open(fixture("solver"), &p), FRX_OK);
    const frx_plugin_desc *d = frx_plugin_descriptor(p);
    ck_assert_int_eq(d->kind, FRX_PLUGIN_SOLVER);
    ck_assert_ptr_null(d->backend);
    ck_assert_ptr_nonnull(d->solver);
    ck_assert_str_eq(d->solver->options[0].key, "order");
    ck_assert_int_eq(frx_plugin_probe(p, NULL, 0), FRX_OK);
}
END_TEST

START_TEST(solver_api_major_refused)
{
    frx_plugin *p = NULL;
    ck_assert_int_eq(frx_plugin_open(fixture("badapi"), &p), FRX_EPLUGIN);
    ck_assert_ptr_null(p);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "was built for frx solver "
                                               "API 99.7 but this frx has "
                                               "solver API 1."));
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "frx-badapi.so"));
}
END_TEST

/* A kernel over more rows than a CUDA or HIP grid has blocks in y is
 * refused when it is bound, not launched into a wrong grid. */
START_TEST(gpu_grid_limits_refused_at_bind)
{
    setenv("FRX_PLUGIN_PATH", fixture_dir(), 1);
    const char *names[] = {"fakecuda", "fakehip"};
    const char *words[] = {"CUDA", "HIP"};
    for (int t = 0; t < 2; t++) {
        char text[128];
        snprintf(text, sizeof text, "backend: {name: %s, precision: "
                 "double}\n", names[t]);
        frx_config *cfg;
        ck_assert_int_eq(frx_config_parse(text, strlen(text), "case.yaml",
                                          &cfg), FRX_OK);
        frx_backend *be;
        ck_assert_int_eq(frx_backend_create(cfg, &be), FRX_OK);
        frx_kernel_decl d = {.name = "copy_rows", .ndim = 2,
                             .args = "in fpdtype_t x, out fpdtype_t y",
                             .body = "y = x;"};
        ck_assert_int_eq(frx_kernel_register(be, &d), FRX_OK);
        size_t rows = 65536;
        frx_matrix *x, *y;
        ck_assert_int_eq(frx_matrix_create(be, rows, 1, 1, &x), FRX_OK);
        ck_assert_int_eq(frx_matrix_create(be, rows, 1, 1, &y), FRX_OK);
        frx_arg args[] = {frx_arg_matrix(x), frx_arg_matrix(y)};
        frx_kernel *k;
        ck_assert_int_eq(frx_kernel_create(be, "copy_rows", rows, 1, args, 2,
                                           &k), FRX_ERANGE);
        assert_msg_has("65536 rows is more than the 65535 blocks");
        assert_msg_has(words[t]);
        frx_matrix_destroy(x);
        frx_matrix_destroy(y);
        /* one row fewer passes every check and reaches the compiler */
        rows--;
        ck_assert_int_eq(frx_matrix_create(be, rows, 1, 1, &x), FRX_OK);
        ck_assert_int_eq(frx_matrix_create(be, rows, 1, 1, &y), FRX_OK);
        frx_arg fit[] = {frx_arg_matrix(x), frx_arg_matrix(y)};
        ck_assert_int_eq(frx_kernel_create(be, "copy_rows", rows, 1, fit, 2,
                                           &k), FRX_ENOTSUP);
        assert_msg_has("not compiled here");
        frx_matrix_destroy(x);
        frx_matrix_destroy(y);
        frx_backend_destroy(be);
        frx_config_free(cfg);
    }
    /* a plugin from before 64-bit offsets would read them wrong */
    const char *text = "backend: {name: oldcuda, precision: double}\n";
    frx_config *cfg;
    ck_assert_int_eq(frx_config_parse(text, strlen(text), "case.yaml", &cfg),
                     FRX_OK);
    frx_backend *be;
    ck_assert_int_eq(frx_backend_create(cfg, &be), FRX_OK);
    frx_kernel_decl d = {.name = "copy", .ndim = 1,
                         .args = "in fpdtype_t x, out fpdtype_t y",
                         .body = "y = x;"};
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_OK);
    frx_matrix *x, *y;
    ck_assert_int_eq(frx_matrix_create(be, 1, 1, 4, &x), FRX_OK);
    ck_assert_int_eq(frx_matrix_create(be, 1, 1, 4, &y), FRX_OK);
    frx_arg args[] = {frx_arg_matrix(x), frx_arg_matrix(y)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, "copy", 1, 4, args, 2, &k),
                     FRX_EPLUGIN);
    assert_msg_has("built for plugin ABI 1.2");
    frx_matrix_destroy(x);
    frx_matrix_destroy(y);
    frx_backend_destroy(be);
    frx_config_free(cfg);
}
END_TEST

/* ------------------------------------------------------------- finding */

START_TEST(find_follows_env_order)
{
    frx_plugin *p;
    char env[3 * PATH_MAX], want[PATH_MAX];
    make_tmp();
    copy_file(fixture("good"), in_tmp("frx-good.so"));

    snprintf(env, sizeof env, "/nonexistent-frx:%s:%s", tmp, fixture_dir());
    setenv("FRX_PLUGIN_PATH", env, 1);
    ck_assert_int_eq(frx_plugin_find(NULL, "good", &p), FRX_OK);
    ck_assert_str_eq(frx_plugin_path(p), in_tmp("frx-good.so"));

    snprintf(env, sizeof env, "%s::%s", fixture_dir(), tmp);
    setenv("FRX_PLUGIN_PATH", env, 1);
    ck_assert_int_eq(frx_plugin_find(NULL, "good", &p), FRX_OK);
    char *real = realpath(fixture("good"), NULL);
    snprintf(want, sizeof want, "%s", real);
    free(real);
    ck_assert_str_eq(frx_plugin_path(p), want);
    rm_tmp();
}
END_TEST

/* The first file of the name is the one: its errors are not skipped. */
START_TEST(find_returns_first_file_errors)
{
    frx_plugin *p;
    char env[2 * PATH_MAX];
    make_tmp();
    copy_file(fixture("notelf"), in_tmp("frx-good.so"));
    snprintf(env, sizeof env, "%s:%s", tmp, fixture_dir());
    setenv("FRX_PLUGIN_PATH", env, 1);
    ck_assert_int_eq(frx_plugin_find(NULL, "good", &p), FRX_EPLUGIN);
    assert_msg_has(in_tmp("frx-good.so"));
    rm_tmp();
}
END_TEST

START_TEST(find_lists_dirs_tried)
{
    frx_plugin *p = (frx_plugin *)1;
    setenv("FRX_PLUGIN_PATH", "/nonexistent-a:/nonexistent-b", 1);
    ck_assert_int_eq(frx_plugin_find(NULL, "nosuch", &p), FRX_ENOTFOUND);
    ck_assert_ptr_null(p);
    assert_msg_has("no plugin 'nosuch' (frx-nosuch.so) in: "
                   "/nonexistent-a, /nonexistent-b, ");
    assert_msg_has("/frx");
    assert_msg_has("plugins.path or FRX_PLUGIN_PATH");
}
END_TEST

START_TEST(find_bad_name)
{
    frx_plugin *p;
    ck_assert_int_eq(frx_plugin_find(NULL, "../x", &p), FRX_EINVAL);
    ck_assert_int_eq(frx_plugin_find(NULL, "", &p), FRX_EINVAL);
    ck_assert_int_eq(frx_plugin_find(NULL, NULL, &p), FRX_EINVAL);
}
END_TEST

/* Where libfrx is, as the dynamic linker sees it. */
static void libfrx_dir(char *buf, size_t n)
{
    Dl_info info;
    ck_assert(dladdr((void *)frx_strerror, &info));
    char *real = realpath(info.dli_fname, NULL);
    ck_assert_ptr_nonnull(real);
    snprintf(buf, n, "%s", dirname(real));
    free(real);
}

START_TEST(find_openmp_beside_libfrx)
{
    frx_plugin *p;
    char dir[PATH_MAX], want[PATH_MAX + 32];
    ck_assert_msg(frx_plugin_find(NULL, "openmp", &p) == FRX_OK, "%s",
                  frx_errmsg());
    const frx_plugin_desc *d = frx_plugin_descriptor(p);
    ck_assert_str_eq(d->name, "openmp");
    ck_assert_int_eq(d->kind, FRX_PLUGIN_BACKEND);
    libfrx_dir(dir, sizeof dir);
    snprintf(want, sizeof want, "%s/frx/frx-openmp.so", dir);
    ck_assert_str_eq(frx_plugin_path(p), want);
}
END_TEST

START_TEST(search_path_order)
{
    char buf[8192], dir[PATH_MAX], beside[PATH_MAX + 32];
    setenv("FRX_PLUGIN_PATH", "/nonexistent-a::/nonexistent-b", 1);
    ck_assert_int_eq(frx_plugin_search_path(NULL, buf, sizeof buf), FRX_OK);
    libfrx_dir(dir, sizeof dir);
    snprintf(beside, sizeof beside, "/nonexistent-b:%s/frx:", dir);
    ck_assert_msg(strncmp(buf, "/nonexistent-a:/nonexistent-b:", 30) == 0,
                  "%s", buf);
    ck_assert_msg(strstr(buf, beside) != NULL, "%s", buf);

    char small[10];
    ck_assert_int_eq(frx_plugin_search_path(NULL, small, sizeof small),
                     FRX_ERANGE);
    ck_assert_str_eq(small, "/nonexist");
}
END_TEST

/* plugins.path comes first; relative entries are relative to the
 * config file. */
START_TEST(find_uses_config_path)
{
    frx_plugin *p;
    frx_config *cfg;
    char buf[8192];
    make_tmp();
    ck_assert_int_eq(mkdir(in_tmp("sub"), 0700), 0);
    copy_file(fixture("good"), in_tmp("sub/frx-good.so"));
    write_file(in_tmp("case.yaml"), "plugins:\n  path:\n    - sub\n");
    setenv("FRX_PLUGIN_PATH", fixture_dir(), 1);
    ck_assert_msg(frx_config_load(in_tmp("case.yaml"), &cfg) == FRX_OK, "%s",
                  frx_errmsg());
    ck_assert_int_eq(frx_plugin_find(cfg, "good", &p), FRX_OK);
    ck_assert_str_eq(frx_plugin_path(p), in_tmp("sub/frx-good.so"));
    ck_assert_int_eq(frx_plugin_search_path(cfg, buf, sizeof buf), FRX_OK);
    ck_assert_msg(strncmp(buf, in_tmp("sub:"), strlen(in_tmp("sub:"))) == 0,
                  "%s", buf);
    frx_config_free(cfg);
    rm_tmp();
}
END_TEST

/* ------------------------------------------------------------- listing */

struct visit {
    char path[PATH_MAX];
    int has_plugin, err;
    char msg[1024];
};

struct visits {
    struct visit v[64];
    int n;
};

static void record(const char *path, const frx_plugin *p, int err,
                   const char *msg, void *ud)
{
    struct visits *vs = ud;
    ck_assert_ptr_nonnull(msg);
    ck_assert_int_lt(vs->n, 64);
    struct visit *v = &vs->v[vs->n++];
    snprintf(v->path, sizeof v->path, "%s", path);
    v->has_plugin = p != NULL;
    v->err = err;
    snprintf(v->msg, sizeof v->msg, "%s", msg);
}

/* The one visit of path; fails if there is not exactly one. */
static const struct visit *visit_of(const struct visits *vs, const char *path)
{
    const struct visit *found = NULL;
    for (int i = 0; i < vs->n; i++)
        if (strcmp(vs->v[i].path, path) == 0) {
            ck_assert_msg(!found, "%s visited twice", path);
            found = &vs->v[i];
        }
    ck_assert_msg(found, "%s not visited", path);
    return found;
}

START_TEST(foreach_fixtures)
{
    static struct visits vs;
    setenv("FRX_PLUGIN_PATH", fixture_dir(), 1);
    ck_assert_int_eq(frx_plugin_foreach(NULL, record, &vs), FRX_OK);

    const char *ok[] = {"good", "unavail", "oldops", "newminor", "solver"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        const struct visit *v = visit_of(&vs, fixture(ok[i]));
        ck_assert_msg(v->has_plugin && v->err == 0, "%s: %s", v->path,
                      v->msg);
    }
    const char *bad[] = {"badabi", "noentry", "wrongname", "missingdep",
                         "notelf", "noname", "badkind", "noops",
                         "smalldesc", "badapi", "futurecall"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const struct visit *v = visit_of(&vs, fixture(bad[i]));
        ck_assert_msg(!v->has_plugin, "%s opened", v->path);
        ck_assert_int_eq(v->err, FRX_EPLUGIN);
        ck_assert_msg(strstr(v->msg, v->path), "%s", v->msg);
    }
    ck_assert(strstr(visit_of(&vs, fixture("badabi"))->msg, "ABI 99."));

    /* fixture dir first, sorted by name */
    ck_assert_str_eq(vs.v[0].path, fixture("badabi"));
    ck_assert_str_eq(vs.v[1].path, fixture("badapi"));
    ck_assert_str_eq(vs.v[2].path, fixture("badkind"));
}
END_TEST

START_TEST(foreach_shadows_and_skips_duplicate_dirs)
{
    static struct visits vs;
    char env[4 * PATH_MAX];
    make_tmp();
    copy_file(fixture("good"), in_tmp("frx-good.so"));
    ck_assert_int_eq(symlink(fixture_dir(), in_tmp("link")), 0);
    snprintf(env, sizeof env, "%s:%s:%s:%s/", tmp, fixture_dir(),
             in_tmp("link"), fixture_dir());
    setenv("FRX_PLUGIN_PATH", env, 1);
    ck_assert_int_eq(frx_plugin_foreach(NULL, record, &vs), FRX_OK);

    ck_assert_str_eq(vs.v[0].path, in_tmp("frx-good.so"));
    ck_assert(vs.v[0].has_plugin);
    const struct visit *v = visit_of(&vs, fixture("good"));
    ck_assert(!v->has_plugin);
    ck_assert_int_eq(v->err, 0);
    char want[3 * PATH_MAX];
    snprintf(want, sizeof want, "shadowed by %s", in_tmp("frx-good.so"));
    ck_assert_str_eq(v->msg, want);
    visit_of(&vs, fixture("badabi")); /* once, though listed thrice */
    for (int i = 0; i < vs.n; i++)
        ck_assert_msg(strncmp(vs.v[i].path, in_tmp("link"),
                              strlen(in_tmp("link"))) != 0,
                      "%s: the linked directory was listed", vs.v[i].path);
    rm_tmp();
}
END_TEST

/* Files that would take the process down in dlopen are refused before
 * it, or (a crashing constructor, when listing) loaded in a child. */
static const char *hazard(const char *name)
{
    static char buf[2 * PATH_MAX];
    const char *d = getenv("FRX_HAZARD_DIR");
    ck_assert_msg(d && *d, "FRX_HAZARD_DIR is not set");
    snprintf(buf, sizeof buf, "%s/frx-%s.so", d, name);
    return buf;
}

START_TEST(open_truncated_refused)
{
    frx_plugin *p;
    ck_assert_int_eq(frx_plugin_open(hazard("truncated"), &p), FRX_EPLUGIN);
    assert_msg_has(hazard("truncated"));
    assert_msg_has("is cut short: it has");
}
END_TEST

START_TEST(open_other_machine_refused)
{
    frx_plugin *p;
    ck_assert_int_eq(frx_plugin_open(hazard("aarch64"), &p), FRX_EPLUGIN);
    assert_msg_has("was built for aarch64 (64-bit, little-endian) but this "
                   "is x86-64");
}
END_TEST

START_TEST(foreach_survives_crashing_plugin)
{
    static struct visits vs;
    setenv("FRX_PLUGIN_PATH", getenv("FRX_HAZARD_DIR"), 1);
    ck_assert_int_eq(frx_plugin_foreach(NULL, record, &vs), FRX_OK);
    const struct visit *v = visit_of(&vs, hazard("crash"));
    ck_assert(!v->has_plugin);
    ck_assert_int_eq(v->err, FRX_EPLUGIN);
    /* a signal, or exit status 1 where ASan reports the fault */
    ck_assert_msg(strstr(v->msg, "crashed while being loaded (signal 11") ||
                  strstr(v->msg, "crashed while being loaded (it ended "
                         "the process with exit status 1"), "%s", v->msg);
    ck_assert(!visit_of(&vs, hazard("truncated"))->has_plugin);
    ck_assert(!visit_of(&vs, hazard("aarch64"))->has_plugin);
    /* the openmp plugin beside libfrx is listed after them, loaded */
    int openmp = 0;
    for (int i = 0; i < vs.n; i++)
        openmp |= vs.v[i].has_plugin && strstr(vs.v[i].path, "frx-openmp");
    ck_assert(openmp);
}
END_TEST

/* ---------------------------------------------------------------- main */

static Suite *loader_suite(void)
{
    Suite *s = suite_create("loader");
    TCase *tc = tcase_create("open");
    tcase_add_checked_fixture(tc, setup, rm_tmp);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, open_missing_file);
    tcase_add_test(tc, open_not_elf);
    tcase_add_test(tc, open_missing_dependency);
    tcase_add_test(tc, open_undefined_symbol);
    tcase_add_test(tc, open_no_entry_symbol);
    tcase_add_test(tc, open_abi_mismatch);
    tcase_add_test(tc, open_wrong_name);
    tcase_add_test(tc, open_no_name);
    tcase_add_test(tc, open_bad_kind);
    tcase_add_test(tc, open_backend_without_ops);
    tcase_add_test(tc, open_descriptor_too_small);
    tcase_add_test(tc, open_bad_file_name);
    tcase_add_test(tc, open_good);
    tcase_add_test(tc, open_through_links);
    tcase_add_test(tc, probe_unavailable);
    tcase_add_test(tc, ops_past_size_are_absent);
    tcase_add_test(tc, newer_minor_is_accepted);
    tcase_add_test(tc, open_solver);
    tcase_add_test(tc, solver_api_major_refused);
    tcase_add_test(tc, gpu_grid_limits_refused_at_bind);
    suite_add_tcase(s, tc);

    tc = tcase_create("find");
    tcase_add_checked_fixture(tc, setup, rm_tmp);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, find_follows_env_order);
    tcase_add_test(tc, find_returns_first_file_errors);
    tcase_add_test(tc, find_lists_dirs_tried);
    tcase_add_test(tc, find_bad_name);
    tcase_add_test(tc, find_openmp_beside_libfrx);
    tcase_add_test(tc, search_path_order);
    tcase_add_test(tc, find_uses_config_path);
    tcase_add_test(tc, foreach_fixtures);
    tcase_add_test(tc, foreach_shadows_and_skips_duplicate_dirs);
    tcase_add_test(tc, open_truncated_refused);
    tcase_add_test(tc, open_other_machine_refused);
    tcase_add_test(tc, foreach_survives_crashing_plugin);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(loader_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
