/*
 * Helpers shared by the interpreter's files (exec.c: dispatch, operands,
 * data movement; exec_mem.c: addresses and memory instructions;
 * exec_ctrl.c: SIMT stack, branches, calls, builtins; exec_sync.c:
 * barriers and warp-wide operations). Private to isa/.
 */
#ifndef PTXSIM_ISA_EXEC_INT_H
#define PTXSIM_ISA_EXEC_INT_H

#include <string.h>

#include "isa/warp.h"

/* Everything one step needs, resolved once. */
struct xctx {
    struct isa_warp *w;
    struct isa_launch *L;
    struct isa_program *p;
    struct isa_frame *fr;
    const struct isa_fimage *fi;
    const struct isa_func *f;
    const struct isa_instr *in;
    const struct isa_operand *ops; /* the instruction's operands */
    uint32_t pc;
    uint32_t active; /* SIMT mask of live lanes */
    uint32_t exec;   /* active and guard true */
    struct isa_step_info *info;
    bool plain_only; /* isa_warp_step_plain: anything but a plain global read is refused */
    /* Last global allocation hit, so a warp's lanes skip the allocation search. */
    uint64_t hit_lo, hit_hi;
    uint8_t *hit_data;
};

/* x for warp w in its current frame: launch, program, frame, function. */
static inline void x_at_frame(struct xctx *x, struct isa_warp *w)
{
    x->w = w;
    x->L = w->cta->L;
    x->p = x->L->p;
    x->fr = &w->fr[w->nfr - 1];
    x->fi = &x->p->fi[x->fr->fidx];
    x->f = x->fi->f;
}

static inline uint64_t *x_reg(const struct xctx *x, uint32_t slot)
{
    return x->w->regs + x->fr->reg_base + (size_t)slot * ISA_WARP_SIZE;
}

/* The bit patterns of a float and a double, zero-extended to a register value. */
static inline uint64_t x_f32_bits(float f)
{
    uint32_t b;

    memcpy(&b, &f, 4);
    return b;
}

static inline uint64_t x_f64_bits(double d)
{
    uint64_t b;

    memcpy(&b, &d, 8);
    return b;
}

static inline uint64_t width_mask(unsigned bits)
{
    return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

/* %tid of lane `lane` of warp w: threads are numbered x fastest, then y, then z. */
static inline void x_thread_of(const struct isa_warp *w, uint32_t lane, uint32_t tid[3])
{
    const struct isa_launch *L = w->cta->L;
    uint32_t t = w->id * ISA_WARP_SIZE + lane;

    tid[0] = t % L->block[0];
    tid[1] = t / L->block[0] % L->block[1];
    tid[2] = t / (L->block[0] * L->block[1]);
}

/* Local memory of a lane (its whole stack). */
static inline uint8_t *x_lane_local(struct isa_warp *w, uint32_t lane)
{
    return w->local + (size_t)lane * w->cta->L->p->ki[w->cta->L->kernel].stack_bytes;
}

/*
 * Operand helpers (exec_operand.c) and isa_fault (exec_fault.c, declared in warp.h):
 * the interpreter's leaves, which call no other exec*.c.
 *
 * Source operand values for all lanes, converted to type t (immediates broadcast). */
const uint64_t *x_src(struct xctx *x, const struct isa_operand *o, enum isa_type t, uint64_t *tmp);
/* Destination lanes for a register operand (or a scratch array for '_'). */
uint64_t *x_dst(struct xctx *x, const struct isa_operand *o, uint64_t *scratch);
/* Writes v (for lanes in mask) to a destination register, zero-extended to its width. */
void x_write(struct xctx *x, const struct isa_operand *o, uint32_t mask, const uint64_t *v);

/* Symbol address in its own state space (global address, shared or local offset, ...). */
uint64_t x_sym_addr(struct xctx *x, uint8_t symscope, uint32_t idx, uint8_t *space);

/* exec_mem.c: reads size bytes at a generic address as lane `lane` sees memory;
 * PS_EFAULT if invalid. */
int x_read_generic(struct xctx *x, uint32_t lane, uint64_t addr, void *buf, uint32_t size);

/* The executors of the execution classes of isa/opcodes.def (enum isa_xclass). */
int x_exec_mem(struct xctx *x);  /* MEM: ld ldu st atom red cvta isspacep prefetch ... */
int x_exec_ctrl(struct xctx *x); /* CTRL: bra brx call ret exit trap brkpt */
int x_exec_sync(struct xctx *x); /* SYNC and BAR: bar barrier membar fence vote match shfl ... */
int x_exec_tex(struct xctx *x);  /* TEX: tex tld4 txq suld sust sured suq */

/* Advances the SIMT stack past the current instruction and reconverges. */
int x_advance(struct xctx *x);
/* Pops reconverged entries and finished frames; may finish the warp. */
int x_reconverge(struct isa_warp *w);

#endif
