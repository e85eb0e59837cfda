/* SPDX-License-Identifier: BSD-3-Clause */
/* The time loop's settings from the case: time.*, progress.*, output.*,
 * checkpoint.* and check.* (their types and ranges are checked by
 * frx_config_check; here, how they combine). */
#include "solver/settings-tool.h"
#include "solver/solver-impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* "file:line:col" of the key path's key (the line a user wrote), or of
 * the mapping that should hold it, or 1:1. */
static const char *where(const frx_config *cfg, const char *path, char *buf,
                         size_t n)
{
    const frx_cfgnode *node = frx_config_root(cfg), *at = NULL;
    char part[64];
    for (const char *p = path; node && *p;) {
        size_t len = strcspn(p, ".");
        snprintf(part, sizeof part, "%.*s", (int)len, p);
        const frx_cfgnode *next = NULL;
        for (size_t i = 0; i < frx_cfg_len(node) &&
                           frx_cfg_type(node) == FRX_CFG_MAP; i++)
            if (strcmp(frx_cfg_key_at(node, i), part) == 0) {
                at = frx_cfg_key_node_at(node, i);
                next = frx_cfg_at(node, i);
            }
        node = next;
        p += len + (p[len] == '.');
    }
    if (at)
        return frx__cfg_where(at, buf, n);
    snprintf(buf, n, "%s:1:1", frx_config_file(cfg));
    return buf;
}

static int has(const frx_config *cfg, const char *path)
{
    return frx_cfg_get(frx_config_root(cfg), path) != NULL;
}

static int read_u64(const frx_cfgnode *r, const char *path, long def,
                    long min, uint64_t *out)
{
    long v;
    int rc = frx_cfg_int(r, path, def, min, 1000000000000000L, &v);
    *out = (uint64_t)v;
    return rc;
}

/* When to stop, and how big the steps are. */
static int read_time(const frx_config *cfg, struct frx__settings *st)
{
    const frx_cfgnode *r = frx_config_root(cfg);
    char w[512];
    int ctl, rc = frx_cfg_enum(r, "time.scheme", "rk4|ssp-rk3|rk45", 0,
                               &st->scheme);
    if (!rc)
        rc = frx_cfg_enum(r, "time.controller", "auto|none|pi", 0, &ctl);
    if (rc)
        return rc;
    st->pi = ctl == 2 || (ctl == 0 && st->scheme == FRX__RK45);
    if (st->pi && st->scheme != FRX__RK45)
        return frx_error(FRX_ECONFIG, "%s: 'time.controller' is pi, which "
                         "needs an error estimate: use time.scheme: rk45, or "
                         "time.controller: none", where(cfg,
                         "time.controller", w, sizeof w));
    rc = frx_cfg_double(r, "time.t-start", 0, 1, 0, &st->t0);
    if (!rc)
        rc = frx_cfg_double(r, "time.t-end", HUGE_VAL, 1, 0, &st->t_end);
    if (!rc)
        rc = read_u64(r, "time.steps", 0, 1, &st->steps);
    if (rc)
        return rc;
    if (!has(cfg, "time.t-end") && !has(cfg, "time.steps"))
        return frx_error(FRX_ECONFIG, "%s: missing required key 't-end' "
                         "in 'time' (or 'steps'): when the run ends",
                         where(cfg, "time", w, sizeof w));
    if (has(cfg, "time.t-end") && !(st->t_end > st->t0))
        return frx_error(FRX_ECONFIG, "%s: 'time.t-end' is %g, not after "
                         "time.t-start (%g)", where(cfg, "time.t-end", w,
                         sizeof w), st->t_end, st->t0);
    rc = frx_cfg_double(r, "time.dt", 0, 1e-300, 1e300, &st->dt);
    if (!rc)
        rc = frx_cfg_double(r, "time.cfl", 0, 1e-300, 1e300, &st->cfl);
    if (rc)
        return rc;
    if (st->dt > 0 && st->cfl > 0)
        return frx_error(FRX_ECONFIG, "%s: 'time.cfl' and time.dt are both "
                         "set: give one", where(cfg, "time.cfl", w,
                                                sizeof w));
    if (!(st->dt > 0) && !(st->cfl > 0))
        return frx_error(FRX_ECONFIG, "%s: missing required key 'dt' in "
                         "'time' (or 'cfl'): the size of the steps%s",
                         where(cfg, "time", w, sizeof w), st->pi
                         ? " (rk45: of the first one)" : "");
    return FRX_OK;
}

/* The PI controller's constants (PyFR's defaults). */
static int read_controller(const frx_config *cfg, struct frx__settings *st)
{
    const frx_cfgnode *r = frx_config_root(cfg);
    char w[512];
    int rc = frx_cfg_double(r, "time.atol", 1e-6, 0, 1e300, &st->atol);
    if (!rc)
        rc = frx_cfg_double(r, "time.rtol", 1e-6, 0, 1e300, &st->rtol);
    if (!rc)
        rc = frx_cfg_double(r, "time.safety", 0.8, 0.01, 1, &st->safety);
    if (!rc)
        rc = frx_cfg_double(r, "time.min-factor", 0.3, 0.01, 0.99,
                            &st->minf);
    if (!rc)
        rc = frx_cfg_double(r, "time.max-factor", 2.5, 1, 100, &st->maxf);
    if (!rc)
        rc = frx_cfg_double(r, "time.pi-alpha", 0.7, 0, 10, &st->alpha);
    if (!rc)
        rc = frx_cfg_double(r, "time.pi-beta", 0.4, 0, 10, &st->beta);
    if (!rc)
        rc = frx_cfg_double(r, "time.dt-min", 1e-12, 0, 1e300, &st->dt_min);
    if (!rc)
        rc = frx_cfg_double(r, "time.dt-max", HUGE_VAL, 1e-300, 1e300,
                            &st->dt_max);
    if (rc)
        return rc;
    if (st->pi && !(st->atol > 0) && !(st->rtol > 0))
        return frx_error(FRX_ECONFIG, "%s: time.atol and time.rtol are both "
                         "0: the controller needs a tolerance", where(cfg,
                         "time", w, sizeof w));
    return FRX_OK;
}

/* output.dir and output.name: a folder, and a stem that names a folder
 * inside it and files (VTK's XML holds it too, unescaped). */
static int check_output_names(const frx_config *cfg,
                              const struct frx__settings *st)
{
    char at[300];
    if (!*st->out_dir)
        return frx_error(FRX_ECONFIG, "%s: 'output.dir' is empty: name a "
                         "folder (. for this one)",
                         where(cfg, "output.dir", at, sizeof at));
    if (!*st->out_name || strpbrk(st->out_name, "/&<>\"") ||
        !strcmp(st->out_name, ".") || !strcmp(st->out_name, ".."))
        return frx_error(FRX_ECONFIG, "%s: 'output.name' must be a file "
                         "name stem without '/', '&', '<', '>' or '\"' "
                         "(and not . or ..), got '%s'",
                         where(cfg, "output.name", at, sizeof at),
                         st->out_name);
    return FRX_OK;
}

/* output.png: {var: <variable>, interval: <steps>, width: <pixels>} */
static int read_picture(const frx_config *cfg, struct frx__settings *st)
{
    const frx_cfgnode *r = frx_config_root(cfg), *png;
    if (!(png = frx_cfg_get(r, "output.png")))
        return FRX_OK;
    char at[300];
    if (frx_cfg_type(png) != FRX_CFG_MAP)
        return frx_error(FRX_ECONFIG, "%s: 'output.png' must be a mapping "
                         "such as {var: p, interval: 100}",
                         where(cfg, "output.png", at, sizeof at));
    int rc = frx_cfg_string(r, "output.png.var", NULL, &st->png_var);
    if (!rc && !st->png_var)
        rc = frx_error(FRX_ECONFIG, "%s: 'output.png' needs 'var': the "
                       "variable to draw, e.g. output.png: {var: p}",
                       where(cfg, "output.png", at, sizeof at));
    if (!rc)
        rc = read_u64(r, "output.png.interval", 0, 0, &st->png_every);
    if (!rc)
        rc = frx_cfg_int(r, "output.png.width", 800, 64, 8192,
                         &st->png_width);
    return rc;
}

int frx__settings_read(const frx_config *cfg, struct frx__settings *st)
{
    memset(st, 0, sizeof *st);
    const frx_cfgnode *r = frx_config_root(cfg);
    int rc = read_time(cfg, st);
    if (!rc)
        rc = read_controller(cfg, st);
    if (!rc)
        rc = frx_cfg_enum(r, "progress.mode", "auto|in-place|lines|off", 0,
                          &st->progress);
    if (!rc)
        rc = read_u64(r, "progress.interval", 100, 1, &st->progress_every);
    if (!rc)
        rc = read_u64(r, "output.interval", 0, 0, &st->out_every);
    if (!rc)
        rc = frx_cfg_string(r, "output.dir", ".", &st->out_dir);
    if (!rc)
        rc = frx_cfg_string(r, "output.name", "solution", &st->out_name);
    if (!rc)
        rc = check_output_names(cfg, st);
    if (!rc)
        rc = read_picture(cfg, st);
    if (!rc)
        rc = read_u64(r, "checkpoint.interval", 0, 0, &st->ckpt_every);
    if (!rc)
        rc = frx_cfg_string(r, "checkpoint.file", "checkpoint-{step}.h5",
                            &st->ckpt_file);
    if (!rc)
        rc = read_u64(r, "check.interval", 100, 0, &st->check_every);
    if (!rc)
        rc = frx_cfg_bool(r, "profile", 0, &st->profile);
    return rc;
}

int frx__settings_check(const frx_config *cfg)
{
    struct frx__settings st;
    if (!frx_cfg_get(frx_config_root(cfg), "solver.name"))
        return FRX_OK;
    return frx__settings_read(cfg, &st);
}
