/*
 * f32 and f64 arithmetic (PTX ISA 9.0 section 9.7.3). Round-to-nearest runs
 * on the host's IEEE arithmetic directly; .rz/.rm/.rp switch the host
 * rounding mode (fesetround) around the lane loop, so every operation in it
 * is rounded once in the requested direction. NaN results are canonical
 * (isa/alu.h); .ftz flushes subnormal inputs and rounded results.
 */
#include <fenv.h>
#include <math.h>

#include "isa/alu_impl.h"
#include "isa/half.h"

struct fctx {
    const uint64_t *x, *y, *z;
    uint64_t *d;
    uint32_t m;
    bool ftz, sat;
};

/* f32 operand bits for lane l, flushed under .ftz */
#define LD32(p) alu_f32(c->ftz ? alu_ftz32((uint32_t)(p)[l]) : (uint32_t)(p)[l])
#define LD64(p) alu_f64((p)[l])

/* Result bits of an f32 operation: canonical NaN, .ftz, then .sat ([0, 1], NaN -> +0). */
static inline uint64_t fin32(float r, bool ftz, bool sat)
{
    uint32_t b = (uint32_t)alu_b32(r);

    if ((b & 0x7fffffffu) > 0x7f800000u)
        return sat ? 0 : ISA_F32_NAN;
    if (ftz)
        b = alu_ftz32(b);
    if (sat)
        b = (b >> 31) ? 0 : b > 0x3f800000u ? 0x3f800000u : b;
    return b;
}

static inline uint64_t fin64(double r)
{
    return r != r ? ISA_F64_NAN : alu_b64(r);
}

/*
 * Switches the host to a directed rounding mode for one lane loop; returns
 * the mode to restore, or -1 when nothing changed. Each loop stores its
 * results to memory before round_pop() (an opaque call), so the compiler
 * cannot move the rounded operations past the switch.
 */
static int round_push(unsigned rnd)
{
    int mode, prev;

    switch (rnd) {
    case ISA_RND_RZ: mode = FE_TOWARDZERO; break;
    case ISA_RND_RM: mode = FE_DOWNWARD; break;
    case ISA_RND_RP: mode = FE_UPWARD; break;
    default: return -1;
    }
    prev = fegetround();
    return fesetround(mode) == 0 ? prev : -1;
}

static void round_pop(int prev)
{
    if (prev >= 0)
        fesetround(prev);
}

/* add, sub, mul, fma/mad (.f32): rounded once in the instruction's direction. */
static int f32_arith(enum isa_op op, const struct fctx *c, unsigned rnd)
{
    int pushed = round_push(rnd);

    switch (op) {
    case ISA_OP_ADD: ALU_FOR(c->m) c->d[l] = fin32(LD32(c->x) + LD32(c->y), c->ftz, c->sat); break;
    case ISA_OP_SUB: ALU_FOR(c->m) c->d[l] = fin32(LD32(c->x) - LD32(c->y), c->ftz, c->sat); break;
    case ISA_OP_MUL: ALU_FOR(c->m) c->d[l] = fin32(LD32(c->x) * LD32(c->y), c->ftz, c->sat); break;
    default:
        ALU_FOR(c->m) c->d[l] = fin32(fmaf(LD32(c->x), LD32(c->y), LD32(c->z)), c->ftz, c->sat);
        break;
    }
    round_pop(pushed);
    return 0;
}

static int f64_arith(enum isa_op op, const struct fctx *c, unsigned rnd)
{
    int pushed = round_push(rnd);

    switch (op) {
    case ISA_OP_ADD: ALU_FOR(c->m) c->d[l] = fin64(LD64(c->x) + LD64(c->y)); break;
    case ISA_OP_SUB: ALU_FOR(c->m) c->d[l] = fin64(LD64(c->x) - LD64(c->y)); break;
    case ISA_OP_MUL: ALU_FOR(c->m) c->d[l] = fin64(LD64(c->x) * LD64(c->y)); break;
    case ISA_OP_DIV: ALU_FOR(c->m) c->d[l] = fin64(LD64(c->x) / LD64(c->y)); break;
    case ISA_OP_RCP: ALU_FOR(c->m) c->d[l] = fin64(1.0 / LD64(c->x)); break;
    case ISA_OP_SQRT: ALU_FOR(c->m) c->d[l] = fin64(sqrt(LD64(c->x))); break;
    default: ALU_FOR(c->m) c->d[l] = fin64(fma(LD64(c->x), LD64(c->y), LD64(c->z))); break;
    }
    round_pop(pushed);
    return 0;
}

/* div.approx.f32: a * (1/b); 0 (NaN for infinite a) when 2^126 < |b| < 2^128. */
static inline float div_approx(float x, float y)
{
    float ay = fabsf(y);

    if (ay > 0x1p126f && ay < INFINITY)
        return isinf(x) ? NAN : (signbit(x) != signbit(y) ? -0.0f : 0.0f);
    return x * (1.0f / y);
}

/* div, rcp, sqrt (.f32): .approx/.full round to nearest, .rnd as given. */
static int f32_divsqrt(enum isa_op op, const struct fctx *c, const struct isa_instr *in)
{
    bool approx = in->prec == ISA_PREC_APPROX;
    int pushed = in->prec ? -1 : round_push(in->round);

    switch (op) {
    case ISA_OP_DIV:
        if (approx) {
            ALU_FOR(c->m) c->d[l] = fin32(div_approx(LD32(c->x), LD32(c->y)), c->ftz, false);
        } else {
            ALU_FOR(c->m) c->d[l] = fin32(LD32(c->x) / LD32(c->y), c->ftz, false);
        }
        break;
    case ISA_OP_RCP: ALU_FOR(c->m) c->d[l] = fin32(1.0f / LD32(c->x), c->ftz, false); break;
    default: ALU_FOR(c->m) c->d[l] = fin32(sqrtf(LD32(c->x)), c->ftz, false); break;
    }
    round_pop(pushed);
    return 0;
}

/* The approximate f32 functions: libm in double, rounded once to f32. */
static int f32_approx(enum isa_op op, const struct fctx *c)
{
    switch (op) {
    case ISA_OP_SIN: ALU_FOR(c->m) c->d[l] = fin32((float)sin(LD32(c->x)), c->ftz, false); break;
    case ISA_OP_COS: ALU_FOR(c->m) c->d[l] = fin32((float)cos(LD32(c->x)), c->ftz, false); break;
    case ISA_OP_LG2: ALU_FOR(c->m) c->d[l] = fin32((float)log2(LD32(c->x)), c->ftz, false); break;
    case ISA_OP_EX2: ALU_FOR(c->m) c->d[l] = fin32((float)exp2(LD32(c->x)), c->ftz, false); break;
    case ISA_OP_TANH: ALU_FOR(c->m) c->d[l] = fin32((float)tanh(LD32(c->x)), c->ftz, false); break;
    case ISA_OP_RSQRT:
        ALU_FOR(c->m) c->d[l] = fin32((float)(1.0 / sqrt(LD32(c->x))), c->ftz, false);
        break;
    default: return PS_ENOTSUP;
    }
    return 0;
}

/*
 * rcp.approx.ftz.f64: 1/x of the upper word of x (1.11.20), result in the
 * upper word with the low 32 bits zero; NaN gives 0x7fffffff00000000.
 */
static uint64_t rcp_approx_f64(uint64_t b)
{
    uint64_t hi = b & UINT64_C(0xffffffff00000000), sign = b & UINT64_C(0x8000000000000000);
    uint64_t r;

    if ((hi & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000) &&
        (hi & UINT64_C(0x000fffff00000000)))
        return UINT64_C(0x7fffffff00000000);
    if (!(hi & UINT64_C(0x7ff0000000000000)))
        return sign | UINT64_C(0x7ff0000000000000); /* zero or subnormal: infinity */
    r = alu_b64(1.0 / alu_f64(hi)) & UINT64_C(0xffffffff00000000);
    return alu_ftz64(r);
}

/* rsqrt.approx{.ftz}.f64: 1/sqrt in long double, rounded to nearest. */
static uint64_t rsqrt_f64(uint64_t b, bool ftz)
{
    long double x = alu_f64(ftz ? alu_ftz64(b) : b);
    uint64_t r = fin64((double)(1.0L / sqrtl(x)));

    return ftz ? alu_ftz64(r) : r;
}

/* min/max on doubles: NaN rules of PTX (-0 < +0); prop = .NaN. */
static inline double pick(double x, double y, bool max, bool prop)
{
    if (x != x || y != y) {
        if (prop || (x != x && y != y))
            return NAN;
        return x != x ? y : x;
    }
    if (x == y)
        return signbit(x) != max ? x : y;
    return (x < y) != max ? x : y;
}

/* min/max {.ftz}{.NaN}{.xorsign.abs} .f32/.f64, two or three inputs. */
static int f_minmax(struct isa_alu_args *a, const struct fctx *c, bool f64, bool max)
{
    const struct isa_instr *in = a->in;
    bool prop = isa_instr_has_mod(in, ISA_MOD_NAN_), abs = isa_instr_has_mod(in, ISA_MOD_ABS);
    bool xs = isa_instr_has_mod(in, ISA_MOD_XORSIGN), three = in->nops >= 4 && c->z;

    ALU_FOR(c->m) {
        double x = f64 ? LD64(c->x) : LD32(c->x), y = f64 ? LD64(c->y) : LD32(c->y), r;
        bool neg = xs && (signbit(x) != signbit(y));

        if (abs) {
            x = fabs(x);
            y = fabs(y);
        }
        r = pick(x, y, max, prop);
        if (three)
            r = pick(r, abs ? fabs(f64 ? LD64(c->z) : LD32(c->z)) : (f64 ? LD64(c->z) : LD32(c->z)),
                     max, prop);
        if (neg && r == r)
            r = -r;
        c->d[l] = f64 ? fin64(r) : fin32((float)r, false, false);
    }
    return 0;
}

/*
 * abs, neg, copysign: sign-bit operations. Following the CUDA programming
 * guide (floating-point standard), f32 abs/neg act on the sign of a NaN as
 * IEEE 754 says, while f64 abs/neg pass a NaN through unchanged.
 */
static int f_sign(enum isa_op op, const struct fctx *c, bool f64)
{
    const uint64_t inf64 = UINT64_C(0x7ff0000000000000), sb64 = UINT64_C(0x8000000000000000);

    if (op == ISA_OP_COPYSIGN) { /* d = b with the sign of a */
        uint64_t sb = f64 ? sb64 : 0x80000000u;

        ALU_FOR(c->m) c->d[l] = (c->y[l] & ~sb) | (c->x[l] & sb);
    } else if (f64) {
        ALU_FOR(c->m) {
            uint64_t x = c->x[l];

            c->d[l] = (x & ~sb64) > inf64 ? x : op == ISA_OP_ABS ? x & ~sb64 : x ^ sb64;
        }
    } else {
        ALU_FOR(c->m) {
            uint32_t x = c->ftz ? alu_ftz32((uint32_t)c->x[l]) : (uint32_t)c->x[l];

            c->d[l] = op == ISA_OP_ABS ? x & 0x7fffffffu : x ^ 0x80000000u;
        }
    }
    return 0;
}

static int exec_f32(struct isa_alu_args *a, struct fctx *c)
{
    const struct isa_instr *in = a->in;
    enum isa_op op = (enum isa_op)in->op;

    switch (op) {
    case ISA_OP_ADD: case ISA_OP_SUB: case ISA_OP_MUL:
        return f32_arith(op, c, in->round);
    case ISA_OP_FMA: case ISA_OP_MAD:
        return c->z ? f32_arith(ISA_OP_FMA, c, in->round) : PS_EINVAL;
    case ISA_OP_DIV: case ISA_OP_RCP: case ISA_OP_SQRT:
        return f32_divsqrt(op, c, in);
    case ISA_OP_MIN: case ISA_OP_MAX:
        return f_minmax(a, c, false, op == ISA_OP_MAX);
    case ISA_OP_ABS: case ISA_OP_NEG: case ISA_OP_COPYSIGN:
        return f_sign(op, c, false);
    default:
        return f32_approx(op, c);
    }
}

static int exec_f64(struct isa_alu_args *a, struct fctx *c)
{
    const struct isa_instr *in = a->in;
    enum isa_op op = (enum isa_op)in->op;

    switch (op) {
    case ISA_OP_ADD: case ISA_OP_SUB: case ISA_OP_MUL: case ISA_OP_DIV: case ISA_OP_SQRT:
        return f64_arith(op, c, in->round);
    case ISA_OP_FMA: case ISA_OP_MAD:
        return c->z ? f64_arith(ISA_OP_FMA, c, in->round) : PS_EINVAL;
    case ISA_OP_RCP:
        if (in->prec == ISA_PREC_APPROX) {
            ALU_FOR(c->m) c->d[l] = rcp_approx_f64(c->x[l]);
            return 0;
        }
        return f64_arith(op, c, in->round);
    case ISA_OP_RSQRT:
        ALU_FOR(c->m) c->d[l] = rsqrt_f64(c->x[l], c->ftz);
        return 0;
    case ISA_OP_MIN: case ISA_OP_MAX:
        return f_minmax(a, c, true, op == ISA_OP_MAX);
    case ISA_OP_ABS: case ISA_OP_NEG: case ISA_OP_COPYSIGN:
        return f_sign(op, c, true);
    default:
        return PS_ENOTSUP;
    }
}

int isa_alu_exec_float(struct isa_alu_args *a)
{
    const struct isa_instr *in = a->in;
    struct fctx c = {a->s[0], a->s[1], a->s[2], a->d, a->mask, in->ftz, in->sat};
    enum isa_op op = (enum isa_op)in->op;
    bool unary = op == ISA_OP_ABS || op == ISA_OP_NEG || op == ISA_OP_RCP || op == ISA_OP_SQRT ||
                 op == ISA_OP_RSQRT || op == ISA_OP_SIN || op == ISA_OP_COS ||
                 op == ISA_OP_LG2 || op == ISA_OP_EX2 || op == ISA_OP_TANH;

    if (!c.x || (!unary && !c.y))
        return PS_EINVAL;
    return in->types[0] == ISA_TYPE_F64 ? exec_f64(a, &c) : exec_f32(a, &c);
}
