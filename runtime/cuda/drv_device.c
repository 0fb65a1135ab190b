/*
 * Driver API: initialisation, versions, the one device and its attributes.
 * The device is the runtime's device 0 (device.c describes it from the
 * configured machine), and every attribute is the runtime's attribute of the
 * same number: CUdevice_attribute and cudaDeviceAttr share their values.
 */
#include <string.h>

#include "runtime/cuda/drv.h"

DRV_API CUresult cuInit(unsigned int Flags)
{
    struct rt_ctx *c;
    CUresult r;

    if (Flags)
        return CUDA_ERROR_INVALID_VALUE;
    drv_last_save();
    r = drv_last_restore(rt_lock(&c)); /* creates the device from the PTXSIM_* environment */
    if (r == CUDA_SUCCESS)
        drv_mark_initialized();
    return drv_leave(c, r);
}

DRV_API CUresult cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = DRV_VERSION;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetCount(int *count)
{
    CUresult r = drv_initialized() ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;

    if (!r && !count)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        *count = 1;
    return r;
}

DRV_API CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    if (!drv_initialized())
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    if (ordinal != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return CUDA_SUCCESS;
}

/* The runtime's properties of dev, for the calls below. */
static CUresult props(CUdevice dev, struct cudaDeviceProp *p)
{
    if (!drv_initialized())
        return CUDA_ERROR_NOT_INITIALIZED;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return DRV_RT(cudaGetDeviceProperties(p, 0));
}

DRV_API CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    struct cudaDeviceProp p;
    CUresult r = name && len > 0 ? props(dev, &p) : CUDA_ERROR_INVALID_VALUE;

    if (!r) {
        strncpy(name, p.name, (size_t)len - 1);
        name[len - 1] = '\0';
    }
    return r;
}

DRV_API CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
    struct cudaDeviceProp p;
    CUresult r = uuid ? props(dev, &p) : CUDA_ERROR_INVALID_VALUE;

    if (!r)
        memcpy(uuid->bytes, p.uuid.bytes, sizeof(uuid->bytes));
    return r;
}

DRV_API CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
    struct cudaDeviceProp p;
    CUresult r = bytes ? props(dev, &p) : CUDA_ERROR_INVALID_VALUE;

    if (!r)
        *bytes = p.totalGlobalMem;
    return r;
}

DRV_API CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    if (!drv_initialized())
        return CUDA_ERROR_NOT_INITIALIZED;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return DRV_RT(cudaDeviceGetAttribute(pi, (enum cudaDeviceAttr)attrib, 0));
}

DRV_API CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    struct cudaDeviceProp p;
    CUresult r = major && minor ? props(dev, &p) : CUDA_ERROR_INVALID_VALUE;

    if (!r) {
        *major = p.major;
        *minor = p.minor;
    }
    return r;
}

DRV_API CUresult cuDeviceGetProperties(CUdevprop *prop, CUdevice dev)
{
    struct cudaDeviceProp p;
    CUresult r = prop ? props(dev, &p) : CUDA_ERROR_INVALID_VALUE;

    if (r)
        return r;
    prop->maxThreadsPerBlock = p.maxThreadsPerBlock;
    memcpy(prop->maxThreadsDim, p.maxThreadsDim, sizeof(prop->maxThreadsDim));
    memcpy(prop->maxGridSize, p.maxGridSize, sizeof(prop->maxGridSize));
    prop->sharedMemPerBlock = (int)p.sharedMemPerBlock;
    prop->totalConstantMemory = (int)p.totalConstMem;
    prop->SIMDWidth = p.warpSize;
    prop->memPitch = (int)p.memPitch;
    prop->regsPerBlock = p.regsPerBlock;
    prop->textureAlign = (int)p.textureAlignment;
    cudaDeviceGetAttribute(&prop->clockRate, cudaDevAttrClockRate, 0);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
    if (!drv_initialized())
        return CUDA_ERROR_NOT_INITIALIZED;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return DRV_RT(cudaDeviceGetPCIBusId(pciBusId, len, 0));
}

DRV_API CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
{
    int d = 0;
    CUresult r = drv_initialized() ? DRV_RT(cudaDeviceGetByPCIBusId(&d, pciBusId))
                                   : CUDA_ERROR_NOT_INITIALIZED;

    if (!r && dev)
        *dev = d;
    return r;
}

DRV_API CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
    if (!drv_initialized())
        return CUDA_ERROR_NOT_INITIALIZED;
    return DRV_RT(cudaDeviceCanAccessPeer(canAccessPeer, dev, peerDev));
}
