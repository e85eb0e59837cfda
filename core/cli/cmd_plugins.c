/* SPDX-License-Identifier: BSD-3-Clause */
/* `frx plugins [--config FILE]`: every plugin along the search path, and
 * whether it can be used here. */
#include "cli.h"

#include <frx/extension.h>

#include <frx/frx.h>
#include <frx/plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COL_KIND, COL_NAME, COL_VERSION, COL_ABI, COL_PATH, COL_STATUS, NCOL };

struct row {
    char *col[NCOL];
};

struct table {
    struct row *rows;
    size_t n, cap;
    int failed; /* out of memory while collecting */
};

static void usage(FILE *f)
{
    fputs("usage: frx plugins [--config FILE]\n"
          "\n"
          "List every plugin (frx-<name>.so) along the search path, in\n"
          "search order, and whether it can be used on this machine.\n"
          "\n"
          "  --config FILE  also search the case's plugins.path\n"
          "  -h, --help     show this help\n"
          "\n"
          "Search order: plugins.path from --config, then FRX_PLUGIN_PATH\n"
          "(colon-separated), then frx/ beside libfrx, then the install's\n"
          "plugin folder.\n",
          f);
}

static const char *kind_name(uint32_t kind)
{
    switch (kind) {
    case FRX_PLUGIN_BACKEND: return "backend";
    case FRX_PLUGIN_SOLVER: return "solver";
    case FRX_PLUGIN_EXTENSION: return "extension";
    default: return "?";
    }
}

/* <name> of ".../frx-<name>.so", for files that could not be opened. */
static char *name_of_file(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t plen = strlen(FRX_PLUGIN_PREFIX), len = strlen(base);
    if (strncmp(base, FRX_PLUGIN_PREFIX, plen) == 0)
        base += plen, len -= plen;
    if (len > 3 && strcmp(base + len - 3, ".so") == 0)
        len -= 3;
    return strndup(base, len);
}

/* The loader's message names the file first; the table shows it already. */
static const char *without_path(const char *msg, const char *path)
{
    const char *word = "plugin ";
    size_t w = strlen(word), n = strlen(path);
    if (strncmp(msg, word, w) != 0 || strncmp(msg + w, path, n) != 0)
        return msg;
    msg += w + n;
    if (msg[0] == ':')
        msg++;
    return msg + strspn(msg, " ");
}

static char *status_of(const frx_plugin *p, int err, const char *msg,
                       const char *path)
{
    char *s = NULL;
    int r;
    if (!p && err == 0) { /* shadowed */
        r = asprintf(&s, "%s", msg);
    } else if (!p) {
        r = asprintf(&s, "unusable: %s", without_path(msg, path));
    } else {
        char why[512] = "";
        const frx_plugin_desc *d = frx_plugin_descriptor(p);
        int backend = d->kind == FRX_PLUGIN_BACKEND;
        if (d->kind == FRX_PLUGIN_EXTENSION) {
            const frx_extension_ops *ops = d->extension;
            snprintf(why, sizeof why, "extension API %u.%u",
                     (unsigned)ops->api_major, (unsigned)ops->api_minor);
        } else if (!backend) { /* which solver API, or options alone */
            const frx_solver_ops *ops = d->solver;
            if (ops && ops->create)
                snprintf(why, sizeof why, "solver API %u.%u",
                         (unsigned)ops->api_major, (unsigned)ops->api_minor);
            else
                snprintf(why, sizeof why, "options only: it cannot run");
        }
        /* a probe that succeeds may say what it found (the device) */
        if (!backend)
            r = asprintf(&s, "ok: %s", why);
        else if (frx_plugin_probe(p, why, sizeof why) == FRX_OK)
            r = asprintf(&s, "%s%s%s", backend ? "can start" : "ok",
                         why[0] ? ": " : "", why);
        else
            r = asprintf(&s, "cannot start: %s", why);
    }
    return r < 0 ? NULL : s;
}

static int fill_row(struct row *row, const char *path, const frx_plugin *p,
                    int err, const char *msg)
{
    const frx_plugin_desc *d = p ? frx_plugin_descriptor(p) : NULL;
    int r = 0;
    if (d) {
        row->col[COL_KIND] = strdup(kind_name(d->kind));
        row->col[COL_NAME] = strdup(d->name);
        row->col[COL_VERSION] = strdup(d->version ? d->version : "-");
        r = asprintf(&row->col[COL_ABI], "abi %u.%u",
                     (unsigned)d->abi_major, (unsigned)d->abi_minor);
    } else {
        row->col[COL_KIND] = strdup("-");
        row->col[COL_NAME] = name_of_file(path);
        row->col[COL_VERSION] = strdup("-");
        row->col[COL_ABI] = strdup("-");
    }
    if (r < 0)
        row->col[COL_ABI] = NULL;
    row->col[COL_PATH] = strdup(path);
    row->col[COL_STATUS] = status_of(p, err, msg, path);
    for (int c = 0; c < NCOL; c++)
        if (!row->col[c])
            return -1;
    return 0;
}

static void row_free(struct row *row)
{
    for (int c = 0; c < NCOL; c++)
        free(row->col[c]);
}

static void collect(const char *path, const frx_plugin *p, int err,
                    const char *msg, void *ud)
{
    struct table *t = ud;
    if (t->failed)
        return;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        struct row *rows = realloc(t->rows, cap * sizeof *rows);
        if (!rows) {
            t->failed = 1;
            return;
        }
        t->rows = rows;
        t->cap = cap;
    }
    struct row *row = &t->rows[t->n];
    memset(row, 0, sizeof *row);
    if (fill_row(row, path, p, err, msg) != 0) {
        row_free(row);
        t->failed = 1;
        return;
    }
    t->n++;
}

static void table_print(const struct table *t, FILE *f)
{
    size_t width[NCOL] = {0};
    for (size_t i = 0; i < t->n; i++)
        for (int c = 0; c < NCOL; c++) {
            size_t w = strlen(t->rows[i].col[c]);
            if (w > width[c])
                width[c] = w;
        }
    for (size_t i = 0; i < t->n; i++) {
        for (int c = 0; c < NCOL - 1; c++)
            fprintf(f, "%-*s  ", (int)width[c], t->rows[i].col[c]);
        fprintf(f, "%s\n", t->rows[i].col[NCOL - 1]);
    }
}

static void table_free(struct table *t)
{
    for (size_t i = 0; i < t->n; i++)
        row_free(&t->rows[i]);
    free(t->rows);
}

static int print_search_path(const frx_config *cfg, FILE *f)
{
    size_t n = 4096;
    for (;;) {
        char *buf = malloc(n);
        if (!buf)
            return FRX_ENOMEM;
        int r = frx_plugin_search_path(cfg, buf, n);
        if (r == FRX_OK)
            fprintf(f, "searched: %s\n", buf);
        free(buf);
        if (r != FRX_ERANGE)
            return r;
        n *= 4;
    }
}

/* argv[0] is "plugins". Sets *config; returns -1 to stop with status. */
static int parse_args(int argc, char **argv, const char **config,
                      int *status)
{
    *config = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            *status = 0;
            return -1;
        } else if (strcmp(a, "--config") == 0 && i + 1 < argc) {
            *config = argv[++i];
        } else if (strncmp(a, "--config=", 9) == 0 && a[9]) {
            *config = a + 9;
        } else {
            fprintf(stderr, "frx plugins: %s '%s'\n",
                    strcmp(a, "--config") == 0 ? "missing file after"
                                                : "unknown argument",
                    a);
            usage(stderr);
            *status = 1;
            return -1;
        }
    }
    return 0;
}

int frx_cmd_plugins(int argc, char **argv)
{
    const char *config = NULL;
    int status = 0;
    if (parse_args(argc, argv, &config, &status) != 0)
        return status;

    frx_config *cfg = NULL;
    if (config && frx_config_load(config, &cfg) != FRX_OK) {
        fprintf(stderr, "frx plugins: %s\n", frx_errmsg());
        return 1;
    }
    struct table t = {0};
    int r = frx_plugin_foreach(cfg, collect, &t);
    if (r == FRX_OK && t.failed)
        r = FRX_ENOMEM;
    if (r == FRX_OK) {
        if (t.n == 0)
            printf("no plugins found\n");
        table_print(&t, stdout);
        r = print_search_path(cfg, stdout);
    }
    if (r != FRX_OK)
        fprintf(stderr, "frx plugins: %s\n",
                r == FRX_ENOMEM ? "out of memory" : frx_errmsg());
    table_free(&t);
    if (cfg)
        frx_config_free(cfg);
    return r == FRX_OK ? 0 : 1;
}
