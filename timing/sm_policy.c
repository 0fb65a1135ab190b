/*
 * What the SM shows and tells its policies beyond the per-cycle warp views
 * (timing/sm_issue.c): L1D events for the warp scheduler; the view of its
 * warp slots for the warp scheduler's SM monitor (policies/sm_view.h), which
 * it samples periodically, tells of warps leaving, and whose question about
 * warps it hands to the L1D policy; and the CTA policy's run limit, which
 * pauses the youngest CTAs.
 */
#include <stdlib.h>
#include <string.h>

#include "timing/sm_int.h"

/* L1D traffic goes to the scheduler that owns the warp, for policies that learn from it. */
static void l1d_observe(void *ctx, enum mem_obs_kind kind, const struct mem_req *r, uint64_t line,
                        uint16_t warp, uint64_t now)
{
    struct tm_sm *s = ctx;
    enum pol_mem_event e = kind == MEM_OBS_HIT     ? POL_MEM_L1_HIT
                           : kind == MEM_OBS_MISS  ? POL_MEM_L1_MISS
                           : kind == MEM_OBS_MERGE ? POL_MEM_L1_MERGE
                                                   : POL_MEM_L1_EVICT;

    if (kind == MEM_OBS_STORE_MISS) {
        /* r is the picked line (its allocating warp), warp the storing warp */
        if (r->type == MEM_READ && r->warp < s->prm->max_warps)
            s->env.ws->on_mem(s->sched[r->warp % s->prm->nsched], POL_MEM_L1_STORE_VICTIM, r->warp,
                              line, now);
        if (warp < s->prm->max_warps)
            s->env.ws->on_mem(s->sched[warp % s->prm->nsched], POL_MEM_L1_STORE_MISS, warp, line,
                              now);
        return;
    }
    if (r->type != MEM_READ || warp >= s->prm->max_warps)
        return; /* writes reach the schedulers from the LD/ST unit (POL_MEM_L1_WRITE) */
    /* A line allocated before the slot's current warp arrived belongs to a warp that has exited. */
    if (kind == MEM_OBS_EVICT && (!s->wp[warp].w || r->t_issue < s->wp[warp].born))
        e = POL_MEM_L1_EVICT_EXITED;
    s->env.ws->on_mem(s->sched[warp % s->prm->nsched], e, warp, line, now);
}

/* The view of the SM the warp scheduler's monitor sees, and the monitor if the policy has one. */
int tm_sm_policy_create(struct tm_sm *s)
{
    const struct pol_sm_monitor_ops *m = s->env.ws->sm_monitor;

    s->slot_cta = malloc(s->prm->max_warps * sizeof(*s->slot_cta));
    if (!s->slot_cta)
        return -1;
    for (uint32_t i = 0; i < s->prm->max_warps; i++)
        s->slot_cta[i] = -1;
    s->view =
        (struct pol_sm_view){s->prm->max_warps, s->prm->nsched, s->slot_cta, s->env.ws, s->sched};
    if (m && !(s->mon = m->create(&s->view)))
        return -1;
    return 0;
}

void tm_sm_policy_destroy(struct tm_sm *s)
{
    if (s->mon)
        s->env.ws->sm_monitor->destroy(s->mon);
    s->mon = NULL;
    free(s->slot_cta);
}

/* The L1D policy's questions about warps go to the warp scheduler's monitor. */
void tm_sm_policy_link(struct tm_sm *s, struct pol_l1d_link *link)
{
    *link = (struct pol_l1d_link){s->id, s->env.nsm, s->env.l1d_shared,
                                  s->mon ? s->env.ws->sm_monitor->query : NULL, s->mon};
}

void tm_sm_policy_warp_left(struct tm_sm *s, uint32_t slot, bool cta_done)
{
    if (s->mon)
        s->env.ws->sm_monitor->warp_left(s->mon, slot, cta_done, &s->k.mon_samples, &s->k.mon_hits);
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
        if (s->any_paused)
            tm_sm_changed(s);
        s->any_paused = false;
        return;
    }
    tm_sm_changed(s); /* a CTA policy with a run limit: passes are not repeated */
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
    return s->mon && now >= s->sample_next;
}

/* The monitor's periodic sample. */
void tm_sm_sample(struct tm_sm *s, uint64_t now)
{
    s->env.ws->sm_monitor->sample(s->mon, now);
    s->sample_next = now + s->prm->sample_period;
}

uint64_t tm_sm_sample_wake(const struct tm_sm *s, uint64_t now, uint64_t wake)
{
    return s->mon && s->sample_next > now && s->sample_next < wake ? s->sample_next : wake;
}
