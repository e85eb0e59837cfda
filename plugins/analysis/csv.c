/* SPDX-License-Identifier: BSD-3-Clause */
/* The analysis plugins' CSV files (analysis.h): rank 0 writes, rows
 * are appended, and a restart keeps the rows up to its step. */
#include "analysis.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define AN_CSV_BUFFER (1 << 20)

int an_csv_init(an_csv *c, frx_ext *e, MPI_Comm comm, const char *who,
                const char *path, double flush_seconds)
{
    memset(c, 0, sizeof *c);
    c->who = who;
    c->flush_seconds = flush_seconds;
    c->pending = -1;
    MPI_Comm_rank(comm, &c->rank);
    if (!path || !path[0])
        return frx_error(FRX_ECONFIG, "%s: the file name is empty", who);
    int n = snprintf(c->path, sizeof c->path, "%s", path);
    snprintf(c->tmp, sizeof c->tmp, "%s.tmp", path);
    if (n < 0 || (size_t)n >= sizeof c->path)
        return frx_error(FRX_ECONFIG, "%s: the file name is too long", who);
    int rc = frx_ext_claim_file(e, path);
    if (rc || c->rank != 0)
        return rc;
    /* found now, not at the first row */
    rc = frx_check_parent_folder(path);
    if (rc)
        return frx_error(rc, "%s: cannot write %s: %s", who, path,
                         frx_errmsg());
    if (access(path, F_OK) == 0 && access(path, W_OK) != 0)
        return frx_error(FRX_EIO, "%s: cannot write %s: %s", who, path,
                         strerror(errno));
    return FRX_OK;
}

/* The step of a row (its first field), or -1 for a line that is none. */
static int64_t row_step(const char *line)
{
    char *end;
    errno = 0;
    unsigned long long s = strtoull(line, &end, 10);
    return end == line || *end != ',' || errno ? -1 : (int64_t)s;
}

/* Copy the rows of steps <= step from the file to out (the header
 * checked), or FRX_ENOTFOUND when there is no file. */
static int keep_rows(an_csv *c, const char *header, uint64_t step, FILE *out,
                     size_t *kept, size_t *dropped)
{
    FILE *in = fopen(c->path, "r");
    if (!in)
        return errno == ENOENT ? FRX_ENOTFOUND
               : frx_error(FRX_EIO, "%s: cannot read %s to continue it: %s",
                           c->who, c->path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = FRX_OK, first = 1;
    while (rc == FRX_OK && (len = getline(&line, &cap, in)) >= 0) {
        if (len && line[len - 1] == '\n')
            line[--len] = '\0';
        if (first) {
            first = 0;
            if (strcmp(line, header))
                rc = frx_error(FRX_ECONFIG, "%s: %s has the columns '%s', "
                               "this run writes '%s': it was written by "
                               "another case; move it away or name another "
                               "file", c->who, c->path, line, header);
            else
                fprintf(out, "%s\n", line);
            continue;
        }
        int64_t s = row_step(line);
        if (s >= 0 && (uint64_t)s <= step) {
            fprintf(out, "%s\n", line);
            (*kept)++;
        } else {
            (*dropped)++;
        }
    }
    free(line);
    fclose(in);
    return rc;
}

int an_csv_start(an_csv *c, const char *header, uint64_t step)
{
    if (c->rank != 0)
        return FRX_OK;
    int rc = frx_make_parent_folder(c->path);
    if (rc)
        return rc;
    FILE *out = fopen(c->tmp, "w");
    if (!out)
        return frx_error(FRX_EIO, "%s: cannot write %s: %s", c->who, c->tmp,
                         strerror(errno));
    size_t kept = 0, dropped = 0;
    rc = step ? keep_rows(c, header, step, out, &kept, &dropped)
                  : FRX_ENOTFOUND;
    if (rc == FRX_ENOTFOUND) {
        if (step)
            frx_log(FRX_LOG_WARN, "%s: %s is missing: the restart from step "
                    "%" PRIu64 " starts it afresh", c->who, c->path, step);
        rc = fprintf(out, "%s\n", header) < 0
                 ? frx_error(FRX_EIO, "%s: cannot write %s", c->who, c->tmp)
                 : FRX_OK;
    } else if (rc == FRX_OK && dropped) {
        frx_log(FRX_LOG_INFO, "%s: %s continues after step %" PRIu64 " (%zu "
                "rows kept, %zu after it dropped)", c->who, c->path, step,
                kept, dropped);
    }
    int bad = fclose(out) != 0;
    if (rc == FRX_OK && (bad || rename(c->tmp, c->path)))
        rc = frx_error(FRX_EIO, "%s: cannot put %s in place: %s", c->who,
                       c->path, strerror(errno));
    if (rc != FRX_OK) {
        remove(c->tmp);
        return rc;
    }
    c->f = fopen(c->path, "a");
    if (!c->f)
        return frx_error(FRX_EIO, "%s: cannot append to %s: %s", c->who,
                         c->path, strerror(errno));
    /* rows leave in writes of AN_CSV_BUFFER bytes, not of stdio's 4 kB:
     * a sampler's row is about 17 bytes a number, and each write() is a
     * system call on the path of every rank (docs/analysis.md, "Cost") */
    c->buf = malloc(AN_CSV_BUFFER);
    if (c->buf && setvbuf(c->f, c->buf, _IOFBF, AN_CSV_BUFFER)) {
        free(c->buf);
        c->buf = NULL;
    }
    return FRX_OK;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* After a row: flush if the oldest row still in the buffer is
 * flush_seconds old (one clock read a row). */
static int row_written(an_csv *c)
{
    double now = now_seconds();
    if (c->pending < 0)
        c->pending = now;
    return now - c->pending >= c->flush_seconds ? an_csv_flush(c) : FRX_OK;
}

/* A row's first two fields, "step,t", into buf (64 bytes or more). */
static size_t row_head(char *buf, size_t size, uint64_t step, double t)
{
    size_t len = (size_t)snprintf(buf, size, "%" PRIu64 ",", step);
    return len + (size_t)an_fmt_double(buf + len, size - len, t);
}

int an_csv_row(an_csv *c, uint64_t step, double t, size_t n, const double *v)
{
    if (!c->f)
        return FRX_OK;
    /* the row in a buffer, written in pieces of a few kB: one stdio call
     * a piece, not one a number (each takes the stream's lock) */
    char buf[4096];
    size_t len = row_head(buf, sizeof buf, step, t);
    int bad = 0;
    for (size_t i = 0; i < n && !bad; i++) {
        if (sizeof buf - len < 40) {
            bad = fwrite(buf, 1, len, c->f) != len;
            len = 0;
        }
        buf[len++] = ',';
        len += (size_t)an_fmt_double(buf + len, sizeof buf - len, v[i]);
    }
    buf[len++] = '\n';
    if (bad || fwrite(buf, 1, len, c->f) != len || ferror(c->f))
        return frx_error(FRX_EIO, "%s: cannot write %s: %s", c->who, c->path,
                         strerror(errno));
    return row_written(c);
}

int an_csv_row_text(an_csv *c, uint64_t step, double t, const char *text,
                    size_t len)
{
    if (!c->f)
        return FRX_OK;
    char head[64];
    size_t n = row_head(head, sizeof head, step, t);
    if (fwrite(head, 1, n, c->f) != n || fwrite(text, 1, len, c->f) != len ||
        fputc('\n', c->f) == EOF || ferror(c->f))
        return frx_error(FRX_EIO, "%s: cannot write %s: %s", c->who, c->path,
                         strerror(errno));
    return row_written(c);
}

int an_csv_flush(an_csv *c)
{
    c->pending = -1;
    if (c->f && fflush(c->f))
        return frx_error(FRX_EIO, "%s: cannot write %s: %s", c->who, c->path,
                         strerror(errno));
    return FRX_OK;
}

int an_csv_close(an_csv *c)
{
    if (!c->f)
        return FRX_OK;
    int bad = fclose(c->f) != 0;
    c->f = NULL;
    free(c->buf);
    c->buf = NULL;
    return bad ? frx_error(FRX_EIO, "%s: cannot write %s: %s", c->who,
                           c->path, strerror(errno))
               : FRX_OK;
}

void an_csv_free(an_csv *c)
{
    if (c->f)
        fclose(c->f);
    c->f = NULL;
    free(c->buf);
    c->buf = NULL;
}

void an_csv_column(FILE *h, const char *prefix, const char *label)
{
    const char *sep = prefix && prefix[0] ? "_" : "";
    if (!prefix)
        prefix = "";
    if (!strpbrk(label, ",\"\n") && !strpbrk(prefix, ",\"\n")) {
        fprintf(h, ",%s%s%s", prefix, sep, label);
        return;
    }
    fputs(",\"", h); /* RFC 4180: quoted, a quote doubled */
    for (int k = 0; k < 3; k++)
        for (const char *c = k == 0 ? prefix : k == 1 ? sep : label; *c; c++)
            fputs(*c == '"' ? "\"\"" : (char[2]){*c, 0}, h);
    fputc('"', h);
}

/* ------------------------------------------------------------ an_base */

int an_base_init(an_base *b, const frx_extension_init *init, const char *who)
{
    b->ext = init->ext;
    b->be = init->backend;
    b->mpi = frx_comm_mpi(init->comm);
    MPI_Comm_rank(b->mpi, &b->rank);
    const char *file;
    double flush;
    int rc = frx_cfg_string(init->options, "file", NULL, &file);
    if (!rc)
        rc = frx_cfg_double(init->options, "flush-seconds", 10, 0, 1e9,
                            &flush);
    return rc ? rc : an_csv_init(&b->csv, b->ext, b->mpi, who, file, flush);
}

FILE *an_header_open(char **buf, size_t *len)
{
    FILE *h = open_memstream(buf, len);
    if (h)
        fputs("step,t", h);
    return h;
}

int an_header_start(an_base *b, FILE *h, char **buf, uint64_t step)
{
    int bad = !h || fclose(h) != 0; /* *buf is set by fclose */
    int rc = bad ? frx_error(FRX_ENOMEM, "%s: out of memory", b->csv.who)
                 : an_csv_start(&b->csv, *buf, step);
    free(*buf);
    *buf = NULL;
    return rc;
}

int an_save(void *state, void **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    return an_csv_flush(&((an_base *)state)->csv);
}

int an_finish(void *state, const frx_ext_now *now)
{
    (void)now;
    return an_csv_close(&((an_base *)state)->csv);
}
