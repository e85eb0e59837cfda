/* SPDX-License-Identifier: BSD-3-Clause */
/* Error codes, names and the per-thread detailed message. */
#include "base/base-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char errmsg[8192];
static _Thread_local int agreed; /* frx__error_mark_agreed */

const char *frx_strerror(int code)
{
    switch (code) {
    case FRX_OK: return "success";
#define FRX__ERRNO_STR(name, val, str) case FRX_##name: return str;
    FRX_ERRNO_MAP(FRX__ERRNO_STR)
#undef FRX__ERRNO_STR
    default: return "unknown error";
    }
}

const char *frx_err_name(int code)
{
    switch (code) {
    case FRX_OK: return "FRX_OK";
#define FRX__ERRNO_NAME(name, val, str) case FRX_##name: return "FRX_" #name;
    FRX_ERRNO_MAP(FRX__ERRNO_NAME)
#undef FRX__ERRNO_NAME
    default: return "FRX_EUNKNOWN";
    }
}

const char *frx_errmsg(void)
{
    return errmsg[0] ? errmsg : "no error recorded";
}

void frx__error_clear(void)
{
    errmsg[0] = '\0';
    agreed = 0;
}

void frx__error_mark_agreed(void) { agreed = 1; }

int frx__error_is_agreed(void) { return agreed; }

/* Formatted into a buffer of its own first: the arguments may point
 * into errmsg itself (`frx_error(rc, "...: %s", frx_errmsg())`). */
static _Thread_local char scratch[sizeof errmsg];
static _Thread_local unsigned long nerrors;

unsigned long frx__error_count(void) { return nerrors; }

int frx__error_v(int code, const char *fmt, va_list ap)
{
    vsnprintf(scratch, sizeof scratch, fmt, ap);
    memcpy(errmsg, scratch, strlen(scratch) + 1);
    agreed = 0;
    nerrors++;
    return code;
}

int frx_error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    frx__error_v(code, fmt, ap);
    va_end(ap);
    return code;
}

int frx__error_append(int code, const char *fmt, ...)
{
    size_t len = strlen(errmsg);
    if (len + 2 >= sizeof errmsg)
        return code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(scratch, sizeof errmsg - len - 1, fmt, ap);
    va_end(ap);
    if (len)
        errmsg[len++] = '\n';
    memcpy(errmsg + len, scratch, strlen(scratch) + 1);
    nerrors++;
    return code;
}

void *frx__calloc(size_t n, size_t size, const char *what)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        frx_error(FRX_ENOMEM, "out of memory allocating %s (%zu x %zu bytes)",
                  what, n, size);
    return p;
}

char *frx__strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = frx__calloc(n, 1, "a string");
    if (d)
        memcpy(d, s, n);
    return d;
}
