/*
 * Allocation: device memory (cudaMalloc and friends, from the engine's
 * deterministic device address space) and host memory the device can
 * address (cudaMallocHost, cudaHostAlloc, cudaMallocManaged,
 * cudaHostRegister, managed variables).
 *
 * Host memory the runtime allocates is mmap'ed at fixed addresses handed out
 * by a bump pointer from 0x200000000000 (MAP_FIXED_NOREPLACE, one unmapped
 * guard page after each range), then mapped into the device at the same
 * address with ptxsim_map_host: the device pointer equals the host pointer,
 * and the same program gets the same addresses on every run.
 */
#define _GNU_SOURCE /* MAP_FIXED_NOREPLACE */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "isa/devmem.h"
#include "runtime/cuda/cudart.h"
#include "runtime/cuda/sched.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define RT_HOST_ALIGN UINT64_C(0x10000)
#define RT_PITCH_ALIGN 512
#define RT_MAP_TRIES 64

static size_t round_up(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

/* mmap len bytes at the next free fixed address; NULL when the address space is exhausted. */
static void *map_fixed(struct rt_ctx *c, size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);

    for (int i = 0; i < RT_MAP_TRIES; i++) {
        void *want = (void *)c->host_next;
        void *p = mmap(want, len, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

        c->host_next = round_up(c->host_next + len + page, RT_HOST_ALIGN);
        if (p == want)
            return p;
        if (p != MAP_FAILED)
            munmap(p, len); /* a kernel without MAP_FIXED_NOREPLACE took it as a hint */
        else if (errno != EEXIST)
            return NULL;
    }
    return NULL;
}

cudaError_t rt_host_alloc(struct rt_ctx *c, size_t size, enum rt_host_kind kind, unsigned flags,
                          void **out)
{
    struct rt_host *h = calloc(1, sizeof(*h));
    size_t len = round_up(size, (size_t)sysconf(_SC_PAGESIZE));

    *out = NULL;
    if (!h || !size || len < size)
        goto out_free;
    h->base = map_fixed(c, len);
    if (!h->base)
        goto out_free;
    if (ptxsim_map_host(c->dev, h->base, size)) {
        munmap(h->base, len);
        goto out_free;
    }
    h->size = size;
    h->map_len = len;
    h->kind = kind;
    h->flags = flags;
    h->next = c->host;
    c->host = h;
    c->dev_used = true;
    *out = h->base;
    return cudaSuccess;
out_free:
    free(h);
    return cudaErrorMemoryAllocation;
}

/* Maps registered (or runtime) host memory into the device, read-only when so registered. */
static int host_map(struct rt_ctx *c, void *p, size_t size, unsigned flags)
{
    return flags & cudaHostRegisterReadOnly ? ptxsim_map_host_readonly(c->dev, p, size)
                                            : ptxsim_map_host(c->dev, p, size);
}

static struct rt_host *host_find(struct rt_ctx *c, const void *p)
{
    uintptr_t a = (uintptr_t)p;

    for (struct rt_host *h = c->host; h; h = h->next)
        if (a >= (uintptr_t)h->base && a - (uintptr_t)h->base < h->size)
            return h;
    return NULL;
}

static void host_release(struct rt_ctx *c, struct rt_host *h, bool unmap_dev)
{
    if (unmap_dev && c->dev && !h->gone)
        ptxsim_free(c->dev, (uint64_t)(uintptr_t)h->base);
    if (h->map_len)
        munmap(h->base, h->map_len);
    free(h);
}

cudaError_t rt_host_free(struct rt_ctx *c, void *base, enum rt_host_kind kind)
{
    for (struct rt_host **ph = &c->host; *ph; ph = &(*ph)->next) {
        struct rt_host *h = *ph;

        if (h->base != base || h->kind != kind)
            continue;
        *ph = h->next;
        host_release(c, h, true);
        return cudaSuccess;
    }
    return cudaErrorInvalidValue;
}

void rt_host_release_all(struct rt_ctx *c, bool keep_vars)
{
    for (struct rt_host **ph = &c->host; *ph;) {
        struct rt_host *h = *ph;

        if (keep_vars && h->kind == RT_HOST_VARS) {
            ph = &h->next;
            continue;
        }
        *ph = h->next;
        host_release(c, h, true);
    }
}

cudaError_t rt_host_remap(struct rt_ctx *c)
{
    for (struct rt_host *h = c->host; h; h = h->next)
        if (!h->gone && host_map(c, h->base, h->size, h->kind == RT_HOST_REGISTERED ? h->flags : 0))
            return cudaErrorMemoryAllocation;
    return cudaSuccess;
}

static cudaError_t dev_malloc(struct rt_ctx *c, void **p, size_t size)
{
    uint64_t addr;

    if (!p)
        return cudaErrorInvalidValue;
    *p = NULL;
    if (c->sticky)
        return c->sticky;
    if (!size)
        return cudaSuccess;
    if (ptxsim_malloc(c->dev, size, &addr))
        return cudaErrorMemoryAllocation;
    c->dev_used = true;
    c->dev_bytes += size;
    *p = (void *)(uintptr_t)addr;
    return cudaSuccess;
}

RT_API cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e)
        e = dev_malloc(c, devPtr, size);
    return rt_unlock(c, e);
}

static cudaError_t dev_free(struct rt_ctx *c, void *p)
{
    uint64_t base;
    size_t size;
    struct rt_host *h;

    if (c->sticky)
        return c->sticky;
    if (!p)
        return cudaSuccess;
    h = host_find(c, p);
    if (h)
        return h->kind == RT_HOST_MANAGED ? rt_host_free(c, p, RT_HOST_MANAGED)
                                          : cudaErrorInvalidValue;
    if (ptxsim_pointer_kind(c->dev, (uint64_t)(uintptr_t)p, &base, &size) != ISA_ALLOC_DEVICE + 1 ||
        base != (uint64_t)(uintptr_t)p || ptxsim_free(c->dev, base))
        return cudaErrorInvalidValue;
    c->dev_bytes -= size;
    return cudaSuccess;
}

RT_API cudaError_t cudaFree(void *devPtr)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && rt_sched_on(c))
        rt_sched_drain(c); /* cudaFree synchronises */
    if (!e)
        e = dev_free(c, devPtr);
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);
    size_t p = round_up(width ? width : 1, RT_PITCH_ALIGN);

    if (!e && (!pitch || (height && p > SIZE_MAX / height)))
        e = cudaErrorInvalidValue;
    if (!e)
        e = dev_malloc(c, devPtr, p * height);
    if (!e)
        *pitch = p;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e)
        e = rt_stream_valid(c, hStream) ? dev_malloc(c, devPtr, size)
                                        : cudaErrorInvalidResourceHandle;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && rt_sched_on(c) && rt_stream_valid(c, hStream))
        rt_sched_drain_stream(c, hStream); /* freed when its stream gets there */
    if (!e)
        e = rt_stream_valid(c, hStream) ? dev_free(c, devPtr) : cudaErrorInvalidResourceHandle;
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMallocAsync, cudaMallocAsync_ptsz);
RT_ALIAS(cudaFreeAsync, cudaFreeAsync_ptsz);

static cudaError_t host_alloc(void **p, size_t size, enum rt_host_kind kind, unsigned flags)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && !p)
        e = cudaErrorInvalidValue;
    if (!e && c->sticky)
        e = c->sticky;
    if (!e) {
        *p = NULL;
        if (size)
            e = rt_host_alloc(c, size, kind, flags, p);
        else if (kind == RT_HOST_MANAGED)
            e = cudaErrorInvalidValue;
    }
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    if (flags &
        ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)) {
        rt_set_last(cudaErrorInvalidValue);
        return cudaErrorInvalidValue;
    }
    return host_alloc(pHost, size, RT_HOST_PINNED, flags);
}

RT_API cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    return host_alloc(ptr, size, RT_HOST_PINNED, 0);
}

RT_API cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) {
        rt_set_last(cudaErrorInvalidValue);
        return cudaErrorInvalidValue;
    }
    return host_alloc(devPtr, size, RT_HOST_MANAGED, flags);
}

RT_API cudaError_t cudaFreeHost(void *ptr)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && rt_sched_on(c))
        rt_sched_drain(c); /* cudaFreeHost synchronises */
    if (!e && c->sticky)
        e = c->sticky;
    if (!e && ptr)
        e = rt_host_free(c, ptr, RT_HOST_PINNED);
    return rt_unlock(c, e);
}

static cudaError_t host_register(struct rt_ctx *c, void *ptr, size_t size, unsigned flags)
{
    const char *p = ptr;
    struct rt_host *h;

    if (!ptr || !size || (uintptr_t)p + size < (uintptr_t)p)
        return cudaErrorInvalidValue;
    if (host_find(c, p) || host_find(c, p + size - 1))
        return cudaErrorHostMemoryAlreadyRegistered;
    if (!rt_host_range_ok(ptr, size, !(flags & cudaHostRegisterReadOnly)))
        return cudaErrorInvalidValue; /* not (or not wholly) mapped, or not writable */
    if (host_map(c, ptr, size, flags))
        return cudaErrorInvalidValue;
    h = calloc(1, sizeof(*h));
    if (!h) {
        ptxsim_free(c->dev, (uint64_t)(uintptr_t)ptr);
        return cudaErrorMemoryAllocation;
    }
    h->base = ptr;
    h->size = size;
    h->kind = RT_HOST_REGISTERED;
    h->flags = flags;
    h->next = c->host;
    c->host = h;
    c->dev_used = true;
    return cudaSuccess;
}

RT_API cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e)
        e = c->sticky ? c->sticky : host_register(c, ptr, size, flags);
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaHostUnregister(void *ptr)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && rt_sched_on(c))
        rt_sched_drain(c); /* queued kernels may still use the memory */
    if (!e && rt_host_free(c, ptr, RT_HOST_REGISTERED))
        e = cudaErrorHostMemoryNotRegistered;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && (!pDevice || flags || !host_find(c, pHost)))
        e = cudaErrorInvalidValue;
    if (!e)
        *pDevice = pHost;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);
    struct rt_host *h = e ? NULL : host_find(c, pHost);

    if (!e && (!pFlags || !h || (h->kind != RT_HOST_PINNED && h->kind != RT_HOST_REGISTERED)))
        e = cudaErrorInvalidValue;
    if (!e)
        *pFlags = h->flags;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && (!free || !total))
        e = cudaErrorInvalidValue;
    if (!e) {
        *total = (size_t)RT_TOTAL_MEM;
        *free = c->dev_bytes < RT_TOTAL_MEM ? (size_t)(RT_TOTAL_MEM - c->dev_bytes) : 0;
    }
    return rt_unlock(c, e);
}

static void pointer_attrs(struct rt_ctx *c, struct cudaPointerAttributes *a, const void *ptr)
{
    struct rt_host *h = host_find(c, ptr);
    uint64_t base;
    size_t size;

    memset(a, 0, sizeof(*a));
    a->type = cudaMemoryTypeUnregistered;
    a->device = -2; /* no device, as CUDA reports for ordinary host memory */
    if (h) {
        bool managed = h->kind == RT_HOST_MANAGED || h->kind == RT_HOST_VARS;

        a->type = managed ? cudaMemoryTypeManaged : cudaMemoryTypeHost;
        a->device = 0;
        a->devicePointer = (void *)ptr;
        a->hostPointer = (void *)ptr;
    } else if (ptr && ptxsim_pointer_kind(c->dev, (uint64_t)(uintptr_t)ptr, &base, &size)) {
        a->type = cudaMemoryTypeDevice;
        a->device = 0;
        a->devicePointer = (void *)ptr;
    }
}

RT_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                                            const void *ptr)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && !attributes)
        e = cudaErrorInvalidValue;
    if (!e)
        pointer_attrs(c, attributes, ptr);
    return rt_unlock(c, e);
}

/* Placement hints: every byte is always where both sides can see it, so they change nothing. */
RT_API cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                        struct cudaMemLocation location, unsigned int flags,
                                        cudaStream_t stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    (void)devPtr, (void)count, (void)location, (void)flags;
    if (!e && !rt_stream_valid(c, stream))
        e = cudaErrorInvalidResourceHandle;
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemPrefetchAsync, cudaMemPrefetchAsync_ptsz);

RT_API cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                 struct cudaMemLocation location)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    (void)count, (void)advice, (void)location;
    if (!e && !host_find(c, devPtr))
        e = cudaErrorInvalidValue;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                            unsigned int flags)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    (void)devPtr, (void)length, (void)flags;
    if (!e && !rt_stream_valid(c, stream))
        e = cudaErrorInvalidResourceHandle;
    return rt_unlock(c, e);
}
RT_ALIAS(cudaStreamAttachMemAsync, cudaStreamAttachMemAsync_ptsz);
