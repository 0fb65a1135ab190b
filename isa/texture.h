/*
 * Texture and surface objects: what a 64-bit handle that a kernel passes to
 * tex, tld4, txq, suld, sust and suq stands for (a resource in device memory
 * and, for textures, a sampler), the device's table of them, and texel
 * fetching with CUDA's addressing, filtering and read modes (the "Texture
 * Fetching" appendix of the CUDA C++ Programming Guide): point sampling,
 * linear filtering with 8-bit fractional weights, clamp / wrap / mirror /
 * border addressing, normalized coordinates, element and normalized-float
 * read modes.
 */
#ifndef PTXSIM_ISA_TEXTURE_H
#define PTXSIM_ISA_TEXTURE_H

#include <stdbool.h>
#include <stdint.h>

struct isa_device;
struct isa_devmem;

enum isa_tex_kind { ISA_TEXK_SIGNED, ISA_TEXK_UNSIGNED, ISA_TEXK_FLOAT };
enum isa_tex_addr { ISA_TEXA_WRAP, ISA_TEXA_CLAMP, ISA_TEXA_MIRROR, ISA_TEXA_BORDER };

struct isa_texobj {
    bool live;
    bool surface; /* a surface object (suld/sust/suq); else a texture */
    /* The resource: texel (x, y, z) of layer l is at addr + l*layer_bytes + z*slice + y*pitch
     * + x*texel bytes. */
    uint64_t addr;
    uint32_t width, height, depth; /* texels; 1 in the dimensions the resource lacks */
    uint32_t layers;               /* layered (array) resources: layer count; else 0 */
    uint32_t dims;                 /* 1, 2 or 3 */
    uint64_t pitch, slice, layer_bytes;
    uint8_t nchan;     /* 1, 2 or 4 */
    uint8_t chan_bits; /* 8, 16 or 32 (every channel the same) */
    uint8_t kind;      /* enum isa_tex_kind; 16-bit float channels are halves */
    bool linear;       /* linear memory (cudaResourceTypeLinear): integer fetches only */
    /* The sampler (textures). */
    uint8_t addr_mode[3]; /* enum isa_tex_addr per dimension */
    bool filter_linear;
    bool read_normalized; /* cudaReadModeNormalizedFloat */
    bool norm_coords;
    float border[4];
    /* An OpenCL image (isa/climage.h) when non-zero: its cl_channel_order and cl_channel_type.
     * Such an object serves texture and surface instructions alike, samples with the sampler
     * the instruction names (independent mode) and ignores the CUDA sampler fields above. */
    uint16_t cl_order, cl_type;
};

/* Registers t with d; *handle (never 0) is what kernels receive. PS_ENOMEM or PS_EINVAL. */
int isa_texobj_create(struct isa_device *d, const struct isa_texobj *t, uint64_t *handle);
/* PS_EINVAL when handle names no live object. */
int isa_texobj_destroy(struct isa_device *d, uint64_t handle);
/* The live object of handle (of the wanted kind; OpenCL images are both), or NULL. */
const struct isa_texobj *isa_texobj_get(const struct isa_device *d, uint64_t handle, bool surface);
void isa_texobj_free_all(struct isa_device *d);

/* Bytes of one texel. */
static inline uint32_t isa_texel_bytes(const struct isa_texobj *t)
{
    return (uint32_t)t->nchan * t->chan_bits / 8;
}

/* A fetched texel or filtered value: floats when f, else integers (sign- or zero-extended). */
struct isa_texval {
    bool f;
    float v[4];
    int64_t i[4];
};

/*
 * Samples t at coordinates c[0..dims) (floats when fc, else integer texel coordinates) in layer
 * `layer`, returning as_float ? floats : raw integers. *addr gets the device address of the
 * first texel read (for the timing model). PS_EFAULT when a texel lies outside device memory.
 */
/* floor(x) as a texel index: NaN is 0, huge values are held at +-2^40 (far outside any
 * image). CUDA textures (texture.c) and OpenCL images (climage.c) share it. */
int64_t isa_tex_floor_index(float x);

int isa_tex_sample(const struct isa_devmem *m, const struct isa_texobj *t, const float *cf,
                   const int32_t *ci, bool fc, uint32_t layer, bool as_float,
                   struct isa_texval *out, uint64_t *addr);

/* The four texels of a 2D bilinear footprint, component comp (0..3), in tld4 order. */
int isa_tex_gather(const struct isa_devmem *m, const struct isa_texobj *t, const float *c,
                   uint32_t comp, bool as_float, struct isa_texval *out, uint64_t *addr);

#endif
