/*
 * Unit tests for the mrpb L1D policy (policies/l1d_mrpb.c): MRPB's
 * bypass-on-stall as seed 002 describes it (section 4.4 (i), oracle 8.18).
 * The tests drive a small cache (memsys/cache.h) with the policy and play
 * the next level themselves.
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
#include "policies/create.h"
#include "policies/l1d_builtin.h"
#include "tests/unit/policies/l1d_cache_harness.h"

/*
 * Oracle 8.18: a read that the baseline fails because every way of its set
 * is reserved goes down uncached, and the L1D does not change: the
 * reserved line stays and still takes merges.
 */
static void test_mrpb_oracle_8_18_all_reserved(void **state)
{
    struct mem_cache *b = mk("N:1:128:1,L:R:m:N:L,A:4:4,8", NULL, NULL);
    struct mem_cache *c = mk("N:1:128:1,L:R:m:N:L,A:4:4,8", &pol_l1d_mrpb, "");
    const struct mem_cache_stats *st = mem_cache_get_stats(c);

    (void)state;
    assert_int_equal(rd(b, 0x000, 1, 1), MEM_MISS);
    assert_int_equal(rd(b, 0x080, 2, 2), MEM_RESFAIL);
    assert_int_equal(rd(c, 0x000, 1, 1), MEM_MISS);
    assert_int_equal(rd(c, 0x080, 2, 2), MEM_SENT);
    assert_int_equal(st->stall_bypassed, 1);
    assert_int_equal(st->resfail, 0);
    assert_int_equal(ctr(c, "bypass_line"), 1);
    assert_int_equal(rd(c, 0x000, 3, 3), MEM_HIT_RESERVED); /* line untouched */
    assert_int_equal(serve(c, 4), 2);
    assert_int_equal(rd(c, 0x000, 4, 5), MEM_HIT);
    assert_int_equal(rd(c, 0x080, 5, 6), MEM_MISS); /* the bypassed block was not cached */
    mem_cache_destroy(b);
    mem_cache_destroy(c);
}

/* Oracle 8.18: no free MSHR: bypass instead of stalling; the other set is untouched. */
static void test_mrpb_oracle_8_18_mshr_full(void **state)
{
    struct mem_cache *c = mk("N:4:128:4,L:R:m:N:L,A:1:8,8", &pol_l1d_mrpb, "");

    (void)state;
    assert_int_equal(rd(c, 0x000, 1, 1), MEM_MISS);
    assert_int_equal(rd(c, 0x080, 2, 1), MEM_SENT);
    assert_int_equal(ctr(c, "bypass_mshr"), 1);
    assert_int_equal(mem_cache_get_stats(c)->fills, 0);
    serve(c, 2);
    assert_int_equal(rd(c, 0x080, 3, 3), MEM_MISS); /* not cached by the bypass */
    mem_cache_destroy(c);
}

/* Oracle 8.18: the line's MSHR entry has no merge slot left: bypass (POL_L1D_STALL_MERGE). */
static void test_mrpb_oracle_8_18_merge_full(void **state)
{
    struct mem_cache *b = mk("N:4:128:4,L:R:m:N:L,A:4:1,8", NULL, NULL);
    struct mem_cache *c = mk("N:4:128:4,L:R:m:N:L,A:4:1,8", &pol_l1d_mrpb, "");

    (void)state;
    assert_int_equal(rd(b, 0x000, 1, 1), MEM_MISS);
    assert_int_equal(rd(b, 0x000, 2, 1), MEM_RESFAIL);
    assert_int_equal(rd(c, 0x000, 1, 1), MEM_MISS);
    assert_int_equal(rd(c, 0x000, 2, 1), MEM_SENT);
    assert_int_equal(ctr(c, "bypass_merge"), 1);
    assert_int_equal(serve(c, 2), 2); /* one line fetch, one uncached read */
    mem_cache_destroy(b);
    mem_cache_destroy(c);
}

/*
 * Oracle 8.18, "MRPB stalls only when the interconnect is full": the bypass
 * path leaves through the L1D's miss queue, so a full miss queue stalls
 * MRPB as it stalls the baseline.
 */
static void test_mrpb_oracle_8_18_stalls_when_path_full(void **state)
{
    struct mem_cache *c = mk("N:4:128:4,L:R:m:N:L,A:8:8,1", &pol_l1d_mrpb, "");

    (void)state;
    assert_int_equal(rd(c, 0x000, 1, 1), MEM_MISS);
    assert_int_equal(rd(c, 0x080, 2, 1), MEM_RESFAIL);
    assert_int_equal(mem_cache_get_stats(c)->resfail_missq, 1);
    assert_int_equal(mem_cache_get_stats(c)->stall_bypassed, 0);
    serve(c, 2);
    assert_int_equal(rd(c, 0x080, 2, 3), MEM_MISS);
    mem_cache_destroy(c);
}

/* Without stalls MRPB is the baseline LRU: the same results on the same trace. */
static void test_mrpb_no_stall_is_lru(void **state)
{
    struct mem_cache *b = mk("N:2:128:2,L:R:m:N:L,A:8:8,8", NULL, NULL);
    struct mem_cache *c = mk("N:2:128:2,L:R:m:N:L,A:8:8,8", &pol_l1d_mrpb, "");
    static const uint64_t trace[] = {0x000, 0x100, 0x000, 0x200, 0x100, 0x080, 0x000,
                                     0x300, 0x200, 0x000, 0x180, 0x080, 0x100, 0x000};

    (void)state;
    for (uint32_t i = 0; i < sizeof(trace) / sizeof(trace[0]); i++) {
        assert_int_equal(rd(c, trace[i], i + 1, 2 * i), rd(b, trace[i], i + 1, 2 * i));
        serve(b, 2 * i + 1);
        serve(c, 2 * i + 1);
    }
    assert_int_equal(mem_cache_get_stats(c)->hits, mem_cache_get_stats(b)->hits);
    assert_int_equal(mem_cache_get_stats(c)->stall_bypassed, 0);
    mem_cache_destroy(b);
    mem_cache_destroy(c);
}

/* A reason turned off stalls as in the baseline, and is counted at each attempt. */
static void test_mrpb_reason_off_stalls(void **state)
{
    struct mem_cache *c = mk("N:4:128:4,L:R:m:N:L,A:1:8,8", &pol_l1d_mrpb, "mshr=0");
    struct mem_cache *d = mk("N:1:128:1,L:R:m:N:L,A:4:4,8", &pol_l1d_mrpb, "mshr=0");

    (void)state;
    assert_int_equal(rd(c, 0x000, 1, 1), MEM_MISS);
    assert_int_equal(rd(c, 0x080, 2, 1), MEM_RESFAIL);
    assert_int_equal(rd(c, 0x080, 2, 2), MEM_RESFAIL);
    assert_int_equal(ctr(c, "stalls_kept"), 2);
    assert_int_equal(ctr(c, "bypass_mshr"), 0);
    assert_int_equal(rd(d, 0x000, 1, 1), MEM_MISS); /* line= still on */
    assert_int_equal(rd(d, 0x080, 2, 1), MEM_SENT);
    mem_cache_destroy(c);
    mem_cache_destroy(d);
}

static void test_mrpb_bad_args(void **state)
{
    (void)state;
    expect_bad_args(&pol_l1d_mrpb, "line=2",
                    "-ptxsim_l1d_policy mrpb: line=2: expected a whole number from 0 to 1");
    expect_bad_args(&pol_l1d_mrpb, "lines=1", "unknown key 'lines'");
    expect_bad_args(&pol_l1d_mrpb, "mshr", "'mshr': expected mshr=value");
    expect_bad_args(&pol_l1d_mrpb, "mshr=", "mshr=: expected a whole number");
    expect_bad_args(&pol_l1d_mrpb, "mshr=1,mshr=0", "given twice");
    expect_bad_args(&pol_l1d_mrpb, "mshr=1,", "empty field after the last ','");
    expect_bad_args(&pol_l1d_mrpb, "mshr=x", "mshr=x: expected a whole number");
    expect_bad_args(&pol_l1d_mrpb, "depth=0", "depth=0: expected a whole number from 1 to 64");
    expect_bad_args(&pol_l1d_mrpb, "queues=65", "queues=65: expected a whole number from 0 to 64");
}

/* The reordering queues the SM builds: 8 x 8 by default (seed 002 4.4 (ii)), off with queues=0. */
static void test_mrpb_reorder_queues(void **state)
{
    struct pol_l1d_params p = {.nsets = 4, .assoc = 4, .line_bytes = 128, .sm = 0, .args = ""};
    struct ps_err err;
    uint32_t nq = 99, depth = 99;
    void *st;

    (void)state;
    ps_err_clear(&err);
    st = pol_l1d_create(&pol_l1d_mrpb, &p, &err);
    assert_non_null(st);
    pol_l1d_mrpb.reorder(st, &nq, &depth);
    assert_int_equal(nq, 8);
    assert_int_equal(depth, 8);
    pol_l1d_destroy(&pol_l1d_mrpb, st);
    p.args = "queues=0";
    st = pol_l1d_create(&pol_l1d_mrpb, &p, &err);
    assert_non_null(st);
    pol_l1d_mrpb.reorder(st, &nq, &depth);
    assert_int_equal(nq, 0);
    pol_l1d_destroy(&pol_l1d_mrpb, st);
    p.args = "queues=4,depth=2";
    st = pol_l1d_create(&pol_l1d_mrpb, &p, &err);
    assert_non_null(st);
    pol_l1d_mrpb.reorder(st, &nq, &depth);
    assert_int_equal(nq, 4);
    assert_int_equal(depth, 2);
    pol_l1d_destroy(&pol_l1d_mrpb, st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mrpb_oracle_8_18_all_reserved),
        cmocka_unit_test(test_mrpb_oracle_8_18_mshr_full),
        cmocka_unit_test(test_mrpb_oracle_8_18_merge_full),
        cmocka_unit_test(test_mrpb_oracle_8_18_stalls_when_path_full),
        cmocka_unit_test(test_mrpb_no_stall_is_lru),
        cmocka_unit_test(test_mrpb_reason_off_stalls),
        cmocka_unit_test(test_mrpb_bad_args),
        cmocka_unit_test(test_mrpb_reorder_queues),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
