/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading a case file: YAML text into a tree of frx_cfgnode that knows
 * the line and column of every node. Built from libyaml's event API so
 * that duplicate keys, aliases and positions are all under our control. */
#include "config/config-impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define EMPTY_HINT \
    "a case needs at least 'backend.precision' (see config/README.md)"

/* ------------------------------------------------------------ the tree */

static void node_free(frx_cfgnode *node)
{
    if (!node)
        return;
    for (size_t i = 0; i < node->n; i++) {
        node_free(node->vals[i]);
        if (node->keys)
            node_free(node->keys[i]);
    }
    free(node->vals);
    free(node->keys);
    free(node->text);
    free(node);
}

void frx_config_free(frx_config *cfg)
{
    if (!cfg)
        return;
    node_free(cfg->root);
    free(cfg->file);
    free(cfg->text);
    free(cfg);
}

const char *frx_config_file(const frx_config *cfg)
{
    return cfg ? cfg->file : NULL;
}

const char *frx__config_text(const frx_config *cfg, size_t *len)
{
    *len = cfg && cfg->text ? cfg->len : 0;
    return cfg ? cfg->text : NULL;
}

const frx_cfgnode *frx_config_root(const frx_config *cfg)
{
    return cfg ? cfg->root : NULL;
}

/* --------------------------------------------------------- the builder */

struct anchor {
    char *name;
    frx_cfgnode *node;
    int open; /* its collection has not ended yet */
};

/* The keys of an open mapping, for finding a duplicate in constant time:
 * open addressing over their indices (+1; 0 is empty), kept at most
 * half full. Made once a mapping has a few keys. */
struct keyset {
    size_t *slot;
    size_t cap, n;
};

#define KEYSET_FROM 8 /* below this many keys a scan is as quick */

struct builder {
    frx_config *cfg;
    const unsigned char *text;
    size_t len;
    frx_cfgnode *stack[FRX__CFG_MAX_DEPTH]; /* open collections */
    int depth;
    /* per open map: the key waiting for its value */
    frx_cfgnode *pending[FRX__CFG_MAX_DEPTH];
    struct keyset keys[FRX__CFG_MAX_DEPTH]; /* per open map */
    struct anchor *anchors;
    size_t nanchors, capanchors;
    size_t nnodes;
    int ndocs;
};

/* "file:line:col: ..." at a libyaml mark. */
static int error_at(const struct builder *b, yaml_mark_t m, const char *fmt,
                    ...) __attribute__((format(printf, 3, 4)));
static int error_at(const struct builder *b, yaml_mark_t m, const char *fmt,
                    ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return frx_error(FRX_ECONFIG, "%s:%zu:%zu: %s", b->cfg->file,
                     m.line + 1, m.column + 1, msg);
}

static int node_error(const struct builder *b, const frx_cfgnode *node,
                      const char *msg)
{
    return frx_error(FRX_ECONFIG, "%s:%d:%d: %s", b->cfg->file, node->line,
                     node->col, msg);
}

static int count_node(struct builder *b, yaml_mark_t m)
{
    if (++b->nnodes <= FRX__CFG_MAX_NODES)
        return FRX_OK;
    return error_at(b, m, "the document expands to more than %d nodes "
                    "(an alias bomb?)", FRX__CFG_MAX_NODES);
}

static frx_cfgnode *node_new(struct builder *b, int type, yaml_mark_t m)
{
    frx_cfgnode *node = frx__calloc(1, sizeof *node, "a config node");
    if (!node)
        return NULL;
    node->type = type;
    node->line = (int)m.line + 1;
    node->col = (int)m.column + 1;
    node->owner = b->cfg;
    return node;
}

static int is_null_text(const char *s)
{
    return !*s || !strcmp(s, "~") || !strcmp(s, "null") ||
           !strcmp(s, "Null") || !strcmp(s, "NULL");
}

static int scalar_new(struct builder *b, const yaml_event_t *ev,
                      frx_cfgnode **out)
{
    int rc = count_node(b, ev->start_mark);
    if (rc)
        return rc;
    frx_cfgnode *node = node_new(b, FRX_CFG_SCALAR, ev->start_mark);
    if (!node)
        return FRX_ENOMEM;
    node->text = frx__strdup((const char *)ev->data.scalar.value);
    if (!node->text) {
        free(node);
        return FRX_ENOMEM;
    }
    node->is_null = ev->data.scalar.plain_implicit &&
                    ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
                    is_null_text(node->text);
    *out = node;
    return FRX_OK;
}

/* A deep copy of an anchored node, for an alias. Copies keep the
 * positions of the original, which is where the text is. */
static int node_copy(struct builder *b, const frx_cfgnode *src,
                     yaml_mark_t at, frx_cfgnode **out)
{
    int rc = count_node(b, at);
    if (rc)
        return rc;
    frx_cfgnode *node = frx__calloc(1, sizeof *node, "a config node");
    if (!node)
        return FRX_ENOMEM;
    *node = *src;
    node->parent = NULL;
    node->is_key = 0;
    node->text = NULL;
    node->vals = node->keys = NULL;
    node->n = node->cap = 0;
    *out = node;
    if (src->text && !(node->text = frx__strdup(src->text)))
        return FRX_ENOMEM;
    if (!src->n)
        return FRX_OK;
    node->vals = frx__calloc(src->n, sizeof *node->vals, "config items");
    if (!node->vals)
        return FRX_ENOMEM;
    if (src->keys &&
        !(node->keys = frx__calloc(src->n, sizeof *node->keys, "config keys")))
        return FRX_ENOMEM;
    node->cap = src->n;
    for (size_t i = 0; i < src->n; i++) {
        frx_cfgnode *v = NULL, *k = NULL;
        rc = node_copy(b, src->vals[i], at, &v);
        if (v) {
            v->parent = node;
            v->index = i;
        }
        if (!rc && src->keys)
            rc = node_copy(b, src->keys[i], at, &k);
        if (k) {
            k->parent = node;
            k->index = i;
            k->is_key = 1;
        }
        node->vals[i] = v;
        if (node->keys)
            node->keys[i] = k;
        if (v || k)
            node->n = i + 1;
        if (rc)
            return rc;
    }
    return FRX_OK;
}

static int grow(frx_cfgnode *node)
{
    if (node->n < node->cap)
        return FRX_OK;
    size_t cap = node->cap ? 2 * node->cap : 4;
    frx_cfgnode **v = realloc(node->vals, cap * sizeof *v);
    if (!v)
        return frx_error(FRX_ENOMEM, "out of memory reading a config");
    node->vals = v;
    if (node->type == FRX_CFG_MAP) {
        frx_cfgnode **k = realloc(node->keys, cap * sizeof *k);
        if (!k)
            return frx_error(FRX_ENOMEM, "out of memory reading a config");
        node->keys = k;
    }
    node->cap = cap;
    return FRX_OK;
}

static uint64_t key_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* The slot of text in the set: where it is, or the empty one where it
 * would go. */
static size_t *keyset_find(const struct keyset *ks, const frx_cfgnode *map,
                           const char *text)
{
    size_t i = (size_t)key_hash(text) & (ks->cap - 1);
    while (ks->slot[i] && strcmp(map->keys[ks->slot[i] - 1]->text, text))
        i = (i + 1) & (ks->cap - 1);
    return &ks->slot[i];
}

static int keyset_grow(struct keyset *ks, const frx_cfgnode *map)
{
    size_t cap = ks->cap ? 2 * ks->cap : 64;
    size_t *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return frx_error(FRX_ENOMEM, "out of memory reading a config");
    free(ks->slot);
    *ks = (struct keyset){slot, cap, 0};
    for (size_t i = 0; i < map->n; i++) { /* the keys so far, again */
        *keyset_find(ks, map, map->keys[i]->text) = i + 1;
        ks->n++;
    }
    return FRX_OK;
}

static void keyset_free(struct keyset *ks)
{
    free(ks->slot);
    *ks = (struct keyset){NULL, 0, 0};
}

/* The index of an earlier key of map equal to text, or -1. */
static long earlier_key(struct keyset *ks, const frx_cfgnode *map,
                        const char *text, int *rc)
{
    *rc = FRX_OK;
    if (map->n < KEYSET_FROM) {
        for (size_t i = 0; i < map->n; i++)
            if (!strcmp(map->keys[i]->text, text))
                return (long)i;
        return -1;
    }
    if (2 * (map->n + 1) > ks->cap && (*rc = keyset_grow(ks, map)))
        return -1;
    size_t *s = keyset_find(ks, map, text);
    if (*s)
        return (long)*s - 1;
    *s = map->n + 1; /* the index this key gets with its value */
    ks->n++;
    return -1;
}

static int check_key(struct builder *b, const frx_cfgnode *map,
                     const frx_cfgnode *key)
{
    if (key->type != FRX_CFG_SCALAR) {
        char msg[128];
        snprintf(msg, sizeof msg, "mapping keys must be plain words, got %s "
                 "as a key", frx__cfg_kind(key));
        return node_error(b, key, msg);
    }
    int rc;
    long i = earlier_key(&b->keys[b->depth - 1], map, key->text, &rc);
    if (rc || i < 0)
        return rc;
    char path[256], msg[512];
    frx__cfg_path(map, path, sizeof path);
    if (*path)
        snprintf(msg, sizeof msg, "duplicate key '%s' in '%s' (first at "
                 "line %d)", key->text, path, map->keys[i]->line);
    else
        snprintf(msg, sizeof msg, "duplicate key '%s' in the top level "
                 "(first at line %d)", key->text, map->keys[i]->line);
    return node_error(b, key, msg);
}

/* Attach a new node to the innermost open collection (or make it the
 * root). Owns node from here on, even on failure. */
static int attach(struct builder *b, frx_cfgnode *node)
{
    if (b->depth == 0) {
        b->cfg->root = node;
        return FRX_OK;
    }
    int d = b->depth - 1;
    frx_cfgnode *parent = b->stack[d];
    int rc;
    if (parent->type == FRX_CFG_MAP && !b->pending[d]) {
        node->parent = parent;
        node->index = parent->n;
        node->is_key = 1;
        rc = check_key(b, parent, node);
        if (rc) {
            node_free(node);
            return rc;
        }
        b->pending[d] = node;
        return FRX_OK;
    }
    rc = grow(parent);
    if (rc) {
        node_free(node);
        return rc;
    }
    node->parent = parent;
    node->index = parent->n;
    if (parent->type == FRX_CFG_MAP) {
        parent->keys[parent->n] = b->pending[d];
        b->pending[d] = NULL;
    }
    parent->vals[parent->n++] = node;
    return FRX_OK;
}

static int expecting_key(const struct builder *b)
{
    int d = b->depth - 1;
    return d >= 0 && b->stack[d]->type == FRX_CFG_MAP && !b->pending[d];
}

static int add_anchor(struct builder *b, const yaml_char_t *name,
                      frx_cfgnode *node, int open)
{
    if (!name)
        return FRX_OK;
    if (b->nanchors == b->capanchors) {
        size_t cap = b->capanchors ? 2 * b->capanchors : 8;
        struct anchor *a = realloc(b->anchors, cap * sizeof *a);
        if (!a)
            return frx_error(FRX_ENOMEM, "out of memory reading a config");
        b->anchors = a;
        b->capanchors = cap;
    }
    char *copy = frx__strdup((const char *)name);
    if (!copy)
        return FRX_ENOMEM;
    b->anchors[b->nanchors++] = (struct anchor){copy, node, open};
    return FRX_OK;
}

static struct anchor *find_anchor(struct builder *b, const char *name)
{
    for (size_t i = b->nanchors; i-- > 0;) /* a later anchor wins */
        if (!strcmp(b->anchors[i].name, name))
            return &b->anchors[i];
    return NULL;
}

static void close_anchors(struct builder *b, const frx_cfgnode *node)
{
    for (size_t i = 0; i < b->nanchors; i++)
        if (b->anchors[i].node == node)
            b->anchors[i].open = 0;
}

static int on_scalar(struct builder *b, const yaml_event_t *ev)
{
    frx_cfgnode *node = NULL;
    int rc = scalar_new(b, ev, &node);
    if (!rc)
        rc = attach(b, node);
    if (!rc)
        rc = add_anchor(b, ev->data.scalar.anchor, node, 0);
    return rc;
}

static int on_alias(struct builder *b, const yaml_event_t *ev)
{
    const char *name = (const char *)ev->data.alias.anchor;
    struct anchor *a = find_anchor(b, name);
    if (!a)
        return error_at(b, ev->start_mark, "unknown alias '*%s' (no anchor "
                        "'&%s' before it)", name, name);
    if (a->open)
        return error_at(b, ev->start_mark, "alias '*%s' is inside the node "
                        "it refers to", name);
    frx_cfgnode *node = NULL;
    int rc = node_copy(b, a->node, ev->start_mark, &node);
    if (rc) {
        node_free(node);
        return rc;
    }
    return attach(b, node);
}

static int on_start(struct builder *b, const yaml_event_t *ev, int type)
{
    if (b->depth == FRX__CFG_MAX_DEPTH)
        return error_at(b, ev->start_mark, "nested too deeply (more than "
                        "%d levels)", FRX__CFG_MAX_DEPTH);
    if (expecting_key(b))
        return error_at(b, ev->start_mark, "mapping keys must be plain "
                        "words, got a %s as a key",
                        type == FRX_CFG_MAP ? "mapping" : "list");
    int rc = count_node(b, ev->start_mark);
    if (rc)
        return rc;
    frx_cfgnode *node = node_new(b, type, ev->start_mark);
    if (!node)
        return FRX_ENOMEM;
    rc = attach(b, node);
    if (rc)
        return rc;
    const yaml_char_t *anchor = type == FRX_CFG_MAP
                                    ? ev->data.mapping_start.anchor
                                    : ev->data.sequence_start.anchor;
    rc = add_anchor(b, anchor, node, 1);
    if (rc)
        return rc;
    b->pending[b->depth] = NULL;
    b->stack[b->depth++] = node;
    return FRX_OK;
}

static int on_end(struct builder *b)
{
    frx_cfgnode *node = b->stack[--b->depth];
    keyset_free(&b->keys[b->depth]);
    close_anchors(b, node);
    return FRX_OK;
}

static int on_event(struct builder *b, const yaml_event_t *ev)
{
    switch (ev->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (++b->ndocs > 1)
            return error_at(b, ev->start_mark, "a case file holds one YAML "
                            "document; this starts a second one");
        return FRX_OK;
    case YAML_SCALAR_EVENT: return on_scalar(b, ev);
    case YAML_ALIAS_EVENT: return on_alias(b, ev);
    case YAML_SEQUENCE_START_EVENT: return on_start(b, ev, FRX_CFG_LIST);
    case YAML_MAPPING_START_EVENT: return on_start(b, ev, FRX_CFG_MAP);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT: return on_end(b);
    default: return FRX_OK;
    }
}

/* ---------------------------------------------------- reading the text */

/* 1-based line and column (in characters) of a byte offset. */
static void offset_pos(const unsigned char *s, size_t off, size_t *line,
                       size_t *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (s[i] == '\n') {
            ++*line;
            *col = 1;
        } else if ((s[i] & 0xC0) != 0x80) {
            ++*col;
        }
    }
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n, unsigned *cp)
{
    size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2
                 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (!len || len > n)
        return 0;
    unsigned c = len == 1 ? s[0] : s[0] & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3F);
    }
    static const unsigned min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < min[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return len;
}

static int printable(unsigned c)
{
    return c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c != 0x7F &&
           !(c >= 0x80 && c < 0xA0 && c != 0x85) && c != 0xFFFE &&
           c != 0xFFFF);
}

/* YAML is UTF-8 text here: say where it is not, before libyaml does in
 * less helpful terms (it would even take a 0xFF 0xFE start for UTF-16). */
static int check_text(const struct builder *b)
{
    const unsigned char *s = b->text;
    size_t i = 0, n = b->len;
    while (i < n) {
        unsigned cp = 0;
        size_t k = utf8_len(s + i, n - i, &cp);
        if (k && printable(cp)) {
            i += k;
            continue;
        }
        char what[64];
        if (!k)
            snprintf(what, sizeof what, "invalid UTF-8 byte 0x%02x", s[i]);
        else if (cp == 0)
            snprintf(what, sizeof what, "a NUL byte");
        else
            snprintf(what, sizeof what, "control character U+%04X", cp);
        size_t line, col;
        offset_pos(s, i, &line, &col);
        return frx_error(FRX_ECONFIG, "%s:%zu:%zu: the file is not YAML "
                         "text: %s (is it a binary file?)", b->cfg->file,
                         line, col, what);
    }
    return FRX_OK;
}

static int parser_error(const struct builder *b, const yaml_parser_t *p)
{
    if (p->error == YAML_MEMORY_ERROR)
        return frx_error(FRX_ENOMEM, "%s: out of memory parsing YAML",
                         b->cfg->file);
    if (p->error == YAML_READER_ERROR) {
        size_t line, col;
        size_t off = p->problem_offset < b->len ? p->problem_offset : b->len;
        offset_pos(b->text, off, &line, &col);
        return frx_error(FRX_ECONFIG, "%s:%zu:%zu: the file is not YAML "
                         "text: %s", b->cfg->file, line, col,
                         p->problem ? p->problem : "unreadable");
    }
    yaml_mark_t m = p->problem_mark;
    char ctx[160] = "";
    if (p->context)
        snprintf(ctx, sizeof ctx, " (%s at %zu:%zu)", p->context,
                 p->context_mark.line + 1, p->context_mark.column + 1);
    const char *hint = "";
    if (m.index < b->len && b->text[m.index] == '\t')
        hint = "; indent with spaces, YAML does not allow tabs";
    return frx_error(FRX_ECONFIG, "%s:%zu:%zu: syntax error: %s%s%s",
                     b->cfg->file, m.line + 1, m.column + 1,
                     p->problem ? p->problem : "malformed YAML", ctx, hint);
}

static int run_parser(struct builder *b)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return frx_error(FRX_ENOMEM, "out of memory starting libyaml");
    yaml_parser_set_input_string(&parser, b->text, b->len);
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
    int rc = FRX_OK, done = 0;
    while (!rc && !done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            rc = parser_error(b, &parser);
            break;
        }
        rc = on_event(b, &ev);
        done = ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    return rc;
}

static int check_root(const struct builder *b)
{
    const frx_cfgnode *root = b->cfg->root;
    if (!root || (root->type == FRX_CFG_SCALAR && root->is_null))
        return frx_error(FRX_ECONFIG, "%s: the file is empty: " EMPTY_HINT,
                         b->cfg->file);
    if (root->type == FRX_CFG_MAP)
        return FRX_OK;
    char msg[160];
    snprintf(msg, sizeof msg, "the top level must be a mapping of keys "
             "(like 'backend:'), got %s", frx__cfg_kind(root));
    return node_error(b, root, msg);
}

int frx_config_parse(const char *text, size_t len, const char *name,
                     frx_config **out)
{
    if (!out || (!text && len))
        return frx_error(FRX_EINVAL, "frx_config_parse: NULL argument");
    *out = NULL;
    if (len > FRX__CFG_MAX_BYTES)
        return frx_error(FRX_ECONFIG, "%s: too large for a case file (%zu "
                         "bytes)", name ? name : "<string>", len);
    frx_config *cfg = frx__calloc(1, sizeof *cfg, "a config");
    if (!cfg)
        return FRX_ENOMEM;
    cfg->file = frx__strdup(name ? name : "<string>");
    if (!cfg->file) {
        free(cfg);
        return FRX_ENOMEM;
    }
    struct builder b = {.cfg = cfg,
                        .text = (const unsigned char *)(text ? text : ""),
                        .len = len};
    /* a UTF-8 byte-order mark (YAML allows one) is not text: libyaml,
     * told the encoding, would take it for content */
    if (b.len >= 3 && !memcmp(b.text, "\xEF\xBB\xBF", 3)) {
        b.text += 3;
        b.len -= 3;
    }
    int rc = check_text(&b);
    if (!rc && !(cfg->text = malloc(b.len + 1)))
        rc = frx_error(FRX_ENOMEM, "out of memory for a case");
    if (!rc) {
        memcpy(cfg->text, b.text, b.len);
        cfg->text[b.len] = '\0';
        cfg->len = b.len;
        rc = run_parser(&b);
    }
    for (int d = 0; d < b.depth; d++) { /* left open by an error */
        node_free(b.pending[d]);
        keyset_free(&b.keys[d]);
    }
    for (size_t i = 0; i < b.nanchors; i++)
        free(b.anchors[i].name);
    free(b.anchors);
    if (!rc)
        rc = check_root(&b);
    if (rc) {
        frx_config_free(cfg);
        return rc;
    }
    *out = cfg;
    return FRX_OK;
}

static int read_all(FILE *f, char **text, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return FRX_ENOMEM;
    for (;;) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        if (cap > FRX__CFG_MAX_BYTES) /* parse refuses it */
            break;
        char *more = realloc(buf, cap * 2);
        if (!more) {
            free(buf);
            return FRX_ENOMEM;
        }
        buf = more;
        cap *= 2;
    }
    if (ferror(f)) {
        free(buf);
        return FRX_EIO;
    }
    *text = buf;
    *len = n;
    return FRX_OK;
}

int frx_config_load(const char *path, frx_config **out)
{
    if (!path || !out)
        return frx_error(FRX_EINVAL, "frx_config_load: NULL argument");
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return frx_error(FRX_EIO, "%s: cannot open the case file: %s", path,
                         strerror(errno));
    char *text = NULL;
    size_t len = 0;
    errno = 0;
    int rc = read_all(f, &text, &len);
    int err = errno;
    fclose(f);
    if (rc == FRX_ENOMEM)
        return frx_error(FRX_ENOMEM, "%s: out of memory reading the case "
                         "file", path);
    if (rc)
        return frx_error(FRX_EIO, "%s: cannot read the case file: %s", path,
                         strerror(err ? err : EIO));
    rc = frx_config_parse(text, len, path, out);
    free(text);
    return rc;
}
