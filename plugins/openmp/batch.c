/* SPDX-License-Identifier: BSD-3-Clause */
/* openmp: a graph's stretch of kernels and products in one parallel
 * region. Between batch_begin and batch_end launches are held (their
 * parameters copied); batch_end runs them in order on one team of
 * threads, a barrier after each. A fork and a join cost libgomp about
 * 1.1 us against 0.4 us for a barrier on the 2-core development machine,
 * and an RHS evaluation of a small case is tens of kernels of a few
 * microseconds. Any other call runs what is held first, so the backend
 * still looks synchronous to everything but a batch.
 *
 * A kernel the graph flags FRX_EXEC_SAME_WORKERS (plugin.h) runs after
 * the one before it without the barrier: every generated kernel, and
 * every generated product, splits its chunks of elements over the team
 * with schedule(static), and OpenMP gives two such loops of one count
 * in one parallel region the same split, so each thread starts on
 * elements only it touched in the group. A library's product (libxsmm:
 * its own split) keeps the barriers on both sides. */
#include "openmp.h"

#include <stdlib.h>

struct omp_held {
    void (*team)(const omp_kp *); /* a kernel's team entry, or NULL */
    size_t kp;                    /* its parameters: s->held_kp + kp */
    int same; /* a kernel flagged FRX_EXEC_SAME_WORKERS */
    /* else a product: its team entry, plan and operands */
    void (*product_team)(const void *plan, const frx_product_exec *e);
    const void *plan;
    frx_product_exec e;
};

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t cap2 = *cap ? *cap : 16;
    while (cap2 < need)
        cap2 *= 2;
    void *q = realloc(p, cap2 * size);
    if (q)
        *cap = cap2;
    return q;
}

static struct omp_held *hold(struct omp_state *s)
{
    struct omp_held *h = grow(s->held, &s->held_cap, s->nheld + 1,
                              sizeof *h);
    if (!h) {
        frx_error(FRX_ENOMEM, "openmp: out of memory holding a launch");
        return NULL;
    }
    s->held = h;
    h += s->nheld++;
    *h = (struct omp_held){0};
    return h;
}

omp_kp *frx_openmp_hold_kernel(struct omp_state *s,
                               void (*team)(const omp_kp *), size_t nparams,
                               uint32_t flags)
{
    omp_kp *kp = grow(s->held_kp, &s->kp_cap, s->nkp + nparams, sizeof *kp);
    if (!kp) {
        frx_error(FRX_ENOMEM, "openmp: out of memory holding a launch");
        return NULL;
    }
    s->held_kp = kp;
    struct omp_held *h = hold(s);
    if (!h)
        return NULL;
    h->team = team;
    h->same = (flags & FRX_EXEC_SAME_WORKERS) != 0;
    h->kp = s->nkp;
    s->nkp += nparams;
    return kp + h->kp;
}

int frx_openmp_hold_product(struct omp_state *s,
                            void (*team)(const void *plan,
                                         const frx_product_exec *e),
                            const void *plan, const frx_product_exec *e)
{
    struct omp_held *h = hold(s);
    if (!h)
        return FRX_ENOMEM;
    h->product_team = team;
    h->plan = plan;
    h->e = *e;
    return FRX_OK;
}

void frx_openmp_flush(struct omp_state *s)
{
    size_t n = s->nheld;
    if (!n)
        return;
    const struct omp_held *held = s->held;
    const omp_kp *kp = s->held_kp;
#pragma omp parallel
    {
        int split = 1; /* the group so far splits as kernels do */
        for (size_t i = 0; i < n; i++) {
            if (held[i].team)
                held[i].team(kp + held[i].kp);
            else
                held[i].product_team(held[i].plan, &held[i].e);
            split = split && held[i].team;
            if (i + 1 < n && !(split && held[i + 1].same)) {
#pragma omp barrier
                split = 1;
            }
        }
    }
    s->nheld = s->nkp = 0;
}

int frx_openmp_batch_begin(void *state)
{
    struct omp_state *s = state;
    frx_openmp_flush(s);
    s->batching = s->batch;
    return FRX_OK;
}

int frx_openmp_batch_end(void *state)
{
    struct omp_state *s = state;
    frx_openmp_flush(s);
    s->batching = 0;
    return FRX_OK;
}

int frx_openmp_sync(void *state)
{
    frx_openmp_flush(state);
    return FRX_OK;
}

void frx_openmp_batch_free(struct omp_state *s)
{
    frx_openmp_flush(s);
    free(s->held);
    free(s->held_kp);
}
