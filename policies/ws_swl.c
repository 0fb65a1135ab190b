/*
 * Static warp limiting, the CCWS paper's SWL / "Best-SWL" baseline (Rogers
 * et al., MICRO 2012, section 4; seed 004 section 4.4 and oracles 11-13):
 * only the N oldest warps may issue anything at all, and among those the
 * order is greedy then oldest.
 *
 * The window: the valid warps that are not waiting at a barrier, oldest
 * first, cut after the scheduler's share of N. A warp that exits leaves the
 * window and the next oldest joins it (oracle 12). A warp at a barrier is
 * skipped, so the window reaches past it to the CTA-mates the barrier waits
 * for; they run up to the barrier and the limit holds again afterwards
 * (oracle 13; the authors' code extends the window the same way). The
 * greedy warp is placed first only while it is inside the window.
 *
 * Two spellings:
 * - "swl:N": N is the SM's limit, as in the paper ("how many wavefronts are
 *   actively scheduled per CU"). A policy sees only its own scheduler's
 *   warps, so the SM's N is split across the nsched schedulers: scheduler i
 *   gets N / nsched, plus one when i < N % nsched, which adds up to exactly
 *   N. A scheduler never gets less than 1, so N < nsched behaves as N =
 *   nsched (a share of 0 would stall that scheduler's warps forever, and
 *   their CTAs with them). With one scheduler per SM, as in the paper, the
 *   window is exactly the SM's N oldest warps.
 * - "warp_limiting:2:N", GPGPU-Sim's form: the first number is the
 *   prioritisation, and only 2 (greedy then oldest) exists there; N is
 *   the limit of each scheduler, as GPGPU-Sim applies it.
 */
#include <stdlib.h>

#include "policies/args.h"
#include "policies/sched_builtin.h"
#include "policies/util.h"
#include "policies/warp_sched.h"

#define SWL_GTO 2 /* GPGPU-Sim's number for greedy-then-oldest */

struct swl {
    uint32_t limit; /* warps of this scheduler that may issue */
    uint32_t greedy_slot;
    uint64_t greedy_age;
};

/* Sets up the state create.c made. */
static void *swl_init(struct swl *st, uint32_t limit)
{
    st->limit = limit;
    st->greedy_slot = POL_UTIL_NO_SLOT;
    st->greedy_age = 0;
    return st;
}

/* This scheduler's part of an SM limit of n warps (see the header comment). */
static uint32_t sm_share(const struct pol_warp_sched_params *p, uint32_t n)
{
    uint32_t nsched = p->nsched ? p->nsched : 1;
    uint32_t share = n / nsched + (p->sched_id < n % nsched ? 1 : 0);

    return share ? share : 1;
}

/* swl:N and warp_limiting:prio:N. */
struct swl_cfg {
    uint32_t prio, n;
};

static const struct pol_arg swl_args[] = {
    POL_KEY_UINT("N", struct swl_cfg, n, 0, 1, UINT32_MAX, "warps of the SM that may issue"),
};

static const struct pol_arg wl_args[] = {
    POL_KEY_UINT("prio", struct swl_cfg, prio, 0, 0, UINT32_MAX,
                 "GPGPU-Sim's prioritisation; only 2 (greedy then oldest)"),
    POL_KEY_UINT("N", struct swl_cfg, n, 0, 1, UINT32_MAX, "warps per scheduler that may issue"),
};

static const struct pol_argspec swl_spec = POL_ARGSPEC_POS(struct swl_cfg, swl_args, 1, NULL);
static const struct pol_argspec wl_spec = POL_ARGSPEC_POS(struct swl_cfg, wl_args, 2, NULL);

static void *swl_create(const struct pol_warp_sched_params *p, struct ps_err *err)
{
    const struct swl_cfg *c = p->cfg;
    const uint32_t a[1] = {c->n};

    if (p->max_warps && a[0] > p->max_warps) {
        ps_err_set(err, PS_EINVAL, "-gpgpu_scheduler swl: N=%u exceeds the SM's %u warp slots",
                   a[0], p->max_warps);
        return NULL;
    }
    return swl_init(p->state, sm_share(p, a[0]));
}

static void *warp_limiting_create(const struct pol_warp_sched_params *p, struct ps_err *err)
{
    const struct swl_cfg *c = p->cfg;
    const uint32_t a[2] = {c->prio, c->n};

    if (a[0] != SWL_GTO) {
        ps_err_set(err, PS_EINVAL,
                   "-gpgpu_scheduler warp_limiting: prio=%u: only 2 (greedy then oldest) is "
                   "supported",
                   a[0]);
        return NULL;
    }
    if (p->max_warps && a[1] > p->max_warps) {
        ps_err_set(err, PS_EINVAL,
                   "-gpgpu_scheduler warp_limiting: N=%u exceeds the SM's %u warp slots", a[1],
                   p->max_warps);
        return NULL;
    }
    return swl_init(p->state, a[1]);
}

static uint32_t swl_order(void *st, const struct pol_warp_view *v, uint32_t n, uint32_t *order,
                          uint64_t now)
{
    const struct swl *s = st;
    uint32_t k = 0;

    (void)now;
    for (uint32_t i = 0; i < n; i++)
        if (v[i].valid && !v[i].at_barrier)
            order[k++] = i;
    pol_util_sort_age(order, k, v);
    if (k > s->limit)
        k = s->limit;
    pol_util_greedy_first(order, k, v, s->greedy_slot, s->greedy_age);
    return k;
}

static void swl_on_issue(void *st, const struct pol_warp_view *w, uint64_t now)
{
    struct swl *s = st;

    (void)now;
    s->greedy_slot = w->slot;
    s->greedy_age = w->age;
}

const struct pol_warp_sched_ops pol_ws_swl = {
    .name = "swl",
    .argspec = &swl_spec,
    .create = swl_create,
    .state_size = sizeof(struct swl),
    .order = swl_order,
    .on_issue = swl_on_issue,
};

const struct pol_warp_sched_ops pol_ws_warp_limiting = {
    .name = "warp_limiting",
    .argspec = &wl_spec,
    .create = warp_limiting_create,
    .state_size = sizeof(struct swl),
    .order = swl_order,
    .on_issue = swl_on_issue,
};
