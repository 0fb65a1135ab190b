/*
 * Internal to isa/alu_*.c: the lane loop, bit helpers and the per-family
 * entry points that isa_alu_exec() dispatches to. Not part of the public
 * API (that is isa/alu.h).
 */
#ifndef PTXSIM_ISA_ALU_IMPL_H
#define PTXSIM_ISA_ALU_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/err.h"
#include "isa/alu.h"
#include "isa/module.h"
#include "isa/opcode.h"
#include "isa/types.h"

/* For each active lane l of mask m (written so that a following else cannot bind inside). */
#define ALU_FOR(m) for (unsigned l = 0; l < ISA_ALU_LANES; l++) if (!((m) >> l & 1)) {} else

static inline uint64_t alu_wmask(unsigned bits)
{
    return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

/* The low `bits` bits of v as a signed number (bits in 1..64). */
static inline int64_t alu_sext(uint64_t v, unsigned bits)
{
    uint64_t sb = UINT64_C(1) << (bits - 1);

    return (int64_t)(((v & alu_wmask(bits)) ^ sb) - sb);
}

static inline unsigned alu_tbits(unsigned t)
{
    return isa_type_info((enum isa_type)t)->bits;
}

static inline unsigned alu_tkind(unsigned t)
{
    return isa_type_info((enum isa_type)t)->kind;
}

static inline bool alu_is_float(unsigned t)
{
    return alu_tkind(t) == ISA_TK_FLOAT;
}

static inline float alu_f32(uint64_t b)
{
    uint32_t u = (uint32_t)b;
    float f;

    memcpy(&f, &u, sizeof(f));
    return f;
}

static inline uint64_t alu_b32(float f)
{
    uint32_t u;

    memcpy(&u, &f, sizeof(u));
    return u;
}

static inline double alu_f64(uint64_t b)
{
    double f;

    memcpy(&f, &b, sizeof(f));
    return f;
}

static inline uint64_t alu_b64(double f)
{
    uint64_t u;

    memcpy(&u, &f, sizeof(u));
    return u;
}

/* f32 / f64 bits with a subnormal replaced by zero of the same sign. */
static inline uint32_t alu_ftz32(uint32_t b)
{
    return (b & 0x7f800000u) ? b : (b & 0x80000000u);
}

static inline uint64_t alu_ftz64(uint64_t b)
{
    return (b & UINT64_C(0x7ff0000000000000)) ? b : (b & UINT64_C(0x8000000000000000));
}

/* The value of the first modifier of category cat on in, or 0. */
static inline unsigned alu_mod(const struct isa_instr *in, enum isa_cat cat)
{
    for (unsigned i = 0; i < in->nmods; i++) {
        const struct isa_mod_info *mi = isa_mod_info((enum isa_mod)in->mods[i]);

        if (mi->cat == cat)
            return mi->value;
    }
    return 0;
}

/* Checks that s[0..n) are present. */
static inline bool alu_srcs(const struct isa_alu_args *a, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (!a->s[i])
            return false;
    return a->d != NULL;
}

/* Families, each returning 0, PS_ENOTSUP or PS_EINVAL like isa_alu_exec. */
int isa_alu_exec_float(struct isa_alu_args *a);  /* alu_float.c: f32/f64 */
int isa_alu_exec_half(struct isa_alu_args *a);   /* alu_half.c: f16/bf16 and x2 */
int isa_alu_exec_cvt(struct isa_alu_args *a);    /* alu_cvt.c */
int isa_alu_exec_cmp(struct isa_alu_args *a);    /* alu_cmp.c: set/setp/selp/slct/testp */
int isa_alu_exec_video(struct isa_alu_args *a);  /* alu_video.c: SIMD video ops */

#endif
