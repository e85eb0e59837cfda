/* SPDX-License-Identifier: BSD-3-Clause */
/* Elements of one type moved between the ranks that hold them and the
 * ranks that own their range of global numbers (io-util.h): checkpoints
 * then read and write one contiguous run of rows per rank, in an order
 * that does not depend on the partition. */
#include "io/io-util.h"

#include <frx/frx.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void frx__route_free(struct frx__route *rt)
{
    free(rt->scount);
    free(rt->order);
    free(rt->gid);
    free(rt->slot);
    memset(rt, 0, sizeof *rt);
}

struct keyed {
    uint64_t gid;
    size_t at;
};

static int by_gid(const void *a, const void *b)
{
    uint64_t x = ((const struct keyed *)a)->gid;
    uint64_t y = ((const struct keyed *)b)->gid;
    return (x > y) - (x < y);
}

/* Counts per rank and the holder's send order (a counting sort by
 * owner). */
static int plan_sends(uint64_t chunk, const uint64_t *gid, size_t n,
                      struct frx__route *rt)
{
    int p = rt->nranks;
    if (n > INT_MAX)
        return frx_error(FRX_ERANGE, "more than %d elements of one type on "
                         "a rank: checkpoints cannot route them", INT_MAX);
    rt->scount = calloc(4 * (size_t)p, sizeof *rt->scount);
    rt->order = calloc(n ? n : 1, sizeof *rt->order);
    size_t *next = calloc((size_t)p, sizeof *next);
    if (!rt->scount || !rt->order || !next) {
        free(next);
        return frx_error(FRX_ENOMEM, "out of memory routing %zu elements",
                         n);
    }
    rt->sdisp = rt->scount + p;
    rt->rcount = rt->scount + 2 * p;
    rt->rdisp = rt->scount + 3 * p;
    for (size_t i = 0; i < n; i++)
        rt->scount[gid[i] / chunk]++;
    for (int r = 1; r < p; r++)
        rt->sdisp[r] = rt->sdisp[r - 1] + rt->scount[r - 1];
    for (int r = 0; r < p; r++)
        next[r] = (size_t)rt->sdisp[r];
    for (size_t i = 0; i < n; i++)
        rt->order[next[gid[i] / chunk]++] = i;
    free(next);
    rt->nsend = n;
    return FRX_OK;
}

/* The owned gids in ascending order and where each arrived. */
static int sort_owned(const uint64_t *rgid, struct frx__route *rt)
{
    size_t n = rt->nown;
    struct keyed *k = calloc(n ? n : 1, sizeof *k);
    rt->gid = calloc(n ? n : 1, sizeof *rt->gid);
    rt->slot = calloc(n ? n : 1, sizeof *rt->slot);
    if (!k || !rt->gid || !rt->slot) {
        free(k);
        return frx_error(FRX_ENOMEM, "out of memory sorting %zu elements",
                         n);
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (struct keyed){rgid[i], i};
    qsort(k, n, sizeof *k, by_gid);
    int rc = FRX_OK;
    for (size_t j = 0; j < n; j++) {
        rt->gid[j] = k[j].gid;
        rt->slot[j] = k[j].at;
        if (j && k[j].gid == k[j - 1].gid && !rc)
            rc = frx_error(FRX_EINVAL, "element %llu is held by two ranks "
                           "(or twice by one): the partition is broken",
                           (unsigned long long)k[j].gid);
    }
    free(k);
    return rc;
}

int frx__route_make(MPI_Comm comm, uint64_t chunk, const uint64_t *gid,
                    size_t n, struct frx__route *rt)
{
    memset(rt, 0, sizeof *rt);
    MPI_Comm_size(comm, &rt->nranks);
    int rc = plan_sends(chunk, gid, n, rt);
    uint64_t *sgid = NULL, *rgid = NULL;
    if (!rc) {
        sgid = calloc(n ? n : 1, sizeof *sgid);
        if (!sgid)
            rc = frx_error(FRX_ENOMEM, "out of memory routing elements");
        for (size_t i = 0; sgid && i < n; i++)
            sgid[i] = gid[rt->order[i]];
    }
    rc = frx__io_agree(comm, rc);
    if (!rc)
        MPI_Alltoall(rt->scount, 1, MPI_INT, rt->rcount, 1, MPI_INT, comm);
    if (!rc) {
        size_t total = 0;
        for (int r = 0; r < rt->nranks; r++) {
            rt->rdisp[r] = (int)total;
            total += (size_t)rt->rcount[r];
        }
        rt->nown = total;
        if (total > INT_MAX)
            rc = frx_error(FRX_ERANGE, "more than %d elements of one type "
                           "to one rank: checkpoints cannot route them",
                           INT_MAX);
        else if (!(rgid = calloc(total ? total : 1, sizeof *rgid)))
            rc = frx_error(FRX_ENOMEM, "out of memory routing elements");
        rc = frx__io_agree(comm, rc);
    }
    if (!rc) {
        MPI_Alltoallv(sgid, rt->scount, rt->sdisp, MPI_UINT64_T, rgid,
                      rt->rcount, rt->rdisp, MPI_UINT64_T, comm);
        rc = frx__io_agree(comm, sort_owned(rgid, rt));
    }
    if (!rc) {
        uint64_t mine = rt->nown;
        MPI_Exscan(&mine, &rt->row0, 1, MPI_UINT64_T, MPI_SUM, comm);
        MPI_Allreduce(&mine, &rt->nrows, 1, MPI_UINT64_T, MPI_SUM, comm);
        int rank;
        MPI_Comm_rank(comm, &rank);
        if (rank == 0) /* MPI_Exscan leaves rank 0's result undefined */
            rt->row0 = 0;
    }
    free(sgid);
    free(rgid);
    if (rc)
        frx__route_free(rt);
    return rc;
}

int frx__route_rows(MPI_Comm comm, const struct frx__route *rt, int back,
                    const void *in, void *out, size_t rowbytes)
{
    size_t n = rt->nown;
    unsigned char *tmp = calloc(n ? n : 1, rowbytes);
    MPI_Datatype row = MPI_DATATYPE_NULL;
    int rc = FRX_OK;
    if (!tmp)
        rc = frx_error(FRX_ENOMEM, "out of memory routing %zu rows of %zu "
                       "bytes", n, rowbytes);
    else if (rowbytes > INT_MAX ||
             MPI_Type_contiguous((int)rowbytes, MPI_BYTE, &row) !=
                 MPI_SUCCESS ||
             MPI_Type_commit(&row) != MPI_SUCCESS)
        rc = frx_error(FRX_EMPI, "cannot make an MPI type of rows of %zu "
                       "bytes", rowbytes);
    rc = frx__io_agree(comm, rc);
    if (!rc && !back) {
        MPI_Alltoallv(in, rt->scount, rt->sdisp, row, tmp, rt->rcount,
                      rt->rdisp, row, comm);
        for (size_t j = 0; j < n; j++)
            memcpy((unsigned char *)out + j * rowbytes,
                   tmp + rt->slot[j] * rowbytes, rowbytes);
    } else if (!rc) {
        for (size_t j = 0; j < n; j++)
            memcpy(tmp + rt->slot[j] * rowbytes,
                   (const unsigned char *)in + j * rowbytes, rowbytes);
        MPI_Alltoallv(tmp, rt->rcount, rt->rdisp, row, out, rt->scount,
                      rt->sdisp, row, comm);
    }
    if (row != MPI_DATATYPE_NULL)
        MPI_Type_free(&row);
    free(tmp);
    return rc;
}
