/* SPDX-License-Identifier: BSD-3-Clause */
/* The flux-reconstruction "system": everything an FR solver plugin needs
 * between frx's solver interface and its physics.
 *
 * A solver plugin (advection, lee, euler, ...) describes its equations
 * in an fr_physics (below): variables, kernel-body fragments (physical
 * flux, common interface flux, boundary ghost states, wave speed,
 * source), constants, host callbacks for the initial condition, the
 * exact solution and auxiliary per-point fields (a base flow). The
 * system builds the rest from the solver init (backend, communicator,
 * options, mesh), through frx's public SDK only:
 *
 *   per mesh block: the reference element (fr.h) at solver.order, the
 *   geometry from the block's shape points, the solution at flux points
 *   (ufp), the transformed flux (tf), smats, 1/|J|, and the operator
 *   products M0 (disu), M132 (divergence of the transformed flux with
 *   the local correction), M3 (correction with the common fluxes);
 *
 *   interfaces: interior faces (periodic pairs included) as one
 *   pointwise kernel over `view` arguments of both sides' flux points;
 *   the faces shared with each peer rank as a kernel over a local
 *   `view` and an `xchg` argument (the peer's flux points, exchanged
 *   every RHS); boundary faces by name with the ghost state of the
 *   boundary kind `solver.boundaries.<name>.type` chooses.
 *
 * The RHS graph, f = R(u) (the steps of docs/fr.md, sys_rhs.c):
 *
 *   disu: ufp = M0 u                        (every block)
 *   per peer: post the receive, pack, send  (exchanges first)
 *   tflux: tf = smats . F(u); f = M132 tf   (interiors, in parts)
 *   tests; interior and boundary fluxes     (pointwise), tests
 *   f += M3 ufp; negdivconf: f = -rcpdjac f (+ source), on the parts
 *                                           with no face on a peer
 *   per peer: wait for the receive, its common flux
 *   the correction and negdivconf of the parts left; wait for sends
 *
 * Kernels are registered under names that carry a hash of their
 * declaration ("tflux_1a2b3c4d5e6f"), so cases with other variable
 * counts, dimensions or physics share a backend without clashes.
 *
 * Errors are negative FRX_E* codes with a message (frx_error); on a
 * failure after fr_system_create returned a system, fr_system_destroy
 * still frees it. */
#ifndef FRX_FR_SYSTEM_H
#define FRX_FR_SYSTEM_H

#include <frx/fr/expr.h>
#include <frx/fr/fr.h>
#include <frx/fr/version.h>

#include <frx/comm.h>
#include <frx/plugin.h>

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ physics */

/* Kernel-body fragments are C (the frx kernel subset) pasted into
 * generated kernels. In every fragment:
 *   - NVARS, NDIMS and NAUX are integer constants (enum values);
 *   - each constant of fr_physics.consts is a scalar of that name;
 *   - the macros of fr_physics.macros may be called;
 *   - the arrays named below exist, already loaded; outputs are
 *     declared and zeroed before the fragment runs.
 * Arrays of the auxiliary fields (a, al, ar) exist only where NAUX > 0.
 * Declare locals inside the fragment; names starting with an
 * underscore are frx's. */

/* One kind of boundary condition (solver.boundaries.<name>.type). */
typedef struct fr_bc_kind {
    const char *type; /* the YAML name, e.g. "slip-wall" */
    /* The keys of solver.boundaries.<name> it takes, "|"-separated
     * ("rho|u|v|p"), or NULL: each is required and reaches the fragment
     * as bc_<key> with '-' written '_' ("bc_rho"). A value is a number
     * or an expression (expr.h) in x, y (z), t and the case's constants
     * (fr_physics.expr_consts), computed in the kernel at each flux
     * point and stage time. */
    const char *keys;
    /* The ghost state: from ul[NVARS] (this side at the flux point),
     * al[NAUX], n[NDIMS] (unit outward normal), x[NDIMS] (the flux
     * point) and t (the stage time), set ur[NVARS]. The common flux is
     * then fr_physics.rsolve of (ul, ur) with ar = al. */
    const char *ghost;
    const char *help; /* one line for messages */
    /* Optional: refuse a boundary this kind cannot serve, from its
     * keys' values at its flux points at the start time (vals
     * [n][nkeys], in the order of keys), the points (x [n][ndims]), the
     * unit outward normals (nrm [n][ndims]) and the auxiliary fields
     * (aux [n][naux], or NULL where the physics has no aux_at): FRX_OK,
     * or frx_error (FRX_ECONFIG) naming the value or the point and
     * starting with where ("file:line:col: solver.boundaries.<name>").
     * Run at create, on every rank that holds faces of the boundary. */
    int (*check)(void *ctx, const char *where, const double *vals,
                 size_t n, const double *x, const double *nrm,
                 const double *aux);
} fr_bc_kind;

/* A named constant, a scalar argument of every physics kernel. */
typedef struct fr_const {
    const char *name; /* a C identifier */
    double value;
} fr_const;

typedef struct fr_physics {
    const char *name;         /* for messages: "advection" */
    size_t nvars;             /* solved variables per point, >= 1 */
    const char *const *vars;  /* their names ("rho", "rhou", ...) */
    size_t naux;              /* auxiliary fields per point (a base
                                 flow): 0 for none */
    const char *const *aux;   /* their names */
    const fr_const *consts;   /* nconsts constants (gamma, velocity...) */
    size_t nconsts;
    const frx_kernel_macro *macros; /* registered before the kernels */
    size_t nmacros;

    /* Physical flux: from u[NVARS] (and a[NAUX]) set f[NDIMS][NVARS]. */
    const char *flux;
    /* Common normal flux at an interface: from ul[NVARS], ur[NVARS] (and
     * al[NAUX], ar[NAUX]) and n[NDIMS], the unit normal pointing from
     * the l side to the r side, set fn[NVARS] = F* . n. It must be
     * consistent: swapping the sides and negating n negates fn. */
    const char *rsolve;
    /* Largest wave speed at a point: from u[NVARS] (and a[NAUX]) set s
     * (a scalar). max_dt: dt = cfl / max over points of
     * s * (2p+1)/2 * sum_i |grad xi_i|, i.e. cfl * h / ((2p+1) s) on a
     * straight element of side h. NULL: no max_dt (time.cfl refused). */
    const char *wavespeed;
    /* Optional source: from u[NVARS], a[NAUX], x[NDIMS] (solution point)
     * and t, set src[NVARS]; du/dt = -div F + src. NULL: none. */
    const char *source;

    const fr_bc_kind *bcs;    /* the boundary kinds it offers */
    size_t nbcs;

    /* Host callbacks; ctx is passed back. Points xyz are [n][ndims];
     * values [n][nvars] (aux: [n][naux]). */
    void *ctx;
    /* The initial condition at time t0 (required, or initial_src). */
    int (*initial)(void *ctx, double t0, size_t n, const double *xyz,
                   double *vals);
    /* The exact solution at time t (optional: L2 errors). */
    int (*exact)(void *ctx, double t, size_t n, const double *xyz,
                 double *vals);
    /* The auxiliary fields (required when naux > 0, or aux_src),
     * evaluated at the solution points and at the flux points; fixed
     * for the run. */
    int (*aux_at)(void *ctx, size_t n, const double *xyz, double *vals);

    /* The same fields as fragments, computed on the backend at every
     * point at once (a plugin writes them from a case's expressions
     * with fr_expr_emit). Where one is given, its callback above is
     * optional and is called only to name the point, when the kernel
     * found a value that is not finite or a point the fragment marked
     * bad (a message from the host's evaluation, which is the
     * fragment's own in double):
     *   initial_src: from x[NDIMS], t and (NAUX > 0) a[NAUX], set
     *                u[NVARS] (the initial condition at t = t0);
     *   aux_src:     from x[NDIMS] set a[NAUX].
     * Both may set bad (a scalar, 0 before) nonzero where the values
     * are no state (a density <= 0). */
    const char *initial_src;
    const char *aux_src;
    /* The case's named constants (expr.h) that expressions in boundary
     * values may use; NULL: none. */
    const fr_expr_consts *expr_consts;
    /* FR 1.2: quantities derived from the solution that analysis
     * plugins offer beside the solved variables (euler: u, v, p), as
     * nderived names ([_a-zA-Z][_a-zA-Z0-9]*, none a variable's) and a
     * fragment: from u[NVARS] (and a[NAUX]) set d[nderived]; consts are
     * scalars there as in every fragment (macros are not). 0: none. */
    size_t nderived;
    const char *const *derived;
    const char *derived_src;
    /* FR 1.3: the mesh dimensions the fragments are written for, a mask
     * of FR_DIMS_2 and FR_DIMS_3 (f[NDIMS][NVARS], n[NDIMS], x[NDIMS]
     * filled for each); 0, as in every physics built before 1.3: 2-D
     * only. A mesh of another dimension is refused, naming the physics:
     * its fluxes would leave f[2] unset. */
    unsigned dims;
    /* FR 1.5: viscous terms (docs/fr.md, "Viscous physics"). vflux:
     * from u[NVARS], g[NDIMS][NVARS] (the corrected gradient of u in
     * x, y (z): g[d][v] = du_v/dx_d) (and a[NAUX]), add the viscous flux
     * to f[NDIMS][NVARS], which holds the flux fragment's (the same
     * sign: du/dt = -div f). Where it is set the system computes the
     * gradient first (a common solution at the interfaces, the
     * solution's exchange), then the fluxes with LDG's common viscous
     * flux (solver.ldg-beta, solver.ldg-tau: FR_VISCOUS_OPTIONS) and a
     * second exchange per peer (the gradient at the flux points). NULL:
     * inviscid, as before 1.5. */
    const char *vflux;
    /* What each boundary kind does where the physics is viscous: nbcs
     * of them, in the order of bcs; NULL: every kind's common solution
     * is its ghost state and its gradient the inside one. */
    const struct fr_bc_viscous *bcs_viscous;
    /* The diffusivity for max_dt's viscous limit: from u[NVARS] (and
     * a[NAUX]) set nu, the largest of the point's diffusion
     * coefficients (mu/rho, gamma mu/(Pr rho)); NULL: none.
     * dt = cfl / max over points of (s invh + nu invh^2 (p+1)^2/(2p+1)
     * f) with invh max_dt's metric above, f 2.5 on pyramids (their
     * viscous terms' tighter limit), else 1. */
    const char *diffusivity;
} fr_physics;

/* FR 1.5: what a boundary kind (fr_bc_kind of the same index) does in
 * viscous physics; its fragments see what the kind's ghost sees (ul,
 * al, n, x, t, the bc_ values). */
typedef struct fr_bc_viscous {
    /* The boundary's common solution (what the gradient is corrected
     * to): set ur[NVARS] (zeroed first). NULL: the ghost state. */
    const char *ldg_state;
    /* The gradient on the boundary's outer side, for its viscous flux:
     * from ur (the ldg state) and gl[NDIMS][NVARS] (the inside gradient)
     * set gr[NDIMS][NVARS], which holds gl when it starts. NULL: gl. */
    const char *grad_state;
    /* Nonzero: no viscous flux through the boundary (a slip wall): its
     * common flux is the inviscid one alone. */
    int inviscid;
} fr_bc_viscous;

#define FR_DIMS_2 (1u << 2)
#define FR_DIMS_3 (1u << 3)

/* ------------------------------------------------------------- system */

/* The options every FR solver takes; put them in the plugin's schema:
 *   static const frx_option options[] = { FR_SYSTEM_OPTIONS, ..., {0} };
 * solver.boundaries.<name> is {type: <kind>, <key>: <value>...}, one
 * per boundary of the mesh (periodic pairs need none), a value a number
 * or an expression in x, y, t; the system checks its keys against the
 * physics' bc kinds. */
#define FR_MIN_ORDER 1
#define FR_MAX_ORDER 6
#define FR_SYSTEM_OPTIONS                                                   \
    {.key = "order", .type = FRX_OPT_INT, .min = FR_MIN_ORDER,              \
     .max = FR_MAX_ORDER, .def = "3",                                       \
     .help = "polynomial order p of the solution (1 to 6)"},                \
    {.key = "cache-block", .type = FRX_OPT_INT, .min = 0, .max = 1 << 30,  \
     .choices = "auto", .def = "auto",                                      \
     .help = "elements at a time through the element-local kernels, so "   \
             "that what one writes is in cache when the next reads it "    \
             "(0: all at once; auto: about 2 MiB of their arrays, at "      \
             "least 8 chunks a thread, on openmp; 0 elsewhere)"},           \
    {.key = "boundaries", .type = FRX_OPT_MAP,                              \
     .help = "boundary conditions by mesh boundary name: "                  \
             "{<name>: {type: <kind>, ...}}"}

/* FR 1.5: the options of viscous physics (fr_physics.vflux); add them
 * beside FR_SYSTEM_OPTIONS. LDG's common solution at an interface is
 * (1/2 - beta) ul + (1/2 + beta) ur, its common viscous flux
 * (1/2 + beta) Fv(l).n + (1/2 - beta) Fv(r).n + tau (ul - ur): PyFR's
 * [solver-interfaces] ldg-beta and ldg-tau, with its defaults. */
#define FR_VISCOUS_OPTIONS                                                  \
    {.key = "ldg-beta", .type = FRX_OPT_DOUBLE, .min = -0.5, .max = 0.5,   \
     .def = "0.5",                                                          \
     .help = "LDG's upwinding of the common solution and viscous flux "    \
             "(-0.5 to 0.5; 0: central)"},                                  \
    {.key = "ldg-tau", .type = FRX_OPT_DOUBLE, .min = 0, .max = 1e300,     \
     .def = "0.1",                                                          \
     .help = "LDG's penalty on the jump of the solution at interfaces"}

typedef struct fr_system fr_system;

/* Build everything for init (solver.order, solver.boundaries, the
 * mesh) and phys (copied where needed; phys->ctx and the strings must
 * live until fr_system_destroy), and fill info (variables, blocks,
 * order, ndims). *out is set as soon as it exists: destroy it on
 * failure too. Needs a mesh: quadrilaterals and triangles in 2-D;
 * hexahedra, tetrahedra, prisms and pyramids in 3-D where phys->dims
 * says 3-D.
 * Collective: every rank agrees its status by fr_agree_setup before
 * the first exchange and again at the end, so that it returns the same
 * status on every rank. A solver whose own set-up failed on a rank
 * before this call calls fr_agree_setup there instead, once, so that
 * the ranks that went on stop with its reason at the first. */
#define fr_system_create(init, phys, info, out)                           \
    fr_system_create_v(FR_API_MAJOR, FR_API_MINOR, sizeof(fr_physics), init, \
                       phys, info, out)
/* What fr_system_create calls, with the FR SDK version the plugin was
 * compiled against and its fr_physics's size (version.h). */
FR_EXTERN int fr_system_create_v(int api_major, int api_minor,
                                 size_t physics_size,
                                 const frx_solver_init *init,
                                 const fr_physics *phys,
                                 frx_solver_info *info, fr_system **out);
FR_EXTERN void fr_system_destroy(fr_system *s);

/* frx_comm_agree(comm, rc, what), except that a rank that failed keeps
 * its own message (the core's agreement after create lists every
 * rank's); the others get the failing ranks' reasons. */
FR_EXTERN int fr_agree_setup(MPI_Comm comm, int rc, const char *what);

/* The solver ops, to forward to from the plugin's own (they take the
 * system, not the plugin's state). */
FR_EXTERN int fr_system_initial(fr_system *s, frx_matrix *const *u);
FR_EXTERN int fr_system_build_rhs(fr_system *s, frx_matrix *const *u,
                                  frx_matrix *const *f, frx_graph *g);
FR_EXTERN int fr_system_set_time(fr_system *s, double t);
FR_EXTERN int fr_system_exact(fr_system *s, double t, size_t n,
                              const double *xyz, double *vals);
FR_EXTERN int fr_system_max_dt(fr_system *s, frx_matrix *const *u, double cfl,
                               double *dt);

/* ------------------------------------------ for extensions (FR 1.1) */

/* One set of faces the system serves with one kernel, as extension
 * plugins see it (read only, valid until destroy). Point i of ul meets
 * point i of ur (interior) or of recv (peer): the system lists them so
 * (docs/fr.md, "What it builds"). */
enum fr_face_kind {
    FR_FACE_INTERIOR = 1, /* interior faces, periodic pairs included */
    FR_FACE_PEER = 2,     /* faces shared with one peer rank */
    FR_FACE_BOUNDARY = 3  /* the faces of one boundary */
};

typedef struct fr_face_set {
    uint32_t size;
    int kind;              /* enum fr_face_kind */
    int peer;              /* FR_FACE_PEER: the peer's rank */
    const char *boundary;  /* FR_FACE_BOUNDARY: its name */
    size_t nfaces, n;      /* faces, and flux points (see fstart) */
    /* FR_FACE_INTERIOR: point i's place in the mesh's interior faces'
     * points (fstart[face] + k, k along the l side's face); else NULL
     * (points in the order of the mesh's faces of the set) */
    const size_t *pt_src;
    /* the solution at the flux points (nvars a point): this side, and
     * the other side of interior faces (each RHS writes the common flux
     * over them: see the RHS places) */
    frx_view *ul, *ur;
    /* FR_FACE_PEER: the peer's flux points in our order, received every
     * RHS, and our side in the peer's order, packed and sent */
    frx_xchg_matrix *recv;
    frx_xchg_view *send;
    /* where the physics has auxiliary fields (a base flow): the live
     * fields at the flux points (views of auxfp), their xchg views
     * (auxr_xv of a peer set: our side in the peer's order), and the
     * copies saved at t = 0 that the interface kernels read */
    frx_view *auxl, *auxr;
    frx_xchg_view *auxl_xv, *auxr_xv;
    frx_xchg_matrix *al, *ar;
    /* FR 1.2, FR_FACE_BOUNDARY (else NULL): each point's unit outward
     * normal (1 x ndims x n, a point an element of the matrix), its
     * metric magnitude |J| |J^-T n| (1 x 1 x n), its coordinates (1 x
     * ndims x n), and on the host its face rule's weight [n]: a
     * surface integral over the boundary is the sum over its points
     * of fwts x mag x the integrand (what fluidforce does); and where
     * each point is: its block, its element there and its flux point
     * (the solution there: fr_element_op's FR_M0 row fpt of the
     * element's solution points; ul holds the RHS's common fluxes once
     * an RHS ran). */
    frx_matrix *nrm, *mag, *x;
    const double *fwts;
    const uint32_t *blk;
    const size_t *ele, *fpt;
    /* FR 1.4: [nfaces + 1] each face's first point in the mesh's order
     * of the set's faces (fstart[nfaces] = n): a prism's triangles and
     * squares hold different numbers of points, so n / nfaces is a
     * face's count only where every face holds as many */
    const size_t *fstart;
} fr_face_set;

FR_EXTERN size_t fr_system_nface_sets(const fr_system *s);
FR_EXTERN const fr_face_set *fr_system_face_set(const fr_system *s,
                                                size_t i);
/* The solution (u's register: none; flux points: ufp) and auxiliary
 * fields of block blk at the flux points (nfpts x nvars, nfpts x naux). */
FR_EXTERN frx_matrix *fr_system_ufp(const fr_system *s, size_t blk);
FR_EXTERN frx_matrix *fr_system_auxfp(const fr_system *s, size_t blk);
/* The physics the system was made with (its copy). */
FR_EXTERN const fr_physics *fr_system_physics(const fr_system *s);

/* What a physics plugin may read back (valid until destroy). */
FR_EXTERN frx_backend *fr_system_backend(const fr_system *s);
FR_EXTERN int fr_system_order(const fr_system *s);
FR_EXTERN int fr_system_ndims(const fr_system *s);
FR_EXTERN size_t fr_system_nblocks(const fr_system *s);
FR_EXTERN const fr_element *fr_system_element(const fr_system *s, size_t blk);
FR_EXTERN const fr_geometry
*fr_system_geometry(const fr_system *s, size_t blk);

#ifdef __cplusplus
}
#endif
#endif
