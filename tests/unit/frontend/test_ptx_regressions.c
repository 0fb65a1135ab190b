/*
 * Regression tests for parser bugs found by fuzzing and by checking against
 * ptxas: each case failed (crash, sanitizer report or wrong answer) before
 * its fix in frontend/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/err.h"
#include "frontend/ptx_parse.h"
#include "isa/module.h"

#define HDR ".version 7.0\n.target sm_80\n.address_size 64\n"

static struct isa_module *parse_ok(const char *text)
{
    struct ps_err err;
    struct isa_module *m = ptx_parse(text, strlen(text), "t.ptx", &err);

    if (!m)
        fail_msg("unexpected parse error %u:%u: %s", err.line, err.col, err.msg);
    return m;
}

static void expect_error(const char *text, uint32_t line, uint32_t col, const char *msg)
{
    struct ps_err err;
    struct isa_module *m = ptx_parse(text, strlen(text), "t.ptx", &err);

    assert_null(m);
    assert_int_equal(err.code, PS_EPARSE);
    assert_string_equal(err.msg, msg);
    assert_int_equal(err.line, line);
    assert_int_equal(err.col, col);
}

/* An unsized array sized by its initialiser used to divide by zero. */
static void test_ptx_regressions_unsized_initialiser(void **state)
{
    struct isa_module *m = parse_ok(HDR ".global .u8 a[] = {1, 2, 3};\n"
                                        ".global .v2 .u32 b[][2] = {1, 2, 3, 4, 5};\n");

    (void)state;
    assert_int_equal(m->vars[0].dims[0], 3);
    assert_int_equal(m->vars[0].size_bytes, 3);
    assert_int_equal(m->vars[1].dims[0], 2); /* 5 values, 4 per outer element */
    assert_int_equal(m->vars[1].size_bytes, 32);
    isa_module_destroy(m);
}

/* .version was read with sscanf/memchr past the end of a text that is not NUL-terminated. */
static void test_ptx_regressions_version_at_end_of_buffer(void **state)
{
    static const char text[] = ".version 10000.0";
    char *buf = malloc(sizeof(text) - 1);
    struct ps_err err;

    (void)state;
    memcpy(buf, text, sizeof(text) - 1);
    assert_null(ptx_parse(buf, sizeof(text) - 1, "t.ptx", &err));
    assert_string_equal(err.msg, "unsupported PTX version 10000.0 (ptxsim reads 1.0 to 9.x)");
    free(buf);
}

/* Negating INT64_MIN was signed overflow. */
static void test_ptx_regressions_int64_min(void **state)
{
    struct isa_module *m =
        parse_ok(HDR ".entry k()\n{\n.reg .b64 %rd<2>;\nmov.b64 %rd1, -9223372036854775808;\n"
                     "ld.global.u8 %rd0, [%rd1+-9223372036854775808];\n}\n");
    const struct isa_func *f = m->funcs[0];

    (void)state;
    assert_true(f->ops[f->instrs[0].first_op + 1].v.i == INT64_MIN);
    assert_true(f->ops[f->instrs[1].first_op + 1].v.i == INT64_MIN);
    isa_module_destroy(m);
}

/* Labels are block-scoped: inline asm inlined twice defines the same label in sibling blocks. */
static void test_ptx_regressions_block_scoped_labels(void **state)
{
    struct isa_module *m = parse_ok(HDR ".entry k()\n{\n.reg .pred %p<2>;\n"
                                        "{\nWAIT: @%p1 bra WAIT;\n}\n"
                                        "{\nbra.uni WAIT;\nWAIT: @%p1 bra WAIT;\n}\n"
                                        "WAIT: ret;\n}\n");
    const struct isa_func *f = m->funcs[0];

    (void)state;
    assert_int_equal(f->nlabels, 3);
    /* Each branch goes to the WAIT of its own block (the forward one too). */
    assert_int_equal(f->labels[f->ops[f->instrs[0].first_op].a].pos, 0);
    assert_int_equal(f->labels[f->ops[f->instrs[1].first_op].a].pos, 2);
    assert_int_equal(f->labels[f->ops[f->instrs[2].first_op].a].pos, 2);
    assert_int_equal(f->labels[2].pos, 3);
    isa_module_destroy(m);
}

/* An inner %r<2> used to hide every outer %rN. */
static void test_ptx_regressions_shadowed_range(void **state)
{
    struct isa_module *m = parse_ok(HDR ".entry k()\n{\n.reg .b32 %r<10>;\n"
                                        "{\n.reg .b32 %r<2>;\nadd.s32 %r1, %r4, %r1;\n}\n"
                                        "add.s32 %r1, %r1, 1;\n}\n");
    const struct isa_func *f = m->funcs[0];
    const struct isa_operand *o = &f->ops[f->instrs[0].first_op];

    (void)state;
    assert_int_equal(o[0].a, 11); /* inner %r1: slots 10, 11 */
    assert_int_equal(o[1].a, 4);  /* outer %r4 */
    assert_int_equal(f->ops[f->instrs[1].first_op].a, 1);
    isa_module_destroy(m);
}

static void test_ptx_regressions_errors(void **state)
{
    (void)state;
    expect_error(HDR ".entry k()\n{\n.reg .b64 %rd<2>;\nbra %rd1;\n}\n", 7, 1,
                 "the target of 'bra' must be a label");
    expect_error(HDR ".entry k()\n{\n.reg .b32 %r<5>;\n.reg .b32 %r3;\n}\n", 7, 11,
                 "redeclaration of '%r3'");
    expect_error(HDR ".entry k()\n{\n.reg .b32 %r<5>;\nadd.s32 %r1, %r2, %r3\nret;\n}\n", 8, 1,
                 "expected ',' or ';' but found 'ret'");
    expect_error(HDR ".entry k()\n{\n@!%q bra L;\nL: ret;\n}\n", 6, 3,
                 "use of undeclared identifier '%q'");
    expect_error(HDR ".shared .u32 s = 5;\n", 4, 16,
                 "initialiser not allowed for a .shared variable");
    expect_error(HDR ".entry k()\n{\n.reg .b32 %r<5>;\nnot.b32 %r1, !%r2;\n}\n", 7, 14,
                 "'!' applies only to predicate registers");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ptx_regressions_unsized_initialiser),
        cmocka_unit_test(test_ptx_regressions_version_at_end_of_buffer),
        cmocka_unit_test(test_ptx_regressions_int64_min),
        cmocka_unit_test(test_ptx_regressions_block_scoped_labels),
        cmocka_unit_test(test_ptx_regressions_shadowed_range),
        cmocka_unit_test(test_ptx_regressions_errors),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
