/* SPDX-License-Identifier: BSD-3-Clause */
/* Extension plugins (extension.h) attached to a solver: the case's
 * `extensions` list read and each plugin found before the solver's
 * create; what the solver publishes (handles, RHS places); each
 * extension created after the solver's create and called at its hooks,
 * in its own kernel namespace, every call's status agreed by every
 * rank. */
#include "solver/solver-impl.h"
#include "config/config-impl.h"
#include "solver/ext_state.h"
#include "kernel/kernel-impl.h"

#include <frx/extension.h>

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct handle {
    char *name, *type;
    void *ptr;
};

/* The solver's side: what it publishes. */
struct frx_extend {
    frx_solver *s;
    struct handle *h;
    size_t nh;
    char *places; /* "|"-separated, or NULL */
};


/* ------------------------------------------------------ calling into it */

static const char *enter(frx_ext *e)
{
    e->s->errors_before = frx__error_count();
    return frx__kernel_ns_set(e->s->be, e->ns);
}

static int leave(frx_ext *e, const char *old, int rc)
{
    frx__kernel_ns_set(e->s->be, old);
    if (rc != FRX_OK && frx__error_count() == e->s->errors_before)
        frx_error(rc, "extension '%s' (%s) returned %s without a message: "
                  "a plugin says why with frx_error() before it returns an "
                  "error", e->name, frx_plugin_path(e->plugin),
                  frx_err_name(rc));
    return rc;
}

/* --------------------------------------------------- the solver side */

static int is_place(const char *list, const char *place)
{
    size_t n = strlen(place);
    for (const char *c = list; c && *c;) {
        size_t len = strcspn(c, "|");
        if (len == n && !strncmp(c, place, n))
            return 1;
        c += len + (c[len] == '|');
    }
    return 0;
}

int frx_extend_publish(frx_extend *x, const char *name, const char *type,
                       void *ptr)
{
    if (!x)
        return FRX_OK;
    if (!name || !*name || !type || !*type)
        return frx_error(FRX_EINVAL, "frx_extend_publish: a handle needs a "
                         "name and a type");
    for (size_t i = 0; i < x->nh; i++)
        if (!strcmp(x->h[i].name, name))
            return frx_error(FRX_EINVAL, "frx_extend_publish: '%s' is "
                             "published twice", name);
    struct handle *h = realloc(x->h, (x->nh + 1) * sizeof *h);
    if (!h)
        return frx_error(FRX_ENOMEM, "out of memory publishing '%s'", name);
    x->h = h;
    h[x->nh] = (struct handle){frx__strdup(name), frx__strdup(type), ptr};
    if (!h[x->nh].name || !h[x->nh].type) {
        free(h[x->nh].name);
        free(h[x->nh].type);
        return FRX_ENOMEM;
    }
    x->nh++;
    return FRX_OK;
}

int frx_extend_places(frx_extend *x, const char *places)
{
    if (!x)
        return FRX_OK;
    free(x->places);
    x->places = places ? frx__strdup(places) : NULL;
    return places && !x->places ? FRX_ENOMEM : FRX_OK;
}

int frx_extend_wants(const frx_extend *x, const char *place)
{
    const frx_solver *s = x ? x->s : NULL;
    for (size_t i = 0; s && i < s->nexts; i++)
        if (s->exts[i]->ops->rhs &&
            is_place(s->exts[i]->ops->rhs_places, place))
            return 1;
    return 0;
}

int frx_extend_rhs(frx_extend *x, const char *place, frx_graph *g,
                   frx_matrix *const *u, frx_matrix *const *f)
{
    frx_solver *s = x ? x->s : NULL;
    int rc = FRX_OK;
    for (size_t i = 0; s && i < s->nexts && !rc; i++) {
        frx_ext *e = s->exts[i];
        if (!e->ops->rhs || !is_place(e->ops->rhs_places, place))
            continue;
        const char *old = enter(e);
        rc = leave(e, old, e->ops->rhs(e->state, place, g, u, f));
        if (rc)
            rc = frx_error(rc, "extension '%s' at the solver's RHS place "
                           "'%s': %s", e->name, place, frx_errmsg());
    }
    return rc;
}

/* ---------------------------------------------------- the extension side */

int frx_ext_handle(frx_ext *e, const char *name, const char *type,
                   void **ptr)
{
    const frx_extend *x = e->s->extend;
    *ptr = NULL;
    for (size_t i = 0; i < x->nh; i++) {
        if (strcmp(x->h[i].name, name))
            continue;
        if (strcmp(x->h[i].type, type))
            return frx_error(FRX_EINVAL, "extension '%s' asks for "
                             "handle '%s' as a %s, but solver '%s' "
                             "publishes it as a %s", e->name, name, type,
                             e->s->name, x->h[i].type);
        *ptr = x->h[i].ptr;
        return FRX_OK;
    }
    char list[2048] = "";
    size_t len = 0;
    for (size_t i = 0; i < x->nh && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s (%s)",
                                i ? ", " : "", x->h[i].name, x->h[i].type);
    return frx_error(FRX_ENOTFOUND, "extension '%s' needs handle '%s', "
                     "which solver '%s' does not publish; it publishes: %s",
                     e->name, name, e->s->name,
                     x->nh ? list : "nothing");
}

int frx_ext_stage(const frx_ext *e, double *t, uint64_t *step, int *stage)
{
    if (t)
        *t = e->s->stage_t;
    if (step)
        *step = e->s->stage_step;
    if (stage)
        *stage = e->s->stage;
    return FRX_OK;
}

int frx_ext_fail(frx_ext *e, int code, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!e->fail_rc) { /* the first reason stands */
        e->fail_rc = code ? code : FRX_EINVAL;
        free(e->fail_msg);
        e->fail_msg = frx__strdup(msg);
    }
    return FRX_OK;
}

/* path as one spelling: its directory resolved (where it exists), so
 * that "a.csv", "./a.csv" and "/abs/a.csv" are one file. malloc'd. */
static char *file_key(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1,
             slash ? (slash == path ? "/" : path) : ".");
    char *real = realpath(dir, NULL);
    char *key = NULL;
    if (real) {
        size_t n = strlen(real) + strlen(base) + 2;
        if ((key = malloc(n)))
            snprintf(key, n, "%s/%s", real, base);
        free(real);
    } else {
        key = frx__strdup(path);
    }
    return key;
}

/* The extension that claimed the file key, or NULL. */
static const frx_ext *claimed_by(const frx_solver *s, const char *key)
{
    for (size_t i = 0; i < s->nexts; i++)
        for (size_t k = 0; k < s->exts[i]->nfiles; k++)
            if (!strcmp(s->exts[i]->files[k], key))
                return s->exts[i];
    return NULL;
}

int frx_ext_claim_file(frx_ext *e, const char *path)
{
    char *key = file_key(path);
    if (!key)
        return frx_error(FRX_ENOMEM, "out of memory");
    const frx_ext *other = claimed_by(e->s, key);
    char **f = other ? NULL : realloc(e->files, (e->nfiles + 1) * sizeof *f);
    if (!f) {
        free(key);
        if (other)
            return frx_error(FRX_ECONFIG, "extension '%s' writes %s, "
                             "which extension '%s' (%s) writes too: give "
                             "each its own file", e->name, path,
                             other->name, other->where);
        return frx_error(FRX_ENOMEM, "out of memory");
    }
    e->files = f;
    f[e->nfiles++] = key;
    return FRX_OK;
}

/* ------------------------------------------------------------ lifecycle */

/* One item of `extensions`: its plugin found, an extension. */
static int open_one(frx_solver *s, const frx_cfgnode *item, frx_ext *e)
{
    e->s = s;
    e->item = item;
    frx__cfg_where(item, e->where, sizeof e->where);
    const char *name = NULL;
    int rc = frx_cfg_string(item, "name", NULL, &name);
    if (!rc && !name)
        rc = frx_error(FRX_ECONFIG, "%s: an item of 'extensions' needs "
                       "'name': the extension plugin", e->where);
    long every;
    if (!rc)
        rc = frx_cfg_int(item, "every", 1, 1, 1000000000, &every);
    e->every = rc ? 1 : (uint64_t)every;
    frx_plugin *p = NULL;
    if (!rc)
        rc = frx_plugin_find(s->cfg, name, &p);
    if (rc)
        return rc;
    const frx_plugin_desc *d = frx_plugin_descriptor(p);
    if (d->kind != FRX_PLUGIN_EXTENSION || !d->extension)
        return frx_error(FRX_EPLUGIN, "%s: plugin %s is a %s, not an "
                         "extension: name an extension plugin in "
                         "extensions", e->where, frx_plugin_path(p),
                         d->kind == FRX_PLUGIN_SOLVER ? "solver"
                                                      : "backend");
    e->plugin = p;
    e->ops = d->extension;
    e->name = d->name;
    size_t same = 1;
    for (size_t i = 0; i < s->nexts && s->exts[i] != e; i++)
        same += s->exts[i]->plugin == p;
    if (same > 1)
        snprintf(e->ns, sizeof e->ns, "%s.%zu", e->name, same);
    else
        snprintf(e->ns, sizeof e->ns, "%s", e->name);
    return FRX_OK;
}

int frx__ext_open(frx_solver *s)
{
    s->extend = frx__calloc(1, sizeof *s->extend, "the extensions");
    if (!s->extend)
        return FRX_ENOMEM;
    s->extend->s = s;
    const frx_cfgnode *list = frx_cfg_get(frx_config_root(s->cfg),
                                          "extensions");
    if (!list)
        return FRX_OK;
    char at[300];
    if (frx_cfg_type(list) != FRX_CFG_LIST)
        return frx_error(FRX_ECONFIG, "%s: 'extensions' must be a list of "
                         "mappings, [{name: <plugin>, ...}]",
                         frx__cfg_where(list, at, sizeof at));
    size_t n = frx_cfg_len(list);
    s->exts = frx__calloc(n ? n : 1, sizeof *s->exts, "the extensions");
    if (!s->exts)
        return FRX_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        frx_ext *e = frx__calloc(1, sizeof *e, "an extension");
        if (!e)
            return FRX_ENOMEM;
        e->vtk_first = UINT64_MAX;
        s->exts[s->nexts++] = e;
        int rc = open_one(s, frx_cfg_at(list, i), e);
        if (rc)
            return rc;
    }
    return FRX_OK;
}

int frx__ext_create(frx_solver *s)
{
    int rc = FRX_OK;
    for (size_t i = 0; i < s->nexts && !rc; i++) {
        frx_ext *e = s->exts[i];
        const char *want = e->ops->rhs ? e->ops->rhs_places : NULL;
        for (const char *c = want; c && *c && !rc;) { /* each place */
            size_t len = strcspn(c, "|");
            char place[128];
            snprintf(place, sizeof place, "%.*s", (int)len, c);
            if (!is_place(s->extend->places, place))
                rc = frx_error(FRX_ECONFIG, "%s: extension '%s' adds nodes "
                               "at '%s' in the RHS, which solver '%s' does "
                               "not offer; it offers: %s", e->where,
                               e->name, place, s->name,
                               s->extend->places ? s->extend->places
                                                 : "none");
            c += len + (c[len] == '|');
        }
        if (rc)
            break;
        frx_extension_init *init = &e->init; /* kept until destroy */
        *init = (frx_extension_init){
            .size = sizeof *init, .backend = s->be, .comm = s->comm,
            .config = s->cfg, .options = e->item, .mesh = s->mesh,
            .solver = s->name, .nvars = s->info.nvars, .vars = s->vars,
            .ndims = s->info.ndims, .nblocks = s->info.nblocks,
            .blocks = s->blocks, .block_size = sizeof *s->blocks, .ext = e};
        const char *old = enter(e);
        rc = leave(e, old, e->ops->create(init, &e->state));
        e->created = rc == FRX_OK || e->state != NULL;
        if (rc == FRX_OK) /* its kernels made now, not in the time loop */
            rc = frx__kernels_load(s->be, e->ns);
        if (rc)
            rc = frx_error(rc, "%s: extension '%s' create: %s", e->where,
                           e->name, frx_errmsg());
    }
    return rc;
}

/* The extension states a restart read from its checkpoint, freed. */
static void free_loaded(frx_solver *s)
{
    for (size_t i = 0; i < s->ckpt_next; i++) {
        free(s->ckpt_ext_names[i]);
        free(s->ckpt_ext_data[i]);
    }
    free(s->ckpt_ext_names);
    free(s->ckpt_ext_data);
    free(s->ckpt_ext_len);
    s->ckpt_next = 0;
    s->ckpt_ext_names = NULL;
    s->ckpt_ext_data = NULL;
    s->ckpt_ext_len = NULL;
}

void frx__ext_close(frx_solver *s)
{
    if (s->ext_agree.active) { /* a run that stopped otherwise */
        MPI_Wait(&s->ext_agree.req, MPI_STATUS_IGNORE);
        s->ext_agree.active = 0;
    }
    free(s->ext_agree.msg);
    s->ext_agree.msg = NULL;
    for (size_t i = 0; i < s->nexts; i++) {
        frx_ext *e = s->exts[i];
        if (e->created) {
            const char *old = enter(e);
            e->ops->destroy(e->state);
            frx__kernel_ns_set(s->be, old);
        }
        for (size_t k = 0; k < e->nfiles; k++)
            free(e->files[k]);
        free(e->files);
        free(e->fail_msg);
        frx__ext_kept_free(e);
        free(e);
    }
    free(s->exts);
    s->exts = NULL;
    s->nexts = 0;
    for (size_t i = 0; s->extend && i < s->extend->nh; i++) {
        free(s->extend->h[i].name);
        free(s->extend->h[i].type);
    }
    if (s->extend) {
        free(s->extend->h);
        free(s->extend->places);
    }
    free(s->extend);
    s->extend = NULL;
    free_loaded(s); /* a run that never ran */
}

/* ----------------------------------------------------------------- hooks */

/* Extension e's hook `which`, or NULL where it has none. */
static int (*hook_of(const frx_ext *e, int which))(void *,
                                                   const frx_ext_now *)
{
    int (*const fns[])(void *, const frx_ext_now *) = {
        e->ops->initial, e->ops->step, e->ops->output, e->ops->finish,
        FRX_SIZE_HOLDS(frx_extension_ops, e->ops, ahead) ? e->ops->ahead
                                                         : NULL};
    return fns[which];
}

/* Does e's hook `which` run now? The same answer on every rank (the
 * step and e's every are), so that ranks skip an agreement together. */
static int due(const frx_solver *s, const frx_ext *e, int which)
{
    if (!hook_of(e, which))
        return 0;
    if (which == FRX__EXT_STEP)
        return s->step % e->every == 0;
    if (which == FRX__EXT_AHEAD)
        return (s->step + 1) % e->every == 0;
    return 1;
}

/* Collective, where every rank holds low, the least index of a failed
 * extension over the ranks (INT_MAX for none): the run stops, naming
 * it, with each of its failing ranks' reasons (this rank's: first, rc
 * and msg) and where its hook ran. */
static int report(frx_solver *s, int low, int first, int rc,
                  const char *msg, const char *when, uint64_t step, double t)
{
    if (low == INT_MAX)
        return FRX_OK;
    int r = first == low ? frx_error(rc, "%s", msg ? msg : "") : FRX_OK;
    char what[300];
    snprintf(what, sizeof what, "step %llu, t = %.9g: extension '%s'%s",
             (unsigned long long)step, t, s->exts[low]->name, when);
    return frx__agree(s->mpi, r, what);
}

/* Collective: the first extension (index `first`, INT_MAX for none)
 * that failed on any rank stops the run, named, with each of its
 * failing ranks' reasons (this rank's: rc and msg). */
static int agree_first(frx_solver *s, int first, int rc, const char *msg,
                       const char *when)
{
    int low = INT_MAX;
    if (MPI_Allreduce(&first, &low, 1, MPI_INT, MPI_MIN, s->mpi) !=
        MPI_SUCCESS)
        low = first == INT_MAX ? 0 : first;
    return report(s, low, first, rc, msg, when, s->step, s->t);
}

static const char *const hook_names[] = {" (initial)", " (step)",
                                         " (output)", " (finish)",
                                         " (ahead)"};

int frx__ext_settle(frx_solver *s)
{
    struct frx__ext_pending *p = &s->ext_agree;
    if (!p->active)
        return FRX_OK;
    p->active = 0;
    if (MPI_Wait(&p->req, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        p->low = p->first == INT_MAX ? 0 : p->first;
    int rc = report(s, p->low, p->first, p->rc, p->msg,
                    hook_names[p->which], p->step, p->t);
    free(p->msg);
    p->msg = NULL;
    return rc;
}

/* The ahead or step hooks' statuses: their agreement started, settled
 * by frx__ext_settle (takes msg). */
static int agree_later(frx_solver *s, int which, int first, int rc,
                       char *msg)
{
    struct frx__ext_pending *p = &s->ext_agree;
    *p = (struct frx__ext_pending){.first = first, .low = INT_MAX, .rc = rc,
                                   .msg = msg, .which = which,
                                   .step = s->step, .t = s->t};
    if (MPI_Iallreduce(&p->first, &p->low, 1, MPI_INT, MPI_MIN, s->mpi,
                       &p->req) != MPI_SUCCESS) {
        p->msg = NULL;
        rc = agree_first(s, first, rc, msg, hook_names[which]);
        free(msg);
        return rc;
    }
    p->active = 1;
    return FRX_OK;
}

int frx__ext_hook(frx_solver *s, int which)
{
    frx_ext_now now = {.size = sizeof now, .t = s->t, .dt = s->dt,
                       .step = s->step, .u = s->reg[s->ucur]};
    /* Every due hook runs on every rank, whatever an earlier one
     * returned there (a later one may hold collectives the other ranks
     * enter), then one agreement for them all rather than one each
     * (each lines the ranks up: docs/analysis.md, "Cost"), and none at
     * all where no hook was due: most steps, for extensions that run
     * every N. A failure an extension recorded (frx_ext_fail) counts as
     * its hook's. No hook runs before the last hooks' agreement is
     * settled. */
    int any = 0;
    for (size_t i = 0; i < s->nexts && !any; i++)
        any = due(s, s->exts[i], which);
    if (!any)
        return FRX_OK;
    int rc = frx__ext_settle(s);
    if (rc)
        return rc;
    int first = INT_MAX, mine = FRX_OK;
    char *msg = NULL;
    for (size_t i = 0; i < s->nexts; i++) {
        frx_ext *e = s->exts[i];
        if (!due(s, e, which))
            continue;
        const char *old = enter(e);
        int r = leave(e, old, hook_of(e, which)(e->state, &now));
        if (!r && e->fail_rc)
            r = frx_error(e->fail_rc, "extension '%s': %s", e->name,
                          e->fail_msg ? e->fail_msg : "it stopped the run");
        if (r && first == INT_MAX) {
            first = (int)i;
            mine = r;
            msg = strdup(frx_errmsg());
        }
    }
    if (which == FRX__EXT_AHEAD || which == FRX__EXT_STEP)
        return agree_later(s, which, first, mine, msg);
    rc = agree_first(s, first, mine, msg, hook_names[which]);
    free(msg);
    return rc;
}

int frx_ext_progress(frx_ext *e, const char *fmt, ...)
{
    if (!e)
        return frx_error(FRX_EINVAL, "frx_ext_progress: NULL extension");
    e->progress[0] = '\0';
    if (!fmt)
        return FRX_OK;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->progress, 121, fmt, ap); /* cut at 120 characters */
    va_end(ap);
    return FRX_OK;
}

void frx__ext_progress(const frx_solver *s, char *buf, size_t n)
{
    size_t at = strlen(buf);
    for (size_t i = 0; i < s->nexts && at + 1 < n; i++)
        if (s->exts[i]->progress[0])
            at += (size_t)snprintf(buf + at, n - at, "  %s",
                                   s->exts[i]->progress);
}

int frx__ext_failed(frx_solver *s)
{
    /* frx_ext_fail is for host nodes an extension added to the RHS;
     * without any, there is nothing to agree on after a step (a failure
     * recorded in a hook is agreed with that hook) */
    int nodes = 0;
    for (size_t i = 0; i < s->nexts; i++)
        nodes |= s->exts[i]->ops->rhs != NULL;
    if (!nodes)
        return FRX_OK;
    int first = INT_MAX, r = FRX_OK;
    char msg[2300] = "";
    for (size_t i = 0; i < s->nexts && first == INT_MAX; i++)
        if (s->exts[i]->fail_rc) {
            first = (int)i;
            r = s->exts[i]->fail_rc;
            snprintf(msg, sizeof msg, "extension '%s': %s",
                     s->exts[i]->name, s->exts[i]->fail_msg
                                           ? s->exts[i]->fail_msg
                                           : "it stopped the run");
        }
    return agree_first(s, first, r, msg, "");
}

/* -------------------------------------------------------------- state */

size_t frx__ext_count(const frx_solver *s) { return s->nexts; }

const char *frx__ext_name(const frx_solver *s, size_t i)
{
    return s->exts[i]->name;
}

int frx__ext_save(frx_solver *s, size_t i, void **data, size_t *len)
{
    frx_ext *e = s->exts[i];
    *data = NULL;
    *len = 0;
    if (!e->ops->save)
        return FRX_OK;
    const char *old = enter(e);
    return leave(e, old, e->ops->save(e->state, data, len));
}

int frx__ext_load(frx_solver *s, size_t i, const void *data, size_t len)
{
    frx_ext *e = s->exts[i];
    if (!e->ops->load)
        return FRX_OK;
    const char *old = enter(e);
    return leave(e, old, e->ops->load(e->state, data, len));
}

int frx__ext_loaded(frx_solver *s)
{
    int rc = FRX_OK;
    for (size_t i = 0; i < s->nexts && !rc; i++) {
        frx_ext *e = s->exts[i];
        int r = FRX_OK, found = i < s->ckpt_next &&
                                !strcmp(s->ckpt_ext_names[i], e->name);
        if (found && e->nkept) /* collective, agreed */
            r = frx__ext_kept_load(e);
        if (!r && found && s->ckpt_ext_data[i])
            r = frx__ext_load(s, i, s->ckpt_ext_data[i], s->ckpt_ext_len[i]);
        else if (!found && s->rank == 0 && (s->ckpt_next || s->step))
            frx_log(FRX_LOG_WARN, "%s: the checkpoint holds no state of "
                    "extension '%s' (item %zu of extensions): it starts "
                    "afresh", e->where, e->name, i + 1);
        char what[300];
        snprintf(what, sizeof what, "extension '%s' (load)", e->name);
        rc = frx__agree(s->mpi, r, what);
    }
    free_loaded(s);
    return rc;
}
