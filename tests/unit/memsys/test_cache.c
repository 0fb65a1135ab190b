/*
 * Unit tests for memsys/cache: the GPGPU-Sim cache string, set indexing,
 * hits and replacement order, MSHR merging and the three kinds of
 * reservation failure, allocate-on-miss against allocate-on-fill, every
 * write policy, sectored partial hits, .cg bypass, the bypass-all policy,
 * atomics, invalidate and the statistics. Each test drives the cache
 * through its public API and plays the next level itself: it pops the
 * miss queue and hands reads back to mem_cache_fill().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "isa/opcode.h"
#include "memsys/cache.h"
#include "policies/l1d_builtin.h"

#define L1D "N:32:128:4,L:L:m:N:H,S:64:8,8"
#define L2 "S:64:128:8,L:B:m:L:L,A:256:4,4:0,32"
#define IL1 "N:4:128:4,L:R:f:N:L,S:2:32,4"
#define CONST "N:64:64:2,L:R:f:N:L,S:2:32,4"
#define SHARED UINT32_MAX

static struct mem_cache *mk(const char *geom, const struct pol_l1d_ops *pol, const char *args,
                            uint32_t sm)
{
    struct mem_cache_geom g;
    struct ps_err err;
    struct mem_cache *c;

    ps_err_clear(&err);
    assert_int_equal(mem_cache_geom_parse(geom, &g, &err), 0);
    c = mem_cache_create(&g, "test", pol, args, sm, &err);
    if (!c)
        fail_msg("%s", err.msg);
    return c;
}

static struct mem_req req(enum mem_type type, uint64_t addr, uint32_t mask, uint64_t uid)
{
    struct mem_req r;

    memset(&r, 0, sizeof(r));
    r.type = (uint8_t)type;
    r.addr = addr;
    r.bytes = 128;
    r.sector_mask = mask;
    r.uid = uid;
    r.space = MEM_GLOBAL;
    return r;
}

static enum mem_cache_result rd(struct mem_cache *c, uint64_t addr, uint64_t uid, uint64_t now)
{
    struct mem_req r = req(MEM_READ, addr, 0xf, uid);

    return mem_cache_access(c, &r, now);
}

static enum mem_cache_result wr(struct mem_cache *c, uint64_t addr, uint64_t uid, uint64_t now)
{
    struct mem_req r = req(MEM_WRITE, addr, 0xf, uid);

    return mem_cache_access(c, &r, now);
}

/* The next level: pops everything queued, answers the reads at `now`; returns the count. */
static uint32_t serve(struct mem_cache *c, uint64_t now, struct mem_req *log, uint32_t max)
{
    struct mem_req m;
    uint32_t n = 0;

    while (mem_cache_pop_miss(c, &m)) {
        if (log && n < max)
            log[n] = m;
        n++;
        if (m.type != MEM_WRITE)
            mem_cache_fill(c, &m, now);
    }
    return n;
}

/* Drains pop_ready into uids; returns the count. */
static uint32_t ready(struct mem_cache *c, uint64_t *uids, uint32_t max)
{
    struct mem_req r;
    uint32_t n = 0;

    while (mem_cache_pop_ready(c, &r)) {
        if (uids && n < max)
            uids[n] = r.uid;
        n++;
    }
    return n;
}

/* ---- geometry ---- */

static void test_cache_geom_parse_fermi_strings(void **state)
{
    struct mem_cache_geom g;
    struct ps_err err;

    (void)state;
    assert_int_equal(mem_cache_geom_parse(L1D, &g, &err), 0);
    assert_int_equal(g.kind, 'N');
    assert_int_equal(g.nsets, 32);
    assert_int_equal(g.line_bytes, 128);
    assert_int_equal(g.assoc, 4);
    assert_int_equal(g.repl, 'L');
    assert_int_equal(g.wpol, 'L');
    assert_int_equal(g.alloc, 'm');
    assert_int_equal(g.walloc, 'N');
    assert_int_equal(g.index, 'H');
    assert_int_equal(g.mshr_kind, 'S');
    assert_int_equal(g.mshr_entries, 64);
    assert_int_equal(g.mshr_max_merge, 8);
    assert_int_equal(g.miss_queue, 8);
    assert_int_equal(mem_cache_geom_bytes(&g), 16384);

    assert_int_equal(mem_cache_geom_parse(L2, &g, &err), 0);
    assert_int_equal(g.kind, 'S');
    assert_int_equal(g.wpol, 'B');
    assert_int_equal(g.walloc, 'L');
    assert_int_equal(g.mshr_kind, 'A');
    assert_int_equal(g.mshr_entries, 256);
    assert_int_equal(g.mshr_max_merge, 4);
    assert_int_equal(g.miss_queue, 4);
    assert_int_equal(g.result_fifo, 0);
    assert_int_equal(g.data_port, 32);
    assert_int_equal(mem_cache_geom_bytes(&g), 65536);

    assert_int_equal(mem_cache_geom_parse(IL1, &g, &err), 0);
    assert_int_equal(g.wpol, 'R');
    assert_int_equal(g.alloc, 'f');
    assert_int_equal(g.mshr_entries, 2);
    assert_int_equal(g.mshr_max_merge, 32);
    assert_int_equal(mem_cache_geom_bytes(&g), 2048);

    assert_int_equal(mem_cache_geom_parse(CONST, &g, &err), 0);
    assert_int_equal(g.line_bytes, 64);
    assert_int_equal(mem_cache_geom_bytes(&g), 8192);
}

static void test_cache_geom_parse_legacy(void **state)
{
    struct mem_cache_geom g;
    struct ps_err err;

    (void)state;
    /* Older configs: no kind letter, no set-index letter. */
    assert_int_equal(mem_cache_geom_parse("32:128:4,L:L:m:N,A:32:8,8", &g, &err), 0);
    assert_int_equal(g.kind, 'N');
    assert_int_equal(g.index, 'L');
    assert_int_equal(g.mshr_entries, 32);
}

static void expect_bad(const char *s, int code, const char *words)
{
    struct mem_cache_geom g;
    struct ps_err err;

    ps_err_clear(&err);
    memset(&g, 0x5a, sizeof(g));
    assert_int_equal(mem_cache_geom_parse(s, &g, &err), code);
    assert_int_equal(err.code, code);
    if (!strstr(err.msg, words))
        fail_msg("\"%s\": message \"%s\" lacks \"%s\"", s, err.msg, words);
    assert_int_equal(g.nsets, 0x5a5a5a5a); /* untouched */
}

static void test_cache_geom_parse_errors(void **state)
{
    (void)state;
    expect_bad("", PS_EPARSE, "cache kind");
    expect_bad("N:32:128:4", PS_EPARSE, "',' before the policy group");
    expect_bad("N:32:128:4,L:Q:m:N:H,S:64:8,8", PS_EPARSE, "write policy R, B, T, E or L");
    expect_bad("N:32:128:4,L:L:m:N:H,S:64:8", PS_EPARSE, "miss-queue size");
    expect_bad("N:32:128:4,L:L:m:N:H,S:64:8,8,32,9", PS_EPARSE, "end of the string");
    expect_bad("N:32:128:4,L:L:m:N:H,S:64:x,8", PS_EPARSE, "MSHR merge limit at column 27");
    expect_bad("Z:32:128:4,L:L:m:N:H,S:64:8,8", PS_EPARSE, "cache kind");
    expect_bad("N:32:99999999999:4,L:L:m:N:H,S:64:8,8", PS_EPARSE, "line size");
    expect_bad("N:32:100:4,L:L:m:N:H,S:64:8,8", PS_EINVAL, "power of two");
    expect_bad("N:0:128:4,L:L:m:N:H,S:64:8,8", PS_EINVAL, "at least 1");
    expect_bad("S:32:64:4,L:L:m:N:H,S:64:8,8", PS_EINVAL, "128-byte lines");
    expect_bad("N:32:128:4,L:L:m:N:H,S:0:8,8", PS_EINVAL, "MSHR entries");
    expect_bad("N:32:128:4,L:L:m:N:H,S:64:8,0", PS_EINVAL, "miss queue");
}

static void test_cache_set_index(void **state)
{
    struct mem_cache_geom g;
    struct ps_err err;

    (void)state;
    assert_int_equal(mem_cache_geom_parse("N:32:128:4,L:L:m:N:L,S:64:8,8", &g, &err), 0);
    assert_int_equal(mem_cache_geom_set_index(&g, 0x2000), 0); /* line 64 % 32 */
    assert_int_equal(mem_cache_geom_set_index(&g, 0x0f80), 31);
    assert_int_equal(mem_cache_geom_parse(L1D, &g, &err), 0);
    /* Fermi hash: line bits 7..11 XOR address bits 13, 14, 15, 17, 19. */
    assert_int_equal(mem_cache_geom_set_index(&g, 0x0f80), 31);
    assert_int_equal(mem_cache_geom_set_index(&g, 0x2000), 1);  /* bit 13 */
    assert_int_equal(mem_cache_geom_set_index(&g, 0x20000), 8); /* bit 17 */
    assert_int_equal(mem_cache_geom_set_index(&g, 0x80080), 16 ^ 1);
    assert_int_equal(mem_cache_geom_parse("N:64:128:6,L:L:m:N:H,S:64:8,8", &g, &err), 0);
    assert_int_equal(mem_cache_geom_set_index(&g, 0x1000), 32); /* bit 12 on top */
    /* 16 sets: the fallback XOR fold stays in range. */
    assert_int_equal(mem_cache_geom_parse("N:16:128:4,L:L:m:N:H,S:64:8,8", &g, &err), 0);
    for (uint64_t a = 0; a < (1u << 22); a += 4096 + 128)
        assert_true(mem_cache_geom_set_index(&g, a) < 16);
}

static void test_cache_cacheop_values(void **state)
{
    (void)state;
    /* memsys/cache.c repeats these two enum values; keep them in step. */
    assert_int_equal(ISA_CACHE_CG, 2);
    assert_int_equal(ISA_CACHE_CS, 3);
}

static void test_cache_create_errors(void **state)
{
    struct mem_cache_geom g;
    struct ps_err err;

    (void)state;
    assert_int_equal(mem_cache_geom_parse(L1D, &g, &err), 0);
    ps_err_clear(&err);
    assert_null(mem_cache_create(&g, "l1d", &pol_l1d_lru, "bogus", 0, &err));
    assert_int_equal(err.code, PS_EINVAL);
    assert_non_null(strstr(err.msg, "bogus"));
    g.assoc = 0;
    ps_err_clear(&err);
    assert_null(mem_cache_create(&g, "l1d", NULL, NULL, 0, &err));
    assert_int_equal(err.code, PS_EINVAL);
    mem_cache_destroy(NULL);
}

/* ---- reads: hits, replacement, MSHRs ---- */

static void test_cache_hit_miss_lru(void **state)
{
    struct mem_cache *c = mk("N:1:128:2,L:R:m:N:L,A:4:4,8", NULL, NULL, 0);
    uint64_t u[4];

    (void)state;
    assert_int_equal(rd(c, 0x000, 1, 1), MEM_MISS);
    assert_int_equal(serve(c, 2, NULL, 0), 1);
    assert_int_equal(ready(c, u, 4), 1);
    assert_int_equal(u[0], 1);
    assert_int_equal(rd(c, 0x080, 2, 3), MEM_MISS);
    serve(c, 4, NULL, 0);
    assert_int_equal(rd(c, 0x000, 3, 5), MEM_HIT);  /* A used at 5, B filled at 4 */
    assert_int_equal(rd(c, 0x100, 4, 6), MEM_MISS); /* C evicts B */
    serve(c, 7, NULL, 0);
    assert_int_equal(rd(c, 0x000, 5, 8), MEM_HIT);
    assert_int_equal(rd(c, 0x080, 6, 9), MEM_MISS); /* B evicts C (7 < 8) */
    serve(c, 10, NULL, 0);
    assert_int_equal(rd(c, 0x100, 7, 11), MEM_MISS); /* C evicts A (8 < 10) */
    serve(c, 12, NULL, 0);
    assert_int_equal(rd(c, 0x080, 8, 13), MEM_HIT);
    assert_int_equal(rd(c, 0x000, 9, 14), MEM_MISS);
    assert_int_equal(mem_cache_get_stats(c)->evictions, 4);
    mem_cache_destroy(c);
}

/* The observer sees an evicted line as the request that allocated it, t_issue its allocation. */
struct obs_log {
    uint32_t n;
    enum mem_obs_kind kind[8];
    struct mem_req r[8];
    uint16_t warp[8];
};

static void obs_record(void *ctx, enum mem_obs_kind kind, const struct mem_req *r, uint64_t line,
                       uint16_t warp, uint64_t now)
{
    struct obs_log *o = ctx;

    (void)line;
    (void)now;
    assert_non_null(r);
    if (o->n < 8) {
        o->kind[o->n] = kind;
        o->r[o->n] = *r;
        o->warp[o->n++] = warp;
    }
}

static void test_cache_observer_evict_view(void **state)
{
    struct mem_cache *c = mk("N:1:128:1,L:R:m:N:L,A:4:4,8", NULL, NULL, 0);
    struct mem_req a = req(MEM_READ, 0x000, 0xf, 1), b = req(MEM_READ, 0x080, 0xf, 2);
    struct obs_log o = {0};

    (void)state;
    mem_cache_set_observer(c, obs_record, &o);
    a.warp = 5;
    a.pc = 17;
    b.warp = 6;
    assert_int_equal(mem_cache_access(c, &a, 10), MEM_MISS);
    serve(c, 20, NULL, 0);
    assert_int_equal(mem_cache_access(c, &b, 30), MEM_MISS); /* evicts warp 5's line */
    assert_int_equal(o.n, 3);
    assert_int_equal(o.kind[0], MEM_OBS_MISS);
    assert_int_equal(o.kind[1], MEM_OBS_EVICT);
    assert_int_equal(o.warp[1], 5);
    assert_int_equal(o.r[1].warp, 5);
    assert_int_equal(o.r[1].pc, 17);
    assert_int_equal(o.r[1].addr, 0x000);
    assert_int_equal(o.r[1].type, MEM_READ);
    assert_int_equal(o.r[1].t_issue, 10); /* allocated on the miss at 10 */
    assert_int_equal(o.kind[2], MEM_OBS_MISS);
    assert_int_equal(o.r[2].warp, 6);
    mem_cache_destroy(c);
}

/*
 * A store that misses without allocating shows the line GPGPU-Sim's tag probe
 * picks for it (MEM_OBS_STORE_MISS): none while a way is free, else the LRU
 * valid line (as allocated, its warp), or the store's own line being fetched.
 */
static void test_cache_observer_store_miss(void **state)
{
    struct mem_cache *c = mk("N:1:128:2,L:L:m:N:L,A:4:4,8", NULL, NULL, 0);
    struct mem_req a = req(MEM_READ, 0x000, 0xf, 1), b = req(MEM_READ, 0x080, 0xf, 2);
    struct mem_req st = req(MEM_WRITE, 0x100, 0xf, 3), d = req(MEM_READ, 0x180, 0xf, 4);
    struct obs_log o = {0};

    (void)state;
    mem_cache_set_observer(c, obs_record, &o);
    a.warp = 5;
    b.warp = 6;
    st.warp = 7;
    d.warp = 8;
    assert_int_equal(mem_cache_access(c, &a, 10), MEM_MISS);
    serve(c, 20, NULL, 0);
    assert_int_equal(mem_cache_access(c, &st, 25), MEM_SENT); /* a way is free: nothing */
    assert_int_equal(o.n, 1);
    assert_int_equal(mem_cache_access(c, &b, 30), MEM_MISS);
    serve(c, 40, NULL, 0);
    a.uid = 5;
    assert_int_equal(mem_cache_access(c, &a, 45), MEM_HIT); /* b is now the LRU line */
    assert_int_equal(mem_cache_access(c, &st, 50), MEM_SENT);
    assert_int_equal(o.n, 4);
    assert_int_equal(o.kind[3], MEM_OBS_STORE_MISS);
    assert_int_equal(o.warp[3], 7);
    assert_int_equal(o.r[3].addr, 0x080);
    assert_int_equal(o.r[3].warp, 6);
    assert_int_equal(o.r[3].type, MEM_READ);
    assert_int_equal(o.r[3].t_issue, 30);
    assert_int_equal(mem_cache_access(c, &d, 60), MEM_MISS); /* evicts b, d pending */
    st.addr = 0x180;
    st.warp = 9;
    assert_int_equal(mem_cache_access(c, &st, 61), MEM_SENT);
    assert_int_equal(o.kind[o.n - 1], MEM_OBS_STORE_MISS);
    assert_int_equal(o.warp[o.n - 1], 9);
    assert_int_equal(o.r[o.n - 1].addr, 0x180); /* its own line, on its way */
    assert_int_equal(o.r[o.n - 1].type, MEM_WRITE);
    assert_int_equal(mem_cache_get_stats(c)->evictions, 1); /* the stores evicted nothing */
    mem_cache_destroy(c);
}

static void test_cache_fifo(void **state)
{
    struct mem_cache *c = mk("N:1:128:2,F:R:m:N:L,A:4:4,8", NULL, NULL, 0);

    (void)state;
    rd(c, 0x000, 1, 1);
    serve(c, 2, NULL, 0);
    rd(c, 0x080, 2, 3);
    serve(c, 4, NULL, 0);
    assert_int_equal(rd(c, 0x000, 3, 5), MEM_HIT);
    assert_int_equal(rd(c, 0x100, 4, 6), MEM_MISS); /* evicts A, inserted first */
    serve(c, 7, NULL, 0);
    assert_int_equal(rd(c, 0x080, 5, 8), MEM_HIT);
    assert_int_equal(rd(c, 0x000, 6, 9), MEM_MISS);
    mem_cache_destroy(c);
}

static void test_cache_mshr_merge_limit(void **state)
{
    struct mem_cache *c = mk("N:4:128:4,L:R:m:N:L,A:2:3,8", NULL, NULL, 0);
    const struct mem_cache_stats *st = mem_cache_get_stats(c);
    struct mem_req m;
    uint64_t u[4];

    (void)state;
    assert_int_equal(rd(c, 0x1000, 1, 1), MEM_MISS);
    assert_int_equal(rd(c, 0x1000, 2, 2), MEM_HIT_RESERVED);
    assert_int_equal(rd(c, 0x1000, 3, 3), MEM_HIT_RESERVED);
    assert_int_equal(rd(c, 0x1000, 4, 4), MEM_RESFAIL);
    assert_int_equal(st->resfail_merge, 1);
    assert_int_equal(st->resfail, 1);
    assert_int_equal(st->accesses, 3);
    assert_int_equal(st->hit_reserved, 2);
    assert_int_equal(st->misses, 3);
    assert_true(mem_cache_busy(c));
    assert_true(mem_cache_pop_miss(c, &m));
    assert_false(mem_cache_pop_miss(c, NULL)); /* one fetch for the line */
    assert_int_equal(m.type, MEM_READ);
    assert_int_equal(m.addr, 0x1000);
    assert_int_equal(m.bytes, 128);
    assert_int_equal(m.sector_mask, 0xf);
    assert_int_equal(ready(c, NULL, 0), 0);
    mem_cache_fill(c, &m, 10);
    assert_int_equal(ready(c, u, 4), 3);
    assert_int_equal(u[0], 1);
    assert_int_equal(u[1], 2);
    assert_int_equal(u[2], 3);
    assert_false(mem_cache_busy(c));
    assert_int_equal(rd(c, 0x1000, 4, 11), MEM_HIT);
    assert_int_equal(st->fills, 1);
    mem_cache_destroy(c);
}

static void test_cache_mshr_exhaustion(void **state)
{
    struct mem_cache *c = mk("N:4:128:4,L:R:m:N:L,A:2:3,8", NULL, NULL, 0);
    struct mem_req m;

    (void)state;
    assert_int_equal(rd(c, 0x1000, 1, 1), MEM_MISS);
    assert_int_equal(rd(c, 0x2000, 2, 1), MEM_MISS);
    assert_int_equal(rd(c, 0x3000, 3, 1), MEM_RESFAIL);
    assert_int_equal(mem_cache_get_stats(c)->resfail_mshr, 1);
    assert_true(mem_cache_pop_miss(c, &m));
    mem_cache_fill(c, &m, 5);
    assert_int_equal(rd(c, 0x3000, 3, 6), MEM_MISS);
    mem_cache_destroy(c);
}

static void test_cache_miss_queue_full(void **state)
{
    struct mem_cache *c = mk("N:4:128:4,L:R:m:N:L,A:8:4,2", NULL, NULL, 0);
    const struct mem_cache_stats *st = mem_cache_get_stats(c);
    const struct mem_req *head;
    struct mem_req m;

    (void)state;
    assert_int_equal(rd(c, 0x1000, 1, 1), MEM_MISS);
    assert_int_equal(rd(c, 0x2000, 2, 1), MEM_MISS);
    head = mem_cache_peek_miss(c);
    assert_non_null(head);
    assert_int_equal(head->addr, 0x1000);
    assert_int_equal(rd(c, 0x3000, 3, 2), MEM_RESFAIL);
    assert_int_equal(st->resfail_missq, 1);
    assert_int_equal(st->accesses, 2); /* the failure changed nothing */
    assert_int_equal(mem_cache_peek_miss(c)->addr, 0x1000);
    /* A merge needs no miss-queue entry. */
    assert_int_equal(rd(c, 0x2000, 4, 2), MEM_HIT_RESERVED);
    assert_true(mem_cache_pop_miss(c, &m));
    assert_int_equal(rd(c, 0x3000, 3, 3), MEM_MISS);
    mem_cache_destroy(c);
}

static void test_cache_line_alloc_fail(void **state)
{
    struct mem_cache *m = mk("N:1:128:1,L:R:m:N:L,A:4:4,8", NULL, NULL, 0);
    struct mem_cache *f = mk("N:1:128:1,L:R:f:N:L,A:4:4,8", NULL, NULL, 0);

    (void)state;
    assert_int_equal(rd(m, 0x000, 1, 1), MEM_MISS);
    assert_int_equal(rd(m, 0x080, 2, 1), MEM_RESFAIL); /* the only way is reserved */
    assert_int_equal(mem_cache_get_stats(m)->resfail_line, 1);
    assert_int_equal(rd(f, 0x000, 1, 1), MEM_MISS);
    assert_int_equal(rd(f, 0x080, 2, 1), MEM_MISS); /* nothing reserved before the fill */
    assert_int_equal(rd(f, 0x000, 3, 1), MEM_HIT_RESERVED);
    assert_int_equal(serve(f, 5, NULL, 0), 2);
    assert_int_equal(ready(f, NULL, 0), 3);
    assert_int_equal(rd(f, 0x080, 4, 6), MEM_HIT); /* filled last, kept */
    mem_cache_destroy(m);
    mem_cache_destroy(f);
}

static void test_cache_alloc_on_miss_vs_fill(void **state)
{
    struct mem_cache *m = mk("N:1:128:1,L:R:m:N:L,A:4:4,8", NULL, NULL, 0);
    struct mem_cache *f = mk("N:1:128:1,L:R:f:N:L,A:4:4,8", NULL, NULL, 0);
    struct mem_req fx;

    (void)state;
    /* On miss: the victim goes when the miss is taken. */
    rd(m, 0x000, 1, 1);
    serve(m, 2, NULL, 0);
    assert_int_equal(rd(m, 0x000, 2, 3), MEM_HIT);
    assert_int_equal(rd(m, 0x080, 3, 4), MEM_MISS);
    assert_int_equal(rd(m, 0x000, 4, 5), MEM_RESFAIL);
    assert_int_equal(mem_cache_get_stats(m)->evictions, 1);
    /* On fill: the old line keeps hitting until the new one arrives. */
    rd(f, 0x000, 1, 1);
    serve(f, 2, NULL, 0);
    assert_int_equal(rd(f, 0x080, 3, 4), MEM_MISS);
    assert_int_equal(rd(f, 0x000, 4, 5), MEM_HIT);
    assert_int_equal(mem_cache_get_stats(f)->evictions, 0);
    assert_true(mem_cache_pop_miss(f, &fx));
    mem_cache_fill(f, &fx, 6);
    assert_int_equal(mem_cache_get_stats(f)->evictions, 1);
    assert_int_equal(rd(f, 0x000, 5, 7), MEM_MISS);
    mem_cache_destroy(m);
    mem_cache_destroy(f);
}

/* A policy that bypasses every read miss and counts how often it was asked. */
static uint32_t g_asked;

static bool asking_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    (void)st;
    (void)r;
    (void)set;
    (void)now;
    g_asked++;
    return false;
}

/*
 * The line requests of one warp load share its uid, and a finished load's
 * uid comes back for a later one: each is a request of its own that the
 * policy is asked about (the answer is kept only while one request retries).
 */
static void test_cache_policy_asked_per_line_request(void **state)
{
    struct pol_l1d_ops ask = pol_l1d_bypass_all;
    struct mem_cache *c;

    (void)state;
    ask.on_miss = asking_on_miss;
    c = mk("N:4:128:4,L:T:m:N:L,A:4:4,8", &ask, NULL, 0);
    g_asked = 0;
    assert_int_equal(rd(c, 0x000, 7, 1), MEM_SENT);
    assert_int_equal(rd(c, 0x080, 7, 1), MEM_SENT);
    assert_int_equal(g_asked, 2);
    serve(c, 2, NULL, 0);
    ready(c, NULL, 0);
    assert_int_equal(rd(c, 0x080, 7, 3), MEM_SENT);
    assert_int_equal(g_asked, 3);
    mem_cache_destroy(c);
}

/* ---- writes ---- */

static void test_cache_write_through(void **state)
{
    struct mem_cache *c = mk("N:1:128:2,L:T:m:N:L,A:4:4,8", NULL, NULL, 0);
    struct mem_req log[4];
    uint64_t u[4];

    (void)state;
    assert_int_equal(wr(c, 0x000, 1, 1), MEM_SENT); /* miss, no allocation */
    assert_int_equal(serve(c, 2, log, 4), 1);
    assert_int_equal(log[0].type, MEM_WRITE);
    assert_int_equal(log[0].uid, 1);
    assert_false(log[0].is_writeback);
    assert_int_equal(rd(c, 0x000, 2, 3), MEM_MISS);
    serve(c, 4, NULL, 0);
    assert_int_equal(wr(c, 0x000, 3, 5), MEM_HIT);
    assert_int_equal(serve(c, 6, log, 4), 1); /* the write still goes down */
    assert_int_equal(log[0].uid, 3);
    assert_int_equal(ready(c, u, 4), 1); /* only the read answers */
    assert_int_equal(u[0], 2);
    assert_int_equal(mem_cache_get_stats(c)->writebacks, 0);
    mem_cache_destroy(c);
}

static void test_cache_write_back_dirty_eviction(void **state)
{
    struct mem_cache *c = mk("N:1:128:1,L:B:m:N:L,A:4:4,8", NULL, NULL, 0);
    const struct mem_cache_stats *st = mem_cache_get_stats(c);
    struct mem_req log[4];

    (void)state;
    rd(c, 0x000, 1, 1);
    serve(c, 2, NULL, 0);
    assert_int_equal(wr(c, 0x000, 2, 3), MEM_HIT);
    assert_null(mem_cache_peek_miss(c)); /* held dirty */
    assert_int_equal(rd(c, 0x080, 3, 4), MEM_MISS);
    assert_int_equal(serve(c, 5, log, 4), 2);
    assert_int_equal(log[0].type, MEM_WRITE);
    assert_true(log[0].is_writeback);
    assert_int_equal(log[0].addr, 0x000);
    assert_int_equal(log[0].bytes, 128);
    assert_int_equal(log[0].sector_mask, 0xf);
    assert_int_equal(log[1].type, MEM_READ);
    assert_int_equal(log[1].addr, 0x080);
    assert_int_equal(st->writebacks, 1);
    assert_int_equal(st->evictions, 1);
    assert_int_equal(wr(c, 0x100, 4, 6), MEM_SENT); /* no write-allocate */
    mem_cache_destroy(c);
}

static void test_cache_dirty_victim_needs_two_slots(void **state)
{
    struct mem_cache *c = mk("N:1:128:1,L:B:m:N:L,A:4:4,1", NULL, NULL, 0);

    (void)state;
    rd(c, 0x000, 1, 1);
    serve(c, 2, NULL, 0);
    wr(c, 0x000, 2, 3);
    assert_int_equal(rd(c, 0x080, 3, 4), MEM_RESFAIL); /* fetch + write-back > 1 */
    assert_int_equal(mem_cache_get_stats(c)->resfail_missq, 1);
    assert_int_equal(rd(c, 0x000, 4, 5), MEM_HIT); /* still there */
    mem_cache_destroy(c);
}

static void test_cache_fetch_on_write(void **state)
{
    struct mem_cache *c = mk("N:1:128:1,L:B:m:F:L,A:4:4,8", NULL, NULL, 0);
    struct mem_req log[4];

    (void)state;
    assert_int_equal(wr(c, 0x000, 1, 1), MEM_MISS);
    assert_int_equal(wr(c, 0x000, 2, 2), MEM_HIT_RESERVED);
    assert_int_equal(serve(c, 3, log, 4), 1);
    assert_int_equal(log[0].type, MEM_READ);
    assert_int_equal(ready(c, NULL, 0), 0); /* writes never answer */
    assert_int_equal(rd(c, 0x000, 3, 4), MEM_HIT);
    assert_int_equal(rd(c, 0x080, 4, 5), MEM_MISS);
    assert_int_equal(serve(c, 6, log, 4), 2);
    assert_true(log[0].is_writeback); /* dirtied by the write at fill time */
    mem_cache_destroy(c);
}

static void test_cache_write_evict(void **state)
{
    struct mem_cache *c = mk("N:1:128:2,L:E:m:N:L,A:4:4,8", NULL, NULL, 0);
    struct mem_req log[4];

    (void)state;
    rd(c, 0x000, 1, 1);
    serve(c, 2, NULL, 0);
    assert_int_equal(wr(c, 0x000, 2, 3), MEM_HIT);
    assert_int_equal(serve(c, 4, log, 4), 1);
    assert_int_equal(log[0].type, MEM_WRITE);
    assert_false(log[0].is_writeback);
    assert_int_equal(rd(c, 0x000, 3, 5), MEM_MISS); /* the write dropped the line */
    assert_int_equal(mem_cache_get_stats(c)->evictions, 1);
    assert_int_equal(mem_cache_get_stats(c)->writebacks, 0);
    mem_cache_destroy(c);
}

static void test_cache_lazy_fetch_on_read(void **state)
{
    struct mem_cache *c = mk(L2, NULL, NULL, SHARED);
    struct mem_req w = req(MEM_WRITE, 0x4000, 0x2, 1), r;
    struct mem_req log[4];
    uint64_t u[2];

    (void)state;
    assert_int_equal(mem_cache_access(c, &w, 1), MEM_MISS);
    assert_null(mem_cache_peek_miss(c)); /* nothing fetched */
    r = req(MEM_READ, 0x4000, 0x2, 2);
    assert_int_equal(mem_cache_access(c, &r, 2), MEM_HIT);
    r = req(MEM_READ, 0x4000, 0x3, 3);
    assert_int_equal(mem_cache_access(c, &r, 3), MEM_MISS);
    assert_int_equal(serve(c, 4, log, 4), 1);
    assert_int_equal(log[0].addr, 0x4000);
    assert_int_equal(log[0].sector_mask, 0x1); /* only the missing sector */
    assert_int_equal(log[0].bytes, 32);
    assert_int_equal(ready(c, u, 2), 1);
    assert_int_equal(u[0], 3);
    mem_cache_invalidate(c);
    assert_int_equal(serve(c, 5, log, 4), 1);
    assert_true(log[0].is_writeback);
    assert_int_equal(log[0].sector_mask, 0x2); /* only the written sector */
    assert_int_equal(log[0].bytes, 32);
    mem_cache_destroy(c);
}

/* Local: write-back; global: write-through with write-evict. */
static void test_cache_local_wb_global_wt(void **state)
{
    struct mem_cache *c = mk(L1D, NULL, NULL, 0);
    struct mem_req r, log[4];

    (void)state;
    rd(c, 0x1000, 1, 1);
    r = req(MEM_READ, 0x8000, 0xf, 2);
    r.space = MEM_LOCAL;
    mem_cache_access(c, &r, 1);
    assert_int_equal(serve(c, 2, NULL, 0), 2);
    assert_int_equal(wr(c, 0x1000, 3, 3), MEM_HIT);
    assert_int_equal(serve(c, 4, log, 4), 1); /* global: written through */
    assert_int_equal(log[0].uid, 3);
    /* ... and the line is gone (write-evict, CCWS oracle 31): the next load misses. */
    assert_int_equal(rd(c, 0x1000, 5, 4), MEM_MISS);
    assert_int_equal(serve(c, 4, NULL, 0), 1);
    r = req(MEM_WRITE, 0x8000, 0xf, 4);
    r.space = MEM_LOCAL;
    assert_int_equal(mem_cache_access(c, &r, 5), MEM_HIT);
    assert_null(mem_cache_peek_miss(c)); /* local: written back later */
    mem_cache_invalidate(c);
    assert_int_equal(serve(c, 6, log, 4), 1);
    assert_true(log[0].is_writeback);
    assert_int_equal(log[0].addr, 0x8000);
    assert_int_equal(log[0].space, MEM_LOCAL);
    mem_cache_destroy(c);
}

static void test_cache_read_only_write(void **state)
{
    struct mem_cache *c = mk(IL1, NULL, NULL, 0);

    (void)state;
    assert_int_equal(wr(c, 0x000, 1, 1), MEM_SENT);
    assert_int_equal(mem_cache_get_stats(c)->sent, 1);
    assert_int_equal(serve(c, 2, NULL, 0), 1);
    assert_int_equal(ready(c, NULL, 0), 0);
    mem_cache_destroy(c);
}

/* ---- sectors, bypass, atomics ---- */

static enum mem_cache_result rds(struct mem_cache *c, uint32_t mask, uint64_t uid)
{
    struct mem_req r = req(MEM_READ, 0x8000, mask, uid);

    return mem_cache_access(c, &r, uid);
}

static void test_cache_sectored_partial(void **state)
{
    struct mem_cache *c = mk(L2, NULL, NULL, SHARED);
    struct mem_req m4, m8;
    uint64_t u[4];

    (void)state;
    assert_int_equal(rds(c, 0x3, 1), MEM_MISS);
    assert_int_equal(mem_cache_peek_miss(c)->sector_mask, 0x3);
    assert_int_equal(mem_cache_peek_miss(c)->bytes, 64);
    serve(c, 2, NULL, 0);
    ready(c, NULL, 0);
    assert_int_equal(rds(c, 0x1, 3), MEM_HIT);
    assert_int_equal(rds(c, 0x6, 4), MEM_MISS); /* sector 2 only */
    assert_int_equal(rds(c, 0x4, 5), MEM_HIT_RESERVED);
    assert_int_equal(rds(c, 0xc, 6), MEM_MISS); /* sector 3: second fetch, same MSHR */
    assert_int_equal(mem_cache_get_stats(c)->resfail, 0);
    assert_true(mem_cache_pop_miss(c, &m4));
    assert_true(mem_cache_pop_miss(c, &m8));
    assert_int_equal(m4.sector_mask, 0x4);
    assert_int_equal(m4.bytes, 32);
    assert_int_equal(m8.sector_mask, 0x8);
    mem_cache_fill(c, &m8, 7); /* out of order: nobody has all it needs yet */
    assert_int_equal(ready(c, NULL, 0), 0);
    mem_cache_fill(c, &m4, 8);
    assert_int_equal(ready(c, u, 4), 3);
    assert_int_equal(u[0], 4);
    assert_int_equal(u[1], 5);
    assert_int_equal(u[2], 6);
    assert_int_equal(rds(c, 0xf, 9), MEM_HIT);
    assert_false(mem_cache_busy(c));
    mem_cache_destroy(c);
}

static void test_cache_cg_bypass(void **state)
{
    struct mem_cache *l1 = mk(L1D, NULL, NULL, 0);
    struct mem_cache *l2 = mk(L2, NULL, NULL, SHARED);
    struct mem_req r = req(MEM_READ, 0x1000, 0x1, 7), m, out;

    (void)state;
    r.bytes = 32;
    r.cacheop = ISA_CACHE_CG;
    assert_int_equal(mem_cache_access(l1, &r, 1), MEM_SENT);
    assert_true(mem_cache_pop_miss(l1, &m));
    assert_int_equal(m.addr, 0x1000);
    assert_int_equal(m.bytes, 32);
    assert_int_equal(m.cacheop, ISA_CACHE_CG);
    assert_true(m.uid != 7); /* the cache's own token */
    mem_cache_fill(l1, &m, 5);
    assert_true(mem_cache_pop_ready(l1, &out));
    assert_int_equal(out.uid, 7);
    assert_int_equal(rd(l1, 0x1000, 8, 6), MEM_MISS); /* nothing was allocated */
    r.cacheop = ISA_CACHE_CS;
    assert_int_equal(mem_cache_access(l1, &r, 7), MEM_SENT);
    /* .cs is an L1 access sent down; .cg is not an access at all (GPGPU-Sim's L1D never sees it).
     */
    assert_int_equal(mem_cache_get_stats(l1)->sent, 1);
    assert_int_equal(mem_cache_get_stats(l1)->uncached, 1);
    assert_int_equal(mem_cache_get_stats(l1)->bypassed, 0);
    /* .cg caches in L2. */
    r.cacheop = ISA_CACHE_CG;
    assert_int_equal(mem_cache_access(l2, &r, 1), MEM_MISS);
    mem_cache_destroy(l1);
    mem_cache_destroy(l2);
}

static void test_cache_bypass_all_policy(void **state)
{
    struct mem_cache *c = mk("N:1:128:2,L:B:m:F:L,A:4:4,8", &pol_l1d_bypass_all, "", 0);
    uint64_t u[2];

    (void)state;
    assert_int_equal(rd(c, 0x000, 1, 1), MEM_SENT);
    assert_int_equal(mem_cache_get_stats(c)->bypassed, 1);
    serve(c, 2, NULL, 0);
    assert_int_equal(ready(c, u, 2), 1);
    assert_int_equal(u[0], 1);
    assert_int_equal(rd(c, 0x000, 2, 3), MEM_SENT); /* still not cached */
    serve(c, 3, NULL, 0);
    assert_int_equal(wr(c, 0x080, 3, 4), MEM_MISS); /* writes still allocate */
    serve(c, 5, NULL, 0);
    assert_int_equal(rd(c, 0x080, 4, 6), MEM_HIT);
    mem_cache_destroy(c);
}

/* A policy that bypasses every other read miss it is asked about, counting the questions. */
static uint32_t alt_asked;

static bool alt_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    (void)st;
    (void)r;
    (void)set;
    (void)now;
    return alt_asked++ % 2 == 1;
}

/*
 * The requests of one warp instruction share a uid: each is still asked
 * about on its own (the answer is reused only when the same request, uid
 * and address, is retried).
 */
static void test_cache_policy_asked_per_request(void **state)
{
    struct pol_l1d_ops alt = pol_l1d_lru;
    struct mem_cache *c;

    (void)state;
    alt.on_miss = alt_on_miss;
    alt_asked = 0;
    c = mk(L1D, &alt, "", 0);
    assert_int_equal(rd(c, 0x000, 7, 1), MEM_SENT);
    assert_int_equal(rd(c, 0x080, 7, 1), MEM_MISS);
    assert_int_equal(rd(c, 0x100, 7, 1), MEM_SENT);
    assert_int_equal(alt_asked, 3);
    mem_cache_destroy(c);
}

static void test_cache_atomics(void **state)
{
    struct mem_cache *l1 = mk(L1D, NULL, NULL, 0);
    struct mem_cache *l2 = mk(L2, NULL, NULL, SHARED);
    struct mem_req a = req(MEM_ATOMIC, 0x2000, 0x1, 9), log[2];
    uint64_t u[2];

    (void)state;
    a.bytes = 4;
    assert_int_equal(mem_cache_access(l1, &a, 1), MEM_SENT);
    serve(l1, 2, NULL, 0);
    assert_int_equal(ready(l1, u, 2), 1);
    assert_int_equal(u[0], 9);
    /* At L2 it is performed there: looked up like a read, leaves the sector dirty. */
    assert_int_equal(mem_cache_access(l2, &a, 1), MEM_MISS);
    serve(l2, 2, NULL, 0);
    assert_int_equal(ready(l2, u, 2), 1);
    assert_int_equal(mem_cache_access(l2, &a, 3), MEM_HIT);
    mem_cache_invalidate(l2);
    assert_int_equal(serve(l2, 4, log, 2), 1);
    assert_true(log[0].is_writeback);
    assert_int_equal(log[0].sector_mask, 0x1);
    assert_int_equal(mem_cache_get_stats(l2)->reads, 0);
    assert_int_equal(mem_cache_get_stats(l2)->accesses, 2);
    /* memsys hands the L2 a read marked l2_atomic: the same, and it answers as such. */
    a = req(MEM_READ, 0x6000, 0x4, 10);
    a.l2_atomic = true;
    assert_int_equal(mem_cache_access(l2, &a, 5), MEM_MISS);
    serve(l2, 6, NULL, 0);
    assert_int_equal(ready(l2, u, 2), 1);
    assert_int_equal(u[0], 10);
    mem_cache_invalidate(l2);
    assert_int_equal(serve(l2, 7, log, 2), 1);
    assert_true(log[0].is_writeback);
    assert_int_equal(log[0].sector_mask, 0x4);
    /* In an L1 the flag changes nothing: an atomic passes down. */
    a.type = MEM_ATOMIC;
    assert_int_equal(mem_cache_access(l1, &a, 8), MEM_SENT);
    mem_cache_destroy(l1);
    mem_cache_destroy(l2);
}

/* ---- invalidate, statistics, odd inputs ---- */

static void test_cache_invalidate(void **state)
{
    struct mem_cache *c = mk(L1D, NULL, NULL, 0);
    struct mem_req pend;

    (void)state;
    for (uint64_t a = 0; a < 8 * 128; a += 128)
        rd(c, a, a, 1);
    serve(c, 2, NULL, 0);
    ready(c, NULL, 0);
    assert_int_equal(rd(c, 0x100, 100, 3), MEM_HIT);
    assert_int_equal(rd(c, 0x4000, 101, 3), MEM_MISS); /* in flight across the flush */
    mem_cache_invalidate(c);
    assert_non_null(mem_cache_peek_miss(c)); /* the fetch is still queued */
    assert_true(mem_cache_pop_miss(c, &pend));
    assert_false(mem_cache_pop_miss(c, NULL)); /* clean lines: no write-backs */
    assert_int_equal(rd(c, 0x100, 102, 4), MEM_MISS);
    mem_cache_fill(c, &pend, 5);
    assert_int_equal(ready(c, NULL, 0), 1);
    serve(c, 6, NULL, 0);
    ready(c, NULL, 0);
    assert_false(mem_cache_busy(c));
    mem_cache_destroy(c);
}

static void test_cache_stats(void **state)
{
    struct mem_cache *c = mk("N:1:128:2,L:T:m:N:L,A:1:2,8", NULL, NULL, 0);
    const struct mem_cache_stats *st = mem_cache_get_stats(c);

    (void)state;
    rd(c, 0x000, 1, 1);                                /* miss */
    rd(c, 0x000, 2, 1);                                /* hit reserved */
    assert_int_equal(rd(c, 0x000, 3, 1), MEM_RESFAIL); /* merge */
    assert_int_equal(rd(c, 0x080, 4, 1), MEM_RESFAIL); /* mshr */
    serve(c, 2, NULL, 0);
    rd(c, 0x000, 5, 3); /* hit */
    wr(c, 0x000, 6, 3); /* hit, written through */
    wr(c, 0x100, 7, 3); /* sent */
    assert_int_equal(st->accesses, 5);
    assert_int_equal(st->reads, 3);
    assert_int_equal(st->writes, 2);
    assert_int_equal(st->hits, 2);
    assert_int_equal(st->misses, 2);
    assert_int_equal(st->hit_reserved, 1);
    assert_int_equal(st->sent, 1);
    assert_int_equal(st->bypassed, 0);
    assert_int_equal(st->resfail, 2);
    assert_int_equal(st->resfail_merge, 1);
    assert_int_equal(st->resfail_mshr, 1);
    assert_int_equal(st->resfail_missq, 0);
    assert_int_equal(st->resfail_line, 0);
    assert_int_equal(st->fills, 1);
    assert_int_equal(st->evictions, 0);
    assert_int_equal(st->writebacks, 0);
    mem_cache_destroy(c);
}

static void test_cache_fill_unknown_ignored(void **state)
{
    struct mem_cache *c = mk(L1D, NULL, NULL, 0);
    struct mem_req r = req(MEM_READ, 0x000, 0xf, 42), m;

    (void)state;
    mem_cache_fill(c, &r, 1);
    assert_int_equal(ready(c, NULL, 0), 0);
    mem_cache_access(c, &r, 1);
    assert_true(mem_cache_pop_miss(c, &m));
    mem_cache_fill(c, &m, 2);
    mem_cache_fill(c, &m, 3); /* a second answer to the same fetch is stale */
    assert_int_equal(ready(c, NULL, 0), 1);
    assert_int_equal(mem_cache_get_stats(c)->fills, 1);
    mem_cache_destroy(c);
}

/* A policy that counts its on_miss calls and bypasses the first two. */
static uint32_t memo_asked;

static bool memo_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    (void)st;
    (void)r;
    (void)set;
    (void)now;
    return memo_asked++ >= 2;
}

static void *memo_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    (void)p;
    (void)err;
    return &memo_asked;
}

static void memo_destroy(void *st)
{
    (void)st;
}

static uint32_t memo_victim(void *st, uint32_t set, const struct pol_line_view *lines,
                            uint32_t assoc, uint64_t now)
{
    (void)st;
    (void)set;
    (void)now;
    for (uint32_t w = 0; w < assoc; w++)
        if (!lines[w].reserved)
            return w;
    return assoc;
}

static const struct pol_l1d_ops memo_pol = {
    .name = "memo",
    .create = memo_create,
    .destroy = memo_destroy,
    .on_miss = memo_on_miss,
    .victim = memo_victim,
};

/*
 * on_miss is asked once per request, retries included. The requests of one
 * warp instruction share a uid (the SM's load record): each is asked, and so
 * is a later request with the same uid and line once the first went down.
 */
static void test_cache_on_miss_once_per_request(void **state)
{
    struct mem_cache *c = mk("N:4:128:4,L:R:m:N:L,A:1:4,8", &memo_pol, "", 0);

    (void)state;
    memo_asked = 0;
    assert_int_equal(rd(c, 0x000, 7, 1), MEM_SENT);
    assert_int_equal(rd(c, 0x080, 7, 1), MEM_SENT); /* same uid, other line: asked */
    assert_int_equal(memo_asked, 2);
    assert_int_equal(rd(c, 0x000, 7, 2), MEM_MISS); /* same uid and line, new request: asked */
    assert_int_equal(memo_asked, 3);
    assert_int_equal(rd(c, 0x100, 8, 3), MEM_RESFAIL); /* the only MSHR is taken */
    assert_int_equal(rd(c, 0x100, 8, 4), MEM_RESFAIL); /* the retry reuses the answer */
    assert_int_equal(memo_asked, 4);
    mem_cache_destroy(c);
}

/* Same inputs, same outputs: tokens and order do not depend on addresses in memory. */
static void test_cache_deterministic(void **state)
{
    struct mem_req a[16], b[16];
    uint32_t na = 0, nb = 0;

    (void)state;
    for (int run = 0; run < 2; run++) {
        struct mem_cache *c = mk(L1D, NULL, NULL, 0);
        struct mem_req *log = run ? b : a;
        uint32_t *n = run ? &nb : &na;

        for (uint64_t i = 0; i < 12; i++)
            rd(c, i * 0x1080, i, i);
        *n = serve(c, 20, log, 16);
        mem_cache_destroy(c);
    }
    assert_int_equal(na, nb);
    for (uint32_t i = 0; i < na; i++) {
        assert_int_equal(a[i].uid, b[i].uid);
        assert_int_equal(a[i].addr, b[i].addr);
    }
}

/* ---- random traffic: every read is answered exactly once ---- */

#define STRESS_STEPS 20000
#define STRESS_FLIGHT 512

struct stress {
    struct mem_cache *c;
    uint64_t rng, next_uid;
    uint8_t *owed; /* by uid: 1 = a reply is due */
    struct mem_req flight[STRESS_FLIGHT];
    uint32_t nflight;
    /* retry: a failed request is tried again until it goes in, as the LD/ST unit does */
    bool retry, has_pend;
    struct mem_req pend;
    uint64_t results; /* a hash of every access's result */
};

static uint32_t rnd(struct stress *s, uint32_t n)
{
    s->rng = s->rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(s->rng >> 33) % n;
}

static void stress_access(struct stress *s, uint64_t now)
{
    static const uint8_t types[] = {MEM_READ, MEM_READ, MEM_READ, MEM_WRITE, MEM_ATOMIC};
    struct mem_req r =
        req(types[rnd(s, 5)], (uint64_t)rnd(s, 48) * 128 * 7, 1u + rnd(s, 15), s->next_uid);
    enum mem_cache_result res;

    r.space = rnd(s, 4) ? MEM_GLOBAL : MEM_LOCAL;
    r.cacheop = rnd(s, 8) ? 0 : ISA_CACHE_CG;
    if (s->has_pend)
        r = s->pend;
    res = mem_cache_access(s->c, &r, now);
    s->results = s->results * 31 + (uint64_t)res + 1;
    s->has_pend = s->retry && res == MEM_RESFAIL;
    s->pend = r;
    if (res == MEM_RESFAIL)
        return;
    s->next_uid++;
    if (r.type != MEM_WRITE && res != MEM_HIT)
        s->owed[r.uid] = 1;
}

static void stress_collect(struct stress *s)
{
    struct mem_req r;

    while (mem_cache_pop_ready(s->c, &r)) {
        assert_true(r.uid < s->next_uid);
        assert_int_equal(s->owed[r.uid], 1);
        assert_int_not_equal(r.type, MEM_WRITE);
        s->owed[r.uid] = 0;
    }
}

/* One random step: an access, a pop into flight, or an out-of-order fill. */
static void stress_step(struct stress *s, uint64_t now)
{
    uint32_t k = rnd(s, 4);

    if (k < 2) {
        stress_access(s, now);
    } else if (k == 2 && s->nflight < STRESS_FLIGHT) {
        if (mem_cache_pop_miss(s->c, &s->flight[s->nflight]) &&
            s->flight[s->nflight].type != MEM_WRITE)
            s->nflight++;
    } else if (s->nflight) {
        uint32_t i = rnd(s, s->nflight);

        mem_cache_fill(s->c, &s->flight[i], now);
        s->flight[i] = s->flight[--s->nflight];
    }
    if (rnd(s, 5000) == 0)
        mem_cache_invalidate(s->c);
    stress_collect(s);
}

static void stress_drain(struct stress *s, uint64_t now)
{
    for (;;) {
        while (s->nflight)
            mem_cache_fill(s->c, &s->flight[--s->nflight], now);
        if (!mem_cache_peek_miss(s->c))
            break;
        while (s->nflight < STRESS_FLIGHT && mem_cache_pop_miss(s->c, &s->flight[s->nflight])) {
            if (s->flight[s->nflight].type != MEM_WRITE)
                s->nflight++;
        }
    }
    stress_collect(s);
    for (uint64_t u = 0; u < s->next_uid; u++)
        assert_int_equal(s->owed[u], 0);
    assert_false(mem_cache_busy(s->c));
}

/* Random traffic; with retry, what it ends with goes to *st and *results. */
static void stress_run_retry(const char *geom, const struct pol_l1d_ops *pol, uint32_t sm,
                             bool retry, struct mem_cache_stats *st, uint64_t *results)
{
    struct stress s;

    memset(&s, 0, sizeof(s));
    s.c = mk(geom, pol, NULL, sm);
    s.rng = 12345;
    s.retry = retry;
    s.owed = calloc(STRESS_STEPS + 1, 1);
    assert_non_null(s.owed);
    for (uint64_t t = 1; t <= STRESS_STEPS; t++)
        stress_step(&s, t);
    stress_drain(&s, STRESS_STEPS + 1);
    if (st)
        *st = *mem_cache_get_stats(s.c);
    if (results)
        *results = s.results;
    free(s.owed);
    mem_cache_destroy(s.c);
}

static void stress_run(const char *geom, const struct pol_l1d_ops *pol, uint32_t sm)
{
    stress_run_retry(geom, pol, sm, false, NULL, NULL);
}

static void test_cache_random_traffic(void **state)
{
    (void)state;
    stress_run(L1D, NULL, 0);
    stress_run(L2, NULL, SHARED);
    stress_run(IL1, NULL, 0);
    stress_run(CONST, NULL, SHARED);
    stress_run("S:4:128:2,F:B:f:F:X,A:6:3,3", NULL, SHARED);
    stress_run("N:4:128:2,L:B:s:W:P,A:6:2,3", NULL, 0);
    stress_run("S:2:128:2,L:T:m:L:L,A:4:2,2", NULL, SHARED);
    stress_run("N:2:128:2,L:E:f:N:L,A:4:2,2", &pol_l1d_bypass_all, 0);
    stress_run("S:1:128:1,L:B:m:F:L,A:2:2,2", NULL, SHARED);
}

/* LRU with its victim calls counted. */
static uint32_t lru_victim_calls;

static uint32_t counted_lru_victim(void *st, uint32_t set, const struct pol_line_view *lines,
                                   uint32_t assoc, uint64_t now)
{
    lru_victim_calls++;
    return pol_l1d_lru.victim(st, set, lines, assoc, now);
}

/*
 * A retried access that failed with nothing changed since is answered from
 * the last failure when the policy's choices are pure: the same results and
 * statistics as asking again, with fewer questions to the policy.
 */
static void test_cache_failed_retry_replayed(void **state)
{
    /* the last allocates on fill, so no victim is picked when an access fails */
    static const char *const geoms[] = {L1D, L2, "N:4:128:4,L:R:m:N:L,A:2:3,8",
                                        "S:2:128:2,L:T:m:L:L,A:4:2,2",
                                        "N:4:128:2,L:B:s:W:P,A:6:2,3"};
    const size_t ngeoms = sizeof(geoms) / sizeof(geoms[0]);
    struct pol_l1d_ops pure = pol_l1d_lru, asks = pol_l1d_lru;

    (void)state;
    pure.victim = asks.victim = counted_lru_victim;
    pure.choices_pure = true;
    asks.choices_pure = false;
    for (size_t i = 0; i < ngeoms; i++) {
        struct mem_cache_stats sp, sa;
        uint64_t rp, ra;
        uint32_t calls_pure, calls_asks;

        lru_victim_calls = 0;
        stress_run_retry(geoms[i], &pure, 0, true, &sp, &rp);
        calls_pure = lru_victim_calls;
        lru_victim_calls = 0;
        stress_run_retry(geoms[i], &asks, 0, true, &sa, &ra);
        calls_asks = lru_victim_calls;
        assert_int_equal(rp, ra);
        assert_memory_equal(&sp, &sa, sizeof(sp));
        assert_true(sp.resfail > 0);
        if (i + 1 < ngeoms)
            assert_true(calls_pure < calls_asks); /* failures were replayed */
        else
            assert_int_equal(calls_pure, calls_asks);
    }
}

/* A replayed failure counts again; a fill ends it, and a different request is not replayed. */
static void test_cache_replay_ends_on_change(void **state)
{
    struct pol_l1d_ops pure = pol_l1d_lru;
    struct mem_cache *c;
    struct mem_req m;

    (void)state;
    pure.victim = counted_lru_victim;
    c = mk("N:4:128:4,L:R:m:N:L,A:2:3,8", &pure, "", 0);
    lru_victim_calls = 0;
    assert_int_equal(rd(c, 0x1000, 1, 1), MEM_MISS);
    assert_int_equal(rd(c, 0x2000, 2, 1), MEM_MISS);
    assert_int_equal(lru_victim_calls, 2);
    for (uint64_t t = 2; t < 6; t++)
        assert_int_equal(rd(c, 0x3000, 3, t), MEM_RESFAIL);
    assert_int_equal(lru_victim_calls, 3); /* asked at the first failure only */
    assert_int_equal(mem_cache_get_stats(c)->resfail_mshr, 4);
    assert_int_equal(rd(c, 0x4000, 4, 6), MEM_RESFAIL); /* another request: asked */
    assert_int_equal(lru_victim_calls, 4);
    assert_int_equal(rd(c, 0x3000, 3, 7), MEM_RESFAIL); /* no longer the last failure */
    assert_int_equal(lru_victim_calls, 5);
    assert_true(mem_cache_pop_miss(c, &m));
    assert_int_equal(rd(c, 0x3000, 3, 8), MEM_RESFAIL); /* a pop frees no MSHR: replayed */
    assert_int_equal(lru_victim_calls, 5);
    mem_cache_fill(c, &m, 9);
    assert_int_equal(rd(c, 0x3000, 3, 10), MEM_MISS); /* a fill: looked up */
    assert_int_equal(lru_victim_calls, 6);
    assert_int_equal(mem_cache_get_stats(c)->resfail_mshr, 7);
    mem_cache_destroy(c);

    /* A failure for lack of miss-queue room ends with the pop that makes room. */
    c = mk("N:4:128:4,L:R:m:N:L,A:4:3,1", &pure, "", 0);
    assert_int_equal(rd(c, 0x1000, 1, 1), MEM_MISS);
    assert_int_equal(rd(c, 0x2000, 2, 2), MEM_RESFAIL);
    assert_int_equal(rd(c, 0x2000, 2, 3), MEM_RESFAIL);
    assert_int_equal(mem_cache_get_stats(c)->resfail_missq, 2);
    assert_true(mem_cache_pop_miss(c, &m));
    assert_int_equal(rd(c, 0x2000, 2, 4), MEM_MISS);
    mem_cache_destroy(c);
}

/* ---- the policy table's extensions ---- */

/* A policy that allocates (or not) and counts what it is asked. */
struct probe_pol {
    uint32_t misses, stalls, merges;
    bool allocate, bypass_on_stall;
};

static struct probe_pol probe_state;

static void *probe_create(const struct pol_l1d_params *p, struct ps_err *err)
{
    (void)err;
    p->counters[0] = 0;
    return &probe_state;
}

static void probe_destroy(void *st)
{
    (void)st;
}

static bool probe_on_miss(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    struct probe_pol *p = st;

    (void)r, (void)set, (void)now;
    p->misses++;
    return p->allocate;
}

static bool probe_on_stall(void *st, const struct mem_req *r, uint32_t set, enum pol_l1d_stall why,
                           uint64_t now)
{
    struct probe_pol *p = st;

    (void)r, (void)set, (void)now;
    assert_int_equal(why, POL_L1D_STALL_MSHR);
    p->stalls++;
    return p->bypass_on_stall;
}

static uint32_t probe_victim(void *st, uint32_t set, const struct pol_line_view *lines,
                             uint32_t assoc, uint64_t now)
{
    (void)st, (void)set, (void)now;
    for (uint32_t w = 0; w < assoc; w++)
        if (!lines[w].reserved)
            return w;
    return assoc;
}

static void probe_on_merge(void *st, const struct mem_req *r, uint32_t set, uint64_t now)
{
    (void)r, (void)set, (void)now;
    ((struct probe_pol *)st)->merges++;
}

static const struct pol_l1d_ops probe_ops = {
    .name = "probe",
    .create = probe_create,
    .destroy = probe_destroy,
    .on_miss = probe_on_miss,
    .on_stall = probe_on_stall,
    .on_merge = probe_on_merge,
    .victim = probe_victim,
};

/* A read that merges into its line's pending miss is reported through on_merge, not on_miss. */
static void test_cache_on_merge(void **state)
{
    struct mem_cache *c;

    (void)state;
    probe_state = (struct probe_pol){.allocate = true};
    c = mk(L1D, &probe_ops, "", 0);
    assert_int_equal(rd(c, 0x1000, 1, 1), MEM_MISS);
    assert_int_equal(rd(c, 0x1000, 2, 2), MEM_HIT_RESERVED);
    assert_int_equal(probe_state.misses, 1);
    assert_int_equal(probe_state.merges, 1);
    (void)wr(c, 0x1000, 3, 3);
    assert_int_equal(probe_state.merges, 1); /* writes are not reported */
    mem_cache_destroy(c);
}

/* A retried request (no MSHR) is put to on_miss once; a new request is asked again. */
static void test_cache_policy_asked_once(void **state)
{
    struct mem_cache *c;
    struct mem_req m;

    (void)state;
    probe_state = (struct probe_pol){.allocate = true};
    c = mk("N:4:128:4,L:R:m:N:L,A:1:3,8", &probe_ops, "", 0);
    assert_int_equal(rd(c, 0x1000, 1, 1), MEM_MISS);
    assert_int_equal(probe_state.misses, 1);
    for (uint64_t t = 2; t < 6; t++)
        assert_int_equal(rd(c, 0x2000, 2, t), MEM_RESFAIL);
    assert_int_equal(probe_state.misses, 2);
    assert_int_equal(probe_state.stalls, 4); /* on_stall is asked at every failed try */
    assert_true(mem_cache_pop_miss(c, &m));
    mem_cache_fill(c, &m, 6);
    assert_int_equal(rd(c, 0x2000, 2, 7), MEM_MISS);
    assert_int_equal(probe_state.misses, 2);
    assert_int_equal(rd(c, 0x3000, 3, 8), MEM_RESFAIL);
    assert_int_equal(probe_state.misses, 3);
    mem_cache_destroy(c);
}

/* on_stall returning true sends the read down uncached instead of failing it (MRPB). */
static void test_cache_on_stall_bypass(void **state)
{
    struct mem_cache *c;
    const struct mem_cache_stats *st;
    struct mem_req log[4];
    uint64_t uids[4];

    (void)state;
    probe_state = (struct probe_pol){.allocate = true, .bypass_on_stall = true};
    c = mk("N:4:128:4,L:R:m:N:L,A:1:3,8", &probe_ops, "", 0);
    st = mem_cache_get_stats(c);
    assert_int_equal(rd(c, 0x1000, 1, 1), MEM_MISS);
    assert_int_equal(rd(c, 0x2000, 2, 2), MEM_SENT);
    assert_int_equal(st->stall_bypassed, 1);
    assert_int_equal(st->resfail, 0);
    assert_int_equal(serve(c, 3, log, 4), 2);
    assert_int_equal(ready(c, uids, 4), 2);
    /* The bypassed line was not allocated: reading it again misses. */
    assert_int_equal(rd(c, 0x1000, 4, 4), MEM_HIT);
    assert_int_equal(rd(c, 0x2000, 5, 4), MEM_MISS);
    mem_cache_destroy(c);
}

/* CCWS oracle 33: a hit on a line the same warp allocated is intra-warp; another warp's is not. */
static void test_cache_intra_warp_hits(void **state)
{
    struct mem_cache *c = mk(L1D, NULL, NULL, 0);
    const struct mem_cache_stats *st = mem_cache_get_stats(c);
    struct mem_req r = req(MEM_READ, 0x4000, 0xf, 1);

    (void)state;
    r.warp = 3;
    assert_int_equal(mem_cache_access(c, &r, 1), MEM_MISS);
    serve(c, 2, NULL, 0);
    ready(c, NULL, 0);
    r.uid = 2;
    assert_int_equal(mem_cache_access(c, &r, 3), MEM_HIT);
    r.uid = 3;
    r.warp = 4;
    assert_int_equal(mem_cache_access(c, &r, 4), MEM_HIT);
    assert_int_equal(st->hits, 2);
    assert_int_equal(st->hits_intra, 1);
    mem_cache_destroy(c);
}

/* Lines evicted without a hit are counted as zero-reuse evictions. */
static void test_cache_evict_noreuse(void **state)
{
    struct mem_cache *c = mk("N:1:128:1,L:R:m:N:L,A:4:4,8", NULL, NULL, 0);
    const struct mem_cache_stats *st = mem_cache_get_stats(c);

    (void)state;
    assert_int_equal(rd(c, 0x1000, 1, 1), MEM_MISS);
    serve(c, 2, NULL, 0);
    assert_int_equal(rd(c, 0x1000, 2, 3), MEM_HIT);
    assert_int_equal(rd(c, 0x2000, 3, 4), MEM_MISS); /* evicts 0x1000, which had a hit */
    serve(c, 5, NULL, 0);
    assert_int_equal(rd(c, 0x3000, 4, 6), MEM_MISS); /* evicts 0x2000, never hit */
    assert_int_equal(st->evictions, 2);
    assert_int_equal(st->evict_noreuse, 1);
    mem_cache_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_geom_parse_fermi_strings),
        cmocka_unit_test(test_cache_geom_parse_legacy),
        cmocka_unit_test(test_cache_geom_parse_errors),
        cmocka_unit_test(test_cache_set_index),
        cmocka_unit_test(test_cache_cacheop_values),
        cmocka_unit_test(test_cache_create_errors),
        cmocka_unit_test(test_cache_hit_miss_lru),
        cmocka_unit_test(test_cache_observer_evict_view),
        cmocka_unit_test(test_cache_observer_store_miss),
        cmocka_unit_test(test_cache_fifo),
        cmocka_unit_test(test_cache_mshr_merge_limit),
        cmocka_unit_test(test_cache_mshr_exhaustion),
        cmocka_unit_test(test_cache_miss_queue_full),
        cmocka_unit_test(test_cache_line_alloc_fail),
        cmocka_unit_test(test_cache_alloc_on_miss_vs_fill),
        cmocka_unit_test(test_cache_policy_asked_per_line_request),
        cmocka_unit_test(test_cache_write_through),
        cmocka_unit_test(test_cache_write_back_dirty_eviction),
        cmocka_unit_test(test_cache_dirty_victim_needs_two_slots),
        cmocka_unit_test(test_cache_fetch_on_write),
        cmocka_unit_test(test_cache_write_evict),
        cmocka_unit_test(test_cache_lazy_fetch_on_read),
        cmocka_unit_test(test_cache_local_wb_global_wt),
        cmocka_unit_test(test_cache_read_only_write),
        cmocka_unit_test(test_cache_sectored_partial),
        cmocka_unit_test(test_cache_cg_bypass),
        cmocka_unit_test(test_cache_bypass_all_policy),
        cmocka_unit_test(test_cache_policy_asked_per_request),
        cmocka_unit_test(test_cache_atomics),
        cmocka_unit_test(test_cache_invalidate),
        cmocka_unit_test(test_cache_stats),
        cmocka_unit_test(test_cache_fill_unknown_ignored),
        cmocka_unit_test(test_cache_on_miss_once_per_request),
        cmocka_unit_test(test_cache_deterministic),
        cmocka_unit_test(test_cache_random_traffic),
        cmocka_unit_test(test_cache_failed_retry_replayed),
        cmocka_unit_test(test_cache_replay_ends_on_change),
        cmocka_unit_test(test_cache_policy_asked_once),
        cmocka_unit_test(test_cache_on_stall_bypass),
        cmocka_unit_test(test_cache_on_merge),
        cmocka_unit_test(test_cache_intra_warp_hits),
        cmocka_unit_test(test_cache_evict_noreuse),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
