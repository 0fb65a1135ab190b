/*
 * isa/alu: f32, f64, f16 and bf16 arithmetic and the float comparisons.
 * Expected bits are IEEE 754 results (round to nearest even unless the
 * instruction names another direction) and the PTX ISA 9.0 rules for
 * .ftz, .sat, NaN and the special-value tables of the .approx functions.
 */
#include "alu_test.h"

#define QNAN32 0x7fffffffu /* canonical f32 NaN */
#define QNAN64 UINT64_C(0x7fffffffffffffff)

/* 1 + 2^-24 is a tie; 1 + 1.5*2^-24 rounds up; -(1 + 1.5*2^-24); 1 + 2^-23 + 2^-24 is a tie
   to the even 1 + 2^-22; max + max overflows; 1 + -1 is -0 only when rounding down. */
#define ADD_LANES(rn0, rn1, rn2, rn3, rn4, rn5)                                                    \
    {.a = 0x3f800000, .b = 0x33800000, .d = rn0}, {.a = 0x3f800000, .b = 0x33c00000, .d = rn1},    \
        {.a = 0xbf800000, .b = 0xb3c00000, .d = rn2},                                              \
        {.a = 0x3f800001, .b = 0x33800000, .d = rn3},                                              \
        {.a = 0x7f7fffff, .b = 0x7f7fffff, .d = rn4},                                              \
    {                                                                                              \
        .a = 0x3f800000, .b = 0xbf800000, .d = rn5                                                 \
    }

static void test_alu_f32_add_rounding_modes(void **state)
{
    (void)state;
    RUN("add.rn.f32 %f0, %f1, %f2;",
        ADD_LANES(0x3f800000, 0x3f800001, 0xbf800001, 0x3f800002, 0x7f800000, 0));
    RUN("add.f32 %f0, %f1, %f2;",
        ADD_LANES(0x3f800000, 0x3f800001, 0xbf800001, 0x3f800002, 0x7f800000, 0));
    RUN("add.rz.f32 %f0, %f1, %f2;",
        ADD_LANES(0x3f800000, 0x3f800000, 0xbf800000, 0x3f800001, 0x7f7fffff, 0));
    RUN("add.rm.f32 %f0, %f1, %f2;",
        ADD_LANES(0x3f800000, 0x3f800000, 0xbf800001, 0x3f800001, 0x7f7fffff, 0x80000000));
    RUN("add.rp.f32 %f0, %f1, %f2;",
        ADD_LANES(0x3f800001, 0x3f800001, 0xbf800000, 0x3f800002, 0x7f800000, 0));
    RUN("sub.rn.f32 %f0, %f1, %f2;", {.a = 0x3f800000, .b = 0x3f800000, .d = 0},
        {.a = 0x7f800000, .b = 0x7f800000, .d = QNAN32});
}

static void test_alu_f32_mul_fma_rounding(void **state)
{
    (void)state;
    /* (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 */
    RUN("mul.rn.f32 %f0, %f1, %f2;", {.a = 0x3f800001, .b = 0x3f800001, .d = 0x3f800002},
        {.a = 0, .b = 0x7f800000, .d = QNAN32},
        {.a = 0xc0000000, .b = 0x3f000000, .d = 0xbf800000});
    RUN("mul.rz.f32 %f0, %f1, %f2;", {.a = 0x3f800001, .b = 0x3f800001, .d = 0x3f800002});
    RUN("mul.rp.f32 %f0, %f1, %f2;", {.a = 0x3f800001, .b = 0x3f800001, .d = 0x3f800003});
    RUN("mul.rm.f32 %f0, %f1, %f2;", {.a = 0xbf800001, .b = 0x3f800001, .d = 0xbf800003});
    /* fused: the 2^-46 survives */
    RUN("fma.rn.f32 %f0, %f1, %f2, %f3;",
        {.a = 0x3f800001, .b = 0x3f800001, .c = 0xbf800002, .d = 0x28800000});
    RUN("mad.rn.f32 %f0, %f1, %f2, %f3;",
        {.a = 0x3f800001, .b = 0x3f800001, .c = 0xbf800002, .d = 0x28800000});
    RUN("fma.rz.f32 %f0, %f1, %f2, %f3;",
        {.a = 0x3f800000, .b = 0x3f800000, .c = 0x33c00000, .d = 0x3f800000});
    RUN("fma.rp.f32 %f0, %f1, %f2, %f3;",
        {.a = 0x3f800000, .b = 0x3f800000, .c = 0x33c00000, .d = 0x3f800001});
}

static void test_alu_f32_ftz_sat_nan(void **state)
{
    (void)state;
    RUN("add.f32 %f0, %f1, %f2;", {.a = 1, .b = 1, .d = 2},
        {.a = 0x7fc00001, .b = 0x3f800000, .d = QNAN32});
    RUN("add.ftz.f32 %f0, %f1, %f2;", {.a = 1, .b = 1, .d = 0}, {.a = 0x80000001, .b = 0, .d = 0},
        {.a = 0x00800000, .b = 0x00000001, .d = 0x00800000});
    RUN("mul.f32 %f0, %f1, %f2;", {.a = 0x00800000, .b = 0x3f000000, .d = 0x00400000});
    RUN("mul.ftz.f32 %f0, %f1, %f2;", {.a = 0x00800000, .b = 0x3f000000, .d = 0},
        {.a = 0x80800000, .b = 0x3f000000, .d = 0x80000000});
    RUN("add.sat.f32 %f0, %f1, %f2;", {.a = 0x3f000000, .b = 0x3f400000, .d = 0x3f800000},
        {.a = 0xbf800000, .b = 0x3f000000, .d = 0}, {.a = 0x7fc00000, .b = 0x3f800000, .d = 0},
        {.a = 0x3e800000, .b = 0x3e800000, .d = 0x3f000000});
    RUN("fma.rn.sat.f32 %f0, %f1, %f2, %f3;",
        {.a = 0x40000000, .b = 0x40000000, .c = 0, .d = 0x3f800000});
}

static void test_alu_f32_div_rcp_sqrt(void **state)
{
    (void)state;
    RUN("div.rn.f32 %f0, %f1, %f2;", {.a = 0x3f800000, .b = 0x40400000, .d = 0x3eaaaaab},
        {.a = 0x3f800000, .b = 0, .d = 0x7f800000}, {.a = 0xbf800000, .b = 0, .d = 0xff800000},
        {.a = 0, .b = 0, .d = QNAN32});
    RUN("div.rz.f32 %f0, %f1, %f2;", {.a = 0x3f800000, .b = 0x40400000, .d = 0x3eaaaaaa});
    RUN("div.rm.f32 %f0, %f1, %f2;", {.a = 0x3f800000, .b = 0x40400000, .d = 0x3eaaaaaa});
    RUN("div.rp.f32 %f0, %f1, %f2;", {.a = 0x3f800000, .b = 0x40400000, .d = 0x3eaaaaab});
    RUN("div.full.f32 %f0, %f1, %f2;", {.a = 0x3f800000, .b = 0x40400000, .d = 0x3eaaaaab});
    /* a * (1/b); 2^126 < |b| < 2^128 gives 0, or NaN for infinite a (PTX ISA div.approx) */
    RUN("div.approx.f32 %f0, %f1, %f2;", {.a = 0x40c00000, .b = 0x40400000, .d = 0x40000000},
        {.a = 0x3f800000, .b = 0x40800000, .d = 0x3e800000},
        {.a = 0x3f800000, .b = 0x7f000000, .d = 0},
        {.a = 0x7f800000, .b = 0x7f000000, .d = QNAN32});
    RUN("rcp.rn.f32 %f0, %f1;", {.a = 0x40400000, .d = 0x3eaaaaab},
        {.a = 0x80000000, .d = 0xff800000});
    RUN("rcp.rz.f32 %f0, %f1;", {.a = 0x40400000, .d = 0x3eaaaaaa});
    RUN("rcp.approx.f32 %f0, %f1;", {.a = 0x00400000, .d = 0x7f000000});
    RUN("rcp.approx.ftz.f32 %f0, %f1;", {.a = 0x00400000, .d = 0x7f800000});
    RUN("sqrt.rn.f32 %f0, %f1;", {.a = 0x40000000, .d = 0x3fb504f3}, {.a = 0xbf800000, .d = QNAN32},
        {.a = 0x80000000, .d = 0x80000000});
    RUN("sqrt.rz.f32 %f0, %f1;", {.a = 0x40000000, .d = 0x3fb504f3});
    RUN("sqrt.rp.f32 %f0, %f1;", {.a = 0x40000000, .d = 0x3fb504f4});
    RUN("sqrt.approx.f32 %f0, %f1;", {.a = 0x40800000, .d = 0x40000000});
}

/* Special values from the PTX ISA tables of each .approx function. */
static void test_alu_f32_approx_functions(void **state)
{
    (void)state;
    RUN("rsqrt.approx.f32 %f0, %f1;", {.a = 0x40800000, .d = 0x3f000000}, {.a = 0, .d = 0x7f800000},
        {.a = 0x80000000, .d = 0xff800000}, {.a = 0xbf800000, .d = QNAN32},
        {.a = 0x7f800000, .d = 0});
    RUN("sin.approx.f32 %f0, %f1;", {.a = 0, .d = 0}, {.a = 0x80000000, .d = 0x80000000},
        {.a = 0x7f800000, .d = QNAN32});
    RUN("cos.approx.f32 %f0, %f1;", {.a = 0, .d = 0x3f800000}, {.a = 0xff800000, .d = QNAN32});
    RUN("lg2.approx.f32 %f0, %f1;", {.a = 0x41000000, .d = 0x40400000}, {.a = 0, .d = 0xff800000},
        {.a = 0xbf800000, .d = QNAN32}, {.a = 0x7f800000, .d = 0x7f800000});
    RUN("lg2.approx.ftz.f32 %f0, %f1;", {.a = 1, .d = 0xff800000});
    RUN("ex2.approx.f32 %f0, %f1;", {.a = 0x40400000, .d = 0x41000000}, {.a = 0xff800000, .d = 0},
        {.a = 0x7f800000, .d = 0x7f800000}, {.a = 0xc3150000, .d = 1},
        {.a = 0xbf800000, .d = 0x3f000000});
    RUN("ex2.approx.ftz.f32 %f0, %f1;", {.a = 0xc3150000, .d = 0});
    RUN("tanh.approx.f32 %f0, %f1;", {.a = 0, .d = 0}, {.a = 0x7f800000, .d = 0x3f800000},
        {.a = 0xff800000, .d = 0xbf800000});
}

static void test_alu_f32_sign_min_max(void **state)
{
    (void)state;
    RUN("abs.f32 %f0, %f1;", {.a = 0x80000000, .d = 0}, {.a = 0xff800000, .d = 0x7f800000},
        {.a = 0x80000001, .d = 1});
    RUN("abs.ftz.f32 %f0, %f1;", {.a = 0x80000001, .d = 0});
    RUN("neg.f32 %f0, %f1;", {.a = 0, .d = 0x80000000}, {.a = 0x7fc00000, .d = 0xffc00000});
    RUN("neg.ftz.f32 %f0, %f1;", {.a = 1, .d = 0x80000000});
    RUN("abs.f64 %fd0, %fd1;", {.a = 0x8000000000000001, .d = 1});
    RUN("neg.f64 %fd0, %fd1;", {.a = 0x3ff0000000000000, .d = 0xbff0000000000000},
        {.a = 0x7ff8000000000001, .d = 0x7ff8000000000001});
    RUN("copysign.f32 %f0, %f1, %f2;", {.a = 0xbf800000, .b = 0x40000000, .d = 0xc0000000},
        {.a = 0x3f800000, .b = 0x80000000, .d = 0});
    RUN("copysign.f64 %fd0, %fd1, %fd2;",
        {.a = 0x8000000000000000, .b = 0x3ff0000000000000, .d = 0xbff0000000000000});
    /* -0.0 < +0.0; one NaN gives the other operand, two NaNs the canonical NaN */
    RUN("min.f32 %f0, %f1, %f2;", {.a = 0x3f800000, .b = 0x40000000, .d = 0x3f800000},
        {.a = 0, .b = 0x80000000, .d = 0x80000000}, {.a = 0x80000000, .b = 0, .d = 0x80000000},
        {.a = 0x7fc00000, .b = 0x3f800000, .d = 0x3f800000},
        {.a = 0x7fc00000, .b = 0x7fc00001, .d = QNAN32},
        {.a = 1, .b = 0x80000001, .d = 0x80000001});
    RUN("max.f32 %f0, %f1, %f2;", {.a = 0x80000000, .b = 0, .d = 0},
        {.a = 0x3f800000, .b = 0x7fc00000, .d = 0x3f800000});
    RUN("min.NaN.f32 %f0, %f1, %f2;", {.a = 0x7fc00000, .b = 0x3f800000, .d = QNAN32});
    RUN("min.ftz.f32 %f0, %f1, %f2;", {.a = 1, .b = 0x80000001, .d = 0x80000000});
    RUN("max.xorsign.abs.f32 %f0, %f1, %f2;", {.a = 0xc0000000, .b = 0x40400000, .d = 0xc0400000});
    RUN("min.xorsign.abs.f32 %f0, %f1, %f2;", {.a = 0xc0000000, .b = 0xc0400000, .d = 0x40000000});
    RUN("max.f32 %f0, %f1, %f2, %f3;",
        {.a = 0x3f800000, .b = 0x40a00000, .c = 0x40400000, .d = 0x40a00000});
    RUN("min.f64 %fd0, %fd1, %fd2;",
        {.a = 0x7ff8000000000000, .b = 0x4000000000000000, .d = 0x4000000000000000},
        {.a = 0x7ff8000000000000, .b = 0x7ff8000000000000, .d = QNAN64});
    RUN("max.f64 %fd0, %fd1, %fd2;", {.a = 0x8000000000000000, .b = 0, .d = 0});
}

static void test_alu_f64_rounding(void **state)
{
    (void)state;
    RUN("add.rn.f64 %fd0, %fd1, %fd2;",
        {.a = 0x3ff0000000000000, .b = 0x3ca0000000000000, .d = 0x3ff0000000000000},
        {.a = 0x7ff0000000000000, .b = 0xfff0000000000000, .d = QNAN64});
    RUN("add.rp.f64 %fd0, %fd1, %fd2;",
        {.a = 0x3ff0000000000000, .b = 0x3ca0000000000000, .d = 0x3ff0000000000001});
    RUN("add.rm.f64 %fd0, %fd1, %fd2;",
        {.a = 0x3ff0000000000000, .b = 0xbff0000000000000, .d = 0x8000000000000000});
    RUN("div.rn.f64 %fd0, %fd1, %fd2;",
        {.a = 0x3ff0000000000000, .b = 0x4008000000000000, .d = 0x3fd5555555555555});
    RUN("div.rz.f64 %fd0, %fd1, %fd2;",
        {.a = 0x3ff0000000000000, .b = 0x4008000000000000, .d = 0x3fd5555555555555});
    RUN("div.rp.f64 %fd0, %fd1, %fd2;",
        {.a = 0x3ff0000000000000, .b = 0x4008000000000000, .d = 0x3fd5555555555556});
    RUN("rcp.rn.f64 %fd0, %fd1;", {.a = 0x4008000000000000, .d = 0x3fd5555555555555});
    RUN("sqrt.rn.f64 %fd0, %fd1;", {.a = 0x4000000000000000, .d = 0x3ff6a09e667f3bcd});
    RUN("sqrt.rz.f64 %fd0, %fd1;", {.a = 0x4000000000000000, .d = 0x3ff6a09e667f3bcc});
    RUN("sqrt.rm.f64 %fd0, %fd1;", {.a = 0x4000000000000000, .d = 0x3ff6a09e667f3bcc});
    RUN("sqrt.rp.f64 %fd0, %fd1;", {.a = 0x4000000000000000, .d = 0x3ff6a09e667f3bcd});
    RUN("fma.rn.f64 %fd0, %fd1, %fd2, %fd3;", {.a = 0x3ff0000000000001,
                                               .b = 0x3ff0000000000001,
                                               .c = 0xbff0000000000002,
                                               .d = 0x3970000000000000});
    RUN("mul.rz.f64 %fd0, %fd1, %fd2;",
        {.a = 0x3ff0000000000001, .b = 0x3ff0000000000001, .d = 0x3ff0000000000002});
    RUN("mul.rp.f64 %fd0, %fd1, %fd2;",
        {.a = 0x3ff0000000000001, .b = 0x3ff0000000000001, .d = 0x3ff0000000000003});
    /* PTX ISA rcp.approx.ftz.f64 table: upper word only, low word zero */
    RUN("rcp.approx.ftz.f64 %fd0, %fd1;", {.a = 0x4000000000000000, .d = 0x3fe0000000000000},
        {.a = 0x8000000000000001, .d = 0xfff0000000000000}, {.a = 0x7ff0000000000000, .d = 0},
        {.a = 0x7ff8000000000000, .d = 0x7fffffff00000000},
        {.a = 0x4000000012345678, .d = 0x3fe0000000000000});
    RUN("rsqrt.approx.f64 %fd0, %fd1;", {.a = 0x4010000000000000, .d = 0x3fe0000000000000});
}

/* f16/bf16 as cuda_fp16.h / cuda_bf16.h use them: one rounding to nearest even. */
static void test_alu_half_arith(void **state)
{
    (void)state;
    RUN("add.f16 %h0, %h1, %h2;", {.a = 0x3c00, .b = 0x1000, .d = 0x3c00},
        {.a = 0x3c00, .b = 0x1200, .d = 0x3c01}, {.a = 0x7bff, .b = 0x7bff, .d = 0x7c00},
        {.a = 1, .b = 1, .d = 2}, {.a = 0x7c00, .b = 0xfc00, .d = 0x7fff});
    RUN("add.ftz.f16 %h0, %h1, %h2;", {.a = 1, .b = 1, .d = 0});
    RUN("add.sat.f16 %h0, %h1, %h2;", {.a = 0x3c00, .b = 0x3c00, .d = 0x3c00},
        {.a = 0xbc00, .b = 0x3800, .d = 0});
    RUN("sub.f16 %h0, %h1, %h2;", {.a = 0x4000, .b = 0x3c00, .d = 0x3c00});
    RUN("mul.f16 %h0, %h1, %h2;", {.a = 0x3c01, .b = 0x3c01, .d = 0x3c02});
    RUN("fma.rn.f16 %h0, %h1, %h2, %h3;", {.a = 0x3c01, .b = 0x3c01, .c = 0xbc02, .d = 0x0010});
    RUN("fma.rn.ftz.f16 %h0, %h1, %h2, %h3;", {.a = 0x3c01, .b = 0x3c01, .c = 0xbc02, .d = 0});
    RUN("add.f16x2 %r0, %r1, %r2;", {.a = 0x3c003c00, .b = 0x4000bc00, .d = 0x42000000});
    RUN("fma.rn.f16x2 %r0, %r1, %r2, %r3;",
        {.a = 0x40004000, .b = 0x3c00bc00, .c = 0x3c003c00, .d = 0x4200bc00});
    RUN("neg.f16x2 %r0, %r1;", {.a = 0x3c008000, .d = 0xbc000000});
    RUN("abs.f16 %h0, %h1;", {.a = 0xbc00, .d = 0x3c00});
    RUN("min.f16x2 %r0, %r1, %r2;", {.a = 0x7e003c00, .b = 0x3c004000, .d = 0x3c003c00});
    RUN("min.NaN.f16 %h0, %h1, %h2;", {.a = 0x7e00, .b = 0x3c00, .d = 0x7fff});
    RUN("max.f16 %h0, %h1, %h2;", {.a = 0x8000, .b = 0, .d = 0});
    RUN("ex2.approx.f16 %h0, %h1;", {.a = 0x3c00, .d = 0x4000}, {.a = 0xfc00, .d = 0});
    RUN("tanh.approx.f16 %h0, %h1;", {.a = 0, .d = 0}, {.a = 0x7c00, .d = 0x3c00});
    /* bf16: 1 + 2^-8 ties to 1; (1 + 2^-7)^2 - (1 + 2^-6) = 2^-14 */
    RUN("add.rn.bf16 %h0, %h1, %h2;", {.a = 0x3f80, .b = 0x3b80, .d = 0x3f80},
        {.a = 0x3f80, .b = 0x3bc0, .d = 0x3f81}, {.a = 0x7180, .b = 0x0d80, .d = 0x7180});
    RUN("fma.rn.bf16 %h0, %h1, %h2, %h3;", {.a = 0x3f81, .b = 0x3f81, .c = 0xbf82, .d = 0x3880});
    RUN("fma.rn.relu.bf16 %h0, %h1, %h2, %h3;", {.a = 0xbf80, .b = 0x3f80, .c = 0, .d = 0},
        {.a = 0x3f80, .b = 0x3f80, .c = 0x3f80, .d = 0x4000});
    RUN("mul.rn.bf16x2 %r0, %r1, %r2;", {.a = 0x40004040, .b = 0x3f00bf80, .d = 0x3f80c040});
    RUN("max.bf16x2 %r0, %r1, %r2;", {.a = 0x3f80bf80, .b = 0xbf803f80, .d = 0x3f803f80});
}

static void test_alu_float_compare(void **state)
{
    (void)state;
    RUN_F("setp.lt.f32 %p0|%p1, %f1, %f2;", CHK_D2,
          {.a = 0x3f800000, .b = 0x40000000, .d = 1, .d2 = 0},
          {.a = 0x7fc00000, .b = 0x3f800000, .d = 0, .d2 = 1});
    RUN("setp.ltu.f32 %p0, %f1, %f2;", {.a = 0x7fc00000, .b = 0x3f800000, .d = 1},
        {.a = 0x40000000, .b = 0x3f800000, .d = 0}, {.a = 0x3f800000, .b = 0x40000000, .d = 1});
    RUN("setp.eq.f32 %p0, %f1, %f2;", {.a = 0x7fc00000, .b = 0x7fc00000, .d = 0},
        {.a = 0, .b = 0x80000000, .d = 1});
    RUN("setp.equ.f32 %p0, %f1, %f2;", {.a = 0x7fc00000, .b = 0x7fc00000, .d = 1},
        {.a = 0, .b = 0x3f800000, .d = 0});
    RUN("setp.ne.f32 %p0, %f1, %f2;", {.a = 0x7fc00000, .b = 0x3f800000, .d = 0},
        {.a = 0, .b = 0x3f800000, .d = 1});
    RUN("setp.neu.f32 %p0, %f1, %f2;", {.a = 0x7fc00000, .b = 0x3f800000, .d = 1},
        {.a = 0, .b = 0, .d = 0});
    RUN("setp.le.f32 %p0, %f1, %f2;", {.a = 0x3f800000, .b = 0x3f800000, .d = 1},
        {.a = 0x7fc00000, .b = 0, .d = 0});
    RUN("setp.leu.f32 %p0, %f1, %f2;", {.a = 0x7fc00000, .b = 0, .d = 1},
        {.a = 0x40000000, .b = 0x3f800000, .d = 0});
    RUN("setp.gtu.f32 %p0, %f1, %f2;", {.a = 0x7fc00000, .b = 0, .d = 1},
        {.a = 0, .b = 0x3f800000, .d = 0});
    RUN("setp.geu.f32 %p0, %f1, %f2;", {.a = 0, .b = 0x7fc00000, .d = 1},
        {.a = 0, .b = 0x3f800000, .d = 0});
    RUN("setp.num.f32 %p0, %f1, %f2;", {.a = 0x3f800000, .b = 0x40000000, .d = 1},
        {.a = 0x7fc00000, .b = 0, .d = 0});
    RUN("setp.nan.f32 %p0, %f1, %f2;", {.a = 0x3f800000, .b = 0x7fc00000, .d = 1},
        {.a = 0, .b = 0, .d = 0});
    RUN("setp.gt.f32 %p0, %f1, %f2;", {.a = 1, .b = 0, .d = 1});
    RUN("setp.gt.ftz.f32 %p0, %f1, %f2;", {.a = 1, .b = 0, .d = 0});
    RUN("setp.ge.f64 %p0, %fd1, %fd2;", {.a = 0x4000000000000000, .b = 0x4000000000000000, .d = 1},
        {.a = 0x7ff8000000000000, .b = 0, .d = 0});
    /* p = t BoolOp c, q = !t BoolOp c */
    RUN_F("setp.lt.and.f32 %p0|%p1, %f1, %f2, %p2;", CHK_D2,
          {.a = 0x3f800000, .b = 0x40000000, .c = 1, .d = 1, .d2 = 0},
          {.a = 0x3f800000, .b = 0x40000000, .c = 0, .d = 0, .d2 = 0});
    RUN_F("setp.lt.or.f32 %p0|%p1, %f1, %f2, %p2;", CHK_D2,
          {.a = 0x40000000, .b = 0x3f800000, .c = 1, .d = 1, .d2 = 1});
    RUN_F("setp.lt.xor.f32 %p0|%p1, %f1, %f2, %p2;", CHK_D2,
          {.a = 0x3f800000, .b = 0x40000000, .c = 1, .d = 0, .d2 = 1});
    /* x2: the low halves set p, the high halves q */
    RUN_F("setp.lt.f16x2 %p0|%p1, %r1, %r2;", CHK_D2,
          {.a = 0x3c004000, .b = 0x40003c00, .d = 0, .d2 = 1});
    RUN("setp.lt.bf16 %p0, %h1, %h2;", {.a = 0x3f80, .b = 0x4000, .d = 1});
    RUN("set.lt.f32.f32 %f0, %f1, %f2;", {.a = 0x3f800000, .b = 0x40000000, .d = 0x3f800000},
        {.a = 0x40000000, .b = 0x3f800000, .d = 0});
    RUN("set.eq.u32.f32 %r0, %f1, %f2;", {.a = 0, .b = 0x80000000, .d = 0xffffffff},
        {.a = 0, .b = 1, .d = 0});
    RUN("set.eq.f16x2.f16x2 %r0, %r1, %r2;", {.a = 0x3c003c00, .b = 0x3c004000, .d = 0x3c000000});
    RUN("set.eq.u32.f16x2 %r0, %r1, %r2;", {.a = 0x3c003c00, .b = 0x3c004000, .d = 0xffff0000});
    RUN("set.eq.f16.f16 %h0, %h1, %h2;", {.a = 0x3c00, .b = 0x3c00, .d = 0x3c00});
    RUN("set.gt.and.u32.f32 %r0, %f1, %f2, %p3;",
        {.a = 0x40000000, .b = 0, .c = 1, .d = 0xffffffff},
        {.a = 0x40000000, .b = 0, .c = 0, .d = 0});
    RUN("slct.f32.f32 %f0, %f1, %f2, %f3;", {.a = 1, .b = 2, .c = 0x80000000, .d = 1},
        {.a = 1, .b = 2, .c = 0x7fc00000, .d = 2}, {.a = 1, .b = 2, .c = 0x80000001, .d = 2});
    RUN("slct.ftz.f32.f32 %f0, %f1, %f2, %f3;", {.a = 1, .b = 2, .c = 0x80000001, .d = 1});
    RUN("selp.f64 %fd0, %fd1, %fd2, %p3;", {.a = 1, .b = 2, .c = 1, .d = 1},
        {.a = 1, .b = 2, .c = 0, .d = 2});
}

/* testp: zeros count as normal (PTX ISA 9.7.3.1). */
static void test_alu_testp(void **state)
{
    (void)state;
    RUN("testp.normal.f32 %p0, %f1;", {.a = 0, .d = 1}, {.a = 1, .d = 0}, {.a = 0x3f800000, .d = 1},
        {.a = 0x7f800000, .d = 0}, {.a = 0x7fc00000, .d = 0}, {.a = 0x80000000, .d = 1});
    RUN("testp.subnormal.f32 %p0, %f1;", {.a = 1, .d = 1}, {.a = 0, .d = 0},
        {.a = 0x807fffff, .d = 1});
    RUN("testp.finite.f32 %p0, %f1;", {.a = 0x7f800000, .d = 0}, {.a = 0x7fc00000, .d = 0},
        {.a = 0x3f800000, .d = 1});
    RUN("testp.infinite.f32 %p0, %f1;", {.a = 0xff800000, .d = 1}, {.a = 0x7fc00000, .d = 0});
    RUN("testp.number.f32 %p0, %f1;", {.a = 0x7fc00000, .d = 0}, {.a = 0xff800000, .d = 1});
    RUN("testp.notanumber.f64 %p0, %fd1;", {.a = 0x7ff8000000000000, .d = 1},
        {.a = 0x7ff0000000000000, .d = 0});
    RUN("testp.subnormal.f64 %p0, %fd1;", {.a = 1, .d = 1}, {.a = 0x0010000000000000, .d = 0});
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alu_f32_add_rounding_modes),
        cmocka_unit_test(test_alu_f32_mul_fma_rounding),
        cmocka_unit_test(test_alu_f32_ftz_sat_nan),
        cmocka_unit_test(test_alu_f32_div_rcp_sqrt),
        cmocka_unit_test(test_alu_f32_approx_functions),
        cmocka_unit_test(test_alu_f32_sign_min_max),
        cmocka_unit_test(test_alu_f64_rounding),
        cmocka_unit_test(test_alu_half_arith),
        cmocka_unit_test(test_alu_float_compare),
        cmocka_unit_test(test_alu_testp),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
