/* SPDX-License-Identifier: BSD-3-Clause */
/* The pictures' canvas: filled rectangles and the colour map, which
 * text (pic_font.c) and the picture (pic_draw.c) draw with. */
#include "io/picture.h"

#include <math.h>
#include <string.h>

void frx__pic_rect(struct frx__pic *p, int x, int y, int w, int h,
                   const unsigned char rgb[3])
{
    for (int j = y < 0 ? 0 : y; j < y + h && j < p->h; j++)
        for (int i = x < 0 ? 0 : x; i < x + w && i < p->w; i++)
            memcpy(p->rgb + 3 * ((size_t)j * (size_t)p->w + (size_t)i), rgb,
                   3);
}

/* Viridis at nine knots (matplotlib's values, CC0), linear between. */
void frx__pic_colour(double s, unsigned char rgb[3])
{
    static const unsigned char knots[9][3] = {
        {68, 1, 84},    {71, 45, 123},  {59, 82, 139},
        {44, 114, 142}, {33, 144, 140}, {39, 173, 129},
        {93, 200, 99},  {170, 220, 50}, {253, 231, 37}};
    s = isnan(s) ? 0 : s < 0 ? 0 : s > 1 ? 1 : s;
    double f = s * 8;
    int k = f >= 8 ? 7 : (int)f;
    f -= k;
    for (int c = 0; c < 3; c++)
        rgb[c] = (unsigned char)lround(knots[k][c] +
                                       f * (knots[k + 1][c] - knots[k][c]));
}
