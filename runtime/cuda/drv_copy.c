/*
 * Driver API copies and sets, synchronous and asynchronous (which, as in the
 * runtime, run at once after their stream is checked). The byte-wise calls are
 * the runtime's (copy.c); the 16- and 32-bit sets write their pattern through
 * a host buffer. 2D copies with CUDA arrays are the runtime's array copies (array_copy.c).
 */
#include <string.h>

#include "runtime/cuda/drv.h"

#define DRV_FILL_CHUNK 65536

#define DRV_CALL(call)                                                                             \
    do {                                                                                           \
        CUresult r_ = drv_ready();                                                                 \
        return r_ ? r_ : DRV_RT(call);                                                             \
    } while (0)

static void *dp(CUdeviceptr p)
{
    return (void *)(uintptr_t)p;
}

DRV_API CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
    DRV_CALL(cudaMemcpy(dp(dst), dp(src), ByteCount, cudaMemcpyDefault));
}
RT_ALIAS(cuMemcpy, cuMemcpy_ptds);

DRV_API CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
    DRV_CALL(cudaMemcpyAsync(dp(dst), dp(src), ByteCount, cudaMemcpyDefault, hStream));
}
RT_ALIAS(cuMemcpyAsync, cuMemcpyAsync_ptsz);

DRV_API CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
    DRV_CALL(cudaMemcpy(dp(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice));
}
RT_ALIAS(cuMemcpyHtoD_v2, cuMemcpyHtoD_v2_ptds);

DRV_API CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    DRV_CALL(cudaMemcpy(dstHost, dp(srcDevice), ByteCount, cudaMemcpyDeviceToHost));
}
RT_ALIAS(cuMemcpyDtoH_v2, cuMemcpyDtoH_v2_ptds);

DRV_API CUresult cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
    DRV_CALL(cudaMemcpy(dp(dstDevice), dp(srcDevice), ByteCount, cudaMemcpyDeviceToDevice));
}
RT_ALIAS(cuMemcpyDtoD_v2, cuMemcpyDtoD_v2_ptds);

DRV_API CUresult cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                                   CUstream hStream)
{
    DRV_CALL(cudaMemcpyAsync(dp(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice, hStream));
}
RT_ALIAS(cuMemcpyHtoDAsync_v2, cuMemcpyHtoDAsync_v2_ptsz);

DRV_API CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                                   CUstream hStream)
{
    DRV_CALL(cudaMemcpyAsync(dstHost, dp(srcDevice), ByteCount, cudaMemcpyDeviceToHost, hStream));
}
RT_ALIAS(cuMemcpyDtoHAsync_v2, cuMemcpyDtoHAsync_v2_ptsz);

DRV_API CUresult cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                   CUstream hStream)
{
    DRV_CALL(cudaMemcpyAsync(dp(dstDevice), dp(srcDevice), ByteCount, cudaMemcpyDeviceToDevice,
                             hStream));
}
RT_ALIAS(cuMemcpyDtoDAsync_v2, cuMemcpyDtoDAsync_v2_ptsz);

DRV_API CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                              CUcontext srcContext, size_t ByteCount)
{
    (void)dstContext, (void)srcContext; /* one device: every context sees the same memory */
    DRV_CALL(cudaMemcpy(dp(dstDevice), dp(srcDevice), ByteCount, cudaMemcpyDeviceToDevice));
}
RT_ALIAS(cuMemcpyPeer, cuMemcpyPeer_ptds);

/* One side of a 2D copy: its address and whether it is host memory; arrays are refused. */
static CUresult side(CUmemorytype t, const void *host, CUdeviceptr dev, size_t x, size_t y,
                     size_t pitch, const char **p, bool *on_host)
{
    switch (t) {
    case CU_MEMORYTYPE_HOST:
        *p = (const char *)host + y * pitch + x;
        *on_host = true;
        break;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED:
        *p = (const char *)dp(dev) + y * pitch + x;
        *on_host = false;
        break;
    case CU_MEMORYTYPE_ARRAY:
        return drv_unsupported("cuMemcpy2D with a CUDA array", "driver API arrays");
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

/* Whether s is the default stream or a live one (async copies run at once once it is checked). */
static bool stream_ok(CUstream s)
{
    struct rt_ctx *c;
    bool ok = drv_enter(&c) == CUDA_SUCCESS && rt_stream_valid(c, s);

    drv_leave(c, CUDA_SUCCESS);
    return ok;
}

/* A 2D copy with an array on one side or both (its x offset is in bytes, as the runtime's). */
static CUresult copy_2d_array(const CUDA_MEMCPY2D *c)
{
    const char *p;
    bool on_host;
    CUresult r;

    if (c->srcMemoryType == CU_MEMORYTYPE_ARRAY && c->dstMemoryType == CU_MEMORYTYPE_ARRAY)
        return DRV_RT(cudaMemcpy2DArrayToArray(
            (cudaArray_t)c->dstArray, c->dstXInBytes, c->dstY, (cudaArray_const_t)c->srcArray,
            c->srcXInBytes, c->srcY, c->WidthInBytes, c->Height, cudaMemcpyDeviceToDevice));
    if (c->dstMemoryType == CU_MEMORYTYPE_ARRAY) {
        r = side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcXInBytes, c->srcY, c->srcPitch,
                 &p, &on_host);
        return r ? r
                 : DRV_RT(cudaMemcpy2DToArray((cudaArray_t)c->dstArray, c->dstXInBytes, c->dstY, p,
                                              c->srcPitch, c->WidthInBytes, c->Height,
                                              on_host ? cudaMemcpyHostToDevice
                                                      : cudaMemcpyDeviceToDevice));
    }
    r = side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstXInBytes, c->dstY, c->dstPitch, &p,
             &on_host);
    return r ? r
             : DRV_RT(cudaMemcpy2DFromArray((void *)p, c->dstPitch, (cudaArray_const_t)c->srcArray,
                                            c->srcXInBytes, c->srcY, c->WidthInBytes, c->Height,
                                            on_host ? cudaMemcpyDeviceToHost
                                                    : cudaMemcpyDeviceToDevice));
}

static CUresult copy_2d(const CUDA_MEMCPY2D *c, bool async, CUstream s)
{
    const char *src = NULL, *dst = NULL;
    bool sh, dh;
    enum cudaMemcpyKind kind;
    CUresult r = drv_ready();

    if (!r && !c)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r && (c->srcMemoryType == CU_MEMORYTYPE_ARRAY || c->dstMemoryType == CU_MEMORYTYPE_ARRAY))
        return async && !stream_ok(s) ? CUDA_ERROR_INVALID_HANDLE : copy_2d_array(c);
    if (!r)
        r = side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcXInBytes, c->srcY, c->srcPitch,
                 &src, &sh);
    if (!r)
        r = side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstXInBytes, c->dstY, c->dstPitch,
                 &dst, &dh);
    if (r)
        return r;
    kind = sh ? (dh ? cudaMemcpyHostToHost : cudaMemcpyHostToDevice)
              : (dh ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice);
    if (c->srcMemoryType == CU_MEMORYTYPE_UNIFIED || c->dstMemoryType == CU_MEMORYTYPE_UNIFIED)
        kind = cudaMemcpyDefault;
    if (async)
        return DRV_RT(cudaMemcpy2DAsync((void *)dst, c->dstPitch, src, c->srcPitch, c->WidthInBytes,
                                        c->Height, kind, s));
    return DRV_RT(
        cudaMemcpy2D((void *)dst, c->dstPitch, src, c->srcPitch, c->WidthInBytes, c->Height, kind));
}

DRV_API CUresult cuMemcpy2D(const CUDA_MEMCPY2D *pCopy)
{
    return copy_2d(pCopy, false, NULL);
}
RT_ALIAS(cuMemcpy2D_v2, cuMemcpy2D_v2_ptds);

DRV_API CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *pCopy)
{
    return copy_2d(pCopy, false, NULL);
}
RT_ALIAS(cuMemcpy2DUnaligned_v2, cuMemcpy2DUnaligned_v2_ptds);

DRV_API CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    return copy_2d(pCopy, true, hStream);
}
RT_ALIAS(cuMemcpy2DAsync_v2, cuMemcpy2DAsync_v2_ptsz);

/*
 * Fills count elements of size bytes (2 or 4) at dst with pattern: a byte-wise
 * set when every byte of the pattern is equal, else copies of a host buffer.
 */
static CUresult fill(CUdeviceptr dst, uint32_t pattern, unsigned size, size_t count, bool async,
                     CUstream s)
{
    unsigned char buf[DRV_FILL_CHUNK], b[4];
    size_t per = sizeof(buf) / size, done = 0;
    CUresult r = drv_ready();

    if (r)
        return r;
    memcpy(b, &pattern, sizeof(b));
    if (size == 1 || (b[0] == b[1] && (size == 2 || (b[1] == b[2] && b[2] == b[3]))))
        return DRV_RT(async ? cudaMemsetAsync(dp(dst), b[0], count * size, s)
                            : cudaMemset(dp(dst), b[0], count * size));
    if (dst % size)
        return CUDA_ERROR_INVALID_VALUE; /* the driver requires aligned 16/32-bit sets */
    for (size_t i = 0; i < per; i++)
        memcpy(buf + i * size, &pattern, size);
    while (!r && done < count) {
        size_t n = count - done < per ? count - done : per;

        r = DRV_RT(
            async ? cudaMemcpyAsync(dp(dst + done * size), buf, n * size, cudaMemcpyHostToDevice, s)
                  : cudaMemcpy(dp(dst + done * size), buf, n * size, cudaMemcpyHostToDevice));
        done += n;
    }
    return r;
}

static CUresult fill_2d(CUdeviceptr dst, size_t pitch, uint32_t pattern, unsigned size,
                        size_t width, size_t height, bool async, CUstream s)
{
    CUresult r = CUDA_SUCCESS;

    if (width * size > pitch && height > 1)
        return drv_ready() ? drv_ready() : CUDA_ERROR_INVALID_VALUE;
    for (size_t y = 0; !r && y < height; y++)
        r = fill(dst + y * pitch, pattern, size, width, async, s);
    return r ? r : drv_ready();
}

DRV_API CUresult cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
    return fill(dstDevice, uc, 1, N, false, NULL);
}
RT_ALIAS(cuMemsetD8_v2, cuMemsetD8_v2_ptds);

DRV_API CUresult cuMemsetD16(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
    return fill(dstDevice, us, 2, N, false, NULL);
}
RT_ALIAS(cuMemsetD16_v2, cuMemsetD16_v2_ptds);

DRV_API CUresult cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
    return fill(dstDevice, ui, 4, N, false, NULL);
}
RT_ALIAS(cuMemsetD32_v2, cuMemsetD32_v2_ptds);

DRV_API CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream s)
{
    return fill(dstDevice, uc, 1, N, true, s);
}
RT_ALIAS(cuMemsetD8Async, cuMemsetD8Async_ptsz);

DRV_API CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream s)
{
    return fill(dstDevice, us, 2, N, true, s);
}
RT_ALIAS(cuMemsetD16Async, cuMemsetD16Async_ptsz);

DRV_API CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream s)
{
    return fill(dstDevice, ui, 4, N, true, s);
}
RT_ALIAS(cuMemsetD32Async, cuMemsetD32Async_ptsz);

DRV_API CUresult cuMemsetD2D8(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc,
                              size_t Width, size_t Height)
{
    return fill_2d(dstDevice, dstPitch, uc, 1, Width, Height, false, NULL);
}
RT_ALIAS(cuMemsetD2D8_v2, cuMemsetD2D8_v2_ptds);

DRV_API CUresult cuMemsetD2D16(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us,
                               size_t Width, size_t Height)
{
    return fill_2d(dstDevice, dstPitch, us, 2, Width, Height, false, NULL);
}
RT_ALIAS(cuMemsetD2D16_v2, cuMemsetD2D16_v2_ptds);

DRV_API CUresult cuMemsetD2D32(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui,
                               size_t Width, size_t Height)
{
    return fill_2d(dstDevice, dstPitch, ui, 4, Width, Height, false, NULL);
}
RT_ALIAS(cuMemsetD2D32_v2, cuMemsetD2D32_v2_ptds);

DRV_API CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc,
                                   size_t Width, size_t Height, CUstream s)
{
    return fill_2d(dstDevice, dstPitch, uc, 1, Width, Height, true, s);
}
RT_ALIAS(cuMemsetD2D8Async, cuMemsetD2D8Async_ptsz);

DRV_API CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us,
                                    size_t Width, size_t Height, CUstream s)
{
    return fill_2d(dstDevice, dstPitch, us, 2, Width, Height, true, s);
}
RT_ALIAS(cuMemsetD2D16Async, cuMemsetD2D16Async_ptsz);

DRV_API CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui,
                                    size_t Width, size_t Height, CUstream s)
{
    return fill_2d(dstDevice, dstPitch, ui, 4, Width, Height, true, s);
}
RT_ALIAS(cuMemsetD2D32Async, cuMemsetD2D32Async_ptsz);

DRV_API CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext,
                                   CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount,
                                   CUstream hStream)
{
    (void)dstContext, (void)srcContext;
    DRV_CALL(cudaMemcpyAsync(dp(dstDevice), dp(srcDevice), ByteCount, cudaMemcpyDeviceToDevice,
                             hStream));
}
RT_ALIAS(cuMemcpyPeerAsync, cuMemcpyPeerAsync_ptsz);
