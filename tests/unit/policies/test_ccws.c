/*
 * Unit tests for the ccws warp scheduler (policies/ws_ccws.c) and its victim
 * tag arrays (policies/ccws_vta.c). A stand-in SM drives the ops as
 * timing/sm.c does: warp launches and exits as events, L1D evictions and
 * misses through on_mem, each cycle order() then may_issue() on the warps in
 * that order, then on_issue() for the one that issues. The oracle numbers
 * are seed 004's (design/seeds/004_ccws.md, section 6).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policies/ccws_vta.h"
#include "policies/registry.h"
#include "policies/ws_ccws.h"

#define MAXW 48
#define NONE UINT32_MAX

struct sm {
    const struct pol_warp_sched_ops *ops;
    void *st;
    uint64_t now;
    uint32_t n; /* warps in views, slots 0..n-1 */
    struct pol_warp_view v[MAXW];
    bool load[MAXW]; /* the warp's next instruction is a global/local load */
};

static void *try_create(const char *spec, uint32_t max_warps, struct ps_err *err)
{
    const char *args = NULL;
    const struct pol_warp_sched_ops *ops = pol_warp_sched_find(spec, &args, err);
    struct pol_warp_sched_params p = {.nsched = 1, .max_warps = max_warps, .args = args};

    assert_non_null(ops);
    return pol_warp_sched_create(ops, &p, err);
}

/* A scheduler of spec over n warps in slots 0..n-1 (older in lower slots), all launched. */
static struct sm *make(const char *spec, uint32_t n)
{
    struct sm *s = calloc(1, sizeof(*s));
    struct ps_err err;

    assert_non_null(s);
    ps_err_clear(&err);
    s->ops = pol_warp_sched_find(spec, NULL, &err);
    s->st = try_create(spec, MAXW, &err);
    if (!s->st)
        fail_msg("%s: %s", spec, err.msg);
    s->now = 1;
    s->n = n;
    for (uint32_t i = 0; i < n; i++) {
        s->v[i] = (struct pol_warp_view){.slot = i, .valid = true, .ready = true, .age = 100 + i};
        s->load[i] = true;
        if (s->ops->on_event)
            s->ops->on_event(s->st, POL_WARP_LAUNCHED, i, s->now);
    }
    return s;
}

static void drop(struct sm *s)
{
    pol_warp_sched_destroy(s->ops, s->st);
    free(s);
}

static uint32_t order(struct sm *s, uint32_t *ord)
{
    return s->ops->order(s->st, s->v, s->n, ord, s->now);
}

static bool may_load(struct sm *s, uint32_t slot)
{
    struct pol_instr_view in = {.is_mem = true, .is_load = true, .space = 1};

    return !s->ops->may_issue || s->ops->may_issue(s->st, &s->v[slot], &in);
}

/* Recomputes the permitted set at the current cycle; returns how many warps may load. */
static uint32_t permitted(struct sm *s)
{
    uint32_t ord[MAXW], k = order(s, ord), np = 0;

    for (uint32_t i = 0; i < k; i++)
        np += may_load(s, s->v[ord[i]].slot);
    return np;
}

/* One SM cycle: the slot that issued, or NONE. */
static uint32_t step(struct sm *s)
{
    uint32_t ord[MAXW], k;

    s->now++;
    k = order(s, ord);
    for (uint32_t j = 0; j < k; j++) {
        const struct pol_warp_view *w = &s->v[ord[j]];
        struct pol_instr_view in = {.is_mem = s->load[w->slot], .is_load = s->load[w->slot]};

        if (!w->ready)
            continue;
        if (s->ops->may_issue && !s->ops->may_issue(s->st, w, &in))
            continue;
        if (s->ops->on_issue)
            s->ops->on_issue(s->st, w, s->now);
        return w->slot;
    }
    return NONE;
}

static void mem(struct sm *s, enum pol_mem_event e, uint32_t slot, uint64_t line)
{
    if (s->ops->on_mem)
        s->ops->on_mem(s->st, e, slot, line, s->now);
}

/* Counts n issued instructions (towards Eq. 1's InstIssued_Total) without a cycle passing. */
static void issues(struct sm *s, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        s->ops->on_issue(s->st, &s->v[0], s->now);
}

/* The line goes into slot's VTA and slot misses on it: one VTA hit for slot. */
static void vta_hit(struct sm *s, uint32_t slot, uint64_t line)
{
    mem(s, POL_MEM_L1_EVICT, slot, line);
    mem(s, POL_MEM_L1_MISS, slot, line);
}

static struct pol_ccws_stats stats(struct sm *s)
{
    struct pol_ccws_stats c;

    pol_ws_ccws_stats(s->st, &c);
    return c;
}

static uint32_t score(struct sm *s, uint32_t slot)
{
    return pol_ws_ccws_score(s->st, slot);
}

/* ---- arguments ---- */

static void expect_bad(const char *spec, const char *msg)
{
    struct ps_err err;

    ps_err_clear(&err);
    assert_null(try_create(spec, MAXW, &err));
    assert_int_equal(err.code, PS_EINVAL);
    if (!strstr(err.msg, msg))
        fail_msg("%s: '%s' lacks '%s'", spec, err.msg, msg);
}

static void test_ccws_args(void **state)
{
    const char *good[] = {"ccws",
                          "ccws:",
                          "ccws:vta_entries=16,vta_assoc=8,k_throttle=8",
                          "ccws:vta_entries=4,vta_assoc=4,vta_repl=lru,base=50,decay_period=4",
                          "ccws:boundary=within,tie=slot,reclamp=1,reset=never,series_cap=0",
                          "ccws:k_throttle=0",
                          "ccws:decay=inst,vta_write=keep",
                          "ccws:decay=cycle,vta_write=invalidate"};
    struct ps_err err;

    (void)state;
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        void *st;

        ps_err_clear(&err);
        st = try_create(good[i], MAXW, &err);
        if (!st)
            fail_msg("%s: %s", good[i], err.msg);
        pol_warp_sched_destroy(pol_warp_sched_find("ccws", NULL, &err), st);
    }
    expect_bad("ccws:vta_size=16", "unknown key 'vta_size' (known: vta_entries, vta_assoc");
    expect_bad("ccws:k_throttle", "'k_throttle': expected k_throttle=value");
    expect_bad("ccws:k_throttle=", "k_throttle=: expected a whole number");
    expect_bad("ccws:k_throttle=x8",
               "-gpgpu_scheduler ccws: k_throttle=x8: expected a whole number");
    expect_bad("ccws:vta_entries=0", "vta_entries=0: expected a whole number from 1 to 65536");
    expect_bad("ccws:vta_repl=random", "vta_repl=random: expected one of fifo|lru");
    expect_bad("ccws:reclamp=2", "reclamp=2: expected a whole number from 0 to 1");
    expect_bad("ccws:decay=warp", "decay=warp: expected one of cycle|inst");
    expect_bad("ccws:vta_write=evict", "expected one of invalidate|keep");
    expect_bad("ccws:k_throttle=8,", "empty field after the last ','");
    expect_bad("ccws:k_throttle=8,k_throttle=9", "k_throttle given twice");
    expect_bad("ccws:vta_entries=16,vta_assoc=3", "vta_assoc=3 must divide vta_entries=16");
    ps_err_clear(&err);
    assert_null(try_create("ccws", 0, &err));
    assert_int_equal(err.code, PS_EINVAL);
}

/* ---- oracles 14 and 27: no VTA hits, the issue trace of gto ---- */

static void random_ready(struct sm *a, struct sm *b, uint32_t *rng)
{
    for (uint32_t i = 0; i < a->n; i++) {
        *rng = *rng * 1103515245u + 12345u;
        a->v[i].ready = b->v[i].ready = (*rng >> 16) % 3 == 0;
    }
}

static void test_ccws_oracle14_27_gto_without_vta_hits(void **state)
{
    struct sm *c = make("ccws", 32), *g = make("gto", 32);
    uint32_t rng = 7;

    (void)state;
    for (uint32_t cyc = 0; cyc < 4000; cyc++) {
        uint32_t a, b;

        random_ready(c, g, &rng);
        /* Misses and evictions, but a warp never misses on a line it lost (oracle 27). */
        mem(c, POL_MEM_L1_EVICT, cyc % 32, 1000000 + cyc);
        mem(c, POL_MEM_L1_MISS, (cyc + 1) % 32, 1000000 + cyc);
        mem(c, POL_MEM_L1_MISS, cyc % 32, 2000000 + cyc);
        mem(c, POL_MEM_L1_HIT, cyc % 32, 3000000 + cyc);
        a = step(c);
        b = step(g);
        assert_int_equal(a, b);
    }
    assert_int_equal(stats(c).vta_hits, 0);
    assert_int_equal(stats(c).vta_probes, 8000);
    assert_int_equal(stats(c).throttled_cycles, 0);
    assert_int_equal(stats(c).loads_held, 0);
    for (uint32_t i = 0; i < 32; i++)
        assert_int_equal(score(c, i), 100); /* oracle 14: base score 100 */
    drop(c);
    drop(g);
}

/* ---- oracle 15: the cutoff is 100 x active warps ---- */

static void test_ccws_oracle15_cutoff(void **state)
{
    struct sm *s = make("ccws", 32);

    (void)state;
    /*
     * The authors' list uses the cutoff of the previous cycle, and a fresh
     * core's counts every slot (48 here): 100 x active from the second cycle.
     */
    assert_int_equal(permitted(s), 32);
    assert_int_equal(stats(s).cutoff, 4800);
    assert_int_equal(permitted(s), 32);
    assert_int_equal(stats(s).cutoff, 3200);
    /* 29 warps finish: slots 3..31 leave. */
    for (uint32_t i = 3; i < 32; i++)
        s->ops->on_event(s->st, POL_WARP_EXITED, i, s->now);
    s->n = 3;
    assert_int_equal(permitted(s), 3);
    assert_int_equal(permitted(s), 3);
    assert_int_equal(stats(s).cutoff, 300);
    assert_int_equal(stats(s).active, 3);
    drop(s);
}

/* ---- oracles 16 and 17: a lost line goes to its allocator's VTA only ---- */

static void test_ccws_oracle16_17_vta_owner(void **state)
{
    struct sm *s = make("ccws", 32);
    const uint32_t a = 3, b = 5;

    (void)state;
    permitted(s);
    issues(s, 10);
    /* Line 77, allocated by A, evicted (by B's miss): into A's VTA. */
    mem(s, POL_MEM_L1_EVICT, a, 77);
    mem(s, POL_MEM_L1_MISS, b, 78);
    mem(s, POL_MEM_L1_MISS, b, 77); /* B misses on it: no signal */
    assert_int_equal(stats(s).vta_hits, 0);
    assert_int_equal(score(s, b), 100);
    mem(s, POL_MEM_L1_MISS, a, 77); /* A misses on it: one signal, for A */
    assert_int_equal(stats(s).vta_hits, 1);
    assert_int_equal(stats(s).vta_probes, 3);
    /* LLDS = 1 / 10 * 8 * 3200 = 2560 */
    assert_int_equal(score(s, a), 2560);
    assert_int_equal(score(s, b), 100);
    drop(s);
}

/* ---- oracle 18: 16 tags per warp, 2 sets x 8 ways, FIFO ---- */

static void test_ccws_oracle18_vta_fifo(void **state)
{
    struct pol_ccws_vta *v = pol_ccws_vta_create(4, 16, 8, POL_CCWS_VTA_FIFO);

    (void)state;
    assert_non_null(v);
    for (uint64_t i = 0; i < 8; i++)
        pol_ccws_vta_insert(v, 1, 2 * i); /* even lines: set 0 */
    for (uint64_t i = 0; i < 8; i++)
        pol_ccws_vta_insert(v, 1, 2 * i + 1); /* odd lines: set 1 */
    assert_int_equal(pol_ccws_vta_count(v, 1), 16);
    pol_ccws_vta_insert(v, 1, 0); /* already there: does not move */
    assert_true(pol_ccws_vta_probe(v, 1, 0));
    pol_ccws_vta_insert(v, 1, 16); /* a 9th tag in set 0 evicts the oldest, line 0 */
    assert_false(pol_ccws_vta_probe(v, 1, 0));
    for (uint64_t i = 1; i <= 8; i++)
        assert_true(pol_ccws_vta_probe(v, 1, 2 * i));
    for (uint64_t i = 0; i < 8; i++)
        assert_true(pol_ccws_vta_probe(v, 1, 2 * i + 1)); /* set 1 untouched */
    assert_int_equal(pol_ccws_vta_count(v, 1), 16);
    assert_int_equal(pol_ccws_vta_count(v, 0), 0);
    assert_false(pol_ccws_vta_probe(v, 0, 2)); /* partitions are private */
    pol_ccws_vta_destroy(v);
}

static void test_ccws_vta_lru_invalidate_clear(void **state)
{
    struct pol_ccws_vta *v = pol_ccws_vta_create(2, 4, 4, POL_CCWS_VTA_LRU);

    (void)state;
    assert_null(pol_ccws_vta_create(2, 16, 3, POL_CCWS_VTA_FIFO));
    assert_null(pol_ccws_vta_create(0, 16, 8, POL_CCWS_VTA_FIFO));
    for (uint64_t i = 0; i < 4; i++)
        pol_ccws_vta_insert(v, 0, 10 + i);     /* one set, fully associative */
    assert_true(pol_ccws_vta_probe(v, 0, 10)); /* LRU: 10 becomes the newest */
    pol_ccws_vta_insert(v, 0, 20);             /* evicts 11 */
    assert_true(pol_ccws_vta_probe(v, 0, 10));
    assert_false(pol_ccws_vta_probe(v, 0, 11));
    pol_ccws_vta_insert(v, 1, 12);
    assert_int_equal(pol_ccws_vta_invalidate(v, 12), 2); /* write-evict: every partition */
    assert_false(pol_ccws_vta_probe(v, 0, 12));
    assert_false(pol_ccws_vta_probe(v, 1, 12));
    assert_int_equal(pol_ccws_vta_count(v, 0), 3);
    pol_ccws_vta_clear(v, 0);
    assert_int_equal(pol_ccws_vta_count(v, 0), 0);
    pol_ccws_vta_destroy(v);
}

static void test_ccws_oracle18_through_policy(void **state)
{
    struct sm *s = make("ccws:vta_index=mod", 4); /* even lines share set 0 */

    (void)state;
    permitted(s);
    for (uint64_t i = 0; i < 9; i++)
        mem(s, POL_MEM_L1_EVICT, 2, 2 * i); /* 9 lines of set 0: line 0 falls out */
    mem(s, POL_MEM_L1_MISS, 2, 0);
    assert_int_equal(stats(s).vta_hits, 0);
    mem(s, POL_MEM_L1_MISS, 2, 2);
    assert_int_equal(stats(s).vta_hits, 1);
    assert_int_equal(stats(s).vta_inserts, 9);
    drop(s);
}

/* ---- oracles 19 and 20: LLDS arithmetic and the cap ---- */

static void test_ccws_oracle19_llds(void **state)
{
    /* The score is also capped at H / I x k_wsc x cutoff (the authors' k_wsc, 8). */
    const char *spec[] = {"ccws", "ccws:k_throttle=32,k_wsc=32", "ccws:k_throttle=32"};
    const uint32_t want[] = {256, 1024, 256}, llds[] = {256, 1024, 1024};

    (void)state;
    for (int k = 0; k < 3; k++) {
        struct sm *s = make(spec[k], 32);

        permitted(s);
        issues(s, 1000);
        for (int i = 0; i < 10; i++)
            vta_hit(s, 0, 500);
        assert_int_equal(stats(s).llds_hits, 10);
        assert_int_equal(stats(s).llds_insts, 1000);
        assert_int_equal(stats(s).llds, llds[k]);
        assert_int_equal(score(s, 0), want[k]);
        drop(s);
    }
}

static void test_ccws_oracle20_cap(void **state)
{
    struct sm *s = make("ccws", 32);

    (void)state;
    permitted(s);
    issues(s, 1000);
    for (int i = 0; i < 10; i++)
        vta_hit(s, 0, 500);
    assert_int_equal(score(s, 0), 256);
    issues(s, 100); /* 11 hits in 1100: the same LLDS */
    vta_hit(s, 0, 500);
    assert_int_equal(score(s, 0), 256);
    /* A hit with an LLDS below the base leaves the base, not less (ambiguity 2, quirk a). */
    issues(s, 100000);
    vta_hit(s, 7, 900);
    assert_int_equal(stats(s).llds, 12 * 8 * 3200 / 101100);
    assert_int_equal(score(s, 7), 100);
    drop(s);
}

/* ---- oracles 21 and 25: decay and the relaxation of throttling ---- */

static void test_ccws_oracle21_decay(void **state)
{
    struct sm *s = make("ccws", 32);
    uint64_t t0;

    (void)state;
    permitted(s);
    issues(s, 1000);
    for (int i = 0; i < 10; i++)
        vta_hit(s, 0, 500);
    t0 = s->now;
    s->now = t0 + 155;
    permitted(s);
    assert_int_equal(score(s, 0), 101);
    s->now = t0 + 156;
    permitted(s);
    assert_int_equal(score(s, 0), 100);
    s->now = t0 + 5000;
    permitted(s);
    assert_int_equal(score(s, 0), 100);
    drop(s);
}

static void test_ccws_decay_period_and_skipped_cycles(void **state)
{
    struct sm *s = make("ccws:decay_period=4", 32);
    uint64_t t0;

    (void)state;
    permitted(s);
    issues(s, 1000);
    for (int i = 0; i < 10; i++)
        vta_hit(s, 0, 500);
    t0 = s->now;
    for (uint32_t c = 1; c <= 10; c++) { /* cycle by cycle: 2 points in 10 cycles */
        s->now = t0 + c;
        permitted(s);
    }
    assert_int_equal(score(s, 0), 254);
    s->now = t0 + 4 * 156 - 1; /* the SM slept: the decay catches up at once */
    permitted(s);
    assert_int_equal(score(s, 0), 101);
    s->now = t0 + 4 * 156;
    permitted(s);
    assert_int_equal(score(s, 0), 100);
    drop(s);
}

/* ---- oracle 22: the cutoff test and its boundary rule ---- */

/* Warp 0 at 256, the others at base (32 warps). */
static void set_one_high(struct sm *s)
{
    permitted(s);
    issues(s, 1000);
    for (int i = 0; i < 10; i++)
        vta_hit(s, 0, 500);
    assert_int_equal(score(s, 0), 256);
}

static struct sm *one_high(const char *spec)
{
    struct sm *s = make(spec, 32);

    set_one_high(s);
    return s;
}

/* Warps 0 and 1 at 1280, the others at base. */
static struct sm *two_high(const char *spec, uint32_t a, uint32_t b)
{
    struct sm *s = make(spec, 32);

    permitted(s);
    issues(s, 200);
    for (int i = 0; i < 10; i++)
        vta_hit(s, a, 500);
    issues(s, 20);
    vta_hit(s, b, 600);
    assert_int_equal(score(s, a), 1280);
    assert_int_equal(score(s, b), 1280);
    return s;
}

/*
 * Two warps at 1280: after max(LLS) - 100 = 1180 cycles without VTA hits every
 * warp may load again. Under the authors' boundary rule that happens a little
 * earlier (the last warp only needs the sum before it below the cutoff); under
 * "within" exactly then.
 */
static void test_ccws_oracle25_relax(void **state)
{
    static const char *const spec[] = {"ccws", "ccws:boundary=within"};

    (void)state;
    for (int r = 0; r < 2; r++) {
        struct sm *s = two_high(spec[r], 0, 1);
        uint64_t t0 = s->now;
        uint32_t prev = permitted(s), np = 0;

        assert_int_equal(prev, r ? 8 : 9);
        for (uint64_t c = 1; c <= 1180; c++) {
            s->now = t0 + c;
            np = permitted(s);
            assert_true(np >= prev); /* relaxes monotonically */
            prev = np;
            if (c == 1000 || (r == 1 && c == 1179))
                assert_true(np < 32);
        }
        assert_int_equal(np, 32);
        assert_int_equal(stats(s).max_score, 100);
        drop(s);
    }
}

static void test_ccws_oracle22_boundary(void **state)
{
    struct sm *s;

    (void)state;
    s = one_high("ccws");
    assert_int_equal(permitted(s), 31);
    assert_false(may_load(s, 31)); /* the lowest-ranked: the youngest at base */
    assert_true(may_load(s, 0));
    assert_true(may_load(s, 30));
    drop(s);
    s = two_high("ccws", 0, 1);
    assert_int_equal(permitted(s), 9);
    for (uint32_t i = 0; i < 32; i++)
        assert_int_equal(may_load(s, i), i < 9); /* ranks 1-9: warps 0..8 */
    drop(s);
    s = one_high("ccws:boundary=within");
    assert_int_equal(permitted(s), 30);
    drop(s);
    s = two_high("ccws:boundary=within", 0, 1);
    assert_int_equal(permitted(s), 8);
    drop(s);
}

/* Ties in the score stack: older first, or lower slot first (default). Slot 31 is the oldest. */
static void test_ccws_tie_order(void **state)
{
    static const char *const spec[] = {"ccws:tie=age", "ccws"};
    static const uint32_t blocked[] = {1, 31};

    (void)state;
    for (int r = 0; r < 2; r++) {
        struct sm *s = make(spec[r], 32);

        for (uint32_t i = 0; i < 32; i++)
            s->v[i].age = 1000 - i;
        set_one_high(s);
        assert_int_equal(permitted(s), 31);
        for (uint32_t i = 0; i < 32; i++)
            assert_int_equal(may_load(s, i), i != blocked[r]);
        drop(s);
    }
}

/* ---- oracles 23 and 24: only loads are held; the intersection with GTO ---- */

static void test_ccws_oracle23_only_loads(void **state)
{
    struct sm *s = one_high("ccws");
    struct pol_instr_view alu = {0}, store = {.is_mem = true}, shared_ld = {.is_mem = true};

    (void)state;
    assert_int_equal(permitted(s), 31);
    assert_false(may_load(s, 31));
    assert_true(s->ops->may_issue(s->st, &s->v[31], &alu));
    assert_true(s->ops->may_issue(s->st, &s->v[31], &store));
    assert_true(s->ops->may_issue(s->st, &s->v[31], &shared_ld)); /* the SM sets is_load */
    assert_true(s->ops->may_issue(s->st, &s->v[31], NULL));
    assert_int_equal(stats(s).loads_held, 2); /* permitted() asked too */
    drop(s);
}

static void test_ccws_oracle24_intersection(void **state)
{
    /* Warps 30 and 31 (the youngest) at 1280: permitted are 30, 31 and the 7 oldest, 0..6. */
    struct sm *s = two_high("ccws", 30, 31);

    (void)state;
    for (uint32_t i = 0; i < 7; i++)
        s->v[i].ready = false;
    s->now--;                      /* step() advances to the cycle of the hits */
    assert_int_equal(step(s), 30); /* 7..29 are older and ready, but barred from loads */
    assert_int_equal(stats(s).loads_held, 23);
    s->now--;
    s->load[7] = false;
    s->ops->on_issue(s->st, &s->v[0], s->now); /* greedy back to an unready warp */
    assert_int_equal(step(s), 7);              /* a barred warp's ALU instruction issues */
    drop(s);
}

/* ---- oracle 26: a larger K never permits more warps ---- */

static void test_ccws_oracle26_monotone(void **state)
{
    static const char *const spec[] = {
        "ccws:k_throttle=1",  "ccws:k_throttle=2",  "ccws:k_throttle=4",  "ccws:k_throttle=8",
        "ccws:k_throttle=16", "ccws:k_throttle=32", "ccws:k_throttle=64", "ccws:k_throttle=128"};
    enum { NK = 8 };
    struct sm *s[NK];
    uint32_t rng = 99;

    (void)state;
    for (int k = 0; k < NK; k++) {
        s[k] = make(spec[k], 32);
        permitted(s[k]);
    }
    for (uint32_t cyc = 0; cyc < 3000; cyc++) {
        uint32_t prev = UINT32_MAX;

        rng = rng * 1103515245u + 12345u;
        for (int k = 0; k < NK; k++) {
            uint32_t np;

            s[k]->now++;
            issues(s[k], 1);
            if ((rng >> 16) % 48 == 0)
                vta_hit(s[k], (rng >> 8) % 32, 42);
            np = permitted(s[k]);
            assert_true(np <= prev);
            prev = np;
        }
    }
    assert_true(stats(s[NK - 1]).throttled_cycles > stats(s[0]).throttled_cycles);
    assert_true(stats(s[NK - 1]).permitted_sum < stats(s[0]).permitted_sum);
    for (int k = 0; k < NK; k++)
        drop(s[k]);
}

/* ---- oracle 32: every request of an uncoalesced load probes ---- */

static void test_ccws_oracle32_per_request(void **state)
{
    struct sm *s = make("ccws:vta_entries=32", 32);

    (void)state;
    permitted(s);
    issues(s, 100);
    for (uint64_t i = 0; i < 32; i++)
        mem(s, POL_MEM_L1_EVICT, 4, 1000 + i);
    for (uint64_t i = 0; i < 32; i++) /* one divergent load: 32 lines, 32 misses */
        mem(s, POL_MEM_L1_MISS, 4, 1000 + i);
    assert_int_equal(stats(s).vta_hits, 32);
    assert_int_equal(stats(s).vta_probes, 32);
    drop(s);
}

/* ---- decay=inst: one point per issued instruction, not per cycle (ambiguity 1) ---- */

static void test_ccws_decay_inst(void **state)
{
    struct sm *s = one_high("ccws:decay=inst"), *p = one_high("ccws:decay=inst,decay_period=2");
    uint64_t t0 = s->now;

    (void)state;
    s->now = p->now = t0 + 5000; /* cycles without an issue: no decay */
    assert_int_equal(permitted(s), 31);
    permitted(p);
    assert_int_equal(score(s, 0), 256);
    assert_int_equal(score(p, 0), 256);
    issues(s, 55); /* oracle 21 counted in instructions: 156 steps from 256 to 100 */
    assert_int_equal(score(s, 0), 201);
    assert_int_equal(permitted(s), 31); /* 201 + 30 x 100 before the last warp */
    issues(s, 100);
    issues(p, 2 * 155 + 1);
    assert_int_equal(score(s, 0), 101);
    assert_int_equal(score(p, 0), 101);
    assert_int_equal(permitted(s), 32);
    issues(s, 1);
    issues(p, 1);
    assert_int_equal(score(s, 0), 100);
    assert_int_equal(score(p, 0), 100);
    assert_int_equal(permitted(s), 32);
    issues(s, 1000);
    assert_int_equal(score(s, 0), 100); /* never below the base */
    drop(s);
    drop(p);
}

/*
 * decay=inst: a barred warp whose CTA-mate waits at a barrier may load, or
 * nothing might ever issue again to decay the scores; decay=cycle keeps the
 * paper's rule (the scores decay with time anyway).
 */
static void test_ccws_decay_inst_barrier(void **state)
{
    static const char *const spec[] = {"ccws:decay=inst", "ccws"};

    (void)state;
    for (int r = 0; r < 2; r++) {
        struct sm *s = one_high(spec[r]);

        for (uint32_t i = 0; i < 32; i++)
            s->v[i].cta = i / 4; /* warp 31 (barred) shares CTA 7 with warps 28-30 */
        assert_int_equal(permitted(s), 31);
        assert_false(may_load(s, 31));
        s->v[28].at_barrier = true;
        assert_int_equal(permitted(s), r ? 31 : 32);
        assert_int_equal(may_load(s, 31), r == 0);
        assert_int_equal(stats(s).barrier_released, r ? 0 : 1);
        s->v[28].at_barrier = false;
        assert_int_equal(permitted(s), 31); /* barred again once the barrier is passed */
        drop(s);
    }
}

/* ---- oracle 31: a global store removes the line from every warp's VTA ---- */

static void test_ccws_oracle31_write_invalidates(void **state)
{
    struct sm *s = make("ccws", 4), *k = make("ccws:vta_write=keep", 4);

    (void)state;
    permitted(s);
    permitted(k);
    issues(s, 10);
    issues(k, 10);
    for (uint32_t w = 0; w < 2; w++) { /* line 77 lost by warps 0 and 1 */
        mem(s, POL_MEM_L1_EVICT, w, 77);
        mem(k, POL_MEM_L1_EVICT, w, 77);
    }
    mem(s, POL_MEM_L1_EVICT, 0, 78);
    mem(s, POL_MEM_L1_WRITE, 3, 77); /* warp 3 writes it */
    mem(k, POL_MEM_L1_WRITE, 3, 77);
    assert_int_equal(stats(s).writes, 1);
    assert_int_equal(stats(s).vta_write_invalidated, 2);
    assert_int_equal(stats(k).vta_write_invalidated, 0);
    mem(s, POL_MEM_L1_MISS, 0, 77); /* the next load misses, and no VTA hit */
    mem(s, POL_MEM_L1_MISS, 1, 77);
    assert_int_equal(stats(s).vta_hits, 0);
    assert_int_equal(score(s, 0), 100);
    mem(s, POL_MEM_L1_MISS, 0, 78); /* other lines stay */
    assert_int_equal(stats(s).vta_hits, 1);
    mem(k, POL_MEM_L1_MISS, 0, 77);
    mem(k, POL_MEM_L1_MISS, 1, 77);
    assert_int_equal(stats(k).vta_hits, 2);
    drop(s);
    drop(k);
}

/* evict_exited=drop: an eviction of a line allocated by the slot's earlier warp goes nowhere. */
static void test_ccws_evict_exited(void **state)
{
    struct sm *s = make("ccws:evict_exited=drop", 4);

    (void)state;
    permitted(s);
    issues(s, 10);
    mem(s, POL_MEM_L1_EVICT_EXITED, 2, 10); /* slot 2 holds a newer warp than the allocator */
    assert_int_equal(stats(s).evict_dropped, 1);
    assert_int_equal(stats(s).vta_inserts, 0);
    mem(s, POL_MEM_L1_MISS, 2, 10);
    assert_int_equal(stats(s).vta_hits, 0);
    assert_int_equal(score(s, 2), 100);
    vta_hit(s, 2, 11); /* its own lines still count */
    assert_int_equal(stats(s).vta_hits, 1);
    drop(s);
}

/* ---- slots, counters, options ---- */

/* The extraction's slot reuse (start=base, vta_exit=clear, evict_exited=drop). */
static void test_ccws_slot_reuse(void **state)
{
    struct sm *s = make("ccws:start=base,vta_exit=clear,evict_exited=drop", 4);

    (void)state;
    permitted(s);
    issues(s, 10);
    vta_hit(s, 2, 9);
    assert_int_equal(score(s, 2), 1 * 8 * 400 / 10);
    s->ops->on_event(s->st, POL_WARP_EXITED, 2, s->now);
    assert_int_equal(score(s, 2), 0);
    mem(s, POL_MEM_L1_EVICT, 2, 10); /* its line evicted after it left: nobody's */
    assert_int_equal(stats(s).evict_dropped, 1);
    s->ops->on_event(s->st, POL_WARP_LAUNCHED, 2, s->now);
    s->v[2].age = 500;
    assert_int_equal(score(s, 2), 100); /* a new warp starts at base (ambiguity 6) */
    mem(s, POL_MEM_L1_MISS, 2, 9);      /* with an empty VTA */
    assert_int_equal(stats(s).vta_hits, 1);
    /* A new warp the events did not announce is recognised by its age. */
    vta_hit(s, 3, 11);
    assert_true(score(s, 3) > 100);
    s->v[3].age = 600;
    permitted(s);
    assert_int_equal(score(s, 3), 100);
    mem(s, POL_MEM_L1_MISS, 3, 11);
    assert_int_equal(stats(s).vta_hits, 2);
    drop(s);
}

static void test_ccws_counter_reset(void **state)
{
    struct sm *s = make("ccws", 2), *n = make("ccws:reset=never", 2);
    struct sm *both[2] = {s, n};

    (void)state;
    for (int i = 0; i < 2; i++) {
        permitted(both[i]);
        issues(both[i], 10);
        vta_hit(both[i], 0, 1);
        both[i]->ops->on_event(both[i]->st, POL_WARP_LAUNCHED, 5, both[i]->now);
        assert_int_equal(stats(both[i]).llds_insts, 10); /* not idle: no reset */
        for (uint32_t w = 0; w < 2; w++)
            both[i]->ops->on_event(both[i]->st, POL_WARP_EXITED, w, both[i]->now);
        both[i]->ops->on_event(both[i]->st, POL_WARP_EXITED, 5, both[i]->now);
        both[i]->ops->on_event(both[i]->st, POL_WARP_LAUNCHED, 0, both[i]->now);
    }
    assert_int_equal(stats(s).llds_insts, 0); /* the next kernel starts afresh */
    assert_int_equal(stats(s).llds_hits, 0);
    assert_int_equal(stats(n).llds_insts, 10);
    assert_int_equal(stats(n).llds_hits, 1);
    assert_int_equal(stats(s).issued, 10); /* the statistics keep running */
    drop(s);
    drop(n);
}

static void test_ccws_reclamp(void **state)
{
    struct sm *s = make("ccws", 32), *p = make("ccws:reclamp=0", 32);
    struct sm *both[2] = {s, p};

    (void)state;
    for (int i = 0; i < 2; i++) {
        permitted(both[i]);
        issues(both[i], 1000);
        for (int h = 0; h < 10; h++)
            vta_hit(both[i], 0, 500); /* 256 */
        issues(both[i], 1000);        /* the ratio halves: LLDS 128 */
        both[i]->now++;
        permitted(both[i]);
    }
    assert_int_equal(score(s, 0), 128);
    assert_int_equal(score(p, 0), 255);
    drop(s);
    drop(p);
}

static void test_ccws_dump(void **state)
{
    struct sm *s = one_high("ccws:series_cap=2");
    struct ps_err err;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    (void)state;
    assert_non_null(f);
    assert_non_null(s->ops->dump);
    mem(s, POL_MEM_L1_MISS, 3, 123456); /* a probe without a hit: rate 10 / 11 */
    permitted(s);
    s->now += 1000;
    permitted(s); /* back to 32: a third point, beyond the cap */
    ps_err_clear(&err);
    assert_int_equal(s->ops->dump(s->st, f, &err), 0);
    fclose(f);
    assert_non_null(strstr(buf, "# ccws vta_entries=16 vta_assoc=8 vta_repl=fifo k_throttle=8 "));
    assert_non_null(strstr(buf, "# vta_probes=11 vta_hits=10 vta_hit_rate=0.909091 "));
    assert_non_null(strstr(buf, " throttled_cycles=1 "));
    assert_non_null(strstr(buf, " series_dropped=1\n"));
    assert_non_null(strstr(buf, "# permitted_hist 31:1 32:2\n"));
    assert_non_null(strstr(buf, "\ncycle,sm,sched,active,permitted\n1,0,0,32,32\n1,0,0,32,31\n"));
    assert_int_equal(buf[len - 1], '\n');
    free(buf);
    drop(s);
}

/* The series grows past its first allocation and keeps every change. */
static void test_ccws_series_grows(void **state)
{
    struct sm *s = make("ccws", 32);
    struct ps_err err;
    char *buf = NULL, *p;
    size_t len = 0, rows = 0;
    FILE *f = open_memstream(&buf, &len);

    (void)state;
    for (uint32_t c = 0; c < 1000; c++) {
        s->v[31].valid = c % 2 == 0; /* a finished warp is not active */
        s->now++;
        permitted(s);
    }
    ps_err_clear(&err);
    assert_int_equal(s->ops->dump(s->st, f, &err), 0);
    fclose(f);
    for (p = strstr(buf, "permitted\n"); p && (p = strchr(p + 1, '\n')) && p[1];)
        rows++;
    assert_int_equal(rows, 1000);
    assert_non_null(strstr(buf, " series_dropped=0\n"));
    assert_non_null(strstr(buf, "\n1001,0,0,31,31\n"));
    free(buf);
    drop(s);
}

/* ---- the authors' code (shared/design/seeds/004_ccws_authors_code.md) ---- */

/* Their hashed set index: for 2 sets, bit 0 XOR bit 1 of the line address. */
static void test_ccws_vta_hashed_index(void **state)
{
    struct pol_ccws_vta *v = pol_ccws_vta_create(1, 16, 8, POL_CCWS_VTA_FIFO);
    static const uint64_t set0[] = {0, 3, 4, 7, 8, 11, 12, 15, 16};

    (void)state;
    assert_non_null(v);
    pol_ccws_vta_set_hashed(v, true);
    for (int i = 0; i < 9; i++) /* a 9th line of set 0 evicts line 0 */
        pol_ccws_vta_insert(v, 0, set0[i]);
    assert_false(pol_ccws_vta_probe(v, 0, 0));
    assert_true(pol_ccws_vta_probe(v, 0, 3));
    for (uint64_t l = 1; l <= 2; l++) /* set 1 is untouched: lines 1, 2 fit */
        pol_ccws_vta_insert(v, 0, l);
    assert_true(pol_ccws_vta_probe(v, 0, 1) && pol_ccws_vta_probe(v, 0, 2));
    assert_int_equal(pol_ccws_vta_count(v, 0), 10);
    pol_ccws_vta_destroy(v);
}

/* Two schedulers of one SM share one point system: one warp's lost locality bars the other's. */
static void test_ccws_shared_point_system(void **state)
{
    const struct pol_warp_sched_ops *ops;
    struct pol_instr_view ld = {.is_mem = true, .is_load = true};
    struct pol_warp_view v[2][16];
    void *shared = NULL, *sch[2];
    struct ps_err err;
    uint32_t ord[16];

    (void)state;
    ps_err_clear(&err);
    ops = pol_warp_sched_find("ccws", NULL, &err);
    for (uint32_t i = 0; i < 2; i++) {
        struct pol_warp_sched_params p = {
            .sched_id = i, .nsched = 2, .max_warps = 32, .args = "", .sm_shared = &shared};

        sch[i] = pol_warp_sched_create(ops, &p, &err);
        assert_non_null(sch[i]);
    }
    assert_non_null(shared);
    for (uint32_t slot = 0; slot < 32; slot++) {
        v[slot % 2][slot / 2] =
            (struct pol_warp_view){.slot = slot, .valid = true, .ready = true, .age = slot};
        ops->on_event(sch[slot % 2], POL_WARP_LAUNCHED, slot, 1);
    }
    ops->order(sch[0], v[0], 16, ord, 1);
    ops->order(sch[1], v[1], 16, ord, 1);
    for (int i = 0; i < 1000; i++)
        ops->on_issue(sch[i % 2], &v[i % 2][0], 1);
    for (int i = 0; i < 40; i++) { /* H / I = 0.04: slot 2 scores 1024, a third of the cutoff */
        ops->on_mem(sch[0], POL_MEM_L1_EVICT, 2, 500, 1);
        ops->on_mem(sch[0], POL_MEM_L1_MISS, 2, 500, 1);
    }
    assert_int_equal(pol_ws_ccws_score(sch[1], 2), 1024); /* seen from either scheduler */
    for (uint32_t i = 0; i < 2; i++)
        ops->order(sch[i], v[i], 16, ord, 2);
    /* 1024 + 22 x 100 reach 3200: slot 2 and the 22 lowest others (0..22) load; 23.. are barred. */
    for (uint32_t slot = 0; slot < 32; slot++)
        assert_int_equal(ops->may_issue(sch[slot % 2], &v[slot % 2][slot / 2], &ld), slot < 23);
    pol_warp_sched_destroy(ops, sch[0]);
    assert_non_null(shared);
    pol_warp_sched_destroy(ops, sch[1]);
    assert_null(shared);
}

/*
 * Slot reuse as the authors do it: the VTA stays with the slot (an exited
 * warp's lines still go in), the new warp starts at 0 until its first L1D
 * access, and Eq. (1)'s counters hold only live warps'.
 */
static void test_ccws_slot_reuse_authors(void **state)
{
    struct sm *s = make("ccws", 4);

    (void)state;
    permitted(s);
    s->ops->on_issue(s->st, &s->v[2], s->now);
    issues(s, 9);
    vta_hit(s, 2, 9);
    assert_int_equal(score(s, 2), 1 * 8 * 400 / 10);
    s->ops->on_event(s->st, POL_WARP_EXITED, 2, s->now);
    assert_int_equal(stats(s).llds_hits, 0); /* its hit and its instruction leave */
    assert_int_equal(stats(s).llds_insts, 9);
    mem(s, POL_MEM_L1_EVICT_EXITED, 2, 10); /* into slot 2's VTA all the same */
    assert_int_equal(stats(s).vta_inserts, 2);
    s->ops->on_event(s->st, POL_WARP_LAUNCHED, 2, s->now);
    s->v[2].age = 500;
    assert_int_equal(score(s, 2), 0);
    mem(s, POL_MEM_L1_HIT, 2, 30); /* its first L1D access clamps it to the base */
    assert_int_equal(score(s, 2), 100);
    mem(s, POL_MEM_L1_MISS, 2, 10); /* the inherited VTA hits: 1 / 9 x 8 x 400 */
    assert_int_equal(stats(s).vta_hits, 2);
    assert_int_equal(score(s, 2), 355);
    drop(s);
}

/* A read merging into a pending MSHR probes the VTA (merge=probe) or counts as a hit. */
static void test_ccws_merge_probes(void **state)
{
    struct sm *s = make("ccws", 4), *n = make("ccws:merge=ignore", 4);

    (void)state;
    for (int i = 0; i < 2; i++) {
        struct sm *x = i ? n : s;

        permitted(x);
        issues(x, 10);
        mem(x, POL_MEM_L1_EVICT, 1, 7);
        mem(x, POL_MEM_L1_MERGE, 1, 7);
    }
    assert_int_equal(stats(s).vta_hits, 1);
    assert_int_equal(stats(n).vta_hits, 0);
    assert_int_equal(stats(n).l1_hits, 1);
    drop(s);
    drop(n);
}

/* Global atomics are held with the loads (atomics=hold), or not (atomics=free). */
static void test_ccws_atomics_held(void **state)
{
    struct pol_instr_view at = {.is_mem = true, .is_atomic = true};
    struct sm *s = one_high("ccws"), *f = one_high("ccws:atomics=free");

    (void)state;
    permitted(s);
    permitted(f);
    assert_false(s->ops->may_issue(s->st, &s->v[31], &at));
    assert_true(f->ops->may_issue(f->st, &f->v[31], &at));
    drop(s);
    drop(f);
}

/* A line's eviction goes to the last warp that missed or merged on it (evict_to=source). */
static void test_ccws_evict_to_source(void **state)
{
    struct sm *s = make("ccws", 4), *a = make("ccws:evict_to=alloc", 4);

    (void)state;
    for (int i = 0; i < 2; i++) {
        struct sm *x = i ? a : s;

        permitted(x);
        issues(x, 10);
        mem(x, POL_MEM_L1_MISS, 1, 7);  /* slot 1 allocates line 7 */
        mem(x, POL_MEM_L1_MERGE, 2, 7); /* slot 2 merges into its MSHR */
        mem(x, POL_MEM_L1_EVICT, 1, 7); /* the L1D names the allocator */
        mem(x, POL_MEM_L1_MISS, 2, 7);
        mem(x, POL_MEM_L1_MISS, 1, 7);
    }
    assert_int_equal(stats(s).vta_hits, 1);
    assert_true(score(s, 2) > 100 && score(s, 1) == 100);
    assert_int_equal(stats(s).evict_redirected, 1);
    assert_int_equal(stats(a).vta_hits, 1);
    assert_true(score(a, 1) > 100 && score(a, 2) == 100);
    drop(s);
    drop(a);
}

/*
 * A store miss (store_miss=probe, the authors' hook on every L1D MISS): the
 * line the L1D's probe picked goes into its source warp's VTA although it
 * stays cached, and the storing warp becomes its source, so its real
 * eviction later fills the storing warp's VTA. store_miss=ignore: neither.
 */
static void test_ccws_store_miss(void **state)
{
    struct sm *s = make("ccws", 4), *n = make("ccws:store_miss=ignore", 4);

    (void)state;
    for (int i = 0; i < 2; i++) {
        struct sm *x = i ? n : s;

        permitted(x);
        issues(x, 10);
        mem(x, POL_MEM_L1_MISS, 1, 7);         /* slot 1 allocates line 7 */
        mem(x, POL_MEM_L1_STORE_VICTIM, 1, 7); /* a store by slot 3 misses; 7 is picked */
        mem(x, POL_MEM_L1_STORE_MISS, 3, 7);
        mem(x, POL_MEM_L1_MISS, 1, 7);  /* (7 re-read after all): in slot 1's VTA */
        mem(x, POL_MEM_L1_EVICT, 1, 7); /* the L1D names the allocator, slot 1 */
        mem(x, POL_MEM_L1_MISS, 3, 7);
    }
    assert_int_equal(stats(s).store_victims, 1);
    assert_int_equal(stats(s).vta_hits, 1);
    assert_true(score(s, 1) > 100);
    /* slot 1's re-read made it the source again: the eviction went back to slot 1 */
    assert_int_equal(stats(s).evict_redirected, 0);
    assert_int_equal(stats(n).store_victims, 0);
    assert_int_equal(stats(n).vta_hits, 0);
    assert_int_equal(stats(n).vta_inserts, 1);
    drop(s);
    drop(n);
}

/* After a store miss, the picked line's later eviction goes to the storing warp's VTA. */
static void test_ccws_store_miss_source(void **state)
{
    struct sm *s = make("ccws", 4);

    (void)state;
    permitted(s);
    issues(s, 10);
    mem(s, POL_MEM_L1_MISS, 1, 7);
    mem(s, POL_MEM_L1_STORE_VICTIM, 1, 7);
    mem(s, POL_MEM_L1_STORE_MISS, 3, 7);
    mem(s, POL_MEM_L1_EVICT, 1, 7);
    mem(s, POL_MEM_L1_MISS, 1, 7); /* slot 1 still has it from the store's probe */
    mem(s, POL_MEM_L1_MISS, 3, 7); /* and the eviction went to slot 3 */
    assert_int_equal(stats(s).evict_redirected, 1);
    assert_int_equal(stats(s).vta_hits, 2);
    assert_true(score(s, 1) > 100 && score(s, 3) > 100);
    drop(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ccws_args),
        cmocka_unit_test(test_ccws_vta_hashed_index),
        cmocka_unit_test(test_ccws_shared_point_system),
        cmocka_unit_test(test_ccws_slot_reuse_authors),
        cmocka_unit_test(test_ccws_merge_probes),
        cmocka_unit_test(test_ccws_atomics_held),
        cmocka_unit_test(test_ccws_evict_to_source),
        cmocka_unit_test(test_ccws_store_miss),
        cmocka_unit_test(test_ccws_store_miss_source),
        cmocka_unit_test(test_ccws_oracle14_27_gto_without_vta_hits),
        cmocka_unit_test(test_ccws_oracle15_cutoff),
        cmocka_unit_test(test_ccws_oracle16_17_vta_owner),
        cmocka_unit_test(test_ccws_oracle18_vta_fifo),
        cmocka_unit_test(test_ccws_vta_lru_invalidate_clear),
        cmocka_unit_test(test_ccws_oracle18_through_policy),
        cmocka_unit_test(test_ccws_oracle19_llds),
        cmocka_unit_test(test_ccws_oracle20_cap),
        cmocka_unit_test(test_ccws_oracle21_decay),
        cmocka_unit_test(test_ccws_decay_period_and_skipped_cycles),
        cmocka_unit_test(test_ccws_oracle25_relax),
        cmocka_unit_test(test_ccws_oracle22_boundary),
        cmocka_unit_test(test_ccws_tie_order),
        cmocka_unit_test(test_ccws_oracle23_only_loads),
        cmocka_unit_test(test_ccws_oracle24_intersection),
        cmocka_unit_test(test_ccws_oracle26_monotone),
        cmocka_unit_test(test_ccws_oracle32_per_request),
        cmocka_unit_test(test_ccws_decay_inst),
        cmocka_unit_test(test_ccws_decay_inst_barrier),
        cmocka_unit_test(test_ccws_oracle31_write_invalidates),
        cmocka_unit_test(test_ccws_evict_exited),
        cmocka_unit_test(test_ccws_slot_reuse),
        cmocka_unit_test(test_ccws_counter_reset),
        cmocka_unit_test(test_ccws_reclamp),
        cmocka_unit_test(test_ccws_dump),
        cmocka_unit_test(test_ccws_series_grows),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
