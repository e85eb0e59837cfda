/* SPDX-License-Identifier: BSD-3-Clause */
/* frx io: the pieces of a picture of a 2-D field (pic_*.c), internal to
 * io: the field drawn from the solver's output points by the polynomial
 * they interpolate (pic_raster.c), text (pic_font.c), and the picture
 * with its axes, colour bar and title (pic_draw.c, written as PNG by
 * picture.c). */
#ifndef FRX_IO_PICTURE_H
#define FRX_IO_PICTURE_H

#include <stddef.h>

/* ---------------------------------------------------------- the field */

/* A grid of values over a world rectangle: pixel (i, j), row j from the
 * top, samples x0 + (i + 1/2) (x1 - x0)/w, y1 - (j + 1/2) (y1 - y0)/h;
 * NaN where no element covers it. */
struct frx__raster {
    int w, h;
    double x0, y0, x1, y1;
    double *val; /* [h][w] */
};

/* The order q of a Lagrange cell of etype (FRX_ETYPE_QUAD, _TRI) with
 * nvis points: (q + 1)^2 or (q + 1)(q + 2)/2; 0 if none. */
int frx__pic_order(int etype, size_t nvis);

/* Draw one element: a Lagrange cell of order q in VTK's point order,
 * its points xy [nvis][2] and the field's values there v [nvis]. Every
 * pixel the element covers gets the value of the polynomial the points
 * interpolate, at the pixel's reference coordinates (the element cut
 * into sub-triangles of a few pixels, in which the reference
 * coordinates are linear in x, y). */
void frx__raster_element(struct frx__raster *r, int etype, int q,
                         const double *xy, const double *v);

/* ------------------------------------------------------------ drawing */

struct frx__pic {
    int w, h;
    unsigned char *rgb; /* [h][w][3], row 0 the top */
};

void frx__pic_rect(struct frx__pic *p, int x, int y, int w, int h,
                   const unsigned char rgb[3]);
/* Text with its top left at (x, y); 5 x 7 glyphs (capitals' height,
 * FRX__PIC_ROWS with descenders), scale pixels each. */
#define FRX__PIC_ROWS 9
void frx__pic_text(struct frx__pic *p, int x, int y, const char *s,
                   int scale, const unsigned char rgb[3]);
size_t frx__pic_text_width(const char *s, int scale);

/* Viridis (matplotlib's, a perceptually uniform map) at s in [0, 1]. */
void frx__pic_colour(double s, unsigned char rgb[3]);

/* The picture around a field: plot area (the raster, 1 pixel to 1
 * pixel) with a frame and ticks labelled in world coordinates, a colour
 * bar from lo to hi with ticks and values, and the title above. Where
 * each lies is returned for the PNG's text chunks. */
struct frx__pic_layout {
    int plot[4]; /* x, y, w, h in pixels */
    int bar[4];
};
int frx__pic_draw(const struct frx__raster *r, double lo, double hi,
                  const char *title, struct frx__pic *p,
                  struct frx__pic_layout *at);

#endif
