/*
 * Unit tests for the rrip L1D policy (policies/l1d_rrip.c): SRRIP, BRRIP
 * and DRRIP for the "Baseline + RRIP" configuration of seed 002 (section
 * 4.7, ambiguity 18; section 8 has no numbered RRIP oracle, so these pin the
 * behaviour RRIP's definition gives). Most tests drive the policy's table
 * directly on one set whose line views they keep themselves; one runs it in
 * a small cache (memsys/cache.h).
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
#include "policies/l1d.h"
#include "policies/l1d_builtin.h"

#define WAYS 4

/* One 4-way set (set `set` of nsets) as the cache would show it, and the policy under test. */
struct set {
    const struct pol_l1d_ops *ops;
    void *st;
    uint64_t ctr[POL_L1D_NCOUNTERS];
    struct pol_line_view v[WAYS];
    uint32_t set;
    uint64_t now;
};

static void open_set(struct set *s, const char *args, uint32_t nsets, uint32_t set, void *shared)
{
    struct pol_l1d_params p = {.nsets = nsets,
                               .assoc = WAYS,
                               .line_bytes = 128,
                               .sm = 0,
                               .nsms = 1,
                               .args = args,
                               .shared = shared};
    struct ps_err err;

    memset(s, 0, sizeof(*s));
    p.counters = s->ctr;
    s->ops = &pol_l1d_rrip;
    s->set = set;
    ps_err_clear(&err);
    s->st = pol_l1d_create(s->ops, &p, &err);
    if (!s->st)
        fail_msg("%s", err.msg);
}

/* A read of tag: a hit, or a miss that inserts at the policy's victim. Returns the way. */
static uint32_t touch(struct set *s, uint64_t tag)
{
    struct mem_req r = {.addr = tag * 128, .type = MEM_READ};
    uint32_t w;

    s->now++;
    for (w = 0; w < WAYS; w++) {
        if (s->v[w].valid && s->v[w].tag == tag) {
            s->ops->on_hit(s->st, &r, s->set, w, s->now);
            return w;
        }
    }
    w = s->ops->victim(s->st, s->set, s->v, WAYS, s->now);
    assert_true(w < WAYS);
    assert_true(s->ops->on_miss(s->st, &r, s->set, s->now));
    if (s->v[w].valid)
        s->ops->on_evict(s->st, &s->v[w], s->set, w, s->now);
    s->ops->on_insert(s->st, &r, s->set, w, s->now);
    s->v[w] = (struct pol_line_view){.tag = tag, .valid = true, .last_use = s->now};
    return w;
}

static uint32_t ctr(const struct set *s, const char *name)
{
    for (uint32_t i = 0; pol_l1d_rrip.counter_names[i]; i++)
        if (strcmp(pol_l1d_rrip.counter_names[i], name) == 0)
            return (uint32_t)s->ctr[i];
    fail_msg("no counter %s", name);
    return 0;
}

/*
 * SRRIP, 2 bits: insert at 2, hit to 0; the victim is the first way at 3
 * after aging. A,B,C,D fill ways 0-3 (all 2); B hits (0). E: no line at 3,
 * age by 1 (A,C,D 3, B 1), the first at 3 is A (way 0). F: C (way 2) is
 * already at 3, no aging. G: D. H: ways are E2 B1 F2 G2: age by 1 (B 2, E F G
 * 3): E in way 0.
 */
static void test_rrip_srrip_victim_order(void **state)
{
    struct set s;

    (void)state;
    open_set(&s, "", 1, 0, NULL);
    for (uint64_t t = 1; t <= 4; t++)
        assert_int_equal(touch(&s, t), t - 1);
    assert_int_equal(touch(&s, 2), 1); /* hit */
    assert_int_equal(touch(&s, 5), 0);
    assert_int_equal(touch(&s, 6), 2);
    assert_int_equal(touch(&s, 7), 3);
    assert_int_equal(touch(&s, 8), 0);
    assert_int_equal(touch(&s, 2), 1); /* B survived all of it */
    assert_int_equal(ctr(&s, "insert_rrpv2"), 8);
    assert_int_equal(ctr(&s, "hits"), 2);
    assert_int_equal(ctr(&s, "aging_steps"), 2);
    assert_int_equal(ctr(&s, "evictions"), 4);
    pol_l1d_destroy(s.ops, s.st);
}

/*
 * Invalid ways first (lowest), reserved ways never, and a reserved line at
 * the highest RRPV does not stop the aging of the others; all reserved: no
 * victim. The victim is chosen without changing the policy's state.
 */
static void test_rrip_invalid_first_reserved_never(void **state)
{
    struct set s;

    (void)state;
    open_set(&s, "", 1, 0, NULL);
    for (uint64_t t = 1; t <= 4; t++)
        touch(&s, t);
    s.v[2].valid = false;
    assert_int_equal(s.ops->victim(s.st, 0, s.v, WAYS, 50), 2);
    s.v[2].reserved = true;
    assert_int_equal(s.ops->victim(s.st, 0, s.v, WAYS, 50), 0); /* all at 2: first */
    touch(&s, 1);                                               /* A (way 0) to 0 */
    s.v[1].reserved = true;                                     /* B at 2, reserved */
    s.v[2].valid = true;
    assert_int_equal(s.ops->victim(s.st, 0, s.v, WAYS, 51), 3);
    assert_int_equal(s.ops->victim(s.st, 0, s.v, WAYS, 52), 3); /* asked again: the same */
    for (uint32_t w = 0; w < WAYS; w++)
        s.v[w].reserved = true;
    assert_int_equal(s.ops->victim(s.st, 0, s.v, WAYS, 53), WAYS);
    pol_l1d_destroy(s.ops, s.st);
}

/* bits= and insert= change the RRPV width and the insertion value. */
static void test_rrip_bits_and_insert(void **state)
{
    struct set s;

    (void)state;
    open_set(&s, "bits=3,insert=0", 1, 0, NULL);
    for (uint64_t t = 1; t <= 4; t++)
        touch(&s, t);
    assert_int_equal(ctr(&s, "insert_rrpv0"), 4);
    touch(&s, 5); /* all at 0: aged by 7 to reach 7 */
    assert_int_equal(ctr(&s, "aging_steps"), 7);
    pol_l1d_destroy(s.ops, s.st);
    open_set(&s, "bits=3", 1, 0, NULL);
    touch(&s, 1);
    assert_int_equal(ctr(&s, "insert_rrpv3plus"), 1); /* max-1 = 6 */
    pol_l1d_destroy(s.ops, s.st);
}

/* BRRIP inserts at max except every eps-th insertion, at insert= (deterministic). */
static void test_rrip_brrip_bimodal(void **state)
{
    struct set s;

    (void)state;
    open_set(&s, "mode=brrip,eps=4", 1, 0, NULL);
    for (uint64_t t = 1; t <= 8; t++)
        touch(&s, t);
    assert_int_equal(ctr(&s, "insert_rrpv3plus"), 6);
    assert_int_equal(ctr(&s, "insert_rrpv2"), 2);
    pol_l1d_destroy(s.ops, s.st);
}

/*
 * DRRIP: with 64 sets and leaders=4, sets 0,16,32,48 lead for SRRIP and
 * 8,24,40,56 for BRRIP. psel_bits=2: PSEL 0..3 starts at 1 (followers use
 * SRRIP); a miss in an SRRIP leader raises it to 2 (followers use BRRIP); two
 * misses in a BRRIP leader bring it back to 0.
 */
static void test_rrip_drrip_dueling(void **state)
{
    struct pol_l1d_params sp = {.nsets = 64,
                                .assoc = WAYS,
                                .sm = UINT32_MAX,
                                .nsms = 1,
                                .args = "mode=drrip,leaders=4,psel_bits=2"};
    struct ps_err err;
    void *shared = pol_l1d_shared_create(&pol_l1d_rrip, &sp, &err);
    struct set follow, lead_s, lead_b;

    (void)state;
    assert_non_null(shared);
    open_set(&follow, sp.args, 64, 1, shared);
    open_set(&lead_s, sp.args, 64, 16, shared);
    open_set(&lead_b, sp.args, 64, 40, shared);
    touch(&follow, 1);
    assert_int_equal(ctr(&follow, "insert_rrpv2"), 1);
    touch(&lead_s, 1);
    touch(&follow, 2);
    assert_int_equal(ctr(&follow, "insert_rrpv3plus"), 1);
    assert_int_equal(ctr(&follow, "follower_brrip_inserts"), 1);
    touch(&lead_s, 2); /* the leader itself keeps SRRIP */
    assert_int_equal(ctr(&lead_s, "insert_rrpv2"), 2);
    touch(&lead_b, 1);
    touch(&lead_b, 2);
    touch(&lead_b, 3);
    assert_int_equal(ctr(&lead_b, "insert_rrpv3plus"), 3);
    touch(&follow, 3);
    assert_int_equal(ctr(&follow, "insert_rrpv2"), 2);
    pol_l1d_destroy(follow.ops, follow.st);
    pol_l1d_destroy(lead_s.ops, lead_s.st);
    pol_l1d_destroy(lead_b.ops, lead_b.st);
    pol_l1d_rrip.shared_destroy(shared);
}

/* Plays t[0..n) through a 2-way one-set cache with pol (NULL: LRU), checking each result. */
static void run_cache(const struct pol_l1d_ops *pol, const uint64_t *t, const int *want, uint32_t n)
{
    struct mem_cache_geom g;
    struct ps_err err;
    struct mem_cache *c;
    struct mem_req r = {.type = MEM_READ, .bytes = 128, .sector_mask = 0xf}, m;

    assert_int_equal(mem_cache_geom_parse("N:1:128:2,L:L:m:N:L,A:8:8,8", &g, &err), 0);
    c = mem_cache_create(&g, "test", pol, "", 0, &err);
    assert_non_null(c);
    for (uint32_t i = 0; i < n; i++) {
        r.addr = t[i];
        r.uid = i + 1;
        assert_int_equal(mem_cache_access(c, &r, 2 * i + 1), want[i]);
        while (mem_cache_pop_miss(c, &m))
            mem_cache_fill(c, &m, 2 * i + 2);
        while (mem_cache_pop_ready(c, &m))
            ;
    }
    mem_cache_destroy(c);
}

/*
 * In a cache: A hit once (RRPV 0) outlives C and D inserted after it (RRPV
 * 2), where LRU gives A's way to D: A B A C D A.
 */
static void test_rrip_in_cache(void **state)
{
    static const uint64_t t[] = {0x000, 0x080, 0x000, 0x100, 0x180, 0x000};
    static const int rrip[] = {MEM_MISS, MEM_MISS, MEM_HIT, MEM_MISS, MEM_MISS, MEM_HIT};
    static const int lru[] = {MEM_MISS, MEM_MISS, MEM_HIT, MEM_MISS, MEM_MISS, MEM_MISS};

    (void)state;
    run_cache(&pol_l1d_rrip, t, rrip, 6);
    run_cache(NULL, t, lru, 6);
}

static void expect_bad(const char *args, const char *words)
{
    struct pol_l1d_params p = {.nsets = 4, .assoc = 4, .line_bytes = 128, .args = args};
    struct ps_err err;
    void *st;

    ps_err_clear(&err);
    st = pol_l1d_create(&pol_l1d_rrip, &p, &err);
    if (st)
        pol_l1d_destroy(&pol_l1d_rrip, st);
    assert_null(st);
    assert_int_equal(err.code, PS_EINVAL);
    if (!strstr(err.msg, words))
        fail_msg("'%s': message '%s' lacks '%s'", args, err.msg, words);
}

static void test_rrip_bad_args(void **state)
{
    (void)state;
    expect_bad("insert=4", "insert=4 is above the largest RRPV 3");
    expect_bad("bits=9", "bits=9: expected a whole number from 1 to 8");
    expect_bad("mode=lru", "mode=lru: expected one of srrip|brrip|drrip");
    expect_bad("eps=0", "eps=0: expected a whole number from 1 to 1024");
    expect_bad("rrpv=2", "unknown key 'rrpv'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rrip_srrip_victim_order),
        cmocka_unit_test(test_rrip_invalid_first_reserved_never),
        cmocka_unit_test(test_rrip_bits_and_insert),
        cmocka_unit_test(test_rrip_brrip_bimodal),
        cmocka_unit_test(test_rrip_drrip_dueling),
        cmocka_unit_test(test_rrip_in_cache),
        cmocka_unit_test(test_rrip_bad_args),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
