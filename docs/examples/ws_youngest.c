/*
 * Youngest first ("youngest"): the example of docs/policies.md, "Writing a
 * policy", built and run by tests/unit/policies/test_example.c. Every cycle
 * the valid warps go youngest first (the reverse of "oldest"). With
 * greedy=on the warp that issued last leads while it is valid; with
 * window=N only the N youngest valid warps may issue.
 */
#include "policies/args.h"
#include "policies/util.h"
#include "policies/warp_sched.h"

/* The arguments, which the registry parses before create() runs. */
struct youngest_cfg {
    uint32_t greedy; /* the index of the word: 0 off, 1 on */
    uint32_t window; /* 0: every valid warp */
};

static const struct pol_arg youngest_args[] = {
    POL_KEY_WORD("greedy", struct youngest_cfg, greedy, 0, "off|on",
                 "the warp that issued last leads while it is valid"),
    POL_KEY_UINT("window", struct youngest_cfg, window, 0, 0, 1024,
                 "only the N youngest valid warps may issue; 0 = all"),
};

static const struct pol_argspec youngest_spec =
    POL_ARGSPEC_KEYS(struct youngest_cfg, youngest_args, NULL);

/* The state: the registry allocates it zeroed and frees it after the policy ends. */
struct youngest {
    struct youngest_cfg cfg;
    uint32_t greedy_slot; /* POL_UTIL_NO_SLOT before the first issue */
    uint64_t greedy_age;
};

static void *youngest_create(const struct pol_warp_sched_params *p, struct ps_err *err)
{
    struct youngest *s = p->state;

    (void)err; /* nothing here can fail */
    s->cfg = *(const struct youngest_cfg *)p->cfg;
    s->greedy_slot = POL_UTIL_NO_SLOT;
    return s;
}

static uint32_t youngest_order(void *st, const struct pol_warp_view *v, uint32_t n, uint32_t *order,
                               uint64_t now)
{
    const struct youngest *s = st;
    uint32_t k = pol_util_valid(v, n, order);

    (void)now;
    pol_util_sort_age(order, k, v);        /* oldest first ... */
    for (uint32_t i = 0; i < k / 2; i++) { /* ... reversed */
        uint32_t t = order[i];

        order[i] = order[k - 1 - i];
        order[k - 1 - i] = t;
    }
    if (s->cfg.window && k > s->cfg.window)
        k = s->cfg.window;
    if (s->cfg.greedy)
        pol_util_greedy_first(order, k, v, s->greedy_slot, s->greedy_age);
    return k;
}

static void youngest_on_issue(void *st, const struct pol_warp_view *w, uint64_t now)
{
    struct youngest *s = st;

    (void)now;
    s->greedy_slot = w->slot;
    s->greedy_age = w->age;
}

const struct pol_warp_sched_ops pol_ws_youngest = {
    .name = "youngest",
    .argspec = &youngest_spec,
    .state_size = sizeof(struct youngest),
    .create = youngest_create,
    .order = youngest_order,
    .on_issue = youngest_on_issue,
};
