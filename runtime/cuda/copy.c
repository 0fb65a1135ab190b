/*
 * Copies and sets: cudaMemcpy (every kind, cudaMemcpyDefault resolved from
 * what the engine knows of each pointer), the 2D, peer, async and symbol
 * variants, and cudaMemset*. All run synchronously; the async forms only
 * check their stream. Each byte moved to, from or within the device
 * advances the simulated clock at 177.4 GB/s.
 */
#include <string.h>

#include "isa/devmem.h"
#include "runtime/cuda/cudart.h"
#include "runtime/cuda/sched.h"

/* Which side can address p: only the host, only the device, or both (mapped host memory). */
enum side { SIDE_HOST, SIDE_DEV, SIDE_BOTH };

static enum side side_of(struct rt_ctx *c, const void *p)
{
    uint64_t base;
    size_t size;
    int k = ptxsim_pointer_kind(c->dev, (uint64_t)(uintptr_t)p, &base, &size);

    if (!k)
        return SIDE_HOST;
    return k == ISA_ALLOC_HOST + 1 || k == ISA_ALLOC_MANAGED + 1 ? SIDE_BOTH : SIDE_DEV;
}

/* Whether a pointer on side s may stand where kind expects the device (dev) or the host. */
static bool side_ok(enum side s, bool dev)
{
    return dev ? s != SIDE_HOST : s != SIDE_DEV;
}

/*
 * warm: a host-to-device or device-to-host copy marks the sectors it moves
 * present in the L2 (-gpgpu_perf_sim_memcpy); symbol copies do not.
 */
static cudaError_t copy_warm(struct rt_ctx *c, void *dst, const void *src, size_t n, int kind,
                             bool warm)
{
    enum side ds, ss;
    uint64_t d = (uint64_t)(uintptr_t)dst, s = (uint64_t)(uintptr_t)src;
    int rc;

    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    if (!n)
        return cudaSuccess;
    /* A NULL pointer is never a valid source or destination (real CUDA: invalid value). */
    if (!dst || !src)
        return cudaErrorInvalidValue;
    ds = side_of(c, dst);
    ss = side_of(c, src);
    if (kind != cudaMemcpyDefault &&
        (!side_ok(ds, kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice) ||
         !side_ok(ss, kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice)))
        return cudaErrorInvalidValue;
    if (ds == SIDE_HOST && ss == SIDE_HOST) {
        memmove(dst, src, n);
        return cudaSuccess;
    }
    if (ds != SIDE_HOST && ss != SIDE_HOST)
        rc = ptxsim_memcpy_dtod(c->dev, d, s, n);
    else if (ds != SIDE_HOST)
        rc = warm ? ptxsim_memcpy_htod(c->dev, d, src, n)
                  : ptxsim_memcpy_htod_cold(c->dev, d, src, n);
    else
        rc = warm ? ptxsim_memcpy_dtoh(c->dev, dst, s, n)
                  : ptxsim_memcpy_dtoh_cold(c->dev, dst, s, n);
    if (rc)
        return cudaErrorInvalidValue;
    rt_account_copy(c, n);
    return cudaSuccess;
}

static cudaError_t copy(struct rt_ctx *c, void *dst, const void *src, size_t n, int kind)
{
    return copy_warm(c, dst, src, n, kind, true);
}

cudaError_t rt_copy_2d(struct rt_ctx *c, char *dst, size_t dpitch, const char *src, size_t spitch,
                       size_t width, size_t height, int kind)
{
    cudaError_t e = cudaSuccess;

    if (width > dpitch || width > spitch)
        return cudaErrorInvalidPitchValue;
    if (dpitch == width && spitch == width && height && width <= SIZE_MAX / height)
        return copy(c, dst, src, width * height, kind);
    for (size_t r = 0; r < height && !e; r++)
        e = copy(c, dst + r * dpitch, src + r * spitch, width, kind);
    return e;
}

static cudaError_t set(struct rt_ctx *c, void *p, int value, size_t n)
{
    if (!n)
        return cudaSuccess;
    if (side_of(c, p) == SIDE_HOST || ptxsim_memset(c->dev, (uint64_t)(uintptr_t)p, value, n))
        return cudaErrorInvalidValue;
    rt_account_copy(c, n);
    return cudaSuccess;
}

static cudaError_t set_2d(struct rt_ctx *c, char *p, size_t pitch, int value, size_t width,
                          size_t height)
{
    cudaError_t e = cudaSuccess;

    if (width > pitch)
        return cudaErrorInvalidPitchValue;
    for (size_t r = 0; r < height && !e; r++)
        e = set(c, p + r * pitch, value, width);
    return e;
}

cudaError_t rt_copy_enter(struct rt_ctx **c, cudaStream_t stream, bool has_stream)
{
    cudaError_t e = rt_lock(c);

    if (!e && has_stream && !rt_stream_valid(*c, stream))
        e = cudaErrorInvalidResourceHandle;
    /* Timing mode: the copy follows its stream's queued work (a synchronous one, all work). */
    if (!e && rt_sched_on(*c) && has_stream)
        rt_sched_drain_stream(*c, stream);
    else if (!e && rt_sched_on(*c))
        rt_sched_drain(*c);
    if (!e && (*c)->sticky)
        e = (*c)->sticky;
    return e;
}

RT_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, 0, false);

    if (!e)
        e = copy(c, dst, src, count, kind);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemcpy, cudaMemcpy_ptds);

RT_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind, cudaStream_t stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, stream, true);

    if (!e)
        e = copy(c, dst, src, count, kind);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemcpyAsync, cudaMemcpyAsync_ptsz);

RT_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, 0, false);

    if (!e)
        e = rt_copy_2d(c, dst, dpitch, src, spitch, width, height, kind);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemcpy2D, cudaMemcpy2D_ptds);

RT_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind,
                                     cudaStream_t stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, stream, true);

    if (!e)
        e = rt_copy_2d(c, dst, dpitch, src, spitch, width, height, kind);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemcpy2DAsync, cudaMemcpy2DAsync_ptsz);

RT_API cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                                  size_t count)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, 0, false);

    if (!e && (dstDevice || srcDevice))
        e = cudaErrorInvalidDevice;
    if (!e)
        e = copy(c, dst, src, count, cudaMemcpyDefault);
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                       size_t count, cudaStream_t stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, stream, true);

    if (!e && (dstDevice || srcDevice))
        e = cudaErrorInvalidDevice;
    if (!e)
        e = copy(c, dst, src, count, cudaMemcpyDefault);
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, 0, false);

    if (!e)
        e = set(c, devPtr, value, count);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemset, cudaMemset_ptds);

RT_API cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, stream, true);

    if (!e)
        e = set(c, devPtr, value, count);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemsetAsync, cudaMemsetAsync_ptsz);

RT_API cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, 0, false);

    if (!e)
        e = set_2d(c, devPtr, pitch, value, width, height);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemset2D, cudaMemset2D_ptds);

RT_API cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                     size_t height, cudaStream_t stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, stream, true);

    if (!e)
        e = set_2d(c, devPtr, pitch, value, width, height);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemset2DAsync, cudaMemset2DAsync_ptsz);

/*
 * The device address and size of a registered __device__ / __constant__ /
 * __managed__ variable, given its host shadow. A managed variable's address
 * is its host copy, which the device addresses too.
 */
static cudaError_t symbol(struct rt_ctx *c, const void *sym, uint64_t *addr, size_t *size)
{
    cudaError_t e;

    for (struct rt_var *v = c->vars; v; v = v->next) {
        if (!v->host || v->host != sym)
            continue;
        if (v->managed) {
            *addr = (uint64_t)(uintptr_t)v->host;
            *size = v->size;
            return cudaSuccess;
        }
        e = rt_fatbin_load(c, v->fb);
        if (e)
            return e;
        return ptxsim_module_symbol(v->fb->mod, v->name, addr, size) ? cudaErrorInvalidSymbol
                                                                     : cudaSuccess;
    }
    return cudaErrorInvalidSymbol;
}

static cudaError_t to_symbol(struct rt_ctx *c, const void *sym, const void *src, size_t count,
                             size_t offset, int kind)
{
    uint64_t addr;
    size_t size;
    cudaError_t e;

    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    e = symbol(c, sym, &addr, &size);
    if (!e && (offset > size || count > size - offset))
        e = cudaErrorInvalidValue;
    if (!e)
        e = copy_warm(c, (void *)(uintptr_t)(addr + offset), src, count, kind, false);
    return e;
}

static cudaError_t from_symbol(struct rt_ctx *c, void *dst, const void *sym, size_t count,
                               size_t offset, int kind)
{
    uint64_t addr;
    size_t size;
    cudaError_t e;

    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    e = symbol(c, sym, &addr, &size);
    if (!e && (offset > size || count > size - offset))
        e = cudaErrorInvalidValue;
    if (!e)
        e = copy_warm(c, dst, (const void *)(uintptr_t)(addr + offset), count, kind, false);
    return e;
}

RT_API cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                      size_t offset, enum cudaMemcpyKind kind)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, 0, false);

    if (!e)
        e = to_symbol(c, symbol, src, count, offset, kind);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemcpyToSymbol, cudaMemcpyToSymbol_ptds);

RT_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                        enum cudaMemcpyKind kind)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, 0, false);

    if (!e)
        e = from_symbol(c, dst, symbol, count, offset, kind);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemcpyFromSymbol, cudaMemcpyFromSymbol_ptds);

RT_API cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                           size_t offset, enum cudaMemcpyKind kind,
                                           cudaStream_t stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, stream, true);

    if (!e)
        e = to_symbol(c, symbol, src, count, offset, kind);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemcpyToSymbolAsync, cudaMemcpyToSymbolAsync_ptsz);

RT_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                             size_t offset, enum cudaMemcpyKind kind,
                                             cudaStream_t stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, stream, true);

    if (!e)
        e = from_symbol(c, dst, symbol, count, offset, kind);
    return rt_unlock(c, e);
}
RT_ALIAS(cudaMemcpyFromSymbolAsync, cudaMemcpyFromSymbolAsync_ptsz);

RT_API cudaError_t cudaGetSymbolAddress(void **devPtr, const void *sym)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, 0, false);
    uint64_t addr;
    size_t size;

    if (!e && !devPtr)
        e = cudaErrorInvalidValue;
    if (!e)
        e = symbol(c, sym, &addr, &size);
    if (!e)
        *devPtr = (void *)(uintptr_t)addr;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaGetSymbolSize(size_t *size, const void *sym)
{
    struct rt_ctx *c;
    cudaError_t e = rt_copy_enter(&c, 0, false);
    uint64_t addr;

    if (!e && !size)
        e = cudaErrorInvalidValue;
    if (!e)
        e = symbol(c, sym, &addr, size);
    return rt_unlock(c, e);
}
