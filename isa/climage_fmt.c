/*
 * OpenCL image formats (see climage.h): which (order, type) pairs exist,
 * their element sizes, and the conversions of OpenCL 1.2 section 8.3:
 * normalized integers read as c / (2^n - 1) (unsigned) or
 * max(c / (2^(n-1) - 1), -1) (signed) and are written with
 * convert_<type>_sat_rte(f * (2^n - 1)) (NaN writes 0); integer channels are
 * written with saturation; half channels round to nearest even. The packed
 * types (565, 555, 101010) hold red in the high bits.
 */
#include <math.h>
#include <string.h>

#include "isa/climage.h"
#include "isa/half.h"
#include "isa/texture.h"

/* Channels an order stores; 0 for an unknown order. */
static uint32_t order_channels(uint32_t order)
{
    switch (order) {
    case ISA_CL_R:
    case ISA_CL_A:
    case ISA_CL_INTENSITY:
    case ISA_CL_LUMINANCE:
        return 1;
    case ISA_CL_RG:
    case ISA_CL_RA:
        return 2;
    case ISA_CL_RGB:
        return 3;
    case ISA_CL_RGBA:
    case ISA_CL_BGRA:
    case ISA_CL_ARGB:
        return 4;
    default:
        return 0;
    }
}

/* Bytes of one channel of a non-packed type; 0 for packed or unknown types. */
static uint32_t channel_bytes(uint32_t type)
{
    switch (type) {
    case ISA_CL_SNORM_INT8:
    case ISA_CL_UNORM_INT8:
    case ISA_CL_SIGNED_INT8:
    case ISA_CL_UNSIGNED_INT8:
        return 1;
    case ISA_CL_SNORM_INT16:
    case ISA_CL_UNORM_INT16:
    case ISA_CL_SIGNED_INT16:
    case ISA_CL_UNSIGNED_INT16:
    case ISA_CL_HALF_FLOAT:
        return 2;
    case ISA_CL_SIGNED_INT32:
    case ISA_CL_UNSIGNED_INT32:
    case ISA_CL_FLOAT:
        return 4;
    default:
        return 0;
    }
}

static bool packed(uint32_t type)
{
    return type == ISA_CL_UNORM_SHORT_565 || type == ISA_CL_UNORM_SHORT_555 ||
           type == ISA_CL_UNORM_INT_101010;
}

uint32_t isa_cl_elem_bytes(uint32_t order, uint32_t type)
{
    uint32_t n = order_channels(order), cb = channel_bytes(type);

    if (!n || (!cb && !packed(type)))
        return 0;
    if (order == ISA_CL_RGB || packed(type)) /* each only with the other */
        return order == ISA_CL_RGB && packed(type) ? (type == ISA_CL_UNORM_INT_101010 ? 4 : 2) : 0;
    if ((order == ISA_CL_BGRA || order == ISA_CL_ARGB) && cb != 1)
        return 0;
    if ((order == ISA_CL_INTENSITY || order == ISA_CL_LUMINANCE) &&
        isa_cl_class_of(type) != ISA_CLC_FLOAT)
        return 0;
    return n * cb;
}

enum isa_cl_class isa_cl_class_of(uint32_t type)
{
    if (type >= ISA_CL_SIGNED_INT8 && type <= ISA_CL_SIGNED_INT32)
        return ISA_CLC_SIGNED;
    if (type >= ISA_CL_UNSIGNED_INT8 && type <= ISA_CL_UNSIGNED_INT32)
        return ISA_CLC_UNSIGNED;
    return ISA_CLC_FLOAT;
}

bool isa_cl_sampler_valid(uint32_t bits)
{
    uint32_t filter = bits & 0x30, addr = bits & ISA_CLK_ADDR_MASK;

    if (bits & ~UINT32_C(0x3F) ||
        (filter != ISA_CLK_FILTER_NEAREST && filter != ISA_CLK_FILTER_LINEAR))
        return false;
    return addr <= ISA_CLK_ADDR_MIRRORED_REPEAT;
}

bool isa_cl_texobj_format(struct isa_texobj *t, uint32_t order, uint32_t type)
{
    uint32_t bytes = isa_cl_elem_bytes(order, type);

    if (!bytes)
        return false;
    t->cl_order = (uint16_t)order;
    t->cl_type = (uint16_t)type;
    t->chan_bits = (uint8_t)(bytes >= 4 ? 32 : bytes * 8);
    t->nchan = (uint8_t)(bytes >= 4 ? bytes / 4 : 1);
    t->kind = isa_cl_class_of(type) == ISA_CLC_SIGNED             ? ISA_TEXK_SIGNED
              : type == ISA_CL_FLOAT || type == ISA_CL_HALF_FLOAT ? ISA_TEXK_FLOAT
                                                                  : ISA_TEXK_UNSIGNED;
    return true;
}

/* For each stored channel, the component (0 r, 1 g, 2 b, 3 a) it holds. */
static const uint8_t *channel_map(uint32_t order)
{
    static const uint8_t r[] = {0}, a[] = {3}, rg[] = {0, 1}, ra[] = {0, 3}, rgba[] = {0, 1, 2, 3},
                         bgra[] = {2, 1, 0, 3}, argb[] = {3, 0, 1, 2};

    switch (order) {
    case ISA_CL_A:
        return a;
    case ISA_CL_RG:
        return rg;
    case ISA_CL_RA:
        return ra;
    case ISA_CL_BGRA:
        return bgra;
    case ISA_CL_ARGB:
        return argb;
    case ISA_CL_RGBA:
    case ISA_CL_RGB:
        return rgba;
    default:
        return r;
    }
}

static float bits_f32(uint32_t u)
{
    float f;

    memcpy(&f, &u, sizeof(f));
    return f;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;

    memcpy(&u, &f, sizeof(u));
    return u;
}

/* One stored channel k of a non-packed element: the float value and the integer value. */
static void read_channel(uint32_t type, const uint8_t *p, uint32_t k, float *f, int64_t *i)
{
    uint8_t u8 = 0;
    uint16_t u16 = 0;
    uint32_t u32 = 0;

    switch (channel_bytes(type)) {
    case 1:
        u8 = p[k];
        break;
    case 2:
        memcpy(&u16, p + 2 * k, 2);
        break;
    default:
        memcpy(&u32, p + 4 * k, 4);
        break;
    }
    switch (type) {
    case ISA_CL_SNORM_INT8:
        *f = fmaxf((float)(int8_t)u8 / 127.0f, -1.0f);
        break;
    case ISA_CL_SNORM_INT16:
        *f = fmaxf((float)(int16_t)u16 / 32767.0f, -1.0f);
        break;
    case ISA_CL_UNORM_INT8:
        *f = (float)u8 / 255.0f;
        break;
    case ISA_CL_UNORM_INT16:
        *f = (float)u16 / 65535.0f;
        break;
    case ISA_CL_HALF_FLOAT:
        *f = (float)isa_half_f16_to_double(u16);
        break;
    case ISA_CL_FLOAT:
        *f = bits_f32(u32);
        break;
    case ISA_CL_SIGNED_INT8:
        *i = (int8_t)u8;
        break;
    case ISA_CL_SIGNED_INT16:
        *i = (int16_t)u16;
        break;
    case ISA_CL_SIGNED_INT32:
        *i = (int32_t)u32;
        break;
    case ISA_CL_UNSIGNED_INT8:
        *i = u8;
        break;
    case ISA_CL_UNSIGNED_INT16:
        *i = u16;
        break;
    default:
        *i = u32;
        break;
    }
    if (isa_cl_class_of(type) == ISA_CLC_FLOAT)
        *i = f32_bits(*f); /* read_imagei on a float image: undefined; the bits */
    else
        *f = (float)*i;
}

/* The three components of a packed RGB element. */
static void read_packed(uint32_t type, const uint8_t *p, float *rgb)
{
    uint32_t w = 0;

    if (type == ISA_CL_UNORM_INT_101010) {
        memcpy(&w, p, 4);
        for (int c = 0; c < 3; c++)
            rgb[c] = (float)(w >> (20 - 10 * c) & 0x3FF) / 1023.0f;
        return;
    }
    memcpy(&w, p, 2);
    if (type == ISA_CL_UNORM_SHORT_565) {
        rgb[0] = (float)(w >> 11 & 31) / 31.0f;
        rgb[1] = (float)(w >> 5 & 63) / 63.0f;
    } else {
        rgb[0] = (float)(w >> 10 & 31) / 31.0f;
        rgb[1] = (float)(w >> 5 & 31) / 31.0f;
    }
    rgb[2] = (float)(w & 31) / 31.0f;
}

void isa_cl_decode(uint32_t order, uint32_t type, const uint8_t *p, struct isa_texval *o)
{
    const uint8_t *map = channel_map(order);
    uint32_t n = order_channels(order);

    o->f = isa_cl_class_of(type) == ISA_CLC_FLOAT;
    for (uint32_t c = 0; c < 4; c++) {
        o->v[c] = c == 3 ? 1.0f : 0.0f;
        o->i[c] = c == 3 ? 1 : 0;
    }
    if (packed(type)) {
        read_packed(type, p, o->v);
        for (uint32_t c = 0; c < 3; c++)
            o->i[c] = f32_bits(o->v[c]);
        return;
    }
    for (uint32_t k = 0; k < n; k++)
        read_channel(type, p, k, &o->v[map[k]], &o->i[map[k]]);
    if (order == ISA_CL_INTENSITY || order == ISA_CL_LUMINANCE) {
        for (uint32_t c = 1; c < (order == ISA_CL_INTENSITY ? 4u : 3u); c++) {
            o->v[c] = o->v[0];
            o->i[c] = o->i[0];
        }
    }
}

/* convert_<n-bit>_sat_rte(f * scale) into [lo, hi]; NaN gives 0. */
static int32_t norm_sat(float f, float scale, int32_t lo, int32_t hi)
{
    float x = rintf(f * scale);

    if (!(x == x))
        return 0;
    return x < (float)lo ? lo : x > (float)hi ? hi : (int32_t)x;
}

static int64_t int_sat(int64_t x, int64_t lo, int64_t hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* Stored channel k of a non-packed element from the component value v (f32 bits or int). */
static void write_channel(uint32_t type, uint8_t *p, uint32_t k, uint32_t v)
{
    float f = bits_f32(v);
    int64_t s = (int32_t)v, u = v, x;

    switch (type) {
    case ISA_CL_SNORM_INT8:
        x = norm_sat(f, 127.0f, -128, 127);
        break;
    case ISA_CL_SNORM_INT16:
        x = norm_sat(f, 32767.0f, -32768, 32767);
        break;
    case ISA_CL_UNORM_INT8:
        x = norm_sat(f, 255.0f, 0, 255);
        break;
    case ISA_CL_UNORM_INT16:
        x = norm_sat(f, 65535.0f, 0, 65535);
        break;
    case ISA_CL_HALF_FLOAT:
        x = isa_half_f16_from_f32_rn(v);
        break;
    case ISA_CL_SIGNED_INT8:
        x = int_sat(s, -128, 127);
        break;
    case ISA_CL_SIGNED_INT16:
        x = int_sat(s, -32768, 32767);
        break;
    case ISA_CL_UNSIGNED_INT8:
        x = int_sat(u, 0, 255);
        break;
    case ISA_CL_UNSIGNED_INT16:
        x = int_sat(u, 0, 65535);
        break;
    default: /* 32-bit integers and floats: the bits */
        x = v;
        break;
    }
    switch (channel_bytes(type)) {
    case 1:
        p[k] = (uint8_t)x;
        break;
    case 2: {
        uint16_t h = (uint16_t)x;

        memcpy(p + 2 * k, &h, 2);
        break;
    }
    default: {
        uint32_t w = (uint32_t)x;

        memcpy(p + 4 * k, &w, 4);
        break;
    }
    }
}

static void write_packed(uint32_t type, const uint32_t v[4], uint8_t *p)
{
    uint32_t w;
    uint16_t h;

    if (type == ISA_CL_UNORM_INT_101010) {
        w = (uint32_t)norm_sat(bits_f32(v[0]), 1023.0f, 0, 1023) << 20 |
            (uint32_t)norm_sat(bits_f32(v[1]), 1023.0f, 0, 1023) << 10 |
            (uint32_t)norm_sat(bits_f32(v[2]), 1023.0f, 0, 1023);
        memcpy(p, &w, 4);
        return;
    }
    if (type == ISA_CL_UNORM_SHORT_565)
        h = (uint16_t)(norm_sat(bits_f32(v[0]), 31.0f, 0, 31) << 11 |
                       norm_sat(bits_f32(v[1]), 63.0f, 0, 63) << 5 |
                       norm_sat(bits_f32(v[2]), 31.0f, 0, 31));
    else
        h = (uint16_t)(norm_sat(bits_f32(v[0]), 31.0f, 0, 31) << 10 |
                       norm_sat(bits_f32(v[1]), 31.0f, 0, 31) << 5 |
                       norm_sat(bits_f32(v[2]), 31.0f, 0, 31));
    memcpy(p, &h, 2);
}

void isa_cl_encode(uint32_t order, uint32_t type, const uint32_t v[4], uint8_t *p)
{
    const uint8_t *map = channel_map(order);
    uint32_t n = order_channels(order);

    if (packed(type)) {
        write_packed(type, v, p);
        return;
    }
    for (uint32_t k = 0; k < n; k++)
        write_channel(type, p, k, v[map[k]]);
}
