/*
 * SIMD video instructions vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4,
 * vmin2/4, vmax2/4 (PTX ISA 9.0 section 9.7.18.2) with the default
 * selectors (.h10/.h32, .b3210/.b7654) and the default mask (all
 * elements): elements of a and b are sign- or zero-extended by atype and
 * btype, combined, optionally clamped to the destination element range
 * (.sat) and packed, or summed into c (.add). The interpreter rejects
 * other selectors and masks, which the operands carry.
 */
#include "isa/alu_impl.h"

static inline int64_t velem(uint64_t v, unsigned i, unsigned ew, bool sgn)
{
    uint64_t e = v >> (i * ew);

    return sgn ? alu_sext(e, ew) : (int64_t)(e & alu_wmask(ew));
}

static inline int64_t vop(enum isa_op op, int64_t x, int64_t y)
{
    switch (op) {
    case ISA_OP_VADD2: case ISA_OP_VADD4: return x + y;
    case ISA_OP_VSUB2: case ISA_OP_VSUB4: return x - y;
    case ISA_OP_VAVRG2: case ISA_OP_VAVRG4: return (x + y + 1) >> 1;
    case ISA_OP_VABSDIFF2: case ISA_OP_VABSDIFF4: return x > y ? x - y : y - x;
    case ISA_OP_VMIN2: case ISA_OP_VMIN4: return x < y ? x : y;
    default: return x > y ? x : y; /* VMAX */
    }
}

int isa_alu_exec_video(struct isa_alu_args *a)
{
    const struct isa_instr *in = a->in;
    enum isa_op op = (enum isa_op)in->op;
    bool two = op == ISA_OP_VADD2 || op == ISA_OP_VSUB2 || op == ISA_OP_VAVRG2 ||
               op == ISA_OP_VABSDIFF2 || op == ISA_OP_VMIN2 || op == ISA_OP_VMAX2;
    unsigned n = two ? 2 : 4, ew = two ? 16 : 8;
    bool add = in->atomop == ISA_ATOM_ADD, sat = in->sat && !add, dsgn, asgn, bsgn;
    int64_t lo, hi;

    if (in->ntypes != 3)
        return PS_ENOTSUP;
    if (!a->s[0] || !a->s[1] || (add && !a->s[2]))
        return PS_EINVAL;
    dsgn = alu_tkind(in->types[0]) == ISA_TK_SINT;
    asgn = alu_tkind(in->types[1]) == ISA_TK_SINT;
    bsgn = alu_tkind(in->types[2]) == ISA_TK_SINT;
    lo = dsgn ? -((int64_t)1 << (ew - 1)) : 0;
    hi = dsgn ? ((int64_t)1 << (ew - 1)) - 1 : ((int64_t)1 << ew) - 1;
    ALU_FOR(a->mask) {
        uint64_t r = 0;
        int64_t acc = 0;

        for (unsigned i = 0; i < n; i++) {
            int64_t v = vop(op, velem(a->s[0][l], i, ew, asgn), velem(a->s[1][l], i, ew, bsgn));

            if (sat)
                v = v < lo ? lo : v > hi ? hi : v;
            acc += v;
            r |= ((uint64_t)v & alu_wmask(ew)) << (i * ew);
        }
        a->d[l] = add ? ((uint64_t)acc + a->s[2][l]) & 0xffffffff : r;
    }
    return 0;
}
