/* SPDX-License-Identifier: BSD-3-Clause */
/* Validating a case against frx's schema and the schemas of the backend
 * plugins found along the search path. Every error is reported, one per
 * line of frx_errmsg(), in file order. */
#include "mesh/mesh-impl.h"
#include "plugin/plugin-impl.h"

#include <frx/extension.h>

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
    /* min > max: unbounded here; check_weight asks for > 0 */
    {.key = "backend.rules.weight", .type = FRX_OPT_DOUBLE, .min = 1,
     .max = 0, .def = "1",
     .help = "the matching ranks' share of the mesh, relative to others"},
    {.key = "cache", .type = FRX_OPT_MAP, .help = "the disk cache of "
     "compiled kernels"},
    {.key = "cache.lock-timeout", .type = FRX_OPT_DOUBLE, .min = 0,
     .max = 86400, .def = "300",
     .help = "seconds to wait for another process building the same "
             "kernel"},
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
    {.key = "solver.name", .type = FRX_OPT_STRING,
     .help = "the solver plugin; its options are solver.*"},
    {.key = "time", .type = FRX_OPT_MAP, .help = "the time loop"},
    {.key = "time.scheme", .type = FRX_OPT_ENUM,
     .choices = "rk4|ssp-rk3|rk45", .def = "rk4", .help = "time scheme"},
    {.key = "time.t-start", .type = FRX_OPT_DOUBLE, .min = 1, .max = 0,
     .def = "0", .help = "the initial time"},
    {.key = "time.t-end", .type = FRX_OPT_DOUBLE, .min = 1, .max = 0,
     .help = "the final time"},
    {.key = "time.steps", .type = FRX_OPT_INT, .min = 1, .max = 1e15,
     .help = "the last step number"},
    {.key = "time.dt", .type = FRX_OPT_DOUBLE, .min = 1e-300, .max = 1e300,
     .help = "the time step (rk45: the first one)"},
    {.key = "time.cfl", .type = FRX_OPT_DOUBLE, .min = 1e-300, .max = 1e300,
     .help = "the CFL number: dt from the solver's max_dt"},
    {.key = "time.controller", .type = FRX_OPT_ENUM,
     .choices = "auto|none|pi", .def = "auto",
     .help = "dt control: pi (rk45 only) or none"},
    {.key = "time.atol", .type = FRX_OPT_DOUBLE, .min = 0, .max = 1e300,
     .def = "1e-6", .help = "absolute error tolerance (pi)"},
    {.key = "time.rtol", .type = FRX_OPT_DOUBLE, .min = 0, .max = 1e300,
     .def = "1e-6", .help = "relative error tolerance (pi)"},
    {.key = "time.safety", .type = FRX_OPT_DOUBLE, .min = 0.01, .max = 1,
     .def = "0.8", .help = "safety factor (pi)"},
    {.key = "time.min-factor", .type = FRX_OPT_DOUBLE, .min = 0.01,
     .max = 0.99, .def = "0.3", .help = "smallest dt change (pi)"},
    {.key = "time.max-factor", .type = FRX_OPT_DOUBLE, .min = 1, .max = 100,
     .def = "2.5", .help = "largest dt change (pi)"},
    {.key = "time.pi-alpha", .type = FRX_OPT_DOUBLE, .min = 0, .max = 10,
     .def = "0.7", .help = "PI gain on the error"},
    {.key = "time.pi-beta", .type = FRX_OPT_DOUBLE, .min = 0, .max = 10,
     .def = "0.4", .help = "PI gain on the previous error"},
    {.key = "time.dt-min", .type = FRX_OPT_DOUBLE, .min = 0, .max = 1e300,
     .def = "1e-12", .help = "no step below it (pi)"},
    {.key = "time.dt-max", .type = FRX_OPT_DOUBLE, .min = 1e-300,
     .max = 1e300, .help = "no step above it"},
    {.key = "progress", .type = FRX_OPT_MAP, .help = "the progress line"},
    {.key = "progress.mode", .type = FRX_OPT_ENUM,
     .choices = "auto|in-place|lines|off", .def = "auto",
     .help = "rewritten in place, a line per interval, or none"},
    {.key = "progress.interval", .type = FRX_OPT_INT, .min = 1, .max = 1e15,
     .def = "100", .help = "steps between lines"},
    {.key = "output", .type = FRX_OPT_MAP, .help = "VTK output"},
    {.key = "output.interval", .type = FRX_OPT_INT, .min = 0, .max = 1e15,
     .def = "0", .help = "steps between outputs; 0: none"},
    {.key = "output.dir", .type = FRX_OPT_STRING, .def = ".",
     .help = "where output goes"},
    {.key = "output.name", .type = FRX_OPT_STRING, .def = "solution",
     .help = "file name stem"},
    {.key = "output.png", .type = FRX_OPT_MAP,
     .help = "pictures of one variable (2-D): <dir>/<name>-<var>.png"},
    {.key = "output.png.var", .type = FRX_OPT_STRING,
     .help = "the variable to draw (one of the solver's)"},
    {.key = "output.png.interval", .type = FRX_OPT_INT, .min = 0,
     .max = 1e15, .def = "0",
     .help = "steps between pictures; 0: the last step's only"},
    {.key = "output.png.width", .type = FRX_OPT_INT, .min = 64,
     .max = 8192, .def = "800", .help = "the plot's width in pixels"},
    {.key = "checkpoint", .type = FRX_OPT_MAP, .help = "checkpoints"},
    {.key = "checkpoint.interval", .type = FRX_OPT_INT, .min = 0,
     .max = 1e15, .def = "0", .help = "steps between checkpoints; 0: none"},
    {.key = "checkpoint.file", .type = FRX_OPT_STRING,
     .def = "checkpoint-{step}.h5", .help = "the file; {step} is replaced"},
    {.key = "profile", .type = FRX_OPT_BOOL, .def = "false",
     .help = "time every graph node and print where the time went"},
    {.key = "check", .type = FRX_OPT_MAP, .help = "run-time checks"},
    {.key = "check.interval", .type = FRX_OPT_INT, .min = 0, .max = 1e15,
     .def = "100", .help = "steps between NaN/Inf checks; 0: none"},
    {.key = "extensions", .type = FRX_OPT_MAP_LIST,
     .help = "extension plugins attached to the solver: [{name: <plugin>, "
             "every: <steps>, ...its options}]"},
    {.key = "mesh", .type = FRX_OPT_MAP, .help = "the mesh"},
    {.key = "mesh.type", .type = FRX_OPT_ENUM,
     .choices = "box|gmsh|partitioned",
     .required = 1, .help = "where the mesh comes from"},
    {.key = "mesh.file", .type = FRX_OPT_STRING,
     .help = "gmsh: the .msh file; partitioned: the file frx mesh "
             "partition -o wrote; relative to the case file's directory"},
    {.key = "mesh.n", .type = FRX_OPT_INT_LIST, .min = 1, .max = 1 << 28,
     .help = "box: elements per direction, like [16, 16]"},
    {.key = "mesh.lower", .type = FRX_OPT_DOUBLE_LIST, .min = 1, .max = 0,
     .def = "[0, 0]", .help = "box: the lower corner"},
    {.key = "mesh.upper", .type = FRX_OPT_DOUBLE_LIST, .min = 1, .max = 0,
     .def = "[1, 1]", .help = "box: the upper corner"},
    {.key = "mesh.periodic", .type = FRX_OPT_BOOL_LIST,
     .def = "[false, false]", .help = "box: periodic directions"},
    {.key = "mesh.etype", .type = FRX_OPT_ENUM,
     .choices = "quad|tri|hex|tet|prism|pyramid", .def = "quad (hex in 3-D)",
     .help = "box: the element type"},
    {.key = "mesh.order", .type = FRX_OPT_INT, .min = 1, .max = 2,
     .def = "1", .help = "box: shape order of the elements"},
    {.key = "partition", .type = FRX_OPT_MAP,
     .help = "how the mesh is shared out among ranks"},
    {.key = "partition.method", .type = FRX_OPT_ENUM,
     .choices = "metis|linear", .def = "metis",
     .help = "METIS, or contiguous ranges of elements"},
    {.key = "partition.weights", .type = FRX_OPT_DOUBLE_LIST, .min = 1,
     .max = 0, .help = "each rank's share of the elements, one per rank"},
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
    int mesh_bad; /* the schema found errors in mesh.* */
    int rc; /* FRX_ENOMEM while building the schema */
    int has_solver;   /* solver.name names a solver plugin found here */
    char *solver_err; /* why solver.name names none, reported there */
    int for_run;      /* open only the backends the case names */
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

/* extensions.<name>.<key>: the options of each extension the case
 * lists, found along the search path; why one is not, for its item. */
static void add_extension(struct check *c, const char *name)
{
    char prefix[300];
    snprintf(prefix, sizeof prefix, "extensions.%s", name);
    if (!*name || strchr(name, '.') || find_entry(c, prefix))
        return;
    frx_plugin *p;
    int rc = frx_plugin_find(c->cfg, name, &p);
    const frx_plugin_desc *d = rc ? NULL : frx_plugin_descriptor(p);
    if (rc || d->kind != FRX_PLUGIN_EXTENSION || !d->extension)
        return; /* said at its name, by check_extensions */
    frx_option self = {.key = name, .type = FRX_OPT_MAP, .help = d->summary};
    frx_option common[] = {
        {.key = "name", .type = FRX_OPT_STRING, .required = 1,
         .help = "the extension plugin"},
        {.key = "every", .type = FRX_OPT_INT, .min = 1, .max = 1e9,
         .def = "1", .help = "steps between its step hook's calls"}};
    if (add_copy(c, "extensions", &self, 0))
        return;
    for (size_t i = 0; i < 2; i++)
        if (add_copy(c, prefix, &common[i], 0))
            return;
    const frx_option *opts = d->extension->options;
    size_t first = c->n;
    for (size_t i = 0; opts && opts[i].key && i < 1000 && !c->rc; i++)
        if (strcmp(opts[i].key, "name") && strcmp(opts[i].key, "every") &&
            !add_parents(c, prefix, opts[i].key))
            add_copy(c, prefix, &opts[i], 0);
    for (size_t i = first; i < c->n; i++)
        if (c->e[i].o.type == FRX_OPT_MAP)
            c->e[i].open = !has_children(c, c->e[i].o.key);
}

static void add_extensions(struct check *c)
{
    const frx_cfgnode *list = frx_cfg_get(c->cfg->root, "extensions");
    if (!list || frx_cfg_type(list) != FRX_CFG_LIST)
        return;
    for (size_t i = 0; i < frx_cfg_len(list) && !c->rc; i++) {
        const frx_cfgnode *n = frx_cfg_get(frx_cfg_at(list, i), "name");
        if (n && frx_cfg_type(n) == FRX_CFG_SCALAR)
            add_extension(c, frx_cfg_scalar(n));
    }
}

/* solver.<key>: the options of the plugin solver.name names, found
 * along the search path (only that one is opened). */
static void add_solver(struct check *c)
{
    const frx_cfgnode *n = frx_cfg_get(c->cfg->root, "solver.name");
    const char *name = frx_cfg_scalar(n);
    if (name && !name[0]) { /* said at solver.name, not at every key */
        if (!(c->solver_err = frx__strdup("empty: name a solver plugin "
                                          "(frx plugins lists them)")))
            c->rc = FRX_ENOMEM;
        return;
    }
    if (!name || frx_cfg_type(frx_cfg_get(c->cfg->root, "solver")) !=
                     FRX_CFG_MAP)
        return; /* absent or not a string: the checks below say so */
    frx_plugin *p;
    int rc = frx_plugin_find(c->cfg, name, &p);
    const frx_plugin_desc *d = rc ? NULL : frx_plugin_descriptor(p);
    char msg[2048];
    if (rc)
        snprintf(msg, sizeof msg, "%s", frx_errmsg());
    else if (d->kind != FRX_PLUGIN_SOLVER)
        snprintf(msg, sizeof msg, "plugin %s is a backend, not a solver: "
                 "name a solver plugin (frx plugins lists them)",
                 frx_plugin_path(p));
    if (rc || d->kind != FRX_PLUGIN_SOLVER) {
        if (!(c->solver_err = frx__strdup(msg)))
            c->rc = FRX_ENOMEM;
        return;
    }
    c->has_solver = 1;
    const frx_option *opts = d->solver ? d->solver->options : NULL;
    size_t first = c->n;
    for (size_t i = 0; opts && opts[i].key && i < 1000 && !c->rc; i++)
        if (strcmp(opts[i].key, "name") != 0 && !add_parents(c, "solver",
                                                              opts[i].key))
            add_copy(c, "solver", &opts[i], 0);
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

/* The backends a case names: backend.name and each rule's name. */
static size_t named_backends(const frx_config *cfg, const char **names,
                             size_t max)
{
    const frx_cfgnode *root = frx_config_root(cfg);
    const frx_cfgnode *rules = frx_cfg_get(root, "backend.rules");
    const frx_cfgnode *name = frx_cfg_get(root, "backend.name");
    size_t n = 0;
    names[n++] = name && frx_cfg_type(name) == FRX_CFG_SCALAR
                     ? frx_cfg_scalar(name) : "auto";
    size_t nr = rules && frx_cfg_type(rules) == FRX_CFG_LIST
                    ? frx_cfg_len(rules) : 0;
    for (size_t i = 0; i < nr && n < max; i++) {
        const frx_cfgnode *r = frx_cfg_get(frx_cfg_at(rules, i), "name");
        if (r && frx_cfg_type(r) == FRX_CFG_SCALAR)
            names[n++] = frx_cfg_scalar(r);
    }
    return n;
}

/* frx run opens what the case names (every backend for auto), so that
 * a broken plugin it does not use cannot stop it; a backend.<name>
 * section of a backend it does not use is accepted unchecked when
 * frx-<name>.so is along the search path. */
static void add_named(struct check *c)
{
    const char *names[64];
    size_t n = named_backends(c->cfg, names, 64);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(names[i], "auto")) {
            frx__plugin_foreach(c->cfg, visit, c, 0);
            return;
        }
    for (size_t i = 0; i < n && !c->rc; i++) {
        frx_plugin *p;
        if (!is_found(c, names[i]) &&
            frx_plugin_find(c->cfg, names[i], &p) == FRX_OK)
            visit(frx_plugin_path(p), p, 0, "", c);
    }
    const frx_cfgnode *b = frx_cfg_get(frx_config_root(c->cfg), "backend");
    size_t nb = b && frx_cfg_type(b) == FRX_CFG_MAP ? frx_cfg_len(b) : 0;
    for (size_t i = 0; i < nb && !c->rc; i++) {
        const char *key = frx_cfg_key_at(b, i);
        char full[300];
        snprintf(full, sizeof full, "backend.%s", key);
        frx_option o = {.key = key, .type = FRX_OPT_MAP};
        if (!strchr(key, '.') && !find_entry(c, full) &&
            frx__plugin_exists(c->cfg, key))
            add_copy(c, "backend", &o, 1);
    }
}

static int build_schema(struct check *c)
{
    for (const frx_option *o = core_schema; o->key; o++) {
        struct entry e = {.o = *o};
        if (add_entry(c, &e))
            return c->rc;
    }
    add_solver(c);
    add_extensions(c);
    if (c->for_run) /* an error here: see below */
        add_named(c);
    else
        frx_plugin_foreach(c->cfg, visit, c);
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
    free(c->solver_err);
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
    if (!strcmp(prefix, "solver") && !c->has_solver) {
        if (!c->solver_err) /* else solver.name says why */
            report(c, keynode, "'solver.%s' reaches no plugin: set "
                   "solver.name to the solver plugin that takes it", key);
        return;
    }
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

/* After a call that records its complaint as the thread's error message
 * (which holds this check's report): that complaint into why, and the
 * report (kept, taken before the call) back in place. */
static void restore_report(struct check *c, char *kept, char *why,
                           size_t n)
{
    snprintf(why, n, "%s", frx_errmsg());
    frx__error_clear();
    if (kept && c->nerr)
        frx__error_append(FRX_ECONFIG, "%s", kept);
    free(kept);
}

/* Rank ranges like "0-3,8". */
static void check_ranks(struct check *c, const frx_cfgnode *v,
                        const char *key)
{
    char *kept = frx__strdup(frx_errmsg());
    int ok = frx__rank_match(v->text, 0, NULL) == FRX_OK;
    char why[512];
    restore_report(c, kept, why, sizeof why);
    if (!ok)
        report(c, v, "'%s': %s", key, why);
}

/* An item of `extensions`: its plugin named and found (the message of
 * the search, with its path, where it is not), its keys checked against
 * the plugin's schema. */
static void check_extension(struct check *c, const frx_cfgnode *item)
{
    const frx_cfgnode *n = map_get(item, "name");
    if (!n || n->type != FRX_CFG_SCALAR || !n->text[0]) {
        report(c, n ? n : item, "an item of 'extensions' needs 'name': the "
               "extension plugin (frx plugins lists them)");
        return;
    }
    char prefix[300];
    snprintf(prefix, sizeof prefix, "extensions.%s", n->text);
    if (find_entry(c, prefix)) {
        check_map(c, item, item, prefix);
        return;
    }
    char *kept = frx__strdup(frx_errmsg());
    frx_plugin *p;
    int rc = frx_plugin_find(c->cfg, n->text, &p);
    char why[2048];
    restore_report(c, kept, why, sizeof why);
    if (rc) {
        report(c, n, "extensions: %s", why);
    } else {
        const frx_plugin_desc *d = frx_plugin_descriptor(p);
        report(c, n, "extensions: plugin %s is a %s, not an extension: "
               "name an extension plugin (frx plugins lists them)",
               frx_plugin_path(p), d->kind == FRX_PLUGIN_SOLVER ? "solver"
                                                                : "backend");
    }
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
        if (!strcmp(key, "extensions")) {
            check_extension(c, item);
            continue;
        }
        check_map(c, item, item, key);
        if (!strcmp(key, "backend.rules") && !map_get(item, "hosts") &&
            !map_get(item, "ranks"))
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

/* Weights are shares: any positive number. */
static int is_weight(const char *key)
{
    return !strcmp(key, "partition.weights") ||
           !strcmp(key, "backend.rules.weight");
}

static void check_weight(struct check *c, const frx_cfgnode *v)
{
    double d;
    char msg[1024], path[256];
    if (!frx__cfg_to_double(v, 1, 0, &d, msg, sizeof msg) && !(d > 0))
        report(c, v, "'%s' must be a positive number (a rank's share of "
               "the elements, relative to the others), got %s",
               frx__cfg_path(v, path, sizeof path), v->text);
}

static void check_value(struct check *c, const frx_cfgnode *v,
                        const struct entry *e);

/* A list of numbers or booleans: each item as an option of the item
 * type with the list's bounds. */
static void check_list(struct check *c, const frx_cfgnode *v,
                       const struct entry *e)
{
    if (v->type != FRX_CFG_LIST) {
        report(c, v, "'%s' must be a list (like [1, 2]), got %s", e->o.key,
               frx__cfg_kind(v));
        return;
    }
    struct entry item = *e;
    item.o.type = e->o.type == FRX_OPT_INT_LIST ? FRX_OPT_INT
                : e->o.type == FRX_OPT_BOOL_LIST ? FRX_OPT_BOOL
                                                 : FRX_OPT_DOUBLE;
    for (size_t i = 0; i < v->n; i++)
        check_value(c, v->vals[i], &item);
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
        if (!rc && !strcmp(o->key, "solver.name") && c->solver_err)
            report(c, v, "solver.name: %s", c->solver_err);
        break;
    }
    case FRX_OPT_MAP_LIST:
        check_map_list(c, v, o->key);
        break;
    case FRX_OPT_INT: {
        long min, max;
        long_bounds(o, &min, &max);
        report_msg(c, frx__cfg_to_long_or(v, min, max, o->choices, &l, &i,
                                          msg, sizeof msg), msg);
        break;
    }
    case FRX_OPT_DOUBLE:
        report_msg(c, frx__cfg_to_double(v, o->min, o->max, &d, msg,
                                         sizeof msg), msg);
        if (is_weight(o->key))
            check_weight(c, v);
        break;
    case FRX_OPT_INT_LIST:
    case FRX_OPT_DOUBLE_LIST:
    case FRX_OPT_BOOL_LIST:
        check_list(c, v, e);
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
        int before = c->nerr;
        if (e)
            check_value(c, map->vals[i], e);
        else
            report_unknown(c, k, prefix);
        if (!*prefix && !strcmp(k->text, "mesh"))
            c->mesh_bad = c->nerr != before;
    }
    for (size_t i = 0; i < c->n; i++) {
        const char *child = child_of(c->e[i].o.key, prefix);
        if (child && c->e[i].o.required && !map_get(map, child))
            report(c, at, "missing required key '%s' %s%s", child,
                   in_what(prefix, in, sizeof in),
                   missing_hint(c, &c->e[i], hint, sizeof hint));
    }
}

/* What the schema cannot see in mesh.* (lists that disagree in length,
 * lower >= upper...), once the schema has nothing to say about it. */
static void check_mesh(struct check *c)
{
    const frx_cfgnode *mesh = map_get(c->cfg->root, "mesh");
    const frx_cfgnode *type = map_get(mesh, "type");
    if (c->mesh_bad || !mesh || mesh->type != FRX_CFG_MAP || !type)
        return;
    if (!strcmp(type->text, "box"))
        c->nerr += frx__mesh_box_check(mesh);
    else if (!strcmp(type->text, "gmsh"))
        c->nerr += frx__mesh_file_check(mesh, FRX__MESH_FILE_GMSH);
    else if (!strcmp(type->text, "partitioned"))
        c->nerr += frx__mesh_file_check(mesh, FRX__MESH_FILE_PARTS);
}

static int check_case(const frx_config *cfg, int for_run)
{
    if (!cfg || !cfg->root)
        return frx_error(FRX_EINVAL, "frx_config_check: no config");
    struct check c = {.cfg = cfg, .for_run = for_run};
    int rc = build_schema(&c);
    /* the loader may have recorded why a plugin could not be opened or
     * plugins.path could not be read; the checks below say it better */
    frx__error_clear();
    if (rc) {
        free_schema(&c);
        return frx_error(FRX_ENOMEM, "out of memory checking %s", cfg->file);
    }
    check_map(&c, cfg->root, NULL, "");
    check_mesh(&c);
    free_schema(&c);
    return c.nerr ? FRX_ECONFIG : FRX_OK;
}

int frx_config_check(const frx_config *cfg) { return check_case(cfg, 0); }

int frx_config_check_for_run(const frx_config *cfg)
{
    return check_case(cfg, 1);
}
