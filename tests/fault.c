/* SPDX-License-Identifier: BSD-3-Clause */
/* Fault injection for the tests, as an LD_PRELOAD library: nothing of
 * it is in libfrx. FRX_FAULT holds comma-separated faults, those with R
 * for one rank of MPI_COMM_WORLD (OMPI_COMM_WORLD_RANK):
 *
 *   start:R:N     the N-th MPI_Start on rank R fails (MPI_ERR_OTHER)
 *   views:R       frx_view_create on rank R fails (FRX_ENOMEM)
 *   mesh-periodic:R  frx_mesh_get_periodic on rank R fails (FRX_ENOMEM)
 *   recv-add:R:X  each receive rank R completes with MPI_Wait has X
 *                 added to its first value (a double)
 *   result:R:ARG  frx_kernel_result of a reduction named ARG on rank R
 *                 fails (FRX_EBACKEND)
 *   flock         flock() fails with ENOLCK, as on a file system
 *                 mounted without flock support
 *
 *   mpirun -x LD_PRELOAD=libfrx-fault.so -x FRX_FAULT=start:1:3 ... */
#include <frx/frx.h>
#include <frx/mesh.h>
#include <frx/plugin.h>

#include <dlfcn.h>
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Faults are for the process this library was preloaded into, not for
 * the programs it runs (the openmp backend's C compiler): its own entry
 * leaves LD_PRELOAD at load. Under the sanitizers an uninstrumented cc
 * died loading this instrumented library, a failed compile wherever a
 * kernel was not in the cache yet. */
__attribute__((constructor)) static void not_for_children(void)
{
    const char *all = getenv("LD_PRELOAD");
    if (!all || !strstr(all, "frx-fault"))
        return;
    char rest[4096] = "", *copy = strdup(all), *save = NULL;
    for (char *e = copy ? strtok_r(copy, ": ", &save) : NULL; e;
         e = strtok_r(NULL, ": ", &save))
        if (!strstr(e, "frx-fault") && strlen(rest) + strlen(e) + 2 <
                                           sizeof rest)
            snprintf(rest + strlen(rest), sizeof rest - strlen(rest), "%s%s",
                     rest[0] ? ":" : "", e);
    free(copy);
    if (rest[0])
        setenv("LD_PRELOAD", rest, 1);
    else
        unsetenv("LD_PRELOAD");
}

static int my_rank(void)
{
    const char *r = getenv("OMPI_COMM_WORLD_RANK");
    return r ? atoi(r) : -1;
}

/* The value of fault `name` for this rank ("N", "X"), or NULL. */
static const char *fault(const char *name, char *buf, size_t n)
{
    const char *all = getenv("FRX_FAULT");
    size_t len = strlen(name);
    for (const char *f = all; f && *f; f = strchr(f, ',') ? strchr(f, ',') + 1
                                                       : NULL) {
        if (strncmp(f, name, len) != 0 || f[len] != ':')
            continue;
        char *end;
        long r = strtol(f + len + 1, &end, 10);
        if (r != my_rank())
            continue;
        size_t k = strcspn(end, ",");
        snprintf(buf, n, "%.*s", (int)k, *end == ':' ? end + 1 : end);
        return buf;
    }
    return NULL;
}

/* Is fault `name` (one without a rank) in FRX_FAULT? */
static int fault_all(const char *name)
{
    const char *all = getenv("FRX_FAULT");
    size_t len = strlen(name);
    for (const char *f = all; f && *f; f = strchr(f, ',') ? strchr(f, ',') + 1
                                                       : NULL)
        if (strncmp(f, name, len) == 0 && (f[len] == ',' || !f[len]))
            return 1;
    return 0;
}

#define REAL(fn, type) ((type)dlsym(RTLD_NEXT, #fn))

int flock(int fd, int op)
{
    if (fault_all("flock")) {
        errno = ENOLCK;
        return -1;
    }
    return REAL(flock, int (*)(int, int))(fd, op);
}

int MPI_Start(MPI_Request *req)
{
    static long calls;
    char buf[32];
    const char *n = fault("start", buf, sizeof buf);
    if (n && ++calls == atol(n)) {
        fprintf(stderr, "fault.c: rank %d: MPI_Start number %ld fails\n",
                my_rank(), calls);
        return MPI_ERR_OTHER;
    }
    return REAL(MPI_Start, int (*)(MPI_Request *))(req);
}

/* Receives' buffers, by request, for recv-add. */
static struct {
    MPI_Request req;
    void *buf;
} recvs[64];
static int nrecvs;

int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int src, int tag,
                  MPI_Comm comm, MPI_Request *req)
{
    int rc = REAL(MPI_Recv_init, int (*)(void *, int, MPI_Datatype, int, int,
                                         MPI_Comm, MPI_Request *))(
        buf, count, type, src, tag, comm, req);
    if (rc == MPI_SUCCESS && nrecvs < 64)
        recvs[nrecvs].req = *req, recvs[nrecvs++].buf = buf;
    return rc;
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    MPI_Request r = *req;
    int rc = REAL(MPI_Wait, int (*)(MPI_Request *, MPI_Status *))(req,
                                                                  status);
    char buf[32];
    const char *x = fault("recv-add", buf, sizeof buf);
    for (int i = 0; x && rc == MPI_SUCCESS && i < nrecvs; i++)
        if (recvs[i].req == r)
            *(double *)recvs[i].buf += atof(x);
    return rc;
}

int frx_view_create(frx_backend *be, size_t n, frx_matrix *const *mats,
                    const size_t *rows, const size_t *eles,
                    const size_t *rstrides, size_t nvrow, size_t nvcol,
                    frx_view **out)
{
    char buf[8];
    if (fault("views", buf, sizeof buf))
        return frx_error(FRX_ENOMEM, "frx_view_create: out of memory for "
                         "%zu points (injected by tests/mpi/fault.c)", n);
    typedef int (*fn)(frx_backend *, size_t, frx_matrix *const *,
                      const size_t *, const size_t *, const size_t *, size_t,
                      size_t, frx_view **);
    return REAL(frx_view_create, fn)(be, n, mats, rows, eles, rstrides, nvrow,
                                     nvcol, out);
}

int frx_mesh_get_periodic(const frx_mesh *m, size_t i, frx_mesh_periodic *out)
{
    char buf[8];
    if (fault("mesh-periodic", buf, sizeof buf))
        return frx_error(FRX_ENOMEM, "frx_mesh_get_periodic: injected out "
                         "of memory (tests/fault.c)");
    typedef int (*fn)(const frx_mesh *, size_t, frx_mesh_periodic *);
    return REAL(frx_mesh_get_periodic, fn)(m, i, out);
}

int frx_kernel_result(frx_kernel *k, const char *arg, double *values,
                      size_t n)
{
    char buf[64];
    const char *a = fault("result", buf, sizeof buf);
    if (a && arg && !strcmp(a, arg))
        return frx_error(FRX_EBACKEND, "frx_kernel_result of '%s': the "
                         "backend failed (injected by tests/fault.c)", arg);
    typedef int (*fn)(frx_kernel *, const char *, double *, size_t);
    return REAL(frx_kernel_result, fn)(k, arg, values, n);
}
