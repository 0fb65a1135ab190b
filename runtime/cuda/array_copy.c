/*
 * Copies into, out of and between CUDA arrays (array.c has the arrays):
 * cudaMemcpy2DToArray / 2DFromArray / 2DArrayToArray, the deprecated
 * cudaMemcpyToArray / FromArray / ArrayToArray (a byte range of the
 * array's rows, which have no padding), and cudaMemcpy3D between arrays and
 * pitched memory; the async forms check their stream and run at once, as
 * every copy does (copy.c). Offsets and widths are in bytes except where
 * cudaMemcpy3D involves an array (then its x offsets and width count texels).
 */
/* This file defines the deprecated entry points; the toolkit headers warn about any use. */
#define CUDA_ENABLE_DEPRECATED 1
#include "runtime/cuda/cudart.h"

/* Device address of (x bytes, y, z) of r, once w bytes x h rows x d slices from there fit. */
static cudaError_t array_at(const struct rt_array *r, size_t xb, size_t y, size_t z, size_t w,
                            size_t h, size_t d, char **out)
{
    size_t rows = r->height ? r->height : 1, slices = r->depth ? r->depth : 1;

    if (xb > r->pitch || w > r->pitch - xb || y > rows || h > rows - y || z > slices ||
        d > slices - z)
        return cudaErrorInvalidValue;
    *out = (char *)(uintptr_t)(r->addr + z * r->slice + y * r->pitch + xb);
    return cudaSuccess;
}

static cudaError_t to_array(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t spitch,
                            size_t width, size_t height, enum cudaMemcpyKind kind,
                            cudaStream_t stream, bool has_stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, stream, has_stream);
    struct rt_array *r = e ? NULL : rt_array_find(c, dst);
    char *at = NULL;

    if (!e && !r)
        e = cudaErrorInvalidValue;
    if (!e)
        e = array_at(r, wo, ho, 0, width, height, 1, &at);
    if (!e)
        e = rt_copy_2d(c, at, r->pitch, src, spitch, width, height, kind);
    return rt_unlock(c, e);
}

static cudaError_t from_array(void *dst, size_t dpitch, cudaArray_const_t src, size_t wo, size_t ho,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream, bool has_stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, stream, has_stream);
    struct rt_array *r = e ? NULL : rt_array_find(c, src);
    char *at = NULL;

    if (!e && !r)
        e = cudaErrorInvalidValue;
    if (!e)
        e = array_at(r, wo, ho, 0, width, height, 1, &at);
    if (!e)
        e = rt_copy_2d(c, dst, dpitch, at, r->pitch, width, height, kind);
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                       const void *src, size_t spitch, size_t width, size_t height,
                                       enum cudaMemcpyKind kind)
{
    return to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, 0, false);
}
RT_ALIAS(cudaMemcpy2DToArray, cudaMemcpy2DToArray_ptds);

RT_API cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                            const void *src, size_t spitch, size_t width,
                                            size_t height, enum cudaMemcpyKind kind,
                                            cudaStream_t stream)
{
    return to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, stream, true);
}
RT_ALIAS(cudaMemcpy2DToArrayAsync, cudaMemcpy2DToArrayAsync_ptsz);

RT_API cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
                                         size_t wOffset, size_t hOffset, size_t width,
                                         size_t height, enum cudaMemcpyKind kind)
{
    return from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, 0, false);
}
RT_ALIAS(cudaMemcpy2DFromArray, cudaMemcpy2DFromArray_ptds);

RT_API cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                                              size_t wOffset, size_t hOffset, size_t width,
                                              size_t height, enum cudaMemcpyKind kind,
                                              cudaStream_t stream)
{
    return from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, stream, true);
}
RT_ALIAS(cudaMemcpy2DFromArrayAsync, cudaMemcpy2DFromArrayAsync_ptsz);

/* The deprecated 1D forms: count bytes from (wOffset, hOffset) on, across rows. */
RT_API cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void *src, size_t count, enum cudaMemcpyKind kind)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, 0, false);
    struct rt_array *r = e ? NULL : rt_array_find(c, dst);
    char *at = NULL;

    if (!e && !r)
        e = cudaErrorInvalidValue;
    if (!e)
        e = array_at(r, 0, 0, 0, 0, 0, 0, &at);
    if (!e && (wOffset > r->pitch ||
               hOffset * r->pitch + wOffset + count > r->slice * (r->depth ? r->depth : 1)))
        e = cudaErrorInvalidValue;
    if (!e)
        e = rt_copy_2d(c, at + hOffset * r->pitch + wOffset, count, src, count, count, 1, kind);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemcpyToArray, cudaMemcpyToArray_ptds);

RT_API cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                          const void *src, size_t count, enum cudaMemcpyKind kind,
                                          cudaStream_t stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, stream, true);

    rt_unlock(c, e);
    return e ? e : cudaMemcpyToArray(dst, wOffset, hOffset, src, count, kind);
}
RT_ALIAS(cudaMemcpyToArrayAsync, cudaMemcpyToArrayAsync_ptsz);

RT_API cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t count, enum cudaMemcpyKind kind)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, 0, false);
    struct rt_array *r = e ? NULL : rt_array_find(c, src);
    char *at = NULL;

    if (!e && !r)
        e = cudaErrorInvalidValue;
    if (!e)
        e = array_at(r, 0, 0, 0, 0, 0, 0, &at);
    if (!e && (wOffset > r->pitch ||
               hOffset * r->pitch + wOffset + count > r->slice * (r->depth ? r->depth : 1)))
        e = cudaErrorInvalidValue;
    if (!e)
        e = rt_copy_2d(c, dst, count, at + hOffset * r->pitch + wOffset, count, count, 1, kind);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemcpyFromArray, cudaMemcpyFromArray_ptds);

RT_API cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                            cudaStream_t stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, stream, true);

    rt_unlock(c, e);
    return e ? e : cudaMemcpyFromArray(dst, src, wOffset, hOffset, count, kind);
}
RT_ALIAS(cudaMemcpyFromArrayAsync, cudaMemcpyFromArrayAsync_ptsz);

RT_API cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                            cudaArray_const_t src, size_t wOffsetSrc,
                                            size_t hOffsetSrc, size_t width, size_t height,
                                            enum cudaMemcpyKind kind)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, 0, false);
    struct rt_array *d = e ? NULL : rt_array_find(c, dst), *s = e ? NULL : rt_array_find(c, src);
    char *da = NULL, *sa = NULL;

    if (!e && (!d || !s))
        e = cudaErrorInvalidValue;
    if (!e && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        e = cudaErrorInvalidMemcpyDirection;
    if (!e)
        e = array_at(d, wOffsetDst, hOffsetDst, 0, width, height, 1, &da);
    if (!e)
        e = array_at(s, wOffsetSrc, hOffsetSrc, 0, width, height, 1, &sa);
    if (!e)
        e = rt_copy_2d(c, da, d->pitch, sa, s->pitch, width, height, kind);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemcpy2DArrayToArray, cudaMemcpy2DArrayToArray_ptds);

/* One side of a 3D copy: its first byte, row pitch and slice pitch. */
static cudaError_t side_3d(struct rt_ctx *c, cudaArray_t arr, struct cudaPos pos,
                           struct cudaPitchedPtr ptr, size_t elem, struct cudaExtent ext, char **at,
                           size_t *pitch, size_t *slice)
{
    struct rt_array *r;

    if (arr && ptr.ptr)
        return cudaErrorInvalidValue;
    if (!arr) {
        if (!ptr.ptr)
            return cudaErrorInvalidValue;
        *pitch = ptr.pitch;
        *slice = ptr.pitch * ptr.ysize;
        *at = (char *)ptr.ptr + pos.z * *slice + pos.y * ptr.pitch + pos.x;
        return cudaSuccess;
    }
    if (!(r = rt_array_find(c, arr)))
        return cudaErrorInvalidValue;
    *pitch = r->pitch;
    *slice = r->slice;
    return array_at(r, pos.x * elem, pos.y, pos.z, ext.width * elem, ext.height, ext.depth, at);
}

static cudaError_t copy_3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream, bool has_stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, stream, has_stream);
    struct rt_array *sa = NULL, *da = NULL;
    size_t elem = 1, sp = 0, ss = 0, dp = 0, ds = 0;
    char *s = NULL, *d = NULL;

    if (!e && !p)
        e = cudaErrorInvalidValue;
    if (!e) {
        sa = p->srcArray ? rt_array_find(c, p->srcArray) : NULL;
        da = p->dstArray ? rt_array_find(c, p->dstArray) : NULL;
        if ((p->srcArray && !sa) || (p->dstArray && !da) || (sa && da && sa->elem != da->elem))
            e = cudaErrorInvalidValue;
        elem = sa ? sa->elem : da ? da->elem : 1;
    }
    if (!e)
        e = side_3d(c, p->srcArray, p->srcPos, p->srcPtr, elem, p->extent, &s, &sp, &ss);
    if (!e)
        e = side_3d(c, p->dstArray, p->dstPos, p->dstPtr, elem, p->extent, &d, &dp, &ds);
    for (size_t z = 0; !e && z < p->extent.depth; z++)
        e = rt_copy_2d(c, d + z * ds, dp, s + z * ss, sp, p->extent.width * elem, p->extent.height,
                       p->kind);
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    return copy_3d(p, 0, false);
}
RT_ALIAS(cudaMemcpy3D, cudaMemcpy3D_ptds);

RT_API cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    return copy_3d(p, stream, true);
}
RT_ALIAS(cudaMemcpy3DAsync, cudaMemcpy3DAsync_ptsz);
