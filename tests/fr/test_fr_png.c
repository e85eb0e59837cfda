/* SPDX-License-Identifier: BSD-3-Clause */
/* PNG pictures (fieldpng.h): write small known fields, read them back
 * with libpng (size, pixel colours, tEXt chunks); errors; and, under
 * mpirun, the gather from every rank against the serial picture. */
#include "frtest.h"

#include <fieldpng.h>
#include <png.h>

#include <dirent.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct image {
    int w, h;
    unsigned char *rgb; /* [h][w][3] */
    char range[128], scale[128], title[64], software[32];
} image;

static void image_free(image *im) { free(im->rgb); }

/* Read path (RGB, 8 bits) or fail the test. */
static void image_read(const char *path, image *im)
{
    memset(im, 0, sizeof *im);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL,
                                             NULL, NULL);
    png_infop info = png_create_info_struct(png);
    ck_assert(png && info);
    if (setjmp(png_jmpbuf(png)))
        ck_abort_msg("libpng cannot read %s", path);
    png_init_io(png, f);
    png_read_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    ck_assert_int_eq(png_get_color_type(png, info), PNG_COLOR_TYPE_RGB);
    ck_assert_int_eq(png_get_bit_depth(png, info), 8);
    im->w = (int)png_get_image_width(png, info);
    im->h = (int)png_get_image_height(png, info);
    im->rgb = malloc((size_t)im->w * (size_t)im->h * 3);
    png_bytepp rows = png_get_rows(png, info);
    for (int j = 0; j < im->h; j++)
        memcpy(im->rgb + (size_t)j * (size_t)im->w * 3, rows[j],
               (size_t)im->w * 3);
    png_textp text;
    int ntext = 0;
    png_get_text(png, info, &text, &ntext);
    for (int i = 0; i < ntext; i++) {
        char *dst = !strcmp(text[i].key, "frx range")          ? im->range
                    : !strcmp(text[i].key, "frx colour scale") ? im->scale
                    : !strcmp(text[i].key, "Title")            ? im->title
                    : !strcmp(text[i].key, "Software") ? im->software
                                                       : NULL;
        if (dst)
            snprintf(dst, 64, "%s", text[i].text);
    }
    png_destroy_read_struct(&png, &info, NULL);
    fclose(f);
}

/* Pixel (i, j) (column, row from the top) has colour rgb. */
#define ck_pixel(im, i, j, want)                                             \
    do {                                                                     \
        const unsigned char *p_ =                                            \
            (im)->rgb + 3 * ((size_t)(j) * (size_t)(im)->w + (size_t)(i));   \
        const unsigned char *w_ = (want);                                    \
        ck_assert_msg(p_[0] == w_[0] && p_[1] == w_[1] && p_[2] == w_[2],    \
                      "pixel (%d, %d) is (%d, %d, %d), expected (%d, %d, "   \
                      "%d)", (i), (j), p_[0], p_[1], p_[2], w_[0], w_[1],    \
                      w_[2]);                                                \
    } while (0)

/* A fresh directory under TMPDIR. */
static void tmpdir(char *dir, size_t n)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, n, "%s/frx-png-XXXXXX", t ? t : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* The number of entries of dir, less . and .. */
static int dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* The 41 x 21 points of [0,2] x [0,1] (spacing 0.05), value lo left of
 * x = 1 and hi from it on; returns n. */
static size_t step_field(double *xy, double *v, double lo, double hi)
{
    size_t n = 0;
    for (int j = 0; j <= 20; j++)
        for (int i = 0; i <= 40; i++, n++) {
            xy[2 * n] = 0.05 * i;
            xy[2 * n + 1] = 0.05 * j;
            v[n] = i < 20 ? lo : hi;
        }
    return n;
}

static const unsigned char viridis0[3] = {68, 1, 84};
static const unsigned char viridis1[3] = {253, 231, 37};
static const unsigned char grey[3] = {FR_PNG_BACKGROUND, FR_PNG_BACKGROUND,
                                      FR_PNG_BACKGROUND};

START_TEST(colour_maps)
{
    unsigned char c[3];
    fr_png_colour(FR_CMAP_VIRIDIS, 0.0, c);
    ck_assert(!memcmp(c, viridis0, 3));
    fr_png_colour(FR_CMAP_VIRIDIS, 1.0, c);
    ck_assert(!memcmp(c, viridis1, 3));
    fr_png_colour(FR_CMAP_VIRIDIS, 0.5, c);
    ck_assert(c[0] == 33 && c[1] == 144 && c[2] == 140);
    fr_png_colour(FR_CMAP_VIRIDIS, -3.0, c); /* clamped */
    ck_assert(!memcmp(c, viridis0, 3));
    fr_png_colour(FR_CMAP_DIVERGING, 0.0, c);
    ck_assert(c[0] == 5 && c[1] == 48 && c[2] == 97);
    fr_png_colour(FR_CMAP_DIVERGING, 0.5, c);
    ck_assert(c[0] == 247 && c[1] == 247 && c[2] == 247);
    fr_png_colour(FR_CMAP_DIVERGING, 7.0, c);
    ck_assert(c[0] == 103 && c[1] == 0 && c[2] == 31);
    /* halfway between two knots */
    fr_png_colour(FR_CMAP_DIVERGING, 0.05, c);
    ck_assert(c[0] == 19 && c[1] == 75 && c[2] == 135);
}
END_TEST

START_TEST(step_viridis)
{
    char dir[4096], path[4200];
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/rho.png", dir);
    double xy[2 * 861], v[861];
    size_t n = step_field(xy, v, 0.0, 1.0);
    fr_png_opts o = {.width = 200, .name = "rho"};
    ck_assert_msg(fr_png_write(path, n, xy, v, &o) == 0, "%s", frx_errmsg());
    image im;
    image_read(path, &im);
    ck_assert_int_eq(im.w, 200);
    ck_assert_int_eq(im.h, 100); /* the aspect ratio of [0,2] x [0,1] */
    ck_pixel(&im, 20, 50, viridis0);
    ck_pixel(&im, 0, 0, viridis0);
    ck_pixel(&im, 180, 50, viridis1);
    ck_pixel(&im, 199, 99, viridis1);
    ck_assert_str_eq(im.range, "0 1");
    ck_assert_str_eq(im.scale, "viridis 0 1");
    ck_assert_str_eq(im.title, "rho");
    ck_assert_str_eq(im.software, "frx");
    image_free(&im);
    /* written again over itself; no temporary left behind */
    ck_assert_int_eq(fr_png_write(path, n, xy, v, &o), 0);
    ck_assert_int_eq(dir_entries(dir), 1);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* Values of both signs: blue-white-red, symmetric about 0. */
START_TEST(signed_diverging)
{
    char dir[4096], path[4200];
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/p.png", dir);
    double xy[2 * 861], v[861];
    size_t n = step_field(xy, v, -1.0, 2.0);
    fr_png_opts o = {.width = 100, .height = 40};
    ck_assert_int_eq(fr_png_write(path, n, xy, v, &o), 0);
    image im;
    image_read(path, &im);
    ck_assert(im.w == 100 && im.h == 40);
    unsigned char low[3], high[3];
    fr_png_colour(FR_CMAP_DIVERGING, 0.25, low); /* -1 in [-2, 2] */
    fr_png_colour(FR_CMAP_DIVERGING, 1.0, high);
    ck_assert(low[2] > low[0]); /* bluish */
    ck_pixel(&im, 10, 20, low);
    ck_pixel(&im, 90, 20, high);
    ck_assert_str_eq(im.range, "-1 2");
    ck_assert_str_eq(im.scale, "diverging -2 2");
    ck_assert_str_eq(im.title, "");
    image_free(&im);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* A fixed colour range, and pixels far from every point left grey. */
START_TEST(range_and_background)
{
    char dir[4096], path[4200];
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/u.png", dir);
    double xy[2 * 861], v[861];
    size_t n = step_field(xy, v, 0.0, 1.0), m = 0;
    for (size_t i = 0; i < n; i++) /* drop the top right quarter */
        if (!(xy[2 * i] > 1.0 && xy[2 * i + 1] > 0.5)) {
            xy[2 * m] = xy[2 * i], xy[2 * m + 1] = xy[2 * i + 1];
            v[m++] = v[i];
        }
    fr_png_opts o = {.width = 200, .cmap = FR_CMAP_VIRIDIS,
                     .fixed_range = 1, .lo = 0.0, .hi = 2.0};
    ck_assert_int_eq(fr_png_write(path, m, xy, v, &o), 0);
    image im;
    image_read(path, &im);
    unsigned char half[3];
    fr_png_colour(FR_CMAP_VIRIDIS, 0.5, half);
    ck_pixel(&im, 20, 50, viridis0);
    ck_pixel(&im, 180, 90, half);  /* x = 1.8, y = 0.1: value 1 */
    ck_pixel(&im, 170, 15, grey);  /* x = 1.7, y = 0.85: no point near */
    ck_assert_str_eq(im.range, "0 1");
    ck_assert_str_eq(im.scale, "viridis 0 2");
    image_free(&im);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* A graded field: coarse points on the left, fine ones on the right
 * with a hole 5 fine spacings wide, less than the coarse spacing. Each
 * point's own radius leaves the hole grey. */
START_TEST(hole_beside_small_elements)
{
    char dir[4096], path[4200];
    tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/g.png", dir);
    double *xy = malloc(2 * 3000 * sizeof *xy), *v = malloc(3000 * sizeof *v);
    ck_assert(xy && v);
    size_t n = 0;
    for (int i = 0; i < 8; i++) /* x 0 .. 0.875, y 0 .. 1: spacing 1/8 */
        for (int j = 0; j <= 8; j++)
            xy[2 * n] = i / 8.0, xy[2 * n + 1] = j / 8.0, v[n] = 0, n++;
    for (int i = 0; i <= 50; i++) /* x 1 .. 2, y 0 .. 1: spacing 1/50 */
        for (int j = 0; j <= 50; j++) {
            double x = 1 + i / 50.0, y = j / 50.0;
            if (fabs(x - 1.5) < 0.05 && fabs(y - 0.5) < 0.05)
                continue; /* the hole, 0.1 wide */
            xy[2 * n] = x, xy[2 * n + 1] = y, v[n] = 1, n++;
        }
    fr_png_opts o = {.width = 200, .cmap = FR_CMAP_VIRIDIS};
    ck_assert_int_eq(fr_png_write(path, n, xy, v, &o), 0);
    image im;
    image_read(path, &im);
    ck_assert_int_eq(im.h, 100);
    ck_pixel(&im, 150, 50, grey); /* (1.505, 0.495): in the hole */
    ck_pixel(&im, 149, 49, grey);
    ck_pixel(&im, 180, 20, viridis1); /* fine points about */
    ck_pixel(&im, 40, 50, viridis0);  /* coarse points about */
    ck_pixel(&im, 95, 50, viridis0);  /* between the two: no gap */
    image_free(&im);
    free(xy), free(v);
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(errors)
{
    char dir[1024], path[1200], want[4096];
    tmpdir(dir, sizeof dir);
    double xy[2 * 861], v[861];
    size_t n = step_field(xy, v, 0.0, 1.0);
    /* folders that do not exist yet are made */
    snprintf(path, sizeof path, "%s/missing/deeper/p.png", dir);
    ck_assert_int_eq(fr_png_write(path, n, xy, v, NULL), FRX_OK);
    ck_assert_int_eq(access(path, R_OK), 0);
    unlink(path);
    snprintf(path, sizeof path, "%s/missing/deeper", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/missing", dir);
    rmdir(path);
    /* a file where the folder should be */
    snprintf(path, sizeof path, "%s/file", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/file/p.png", dir);
    ck_assert_int_eq(fr_png_write(path, n, xy, v, NULL), FRX_EIO);
    snprintf(want, sizeof want, "cannot create folder %s/file: a file of "
             "that name is in the way", dir);
    ck_assert_str_eq(frx_errmsg(), want);
    /* a directory without write permission (root writes anyway) */
    char ro[1100];
    snprintf(ro, sizeof ro, "%s/ro", dir);
    ck_assert_int_eq(mkdir(ro, 0500), 0);
    snprintf(path, sizeof path, "%s/p.png", ro);
    if (geteuid() != 0) {
        ck_assert_int_eq(fr_png_write(path, n, xy, v, NULL), FRX_EIO);
        snprintf(want, sizeof want, "cannot write the picture %s: "
                 "Permission denied", path);
        ck_assert_msg(!strncmp(frx_errmsg(), want, strlen(want)), "%s",
                      frx_errmsg());
    }
    rmdir(ro);
    snprintf(path, sizeof path, "%s/p.png", dir);
    /* bad input: nothing is written */
    v[7] = NAN;
    ck_assert_int_eq(fr_png_write(path, n, xy, v, NULL), FRX_ERANGE);
    snprintf(want, sizeof want, "%s: point 7 at (0.35, 0) has the value nan: "
             "only finite points and values can be drawn", path);
    ck_assert_str_eq(frx_errmsg(), want);
    v[7] = 0.0;
    ck_assert_int_eq(fr_png_write(path, 0, xy, v, NULL), FRX_EINVAL);
    snprintf(want, sizeof want, "%s: no points to draw", path);
    ck_assert_str_eq(frx_errmsg(), want);
    ck_assert_int_eq(fr_png_write(path, 20, xy, v, NULL), FRX_EINVAL);
    snprintf(want, sizeof want, "%s: the points span no area (x from 0 to "
             "0.95, y from 0 to 0)", path);
    ck_assert_str_eq(frx_errmsg(), want);
    fr_png_opts o = {.fixed_range = 1, .lo = 1, .hi = 1};
    ck_assert_int_eq(fr_png_write(path, n, xy, v, &o), FRX_EINVAL);
    snprintf(want, sizeof want, "%s: colour range [1, 1]: it needs lo < hi, "
             "both finite", path);
    ck_assert_str_eq(frx_errmsg(), want);
    o = (fr_png_opts){.width = 20000};
    ck_assert_int_eq(fr_png_write(path, n, xy, v, &o), FRX_EINVAL);
    snprintf(want, sizeof want, "%s: a picture of 20000 x 10000 pixels; each "
             "side must be 1 to 16384", path);
    ck_assert_str_eq(frx_errmsg(), want);
    ck_assert_int_eq(dir_entries(dir), 1); /* only "file" */
    snprintf(path, sizeof path, "%s/file", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* Under mpirun: each rank holds a block of the points; the gathered
 * picture equals the serial one, pixel for pixel; a failure on the root
 * reaches every rank. */
START_TEST(gather)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char dir[1024] = "", path[1200], ref[1200];
    if (rank == 0)
        tmpdir(dir, sizeof dir);
    MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof path, "%s/gathered.png", dir);
    snprintf(ref, sizeof ref, "%s/serial.png", dir);
    double xy[2 * 861], v[861];
    size_t n = step_field(xy, v, -0.5, 1.0);
    for (size_t i = 0; i < n; i++) /* a smooth part too */
        v[i] += 0.25 * sin(3 * xy[2 * i]) * xy[2 * i + 1];
    size_t b = n * (size_t)rank / (size_t)size;
    size_t e = n * (size_t)(rank + 1) / (size_t)size;
    fr_png_opts o = {.width = 120, .name = "p"};
    int rc = fr_png_write_gather(MPI_COMM_WORLD, size - 1, path, e - b,
                                 xy + 2 * b, v + b, &o);
    ck_assert_msg(rc == 0, "%s", frx_errmsg());
    if (rank == size - 1) {
        ck_assert_int_eq(fr_png_write(ref, n, xy, v, &o), 0);
        image a, s;
        image_read(path, &a);
        image_read(ref, &s);
        ck_assert(a.w == 120 && a.h == 60 && s.w == 120 && s.h == 60);
        ck_assert(!memcmp(a.rgb, s.rgb, 120 * 60 * 3));
        ck_assert_str_eq(a.range, s.range);
        ck_assert_str_eq(a.scale, s.scale);
        ck_assert_str_eq(a.title, "p");
        image_free(&a);
        image_free(&s);
        unlink(ref);
        unlink(path);
    }
    /* the root cannot write (a file where its folder should be): every
     * rank gets its reason */
    snprintf(path, sizeof path, "%s/file", dir);
    if (rank == 0) {
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    snprintf(path, sizeof path, "%s/file/gathered.png", dir);
    rc = fr_png_write_gather(MPI_COMM_WORLD, 0, path, e - b, xy + 2 * b,
                             v + b, &o);
    ck_assert_int_eq(rc, FRX_EIO);
    char want[4400];
    snprintf(want, sizeof want, "writing the picture failed on 1 of %d "
             "rank(s):", size);
    ck_assert_msg(!strncmp(frx_errmsg(), want, strlen(want)), "%s",
                  frx_errmsg());
    snprintf(want, sizeof want, "cannot create folder %s/file: a file of "
             "that name is in the way", dir);
    ck_assert_msg(strstr(frx_errmsg(), want) != NULL, "%s", frx_errmsg());
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        snprintf(path, sizeof path, "%s/file", dir);
        unlink(path);
        rmdir(dir);
    }
}
END_TEST

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    Suite *s = suite_create("fr-png");
    TCase *tc = tcase_create("png");
    if (size == 1) {
        tcase_add_test(tc, colour_maps);
        tcase_add_test(tc, step_viridis);
        tcase_add_test(tc, signed_diverging);
        tcase_add_test(tc, hole_beside_small_elements);
        tcase_add_test(tc, range_and_background);
        tcase_add_test(tc, errors);
    }
    tcase_add_test(tc, gather);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK); /* MPI is started once */
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    MPI_Finalize();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
