/* SPDX-License-Identifier: BSD-3-Clause */
/* A picture of advection's wave read back (tests/cli/picture.sh makes
 * it): test_picture FILE.png AX AY LX LY WIDTH. The field is
 * u = sin(2 pi (x - ax t)/lx) sin(2 pi (y - ay t)/ly) at the t of the
 * title. Checks, each with a message on failure:
 *   - the plot area is WIDTH pixels wide and as high as the domain's
 *     aspect makes it; the picture holds it, the colour bar and margins;
 *   - the colour bar's top row is viridis at 1, its bottom row at 0, and
 *     the range it spans is the field's least and largest value (the
 *     wave's -1 and 1, to the discretisation's 2e-3);
 *   - at 49 points of the domain, the colour of the pixel there, read
 *     back through the colour map, is the exact solution to within the
 *     map's steps and the discretisation's error;
 *   - the title names the variable, the time and the case. */
#include <png.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            printf("FAIL: " __VA_ARGS__);                                    \
            printf("\n");                                                    \
            failures++;                                                      \
        }                                                                    \
    } while (0)

struct image {
    png_uint_32 w, h;
    unsigned char *rgb;
    char title[256], area[256], bar[256], range[256];
};

static int read_png(const char *path, struct image *im)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("FAIL: cannot open %s\n", path);
        return 1;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL,
                                             NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        printf("FAIL: %s is not a PNG libpng reads\n", path);
        fclose(f);
        return 1;
    }
    png_init_io(png, f);
    png_read_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    im->w = png_get_image_width(png, info);
    im->h = png_get_image_height(png, info);
    int type = png_get_color_type(png, info);
    int depth = png_get_bit_depth(png, info);
    if (type != PNG_COLOR_TYPE_RGB || depth != 8) {
        printf("FAIL: %s is not 8-bit RGB (type %d, depth %d)\n", path, type,
               depth);
        fclose(f);
        return 1;
    }
    png_bytepp rows = png_get_rows(png, info);
    im->rgb = malloc((size_t)im->w * im->h * 3);
    for (png_uint_32 j = 0; j < im->h; j++)
        memcpy(im->rgb + (size_t)j * im->w * 3, rows[j], (size_t)im->w * 3);
    png_textp text;
    int n = 0;
    png_get_text(png, info, &text, &n);
    for (int i = 0; i < n; i++) {
        char *to = !strcmp(text[i].key, "Title")            ? im->title
                   : !strcmp(text[i].key, "frx plot area")  ? im->area
                   : !strcmp(text[i].key, "frx colour bar") ? im->bar
                   : !strcmp(text[i].key, "frx range")      ? im->range
                                                            : NULL;
        if (to)
            snprintf(to, 256, "%s", text[i].text);
    }
    png_destroy_read_struct(&png, &info, NULL);
    fclose(f);
    return 0;
}

static const unsigned char *pixel(const struct image *im, int x, int y)
{
    return im->rgb + ((size_t)y * im->w + (size_t)x) * 3;
}

/* matplotlib's viridis at nine knots, as frx draws it */
static void viridis(double s, double rgb[3])
{
    static const double k[9][3] = {
        {68, 1, 84},    {71, 45, 123},  {59, 82, 139},
        {44, 114, 142}, {33, 144, 140}, {39, 173, 129},
        {93, 200, 99},  {170, 220, 50}, {253, 231, 37}};
    double f = s * 8;
    int i = f >= 8 ? 7 : (int)f;
    f -= i;
    for (int c = 0; c < 3; c++)
        rgb[c] = k[i][c] + f * (k[i + 1][c] - k[i][c]);
}

/* The s in [0, 1] whose colour is nearest to p (to 1/4096). */
static double unmap(const unsigned char *p)
{
    double best = 1e30, at = 0;
    for (int i = 0; i <= 4096; i++) {
        double c[3], d = 0;
        viridis(i / 4096.0, c);
        for (int k = 0; k < 3; k++)
            d += (c[k] - p[k]) * (c[k] - p[k]);
        if (d < best)
            best = d, at = i / 4096.0;
    }
    return at;
}

static int same(const unsigned char *p, double s)
{
    double c[3];
    viridis(s, c);
    for (int k = 0; k < 3; k++)
        if (fabs(c[k] - p[k]) > 0.51)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: test_picture FILE.png AX AY LX LY WIDTH\n");
        return 2;
    }
    double ax = atof(argv[2]), ay = atof(argv[3]), lx = atof(argv[4]),
           ly = atof(argv[5]);
    int width = atoi(argv[6]);
    struct image im = {0};
    if (read_png(argv[1], &im))
        return 1;
    int px, py, pw, ph, bx, by, bw, bh;
    double x0, y0, x1, y1, lo, hi, rlo, rhi;
    CHECK(sscanf(im.area, "%d %d %d %d %lf %lf %lf %lf", &px, &py, &pw, &ph,
                 &x0, &y0, &x1, &y1) == 8, "no plot area in '%s'", im.area);
    CHECK(sscanf(im.bar, "%d %d %d %d %lf %lf", &bx, &by, &bw, &bh, &lo,
                 &hi) == 6, "no colour bar in '%s'", im.bar);
    CHECK(sscanf(im.range, "%lf %lf", &rlo, &rhi) == 2, "no range");
    if (failures)
        return 1;
    /* size */
    CHECK(pw == width, "the plot is %d pixels wide, not %d", pw, width);
    int want_h = (int)lround(width * (y1 - y0) / (x1 - x0));
    CHECK(ph == want_h, "the plot is %d pixels high, not %d", ph, want_h);
    CHECK(px > 0 && py > 0 && px + pw < bx && bx + bw < (int)im.w &&
          py + ph < (int)im.h, "the plot (%d %d %d %d) and bar (%d ...) do "
          "not fit the %u x %u picture", px, py, pw, ph, bx, im.w, im.h);
    /* the colour bar and the range */
    CHECK(same(pixel(&im, bx + bw / 2, by), 1),
          "the colour bar's top is not viridis(1)");
    CHECK(same(pixel(&im, bx + bw / 2, by + bh - 1), 0),
          "the colour bar's bottom is not viridis(0)");
    CHECK(lo == rlo && hi == rhi, "the bar spans %g..%g, the field %g..%g",
          lo, hi, rlo, rhi);
    CHECK(fabs(lo + 1) < 2e-3 && fabs(hi - 1) < 2e-3,
          "the field's range is %.6f..%.6f, not the wave's -1..1", lo, hi);
    /* the title: variable, time, case */
    double t = NAN;
    const char *at = strstr(im.title, " at t = ");
    CHECK(!strncmp(im.title, "u at t = ", 9) && at &&
          sscanf(at, " at t = %lf", &t) == 1 && strstr(im.title, ".yaml)"),
          "the title '%s' does not name u, t and the case", im.title);
    /* the field at known points */
    double worst = 0, tol = (hi - lo) / 256 + 2e-3;
    for (int a = 1; a < 8; a++)
        for (int b = 1; b < 8; b++) {
            double x = x0 + (x1 - x0) * a / 8.0, y = y0 + (y1 - y0) * b / 8.0;
            int i = (int)floor((x - x0) / (x1 - x0) * pw);
            int j = (int)floor((y1 - y) / (y1 - y0) * ph);
            double xc = x0 + (i + 0.5) * (x1 - x0) / pw;
            double yc = y1 - (j + 0.5) * (y1 - y0) / ph;
            double exact = sin(2 * M_PI * (xc - ax * t) / lx) *
                           sin(2 * M_PI * (yc - ay * t) / ly);
            double got = lo + unmap(pixel(&im, px + i, py + j)) * (hi - lo);
            worst = fmax(worst, fabs(got - exact));
            CHECK(fabs(got - exact) <= tol, "at (%g, %g) the picture holds "
                  "%.5f, the exact solution is %.5f (tolerance %.4f)", xc, yc,
                  got, exact, tol);
        }
    printf("%s: %u x %u, plot %d x %d, range %.6f..%.6f, t = %g; 49 "
           "points within %.4f of the exact solution (tolerance %.4f)\n",
           argv[1], im.w, im.h, pw, ph, lo, hi, t, worst, tol);
    free(im.rgb);
    return failures ? 1 : 0;
}
