/* SPDX-License-Identifier: BSD-3-Clause */
/* frx-fr-common: a PNG picture of one variable of a 2-D field, so that a
 * user sees a result without ParaView (docs/expressions.md, "PNG pictures").
 *
 * The field is given as scattered points (x, y) with a value each: the
 * solution or visualisation points of every element. Each pixel takes
 * the inverse-distance weighted mean (modified Shepard weights, which
 * vanish at each point's radius r) of the points within their r of its
 * centre; a pixel with none is background grey, so holes and curved
 * outlines stay visible, beside small elements as beside large ones.
 * The picture is RGB, 8 bits per channel, with a perceptual colour map;
 * tEXt chunks record the variable, its range and the colour scale. It is
 * written to a temporary name beside path and renamed.
 *
 * Errors are negative FRX_E* codes with a message from frx_error. */
#ifndef FRX_FR_FIELDPNG_H
#define FRX_FR_FIELDPNG_H

#include <frx/comm.h>

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum fr_cmap {
    FR_CMAP_AUTO = 0,     /* diverging if the values change sign, else
                             viridis */
    FR_CMAP_VIRIDIS = 1,  /* dark blue - green - yellow, low to high */
    FR_CMAP_DIVERGING = 2 /* blue - white - red, white at the middle */
};

/* Background (pixels farther than r from every point). */
#define FR_PNG_BACKGROUND 128

typedef struct fr_png_opts {
    int width;        /* pixels; 0: 800 */
    int height;       /* pixels; 0: from the points' aspect ratio */
    int cmap;         /* enum fr_cmap */
    int fixed_range;  /* 1: colours span [lo, hi]; 0: from the data (for
                         diverging: [-m, m], m the largest |value|) */
    double lo, hi;
    double radius;    /* every point's r; 0: 1.5 x the distance from
                         each point to its nearest neighbour */
    const char *name; /* the variable, for the tEXt chunks; may be NULL */
} fr_png_opts;

/* The colour of s in [0, 1] (clamped) in a map (not AUTO). */
void fr_png_colour(int cmap, double s, unsigned char rgb[3]);

/* Write the picture of n points xy [n][2] with values val [n]; o may be
 * NULL (defaults). Values must be finite. tEXt chunks: "Software" frx,
 * "Title" the name, "frx range" "min max" of the values, "frx colour
 * scale" "<map> lo hi" (numbers as %.17g). The folders of path are made
 * first (frx_make_parent_folder); the file goes under a temporary name,
 * renamed at the end. */
int fr_png_write(const char *path, size_t n, const double *xy,
                 const double *val, const fr_png_opts *o);

/* Collective over comm: gather every rank's points on root (MPI_Gatherv,
 * rank order) and write there. Every rank returns the same status; a
 * failure names the failing rank and its reason (frx_comm_agree). path
 * and o are read on root only. */
int fr_png_write_gather(MPI_Comm comm, int root, const char *path, size_t n,
                        const double *xy, const double *val,
                        const fr_png_opts *o);

#ifdef __cplusplus
}
#endif
#endif
