/* SPDX-License-Identifier: BSD-3-Clause */
/* The picture around a field: the plot area in viridis with a frame,
 * ticks and their values in world coordinates on both axes, a colour
 * bar with its ticks and values, and a title. */
#include "io/picture.h"

#include <frx/plugin.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCALE 2     /* text: 5 x 7 glyphs at 2 x 2 pixels */
#define GLYPH_H (7 * SCALE) /* capitals; descenders below */
#define TICK 6
#define GAP 6
#define MARGIN 10
#define BAR_W 24
#define MAX_TICKS 12

static const unsigned char ink[3] = {40, 40, 40}, paper[3] = {255, 255, 255},
                           blank[3] = {225, 225, 225};

/* ---------------------------------------------------------------- ticks */

struct ticks {
    int n;
    double v[MAX_TICKS];
    char text[MAX_TICKS][24];
    int width; /* the widest label, in pixels */
};

/* Round numbers (1, 2 or 5 times a power of 10) in [lo, hi], about
 * `want` of them, labelled with as many digits as tell them apart. */
static void ticks_of(double lo, double hi, int want, struct ticks *t)
{
    double raw = (hi - lo) / want, mag = pow(10, floor(log10(raw)));
    double norm = raw / mag;
    double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
    double big = fmax(fabs(lo), fabs(hi));
    t->n = 0;
    t->width = 0;
    for (double k = ceil(lo / step - 1e-9); t->n < MAX_TICKS; k++) {
        double v = k * step;
        if (v > hi + 1e-9 * step)
            break;
        if (fabs(v) < 1e-9 * step)
            v = 0; /* not -0 */
        char *s = t->text[t->n];
        if (step >= 1 && big < 1e7)
            snprintf(s, 24, "%.0f", v);
        else if (step >= 1e-4 && big < 1e7)
            snprintf(s, 24, "%.*f", (int)-floor(log10(step) + 1e-9), v);
        else
            snprintf(s, 24, "%.*g",
                     (int)ceil(log10(big / step) + 1e-9) + 1, v);
        int w = (int)frx__pic_text_width(s, SCALE);
        t->width = w > t->width ? w : t->width;
        t->v[t->n++] = v;
    }
}

/* The most ticks, up to 5, whose labels fit `room` pixels of an axis:
 * each label's size (its width along x, else its height) and a gap. */
static void nice_ticks(double lo, double hi, int room, int along_x,
                       struct ticks *t)
{
    for (int want = 5; want >= 1; want--) {
        ticks_of(lo, hi, want, t);
        int size = along_x ? t->width : GLYPH_H;
        if (want == 1 || t->n * (size + 2 * GAP) <= room)
            return;
    }
}

/* ------------------------------------------------------------- picture */

int frx__pic_draw(const struct frx__raster *r, double lo, double hi,
                  const char *title, struct frx__pic *p,
                  struct frx__pic_layout *at)
{
    struct ticks tx, ty, tb;
    nice_ticks(r->x0, r->x1, r->w, 1, &tx);
    nice_ticks(r->y0, r->y1, r->h, 0, &ty);
    nice_ticks(lo, hi, r->h, 0, &tb);
    /* left: "y", its tick values, the ticks; bottom: values, then "x" */
    int px = MARGIN + 6 * SCALE + GAP + ty.width + GAP + TICK;
    int py = MARGIN + GLYPH_H + 2 * GAP;
    int bx = px + r->w + 3 * GAP;
    p->w = bx + BAR_W + TICK + GAP + tb.width + MARGIN;
    int tw = px + (int)frx__pic_text_width(title, SCALE) + MARGIN;
    p->w = tw > p->w ? tw : p->w; /* the whole title */
    p->h = py + r->h + TICK + GAP + GLYPH_H + GAP + GLYPH_H + MARGIN;
    p->rgb = malloc((size_t)p->w * (size_t)p->h * 3);
    if (!p->rgb)
        return frx_error(FRX_ENOMEM, "out of memory for a picture of %d x "
                         "%d pixels", p->w, p->h);
    frx__pic_rect(p, 0, 0, p->w, p->h, paper);
    *at = (struct frx__pic_layout){{px, py, r->w, r->h},
                                   {bx, py, BAR_W, r->h}};
    /* the field */
    double span = hi > lo ? hi - lo : 1;
    for (int j = 0; j < r->h; j++)
        for (int i = 0; i < r->w; i++) {
            double v = r->val[(size_t)j * (size_t)r->w + (size_t)i];
            unsigned char c[3];
            if (isnan(v))
                memcpy(c, blank, 3);
            else
                frx__pic_colour((v - lo) / span, c);
            frx__pic_rect(p, px + i, py + j, 1, 1, c);
        }
    /* the colour bar: hi at its top row, lo at its bottom row */
    for (int j = 0; j < r->h; j++) {
        unsigned char c[3];
        frx__pic_colour(r->h > 1 ? (double)(r->h - 1 - j) / (r->h - 1) : 0,
                        c);
        frx__pic_rect(p, bx, py + j, BAR_W, 1, c);
    }
    /* frames */
    frx__pic_rect(p, px - 1, py - 1, r->w + 2, 1, ink);
    frx__pic_rect(p, px - 1, py + r->h, r->w + 2, 1, ink);
    frx__pic_rect(p, px - 1, py - 1, 1, r->h + 2, ink);
    frx__pic_rect(p, px + r->w, py - 1, 1, r->h + 2, ink);
    frx__pic_rect(p, bx - 1, py - 1, BAR_W + 2, 1, ink);
    frx__pic_rect(p, bx - 1, py + r->h, BAR_W + 2, 1, ink);
    frx__pic_rect(p, bx - 1, py - 1, 1, r->h + 2, ink);
    frx__pic_rect(p, bx + BAR_W, py - 1, 1, r->h + 2, ink);
    /* ticks and values */
    for (int k = 0; k < tx.n; k++) {
        int x = px + (int)lround((tx.v[k] - r->x0) / (r->x1 - r->x0) * r->w);
        int w = (int)frx__pic_text_width(tx.text[k], SCALE);
        frx__pic_rect(p, x, py + r->h, 1, TICK, ink);
        frx__pic_text(p, x - w / 2, py + r->h + TICK + GAP, tx.text[k],
                      SCALE, ink);
    }
    for (int k = 0; k < ty.n; k++) {
        int y = py + (int)lround((r->y1 - ty.v[k]) / (r->y1 - r->y0) * r->h);
        int w = (int)frx__pic_text_width(ty.text[k], SCALE);
        frx__pic_rect(p, px - TICK, y, TICK, 1, ink);
        frx__pic_text(p, px - TICK - GAP - w, y - GLYPH_H / 2, ty.text[k],
                      SCALE, ink);
    }
    for (int k = 0; k < tb.n; k++) {
        int y = py + (r->h > 1 ? (int)lround((hi - tb.v[k]) / span *
                                             (r->h - 1)) : 0);
        frx__pic_rect(p, bx + BAR_W, y, TICK, 1, ink);
        frx__pic_text(p, bx + BAR_W + TICK + GAP, y - GLYPH_H / 2,
                      tb.text[k], SCALE, ink);
    }
    /* the axes' names and the title */
    frx__pic_text(p, px + r->w / 2 - 3 * SCALE,
                  py + r->h + TICK + 2 * GAP + GLYPH_H, "x", SCALE, ink);
    frx__pic_text(p, MARGIN, py + r->h / 2 - GLYPH_H / 2, "y", SCALE, ink);
    frx__pic_text(p, px, MARGIN, title, SCALE, ink);
    return FRX_OK;
}
