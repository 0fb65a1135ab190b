/*
 * Greedy then oldest ("gto", GPGPU-Sim's -gpgpu_scheduler gto): the warp
 * that issued last stays first in the order for as long as it is valid, so
 * it keeps issuing until it stalls; behind it come all the other valid warps
 * oldest first (smallest age: launch order, then warp index in the CTA).
 * When the greedy warp stalls, the oldest ready warp issues and becomes the
 * greedy one (Rogers et al., MICRO 2012, section 4; seed 004 oracles 4-7).
 * The greedy warp is remembered as (slot, age), so a new warp launched into
 * the slot of an exited greedy warp is not mistaken for it.
 */
#include <stdlib.h>

#include "policies/sched_builtin.h"
#include "policies/util.h"
#include "policies/warp_sched.h"

struct gto {
    uint32_t greedy_slot; /* POL_UTIL_NO_SLOT before the first issue */
    uint64_t greedy_age;
};

static void *gto_create(const struct pol_warp_sched_params *p, struct ps_err *err)
{
    struct gto *st;

    (void)err; /* create.c made the state; nothing here can fail */
    st = p->state;
    st->greedy_slot = POL_UTIL_NO_SLOT;
    st->greedy_age = 0;
    return st;
}

static uint32_t gto_order(void *st, const struct pol_warp_view *v, uint32_t n, uint32_t *order,
                          uint64_t now)
{
    const struct gto *s = st;
    uint32_t k = pol_util_valid(v, n, order);

    (void)now;
    pol_util_sort_age(order, k, v);
    pol_util_greedy_first(order, k, v, s->greedy_slot, s->greedy_age);
    return k;
}

static void gto_on_issue(void *st, const struct pol_warp_view *w, uint64_t now)
{
    struct gto *s = st;

    (void)now;
    s->greedy_slot = w->slot;
    s->greedy_age = w->age;
}

const struct pol_warp_sched_ops pol_ws_gto = {
    .name = "gto",
    .create = gto_create,
    .state_size = sizeof(struct gto),
    .order = gto_order,
    .order_repeats = true,
    .on_issue = gto_on_issue,
};
