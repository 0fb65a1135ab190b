/*
 * Lane-wise semantics of PTX data-processing instructions: integer and bit
 * arithmetic, floating point (f16/bf16/f32/f64), comparison and selection,
 * and conversion, executed for all active lanes of a warp at once.
 *
 * The interpreter decodes the operands of one instruction into per-lane
 * arrays of raw bits and calls isa_alu_exec(); this module never sees
 * registers, memory or control flow. The switch on opcode and type happens
 * once per call, outside the lane loops, so each loop is a tight pass over
 * the 32 lanes. Results follow PTX ISA 9.0 bit for bit where the ISA defines
 * them; where it leaves a result unspecified the choice is stated below.
 *
 * Choices where PTX leaves the result unspecified:
 *   - Integer division and remainder by zero give all ones in the
 *     instruction's width for every type (u32 x/0 = 0xffffffff, s32 x/0 = -1,
 *     x%0 likewise), which is what the 32-bit sequences ptxas emits return.
 *     INT_MIN / -1 wraps to INT_MIN and INT_MIN % -1 is 0.
 *   - NaN results of arithmetic are canonical: 0x7fffffff (f32, as the CUDA
 *     guide states), 0x7fffffffffffffff (f64), 0x7fff (f16, bf16).
 *     abs/neg/copysign only touch the sign bit, except that f64 abs/neg
 *     pass a NaN through unchanged (CUDA guide, floating-point standard).
 *   - .approx functions (sin, cos, lg2, ex2, tanh, rsqrt, rcp.approx) return
 *     the host libm value computed in double (long double for f64 rsqrt)
 *     rounded to nearest in the destination type, with the special cases of
 *     the PTX tables (and .ftz flushing). div.approx.f32 is a * (1/b), each
 *     rounded to nearest, and returns 0 (NaN when a is infinite) for
 *     2^126 < |b| < 2^128 as PTX documents. div.full.f32 is rounded to
 *     nearest even (within its 2 ulp bound).
 *   - .ftz flushes subnormal inputs, and results that are subnormal after
 *     rounding, to zero of the same sign.
 *   - .cc on sub/subc stores the borrow (PTX: "borrow-out written to
 *     CC.CF"); subc consumes it as a borrow.
 *   - .rz/.rm/.rp on f32/f64 switch the host rounding mode around the lane
 *     loop (and restore it); everything else assumes the default
 *     round-to-nearest environment.
 *
 * Not implemented (PS_ENOTSUP): lop3 with a .BoolOp predicate output,
 * cvt.rs (random rounding), the fp8/fp6/fp4 and ue8m0 cvt forms, the scalar
 * video instructions (vadd, vmad, vset, ...) and vset2/vset4; the SIMD
 * video instructions run with their default selectors and mask only.
 */
#ifndef PTXSIM_ISA_ALU_H
#define PTXSIM_ISA_ALU_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/opcode.h"

struct isa_instr;

#define ISA_ALU_LANES 32

/*
 * One data-processing instruction over the lanes of a warp. All values are
 * raw bits in uint64_t, zero-extended for types narrower than 64 bits;
 * predicates are 0 or 1. Each source array holds one value per lane; only
 * lanes whose bit is set in mask are read or written. A source written !p
 * arrives already inverted.
 *
 * Results are the bits of the instruction's destination type, zero-extended
 * (a caller writing a signed result into a wider register sign-extends it,
 * PTX ISA 6.4 "operand size exceeding instruction-type size").
 *
 * Operand order follows the PTX text after the destination:
 *   s[0..2] = a, b, c; s[3] = lop3's immLut or bfi's length.
 *   setp/set with a combine: s[2] = c (predicate); p goes to d, q to d2.
 *   cvt.f16x2.f32 / cvt.bf16x2.f32 d, a, b: a lands in the upper half.
 *   lop3 with a .BoolOp and predicate output is not supported (no slot).
 */
struct isa_alu_args {
    const struct isa_instr *in;
    uint32_t mask;
    uint64_t *d;          /* destination per lane */
    uint64_t *d2;         /* second destination: setp's q in p|q, or NULL */
    const uint64_t *s[4]; /* sources in operand order */
    uint8_t *cc;          /* per-lane carry flag for .cc/addc/subc/madc (in/out) */
};

/*
 * Executes a->in on the lanes in a->mask. Returns 0; PS_ENOTSUP
 * (common/err.h) for an opcode, type or modifier combination that is not
 * implemented, before anything is written; PS_EINVAL when an operand array
 * the instruction needs (d2, cc, s[i]) is NULL. Borrows everything.
 */
int isa_alu_exec(struct isa_alu_args *a);

/* Whether isa_alu_exec implements this opcode for at least some types. */
bool isa_alu_handles(enum isa_op op);

#endif
