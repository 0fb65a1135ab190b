/*
 * Unit tests for the locality-driven bypassing policy ("locality",
 * policies/l1d_locality.c): the test oracles of
 * design/seeds/002_locality_bypass.md section 8, each test named after and
 * citing its oracle. Most drive a real mem_cache (32 sets, 4 ways, linear
 * index so that set = line % 32) whose policy table wraps the locality one
 * to keep the instance pointer (for pol_l1d_locality_entry) and a shadow of
 * the data store built from on_insert / on_evict. The test plays the next
 * level: it pops the miss queue and answers reads through mem_cache_fill.
 * Reads ask for 32 bytes, so a 128-byte request below is a line fetch.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "memsys/cache.h"
#include "policies/l1d.h"
#include "policies/l1d_builtin.h"
#include "policies/l1d_locality.h"
#include "policies/registry.h"

/* Fermi's L1D shape with a linear index; 'E' write-evict, or 'L' (local write-back). */
#define GEOM_E "N:32:128:4,L:E:m:N:L,A:32:8,8"
#define GEOM_L "N:32:128:4,L:L:m:N:L,A:32:8,8"
#define NSETS 32
#define ASSOC 4
#define MAXHOLD 64

/* The instance inside the cache under test and the data store seen through the hooks. */
static void *g_st;
static uint64_t g_line[NSETS][ASSOC];
static bool g_used[NSETS][ASSOC];
static struct pol_l1d_ops g_wrap;

static void *wrap_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    g_st = pol_l1d_locality.create(p, err); /* p: parsed and allocated for the copy */
    return g_st;
}

static void wrap_insert(void *st, const struct mem_req *r, uint32_t set, uint32_t way, uint64_t now)
{
    g_line[set][way] = r->addr >> 7;
    g_used[set][way] = true;
    pol_l1d_locality.on_insert(st, r, set, way, now);
}

static void wrap_evict(void *st, const struct pol_line_view *l, uint32_t set, uint32_t way,
                       uint64_t now)
{
    g_used[set][way] = false;
    pol_l1d_locality.on_evict(st, l, set, way, now);
}

static struct mem_cache *mk(const char *geom, const char *args)
{
    struct mem_cache_geom g;
    struct ps_err err;
    struct mem_cache *c;

    g_wrap = pol_l1d_locality;
    g_wrap.create = wrap_create;
    g_wrap.on_insert = wrap_insert;
    g_wrap.on_evict = wrap_evict;
    memset(g_used, 0, sizeof(g_used));
    ps_err_clear(&err);
    assert_int_equal(mem_cache_geom_parse(geom, &g, &err), 0);
    c = mem_cache_create(&g, "l1d", &g_wrap, args, 0, &err);
    if (!c)
        fail_msg("%s", err.msg);
    return c;
}

/* Line address of the k-th block of set s. */
static uint64_t blk(uint32_t s, uint32_t k)
{
    return ((uint64_t)k * NSETS + s) * 128;
}

static struct mem_req req(enum mem_type type, uint64_t addr, uint64_t uid)
{
    struct mem_req r;

    memset(&r, 0, sizeof(r));
    r.type = (uint8_t)type;
    r.addr = addr;
    r.bytes = 32;
    r.sector_mask = 1;
    r.uid = uid;
    r.space = MEM_GLOBAL;
    r.warp = (uint16_t)(uid % 48);
    return r;
}

static uint64_t g_uid = 1, g_now = 1;

static enum mem_cache_result rd(struct mem_cache *c, uint64_t addr)
{
    struct mem_req r = req(MEM_READ, addr, g_uid++);

    return mem_cache_access(c, &r, g_now++);
}

static enum mem_cache_result wr(struct mem_cache *c, uint64_t addr, uint8_t space)
{
    struct mem_req r = req(MEM_WRITE, addr, g_uid++);

    r.space = space;
    return mem_cache_access(c, &r, g_now++);
}

/* Pops everything; answers reads (all, or only the sent ones when hold keeps line fetches). */
static uint32_t serve(struct mem_cache *c, struct mem_req *hold, uint32_t *nhold)
{
    struct mem_req m;
    uint32_t n = 0;

    while (mem_cache_pop_miss(c, &m)) {
        n++;
        if (m.type == MEM_WRITE)
            continue;
        if (hold && m.bytes == 128 && *nhold < MAXHOLD)
            hold[(*nhold)++] = m;
        else
            mem_cache_fill(c, &m, g_now);
    }
    while (mem_cache_pop_ready(c, &m))
        ;
    return n;
}

/* Read and answer at once. */
static enum mem_cache_result rds(struct mem_cache *c, uint64_t addr)
{
    enum mem_cache_result res = rd(c, addr);

    serve(c, NULL, NULL);
    return res;
}

/* The tag entry of the line holding addr, or an entry with valid false. */
static struct pol_loc_entry ent(uint64_t addr)
{
    struct pol_loc_entry e = {0};
    uint32_t set = (uint32_t)((addr >> 7) % NSETS);

    for (uint32_t w = 0; w < pol_l1d_locality_ways(g_st); w++) {
        assert_true(pol_l1d_locality_entry(g_st, set, w, &e));
        if (e.valid && e.tag == addr >> 7)
            return e;
    }
    memset(&e, 0, sizeof(e));
    return e;
}

/* Free_Line of a set: the data ways holding nothing. */
static uint32_t free_lines(uint32_t set)
{
    uint32_t n = 0;

    for (uint32_t w = 0; w < ASSOC; w++)
        n += !g_used[set][w];
    return n;
}

/* Oracle O11: committed entries are the occupied data ways, one to one; tags unique. */
static void check_invariants(void)
{
    for (uint32_t s = 0; s < NSETS; s++) {
        uint32_t ncommit = 0, ways = pol_l1d_locality_ways(g_st);
        struct pol_loc_entry e[64], *a;

        for (uint32_t w = 0; w < ways; w++)
            assert_true(pol_l1d_locality_entry(g_st, s, w, &e[w]));
        for (uint32_t w = 0; w < ways; w++) {
            a = &e[w];
            for (uint32_t v = w + 1; a->valid && v < ways; v++)
                assert_false(e[v].valid && e[v].tag == a->tag);
            if (!a->valid || !a->committed)
                continue;
            ncommit++;
            assert_true(a->pos < ASSOC);
            assert_true(g_used[s][a->pos]);
            assert_int_equal(g_line[s][a->pos], a->tag);
        }
        assert_true(ncommit <= ASSOC);
        assert_int_equal(ncommit, ASSOC - free_lines(s));
    }
}

/* Reads addr n times, answering each; returns the last result. */
static enum mem_cache_result rdn(struct mem_cache *c, uint64_t addr, uint32_t n)
{
    enum mem_cache_result res = MEM_RESFAIL;

    while (n--)
        res = rds(c, addr);
    return res;
}

/* ---- the oracles ---- */

/* Oracle O1: reset state. */
static void test_locality_o1_reset(void **state)
{
    struct mem_cache *c = mk(GEOM_E, "");
    struct pol_loc_entry e;
    struct pol_line_view lines[ASSOC] = {{0}};

    (void)state;
    assert_int_equal(pol_l1d_locality_ways(g_st), 8);
    for (uint32_t s = 0; s < NSETS; s++) {
        for (uint32_t w = 0; w < 8; w++) {
            assert_true(pol_l1d_locality_entry(g_st, s, w, &e));
            assert_false(e.valid);
            assert_false(e.committed);
            assert_int_equal(e.rc, 0);
        }
        assert_int_equal(free_lines(s), ASSOC);
        /* every data way is invalid: the data-store victim is way 0 */
        assert_int_equal(g_wrap.victim(g_st, s, lines, ASSOC, 1), 0);
    }
    assert_false(pol_l1d_locality_entry(g_st, NSETS, 0, &e));
    assert_false(pol_l1d_locality_entry(g_st, 0, 8, &e));
    check_invariants();
    mem_cache_destroy(c);
}

/* Oracle O2: the first read of a block bypasses and leaves a candidate with RC 1. */
static void test_locality_o2_first_touch_bypasses(void **state)
{
    struct mem_cache *c = mk(GEOM_E, "");
    struct mem_req m;
    struct pol_loc_entry e;

    (void)state;
    assert_int_equal(rd(c, blk(3, 1)), MEM_SENT);
    e = ent(blk(3, 1));
    assert_true(e.valid);
    assert_false(e.committed);
    assert_int_equal(e.rc, 1);
    assert_int_equal(free_lines(3), ASSOC);
    /* one request below, of the coalesced size: no line fetch, no MSHR */
    assert_true(mem_cache_pop_miss(c, &m));
    assert_int_equal(m.bytes, 32);
    assert_false(mem_cache_pop_miss(c, NULL));
    mem_cache_fill(c, &m, g_now);
    assert_true(mem_cache_pop_ready(c, &m));
    /* the response filled nothing: no MSHR left, no line */
    assert_false(mem_cache_busy(c));
    assert_int_equal(mem_cache_get_stats(c)->fills, 0);
    assert_int_equal(mem_cache_get_stats(c)->bypassed, 1);
    assert_int_equal(mem_cache_get_stats(c)->pol[0], 1); /* tag_miss_bypass */
    check_invariants();
    mem_cache_destroy(c);
}

/* Oracle O3: BYPASS, BYPASS, MISS (a reserved line, one 128-byte fetch), then HIT. */
static void test_locality_o3_promotion(void **state)
{
    struct mem_cache *c = mk(GEOM_E, "");
    struct mem_req hold[MAXHOLD];
    uint32_t nhold = 0;
    struct pol_loc_entry e;

    (void)state;
    assert_int_equal(rds(c, blk(5, 2)), MEM_SENT);
    assert_int_equal(rds(c, blk(5, 2)), MEM_SENT);
    assert_int_equal(ent(blk(5, 2)).rc, 2);
    assert_int_equal(rd(c, blk(5, 2)), MEM_MISS);
    e = ent(blk(5, 2));
    assert_true(e.committed);
    assert_int_equal(e.rc, 3);
    assert_int_equal(free_lines(5), ASSOC - 1);
    assert_true(mem_cache_busy(c)); /* the MSHR entry */
    assert_int_equal(serve(c, hold, &nhold), 1);
    assert_int_equal(nhold, 1);
    assert_int_equal(hold[0].bytes, 128);
    mem_cache_fill(c, &hold[0], g_now);
    assert_int_equal(rd(c, blk(5, 2)), MEM_HIT);
    assert_int_equal(mem_cache_get_stats(c)->pol[2], 1); /* promote */
    check_invariants();
    mem_cache_destroy(c);
}

/* Oracle O4: reads of a reserved line merge (HIT_RESERVED) until the 8 merge slots are used. */
static void test_locality_o4_hit_pending(void **state)
{
    struct mem_cache *c = mk(GEOM_E, "");
    struct mem_req hold[MAXHOLD];
    uint32_t nhold = 0;

    (void)state;
    rdn(c, blk(7, 1), 2);
    assert_int_equal(rd(c, blk(7, 1)), MEM_MISS);
    serve(c, hold, &nhold);
    for (int i = 0; i < 7; i++)
        assert_int_equal(rd(c, blk(7, 1)), MEM_HIT_RESERVED);
    assert_null(mem_cache_peek_miss(c)); /* no new request below */
    assert_int_equal(rd(c, blk(7, 1)), MEM_RESFAIL);
    assert_int_equal(ent(blk(7, 1)).rc, 3);
    mem_cache_fill(c, &hold[0], g_now);
    assert_int_equal(rd(c, blk(7, 1)), MEM_HIT);
    check_invariants();
    mem_cache_destroy(c);
}

/* Oracle O5: the tag victim is the candidate with the smallest RC, then the LRU one. */
static void test_locality_o5_lfu_victim(void **state)
{
    struct mem_cache *c = mk(GEOM_E, "");

    (void)state;
    for (uint32_t k = 0; k < 8; k++)
        rdn(c, blk(0, k), 1 + (k % 2 == 0)); /* even blocks RC 2, odd RC 1 */
    assert_int_equal(ent(blk(0, 1)).rc, 1);
    assert_int_equal(rds(c, blk(0, 8)), MEM_SENT);
    assert_false(ent(blk(0, 1)).valid); /* the oldest of the RC-1 candidates */
    assert_true(ent(blk(0, 3)).valid);
    assert_int_equal(ent(blk(0, 0)).rc, 2);
    assert_int_equal(ent(blk(0, 8)).rc, 1);
    assert_int_equal(mem_cache_get_stats(c)->pol[4], 1); /* tag_evict */
    check_invariants();
    mem_cache_destroy(c);
}

/* Oracle O5: a committed entry is never the tag victim, whatever its RC. */
static void test_locality_o5_committed_kept(void **state)
{
    struct mem_cache *c = mk(GEOM_E, "t=5");

    (void)state;
    for (uint32_t k = 0; k < 4; k++) /* 6 reads pass t=5: four committed entries */
        assert_int_equal(rdn(c, blk(1, k), 6), MEM_MISS);
    assert_int_equal(ent(blk(1, 0)).rc, 3); /* 6, aged by the three later allocations */
    for (uint32_t k = 4; k < 8; k++)
        rdn(c, blk(1, k), 5); /* candidates at RC 5 */
    assert_int_equal(rds(c, blk(1, 8)), MEM_SENT);
    assert_true(ent(blk(1, 0)).committed);
    assert_false(ent(blk(1, 4)).valid);
    assert_int_equal(rds(c, blk(1, 0)), MEM_HIT);
    check_invariants();
    mem_cache_destroy(c);
}

/* Oracle O6: a fill into a free line ages the other entries of that set only, floor 0. */
static void test_locality_o6_aging_on_allocation(void **state)
{
    struct mem_cache *c = mk(GEOM_E, "");

    (void)state;
    rdn(c, blk(2, 0), 1);                             /* C: RC 1 */
    rdn(c, blk(2, 1), 2);                             /* A: RC 2 */
    rdn(c, blk(9, 0), 2);                             /* X in another set: RC 2 */
    assert_int_equal(rdn(c, blk(2, 2), 3), MEM_MISS); /* B promoted */
    assert_int_equal(ent(blk(2, 2)).rc, 3);           /* not its own aging */
    assert_int_equal(ent(blk(2, 1)).rc, 1);
    assert_int_equal(ent(blk(2, 0)).rc, 0);
    assert_int_equal(rdn(c, blk(2, 3), 3), MEM_MISS); /* E promoted */
    assert_int_equal(ent(blk(2, 0)).rc, 0);           /* stays at 0 */
    assert_int_equal(ent(blk(2, 1)).rc, 0);
    assert_int_equal(ent(blk(2, 2)).rc, 2);
    assert_int_equal(ent(blk(9, 0)).rc, 2);
    check_invariants();
    mem_cache_destroy(c);
}

/* Oracle O7 body: four lines, a bystander at RC 2, a fifth promotion; returns the bystander's RC.
 */
static uint32_t evict_case(const char *args)
{
    struct mem_cache *c = mk(GEOM_E, args);
    struct pol_loc_entry e;
    uint32_t by;

    for (uint32_t k = 0; k < 4; k++)
        assert_int_equal(rdn(c, blk(4, k), 3), MEM_MISS);
    rdn(c, blk(4, 9), 2); /* the bystander */
    assert_int_equal(free_lines(4), 0);
    assert_int_equal(rdn(c, blk(4, 4), 3), MEM_MISS);
    e = ent(blk(4, 0)); /* the LRU line went */
    assert_true(e.valid);
    assert_false(e.committed);
    assert_int_equal(e.rc, 0);
    assert_true(ent(blk(4, 1)).committed);
    assert_int_equal(mem_cache_get_stats(c)->evictions, 1);
    by = ent(blk(4, 9)).rc;
    check_invariants();
    /* the evicted block starts over: RC 1, 2, then promoted at 3 */
    assert_int_equal(rds(c, blk(4, 0)), MEM_SENT);
    assert_int_equal(ent(blk(4, 0)).rc, 1);
    assert_int_equal(rds(c, blk(4, 0)), MEM_SENT);
    assert_int_equal(rds(c, blk(4, 0)), MEM_MISS);
    check_invariants();
    mem_cache_destroy(c);
    return by;
}

/* Oracle O7: a data eviction resets the victim's RC; bystanders age twice (once per promotion). */
static void test_locality_o7_eviction_resets_rc(void **state)
{
    (void)state;
    assert_int_equal(evict_case(""), 0);
    assert_int_equal(evict_case("aging=per_promotion"), 1);
}

/* Oracle O8: RC saturates at 2^rc_bits - 1. */
static void test_locality_o8_saturation(void **state)
{
    struct mem_cache *c = mk(GEOM_E, "t=63");

    (void)state;
    assert_int_equal(rdn(c, blk(6, 0), 70), MEM_SENT);
    assert_int_equal(ent(blk(6, 0)).rc, 63);
    mem_cache_destroy(c);
    c = mk(GEOM_E, "rc_bits=3,t=7");
    assert_int_equal(rdn(c, blk(6, 0), 20), MEM_SENT);
    assert_int_equal(ent(blk(6, 0)).rc, 7);
    mem_cache_destroy(c);
}

/* Four promotions in set 8 left reserved (their fetches held), a candidate Z at RC 2, W at RC 1. */
static struct mem_cache *all_reserved(const char *args, struct mem_req *hold, uint32_t *nhold)
{
    struct mem_cache *c = mk(GEOM_E, args);

    for (uint32_t k = 0; k < 4; k++) {
        rdn(c, blk(8, k), 2);
        assert_int_equal(rd(c, blk(8, k)), MEM_MISS);
        serve(c, hold, nhold);
    }
    rdn(c, blk(8, 5), 2);
    rdn(c, blk(8, 6), 1);
    return c;
}

/* Oracle O9: a promotion that cannot get a line fails and changes nothing, however often. */
static void test_locality_o9_failed_promotion(void **state)
{
    struct mem_req hold[MAXHOLD], r = req(MEM_READ, blk(8, 5), 9999);
    uint32_t nhold = 0;
    struct mem_cache *c = all_reserved("", hold, &nhold);

    (void)state;
    for (int i = 0; i < 5; i++) {
        assert_int_equal(mem_cache_access(c, &r, g_now++), MEM_RESFAIL); /* one request, retried */
        assert_int_equal(rd(c, blk(8, 5)), MEM_RESFAIL);                 /* new requests */
    }
    assert_int_equal(ent(blk(8, 5)).rc, 2);
    assert_int_equal(ent(blk(8, 6)).rc, 1);
    assert_int_equal(ent(blk(8, 0)).rc, 0); /* 3, aged by the three later allocations */
    assert_int_equal(free_lines(8), 0);
    check_invariants();
    for (uint32_t i = 0; i < nhold; i++)
        mem_cache_fill(c, &hold[i], g_now);
    serve(c, NULL, NULL);
    assert_int_equal(mem_cache_access(c, &r, g_now++), MEM_MISS);
    /* 3, less the eviction event's aging (pseudocode 3.5 ages all but the evicted entry) */
    assert_int_equal(ent(blk(8, 5)).rc, 2);
    assert_true(ent(blk(8, 5)).committed);
    check_invariants();
    mem_cache_destroy(c);

    /* promote_fail=bypass: sent down at once, RC counted */
    nhold = 0;
    c = all_reserved("promote_fail=bypass", hold, &nhold);
    assert_int_equal(rd(c, blk(8, 5)), MEM_SENT);
    assert_int_equal(ent(blk(8, 5)).rc, 3);
    assert_false(ent(blk(8, 5)).committed);
    mem_cache_destroy(c);
}

/* Oracle O9/O10 with the MSHRs full (two entries): promotions fail, bypasses still go. */
static void test_locality_o10_bypass_needs_no_mshr(void **state)
{
    struct mem_cache *c = mk("N:32:128:4,L:E:m:N:L,A:2:8,8", "");
    struct mem_req hold[MAXHOLD];
    uint32_t nhold = 0;

    (void)state;
    for (uint32_t s = 0; s < 2; s++) {
        rdn(c, blk(s, 0), 2);
        assert_int_equal(rd(c, blk(s, 0)), MEM_MISS);
        serve(c, hold, &nhold);
    }
    rdn(c, blk(2, 0), 2);
    assert_int_equal(rd(c, blk(2, 0)), MEM_RESFAIL); /* Oracle O9: no MSHR */
    assert_int_equal(ent(blk(2, 0)).rc, 2);
    /* two warps read the same new block: two bypasses, two requests, no merge */
    assert_int_equal(rd(c, blk(3, 0)), MEM_SENT);
    assert_int_equal(rd(c, blk(3, 0)), MEM_SENT);
    assert_int_equal(serve(c, hold, &nhold), 2);
    check_invariants();
    mem_cache_destroy(c);
}

/* Oracle O9: a full miss queue fails a promotion without changing RC. */
static void test_locality_o9_miss_queue_full(void **state)
{
    struct mem_cache *c = mk(GEOM_E, "");

    (void)state;
    rdn(c, blk(10, 0), 2);
    for (uint32_t k = 1; k <= 8; k++)
        assert_int_equal(rd(c, blk(11, k)), MEM_SENT); /* eight bypasses fill the queue */
    assert_int_equal(rd(c, blk(10, 0)), MEM_RESFAIL);
    assert_int_equal(ent(blk(10, 0)).rc, 2);
    assert_int_equal(free_lines(10), ASSOC);
    serve(c, NULL, NULL);
    assert_int_equal(rd(c, blk(10, 0)), MEM_MISS);
    mem_cache_destroy(c);
}

/* A deterministic trace: reads mostly, some writes, answers at random points. */
static void run_trace(struct mem_cache *c, uint32_t n, uint32_t seed, bool check,
                      enum mem_cache_result *out)
{
    uint32_t x = seed;

    for (uint32_t i = 0; i < n; i++) {
        uint32_t set, k;

        x = x * 1103515245u + 12345u;
        set = (x >> 8) % 3;
        k = (x >> 12) % 11;
        if ((x >> 20) % 8 == 0)
            out[i] = wr(c, blk(set, k), (x >> 24) % 2 ? MEM_LOCAL : MEM_GLOBAL);
        else
            out[i] = rd(c, blk(set, k));
        if ((x >> 16) % 4 == 0)
            serve(c, NULL, NULL);
        if (check)
            check_invariants();
    }
}

/* Oracle O11: the invariants hold after every operation of a mixed trace. */
static void test_locality_o11_invariants(void **state)
{
    enum mem_cache_result res[3000];
    const char *args[] = {"", "aging=per_promotion", "t=1,cmp=ge,rc_init=0", "stores_age=off"};

    (void)state;
    for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
        struct mem_cache *c = mk(i % 2 ? GEOM_L : GEOM_E, args[i]);

        run_trace(c, 3000, 7 + (uint32_t)i, true, res);
        assert_true(mem_cache_get_stats(c)->pol[2] > 0);
        assert_true(mem_cache_get_stats(c)->evictions > 0);
        mem_cache_destroy(c);
    }
}

/* Oracle O12: t=0 is the plain LRU cache, access for access, and never bypasses. */
static void test_locality_o12_baseline_equivalence(void **state)
{
    static enum mem_cache_result a[4000], b[4000];
    struct mem_cache_geom g;
    struct ps_err err;
    struct mem_cache *c;

    (void)state;
    c = mk(GEOM_L, "t=0");
    run_trace(c, 4000, 99, false, a);
    assert_int_equal(mem_cache_get_stats(c)->bypassed, 0);
    mem_cache_destroy(c);
    assert_int_equal(mem_cache_geom_parse(GEOM_L, &g, &err), 0);
    c = mem_cache_create(&g, "lru", &pol_l1d_lru, "", 0, &err);
    assert_non_null(c);
    run_trace(c, 4000, 99, false, b);
    mem_cache_destroy(c);
    for (int i = 0; i < 4000; i++)
        if (a[i] != b[i])
            fail_msg("access %d: %d under t=0, %d under lru", i, a[i], b[i]);
}

/* Oracle O13: blocks read twice each: no allocation, no hit, as many requests as bypass-all. */
static void test_locality_o13_two_touch_stream(void **state)
{
    struct mem_cache_geom g;
    struct ps_err err;
    struct mem_cache *c[2];
    uint32_t below[2] = {0, 0};

    (void)state;
    c[0] = mk(GEOM_E, "");
    assert_int_equal(mem_cache_geom_parse(GEOM_E, &g, &err), 0);
    c[1] = mem_cache_create(&g, "ball", &pol_l1d_bypass_all, "", 0, &err);
    assert_non_null(c[1]);
    for (int i = 0; i < 2; i++) {
        for (uint32_t k = 0; k < 200; k++) {
            assert_int_equal(rd(c[i], blk(k % 32, k / 32)), MEM_SENT);
            below[i] += serve(c[i], NULL, NULL);
            assert_int_equal(rd(c[i], blk(k % 32, k / 32)), MEM_SENT);
            below[i] += serve(c[i], NULL, NULL);
        }
        assert_int_equal(mem_cache_get_stats(c[i])->fills, 0);
        assert_int_equal(mem_cache_get_stats(c[i])->hits, 0);
    }
    assert_int_equal(below[0], 400);
    assert_int_equal(below[0], below[1]);
    mem_cache_destroy(c[0]);
    mem_cache_destroy(c[1]);
}

/* Oracle O14: a global store hit evicts the line (RC 0, ages the set); store misses change nothing.
 */
static void test_locality_o14_global_stores(void **state)
{
    struct mem_cache *c = mk(GEOM_E, "");
    struct mem_req m;

    (void)state;
    rdn(c, blk(12, 0), 3); /* B committed, filled */
    rdn(c, blk(12, 1), 2); /* bystander RC 2 */
    assert_int_equal(free_lines(12), ASSOC - 1);
    assert_int_equal(wr(c, blk(12, 0), MEM_GLOBAL), MEM_HIT);
    assert_true(mem_cache_pop_miss(c, &m));
    assert_int_equal(m.type, MEM_WRITE);
    assert_false(ent(blk(12, 0)).committed);
    assert_int_equal(ent(blk(12, 0)).rc, 0);
    assert_int_equal(free_lines(12), ASSOC);
    rds(c, blk(13, 0)); /* any later access settles the write-evict's aging */
    assert_int_equal(ent(blk(12, 1)).rc, 1);
    check_invariants();
    /* store misses: no tag entry, no RC change */
    assert_int_equal(wr(c, blk(12, 5), MEM_GLOBAL), MEM_SENT);
    assert_false(ent(blk(12, 5)).valid);
    assert_int_equal(wr(c, blk(12, 1), MEM_GLOBAL), MEM_SENT);
    assert_int_equal(ent(blk(12, 1)).rc, 1);
    serve(c, NULL, NULL);
    mem_cache_destroy(c);

    c = mk(GEOM_E, "stores_age=off");
    rdn(c, blk(12, 0), 3);
    rdn(c, blk(12, 1), 2);
    wr(c, blk(12, 0), MEM_GLOBAL);
    rds(c, blk(13, 0));
    assert_int_equal(ent(blk(12, 1)).rc, 2);
    mem_cache_destroy(c);
}

/* Oracle O14: a local store hit dirties the line, and its eviction writes it back. */
static void test_locality_o14_local_stores(void **state)
{
    struct mem_cache *c = mk(GEOM_L, "");
    struct mem_req r = req(MEM_READ, blk(14, 0), 0);

    (void)state;
    r.space = MEM_LOCAL;
    for (int i = 0; i < 3; i++) {
        r.uid = g_uid++;
        mem_cache_access(c, &r, g_now++);
        serve(c, NULL, NULL);
    }
    assert_true(ent(blk(14, 0)).committed);
    assert_int_equal(wr(c, blk(14, 0), MEM_LOCAL), MEM_HIT);
    assert_true(ent(blk(14, 0)).committed);
    assert_null(mem_cache_peek_miss(c)); /* write-back: nothing sent yet */
    for (uint32_t k = 1; k <= 4; k++)
        rdn(c, blk(14, k), 3); /* four more lines: the dirty one goes */
    assert_false(ent(blk(14, 0)).committed);
    assert_int_equal(mem_cache_get_stats(c)->writebacks, 1);
    check_invariants();
    mem_cache_destroy(c);
}

/* ---- Oracle O15: SM dueling, on the ops directly ---- */

struct duel {
    void *sh;
    void *st[3];
    uint64_t ctr[3][POL_L1D_NCOUNTERS];
};

static void duel_make(struct duel *d, const char *args)
{
    struct pol_l1d_params p = {.nsets = 32, .assoc = 4, .line_bytes = 128, .nsms = 3};
    struct ps_err err;

    memset(d, 0, sizeof(*d));
    ps_err_clear(&err);
    p.args = args;
    p.sm = UINT32_MAX;
    d->sh = pol_l1d_shared_create(&pol_l1d_locality, &p, &err);
    assert_non_null(d->sh);
    p.shared = d->sh;
    for (uint32_t i = 0; i < 3; i++) {
        p.sm = i;
        p.counters = d->ctr[i];
        d->st[i] = pol_l1d_create(&pol_l1d_locality, &p, &err);
        assert_non_null(d->st[i]);
    }
}

static void duel_free(struct duel *d)
{
    for (int i = 0; i < 3; i++)
        pol_l1d_destroy(&pol_l1d_locality, d->st[i]);
    pol_l1d_locality.shared_destroy(d->sh);
}

/* SM sm makes `hits` read hits and `misses` read misses at cycle now. */
static void duel_reads(struct duel *d, uint32_t sm, uint32_t hits, uint32_t misses, uint64_t now)
{
    struct mem_req r = req(MEM_READ, 0, 0);

    for (uint32_t i = 0; i < hits + misses; i++) {
        r.addr = blk(0, i);
        r.uid = g_uid++;
        if (i < hits)
            pol_l1d_locality.on_hit(d->st[sm], &r, 0, 0, now);
        else
            pol_l1d_locality.on_miss(d->st[sm], &r, 0, now);
    }
}

static void test_locality_o15_sm_dueling(void **state)
{
    struct duel d;

    (void)state;
    duel_make(&d, "");
    assert_true(pol_l1d_locality_decoupled(d.st[0]));
    assert_false(pol_l1d_locality_decoupled(d.st[1]));
    assert_false(pol_l1d_locality_decoupled(d.st[2])); /* followers start baseline */
    /* interval 1: MR(SM0) 0.55 <= MR(SM1) 0.50 + 0.10: followers go decoupled */
    duel_reads(&d, 0, 45, 55, 10);
    duel_reads(&d, 1, 50, 50, 20);
    duel_reads(&d, 2, 0, 1, 500);
    assert_true(pol_l1d_locality_decoupled(d.st[2]));
    assert_true(pol_l1d_locality_decoupled(d.st[0]));
    assert_false(pol_l1d_locality_decoupled(d.st[1]));
    /* interval 2: 0.61 > 0.50 + 0.10: baseline */
    duel_reads(&d, 0, 39, 61, 600);
    duel_reads(&d, 1, 50, 50, 700);
    duel_reads(&d, 2, 0, 1, 1000);
    assert_false(pol_l1d_locality_decoupled(d.st[2]));
    /* interval 3: SM1 idle: the decision stays */
    duel_reads(&d, 0, 100, 0, 1100);
    duel_reads(&d, 2, 0, 1, 1500);
    assert_false(pol_l1d_locality_decoupled(d.st[2]));
    assert_int_equal(d.ctr[2][6], 1); /* duel_decoupled, counted by the SM that closed it */
    assert_int_equal(d.ctr[2][7], 1); /* duel_baseline */
    duel_free(&d);

    /* relative margin: 0.61 > 0.50 * 1.1 means baseline; 0.54 <= 0.55 decoupled */
    duel_make(&d, "margin_mode=relative,initial=decoupled,interval=100");
    assert_true(pol_l1d_locality_decoupled(d.st[2]));
    duel_reads(&d, 0, 46, 54, 10);
    duel_reads(&d, 1, 50, 50, 20);
    duel_reads(&d, 2, 0, 1, 100);
    assert_true(pol_l1d_locality_decoupled(d.st[2]));
    duel_reads(&d, 0, 39, 61, 110);
    duel_reads(&d, 1, 50, 50, 120);
    duel_reads(&d, 2, 0, 1, 200);
    assert_false(pol_l1d_locality_decoupled(d.st[2]));
    duel_free(&d);
}

/* Oracle O15: a follower in baseline mode allocates every miss; in decoupled mode it filters. */
static void test_locality_o15_follower_modes(void **state)
{
    struct duel d;
    struct mem_req r = req(MEM_READ, blk(0, 3), 1);

    (void)state;
    duel_make(&d, "");
    assert_true(pol_l1d_locality.on_miss(d.st[2], &r, 0, 5));  /* baseline follower */
    assert_true(pol_l1d_locality.on_miss(d.st[1], &r, 0, 5));  /* baseline leader */
    assert_false(pol_l1d_locality.on_miss(d.st[0], &r, 0, 5)); /* decoupled leader */
    duel_free(&d);
    duel_make(&d, "duel=off");
    assert_false(pol_l1d_locality.on_miss(d.st[1], &r, 0, 5));
    assert_false(pol_l1d_locality.on_miss(d.st[2], &r, 0, 5));
    duel_free(&d);
}

/* Oracle O17: bypass-all never allocates or hits, and sends the coalesced size. */
static void test_locality_o17_bypass_all(void **state)
{
    struct mem_cache_geom g;
    struct ps_err err;
    struct mem_cache *c;
    struct mem_req m;

    (void)state;
    assert_int_equal(mem_cache_geom_parse(GEOM_L, &g, &err), 0);
    c = mem_cache_create(&g, "ball", &pol_l1d_bypass_all, "", 0, &err);
    assert_non_null(c);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(rd(c, blk(0, 0)), MEM_SENT);
        assert_true(mem_cache_pop_miss(c, &m));
        assert_int_equal(m.bytes, 32);
        mem_cache_fill(c, &m, g_now);
    }
    assert_int_equal(mem_cache_get_stats(c)->fills, 0);
    assert_int_equal(mem_cache_get_stats(c)->hits, 0);
    mem_cache_destroy(c);
}

/* Arguments: every knob accepted, bad ones refused with a message naming the policy. */
static void test_locality_args(void **state)
{
    const char *good[] = {"", "tag_ways=16,t=1,rc_bits=4,rc_init=0,cmp=ge",
                          "aging=per_promotion,promote_fail=bypass,stores_age=off",
                          "duel=off,interval=1000,margin=0.05,margin_mode=relative",
                          "initial=decoupled,dump=0"};
    const char *bad[] = {"t",          "t=",          "t=x",    "tag_ways=4", "foo=1",
                         "t=2,",       "margin=1.5",  "cmp=lt", "rc_bits=0",  "rc_bits=2,t=4",
                         "interval=0", "aging=never", "t=-1"};
    const struct pol_l1d_ops *ops;
    struct pol_l1d_params p = {.nsets = 32, .assoc = 4, .line_bytes = 128, .sm = 0};
    struct ps_err err;
    void *st;

    (void)state;
    ops = pol_l1d_find("locality:t=3", &p.args, &err);
    assert_ptr_equal(ops, &pol_l1d_locality);
    assert_string_equal(p.args, "t=3");
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        ps_err_clear(&err);
        p.args = good[i];
        st = pol_l1d_create(ops, &p, &err);
        if (!st)
            fail_msg("%s: %s", good[i], err.msg);
        pol_l1d_destroy(ops, st);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ps_err_clear(&err);
        p.args = bad[i];
        st = pol_l1d_create(ops, &p, &err);
        if (st)
            fail_msg("%s accepted", bad[i]);
        assert_int_equal(err.code, PS_EINVAL);
        assert_non_null(strstr(err.msg, "locality"));
        p.sm = UINT32_MAX;
        assert_null(pol_l1d_shared_create(ops, &p, &err));
        p.sm = 0;
    }
}

/* The dump: a header and one row per `dump` reads, with the design in use. */
static void test_locality_dump(void **state)
{
    struct mem_cache *c = mk(GEOM_E, "dump=4");
    char buf[512] = {0};
    FILE *f = tmpfile();
    struct ps_err err;

    (void)state;
    assert_non_null(f);
    for (int i = 0; i < 8; i++)
        rds(c, blk(0, 0));
    assert_int_equal(mem_cache_policy_dump(c, f, &err), 0);
    rewind(f);
    assert_true(fread(buf, 1, sizeof(buf) - 1, f) > 0);
    fclose(f);
    assert_non_null(strstr(buf, "sm,cycle,reads,bypass_rate,hit_rate,design\n"));
    /* bypass, bypass, miss, hit; then four hits */
    assert_non_null(strstr(buf, ",4,0.5000,0.2500,decoupled\n"));
    assert_non_null(strstr(buf, ",8,0.0000,1.0000,decoupled\n"));
    mem_cache_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_locality_o1_reset),
        cmocka_unit_test(test_locality_o2_first_touch_bypasses),
        cmocka_unit_test(test_locality_o3_promotion),
        cmocka_unit_test(test_locality_o4_hit_pending),
        cmocka_unit_test(test_locality_o5_lfu_victim),
        cmocka_unit_test(test_locality_o5_committed_kept),
        cmocka_unit_test(test_locality_o6_aging_on_allocation),
        cmocka_unit_test(test_locality_o7_eviction_resets_rc),
        cmocka_unit_test(test_locality_o8_saturation),
        cmocka_unit_test(test_locality_o9_failed_promotion),
        cmocka_unit_test(test_locality_o9_miss_queue_full),
        cmocka_unit_test(test_locality_o10_bypass_needs_no_mshr),
        cmocka_unit_test(test_locality_o11_invariants),
        cmocka_unit_test(test_locality_o12_baseline_equivalence),
        cmocka_unit_test(test_locality_o13_two_touch_stream),
        cmocka_unit_test(test_locality_o14_global_stores),
        cmocka_unit_test(test_locality_o14_local_stores),
        cmocka_unit_test(test_locality_o15_sm_dueling),
        cmocka_unit_test(test_locality_o15_follower_modes),
        cmocka_unit_test(test_locality_o17_bypass_all),
        cmocka_unit_test(test_locality_args),
        cmocka_unit_test(test_locality_dump),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
