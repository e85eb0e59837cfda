/* SPDX-License-Identifier: BSD-3-Clause */
/* frx: what io's HDF5 files (checkpoints, partitioned meshes) share:
 * HDF5's failures turned into frx errors, attributes, rows of datasets,
 * MPI-IO file access. Internal to the io folder. Each call does nothing
 * once c->rc records a failure, so a sequence of calls needs one check
 * at its end. */
#ifndef FRX_IO_H5_H
#define FRX_IO_H5_H

#include "io/io-impl.h"

#include <hdf5.h>
#ifndef H5_HAVE_PARALLEL
#error "frx needs HDF5 built for MPI (Debian: libhdf5-openmpi-dev)"
#endif
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* One file being read or written; rc is its first failure. kind names
 * the file in messages ("checkpoint" when NULL). */
struct frx__h5 {
    MPI_Comm comm;
    const char *path;
    int rc;
    const char *kind;
};

/* Record HDF5's reason for a failed call (ret < 0) of `what` ("open",
 * "read an attribute of") as c->rc; true while nothing has failed. */
int frx__h5_ok(struct frx__h5 *c, hid_t ret, const char *what);
/* fn(id) for a valid id (H5Dclose, H5Sclose...). */
void frx__h5_close(hid_t id, herr_t (*fn)(hid_t));

/* Attributes: n values (a scalar for n = 1), strings of at most width - 1
 * bytes one after the other. */
int frx__h5_attr_put(struct frx__h5 *c, hid_t loc, const char *name,
                     hid_t type, hid_t mtype, size_t n, const void *val);
hid_t frx__h5_str_type(size_t width);
int frx__h5_attr_put_strs(struct frx__h5 *c, hid_t loc, const char *name,
                          size_t n, size_t width, const char *strs);
int frx__h5_attr_put_str(struct frx__h5 *c, hid_t loc, const char *name,
                         const char *s);
/* "<kind> PATH has no WHAT: it is not an frx <kind>, or a damaged one" */
int frx__h5_not_ours(struct frx__h5 *c, const char *what);
/* The attribute holding n values (n = 0: any number, returned), or -1;
 * a missing one is frx__h5_not_ours. */
hid_t frx__h5_attr_open(struct frx__h5 *c, hid_t loc, const char *name,
                        size_t *n);
int frx__h5_attr_get(struct frx__h5 *c, hid_t loc, const char *name,
                     hid_t mtype, size_t n, void *val);
/* A string attribute (n = 1) or array of them, as *strs: n strings of
 * *width bytes each, NUL-terminated; free it. */
int frx__h5_attr_get_strs(struct frx__h5 *c, hid_t loc, const char *name,
                          size_t *n, size_t *width, char **strs);
int frx__h5_attr_get_str(struct frx__h5 *c, hid_t loc, const char *name,
                         char *buf, size_t cap);

/* Collective: rows [row0, row0 + n) of a dataset (n may be 0), read or
 * written with collective MPI-IO. */
int frx__h5_slab(struct frx__h5 *c, hid_t ds, int write, hid_t mtype,
                 uint64_t row0, size_t n, void *buf);

/* HDF5 prints its error stack by itself; frx reports it instead. */
struct frx__h5_quiet {
    H5E_auto2_t fn;
    void *data;
};
struct frx__h5_quiet frx__h5_hush(void);
void frx__h5_unhush(struct frx__h5_quiet q);

/* A file access list for MPI-IO over c->comm, or -1. */
hid_t frx__h5_mpio_fapl(struct frx__h5 *c);

#endif
