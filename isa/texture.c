/*
 * Texture and surface objects (see texture.h): the device's handle table
 * and texel fetching. The formulas are those of the CUDA C++ Programming
 * Guide, appendix "Texture Fetching":
 * - normalized coordinates are scaled by the size first (x * N);
 * - point sampling reads T[floor(x)];
 * - linear filtering reads the 2, 4 or 8 texels around x - 0.5 and weighs
 *   them with alpha = frac(x - 0.5) (likewise beta, gamma), each held in
 *   9-bit fixed point with 8 fractional bits (rounded to the nearest 1/256
 *   here), e.g. in 2D (1-a)(1-b)T[i,j] + a(1-b)T[i+1,j] + (1-a)bT[i,j+1] +
 *   abT[i+1,j+1], summed in that order in single precision;
 * - addressing applies to texel indices: wrap (i mod N) and mirror only
 *   with normalized coordinates (otherwise they act as clamp), clamp to
 *   [0, N-1], border gives the border colour;
 * - the normalized-float read mode maps unsigned 8/16-bit channels to
 *   [0, 1] (v / (2^n - 1)) and signed ones to [-1, 1] (max(v / (2^(n-1) - 1),
 *   -1)); channels the format lacks read 0, and a missing alpha reads 1.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "isa/devmem.h"
#include "isa/half.h"
#include "isa/texture.h"
#include "isa/warp.h"

int isa_texobj_create(struct isa_device *d, const struct isa_texobj *t, uint64_t *handle)
{
    uint32_t i;

    if (!t->nchan || t->nchan > 4 ||
        (t->chan_bits != 8 && t->chan_bits != 16 && t->chan_bits != 32) || !t->width || !t->dims ||
        t->dims > 3 || (t->dims > 1 && !t->height) || (t->dims > 2 && !t->depth))
        return PS_EINVAL;
    for (i = 0; i < d->ntex && d->tex[i].live; i++)
        ;
    if (i == d->ntex) {
        if (d->ntex == d->captex) {
            uint32_t cap = d->captex ? d->captex * 2 : 16;
            struct isa_texobj *n = realloc(d->tex, cap * sizeof(*n));

            if (!n)
                return PS_ENOMEM;
            d->tex = n;
            d->captex = cap;
        }
        d->ntex++;
    }
    d->tex[i] = *t;
    d->tex[i].live = true;
    *handle = i + 1;
    return 0;
}

int isa_texobj_destroy(struct isa_device *d, uint64_t handle)
{
    if (!handle || handle > d->ntex || !d->tex[handle - 1].live)
        return PS_EINVAL;
    d->tex[handle - 1].live = false;
    return 0;
}

const struct isa_texobj *isa_texobj_get(const struct isa_device *d, uint64_t handle, bool surface)
{
    if (!handle || handle > d->ntex || !d->tex[handle - 1].live ||
        (d->tex[handle - 1].surface != surface && !d->tex[handle - 1].cl_order))
        return NULL;
    return &d->tex[handle - 1];
}

void isa_texobj_free_all(struct isa_device *d)
{
    free(d->tex);
    d->tex = NULL;
    d->ntex = d->captex = 0;
}

/* floor(x) as an integer, with NaN as 0 and huge values held at +-2^40 (far outside). */
int64_t isa_tex_floor_index(float x)
{
    if (!(x == x))
        return 0;
    if (x > 0x1p40f)
        return INT64_C(1) << 40;
    if (x < -0x1p40f)
        return -(INT64_C(1) << 40);
    return (int64_t)floorf(x);
}

/* A border colour component as an integer (element read mode of integer textures). */
static int64_t border_int(float b)
{
    if (!(b == b))
        return 0;
    return b > 0x1p62f ? INT64_C(1) << 62 : b < -0x1p62f ? -(INT64_C(1) << 62) : (int64_t)b;
}

/* Index i of a dimension of n texels under addressing mode; false: outside (border). */
static bool address(int64_t i, uint32_t n, uint8_t mode, bool norm, int64_t *out)
{
    int64_t m;

    if (!norm && (mode == ISA_TEXA_WRAP || mode == ISA_TEXA_MIRROR))
        mode = ISA_TEXA_CLAMP;
    switch (mode) {
    case ISA_TEXA_WRAP:
        *out = ((i % n) + n) % n;
        return true;
    case ISA_TEXA_MIRROR:
        m = ((i % (2 * (int64_t)n)) + 2 * (int64_t)n) % (2 * (int64_t)n);
        *out = m < n ? m : 2 * (int64_t)n - 1 - m;
        return true;
    case ISA_TEXA_BORDER:
        *out = i;
        return i >= 0 && i < n;
    default:
        *out = i < 0 ? 0 : i >= n ? n - 1 : i;
        return true;
    }
}

/* Channel c of the texel at p, as a float (normalized for integer channels) or an integer. */
static void channel(const struct isa_texobj *t, const uint8_t *p, uint32_t c, bool as_float,
                    struct isa_texval *o)
{
    const uint8_t *q = p + c * t->chan_bits / 8;
    int64_t iv = 0;
    float fv = 0;

    switch (t->chan_bits) {
    case 8:
        iv = t->kind == ISA_TEXK_SIGNED ? (int8_t)q[0] : q[0];
        break;
    case 16: {
        uint16_t h;

        memcpy(&h, q, 2);
        if (t->kind == ISA_TEXK_FLOAT)
            fv = (float)isa_half_f16_to_double(h);
        iv = t->kind == ISA_TEXK_SIGNED ? (int16_t)h : h;
        break;
    }
    default: {
        uint32_t w;

        memcpy(&w, q, 4);
        memcpy(&fv, &w, 4);
        iv = t->kind == ISA_TEXK_SIGNED ? (int64_t)(int32_t)w : (int64_t)w;
        break;
    }
    }
    o->i[c] = iv;
    if (!as_float)
        return;
    if (t->kind == ISA_TEXK_FLOAT)
        o->v[c] = fv;
    else if (t->chan_bits == 32)
        o->v[c] = (float)iv;
    else if (t->kind == ISA_TEXK_UNSIGNED)
        o->v[c] = (float)iv / (float)((1u << t->chan_bits) - 1);
    else
        o->v[c] = fmaxf((float)iv / (float)((1u << (t->chan_bits - 1)) - 1), -1.0f);
}

/* The texel at indices idx[0..dims) of layer (addressing applied), or the border colour. */
static int texel(const struct isa_devmem *m, const struct isa_texobj *t, const int64_t *idx,
                 uint32_t layer, bool as_float, struct isa_texval *o, uint64_t *addr)
{
    const uint32_t size[3] = {t->width, t->height, t->depth};
    int64_t a[3] = {0, 0, 0};
    uint8_t mode;
    const uint8_t *p;
    uint64_t at;

    o->f = as_float;
    for (uint32_t d = 0; d < t->dims; d++) {
        mode = t->linear ? ISA_TEXA_BORDER : t->addr_mode[d];
        if (!address(idx[d], size[d], mode, t->norm_coords, &a[d])) {
            for (uint32_t c = 0; c < 4; c++) {
                o->v[c] = t->linear ? 0.0f : t->border[c];
                o->i[c] = t->linear ? 0 : border_int(t->border[c]);
            }
            return 0;
        }
    }
    at = t->addr + (uint64_t)layer * t->layer_bytes + (uint64_t)a[2] * t->slice +
         (uint64_t)a[1] * t->pitch + (uint64_t)a[0] * isa_texel_bytes(t);
    if (addr && !*addr)
        *addr = at;
    if (!(p = isa_devmem_ptr(m, at, isa_texel_bytes(t))))
        return PS_EFAULT;
    for (uint32_t c = 0; c < 4; c++) {
        o->v[c] = c == 3 ? 1.0f : 0.0f;
        o->i[c] = c == 3 ? 1 : 0;
    }
    for (uint32_t c = 0; c < t->nchan; c++)
        channel(t, p, c, as_float, o);
    return 0;
}

/* Texel space coordinate of c along a dimension of n texels. */
static float scaled(const struct isa_texobj *t, float c, uint32_t n)
{
    return t->norm_coords ? c * (float)n : c;
}

/* floor(x - 0.5) and the 8-bit fixed-point weight frac(x - 0.5). */
static int64_t split(float x, float *alpha)
{
    float xb = x - 0.5f, fl = floorf(xb);

    if (!(xb == xb) || fl > 0x1p40f || fl < -0x1p40f) { /* NaN or far outside: no blend */
        *alpha = 0;
        return isa_tex_floor_index(xb);
    }
    *alpha = floorf((xb - fl) * 256.0f + 0.5f) / 256.0f;
    return (int64_t)fl;
}

static int sample_linear(const struct isa_devmem *m, const struct isa_texobj *t, const float *c,
                         uint32_t layer, struct isa_texval *out, uint64_t *addr)
{
    const uint32_t size[3] = {t->width, t->height, t->depth};
    int64_t base[3] = {0, 0, 0};
    float alpha[3] = {0, 0, 0};
    int rc;

    for (uint32_t d = 0; d < t->dims; d++)
        base[d] = split(scaled(t, c[d], size[d]), &alpha[d]);
    memset(out, 0, sizeof(*out));
    out->f = true;
    for (uint32_t corner = 0; corner < (1u << t->dims); corner++) {
        int64_t idx[3];
        float w = 1.0f;
        struct isa_texval v;

        for (uint32_t d = 0; d < t->dims; d++) {
            bool hi = corner >> d & 1;

            idx[d] = base[d] + hi;
            w *= hi ? alpha[d] : 1.0f - alpha[d];
        }
        if ((rc = texel(m, t, idx, layer, true, &v, addr)))
            return rc;
        for (uint32_t k = 0; k < 4; k++)
            out->v[k] += w * v.v[k];
    }
    return 0;
}

int isa_tex_sample(const struct isa_devmem *m, const struct isa_texobj *t, const float *cf,
                   const int32_t *ci, bool fc, uint32_t layer, bool as_float,
                   struct isa_texval *out, uint64_t *addr)
{
    const uint32_t size[3] = {t->width, t->height, t->depth};
    int64_t idx[3] = {0, 0, 0};

    *addr = 0;
    if (t->layers)
        layer = layer < t->layers ? layer : t->layers - 1;
    else
        layer = 0;
    if (fc && as_float && t->filter_linear && !t->linear)
        return sample_linear(m, t, cf, layer, out, addr);
    for (uint32_t d = 0; d < t->dims; d++)
        idx[d] = fc ? isa_tex_floor_index(scaled(t, cf[d], size[d])) : ci[d];
    return texel(m, t, idx, layer, as_float, out, addr);
}

int isa_tex_gather(const struct isa_devmem *m, const struct isa_texobj *t, const float *c,
                   uint32_t comp, bool as_float, struct isa_texval *out, uint64_t *addr)
{
    static const int off[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    float a, b;
    int64_t i = split(scaled(t, c[0], t->width), &a), j = split(scaled(t, c[1], t->height), &b);
    int rc;

    *addr = 0;
    memset(out, 0, sizeof(*out));
    out->f = as_float;
    for (uint32_t k = 0; k < 4; k++) {
        int64_t idx[3] = {i + off[k][0], j + off[k][1], 0};
        struct isa_texval v;

        if ((rc = texel(m, t, idx, 0, as_float, &v, addr)))
            return rc;
        out->v[k] = v.v[comp];
        out->i[k] = v.i[comp];
    }
    return 0;
}
