/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: what io's HDF5 files share (h5.h): HDF5's failures as frx
 * errors, attributes, rows of datasets, MPI-IO access. */
#include "io/h5.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ HDF5's failures */

static herr_t collect(unsigned n, const H5E_error2_t *e, void *ud)
{
    char *buf = ud, desc[256];
    size_t len = strlen(buf);
    (void)n;
    /* "unable to open file: time = ..., name = ...": the first part */
    snprintf(desc, sizeof desc, "%s", e->desc ? e->desc : "");
    desc[strcspn(desc, "\n")] = '\0';
    char *noise = strstr(desc, ": time = ");
    if (noise)
        *noise = '\0';
    if (*desc && !strstr(buf, desc))
        snprintf(buf + len, 600 - len, "%s%s", len ? "; " : "", desc);
    return 0;
}

/* Note HDF5's reason for a failure of `what` (right after the call: the
 * next HDF5 call clears it); true while nothing has failed. */
int frx__h5_ok(struct frx__h5 *c, hid_t ret, const char *what)
{
    if (ret >= 0 || c->rc)
        return !c->rc;
    char text[600] = "";
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, collect, text);
    c->rc = frx_error(FRX_EIO, "cannot %s %s: %s", what, c->path,
                      text[0] ? text : "HDF5 gives no reason");
    return 0;
}

void frx__h5_close(hid_t id, herr_t (*fn)(hid_t))
{
    if (id >= 0)
        fn(id);
}

/* ------------------------------------------------------------ attributes */

int frx__h5_attr_put(struct frx__h5 *c, hid_t loc, const char *name,
                     hid_t type, hid_t mtype, size_t n, const void *val)
{
    hsize_t dim = n;
    hid_t sp = n == 1 ? H5Screate(H5S_SCALAR)
                      : H5Screate_simple(1, &dim, NULL);
    hid_t a = -1;
    if (frx__h5_ok(c, sp, "make a dataspace in"))
        a = H5Acreate2(loc, name, type, sp, H5P_DEFAULT, H5P_DEFAULT);
    if (frx__h5_ok(c, a, "add an attribute to"))
        frx__h5_ok(c, H5Awrite(a, mtype, val), "write an attribute of");
    frx__h5_close(a, H5Aclose);
    frx__h5_close(sp, H5Sclose);
    return c->rc;
}

hid_t frx__h5_str_type(size_t width)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0 && (H5Tset_size(t, width) < 0 ||
                   H5Tset_strpad(t, H5T_STR_NULLTERM) < 0)) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

/* n strings of at most width - 1 bytes, one after the other. */
int frx__h5_attr_put_strs(struct frx__h5 *c, hid_t loc, const char *name,
                          size_t n, size_t width, const char *strs)
{
    hid_t t = frx__h5_str_type(width);
    if (frx__h5_ok(c, t, "make a string type for"))
        frx__h5_attr_put(c, loc, name, t, t, n, strs);
    frx__h5_close(t, H5Tclose);
    return c->rc;
}

int frx__h5_attr_put_str(struct frx__h5 *c, hid_t loc, const char *name,
                         const char *s)
{
    return frx__h5_attr_put_strs(c, loc, name, 1, strlen(s) + 1, s);
}

int frx__h5_not_ours(struct frx__h5 *c, const char *what)
{
    const char *kind = c->kind ? c->kind : "checkpoint";
    c->rc = frx_error(FRX_EIO, "%s %s has no %s: it is not an frx %s, or "
                      "a damaged one", kind, c->path, what, kind);
    return c->rc;
}

/* Open attribute name holding n values (n = 0: any number, returned). */
hid_t frx__h5_attr_open(struct frx__h5 *c, hid_t loc, const char *name,
                        size_t *n)
{
    htri_t has = H5Aexists(loc, name);
    if (!frx__h5_ok(c, has, "read the attributes of"))
        return -1;
    if (!has) {
        frx__h5_not_ours(c, name);
        return -1;
    }
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t sp = -1;
    if (frx__h5_ok(c, a, "open an attribute of"))
        sp = H5Aget_space(a);
    hssize_t got = -1;
    if (frx__h5_ok(c, sp, "read an attribute of"))
        got = H5Sget_simple_extent_npoints(sp);
    if (frx__h5_ok(c, (hid_t)got, "read an attribute of") && *n &&
        (size_t)got != *n)
        frx__h5_not_ours(c, name);
    *n = got > 0 ? (size_t)got : 0;
    frx__h5_close(sp, H5Sclose);
    if (c->rc) {
        frx__h5_close(a, H5Aclose);
        return -1;
    }
    return a;
}

int frx__h5_attr_get(struct frx__h5 *c, hid_t loc, const char *name,
                     hid_t mtype, size_t n, void *val)
{
    hid_t a = frx__h5_attr_open(c, loc, name, &n);
    if (a >= 0)
        frx__h5_ok(c, H5Aread(a, mtype, val), "read an attribute of");
    frx__h5_close(a, H5Aclose);
    return c->rc;
}

/* A string attribute (n = 1) or array of them, as *strs: n strings of
 * *width bytes each, NUL-terminated; free it. */
int frx__h5_attr_get_strs(struct frx__h5 *c, hid_t loc, const char *name,
                          size_t *n, size_t *width, char **strs)
{
    *strs = NULL;
    hid_t a = frx__h5_attr_open(c, loc, name, n);
    hid_t ft = -1, mt = -1;
    if (a >= 0)
        ft = H5Aget_type(a);
    if (frx__h5_ok(c, ft, "read an attribute of") &&
        (H5Tget_class(ft) != H5T_STRING || H5Tis_variable_str(ft) != 0))
        frx__h5_not_ours(c, name);
    if (!c->rc) {
        *width = H5Tget_size(ft) + 1; /* room for a NUL */
        mt = frx__h5_str_type(*width);
        *strs = calloc(*n ? *n : 1, *width);
        if (!*strs)
            c->rc = frx_error(FRX_ENOMEM, "out of memory reading %s",
                              c->path);
    }
    if (frx__h5_ok(c, mt, "make a string type for"))
        frx__h5_ok(c, H5Aread(a, mt, *strs), "read an attribute of");
    frx__h5_close(mt, H5Tclose);
    frx__h5_close(ft, H5Tclose);
    frx__h5_close(a, H5Aclose);
    if (c->rc) {
        free(*strs);
        *strs = NULL;
    }
    return c->rc;
}

int frx__h5_attr_get_str(struct frx__h5 *c, hid_t loc, const char *name,
                         char *buf, size_t cap)
{
    size_t n = 1, width;
    char *s;
    if (frx__h5_attr_get_strs(c, loc, name, &n, &width, &s))
        return c->rc;
    snprintf(buf, cap, "%s", s);
    free(s);
    return c->rc;
}

/* Rows [row0, row0 + n) of a dataset, read or written collectively. */
int frx__h5_slab(struct frx__h5 *c, hid_t ds, int write, hid_t mtype,
                 uint64_t row0, size_t n, void *buf)
{
    hid_t fs = H5Dget_space(ds), ms = -1, x = -1;
    hsize_t dims[3] = {0, 1, 1}, start[3] = {row0, 0, 0}, count[3];
    int nd = -1;
    if (frx__h5_ok(c, fs, "read the shape of a dataset of"))
        nd = H5Sget_simple_extent_dims(fs, dims, NULL);
    if (frx__h5_ok(c, nd, "read the shape of a dataset of")) {
        memcpy(count, dims, sizeof dims);
        count[0] = n ? n : 1;
        ms = H5Screate_simple(nd, count, NULL);
        count[0] = n;
    }
    if (frx__h5_ok(c, ms, "make a dataspace for") && n)
        frx__h5_ok(c, H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL,
                                          count, NULL),
                   "select rows of");
    if (!c->rc && !n)
        frx__h5_ok(c, H5Sselect_none(fs) < 0 ? -1 : H5Sselect_none(ms),
                   "select no rows of");
    if (frx__h5_ok(c, x = H5Pcreate(H5P_DATASET_XFER),
                   "make a transfer list for"))
        frx__h5_ok(c, H5Pset_dxpl_mpio(x, H5FD_MPIO_COLLECTIVE),
                   "ask for collective I/O on");
    if (!c->rc && write)
        frx__h5_ok(c, H5Dwrite(ds, mtype, ms, fs, x, buf), "write");
    else if (!c->rc)
        frx__h5_ok(c, H5Dread(ds, mtype, ms, fs, x, buf), "read");
    frx__h5_close(x, H5Pclose);
    frx__h5_close(ms, H5Sclose);
    frx__h5_close(fs, H5Sclose);
    return c->rc;
}

struct frx__h5_quiet frx__h5_hush(void)
{
    struct frx__h5_quiet q = {NULL, NULL};
    H5Eget_auto2(H5E_DEFAULT, &q.fn, &q.data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    return q;
}

void frx__h5_unhush(struct frx__h5_quiet q)
{
    H5Eset_auto2(H5E_DEFAULT, q.fn, q.data);
}

hid_t frx__h5_mpio_fapl(struct frx__h5 *c)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (frx__h5_ok(c, fapl, "make a file access list for") &&
        !frx__h5_ok(c, H5Pset_fapl_mpio(fapl, c->comm, MPI_INFO_NULL),
                    "use MPI-IO for")) {
        H5Pclose(fapl);
        return -1;
    }
    return fapl;
}
