/*
 * The one simulated device: properties and attributes of the configured
 * machine (the rt_ctx's cfg, in both modes; by default the GTX 480: 15 SMs,
 * 48 KiB shared memory and 32768 registers per SM), limits, synchronisation
 * and reset. The compute capability reported is the configured one, raised
 * to that of the PTX the program carries (7.5 for nvcc 13's default), since
 * programs compare it with what they were built for; docs/cuda-runtime.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cuda_profiler_api.h> /* cudaProfilerStart/Stop: their prototypes */

#include "memsys/cache.h"
#include "isa/engine.h"
#include "runtime/cuda/cudart.h"
#include "runtime/cuda/sched.h"

#define RT_CONST_BYTES 65536
#define RT_DRIVER_VERSION 13000

/* What the configuration says, in the units cudaDeviceProp uses. */
struct rt_machine {
    int nsm, threads_per_sm, max_block, ctas_per_sm;
    int regs_per_sm, shared_per_sm, shared_per_block;
    int clock_khz, mem_clock_khz; /* shader clock (2 x core), DRAM command clock */
    int bus_bits, l2_bytes;
    unsigned cc; /* compute capability x 10 */
};

static int clamp_int(uint64_t v)
{
    return v > 2147483647u ? 2147483647 : (int)v;
}

static void machine(struct rt_ctx *c, struct rt_machine *m)
{
    const struct ps_config *f = &c->cfg;
    struct mem_cache_geom g;
    struct ps_err err;
    double clk[8] = {700.0, 700.0, 700.0, 924.0};
    uint32_t n = 0, pipe[2] = {1536, 32};
    unsigned cc = f->gpgpu_compute_capability_major * 10 + f->gpgpu_compute_capability_minor;
    unsigned ptx = rt_target_sm(c);

    /* ps_config_check accepted the configuration, so the lists parse; defaults all the same. */
    if (ps_parse_double_list(f->gpgpu_clock_domains, ':', clk, 8, &n, &err) || n < 4)
        clk[0] = 700.0, clk[3] = 924.0;
    if (ps_parse_uint_list(f->gpgpu_shader_core_pipeline, ':', pipe, 2, &n, &err) || !n)
        pipe[0] = 1536;
    m->nsm = clamp_int((uint64_t)f->gpgpu_n_clusters * f->gpgpu_n_cores_per_cluster);
    m->threads_per_sm = clamp_int(pipe[0]);
    m->max_block = m->threads_per_sm < 1024 ? m->threads_per_sm : 1024;
    m->ctas_per_sm = clamp_int(f->gpgpu_shader_cta);
    m->regs_per_sm = clamp_int(f->gpgpu_shader_registers);
    m->shared_per_sm = clamp_int(f->gpgpu_shmem_size);
    m->shared_per_block =
        m->shared_per_sm < RT_SHARED_PER_BLOCK ? m->shared_per_sm : RT_SHARED_PER_BLOCK;
    /* GPGPU-Sim models the GTX 480's 1401 MHz shader clock as a 700 MHz core clock. */
    m->clock_khz = clamp_int((uint64_t)(clk[0] * 2000.0 + 0.5));
    m->mem_clock_khz = clamp_int((uint64_t)(clk[3] * 1000.0 + 0.5));
    m->bus_bits =
        clamp_int((uint64_t)f->gpgpu_n_mem * f->gpgpu_n_mem_per_ctrlr * f->gpgpu_dram_buswidth * 8);
    m->l2_bytes = 0;
    if (!mem_cache_geom_parse(f->gpgpu_cache_dl2, &g, &err))
        m->l2_bytes = clamp_int(mem_cache_geom_bytes(&g) * f->gpgpu_n_mem *
                                f->gpgpu_n_sub_partition_per_mchannel);
    m->cc = cc > ptx ? cc : ptx;
}

/* "ptxsim GTX 480" for the gtx480 configuration, else "ptxsim " and the configuration's name. */
static void device_name(char *buf, size_t len)
{
    const char *cfg = getenv("PTXSIM_CONFIG"), *base;

    if (!cfg || !*cfg)
        cfg = "gtx480";
    base = strrchr(cfg, '/') ? strrchr(cfg, '/') + 1 : cfg;
    if (!strcmp(base, "gtx480"))
        snprintf(buf, len, "ptxsim GTX 480");
    else
        snprintf(buf, len, "ptxsim %.200s", *base ? base : cfg);
}

static void device_props(struct rt_ctx *c, struct cudaDeviceProp *p)
{
    struct rt_machine m;

    machine(c, &m);
    memset(p, 0, sizeof(*p));
    device_name(p->name, sizeof(p->name));
    memcpy(p->uuid.bytes, "ptxsim-gtx480-00", sizeof(p->uuid.bytes));
    p->totalGlobalMem = (size_t)RT_TOTAL_MEM;
    p->sharedMemPerBlock = (size_t)m.shared_per_block;
    /* A CTA may use the SM's whole register file (gpgpu_registers_per_block is not enforced). */
    p->regsPerBlock = m.regs_per_sm;
    p->warpSize = 32;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = m.max_block;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = m.max_block;
    p->maxThreadsDim[2] = m.max_block < 64 ? m.max_block : 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->totalConstMem = RT_CONST_BYTES;
    p->major = (int)(m.cc / 10);
    p->minor = (int)(m.cc % 10);
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = m.nsm;
    p->canMapHostMemory = 1;
    p->surfaceAlignment = 512;
    p->concurrentKernels = 1;
    p->pciBusID = 1;
    p->asyncEngineCount = 1;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = m.bus_bits;
    p->l2CacheSize = m.l2_bytes;
    p->maxThreadsPerMultiProcessor = m.threads_per_sm;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = (size_t)m.shared_per_sm;
    p->regsPerMultiprocessor = m.regs_per_sm;
    p->managedMemory = 1;
    p->canUseHostPointerForRegisteredMem = 1;
    p->sharedMemPerBlockOptin = (size_t)m.shared_per_block;
    p->maxBlocksPerMultiProcessor = m.ctas_per_sm;
    p->hostRegisterSupported = 1;
    p->deviceNumaId = -1;
    p->hostNumaId = -1;
}

static cudaError_t device_ok(int device)
{
    return device == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}

RT_API cudaError_t cudaGetDeviceCount(int *count)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && !count)
        e = cudaErrorInvalidValue;
    if (!e)
        *count = 1;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaGetDevice(int *device)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && !device)
        e = cudaErrorInvalidValue;
    if (!e)
        *device = 0;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaSetDevice(int device)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    return rt_unlock(c, e ? e : device_ok(device));
}

RT_API cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    (void)deviceFlags, (void)flags;
    return cudaSetDevice(device);
}

RT_API cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && (!device || !prop))
        e = cudaErrorInvalidValue;
    if (!e)
        *device = 0;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaSetValidDevices(int *device_arr, int len)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    for (int i = 0; !e && i < len; i++)
        e = device_arr ? device_ok(device_arr[i]) : cudaErrorInvalidValue;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e)
        e = prop ? device_ok(device) : cudaErrorInvalidValue;
    if (!e)
        device_props(c, prop);
    return rt_unlock(c, e);
}

/* Attributes that are not fields of struct cudaDeviceProp in CUDA 13. */
static bool extra_attr(struct rt_ctx *c, enum cudaDeviceAttr attr, int *v)
{
    struct rt_machine m;

    switch (attr) {
    case cudaDevAttrClockRate:
        machine(c, &m);
        *v = m.clock_khz;
        return true;
    case cudaDevAttrMemoryClockRate:
        machine(c, &m);
        *v = m.mem_clock_khz;
        return true;
    case cudaDevAttrGpuOverlap:
        *v = 1;
        return true;
    case cudaDevAttrKernelExecTimeout:
        *v = 0;
        return true;
    case cudaDevAttrComputeMode:
        *v = cudaComputeModeDefault;
        return true;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio:
        *v = 2;
        return true;
    case cudaDevAttrMaxPitch:
        *v = 2147483647;
        return true;
    default:
        return false;
    }
}

static cudaError_t attribute(struct rt_ctx *c, const struct cudaDeviceProp *p,
                             enum cudaDeviceAttr attr, int *v)
{
    if (extra_attr(c, attr, v))
        return cudaSuccess;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
        *v = p->maxThreadsPerBlock;
        break;
    case cudaDevAttrMaxBlockDimX:
        *v = p->maxThreadsDim[0];
        break;
    case cudaDevAttrMaxBlockDimY:
        *v = p->maxThreadsDim[1];
        break;
    case cudaDevAttrMaxBlockDimZ:
        *v = p->maxThreadsDim[2];
        break;
    case cudaDevAttrMaxGridDimX:
        *v = p->maxGridSize[0];
        break;
    case cudaDevAttrMaxGridDimY:
        *v = p->maxGridSize[1];
        break;
    case cudaDevAttrMaxGridDimZ:
        *v = p->maxGridSize[2];
        break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
        *v = (int)p->sharedMemPerBlock;
        break;
    case cudaDevAttrTotalConstantMemory:
        *v = (int)p->totalConstMem;
        break;
    case cudaDevAttrWarpSize:
        *v = p->warpSize;
        break;
    case cudaDevAttrMaxRegistersPerBlock:
        *v = p->regsPerBlock;
        break;
    case cudaDevAttrTextureAlignment:
        *v = (int)p->textureAlignment;
        break;
    case cudaDevAttrMultiProcessorCount:
        *v = p->multiProcessorCount;
        break;
    case cudaDevAttrIntegrated:
        *v = p->integrated;
        break;
    case cudaDevAttrCanMapHostMemory:
        *v = p->canMapHostMemory;
        break;
    case cudaDevAttrSurfaceAlignment:
        *v = (int)p->surfaceAlignment;
        break;
    case cudaDevAttrConcurrentKernels:
        *v = p->concurrentKernels;
        break;
    case cudaDevAttrEccEnabled:
        *v = p->ECCEnabled;
        break;
    case cudaDevAttrPciBusId:
        *v = p->pciBusID;
        break;
    case cudaDevAttrPciDeviceId:
        *v = p->pciDeviceID;
        break;
    case cudaDevAttrPciDomainId:
        *v = p->pciDomainID;
        break;
    case cudaDevAttrTccDriver:
        *v = p->tccDriver;
        break;
    case cudaDevAttrGlobalMemoryBusWidth:
        *v = p->memoryBusWidth;
        break;
    case cudaDevAttrL2CacheSize:
        *v = p->l2CacheSize;
        break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
        *v = p->maxThreadsPerMultiProcessor;
        break;
    case cudaDevAttrAsyncEngineCount:
        *v = p->asyncEngineCount;
        break;
    case cudaDevAttrUnifiedAddressing:
        *v = p->unifiedAddressing;
        break;
    case cudaDevAttrTexturePitchAlignment:
        *v = (int)p->texturePitchAlignment;
        break;
    case cudaDevAttrComputeCapabilityMajor:
        *v = p->major;
        break;
    case cudaDevAttrComputeCapabilityMinor:
        *v = p->minor;
        break;
    case cudaDevAttrGlobalL1CacheSupported:
        *v = p->globalL1CacheSupported;
        break;
    case cudaDevAttrLocalL1CacheSupported:
        *v = p->localL1CacheSupported;
        break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
        *v = (int)p->sharedMemPerMultiprocessor;
        break;
    case cudaDevAttrMaxRegistersPerMultiprocessor:
        *v = p->regsPerMultiprocessor;
        break;
    case cudaDevAttrManagedMemory:
        *v = p->managedMemory;
        break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem:
        *v = p->canUseHostPointerForRegisteredMem;
        break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
        *v = (int)p->sharedMemPerBlockOptin;
        break;
    case cudaDevAttrHostRegisterSupported:
        *v = p->hostRegisterSupported;
        break;
    case cudaDevAttrMaxBlocksPerMultiprocessor:
        *v = p->maxBlocksPerMultiProcessor;
        break;
    case cudaDevAttrNumaId:
        *v = p->deviceNumaId;
        break;
    case cudaDevAttrHostNumaId:
        *v = p->hostNumaId;
        break;
    default:
        /* Every other attribute names a feature this device lacks (textures, peers, ...). */
        if (attr <= 0 || attr >= cudaDevAttrMax)
            return cudaErrorInvalidValue;
        *v = 0;
    }
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);
    struct cudaDeviceProp p;

    if (!e)
        e = value ? device_ok(device) : cudaErrorInvalidValue;
    if (!e) {
        device_props(c, &p);
        e = attribute(c, &p, attr, value);
    }
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaDeviceSynchronize(void)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && rt_sched_on(c))
        rt_sched_drain(c);
    return rt_unlock(c, e ? e : c->sticky);
}

RT_API cudaError_t cudaDeviceReset(void)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e) {
        rt_streams_release(c);
        e = rt_device_recreate(c);
        rt_thread()->last = cudaSuccess;
    }
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return cudaErrorInvalidValue;
    *driverVersion = RT_DRIVER_VERSION;
    return cudaSuccess;
}

RT_API cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion)
        return cudaErrorInvalidValue;
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

RT_API cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && (flags & ~(unsigned)cudaDeviceMask))
        e = cudaErrorInvalidValue;
    if (!e)
        c->device_flags = flags;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && !flags)
        e = cudaErrorInvalidValue;
    if (!e)
        *flags = c->device_flags | cudaDeviceMapHost;
    return rt_unlock(c, e);
}

/*
 * Stack and heap sizes are fixed when the engine's device is made: a larger
 * value takes effect by remaking the device while nothing lives on it yet;
 * later, only values the device already satisfies are accepted.
 */
static cudaError_t set_size_limit(struct rt_ctx *c, size_t *limit, size_t have, size_t value)
{
    size_t old = *limit;
    cudaError_t e;

    if (value <= have) {
        *limit = value;
        return cudaSuccess;
    }
    if (c->dev_used) {
        fprintf(stderr, "ptxsim: cudaDeviceSetLimit: raising the stack or heap size after device "
                        "memory or modules are in use is not supported\n");
        return cudaErrorNotSupported;
    }
    *limit = value;
    e = rt_device_recreate(c);
    if (e)
        *limit = old;
    return e;
}

static cudaError_t set_limit(struct rt_ctx *c, enum cudaLimit limit, size_t value)
{
    switch (limit) {
    case cudaLimitStackSize:
        /* CUDA's ceiling: 512 KiB of local memory per thread (ISA_MAX_LOCAL_PER_THREAD). */
        if (value > ISA_MAX_LOCAL_PER_THREAD)
            return cudaErrorInvalidValue;
        return set_size_limit(c, &c->limit_stack, c->opts.local_per_thread, value);
    case cudaLimitMallocHeapSize:
        if (value > RT_TOTAL_MEM)
            return cudaErrorMemoryAllocation; /* more than the device has */
        /* The heap is a budget, so the live device takes a new size until a kernel mallocs
         * (modules loaded at start, as the static runtime does, do not fix it). */
        if (c->dev && !ptxsim_set_heap(c->dev, value)) {
            c->limit_heap = value;
            return cudaSuccess;
        }
        return set_size_limit(c, &c->limit_heap, (size_t)c->opts.heap_bytes, value);
    case cudaLimitPrintfFifoSize:
        c->limit_printf = value; /* device printf is unbuffered here */
        return cudaSuccess;
    default:
        return cudaErrorUnsupportedLimit;
    }
}

RT_API cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    return rt_unlock(c, e ? e : set_limit(c, limit, value));
}

RT_API cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && !pValue)
        e = cudaErrorInvalidValue;
    if (!e) {
        switch (limit) {
        case cudaLimitStackSize:
            *pValue = c->limit_stack;
            break;
        case cudaLimitMallocHeapSize:
            *pValue = c->limit_heap;
            break;
        case cudaLimitPrintfFifoSize:
            *pValue = c->limit_printf;
            break;
        default:
            e = cudaErrorUnsupportedLimit;
        }
    }
    return rt_unlock(c, e);
}

/* The L1/shared split changes no results in functional mode; kept for the timing model. */
RT_API cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && (cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual))
        e = cudaErrorInvalidValue;
    if (!e)
        c->cache_config = cacheConfig;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && !pCacheConfig)
        e = cudaErrorInvalidValue;
    if (!e)
        *pCacheConfig = c->cache_config;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = 0;
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    if (!canAccessPeer)
        return cudaErrorInvalidValue;
    if (device || peerDevice)
        return cudaErrorInvalidDevice;
    *canAccessPeer = 0;
    return cudaSuccess;
}

/* Profiling ranges change no results; accepted so profiled programs run. */
RT_API cudaError_t cudaProfilerStart(void)
{
    return cudaSuccess;
}

RT_API cudaError_t cudaProfilerStop(void)
{
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    if (!pciBusId || len <= 0)
        return cudaErrorInvalidValue;
    if (device)
        return cudaErrorInvalidDevice;
    snprintf(pciBusId, (size_t)len, "0000:01:00.0");
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    if (!device || !pciBusId)
        return cudaErrorInvalidValue;
    if (strcasecmp(pciBusId, "0000:01:00.0") && strcasecmp(pciBusId, "01:00.0"))
        return cudaErrorInvalidDevice;
    *device = 0;
    return cudaSuccess;
}

/* Shared memory banks are four bytes wide; the eight-byte mode changes no results. */
RT_API cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig)
{
    if (!pConfig)
        return cudaErrorInvalidValue;
    *pConfig = cudaSharedMemBankSizeFourByte;
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    return config >= cudaSharedMemBankSizeDefault && config <= cudaSharedMemBankSizeEightByte
               ? cudaSuccess
               : cudaErrorInvalidValue;
}

/* A pure constructor (the channel format of arrays and texture objects, array.c, texture.c). */
RT_API struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                          enum cudaChannelFormatKind f)
{
    struct cudaChannelFormatDesc d = {x, y, z, w, f};

    return d;
}
