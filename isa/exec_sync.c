/*
 * Barriers and warp-wide communication: bar/barrier (sync, arrive, red),
 * vote, match, shfl, activemask, redux, elect; memory fences and sleeps are
 * no-ops in the functional model, whose memory is sequentially consistent.
 */
#include <string.h>

#include "isa/exec_int.h"

static uint32_t lead_lane(uint32_t mask)
{
    return mask ? (uint32_t)__builtin_ctz(mask) : 0;
}

/* bar{.cta}.sync / .arrive / .red and barrier{.cta}.*; bar.warp.sync is a no-op here. */
static int exec_bar(struct xctx *x)
{
    const struct isa_instr *in = x->in;
    struct isa_warp *w = x->w;
    bool arrive = isa_instr_has_mod(in, ISA_MOD_ARRIVE), red = isa_instr_has_mod(in, ISA_MOD_RED);
    uint32_t k = red ? 1 : 0, id, count = 0;
    uint64_t tmp[ISA_WARP_SIZE];
    struct isa_bar *b;
    int rc;

    if (isa_instr_has_mod(in, ISA_MOD_WARP) || !x->exec)
        return x_advance(x);
    id = in->nops > k ? (uint32_t)x_src(x, &x->ops[k], ISA_TYPE_U32, tmp)[lead_lane(x->exec)] : 0;
    if (id >= ISA_NUM_BARRIERS)
        return isa_fault(w, lead_lane(x->exec), PS_EFAULT, 0, "barrier %u does not exist", id);
    if (in->nops > k + 1 && !(red && in->nops == k + 2))
        count = (uint32_t)x_src(x, &x->ops[k + 1], ISA_TYPE_U32, tmp)[lead_lane(x->exec)];
    b = &w->cta->bar[id];
    if (count)
        b->expected = count;
    /* bar.sync is .aligned: the warp arrives as a whole. barrier.sync counts the lanes that
       execute it; lanes elsewhere in the warp cannot run until release (no independent
       thread scheduling), so a CTA relying on that reports a deadlock. */
    b->arrived_threads += (uint32_t)__builtin_popcount(
        in->op == ISA_OP_BAR || isa_instr_has_mod(in, ISA_MOD_ALIGNED) ? w->live : x->exec);
    if (red) {
        const uint64_t *pv = x_src(x, &x->ops[in->nops - 1], ISA_TYPE_PRED, tmp);

        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
            if (!(x->exec >> l & 1))
                continue;
            b->red_count += pv[l] != 0;
            b->red_and &= pv[l] != 0;
            b->red_or |= pv[l] != 0;
        }
        w->bar_red = in->boolop;
        w->bar_dst = x->ops[0].a;
        w->bar_dst_base = x->fr->reg_base;
        w->bar_dst_pred = x->f->regs[x->ops[0].a].type == ISA_TYPE_PRED;
    }
    if ((rc = x_advance(x)))
        return rc;
    if (arrive)
        return 0;
    b->waiting_warps++;
    w->bar_id = (uint8_t)id;
    if (w->state == ISA_WARP_READY)
        w->state = ISA_WARP_BARRIER;
    return 0;
}

static bool bar_complete(const struct isa_cta *c, const struct isa_bar *b)
{
    uint32_t live = 0;

    if (b->expected)
        return b->arrived_threads >= b->expected;
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (c->warps[i].state != ISA_WARP_DONE)
            live += (uint32_t)__builtin_popcount(c->warps[i].live);
    return b->waiting_warps && b->arrived_threads >= live;
}

static void deliver_red(struct isa_warp *w, const struct isa_bar *b)
{
    uint64_t v, *d;

    if (!w->bar_red)
        return;
    if (w->bar_red == ISA_BOOL_POPC)
        v = b->red_count;
    else if (w->bar_red == ISA_BOOL_AND)
        v = b->red_and;
    else
        v = b->red_or;
    d = w->regs + w->bar_dst_base + (size_t)w->bar_dst * ISA_WARP_SIZE;
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
        if (w->live >> l & 1)
            d[l] = v;
    w->bar_red = 0;
}

uint32_t isa_cta_release_barriers(struct isa_cta *c)
{
    uint32_t woke = 0;

    for (uint32_t id = 0; id < ISA_NUM_BARRIERS; id++) {
        struct isa_bar *b = &c->bar[id];

        if (!b->arrived_threads || !bar_complete(c, b))
            continue;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            struct isa_warp *w = &c->warps[i];

            if (w->bar_red && (w->state == ISA_WARP_BARRIER || w->state == ISA_WARP_READY) &&
                w->bar_id == id)
                deliver_red(w, b);
            if (w->state == ISA_WARP_BARRIER && w->bar_id == id) {
                w->state = ISA_WARP_READY;
                woke++;
            }
        }
        memset(b, 0, sizeof(*b));
        b->red_and = 1;
    }
    return woke;
}

/*
 * The lanes a warp-wide operation of lane l takes part with: the executing
 * lanes in l's membermask (the last operand of the .sync forms). Lanes of
 * different cooperative-groups tiles pass different masks.
 */
static void member_masks(struct xctx *x, unsigned k, uint32_t *mm)
{
    uint64_t tmp[ISA_WARP_SIZE];
    const uint64_t *m;

    if (!x->in->sync || x->in->nops <= k) {
        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
            mm[l] = x->exec;
        return;
    }
    m = x_src(x, &x->ops[k], ISA_TYPE_B32, tmp);
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
        mm[l] = x->exec & (uint32_t)m[l];
}

static int exec_vote(struct xctx *x)
{
    uint64_t tmp[ISA_WARP_SIZE], out[ISA_WARP_SIZE];
    const uint64_t *a = x_src(x, &x->ops[1], ISA_TYPE_PRED, tmp);
    uint32_t mm[ISA_WARP_SIZE], t = 0;

    member_masks(x, 2, mm);
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
        t |= (uint32_t)((x->exec >> l & 1) && a[l]) << l;
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        uint32_t m = mm[l], v = t & m;

        switch (x->in->vote) {
        case ISA_VOTE_BALLOT: out[l] = v; break;
        case ISA_VOTE_ALL: out[l] = v == m; break;
        case ISA_VOTE_ANY: out[l] = v != 0; break;
        default: out[l] = v == m || v == 0; break;
        }
    }
    x_write(x, &x->ops[0], x->exec, out);
    return 0;
}

static int exec_match(struct xctx *x)
{
    uint64_t tmp[ISA_WARP_SIZE], out[ISA_WARP_SIZE];
    const uint64_t *a = x_src(x, &x->ops[1], (enum isa_type)x->in->types[0], tmp);
    const struct isa_operand *d = &x->ops[0];
    uint32_t mm[ISA_WARP_SIZE], all[ISA_WARP_SIZE];

    member_masks(x, 2, mm);
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        uint32_t same = 0, m = mm[l];

        if (!(x->exec >> l & 1))
            continue;
        for (uint32_t k = 0; k < ISA_WARP_SIZE; k++)
            same |= (uint32_t)((m >> k & 1) && a[k] == a[l]) << k;
        all[l] = same == m;
        out[l] = x->in->vote == ISA_VOTE_ALL ? (all[l] ? m : 0) : same;
    }
    x_write(x, d, x->exec, out);
    if ((d->flags & ISA_OPF_PAIR) && d->b != ISA_NONE) {
        uint64_t *p = x_reg(x, d->b);

        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
            if (x->exec >> l & 1)
                p[l] = all[l];
    }
    return 0;
}

/* shfl{.sync}.mode.b32 d{|p}, a, b, c{, membermask} (PTX ISA "shfl.sync"). */
static int exec_shfl(struct xctx *x)
{
    uint64_t ta[ISA_WARP_SIZE], tb[ISA_WARP_SIZE], tc[ISA_WARP_SIZE], out[ISA_WARP_SIZE],
        pv[ISA_WARP_SIZE];
    const uint64_t *a = x_src(x, &x->ops[1], ISA_TYPE_B32, ta);
    const uint64_t *b = x_src(x, &x->ops[2], ISA_TYPE_U32, tb);
    const uint64_t *c = x_src(x, &x->ops[3], ISA_TYPE_U32, tc);
    const struct isa_operand *d = &x->ops[0];

    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        uint32_t bv = (uint32_t)b[l] & 31, cv = (uint32_t)c[l] & 31, seg = (uint32_t)c[l] >> 8 & 31;
        uint32_t maxl = (l & seg) | (cv & ~seg), minl = l & seg, j;

        /* PTX ISA "shfl.sync": for .up, maxLane is the lower bound. */
        bool ok;

        switch (x->in->shfl) {
        case ISA_SHFL_UP: j = l - bv; ok = (int32_t)j >= (int32_t)maxl; break;
        case ISA_SHFL_DOWN: j = l + bv; ok = j <= maxl; break;
        case ISA_SHFL_BFLY: j = l ^ bv; ok = j <= maxl; break;
        default: j = minl | (bv & ~seg); ok = j <= maxl; break;
        }
        if (!ok)
            j = l;
        out[l] = a[j & 31];
        pv[l] = ok;
    }
    x_write(x, d, x->exec, out);
    if ((d->flags & ISA_OPF_PAIR) && d->b != ISA_NONE) {
        uint64_t *p = x_reg(x, d->b);

        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
            if (x->exec >> l & 1)
                p[l] = pv[l];
    }
    return 0;
}

/* Reduction of a over the lanes in m (redux.sync semantics), or -1 for an unknown operation. */
static int redux_over(const struct isa_instr *in, const uint64_t *a, uint32_t m, bool sgn,
                      uint32_t *out)
{
    bool first = true;
    uint32_t r = 0;

    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        uint32_t v = (uint32_t)a[l];

        if (!(m >> l & 1))
            continue;
        switch (in->atomop) {
        case ISA_ATOM_ADD: r += v; break;
        case ISA_ATOM_AND: r = first ? v : r & v; break;
        case ISA_ATOM_OR: r |= v; break;
        case ISA_ATOM_XOR: r ^= v; break;
        case ISA_ATOM_MIN: r = first || (sgn ? (int32_t)v < (int32_t)r : v < r) ? v : r; break;
        case ISA_ATOM_MAX: r = first || (sgn ? (int32_t)v > (int32_t)r : v > r) ? v : r; break;
        default: return -1;
        }
        first = false;
    }
    *out = r;
    return 0;
}

static int exec_redux(struct xctx *x)
{
    enum isa_type t = (enum isa_type)x->in->types[0];
    uint64_t tmp[ISA_WARP_SIZE], out[ISA_WARP_SIZE];
    const uint64_t *a = x_src(x, &x->ops[1], t, tmp);
    bool sgn = isa_type_info(t)->kind == ISA_TK_SINT;
    uint32_t mm[ISA_WARP_SIZE], r;

    member_masks(x, 2, mm);
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        if (!(x->exec >> l & 1))
            continue;
        if (redux_over(x->in, a, mm[l], sgn, &r))
            return isa_fault(x->w, l, PS_ENOTSUP, 0, "this form of 'redux' is not supported");
        out[l] = r;
    }
    x_write(x, &x->ops[0], x->exec, out);
    return 0;
}

static int exec_elect(struct xctx *x)
{
    const struct isa_operand *d = &x->ops[0];
    uint64_t out[ISA_WARP_SIZE];
    uint32_t leader = lead_lane(x->exec);

    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
        out[l] = leader;
    if (d->kind == ISA_OPND_REG)
        x_write(x, d, x->exec, out);
    if ((d->flags & ISA_OPF_PAIR) && d->b != ISA_NONE) {
        uint64_t *p = x_reg(x, d->b);

        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
            if (x->exec >> l & 1)
                p[l] = l == leader;
    }
    return 0;
}

int x_exec_sync(struct xctx *x)
{
    uint64_t out[ISA_WARP_SIZE];

    switch (x->in->op) {
    case ISA_OP_BAR:
    case ISA_OP_BARRIER: return exec_bar(x);
    case ISA_OP_VOTE: return exec_vote(x);
    case ISA_OP_MATCH: return exec_match(x);
    case ISA_OP_SHFL: return exec_shfl(x);
    case ISA_OP_REDUX: return exec_redux(x);
    case ISA_OP_ELECT: return exec_elect(x);
    case ISA_OP_ACTIVEMASK:
        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
            out[l] = x->active;
        x_write(x, &x->ops[0], x->exec, out);
        return 0;
    default: /* membar, fence, nanosleep, griddepcontrol, setmaxnreg */
        return 0;
    }
}
