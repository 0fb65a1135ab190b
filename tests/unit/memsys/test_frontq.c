/*
 * Unit tests for memsys/frontq, the L1D front-queue stage: no stage
 * without queues, requests routed by warp, one queue drained before the
 * next, requests held until due, and the per-queue instruction limit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "memsys/frontq.h"

static struct mem_req req(uint16_t warp, uint64_t addr)
{
    struct mem_req r = {0};

    r.warp = warp;
    r.addr = addr;
    return r;
}

static void test_no_stage(void **state)
{
    bool oom = true;

    (void)state;
    assert_null(mem_frontq_create(0, 4, 8, &oom));
    assert_false(oom);
    assert_null(mem_frontq_create(4, 0, 8, &oom));
    assert_int_equal(mem_frontq_pending(NULL), 0);
}

static void test_drains_queue_then_next(void **state)
{
    bool oom;
    struct mem_frontq *f = mem_frontq_create(2, 2, 4, &oom);
    struct mem_req a[2] = {req(1, 0x100), req(1, 0x180)}, b[1] = {req(2, 0x200)},
                   c[1] = {req(3, 0x300)};
    const struct mem_req *r;
    uint64_t order[4];

    (void)state;
    assert_non_null(f);
    mem_frontq_push(f, b, 1, 10); /* queue 0 */
    mem_frontq_push(f, a, 2, 10); /* queue 1 */
    mem_frontq_push(f, c, 1, 10); /* queue 1 */
    assert_int_equal(mem_frontq_pending(f), 4);
    /* Not due yet. */
    assert_null(mem_frontq_peek(f, 9));
    for (int i = 0; i < 4; i++) {
        r = mem_frontq_peek(f, 10);
        assert_non_null(r);
        order[i] = r->addr;
        mem_frontq_pop(f);
    }
    assert_int_equal(order[0], 0x200);
    assert_int_equal(order[1], 0x100);
    assert_int_equal(order[2], 0x180);
    assert_int_equal(order[3], 0x300);
    assert_int_equal(mem_frontq_pending(f), 0);
    assert_null(mem_frontq_peek(f, 100));
    mem_frontq_destroy(f);
}

static void test_room_per_queue(void **state)
{
    bool oom;
    struct mem_frontq *f = mem_frontq_create(2, 2, 4, &oom);
    struct mem_req a[1] = {req(0, 0x100)};

    (void)state;
    assert_true(mem_frontq_room(f, 0));
    mem_frontq_push(f, a, 1, 0);
    assert_true(mem_frontq_room(f, 2));
    mem_frontq_push(f, a, 1, 0);
    /* Two instructions in queue 0: full for warps 0, 2, ...; queue 1 still has room. */
    assert_false(mem_frontq_room(f, 0));
    assert_false(mem_frontq_room(f, 2));
    assert_true(mem_frontq_room(f, 1));
    assert_non_null(mem_frontq_peek(f, 0));
    mem_frontq_pop(f);
    assert_true(mem_frontq_room(f, 0));
    mem_frontq_destroy(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_stage),
        cmocka_unit_test(test_drains_queue_then_next),
        cmocka_unit_test(test_room_per_queue),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
