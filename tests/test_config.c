/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the config subsystem: parsing (positions, syntax and
 * text errors), the tree and typed getters, and frx_config_check with
 * the exact messages users see. */
#include <frx/frx.h>
#include <frx/plugin.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------- helpers */

static frx_config *cfg;

static void teardown(void)
{
    frx_config_free(cfg);
    cfg = NULL;
}

static int parse_n(const char *text, size_t len)
{
    frx_config_free(cfg);
    cfg = NULL;
    return frx_config_parse(text, len, "case.yaml", &cfg);
}

static int parse(const char *text)
{
    return parse_n(text, strlen(text));
}

/* Parse and check; the status of whichever failed first. */
static int check(const char *text)
{
    int rc = parse(text);
    return rc ? rc : frx_config_check(cfg);
}

static const frx_cfgnode *root(void)
{
    return frx_config_root(cfg);
}

#define assert_msg(want)                                                   \
    ck_assert_msg(strstr(frx_errmsg(), (want)) != NULL,                    \
                  "message lacks \"%s\":\n%s", (want), frx_errmsg())

#define assert_no_msg(unwanted)                                            \
    ck_assert_msg(strstr(frx_errmsg(), (unwanted)) == NULL,                \
                  "message has \"%s\":\n%s", (unwanted), frx_errmsg())

static size_t nlines(const char *s)
{
    size_t n = *s ? 1 : 0;
    for (; *s; s++)
        n += *s == '\n' && s[1];
    return n;
}

static char *data_path(const char *name)
{
    const char *dir = getenv("FRX_TEST_DATA");
    ck_assert_msg(dir != NULL, "FRX_TEST_DATA is not set (run under ctest)");
    size_t n = strlen(dir) + strlen(name) + 16;
    char *p = malloc(n);
    ck_assert_ptr_nonnull(p);
    snprintf(p, n, "%s/config/%s", dir, name);
    return p;
}

static int load_data(const char *name)
{
    char *path = data_path(name);
    frx_config_free(cfg);
    cfg = NULL;
    int rc = frx_config_load(path, &cfg);
    free(path);
    return rc;
}

/* Write bytes to a fresh temporary file; the caller unlinks it. */
static char *temp_file(const void *bytes, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    char *path = malloc(4096);
    ck_assert_ptr_nonnull(path);
    snprintf(path, 4096, "%s/frx-test-config-XXXXXX", tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, bytes, n), (ssize_t)n);
    close(fd);
    return path;
}

/* ------------------------------------------------------------- parsing */

START_TEST(syntax_error_position)
{
    ck_assert_int_eq(parse("backend:\n"
                           "  name: openmp\n"
                           "  precision: double\n"
                           "  mpi: a: b\n"),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:4:9: syntax error: mapping "
                                   "values are not allowed in this context");
    ck_assert_ptr_null(cfg);
}
END_TEST

START_TEST(syntax_error_unclosed)
{
    ck_assert_int_eq(parse("backend: {precision: double\nlog: x\n"),
                     FRX_ECONFIG);
    assert_msg("case.yaml:2:4: syntax error: did not find expected ',' or "
               "'}' (while parsing a flow mapping at 1:10)");
}
END_TEST

START_TEST(syntax_error_tab)
{
    ck_assert_int_eq(parse("backend:\n\tprecision: double\n"), FRX_ECONFIG);
    assert_msg("case.yaml:2:1: syntax error: ");
    assert_msg("indent with spaces");
}
END_TEST

START_TEST(empty_file)
{
    ck_assert_int_eq(load_data("empty.yaml"), FRX_ECONFIG);
    char *path = data_path("empty.yaml");
    char want[4096];
    snprintf(want, sizeof want, "%s: the file is empty: a case needs at "
             "least 'backend.precision' (see config/README.md)", path);
    ck_assert_str_eq(frx_errmsg(), want);
    free(path);
    ck_assert_ptr_null(cfg);
}
END_TEST

START_TEST(comment_only_file)
{
    ck_assert_int_eq(load_data("comments.yaml"), FRX_ECONFIG);
    assert_msg("comments.yaml: the file is empty: a case needs at least "
               "'backend.precision'");
    /* the same from a string, and a bare document marker */
    ck_assert_int_eq(parse("  \n# nothing\n\n"), FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml: the file is empty: a case "
                     "needs at least 'backend.precision' (see "
                     "config/README.md)");
    ck_assert_int_eq(parse("---\n"), FRX_ECONFIG);
    assert_msg("case.yaml: the file is empty");
}
END_TEST

START_TEST(binary_garbage_file)
{
    static const unsigned char junk[] = {0x7f, 'E', 'L', 'F', 0x02, 0x01,
                                         0x01, 0x00, 0xff, 0xfe, 0x00};
    char *path = temp_file(junk, sizeof junk);
    frx_config_free(cfg);
    cfg = NULL;
    ck_assert_int_eq(frx_config_load(path, &cfg), FRX_ECONFIG);
    char want[4200];
    snprintf(want, sizeof want, "%s:1:1: the file is not YAML text: "
             "control character U+007F (is it a binary file?)", path);
    ck_assert_str_eq(frx_errmsg(), want);
    ck_assert_ptr_null(cfg);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(utf16_is_not_text)
{
    /* "a: 1" in UTF-16LE with its byte-order mark */
    static const char u16[] = "\xff\xfe" "a\0:\0 \0" "1\0";
    ck_assert_int_eq(parse_n(u16, sizeof u16 - 1), FRX_ECONFIG);
    assert_msg("case.yaml:1:1: the file is not YAML text: invalid UTF-8 "
               "byte 0xff");
}
END_TEST

START_TEST(nul_byte)
{
    static const char text[] = "backend:\n  na\0me: openmp\n";
    ck_assert_int_eq(parse_n(text, sizeof text - 1), FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:2:5: the file is not YAML "
                     "text: a NUL byte (is it a binary file?)");
}
END_TEST

START_TEST(invalid_utf8)
{
    ck_assert_int_eq(parse("log:\n  level: d\xc3\x28" "bug\n"), FRX_ECONFIG);
    assert_msg("case.yaml:2:11: the file is not YAML text: invalid UTF-8 "
               "byte 0xc3");
    /* valid UTF-8 after a multi-byte character counts characters */
    ck_assert_int_eq(parse("x: \xc3\xa9\x07\n"), FRX_ECONFIG);
    assert_msg("case.yaml:1:5: the file is not YAML text: control "
               "character U+0007");
    ck_assert_int_eq(parse("\xef\xbb\xbf" "name: \xc3\xa9t\xc3\xa9\n"),
                     FRX_OK);
    ck_assert_str_eq(frx_cfg_scalar(frx_cfg_get(root(), "name")),
                     "\xc3\xa9t\xc3\xa9");
}
END_TEST

START_TEST(duplicate_key)
{
    ck_assert_int_eq(parse("backend:\n"
                           "  precision: double\n"
                           "  name: openmp\n"
                           "  precision: single\n"),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:4:3: duplicate key "
                     "'precision' in 'backend' (first at line 2)");
    ck_assert_int_eq(parse("log: {}\nlog: {}\n"), FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:2:1: duplicate key 'log' in "
                     "the top level (first at line 1)");
}
END_TEST

START_TEST(top_level_not_mapping)
{
    ck_assert_int_eq(parse("- backend\n- log\n"), FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:1:1: the top level must be a "
                     "mapping of keys (like 'backend:'), got a list");
    ck_assert_int_eq(parse("just words\n"), FRX_ECONFIG);
    assert_msg("case.yaml:1:1: the top level must be a mapping");
}
END_TEST

START_TEST(second_document)
{
    ck_assert_int_eq(parse("backend: {precision: double}\n---\nlog: {}\n"),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:2:1: a case file holds one "
                     "YAML document; this starts a second one");
}
END_TEST

START_TEST(aliases)
{
    ck_assert_int_eq(parse("defaults: &d\n"
                           "  precision: double\n"
                           "  name: openmp\n"
                           "backend: *d\n"
                           "names: [&n x, *n, *n]\n"),
                     FRX_OK);
    const frx_cfgnode *p = frx_cfg_get(root(), "backend.precision");
    ck_assert_str_eq(frx_cfg_scalar(p), "double");
    ck_assert_int_eq(frx_cfg_line(p), 2); /* where the text is */
    ck_assert_int_eq(frx_cfg_len(frx_cfg_get(root(), "names")), 3);
    ck_assert_str_eq(frx_cfg_scalar(frx_cfg_get(root(), "names.2")), "x");
    /* an error in an aliased value names the path it was reached by */
    ck_assert_int_eq(parse("d: &d {precision: quad}\nbackend: *d\n"), FRX_OK);
    int i;
    ck_assert_int_eq(frx_cfg_enum(root(), "backend.precision",
                                  "single|double", 0, &i),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:1:19: 'backend.precision' "
                     "must be one of: single, double; got 'quad'");
}
END_TEST

/* A UTF-8 byte-order mark (YAML allows one) starts a file like any other:
 * line 1, column 1 is the text after it. */
START_TEST(byte_order_mark)
{
    ck_assert_int_eq(parse("\xEF\xBB\xBF" "backend:\n  precision: double\n"),
                     FRX_OK);
    const frx_cfgnode *b = frx_cfg_get(root(), "backend");
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(frx_cfg_line(frx_cfg_get(root(), "backend.precision")),
                     2);
    ck_assert_int_eq(parse("\xEF\xBB\xBF" "backend: [\n"), FRX_ECONFIG);
    ck_assert_msg(strstr(frx_errmsg(), "case.yaml:2:1: syntax error"), "%s",
                  frx_errmsg());
}
END_TEST

START_TEST(bad_aliases)
{
    ck_assert_int_eq(parse("a: 1\nb: *nope\n"), FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:2:4: unknown alias '*nope' "
                     "(no anchor '&nope' before it)");
    ck_assert_int_eq(parse("a: &x [1, *x]\n"), FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:1:11: alias '*x' is inside "
                     "the node it refers to");
    /* a billion laughs stops at the node limit instead of eating memory */
    ck_assert_int_eq(parse("a: &a [x, x, x, x, x, x, x, x, x, x]\n"
                           "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                           "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                           "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                           "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
                           "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
                           "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n"),
                     FRX_ECONFIG);
    assert_msg("more than 1000000 nodes");
}
END_TEST

START_TEST(deep_nesting)
{
    char text[400];
    memset(text, '[', 200);
    memset(text + 200, ']', 200);
    ck_assert_int_eq(parse_n(text, sizeof text), FRX_ECONFIG);
    assert_msg("case.yaml:1:65: nested too deeply");
}
END_TEST

START_TEST(complex_key)
{
    ck_assert_int_eq(parse("? [a, b]\n: 1\n"), FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:1:3: mapping keys must be "
                     "plain words, got a list as a key");
}
END_TEST

START_TEST(missing_file)
{
    frx_config *c = (frx_config *)1;
    ck_assert_int_eq(frx_config_load("/nonexistent/case.yaml", &c), FRX_EIO);
    ck_assert_ptr_null(c);
    ck_assert_str_eq(frx_errmsg(), "/nonexistent/case.yaml: cannot open "
                     "the case file: No such file or directory");
    /* a directory opens but does not read */
    const char *dir = getenv("FRX_TEST_DATA");
    ck_assert_ptr_nonnull(dir);
    ck_assert_int_eq(frx_config_load(dir, &c), FRX_EIO);
    assert_msg("cannot read the case file: Is a directory");
}
END_TEST

/* ---------------------------------------------------- tree and getters */

START_TEST(tree_positions)
{
    ck_assert_int_eq(parse("# a case\n"
                           "backend:\n"
                           "  name: openmp\n"
                           "  openmp:\n"
                           "    threads: 8\n"
                           "plugins:\n"
                           "  path: [/a, \"/b c\"]\n"),
                     FRX_OK);
    ck_assert_str_eq(frx_config_file(cfg), "case.yaml");
    const frx_cfgnode *r = root();
    ck_assert_int_eq(frx_cfg_type(r), FRX_CFG_MAP);
    ck_assert_uint_eq(frx_cfg_len(r), 2);
    ck_assert_str_eq(frx_cfg_key_at(r, 0), "backend");
    ck_assert_str_eq(frx_cfg_key_at(r, 1), "plugins");
    ck_assert_ptr_null(frx_cfg_key_at(r, 2));
    const frx_cfgnode *k = frx_cfg_key_node_at(r, 1);
    ck_assert_int_eq(frx_cfg_line(k), 6);
    ck_assert_int_eq(frx_cfg_col(k), 1);
    ck_assert_ptr_eq(frx_cfg_at(r, 0), frx_cfg_get(r, "backend"));

    const frx_cfgnode *t = frx_cfg_get(r, "backend.openmp.threads");
    ck_assert_int_eq(frx_cfg_type(t), FRX_CFG_SCALAR);
    ck_assert_str_eq(frx_cfg_scalar(t), "8");
    ck_assert_int_eq(frx_cfg_line(t), 5);
    ck_assert_int_eq(frx_cfg_col(t), 14);
    ck_assert_ptr_eq(frx_cfg_owner(t), cfg);
    ck_assert_ptr_eq(frx_cfg_get(frx_cfg_get(r, "backend"), "openmp.threads"),
                     t);
    ck_assert_ptr_eq(frx_cfg_get(t, ""), t);
    ck_assert_ptr_eq(frx_cfg_get(t, NULL), t);

    const frx_cfgnode *path = frx_cfg_get(r, "plugins.path");
    ck_assert_int_eq(frx_cfg_type(path), FRX_CFG_LIST);
    ck_assert_uint_eq(frx_cfg_len(path), 2);
    ck_assert_str_eq(frx_cfg_scalar(frx_cfg_at(path, 1)), "/b c");
    ck_assert_int_eq(frx_cfg_col(frx_cfg_at(path, 1)), 14);
    ck_assert_ptr_null(frx_cfg_at(path, 2));
    ck_assert_ptr_null(frx_cfg_key_at(path, 0));

    ck_assert_ptr_null(frx_cfg_get(r, "backend.cuda"));
    ck_assert_ptr_null(frx_cfg_get(r, "backend.name.more"));
    ck_assert_ptr_null(frx_cfg_scalar(frx_cfg_get(r, "backend")));
    ck_assert_int_eq(frx_cfg_type(NULL), 0);
    ck_assert_uint_eq(frx_cfg_len(t), 0);
}
END_TEST

START_TEST(getters_defaults)
{
    ck_assert_int_eq(parse("backend:\n  precision: double\nlog:\n"),
                     FRX_OK);
    const frx_cfgnode *r = root();
    const char *s = "unset";
    long l = -1;
    double d = -1;
    int b = -1, e = -1;
    ck_assert_int_eq(frx_cfg_string(r, "backend.name", "auto", &s), FRX_OK);
    ck_assert_str_eq(s, "auto");
    ck_assert_int_eq(frx_cfg_int(r, "backend.openmp.threads", 7, 0, 4096, &l),
                     FRX_OK);
    ck_assert_int_eq(l, 7);
    ck_assert_int_eq(frx_cfg_double(r, "solver.cfl", 0.5, 0, 1, &d), FRX_OK);
    ck_assert_double_eq(d, 0.5);
    ck_assert_int_eq(frx_cfg_bool(r, "log.color", 1, &b), FRX_OK);
    ck_assert_int_eq(b, 1);
    /* log: with no value is an empty mapping: its keys are absent */
    ck_assert_int_eq(frx_cfg_enum(r, "log.level", "error|warn|info|debug", 1,
                                  &e),
                     FRX_OK);
    ck_assert_int_eq(e, 1);
    /* a NULL node (no backend.<name> section) gives defaults too */
    ck_assert_int_eq(frx_cfg_int(NULL, "threads", 3, 0, 9, &l), FRX_OK);
    ck_assert_int_eq(l, 3);
    ck_assert_int_eq(frx_cfg_string(r, "backend.cc", NULL, &s), FRX_OK);
    ck_assert_ptr_null(s);
}
END_TEST

START_TEST(getters_values)
{
    ck_assert_int_eq(parse("backend:\n"
                           "  name: cuda\n"
                           "  precision: single\n"
                           "  openmp: {threads: 16, cflags: \"-O2 -g\"}\n"
                           "solver:\n"
                           "  cfl: 0.25\n"
                           "  big: -1e300\n"
                           "  flags: [yes, No, ON, off, TRUE, false]\n"),
                     FRX_OK);
    const frx_cfgnode *r = root(), *be = frx_cfg_get(r, "backend");
    const char *s;
    long l;
    double d;
    int b, e;
    ck_assert_int_eq(frx_cfg_string(r, "backend.name", "auto", &s), FRX_OK);
    ck_assert_str_eq(s, "cuda");
    ck_assert_int_eq(frx_cfg_string(be, "openmp.cflags", "-O3", &s), FRX_OK);
    ck_assert_str_eq(s, "-O2 -g");
    ck_assert_int_eq(frx_cfg_int(be, "openmp.threads", 0, 0, 4096, &l),
                     FRX_OK);
    ck_assert_int_eq(l, 16);
    ck_assert_int_eq(frx_cfg_int(be, "openmp.threads", 0, 1, 0, &l), FRX_OK);
    ck_assert_int_eq(l, 16); /* min > max: unbounded */
    ck_assert_int_eq(frx_cfg_double(r, "solver.cfl", 1, 0, 1, &d), FRX_OK);
    ck_assert_double_eq(d, 0.25);
    ck_assert_int_eq(frx_cfg_double(r, "solver.big", 0, 1, 0, &d), FRX_OK);
    ck_assert_double_eq(d, -1e300);
    /* bounds in the digits they need: 1.0000001 is not "1" */
    ck_assert_int_eq(frx_cfg_double(r, "solver.cfl", 1, 1.0000001, 10, &d),
                     FRX_ECONFIG);
    ck_assert_msg(strstr(frx_errmsg(), "'solver.cfl' must be between "
                         "1.0000001 and 10, got 0.25"), "%s", frx_errmsg());
    static const int want[] = {1, 0, 1, 0, 1, 0};
    for (size_t i = 0; i < 6; i++) {
        char key[32];
        snprintf(key, sizeof key, "solver.flags.%zu", i);
        ck_assert_int_eq(frx_cfg_bool(r, key, -1, &b), FRX_OK);
        ck_assert_int_eq(b, want[i]);
    }
    ck_assert_int_eq(frx_cfg_enum(r, "backend.precision", "single|double", 1,
                                  &e),
                     FRX_OK);
    ck_assert_int_eq(e, 0);
}
END_TEST

START_TEST(getters_errors)
{
    ck_assert_int_eq(parse("backend:\n"
                           "  openmp:\n"
                           "    threads: many\n"
                           "    cc: [gcc]\n"
                           "  precision: quad\n"
                           "  cuda: yes\n"
                           "demo:\n"
                           "  nvars: 5000\n"
                           "  cfl: 1.5x\n"
                           "  on: maybe\n"
                           "  empty:\n"),
                     FRX_OK);
    const frx_cfgnode *r = root();
    const char *s;
    long l = 0;
    double d;
    int b, e;
    ck_assert_int_eq(frx_cfg_int(r, "backend.openmp.threads", 0, 0, 4096, &l),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:3:14: 'backend.openmp.threads' "
                     "must be an integer, got 'many'");
    ck_assert_int_eq(l, 0); /* left at the default */
    /* relative paths still name the key from the root */
    ck_assert_int_eq(frx_cfg_int(frx_cfg_get(r, "backend.openmp"), "threads",
                                 0, 0, 4096, &l),
                     FRX_ECONFIG);
    assert_msg("'backend.openmp.threads' must be an integer");
    ck_assert_int_eq(frx_cfg_int(r, "demo.nvars", 4, 0, 4096, &l),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:8:10: 'demo.nvars' must be "
                     "between 0 and 4096, got 5000");
    ck_assert_int_eq(frx_cfg_string(r, "backend.openmp.cc", "cc", &s),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:4:9: 'backend.openmp.cc' must "
                     "be a string, got a list");
    ck_assert_int_eq(frx_cfg_enum(r, "backend.precision", "single|double", 1,
                                  &e),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:5:14: 'backend.precision' "
                     "must be one of: single, double; got 'quad'");
    ck_assert_int_eq(frx_cfg_double(r, "demo.cfl", 0.5, 0, 1, &d),
                     FRX_ECONFIG);
    assert_msg("case.yaml:9:8: 'demo.cfl' must be a number, got '1.5x'");
    ck_assert_int_eq(frx_cfg_bool(r, "demo.on", 0, &b), FRX_ECONFIG);
    assert_msg("case.yaml:10:7: 'demo.on' must be true or false");
    ck_assert_int_eq(frx_cfg_int(r, "demo.empty", 1, 0, 9, &l), FRX_ECONFIG);
    assert_msg("'demo.empty' must be an integer, got an empty value");
    /* a scalar on the way to the key */
    ck_assert_int_eq(frx_cfg_int(r, "backend.cuda.threads", 0, 0, 9, &l),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:6:9: 'backend.cuda' must be a "
                     "mapping, got a scalar");
}
END_TEST

/* An integer or a word (cache-block: auto): the word's index, or -1 and
 * the integer; what is neither names both. */
START_TEST(getters_int_or_word)
{
    ck_assert_int_eq(parse("a: auto\n"
                           "b: 12\n"
                           "c: fast\n"
                           "d: -3\n"
                           "e: [1]\n"
                           "f: none\n"),
                     FRX_OK);
    const frx_cfgnode *r = root();
    long l = 0;
    int w = 7;
    ck_assert_int_eq(frx_cfg_int_or(r, "a", 5, 0, 64, "auto|none", &l, &w),
                     FRX_OK);
    ck_assert_int_eq(w, 0);
    ck_assert_int_eq(l, 5); /* a word leaves the default */
    ck_assert_int_eq(frx_cfg_int_or(r, "f", 5, 0, 64, "auto|none", &l, &w),
                     FRX_OK);
    ck_assert_int_eq(w, 1);
    ck_assert_int_eq(frx_cfg_int_or(r, "b", 5, 0, 64, "auto", &l, &w),
                     FRX_OK);
    ck_assert_int_eq(w, -1);
    ck_assert_int_eq(l, 12);
    ck_assert_int_eq(frx_cfg_int_or(r, "absent", 5, 0, 64, "auto", &l, &w),
                     FRX_OK);
    ck_assert_int_eq(w, -1);
    ck_assert_int_eq(l, 5);
    ck_assert_int_eq(frx_cfg_int_or(r, "c", 5, 0, 64, "auto|none", &l, &w),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:3:4: 'c' must be an integer or "
                     "auto or none, got 'fast'");
    ck_assert_int_eq(frx_cfg_int_or(r, "d", 5, 0, 64, "auto", &l, &w),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:4:4: 'd' must be between 0 and "
                     "64 or auto, got -3");
    ck_assert_int_eq(frx_cfg_int_or(r, "e", 5, 0, 64, "auto", &l, &w),
                     FRX_ECONFIG);
    assert_msg("'e' must be an integer or auto, got a list");
    /* no words: frx_cfg_int's own messages */
    ck_assert_int_eq(frx_cfg_int_or(r, "a", 5, 0, 64, NULL, &l, &w),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:1:4: 'a' must be an integer, "
                     "got 'auto'");
}
END_TEST

/* ------------------------------------------------------------ checking */

static const char full_case[] =
    "# every core key\n"
    "plugins:\n"
    "  path: [plugins, /opt/frx/plugins]\n"
    "backend:\n"
    "  name: auto\n"
    "  precision: double\n"
    "  mpi: host-staged\n"
    "  opencl: {platform: 0}\n"
    "log:\n"
    "  level: debug\n"
    "demo:\n"
    "  neles: 100000000\n"
    "  nvars: 64\n"
    "  nupts: 2\n"
    "  steps: 1\n"
    "solver:\n"
    "  name: solver\n"
    "  order: 5\n"
    "time:\n"
    "  scheme: rk45\n"
    "  t-start: 0.5\n"
    "  t-end: 2\n"
    "  steps: 1000\n"
    "  dt: 1e-3\n"
    "  cfl: 0.4\n"
    "  controller: pi\n"
    "  atol: 1e-8\n"
    "  rtol: 1e-7\n"
    "  safety: 0.9\n"
    "  min-factor: 0.2\n"
    "  max-factor: 3\n"
    "  pi-alpha: 0.6\n"
    "  pi-beta: 0.3\n"
    "  dt-min: 1e-14\n"
    "  dt-max: 0.1\n"
    "progress: {mode: lines, interval: 10}\n"
    "output: {interval: 50, dir: out, name: flow}\n"
    "checkpoint: {interval: 200, file: \"ckpt-{step}.h5\"}\n"
    "check: {interval: 20}\n";

START_TEST(valid_full_case)
{
    ck_assert_int_eq(check(full_case), FRX_OK);
    ck_assert_int_eq(check("backend:\n  precision: single\n"), FRX_OK);
    ck_assert_int_eq(load_data("full.yaml"), FRX_OK);
    ck_assert_int_eq(frx_config_check(cfg), FRX_OK);
    ck_assert_int_eq(check("backend:\n  precision: double\n"
                           "cache:\n  lock-timeout: -1\n"), FRX_ECONFIG);
    assert_msg("case.yaml:4:17: 'cache.lock-timeout' must be between 0 and "
               "86400");
    /* every known backend name is accepted, found here or not */
    static const char *const names[] = {"auto", "openmp", "opencl", "cuda",
                                        "hip"};
    for (size_t i = 0; i < 5; i++) {
        char text[128];
        snprintf(text, sizeof text,
                 "backend: {name: %s, precision: double}\n", names[i]);
        ck_assert_msg(check(text) == FRX_OK, "%s: %s", names[i],
                      frx_errmsg());
    }
}
END_TEST

START_TEST(unknown_key_suggestion)
{
    ck_assert_int_eq(check("backend:\n"
                           "  name: openmp\n"
                           "  precison: double\n"),
                     FRX_ECONFIG);
    assert_msg("case.yaml:3:3: unknown key 'precison' in 'backend' (did you "
               "mean 'precision'?)");
    assert_msg("case.yaml:1:1: missing required key 'precision' in "
               "'backend' (single or double)");
    ck_assert_uint_eq(nlines(frx_errmsg()), 2);
    ck_assert_int_eq(check("backend:\n  precision: double\n"
                           "log:\n  levle: info\n"),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:4:3: unknown key 'levle' in "
                     "'log' (did you mean 'level'?)");
}
END_TEST

START_TEST(unknown_key_top_level)
{
    ck_assert_int_eq(check("backend:\n  precision: double\nlgo: {}\n"),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:3:1: unknown key 'lgo' in the "
                     "top level (did you mean 'log'?)");
    ck_assert_int_eq(check("backend:\n  precision: double\n"
                           "zzzzzzzz: 1\n"),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:3:1: unknown key 'zzzzzzzz' "
                     "in the top level");
    ck_assert_int_eq(check("backend:\n  precision: double\n"
                           "backend.name: openmp\n"),
                     FRX_ECONFIG);
    assert_msg("case.yaml:3:1: unknown key 'backend.name' in the top level "
               "(keys cannot contain '.'");
}
END_TEST

START_TEST(wrong_types)
{
    ck_assert_int_eq(check("backend:\n  precision: double\n"
                           "demo:\n  neles: many\n"),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:4:10: 'demo.neles' must be an "
                     "integer, got 'many'");
    ck_assert_int_eq(check("log: {}\nbackend: openmp\n"), FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:2:10: 'backend' must be a "
                     "mapping, got a scalar");
    ck_assert_int_eq(check("backend: [a]\n"), FRX_ECONFIG);
    assert_msg("case.yaml:1:10: 'backend' must be a mapping, got a list");
    ck_assert_int_eq(check("backend:\n  precision: double\n"
                           "plugins:\n  path: [a, {b: c}]\n"),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:4:13: 'plugins.path[1]' must "
                     "be a string, got a mapping");
    ck_assert_int_eq(check("backend:\n  precision: double\n"
                           "plugins:\n  path: {a: b}\n"),
                     FRX_ECONFIG);
    assert_msg("case.yaml:4:9: 'plugins.path' must be a list of strings");
    /* one directory may be written without the list */
    ck_assert_int_eq(check("backend:\n  precision: double\n"
                           "plugins:\n  path: /opt/frx\n"),
                     FRX_OK);
}
END_TEST

START_TEST(out_of_range)
{
    ck_assert_int_eq(check("backend:\n  precision: double\n"
                           "demo:\n  nvars: 65\n  nupts: 1\n"
                           "  neles: 99999999999999999999999\n"),
                     FRX_ECONFIG);
    assert_msg("case.yaml:4:10: 'demo.nvars' must be between 1 and 64, got "
               "65");
    assert_msg("case.yaml:5:10: 'demo.nupts' must be between 2 and 1000, got "
               "1");
    assert_msg("case.yaml:6:10: 'demo.neles' must be between 1 and "
               "100000000, got 99999999999999999999999");
    ck_assert_uint_eq(nlines(frx_errmsg()), 3);
}
END_TEST

START_TEST(bad_enum)
{
    ck_assert_int_eq(check("backend:\n  precision: quad\n"), FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:2:14: 'backend.precision' must "
                     "be one of: single, double; got 'quad'");
    ck_assert_int_eq(check("backend:\n  precision: dobule\n"
                           "  mpi: cuda-aware\n"),
                     FRX_ECONFIG);
    assert_msg("case.yaml:2:14: 'backend.precision' must be one of: single, "
               "double; got 'dobule' (did you mean 'double'?)");
    assert_msg("case.yaml:3:8: 'backend.mpi' must be one of: auto, "
               "device-aware, host-staged; got 'cuda-aware'");
}
END_TEST

START_TEST(missing_required)
{
    ck_assert_int_eq(check("backend:\n  name: openmp\n"), FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:1:1: missing required key "
                     "'precision' in 'backend' (single or double)");
    /* points at the key of the mapping, wherever it is */
    ck_assert_int_eq(check("# comment\nlog: {level: info}\n"
                           "backend:\n  mpi: auto\n"),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:3:1: missing required key "
                     "'precision' in 'backend' (single or double)");
    /* backend: with no value is an empty mapping */
    ck_assert_int_eq(check("backend:\n"), FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:1:1: missing required key "
                     "'precision' in 'backend' (single or double)");
    ck_assert_int_eq(check("# comment\nlog: {level: info}\n"), FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:1:1: missing required key "
                     "'backend' in the top level (a mapping with at least "
                     "'precision')");
}
END_TEST

START_TEST(backend_name)
{
    ck_assert_int_eq(check("backend: {name: opnemp, precision: double}\n"),
                     FRX_ECONFIG);
    assert_msg("case.yaml:1:17: 'backend.name' must be one of: auto, openmp, "
               "opencl, cuda, hip");
    assert_msg("got 'opnemp' (did you mean 'openmp'?)");
    /* names are lower case: another case is suggested however far */
    ck_assert_int_eq(check("backend: {name: OpenMP, precision: double}\n"),
                     FRX_ECONFIG);
    assert_msg("got 'OpenMP' (did you mean 'openmp'?)");
    ck_assert_int_eq(check("backend: {name: fortran, precision: double}\n"),
                     FRX_ECONFIG);
    assert_msg("got 'fortran'");
    assert_no_msg("did you mean");
    /* a GPU backend's section is checked against its plugin's schema
     * (cuda's plugin is built everywhere) */
    ck_assert_int_eq(check("backend:\n  precision: double\n"
                           "  cuda: {device: GPU-5f8a}\n  opnmp: {}\n"),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:4:3: unknown key 'opnmp' in "
                     "'backend' (did you mean 'openmp'?)");
    ck_assert_int_eq(check("backend:\n  precision: double\n"
                           "  cuda: {devise: 0}\n"), FRX_ECONFIG);
    assert_msg("case.yaml:3:10: unknown key 'devise' in 'backend.cuda' (did "
               "you mean 'device'?)");
}
END_TEST

START_TEST(every_error_reported)
{
    ck_assert_int_eq(load_data("bad-many.yaml"), FRX_OK);
    ck_assert_int_eq(frx_config_check(cfg), FRX_ECONFIG);
    const char *m = frx_errmsg();
    ck_assert_uint_eq(nlines(m), 6);
    assert_msg("bad-many.yaml:3:3: unknown key 'precison' in 'backend' (did "
               "you mean 'precision'?)");
    assert_msg("bad-many.yaml:4:8: 'backend.mpi' must be one of");
    assert_msg("bad-many.yaml:2:1: missing required key 'precision' in "
               "'backend' (single or double)");
    assert_msg("bad-many.yaml:6:10: 'log.level' must be one of: error, warn, "
               "info, debug; got 'verbose'");
    assert_msg("bad-many.yaml:8:10: 'demo.neles' must be an integer, got "
               "'lots'");
    assert_msg("bad-many.yaml:9:1: unknown key 'sovler' in the top level "
               "(did you mean 'solver'?)");
    /* file order */
    ck_assert(strstr(m, "'precison'") < strstr(m, "'log.level'"));
    ck_assert(strstr(m, "'log.level'") < strstr(m, "'sovler'"));
    /* a later good check clears the message */
    ck_assert_int_eq(check(full_case), FRX_OK);
    ck_assert_str_eq(frx_errmsg(), "no error recorded");
}
END_TEST

/* Found backend plugins bring their schema: checked only when the openmp
 * plugin is found here (built beside libfrx). */
static void find_openmp(const char *path, const frx_plugin *p, int err,
                        const char *msg, void *ud)
{
    (void)path, (void)err, (void)msg;
    const frx_plugin_desc *d = p ? frx_plugin_descriptor(p) : NULL;
    if (d && d->kind == FRX_PLUGIN_BACKEND && !strcmp(d->name, "openmp"))
        *(int *)ud = 1;
}

START_TEST(plugin_options)
{
    int found = 0;
    frx_plugin_foreach(NULL, find_openmp, &found);
    int rc = check("backend:\n"
                   "  precision: double\n"
                   "  openmp:\n"
                   "    threads: 5000\n"
                   "    cflgas: -O2\n");
    if (!found) {
        ck_assert_int_eq(rc, FRX_OK); /* no schema: nothing to hold it to */
        return;
    }
    ck_assert_int_eq(rc, FRX_ECONFIG);
    assert_msg("case.yaml:4:14: 'backend.openmp.threads' must be between 0 "
               "and 4096, got 5000");
    assert_msg("case.yaml:5:5: unknown key 'cflgas' in 'backend.openmp' (did "
               "you mean 'cflags'?)");
    ck_assert_int_eq(check("backend:\n  precision: double\n"
                           "  openmp: {cc: gcc, threads: 4, cflags: -O2}\n"),
                     FRX_OK);
}
END_TEST

/* solver.* against the schema of the plugin solver.name names (the
 * fixtures: FRX_PLUGIN_PATH points at them). */
START_TEST(solver_options)
{
    ck_assert_int_eq(check("backend: {precision: double}\n"
                           "solver:\n"
                           "  name: solver\n"
                           "  ordr: 3\n"),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:4:3: unknown key 'ordr' in "
                     "'solver' (did you mean 'order'?)");
    ck_assert_int_eq(check("backend: {precision: double}\n"
                           "solver: {name: solver, order: 9}\n"),
                     FRX_ECONFIG);
    assert_msg("case.yaml:2:31: 'solver.order' must be between 1 and 8, got "
               "9");
    ck_assert_int_eq(check("backend: {precision: double}\n"
                           "solver: {name: solver, order: 8}\n"),
                     FRX_OK);
    /* an integer key that also takes words */
    ck_assert_int_eq(check("backend: {precision: double}\n"
                           "solver: {name: solver, block: auto}\n"),
                     FRX_OK);
    ck_assert_int_eq(check("backend: {precision: double}\n"
                           "solver: {name: solver, block: 16}\n"),
                     FRX_OK);
    ck_assert_int_eq(check("backend: {precision: double}\n"
                           "solver: {name: solver, block: fast}\n"),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:2:31: 'solver.block' must be "
                     "an integer or auto, got 'fast'");
    ck_assert_int_eq(check("backend: {precision: double}\n"
                           "solver: {name: solver, block: -1}\n"),
                     FRX_ECONFIG);
    assert_msg("'solver.block' must be between 0 and 4096 or auto, got -1");
    /* options that reach no plugin */
    ck_assert_int_eq(check("backend: {precision: double}\n"
                           "solver:\n"
                           "  order: 3\n"),
                     FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:3:3: 'solver.order' reaches no "
                     "plugin: set solver.name to the solver plugin that takes "
                     "it");
    /* a name with no plugin: one error, at the name, with the search path */
    ck_assert_int_eq(check("backend: {precision: double}\n"
                           "solver:\n"
                           "  name: advect\n"
                           "  order: 3\n"),
                     FRX_ECONFIG);
    assert_msg("case.yaml:3:9: solver.name: no plugin 'advect' "
               "(frx-advect.so) in: ");
    assert_msg(getenv("FRX_PLUGIN_PATH"));
    ck_assert_uint_eq(nlines(frx_errmsg()), 1);
    /* a backend is no solver; a solver built for another API is refused */
    ck_assert_int_eq(check("backend: {precision: double}\n"
                           "solver: {name: good}\n"),
                     FRX_ECONFIG);
    assert_msg("case.yaml:2:16: solver.name: plugin ");
    assert_msg("frx-good.so is a backend, not a solver");
    ck_assert_int_eq(check("backend: {precision: double}\n"
                           "solver: {name: badapi}\n"),
                     FRX_ECONFIG);
    assert_msg("solver.name: plugin ");
    assert_msg("was built for frx solver API 99.7");
}
END_TEST

START_TEST(time_keys)
{
    ck_assert_int_eq(check("backend: {precision: double}\n"
                           "time: {scheme: rk5, dt: -1, t-ned: 1}\n"),
                     FRX_ECONFIG);
    assert_msg("'time.scheme' must be one of: rk4, ssp-rk3, rk45; got 'rk5'");
    assert_msg("'time.dt' must be between");
    assert_msg("unknown key 't-ned' in 'time' (did you mean 't-end'?)");
}
END_TEST

START_TEST(check_bad_args)
{
    ck_assert_int_eq(frx_config_check(NULL), FRX_EINVAL);
    ck_assert_int_eq(frx_config_parse(NULL, 1, "x", &cfg), FRX_EINVAL);
    frx_config_free(NULL);
    ck_assert_ptr_null(frx_config_file(NULL));
    ck_assert_ptr_null(frx_config_root(NULL));
}
END_TEST

/* Duplicate keys are found through a hash set of each mapping's keys,
 * not by comparing each key with every one before it: a case of 100 000
 * keys parses and checks in well under a second of CPU time (comparing
 * every pair took minutes). The text is generated here. */
static char *many_keys(size_t n, const char *dup)
{
    size_t cap = 96 + n * 26;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    size_t len = (size_t)snprintf(text, cap, "backend:\n  precision: "
                                  "double\nsolver:\n  name: solver\n"
                                  "  extra:\n");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(text + len, cap - len, "    key%06zu: %zu\n",
                                i, i);
    if (dup)
        snprintf(text + len, cap - len, "    %s: again\n", dup);
    return text;
}

START_TEST(many_keys_linear)
{
    char *text = many_keys(100000, NULL);
    clock_t t0 = clock();
    ck_assert_int_eq(check(text), FRX_OK);
    double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    ck_assert_msg(cpu < 1.0, "100 000 keys took %.2f s of CPU time", cpu);
    free(text);
    text = many_keys(100000, "key050000");
    ck_assert_int_eq(parse(text), FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "case.yaml:100006:5: duplicate key "
                     "'key050000' in 'solver.extra' (first at line 50006)");
    free(text);
}
END_TEST

/* -------------------------------------------------------------- errors */

/* A message built from the last one reads the buffer it writes. */
START_TEST(error_from_last_error)
{
    frx_error(FRX_EIO, "cannot read %s", "case.yaml");
    ck_assert_int_eq(frx_error(FRX_ECONFIG, "rank 1: %s (%d)", frx_errmsg(),
                               7), FRX_ECONFIG);
    ck_assert_str_eq(frx_errmsg(), "rank 1: cannot read case.yaml (7)");
    frx_error(FRX_EIO, "%s, %s", frx_errmsg(), frx_errmsg());
    ck_assert_str_eq(frx_errmsg(), "rank 1: cannot read case.yaml (7), "
                     "rank 1: cannot read case.yaml (7)");
}
END_TEST

/* ---------------------------------------------------------------- main */

static Suite *config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *parse_tc = tcase_create("parse");
    tcase_add_checked_fixture(parse_tc, NULL, teardown);
    tcase_add_test(parse_tc, syntax_error_position);
    tcase_add_test(parse_tc, syntax_error_unclosed);
    tcase_add_test(parse_tc, syntax_error_tab);
    tcase_add_test(parse_tc, empty_file);
    tcase_add_test(parse_tc, comment_only_file);
    tcase_add_test(parse_tc, binary_garbage_file);
    tcase_add_test(parse_tc, utf16_is_not_text);
    tcase_add_test(parse_tc, nul_byte);
    tcase_add_test(parse_tc, invalid_utf8);
    tcase_add_test(parse_tc, duplicate_key);
    tcase_add_test(parse_tc, top_level_not_mapping);
    tcase_add_test(parse_tc, second_document);
    tcase_add_test(parse_tc, aliases);
    tcase_add_test(parse_tc, bad_aliases);
    tcase_add_test(parse_tc, byte_order_mark);
    tcase_add_test(parse_tc, deep_nesting);
    tcase_add_test(parse_tc, complex_key);
    tcase_add_test(parse_tc, missing_file);
    tcase_add_test(parse_tc, many_keys_linear);
    suite_add_tcase(s, parse_tc);

    TCase *get_tc = tcase_create("get");
    tcase_add_checked_fixture(get_tc, NULL, teardown);
    tcase_add_test(get_tc, tree_positions);
    tcase_add_test(get_tc, getters_defaults);
    tcase_add_test(get_tc, getters_values);
    tcase_add_test(get_tc, getters_errors);
    tcase_add_test(get_tc, getters_int_or_word);
    suite_add_tcase(s, get_tc);

    TCase *check_tc = tcase_create("check");
    tcase_add_checked_fixture(check_tc, NULL, teardown);
    tcase_set_timeout(check_tc, 30);
    tcase_add_test(check_tc, valid_full_case);
    tcase_add_test(check_tc, unknown_key_suggestion);
    tcase_add_test(check_tc, unknown_key_top_level);
    tcase_add_test(check_tc, wrong_types);
    tcase_add_test(check_tc, out_of_range);
    tcase_add_test(check_tc, bad_enum);
    tcase_add_test(check_tc, missing_required);
    tcase_add_test(check_tc, backend_name);
    tcase_add_test(check_tc, every_error_reported);
    tcase_add_test(check_tc, plugin_options);
    tcase_add_test(check_tc, check_bad_args);
    tcase_add_test(check_tc, solver_options);
    tcase_add_test(check_tc, time_keys);
    suite_add_tcase(s, check_tc);

    TCase *err_tc = tcase_create("errors");
    tcase_add_test(err_tc, error_from_last_error);
    suite_add_tcase(s, err_tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(config_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
