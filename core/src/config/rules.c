/* SPDX-License-Identifier: BSD-3-Clause */
/* Which backend a rank runs: backend.name and backend.precision, unless
 * an item of backend.rules matches the rank's number (ranges such as
 * "0-3,8") or host first. */
#include "config/config-impl.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int frx__rank_match(const char *ranges, int rank, int *match)
{
    int hit = 0;
    const char *p = ranges;
    if (!p || !*p)
        return frx_error(FRX_EINVAL, "no ranks given: write ranges like "
                         "\"0-3,8\"");
    while (*p) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (end == p || a < 0)
            return frx_error(FRX_EINVAL, "cannot read rank ranges '%s': "
                             "write them like \"0-3,8\"", ranges);
        p = end;
        if (*p == '-') {
            b = strtol(p + 1, &end, 10);
            if (end == p + 1 || b < a)
                return frx_error(FRX_EINVAL, "cannot read rank ranges '%s': "
                                 "a range is \"first-last\" with first <= "
                                 "last", ranges);
            p = end;
        }
        if (rank >= a && rank <= b)
            hit = 1;
        if (*p == ',')
            p++;
        else if (*p)
            return frx_error(FRX_EINVAL, "cannot read rank ranges '%s': "
                             "unexpected '%c'", ranges, *p);
    }
    if (match)
        *match = hit;
    return FRX_OK;
}

static int rule_matches(const frx_cfgnode *rule, int rank, const char *host,
                        int *match)
{
    const char *hosts, *ranks;
    int rc = frx_cfg_string(rule, "hosts", NULL, &hosts);
    if (rc == FRX_OK)
        rc = frx_cfg_string(rule, "ranks", NULL, &ranks);
    if (rc)
        return rc;
    int by_rank = 1, by_host = 1;
    if (ranks && (rc = frx__rank_match(ranks, rank, &by_rank)) != FRX_OK) {
        char at[512];
        return frx_error(FRX_ECONFIG, "%s: %s",
                         frx__cfg_where(frx_cfg_get(rule, "ranks"), at,
                                        sizeof at), frx_errmsg());
    }
    if (hosts)
        by_host = fnmatch(hosts, host, 0) == 0;
    *match = (ranks || hosts) && by_rank && by_host;
    return FRX_OK;
}

int frx__backend_choice(const frx_config *cfg, int rank,
                        struct frx__choice *out)
{
    const frx_cfgnode *root = frx_config_root(cfg);
    int prec;
    int rc = frx_cfg_string(root, "backend.name", "auto", &out->name);
    if (rc == FRX_OK)
        rc = frx_cfg_enum(root, "backend.precision", "single|double", 1,
                          &prec);
    if (rc)
        return rc;
    out->precision = prec == 0 ? FRX_SINGLE : FRX_DOUBLE;
    out->device = NULL;
    out->rule = -1;
    if (gethostname(out->host, sizeof out->host) != 0)
        snprintf(out->host, sizeof out->host, "unknown-host");
    out->host[sizeof out->host - 1] = '\0';

    const frx_cfgnode *rules = frx_cfg_get(root, "backend.rules");
    size_t n = rules && frx_cfg_type(rules) == FRX_CFG_LIST
                   ? frx_cfg_len(rules) : 0;
    for (size_t i = 0; i < n; i++) {
        const frx_cfgnode *rule = frx_cfg_at(rules, i);
        int match = 0;
        rc = rule_matches(rule, rank, out->host, &match);
        if (rc)
            return rc;
        if (!match)
            continue;
        rc = frx_cfg_string(rule, "name", out->name, &out->name);
        if (rc == FRX_OK)
            rc = frx_cfg_string(rule, "device", NULL, &out->device);
        if (rc == FRX_OK)
            rc = frx_cfg_enum(rule, "precision", "single|double",
                              out->precision == FRX_SINGLE ? 0 : 1, &prec);
        out->precision = prec == 0 ? FRX_SINGLE : FRX_DOUBLE;
        out->rule = (int)i;
        return rc;
    }
    return FRX_OK;
}
