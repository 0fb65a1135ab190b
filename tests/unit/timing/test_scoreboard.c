/*
 * Unit tests for timing/scoreboard: registers readable from their ready
 * cycle, the data-stall then miss-stall sequence of a wait on a load, the
 * verdict cache and its clearing, the load-wait question the warp views
 * ask, and the wake-up cycle of a blocked instruction.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/scoreboard.h"

/* An instruction reading s0, s1 and writing d. */
static struct tm_iinfo instr(uint16_t s0, uint16_t s1, uint16_t d)
{
    struct tm_iinfo ii = {0};

    ii.nsrc = 2;
    ii.ndst = 1;
    ii.src[0] = s0;
    ii.src[1] = s1;
    ii.dst[0] = d;
    return ii;
}

static void test_alu_result_wait(void **state)
{
    struct tm_scoreboard sb = {0};
    struct tm_iinfo ii = instr(1, 2, 3);
    enum tm_sb_wait why;

    (void)state;
    assert_int_equal(tm_sb_grow(&sb, 8), 0);
    assert_int_equal(tm_sb_check(&sb, 0, &ii, 10), TM_SB_READY);
    tm_sb_set(&sb, 2, 15);
    assert_int_equal(tm_sb_check(&sb, 0, &ii, 10), TM_SB_DATA);
    /* The verdict is cached until the register is ready. */
    assert_true(tm_sb_cached(&sb, 14, &why));
    assert_int_equal(why, TM_SB_DATA);
    assert_false(tm_sb_cached(&sb, 15, &why));
    assert_int_equal(tm_sb_check(&sb, 0, &ii, 15), TM_SB_READY);
    assert_int_equal(tm_sb_blocked_until(&sb, 0, &ii, 12), 15);
    assert_int_equal(tm_sb_blocked_until(&sb, 0, &ii, 15), 0);
    /* A register window further up the pool: base shifts every operand. */
    assert_int_equal(tm_sb_check(&sb, 4, &ii, 10), TM_SB_READY);
    tm_sb_set(&sb, 7, 30);
    assert_int_equal(tm_sb_check(&sb, 4, &ii, 20), TM_SB_DATA);
    /* Registers beyond the table are always readable and never written. */
    tm_sb_set(&sb, 100, 50);
    assert_int_equal(tm_sb_check(&sb, 100, &ii, 10), TM_SB_READY);
    tm_sb_reset(&sb);
    assert_int_equal(sb.n, 0);
}

static void test_load_wait(void **state)
{
    struct tm_scoreboard sb = {0};
    struct tm_iinfo ii = instr(1, 2, 3);
    enum tm_sb_wait why;

    (void)state;
    assert_int_equal(tm_sb_grow(&sb, 4), 0);
    assert_int_equal(tm_sb_cached_load_wait(&sb), -1);
    assert_false(tm_sb_waits_on_load(&sb, 0, &ii));
    tm_sb_set(&sb, 1, TM_NEVER);
    assert_true(tm_sb_waits_on_load(&sb, 0, &ii));
    assert_false(tm_sb_waits_on_load(&sb, 0, NULL));
    /* First cycle of the wait: a data stall, not cached; then a miss stall, cached. */
    assert_int_equal(tm_sb_check(&sb, 0, &ii, 5), TM_SB_DATA);
    assert_false(tm_sb_cached(&sb, 6, &why));
    assert_int_equal(tm_sb_check(&sb, 0, &ii, 6), TM_SB_DMISS);
    assert_true(tm_sb_cached(&sb, 1000, &why));
    assert_int_equal(why, TM_SB_DMISS);
    assert_int_equal(tm_sb_cached_load_wait(&sb), 1);
    assert_int_equal(tm_sb_blocked_until(&sb, 0, &ii, 6), TM_NEVER);
    /* The load completes: the cache is forgotten and the register readable. */
    tm_sb_forget(&sb);
    tm_sb_set(&sb, 1, 9);
    sb.dmiss_seen = false;
    assert_false(tm_sb_cached(&sb, 7, &why));
    assert_int_equal(tm_sb_check(&sb, 0, &ii, 9), TM_SB_READY);
    tm_sb_reset(&sb);
}

static void test_grow_keeps_values(void **state)
{
    struct tm_scoreboard sb = {0};
    struct tm_iinfo ii = instr(0, 5, 6);

    (void)state;
    assert_int_equal(tm_sb_grow(&sb, 2), 0);
    tm_sb_set(&sb, 0, 40);
    assert_int_equal(tm_sb_grow(&sb, 1), 0); /* never shrinks */
    assert_int_equal(sb.n, 2);
    assert_int_equal(tm_sb_grow(&sb, 16), 0);
    assert_int_equal(sb.ready_at[0], 40);
    assert_int_equal(sb.ready_at[15], 0);
    assert_int_equal(tm_sb_check(&sb, 0, &ii, 39), TM_SB_DATA);
    tm_sb_reset(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alu_result_wait),
        cmocka_unit_test(test_load_wait),
        cmocka_unit_test(test_grow_keeps_values),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
