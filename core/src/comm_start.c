/* Start-up across ranks: every rank's backend, one precision, and how
 * MPI reaches device memory, agreed before any work. */
#include "frx-impl.h"

#include <dlfcn.h>
#include <frx/comm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What each rank tells the others. */
struct status {
    int rc, precision;
    char host[64];
    char msg[440];
};

/* Does the MPI library take device pointers of this kind? Asked at run
 * time: MPIX_Query_*_support exist only in some builds of some MPIs. */
static int mpi_takes(const char *kind, char *why, size_t n)
{
    char fn[64];
    snprintf(fn, sizeof fn, "MPIX_Query_%s_support", kind);
    int (*query)(void);
    *(void **)&query = dlsym(RTLD_DEFAULT, fn);
    if (!query) {
        snprintf(why, n, "this MPI library has no %s(): it cannot be asked "
                 "whether it accepts %s memory", fn, kind);
        return 0;
    }
    if (!query()) {
        snprintf(why, n, "%s() says this MPI library was built without %s "
                 "support", fn, kind);
        return 0;
    }
    return 1;
}

static int resolve_mpi_mode(const frx_config *cfg, frx_backend *be)
{
    int want;
    int rc = frx_cfg_enum(frx_config_root(cfg), "backend.mpi",
                          "auto|device-aware|host-staged", 0, &want);
    if (rc)
        return rc;
    char why[300] = "";
    int can;
    if (be->info.host_accessible) {
        can = 1;
        snprintf(why, sizeof why, "the device is the host: no copies");
    } else if (be->info.mpi_device_kind) {
        can = mpi_takes(be->info.mpi_device_kind, why, sizeof why);
    } else {
        can = 0;
        snprintf(why, sizeof why, "backend '%s' cannot hand MPI a device "
                 "pointer", be->name);
    }
    if (want == 1 && !can)
        return frx_error(FRX_EUNAVAIL, "backend.mpi is device-aware but %s: "
                         "use auto or host-staged", why);
    be->mpi_mode = want == 2 || !can ? FRX_MPI_HOST_STAGED
                                     : FRX_MPI_DEVICE_AWARE;
    frx_log(FRX_LOG_INFO, "MPI transfers: %s (%s%s)",
            be->mpi_mode == FRX_MPI_HOST_STAGED ? "host-staged"
                                                : "device-aware",
            want == 0 ? "auto: " : "as configured; ", why);
    return FRX_OK;
}

int frx_backend_mpi_mode(const frx_backend *be) { return be->mpi_mode; }

/* The message every rank returns when some rank failed. */
static int report_failures(const struct status *all, int size)
{
    int nbad = 0, code = FRX_EUNAVAIL;
    for (int r = 0; r < size; r++)
        if (all[r].rc) {
            nbad++;
            if (all[r].rc == FRX_ECONFIG)
                code = FRX_ECONFIG;
        }
    frx_error(code, "backend start-up failed on %d of %d rank(s):", nbad,
              size);
    for (int r = 0; r < size; r++)
        if (all[r].rc)
            frx__error_append(code, "  rank %d (%s): %s", r, all[r].host,
                              all[r].msg);
    return code;
}

static int report_precisions(const struct status *all, int size)
{
    frx_error(FRX_ECONFIG, "ranks disagree on precision; make "
              "backend.precision and every backend.rules precision the "
              "same:");
    for (int r = 0; r < size; r++)
        frx__error_append(FRX_ECONFIG, "  rank %d (%s): %s", r, all[r].host,
                          all[r].precision == FRX_SINGLE ? "single"
                                                         : "double");
    return FRX_ECONFIG;
}

int frx_backend_create_all(const frx_config *cfg, MPI_Comm comm,
                           frx_backend **out)
{
    if (!cfg || !out)
        return frx_error(FRX_EINVAL, "frx_backend_create_all: NULL argument");
    *out = NULL;
    int rank, size;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return frx_error(FRX_EMPI, "frx_backend_create_all: MPI is not "
                         "started (call MPI_Init first)");
    frx_backend *be = NULL;
    int rc = frx_backend_create(cfg, &be);
    if (rc == FRX_OK)
        rc = resolve_mpi_mode(cfg, be);

    struct status mine = {.rc = rc, .precision = be ? be->precision : 0};
    if (gethostname(mine.host, sizeof mine.host) != 0)
        snprintf(mine.host, sizeof mine.host, "unknown-host");
    mine.host[sizeof mine.host - 1] = '\0';
    if (rc)
        snprintf(mine.msg, sizeof mine.msg, "%s", frx_errmsg());
    struct status *all = frx__calloc((size_t)size, sizeof *all, "statuses");
    if (!all) { /* a few bytes per rank: not worth a collective escape */
        frx_backend_destroy(be);
        return FRX_ENOMEM;
    }
    int err = MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine,
                            MPI_BYTE, comm);
    if (err != MPI_SUCCESS) {
        free(all);
        frx_backend_destroy(be);
        return frx_error(FRX_EMPI, "start-up: MPI_Allgather failed");
    }
    int anybad = 0, mixed = 0;
    for (int r = 0; r < size; r++) {
        anybad |= all[r].rc != 0;
        mixed |= all[r].precision != all[0].precision;
    }
    rc = anybad ? report_failures(all, size)
       : mixed  ? report_precisions(all, size)
                : FRX_OK;
    free(all);
    if (rc) {
        frx_backend_destroy(be);
        return rc;
    }
    *out = be;
    return FRX_OK;
}
