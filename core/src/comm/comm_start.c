/* SPDX-License-Identifier: BSD-3-Clause */
/* Start-up across ranks: every rank's backend, one precision, and how
 * MPI reaches device memory, agreed before any work. */
#include "comm/comm-impl.h"

#include <dlfcn.h>
#include <frx/comm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What a rank tells the others when a set-up step went wrong
 * somewhere: gathered only then, since a set-up that goes well agrees
 * with one small reduction. */
struct status {
    int rc, precision;
    int agreed;     /* its message reports other ranks' failures */
    char host[64];
    char file[96];  /* the case file it read */
    char case_hash[17];
    char msg[1020];
};

static void status_init(struct status *st, int rc)
{
    memset(st, 0, sizeof *st);
    st->rc = rc;
    if (gethostname(st->host, sizeof st->host) != 0)
        snprintf(st->host, sizeof st->host, "unknown-host");
    st->host[sizeof st->host - 1] = '\0';
    if (rc) {
        snprintf(st->msg, sizeof st->msg, "%s", frx_errmsg());
        st->agreed = frx__error_is_agreed();
    }
}

/* Every rank's status. Collective; a rank that cannot hold them all
 * says so first, so that all return the same error. */
static int gather_all(MPI_Comm comm, const struct status *mine, int size,
                      struct status **out)
{
    struct status *all = calloc((size_t)size, sizeof *all);
    int nobuf = !all, anynobuf = 1;
    int err = MPI_Allreduce(&nobuf, &anynobuf, 1, MPI_INT, MPI_MAX, comm);
    if (err == MPI_SUCCESS && !anynobuf)
        err = MPI_Allgather(mine, sizeof *mine, MPI_BYTE, all, sizeof *mine,
                            MPI_BYTE, comm);
    if (err != MPI_SUCCESS || anynobuf) {
        free(all);
        return err != MPI_SUCCESS
                   ? frx_error(FRX_EMPI, "set-up: MPI_Allgather of the "
                               "ranks' statuses failed")
                   : frx_error(FRX_ENOMEM, "set-up: a rank is out of memory "
                               "for the %zu bytes of every rank's status",
                               (size_t)size * sizeof *all);
    }
    *out = all;
    return FRX_OK;
}

/* msg with every line after the first indented by 4 more spaces, after
 * "  rank R: " (a reason of several lines stays under its rank). */
static void append_reason(int code, const char *head, const char *msg)
{
    char buf[2048];
    size_t k = 0;
    for (const char *c = msg; *c && k + 6 < sizeof buf; c++) {
        buf[k++] = *c;
        if (*c == '\n' && c[1])
            for (int i = 0; i < 4; i++)
                buf[k++] = ' ';
    }
    buf[k] = '\0';
    frx__error_append(code, "%s%s", head, buf);
}

/* The message every rank returns when some rank failed: each failing
 * rank's reason, with its host's name or (hosts 0) without. A rank that
 * failed only by an earlier agreement (its message a copy of the
 * others' reasons) is left out where a rank failed by itself; where
 * none did, that earlier report is the reason. */
static int report_failures(const struct status *all, int size,
                           const char *what, int code, int hosts)
{
    int nown = 0, first = -1;
    for (int r = 0; r < size; r++) {
        nown += all[r].rc && !all[r].agreed;
        if (all[r].rc && first < 0)
            first = r;
    }
    if (!nown) {
        frx_error(code, "%s failed: %s", what, all[first].msg);
        frx__error_mark_agreed();
        return code;
    }
    frx_error(code, "%s failed on %d of %d rank(s):", what, nown, size);
    for (int r = 0; r < size; r++) {
        char head[96];
        if (!all[r].rc || all[r].agreed)
            continue;
        if (hosts)
            snprintf(head, sizeof head, "  rank %d (%s): ", r, all[r].host);
        else
            snprintf(head, sizeof head, "  rank %d: ", r);
        append_reason(code, head, all[r].msg);
    }
    return code;
}

/* frx_comm_agree and frx__agree: the same collectives (so that ranks in
 * one and in the other still match), their messages with or without
 * the failing ranks' hosts. */
static int agree(MPI_Comm comm, int rc, const char *what, int hosts)
{
    int rank, size;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return frx_error(FRX_EMPI, "%s: not a communicator, or MPI is not "
                         "started", what);
    int bad = rc != FRX_OK, anybad = 1;
    if (MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, comm) !=
        MPI_SUCCESS)
        return frx_error(FRX_EMPI, "%s: MPI_Allreduce failed", what);
    if (!anybad)
        return FRX_OK;
    struct status mine, *all;
    status_init(&mine, rc);
    int grc = gather_all(comm, &mine, size, &all);
    if (grc)
        return bad ? rc : grc; /* a failing rank keeps its own reason */
    int code = FRX_OK; /* the first failing rank's */
    for (int r = 0; r < size && !code; r++)
        code = all[r].rc;
    report_failures(all, size, what, code, hosts);
    if (!bad) /* a copy of the others' reasons */
        frx__error_mark_agreed();
    free(all);
    return code;
}

int frx_comm_agree(MPI_Comm comm, int rc, const char *what)
{
    return agree(comm, rc, what ? what : "set-up", 1);
}

int frx__agree(MPI_Comm comm, int rc, const char *what)
{
    return agree(comm, rc, what, 0);
}

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

/* ------------------------------------------------------ the case hash */

/* Every rank must run the same case; backend.rules alone may differ
 * (a rank's rule is its own business). The hash is over the tree, not
 * the text, with each mapping's keys in sorted order: comments, layout
 * and the order keys are written in do not count. */
struct keyed {
    const char *key;
    size_t i;
};

static int by_key(const void *a, const void *b)
{
    return strcmp(((const struct keyed *)a)->key,
                  ((const struct keyed *)b)->key);
}

static void hash_node(frx__sha256 *s, const frx_cfgnode *n, int top)
{
    unsigned char t = (unsigned char)frx_cfg_type(n);
    frx__sha256_update(s, &t, 1);
    if (t == FRX_CFG_SCALAR) {
        const char *v = frx_cfg_scalar(n);
        frx__sha256_update(s, v, strlen(v) + 1);
        return;
    }
    uint64_t len = frx_cfg_len(n), counted = len;
    if (top == 1 && frx_cfg_get(n, "rules"))
        counted--; /* backend.rules */
    frx__sha256_update(s, &counted, sizeof counted);
    struct keyed *order = t == FRX_CFG_MAP && len
                              ? malloc(len * sizeof *order) : NULL;
    for (size_t i = 0; order && i < len; i++)
        order[i] = (struct keyed){frx_cfg_key_at(n, i), i};
    if (order) /* without memory: written order, at worst a false alarm */
        qsort(order, len, sizeof *order, by_key);
    for (size_t k = 0; k < len; k++) {
        size_t i = order ? order[k].i : k;
        const char *key = t == FRX_CFG_MAP ? frx_cfg_key_at(n, i) : NULL;
        if (top == 1 && key && strcmp(key, "rules") == 0)
            continue;
        if (key)
            frx__sha256_update(s, key, strlen(key) + 1);
        hash_node(s, frx_cfg_at(n, i),
                  top == 2 && key && strcmp(key, "backend") == 0);
    }
    free(order);
}

static void case_hash(const frx_config *cfg, uint64_t out[4])
{
    frx__sha256 s;
    unsigned char md[32];
    frx__sha256_init(&s);
    hash_node(&s, frx_config_root(cfg), 2);
    frx__sha256_final(&s, md);
    memcpy(out, md, sizeof md);
}

static int report_cases(const struct status *all, int size)
{
    frx_error(FRX_ECONFIG, "the ranks read different cases (every rank "
              "must read the same case; only backend.rules may differ "
              "between ranks): start every rank with the same file, or "
              "make the files equal");
    for (int r = 0; r < size; r++)
        if (r == 0 || strcmp(all[r].case_hash, all[0].case_hash) != 0)
            frx__error_append(FRX_ECONFIG, "  rank %d (%s): %s (case %s)%s",
                              r, all[r].host, all[r].file,
                              all[r].case_hash,
                              r ? ": differs from rank 0" : "");
    return FRX_ECONFIG;
}

/* --------------------------------------------------------- start-up */

int frx_backend_create_all(const frx_config *cfg, MPI_Comm comm,
                           frx_backend **out)
{
    int rank, size;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return frx_error(FRX_EMPI, "frx_backend_create_all: MPI is not "
                         "started (call MPI_Init first)");
    if (out)
        *out = NULL;
    /* The rank's place on its node among the ranks there that run the
     * same backend.name (a node's GPUs shared out among its cuda ranks
     * only, not counting the openmp ranks beside them), asked of MPI
     * while every rank is here: a collective, so a rank whose case is
     * wrong still takes part, and fails below. Ranks on auto count as
     * one group whatever each starts. */
    struct frx__choice ch;
    const char *group = cfg && frx__backend_choice(cfg, rank, &ch) == FRX_OK
                            ? ch.name : "";
    int local_rank = frx__mpi_node_rank(comm, group);
    if (local_rank < 0)
        local_rank = frx__mpi_local_rank();
    frx_backend *be = NULL;
    int rc = !cfg || !out ? frx_error(FRX_EINVAL, "frx_backend_create_all: "
                                      "NULL argument")
                          : frx__backend_create(cfg, local_rank, &be);
    if (rc == FRX_OK)
        rc = resolve_mpi_mode(cfg, be);

    /* One reduction decides: anyone failed, or do precision and case
     * differ anywhere? max(x) and max(~x) give the maximum and the
     * minimum of x at once. */
    uint64_t hash[4] = {0}, v[11], all_v[11];
    if (cfg)
        case_hash(cfg, hash);
    uint64_t prec = be ? (uint64_t)be->precision : 0;
    v[0] = rc != FRX_OK;
    v[1] = prec, v[2] = ~prec;
    for (int i = 0; i < 4; i++)
        v[3 + i] = hash[i], v[7 + i] = ~hash[i];
    if (MPI_Allreduce(v, all_v, 11, MPI_UINT64_T, MPI_MAX, comm) !=
        MPI_SUCCESS) {
        frx_backend_destroy(be);
        return frx_error(FRX_EMPI, "start-up: MPI_Allreduce failed");
    }
    int anybad = all_v[0] != 0, mixed = all_v[1] != ~all_v[2], cases = 0;
    for (int i = 0; i < 4; i++)
        cases |= all_v[3 + i] != ~all_v[7 + i];
    if (!anybad && !mixed && !cases) {
        *out = be;
        return FRX_OK;
    }

    struct status mine, *all = NULL;
    status_init(&mine, rc);
    mine.precision = (int)prec;
    snprintf(mine.file, sizeof mine.file, "%s",
             cfg ? frx_config_file(cfg) : "(no case)");
    for (int i = 0; i < 8; i++)
        snprintf(mine.case_hash + 2 * i, 3, "%02x",
                 (unsigned)(hash[i / 8] >> (8 * (i % 8))) & 0xffu);
    rc = gather_all(comm, &mine, size, &all);
    if (rc == FRX_OK) {
        /* a bad case; else unavailable where every failing rank's backend
         * cannot start there (no device, driver or plugin: what a test
         * skips); else the first other failure (a start-up bug) */
        int code = FRX_EUNAVAIL, other = FRX_OK;
        for (int r = 0; r < size; r++) {
            if (all[r].rc == FRX_ECONFIG)
                code = FRX_ECONFIG;
            else if (all[r].rc && all[r].rc != FRX_EUNAVAIL &&
                     all[r].rc != FRX_ENOTFOUND && !other)
                other = all[r].rc;
        }
        if (code != FRX_ECONFIG && other)
            code = other;
        rc = cases    ? report_cases(all, size)
           : anybad   ? report_failures(all, size, "backend start-up", code, 1)
                      : report_precisions(all, size);
    }
    free(all);
    frx_backend_destroy(be);
    return rc;
}
