/* SPDX-License-Identifier: BSD-3-Clause */
/* The PNG picture of a scattered 2-D field (fieldpng.h): a bucket grid
 * of the points, the Shepard mean of each pixel, libpng row by row into
 * a temporary file that is renamed at the end. */
#include "fieldpng.h"

#include <frx/plugin.h>
#include <png.h>

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_SIDE 16384      /* pixels */
#define MAX_CELLS_SIDE 2048 /* bucket grid */

/* Points sorted into square cells of side cs over the bounding box. */
typedef struct grid {
    double x0, y0, cs;
    long nx, ny;
    size_t *start; /* [nx*ny + 1] into idx */
    size_t *idx;   /* point numbers, cell by cell */
} grid;

static void grid_free(grid *g)
{
    free(g->start);
    free(g->idx);
}

static long cell_of(const grid *g, double v, double v0, long nmax)
{
    long c = (long)floor((v - v0) / g->cs);
    return c < 0 ? 0 : c >= nmax ? nmax - 1 : c;
}

static int grid_build(grid *g, size_t n, const double *xy, double x0,
                      double y0, double w, double h, double cs)
{
    cs = fmax(cs, fmax(w, h) / MAX_CELLS_SIDE);
    *g = (grid){.x0 = x0, .y0 = y0, .cs = cs};
    g->nx = (long)(w / cs) + 1;
    g->ny = (long)(h / cs) + 1;
    size_t ncell = (size_t)g->nx * (size_t)g->ny;
    g->start = calloc(ncell + 1, sizeof *g->start);
    g->idx = malloc(n * sizeof *g->idx);
    size_t *fill = calloc(ncell, sizeof *fill);
    if (!g->start || !g->idx || !fill) {
        free(fill);
        grid_free(g);
        return frx_error(FRX_ENOMEM, "out of memory for the picture's grid "
                         "(%zu cells)", ncell);
    }
    for (size_t i = 0; i < n; i++) {
        long cx = cell_of(g, xy[2 * i], x0, g->nx);
        long cy = cell_of(g, xy[2 * i + 1], y0, g->ny);
        g->start[(size_t)cy * (size_t)g->nx + (size_t)cx + 1]++;
    }
    for (size_t c = 0; c < ncell; c++)
        g->start[c + 1] += g->start[c];
    for (size_t i = 0; i < n; i++) {
        size_t c = (size_t)cell_of(g, xy[2 * i + 1], y0, g->ny) *
                       (size_t)g->nx +
                   (size_t)cell_of(g, xy[2 * i], x0, g->nx);
        g->idx[g->start[c] + fill[c]++] = i;
    }
    free(fill);
    return FRX_OK;
}

/* Each point's distance to its nearest neighbour elsewhere, into near
 * (0 where it has none), and the largest: search rings of cells around
 * the point's until the ring is farther than the nearest found. */
static double nearest(const grid *g, size_t n, const double *xy,
                      double *near)
{
    double worst = 0.0;
    for (size_t i = 0; i < n; i++) {
        double px = xy[2 * i], py = xy[2 * i + 1], best = INFINITY;
        long cx = cell_of(g, px, g->x0, g->nx);
        long cy = cell_of(g, py, g->y0, g->ny);
        for (long k = 0; k <= g->nx + g->ny; k++) {
            if (best <= (double)(k - 1) * g->cs * ((double)(k - 1) * g->cs))
                break;
            for (long j = cy - k; j <= cy + k; j++)
                for (long m = cx - k; m <= cx + k; m++) {
                    if (j < 0 || m < 0 || j >= g->ny || m >= g->nx ||
                        (labs(j - cy) != k && labs(m - cx) != k))
                        continue;
                    size_t c = (size_t)j * (size_t)g->nx + (size_t)m;
                    for (size_t q = g->start[c]; q < g->start[c + 1]; q++) {
                        size_t o = g->idx[q];
                        double dx = xy[2 * o] - px, dy = xy[2 * o + 1] - py;
                        if (dx != 0.0 || dy != 0.0) /* not a copy of i */
                            best = fmin(best, dx * dx + dy * dy);
                    }
                }
        }
        near[i] = isfinite(best) ? sqrt(best) : 0.0;
        worst = fmax(worst, near[i]);
    }
    return worst;
}

/* The Shepard mean at (px, py) of the points within their radius r[]
 * of it; 0 if none. */
static int pixel_value(const grid *g, const double *xy, const double *val,
                       const double *rad, double px, double py, double *out)
{
    long cx = cell_of(g, px, g->x0, g->nx), cy = cell_of(g, py, g->y0, g->ny);
    double sw = 0.0, swv = 0.0;
    for (long j = cy - 1; j <= cy + 1; j++)
        for (long m = cx - 1; m <= cx + 1; m++) {
            if (j < 0 || m < 0 || j >= g->ny || m >= g->nx)
                continue;
            size_t c = (size_t)j * (size_t)g->nx + (size_t)m;
            for (size_t q = g->start[c]; q < g->start[c + 1]; q++) {
                size_t o = g->idx[q];
                double dx = xy[2 * o] - px, dy = xy[2 * o + 1] - py;
                double d = sqrt(dx * dx + dy * dy);
                if (d == 0.0) {
                    *out = val[o];
                    return 1;
                }
                double r = rad[o];
                if (d < r) {
                    double w = (r - d) / (r * d);
                    sw += w * w;
                    swv += w * w * val[o];
                }
            }
        }
    if (sw == 0.0)
        return 0;
    *out = swv / sw;
    return 1;
}

/* --------------------------------------------------------------- writing */

typedef struct picture {
    const char *path;
    int width, height, cmap;
    double x0, y1, dx, dy; /* left edge, top edge, pixel sizes */
    double lo, hi, vmin, vmax;
    const double *r; /* each point's radius */
    const char *name;
    const grid *g;
    const double *xy, *val;
    unsigned char *row;
    char msg[512]; /* libpng's error */
} picture;

static void png_fail(png_structp png, png_const_charp msg)
{
    picture *p = png_get_error_ptr(png);
    snprintf(p->msg, sizeof p->msg, "%s", msg);
    png_longjmp(png, 1);
}

static void png_warn(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg; /* nothing frx writes draws a warning; none is printed */
}

static void fill_row(picture *p, int j)
{
    double py = p->y1 - (j + 0.5) * p->dy;
    for (int i = 0; i < p->width; i++) {
        double px = p->x0 + (i + 0.5) * p->dx, v;
        unsigned char *rgb = p->row + 3 * (size_t)i;
        if (!pixel_value(p->g, p->xy, p->val, p->r, px, py, &v))
            rgb[0] = rgb[1] = rgb[2] = FR_PNG_BACKGROUND;
        else
            fr_png_colour(p->cmap, p->hi > p->lo ? (v - p->lo) / (p->hi - p->lo)
                                                 : 0.5, rgb);
    }
}

/* libpng into f; -1 with p->msg on failure. */
static int write_png(FILE *f, picture *p)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, p,
                                              png_fail, png_warn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        snprintf(p->msg, sizeof p->msg, "out of memory");
        return -1;
    }
    char range[80], scale[100];
    snprintf(range, sizeof range, "%.17g %.17g", p->vmin, p->vmax);
    snprintf(scale, sizeof scale, "%s %.17g %.17g",
             p->cmap == FR_CMAP_DIVERGING ? "diverging" : "viridis", p->lo,
             p->hi);
    png_text text[4] = {
        {.compression = PNG_TEXT_COMPRESSION_NONE, .key = "Software",
         .text = "frx"},
        {.compression = PNG_TEXT_COMPRESSION_NONE, .key = "frx range",
         .text = range},
        {.compression = PNG_TEXT_COMPRESSION_NONE, .key = "frx colour scale",
         .text = scale},
        {.compression = PNG_TEXT_COMPRESSION_NONE, .key = "Title",
         .text = (char *)(p->name ? p->name : "")}};
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)p->width, (png_uint_32)p->height, 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_text(png, info, text, p->name && *p->name ? 4 : 3);
    png_write_info(png, info);
    for (int j = 0; j < p->height; j++) {
        fill_row(p, j);
        png_write_row(png, p->row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return 0;
}

/* Write to a temporary name beside p->path, then rename. */
static int write_file(picture *p)
{
    const char *path = p->path;
    size_t len = strlen(path);
    int rc = frx_make_parent_folder(path); /* made again if gone since */
    if (rc)
        return rc;
    char *tmp = malloc(len + 16);
    if (!tmp)
        return frx_error(FRX_ENOMEM, "out of memory writing %s", path);
    snprintf(tmp, len + 16, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        rc = frx_error(FRX_EIO, "cannot write the picture %s: %s "
                       "(creating %s); check that its folder can be "
                       "written", path, strerror(errno), tmp);
        free(tmp);
        return rc;
    }
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        rc = frx_error(FRX_EIO, "cannot write the picture %s: %s", path,
                       strerror(errno));
    } else {
        int bad = fchmod(fd, 0644) != 0 || write_png(f, p) != 0;
        int err = errno;
        if (bad && p->msg[0])
            rc = frx_error(FRX_EIO, "cannot write the picture %s: libpng: %s",
                           path, p->msg);
        if (fclose(f) != 0 && !rc)
            err = errno, bad = 1;
        if (bad && !rc)
            rc = frx_error(FRX_EIO, "cannot write the picture %s: %s", path,
                           strerror(err));
    }
    if (!rc && rename(tmp, path) != 0)
        rc = frx_error(FRX_EIO, "cannot write the picture %s: renaming %s: "
                       "%s", path, tmp, strerror(errno));
    if (rc)
        unlink(tmp);
    free(tmp);
    return rc;
}

/* Check the input, fill in p's sizes and colour range. */
static int prepare(picture *p, size_t n, const double *xy, const double *val,
                   const fr_png_opts *o, double *bbox)
{
    if (!p->path || !*p->path)
        return frx_error(FRX_EINVAL, "the picture needs a file name");
    if (n == 0 || !xy || !val)
        return frx_error(FRX_EINVAL, "%s: no points to draw", p->path);
    bbox[0] = bbox[2] = xy[0];
    bbox[1] = bbox[3] = xy[1];
    p->vmin = p->vmax = val[0];
    for (size_t i = 0; i < n; i++) {
        double x = xy[2 * i], y = xy[2 * i + 1];
        if (!isfinite(x) || !isfinite(y) || !isfinite(val[i]))
            return frx_error(FRX_ERANGE, "%s: point %zu at (%g, %g) has the "
                             "value %g: only finite points and values can be "
                             "drawn", p->path, i, x, y, val[i]);
        bbox[0] = fmin(bbox[0], x), bbox[2] = fmax(bbox[2], x);
        bbox[1] = fmin(bbox[1], y), bbox[3] = fmax(bbox[3], y);
        p->vmin = fmin(p->vmin, val[i]), p->vmax = fmax(p->vmax, val[i]);
    }
    double w = bbox[2] - bbox[0], h = bbox[3] - bbox[1];
    if (!(w > 0) || !(h > 0))
        return frx_error(FRX_EINVAL, "%s: the points span no area (x from "
                         "%g to %g, y from %g to %g)", p->path, bbox[0],
                         bbox[2], bbox[1], bbox[3]);
    p->width = o->width ? o->width : 800;
    p->height = o->height ? o->height
                          : (int)fmax(1.0, fmin(MAX_SIDE, round(p->width *
                                                                h / w)));
    if (p->width < 1 || p->height < 1 || p->width > MAX_SIDE ||
        p->height > MAX_SIDE)
        return frx_error(FRX_EINVAL, "%s: a picture of %d x %d pixels; each "
                         "side must be 1 to %d", p->path, p->width, p->height,
                         MAX_SIDE);
    if (o->cmap < FR_CMAP_AUTO || o->cmap > FR_CMAP_DIVERGING)
        return frx_error(FRX_EINVAL, "%s: unknown colour map %d", p->path,
                         o->cmap);
    if (!(o->radius >= 0) || !isfinite(o->radius))
        return frx_error(FRX_EINVAL, "%s: radius %g (0 for automatic, or "
                         "positive)", p->path, o->radius);
    p->cmap = o->cmap != FR_CMAP_AUTO ? o->cmap
              : p->vmin < 0 && p->vmax > 0 ? FR_CMAP_DIVERGING
                                           : FR_CMAP_VIRIDIS;
    if (o->fixed_range) {
        if (!isfinite(o->lo) || !isfinite(o->hi) || !(o->lo < o->hi))
            return frx_error(FRX_EINVAL, "%s: colour range [%g, %g]: it "
                             "needs lo < hi, both finite", p->path, o->lo,
                             o->hi);
        p->lo = o->lo, p->hi = o->hi;
    } else if (p->cmap == FR_CMAP_DIVERGING) {
        p->hi = fmax(fabs(p->vmin), fabs(p->vmax));
        p->lo = -p->hi;
    } else {
        p->lo = p->vmin, p->hi = p->vmax;
    }
    p->x0 = bbox[0], p->y1 = bbox[3];
    p->dx = w / p->width, p->dy = h / p->height;
    p->name = o->name;
    return FRX_OK;
}

int fr_png_write(const char *path, size_t n, const double *xy,
                 const double *val, const fr_png_opts *o)
{
    static const fr_png_opts defaults = {0};
    picture p = {.path = path, .xy = xy, .val = val};
    double bb[4] = {0};
    int rc = prepare(&p, n, xy, val, o ? o : &defaults, bb);
    if (rc)
        return rc;
    double w = bb[2] - bb[0], h = bb[3] - bb[1];
    grid g;
    /* cells of about one point each, for the nearest neighbours */
    if ((rc = grid_build(&g, n, xy, bb[0], bb[1], w, h, sqrt(w * h / n))))
        return rc;
    /* each point's radius 1.5 x its own nearest neighbour's distance, so
     * that a hole shows beside small elements as beside large ones */
    double *rad = malloc(n * sizeof *rad), rmax = 0.0;
    if (!rad) {
        grid_free(&g);
        return frx_error(FRX_ENOMEM, "out of memory writing %s", path);
    }
    double far = o && o->radius > 0 ? 0.0 : nearest(&g, n, xy, rad);
    for (size_t i = 0; i < n; i++) {
        rad[i] = o && o->radius > 0 ? o->radius
                 : rad[i] > 0       ? 1.5 * rad[i]
                 : far > 0          ? 1.5 * far /* a point alone */
                                    : g.cs;     /* every point doubled */
        rmax = fmax(rmax, rad[i]);
    }
    grid_free(&g);
    /* cells of side >= every r: a pixel's points lie in its 3 x 3 cells */
    if ((rc = grid_build(&g, n, xy, bb[0], bb[1], w, h, rmax))) {
        free(rad);
        return rc;
    }
    p.g = &g;
    p.r = rad;
    p.row = malloc(3 * (size_t)p.width);
    if (!p.row)
        rc = frx_error(FRX_ENOMEM, "out of memory writing %s", path);
    else
        rc = write_file(&p);
    free(p.row);
    free(rad);
    grid_free(&g);
    return rc;
}
