/*
 * Texture and surface instructions on texture and surface objects (the
 * handle is a .u64 register or immediate; see isa/texture.h): tex, tld4 and
 * txq, suld.b, sust.b and suq, lane by lane. Geometries 1d, 2d, 3d, a1d and
 * a2d; tex.level and tex.grad read level 0 (ptxsim has no mipmaps). Cube
 * maps, multisample geometries, texture references (.texref), formatted
 * surface stores (sust.p) and sured are refused by name. For the timing
 * model each lane's access is the first texel (or surface element) it
 * reads or writes, as a global access.
 *
 * OpenCL images (isa/climage.h) use independent texturing: tex names the
 * image and a sampler, [img, smp, {coords}], where smp holds the sampler_t
 * bits; tex without a sampler reads as OpenCL's sampler-less reads do. The
 * image and sampler may be registers or .texref/.samplerref kernel
 * parameters (whose values are the handle and the bits); module-scope
 * references stay refused.
 * Formatted surface access (suld.p / sust.p, x in elements, values converted
 * to and from the image's format) works on OpenCL images.
 */
#include <math.h>
#include <string.h>

#include "isa/climage.h"
#include "isa/devmem.h"
#include "isa/exec_int.h"
#include "isa/opcode.h"
#include "isa/texture.h"

/* The value of the instruction's modifier in category cat, or 0. */
static unsigned mod_of(const struct xctx *x, enum isa_cat cat)
{
    for (unsigned i = 0; i < x->in->nmods; i++) {
        const struct isa_mod_info *mi = isa_mod_info((enum isa_mod)x->in->mods[i]);

        if (mi && mi->cat == cat)
            return mi->value;
    }
    return 0;
}

static const struct isa_operand *elem(const struct xctx *x, const struct isa_operand *o, uint32_t i)
{
    if (o->kind == ISA_OPND_VEC || o->kind == ISA_OPND_BRLIST)
        return i < o->n ? &x->f->ops[o->a + i] : NULL;
    return i ? NULL : o;
}

/*
 * A .texref / .samplerref / .surfref kernel parameter named as an operand (the PTX of
 * OpenCL compilers in independent mode): its value, the handle or sampler bits the launch
 * passed, into every lane of out. false when h is no such parameter.
 */
static bool param_ref(struct xctx *x, const struct isa_operand *h, uint64_t *out)
{
    uint8_t space;
    uint64_t a, v;

    enum isa_type t;

    if (h->kind != ISA_OPND_SYM || h->symscope != ISA_SYM_PARAM || !x->f->is_entry)
        return false;
    t = (enum isa_type)x->f->params[h->a].type;
    if (t != ISA_TYPE_TEXREF && t != ISA_TYPE_SAMPLERREF && t != ISA_TYPE_SURFREF)
        return false;
    a = x_sym_addr(x, h->symscope, h->a, &space);
    if (a >= x->L->param_bytes || x->L->param_bytes - a < sizeof(v))
        return false;
    memcpy(&v, x->L->params + a, sizeof(v));
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
        out[l] = v;
    return true;
}

/* Per-lane object handles of the operand [h] or [h, coords]; PS_ENOTSUP for a .texref. */
static int handles(struct xctx *x, const struct isa_operand *o, uint64_t *out, uint64_t *tmp)
{
    const struct isa_operand *h = o->kind == ISA_OPND_BRLIST ? elem(x, o, 0) : o;
    const uint64_t *v;

    if (param_ref(x, h, out))
        return 0;
    if (h->kind == ISA_OPND_ADDR && (h->flags & ISA_OPF_ADDR_REG)) {
        v = x_reg(x, h->a);
        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++)
            out[l] = v[l] + (uint64_t)h->v.i;
        return 0;
    }
    if (h->kind == ISA_OPND_SYM || (h->kind == ISA_OPND_ADDR && (h->flags & ISA_OPF_ADDR_SYM)))
        return isa_fault(x->w, 0, PS_ENOTSUP, 0,
                         "texture and surface references (.texref/.surfref) are not supported: "
                         "use texture and surface objects");
    v = x_src(x, h, ISA_TYPE_U64, tmp);
    memcpy(out, v, sizeof(uint64_t) * ISA_WARP_SIZE);
    return 0;
}

/* Whether the operand is [texture, sampler, coords] (independent texturing). */
static bool independent(const struct isa_operand *o)
{
    return o->kind == ISA_OPND_BRLIST && o->n == 3;
}

/* Coordinate element i of every lane as raw bits (0 when the operand has no such element). */
static void coord(struct xctx *x, const struct isa_operand *o, uint32_t i, uint64_t *out)
{
    const struct isa_operand *c =
        o->kind == ISA_OPND_BRLIST ? elem(x, o, independent(o) ? 2 : 1) : NULL;
    const struct isa_operand *e = c ? elem(x, c, i) : NULL;
    uint64_t tmp[ISA_WARP_SIZE];

    if (!e || e->kind == ISA_OPND_SINK) {
        memset(out, 0, sizeof(uint64_t) * ISA_WARP_SIZE);
        return;
    }
    memcpy(out, x_src(x, e, ISA_TYPE_B32, tmp), sizeof(uint64_t) * ISA_WARP_SIZE);
}

static void record_global(struct xctx *x, unsigned size, bool store, const uint64_t *addr)
{
    if (!x->info)
        return;
    x->info->space = ISA_SPACE_GLOBAL;
    x->info->size = (uint8_t)size;
    x->info->is_store = store;
    memset(x->info->lane_space, ISA_SPACE_GLOBAL, sizeof(x->info->lane_space));
    memcpy(x->info->addr, addr, sizeof(x->info->addr));
}

static float as_f32(uint64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float f;

    memcpy(&f, &u, sizeof(f));
    return f;
}

static uint64_t f32_bits(float f)
{
    uint32_t u;

    memcpy(&u, &f, sizeof(u));
    return u;
}

/* Geometry: dimensions, whether the first coordinate is a layer, or 0 when refused. */
static uint32_t geometry(struct xctx *x, bool *layered, int *rc)
{
    unsigned g = mod_of(x, ISA_CAT_GEOM);

    *layered = g == 4 || g == 5;
    *rc = 0;
    switch (g) {
    case 1:
    case 4:
        return 1;
    case 2:
    case 5:
        return 2;
    case 3:
        return 3;
    default:
        *rc = isa_fault(x->w, 0, PS_ENOTSUP, 0, "%s geometry of '%s' is not supported",
                        g == 6 || g == 7 ? "cube-map" : "multisample",
                        isa_op_info((enum isa_op)x->in->op)->name);
        return 0;
    }
}

static int bad_handle(struct xctx *x, uint32_t l, uint64_t h, bool surface)
{
    return isa_fault(x->w, l, PS_EINVAL, 0, "%s object handle 0x%llx is not a live %s object",
                     surface ? "surface" : "texture", (unsigned long long)h,
                     surface ? "surface" : "texture");
}

/* Writes four per-lane results into the destination vector (as many elements as it has). */
static void write4(struct xctx *x, uint64_t res[4][ISA_WARP_SIZE])
{
    const struct isa_operand *d = &x->ops[0];

    for (uint32_t k = 0; k < 4; k++) {
        const struct isa_operand *e = elem(x, d, k);

        if (e && e->kind == ISA_OPND_REG)
            x_write(x, e, x->exec, res[k]);
    }
}

/* One lane's texel values as the destination type wants them. */
static void put_lane(const struct isa_texval *v, bool as_float, uint64_t res[4][ISA_WARP_SIZE],
                     uint32_t l)
{
    for (uint32_t k = 0; k < 4; k++)
        res[k][l] = as_float ? f32_bits(v->v[k]) : (uint64_t)(uint32_t)v->i[k];
}

/*
 * read_image* on OpenCL image t for lane l: the sampler is the lane's smp value (independent
 * mode) or OpenCL's sampler-less read.
 */
static int cl_fetch(struct xctx *x, uint32_t l, const struct isa_texobj *t, const uint64_t *smp,
                    const float *cf, const int32_t *ci, bool fc, int64_t layer, bool as_float,
                    struct isa_texval *v, uint64_t *addr)
{
    uint64_t s = smp ? smp[l] : ISA_CLK_NO_SAMPLER;

    if (s >> 32 || !isa_cl_sampler_valid((uint32_t)s))
        return isa_fault(x->w, l, PS_EINVAL, 0, "sampler value 0x%llx is not an OpenCL sampler",
                         (unsigned long long)s);
    return isa_cl_sample(isa_device_mem(x->p->dev), t, (uint32_t)s, cf, ci, fc, layer, as_float, v,
                         addr);
}

/* The lane's texel from CUDA texture object t (tex or tld4). */
static int cuda_fetch(struct xctx *x, const struct isa_texobj *t, bool gather, const float *cf,
                      const int32_t *ci, bool fc, uint32_t layer, bool as_float,
                      struct isa_texval *v, uint64_t *addr)
{
    if (gather)
        return isa_tex_gather(isa_device_mem(x->p->dev), t, cf, mod_of(x, ISA_CAT_TEXCOMP) - 1,
                              as_float, v, addr);
    return isa_tex_sample(isa_device_mem(x->p->dev), t, cf, ci, fc, layer, as_float, v, addr);
}

static int exec_tex(struct xctx *x, bool gather)
{
    const struct isa_operand *src = &x->ops[1];
    enum isa_type dt = (enum isa_type)x->in->types[0], ct = (enum isa_type)x->in->types[1];
    bool layered, as_float = dt == ISA_TYPE_F32, fc = ct == ISA_TYPE_F32;
    uint64_t h[ISA_WARP_SIZE], tmp[ISA_WARP_SIZE], c[4][ISA_WARP_SIZE], addr[ISA_WARP_SIZE] = {0};
    uint64_t res[4][ISA_WARP_SIZE], smp[ISA_WARP_SIZE];
    uint32_t dims, first;
    bool indep = independent(src);
    int rc;

    if (!(dims = geometry(x, &layered, &rc)))
        return rc;
    if (dt != ISA_TYPE_F32 && dt != ISA_TYPE_S32 && dt != ISA_TYPE_U32)
        return isa_fault(x->w, 0, PS_ENOTSUP, 0, "'%s' with result type .%s is not supported",
                         isa_op_info((enum isa_op)x->in->op)->name, isa_type_name(dt));
    if (gather && (dims != 2 || layered || !mod_of(x, ISA_CAT_TEXCOMP)))
        return isa_fault(x->w, 0, PS_ENOTSUP, 0,
                         "tld4 is supported on 2d textures with a component (.r .g .b .a)");
    if ((rc = handles(x, src, h, tmp)))
        return rc;
    if (indep && !param_ref(x, elem(x, src, 1), smp))
        memcpy(smp, x_src(x, elem(x, src, 1), ISA_TYPE_U64, tmp), sizeof(smp));
    first = layered ? 1 : 0;
    for (uint32_t i = 0; i < 4; i++)
        coord(x, src, i, c[i]);
    memset(res, 0, sizeof(res));
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        const struct isa_texobj *t;
        struct isa_texval v;
        float cf[3] = {0, 0, 0};
        int32_t ci[3] = {0, 0, 0};

        if (!(x->exec >> l & 1))
            continue;
        if (!(t = isa_texobj_get(x->p->dev, h[l], false)))
            return bad_handle(x, l, h[l], false);
        for (uint32_t d = 0; d < dims && d < 3; d++) {
            cf[d] = as_f32(c[first + d][l]);
            ci[d] = (int32_t)(uint32_t)c[first + d][l];
        }
        if (t->cl_order && !gather)
            rc = cl_fetch(x, l, t, indep ? smp : NULL, cf, ci, fc,
                          layered ? (int32_t)(uint32_t)c[0][l] : 0, as_float, &v, &addr[l]);
        else if (t->cl_order || indep)
            return isa_fault(x->w, l, PS_ENOTSUP, 0,
                             t->cl_order ? "tld4 on an OpenCL image is not supported"
                                         : "a separate sampler (independent texturing mode) "
                                           "applies to OpenCL images only");
        else
            rc = cuda_fetch(x, t, gather, cf, ci, fc, layered ? (uint32_t)c[0][l] : 0, as_float, &v,
                            &addr[l]);
        if (rc == PS_EINVAL)
            return rc;
        if (rc)
            return isa_fault(x->w, l, PS_EFAULT, addr[l],
                             "texture fetch outside device memory at 0x%llx (freed resource?)",
                             (unsigned long long)addr[l]);
        put_lane(&v, as_float, res, l);
    }
    record_global(x, 4, false, addr);
    write4(x, res);
    return 0;
}

/* txq / suq: one property per lane (OpenCL channel type and order codes, as PTX says). */
static uint64_t query(const struct isa_texobj *t, unsigned q)
{
    static const uint32_t order[5] = {0, 0x10B0, 0x10B2, 0x10B4, 0x10B5}; /* R RG RGB RGBA */
    uint32_t type;

    if (t->kind == ISA_TEXK_FLOAT)
        type = t->chan_bits == 16 ? 0x10DD : 0x10DE; /* HALF_FLOAT, FLOAT */
    else
        type = (t->kind == ISA_TEXK_SIGNED ? 0x10D7 : 0x10DA) + (t->chan_bits / 16);
    switch (q) {
    case 1:
        return t->width;
    case 2:
        return t->height;
    case 3:
        return t->depth;
    case 4:
        return type;
    case 5:
        return order[t->nchan];
    case 6:
        return t->norm_coords;
    case 7:
        return t->filter_linear;
    case 8:
    case 9:
    case 10:
        return t->addr_mode[q - 8];
    case 11:
        return t->layers;
    case 12:
        return 1; /* mipmap levels */
    default:
        return 0; /* samples, and anything else */
    }
}

static int exec_query(struct xctx *x, bool surface)
{
    uint64_t h[ISA_WARP_SIZE], tmp[ISA_WARP_SIZE], out[ISA_WARP_SIZE] = {0};
    unsigned q = mod_of(x, ISA_CAT_QUERY);
    int rc;

    if ((rc = handles(x, &x->ops[1], h, tmp)))
        return rc;
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        const struct isa_texobj *t;

        if (!(x->exec >> l & 1))
            continue;
        if (!(t = isa_texobj_get(x->p->dev, h[l], surface)))
            return bad_handle(x, l, h[l], surface);
        out[l] = !t->cl_order ? query(t, q)
                 : q == 4     ? t->cl_type
                 : q == 5     ? t->cl_order
                              : query(t, q);
    }
    x_write(x, &x->ops[0], x->exec, out);
    return 0;
}

/*
 * The byte address of a surface access of size bytes at (x bytes, y, z) in layer, after the
 * out-of-bounds mode: .trap faults, .clamp moves the access to the nearest element inside,
 * .zero makes it a no-op (*skip: loads read 0, stores write nothing).
 */
static int surface_addr(struct xctx *x, uint32_t l, const struct isa_texobj *t, int64_t *c,
                        uint32_t layer, uint32_t size, uint64_t *addr, bool *skip)
{
    const uint64_t size_b[3] = {(uint64_t)t->width * isa_texel_bytes(t), t->height, t->depth};
    unsigned oob = mod_of(x, ISA_CAT_OOB);
    bool out = t->layers && layer >= t->layers;

    *skip = false;
    if (c[0] % size)
        return isa_fault(x->w, l, PS_EFAULT, 0,
                         "misaligned %u-byte surface access at x = %lld bytes", size,
                         (long long)c[0]);
    for (uint32_t d = 0; d < t->dims; d++)
        out |= c[d] < 0 || (uint64_t)c[d] + (d ? 1 : size) > size_b[d];
    if (out && oob == 3) { /* .zero */
        *skip = true;
        return 0;
    }
    if (out && oob == 4) { /* .clamp */
        for (uint32_t d = 0; d < t->dims; d++) {
            int64_t hi = (int64_t)size_b[d] - (d ? 1 : (int64_t)size);

            c[d] = c[d] < 0 ? 0 : c[d] > hi ? hi : c[d];
        }
        layer = t->layers && layer >= t->layers ? t->layers - 1 : layer;
    } else if (out) {
        return isa_fault(x->w, l, PS_EFAULT, 0,
                         "surface access out of bounds at (%lld bytes, %lld, %lld), layer %u",
                         (long long)c[0], (long long)c[1], (long long)c[2], layer);
    }
    *addr = t->addr + (uint64_t)layer * t->layer_bytes + (uint64_t)c[2] * t->slice +
            (uint64_t)c[1] * t->pitch + (uint64_t)c[0];
    return 0;
}

/*
 * One lane's formatted access (.p) to OpenCL image t: x (cc[0]) counts elements; a store
 * converts val's four components (f32 or integer bits, per the format) into the element, a
 * load converts the element into them.
 */
static int cl_formatted(struct xctx *x, uint32_t l, const struct isa_texobj *t, int64_t *cc,
                        uint32_t layer, bool store, uint64_t val[4][ISA_WARP_SIZE], uint64_t *addr)
{
    uint32_t eb = isa_texel_bytes(t), v[4];
    struct isa_texval tv;
    bool skip;
    uint8_t *p;
    int rc;

    cc[0] *= eb;
    if ((rc = surface_addr(x, l, t, cc, layer, eb, addr, &skip)) || skip)
        return rc;
    if (!(p = isa_devmem_ptr(isa_device_mem(x->p->dev), *addr, eb)))
        return isa_fault(x->w, l, PS_EFAULT, *addr,
                         "image access outside device memory at 0x%llx (released image?)",
                         (unsigned long long)*addr);
    if (store) {
        for (uint32_t k = 0; k < 4; k++)
            v[k] = (uint32_t)val[k][l];
        isa_cl_encode(t->cl_order, t->cl_type, v, p);
        return 0;
    }
    isa_cl_decode(t->cl_order, t->cl_type, p, &tv);
    for (uint32_t k = 0; k < 4; k++) {
        float f = tv.v[k];
        uint32_t u;

        memcpy(&u, &f, sizeof(u));
        val[k][l] = tv.f ? u : (uint32_t)tv.i[k];
    }
    return 0;
}

static int exec_surface(struct xctx *x, bool store)
{
    const struct isa_operand *so = &x->ops[store ? 0 : 1], *vo = &x->ops[store ? 1 : 0];
    enum isa_type ty = (enum isa_type)x->in->types[0];
    uint32_t n = x->in->vec ? x->in->vec : 1, esize = isa_type_size(ty), dims, first;
    uint64_t h[ISA_WARP_SIZE], tmp[ISA_WARP_SIZE], c[4][ISA_WARP_SIZE], addr[ISA_WARP_SIZE] = {0};
    uint64_t val[4][ISA_WARP_SIZE];
    bool layered, formatted = mod_of(x, ISA_CAT_SURFFMT) == 2;
    int rc;

    if (!(dims = geometry(x, &layered, &rc)))
        return rc;
    if ((rc = handles(x, so, h, tmp)))
        return rc;
    first = layered ? 1 : 0;
    for (uint32_t i = 0; i < 4; i++)
        coord(x, so, i, c[i]);
    memset(val, 0, sizeof(val));
    for (uint32_t k = 0; store && k < n && k < 4; k++)
        memcpy(val[k], x_src(x, elem(x, vo, k), ty, tmp), sizeof(val[k]));
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        const struct isa_texobj *t;
        int64_t cc[3] = {0, 0, 0};
        bool skip;
        uint8_t *p;

        if (!(x->exec >> l & 1))
            continue;
        if (!(t = isa_texobj_get(x->p->dev, h[l], true)))
            return bad_handle(x, l, h[l], true);
        for (uint32_t d = 0; d < dims; d++)
            cc[d] = (int32_t)(uint32_t)c[first + d][l];
        if (formatted && !t->cl_order)
            return isa_fault(x->w, l, PS_ENOTSUP, 0,
                             "formatted surface access (.p) is supported on OpenCL images only");
        if (formatted) {
            if ((rc = cl_formatted(x, l, t, cc, layered ? (uint32_t)c[0][l] : 0, store, val,
                                   &addr[l])))
                return rc;
            continue;
        }
        if ((rc = surface_addr(x, l, t, cc, layered ? (uint32_t)c[0][l] : 0, esize * n, &addr[l],
                               &skip)))
            return rc;
        if (skip)
            continue;
        if (!(p = isa_devmem_ptr(isa_device_mem(x->p->dev), addr[l], esize * n)))
            return isa_fault(x->w, l, PS_EFAULT, addr[l],
                             "surface access outside device memory at 0x%llx (freed resource?)",
                             (unsigned long long)addr[l]);
        for (uint32_t k = 0; k < n && k < 4; k++) {
            if (store)
                memcpy(p + k * esize, &val[k][l], esize);
            else
                memcpy(&val[k][l], p + k * esize, esize);
        }
    }
    record_global(x, esize * n, store, addr);
    for (uint32_t k = 0; !store && k < n && k < 4; k++) {
        const struct isa_operand *e = elem(x, vo, k);

        if (e && e->kind == ISA_OPND_REG)
            x_write(x, e, x->exec, val[k]);
    }
    return 0;
}

int x_exec_tex(struct xctx *x)
{
    switch (x->in->op) {
    case ISA_OP_TEX:
        return exec_tex(x, false);
    case ISA_OP_TLD4:
        return exec_tex(x, true);
    case ISA_OP_TXQ:
        return exec_query(x, false);
    case ISA_OP_SUQ:
        return exec_query(x, true);
    case ISA_OP_SULD:
        return exec_surface(x, false);
    case ISA_OP_SUST:
        return exec_surface(x, true);
    default:
        return isa_fault(x->w, 0, PS_ENOTSUP, 0, "surface reductions (sured) are not supported");
    }
}
