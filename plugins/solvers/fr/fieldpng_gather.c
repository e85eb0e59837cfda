/* SPDX-License-Identifier: BSD-3-Clause */
/* fr_png_write_gather: every rank's points to root (MPI_Gatherv), the
 * picture written there, and one status for all ranks. Each collective
 * step is entered by every rank with the status so far (frx_comm_agree),
 * so a failure on any rank stops all of them together. */
#include "fieldpng.h"

#include <frx/plugin.h>

#include <limits.h>
#include <stdlib.h>

static int mpi_fail(int err, const char *what)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(err, s, &len);
    return frx_error(FRX_EMPI, "gathering the picture's points: %s: %s",
                     what, s);
}

int fr_png_write_gather(MPI_Comm comm, int root, const char *path, size_t n,
                        const double *xy, const double *val,
                        const fr_png_opts *o)
{
    int rank, size, rc = FRX_OK, err;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (n > INT_MAX / 2)
        rc = frx_error(FRX_ERANGE, "%zu points on one rank: at most %d can "
                       "be gathered for a picture", n, INT_MAX / 2);
    int cnt = rc ? 0 : (int)n, *counts = NULL, *displs = NULL;
    double *all_xy = NULL, *all_val = NULL;
    size_t total = 0;
    if (rank == root) {
        counts = calloc((size_t)size * 2, sizeof *counts);
        displs = calloc((size_t)size * 2, sizeof *displs);
        if ((!counts || !displs) && !rc)
            rc = frx_error(FRX_ENOMEM, "out of memory gathering %s", path);
    }
    if ((rc = frx_comm_agree(comm, rc, "gathering the picture's points")))
        goto out;
    if ((err = MPI_Gather(&cnt, 1, MPI_INT, counts, 1, MPI_INT, root, comm)))
        rc = mpi_fail(err, "MPI_Gather");
    if (!rc && rank == root) {
        for (int r = 0; r < size; r++)
            total += (size_t)counts[r];
        if (total > INT_MAX / 2)
            rc = frx_error(FRX_ERANGE, "%zu points in all: at most %d can be "
                           "gathered for a picture", total, INT_MAX / 2);
        all_xy = malloc((total ? total : 1) * 2 * sizeof *all_xy);
        all_val = malloc((total ? total : 1) * sizeof *all_val);
        if ((!all_xy || !all_val) && !rc)
            rc = frx_error(FRX_ENOMEM, "out of memory for %zu points of %s",
                           total, path);
    }
    if ((rc = frx_comm_agree(comm, rc, "gathering the picture's points")))
        goto out;
    if (rank == root)
        for (int r = 0, at = 0; r < size; at += counts[r++]) {
            displs[r] = at;                /* values */
            counts[size + r] = 2 * counts[r]; /* coordinates */
            displs[size + r] = 2 * at;
        }
    err = MPI_Gatherv(val, cnt, MPI_DOUBLE, all_val, counts, displs,
                      MPI_DOUBLE, root, comm);
    if (!err)
        err = MPI_Gatherv(xy, 2 * cnt, MPI_DOUBLE, all_xy,
                          rank == root ? counts + size : NULL,
                          rank == root ? displs + size : NULL, MPI_DOUBLE,
                          root, comm);
    if (err)
        rc = mpi_fail(err, "MPI_Gatherv");
    if (!rc && rank == root)
        rc = fr_png_write(path, total, all_xy, all_val, o);
    rc = frx_comm_agree(comm, rc, "writing the picture");
out:
    free(counts);
    free(displs);
    free(all_xy);
    free(all_val);
    return rc;
}
