/* SPDX-License-Identifier: BSD-3-Clause */
/* Colour maps of the PNG pictures: knots interpolated linearly in sRGB.
 * Viridis (matplotlib's, CC0) at nine knots; the diverging map is
 * ColorBrewer's 11-class RdBu, blue for low and red for high. */
#include "fieldpng.h"

#include <math.h>

static const unsigned char viridis[9][3] = {
    {68, 1, 84},    {71, 45, 123},  {59, 82, 139},
    {44, 114, 142}, {33, 144, 140}, {39, 173, 129},
    {93, 200, 99},  {170, 220, 50}, {253, 231, 37}};

static const unsigned char rdbu[11][3] = {
    {5, 48, 97},     {33, 102, 172},  {67, 147, 195},  {146, 197, 222},
    {209, 229, 240}, {247, 247, 247}, {253, 219, 199}, {244, 165, 130},
    {214, 96, 77},   {178, 24, 43},   {103, 0, 31}};

static void lerp(const unsigned char (*knots)[3], int nk, double s,
                 unsigned char rgb[3])
{
    s = isnan(s) ? 0.5 : s < 0 ? 0 : s > 1 ? 1 : s;
    double f = s * (nk - 1);
    int k = (int)f;
    if (k >= nk - 1)
        k = nk - 2;
    f -= k;
    for (int c = 0; c < 3; c++)
        rgb[c] = (unsigned char)lround(knots[k][c] +
                                       f * (knots[k + 1][c] - knots[k][c]));
}

void fr_png_colour(int cmap, double s, unsigned char rgb[3])
{
    if (cmap == FR_CMAP_DIVERGING)
        lerp(rdbu, 11, s, rgb);
    else
        lerp(viridis, 9, s, rgb);
}
