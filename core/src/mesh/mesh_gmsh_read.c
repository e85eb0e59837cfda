/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading Gmsh .msh files, versions 2.2 and 4.1, ASCII and binary
 * (little-endian), into what the file says: physical names, entities,
 * nodes and elements, each with the line (ASCII) or byte offset
 * (binary) it came from. What the elements mean is mesh_gmsh.c's.
 *
 * The whole file is read into memory and walked with a cursor. ASCII
 * values are whitespace-separated tokens; an element (and a 2.2 node)
 * must be on one line, so a wrong number of values is caught on its own
 * line. Binary parts are fixed-width little-endian values: int is 4
 * bytes, size_t and double 8 (the header's data-size must say 8).
 *
 * Table-driven, so that both formats share each reader: the table of
 * sections says which are read in which format (the rest are skipped to
 * their $End line), and $Nodes and $Elements, lists of items in blocks,
 * are walked by one reader (read_list) over a row per format saying how
 * its counts, block headers and items look. */
#include "mesh/gmsh-impl.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- cursor */

struct cur {
    struct frx__msh *m;
    const char *buf; /* the file, NUL-terminated */
    size_t len, pos;
    uint64_t line;   /* line of buf[pos] */
    int bin;         /* reading binary values now */
    /* for messages: the section and the item being read */
    char sect[64];
    uint64_t sect_at;
    const char *item;
    uint64_t index, count;
    /* $Elements: the arrays' room, and one element's node tags */
    size_t ecap, ncap, entcap;
    uint64_t *nodes;
};

const char *frx__msh_place(const struct frx__msh *m, uint64_t where,
                           char *buf, size_t n)
{
    if (where == FRX__NOWHERE)
        snprintf(buf, n, "%s", m->path);
    else if (m->binary)
        snprintf(buf, n, "%s, byte %llu", m->path,
                 (unsigned long long)where);
    else
        snprintf(buf, n, "%s:%llu", m->path, (unsigned long long)where);
    return buf;
}

static uint64_t here(const struct cur *c)
{
    return c->m->binary ? c->pos : c->line;
}

int frx__msh_error(const struct frx__msh *m, int code, uint64_t where,
                   const char *fmt, ...)
{
    char msg[1536], at[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return frx_error(code, "%s: %s", frx__msh_place(m, where, at, sizeof at),
                     msg);
}

#define fail(c, code, where, ...) frx__msh_error((c)->m, code, where, \
                                                 __VA_ARGS__)

/* " (node 5 of 441)" for the item being read, or "". */
static const char *item_text(const struct cur *c, char *buf, size_t n)
{
    if (!c->item)
        buf[0] = 0;
    else if (c->count)
        snprintf(buf, n, " (%s %llu of %llu)", c->item,
                 (unsigned long long)c->index + 1,
                 (unsigned long long)c->count);
    else
        snprintf(buf, n, " (%s)", c->item);
    return buf;
}

static int truncated(const struct cur *c)
{
    char it[100], at[400];
    if (!c->sect[0])
        return fail(c, FRX_ECONFIG, here(c), "the file ends where more was "
                    "expected: is it truncated?");
    return fail(c, FRX_ECONFIG, here(c), "the file ends inside $%s (opened "
                "at %s)%s: is it truncated?", c->sect,
                frx__msh_place(c->m, c->sect_at, at, sizeof at),
                item_text(c, it, sizeof it));
}

static int is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' ||
           ch == '\v' || ch == '\f';
}

static void skip_blank(struct cur *c)
{
    while (c->pos < c->len && is_space(c->buf[c->pos]))
        c->line += c->buf[c->pos++] == '\n';
}

/* The next whitespace-delimited ASCII token. */
static int token(struct cur *c, const char **tok, size_t *n)
{
    skip_blank(c);
    if (c->pos >= c->len)
        return truncated(c);
    size_t start = c->pos;
    while (c->pos < c->len && !is_space(c->buf[c->pos]))
        c->pos++;
    *tok = c->buf + start;
    *n = c->pos - start;
    if (**tok == '$') {
        char it[100];
        c->pos = start;
        return fail(c, FRX_ECONFIG, here(c), "'%.*s' where a value was "
                    "expected%s: the entry before it has too few values, "
                    "or $%s fewer entries than its counts say",
                    (int)(*n > 40 ? 40 : *n), *tok,
                    item_text(c, it, sizeof it), c->sect);
    }
    return FRX_OK;
}

static int not_a(const struct cur *c, const char *tok, size_t n,
                 const char *what)
{
    char it[100];
    return fail(c, FRX_ECONFIG, here(c), "'%.*s' is not %s%s",
                (int)(n > 40 ? 40 : n), tok, what,
                item_text(c, it, sizeof it));
}

static int ascii_int(struct cur *c, int64_t *v)
{
    const char *tok = NULL; /* set by token(); gcc -O3 cannot tell */
    size_t n = 0;
    int rc = token(c, &tok, &n);
    if (rc)
        return rc;
    char *end;
    errno = 0;
    long long x = strtoll(tok, &end, 10);
    if (end != tok + n || errno)
        return not_a(c, tok, n, "an integer");
    *v = x;
    return FRX_OK;
}

static int ascii_double(struct cur *c, double *v)
{
    const char *tok = NULL; /* set by token(); gcc -O3 cannot tell */
    size_t n = 0;
    int rc = token(c, &tok, &n);
    if (rc)
        return rc;
    char *end;
    double x = strtod(tok, &end);
    if (end != tok + n || !isfinite(x))
        return not_a(c, tok, n, "a finite number");
    *v = x;
    return FRX_OK;
}

static int bytes(struct cur *c, size_t n, const unsigned char **out)
{
    if (c->len - c->pos < n) {
        c->pos = c->len;
        return truncated(c);
    }
    *out = (const unsigned char *)c->buf + c->pos;
    c->pos += n;
    return FRX_OK;
}

static uint64_t le(const unsigned char *b, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

/* An int: a token, or 4 binary bytes. */
static int get_int(struct cur *c, int64_t *v)
{
    const unsigned char *b = NULL;
    if (!c->bin)
        return ascii_int(c, v);
    int rc = bytes(c, 4, &b);
    if (rc == FRX_OK)
        *v = (int32_t)(uint32_t)le(b, 4);
    return rc;
}

/* A size_t (4.1 binary: 8 bytes). */
static int get_size(struct cur *c, uint64_t *v)
{
    const unsigned char *b = NULL;
    if (!c->bin) {
        int64_t x;
        int rc = ascii_int(c, &x);
        if (rc == FRX_OK && x < 0) {
            char it[100];
            return fail(c, FRX_ECONFIG, here(c), "%lld is negative where a "
                        "count or tag was expected%s", (long long)x,
                        item_text(c, it, sizeof it));
        }
        *v = (uint64_t)x;
        return rc;
    }
    int rc = bytes(c, 8, &b);
    if (rc == FRX_OK)
        *v = le(b, 8);
    return rc;
}

static int get_double(struct cur *c, double *v)
{
    const unsigned char *b = NULL;
    if (!c->bin)
        return ascii_double(c, v);
    int rc = bytes(c, 8, &b);
    if (rc)
        return rc;
    uint64_t bits = le(b, 8);
    memcpy(v, &bits, sizeof *v);
    if (!isfinite(*v)) {
        char it[100];
        return fail(c, FRX_ECONFIG, c->pos - 8, "a coordinate is not a "
                    "finite number%s", item_text(c, it, sizeof it));
    }
    return FRX_OK;
}

/* The rest of an ASCII line must be blank; the cursor moves past its
 * newline (and no further: binary data may follow). */
static int end_line(struct cur *c)
{
    while (c->pos < c->len && (c->buf[c->pos] == ' ' ||
                               c->buf[c->pos] == '\t' ||
                               c->buf[c->pos] == '\r'))
        c->pos++;
    if (c->pos < c->len && c->buf[c->pos] != '\n') {
        char it[100];
        return fail(c, FRX_ECONFIG, here(c), "unexpected '%.20s' at the end "
                    "of the line%s", c->buf + c->pos,
                    item_text(c, it, sizeof it));
    }
    if (c->pos < c->len) {
        c->pos++;
        c->line++;
    }
    return FRX_OK;
}

/* A count read from the file, checked against what the rest of the
 * file could hold (at least min_bytes per item). */
static int count_ok(struct cur *c, uint64_t n, size_t min_bytes,
                    const char *what, uint64_t where)
{
    if (n <= (c->len - c->pos) / min_bytes)
        return FRX_OK;
    return fail(c, FRX_ECONFIG, where, "$%s says %llu %s, more than the "
                "rest of the file can hold: is it truncated?", c->sect,
                (unsigned long long)n, what);
}

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(p, n * size);
    if (q)
        *cap = n;
    return q;
}

/* ---------------------------------------------------------- sections */

static int read_format(struct cur *c)
{
    const char *tok;
    size_t n;
    int64_t ftype, dsize;
    uint64_t at = here(c);
    int rc = token(c, &tok, &n);
    if (rc)
        return rc;
    if (!((n == 3 && !memcmp(tok, "2.2", 3)) ||
          (n == 3 && !memcmp(tok, "4.1", 3))))
        return fail(c, FRX_ENOTSUP, at, "Gmsh file format %.*s: frx reads "
                    "versions 2.2 and 4.1; save the mesh again as one of "
                    "them (gmsh -format msh41, or msh22)",
                    (int)(n > 20 ? 20 : n), tok);
    memcpy(c->m->version, tok, 3);
    if ((rc = ascii_int(c, &ftype)) || (rc = ascii_int(c, &dsize)))
        return rc;
    if (ftype != 0 && ftype != 1)
        return fail(c, FRX_ECONFIG, at, "file type %lld: Gmsh writes 0 "
                    "(ASCII) or 1 (binary)", (long long)ftype);
    c->m->binary = ftype == 1;
    if (c->m->binary && dsize != 8)
        return fail(c, FRX_ENOTSUP, at, "data size %lld: frx reads binary "
                    "files with 8-byte %s only", (long long)dsize,
                    c->m->version[0] == '2' ? "doubles" : "size_t");
    if ((rc = end_line(c)) || !c->m->binary)
        return rc;
    /* binary: the int 1, as the writer's machine stores it */
    const unsigned char *b = NULL;
    at = c->pos;
    if ((rc = bytes(c, 4, &b)))
        return rc;
    if (le(b, 4) == 1)
        return FRX_OK;
    if (b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] == 1)
        return fail(c, FRX_ENOTSUP, at, "the file is big-endian binary: frx "
                    "reads little-endian binary files only; save it again "
                    "on a little-endian machine, or as ASCII (gmsh -bin 0)");
    return fail(c, FRX_ECONFIG, at, "the binary header's endianness marker "
                "is %02x %02x %02x %02x, not the int 1: the file is damaged",
                b[0], b[1], b[2], b[3]);
}

static int read_names(struct cur *c)
{
    struct frx__msh *m = c->m;
    int64_t n;
    uint64_t at = here(c);
    int rc = ascii_int(c, &n);
    if (rc == FRX_OK && n < 0)
        return fail(c, FRX_ECONFIG, at, "a negative count of names");
    if (rc || (rc = count_ok(c, (uint64_t)n, 6, "names", at)))
        return rc;
    m->names = frx__calloc((size_t)n, sizeof *m->names, "physical names");
    if (!m->names && n)
        return FRX_ENOMEM;
    c->item = "name";
    c->count = (uint64_t)n;
    for (c->index = 0; c->index < (uint64_t)n; c->index++) {
        struct frx__msh_name *p = &m->names[m->nnames];
        int64_t dim;
        skip_blank(c);
        p->where = here(c);
        if ((rc = ascii_int(c, &dim)) || (rc = ascii_int(c, &p->tag)))
            return rc;
        skip_blank(c);
        const char *q = c->buf + c->pos, *e = NULL;
        if (c->pos < c->len && *q == '"')
            e = memchr(q + 1, '"', c->len - c->pos - 1);
        if (!e || memchr(q, '\n', (size_t)(e - q)))
            return fail(c, FRX_ECONFIG, p->where, "a physical name must be "
                        "written in double quotes on its line, like 2 1 "
                        "\"fluid\"");
        if (dim < 0 || dim > 3)
            return fail(c, FRX_ECONFIG, p->where, "physical dimension %lld "
                        "(0 to 3)", (long long)dim);
        p->dim = (int)dim;
        if (!(p->name = strndup(q + 1, (size_t)(e - q - 1))))
            return frx_error(FRX_ENOMEM, "out of memory reading names");
        m->nnames++;
        c->pos += (size_t)(e - q) + 1;
        if ((rc = end_line(c)))
            return rc;
    }
    return FRX_OK;
}

/* The entity of (dim, tag), or -1. */
static int32_t find_entity(const struct frx__msh *m, int dim, int64_t tag)
{
    for (size_t i = m->nents; i-- > 0;)
        if (m->ents[i].dim == dim && m->ents[i].tag == tag)
            return (int32_t)i;
    return -1;
}

static int read_entities(struct cur *c)
{
    struct frx__msh *m = c->m;
    uint64_t cnt[4], total = 0, at = here(c);
    int rc = FRX_OK;
    c->bin = m->binary;
    for (int d = 0; d < 4 && rc == FRX_OK; d++)
        rc = get_size(c, &cnt[d]);
    for (int d = 0; d < 4 && rc == FRX_OK; d++) {
        rc = count_ok(c, cnt[d], 12, "entities", at);
        total += cnt[d];
    }
    if (rc)
        return rc;
    m->ents = frx__calloc((size_t)total, sizeof *m->ents, "entities");
    if (!m->ents && total)
        return FRX_ENOMEM;
    c->item = "entity";
    for (int d = 0; d < 4; d++) {
        c->count = cnt[d];
        for (c->index = 0; c->index < cnt[d]; c->index++) {
            struct frx__msh_entity *E = &m->ents[m->nents++];
            double box;
            uint64_t np, nb;
            int64_t v;
            E->dim = d;
            if ((rc = get_int(c, &E->tag)))
                return rc;
            for (int k = 0; k < (d ? 6 : 3); k++)
                if ((rc = get_double(c, &box)))
                    return rc;
            if ((rc = get_size(c, &np)) ||
                (rc = count_ok(c, np, c->bin ? 4 : 2, "physical tags",
                               here(c))))
                return rc;
            E->phys = frx__calloc((size_t)np, sizeof *E->phys, "entities");
            if (!E->phys && np)
                return FRX_ENOMEM;
            for (E->nphys = 0; E->nphys < np; E->nphys++) {
                if ((rc = get_int(c, &v)))
                    return rc;
                E->phys[E->nphys] = v < 0 ? -v : v; /* sign: orientation */
            }
            if (d == 0)
                continue;
            if ((rc = get_size(c, &nb)) ||
                (rc = count_ok(c, nb, c->bin ? 4 : 2, "bounding entities",
                               here(c))))
                return rc;
            for (uint64_t i = 0; i < nb; i++)
                if ((rc = get_int(c, &v)))
                    return rc;
        }
    }
    c->bin = 0;
    return FRX_OK;
}

/* --------------------------------------------------- lists of blocks */

/* $Nodes and $Elements list their items in blocks, each after a header
 * that says what its items share (4.1: entity, type; 2.2 binary
 * elements: type and tag count); a format without block headers lists
 * them as one block. One reader walks every such list (read_list); a
 * format's row (struct list) says how its counts and blocks look, and
 * reads a header and a block's items. */

struct block {
    uint64_t number;  /* its place among the blocks, from 0 */
    uint64_t at;      /* where its header is */
    uint64_t n;       /* items in it */
    uint64_t first;   /* the first item's number, for messages */
    int64_t dim, tag, param, ntags; /* what its header says */
    const struct frx__gmsh_type *t; /* elements: their type */
};

enum {
    LIST_COUNT = 1, /* one count on its own line (2.2) */
    LIST_BLOCKS     /* numBlocks numItems minTag maxTag (4.1) */
};

struct list {
    const char *item, *plural; /* "node", "nodes" */
    const char *block;        /* "node block" (LIST_BLOCKS) */
    int counts;
    size_t item_bytes[2];     /* the least an item takes: ASCII, binary */
    size_t block_bytes[2];    /* the same of a block header */
    int (*start)(struct cur *c, uint64_t n); /* room for n items */
    /* a block's header into b (b->n, of left items); NULL: the items
     * follow the count as one block */
    int (*header)(struct cur *c, struct block *b, uint64_t left);
    int (*read_block)(struct cur *c, const struct block *b);
};

static int read_counts(struct cur *c, const struct list *L, uint64_t *nb,
                       uint64_t *n, uint64_t at)
{
    int rc;
    if (L->counts == LIST_COUNT) {
        int64_t k;
        rc = ascii_int(c, &k);
        if (rc == FRX_OK && k < 0)
            return fail(c, FRX_ECONFIG, at, "a negative count of %s",
                        L->plural);
        if (rc)
            return rc;
        *n = (uint64_t)k;
        return end_line(c);
    }
    uint64_t lo, hi;
    c->bin = c->m->binary;
    if ((rc = get_size(c, nb)) || (rc = get_size(c, n)) ||
        (rc = get_size(c, &lo)) || (rc = get_size(c, &hi)))
        return rc;
    return FRX_OK;
}

static int read_list(struct cur *c, const struct list *L)
{
    int bin = c->m->binary;
    uint64_t nb = 0, n = 0, at = here(c);
    char blocks[64];
    snprintf(blocks, sizeof blocks, "%ss", L->block ? L->block : "block");
    int rc = read_counts(c, L, &nb, &n, at);
    if (rc || (rc = count_ok(c, n, L->item_bytes[bin], L->plural, at)) ||
        (L->counts == LIST_BLOCKS &&
         (rc = count_ok(c, nb, L->block_bytes[bin], blocks, at))) ||
        (L->start && (rc = L->start(c, n))))
        return rc;
    c->bin = bin;
    uint64_t seen = 0;
    for (uint64_t k = 0; L->counts == LIST_BLOCKS ? k < nb : seen < n;
         k++) {
        struct block b = {.number = k, .n = n - seen, .first = seen};
        int blocked = L->counts == LIST_BLOCKS;
        if (L->header) {
            c->item = blocked ? L->block : L->item;
            c->index = blocked ? k : seen;
            c->count = blocked ? nb : n;
            if (!c->bin)
                skip_blank(c);
            b.at = here(c);
            if ((rc = L->header(c, &b, n - seen)))
                return rc;
            if (b.n > n - seen)
                return fail(c, FRX_ECONFIG, b.at, "%s %llu has %llu %s, "
                            "more than the %llu the section's count "
                            "leaves", L->block, (unsigned long long)k + 1,
                            (unsigned long long)b.n, L->plural,
                            (unsigned long long)(n - seen));
        }
        /* messages count items by block (4.1), or in the section */
        c->item = L->item;
        c->count = blocked ? b.n : n;
        if (blocked)
            b.first = 0;
        if ((rc = L->read_block(c, &b)))
            return rc;
        seen += b.n;
    }
    c->bin = 0;
    if (L->counts == LIST_BLOCKS && seen != n)
        return fail(c, FRX_ECONFIG, at, "$%s says %llu %s but its blocks "
                    "hold %llu", c->sect, (unsigned long long)n, L->plural,
                    (unsigned long long)seen);
    return FRX_OK;
}

/* ------------------------------------------------------------- nodes */

static int start_nodes(struct cur *c, uint64_t n)
{
    struct frx__msh *m = c->m;
    m->ntag = frx__calloc((size_t)n, sizeof *m->ntag, "nodes");
    m->x = frx__calloc((size_t)n, 3 * sizeof *m->x, "nodes");
    m->nwhere = frx__calloc((size_t)n, sizeof *m->nwhere, "nodes");
    return (m->ntag && m->x && m->nwhere) || !n ? FRX_OK : FRX_ENOMEM;
}

static int check_tag(struct cur *c, int64_t tag, uint64_t where)
{
    char it[100];
    if (tag > 0)
        return FRX_OK;
    return fail(c, FRX_ECONFIG, where, "tag %lld: Gmsh tags are positive%s",
                (long long)tag, item_text(c, it, sizeof it));
}

/* 2.2: each node a line "tag x y z". */
static int nodes_22(struct cur *c, const struct block *b)
{
    struct frx__msh *m = c->m;
    int rc;
    for (c->index = b->first; c->index < b->first + b->n; c->index++) {
        size_t i = m->nnodes;
        int64_t tag;
        if (!c->bin)
            skip_blank(c);
        m->nwhere[i] = here(c);
        if ((rc = get_int(c, &tag)) || (rc = check_tag(c, tag, m->nwhere[i])))
            return rc;
        m->ntag[i] = (uint64_t)tag;
        for (int k = 0; k < 3; k++)
            if ((rc = get_double(c, &m->x[3 * i + (size_t)k])))
                return rc;
        if (!c->bin && here(c) != m->nwhere[i])
            return fail(c, FRX_ECONFIG, m->nwhere[i], "node %lld has fewer "
                        "than its 3 coordinates on its line", (long long)tag);
        if (!c->bin && (rc = end_line(c)))
            return rc;
        m->nnodes++;
    }
    return FRX_OK;
}

/* 4.1: "entityDim entityTag parametric numNodes". */
static int node_header_41(struct cur *c, struct block *b, uint64_t left)
{
    (void)left;
    int rc;
    if ((rc = get_int(c, &b->dim)) || (rc = get_int(c, &b->tag)) ||
        (rc = get_int(c, &b->param)) || (rc = get_size(c, &b->n)))
        return rc;
    return FRX_OK;
}

/* 4.1: the block's tags, then its coordinates (and parameters). */
static int nodes_41(struct cur *c, const struct block *b)
{
    struct frx__msh *m = c->m;
    int npar = b->param ? (int)(b->dim < 0 ? 0 : b->dim > 3 ? 3 : b->dim)
                        : 0;
    size_t first = m->nnodes;
    int rc;
    for (c->index = 0; c->index < b->n; c->index++) {
        size_t i = first + (size_t)c->index;
        if (!c->bin)
            skip_blank(c);
        m->nwhere[i] = here(c);
        if ((rc = get_size(c, &m->ntag[i])) ||
            (rc = check_tag(c, (int64_t)m->ntag[i], m->nwhere[i])))
            return rc;
    }
    for (c->index = 0; c->index < b->n; c->index++) {
        size_t i = first + (size_t)c->index;
        double par;
        for (int k = 0; k < 3; k++)
            if ((rc = get_double(c, &m->x[3 * i + (size_t)k])))
                return rc;
        for (int k = 0; k < npar; k++)
            if ((rc = get_double(c, &par)))
                return rc;
    }
    m->nnodes += (size_t)b->n;
    return FRX_OK;
}

/* ---------------------------------------------------------- elements */

static int start_elements(struct cur *c, uint64_t n)
{
    (void)n; /* 2.2 does not say how many node tags there are: grown */
    c->ecap = c->ncap = 0;
    c->entcap = c->m->nents;
    c->nodes = malloc(FRX__GMSH_MAX_NODES * sizeof *c->nodes);
    return c->nodes ? FRX_OK
                    : frx_error(FRX_ENOMEM, "out of memory reading %s",
                                c->m->path);
}

static int add_element(struct cur *c, uint64_t tag, int type, int32_t ent,
                       uint64_t where, int nn)
{
    struct frx__msh *m = c->m;
    struct frx__msh_ele *e = grow(m->eles, &c->ecap, m->neles + 1,
                                  sizeof *e);
    if (!e)
        return frx_error(FRX_ENOMEM, "out of memory reading elements");
    m->eles = e;
    uint64_t *nt = grow(m->enodes, &c->ncap, m->nenodes + (size_t)nn,
                        sizeof *nt);
    if (!nt)
        return frx_error(FRX_ENOMEM, "out of memory reading elements");
    m->enodes = nt;
    e = &m->eles[m->neles++];
    e->tag = tag;
    e->type = type;
    e->ent = ent;
    e->where = where;
    e->off = m->nenodes;
    memcpy(m->enodes + m->nenodes, c->nodes, (size_t)nn * sizeof *c->nodes);
    m->nenodes += (size_t)nn;
    return FRX_OK;
}

static int element_type(struct cur *c, int64_t type, uint64_t where,
                        const struct frx__gmsh_type **t)
{
    *t = type > 0 && type < 1000 ? frx__gmsh_type((int)type) : NULL;
    if (*t)
        return FRX_OK;
    char it[100];
    return fail(c, FRX_ECONFIG, where, "unknown element type %lld%s: it is "
                "no Gmsh element type frx knows (a damaged file, or a type "
                "newer than Gmsh 4)", (long long)type,
                item_text(c, it, sizeof it));
}

/* 2.2 groups elements by physical tag: one entity per (dim, physical
 * tag), made as they come. */
static int32_t entity_22(struct cur *c, int dim, int64_t phys)
{
    struct frx__msh *m = c->m;
    if (phys == 0)
        return -1;
    int32_t e = find_entity(m, dim, phys);
    if (e >= 0)
        return e;
    struct frx__msh_entity *p = grow(m->ents, &c->entcap, m->nents + 1,
                                     sizeof *p);
    if (!p)
        return -2;
    m->ents = p;
    p = &m->ents[m->nents];
    memset(p, 0, sizeof *p);
    p->dim = dim;
    p->tag = phys;
    if (!(p->phys = malloc(sizeof *p->phys)))
        return -2;
    p->phys[0] = phys;
    p->nphys = 1;
    return (int32_t)m->nents++;
}

/* 2.2, after an element's tag (and, in ASCII, its type and tag count):
 * its tags, the first its physical group, and its node tags; in ASCII
 * all on one line. */
static int element_22(struct cur *c, int64_t tag,
                      const struct frx__gmsh_type *t, int64_t ntags,
                      uint64_t at)
{
    int64_t phys = 0, v;
    int rc;
    for (int64_t i = 0; i < ntags; i++) {
        if ((rc = get_int(c, &v)))
            return rc;
        if (i == 0)
            phys = v;
    }
    for (int i = 0; i < t->nnodes; i++) {
        if ((rc = get_int(c, &v)) || (rc = check_tag(c, v, at)))
            return rc;
        c->nodes[i] = (uint64_t)v;
    }
    char tn[80];
    if (!c->bin && here(c) != at)
        return fail(c, FRX_ECONFIG, at, "element %lld has fewer values than "
                    "%s with %lld tags needs (%d node tags after the tags)",
                    (long long)tag, frx__gmsh_type_name(t, tn, sizeof tn),
                    (long long)ntags, t->nnodes);
    if (!c->bin && end_line(c))
        return fail(c, FRX_ECONFIG, at, "element %lld has more values than "
                    "%s with %lld tags needs (%d node tags after the tags)",
                    (long long)tag, frx__gmsh_type_name(t, tn, sizeof tn),
                    (long long)ntags, t->nnodes);
    int32_t ent = entity_22(c, t->dim, phys);
    if (ent == -2)
        return frx_error(FRX_ENOMEM, "out of memory reading elements");
    return add_element(c, (uint64_t)tag, t->num, ent, at, t->nnodes);
}

/* 2.2 ASCII: each element a line "tag type ntags tags... nodes...". */
static int elements_22_ascii(struct cur *c, const struct block *b)
{
    int rc = FRX_OK;
    for (c->index = b->first; c->index < b->first + b->n && !rc;
         c->index++) {
        int64_t tag, type, ntags;
        const struct frx__gmsh_type *t;
        skip_blank(c);
        uint64_t at = here(c);
        if ((rc = ascii_int(c, &tag)) || (rc = check_tag(c, tag, at)) ||
            (rc = ascii_int(c, &type)) ||
            (rc = element_type(c, type, at, &t)) ||
            (rc = ascii_int(c, &ntags)))
            return rc;
        if (ntags < 0 || ntags > 1000)
            return fail(c, FRX_ECONFIG, at, "element %lld has %lld tags",
                        (long long)tag, (long long)ntags);
        rc = element_22(c, tag, t, ntags, at);
    }
    return rc;
}

/* 2.2 binary: blocks "type numFollowing numTags" of elements of one type
 * and tag count. */
static int element_header_22(struct cur *c, struct block *b, uint64_t left)
{
    int64_t type;
    int rc;
    if ((rc = get_int(c, &type)) || (rc = get_int(c, &b->param)) ||
        (rc = get_int(c, &b->ntags)) ||
        (rc = element_type(c, type, b->at, &b->t)))
        return rc;
    if (b->param < 1 || (uint64_t)b->param > left || b->ntags < 0 ||
        b->ntags > 1000)
        return fail(c, FRX_ECONFIG, b->at, "an element block header says "
                    "%lld elements with %lld tags; %llu elements are left "
                    "to read: the file is damaged", (long long)b->param,
                    (long long)b->ntags, (unsigned long long)left);
    b->n = (uint64_t)b->param;
    return FRX_OK;
}

static int elements_22_binary(struct cur *c, const struct block *b)
{
    int rc = FRX_OK;
    for (c->index = b->first; c->index < b->first + b->n && !rc;
         c->index++) {
        int64_t tag;
        uint64_t at = here(c);
        if ((rc = get_int(c, &tag)) || (rc = check_tag(c, tag, at)))
            return rc;
        rc = element_22(c, tag, b->t, b->ntags, at);
    }
    return rc;
}

/* 4.1: "entityDim entityTag elementType numElements". */
static int element_header_41(struct cur *c, struct block *b, uint64_t left)
{
    (void)left;
    int64_t type;
    int rc;
    if ((rc = get_int(c, &b->dim)) || (rc = get_int(c, &b->tag)) ||
        (rc = get_int(c, &type)) || (rc = get_size(c, &b->n)) ||
        (rc = element_type(c, type, b->at, &b->t)))
        return rc;
    return FRX_OK;
}

/* 4.1: the block's elements, "tag nodes...", each on its line in
 * ASCII, in the block's entity. */
static int elements_41(struct cur *c, const struct block *b)
{
    struct frx__msh *m = c->m;
    const struct frx__gmsh_type *t = b->t;
    char tn[80];
    if (b->dim != t->dim)
        return fail(c, FRX_ECONFIG, b->at, "element block %llu is of "
                    "dimension %lld but holds %s, of dimension %d",
                    (unsigned long long)b->number + 1, (long long)b->dim,
                    frx__gmsh_type_name(t, tn, sizeof tn), t->dim);
    int32_t ent = find_entity(m, (int)b->dim, b->tag);
    if (ent < 0 && m->nents) /* else read as in no physical group */
        return fail(c, FRX_ECONFIG, b->at, "element block %llu names "
                    "entity %lld of dimension %lld, which $Entities "
                    "does not define", (unsigned long long)b->number + 1,
                    (long long)b->tag, (long long)b->dim);
    int rc;
    for (c->index = 0; c->index < b->n; c->index++) {
        uint64_t tag, at;
        if (!c->bin)
            skip_blank(c);
        at = here(c);
        if ((rc = get_size(c, &tag)) ||
            (rc = check_tag(c, (int64_t)tag, at)))
            return rc;
        for (int i = 0; i < t->nnodes; i++)
            if ((rc = get_size(c, &c->nodes[i])) ||
                (rc = check_tag(c, (int64_t)c->nodes[i], at)))
                return rc;
        if (!c->bin && here(c) != at)
            return fail(c, FRX_ECONFIG, at, "element %llu has fewer "
                        "than the %d node tags of %s on its line",
                        (unsigned long long)tag, t->nnodes,
                        frx__gmsh_type_name(t, tn, sizeof tn));
        if (!c->bin && end_line(c))
            return fail(c, FRX_ECONFIG, at, "element %llu has more "
                        "than the %d node tags of %s on its line",
                        (unsigned long long)tag, t->nnodes,
                        frx__gmsh_type_name(t, tn, sizeof tn));
        if ((rc = add_element(c, tag, t->num, ent, at, t->nnodes)))
            return rc;
    }
    return FRX_OK;
}

/* ----------------------------------------------- the formats' lists */

static const struct list node_lists[] = {
    /* 2.2 */
    {.item = "node", .plural = "nodes", .counts = LIST_COUNT,
     .item_bytes = {8, 28}, .start = start_nodes, .read_block = nodes_22},
    /* 4.1 */
    {.item = "node", .plural = "nodes", .block = "node block",
     .counts = LIST_BLOCKS, .item_bytes = {8, 32}, .block_bytes = {8, 20},
     .start = start_nodes, .header = node_header_41, .read_block = nodes_41},
};

static const struct list element_lists[] = {
    /* 2.2 ASCII */
    {.item = "element", .plural = "elements", .counts = LIST_COUNT,
     .item_bytes = {8, 12}, .start = start_elements,
     .read_block = elements_22_ascii},
    /* 2.2 binary */
    {.item = "element", .plural = "elements", .block = "element block",
     .counts = LIST_COUNT, .item_bytes = {8, 12}, .start = start_elements,
     .header = element_header_22, .read_block = elements_22_binary},
    /* 4.1 */
    {.item = "element", .plural = "elements", .block = "element block",
     .counts = LIST_BLOCKS, .item_bytes = {4, 16}, .block_bytes = {8, 20},
     .start = start_elements, .header = element_header_41,
     .read_block = elements_41},
};

static int v41(const struct cur *c) { return c->m->version[0] == '4'; }

static int read_nodes(struct cur *c)
{
    return read_list(c, &node_lists[v41(c)]);
}

static int read_elements(struct cur *c)
{
    int rc = read_list(c, &element_lists[v41(c) ? 2 : c->m->binary]);
    free(c->nodes);
    c->nodes = NULL;
    return rc;
}

static int refuse_partitioned(struct cur *c)
{
    return fail(c, FRX_ENOTSUP, c->sect_at, "the mesh is partitioned: frx "
                "partitions meshes itself; save it unpartitioned");
}

/* --------------------------------------------------------- the walk */

/* "$EndName" at the cursor, on its own line. */
static int end_section(struct cur *c)
{
    char at[400];
    skip_blank(c);
    c->item = NULL;
    if (c->pos >= c->len)
        return fail(c, FRX_ECONFIG, here(c), "the file ends before $End%s "
                    "closes $%s (opened at %s): is it truncated?", c->sect,
                    c->sect, frx__msh_place(c->m, c->sect_at, at,
                                            sizeof at));
    size_t n = strlen(c->sect);
    const char *p = c->buf + c->pos;
    if (c->len - c->pos >= n + 4 && !memcmp(p, "$End", 4) &&
        !memcmp(p + 4, c->sect, n) &&
        (c->pos + n + 4 == c->len || is_space(p[n + 4]))) {
        c->pos += n + 4;
        return FRX_OK;
    }
    size_t w = 0;
    while (c->pos + w < c->len && w < 40 && !is_space(p[w]))
        w++;
    return fail(c, FRX_ECONFIG, here(c), "expected $End%s to close $%s "
                "(opened at %s), found '%.*s': $%s has more entries than its "
                "counts say, or its $End%s is missing", c->sect, c->sect,
                frx__msh_place(c->m, c->sect_at, at, sizeof at), (int)w, p,
                c->sect, c->sect);
}

/* Past a section frx does not read (binary content included). */
static int skip_section(struct cur *c)
{
    char end[80], at[400];
    int n = snprintf(end, sizeof end, "\n$End%s", c->sect);
    const char *p = memmem(c->buf + c->pos, c->len - c->pos, end,
                           (size_t)n);
    if (!p)
        return fail(c, FRX_ECONFIG, c->m->binary ? c->len : c->line,
                    "$%s (opened at %s) has no $End%s: is the file "
                    "truncated?", c->sect,
                    frx__msh_place(c->m, c->sect_at, at, sizeof at), c->sect);
    for (const char *q = c->buf + c->pos; q < p; q++)
        c->line += *q == '\n';
    c->pos = (size_t)(p - c->buf);
    return FRX_OK;
}

/* The section name after '$', up to the end of its line. */
static int section_name(struct cur *c)
{
    size_t start = ++c->pos, n = 0;
    while (c->pos < c->len && c->buf[c->pos] != '\n' &&
           c->buf[c->pos] != '\r' && !is_space(c->buf[c->pos]))
        c->pos++;
    n = c->pos - start;
    if (n == 0 || n >= sizeof c->sect)
        return fail(c, FRX_ECONFIG, here(c), "a '$' line without a section "
                    "name: is this a Gmsh .msh file?");
    memcpy(c->sect, c->buf + start, n);
    c->sect[n] = 0;
    return end_line(c);
}

/* The sections frx reads, in the formats it reads them in (skipped in
 * the other); the first must come first. A second section of a kind is
 * refused where two would be ambiguous, else skipped. */
enum { F22 = 1, F41 = 2 };

static const struct section {
    const char *name;
    int formats;
    int second_refused;
    int needed; /* the file is refused without it */
    int (*read)(struct cur *c);
} sections[] = {
    {"MeshFormat", F22 | F41, 1, 1, read_format},
    {"PhysicalNames", F22 | F41, 0, 0, read_names},
    {"Entities", F41, 0, 0, read_entities},
    {"PartitionedEntities", F22 | F41, 0, 0, refuse_partitioned},
    {"Nodes", F22 | F41, 1, 1, read_nodes},
    {"Elements", F22 | F41, 1, 1, read_elements},
};
#define NSECTIONS (sizeof sections / sizeof *sections)

/* Section c->sect, just opened: read, skipped or refused. */
static int one_section(struct cur *c, unsigned char *seen)
{
    const char *s = c->sect;
    if (!seen[0] && strcmp(s, sections[0].name))
        return fail(c, FRX_ECONFIG, c->sect_at, "the file starts with $%s, "
                    "not $%s: is this a Gmsh .msh file?", s,
                    sections[0].name);
    if (!strncmp(s, "End", 3))
        return fail(c, FRX_ECONFIG, c->sect_at, "$%s without its $%s", s,
                    s + 3);
    int format = v41(c) ? F41 : F22;
    for (size_t i = 0; i < NSECTIONS; i++) {
        const struct section *k = &sections[i];
        if (strcmp(s, k->name) || (i && !(k->formats & format)))
            continue;
        if (seen[i] && k->second_refused)
            return fail(c, FRX_ECONFIG, c->sect_at, "a second $%s section",
                        s);
        if (seen[i]) /* a second one of the others: skipped */
            break;
        seen[i] = 1;
        return k->read(c);
    }
    return skip_section(c);
}

static int read_sections(struct cur *c)
{
    unsigned char seen[NSECTIONS] = {0};
    for (;;) {
        c->sect[0] = 0;
        c->item = NULL;
        c->count = 0;
        skip_blank(c);
        if (c->pos >= c->len)
            break;
        c->sect_at = here(c);
        if (c->buf[c->pos] != '$')
            return fail(c, FRX_ECONFIG, here(c), "expected a section like "
                        "$Nodes, found '%.20s': is this a Gmsh .msh file?",
                        c->buf + c->pos);
        int rc = section_name(c);
        if (rc || (rc = one_section(c, seen)) || (rc = end_section(c)))
            return rc;
    }
    c->sect[0] = 0;
    if (!seen[0])
        return fail(c, FRX_ECONFIG, 1, "the file is empty: a Gmsh .msh file "
                    "starts with $MeshFormat");
    for (size_t i = 1; i < NSECTIONS; i++)
        if (sections[i].needed && !seen[i])
            return fail(c, FRX_ECONFIG, here(c), "the file has no $%s "
                        "section", sections[i].name);
    return FRX_OK;
}

static int slurp(const char *path, char **buf, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return frx_error(FRX_EIO, "%s: cannot open the mesh file: %s", path,
                         strerror(errno));
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    if (n < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return frx_error(FRX_EIO, "%s: cannot read the mesh file (not a "
                         "regular file?)", path);
    }
    *buf = malloc((size_t)n + 1);
    if (!*buf) {
        fclose(f);
        return frx_error(FRX_ENOMEM, "%s: out of memory reading %ld bytes",
                         path, n);
    }
    size_t got = fread(*buf, 1, (size_t)n, f);
    int bad = ferror(f);
    fclose(f);
    if (bad || got != (size_t)n) {
        free(*buf);
        return frx_error(FRX_EIO, "%s: reading the mesh file failed", path);
    }
    (*buf)[n] = 0;
    *len = (size_t)n;
    return FRX_OK;
}

int frx__msh_read(const char *path, struct frx__msh *m)
{
    memset(m, 0, sizeof *m);
    if (!(m->path = frx__strdup(path)))
        return frx_error(FRX_ENOMEM, "out of memory");
    char *buf = NULL;
    size_t len = 0;
    int rc = slurp(path, &buf, &len);
    if (rc == FRX_OK) {
        struct cur c = {.m = m, .buf = buf, .len = len, .line = 1};
        rc = read_sections(&c);
    }
    free(buf);
    if (rc)
        frx__msh_free(m);
    return rc;
}

void frx__msh_free(struct frx__msh *m)
{
    free(m->path);
    for (size_t i = 0; m->names && i < m->nnames; i++)
        free(m->names[i].name);
    free(m->names);
    for (size_t i = 0; m->ents && i < m->nents; i++)
        free(m->ents[i].phys);
    free(m->ents);
    free(m->ntag);
    free(m->x);
    free(m->nwhere);
    free(m->eles);
    free(m->enodes);
    memset(m, 0, sizeof *m);
}
