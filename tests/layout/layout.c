/* SPDX-License-Identifier: BSD-3-Clause */
/* layout: does the tree keep the layout of core/src/layers.txt and
 * plugins/layers.txt?
 *
 *   layout ROOT [--objects LIST]
 *
 * ROOT is the top of the repository. From the sources it checks:
 * - every file of libfrx lies in a folder of core/src/layers.txt, and
 *   every folder there is listed;
 * - a file of libfrx includes its own folder's files, the <G>-impl.h of
 *   a folder G below its own, the public <frx/...> headers and system
 *   headers, and a third-party header only where its folder owns it;
 * - the frx program (core/cli) includes libfrx's internals only through
 *   a <folder>/<name>-tool.h;
 * - a plugin includes its own files, those of the plugin folders it
 *   uses (plugins/layers.txt) and <frx/...>, never libfrx's internals,
 *   and a vendor's header only in the plugin that owns it; an example
 *   (examples/<name>) only its own files and <frx/...>.
 * With LIST, a file of lines "<target> <object file>" (tests/layout/
 * layout.cmake writes it), it reads each object's symbols (nm) and
 * checks what the includes cannot show: that no file of libfrx calls a
 * function of a folder that is not below its own, and that no files
 * of one folder (of one target elsewhere) call each other in a cycle.
 *
 * Each problem is printed as "file:line: what is wrong" (a file alone
 * where no line applies) with what to do; the exit status is 0 when
 * there is none, 1 when there are, 2 for bad usage or unreadable
 * input. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* scandir, strdup */
#endif
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_LAYERS 64
#define MAX_OWNS 16
#define NAME_MAX_LEN 128

struct layer {
    char name[NAME_MAX_LEN];
    int uses[MAX_LAYERS], nuses;
    char owns[MAX_OWNS][NAME_MAX_LEN];
    int nowns;
    unsigned char below[MAX_LAYERS]; /* every folder below, by index */
};

struct layers {
    char file[512]; /* as messages name it: "core/src/layers.txt" */
    struct layer l[MAX_LAYERS];
    int n;
};

static const char *root;
static int nproblems;

static void problem(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void problem(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (line > 0)
        fprintf(stdout, "%s:%d: ", file, line);
    else
        fprintf(stdout, "%s: ", file);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    nproblems++;
}

static void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("layout: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* snprintf that refuses to cut its output short (a path, a message). */
static void put(char *buf, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void put(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= n)
        fatal("a path or message longer than %zu bytes", n);
}

static char *path_of(char *buf, size_t n, const char *rel)
{
    put(buf, n, "%s/%s", root, rel);
    return buf;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int is_source(const char *name)
{
    return ends_with(name, ".c") || ends_with(name, ".h");
}

/* ---------------------------------------------------------- layers.txt */

static int find_layer(const struct layers *ls, const char *name)
{
    for (int i = 0; i < ls->n; i++)
        if (strcmp(ls->l[i].name, name) == 0)
            return i;
    return -1;
}

static void read_layers(struct layers *ls, const char *rel)
{
    char p[4096];
    put(ls->file, sizeof ls->file, "%s", rel);
    FILE *f = fopen(path_of(p, sizeof p, rel), "r");
    if (!f)
        fatal("cannot read %s: %s", p, strerror(errno));
    char line[2048];
    int no = 0;
    while (fgets(line, sizeof line, f)) {
        no++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *colon = strchr(line, ':');
        char *tok = strtok(line, " \t\r\n");
        if (!tok)
            continue;
        if (!colon || ls->n == MAX_LAYERS) {
            problem(rel, no, "not a line \"folder: the folders it uses\"");
            continue;
        }
        struct layer *l = &ls->l[ls->n];
        memset(l, 0, sizeof *l);
        size_t len = strlen(tok);
        if (tok[len - 1] == ':')
            tok[len - 1] = '\0';
        put(l->name, sizeof l->name, "%s", tok);
        if (find_layer(ls, l->name) >= 0) {
            problem(rel, no, "'%s' is listed twice", l->name);
            continue;
        }
        int owns = 0;
        while ((tok = strtok(NULL, " \t\r\n"))) {
            if (strcmp(tok, "owns:") == 0) {
                owns = 1;
            } else if (owns) {
                if (l->nowns < MAX_OWNS)
                    put(l->owns[l->nowns++], NAME_MAX_LEN, "%s", tok);
            } else {
                int u = find_layer(ls, tok);
                if (u < 0)
                    problem(rel, no, "'%s' uses '%s', which no line above "
                            "lists: a folder uses only folders listed "
                            "before it (that keeps them free of cycles)",
                            l->name, tok);
                else if (l->nuses < MAX_LAYERS) {
                    l->uses[l->nuses++] = u;
                    l->below[u] = 1;
                    for (int k = 0; k < ls->n; k++)
                        l->below[k] |= ls->l[u].below[k];
                }
            }
        }
        ls->n++;
    }
    fclose(f);
}

/* The owners of a third-party header, in both files: "" if none. */
static const char *owners_of(const struct layers *const *sets, size_t nsets,
                             const char *header, char *buf, size_t n)
{
    buf[0] = '\0';
    for (size_t s = 0; s < nsets; s++)
        for (int i = 0; i < sets[s]->n; i++)
            for (int k = 0; k < sets[s]->l[i].nowns; k++)
                if (fnmatch(sets[s]->l[i].owns[k], header, 0) == 0) {
                    size_t len = strlen(buf);
                    put(buf + len, n - len, "%s%s", len ? ", " : "",
                             sets[s]->l[i].name);
                }
    return buf;
}

static int owns(const struct layer *l, const char *header)
{
    for (int k = 0; k < l->nowns; k++)
        if (fnmatch(l->owns[k], header, 0) == 0)
            return 1;
    return 0;
}

static const char *uses_text(const struct layers *ls, int i, char *buf,
                             size_t n)
{
    buf[0] = '\0';
    for (int k = 0; k < ls->n; k++)
        if (ls->l[i].below[k]) {
            size_t len = strlen(buf);
            put(buf + len, n - len, "%s%s", len ? " " : "",
                     ls->l[k].name);
        }
    if (!buf[0])
        put(buf, n, "nothing");
    return buf;
}

/* ------------------------------------------------------------- includes */

struct include {
    int line;
    int quoted; /* "x" rather than <x> */
    char name[512];
};

/* The next #include of f, or 0 at its end. Lines that do not start with
 * '#' (a string holding "#include" in generated code) do not count. */
static int next_include(FILE *f, int *lineno, struct include *inc)
{
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        ++*lineno;
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p++ != '#')
            continue;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "include", 7) != 0)
            continue;
        p += 7;
        while (*p == ' ' || *p == '\t')
            p++;
        char close = *p == '"' ? '"' : *p == '<' ? '>' : 0;
        if (!close)
            continue; /* a macro: not ours to follow */
        const char *end = strchr(p + 1, close);
        if (!end)
            continue;
        inc->line = *lineno;
        inc->quoted = close == '"';
        size_t len = (size_t)(end - p - 1);
        if (len >= sizeof inc->name)
            len = sizeof inc->name - 1;
        memcpy(inc->name, p + 1, len);
        inc->name[len] = '\0';
        return 1;
    }
    return 0;
}

static const struct layers *all_sets[2];
static size_t nsets;

/* <header>: a third-party header owned elsewhere is refused. me: the
 * including folder's entry, or NULL (a folder that owns nothing). */
static void check_angle(const char *file, const struct include *inc,
                        const struct layer *me)
{
    if (strncmp(inc->name, "frx/", 4) == 0)
        return;
    char who[512];
    owners_of(all_sets, nsets, inc->name, who, sizeof who);
    if (who[0] && !(me && owns(me, inc->name)))
        problem(file, inc->line, "includes <%s>, which only %s may include "
                "(owns: in core/src/layers.txt, plugins/layers.txt): "
                "call it through that folder", inc->name, who);
}

/* Each #include of the file rel (in dir): a third-party header checked
 * against owner's (NULL: a folder that owns none), a quoted one handed
 * to fn. */
typedef void (*quoted_fn)(const char *rel, const char *dir,
                          const struct include *inc, void *ud);

static void scan_includes(const char *rel, const char *dir,
                          const struct layer *owner, quoted_fn fn, void *ud)
{
    char p[4096];
    FILE *f = fopen(path_of(p, sizeof p, rel), "r");
    if (!f)
        fatal("cannot read %s: %s", p, strerror(errno));
    struct include inc;
    int lineno = 0;
    while (next_include(f, &lineno, &inc))
        if (inc.quoted)
            fn(rel, dir, &inc, ud);
        else
            check_angle(rel, &inc, owner);
    fclose(f);
}

struct core_walk {
    const struct layers *core;
    int me;
};

/* A quoted include of a file of libfrx, in folder w->me of core/src. */
static void core_quoted(const char *rel, const char *dir,
                        const struct include *inc, void *ud)
{
    const struct core_walk *w = ud;
    const struct layers *core = w->core;
    int me = w->me;
    const char *name = core->l[me].name;
    const char *slash = strchr(inc->name, '/');
    char q[4096];
    if (!slash) {
        put(q, sizeof q, "%s/%s/%s", root, dir, inc->name);
        if (!is_file(q))
            problem(rel, inc->line, "includes \"%s\", which is not in "
                    "core/src/%s: name the folder of a header of "
                    "another one (\"<folder>/<folder>-impl.h\")",
                    inc->name, name);
        return;
    }
    char folder[NAME_MAX_LEN];
    size_t len = (size_t)(slash - inc->name);
    put(folder, sizeof folder, "%.*s", (int)len, inc->name);
    int g = find_layer(core, folder);
    put(q, sizeof q, "%s/core/src/%s", root, inc->name);
    if (g < 0) {
        problem(rel, inc->line, "includes \"%s\", which is in no folder "
                "of core/src/layers.txt: a file of libfrx includes "
                "\"<folder>/<header>\" of core/src or a public "
                "<frx/...> header", inc->name);
    } else if (g != me && !core->l[me].below[g]) {
        char u[1024];
        problem(rel, inc->line, "includes \"%s\", but %s does not use "
                "%s (it uses %s; core/src/layers.txt): a folder "
                "includes only the folders below it; move what it "
                "needs down, or pass it in from above", inc->name, name,
                folder, uses_text(core, me, u, sizeof u));
    } else if (g != me) {
        char want[NAME_MAX_LEN * 2 + 8];
        put(want, sizeof want, "%s/%s-impl.h", folder, folder);
        if (strcmp(inc->name, want) != 0)
            problem(rel, inc->line, "includes \"%s\": other folders see "
                    "%s through \"%s\" only; its other headers are "
                    "its own", inc->name, folder, want);
        else if (!is_file(q))
            problem(rel, inc->line, "includes \"%s\", which does not "
                    "exist", inc->name);
    } else if (!is_file(q)) {
        problem(rel, inc->line, "includes \"%s\", which does not exist",
                inc->name);
    }
}

/* Every .c and .h below rel (a folder of the tree), depth first, sorted
 * so that the output does not depend on the file system. */
typedef void (*visit_fn)(const char *rel, const char *dir, void *ud);

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static void walk(const char *dir, visit_fn fn, void *ud)
{
    char p[4096];
    struct dirent **ents;
    int n = scandir(path_of(p, sizeof p, dir), &ents, NULL, by_name);
    if (n < 0)
        fatal("cannot list %s: %s", p, strerror(errno));
    for (int i = 0; i < n; i++) {
        const char *e = ents[i]->d_name;
        char rel[4096];
        put(rel, sizeof rel, "%s/%s", dir, e);
        if (e[0] != '.') {
            if (is_dir(path_of(p, sizeof p, rel)))
                walk(rel, fn, ud);
            else if (is_source(e))
                fn(rel, dir, ud);
        }
        free(ents[i]);
    }
    free(ents);
}

static void core_visit(const char *rel, const char *dir, void *ud)
{
    struct core_walk *w = ud;
    scan_includes(rel, dir, &w->core->l[w->me], core_quoted, w);
}

static void check_core(const struct layers *core)
{
    char p[4096];
    struct dirent **ents;
    int n = scandir(path_of(p, sizeof p, "core/src"), &ents, NULL, by_name);
    if (n < 0)
        fatal("cannot list %s: %s", p, strerror(errno));
    unsigned char seen[MAX_LAYERS] = {0};
    for (int i = 0; i < n; i++) {
        const char *e = ents[i]->d_name;
        char rel[4096];
        put(rel, sizeof rel, "core/src/%s", e);
        if (e[0] == '.') {
        } else if (is_dir(path_of(p, sizeof p, rel))) {
            int me = find_layer(core, e);
            if (me < 0) {
                problem(rel, 0, "a folder core/src/layers.txt does not "
                        "list: give it a line there (what it uses), or "
                        "move its files into a folder that is listed");
            } else {
                seen[me] = 1;
                struct core_walk w = {core, me};
                walk(rel, core_visit, &w);
            }
        } else if (strcmp(e, "README.md") != 0 &&
                   strcmp(e, "layers.txt") != 0) {
            problem(rel, 0, "a file outside libfrx's subsystem folders: "
                    "move it into the folder of core/src/layers.txt it "
                    "belongs to");
        }
        free(ents[i]);
    }
    free(ents);
    for (int i = 0; i < core->n; i++)
        if (!seen[i])
            problem(core->file, 0, "lists '%s', but core/src/%s is not a "
                    "folder", core->l[i].name, core->l[i].name);
}

/* ------------------------------------------------------------ the CLI */

static void cli_quoted(const char *rel, const char *dir,
                       const struct include *inc, void *ud)
{
    const struct layers *core = ud;
    char q[4096];
    const char *slash = strchr(inc->name, '/');
    if (!slash) {
        put(q, sizeof q, "%s/%s/%s", root, dir, inc->name);
        if (!is_file(q))
            problem(rel, inc->line, "includes \"%s\", which is not in "
                    "%s", inc->name, dir);
        return;
    }
    char folder[NAME_MAX_LEN];
    put(folder, sizeof folder, "%.*s", (int)(slash - inc->name),
         inc->name);
    put(q, sizeof q, "%s/core/src/%s", root, inc->name);
    if (find_layer(core, folder) < 0 || strchr(slash + 1, '/') ||
        !ends_with(inc->name, "-tool.h") || !is_file(q))
        problem(rel, inc->line, "includes \"%s\": the frx program uses "
                "libfrx through the public headers and the "
                "<folder>/<name>-tool.h headers of core/src only",
                inc->name);
}

static void cli_visit(const char *rel, const char *dir, void *ud)
{
    scan_includes(rel, dir, NULL, cli_quoted, ud);
}

/* -------------------------------------------------- plugins, examples */

struct plugin_walk {
    const struct layers *plugins; /* NULL: an example */
    int me;                       /* its folder in plugins */
    const char *top;              /* "plugins" or "examples/<name>" */
};

/* Is there a file name in plugin folder i (plugins/<name>)? */
static int in_plugin(const struct layers *ls, int i, const char *name)
{
    char q[4096];
    put(q, sizeof q, "%s/plugins/%s/%s", root, ls->l[i].name, name);
    return is_file(q);
}

static void plugin_quoted(const char *rel, const char *dir,
                          const struct include *inc, void *ud)
{
    const struct plugin_walk *w = ud;
    const struct layer *me = w->plugins ? &w->plugins->l[w->me] : NULL;
    char q[4096];
    put(q, sizeof q, "%s/core/src/%s", root, inc->name);
    if (strstr(inc->name, "core/src") || strstr(inc->name, "..") ||
        (strchr(inc->name, '/') && is_file(q))) {
        problem(rel, inc->line, "includes \"%s\": %s see libfrx only "
                "through the public headers <frx/frx.h>, <frx/plugin.h>, "
                "<frx/comm.h> and <frx/mesh.h>", inc->name,
                w->plugins ? "plugins" : "examples");
        return;
    }
    put(q, sizeof q, "%s/%s/%s", root, dir, inc->name);
    if (is_file(q))
        return;
    int found = 0;
    for (int k = 0; w->plugins && k < w->plugins->n && !found; k++)
        found = me->below[k] && in_plugin(w->plugins, k, inc->name);
    if (!found) {
        char u[1024] = "";
        if (w->plugins)
            uses_text(w->plugins, w->me, u, sizeof u);
        problem(rel, inc->line, "includes \"%s\", which is in none of "
                "its folders (%s%s%s%s)", inc->name, dir,
                w->plugins ? "; it uses " : "", u,
                w->plugins ? ": plugins/layers.txt" : "");
    }
}

static void plugin_visit(const char *rel, const char *dir, void *ud)
{
    const struct plugin_walk *w = ud;
    scan_includes(rel, dir, w->plugins ? &w->plugins->l[w->me] : NULL,
                  plugin_quoted, ud);
}

/* The plugin folder a folder of plugins/ belongs to: the longest listed
 * name it starts with, or -1. */
static int plugin_of(const struct layers *ls, const char *sub)
{
    int best = -1;
    size_t best_len = 0;
    for (int i = 0; i < ls->n; i++) {
        size_t len = strlen(ls->l[i].name);
        if (strncmp(sub, ls->l[i].name, len) == 0 &&
            (sub[len] == '\0' || sub[len] == '/') && len > best_len) {
            best = i;
            best_len = len;
        }
    }
    return best;
}

static void plugins_visit(const char *rel, const char *dir, void *ud)
{
    const struct layers *ls = ud;
    const char *sub = dir + strlen("plugins");
    sub += *sub == '/';
    int i = plugin_of(ls, sub);
    if (i < 0) {
        problem(rel, 0, "a plugin file in a folder plugins/layers.txt does "
                "not list: give its folder a line there");
        return;
    }
    struct plugin_walk w = {ls, i, "plugins"};
    plugin_visit(rel, dir, &w);
}

static void check_plugins(const struct layers *ls)
{
    char p[4096];
    for (int i = 0; i < ls->n; i++) {
        char rel[512];
        put(rel, sizeof rel, "plugins/%s", ls->l[i].name);
        if (!is_dir(path_of(p, sizeof p, rel)))
            problem(ls->file, 0, "lists '%s', but %s is not a folder",
                    ls->l[i].name, rel);
    }
    walk("plugins", plugins_visit, (void *)ls);
}

static void example_visit(const char *rel, const char *dir, void *ud)
{
    (void)ud;
    struct plugin_walk w = {NULL, -1, "examples"};
    plugin_visit(rel, dir, &w);
}

/* ------------------------------------------------------------- objects */

struct sym {
    char *name;
    int obj;
};

struct obj {
    char target[128];
    char path[4096];
    char file[256];  /* its source's name: "graph.c" */
    char group[256]; /* core/src/<folder> (libfrx), else its target */
    char shown[600]; /* core/src/<folder>/<file>.c, or <target>: <file>.c */
    int layer;       /* libfrx's objects: the folder; else -1 */
    char **undef;
    size_t nundef;
};

static struct obj *objs;
static size_t nobjs;
static struct sym *defs;
static size_t ndefs, capdefs;

static int sym_cmp(const void *a, const void *b)
{
    const struct sym *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->obj > y->obj) - (x->obj < y->obj);
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        fatal("out of memory");
    return d;
}

static void add_def(const char *name, int obj)
{
    if (ndefs == capdefs) {
        capdefs = capdefs ? 2 * capdefs : 4096;
        defs = realloc(defs, capdefs * sizeof *defs);
        if (!defs)
            fatal("out of memory");
    }
    defs[ndefs++] = (struct sym){xstrdup(name), obj};
}

/* The objects of one target define a symbol: the first that does (by
 * index), or -1. */
static int definer(const char *target, const char *name)
{
    struct sym key = {(char *)name, -1};
    size_t lo = 0, hi = ndefs;
    while (lo < hi) { /* first entry >= (name, -1) */
        size_t mid = (lo + hi) / 2;
        if (sym_cmp(&defs[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < ndefs && strcmp(defs[lo].name, name) == 0; lo++)
        if (strcmp(objs[defs[lo].obj].target, target) == 0)
            return defs[lo].obj;
    return -1;
}

static void add_undef(struct obj *o, const char *name, size_t *cap)
{
    if (o->nundef == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        o->undef = realloc(o->undef, *cap * sizeof *o->undef);
        if (!o->undef)
            fatal("out of memory");
    }
    o->undef[o->nundef++] = xstrdup(name);
}

/* The symbols of objects [first, last), from one run of nm (one a file
 * takes tens of milliseconds to start): "path: name type ...", each
 * file's lines together. */
static void read_symbols(size_t first, size_t last)
{
    size_t len = strlen("nm -P -A 2>&1") + 1;
    for (size_t i = first; i < last; i++) {
        if (strchr(objs[i].path, '\''))
            fatal("an object path with a quote: %s", objs[i].path);
        len += strlen(objs[i].path) + 3;
    }
    char *cmd = malloc(len);
    if (!cmd)
        fatal("out of memory");
    char *at = cmd + sprintf(cmd, "nm -P -A");
    for (size_t i = first; i < last; i++)
        at += sprintf(at, " '%s'", objs[i].path);
    strcpy(at, " 2>&1");
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p)
        fatal("cannot run nm: %s", strerror(errno));
    char line[8192];
    size_t cur = first, *caps = calloc(last - first, sizeof *caps);
    if (!caps)
        fatal("out of memory");
    while (fgets(line, sizeof line, p)) {
        char *colon = strstr(line, ": ");
        char name[4096], type[8];
        if (!colon || sscanf(colon + 2, "%4095s %7s", name, type) != 2)
            continue;
        *colon = '\0';
        if (strcmp(objs[cur].path, line) != 0) {
            for (cur = first; cur < last && strcmp(objs[cur].path, line);
                 cur++)
                ;
            if (cur == last)
                fatal("nm: %s", line); /* a message, not a symbol */
        }
        if (strcmp(type, "U") == 0)
            add_undef(&objs[cur], name, &caps[cur - first]);
        else if (strchr("TDBRCGSVW", type[0]) && !type[1])
            add_def(name, (int)cur);
    }
    free(caps);
    if (pclose(p) != 0)
        fatal("nm failed on the objects of %s", objs[first].target);
}

/* The folder of libfrx an object was built from: its path ends in
 * src/<folder>/<file>.c.o. */
static void name_object(struct obj *o, const struct layers *core)
{
    char copy[4096];
    put(copy, sizeof copy, "%s", o->path);
    char *base = strrchr(copy, '/');
    put(o->file, sizeof o->file, "%s", base ? base + 1 : copy);
    if (ends_with(o->file, ".o"))
        o->file[strlen(o->file) - 2] = '\0';
    o->layer = -1;
    if (strcmp(o->target, "frx") == 0 && base) {
        *base = '\0';
        char *up = strrchr(copy, '/');
        const char *folder = up ? up + 1 : copy;
        o->layer = find_layer(core, folder);
        if (o->layer < 0)
            problem(o->path, 0, "an object of libfrx from no folder of "
                    "core/src/layers.txt");
        put(o->group, sizeof o->group, "core/src/%s", folder);
        put(o->shown, sizeof o->shown, "%s/%s", o->group, o->file);
    } else {
        put(o->group, sizeof o->group, "%s", o->target);
        put(o->shown, sizeof o->shown, "%s: %s", o->target, o->file);
    }
}

static void read_objects(const char *list, const struct layers *core)
{
    FILE *f = fopen(list, "r");
    if (!f)
        fatal("cannot read %s: %s", list, strerror(errno));
    char line[8192];
    size_t cap = 0;
    while (fgets(line, sizeof line, f)) {
        char target[128], path[4096];
        if (sscanf(line, "%127s %4095s", target, path) != 2)
            continue;
        if (nobjs == cap) {
            cap = cap ? 2 * cap : 128;
            objs = realloc(objs, cap * sizeof *objs);
            if (!objs)
                fatal("out of memory");
        }
        struct obj *o = &objs[nobjs++];
        memset(o, 0, sizeof *o);
        put(o->target, sizeof o->target, "%s", target);
        put(o->path, sizeof o->path, "%s", path);
        name_object(o, core);
    }
    fclose(f);
    if (!nobjs)
        fatal("%s lists no object files", list);
    for (size_t i = 0; i < nobjs; i += 64)
        read_symbols(i, i + 64 < nobjs ? i + 64 : nobjs);
    qsort(defs, ndefs, sizeof *defs, sym_cmp);
}

/* Edges between the objects of one target: a calls (or reads) a symbol
 * b defines; the first such symbol names the edge. */
static const char **edge; /* [nobjs * nobjs], NULL: none */

static void make_edges(void)
{
    edge = calloc(nobjs * nobjs, sizeof *edge);
    if (!edge)
        fatal("out of memory");
    for (size_t a = 0; a < nobjs; a++)
        for (size_t k = 0; k < objs[a].nundef; k++) {
            int b = definer(objs[a].target, objs[a].undef[k]);
            if (b >= 0 && (size_t)b != a && !edge[a * nobjs + (size_t)b])
                edge[a * nobjs + (size_t)b] = objs[a].undef[k];
        }
}

static void check_calls(const struct layers *core)
{
    for (size_t a = 0; a < nobjs; a++)
        for (size_t b = 0; b < nobjs; b++) {
            const char *s = edge[a * nobjs + b];
            int fa = objs[a].layer, fb = objs[b].layer;
            if (!s || fa < 0 || fb < 0 || fa == fb || core->l[fa].below[fb])
                continue;
            char u[1024];
            problem(objs[a].shown, 0, "calls %s of %s, but %s does not use "
                    "%s (it uses %s; core/src/layers.txt): move the "
                    "function down, or have the upper folder pass it in",
                    s, objs[b].shown, core->l[fa].name, core->l[fb].name,
                    uses_text(core, fa, u, sizeof u));
        }
}

/* Cycles between the files of one folder (libfrx) or of one target
 * (elsewhere): Tarjan's strongly connected components. */
static int *idx, *low, *stack, *on, nstack, counter;

static int same_group(size_t a, size_t b)
{
    return strcmp(objs[a].target, objs[b].target) == 0 &&
           objs[a].layer == objs[b].layer;
}

static void report_cycle(const int *members, int n)
{
    char list[4096] = "", calls[8192] = "";
    for (int i = 0; i < n; i++) {
        const struct obj *a = &objs[members[i]];
        size_t len = strlen(list);
        put(list + len, sizeof list - len, "%s%s", i ? ", " : "", a->file);
        for (int j = 0; j < n; j++) {
            const char *s = edge[(size_t)members[i] * nobjs +
                                 (size_t)members[j]];
            if (!s)
                continue;
            len = strlen(calls);
            put(calls + len, sizeof calls - len, "%s%s -> %s (%s)",
                len ? ", " : "", a->file, objs[members[j]].file, s);
        }
    }
    problem(objs[members[0]].group, 0, "files that call each other in a "
            "cycle: %s (%s): move the function that sits in the wrong "
            "file", list, calls);
}

static void strong(int v)
{
    idx[v] = low[v] = ++counter;
    stack[nstack++] = v;
    on[v] = 1;
    for (size_t w = 0; w < nobjs; w++) {
        if (!edge[(size_t)v * nobjs + w] || !same_group((size_t)v, w))
            continue;
        if (!idx[w]) {
            strong((int)w);
            if (low[w] < low[v])
                low[v] = low[w];
        } else if (on[w] && idx[w] < low[v]) {
            low[v] = idx[w];
        }
    }
    if (low[v] != idx[v])
        return;
    int start = nstack;
    do
        on[stack[--start]] = 0;
    while (stack[start] != v);
    if (nstack - start > 1)
        report_cycle(stack + start, nstack - start);
    nstack = start;
}

static void check_cycles(void)
{
    idx = calloc(nobjs, sizeof *idx);
    low = calloc(nobjs, sizeof *low);
    stack = calloc(nobjs, sizeof *stack);
    on = calloc(nobjs, sizeof *on);
    if (!idx || !low || !stack || !on)
        fatal("out of memory");
    for (size_t v = 0; v < nobjs; v++)
        if (!idx[v])
            strong((int)v);
}

/* ----------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    const char *objects = NULL;
    if (argc == 4 && strcmp(argv[2], "--objects") == 0)
        objects = argv[3];
    else if (argc != 2) {
        fprintf(stderr, "usage: layout ROOT [--objects LIST]\n"
                "Checks the includes of core/src, core/cli, plugins and "
                "examples against\ncore/src/layers.txt and "
                "plugins/layers.txt; with LIST (lines \"<target> "
                "<object>\"),\nwhich folders' functions each object "
                "calls, and cycles between files.\n");
        return 2;
    }
    root = argv[1];
    static struct layers core, plugins;
    read_layers(&core, "core/src/layers.txt");
    read_layers(&plugins, "plugins/layers.txt");
    all_sets[0] = &core;
    all_sets[1] = &plugins;
    nsets = 2;

    check_core(&core);
    walk("core/cli", cli_visit, &core);
    check_plugins(&plugins);
    char p[4096];
    if (is_dir(path_of(p, sizeof p, "examples")))
        walk("examples", example_visit, NULL);
    if (objects) {
        read_objects(objects, &core);
        make_edges();
        check_calls(&core);
        check_cycles();
    }
    if (nproblems) {
        printf("layout: %d problem(s); the layout is core/src/README.md's "
               "(core/src/layers.txt, plugins/layers.txt)\n", nproblems);
        return 1;
    }
    printf("layout: %zu object(s) checked; every include and call goes "
           "down\n", nobjs);
    return 0;
}
