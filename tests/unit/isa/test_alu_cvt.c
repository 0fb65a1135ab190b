/*
 * isa/alu: cvt between integer and floating-point types (PTX ISA 9.0
 * section 9.7.9.21). Float-to-integer saturates and maps NaN to 0;
 * integer-to-integer .sat clamps; rounding directions are IEEE 754.
 */
#include "alu_test.h"

static void test_alu_cvt_int_to_int(void **state)
{
    (void)state;
    RUN("cvt.u32.u8 %r0, %h1;", {.a = 0xff, .d = 0xff});
    RUN("cvt.s32.s8 %r0, %h1;", {.a = 0x80, .d = 0xffffff80}, {.a = 0x7f, .d = 0x7f});
    RUN("cvt.u32.s8 %r0, %h1;", {.a = 0x80, .d = 0xffffff80});
    RUN("cvt.s32.u8 %r0, %h1;", {.a = 0x80, .d = 0x80});
    RUN("cvt.u8.u32 %h0, %r1;", {.a = 0x1ff, .d = 0xff});
    RUN("cvt.s64.s32 %rd0, %r1;", {.a = 0xffffffff, .d = UINT64_MAX},
        {.a = 0x7fffffff, .d = 0x7fffffff});
    RUN("cvt.u64.u32 %rd0, %r1;", {.a = 0xffffffff, .d = 0xffffffff});
    RUN("cvt.u16.u64 %h0, %rd1;", {.a = 0x123456789abc, .d = 0x9abc});
    RUN("cvt.s16.s64 %h0, %rd1;", {.a = 0xffffffffffff8000, .d = 0x8000});
    RUN("cvt.sat.u8.u32 %h0, %r1;", {.a = 0x1ff, .d = 0xff}, {.a = 0x7f, .d = 0x7f});
    RUN("cvt.sat.u8.s32 %h0, %r1;", {.a = 0xffffffff, .d = 0}, {.a = 0x100, .d = 0xff});
    RUN("cvt.sat.s8.s32 %h0, %r1;", {.a = 200, .d = 0x7f}, {.a = 0xffffff38, .d = 0x80},
        {.a = 0xfffffff6, .d = 0xf6});
    RUN("cvt.sat.u32.s32 %r0, %r1;", {.a = 0xfffffffb, .d = 0}, {.a = 5, .d = 5});
    RUN("cvt.sat.s32.u32 %r0, %r1;", {.a = 0x80000000, .d = 0x7fffffff}, {.a = 5, .d = 5});
    RUN("cvt.sat.s32.s64 %r0, %rd1;", {.a = 0x100000000, .d = 0x7fffffff},
        {.a = 0xffffffff00000000, .d = 0x80000000});
    RUN("cvt.sat.u64.s64 %rd0, %rd1;", {.a = UINT64_MAX, .d = 0});
}

/* Always saturating; NaN gives 0; .ftz flushes the f32 source first. */
static void test_alu_cvt_float_to_int(void **state)
{
    (void)state;
    RUN("cvt.rni.s32.f32 %r0, %f1;", {.a = 0x40200000, .d = 2}, {.a = 0x40600000, .d = 4},
        {.a = 0xc0200000, .d = 0xfffffffe}, {.a = 0x7fc00000, .d = 0},
        {.a = 0x4f32d05e, .d = 0x7fffffff}, {.a = 0xcf32d05e, .d = 0x80000000},
        {.a = 0x7f800000, .d = 0x7fffffff}, {.a = 0xff800000, .d = 0x80000000});
    RUN("cvt.rzi.s32.f32 %r0, %f1;", {.a = 0xc02ccccd, .d = 0xfffffffe}, {.a = 0x402ccccd, .d = 2});
    RUN("cvt.rmi.s32.f32 %r0, %f1;", {.a = 0xc0066666, .d = 0xfffffffd},
        {.a = 0x80000001, .d = 0xffffffff});
    RUN("cvt.rmi.ftz.s32.f32 %r0, %f1;", {.a = 0x80000001, .d = 0});
    RUN("cvt.rpi.s32.f32 %r0, %f1;", {.a = 0x40066666, .d = 3}, {.a = 1, .d = 1});
    RUN("cvt.rzi.u32.f32 %r0, %f1;", {.a = 0xbf800000, .d = 0}, {.a = 0x4f9502f9, .d = 0xffffffff},
        {.a = 0x4f800000, .d = 0xffffffff}, {.a = 0x4f7fffff, .d = 0xffffff00});
    RUN("cvt.rni.u8.f32 %h0, %f1;", {.a = 0x43960000, .d = 0xff}, {.a = 0xc0400000, .d = 0},
        {.a = 0x437e8000, .d = 0xfe});
    RUN("cvt.rzi.s64.f64 %rd0, %fd1;", {.a = 0x43e0000000000000, .d = 0x7fffffffffffffff},
        {.a = 0xc3e0000000000000, .d = 0x8000000000000000},
        {.a = 0x7e37e43c8800759c, .d = 0x7fffffffffffffff},
        {.a = 0xc00b333333333333, .d = 0xfffffffffffffffd});
    RUN("cvt.rzi.u64.f64 %rd0, %fd1;", {.a = 0x43f0000000000000, .d = UINT64_MAX},
        {.a = 0x43efffffffffffff, .d = 0xfffffffffffff800});
    RUN("cvt.rni.s32.f64 %r0, %fd1;", {.a = 0x3fe0000000000000, .d = 0},
        {.a = 0x3ff8000000000000, .d = 2});
    RUN("cvt.rzi.s16.f16 %h0, %h1;", {.a = 0xc500, .d = 0xfffb}, {.a = 0x7c00, .d = 0x7fff});
    RUN("cvt.rni.u32.bf16 %r0, %h1;", {.a = 0x4228, .d = 42});
}

static void test_alu_cvt_int_to_float(void **state)
{
    (void)state;
    /* 2^24 + 1 ties to 2^24; 2^24 + 3 lies halfway between 2^24 + 2 and 2^24 + 4 */
    RUN("cvt.rn.f32.s32 %f0, %r1;", {.a = 0x01000001, .d = 0x4b800000},
        {.a = 0x01000003, .d = 0x4b800002}, {.a = 0xfefffffd, .d = 0xcb800002}, {.a = 0, .d = 0},
        {.a = 0x80000000, .d = 0xcf000000});
    RUN("cvt.rz.f32.s32 %f0, %r1;", {.a = 0x01000003, .d = 0x4b800001},
        {.a = 0xfefffffd, .d = 0xcb800001});
    RUN("cvt.rm.f32.s32 %f0, %r1;", {.a = 0x01000003, .d = 0x4b800001},
        {.a = 0xfefffffd, .d = 0xcb800002});
    RUN("cvt.rp.f32.s32 %f0, %r1;", {.a = 0x01000003, .d = 0x4b800002},
        {.a = 0xfefffffd, .d = 0xcb800001});
    RUN("cvt.rn.f32.u64 %f0, %rd1;", {.a = UINT64_MAX, .d = 0x5f800000});
    RUN("cvt.rz.f32.u64 %f0, %rd1;", {.a = UINT64_MAX, .d = 0x5f7fffff});
    RUN("cvt.rn.f64.u64 %fd0, %rd1;", {.a = UINT64_MAX, .d = 0x43f0000000000000});
    RUN("cvt.rz.f64.u64 %fd0, %rd1;", {.a = UINT64_MAX, .d = 0x43efffffffffffff});
    RUN("cvt.rn.f64.s64 %fd0, %rd1;", {.a = 0x8000000000000000, .d = 0xc3e0000000000000});
    RUN("cvt.rn.f64.s32 %fd0, %r1;", {.a = 0xffffffff, .d = 0xbff0000000000000});
    RUN("cvt.rn.f16.s32 %h0, %r1;", {.a = 65520, .d = 0x7c00}, {.a = 1, .d = 0x3c00},
        {.a = 0xfffffffe, .d = 0xc000});
    RUN("cvt.rz.f16.s32 %h0, %r1;", {.a = 65520, .d = 0x7bff});
    RUN("cvt.rn.bf16.s32 %h0, %r1;", {.a = 257, .d = 0x4380});
    RUN("cvt.rp.bf16.u32 %h0, %r1;", {.a = 257, .d = 0x4381});
    RUN("cvt.rn.sat.f32.s32 %f0, %r1;", {.a = 5, .d = 0x3f800000}, {.a = 0xfffffffb, .d = 0});
}

static void test_alu_cvt_float_to_float(void **state)
{
    (void)state;
    RUN("cvt.f32.f16 %f0, %h1;", {.a = 0x3c00, .d = 0x3f800000}, {.a = 1, .d = 0x33800000},
        {.a = 0x7c00, .d = 0x7f800000}, {.a = 0xfc00, .d = 0xff800000},
        {.a = 0x7e00, .d = 0x7fffffff}, {.a = 0x8000, .d = 0x80000000});
    RUN("cvt.f32.bf16 %f0, %h1;", {.a = 0x3f80, .d = 0x3f800000});
    RUN("cvt.f64.f32 %fd0, %f1;", {.a = 0x3fc00000, .d = 0x3ff8000000000000},
        {.a = 1, .d = 0x36a0000000000000});
    RUN("cvt.ftz.f64.f32 %fd0, %f1;", {.a = 1, .d = 0}, {.a = 0x80000001, .d = 0x8000000000000000});
    /* 1 + 2^-24 ties to 1; 1e300 overflows; 2^-150 ties to 0 */
    RUN("cvt.rn.f32.f64 %f0, %fd1;", {.a = 0x3ff0000010000000, .d = 0x3f800000},
        {.a = 0x7e37e43c8800759c, .d = 0x7f800000}, {.a = 0x3690000000000000, .d = 0},
        {.a = 0x3730000000000000, .d = 0x00000200}, {.a = 0x7ff8000000000001, .d = 0x7fffffff});
    RUN("cvt.rp.f32.f64 %f0, %fd1;", {.a = 0x3ff0000010000000, .d = 0x3f800001},
        {.a = 0x3690000000000000, .d = 1});
    RUN("cvt.rz.f32.f64 %f0, %fd1;", {.a = 0x7e37e43c8800759c, .d = 0x7f7fffff});
    RUN("cvt.rm.f32.f64 %f0, %fd1;", {.a = 0xbff0000010000000, .d = 0xbf800001});
    RUN("cvt.rn.ftz.f32.f64 %f0, %fd1;", {.a = 0x3730000000000000, .d = 0});
    RUN("cvt.rn.f16.f32 %h0, %f1;", {.a = 0x3f801000, .d = 0x3c00}, {.a = 0x3f801800, .d = 0x3c01},
        {.a = 0x477ff000, .d = 0x7c00}, {.a = 0x33000000, .d = 0}, {.a = 0x33000001, .d = 1},
        {.a = 0x7f800001, .d = 0x7fff});
    RUN("cvt.rz.f16.f32 %h0, %f1;", {.a = 0x3f801800, .d = 0x3c00}, {.a = 0x477ff000, .d = 0x7bff});
    RUN("cvt.rm.f16.f32 %h0, %f1;", {.a = 0x3f801800, .d = 0x3c00}, {.a = 0xbf801800, .d = 0xbc01});
    RUN("cvt.rp.f16.f32 %h0, %f1;", {.a = 0x3f801800, .d = 0x3c01}, {.a = 0x00000001, .d = 1});
    RUN("cvt.rn.satfinite.f16.f32 %h0, %f1;", {.a = 0x7f800000, .d = 0x7bff},
        {.a = 0xff800000, .d = 0xfbff}, {.a = 0x49742400, .d = 0x7bff},
        {.a = 0x7fc00000, .d = 0x7fff});
    RUN("cvt.rn.relu.f16.f32 %h0, %f1;", {.a = 0xbf800000, .d = 0}, {.a = 0x7fc00000, .d = 0x7fff},
        {.a = 0x40000000, .d = 0x4000});
    RUN("cvt.rn.bf16.f32 %h0, %f1;", {.a = 0x3f808000, .d = 0x3f80}, {.a = 0x3f818000, .d = 0x3f82},
        {.a = 0x7f800001, .d = 0x7fff});
    RUN("cvt.rz.bf16.f32 %h0, %f1;", {.a = 0x3f81ffff, .d = 0x3f81});
    RUN("cvt.rn.f16.f64 %h0, %fd1;", {.a = 0x3ff0000000000000, .d = 0x3c00});
    RUN("cvt.rna.tf32.f32 %r0, %f1;", {.a = 0x3f801000, .d = 0x3f802000},
        {.a = 0x3f800fff, .d = 0x3f800000});
}

static void test_alu_cvt_same_type_rounding(void **state)
{
    (void)state;
    RUN("cvt.sat.f32.f32 %f0, %f1;", {.a = 0x3fc00000, .d = 0x3f800000}, {.a = 0xbf800000, .d = 0},
        {.a = 0x7fc00000, .d = 0}, {.a = 0x3f000000, .d = 0x3f000000});
    RUN("cvt.ftz.f32.f32 %f0, %f1;", {.a = 1, .d = 0}, {.a = 0x80000001, .d = 0x80000000},
        {.a = 0x00800000, .d = 0x00800000});
    RUN("cvt.rni.f32.f32 %f0, %f1;", {.a = 0x40200000, .d = 0x40000000},
        {.a = 0x40600000, .d = 0x40800000}, {.a = 0xbf000000, .d = 0x80000000});
    RUN("cvt.rmi.f32.f32 %f0, %f1;", {.a = 0xbf000000, .d = 0xbf800000});
    RUN("cvt.rpi.f32.f32 %f0, %f1;", {.a = 0x3e4ccccd, .d = 0x3f800000});
    RUN("cvt.rzi.f32.f32 %f0, %f1;", {.a = 0xbfd9999a, .d = 0xbf800000});
    RUN("cvt.rni.f64.f64 %fd0, %fd1;", {.a = 0x4004000000000000, .d = 0x4000000000000000});
    RUN("cvt.rni.f16.f16 %h0, %h1;", {.a = 0x3e00, .d = 0x4000});
}

/* cvt.{f16x2,bf16x2}.f32 d, a, b: a goes to the upper half (PTX ISA cvt). */
static void test_alu_cvt_pack(void **state)
{
    (void)state;
    RUN("cvt.rn.f16x2.f32 %r0, %f1, %f2;", {.a = 0x3f800000, .b = 0x40000000, .d = 0x3c004000});
    RUN("cvt.rn.bf16x2.f32 %r0, %f1, %f2;", {.a = 0x3f800000, .b = 0xc0000000, .d = 0x3f80c000});
    RUN("cvt.rz.satfinite.bf16x2.f32 %r0, %f1, %f2;",
        {.a = 0x7f800000, .b = 0x3f81ffff, .d = 0x7f7f3f81});
    RUN("cvt.rn.relu.f16x2.f32 %r0, %f1, %f2;",
        {.a = 0xbf800000, .b = 0x3f800000, .d = 0x00003c00});
}

static void test_alu_cvt_unsupported(void **state)
{
    (void)state;
    assert_int_equal(exec_rc("cvt.rn.satfinite.e4m3x2.f32 %h0, %f1, %f2;", false), PS_ENOTSUP);
    assert_int_equal(exec_rc("cvt.rs.f16x2.f32 %r0, %f1, %f2, %r3;", false), PS_ENOTSUP);
    assert_int_equal(exec_rc("cvt.rn.f16x2.f32 %r0, %f1, %f2;", false), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alu_cvt_int_to_int),
        cmocka_unit_test(test_alu_cvt_float_to_int),
        cmocka_unit_test(test_alu_cvt_int_to_float),
        cmocka_unit_test(test_alu_cvt_float_to_float),
        cmocka_unit_test(test_alu_cvt_same_type_rounding),
        cmocka_unit_test(test_alu_cvt_pack),
        cmocka_unit_test(test_alu_cvt_unsupported),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
