/*
 * Oldest first ("oldest"): every cycle all valid warps strictly by age,
 * smallest first, with no greedy warp; the oldest warp that can issue does.
 * This is the "oldest-first" variant the CCWS paper (section 4) found worse
 * than GTO, and GPGPU-Sim's oldest-first scheduler.
 */
#include <stdlib.h>

#include "policies/sched_builtin.h"
#include "policies/util.h"
#include "policies/warp_sched.h"

/* No state; create still returns an object so that NULL keeps meaning failure. */
struct oldest {
    char unused;
};

static void *oldest_create(const struct pol_warp_sched_params *p, struct ps_err *err)
{
    struct oldest *st;

    (void)err; /* create.c made the state; nothing here can fail */
    st = p->state;
    return st;
}

static uint32_t oldest_order(void *st, const struct pol_warp_view *v, uint32_t n, uint32_t *order,
                             uint64_t now)
{
    uint32_t k = pol_util_valid(v, n, order);

    (void)st;
    (void)now;
    pol_util_sort_age(order, k, v);
    return k;
}

const struct pol_warp_sched_ops pol_ws_oldest = {
    .name = "oldest",
    .create = oldest_create,
    .state_size = sizeof(struct oldest),
    .order = oldest_order,
    .order_repeats = true,
};
