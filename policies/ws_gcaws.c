/*
 * gCAWS, the greedy criticality-aware warp scheduler of CAWA (Lee,
 * dissertation ch. 4, section 4.2; design/seeds/003_dissertation.md
 * section 3.4): the warp that issued last stays first while it is ready
 * (GTO's greed, so the critical warp also gets a longer time slice);
 * otherwise the valid warps go by descending nCriticality, ties older first
 * (then lower slot). The criticality comes from the CPL predictor
 * (cawa_cpl.c), one counter set per warp slot of the SM.
 *
 * What the SM tells a warp scheduler and how CPL is fed from it:
 *   - an issue (on_issue) is taken as the commit of one instruction:
 *     nStall grows by the gap since the warp's previous issue, nInst -= 1;
 *   - branches: with ninst=branch (the default) the SM reports each
 *     resolved branch (on_branch): ΔInst = next - curr + 1 is added for
 *     the path a uniform branch takes, taken or not, and for both paths of
 *     a diverging one (Algorithm 5). With ninst=pc (before the SM reported
 *     branches) a resolved branch is inferred from the warp's next PC (top of its SIMT stack, an
 *     instruction index) when the policy next sees the warp: a PC other than
 *     the issued one + 1 is a branch from the issued PC to it, and adds
 *     ΔInst = next - curr + 1 (signed, the seed's recommendation; delta=abs
 *     is Algorithm 5's additions only). A not-taken conditional branch is
 *     invisible this way (it adds nothing), and a reconvergence pop counts as
 *     a jump. ninst=off drops the nInst term's branch part (nInst is then
 *     -committed, so nCriticality = nStall - cycles since launch).
 *   - a new warp in a slot (POL_WARP_LAUNCHED, or a view whose age differs
 *     from the one the slot had) restarts its counters.
 *
 * Options ("gcaws:key=value,..."; all optional):
 *   ninst=branch|pc|off nInst from the SM's branch outcomes (default), inferred
 *                       from PC jumps, or no branch term
 *   delta=signed|abs    ΔInst rule (default signed)
 *   stall=gap|literal   nStall per issue: now-last-1 (default) or now-last
 *   order=crit|gto      crit: schedule by criticality (default); gto: keep
 *                       predicting but schedule as GTO, so that the
 *                       predictor's accuracy can be measured on warps it
 *                       does not accelerate
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policies/args.h"
#include "policies/cawa_cpl.h"
#include "policies/sched_builtin.h"
#include "policies/util.h"
#include "policies/warp_sched.h"

struct slot_state {
    bool bound; /* age is the age of the warp the counters belong to */
    bool told;  /* POL_WARP_LAUNCHED restarted the counters; the next view binds the age */
    uint64_t age;
    bool live;    /* a warp occupies the slot (launched or seen, not exited) */
    bool pending; /* it issued at issued_pc and its next PC has not been seen */
    uint32_t issued_pc;
};

struct gcaws {
    struct cawa_cpl cpl;
    bool infer_branches; /* ninst=pc */
    bool told_branches;  /* ninst=branch */
    bool passive;        /* order=gto: predict only, schedule as GTO (to measure the predictor) */
    uint32_t nslots;
    struct slot_state *s; /* [nslots] */
    double *crit;         /* [nslots], this cycle's criticality */
    uint32_t greedy_slot; /* POL_UTIL_NO_SLOT before the first issue */
    uint64_t greedy_age;
};

struct cawa_cpl *pol_ws_gcaws_cpl(void *st)
{
    return &((struct gcaws *)st)->cpl;
}

struct gcaws_cfg {
    uint32_t ninst, delta, stall, order; /* word indices */
};

static const struct pol_arg gcaws_args[] = {
    POL_KEY_WORD("ninst", struct gcaws_cfg, ninst, 2, "off|pc|branch",
                 "nInst from the SM's branch outcomes, inferred from the next PC, or commits only"),
    POL_KEY_WORD("delta", struct gcaws_cfg, delta, 0, "signed|abs", "the nInst delta rule"),
    POL_KEY_WORD("stall", struct gcaws_cfg, stall, 0, "gap|literal",
                 "per-issue stall: now - last - 1 or now - last"),
    POL_KEY_WORD("order", struct gcaws_cfg, order, 0, "crit|gto",
                 "crit: schedule by criticality; gto: predict only"),
};

static const struct pol_argspec gcaws_spec = POL_ARGSPEC_KEYS(struct gcaws_cfg, gcaws_args, NULL);

static void gcaws_destroy(void *st)
{
    struct gcaws *g = st;

    if (!g)
        return;
    cawa_cpl_fini(&g->cpl);
    free(g->s);
    free(g->crit);
}

static void *gcaws_create(const struct pol_warp_sched_params *p, struct ps_err *err)
{
    const struct gcaws_cfg *c = p->cfg;
    uint32_t ninst = c->ninst; /* 2 branch, 1 pc, 0 off (the word's index) */
    cawa_cpl_delta_fn delta = c->delta ? cawa_cpl_delta_abs : cawa_cpl_delta_signed;
    enum cawa_cpl_stall stall = c->stall ? CAWA_CPL_STALL_LITERAL : CAWA_CPL_STALL_GAP;
    bool passive = c->order == 1;
    struct gcaws *g;
    uint32_t n = p->max_warps ? p->max_warps : 1;

    g = p->state;
    if (cawa_cpl_init(&g->cpl, n, delta, 1, stall) < 0) {
        ps_err_set(err, PS_ENOMEM, "out of memory creating warp scheduler gcaws");
        return NULL;
    }
    g->infer_branches = ninst == 1;
    g->told_branches = ninst == 2;
    g->passive = passive;
    g->nslots = n;
    g->s = calloc(n, sizeof(*g->s));
    g->crit = calloc(n, sizeof(*g->crit));
    if (!g->s || !g->crit) {
        gcaws_destroy(g);
        ps_err_set(err, PS_ENOMEM, "out of memory creating warp scheduler gcaws");
        return NULL;
    }
    g->greedy_slot = POL_UTIL_NO_SLOT;
    return g;
}

/* Binds the slot's counters to the warp of view w (restarting them for a new warp) and
 * settles an issued PC whose successor is now known. */
static void observe(struct gcaws *g, const struct pol_warp_view *w, uint64_t now)
{
    struct slot_state *s;

    if (w->slot >= g->nslots)
        return;
    s = &g->s[w->slot];
    if (!s->bound || s->age != w->age) {
        if (!s->told)
            cawa_cpl_launch(&g->cpl, w->slot, now); /* a warp we were not told of */
        s->told = false;
        s->bound = true;
        s->live = true;
        s->age = w->age;
        s->pending = false;
        return;
    }
    if (s->pending) {
        if (g->infer_branches && w->pc != s->issued_pc + 1)
            cawa_cpl_branch(&g->cpl, w->slot, s->issued_pc, w->pc);
        s->pending = false;
    }
}

static uint32_t gcaws_order(void *st, const struct pol_warp_view *v, uint32_t n, uint32_t *order,
                            uint64_t now)
{
    struct gcaws *g = st;
    uint32_t k = pol_util_valid(v, n, order);

    for (uint32_t i = 0; i < k; i++) {
        const struct pol_warp_view *w = &v[order[i]];

        observe(g, w, now);
        if (w->slot < g->nslots)
            g->crit[w->slot] = cawa_cpl_criticality(&g->cpl, w->slot, now);
    }
    /* Insertion sort: criticality descending, then age, then slot ascending. */
    for (uint32_t i = 1; i < k; i++) {
        uint32_t x = order[i], j = i;
        const struct pol_warp_view *a = &v[x];
        double ca = a->slot < g->nslots && !g->passive ? g->crit[a->slot] : 0.0;

        while (j > 0) {
            const struct pol_warp_view *b = &v[order[j - 1]];
            double cb = b->slot < g->nslots && !g->passive ? g->crit[b->slot] : 0.0;
            bool before = ca > cb || (ca == cb &&
                                      (a->age < b->age || (a->age == b->age && a->slot < b->slot)));

            if (!before)
                break;
            order[j] = order[j - 1];
            j--;
        }
        order[j] = x;
    }
    /* Greedy: the last issuer leads while it is ready; a stalled one keeps its rank. */
    for (uint32_t i = 0; i < k; i++) {
        const struct pol_warp_view *w = &v[order[i]];

        if (w->slot == g->greedy_slot && w->age == g->greedy_age) {
            if (w->ready)
                pol_util_greedy_first(order, k, v, g->greedy_slot, g->greedy_age);
            break;
        }
    }
    return k;
}

static void gcaws_on_issue(void *st, const struct pol_warp_view *w, uint64_t now)
{
    struct gcaws *g = st;

    observe(g, w, now);
    g->greedy_slot = w->slot;
    g->greedy_age = w->age;
    if (w->slot >= g->nslots)
        return;
    cawa_cpl_issue(&g->cpl, w->slot, now);
    cawa_cpl_commit(&g->cpl, w->slot, 1);
    g->s[w->slot].pending = true;
    g->s[w->slot].issued_pc = w->pc;
}

static void gcaws_on_event(void *st, enum pol_warp_event e, uint32_t slot, uint64_t now)
{
    struct gcaws *g = st;

    if (slot >= g->nslots)
        return;
    if (e == POL_WARP_LAUNCHED) {
        cawa_cpl_launch(&g->cpl, slot, now);
        g->s[slot].bound = false; /* the first view of the slot gives the new warp's age */
        g->s[slot].told = true;
        g->s[slot].live = true;
        g->s[slot].pending = false;
    } else if (e == POL_WARP_EXITED) {
        g->s[slot].pending = false;
        g->s[slot].live = false;
    }
}

static void gcaws_on_branch(void *st, uint32_t slot, uint32_t pc, uint32_t next_pc, uint64_t now)
{
    struct gcaws *g = st;

    (void)now;
    if (g->told_branches && slot < g->nslots)
        cawa_cpl_branch(&g->cpl, slot, pc, next_pc);
}

static bool gcaws_criticality(void *st, uint32_t slot, uint64_t now, double *out)
{
    struct gcaws *g = st;

    if (slot >= g->nslots || !g->s[slot].live)
        return false;
    *out = cawa_cpl_criticality(&g->cpl, slot, now);
    return true;
}

const struct pol_warp_sched_ops pol_ws_gcaws = {
    .name = "gcaws",
    .argspec = &gcaws_spec,
    .state_size = sizeof(struct gcaws),
    .create = gcaws_create,
    .destroy = gcaws_destroy,
    .order = gcaws_order,
    .on_issue = gcaws_on_issue,
    .on_event = gcaws_on_event,
    .on_branch = gcaws_on_branch,
    .criticality = gcaws_criticality,
    .sm_monitor = &cawa_sm_monitor,
};
