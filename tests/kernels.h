/* SPDX-License-Identifier: BSD-3-Clause */
/* The kernels of the test suite: the conformance tests run them on each
 * backend and the GPU compile test compiles all of them with NVRTC and
 * hiprtc. */
#ifndef FRX_TEST_KERNELS_H
#define FRX_TEST_KERNELS_H

#include <frx/frx.h>

/* 2-D over rows x elements: y += a*x. */
static const frx_kernel_decl tk_axpy = {
    .name = "tk_axpy", .ndim = 2,
    .args = "in fpdtype_t[3] x, inout fpdtype_t[3] y, scalar fpdtype_t a",
    .body = "for (int v = 0; v < 3; v++)\n    y[v] += a*x[v];"};

/* 2-D with a (2, 3) matrix argument: rows x*nrows + j. */
static const frx_kernel_decl tk_grad = {
    .name = "tk_grad", .ndim = 2,
    .args = "in fpdtype_t[2][3] g, out fpdtype_t[3] s",
    .body = "for (int v = 0; v < 3; v++)\n    s[v] = g[0][v] - 2*g[1][v];"};

/* The forum case: the live interface values minus the base flow saved
 * at t = 0 (an xchg snapshot), as PyFR's intconulin with a base flow. */
static const frx_kernel_decl tk_baseflow = {
    .name = "intconulin_baseflow_check", .ndim = 1,
    .args = "in view fpdtype_t[4] ul, in xchg fpdtype_t[4] ublin, "
            "out xchg fpdtype_t[4] diff",
    .body = "for (int k = 0; k < 4; k++)\n    diff[k] = ul[k] - ublin[k];"};

/* Views with (ndims, nvars) points in, a vector view out, a matrix. */
static const frx_kernel_decl tk_views = {
    .name = "tk_views", .ndim = 1,
    .args = "in view fpdtype_t[2][3] g, out view fpdtype_t[3] o, "
            "in fpdtype_t[2] nl",
    .body = "for (int v = 0; v < 3; v++)\n"
            "    o[v] = nl[0]*g[0][v] + nl[1]*g[1][v];"};

/* A gradient's two sides at an interface shared with a peer rank (the
 * navier-stokes flux's gl and gr): ours in a view of ndims rows a point,
 * the peer's received in an xchg matrix of the same shape. */
static const frx_kernel_decl tk_gradx = {
    .name = "tk_gradx", .ndim = 1,
    .args = "in view fpdtype_t[2][3] gl, in xchg fpdtype_t[2][3] gr, "
            "out view fpdtype_t[3] o",
    .body = "for (int v = 0; v < 3; v++)\n"
            "    o[v] = gl[0][v] - 2*gl[1][v] + 3*gr[0][v] - 4*gr[1][v];"};

/* A broadcast operator applied at every point. */
static const frx_kernel_decl tk_broadcast = {
    .name = "tk_broadcast", .ndim = 2,
    .args = "in broadcast fpdtype_t[3][5] B, in fpdtype_t[5] u, "
            "out fpdtype_t[3] w",
    .body = "for (int i = 0; i < 3; i++) {\n"
            "    fpdtype_t acc = 0;\n"
            "    for (int j = 0; j < 5; j++)\n"
            "        acc += B[i][j]*u[j];\n"
            "    w[i] = acc;\n"
            "}"};

/* Scalars of both types and scalar-shaped matrices. */
static const frx_kernel_decl tk_scalars = {
    .name = "tk_scalars", .ndim = 1,
    .args = "in fpdtype_t x, out fpdtype_t y, scalar fpdtype_t t, "
            "scalar fpdtype_t dt, scalar int32_t k",
    .body = "y = x*t + dt*k;"};

/* A macro registered by the "solver". */
static const frx_kernel_macro tk_square_macro = {
    .name = "tk_square", .params = "a, r",
    /* a // comment must not end the macro (its lines are continued) */
    .body = "r = (a) // the value, \"and\" 'more' /* not a comment\n"
            "    * (a); /* squared // still */"};
static const frx_kernel_decl tk_macro = {
    .name = "tk_macro", .ndim = 1,
    .args = "in xchg fpdtype_t[2] a, out xchg fpdtype_t[2] r",
    .body = "tk_square(a[0], r[0]);\ntk_square(a[1] + 1, r[1]);"};

/* Reductions: max of a (2, 3) array, min of one row, a plain sum. */
static const frx_kernel_decl tk_reduce3 = {
    .name = "tk_reduce3", .ndim = 1,
    .args = "in fpdtype_t[2][3] u, out reduce(max) fpdtype_t[2][3] mx, "
            "out reduce(min) fpdtype_t[3] mn, reduce(sum) fpdtype_t sm",
    .body = "for (int r = 0; r < 2; r++)\n"
            "    for (int v = 0; v < 3; v++) {\n"
            "        mx[r][v] = u[r][v];\n"
            "        sm += u[r][v];\n"
            "    }\n"
            "for (int v = 0; v < 3; v++)\n"
            "    mn[v] = u[1][v];"};

/* Over rows x points: the squares of each variable, summed. */
static const frx_kernel_decl tk_normsq = {
    .name = "tk_normsq", .ndim = 2,
    .args = "in fpdtype_t[4] u, out reduce(sum) fpdtype_t[4] s",
    .body = "for (int v = 0; v < 4; v++)\n    s[v] = u[v]*u[v];"};

/* The base-flow check as one number: the largest |live - saved|. */
static const frx_kernel_decl tk_baseflow_max = {
    .name = "tk_baseflow_max", .ndim = 1,
    .args = "in view fpdtype_t[4] ul, in xchg fpdtype_t[4] ublin, "
            "out reduce(max) fpdtype_t dmax",
    .body = "for (int k = 0; k < 4; k++) {\n"
            "    fpdtype_t d = fabs(ul[k] - ublin[k]);\n"
            "    dmax = d > dmax ? d : dmax;\n"
            "}"};

/* NaN/Inf per variable, and a max that must ignore them. */
static const frx_kernel_decl tk_nonfinite = {
    .name = "tk_nonfinite", .ndim = 2,
    .args = "in fpdtype_t[4] u, out reduce(max) fpdtype_t[4] bad, "
            "out reduce(max) fpdtype_t[4] mx",
    .body = "for (int v = 0; v < 4; v++) {\n"
            "    bad[v] = isfinite(u[v]) ? 0 : 1;\n"
            "    mx[v] = u[v];\n"
            "}"};

/* Three small steps for the host-node graph. */
static const frx_kernel_decl tk_scale1 = {
    .name = "tk_scale1", .ndim = 1,
    .args = "in fpdtype_t x, out fpdtype_t y, scalar fpdtype_t a",
    .body = "y = a*x;"};
static const frx_kernel_decl tk_sum1 = {
    .name = "tk_sum1", .ndim = 1,
    .args = "in fpdtype_t y, out reduce(sum) fpdtype_t s", .body = "s = y;"};
static const frx_kernel_decl tk_axpy1 = {
    .name = "tk_axpy1", .ndim = 1,
    .args = "in fpdtype_t x, inout fpdtype_t z, scalar fpdtype_t a",
    .body = "z += a*x;"};

/* Inputs the body never names (a generic kernel's, such as a boundary
 * flux's x where the ghost state needs none): bound, never loaded. */
static const frx_kernel_decl tk_unread = {
    .name = "tk_unread", .ndim = 1,
    .args = "in fpdtype_t[3] x, in xchg fpdtype_t[2] w, "
            "out xchg fpdtype_t o, scalar fpdtype_t a",
    .body = "o = a;"};

static const frx_kernel_decl *const tk_all[] = {
    &tk_axpy, &tk_grad, &tk_baseflow, &tk_views, &tk_broadcast, &tk_scalars,
    &tk_macro, &tk_reduce3, &tk_normsq, &tk_baseflow_max, &tk_nonfinite,
    &tk_scale1, &tk_sum1, &tk_axpy1, &tk_unread, &tk_gradx};
#define TK_COUNT (sizeof tk_all / sizeof *tk_all)

#endif
