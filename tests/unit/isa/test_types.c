/*
 * Unit tests for the ISA vocabularies (isa/types.h, isa/opcode.h): the type
 * table, state-space and special-register names, the opcode table expanded
 * from opcodes.def, and modifier lookup with category filtering (the rule
 * that lets ".and" mean a boolean combine on setp and an operation on atom).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "isa/module.h"
#include "isa/opcode.h"
#include "isa/types.h"

#define STR(s) (s), (unsigned)(sizeof(s) - 1)

static void check_type(enum isa_type t, const char *name, unsigned bits, enum isa_tkind kind,
                       unsigned bytes)
{
    const struct isa_type_info *ti = isa_type_info(t);

    assert_string_equal(ti->name, name);
    assert_string_equal(isa_type_name(t), name);
    assert_int_equal(ti->bits, bits);
    assert_int_equal(ti->kind, kind);
    assert_int_equal(isa_type_size(t), bytes);
}

static void test_types_table_sizes_and_kinds(void **state)
{
    (void)state;
    check_type(ISA_TYPE_B8, "b8", 8, ISA_TK_BITS, 1);
    check_type(ISA_TYPE_B128, "b128", 128, ISA_TK_BITS, 16);
    check_type(ISA_TYPE_U16, "u16", 16, ISA_TK_UINT, 2);
    check_type(ISA_TYPE_U64, "u64", 64, ISA_TK_UINT, 8);
    check_type(ISA_TYPE_S32, "s32", 32, ISA_TK_SINT, 4);
    check_type(ISA_TYPE_F16, "f16", 16, ISA_TK_FLOAT, 2);
    check_type(ISA_TYPE_F16X2, "f16x2", 32, ISA_TK_FLOAT, 4);
    check_type(ISA_TYPE_BF16X2, "bf16x2", 32, ISA_TK_FLOAT, 4);
    check_type(ISA_TYPE_F32, "f32", 32, ISA_TK_FLOAT, 4);
    check_type(ISA_TYPE_F64, "f64", 64, ISA_TK_FLOAT, 8);
    check_type(ISA_TYPE_TF32, "tf32", 32, ISA_TK_FLOAT, 4);
    check_type(ISA_TYPE_E4M3X2, "e4m3x2", 16, ISA_TK_FLOAT, 2);
    check_type(ISA_TYPE_U16X2, "u16x2", 32, ISA_TK_UINT, 4);
    check_type(ISA_TYPE_S4, "s4", 4, ISA_TK_SINT, 1);
    check_type(ISA_TYPE_B1, "b1", 1, ISA_TK_BITS, 1);
    check_type(ISA_TYPE_PRED, "pred", 1, ISA_TK_PRED, 1);
    check_type(ISA_TYPE_TEXREF, "texref", 64, ISA_TK_OPAQUE, 8);
    check_type(ISA_TYPE_SURFREF, "surfref", 64, ISA_TK_OPAQUE, 8);
    check_type(ISA_TYPE_NONE, "", 0, ISA_TK_NONE, 0);
    /* Out-of-range values read as NONE instead of past the table. */
    check_type(ISA_TYPE_COUNT, "", 0, ISA_TK_NONE, 0);
    check_type((enum isa_type)200, "", 0, ISA_TK_NONE, 0);
}

static void test_types_every_type_is_consistent(void **state)
{
    (void)state;
    for (unsigned t = 1; t < ISA_TYPE_COUNT; t++) {
        const struct isa_type_info *ti = isa_type_info((enum isa_type)t);

        assert_true(ti->name[0] != '\0');
        assert_true(ti->bits > 0);
        assert_true(ti->kind != ISA_TK_NONE);
        assert_int_equal(isa_type_size((enum isa_type)t), (ti->bits + 7) / 8);
        assert_int_equal(isa_type_lookup(ti->name, (unsigned)strlen(ti->name)), t);
    }
}

static void test_types_lookup(void **state)
{
    (void)state;
    assert_int_equal(isa_type_lookup(STR("u32")), ISA_TYPE_U32);
    assert_int_equal(isa_type_lookup(STR("pred")), ISA_TYPE_PRED);
    assert_int_equal(isa_type_lookup(STR("f16x2")), ISA_TYPE_F16X2);
    /* Length-bounded: a prefix of a longer buffer. */
    assert_int_equal(isa_type_lookup("f16x2", 3), ISA_TYPE_F16);
    assert_int_equal(isa_type_lookup(STR("u33")), ISA_TYPE_NONE);
    assert_int_equal(isa_type_lookup(STR("u3")), ISA_TYPE_NONE);
    assert_int_equal(isa_type_lookup(STR("U32")), ISA_TYPE_NONE);
    assert_int_equal(isa_type_lookup(STR(".u32")), ISA_TYPE_NONE);
    assert_int_equal(isa_type_lookup(STR("")), ISA_TYPE_NONE);
}

static void test_types_space_names(void **state)
{
    (void)state;
    assert_string_equal(isa_space_name(ISA_SPACE_GLOBAL), "global");
    assert_string_equal(isa_space_name(ISA_SPACE_SHARED), "shared");
    assert_string_equal(isa_space_name(ISA_SPACE_PARAM), "param");
    assert_string_equal(isa_space_name(ISA_SPACE_GENERIC), "generic");
    assert_string_equal(isa_space_name(ISA_SPACE_NONE), "");
    assert_string_equal(isa_space_name(ISA_SPACE_COUNT), "");
}

static void test_types_sreg_lookup(void **state)
{
    char buf[16];

    (void)state;
    assert_int_equal(isa_sreg_lookup(STR("%tid")), ISA_SREG_TID);
    assert_true(isa_sreg_has_components(ISA_SREG_TID));
    assert_int_equal(isa_sreg_bits(ISA_SREG_TID), 32);
    assert_int_equal(isa_sreg_lookup(STR("%laneid")), ISA_SREG_LANEID);
    assert_false(isa_sreg_has_components(ISA_SREG_LANEID));
    assert_int_equal(isa_sreg_lookup(STR("%clock64")), ISA_SREG_CLOCK64);
    assert_int_equal(isa_sreg_bits(ISA_SREG_CLOCK64), 64);
    assert_int_equal(isa_sreg_lookup(STR("%cluster_ctaid")), ISA_SREG_CLUSTER_CTAID);
    assert_true(isa_sreg_has_components(ISA_SREG_CLUSTER_CTAID));
    assert_int_equal(isa_sreg_lookup(STR("%pm7_64")), ISA_SREG_PM7_64);
    assert_int_equal(isa_sreg_lookup(STR("%tidx")), ISA_SREG_NONE);
    assert_int_equal(isa_sreg_lookup(STR("tid")), ISA_SREG_NONE);
    assert_int_equal(isa_sreg_lookup(STR("%ti")), ISA_SREG_NONE);
    assert_int_equal(isa_sreg_lookup(STR("%")), ISA_SREG_NONE);
    assert_string_equal(isa_sreg_name(ISA_SREG_NCTAID, buf), "%nctaid");
    assert_string_equal(isa_sreg_name(ISA_SREG_NONE, buf), "");
    for (unsigned r = 1; r < ISA_SREG_ENVREG0; r++) {
        const char *n = isa_sreg_name((enum isa_sreg)r, buf);

        assert_true(n[0] == '%');
        assert_int_equal(isa_sreg_lookup(n, (unsigned)strlen(n)), r);
        assert_true(isa_sreg_bits((enum isa_sreg)r) > 0);
    }
}

static void test_types_envreg(void **state)
{
    char buf[16], want[16];

    (void)state;
    assert_int_equal(isa_sreg_lookup(STR("%envreg0")), ISA_SREG_ENVREG0);
    assert_int_equal(isa_sreg_lookup(STR("%envreg9")), ISA_SREG_ENVREG0 + 9);
    assert_int_equal(isa_sreg_lookup(STR("%envreg10")), ISA_SREG_ENVREG0 + 10);
    assert_int_equal(isa_sreg_lookup(STR("%envreg31")), ISA_SREG_ENVREG0 + 31);
    assert_int_equal(ISA_SREG_ENVREG0 + 31, ISA_SREG_COUNT - 1);
    assert_int_equal(isa_sreg_lookup(STR("%envreg32")), ISA_SREG_NONE);
    assert_int_equal(isa_sreg_lookup(STR("%envreg99")), ISA_SREG_NONE);
    assert_int_equal(isa_sreg_lookup(STR("%envreg01")), ISA_SREG_NONE);
    assert_int_equal(isa_sreg_lookup(STR("%envreg00")), ISA_SREG_NONE);
    assert_int_equal(isa_sreg_lookup(STR("%envreg100")), ISA_SREG_NONE);
    assert_int_equal(isa_sreg_lookup(STR("%envreg")), ISA_SREG_NONE);
    assert_int_equal(isa_sreg_lookup(STR("%envreg1x")), ISA_SREG_NONE);
    assert_int_equal(isa_sreg_lookup(STR("%envregx")), ISA_SREG_NONE);
    for (unsigned n = 0; n < 32; n++) {
        enum isa_sreg r = (enum isa_sreg)(ISA_SREG_ENVREG0 + n);

        snprintf(want, sizeof(want), "%%envreg%u", n);
        assert_string_equal(isa_sreg_name(r, buf), want);
        assert_int_equal(isa_sreg_lookup(want, (unsigned)strlen(want)), r);
        assert_int_equal(isa_sreg_bits(r), 32);
        assert_false(isa_sreg_has_components(r));
    }
}

static void test_types_opcode_lookup(void **state)
{
    (void)state;
    assert_int_equal(isa_op_lookup(STR("add")), ISA_OP_ADD);
    assert_int_equal(isa_op_lookup(STR("mad24")), ISA_OP_MAD24);
    assert_int_equal(isa_op_lookup(STR("vabsdiff4")), ISA_OP_VABSDIFF4);
    assert_int_equal(isa_op_lookup(STR("ad")), ISA_OP_NONE);
    assert_int_equal(isa_op_lookup(STR("addx")), ISA_OP_NONE);
    assert_int_equal(isa_op_lookup(STR("ADD")), ISA_OP_NONE);
    assert_int_equal(isa_op_lookup(STR("add.s32")), ISA_OP_NONE);
    for (unsigned op = 1; op < ISA_OP_COUNT; op++) {
        const char *n = isa_op_info((enum isa_op)op)->name;

        assert_true(n[0] != '\0');
        assert_int_equal(isa_op_lookup(n, (unsigned)strlen(n)), op);
    }
    assert_string_equal(isa_op_info(ISA_OP_COUNT)->name, "");
    assert_string_equal(isa_op_info(ISA_OP_NONE)->name, "");
}

/* Execution and latency classes and meanings of isa/opcodes.def. */
static void test_types_opcode_classes(void **state)
{
    (void)state;
    assert_int_equal(isa_op_info(ISA_OP_ADD)->xclass, ISA_X_ALU);
    assert_int_equal(isa_op_info(ISA_OP_CVT)->xclass, ISA_X_ALU);
    assert_int_equal(isa_op_info(ISA_OP_MOV)->xclass, ISA_X_MOV);
    assert_int_equal(isa_op_info(ISA_OP_LD)->xclass, ISA_X_MEM);
    assert_int_equal(isa_op_info(ISA_OP_CVTA)->xclass, ISA_X_MEM);
    assert_int_equal(isa_op_info(ISA_OP_TEX)->xclass, ISA_X_TEX);
    assert_int_equal(isa_op_info(ISA_OP_BRA)->xclass, ISA_X_CTRL);
    assert_int_equal(isa_op_info(ISA_OP_BARRIER)->xclass, ISA_X_BAR);
    assert_int_equal(isa_op_info(ISA_OP_SHFL)->xclass, ISA_X_SYNC);
    assert_int_equal(isa_op_info(ISA_OP_NANOSLEEP)->xclass, ISA_X_SYNC);
    assert_int_equal(isa_op_info(ISA_OP_PMEVENT)->xclass, ISA_X_NONE);
    assert_int_equal(isa_op_info(ISA_OP_VADD)->xclass, ISA_X_NONE);
    assert_int_equal(isa_op_info(ISA_OP_ADD)->lat, ISA_LAT_ADD);
    assert_int_equal(isa_op_info(ISA_OP_MAX)->lat, ISA_LAT_MAX);
    assert_int_equal(isa_op_info(ISA_OP_MUL24)->lat, ISA_LAT_MUL);
    assert_int_equal(isa_op_info(ISA_OP_FMA)->lat, ISA_LAT_MAD);
    assert_int_equal(isa_op_info(ISA_OP_REM)->lat, ISA_LAT_DIV);
    assert_int_equal(isa_op_info(ISA_OP_SHFL)->lat, ISA_LAT_SHFL);
    for (unsigned op = 1; op < ISA_OP_COUNT; op++) {
        const struct isa_op_info *oi = isa_op_info((enum isa_op)op);

        assert_true(oi->meaning && oi->meaning[0]);
        assert_true(oi->xclass <= ISA_X_SYNC);
        assert_true(oi->lat <= ISA_LAT_SHFL);
    }
}

static void test_types_opcode_table(void **state)
{
    const struct isa_op_info *oi;

    (void)state;
    oi = isa_op_info(ISA_OP_ADD);
    assert_int_equal(oi->min_ops, 3);
    assert_int_equal(oi->max_ops, 3);
    assert_int_equal(oi->unit, ISA_UNIT_INT);
    assert_int_equal(oi->flags, 0);
    assert_true(oi->cats & ISA_CAT_BIT(ROUND));
    oi = isa_op_info(ISA_OP_BRA);
    assert_int_equal(oi->flags, ISA_OPF_NODST | ISA_OPF_BRANCH);
    assert_int_equal(oi->unit, ISA_UNIT_CTRL);
    assert_int_equal(isa_op_info(ISA_OP_CALL)->flags, ISA_OPF_NODST | ISA_OPF_CALL);
    assert_int_equal(isa_op_info(ISA_OP_ST)->flags, ISA_OPF_NODST);
    assert_int_equal(isa_op_info(ISA_OP_LD)->unit, ISA_UNIT_MEM);
    assert_int_equal(isa_op_info(ISA_OP_SQRT)->unit, ISA_UNIT_SFU);
    assert_int_equal(isa_op_info(ISA_OP_BAR)->unit, ISA_UNIT_SYNC);
    assert_int_equal(isa_op_info(ISA_OP_RET)->max_ops, 0);
    for (unsigned op = 1; op < ISA_OP_COUNT; op++) {
        oi = isa_op_info((enum isa_op)op);
        assert_true(oi->min_ops <= oi->max_ops);
        assert_true(oi->max_ops <= ISA_MAX_OPERANDS);
        assert_true(oi->cats < (UINT64_C(1) << ISA_CAT_COUNT));
        for (unsigned k = 1; k < op; k++)
            assert_string_not_equal(oi->name, isa_op_info((enum isa_op)k)->name);
    }
}

/*
 * Opcodes the parser makes write a type (arithmetic on the INT/FP/SFU units,
 * loads, stores, atomics) must accept the TYPE category, or no spelling of
 * them could ever parse. The exceptions take their types from other modifiers.
 */
static void test_types_typed_opcodes_accept_types(void **state)
{
    (void)state;
    for (unsigned op = 1; op < ISA_OP_COUNT; op++) {
        const struct isa_op_info *oi = isa_op_info((enum isa_op)op);
        bool typed = oi->unit == ISA_UNIT_INT || oi->unit == ISA_UNIT_FP ||
                     oi->unit == ISA_UNIT_SFU || op == ISA_OP_LD || op == ISA_OP_LDU ||
                     op == ISA_OP_ST || op == ISA_OP_ATOM || op == ISA_OP_RED;

        if (op == ISA_OP_ISSPACEP || op == ISA_OP_ELECT)
            continue;
        if (!typed)
            continue;
        if (!(oi->cats & ISA_CAT_BIT(TYPE)))
            fail_msg("'%s' needs a type but does not accept the TYPE category", oi->name);
        assert_true(oi->cats != 0);
    }
}

static void test_types_modifier_category_filter(void **state)
{
    uint64_t setp = isa_op_info(ISA_OP_SETP)->cats, atom = isa_op_info(ISA_OP_ATOM)->cats;
    int any = -1;
    enum isa_mod m;

    (void)state;
    m = isa_mod_lookup(STR("and"), setp, &any);
    assert_int_equal(m, ISA_MOD_AND_BOOL);
    assert_int_equal(any, 1);
    assert_int_equal(isa_mod_info(m)->cat, ISA_CAT_BOOL);
    assert_int_equal(isa_mod_info(m)->value, ISA_BOOL_AND);
    m = isa_mod_lookup(STR("and"), isa_op_info(ISA_OP_SET)->cats, &any);
    assert_int_equal(m, ISA_MOD_AND_BOOL);
    m = isa_mod_lookup(STR("and"), atom, &any);
    assert_int_equal(m, ISA_MOD_A_AND);
    assert_int_equal(isa_mod_info(m)->cat, ISA_CAT_ATOM);
    assert_int_equal(isa_mod_info(m)->value, ISA_ATOM_AND);
    /* Known spelling, wrong opcode: NONE but any_cat set. */
    any = -1;
    assert_int_equal(isa_mod_lookup(STR("and"), isa_op_info(ISA_OP_ADD)->cats, &any), ISA_MOD_NONE);
    assert_int_equal(any, 1);
    any = -1;
    assert_int_equal(isa_mod_lookup(STR("bogus"), ~UINT64_C(0), &any), ISA_MOD_NONE);
    assert_int_equal(any, 0);
    /* Other spellings shared between categories. */
    assert_int_equal(isa_mod_lookup(STR("lo"), isa_op_info(ISA_OP_MUL)->cats, &any), ISA_MOD_LO);
    assert_int_equal(isa_mod_lookup(STR("lo"), setp, &any), ISA_MOD_LO_CMP);
    assert_int_equal(isa_mod_lookup(STR("clamp"), isa_op_info(ISA_OP_SHF)->cats, &any),
                     ISA_MOD_CLAMP);
    assert_int_equal(isa_mod_lookup(STR("arrive"), isa_op_info(ISA_OP_BAR)->cats, &any),
                     ISA_MOD_ARRIVE);
    assert_int_equal(isa_mod_lookup(STR("arrive"), isa_op_info(ISA_OP_MBARRIER)->cats, &any),
                     ISA_MOD_ARRIVE_M);
    assert_int_equal(isa_mod_lookup(STR("popc"), isa_op_info(ISA_OP_BAR)->cats, &any),
                     ISA_MOD_POPC_RED);
    assert_int_equal(isa_mod_lookup(STR("shared::cta"), atom, &any), ISA_MOD_SHARED_CTA);
    assert_int_equal(isa_mod_lookup(STR("L2::cache_hint"), isa_op_info(ISA_OP_LD)->cats, &any),
                     ISA_MOD_L2_CACHE_HINT);
}

static void test_types_type_modifiers(void **state)
{
    int any = -1;
    enum isa_mod m;

    (void)state;
    m = isa_mod_lookup(STR("u32"), isa_op_info(ISA_OP_ADD)->cats, &any);
    assert_int_equal(m, ISA_MOD_TYPE0 + ISA_TYPE_U32);
    assert_int_equal(any, 1);
    assert_int_equal(isa_mod_info(m)->cat, ISA_CAT_TYPE);
    assert_int_equal(isa_mod_info(m)->value, ISA_TYPE_U32);
    assert_string_equal(isa_mod_info(m)->name, "u32");
    any = -1;
    assert_int_equal(isa_mod_lookup(STR("f32"), isa_op_info(ISA_OP_EXIT)->cats, &any),
                     ISA_MOD_NONE);
    assert_int_equal(any, 1);
    for (unsigned t = 1; t < ISA_TYPE_COUNT; t++) {
        const struct isa_mod_info *mi = isa_mod_info((enum isa_mod)(ISA_MOD_TYPE0 + t));

        assert_string_equal(mi->name, isa_type_name((enum isa_type)t));
        assert_int_equal(mi->value, t);
    }
    assert_string_equal(isa_mod_info(ISA_MOD_COUNT)->name, "");
}

/* Each table row is reachable: lookup restricted to its own category finds it. */
static void test_types_every_modifier_reachable(void **state)
{
    (void)state;
    for (unsigned m = 1; m < ISA_MOD_TYPE0; m++) {
        const struct isa_mod_info *mi = isa_mod_info((enum isa_mod)m);
        int any = 0;
        enum isa_mod got;

        assert_true(mi->name[0] != '\0');
        assert_true(mi->cat < ISA_CAT_COUNT);
        got = isa_mod_lookup(mi->name, (unsigned)strlen(mi->name), UINT64_C(1) << mi->cat, &any);
        if (got != (enum isa_mod)m)
            fail_msg("modifier '.%s' (%s) resolves to row %d, not %u", mi->name,
                     isa_cat_name((enum isa_cat)mi->cat), (int)got, m);
    }
    assert_string_equal(isa_cat_name(ISA_CAT_TYPE), "TYPE");
    assert_string_equal(isa_cat_name(ISA_CAT_MISC), "MISC");
    assert_string_equal(isa_cat_name(ISA_CAT_COUNT), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types_table_sizes_and_kinds),
        cmocka_unit_test(test_types_every_type_is_consistent),
        cmocka_unit_test(test_types_lookup),
        cmocka_unit_test(test_types_space_names),
        cmocka_unit_test(test_types_sreg_lookup),
        cmocka_unit_test(test_types_envreg),
        cmocka_unit_test(test_types_opcode_lookup),
        cmocka_unit_test(test_types_opcode_table),
        cmocka_unit_test(test_types_opcode_classes),
        cmocka_unit_test(test_types_typed_opcodes_accept_types),
        cmocka_unit_test(test_types_modifier_category_filter),
        cmocka_unit_test(test_types_type_modifiers),
        cmocka_unit_test(test_types_every_modifier_reachable),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
