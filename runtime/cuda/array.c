/*
 * CUDA arrays and the copies into and out of them: cudaMallocArray,
 * cudaMalloc3DArray (1D, 2D, 3D, layered; cudaArraySurfaceLoadStore),
 * cudaFreeArray, cudaArrayGetInfo, cudaGetChannelDesc, cudaMalloc3D,
 * cudaMemcpy2DToArray / 2DFromArray / 2DArrayToArray, the deprecated
 * cudaMemcpyToArray / FromArray, and cudaMemcpy3D between arrays and pitched
 * memory. An array is plain device memory (rows of width * texel bytes, no
 * padding, then slices or layers), so every copy is a sequence of 2D copies
 * (copy.c). Mipmapped arrays are refused by name (stubs.def).
 */
#include <stdio.h>
#include <stdlib.h>

#include "runtime/cuda/cudart.h"
#include "runtime/cuda/sched.h"

#define RT_PITCH3D_ALIGN 512

static struct cudaExtent extent_of(size_t w, size_t h, size_t d)
{
    struct cudaExtent e = {w, h, d};

    return e;
}

struct rt_array *rt_array_find(struct rt_ctx *c, const void *a)
{
    for (struct rt_array *r = c->arrays; r; r = r->next)
        if ((const void *)r == a)
            return r;
    return NULL;
}

void rt_arrays_release(struct rt_ctx *c)
{
    while (c->arrays) {
        struct rt_array *r = c->arrays;

        c->arrays = r->next;
        free(r);
    }
}

/* Bytes per texel of a channel description; 0 when CUDA would refuse it. */
static size_t texel_bytes(const struct cudaChannelFormatDesc *d)
{
    int bits[4] = {d->x, d->y, d->z, d->w}, n = 0;

    for (int i = 0; i < 4; i++) {
        if (bits[i] < 0 || (bits[i] && (i != n || bits[i] != d->x)))
            return 0; /* channels must come first and have the same width */
        n += bits[i] != 0;
    }
    if (n == 3 || !n || (d->x != 8 && d->x != 16 && d->x != 32))
        return 0;
    if (d->f != cudaChannelFormatKindSigned && d->f != cudaChannelFormatKindUnsigned &&
        d->f != cudaChannelFormatKindFloat)
        return 0;
    if (d->f == cudaChannelFormatKindFloat && d->x == 8)
        return 0;
    return (size_t)n * (size_t)d->x / 8;
}

static cudaError_t array_new(struct rt_ctx *c, cudaArray_t *out,
                             const struct cudaChannelFormatDesc *desc, struct cudaExtent ext,
                             unsigned flags)
{
    struct rt_array *r;
    size_t elem, rows, slices;
    uint64_t addr;

    if (!out || !desc)
        return cudaErrorInvalidValue;
    *out = NULL;
    if (!(elem = texel_bytes(desc)))
        return cudaErrorInvalidChannelDescriptor;
    if (!ext.width || (ext.depth && !ext.height && !(flags & cudaArrayLayered)))
        return cudaErrorInvalidValue;
    if (flags & (cudaArrayCubemap | cudaArraySparse | cudaArrayDeferredMapping)) {
        fprintf(stderr,
                "ptxsim: %s arrays are not supported: the call returns "
                "cudaErrorNotSupported and the program goes on\n",
                flags & cudaArrayCubemap ? "cube-map" : "sparse or deferred-mapping");
        return cudaErrorNotSupported;
    }
    if (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayTextureGather))
        return cudaErrorInvalidValue;
    rows = ext.height ? ext.height : 1;
    slices = ext.depth ? ext.depth : 1;
    if (ext.width > (SIZE_MAX / elem) / rows / slices)
        return cudaErrorInvalidValue;
    if (!(r = calloc(1, sizeof(*r))))
        return cudaErrorMemoryAllocation;
    r->desc = *desc;
    r->width = ext.width;
    r->height = ext.height;
    r->depth = ext.depth;
    r->flags = flags;
    r->elem = elem;
    r->pitch = ext.width * elem;
    r->slice = r->pitch * rows;
    if (ptxsim_malloc(c->dev, r->slice * slices, &addr)) {
        free(r);
        return cudaErrorMemoryAllocation;
    }
    r->addr = addr;
    c->dev_used = true;
    c->dev_bytes += r->slice * slices;
    r->next = c->arrays;
    c->arrays = r;
    *out = (cudaArray_t)r;
    return cudaSuccess;
}

RT_API cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                   size_t width, size_t height, unsigned int flags)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && (flags & cudaArrayLayered))
        e = cudaErrorInvalidValue; /* layered arrays come from cudaMalloc3DArray */
    if (!e)
        e = c->sticky ? c->sticky : array_new(c, array, desc, extent_of(width, height, 0), flags);
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent, unsigned int flags)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e)
        e = c->sticky ? c->sticky : array_new(c, array, desc, extent, flags);
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaFreeArray(cudaArray_t array)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && array && rt_sched_on(c))
        rt_sched_drain(c); /* cudaFreeArray synchronises */
    if (!e && array) {
        struct rt_array **pr = &c->arrays;

        while (*pr && (void *)*pr != (void *)array)
            pr = &(*pr)->next;
        if (!*pr) {
            e = cudaErrorInvalidValue;
        } else {
            struct rt_array *r = *pr;

            *pr = r->next;
            ptxsim_free(c->dev, r->addr);
            c->dev_bytes -= r->slice * (r->depth ? r->depth : 1);
            free(r);
        }
    }
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                    unsigned int *flags, cudaArray_t array)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);
    struct rt_array *r = e ? NULL : rt_array_find(c, array);

    if (!e && !r)
        e = cudaErrorInvalidValue;
    if (!e) {
        if (desc)
            *desc = r->desc;
        if (extent)
            *extent = extent_of(r->width, r->height, r->depth);
        if (flags)
            *flags = r->flags;
    }
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);
    struct rt_array *r = e ? NULL : rt_array_find(c, array);

    if (!e && (!r || !desc))
        e = cudaErrorInvalidValue;
    if (!e)
        *desc = r->desc;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaMalloc3D(struct cudaPitchedPtr *p, struct cudaExtent extent)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);
    size_t pitch = (extent.width + RT_PITCH3D_ALIGN - 1) / RT_PITCH3D_ALIGN * RT_PITCH3D_ALIGN;
    uint64_t addr = 0, bytes;

    if (!e && !p)
        e = cudaErrorInvalidValue;
    if (!e && c->sticky)
        e = c->sticky;
    if (!e && extent.height && extent.depth &&
        (pitch ? SIZE_MAX / pitch : 0) / extent.height < extent.depth)
        e = cudaErrorInvalidValue;
    bytes = (uint64_t)pitch * extent.height * extent.depth;
    if (!e && bytes && ptxsim_malloc(c->dev, bytes, &addr))
        e = cudaErrorMemoryAllocation;
    if (!e) {
        c->dev_used = true;
        c->dev_bytes += bytes;
        p->ptr = (void *)(uintptr_t)addr;
        p->pitch = pitch;
        p->xsize = extent.width;
        p->ysize = extent.height;
    }
    return rt_unlock(c, e);
}
