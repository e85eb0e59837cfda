/* SPDX-License-Identifier: BSD-3-Clause */
/* libfrx-fr, geometry: affine elements (points, |J|, smats, normals
 * against closed forms), curved (quadratic) elements (area, free-stream
 * preservation, exact divergence of polynomial fluxes through the whole
 * FR sequence of docs/fr.md), shared faces of small distorted meshes
 * (matching points, equal and opposite normals), and refusals (inverted
 * elements named, wrong shape-point counts). */
#include "frtest.h"

#include <frx/frx.h>

#include <string.h>

static void compute(const fr_element *e, size_t neles, size_t nshape, const double *shape,
                    fr_geometry *g)
{
    int rc = fr_geometry_compute(e, neles, nshape, shape, NULL, g);
    ck_assert_msg(rc == 0, "%s", frx_errmsg());
}

/* Reference shape nodes (Gmsh order) of each shape. */
static const double tri6_ref[6][2] = {{-1, -1}, {1, -1}, {-1, 1}, {0, -1}, {0, 0}, {-1, 0}};
static const double quad9_ref[9][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {0, -1},
                                       {1, 0},   {0, 1},  {-1, 0}, {0, 0}};
static const double hex8_ref[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                      {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

/* x = A xi + b */
static const double A2[2][2] = {{2.0, 0.5}, {0.3, 1.5}}, b2[2] = {3.0, -1.0};

static void affine2(const double *xi, double *x)
{
    for (int r = 0; r < 2; r++)
        x[r] = A2[r][0] * xi[0] + A2[r][1] * xi[1] + b2[r];
}

/* A smooth curved map of the plane, sampled at shape nodes */
static void curved2(const double *xi, double *x)
{
    x[0] = 1.0 + xi[0] + 0.15 * sin(1.3 * xi[1] + 0.4) + 0.05 * xi[0] * xi[1];
    x[1] = 2.0 + xi[1] + 0.12 * cos(1.1 * xi[0]) - 0.04 * xi[0] * xi[0];
}

/* ------------------------------------------------------ the FR sequence */

typedef void flux_fn(const double *x, int nd, double *f);

/* div F at the solution points of element el by FR: transformed flux
 * with smats, M132, the common normal flux mag * F . n at the flux
 * points through M3, times 1/|J| (the solver's RHS is minus this). */
static void fr_div(const fr_element *e, const fr_geometry *g, size_t el, flux_fn *flux,
                   double *out)
{
    size_t nu = g->nupts, nf = g->nfpts, nd = (size_t)g->ndims;
    const double *m132 = fr_element_op(e, FR_M132, NULL, NULL);
    const double *m3 = fr_element_op(e, FR_M3, NULL, NULL);
    double *tf = malloc(nd * nu * sizeof *tf), *fn = malloc(nf * sizeof *fn), f[3];
    for (size_t i = 0; i < nu; i++) {
        flux(g->xupts + (el * nu + i) * nd, (int)nd, f);
        const double *sm = g->smats + (el * nu + i) * nd * nd;
        for (size_t d = 0; d < nd; d++) {
            tf[d * nu + i] = 0.0;
            for (size_t j = 0; j < nd; j++)
                tf[d * nu + i] += sm[d * nd + j] * f[j];
        }
    }
    for (size_t k = 0; k < nf; k++) {
        flux(g->xfpts + (el * nf + k) * nd, (int)nd, f);
        double s = 0.0;
        for (size_t j = 0; j < nd; j++)
            s += f[j] * g->pnorm[(el * nf + k) * nd + j];
        fn[k] = g->mag[el * nf + k] * s;
    }
    for (size_t i = 0; i < nu; i++) {
        double s = 0.0;
        for (size_t j = 0; j < nd * nu; j++)
            s += m132[i * nd * nu + j] * tf[j];
        for (size_t k = 0; k < nf; k++)
            s += m3[i * nf + k] * fn[k];
        out[i] = g->rcpdjac[el * nu + i] * s;
    }
    free(tf);
    free(fn);
}

static void const_flux(const double *x, int nd, double *f)
{
    (void)x;
    f[0] = 0.7;
    f[1] = -1.3;
    if (nd == 3)
        f[2] = 0.4;
}

/* linear: div = 0.5 + 0.25 (+ 0.75) */
static void linear_flux(const double *x, int nd, double *f)
{
    f[0] = 0.5 * x[0] - 0.2 * x[1] + 1.0;
    f[1] = 0.3 * x[0] + 0.25 * x[1] - 2.0;
    if (nd == 3) {
        f[0] += 0.1 * x[2];
        f[1] -= 0.6 * x[2];
        f[2] = 0.75 * x[2] + 0.2 * x[0] - 0.3 * x[1];
    }
}
static double linear_div(const double *x, int nd)
{
    (void)x;
    return nd == 3 ? 1.5 : 0.75;
}

/* quadratic: div = 2 x0 + x1 + (x0 + 1) */
static void quad_flux(const double *x, int nd, double *f)
{
    (void)nd;
    f[0] = x[0] * x[0] + x[0] * x[1] - 0.5 * x[1] * x[1];
    f[1] = 0.5 * x[0] * x[1] + 0.5 * x[1] + 0.3 * x[0] * x[0];
}
static double quad_div(const double *x, int nd)
{
    (void)nd;
    return 2 * x[0] + x[1] + 0.5 * x[0] + 0.5;
}

static void check_div(const fr_element *e, const fr_geometry *g, flux_fn *flux,
                      double (*div)(const double *, int), double tol, const char *what)
{
    double *out = malloc(g->nupts * sizeof *out);
    for (size_t el = 0; el < g->neles; el++) {
        fr_div(e, g, el, flux, out);
        for (size_t i = 0; i < g->nupts; i++) {
            double want = div ? div(g->xupts + (el * g->nupts + i) * (size_t)g->ndims, g->ndims) : 0.0;
            ck_assert_msg(fabs(out[i] - want) <= tol,
                          "%s: p %d element %zu point %zu: divergence %.17g, exact %.17g", what,
                          fr_element_order(e), el, i, out[i], want);
        }
    }
    free(out);
}

/* ------------------------------------------------------------- affine */

START_TEST(affine_quad_and_tri)
{
    for (int t = 0; t < 2; t++)
        for (int p = 1; p <= 5; p++) {
            int et = t ? FR_TRI : FR_QUAD;
            size_t nsh = t ? 3 : 4;
            fr_element *e = ft_element(et, p);
            double shape[8];
            for (size_t k = 0; k < nsh; k++)
                affine2(t ? tri6_ref[k] : quad9_ref[k], shape + 2 * k);
            fr_geometry g;
            compute(e, 1, nsh, shape, &g);
            double det = A2[0][0] * A2[1][1] - A2[0][1] * A2[1][0];
            double adj[2][2] = {{A2[1][1], -A2[0][1]}, {-A2[1][0], A2[0][0]}};
            const double *up = fr_element_upts(e), *fp = fr_element_fpts(e);
            const double *nr = fr_element_norm_fpts(e), *vp = fr_element_vis_pts(e);
            double area = 0.0;
            for (size_t i = 0; i < g.nupts; i++) {
                double x[2];
                affine2(up + 2 * i, x);
                ck_near(g.xupts[2 * i], x[0], 1e-14);
                ck_near(g.xupts[2 * i + 1], x[1], 1e-14);
                ck_near(g.djac[i], det, 1e-14);
                ck_near(g.rcpdjac[i], 1 / det, 1e-14);
                for (int r = 0; r < 2; r++)
                    for (int c = 0; c < 2; c++)
                        ck_near(g.smats[i * 4 + (size_t)(r * 2 + c)], adj[r][c], 1e-14);
                area += g.qwts[i];
            }
            ck_near(area, (t ? 2.0 : 4.0) * det, 1e-13);
            for (size_t k = 0; k < g.nfpts; k++) {
                double x[2], v[2];
                affine2(fp + 2 * k, x);
                ck_near(g.xfpts[2 * k], x[0], 1e-14);
                ck_near(g.xfpts[2 * k + 1], x[1], 1e-14);
                for (int j = 0; j < 2; j++)
                    v[j] = adj[0][j] * nr[2 * k] + adj[1][j] * nr[2 * k + 1];
                double m = hypot(v[0], v[1]);
                ck_near(g.mag[k], m, 1e-14);
                ck_near(g.pnorm[2 * k], v[0] / m, 1e-14);
                ck_near(g.pnorm[2 * k + 1], v[1] / m, 1e-14);
            }
            /* mag is the physical face length per unit face parameter */
            size_t nfp = fr_element_nfacefpts(e);
            for (size_t f = 0; f < fr_element_nfaces(e); f++) {
                const double *a = shape + 2 * f, *b = shape + 2 * ((f + 1) % nsh);
                ck_near(g.mag[f * nfp], 0.5 * hypot(b[0] - a[0], b[1] - a[1]), 1e-14);
            }
            for (size_t i = 0; i < g.nvis; i++) {
                double x[2];
                affine2(vp + 2 * i, x);
                ck_near(g.xvis[2 * i], x[0], 1e-14);
                ck_near(g.xvis[2 * i + 1], x[1], 1e-14);
            }
            /* fluxes of degree <= p: exact divergence */
            check_div(e, &g, linear_flux, linear_div, 1e-11, "affine linear");
            if (p >= 2)
                check_div(e, &g, quad_flux, quad_div, 1e-10, "affine quadratic");
            fr_geometry_free(&g);
            ck_assert_ptr_null(g.xupts);
            fr_element_destroy(e);
        }
}
END_TEST

/* ------------------------------------------------------------- curved */

/* Shape points of one curved element of nsh points: the curved map
 * sampled at the reference nodes. */
static void curved_shape(int et, size_t nsh, double *shape)
{
    for (size_t k = 0; k < nsh; k++)
        curved2(et == FR_TRI ? tri6_ref[k] : quad9_ref[k], shape + 2 * k);
}

/* Area of the element bounded by the quadratic edges (corner a, middle
 * m, corner b), by Green's theorem: 1/2 sum int (x y' - y x') dt. */
static double parabolic_area(const double *shape, size_t ncorner)
{
    double g[3], w[3], area = 0.0;
    ck_assert_int_eq(fr_gauss_legendre(3, g, w), 0);
    for (size_t f = 0; f < ncorner; f++) {
        const double *a = shape + 2 * f, *b = shape + 2 * ((f + 1) % ncorner);
        const double *m = shape + 2 * (ncorner + f);
        for (int q = 0; q < 3; q++) {
            double t = g[q], la = 0.5 * t * (t - 1), lm = 1 - t * t, lb = 0.5 * t * (t + 1);
            double da = t - 0.5, dm = -2 * t, db = t + 0.5;
            double x = la * a[0] + lm * m[0] + lb * b[0], y = la * a[1] + lm * m[1] + lb * b[1];
            double dx = da * a[0] + dm * m[0] + db * b[0], dy = da * a[1] + dm * m[1] + db * b[1];
            area += 0.5 * w[q] * (x * dy - y * dx);
        }
    }
    return area;
}

START_TEST(curved_free_stream_and_divergence)
{
    static const struct {
        int et;
        size_t nsh;
        int lo, hi, exact_from; /* linear flux exact from this order */
    } cs[] = {{FR_QUAD, 9, 0, 7, 4}, {FR_QUAD, 8, 0, 6, 4}, {FR_TRI, 6, 1, 6, 3}};
    for (size_t c = 0; c < sizeof cs / sizeof *cs; c++)
        for (int p = cs[c].lo; p <= cs[c].hi; p++) {
            fr_element *e = ft_element(cs[c].et, p);
            double shape[18];
            curved_shape(cs[c].et, cs[c].nsh, shape);
            fr_geometry g;
            compute(e, 1, cs[c].nsh, shape, &g);
            /* a constant flux has zero divergence at every order */
            check_div(e, &g, const_flux, NULL, 1e-12, "free stream");
            /* a linear flux once smats * F is a polynomial of degree <= p */
            if (p >= cs[c].exact_from)
                check_div(e, &g, linear_flux, linear_div, 1e-10, "curved linear");
            /* the weights x |J| integrate the area exactly from p = 2 */
            if (p >= 2 && cs[c].nsh != 8) {
                double area = 0.0;
                for (size_t i = 0; i < g.nupts; i++)
                    area += g.qwts[i];
                ck_near(area, parabolic_area(shape, cs[c].et == FR_TRI ? 3 : 4), 1e-13);
            }
            fr_geometry_free(&g);
            fr_element_destroy(e);
        }
}
END_TEST

/* a distorted trilinear hexahedron */
static void hex_shape(double *shape, double dz)
{
    for (int k = 0; k < 8; k++) {
        const double *r = hex8_ref[k];
        shape[3 * k] = r[0] + 0.15 * r[1] * r[2] + 0.1 * r[1];
        shape[3 * k + 1] = r[1] + 0.1 * r[0] * r[2] - 0.05 * r[2];
        shape[3 * k + 2] = r[2] + dz + 0.12 * r[0] * r[1] + 0.05 * r[0];
    }
}

START_TEST(hex_free_stream)
{
    for (int p = 1; p <= 4; p++) {
        fr_element *e = ft_element(FR_HEX, p);
        double shape[24];
        hex_shape(shape, 0.0);
        fr_geometry g;
        compute(e, 1, 8, shape, &g);
        check_div(e, &g, const_flux, NULL, 1e-12, "hex free stream");
        fr_geometry_free(&g);
        /* an affine hexahedron: linear fluxes exactly */
        double aff[24];
        for (int k = 0; k < 8; k++) {
            const double *r = hex8_ref[k];
            aff[3 * k] = 2 * r[0] + 0.3 * r[1] + 0.1 * r[2];
            aff[3 * k + 1] = 0.2 * r[0] + 1.5 * r[1] - 0.2 * r[2];
            aff[3 * k + 2] = -0.1 * r[0] + 0.25 * r[1] + r[2];
        }
        compute(e, 1, 8, aff, &g);
        check_div(e, &g, linear_flux, linear_div, 1e-11, "affine hex linear");
        double vol = 0.0, det = 2 * (1.5 * 1 + 0.2 * 0.25) - 0.3 * (0.2 * 1 - 0.2 * 0.1)
                                + 0.1 * (0.2 * 0.25 + 1.5 * 0.1);
        for (size_t i = 0; i < g.nupts; i++)
            vol += g.qwts[i];
        ck_near(vol, 8 * det, 1e-13);
        fr_geometry_free(&g);
        fr_element_destroy(e);
    }
}
END_TEST

/* Gmsh's 10-node tetrahedron on the reference: corners, then the
 * middles of edges 0-1, 1-2, 2-0, 0-3, 2-3, 1-3 */
static const double tet10_ref[10][3] = {
    {-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}, {0, -1, -1},
    {0, 0, -1},   {-1, 0, -1}, {-1, -1, 0}, {-1, 0, 0},  {0, -1, 0}};

/* A curved map of space sampled at a tetrahedron's 10 shape nodes
 * (quadratic, so the shape holds it exactly) */
static void curved3(const double *xi, double *x)
{
    x[0] = 1.0 + xi[0] + 0.08 * xi[1] * xi[1] + 0.05 * xi[1] * xi[2];
    x[1] = -0.5 + xi[1] + 0.06 * xi[0] * xi[2] - 0.04 * xi[2] * xi[2];
    x[2] = 2.0 + xi[2] + 0.07 * xi[0] * xi[0] + 0.03 * xi[0] * xi[1];
}

/* Tetrahedra: affine ones give linear fluxes' divergence exactly and
 * their volume; curved (10-node) ones preserve a free stream, and their
 * volume is the map's (a quadrature of the exact |J|). */
START_TEST(tet_free_stream)
{
    static const double A3[3][3] = {{2, 0.3, 0.1}, {0.2, 1.5, -0.2}, {-0.1, 0.25, 1}};
    double det = 2 * (1.5 * 1 + 0.2 * 0.25) - 0.3 * (0.2 * 1 - 0.2 * 0.1)
                 + 0.1 * (0.2 * 0.25 + 1.5 * 0.1);
    for (int p = 1; p <= 4; p++) {
        fr_element *e = ft_element(FR_TET, p);
        double aff[12], cur[30];
        for (int k = 0; k < 4; k++)
            for (int r = 0; r < 3; r++)
                aff[3 * k + r] = A3[r][0] * tet10_ref[k][0] + A3[r][1] * tet10_ref[k][1]
                                 + A3[r][2] * tet10_ref[k][2] + 0.5 * r;
        fr_geometry g;
        compute(e, 1, 4, aff, &g);
        check_div(e, &g, linear_flux, linear_div, 1e-11, "affine tet linear");
        double vol = 0.0;
        for (size_t i = 0; i < g.nupts; i++) {
            vol += g.qwts[i];
            ck_near(g.djac[i], det, 1e-13);
        }
        ck_near(vol, 4.0 / 3 * det, 1e-13);
        fr_geometry_free(&g);
        for (int k = 0; k < 10; k++)
            curved3(tet10_ref[k], cur + 3 * k);
        compute(e, 1, 10, cur, &g);
        check_div(e, &g, const_flux, NULL, 1e-12, "curved tet free stream");
        fr_geometry_free(&g);
        fr_element_destroy(e);
    }
}
END_TEST

/* Gmsh's 18-node prism on the reference: corners, the middles of edges
 * 0-1, 0-2, 0-3, 1-2, 1-4, 2-5, 3-4, 3-5, 4-5, the centres of the
 * quadrilaterals 0143, 0253, 1254 */
static const double pri18_ref[18][3] = {
    {-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1},
    {-1, 1, 1},   {0, -1, -1}, {-1, 0, -1}, {-1, -1, 0}, {0, 0, -1},
    {1, -1, 0},   {-1, 1, 0},  {0, -1, 1},  {-1, 0, 1},  {0, 0, 1},
    {0, -1, 0},   {-1, 0, 0},  {0, 0, 0}};

/* Prisms as tet_free_stream: affine (linear fluxes exactly, the volume),
 * curved 18-node (a free stream). */
START_TEST(prism_free_stream)
{
    static const double A3[3][3] = {{2, 0.3, 0.1}, {0.2, 1.5, -0.2}, {-0.1, 0.25, 1}};
    double det = 2 * (1.5 * 1 + 0.2 * 0.25) - 0.3 * (0.2 * 1 - 0.2 * 0.1)
                 + 0.1 * (0.2 * 0.25 + 1.5 * 0.1);
    for (int p = 1; p <= 4; p++) {
        fr_element *e = ft_element(FR_PRI, p);
        double aff[18], cur[54];
        for (int k = 0; k < 6; k++)
            for (int r = 0; r < 3; r++)
                aff[3 * k + r] = A3[r][0] * pri18_ref[k][0] + A3[r][1] * pri18_ref[k][1]
                                 + A3[r][2] * pri18_ref[k][2] + 0.5 * r;
        fr_geometry g;
        compute(e, 1, 6, aff, &g);
        check_div(e, &g, linear_flux, linear_div, 1e-11, "affine prism linear");
        double vol = 0.0;
        for (size_t i = 0; i < g.nupts; i++) {
            vol += g.qwts[i];
            ck_near(g.djac[i], det, 1e-13);
        }
        ck_near(vol, 4.0 * det, 1e-13);
        fr_geometry_free(&g);
        for (int k = 0; k < 18; k++)
            curved3(pri18_ref[k], cur + 3 * k);
        compute(e, 1, 18, cur, &g);
        check_div(e, &g, const_flux, NULL, 1e-12, "curved prism free stream");
        fr_geometry_free(&g);
        fr_element_destroy(e);
    }
}
END_TEST

/* Gmsh's 14-node pyramid on the reference: corners, the middles of
 * edges 0-1, 0-3, 0-4, 1-2, 1-4, 2-3, 2-4, 3-4, the centre of the base */
static const double pyr14_ref[14][3] = {
    {-1, -1, -1}, {1, -1, -1},    {1, 1, -1},     {-1, 1, -1},  {0, 0, 1},
    {0, -1, -1},  {-1, 0, -1},    {-0.5, -0.5, 0}, {1, 0, -1},  {0.5, -0.5, 0},
    {0, 1, -1},   {0.5, 0.5, 0},  {-0.5, 0.5, 0}, {0, 0, -1}};

/* x = (xi (1 + zeta/10), eta, zeta) + (1, 2, 3): in the pyramid's
 * quadratic space, |J| = 1 + zeta/10, smats = adj(J) =
 * [[1, 0, -xi/10], [0, 1 + zeta/10, 0], [0, 0, 1 + zeta/10]]. */
static void pyr_stretch(const double *xi, double *x)
{
    x[0] = 1 + xi[0] * (1 + 0.1 * xi[2]);
    x[1] = 2 + xi[1];
    x[2] = 3 + xi[2];
}

/* Pyramids: an affine one (the points, |J| and smats the map's, its
 * volume, linear fluxes' divergence exactly, the normals of the faces
 * the map's images of PyFR's (0, -1, 1/2) ...); the stretched 14-node
 * one against its hand-computed |J| and smats (from p = 2: at p = 1
 * the metric is the corners', as PyFR's); a curved 14-node one keeps a
 * free stream. */
START_TEST(pyramid_geometry)
{
    static const double A3[3][3] = {{2, 0.3, 0.1}, {0.2, 1.5, -0.2}, {-0.1, 0.25, 1}};
    double det = 2 * (1.5 * 1 + 0.2 * 0.25) - 0.3 * (0.2 * 1 - 0.2 * 0.1)
                 + 0.1 * (0.2 * 0.25 + 1.5 * 0.1);
    /* adj(A) = det A^-1, by cofactors */
    double adj[3][3];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            int r1 = (c + 1) % 3, r2 = (c + 2) % 3, c1 = (r + 1) % 3, c2 = (r + 2) % 3;
            adj[r][c] = A3[r1][c1] * A3[r2][c2] - A3[r1][c2] * A3[r2][c1];
        }
    for (int p = 1; p <= 4; p++) {
        fr_element *e = ft_element(FR_PYR, p);
        const double *up = fr_element_upts(e), *fp = fr_element_fpts(e);
        const double *nr = fr_element_norm_fpts(e);
        double aff[15], str[42], cur[42];
        for (int k = 0; k < 5; k++)
            for (int r = 0; r < 3; r++)
                aff[3 * k + r] = A3[r][0] * pyr14_ref[k][0] + A3[r][1] * pyr14_ref[k][1]
                                 + A3[r][2] * pyr14_ref[k][2] + 0.5 * r;
        fr_geometry g;
        compute(e, 1, 5, aff, &g);
        check_div(e, &g, linear_flux, linear_div, 1e-11, "affine pyramid linear");
        double vol = 0.0;
        for (size_t i = 0; i < g.nupts; i++) {
            vol += g.qwts[i];
            ck_near(g.djac[i], det, 1e-13);
            for (int r = 0; r < 3; r++) {
                double x = 0.5 * r;
                for (int c = 0; c < 3; c++) {
                    x += A3[r][c] * up[3 * i + (size_t)c];
                    ck_near(g.smats[9 * i + (size_t)(3 * r + c)], adj[r][c], 1e-13);
                }
                ck_near(g.xupts[3 * i + (size_t)r], x, 1e-14);
            }
        }
        ck_near(vol, 8.0 / 3 * det, 1e-13);
        for (size_t k = 0; k < g.nfpts; k++) { /* mag pnorm = adj^T norm_fpts */
            double v[3] = {0, 0, 0};
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 3; i++)
                    v[j] += adj[i][j] * nr[3 * k + (size_t)i];
            for (int j = 0; j < 3; j++)
                ck_near(g.mag[k] * g.pnorm[3 * k + (size_t)j], v[j], 1e-13);
            (void)fp;
        }
        fr_geometry_free(&g);
        for (int k = 0; k < 14; k++)
            pyr_stretch(pyr14_ref[k], str + 3 * k);
        compute(e, 1, 14, str, &g);
        check_div(e, &g, const_flux, NULL, 1e-12, "stretched pyramid free stream");
        for (size_t i = 0; i < g.nupts && p >= 2; i++) {
            const double *x = up + 3 * i;
            double want[9] = {1, 0, -0.1 * x[0], 0, 1 + 0.1 * x[2], 0, 0, 0, 1 + 0.1 * x[2]};
            ck_near(g.djac[i], 1 + 0.1 * x[2], 1e-13);
            for (int k = 0; k < 9; k++)
                ck_near(g.smats[9 * i + (size_t)k], want[k], 1e-13);
        }
        fr_geometry_free(&g);
        for (int k = 0; k < 14; k++)
            curved3(pyr14_ref[k], cur + 3 * k);
        compute(e, 1, 14, cur, &g);
        check_div(e, &g, const_flux, NULL, 1e-12, "curved pyramid free stream");
        fr_geometry_free(&g);
        fr_element_destroy(e);
    }
}
END_TEST

/* --------------------------------------------------------- shared faces */

/* A node grid of (2m+1) x (2m+1) quadratic nodes over a distorted square. */
static void grid_node(int i, int j, int m, double *x)
{
    double u = (double)i / (2 * m), v = (double)j / (2 * m);
    x[0] = u + 0.06 * sin(3.1 * v + 0.3) * sin(3.14159 * u) + 0.03 * u * v;
    x[1] = v + 0.05 * sin(2.7 * u + 0.1) * sin(3.14159 * v) - 0.02 * u * u;
}

/* For every pair of faces with the same two corner nodes walked in
 * opposite directions: points k and nfp-1-k coincide, their mags agree
 * and their normals are opposite. Returns how many faces matched. */
static int check_shared(const fr_element *e, const fr_geometry *g, size_t neles,
                        size_t ncorner, const int *conn)
{
    size_t nfp = fr_element_nfacefpts(e), nf = g->nfpts;
    int matched = 0;
    for (size_t a = 0; a < neles; a++)
        for (size_t b = 0; b < neles; b++)
            for (size_t fa = 0; fa < ncorner; fa++)
                for (size_t fb = 0; fb < ncorner; fb++) {
                    if (a == b)
                        continue;
                    int a0 = conn[a * 9 + fa], a1 = conn[a * 9 + (fa + 1) % ncorner];
                    int b0 = conn[b * 9 + fb], b1 = conn[b * 9 + (fb + 1) % ncorner];
                    if (!(a0 == b1 && a1 == b0))
                        continue;
                    matched++;
                    for (size_t k = 0; k < nfp; k++) {
                        size_t i = a * nf + fa * nfp + k, j = b * nf + fb * nfp + (nfp - 1 - k);
                        for (int d = 0; d < 2; d++) {
                            ck_near(g->xfpts[2 * i + (size_t)d], g->xfpts[2 * j + (size_t)d], 1e-14);
                            ck_near(g->pnorm[2 * i + (size_t)d], -g->pnorm[2 * j + (size_t)d], 1e-13);
                        }
                        ck_near(g->mag[i], g->mag[j], 1e-13);
                    }
                }
    return matched;
}

START_TEST(shared_faces_quad_and_tri_meshes)
{
    const int m = 2; /* 2 x 2 cells */
    int nodes_per_side = 2 * m + 1;
    double nodes[25][2];
    for (int j = 0; j < nodes_per_side; j++)
        for (int i = 0; i < nodes_per_side; i++)
            grid_node(i, j, m, nodes[j * nodes_per_side + i]);
#define N(i, j) ((j) * nodes_per_side + (i))
    int qconn[4 * 9], tconn[8 * 9];
    size_t nq = 0, nt = 0;
    for (int cb = 0; cb < m; cb++)
        for (int ca = 0; ca < m; ca++) {
            int i = 2 * ca, j = 2 * cb;
            int q[9] = {N(i, j), N(i + 2, j), N(i + 2, j + 2), N(i, j + 2), N(i + 1, j),
                        N(i + 2, j + 1), N(i + 1, j + 2), N(i, j + 1), N(i + 1, j + 1)};
            memcpy(qconn + 9 * nq++, q, sizeof q);
            int t1[9] = {N(i, j), N(i + 2, j), N(i + 2, j + 2), N(i + 1, j), N(i + 2, j + 1), N(i + 1, j + 1)};
            int t2[9] = {N(i, j), N(i + 2, j + 2), N(i, j + 2), N(i + 1, j + 1), N(i + 1, j + 2), N(i, j + 1)};
            memcpy(tconn + 9 * nt++, t1, sizeof t1);
            memcpy(tconn + 9 * nt++, t2, sizeof t2);
        }
#undef N
    for (int t = 0; t < 2; t++) {
        size_t ne = t ? nt : nq, nsh = t ? 6 : 9, nc = t ? 3 : 4;
        const int *conn = t ? tconn : qconn;
        double *shape = malloc(ne * nsh * 2 * sizeof *shape);
        for (size_t el = 0; el < ne; el++)
            for (size_t k = 0; k < nsh; k++)
                memcpy(shape + (el * nsh + k) * 2, nodes[conn[el * 9 + k]], 2 * sizeof(double));
        for (int p = 1; p <= 5; p++) {
            fr_element *e = ft_element(t ? FR_TRI : FR_QUAD, p);
            fr_geometry g;
            compute(e, ne, nsh, shape, &g);
            /* interior faces: 4 of the quads; 4 + 4 of the triangles, each seen from both sides */
            ck_assert_int_eq(check_shared(e, &g, ne, nc, conn), t ? 16 : 8);
            check_div(e, &g, const_flux, NULL, 1e-12, "mesh free stream");
            fr_geometry_free(&g);
            fr_element_destroy(e);
        }
        free(shape);
    }
}
END_TEST

/* Two distorted hexahedra, one on the other: the flux points of the top
 * face of the lower (Gmsh face 5) meet those of the bottom face of the
 * upper (face 0) one for one, with opposite normals and equal mags. */
START_TEST(shared_face_hex)
{
    double shape[48];
    hex_shape(shape, 0.0);
    /* the upper element's bottom corners are the lower one's top corners */
    for (int k = 0; k < 4; k++)
        memcpy(shape + 24 + 3 * k, shape + 3 * (k + 4), 3 * sizeof(double));
    for (int k = 4; k < 8; k++) {
        const double *r = hex8_ref[k];
        shape[24 + 3 * k] = r[0] + 0.05 * r[1];
        shape[24 + 3 * k + 1] = r[1] - 0.1 * r[0];
        shape[24 + 3 * k + 2] = 3.2 + 0.1 * r[0] * r[1];
    }
    for (int p = 1; p <= 3; p++) {
        fr_element *e = ft_element(FR_HEX, p);
        fr_geometry g;
        compute(e, 2, 8, shape, &g);
        size_t nfp = fr_element_nfacefpts(e), nf = g.nfpts;
        for (size_t k = 0; k < nfp; k++) {
            size_t i = 5 * nfp + k, found = 0;
            for (size_t l = 0; l < nfp; l++) {
                size_t j = nf + 0 * nfp + l;
                double d = 0;
                for (int c = 0; c < 3; c++)
                    d += fabs(g.xfpts[3 * i + (size_t)c] - g.xfpts[3 * j + (size_t)c]);
                if (d > 1e-13)
                    continue;
                found++;
                for (int c = 0; c < 3; c++)
                    ck_near(g.pnorm[3 * i + (size_t)c], -g.pnorm[3 * j + (size_t)c], 1e-13);
                ck_near(g.mag[i], g.mag[j], 1e-13);
            }
            ck_assert_uint_eq(found, 1);
        }
        check_div(e, &g, const_flux, NULL, 1e-12, "two hexes free stream");
        fr_geometry_free(&g);
        fr_element_destroy(e);
    }
}
END_TEST

static double det3(const double *a, const double *b, const double *c, const double *d)
{
    double u[3], v[3], w[3];
    for (int r = 0; r < 3; r++)
        u[r] = b[r] - a[r], v[r] = c[r] - a[r], w[r] = d[r] - a[r];
    return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0])
           + u[2] * (v[0] * w[1] - v[1] * w[0]);
}

/* Two tetrahedra sharing a face, the second listed in each of its 12
 * right-handed corner orders, so the shared face is every one of its
 * faces with every rot: with rot found as the core finds it (the place,
 * in the other side's face corners, of this side's corner 0; mesh.md),
 * the face point k of one side sits where fr_element_facing(face, rot, k) of the
 * other does, with opposite normals and equal mags. */
START_TEST(shared_face_tet)
{
    static const int tet_faces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {3, 1, 2}};
    static const double a[4][3] = {{0, 0, 0}, {1.1, 0.1, -0.05}, {0.05, 0.9, 0.1}, {0.1, -0.1, 1.2}};
    static const double apex[3] = {1.0, 1.0, 1.1};
    const double *bc[4] = {a[1], a[2], a[3], apex};
    static const int perms[24][4] = {
        {0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1},
        {1, 0, 2, 3}, {1, 0, 3, 2}, {1, 2, 0, 3}, {1, 2, 3, 0}, {1, 3, 0, 2}, {1, 3, 2, 0},
        {2, 0, 1, 3}, {2, 0, 3, 1}, {2, 1, 0, 3}, {2, 1, 3, 0}, {2, 3, 0, 1}, {2, 3, 1, 0},
        {3, 0, 1, 2}, {3, 0, 2, 1}, {3, 1, 0, 2}, {3, 1, 2, 0}, {3, 2, 0, 1}, {3, 2, 1, 0}};
    int seen[4][3] = {{0}};
    for (int p = 1; p <= 4; p++) {
        fr_element *e = ft_element(FR_TET, p);
        size_t nfp = fr_element_nfacefpts(e);
        int tried = 0;
        for (int q = 0; q < 24; q++) {
            double shape[24];
            memcpy(shape, a, sizeof a);
            for (int k = 0; k < 4; k++)
                memcpy(shape + 12 + 3 * k, bc[perms[q][k]], 3 * sizeof(double));
            if (det3(shape + 12, shape + 15, shape + 18, shape + 21) < 0)
                continue;
            tried++;
            /* A's face 3 is (a3, a1, a2): which of B's faces is it, with what rot? */
            int fb = -1, rot = -1;
            for (int f = 0; f < 4 && fb < 0; f++) {
                int has = 0;
                for (int i = 0; i < 3; i++)
                    has += perms[q][tet_faces[f][i]] != 3;
                if (has == 3)
                    fb = f;
            }
            ck_assert_int_ge(fb, 0);
            const int ac[3] = {2, 0, 1}; /* A's face corners as indices into bc */
            int bcorner[3];
            for (int i = 0; i < 3; i++)
                bcorner[i] = perms[q][tet_faces[fb][i]];
            for (int j = 0; j < 3; j++)
                if (bcorner[j] == ac[0])
                    rot = j;
            for (int i = 0; i < 3; i++) /* the rule mesh.md states */
                ck_assert_int_eq(bcorner[(rot - i + 3) % 3], ac[i]);
            seen[fb][rot] = 1;
            fr_geometry g;
            compute(e, 2, 4, shape, &g);
            size_t nf = g.nfpts;
            for (size_t k = 0; k < nfp; k++) {
                size_t i = 3 * nfp + k, j = nf + (size_t)fb * nfp + fr_element_facing(e, (size_t)fb, rot, k);
                for (int c = 0; c < 3; c++) {
                    ck_near(g.xfpts[3 * i + (size_t)c], g.xfpts[3 * j + (size_t)c], 1e-14);
                    ck_near(g.pnorm[3 * i + (size_t)c], -g.pnorm[3 * j + (size_t)c], 1e-13);
                }
                ck_near(g.mag[i], g.mag[j], 1e-13);
                ck_assert_uint_eq(fr_element_facing(e, (size_t)fb, rot, fr_element_facing(e, (size_t)fb, rot, k)), k);
            }
            check_div(e, &g, const_flux, NULL, 1e-12, "two tets free stream");
            fr_geometry_free(&g);
        }
        ck_assert_int_eq(tried, 12);
        fr_element_destroy(e);
    }
    for (int f = 0; f < 4; f++)
        for (int r = 0; r < 3; r++)
            ck_assert_msg(seen[f][r], "face %d rot %d never met", f, r);
}
END_TEST

/* A pyramid's faces against a tetrahedron's and a hexahedron's, as
 * shared_face_tet: an affine pyramid (its triangles are flat only over
 * a parallelogram base: the 5-node map holds an xy term) with a
 * tetrahedron on each of its four triangles, listed in each of its 12
 * right-handed corner orders (every tetrahedron face at every rot), and
 * a hexahedron under its base, the pyramid's corners turned 4 ways
 * (every rot); rot as the core finds it (the place, in the other
 * side's face corners, of this side's corner 0), the face point k of
 * the pyramid sits at fr_element_facing(rot, k) of the other side,
 * normals opposite, mags equal. */
static void check_facing(const fr_element *pe, const fr_geometry *pg, size_t pf, size_t pf0,
                         const fr_element *oe, const fr_geometry *og, size_t of, int rot)
{
    size_t nfp = fr_element_face_nfpts(pe, pf), o0 = fr_element_face_fpt0(oe, of);
    ck_assert_uint_eq(fr_element_face_nfpts(oe, of), nfp);
    for (size_t k = 0; k < nfp; k++) {
        size_t i = pf0 + k, j = o0 + fr_element_facing(oe, of, rot, k);
        ck_assert_uint_eq(fr_element_facing(pe, pf, rot, k), fr_element_facing(oe, of, rot, k));
        for (int c = 0; c < 3; c++) {
            ck_near(pg->xfpts[3 * i + (size_t)c], og->xfpts[3 * j + (size_t)c], 1e-14);
            ck_near(pg->pnorm[3 * i + (size_t)c], -og->pnorm[3 * j + (size_t)c], 1e-13);
        }
        ck_near(pg->mag[i], og->mag[j], 1e-13);
    }
}

START_TEST(shared_face_pyramid)
{
    static const int tet_faces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {3, 1, 2}};
    static const int pyr_faces[5][4] = {{0, 1, 4}, {3, 0, 4}, {1, 2, 4}, {2, 3, 4}, {0, 3, 2, 1}};
    static const double A3[3][3] = {{1.1, 0.2, 0.1}, {-0.15, 0.9, 0.05}, {0.1, -0.2, 1.2}};
    static const int perms[24][4] = {
        {0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1},
        {1, 0, 2, 3}, {1, 0, 3, 2}, {1, 2, 0, 3}, {1, 2, 3, 0}, {1, 3, 0, 2}, {1, 3, 2, 0},
        {2, 0, 1, 3}, {2, 0, 3, 1}, {2, 1, 0, 3}, {2, 1, 3, 0}, {2, 3, 0, 1}, {2, 3, 1, 0},
        {3, 0, 1, 2}, {3, 0, 2, 1}, {3, 1, 0, 2}, {3, 1, 2, 0}, {3, 2, 0, 1}, {3, 2, 1, 0}};
    double base[15]; /* the affine pyramid's corners */
    for (int k = 0; k < 5; k++)
        for (int r = 0; r < 3; r++)
            base[3 * k + r] = A3[r][0] * pyr14_ref[k][0] + A3[r][1] * pyr14_ref[k][1]
                              + A3[r][2] * pyr14_ref[k][2] + 0.3 * r;
    int seen_tet[4][3] = {{0}}, seen_hex[4] = {0};
    for (int p = 1; p <= 3; p++) {
        fr_element *pe = ft_element(FR_PYR, p), *te = ft_element(FR_TET, p);
        fr_element *he = ft_element(FR_HEX, p);
        fr_geometry pg, og;
        compute(pe, 1, 5, base, &pg);
        for (int f = 0; f < 4; f++) { /* a tetrahedron on triangle f */
            const double *c[3];
            double out[3], u[3], v[3], nrm[3];
            for (int i = 0; i < 3; i++)
                c[i] = base + 3 * pyr_faces[f][i];
            for (int r = 0; r < 3; r++)
                u[r] = c[1][r] - c[0][r], v[r] = c[2][r] - c[0][r];
            nrm[0] = u[1] * v[2] - u[2] * v[1];
            nrm[1] = u[2] * v[0] - u[0] * v[2];
            nrm[2] = u[0] * v[1] - u[1] * v[0];
            for (int r = 0; r < 3; r++)
                out[r] = (c[0][r] + c[1][r] + c[2][r]) / 3 + 0.4 * nrm[r];
            const double *tc[4] = {c[0], c[1], c[2], out};
            int tried = 0;
            for (int q = 0; q < 24; q++) {
                double shape[12];
                for (int k = 0; k < 4; k++)
                    memcpy(shape + 3 * k, tc[perms[q][k]], 3 * sizeof(double));
                if (det3(shape, shape + 3, shape + 6, shape + 9) < 0)
                    continue;
                tried++;
                int fb = -1, rot = -1, bcorner[3];
                for (int g = 0; g < 4 && fb < 0; g++) {
                    int has = 0;
                    for (int i = 0; i < 3; i++)
                        has += perms[q][tet_faces[g][i]] != 3;
                    if (has == 3)
                        fb = g;
                }
                ck_assert_int_ge(fb, 0);
                for (int i = 0; i < 3; i++)
                    bcorner[i] = perms[q][tet_faces[fb][i]];
                for (int j = 0; j < 3; j++)
                    if (bcorner[j] == 0) /* the pyramid face's corner 0 is tc[0] */
                        rot = j;
                for (int i = 0; i < 3; i++) /* mesh.md's rule */
                    ck_assert_int_eq(bcorner[(rot - i + 3) % 3], i);
                seen_tet[fb][rot] = 1;
                compute(te, 1, 4, shape, &og);
                check_facing(pe, &pg, (size_t)f, fr_element_face_fpt0(pe, (size_t)f), te, &og,
                             (size_t)fb, rot);
                fr_geometry_free(&og);
            }
            ck_assert_int_eq(tried, 12);
        }
        fr_geometry_free(&pg);
        for (int s = 0; s < 4; s++) { /* the base turned: corner i is base corner (i+s)%4 */
            double pyr[15], hex[24];
            for (int i = 0; i < 4; i++)
                memcpy(pyr + 3 * i, base + 3 * ((i + s) % 4), 3 * sizeof(double));
            memcpy(pyr + 12, base + 12, 3 * sizeof(double));
            for (int i = 0; i < 4; i++) { /* the hexahedron's top is the base as listed */
                memcpy(hex + 12 + 3 * i, base + 3 * i, 3 * sizeof(double));
                for (int r = 0; r < 3; r++)
                    hex[3 * i + r] = base[3 * i + r] - (r == 2 ? 1.3 : 0.0) + 0.05 * (i + 1) * (r == 0);
            }
            compute(pe, 1, 5, pyr, &pg);
            compute(he, 1, 8, hex, &og);
            /* the pyramid's face 4 is (0,3,2,1), the hexahedron's 5 (4,5,6,7):
             * pyramid corner i is hexahedron corner 4 + (i+s)%4 */
            static const int pq[4] = {0, 3, 2, 1}, hq[4] = {4, 5, 6, 7};
            int rot = -1;
            for (int j = 0; j < 4; j++)
                if (hq[j] == 4 + (pq[0] + s) % 4)
                    rot = j;
            for (int i = 0; i < 4; i++)
                ck_assert_int_eq(hq[(rot - i + 4) % 4], 4 + (pq[i] + s) % 4);
            seen_hex[rot] = 1;
            check_facing(pe, &pg, 4, fr_element_face_fpt0(pe, 4), he, &og, 5, rot);
            check_div(pe, &pg, const_flux, NULL, 1e-12, "pyramid on a hexahedron free stream");
            fr_geometry_free(&pg);
            fr_geometry_free(&og);
        }
        fr_element_destroy(pe);
        fr_element_destroy(te);
        fr_element_destroy(he);
    }
    for (int f = 0; f < 4; f++)
        for (int r = 0; r < 3; r++)
            ck_assert_msg(seen_tet[f][r], "tetrahedron face %d rot %d never met", f, r);
    for (int r = 0; r < 4; r++)
        ck_assert_msg(seen_hex[r], "hexahedron rot %d never met", r);
}
END_TEST

/* ------------------------------------------------------------ refusals */

START_TEST(refusals)
{
    fr_element *e = ft_element(FR_QUAD, 2);
    fr_geometry g;
    double shape[16];
    uint64_t gid[2] = {3, 7};
    for (int k = 0; k < 4; k++)
        affine2(quad9_ref[k], shape + 2 * k);
    for (int k = 0; k < 4; k++) /* clockwise: corners 0, 3, 2, 1 */
        affine2(quad9_ref[(4 - k) % 4], shape + 8 + 2 * k);
    ck_assert_int_eq(fr_geometry_compute(e, 2, 4, shape, gid, &g), FRX_EINVAL);
    ck_assert_ptr_null(g.xupts);
    const char *msg = frx_errmsg();
    ck_assert_msg(strstr(msg, "element 1 (global 7) is inverted"), "%s", msg);
    ck_assert_msg(strstr(msg, "point 0"), "%s", msg);
    ck_assert_msg(strstr(msg, "counter-clockwise"), "%s", msg);
    /* no gids: the block's element number */
    ck_assert_int_eq(fr_geometry_compute(e, 2, 4, shape, NULL, &g), FRX_EINVAL);
    ck_assert_msg(strstr(frx_errmsg(), "element 1 is inverted"), "%s", frx_errmsg());
    /* wrong number of shape points */
    ck_assert_int_eq(fr_geometry_compute(e, 1, 7, shape, NULL, &g), FRX_ESHAPE);
    ck_assert_msg(strstr(frx_errmsg(), "7 shape points"), "%s", frx_errmsg());
    ck_assert_msg(strstr(frx_errmsg(), "4, 8 or 9"), "%s", frx_errmsg());
    fr_element_destroy(e);

    /* a quadratic triangle whose edge 0 middle is pushed beyond the
     * opposite corner folds: |J| < 0 inside it */
    e = ft_element(FR_TRI, 3);
    double t6[12];
    for (int k = 0; k < 6; k++)
        affine2(tri6_ref[k], t6 + 2 * k);
    affine2((double[]){0.0, 1.6}, t6 + 6);
    ck_assert_int_eq(fr_geometry_compute(e, 1, 6, t6, NULL, &g), FRX_EINVAL);
    ck_assert_msg(strstr(frx_errmsg(), "element 0 is inverted"), "%s", frx_errmsg());
    ck_assert_msg(strstr(frx_errmsg(), "|J| = -"), "%s", frx_errmsg());
    /* but a moderately curved one is fine */
    affine2((double[]){0.0, -0.7}, t6 + 6);
    ck_assert_int_eq(fr_geometry_compute(e, 1, 6, t6, NULL, &g), 0);
    fr_geometry_free(&g);
    fr_element_destroy(e);

    /* a hexahedron upside down */
    e = ft_element(FR_HEX, 1);
    double h[24];
    for (int k = 0; k < 8; k++)
        memcpy(h + 3 * k, hex8_ref[(k + 4) % 8], 3 * sizeof(double));
    ck_assert_int_eq(fr_geometry_compute(e, 1, 8, h, NULL, &g), FRX_EINVAL);
    ck_assert_msg(strstr(frx_errmsg(), "element 0 is inverted"), "%s", frx_errmsg());
    fr_element_destroy(e);
}
END_TEST

START_TEST(matrix_layout)
{
    /* 3 elements x 2 points x 2 values: value (el, r, c) = 100 el + 10 r + c */
    double src[12], dst[12];
    for (int el = 0; el < 3; el++)
        for (int r = 0; r < 2; r++)
            for (int c = 0; c < 2; c++)
                src[(el * 2 + r) * 2 + c] = 100 * el + 10 * r + c;
    fr_to_matrix_layout(src, 3, 2, 2, dst);
    for (int el = 0; el < 3; el++)
        for (int r = 0; r < 2; r++)
            for (int c = 0; c < 2; c++)
                ck_assert(dst[(r * 2 + c) * 3 + el] == 100 * el + 10 * r + c);
}
END_TEST

static Suite *geometry_suite(void)
{
    Suite *s = suite_create("fr-geometry");
    TCase *tc = tcase_create("geometry");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, affine_quad_and_tri);
    tcase_add_test(tc, curved_free_stream_and_divergence);
    tcase_add_test(tc, hex_free_stream);
    tcase_add_test(tc, shared_faces_quad_and_tri_meshes);
    tcase_add_test(tc, shared_face_hex);
    tcase_add_test(tc, tet_free_stream);
    tcase_add_test(tc, shared_face_tet);
    tcase_add_test(tc, prism_free_stream);
    tcase_add_test(tc, pyramid_geometry);
    tcase_add_test(tc, shared_face_pyramid);
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, matrix_layout);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return ft_run(geometry_suite()); }
