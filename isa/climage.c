/*
 * Sampling OpenCL images (see climage.h), after OpenCL 1.2 section 8.2:
 * - clamp_to_edge, clamp and none: u = s * size with normalized coordinates,
 *   else s; nearest reads i = floor(u); linear reads i0 = floor(u - 0.5) and
 *   i0 + 1 with weight a = frac(u - 0.5), each index then clamped to
 *   [0, size - 1] (clamp_to_edge; ptxsim treats none, whose out-of-range
 *   reads are undefined, the same) or to [-1, size] (clamp: outside reads the
 *   border colour, (0, 0, 0, 0) for orders with alpha, (0, 0, 0, 1) for R, RG,
 *   RGB and LUMINANCE);
 * - repeat: u = (s - floor(s)) * size; nearest i = floor(u), less size when
 *   above size - 1; linear i0 = floor(u - 0.5) (+ size when negative) and
 *   i1 = i0 + 1 (- size when above size - 1);
 * - mirrored_repeat: s' = |s - 2 rint(0.5 s)|, u = s' * size; nearest
 *   min(floor(u), size - 1); linear i0 = max(floor(u - 0.5), 0),
 *   i1 = min(i0 + 1, size - 1);
 * - linear weights are exact single-precision values, summed in the order the
 *   specification writes them ((1-a)(1-b)T00 + a(1-b)T10 + (1-a)bT01 + abT11,
 *   and likewise in 1D and 3D); read_imagei/ui and integer coordinates always
 *   use nearest;
 * - image arrays take the layer rint(coordinate) clamped to [0, layers - 1]
 *   (the caller rounds, this file clamps).
 */
#include <math.h>
#include <string.h>

#include "common/err.h"
#include "isa/climage.h"
#include "isa/devmem.h"
#include "isa/texture.h"

static float frac(float x)
{
    float f = x - floorf(x);

    return f == f ? f : 0.0f;
}

static int64_t clamp64(int64_t i, int64_t lo, int64_t hi)
{
    return i < lo ? lo : i > hi ? hi : i;
}

/* Index i after clamp ([-1, n]: outside is border) or clamp_to_edge / none ([0, n - 1]). */
static int64_t clamp_mode(int64_t i, uint32_t n, uint32_t addr)
{
    return addr == ISA_CLK_ADDR_CLAMP ? clamp64(i, -1, n) : clamp64(i, 0, (int64_t)n - 1);
}

/* The texel index of a nearest read along one dimension of n texels. */
static int64_t nearest(float s, int32_t si, bool fc, uint32_t n, uint32_t smp)
{
    uint32_t addr = smp & ISA_CLK_ADDR_MASK;
    float u;
    int64_t i;

    if (!fc)
        return clamp_mode(si, n, addr == ISA_CLK_ADDR_CLAMP ? addr : ISA_CLK_ADDR_CLAMP_TO_EDGE);
    if ((smp & ISA_CLK_NORMALIZED) && addr == ISA_CLK_ADDR_REPEAT) {
        i = isa_tex_floor_index((s - floorf(s)) * (float)n);
        return i > (int64_t)n - 1 ? i - n : i < 0 ? 0 : i;
    }
    if ((smp & ISA_CLK_NORMALIZED) && addr == ISA_CLK_ADDR_MIRRORED_REPEAT) {
        u = fabsf(s - 2.0f * rintf(0.5f * s)) * (float)n;
        return clamp64(isa_tex_floor_index(u), 0, (int64_t)n - 1);
    }
    u = (smp & ISA_CLK_NORMALIZED) ? s * (float)n : s;
    return clamp_mode(isa_tex_floor_index(u), n, addr);
}

/* The two texel indices and the weight of the second for a linear read along one dimension. */
static void linear(float s, uint32_t n, uint32_t smp, int64_t *i0, int64_t *i1, float *a)
{
    uint32_t addr = smp & ISA_CLK_ADDR_MASK;
    float u;

    if ((smp & ISA_CLK_NORMALIZED) && addr == ISA_CLK_ADDR_REPEAT) {
        u = (s - floorf(s)) * (float)n;
        *i0 = isa_tex_floor_index(u - 0.5f);
        *i1 = *i0 + 1;
        *i0 = *i0 < 0 ? *i0 + n : *i0;
        *i1 = *i1 > (int64_t)n - 1 ? *i1 - n : *i1;
        *i0 = clamp64(*i0, 0, (int64_t)n - 1); /* NaN and infinities */
        *i1 = clamp64(*i1, 0, (int64_t)n - 1);
    } else if ((smp & ISA_CLK_NORMALIZED) && addr == ISA_CLK_ADDR_MIRRORED_REPEAT) {
        u = fabsf(s - 2.0f * rintf(0.5f * s)) * (float)n;
        *i0 = isa_tex_floor_index(u - 0.5f);
        *i1 = clamp64(*i0 + 1, 0, (int64_t)n - 1);
        *i0 = clamp64(*i0, 0, (int64_t)n - 1);
    } else {
        u = (smp & ISA_CLK_NORMALIZED) ? s * (float)n : s;
        *i0 = isa_tex_floor_index(u - 0.5f);
        *i1 = clamp_mode(*i0 + 1, n, addr);
        *i0 = clamp_mode(*i0, n, addr);
    }
    *a = frac(u - 0.5f);
}

static bool has_alpha(uint32_t order)
{
    return order == ISA_CL_A || order == ISA_CL_INTENSITY || order == ISA_CL_RA ||
           order == ISA_CL_ARGB || order == ISA_CL_BGRA || order == ISA_CL_RGBA;
}

/* The element at idx[0..dims) of layer, or the border colour when an index is outside. */
static int element(const struct isa_devmem *m, const struct isa_texobj *t, const int64_t *idx,
                   uint32_t layer, struct isa_texval *o, uint64_t *addr)
{
    const uint32_t size[3] = {t->width, t->height, t->depth};
    const uint8_t *p;
    uint64_t at;

    for (uint32_t d = 0; d < t->dims; d++) {
        if (idx[d] < 0 || idx[d] >= size[d]) {
            memset(o, 0, sizeof(*o));
            o->f = isa_cl_class_of(t->cl_type) == ISA_CLC_FLOAT;
            o->v[3] = has_alpha(t->cl_order) ? 0.0f : 1.0f;
            o->i[3] = has_alpha(t->cl_order) ? 0 : 1;
            return 0;
        }
    }
    at = t->addr + (uint64_t)layer * t->layer_bytes + (uint64_t)idx[2] * t->slice +
         (uint64_t)idx[1] * t->pitch + (uint64_t)idx[0] * isa_texel_bytes(t);
    if (addr && !*addr)
        *addr = at;
    if (!(p = isa_devmem_ptr(m, at, isa_texel_bytes(t))))
        return PS_EFAULT;
    isa_cl_decode(t->cl_order, t->cl_type, p, o);
    return 0;
}

static int sample_linear(const struct isa_devmem *m, const struct isa_texobj *t, uint32_t smp,
                         const float *cf, uint32_t layer, struct isa_texval *out, uint64_t *addr)
{
    const uint32_t size[3] = {t->width, t->height, t->depth};
    int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    float a[3] = {0, 0, 0};
    int rc;

    for (uint32_t d = 0; d < t->dims; d++)
        linear(cf[d], size[d], smp, &lo[d], &hi[d], &a[d]);
    memset(out, 0, sizeof(*out));
    out->f = true;
    for (uint32_t corner = 0; corner < (1u << t->dims); corner++) {
        int64_t idx[3] = {0, 0, 0};
        float w = 1.0f;
        struct isa_texval v;

        for (uint32_t d = 0; d < t->dims; d++) {
            bool up = corner >> d & 1;

            idx[d] = up ? hi[d] : lo[d];
            w *= up ? a[d] : 1.0f - a[d];
        }
        if ((rc = element(m, t, idx, layer, &v, addr)))
            return rc;
        for (uint32_t k = 0; k < 4; k++)
            out->v[k] += w * v.v[k];
    }
    return 0;
}

int isa_cl_sample(const struct isa_devmem *m, const struct isa_texobj *t, uint32_t sampler,
                  const float *cf, const int32_t *ci, bool fc, int64_t layer, bool as_float,
                  struct isa_texval *out, uint64_t *addr)
{
    const uint32_t size[3] = {t->width, t->height, t->depth};
    int64_t idx[3] = {0, 0, 0};
    uint32_t l = t->layers ? (uint32_t)clamp64(layer, 0, (int64_t)t->layers - 1) : 0;
    int rc;

    *addr = 0;
    if (fc && as_float && (sampler & 0x30) == ISA_CLK_FILTER_LINEAR)
        return sample_linear(m, t, sampler, cf, l, out, addr);
    for (uint32_t d = 0; d < t->dims; d++)
        idx[d] = nearest(fc ? cf[d] : 0.0f, fc ? 0 : ci[d], fc, size[d], sampler);
    if ((rc = element(m, t, idx, l, out, addr)))
        return rc;
    out->f = as_float;
    return 0;
}
