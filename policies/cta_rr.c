/*
 * Round robin at maximum occupancy ("rr"), GPGPU-Sim's CTA issue: the GPU
 * hands CTAs to the SMs in turn, and each SM takes as many as its
 * resources allow. This policy sets no limit of its own (limit() is
 * UINT32_MAX), so the kernel's occupancy limit is what caps every SM.
 */
#include <stdlib.h>

#include "policies/cta_sched.h"
#include "policies/sched_builtin.h"

struct cta_rr {
    uint32_t max_ctas; /* occupancy limit of the current kernel (kept for inspection only) */
};

static void *rr_create(const struct pol_cta_sched_params *p, struct ps_err *err)
{
    struct cta_rr *st;

    (void)err; /* create.c made the state; nothing here can fail */
    st = p->state;
    st->max_ctas = 0;
    return st;
}

static void rr_on_kernel(void *st, uint32_t max_ctas)
{
    struct cta_rr *s = st;

    s->max_ctas = max_ctas;
}

static uint32_t rr_limit(void *st, uint32_t sm)
{
    (void)st;
    (void)sm;
    return UINT32_MAX;
}

const struct pol_cta_sched_ops pol_cta_rr = {
    .name = "rr",
    .create = rr_create,
    .state_size = sizeof(struct cta_rr),
    .on_kernel = rr_on_kernel,
    .limit = rr_limit,
};
