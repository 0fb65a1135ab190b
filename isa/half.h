/*
 * Binary floating-point formats without host arithmetic (f16, bf16, tf32)
 * and correctly rounded narrowing into any of them, f32 and f64.
 *
 * The ALU computes f16/bf16 operations in double and rounds once into the
 * target format here. Sums that double cannot hold exactly are computed
 * rounded to odd (isa_half_add_odd), which keeps the second rounding
 * correct for every format of at most 51 significand bits. The same core
 * rounds integers and doubles into f32/f64 under a directed rounding mode
 * without touching the host's floating-point environment.
 */
#ifndef PTXSIM_ISA_HALF_H
#define PTXSIM_ISA_HALF_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Target formats; TF32 results are f32 bits with the 13 low bits zero. */
enum isa_fmt { ISA_FMT_F16, ISA_FMT_BF16, ISA_FMT_TF32, ISA_FMT_F32, ISA_FMT_F64 };

#define ISA_F16_NAN 0x7fffu
#define ISA_BF16_NAN 0x7fffu
#define ISA_F32_NAN 0x7fffffffu
#define ISA_F64_NAN UINT64_C(0x7fffffffffffffff)

/*
 * Rounds (-1)^neg * mag * 2^exp into fmt. sticky says the exact value has
 * nonzero bits below mag's least significant bit. rnd is an enum isa_rnd
 * direction (RN, RZ, RM, RP or RNA; anything else rounds to nearest even).
 * Overflow gives infinity or the largest finite value as IEEE 754 directs
 * for rnd. Returns the raw bits, zero-extended.
 */
uint64_t isa_half_round(bool neg, uint64_t mag, int exp, bool sticky, enum isa_fmt fmt,
                        int rnd);

/* The double x rounded into fmt; NaN gives fmt's canonical NaN. */
uint64_t isa_half_from_double(double x, enum isa_fmt fmt, int rnd);

/* Exact value of the bits h of an f16, bf16, tf32, f32 or f64 as a double. */
double isa_half_to_double(uint64_t h, enum isa_fmt fmt);

/*
 * x + y rounded to odd in double: exact when representable, otherwise the
 * neighbour whose last significand bit is 1. Rounding that again into a
 * format of at most 51 significand bits gives the correctly rounded sum.
 */
double isa_half_add_odd(double x, double y);

/* f16 bits as an exact double (inline fast path of isa_half_to_double). */
static inline double isa_half_f16_to_double(uint32_t h)
{
    uint32_t e = h >> 10 & 0x1f, m = h & 0x3ff, u;
    float f;

    if (e == 0) /* zero or subnormal: m * 2^-24 */
        return (h & 0x8000 ? -1.0 : 1.0) * (double)m * 0x1p-24;
    u = (h & 0x8000) << 16 | (e == 0x1f ? 0xffu : e + 112) << 23 | m << 13;
    memcpy(&f, &u, sizeof(f));
    return f;
}

static inline double isa_half_bf16_to_double(uint32_t h)
{
    uint32_t u = (h & 0xffff) << 16;
    float f;

    memcpy(&f, &u, sizeof(f));
    return f;
}

/*
 * f32 bits to f16 / bf16, rounded to nearest even; NaN gives the canonical
 * NaN. The f16 subnormal path uses one host float addition and so assumes
 * the default (round-to-nearest) environment.
 */
static inline uint32_t isa_half_f16_from_f32_rn(uint32_t x)
{
    uint32_t sign = (x >> 16) & 0x8000, odd;
    float f;

    x &= 0x7fffffffu;
    if (x > 0x7f800000u)
        return ISA_F16_NAN;
    if (x >= 0x47800000u) /* 2^16 and above, infinity */
        return sign | 0x7c00;
    if (x < 0x38800000u) { /* below 2^-14: align to the subnormal quantum by adding 0.5 */
        memcpy(&f, &x, sizeof(f));
        f += 0.5f;
        memcpy(&x, &f, sizeof(x));
        return sign | (x - 0x3f000000u);
    }
    odd = (x >> 13) & 1;
    x += 0xc8000fffu + odd; /* rebias (15 - 127) << 23, round half to even */
    return sign | (x >> 13);
}

static inline uint32_t isa_half_bf16_from_f32_rn(uint32_t x)
{
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return ISA_BF16_NAN;
    return (x + 0x7fffu + ((x >> 16) & 1)) >> 16;
}

/* f16 / bf16 bits with a subnormal replaced by zero of the same sign. */
static inline uint32_t isa_half_ftz_f16(uint32_t h)
{
    return (h & 0x7c00u) ? h : (h & 0x8000u);
}

static inline uint32_t isa_half_ftz_bf16(uint32_t h)
{
    return (h & 0x7f80u) ? h : (h & 0x8000u);
}

#endif
