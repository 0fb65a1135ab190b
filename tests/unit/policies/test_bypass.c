/*
 * Unit tests for the bypass L1D policy (policies/l1d_bypass.c) as seed 002's
 * BALL, "bypass all" (section 4.2, oracle 8.17): with the GTX 480 L1D (local
 * write-back, global write-through, no write-allocate) no global or local
 * load allocates a line or hits, and every load goes down as the request
 * the coalescer made.
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

#define GTX480_L1D "N:32:128:4,L:L:m:N:L,A:32:8,8"

static struct mem_req req(enum mem_type type, enum mem_space space, uint64_t addr, uint32_t bytes,
                          uint64_t uid)
{
    struct mem_req r;

    memset(&r, 0, sizeof(r));
    r.type = (uint8_t)type;
    r.space = (uint8_t)space;
    r.addr = addr;
    r.bytes = bytes;
    r.sector_mask = bytes >= 128 ? 0xf : 1u << (addr % 128 / 32);
    r.uid = uid;
    return r;
}

/*
 * Oracle 8.17: global and local loads, repeated, written in between: zero
 * allocations (no fill, no eviction, no MSHR merge), zero hits; each load
 * goes to the next level once, as it was asked (address and size), and its
 * reply comes back.
 */
static void test_bypass_oracle_8_17_ball(void **state)
{
    struct mem_cache_geom g;
    struct ps_err err;
    struct mem_cache *c;
    const struct mem_cache_stats *st;
    static const uint8_t spaces[] = {MEM_GLOBAL, MEM_LOCAL};
    struct mem_req r, m;
    uint64_t uid = 1;
    uint32_t loads = 0, down = 0, back = 0;

    (void)state;
    assert_int_equal(mem_cache_geom_parse(GTX480_L1D, &g, &err), 0);
    c = mem_cache_create(&g, "l1d", &pol_l1d_bypass_all, "", 0, &err);
    assert_non_null(c);
    st = mem_cache_get_stats(c);
    for (uint32_t round = 0; round < 3; round++) {
        for (uint32_t k = 0; k < 2; k++) {
            r = req(MEM_READ, spaces[k], 0x1000 + 0x20 * round, round ? 32 : 128, uid++);
            assert_int_equal(mem_cache_access(c, &r, 10 * round + k), MEM_SENT);
            loads++;
            assert_true(mem_cache_pop_miss(c, &m));
            assert_int_equal(m.addr, r.addr);
            assert_int_equal(m.bytes, r.bytes);
            assert_int_equal(m.space, spaces[k]);
            down++;
            mem_cache_fill(c, &m, 10 * round + 5);
            back += mem_cache_pop_ready(c, &m);
            r = req(MEM_WRITE, spaces[k], 0x1000, 128, uid++);
            assert_int_equal(mem_cache_access(c, &r, 10 * round + 6), MEM_SENT);
            while (mem_cache_pop_miss(c, &m))
                down++;
        }
    }
    assert_int_equal(back, loads);
    assert_int_equal(down, 2 * loads);
    assert_int_equal(st->hits, 0);
    assert_int_equal(st->hit_reserved, 0);
    assert_int_equal(st->fills, 0);
    assert_int_equal(st->evictions, 0);
    assert_int_equal(st->bypassed, loads);
    mem_cache_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bypass_oracle_8_17_ball),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
