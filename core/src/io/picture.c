/* SPDX-License-Identifier: BSD-3-Clause */
/* frx io: a picture of one variable of a 2-D solution (io-impl.h), drawn
 * on rank 0 from every rank's elements (their output points and values
 * there) and written as PNG under a temporary name, then renamed. */
#include "io/io-impl.h"
#include "io/io-util.h"
#include "io/picture.h"

#include <png.h>

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PATH_BYTES 4096
#define MAX_SIDE 8192

/* ------------------------------------------------------------ elements */

/* This rank's elements as doubles: per element etype, nvis, then
 * (x, y, value) at each output point. */
static int pack(const struct frx__io_fields *f, size_t var, double **out,
                size_t *len, double box[4])
{
    size_t n = 0;
    for (size_t b = 0; b < f->nblocks; b++)
        n += f->blocks[b].sb->neles * (2 + 3 * f->blocks[b].sb->nvis);
    double *d = malloc((n ? n : 1) * sizeof *d), *uk = NULL;
    size_t at = 0, maxu = 1;
    for (size_t b = 0; b < f->nblocks; b++)
        maxu = f->blocks[b].sb->nupts > maxu ? f->blocks[b].sb->nupts : maxu;
    if (!d || !(uk = malloc(maxu * sizeof *uk))) {
        free(d);
        return frx_error(FRX_ENOMEM, "out of memory for a picture");
    }
    box[0] = box[1] = HUGE_VAL, box[2] = box[3] = -HUGE_VAL;
    for (size_t b = 0; b < f->nblocks; b++) {
        const struct frx__io_block *ib = &f->blocks[b];
        const frx_solver_block *sb = ib->sb;
        size_t nupts = sb->nupts, neles = sb->neles, nvis = sb->nvis;
        for (size_t e = 0; e < neles; e++) {
            for (size_t k = 0; k < nupts; k++) {
                size_t i = (k * f->nvars + var) * neles + e;
                uk[k] = f->fpsize == 4 ? ((const float *)ib->u)[i]
                                       : ((const double *)ib->u)[i];
            }
            d[at++] = ib->etype;
            d[at++] = (double)nvis;
            for (size_t j = 0; j < nvis; j++) {
                const double *x = sb->vis_pts + (e * nvis + j) * 2;
                const double *op = sb->vis_op + j * nupts;
                double s = 0;
                for (size_t k = 0; k < nupts; k++)
                    s += op[k] * uk[k];
                d[at++] = x[0], d[at++] = x[1], d[at++] = s;
                box[0] = fmin(box[0], x[0]), box[1] = fmin(box[1], x[1]);
                box[2] = fmax(box[2], x[0]), box[3] = fmax(box[3], x[1]);
            }
        }
    }
    free(uk);
    *out = d;
    *len = at;
    return FRX_OK;
}

/* Every rank's elements on root (*all, *len there). */
static int gather(MPI_Comm comm, const double *mine, size_t n, double **all,
                  size_t *len)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int cnt = n > (size_t)0x7fffffff ? -1 : (int)n;
    int *counts = rank == 0 ? calloc((size_t)size, sizeof *counts) : NULL;
    int *displs = rank == 0 ? calloc((size_t)size, sizeof *displs) : NULL;
    MPI_Gather(&cnt, 1, MPI_INT, counts, 1, MPI_INT, 0, comm);
    int rc = FRX_OK;
    size_t total = 0;
    if (rank == 0) {
        if (!counts || !displs)
            rc = frx_error(FRX_ENOMEM, "out of memory for a picture");
        for (int r = 0; !rc && r < size; r++) {
            if (counts[r] < 0 || total + (size_t)counts[r] > 0x7fffffff)
                rc = frx_error(FRX_ERANGE, "a picture of over 2^31 values "
                               "of output points: too large to gather; "
                               "draw a coarser mesh or order");
            displs[r] = (int)total;
            total += rc ? 0 : (size_t)counts[r];
        }
        *all = rc ? NULL : malloc((total ? total : 1) * sizeof **all);
        if (!rc && !*all)
            rc = frx_error(FRX_ENOMEM, "out of memory for a picture");
    }
    /* root's failure: every rank skips the gather */
    MPI_Bcast(&rc, 1, MPI_INT, 0, comm);
    if (rc == FRX_OK && cnt >= 0)
        MPI_Gatherv(mine, cnt, MPI_DOUBLE, rank == 0 ? *all : NULL, counts,
                    displs, MPI_DOUBLE, 0, comm);
    free(counts);
    free(displs);
    *len = total;
    return rc;
}

/* ------------------------------------------------------------------ PNG */

struct png_out {
    jmp_buf jump;
    char why[256];
};

static void png_failed(png_structp png, png_const_charp msg)
{
    struct png_out *o = png_get_error_ptr(png);
    snprintf(o->why, sizeof o->why, "%s", msg);
    longjmp(o->jump, 1);
}

static void png_warned(png_structp png, png_const_charp msg)
{
    (void)png, (void)msg;
}

/* The picture to fp as RGB PNG, with text chunks key/value (n). */
static int png_put(FILE *fp, const struct frx__pic *p, char (*text)[2][160],
                   int n, char *why, size_t nwhy)
{
    struct png_out o = {.why = ""};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &o,
                                              png_failed, png_warned);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, NULL);
        snprintf(why, nwhy, "libpng: out of memory");
        return FRX_ENOMEM;
    }
    png_text *t = calloc((size_t)n, sizeof *t);
    png_bytep *rows = malloc((size_t)p->h * sizeof *rows);
    if (!t || !rows) {
        free(t);
        free(rows);
        png_destroy_write_struct(&png, &info);
        snprintf(why, nwhy, "out of memory");
        return FRX_ENOMEM;
    }
    if (setjmp(o.jump)) {
        free(t);
        free(rows);
        png_destroy_write_struct(&png, &info);
        snprintf(why, nwhy, "libpng: %s", o.why);
        return FRX_EIO;
    }
    png_init_io(png, fp);
    png_set_IHDR(png, info, (png_uint_32)p->w, (png_uint_32)p->h, 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    for (int i = 0; i < n; i++)
        t[i] = (png_text){.compression = PNG_TEXT_COMPRESSION_NONE,
                          .key = text[i][0], .text = text[i][1]};
    png_set_text(png, info, t, n);
    for (int j = 0; j < p->h; j++)
        rows[j] = p->rgb + (size_t)j * (size_t)p->w * 3;
    png_set_rows(png, info, rows);
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    png_destroy_write_struct(&png, &info);
    free(t);
    free(rows);
    return FRX_OK;
}

/* Draw the gathered elements and write path (rank 0). */
static int draw(const char *path, const double *d, size_t len,
                const double box[4], const char *title, int width,
                const char *var)
{
    double w = box[2] - box[0], h = box[3] - box[1];
    if (!(w > 0 && h > 0))
        return frx_error(FRX_EINVAL, "a picture needs a 2-D extent; the "
                         "mesh spans %g x %g", w, h);
    struct frx__raster r = {.w = width, .x0 = box[0], .y0 = box[1],
                            .x1 = box[2], .y1 = box[3]};
    double hr = width * h / w;
    if (hr > MAX_SIDE) /* a tall domain: keep the height in bounds */
        r.w = (int)fmax(16, width * MAX_SIDE / hr), hr = MAX_SIDE;
    r.h = (int)fmax(16, lround(hr));
    size_t npix = (size_t)r.w * (size_t)r.h;
    r.val = malloc(npix * sizeof *r.val);
    if (!r.val)
        return frx_error(FRX_ENOMEM, "out of memory for a picture");
    for (size_t i = 0; i < npix; i++)
        r.val[i] = NAN;
    for (size_t at = 0; at + 2 <= len;) {
        int etype = (int)d[at], nvis = (int)d[at + 1];
        const double *p = d + at + 2;
        at += 2 + 3 * (size_t)nvis;
        double xy[2 * 289], v[289];
        int q = frx__pic_order(etype, (size_t)nvis);
        if (!q || nvis > 289)
            continue;
        for (int k = 0; k < nvis; k++)
            xy[2 * k] = p[3 * k], xy[2 * k + 1] = p[3 * k + 1],
            v[k] = p[3 * k + 2];
        frx__raster_element(&r, etype, q, xy, v);
    }
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (size_t i = 0; i < npix; i++)
        if (!isnan(r.val[i]))
            lo = fmin(lo, r.val[i]), hi = fmax(hi, r.val[i]);
    struct frx__pic pic = {0};
    struct frx__pic_layout at;
    /* a field constant to round-off: one colour, a bar around its value
     * (differences of 1e-16 in ten digits' labels tell no one anything) */
    double pad = 0;
    if (lo <= hi && hi - lo <= 1e-12 * fmax(fabs(lo), fabs(hi))) {
        double mid = 0.5 * (lo + hi);
        for (size_t i = 0; i < npix; i++)
            if (!isnan(r.val[i]))
                r.val[i] = mid;
        lo = hi = mid;
        pad = mid != 0 ? fabs(mid) * 0.01 : 1;
    }
    int rc = lo <= hi ? frx__pic_draw(&r, lo - pad, hi + pad, title, &pic,
                                      &at)
                      : frx_error(FRX_EINVAL, "picture %s: no element covers "
                                  "a pixel", path);
    free(r.val);
    if (rc)
        return rc;
    char text[6][2][160];
    int n = 0;
#define TEXT(k, ...)                                                        \
    (snprintf(text[n][0], 160, "%s", k),                                    \
     snprintf(text[n][1], 160, __VA_ARGS__), n++)
    TEXT("Title", "%s", title);
    TEXT("Software", "frx");
    TEXT("frx variable", "%s", var);
    TEXT("frx range", "%.17g %.17g", lo, hi);
    TEXT("frx plot area", "%d %d %d %d %.17g %.17g %.17g %.17g", at.plot[0],
         at.plot[1], at.plot[2], at.plot[3], r.x0, r.y0, r.x1, r.y1);
    TEXT("frx colour bar", "%d %d %d %d %.17g %.17g viridis", at.bar[0],
         at.bar[1], at.bar[2], at.bar[3], lo - pad, hi + pad);
#undef TEXT
    char tmp[PATH_BYTES + 16], why[300] = "";
    FILE *fp = NULL;
    if (snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path) >= (int)sizeof tmp)
        rc = frx_error(FRX_EINVAL, "picture path too long: %s", path);
    int fd = rc ? -1 : mkstemp(tmp);
    if (!rc && (fd < 0 || !(fp = fdopen(fd, "wb")))) {
        rc = frx_error(FRX_EIO, "cannot write the picture %s: %s (creating "
                       "%s); check that its folder exists and can be "
                       "written", path, strerror(errno), tmp);
        if (fd >= 0)
            close(fd), unlink(tmp);
    }
    if (!rc) {
        rc = png_put(fp, &pic, text, n, why, sizeof why);
        if (rc) {
            fclose(fp);
            unlink(tmp);
            rc = frx_error(rc, "cannot write the picture %s: %s", path, why);
        } else {
            rc = frx__io_commit(fp, 0, tmp, path);
        }
    }
    free(pic.rgb);
    return rc;
}

int frx__picture_write(MPI_Comm comm, const char *path,
                       const struct frx__io_fields *f, size_t var,
                       const char *title, int width)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    int rc = frx__io_check(f, "a picture");
    if (!rc && f->ndims != 2)
        rc = frx_error(FRX_ENOTSUP, "a picture is of a 2-D field; this "
                       "mesh is %d-D: use the VTK output", f->ndims);
    for (size_t b = 0; !rc && b < f->nblocks; b++) {
        const struct frx__io_block *ib = &f->blocks[b];
        if (!frx__pic_order(ib->etype, ib->sb->nvis))
            rc = frx_error(FRX_ENOTSUP, "picture: block %zu (%s) has %zu "
                           "output points per element, no Lagrange cell "
                           "of order 1 to 16", b,
                           frx__io_etype(ib->etype)->name, ib->sb->nvis);
    }
    if (!rc && var >= f->nvars)
        rc = frx_error(FRX_EINVAL, "picture: no variable %zu (%zu)", var,
                       f->nvars);
    double *mine = NULL, *all = NULL, box[4];
    size_t n = 0, len = 0;
    if (!rc)
        rc = pack(f, var, &mine, &n, box);
    if ((rc = frx__io_agree(comm, rc)) != FRX_OK) {
        free(mine);
        return rc;
    }
    double lo2[2] = {-box[0], -box[1]}, hi2[2] = {box[2], box[3]};
    MPI_Allreduce(MPI_IN_PLACE, lo2, 2, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(MPI_IN_PLACE, hi2, 2, MPI_DOUBLE, MPI_MAX, comm);
    box[0] = -lo2[0], box[1] = -lo2[1], box[2] = hi2[0], box[3] = hi2[1];
    rc = gather(comm, mine, n, &all, &len);
    free(mine);
    if (rc == FRX_OK && rank == 0)
        rc = draw(path, all, len, box, title, width, frx__io_var(f, var));
    free(all);
    return frx__io_agree(comm, rc);
}
