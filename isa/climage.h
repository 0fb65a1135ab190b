/*
 * OpenCL images on the engine's texture objects (isa/texture.h): the image
 * formats of OpenCL 1.2 (section 5.3.1.1), element decoding and encoding with
 * the conversion rules of section 8.3, and sampling with an OpenCL sampler
 * (section 8.2): normalized or unnormalized coordinates, the addressing modes
 * none, clamp_to_edge, clamp, repeat and mirrored_repeat, nearest and linear
 * filtering with full-precision weights. A texture object is an OpenCL image
 * when its cl_order is non-zero; it serves tex, txq, sust.p and suq alike.
 *
 * An OpenCL sampler reaches a kernel as its sampler_t bits (clang's
 * opencl-c-base.h values: bit 0 normalized coordinates, bits 1-3 addressing,
 * 0x10 nearest, 0x20 linear), both for in-kernel constant samplers and for
 * sampler arguments, so no sampler table is needed.
 */
#ifndef PTXSIM_ISA_CLIMAGE_H
#define PTXSIM_ISA_CLIMAGE_H

#include <stdbool.h>
#include <stdint.h>

struct isa_devmem;
struct isa_texobj;
struct isa_texval;

/* Channel orders (cl_channel_order). */
enum {
    ISA_CL_R = 0x10B0,
    ISA_CL_A = 0x10B1,
    ISA_CL_RG = 0x10B2,
    ISA_CL_RA = 0x10B3,
    ISA_CL_RGB = 0x10B4,
    ISA_CL_RGBA = 0x10B5,
    ISA_CL_BGRA = 0x10B6,
    ISA_CL_ARGB = 0x10B7,
    ISA_CL_INTENSITY = 0x10B8,
    ISA_CL_LUMINANCE = 0x10B9,
};

/* Channel data types (cl_channel_type). */
enum {
    ISA_CL_SNORM_INT8 = 0x10D0,
    ISA_CL_SNORM_INT16 = 0x10D1,
    ISA_CL_UNORM_INT8 = 0x10D2,
    ISA_CL_UNORM_INT16 = 0x10D3,
    ISA_CL_UNORM_SHORT_565 = 0x10D4,
    ISA_CL_UNORM_SHORT_555 = 0x10D5,
    ISA_CL_UNORM_INT_101010 = 0x10D6,
    ISA_CL_SIGNED_INT8 = 0x10D7,
    ISA_CL_SIGNED_INT16 = 0x10D8,
    ISA_CL_SIGNED_INT32 = 0x10D9,
    ISA_CL_UNSIGNED_INT8 = 0x10DA,
    ISA_CL_UNSIGNED_INT16 = 0x10DB,
    ISA_CL_UNSIGNED_INT32 = 0x10DC,
    ISA_CL_HALF_FLOAT = 0x10DD,
    ISA_CL_FLOAT = 0x10DE,
};

/* Sampler bits (sampler_t). */
enum {
    ISA_CLK_NORMALIZED = 0x1,
    ISA_CLK_ADDR_MASK = 0xE,
    ISA_CLK_ADDR_NONE = 0x0,
    ISA_CLK_ADDR_CLAMP_TO_EDGE = 0x2,
    ISA_CLK_ADDR_CLAMP = 0x4,
    ISA_CLK_ADDR_REPEAT = 0x6,
    ISA_CLK_ADDR_MIRRORED_REPEAT = 0x8,
    ISA_CLK_FILTER_NEAREST = 0x10,
    ISA_CLK_FILTER_LINEAR = 0x20,
};

/* The sampler a read without one uses: unnormalized, no addressing, nearest (8.2). */
#define ISA_CLK_NO_SAMPLER ISA_CLK_FILTER_NEAREST

/* What a channel type reads and writes as: read/write_imagef, _imagei or _imageui. */
enum isa_cl_class { ISA_CLC_FLOAT, ISA_CLC_SIGNED, ISA_CLC_UNSIGNED };

/* Bytes of one element of (order, type), or 0 when OpenCL 1.2 defines no such image format. */
uint32_t isa_cl_elem_bytes(uint32_t order, uint32_t type);
enum isa_cl_class isa_cl_class_of(uint32_t type);
/* Whether bits are a sampler_t value OpenCL 1.2 defines. */
bool isa_cl_sampler_valid(uint32_t bits);

/*
 * Makes t an OpenCL image of (order, type): cl_order, cl_type and a texel size
 * (nchan x chan_bits) equal to the element size. false when the format is not one.
 */
bool isa_cl_texobj_format(struct isa_texobj *t, uint32_t order, uint32_t type);

/* The element at p as (r, g, b, a): floats in v[] for ISA_CLC_FLOAT types, else integers in i[]
 * (both filled either way); channels the order lacks read 0, a missing alpha 1. */
void isa_cl_decode(uint32_t order, uint32_t type, const uint8_t *p, struct isa_texval *o);
/* Writes (r, g, b, a) into the element at p: v holds f32 bits for ISA_CLC_FLOAT types, else
 * 32-bit integers, converted with saturation (and round-to-nearest-even for normalized types). */
void isa_cl_encode(uint32_t order, uint32_t type, const uint32_t v[4], uint8_t *p);

/*
 * read_image{f,i,ui}: samples OpenCL image t with sampler bits at coordinates cf (floats, when
 * fc) or ci (integers) in layer (clamped to the image's layers), as floats when as_float.
 * *addr gets the first element's device address. PS_EFAULT when an element lies outside
 * device memory.
 */
int isa_cl_sample(const struct isa_devmem *m, const struct isa_texobj *t, uint32_t sampler,
                  const float *cf, const int32_t *ci, bool fc, int64_t layer, bool as_float,
                  struct isa_texval *out, uint64_t *addr);

#endif
