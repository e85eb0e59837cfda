/* SPDX-License-Identifier: BSD-3-Clause */
/* Parsing kernel declarations: "[intent] [kind] dtype[dims] name, ...". */
#include "kernel/kernel-impl.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const intents[] = {"in", "out", "inout"};
static const char *const kinds[] = {"view", "xchg", "mpi", "scalar",
                                    "broadcast"};
static const int kind_ids[] = {FRX__K_VIEW, FRX__K_XCHG, FRX__K_XCHG,
                               FRX__K_SCALAR, FRX__K_BROADCAST};

static const char *const reduce_ops[] = {"max", "min", "sum"};

const char *frx__karg_decl(const frx__karg *a, int kind, char *buf, size_t n)
{
    static const char *const kind_words[] = {"", "", "view ", "xchg ",
                                             "scalar ", "broadcast ", ""};
    kind = kind < 0 ? a->kind : kind;
    char red[32] = "";
    if (kind == FRX__K_REDUCE)
        snprintf(red, sizeof red, "reduce(%s) ",
                 a->op ? reduce_ops[a->op - 1] : "max");
    int k = snprintf(buf, n, "%s %s%s%s", intents[a->intent - 1],
                     kind_words[kind], red,
                     a->is_int ? "int32_t" : "fpdtype_t");
    for (size_t d = 0; d < a->ndims && k > 0 && (size_t)k < n; d++)
        k += snprintf(buf + k, n - (size_t)k, "[%zu]", a->dims[d]);
    return buf;
}

static int is_ident(const char *w)
{
    if (!w[0] || !(isalpha((unsigned char)w[0]) || w[0] == '_'))
        return 0;
    for (const char *c = w; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_')
            return 0;
    return 1;
}

/* Split one argument into words; dims stay attached to the dtype. */
static size_t split_words(char *text, char **words, size_t max)
{
    size_t n = 0;
    for (char *tok = strtok(text, " \t\n\r"); tok && n < max;
         tok = strtok(NULL, " \t\n\r"))
        words[n++] = tok;
    return n;
}

static int parse_dims(const char *kname, size_t idx, char *dtype,
                      frx__karg *a)
{
    char *br = strchr(dtype, '[');
    if (br)
        *br = '\0';
    while (br) {
        char *end;
        long v = strtol(br + 1, &end, 10);
        if (end == br + 1 || *end != ']' || v < 1 || v > 65536)
            return frx_error(FRX_EINVAL,
                             "kernel '%s': argument %zu: bad dimension in "
                             "'%s[': write dims as [N] or [N][M] with N a "
                             "number from 1 to 65536", kname, idx + 1, dtype);
        if (a->ndims == 2)
            return frx_error(FRX_EINVAL,
                             "kernel '%s': argument %zu: at most two "
                             "dimensions", kname, idx + 1);
        a->dims[a->ndims++] = (size_t)v;
        br = end[1] == '[' ? end + 1 : NULL;
        if (!br && end[1])
            return frx_error(FRX_EINVAL,
                             "kernel '%s': argument %zu: unexpected '%s' "
                             "after the dims", kname, idx + 1, end + 1);
    }
    if (strcmp(dtype, "fpdtype_t") == 0)
        return FRX_OK;
    if (strcmp(dtype, "int32_t") == 0 || strcmp(dtype, "int") == 0) {
        a->is_int = 1;
        return FRX_OK;
    }
    const char *cands[] = {"fpdtype_t", "int32_t"};
    const char *s = frx__suggest(dtype, cands, 2);
    return frx_error(FRX_EINVAL,
                     "kernel '%s': argument %zu: unknown type '%s'%s%s%s; "
                     "use fpdtype_t (or int32_t for a scalar)", kname,
                     idx + 1, dtype, s ? " (did you mean '" : "",
                     s ? s : "", s ? "'?)" : "");
}

static int lookup(const char *w, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(w, list[i]) == 0)
            return (int)i;
    return -1;
}

/* "reduce(max)": 1 and *op set; 0 if w is no reduction; -1 if w starts
 * like one but names no operator frx has. */
static int parse_reduce(const char *w, int *op)
{
    if (strncmp(w, "reduce(", 7) != 0)
        return 0;
    for (int i = 0; i < 3; i++) {
        size_t len = strlen(reduce_ops[i]);
        if (strncmp(w + 7, reduce_ops[i], len) == 0 &&
            strcmp(w + 7 + len, ")") == 0) {
            *op = i + 1;
            return 1;
        }
    }
    return -1;
}

static int parse_arg(const char *kname, int ndim, size_t idx, char *text,
                     frx__karg *a)
{
    char *w[8];
    size_t nw = split_words(text, w, 8), k = 0;
    *a = (frx__karg){.intent = FRX__IN, .kind = FRX__K_MATRIX};
    if (nw == 0)
        return frx_error(FRX_EINVAL, "kernel '%s': argument %zu is empty",
                         kname, idx + 1);
    int i = lookup(w[k], intents, 3), said_intent = 0;
    if (i >= 0 && nw > k + 1) {
        a->intent = i + 1;
        said_intent = 1;
        k++;
    }
    i = lookup(w[k], kinds, 5);
    int red = nw > k + 1 ? parse_reduce(w[k], &a->op) : 0;
    if (i >= 0 && nw > k + 1) {
        a->kind = kind_ids[i];
        k++;
    } else if (red < 0) {
        return frx_error(FRX_EINVAL, "kernel '%s': argument %zu: '%s' is no "
                         "reduction frx has: write reduce(max), reduce(min) "
                         "or reduce(sum)", kname, idx + 1, w[k]);
    } else if (red) {
        a->kind = FRX__K_REDUCE;
        k++;
    }
    if (nw - k != 2) {
        const char *all[] = {"in", "out", "inout", "view", "xchg",
                             "scalar", "broadcast"};
        const char *s = frx__suggest(w[k], all, 7);
        return frx_error(FRX_EINVAL,
                         "kernel '%s': argument %zu: cannot read '%s'%s%s%s: "
                         "write [in|out|inout] [view|xchg|scalar|broadcast|"
                         "reduce(op)] dtype[dims] name", kname, idx + 1, w[k],
                         s ? " (did you mean '" : "", s ? s : "",
                         s ? "'?)" : "");
    }
    int rc = parse_dims(kname, idx, w[k], a);
    if (rc)
        return rc;
    if (!is_ident(w[k + 1]) || w[k + 1][0] == '_' ||
        strlen(w[k + 1]) >= sizeof a->name)
        return frx_error(FRX_EINVAL,
                         "kernel '%s': argument %zu: '%s' is not a usable "
                         "name (a C identifier not starting with '_')",
                         kname, idx + 1, w[k + 1]);
    strcpy(a->name, w[k + 1]);

    const char *problem = NULL;
    if (a->kind == FRX__K_REDUCE && said_intent && a->intent != FRX__OUT)
        problem = "a reduction is written, never read: declare it 'out "
                  "reduce(op)' or leave out the intent";
    else if (a->kind == FRX__K_SCALAR && a->ndims)
        problem = "a scalar has no dims";
    else if (a->kind == FRX__K_SCALAR && a->intent != FRX__IN)
        problem = "a scalar can only be 'in'";
    else if (a->kind != FRX__K_SCALAR && a->is_int)
        problem = "only scalars may be int32_t";
    else if (a->kind == FRX__K_BROADCAST && a->intent != FRX__IN)
        problem = "a broadcast matrix can only be 'in'";
    else if ((a->kind == FRX__K_VIEW || a->kind == FRX__K_XCHG) && ndim != 1)
        problem = "views and xchg matrices need a kernel with ndim 1";
    if (problem)
        return frx_error(FRX_EINVAL, "kernel '%s': argument '%s': %s",
                         kname, a->name, problem);
    if (a->kind == FRX__K_REDUCE)
        a->intent = FRX__OUT;
    a->nrow = a->ndims == 2 ? a->dims[0] : 1;
    a->ncol = a->ndims ? a->dims[a->ndims - 1] : 1;
    return FRX_OK;
}

static char *read_file(const char *kname, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        frx_error(FRX_EIO, "kernel '%s': cannot read body_file %s: %m",
                  kname, path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *text = len >= 0 ? frx__calloc((size_t)len + 1, 1, "a kernel body")
                          : NULL;
    if (text && fread(text, 1, (size_t)len, f) != (size_t)len) {
        frx_error(FRX_EIO, "kernel '%s': cannot read body_file %s", kname,
                  path);
        free(text);
        text = NULL;
    }
    fclose(f);
    return text;
}

int frx__kspec_parse(const frx_kernel_decl *d, frx__kspec **out)
{
    if (!d || !d->name || !is_ident(d->name) ||
        strlen(d->name) > FRX__KNAME_MAX)
        return frx_error(FRX_EINVAL, "kernel declaration: the name '%.80s%s' "
                         "is not usable: a kernel name is 1 to %d characters "
                         "of [A-Za-z0-9_], not starting with a digit",
                         d && d->name ? d->name : "",
                         d && d->name && strlen(d->name) > 80 ? "..." : "",
                         FRX__KNAME_MAX);
    if (d->ndim != 1 && d->ndim != 2)
        return frx_error(FRX_EINVAL, "kernel '%s': ndim is %d; it must be 1 "
                         "(over points) or 2 (over rows x points)",
                         d->name, d->ndim);
    if (!d->body == !d->body_file)
        return frx_error(FRX_EINVAL, "kernel '%s': give either body or "
                         "body_file", d->name);
    frx__kspec *s = frx__calloc(1, sizeof *s, "a kernel spec");
    char *args = frx__strdup(d->args ? d->args : "");
    int rc = s && args ? FRX_OK : FRX_ENOMEM;
    if (rc == FRX_OK) {
        s->ndim = d->ndim;
        s->name = frx__strdup(d->name);
        s->body = d->body ? frx__strdup(d->body) : read_file(d->name,
                                                             d->body_file);
        rc = s->name && s->body ? FRX_OK : (d->body ? FRX_ENOMEM : FRX_EIO);
    }
    size_t cap = 1;
    for (const char *c = args ? args : ""; *c; c++)
        cap += *c == ',';
    if (rc == FRX_OK && !(s->args = frx__calloc(cap, sizeof *s->args,
                                                 "kernel arguments")))
        rc = FRX_ENOMEM;
    char *save = NULL;
    for (char *t = rc ? NULL : strtok_r(args, ",", &save); t && rc == FRX_OK;
         t = strtok_r(NULL, ",", &save)) {
        rc = parse_arg(d->name, d->ndim, s->nargs, t, &s->args[s->nargs]);
        for (size_t j = 0; rc == FRX_OK && j < s->nargs; j++)
            if (strcmp(s->args[j].name, s->args[s->nargs].name) == 0)
                rc = frx_error(FRX_EINVAL, "kernel '%s': two arguments are "
                               "called '%s'", d->name, s->args[j].name);
        s->nargs++;
    }
    free(args);
    if (rc) {
        frx__kspec_free(s);
        return rc;
    }
    *out = s;
    return FRX_OK;
}

/* Field by field: the structs' padding is not part of a declaration. */
static int same_arg(const frx__karg *a, const frx__karg *b)
{
    if (strcmp(a->name, b->name) != 0 || a->intent != b->intent ||
        a->kind != b->kind || a->is_int != b->is_int ||
        a->ndims != b->ndims || a->op != b->op)
        return 0;
    for (size_t d = 0; d < a->ndims; d++)
        if (a->dims[d] != b->dims[d])
            return 0;
    return 1;
}

int frx__kspec_same(const frx__kspec *a, const frx__kspec *b)
{
    if (strcmp(a->name, b->name) != 0 || a->ndim != b->ndim ||
        a->nargs != b->nargs || strcmp(a->body, b->body) != 0)
        return 0;
    for (size_t i = 0; i < a->nargs; i++)
        if (!same_arg(&a->args[i], &b->args[i]))
            return 0;
    return 1;
}

void frx__kspec_free(frx__kspec *s)
{
    if (!s)
        return;
    free(s->name);
    free(s->ns);
    free(s->args);
    free(s->body);
    free(s);
}
