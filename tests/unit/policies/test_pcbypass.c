/*
 * Unit tests for PC-based adaptive bypassing (policies/l1d_pcbypass.c),
 * Ctrl-C's comparison point (design/seeds/003_dissertation.md section 4.4,
 * which gives no numbered oracles): training at eviction, the
 * all-or-nothing bypass per PC, and the loss of correction the
 * dissertation describes (section 4.4, 4.6: FLD degrades under it).
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
#include "policies/l1d_pcbypass.h"
#include "policies/registry.h"

#define L1D_LINEAR "N:32:128:4,L:L:m:N:L,S:64:8,8"

enum { C_BYPASSES, C_INSERTS, C_EVICTIONS, C_ZERO, C_INC, C_DEC, C_ON, C_OFF };

static void *try_create(const char *args, uint64_t *counters, struct ps_err *err)
{
    struct pol_l1d_params p = {.nsets = 32, .assoc = 4, .line_bytes = 128, .sm = 0, .nsms = 1};

    p.args = args;
    p.counters = counters;
    ps_err_clear(err);
    return pol_l1d_create(&pol_l1d_pcbypass, &p, err);
}

static void *mk(const char *args, uint64_t *counters)
{
    struct ps_err err;
    void *st;

    memset(counters, 0, sizeof(uint64_t) * POL_L1D_NCOUNTERS);
    st = try_create(args, counters, &err);
    if (!st)
        fail_msg("%s", err.msg);
    return st;
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

static uint32_t ctr(void *st, uint32_t pc)
{
    struct pol_pcb_entry e;

    pol_l1d_pcbypass_entry(st, pc, &e);
    return e.ctr;
}

static void life(void *st, uint32_t pc, uint32_t hits, uint64_t now)
{
    struct mem_req r = rq(pc, 0);
    struct pol_line_view v = {.valid = true, .pc = pc, .hits = hits};

    pol_l1d_pcbypass.on_insert(st, &r, 1, 2, now);
    for (uint32_t i = 0; i < hits; i++)
        pol_l1d_pcbypass.on_hit(st, &r, 1, 2, now);
    pol_l1d_pcbypass.on_evict(st, &v, 1, 2, now);
}

static bool miss(void *st, uint32_t pc)
{
    struct mem_req r = rq(pc, 0);

    return pol_l1d_pcbypass.on_miss(st, &r, 0, 0);
}

/* Section 4.4: dead evictions raise the inserting PC's counter, reused ones lower it, saturating.
 */
static void test_pcbypass_training(void **state)
{
    uint64_t c[POL_L1D_NCOUNTERS];
    void *st = mk("", c);

    (void)state;
    life(st, 6, 0, 1);
    life(st, 6, 0, 2);
    assert_int_equal(ctr(st, 6), 2);
    life(st, 6, 3, 3);
    assert_int_equal(ctr(st, 6), 1);
    life(st, 6, 1, 4);
    life(st, 6, 1, 5);
    assert_int_equal(ctr(st, 6), 0);
    for (uint32_t i = 0; i < 20; i++)
        life(st, 6, 0, 10 + i);
    assert_int_equal(ctr(st, 6), 7);
    assert_int_equal(ctr(st, 7), 0);
    assert_int_equal(c[C_ZERO], 22);
    assert_int_equal(c[C_DEC], 3);
    assert_int_equal(c[C_EVICTIONS], 25);
    pol_l1d_destroy(&pol_l1d_pcbypass, st);
}

/* Section 4.4: at the threshold every miss of the PC bypasses; other PCs are untouched. */
static void test_pcbypass_all_or_nothing(void **state)
{
    uint64_t c[POL_L1D_NCOUNTERS];
    void *st = mk("", c);

    (void)state;
    for (uint32_t i = 0; i < 3; i++)
        life(st, 6, 0, i);
    assert_true(miss(st, 6));
    life(st, 6, 0, 9);
    assert_int_equal(c[C_ON], 1);
    for (uint32_t i = 0; i < 1000; i++) {
        assert_false(miss(st, 6));
        assert_true(miss(st, 8));
    }
    assert_int_equal(c[C_BYPASSES], 1000);
    pol_l1d_destroy(&pol_l1d_pcbypass, st);
}

/* The threshold and the steps are arguments: threshold 2 with inc 2 bypasses after one dead line.
 */
static void test_pcbypass_parameters(void **state)
{
    uint64_t c[POL_L1D_NCOUNTERS];
    void *st = mk("bits=2,threshold=2,inc=2,dec=3,init=1", c);

    (void)state;
    assert_int_equal(ctr(st, 0), 1);
    assert_true(miss(st, 4));
    life(st, 4, 0, 1);
    assert_int_equal(ctr(st, 4), 3);
    assert_false(miss(st, 4));
    life(st, 4, 1, 2);
    assert_int_equal(ctr(st, 4), 0);
    assert_true(miss(st, 4));
    assert_int_equal(c[C_OFF], 1);
    pol_l1d_destroy(&pol_l1d_pcbypass, st);
}

static struct mem_cache *mk_cache(const char *args)
{
    struct mem_cache_geom g;
    struct ps_err err;
    struct mem_cache *c;

    ps_err_clear(&err);
    assert_int_equal(mem_cache_geom_parse(L1D_LINEAR, &g, &err), 0);
    c = mem_cache_create(&g, "test", &pol_l1d_pcbypass, args, 0, &err);
    if (!c)
        fail_msg("%s", err.msg);
    return c;
}

static enum mem_cache_result read_now(struct mem_cache *c, uint32_t pc, uint64_t line, uint64_t uid)
{
    struct mem_req r = rq(pc, line * 128), m;
    enum mem_cache_result res;

    r.uid = uid;
    res = mem_cache_access(c, &r, uid);
    assert_int_not_equal(res, MEM_RESFAIL);
    while (mem_cache_pop_miss(c, &m))
        mem_cache_fill(c, &m, uid);
    while (mem_cache_pop_ready(c, &m))
        ;
    return res;
}

/*
 * Sections 4.4 and 4.6: a thrashing phase turns the PC to bypass; when the
 * same PC's accesses become reusable, nothing is inserted, nothing is
 * evicted, and the PC never recovers (Ctrl-C would, oracle 4.7.5).
 */
static void test_pcbypass_no_correction(void **state)
{
    struct mem_cache *c = mk_cache("");
    const struct mem_cache_stats *cs;
    uint64_t uid = 1, hits = 0;

    (void)state;
    for (uint32_t i = 0; i < 12 * 50; i++) /* 12 lines of set 0 cycling in 4 ways */
        read_now(c, 3, (uint64_t)(i % 12) * 32, uid++);
    for (uint32_t i = 0; i < 2 * 1000; i++) /* then 2 lines: LRU would hit all but 2 */
        hits += read_now(c, 3, (uint64_t)(i % 2) * 32 + 1, uid++) == MEM_HIT;
    cs = mem_cache_get_stats(c);
    assert_int_equal(hits, 0);
    assert_true(cs->bypassed >= 2000);
    assert_int_equal(cs->pol[C_OFF], 0);
    mem_cache_destroy(c);
}

/* A PC whose lines are always reused never bypasses. */
static void test_pcbypass_hit_friendly(void **state)
{
    struct mem_cache *c = mk_cache("");
    const struct mem_cache_stats *cs;
    uint64_t uid = 1;

    (void)state;
    for (uint32_t i = 0; i < 40000; i++) /* 8 lines, 2 per set of sets 0..3: all fit */
        read_now(c, 5, i % 8, uid++);
    cs = mem_cache_get_stats(c);
    assert_int_equal(cs->bypassed, 0);
    assert_int_equal(cs->hits, 40000 - 8);
    mem_cache_destroy(c);
}

static void test_pcbypass_dump(void **state)
{
    uint64_t c[POL_L1D_NCOUNTERS];
    void *st = mk("", c);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct ps_err err;

    (void)state;
    for (uint32_t i = 0; i < 4; i++)
        life(st, 11, 0, 100 + i);
    ps_err_clear(&err);
    assert_int_equal(pol_l1d_pcbypass.dump(st, f, &err), 0);
    fclose(f);
    assert_non_null(strstr(buf, "# pcbypass pc_bits=7 bits=3 threshold=4"));
    assert_non_null(strstr(buf, "# pc 11 ctr=4 inserts=4 bypasses=0 zero_reuse=4\n"));
    assert_non_null(strstr(buf, "cycle,pc,ctr,bypassing\n103,11,4,1\n"));
    free(buf);
    pol_l1d_destroy(&pol_l1d_pcbypass, st);
}

static void test_pcbypass_args(void **state)
{
    static const char *const bad[] = {"bits=0",        "bits=9",      "threshold=8", "init=8",
                                      "bits=2,init=4", "threshold=0", "pc_bits=0",   "x=1",
                                      "inc=256",       "inc",         "inc=1,,dec=1"};
    uint64_t c[POL_L1D_NCOUNTERS];
    const char *args = NULL;
    struct ps_err err;
    void *st;

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        st = try_create(bad[i], c, &err);
        if (st)
            fail_msg("%s accepted", bad[i]);
        assert_int_equal(err.code, PS_EINVAL);
        assert_non_null(strstr(err.msg, "pcbypass"));
    }
    ps_err_clear(&err);
    assert_ptr_equal(pol_l1d_find("pcbypass:bits=4", &args, &err), &pol_l1d_pcbypass);
    assert_string_equal(args, "bits=4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pcbypass_training),
        cmocka_unit_test(test_pcbypass_all_or_nothing),
        cmocka_unit_test(test_pcbypass_parameters),
        cmocka_unit_test(test_pcbypass_no_correction),
        cmocka_unit_test(test_pcbypass_hit_friendly),
        cmocka_unit_test(test_pcbypass_dump),
        cmocka_unit_test(test_pcbypass_args),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
