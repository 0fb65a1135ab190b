/*
 * The load-time check that the engine implements every instruction of a module:
 * each opcode needs an execution class (isa/opcodes.def), and a data-processing
 * opcode needs a type combination isa_alu_exec accepts. The ALU is asked with no
 * lanes enabled, through the same call the interpreter makes, so this answer and
 * the interpreter's cannot drift apart. A refused instruction is named with its
 * PTX file:line:col, before any kernel runs.
 */
#include <stdio.h>

#include "isa/alu.h"
#include "isa/supported.h"
#include "isa/warp.h"

/* isa_alu_exec's verdict on this instruction's types, computing no lane. */
static int alu_accepts(const struct isa_func *f, const struct isa_instr *in)
{
    static const uint64_t zero[ISA_WARP_SIZE];
    uint64_t d[ISA_WARP_SIZE], d2[ISA_WARP_SIZE];
    uint8_t cc[ISA_WARP_SIZE] = {0};
    struct isa_alu_args a = {.in = in, .mask = 0, .d = d, .cc = cc};

    if (in->nops && (f->ops[in->first_op].flags & ISA_OPF_PAIR))
        a.d2 = d2;
    for (unsigned k = 1; k < in->nops && k <= 4; k++)
        a.s[k - 1] = zero;
    return isa_alu_exec(&a);
}

/* "add.f32"-style spelling of the opcode and its types, for messages. */
static void spelling(const struct isa_instr *in, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s", isa_op_info((enum isa_op)in->op)->name);

    for (uint32_t i = 0; i < in->ntypes && n >= 0 && (size_t)n < len; i++)
        n += snprintf(buf + n, len - (size_t)n, ".%s", isa_type_name((enum isa_type)in->types[i]));
}

int isa_func_check_supported(const struct isa_module *m, const struct isa_func *f,
                             struct ps_err *err)
{
    char what[64];

    for (uint32_t k = 0; k < f->ninstrs; k++) {
        const struct isa_instr *in = &f->instrs[k];
        const struct isa_op_info *oi = isa_op_info((enum isa_op)in->op);

        if (oi->xclass == ISA_X_NONE)
            return ps_err_set_at(err, PS_ENOTSUP, m->source_name, in->line, in->col,
                                 "instruction '%s' (%s) in function '%s' is not supported",
                                 oi->name, oi->meaning, f->name);
        if (oi->xclass == ISA_X_ALU && alu_accepts(f, in)) {
            spelling(in, what, sizeof(what));
            return ps_err_set_at(err, PS_ENOTSUP, m->source_name, in->line, in->col,
                                 "'%s' (%s with these types) in function '%s' is not supported",
                                 what, oi->meaning, f->name);
        }
    }
    return 0;
}
