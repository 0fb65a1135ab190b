/*
 * Locality-driven dynamic L1D bypassing, the "Decoupled L1D" of Li, Song,
 * Dai, Sidelnik, Hari and Zhou (ICS 2015), as extracted in
 * design/seeds/002_locality_bypass.md (section numbers below are that
 * file's).
 *
 * The real cache is the data store (4 ways). This policy keeps the
 * enlarged tag store beside it: the same sets, tag_ways (8) entries each,
 * every entry with a reference count RC (rc_bits wide), a Position (the data
 * way, when committed) and an LRU stamp for tie-breaks (3.2). A read that
 * misses both stores leaves a tag entry behind and bypasses; later reads of
 * a candidate bump its RC and bypass until RC passes the threshold T, when
 * the read allocates like a normal miss (3.4, pseudocode 3.5). Tag victims
 * are the candidate with the smallest RC, then the least recently used;
 * committed entries are never victims (3.6c, d). Every allocation and every
 * eviction in the data store ages the other entries of the set by 1
 * (3.4.5); an evicted line's entry stays as a candidate with RC 0.
 *
 * SM dueling (3.7): SM0 always runs the decoupled design, SM1 the plain
 * cache, and every `interval` cycles the other SMs take the design whose
 * leader had the lower miss rate (within `margin`). The GPU-wide part lives
 * in the shared state (shared_create).
 *
 * How the cache core's calls map onto the pseudocode: on_miss is asked
 * once per read that finds neither a line nor an MSHR; a promotion changes
 * nothing there and is applied in on_insert, so an allocation that fails
 * and is retried leaves the tag store as it was (3.6f, oracle O9). An
 * eviction (on_evict) right before an insert into the same set is the
 * replacement half of a promotion; any other eviction is a write-evict.
 * Free_Line is not stored: it is the count of invalid data ways (3.6l).
 */
#include <stdlib.h>
#include <string.h>

#include "policies/args.h"
#include "policies/l1d.h"
#include "policies/l1d_builtin.h"
#include "policies/l1d_locality.h"
#include "policies/series.h"

enum {
    C_TAG_MISS,   /* reads bypassed on a tag-store miss */
    C_CAND,       /* reads bypassed on a candidate below the threshold */
    C_PROMOTE,    /* candidates promoted into the data store */
    C_BASE_ALLOC, /* read misses allocated in baseline mode */
    C_TAG_EVICT,  /* valid tag entries replaced (LFU) */
    C_RC_RESET,   /* data-store evictions that reset an entry's RC */
    C_DUEL_DEC,   /* dueling intervals decided for the decoupled design */
    C_DUEL_BASE,  /* dueling intervals decided for the baseline */
};

static const char *const loc_counter_names[] = {
    "tag_miss_bypass", "cand_bypass",    "promote",       "base_alloc", "tag_evict",
    "rc_reset",        "duel_decoupled", "duel_baseline", NULL,
};

/* The arguments; the two-word keys hold their word's index (0 the first word). */
struct loc_args {
    uint32_t tag_ways;          /* tag ways per set (8, Table 3) */
    uint32_t t;                 /* locality threshold T (2, Table 3); 0 = baseline mode */
    uint32_t rc_bits;           /* RC width (6 bits, 3.2) */
    uint32_t rc_max;            /* 2^rc_bits - 1, derived */
    uint32_t rc_init;           /* RC of a new tag entry (1, 3.6a) */
    uint32_t promote_ge;        /* promote when RC >= T instead of RC > T (3.6a) */
    uint32_t age_per_promotion; /* one aging step per promotion instead of per event (3.6e) */
    uint32_t fail_bypass;       /* a promotion that cannot allocate bypasses (3.6f) */
    uint32_t stores_age;        /* a write-evict ages the set (3.6g) */
    uint32_t duel;              /* SM dueling (3.7) */
    uint32_t interval;          /* dueling interval, cycles (500) */
    double margin;              /* miss-rate margin (0.10) */
    uint32_t margin_rel;        /* margin relative to SM1's miss rate instead of absolute */
    uint32_t initial_dec;       /* followers start decoupled instead of baseline */
    uint32_t dump_every;        /* reads between two dump rows, 0 = no rows */
};

/* GPU-wide dueling state (3.7). */
struct loc_shared {
    struct loc_args a;
    bool followers_dec;       /* the followers' design now */
    uint64_t next_boundary;   /* cycle of the next decision */
    uint64_t acc[2], miss[2]; /* this interval: [0] SM0 (decoupled), [1] SM1 (baseline) */
    double last_mr[2];        /* miss rates at the last decision (-1 = none yet) */
};

struct loc_tag {
    uint64_t tag; /* line address */
    uint64_t lru; /* stamp of the last reference */
    uint32_t rc;
    uint32_t pos; /* data way, when committed */
    bool valid, committed;
};

struct loc_row {
    uint64_t cycle, reads;
    float bypass_rate, hit_rate;
    bool decoupled;
};

struct loc_state {
    struct loc_args a;
    struct loc_shared *sh; /* NULL: no dueling, the decoupled design everywhere */
    uint32_t sm, nsets, assoc, line_shift;
    struct loc_tag *tags; /* nsets * tag_ways */
    uint64_t *ctr;
    uint64_t scratch[POL_L1D_NCOUNTERS]; /* counters when the cache gives none */
    uint64_t stamp;
    bool promo; /* on_miss answered a promotion of promo_line */
    uint64_t promo_line;
    bool evict_pending; /* on_evict happened; the insert that follows (if any) is its promotion */
    uint32_t evict_set;
    uint64_t reads, win_reads, win_bypass, win_hits;
    struct pol_series rows; /* of struct loc_row */
};

/* ---- arguments ---- */

#define U(k, f, d, lo, hi, help) POL_KEY_UINT(k, struct loc_args, f, d, lo, hi, help)
#define W(k, f, d, words, help) POL_KEY_WORD(k, struct loc_args, f, d, words, help)
static const struct pol_arg loc_arg_table[] = {
    U("tag_ways", tag_ways, 8, 1, 64, "tag ways per set (more than the cache's ways)"),
    U("t", t, 2, 0, 1u << 16, "locality threshold T; 0 = the baseline cache"),
    U("rc_bits", rc_bits, 6, 1, 16, "reference counter width"),
    U("rc_init", rc_init, 1, 0, 1u << 16, "RC of a new tag entry"),
    W("cmp", promote_ge, 0, "gt|ge", "promote when RC > T or RC >= T"),
    W("aging", age_per_promotion, 0, "per_event|per_promotion", "when the set ages"),
    W("promote_fail", fail_bypass, 0, "stall|bypass", "a promotion that cannot allocate"),
    W("stores_age", stores_age, 1, "off|on", "a write-evict ages the set"),
    W("duel", duel, 1, "off|on", "SM dueling"),
    U("interval", interval, 500, 1, UINT32_MAX, "dueling interval, cycles"),
    POL_KEY_FRAC("margin", struct loc_args, margin, 0.10, 0, 1, "miss-rate margin"),
    W("margin_mode", margin_rel, 0, "absolute|relative", "how the margin applies"),
    W("initial", initial_dec, 0, "baseline|decoupled", "the followers' first design"),
    U("dump", dump_every, 10000, 0, UINT32_MAX, "reads between two dump rows, 0 = none"),
};
#undef U
#undef W

static int loc_check(void *cfg, char *why, size_t len)
{
    struct loc_args *a = cfg;

    a->rc_max = (1u << a->rc_bits) - 1;
    if (a->rc_init > a->rc_max || a->t > a->rc_max)
        return snprintf(why, len, "rc_init and t must fit in rc_bits (at most %u)", a->rc_max);
    return 0;
}

static const struct pol_argspec loc_spec =
    POL_ARGSPEC_KEYS(struct loc_args, loc_arg_table, loc_check);

/* The arguments for a cache of `assoc` data ways. */
static int loc_fit(const struct pol_l1d_params *p, struct loc_args *a, struct ps_err *err)
{
    *a = *(const struct loc_args *)p->cfg;
    if (a->tag_ways <= p->assoc)
        return ps_err_set(
            err, PS_EINVAL,
            "-ptxsim_l1d_policy locality: tag_ways=%u must exceed the cache's %u ways", a->tag_ways,
            p->assoc);
    return 0;
}

/* ---- SM dueling (3.7) ---- */

static void *loc_shared_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    struct loc_shared *sh = calloc(1, sizeof(*sh));

    if (!sh) {
        ps_err_set(err, PS_ENOMEM, "l1d policy locality: out of memory");
        return NULL;
    }
    if (loc_fit(p, &sh->a, err)) {
        free(sh);
        return NULL;
    }
    sh->followers_dec = sh->a.initial_dec;
    sh->next_boundary = sh->a.interval;
    sh->last_mr[0] = sh->last_mr[1] = -1;
    return sh;
}

static void loc_shared_destroy(void *sh)
{
    free(sh);
}

/* Leader role of the SM: 0 decoupled leader, 1 baseline leader, -1 follower. */
static int leader(const struct loc_state *s)
{
    return s->sm < 2 ? (int)s->sm : -1;
}

/* Decoupled design now (else the plain cache: every read miss allocates). */
static bool decoupled(const struct loc_state *s)
{
    if (s->a.t == 0)
        return false;
    if (!s->sh || !s->a.duel)
        return true;
    if (leader(s) >= 0)
        return leader(s) == 0;
    return s->sh->followers_dec;
}

/* Followers go baseline iff MR(SM0) exceeds MR(SM1) by more than the margin. */
static void duel_decide(struct loc_state *s)
{
    struct loc_shared *sh = s->sh;
    double mr0, mr1, lim;

    if (!sh->acc[0] || !sh->acc[1])
        return; /* a leader made no access: keep the decision */
    mr0 = (double)sh->miss[0] / (double)sh->acc[0];
    mr1 = (double)sh->miss[1] / (double)sh->acc[1];
    lim = sh->a.margin_rel ? mr1 * (1 + sh->a.margin) : mr1 + sh->a.margin;
    sh->followers_dec = !(mr0 > lim);
    sh->last_mr[0] = mr0;
    sh->last_mr[1] = mr1;
    s->ctr[sh->followers_dec ? C_DUEL_DEC : C_DUEL_BASE]++;
}

/* Closes the interval when `now` has passed its end, then counts a read of a leader. */
static void duel_count(struct loc_state *s, bool miss, uint64_t now)
{
    struct loc_shared *sh = s->sh;
    int l = leader(s);

    if (!sh || !s->a.duel || s->a.t == 0)
        return;
    if (now >= sh->next_boundary) {
        duel_decide(s);
        memset(sh->acc, 0, sizeof(sh->acc));
        memset(sh->miss, 0, sizeof(sh->miss));
        sh->next_boundary = (now / sh->a.interval + 1) * sh->a.interval;
    }
    if (l < 0)
        return;
    sh->acc[l]++;
    sh->miss[l] += miss;
}

/* ---- state over time ---- */

static void dump_count(struct loc_state *s, bool bypass, bool hit, uint64_t now)
{
    struct loc_row *r;

    s->reads++;
    s->win_reads++;
    s->win_bypass += bypass;
    s->win_hits += hit;
    if (!s->a.dump_every || s->win_reads < s->a.dump_every)
        return;
    if (!(r = pol_series_add(&s->rows)))
        return; /* out of host memory: the series stops, the dump says so */
    r->cycle = now;
    r->reads = s->reads;
    r->bypass_rate = (float)s->win_bypass / (float)s->win_reads;
    r->hit_rate = (float)s->win_hits / (float)s->win_reads;
    r->decoupled = decoupled(s);
    s->win_reads = s->win_bypass = s->win_hits = 0;
}

/* ctx: the SM of the rows. */
static void loc_write_row(FILE *out, const void *row, const void *ctx)
{
    const struct loc_row *r = row;

    fprintf(out, "%u,%llu,%llu,%.4f,%.4f,%s\n", *(const uint32_t *)ctx,
            (unsigned long long)r->cycle, (unsigned long long)r->reads, r->bypass_rate, r->hit_rate,
            r->decoupled ? "decoupled" : "baseline");
}

static int loc_dump(const void *st, FILE *out, struct ps_err *err)
{
    const struct loc_state *s = st;

    return pol_series_write(&s->rows, out, "sm,cycle,reads,bypass_rate,hit_rate,design",
                            loc_write_row, &s->sm, "the locality series", err);
}

/* ---- tag store ---- */

static struct loc_tag *set_tags(struct loc_state *s, uint32_t set)
{
    return &s->tags[(size_t)set * s->a.tag_ways];
}

static struct loc_tag *find(struct loc_state *s, uint32_t set, uint64_t line)
{
    struct loc_tag *t = set_tags(s, set);

    for (uint32_t i = 0; i < s->a.tag_ways; i++)
        if (t[i].valid && t[i].tag == line)
            return &t[i];
    return NULL;
}

/* The committed entry holding data way `way`, or NULL. */
static struct loc_tag *at_way(struct loc_state *s, uint32_t set, uint32_t way)
{
    struct loc_tag *t = set_tags(s, set);

    for (uint32_t i = 0; i < s->a.tag_ways; i++)
        if (t[i].valid && t[i].committed && t[i].pos == way)
            return &t[i];
    return NULL;
}

/* Aging (3.4.5): every valid entry of the set but `except` loses 1, flooring at 0. */
static void age_set(struct loc_state *s, uint32_t set, const struct loc_tag *except)
{
    struct loc_tag *t = set_tags(s, set);

    for (uint32_t i = 0; i < s->a.tag_ways; i++)
        if (t[i].valid && &t[i] != except && t[i].rc > 0)
            t[i].rc--;
}

/* The entry loses its data line: a candidate again, RC 0 (3.4.4). */
static void uncommit(struct loc_state *s, struct loc_tag *e)
{
    e->committed = false;
    e->rc = 0;
    s->ctr[C_RC_RESET]++;
}

/*
 * A lone eviction (not followed by an insert into its set) was a global
 * write-evict: with stores_age it is an aging event (3.6g).
 */
static void settle(struct loc_state *s)
{
    if (!s->evict_pending)
        return;
    s->evict_pending = false;
    if (s->a.stores_age)
        age_set(s, s->evict_set, NULL);
}

/* Invalid entry first, else the candidate with the smallest RC, then the LRU one (3.6c, d). */
static struct loc_tag *tag_victim(struct loc_state *s, uint32_t set)
{
    struct loc_tag *t = set_tags(s, set), *best = NULL;

    for (uint32_t i = 0; i < s->a.tag_ways; i++) {
        if (!t[i].valid)
            return &t[i];
        if (t[i].committed)
            continue;
        if (!best || t[i].rc < best->rc || (t[i].rc == best->rc && t[i].lru < best->lru))
            best = &t[i];
    }
    return best ? best : &t[0]; /* unreachable while committed entries <= data ways < tag ways */
}

/* A new candidate for line (there is always a victim: more tag ways than data ways). */
static struct loc_tag *tag_alloc(struct loc_state *s, uint32_t set, uint64_t line)
{
    struct loc_tag *v = tag_victim(s, set);

    if (v->valid)
        s->ctr[C_TAG_EVICT]++;
    *v = (struct loc_tag){.tag = line, .lru = ++s->stamp, .rc = s->a.rc_init, .valid = true};
    return v;
}

static uint32_t rc_inc(const struct loc_state *s, uint32_t rc)
{
    return rc < s->a.rc_max ? rc + 1 : rc;
}

static bool passes(const struct loc_state *s, uint32_t rc)
{
    return s->a.promote_ge ? rc >= s->a.t : rc > s->a.t;
}

/* ---- the ops ---- */

static void *loc_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    struct loc_state *s = p->state;

    if (loc_fit(p, &s->a, err))
        return NULL;
    s->tags = calloc((size_t)p->nsets * s->a.tag_ways, sizeof(*s->tags));
    if (!s->tags) {
        ps_err_set(err, PS_ENOMEM, "l1d policy locality: out of memory");
        return NULL;
    }
    s->sh = p->shared && p->nsms >= 2 && p->sm != UINT32_MAX ? p->shared : NULL;
    s->sm = p->sm;
    pol_series_init(&s->rows, sizeof(struct loc_row), POL_SERIES_NO_CAP);
    s->nsets = p->nsets;
    s->assoc = p->assoc;
    s->line_shift = (uint32_t)__builtin_ctz(p->line_bytes ? p->line_bytes : 128);
    s->ctr = p->counters ? p->counters : s->scratch;
    return s;
}

static void loc_destroy(void *st)
{
    struct loc_state *s = st;

    if (!s)
        return;
    free(s->tags);
    pol_series_free(&s->rows);
}

/* The decoupled read path of 3.5 for a read with no line: false = bypass. */
static bool decoupled_miss(struct loc_state *s, uint64_t line, uint32_t set)
{
    struct loc_tag *e = find(s, set, line);
    uint32_t rc;

    if (e && e->committed)
        uncommit(s, e); /* its line went without an eviction (a flush): a candidate now */
    if (!e) {
        tag_alloc(s, set, line);
        s->ctr[C_TAG_MISS]++;
        return false;
    }
    rc = rc_inc(s, e->rc);
    if (!passes(s, rc)) {
        e->rc = rc;
        e->lru = ++s->stamp;
        s->ctr[C_CAND]++;
        return false;
    }
    s->promo = true; /* applied by on_insert, when the allocation succeeds */
    s->promo_line = line;
    return true;
}

static bool loc_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    struct loc_state *s = st;
    uint64_t line = r->addr >> s->line_shift;
    bool alloc;

    settle(s);
    duel_count(s, true, now);
    s->promo = false;
    if (decoupled(s)) {
        alloc = decoupled_miss(s, line, set);
    } else {
        alloc = true;
        s->ctr[C_BASE_ALLOC]++;
    }
    dump_count(s, !alloc, false, now);
    return alloc;
}

/* promote_fail=bypass: a promotion that cannot allocate bypasses and keeps its RC (3.6f). */
static bool loc_on_stall(void *st, const struct mem_req *r, uint32_t set, enum pol_l1d_stall why,
                         uint64_t now)
{
    struct loc_state *s = st;
    uint64_t line = r->addr >> s->line_shift;
    struct loc_tag *e;

    (void)why;
    (void)now;
    settle(s);
    if (!s->a.fail_bypass || !s->promo || s->promo_line != line)
        return false;
    s->promo = false;
    e = find(s, set, line);
    if (e) {
        e->rc = rc_inc(s, e->rc);
        e->lru = ++s->stamp;
    }
    s->ctr[C_CAND]++;
    return true;
}

/*
 * Data-store LRU: an invalid unreserved way first, else the least recently
 * used unreserved line, ties to the lowest way (the lru policy's choice, so
 * that baseline mode is the plain cache, oracle O12). Committed entries
 * whose line has gone (a kernel-end flush tells the policy nothing) become
 * candidates with RC 0 here.
 */
static uint32_t loc_victim(void *st, uint32_t set, const struct pol_line_view *lines,
                           uint32_t assoc, uint64_t now)
{
    struct loc_state *s = st;
    struct loc_tag *t = set_tags(s, set);
    uint32_t best = assoc;

    (void)now;
    settle(s);
    for (uint32_t i = 0; i < s->a.tag_ways; i++) {
        const struct pol_line_view *l = t[i].committed ? &lines[t[i].pos] : NULL;

        if (l && (!(l->valid || l->reserved) || l->tag != t[i].tag))
            uncommit(s, &t[i]);
    }
    for (uint32_t w = 0; w < assoc; w++) {
        if (lines[w].reserved)
            continue;
        if (!lines[w].valid)
            return w;
        if (best == assoc || lines[w].last_use < lines[best].last_use)
            best = w;
    }
    return best;
}

/*
 * A read merged into its line's pending miss: for the dueling miss rates it
 * is not a miss (the line is on its way, as for a hit-reserved access in the
 * paper's baseline), so a design that allocates more is not charged for the
 * reads that find its lines in flight.
 */
static void loc_on_merge(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    (void)r;
    (void)set;
    duel_count(st, false, now);
}

static void loc_on_hit(void *st, const struct mem_req *r, uint32_t set, uint32_t way, uint64_t now)
{
    struct loc_state *s = st;
    uint64_t line = r->addr >> s->line_shift;
    struct loc_tag *e;

    settle(s);
    if (r->type == MEM_READ) {
        duel_count(s, false, now);
        dump_count(s, false, true, now);
    }
    e = find(s, set, line);
    if (!e || !e->committed || e->pos != way) { /* a line the tag store lost track of */
        struct loc_tag *old = at_way(s, set, way);

        if (old && old != e)
            uncommit(s, old);
        if (!e)
            e = tag_alloc(s, set, line);
        e->committed = true;
        e->pos = way;
    }
    e->lru = ++s->stamp; /* RC is not counted on hits (3.5; it is reset on eviction anyway) */
}

/* A line was installed in (set, way): the promotion (or baseline allocation) takes effect. */
static void loc_on_insert(void *st, const struct mem_req *r, uint32_t set, uint32_t way,
                          uint64_t now)
{
    struct loc_state *s = st;
    uint64_t line = r->addr >> s->line_shift;
    struct loc_tag *e, *old = at_way(s, set, way);
    bool replaced = s->evict_pending && s->evict_set == set;

    (void)now;
    s->evict_pending = false;
    if (old && old->tag != line)
        uncommit(s, old); /* the way held a line that left without on_evict */
    e = find(s, set, line);
    if (!e)
        e = tag_alloc(s, set, line);
    if (s->promo && s->promo_line == line) {
        e->rc = rc_inc(s, e->rc);
        s->ctr[C_PROMOTE]++;
    }
    s->promo = false;
    e->committed = true;
    e->pos = way;
    e->lru = ++s->stamp;
    if (replaced && !s->a.age_per_promotion)
        age_set(s, set, NULL); /* the eviction event; the entry just evicted is at 0 */
    age_set(s, set, e);        /* the allocation event */
}

static void loc_on_evict(void *st, const struct pol_line_view *line, uint32_t set, uint32_t way,
                         uint64_t now)
{
    struct loc_state *s = st;
    struct loc_tag *e = find(s, set, line->tag);

    (void)now;
    settle(s);
    if (!e)
        e = at_way(s, set, way);
    if (e && e->committed)
        uncommit(s, e);
    s->evict_pending = true;
    s->evict_set = set;
}

const struct pol_l1d_ops pol_l1d_locality = {
    .name = "locality",
    .argspec = &loc_spec,
    .shared_create = loc_shared_create,
    .shared_destroy = loc_shared_destroy,
    .state_size = sizeof(struct loc_state),
    .create = loc_create,
    .destroy = loc_destroy,
    .on_miss = loc_on_miss,
    .on_stall = loc_on_stall,
    .victim = loc_victim,
    .on_hit = loc_on_hit,
    .on_insert = loc_on_insert,
    .on_evict = loc_on_evict,
    .on_merge = loc_on_merge,
    .counter_names = loc_counter_names,
    .dump = loc_dump,
};

/* ---- inspection (policies/l1d_locality.h) ---- */

uint32_t pol_l1d_locality_ways(const void *st)
{
    return ((const struct loc_state *)st)->a.tag_ways;
}

bool pol_l1d_locality_entry(const void *st, uint32_t set, uint32_t way, struct pol_loc_entry *out)
{
    const struct loc_state *s = st;
    const struct loc_tag *t;

    if (set >= s->nsets || way >= s->a.tag_ways)
        return false;
    t = &s->tags[(size_t)set * s->a.tag_ways + way];
    *out = (struct pol_loc_entry){
        .tag = t->tag, .rc = t->rc, .pos = t->pos, .valid = t->valid, .committed = t->committed};
    return true;
}

bool pol_l1d_locality_decoupled(const void *st)
{
    return decoupled(st);
}
