/* SPDX-License-Identifier: BSD-3-Clause */
/* `profile: true`: where a run's time goes. Every graph node, and every
 * kernel or product run outside a graph, is timed with the backend
 * synchronised after it (so an asynchronous device's time lands on the
 * node that spent it; openmp runs no batches), summed per label: the
 * kernel's name, the product's, pack, unpack, MPI start, MPI wait or
 * host. frx run prints the table on rank 0 at the end, summed over the
 * ranks, and on more than one rank the busiest and idlest rank's time.
 * The synchronisations cost time of their own, so a profiled run is
 * slower; the shares are what it is for. */
#include "data/data-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct frx__prof_entry {
    char label[64];
    int kind; /* enum frx__prof_kind */
    uint64_t calls;
    double secs;
};

struct frx__profile {
    struct frx__prof_entry *e;
    size_t n, cap;
    int active; /* inside the time loop: what the shares are of */
};

static const char *const kind_names[] = {"kernel", "product", "pack",
                                         "unpack", "MPI", "host"};

int frx__profile_enable(frx_backend *be)
{
    if (be->prof)
        return FRX_OK;
    be->prof = frx__calloc(1, sizeof *be->prof, "the profile");
    return be->prof ? FRX_OK : FRX_ENOMEM;
}

void frx__profile_free(frx_backend *be)
{
    if (be->prof)
        free(be->prof->e);
    free(be->prof);
    be->prof = NULL;
}

int frx__profile_slot(frx_backend *be, int kind, const char *label)
{
    struct frx__profile *p = be->prof;
    for (size_t i = 0; i < p->n; i++)
        if (p->e[i].kind == kind && strcmp(p->e[i].label, label) == 0)
            return (int)i;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 32;
        struct frx__prof_entry *e = realloc(p->e, cap * sizeof *e);
        if (!e)
            return frx_error(FRX_ENOMEM, "out of memory for the profile");
        p->e = e, p->cap = cap;
    }
    struct frx__prof_entry *e = &p->e[p->n];
    *e = (struct frx__prof_entry){.kind = kind};
    snprintf(e->label, sizeof e->label, "%s", label);
    return (int)p->n++;
}

void frx__profile_active(frx_backend *be, int on)
{
    if (be->prof)
        be->prof->active = on;
}

int frx__profile_time(frx_backend *be, int slot, double t0, int rc)
{
    if (rc == FRX_OK)
        rc = frx_backend_sync(be);
    if (!be->prof->active) /* set-up, output, norms: not counted */
        return rc;
    struct frx__prof_entry *e = &be->prof->e[slot];
    e->secs += frx__now() - t0;
    e->calls++;
    return rc;
}

static int by_time(const void *a, const void *b)
{
    double x = ((const struct frx__prof_entry *)a)->secs,
           y = ((const struct frx__prof_entry *)b)->secs;
    return (x < y) - (x > y);
}

/* Rank 0's table: entries of every rank with the same kind and label
 * summed. */
static void print_table(struct frx__prof_entry *all, size_t n, int nranks,
                        double wall)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < m && !(all[j].kind == all[i].kind &&
                          strcmp(all[j].label, all[i].label) == 0))
            j++;
        if (j == m)
            all[m++] = all[i];
        else
            all[j].calls += all[i].calls, all[j].secs += all[i].secs;
    }
    qsort(all, m, sizeof *all, by_time);
    double total = wall > 0 ? wall : 1e-9, kinds[6] = {0};
    double own = 0, timed = 0;
    printf("frx: profile: seconds summed over %d rank%s, shares of %.3f s "
           "(the wall time of each rank's time loop, summed); every node "
           "timed with the "
           "backend synchronised after it\n", nranks, nranks > 1 ? "s" : "",
           total);
    printf("frx:   %6s %10s %10s  %-7s %s\n", "share", "seconds", "calls",
           "kind", "name");
    for (size_t i = 0; i < m; i++) {
        printf("frx:   %5.1f%% %10.4f %10llu  %-7s %s\n",
               100 * all[i].secs / total, all[i].secs,
               (unsigned long long)all[i].calls, kind_names[all[i].kind],
               all[i].label);
        kinds[all[i].kind] += all[i].secs;
        timed += all[i].secs;
        if (all[i].kind == FRX__PROF_KERNEL &&
            strncmp(all[i].label, "frx.", 4) == 0)
            own += all[i].secs;
    }
    printf("frx:   by kind: kernels %.1f%% (of which frx's own, the time "
           "integration and checks: %.1f%%), products %.1f%%, exchange "
           "(pack, unpack, MPI) %.1f%%, host %.1f%%, outside the timed "
           "nodes %.1f%%\n", 100 * kinds[FRX__PROF_KERNEL] / total,
           100 * own / total, 100 * kinds[FRX__PROF_PRODUCT] / total,
           100 * (kinds[FRX__PROF_PACK] + kinds[FRX__PROF_UNPACK] +
                  kinds[FRX__PROF_MPI]) / total,
           100 * kinds[FRX__PROF_HOST] / total, 100 * (total - timed) / total);
    fflush(stdout);
}

/* The time each rank spent in its timed nodes other than MPI waits: in
 * a step every rank waits for the slowest, so max/min says how much an
 * uneven load or an uneven machine costs (a slower core, a busier rank). */
static double busy_time(const struct frx__profile *p)
{
    double busy = 0;
    for (size_t i = 0; i < p->n; i++)
        if (!(p->e[i].kind == FRX__PROF_MPI &&
              strcmp(p->e[i].label, "MPI wait") == 0))
            busy += p->e[i].secs;
    return busy;
}

static void print_balance(const double *busy, int nranks)
{
    int lo = 0, hi = 0;
    for (int r = 1; r < nranks; r++) {
        if (busy[r] < busy[lo])
            lo = r;
        if (busy[r] > busy[hi])
            hi = r;
    }
    printf("frx:   busy time per rank (timed nodes but MPI waits): max "
           "%.4f s (rank %d), min %.4f s (rank %d), max/min %.3f\n",
           busy[hi], hi, busy[lo], lo,
           busy[lo] > 0 ? busy[hi] / busy[lo] : 1.0);
    fflush(stdout);
}

int frx__profile_report(frx_backend *be, MPI_Comm comm, double wall)
{
    if (!be->prof)
        return FRX_OK;
    int rank, nranks;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nranks);
    const struct frx__profile *p = be->prof;
    int mine = (int)(p->n * sizeof *p->e), *bytes = NULL, *at = NULL;
    double busy = busy_time(p), *busies = NULL;
    if (rank == 0) {
        bytes = frx__calloc((size_t)nranks, sizeof *bytes, "the profile");
        at = frx__calloc((size_t)nranks, sizeof *at, "the profile");
        busies = frx__calloc((size_t)nranks, sizeof *busies, "the profile");
    }
    /* every rank takes part in both collectives, whatever rank 0 has */
    MPI_Gather(&mine, 1, MPI_INT, bytes, 1, MPI_INT, 0, comm);
    /* each rank's nodes against its own loop's time: the ranks' loops
     * do not start and end at the same moment */
    double walls = 0;
    MPI_Reduce(&wall, &walls, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
    size_t total = 0;
    for (int r = 0; rank == 0 && bytes && at && r < nranks; r++) {
        at[r] = (int)total;
        total += (size_t)bytes[r];
    }
    struct frx__prof_entry *all =
        rank == 0 ? malloc(total ? total : 1) : NULL;
    int ok = rank != 0 || (bytes && at && busies && all);
    MPI_Bcast(&ok, 1, MPI_INT, 0, comm); /* rank 0 has room, or none send */
    if (ok) {
        MPI_Gatherv(p->e, mine, MPI_BYTE, all, bytes, at, MPI_BYTE, 0, comm);
        MPI_Gather(&busy, 1, MPI_DOUBLE, busies, 1, MPI_DOUBLE, 0, comm);
    }
    if (rank == 0 && ok) {
        print_table(all, total / sizeof *all, nranks, walls);
        if (nranks > 1)
            print_balance(busies, nranks);
    }
    free(all), free(bytes), free(at), free(busies);
    return ok ? FRX_OK : FRX_ENOMEM;
}
