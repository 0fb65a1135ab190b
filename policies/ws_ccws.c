/*
 * Cache-conscious wavefront scheduling, "ccws" (Rogers, O'Connor, Aamodt,
 * MICRO 2012; seed 004 sections 3.2-3.9, oracles 14-27 and 32), as its
 * authors' code runs it (tgrogers/ccws-2012, written down point by point in
 * shared/design/seeds/004_ccws_authors_code.md; "write-up" below). Every
 * place where an earlier reading of the paper differs is a key whose
 * default is the authors' behaviour (docs/policies.md has the table).
 *
 * Lost-locality detection: every warp slot has a victim tag array
 * (policies/ccws_vta.c, 2 sets x 8 ways, FIFO, the authors' hashed set
 * index). An L1D eviction puts the line into the VTA of the slot of its
 * source warp, the last that missed or merged on it (evict_to=source), even
 * if that warp has exited (evict_exited=insert: the
 * authors keep a slot's VTA across warps and clear them all only when the
 * SM runs dry, their kernel-end L1D flush). Every L1D read miss, and every
 * read that merges into a pending MSHR (merge=probe; GPGPU-Sim answers a
 * merge MISS), probes the reading warp's own VTA; a hit is a VTA hit.
 *
 * Scoring (the write-up's point system, one per SM shared by its
 * schedulers, share=sm): H and I are the VTA hits and issued instructions
 * of the live warps (an exiting warp takes its own out, reset=live), and
 *
 *     P = trunc((float)H / I * k * cutoff),  cutoff = 100 x live warps
 *
 * A VTA hit adds P (k = k_throttle, the authors' k_vc_add) and clamps:
 * a score at or below the base becomes the base, one above the cap P'
 * (k = k_wsc) becomes P', so with k_throttle = k_wsc = 8 a hit sets the
 * score to max(base, P). Every core cycle a score above the base loses a
 * point and is clamped again (reclamp=1), and every L1D access of a warp
 * clamps its score (which is how a warp in a reused slot, starting at 0,
 * start=zero, reaches the base).
 *
 * Throttling: each cycle the live warps of the SM are sorted by score,
 * highest first, ties by lower slot (tie=slot), and taken onto the
 * exclusive list until the sum reaches the cutoff of the previous cycle;
 * the warp that reaches it is on the list. If the sum reaches it, a warp
 * off the list may not issue a global or local load or a global atomic
 * (atomics=hold); everything else issues freely, in gto's order (each
 * scheduler with its own greedy warp), so with no VTA hits ccws issues as
 * gto (oracle 14).
 *
 * Time: `now` is the SM's core cycle. The SM may skip dead cycles, so the
 * decay is applied lazily from the cycle count (the cap cannot change
 * while nothing issues). decay=inst instead counts one step per
 * decay_period instructions issued: scores then stand still while nothing
 * issues, so a barred warp whose CTA waits for it at a barrier may load
 * until it gets there.
 *
 * Writes: a global store removes its line from every VTA (vta_write).
 * Still different from the authors' code (docs/policies.md): a store miss does not push its set's
 * LRU line into a VTA; stale invalidated lines are not reinserted; barriers count in I.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "policies/args.h"
#include "policies/ccws_int.h"
#include "policies/series.h"
#include "policies/sched_builtin.h"
#include "policies/util.h"
#include "policies/warp_sched.h"

#define KEY_U(k, f, d, lo, hi, help) POL_KEY_UINT(k, struct ccws_opts, f, d, lo, hi, help)
#define KEY_W(k, f, d, words, help) POL_KEY_WORD(k, struct ccws_opts, f, d, words, help)

/* The options, in the order the trace writes them; adding one is one line. */
static const struct pol_arg ccws_args[] = {
    KEY_U("vta_entries", entries, 16, 1, 1u << 16, "VTA tags per warp"),
    KEY_U("vta_assoc", assoc, 8, 1, 1u << 16, "ways per VTA set; divides vta_entries"),
    KEY_W("vta_repl", repl, REPL_FIFO, "fifo|lru", "replacement within a VTA set"),
    KEY_U("k_throttle", k, 8, 0, UINT32_MAX, "K_THROTTLE of Eq. (1)"),
    KEY_U("base", base, 100, 1, 1u << 20, "the base locality score"),
    KEY_U("decay_period", decay_period, 1, 1, UINT32_MAX, "core cycles per point of decay"),
    KEY_W("boundary", boundary, BOUNDARY_BEFORE, "before|within", "the cutoff test"),
    KEY_W("tie", tie, TIE_SLOT, "age|slot", "ties in the score stack"),
    KEY_U("reclamp", reclamp, 1, 0, 1, "1: each decay step lowers scores to the LLDS"),
    KEY_W("reset", reset, RESET_LIVE, "live|idle|never", "what Eq. (1)'s counters cover"),
    KEY_W("decay", decay, DECAY_CYCLE, "cycle|inst", "the decay clock"),
    KEY_W("vta_write", vta_write, WRITE_INVALIDATE, "invalidate|keep", "stores and VTA entries"),
    KEY_U("series_cap", series_cap, 16384, 0, 1u << 24, "most points of the permitted series"),
    KEY_U("k_wsc", k_wsc, 8, 0, UINT32_MAX, "K of the warp-scheduler cutoff"),
    KEY_W("share", share, SHARE_SM, "sm|sched", "one point system per SM or per scheduler"),
    KEY_W("start", start, START_ZERO, "zero|base", "a recycled slot's first score"),
    KEY_W("vta_exit", vta_exit, VEXIT_KEEP, "keep|clear", "an exited warp's VTA"),
    KEY_W("evict_exited", evict_exited, EEXIT_INSERT, "insert|drop",
          "evictions of lines whose warp left"),
    KEY_W("merge", merge, MERGE_PROBE, "probe|ignore", "MSHR merges and the VTA"),
    KEY_W("vta_index", vta_index, INDEX_HASH, "hash|mod", "the VTA set index"),
    KEY_W("atomics", atomics, ATOMICS_HOLD, "hold|free", "global atomics under throttling"),
    KEY_W("evict_to", evict_to, EVICT_TO_SOURCE, "source|alloc", "whose VTA an eviction enters"),
    KEY_W("store_miss", store_miss, STORE_MISS_PROBE, "probe|ignore",
          "a store miss and the line the L1D's probe picks"),
};

static int check_opts(void *cfg, char *why, size_t len)
{
    const struct ccws_opts *o = cfg;

    if (o->entries % o->assoc)
        return snprintf(why, len, "vta_assoc=%u must divide vta_entries=%u", o->assoc, o->entries);
    return 0;
}

const struct pol_argspec pol_ccws_argspec =
    POL_ARGSPEC_KEYS(struct ccws_opts, ccws_args, check_opts);

/* ---------------------------------------------------------------- lifecycle */

static void core_destroy(struct ccws *c)
{
    if (!c)
        return;
    pol_ccws_vta_destroy(c->vta);
    free(c->w);
    free(c->rank);
    free(c->hist);
    pol_series_free(&c->series);
    free(c->src_line);
    free(c->src_slot);
    free(c);
}

static struct ccws *core_create(const struct ccws_opts *o, const struct pol_warp_sched_params *p)
{
    struct ccws *c = calloc(1, sizeof(*c));
    uint64_t cut = (uint64_t)p->max_warps * o->base;

    if (!c)
        return NULL;
    c->o = *o;
    c->sm = p->sm;
    pol_series_init(&c->series, sizeof(struct ccws_point), o->series_cap);
    c->max_warps = p->max_warps;
    /* A fresh core's cutoff counts every slot (write-up 5.1) until the first evaluation. */
    c->cut = cut > UINT32_MAX ? UINT32_MAX : (uint32_t)cut;
    c->w = calloc(p->max_warps, sizeof(*c->w));
    c->rank = calloc(p->max_warps, sizeof(*c->rank));
    c->hist = calloc((size_t)p->max_warps + 1, sizeof(*c->hist));
    if (o->evict_to == EVICT_TO_SOURCE) {
        c->src_line = calloc(CCWS_SRC_ENTRIES, sizeof(*c->src_line));
        c->src_slot = calloc(CCWS_SRC_ENTRIES, sizeof(*c->src_slot));
        if (!c->src_line || !c->src_slot) {
            core_destroy(c);
            return NULL;
        }
    }
    c->vta = pol_ccws_vta_create(p->max_warps, o->entries, o->assoc,
                                 o->repl == REPL_LRU ? POL_CCWS_VTA_LRU : POL_CCWS_VTA_FIFO);
    if (!c->w || !c->rank || !c->hist || !c->vta) {
        core_destroy(c);
        return NULL;
    }
    pol_ccws_vta_set_hashed(c->vta, o->vta_index == INDEX_HASH);
    return c;
}

static void ccws_destroy(void *st)
{
    struct ccws_sched *s = st;

    if (!s)
        return;
    if (s->c && --s->c->refs == 0) {
        if (s->c->home)
            *s->c->home = NULL;
        core_destroy(s->c);
    }
}

static void *ccws_create(const struct pol_warp_sched_params *p, struct ps_err *err)
{
    const struct ccws_opts o = *(const struct ccws_opts *)p->cfg;
    struct ccws_sched *s = p->state;
    bool share;

    if (!p->max_warps) {
        ps_err_set(err, PS_EINVAL, "warp scheduler ccws needs the SM's warp slot count");
        return NULL;
    }
    s->sched_id = p->sched_id;
    s->nsched = p->nsched ? p->nsched : 1;
    s->greedy_slot = POL_UTIL_NO_SLOT;
    share = o.share == SHARE_SM && p->sm_shared;
    if (share && *p->sm_shared) {
        s->c = *p->sm_shared;
    } else {
        s->c = core_create(&o, p);
        if (!s->c)
            goto oom;
        if (share) {
            *p->sm_shared = s->c;
            s->c->home = p->sm_shared;
        }
    }
    s->c->refs++;
    s->shared = share;
    return s;
oom:
    ccws_destroy(s); /* create.c frees s itself */
    ps_err_set(err, PS_ENOMEM, "out of memory creating warp scheduler ccws");
    return NULL;
}

/* ------------------------------------------------------------------- scores */

/*
 * Eq. (1) as the authors compute it, in float and truncated:
 * H / I x k x cutoff, with the counters as they stand and the last cutoff.
 */
static uint32_t points(const struct ccws *c, uint32_t k)
{
    uint64_t insts = c->st.llds_insts ? c->st.llds_insts : 1;
    float x = (float)c->st.llds_hits / (float)insts * (float)k * (float)c->cut;

    return x >= 4294967040.0f ? UINT32_MAX : (uint32_t)x;
}

/*
 * The authors' increment_score (write-up 5.3): add p, then a score at or
 * below the base becomes the base, and (reclamp=1) one above the cap
 * P(k_wsc) becomes the cap, which may be below the base.
 */
static void bump(struct ccws *c, struct ccws_warp *w, int64_t p)
{
    int64_t x = (int64_t)w->lls + p;

    if (x <= (int64_t)c->o.base)
        x = c->o.base;
    else if (c->o.reclamp) {
        uint32_t cap = points(c, c->o.k_wsc);

        if (x > (int64_t)cap)
            x = cap;
    }
    w->lls = x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
}

/* An L1D access by the warp: the authors' cache_access, which adds 0 points and clamps. */
static void touch(struct ccws *c, uint32_t slot)
{
    struct ccws_warp *w = &c->w[slot];

    if (!w->occupied)
        return;
    if (c->o.reclamp)
        bump(c, w, 0);
    else if (w->lls < c->o.base)
        w->lls = c->o.base;
}

/* steps decay steps of one point on a score above the base (reclamp=1: each re-capped). */
static uint32_t decayed(const struct ccws *c, uint32_t lls, uint64_t steps)
{
    uint32_t base = c->o.base, cap;

    if (lls <= base || !steps)
        return lls;
    if (!c->o.reclamp)
        return lls - base > steps ? lls - (uint32_t)steps : base;
    /* The first step may cap (the cap cannot change before the next call); the rest only decay. */
    cap = points(c, c->o.k_wsc);
    lls = lls - 1 <= base ? base : (lls - 1 > cap ? cap : lls - 1);
    steps--;
    if (lls <= base)
        return lls;
    return lls - base > steps ? lls - (uint32_t)steps : base;
}

/*
 * Applies the decay up to now: one point per decay_period cycles (decay=inst:
 * per decay_period instructions issued), down to the base.
 */
static void advance(struct ccws *c, uint64_t now)
{
    uint64_t steps;

    if (c->o.decay == DECAY_INST)
        now = c->st.issued;
    if (!c->anchored || now < c->decay_at) {
        c->anchored = true;
        c->decay_at = now;
        return;
    }
    steps = (now - c->decay_at) / c->o.decay_period;
    if (!steps)
        return;
    c->decay_at += steps * c->o.decay_period;
    for (uint32_t i = 0; i < c->max_warps; i++)
        if (c->w[i].occupied)
            c->w[i].lls = decayed(c, c->w[i].lls, steps);
}

/* A new warp in the slot: base score (start=zero: 0 in a slot used before), permitted. */
static void arrive(struct ccws *c, uint32_t slot)
{
    struct ccws_warp *w = &c->w[slot];
    bool used = w->used;

    *w = (struct ccws_warp){.occupied = true, .permitted = true, .used = true};
    w->lls = c->o.start == START_ZERO && used ? 0 : c->o.base;
    if (c->o.vta_exit == VEXIT_CLEAR)
        pol_ccws_vta_clear(c->vta, slot);
}

/* The warp leaves: with reset=live its counts leave Eq. (1)'s totals (write-up 6). */
static void leave(struct ccws *c, uint32_t slot)
{
    struct ccws_warp *w = &c->w[slot];

    if (c->o.reset == RESET_LIVE) {
        c->st.llds_hits -= w->hits <= c->st.llds_hits ? w->hits : c->st.llds_hits;
        c->st.llds_insts -= w->issued <= c->st.llds_insts ? w->issued : c->st.llds_insts;
    }
    *w = (struct ccws_warp){.used = true};
    if (c->o.vta_exit == VEXIT_CLEAR)
        pol_ccws_vta_clear(c->vta, slot);
}

static void vta_hit(struct ccws *c, uint32_t slot)
{
    struct ccws_warp *w = &c->w[slot];
    uint32_t p;

    c->st.vta_hits++;
    c->st.llds_hits++;
    w->hits++;
    p = points(c, c->o.k);
    c->st.llds = p;
    if (c->o.reclamp)
        bump(c, w, p);
    else
        w->lls = p > c->o.base ? p : c->o.base;
}

/* ---------------------------------------------------------------- the stack */

/* Does slot a rank before slot b in the score stack? */
static bool ranks_before(const struct ccws *c, uint32_t a, uint32_t b)
{
    const struct ccws_warp *x = &c->w[a], *y = &c->w[b];

    if (x->lls != y->lls)
        return x->lls > y->lls;
    if (c->o.tie == TIE_AGE && x->age_known && y->age_known && x->age != y->age)
        return x->age < y->age;
    return a < b;
}

static void sort_by_score(const struct ccws *c, uint32_t *slots, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = slots[i], j = i;

        while (j > 0 && ranks_before(c, x, slots[j - 1])) {
            slots[j] = slots[j - 1];
            j--;
        }
        slots[j] = x;
    }
}

/*
 * Takes the views' warps in: a slot the events did not announce, or a new
 * age, is a new warp; a view that is not valid marks its warp finished.
 */
static void sync_slots(struct ccws *c, const struct pol_warp_view *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const struct pol_warp_view *x = &v[i];
        struct ccws_warp *w;

        if (x->slot >= c->max_warps)
            continue;
        w = &c->w[x->slot];
        if (!x->valid) {
            w->done = w->occupied;
            continue;
        }
        if (!w->occupied || (w->age_known && w->age != x->age)) {
            if (w->occupied)
                leave(c, x->slot);
            arrive(c, x->slot);
        }
        w->done = false;
        w->age = x->age;
        w->age_known = true;
    }
}

/*
 * With decay=inst the scores stand still while nothing issues, so a barred
 * warp whose CTA-mates wait for it at a barrier would wait for ever: such
 * warps may load until they reach the barrier (as swl lets them run,
 * oracle 13). Only this call's views (one scheduler's warps) are seen.
 */
static void release_barrier_mates(struct ccws *c, const struct pol_warp_view *v,
                                  const uint32_t *idx, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const struct pol_warp_view *x = &v[idx[i]];
        struct ccws_warp *w = &c->w[x->slot];

        if (w->permitted || x->at_barrier)
            continue;
        for (uint32_t j = 0; j < n; j++)
            if (v[idx[j]].at_barrier && v[idx[j]].cta == x->cta) {
                w->permitted = true;
                c->st.permitted++;
                c->st.barrier_released++;
                break;
            }
    }
}

/*
 * The exclusive list (write-up 5.5): the active warps by score, taken until
 * the sum reaches the last cycle's cutoff; the warp that reaches it is on
 * the list ("boundary=within": only while the sum including it stays at or
 * below). Off the list means barred from loads; if the sum never reaches
 * the cutoff nobody is. Then the cutoff becomes active x base.
 */
static void evaluate(struct ccws *c, uint64_t now)
{
    uint64_t prefix = 0, cut = c->cut, next;
    uint32_t n = 0, permitted = 0;

    for (uint32_t i = 0; i < c->max_warps; i++)
        if (c->w[i].occupied && !c->w[i].done)
            c->rank[n++] = i;
    sort_by_score(c, c->rank, n);
    for (uint32_t i = 0; i < n; i++) {
        struct ccws_warp *w = &c->w[c->rank[i]];
        uint64_t with = prefix + w->lls;

        w->permitted = c->o.boundary == BOUNDARY_WITHIN ? with <= cut : prefix < cut;
        permitted += w->permitted;
        prefix = with;
    }
    c->st.active = n;
    c->st.permitted = permitted;
    c->st.cutoff = (uint32_t)cut;
    next = (uint64_t)n * c->o.base;
    c->cut = next < 1 ? 1 : next > UINT32_MAX ? UINT32_MAX : (uint32_t)next;
    c->evaluated = true;
    c->eval_at = now;
}

/* ------------------------------------------------------------------ the ops */

static uint32_t ccws_order(void *st, const struct pol_warp_view *v, uint32_t n, uint32_t *order,
                           uint64_t now)
{
    struct ccws_sched *s = st;
    struct ccws *c = s->c;
    uint32_t k = 0;

    for (uint32_t i = 0; i < n; i++)
        if (v[i].valid && v[i].slot < c->max_warps)
            order[k++] = i;
    advance(c, now);
    sync_slots(c, v, n);
    /* Once per core cycle, by whichever of the SM's schedulers asks first. */
    if (!s->shared || !c->evaluated || c->eval_at != now) {
        evaluate(c, now);
        pol_ccws_record(c, now);
    }
    /* Each scheduler frees its own barred barrier-mates (it alone sees their views). */
    if (c->o.decay == DECAY_INST)
        release_barrier_mates(c, v, order, k);
    pol_util_sort_age(order, k, v);
    pol_util_greedy_first(order, k, v, s->greedy_slot, s->greedy_age);
    return k;
}

static bool ccws_may_issue(void *st, const struct pol_warp_view *w, const struct pol_instr_view *in)
{
    struct ccws_sched *s = st;
    struct ccws *c = s->c;
    bool held = in && (in->is_load || (in->is_atomic && c->o.atomics == ATOMICS_HOLD));

    if (!held || w->slot >= c->max_warps || c->w[w->slot].permitted)
        return true;
    c->st.loads_held++;
    return false;
}

static void ccws_on_issue(void *st, const struct pol_warp_view *w, uint64_t now)
{
    struct ccws_sched *s = st;
    struct ccws *c = s->c;

    s->greedy_slot = w->slot;
    s->greedy_age = w->age;
    c->st.issued++;
    c->st.llds_insts++;
    if (w->slot < c->max_warps)
        c->w[w->slot].issued++;
    if (c->o.decay == DECAY_INST)
        advance(c, now);
}

static void ccws_on_event(void *st, enum pol_warp_event e, uint32_t slot, uint64_t now)
{
    struct ccws_sched *s = st;
    struct ccws *c = s->c;

    if (slot >= c->max_warps)
        return;
    advance(c, now);
    if (e == POL_WARP_LAUNCHED) {
        if (c->o.reset == RESET_IDLE && !c->resident)
            c->st.llds_hits = c->st.llds_insts = 0;
        c->resident++;
        if (c->w[slot].occupied)
            leave(c, slot);
        arrive(c, slot);
    } else if (e == POL_WARP_EXITED) {
        c->resident -= c->resident > 0;
        leave(c, slot);
        /* The SM ran dry: the authors' kernel-end L1D flush empties every VTA. */
        if (!c->resident && c->o.vta_exit == VEXIT_KEEP)
            for (uint32_t i = 0; i < c->max_warps; i++)
                pol_ccws_vta_clear(c->vta, i);
    }
}

/* The line's entry in the source table. */
static uint32_t src_index(uint64_t line)
{
    return (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 52) & (CCWS_SRC_ENTRIES - 1);
}

/* slot missed or merged on line: it becomes the line's source warp (write-up 4). */
static void set_source(struct ccws *c, uint32_t slot, uint64_t line)
{
    uint32_t i;

    if (!c->src_line)
        return;
    i = src_index(line);
    c->src_line[i] = line + 1;
    c->src_slot[i] = (uint16_t)slot;
}

/*
 * A line leaves the L1D: into the VTA of its source slot, the last that
 * missed or merged on it (evict_to=source, the authors), else of the slot
 * that allocated it.
 */
static void evicted(struct ccws *c, uint32_t slot, uint64_t line, bool exited)
{
    uint32_t i = src_index(line);

    if (c->src_line && c->src_line[i] == line + 1) {
        c->src_line[i] = 0;
        if (c->src_slot[i] != slot) {
            slot = c->src_slot[i];
            exited = false;
            c->st.evict_redirected++;
        }
    }
    if ((exited || !c->w[slot].occupied) && c->o.evict_exited == EEXIT_DROP) {
        c->st.evict_dropped++;
        return;
    }
    pol_ccws_vta_insert(c->vta, slot, line);
    c->st.vta_inserts++;
}

static void ccws_on_mem(void *st, enum pol_mem_event e, uint32_t slot, uint64_t line, uint64_t now)
{
    struct ccws_sched *s = st;
    struct ccws *c = s->c;

    if (slot >= c->max_warps)
        return;
    advance(c, now);
    if (e == POL_MEM_L1_MERGE)
        e = c->o.merge == MERGE_PROBE ? POL_MEM_L1_MISS : POL_MEM_L1_HIT;
    switch (e) {
    case POL_MEM_L1_HIT:
        c->st.l1_hits++;
        touch(c, slot);
        break;
    case POL_MEM_L1_EVICT_EXITED:
    case POL_MEM_L1_EVICT:
        evicted(c, slot, line, e == POL_MEM_L1_EVICT_EXITED);
        break;
    case POL_MEM_L1_WRITE: /* write-evict: the line is nobody's to lose any more */
        /* Every scheduler of the SM hears of a store: a shared point system takes it once. */
        if (s->shared && slot % s->nsched != s->sched_id)
            break;
        c->st.writes++;
        if (c->o.vta_write == WRITE_INVALIDATE)
            c->st.vta_write_invalidated += pol_ccws_vta_invalidate(c->vta, line);
        touch(c, slot);
        break;
    case POL_MEM_L1_STORE_VICTIM: /* the picked line goes to its source's VTA, and stays */
        if (c->o.store_miss == STORE_MISS_PROBE) {
            c->st.store_victims++;
            evicted(c, slot, line, false);
        }
        break;
    case POL_MEM_L1_STORE_MISS: /* the storing warp becomes the picked line's source */
        if (c->o.store_miss == STORE_MISS_PROBE && c->w[slot].occupied) {
            set_source(c, slot, line);
            touch(c, slot);
        }
        break;
    case POL_MEM_L1_MISS:
        if (!c->w[slot].occupied)
            break;
        c->st.vta_probes++;
        set_source(c, slot, line);
        if (pol_ccws_vta_probe(c->vta, slot, line))
            vta_hit(c, slot);
        touch(c, slot);
        break;
    default: /* kinds added later */
        break;
    }
}

const struct pol_warp_sched_ops pol_ws_ccws = {
    .name = "ccws",
    .argspec = &pol_ccws_argspec,
    .state_size = sizeof(struct ccws_sched),
    .create = ccws_create,
    .destroy = ccws_destroy,
    .order = ccws_order,
    .may_issue = ccws_may_issue,
    .on_issue = ccws_on_issue,
    .on_event = ccws_on_event,
    .on_mem = ccws_on_mem,
    .dump = pol_ccws_dump,
};
