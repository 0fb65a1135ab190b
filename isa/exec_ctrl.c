/*
 * Control flow: the SIMT reconvergence stack (immediate post-dominator
 * scheme), branches, calls and returns with per-activation registers and
 * local frames, exit, trap, and the builtin device functions (vprintf,
 * malloc, free, __assertfail).
 */
#include <stdlib.h>
#include <string.h>

#include "isa/devmem.h"
#include "isa/exec_int.h"
#include "isa/printf_fmt.h"

static int push(struct isa_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    if (w->sp == w->st_cap) {
        uint32_t ncap = w->st_cap ? w->st_cap * 2 : 16;
        struct isa_simt *ns = realloc(w->st, ncap * sizeof(*ns));

        if (!ns)
            return PS_ENOMEM;
        w->st = ns;
        w->st_cap = ncap;
    }
    w->st[w->sp++] = (struct isa_simt){pc, rpc, mask};
    return 0;
}

/* Copies return values of the finishing callee into the caller's destinations. */
static void copy_returns(struct isa_warp *w, const struct isa_frame *callee, uint32_t mask);

static void pop_frame(struct isa_warp *w, uint32_t mask)
{
    struct isa_frame *fr = &w->fr[w->nfr - 1];

    copy_returns(w, fr, mask);
    w->regs_used = fr->reg_base;
    w->nfr--;
}

int x_reconverge(struct isa_warp *w)
{
    while (w->sp) {
        struct isa_simt *top = &w->st[w->sp - 1];
        struct isa_frame *fr = &w->fr[w->nfr - 1];
        bool empty = !(top->mask & w->live);

        if (top->pc != top->rpc && !empty)
            return 0;
        if (w->sp - 1 == fr->stack_base) {
            if (w->nfr == 1) {
                w->sp--;
                w->state = ISA_WARP_DONE;
                return 0;
            }
            pop_frame(w, top->mask & w->live);
        }
        w->sp--;
    }
    w->state = ISA_WARP_DONE;
    return 0;
}

int x_advance(struct xctx *x)
{
    x->w->st[x->w->sp - 1].pc = x->pc + 1;
    return x_reconverge(x->w);
}

/* Moves `taken` lanes to target; the rest continue at pc+1; divergence pushes entries. */
static int branch(struct xctx *x, uint32_t taken, uint32_t target)
{
    struct isa_warp *w = x->w;
    uint32_t rest = x->active & ~taken, rpc;
    int rc;

    if (!rest) {
        w->st[w->sp - 1].pc = target;
        return x_reconverge(w);
    }
    if (!taken)
        return x_advance(x);
    rpc = x->fi->cfg.reconv_pc[x->pc];
    w->st[w->sp - 1].pc = rpc;
    if ((rc = push(w, x->pc + 1, rpc, rest)) || (rc = push(w, target, rpc, taken)))
        return isa_fault(w, 0, PS_ENOMEM, 0, "out of memory");
    return x_reconverge(w);
}

static int exec_bra(struct xctx *x)
{
    const struct isa_operand *o = &x->ops[0];

    if (o->kind != ISA_OPND_LABEL)
        return isa_fault(x->w, 0, PS_ENOTSUP, 0, "branch target is not a label");
    return branch(x, x->exec, x->f->labels[o->a].pos);
}

/* brx.idx: lanes may pick different targets; the first lane's group goes first. */
static int exec_brx(struct xctx *x)
{
    uint64_t tmp[ISA_WARP_SIZE];
    const uint64_t *idx = x_src(x, &x->ops[0], ISA_TYPE_U32, tmp);
    const struct isa_label *tbl = &x->f->labels[x->ops[1].a];
    uint32_t lead, group = 0;

    if (!x->exec)
        return x_advance(x);
    lead = (uint32_t)__builtin_ctz(x->exec);
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        if (!(x->exec >> l & 1))
            continue;
        if (idx[l] >= tbl->count)
            return isa_fault(x->w, l, PS_EFAULT, 0, "brx.idx index %llu outside its %u targets",
                             (unsigned long long)idx[l], tbl->count);
        group |= (uint32_t)(idx[l] == idx[lead]) << l;
    }
    if (group != x->exec) {
        /* Other groups re-run this brx once the first group reconverges. */
        struct isa_warp *w = x->w;
        uint32_t rpc = x->fi->cfg.reconv_pc[x->pc];

        w->st[w->sp - 1].pc = rpc;
        if (push(w, x->pc, rpc, x->active & ~group) ||
            push(w, x->f->labels[x->f->targets[tbl->first + idx[lead]]].pos, rpc, group))
            return isa_fault(w, 0, PS_ENOMEM, 0, "out of memory");
        return x_reconverge(w);
    }
    return branch(x, x->exec, x->f->labels[x->f->targets[tbl->first + idx[lead]]].pos);
}

static int exec_exit(struct xctx *x)
{
    x->w->live &= ~x->exec;
    return x_advance(x);
}

/* Byte size and local-memory location (or register) of a call argument/return operand. */
struct slot_ref {
    bool is_reg;
    uint32_t reg;     /* register slot (in the owning frame) */
    uint32_t off;     /* frame-relative local offset */
    uint32_t size;
};

static struct slot_ref caller_slot(const struct isa_program *p, const struct isa_frame *fr,
                                   const struct isa_operand *o)
{
    const struct isa_fimage *fi = &p->fi[fr->fidx];
    struct slot_ref r = {0};

    if (o->kind == ISA_OPND_REG) {
        r.is_reg = true;
        r.reg = o->a;
        r.size = 8;
    } else if (o->kind == ISA_OPND_SYM && o->symscope == ISA_SYM_LOCAL) {
        r.off = fr->local_base + fi->local_off[o->a];
        r.size = (uint32_t)fi->f->locals[o->a].size_bytes;
    }
    return r;
}

static void copy_returns(struct isa_warp *w, const struct isa_frame *callee, uint32_t mask)
{
    const struct isa_program *p = w->cta->L->p;
    const struct isa_frame *caller = callee - 1;
    const struct isa_func *cf = p->fi[caller->fidx].f;
    const struct isa_instr *call = &cf->instrs[callee->call_pc];
    const struct isa_operand *rets = &cf->ops[call->first_op];
    const struct isa_fimage *ci = &p->fi[callee->fidx];

    if (call->nops < 2 || rets->kind != ISA_OPND_LIST || !ci->f)
        return;
    for (uint32_t i = 0; i < rets->n && i < ci->f->nrets; i++) {
        struct slot_ref dst = caller_slot(p, caller, &cf->ops[rets->a + i]);
        const struct isa_var *rv = &ci->f->rets[i];

        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
            uint64_t v = 0;

            if (!(mask >> l & 1))
                continue;
            if (rv->space == ISA_SPACE_REG) {
                v = w->regs[callee->reg_base + (size_t)ci->ret_off[i] * ISA_WARP_SIZE + l];
            } else {
                memcpy(&v, x_lane_local(w, l) + callee->local_base + ci->ret_off[i],
                       rv->size_bytes < 8 ? rv->size_bytes : 8);
            }
            if (dst.is_reg)
                w->regs[caller->reg_base + (size_t)dst.reg * ISA_WARP_SIZE + l] = v;
            else if (dst.size)
                memcpy(x_lane_local(w, l) + dst.off,
                       rv->space == ISA_SPACE_REG
                           ? (void *)&v
                           : x_lane_local(w, l) + callee->local_base + ci->ret_off[i],
                       dst.size < rv->size_bytes ? dst.size : rv->size_bytes);
        }
    }
}

/* Value of a call argument for one lane (register, immediate or local .param variable). */
static uint64_t arg_value(struct xctx *x, const struct isa_operand *o, uint32_t lane,
                          uint32_t size)
{
    uint64_t v = 0, tmp[ISA_WARP_SIZE];

    if (o->kind == ISA_OPND_SYM && o->symscope == ISA_SYM_LOCAL) {
        memcpy(&v, x_lane_local(x->w, lane) + x->fr->local_base + x->fi->local_off[o->a],
               size < 8 ? size : 8);
        return v;
    }
    return x_src(x, o, ISA_TYPE_B64, tmp)[lane];
}

static void set_ret(struct xctx *x, const struct isa_operand *rets, uint32_t lane, uint64_t v)
{
    struct slot_ref r;

    if (!rets || !rets->n)
        return;
    r = caller_slot(x->p, x->fr, &x->f->ops[rets->a]);
    if (r.is_reg)
        x_reg(x, r.reg)[lane] = v;
    else if (r.size)
        memcpy(x_lane_local(x->w, lane) + r.off, &v, r.size < 8 ? r.size : 8);
}

struct str_ctx {
    struct xctx *x;
    uint32_t lane;
};

static int read_str(void *ctx, uint64_t addr, char *buf, size_t cap)
{
    struct str_ctx *c = ctx;

    for (size_t i = 0; i + 1 < cap; i++) {
        if (x_read_generic(c->x, c->lane, addr + i, &buf[i], 1))
            return PS_EFAULT;
        if (!buf[i])
            return 0;
    }
    buf[cap - 1] = '\0';
    return 0;
}

static int builtin_vprintf(struct xctx *x, const struct isa_operand *rets,
                           const struct isa_operand *args, uint32_t lane)
{
    char fmt[4096], *out = NULL;
    uint8_t buf[1024];
    size_t out_len = 0;
    uint64_t fa = arg_value(x, &x->f->ops[args->a], lane, 8);
    uint64_t aa = args->n > 1 ? arg_value(x, &x->f->ops[args->a + 1], lane, 8) : 0;
    struct str_ctx sc = {x, lane};
    struct ps_err err;
    int n;

    if (!fa) { /* CUDA: printf returns -1 for a NULL format */
        set_ret(x, rets, lane, (uint64_t)(int64_t)-1);
        return 0;
    }
    if (read_str(&sc, fa, fmt, sizeof(fmt)))
        return isa_fault(x->w, lane, PS_EFAULT, fa, "printf format string at 0x%llx is not readable",
                         (unsigned long long)fa);
    /* The argument buffer is read lazily up to what the format needs; clamp to what exists. */
    memset(buf, 0, sizeof(buf));
    for (uint32_t i = 0; aa && i < sizeof(buf); i++)
        if (x_read_generic(x, lane, aa + i, &buf[i], 1))
            break;
    n = isa_printf_format(fmt, buf, aa ? sizeof(buf) : 0, read_str, &sc, &out, &out_len, &err);
    if (n < 0) {
        free(out);
        return isa_fault(x->w, lane, PS_EFAULT, fa, "bad device printf: %s", err.msg);
    }
    fwrite(out, 1, out_len, x->p->dev->cfg.printf_out ? x->p->dev->cfg.printf_out : stdout);
    free(out);
    set_ret(x, rets, lane, (uint64_t)(int64_t)n);
    return 0;
}

static int builtin_assert(struct xctx *x, const struct isa_operand *args, uint32_t lane)
{
    char msg[256] = "?", file[256] = "?", fn[256] = "?";
    struct str_ctx sc = {x, lane};
    uint64_t line = args->n > 2 ? arg_value(x, &x->f->ops[args->a + 2], lane, 4) : 0;

    read_str(&sc, arg_value(x, &x->f->ops[args->a], lane, 8), msg, sizeof(msg));
    if (args->n > 1)
        read_str(&sc, arg_value(x, &x->f->ops[args->a + 1], lane, 8), file, sizeof(file));
    if (args->n > 3)
        read_str(&sc, arg_value(x, &x->f->ops[args->a + 3], lane, 8), fn, sizeof(fn));
    return isa_fault(x->w, lane, PS_ETRAP, 0, "device assertion '%s' failed at %s:%u in %s", msg,
                     file, (uint32_t)line, fn);
}

static int builtin_malloc(struct xctx *x, const struct isa_operand *rets,
                          const struct isa_operand *args, uint32_t lane)
{
    struct isa_device *d = x->p->dev;
    uint64_t size = arg_value(x, &x->f->ops[args->a], lane, 8), addr = 0;

    d->heap_touched = true;
    if (size && d->heap_used + size <= d->cfg.heap_bytes &&
        !isa_devmem_alloc(d->mem, size, 16, ISA_ALLOC_HEAP, &addr))
        d->heap_used += size;
    set_ret(x, rets, lane, addr);
    return 0;
}

static int builtin_free(struct xctx *x, const struct isa_operand *args, uint32_t lane)
{
    struct isa_device *d = x->p->dev;
    uint64_t addr = arg_value(x, &x->f->ops[args->a], lane, 8);
    const struct isa_alloc *a;

    if (!addr)
        return 0;
    a = isa_devmem_find(d->mem, addr, 1);
    if (!a || a->addr != addr || a->kind != ISA_ALLOC_HEAP)
        return isa_fault(x->w, lane, PS_EFAULT, addr, "free of 0x%llx, which malloc did not return",
                         (unsigned long long)addr);
    d->heap_used -= a->size;
    isa_devmem_free(d->mem, addr);
    return 0;
}

/*
 * The feature a call to a bodiless device-runtime function belongs to, or NULL: the device
 * runtime (libcudadevrt) ends in system calls (__cuda_syscall_*) that only a GPU's driver
 * answers, and with -rdc=false its entry points have no PTX at all.
 */
static const char *missing_feature(const char *name)
{
    static const char *const dp[] = {
        "cudaLaunchDevice",          "cudaGetParameterBuffer", "cudaDeviceSynchronize",
        "cudaStreamCreateWithFlags", "cudaGetDevice",          "cudaEvent",
        "cudaStreamWaitEvent",       "__cuda_syscall",         "__cudaCDP"};

    for (size_t i = 0; i < sizeof(dp) / sizeof(dp[0]); i++)
        if (!strncmp(name, dp[i], strlen(dp[i])))
            return "dynamic parallelism (the device runtime: kernels launching kernels)";
    if (!strncmp(name, "cudaCG", 6))
        return "cooperative groups grid synchronisation (cooperative launch)";
    return NULL;
}

static int exec_builtin(struct xctx *x, const struct isa_fimage *ci, const struct isa_operand *rets,
                        const struct isa_operand *args, uint32_t mask)
{
    static const struct isa_operand none = {.kind = ISA_OPND_LIST};
    int rc = 0;

    if (!args)
        args = &none;
    if (ci->builtin == ISA_BUILTIN_MISSING && missing_feature(ci->f->name))
        return isa_fault(x->w, 0, PS_ENOTSUP, 0, "%s is not supported: call to '%s'",
                         missing_feature(ci->f->name), ci->f->name);
    if (ci->builtin == ISA_BUILTIN_MISSING)
        return isa_fault(x->w, 0, PS_ENOTSUP, 0, "call to '%s', which has no body",
                         ci->f->name);
    for (uint32_t l = 0; l < ISA_WARP_SIZE && !rc; l++) {
        if (!(mask >> l & 1))
            continue;
        if (ci->builtin != ISA_BUILTIN_FREE && ci->builtin != ISA_BUILTIN_ASSERTFAIL && !args->n)
            return isa_fault(x->w, l, PS_EINVAL, 0, "'%s' called without arguments", ci->f->name);
        switch (ci->builtin) {
        case ISA_BUILTIN_VPRINTF: rc = builtin_vprintf(x, rets, args, l); break;
        case ISA_BUILTIN_MALLOC: rc = builtin_malloc(x, rets, args, l); break;
        case ISA_BUILTIN_FREE: rc = args->n ? builtin_free(x, args, l) : 0; break;
        default: rc = args->n ? builtin_assert(x, args, l) : isa_fault(x->w, l, PS_ETRAP, 0, "device assertion failed"); break;
        }
    }
    return rc;
}

static int enter(struct xctx *x, uint32_t fidx, const struct isa_operand *args, uint32_t mask)
{
    struct isa_warp *w = x->w;
    const struct isa_fimage *ci = &x->p->fi[fidx];
    uint32_t local_base = x->fr->local_base + x->fi->frame_bytes;
    size_t need = w->regs_used + (size_t)ci->f->nregs * ISA_WARP_SIZE;
    struct isa_frame nf;

    if (local_base + ci->frame_bytes > x->p->ki[x->L->kernel].stack_bytes)
        return isa_fault(w, (uint32_t)__builtin_ctz(mask), PS_EFAULT, 0,
                         "stack overflow calling '%s' (%u bytes of local memory per thread)",
                         ci->f->name, x->p->ki[x->L->kernel].stack_bytes);
    if (need > w->regs_cap) {
        size_t ncap = need * 2;
        uint64_t *nr = realloc(w->regs, ncap * sizeof(uint64_t));

        if (!nr)
            return isa_fault(w, 0, PS_ENOMEM, 0, "out of memory");
        w->regs = nr;
        w->regs_cap = ncap;
    }
    if (w->nfr == w->fr_cap) {
        struct isa_frame *nfr = realloc(w->fr, (w->fr_cap * 2 + 4) * sizeof(*nfr));

        if (!nfr)
            return isa_fault(w, 0, PS_ENOMEM, 0, "out of memory");
        w->fr = nfr;
        w->fr_cap = w->fr_cap * 2 + 4;
        x->fr = &w->fr[w->nfr - 1];
    }
    /* Resume after the call; lanes of other indirect targets re-run it first. */
    w->st[w->sp - 1].pc = x->pc + 1;
    if (mask != x->exec && push(w, x->pc, x->pc + 1, x->active & ~mask))
        return isa_fault(w, 0, PS_ENOMEM, 0, "out of memory");
    nf = (struct isa_frame){fidx, x->pc, w->sp, local_base, w->regs_used};
    memset(w->regs + w->regs_used, 0, (need - w->regs_used) * sizeof(uint64_t));
    for (uint32_t i = 0; args && i < args->n && i < ci->f->nparams; i++) {
        const struct isa_var *pv = &ci->f->params[i];
        uint32_t sz = (uint32_t)pv->size_bytes;

        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
            const struct isa_operand *a = &x->f->ops[args->a + i];

            if (!(mask >> l & 1))
                continue;
            if (pv->space == ISA_SPACE_REG)
                w->regs[need - (size_t)ci->f->nregs * ISA_WARP_SIZE +
                        (size_t)ci->param_off[i] * ISA_WARP_SIZE + l] = arg_value(x, a, l, 8);
            else if (a->kind == ISA_OPND_SYM && a->symscope == ISA_SYM_LOCAL)
                memcpy(x_lane_local(w, l) + local_base + ci->param_off[i],
                       x_lane_local(w, l) + x->fr->local_base + x->fi->local_off[a->a],
                       sz < x->f->locals[a->a].size_bytes ? sz : x->f->locals[a->a].size_bytes);
            else {
                uint64_t v = arg_value(x, a, l, 8);
                memcpy(x_lane_local(w, l) + local_base + ci->param_off[i], &v, sz < 8 ? sz : 8);
            }
        }
    }
    w->regs_used = need;
    w->fr[w->nfr++] = nf;
    if (push(w, 0, ci->f->ninstrs, mask))
        return isa_fault(w, 0, PS_ENOMEM, 0, "out of memory");
    return x_reconverge(w);
}

static int call_target(struct xctx *x, const struct isa_operand *t, uint32_t *fidx, uint32_t *group)
{
    uint64_t tmp[ISA_WARP_SIZE];
    const uint64_t *v;
    uint32_t lead;

    *group = x->exec;
    if (t->kind == ISA_OPND_FUNC) {
        *fidx = t->a;
        return 0;
    }
    v = x_src(x, t, ISA_TYPE_U64, tmp);
    lead = (uint32_t)__builtin_ctz(x->exec);
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
        if ((x->exec >> l & 1) && v[l] != v[lead])
            *group &= ~(UINT32_C(1) << l);
    if (v[lead] < ISA_FUNC_ADDR_BASE || v[lead] - ISA_FUNC_ADDR_BASE >= x->p->m->nfuncs ||
        x->p->m->funcs[v[lead] - ISA_FUNC_ADDR_BASE]->is_prototype)
        return isa_fault(x->w, lead, PS_EFAULT, v[lead], "indirect call to 0x%llx, not a function",
                         (unsigned long long)v[lead]);
    *fidx = (uint32_t)(v[lead] - ISA_FUNC_ADDR_BASE);
    return 0;
}

static int exec_call(struct xctx *x)
{
    const struct isa_operand *rets = NULL, *args = NULL, *target;
    struct isa_warp *w = x->w;
    uint32_t k = 0, fidx = 0, group;
    int rc;

    if (!x->exec)
        return x_advance(x);
    if (x->ops[0].kind == ISA_OPND_LIST)
        rets = &x->ops[k++];
    target = &x->ops[k++];
    if (k < x->in->nops && x->ops[k].kind == ISA_OPND_LIST)
        args = &x->ops[k];
    if ((rc = call_target(x, target, &fidx, &group)))
        return rc;
    if (!x->p->fi[fidx].f->has_body) {
        rc = exec_builtin(x, &x->p->fi[fidx], rets, args, group);
        if (rc || group != x->exec)
            return rc ? rc : isa_fault(w, 0, PS_ENOTSUP, 0, "divergent indirect call of a builtin");
        return x_advance(x);
    }
    return enter(x, fidx, args, group);
}

int x_exec_ctrl(struct xctx *x)
{
    switch (x->in->op) {
    case ISA_OP_BRA: return exec_bra(x);
    case ISA_OP_BRX: return exec_brx(x);
    case ISA_OP_CALL: return exec_call(x);
    case ISA_OP_RET: return branch(x, x->exec, x->f->ninstrs);
    case ISA_OP_EXIT: return exec_exit(x);
    case ISA_OP_TRAP:
        if (x->exec)
            return isa_fault(x->w, (uint32_t)__builtin_ctz(x->exec), PS_ETRAP, 0, "trap");
        return x_advance(x);
    default: /* brkpt: no debugger attached */
        return x_advance(x);
    }
}
