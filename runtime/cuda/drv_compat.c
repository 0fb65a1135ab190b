/*
 * The older ABI versions of driver entry points whose signature or name
 * changed (cuda.h maps the plain names to the newest: cuDeviceGetUuid is
 * cuDeviceGetUuid_v2). Programs built against an older CUDA, and CUDA 13's
 * own static runtime, which asks cuGetProcAddress for some entry points at
 * the version it was first written for (cuDeviceGetUuid at 9020,
 * cuDevicePrimaryCtxRelease at 7000, ...), get these. Each is the newer
 * function; where the arguments differ (a device number where CUDA 12.2 takes
 * a CUmemLocation) they are converted.
 */
#include "runtime/cuda/drv.h"

#undef cuDeviceGetUuid
#undef cuDevicePrimaryCtxRelease
#undef cuDevicePrimaryCtxReset
#undef cuEventElapsedTime
#undef cuLinkCreate
#undef cuLinkAddData
#undef cuLinkAddFile
#undef cuMemAdvise
#undef cuMemPrefetchAsync

DRV_API CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
DRV_API CUresult cuDevicePrimaryCtxRelease(CUdevice dev);
DRV_API CUresult cuDevicePrimaryCtxReset(CUdevice dev);
DRV_API CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end);
DRV_API CUresult cuLinkCreate(unsigned int n, CUjit_option *opt, void **val, CUlinkState *state);
DRV_API CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size,
                               const char *name, unsigned int n, CUjit_option *opt, void **val);
DRV_API CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path,
                               unsigned int n, CUjit_option *opt, void **val);
DRV_API CUresult cuMemAdvise(CUdeviceptr ptr, size_t count, CUmem_advise advice, CUdevice dev);
DRV_API CUresult cuMemPrefetchAsync(CUdeviceptr ptr, size_t count, CUdevice dev, CUstream s);
DRV_API CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr ptr, size_t count, CUdevice dev, CUstream s);
CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr ptr, size_t count, CUmemLocation loc,
                                    unsigned int flags, CUstream s); /* drv_memory.c */

CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    return cuDeviceGetUuid_v2(uuid, dev);
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
    return cuDevicePrimaryCtxRelease_v2(dev);
}

CUresult cuDevicePrimaryCtxReset(CUdevice dev)
{
    return cuDevicePrimaryCtxReset_v2(dev);
}

CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end)
{
    return cuEventElapsedTime_v2(ms, start, end);
}

CUresult cuLinkCreate(unsigned int n, CUjit_option *opt, void **val, CUlinkState *state)
{
    return cuLinkCreate_v2(n, opt, val, state);
}

CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size,
                       const char *name, unsigned int n, CUjit_option *opt, void **val)
{
    return cuLinkAddData_v2(state, type, data, size, name, n, opt, val);
}

CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path, unsigned int n,
                       CUjit_option *opt, void **val)
{
    return cuLinkAddFile_v2(state, type, path, n, opt, val);
}

/* CUDA 8's forms name a device, or CU_DEVICE_CPU (-1) for the host. */
static CUmemLocation location(CUdevice dev)
{
    CUmemLocation loc = {.type = CU_MEM_LOCATION_TYPE_DEVICE, .id = dev};

    if (dev == CU_DEVICE_CPU) {
        loc.type = CU_MEM_LOCATION_TYPE_HOST;
        loc.id = 0;
    }
    return loc;
}

CUresult cuMemAdvise(CUdeviceptr ptr, size_t count, CUmem_advise advice, CUdevice dev)
{
    return cuMemAdvise_v2(ptr, count, advice, location(dev));
}

CUresult cuMemPrefetchAsync(CUdeviceptr ptr, size_t count, CUdevice dev, CUstream s)
{
    return cuMemPrefetchAsync_v2(ptr, count, location(dev), 0, s);
}

CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr ptr, size_t count, CUdevice dev, CUstream s)
{
    return cuMemPrefetchAsync_v2_ptsz(ptr, count, location(dev), 0, s);
}
