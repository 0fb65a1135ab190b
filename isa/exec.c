/*
 * The warp interpreter's entry point: one PTX instruction for the active
 * lanes of a warp. Data-processing instructions go to isa/alu.h; memory,
 * control and synchronisation instructions to the exec_*.c files.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "isa/alu.h"
#include "isa/devmem.h"
#include "isa/exec_int.h"

/* %tid of lane `lane` of warp w: threads are numbered x fastest, then y, then z. */
static void thread_of(const struct isa_warp *w, uint32_t lane, uint32_t tid[3])
{
    const struct isa_launch *L = w->cta->L;
    uint32_t t = w->id * ISA_WARP_SIZE + lane;

    tid[0] = t % L->block[0];
    tid[1] = t / L->block[0] % L->block[1];
    tid[2] = t / (L->block[0] * L->block[1]);
}

/* ", source FILE:LINE" from the instruction's .loc (nvcc -lineinfo), or "" without one. */
static void source_of(const struct isa_module *m, const struct isa_instr *in, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!in || !in->loc_file || !in->loc_line)
        return;
    for (uint32_t i = 0; i < m->nfiles; i++)
        if (m->files[i].id == in->loc_file && m->files[i].name) {
            snprintf(buf, len, ", source %s:%u", m->files[i].name, in->loc_line);
            return;
        }
    snprintf(buf, len, ", source file %u line %u", in->loc_file, in->loc_line);
}

int isa_fault(struct isa_warp *w, uint32_t lane, int code, uint64_t addr, const char *fmt, ...)
{
    struct isa_launch *L = w->cta->L;
    struct ps_err *err = L->err;
    const struct isa_frame *fr = &w->fr[w->nfr - 1];
    const struct isa_func *f = L->p->m->funcs[fr->fidx];
    const struct isa_func *k = L->p->m->funcs[L->kernel];
    uint32_t pc = w->sp ? w->st[w->sp - 1].pc : 0;
    const struct isa_instr *in = pc < f->ninstrs ? &f->instrs[pc] : NULL;
    uint32_t tid[3];
    char msg[PS_ERR_MSG_MAX], src[PS_ERR_FILE_MAX + 32];
    va_list ap;

    if (!err)
        return code;
    thread_of(w, lane, tid);
    source_of(L->p->m, in, src, sizeof(src));
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    ps_err_set_at(err, code, L->p->m->source_name, in ? in->line : 0, in ? in->col : 0,
                  "%s in kernel '%s'%s%s, CTA (%u,%u,%u), thread (%u,%u,%u)%s", msg, k->name,
                  f != k ? ", function " : "", f != k ? f->name : "", w->cta->ctaid[0],
                  w->cta->ctaid[1], w->cta->ctaid[2], tid[0], tid[1], tid[2], src);
    err->has_fault = 1;
    snprintf(err->fault.kernel, sizeof(err->fault.kernel), "%s", k->name);
    err->fault.ptx_line = in ? in->line : 0;
    err->fault.src_file = in ? in->loc_file : 0;
    err->fault.src_line = in ? in->loc_line : 0;
    memcpy(err->fault.cta, w->cta->ctaid, sizeof(err->fault.cta));
    memcpy(err->fault.thread, tid, sizeof(err->fault.thread));
    err->fault.addr = addr;
    return code;
}

static uint64_t f32_bits(float f)
{
    uint32_t b;

    memcpy(&b, &f, 4);
    return b;
}

static uint64_t f64_bits(double d)
{
    uint64_t b;

    memcpy(&b, &d, 8);
    return b;
}

/* An immediate converted to the instruction's type t. */
static uint64_t imm_value(const struct isa_operand *o, enum isa_type t)
{
    const struct isa_type_info *ti = isa_type_info(t);
    double d;
    float fl;
    uint32_t b32;

    if (o->kind == ISA_OPND_IMM) {
        if (ti->kind == ISA_TK_FLOAT && ti->bits == 32)
            return f32_bits((float)o->v.i);
        if (ti->kind == ISA_TK_FLOAT && ti->bits == 64)
            return f64_bits((double)o->v.i);
        return (uint64_t)o->v.i & width_mask(ti->bits ? ti->bits : 64);
    }
    if (o->kind == ISA_OPND_F32) {
        b32 = (uint32_t)o->v.bits;
        memcpy(&fl, &b32, 4);
        return ti->kind == ISA_TK_FLOAT && ti->bits == 64 ? f64_bits(fl) : b32;
    }
    if (o->kind == ISA_OPND_F64) {
        memcpy(&d, &o->v.bits, 8);
        return ti->kind == ISA_TK_FLOAT && ti->bits == 32 ? f32_bits((float)d) : o->v.bits;
    }
    d = o->v.f; /* decimal literal */
    if (ti->kind == ISA_TK_FLOAT && ti->bits == 32)
        return f32_bits((float)d);
    if (ti->kind == ISA_TK_FLOAT)
        return f64_bits(d);
    return (uint64_t)(int64_t)d & width_mask(ti->bits ? ti->bits : 64);
}

static uint64_t sreg_lane(struct xctx *x, enum isa_sreg r, unsigned comp, uint32_t lane)
{
    struct isa_warp *w = x->w;
    struct isa_launch *L = x->L;
    uint32_t c = comp ? comp - 1 : 0, tid[3];

    thread_of(w, lane, tid);
    switch (r) {
    case ISA_SREG_TID: return tid[c];
    case ISA_SREG_NTID: return L->block[c];
    case ISA_SREG_CTAID: return w->cta->ctaid[c];
    case ISA_SREG_NCTAID: return L->grid[c];
    case ISA_SREG_LANEID: return lane;
    case ISA_SREG_WARPID: return w->id;
    case ISA_SREG_NWARPID: return 48;
    case ISA_SREG_SMID: return w->cta->smid;
    case ISA_SREG_NSMID: return x->p->dev->cfg.nsm;
    case ISA_SREG_GRIDID: return L->gridid;
    /*
     * Functional mode has no time: clocks count the warp's instructions,
     * deterministically. Under the timing model they read the SM's cycle.
     */
    case ISA_SREG_CLOCK: return (uint32_t)(w->cta->clock ? *w->cta->clock : w->insts);
    case ISA_SREG_CLOCK_HI: return (uint32_t)((w->cta->clock ? *w->cta->clock : w->insts) >> 32);
    case ISA_SREG_CLOCK64: return w->cta->clock ? *w->cta->clock : w->insts;
    case ISA_SREG_GLOBALTIMER: return L->warp_insts * 1000;
    case ISA_SREG_GLOBALTIMER_LO: return (uint32_t)(L->warp_insts * 1000);
    case ISA_SREG_GLOBALTIMER_HI: return (uint32_t)((L->warp_insts * 1000) >> 32);
    case ISA_SREG_LANEMASK_EQ: return UINT32_C(1) << lane;
    case ISA_SREG_LANEMASK_LT: return (UINT32_C(1) << lane) - 1;
    case ISA_SREG_LANEMASK_LE: return (UINT64_C(2) << lane) - 1;
    case ISA_SREG_LANEMASK_GT: return (uint32_t)~((UINT64_C(2) << lane) - 1);
    case ISA_SREG_LANEMASK_GE: return (uint32_t)~((UINT32_C(1) << lane) - 1);
    case ISA_SREG_DYN_SMEM: return L->dyn_shared;
    case ISA_SREG_TOTAL_SMEM:
    case ISA_SREG_AGGR_SMEM: return w->cta->shared_bytes;
    case ISA_SREG_NCLUSTERID: return L->grid[c];
    case ISA_SREG_CLUSTERID: return w->cta->ctaid[c];
    case ISA_SREG_CLUSTER_NCTAID: return 1;
    case ISA_SREG_CLUSTER_NCTARANK: return 1;
    default: return 0; /* %cluster_ctaid, %cluster_ctarank, %pm*, %envreg*: 0 */
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

int isa_warp_step(struct isa_warp *w, struct isa_step_info *info)
{
    struct xctx x;
    const struct isa_simt *top;
    enum isa_op op;
    int rc;

    if (w->state != ISA_WARP_READY || !w->sp)
        return 0;
    top = &w->st[w->sp - 1];
    x.w = w;
    x.L = w->cta->L;
    x.p = x.L->p;
    x.fr = &w->fr[w->nfr - 1];
    x.fi = &x.p->fi[x.fr->fidx];
    x.f = x.fi->f;
    x.pc = top->pc;
    if (x.pc >= x.f->ninstrs)
        return isa_fault(w, 0, PS_EFAULT, 0, "execution ran past the end of '%s'", x.f->name);
    x.in = &x.f->instrs[x.pc];
    x.ops = &x.f->ops[x.in->first_op];
    x.active = top->mask & w->live;
    x.exec = x.active & guard_mask(&x);
    x.info = info;
    x.hit_lo = x.hit_hi = 0;
    x.hit_data = NULL;
    op = (enum isa_op)x.in->op;
    w->insts++;
    x.L->warp_insts++;
    /* Lanes the guard predicate turns off do not count (as GPGPU-Sim's gpu_sim_insn). */
    x.L->thread_insts += (uint64_t)__builtin_popcount(x.exec);
    if (info) {
        memset(info, 0, sizeof(*info) - sizeof(info->addr));
        info->fidx = x.fr->fidx;
        info->pc = x.pc;
        info->active = x.exec;
        info->in = x.in;
    }
    switch (x.fi->cls[x.pc]) {
    case ISA_X_ALU: rc = exec_alu(&x); break;
    case ISA_X_MOV: rc = exec_mov(&x); break;
    case ISA_X_MEM: rc = x_exec_mem(&x); break;
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
