/* SPDX-License-Identifier: BSD-3-Clause */
/* frx config: the case's tree (config.c parses it, config_get.c reads
 * it), and which backend a rank runs by backend.* and backend.rules
 * (rules.c). The tree is read by the case check (case/check.c) and by
 * mesh sources that check lists of values (mesh_box.c) without
 * disturbing frx_errmsg(). Uses base. Never installed. */
#ifndef FRX_CONFIG_IMPL_H
#define FRX_CONFIG_IMPL_H

#include "base/base-impl.h"

/* Limits that keep hostile input (alias bombs, deep nesting) cheap; the
 * recursive walks over the tree rely on the depth limit. */
#define FRX__CFG_MAX_DEPTH 64
#define FRX__CFG_MAX_NODES 1000000
#define FRX__CFG_MAX_BYTES (64u << 20)

struct frx_cfgnode {
    int type;                  /* enum frx_cfg_type */
    int line, col;             /* 1-based */
    const frx_config *owner;
    const frx_cfgnode *parent; /* NULL for the root */
    size_t index;              /* position in the parent */
    int is_key;                /* a mapping's key (parent is the map) */
    int is_null;               /* a plain empty, ~ or null scalar */
    char *text;                /* scalars */
    size_t n, cap;             /* list items / map pairs */
    frx_cfgnode **vals;        /* list items, map values */
    frx_cfgnode **keys;        /* map keys (scalars) */
};

struct frx_config {
    char *file; /* as the user gave it */
    frx_cfgnode *root;
    char *text; /* the YAML as read (checkpoints keep it), len bytes */
    size_t len;
};

/* The case's YAML text as it was read (for checkpoints). */
const char *frx__config_text(const frx_config *cfg, size_t *len);

/* "file:line:col" of a node, into buf. */
const char *frx__cfg_where(const frx_cfgnode *node, char *buf, size_t n);

/* Dotted path of a node from the root ("backend.openmp.threads",
 * "plugins.path[1]"; "" for the root), into buf. */
const char *frx__cfg_path(const frx_cfgnode *node, char *buf, size_t n);

/* "a scalar", "a list", "a mapping", "an empty value": what a node is. */
const char *frx__cfg_kind(const frx_cfgnode *node);

/* Convert one present value. On failure write "file:line:col: 'path'
 * must be ..." into msg and return FRX_ECONFIG; frx_errmsg() is left
 * alone so that config_check can collect every message. min > max means
 * unbounded. */
int frx__cfg_to_string(const frx_cfgnode *v, const char **out, char *msg,
                       size_t n);
int frx__cfg_to_long(const frx_cfgnode *v, long min, long max, long *out,
                     char *msg, size_t n);
/* The same, or one of words ("auto|none"): *word is its index, -1 for
 * an integer (then in *out). */
int frx__cfg_to_long_or(const frx_cfgnode *v, long min, long max,
                        const char *words, long *out, int *word, char *msg,
                        size_t n);
int frx__cfg_to_double(const frx_cfgnode *v, double min, double max,
                       double *out, char *msg, size_t n);
int frx__cfg_to_bool(const frx_cfgnode *v, int *out, char *msg, size_t n);
int frx__cfg_to_enum(const frx_cfgnode *v, const char *choices, int *out,
                     char *msg, size_t n);

/* "single, double" -> "single or double", into buf. */
const char *frx__cfg_choices_text(const char *choices, const char *sep_last,
                                  char *buf, size_t n);

/* ----------------------------------------------------------- rules.c */

/* Does rank appear in ranges like "0-3,8"? FRX_EINVAL for bad syntax
 * (match may be NULL to check the syntax only). */
int frx__rank_match(const char *ranges, int rank, int *match);

/* The backend this rank runs, from backend.* and backend.rules. */
struct frx__choice {
    const char *name;
    int precision;
    const char *device; /* from a rule, or NULL */
    int rule;           /* index of the rule that matched, or -1 */
    int local_rank;     /* the rank's place on its node, or -1 */
    char host[256];
};
int frx__backend_choice(const frx_config *cfg, int rank,
                        struct frx__choice *out);

#endif
