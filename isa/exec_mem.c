/*
 * Memory instructions: address generation in every state space (and the
 * generic windows of isa/devmem.h), checked loads, stores and atomics,
 * cvta and isspacep. Atomics run lane by lane in lane order, which gives
 * correct, deterministic results under contention.
 */
#include <string.h>

#include "isa/devmem.h"
#include "isa/exec_int.h"
#include "isa/half.h"

static uint64_t to_generic(uint8_t space, uint64_t a)
{
    switch (space) {
    case ISA_SPACE_SHARED:
        return ISA_SHARED_WINDOW + a;
    case ISA_SPACE_LOCAL:
        return ISA_LOCAL_WINDOW + a;
    case ISA_SPACE_PARAM:
        return ISA_PARAM_WINDOW + a;
    default:
        return a;
    }
}

/* The space an instruction accesses (generic when none is written). */
static uint8_t instr_space(const struct xctx *x)
{
    uint8_t s = x->in->space;

    if (s == ISA_SPACE_PARAM && !x->f->is_entry)
        return ISA_SPACE_LOCAL; /* a function's parameters live in its frame */
    if (s == ISA_SPACE_NONE)
        return ISA_SPACE_GENERIC;
    return s;
}

/*
 * Width mask of an effective address (PTX ISA, "Addresses as Operands"): the
 * sum of base and offset is computed in the width of the address, so a 32-bit
 * register base wraps modulo 2^32 in every state space (code that computes
 * shared addresses as base - 68*tid + 4*tid and then reads [%r+68] relies on
 * it), and so does every address of a `.address_size 32` module.
 */
static uint64_t address_mask(const struct xctx *x, const struct isa_operand *o)
{
    if (x->p->m->has_address_size && x->p->m->address_size == 32)
        return UINT32_MAX;
    if ((o->flags & ISA_OPF_ADDR_REG) && isa_type_size((enum isa_type)x->f->regs[o->a].type) <= 4)
        return UINT32_MAX;
    return UINT64_MAX;
}

/* Per-lane addresses of an address operand, in space *space. */
static void addresses(struct xctx *x, const struct isa_operand *o, uint8_t *space, uint64_t *addr)
{
    uint64_t base = 0, mask = address_mask(x, o);
    uint8_t sym_space;

    *space = instr_space(x);
    if (o->flags & ISA_OPF_ADDR_REG) {
        const uint64_t *r = x_reg(x, o->a);

        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
            addr[l] = (r[l] + (uint64_t)o->v.i) & mask;
        return;
    }
    if (o->flags & ISA_OPF_ADDR_SYM) {
        base = x_sym_addr(x, o->symscope, o->a, &sym_space);
        if (*space == ISA_SPACE_GENERIC)
            base = to_generic(sym_space, base);
        else if (*space == ISA_SPACE_PARAM)
            *space = sym_space; /* a call's .param arguments live in the caller's frame */
    }
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
        addr[l] = (base + (uint64_t)o->v.i) & mask;
}

static const char *space_word(uint8_t s)
{
    return s == ISA_SPACE_GENERIC ? "generic" : isa_space_name((enum isa_space)s);
}

/* A generic address names the space whose window holds it (global outside them all). */
static void resolve_generic(uint8_t *space, uint64_t *a)
{
    if (*space != ISA_SPACE_GENERIC)
        return;
    if (*a >= ISA_SHARED_WINDOW && *a < ISA_SHARED_WINDOW + ISA_WINDOW_SIZE)
        *space = ISA_SPACE_SHARED, *a -= ISA_SHARED_WINDOW;
    else if (*a >= ISA_LOCAL_WINDOW && *a < ISA_LOCAL_WINDOW + ISA_LOCAL_WINDOW_SIZE)
        *space = ISA_SPACE_LOCAL, *a -= ISA_LOCAL_WINDOW;
    else if (*a >= ISA_PARAM_WINDOW && *a < ISA_PARAM_WINDOW + ISA_WINDOW_SIZE)
        *space = ISA_SPACE_PARAM, *a -= ISA_PARAM_WINDOW;
    else
        *space = ISA_SPACE_GLOBAL;
}

/* The allocation the next global lanes look in first (lane_ptr). */
static void remember_alloc(struct xctx *x, const struct isa_alloc *al)
{
    x->hit_lo = al->addr;
    x->hit_hi = al->addr + al->size;
    x->hit_data = al->data;
}

/* A global access inside a writable allocation, aligned; else NULL with ISA_STEP_NOT_PLAIN. */
static uint8_t *plain_ptr(struct xctx *x, uint8_t space, uint64_t a, uint32_t size, int *rc)
{
    const struct isa_alloc *al = NULL;

    if (space == ISA_SPACE_GLOBAL && !(a & (size - 1)))
        al = isa_devmem_find(x->p->dev->mem, a, size);
    if (!al || al->readonly) {
        *rc = ISA_STEP_NOT_PLAIN;
        return NULL;
    }
    remember_alloc(x, al);
    return al->data + (a - al->addr);
}

/* Host pointer for size bytes at (space, a) as lane l sees it, or NULL after a fault. */
static uint8_t *lane_ptr_slow(struct xctx *x, uint32_t l, uint8_t space, uint64_t a, uint32_t size,
                              bool store, int *rc)
{
    struct isa_warp *w = x->w;
    const char *what = store ? "store to" : "load from";
    uint64_t limit;
    uint8_t *p = NULL;

    if (x->plain_only) /* isa_warp_step_plain: never a fault, a count or a backing page */
        return plain_ptr(x, space, a, size, rc);
    if (size > 1 && (a & (size - 1))) {
        *rc = isa_fault(w, l, PS_EFAULT, a, "misaligned %u-byte %s %s address 0x%llx", size, what,
                        space_word(space), (unsigned long long)a);
        return NULL;
    }
    resolve_generic(&space, &a);
    switch (space) {
    case ISA_SPACE_SHARED:
        limit = w->cta->shared_bytes;
        if (a < limit && size <= limit - a)
            p = w->cta->shared + a;
        break;
    case ISA_SPACE_LOCAL:
        limit = x->p->ki[x->L->kernel].stack_bytes;
        if (a < limit && size <= limit - a)
            p = x_lane_local(w, l) + a;
        break;
    case ISA_SPACE_PARAM:
        limit = x->L->param_bytes;
        if (!store && a < limit && size <= limit - a)
            p = x->L->params + a;
        break;
    default:
        if (a >= x->hit_lo && a < x->hit_hi && size <= x->hit_hi - a) {
            p = x->hit_data + (a - x->hit_lo);
        } else {
            const struct isa_alloc *al;

            p = isa_devmem_access(x->p->dev->mem, a, size, &al);
            if (al && al->readonly && store) { /* host memory registered read-only */
                *rc = isa_fault(w, l, PS_EFAULT, a, "%u-byte %s read-only host memory at 0x%llx",
                                size, what, (unsigned long long)a);
                return NULL;
            }
            if (al && !al->readonly) /* read-only ranges are never cached (stores check) */
                remember_alloc(x, al);
        }
        break;
    }
    if (!p)
        *rc = isa_fault(w, l, PS_EFAULT, a, "%s %u-byte %s %s address 0x%llx",
                        a < ISA_GLOBAL_BASE && space == ISA_SPACE_GLOBAL ? "null or invalid"
                                                                         : "out-of-bounds",
                        size, what, space_word(space), (unsigned long long)a);
    return p;
}

/*
 * lane_ptr_slow's answer for the common cases without a call: an aligned
 * access inside the CTA's shared memory, or inside the global allocation
 * the last access found (x->hit_*, never a read-only one).
 */
static inline uint8_t *lane_ptr(struct xctx *x, uint32_t l, uint8_t space, uint64_t a,
                                uint32_t size, bool store, int *rc)
{
    if (!(a & (size - 1))) {
        if (space == ISA_SPACE_SHARED) {
            uint64_t limit = x->w->cta->shared_bytes;

            if (a < limit && size <= limit - a)
                return x->w->cta->shared + a;
        } else if (space == ISA_SPACE_GLOBAL && a >= x->hit_lo && a < x->hit_hi &&
                   size <= x->hit_hi - a) {
            return x->hit_data + (a - x->hit_lo);
        }
    }
    return lane_ptr_slow(x, l, space, a, size, store, rc);
}

int x_read_generic(struct xctx *x, uint32_t lane, uint64_t addr, void *buf, uint32_t size)
{
    int rc = 0;
    uint8_t *p = lane_ptr(x, lane, ISA_SPACE_GENERIC, addr, 1, false, &rc);

    if (!p)
        return rc;
    if (size > 1 && !lane_ptr(x, lane, ISA_SPACE_GENERIC, addr + size - 1, 1, false, &rc))
        return rc;
    memcpy(buf, p, size);
    return 0;
}

/*
 * The size (1, 2, 4 or at most 8) bytes at p, zero-extended. A load of the
 * same width: copying a narrower value into a zeroed 64-bit word and then
 * reading the word back defeats the processor's store forwarding, which
 * cost more than the rest of a load instruction.
 */
static uint64_t load_bytes(const uint8_t *p, uint32_t size)
{
    uint8_t b;
    uint16_t h;
    uint32_t w;
    uint64_t d = 0;

    switch (size) {
    case 1:
        b = *p;
        return b;
    case 2:
        memcpy(&h, p, 2);
        return h;
    case 4:
        memcpy(&w, p, 4);
        return w;
    case 8:
        memcpy(&d, p, 8);
        return d;
    default:
        memcpy(&d, p, size > 8 ? 8 : size);
        return d;
    }
}

/*
 * Stores the low size (1, 2, 4 or at most 8) bytes of v at p. Each common
 * width is a copy of constant size, which the compiler turns into one
 * store; a variable-size memcpy is a library call per lane.
 */
static void store_bytes(uint8_t *p, uint64_t v, uint32_t size)
{
    uint16_t h = (uint16_t)v;
    uint32_t w = (uint32_t)v;

    switch (size) {
    case 1:
        *p = (uint8_t)v;
        return;
    case 2:
        memcpy(p, &h, 2);
        return;
    case 4:
        memcpy(p, &w, 4);
        return;
    case 8:
        memcpy(p, &v, 8);
        return;
    default:
        memcpy(p, &v, size > 8 ? 8 : size);
        return;
    }
}

/* v, loaded as type ti, widened (sign-extended for signed types) to dst_bits. */
static uint64_t extend(uint64_t v, const struct isa_type_info *ti, unsigned dst_bits)
{
    if (ti->kind == ISA_TK_SINT && ti->bits < 64 && (v >> (ti->bits - 1) & 1))
        v |= ~width_mask(ti->bits);
    return v & width_mask(dst_bits);
}

static void record(struct xctx *x, uint8_t space, unsigned size, bool store, const uint64_t *addr)
{
    if (!x->info)
        return;
    x->info->space = space;
    x->info->size = (uint8_t)size;
    x->info->is_store = store;
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        uint8_t sp = space;
        uint64_t a = addr[l];

        resolve_generic(&sp, &a);
        x->info->lane_space[l] = sp;
        x->info->addr[l] = a;
    }
}

/* Destination or source registers of element i (vector operands have several). */
static const struct isa_operand *element(const struct xctx *x, const struct isa_operand *o,
                                         uint32_t i)
{
    return o->kind == ISA_OPND_VEC ? &x->f->ops[o->a + i] : o;
}

/*
 * When every active lane's access is aligned and inside the CTA's shared
 * memory, or inside one global allocation, the host pointer of address *a0
 * (lane l's bytes are then at that pointer + addr[l] - *a0); else NULL, and
 * lane_ptr checks lane by lane, counts and faults where it must. Looking an
 * allocation up has no side effect.
 */
static uint8_t *span(struct xctx *x, uint8_t space, const uint64_t *addr, uint32_t size,
                     uint64_t *a0)
{
    uint64_t lo = UINT64_MAX, hi = 0, bits = 0;
    const struct isa_alloc *al;

    if (!x->exec)
        return NULL;
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        if (!(x->exec >> l & 1))
            continue;
        lo = addr[l] < lo ? addr[l] : lo;
        hi = addr[l] > hi ? addr[l] : hi;
        bits |= addr[l];
    }
    if ((bits & (size - 1)) || hi > UINT64_MAX - size)
        return NULL;
    *a0 = 0;
    if (space == ISA_SPACE_SHARED)
        return hi + size <= x->w->cta->shared_bytes ? x->w->cta->shared : NULL;
    if (space != ISA_SPACE_GLOBAL)
        return NULL;
    if (!(lo >= x->hit_lo && hi + size <= x->hit_hi)) {
        if (!(al = isa_devmem_find(x->p->dev->mem, lo, hi + size - lo)))
            return NULL;
        if (al->readonly) { /* loads may read it; the cache of lane_ptr is for stores too */
            if (x->plain_only) /* plain_ptr refuses it */
                return NULL;
            *a0 = al->addr;
            return al->data;
        }
        remember_alloc(x, al);
    }
    *a0 = x->hit_lo;
    return x->hit_data;
}

/*
 * The common load, one 4- or 8-byte element per lane into a register of its
 * width (or wider, unsigned): nothing to extend, and the width is fixed for
 * the whole loop, so each lane is one load instead of a switch on the size.
 */
static int load_lanes_word(struct xctx *x, uint8_t space, const uint64_t *addr, uint32_t size)
{
    uint64_t val[ISA_WARP_SIZE], a0 = 0;
    const uint8_t *base = span(x, space, addr, size, &a0); /* one block: no per-lane checks */
    uint32_t w;
    int rc = 0;

    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        const uint8_t *p;

        if (!(x->exec >> l & 1))
            continue;
        if (base)
            p = base + (addr[l] - a0);
        else if (!(p = lane_ptr(x, l, space, addr[l], size, false, &rc)))
            return rc;
        if (size == 4) {
            memcpy(&w, p, 4);
            val[l] = w;
        } else {
            memcpy(&val[l], p, 8);
        }
    }
    x_write(x, &x->ops[0], x->exec, val);
    return 0;
}

/* The load's elements from addr[] (one per lane, in space) into its destination registers. */
static int load_lanes(struct xctx *x, uint8_t space, const uint64_t *addr)
{
    const struct isa_operand *d = &x->ops[0];
    enum isa_type t = (enum isa_type)x->in->types[0];
    const struct isa_type_info *ti = isa_type_info(t); /* once, not per lane */
    uint32_t size = isa_type_size(t), n = x->in->vec ? x->in->vec : 1;
    uint64_t val[ISA_WARP_SIZE];
    int rc = 0;

    if (n == 1 && (size == 4 || size == 8) && d->kind == ISA_OPND_REG && !d->comp) {
        unsigned rbits = isa_type_info((enum isa_type)x->f->regs[d->a].type)->bits;

        if (rbits == ti->bits || (rbits > ti->bits && ti->kind != ISA_TK_SINT))
            return load_lanes_word(x, space, addr, size);
    }

    for (uint32_t i = 0; i < n; i++) {
        const struct isa_operand *e = element(x, d, i);
        unsigned bits = e->kind == ISA_OPND_REG
                            ? isa_type_info((enum isa_type)x->f->regs[e->a].type)->bits
                            : 64;

        /* element 0 checks each lane's whole vector, so a refusal comes before any write */
        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
            uint8_t *p;

            if (!(x->exec >> l & 1))
                continue;
            p = lane_ptr(x, l, space, addr[l] + i * size, i ? size : size * n, false, &rc);
            if (!p)
                return rc;
            val[l] = extend(load_bytes(p, size), ti, bits);
        }
        x_write(x, e, x->exec, val);
    }
    return 0;
}

static int exec_ld(struct xctx *x)
{
    enum isa_type t = (enum isa_type)x->in->types[0];
    uint32_t size = isa_type_size(t), n = x->in->vec ? x->in->vec : 1;
    uint64_t addr[ISA_WARP_SIZE];
    uint8_t space;

    addresses(x, &x->ops[1], &space, addr);
    record(x, space, size * n, false, addr);
    return load_lanes(x, space, addr);
}

int isa_warp_reload(struct isa_warp *w, const struct isa_step_info *info)
{
    struct xctx x = {0};
    struct isa_simt now;
    uint32_t sp = w->sp;
    int rc;

    x_at_frame(&x, w); /* a load changes no frame: the load's own */
    x.pc = info->pc;
    x.in = &x.f->instrs[x.pc];
    x.ops = &x.f->ops[x.in->first_op];
    x.active = x.exec = info->active;
    x.plain_only = true;
    if ((rc = load_lanes(&x, ISA_SPACE_GLOBAL, info->addr)) != ISA_STEP_NOT_PLAIN)
        return rc;
    /*
     * An allocation changed under it (a device free or malloc earlier in the
     * order): read as the sequential order does, which may fault, with the
     * warp's SIMT stack as it was at the load so a fault names its line.
     */
    now = w->st[info->sp0 - 1];
    w->st[info->sp0 - 1] = info->top0;
    w->sp = info->sp0;
    x.plain_only = false;
    rc = load_lanes(&x, ISA_SPACE_GLOBAL, info->addr);
    w->st[info->sp0 - 1] = now;
    w->sp = sp;
    return rc;
}

static int exec_st(struct xctx *x)
{
    const struct isa_operand *s = &x->ops[1];
    enum isa_type t = (enum isa_type)x->in->types[0];
    uint32_t size = isa_type_size(t), n = x->in->vec ? x->in->vec : 1;
    uint64_t addr[ISA_WARP_SIZE], tmp[ISA_WARP_SIZE];
    uint8_t space;
    int rc = 0;

    addresses(x, &x->ops[0], &space, addr);
    record(x, space, size * n, true, addr);
    if (space == ISA_SPACE_PARAM || space == ISA_SPACE_CONST)
        return isa_fault(x->w, 0, PS_EFAULT, addr[0], "store to read-only .%s space",
                         space_word(space));
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t *v = x_src(x, element(x, s, i), t, tmp);

        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
            uint8_t *p;

            if (!(x->exec >> l & 1))
                continue;
            p = lane_ptr(x, l, space, addr[l] + i * size, i ? size : size * n, true, &rc);
            if (!p)
                return rc;
            store_bytes(p, v[l], size);
        }
    }
    return 0;
}

static double as_f64(uint64_t b)
{
    double d;

    memcpy(&d, &b, 8);
    return d;
}

static float as_f32(uint64_t b)
{
    float f;
    uint32_t u = (uint32_t)b;

    memcpy(&f, &u, 4);
    return f;
}

static int64_t sx(uint64_t v, unsigned bits)
{
    return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* Sum of two f16/bf16 values (the low 16 bits), rounded to nearest even. */
static uint64_t half_add(uint64_t a, uint64_t b, enum isa_fmt fmt)
{
    double x = isa_half_to_double(a & 0xffff, fmt), y = isa_half_to_double(b & 0xffff, fmt);

    return isa_half_from_double(isa_half_add_odd(x, y), fmt, ISA_RND_RN);
}

/* atom.add on .f16, .bf16, .f16x2 and .bf16x2 (each half added separately). */
static uint64_t half_atom_add(enum isa_type t, uint64_t old, uint64_t b)
{
    enum isa_fmt fmt = (t == ISA_TYPE_BF16 || t == ISA_TYPE_BF16X2) ? ISA_FMT_BF16 : ISA_FMT_F16;
    uint64_t lo = half_add(old, b, fmt);

    if (t == ISA_TYPE_F16 || t == ISA_TYPE_BF16)
        return lo;
    return lo | half_add(old >> 16, b >> 16, fmt) << 16;
}

/* New memory value of an atomic operation (PTX ISA "atom" semantics). */
static uint64_t atom_apply(const struct isa_instr *in, uint64_t old, uint64_t b, uint64_t c)
{
    enum isa_type t = (enum isa_type)in->types[0];
    const struct isa_type_info *ti = isa_type_info(t);
    bool is_f = ti->kind == ISA_TK_FLOAT, is_s = ti->kind == ISA_TK_SINT;
    uint64_t m = width_mask(ti->bits);

    if (in->atomop == ISA_ATOM_ADD &&
        (t == ISA_TYPE_F16 || t == ISA_TYPE_BF16 || t == ISA_TYPE_F16X2 || t == ISA_TYPE_BF16X2))
        return half_atom_add(t, old, b);

    switch (in->atomop) {
    case ISA_ATOM_AND:
        return old & b;
    case ISA_ATOM_OR:
        return old | b;
    case ISA_ATOM_XOR:
        return old ^ b;
    case ISA_ATOM_EXCH:
        return b;
    case ISA_ATOM_CAS:
        return old == b ? c : old;
    case ISA_ATOM_INC:
        return old >= b ? 0 : (old + 1) & m;
    case ISA_ATOM_DEC:
        return (old == 0 || old > b) ? b : old - 1;
    case ISA_ATOM_ADD:
        if (is_f && ti->bits == 32)
            return x_f32_bits(as_f32(old) + as_f32(b));
        if (is_f && ti->bits == 64)
            return x_f64_bits(as_f64(old) + as_f64(b));
        return (old + b) & m;
    case ISA_ATOM_MIN:
        if (is_f)
            return ti->bits == 32 ? x_f32_bits(as_f32(b) < as_f32(old) ? as_f32(b) : as_f32(old))
                                  : x_f64_bits(as_f64(b) < as_f64(old) ? as_f64(b) : as_f64(old));
        if (is_s)
            return sx(b, ti->bits) < sx(old, ti->bits) ? b : old;
        return b < old ? b : old;
    case ISA_ATOM_MAX:
        if (is_f)
            return ti->bits == 32 ? x_f32_bits(as_f32(b) > as_f32(old) ? as_f32(b) : as_f32(old))
                                  : x_f64_bits(as_f64(b) > as_f64(old) ? as_f64(b) : as_f64(old));
        if (is_s)
            return sx(b, ti->bits) > sx(old, ti->bits) ? b : old;
        return b > old ? b : old;
    default:
        return old;
    }
}

static int exec_atom(struct xctx *x)
{
    bool is_red = x->in->op == ISA_OP_RED;
    const struct isa_operand *ao = &x->ops[is_red ? 0 : 1];
    enum isa_type t = (enum isa_type)x->in->types[0];
    uint32_t size = isa_type_size(t);
    uint64_t addr[ISA_WARP_SIZE], tb[ISA_WARP_SIZE], tc[ISA_WARP_SIZE], old[ISA_WARP_SIZE];
    const uint64_t *b = x_src(x, &x->ops[is_red ? 1 : 2], t, tb), *c = b;
    uint8_t space;
    int rc = 0;

    if (x->in->vec || size > 8 || size < 2)
        return isa_fault(x->w, 0, PS_ENOTSUP, 0, "this form of '%s' is not supported",
                         is_red ? "red" : "atom");
    if (x->in->atomop == ISA_ATOM_CAS)
        c = x_src(x, &x->ops[3], t, tc);
    addresses(x, ao, &space, addr);
    record(x, space, size, true, addr);
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        uint8_t *p;
        uint64_t v, nv;

        if (!(x->exec >> l & 1))
            continue;
        p = lane_ptr(x, l, space, addr[l], size, true, &rc);
        if (!p)
            return rc;
        v = load_bytes(p, size);
        nv = atom_apply(x->in, v, b[l], c[l]);
        store_bytes(p, nv, size);
        old[l] = v;
    }
    if (!is_red)
        x_write(x, &x->ops[0], x->exec, old);
    return 0;
}

static uint64_t window_of(uint8_t space, bool is_entry)
{
    switch (space) {
    case ISA_SPACE_SHARED:
        return ISA_SHARED_WINDOW;
    case ISA_SPACE_LOCAL:
        return ISA_LOCAL_WINDOW;
    case ISA_SPACE_PARAM:
        return is_entry ? ISA_PARAM_WINDOW : ISA_LOCAL_WINDOW;
    default:
        return 0;
    }
}

/* cvta.space d, a (to generic) and cvta.to.space d, a (from generic). */
static int exec_cvta(struct xctx *x)
{
    uint64_t tmp[ISA_WARP_SIZE], out[ISA_WARP_SIZE];
    const uint64_t *a = x_src(x, &x->ops[1], ISA_TYPE_U64, tmp);
    uint64_t win = window_of(x->in->space, x->f->is_entry);
    bool to = isa_instr_has_mod(x->in, ISA_MOD_TO);

    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
        out[l] = to ? a[l] - win : a[l] + win;
    if (!win)
        memcpy(out, a, sizeof(out));
    x_write(x, &x->ops[0], x->exec, out);
    return 0;
}

static int exec_isspacep(struct xctx *x)
{
    uint64_t tmp[ISA_WARP_SIZE], out[ISA_WARP_SIZE];
    const uint64_t *a = x_src(x, &x->ops[1], ISA_TYPE_U64, tmp);

    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        uint64_t v = a[l];
        bool sh = v >= ISA_SHARED_WINDOW && v < ISA_SHARED_WINDOW + ISA_WINDOW_SIZE;
        bool lo = v >= ISA_LOCAL_WINDOW && v < ISA_LOCAL_WINDOW + ISA_LOCAL_WINDOW_SIZE;
        bool pa = v >= ISA_PARAM_WINDOW && v < ISA_PARAM_WINDOW + ISA_WINDOW_SIZE;

        switch (x->in->space) {
        case ISA_SPACE_SHARED:
            out[l] = sh;
            break;
        case ISA_SPACE_LOCAL:
            out[l] = lo;
            break;
        case ISA_SPACE_PARAM:
            out[l] = pa;
            break;
        default:
            out[l] = v >= ISA_GLOBAL_BASE && v < ISA_GLOBAL_END;
            break;
        }
    }
    x_write(x, &x->ops[0], x->exec, out);
    return 0;
}

int x_exec_mem(struct xctx *x)
{
    static const uint64_t zero[ISA_WARP_SIZE]; /* not a local: zeroing it cost every load */

    switch (x->in->op) {
    case ISA_OP_LD:
    case ISA_OP_LDU:
        return exec_ld(x);
    case ISA_OP_ST:
        return exec_st(x);
    case ISA_OP_ATOM:
    case ISA_OP_RED:
        return exec_atom(x);
    case ISA_OP_CVTA:
        return exec_cvta(x);
    case ISA_OP_ISSPACEP:
        return exec_isspacep(x);
    case ISA_OP_CREATEPOLICY: /* cache policies only steer caches we do not model here */
        x_write(x, &x->ops[0], x->exec, zero);
        return 0;
    default:
        /* prefetch, prefetchu, applypriority, discard: hints without results */
        return 0;
    }
}
