/*
 * Unit tests for runtime/functional_time: the functional-mode cycle estimate the CUDA
 * runtime and the OpenCL platform share (one warp instruction per busy SM per cycle).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "runtime/functional_time.h"

static void test_fewer_ctas_than_sms(void **state)
{
    (void)state;
    assert_int_equal(ptxsim_functional_cycles(100, 1, 15), 100);
    assert_int_equal(ptxsim_functional_cycles(100, 4, 15), 25);
    assert_int_equal(ptxsim_functional_cycles(101, 4, 15), 26); /* rounds up */
}

static void test_more_ctas_than_sms(void **state)
{
    (void)state;
    assert_int_equal(ptxsim_functional_cycles(150, 1000, 15), 10);
    assert_int_equal(ptxsim_functional_cycles(151, 1000, 15), 11);
    assert_int_equal(ptxsim_functional_cycles(0, 1000, 15), 0);
}

static void test_empty_grid_or_machine(void **state)
{
    (void)state;
    assert_int_equal(ptxsim_functional_cycles(7, 0, 15), 7);
    assert_int_equal(ptxsim_functional_cycles(7, 3, 0), 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fewer_ctas_than_sms),
        cmocka_unit_test(test_more_ctas_than_sms),
        cmocka_unit_test(test_empty_grid_or_machine),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
