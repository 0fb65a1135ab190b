/*
 * Unit tests for CACP (policies/l1d_cacp.c), one per CACP oracle of
 * design/seeds/003_dissertation.md section 3.8 (7-10), plus SRRIP within a
 * partition, the missing-predictor fallback, arguments, and a real 16-way
 * L1D (mem_cache_create_linked) with a critical-warp function of the
 * test's own.
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
#include "policies/l1d_cacp.h"
#include "policies/registry.h"

/* The dissertation's CAWA L1D: 16 KB, 8 sets x 16 ways, 128 B lines, linear index. */
#define L1D_16WAY "N:8:128:16,L:L:m:N:L,S:64:8,8"
#define ASSOC 16

enum { C_CINS, C_NCINS, C_CHITS, C_NCHITS, C_CCBP_DEC, C_ZERO, C_EVICTIONS, C_NOPRED };

/* The test's critical-warp function: warps listed in crit_of are critical; -1 = no predictor. */
static int crit_of[64];

static int critical(void *ctx, uint32_t warp, uint64_t now)
{
    (void)ctx;
    (void)now;
    return warp < 64 ? crit_of[warp] : 0;
}

struct inst {
    void *st;
    uint64_t counters[POL_L1D_NCOUNTERS];
    struct pol_line_view views[ASSOC];
};

static void *try_create(const char *args, uint32_t assoc, uint64_t *counters, struct ps_err *err)
{
    struct pol_l1d_params p = {.nsets = 8, .assoc = assoc, .line_bytes = 128, .nsms = 1};

    p.args = args;
    p.counters = counters;
    p.warp_query = critical;
    ps_err_clear(err);
    return pol_l1d_create(&pol_l1d_cacp, &p, err);
}

static void mk(struct inst *in, const char *args)
{
    struct ps_err err;

    memset(in, 0, sizeof(*in));
    memset(crit_of, 0, sizeof(crit_of));
    in->st = try_create(args, ASSOC, in->counters, &err);
    if (!in->st)
        fail_msg("%s", err.msg);
}

static struct mem_req rq(uint32_t pc, uint64_t line, uint16_t warp)
{
    struct mem_req r;

    memset(&r, 0, sizeof(r));
    r.type = MEM_READ;
    r.space = MEM_GLOBAL;
    r.addr = line * 128;
    r.bytes = 128;
    r.sector_mask = 0xf;
    r.pc = pc;
    r.warp = warp;
    return r;
}

/* A miss of (pc, line) in set 0: on_miss, victim, then insert there (views updated). */
static uint32_t fill(struct inst *in, uint32_t pc, uint64_t line)
{
    struct mem_req r = rq(pc, line, 0);
    uint32_t w;

    assert_true(pol_l1d_cacp.on_miss(in->st, &r, 0, 0));
    w = pol_l1d_cacp.victim(in->st, 0, in->views, ASSOC, 0);
    if (w == ASSOC)
        return w;
    if (in->views[w].valid)
        pol_l1d_cacp.on_evict(in->st, &in->views[w], 0, w, 0);
    pol_l1d_cacp.on_insert(in->st, &r, 0, w, 0);
    in->views[w] = (struct pol_line_view){.tag = line, .valid = true, .pc = pc};
    return w;
}

static struct pol_cacp_line line_of(const struct inst *in, uint32_t way)
{
    struct pol_cacp_line l;

    pol_l1d_cacp_line(in->st, 0, way, &l);
    return l;
}

static void tables(const struct inst *in, uint32_t sig, uint32_t *ccbp, uint32_t *ship)
{
    pol_l1d_cacp_tables(in->st, sig, ccbp, ship);
}

/* Fills all 16 ways of set 0 with lines of pc 1 (non-critical signatures: CCBP 0). */
static void fill_set(struct inst *in)
{
    for (uint32_t k = 0; k < ASSOC; k++) {
        uint32_t sig = pol_l1d_cacp_sig(in->st, 1, k * 8 * 128);

        pol_l1d_cacp_set_tables(in->st, sig, k < 8 ? 3 : 0, 1);
        assert_int_equal(fill(in, 1, k * 8), k);
    }
}

/* Oracle 3.8.7: CCBP above the threshold evicts only from ways 0-7, otherwise only from 8-15. */
static void test_oracle7_partition(void **state)
{
    struct inst in;
    uint32_t crit_sig, nc_sig, w;

    (void)state;
    mk(&in, "");
    assert_int_equal(pol_l1d_cacp_cways(in.st), 8);
    /* Empty set: invalid ways are taken first, but only inside the partition. */
    fill_set(&in);
    assert_int_equal(in.counters[C_CINS], 8);
    assert_int_equal(in.counters[C_NCINS], 8);
    crit_sig = pol_l1d_cacp_sig(in.st, 2, 200 * 8 * 128);
    nc_sig = pol_l1d_cacp_sig(in.st, 2, 201 * 8 * 128);
    pol_l1d_cacp_set_tables(in.st, crit_sig, 2, 1);
    pol_l1d_cacp_set_tables(in.st, nc_sig, 1, 1);
    for (uint32_t i = 0; i < 40; i++) {
        w = fill(&in, 2, 200 * 8);
        assert_true(w < 8);
        w = fill(&in, 2, 201 * 8);
        assert_true(w >= 8 && w < ASSOC);
    }
    /* A partition whose every way is reserved fails (retry), it never takes the other one. */
    for (uint32_t k = 8; k < ASSOC; k++)
        in.views[k].reserved = true;
    assert_int_equal(fill(&in, 2, 201 * 8), ASSOC);
    assert_true(fill(&in, 2, 200 * 8) < 8);
    pol_l1d_destroy(&pol_l1d_cacp, in.st);
}

/* Oracle 3.8.8: a critical hit sets c_reuse and raises CCBP and SHiP (to 3); a non-critical, SHiP.
 */
static void test_oracle8_hit_training(void **state)
{
    struct mem_req crit_hit = rq(1, 3 * 8, 5), nc_hit = rq(1, 3 * 8, 6);
    struct inst in;
    uint32_t sig, ccbp, ship;

    (void)state;
    mk(&in, "");
    fill(&in, 1, 3 * 8);
    sig = line_of(&in, 8).sig;
    assert_int_equal(sig, pol_l1d_cacp_sig(in.st, 1, 3 * 8 * 128));
    crit_of[5] = 1;
    pol_l1d_cacp.on_hit(in.st, &nc_hit, 0, 8, 1);
    tables(&in, sig, &ccbp, &ship);
    assert_int_equal(ccbp, 0);
    assert_int_equal(ship, 2);
    assert_true(line_of(&in, 8).nc_reuse);
    assert_false(line_of(&in, 8).c_reuse);
    pol_l1d_cacp.on_hit(in.st, &crit_hit, 0, 8, 2);
    tables(&in, sig, &ccbp, &ship);
    assert_int_equal(ccbp, 1);
    assert_int_equal(ship, 3);
    assert_true(line_of(&in, 8).c_reuse);
    for (uint32_t i = 0; i < 5; i++)
        pol_l1d_cacp.on_hit(in.st, &crit_hit, 0, 8, 3 + i);
    tables(&in, sig, &ccbp, &ship);
    assert_int_equal(ccbp, 3);
    assert_int_equal(ship, 3);
    assert_int_equal(in.counters[C_CHITS], 6);
    assert_int_equal(in.counters[C_NCHITS], 1);
    pol_l1d_destroy(&pol_l1d_cacp, in.st);
}

/*
 * Oracle 3.8.9: a critical-partition line with nc_reuse and no c_reuse lowers
 * CCBP only; a line with no reuse lowers SHiP only; a non-critical-partition
 * line with nc_reuse changes nothing.
 */
static void test_oracle9_evict_training(void **state)
{
    struct mem_req nc_hit = rq(9, 0, 6);
    struct pol_line_view v = {.valid = true};
    struct inst in;
    uint32_t s0, s1, s2, ccbp, ship;

    (void)state;
    mk(&in, "");
    s0 = pol_l1d_cacp_sig(in.st, 9, 0);
    s1 = pol_l1d_cacp_sig(in.st, 9, 128);
    s2 = pol_l1d_cacp_sig(in.st, 9, 256);
    pol_l1d_cacp_set_tables(in.st, s0, 3, 2);
    pol_l1d_cacp_set_tables(in.st, s1, 3, 2);
    pol_l1d_cacp_set_tables(in.st, s2, 3, 2);
    /* s0: critical way 2, hit by a non-critical warp, evicted. */
    nc_hit.addr = 0;
    pol_l1d_cacp.on_insert(in.st, &nc_hit, 0, 2, 0);
    pol_l1d_cacp.on_hit(in.st, &nc_hit, 0, 2, 1);
    tables(&in, s0, &ccbp, &ship);
    assert_int_equal(ship, 3);
    pol_l1d_cacp.on_evict(in.st, &v, 0, 2, 2);
    tables(&in, s0, &ccbp, &ship);
    assert_int_equal(ccbp, 2);
    assert_int_equal(ship, 3);
    /* s1: no reuse at all. */
    nc_hit.addr = 128;
    pol_l1d_cacp.on_insert(in.st, &nc_hit, 0, 3, 3);
    pol_l1d_cacp.on_evict(in.st, &v, 0, 3, 4);
    tables(&in, s1, &ccbp, &ship);
    assert_int_equal(ccbp, 3);
    assert_int_equal(ship, 1);
    /* s2: non-critical way 12, hit by a non-critical warp. */
    nc_hit.addr = 256;
    pol_l1d_cacp.on_insert(in.st, &nc_hit, 0, 12, 5);
    pol_l1d_cacp.on_hit(in.st, &nc_hit, 0, 12, 6);
    pol_l1d_cacp.on_evict(in.st, &v, 0, 12, 7);
    tables(&in, s2, &ccbp, &ship);
    assert_int_equal(ccbp, 3);
    assert_int_equal(ship, 3);
    assert_int_equal(in.counters[C_CCBP_DEC], 1);
    assert_int_equal(in.counters[C_ZERO], 1);
    assert_int_equal(in.counters[C_EVICTIONS], 3);
    pol_l1d_destroy(&pol_l1d_cacp, in.st);
}

/* Oracle 3.8.10: SHiP[sig] = 0 inserts at RRPV 3, otherwise at 2. */
static void test_oracle10_ship_insertion(void **state)
{
    struct inst in;
    uint32_t w;

    (void)state;
    mk(&in, "");
    pol_l1d_cacp_set_tables(in.st, pol_l1d_cacp_sig(in.st, 4, 0), 0, 0);
    w = fill(&in, 4, 0);
    assert_int_equal(line_of(&in, w).rrpv, 3);
    w = fill(&in, 4, 8);
    assert_int_equal(line_of(&in, w).rrpv, 2);
    pol_l1d_cacp_set_tables(in.st, pol_l1d_cacp_sig(in.st, 4, 16 * 128), 0, 3);
    w = fill(&in, 4, 16);
    assert_int_equal(line_of(&in, w).rrpv, 2);
    pol_l1d_destroy(&pol_l1d_cacp, in.st);
}

/* SRRIP inside a partition: a hit promotes to 0; the victim is the lowest way at 3 after aging. */
static void test_cacp_rrip(void **state)
{
    struct mem_req hit = rq(1, 9 * 8, 0);
    struct inst in;

    (void)state;
    mk(&in, "");
    fill_set(&in); /* ways 8-15 non-critical, all at RRPV 2 */
    pol_l1d_cacp.on_hit(in.st, &hit, 0, 9, 1);
    assert_int_equal(line_of(&in, 9).rrpv, 0);
    /* Aging by one: ways 8, 10-15 reach 3, way 9 reaches 1; way 8 goes. */
    assert_int_equal(fill(&in, 3, 100 * 8), 8);
    assert_int_equal(line_of(&in, 9).rrpv, 1);
    assert_int_equal(line_of(&in, 10).rrpv, 3);
    assert_int_equal(line_of(&in, 0).rrpv, 2); /* the other partition is not aged */
    assert_int_equal(fill(&in, 3, 101 * 8), 10);
    pol_l1d_destroy(&pol_l1d_cacp, in.st);
}

/* No criticality predictor (-1, or no function): every hit is non-critical, and counted. */
static void test_cacp_no_predictor(void **state)
{
    struct mem_req hit = rq(1, 0, 7);
    uint64_t counters[POL_L1D_NCOUNTERS] = {0};
    struct pol_l1d_params p = {.nsets = 8, .assoc = ASSOC, .line_bytes = 128, .args = ""};
    struct inst in;
    struct ps_err err;
    void *st;

    (void)state;
    mk(&in, "");
    crit_of[7] = -1;
    fill(&in, 1, 0);
    pol_l1d_cacp.on_hit(in.st, &hit, 0, 8, 1);
    assert_int_equal(in.counters[C_NOPRED], 1);
    assert_int_equal(in.counters[C_NCHITS], 1);
    assert_false(line_of(&in, 8).c_reuse);
    pol_l1d_destroy(&pol_l1d_cacp, in.st);

    p.counters = counters;
    st = pol_l1d_create(&pol_l1d_cacp, &p, &err);
    assert_non_null(st);
    pol_l1d_cacp.on_insert(st, &hit, 0, 8, 0);
    pol_l1d_cacp.on_hit(st, &hit, 0, 8, 1);
    assert_int_equal(counters[C_NOPRED], 1);
    pol_l1d_destroy(&pol_l1d_cacp, st);
}

static void *last_state;

static void *capture_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    return last_state = pol_l1d_cacp.create(p, err); /* p: parsed, state made */
}

static enum mem_cache_result read_now(struct mem_cache *c, uint32_t pc, uint64_t line,
                                      uint16_t warp, uint64_t uid)
{
    struct mem_req r = rq(pc, line, warp), m;
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
 * A real L1D: 8 lines with critical signatures land in ways 0-7 and survive
 * a stream of 200 non-critical lines through the same set (oracle 3.8.7
 * end to end, which needs the cache to ask on_miss before the victim).
 */
static void test_cacp_in_cache(void **state)
{
    struct pol_l1d_ops ops = pol_l1d_cacp;
    struct pol_l1d_link link = {.sm = 0, .nsms = 1, .warp_query = critical};
    struct mem_cache_geom g;
    struct mem_cache *c;
    struct ps_err err;
    uint64_t uid = 1;

    (void)state;
    memset(crit_of, 0, sizeof(crit_of));
    crit_of[1] = 1;
    ops.create = capture_create;
    ps_err_clear(&err);
    assert_int_equal(mem_cache_geom_parse(L1D_16WAY, &g, &err), 0);
    c = mem_cache_create_linked(&g, "test", &ops, "", &link, &err);
    if (!c)
        fail_msg("%s", err.msg);
    for (uint32_t k = 0; k < 8; k++) /* pc 0, lines 8k: even signatures */
        pol_l1d_cacp_set_tables(last_state, pol_l1d_cacp_sig(last_state, 0, k * 8 * 128), 3, 1);
    for (uint32_t k = 0; k < 8; k++)
        assert_int_equal(read_now(c, 0, k * 8, 1, uid++), MEM_MISS);
    for (uint32_t j = 0; j < 200; j++) /* pc 1: odd signatures, CCBP 0 */
        assert_int_equal(read_now(c, 1, (8 + j) * 8, 2, uid++), MEM_MISS);
    for (uint32_t k = 0; k < 8; k++)
        assert_int_equal(read_now(c, 0, k * 8, 1, uid++), MEM_HIT);
    assert_int_equal(mem_cache_get_stats(c)->pol[C_CINS], 8);
    assert_int_equal(mem_cache_get_stats(c)->pol[C_CHITS], 8);
    mem_cache_destroy(c);
}

static void test_cacp_dump(void **state)
{
    struct inst in;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct ps_err err;

    (void)state;
    mk(&in, "sig_bits=4");
    pol_l1d_cacp_set_tables(in.st, 3, 2, 0);
    ps_err_clear(&err);
    assert_int_equal(pol_l1d_cacp.dump(in.st, f, &err), 0);
    fclose(f);
    assert_non_null(strstr(buf, "# cacp cways=8 assoc=16 threshold=1"));
    assert_non_null(strstr(buf, "ccbp,0,15\nship,0,1\nccbp,1,0\nship,1,15\nccbp,2,1\n"));
    free(buf);
    pol_l1d_destroy(&pol_l1d_cacp, in.st);
}

static void test_cacp_args(void **state)
{
    static const char *const bad[] = {
        "cways=16",    "cways=20",      "ccbp_init=4", "ship_init=4", "ccbp_bits=0",
        "sig_bits=13", "sig_addr=word", "y=2",         "cways",       "cways=4,,threshold=1"};
    uint64_t c[POL_L1D_NCOUNTERS];
    const char *args = NULL;
    struct ps_err err;
    void *st;

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        st = try_create(bad[i], ASSOC, c, &err);
        if (st)
            fail_msg("%s accepted", bad[i]);
        assert_int_equal(err.code, PS_EINVAL);
        assert_non_null(strstr(err.msg, "cacp"));
    }
    /* A 1-way cache cannot be partitioned; a 4-way one defaults to 2 critical ways. */
    assert_null(try_create("", 1, c, &err));
    assert_non_null(strstr(err.msg, "2 ways"));
    st = try_create("", 4, c, &err);
    assert_non_null(st);
    assert_int_equal(pol_l1d_cacp_cways(st), 2);
    pol_l1d_destroy(&pol_l1d_cacp, st);
    st = try_create("cways=3,threshold=2,ccbp_bits=3,ccbp_init=7,ship_bits=1,ship_init=0,"
                    "sig_bits=6,sig_addr=byte",
                    4, c, &err);
    assert_non_null(st);
    assert_int_equal(pol_l1d_cacp_cways(st), 3);
    assert_int_equal(pol_l1d_cacp_sig(st, 1, 0x80), 0x1);
    pol_l1d_destroy(&pol_l1d_cacp, st);
    ps_err_clear(&err);
    assert_ptr_equal(pol_l1d_find("cacp:cways=4", &args, &err), &pol_l1d_cacp);
    assert_string_equal(args, "cways=4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle7_partition),
        cmocka_unit_test(test_oracle8_hit_training),
        cmocka_unit_test(test_oracle9_evict_training),
        cmocka_unit_test(test_oracle10_ship_insertion),
        cmocka_unit_test(test_cacp_rrip),
        cmocka_unit_test(test_cacp_no_predictor),
        cmocka_unit_test(test_cacp_in_cache),
        cmocka_unit_test(test_cacp_dump),
        cmocka_unit_test(test_cacp_args),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
