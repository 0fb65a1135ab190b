/*
 * Driver API streams and events: the runtime's (stream.c), whose handles are
 * the same types (CUstream is cudaStream_t, CUevent is cudaEvent_t) and whose
 * flag values are equal. Work runs in issue order when it is issued, so every
 * stream is always idle.
 */
#include "runtime/cuda/drv.h"

#define DRV_CALL(call)                                                                             \
    do {                                                                                           \
        CUresult r_ = drv_ready();                                                                 \
        return r_ ? r_ : DRV_RT(call);                                                             \
    } while (0)

DRV_API CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    DRV_CALL(cudaStreamCreateWithFlags(phStream, Flags));
}

DRV_API CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    DRV_CALL(cudaStreamCreateWithPriority(phStream, flags, priority));
}

DRV_API CUresult cuStreamDestroy(CUstream hStream)
{
    DRV_CALL(cudaStreamDestroy(hStream));
}

DRV_API CUresult cuStreamSynchronize(CUstream hStream)
{
    DRV_CALL(cudaStreamSynchronize(hStream));
}
RT_ALIAS(cuStreamSynchronize, cuStreamSynchronize_ptsz);

DRV_API CUresult cuStreamQuery(CUstream hStream)
{
    DRV_CALL(cudaStreamQuery(hStream));
}
RT_ALIAS(cuStreamQuery, cuStreamQuery_ptsz);

DRV_API CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    DRV_CALL(cudaStreamWaitEvent(hStream, hEvent, Flags));
}
RT_ALIAS(cuStreamWaitEvent, cuStreamWaitEvent_ptsz);

DRV_API CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags)
{
    DRV_CALL(cudaStreamGetFlags(hStream, flags));
}
RT_ALIAS(cuStreamGetFlags, cuStreamGetFlags_ptsz);

DRV_API CUresult cuStreamGetPriority(CUstream hStream, int *priority)
{
    DRV_CALL(cudaStreamGetPriority(hStream, priority));
}
RT_ALIAS(cuStreamGetPriority, cuStreamGetPriority_ptsz);

DRV_API CUresult cuStreamGetId(CUstream hStream, unsigned long long *streamId)
{
    DRV_CALL(cudaStreamGetId(hStream, streamId));
}
RT_ALIAS(cuStreamGetId, cuStreamGetId_ptsz);

DRV_API CUresult cuStreamGetDevice(CUstream hStream, CUdevice *device)
{
    DRV_CALL(cudaStreamGetDevice(hStream, device));
}
RT_ALIAS(cuStreamGetDevice, cuStreamGetDevice_ptsz);

/* Streams belong to the device, which every context shares: the current (or primary) one. */
DRV_API CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx)
{
    unsigned flags;
    CUresult r = cuStreamGetFlags(hStream, &flags);

    if (!r && !pctx)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        *pctx = drv_ctx_current() ? drv_ctx_current() : drv_ctx_primary();
    return r;
}
RT_ALIAS(cuStreamGetCtx, cuStreamGetCtx_ptsz);

DRV_API CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData,
                                     unsigned int flags)
{
    /* CUstreamCallback and cudaStreamCallback_t differ only in their enum types. */
    DRV_CALL(cudaStreamAddCallback(hStream, (cudaStreamCallback_t)(void (*)(void))callback,
                                   userData, flags));
}
RT_ALIAS(cuStreamAddCallback, cuStreamAddCallback_ptsz);

DRV_API CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
    DRV_CALL(cudaLaunchHostFunc(hStream, fn, userData));
}
RT_ALIAS(cuLaunchHostFunc, cuLaunchHostFunc_ptsz);

DRV_API CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length,
                                        unsigned int flags)
{
    DRV_CALL(cudaStreamAttachMemAsync(hStream, (void *)(uintptr_t)dptr, length, flags));
}
RT_ALIAS(cuStreamAttachMemAsync, cuStreamAttachMemAsync_ptsz);

DRV_API CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    DRV_CALL(cudaEventCreateWithFlags(phEvent, Flags));
}

DRV_API CUresult cuEventDestroy(CUevent hEvent)
{
    DRV_CALL(cudaEventDestroy(hEvent));
}

DRV_API CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
    DRV_CALL(cudaEventRecord(hEvent, hStream));
}
RT_ALIAS(cuEventRecord, cuEventRecord_ptsz);

DRV_API CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    DRV_CALL(cudaEventRecordWithFlags(hEvent, hStream, flags));
}
RT_ALIAS(cuEventRecordWithFlags, cuEventRecordWithFlags_ptsz);

DRV_API CUresult cuEventQuery(CUevent hEvent)
{
    DRV_CALL(cudaEventQuery(hEvent));
}

DRV_API CUresult cuEventSynchronize(CUevent hEvent)
{
    DRV_CALL(cudaEventSynchronize(hEvent));
}

DRV_API CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    DRV_CALL(cudaEventElapsedTime(pMilliseconds, hStart, hEnd));
}

/* ptxsim has no green contexts: *pGreenCtx is NULL. */
DRV_API CUresult cuStreamGetCtx_v2(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx)
{
    CUresult r = cuStreamGetCtx(hStream, pCtx);

    if (!r && pGreenCtx)
        *pGreenCtx = NULL;
    return r;
}
RT_ALIAS(cuStreamGetCtx_v2, cuStreamGetCtx_v2_ptsz);
