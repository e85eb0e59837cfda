/* SPDX-License-Identifier: BSD-3-Clause */
/* Expressions of the solution in the analysis plugins (analysis.h):
 * compiled against the variables' names, the physics' derived ones and
 * the case's constants, and written into kernel bodies. */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

int an_fields_init(an_fields *f, const frx_extension_init *init,
                   frx_ext *ext, const char *who)
{
    memset(f, 0, sizeof *f);
    f->who = who;
    f->nvars = init->nvars;
    f->ndims = init->ndims;
    fr_system *sys = NULL;
    /* not on the FR layer: the variables alone */
    if (frx_ext_handle(ext, "fr.system", "fr_system", (void **)&sys) ==
        FRX_OK)
        f->phys = fr_system_physics(sys);
    if (f->phys &&
        f->phys->derived_src && f->phys->naux == 0)
        f->nderived = f->phys->nderived;
    if (f->phys && f->phys->nconsts > AN_MAX_CONSTS)
        return frx_error(FRX_EINVAL, "%s: physics '%s' has %zu constants; "
                         "this plugin passes at most %d", who,
                         f->phys->name, f->phys->nconsts, AN_MAX_CONSTS);
    f->nnames = f->nvars + f->nderived;
    f->names = calloc(f->nnames ? f->nnames : 1, sizeof *f->names);
    if (!f->names)
        return frx_error(FRX_ENOMEM, "%s: out of memory", who);
    for (size_t i = 0; i < f->nnames; i++) {
        f->names[i] = i < f->nvars ? init->vars[i]
                                   : f->phys->derived[i - f->nvars];
        for (size_t j = 0; j < i; j++)
            if (!strcmp(f->names[i], f->names[j]))
                return frx_error(FRX_EINVAL, "%s: the solver '%s' names "
                                 "two of its fields '%s'", who, init->solver,
                                 f->names[i]);
    }
    return FRX_OK;
}

int an_fields_find(const an_fields *f, const char *name)
{
    for (size_t i = 0; i < f->nnames; i++)
        if (!strcmp(f->names[i], name))
            return (int)i;
    return -1;
}

int an_fields_add(an_fields *f, const frx_cfgnode *node, const char *key,
                  const char *label)
{
    char where[512];
    fr_cfg_place(node, where, sizeof where);
    if (frx_cfg_type(node) != FRX_CFG_SCALAR)
        return frx_error(FRX_ECONFIG, "%s: %s must be an expression, not a "
                         "%s", where, key, frx_cfg_type(node) == FRX_CFG_MAP
                                               ? "map" : "list");
    return an_fields_add_text(f, frx_cfg_scalar(node), where, key, label);
}

int an_fields_add_text(an_fields *f, const char *text, const char *where,
                       const char *key, const char *label)
{
    fr_expr **e = realloc(f->exprs, (f->nexprs + 1) * sizeof *e);
    if (e)
        f->exprs = e;
    char **l = realloc(f->labels, (f->nexprs + 1) * sizeof *l);
    if (l)
        f->labels = l;
    char *lab = strdup(label);
    if (!e || !l || !lab) {
        free(lab);
        return frx_error(FRX_ENOMEM, "%s: out of memory", f->who);
    }
    unsigned vars = FR_EXPR_X | FR_EXPR_T | (f->ndims > 1 ? FR_EXPR_Y : 0) |
                    (f->ndims > 2 ? FR_EXPR_Z : 0);
    fr_expr *out;
    int rc = fr_expr_compile_fields(text, where, key, vars,
                                    f->nnames, f->names,
                                    f->phys ? f->phys->expr_consts : NULL,
                                    &out);
    if (rc) {
        free(lab);
        return rc;
    }
    f->exprs[f->nexprs] = out;
    f->labels[f->nexprs++] = lab;
    f->uses |= fr_expr_uses(out);
    return FRX_OK;
}

void an_fields_free(an_fields *f)
{
    for (size_t i = 0; i < f->nexprs; i++) {
        fr_expr_destroy(f->exprs[i]);
        free(f->labels[i]);
    }
    free(f->exprs);
    free(f->labels);
    free(f->names);
    memset(f, 0, sizeof *f);
}

void an_fields_const_args(const an_fields *f, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; f->phys && i < f->phys->nconsts && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, ", scalar fpdtype_t %s",
                               f->phys->consts[i].name);
}

size_t an_fields_bind_consts(const an_fields *f, frx_arg *a)
{
    size_t i = 0;
    for (; f->phys && i < f->phys->nconsts; i++)
        a[i] = frx_arg_scalar(f->phys->consts[i].value);
    return i;
}

/* A growing string (open_memstream). */
int an_fields_body(const an_fields *f, int precision, const char *head,
                   const char *tail, char **body)
{
    char *s = NULL;
    size_t len = 0;
    FILE *b = open_memstream(&s, &len);
    if (!b)
        return frx_error(FRX_ENOMEM, "%s: out of memory", f->who);
    if (head)
        fputs(head, b);
    fprintf(b, "enum { NVARS = %zu, NDIMS = %d, NAUX = 0 };\n", f->nvars,
            f->ndims);
    unsigned derived = 0;
    for (size_t i = 0; i < f->nderived; i++)
        derived |= 1u << (4 + f->nvars + i);
    if (f->uses & derived)
        fprintf(b, "fpdtype_t d[%zu];\n{ /* derived */\n%s\n}\n",
                f->nderived, f->phys->derived_src);
    fprintf(b, "fpdtype_t _e[%zu];\n", f->nexprs ? f->nexprs : 1);
    /* the names of x, y, z, t and the fields in the kernel */
    const char **names = calloc(4 + f->nnames, sizeof *names);
    char (*buf)[24] = calloc(4 + f->nnames, sizeof *buf);
    int rc = names && buf ? FRX_OK
                          : frx_error(FRX_ENOMEM, "%s: out of memory",
                                      f->who);
    for (int d = 0; !rc && d < 4; d++) {
        if (d < f->ndims)
            snprintf(buf[d], sizeof buf[d], "x[%d]", d);
        else if (d == 3)
            snprintf(buf[d], sizeof buf[d], "t");
        names[d] = d < f->ndims || d == 3 ? buf[d] : NULL;
    }
    for (size_t i = 0; !rc && i < f->nnames; i++) {
        snprintf(buf[4 + i], sizeof buf[4 + i], "%s[%zu]",
                 i < f->nvars ? "u" : "d",
                 i < f->nvars ? i : i - f->nvars);
        names[4 + i] = buf[4 + i];
    }
    for (size_t k = 0; !rc && k < f->nexprs; k++) {
        char *src = NULL;
        rc = fr_expr_emit(f->exprs[k], names, precision, &src);
        if (!rc)
            fprintf(b, "_e[%zu] = %s;\n", k, src);
        free(src);
    }
    free(names);
    free(buf);
    if (tail)
        fprintf(b, "%s\n", tail);
    if (fclose(b) || rc) {
        free(s);
        return rc ? rc : frx_error(FRX_ENOMEM, "%s: out of memory", f->who);
    }
    *body = s;
    return FRX_OK;
}
