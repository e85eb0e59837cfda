/* SPDX-License-Identifier: BSD-3-Clause */
/* Logging to stderr with a per-rank prefix. */
#include "base/base-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int log_level = FRX_LOG_WARN;
static int log_level_set_by_env = -1; /* -1: FRX_LOG not read yet */
int frx__timers_on = -1;

static const char *const level_names[] = {"error", "warn", "info", "debug"};

/* In any case: FRX_LOG=DEBUG is as good as debug. */
int frx_log_level_from_name(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (name && strcasecmp(name, level_names[i]) == 0)
            return i;
    return -1;
}

static void read_env(void)
{
    if (log_level_set_by_env >= 0)
        return;
    log_level_set_by_env = 0;
    const char *env = getenv("FRX_LOG");
    int lvl = frx_log_level_from_name(env);
    if (lvl >= 0) {
        log_level = lvl;
        log_level_set_by_env = 1;
    } else if (env && *env) { /* said once: the env is read once */
        frx_log(FRX_LOG_WARN, "FRX_LOG=%.40s is not a log level: use "
                "error, warn, info or debug (in any case); it is ignored",
                env);
    }
}

void frx_log_set_level(int level)
{
    read_env();
    if (log_level_set_by_env) /* FRX_LOG wins over the case file */
        return;
    if (level >= FRX_LOG_ERROR && level <= FRX_LOG_DEBUG)
        log_level = level;
    frx__timers_update();
}

/* The exchange timers run where their report shows (base/base-impl.h). */
int frx__timers_update(void)
{
    read_env();
    return frx__timers_on = log_level >= FRX_LOG_INFO;
}

int frx_log_get_level(void)
{
    read_env();
    return log_level;
}

void frx_log(int level, const char *fmt, ...)
{
    if (level > frx_log_get_level())
        return;
    int rank, size;
    frx__mpi_rank_size(&rank, &size);
    char line[4096];
    int k = snprintf(line, sizeof line, "[frx %d/%d] %s: ", rank, size,
                     level_names[level < 0 ? 0 : level > 3 ? 3 : level]);
    va_list ap;
    va_start(ap, fmt);
    if (k > 0 && (size_t)k < sizeof line)
        vsnprintf(line + k, sizeof line - (size_t)k, fmt, ap);
    va_end(ap);
    /* one write per line so ranks do not interleave mid-line */
    fprintf(stderr, "%s\n", line);
}
