/*
 * Operand helpers of the warp interpreter: source values for all lanes (registers,
 * byte and half selectors, special registers, symbols, immediates converted to the
 * instruction's type), destinations and register writes, and symbol addresses. A leaf
 * of the interpreter: exec.c and every exec_*.c use it, and it calls none of them.
 */
#include <string.h>

#include "isa/devmem.h"
#include "isa/exec_int.h"

/* An immediate converted to the instruction's type t. */
static uint64_t imm_value(const struct isa_operand *o, enum isa_type t)
{
    const struct isa_type_info *ti = isa_type_info(t);
    double d;
    float fl;
    uint32_t b32;

    if (o->kind == ISA_OPND_IMM) {
        if (ti->kind == ISA_TK_FLOAT && ti->bits == 32)
            return x_f32_bits((float)o->v.i);
        if (ti->kind == ISA_TK_FLOAT && ti->bits == 64)
            return x_f64_bits((double)o->v.i);
        return (uint64_t)o->v.i & width_mask(ti->bits ? ti->bits : 64);
    }
    if (o->kind == ISA_OPND_F32) {
        b32 = (uint32_t)o->v.bits;
        memcpy(&fl, &b32, 4);
        return ti->kind == ISA_TK_FLOAT && ti->bits == 64 ? x_f64_bits(fl) : b32;
    }
    if (o->kind == ISA_OPND_F64) {
        memcpy(&d, &o->v.bits, 8);
        return ti->kind == ISA_TK_FLOAT && ti->bits == 32 ? x_f32_bits((float)d) : o->v.bits;
    }
    d = o->v.f; /* decimal literal */
    if (ti->kind == ISA_TK_FLOAT && ti->bits == 32)
        return x_f32_bits((float)d);
    if (ti->kind == ISA_TK_FLOAT)
        return x_f64_bits(d);
    return (uint64_t)(int64_t)d & width_mask(ti->bits ? ti->bits : 64);
}

static uint64_t sreg_lane(struct xctx *x, enum isa_sreg r, unsigned comp, uint32_t lane)
{
    struct isa_warp *w = x->w;
    struct isa_launch *L = x->L;
    uint32_t c = comp ? comp - 1 : 0, tid[3];

    x_thread_of(w, lane, tid);
    switch (r) {
    case ISA_SREG_TID:
        return tid[c];
    case ISA_SREG_NTID:
        return L->block[c];
    case ISA_SREG_CTAID:
        return w->cta->ctaid[c];
    case ISA_SREG_NCTAID:
        return L->grid[c];
    case ISA_SREG_LANEID:
        return lane;
    case ISA_SREG_WARPID:
        return w->id;
    case ISA_SREG_NWARPID:
        return 48;
    case ISA_SREG_SMID:
        return w->cta->smid;
    case ISA_SREG_NSMID:
        return x->p->dev->cfg.nsm;
    case ISA_SREG_GRIDID:
        return L->gridid;
    /*
     * Functional mode has no time: clocks count the warp's instructions,
     * deterministically. Under the timing model they read the SM's cycle.
     */
    case ISA_SREG_CLOCK:
        return (uint32_t)(w->cta->clock ? *w->cta->clock : w->insts);
    case ISA_SREG_CLOCK_HI:
        return (uint32_t)((w->cta->clock ? *w->cta->clock : w->insts) >> 32);
    case ISA_SREG_CLOCK64:
        return w->cta->clock ? *w->cta->clock : w->insts;
    case ISA_SREG_GLOBALTIMER:
        return L->warp_insts * 1000;
    case ISA_SREG_GLOBALTIMER_LO:
        return (uint32_t)(L->warp_insts * 1000);
    case ISA_SREG_GLOBALTIMER_HI:
        return (uint32_t)((L->warp_insts * 1000) >> 32);
    case ISA_SREG_LANEMASK_EQ:
        return UINT32_C(1) << lane;
    case ISA_SREG_LANEMASK_LT:
        return (UINT32_C(1) << lane) - 1;
    case ISA_SREG_LANEMASK_LE:
        return (UINT64_C(2) << lane) - 1;
    case ISA_SREG_LANEMASK_GT:
        return (uint32_t) ~((UINT64_C(2) << lane) - 1);
    case ISA_SREG_LANEMASK_GE:
        return (uint32_t) ~((UINT32_C(1) << lane) - 1);
    case ISA_SREG_DYN_SMEM:
        return L->dyn_shared;
    case ISA_SREG_TOTAL_SMEM:
    case ISA_SREG_AGGR_SMEM:
        return w->cta->shared_bytes;
    case ISA_SREG_NCLUSTERID:
        return L->grid[c];
    case ISA_SREG_CLUSTERID:
        return w->cta->ctaid[c];
    case ISA_SREG_CLUSTER_NCTAID:
        return 1;
    case ISA_SREG_CLUSTER_NCTARANK:
        return 1;
    default:
        return 0; /* %cluster_ctaid, %cluster_ctarank, %pm*, %envreg*: 0 */
    }
}

const uint64_t *x_src(struct xctx *x, const struct isa_operand *o, enum isa_type t, uint64_t *tmp)
{
    uint64_t v;
    uint8_t space;

    switch (o->kind) {
    case ISA_OPND_REG:
        if (!(o->flags & ISA_OPF_NEG) && !o->comp)
            return x_reg(x, o->a);
        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
            uint64_t r = x_reg(x, o->a)[l];

            if (o->comp >= 5 && o->comp <= 8)
                r = r >> ((o->comp - 5) * 8) & 0xff;
            else if (o->comp >= 9)
                r = r >> ((o->comp - 9) * 16) & 0xffff;
            tmp[l] = (o->flags & ISA_OPF_NEG) ? !r : r;
        }
        return tmp;
    case ISA_OPND_SREG:
        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
            tmp[l] = sreg_lane(x, (enum isa_sreg)o->a, o->comp, l);
        return tmp;
    case ISA_OPND_SYM:
        v = x_sym_addr(x, o->symscope, o->a, &space) + (uint64_t)o->v.i;
        break;
    case ISA_OPND_FUNC:
        v = ISA_FUNC_ADDR_BASE + o->a;
        break;
    case ISA_OPND_IMM:
    case ISA_OPND_F32:
    case ISA_OPND_F64:
    case ISA_OPND_FDEC:
        v = imm_value(o, t);
        break;
    default:
        v = 0;
        break;
    }
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
        tmp[l] = v;
    return tmp;
}

uint64_t *x_dst(struct xctx *x, const struct isa_operand *o, uint64_t *scratch)
{
    if (o->kind == ISA_OPND_REG && !o->comp)
        return x_reg(x, o->a);
    return scratch;
}

void x_write(struct xctx *x, const struct isa_operand *o, uint32_t mask, const uint64_t *v)
{
    uint64_t *d, wm;

    if (o->kind != ISA_OPND_REG)
        return;
    d = x_reg(x, o->a);
    wm = width_mask(isa_type_info((enum isa_type)x->f->regs[o->a].type)->bits);
    if (o->comp >= 5) { /* byte/half selector: insert */
        unsigned sh = o->comp >= 9 ? (o->comp - 9) * 16 : (o->comp - 5) * 8;
        uint64_t fm = (o->comp >= 9 ? UINT64_C(0xffff) : UINT64_C(0xff)) << sh;

        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
            if (mask >> l & 1)
                d[l] = (d[l] & ~fm) | ((v[l] << sh) & fm);
        return;
    }
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
        if (mask >> l & 1)
            d[l] = v[l] & wm;
}

uint64_t x_sym_addr(struct xctx *x, uint8_t symscope, uint32_t idx, uint8_t *space)
{
    const struct isa_var *v;

    switch (symscope) {
    case ISA_SYM_PARAM:
        if (x->f->is_entry) {
            *space = ISA_SPACE_PARAM;
            return x->fi->param_off[idx];
        }
        *space = ISA_SPACE_LOCAL;
        return x->fr->local_base + x->fi->param_off[idx];
    case ISA_SYM_RET:
        *space = ISA_SPACE_LOCAL;
        return x->fr->local_base + x->fi->ret_off[idx];
    case ISA_SYM_LOCAL:
        v = &x->f->locals[idx];
        if (v->space == ISA_SPACE_SHARED) {
            *space = ISA_SPACE_SHARED;
            return x->fi->local_off[idx];
        }
        *space = ISA_SPACE_LOCAL;
        return x->fr->local_base + x->fi->local_off[idx];
    default:
        v = &x->p->m->vars[idx];
        if (v->space == ISA_SPACE_SHARED) {
            uint32_t off = x->p->ki[x->L->kernel].shared_off[idx];

            *space = ISA_SPACE_SHARED;
            return off == UINT32_MAX ? 0 : off;
        }
        *space = v->space == ISA_SPACE_CONST ? ISA_SPACE_CONST : ISA_SPACE_GLOBAL;
        return x->p->var_addr[idx];
    }
}
