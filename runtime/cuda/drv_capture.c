/*
 * Stream capture queries. ptxsim does not capture streams into graphs
 * (cuStreamBeginCapture is refused by name), so no stream is ever being
 * captured: the queries check their arguments and the stream, and answer
 * CU_STREAM_CAPTURE_STATUS_NONE. Libraries ask before every copy (CuPy's
 * static runtime calls cuStreamIsCapturing in cudaMemcpyAsync), so refusing
 * the query would refuse the copy. Per cuda.h, the other outputs are defined
 * only for an active capture and are left as they are.
 */
#include "runtime/cuda/drv.h"

#undef cuStreamIsCapturing
#undef cuStreamGetCaptureInfo

DRV_API CUresult cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *status);
DRV_API CUresult cuStreamIsCapturing_ptsz(CUstream s, CUstreamCaptureStatus *status);
DRV_API CUresult cuStreamGetCaptureInfo(CUstream s, CUstreamCaptureStatus *status, cuuint64_t *id);
DRV_API CUresult cuStreamGetCaptureInfo_ptsz(CUstream s, CUstreamCaptureStatus *status,
                                             cuuint64_t *id);

/* cuda.h declares this older ABI only for the driver's own build. */
DRV_API CUresult cuStreamGetCaptureInfo_v2(CUstream s, CUstreamCaptureStatus *status,
                                           cuuint64_t *id, CUgraph *graph, const CUgraphNode **deps,
                                           size_t *ndeps);

/* The stream must exist (cuStreamGetFlags checks it) and status must be given. */
static CUresult not_capturing(CUstream s, CUstreamCaptureStatus *status)
{
    unsigned flags;
    CUresult r;

    if (!status)
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = cuStreamGetFlags(s, &flags)))
        return r;
    *status = CU_STREAM_CAPTURE_STATUS_NONE;
    return CUDA_SUCCESS;
}

CUresult cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *status)
{
    return not_capturing(s, status);
}

CUresult cuStreamIsCapturing_ptsz(CUstream s, CUstreamCaptureStatus *status)
{
    return not_capturing(s, status);
}

CUresult cuStreamGetCaptureInfo(CUstream s, CUstreamCaptureStatus *status, cuuint64_t *id)
{
    (void)id; /* defined only while capturing */
    return not_capturing(s, status);
}

CUresult cuStreamGetCaptureInfo_ptsz(CUstream s, CUstreamCaptureStatus *status, cuuint64_t *id)
{
    (void)id;
    return not_capturing(s, status);
}

DRV_API CUresult cuStreamGetCaptureInfo_v2(CUstream s, CUstreamCaptureStatus *status,
                                           cuuint64_t *id, CUgraph *graph, const CUgraphNode **deps,
                                           size_t *ndeps)
{
    (void)id, (void)graph, (void)deps, (void)ndeps;
    return not_capturing(s, status);
}
RT_ALIAS(cuStreamGetCaptureInfo_v2, cuStreamGetCaptureInfo_v2_ptsz);

DRV_API CUresult cuStreamGetCaptureInfo_v3(CUstream s, CUstreamCaptureStatus *status,
                                           cuuint64_t *id, CUgraph *graph, const CUgraphNode **deps,
                                           const CUgraphEdgeData **edges, size_t *ndeps)
{
    (void)id, (void)graph, (void)ndeps;
    if (edges && !deps) /* cuda.h: edge data needs the dependency array too */
        return CUDA_ERROR_INVALID_VALUE;
    return not_capturing(s, status);
}
RT_ALIAS(cuStreamGetCaptureInfo_v3, cuStreamGetCaptureInfo_v3_ptsz);
