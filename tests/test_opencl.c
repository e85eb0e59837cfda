/* SPDX-License-Identifier: BSD-3-Clause */
/* The opencl backend's own behaviour: device choice and its errors, the
 * probe that `frx plugins` shows, the fp64 and alignment rules, build
 * errors, program binaries reloaded from the disk cache, and the queue:
 * out of order where the device has it, with commands ordered by the
 * buffers they share. The data model and kernels are in the conformance
 * suites. Exits 77 where no OpenCL device can start. */
#include "opencl.h"
#include "testutil.h"

#include <check.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Platform 0 and its device 0, as OpenCL itself reports them. */
static char pname[256], dname[256];
static cl_uint ndevices;
static cl_command_queue_properties dqueue;

static int cl_names(void)
{
    cl_platform_id p;
    cl_device_id d;
    if (clGetPlatformIDs(1, &p, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, &ndevices) != CL_SUCCESS ||
        clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof pname, pname, NULL) !=
            CL_SUCCESS ||
        clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof dname, dname, NULL) !=
            CL_SUCCESS ||
        clGetDeviceInfo(d, CL_DEVICE_QUEUE_PROPERTIES, sizeof dqueue, &dqueue,
                        NULL) != CL_SUCCESS)
        return -1;
    return 0;
}

/* Start opencl with extra lines under backend.opencl; the config stays
 * alive in *cfg (free it) so that messages may point into it. */
static int start(const char *options, const char *precision,
                 frx_config **cfg, frx_backend **be)
{
    char text[1024];
    snprintf(text, sizeof text, "backend:\n  name: opencl\n  precision: %s\n"
             "  opencl:\n%s", precision, options);
    ck_assert_int_eq(frx_config_parse(text, strlen(text), "case.yaml", cfg),
                     FRX_OK);
    *be = NULL;
    return frx_backend_create(*cfg, be);
}

/* Starting with options fails with rc, and the message holds each of
 * the NULL-terminated parts. */
static void refused(const char *options, int rc, ...)
{
    frx_config *cfg;
    frx_backend *be;
    ck_assert_int_eq(start(options, "double", &cfg, &be), rc);
    ck_assert_ptr_null(be);
    va_list ap;
    va_start(ap, rc);
    for (const char *part; (part = va_arg(ap, const char *));)
        ck_assert_msg(strstr(frx_errmsg(), part), "'%s' not in: %s", part,
                      frx_errmsg());
    va_end(ap);
    frx_config_free(cfg);
}

static void starts(const char *options, const char *precision)
{
    frx_config *cfg;
    frx_backend *be;
    ck_assert_msg(start(options, precision, &cfg, &be) == FRX_OK, "%s: %s",
                  options, frx_errmsg());
    frx_backend_destroy(be);
    frx_config_free(cfg);
}

/* ------------------------------------------------------- device choice */

START_TEST(probe_names_platform_and_device)
{
    frx_plugin *p;
    ck_assert_int_eq(frx_plugin_find(NULL, "opencl", &p), FRX_OK);
    char why[512];
    ck_assert_int_eq(frx_plugin_probe(p, why, sizeof why), FRX_OK);
    char want[600];
    snprintf(want, sizeof want, "%s: %s", pname, dname);
    ck_assert_msg(strncmp(why, want, strlen(want)) == 0,
                  "probe says '%s', not '%s'", why, want);
}
END_TEST

START_TEST(devices_chosen_by_index_name_and_type)
{
    starts("    device: 0\n", "double");
    starts("    platform: 0\n    device: local-rank\n", "single");
    char text[700], part[8] = "";
    for (size_t i = 0; i < 6 && dname[i]; i++) /* any case will do */
        part[i] = (char)toupper((unsigned char)dname[i]);
    snprintf(text, sizeof text, "    platform: '%.4s'\n    device: '%s'\n",
             pname + 1, part);
    starts(text, "double");
    starts("    device-type: all\n    build-options: -cl-mad-enable\n",
           "double");
}
END_TEST

START_TEST(bad_device_index_refused)
{
    char parts[3][700];
    snprintf(parts[0], sizeof parts[0], "case.yaml:5:13: "
             "backend.opencl.device: no device 7 on platform '%s'", pname);
    snprintf(parts[1], sizeof parts[1], "(it has %u: 0 = %s (", ndevices,
             dname);
    refused("    device: 7\n", FRX_EINVAL, parts[0], parts[1], NULL);
}
END_TEST

START_TEST(device_name_matching_nothing_refused)
{
    char part[700];
    snprintf(part, sizeof part, "no device matching 'no-such-device' on "
             "platform '%s' (it has %u: 0 = %s", pname, ndevices, dname);
    refused("    device: no-such-device\n", FRX_EINVAL,
            "backend.opencl.device", part, "local-rank", NULL);
}
END_TEST

START_TEST(bad_platform_refused)
{
    char part[700];
    snprintf(part, sizeof part, "0 = %s", pname);
    refused("    platform: 9\n", FRX_EINVAL,
            "case.yaml:5:15: backend.opencl.platform: no platform 9 (found ",
            part, NULL);
    refused("    platform: no-such-platform\n", FRX_EINVAL,
            "no platform matching 'no-such-platform'", part, NULL);
}
END_TEST

/* A type the platform lacks (PoCL: accelerator) says what it has. */
START_TEST(missing_device_type_refused)
{
    static const char *const types[] = {"accelerator", "gpu", "cpu"};
    static const cl_device_type masks[] = {
        CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_CPU};
    cl_platform_id p;
    ck_assert_int_eq(clGetPlatformIDs(1, &p, NULL), CL_SUCCESS);
    for (int t = 0; t < 3; t++) {
        cl_uint n = 0;
        if (clGetDeviceIDs(p, masks[t], 0, NULL, &n) != CL_DEVICE_NOT_FOUND)
            continue;
        char opt[64], part[400];
        snprintf(opt, sizeof opt, "    device-type: %s\n", types[t]);
        snprintf(part, sizeof part, "backend.opencl.device-type: platform "
                 "'%s' has no %s device (it has", pname, types[t]);
        refused(opt, FRX_EUNAVAIL, part, dname, "device-type: all", NULL);
        return;
    }
    printf("note: platform 0 has every device type; nothing to refuse\n");
}
END_TEST

START_TEST(bad_device_type_is_a_config_error)
{
    refused("    device-type: fpga\n", FRX_ECONFIG, "case.yaml:5:18",
            "device-type", NULL);
}
END_TEST

/* --------------------------------------------- capabilities, as strings */

START_TEST(fp64_needs_the_extension_or_a_double_config)
{
    ck_assert_int_eq(frx_opencl_check_fp64("d", "cl_khr_icd cl_khr_fp64", 0),
                     FRX_OK);
    ck_assert_int_eq(frx_opencl_check_fp64("d", "cl_khr_fp64", 0), FRX_OK);
    ck_assert_int_eq(frx_opencl_check_fp64("d", "", CL_FP_FMA), FRX_OK);
    ck_assert_int_eq(frx_opencl_check_fp64("Tiny GPU",
                                           "cl_khr_fp16 cl_khr_fp64x", 0),
                     FRX_EUNAVAIL);
    ck_assert_str_eq(frx_errmsg(),
                     "backend.opencl: device 'Tiny GPU' has no double "
                     "precision (cl_khr_fp64): use backend.precision: single "
                     "or another device");
    ck_assert_int_eq(frx_opencl_check_fp64("d", NULL, 0), FRX_EUNAVAIL);
    ck_assert(frx_opencl_has_extension("a cl_khr_fp64 b", "cl_khr_fp64"));
    ck_assert(!frx_opencl_has_extension("xcl_khr_fp64", "cl_khr_fp64"));
}
END_TEST

START_TEST(alignment_from_base_addr_align)
{
    ck_assert_uint_eq(frx_opencl_alignment(1024), 128); /* PoCL */
    ck_assert_uint_eq(frx_opencl_alignment(4096), 512);
    ck_assert_uint_eq(frx_opencl_alignment(128), 64); /* at least a line */
    ck_assert_uint_eq(frx_opencl_alignment(0), 64);
    ck_assert_uint_eq(frx_opencl_alignment(8 * 100), 104); /* 8s */
}
END_TEST

START_TEST(out_of_order_only_where_the_device_has_it)
{
    const cl_command_queue_properties ooo =
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    ck_assert_uint_eq(frx_opencl_queue_props(ooo | CL_QUEUE_PROFILING_ENABLE,
                                             0), ooo);
    ck_assert_uint_eq(frx_opencl_queue_props(CL_QUEUE_PROFILING_ENABLE, 0),
                      0);
    ck_assert_uint_eq(frx_opencl_queue_props(0, 0), 0);
    ck_assert_uint_eq(frx_opencl_queue_props(ooo, 1), 0); /* in-order */
    ck_assert_str_eq(frx_opencl_queue_name(ooo), "out-of-order queue");
    ck_assert_str_eq(frx_opencl_queue_name(0), "in-order queue");
}
END_TEST

/* ------------------------------------------------------------ the queue */

/* What frx logs at info level while opencl starts with options, which
 * names the backend's device text. 0 if FRX_LOG keeps info out. */
static int start_log(const char *options, char *buf, size_t n)
{
    int level = frx_log_get_level();
    frx_log_set_level(FRX_LOG_INFO);
    if (frx_log_get_level() < FRX_LOG_INFO)
        return 0;
    fflush(stderr);
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    int saved = dup(STDERR_FILENO);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_ge(dup2(fileno(f), STDERR_FILENO), 0);
    frx_config *cfg;
    frx_backend *be;
    int rc = start(options, "double", &cfg, &be);
    frx_backend_destroy(be);
    frx_config_free(cfg);
    fflush(stderr);
    int back = dup2(saved, STDERR_FILENO); /* before any assertion */
    close(saved);
    frx_log_set_level(level);
    rewind(f);
    size_t k = fread(buf, 1, n - 1, f);
    buf[k] = '\0';
    fclose(f);
    ck_assert_int_ge(back, 0);
    ck_assert_msg(rc == FRX_OK, "%s: %s", options, frx_errmsg());
    return 1;
}

/* PoCL has out-of-order queues: the backend says it uses one. */
START_TEST(queue_out_of_order_where_the_device_has_it)
{
    char log[4096], want[400];
    if (!start_log("    queue: auto\n", log, sizeof log)) {
        printf("note: FRX_LOG hides info messages; queue not checked\n");
        return;
    }
    snprintf(want, sizeof want, ": %.60s, %s", dname,
             dqueue & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
                 ? "out-of-order queue" : "in-order queue");
    ck_assert_msg(strstr(log, want), "'%s' not in: %s", want, log);
    ck_assert(start_log("    queue: in-order\n", log, sizeof log));
    snprintf(want, sizeof want, ": %.60s, in-order queue", dname);
    ck_assert_msg(strstr(log, want), "'%s' not in: %s", want, log);
}
END_TEST

START_TEST(bad_queue_is_a_config_error)
{
    refused("    queue: sideways\n", FRX_ECONFIG, "case.yaml:5:12", "queue",
            NULL);
}
END_TEST

/* Pack and unpack a shuffled view of shape (nvrow, nvcol) out of m
 * (whose host copy is vals, nrow x nvar x neles) and check both ways. */
static void pack_shape(frx_backend *be, frx_matrix *m, const double *vals,
                       size_t nvrow, size_t nvcol)
{
    const size_t n = 37, neles = frx_matrix_neles(m);
    const size_t nvar = frx_matrix_nvar(m);
    frx_matrix *mats[37];
    size_t rows[37], eles[37], rs[37];
    for (size_t i = 0; i < n; i++) {
        mats[i] = m;
        rows[i] = i % 2;
        rs[i] = 1 + (i % 2 == 0 && nvrow < 3);
        eles[i] = (i * 7 + nvrow + nvcol) % neles;
    }
    frx_view *v;
    frx_xchg_view *xv;
    ck_assert_msg(frx_view_create(be, n, mats, rows, eles, rs, nvrow, nvcol,
                                  &v) == FRX_OK, "%s", frx_errmsg());
    ck_assert_int_eq(frx_xchg_view_create(v, &xv), FRX_OK);
    frx_xchg_matrix *xm = frx_xchg_view_matrix(xv);
    ck_assert_int_eq(frx_xchg_view_pack(xv), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_to_host(xm), FRX_OK);
    double *h = frx_xchg_matrix_host(xm);
    for (size_t i = 0; i < n; i++)
        for (size_t r = 0; r < nvrow; r++)
            for (size_t c = 0; c < nvcol; c++) {
                size_t row = rows[i] + r * rs[i];
                ck_assert_msg(h[(r * nvcol + c) * n + i] ==
                                  vals[(row * nvar + c) * neles + eles[i]],
                              "shape %zux%zu, point %zu (%zu, %zu)", nvrow,
                              nvcol, i, r, c);
                h[(r * nvcol + c) * n + i] = -1.0 - (double)i; /* back */
            }
    ck_assert_int_eq(frx_xchg_matrix_to_device(xm), FRX_OK);
    ck_assert_int_eq(frx_xchg_view_unpack(xv), FRX_OK);
    size_t total = frx_matrix_nrow(m) * nvar * neles;
    double *got = malloc(total * sizeof *got);
    ck_assert_int_eq(frx_matrix_read(m, got), FRX_OK);
    for (size_t i = 0; i < n; i++)
        for (size_t r = 0; r < nvrow; r++)
            for (size_t c = 0; c < nvcol; c++) {
                size_t row = rows[i] + r * rs[i];
                size_t at = (row * nvar + c) * neles + eles[i];
                ck_assert_double_eq(got[at], -1.0 - (double)i);
            }
    free(got);
    frx_xchg_view_destroy(xv);
    frx_view_destroy(v);
}

/* Views of more shapes than get kernels of their own (16), and one too
 * wide for any, pack and unpack right: the later ones on the general
 * kernels. Points are 37 distinct elements, so unpacks do not collide. */
START_TEST(packs_of_every_shape)
{
    frx_config *cfg;
    frx_backend *be = tu_backend_or_skip("opencl", "double", &cfg);
    const size_t nrow = 4, nvar = 70, neles = 37;
    frx_matrix *m;
    ck_assert_int_eq(frx_matrix_create(be, nrow, nvar, neles, &m), FRX_OK);
    size_t total = nrow * nvar * neles;
    double *vals = malloc(total * sizeof *vals);
    for (size_t shape = 0; shape < 22; shape++) {
        for (size_t k = 0; k < total; k++)
            vals[k] = (double)k + 0.5 * (double)shape;
        ck_assert_int_eq(frx_matrix_write(m, vals), FRX_OK);
        size_t nvrow = shape < 21 ? 1 + shape / 7 : 2;
        size_t nvcol = shape < 21 ? 1 + shape % 7 : 70;
        pack_shape(be, m, vals, nvrow, nvcol);
    }
    free(vals);
    frx_matrix_destroy(m);
    frx_backend_destroy(be);
    frx_config_free(cfg);
}
END_TEST

/* make: x = s*u + (1, -2), for two independent pairs; add: acc += x
 * (the second row twice). Rows of 1 variable, so that a view of rows
 * (0, 1) over elements 0..n-1 in order is two long runs: run copies. */
static const frx_kernel_decl tcl_make = {
    .name = "tcl_make", .ndim = 1,
    .args = "in fpdtype_t[2][1] u, out fpdtype_t[2][1] x, "
            "scalar fpdtype_t s",
    .body = "x[0][0] = s*u[0][0] + 1;\nx[1][0] = s*u[1][0] - 2;"};
static const frx_kernel_decl tcl_add = {
    .name = "tcl_add", .ndim = 1,
    .args = "in fpdtype_t[2][1] x, inout fpdtype_t[2][1] acc",
    .body = "acc[0][0] += x[0][0];\nacc[1][0] += 2*x[1][0];"};

#define CHAIN_N 8192 /* points: runs long enough to go by copies */
#define CHAIN_REPS 25
#define CHAIN_STEPS 6

struct chain {
    frx_backend *be;
    frx_matrix *u, *x[2], *acc[2];
    frx_kernel *make[2], *add[2];
    frx_graph *g;
    frx_view *v[2];
    frx_xchg_view *xv[2];
    double *host, *want[2]; /* [2][CHAIN_N] each */
};

static frx_matrix *chain_matrix(frx_backend *be)
{
    frx_matrix *m;
    ck_assert_int_eq(frx_matrix_create(be, 2, 1, CHAIN_N, &m), FRX_OK);
    return m;
}

static frx_kernel *chain_kernel(frx_backend *be, const char *name,
                                frx_arg a, frx_arg b, int scalar)
{
    frx_arg args[] = {a, b, frx_arg_scalar(0)};
    frx_kernel *k;
    ck_assert_msg(frx_kernel_create(be, name, 1, CHAIN_N, args,
                                    scalar ? 3 : 2, &k) == FRX_OK, "%s",
                  frx_errmsg());
    return k;
}

/* View i over acc[i]: rows 0 and 1 of every element, in order for
 * view 0 (run copies), backwards for view 1 (the kernels). */
static frx_view *chain_view(frx_backend *be, frx_matrix *m, int backwards)
{
    static frx_matrix *mats[CHAIN_N]; /* static: 256 KiB in all */
    static size_t rows[CHAIN_N], eles[CHAIN_N], rs[CHAIN_N];
    for (size_t i = 0; i < CHAIN_N; i++) {
        mats[i] = m;
        rows[i] = 0;
        eles[i] = backwards ? CHAIN_N - 1 - i : i;
        rs[i] = 1;
    }
    frx_view *v;
    ck_assert_int_eq(frx_view_create(be, CHAIN_N, mats, rows, eles, rs, 2, 1,
                                     &v), FRX_OK);
    return v;
}

static void chain_create(struct chain *c, const char *queue)
{
    char opt[64];
    frx_config *cfg;
    snprintf(opt, sizeof opt, "    queue: %s\n", queue);
    ck_assert_msg(start(opt, "double", &cfg, &c->be) == FRX_OK, "%s",
                  frx_errmsg());
    frx_config_free(cfg);
    ck_assert_int_eq(frx_kernel_register(c->be, &tcl_make), FRX_OK);
    ck_assert_int_eq(frx_kernel_register(c->be, &tcl_add), FRX_OK);
    c->host = calloc(2 * CHAIN_N, sizeof *c->host);
    ck_assert_ptr_nonnull(c->host);
    c->u = chain_matrix(c->be);
    for (size_t i = 0; i < 2 * CHAIN_N; i++) /* u[r][e] */
        c->host[i] = (double)(i % 7 + i / CHAIN_N + 1);
    ck_assert_int_eq(frx_matrix_write(c->u, c->host), FRX_OK);
    ck_assert_int_eq(frx_graph_create(c->be, &c->g), FRX_OK);
    for (int i = 0; i < 2; i++) {
        c->x[i] = chain_matrix(c->be);
        c->acc[i] = chain_matrix(c->be);
        c->make[i] = chain_kernel(c->be, "tcl_make", frx_arg_matrix(c->u),
                                  frx_arg_matrix(c->x[i]), 1);
        c->add[i] = chain_kernel(c->be, "tcl_add", frx_arg_matrix(c->x[i]),
                                 frx_arg_matrix(c->acc[i]), 0);
        c->v[i] = chain_view(c->be, c->acc[i], i);
        ck_assert_int_eq(frx_xchg_view_create(c->v[i], &c->xv[i]), FRX_OK);
        c->want[i] = calloc(2 * CHAIN_N, sizeof *c->want[i]);
        ck_assert_ptr_nonnull(c->want[i]);
    }
    for (int i = 0; i < 2; i++) /* make, make, add, add */
        ck_assert_int_eq(frx_graph_add_kernel(c->g, c->make[i], NULL, 0,
                                              NULL), FRX_OK);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(frx_graph_add_kernel(c->g, c->add[i], NULL, 0,
                                              NULL), FRX_OK);
    ck_assert_int_eq(frx_graph_commit(c->g), FRX_OK);
}

static void chain_destroy(struct chain *c)
{
    frx_graph_destroy(c->g);
    for (int i = 0; i < 2; i++) {
        frx_kernel_destroy(c->make[i]);
        frx_kernel_destroy(c->add[i]);
        frx_xchg_view_destroy(c->xv[i]);
        frx_view_destroy(c->v[i]);
        frx_matrix_destroy(c->x[i]);
        frx_matrix_destroy(c->acc[i]);
        free(c->want[i]);
    }
    frx_matrix_destroy(c->u);
    free(c->host);
    frx_backend_destroy(c->be);
}

/* The xchg matrix of view i holds want[i] (dense [2][CHAIN_N], by
 * element) in the view's order. */
static void check_xchg(struct chain *c, int i, const double *got, int rep)
{
    for (size_t r = 0; r < 2; r++)
        for (size_t p = 0; p < CHAIN_N; p++) {
            size_t e = i ? CHAIN_N - 1 - p : p;
            double w = c->want[i][r * CHAIN_N + e];
            if (got[r * CHAIN_N + p] != w)
                ck_abort_msg("repetition %d, view %d: point %zu row %zu is "
                             "%g, not %g", rep, i, p, r, got[r * CHAIN_N + p],
                             w);
        }
}

static void check_matrix(const double *got, const double *want, int rep,
                         const char *what)
{
    for (size_t k = 0; k < 2 * CHAIN_N; k++)
        if (got[k] != want[k])
            ck_abort_msg("repetition %d, %s: value %zu is %g, not %g", rep,
                         what, k, got[k], want[k]);
}

/* One repetition: zero the sums; CHAIN_STEPS runs of the graph with new
 * scalars each, nothing waited for in between; pack both sums (copies and
 * kernel), read them; unpack new values into both, read them back. */
static void chain_rep(struct chain *c, int rep, double *got)
{
    for (int i = 0; i < 2; i++) {
        memset(c->want[i], 0, 2 * CHAIN_N * sizeof *c->want[i]);
        ck_assert_int_eq(frx_matrix_write(c->acc[i], c->want[i]), FRX_OK);
    }
    for (int j = 1; j <= CHAIN_STEPS; j++) {
        for (int i = 0; i < 2; i++) {
            double s = i ? j + rep : j;
            ck_assert_int_eq(frx_kernel_set_scalar(c->make[i], "s", s),
                             FRX_OK);
            for (size_t e = 0; e < CHAIN_N; e++) {
                c->want[i][e] += s * c->host[e] + 1;
                c->want[i][CHAIN_N + e] += 2 * (s * c->host[CHAIN_N + e] - 2);
            }
        }
        ck_assert_int_eq(frx_graph_run(c->g), FRX_OK);
    }
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(frx_xchg_view_pack(c->xv[i]), FRX_OK);
    for (int i = 0; i < 2; i++) {
        frx_xchg_matrix *xm = frx_xchg_view_matrix(c->xv[i]);
        ck_assert_int_eq(frx_xchg_matrix_read(xm, got), FRX_OK);
        check_xchg(c, i, got, rep);
        ck_assert_int_eq(frx_xchg_matrix_to_host(xm), FRX_OK); /* mirror */
        check_xchg(c, i, frx_xchg_matrix_host(xm), rep);
        ck_assert_int_eq(frx_matrix_read(c->acc[i], got), FRX_OK);
        check_matrix(got, c->want[i], rep, "the sum");
    }
    for (int i = 0; i < 2; i++) { /* new values, by element */
        frx_xchg_matrix *xm = frx_xchg_view_matrix(c->xv[i]);
        double *h = frx_xchg_matrix_host(xm);
        for (size_t k = 0; k < 2 * CHAIN_N; k++) {
            size_t r = k / CHAIN_N, p = k % CHAIN_N;
            size_t e = i ? CHAIN_N - 1 - p : p;
            h[k] = (double)(rep * 3 + i) - (double)(k % 11);
            c->want[i][r * CHAIN_N + e] = h[k];
        }
        ck_assert_int_eq(frx_xchg_matrix_to_device(xm), FRX_OK);
        ck_assert_int_eq(frx_xchg_view_unpack(c->xv[i]), FRX_OK);
    }
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(frx_matrix_read(c->acc[i], got), FRX_OK);
        check_matrix(got, c->want[i], rep, "the unpacked values");
    }
}

/* Two independent chains (make writes x, add reads x and writes the
 * sum, pack reads the sum, then a read) give exactly the right sums on
 * either queue, over and over: a command that ran before one it must
 * follow would show up as a wrong sum. */
static void chains_right(const char *queue)
{
    struct chain c;
    chain_create(&c, queue);
    double *got = malloc(2 * CHAIN_N * sizeof *got);
    ck_assert_ptr_nonnull(got);
    for (int rep = 0; rep < CHAIN_REPS; rep++)
        chain_rep(&c, rep, got);
    ck_assert_int_eq(frx_backend_sync(c.be), FRX_OK);
    free(got);
    chain_destroy(&c);
}

START_TEST(chains_right_on_an_out_of_order_queue) { chains_right("auto"); }
END_TEST

START_TEST(chains_right_on_an_in_order_queue) { chains_right("in-order"); }
END_TEST

static size_t events_made(frx_backend *be)
{
    frx_backend_stats st;
    frx_backend_get_stats(be, &st);
    return st.events;
}

/* Events only where a later node waits: in the chain graph (make, make,
 * add, add) only the makes have a node after them that depends on them.
 * The next run's makes write what the adds read, so they wait for one
 * marker that stands for both adds. Outside a graph every command gets
 * its event; an in-order queue makes none. */
START_TEST(events_only_where_a_later_node_waits)
{
    const char *queues[] = {"auto", "in-order"};
    for (int q = 0; q < 2; q++) {
        struct chain c;
        chain_create(&c, queues[q]);
        for (int i = 0; i < 2; i++)
            ck_assert_int_eq(frx_kernel_set_scalar(c.make[i], "s", 1),
                             FRX_OK);
        ck_assert_int_eq(frx_backend_sync(c.be), FRX_OK);
        size_t e0 = events_made(c.be);
        ck_assert_int_eq(frx_graph_run(c.g), FRX_OK);
        size_t e1 = events_made(c.be);
        ck_assert_int_eq(frx_graph_run(c.g), FRX_OK);
        size_t e2 = events_made(c.be);
        ck_assert_int_eq(frx_backend_sync(c.be), FRX_OK);
        ck_assert_int_eq(frx_kernel_run(c.make[0]), FRX_OK);
        size_t e3 = events_made(c.be);
        if (q == 0) {
            ck_assert_uint_eq(e1 - e0, 2); /* the makes */
            ck_assert_uint_eq(e2 - e1, 3); /* a marker, the makes */
            ck_assert_uint_eq(e3 - e2, 1); /* no graph: an event */
        } else {
            ck_assert_uint_eq(e3, 0);
        }
        ck_assert_int_eq(frx_backend_sync(c.be), FRX_OK);
        chain_destroy(&c);
    }
}
END_TEST

/* ------------------------------------------------------------ programs */

static const frx_kernel_decl scale = {
    .name = "tcl_scale", .ndim = 1,
    .args = "in xchg fpdtype_t[2] a, out xchg fpdtype_t[2] b, "
            "scalar fpdtype_t s",
    .body = "b[0] = s*a[0];\nb[1] = s*a[1] + 1;"};

/* Bind scale on a fresh backend, run it, check it; its stats. */
static void run_scale(const frx_kernel_decl *d, frx_backend_stats *st)
{
    frx_config *cfg;
    frx_backend *be = tu_backend_or_skip("opencl", "double", &cfg);
    ck_assert_int_eq(frx_kernel_register(be, d), FRX_OK);
    size_t n = 300; /* not a multiple of the work-group size */
    frx_xchg_matrix *a, *b;
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 2, &a), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_create(be, n, 1, 2, &b), FRX_OK);
    double *h = frx_xchg_matrix_host(a); /* the mapped mirror */
    ck_assert_ptr_nonnull(h);
    for (size_t i = 0; i < 2 * n; i++)
        h[i] = (double)i;
    ck_assert_int_eq(frx_xchg_matrix_to_device(a), FRX_OK);
    frx_arg args[] = {frx_arg_xchg(a), frx_arg_xchg(b), frx_arg_scalar(3)};
    frx_kernel *k;
    ck_assert_msg(frx_kernel_create(be, d->name, 1, n, args, 3, &k) == FRX_OK,
                  "%s", frx_errmsg());
    ck_assert_int_eq(frx_kernel_run(k), FRX_OK);
    ck_assert_int_eq(frx_xchg_matrix_to_host(b), FRX_OK);
    const double *r = frx_xchg_matrix_host(b);
    for (size_t i = 0; i < n; i++) {
        ck_assert_double_eq(r[i], 3.0 * (double)i);
        ck_assert_double_eq(r[n + i], 3.0 * (double)(n + i) + 1);
    }
    frx_backend_get_stats(be, st);
    frx_kernel_destroy(k);
    frx_xchg_matrix_destroy(a);
    frx_xchg_matrix_destroy(b);
    frx_backend_destroy(be);
    frx_config_free(cfg);
}

/* scale with a body no other run has built */
static frx_kernel_decl unique_scale(char *body, size_t n)
{
    snprintf(body, n, "/* %ld-%d */\n%s", (long)getpid(), rand(),
             scale.body);
    frx_kernel_decl d = scale;
    d.body = body;
    return d;
}

/* With backend.opencl.binaries: on, the second backend loads the binary
 * the first one built. */
START_TEST(binary_reloaded_from_the_cache)
{
    char body[256];
    frx_kernel_decl d = unique_scale(body, sizeof body);
    frx_backend_stats st;
    setenv("FRX_TEST_OPENCL_BINARIES", "on", 1);
    run_scale(&d, &st);
    ck_assert_uint_eq(st.compiles, 1);
    run_scale(&d, &st);
    unsetenv("FRX_TEST_OPENCL_BINARIES");
    ck_assert_uint_eq(st.compiles, 0);
    ck_assert_uint_eq(st.cache_loads, 1);
}
END_TEST

/* The .clbin files under dir. */
static size_t binaries_under(const char *dir)
{
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "find '%s' -name '*.clbin' 2>/dev/null | wc -l",
             dir);
    FILE *f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = 0;
    ck_assert_int_eq(fscanf(f, "%zu", &n), 1);
    pclose(f);
    return n;
}

/* binaries: off builds from source every time and writes nothing to
 * frx's cache; auto does the same on PoCL with its kernel cache on (a
 * binary costs PoCL a second compile of every kernel), and keeps
 * binaries elsewhere. */
START_TEST(binaries_left_to_a_platform_that_caches_builds)
{
    char body[256], own[4200];
    const char *shared = getenv("FRX_CACHE_DIR");
    snprintf(own, sizeof own, "%s/binaries-%ld", shared ? shared : "/tmp",
             (long)getpid());
    char *old = shared ? strdup(shared) : NULL;
    setenv("FRX_CACHE_DIR", own, 1);
    const char *pocl_cache = getenv("POCL_KERNEL_CACHE");
    int pocl = strstr(pname, "Portable Computing Language") &&
               !(pocl_cache && strcmp(pocl_cache, "0") == 0);
    const char *modes[] = {"off", "auto"};
    for (int m = 0; m < 2; m++) {
        frx_kernel_decl d = unique_scale(body, sizeof body);
        int keeps = m == 1 && !pocl;
        frx_backend_stats st;
        setenv("FRX_TEST_OPENCL_BINARIES", modes[m], 1);
        run_scale(&d, &st);
        ck_assert_uint_eq(st.compiles, 1);
        run_scale(&d, &st);
        ck_assert_uint_eq(st.compiles, keeps ? 0 : 1);
        ck_assert_uint_eq(st.cache_loads, keeps ? 1 : 0);
    }
    unsetenv("FRX_TEST_OPENCL_BINARIES");
    /* where auto keeps binaries: the pack kernels' (built as the backend
     * starts) and scale's */
    ck_assert_uint_eq(binaries_under(own), pocl ? 0 : 2);
    if (old)
        setenv("FRX_CACHE_DIR", old, 1);
    else
        unsetenv("FRX_CACHE_DIR");
    free(old);
}
END_TEST

START_TEST(bad_binaries_is_a_config_error)
{
    refused("    binaries: sometimes\n", FRX_ECONFIG, "case.yaml:5:15",
            "backend.opencl.binaries", "auto, on, off", NULL);
}
END_TEST

START_TEST(cache_off_builds_every_time)
{
    frx_backend_stats st;
    setenv("FRX_CACHE", "off", 1);
    setenv("FRX_TEST_OPENCL_BINARIES", "on", 1); /* not left to PoCL */
    run_scale(&scale, &st);
    ck_assert_uint_eq(st.compiles, 1);
    run_scale(&scale, &st);
    unsetenv("FRX_CACHE");
    unsetenv("FRX_TEST_OPENCL_BINARIES");
    ck_assert_uint_eq(st.compiles, 1);
}
END_TEST

/* The build log points at lines of the kept source. */
START_TEST(build_error_shows_log_and_kept_source)
{
    frx_config *cfg;
    frx_backend *be = tu_backend_or_skip("opencl", "single", &cfg);
    frx_kernel_decl d = {.name = "tcl_broken", .ndim = 1,
                         .args = "out xchg fpdtype_t[1] a",
                         .body = "a[0] = undeclared_thing;"};
    ck_assert_int_eq(frx_kernel_register(be, &d), FRX_OK);
    frx_xchg_matrix *a;
    ck_assert_int_eq(frx_xchg_matrix_create(be, 4, 1, 1, &a), FRX_OK);
    frx_arg args[] = {frx_arg_xchg(a)};
    frx_kernel *k;
    ck_assert_int_eq(frx_kernel_create(be, "tcl_broken", 1, 4, args, 1, &k),
                     FRX_EBACKEND);
    const char *msg = frx_errmsg();
    ck_assert_ptr_nonnull(strstr(msg, "kernel 'tcl_broken': clBuildProgram "
                                      "failed"));
    ck_assert_ptr_nonnull(strstr(msg, "undeclared_thing"));
    const char *kept = strstr(msg, "the generated source is kept at ");
    ck_assert_ptr_nonnull(kept);
    char path[4096];
    kept += strlen("the generated source is kept at ");
    ck_assert_int_eq(sscanf(kept, "%4095[^;]", path), 1);
    ck_assert_ptr_nonnull(strstr(path, "/tcl_broken.cl"));
    ck_assert_int_eq(access(path, R_OK), 0);
    char at[4200];
    snprintf(at, sizeof at, "%s:", path); /* path:line:col in the log */
    const char *in_log = strstr(msg, at);
    ck_assert_msg(in_log && in_log < kept && isdigit((unsigned char)
                                                     in_log[strlen(at)]),
                  "no %sLINE in: %s", at, msg);
    unlink(path);
    *strrchr(path, '/') = '\0';
    rmdir(path);
    frx_xchg_matrix_destroy(a);
    frx_backend_destroy(be);
    frx_config_free(cfg);
}
END_TEST

/* Bad build options fail at start-up, on the pack kernels (PoCL says
 * CL_INVALID_BUILD_OPTIONS, NVIDIA a build failure with a log). */
START_TEST(bad_build_options_refused)
{
    refused("    build-options: -no-such-option\n", FRX_EBACKEND,
            "kernel 'frx_pack': clBuildProgram", "build-options",
            "'-no-such-option'", NULL);
}
END_TEST

static Suite *opencl_suite(void)
{
    Suite *s = suite_create("opencl");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120); /* cold compiles */
    tcase_add_test(tc, probe_names_platform_and_device);
    tcase_add_test(tc, devices_chosen_by_index_name_and_type);
    tcase_add_test(tc, bad_device_index_refused);
    tcase_add_test(tc, device_name_matching_nothing_refused);
    tcase_add_test(tc, bad_platform_refused);
    tcase_add_test(tc, missing_device_type_refused);
    tcase_add_test(tc, bad_device_type_is_a_config_error);
    tcase_add_test(tc, fp64_needs_the_extension_or_a_double_config);
    tcase_add_test(tc, alignment_from_base_addr_align);
    tcase_add_test(tc, out_of_order_only_where_the_device_has_it);
    tcase_add_test(tc, queue_out_of_order_where_the_device_has_it);
    tcase_add_test(tc, bad_queue_is_a_config_error);
    tcase_add_test(tc, packs_of_every_shape);
    tcase_add_test(tc, chains_right_on_an_out_of_order_queue);
    tcase_add_test(tc, chains_right_on_an_in_order_queue);
    tcase_add_test(tc, events_only_where_a_later_node_waits);
    tcase_add_test(tc, binary_reloaded_from_the_cache);
    tcase_add_test(tc, binaries_left_to_a_platform_that_caches_builds);
    tcase_add_test(tc, bad_binaries_is_a_config_error);
    tcase_add_test(tc, cache_off_builds_every_time);
    tcase_add_test(tc, build_error_shows_log_and_kept_source);
    tcase_add_test(tc, bad_build_options_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    frx_plugin *p;
    char why[512];
    if (frx_plugin_find(NULL, "opencl", &p) != FRX_OK ||
        frx_plugin_probe(p, why, sizeof why) != FRX_OK) {
        printf("SKIP: opencl cannot start here: %s\n", frx_errmsg());
        return 77;
    }
    if (cl_names() != 0) {
        printf("SKIP: opencl starts but platform 0 has no device 0\n");
        return 77;
    }
    srand((unsigned)getpid());
    SRunner *sr = srunner_create(opencl_suite());
    srunner_set_fork_status(sr, CK_NOFORK); /* OpenCL after fork: no */
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
