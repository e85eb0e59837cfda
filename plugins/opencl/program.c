/* SPDX-License-Identifier: BSD-3-Clause */
/* opencl programs: OpenCL C built with clBuildProgram, its binary
 * cached in frx's disk cache and reloaded with clCreateProgramWithBinary
 * (where backend.opencl.binaries keeps binaries; else built from source
 * every time, for the platform's own cache); a build that fails gives
 * the compiler's log with the kept source's path at each line:col. For
 * kernels (kernel.c) and the pack kernels (pack.c). */
#include "opencl.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------- build errors */

/* "name:line:col" of a compiler message, with name any word without
 * spaces (PoCL's temporary file, <source>, <kernel>): at p's ':'? */
static int at_line_col(const char *p)
{
    if (p[0] != ':' || !isdigit((unsigned char)p[1]))
        return 0;
    p++;
    while (isdigit((unsigned char)*p))
        p++;
    return p[0] == ':' && isdigit((unsigned char)p[1]);
}

/* The build log with every file name of "file:line:col" replaced by the
 * file that holds the source, so that the lines can be found there. */
static char *log_with_path(const char *log, const char *path)
{
    size_t plen = strlen(path), cap = strlen(log) + 1, len = 0;
    for (const char *c = log; *c; c++)
        cap += at_line_col(c) ? plen : 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    for (const char *c = log; *c; c++) {
        if (at_line_col(c)) {
            size_t w = 0; /* the name just copied */
            while (w < len && !isspace((unsigned char)out[len - w - 1]))
                w++;
            if (w) {
                len -= w;
                memcpy(out + len, path, plen);
                len += plen;
            }
        }
        out[len++] = *c;
    }
    out[len] = '\0';
    return out;
}

/* Keep the source in $TMPDIR/frx-cl-XXXXXX/<name>.cl for the user. */
static int keep_source(const char *name, const char *source, char *path,
                       size_t n)
{
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/frx-cl-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, n, "%s/%s.cl", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int bad = fputs(source, f) < 0;
    return fclose(f) != 0 || bad ? -1 : 0;
}

static char *build_log(const struct ocl_state *s, cl_program prog)
{
    size_t n = 0;
    if (clGetProgramBuildInfo(prog, s->device, CL_PROGRAM_BUILD_LOG, 0, NULL,
                              &n) != CL_SUCCESS)
        n = 0;
    char *log = malloc(n + 1);
    if (log && (n == 0 || clGetProgramBuildInfo(prog, s->device,
                                                CL_PROGRAM_BUILD_LOG, n, log,
                                                NULL) != CL_SUCCESS))
        n = 0;
    if (log)
        log[n] = '\0';
    return log;
}

static int build_failed(const struct ocl_state *s, cl_program prog,
                        cl_int err, const char *name, const char *source)
{
    if (err == CL_INVALID_BUILD_OPTIONS) {
        char *log = build_log(s, prog);
        int rc = frx_error(FRX_EBACKEND, "kernel '%s': clBuildProgram on "
                           "'%s' refuses backend.opencl.build-options '%s': "
                           "%s (%d)%s%s", name, s->device_name,
                           s->build_options, frx_opencl_errname(err),
                           (int)err, log && *log ? "\n" : "",
                           log ? log : "");
        free(log);
        return rc;
    }
    char path[4300];
    int kept = keep_source(name, source, path, sizeof path) == 0;
    char *log = build_log(s, prog);
    char *shown = log && kept ? log_with_path(log, path) : NULL;
    int rc = frx_error(FRX_EBACKEND,
                       "kernel '%s': clBuildProgram failed on '%s': %s "
                       "(%d)\n%s\n%s%s; fix the kernel body or "
                       "backend.opencl.build-options ('%s')", name,
                       s->device_name, frx_opencl_errname(err), (int)err,
                       shown ? shown : log ? log : "(no build log)",
                       kept ? "the generated source is kept at "
                            : "the generated source could not be kept",
                       kept ? path : "", s->build_options);
    free(shown);
    free(log);
    return rc;
}

/* ------------------------------------------------------------- binaries */

static int write_binary(const struct ocl_state *s, cl_program prog,
                        const char *name, const char *path)
{
    size_t size = 0;
    cl_int err = clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size,
                                  &size, NULL);
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, "clGetProgramInfo", "kernel '%s'", name);
    if (size == 0)
        return frx_error(FRX_EBACKEND, "kernel '%s': device '%s' gives no "
                         "program binary to cache; run with FRX_CACHE=off",
                         name, s->device_name);
    unsigned char *bin = malloc(size);
    if (!bin)
        return frx_error(FRX_ENOMEM, "opencl: out of memory");
    err = clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
    int rc = err == CL_SUCCESS ? FRX_OK
                               : frx_opencl_fail(err, "clGetProgramInfo",
                                                 "kernel '%s'", name);
    FILE *f = rc ? NULL : fopen(path, "wb");
    if (!rc && (!f || fwrite(bin, 1, size, f) != size))
        rc = frx_error(FRX_EIO, "kernel '%s': cannot write %s: %m", name,
                       path);
    if (f && fclose(f) != 0 && !rc)
        rc = frx_error(FRX_EIO, "kernel '%s': cannot write %s: %m", name,
                       path);
    free(bin);
    return rc;
}

static int read_file(const char *path, unsigned char **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    *data = n > 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)n) : NULL;
    int ok = *data && fread(*data, 1, (size_t)n, f) == (size_t)n;
    if (f)
        fclose(f);
    if (!ok) {
        free(*data);
        *data = NULL;
        return -1;
    }
    *size = (size_t)n;
    return 0;
}

static int load_binary(const struct ocl_state *s, const char *name,
                       const char *path, cl_program *out)
{
    unsigned char *bin;
    size_t size;
    if (read_file(path, &bin, &size) != 0)
        return frx_error(FRX_EIO, "kernel '%s': cannot read the cached "
                         "program %s: %m", name, path);
    cl_int status = CL_SUCCESS, err;
    cl_program prog = clCreateProgramWithBinary(
        s->ctx, 1, &s->device, &size, (const unsigned char **)&bin, &status,
        &err);
    free(bin);
    const char *call = "clCreateProgramWithBinary";
    if (prog && err == CL_SUCCESS) {
        call = "clBuildProgram";
        err = clBuildProgram(prog, 1, &s->device, s->build_options, NULL,
                             NULL);
    }
    if (err == CL_SUCCESS) {
        *out = prog;
        return FRX_OK;
    }
    if (prog)
        clReleaseProgram(prog);
    return frx_error(FRX_EBACKEND, "kernel '%s': the cached program %s does "
                     "not load on '%s': %s failed: %s (%d); remove it and run "
                     "again", name, path, s->device_name, call,
                     frx_opencl_errname(err), (int)err);
}

/* ------------------------------------------------------------- programs */

struct build {
    struct ocl_state *s;
    const char *name, *source;
    cl_program prog; /* built in this call */
};

/* b's program built from source; its binary written to out_path unless
 * that is NULL. */
static int build(const char *out_path, void *ud)
{
    struct build *b = ud;
    struct ocl_state *s = b->s;
    cl_int err;
    cl_program prog = clCreateProgramWithSource(s->ctx, 1, &b->source, NULL,
                                                &err);
    if (!prog)
        return frx_opencl_fail(err, "clCreateProgramWithSource",
                               "kernel '%s'", b->name);
    err = clBuildProgram(prog, 1, &s->device, s->build_options, NULL, NULL);
    int rc = err != CL_SUCCESS ? build_failed(s, prog, err, b->name, b->source)
             : out_path        ? write_binary(s, prog, b->name, out_path)
                               : FRX_OK;
    if (rc) {
        clReleaseProgram(prog);
        return rc;
    }
    b->prog = prog;
    return FRX_OK;
}

int frx_opencl_program(struct ocl_state *s, const char *name,
                       const char *source, cl_program *prog, int *built)
{
    struct build b = {s, name, source, NULL};
    if (!s->keep_binaries) { /* the platform's own cache finds it */
        int rc = build(NULL, &b);
        if (rc == FRX_OK)
            *prog = b.prog, *built = 1;
        return rc;
    }
    const char *parts[] = {"opencl", s->platform_name, s->platform_version,
                           s->device_name, s->driver_version,
                           s->build_options, source};
    frx_cache_entry e;
    int rc = frx_cache_fetch(parts, sizeof parts / sizeof *parts, ".clbin",
                             build, &b, &e);
    if (rc == FRX_OK && b.prog)
        *prog = b.prog; /* just built: no need to load it back */
    else if (rc == FRX_OK)
        rc = load_binary(s, name, e.path, prog);
    else if (b.prog)
        clReleaseProgram(b.prog);
    if (rc == FRX_OK)
        *built = e.built;
    frx_cache_done(&e);
    return rc;
}
