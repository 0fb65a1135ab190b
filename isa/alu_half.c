/*
 * f16, f16x2, bf16 and bf16x2 arithmetic (PTX ISA 9.0 section 9.7.4) as
 * nvcc emits it for cuda_fp16.h / cuda_bf16.h. Each element is widened to
 * double (exactly), computed there (sums rounded to odd, products exact)
 * and rounded once into its format by isa/half.c, so results are correctly
 * rounded. Packed x2 types apply the operation to both 16-bit halves.
 */
#include <math.h>

#include "isa/alu_impl.h"
#include "isa/half.h"

struct hctx {
    enum isa_fmt fmt;
    int rnd;
    bool ftz, sat, relu, prop, abs, xs, max;
};

static inline double hload(const struct hctx *h, uint64_t b)
{
    uint32_t v = (uint32_t)b & 0xffff;

    if (h->fmt == ISA_FMT_BF16)
        return isa_half_bf16_to_double(h->ftz ? isa_half_ftz_bf16(v) : v);
    return isa_half_f16_to_double(h->ftz ? isa_half_ftz_f16(v) : v);
}

/* Rounds r into the format and applies .ftz, .sat and .relu to the bits. */
static inline uint32_t hfin(const struct hctx *h, double r)
{
    uint32_t b = (uint32_t)isa_half_from_double(r, h->fmt, h->rnd);
    uint32_t one = h->fmt == ISA_FMT_F16 ? 0x3c00u : 0x3f80u;
    bool nan = h->fmt == ISA_FMT_F16 ? (b & 0x7fff) > 0x7c00 : (b & 0x7fff) > 0x7f80;

    if (h->ftz && !nan)
        b = h->fmt == ISA_FMT_F16 ? isa_half_ftz_f16(b) : isa_half_ftz_bf16(b);
    if (h->sat)
        b = nan || (b & 0x8000) ? 0 : b > one ? one : b;
    if (h->relu && !nan && (b & 0x8000))
        b = 0;
    return b;
}

static inline uint32_t h_add(const struct hctx *h, uint64_t x, uint64_t y, uint64_t z)
{
    (void)z;
    return hfin(h, isa_half_add_odd(hload(h, x), hload(h, y)));
}

static inline uint32_t h_sub(const struct hctx *h, uint64_t x, uint64_t y, uint64_t z)
{
    (void)z;
    return hfin(h, isa_half_add_odd(hload(h, x), -hload(h, y)));
}

static inline uint32_t h_mul(const struct hctx *h, uint64_t x, uint64_t y, uint64_t z)
{
    (void)z;
    return hfin(h, hload(h, x) * hload(h, y)); /* exact in double */
}

static inline uint32_t h_fma(const struct hctx *h, uint64_t x, uint64_t y, uint64_t z)
{
    return hfin(h, isa_half_add_odd(hload(h, x) * hload(h, y), hload(h, z)));
}

static inline uint32_t h_ex2(const struct hctx *h, uint64_t x, uint64_t y, uint64_t z)
{
    (void)y;
    (void)z;
    return hfin(h, exp2(hload(h, x)));
}

static inline uint32_t h_tanh(const struct hctx *h, uint64_t x, uint64_t y, uint64_t z)
{
    (void)y;
    (void)z;
    return hfin(h, tanh(hload(h, x)));
}

/* abs/neg: sign bit only (after .ftz); NaN passes through. */
static inline uint32_t h_abs(const struct hctx *h, uint64_t x, uint64_t y, uint64_t z)
{
    uint32_t v = (uint32_t)x & 0xffff;

    (void)y;
    (void)z;
    if (h->ftz && h->fmt == ISA_FMT_F16)
        v = isa_half_ftz_f16(v);
    return v & 0x7fff;
}

static inline uint32_t h_neg(const struct hctx *h, uint64_t x, uint64_t y, uint64_t z)
{
    uint32_t v = (uint32_t)x & 0xffff;

    (void)y;
    (void)z;
    if (h->ftz && h->fmt == ISA_FMT_F16)
        v = isa_half_ftz_f16(v);
    return v ^ 0x8000;
}

/* min/max {.NaN}{.xorsign.abs}: -0 < +0; one NaN input gives the other. */
static inline uint32_t h_minmax(const struct hctx *h, uint64_t xb, uint64_t yb, uint64_t z)
{
    double x = hload(h, xb), y = hload(h, yb), r;
    bool neg = h->xs && (signbit(x) != signbit(y));

    (void)z;
    if (h->abs) {
        x = fabs(x);
        y = fabs(y);
    }
    if (x != x || y != y)
        r = (h->prop || (x != x && y != y)) ? NAN : (x != x ? y : x);
    else if (x == y)
        r = signbit(x) != h->max ? x : y;
    else
        r = (x < y) != h->max ? x : y;
    if (neg && r == r)
        r = -r;
    return (uint32_t)isa_half_from_double(r, h->fmt, ISA_RND_RN);
}

/* Applies fn to each 16-bit element of every active lane (w = 16 or 32). */
#define H_LOOP(fn)                                                                               \
    ALU_FOR(a->mask) {                                                                           \
        uint64_t r = 0;                                                                          \
        for (unsigned sh = 0; sh < w; sh += 16)                                                  \
            r |= (uint64_t)fn(&h, x[l] >> sh, y ? y[l] >> sh : 0, z ? z[l] >> sh : 0) << sh;     \
        a->d[l] = r;                                                                             \
    }

int isa_alu_exec_half(struct isa_alu_args *a)
{
    const struct isa_instr *in = a->in;
    enum isa_op op = (enum isa_op)in->op;
    unsigned t = in->types[0], w = alu_tbits(t);
    const uint64_t *x = a->s[0], *y = a->s[1], *z = a->s[2];
    struct hctx h = {t == ISA_TYPE_F16 || t == ISA_TYPE_F16X2 ? ISA_FMT_F16 : ISA_FMT_BF16,
                     in->round ? in->round : ISA_RND_RN,
                     in->ftz,
                     in->sat,
                     isa_instr_has_mod(in, ISA_MOD_RELU),
                     isa_instr_has_mod(in, ISA_MOD_NAN_),
                     isa_instr_has_mod(in, ISA_MOD_ABS),
                     isa_instr_has_mod(in, ISA_MOD_XORSIGN),
                     op == ISA_OP_MAX};

    if (!x)
        return PS_EINVAL;
    if ((op == ISA_OP_ADD || op == ISA_OP_SUB || op == ISA_OP_MUL || op == ISA_OP_MIN ||
         op == ISA_OP_MAX) && !y)
        return PS_EINVAL;
    if ((op == ISA_OP_FMA || op == ISA_OP_MAD) && (!y || !z))
        return PS_EINVAL;
    switch (op) {
    case ISA_OP_ADD: H_LOOP(h_add); break;
    case ISA_OP_SUB: H_LOOP(h_sub); break;
    case ISA_OP_MUL: H_LOOP(h_mul); break;
    case ISA_OP_FMA: case ISA_OP_MAD: H_LOOP(h_fma); break;
    case ISA_OP_EX2: H_LOOP(h_ex2); break;
    case ISA_OP_TANH: H_LOOP(h_tanh); break;
    case ISA_OP_ABS: H_LOOP(h_abs); break;
    case ISA_OP_NEG: H_LOOP(h_neg); break;
    case ISA_OP_MIN: case ISA_OP_MAX: H_LOOP(h_minmax); break;
    default: return PS_ENOTSUP;
    }
    return 0;
}
