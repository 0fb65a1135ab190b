/*
 * The SM's issue stage: each warp scheduler shows its policy a view of its
 * warps, takes the policy's order, and issues the first warp whose next
 * instruction can go (I-buffer, scoreboard, LD/ST unit or pipe, and the
 * policy's may_issue). The instruction executes functionally at issue; the
 * scoreboard and the LD/ST unit model when its results become visible.
 * Every warp it looks at and cannot issue counts one stall cycle, of the
 * first reason in the dissertation's fixed order.
 */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "isa/opcode.h"
#include "timing/line_stats.h"
#include "timing/sm_int.h"

enum why { W_NONE, W_SYNC, W_FETCH, W_CTRL, W_DATA, W_DMISS, W_MSHR, W_STRUCT, W_EXEC };
_Static_assert(W_EXEC + 1 == TM_SCHED_WHYS, "sm_int.h's count of stall reasons");
/* repeat_pass adds a pass's counts to the stall counters as one array, in the reasons' order */
#define ST_AT(f) (offsetof(struct tm_sm_counters, f) - offsetof(struct tm_sm_counters, st_sync))
_Static_assert(ST_AT(st_fetch) == 8 * (W_FETCH - W_SYNC) &&
                   ST_AT(st_ctrl) == 8 * (W_CTRL - W_SYNC) &&
                   ST_AT(st_data) == 8 * (W_DATA - W_SYNC) &&
                   ST_AT(st_dmiss) == 8 * (W_DMISS - W_SYNC) &&
                   ST_AT(st_mshr) == 8 * (W_MSHR - W_SYNC) &&
                   ST_AT(st_struct) == 8 * (W_STRUCT - W_SYNC) &&
                   ST_AT(st_exec) == 8 * (W_EXEC - W_SYNC),
               "the stall counters follow enum why");

/*
 * What a scheduler pass read, for repeating it (struct sched_memo): until
 * is the first cycle at which a time comparison it made turns; stable is
 * false when the pass changed state it reads (an I-buffer, the first cycle
 * of a wait on a load) or read something the epoch does not cover.
 * refreshed: a scoreboard verdict was taken afresh and cached; the next pass
 * reads the same verdict from the cache, and the pass stands if the views'
 * waits on loads, which read that cache before it was refreshed, come out
 * the same after (views_stand).
 */
struct pass_rec {
    bool stable;
    bool refreshed;
    bool read_ldst;    /* a warp's verdict depended on whether the LD/ST unit accepts */
    uint32_t nrefused; /* ... and so many were refused: W_MSHR or W_STRUCT by ldst_fail */
    uint64_t until;
};

static void rec_until(struct pass_rec *r, uint64_t now, uint64_t t)
{
    if (t > now && t < r->until)
        r->until = t;
}

static int free_unit(const struct tm_sm *s, uint32_t unit, struct pass_rec *r)
{
    for (uint32_t i = 0; i < s->nunits[unit]; i++)
        if (s->unit_free[unit][i] <= s->now)
            return (int)i;
    for (uint32_t i = 0; i < s->nunits[unit]; i++)
        rec_until(r, s->now, s->unit_free[unit][i]);
    return -1;
}

static enum why sb_why(enum tm_sb_wait w)
{
    return w == TM_SB_DATA ? W_DATA : w == TM_SB_DMISS ? W_DMISS : W_NONE;
}

/* Why warp h cannot issue now (W_EXEC: it can), in the dissertation's fixed order. */
static enum why classify(struct tm_sm *s, struct hwarp *h, bool ldst_fail, struct cand *c,
                         struct pass_rec *r)
{
    enum tm_sb_wait wait;
    bool seen;

    if (h->state != ISA_WARP_READY)
        return W_SYNC;
    if (!h->ib.n || h->ib.fetching || h->ib.ready > s->now) {
        if (h->ib.n && !h->ib.fetching)
            rec_until(r, s->now, h->ib.ready);
        return h->ib.ctrl ? W_CTRL : W_FETCH;
    }
    if (tm_sb_cached(&h->sb, s->now, &wait)) {
        rec_until(r, s->now, h->sb.blk_until);
        return sb_why(wait);
    }
    c->ii = tm_sm_next_instr(s, h, &c->fidx, &c->pc);
    if (!c->ii || c->fidx != h->ib.fidx || c->pc != h->ib.pc) {
        /* The warp moved without issuing (a barrier released it past the bar): refetch. */
        h->ib.n = 0;
        r->stable = false;
        return W_FETCH;
    }
    seen = h->sb.dmiss_seen;
    wait = tm_sb_check(&h->sb, h->reg_base, c->ii, s->now);
    if (wait != TM_SB_READY) {
        s->cyc.turns = true;
        if (!seen && h->sb.dmiss_seen) {
            r->stable = false; /* the first cycle of a wait on a load: a miss from the next on */
        } else {
            r->refreshed = true; /* cached now: the next pass reads the same verdict */
            rec_until(r, s->now, h->sb.blk_until);
        }
        return sb_why(wait);
    }
    r->read_ldst |= c->ii->is_mem;
    if (c->ii->is_mem && !tm_ldst_accepts(s->ldst, (uint32_t)(h - s->wp), s->now)) {
        rec_until(r, s->now, tm_ldst_free_at(s->ldst));
        r->nrefused++;
        return ldst_fail ? W_MSHR : W_STRUCT;
    }
    c->unit_idx = free_unit(s, c->ii->unit, r);
    if (c->unit_idx < 0)
        return W_STRUCT;
    return W_EXEC;
}

/* The warp's next instruction needs a register that an outstanding load will fill. */
static bool long_wait(struct tm_sm *s, struct hwarp *h)
{
    uint32_t fidx, pc;
    int cached;

    if (!h->loads)
        return false;
    if ((cached = tm_sb_cached_load_wait(&h->sb)) >= 0)
        return cached;
    return tm_sb_waits_on_load(&h->sb, h->reg_base, tm_sm_next_instr(s, h, &fidx, &pc));
}

static uint32_t bank_extra(struct tm_sm *s, const struct tm_iinfo *ii, uint32_t slot)
{
    uint8_t cnt[64] = {0};
    uint32_t nb = s->prm->reg_banks, worst = 1;

    if (nb < 2 || ii->nsrc < 2)
        return 0;
    if (nb > 64)
        nb = 64;
    for (uint32_t i = 0; i < ii->nsrc; i++) {
        uint32_t b = (ii->src[i] + (s->prm->bank_use_warp_id ? slot : 0)) % nb;

        if (++cnt[b] > worst)
            worst = cnt[b];
    }
    s->k.reg_bank_conflicts += worst - 1;
    return worst - 1;
}

/* A memory instruction that executed with `info` goes to the LD/ST unit. */
static uint64_t issue_mem(struct tm_sm *s, uint32_t slot, const struct isa_step_info *info,
                          const struct tm_iinfo *ii, size_t base)
{
    struct hwarp *h = &s->wp[slot];
    struct tm_ldst_warp lw = {slot, (uint32_t)(h->cta - s->ctas), h->wid};
    struct tm_ldst_issued is = tm_ldst_issue(s->ldst, &lw, info, ii, s->now);

    h->stores += is.stores;
    if (is.rec != TM_NO_REC) {
        for (uint32_t i = 0; i < ii->ndst; i++)
            tm_ldst_rec_dst(s->ldst, is.rec, (uint32_t)(base + ii->dst[i]));
        h->loads++;
        tm_sm_event(s, POL_WARP_LOAD_ISSUED, slot);
    }
    return is.ready;
}

/*
 * A branch the warp just executed, for a scheduler that wants the outcomes:
 * each path it now has, the new SIMT stack entries when it diverged (sp0:
 * the depth before), else the top.
 */
static void branch_outcomes(struct tm_sm *s, uint32_t slot, const struct cand *c, uint32_t sp0)
{
    const struct isa_warp *w = s->wp[slot].w;
    void *st = s->sched[slot % s->prm->nsched];

    if (!s->env.ws->on_branch || w->state == ISA_WARP_DONE || !w->sp ||
        w->fr[w->nfr - 1].fidx != c->fidx ||
        w->cta->L->p->m->funcs[c->fidx]->instrs[c->pc].op != ISA_OP_BRA)
        return;
    for (uint32_t i = w->sp > sp0 ? sp0 : w->sp - 1; i < w->sp; i++)
        s->env.ws->on_branch(st, slot, c->pc, w->st[i].pc, s->now);
}

/* A warp that executed its exit: it retires once its loads and stores are answered. */
static void warp_exited(struct tm_sm *s, uint32_t slot)
{
    struct hwarp *h = &s->wp[slot];

    h->exited = true;
    if (s->env.warp_profile)
        fprintf(s->env.warp_profile,
                "%" PRIu64 ",%" PRIu64 ",%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%" PRIu64 "\n",
                s->L->gridid, h->cta->c.linear, h->w->id, s->id, h->born, s->now);
    if (!h->loads && !h->stores)
        tm_sm_warp_free(s, slot);
}

/* A barrier woke warps of CTA c: their copied states (hwarp.state) follow. */
static void cta_states_sync(struct tm_sm *s, const struct cta *c)
{
    for (uint32_t slot = 0; slot < s->slots_hi; slot++)
        if (s->wp[slot].cta == c)
            s->wp[slot].state = s->wp[slot].w->state;
}

/*
 * Executes and times warp slot's instruction c. plain: only as a global load
 * that reads inside allocations (isa_warp_step_plain), kept for the ordered
 * part's check; ISA_STEP_NOT_PLAIN with nothing done if it is not one.
 */
static int issue(struct tm_sm *s, uint32_t slot, const struct cand *c, bool plain)
{
    struct hwarp *h = &s->wp[slot];
    struct isa_warp *w = h->w;
    const struct tm_iinfo *ii = c->ii;
    struct isa_step_info info;
    size_t base = h->reg_base; /* the frame the instruction runs in (a call moves it) */
    uint32_t extra;
    uint64_t ready;
    uint32_t sp0 = w->sp;
    int rc;

    tm_sm_warp_changed(s, slot);
    info.space = 0;
    tm_sb_forget(&h->sb);
    rc = plain ? isa_warp_step_plain(w, &info) : isa_warp_step(w, &info);
    if (rc == ISA_STEP_NOT_PLAIN)
        return rc;
    extra = bank_extra(s, ii, slot); /* counts a conflict: only for an issue that happens */
    tm_sm_pc_sync(h);
    if (rc)
        return rc;
    if (plain) {
        struct plain_load *pl = &s->cyc.plain[s->cyc.nplain++];

        pl->slot = slot;
        pl->info = info;
    }
    if (ii->is_ctrl)
        branch_outcomes(s, slot, c, sp0);
    if (tm_sb_grow(&h->sb, w->regs_cap / ISA_WARP_SIZE + 1))
        return ps_err_set(s->L->err, PS_ENOMEM, "out of memory");
    s->k.issued++;
    if (s->lines)
        tm_lines_exec(s->lines, c->fidx, c->pc);
    h->insts++;
    h->last_issue = s->now;
    if (ii->is_mem) {
        ready = issue_mem(s, slot, &info, ii, base);
    } else {
        /* operand collection before the pipe, write-back after it */
        s->unit_free[ii->unit][c->unit_idx] = s->now + ii->ii;
        ready = s->now + s->prm->oc_latency + s->prm->wb_latency + ii->lat + extra;
    }
    for (uint32_t i = 0; i < ii->ndst; i++)
        tm_sb_set(&h->sb, base + ii->dst[i], ready);
    if (w->state == ISA_WARP_BARRIER)
        tm_sm_event(s, POL_WARP_BARRIER, slot);
    /* bar.arrive does not wait but may complete a barrier others wait at. */
    if (ii->is_bar && isa_cta_release_barriers(&h->cta->c)) {
        cta_states_sync(s, h->cta);
        tm_sm_changed(s); /* the CTA's warps may sit with either scheduler */
    }
    tm_ibuf_advance(&h->ib, w, ii->is_ctrl);
    if (w->state == ISA_WARP_DONE)
        warp_exited(s, slot);
    return 0;
}

static void fill_view(struct tm_sm *s, uint32_t slot, struct pol_warp_view *v, bool ready)
{
    struct hwarp *h = &s->wp[slot];

    v->slot = slot;
    v->valid = h->w && !h->exited;
    v->ready = ready;
    v->at_barrier = h->w && h->state == ISA_WARP_BARRIER;
    v->long_wait = h->w && long_wait(s, h);
    v->age = h->age;
    v->cta = h->cta ? (uint32_t)s->slot_cta[slot] : 0; /* its index, kept by warp_enter */
    v->pc = h->w ? h->cur_pc : 0;
    v->insts = h->insts;
    v->last_issue = h->last_issue;
    v->paused = h->cta && h->cta->paused;
    v->grid = s->L ? s->L->gridid : 0;
    v->cta_id = h->cta ? (uint32_t)h->cta->c.linear : 0; /* a policy's view: low 32 bits */
    v->warp_in_cta = h->w ? h->wid : 0;
}

static void count_whys(struct tm_sm *s, enum why y, uint32_t n)
{
    switch (y) {
    case W_SYNC:
        s->k.st_sync += n;
        break;
    case W_FETCH:
        s->k.st_fetch += n;
        break;
    case W_CTRL:
        s->k.st_ctrl += n;
        break;
    case W_DATA:
        s->k.st_data += n;
        break;
    case W_DMISS:
        s->k.st_dmiss += n;
        break;
    case W_MSHR:
        s->k.st_mshr += n;
        break;
    case W_STRUCT:
        s->k.st_struct += n;
        break;
    case W_EXEC:
        s->k.st_exec += n;
        break;
    case W_NONE:
        break;
    }
}

static void count_why(struct tm_sm *s, enum why y)
{
    count_whys(s, y, 1);
}

static enum tm_line_stall line_stall(enum why y)
{
    static const enum tm_line_stall map[] = {
        [W_SYNC] = TM_LS_SYNC,        [W_FETCH] = TM_LS_FETCH,       [W_CTRL] = TM_LS_CONTROL,
        [W_DATA] = TM_LS_DATA,        [W_DMISS] = TM_LS_DCACHE_MISS, [W_MSHR] = TM_LS_MSHR,
        [W_STRUCT] = TM_LS_STRUCTURAL};

    return y < sizeof(map) / sizeof(map[0]) && y != W_NONE ? map[y] : TM_LS_COUNT;
}

/* The views of scheduler sid's warps; returns how many (sum->mem_wait: one waits on a load). */
static uint32_t fill_views(struct tm_sm *s, uint32_t sid, struct tm_cycle_sum *sum,
                           struct pass_rec *r)
{
    uint32_t nv = 0;

    for (uint32_t k = 0; k < s->nsorder[sid]; k++) {
        uint32_t slot = s->sorder[sid * s->nviews_per_sched + k];
        const struct hwarp *h = &s->wp[slot];

        if (!h->w || h->exited)
            continue;
        fill_view(s, slot, &s->views[nv],
                  tm_ibuf_ready(&h->ib, s->now) && h->state == ISA_WARP_READY);
        if (h->ib.n && !h->ib.fetching)
            rec_until(r, s->now, h->ib.ready);
        if (s->views[nv].long_wait)
            sum->mem_wait = true;
        nv++;
    }
    return nv;
}

/* The policy's veto: W_STRUCT when may_issue refuses warp v's instruction c. */
static enum why policy_allows(struct tm_sm *s, uint32_t sid, const struct pol_warp_view *v,
                              const struct cand *c)
{
    const struct isa_instr *in = &s->wp[v->slot].w->cta->L->p->m->funcs[c->fidx]->instrs[c->pc];
    struct pol_instr_view iv = {.is_mem = c->ii->is_mem, .pc = c->pc};

    iv.space = in->space;
    iv.is_load = c->ii->is_mem && (in->op == ISA_OP_LD || in->op == ISA_OP_LDU) &&
                 in->space != ISA_SPACE_SHARED && in->space != ISA_SPACE_PARAM &&
                 in->space != ISA_SPACE_CONST;
    iv.is_atomic = (in->op == ISA_OP_ATOM || in->op == ISA_OP_RED) && in->space != ISA_SPACE_SHARED;
    return s->env.ws->may_issue(s->sched[sid], v, &iv) ? W_EXEC : W_STRUCT;
}

/*
 * In the parallel part of a split cycle, an instruction whose effects reach
 * beyond its warp and CTA waits for the ordered part; after one has, so do
 * later ones that touch the CTA (shared memory, barriers) or the pc, which
 * the deferred one might see in the sequential order. ALU work goes on.
 */
static bool must_defer(const struct tm_sm *s, const struct cand *c)
{
    return !c->ii->local_fx || (s->cyc.ndef && (c->ii->is_mem || c->ii->is_bar || c->ii->is_ctrl));
}

/*
 * The deferred instruction's effects on the rest of the cycle are known
 * now: the LD/ST unit is taken for this cycle, or its pipe (issue() sets the
 * same values again). Nothing else a later scheduler reads depends on it.
 */
static void defer(struct tm_sm *s, uint32_t sid, const struct pol_warp_view *v,
                  const struct cand *c)
{
    struct deferred *d = &s->cyc.def[s->cyc.ndef++];

    d->v = *v;
    d->c = *c;
    d->sid = sid;
    tm_sm_warp_changed(s, v->slot);
    if (c->ii->is_mem)
        tm_ldst_hold(s->ldst, s->now + 1);
    else
        s->unit_free[c->ii->unit][c->unit_idx] = s->now + c->ii->ii;
    s->k.sched_issue++;
}

int tm_sm_issue_deferred(struct tm_sm *s, const struct deferred *d)
{
    int rc = issue(s, d->v.slot, &d->c, false);

    if (!rc && s->env.ws->on_issue)
        s->env.ws->on_issue(s->sched[d->sid], &d->v, s->now);
    return rc;
}

/*
 * The waits on loads of the pass's views (fill_views read them before its
 * verdicts were cached) are what the next pass would read.
 */
static bool views_stand(struct tm_sm *s, uint32_t nv)
{
    for (uint32_t k = 0; k < nv; k++) {
        const struct pol_warp_view *v = &s->views[k];
        struct hwarp *h = &s->wp[v->slot];

        if (v->long_wait != (h->w && long_wait(s, h)))
            return false;
    }
    return true;
}

/* A pass may be repeated: the policy's order allows it and nothing else reads more. */
static bool repeatable(const struct tm_sm *s)
{
    return s->env.ws->order_repeats && !s->lines && !s->mon;
}

/*
 * What the pass read of the LD/ST unit is as it was: its generation, or,
 * when every warp gets the same answer, the answer itself (the queue moves
 * on most cycles of a memory-bound kernel while it stays full).
 */
static bool ldst_unchanged(const struct tm_sm *s, const struct sched_memo *m)
{
    if (!m->read_ldst || m->ldst_gen == tm_ldst_gen(s->ldst))
        return true;
    return tm_ldst_slot_blind(s->ldst) && tm_ldst_accepts(s->ldst, 0, s->now) == !m->nrefused;
}

/* Scheduler sid's recorded pass stands but for the time: nothing else it read has changed. */
static bool memo_holds(const struct tm_sm *s, uint32_t sid)
{
    const struct sched_memo *m = &s->memo[sid];

    return m->ok && m->gepoch == s->gepoch && m->sepoch == s->sepoch[sid] && ldst_unchanged(s, m);
}

/*
 * Repeats scheduler sid's last pass if nothing it read has changed; false if
 * it must run. A changed ldst_fail changes only the refused warps' reason
 * (an MSHR stall rather than a structural one), so such a pass is repeated
 * with those counts moved: in a memory-bound kernel the LD/ST unit's failure
 * comes and goes from cycle to cycle while nothing else moves.
 */
static bool repeat_pass(struct tm_sm *s, uint32_t sid, bool ldst_fail, struct tm_cycle_sum *sum)
{
    const struct sched_memo *m = &s->memo[sid];
    uint64_t *st = &s->k.st_sync; /* st_sync .. st_exec: the reasons W_SYNC .. W_EXEC */

    if (!memo_holds(s, sid) || s->now >= m->until)
        return false;
    for (uint32_t y = W_SYNC; y < TM_SCHED_WHYS; y++)
        st[y - W_SYNC] += m->why[y];
    if (m->ldst_fail != ldst_fail) {
        enum why was = m->ldst_fail ? W_MSHR : W_STRUCT, now = ldst_fail ? W_MSHR : W_STRUCT;

        st[was - W_SYNC] -= m->nrefused;
        st[now - W_SYNC] += m->nrefused;
    }
    s->k.sched_cycles++;
    sum->mem_wait |= m->mem_wait;
    sum->structural |= m->structural;
    return true;
}

bool tm_sm_passes_hold(const struct tm_sm *s, uint64_t *until)
{
    uint64_t t = TM_NEVER;

    for (uint32_t sid = 0; sid < s->prm->nsched; sid++) {
        if (!memo_holds(s, sid))
            return false;
        if (s->memo[sid].until < t)
            t = s->memo[sid].until;
    }
    *until = t;
    return true;
}

static void remember_pass(struct tm_sm *s, uint32_t sid, bool ldst_fail, const struct pass_rec *r,
                          const uint32_t *why, bool mem_wait, bool structural)
{
    struct sched_memo *m = &s->memo[sid];

    if (!r->stable)
        return;
    m->ok = true;
    m->gepoch = s->gepoch;
    m->sepoch = s->sepoch[sid];
    m->ldst_gen = tm_ldst_gen(s->ldst);
    m->ldst_fail = ldst_fail;
    m->nrefused = r->nrefused;
    m->read_ldst = r->read_ldst;
    m->until = r->until;
    m->mem_wait = mem_wait;
    m->structural = structural;
    memcpy(m->why, why, sizeof(m->why));
}

int tm_sm_schedule(struct tm_sm *s, uint32_t sid, bool ldst_fail, struct tm_cycle_sum *sum)
{
    const struct pol_warp_sched_ops *ws = s->env.ws;
    struct pass_rec rec = {repeatable(s), false, false, 0, TM_NEVER};
    struct tm_cycle_sum mine = {false, false, false};
    uint32_t why[TM_SCHED_WHYS] = {0}, nv, n;

    if (repeat_pass(s, sid, ldst_fail, sum))
        return 0;
    s->memo[sid].ok = false;
    nv = fill_views(s, sid, &mine, &rec);
    sum->mem_wait |= mine.mem_wait;
    s->k.sched_cycles++;
    if (!nv) {
        s->k.sched_empty++;
        return 0;
    }
    n = ws->order(s->sched[sid], s->views, nv, s->order, s->now);
    if (s->any_paused)
        tm_sm_paused_last(s, n);
    for (uint32_t k = 0; k < n; k++) {
        const struct pol_warp_view *v = &s->views[s->order[k]];
        struct hwarp *h = &s->wp[v->slot];
        struct cand c = {0};
        enum why y;
        int rc;

        if (!v->valid)
            continue;
        y = classify(s, h, ldst_fail, &c, &rec);
        if (y == W_EXEC && ws->may_issue)
            y = policy_allows(s, sid, v, &c);
        count_why(s, y);
        why[y]++;
        if (s->lines && y != W_EXEC)
            tm_lines_stall(s->lines, h->w, line_stall(y));
        if (y == W_STRUCT || y == W_MSHR)
            sum->structural = mine.structural = true;
        if (y != W_EXEC)
            continue;
        if (s->in_par && must_defer(s, &c)) {
            /* a global load first in the SM's order this cycle may read now */
            rc = c.ii->global_read && !s->cyc.ndef ? issue(s, v->slot, &c, true)
                                                   : ISA_STEP_NOT_PLAIN;
            if (rc == ISA_STEP_NOT_PLAIN) {
                defer(s, sid, v, &c);
                sum->issued = true;
                return 0;
            }
        } else {
            rc = issue(s, v->slot, &c, false);
        }
        if (rc)
            return rc;
        if (ws->on_issue)
            ws->on_issue(s->sched[sid], v, s->now);
        s->k.sched_issue++;
        sum->issued = true;
        return 0;
    }
    if (rec.stable && rec.refreshed && !views_stand(s, nv))
        rec.stable = false;
    remember_pass(s, sid, ldst_fail, &rec, why, mine.mem_wait, mine.structural);
    return 0;
}
