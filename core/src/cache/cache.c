/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-user disk cache of compiled artefacts (kernel shared objects,
 * program binaries).
 *
 * In DIR/<first two hex digits of the key>/:
 *   <key><suffix>      an entry
 *   <key>.sum          its size and SHA-256, checked on every fetch
 *   <key>.lock         flock()ed while the entry is checked or built
 *   <key>.tmp.*        names things are written under before rename()
 *                      puts them in place */
#include "cache/cache-impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PATH_SZ sizeof(((frx_cache_entry *)0)->path)
#define MAX_SUFFIX 64

#define FIX_USE_OWN                                                         \
    "set FRX_CACHE_DIR to a directory of your own, or FRX_CACHE=off to "    \
    "build without a cache"

/* How long a process waits for another's lock on an entry, and when it
 * says that it waits. */
static double lock_timeout = 300; /* cache.lock-timeout */
#define LOCK_SAY_AFTER 2.0

struct file_sum {
    unsigned long long size;
    char hex[65];
};

/* The files of one key. */
struct names {
    char key[65];
    const char *suffix;
    char subdir[PATH_SZ], entry[PATH_SZ], sum[PATH_SZ], lock[PATH_SZ];
    int readonly; /* the subdirectory is missing and cannot be made */
};

enum { ENTRY_VALID, ENTRY_ABSENT, ENTRY_DAMAGED };

/* ------------------------------------------------------------- helpers */

static int io_error(const char *what, const char *path)
{
    return frx_error(FRX_EIO, "%s %s: %s", what, path, strerror(errno));
}

static int fmt_path(char *buf, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fmt_path(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= n)
        return frx_error(FRX_EINVAL, "cache path too long (%zu bytes at "
                         "most): %.200s...", n - 1, buf);
    return FRX_OK;
}

static void to_hex(const unsigned char md[32], char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = digits[md[i] >> 4];
        hex[2 * i + 1] = digits[md[i] & 15];
    }
    hex[64] = '\0';
}

static void unlink_or_warn(const char *path)
{
    if (path[0] && unlink(path) != 0 && errno != ENOENT)
        frx_log(FRX_LOG_WARN, "cannot remove %s: %s", path, strerror(errno));
}

static void rmdir_or_warn(const char *path)
{
    if (rmdir(path) != 0)
        frx_log(FRX_LOG_WARN, "cannot remove the private build directory "
                "%s: %s", path, strerror(errno));
}

static int write_all(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t k = write(fd, buf, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        buf += k;
        len -= (size_t)k;
    }
    return 0;
}

/* ----------------------------------------------------------- directory */

/* $FRX_CACHE_DIR, else $XDG_CACHE_HOME/frx, else $HOME/.cache/frx; no
 * trailing slash. */
static int dir_from_env(char *buf, size_t n)
{
    const char *env = getenv("FRX_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int rc;
    if (env && *env)
        rc = fmt_path(buf, n, "%s", env);
    else if (xdg && xdg[0] == '/') /* the XDG spec ignores relative ones */
        rc = fmt_path(buf, n, "%s/frx", xdg);
    else if (home && *home)
        rc = fmt_path(buf, n, "%s/.cache/frx", home);
    else
        return frx_error(FRX_EINVAL, "no directory for the kernel cache: "
                         "HOME is not set; " FIX_USE_OWN);
    if (rc)
        return rc;
    for (size_t len = strlen(buf); len > 1 && buf[len - 1] == '/'; len--)
        buf[len - 1] = '\0';
    return FRX_OK;
}

/* Creates each missing component of path, 0700 as the XDG spec asks;
 * what exists is judged by check_dir. */
static int make_dirs(char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return FRX_OK;
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        int fail = stat(path, &st) != 0 && errno == ENOENT &&
                   mkdir(path, 0700) != 0 && errno != EEXIST;
        int err = errno;
        *p = c;
        if (fail) {
            char part[PATH_SZ];
            snprintf(part, sizeof part, "%.*s", (int)(p - path), path);
            return frx_error(FRX_EIO, "cannot create the cache directory %s "
                             "(at %s: %s); " FIX_USE_OWN, path, part,
                             strerror(err));
        }
        if (!c)
            return FRX_OK;
    }
}

/* Another user who can write the cache could plant code we would load. */
static int check_dir(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return frx_error(FRX_EIO, "cannot use the cache directory %s: %s; "
                         FIX_USE_OWN, dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return frx_error(FRX_EINVAL, "the cache directory %s is not a "
                         "directory; remove it, or " FIX_USE_OWN, dir);
    if (st.st_uid != geteuid())
        return frx_error(FRX_EINVAL, "the cache directory %s belongs to "
                         "uid %lu, not to you (uid %lu), so it could hold "
                         "code planted by someone else; " FIX_USE_OWN, dir,
                         (unsigned long)st.st_uid, (unsigned long)geteuid());
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return frx_error(FRX_EINVAL, "the cache directory %s is writable by "
                         "%s (mode %04o), so it could hold code planted by "
                         "someone else; run `chmod 700 %s`, or " FIX_USE_OWN,
                         dir, st.st_mode & S_IWOTH ? "others" : "its group",
                         (unsigned)(st.st_mode & 07777), dir);
    return FRX_OK;
}

int frx__cache_dir(char *buf, size_t n)
{
    int rc = dir_from_env(buf, n);
    if (!rc)
        rc = make_dirs(buf);
    if (!rc)
        rc = check_dir(buf);
    return rc;
}

/* ----------------------------------------------------------------- key */

/* Each field is preceded by its length, so ("ab", "c") and ("a", "bc")
 * hash differently. */
static void hash_field(frx__sha256 *s, const void *data, size_t len)
{
    unsigned char n[8];
    for (int i = 0; i < 8; i++)
        n[i] = (unsigned char)((uint64_t)len >> 8 * i);
    frx__sha256_update(s, n, sizeof n);
    frx__sha256_update(s, data, len);
}

static void cache_key(const char *const *parts, size_t nparts,
                      const char *suffix, char hex[65])
{
    char abi[32];
    snprintf(abi, sizeof abi, "frx abi %d.%d", FRX_ABI_MAJOR, FRX_ABI_MINOR);
    frx__sha256 s;
    unsigned char md[32];
    frx__sha256_init(&s);
    for (size_t i = 0; i < nparts; i++)
        hash_field(&s, parts[i], strlen(parts[i]));
    hash_field(&s, abi, strlen(abi));
    hash_field(&s, suffix, strlen(suffix));
    frx__sha256_final(&s, md);
    to_hex(md, hex);
}

static int check_args(const char *const *parts, size_t nparts,
                      const char *suffix, frx_cache_build_fn build,
                      const frx_cache_entry *out)
{
    if (!build || !out || (nparts && !parts))
        return frx_error(FRX_EINVAL, "frx_cache_fetch: %s is NULL",
                         !build ? "build" : !out ? "out" : "parts");
    for (size_t i = 0; i < nparts; i++)
        if (!parts[i])
            return frx_error(FRX_EINVAL, "frx_cache_fetch: parts[%zu] is "
                             "NULL", i);
    /* It must not name the other files of a key. */
    if (strlen(suffix) > MAX_SUFFIX || strchr(suffix, '/') ||
        !strcmp(suffix, ".sum") || !strcmp(suffix, ".lock") ||
        !strncmp(suffix, ".tmp.", 5))
        return frx_error(FRX_EINVAL, "frx_cache_fetch: bad suffix \"%.80s\": "
                         "it must have at most %d characters, no '/', and "
                         "not be .sum, .lock or .tmp.*", suffix, MAX_SUFFIX);
    return FRX_OK;
}

/* --------------------------------------------------------------- sums */

/* Size and SHA-256 of a file's content. */
static int sum_file(const char *path, struct file_sum *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return io_error("cannot open", path);
    frx__sha256 s;
    unsigned char buf[16384], md[32];
    frx__sha256_init(&s);
    out->size = 0;
    for (;;) {
        ssize_t k = read(fd, buf, sizeof buf);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            int rc = io_error("cannot read", path);
            close(fd);
            return rc;
        }
        if (k == 0)
            break;
        frx__sha256_update(&s, buf, (size_t)k);
        out->size += (unsigned long long)k;
    }
    close(fd);
    frx__sha256_final(&s, md);
    to_hex(md, out->hex);
    return FRX_OK;
}

/* "<size> <sha256 hex>\n"; *ok = 0 if the text is not that. */
static int read_sum(const char *path, struct file_sum *out, int *ok)
{
    *ok = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return io_error("cannot open", path);
    char text[128];
    ssize_t k;
    do
        k = read(fd, text, sizeof text - 1);
    while (k < 0 && errno == EINTR);
    int rc = k < 0 ? io_error("cannot read", path) : FRX_OK;
    close(fd);
    if (rc)
        return rc;
    text[k] = '\0';

    char *end;
    errno = 0;
    out->size = strtoull(text, &end, 10);
    if (end == text || errno || *end != ' ' || strlen(end + 1) != 65 ||
        strspn(end + 1, "0123456789abcdef") != 64 || end[65] != '\n')
        return FRX_OK;
    memcpy(out->hex, end + 1, 64);
    out->hex[64] = '\0';
    *ok = 1;
    return FRX_OK;
}

/* Written to a new file (O_EXCL: a temporary name of ours). */
static int write_sum(const char *path, const struct file_sum *s)
{
    char text[128];
    int len = snprintf(text, sizeof text, "%llu %s\n", s->size, s->hex);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return io_error("cannot create", path);
    if (write_all(fd, text, (size_t)len) != 0) {
        int rc = io_error("cannot write", path);
        close(fd);
        return rc;
    }
    if (close(fd) != 0)
        return io_error("cannot write", path);
    return FRX_OK;
}

/* -------------------------------------------------------------- entries */

static int names_init(struct names *nm, const char *key, const char *suffix)
{
    char dir[PATH_SZ];
    int rc = frx__cache_dir(dir, sizeof dir);
    if (rc)
        return rc;
    memcpy(nm->key, key, sizeof nm->key);
    nm->suffix = suffix;
    rc = fmt_path(nm->subdir, PATH_SZ, "%s/%.2s", dir, key);
    if (!rc)
        rc = fmt_path(nm->entry, PATH_SZ, "%s/%s%s", nm->subdir, key, suffix);
    if (!rc)
        rc = fmt_path(nm->sum, PATH_SZ, "%s/%s.sum", nm->subdir, key);
    if (!rc)
        rc = fmt_path(nm->lock, PATH_SZ, "%s/%s.lock", nm->subdir, key);
    /* a cache that cannot be written may still serve what it holds */
    if (!rc && mkdir(nm->subdir, 0700) != 0 && errno != EEXIST) {
        if (errno == EACCES || errno == EROFS || errno == EPERM)
            nm->readonly = 1;
        else
            rc = io_error("cannot create the cache directory", nm->subdir);
    }
    return rc;
}

/* The file names of key, allocated; NULL on an error. */
static int names_new(const char *key, const char *suffix, struct names **out)
{
    *out = frx__calloc(1, sizeof **out, "cache file names");
    if (!*out)
        return FRX_ENOMEM;
    int rc = names_init(*out, key, suffix);
    if (rc) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

/* A unique name beside the entry: <key>.tmp.<pid>.<n><ext>. The
 * extension is kept for tools that choose the output kind by it. */
static int temp_name(char *buf, const struct names *nm, const char *ext)
{
    static atomic_uint counter;
    return fmt_path(buf, PATH_SZ, "%s/%s.tmp.%ld.%u%s", nm->subdir, nm->key,
                    (long)getpid(), atomic_fetch_add(&counter, 1), ext);
}

void frx_cache_set_lock_timeout(double seconds)
{
    if (seconds >= 0)
        lock_timeout = seconds;
}

/* The pid the holder of a lock wrote into it, or 0. */
static long lock_holder(int fd)
{
    char text[32];
    ssize_t k = pread(fd, text, sizeof text - 1, 0);
    if (k <= 0)
        return 0;
    text[k] = '\0';
    return strtol(text, NULL, 10);
}

static int no_flock(const char *path, int err)
{
    return err == ENOLCK || err == ENOSYS || err == EOPNOTSUPP ||
           err == EINVAL
               ? frx_error(FRX_EIO, "cannot lock %s: the file system of the "
                           "cache does not support flock() (%s; Lustre "
                           "mounted without -o flock?): set FRX_CACHE_DIR to "
                           "a directory on a local file system, or "
                           "FRX_CACHE=off to build without a cache", path,
                           strerror(err))
               : io_error("cannot lock", path);
}

/* Waits for the lock of a key (op: LOCK_EX to build, LOCK_SH to read a
 * cache that cannot be written), saying so after a while and giving up
 * after cache.lock-timeout seconds. The holder writes its pid in. */
static int lock_wait(const char *path, int fd, int op)
{
    double t0 = frx__now(), pause = 0.005;
    int said = 0;
    for (;;) {
        if (flock(fd, op | LOCK_NB) == 0)
            break;
        if (errno == EINTR)
            continue;
        if (errno != EWOULDBLOCK)
            return no_flock(path, errno);
        double waited = frx__now() - t0;
        if (waited >= lock_timeout)
            return frx_error(FRX_EIO, "gave up after %.0f s waiting for the "
                             "cache lock %s, held by pid %ld (cache.lock-"
                             "timeout): if that process hangs, end it; or "
                             "set FRX_CACHE_DIR to another directory, or "
                             "FRX_CACHE=off to build without a cache", waited,
                             path, lock_holder(fd));
        if (!said && waited >= LOCK_SAY_AFTER) {
            frx_log(FRX_LOG_WARN, "waiting for %s held by pid %ld (another "
                    "process builds the same kernel; giving up after %.0f s, "
                    "cache.lock-timeout)", path, lock_holder(fd),
                    lock_timeout);
            said = 1;
        }
        struct timespec ts = {0, (long)(pause * 1e9)};
        nanosleep(&ts, NULL);
        pause = pause < 0.05 ? pause * 2 : 0.1;
    }
    if (op == LOCK_EX) {
        char pid[32];
        int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
        if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n)
            frx_log(FRX_LOG_DEBUG, "cannot write the pid into %s: %s", path,
                    strerror(errno));
    }
    return FRX_OK;
}

/* *readonly is set (or was, by the caller) when the cache cannot be
 * written here: the lock is then shared (or absent), and only a valid
 * entry can be used. */
static int lock_key(const char *path, int *fd, int *readonly)
{
    *fd = *readonly ? -1 : open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (*readonly ||
        (*fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM))) {
        *readonly = 1;
        *fd = open(path, O_RDONLY | O_CLOEXEC);
        if (*fd < 0) /* no lock file, and none can be made: nobody builds */
            return errno == ENOENT ? FRX_OK
                                   : io_error("cannot open the cache lock",
                                              path);
    } else if (*fd < 0) {
        return io_error("cannot open the cache lock", path);
    }
    int rc = lock_wait(path, *fd, *readonly ? LOCK_SH : LOCK_EX);
    if (rc) {
        close(*fd);
        *fd = -1;
    }
    return rc;
}

static int exists(const char *path, int *yes)
{
    struct stat st;
    *yes = stat(path, &st) == 0;
    if (!*yes && errno != ENOENT)
        return io_error("cannot use", path);
    return FRX_OK;
}

/* Is the entry there and unchanged since it was written? If not, why
 * (the entry might have been truncated by a full disk, or edited). */
static int entry_state(const struct names *nm, int *state, char *why,
                       size_t n)
{
    int has_entry, has_sum, ok;
    struct file_sum want, have;
    int rc = exists(nm->entry, &has_entry);
    if (!rc)
        rc = exists(nm->sum, &has_sum);
    if (rc)
        return rc;
    *state = ENTRY_DAMAGED;
    if (!has_entry && !has_sum)
        *state = ENTRY_ABSENT;
    else if (!has_entry)
        snprintf(why, n, "it is missing but its checksum file is there");
    else if (!has_sum)
        snprintf(why, n, "its checksum file is missing");
    else if ((rc = read_sum(nm->sum, &want, &ok)) || !ok)
        snprintf(why, n, "its checksum file is malformed");
    else if ((rc = sum_file(nm->entry, &have)))
        ;
    else if (have.size != want.size)
        snprintf(why, n, "its size is %llu bytes, not %llu", have.size,
                 want.size);
    else if (strcmp(have.hex, want.hex) != 0)
        snprintf(why, n, "its content does not match its checksum");
    else
        *state = ENTRY_VALID;
    return rc;
}

static int check_built(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return frx_error(FRX_EIO, "the build of cache entry %s reported "
                         "success but wrote no file: %s", path,
                         strerror(errno));
    return FRX_OK;
}

/* Temporary files of this key left by a process that died holding the
 * lock: with the lock held now, nobody else can be writing them. */
static void remove_stale_temps(const struct names *nm)
{
    DIR *d = opendir(nm->subdir);
    if (!d)
        return;
    char prefix[80];
    int plen = snprintf(prefix, sizeof prefix, "%s.tmp.", nm->key);
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (strncmp(de->d_name, prefix, (size_t)plen) == 0 &&
            unlinkat(dirfd(d), de->d_name, 0) != 0 && errno != ENOENT)
            frx_log(FRX_LOG_WARN, "cannot remove %s/%s: %s", nm->subdir,
                    de->d_name, strerror(errno));
    closedir(d);
}

/* Build under a temporary name, then rename the entry and its sum into
 * place: a reader sees the old files or the new ones, never a part. */
static int build_entry(const struct names *nm, frx_cache_build_fn build,
                       void *ud)
{
    char tmp[PATH_SZ], tmp_sum[PATH_SZ] = "";
    struct file_sum s;
    remove_stale_temps(nm);
    int rc = temp_name(tmp, nm, nm->suffix);
    if (rc)
        return rc;
    rc = build(tmp, ud);
    if (rc) {
        unlink_or_warn(tmp);
        return rc;
    }
    rc = check_built(tmp);
    if (!rc)
        rc = sum_file(tmp, &s);
    if (!rc)
        rc = temp_name(tmp_sum, nm, ".sum");
    if (!rc)
        rc = write_sum(tmp_sum, &s);
    if (!rc && rename(tmp, nm->entry) != 0)
        rc = io_error("cannot rename into place the cache entry", nm->entry);
    if (!rc && rename(tmp_sum, nm->sum) != 0)
        rc = io_error("cannot rename into place the cache checksum", nm->sum);
    if (rc) {
        unlink_or_warn(tmp);
        unlink_or_warn(tmp_sum);
    }
    return rc;
}

static int fetch_locked(const struct names *nm, frx_cache_build_fn build,
                        void *ud, int readonly, frx_cache_entry *out)
{
    int state;
    char why[128];
    int rc = entry_state(nm, &state, why, sizeof why);
    if (rc)
        return rc;
    if (readonly && state != ENTRY_VALID)
        return frx_error(FRX_EIO, "the cache directory %s cannot be written "
                         "here and holds no valid entry for this kernel "
                         "(%s): make it writable, set FRX_CACHE_DIR to a "
                         "directory you can write, or FRX_CACHE=off to "
                         "build without a cache", nm->subdir,
                         state == ENTRY_ABSENT ? "none" : why);
    if (state == ENTRY_DAMAGED) {
        frx_log(FRX_LOG_WARN, "cache entry %s is damaged (%s); rebuilding it",
                nm->entry, why);
        /* so that a failed rebuild leaves no entry */
        unlink_or_warn(nm->sum);
        unlink_or_warn(nm->entry);
    }
    if (state != ENTRY_VALID) {
        rc = build_entry(nm, build, ud);
        if (rc)
            return rc;
        out->built = 1;
    }
    memcpy(out->path, nm->entry, PATH_SZ);
    return FRX_OK;
}

/* ------------------------------------------------- FRX_CACHE=off builds */

static int cache_disabled(void)
{
    const char *v = getenv("FRX_CACHE");
    return v && (!strcasecmp(v, "off") || !strcmp(v, "0") ||
                 !strcasecmp(v, "no"));
}

/* Removes path and the private directory that holds it. */
static void remove_private(char *path)
{
    unlink_or_warn(path);
    char *slash = strrchr(path, '/');
    if (!slash)
        return;
    *slash = '\0';
    rmdir_or_warn(path);
    *slash = '/';
}

static int fetch_private(const char *key, const char *suffix,
                         frx_cache_build_fn build, void *ud,
                         frx_cache_entry *out)
{
    const char *tmpdir = getenv("TMPDIR");
    char dir[PATH_SZ];
    int rc = fmt_path(dir, sizeof dir, "%s/frx-XXXXXX",
                      tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (rc)
        return rc;
    if (!mkdtemp(dir))
        return frx_error(FRX_EIO, "cannot create a private build directory "
                         "%s (FRX_CACHE=off builds there): %s; set TMPDIR to "
                         "a directory you can write", dir, strerror(errno));
    rc = fmt_path(out->path, PATH_SZ, "%s/%s%s", dir, key, suffix);
    if (rc) {
        rmdir_or_warn(dir);
        out->path[0] = '\0';
        return rc;
    }
    rc = build(out->path, ud);
    if (!rc)
        rc = check_built(out->path);
    if (rc) {
        remove_private(out->path);
        out->path[0] = '\0';
        return rc;
    }
    out->built = 1;
    out->temporary = 1;
    return FRX_OK;
}

/* ------------------------------------------------------------- public */

int frx_cache_fetch(const char *const *parts, size_t nparts,
                    const char *suffix, frx_cache_build_fn build, void *ud,
                    frx_cache_entry *out)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!suffix)
        suffix = "";
    int rc = check_args(parts, nparts, suffix, build, out);
    if (rc)
        return rc;
    char key[65];
    cache_key(parts, nparts, suffix, key);
    if (cache_disabled())
        return fetch_private(key, suffix, build, ud, out);

    struct names *nm;
    rc = names_new(key, suffix, &nm);
    if (rc)
        return rc;
    int fd = -1, readonly = nm->readonly;
    rc = lock_key(nm->lock, &fd, &readonly);
    if (!rc) {
        rc = fetch_locked(nm, build, ud, readonly, out);
        if (fd >= 0)
            close(fd); /* releases the lock */
    }
    free(nm);
    return rc;
}

/* Without the lock: an entry is renamed into place before its sum, so a
 * reader sees a valid pair, or a mismatch or a file gone, which count as
 * absent here: frx_cache_fetch then takes the lock and says what is
 * wrong, as it does for a cache directory that cannot be used. */
int frx__cache_peek(const char *const *parts, size_t nparts,
                    const char *suffix, frx_cache_entry *out, int *found)
{
    memset(out, 0, sizeof *out);
    *found = 0;
    if (cache_disabled())
        return FRX_OK;
    char key[65], why[128];
    cache_key(parts, nparts, suffix, key);
    struct names *nm;
    int state = ENTRY_ABSENT;
    if (names_new(key, suffix, &nm) != FRX_OK)
        return FRX_OK;
    if (entry_state(nm, &state, why, sizeof why) == FRX_OK &&
        state == ENTRY_VALID) {
        memcpy(out->path, nm->entry, PATH_SZ);
        *found = 1;
    }
    free(nm);
    return FRX_OK;
}

void frx_cache_done(frx_cache_entry *e)
{
    if (!e || !e->temporary)
        return;
    remove_private(e->path);
    e->path[0] = '\0';
    e->temporary = 0;
}
