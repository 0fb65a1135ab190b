/*
 * Register pressure (isa/regpressure.h): peak live 32-bit register words by
 * liveness over hand-written PTX, against counts worked out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "common/err.h"
#include "frontend/ptx_parse.h"
#include "isa/module.h"
#include "isa/regpressure.h"

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"

static uint32_t pressure(const char *ptx, const char *kernel)
{
    struct ps_err err;
    struct isa_module *m = ptx_parse(ptx, strlen(ptx), "t.ptx", &err);
    uint32_t p;

    assert_non_null(m);
    p = isa_reg_pressure(m, isa_module_find_func(m, kernel));
    isa_module_destroy(m);
    return p;
}

/* Many declared registers, few live at once: a chain reuses its values. */
static void test_chain_reuses(void **state)
{
    (void)state;
    assert_int_equal(pressure(HDR ".visible .entry k(.param .u64 p) {\n"
                                  ".reg .b32 %r<40>; .reg .b64 %rd<3>;\n"
                                  "ld.param.u64 %rd1, [p];\n"
                                  "mov.u32 %r1, 1;\n"
                                  "add.u32 %r2, %r1, 1;\n"
                                  "add.u32 %r3, %r2, 1;\n"
                                  "add.u32 %r4, %r3, 1;\n"
                                  "st.global.u32 [%rd1], %r4;\n"
                                  "ret;\n}\n",
                                  "k"),
                     3); /* %rd1 (2 words) + one 32-bit value at a time */
}

/* Values all live at the final sum: every one counts. */
static void test_all_live(void **state)
{
    (void)state;
    assert_int_equal(pressure(HDR ".visible .entry k(.param .u64 p) {\n"
                                  ".reg .b32 %r<8>; .reg .b64 %rd<3>;\n"
                                  "ld.param.u64 %rd1, [p];\n"
                                  "ld.global.u32 %r1, [%rd1];\n"
                                  "ld.global.u32 %r2, [%rd1+4];\n"
                                  "ld.global.u32 %r3, [%rd1+8];\n"
                                  "ld.global.u32 %r4, [%rd1+12];\n"
                                  "add.u32 %r5, %r1, %r2;\n"
                                  "add.u32 %r6, %r3, %r4;\n"
                                  "add.u32 %r7, %r5, %r6;\n"
                                  "st.global.u32 [%rd1], %r7;\n"
                                  "ret;\n}\n",
                                  "k"),
                     6); /* %rd1 + %r1..%r4 live together at the first add (it also defines %r5) */
}

/* A loop keeps its induction variable and accumulator live around the back edge. */
static void test_loop_carried(void **state)
{
    (void)state;
    assert_int_equal(pressure(HDR ".visible .entry k(.param .u64 p) {\n"
                                  ".reg .b32 %r<6>; .reg .b64 %rd<3>; .reg .pred %p<2>;\n"
                                  "ld.param.u64 %rd1, [p];\n"
                                  "mov.u32 %r1, 0;\n"
                                  "mov.u32 %r2, 0;\n"
                                  "L1:\n"
                                  "add.u32 %r2, %r2, %r1;\n"
                                  "add.u32 %r1, %r1, 1;\n"
                                  "setp.lt.u32 %p1, %r1, 10;\n"
                                  "@%p1 bra L1;\n"
                                  "st.global.u32 [%rd1], %r2;\n"
                                  "ret;\n}\n",
                                  "k"),
                     4); /* %rd1, %r1, %r2; predicates take no register words */
}

/* A guarded write does not end the old value's life. */
static void test_guarded_def_keeps_value(void **state)
{
    (void)state;
    assert_int_equal(pressure(HDR ".visible .entry k(.param .u64 p) {\n"
                                  ".reg .b32 %r<4>; .reg .b64 %rd<3>; .reg .pred %p<2>;\n"
                                  "ld.param.u64 %rd1, [p];\n"
                                  "ld.global.u32 %r1, [%rd1];\n"
                                  "setp.eq.u32 %p1, %r1, 0;\n"
                                  "@%p1 mov.u32 %r1, 7;\n"
                                  "st.global.u32 [%rd1], %r1;\n"
                                  "ret;\n}\n",
                                  "k"),
                     3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_reuses),
        cmocka_unit_test(test_all_live),
        cmocka_unit_test(test_loop_carried),
        cmocka_unit_test(test_guarded_def_keeps_value),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
