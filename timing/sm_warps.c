/*
 * The SM's warps between issue and retirement: warp events for the
 * scheduling policy, a warp's exit (which frees its CTA with the last one),
 * and the hooks through which the LD/ST unit reports loads, stores and
 * fetches that finished.
 */
#include "timing/sm_int.h"

void tm_sm_event(struct tm_sm *s, enum pol_warp_event e, uint32_t slot)
{
    tm_sm_warp_changed(s, slot);
    if (s->env.ws->on_event)
        s->env.ws->on_event(s->sched[slot % s->prm->nsched], e, slot, s->now);
}

const struct tm_iinfo *tm_sm_next_instr(struct tm_sm *s, struct hwarp *h, uint32_t *fidx,
                                        uint32_t *pc)
{
    if (!h->cur_in_pc || !h->cur_in_fn)
        return NULL;
    *fidx = h->cur_fidx;
    *pc = h->cur_pc;
    if (h->nx_ii && h->nx_pc == *pc && h->nx_fidx == *fidx)
        return h->nx_ii;
    if (*pc >= s->L->p->m->funcs[*fidx]->ninstrs)
        return NULL;
    h->nx_ii = tm_itable_get(s->it, *fidx, *pc);
    h->nx_fidx = *fidx;
    h->nx_pc = *pc;
    return h->nx_ii;
}

void tm_sm_warp_free(struct tm_sm *s, uint32_t slot)
{
    struct hwarp *h = &s->wp[slot];
    struct cta *c = h->cta;
    uint32_t sid = slot % s->prm->nsched, *o = s->sorder + sid * s->nviews_per_sched, k = 0;

    tm_sm_event(s, POL_WARP_EXITED, slot); /* (bumps the epoch) */
    for (uint32_t i = 0; i < s->nsorder[sid]; i++)
        if (o[i] != slot)
            o[k++] = o[i];
    s->nsorder[sid] = k;
    h->w = NULL;
    h->cta = NULL;
    while (s->slots_hi && !s->wp[s->slots_hi - 1].w)
        s->slots_hi--;
    s->nwarps_res--;
    if (s->freed_note)
        ++*s->freed_note;
    s->slot_cta[slot] = -1;
    tm_sm_policy_warp_left(s, slot, c->warps_left == 1);
    if (--c->warps_left)
        return;
    s->regs_used -= c->regs;
    s->shared_used -= c->c.shared_bytes;
    isa_cta_fini(&c->c);
    c->used = false;
    s->nctas--;
    s->k.ctas_done++;
}

static void load_done(void *ctx, uint32_t slot, const uint32_t *dst, uint32_t ndst, uint64_t at)
{
    struct tm_sm *s = ctx;
    struct hwarp *h = &s->wp[slot];

    tm_sm_warp_changed(s, slot);
    tm_sb_forget(&h->sb);
    for (uint32_t i = 0; i < ndst; i++)
        tm_sb_set(&h->sb, dst[i], at);
    h->loads--;
    if (!h->loads) {
        h->sb.dmiss_seen = false;
        tm_sm_event(s, POL_WARP_LOAD_DONE, slot);
        if (h->exited && !h->stores)
            tm_sm_warp_free(s, slot);
    }
}

/*
 * One of a warp's store holds ends: a queued store reached the L1 (which
 * will send `acks` acknowledgements), or an acknowledgement came back from
 * the L2. A warp that has exited retires only when none is left, as in
 * GPGPU-Sim, so a CTA keeps its slot until its last store is in the L2.
 */
static void store_done(void *ctx, uint32_t slot, uint32_t acks)
{
    struct tm_sm *s = ctx;
    struct hwarp *h;

    if (slot >= s->prm->max_warps)
        return;
    tm_sm_warp_changed(s, slot);
    h = &s->wp[slot];
    h->stores += acks;
    if (!h->stores)
        return;
    if (!--h->stores && h->exited && !h->loads)
        tm_sm_warp_free(s, slot);
}

static void fetch_done(void *ctx, const struct mem_req *r)
{
    struct tm_sm *s = ctx;
    struct hwarp *h = &s->wp[r->warp];

    tm_sm_warp_changed(s, r->warp);
    if (h->w)
        tm_ibuf_filled(&h->ib, s->now);
}

/* A global store reached the L1D: every scheduler hears of it (a write concerns every warp). */
static void l1d_access(void *ctx, const struct mem_req *r, uint64_t now)
{
    struct tm_sm *s = ctx;
    uint64_t line = r->addr / s->prm->l1d.line_bytes;

    if (!s->env.ws->on_mem || r->type != MEM_WRITE || r->space != MEM_GLOBAL)
        return;
    for (uint32_t i = 0; i < s->prm->nsched; i++)
        s->env.ws->on_mem(s->sched[i], POL_MEM_L1_WRITE, r->warp, line, now);
}

const struct tm_ldst_hooks tm_sm_ldst_hooks = {
    .load_done = load_done,
    .store_done = store_done,
    .fetch_done = fetch_done,
    .l1d_access = l1d_access,
};
