/*
 * Unit tests for the Ctrl-C L1D policy (policies/l1d_ctrlc.c), one per
 * numbered oracle of design/seeds/003_dissertation.md section 4.7, plus
 * its arguments, random mode and dump. Most drive the ops table directly;
 * oracles 7-9 run a real L1D (mem_cache) with the policy and play the L2.
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
#include "policies/l1d_ctrlc.h"
#include "policies/registry.h"

/* Linear set index, so that addresses k * 32 * 128 all map to set 0. */
#define L1D_LINEAR "N:32:128:4,L:L:m:N:L,S:64:8,8"

enum { C_BYPASSES, C_INSERTS, C_EVICTIONS, C_ZERO, C_SAMPLES, C_UP, C_DOWN, C_FIRST_HITS };

struct inst {
    void *st;
    uint64_t counters[POL_L1D_NCOUNTERS];
};

static void *try_create(const char *args, uint64_t *counters, struct ps_err *err)
{
    struct pol_l1d_params p = {.nsets = 32, .assoc = 4, .line_bytes = 128, .sm = 0, .nsms = 1};

    p.args = args;
    p.counters = counters;
    ps_err_clear(err);
    return pol_l1d_create(&pol_l1d_ctrlc, &p, err);
}

static void mk(struct inst *in, const char *args)
{
    struct ps_err err;

    memset(in, 0, sizeof(*in));
    in->st = try_create(args, in->counters, &err);
    if (!in->st)
        fail_msg("%s", err.msg);
}

static struct mem_req rq(uint32_t pc, uint64_t addr)
{
    struct mem_req r;

    memset(&r, 0, sizeof(r));
    r.type = MEM_READ;
    r.space = MEM_GLOBAL;
    r.addr = addr;
    r.bytes = 128;
    r.sector_mask = 0xf;
    r.pc = pc;
    return r;
}

static struct pol_ctrlc_entry entry(const struct inst *in, uint32_t pc)
{
    struct pol_ctrlc_entry e;

    pol_l1d_ctrlc_entry(in->st, pc, &e);
    return e;
}

/* One line of pc inserted into (set, way), hit `hits` times, then evicted. */
static void life(struct inst *in, uint32_t pc, uint32_t set, uint32_t way, uint32_t hits,
                 uint64_t now)
{
    struct mem_req r = rq(pc, 0);
    struct pol_line_view v = {.valid = true, .pc = pc, .hits = hits};

    pol_l1d_ctrlc.on_insert(in->st, &r, set, way, now);
    for (uint32_t i = 0; i < hits; i++)
        pol_l1d_ctrlc.on_hit(in->st, &r, set, way, now);
    pol_l1d_ctrlc.on_evict(in->st, &v, set, way, now);
}

/* n lives of pc lines, the first `zero` of them never hit. */
static void lives(struct inst *in, uint32_t pc, uint32_t n, uint32_t zero)
{
    for (uint32_t i = 0; i < n; i++)
        life(in, pc, i % 32, i % 4, i < zero ? 0 : 1, 1000 + i);
}

static bool miss(struct inst *in, uint32_t pc)
{
    struct mem_req r = rq(pc, 0);

    return pol_l1d_ctrlc.on_miss(in->st, &r, 0, 0);
}

/* Oracle 4.7.1: AGG 0 inserts all; 1 alternates B, I; 3 is 7 B then I; 7 is 127 B then I. */
static void test_oracle1_insertion_pattern(void **state)
{
    static const uint32_t aggs[] = {0, 1, 3, 7};
    char args[32];
    struct inst in;

    (void)state;
    for (size_t k = 0; k < 4; k++) {
        uint32_t period = 1u << aggs[k];

        snprintf(args, sizeof(args), "agg_init=%u", aggs[k]);
        mk(&in, args);
        for (uint32_t i = 0; i < 3 * period; i++) {
            bool ins = miss(&in, 12);

            assert_int_equal(ins, i % period == period - 1);
            assert_true(entry(&in, 12).byp <= 127);
        }
        assert_int_equal(in.counters[C_BYPASSES], 3 * (period - 1));
        pol_l1d_destroy(&pol_l1d_ctrlc, in.st);
    }
}

/* Oracle 4.7.2: BYP goes to 0 on every insertion. */
static void test_oracle2_byp_reset(void **state)
{
    struct inst in;

    (void)state;
    mk(&in, "agg_init=2");
    for (uint32_t i = 0; i < 3; i++)
        assert_false(miss(&in, 4));
    assert_int_equal(entry(&in, 4).byp, 3);
    assert_true(miss(&in, 4));
    assert_int_equal(entry(&in, 4).byp, 0);
    assert_false(miss(&in, 4));
    assert_int_equal(entry(&in, 4).byp, 1);
    pol_l1d_destroy(&pol_l1d_ctrlc, in.st);
}

/* Oracle 4.7.3: an eviction trains the inserting PC's controller, not the missing PC's. */
static void test_oracle3_attribution(void **state)
{
    struct mem_req r5 = rq(5, 0), r9 = rq(9, 0);
    struct pol_line_view v = {.valid = true, .pc = 9};
    struct inst in;

    (void)state;
    mk(&in, "");
    pol_l1d_ctrlc.on_insert(in.st, &r5, 3, 1, 10);
    assert_true(pol_l1d_ctrlc.on_miss(in.st, &r9, 3, 20));
    /* The view's pc is deliberately wrong: the policy's own insertPC must decide. */
    pol_l1d_ctrlc.on_evict(in.st, &v, 3, 1, 20);
    pol_l1d_ctrlc.on_insert(in.st, &r9, 3, 1, 20);
    assert_int_equal(entry(&in, 5).insert, 1);
    assert_int_equal(entry(&in, 5).zero, 1);
    assert_int_equal(entry(&in, 9).insert, 0);
    assert_int_equal(entry(&in, 9).zero, 0);
    /* PCs alias on their low 7 bits (128 entries): 5 + 128 is 5's class. */
    assert_int_equal(entry(&in, 133).insert, 1);
    pol_l1d_destroy(&pol_l1d_ctrlc, in.st);
}

/* Oracle 4.7.4: AGG 2, 256 evictions with 200 zero-reuse: f = 0.78, AGG 3, next window 128. */
static void test_oracle4_upward_step(void **state)
{
    struct inst in;

    (void)state;
    mk(&in, "agg_init=2");
    lives(&in, 7, 255, 200);
    assert_int_equal(entry(&in, 7).agg, 2);
    assert_int_equal(entry(&in, 7).insert, 255);
    lives(&in, 7, 1, 0);
    assert_int_equal(entry(&in, 7).agg, 3);
    assert_int_equal(entry(&in, 7).insert, 0);
    assert_int_equal(entry(&in, 7).zero, 0);
    assert_int_equal(in.counters[C_SAMPLES], 1);
    assert_int_equal(in.counters[C_UP], 1);
    lives(&in, 7, 127, 127);
    assert_int_equal(entry(&in, 7).agg, 3);
    lives(&in, 7, 1, 1);
    assert_int_equal(entry(&in, 7).agg, 4);
    assert_int_equal(in.counters[C_SAMPLES], 2);
    pol_l1d_destroy(&pol_l1d_ctrlc, in.st);
}

/* Oracle 4.7.5: f = 0.05 lowers AGG, f = 0.25 keeps it; AGG saturates at 0 and at 7. */
static void test_oracle5_downward_step(void **state)
{
    struct inst in;

    (void)state;
    mk(&in, "agg_init=2");
    lives(&in, 1, 256, 13); /* 13 / 256 = 0.05 */
    assert_int_equal(entry(&in, 1).agg, 1);
    lives(&in, 1, 512, 128); /* 0.25 */
    assert_int_equal(entry(&in, 1).agg, 1);
    lives(&in, 1, 512, 0);
    assert_int_equal(entry(&in, 1).agg, 0);
    lives(&in, 1, 1024, 0);
    assert_int_equal(entry(&in, 1).agg, 0);
    assert_int_equal(in.counters[C_DOWN], 2);
    assert_int_equal(in.counters[C_SAMPLES], 4);
    pol_l1d_destroy(&pol_l1d_ctrlc, in.st);

    mk(&in, "agg_init=7");
    lives(&in, 2, 8, 8);
    assert_int_equal(entry(&in, 2).agg, 7);
    assert_int_equal(in.counters[C_SAMPLES], 1);
    assert_int_equal(in.counters[C_UP], 0);
    pol_l1d_destroy(&pol_l1d_ctrlc, in.st);
}

/* Oracle 4.7.6: a hit sets the reuse bit; a line hit at least once never counts toward ZERO. */
static void test_oracle6_reuse_bit(void **state)
{
    struct inst in;

    (void)state;
    mk(&in, "");
    life(&in, 3, 0, 0, 1, 5);
    life(&in, 3, 0, 0, 4, 6);
    assert_int_equal(entry(&in, 3).zero, 0);
    assert_int_equal(entry(&in, 3).insert, 2);
    life(&in, 3, 0, 0, 0, 7);
    assert_int_equal(entry(&in, 3).zero, 1);
    assert_int_equal(in.counters[C_FIRST_HITS], 2);
    pol_l1d_destroy(&pol_l1d_ctrlc, in.st);
}

/* ---- a real L1D ---- */

/* The state of the last policy instance made through the wrapped ops (tests only). */
static void *last_state;

static void *capture_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    return last_state = pol_l1d_ctrlc.create(p, err); /* p: parsed, state made */
}

static struct mem_cache *mk_cache(const struct pol_l1d_ops *pol, const char *args)
{
    static struct pol_l1d_ops wrapped;
    struct mem_cache_geom g;
    struct ps_err err;
    struct mem_cache *c;

    ps_err_clear(&err);
    if (pol == &pol_l1d_ctrlc) {
        wrapped = pol_l1d_ctrlc;
        wrapped.create = capture_create;
        pol = &wrapped;
    }
    assert_int_equal(mem_cache_geom_parse(L1D_LINEAR, &g, &err), 0);
    c = mem_cache_create(&g, "test", pol, args, 0, &err);
    if (!c)
        fail_msg("%s", err.msg);
    return c;
}

/* Reads addr with pc; the L2 answers at once. Returns the cache's result. */
static enum mem_cache_result read_now(struct mem_cache *c, uint32_t pc, uint64_t addr, uint64_t uid,
                                      uint64_t now, uint32_t *sent)
{
    struct mem_req r = rq(pc, addr), m;
    enum mem_cache_result res;

    r.uid = uid;
    res = mem_cache_access(c, &r, now);
    assert_int_not_equal(res, MEM_RESFAIL);
    while (mem_cache_pop_miss(c, &m)) {
        (*sent)++;
        mem_cache_fill(c, &m, now);
    }
    while (mem_cache_pop_ready(c, &m))
        ;
    return res;
}

/* A single PC cycling over k distinct lines of set 0, `rounds` times from access *i; returns the
 * hits. */
static uint32_t sweep(struct mem_cache *c, uint32_t k, uint32_t rounds, uint32_t *i, uint32_t *sent)
{
    uint32_t hits = 0;

    for (uint32_t n = 0; n < k * rounds; n++, (*i)++) {
        uint64_t addr = (uint64_t)(*i % k) * 32 * 128;

        hits += read_now(c, 21, addr, *i + 1, 10 + (uint64_t)*i * 10, sent) == MEM_HIT;
    }
    return hits;
}

/* Oracle 4.7.7: k = 3 x assoc lines cycled in one set: LRU hits 0, Ctrl-C hits in steady state. */
static void test_oracle7_thrash_recovery(void **state)
{
    struct mem_cache *c;
    uint32_t sent = 0, i = 0, hits;
    struct pol_ctrlc_entry before, after;

    (void)state;
    c = mk_cache(&pol_l1d_lru, "");
    assert_int_equal(sweep(c, 12, 2000, &i, &sent), 0);
    mem_cache_destroy(c);

    c = mk_cache(&pol_l1d_ctrlc, "");
    i = 0;
    sweep(c, 12, 2000, &i, &sent); /* the transient */
    pol_l1d_ctrlc_entry(last_state, 21, &before);
    hits = sweep(c, 12, 2000, &i, &sent);
    pol_l1d_ctrlc_entry(last_state, 21, &after);
    assert_true(hits > 0);
    assert_true(after.agg > 0);
    /* The steady state's zero-reuse fraction is in the band, or AGG saturated. */
    assert_true(after.agg == 7 || (after.zero_total - before.zero_total) * 10 <=
                                      (after.evictions - before.evictions) * 4);
    mem_cache_destroy(c);
}

/* Oracle 4.7.8: a PC whose lines are always reused keeps AGG 0 and never bypasses. */
static void test_oracle8_hit_friendly(void **state)
{
    /* 6 lines, 3 in set 0 and 3 in set 1 (4 ways): after the first touch, always hits. */
    static const uint64_t lines[] = {0, 32, 64, 1, 33, 65};
    struct mem_cache *c = mk_cache(&pol_l1d_ctrlc, "");
    const struct mem_cache_stats *cs;
    uint32_t sent = 0;
    struct pol_ctrlc_entry e;

    (void)state;

    for (uint32_t i = 0; i < 60000; i++)
        read_now(c, 30, lines[i % 6] * 128, i + 1, i, &sent);
    cs = mem_cache_get_stats(c);
    pol_l1d_ctrlc_entry(last_state, 30, &e);
    assert_int_equal(e.agg, 0);
    assert_int_equal(cs->pol[C_BYPASSES], 0);
    assert_int_equal(cs->bypassed, 0);
    assert_int_equal(cs->hits, 60000 - 6);
    mem_cache_destroy(c);
}

/* Oracle 4.7.9: bypassed requests never allocate or evict, and still go to L2. */
static void test_oracle9_bypass_no_allocation(void **state)
{
    struct mem_cache *c = mk_cache(&pol_l1d_ctrlc, "agg_init=7");
    const struct mem_cache_stats *cs;
    uint32_t sent = 0;

    (void)state;
    for (uint32_t i = 0; i < 127; i++)
        assert_int_equal(read_now(c, 2, (uint64_t)i * 128, i + 1, i, &sent), MEM_SENT);
    cs = mem_cache_get_stats(c);
    assert_int_equal(sent, 127);
    assert_int_equal(cs->bypassed, 127);
    assert_int_equal(cs->pol[C_BYPASSES], 127);
    assert_int_equal(cs->fills, 0);
    assert_int_equal(cs->evictions, 0);
    assert_int_equal(cs->pol[C_INSERTS], 0);
    /* The 128th miss is inserted; reading it again hits. */
    assert_int_equal(read_now(c, 2, 127 * 128, 500, 200, &sent), MEM_MISS);
    assert_int_equal(read_now(c, 2, 127 * 128, 501, 201, &sent), MEM_HIT);
    /* A bypassed line was not kept: reading it again misses (and is bypassed). */
    assert_int_equal(read_now(c, 2, 0, 502, 202, &sent), MEM_SENT);
    mem_cache_destroy(c);
}

/* Oracle 4.7.10: 128 entries and 128 lines cost 624 B (seed 4.3's breakdown of the 608 B). */
static void test_oracle10_storage(void **state)
{
    struct inst in;

    (void)state;
    mk(&in, "");
    assert_int_equal(pol_l1d_ctrlc_storage_bytes(in.st), 624);
    pol_l1d_destroy(&pol_l1d_ctrlc, in.st);
}

/* mode=rand inserts about 1 in 2^AGG, the same way on every run with the same seed. */
static void test_random_mode(void **state)
{
    struct inst a, b;
    uint32_t ins = 0;

    (void)state;
    mk(&a, "agg_init=3,mode=rand,seed=5");
    mk(&b, "agg_init=3:mode=rand:seed=5");
    for (uint32_t i = 0; i < 8000; i++) {
        bool x = miss(&a, 1);

        assert_int_equal(x, miss(&b, 1));
        ins += x;
    }
    assert_in_range(ins, 800, 1200);
    pol_l1d_destroy(&pol_l1d_ctrlc, a.st);
    pol_l1d_destroy(&pol_l1d_ctrlc, b.st);
}

static void test_dump(void **state)
{
    struct inst in;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct ps_err err;

    (void)state;
    mk(&in, "agg_init=6");
    lives(&in, 9, 16, 16);
    ps_err_clear(&err);
    assert_int_equal(pol_l1d_ctrlc.dump(in.st, f, &err), 0);
    fclose(f);
    assert_non_null(strstr(buf, "# ctrlc pc_bits=7 agg_max=7 agg_init=6 period=1024"));
    assert_non_null(strstr(buf, "cycle,pc,zero,insert,agg_before,agg_after\n1015,9,16,16,6,7\n"));
    free(buf);
    pol_l1d_destroy(&pol_l1d_ctrlc, in.st);
}

static void test_args(void **state)
{
    static const char *const bad[] = {
        "agg_max=17", "agg_init=8", "agg_max=3,agg_init=4", "thr_lo=0.5,thr_hi=0.4", "thr_hi=1.5",
        "thr_lo=-1",  "period=0",   "pc_bits=13",           "mode=stochastic",       "foo=1",
        "agg_init",   "agg_init=",  "agg_init=1,,period=4", "agg_init=1,agg_init=2", "thr_lo=1e-1"};
    const struct pol_l1d_ops *ops;
    const char *args = NULL;
    uint64_t counters[POL_L1D_NCOUNTERS];
    struct ps_err err;
    void *st;

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        st = try_create(bad[i], counters, &err);
        if (st)
            fail_msg("%s accepted", bad[i]);
        assert_int_equal(err.code, PS_EINVAL);
        assert_non_null(strstr(err.msg, "ctrlc"));
    }
    st = try_create("pc_bits=5,agg_max=4,agg_init=4,period=64,thr_lo=0,thr_hi=1,mode=det", counters,
                    &err);
    assert_non_null(st);
    pol_l1d_destroy(&pol_l1d_ctrlc, st);
    ps_err_clear(&err);
    ops = pol_l1d_find("ctrlc:agg_max=5", &args, &err);
    assert_ptr_equal(ops, &pol_l1d_ctrlc);
    assert_string_equal(args, "agg_max=5");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle1_insertion_pattern),
        cmocka_unit_test(test_oracle2_byp_reset),
        cmocka_unit_test(test_oracle3_attribution),
        cmocka_unit_test(test_oracle4_upward_step),
        cmocka_unit_test(test_oracle5_downward_step),
        cmocka_unit_test(test_oracle6_reuse_bit),
        cmocka_unit_test(test_oracle7_thrash_recovery),
        cmocka_unit_test(test_oracle8_hit_friendly),
        cmocka_unit_test(test_oracle9_bypass_no_allocation),
        cmocka_unit_test(test_oracle10_storage),
        cmocka_unit_test(test_random_mode),
        cmocka_unit_test(test_dump),
        cmocka_unit_test(test_args),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
