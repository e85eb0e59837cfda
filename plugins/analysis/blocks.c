/* SPDX-License-Identifier: BSD-3-Clause */
/* The solver's blocks on the backend for the analysis plugins
 * (analysis.h): coordinates and quadrature weights as matrices, kernels
 * bound per register of u, and reductions over blocks and ranks. */
#include "analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const frx_solver_block *block_at(const frx_extension_init *init,
                                        size_t i)
{
    return (const frx_solver_block *)((const char *)init->blocks +
                                      i * init->block_size);
}

/* [neles][nupts][ncol] doubles as a matrix of nupts rows, ncol
 * variables. */
static int upload(frx_backend *be, const double *src, size_t neles,
                  size_t nupts, size_t ncol, frx_matrix **out)
{
    double *host = malloc(neles * nupts * ncol * sizeof *host + 1);
    if (!host)
        return frx_error(FRX_ENOMEM, "out of memory");
    fr_to_matrix_layout(src, neles, nupts, ncol, host);
    int rc = frx_matrix_create(be, nupts, ncol, neles, out);
    if (!rc)
        rc = frx_matrix_write_double(*out, host);
    free(host);
    return rc;
}

int an_blocks_create(const frx_extension_init *init, const char *who,
                     an_block **out)
{
    /* A solver without an exact solution gives the core no weights (it
     * has no error norms); an FR solver's geometry has them still. */
    fr_system *sys = NULL;
    frx_ext_handle(init->ext, "fr.system", "fr_system", (void **)&sys);
    *out = calloc(init->nblocks ? init->nblocks : 1, sizeof **out);
    if (!*out)
        return frx_error(FRX_ENOMEM, "%s: out of memory", who);
    if (init->ndims < 1)
        return frx_error(FRX_EINVAL, "%s: solver '%s' has no mesh "
                         "coordinates to work on", who, init->solver);
    int rc = FRX_OK;
    for (size_t i = 0; i < init->nblocks && !rc; i++) {
        const frx_solver_block *sb = block_at(init, i);
        an_block *b = &(*out)[i];
        b->nupts = sb->nupts;
        b->neles = sb->neles;
        const double *qw = sb->qweights;
        if (!qw && sys && i < fr_system_nblocks(sys))
            qw = fr_system_geometry(sys, i)->qwts;
        if (!qw || !sb->upts)
            return frx_error(FRX_EINVAL, "%s: solver '%s' gives no "
                             "quadrature weights for its block %zu, which "
                             "this plugin integrates with", who,
                             init->solver, i);
        if (!sb->neles)
            continue;
        rc = upload(init->backend, sb->upts, sb->neles, sb->nupts,
                    (size_t)init->ndims, &b->x);
        if (!rc)
            rc = upload(init->backend, qw, sb->neles, sb->nupts, 1, &b->w);
    }
    return rc;
}

void an_blocks_destroy(an_block *b, size_t n)
{
    for (size_t i = 0; b && i < n; i++) {
        frx_matrix_destroy(b[i].x);
        frx_matrix_destroy(b[i].w);
    }
    free(b);
}

int an_binds_get(an_binds *b, frx_matrix *const *u, an_bind_fn bind,
                 void *ud, frx_kernel ***out)
{
    for (size_t r = 0; r < b->n; r++)
        if (b->u0[r] == u[0]) {
            *out = b->k[r];
            return FRX_OK;
        }
    if (b->n == AN_MAX_REGS)
        return frx_error(FRX_EINVAL, "the solver keeps u in more than %d "
                         "registers", AN_MAX_REGS);
    frx_kernel **k = calloc(b->nblocks ? b->nblocks : 1, sizeof *k);
    if (!k)
        return frx_error(FRX_ENOMEM, "out of memory");
    int rc = FRX_OK;
    for (size_t i = 0; i < b->nblocks && !rc; i++)
        rc = bind(ud, i, u, &k[i]);
    b->u0[b->n] = u[0];
    b->k[b->n++] = k; /* freed with the others, half-made or not */
    *out = k;
    return rc;
}

void an_binds_free(an_binds *b)
{
    for (size_t r = 0; r < b->n; r++) {
        for (size_t i = 0; i < b->nblocks; i++)
            frx_kernel_destroy(b->k[r][i]);
        free(b->k[r]);
    }
    b->n = 0;
}

int an_run(frx_kernel *const *k, size_t nblocks)
{
    int rc = FRX_OK;
    for (size_t i = 0; i < nblocks && !rc; i++)
        if (k[i])
            rc = frx_kernel_run(k[i]);
    return rc;
}

int an_fold_values(double *mine, size_t n, MPI_Op op, MPI_Comm comm,
                   int failed, double *out)
{
    mine[n] = failed ? 1 : 0; /* a flag any of the three ops keeps */
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (MPI_Reduce(mine, out, (int)n + 1, MPI_DOUBLE, op, 0, comm) !=
        MPI_SUCCESS)
        return frx_error(FRX_EMPI, "MPI_Reduce of %zu values failed", n + 1);
    return rank == 0 && out[n] != 0 ? AN_PEER_FAILED : FRX_OK;
}

int an_fold(frx_kernel *const *k, size_t nblocks, const char *arg, size_t n,
            MPI_Op op, MPI_Comm comm, double *out)
{
    double *mine = calloc(2 * n + 2, sizeof *mine), *r = mine + n + 1;
    if (!mine) { /* take part all the same, flagged: the others wait */
        out[n] = 1;
        int rank;
        MPI_Comm_rank(comm, &rank);
        MPI_Reduce(rank ? out : MPI_IN_PLACE, rank ? NULL : out, (int)n + 1,
                   MPI_DOUBLE, op, 0, comm);
        return frx_error(FRX_ENOMEM, "out of memory");
    }
    int rc = FRX_OK;
    for (size_t v = 0; v < n; v++)
        mine[v] = op == MPI_MAX ? -INFINITY : 0;
    for (size_t i = 0; k && i < nblocks && !rc; i++) {
        if (!k[i])
            continue;
        rc = frx_kernel_result(k[i], arg, r, n);
        for (size_t v = 0; v < n && !rc; v++)
            mine[v] = op == MPI_MAX ? fmax(mine[v], r[v]) : mine[v] + r[v];
    }
    /* every rank, whatever rc: the others take part (the hook's status
     * is agreed after); to rank 0 alone, which writes: the others need
     * not wait for it. k NULL: this rank's kernels failed */
    int rf = an_fold_values(mine, n, op, comm, !k || rc, out);
    free(mine);
    return rc ? rc : rf;
}

void an_kernel_name(const char *base, const char *args, const char *body,
                    char *out, size_t n)
{
    size_t la = strlen(args), lb = strlen(body);
    char *both = malloc(la + lb + 2), hex[65] = "0";
    if (both) {
        memcpy(both, args, la);
        both[la] = '\n';
        memcpy(both + la + 1, body, lb + 1);
        frx_sha256_hex(both, la + lb + 1, hex);
        free(both);
    }
    snprintf(out, n, "%s_%.12s", base, hex);
}

int an_element_view(frx_backend *be, frx_matrix *u, size_t n,
                    const size_t *eles, size_t nvars, frx_view **out)
{
    frx_matrix **mats = malloc((n + 1) * sizeof *mats);
    size_t *rows = calloc(n + 1, sizeof *rows);
    size_t *str = malloc((n + 1) * sizeof *str);
    int rc = mats && rows && str ? FRX_OK
                                 : frx_error(FRX_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < n; i++) {
        mats[i] = u;
        str[i] = 1;
    }
    if (!rc)
        rc = frx_view_create(be, n, mats, rows, eles, str, frx_matrix_nrow(u),
                             nvars, out);
    free(mats);
    free(rows);
    free(str);
    return rc;
}

void an_interp_text(char *buf, size_t len, size_t nupts, size_t nvars)
{
    snprintf(buf, len,
             "fpdtype_t u[%zu];\n"
             "for (int _v = 0; _v < %zu; _v++) {\n"
             "    fpdtype_t _s = 0;\n"
             "    for (int _j = 0; _j < %zu; _j++)\n"
             "        _s += l[_j]*uv[_j][_v];\n"
             "    u[_v] = _s;\n"
             "}\n", nvars, nvars, nupts);
}
