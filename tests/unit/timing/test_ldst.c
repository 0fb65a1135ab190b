/*
 * Unit tests for timing/ldst, the SM's LD/ST unit, on the GTX 480
 * configuration with a real memory system below it: shared-memory timing
 * by bank conflicts, a global load that misses, travels to the DRAM and
 * completes through the load hook with its registers, the same line then
 * hitting after the L1 latency, a store's hold on its warp, the local
 * layout coalescing a warp's accesses to one variable, the unit
 * refusing a second instruction in the cycle of the first, and a stuck
 * unit's cycle repeating only its failures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/config.h"
#include "common/counters.h"
#include "isa/opcode.h"
#include "timing/ldst.h"
#include "timing/scoreboard.h"

struct rig {
    struct ps_config cfg;
    struct tm_params p;
    struct mem_system *ms;
    struct mem_cache *l1d, *l1i, *l1c, *l1t;
    struct tm_sm_counters k;
    struct tm_ldst *u;
    bool split; /* the L2 answers one packet per sector */
    /* What the hooks saw. */
    uint32_t loads_done, last_slot, last_ndst, last_dst0, stores_done, store_acks, l1d_seen;
    uint64_t last_at;
};

static void on_load(void *ctx, uint32_t slot, const uint32_t *dst, uint32_t ndst, uint64_t at)
{
    struct rig *g = ctx;

    g->loads_done++;
    g->last_slot = slot;
    g->last_ndst = ndst;
    g->last_dst0 = ndst ? dst[0] : 0;
    g->last_at = at;
}

static void on_store(void *ctx, uint32_t slot, uint32_t acks)
{
    struct rig *g = ctx;

    (void)slot;
    g->stores_done++;
    g->store_acks += acks;
}

static void on_fetch(void *ctx, const struct mem_req *r)
{
    (void)ctx;
    (void)r;
}

static void on_l1d(void *ctx, const struct mem_req *r, uint64_t now)
{
    struct rig *g = ctx;

    (void)r;
    (void)now;
    g->l1d_seen++;
}

static struct mem_cache *cache(const struct mem_cache_geom *geom, const char *name)
{
    struct ps_err err;
    struct mem_cache *c;

    ps_err_clear(&err);
    c = mem_cache_create(geom, name, NULL, "", 0, &err);
    assert_non_null(c);
    return c;
}

static int rig_make(void **state, bool sector_replies)
{
    struct rig *g = calloc(1, sizeof(*g));
    const char *top = getenv("srcdir");
    char path[4096];
    struct ps_err err;
    struct mem_system_params mp = {0};
    struct tm_ldst_env e;

    assert_non_null(g);
    ps_err_clear(&err);
    snprintf(path, sizeof(path), "%s/configs/gtx480", top ? top : PTXSIM_SRCDIR);
    ps_config_init(&g->cfg);
    assert_int_equal(ps_config_load_file(&g->cfg, path, &err), 0);
    assert_int_equal(tm_params_from_config(&g->cfg, &g->p, &err), 0);
    mp.nsm = g->p.nsm;
    mp.nmem = g->p.nmem;
    mp.nsub = g->p.nsub;
    mp.l2 = g->p.l2;
    mp.rop_latency = g->p.rop_latency;
    mp.dram_latency = g->p.dram_latency;
    memcpy(mp.partq, g->p.partq, sizeof(mp.partq));
    mp.dram = g->p.dram;
    mp.amap = g->p.amap;
    mp.icnt.flit_bytes = g->p.flit_bytes;
    mp.icnt.latency = g->p.icnt_latency;
    mp.icnt.in_buf_flits = g->p.icnt_in_flits;
    mp.icnt.out_buf_pkts = g->p.eject_pkts;
    mp.sector_replies = g->split = sector_replies;
    g->ms = mem_system_create(&mp, &err);
    assert_non_null(g->ms);
    g->l1d = cache(&g->p.l1d, "L1D");
    g->l1i = cache(&g->p.l1i, "L1I");
    g->l1c = cache(&g->p.l1c, "L1C");
    g->l1t = cache(&g->p.l1t, "L1T");
    e = (struct tm_ldst_env){&g->p,
                             g->ms,
                             0,
                             g->p.nsm,
                             g->l1d,
                             g->l1i,
                             g->l1c,
                             g->l1t,
                             NULL,
                             &g->k,
                             {g, on_load, on_store, on_fetch, on_l1d}};
    g->u = tm_ldst_create(&e, &err);
    assert_non_null(g->u);
    tm_ldst_kernel_begin(g->u, 256, 4);
    *state = g;
    return 0;
}

/* The rig as the GTX 480 runs: a sectored L2 that answers one packet per sector. */
static int rig_setup(void **state)
{
    return rig_make(state, true);
}

/* The same, with one packet for the whole answer (-ptxsim_sector_replies 0). */
static int rig_setup_whole(void **state)
{
    return rig_make(state, false);
}

static int rig_teardown(void **state)
{
    struct rig *g = *state;

    tm_ldst_destroy(g->u);
    mem_cache_destroy(g->l1d);
    mem_cache_destroy(g->l1i);
    mem_cache_destroy(g->l1c);
    mem_cache_destroy(g->l1t);
    mem_system_destroy(g->ms);
    ps_config_free(&g->cfg);
    free(g);
    return 0;
}

/* A 4-byte access of all 32 lanes in `space`, lane l at base + stride * l. */
static struct isa_step_info access(const struct isa_instr *in, uint8_t space, bool store,
                                   uint64_t base, uint64_t stride)
{
    struct isa_step_info info;

    memset(&info, 0, sizeof(info));
    info.in = in;
    info.active = UINT32_MAX;
    info.space = space;
    info.size = 4;
    info.is_store = store;
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        info.lane_space[l] = space;
        info.addr[l] = base + stride * l;
    }
    return info;
}

/* Clocks the unit and the memory system (one clock for all) until n loads completed. */
static uint64_t run_until_loads(struct rig *g, uint64_t now, uint32_t n)
{
    for (uint64_t end = now + 20000; now < end && g->loads_done < n; now++) {
        tm_ldst_take_replies(g->u, now);
        tm_ldst_send_miss(g->u, now);
        tm_ldst_cycle(g->u, now);
        mem_system_icnt_cycle(g->ms);
        mem_system_l2_cycle(g->ms);
        mem_system_dram_cycle(g->ms);
    }
    return now;
}

static struct tm_iinfo load_dst(uint16_t d)
{
    struct tm_iinfo ii = {0};

    ii.is_mem = true;
    ii.unit = TM_UNIT_MEM;
    ii.ndst = 1;
    ii.dst[0] = d;
    return ii;
}

static void test_shared_bank_conflicts(void **state)
{
    struct rig *g = *state;
    struct isa_instr in = {.op = ISA_OP_LD};
    struct tm_iinfo ii = load_dst(1);
    struct tm_ldst_warp w = {0, 0, 0};
    struct isa_step_info a = access(&in, ISA_SPACE_SHARED, false, 0, 4);
    struct isa_step_info b = access(&in, ISA_SPACE_SHARED, false, 0, 4 * g->p.shmem_banks);
    struct tm_ldst_issued x, y;

    x = tm_ldst_issue(g->u, &w, &a, &ii, 100);
    assert_int_equal(x.rec, TM_NO_REC);
    assert_int_equal(g->k.shmem_accesses, 1);
    assert_false(tm_ldst_accepts(g->u, 0, 100)); /* busy for the access's cycles */
    y = tm_ldst_issue(g->u, &w, &b, &ii, 200);
    /* Every lane on one bank: the access takes longer than the conflict-free one. */
    assert_true(y.ready - 200 > x.ready - 100);
    assert_int_equal(g->k.shmem_accesses, 2);
    assert_true(tm_ldst_idle(g->u));
}

static void test_global_miss_then_hit(void **state)
{
    struct rig *g = *state;
    struct isa_instr in = {.op = ISA_OP_LD};
    struct tm_iinfo ii = load_dst(3);
    struct tm_ldst_warp w = {5, 0, 0};
    struct isa_step_info a = access(&in, ISA_SPACE_GLOBAL, false, 0x10000000, 4);
    struct tm_ldst_issued x;
    struct mem_system_stats ms;
    uint64_t now = 10, miss_done, hit_start;

    x = tm_ldst_issue(g->u, &w, &a, &ii, now);
    assert_int_equal(x.ready, TM_NEVER);
    assert_int_not_equal(x.rec, TM_NO_REC);
    assert_int_equal(g->k.gmem_reqs, 1); /* 32 x 4 bytes: one 128-byte line */
    tm_ldst_rec_dst(g->u, x.rec, 42);
    assert_false(tm_ldst_idle(g->u));
    assert_false(tm_ldst_accepts(g->u, 5, now));
    assert_true(tm_ldst_accepts(g->u, 5, now + 1));
    miss_done = run_until_loads(g, now + 1, 1);
    assert_int_equal(g->loads_done, 1);
    assert_int_equal(g->last_slot, 5);
    assert_int_equal(g->last_ndst, 1);
    assert_int_equal(g->last_dst0, 42);
    assert_true(miss_done - now > g->p.l1_latency + g->p.oc_latency);
    assert_int_equal(g->k.lat_n, 1);
    /* The sectored L2 answered with four one-sector packets of 40 bytes (GPGPU-Sim's sector
     * requests) and the line filled with the last; with whole answers, one of 136 bytes. */
    mem_system_get_stats(g->ms, &ms);
    assert_int_equal(ms.reply.packets, g->split ? 4 : 1);
    assert_int_equal(ms.reply.bytes, g->split ? 4 * (MEM_CTRL_BYTES + 32) : MEM_CTRL_BYTES + 128);
    /* The line is now in the L1D: the same load hits after operand collection + L1 latency. */
    hit_start = miss_done + 10;
    x = tm_ldst_issue(g->u, &w, &a, &ii, hit_start);
    tm_ldst_rec_dst(g->u, x.rec, 43);
    now = run_until_loads(g, hit_start + 1, 2);
    assert_int_equal(g->loads_done, 2);
    assert_int_equal(g->last_dst0, 43);
    assert_true(now - hit_start <= g->p.oc_latency + g->p.l1_latency + 2);
    assert_int_equal(g->k.lat_n, 1); /* a hit adds no miss latency */
    assert_true(g->l1d_seen >= 2);
}

/* One cycle of the unit alone (no network, L2 or DRAM cycle); returns whether it moved a reply or
 * a miss. */
static bool unit_cycle(struct rig *g, uint64_t now)
{
    bool moving = tm_ldst_take_replies(g->u, now);

    moving |= tm_ldst_send_miss(g->u, now);
    tm_ldst_cycle(g->u, now);
    return moving;
}

/* The L1D's counters and the request network's refused sends, as one row of numbers. */
static void counts(struct rig *g, uint64_t *row, size_t n)
{
    struct mem_cache_stats cs = *mem_cache_get_stats(g->l1d);
    struct mem_system_stats ms;

    mem_system_get_stats(g->ms, &ms);
    assert_true(n == PS_NCOUNTERS(cs) + 1);
    memcpy(row, &cs, sizeof(cs));
    row[n - 1] = ms.req.in_stall;
}

/*
 * Misses that find no room in the network stick the unit: its next cycle
 * only repeats the L1D's failure and the refused send, which
 * tm_ldst_repeat_stuck counts the same way; a network cycle that makes room
 * unsticks it.
 */
static void test_stuck_cycle_repeats(void **state)
{
    enum { N = sizeof(struct mem_cache_stats) / sizeof(uint64_t) + 1 };
    struct rig *g = *state;
    struct isa_instr in = {.op = ISA_OP_LD};
    struct tm_iinfo ii = load_dst(3);
    struct tm_ldst_warp w = {5, 0, 0};
    struct tm_ldst_stuck st = {0}, again = {0};
    uint64_t a[N], b[N], c[N], now = 10;
    bool stuck = false;

    /* lanes 128 bytes apart: 32 lines per load, more misses than the L1D and the port hold */
    for (uint32_t k = 0; k < 4 && tm_ldst_accepts(g->u, 5, now); k++, now++) {
        struct isa_step_info x =
            access(&in, ISA_SPACE_GLOBAL, false, 0x10000000 + k * 0x10000, 128);
        struct tm_ldst_issued is = tm_ldst_issue(g->u, &w, &x, &ii, now);

        tm_ldst_rec_dst(g->u, is.rec, 40 + k);
        unit_cycle(g, now);
    }
    for (; now < 5000 && !stuck; now++)
        stuck = !unit_cycle(g, now) && tm_ldst_stuck(g->u, now, &st);
    assert_true(stuck);
    assert_true(st.l1d_fail); /* the L1D's MSHRs are all taken */
    counts(g, a, N);
    assert_false(unit_cycle(g, now));
    assert_true(tm_ldst_stuck(g->u, now, &again));
    assert_memory_equal(&st, &again, sizeof(st));
    counts(g, b, N);
    tm_ldst_repeat_stuck(g->u, &st);
    counts(g, c, N);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(c[i] - b[i], b[i] - a[i]);
    assert_true(b[0] == a[0] && c[0] == a[0]); /* no access got through */
    assert_false(tm_ldst_unstuck(g->u, &st));
    if (st.nwait) { /* a miss waits for the port: the network's cycles make room */
        assert_true(b[N - 1] > a[N - 1]);
        for (uint32_t i = 0; i < 64 && !tm_ldst_unstuck(g->u, &st); i++)
            mem_system_icnt_cycle(g->ms);
        assert_true(tm_ldst_unstuck(g->u, &st));
    }
}

static void test_store_holds_warp(void **state)
{
    struct rig *g = *state;
    struct isa_instr in = {.op = ISA_OP_ST};
    struct tm_iinfo ii = {0};
    struct tm_ldst_warp w = {2, 0, 0};
    struct isa_step_info a = access(&in, ISA_SPACE_GLOBAL, true, 0x20000000, 4);
    struct tm_ldst_issued x;
    uint64_t now;

    ii.is_mem = true;
    x = tm_ldst_issue(g->u, &w, &a, &ii, 50);
    assert_int_equal(x.rec, TM_NO_REC);
    assert_int_equal(x.stores, 1);
    for (now = 51; now < 20000 && (!tm_ldst_idle(g->u) || mem_system_busy(g->ms) ||
                                   g->stores_done < 1 + g->store_acks);
         now++) {
        tm_ldst_take_replies(g->u, now);
        tm_ldst_send_miss(g->u, now);
        tm_ldst_cycle(g->u, now);
        mem_system_icnt_cycle(g->ms);
        mem_system_l2_cycle(g->ms);
        mem_system_dram_cycle(g->ms);
    }
    /* The store reached the L1 (its hold ends, acknowledgements promised), then each ack came. */
    assert_true(g->store_acks > 0);
    assert_int_equal(g->stores_done, 1 + g->store_acks);
    assert_true(tm_ldst_idle(g->u));
}

static void test_local_layout_coalesces(void **state)
{
    struct rig *g = *state;
    struct isa_instr in = {.op = ISA_OP_LD};
    struct tm_iinfo ii = load_dst(1);
    struct tm_ldst_warp w = {1, 1, 2};
    struct isa_step_info a = access(&in, ISA_SPACE_LOCAL, false, 16, 0);
    struct tm_ldst_issued x;

    /* Every lane reads its own copy of one 4-byte local variable: adjacent words, one line. */
    x = tm_ldst_issue(g->u, &w, &a, &ii, 10);
    assert_int_not_equal(x.rec, TM_NO_REC);
    assert_int_equal(g->k.gmem_insts, 1);
    assert_int_equal(g->k.gmem_reqs, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_shared_bank_conflicts, rig_setup, rig_teardown),
        cmocka_unit_test_setup_teardown(test_global_miss_then_hit, rig_setup, rig_teardown),
        cmocka_unit_test_setup_teardown(test_global_miss_then_hit, rig_setup_whole, rig_teardown),
        cmocka_unit_test_setup_teardown(test_store_holds_warp, rig_setup, rig_teardown),
        cmocka_unit_test_setup_teardown(test_stuck_cycle_repeats, rig_setup, rig_teardown),
        cmocka_unit_test_setup_teardown(test_local_layout_coalesces, rig_setup, rig_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
