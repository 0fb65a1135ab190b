/*
 * Kernel attributes and occupancy. The numbers come from the PTX itself
 * (isa_resources_of on a separately parsed copy of the module, made once
 * per fatbin when first asked): shared, local and constant bytes as
 * declared, and registers as the PTX declares them, capped at Fermi's 63 per
 * thread. PTX virtual registers overstate what ptxas would allocate, so
 * numRegs is an upper-bound estimate (docs/cuda-runtime.md). Occupancy
 * follows the GTX 480 limits: 1536 threads, 8 CTAs, 32768 registers and
 * 48 KiB of shared memory per SM.
 */
#include <stdio.h>

#include "frontend/ptx_parse.h"
#include "isa/module.h"
#include "isa/regpressure.h"
#include "isa/resources.h"
#include "runtime/cuda/cudart.h"

static int max_threads(const struct isa_perf *perf, int regs)
{
    int n = 1024;

    if (perf->maxntid_n) {
        uint64_t t = 1;

        for (unsigned i = 0; i < perf->maxntid_n; i++)
            t *= perf->maxntid[i];
        n = t < (uint64_t)n ? (int)t : n;
    }
    if (regs && RT_REGS_PER_SM / (regs * 32) * 32 < n)
        n = RT_REGS_PER_SM / (regs * 32) * 32;
    return n;
}

static void fill_attrs(const struct isa_module *m, struct rt_kernel *k)
{
    uint32_t f = isa_module_find_func(m, k->name);
    struct cudaFuncAttributes *a = &k->attrs;
    struct isa_resources r;

    k->attrs_done = true;
    if (f == ISA_NONE || !m->funcs[f]->is_entry || isa_resources_of(m, f, &r)) {
        k->attrs_err = cudaErrorInvalidDeviceFunction;
        return;
    }
    a->sharedSizeBytes = r.shared_bytes;
    a->constSizeBytes = r.const_bytes;
    a->localSizeBytes = r.local_bytes;
    {
        /* The timing model's estimate (peak live registers), not the declared virtual ones. */
        uint32_t regs = isa_reg_pressure(m, f);

        if (regs == UINT32_MAX)
            regs = r.regs32;
        a->numRegs = regs < RT_MAX_REGS_PER_THREAD ? (int)(regs ? regs : 1) : RT_MAX_REGS_PER_THREAD;
    }
    a->maxThreadsPerBlock = max_threads(&m->funcs[f]->perf, a->numRegs);
    /* As CUDA reports them: the virtual architecture the PTX targets (75 for
       compute_75), and the same for the binary ptxsim runs, which is that PTX. */
    a->ptxVersion = (int)m->sm;
    a->binaryVersion = (int)m->sm;
    a->maxDynamicSharedSizeBytes =
        r.shared_bytes < RT_SHARED_PER_BLOCK ? (int)(RT_SHARED_PER_BLOCK - r.shared_bytes) : 0;
    a->preferredShmemCarveout = -1;
}

/* Computes the attributes of every kernel of k's fatbin with one parse. */
static cudaError_t kernel_attrs(struct rt_ctx *c, struct rt_kernel *k)
{
    struct isa_module *m;
    struct ps_err err;
    cudaError_t e;

    if (k->attrs_done)
        return k->attrs_err;
    if (!k->fb)
        return cudaErrorInvalidDeviceFunction;
    e = rt_fatbin_load(c, k->fb);
    if (e)
        return e;
    m = ptx_parse(k->fb->ptx, k->fb->ptx_len, k->fb->name, &err);
    if (!m)
        return cudaErrorInvalidKernelImage;
    for (struct rt_kernel *o = c->kernels; o; o = o->next)
        if (o->fb == k->fb && !o->attrs_done)
            fill_attrs(m, o);
    isa_module_destroy(m);
    return k->attrs_err;
}

/* Locks and finds the kernel with its attributes: the prologue of the calls below. */
static cudaError_t enter(struct rt_ctx **c, const void *func, struct rt_kernel **k)
{
    cudaError_t e = rt_lock(c);

    *k = NULL;
    if (e)
        return e;
    *k = rt_kernel_find(*c, func);
    return *k ? kernel_attrs(*c, *k) : cudaErrorInvalidDeviceFunction;
}

RT_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    struct rt_ctx *c;
    struct rt_kernel *k;
    cudaError_t e = enter(&c, func, &k);

    if (!e && !attr)
        e = cudaErrorInvalidValue;
    if (!e) {
        *attr = k->attrs;
        if (k->max_dyn_shared >= 0)
            attr->maxDynamicSharedSizeBytes = k->max_dyn_shared;
    }
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);
    struct rt_kernel *k = e ? NULL : rt_kernel_find(c, func);

    if (!e && (!k || !name))
        e = name ? cudaErrorInvalidDeviceFunction : cudaErrorInvalidValue;
    if (!e)
        *name = k->name;
    return rt_unlock(c, e);
}

static cudaError_t set_attr(struct rt_kernel *k, enum cudaFuncAttribute attr, int value)
{
    switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize:
        if (value < 0 || value > k->attrs.maxDynamicSharedSizeBytes)
            return cudaErrorInvalidValue;
        k->max_dyn_shared = value;
        return cudaSuccess;
    case cudaFuncAttributePreferredSharedMemoryCarveout:
        /* The L1/shared split changes no results; the timing model will read it. */
        if (value < -1 || value > 100)
            return cudaErrorInvalidValue;
        k->attrs.preferredShmemCarveout = value;
        return cudaSuccess;
    default:
        return cudaErrorNotSupported; /* clusters (sm_90+) */
    }
}

RT_API cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    struct rt_ctx *c;
    struct rt_kernel *k;
    cudaError_t e = enter(&c, func, &k);

    if (!e)
        e = set_attr(k, attr, value);
    return rt_unlock(c, e);
}

/* Cache and bank preferences change no results in functional mode; accepted and checked. */
RT_API cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    struct rt_ctx *c;
    struct rt_kernel *k;
    cudaError_t e = enter(&c, func, &k);

    if (!e && (cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual))
        e = cudaErrorInvalidValue;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
    struct rt_ctx *c;
    struct rt_kernel *k;
    cudaError_t e = enter(&c, func, &k);

    if (!e && (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte))
        e = cudaErrorInvalidValue;
    return rt_unlock(c, e);
}

/* Resident CTAs per SM for blocks of `threads` threads using `shared` bytes of shared memory. */
static int occupancy(const struct cudaFuncAttributes *a, int threads, size_t shared)
{
    int warps = (threads + 31) / 32, n = RT_BLOCKS_PER_SM;

    if (threads <= 0 || threads > a->maxThreadsPerBlock || shared > RT_SHARED_PER_BLOCK)
        return 0;
    if (RT_THREADS_PER_SM / (warps * 32) < n)
        n = RT_THREADS_PER_SM / (warps * 32);
    if (a->numRegs && RT_REGS_PER_SM / (a->numRegs * warps * 32) < n)
        n = RT_REGS_PER_SM / (a->numRegs * warps * 32);
    if (shared && RT_SHARED_PER_BLOCK / shared < (size_t)n)
        n = (int)(RT_SHARED_PER_BLOCK / shared);
    return n;
}

RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned int flags)
{
    struct rt_ctx *c;
    struct rt_kernel *k;
    cudaError_t e = enter(&c, func, &k);

    if (!e && (!numBlocks || flags > cudaOccupancyDisableCachingOverride))
        e = cudaErrorInvalidValue;
    if (!e)
        *numBlocks = occupancy(&k->attrs, blockSize, k->attrs.sharedSizeBytes + dynamicSMemSize);
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                                 int blockSize,
                                                                 size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                  dynamicSMemSize,
                                                                  cudaOccupancyDefault);
}

RT_API cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                                             const void *func, int numBlocks,
                                                             int blockSize)
{
    struct rt_ctx *c;
    struct rt_kernel *k;
    cudaError_t e = enter(&c, func, &k);
    size_t per, stat;

    if (!e && (!dynamicSmemSize || numBlocks <= 0 || !occupancy(&k->attrs, blockSize, 0)))
        e = cudaErrorInvalidValue;
    if (!e) {
        per = RT_SHARED_PER_BLOCK / (size_t)numBlocks;
        stat = k->attrs.sharedSizeBytes;
        *dynamicSmemSize = per > stat ? per - stat : 0;
    }
    return rt_unlock(c, e);
}
