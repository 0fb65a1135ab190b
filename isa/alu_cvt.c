/*
 * cvt between u8..u64, s8..s64, f16, bf16, tf32, f32 and f64, and the
 * packing forms cvt.{f16x2,bf16x2}.f32 d, a, b (PTX ISA 9.0 section
 * 9.7.9.21). Float sources are widened to double exactly; every narrowing
 * to a float format goes through isa/half.c, which rounds once in the
 * requested direction without touching the host rounding mode.
 *
 * Rules applied: float-to-integer always saturates and NaN gives 0;
 * integer-to-integer .sat clamps to the destination range, otherwise the
 * source is sign- or zero-extended (by its own type) and truncated; .ftz
 * flushes f32 subnormal sources and f32 results; .sat on a float
 * destination clamps to [0.0, 1.0] with NaN and -0.0 giving +0.0; .relu
 * clamps negative results to +0.0; .satfinite turns infinities into the
 * largest finite value of the same sign.
 */
#include <math.h>

#include "isa/alu_impl.h"
#include "isa/half.h"

struct cctx {
    unsigned dw, sw;   /* destination and source widths */
    bool dsgn, ssgn;   /* signed integer types */
    unsigned dt, st;   /* destination and source types */
    int rnd;           /* enum isa_rnd */
    bool ftz, sat, relu, satf;
    double top;        /* float -> int: 2^(dw-1) (signed) or 2^dw, the first value out of range */
};

static enum isa_fmt fmt_of(unsigned t)
{
    switch (t) {
    case ISA_TYPE_F16: case ISA_TYPE_F16X2: return ISA_FMT_F16;
    case ISA_TYPE_BF16: case ISA_TYPE_BF16X2: return ISA_FMT_BF16;
    case ISA_TYPE_TF32: return ISA_FMT_TF32;
    case ISA_TYPE_F64: return ISA_FMT_F64;
    default: return ISA_FMT_F32;
    }
}

/* Integer source as a signed 128-bit value. */
static inline __int128 int_val(const struct cctx *c, uint64_t x)
{
    return c->ssgn ? (__int128)alu_sext(x, c->sw) : (__int128)(x & alu_wmask(c->sw));
}

/* int -> int: extend by the source type and truncate, or clamp under .sat. */
static inline uint64_t cvt_ii(const struct cctx *c, uint64_t x)
{
    __int128 v = int_val(c, x), lo = 0, hi;

    if (c->sat) {
        hi = c->dsgn ? ((__int128)1 << (c->dw - 1)) - 1 : ((__int128)1 << c->dw) - 1;
        lo = c->dsgn ? -((__int128)1 << (c->dw - 1)) : 0;
        v = v < lo ? lo : v > hi ? hi : v;
    }
    return (uint64_t)v & alu_wmask(c->dw);
}

/* Applies .ftz (f32), .sat, .relu and .satfinite to float destination bits. */
static uint64_t ffin(const struct cctx *c, uint64_t b)
{
    static const uint64_t one[] = {[ISA_FMT_F16] = 0x3c00, [ISA_FMT_BF16] = 0x3f80,
                                   [ISA_FMT_TF32] = 0x3f800000, [ISA_FMT_F32] = 0x3f800000,
                                   [ISA_FMT_F64] = UINT64_C(0x3ff0000000000000)};
    enum isa_fmt f = fmt_of(c->dt);
    uint64_t sign = UINT64_C(1) << (c->dw - 1), mag = b & (sign - 1);
    uint64_t inf = f == ISA_FMT_F16 ? 0x7c00 : f == ISA_FMT_BF16 ? 0x7f80
                   : f == ISA_FMT_F64 ? UINT64_C(0x7ff0000000000000) : 0x7f800000;
    bool nan = mag > inf;

    if (!c->ftz && !c->sat && !c->relu && !c->satf)
        return b;
    if (c->ftz && f == ISA_FMT_F32)
        b = alu_ftz32((uint32_t)b);
    if (c->sat)
        return nan || (b & sign) ? 0 : b > one[f] ? one[f] : b;
    if (c->relu && !nan && (b & sign))
        b = 0;
    if (c->satf && mag == inf) /* largest finite: one step below infinity */
        b = (b & sign) | (f == ISA_FMT_TF32 ? inf - 0x2000 : inf - 1);
    return b;
}

/* int -> float, rounded in c->rnd. */
static inline uint64_t cvt_if(const struct cctx *c, uint64_t x)
{
    __int128 v = int_val(c, x);
    bool neg = v < 0;
    uint64_t mag = (uint64_t)(neg ? -v : v);

    return ffin(c, isa_half_round(neg, mag, 0, false, fmt_of(c->dt), c->rnd));
}

/* Float source bits as an exact double (.ftz flushes an f32 subnormal). */
static inline double fsrc(const struct cctx *c, uint64_t x)
{
    if (c->st == ISA_TYPE_F32)
        return alu_f32(c->ftz ? alu_ftz32((uint32_t)x) : (uint32_t)x);
    return isa_half_to_double(x, fmt_of(c->st));
}

/* Round to an integral value by an integer rounding mode (rni/rzi/rmi/rpi). */
static inline double to_integral(double v, int rnd)
{
    switch (rnd) {
    case ISA_RND_RZI: return trunc(v);
    case ISA_RND_RMI: return floor(v);
    case ISA_RND_RPI: return ceil(v);
    default: return rint(v); /* ties to even in the default environment */
    }
}

/* float -> int: round, then saturate; NaN gives 0. */
static inline uint64_t cvt_fi(const struct cctx *c, uint64_t x)
{
    double v = to_integral(fsrc(c, x), c->rnd), top = c->top;

    if (v != v)
        return 0;
    if (v >= top)
        return c->dsgn ? alu_wmask(c->dw - 1) : alu_wmask(c->dw);
    if (c->dsgn) {
        if (v <= -top)
            return (UINT64_C(1) << (c->dw - 1)); /* most negative, zero-extended */
        return (uint64_t)(int64_t)v & alu_wmask(c->dw);
    }
    return v <= 0 ? 0 : (uint64_t)v;
}

/* float -> float: widen exactly or round once; irnd rounds to an integral value. */
static inline uint64_t cvt_ff(const struct cctx *c, uint64_t x)
{
    double v = fsrc(c, x);
    int rnd = c->rnd;

    if (rnd >= ISA_RND_RNI) {
        v = to_integral(v, rnd);
        rnd = ISA_RND_RN;
    }
    if (c->dt == ISA_TYPE_F64)
        return ffin(c, v != v ? ISA_F64_NAN : alu_b64(v));
    if (c->dt == ISA_TYPE_F32 && c->st != ISA_TYPE_F64) /* exact: f16/bf16/f32 fit in f32 */
        return ffin(c, v != v ? ISA_F32_NAN : alu_b32((float)v));
    if (c->st == ISA_TYPE_F32 && rnd == ISA_RND_RN && c->dt == ISA_TYPE_F16)
        return ffin(c, isa_half_f16_from_f32_rn((uint32_t)alu_b32((float)v)));
    if (c->st == ISA_TYPE_F32 && rnd == ISA_RND_RN && c->dt == ISA_TYPE_BF16)
        return ffin(c, isa_half_bf16_from_f32_rn((uint32_t)alu_b32((float)v)));
    return ffin(c, isa_half_from_double(v, fmt_of(c->dt), rnd));
}

/* int -> f32/f64 rounded to nearest: the host conversion (default environment) is exact IEEE. */
static void cvt_if_native(struct isa_alu_args *a, const struct cctx *c)
{
    bool f64 = c->dt == ISA_TYPE_F64;
    uint64_t wm = alu_wmask(c->sw);

    if (c->ssgn) {
        ALU_FOR(a->mask) {
            int64_t v = alu_sext(a->s[0][l], c->sw);

            a->d[l] = f64 ? alu_b64((double)v) : alu_b32((float)v);
        }
    } else {
        ALU_FOR(a->mask) {
            uint64_t v = a->s[0][l] & wm;

            a->d[l] = f64 ? alu_b64((double)v) : alu_b32((float)v);
        }
    }
}

static bool cvt_type_ok(unsigned t)
{
    unsigned k = alu_tkind(t);

    if (k == ISA_TK_UINT || k == ISA_TK_SINT || k == ISA_TK_BITS)
        return alu_tbits(t) >= 8 && alu_tbits(t) <= 64 && t != ISA_TYPE_U16X2 &&
               t != ISA_TYPE_S16X2;
    return t == ISA_TYPE_F16 || t == ISA_TYPE_BF16 || t == ISA_TYPE_TF32 ||
           t == ISA_TYPE_F32 || t == ISA_TYPE_F64;
}

/* cvt{.rnd}{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a to the upper half. */
static int cvt_pack(struct isa_alu_args *a, struct cctx *c)
{
    if (!a->s[1])
        return PS_EINVAL;
    c->dt = c->dt == ISA_TYPE_F16X2 ? ISA_TYPE_F16 : ISA_TYPE_BF16;
    c->dw = 16;
    ALU_FOR(a->mask) a->d[l] = cvt_ff(c, a->s[0][l]) << 16 | cvt_ff(c, a->s[1][l]);
    return 0;
}

int isa_alu_exec_cvt(struct isa_alu_args *a)
{
    const struct isa_instr *in = a->in;
    unsigned dt = in->types[0], st = in->ntypes > 1 ? in->types[1] : in->types[0];
    struct cctx c = {alu_tbits(dt),
                     alu_tbits(st),
                     alu_tkind(dt) == ISA_TK_SINT,
                     alu_tkind(st) == ISA_TK_SINT,
                     dt,
                     st,
                     in->round,
                     in->ftz,
                     in->sat,
                     isa_instr_has_mod(in, ISA_MOD_RELU),
                     alu_mod(in, ISA_CAT_SATFINITE) != 0,
                     0.0};
    bool dfp, sfp;

    if (!in->ntypes || in->round == ISA_RND_RS) /* .rs needs the rbits operand */
        return PS_ENOTSUP;
    if (!a->s[0])
        return PS_EINVAL;
    if ((dt == ISA_TYPE_F16X2 || dt == ISA_TYPE_BF16X2) && st == ISA_TYPE_F32) {
        c.st = st;
        c.rnd = c.rnd ? c.rnd : ISA_RND_RN;
        return cvt_pack(a, &c);
    }
    if (!cvt_type_ok(dt) || !cvt_type_ok(st))
        return PS_ENOTSUP;
    dfp = alu_tkind(dt) == ISA_TK_FLOAT;
    sfp = alu_tkind(st) == ISA_TK_FLOAT;
    if (!c.rnd) /* float -> int truncates when no rounding is written; the rest round to nearest */
        c.rnd = (sfp && !dfp) ? ISA_RND_RZI : ISA_RND_RN;
    if (!dfp && !sfp) {
        ALU_FOR(a->mask) a->d[l] = cvt_ii(&c, a->s[0][l]);
    } else if (dfp && !sfp) {
        c.rnd = c.rnd >= ISA_RND_RNI ? ISA_RND_RN : c.rnd;
        if (c.rnd == ISA_RND_RN && !c.sat && (dt == ISA_TYPE_F32 || dt == ISA_TYPE_F64)) {
            cvt_if_native(a, &c);
        } else {
            ALU_FOR(a->mask) a->d[l] = cvt_if(&c, a->s[0][l]);
        }
    } else if (!dfp) {
        if (c.rnd >= ISA_RND_RN && c.rnd <= ISA_RND_RP) /* .rn etc. read as .rni etc. */
            c.rnd = c.rnd - ISA_RND_RN + ISA_RND_RNI;
        c.top = ldexp(1.0, (int)c.dw - (c.dsgn ? 1 : 0));
        ALU_FOR(a->mask) a->d[l] = cvt_fi(&c, a->s[0][l]);
    } else {
        ALU_FOR(a->mask) a->d[l] = cvt_ff(&c, a->s[0][l]);
    }
    return 0;
}
