/*
 * Register pressure of a kernel: the largest number of 32-bit register words
 * live at once, by backward liveness over the instruction graph. PTX names
 * virtual registers, so the declared count says little about what ptxas
 * allocates; the peak of live values is a much closer estimate, and it is
 * what the timing model uses for occupancy.
 *
 * A guarded definition does not end a value's life (the old value survives
 * where the guard is false). Predicates occupy no register words. A call adds
 * the callee's own pressure to what is live across it.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/cfg.h"
#include "isa/module.h"
#include "isa/opcode.h"
#include "isa/regpressure.h"
#include "isa/types.h"

struct lv {
    const struct isa_module *m;
    const struct isa_func *f;
    uint32_t words; /* 64-bit words per bitset */
    uint64_t *use, *def, *in;
    uint32_t *weight; /* 32-bit words of each register */
};

static void set_bit(uint64_t *b, uint32_t r)
{
    b[r >> 6] |= UINT64_C(1) << (r & 63);
}

static void operand(struct lv *l, uint32_t i, const struct isa_operand *o, bool dst, bool guarded)
{
    uint64_t *use = l->use + (size_t)i * l->words, *def = l->def + (size_t)i * l->words;

    switch (o->kind) {
    case ISA_OPND_REG:
        if (o->a >= l->f->nregs)
            break;
        if (!dst)
            set_bit(use, o->a);
        else if (!guarded)
            set_bit(def, o->a);
        else
            set_bit(use, o->a); /* keeps the old value alive through the guarded write */
        if ((o->flags & ISA_OPF_PAIR) && o->b < l->f->nregs)
            set_bit(dst && !guarded ? def : use, o->b);
        break;
    case ISA_OPND_ADDR:
        if ((o->flags & ISA_OPF_ADDR_REG) && o->a < l->f->nregs)
            set_bit(use, o->a);
        break;
    case ISA_OPND_VEC:
    case ISA_OPND_LIST:
        for (uint32_t k = 0; k < o->n; k++)
            operand(l, i, &l->f->ops[o->a + k], dst, guarded);
        break;
    default: break;
    }
}

static void use_def(struct lv *l)
{
    const struct isa_func *f = l->f;

    for (uint32_t i = 0; i < f->ninstrs; i++) {
        const struct isa_instr *in = &f->instrs[i];
        const struct isa_op_info *oi = isa_op_info((enum isa_op)in->op);
        bool guarded = in->guard != ISA_NONE;

        if (guarded && in->guard < f->nregs)
            set_bit(l->use + (size_t)i * l->words, in->guard);
        for (uint32_t k = 0; k < in->nops; k++) {
            const struct isa_operand *o = &f->ops[in->first_op + k];
            bool dst = k == 0 && !(oi->flags & ISA_OPF_NODST) && o->kind != ISA_OPND_ADDR;

            /* call (rets), f, (args): the first list is written, the rest read. */
            if (in->op == ISA_OP_CALL)
                dst = k == 0 && o->kind == ISA_OPND_LIST && in->nops > 1;
            operand(l, i, o, dst, guarded);
        }
    }
}

static bool falls_through(const struct isa_instr *in)
{
    if (in->op == ISA_OP_RET || in->op == ISA_OP_EXIT || in->op == ISA_OP_TRAP)
        return in->guard != ISA_NONE;
    if (in->op == ISA_OP_BRA || in->op == ISA_OP_BRX)
        return in->guard != ISA_NONE;
    return true;
}

/* in[i] = use[i] | (out[i] & ~def[i]), out[i] = union of in[successors]; to a fixed point. */
static void solve(struct lv *l, uint64_t *out, uint32_t *tg, uint32_t maxtg)
{
    const struct isa_func *f = l->f;
    bool changed = true;

    while (changed) {
        changed = false;
        for (uint32_t i = f->ninstrs; i-- > 0;) {
            uint64_t *in = l->in + (size_t)i * l->words;
            uint32_t n = isa_cfg_targets(f, i, tg, maxtg);

            memset(out, 0, l->words * sizeof(uint64_t));
            if (falls_through(&f->instrs[i]) && i + 1 < f->ninstrs)
                for (uint32_t w = 0; w < l->words; w++)
                    out[w] |= l->in[(size_t)(i + 1) * l->words + w];
            for (uint32_t k = 0; k < n; k++)
                if (tg[k] < f->ninstrs)
                    for (uint32_t w = 0; w < l->words; w++)
                        out[w] |= l->in[(size_t)tg[k] * l->words + w];
            for (uint32_t w = 0; w < l->words; w++) {
                uint64_t v = l->use[(size_t)i * l->words + w] |
                             (out[w] & ~l->def[(size_t)i * l->words + w]);

                if (v != in[w]) {
                    in[w] = v;
                    changed = true;
                }
            }
        }
    }
}

static uint32_t weight_of(const struct isa_func *f, uint32_t r)
{
    const struct isa_type_info *ti = isa_type_info((enum isa_type)f->regs[r].type);

    if (ti->kind == ISA_TK_PRED)
        return 0;
    return ti->bits > 32 ? (ti->bits + 31) / 32 : 1;
}

static uint32_t func_pressure(const struct isa_module *m, uint32_t fidx, uint8_t *state,
                              uint32_t *memo, uint32_t depth);

static uint32_t weigh(const struct lv *l, const uint64_t *set)
{
    uint32_t words = 0;

    for (uint32_t w = 0; w < l->words; w++)
        for (uint64_t b = set[w]; b; b &= b - 1)
            words += l->weight[w * 64 + (uint32_t)__builtin_ctzll(b)];
    return words;
}

/*
 * Registers needed at instruction i: the larger of what is live into it and
 * what is live out of it (a value dying here can share a register with one
 * born here), plus, at a call, the callee's own need on top of what survives it.
 */
static uint32_t point_pressure(struct lv *l, uint32_t i, uint64_t *out, uint32_t *tg,
                               uint32_t maxtg, uint8_t *state, uint32_t *memo, uint32_t depth)
{
    const struct isa_func *f = l->f;
    const struct isa_instr *in = &f->instrs[i];
    uint32_t n = isa_cfg_targets(f, i, tg, maxtg), win, wout;

    memset(out, 0, l->words * sizeof(uint64_t));
    if (falls_through(in) && i + 1 < f->ninstrs)
        for (uint32_t w = 0; w < l->words; w++)
            out[w] |= l->in[(size_t)(i + 1) * l->words + w];
    for (uint32_t k = 0; k < n; k++)
        if (tg[k] < f->ninstrs)
            for (uint32_t w = 0; w < l->words; w++)
                out[w] |= l->in[(size_t)tg[k] * l->words + w];
    win = weigh(l, l->in + (size_t)i * l->words);
    wout = weigh(l, out);
    if (in->op == ISA_OP_CALL)
        for (uint32_t k = 0; k < in->nops; k++) {
            const struct isa_operand *o = &f->ops[in->first_op + k];

            if (o->kind == ISA_OPND_FUNC && o->a < l->m->nfuncs)
                wout += func_pressure(l->m, o->a, state, memo, depth + 1);
        }
    return win > wout ? win : wout;
}

static uint32_t func_pressure(const struct isa_module *m, uint32_t fidx, uint8_t *state,
                              uint32_t *memo, uint32_t depth)
{
    const struct isa_func *f = m->funcs[fidx];
    struct lv l = {m, f, 0, NULL, NULL, NULL, NULL};
    uint32_t best = 0, maxtg = f->ntargets + 1, *tg;
    uint64_t *out;

    if (state[fidx] == 2)
        return memo[fidx];
    if (state[fidx] == 1 || depth > 64 || !f->has_body)
        return 0; /* recursion: the stack, not registers, holds the rest */
    state[fidx] = 1;
    l.words = (f->nregs + 63) / 64;
    if (!l.words)
        l.words = 1;
    l.use = calloc((size_t)f->ninstrs * l.words + 1, sizeof(uint64_t));
    l.def = calloc((size_t)f->ninstrs * l.words + 1, sizeof(uint64_t));
    l.in = calloc((size_t)f->ninstrs * l.words + 1, sizeof(uint64_t));
    l.weight = calloc((size_t)l.words * 64, sizeof(uint32_t));
    out = calloc(l.words, sizeof(uint64_t));
    tg = malloc(maxtg * sizeof(uint32_t));
    if (l.use && l.def && l.in && l.weight && out && tg) {
        for (uint32_t r = 0; r < f->nregs; r++)
            l.weight[r] = weight_of(f, r);
        use_def(&l);
        solve(&l, out, tg, maxtg);
        for (uint32_t i = 0; i < f->ninstrs; i++) {
            uint32_t p = point_pressure(&l, i, out, tg, maxtg, state, memo, depth);

            if (p > best)
                best = p;
        }
    } else {
        best = UINT32_MAX; /* out of memory: callers fall back to the declared count */
    }
    free(l.use);
    free(l.def);
    free(l.in);
    free(l.weight);
    free(out);
    free(tg);
    state[fidx] = 2;
    memo[fidx] = best;
    return best;
}

uint32_t isa_reg_pressure(const struct isa_module *m, uint32_t fidx)
{
    uint8_t *state = calloc(m->nfuncs ? m->nfuncs : 1, 1);
    uint32_t *memo = calloc(m->nfuncs ? m->nfuncs : 1, sizeof(uint32_t)), p;

    if (!state || !memo) {
        free(state);
        free(memo);
        return UINT32_MAX;
    }
    p = func_pressure(m, fidx, state, memo, 0);
    free(state);
    free(memo);
    return p;
}
