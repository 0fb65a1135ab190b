/*
 * Unit tests for the pdp L1D policy (policies/l1d_pdp.c): static
 * protecting-distance replacement and bypass as seed 002 implements it
 * (section 4.5, oracle 8.19). The tests drive a small cache (memsys/cache.h)
 * with the policy, so the cache's real call order (victim before on_miss,
 * retries, on_stall) is part of what they check, and play the next level
 * themselves, answering every request at once.
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
#include "policies/l1d_builtin.h"
#include "tests/unit/policies/l1d_cache_harness.h"

#define ONE_WAY "N:1:128:1,L:L:m:N:L,A:8:8,8"
#define TWO_WAY "N:1:128:2,L:L:m:N:L,A:8:8,8"

/* Reads addrs[i] at cycle 2i, answering at 2i+1; checks each result against want[i]. */
static void run_trace(struct mem_cache *c, const uint64_t *addrs, const int *want, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        enum mem_cache_result res = rd(c, addrs[i], 100 + i, 2 * i + 10);

        if ((int)res != want[i])
            fail_msg("access %u (0x%llx): result %d, expected %d", i, (unsigned long long)addrs[i],
                     (int)res, want[i]);
        serve(c, 2 * i + 11);
    }
}

#define A 0x000
#define B 0x080
#define C 0x100
#define D 0x180
#define E 0x200

/*
 * pd=2 in a one-way set, by hand: an inserted or hit line is protected for
 * the next two accesses to its set, so a miss in between bypasses and the
 * protected line then hits where LRU would have lost it.
 *   A: miss, A=2          B: A=1, bypass        A: hit (A=0 -> 2)
 *   A: hit (1 -> 2)       B: A=1, bypass        B: A=0, evict A, B=2
 *   A: B=1, bypass        B: hit
 */
static void test_pdp_pd2_hand_trace(void **state)
{
    static const uint64_t t[] = {A, B, A, A, B, B, A, B};
    static const int pdp[] = {MEM_MISS, MEM_SENT, MEM_HIT,  MEM_HIT,
                              MEM_SENT, MEM_MISS, MEM_SENT, MEM_HIT};
    static const int lru[] = {MEM_MISS, MEM_MISS, MEM_MISS, MEM_HIT,
                              MEM_MISS, MEM_HIT,  MEM_MISS, MEM_MISS};
    struct mem_cache *c = mk(ONE_WAY, &pol_l1d_pdp, "pd=2");
    struct mem_cache *b = mk(ONE_WAY, NULL, NULL);

    (void)state;
    run_trace(c, t, pdp, 8);
    run_trace(b, t, lru, 8);
    assert_int_equal(ctr(c, "bypass_protected"), 3);
    assert_int_equal(ctr(c, "inserts"), 2);
    assert_int_equal(ctr(c, "hits"), 3);
    assert_int_equal(ctr(c, "evictions"), 1);
    assert_int_equal(mem_cache_get_stats(c)->bypassed, 3);
    mem_cache_destroy(c);
    mem_cache_destroy(b);
}

/*
 * Oracle 8.19: an inserted line gets remaining-PD p and is protected for
 * exactly p accesses to its set: with pd=4 the next three misses bypass and
 * the fourth replaces it.
 */
static void test_pdp_oracle_8_19_insert_protects_p(void **state)
{
    static const uint64_t t[] = {A, B, C, D, E, A};
    static const int want[] = {MEM_MISS, MEM_SENT, MEM_SENT, MEM_SENT, MEM_MISS, MEM_SENT};
    struct mem_cache *c = mk(ONE_WAY, &pol_l1d_pdp, "pd=4");

    (void)state;
    run_trace(c, t, want, 6);
    mem_cache_destroy(c);
}

/* Oracle 8.19: a hit resets the line's remaining-PD to p. */
static void test_pdp_oracle_8_19_hit_reprotects(void **state)
{
    static const uint64_t t[] = {A, B, B, A, C, C, C, D};
    static const int want[] = {MEM_MISS, MEM_SENT, MEM_SENT, MEM_HIT,
                               MEM_SENT, MEM_SENT, MEM_SENT, MEM_MISS};
    struct mem_cache *c = mk(ONE_WAY, &pol_l1d_pdp, "pd=4");

    (void)state;
    run_trace(c, t, want, 8);
    mem_cache_destroy(c);
}

/*
 * Oracle 8.19: each access to the set lowers every line of the set, hits to
 * other lines included. pd=3, two ways: A, B fill the set; the hit on B
 * ages A to 1, the miss on C ages it to 0 and replaces it.
 */
static void test_pdp_oracle_8_19_every_access_ages(void **state)
{
    static const uint64_t t[] = {A, B, B, C, A, B};
    static const int want[] = {MEM_MISS, MEM_MISS, MEM_HIT, MEM_MISS, MEM_SENT, MEM_HIT};
    struct mem_cache *c = mk(TWO_WAY, &pol_l1d_pdp, "pd=3");

    (void)state;
    run_trace(c, t, want, 6);
    mem_cache_destroy(c);
}

/*
 * Oracle 8.19: a miss evicts only a line whose counter is 0, the least
 * recently used one; when every line is protected it bypasses. pd=3, two
 * ways: after A, B the miss on C finds A=1, B=2 and bypasses; D finds A=0
 * and replaces A, the LRU line, not B.
 */
static void test_pdp_oracle_8_19_bypass_when_all_protected(void **state)
{
    static const uint64_t t[] = {A, B, C, D, B, D};
    static const int want[] = {MEM_MISS, MEM_MISS, MEM_SENT, MEM_MISS, MEM_HIT, MEM_HIT};
    struct mem_cache *c = mk(TWO_WAY, &pol_l1d_pdp, "pd=3");

    (void)state;
    run_trace(c, t, want, 6);
    assert_int_equal(ctr(c, "bypass_protected"), 1);
    assert_int_equal(mem_cache_get_stats(c)->resfail, 0);
    mem_cache_destroy(c);
}

/*
 * Oracle 8.19: a reserved line counts as protected: a miss whose only
 * unprotected line is still waiting for its fill bypasses (through
 * on_stall); a miss that lacks an MSHR stalls as in the baseline.
 */
static void test_pdp_oracle_8_19_reserved_is_protected(void **state)
{
    struct mem_cache *c = mk(ONE_WAY, &pol_l1d_pdp, "pd=1");
    struct mem_cache *m = mk("N:2:128:1,L:L:m:N:L,A:1:8,8", &pol_l1d_pdp, "pd=1");

    (void)state;
    assert_int_equal(rd(c, A, 1, 1), MEM_MISS);
    assert_int_equal(rd(c, B, 2, 2), MEM_SENT); /* A is 0 but reserved */
    assert_int_equal(ctr(c, "bypass_reserved"), 1);
    assert_int_equal(mem_cache_get_stats(c)->resfail, 0);
    assert_int_equal(rd(c, A, 3, 3), MEM_HIT_RESERVED);
    assert_int_equal(rd(m, A, 1, 1), MEM_MISS);
    assert_int_equal(rd(m, B, 2, 2), MEM_RESFAIL); /* other set, no MSHR: stall */
    assert_int_equal(rd(m, B, 2, 3), MEM_RESFAIL);
    serve(m, 4);
    assert_int_equal(rd(m, B, 2, 5), MEM_MISS);
    assert_int_equal(ctr(m, "bypass_protected") + ctr(m, "bypass_reserved"), 0);
    mem_cache_destroy(c);
    mem_cache_destroy(m);
}

/* Default pd is 16: a line in a one-way set shields it from 15 misses; the 16th replaces it. */
static void test_pdp_default_pd16(void **state)
{
    struct mem_cache *c = mk(ONE_WAY, &pol_l1d_pdp, "");

    (void)state;
    assert_int_equal(rd(c, A, 1, 1), MEM_MISS);
    serve(c, 2);
    for (uint32_t i = 0; i < 15; i++) {
        assert_int_equal(rd(c, 0x1000 + 0x80 * i, 10 + i, 3 + i), MEM_SENT);
        serve(c, 3 + i);
    }
    assert_int_equal(rd(c, B, 40, 30), MEM_MISS);
    mem_cache_destroy(c);
}

/* pd=0 protects nothing: the same results as LRU. */
static void test_pdp_pd0_is_lru(void **state)
{
    static const uint64_t t[] = {A, B, A, C, B, A, D, C, A, B};
    struct mem_cache *c = mk(TWO_WAY, &pol_l1d_pdp, "pd=0");
    struct mem_cache *b = mk(TWO_WAY, NULL, NULL);

    (void)state;
    for (uint32_t i = 0; i < 10; i++) {
        assert_int_equal(rd(c, t[i], i + 1, 2 * i), rd(b, t[i], i + 1, 2 * i));
        serve(c, 2 * i + 1);
        serve(b, 2 * i + 1);
    }
    assert_int_equal(mem_cache_get_stats(c)->bypassed, 0);
    mem_cache_destroy(c);
    mem_cache_destroy(b);
}

/*
 * What counts as an access: a write miss (no write-allocate) is not seen and
 * does not age the set; a global write hit evicts its line (write-evict), so
 * the way is free for the next read.
 */
static void test_pdp_writes(void **state)
{
    struct mem_cache *c = mk(ONE_WAY, &pol_l1d_pdp, "pd=2");

    (void)state;
    assert_int_equal(rd(c, A, 1, 1), MEM_MISS);
    serve(c, 2);
    assert_int_equal(wr(c, C, 2, 3), MEM_SENT); /* write miss: not seen */
    assert_int_equal(rd(c, B, 3, 4), MEM_SENT); /* A=1: still protected */
    assert_int_equal(wr(c, A, 4, 5), MEM_HIT);  /* A is evicted by the store */
    serve(c, 6);
    assert_int_equal(rd(c, B, 5, 7), MEM_MISS); /* the empty way takes B */
    serve(c, 8);
    assert_int_equal(rd(c, B, 6, 9), MEM_HIT);
    mem_cache_destroy(c);
}

static void test_pdp_bad_args(void **state)
{
    (void)state;
    expect_bad_args(&pol_l1d_pdp, "pd=70000", "pd=70000: expected a whole number from 0 to 65535");
    expect_bad_args(&pol_l1d_pdp, "pd=-1", "pd=-1: expected a whole number");
    expect_bad_args(&pol_l1d_pdp, "16", "'16': expected key=value (keys: pd)");
    expect_bad_args(&pol_l1d_pdp, "pd=4,bits=2", "unknown key 'bits' (known: pd)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pdp_pd2_hand_trace),
        cmocka_unit_test(test_pdp_oracle_8_19_insert_protects_p),
        cmocka_unit_test(test_pdp_oracle_8_19_hit_reprotects),
        cmocka_unit_test(test_pdp_oracle_8_19_every_access_ages),
        cmocka_unit_test(test_pdp_oracle_8_19_bypass_when_all_protected),
        cmocka_unit_test(test_pdp_oracle_8_19_reserved_is_protected),
        cmocka_unit_test(test_pdp_default_pd16),
        cmocka_unit_test(test_pdp_pd0_is_lru),
        cmocka_unit_test(test_pdp_writes),
        cmocka_unit_test(test_pdp_bad_args),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
