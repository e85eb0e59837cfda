/* Validating a case against frx's schema and the schemas of the backend
 * plugins found along the search path. Every error is reported, one per
 * line of frx_errmsg(), in file order. */
#include "config-impl.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Flat dotted keys; a MAP's keys are the entries below it. */
static const frx_option core_schema[] = {
    {.key = "plugins", .type = FRX_OPT_MAP,
     .help = "where frx looks for plugins"},
    {.key = "plugins.path", .type = FRX_OPT_STRING_LIST, .def = "[]",
     .help = "directories searched for plugins first"},
    {.key = "backend", .type = FRX_OPT_MAP, .required = 1,
     .help = "the device backend"},
    {.key = "backend.name", .type = FRX_OPT_STRING, .def = "auto",
     .help = "auto, or the name of a backend plugin"},
    {.key = "backend.precision", .type = FRX_OPT_ENUM,
     .choices = "single|double", .required = 1,
     .help = "floating-point precision"},
    {.key = "backend.mpi", .type = FRX_OPT_ENUM,
     .choices = "auto|device-aware|host-staged", .def = "auto",
     .help = "how MPI reaches device memory"},
    {.key = "backend.rules", .type = FRX_OPT_MAP_LIST,
     .help = "per-rank backends: the first rule matching a rank's host "
             "or rank number applies"},
    {.key = "backend.rules.hosts", .type = FRX_OPT_STRING,
     .help = "host name glob, e.g. \"gpu-a*\""},
    {.key = "backend.rules.ranks", .type = FRX_OPT_STRING,
     .help = "rank ranges, e.g. \"0-3,8\""},
    {.key = "backend.rules.name", .type = FRX_OPT_STRING, .required = 1,
     .help = "the backend of the matching ranks"},
    {.key = "backend.rules.device", .type = FRX_OPT_STRING,
     .help = "local-rank, a device index or a device id"},
    {.key = "backend.rules.precision", .type = FRX_OPT_ENUM,
     .choices = "single|double",
     .help = "precision of the matching ranks (must agree with the rest)"},
    {.key = "log", .type = FRX_OPT_MAP, .help = "logging"},
    {.key = "log.level", .type = FRX_OPT_ENUM,
     .choices = "error|warn|info|debug", .def = "warn",
     .help = "the least severe messages shown; FRX_LOG overrides it"},
    {.key = "demo", .type = FRX_OPT_MAP, .help = "the exchange demo"},
    {.key = "demo.neles", .type = FRX_OPT_INT, .min = 1, .max = 100000000,
     .def = "4096", .help = "elements"},
    {.key = "demo.nvars", .type = FRX_OPT_INT, .min = 1, .max = 64,
     .def = "4", .help = "variables per point"},
    {.key = "demo.nupts", .type = FRX_OPT_INT, .min = 2, .max = 1000,
     .def = "8", .help = "points per element"},
    {.key = "demo.steps", .type = FRX_OPT_INT, .min = 1, .max = 1000000,
     .def = "10", .help = "exchange steps"},
    {.key = "solver", .type = FRX_OPT_MAP, .help = "the solver"},
    {0},
};

/* Backends frx knows by name: accepted in backend.name and as
 * backend.<name> even when their plugin is not found here (start-up
 * reports that, with the paths it searched). */
static const char *const known_backends[] = {"openmp", "opencl", "cuda",
                                             "hip"};
#define NKNOWN (sizeof known_backends / sizeof *known_backends)

struct entry {
    frx_option o; /* o.key is the full dotted key */
    int open;     /* a MAP whose keys are not checked */
    int owned;    /* the strings are ours to free */
};

struct check {
    const frx_config *cfg;
    struct entry *e;
    size_t n, cap;
    char **found; /* names of the backend plugins found */
    size_t nfound, capfound;
    int nerr;
    int rc; /* FRX_ENOMEM while building the schema */
};

/* -------------------------------------------------------- the schema */

static struct entry *find_entry(const struct check *c, const char *key)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->e[i].o.key, key))
            return &c->e[i];
    return NULL;
}

static int add_entry(struct check *c, const struct entry *e)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 32;
        struct entry *more = realloc(c->e, cap * sizeof *more);
        if (!more)
            return c->rc = FRX_ENOMEM;
        c->e = more;
        c->cap = cap;
    }
    c->e[c->n++] = *e;
    return FRX_OK;
}

static char *dup_or_null(const char *s, int *fail)
{
    char *d = s ? frx__strdup(s) : NULL;
    if (s && !d)
        *fail = 1;
    return d;
}

/* Add one plugin option as "<prefix>.<key>", copying its strings: the
 * plugin may be unloaded before the check runs. */
static int add_copy(struct check *c, const char *prefix, const frx_option *o,
                    int open)
{
    size_t len = strlen(prefix) + strlen(o->key) + 2;
    char *key = malloc(len);
    if (!key)
        return c->rc = FRX_ENOMEM;
    snprintf(key, len, "%s.%s", prefix, o->key);
    struct entry e = {.o = *o, .open = open, .owned = 1};
    int fail = 0;
    e.o.key = key;
    e.o.choices = dup_or_null(o->choices, &fail);
    e.o.def = dup_or_null(o->def, &fail);
    e.o.help = dup_or_null(o->help, &fail);
    if (fail || add_entry(c, &e)) {
        free(key);
        free((char *)e.o.choices);
        free((char *)e.o.def);
        free((char *)e.o.help);
        return c->rc = FRX_ENOMEM;
    }
    return FRX_OK;
}

/* Make sure every map above a dotted plugin key is declared. */
static int add_parents(struct check *c, const char *prefix, const char *key)
{
    for (const char *dot = strchr(key, '.'); dot; dot = strchr(dot + 1, '.')) {
        char part[256];
        snprintf(part, sizeof part, "%.*s", (int)(dot - key), key);
        char full[512];
        snprintf(full, sizeof full, "%s.%s", prefix, part);
        if (find_entry(c, full))
            continue;
        frx_option o = {.key = part, .type = FRX_OPT_MAP};
        if (add_copy(c, prefix, &o, 0))
            return c->rc;
    }
    return FRX_OK;
}

static int is_found(const struct check *c, const char *name)
{
    for (size_t i = 0; i < c->nfound; i++)
        if (!strcmp(c->found[i], name))
            return 1;
    return 0;
}

static int add_found(struct check *c, const char *name)
{
    if (c->nfound == c->capfound) {
        size_t cap = c->capfound ? 2 * c->capfound : 8;
        char **more = realloc(c->found, cap * sizeof *more);
        if (!more)
            return c->rc = FRX_ENOMEM;
        c->found = more;
        c->capfound = cap;
    }
    if (!(c->found[c->nfound] = frx__strdup(name)))
        return c->rc = FRX_ENOMEM;
    c->nfound++;
    return FRX_OK;
}

static const frx_option *backend_options(const frx_plugin_desc *d)
{
    if (d->size < offsetof(frx_plugin_desc, backend) + sizeof d->backend ||
        !d->backend)
        return NULL;
    const frx_backend_ops *ops = d->backend;
    if (ops->size < offsetof(frx_backend_ops, options) + sizeof ops->options)
        return NULL;
    return ops->options;
}

/* A plugin's MAP options are open unless the plugin lists keys below. */
static int has_children(const struct check *c, const char *key)
{
    size_t len = strlen(key);
    for (size_t i = 0; i < c->n; i++)
        if (!strncmp(c->e[i].o.key, key, len) && c->e[i].o.key[len] == '.')
            return 1;
    return 0;
}

static void add_backend(struct check *c, const frx_plugin_desc *d)
{
    const char *name = d->name;
    char prefix[256];
    snprintf(prefix, sizeof prefix, "backend.%s", name);
    if (strchr(name, '.') || is_found(c, name) || find_entry(c, prefix))
        return; /* shadowed, or clashes with a core key */
    if (add_found(c, name))
        return;
    frx_option self = {.key = name, .type = FRX_OPT_MAP,
                       .help = d->summary};
    if (add_copy(c, "backend", &self, 0))
        return;
    const frx_option *opts = backend_options(d);
    size_t first = c->n;
    for (size_t i = 0; opts && opts[i].key && i < 1000; i++)
        if (add_parents(c, prefix, opts[i].key) ||
            add_copy(c, prefix, &opts[i], 0))
            return;
    /* every backend's products are chosen by the core (product.c) */
    char key[300];
    snprintf(key, sizeof key, "%s.products", prefix);
    frx_option products = {
        .key = "products", .type = FRX_OPT_STRING, .def = "auto",
        .help = "operator products: auto (time every provider once), "
                "generated, or a library the backend offers"};
    if (!find_entry(c, key) && add_copy(c, prefix, &products, 0))
        return;
    for (size_t i = first; i < c->n; i++)
        if (c->e[i].o.type == FRX_OPT_MAP)
            c->e[i].open = !has_children(c, c->e[i].o.key);
}

static void visit(const char *path, const frx_plugin *p, int err,
                  const char *msg, void *ud)
{
    struct check *c = ud;
    (void)path, (void)err, (void)msg; /* broken plugins: `frx plugins` */
    const frx_plugin_desc *d = p ? frx_plugin_descriptor(p) : NULL;
    if (!c->rc && d && d->kind == FRX_PLUGIN_BACKEND && d->name)
        add_backend(c, d);
}

static int build_schema(struct check *c)
{
    for (const frx_option *o = core_schema; o->key; o++) {
        struct entry e = {.o = *o, .open = !strcmp(o->key, "solver")};
        if (add_entry(c, &e))
            return c->rc;
    }
    frx_plugin_foreach(c->cfg, visit, c); /* an error here: see below */
    for (size_t i = 0; i < NKNOWN && !c->rc; i++) {
        char key[64];
        snprintf(key, sizeof key, "backend.%s", known_backends[i]);
        frx_option o = {.key = known_backends[i], .type = FRX_OPT_MAP};
        if (!find_entry(c, key))
            add_copy(c, "backend", &o, 1);
    }
    return c->rc;
}

static void free_schema(struct check *c)
{
    for (size_t i = 0; i < c->n; i++) {
        if (!c->e[i].owned)
            continue;
        free((char *)c->e[i].o.key);
        free((char *)c->e[i].o.choices);
        free((char *)c->e[i].o.def);
        free((char *)c->e[i].o.help);
    }
    free(c->e);
    for (size_t i = 0; i < c->nfound; i++)
        free(c->found[i]);
    free(c->found);
}

/* ---------------------------------------------------------- reporting */

static void report(struct check *c, const frx_cfgnode *at, const char *fmt,
                   ...) __attribute__((format(printf, 3, 4)));
static void report(struct check *c, const frx_cfgnode *at, const char *fmt,
                   ...)
{
    char where[300], msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (at)
        frx__cfg_where(at, where, sizeof where);
    else
        snprintf(where, sizeof where, "%s:1:1", c->cfg->file);
    frx__error_append(FRX_ECONFIG, "%s: %s", where, msg);
    c->nerr++;
}

static void report_msg(struct check *c, int rc, const char *msg)
{
    if (!rc)
        return;
    frx__error_append(FRX_ECONFIG, "%s", msg);
    c->nerr++;
}

/* "in 'backend'" or "in the top level". */
static const char *in_what(const char *prefix, char *buf, size_t n)
{
    if (*prefix)
        snprintf(buf, n, "in '%s'", prefix);
    else
        snprintf(buf, n, "in the top level");
    return buf;
}

/* Where a message about a mapping points: at its key when it has one
 * (that is the line the user wrote), at 1:1 for the top level. */
static const frx_cfgnode *anchor_of(const frx_cfgnode *v)
{
    if (!v->parent)
        return NULL;
    if (v->parent->type == FRX_CFG_MAP)
        return v->parent->keys[v->index];
    return v;
}

/* The next segment of key below prefix ("" = top level), or NULL. */
static const char *child_of(const char *key, const char *prefix)
{
    size_t len = strlen(prefix);
    if (len) {
        if (strncmp(key, prefix, len) || key[len] != '.')
            return NULL;
        key += len + 1;
    }
    return strchr(key, '.') ? NULL : key;
}

static void report_unknown(struct check *c, const frx_cfgnode *keynode,
                           const char *prefix)
{
    const char *key = keynode->text, *cands[256], *best;
    char in[300];
    size_t nc = 0;
    for (size_t i = 0; i < c->n && nc < 256; i++) {
        const char *child = child_of(c->e[i].o.key, prefix);
        if (child)
            cands[nc++] = child;
    }
    in_what(prefix, in, sizeof in);
    if (strchr(key, '.'))
        report(c, keynode, "unknown key '%s' %s (keys cannot contain '.': "
               "nest each part under the one before)", key, in);
    else if ((best = frx__suggest(key, cands, nc)))
        report(c, keynode, "unknown key '%s' %s (did you mean '%s'?)", key,
               in, best);
    else
        report(c, keynode, "unknown key '%s' %s", key, in);
}

static const frx_cfgnode *map_get(const frx_cfgnode *map, const char *key)
{
    for (size_t i = 0; map && i < map->n; i++)
        if (!strcmp(map->keys[i]->text, key))
            return map->vals[i];
    return NULL;
}

/* "(single or double)", "(a mapping with at least 'precision')". */
static const char *missing_hint(const struct check *c, const struct entry *e,
                                char *buf, size_t n)
{
    char list[512] = "";
    buf[0] = '\0';
    if (e->o.type == FRX_OPT_ENUM && e->o.choices) {
        snprintf(buf, n, " (%s)",
                 frx__cfg_choices_text(e->o.choices, " or ", list,
                                       sizeof list));
    } else if (e->o.type == FRX_OPT_MAP) {
        for (size_t i = 0; i < c->n; i++) {
            const char *child = child_of(c->e[i].o.key, e->o.key);
            size_t len = strlen(list);
            if (child && c->e[i].o.required && len < sizeof list)
                snprintf(list + len, sizeof list - len, "%s'%s'",
                         len ? ", " : "", child);
        }
        snprintf(buf, n, *list ? " (a mapping with at least %s)"
                               : " (a mapping)", list);
    } else if (e->o.help) {
        snprintf(buf, n, " (%s)", e->o.help);
    }
    return buf;
}

/* ----------------------------------------------------------- checking */

static void check_map(struct check *c, const frx_cfgnode *map,
                      const frx_cfgnode *at, const char *prefix);

static int known_backend(const struct check *c, const char *name)
{
    if (!strcmp(name, "auto") || is_found(c, name))
        return 1;
    for (size_t i = 0; i < NKNOWN; i++)
        if (!strcmp(name, known_backends[i]))
            return 1;
    return 0;
}

static void check_backend_name(struct check *c, const frx_cfgnode *v,
                               const char *key)
{
    const char *name = v->text, *cands[NKNOWN + 65];
    size_t nc = 0;
    if (known_backend(c, name))
        return;
    char list[1024], hint[300] = "";
    size_t len = (size_t)snprintf(list, sizeof list, "auto");
    cands[nc++] = "auto";
    for (size_t i = 0; i < NKNOWN; i++) {
        cands[nc++] = known_backends[i];
        if (len < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, ", %s",
                                    known_backends[i]);
    }
    for (size_t i = 0; i < c->nfound && nc < NKNOWN + 65; i++) {
        int dup = 0;
        for (size_t k = 0; k < NKNOWN; k++)
            dup |= !strcmp(c->found[i], known_backends[k]);
        if (dup)
            continue;
        cands[nc++] = c->found[i];
        if (len < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, ", %s",
                                    c->found[i]);
    }
    const char *best = frx__suggest(name, cands, nc);
    if (best)
        snprintf(hint, sizeof hint, " (did you mean '%s'?)", best);
    report(c, v, "'%s' must be one of: %s; got '%s'%s", key, list, name,
           hint);
}

/* Rank ranges like "0-3,8". The parser records its complaint as the
 * thread's error message, which holds this check's report: keep it. */
static void check_ranks(struct check *c, const frx_cfgnode *v,
                        const char *key)
{
    char *kept = frx__strdup(frx_errmsg());
    int ok = frx__rank_match(v->text, 0, NULL) == FRX_OK;
    char why[512];
    snprintf(why, sizeof why, "%s", frx_errmsg());
    frx__error_clear();
    if (kept && c->nerr)
        frx__error_append(FRX_ECONFIG, "%s", kept);
    free(kept);
    if (!ok)
        report(c, v, "'%s': %s", key, why);
}

/* A list whose items are mappings with the keys "<key>.*"; each item
 * must say which ranks it is for. */
static void check_map_list(struct check *c, const frx_cfgnode *v,
                           const char *key)
{
    if (v->type == FRX_CFG_SCALAR && v->is_null)
        return;
    if (v->type != FRX_CFG_LIST) {
        report(c, v, "'%s' must be a list of mappings (items start with "
                     "'- '), got %s", key, frx__cfg_kind(v));
        return;
    }
    for (size_t i = 0; i < v->n; i++) {
        const frx_cfgnode *item = v->vals[i];
        if (item->type != FRX_CFG_MAP) {
            report(c, item, "each item of '%s' must be a mapping, got %s",
                   key, frx__cfg_kind(item));
            continue;
        }
        check_map(c, item, item, key);
        if (!map_get(item, "hosts") && !map_get(item, "ranks"))
            report(c, item, "an item of '%s' needs 'hosts' or 'ranks' to "
                            "say which ranks it is for", key);
    }
}

static void check_string_list(struct check *c, const frx_cfgnode *v,
                              const char *key)
{
    char msg[1024];
    const char *s;
    if (v->type == FRX_CFG_SCALAR)
        return; /* empty: no items; a string: a list of one */
    if (v->type != FRX_CFG_LIST) {
        report(c, v, "'%s' must be a list of strings (like [a, b]), got %s",
               key, frx__cfg_kind(v));
        return;
    }
    for (size_t i = 0; i < v->n; i++)
        report_msg(c, frx__cfg_to_string(v->vals[i], &s, msg, sizeof msg),
                   msg);
}

/* An INT option's double bounds as longs (min > max: unbounded). */
static void long_bounds(const frx_option *o, long *min, long *max)
{
    *min = 1;
    *max = 0;
    if (o->min > o->max)
        return;
    *min = o->min > -9.2e18 ? (long)o->min : LONG_MIN;
    *max = o->max < 9.2e18 ? (long)o->max : LONG_MAX;
}

static void check_value(struct check *c, const frx_cfgnode *v,
                        const struct entry *e)
{
    char msg[1024];
    const frx_option *o = &e->o;
    const char *s;
    long l;
    double d;
    int i;
    switch (o->type) {
    case FRX_OPT_MAP:
        if (v->type == FRX_CFG_SCALAR && v->is_null) /* an empty mapping */
            check_map(c, NULL, anchor_of(v), o->key);
        else if (v->type != FRX_CFG_MAP)
            report(c, v, "'%s' must be a mapping, got %s", o->key,
                   frx__cfg_kind(v));
        else if (!e->open)
            check_map(c, v, anchor_of(v), o->key);
        break;
    case FRX_OPT_STRING_LIST:
        check_string_list(c, v, o->key);
        break;
    case FRX_OPT_STRING: {
        int rc = frx__cfg_to_string(v, &s, msg, sizeof msg);
        report_msg(c, rc, msg);
        if (!rc && (!strcmp(o->key, "backend.name") ||
                    !strcmp(o->key, "backend.rules.name")))
            check_backend_name(c, v, o->key);
        if (!rc && !strcmp(o->key, "backend.rules.ranks"))
            check_ranks(c, v, o->key);
        break;
    }
    case FRX_OPT_MAP_LIST:
        check_map_list(c, v, o->key);
        break;
    case FRX_OPT_INT: {
        long min, max;
        long_bounds(o, &min, &max);
        report_msg(c, frx__cfg_to_long(v, min, max, &l, msg, sizeof msg),
                   msg);
        break;
    }
    case FRX_OPT_DOUBLE:
        report_msg(c, frx__cfg_to_double(v, o->min, o->max, &d, msg,
                                         sizeof msg), msg);
        break;
    case FRX_OPT_BOOL:
        report_msg(c, frx__cfg_to_bool(v, &i, msg, sizeof msg), msg);
        break;
    case FRX_OPT_ENUM:
        report_msg(c, frx__cfg_to_enum(v, o->choices, &i, msg, sizeof msg),
                   msg);
        break;
    default: /* a type this core does not know: nothing to check */
        break;
    }
}

/* map may be NULL (written as an empty value); at is where messages
 * about missing keys point. */
static void check_map(struct check *c, const frx_cfgnode *map,
                      const frx_cfgnode *at, const char *prefix)
{
    char full[512], in[300], hint[600];
    for (size_t i = 0; map && i < map->n; i++) {
        const frx_cfgnode *k = map->keys[i];
        int n = snprintf(full, sizeof full, "%s%s%s", prefix,
                         *prefix ? "." : "", k->text);
        const struct entry *e = NULL;
        if (n > 0 && (size_t)n < sizeof full && !strchr(k->text, '.'))
            e = find_entry(c, full);
        if (e)
            check_value(c, map->vals[i], e);
        else
            report_unknown(c, k, prefix);
    }
    for (size_t i = 0; i < c->n; i++) {
        const char *child = child_of(c->e[i].o.key, prefix);
        if (child && c->e[i].o.required && !map_get(map, child))
            report(c, at, "missing required key '%s' %s%s", child,
                   in_what(prefix, in, sizeof in),
                   missing_hint(c, &c->e[i], hint, sizeof hint));
    }
}

int frx_config_check(const frx_config *cfg)
{
    if (!cfg || !cfg->root)
        return frx_error(FRX_EINVAL, "frx_config_check: no config");
    struct check c = {.cfg = cfg};
    int rc = build_schema(&c);
    /* the loader may have recorded why a plugin could not be opened or
     * plugins.path could not be read; the checks below say it better */
    frx__error_clear();
    if (rc) {
        free_schema(&c);
        return frx_error(FRX_ENOMEM, "out of memory checking %s", cfg->file);
    }
    check_map(&c, cfg->root, NULL, "");
    free_schema(&c);
    return c.nerr ? FRX_ECONFIG : FRX_OK;
}
