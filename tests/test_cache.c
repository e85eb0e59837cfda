/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the disk cache of compiled artefacts: SHA-256, keys,
 * hits across processes, damaged entries, directory checks, locking,
 * failed builds and FRX_CACHE=off. Each test gets a fresh directory. */
#include <frx/frx.h>
#include <frx/plugin.h>

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CONTENT "compiled kernel, version 1\n"

static char base_tmp[1024]; /* holds every test's directory */
static char root[2048];     /* this test's directory */
static char cache_dir[PATH_MAX];

/* ------------------------------------------------------------- helpers */

/* FRX_CACHE_DIR = root/sub; not created. */
static void use_cache_dir(const char *sub)
{
    snprintf(cache_dir, sizeof cache_dir, "%s/%s", root, sub);
    ck_assert_int_eq(setenv("FRX_CACHE_DIR", cache_dir, 1), 0);
}

static void setup(void)
{
    snprintf(root, sizeof root, "%s/test-XXXXXX", base_tmp);
    ck_assert_ptr_nonnull(mkdtemp(root));
    ck_assert_int_eq(chmod(root, 0700), 0);
    use_cache_dir("cache");
    unsetenv("FRX_CACHE");
    ck_assert_int_eq(setenv("TMPDIR", base_tmp, 1), 0);
}

static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void remove_tree(const char *dir)
{
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void teardown(void)
{
    remove_tree(root);
}

struct build {
    const char *content;
    int calls;
    int fail;          /* write half the content, then fail */
    int write_nothing; /* report success without writing */
    long delay_ms;
    int hold_fd;       /* > 0: build only once this pipe is closed */
};

static int build_fn(const char *tmp_path, void *ud)
{
    struct build *b = ud;
    b->calls++;
    if (b->delay_ms) {
        struct timespec ts = {b->delay_ms / 1000,
                              b->delay_ms % 1000 * 1000000L};
        nanosleep(&ts, NULL);
    }
    if (b->hold_fd > 0) { /* until the other end says so, however late */
        char c;
        while (read(b->hold_fd, &c, 1) < 0 && errno == EINTR)
            ;
    }
    if (b->write_nothing)
        return FRX_OK;
    FILE *f = fopen(tmp_path, "wbx");
    if (!f)
        return frx_error(FRX_EIO, "test build: cannot create %s", tmp_path);
    size_t len = strlen(b->content) / (b->fail ? 2 : 1);
    int ok = fwrite(b->content, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (b->fail)
        return frx_error(FRX_EBACKEND, "test build failed on purpose");
    return ok ? FRX_OK : frx_error(FRX_EIO, "test build: cannot write");
}

static const char *const KEY[] = {"kernel source", "-O2", "cc 12.2"};
#define NKEY (sizeof KEY / sizeof *KEY)

static int fetch_key(struct build *b, frx_cache_entry *e)
{
    return frx_cache_fetch(KEY, NKEY, ".so", build_fn, b, e);
}

/* The whole file, NUL-terminated; NULL if unreadable. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0, k;
    do {
        if (n + 4096 + 1 > cap) {
            cap = 2 * cap + 4096 + 1;
            char *nb = realloc(buf, cap);
            ck_assert_ptr_nonnull(nb);
            buf = nb;
        }
        k = fread(buf + n, 1, cap - n - 1, f);
        n += k;
    } while (k);
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

static int content_is(const char *path, const char *want)
{
    char *got = slurp(path, NULL);
    int same = got && strcmp(got, want) == 0;
    free(got);
    return same;
}

static int starts_with_dir(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && path[n] == '/';
}

static int path_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The checksum file beside an entry ending in ".so". */
static void sum_path(const char *entry, char *buf, size_t n)
{
    snprintf(buf, n, "%.*s.sum", (int)(strlen(entry) - 3), entry);
}

#define assert_msg(want)                                                   \
    ck_assert_msg(strstr(frx_errmsg(), (want)) != NULL,                    \
                  "message lacks \"%s\":\n%s", (want), frx_errmsg())

/* ---------------------------------------------------------------- sha256 */

static void assert_sha(const char *data, size_t len, const char *want)
{
    char hex[65];
    frx_sha256_hex(data, len, hex);
    ck_assert_str_eq(hex, want);
}

START_TEST(sha256_vectors)
{
    /* FIPS 180-4 examples (NIST CSRC) */
    assert_sha("", 0,
               "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert_sha("abc", 3,
               "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *m448 =
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    assert_sha(m448, strlen(m448),
               "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const char *m896 =
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
        "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    assert_sha(m896, strlen(m896),
               "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    char *million = malloc(1000000);
    ck_assert_ptr_nonnull(million);
    memset(million, 'a', 1000000);
    assert_sha(million, 1000000,
               "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(million);
}
END_TEST

/* The checksum file of a large entry, written while hashing in chunks,
 * matches the one-shot hash of its content. */
START_TEST(sum_of_large_entry)
{
    size_t len = 200000 + 17;
    char *big = malloc(len + 1);
    ck_assert_ptr_nonnull(big);
    for (size_t i = 0; i < len; i++)
        big[i] = (char)('a' + i * 7 % 26);
    big[len] = '\0';
    struct build b = {.content = big};
    frx_cache_entry e;
    ck_assert_int_eq(fetch_key(&b, &e), FRX_OK);
    ck_assert(content_is(e.path, big));

    char hex[65], want[128], path[PATH_MAX];
    frx_sha256_hex(big, len, hex);
    snprintf(want, sizeof want, "%zu %s\n", len, hex);
    sum_path(e.path, path, sizeof path);
    char *got = slurp(path, NULL);
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, want);
    free(got);
    free(big);
}
END_TEST

/* ------------------------------------------------------------- basics */

START_TEST(build_then_hit)
{
    use_cache_dir("deep/er/cache"); /* every component is created */
    struct build b = {.content = CONTENT};
    frx_cache_entry e;
    ck_assert_int_eq(fetch_key(&b, &e), FRX_OK);
    ck_assert_int_eq(e.built, 1);
    ck_assert_int_eq(e.temporary, 0);
    ck_assert_int_eq(b.calls, 1);
    ck_assert(content_is(e.path, CONTENT));
    ck_assert_msg(starts_with_dir(e.path, cache_dir), "%s is outside %s",
                  e.path, cache_dir);
    ck_assert_str_eq(e.path + strlen(e.path) - 3, ".so");

    struct stat st;
    ck_assert_int_eq(stat(cache_dir, &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, 0700);

    frx_cache_entry again;
    ck_assert_int_eq(fetch_key(&b, &again), FRX_OK);
    ck_assert_int_eq(again.built, 0);
    ck_assert_int_eq(b.calls, 1);
    ck_assert_str_eq(again.path, e.path);
    ck_assert(content_is(again.path, CONTENT));

    frx_cache_done(&again); /* a no-op for cached entries */
    ck_assert(path_exists(e.path));
}
END_TEST

START_TEST(keys_differ)
{
    struct build b = {.content = CONTENT};
    frx_cache_entry e1, e2, e3, e4, e5;
    const char *x[] = {"x"}, *y[] = {"y"};
    const char *ab_c[] = {"ab", "c"}, *a_bc[] = {"a", "bc"};
    ck_assert_int_eq(frx_cache_fetch(x, 1, ".so", build_fn, &b, &e1), 0);
    ck_assert_int_eq(frx_cache_fetch(y, 1, ".so", build_fn, &b, &e2), 0);
    ck_assert_int_eq(frx_cache_fetch(ab_c, 2, ".so", build_fn, &b, &e3), 0);
    ck_assert_int_eq(frx_cache_fetch(a_bc, 2, ".so", build_fn, &b, &e4), 0);
    ck_assert_int_eq(frx_cache_fetch(x, 1, ".bin", build_fn, &b, &e5), 0);
    ck_assert_int_eq(b.calls, 5);
    ck_assert_str_ne(e1.path, e2.path);
    ck_assert_str_ne(e3.path, e4.path);
    ck_assert_str_ne(e1.path, e5.path);
    ck_assert(e1.built && e2.built && e3.built && e4.built && e5.built);

    /* the same parts, copied elsewhere, find the same entry */
    char ab[] = "ab", c[] = "c";
    const char *again[] = {ab, c};
    ck_assert_int_eq(frx_cache_fetch(again, 2, ".so", build_fn, &b, &e1), 0);
    ck_assert_int_eq(e1.built, 0);
    ck_assert_str_eq(e1.path, e3.path);
}
END_TEST

START_TEST(hit_in_second_process)
{
    struct build b = {.content = CONTENT};
    frx_cache_entry e;
    ck_assert_int_eq(fetch_key(&b, &e), FRX_OK);
    ck_assert_int_eq(e.built, 1);

    pid_t pid = fork();
    ck_assert_int_ne(pid, -1);
    if (pid == 0) {
        struct build cb = {.content = CONTENT};
        frx_cache_entry ce;
        int rc = fetch_key(&cb, &ce);
        int ok = rc == FRX_OK && ce.built == 0 && content_is(ce.path, CONTENT);
        _exit(ok ? cb.calls : 100);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

/* ------------------------------------------------------- damaged entries */

static void flip_middle_byte(const char *path)
{
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    long mid = (long)strlen(CONTENT) / 2;
    ck_assert_int_eq(fseek(f, mid, SEEK_SET), 0);
    int c = fgetc(f);
    ck_assert_int_ne(c, EOF);
    ck_assert_int_eq(fseek(f, mid, SEEK_SET), 0);
    ck_assert_int_ne(fputc(c ^ 1, f), EOF);
    ck_assert_int_eq(fclose(f), 0);
}

/* Damage the entry, then: rebuilt once, then valid again. */
static void assert_rebuilt(struct build *b, const frx_cache_entry *e)
{
    frx_cache_entry r;
    int calls = b->calls;
    ck_assert_int_eq(fetch_key(b, &r), FRX_OK);
    ck_assert_int_eq(r.built, 1);
    ck_assert_int_eq(b->calls, calls + 1);
    ck_assert_str_eq(r.path, e->path);
    ck_assert(content_is(r.path, CONTENT));
    ck_assert_int_eq(fetch_key(b, &r), FRX_OK);
    ck_assert_int_eq(r.built, 0);
    ck_assert_int_eq(b->calls, calls + 1);
}

START_TEST(damaged_entries_rebuilt)
{
    struct build b = {.content = CONTENT};
    frx_cache_entry e;
    char sum[PATH_MAX];
    ck_assert_int_eq(fetch_key(&b, &e), FRX_OK);
    sum_path(e.path, sum, sizeof sum);

    ck_assert_int_eq(truncate(e.path, 5), 0);
    assert_rebuilt(&b, &e);

    struct stat before, after;
    ck_assert_int_eq(stat(e.path, &before), 0);
    flip_middle_byte(e.path);
    ck_assert_int_eq(stat(e.path, &after), 0);
    ck_assert_int_eq(before.st_size, after.st_size);
    ck_assert(!content_is(e.path, CONTENT));
    assert_rebuilt(&b, &e);

    ck_assert_int_eq(unlink(sum), 0);
    assert_rebuilt(&b, &e);

    ck_assert_int_eq(unlink(e.path), 0);
    assert_rebuilt(&b, &e);

    FILE *f = fopen(sum, "w");
    ck_assert_ptr_nonnull(f);
    fputs("garbage\n", f);
    fclose(f);
    assert_rebuilt(&b, &e);
}
END_TEST

/* Temporary files of a build that died with the lock are cleared by the
 * next build of the key. */
START_TEST(stale_temps_removed)
{
    struct build b = {.content = CONTENT};
    frx_cache_entry e;
    ck_assert_int_eq(fetch_key(&b, &e), FRX_OK);
    char stale[PATH_MAX + 32], sum[PATH_MAX];
    snprintf(stale, sizeof stale, "%.*s.tmp.999999.3.so",
             (int)(strlen(e.path) - 3), e.path);
    FILE *f = fopen(stale, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    sum_path(e.path, sum, sizeof sum);
    ck_assert_int_eq(unlink(sum), 0);
    assert_rebuilt(&b, &e);
    ck_assert(!path_exists(stale));
}
END_TEST

/* ------------------------------------------------------------ directory */

START_TEST(dir_from_environment)
{
    struct build b = {.content = CONTENT};
    frx_cache_entry e;
    char want[PATH_MAX];

    unsetenv("FRX_CACHE_DIR");
    snprintf(want, sizeof want, "%s/xdg", root);
    ck_assert_int_eq(setenv("XDG_CACHE_HOME", want, 1), 0);
    strcat(want, "/frx");
    ck_assert_int_eq(fetch_key(&b, &e), FRX_OK);
    ck_assert_msg(starts_with_dir(e.path, want), "%s not in %s", e.path, want);

    unsetenv("XDG_CACHE_HOME");
    snprintf(want, sizeof want, "%s/home", root);
    ck_assert_int_eq(setenv("HOME", want, 1), 0);
    strcat(want, "/.cache/frx");
    ck_assert_int_eq(fetch_key(&b, &e), FRX_OK);
    ck_assert_msg(starts_with_dir(e.path, want), "%s not in %s", e.path, want);
    ck_assert_int_eq(b.calls, 2);

    /* a trailing slash names the same directory */
    char slash[PATH_MAX + 1];
    snprintf(slash, sizeof slash, "%s/", want);
    ck_assert_int_eq(setenv("FRX_CACHE_DIR", slash, 1), 0);
    ck_assert_int_eq(fetch_key(&b, &e), FRX_OK);
    ck_assert_int_eq(e.built, 0);
}
END_TEST

START_TEST(open_dir_refused)
{
    struct build b = {.content = CONTENT};
    frx_cache_entry e;
    use_cache_dir("open");
    ck_assert_int_eq(mkdir(cache_dir, 0700), 0);

    ck_assert_int_eq(chmod(cache_dir, 0777), 0);
    ck_assert_int_eq(fetch_key(&b, &e), FRX_EINVAL);
    assert_msg(cache_dir);
    assert_msg("chmod 700");
    assert_msg("FRX_CACHE_DIR");

    ck_assert_int_eq(chmod(cache_dir, 0770), 0);
    ck_assert_int_eq(fetch_key(&b, &e), FRX_EINVAL);
    assert_msg("chmod 700");
    ck_assert_int_eq(b.calls, 0);
    ck_assert_str_eq(e.path, "");

    /* readable by others is not a way in */
    ck_assert_int_eq(chmod(cache_dir, 0755), 0);
    ck_assert_int_eq(fetch_key(&b, &e), FRX_OK);
}
END_TEST

START_TEST(not_a_directory_refused)
{
    struct build b = {.content = CONTENT};
    frx_cache_entry e;
    use_cache_dir("file");
    FILE *f = fopen(cache_dir, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert_int_eq(fetch_key(&b, &e), FRX_EINVAL);
    assert_msg(cache_dir);
    assert_msg("not a directory");

    use_cache_dir("file/sub");
    ck_assert_int_ne(fetch_key(&b, &e), FRX_OK);
    assert_msg(cache_dir);
    assert_msg("FRX_CACHE_DIR");
    ck_assert_int_eq(b.calls, 0);
}
END_TEST

START_TEST(foreign_dir_refused)
{
    if (geteuid() != 0) {
        fprintf(stderr, "foreign_dir_refused: skipped, needs root to chown\n");
        return;
    }
    struct build b = {.content = CONTENT};
    frx_cache_entry e;
    use_cache_dir("nobody");
    ck_assert_int_eq(mkdir(cache_dir, 0700), 0);
    ck_assert_int_eq(chown(cache_dir, 65534, 65534), 0);
    ck_assert_int_eq(fetch_key(&b, &e), FRX_EINVAL);
    assert_msg(cache_dir);
    assert_msg("uid 65534");
    assert_msg("FRX_CACHE_DIR");
    ck_assert_int_eq(b.calls, 0);
}
END_TEST

/* ------------------------------------------------------------ concurrency */

/* Both children wait for the go pipe to close, then fetch with a slow
 * build; each exits with its number of builds (100: failure). */
START_TEST(concurrent_fetch_builds_once)
{
    int go[2];
    ck_assert_int_eq(pipe(go), 0);
    pid_t pids[2];
    for (int i = 0; i < 2; i++) {
        pids[i] = fork();
        ck_assert_int_ne(pids[i], -1);
        if (pids[i] == 0) {
            char c;
            close(go[1]);
            while (read(go[0], &c, 1) < 0 && errno == EINTR)
                ;
            struct build b = {.content = CONTENT, .delay_ms = 200};
            frx_cache_entry e;
            int ok = fetch_key(&b, &e) == FRX_OK &&
                     content_is(e.path, CONTENT) && e.built == b.calls;
            _exit(ok ? b.calls : 100);
        }
    }
    close(go[0]);
    close(go[1]);

    int total = 0;
    for (int i = 0; i < 2; i++) {
        int status;
        ck_assert_int_eq(waitpid(pids[i], &status, 0), pids[i]);
        ck_assert(WIFEXITED(status));
        ck_assert_int_lt(WEXITSTATUS(status), 100);
        total += WEXITSTATUS(status);
    }
    ck_assert_int_eq(total, 1);

    struct build b = {.content = CONTENT};
    frx_cache_entry e;
    ck_assert_int_eq(fetch_key(&b, &e), FRX_OK);
    ck_assert_int_eq(e.built, 0);
}
END_TEST

/* ---------------------------------------------------------- failed builds */

static int leftovers;

static int count_leftover(const char *path, const struct stat *st, int flag,
                          struct FTW *ftw)
{
    (void)ftw;
    size_t n = strlen(path);
    if (flag == FTW_F && S_ISREG(st->st_mode) &&
        !(n > 5 && strcmp(path + n - 5, ".lock") == 0)) {
        fprintf(stderr, "left behind: %s\n", path);
        leftovers++;
    }
    return 0;
}

static int count_leftovers(const char *dir)
{
    leftovers = 0;
    ck_assert_int_eq(nftw(dir, count_leftover, 16, FTW_PHYS), 0);
    return leftovers;
}

START_TEST(failed_build_leaves_nothing)
{
    struct build b = {.content = CONTENT, .fail = 1};
    frx_cache_entry e;
    ck_assert_int_eq(fetch_key(&b, &e), FRX_EBACKEND);
    assert_msg("test build failed on purpose");
    ck_assert_str_eq(e.path, "");
    ck_assert_int_eq(count_leftovers(cache_dir), 0);

    struct build none = {.content = CONTENT, .write_nothing = 1};
    ck_assert_int_eq(fetch_key(&none, &e), FRX_EIO);
    assert_msg("wrote no file");
    ck_assert_int_eq(count_leftovers(cache_dir), 0);

    /* a failed rebuild of a damaged entry leaves no entry either */
    b.fail = 0;
    ck_assert_int_eq(fetch_key(&b, &e), FRX_OK);
    ck_assert_int_eq(e.built, 1);
    ck_assert_int_eq(truncate(e.path, 1), 0);
    b.fail = 1;
    ck_assert_int_eq(fetch_key(&b, &e), FRX_EBACKEND);
    ck_assert_int_eq(count_leftovers(cache_dir), 0);
}
END_TEST

START_TEST(bad_arguments)
{
    struct build b = {.content = CONTENT};
    frx_cache_entry e;
    const char *null_part[] = {"a", NULL};
    ck_assert_int_eq(frx_cache_fetch(KEY, NKEY, ".so", NULL, &b, &e),
                     FRX_EINVAL);
    ck_assert_int_eq(frx_cache_fetch(KEY, NKEY, ".so", build_fn, &b, NULL),
                     FRX_EINVAL);
    ck_assert_int_eq(frx_cache_fetch(NULL, 1, ".so", build_fn, &b, &e),
                     FRX_EINVAL);
    ck_assert_int_eq(frx_cache_fetch(null_part, 2, ".so", build_fn, &b, &e),
                     FRX_EINVAL);
    ck_assert_int_eq(frx_cache_fetch(KEY, NKEY, "/x", build_fn, &b, &e),
                     FRX_EINVAL);
    ck_assert_int_eq(frx_cache_fetch(KEY, NKEY, ".sum", build_fn, &b, &e),
                     FRX_EINVAL);
    ck_assert_int_eq(frx_cache_fetch(KEY, NKEY, ".lock", build_fn, &b, &e),
                     FRX_EINVAL);
    ck_assert_int_eq(b.calls, 0);

    /* no parts and no suffix make a key too */
    ck_assert_int_eq(frx_cache_fetch(NULL, 0, NULL, build_fn, &b, &e), 0);
    ck_assert_int_eq(e.built, 1);
}
END_TEST

/* ------------------------------------------------------------ FRX_CACHE=off */

static void assert_private(const frx_cache_entry *e, const char *tmpdir)
{
    ck_assert_int_eq(e->built, 1);
    ck_assert_int_eq(e->temporary, 1);
    ck_assert(content_is(e->path, CONTENT));
    ck_assert_msg(!starts_with_dir(e->path, cache_dir), "%s", e->path);
    ck_assert_msg(starts_with_dir(e->path, tmpdir), "%s", e->path);
}

static void assert_done_removes(frx_cache_entry *e)
{
    char path[sizeof e->path], dir[sizeof e->path];
    strcpy(path, e->path);
    strcpy(dir, e->path);
    frx_cache_done(e);
    ck_assert(!path_exists(path));
    ck_assert(!path_exists(dirname(dir)));
    ck_assert_int_eq(e->temporary, 0);
}

START_TEST(cache_off)
{
    char tmpdir[PATH_MAX];
    snprintf(tmpdir, sizeof tmpdir, "%s/tmp", root);
    ck_assert_int_eq(mkdir(tmpdir, 0700), 0);
    ck_assert_int_eq(setenv("TMPDIR", tmpdir, 1), 0);

    static const char *const offs[] = {"off", "OFF", "Off", "0", "no", "NO"};
    for (size_t i = 0; i < sizeof offs / sizeof *offs; i++) {
        ck_assert_int_eq(setenv("FRX_CACHE", offs[i], 1), 0);
        struct build b = {.content = CONTENT};
        frx_cache_entry e1, e2;
        ck_assert_int_eq(fetch_key(&b, &e1), FRX_OK);
        ck_assert_int_eq(fetch_key(&b, &e2), FRX_OK);
        ck_assert_int_eq(b.calls, 2);
        assert_private(&e1, tmpdir);
        assert_private(&e2, tmpdir);
        ck_assert_str_ne(e1.path, e2.path);
        assert_done_removes(&e1);
        assert_done_removes(&e2);
        frx_cache_done(&e1); /* twice is harmless */
    }
    ck_assert_msg(!path_exists(cache_dir), "FRX_CACHE=off made %s",
                  cache_dir);

    struct build b = {.content = CONTENT, .fail = 1};
    frx_cache_entry e;
    ck_assert_int_eq(fetch_key(&b, &e), FRX_EBACKEND);
    assert_msg("failed on purpose");
    ck_assert_int_eq(count_leftovers(tmpdir), 0);
    ck_assert_int_eq(rmdir(tmpdir), 0); /* empty: the private dir is gone */

    ck_assert_int_eq(setenv("FRX_CACHE", "on", 1), 0);
    struct build on = {.content = CONTENT};
    ck_assert_int_eq(fetch_key(&on, &e), FRX_OK);
    ck_assert_int_eq(e.temporary, 0);
    ck_assert(starts_with_dir(e.path, cache_dir));
}
END_TEST

/* ---------------------------------------------------------------- main */

/* ------------------------------------------------------ operators' cases */

/* The first *.lock file under dir holding a pid, into path; its pid. */
static long find_lock(const char *dir, char *path, size_t n)
{
    DIR *d = opendir(dir);
    long pid = 0;
    for (struct dirent *e; d && !pid && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, n, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            char sub[PATH_MAX];
            snprintf(sub, sizeof sub, "%s", path);
            pid = find_lock(sub, path, n);
        } else if (strstr(e->d_name, ".lock")) {
            char *text = slurp(path, NULL);
            pid = text ? atol(text) : 0;
            free(text);
        }
    }
    if (d)
        closedir(d);
    return pid;
}

/* A process that waits for another's lock says so after 2 s, naming the
 * lock and its holder, and gives up after cache.lock-timeout with what
 * to do. */
START_TEST(lock_wait_said_and_bounded)
{
    /* The child holds the lock until this process has waited its time
     * out and closes the pipe: not for a fixed time, which a loaded
     * machine could outlast (a lock freed before the timeout is a hit,
     * and this test failed so once). */
    int hold[2];
    ck_assert_int_eq(pipe(hold), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(hold[1]);
        struct build b = {.content = CONTENT, .hold_fd = hold[0]};
        frx_cache_entry e;
        _exit(fetch_key(&b, &e) == FRX_OK ? 0 : 1);
    }
    close(hold[0]);
    char lock[PATH_MAX];
    long holder = 0;
    for (int i = 0; i < 500 && holder != pid; i++) {
        nanosleep(&(struct timespec){0, 10000000}, NULL);
        holder = find_lock(cache_dir, lock, sizeof lock);
    }
    ck_assert_int_eq(holder, pid);

    char log[PATH_MAX];
    snprintf(log, sizeof log, "%s/stderr", root);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600), saved = dup(2);
    ck_assert(fd >= 0 && saved >= 0 && dup2(fd, 2) == 2);
    frx_cache_set_lock_timeout(2.5);
    struct build b = {.content = CONTENT};
    frx_cache_entry e;
    int rc = fetch_key(&b, &e);
    dup2(saved, 2);
    close(fd);
    char *said = slurp(log, NULL), want[2 * PATH_MAX];
    ck_assert_int_eq(rc, FRX_EIO);
    ck_assert_int_eq(b.calls, 0);
    snprintf(want, sizeof want, "waiting for %s held by pid %ld", lock,
             (long)pid);
    ck_assert_msg(strstr(said, want), "log lacks \"%s\": %s", want, said);
    snprintf(want, sizeof want, "the cache lock %s, held by pid %ld", lock,
             (long)pid);
    ck_assert_msg(strstr(frx_errmsg(), want), "%s", frx_errmsg());
    ck_assert(strstr(frx_errmsg(), "FRX_CACHE_DIR"));
    ck_assert(strstr(frx_errmsg(), "FRX_CACHE=off"));
    free(said);
    close(hold[1]); /* the child may build now */
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
END_TEST

static int set_readonly(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw)
{
    (void)flag, (void)ftw;
    if (geteuid() == 0 && lchown(path, 65534, 65534) != 0)
        return -1;
    return chmod(path, S_ISDIR(st->st_mode) ? 0500 : 0400);
}

/* A cache that cannot be written is used read-only: what it holds loads,
 * what it lacks is an error that says what to do. */
START_TEST(readonly_cache_used)
{
    struct build b = {.content = CONTENT};
    frx_cache_entry e;
    ck_assert_int_eq(fetch_key(&b, &e), FRX_OK);
    ck_assert_int_eq(nftw(cache_dir, set_readonly, 16, FTW_PHYS), 0);
    if (geteuid() == 0) { /* root writes anywhere: become nobody */
        ck_assert_int_eq(chmod(root, 0711), 0);
        ck_assert_int_eq(chmod(base_tmp, 0711), 0);
        ck_assert_int_eq(setgid(65534), 0);
        ck_assert_int_eq(setuid(65534), 0);
    }
    ck_assert_int_eq(fetch_key(&b, &e), FRX_OK);
    ck_assert_int_eq(e.built, 0);
    ck_assert_int_eq(b.calls, 1);
    ck_assert(content_is(e.path, CONTENT));
    frx_cache_done(&e);

    const char *other[] = {"another kernel"};
    ck_assert_int_eq(frx_cache_fetch(other, 1, ".so", build_fn, &b, &e),
                     FRX_EIO);
    ck_assert_int_eq(b.calls, 1);
    ck_assert_msg(strstr(frx_errmsg(), "cannot be written here and holds "
                         "no valid entry"), "%s", frx_errmsg());
    ck_assert(strstr(frx_errmsg(), "FRX_CACHE_DIR"));
    ck_assert(strstr(frx_errmsg(), "FRX_CACHE=off"));
}
END_TEST

/* Run as test case no-flock, with fault.c preloaded and FRX_FAULT=flock:
 * flock() fails as it does where the file system lacks it. */
START_TEST(no_flock_named)
{
    const char *f = getenv("FRX_FAULT");
    if (!f || !strstr(f, "flock")) {
        printf("no_flock_named: runs as ctest's cache-no-flock\n");
        return;
    }
    struct build b = {.content = CONTENT};
    frx_cache_entry e;
    ck_assert_int_eq(fetch_key(&b, &e), FRX_EIO);
    ck_assert_int_eq(b.calls, 0);
    ck_assert_msg(strstr(frx_errmsg(), "does not support flock()"), "%s",
                  frx_errmsg());
    ck_assert(strstr(frx_errmsg(), "FRX_CACHE_DIR"));
    ck_assert(strstr(frx_errmsg(), "FRX_CACHE=off"));
}
END_TEST

static Suite *cache_suite(void)
{
    Suite *s = suite_create("cache");
    TCase *tc = tcase_create("sha256");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, sha256_vectors);
    tcase_add_test(tc, sum_of_large_entry);
    suite_add_tcase(s, tc);

    tc = tcase_create("entries");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, build_then_hit);
    tcase_add_test(tc, keys_differ);
    tcase_add_test(tc, hit_in_second_process);
    tcase_add_test(tc, damaged_entries_rebuilt);
    tcase_add_test(tc, stale_temps_removed);
    tcase_add_test(tc, concurrent_fetch_builds_once);
    tcase_add_test(tc, failed_build_leaves_nothing);
    tcase_add_test(tc, bad_arguments);
    tcase_add_test(tc, cache_off);
    suite_add_tcase(s, tc);

    tc = tcase_create("directory");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, dir_from_environment);
    tcase_add_test(tc, open_dir_refused);
    tcase_add_test(tc, not_a_directory_refused);
    tcase_add_test(tc, foreign_dir_refused);
    suite_add_tcase(s, tc);

    tc = tcase_create("operators");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, lock_wait_said_and_bounded);
    tcase_add_test(tc, readonly_cache_used);
    suite_add_tcase(s, tc);

    tc = tcase_create("no-flock");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, no_flock_named);
    suite_add_tcase(s, tc);
    return s;
}

/* Every test's directory is made inside one removed at the end, as a
 * failed test skips its teardown. */
int main(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(base_tmp, sizeof base_tmp, "%s/frx-test-cache-XXXXXX",
             t && *t ? t : "/tmp");
    if (!mkdtemp(base_tmp)) {
        perror(base_tmp);
        return EXIT_FAILURE;
    }
    SRunner *sr = srunner_create(cache_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    remove_tree(base_tmp);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
