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

#include "policies/ccws_int.h"
#include "policies/sched_builtin.h"
#include "policies/util.h"
#include "policies/warp_sched.h"

static const struct ccws_opts defaults = {
    .entries = 16,
    .assoc = 8,
    .repl = REPL_FIFO,
    .k = 8,
    .base = 100,
    .decay_period = 1,
    .boundary = BOUNDARY_BEFORE,
    .tie = TIE_SLOT,
    .reclamp = 1,
    .reset = RESET_LIVE,
    .decay = DECAY_CYCLE,
    .vta_write = WRITE_INVALIDATE,
    .series_cap = 16384,
    .k_wsc = 8,
    .share = SHARE_SM,
    .start = START_ZERO,
    .vta_exit = VEXIT_KEEP,
    .evict_exited = EEXIT_INSERT,
    .merge = MERGE_PROBE,
    .vta_index = INDEX_HASH,
    .atomics = ATOMICS_HOLD,
    .evict_to = EVICT_TO_SOURCE,
};

static const char *const repl_words[] = {"fifo", "lru", NULL};
static const char *const boundary_words[] = {"before", "within", NULL};
static const char *const tie_words[] = {"age", "slot", NULL};
static const char *const reset_words[] = {"live", "idle", "never", NULL};
static const char *const decay_words[] = {"cycle", "inst", NULL};
static const char *const write_words[] = {"invalidate", "keep", NULL};
static const char *const share_words[] = {"sm", "sched", NULL};
static const char *const start_words[] = {"zero", "base", NULL};
static const char *const vexit_words[] = {"keep", "clear", NULL};
static const char *const eexit_words[] = {"insert", "drop", NULL};
static const char *const merge_words[] = {"probe", "ignore", NULL};
static const char *const index_words[] = {"hash", "mod", NULL};
static const char *const atomics_words[] = {"hold", "free", NULL};
static const char *const evict_to_words[] = {"source", "alloc", NULL};

#define OPT(f) offsetof(struct ccws_opts, f)

const struct ccws_key pol_ccws_keys[] = {
    {"vta_entries", OPT(entries), 1, 1u << 16, NULL},
    {"vta_assoc", OPT(assoc), 1, 1u << 16, NULL},
    {"vta_repl", OPT(repl), 0, 0, repl_words},
    {"k_throttle", OPT(k), 0, UINT32_MAX, NULL},
    {"base", OPT(base), 1, 1u << 20, NULL},
    {"decay_period", OPT(decay_period), 1, UINT32_MAX, NULL},
    {"boundary", OPT(boundary), 0, 0, boundary_words},
    {"tie", OPT(tie), 0, 0, tie_words},
    {"reclamp", OPT(reclamp), 0, 1, NULL},
    {"reset", OPT(reset), 0, 0, reset_words},
    {"decay", OPT(decay), 0, 0, decay_words},
    {"vta_write", OPT(vta_write), 0, 0, write_words},
    {"series_cap", OPT(series_cap), 0, 1u << 24, NULL},
    {"k_wsc", OPT(k_wsc), 0, UINT32_MAX, NULL},
    {"share", OPT(share), 0, 0, share_words},
    {"start", OPT(start), 0, 0, start_words},
    {"vta_exit", OPT(vta_exit), 0, 0, vexit_words},
    {"evict_exited", OPT(evict_exited), 0, 0, eexit_words},
    {"merge", OPT(merge), 0, 0, merge_words},
    {"vta_index", OPT(vta_index), 0, 0, index_words},
    {"atomics", OPT(atomics), 0, 0, atomics_words},
    {"evict_to", OPT(evict_to), 0, 0, evict_to_words},
};

const size_t pol_ccws_nkeys = sizeof(pol_ccws_keys) / sizeof(pol_ccws_keys[0]);

/* ------------------------------------------------------------------ options */

static int bad_args(const char *args, struct ps_err *err, const char *why, size_t len,
                    const char *what)
{
    return ps_err_set(err, PS_EINVAL, "bad warp scheduler arguments 'ccws:%s': %s '%.*s'", args,
                      why, (int)len, what);
}

static int unknown_key(const char *args, const char *k, size_t klen, struct ps_err *err)
{
    char known[256];
    size_t used = 0;

    known[0] = '\0';
    for (size_t i = 0; i < pol_ccws_nkeys && used < sizeof(known); i++) {
        int n = snprintf(known + used, sizeof(known) - used, "%s%s", i ? ", " : "",
                         pol_ccws_keys[i].name);

        if (n > 0)
            used += (size_t)n;
    }
    return ps_err_set(err, PS_EINVAL,
                      "bad warp scheduler arguments 'ccws:%s': unknown option '%.*s' (known: %s)",
                      args, (int)klen, k, known);
}

/* Reads val[0..len) as the key's value into *out; false when it is not one. */
static bool parse_value(const struct ccws_key *k, const char *val, size_t len, uint32_t *out)
{
    uint64_t x = 0;

    if (k->words) {
        for (uint32_t i = 0; k->words[i]; i++)
            if (strlen(k->words[i]) == len && memcmp(k->words[i], val, len) == 0) {
                *out = i;
                return true;
            }
        return false;
    }
    if (!len || len > 10)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (val[i] < '0' || val[i] > '9')
            return false;
        x = x * 10 + (uint64_t)(val[i] - '0');
    }
    if (x < k->min || x > k->max)
        return false;
    *out = (uint32_t)x;
    return true;
}

static int bad_value(const char *args, const struct ccws_key *k, const char *item, size_t len,
                     struct ps_err *err)
{
    char want[96];
    size_t used = 0;

    want[0] = '\0';
    for (uint32_t i = 0; k->words && k->words[i] && used < sizeof(want); i++) {
        int n = snprintf(want + used, sizeof(want) - used, "%s%s", i ? "|" : "", k->words[i]);

        if (n > 0)
            used += (size_t)n;
    }
    if (!k->words)
        snprintf(want, sizeof(want), "a whole number from %u to %u", k->min, k->max);
    return ps_err_set(err, PS_EINVAL,
                      "bad warp scheduler arguments 'ccws:%s': bad value in '%.*s' (expected %s)",
                      args, (int)len, item, want);
}

/* One "key=value" of len bytes at item. */
static int parse_item(struct ccws_opts *o, const char *args, const char *item, size_t len,
                      struct ps_err *err)
{
    const char *eq = memchr(item, '=', len);
    size_t klen;

    if (!eq)
        return bad_args(args, err, "expected key=value, got", len, item);
    klen = (size_t)(eq - item);
    for (size_t i = 0; i < pol_ccws_nkeys; i++) {
        const struct ccws_key *k = &pol_ccws_keys[i];

        if (strlen(k->name) != klen || memcmp(k->name, item, klen) != 0)
            continue;
        if (!parse_value(k, eq + 1, len - klen - 1, (uint32_t *)((char *)o + k->off)))
            return bad_value(args, k, item, len, err);
        return 0;
    }
    return unknown_key(args, item, klen, err);
}

static int parse_opts(struct ccws_opts *o, const char *args, struct ps_err *err)
{
    const char *p;

    args = args ? args : "";
    p = args;
    *o = defaults;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);

        if (parse_item(o, args, p, len, err) < 0)
            return PS_EINVAL;
        p += len + (comma ? 1 : 0);
        if (comma && !*p)
            return bad_args(args, err, "expected key=value after", 1, ",");
    }
    if (o->entries % o->assoc)
        return ps_err_set(
            err, PS_EINVAL,
            "bad warp scheduler arguments 'ccws:%s': vta_assoc=%u must divide vta_entries=%u", args,
            o->assoc, o->entries);
    return 0;
}

/* ---------------------------------------------------------------- lifecycle */

static void core_destroy(struct ccws *c)
{
    if (!c)
        return;
    pol_ccws_vta_destroy(c->vta);
    free(c->w);
    free(c->rank);
    free(c->hist);
    free(c->series);
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
    free(s);
}

static void *ccws_create(const struct pol_warp_sched_params *p, struct ps_err *err)
{
    struct ccws_opts o;
    struct ccws_sched *s;
    bool share;

    if (parse_opts(&o, p->args, err) < 0)
        return NULL;
    if (!p->max_warps) {
        ps_err_set(err, PS_EINVAL, "warp scheduler ccws needs the SM's warp slot count");
        return NULL;
    }
    s = calloc(1, sizeof(*s));
    if (!s)
        goto oom;
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
    ccws_destroy(s);
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
    .create = ccws_create,
    .destroy = ccws_destroy,
    .order = ccws_order,
    .may_issue = ccws_may_issue,
    .on_issue = ccws_on_issue,
    .on_event = ccws_on_event,
    .on_mem = ccws_on_mem,
    .dump = pol_ccws_dump,
};
