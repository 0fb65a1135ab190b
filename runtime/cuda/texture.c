/*
 * Texture and surface objects: cudaCreateTextureObject over a CUDA array
 * (1D, 2D, 3D, layered), pitched 2D memory or linear memory, and
 * cudaCreateSurfaceObject over an array made with cudaArraySurfaceLoadStore;
 * their destroy and descriptor getters. The engine (isa/texture.h) holds
 * what kernels read through the handle; this file turns CUDA's descriptors
 * into it and keeps the program's descriptors for the getters. Mipmapped
 * arrays, resource views and sRGB conversion are refused by name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/texture.h"
#include "runtime/cuda/cudart.h"
#include "runtime/cuda/sched.h"

void rt_texobjs_release(struct rt_ctx *c)
{
    while (c->texobjs) {
        struct rt_texobj *t = c->texobjs;

        c->texobjs = t->next;
        free(t);
    }
}

static cudaError_t refuse(const char *what)
{
    fprintf(stderr,
            "ptxsim: %s is not supported: the call returns cudaErrorNotSupported and the "
            "program goes on\n",
            what);
    return cudaErrorNotSupported;
}

/* The format part of t from a channel description; cudaErrorInvalidChannelDescriptor if bad. */
static cudaError_t format(const struct cudaChannelFormatDesc *d, struct isa_texobj *t)
{
    int bits[4] = {d->x, d->y, d->z, d->w}, n = 0;

    for (int i = 0; i < 4; i++) {
        if (bits[i] < 0 || (bits[i] && (i != n || bits[i] != d->x)))
            return cudaErrorInvalidChannelDescriptor;
        n += bits[i] != 0;
    }
    if (!n || n == 3 || (d->x != 8 && d->x != 16 && d->x != 32))
        return cudaErrorInvalidChannelDescriptor;
    switch (d->f) {
    case cudaChannelFormatKindSigned:
        t->kind = ISA_TEXK_SIGNED;
        break;
    case cudaChannelFormatKindUnsigned:
        t->kind = ISA_TEXK_UNSIGNED;
        break;
    case cudaChannelFormatKindFloat:
        if (d->x == 8)
            return cudaErrorInvalidChannelDescriptor;
        t->kind = ISA_TEXK_FLOAT;
        break;
    default:
        return cudaErrorInvalidChannelDescriptor;
    }
    t->nchan = (uint8_t)n;
    t->chan_bits = (uint8_t)d->x;
    return cudaSuccess;
}

static cudaError_t from_array(struct rt_ctx *c, cudaArray_t a, bool surface, struct isa_texobj *t)
{
    struct rt_array *r = rt_array_find(c, a);
    cudaError_t e;

    if (!r)
        return cudaErrorInvalidResourceHandle;
    if (surface && !(r->flags & cudaArraySurfaceLoadStore))
        return cudaErrorInvalidValue; /* as CUDA: the array must allow surface access */
    if ((e = format(&r->desc, t)))
        return e;
    t->addr = r->addr;
    t->pitch = r->pitch;
    t->width = (uint32_t)r->width;
    t->height = r->height ? (uint32_t)r->height : 1;
    t->depth = 1;
    if (r->flags & cudaArrayLayered) {
        t->dims = r->height ? 2 : 1;
        t->layers = r->depth ? (uint32_t)r->depth : 1;
        t->layer_bytes = r->slice;
    } else {
        t->dims = r->depth ? 3 : r->height ? 2 : 1;
        t->depth = r->depth ? (uint32_t)r->depth : 1;
    }
    t->slice = r->slice;
    return cudaSuccess;
}

static cudaError_t from_resource(struct rt_ctx *c, const struct cudaResourceDesc *res, bool surface,
                                 struct isa_texobj *t)
{
    cudaError_t e;
    size_t elem;

    switch (res->resType) {
    case cudaResourceTypeArray:
        return from_array(c, res->res.array.array, surface, t);
    case cudaResourceTypeMipmappedArray:
        return refuse("mipmapped arrays (texture LOD)");
    case cudaResourceTypeLinear:
        if (surface)
            return cudaErrorInvalidValue;
        if ((e = format(&res->res.linear.desc, t)))
            return e;
        elem = isa_texel_bytes(t);
        if (!res->res.linear.devPtr || res->res.linear.sizeInBytes < elem)
            return cudaErrorInvalidValue;
        t->addr = (uint64_t)(uintptr_t)res->res.linear.devPtr;
        t->width = (uint32_t)(res->res.linear.sizeInBytes / elem);
        t->height = t->depth = 1;
        t->dims = 1;
        t->linear = true;
        t->pitch = res->res.linear.sizeInBytes;
        return cudaSuccess;
    case cudaResourceTypePitch2D:
        if (surface)
            return cudaErrorInvalidValue;
        if ((e = format(&res->res.pitch2D.desc, t)))
            return e;
        if (!res->res.pitch2D.devPtr || !res->res.pitch2D.width || !res->res.pitch2D.height ||
            res->res.pitch2D.pitchInBytes < res->res.pitch2D.width * isa_texel_bytes(t))
            return cudaErrorInvalidValue;
        t->addr = (uint64_t)(uintptr_t)res->res.pitch2D.devPtr;
        t->width = (uint32_t)res->res.pitch2D.width;
        t->height = (uint32_t)res->res.pitch2D.height;
        t->depth = 1;
        t->dims = 2;
        t->pitch = res->res.pitch2D.pitchInBytes;
        t->slice = t->pitch * t->height;
        return cudaSuccess;
    default:
        return cudaErrorInvalidValue;
    }
}

static cudaError_t sampler(const struct cudaTextureDesc *d, struct isa_texobj *t)
{
    for (int i = 0; i < 3; i++) {
        if (d->addressMode[i] < cudaAddressModeWrap || d->addressMode[i] > cudaAddressModeBorder)
            return cudaErrorInvalidValue;
        t->addr_mode[i] = (uint8_t)d->addressMode[i]; /* the same numbering as the engine's */
    }
    if ((d->filterMode != cudaFilterModePoint && d->filterMode != cudaFilterModeLinear) ||
        (d->readMode != cudaReadModeElementType && d->readMode != cudaReadModeNormalizedFloat))
        return cudaErrorInvalidValue;
    if (d->sRGB)
        return refuse("sRGB texture reads");
    if (d->readMode == cudaReadModeNormalizedFloat && t->kind != ISA_TEXK_FLOAT &&
        t->chan_bits == 32)
        return cudaErrorInvalidValue; /* only 8- and 16-bit integers normalize */
    t->filter_linear = d->filterMode == cudaFilterModeLinear;
    t->read_normalized = d->readMode == cudaReadModeNormalizedFloat;
    t->norm_coords = d->normalizedCoords != 0;
    memcpy(t->border, d->borderColor, sizeof(t->border));
    return cudaSuccess;
}

static cudaError_t remember(struct rt_ctx *c, unsigned long long h, bool surface,
                            const struct cudaResourceDesc *res, const struct cudaTextureDesc *tex)
{
    struct rt_texobj *o = calloc(1, sizeof(*o));

    if (!o)
        return cudaErrorMemoryAllocation;
    o->handle = h;
    o->surface = surface;
    o->res = *res;
    if (tex)
        o->tex = *tex;
    o->next = c->texobjs;
    c->texobjs = o;
    return cudaSuccess;
}

static cudaError_t create(const struct cudaResourceDesc *res, const struct cudaTextureDesc *tex,
                          bool surface, unsigned long long *out)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);
    struct isa_texobj t;
    uint64_t h = 0;

    memset(&t, 0, sizeof(t));
    t.surface = surface;
    if (!e && (!out || !res || (!surface && !tex)))
        e = cudaErrorInvalidValue;
    if (!e && c->sticky)
        e = c->sticky;
    if (!e)
        e = from_resource(c, res, surface, &t);
    if (!e && !surface)
        e = sampler(tex, &t);
    if (!e && ptxsim_texobj_create(c->dev, &t, &h))
        e = cudaErrorMemoryAllocation;
    if (!e && (e = remember(c, h, surface, res, tex)) != cudaSuccess)
        ptxsim_texobj_destroy(c->dev, h);
    if (!e)
        *out = h;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                           const struct cudaResourceDesc *pResDesc,
                                           const struct cudaTextureDesc *pTexDesc,
                                           const struct cudaResourceViewDesc *pResViewDesc)
{
    if (pResViewDesc) {
        struct rt_ctx *c;
        cudaError_t e = rt_lock(&c);

        return rt_unlock(c, e ? e : refuse("texture resource views (cudaResourceViewDesc)"));
    }
    return create(pResDesc, pTexDesc, false, pTexObject);
}

RT_API cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                           const struct cudaResourceDesc *pResDesc)
{
    return create(pResDesc, NULL, true, pSurfObject);
}

static struct rt_texobj *find(struct rt_ctx *c, unsigned long long h, bool surface)
{
    for (struct rt_texobj *o = c->texobjs; o; o = o->next)
        if (o->handle == h && o->surface == surface)
            return o;
    return NULL;
}

static cudaError_t destroy(unsigned long long h, bool surface)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && h && rt_sched_on(c))
        rt_sched_drain(c); /* queued kernels may still read it */
    if (!e && h) {
        struct rt_texobj **po = &c->texobjs;

        while (*po && ((*po)->handle != h || (*po)->surface != surface))
            po = &(*po)->next;
        if (!*po) {
            e = cudaErrorInvalidValue;
        } else {
            struct rt_texobj *o = *po;

            *po = o->next;
            free(o);
            ptxsim_texobj_destroy(c->dev, h);
        }
    }
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    return destroy(texObject, false);
}

RT_API cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    return destroy(surfObject, true);
}

static cudaError_t get(unsigned long long h, bool surface, struct cudaResourceDesc *res,
                       struct cudaTextureDesc *tex)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);
    struct rt_texobj *o = e ? NULL : find(c, h, surface);

    if (!e && (!o || (!res && !tex)))
        e = cudaErrorInvalidValue;
    if (!e && res)
        *res = o->res;
    if (!e && tex)
        *tex = o->tex;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                    cudaTextureObject_t texObject)
{
    return pResDesc ? get(texObject, false, pResDesc, NULL) : cudaErrorInvalidValue;
}

RT_API cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                                   cudaTextureObject_t texObject)
{
    return pTexDesc ? get(texObject, false, NULL, pTexDesc) : cudaErrorInvalidValue;
}

RT_API cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                    cudaSurfaceObject_t surfObject)
{
    return pResDesc ? get(surfObject, true, pResDesc, NULL) : cudaErrorInvalidValue;
}
