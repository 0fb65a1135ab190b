/*
 * Driver API memory: allocations (device, pitched, host, mapped, managed,
 * registered), queries and pointer attributes. Every call is the runtime's
 * call of the same meaning (memory.c), so both APIs share one allocator and
 * one address space. Copies and sets are in drv_copy.c.
 */
#include "runtime/cuda/drv.h"

#define DRV_CALL(call)                                                                             \
    do {                                                                                           \
        CUresult r_ = drv_ready();                                                                 \
        return r_ ? r_ : DRV_RT(call);                                                             \
    } while (0)

DRV_API CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
{
    if (!bytesize)
        return drv_ready() ? drv_ready() : CUDA_ERROR_INVALID_VALUE;
    DRV_CALL(cudaMalloc((void **)dptr, bytesize));
}

DRV_API CUresult cuMemFree(CUdeviceptr dptr)
{
    DRV_CALL(cudaFree((void *)(uintptr_t)dptr));
}

DRV_API CUresult cuMemAllocPitch(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes,
                                 size_t Height, unsigned int ElementSizeBytes)
{
    if (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16)
        return drv_ready() ? drv_ready() : CUDA_ERROR_INVALID_VALUE;
    DRV_CALL(cudaMallocPitch((void **)dptr, pPitch, WidthInBytes, Height));
}

DRV_API CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    DRV_CALL(cudaMallocAsync((void **)dptr, bytesize, hStream));
}
RT_ALIAS(cuMemAllocAsync, cuMemAllocAsync_ptsz);

DRV_API CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
    DRV_CALL(cudaFreeAsync((void *)(uintptr_t)dptr, hStream));
}
RT_ALIAS(cuMemFreeAsync, cuMemFreeAsync_ptsz);

DRV_API CUresult cuMemAllocHost(void **pp, size_t bytesize)
{
    DRV_CALL(cudaMallocHost(pp, bytesize));
}

/* CU_MEMHOSTALLOC_* and cudaHostAlloc* flags have the same values. */
DRV_API CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    DRV_CALL(cudaHostAlloc(pp, bytesize, Flags));
}

DRV_API CUresult cuMemFreeHost(void *p)
{
    DRV_CALL(cudaFreeHost(p));
}

DRV_API CUresult cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    DRV_CALL(cudaHostGetDevicePointer((void **)pdptr, p, Flags));
}

DRV_API CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
    DRV_CALL(cudaHostGetFlags(pFlags, p));
}

DRV_API CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    DRV_CALL(cudaMallocManaged((void **)dptr, bytesize, flags));
}

/* CU_MEMHOSTREGISTER_* and cudaHostRegister* flags have the same values. */
DRV_API CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
{
    DRV_CALL(cudaHostRegister(p, bytesize, Flags));
}

DRV_API CUresult cuMemHostUnregister(void *p)
{
    DRV_CALL(cudaHostUnregister(p));
}

DRV_API CUresult cuMemGetInfo(size_t *free, size_t *total)
{
    DRV_CALL(cudaMemGetInfo(free, total));
}

/* The runtime-mapped host range holding p, or NULL. */
static struct rt_host *host_range(struct rt_ctx *c, uint64_t p)
{
    for (struct rt_host *h = c->host; h; h = h->next)
        if (!h->gone && p >= (uintptr_t)h->base && p - (uintptr_t)h->base < h->size)
            return h;
    return NULL;
}

/* The allocation holding p: base and size; false when p is in none. */
static bool range_of(struct rt_ctx *c, uint64_t p, uint64_t *base, size_t *size)
{
    struct rt_host *h = host_range(c, p);

    if (h) {
        *base = (uintptr_t)h->base;
        *size = h->size;
        return true;
    }
    return ptxsim_pointer_kind(c->dev, p, base, size) != 0;
}

DRV_API CUresult cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    struct rt_ctx *c;
    uint64_t base = 0;
    size_t size = 0;
    CUresult r = drv_enter(&c);

    if (!r && !range_of(c, dptr, &base, &size))
        r = CUDA_ERROR_NOT_FOUND;
    if (!r && pbase)
        *pbase = (CUdeviceptr)base;
    if (!r && psize)
        *psize = size;
    return drv_leave(c, r);
}

/* What the pointer attributes are computed from. */
struct drv_ptr {
    struct cudaPointerAttributes a;
    uint64_t base;
    size_t size;
    bool known; /* allocated or registered through CUDA */
};

static CUresult ptr_info(struct rt_ctx *c, CUdeviceptr ptr, struct drv_ptr *p)
{
    CUresult r = DRV_RT(cudaPointerGetAttributes(&p->a, (const void *)(uintptr_t)ptr));

    p->known =
        !r && p->a.type != cudaMemoryTypeUnregistered && range_of(c, ptr, &p->base, &p->size);
    return r;
}

/* One attribute of a known pointer into data. */
static CUresult put_attr(const struct drv_ptr *p, CUpointer_attribute attr, void *data)
{
    bool host = p->a.type == cudaMemoryTypeHost;

    switch (attr) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        *(CUcontext *)data = drv_ctx_current() ? drv_ctx_current() : drv_ctx_primary();
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned *)data = host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        *(CUdeviceptr *)data = (CUdeviceptr)(uintptr_t)p->a.devicePointer;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (p->a.type == cudaMemoryTypeDevice)
            return CUDA_ERROR_INVALID_VALUE; /* device memory has no host address */
        *(void **)data = p->a.hostPointer;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: /* every operation is synchronous here */
    case CU_POINTER_ATTRIBUTE_MAPPED:
        *(unsigned *)data = 1;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        *(unsigned *)data = p->a.type == cudaMemoryTypeManaged;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
        *(unsigned long long *)data = p->base;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *(int *)data = 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
        *(unsigned *)data = 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
        *(CUdeviceptr *)data = p->base;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        *(size_t *)data = p->size;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
        *(unsigned long long *)data = 0;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

DRV_API CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    struct rt_ctx *c;
    struct drv_ptr p;
    CUresult r = drv_enter(&c);

    if (!r && !data)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        r = ptr_info(c, ptr, &p);
    if (!r)
        r = p.known ? put_attr(&p, attribute, data) : CUDA_ERROR_INVALID_VALUE;
    return drv_leave(c, r);
}

/* Unlike cuPointerGetAttribute, memory CUDA does not know gets zeroed values, not an error. */
DRV_API CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes,
                                        void **data, CUdeviceptr ptr)
{
    struct rt_ctx *c;
    struct drv_ptr p;
    CUresult r = drv_enter(&c);

    if (!r && (!attributes || !data))
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        r = ptr_info(c, ptr, &p);
    for (unsigned i = 0; !r && i < numAttributes; i++) {
        if (!data[i])
            continue;
        if (!p.known) {
            /* The attribute's own size: zero a pointer-sized slot for the wide ones. */
            bool wide = attributes[i] == CU_POINTER_ATTRIBUTE_CONTEXT ||
                        attributes[i] == CU_POINTER_ATTRIBUTE_DEVICE_POINTER ||
                        attributes[i] == CU_POINTER_ATTRIBUTE_HOST_POINTER ||
                        attributes[i] == CU_POINTER_ATTRIBUTE_BUFFER_ID ||
                        attributes[i] == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR ||
                        attributes[i] == CU_POINTER_ATTRIBUTE_RANGE_SIZE;
            if (attributes[i] == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)
                *(int *)data[i] = -2;
            else if (wide)
                *(uint64_t *)data[i] = 0;
            else
                *(unsigned *)data[i] = 0;
            continue;
        }
        if (put_attr(&p, attributes[i], data[i]) != CUDA_SUCCESS)
            r = CUDA_ERROR_INVALID_VALUE;
    }
    return drv_leave(c, r);
}

/* Placement hints change nothing: every byte is visible to both sides. */
DRV_API CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                       unsigned int flags, CUstream hStream)
{
    (void)devPtr, (void)count, (void)location, (void)flags, (void)hStream;
    return drv_ready();
}
RT_ALIAS(cuMemPrefetchAsync_v2, cuMemPrefetchAsync_v2_ptsz);

DRV_API CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice,
                                CUmemLocation location)
{
    (void)devPtr, (void)count, (void)advice, (void)location;
    return drv_ready();
}

/* Every operation is synchronous here, so SYNC_MEMOPS holds already; other attributes are
 * read-only. */
DRV_API CUresult cuPointerSetAttribute(const void *value, CUpointer_attribute attribute,
                                       CUdeviceptr ptr)
{
    struct rt_ctx *c;
    struct drv_ptr p;
    CUresult r = drv_enter(&c);

    if (!r && !value)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        r = ptr_info(c, ptr, &p);
    if (!r && !p.known)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r && attribute != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
        r = CUDA_ERROR_INVALID_VALUE;
    return drv_leave(c, r);
}
