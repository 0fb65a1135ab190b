/*
 * The warp interpreter's entry point: one PTX instruction for the active
 * lanes of a warp. Data-processing instructions go to isa/alu.h; memory,
 * control and synchronisation instructions to the exec_*.c files, by the
 * execution class isa/opcodes.def gives each opcode. Operand access and fault
 * reports are the leaves exec_operand.c and exec_fault.c.
 */
#include <string.h>

#include "isa/alu.h"
#include "isa/exec_int.h"

/* Type a source operand k is read as (immediates are converted to it). */
static enum isa_type src_type(const struct isa_instr *in, unsigned k)
{
    enum isa_type t0 = (enum isa_type)in->types[0];

    switch (in->op) {
    case ISA_OP_CVT: return in->ntypes > 1 ? (enum isa_type)in->types[1] : t0;
    case ISA_OP_SET: return k == 3 ? ISA_TYPE_PRED : (enum isa_type)in->types[1];
    case ISA_OP_SETP:
    case ISA_OP_SELP: return k == 3 ? ISA_TYPE_PRED : t0;
    case ISA_OP_SLCT: return k == 3 ? (enum isa_type)in->types[1] : t0;
    case ISA_OP_SHL:
    case ISA_OP_SHR: return k == 2 ? ISA_TYPE_U32 : t0;
    case ISA_OP_SHF: return k == 3 ? ISA_TYPE_U32 : t0;
    case ISA_OP_BFE: return k >= 2 ? ISA_TYPE_U32 : t0;
    case ISA_OP_BFI: return k >= 3 ? ISA_TYPE_U32 : t0;
    case ISA_OP_PRMT: return ISA_TYPE_B32;
    case ISA_OP_DP4A:
    case ISA_OP_DP2A: return k == 2 && in->ntypes > 1 ? (enum isa_type)in->types[1] : ISA_TYPE_B32;
    case ISA_OP_MAD:
        if (k == 3 && in->mulmode == ISA_MUL_WIDE)
            return isa_type_info(t0)->kind == ISA_TK_SINT ? ISA_TYPE_S64 : ISA_TYPE_U64;
        return t0;
    default: return t0;
    }
}

/*
 * Results come back zero-extended in the instruction's type. A narrower
 * register keeps only its width; a wider one receiving a signed cvt result is
 * sign-extended (PTX ISA "operand size exceeding instruction-type size").
 */
static void fit_register(struct xctx *x, const struct isa_operand *d, uint64_t *v)
{
    const struct isa_type_info *ri = isa_type_info((enum isa_type)x->f->regs[d->a].type);
    const struct isa_type_info *ti = isa_type_info((enum isa_type)x->in->types[0]);
    uint64_t wm = width_mask(ri->bits);

    if (ri->bits < ti->bits) {
        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
            v[l] &= wm;
    } else if (x->in->op == ISA_OP_CVT && ti->kind == ISA_TK_SINT && ri->bits > ti->bits) {
        uint64_t sign = UINT64_C(1) << (ti->bits - 1), ext = ~width_mask(ti->bits) & wm;

        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
            if ((x->exec >> l & 1) && (v[l] & sign))
                v[l] |= ext;
    }
}

static int exec_alu(struct xctx *x)
{
    uint64_t tmp[4][ISA_WARP_SIZE], scratch[ISA_WARP_SIZE], scratch2[ISA_WARP_SIZE];
    const struct isa_operand *d = &x->ops[0];
    struct isa_alu_args a;
    int rc;

    memset(&a, 0, sizeof(a));
    a.in = x->in;
    a.mask = x->exec;
    a.cc = x->w->cc;
    a.d = x_dst(x, d, scratch);
    if (d->flags & ISA_OPF_PAIR)
        a.d2 = d->b == ISA_NONE ? scratch2 : x_reg(x, d->b);
    for (unsigned k = 1; k < x->in->nops && k <= 4; k++)
        a.s[k - 1] = x_src(x, &x->ops[k], src_type(x->in, k), tmp[k - 1]);
    rc = isa_alu_exec(&a);
    if (rc)
        return isa_fault(x->w, 0, PS_ENOTSUP, 0, "'%s' with these types is not supported",
                         isa_op_info((enum isa_op)x->in->op)->name);
    if (a.d == scratch && d->kind == ISA_OPND_REG)
        x_write(x, d, x->exec, scratch);
    else if (d->kind == ISA_OPND_REG)
        fit_register(x, d, a.d);
    return 0;
}

/* mov: scalar, vector pack ({a,b} -> d) and unpack (d -> {a,b}). */
static int exec_mov(struct xctx *x)
{
    const struct isa_operand *d = &x->ops[0], *s = &x->ops[1];
    enum isa_type t = (enum isa_type)x->in->types[0];
    uint64_t tmp[ISA_WARP_SIZE], out[ISA_WARP_SIZE];
    const uint64_t *v;

    if (s->kind == ISA_OPND_VEC) { /* pack: element i goes to bits [i*w, (i+1)*w) */
        unsigned ew = isa_type_info(t)->bits / s->n;

        memset(out, 0, sizeof(out));
        for (uint32_t i = 0; i < s->n; i++) {
            const struct isa_operand *e = &x->f->ops[s->a + i];

            v = x_src(x, e, ISA_TYPE_B64, tmp);
            for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
                out[l] |= (v[l] & width_mask(ew)) << (i * ew);
        }
        x_write(x, d, x->exec, out);
        return 0;
    }
    v = x_src(x, s, t, tmp);
    if (d->kind == ISA_OPND_VEC) { /* unpack */
        unsigned ew = isa_type_info(t)->bits / d->n;

        for (uint32_t i = 0; i < d->n; i++) {
            for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
                out[l] = v[l] >> (i * ew) & width_mask(ew);
            x_write(x, &x->f->ops[d->a + i], x->exec, out);
        }
        return 0;
    }
    x_write(x, d, x->exec, v);
    return 0;
}

/* Lanes set in an execution mask, bit-parallel: without -mpopcnt __builtin_popcount is a call. */
static inline uint64_t lanes_on(uint32_t m)
{
    m -= m >> 1 & 0x55555555u;
    m = (m & 0x33333333u) + (m >> 2 & 0x33333333u);
    return ((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u >> 24;
}

static uint32_t guard_mask(const struct xctx *x)
{
    const uint64_t *g;
    uint32_t m = 0;

    if (x->in->guard == ISA_NONE)
        return ISA_LANES_ALL;
    g = x_reg(x, x->in->guard);
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
        m |= (uint32_t)(g[l] != 0) << l;
    return x->in->guard_neg ? ~m : m;
}

static int step(struct isa_warp *w, struct isa_step_info *info, bool plain_only)
{
    struct xctx x;
    const struct isa_simt *top;
    enum isa_op op;
    int rc;

    if (w->state != ISA_WARP_READY || !w->sp)
        return plain_only ? ISA_STEP_NOT_PLAIN : 0;
    top = &w->st[w->sp - 1];
    x_at_frame(&x, w);
    x.pc = top->pc;
    if (x.pc >= x.f->ninstrs)
        return plain_only
                   ? ISA_STEP_NOT_PLAIN
                   : isa_fault(w, 0, PS_EFAULT, 0, "execution ran past the end of '%s'", x.f->name);
    x.in = &x.f->instrs[x.pc];
    x.ops = &x.f->ops[x.in->first_op];
    x.active = top->mask & w->live;
    x.exec = x.active & guard_mask(&x);
    x.info = info;
    x.plain_only = plain_only;
    x.hit_lo = x.hit_hi = 0;
    x.hit_data = NULL;
    op = (enum isa_op)x.in->op;
    if (plain_only && !isa_instr_global_read(x.in))
        return ISA_STEP_NOT_PLAIN;
    w->insts++;
    x.L->warp_insts++;
    /* Lanes the guard predicate turns off do not count (as GPGPU-Sim's gpu_sim_insn). */
    x.L->thread_insts += lanes_on(x.exec);
    if (info) {
        memset(info, 0, sizeof(*info) - sizeof(info->addr));
        info->fidx = x.fr->fidx;
        info->pc = x.pc;
        info->active = x.exec;
        info->in = x.in;
        if (plain_only) { /* for isa_warp_reload's fault only */
            info->sp0 = w->sp;
            info->top0 = *top;
        }
    }
    switch (x.fi->cls[x.pc]) {
    case ISA_X_ALU: rc = exec_alu(&x); break;
    case ISA_X_MOV: rc = exec_mov(&x); break;
    case ISA_X_MEM:
        rc = x_exec_mem(&x);
        if (rc == ISA_STEP_NOT_PLAIN) { /* refused before any register changed */
            w->insts--;
            x.L->warp_insts--;
            x.L->thread_insts -= lanes_on(x.exec);
            return rc;
        }
        break;
    case ISA_X_TEX: rc = x_exec_tex(&x); break;
    case ISA_X_SYNC: rc = x_exec_sync(&x); break;
    case ISA_X_CTRL: return x_exec_ctrl(&x);
    case ISA_X_BAR: return x_exec_sync(&x); /* advances itself, may leave the warp waiting */
    default:
        return isa_fault(w, 0, PS_ENOTSUP, 0, "instruction '%s' is not supported by the engine",
                         isa_op_info(op)->name);
    }
    if (rc || w->state != ISA_WARP_READY)
        return rc;
    return x_advance(&x);
}

int isa_warp_step(struct isa_warp *w, struct isa_step_info *info)
{
    return step(w, info, false);
}

int isa_warp_step_plain(struct isa_warp *w, struct isa_step_info *info)
{
    return step(w, info, true);
}
