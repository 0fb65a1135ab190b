/*
 * What the SM shows and tells its policies beyond the per-cycle warp views
 * (timing/sm_issue.c): L1D events for the warp scheduler, the criticality
 * of a warp among its CTA's warps for the L1D policy, periodic accuracy
 * samples of that criticality, and the CTA policy's run limit, which pauses
 * the youngest CTAs.
 */
#include <string.h>

#include "policies/util.h"
#include "timing/sm_int.h"

/* L1D traffic goes to the scheduler that owns the warp, for policies that learn from it. */
static void l1d_observe(void *ctx, enum mem_obs_kind kind, const struct mem_req *r, uint64_t line,
                        uint16_t warp, uint64_t now)
{
    struct tm_sm *s = ctx;
    enum pol_mem_event e = kind == MEM_OBS_HIT    ? POL_MEM_L1_HIT
                           : kind == MEM_OBS_MISS ? POL_MEM_L1_MISS
                                                  : POL_MEM_L1_EVICT;

    if (r->type != MEM_READ || warp >= s->prm->max_warps)
        return; /* writes reach the schedulers from the LD/ST unit (POL_MEM_L1_WRITE) */
    /* A line allocated before the slot's current warp arrived belongs to a warp that has exited. */
    if (kind == MEM_OBS_EVICT && (!s->wp[warp].w || r->t_issue < s->wp[warp].born))
        e = POL_MEM_L1_EVICT_EXITED;
    s->env.ws->on_mem(s->sched[warp % s->prm->nsched], e, warp, line, now);
}

/*
 * The L1D policy's question, answered by the warp scheduler's predictor: a
 * warp is critical when its criticality is above that of half the warps of
 * its thread block, whichever of the SM's schedulers holds them. -1 when
 * the scheduler has no predictor.
 */
static int warp_critical(void *ctx, uint32_t warp, uint64_t now)
{
    struct tm_sm *s = ctx;
    const struct pol_warp_sched_ops *ws = s->env.ws;
    const struct cta *cta;
    double mine, c;
    uint32_t below = 0, n = 0;

    if (!ws->criticality || warp >= s->prm->max_warps || !s->wp[warp].w)
        return -1;
    if (!ws->criticality(s->sched[warp % s->prm->nsched], warp, now, &mine))
        return -1;
    cta = s->wp[warp].cta;
    for (uint32_t i = 0; i < s->prm->max_warps; i++) {
        if (!s->wp[i].w || s->wp[i].cta != cta)
            continue;
        n++;
        if (i != warp && ws->criticality(s->sched[i % s->prm->nsched], i, now, &c) && c < mine)
            below++;
    }
    return pol_critical_in_group(below, n);
}

void tm_sm_policy_link(struct tm_sm *s, struct pol_l1d_link *link)
{
    *link = (struct pol_l1d_link){s->id, s->env.nsm, s->env.l1d_shared, warp_critical, s};
}

void tm_sm_policy_attach(struct tm_sm *s)
{
    if (s->env.ws->on_mem)
        mem_cache_set_observer(s->l1d, l1d_observe, s);
}

/* The CTA policy's run limit: the earliest-assigned CTAs run, the rest are paused. */
void tm_sm_update_paused(struct tm_sm *s)
{
    uint32_t lim;

    if (!s->env.cs || !s->env.cs->run_limit || !s->nctas) {
        s->any_paused = false;
        return;
    }
    lim = s->env.cs->run_limit(s->env.cs_st, s->id);
    s->any_paused = false;
    for (uint32_t i = 0; i < s->prm->max_ctas; i++) {
        struct cta *c = &s->ctas[i];
        uint32_t older = 0;

        if (!c->used)
            continue;
        for (uint32_t j = 0; j < s->prm->max_ctas; j++)
            older += s->ctas[j].used && s->ctas[j].seq < c->seq;
        c->paused = older >= lim;
        s->any_paused |= c->paused;
    }
}

/* Paused CTAs' warps go after every running one, each group in the policy's order. */
void tm_sm_paused_last(struct tm_sm *s, uint32_t n)
{
    uint32_t tmp[64], k = 0;

    if (n > 64)
        return;
    for (uint32_t i = 0; i < n; i++)
        if (!s->views[s->order[i]].paused)
            tmp[k++] = s->order[i];
    for (uint32_t i = 0; i < n; i++)
        if (s->views[s->order[i]].paused)
            tmp[k++] = s->order[i];
    memcpy(s->order, tmp, n * sizeof(*tmp));
}

bool tm_sm_samples_due(const struct tm_sm *s, uint64_t now)
{
    return s->env.ws->criticality && now >= s->crit_next;
}

/*
 * Prediction accuracy (dissertation ch. 4): every sampling period, each
 * resident warp is classified slow or not by the warp scheduler's
 * predictor; when a CTA finishes, the samples of its last warp (the truly
 * critical one, slowest by execution time) say how often the prediction
 * was right.
 */
void tm_sm_sample(struct tm_sm *s, uint64_t now)
{
    for (uint32_t i = 0; i < s->prm->max_warps; i++) {
        int r;

        if (!s->wp[i].w || (r = warp_critical(s, i, now)) < 0)
            continue;
        s->wp[i].crit_samples++;
        s->wp[i].crit_slow += (uint32_t)r;
    }
    s->crit_next = now + s->prm->sample_period;
}

uint64_t tm_sm_sample_wake(const struct tm_sm *s, uint64_t now, uint64_t wake)
{
    return s->env.ws->criticality && s->crit_next > now && s->crit_next < wake ? s->crit_next
                                                                               : wake;
}
