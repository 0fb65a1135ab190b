/*
 * Loose round robin ("lrr", GPGPU-Sim's -gpgpu_scheduler lrr): the warps
 * take turns by slot. Each cycle the order starts at the slot after the warp
 * that issued last and wraps around, so the warp that just issued comes
 * last, and a warp whose turn it is but cannot issue passes its turn to the
 * next one (seed 004 section 4.1, oracles 1-3). Before the first issue the
 * order starts at the lowest slot.
 */
#include <stdlib.h>

#include "policies/sched_builtin.h"
#include "policies/util.h"
#include "policies/warp_sched.h"

struct lrr {
    uint32_t last_slot; /* slot of the last issue, POL_UTIL_NO_SLOT before any */
};

static void *lrr_create(const struct pol_warp_sched_params *p, struct ps_err *err)
{
    struct lrr *st;

    (void)err; /* create.c made the state; nothing here can fail */
    st = p->state;
    st->last_slot = POL_UTIL_NO_SLOT;
    return st;
}

static uint32_t lrr_order(void *st, const struct pol_warp_view *v, uint32_t n, uint32_t *order,
                          uint64_t now)
{
    const struct lrr *s = st;
    uint32_t k = pol_util_valid(v, n, order);

    (void)now;
    /* NO_SLOT + 1 wraps to 0: the lowest slot first. */
    pol_util_sort_slot_from(order, k, v, s->last_slot + 1);
    return k;
}

static void lrr_on_issue(void *st, const struct pol_warp_view *w, uint64_t now)
{
    struct lrr *s = st;

    (void)now;
    s->last_slot = w->slot;
}

const struct pol_warp_sched_ops pol_ws_lrr = {
    .name = "lrr",
    .create = lrr_create,
    .state_size = sizeof(struct lrr),
    .order = lrr_order,
    .order_repeats = true,
    .on_issue = lrr_on_issue,
};
