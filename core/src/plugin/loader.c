/* SPDX-License-Identifier: BSD-3-Clause */
/* Plugin loader: finds frx-<name>.so files along the search path, opens
 * them with libltdl in local scope, checks their descriptor and keeps
 * them in a process-wide registry keyed by real path.
 *
 * Plugins are never unloaded: one that started threads (OpenMP) would
 * crash when its code went away under them. */
#include "plugin/plugin-impl.h"

#include <frx/extension.h>

#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <libgen.h>
#include <limits.h>
#include <ltdl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PLUGIN_SUFFIX ".so"

struct frx_plugin {
    char *path;               /* real path: the registry key */
    lt_dlhandle handle;
    frx_plugin_desc desc;     /* the plugin's, normalised (see take_struct) */
    frx_backend_ops backend;
    frx_solver_ops solver;
    frx_extension_ops extension;
    struct frx_plugin *next;
};

/* Recursive, so a plugin's constructor may itself open plugins. It also
 * serialises libltdl, which has no locking of its own. */
static pthread_mutex_t registry_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static struct frx_plugin *registry;

/* The handles stay open: only our own bookkeeping is freed, so that the
 * leak checker sees nothing and no plugin code is unmapped. */
__attribute__((destructor)) static void registry_free(void)
{
    pthread_mutex_lock(&registry_lock);
    while (registry) {
        struct frx_plugin *p = registry;
        registry = p->next;
        free(p->path);
        free(p);
    }
    pthread_mutex_unlock(&registry_lock);
}

static struct frx_plugin *registry_lookup(const char *real)
{
    for (struct frx_plugin *p = registry; p; p = p->next)
        if (strcmp(p->path, real) == 0)
            return p;
    return NULL;
}

/* ------------------------------------------------------------- libltdl */

static pthread_once_t ltdl_once = PTHREAD_ONCE_INIT;
static char ltdl_init_error[256];

static void ltdl_init(void)
{
    if (lt_dlinit() != 0) {
        const char *e = lt_dlerror();
        snprintf(ltdl_init_error, sizeof ltdl_init_error, "%s",
                 e ? e : "unknown error");
    }
}

/* ------------------------------------------------------------- strings */

static char *join_path(const char *dir, const char *name)
{
    size_t len = strlen(dir);
    const char *sep = len && dir[len - 1] == '/' ? "" : "/";
    char *s;
    if (asprintf(&s, "%s%s%s", dir, sep, name) < 0) {
        frx_error(FRX_ENOMEM, "out of memory joining %s and %s", dir, name);
        return NULL;
    }
    return s;
}

/* <name> of ".../frx-<name>.so" into buf; 0 if the file is not so named. */
static int name_from_file(const char *path, char *buf, size_t n)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t plen = strlen(FRX_PLUGIN_PREFIX), slen = strlen(PLUGIN_SUFFIX);
    size_t len = strlen(base);
    if (len <= plen + slen || strncmp(base, FRX_PLUGIN_PREFIX, plen) != 0 ||
        strcmp(base + len - slen, PLUGIN_SUFFIX) != 0)
        return 0;
    size_t nlen = len - plen - slen;
    if (nlen >= n)
        return 0;
    memcpy(buf, base + plen, nlen);
    buf[nlen] = '\0';
    return 1;
}

/* ----------------------------------------------------- versioned structs */

/* Copy a plugin's versioned struct into ours, whole. What lies past the
 * plugin's size stays zero, i.e. absent. The size is rounded down to the
 * struct's alignment so that a field cut in two by an odd size counts as
 * absent too (a compiler's sizeof is always such a multiple). The copy's
 * size field then says how many of its bytes came from the plugin. */
static void take_struct(void *dst, size_t dst_size, size_t align,
                        size_t size_off, const void *src, uint32_t src_size)
{
    size_t n = src_size < dst_size ? src_size : dst_size;
    n -= n % align;
    memset(dst, 0, dst_size);
    memcpy(dst, src, n);
    uint32_t kept = (uint32_t)n;
    memcpy((char *)dst + size_off, &kept, sizeof kept);
}

#define TAKE_STRUCT(dst, src, type)                                        \
    take_struct((dst), sizeof(type), _Alignof(type), offsetof(type, size), \
                (src), (src)->size)

/* Does a plugin's struct of the given size hold all of field? */
#define HAS_FIELD(type, field, size)                                       \
    (offsetof(type, field) + sizeof(((type *)0)->field) <= (size))

/* The descriptor's fields frx cannot do without: up to its name. */
#define DESC_MIN_SIZE                                                      \
    (offsetof(frx_plugin_desc, name) + sizeof(const char *))

/* ---------------------------------------------------- the ELF header */

/* What dlopen would stumble on, said before it runs: a file cut short
 * (dlopen maps its segments past the end and the process dies of
 * SIGBUS) or built for another machine (glibc then says "No such file
 * or directory"). Files that are not ELF are left to dlopen's message. */
static const char *machine_name(unsigned m, char *buf, size_t n)
{
    static const struct {
        unsigned m;
        const char *name;
    } names[] = {{EM_X86_64, "x86-64"}, {EM_AARCH64, "aarch64"},
                 {EM_386, "i386"},      {EM_ARM, "arm"},
                 {EM_PPC64, "ppc64"},   {EM_PPC, "ppc"},
                 {EM_RISCV, "riscv"},   {EM_S390, "s390x"},
                 {EM_SPARCV9, "sparc64"}, {EM_MIPS, "mips"},
                 {EM_IA_64, "ia64"},    {258, "loongarch"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (names[i].m == m)
            return names[i].name;
    snprintf(buf, n, "machine %u", m);
    return buf;
}

/* The fields of an ELF header that matter here, of either class. */
struct elf_info {
    unsigned char cls, data;
    unsigned machine;
    uint64_t phoff, phnum, phentsize;
};

static uint64_t field(const unsigned char *p, size_t n, int swap)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[swap ? n - 1 - i : i] << (8 * i);
    return v;
}

/* Reads the header at the start of fd; 0 if it is not ELF. */
static int read_elf(int fd, struct elf_info *e, int *swap)
{
    unsigned char h[64];
    if (pread(fd, h, sizeof h, 0) != (ssize_t)sizeof h ||
        memcmp(h, ELFMAG, SELFMAG) != 0 ||
        (h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64))
        return 0;
    const union { uint16_t u; unsigned char b[2]; } one = {1};
    int little = one.b[0] == 1;
    *swap = (h[EI_DATA] == ELFDATA2LSB) != little;
    int is64 = h[EI_CLASS] == ELFCLASS64;
    e->cls = h[EI_CLASS];
    e->data = h[EI_DATA];
    e->machine = (unsigned)field(h + 18, 2, *swap);
    e->phoff = field(h + (is64 ? 32 : 28), is64 ? 8 : 4, *swap);
    e->phentsize = field(h + (is64 ? 54 : 42), 2, *swap);
    e->phnum = field(h + (is64 ? 56 : 44), 2, *swap);
    return 1;
}

/* This process's own class and machine, from its executable. */
static pthread_once_t host_once = PTHREAD_ONCE_INIT;
static struct elf_info host_elf;

static void read_host(void)
{
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), swap;
    if (fd < 0 || !read_elf(fd, &host_elf, &swap))
        memset(&host_elf, 0, sizeof host_elf);
    if (fd >= 0)
        close(fd);
}

static int check_elf(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return FRX_OK; /* dlopen says why */
    struct stat st;
    struct elf_info e;
    int swap, rc = FRX_OK;
    if (fstat(fd, &st) != 0 || !read_elf(fd, &e, &swap)) {
        close(fd);
        return FRX_OK;
    }
    pthread_once(&host_once, read_host);
    char b1[32], b2[32];
    if (host_elf.cls && (e.cls != host_elf.cls || e.data != host_elf.data ||
                         e.machine != host_elf.machine)) {
        close(fd);
        return frx_error(FRX_EPLUGIN, "plugin %s was built for %s (%d-bit, "
                         "%s-endian) but this is %s (%d-bit): rebuild it for "
                         "this machine, or install the %s build", path,
                         machine_name(e.machine, b1, sizeof b1),
                         e.cls == ELFCLASS64 ? 64 : 32,
                         e.data == ELFDATA2LSB ? "little" : "big",
                         machine_name(host_elf.machine, b2, sizeof b2),
                         host_elf.cls == ELFCLASS64 ? 64 : 32,
                         machine_name(host_elf.machine, b2, sizeof b2));
    }
    uint64_t size = (uint64_t)st.st_size, need = 0;
    int is64 = e.cls == ELFCLASS64;
    size_t entsz = is64 ? 56 : 32;
    if (e.phentsize < entsz || e.phoff > size ||
        e.phnum * e.phentsize > size - e.phoff)
        need = e.phoff + e.phnum * e.phentsize;
    for (uint64_t i = 0; !need && i < e.phnum; i++) {
        unsigned char ph[56];
        if (pread(fd, ph, entsz, (off_t)(e.phoff + i * e.phentsize)) !=
            (ssize_t)entsz) {
            need = e.phoff + (i + 1) * e.phentsize;
            break;
        }
        if (field(ph, 4, swap) != PT_LOAD)
            continue;
        uint64_t off = field(ph + (is64 ? 8 : 4), is64 ? 8 : 4, swap);
        uint64_t filesz = field(ph + (is64 ? 32 : 16), is64 ? 8 : 4, swap);
        if (off > size || filesz > size - off)
            need = off + filesz;
    }
    if (need)
        rc = frx_error(FRX_EPLUGIN, "plugin %s is cut short: it has %llu "
                       "bytes but its program headers need %llu (an "
                       "interrupted copy, or a full disk?): build or copy it "
                       "again", path, (unsigned long long)size,
                       (unsigned long long)need);
    close(fd);
    return rc;
}

/* For listing: load the file in a child process first, so that a
 * plugin whose constructor (or entry function) crashes, or ends the
 * process on its own (its own call to end it, a sanitizer's report), is
 * named and skipped instead of taking this process down. A file dlopen
 * refuses ends the child with status 0: this process then says why. */
static int probe_in_child(const char *path, const char *real)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return FRX_OK; /* cannot tell: load it here */
    if (pid == 0) {
        void *h = dlopen(real, RTLD_NOW | RTLD_LOCAL);
        void *sym = h ? dlsym(h, FRX_PLUGIN_ENTRY_SYMBOL) : NULL;
        if (sym)
            ((frx_plugin_entry_fn)sym)();
        _exit(0);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return FRX_OK;
    char how[96];
    if (WIFSIGNALED(status))
        snprintf(how, sizeof how, "signal %d, %s", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        snprintf(how, sizeof how, "it ended the process with exit status "
                 "%d", WEXITSTATUS(status));
    else
        return FRX_OK;
    return frx_error(FRX_EPLUGIN, "plugin %s crashed while being loaded "
                     "(%s, in its constructor or " FRX_PLUGIN_ENTRY_SYMBOL
                     "), so frx does not load it: fix it, or remove it from "
                     "the search path", path, how);
}

/* --------------------------------------------------------------- opening */

static const char *dlerror_hint(const char *err)
{
    if (strstr(err, "Permission denied"))
        return "check the file's permissions";
    if (strstr(err, "cannot open shared object file"))
        return "install the missing library or fix LD_LIBRARY_PATH";
    if (strstr(err, "undefined symbol"))
        return "it needs a symbol this frx or its libraries lack: "
               "rebuild the plugin against this frx";
    if (strstr(err, "wrong ELF class"))
        return "built for another architecture: rebuild the plugin";
    if (strstr(err, "invalid ELF header") || strstr(err, "file too short") ||
        strstr(err, "not an ELF"))
        return "not a shared object: rebuild the plugin";
    return "rebuild the plugin";
}

/* dlerror() text, without the leading "<file>: " when it names the
 * plugin itself (our message names it already). */
static const char *strip_file(const char *err, const char *file)
{
    size_t n = strlen(file);
    if (strncmp(err, file, n) == 0 && strncmp(err + n, ": ", 2) == 0)
        return err + n + 2;
    return err;
}

/* Open the file and return its ltdl handle. It is first opened with
 * dlopen(RTLD_NOW) because libltdl binds lazily (a symbol missing from
 * this frx would then crash the process at the first call instead of
 * failing here) and reports every failure as "file not found", while
 * dlerror() says what is wrong. RTLD_NODELETE: never unmapped. */
static int open_handle(const char *path, const char *real, lt_dlhandle *out)
{
    pthread_once(&ltdl_once, ltdl_init);
    if (ltdl_init_error[0])
        return frx_error(FRX_EPLUGIN, "plugin %s: cannot start libltdl: %s",
                         path, ltdl_init_error);
    /* said before, so that a crash in its constructor has a name */
    frx_log(FRX_LOG_DEBUG, "loading plugin %s", path);
    if (!dlopen(real, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)) {
        const char *e = dlerror();
        e = e ? e : "unknown dlopen error";
        e = strip_file(strip_file(e, real), path);
        return frx_error(FRX_EPLUGIN, "plugin %s: cannot be loaded: %s (%s)",
                         path, e, dlerror_hint(e));
    }

    lt_dladvise advise;
    if (lt_dladvise_init(&advise) != 0)
        return frx_error(FRX_ENOMEM, "plugin %s: cannot be loaded: %s", path,
                         lt_dlerror());
    lt_dlhandle h = NULL;
    if (lt_dladvise_local(&advise) == 0 &&
        lt_dladvise_resident(&advise) == 0)
        h = lt_dlopenadvise(real, advise);
    const char *e = h ? NULL : lt_dlerror();
    lt_dladvise_destroy(&advise);
    if (!h)
        return frx_error(FRX_EPLUGIN, "plugin %s: cannot be loaded: %s "
                         "(libltdl)", path, e ? e : "unknown error");
    *out = h;
    return FRX_OK;
}

static int check_name(const char *path, const char *desc_name,
                      const char *file_name)
{
    if (strcmp(desc_name, file_name) != 0)
        return frx_error(FRX_EPLUGIN,
                         "plugin %s calls itself '%s' but its file name says "
                         "'%s': rename the file to " FRX_PLUGIN_PREFIX
                         "%s" PLUGIN_SUFFIX " or fix the descriptor",
                         path, desc_name, file_name, desc_name);
    return FRX_OK;
}

static int check_desc(const char *path, const frx_plugin_desc *d,
                      const char *file_name)
{
    if (!d)
        return frx_error(FRX_EPLUGIN, "plugin %s: " FRX_PLUGIN_ENTRY_SYMBOL
                         " returned no descriptor: fix the plugin", path);
    if (d->abi_major != FRX_ABI_MAJOR)
        return frx_error(FRX_EPLUGIN,
                         "plugin %s was built for frx plugin ABI %u.%u but "
                         "this frx has ABI %u.%u: rebuild the plugin against "
                         "this frx",
                         path, (unsigned)d->abi_major, (unsigned)d->abi_minor,
                         (unsigned)FRX_ABI_MAJOR, (unsigned)FRX_ABI_MINOR);
    if (d->size < DESC_MIN_SIZE)
        return frx_error(FRX_EPLUGIN,
                         "plugin %s: its descriptor is %u bytes, less than "
                         "the %zu of ABI %u.%u: rebuild the plugin against "
                         "this frx",
                         path, (unsigned)d->size, (size_t)DESC_MIN_SIZE,
                         (unsigned)FRX_ABI_MAJOR, (unsigned)FRX_ABI_MINOR);
    if (!d->name || !d->name[0])
        return frx_error(FRX_EPLUGIN, "plugin %s: its descriptor has no "
                         "name: set it to '%s'", path, file_name);
    int r = check_name(path, d->name, file_name);
    if (r)
        return r;
    if (d->kind != FRX_PLUGIN_BACKEND && d->kind != FRX_PLUGIN_SOLVER &&
        d->kind != FRX_PLUGIN_EXTENSION)
        return frx_error(FRX_EPLUGIN,
                         "plugin %s: unknown kind %u (expected "
                         "FRX_PLUGIN_BACKEND, FRX_PLUGIN_SOLVER or "
                         "FRX_PLUGIN_EXTENSION): rebuild the plugin against "
                         "this frx",
                         path, (unsigned)d->kind);
    return FRX_OK;
}

/* The backend ops of a checked descriptor, or NULL if it has none. */
static const frx_backend_ops *desc_backend(const frx_plugin_desc *d)
{
    const frx_backend_ops *ops =
        HAS_FIELD(frx_plugin_desc, backend, d->size) ? d->backend : NULL;
    return ops && HAS_FIELD(frx_backend_ops, size, ops->size) ? ops : NULL;
}

static const frx_solver_ops *desc_solver(const frx_plugin_desc *d)
{
    const frx_solver_ops *ops =
        HAS_FIELD(frx_plugin_desc, solver, d->size) ? d->solver : NULL;
    return ops && HAS_FIELD(frx_solver_ops, size, ops->size) ? ops : NULL;
}

static const frx_extension_ops *desc_extension(const frx_plugin_desc *d)
{
    const frx_extension_ops *ops =
        HAS_FIELD(frx_plugin_desc, extension, d->size) ? d->extension : NULL;
    return ops && HAS_FIELD(frx_extension_ops, size, ops->size) ? ops : NULL;
}

/* The extension interface has its own version (extension.h): an
 * extension built for another major is refused, as is one without ops
 * or without create and destroy. */
static int check_extension(const char *path, const frx_extension_ops *ops)
{
    if (!ops || !HAS_FIELD(frx_extension_ops, destroy, ops->size) ||
        !ops->create || !ops->destroy)
        return frx_error(FRX_EPLUGIN, "plugin %s: an extension without "
                         "extension ops (create and destroy): set "
                         ".extension in its descriptor", path);
    if (ops->api_major != FRX_EXTENSION_API_MAJOR)
        return frx_error(FRX_EPLUGIN, "plugin %s was built for frx "
                         "extension API %u.%u but this frx has extension "
                         "API %d.%d: rebuild the plugin against this frx",
                         path, (unsigned)ops->api_major,
                         (unsigned)ops->api_minor, FRX_EXTENSION_API_MAJOR,
                         FRX_EXTENSION_API_MINOR);
    return FRX_OK;
}

/* The solver interface has its own version: a plugin built for another
 * major is refused. Ops that end before it, or leave it 0 and have no
 * create, come from a plugin that only declares its options. */
static int check_solver_api(const char *path, const frx_solver_ops *ops)
{
    if (!ops || !HAS_FIELD(frx_solver_ops, api_minor, ops->size))
        return FRX_OK;
    int has_create = HAS_FIELD(frx_solver_ops, create, ops->size) &&
                     ops->create;
    if ((ops->api_major == 0 && !has_create) ||
        ops->api_major == FRX_SOLVER_API_MAJOR)
        return FRX_OK;
    return frx_error(FRX_EPLUGIN,
                     "plugin %s was built for frx solver API %u.%u but this "
                     "frx has solver API %d.%d: rebuild the plugin against "
                     "this frx%s", path, (unsigned)ops->api_major,
                     (unsigned)ops->api_minor, FRX_SOLVER_API_MAJOR,
                     FRX_SOLVER_API_MINOR, ops->api_major ? ""
                     : " (set .api_major = FRX_SOLVER_API_MAJOR and "
                       ".api_minor = FRX_SOLVER_API_MINOR in its ops)");
}

/* The plugin object for a checked descriptor. It holds copies of the
 * plugin's structs in this frx's layout, so the rest of frx reads any
 * field directly: what the plugin did not provide is zero. */
static int make_plugin(const char *path, const char *real, lt_dlhandle h,
                       const frx_plugin_desc *d, struct frx_plugin **out)
{
    const frx_backend_ops *backend = desc_backend(d);
    const frx_solver_ops *solver = desc_solver(d);
    if (d->kind == FRX_PLUGIN_BACKEND && !backend)
        return frx_error(FRX_EPLUGIN, "plugin %s: a backend without backend "
                         "ops: set .backend in its descriptor", path);
    const frx_extension_ops *extension = desc_extension(d);
    int rc = d->kind == FRX_PLUGIN_SOLVER      ? check_solver_api(path, solver)
             : d->kind == FRX_PLUGIN_EXTENSION ? check_extension(path,
                                                                 extension)
                                               : FRX_OK;
    if (rc)
        return rc;

    struct frx_plugin *p = frx__calloc(1, sizeof *p, "a plugin");
    if (!p)
        return FRX_ENOMEM;
    p->path = frx__strdup(real);
    if (!p->path) {
        free(p);
        return FRX_ENOMEM;
    }
    p->handle = h;
    TAKE_STRUCT(&p->desc, d, frx_plugin_desc);
    p->desc.backend = NULL;
    p->desc.solver = NULL;
    p->desc.extension = NULL;
    if (d->kind == FRX_PLUGIN_BACKEND) {
        TAKE_STRUCT(&p->backend, backend, frx_backend_ops);
        p->desc.backend = &p->backend;
    } else if (d->kind == FRX_PLUGIN_EXTENSION) {
        TAKE_STRUCT(&p->extension, extension, frx_extension_ops);
        p->desc.extension = &p->extension;
    } else if (solver) {
        TAKE_STRUCT(&p->solver, solver, frx_solver_ops);
        p->desc.solver = &p->solver;
    }
    *out = p;
    return FRX_OK;
}

/* Load a file not in the registry yet and add it. Lock held. */
static int load_new(const char *path, const char *real, const char *name,
                    struct frx_plugin **out)
{
    lt_dlhandle h = NULL;
    int r = open_handle(path, real, &h);
    if (r)
        return r;
    void *sym = lt_dlsym(h, FRX_PLUGIN_ENTRY_SYMBOL);
    if (!sym)
        return frx_error(FRX_EPLUGIN,
                         "plugin %s: no entry symbol '" FRX_PLUGIN_ENTRY_SYMBOL
                         "' (build it with FRX_PLUGIN_DEFINE from "
                         "<frx/plugin.h>)",
                         path);
    frx_plugin_entry_fn entry = (frx_plugin_entry_fn)sym;
    const frx_plugin_desc *d = entry();
    r = check_desc(path, d, name);
    if (r)
        return r;
    struct frx_plugin *p = NULL;
    r = make_plugin(path, real, h, d, &p);
    if (r)
        return r;
    p->next = registry;
    registry = p;
    *out = p;
    return FRX_OK;
}

/* Is the file there and a file? */
static int check_file(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return frx_error(FRX_ENOTFOUND, "plugin %s: no such file", path);
        return frx_error(FRX_EPLUGIN, "plugin %s: %s", path, strerror(errno));
    }
    if (S_ISDIR(st.st_mode))
        return frx_error(FRX_EPLUGIN, "plugin %s: is a directory, not a "
                         "plugin file", path);
    return FRX_OK;
}

/* probe: load a new file in a child process first (listing). */
static int open_plugin(const char *path, frx_plugin **out, int probe)
{
    if (!out)
        return frx_error(FRX_EINVAL, "frx_plugin_open: out is NULL");
    *out = NULL;
    if (!path || !path[0])
        return frx_error(FRX_EINVAL, "frx_plugin_open: no path given");
    int r = check_file(path);
    if (r)
        return r;
    char name[256];
    if (!name_from_file(path, name, sizeof name))
        return frx_error(FRX_EPLUGIN,
                         "plugin %s: a plugin's file name must be "
                         FRX_PLUGIN_PREFIX "<name>" PLUGIN_SUFFIX
                         ": rename the file",
                         path);
    char *real = realpath(path, NULL);
    if (!real)
        return frx_error(errno == ENOMEM ? FRX_ENOMEM : FRX_EPLUGIN,
                         "plugin %s: %s", path, strerror(errno));

    pthread_mutex_lock(&registry_lock);
    struct frx_plugin *p = registry_lookup(real);
    pthread_mutex_unlock(&registry_lock);
    if (!p)
        r = check_elf(path);
    /* outside the lock: the child must not inherit it held */
    if (!p && !r && probe)
        r = probe_in_child(path, real);
    if (r) {
        free(real);
        return r;
    }
    pthread_mutex_lock(&registry_lock);
    p = registry_lookup(real);
    if (p)
        r = check_name(path, p->desc.name, name);
    else
        r = load_new(path, real, name, &p);
    pthread_mutex_unlock(&registry_lock);
    free(real);
    if (r)
        return r;
    *out = p;
    return FRX_OK;
}

int frx_plugin_open(const char *path, frx_plugin **out)
{
    return open_plugin(path, out, 0);
}

const frx_plugin_desc *frx_plugin_descriptor(const frx_plugin *p)
{
    return p ? &p->desc : NULL;
}

const char *frx_plugin_path(const frx_plugin *p)
{
    return p ? p->path : NULL;
}

int frx_plugin_probe(const frx_plugin *p, char *why, size_t n)
{
    char local[512];
    if (!why || !n) {
        why = local;
        n = sizeof local;
    }
    why[0] = '\0';
    if (!p)
        return frx_error(FRX_EINVAL, "frx_plugin_probe: no plugin");
    if (p->desc.kind != FRX_PLUGIN_BACKEND || !p->backend.probe)
        return FRX_OK; /* solvers, and backends that always start */
    int r = p->backend.probe(why, n);
    why[n - 1] = '\0';
    if (r == 0)
        return FRX_OK;
    if (!why[0])
        snprintf(why, n, "its probe gave no reason (%s)", frx_strerror(r));
    return frx_error(FRX_EUNAVAIL, "backend '%s' (%s) cannot start here: %s",
                     p->desc.name, p->path, why);
}

/* ------------------------------------------------------------ libdir */

static pthread_once_t libdir_once = PTHREAD_ONCE_INIT;
static char libdir[PATH_MAX];

static void find_libdir(void)
{
    Dl_info info;
    if (!dladdr((void *)find_libdir, &info) || !info.dli_fname)
        return;
    char *real = realpath(info.dli_fname, NULL);
    if (!real)
        return;
    snprintf(libdir, sizeof libdir, "%s", dirname(real));
    free(real);
}

const char *frx__libdir(void)
{
    pthread_once(&libdir_once, find_libdir);
    return libdir;
}

/* ---------------------------------------------------------- search path */

struct dirlist {
    char **dir;  /* as the user wrote it (made absolute if config-relative) */
    char **real; /* realpath, or NULL when it does not exist */
    size_t n, cap;
};

static void dirlist_free(struct dirlist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->dir[i]);
        free(l->real[i]);
    }
    free(l->dir);
    free(l->real);
    memset(l, 0, sizeof *l);
}

static int dirlist_grow(struct dirlist *l)
{
    size_t cap = l->cap ? 2 * l->cap : 8;
    char **d = realloc(l->dir, cap * sizeof *d);
    if (!d)
        return frx_error(FRX_ENOMEM, "out of memory for the plugin path");
    l->dir = d;
    char **r = realloc(l->real, cap * sizeof *r);
    if (!r)
        return frx_error(FRX_ENOMEM, "out of memory for the plugin path");
    l->real = r;
    l->cap = cap;
    return FRX_OK;
}

/* Add dir unless it is already there (same real path, or same text). */
static int dirlist_add(struct dirlist *l, const char *dir)
{
    if (!dir || !dir[0])
        return FRX_OK;
    char *real = realpath(dir, NULL);
    for (size_t i = 0; i < l->n; i++) {
        if (strcmp(l->dir[i], dir) == 0 ||
            (real && l->real[i] && strcmp(l->real[i], real) == 0)) {
            free(real);
            return FRX_OK;
        }
    }
    if (l->n == l->cap && dirlist_grow(l) != FRX_OK) {
        free(real);
        return FRX_ENOMEM;
    }
    char *copy = frx__strdup(dir);
    if (!copy) {
        free(real);
        return FRX_ENOMEM;
    }
    l->dir[l->n] = copy;
    l->real[l->n] = real;
    l->n++;
    return FRX_OK;
}

/* A plugins.path entry: relative ones are relative to the config file
 * (and shown resolved, without "case/../", when they exist). */
static int add_config_dir(struct dirlist *l, const char *base,
                          const char *dir)
{
    if (dir[0] == '/' || !base)
        return dirlist_add(l, dir);
    char *full = join_path(base, dir);
    if (!full)
        return FRX_ENOMEM;
    char *real = realpath(full, NULL);
    int r = dirlist_add(l, real ? real : full);
    free(real);
    free(full);
    return r;
}

static int add_config_dirs(struct dirlist *l, const frx_config *cfg)
{
    /* "path:" with no value means no directories, not the case's own. */
    const frx_cfgnode *root = cfg ? frx_config_root(cfg) : NULL;
    const frx_cfgnode *node = root ? frx_cfg_get(root, "plugins.path") : NULL;
    if (!node)
        return FRX_OK;
    char *base = NULL; /* directory of the config file, if it has one */
    const char *file = frx_config_file(cfg);
    if (file && strchr(file, '/')) {
        char *copy = frx__strdup(file);
        if (!copy)
            return FRX_ENOMEM;
        base = frx__strdup(dirname(copy));
        free(copy);
        if (!base)
            return FRX_ENOMEM;
    }
    int r = FRX_OK;
    if (frx_cfg_type(node) == FRX_CFG_SCALAR) {
        if (frx_cfg_scalar(node)[0])
            r = add_config_dir(l, base, frx_cfg_scalar(node));
    } else if (frx_cfg_type(node) == FRX_CFG_LIST) {
        size_t n = frx_cfg_len(node);
        for (size_t i = 0; i < n && r == FRX_OK; i++) {
            const char *dir = frx_cfg_scalar(frx_cfg_at(node, i));
            if (dir && dir[0]) /* a non-string entry is the checker's */
                r = add_config_dir(l, base, dir);
        }
    }
    free(base);
    return r;
}

static int add_env_dirs(struct dirlist *l)
{
    const char *env = getenv("FRX_PLUGIN_PATH");
    if (!env)
        return FRX_OK;
    char *copy = frx__strdup(env);
    if (!copy)
        return FRX_ENOMEM;
    int r = FRX_OK;
    char *save = NULL;
    for (char *d = strtok_r(copy, ":", &save); d && r == FRX_OK;
         d = strtok_r(NULL, ":", &save))
        r = dirlist_add(l, d);
    free(copy);
    return r;
}

/* plugins.path, FRX_PLUGIN_PATH, beside libfrx, the install directory. */
static int search_dirs(const frx_config *cfg, struct dirlist *l)
{
    memset(l, 0, sizeof *l);
    int r = add_config_dirs(l, cfg);
    if (r == FRX_OK)
        r = add_env_dirs(l);
    if (r == FRX_OK && frx__libdir()[0]) {
        char *beside = join_path(frx__libdir(), FRX_PLUGIN_SUBDIR);
        r = beside ? dirlist_add(l, beside) : FRX_ENOMEM;
        free(beside);
    }
    if (r == FRX_OK)
        r = dirlist_add(l, FRX_PLUGIN_INSTALL_DIR);
    if (r)
        dirlist_free(l);
    return r;
}

/* The directories joined by sep, in a new string. */
static char *dirlist_join(const struct dirlist *l, const char *sep)
{
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    if (!f) {
        frx_error(FRX_ENOMEM, "out of memory for the plugin path");
        return NULL;
    }
    for (size_t i = 0; i < l->n; i++)
        fprintf(f, "%s%s", i ? sep : "", l->dir[i]);
    if (fclose(f) != 0 || !s) {
        free(s);
        frx_error(FRX_ENOMEM, "out of memory for the plugin path");
        return NULL;
    }
    return s;
}

int frx_plugin_search_path(const frx_config *cfg, char *buf, size_t n)
{
    if (!buf || !n)
        return frx_error(FRX_EINVAL, "frx_plugin_search_path: no buffer");
    buf[0] = '\0';
    struct dirlist l;
    int r = search_dirs(cfg, &l);
    if (r)
        return r;
    char *s = dirlist_join(&l, ":");
    dirlist_free(&l);
    if (!s)
        return FRX_ENOMEM;
    size_t len = strlen(s);
    snprintf(buf, n, "%s", s);
    free(s);
    if (len >= n)
        return frx_error(FRX_ERANGE, "the plugin search path is %zu bytes, "
                         "more than the buffer of %zu", len + 1, n);
    return FRX_OK;
}

/* --------------------------------------------------------------- finding */

static int valid_name(const char *name)
{
    return name && name[0] && !strchr(name, '/');
}

/* The first frx-<name>.so along the search path, in *found (malloc'd). */
static int find_file(const frx_config *cfg, const char *name, char **found)
{
    *found = NULL;
    if (!valid_name(name))
        return frx_error(FRX_EINVAL, "bad plugin name '%s': a name such "
                         "as openmp or lee, without '/' (frx looks for "
                         "frx-<name>.so along the plugin path; frx plugins "
                         "lists them)", name ? name : "(null)");
    /* a solver's kernels and macros live in its name's namespace, the
     * core's own (the NaN check, the steppers' sums) in "frx": a plugin
     * of that name could replace what they use */
    if (strcmp(name, "frx") == 0)
        return frx_error(FRX_EINVAL, "bad plugin name 'frx': the name of "
                         "frx's own kernels; give the plugin (frx-<name>.so) "
                         "another name");
    char file[300];
    snprintf(file, sizeof file, FRX_PLUGIN_PREFIX "%s" PLUGIN_SUFFIX, name);

    struct dirlist l;
    int r = search_dirs(cfg, &l);
    if (r)
        return r;
    for (size_t i = 0; i < l.n; i++) {
        char *path = join_path(l.dir[i], file);
        if (!path) {
            dirlist_free(&l);
            return FRX_ENOMEM;
        }
        struct stat st;
        if (stat(path, &st) == 0) {
            dirlist_free(&l);
            *found = path;
            return FRX_OK;
        }
        free(path);
    }
    char *tried = dirlist_join(&l, ", ");
    dirlist_free(&l);
    if (!tried)
        return FRX_ENOMEM;
    r = frx_error(FRX_ENOTFOUND,
                  "no plugin '%s' (%s) in: %s; build it or add its directory "
                  "to plugins.path or FRX_PLUGIN_PATH",
                  name, file, tried);
    free(tried);
    return r;
}

int frx_plugin_find(const frx_config *cfg, const char *name,
                    frx_plugin **out)
{
    if (!out)
        return frx_error(FRX_EINVAL, "frx_plugin_find: out is NULL");
    *out = NULL;
    char *path;
    int r = find_file(cfg, name, &path);
    if (r)
        return r;
    r = frx_plugin_open(path, out);
    free(path);
    return r;
}

int frx__plugin_exists(const frx_config *cfg, const char *name)
{
    char *path;
    if (find_file(cfg, name, &path) != FRX_OK)
        return 0;
    free(path);
    return 1;
}

/* ------------------------------------------------------------- listing */

/* Plugin file names seen so far, with the first path of each. */
struct seen {
    char **name, **path;
    size_t n, cap;
};

static void seen_free(struct seen *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->name[i]);
        free(s->path[i]);
    }
    free(s->name);
    free(s->path);
}

static const char *seen_find(const struct seen *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->name[i], name) == 0)
            return s->path[i];
    return NULL;
}

static int seen_add(struct seen *s, const char *name, const char *path)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        char **a = realloc(s->name, cap * sizeof *a);
        if (!a)
            return frx_error(FRX_ENOMEM, "out of memory listing plugins");
        s->name = a;
        char **b = realloc(s->path, cap * sizeof *b);
        if (!b)
            return frx_error(FRX_ENOMEM, "out of memory listing plugins");
        s->path = b;
        s->cap = cap;
    }
    char *n = frx__strdup(name), *p = frx__strdup(path);
    if (!n || !p) {
        free(n);
        free(p);
        return FRX_ENOMEM;
    }
    s->name[s->n] = n;
    s->path[s->n] = p;
    s->n++;
    return FRX_OK;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* The frx-*.so names in dir, sorted. A missing directory has none. */
static int list_dir(const char *dir, char ***out, size_t *count)
{
    *out = NULL;
    *count = 0;
    DIR *d = opendir(dir);
    if (!d)
        return FRX_OK;
    char **v = NULL;
    size_t n = 0, cap = 0;
    char name[256];
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!name_from_file(e->d_name, name, sizeof name))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            char **nv = realloc(v, cap * sizeof *nv);
            if (!nv)
                goto nomem;
            v = nv;
        }
        if (!(v[n] = frx__strdup(e->d_name)))
            goto nomem;
        n++;
    }
    closedir(d);
    if (n) /* qsort's pointer must not be NULL, even for no items */
        qsort(v, n, sizeof *v, cmp_str);
    *out = v;
    *count = n;
    return FRX_OK;
nomem:
    closedir(d);
    free_names(v, n);
    return frx_error(FRX_ENOMEM, "out of memory listing %s", dir);
}

/* One file: shadowed by an earlier one of its name, or opened. */
static int visit(struct seen *s, const char *path, frx_plugin_visit_fn fn,
                 void *ud, int probe)
{
    char name[256];
    name_from_file(path, name, sizeof name);
    const char *first = seen_find(s, name);
    if (first) {
        char msg[PATH_MAX + 32];
        snprintf(msg, sizeof msg, "shadowed by %s", first);
        fn(path, NULL, 0, msg, ud);
        return FRX_OK;
    }
    /* A file that fails still wins its name: frx_plugin_find stops there. */
    int r = seen_add(s, name, path);
    if (r)
        return r;
    frx_plugin *p;
    r = open_plugin(path, &p, probe);
    fn(path, r ? NULL : p, r, r ? frx_errmsg() : "", ud);
    return FRX_OK;
}

/* Listings load new files in a child first, unless MPI runs: forking
 * under some MPI transports is not safe. */
int frx_plugin_foreach(const frx_config *cfg, frx_plugin_visit_fn fn,
                       void *ud)
{
    return frx__plugin_foreach(cfg, fn, ud, !frx__mpi_running());
}

int frx__plugin_foreach(const frx_config *cfg, frx_plugin_visit_fn fn,
                        void *ud, int probe)
{
    if (!fn)
        return frx_error(FRX_EINVAL, "frx_plugin_foreach: no function");
    struct dirlist l;
    int r = search_dirs(cfg, &l);
    if (r)
        return r;
    struct seen s = {0};
    for (size_t i = 0; i < l.n && r == FRX_OK; i++) {
        char **names;
        size_t n;
        r = list_dir(l.dir[i], &names, &n);
        for (size_t j = 0; j < n && r == FRX_OK; j++) {
            char *path = join_path(l.dir[i], names[j]);
            r = path ? visit(&s, path, fn, ud, probe) : FRX_ENOMEM;
            free(path);
        }
        free_names(names, n);
    }
    seen_free(&s);
    dirlist_free(&l);
    return r;
}
