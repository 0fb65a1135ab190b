/*
 * The SM's cycle (timing/sm.c holds residency, timing/sm_issue.c the issue
 * stage): replies and misses through the LD/ST unit, the schedulers, fetch,
 * the cycle's activity counters, and sleeping through cycles that cannot
 * change anything. For parallel stepping (docs/timing.md "Parallel
 * simulation") the cycle comes in three parts: tm_sm_cycle_begin for every SM
 * at once (its own state only; issues reaching beyond the SM are deferred),
 * tm_sm_cycle_ordered in SM order (the deferred issues, the interconnect's
 * shared counts), tm_sm_cycle_end for every SM at once.
 */
#include "common/counters.h"
#include "timing/sm_int.h"

/* Warp h's next change without a reply: at most `wake`, or now + 1 if it may issue at once. */
static uint64_t warp_wake(struct tm_sm *s, struct hwarp *h, uint64_t wake)
{
    const struct tm_iinfo *ii;
    uint32_t fidx, pc;
    uint64_t t, now = s->now;

    if (!h->ib.n)
        return h->ib.fetching ? wake : now + 1;
    if (h->ib.ready > now)
        return h->ib.ready < wake ? h->ib.ready : wake;
    ii = tm_sm_next_instr(s, h, &fidx, &pc);
    if (!ii || fidx != h->ib.fidx || pc != h->ib.pc)
        return now + 1;
    /* Not blocked: waits for a pipe (see wake_time) or a policy's decision. */
    if (!(t = tm_sb_blocked_until(&h->sb, h->reg_base, ii, now)))
        return now + 1;
    return t < wake ? t : wake;
}

/* The earliest cycle after now at which this SM could do anything new without a reply. */
static uint64_t wake_time(struct tm_sm *s)
{
    uint64_t now = s->now, wake = tm_sm_sample_wake(s, now, TM_NEVER);

    wake = tm_ldst_wake(s->ldst, now, wake, NULL);
    if (wake == now + 1)
        return wake;
    for (uint32_t u = 0; u < TM_UNIT_COUNT; u++)
        for (uint32_t i = 0; i < s->nunits[u]; i++)
            if (s->unit_free[u][i] > now && s->unit_free[u][i] < wake)
                wake = s->unit_free[u][i];
    for (uint32_t slot = 0; slot < s->slots_hi; slot++) {
        struct hwarp *h = &s->wp[slot];

        if (!h->w || h->exited || h->state != ISA_WARP_READY)
            continue;
        if ((wake = warp_wake(s, h, wake)) == now + 1)
            return wake;
    }
    return wake;
}

/*
 * The same for an SM whose LD/ST unit is stuck (st, tm_ldst_stuck; room in
 * the network for a waiting miss then wakes it like a reply). The schedulers'
 * passes must hold (every verdict of this cycle's passes stands and is
 * repeated), which bounds the warps' next change by the passes' own time
 * limit, and no warp may want a fetch.
 */
static uint64_t stuck_wake_time(struct tm_sm *s, const struct tm_ldst_stuck *st)
{
    uint64_t now = s->now, until;

    if (!tm_sm_fetch_idle(s) || !tm_sm_passes_hold(s, &until))
        return now + 1;
    return tm_ldst_wake(s->ldst, now, tm_sm_sample_wake(s, now, until), st);
}

/* The cycle's activity counters: issued, or idle for memory, a stall or nothing. */
static void count_cycle(struct tm_sm *s, const struct tm_cycle_sum *sum)
{
    if (sum->issued) {
        s->k.n_act++;
        return;
    }
    /*
     * A warp waiting on a long-latency load makes the cycle a memory cycle
     * even when another is refused by the LD/ST unit or MSHRs (that refusal
     * is memory pressure too); pipe-only stalls count in neither counter.
     */
    s->k.n_inact++;
    if (sum->mem_wait)
        s->k.c_mem++;
    else if (sum->structural)
        s->k.c_stall++;
    else
        s->k.c_idle++;
}

/* The counters of a skipped cycle: the last simulated one's (struct tm_sm.delta). */
static void repeat_delta(struct tm_sm *s)
{
    uint64_t *k = (uint64_t *)&s->k;
    const uint64_t *d = (const uint64_t *)&s->delta;

    if (s->ndelta > TM_SPARSE) {
        ps_counters_add(&s->k, &s->delta, PS_NCOUNTERS(s->k));
        return;
    }
    for (uint32_t i = 0; i < s->ndelta; i++)
        k[s->delta_at[i]] += d[s->delta_at[i]];
}

/* delta = k - before: the last simulated cycle's counts, nonzero ones noted for repeat_delta. */
static void take_delta(struct tm_sm *s)
{
    const uint64_t *k = (const uint64_t *)&s->k, *b = (const uint64_t *)&s->before;
    uint64_t *d = (uint64_t *)&s->delta;

    _Static_assert(PS_NCOUNTERS(s->delta) <= 256, "delta_at holds 8-bit indices");
    _Static_assert(sizeof(s->delta) == sizeof(s->k) && sizeof(s->before) == sizeof(s->k),
                   "delta, k and before are the same counters");
    s->ndelta = 0;
    for (uint32_t i = 0; i < PS_NCOUNTERS(s->delta); i++) {
        d[i] = k[i] - b[i];
        if (!d[i] || s->ndelta > TM_SPARSE)
            continue;
        if (s->ndelta == TM_SPARSE)
            s->ndelta = TM_SPARSE + 1; /* dense: repeat_delta adds them all */
        else
            s->delta_at[s->ndelta++] = (uint8_t)i;
    }
}

/*
 * A cycle the SM sleeps through repeats the counters of the last simulated
 * one, and a stuck LD/ST unit's failures.
 */
static bool asleep(struct tm_sm *s, uint64_t now, struct split_cycle *c)
{
    if (now >= s->sleep_until)
        return false;
    if (!(mem_system_reply_ready(s->env.ms, s->id) && tm_ldst_skip_sectors(s->ldst)) &&
        !(s->stuck && tm_ldst_unstuck(s->ldst, &s->stk))) {
        repeat_delta(s);
        if (s->stuck)
            tm_ldst_repeat_stuck(s->ldst, &s->stk);
        return true;
    }
    s->sleep_until = 0;
    c->was_quiet = c->was_stuck = false;
    return false;
}

/* This SM's instruction counts join the launch's, in SM order; see tm_sm.Lv. */
static void fold_in(struct tm_sm *s)
{
    if (!s->Lreal)
        return;
    s->Lv.warp_insts += s->Lreal->warp_insts;
    s->Lv.thread_insts += s->Lreal->thread_insts;
}

static void fold_out(struct tm_sm *s)
{
    if (!s->Lreal)
        return;
    s->Lreal->warp_insts = s->Lv.warp_insts;
    s->Lreal->thread_insts = s->Lv.thread_insts;
    s->Lv.warp_insts = s->Lv.thread_insts = 0;
}

/*
 * The schedulers from turn `from` on. Turn i is scheduler (i + now) % nsched
 * with ptxsim_sched_rotate (GPGPU-Sim's Issue_Prio: the first scheduler of a
 * cycle changes every cycle, so none keeps first pick of the shared pipes and
 * the LD/ST unit), else scheduler i. When they share state (ws_shared: a
 * policy's state per SM), a later scheduler's choice may depend on what a
 * deferred issue tells the policy, so after a deferral the parallel part
 * stops and the ordered part runs the rest.
 */
static int run_schedulers(struct tm_sm *s, uint32_t from)
{
    uint32_t n = s->prm->nsched, first = s->prm->sched_rotate && n ? (uint32_t)(s->now % n) : 0;

    for (uint32_t i = from; i < n; i++) {
        int rc = tm_sm_schedule(s, (i + first) % n, s->cyc.ldst_fail, &s->cyc.sum);

        if (rc)
            return rc;
        if (s->in_par && s->ws_shared && s->cyc.ndef) {
            s->cyc.next_sid = i + 1;
            return 0;
        }
    }
    s->cyc.next_sid = s->prm->nsched;
    return 0;
}

/*
 * Sleeping through a stuck LD/ST unit's cycles: only where a repeated cycle
 * repeats the schedulers' passes too (the policy's order reads no clock and
 * changes nothing, no CTA limit can change, no per-cycle line statistics or
 * monitor) and the unit has no front-queue stage.
 */
static bool may_stick(const struct tm_sm *s)
{
    return s->env.ws->order_repeats && !s->lines && !s->mon &&
           !(s->env.cs && s->env.cs->run_limit) && tm_ldst_slot_blind(s->ldst);
}

/* The first part of a cycle: everything up to the schedulers' issues. */
static int cycle_head(struct tm_sm *s, uint64_t now)
{
    struct split_cycle *c = &s->cyc;

    s->now = now;
    c->was_quiet = s->quiet;
    c->was_stuck = s->quiet_stuck;
    if (asleep(s, now, c))
        return 0;
    if (c->was_quiet || c->was_stuck)
        s->before = s->k;
    s->k.cycles++;
    if (!s->nctas && (s->drained || (s->drained = tm_sm_idle(s)))) {
        /* An SM without work during a kernel is idle (C_idle; it also lowers the CTA policy's
         * activity ratio). */
        if (s->L) {
            s->k.n_inact++;
            s->k.c_idle++;
        }
        return 0;
    }
    /* Only an open cycle touches the unit or counts instructions (fold_in: see tm_sm.Lv). */
    c->open = true;
    /* the schedulers come after the unit's work: start fetching what their passes read first */
    for (uint32_t i = 0; i < s->prm->nsched; i++)
        __builtin_prefetch(&s->memo[i]);
    __builtin_prefetch(s->sepoch);
    if (!s->in_par)
        fold_in(s);
    if (s->nctas)
        s->k.busy_cycles++;
    s->k.warps_resident += s->nwarps_res;
    if (tm_sm_samples_due(s, now))
        tm_sm_sample(s, now);
    c->active = tm_ldst_take_replies(s->ldst, now);
    c->active |= tm_ldst_send_miss(s->ldst, now);
    /*
     * Requests still on their way to the L1 keep the SM awake only once they
     * are due, and not while they only fail again (a stuck unit).
     */
    c->moving = c->active;
    c->active |= tm_ldst_due(s->ldst, now);
    c->ldst_fail = tm_ldst_cycle(s->ldst, now);
    c->stuck = !c->moving && may_stick(s) && tm_ldst_stuck(s->ldst, now, &c->stk);
    tm_sm_update_paused(s);
    return run_schedulers(s, 0);
}

/* The rest of an open cycle: fetch, the cycle's classification, sleeping. */
static void cycle_tail(struct tm_sm *s)
{
    struct split_cycle *c = &s->cyc;
    uint64_t now = s->now;

    uint64_t wake = now + 1;
    bool fetched = tm_sm_fetch(s), stuck = false;

    c->active |= fetched;
    count_cycle(s, &c->sum);
    /* Per-line stalls are counted cycle by cycle, so a profiled SM never skips cycles. */
    s->quiet = !c->sum.issued && !c->active && s->nctas && !s->lines;
    s->quiet_stuck = !c->sum.issued && !c->moving && !fetched && c->stuck && s->nctas && !s->lines;
    if (c->was_quiet && s->quiet && !c->turns)
        wake = wake_time(s);
    if (wake == now + 1 && (c->was_quiet || c->was_stuck) && s->quiet_stuck) {
        wake = stuck_wake_time(s, &c->stk);
        stuck = true;
    }
    if (wake > now + 1 && s->prm->sm_sleep) {
        s->sleep_until = wake;
        s->stuck = stuck;
        s->stk = c->stk;
        take_delta(s);
    }
}

int tm_sm_cycle_begin(struct tm_sm *s, uint64_t now, bool par)
{
    struct split_cycle *c = &s->cyc;

    if (c->end_pending)
        tm_sm_cycle_end(s);
    c->open = false;
    c->ndef = 0;
    c->nplain = 0;
    c->turns = false;
    c->next_sid = s->prm->nsched;
    c->sum = (struct tm_cycle_sum){false, false, false};
    s->in_par = par;
    /* every cycle, asleep or not: the stage the reply network fills next cycle is the other one */
    mem_system_reply_drain(s->env.ms, s->id);
    c->rc = cycle_head(s, now);
    /* every cycle too: the pops a reply tick beside the next cycle counts (mem_icnt.h) */
    mem_system_publish_pops(s->env.ms, s->id);
    s->in_par = false;
    return c->rc;
}

bool tm_sm_needs_ordered(const struct tm_sm *s)
{
    const struct split_cycle *c = &s->cyc;

    if (c->rc)
        return true;
    if (!c->open)
        return false;
    return c->ndef || c->nplain || c->next_sid < s->prm->nsched;
}

bool tm_sm_take_counts(struct tm_sm *s, struct isa_launch **L, uint64_t *warp_insts,
                       uint64_t *thread_insts)
{
    if (!s->Lreal || !(s->Lv.warp_insts || s->Lv.thread_insts))
        return false;
    *L = s->Lreal;
    *warp_insts = s->Lv.warp_insts;
    *thread_insts = s->Lv.thread_insts;
    s->Lv.warp_insts = s->Lv.thread_insts = 0;
    return true;
}

/*
 * The loads the first part ran read memory before the SMs ahead of this one
 * finished their cycles. Where one of them ran an instruction that may have
 * written global memory (anything the ordered part runs but a load), the
 * loads read again, as they would have after it.
 */
static int reload_plain(struct tm_sm *s, bool wrote)
{
    struct split_cycle *c = &s->cyc;
    int rc = 0;

    for (uint32_t i = 0; wrote && !rc && i < c->nplain; i++)
        rc = isa_warp_reload(s->wp[c->plain[i].slot].w, &c->plain[i].info);
    c->nplain = 0;
    return rc;
}

void tm_sm_prefetch_begin(const struct tm_sm *s)
{
    __builtin_prefetch(&s->cyc, 1);
    __builtin_prefetch(&s->sleep_until, 1);
    __builtin_prefetch(&s->k, 1);
    __builtin_prefetch(&s->now, 1);
    tm_ldst_prefetch(s->ldst);
}

void tm_sm_prefetch_ordered(const struct tm_sm *s)
{
    __builtin_prefetch(&s->cyc, 1);
    __builtin_prefetch(&s->Lv, 1);
}

int tm_sm_cycle_ordered(struct tm_sm *s, bool par, bool *wrote)
{
    struct split_cycle *c = &s->cyc;
    int rc = c->rc;

    if (!c->open) /* asleep or idle: nothing held, nothing deferred, nothing counted */
        return rc;
    if (par)
        fold_in(s);
    if (!rc)
        rc = reload_plain(s, *wrote);
    for (uint32_t i = 0; !rc && i < c->ndef; i++) {
        *wrote |= !c->def[i].c.ii->global_read;
        rc = tm_sm_issue_deferred(s, &c->def[i]);
    }
    c->ndef = 0;
    if (!rc && c->next_sid < s->prm->nsched) {
        *wrote = true;
        rc = run_schedulers(s, c->next_sid);
    }
    fold_out(s);
    c->rc = rc;
    return rc;
}

void tm_sm_cycle_end(struct tm_sm *s)
{
    s->cyc.end_pending = false;
    if (!s->cyc.rc && s->cyc.open)
        cycle_tail(s);
}

void tm_sm_cycle_end_later(struct tm_sm *s)
{
    s->cyc.end_pending = true;
}

void tm_sm_cycle_end_cancel(struct tm_sm *s)
{
    s->cyc.end_pending = false;
}

void tm_sm_settle(struct tm_sm *s)
{
    if (s->cyc.end_pending)
        tm_sm_cycle_end(s);
}

int tm_sm_cycle(struct tm_sm *s, uint64_t now)
{
    bool wrote = false; /* sequential: no load ran early, nothing to read again */
    int rc;

    tm_sm_cycle_begin(s, now, false);
    rc = tm_sm_cycle_ordered(s, false, &wrote); /* begin's error, after the counts are folded */
    tm_sm_cycle_end(s);
    return rc;
}

/* Worth stepping this cycle (awake with work): how the GPU decides whether to go parallel. */
bool tm_sm_awake(const struct tm_sm *s, uint64_t now)
{
    return s->nctas && (now >= s->sleep_until || mem_system_reply_ready(s->env.ms, s->id) ||
                        (s->stuck && tm_ldst_unstuck(s->ldst, &s->stk)));
}
