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
 * Sections frx does not use are skipped to their $End line. */
#include "mesh/gmsh-impl.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ element types */

/* Every type of Gmsh's list up to the 1000-node hexahedron, so that
 * elements frx does not use can still be read past. */
static const struct frx__gmsh_type types[] = {
    {1, "line", 1, 2, 2, 1, 0},          {2, "triangle", 2, 3, 3, 1, 0},
    {3, "quadrilateral", 2, 4, 4, 1, 0}, {4, "tetrahedron", 3, 4, 4, 1, 0},
    {5, "hexahedron", 3, 8, 8, 1, 0},    {6, "prism", 3, 6, 6, 1, 0},
    {7, "pyramid", 3, 5, 5, 1, 0},       {8, "line", 1, 3, 2, 2, 0},
    {9, "triangle", 2, 6, 3, 2, 0},      {10, "quadrilateral", 2, 9, 4, 2, 0},
    {11, "tetrahedron", 3, 10, 4, 2, 0}, {12, "hexahedron", 3, 27, 8, 2, 0},
    {13, "prism", 3, 18, 6, 2, 0},       {14, "pyramid", 3, 14, 5, 2, 0},
    {15, "point", 0, 1, 1, 0, 0},        {16, "quadrilateral", 2, 8, 4, 2, 1},
    {17, "hexahedron", 3, 20, 8, 2, 1},  {18, "prism", 3, 15, 6, 2, 1},
    {19, "pyramid", 3, 13, 5, 2, 1},     {20, "triangle", 2, 9, 3, 3, 1},
    {21, "triangle", 2, 10, 3, 3, 0},    {22, "triangle", 2, 12, 3, 4, 1},
    {23, "triangle", 2, 15, 3, 4, 0},    {24, "triangle", 2, 15, 3, 5, 1},
    {25, "triangle", 2, 21, 3, 5, 0},    {26, "line", 1, 4, 2, 3, 0},
    {27, "line", 1, 5, 2, 4, 0},         {28, "line", 1, 6, 2, 5, 0},
    {29, "tetrahedron", 3, 20, 4, 3, 0}, {30, "tetrahedron", 3, 35, 4, 4, 0},
    {31, "tetrahedron", 3, 56, 4, 5, 0}, {32, "tetrahedron", 3, 22, 4, 4, 1},
    {33, "tetrahedron", 3, 28, 4, 5, 1}, {36, "quadrilateral", 2, 16, 4, 3, 0},
    {37, "quadrilateral", 2, 25, 4, 4, 0},
    {38, "quadrilateral", 2, 36, 4, 5, 0},
    {39, "quadrilateral", 2, 12, 4, 3, 1},
    {40, "quadrilateral", 2, 16, 4, 4, 1},
    {41, "quadrilateral", 2, 20, 4, 5, 1},
    {42, "triangle", 2, 28, 3, 6, 0},    {43, "triangle", 2, 36, 3, 7, 0},
    {44, "triangle", 2, 45, 3, 8, 0},    {45, "triangle", 2, 55, 3, 9, 0},
    {46, "triangle", 2, 66, 3, 10, 0},
    {47, "quadrilateral", 2, 49, 4, 6, 0},
    {48, "quadrilateral", 2, 64, 4, 7, 0},
    {49, "quadrilateral", 2, 81, 4, 8, 0},
    {50, "quadrilateral", 2, 100, 4, 9, 0},
    {51, "quadrilateral", 2, 121, 4, 10, 0},
    {62, "line", 1, 7, 2, 6, 0},         {63, "line", 1, 8, 2, 7, 0},
    {64, "line", 1, 9, 2, 8, 0},         {65, "line", 1, 10, 2, 9, 0},
    {66, "line", 1, 11, 2, 10, 0},
    {92, "hexahedron", 3, 64, 8, 3, 0},  {93, "hexahedron", 3, 125, 8, 4, 0},
    {94, "hexahedron", 3, 216, 8, 5, 0}, {95, "hexahedron", 3, 343, 8, 6, 0},
    {96, "hexahedron", 3, 512, 8, 7, 0}, {97, "hexahedron", 3, 729, 8, 8, 0},
    {98, "hexahedron", 3, 1000, 8, 9, 0},
};

#define MAX_TYPE_NODES 1000

const struct frx__gmsh_type *frx__gmsh_type(int num)
{
    size_t lo = 0, hi = sizeof types / sizeof *types; /* ascending */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (types[mid].num < num)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < sizeof types / sizeof *types && types[lo].num == num
               ? &types[lo] : NULL;
}

const char *frx__gmsh_type_name(const struct frx__gmsh_type *t, char *buf,
                                size_t n)
{
    if (t->dim == 0)
        snprintf(buf, n, "a point (Gmsh type %d)", t->num);
    else
        snprintf(buf, n, "a%s %d-node %s (Gmsh type %d)",
                 t->nnodes == 8 || t->nnodes == 11 || t->nnodes == 18
                     ? "n" : "",
                 t->nnodes, t->shape, t->num);
    return buf;
}

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

static int alloc_nodes(struct frx__msh *m, uint64_t n)
{
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

static int read_nodes_22(struct cur *c)
{
    struct frx__msh *m = c->m;
    int64_t n;
    uint64_t at = here(c);
    int rc = ascii_int(c, &n);
    if (rc == FRX_OK && n < 0)
        return fail(c, FRX_ECONFIG, at, "a negative count of nodes");
    if (rc || (rc = end_line(c)) ||
        (rc = count_ok(c, (uint64_t)n, m->binary ? 28 : 8, "nodes", at)) ||
        (rc = alloc_nodes(m, (uint64_t)n)))
        return rc;
    c->bin = m->binary;
    c->item = "node";
    c->count = (uint64_t)n;
    for (c->index = 0; c->index < (uint64_t)n; c->index++) {
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
    c->bin = 0;
    return FRX_OK;
}

static int read_nodes_41(struct cur *c)
{
    struct frx__msh *m = c->m;
    uint64_t nb, n, lo, hi, at = here(c);
    int rc;
    c->bin = m->binary;
    if ((rc = get_size(c, &nb)) || (rc = get_size(c, &n)) ||
        (rc = get_size(c, &lo)) || (rc = get_size(c, &hi)) ||
        (rc = count_ok(c, n, m->binary ? 32 : 8, "nodes", at)) ||
        (rc = count_ok(c, nb, m->binary ? 20 : 8, "node blocks", at)) ||
        (rc = alloc_nodes(m, n)))
        return rc;
    for (uint64_t b = 0; b < nb; b++) {
        int64_t dim, tag, param;
        uint64_t nn, bat;
        c->item = "node block";
        c->index = b;
        c->count = nb;
        if (!c->bin)
            skip_blank(c);
        bat = here(c);
        if ((rc = get_int(c, &dim)) || (rc = get_int(c, &tag)) ||
            (rc = get_int(c, &param)) || (rc = get_size(c, &nn)))
            return rc;
        if (nn > n - m->nnodes)
            return fail(c, FRX_ECONFIG, bat, "node block %llu has %llu "
                        "nodes, more than the %llu the section's count "
                        "leaves", (unsigned long long)b + 1,
                        (unsigned long long)nn,
                        (unsigned long long)(n - m->nnodes));
        int npar = param ? (int)(dim < 0 ? 0 : dim > 3 ? 3 : dim) : 0;
        size_t first = m->nnodes;
        c->item = "node";
        c->count = nn;
        for (c->index = 0; c->index < nn; c->index++) {
            size_t i = first + (size_t)c->index;
            if (!c->bin)
                skip_blank(c);
            m->nwhere[i] = here(c);
            if ((rc = get_size(c, &m->ntag[i])) ||
                (rc = check_tag(c, (int64_t)m->ntag[i], m->nwhere[i])))
                return rc;
        }
        for (c->index = 0; c->index < nn; c->index++) {
            size_t i = first + (size_t)c->index;
            double par;
            for (int k = 0; k < 3; k++)
                if ((rc = get_double(c, &m->x[3 * i + (size_t)k])))
                    return rc;
            for (int k = 0; k < npar; k++)
                if ((rc = get_double(c, &par)))
                    return rc;
        }
        m->nnodes += (size_t)nn;
    }
    c->bin = 0;
    if (m->nnodes != n)
        return fail(c, FRX_ECONFIG, at, "$Nodes says %llu nodes but its "
                    "blocks hold %zu", (unsigned long long)n, m->nnodes);
    return FRX_OK;
}

/* The element buffer grows as elements come (2.2 does not say how many
 * node tags there are). */
struct ebuf {
    size_t ecap, ncap;
};

static int add_element(struct cur *c, struct ebuf *eb, uint64_t tag,
                       int type, int32_t ent, uint64_t where,
                       const uint64_t *nodes, int nn)
{
    struct frx__msh *m = c->m;
    struct frx__msh_ele *e = grow(m->eles, &eb->ecap, m->neles + 1,
                                  sizeof *e);
    if (!e)
        return frx_error(FRX_ENOMEM, "out of memory reading elements");
    m->eles = e;
    uint64_t *nt = grow(m->enodes, &eb->ncap, m->nenodes + (size_t)nn,
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
    memcpy(m->enodes + m->nenodes, nodes, (size_t)nn * sizeof *nodes);
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
static int32_t entity_22(struct frx__msh *m, size_t *cap, int dim,
                         int64_t phys)
{
    if (phys == 0)
        return -1;
    int32_t e = find_entity(m, dim, phys);
    if (e >= 0)
        return e;
    struct frx__msh_entity *p = grow(m->ents, cap, m->nents + 1, sizeof *p);
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

static int ascii_element_22(struct cur *c, struct ebuf *eb, size_t *entcap,
                            uint64_t *nodes)
{
    int64_t tag, type, ntags, phys = 0, v;
    skip_blank(c);
    uint64_t at = here(c);
    const struct frx__gmsh_type *t;
    int rc;
    if ((rc = ascii_int(c, &tag)) || (rc = check_tag(c, tag, at)) ||
        (rc = ascii_int(c, &type)) || (rc = element_type(c, type, at, &t)) ||
        (rc = ascii_int(c, &ntags)))
        return rc;
    if (ntags < 0 || ntags > 1000)
        return fail(c, FRX_ECONFIG, at, "element %lld has %lld tags",
                    (long long)tag, (long long)ntags);
    for (int64_t i = 0; i < ntags; i++) {
        if ((rc = ascii_int(c, &v)))
            return rc;
        if (i == 0)
            phys = v;
    }
    for (int i = 0; i < t->nnodes; i++) {
        if ((rc = ascii_int(c, &v)) || (rc = check_tag(c, v, at)))
            return rc;
        nodes[i] = (uint64_t)v;
    }
    char tn[80];
    if (here(c) != at)
        return fail(c, FRX_ECONFIG, at, "element %lld has fewer values than "
                    "%s with %lld tags needs (%d node tags after the tags)",
                    (long long)tag, frx__gmsh_type_name(t, tn, sizeof tn),
                    (long long)ntags, t->nnodes);
    if (end_line(c))
        return fail(c, FRX_ECONFIG, at, "element %lld has more values than "
                    "%s with %lld tags needs (%d node tags after the tags)",
                    (long long)tag, frx__gmsh_type_name(t, tn, sizeof tn),
                    (long long)ntags, t->nnodes);
    int32_t ent = entity_22(c->m, entcap, t->dim, phys);
    if (ent == -2)
        return frx_error(FRX_ENOMEM, "out of memory reading elements");
    return add_element(c, eb, (uint64_t)tag, t->num, ent, at, nodes,
                       t->nnodes);
}

/* 2.2 binary: blocks of elements of one type and number of tags. */
static int binary_block_22(struct cur *c, struct ebuf *eb, size_t *entcap,
                           uint64_t *nodes, uint64_t left)
{
    int64_t type, nfollow, ntags, tag, v, phys = 0;
    uint64_t at = here(c);
    const struct frx__gmsh_type *t;
    int rc;
    if ((rc = get_int(c, &type)) || (rc = get_int(c, &nfollow)) ||
        (rc = get_int(c, &ntags)) || (rc = element_type(c, type, at, &t)))
        return rc;
    if (nfollow < 1 || (uint64_t)nfollow > left || ntags < 0 ||
        ntags > 1000)
        return fail(c, FRX_ECONFIG, at, "an element block header says %lld "
                    "elements with %lld tags; %llu elements are left to "
                    "read: the file is damaged", (long long)nfollow,
                    (long long)ntags, (unsigned long long)left);
    for (int64_t k = 0; k < nfollow; k++, c->index++) {
        at = here(c);
        if ((rc = get_int(c, &tag)) || (rc = check_tag(c, tag, at)))
            return rc;
        for (int64_t i = 0; i < ntags; i++) {
            if ((rc = get_int(c, &v)))
                return rc;
            if (i == 0)
                phys = v;
        }
        for (int i = 0; i < t->nnodes; i++) {
            if ((rc = get_int(c, &v)) || (rc = check_tag(c, v, at)))
                return rc;
            nodes[i] = (uint64_t)v;
        }
        int32_t ent = entity_22(c->m, entcap, t->dim, phys);
        if (ent == -2)
            return frx_error(FRX_ENOMEM, "out of memory reading elements");
        if ((rc = add_element(c, eb, (uint64_t)tag, t->num, ent, at, nodes,
                              t->nnodes)))
            return rc;
    }
    return FRX_OK;
}

static int read_elements_22(struct cur *c, uint64_t *nodes)
{
    struct frx__msh *m = c->m;
    struct ebuf eb = {0};
    size_t entcap = m->nents;
    int64_t n;
    uint64_t at = here(c);
    int rc = ascii_int(c, &n);
    if (rc == FRX_OK && n < 0)
        return fail(c, FRX_ECONFIG, at, "a negative count of elements");
    if (rc || (rc = end_line(c)) ||
        (rc = count_ok(c, (uint64_t)n, m->binary ? 12 : 8, "elements", at)))
        return rc;
    c->item = "element";
    c->count = (uint64_t)n;
    c->index = 0;
    c->bin = m->binary;
    while (rc == FRX_OK && c->index < (uint64_t)n) {
        if (m->binary) {
            rc = binary_block_22(c, &eb, &entcap, nodes,
                                 (uint64_t)n - c->index);
        } else {
            rc = ascii_element_22(c, &eb, &entcap, nodes);
            c->index++;
        }
    }
    c->bin = 0;
    return rc;
}

static int read_elements_41(struct cur *c, uint64_t *nodes)
{
    struct frx__msh *m = c->m;
    struct ebuf eb = {0};
    uint64_t nb, n, lo, hi, at = here(c);
    int rc;
    c->bin = m->binary;
    if ((rc = get_size(c, &nb)) || (rc = get_size(c, &n)) ||
        (rc = get_size(c, &lo)) || (rc = get_size(c, &hi)) ||
        (rc = count_ok(c, n, m->binary ? 16 : 4, "elements", at)) ||
        (rc = count_ok(c, nb, m->binary ? 20 : 8, "element blocks", at)))
        return rc;
    uint64_t seen = 0;
    for (uint64_t b = 0; b < nb; b++) {
        int64_t dim, etag, type;
        uint64_t ne, bat;
        const struct frx__gmsh_type *t;
        c->item = "element block";
        c->index = b;
        c->count = nb;
        if (!c->bin)
            skip_blank(c);
        bat = here(c);
        if ((rc = get_int(c, &dim)) || (rc = get_int(c, &etag)) ||
            (rc = get_int(c, &type)) || (rc = get_size(c, &ne)) ||
            (rc = element_type(c, type, bat, &t)))
            return rc;
        if (ne > n - seen)
            return fail(c, FRX_ECONFIG, bat, "element block %llu has %llu "
                        "elements, more than the %llu the section's count "
                        "leaves", (unsigned long long)b + 1,
                        (unsigned long long)ne,
                        (unsigned long long)(n - seen));
        if (dim != t->dim) {
            char tn[80];
            return fail(c, FRX_ECONFIG, bat, "element block %llu is of "
                        "dimension %lld but holds %s, of dimension %d",
                        (unsigned long long)b + 1, (long long)dim,
                        frx__gmsh_type_name(t, tn, sizeof tn), t->dim);
        }
        int32_t ent = find_entity(m, (int)dim, etag);
        if (ent < 0 && m->nents) /* else read as in no physical group */
            return fail(c, FRX_ECONFIG, bat, "element block %llu names "
                        "entity %lld of dimension %lld, which $Entities "
                        "does not define", (unsigned long long)b + 1,
                        (long long)etag, (long long)dim);
        c->item = "element";
        c->count = ne;
        for (c->index = 0; c->index < ne; c->index++) {
            uint64_t tag, eat;
            if (!c->bin)
                skip_blank(c);
            eat = here(c);
            if ((rc = get_size(c, &tag)) ||
                (rc = check_tag(c, (int64_t)tag, eat)))
                return rc;
            for (int i = 0; i < t->nnodes; i++)
                if ((rc = get_size(c, &nodes[i])) ||
                    (rc = check_tag(c, (int64_t)nodes[i], eat)))
                    return rc;
            if (!c->bin && here(c) != eat) {
                char tn[80];
                return fail(c, FRX_ECONFIG, eat, "element %llu has fewer "
                            "than the %d node tags of %s on its line",
                            (unsigned long long)tag, t->nnodes,
                            frx__gmsh_type_name(t, tn, sizeof tn));
            }
            if (!c->bin && end_line(c)) {
                char tn[80];
                return fail(c, FRX_ECONFIG, eat, "element %llu has more "
                            "than the %d node tags of %s on its line",
                            (unsigned long long)tag, t->nnodes,
                            frx__gmsh_type_name(t, tn, sizeof tn));
            }
            if ((rc = add_element(c, &eb, tag, t->num, ent, eat, nodes,
                                  t->nnodes)))
                return rc;
        }
        seen += ne;
    }
    c->bin = 0;
    if (seen != n)
        return fail(c, FRX_ECONFIG, at, "$Elements says %llu elements but "
                    "its blocks hold %llu", (unsigned long long)n,
                    (unsigned long long)seen);
    return FRX_OK;
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

static int read_sections(struct cur *c)
{
    struct frx__msh *m = c->m;
    int seen_format = 0, seen_nodes = 0, seen_eles = 0, rc = FRX_OK;
    uint64_t *nodes = malloc(MAX_TYPE_NODES * sizeof *nodes);
    if (!nodes)
        return frx_error(FRX_ENOMEM, "out of memory reading %s", m->path);
    for (;;) {
        c->sect[0] = 0;
        c->item = NULL;
        c->count = 0;
        skip_blank(c);
        if (c->pos >= c->len)
            break;
        c->sect_at = here(c);
        if (c->buf[c->pos] != '$') {
            rc = fail(c, FRX_ECONFIG, here(c), "expected a section like "
                      "$Nodes, found '%.20s': is this a Gmsh .msh file?",
                      c->buf + c->pos);
            break;
        }
        if ((rc = section_name(c)))
            break;
        const char *s = c->sect;
        if (!seen_format && strcmp(s, "MeshFormat")) {
            rc = fail(c, FRX_ECONFIG, c->sect_at, "the file starts with $%s, "
                      "not $MeshFormat: is this a Gmsh .msh file?", s);
            break;
        }
        if (!strncmp(s, "End", 3)) {
            rc = fail(c, FRX_ECONFIG, c->sect_at, "$%s without its $%s",
                      s, s + 3);
            break;
        }
        int v2 = m->version[0] == '2';
        int *once = !strcmp(s, "MeshFormat") ? &seen_format
                  : !strcmp(s, "Nodes") ? &seen_nodes
                  : !strcmp(s, "Elements") ? &seen_eles : NULL;
        if (once && *once) {
            rc = fail(c, FRX_ECONFIG, c->sect_at, "a second $%s section", s);
            break;
        }
        if (once)
            *once = 1;
        if (!strcmp(s, "MeshFormat"))
            rc = read_format(c);
        else if (!strcmp(s, "PhysicalNames") && !m->names)
            rc = read_names(c);
        else if (!strcmp(s, "Entities") && !v2 && !m->ents)
            rc = read_entities(c);
        else if (!strcmp(s, "PartitionedEntities"))
            rc = fail(c, FRX_ENOTSUP, c->sect_at, "the mesh is partitioned: "
                      "frx partitions meshes itself; save it unpartitioned");
        else if (!strcmp(s, "Nodes"))
            rc = v2 ? read_nodes_22(c) : read_nodes_41(c);
        else if (!strcmp(s, "Elements"))
            rc = v2 ? read_elements_22(c, nodes) : read_elements_41(c, nodes);
        else
            rc = skip_section(c);
        if (rc || (rc = end_section(c)))
            break;
    }
    free(nodes);
    if (rc)
        return rc;
    c->sect[0] = 0;
    if (!seen_format)
        return fail(c, FRX_ECONFIG, 1, "the file is empty: a Gmsh .msh file "
                    "starts with $MeshFormat");
    if (!seen_nodes || !seen_eles)
        return fail(c, FRX_ECONFIG, here(c), "the file has no $%s section",
                    seen_nodes ? "Elements" : "Nodes");
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
