/*
 * Driver API CUDA arrays and texture and surface objects, as far as the
 * runtime supports them (array.c, array_copy.c, texture.c): arrays are the
 * runtime's arrays (a CUarray is a cudaArray_t), with the driver's
 * (format, channel count) description turned into a cudaChannelFormatDesc;
 * texture and surface objects are the runtime's, from the driver's
 * resource and texture descriptors. Mipmapped arrays and resource views are
 * refused by name, as in the runtime.
 */
#include <string.h>

#include "runtime/cuda/drv.h"

#define DRV_CALL(call)                                                                             \
    do {                                                                                           \
        CUresult r_ = drv_ready();                                                                 \
        return r_ ? r_ : DRV_RT(call);                                                             \
    } while (0)

/* The channel description of (format, channels); false for formats ptxsim does not know. */
static bool channel_desc(CUarray_format f, unsigned n, struct cudaChannelFormatDesc *d)
{
    int bits;
    enum cudaChannelFormatKind kind;

    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
        bits = 8, kind = cudaChannelFormatKindUnsigned;
        break;
    case CU_AD_FORMAT_UNSIGNED_INT16:
        bits = 16, kind = cudaChannelFormatKindUnsigned;
        break;
    case CU_AD_FORMAT_UNSIGNED_INT32:
        bits = 32, kind = cudaChannelFormatKindUnsigned;
        break;
    case CU_AD_FORMAT_SIGNED_INT8:
        bits = 8, kind = cudaChannelFormatKindSigned;
        break;
    case CU_AD_FORMAT_SIGNED_INT16:
        bits = 16, kind = cudaChannelFormatKindSigned;
        break;
    case CU_AD_FORMAT_SIGNED_INT32:
        bits = 32, kind = cudaChannelFormatKindSigned;
        break;
    case CU_AD_FORMAT_HALF:
        bits = 16, kind = cudaChannelFormatKindFloat;
        break;
    case CU_AD_FORMAT_FLOAT:
        bits = 32, kind = cudaChannelFormatKindFloat;
        break;
    default:
        return false;
    }
    if (n != 1 && n != 2 && n != 4)
        return false;
    *d = (struct cudaChannelFormatDesc){bits, n > 1 ? bits : 0, n > 2 ? bits : 0, n > 2 ? bits : 0,
                                        kind};
    return true;
}

/* The driver's (format, channels) of a channel description (the inverse of channel_desc). */
static void array_format(const struct cudaChannelFormatDesc *d, CUarray_format *f, unsigned *n)
{
    static const CUarray_format by_kind[3][3] = {
        {CU_AD_FORMAT_SIGNED_INT8, CU_AD_FORMAT_SIGNED_INT16, CU_AD_FORMAT_SIGNED_INT32},
        {CU_AD_FORMAT_UNSIGNED_INT8, CU_AD_FORMAT_UNSIGNED_INT16, CU_AD_FORMAT_UNSIGNED_INT32},
        {CU_AD_FORMAT_FLOAT, CU_AD_FORMAT_HALF, CU_AD_FORMAT_FLOAT},
    };
    int k = d->f == cudaChannelFormatKindSigned ? 0 : d->f == cudaChannelFormatKindUnsigned ? 1 : 2;
    int size = d->x == 8 ? 0 : d->x == 16 ? 1 : 2;

    *f = by_kind[k][size];
    *n = 1u + (d->y > 0) + 2u * (d->z > 0);
}

DRV_API CUresult cuArrayCreate(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *p)
{
    struct cudaChannelFormatDesc d;

    if (!p || !channel_desc(p->Format, p->NumChannels, &d))
        return drv_ready() ? drv_ready() : CUDA_ERROR_INVALID_VALUE;
    DRV_CALL(cudaMallocArray((cudaArray_t *)pHandle, &d, p->Width, p->Height, 0));
}

/* CUDA_ARRAY3D_* flags have the runtime's cudaArray* values (layered, surface, cubemap, gather). */
DRV_API CUresult cuArray3DCreate(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *p)
{
    struct cudaChannelFormatDesc d;

    if (!p || !channel_desc(p->Format, p->NumChannels, &d))
        return drv_ready() ? drv_ready() : CUDA_ERROR_INVALID_VALUE;
    DRV_CALL(cudaMalloc3DArray((cudaArray_t *)pHandle, &d,
                               (struct cudaExtent){p->Width, p->Height, p->Depth}, p->Flags));
}

DRV_API CUresult cuArrayDestroy(CUarray hArray)
{
    DRV_CALL(cudaFreeArray((cudaArray_t)hArray));
}

static CUresult array_info(CUarray a, CUDA_ARRAY3D_DESCRIPTOR *p)
{
    struct cudaChannelFormatDesc d;
    struct cudaExtent e;
    unsigned flags;
    CUresult r = drv_ready();

    if (!r && !p)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        r = DRV_RT(cudaArrayGetInfo(&d, &e, &flags, (cudaArray_t)a));
    if (r)
        return r == CUDA_ERROR_INVALID_VALUE ? CUDA_ERROR_INVALID_HANDLE : r;
    array_format(&d, &p->Format, &p->NumChannels);
    p->Width = e.width;
    p->Height = e.height;
    p->Depth = e.depth;
    p->Flags = flags;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *p, CUarray hArray)
{
    return array_info(hArray, p);
}

DRV_API CUresult cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR *p, CUarray hArray)
{
    CUDA_ARRAY3D_DESCRIPTOR d;
    CUresult r = p ? array_info(hArray, &d) : CUDA_ERROR_INVALID_VALUE;

    if (!r)
        *p = (CUDA_ARRAY_DESCRIPTOR){d.Width, d.Height, d.Format, d.NumChannels};
    return r;
}

DRV_API CUresult cuMemcpyHtoA(CUarray dstArray, size_t dstOffset, const void *srcHost,
                              size_t ByteCount)
{
    DRV_CALL(cudaMemcpy2DToArray((cudaArray_t)dstArray, dstOffset, 0, srcHost, ByteCount, ByteCount,
                                 1, cudaMemcpyHostToDevice));
}
RT_ALIAS(cuMemcpyHtoA_v2, cuMemcpyHtoA_v2_ptds);

DRV_API CUresult cuMemcpyAtoH(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
    DRV_CALL(cudaMemcpy2DFromArray(dstHost, ByteCount, (cudaArray_const_t)srcArray, srcOffset, 0,
                                   ByteCount, 1, cudaMemcpyDeviceToHost));
}
RT_ALIAS(cuMemcpyAtoH_v2, cuMemcpyAtoH_v2_ptds);

/* The runtime's resource description of a driver one; false for what it cannot describe. */
static CUresult resource(const CUDA_RESOURCE_DESC *in, struct cudaResourceDesc *out)
{
    memset(out, 0, sizeof(*out));
    switch (in->resType) {
    case CU_RESOURCE_TYPE_ARRAY:
        out->resType = cudaResourceTypeArray;
        out->res.array.array = (cudaArray_t)in->res.array.hArray;
        return CUDA_SUCCESS;
    case CU_RESOURCE_TYPE_LINEAR:
        out->resType = cudaResourceTypeLinear;
        out->res.linear.devPtr = (void *)(uintptr_t)in->res.linear.devPtr;
        out->res.linear.sizeInBytes = in->res.linear.sizeInBytes;
        return channel_desc(in->res.linear.format, in->res.linear.numChannels,
                            &out->res.linear.desc)
                   ? CUDA_SUCCESS
                   : CUDA_ERROR_INVALID_VALUE;
    case CU_RESOURCE_TYPE_PITCH2D:
        out->resType = cudaResourceTypePitch2D;
        out->res.pitch2D.devPtr = (void *)(uintptr_t)in->res.pitch2D.devPtr;
        out->res.pitch2D.width = in->res.pitch2D.width;
        out->res.pitch2D.height = in->res.pitch2D.height;
        out->res.pitch2D.pitchInBytes = in->res.pitch2D.pitchInBytes;
        return channel_desc(in->res.pitch2D.format, in->res.pitch2D.numChannels,
                            &out->res.pitch2D.desc)
                   ? CUDA_SUCCESS
                   : CUDA_ERROR_INVALID_VALUE;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
        return drv_unsupported("cuTexObjectCreate with a mipmapped array", "mipmapped arrays");
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

/* The channel description of a resource, whose kind and size decide the read mode. */
static struct cudaChannelFormatDesc resource_channel(const struct cudaResourceDesc *r)
{
    struct cudaChannelFormatDesc d = {32, 0, 0, 0, cudaChannelFormatKindFloat};

    if (r->resType == cudaResourceTypeLinear)
        return r->res.linear.desc;
    if (r->resType == cudaResourceTypePitch2D)
        return r->res.pitch2D.desc;
    cudaGetChannelDesc(&d, r->res.array.array);
    return d;
}

/* Whether the texels are 8- or 16-bit integers, the ones a read may normalise to floats. */
static bool normalisable(const struct cudaResourceDesc *r)
{
    struct cudaChannelFormatDesc d = resource_channel(r);

    return d.f != cudaChannelFormatKindFloat && d.x < 32;
}

/*
 * 8- and 16-bit integer texels read as normalised floats unless CU_TRSF_READ_AS_INTEGER is
 * set (the driver's default is the runtime's cudaReadModeNormalizedFloat); 32-bit integers
 * and floats read as they are (CUDA normalises no 32-bit texel).
 */
static void texture(const CUDA_TEXTURE_DESC *in, const struct cudaResourceDesc *res,
                    struct cudaTextureDesc *out)
{
    bool integer = normalisable(res);

    memset(out, 0, sizeof(*out));
    for (int i = 0; i < 3; i++)
        out->addressMode[i] = (enum cudaTextureAddressMode)in->addressMode[i];
    out->filterMode = (enum cudaTextureFilterMode)in->filterMode;
    out->readMode = integer && !(in->flags & CU_TRSF_READ_AS_INTEGER) ? cudaReadModeNormalizedFloat
                                                                      : cudaReadModeElementType;
    out->normalizedCoords = (in->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
    out->sRGB = (in->flags & CU_TRSF_SRGB) != 0;
    memcpy(out->borderColor, in->borderColor, sizeof(out->borderColor));
    out->maxAnisotropy = in->maxAnisotropy;
    out->mipmapFilterMode = (enum cudaTextureFilterMode)in->mipmapFilterMode;
    out->mipmapLevelBias = in->mipmapLevelBias;
    out->minMipmapLevelClamp = in->minMipmapLevelClamp;
    out->maxMipmapLevelClamp = in->maxMipmapLevelClamp;
}

DRV_API CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                                   const CUDA_TEXTURE_DESC *pTexDesc,
                                   const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)
{
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
    CUresult r = drv_ready();

    if (!r && (!pTexObject || !pResDesc || !pTexDesc))
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r && pResViewDesc)
        r = drv_unsupported("cuTexObjectCreate with a resource view", "texture resource views");
    if (!r)
        r = resource(pResDesc, &res);
    if (r)
        return r;
    texture(pTexDesc, &res, &tex);
    return DRV_RT(cudaCreateTextureObject((cudaTextureObject_t *)pTexObject, &res, &tex, NULL));
}

DRV_API CUresult cuTexObjectDestroy(CUtexObject texObject)
{
    DRV_CALL(cudaDestroyTextureObject((cudaTextureObject_t)texObject));
}

DRV_API CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc)
{
    struct cudaResourceDesc res;
    CUresult r = drv_ready();

    if (!r && (!pSurfObject || !pResDesc))
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        r = resource(pResDesc, &res);
    return r ? r : DRV_RT(cudaCreateSurfaceObject((cudaSurfaceObject_t *)pSurfObject, &res));
}

DRV_API CUresult cuSurfObjectDestroy(CUsurfObject surfObject)
{
    DRV_CALL(cudaDestroySurfaceObject((cudaSurfaceObject_t)surfObject));
}

/* The driver's description of a runtime resource (the inverse of resource()). */
static void resource_back(const struct cudaResourceDesc *in, CUDA_RESOURCE_DESC *out)
{
    unsigned n = 0;

    memset(out, 0, sizeof(*out));
    switch (in->resType) {
    case cudaResourceTypeArray:
        out->resType = CU_RESOURCE_TYPE_ARRAY;
        out->res.array.hArray = (CUarray)in->res.array.array;
        break;
    case cudaResourceTypeLinear:
        out->resType = CU_RESOURCE_TYPE_LINEAR;
        out->res.linear.devPtr = (CUdeviceptr)(uintptr_t)in->res.linear.devPtr;
        out->res.linear.sizeInBytes = in->res.linear.sizeInBytes;
        array_format(&in->res.linear.desc, &out->res.linear.format, &n);
        out->res.linear.numChannels = n;
        break;
    default: /* pitched: the only other kind resource() makes */
        out->resType = CU_RESOURCE_TYPE_PITCH2D;
        out->res.pitch2D.devPtr = (CUdeviceptr)(uintptr_t)in->res.pitch2D.devPtr;
        out->res.pitch2D.width = in->res.pitch2D.width;
        out->res.pitch2D.height = in->res.pitch2D.height;
        out->res.pitch2D.pitchInBytes = in->res.pitch2D.pitchInBytes;
        array_format(&in->res.pitch2D.desc, &out->res.pitch2D.format, &n);
        out->res.pitch2D.numChannels = n;
        break;
    }
}

DRV_API CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject)
{
    struct cudaResourceDesc res;
    CUresult r = drv_ready();

    if (!r && !pResDesc)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        r = DRV_RT(cudaGetTextureObjectResourceDesc(&res, (cudaTextureObject_t)texObject));
    if (!r)
        resource_back(&res, pResDesc);
    return r;
}

DRV_API CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject)
{
    struct cudaResourceDesc res;
    CUresult r = drv_ready();

    if (!r && !pResDesc)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        r = DRV_RT(cudaGetSurfaceObjectResourceDesc(&res, (cudaSurfaceObject_t)surfObject));
    if (!r)
        resource_back(&res, pResDesc);
    return r;
}

/* The driver's texture description (the inverse of texture(): flags for the read mode). */
DRV_API CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject)
{
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
    CUresult r = drv_ready();

    if (!r && !pTexDesc)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        r = DRV_RT(cudaGetTextureObjectTextureDesc(&tex, (cudaTextureObject_t)texObject));
    if (!r)
        r = DRV_RT(cudaGetTextureObjectResourceDesc(&res, (cudaTextureObject_t)texObject));
    if (r)
        return r;
    memset(pTexDesc, 0, sizeof(*pTexDesc));
    for (int i = 0; i < 3; i++)
        pTexDesc->addressMode[i] = (CUaddress_mode)tex.addressMode[i];
    pTexDesc->filterMode = (CUfilter_mode)tex.filterMode;
    if (tex.readMode == cudaReadModeElementType && normalisable(&res))
        pTexDesc->flags |= CU_TRSF_READ_AS_INTEGER;
    if (tex.normalizedCoords)
        pTexDesc->flags |= CU_TRSF_NORMALIZED_COORDINATES;
    if (tex.sRGB)
        pTexDesc->flags |= CU_TRSF_SRGB;
    memcpy(pTexDesc->borderColor, tex.borderColor, sizeof(pTexDesc->borderColor));
    pTexDesc->maxAnisotropy = tex.maxAnisotropy;
    pTexDesc->mipmapFilterMode = (CUfilter_mode)tex.mipmapFilterMode;
    pTexDesc->mipmapLevelBias = tex.mipmapLevelBias;
    pTexDesc->minMipmapLevelClamp = tex.minMipmapLevelClamp;
    pTexDesc->maxMipmapLevelClamp = tex.maxMipmapLevelClamp;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemcpyHtoAAsync(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                   size_t ByteCount, CUstream hStream)
{
    DRV_CALL(cudaMemcpy2DToArrayAsync((cudaArray_t)dstArray, dstOffset, 0, srcHost, ByteCount,
                                      ByteCount, 1, cudaMemcpyHostToDevice, hStream));
}
RT_ALIAS(cuMemcpyHtoAAsync_v2, cuMemcpyHtoAAsync_v2_ptsz);

DRV_API CUresult cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, size_t srcOffset,
                                   size_t ByteCount, CUstream hStream)
{
    DRV_CALL(cudaMemcpy2DFromArrayAsync(dstHost, ByteCount, (cudaArray_const_t)srcArray, srcOffset,
                                        0, ByteCount, 1, cudaMemcpyDeviceToHost, hStream));
}
RT_ALIAS(cuMemcpyAtoHAsync_v2, cuMemcpyAtoHAsync_v2_ptsz);

DRV_API CUresult cuMemcpyDtoA(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice,
                              size_t ByteCount)
{
    DRV_CALL(cudaMemcpy2DToArray((cudaArray_t)dstArray, dstOffset, 0, (void *)(uintptr_t)srcDevice,
                                 ByteCount, ByteCount, 1, cudaMemcpyDeviceToDevice));
}
RT_ALIAS(cuMemcpyDtoA_v2, cuMemcpyDtoA_v2_ptds);

DRV_API CUresult cuMemcpyAtoD(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset,
                              size_t ByteCount)
{
    DRV_CALL(cudaMemcpy2DFromArray((void *)(uintptr_t)dstDevice, ByteCount,
                                   (cudaArray_const_t)srcArray, srcOffset, 0, ByteCount, 1,
                                   cudaMemcpyDeviceToDevice));
}
RT_ALIAS(cuMemcpyAtoD_v2, cuMemcpyAtoD_v2_ptds);

DRV_API CUresult cuMemcpyAtoA(CUarray dstArray, size_t dstOffset, CUarray srcArray,
                              size_t srcOffset, size_t ByteCount)
{
    DRV_CALL(cudaMemcpy2DArrayToArray((cudaArray_t)dstArray, dstOffset, 0,
                                      (cudaArray_const_t)srcArray, srcOffset, 0, ByteCount, 1,
                                      cudaMemcpyDeviceToDevice));
}
RT_ALIAS(cuMemcpyAtoA_v2, cuMemcpyAtoA_v2_ptds);

/* Bytes per element of an array (0 when it is not one), for the 3D copies' units. */
static size_t array_elem(CUarray a)
{
    struct rt_ctx *c;
    struct rt_array *r;
    size_t elem = 0;

    if (drv_enter(&c) == CUDA_SUCCESS && (r = rt_array_find(c, a)))
        elem = r->elem;
    drv_leave(c, CUDA_SUCCESS);
    return elem;
}

/* One side of a 3D copy in the runtime's terms: arrays count x in elements, pointers in bytes. */
static bool side_3d(CUmemorytype t, const void *host, CUdeviceptr dev, CUarray arr, size_t x,
                    size_t y, size_t z, size_t pitch, size_t height, size_t elem, cudaArray_t *ra,
                    struct cudaPos *pos, struct cudaPitchedPtr *ptr)
{
    *pos = (struct cudaPos){x, y, z};
    switch (t) {
    case CU_MEMORYTYPE_ARRAY:
        *ra = (cudaArray_t)arr;
        pos->x = x / elem;
        return x % elem == 0;
    case CU_MEMORYTYPE_HOST:
        *ptr = (struct cudaPitchedPtr){(void *)host, pitch, pitch, height};
        return host != NULL;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED:
        *ptr = (struct cudaPitchedPtr){(void *)(uintptr_t)dev, pitch, pitch, height};
        return dev != 0;
    default:
        return false;
    }
}

/* cudaMemcpy3D's parameters for a driver 3D copy; false when they cannot be expressed. */
static bool params_3d(const CUDA_MEMCPY3D *p, struct cudaMemcpy3DParms *q)
{
    size_t es = p->srcMemoryType == CU_MEMORYTYPE_ARRAY ? array_elem(p->srcArray) : 1;
    size_t ed = p->dstMemoryType == CU_MEMORYTYPE_ARRAY ? array_elem(p->dstArray) : 1;
    size_t elem = es > ed ? es : ed;

    memset(q, 0, sizeof(*q));
    if (!es || !ed || p->srcLOD || p->dstLOD || p->WidthInBytes % elem)
        return false;
    q->extent = (struct cudaExtent){p->WidthInBytes / elem, p->Height, p->Depth};
    q->kind = cudaMemcpyDefault;
    return side_3d(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY,
                   p->srcZ, p->srcPitch, p->srcHeight, elem, &q->srcArray, &q->srcPos,
                   &q->srcPtr) &&
           side_3d(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY,
                   p->dstZ, p->dstPitch, p->dstHeight, elem, &q->dstArray, &q->dstPos, &q->dstPtr);
}

DRV_API CUresult cuMemcpy3D(const CUDA_MEMCPY3D *pCopy)
{
    struct cudaMemcpy3DParms q;
    CUresult r = drv_ready();

    if (!r && (!pCopy || !params_3d(pCopy, &q)))
        r = CUDA_ERROR_INVALID_VALUE;
    return r ? r : DRV_RT(cudaMemcpy3D(&q));
}
RT_ALIAS(cuMemcpy3D_v2, cuMemcpy3D_v2_ptds);

DRV_API CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
    struct cudaMemcpy3DParms q;
    CUresult r = drv_ready();

    if (!r && (!pCopy || !params_3d(pCopy, &q)))
        r = CUDA_ERROR_INVALID_VALUE;
    return r ? r : DRV_RT(cudaMemcpy3DAsync(&q, hStream));
}
RT_ALIAS(cuMemcpy3DAsync_v2, cuMemcpy3DAsync_v2_ptsz);
