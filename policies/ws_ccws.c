/*
 * Cache-conscious wavefront scheduling, "ccws" (Rogers, O'Connor, Aamodt,
 * MICRO 2012; seed 004 sections 3.2-3.9, oracles 14-27 and 32).
 *
 * Lost-locality detection: every warp slot has a victim tag array
 * (policies/ccws_vta.c). An L1D eviction puts the line into the VTA of the
 * warp that allocated it (POL_MEM_L1_EVICT carries that warp); an L1D miss
 * probes the missing warp's own VTA (POL_MEM_L1_MISS), and a hit is a VTA
 * hit for that warp. Every request counts, so one uncoalesced load can make
 * several VTA hits (oracle 32).
 *
 * Scoring: a warp arriving in a slot has the base score (100). A VTA hit
 * sets the warp's lost-locality score to max(base, LLDS), Eq. (1):
 *
 *     LLDS = VTAHits_Total / InstIssued_Total * K_THROTTLE * CumLLSCutoff
 *
 * with CumLLSCutoff = active warps * base, so a second hit at the same
 * ratio does not raise the score further (the paper's cap at LLDS; seed
 * ambiguity 2). Every cycle each score above the base drops by one point
 * (one point per decay_period cycles), never below the base. The counters
 * are running totals, reset when a warp arrives at a scheduler that had no
 * warps (the start of a kernel on this SM; ambiguity 5).
 *
 * Throttling: the active warps sorted by score, highest first (ties: older
 * first), and summed; a warp may issue global and local loads only while
 * the sum of the scores ranked before it is below the cutoff (the authors'
 * boundary rule, ambiguity 3; "boundary=within" asks instead that the sum
 * including it stays at or below the cutoff). Everything else issues
 * freely (ambiguity 7). The issue order underneath is greedy then oldest,
 * exactly as "gto", so with no VTA hits the two issue identically (oracle
 * 14). The SM issues the first warp in that order that is ready and that
 * may_issue allows (the paper's intersection logic, oracle 24).
 *
 * Time: `now` is the SM's core cycle, one warp issue per scheduler per
 * cycle, the authors' (and seed 004's recommended) decay clock. The SM may
 * skip dead cycles, so decay is applied lazily from the cycle count at each
 * call. Each scheduler of an SM runs its own instance over its own warps
 * (as swl does): with one scheduler per SM, as in the paper, that is the
 * per-core mechanism exactly.
 *
 * decay=inst instead counts one decay step per decay_period instructions
 * this scheduler issues (seed ambiguity 1 asks for a configurable decay
 * clock): on a memory-bound SM that issues a few instructions per hundred
 * cycles, a throttling episode then outlives a load's round trip. Scores
 * stand still while nothing issues, so a barred warp whose CTA waits for it
 * at a barrier may load until it gets there.
 *
 * Writes: a global store to a line removes it from every warp's VTA
 * (write-evict; the authors' code, oracle 31); vta_write=keep ignores
 * stores. An eviction of a line whose allocating warp has since left the
 * slot (POL_MEM_L1_EVICT_EXITED, the SM compares the line's allocation
 * cycle with the slot's current warp) goes into no VTA.
 *
 * Options ("ccws:key=value,key=value"; defaults are the paper's Table 3):
 * vta_entries=16, vta_assoc=8, vta_repl=fifo|lru, k_throttle=8, base=100,
 * decay_period=1, boundary=before|within, tie=age|slot, reclamp=0|1 (the
 * authors' code also clamps every score to the current LLDS at each decay
 * step), reset=idle|never, decay=cycle|inst, vta_write=invalidate|keep,
 * series_cap=16384.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "policies/args.h"
#include "policies/ccws_vta.h"
#include "policies/sched_builtin.h"
#include "policies/series.h"
#include "policies/util.h"
#include "policies/warp_sched.h"
#include "policies/ws_ccws.h"

enum { REPL_FIFO, REPL_LRU };
enum { BOUNDARY_BEFORE, BOUNDARY_WITHIN };
enum { TIE_AGE, TIE_SLOT };
enum { RESET_IDLE, RESET_NEVER };
enum { DECAY_CYCLE, DECAY_INST };
enum { WRITE_INVALIDATE, WRITE_KEEP };

/* Every option is a uint32_t; words-valued ones hold the index of the word. */
struct ccws_opts {
    uint32_t entries, assoc, repl, k, base, decay_period, boundary, tie, reclamp, reset;
    uint32_t decay, vta_write;
    uint32_t series_cap;
};

#define KEY_U(k, f, d, lo, hi, help) POL_KEY_UINT(k, struct ccws_opts, f, d, lo, hi, help)
#define KEY_W(k, f, d, words, help) POL_KEY_WORD(k, struct ccws_opts, f, d, words, help)

/* The defaults are the paper's Table 3. */
static const struct pol_arg keys[] = {
    KEY_U("vta_entries", entries, 16, 1, 1u << 16, "VTA tags per warp"),
    KEY_U("vta_assoc", assoc, 8, 1, 1u << 16, "ways per VTA set; divides vta_entries"),
    KEY_W("vta_repl", repl, REPL_FIFO, "fifo|lru", "replacement within a VTA set"),
    KEY_U("k_throttle", k, 8, 0, UINT32_MAX, "K_THROTTLE of Eq. (1)"),
    KEY_U("base", base, 100, 1, 1u << 20, "the base locality score"),
    KEY_U("decay_period", decay_period, 1, 1, UINT32_MAX, "core cycles per point of decay"),
    KEY_W("boundary", boundary, BOUNDARY_BEFORE, "before|within", "the cutoff test"),
    KEY_W("tie", tie, TIE_AGE, "age|slot", "ties in the score stack"),
    KEY_U("reclamp", reclamp, 0, 0, 1, "1: each decay step lowers scores to the LLDS"),
    KEY_W("reset", reset, RESET_IDLE, "idle|never", "when Eq. (1)'s counters restart"),
    KEY_W("decay", decay, DECAY_CYCLE, "cycle|inst", "the decay clock"),
    KEY_W("vta_write", vta_write, WRITE_INVALIDATE, "invalidate|keep", "stores and VTA entries"),
    KEY_U("series_cap", series_cap, 16384, 0, 1u << 24, "most points of the permitted series"),
};

static int check_opts(void *cfg, char *why, size_t len)
{
    const struct ccws_opts *o = cfg;

    if (o->entries % o->assoc)
        return snprintf(why, len, "vta_assoc=%u must divide vta_entries=%u", o->assoc, o->entries);
    return 0;
}

static const struct pol_argspec ccws_spec = POL_ARGSPEC_KEYS(struct ccws_opts, keys, check_opts);

struct ccws_warp {
    bool occupied;  /* a warp is in the slot */
    bool age_known; /* its age has been seen in a view */
    bool permitted; /* may issue global/local loads this cycle */
    uint64_t age;
    uint32_t lls; /* lost-locality score */
};

struct ccws_point {
    uint64_t cycle;
    uint32_t active, permitted;
};

struct ccws {
    struct ccws_opts o;
    uint32_t sm, sched_id, max_warps;
    struct ccws_warp *w; /* [max_warps], by slot */
    struct pol_ccws_vta *vta;
    uint32_t *rank; /* scratch: view indices by score */
    uint32_t greedy_slot;
    uint64_t greedy_age;
    uint32_t resident; /* warps in this scheduler's slots, from the events */
    bool anchored;     /* decay_at is meaningful */
    uint64_t decay_at; /* decay has been applied up to this cycle (decay=inst: instruction) */
    struct pol_ccws_stats st;
    uint64_t *hist;           /* [max_warps + 1]: cycles by permitted count */
    struct pol_series series; /* ccws_points: the changes of (active, permitted), oldest first */
    uint32_t last_active, last_permitted; /* as of the last cycle */
};

/* ---------------------------------------------------------------- lifecycle */

static void ccws_destroy(void *st)
{
    struct ccws *s = st;

    if (!s)
        return;
    pol_ccws_vta_destroy(s->vta);
    free(s->w);
    free(s->rank);
    free(s->hist);
    pol_series_free(&s->series);
}

static void *ccws_create(const struct pol_warp_sched_params *p, struct ps_err *err)
{
    const struct ccws_opts o = *(const struct ccws_opts *)p->cfg;
    struct ccws *s;

    if (!p->max_warps) {
        ps_err_set(err, PS_EINVAL, "warp scheduler ccws needs the SM's warp slot count");
        return NULL;
    }
    s = p->state;
    s->o = o;
    s->sm = p->sm;
    s->sched_id = p->sched_id;
    s->max_warps = p->max_warps;
    s->greedy_slot = POL_UTIL_NO_SLOT;
    pol_series_init(&s->series, sizeof(struct ccws_point), o.series_cap);
    s->w = calloc(p->max_warps, sizeof(*s->w));
    s->rank = calloc(p->max_warps, sizeof(*s->rank));
    s->hist = calloc((size_t)p->max_warps + 1, sizeof(*s->hist));
    s->vta = pol_ccws_vta_create(p->max_warps, o.entries, o.assoc,
                                 o.repl == REPL_LRU ? POL_CCWS_VTA_LRU : POL_CCWS_VTA_FIFO);
    if (!s->w || !s->rank || !s->hist || !s->vta)
        goto oom;
    return s;
oom:
    ccws_destroy(s); /* create.c frees s itself */
    ps_err_set(err, PS_ENOMEM, "out of memory creating warp scheduler ccws");
    return NULL;
}

/* ------------------------------------------------------------------- scores */

static uint32_t cutoff(const struct ccws *s)
{
    uint64_t c = (uint64_t)s->st.active * s->o.base;

    return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

/* Eq. (1) with the counters as they stand; the cutoff is the last cycle's. */
static uint32_t llds(const struct ccws *s)
{
    uint64_t insts = s->st.llds_insts ? s->st.llds_insts : 1;
    unsigned __int128 x = (unsigned __int128)s->st.llds_hits * s->o.k * cutoff(s) / insts;

    return x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
}

static void reclamp(struct ccws *s)
{
    uint32_t cap = llds(s);

    if (cap < s->o.base)
        cap = s->o.base;
    for (uint32_t i = 0; i < s->max_warps; i++)
        if (s->w[i].occupied && s->w[i].lls > cap)
            s->w[i].lls = cap;
}

/*
 * Applies the decay up to now: one point per decay_period cycles (decay=inst:
 * per decay_period instructions issued by this scheduler), down to the base.
 */
static void advance(struct ccws *s, uint64_t now)
{
    uint64_t steps;

    if (s->o.decay == DECAY_INST)
        now = s->st.issued;
    if (!s->anchored || now < s->decay_at) {
        s->anchored = true;
        s->decay_at = now;
        return;
    }
    steps = (now - s->decay_at) / s->o.decay_period;
    if (!steps)
        return;
    s->decay_at += steps * s->o.decay_period;
    for (uint32_t i = 0; i < s->max_warps; i++) {
        struct ccws_warp *w = &s->w[i];

        if (!w->occupied || w->lls <= s->o.base)
            continue;
        w->lls = w->lls - s->o.base > steps ? w->lls - (uint32_t)steps : s->o.base;
    }
    if (s->o.reclamp)
        reclamp(s);
}

/* A new warp in the slot: base score, empty VTA, permitted. */
static void arrive(struct ccws *s, uint32_t slot)
{
    struct ccws_warp *w = &s->w[slot];

    w->occupied = true;
    w->age_known = false;
    w->permitted = true;
    w->lls = s->o.base;
    pol_ccws_vta_clear(s->vta, slot);
}

static void vta_hit(struct ccws *s, uint32_t slot)
{
    uint32_t l;

    s->st.vta_hits++;
    s->st.llds_hits++;
    l = llds(s);
    s->st.llds = l;
    s->w[slot].lls = l > s->o.base ? l : s->o.base;
}

/* ---------------------------------------------------------------- the stack */

/* Does view a rank before view b in the score stack? */
static bool ranks_before(const struct ccws *s, const struct pol_warp_view *a,
                         const struct pol_warp_view *b)
{
    uint32_t la = s->w[a->slot].lls, lb = s->w[b->slot].lls;

    if (la != lb)
        return la > lb;
    if (s->o.tie == TIE_AGE && a->age != b->age)
        return a->age < b->age;
    return a->slot < b->slot;
}

static void sort_by_score(const struct ccws *s, uint32_t *idx, uint32_t n,
                          const struct pol_warp_view *v)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = idx[i], j = i;

        while (j > 0 && ranks_before(s, &v[x], &v[idx[j - 1]])) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = x;
    }
}

/* Takes the views' warps in: a slot the events did not announce, or a new age, is a new warp. */
static void sync_slots(struct ccws *s, const struct pol_warp_view *v, const uint32_t *idx,
                       uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const struct pol_warp_view *x = &v[idx[i]];
        struct ccws_warp *w;

        if (x->slot >= s->max_warps)
            continue;
        w = &s->w[x->slot];
        if (!w->occupied || (w->age_known && w->age != x->age))
            arrive(s, x->slot);
        w->age = x->age;
        w->age_known = true;
    }
}

/* The cycle's counters, and a point of the series when the active or permitted count changed. */
static void record(struct ccws *s, uint64_t now)
{
    struct ccws_point *p;

    s->st.cycles++;
    s->st.active_sum += s->st.active;
    s->st.permitted_sum += s->st.permitted;
    s->st.throttled_cycles += s->st.permitted < s->st.active;
    s->hist[s->st.permitted <= s->max_warps ? s->st.permitted : s->max_warps]++;
    if (s->st.cycles > 1 && s->last_active == s->st.active && s->last_permitted == s->st.permitted)
        return;
    s->last_active = s->st.active;
    s->last_permitted = s->st.permitted;
    p = pol_series_add(&s->series);
    if (p) /* else counted as dropped */
        *p = (struct ccws_point){now, s->st.active, s->st.permitted};
}

/*
 * With decay=inst the scores stand still while nothing issues, so a barred
 * warp whose CTA-mates wait for it at a barrier would wait for ever: such
 * warps may load until they reach the barrier (as swl lets them run,
 * oracle 13). Returns how many warps this permitted.
 */
static uint32_t release_barrier_mates(struct ccws *s, const struct pol_warp_view *v,
                                      const uint32_t *idx, uint32_t n)
{
    uint32_t freed = 0;

    for (uint32_t i = 0; i < n; i++) {
        const struct pol_warp_view *x = &v[idx[i]];
        struct ccws_warp *w = &s->w[x->slot];

        if (w->permitted || x->at_barrier)
            continue;
        for (uint32_t j = 0; j < n; j++)
            if (v[idx[j]].at_barrier && v[idx[j]].cta == x->cta) {
                w->permitted = true;
                freed++;
                s->st.barrier_released++;
                break;
            }
    }
    return freed;
}

/* The cutoff test: which of the n warps in idx may load this cycle. */
static void cutoff_test(struct ccws *s, const struct pol_warp_view *v, const uint32_t *idx,
                        uint32_t n, uint64_t now)
{
    uint64_t prefix = 0, cut;
    uint32_t permitted = 0;

    s->st.active = n;
    cut = cutoff(s);
    memcpy(s->rank, idx, n * sizeof(*idx));
    sort_by_score(s, s->rank, n, v);
    for (uint32_t i = 0; i < n; i++) {
        struct ccws_warp *w = &s->w[v[s->rank[i]].slot];
        uint64_t with = prefix + w->lls;

        w->permitted = s->o.boundary == BOUNDARY_WITHIN ? with <= cut : prefix < cut;
        permitted += w->permitted;
        prefix = with;
    }
    if (s->o.decay == DECAY_INST)
        permitted += release_barrier_mates(s, v, idx, n);
    s->st.permitted = permitted;
    s->st.cutoff = (uint32_t)cut;
    record(s, now);
}

/* ------------------------------------------------------------------ the ops */

static uint32_t ccws_order(void *st, const struct pol_warp_view *v, uint32_t n, uint32_t *order,
                           uint64_t now)
{
    struct ccws *s = st;
    uint32_t k = 0;

    for (uint32_t i = 0; i < n; i++)
        if (v[i].valid && v[i].slot < s->max_warps)
            order[k++] = i;
    advance(s, now);
    sync_slots(s, v, order, k);
    cutoff_test(s, v, order, k, now);
    pol_util_sort_age(order, k, v);
    pol_util_greedy_first(order, k, v, s->greedy_slot, s->greedy_age);
    return k;
}

static bool ccws_may_issue(void *st, const struct pol_warp_view *w, const struct pol_instr_view *in)
{
    struct ccws *s = st;

    if (!in || !in->is_load || w->slot >= s->max_warps || s->w[w->slot].permitted)
        return true;
    s->st.loads_held++;
    return false;
}

static void ccws_on_issue(void *st, const struct pol_warp_view *w, uint64_t now)
{
    struct ccws *s = st;

    (void)now;
    s->greedy_slot = w->slot;
    s->greedy_age = w->age;
    s->st.issued++;
    s->st.llds_insts++;
    if (s->o.decay == DECAY_INST)
        advance(s, now);
}

static void ccws_on_event(void *st, enum pol_warp_event e, uint32_t slot, uint64_t now)
{
    struct ccws *s = st;

    if (slot >= s->max_warps)
        return;
    advance(s, now);
    if (e == POL_WARP_LAUNCHED) {
        if (s->o.reset == RESET_IDLE && !s->resident)
            s->st.llds_hits = s->st.llds_insts = 0;
        s->resident++;
        arrive(s, slot);
    } else if (e == POL_WARP_EXITED) {
        s->resident -= s->resident > 0;
        s->w[slot] = (struct ccws_warp){0};
        pol_ccws_vta_clear(s->vta, slot);
    }
}

static void ccws_on_mem(void *st, enum pol_mem_event e, uint32_t slot, uint64_t line, uint64_t now)
{
    struct ccws *s = st;

    if (slot >= s->max_warps)
        return;
    advance(s, now);
    switch (e) {
    case POL_MEM_L1_HIT:
        s->st.l1_hits++;
        break;
    case POL_MEM_L1_EVICT_EXITED: /* its allocator has left: nobody's lost locality */
        s->st.evict_dropped++;
        break;
    case POL_MEM_L1_WRITE: /* write-evict: the line is nobody's to lose any more */
        s->st.writes++;
        if (s->o.vta_write == WRITE_INVALIDATE)
            s->st.vta_write_invalidated += pol_ccws_vta_invalidate(s->vta, line);
        break;
    case POL_MEM_L1_EVICT:
        if (!s->w[slot].occupied) {
            s->st.evict_dropped++;
            break;
        }
        pol_ccws_vta_insert(s->vta, slot, line);
        s->st.vta_inserts++;
        break;
    case POL_MEM_L1_MISS:
        if (!s->w[slot].occupied)
            break;
        s->st.vta_probes++;
        if (pol_ccws_vta_probe(s->vta, slot, line))
            vta_hit(s, slot);
        break;
    default: /* kinds added later */
        break;
    }
}

/* -------------------------------------------------------------- observation */

void pol_ws_ccws_stats(const void *st, struct pol_ccws_stats *out)
{
    const struct ccws *s = st;

    *out = s->st;
    out->max_score = 0;
    for (uint32_t i = 0; i < s->max_warps; i++)
        if (s->w[i].occupied && s->w[i].lls > out->max_score)
            out->max_score = s->w[i].lls;
}

uint32_t pol_ws_ccws_score(const void *st, uint32_t slot)
{
    const struct ccws *s = st;

    return slot < s->max_warps && s->w[slot].occupied ? s->w[slot].lls : 0;
}

static void dump_opts(const struct ccws *s, FILE *f)
{
    fputs("# ccws", f);
    pol_args_write(&ccws_spec, &s->o, f);
    fputc('\n', f);
}

static void dump_counters(const struct ccws *s, const struct pol_ccws_stats *c, FILE *f)
{
    double rate = c->vta_probes ? (double)c->vta_hits / (double)c->vta_probes : 0.0;
    double cyc = c->cycles ? (double)c->cycles : 1.0;

    fprintf(f,
            "# vta_probes=%" PRIu64 " vta_hits=%" PRIu64 " vta_hit_rate=%.6f vta_inserts=%" PRIu64
            " evict_dropped=%" PRIu64 " writes=%" PRIu64 " vta_write_invalidated=%" PRIu64
            " barrier_released=%" PRIu64 " l1_hits=%" PRIu64 " issued=%" PRIu64 " cycles=%" PRIu64
            " throttled_cycles=%" PRIu64 " loads_held=%" PRIu64
            " mean_active=%.4f mean_permitted=%.4f series_dropped=%" PRIu64 "\n",
            c->vta_probes, c->vta_hits, rate, c->vta_inserts, c->evict_dropped, c->writes,
            c->vta_write_invalidated, c->barrier_released, c->l1_hits, c->issued, c->cycles,
            c->throttled_cycles, c->loads_held, (double)c->active_sum / cyc,
            (double)c->permitted_sum / cyc, s->series.dropped);
    fputs("# permitted_hist", f);
    for (uint32_t i = 0; i <= s->max_warps; i++)
        if (s->hist[i])
            fprintf(f, " %" PRIu32 ":%" PRIu64, i, s->hist[i]);
    fputc('\n', f);
}

/*
 * The dump op: the options and counters as '#' lines, then the series as CSV,
 * one row per change of the active or permitted warp count.
 */
/* ctx: the instance, whose SM and scheduler every row names. */
static void write_point(FILE *out, const void *row, const void *ctx)
{
    const struct ccws_point *p = row;
    const struct ccws *s = ctx;

    fprintf(out, "%" PRIu64 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 "\n", p->cycle, s->sm,
            s->sched_id, p->active, p->permitted);
}

static int ccws_dump(const void *st, FILE *out, struct ps_err *err)
{
    const struct ccws *s = st;
    struct pol_ccws_stats c;

    pol_ws_ccws_stats(st, &c);
    dump_opts(s, out);
    dump_counters(s, &c, out);
    return pol_series_write(&s->series, out, "cycle,sm,sched,active,permitted", write_point, s,
                            "the ccws series of permitted warps", err);
}

const struct pol_warp_sched_ops pol_ws_ccws = {
    .name = "ccws",
    .argspec = &ccws_spec,
    .state_size = sizeof(struct ccws),
    .create = ccws_create,
    .destroy = ccws_destroy,
    .order = ccws_order,
    .may_issue = ccws_may_issue,
    .on_issue = ccws_on_issue,
    .on_event = ccws_on_event,
    .on_mem = ccws_on_mem,
    .dump = ccws_dump,
};
