/* opencl kernels: generated OpenCL C built with clBuildProgram; program
 * binaries cached in frx's disk cache and reloaded with
 * clCreateProgramWithBinary. */
#include "opencl.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ocl_prog {
    cl_program prog;
    cl_kernel kernel;
    size_t local; /* work-items per group */
    char name[64]; /* the kernel's, for messages */
};

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
    int rc = err == CL_SUCCESS
                 ? write_binary(s, prog, b->name, out_path)
                 : build_failed(s, prog, err, b->name, b->source);
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
    const char *parts[] = {"opencl", s->platform_name, s->platform_version,
                           s->device_name, s->driver_version,
                           s->build_options, source};
    struct build b = {s, name, source, NULL};
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

/* -------------------------------------------------------------- kernels */

int frx_opencl_kernel_compile(void *state, const frx_kernel_src *src,
                              void **out, int *compiled)
{
    struct ocl_state *s = state;
    struct ocl_prog *p = calloc(1, sizeof *p);
    if (!p)
        return frx_error(FRX_ENOMEM, "opencl: out of memory");
    int rc = frx_opencl_program(s, src->name, src->source, &p->prog,
                                compiled);
    cl_int err = CL_SUCCESS;
    if (rc == FRX_OK)
        p->kernel = clCreateKernel(p->prog, src->entry, &err);
    if (rc == FRX_OK && !p->kernel)
        rc = frx_opencl_fail(err, "clCreateKernel", "kernel '%s' (%s)",
                             src->name, src->entry);
    size_t wgs = 0;
    if (rc == FRX_OK)
        err = clGetKernelWorkGroupInfo(p->kernel, s->device,
                                       CL_KERNEL_WORK_GROUP_SIZE, sizeof wgs,
                                       &wgs, NULL);
    if (rc == FRX_OK && err != CL_SUCCESS)
        rc = frx_opencl_fail(err, "clGetKernelWorkGroupInfo", "kernel '%s'",
                             src->name);
    /* ABI 1.3: a kernel that folds work-groups (a reduction) must be
     * launched with the group size its code was generated for */
    size_t need = FRX_SIZE_HOLDS(frx_kernel_src, src, local_size)
                      ? src->local_size : 0;
    if (rc == FRX_OK && need && wgs && wgs < need)
        rc = frx_error(FRX_EBACKEND, "kernel '%s' needs work-groups of %zu "
                       "on '%s', which allows %zu for it", src->name, need,
                       s->device_name, wgs);
    if (rc) {
        frx_opencl_kernel_free(s, p);
        return rc;
    }
    p->local = need ? need : wgs && wgs < s->local_size ? wgs
                                                         : s->local_size;
    snprintf(p->name, sizeof p->name, "%s", src->name);
    *out = p;
    return FRX_OK;
}

static cl_int set_param(const struct ocl_state *s, cl_kernel k, cl_uint i,
                        const frx_param *p)
{
    if (p->type == FRX_PARAM_MEM) {
        cl_mem m = frx_opencl_buf(p->mem);
        return clSetKernelArg(k, i, sizeof m, &m);
    }
    if (p->type == FRX_PARAM_INT64) {
        cl_long v = (cl_long)p->i;
        return clSetKernelArg(k, i, sizeof v, &v);
    }
    if (p->type == FRX_PARAM_INT) {
        if (p->i < INT32_MIN || p->i > INT32_MAX)
            return CL_INVALID_ARG_VALUE;
        cl_int v = (cl_int)p->i;
        return clSetKernelArg(k, i, sizeof v, &v);
    }
    if (s->precision == FRX_DOUBLE) {
        cl_double v = p->d;
        return clSetKernelArg(k, i, sizeof v, &v);
    }
    cl_float v = (cl_float)p->d;
    return clSetKernelArg(k, i, sizeof v, &v);
}

/* What the launch waits for: the buffers of its parameters, as their
 * intents say; a buffer without access bits counts as read and written. */
static int launch_deps(struct ocl_state *s, const frx_launch *l, cl_uint *n,
                       const cl_event **wait)
{
    const int rw = FRX_ACCESS_READ | FRX_ACCESS_WRITE;
    uint32_t flags = FRX_SIZE_HOLDS(frx_launch, l, flags) ? l->flags : 0;
    frx_opencl_deps_begin(s, flags);
    for (size_t i = 0; i < l->nparams; i++) {
        const frx_param *p = &l->params[i];
        if (p->type == FRX_PARAM_MEM)
            frx_opencl_deps_use(s, p->mem, p->access & rw ? p->access : rw);
    }
    return frx_opencl_deps_wait(s, n, wait);
}

/* Arguments are set on the program's one cl_kernel right before its
 * enqueue, which records them: frx calls this from one thread. */
int frx_opencl_kernel_launch(void *state, void *prog, const frx_launch *l)
{
    struct ocl_state *s = state;
    struct ocl_prog *p = prog;
    for (size_t i = 0; i < l->nparams; i++) {
        cl_int err = set_param(s, p->kernel, (cl_uint)i, &l->params[i]);
        if (err != CL_SUCCESS)
            return frx_opencl_fail(err, "clSetKernelArg", "kernel '%s', "
                                   "parameter %zu", p->name, i);
    }
    cl_uint nwait;
    const cl_event *wait;
    int rc = launch_deps(s, l, &nwait, &wait);
    if (rc)
        return rc;
    size_t local[2] = {p->local, 1};
    size_t global[2] = {(l->n + p->local - 1) / p->local * p->local,
                        l->nrows};
    cl_event ev = NULL;
    cl_int err = clEnqueueNDRangeKernel(s->queue, p->kernel, 2, NULL, global,
                                        local, nwait, wait,
                                        frx_opencl_event_out(s, &ev));
    if (err != CL_SUCCESS)
        return frx_opencl_fail(err, "clEnqueueNDRangeKernel", "kernel '%s' "
                               "over %zu x %zu points", p->name, l->nrows,
                               l->n);
    frx_opencl_deps_enqueued(s, ev);
    return FRX_OK;
}

void frx_opencl_kernel_free(void *state, void *prog)
{
    (void)state;
    struct ocl_prog *p = prog;
    if (p->kernel)
        clReleaseKernel(p->kernel);
    if (p->prog)
        clReleaseProgram(p->prog);
    free(p);
}
