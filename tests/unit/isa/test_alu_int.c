/*
 * isa/alu: integer and bit instructions. Expected values follow the PTX ISA
 * 9.0 pseudocode of each instruction (section 9.7.1, 9.7.8, 9.7.18).
 */
#include "alu_test.h"

static void test_alu_add_sub_wrap_and_sat(void **state)
{
    (void)state;
    RUN("add.s32 %r0, %r1, %r2;", {.a = 0x7fffffff, .b = 1, .d = 0x80000000},
        {.a = 0xffffffff, .b = 1, .d = 0}, {.a = 5, .b = 0xfffffffd, .d = 2});
    RUN("add.u16 %h0, %h1, %h2;", {.a = 0xffff, .b = 1, .d = 0},
        {.a = 0x1234, .b = 0x1111, .d = 0x2345});
    RUN("add.s64 %rd0, %rd1, %rd2;", {.a = UINT64_MAX, .b = 1, .d = 0},
        {.a = 0x7fffffffffffffff, .b = 1, .d = 0x8000000000000000});
    RUN("add.sat.s32 %r0, %r1, %r2;", {.a = 0x7fffffff, .b = 1, .d = 0x7fffffff},
        {.a = 0x80000000, .b = 0xffffffff, .d = 0x80000000}, {.a = 5, .b = 0xfffffffd, .d = 2},
        {.a = 0x7ffffff0, .b = 0x20, .d = 0x7fffffff});
    RUN("sub.sat.s32 %r0, %r1, %r2;", {.a = 0x80000000, .b = 1, .d = 0x80000000},
        {.a = 0x7fffffff, .b = 0xffffffff, .d = 0x7fffffff}, {.a = 3, .b = 5, .d = 0xfffffffe});
    RUN("sub.u32 %r0, %r1, %r2;", {.a = 0, .b = 1, .d = 0xffffffff});
    RUN("add.u16x2 %r0, %r1, %r2;", {.a = 0x0001ffff, .b = 0x00020001, .d = 0x00030000});
    RUN("sub.s16x2 %r0, %r1, %r2;", {.a = 0x00000000, .b = 0x00010001, .d = 0xffffffff});
}

/* A 96-bit add and a 64-bit subtract through CC.CF (PTX ISA 9.7.1.x addc/subc examples). */
static void test_alu_carry_chains(void **state)
{
    (void)state;
    /* low words: lane 0 carries, lane 1 does not */
    RUN_F("add.cc.u32 %r0, %r1, %r2;", CHK_CC, {.a = 0xffffffff, .b = 1, .d = 0, .co = 1},
          {.a = 1, .b = 2, .d = 3, .co = 0});
    RUN_F("addc.cc.u32 %r0, %r1, %r2;", CHK_CC, {.a = 0xffffffff, .b = 0, .ci = 1, .d = 0, .co = 1},
          {.a = 0xfffffffe, .b = 1, .ci = 0, .d = 0xffffffff, .co = 0},
          {.a = 0xffffffff, .b = 0xffffffff, .ci = 1, .d = 0xffffffff, .co = 1});
    /* addc without .cc leaves the flag alone */
    RUN_F("addc.u32 %r0, %r1, %r2;", CHK_CC, {.a = 1, .b = 0, .ci = 1, .d = 2, .co = 1},
          {.a = 1, .b = 0, .ci = 0, .d = 1, .co = 0});
    RUN_F("add.cc.u64 %rd0, %rd1, %rd2;", CHK_CC, {.a = UINT64_MAX, .b = 2, .d = 1, .co = 1},
          {.a = 1, .b = 2, .d = 3, .co = 0});
    RUN_F("addc.cc.u64 %rd0, %rd1, %rd2;", CHK_CC,
          {.a = UINT64_MAX, .b = UINT64_MAX, .ci = 1, .d = UINT64_MAX, .co = 1},
          {.a = UINT64_MAX, .b = 0, .ci = 1, .d = 0, .co = 1},
          {.a = 5, .b = 6, .ci = 1, .d = 12, .co = 0});
    /* 0x1_00000000 - 1 = 0x0_ffffffff: the low word borrows */
    RUN_F("sub.cc.u32 %r0, %r1, %r2;", CHK_CC, {.a = 0, .b = 1, .d = 0xffffffff, .co = 1},
          {.a = 5, .b = 5, .d = 0, .co = 0});
    RUN_F("subc.cc.u32 %r0, %r1, %r2;", CHK_CC, {.a = 1, .b = 0, .ci = 1, .d = 0, .co = 0},
          {.a = 0, .b = 0, .ci = 1, .d = 0xffffffff, .co = 1},
          {.a = 5, .b = 5, .ci = 1, .d = 0xffffffff, .co = 1},
          {.a = 5, .b = 6, .ci = 0, .d = 0xffffffff, .co = 1});
    RUN_F("subc.s64 %rd0, %rd1, %rd2;", CHK_CC, {.a = 10, .b = 3, .ci = 1, .d = 6, .co = 1});
}

static void test_alu_mul_parts_and_signs(void **state)
{
    (void)state;
    RUN("mul.lo.s32 %r0, %r1, %r2;", {.a = 0x10000, .b = 0x10000, .d = 0},
        {.a = 0xffffffff, .b = 3, .d = 0xfffffffd});
    RUN("mul.hi.s32 %r0, %r1, %r2;", {.a = 0x10000, .b = 0x10000, .d = 1},
        {.a = 0xffffffff, .b = 1, .d = 0xffffffff},
        {.a = 0x80000000, .b = 0x80000000, .d = 0x40000000});
    RUN("mul.hi.u32 %r0, %r1, %r2;", {.a = 0xffffffff, .b = 0xffffffff, .d = 0xfffffffe},
        {.a = 0xffffffff, .b = 1, .d = 0});
    RUN("mul.wide.s32 %rd0, %r1, %r2;", {.a = 0xfffffffe, .b = 3, .d = 0xfffffffffffffffa},
        {.a = 0x80000000, .b = 0x80000000, .d = 0x4000000000000000});
    RUN("mul.wide.u32 %rd0, %r1, %r2;",
        {.a = 0xffffffff, .b = 0xffffffff, .d = 0xfffffffe00000001});
    RUN("mul.wide.s16 %r0, %h1, %h2;", {.a = 0xffff, .b = 0xffff, .d = 1},
        {.a = 0x8000, .b = 0x7fff, .d = 0xc0008000});
    RUN("mul.wide.u16 %r0, %h1, %h2;", {.a = 0xffff, .b = 0xffff, .d = 0xfffe0001});
    RUN("mul.hi.s16 %h0, %h1, %h2;", {.a = 0x8000, .b = 0x8000, .d = 0x4000});
    RUN("mul.hi.s64 %rd0, %rd1, %rd2;", {.a = 0x8000000000000000, .b = 2, .d = UINT64_MAX},
        {.a = UINT64_MAX, .b = UINT64_MAX, .d = 0});
    RUN("mul.hi.u64 %rd0, %rd1, %rd2;", {.a = 0x8000000000000000, .b = 2, .d = 1},
        {.a = UINT64_MAX, .b = UINT64_MAX, .d = 0xfffffffffffffffe});
    RUN("mul.lo.u64 %rd0, %rd1, %rd2;", {.a = 0x100000000, .b = 0x100000000, .d = 0});
}

static void test_alu_mad_forms(void **state)
{
    (void)state;
    RUN("mad.lo.s32 %r0, %r1, %r2, %r3;", {.a = 3, .b = 4, .c = 5, .d = 17},
        {.a = 0xffffffff, .b = 2, .c = 1, .d = 0xffffffff});
    RUN("mad.hi.u32 %r0, %r1, %r2, %r3;", {.a = 0xffffffff, .b = 0xffffffff, .c = 3, .d = 1});
    RUN("mad.wide.s32 %rd0, %r1, %r2, %rd3;", {.a = 0xfffffffe, .b = 3, .c = 10, .d = 4});
    RUN("mad.wide.u16 %r0, %h1, %h2, %r3;", {.a = 0xffff, .b = 0xffff, .c = 0x1ffff, .d = 0});
    /* hi(0x7fffffff^2) = 0x3fffffff; hi(-2^31 * (2^31-1)) = 0xc0000000 */
    RUN("mad.hi.sat.s32 %r0, %r1, %r2, %r3;",
        {.a = 0x7fffffff, .b = 0x7fffffff, .c = 0x7fffffff, .d = 0x7fffffff},
        {.a = 0x80000000, .b = 0x7fffffff, .c = 0x80000000, .d = 0x80000000},
        {.a = 0x7fffffff, .b = 0x7fffffff, .c = 1, .d = 0x40000000});
    /* extended-precision multiply (PTX ISA madc example) */
    RUN_F("mad.lo.cc.u32 %r0, %r1, %r2, %r3;", CHK_CC,
          {.a = 0xffffffff, .b = 1, .c = 1, .d = 0, .co = 1},
          {.a = 2, .b = 3, .c = 4, .d = 10, .co = 0});
    RUN_F("madc.hi.u32 %r0, %r1, %r2, %r3;", CHK_CC,
          {.a = 2, .b = 3, .c = 5, .ci = 1, .d = 6, .co = 1},
          {.a = 0x80000000, .b = 4, .c = 5, .ci = 0, .d = 7, .co = 0});
    RUN_F("madc.lo.cc.u64 %rd0, %rd1, %rd2, %rd3;", CHK_CC,
          {.a = UINT64_MAX, .b = 1, .c = 0, .ci = 1, .d = 0, .co = 1});
}

static void test_alu_mul24_mad24_sad(void **state)
{
    (void)state;
    RUN("mul24.lo.u32 %r0, %r1, %r2;", {.a = 0x01000002, .b = 3, .d = 6});
    RUN("mul24.hi.u32 %r0, %r1, %r2;", {.a = 0xffffff, .b = 0xffffff, .d = 0xfffffe00});
    RUN("mul24.lo.s32 %r0, %r1, %r2;", {.a = 0x00ffffff, .b = 2, .d = 0xfffffffe});
    RUN("mul24.hi.s32 %r0, %r1, %r2;", {.a = 0x00ffffff, .b = 0x00ffffff, .d = 0});
    RUN("mad24.lo.u32 %r0, %r1, %r2, %r3;", {.a = 2, .b = 3, .c = 4, .d = 10});
    RUN("mad24.hi.sat.s32 %r0, %r1, %r2, %r3;",
        {.a = 0x7fffff, .b = 0x7fffff, .c = 0x7fffffff, .d = 0x7fffffff},
        {.a = 0x7fffff, .b = 0x7fffff, .c = 0, .d = 0x3fffff00});
    RUN("sad.u32 %r0, %r1, %r2, %r3;", {.a = 3, .b = 5, .c = 10, .d = 12},
        {.a = 0xffffffff, .b = 0, .c = 1, .d = 0});
    RUN("sad.s32 %r0, %r1, %r2, %r3;", {.a = 0xfffffffd, .b = 5, .c = 1, .d = 9});
}

/* Division by zero gives all ones (isa/alu.h); INT_MIN / -1 wraps. */
static void test_alu_div_rem(void **state)
{
    (void)state;
    RUN("div.u32 %r0, %r1, %r2;", {.a = 7, .b = 2, .d = 3}, {.a = 7, .b = 0, .d = 0xffffffff},
        {.a = 0, .b = 0, .d = 0xffffffff});
    RUN("div.s32 %r0, %r1, %r2;", {.a = 0xfffffff9, .b = 2, .d = 0xfffffffd},
        {.a = 0x80000000, .b = 0xffffffff, .d = 0x80000000}, {.a = 5, .b = 0, .d = 0xffffffff},
        {.a = 0xfffffffb, .b = 0, .d = 0xffffffff}, {.a = 7, .b = 0xfffffffe, .d = 0xfffffffd});
    RUN("rem.s32 %r0, %r1, %r2;", {.a = 0xfffffff9, .b = 2, .d = 0xffffffff},
        {.a = 7, .b = 0xfffffffe, .d = 1}, {.a = 0x80000000, .b = 0xffffffff, .d = 0},
        {.a = 7, .b = 0, .d = 0xffffffff});
    RUN("rem.u32 %r0, %r1, %r2;", {.a = 7, .b = 0, .d = 0xffffffff}, {.a = 7, .b = 4, .d = 3});
    RUN("div.s64 %rd0, %rd1, %rd2;",
        {.a = 0x8000000000000000, .b = UINT64_MAX, .d = 0x8000000000000000},
        {.a = 1, .b = 0, .d = UINT64_MAX});
    RUN("div.u16 %h0, %h1, %h2;", {.a = 0xffff, .b = 0x100, .d = 0xff},
        {.a = 1, .b = 0, .d = 0xffff});
    RUN("rem.s16 %h0, %h1, %h2;", {.a = 0xfff9, .b = 3, .d = 0xffff});
}

static void test_alu_abs_neg_min_max(void **state)
{
    (void)state;
    RUN("abs.s32 %r0, %r1;", {.a = 0xfffffffb, .d = 5}, {.a = 0x80000000, .d = 0x80000000},
        {.a = 7, .d = 7});
    RUN("abs.s16 %h0, %h1;", {.a = 0x8001, .d = 0x7fff});
    RUN("neg.s32 %r0, %r1;", {.a = 5, .d = 0xfffffffb}, {.a = 0x80000000, .d = 0x80000000});
    RUN("neg.s64 %rd0, %rd1;", {.a = 1, .d = UINT64_MAX});
    RUN("min.s32 %r0, %r1, %r2;", {.a = 0xffffffff, .b = 1, .d = 0xffffffff});
    RUN("min.u32 %r0, %r1, %r2;", {.a = 0xffffffff, .b = 1, .d = 1});
    RUN("max.s16 %h0, %h1, %h2;", {.a = 0x8000, .b = 1, .d = 1});
    RUN("max.u64 %rd0, %rd1, %rd2;", {.a = UINT64_MAX, .b = 1, .d = UINT64_MAX});
    RUN("min.u16x2 %r0, %r1, %r2;", {.a = 0x0001ffff, .b = 0xffff0002, .d = 0x00010002});
    RUN("max.s16x2 %r0, %r1, %r2;", {.a = 0x7fff8000, .b = 0x80007fff, .d = 0x7fff7fff});
    RUN("max.relu.s32 %r0, %r1, %r2;", {.a = 0xfffffffb, .b = 0xfffffffd, .d = 0},
        {.a = 3, .b = 7, .d = 7});
    RUN("min.relu.s16x2 %r0, %r1, %r2;", {.a = 0xfffe0005, .b = 0x00010003, .d = 0x00000003});
    RUN("min.s32 %r0, %r1, %r2, %r3;", {.a = 5, .b = 0xfffffffe, .c = 3, .d = 0xfffffffe});
}

static void test_alu_bit_counts(void **state)
{
    (void)state;
    RUN("popc.b32 %r0, %r1;", {.a = 0xffffffff, .d = 32}, {.a = 0, .d = 0});
    RUN("popc.b64 %r0, %rd1;", {.a = 0x8000000000000001, .d = 2});
    RUN("clz.b32 %r0, %r1;", {.a = 0, .d = 32}, {.a = 1, .d = 31}, {.a = 0x80000000, .d = 0});
    RUN("clz.b64 %r0, %rd1;", {.a = 1, .d = 63}, {.a = 0, .d = 64});
    RUN("bfind.u32 %r0, %r1;", {.a = 0, .d = 0xffffffff}, {.a = 0x80000000, .d = 31},
        {.a = 1, .d = 0});
    RUN("bfind.s32 %r0, %r1;", {.a = 0xffffffff, .d = 0xffffffff}, {.a = 0xfffffff0, .d = 3},
        {.a = 0x7fffffff, .d = 30}, {.a = 0, .d = 0xffffffff});
    RUN("bfind.shiftamt.u32 %r0, %r1;", {.a = 1, .d = 31}, {.a = 0, .d = 0xffffffff},
        {.a = 0x80000000, .d = 0});
    RUN("bfind.u64 %r0, %rd1;", {.a = 0x8000000000000000, .d = 63});
    RUN("brev.b32 %r0, %r1;", {.a = 1, .d = 0x80000000}, {.a = 0x12345678, .d = 0x1e6a2c48});
    RUN("brev.b64 %rd0, %rd1;", {.a = 1, .d = 0x8000000000000000});
    /* PTX ISA fns examples, plus offset 0 and not-found */
    RUN("fns.b32 %r0, %r1, %r2, %r3;", {.a = 0xaaaaaaaa, .b = 3, .c = 1, .d = 3},
        {.a = 0xaaaaaaaa, .b = 3, .c = 0xffffffff, .d = 3},
        {.a = 0xaaaaaaaa, .b = 2, .c = 1, .d = 3},
        {.a = 0xaaaaaaaa, .b = 2, .c = 0xffffffff, .d = 1},
        {.a = 0xaaaaaaaa, .b = 2, .c = 0, .d = 0xffffffff},
        {.a = 0xaaaaaaaa, .b = 3, .c = 0, .d = 3}, {.a = 0xaaaaaaaa, .b = 0, .c = 3, .d = 5},
        {.a = 1, .b = 5, .c = 1, .d = 0xffffffff});
}

static void test_alu_bit_fields(void **state)
{
    (void)state;
    RUN("bfe.u32 %r0, %r1, %r2, %r3;", {.a = 0x12345678, .b = 4, .c = 8, .d = 0x67},
        {.a = 0xf0000000, .b = 28, .c = 8, .d = 0xf}, {.a = 0xffffffff, .b = 40, .c = 8, .d = 0},
        {.a = 0x12345678, .b = 0x104, .c = 0x108, .d = 0x67});
    RUN("bfe.s32 %r0, %r1, %r2, %r3;", {.a = 0xf0, .b = 4, .c = 4, .d = 0xffffffff},
        {.a = 0x70, .b = 4, .c = 4, .d = 7}, {.a = 0x12345678, .b = 0, .c = 0, .d = 0},
        {.a = 0x80000000, .b = 40, .c = 8, .d = 0xffffffff},
        {.a = 0x70000000, .b = 28, .c = 8, .d = 7});
    RUN("bfe.s64 %rd0, %rd1, %r2, %r3;",
        {.a = 0x8000000000000000, .b = 60, .c = 4, .d = 0xfffffffffffffff8});
    RUN("bfi.b32 %r0, %r1, %r2, %r3, %r4;",
        {.a = 0xff, .b = 0x12345678, .c = 8, .x = 8, .d = 0x1234ff78},
        {.a = 0xff, .b = 0x12345678, .c = 8, .x = 0, .d = 0x12345678},
        {.a = 0xff, .b = 0x12345678, .c = 32, .x = 8, .d = 0x12345678},
        {.a = 0xffffffff, .b = 0, .c = 28, .x = 8, .d = 0xf0000000});
    RUN("bfi.b64 %rd0, %rd1, %rd2, %r3, %r4;",
        {.a = 1, .b = 0, .c = 63, .x = 1, .d = 0x8000000000000000});
    RUN("szext.wrap.s32 %r0, %r1, %r2;", {.a = 0x80, .b = 8, .d = 0xffffff80},
        {.a = 0x1ff, .b = 40, .d = 0xffffffff}, {.a = 0x7f, .b = 8, .d = 0x7f});
    RUN("szext.clamp.u32 %r0, %r1, %r2;", {.a = 0xffffffff, .b = 8, .d = 0xff},
        {.a = 0xffffffff, .b = 40, .d = 0xffffffff});
    RUN("szext.wrap.u32 %r0, %r1, %r2;", {.a = 0xffffffff, .b = 0, .d = 0});
    RUN("szext.clamp.s32 %r0, %r1, %r2;", {.a = 0x80000000, .b = 40, .d = 0x80000000});
    RUN("bmsk.wrap.b32 %r0, %r1, %r2;", {.a = 1, .b = 2, .d = 6}, {.a = 0, .b = 32, .d = 0},
        {.a = 30, .b = 4, .d = 0xc0000000}, {.a = 4, .b = 0, .d = 0});
    RUN("bmsk.clamp.b32 %r0, %r1, %r2;", {.a = 0, .b = 32, .d = 0xffffffff},
        {.a = 32, .b = 4, .d = 0}, {.a = 8, .b = 8, .d = 0xff00});
}

static void test_alu_dot_products(void **state)
{
    (void)state;
    RUN("dp4a.u32.u32 %r0, %r1, %r2, %r3;", {.a = 0x01020304, .b = 0x01010101, .c = 10, .d = 20});
    RUN("dp4a.s32.s32 %r0, %r1, %r2, %r3;",
        {.a = 0xffffffff, .b = 0x02020202, .c = 0, .d = 0xfffffff8});
    RUN("dp4a.s32.u32 %r0, %r1, %r2, %r3;", {.a = 0xff, .b = 0xff, .c = 0, .d = 0xffffff01});
    RUN("dp2a.lo.u32.u32 %r0, %r1, %r2, %r3;", {.a = 0x00020001, .b = 0x04030201, .c = 0, .d = 5});
    RUN("dp2a.hi.u32.u32 %r0, %r1, %r2, %r3;", {.a = 0x00020001, .b = 0x04030201, .c = 0, .d = 11});
    RUN("dp2a.lo.s32.s32 %r0, %r1, %r2, %r3;",
        {.a = 0xffff0001, .b = 0x0000ff02, .c = 0xfffffffd, .d = 0});
}

static void test_alu_logic_and_lop3(void **state)
{
    (void)state;
    RUN("and.b32 %r0, %r1, %r2;", {.a = 0xff00ff00, .b = 0x0ff00ff0, .d = 0x0f000f00});
    RUN("or.b16 %h0, %h1, %h2;", {.a = 0xf000, .b = 0x000f, .d = 0xf00f});
    RUN("xor.b64 %rd0, %rd1, %rd2;", {.a = UINT64_MAX, .b = 1, .d = 0xfffffffffffffffe});
    RUN("not.b32 %r0, %r1;", {.a = 0, .d = 0xffffffff});
    RUN("not.b16 %h0, %h1;", {.a = 0x00ff, .d = 0xff00});
    RUN("cnot.b32 %r0, %r1;", {.a = 0, .d = 1}, {.a = 5, .d = 0});
    RUN("and.pred %p0, %p1, %p2;", {.a = 1, .b = 0, .d = 0}, {.a = 1, .b = 1, .d = 1});
    RUN("or.pred %p0, %p1, %p2;", {.a = 1, .b = 0, .d = 1}, {.a = 0, .b = 0, .d = 0});
    RUN("xor.pred %p0, %p1, %p2;", {.a = 1, .b = 1, .d = 0}, {.a = 0, .b = 1, .d = 1});
    RUN("not.pred %p0, %p1;", {.a = 1, .d = 0}, {.a = 0, .d = 1});
    /* immLut = F(0xf0, 0xcc, 0xaa) (PTX ISA lop3) */
    RUN("lop3.b32 %r0, %r1, %r2, %r3, %r4;",
        {.a = 0x0000ffff, .b = 0x00ff00ff, .c = 0x0f0f0f0f, .x = 0xf0, .d = 0x0000ffff},
        {.a = 0x0000ffff, .b = 0x00ff00ff, .c = 0x0f0f0f0f, .x = 0xcc, .d = 0x00ff00ff},
        {.a = 0x0000ffff, .b = 0x00ff00ff, .c = 0x0f0f0f0f, .x = 0xaa, .d = 0x0f0f0f0f},
        {.a = 0x0000ffff, .b = 0x00ff00ff, .c = 0x0f0f0f0f, .x = 0x96, .d = 0x0ff0f00f},
        {.a = 0x0000ffff, .b = 0x00ff00ff, .c = 0x0f0f0f0f, .x = 0x80, .d = 0x0000000f},
        {.a = 0x0000ffff, .b = 0x00ff00ff, .c = 0x0f0f0f0f, .x = 0xfe, .d = 0x0fffffff},
        {.a = 0x0000ffff, .b = 0x00ff00ff, .c = 0x0f0f0f0f, .x = 0xe8, .d = 0x000f0fff},
        {.a = 0x0000ffff, .b = 0x00ff00ff, .c = 0x0f0f0f0f, .x = 0x00, .d = 0});
}

/* Counts of at least the width: shl and shr.u give 0, shr.s fills with the sign. */
static void test_alu_shifts(void **state)
{
    (void)state;
    RUN("shl.b32 %r0, %r1, %r2;", {.a = 1, .b = 31, .d = 0x80000000}, {.a = 1, .b = 32, .d = 0},
        {.a = 1, .b = 0xffffffff, .d = 0}, {.a = 0x80000001, .b = 1, .d = 2});
    RUN("shl.b16 %h0, %h1, %r2;", {.a = 1, .b = 16, .d = 0}, {.a = 0x8001, .b = 1, .d = 2});
    RUN("shl.b64 %rd0, %rd1, %r2;", {.a = 1, .b = 63, .d = 0x8000000000000000},
        {.a = 1, .b = 64, .d = 0});
    RUN("shr.u32 %r0, %r1, %r2;", {.a = 0x80000000, .b = 31, .d = 1},
        {.a = 0x80000000, .b = 32, .d = 0});
    RUN("shr.b32 %r0, %r1, %r2;", {.a = 0x80000000, .b = 4, .d = 0x08000000});
    RUN("shr.s32 %r0, %r1, %r2;", {.a = 0x80000000, .b = 31, .d = 0xffffffff},
        {.a = 0x80000000, .b = 100, .d = 0xffffffff}, {.a = 0x40000000, .b = 100, .d = 0},
        {.a = 0xfffffff0, .b = 2, .d = 0xfffffffc});
    RUN("shr.s16 %h0, %h1, %r2;", {.a = 0x8000, .b = 15, .d = 0xffff},
        {.a = 0x8000, .b = 16, .d = 0xffff});
    RUN("shr.s64 %rd0, %rd1, %r2;", {.a = 0x8000000000000000, .b = 64, .d = UINT64_MAX});
    RUN("shf.l.clamp.b32 %r0, %r1, %r2, %r3;", {.a = 0x80000000, .b = 1, .c = 1, .d = 3},
        {.a = 0x80000000, .b = 1, .c = 32, .d = 0x80000000},
        {.a = 0x80000000, .b = 1, .c = 0, .d = 1});
    RUN("shf.l.wrap.b32 %r0, %r1, %r2, %r3;", {.a = 0x80000000, .b = 1, .c = 33, .d = 3});
    RUN("shf.r.clamp.b32 %r0, %r1, %r2, %r3;", {.a = 2, .b = 1, .c = 1, .d = 0x80000001},
        {.a = 2, .b = 1, .c = 40, .d = 1});
    RUN("shf.r.wrap.b32 %r0, %r1, %r2, %r3;", {.a = 2, .b = 1, .c = 32, .d = 2});
}

static void test_alu_prmt_modes(void **state)
{
    (void)state;
    RUN("prmt.b32 %r0, %r1, %r2, %r3;",
        {.a = 0x33221100, .b = 0x77665544, .c = 0x3210, .d = 0x33221100},
        {.a = 0x33221100, .b = 0x77665544, .c = 0x7654, .d = 0x77665544},
        {.a = 0x33221100, .b = 0x77665544, .c = 0x0123, .d = 0x00112233},
        {.a = 0x33221180, .b = 0x77665544, .c = 0x0008, .d = 0x808080ff});
    RUN("prmt.b32.f4e %r0, %r1, %r2, %r3;",
        {.a = 0x33221100, .b = 0x77665544, .c = 1, .d = 0x44332211},
        {.a = 0x33221100, .b = 0x77665544, .c = 3, .d = 0x66554433});
    RUN("prmt.b32.b4e %r0, %r1, %r2, %r3;",
        {.a = 0x33221100, .b = 0x77665544, .c = 1, .d = 0x66770011},
        {.a = 0x33221100, .b = 0x77665544, .c = 0, .d = 0x55667700});
    RUN("prmt.b32.rc8 %r0, %r1, %r2, %r3;",
        {.a = 0x33221100, .b = 0x77665544, .c = 2, .d = 0x22222222});
    RUN("prmt.b32.ecl %r0, %r1, %r2, %r3;",
        {.a = 0x33221100, .b = 0x77665544, .c = 1, .d = 0x33221111});
    RUN("prmt.b32.ecr %r0, %r1, %r2, %r3;",
        {.a = 0x33221100, .b = 0x77665544, .c = 2, .d = 0x22221100});
    RUN("prmt.b32.rc16 %r0, %r1, %r2, %r3;",
        {.a = 0x33221100, .b = 0x77665544, .c = 1, .d = 0x33223322},
        {.a = 0x33221100, .b = 0x77665544, .c = 0, .d = 0x11001100});
}

static void test_alu_video_simd(void **state)
{
    (void)state;
    RUN("vabsdiff4.u32.u32.u32.add %r0, %r1, %r2, %r3;",
        {.a = 0x01020304, .b = 0x04030201, .c = 100, .d = 108});
    RUN("vadd2.s32.s32.s32.sat %r0, %r1, %r2, %r3;",
        {.a = 0x7fff0001, .b = 0x00010001, .d = 0x7fff0002});
    RUN("vmax4.u32.u32.u32 %r0, %r1, %r2, %r3;",
        {.a = 0x01ff0310, .b = 0x02000411, .d = 0x02ff0411});
    RUN("vsub4.u32.u32.u32 %r0, %r1, %r2, %r3;", {.a = 0, .b = 0x01010101, .d = 0xffffffff});
    RUN("vavrg2.u32.u32.u32 %r0, %r1, %r2, %r3;",
        {.a = 0x00030001, .b = 0x00040002, .d = 0x00040002});
    RUN("vmin2.s32.s32.s32 %r0, %r1, %r2, %r3;",
        {.a = 0x8000ffff, .b = 0x00010001, .d = 0x8000ffff});
}

/* Integer comparisons: signed/unsigned by type, lo/ls/hi/hs always unsigned. */
static void test_alu_int_compare_select(void **state)
{
    (void)state;
    RUN_F("setp.lt.s32 %p0|%p1, %r1, %r2;", CHK_D2, {.a = 0xffffffff, .b = 1, .d = 1, .d2 = 0},
          {.a = 1, .b = 0xffffffff, .d = 0, .d2 = 1});
    RUN("setp.lt.u32 %p0, %r1, %r2;", {.a = 0xffffffff, .b = 1, .d = 0});
    RUN("setp.lo.u32 %p0, %r1, %r2;", {.a = 1, .b = 0xffffffff, .d = 1}, {.a = 2, .b = 2, .d = 0});
    RUN("setp.ls.u32 %p0, %r1, %r2;", {.a = 2, .b = 2, .d = 1}, {.a = 3, .b = 2, .d = 0});
    RUN("setp.hi.u32 %p0, %r1, %r2;", {.a = 0xffffffff, .b = 1, .d = 1});
    RUN("setp.hs.u32 %p0, %r1, %r2;", {.a = 1, .b = 1, .d = 1}, {.a = 0, .b = 1, .d = 0});
    RUN("setp.eq.b16 %p0, %h1, %h2;", {.a = 0x1234, .b = 0x1234, .d = 1},
        {.a = 0x1234, .b = 0x1235, .d = 0});
    RUN("setp.lt.s16 %p0, %h1, %h2;", {.a = 0x8000, .b = 0x7fff, .d = 1});
    RUN("setp.gt.s64 %p0, %rd1, %rd2;", {.a = 1, .b = UINT64_MAX, .d = 1},
        {.a = 0x8000000000000000, .b = 0, .d = 0});
    RUN("setp.le.u64 %p0, %rd1, %rd2;", {.a = UINT64_MAX, .b = 1, .d = 0});
    RUN("setp.ne.b32 %p0, %r1, %r2;", {.a = 1, .b = 2, .d = 1});
    RUN("setp.ge.s32 %p0, %r1, %r2;", {.a = 0x80000000, .b = 0x7fffffff, .d = 0});
    /* setp.lt.and p|q, a, b, c: p = (a < b) & c, q = !(a < b) & c */
    RUN_F("setp.lt.and.s32 %p0|%p1, %r1, %r2, %p2;", CHK_D2,
          {.a = 1, .b = 2, .c = 1, .d = 1, .d2 = 0}, {.a = 3, .b = 2, .c = 1, .d = 0, .d2 = 1},
          {.a = 1, .b = 2, .c = 0, .d = 0, .d2 = 0});
    RUN("setp.ne.or.u32 %p0, %r1, %r2, %p2;", {.a = 1, .b = 1, .c = 1, .d = 1},
        {.a = 1, .b = 1, .c = 0, .d = 0});
    RUN("set.lt.u32.s32 %r0, %r1, %r2;", {.a = 0xffffffff, .b = 1, .d = 0xffffffff},
        {.a = 1, .b = 0xffffffff, .d = 0});
    RUN("set.eq.f32.u32 %f0, %r1, %r2;", {.a = 7, .b = 7, .d = 0x3f800000},
        {.a = 7, .b = 8, .d = 0});
    RUN("set.ge.xor.s32.s32 %r0, %r1, %r2, %p3;", {.a = 2, .b = 1, .c = 1, .d = 0},
        {.a = 0, .b = 1, .c = 1, .d = 0xffffffff});
    RUN("selp.b32 %r0, %r1, %r2, %p3;", {.a = 10, .b = 20, .c = 1, .d = 10},
        {.a = 10, .b = 20, .c = 0, .d = 20});
    RUN("slct.s32.s32 %r0, %r1, %r2, %r3;", {.a = 10, .b = 20, .c = 0, .d = 10},
        {.a = 10, .b = 20, .c = 0xffffffff, .d = 20}, {.a = 10, .b = 20, .c = 0x7fffffff, .d = 10});
    RUN("slct.u64.s32 %rd0, %rd1, %rd2, %r3;", {.a = UINT64_MAX, .b = 1, .c = 0x80000000, .d = 1});
}

/* Error codes: PS_ENOTSUP for an unimplemented form, PS_EINVAL for a missing carry array. */
static void test_alu_error_codes(void **state)
{
    (void)state;
    assert_int_equal(exec_rc("mul.wide.s64 %rd0, %rd1, %rd2;", true), PS_ENOTSUP);
    assert_int_equal(exec_rc("lop3.or.b32 %r0|%p0, %r1, %r2, %r3, 0xf0, %p1;", true), PS_ENOTSUP);
    assert_int_equal(exec_rc("vadd.u32.u32.u32 %r0, %r1, %r2;", true), PS_ENOTSUP);
    assert_int_equal(exec_rc("addc.u32 %r0, %r1, %r2;", false), PS_EINVAL);
    assert_int_equal(exec_rc("add.cc.u32 %r0, %r1, %r2;", false), PS_EINVAL);
    assert_int_equal(exec_rc("add.u32 %r0, %r1, %r2;", false), 0);
    assert_true(isa_alu_handles(ISA_OP_ADD));
    assert_true(isa_alu_handles(ISA_OP_CVT));
    assert_false(isa_alu_handles(ISA_OP_LD));
    assert_false(isa_alu_handles(ISA_OP_MOV));
    assert_false(isa_alu_handles(ISA_OP_VADD));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alu_add_sub_wrap_and_sat), cmocka_unit_test(test_alu_carry_chains),
        cmocka_unit_test(test_alu_mul_parts_and_signs),  cmocka_unit_test(test_alu_mad_forms),
        cmocka_unit_test(test_alu_mul24_mad24_sad),      cmocka_unit_test(test_alu_div_rem),
        cmocka_unit_test(test_alu_abs_neg_min_max),      cmocka_unit_test(test_alu_bit_counts),
        cmocka_unit_test(test_alu_bit_fields),           cmocka_unit_test(test_alu_dot_products),
        cmocka_unit_test(test_alu_logic_and_lop3),       cmocka_unit_test(test_alu_shifts),
        cmocka_unit_test(test_alu_prmt_modes),           cmocka_unit_test(test_alu_video_simd),
        cmocka_unit_test(test_alu_int_compare_select),   cmocka_unit_test(test_alu_error_codes),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
