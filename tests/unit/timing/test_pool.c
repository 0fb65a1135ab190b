/*
 * Unit tests for timing/parallel.c's worker pool: every index of a round
 * runs exactly once whatever the thread count, rounds follow each other
 * without losing or repeating an index (many short rounds, as one per
 * simulated cycle), rounds smaller than the pool and empty rounds work,
 * and a pool of one thread runs the indices in order on the caller.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "timing/parallel.h"

#define N_MAX 64

struct round {
    _Atomic uint32_t hits[N_MAX];
    uint32_t order[N_MAX]; /* one-thread pools only */
    _Atomic uint32_t norder;
};

static void count(void *ctx, uint32_t i)
{
    struct round *r = ctx;

    atomic_fetch_add(&r->hits[i], 1);
    r->order[atomic_fetch_add(&r->norder, 1) % N_MAX] = i;
}

static void run_rounds(uint32_t threads, uint32_t rounds)
{
    struct tm_pool *p = tm_pool_create(threads);
    static struct round r;

    assert_non_null(p);
    assert_true(tm_pool_threads(p) >= 1 && tm_pool_threads(p) <= threads);
    for (uint32_t k = 0; k < rounds; k++) {
        uint32_t n = k % (N_MAX + 1); /* 0 .. N_MAX indices, fewer and more than threads */

        memset(&r, 0, sizeof(r));
        tm_pool_run(p, count, &r, n);
        for (uint32_t i = 0; i < N_MAX; i++)
            assert_int_equal(atomic_load(&r.hits[i]), i < n ? 1 : 0);
    }
    tm_pool_destroy(p);
}

static void test_one_thread_in_order(void **state)
{
    struct tm_pool *p = tm_pool_create(1);
    static struct round r;

    (void)state;
    assert_int_equal(tm_pool_threads(p), 1);
    memset(&r, 0, sizeof(r));
    tm_pool_run(p, count, &r, 10);
    for (uint32_t i = 0; i < 10; i++)
        assert_int_equal(r.order[i], i);
    tm_pool_destroy(p);
}

static void test_two_threads(void **state)
{
    (void)state;
    run_rounds(2, 3000);
}

static void test_four_threads(void **state)
{
    (void)state;
    run_rounds(4, 1000);
}

static void count_side(void *ctx, bool beside)
{
    assert_false(beside); /* a settle runs it between cycles */
    (*(int *)ctx)++;
}

/* Side work runs once: at the next settle, or first when another is deferred. */
static void test_side(void **state)
{
    struct tm_par p;
    int a = 0, b = 0;

    (void)state;
    memset(&p, 0, sizeof(p));
    tm_par_settle_side(&p); /* nothing pending: nothing runs */
    tm_par_defer(&p, count_side, &a);
    assert_int_equal(a, 0);
    tm_par_defer(&p, count_side, &b); /* the first runs now */
    assert_int_equal(a, 1);
    assert_int_equal(b, 0);
    tm_par_settle(&p, NULL, 0); /* a settle runs the side work too */
    assert_int_equal(b, 1);
    tm_par_settle_side(&p);
    assert_int_equal(a + b, 2);
}

static void test_cpus(void **state)
{
    (void)state;
    assert_true(tm_cpus_available() >= 1);
    tm_pool_destroy(NULL); /* allowed, as free(NULL) */
    assert_int_equal(tm_pool_threads(NULL), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_thread_in_order),
        cmocka_unit_test(test_two_threads),
        cmocka_unit_test(test_four_threads),
        cmocka_unit_test(test_side),
        cmocka_unit_test(test_cpus),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
