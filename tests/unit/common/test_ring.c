/*
 * Unit tests for common/ring, the ring buffer every queue of the timing
 * model uses: FIFO order across the wrap, bounded rings reporting full,
 * growth keeping the order of a wrapped ring, and pop on an empty ring.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/ring.h"

struct item {
    uint64_t at;
    uint32_t v;
};

static void test_ring_bounded_wraps_in_order(void **state)
{
    struct ps_ring r;
    struct item it, *h;
    uint32_t next_in = 0, next_out = 0;

    (void)state;
    assert_int_equal(ps_ring_init(&r, sizeof(struct item), 4), 0);
    assert_null(ps_ring_head(&r));
    for (int round = 0; round < 10; round++) {
        while (!ps_ring_full(&r)) {
            it = (struct item){next_in * 10u, next_in};
            ps_ring_push(&r, &it);
            next_in++;
        }
        assert_int_equal(r.n, 4);
        assert_int_equal(((struct item *)ps_ring_at(&r, 3))->v, next_out + 3);
        h = ps_ring_head(&r);
        assert_int_equal(h->v, next_out);
        assert_true(ps_ring_pop(&r, &it));
        assert_int_equal(it.v, next_out);
        assert_int_equal(it.at, next_out * 10u);
        next_out++;
        assert_true(ps_ring_pop(&r, NULL));
        next_out++;
    }
    while (ps_ring_pop(&r, &it))
        assert_int_equal(it.v, next_out++);
    assert_int_equal(next_out, next_in);
    assert_false(ps_ring_pop(&r, &it));
    ps_ring_fini(&r);
}

static void test_ring_grows_keeping_order(void **state)
{
    struct ps_ring r;
    uint32_t v, out = 0;

    (void)state;
    assert_int_equal(ps_ring_init(&r, sizeof(uint32_t), 0), 0);
    assert_int_equal(r.cap, 0);
    /* Wrap a small ring, then grow it while wrapped. */
    for (v = 0; v < 6; v++) {
        assert_true(ps_ring_reserve(&r, 1));
        ps_ring_push(&r, &v);
    }
    assert_int_equal(r.cap, 8);
    for (int i = 0; i < 5; i++) {
        assert_true(ps_ring_pop(&r, &v));
        assert_int_equal(v, out++);
    }
    for (v = 6; v < 40; v++) {
        assert_true(ps_ring_reserve(&r, 1));
        ps_ring_push(&r, &v);
    }
    assert_true(r.cap >= 35);
    assert_int_equal(r.n, 35);
    while (ps_ring_pop(&r, &v))
        assert_int_equal(v, out++);
    assert_int_equal(out, 40);
    assert_true(ps_ring_reserve(&r, 100));
    assert_true(r.cap >= 100);
    ps_ring_fini(&r);
    assert_null(r.buf);
}

/* A bound that is not a power of two: full at the bound, order kept across many wraps. */
static void test_ring_odd_bound(void **state)
{
    struct ps_ring r;
    uint32_t in = 0, out = 0, v;

    (void)state;
    assert_int_equal(ps_ring_init(&r, sizeof(uint32_t), 5), 0);
    for (int round = 0; round < 50; round++) {
        while (!ps_ring_full(&r)) {
            ps_ring_push(&r, &in);
            in++;
        }
        assert_int_equal(r.n, 5);
        for (int k = 0; k < 1 + round % 4; k++) {
            assert_true(ps_ring_pop(&r, &v));
            assert_int_equal(v, out++);
        }
    }
    while (ps_ring_pop(&r, &v))
        assert_int_equal(v, out++);
    assert_int_equal(in, out);
    ps_ring_fini(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring_bounded_wraps_in_order),
        cmocka_unit_test(test_ring_grows_keeping_order),
        cmocka_unit_test(test_ring_odd_bound),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
