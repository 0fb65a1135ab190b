/*
 * isa_alu_exec(): the dispatch on opcode and type, and the integer and bit
 * instructions (PTX ISA 9.0 sections 9.7.1 and 9.7.8). Every loop works on
 * uint64_t and masks to the instruction's width, so signed overflow and
 * oversized shifts never reach C.
 */
#include "isa/alu_impl.h"

enum { MUL_LO, MUL_HI, MUL_WIDE };

struct ictx {
    const uint64_t *x, *y, *z; /* s[0], s[1], s[2] (may be NULL) */
    uint64_t *d;
    uint32_t m;    /* lane mask */
    unsigned w;    /* operand width in bits */
    uint64_t wm;   /* alu_wmask(w) */
    bool sgn;      /* signed type */
};

/* The part of x*y that mul/mad .lo/.hi/.wide produce (w = 16, 32 or 64). */
static inline uint64_t mul_part(uint64_t x, uint64_t y, unsigned w, bool sgn, int mode)
{
    uint64_t wm = alu_wmask(w);

    if (mode == MUL_LO)
        return (x * y) & wm;
    if (w == 64) {
        unsigned __int128 p = sgn ? (unsigned __int128)((__int128)(int64_t)x * (int64_t)y)
                                  : (unsigned __int128)x * y;
        return (uint64_t)(p >> 64);
    }
    uint64_t p = sgn ? (uint64_t)(alu_sext(x, w) * alu_sext(y, w)) : (x & wm) * (y & wm);
    return mode == MUL_WIDE ? p & alu_wmask(2 * w) : (p >> w) & wm;
}

static int64_t clamp_s32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
}

/* r = x + y + c (sub: x - y - c) in width w; *co gets the carry (borrow). */
static inline uint64_t add_cc(uint64_t x, uint64_t y, uint64_t c, unsigned w, bool sub,
                              uint8_t *co)
{
    uint64_t wm = alu_wmask(w), r;

    x &= wm;
    y &= wm;
    if (sub) {
        r = (x - y - c) & wm;
        *co = y > x || (y == x && c);
    } else {
        r = (x + y + c) & wm;
        *co = w == 64 ? (r < x || (r == x && c)) : (uint8_t)((x + y + c) >> w);
    }
    return r;
}

/* add, sub, addc, subc with .cc / carry-in, .sat (s32) and the 16x2 forms. */
static int int_add(struct isa_alu_args *a, const struct ictx *c, bool sub, bool cin)
{
    const struct isa_instr *in = a->in;
    uint8_t co, *cc = a->cc;

    if ((in->cc || cin) && !cc)
        return PS_EINVAL;
    if (in->cc || cin) {
        ALU_FOR(c->m) {
            c->d[l] = add_cc(c->x[l], c->y[l], cin ? cc[l] & 1 : 0, c->w, sub, &co);
            if (in->cc)
                cc[l] = co;
        }
    } else if (in->sat && c->sgn && c->w == 32) {
        ALU_FOR(c->m) {
            int64_t x = alu_sext(c->x[l], 32), y = alu_sext(c->y[l], 32);

            c->d[l] = (uint32_t)clamp_s32(sub ? x - y : x + y);
        }
    } else if (in->types[0] == ISA_TYPE_U16X2 || in->types[0] == ISA_TYPE_S16X2) {
        ALU_FOR(c->m) {
            uint64_t x = c->x[l], y = c->y[l], xh = x >> 16, yh = y >> 16;
            uint64_t lo = sub ? x - y : x + y, hi = sub ? xh - yh : xh + yh;

            c->d[l] = (lo & 0xffff) | (hi & 0xffff) << 16;
        }
    } else if (sub) {
        ALU_FOR(c->m) c->d[l] = (c->x[l] - c->y[l]) & c->wm;
    } else {
        ALU_FOR(c->m) c->d[l] = (c->x[l] + c->y[l]) & c->wm;
    }
    return 0;
}

static int mul_mode(const struct isa_instr *in, unsigned w)
{
    int mode = in->mulmode == ISA_MUL_HI ? MUL_HI : in->mulmode == ISA_MUL_WIDE ? MUL_WIDE : MUL_LO;

    return (mode == MUL_WIDE && w == 64) ? -1 : mode;
}

/* mul.{lo,hi,wide}: d = the selected part of a * b. */
static int int_mul(struct isa_alu_args *a, const struct ictx *c)
{
    int mode = mul_mode(a->in, c->w);

    if (mode < 0)
        return PS_ENOTSUP;
    if (mode == MUL_LO) {
        ALU_FOR(c->m) c->d[l] = (c->x[l] * c->y[l]) & c->wm;
        return 0;
    }
    ALU_FOR(c->m) c->d[l] = mul_part(c->x[l], c->y[l], c->w, c->sgn, mode);
    return 0;
}

/* mad/madc: d = part(a * b) + c (+ CC.CF), optional .cc and .hi.sat.s32. */
static int int_mad(struct isa_alu_args *a, const struct ictx *c, bool cin)
{
    const struct isa_instr *in = a->in;
    int mode = mul_mode(in, c->w);
    unsigned rw = mode == MUL_WIDE ? 2 * c->w : c->w;
    uint64_t rm = alu_wmask(rw);
    uint8_t co;

    if (mode < 0 || !c->z)
        return mode < 0 ? PS_ENOTSUP : PS_EINVAL;
    if ((in->cc || cin) && !a->cc)
        return PS_EINVAL;
    if (mode == MUL_LO && !in->cc && !cin) {
        ALU_FOR(c->m) c->d[l] = (c->x[l] * c->y[l] + c->z[l]) & rm;
    } else if (in->sat && c->sgn && c->w == 32) {
        ALU_FOR(c->m) {
            int64_t p = alu_sext(mul_part(c->x[l], c->y[l], 32, true, mode), 32);

            c->d[l] = (uint32_t)clamp_s32(p + alu_sext(c->z[l], 32));
        }
    } else {
        ALU_FOR(c->m) {
            uint64_t p = mul_part(c->x[l], c->y[l], c->w, c->sgn, mode);

            c->d[l] = add_cc(p, c->z[l], cin ? a->cc[l] & 1 : 0, rw, false, &co);
            if (in->cc)
                a->cc[l] = co;
        }
    }
    return 0;
}

/* mul24/mad24: 24x24-bit product; .lo = t<31..0>, .hi = t<47..16>; mad24 adds c. */
static int int_mul24(struct isa_alu_args *a, const struct ictx *c, bool mad)
{
    bool hi = a->in->mulmode == ISA_MUL_HI, sat = mad && a->in->sat && c->sgn;

    if (c->w != 32 || (mad && !c->z))
        return c->w != 32 ? PS_ENOTSUP : PS_EINVAL;
    ALU_FOR(c->m) {
        int64_t x = c->sgn ? alu_sext(c->x[l], 24) : (int64_t)(c->x[l] & 0xffffff);
        int64_t y = c->sgn ? alu_sext(c->y[l], 24) : (int64_t)(c->y[l] & 0xffffff);
        uint64_t t = (uint64_t)(x * y), r = (hi ? t >> 16 : t) & 0xffffffff;

        if (sat)
            r = (uint32_t)clamp_s32(alu_sext(r, 32) + alu_sext(c->z[l], 32));
        else if (mad)
            r = (r + c->z[l]) & 0xffffffff;
        c->d[l] = r;
    }
    return 0;
}

/* sad: d = c + |a - b|. */
static int int_sad(const struct ictx *c)
{
    if (!c->z)
        return PS_EINVAL;
    ALU_FOR(c->m) {
        uint64_t x = c->x[l] & c->wm, y = c->y[l] & c->wm;
        bool lt = c->sgn ? alu_sext(x, c->w) < alu_sext(y, c->w) : x < y;

        c->d[l] = (c->z[l] + (lt ? y - x : x - y)) & c->wm;
    }
    return 0;
}

/* div/rem on magnitudes; by zero gives all ones (see isa/alu.h). */
static int int_divrem(const struct ictx *c, bool rem)
{
    ALU_FOR(c->m) {
        uint64_t x = c->x[l] & c->wm, y = c->y[l] & c->wm, q;
        bool nx = c->sgn && alu_sext(x, c->w) < 0, ny = c->sgn && alu_sext(y, c->w) < 0;

        if (y == 0) {
            c->d[l] = c->wm;
            continue;
        }
        x = nx ? (0 - x) & c->wm : x;
        y = ny ? (0 - y) & c->wm : y;
        q = rem ? x % y : x / y;
        c->d[l] = ((rem ? nx : nx != ny) ? 0 - q : q) & c->wm;
    }
    return 0;
}

/* abs, neg (integer): two's complement in the type's width. */
static int int_absneg(const struct ictx *c, bool neg)
{
    if (neg) {
        ALU_FOR(c->m) c->d[l] = (0 - c->x[l]) & c->wm;
        return 0;
    }
    ALU_FOR(c->m) {
        uint64_t x = c->x[l] & c->wm;

        c->d[l] = alu_sext(x, c->w) < 0 ? (0 - x) & c->wm : x;
    }
    return 0;
}

static inline uint64_t minmax1(uint64_t x, uint64_t y, unsigned w, bool sgn, bool max)
{
    uint64_t wm = alu_wmask(w);
    bool lt;

    x &= wm;
    y &= wm;
    lt = sgn ? alu_sext(x, w) < alu_sext(y, w) : x < y;
    return lt != max ? x : y;
}

/* min/max (integer, three-input form, 16x2 lanes, .relu for signed types). */
static int int_minmax(struct isa_alu_args *a, const struct ictx *c, bool max)
{
    unsigned t = a->in->types[0];
    bool x2 = t == ISA_TYPE_U16X2 || t == ISA_TYPE_S16X2,
         relu = isa_instr_has_mod(a->in, ISA_MOD_RELU);
    unsigned ew = x2 ? 16 : c->w;
    const uint64_t *z = a->in->nops >= 4 ? c->z : NULL; /* three-input form */

    ALU_FOR(c->m) {
        uint64_t r = 0;

        for (unsigned sh = 0; sh < c->w; sh += ew) {
            uint64_t v = minmax1(c->x[l] >> sh, c->y[l] >> sh, ew, c->sgn, max);

            if (z)
                v = minmax1(v, z[l] >> sh, ew, c->sgn, max);
            if (relu && c->sgn && alu_sext(v, ew) < 0)
                v = 0;
            r |= v << sh;
        }
        c->d[l] = r;
    }
    return 0;
}

/* popc, clz, brev, cnot, not: one-source bit operations. */
static int int_bits1(enum isa_op op, const struct ictx *c)
{
    switch (op) {
    case ISA_OP_POPC:
        ALU_FOR(c->m) c->d[l] = (uint64_t)__builtin_popcountll(c->x[l] & c->wm);
        break;
    case ISA_OP_CLZ:
        ALU_FOR(c->m) {
            uint64_t x = c->x[l] & c->wm;

            c->d[l] = x ? (uint64_t)__builtin_clzll(x) - (64 - c->w) : c->w;
        }
        break;
    case ISA_OP_BREV:
        ALU_FOR(c->m) {
            uint64_t x = c->x[l], r = 0;

            for (unsigned i = 0; i < c->w; i++, x >>= 1)
                r = r << 1 | (x & 1);
            c->d[l] = r;
        }
        break;
    case ISA_OP_CNOT:
        ALU_FOR(c->m) c->d[l] = (c->x[l] & c->wm) == 0;
        break;
    default: /* NOT */
        ALU_FOR(c->m) c->d[l] = ~c->x[l] & c->wm;
        break;
    }
    return 0;
}

/* bfind: position of the most significant non-sign bit, or 0xffffffff. */
static int int_bfind(struct isa_alu_args *a, const struct ictx *c)
{
    bool amt = alu_mod(a->in, ISA_CAT_SHIFTAMT) != 0;

    ALU_FOR(c->m) {
        uint64_t x = c->x[l] & c->wm, r = 0xffffffff;

        if (c->sgn && (x >> (c->w - 1) & 1))
            x = ~x & c->wm;
        if (x) {
            r = 63 - (uint64_t)__builtin_clzll(x);
            if (amt)
                r = c->w - 1 - r;
        }
        c->d[l] = r;
    }
    return 0;
}

/* fns.b32 d, mask, base, offset: the offset-th set bit from base (PTX pseudocode). */
static int int_fns(const struct ictx *c)
{
    if (!c->z)
        return PS_EINVAL;
    ALU_FOR(c->m) {
        uint32_t msk = (uint32_t)c->x[l];
        int64_t pos = (int64_t)(c->y[l] & 0xffffffff), off = alu_sext(c->z[l], 32);
        int64_t inc = off > 0 ? 1 : -1, cnt = (off > 0 ? off : -off) - 1;
        uint64_t r = 0xffffffff;

        if (off == 0)
            r = (pos < 32 && (msk >> pos & 1)) ? (uint64_t)pos : r;
        for (; off && pos >= 0 && pos < 32; pos += inc) {
            if ((msk >> pos & 1) && cnt-- == 0) {
                r = (uint64_t)pos;
                break;
            }
        }
        c->d[l] = r;
    }
    return 0;
}

/* bfe: extract len bits at pos, zero- or sign-extended (PTX pseudocode). */
static int int_bfe(const struct ictx *c)
{
    if (!c->z)
        return PS_EINVAL;
    ALU_FOR(c->m) {
        uint64_t x = c->x[l] & c->wm, pos = c->y[l] & 0xff, len = c->z[l] & 0xff, msb = c->w - 1;
        uint64_t n = pos > msb ? 0 : (msb + 1 - pos < len ? msb + 1 - pos : len), r = 0;
        bool sbit = c->sgn && len && (x >> (pos + len - 1 < msb ? pos + len - 1 : msb) & 1);

        if (n)
            r = (x >> pos) & alu_wmask((unsigned)n);
        if (sbit && n < 64)
            r |= ~UINT64_C(0) << n;
        c->d[l] = r & c->wm;
    }
    return 0;
}

/* bfi f, a, b, pos, len: insert a's low len bits into b at pos. */
static int int_bfi(struct isa_alu_args *a, const struct ictx *c)
{
    const uint64_t *len = a->s[3];

    if (!c->z || !len)
        return PS_EINVAL;
    ALU_FOR(c->m) {
        uint64_t pos = c->z[l] & 0xff, n = len[l] & 0xff, fm;

        if (pos >= c->w || n == 0) {
            c->d[l] = c->y[l] & c->wm;
            continue;
        }
        fm = (n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1) << pos;
        c->d[l] = ((c->y[l] & ~fm) | (c->x[l] << pos & fm)) & c->wm;
    }
    return 0;
}

/* szext.mode.{u32,s32} d, a, b: extend the low b bits of a (PTX pseudocode). */
static int int_szext(struct isa_alu_args *a, const struct ictx *c)
{
    bool clamp = alu_mod(a->in, ISA_CAT_SHFMODE) == 1;

    ALU_FOR(c->m) {
        uint64_t x = c->x[l] & 0xffffffff, b = c->y[l] & 0xffffffff, b1 = b & 0x1f;
        bool big = b >= 32 && clamp, sbit = false;
        uint64_t msk = big ? 0 : (UINT64_C(0xffffffff) << b1) & 0xffffffff;

        if (b1 && !big && c->sgn)
            sbit = x >> ((b1 - 1) & 0x1f) & 1;
        c->d[l] = (x & ~msk & 0xffffffff) | (sbit ? msk : 0);
    }
    return 0;
}

/* bmsk.mode.b32 d, a, b: b bits of ones starting at bit a (PTX pseudocode). */
static int int_bmsk(struct isa_alu_args *a, const struct ictx *c)
{
    bool clamp = alu_mod(a->in, ISA_CAT_SHFMODE) == 1;

    ALU_FOR(c->m) {
        uint64_t pa = c->x[l] & 0xffffffff, pb = c->y[l] & 0xffffffff;
        uint64_t a1 = pa & 0x1f, b1 = pb & 0x1f, sum = a1 + b1;
        uint64_t m0 = (UINT64_C(0xffffffff) << a1) & 0xffffffff;
        uint64_t m1 = (UINT64_C(0xffffffff) << sum) & 0xffffffff;

        if (clamp && pa >= 32)
            m0 = 0;
        if (sum >= 32 || (clamp && (pa >= 32 || pb >= 32)))
            m1 = 0;
        else if (b1 == 0)
            m1 = 0xffffffff;
        c->d[l] = m0 & ~m1 & 0xffffffff;
    }
    return 0;
}

/* dp4a / dp2a.{lo,hi}: byte (and half) dot products accumulated into c. */
static int int_dp(struct isa_alu_args *a, const struct ictx *c, bool dp2)
{
    const struct isa_instr *in = a->in;
    bool sa = in->ntypes > 0 && alu_tkind(in->types[0]) == ISA_TK_SINT;
    bool sb = in->ntypes > 1 && alu_tkind(in->types[1]) == ISA_TK_SINT;
    unsigned bsel = in->mulmode == ISA_MUL_HI ? 16 : 0, aw = dp2 ? 16 : 8;

    if (!c->z)
        return PS_EINVAL;
    ALU_FOR(c->m) {
        uint64_t r = c->z[l];

        for (unsigned i = 0; i < (dp2 ? 2u : 4u); i++) {
            uint64_t ea = c->x[l] >> (i * aw), eb = c->y[l] >> ((dp2 ? bsel : 0) + i * 8);
            int64_t va = sa ? alu_sext(ea, aw) : (int64_t)(ea & alu_wmask(aw));
            int64_t vb = sb ? alu_sext(eb, 8) : (int64_t)(eb & 0xff);

            r += (uint64_t)(va * vb);
        }
        c->d[l] = r & 0xffffffff;
    }
    return 0;
}

/* and, or, xor (also on .pred), lop3 with immLut in s[3]. */
static int int_logic(struct isa_alu_args *a, const struct ictx *c)
{
    const uint64_t *lut = a->s[3];

    switch (a->in->op) {
    case ISA_OP_AND: ALU_FOR(c->m) c->d[l] = c->x[l] & c->y[l] & c->wm; break;
    case ISA_OP_OR: ALU_FOR(c->m) c->d[l] = (c->x[l] | c->y[l]) & c->wm; break;
    case ISA_OP_XOR: ALU_FOR(c->m) c->d[l] = (c->x[l] ^ c->y[l]) & c->wm; break;
    default: /* LOP3: bit i of immLut is F(a,b,c) for i = a<<2 | b<<1 | c */
        if (!c->z || !lut)
            return PS_EINVAL;
        if (a->in->boolop)
            return PS_ENOTSUP;
        ALU_FOR(c->m) {
            uint64_t x = c->x[l], y = c->y[l], z = c->z[l], f = lut[l], r = 0;

            for (unsigned i = 0; i < 8; i++)
                if (f >> i & 1)
                    r |= (i & 4 ? x : ~x) & (i & 2 ? y : ~y) & (i & 1 ? z : ~z);
            c->d[l] = r & c->wm;
        }
        break;
    }
    return 0;
}

/* shl, shr: counts of at least the width give 0, or the sign for shr.s. */
static int int_shift(enum isa_op op, const struct ictx *c)
{
    if (op == ISA_OP_SHL) {
        ALU_FOR(c->m) {
            uint64_t n = c->y[l] & 0xffffffff;

            c->d[l] = n >= c->w ? 0 : (c->x[l] << n) & c->wm;
        }
    } else if (c->sgn) {
        ALU_FOR(c->m) {
            uint64_t n = c->y[l] & 0xffffffff;

            n = n >= c->w ? c->w - 1 : n; /* larger counts fill with the sign */
            c->d[l] = (uint64_t)(alu_sext(c->x[l], c->w) >> n) & c->wm;
        }
    } else {
        ALU_FOR(c->m) {
            uint64_t n = c->y[l] & 0xffffffff;

            c->d[l] = n >= c->w ? 0 : (c->x[l] & c->wm) >> n;
        }
    }
    return 0;
}

/* shf.{l,r}.{clamp,wrap}.b32 d, a, b, c: funnel shift of b:a. */
static int int_shf(struct isa_alu_args *a, const struct ictx *c)
{
    bool left = alu_mod(a->in, ISA_CAT_SHFDIR) == 1;
    bool clamp = alu_mod(a->in, ISA_CAT_SHFMODE) != 2;

    if (!c->z || c->w != 32)
        return c->z ? PS_ENOTSUP : PS_EINVAL;
    ALU_FOR(c->m) {
        uint64_t v = (c->y[l] & 0xffffffff) << 32 | (c->x[l] & 0xffffffff);
        uint64_t n = c->z[l] & 0xffffffff;

        n = clamp ? (n > 32 ? 32 : n) : n & 0x1f;
        c->d[l] = left ? (v << n) >> 32 : (v >> n) & 0xffffffff;
    }
    return 0;
}

/* Source byte for prmt mode (1..6 = f4e b4e rc8 ecl ecr rc16) and target byte i. */
static unsigned prmt_sel(unsigned mode, unsigned s, unsigned i)
{
    switch (mode) {
    case 1: return (s + i) & 7;                         /* f4e */
    case 2: return (s - i) & 7;                         /* b4e */
    case 3: return s;                                   /* rc8 */
    case 4: return i < s ? s : i;                       /* ecl */
    case 5: return i < s ? i : s;                       /* ecr */
    default: return (s & 1) * 2 + (i & 1);              /* rc16 */
    }
}

/* prmt.b32{.mode} d, a, b, c: pick four bytes of b:a. */
static int int_prmt(struct isa_alu_args *a, const struct ictx *c)
{
    unsigned mode = alu_mod(a->in, ISA_CAT_PRMT);

    if (!c->z)
        return PS_EINVAL;
    ALU_FOR(c->m) {
        uint64_t v = (c->y[l] & 0xffffffff) << 32 | (c->x[l] & 0xffffffff), r = 0;
        unsigned ctl = (unsigned)c->z[l];

        for (unsigned i = 0; i < 4; i++) {
            unsigned s = mode ? prmt_sel(mode, ctl & 3, i) : (ctl >> (4 * i)) & 7;
            uint64_t byte = v >> (8 * s) & 0xff;

            if (!mode && (ctl >> (4 * i) & 8))
                byte = (byte & 0x80) ? 0xff : 0;
            r |= byte << (8 * i);
        }
        c->d[l] = r;
    }
    return 0;
}

static int exec_int(struct isa_alu_args *a, unsigned t)
{
    const struct isa_instr *in = a->in;
    enum isa_op op = (enum isa_op)in->op;
    unsigned kind = alu_tkind(t);
    struct ictx c = {a->s[0], a->s[1], a->s[2], a->d, a->mask, alu_tbits(t), 0,
                     kind == ISA_TK_SINT};

    if (kind != ISA_TK_UINT && kind != ISA_TK_SINT && kind != ISA_TK_BITS && kind != ISA_TK_PRED)
        return PS_ENOTSUP;
    if (c.w > 64 || !c.x)
        return c.x ? PS_ENOTSUP : PS_EINVAL;
    c.wm = alu_wmask(c.w);
    if (!c.y && op != ISA_OP_ABS && op != ISA_OP_NEG && op != ISA_OP_POPC && op != ISA_OP_CLZ &&
        op != ISA_OP_BREV && op != ISA_OP_NOT && op != ISA_OP_CNOT && op != ISA_OP_BFIND)
        return PS_EINVAL;
    switch (op) {
    case ISA_OP_ADD: return int_add(a, &c, false, false);
    case ISA_OP_SUB: return int_add(a, &c, true, false);
    case ISA_OP_ADDC: return int_add(a, &c, false, true);
    case ISA_OP_SUBC: return int_add(a, &c, true, true);
    case ISA_OP_MUL: return int_mul(a, &c);
    case ISA_OP_MAD: return int_mad(a, &c, false);
    case ISA_OP_MADC: return int_mad(a, &c, true);
    case ISA_OP_MUL24: return int_mul24(a, &c, false);
    case ISA_OP_MAD24: return int_mul24(a, &c, true);
    case ISA_OP_SAD: return int_sad(&c);
    case ISA_OP_DIV: return int_divrem(&c, false);
    case ISA_OP_REM: return int_divrem(&c, true);
    case ISA_OP_ABS: return int_absneg(&c, false);
    case ISA_OP_NEG: return int_absneg(&c, true);
    case ISA_OP_MIN: return int_minmax(a, &c, false);
    case ISA_OP_MAX: return int_minmax(a, &c, true);
    case ISA_OP_POPC: case ISA_OP_CLZ: case ISA_OP_BREV: case ISA_OP_NOT: case ISA_OP_CNOT:
        return int_bits1(op, &c);
    case ISA_OP_BFIND: return int_bfind(a, &c);
    case ISA_OP_FNS: return int_fns(&c);
    case ISA_OP_BFE: return int_bfe(&c);
    case ISA_OP_BFI: return int_bfi(a, &c);
    case ISA_OP_SZEXT: return int_szext(a, &c);
    case ISA_OP_BMSK: return int_bmsk(a, &c);
    case ISA_OP_DP4A: return int_dp(a, &c, false);
    case ISA_OP_DP2A: return int_dp(a, &c, true);
    case ISA_OP_AND: case ISA_OP_OR: case ISA_OP_XOR: case ISA_OP_LOP3:
        return int_logic(a, &c);
    case ISA_OP_SHL: case ISA_OP_SHR: return int_shift(op, &c);
    case ISA_OP_SHF: return int_shf(a, &c);
    case ISA_OP_PRMT: return int_prmt(a, &c);
    default: return PS_ENOTSUP;
    }
}

/* f32/f64 go to alu_float.c, the 16-bit formats to alu_half.c. */
static int exec_fp(struct isa_alu_args *a, unsigned t)
{
    switch (t) {
    case ISA_TYPE_F32: case ISA_TYPE_F64:
        return isa_alu_exec_float(a);
    case ISA_TYPE_F16: case ISA_TYPE_F16X2: case ISA_TYPE_BF16: case ISA_TYPE_BF16X2:
        return isa_alu_exec_half(a);
    default:
        return PS_ENOTSUP;
    }
}

int isa_alu_exec(struct isa_alu_args *a)
{
    const struct isa_instr *in = a->in;
    unsigned t = in->ntypes ? in->types[0] : ISA_TYPE_NONE;

    if (!a->d)
        return PS_EINVAL;
    switch ((enum isa_op)in->op) {
    case ISA_OP_CVT:
        return isa_alu_exec_cvt(a);
    case ISA_OP_SET: case ISA_OP_SETP: case ISA_OP_SELP: case ISA_OP_SLCT: case ISA_OP_TESTP:
        return isa_alu_exec_cmp(a);
    case ISA_OP_FMA: case ISA_OP_RCP: case ISA_OP_SQRT: case ISA_OP_RSQRT: case ISA_OP_SIN:
    case ISA_OP_COS: case ISA_OP_LG2: case ISA_OP_EX2: case ISA_OP_TANH: case ISA_OP_COPYSIGN:
        return exec_fp(a, t);
    case ISA_OP_ADD: case ISA_OP_SUB: case ISA_OP_MUL: case ISA_OP_MAD: case ISA_OP_DIV:
    case ISA_OP_ABS: case ISA_OP_NEG: case ISA_OP_MIN: case ISA_OP_MAX:
        if (alu_is_float(t))
            return exec_fp(a, t);
        return exec_int(a, t);
    case ISA_OP_VADD2: case ISA_OP_VSUB2: case ISA_OP_VAVRG2: case ISA_OP_VABSDIFF2:
    case ISA_OP_VMIN2: case ISA_OP_VMAX2: case ISA_OP_VADD4: case ISA_OP_VSUB4:
    case ISA_OP_VAVRG4: case ISA_OP_VABSDIFF4: case ISA_OP_VMIN4: case ISA_OP_VMAX4:
        return isa_alu_exec_video(a);
    default:
        return isa_alu_handles((enum isa_op)in->op) ? exec_int(a, t) : PS_ENOTSUP;
    }
}

bool isa_alu_handles(enum isa_op op)
{
    return isa_op_info(op)->xclass == ISA_X_ALU;
}
