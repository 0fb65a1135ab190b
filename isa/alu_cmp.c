/*
 * Comparison and selection: setp, set, selp, slct (PTX ISA 9.0 sections
 * 9.7.6 and 9.7.7) and testp (9.7.3.1). A comparison runs in two passes
 * over the lanes: operands are first widened to one comparable form (uint64
 * for integers, with signed values re-biased so that unsigned order is
 * signed order; double for every float type, which is exact), then a single
 * loop per relation fills a 0/1 array that the combine pass turns into
 * predicates or set's integer/float results.
 */
#include <math.h>

#include "isa/alu_impl.h"
#include "isa/half.h"

/* Integer operand at bit sh, with the sign bit flipped for signed types: unsigned order of
   the result is the type's order. */
#define LD_INT(v) ((((v) >> sh) & wm) ^ flip)

#define CMP_INT(cond)                                                                            \
    ALU_FOR(m) {                                                                                 \
        uint64_t x = LD_INT(s0[l]), y = LD_INT(s1[l]);                                           \
        r[l] = (cond);                                                                           \
    }                                                                                            \
    return 0

static int cmp_int(uint64_t *r, const struct isa_alu_args *a, unsigned w, unsigned sh, bool sgn)
{
    const uint64_t *s0 = a->s[0], *s1 = a->s[1];
    uint64_t wm = alu_wmask(w), flip = sgn ? UINT64_C(1) << (w - 1) : 0;
    uint32_t m = a->mask;

    switch (a->in->cmp) {
    case ISA_CMP_EQ: CMP_INT(x == y);
    case ISA_CMP_NE: CMP_INT(x != y);
    case ISA_CMP_LT: case ISA_CMP_LO: CMP_INT(x < y);
    case ISA_CMP_LE: case ISA_CMP_LS: CMP_INT(x <= y);
    case ISA_CMP_GT: case ISA_CMP_HI: CMP_INT(x > y);
    case ISA_CMP_GE: case ISA_CMP_HS: CMP_INT(x >= y);
    default: return PS_ENOTSUP;
    }
}

/* Ordered relations are false on NaN; the ...u forms are true on NaN. */
#define CMP_FP(T, LD, cond)                                                                      \
    ALU_FOR(m) {                                                                                 \
        T x = LD(s0, l), y = LD(s1, l);                                                          \
        bool u = x != x || y != y;                                                               \
        r[l] = (cond);                                                                           \
    }                                                                                            \
    return 0

#define CMP_FP_ALL(T, LD)                                                                        \
    switch (cmp) {                                                                               \
    case ISA_CMP_EQ: CMP_FP(T, LD, !u && x == y);                                                \
    case ISA_CMP_NE: CMP_FP(T, LD, !u && x != y);                                                \
    case ISA_CMP_LT: CMP_FP(T, LD, !u && x < y);                                                 \
    case ISA_CMP_LE: CMP_FP(T, LD, !u && x <= y);                                                \
    case ISA_CMP_GT: CMP_FP(T, LD, !u && x > y);                                                 \
    case ISA_CMP_GE: CMP_FP(T, LD, !u && x >= y);                                                \
    case ISA_CMP_EQU: CMP_FP(T, LD, u || x == y);                                                \
    case ISA_CMP_NEU: CMP_FP(T, LD, u || x != y);                                                \
    case ISA_CMP_LTU: CMP_FP(T, LD, u || x < y);                                                 \
    case ISA_CMP_LEU: CMP_FP(T, LD, u || x <= y);                                                \
    case ISA_CMP_GTU: CMP_FP(T, LD, u || x > y);                                                 \
    case ISA_CMP_GEU: CMP_FP(T, LD, u || x >= y);                                                \
    case ISA_CMP_NUM: CMP_FP(T, LD, !u);                                                         \
    case ISA_CMP_NAN: CMP_FP(T, LD, u);                                                          \
    default: return PS_ENOTSUP;                                                                  \
    }

#define LD_F32(p, l) alu_f32(ftz ? alu_ftz32((uint32_t)(p)[l]) : (uint32_t)(p)[l])
#define LD_F64(p, l) alu_f64((p)[l])
#define LD_ARR(p, l) (p)[l]

static int cmp_f32(uint64_t *r, const uint64_t *s0, const uint64_t *s1, uint32_t m, unsigned cmp,
                   bool ftz)
{
    CMP_FP_ALL(float, LD_F32)
}

static int cmp_f64(uint64_t *r, const uint64_t *s0, const uint64_t *s1, uint32_t m, unsigned cmp)
{
    CMP_FP_ALL(double, LD_F64)
}

/* f16/bf16 elements at bit sh, widened to double first (.ftz flushes f16). */
static int cmp_f16(uint64_t *r, const struct isa_alu_args *a, unsigned t, unsigned sh)
{
    double s0[ISA_ALU_LANES], s1[ISA_ALU_LANES];
    enum isa_fmt f = (t == ISA_TYPE_F16 || t == ISA_TYPE_F16X2) ? ISA_FMT_F16 : ISA_FMT_BF16;
    bool ftz = a->in->ftz && f == ISA_FMT_F16;
    unsigned cmp = a->in->cmp;
    uint32_t m = a->mask;

    ALU_FOR(m) {
        uint32_t x = (uint32_t)(a->s[0][l] >> sh) & 0xffff;
        uint32_t y = (uint32_t)(a->s[1][l] >> sh) & 0xffff;


        if (f == ISA_FMT_BF16) {
            s0[l] = isa_half_bf16_to_double(x);
            s1[l] = isa_half_bf16_to_double(y);
        } else {
            s0[l] = isa_half_f16_to_double(ftz ? isa_half_ftz_f16(x) : x);
            s1[l] = isa_half_f16_to_double(ftz ? isa_half_ftz_f16(y) : y);
        }
    }
    CMP_FP_ALL(double, LD_ARR)
}

/* r[l] = (a cmp b) for the element of type t at bit offset sh. */
static int compare(const struct isa_alu_args *a, unsigned t, unsigned sh, uint64_t *r)
{
    unsigned kind = alu_tkind(t), cmp = a->in->cmp;

    switch (t) {
    case ISA_TYPE_F32: return cmp_f32(r, a->s[0], a->s[1], a->mask, cmp, a->in->ftz);
    case ISA_TYPE_F64: return cmp_f64(r, a->s[0], a->s[1], a->mask, cmp);
    case ISA_TYPE_F16: case ISA_TYPE_F16X2: case ISA_TYPE_BF16: case ISA_TYPE_BF16X2:
        return cmp_f16(r, a, t, sh);
    default:
        break;
    }
    if ((kind != ISA_TK_UINT && kind != ISA_TK_SINT && kind != ISA_TK_BITS) || alu_tbits(t) > 64)
        return PS_ENOTSUP;
    return cmp_int(r, a, alu_tbits(t), sh,
                   kind == ISA_TK_SINT && (cmp < ISA_CMP_LO || cmp > ISA_CMP_HS));
}

/* BoolOp(t, c) with c from s[2] (already inverted for !c). */
static void combine(uint64_t *r, const struct isa_alu_args *a, bool invert)
{
    const uint64_t *c = a->s[2];

    if (invert) {
        ALU_FOR(a->mask) r[l] ^= 1;
    }
    switch (a->in->boolop) {
    case ISA_BOOL_AND: ALU_FOR(a->mask) r[l] &= c[l] & 1; break;
    case ISA_BOOL_OR: ALU_FOR(a->mask) r[l] |= c[l] & 1; break;
    case ISA_BOOL_XOR: ALU_FOR(a->mask) r[l] ^= c[l] & 1; break;
    default: break;
    }
}

static bool is_x2(unsigned t)
{
    return t == ISA_TYPE_F16X2 || t == ISA_TYPE_BF16X2;
}

/* setp.CmpOp{.BoolOp} p[|q], a, b{, c}: x2 types compare lo -> p, hi -> q. */
static int cmp_setp(struct isa_alu_args *a)
{
    const struct isa_instr *in = a->in;
    unsigned t = in->types[0];
    uint64_t p[ISA_ALU_LANES], q[ISA_ALU_LANES];
    int rc;

    if (!in->boolop && !is_x2(t)) { /* the common form: p = t, q = !t */
        if ((rc = compare(a, t, 0, a->d)))
            return rc;
        if (a->d2) {
            ALU_FOR(a->mask) a->d2[l] = a->d[l] ^ 1;
        }
        return 0;
    }
    if ((rc = compare(a, t, 0, p)))
        return rc;
    if (is_x2(t) && (rc = compare(a, t, 16, q)))
        return rc;
    if (!is_x2(t))
        memcpy(q, p, sizeof(q));
    combine(p, a, false);
    combine(q, a, !is_x2(t));
    ALU_FOR(a->mask) a->d[l] = p[l];
    if (a->d2) {
        ALU_FOR(a->mask) a->d2[l] = q[l];
    }
    return 0;
}

/* The bits set writes for true in an element of dtype (false is 0). */
static uint64_t set_true(unsigned dt, bool x2src)
{
    switch (dt) {
    case ISA_TYPE_F32: return 0x3f800000u;
    case ISA_TYPE_F16: case ISA_TYPE_F16X2: return 0x3c00u;
    case ISA_TYPE_BF16: case ISA_TYPE_BF16X2: return 0x3f80u;
    default: return x2src ? 0xffffu : 0xffffffffu;
    }
}

/* set.CmpOp{.BoolOp}.dtype.stype d, a, b{, c}: 1.0 / all ones for true. */
static int cmp_set(struct isa_alu_args *a)
{
    const struct isa_instr *in = a->in;
    unsigned dt = in->types[0], st = in->ntypes > 1 ? in->types[1] : dt;
    uint64_t lo[ISA_ALU_LANES], hi[ISA_ALU_LANES];
    uint64_t one = set_true(dt, is_x2(st));
    int rc;

    if ((rc = compare(a, st, 0, lo)))
        return rc;
    combine(lo, a, false);
    if (!is_x2(st)) {
        ALU_FOR(a->mask) a->d[l] = lo[l] ? one : 0;
        return 0;
    }
    if ((rc = compare(a, st, 16, hi)))
        return rc;
    combine(hi, a, false);
    ALU_FOR(a->mask) a->d[l] = (lo[l] ? one : 0) | (hi[l] ? one << 16 : 0);
    return 0;
}

/* slct.dtype.{s32,f32} d, a, b, c: d = c >= 0 ? a : b (.ftz flushes an f32 c). */
static int cmp_slct(struct isa_alu_args *a)
{
    const struct isa_instr *in = a->in;
    const uint64_t *x = a->s[0], *y = a->s[1], *c = a->s[2];

    if (in->ntypes > 1 && in->types[1] == ISA_TYPE_F32) {
        ALU_FOR(a->mask) {
            uint32_t cb = in->ftz ? alu_ftz32((uint32_t)c[l]) : (uint32_t)c[l];

            a->d[l] = alu_f32(cb) >= 0.0f ? x[l] : y[l];
        }
    } else {
        ALU_FOR(a->mask) a->d[l] = alu_sext(c[l], 32) >= 0 ? x[l] : y[l];
    }
    return 0;
}

/* testp.op.{f32,f64} p, a, classified by bits; zeros count as normal (PTX ISA 9.7.3.1). */
static int cmp_testp(struct isa_alu_args *a)
{
    unsigned prop = alu_mod(a->in, ISA_CAT_TESTP);
    bool f64 = a->in->types[0] == ISA_TYPE_F64;
    uint64_t em = f64 ? UINT64_C(0x7ff0000000000000) : 0x7f800000u;
    uint64_t mm = f64 ? UINT64_C(0x000fffffffffffff) : 0x007fffffu;

    if (!f64 && a->in->types[0] != ISA_TYPE_F32)
        return PS_ENOTSUP;
    ALU_FOR(a->mask) {
        uint64_t e = a->s[0][l] & em, m = a->s[0][l] & mm;
        bool r;

        switch (prop) {
        case 1: r = e != em; break;                 /* finite */
        case 2: r = e == em && !m; break;           /* infinite */
        case 3: r = e != em || !m; break;           /* number */
        case 4: r = e == em && m; break;            /* notanumber */
        case 5: r = e != em && (e || !m); break;    /* normal (zero included) */
        default: r = !e && m; break;                /* subnormal */
        }
        a->d[l] = r;
    }
    return 0;
}

int isa_alu_exec_cmp(struct isa_alu_args *a)
{
    const struct isa_instr *in = a->in;

    if (!in->ntypes || !a->s[0])
        return in->ntypes ? PS_EINVAL : PS_ENOTSUP;
    if (in->op != ISA_OP_TESTP && !a->s[1])
        return PS_EINVAL;
    if ((in->op == ISA_OP_SELP || in->op == ISA_OP_SLCT || in->boolop) && !a->s[2])
        return PS_EINVAL;
    switch (in->op) {
    case ISA_OP_SETP: return cmp_setp(a);
    case ISA_OP_SET: return cmp_set(a);
    case ISA_OP_SLCT: return cmp_slct(a);
    case ISA_OP_TESTP: return cmp_testp(a);
    default: /* SELP: d = c ? a : b */
        ALU_FOR(a->mask) a->d[l] = (a->s[2][l] & 1) ? a->s[0][l] : a->s[1][l];
        return 0;
    }
}
