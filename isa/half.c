/*
 * Correctly rounded narrowing into f16, bf16, tf32, f32 and f64 (see
 * isa/half.h). Everything is integer arithmetic on significands, so the
 * result does not depend on the host's rounding mode.
 */
#include "isa/half.h"

#include <math.h>
#include <string.h>

#include "isa/opcode.h"

struct fmt_info {
    uint8_t mbits; /* explicit significand bits */
    uint8_t ebits; /* exponent field bits */
    int16_t emin;  /* exponent of the smallest normal number */
    uint8_t lshift; /* where the encoding sits in the result (tf32 in f32) */
};

static const struct fmt_info fmts[] = {
    [ISA_FMT_F16] = {10, 5, -14, 0},
    [ISA_FMT_BF16] = {7, 8, -126, 0},
    [ISA_FMT_TF32] = {10, 8, -126, 13},
    [ISA_FMT_F32] = {23, 8, -126, 0},
    [ISA_FMT_F64] = {52, 11, -1022, 0},
};

static uint64_t dbl_bits(double x)
{
    uint64_t b;

    memcpy(&b, &x, sizeof(b));
    return b;
}

static double dbl_of(uint64_t b)
{
    double x;

    memcpy(&x, &b, sizeof(x));
    return x;
}

/* Whether a value that lies between two neighbours rounds away from zero. */
static bool round_up(int rnd, bool neg, bool odd, bool half, bool rest)
{
    switch (rnd) {
    case ISA_RND_RZ: return false;
    case ISA_RND_RM: return neg && (half || rest);
    case ISA_RND_RP: return !neg && (half || rest);
    case ISA_RND_RNA: return half;
    default: return half && (rest || odd);
    }
}

/* Splits mag at bit `shift`: returns the kept part, sets the rounding bits. */
static uint64_t split(uint64_t mag, int shift, bool *half, bool *rest)
{
    if (shift <= 0) {
        *half = false;
        return mag << -shift;
    }
    if (shift > 64) {
        *half = false;
        *rest = *rest || mag;
        return 0;
    }
    *half = mag >> (shift - 1) & 1;
    *rest = *rest || (mag & ((UINT64_C(1) << (shift - 1)) - 1));
    return shift == 64 ? 0 : mag >> shift;
}

uint64_t isa_half_round(bool neg, uint64_t mag, int exp, bool sticky, enum isa_fmt fmt, int rnd)
{
    const struct fmt_info *f = &fmts[fmt];
    uint64_t sign = (uint64_t)neg << (f->mbits + f->ebits);
    uint64_t inf = ((UINT64_C(1) << f->ebits) - 1) << f->mbits;
    bool half, rest = sticky;
    uint64_t kept, bits;
    int e, qe;

    if (!mag)
        return sign << f->lshift;
    e = exp + 63 - __builtin_clzll(mag);
    qe = (e < f->emin ? f->emin : e) - f->mbits;
    if (qe + f->mbits - f->emin >= (1 << f->ebits) - 1) {
        bits = inf; /* far beyond the largest finite value */
    } else {
        kept = split(mag, qe - exp, &half, &rest);
        kept += round_up(rnd, neg, kept & 1, half, rest);
        bits = ((uint64_t)(qe + f->mbits - f->emin) << f->mbits) + kept;
    }
    if (bits >= inf) {
        bool to_max = rnd == ISA_RND_RZ || (rnd == ISA_RND_RM && !neg) ||
                      (rnd == ISA_RND_RP && neg);
        bits = to_max ? inf - 1 : inf;
    }
    return (sign | bits) << f->lshift;
}

uint64_t isa_half_from_double(double x, enum isa_fmt fmt, int rnd)
{
    const struct fmt_info *f = &fmts[fmt];
    uint64_t b = dbl_bits(x), m = b & ((UINT64_C(1) << 52) - 1);
    unsigned be = (unsigned)(b >> 52) & 0x7ff;
    bool neg = b >> 63;

    if (be == 0x7ff) {
        uint64_t inf = ((UINT64_C(1) << f->ebits) - 1) << f->mbits;

        if (m)
            return fmt == ISA_FMT_F64 ? ISA_F64_NAN
                   : fmt == ISA_FMT_F32 || fmt == ISA_FMT_TF32 ? ISA_F32_NAN
                                                               : ISA_F16_NAN;
        return ((uint64_t)neg << (f->mbits + f->ebits) | inf) << f->lshift;
    }
    if (be == 0)
        return isa_half_round(neg, m, -1074, false, fmt, rnd);
    return isa_half_round(neg, m | UINT64_C(1) << 52, (int)be - 1075, false, fmt, rnd);
}

double isa_half_to_double(uint64_t h, enum isa_fmt fmt)
{
    uint32_t u;
    float f;

    switch (fmt) {
    case ISA_FMT_F64:
        return dbl_of(h);
    case ISA_FMT_F16:
        return isa_half_f16_to_double((uint32_t)h & 0xffff);
    case ISA_FMT_BF16:
        u = (uint32_t)h << 16;
        break;
    default:
        u = (uint32_t)h;
        break;
    }
    memcpy(&f, &u, sizeof(f));
    return f;
}

double isa_half_add_odd(double x, double y)
{
    double s = x + y, bb, err;
    uint64_t sb;

    if (!isfinite(s))
        return s;
    bb = s - x;
    err = (x - (s - bb)) + (y - bb); /* exact: x + y == s + err (TwoSum) */
    if (err == 0)
        return s;
    sb = dbl_bits(s);
    if ((err < 0) != (s < 0))
        sb--; /* s was rounded away from zero: step back to the truncation */
    return dbl_of(sb | 1);
}
