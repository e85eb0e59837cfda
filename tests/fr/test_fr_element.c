/* SPDX-License-Identifier: BSD-3-Clause */
/* libfrx-fr, reference elements: sizes and refusals, quadrature at
 * the solution points (Williams-Shunn on triangles), flux points and
 * normals, M0/M1/M2/M4/vis exact on polynomials, the FR divergence, and
 * the correction M3 against a DG lifting built from a mass matrix,
 * operators free of round-off where they mean zero, and the plugins'
 * own small inverse against LAPACK's. */
#include "frtest.h"
#include "fr-internal.h"

#include <frx/frx.h>

#include <stdio.h>
#include <string.h>

extern void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv,
                   double *b, const int *ldb, int *info);

struct etcase {
    int etype, lo, hi;
};
/* hexahedra up to 4 keep the suite quick */
static const struct etcase cases[] = {
    {FR_QUAD, 0, 8}, {FR_TRI, 1, 6}, {FR_HEX, 0, 4}, {FR_TET, 1, 6}, {FR_PRI, 1, 5},
    {FR_PYR, 1, 6}};
#define NCASES (sizeof cases / sizeof *cases)

static int ndims_of(int etype)
{
    return etype == FR_HEX || etype == FR_TET || etype == FR_PRI || etype == FR_PYR ? 3 : 2;
}
/* P_p spans the space (simplices) or lies in it (pyramids) */
static int simplex(int etype) { return etype == FR_TRI || etype == FR_TET || etype == FR_PYR; }

/* Exponents of the monomials spanning the element's space of order p
 * (Q_p on tensor elements, P_p on simplices, P_p x P_p on prisms; on a
 * prism pz the degree in z; on a pyramid P_p, which its space holds);
 * returns their number. */
static int monomials_z(int etype, int p, int pz, int (*ex)[3])
{
    int n = 0, nz = ndims_of(etype) == 3 ? pz : 0;
    for (int c = 0; c <= nz; c++)
        for (int b = 0; b <= p; b++)
            for (int a = 0; a <= p; a++)
                if ((!simplex(etype) || a + b + c <= p) && (etype != FR_PRI || a + b <= p)) {
                    ex[n][0] = a;
                    ex[n][1] = b;
                    ex[n][2] = c;
                    n++;
                }
    return n;
}

static int monomials(int etype, int p, int (*ex)[3])
{
    return monomials_z(etype, p, p, ex);
}

/* f at n points [n][nd] */
static void sample(const int *ex, size_t n, const double *pts, int nd, int d, double *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = ft_mono(ex, pts + i * (size_t)nd, nd, d);
}

static void matvec(const double *m, size_t nr, size_t nc, const double *x, double *y)
{
    for (size_t i = 0; i < nr; i++) {
        y[i] = 0.0;
        for (size_t j = 0; j < nc; j++)
            y[i] += m[i * nc + j] * x[j];
    }
}

START_TEST(sizes_and_refusals)
{
    for (size_t c = 0; c < NCASES; c++)
        for (int p = cases[c].lo; p <= cases[c].hi; p++) {
            fr_element *e = ft_element(cases[c].etype, p);
            size_t n1 = (size_t)p + 1, nd = (size_t)ndims_of(cases[c].etype);
            int et = cases[c].etype;
            size_t ntri = n1 * (n1 + 1) / 2;
            size_t nupts = et == FR_TRI ? ntri
                           : et == FR_TET ? n1 * (n1 + 1) * (n1 + 2) / 6
                           : et == FR_PRI ? ntri * n1
                           : et == FR_PYR ? n1 * (n1 + 1) * (2 * n1 + 1) / 6
                           : nd == 2 ? n1 * n1 : n1 * n1 * n1;
            size_t nfaces = et == FR_TRI ? 3 : et == FR_QUAD || et == FR_TET ? 4
                            : et == FR_PRI || et == FR_PYR ? 5 : 6;
            ck_assert_uint_eq(fr_element_nupts(e), nupts);
            ck_assert_uint_eq(fr_element_nfaces(e), nfaces);
            ck_assert_uint_eq(fr_element_nfacefpts(e), nd == 2 ? n1
                                                       : et == FR_TET ? ntri
                                                       : et == FR_PRI || et == FR_PYR ? 0
                                                                                      : n1 * n1);
            size_t sum = 0;
            for (size_t f = 0; f < nfaces; f++) { /* a prism: 2 triangles, 3 squares;
                                                     a pyramid: 4 triangles, a square */
                size_t want = nd == 2 ? n1
                              : et == FR_TET || (et == FR_PRI && f < 2) || (et == FR_PYR && f < 4)
                                  ? ntri : n1 * n1;
                ck_assert_uint_eq(fr_element_face_nfpts(e, f), want);
                ck_assert_uint_eq(fr_element_face_fpt0(e, f), sum);
                sum += want;
            }
            ck_assert_uint_eq(fr_element_nfpts(e), sum);
            ck_assert_int_eq(fr_element_ndims(e), (int)nd);
            size_t nr, nc;
            ck_assert_ptr_nonnull(fr_element_op(e, FR_M132, &nr, &nc));
            ck_assert(nr == nupts && nc == nd * nupts);
            ck_assert_ptr_nonnull(fr_element_op(e, FR_M4, &nr, &nc));
            ck_assert(nr == nd * nupts && nc == nupts);
            ck_assert_ptr_nonnull(fr_element_op(e, FR_M3, &nr, &nc));
            ck_assert(nr == nupts && nc == fr_element_nfpts(e));
            fr_element_destroy(e);
        }
    fr_element *e = (fr_element *)1;
    ck_assert_int_eq(fr_element_create(FR_TRI, 7, &e), FRX_ERANGE);
    ck_assert_ptr_null(e);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "triangle of order 7"));
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "1..6"));
    ck_assert_int_eq(fr_element_create(FR_TRI, 0, &e), FRX_ERANGE);
    ck_assert_int_eq(fr_element_create(FR_QUAD, 9, &e), FRX_ERANGE);
    ck_assert_int_eq(fr_element_create(FR_QUAD, -1, &e), FRX_ERANGE);
    ck_assert_int_eq(fr_element_create(FR_TET, 7, &e), FRX_ERANGE);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "tetrahedron of order 7"));
    ck_assert_int_eq(fr_element_create(FR_TET, 0, &e), FRX_ERANGE);
    ck_assert_int_eq(fr_element_create(FR_PRI, 7, &e), FRX_ERANGE);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "prism of order 7"));
    ck_assert_int_eq(fr_element_create(FR_PYR, 7, &e), FRX_ERANGE);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "pyramid of order 7"));
    ck_assert_int_eq(fr_element_create(FR_PYR, 0, &e), FRX_ERANGE);
    ck_assert_int_eq(fr_element_create(7, 2, &e), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "element type 7"));
    e = ft_element(FR_QUAD, 1);
    ck_assert_ptr_null(fr_element_op(e, FR_NOPS, NULL, NULL));
    fr_element_destroy(e);
}
END_TEST

/* Quadrature at the solution points: weights sum to the area; tensor
 * rules exact to degree 2p+1 in each variable; Williams-Shunn exact to
 * the degree of its table. */
START_TEST(solution_point_quadrature)
{
    static const int ws_degree[] = {0, 2, 4, 5, 7, 8, 10};
    static const int sh_degree[] = {0, 2, 3, 5, 6, 8, 9};
    for (size_t c = 0; c < NCASES; c++)
        for (int p = cases[c].lo; p <= cases[c].hi; p++) {
            int et = cases[c].etype, nd = ndims_of(et);
            fr_element *e = ft_element(et, p);
            const double *x = fr_element_upts(e), *w = fr_element_upts_weights(e);
            size_t n = fr_element_nupts(e);
            double sum = 0.0;
            for (size_t i = 0; i < n; i++)
                sum += w[i];
            ck_near(sum, et == FR_TRI ? 2.0 : et == FR_QUAD || et == FR_PRI ? 4.0
                         : et == FR_TET ? 4.0 / 3 : et == FR_PYR ? 8.0 / 3 : 8.0,
                    1e-14 * n);
            /* pyramids: exact on the space (pyramid_basis), P_p here */
            int deg = et == FR_TRI || et == FR_PRI ? ws_degree[p]
                      : et == FR_TET ? sh_degree[p] : et == FR_PYR ? p : 2 * p + 1;
            static int ex[4096][3];
            int nm = monomials_z(et, deg, et == FR_PRI ? 2 * p + 1 : deg, ex);
            for (int m = 0; m < nm; m++) {
                double s = 0.0;
                for (size_t i = 0; i < n; i++)
                    s += w[i] * ft_mono(ex[m], x + i * (size_t)nd, nd, -1);
                ck_assert_msg(fabs(s - ft_int(et, ex[m])) <= 1e-13,
                              "etype %d p %d: x^%d y^%d z^%d: %.17g vs %.17g", et, p, ex[m][0],
                              ex[m][1], ex[m][2], s, ft_int(et, ex[m]));
            }
            if (et == FR_TRI) /* strictly inside */
                for (size_t i = 0; i < n; i++)
                    ck_assert(x[2 * i] > -1 && x[2 * i + 1] > -1 && x[2 * i] + x[2 * i + 1] < 0);
            if (et == FR_TET)
                for (size_t i = 0; i < n; i++)
                    ck_assert(x[3 * i] > -1 && x[3 * i + 1] > -1 && x[3 * i + 2] > -1
                              && x[3 * i] + x[3 * i + 1] + x[3 * i + 2] < -1);
            fr_element_destroy(e);
        }
}
END_TEST

/* Flux points lie on their face, in the order of the face's walk from
 * its first corner, mirror-symmetric about the face's centre (so k meets
 * nfp-1-k on a shared face); normals are unit, outward, and norm_fpts is
 * the unit normal times the face Jacobian. */
START_TEST(flux_points_and_normals)
{
    for (size_t c = 0; c < NCASES; c++)
        for (int p = cases[c].lo; p <= cases[c].hi; p++) {
            int et = cases[c].etype;
            size_t nd = (size_t)ndims_of(et);
            fr_element *e = ft_element(et, p);
            const double *fp = fr_element_fpts(e), *un = fr_element_unorm_fpts(e);
            const double *nr = fr_element_norm_fpts(e), *fj = fr_element_face_jac(e);
            const double *fw = fr_element_fpts_weights(e);
            double cs = et == FR_TRI || et == FR_PRI ? -1.0 / 3 : et == FR_TET ? -0.5 : 0;
            double centroid[3] = {cs, cs, et == FR_TET || et == FR_PYR ? -0.5 : 0};
            for (size_t f = 0; f < fr_element_nfaces(e); f++) {
                size_t nfp = fr_element_face_nfpts(e, f), f0 = fr_element_face_fpt0(e, f);
                int tri = nd == 2 || et == FR_TET || (et == FR_PRI && f < 2) || (et == FR_PYR && f < 4);
                /* a pyramid's triangles: |(0, -1, 1/2)|, PyFR's normals */
                ck_near(fj[f], (et == FR_TRI && f == 1) || (et == FR_PRI && f == 4) ? sqrt(2.0)
                               : et == FR_TET && f == 3 ? sqrt(3.0)
                               : et == FR_PYR && f < 4 ? sqrt(1.25) : 1.0, 1e-15);
                double wsum = 0.0;
                for (size_t k = 0; k < nfp; k++) {
                    size_t i = f0 + k;
                    double nn = 0.0, out = 0.0;
                    for (size_t d = 0; d < nd; d++) {
                        nn += un[i * nd + d] * un[i * nd + d];
                        out += un[i * nd + d] * (fp[i * nd + d] - centroid[d]);
                        ck_near(nr[i * nd + d], un[i * nd + d] * fj[f], 1e-15);
                    }
                    ck_near(nn, 1.0, 1e-15);
                    ck_assert(out > 0);
                    wsum += fw[i];
                    /* on the face: the normal projection is constant */
                    double h = 0.0, h0 = 0.0;
                    for (size_t d = 0; d < nd; d++) {
                        h += un[i * nd + d] * fp[i * nd + d];
                        h0 += un[i * nd + d] * fp[f0 * nd + d];
                    }
                    ck_near(h, h0, 1e-15);
                    if (nd == 2) {
                        const double *c0 = fp + f * nfp * nd;
                        if (k > 0) { /* farther from the first point */
                            double d1 = hypot(fp[i * 2] - c0[0], fp[i * 2 + 1] - c0[1]);
                            double d0 = hypot(fp[(i - 1) * 2] - c0[0], fp[(i - 1) * 2 + 1] - c0[1]);
                            ck_assert(d1 > d0);
                        }
                    }
                }
                ck_near(wsum, tri ? 2.0 : 4.0, 1e-14);
                if (nd == 2) { /* the walk starts near corner fc[0] */
                    static const double tri_c[3][2] = {{-1, -1}, {1, -1}, {-1, 1}};
                    static const double quad_c[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
                    const double *c0 = et == FR_TRI ? tri_c[f] : quad_c[f];
                    const double *c1 = et == FR_TRI ? tri_c[(f + 1) % 3] : quad_c[(f + 1) % 4];
                    const double *a = fp + f * nfp * 2, *b = fp + (f * nfp + nfp - 1) * 2;
                    ck_assert(hypot(a[0] - c0[0], a[1] - c0[1]) <= hypot(a[0] - c1[0], a[1] - c1[1]));
                    ck_assert(hypot(b[0] - c1[0], b[1] - c1[1]) <= hypot(b[0] - c0[0], b[1] - c0[1]));
                    for (size_t k = 0; k < nfp; k++) {
                        const double *x = fp + (f * nfp + k) * 2, *y = fp + (f * nfp + nfp - 1 - k) * 2;
                        ck_near(x[0] + y[0], c0[0] + c1[0], 1e-15);
                        ck_near(x[1] + y[1], c0[1] + c1[1], 1e-15);
                    }
                }
            }
            fr_element_destroy(e);
        }
}
END_TEST

/* M0, M4, M1, M2 and the vis operator on every monomial of the space. */
START_TEST(operators_exact_on_polynomials)
{
    static int ex[1024][3];
    for (size_t c = 0; c < NCASES; c++)
        for (int p = cases[c].lo; p <= cases[c].hi; p++) {
            int et = cases[c].etype, nd = ndims_of(et);
            fr_element *e = ft_element(et, p);
            size_t nu = fr_element_nupts(e), nf = fr_element_nfpts(e), nv = fr_element_nvis(e);
            const double *up = fr_element_upts(e), *fp = fr_element_fpts(e);
            const double *vp = fr_element_vis_pts(e), *nr = fr_element_norm_fpts(e);
            const double *m0 = fr_element_op(e, FR_M0, NULL, NULL);
            const double *m1 = fr_element_op(e, FR_M1, NULL, NULL);
            const double *m2 = fr_element_op(e, FR_M2, NULL, NULL);
            const double *m4 = fr_element_op(e, FR_M4, NULL, NULL);
            const double *mv = fr_element_op(e, FR_MVIS, NULL, NULL);
            double *u = malloc(nd * nu * sizeof *u), *y = malloc(nd * (nu + nf + nv) * sizeof *y);
            double *ref = malloc(nd * (nu + nf + nv) * sizeof *ref);
            int nm = monomials(et, p, ex);
            for (int m = 0; m < nm; m++) {
                const int *q = ex[m];
                sample(q, nu, up, nd, -1, u);
                matvec(m0, nf, nu, u, y); /* M0: to the flux points */
                sample(q, nf, fp, nd, -1, ref);
                for (size_t i = 0; i < nf; i++)
                    ck_near(y[i], ref[i], 1e-12);
                matvec(mv, nv, nu, u, y); /* vis */
                sample(q, nv, vp, nd, -1, ref);
                for (size_t i = 0; i < nv; i++)
                    ck_near(y[i], ref[i], 1e-12);
                matvec(m4, (size_t)nd * nu, nu, u, y); /* M4: the gradient */
                for (int d = 0; d < nd; d++) {
                    sample(q, nu, up, nd, d, ref);
                    for (size_t i = 0; i < nu; i++)
                        ck_near(y[(size_t)d * nu + i], ref[i], 1e-11 * (p + 1));
                }
                /* a flux whose component d is this monomial shifted */
                const int *q2 = ex[(m + 1) % nm], *q3 = ex[(m + 2) % nm];
                const int *qd[3] = {q, q2, q3};
                for (int d = 0; d < nd; d++)
                    sample(qd[d], nu, up, nd, -1, u + (size_t)d * nu);
                matvec(m1, nu, (size_t)nd * nu, u, y); /* M1: the divergence */
                for (size_t i = 0; i < nu; i++) {
                    double div = 0.0;
                    for (int d = 0; d < nd; d++)
                        div += ft_mono(qd[d], up + i * (size_t)nd, nd, d);
                    ck_near(y[i], div, 1e-11 * (p + 1));
                }
                matvec(m2, nf, (size_t)nd * nu, u, y); /* M2: F . n at fpts */
                for (size_t i = 0; i < nf; i++) {
                    double fn = 0.0;
                    for (int d = 0; d < nd; d++)
                        fn += nr[i * (size_t)nd + (size_t)d] * ft_mono(qd[d], fp + i * (size_t)nd, nd, -1);
                    ck_near(y[i], fn, 1e-12);
                }
            }
            free(u);
            free(y);
            free(ref);
            fr_element_destroy(e);
        }
}
END_TEST

/* No operator holds round-off where it means zero (a product skips
 * only exact zeros); a prism's M0 has the zeros of its tensor structure:
 * a triangle face's point takes the p + 1 points of its line, a side
 * face's point the triangle's points of its layer. */
START_TEST(operators_hold_exact_zeros)
{
    for (size_t c = 0; c < NCASES; c++)
        for (int p = cases[c].lo; p <= cases[c].hi; p++) {
            fr_element *e = ft_element(cases[c].etype, p);
            for (int op = 0; op < FR_NOPS; op++) {
                size_t nr, nc;
                const double *a = fr_element_op(e, op, &nr, &nc);
                double amax = 0;
                for (size_t i = 0; i < nr * nc; i++)
                    amax = fmax(amax, fabs(a[i]));
                for (size_t i = 0; i < nr * nc; i++)
                    ck_assert_msg(a[i] == 0 || fabs(a[i]) >= 1e-10 * amax,
                                  "etype %d, p = %d, operator %d, [%zu][%zu] = %g "
                                  "of at most %g: round-off left in place of a zero",
                                  cases[c].etype, p, op, i / nc, i % nc, a[i], amax);
            }
            if (cases[c].etype == FR_PRI) {
                size_t nr, nc, nz = 0, nt = (size_t)(p + 1) * (size_t)(p + 2) / 2;
                const double *m0 = fr_element_op(e, FR_M0, &nr, &nc);
                for (size_t i = 0; i < nr * nc; i++)
                    nz += m0[i] != 0;
                size_t most = 2 * nt * (size_t)(p + 1) + 3 * (size_t)(p + 1) * (size_t)(p + 1) * nt;
                ck_assert_msg(nz <= most, "prism p = %d: M0 has %zu nonzeros, at most %zu expected",
                              p, nz, most);
            }
            fr_element_destroy(e);
        }
}
END_TEST

/* For a flux of degree <= p with the exact normal flux as the common
 * flux, M132 F + M3 Fn* is the exact divergence. */
START_TEST(fr_divergence_exact)
{
    static int ex[1024][3];
    for (size_t c = 0; c < NCASES; c++)
        for (int p = cases[c].lo; p <= cases[c].hi; p++) {
            int et = cases[c].etype, nd = ndims_of(et);
            fr_element *e = ft_element(et, p);
            size_t nu = fr_element_nupts(e), nf = fr_element_nfpts(e);
            const double *up = fr_element_upts(e), *fp = fr_element_fpts(e);
            const double *nr = fr_element_norm_fpts(e);
            const double *m132 = fr_element_op(e, FR_M132, NULL, NULL);
            const double *m3 = fr_element_op(e, FR_M3, NULL, NULL);
            double *f = malloc(nd * nu * sizeof *f), *fn = malloc(nf * sizeof *fn);
            double *a = malloc(nu * sizeof *a), *b = malloc(nu * sizeof *b);
            int nm = monomials(et, p, ex);
            for (int m = 0; m < nm; m++) {
                const int *qd[3] = {ex[m], ex[(m + 3) % nm], ex[(m + 5) % nm]};
                for (int d = 0; d < nd; d++)
                    sample(qd[d], nu, up, nd, -1, f + (size_t)d * nu);
                for (size_t i = 0; i < nf; i++) {
                    fn[i] = 0.0;
                    for (int d = 0; d < nd; d++)
                        fn[i] += nr[i * (size_t)nd + (size_t)d] * ft_mono(qd[d], fp + i * (size_t)nd, nd, -1);
                }
                matvec(m132, nu, (size_t)nd * nu, f, a);
                matvec(m3, nu, nf, fn, b);
                for (size_t i = 0; i < nu; i++) {
                    double div = 0.0;
                    for (int d = 0; d < nd; d++)
                        div += ft_mono(qd[d], up + i * (size_t)nd, nd, d);
                    ck_near(a[i] + b[i], div, 1e-11 * (p + 1));
                }
            }
            free(f);
            free(fn);
            free(a);
            free(b);
            fr_element_destroy(e);
        }
}
END_TEST

/* The DG lifting from a mass matrix: L = M^-1 B with M_ij = int l_i l_j
 * (a quadrature exact for degree 2p+2) and B_if = w_f l_i(x_f), the face
 * rule's weight (norm_fpts carries the face Jacobian). M3 must equal it:
 * Huynh's g_DG on tensor elements, the orthonormal-basis lifting on
 * triangles. */
static void check_lifting(int et, int p)
{
    fr_element *e = ft_element(et, p);
    int nd = ndims_of(et);
    size_t nu = fr_element_nupts(e), nf = fr_element_nfpts(e);
    /* quadrature for the mass matrix */
    size_t nq;
    double *qx, *qw;
    if (et == FR_TRI) {
        int n = p + 3;
        nq = (size_t)n * n;
        qx = malloc(2 * nq * sizeof *qx);
        qw = malloc(nq * sizeof *qw);
        ft_tri_rule(n, qx, qw);
    } else if (et == FR_TET) {
        int n = p + 3;
        nq = (size_t)n * n * n;
        qx = malloc(3 * nq * sizeof *qx);
        qw = malloc(nq * sizeof *qw);
        ft_tet_rule(n, qx, qw);
    } else if (et == FR_PRI) {
        int n = p + 3;
        nq = (size_t)n * n * n;
        qx = malloc(3 * nq * sizeof *qx);
        qw = malloc(nq * sizeof *qw);
        ft_prism_rule(n, qx, qw);
    } else {
        size_t n = (size_t)p + 2;
        double g[64], gw[64];
        ck_assert_int_eq(fr_gauss_legendre(n, g, gw), 0);
        nq = nd == 2 ? n * n : n * n * n;
        qx = malloc((size_t)nd * nq * sizeof *qx);
        qw = malloc(nq * sizeof *qw);
        for (size_t q = 0; q < nq; q++) {
            size_t id[3] = {q % n, (q / n) % n, q / (n * n)};
            qw[q] = 1.0;
            for (int d = 0; d < nd; d++) {
                qx[q * (size_t)nd + (size_t)d] = g[id[d]];
                qw[q] *= gw[id[d]];
            }
        }
    }
    double *lq = malloc(nq * nu * sizeof *lq), *lf = malloc(nf * nu * sizeof *lf);
    double *mass = malloc(nu * nu * sizeof *mass), *rhs = malloc(nu * nf * sizeof *rhs);
    ck_assert_int_eq(fr_element_basis_at(e, nq, qx, lq, NULL), 0);
    ck_assert_int_eq(fr_element_basis_at(e, nf, fr_element_fpts(e), lf, NULL), 0);
    const double *fw = fr_element_fpts_weights(e);
    /* column-major for LAPACK: mass is symmetric; rhs[f][i] */
    for (size_t i = 0; i < nu; i++)
        for (size_t j = 0; j < nu; j++) {
            double s = 0.0;
            for (size_t q = 0; q < nq; q++)
                s += qw[q] * lq[q * nu + i] * lq[q * nu + j];
            mass[j * nu + i] = s;
        }
    for (size_t f = 0; f < nf; f++)
        for (size_t i = 0; i < nu; i++)
            rhs[f * nu + i] = fw[f] * lf[f * nu + i];
    int n = (int)nu, nrhs = (int)nf, info = 0, *piv = malloc(nu * sizeof *piv);
    dgesv_(&n, &nrhs, mass, &n, piv, rhs, &n, &info);
    ck_assert_int_eq(info, 0);
    const double *m3 = fr_element_op(e, FR_M3, NULL, NULL);
    double worst = 0.0;
    for (size_t i = 0; i < nu; i++)
        for (size_t f = 0; f < nf; f++)
            worst = fmax(worst, fabs(m3[i * nf + f] - rhs[f * nu + i]) / fmax(1.0, fabs(rhs[f * nu + i])));
    ck_assert_msg(worst <= 1e-11, "etype %d p %d: M3 differs from the DG lifting by %.3g", et, p,
                  worst);
    free(piv);
    free(qx);
    free(qw);
    free(lq);
    free(lf);
    free(mass);
    free(rhs);
    fr_element_destroy(e);
}

/* Pyramids: the correction is the DG lifting, int L_f v = int_F l_f v
 * for every v of the space (its nodal basis), L_f = sum_i M3[i][f] l_i
 * and l_f the face's nodal basis of its flux points, which are the
 * solution points of a triangle or quadrilateral of order p placed
 * from the face's corners (fr.h); both sides with exact rules (the
 * modes' traces on a triangle are of degree up to 2p). */
static const double pyr_c[5][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {0, 0, 1}};
static const int pyr_f[5][4] = {{0, 1, 4}, {3, 0, 4}, {1, 2, 4}, {2, 3, 4}, {0, 3, 2, 1}};

static void pyr_face_at(int f, const double *uv, double *x)
{
    int last = f < 4 ? 2 : 3;
    for (int d = 0; d < 3; d++)
        x[d] = pyr_c[pyr_f[f][0]][d]
               + 0.5 * (1 + uv[0]) * (pyr_c[pyr_f[f][1]][d] - pyr_c[pyr_f[f][0]][d])
               + 0.5 * (1 + uv[1]) * (pyr_c[pyr_f[f][last]][d] - pyr_c[pyr_f[f][0]][d]);
}

static void check_lifting_pyr(int p)
{
    fr_element *e = ft_element(FR_PYR, p);
    size_t nu = fr_element_nupts(e), nf = fr_element_nfpts(e);
    int n = 2 * p + 2;
    size_t nq = (size_t)n * n * n;
    double *qx = malloc(3 * nq * sizeof *qx), *qw = malloc(nq * sizeof *qw);
    double *lq = malloc(nq * nu * sizeof *lq), *lift = calloc(nq * nf, sizeof *lift);
    double *a = calloc(nf * nu, sizeof *a), *b = calloc(nf * nu, sizeof *b);
    ft_pyr_rule(n, qx, qw);
    ck_assert_int_eq(fr_element_basis_at(e, nq, qx, lq, NULL), 0);
    const double *m3 = fr_element_op(e, FR_M3, NULL, NULL), *fp = fr_element_fpts(e);
    for (size_t q = 0; q < nq; q++)
        for (size_t i = 0; i < nu; i++)
            for (size_t f = 0; f < nf; f++)
                lift[q * nf + f] += m3[i * nf + f] * lq[q * nu + i];
    for (size_t q = 0; q < nq; q++)
        for (size_t f = 0; f < nf; f++)
            for (size_t j = 0; j < nu; j++)
                a[f * nu + j] += qw[q] * lift[q * nf + f] * lq[q * nu + j];
    for (int f = 0; f < 5; f++) {
        fr_element *fe = ft_element(f < 4 ? FR_TRI : FR_QUAD, p);
        size_t nfp = fr_element_face_nfpts(e, (size_t)f), f0 = fr_element_face_fpt0(e, (size_t)f);
        ck_assert_uint_eq(fr_element_nupts(fe), nfp);
        for (size_t k = 0; k < nfp; k++) { /* the face's points are fe's */
            double x[3];
            pyr_face_at(f, fr_element_upts(fe) + 2 * k, x);
            for (int d = 0; d < 3; d++)
                ck_near(fp[(f0 + k) * 3 + (size_t)d], x[d], 1e-15);
        }
        size_t m = f < 4 ? (size_t)n * n : (size_t)(p + 2) * (p + 2);
        double *uv = malloc(2 * m * sizeof *uv), *w = malloc(m * sizeof *w);
        double *x = malloc(3 * m * sizeof *x), *lf = malloc(m * nfp * sizeof *lf);
        double *lv = malloc(m * nu * sizeof *lv);
        if (f < 4) {
            ft_tri_rule(n, uv, w);
        } else {
            double g[64], gw[64];
            ck_assert_int_eq(fr_gauss_legendre((size_t)p + 2, g, gw), 0);
            for (size_t q = 0; q < m; q++) {
                uv[2 * q] = g[q % (size_t)(p + 2)];
                uv[2 * q + 1] = g[q / (size_t)(p + 2)];
                w[q] = gw[q % (size_t)(p + 2)] * gw[q / (size_t)(p + 2)];
            }
        }
        for (size_t q = 0; q < m; q++)
            pyr_face_at(f, uv + 2 * q, x + 3 * q);
        ck_assert_int_eq(fr_element_basis_at(fe, m, uv, lf, NULL), 0);
        ck_assert_int_eq(fr_element_basis_at(e, m, x, lv, NULL), 0);
        for (size_t q = 0; q < m; q++)
            for (size_t k = 0; k < nfp; k++)
                for (size_t j = 0; j < nu; j++)
                    b[(f0 + k) * nu + j] += w[q] * lf[q * nfp + k] * lv[q * nu + j];
        free(uv), free(w), free(x), free(lf), free(lv);
        fr_element_destroy(fe);
    }
    double worst = 0.0;
    for (size_t k = 0; k < nf * nu; k++)
        worst = fmax(worst, fabs(a[k] - b[k]) / fmax(1.0, fabs(b[k])));
    ck_assert_msg(worst <= 1e-12, "pyramid p %d: M3 differs from the DG lifting by %.3g", p, worst);
    free(qx), free(qw), free(lq), free(lift), free(a), free(b);
    fr_element_destroy(e);
}

START_TEST(correction_is_dg_lifting)
{
    for (int p = 0; p <= 8; p++)
        check_lifting(FR_QUAD, p);
    for (int p = 1; p <= 6; p++)
        check_lifting(FR_TRI, p);
    for (int p = 0; p <= 3; p++)
        check_lifting(FR_HEX, p);
    for (int p = 1; p <= 6; p++)
        check_lifting(FR_TET, p);
    for (int p = 1; p <= 4; p++)
        check_lifting(FR_PRI, p);
    for (int p = 1; p <= 6; p++)
        check_lifting_pyr(p);
}
END_TEST

/* The pyramid's modes: orthonormal, their gradients the central
 * differences of their values; the solution points are PyFR's and
 * their weights integrate every mode exactly (int phi_m = delta_m0 /
 * phi_0, phi_0 the constant mode). */
START_TEST(pyramid_basis_and_weights)
{
    /* PyFR 1.15's pyr/gauss-legendre-n5-su.txt point 0, -n14-su.txt point 1 */
    static const double pyfr[2][3] = {
        {-0.45534180126147954892, -0.45534180126147954892, -0.57735026918962576451},
        {0.0, -0.68729833462074168852, -0.77459666924148337704}};
    static const double at[3][3] = {{0.1, -0.2, -0.3}, {0.3, 0.2, 0.1}, {-0.05, 0.02, 0.8}};
    for (int p = 1; p <= 6; p++) {
        fr_element *e = ft_element(FR_PYR, p);
        size_t nb = fr_element_nupts(e);
        const double *up = fr_element_upts(e), *w = fr_element_upts_weights(e);
        if (p <= 2)
            for (int d = 0; d < 3; d++)
                ck_near(up[3 * (p - 1) + d], pyfr[p - 1][d], 1e-15);
        int n = 2 * p + 2;
        size_t nq = (size_t)n * n * n;
        double *qx = malloc(3 * nq * sizeof *qx), *qw = malloc(nq * sizeof *qw);
        double *phi = malloc(nq * nb * sizeof *phi), *g = malloc(3 * nb * sizeof *g);
        double *hp = malloc(nb * sizeof *hp), *hm = malloc(nb * sizeof *hm);
        ft_pyr_rule(n, qx, qw);
        for (size_t q = 0; q < nq; q++)
            fr__pyr_basis(p, qx + 3 * q, phi + q * nb, NULL);
        double orth = 0.0;
        for (size_t i = 0; i < nb; i++)
            for (size_t j = 0; j <= i; j++) {
                double s = 0.0;
                for (size_t q = 0; q < nq; q++)
                    s += qw[q] * phi[q * nb + i] * phi[q * nb + j];
                orth = fmax(orth, fabs(s - (i == j)));
            }
        ck_assert_msg(orth <= 1e-13, "p %d: |Gram - I| = %.3g", p, orth);
        double fd = 0.0;
        for (int a = 0; a < 3; a++) {
            fr__pyr_basis(p, at[a], hp, g);
            for (int d = 0; d < 3; d++) {
                double xp[3], xm[3], h = 1e-5;
                for (int c = 0; c < 3; c++)
                    xp[c] = xm[c] = at[a][c];
                xp[d] += h;
                xm[d] -= h;
                double *vp = phi, *vm = phi + nb; /* scratch */
                fr__pyr_basis(p, xp, vp, NULL);
                fr__pyr_basis(p, xm, vm, NULL);
                for (size_t m = 0; m < nb; m++)
                    fd = fmax(fd, fabs((vp[m] - vm[m]) / (2 * h) - g[(size_t)d * nb + m])
                                  / fmax(1.0, fabs(g[(size_t)d * nb + m])));
            }
        }
        ck_assert_msg(fd <= 1e-7, "p %d: gradient against differences %.3g", p, fd);
        fr__pyr_basis(p, up, hm, NULL);
        double phi0 = hm[0], sums[140] = {0};
        for (size_t i = 0; i < nb; i++) {
            fr__pyr_basis(p, up + 3 * i, hp, NULL);
            for (size_t m = 0; m < nb; m++)
                sums[m] += w[i] * hp[m];
        }
        for (size_t m = 0; m < nb; m++)
            ck_near(sums[m], m ? 0.0 : 1.0 / phi0, 1e-13);
        free(qx), free(qw), free(phi), free(g), free(hp), free(hm);
        fr_element_destroy(e);
    }
}
END_TEST

/* The divergence theorem through the FR operators, with the solution
 * points' weights w and the face weights fw (per unit of the face
 * parameters: norm_fpts, PyFR's (0, -1, 1/2) on face 0, carries the
 * rest): sum_i w_i (M132 F + M3 Fn)_i = sum_f fw_f Fn_f for F of P_p
 * and Fn = norm_fpts . F (both sides the integral of div F), and for
 * F = 0 and any Fn (the correction integrates to the face's share). */
START_TEST(pyramid_divergence_theorem)
{
    static int ex[1024][3];
    uint64_t rng = 88172645463325252ull;
    for (int p = 1; p <= 6; p++) {
        fr_element *e = ft_element(FR_PYR, p);
        size_t nu = fr_element_nupts(e), nf = fr_element_nfpts(e);
        const double *up = fr_element_upts(e), *fp = fr_element_fpts(e);
        const double *w = fr_element_upts_weights(e), *fw = fr_element_fpts_weights(e);
        const double *nr = fr_element_norm_fpts(e);
        const double *m132 = fr_element_op(e, FR_M132, NULL, NULL);
        const double *m3 = fr_element_op(e, FR_M3, NULL, NULL);
        double *f = malloc(3 * nu * sizeof *f), *fn = malloc(nf * sizeof *fn);
        double *a = malloc(nu * sizeof *a), *b = malloc(nu * sizeof *b);
        int nm = monomials(FR_PYR, p, ex);
        for (int m = 0; m <= nm; m++) {
            const int *qd[3] = {ex[m % nm], ex[(m + 3) % nm], ex[(m + 5) % nm]};
            for (int d = 0; d < 3; d++)
                sample(qd[d], nu, up, 3, -1, f + (size_t)d * nu);
            for (size_t i = 0; i < nf; i++) {
                fn[i] = 0.0;
                for (int d = 0; d < 3; d++)
                    fn[i] += nr[i * 3 + (size_t)d] * ft_mono(qd[d], fp + i * 3, 3, -1);
                if (m == nm) { /* F = 0, a random Fn */
                    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                    fn[i] = (double)(rng >> 11) / 9007199254740992.0 - 0.5;
                }
            }
            if (m == nm)
                memset(f, 0, 3 * nu * sizeof *f);
            matvec(m132, nu, 3 * nu, f, a);
            matvec(m3, nu, nf, fn, b);
            double vol = 0.0, sur = 0.0, div = 0.0;
            for (size_t i = 0; i < nu; i++)
                vol += w[i] * (a[i] + b[i]);
            for (size_t i = 0; i < nf; i++)
                sur += fw[i] * fn[i];
            for (int d = 0; d < 3 && m < nm; d++) {
                int dx[3] = {qd[d][0], qd[d][1], qd[d][2]};
                if (!dx[d])
                    continue;
                double c = dx[d]--;
                div += c * ft_int(FR_PYR, dx);
            }
            ck_near(vol, sur, 1e-12);
            if (m < nm)
                ck_near(sur, div, 1e-12);
        }
        free(f), free(fn), free(a), free(b);
        fr_element_destroy(e);
    }
}
END_TEST

/* The basis at arbitrary points reproduces the space and is a delta at
 * the solution points. */
/* fr__inverse (LU with partial pivoting) against LAPACK's dgesv: the
 * Legendre Vandermonde matrices at Gauss-Legendre points up to n = 40
 * and random ones (pivoting needed), equal to 1e-12 relative and
 * A * inv = I; a singular matrix refused, naming it. */
START_TEST(inverse_matches_lapack)
{
    uint64_t rng = 88172645463325252ull;
    for (int kind = 0; kind < 2; kind++)
        for (size_t n = 1; n <= 40; n += kind ? 3 : 1) {
            double *a = malloc(n * n * sizeof *a), *x = malloc(n * sizeof *x);
            double *w = malloc(n * sizeof *w);
            double *inv = malloc(n * n * sizeof *inv), *ref = calloc(n * n, sizeof *ref);
            double *lu = malloc(n * n * sizeof *lu);
            int *piv = malloc(n * sizeof *piv);
            ck_assert_int_eq(fr_gauss_legendre(n, x, w), 0);
            for (size_t i = 0; i < n; i++)
                for (size_t j = 0; j < n; j++) {
                    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                    a[i * n + j] = kind ? (double)(rng >> 11) / 9007199254740992.0 - 0.5
                                        : fr_legendre((int)j, x[i], NULL);
                }
            ck_assert_int_eq(fr__inverse(n, a, inv, "test matrix"), FRX_OK);
            /* LAPACK, column-major: the transpose's inverse is the inverse's transpose */
            memcpy(lu, a, n * n * sizeof *lu);
            for (size_t i = 0; i < n; i++)
                ref[i * n + i] = 1.0;
            int in = (int)n, info = 0;
            dgesv_(&in, &in, lu, &in, piv, ref, &in, &info);
            ck_assert_int_eq(info, 0);
            double big = 0.0, diff = 0.0, off = 0.0;
            for (size_t i = 0; i < n * n; i++)
                big = fmax(big, fabs(ref[i]));
            for (size_t i = 0; i < n; i++)
                for (size_t j = 0; j < n; j++) {
                    diff = fmax(diff, fabs(inv[i * n + j] - ref[i * n + j]));
                    double s = 0.0;
                    for (size_t k = 0; k < n; k++)
                        s += a[i * n + k] * inv[k * n + j];
                    off = fmax(off, fabs(s - (i == j)));
                }
            ck_assert_msg(diff <= 1e-12 * big && off <= 1e-11,
                          "kind %d, n %zu: |inv - LAPACK's| %.3g (of %.3g), |A inv - I| %.3g",
                          kind, n, diff, big, off);
            free(a), free(x), free(w), free(inv), free(ref), free(lu), free(piv);
        }
    double sing[9] = {1, 2, 3, 2, 4, 6, 0, 1, 1}, out[9];
    ck_assert_int_eq(fr__inverse(3, sing, out, "test matrix"), FRX_EINVAL);
    ck_assert_ptr_nonnull(strstr(frx_errmsg(), "the test matrix is singular"));
    double swap[4] = {0, 1, 1, 0};
    ck_assert_int_eq(fr__inverse(2, swap, out, "test matrix"), FRX_OK);
    ck_assert(out[0] == 0 && out[1] == 1 && out[2] == 1 && out[3] == 0);
}
END_TEST

START_TEST(basis_at_points)
{
    static int ex[1024][3];
    for (size_t c = 0; c < NCASES; c++) {
        int et = cases[c].etype, nd = ndims_of(et), p = cases[c].hi > 4 ? 4 : cases[c].hi;
        fr_element *e = ft_element(et, p);
        size_t nu = fr_element_nupts(e);
        double pts[3 * 7], *v = malloc(7 * nu * sizeof *v), *g = malloc((size_t)nd * 7 * nu * sizeof *g);
        for (int a = 0; a < 7; a++)
            for (int d = 0; d < nd; d++)
                pts[a * nd + d] = -0.9 + 0.11 * a + 0.05 * d - (simplex(et) ? 0.05 * a : 0);
        ck_assert_int_eq(fr_element_basis_at(e, 7, pts, v, g), 0);
        int nm = monomials(et, p, ex);
        const double *up = fr_element_upts(e);
        for (int m = 0; m < nm; m++)
            for (int a = 0; a < 7; a++) {
                double s = 0.0, gs[3] = {0, 0, 0};
                for (size_t j = 0; j < nu; j++) {
                    double fj = ft_mono(ex[m], up + j * (size_t)nd, nd, -1);
                    s += v[(size_t)a * nu + j] * fj;
                    for (int d = 0; d < nd; d++)
                        gs[d] += g[((size_t)d * 7 + (size_t)a) * nu + j] * fj;
                }
                ck_near(s, ft_mono(ex[m], pts + a * nd, nd, -1), 1e-12);
                for (int d = 0; d < nd; d++)
                    ck_near(gs[d], ft_mono(ex[m], pts + a * nd, nd, d), 1e-11);
            }
        double *vu = malloc(nu * nu * sizeof *vu);
        ck_assert_int_eq(fr_element_basis_at(e, nu, up, vu, NULL), 0);
        for (size_t i = 0; i < nu; i++)
            for (size_t j = 0; j < nu; j++)
                ck_near(vu[i * nu + j], i == j ? 1.0 : 0.0, 1e-12);
        free(vu);
        free(v);
        free(g);
        fr_element_destroy(e);
    }
}
END_TEST

static Suite *element_suite(void)
{
    Suite *s = suite_create("fr-element");
    TCase *tc = tcase_create("element");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, sizes_and_refusals);
    tcase_add_test(tc, solution_point_quadrature);
    tcase_add_test(tc, flux_points_and_normals);
    tcase_add_test(tc, operators_exact_on_polynomials);
    tcase_add_test(tc, operators_hold_exact_zeros);
    tcase_add_test(tc, fr_divergence_exact);
    tcase_add_test(tc, correction_is_dg_lifting);
    tcase_add_test(tc, basis_at_points);
    tcase_add_test(tc, pyramid_basis_and_weights);
    tcase_add_test(tc, pyramid_divergence_theorem);
    tcase_add_test(tc, inverse_matches_lapack);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return ft_run(element_suite()); }
