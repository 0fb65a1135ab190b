/*
 * Driver API launches, function attributes and occupancy. cuLaunchKernel
 * takes its arguments either as an array of pointers (kernelParams, as
 * cudaLaunchKernel) or packed in one buffer (`extra` with
 * CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE), laid out at the offsets the
 * kernel's PTX parameters have; both end in rt_launch, the runtime's launch.
 */
#include <string.h>

#include "runtime/cuda/drv.h"

/* Pointers into the packed buffer, one per parameter, checked against its size. */
static CUresult unpack_extra(struct rt_ctx *c, struct rt_kernel *k, void **extra, void **args)
{
    struct ptxsim_kernel_info info;
    char *buf = NULL;
    size_t size = 0;
    bool have_size = false;

    for (unsigned i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) {
            buf = extra[i + 1];
        } else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) {
            size = *(size_t *)extra[i + 1];
            have_size = true;
        } else {
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    if (rt_fatbin_load(c, k->fb) || ptxsim_kernel_info(k->fb->mod, k->name, &info))
        return CUDA_ERROR_INVALID_HANDLE;
    if (info.nparams && (!buf || !have_size))
        return CUDA_ERROR_INVALID_VALUE;
    for (uint32_t i = 0; i < info.nparams; i++) {
        if ((size_t)info.param_offset[i] + info.param_size[i] > size)
            return CUDA_ERROR_INVALID_VALUE; /* the buffer ends before this parameter */
        args[i] = buf + info.param_offset[i];
    }
    return CUDA_SUCCESS;
}

static CUresult launch(CUfunction f, dim3 grid, dim3 block, unsigned shmem, CUstream stream,
                       void **kernelParams, void **extra)
{
    struct rt_ctx *c;
    void *packed[PTXSIM_MAX_PARAMS];
    CUresult r = drv_enter(&c);
    struct rt_kernel *k = r ? NULL : drv_kernel_find(c, f);

    if (!r && !k)
        r = CUDA_ERROR_INVALID_HANDLE;
    if (!r && kernelParams && extra)
        r = CUDA_ERROR_INVALID_VALUE; /* one way of passing arguments, not both */
    if (!r && extra && k->fb)
        r = unpack_extra(c, k, extra, packed);
    if (!r) {
        cudaError_t e;

        drv_last_save();
        e = rt_launch(c, k, grid, block, extra ? packed : kernelParams, shmem, stream);
        r = drv_last_restore(e);
        /*
         * CUDA_ERROR_INVALID_VALUE is the documented code for a direct caller; NVIDIA's
         * runtime passes the driver's codes below 100 through as its own, so it gets 9 to
         * see cudaErrorInvalidConfiguration, as on a GPU (found by returning each code).
         */
        if (e == cudaErrorInvalidConfiguration && drv_static_runtime())
            r = DRV_ERROR_INVALID_CONFIGURATION;
    }
    return drv_leave(c, r);
}

DRV_API CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                unsigned int gridDimZ, unsigned int blockDimX,
                                unsigned int blockDimY, unsigned int blockDimZ,
                                unsigned int sharedMemBytes, CUstream hStream, void **kernelParams,
                                void **extra)
{
    dim3 g = {gridDimX, gridDimY, gridDimZ}, b = {blockDimX, blockDimY, blockDimZ};

    return launch(f, g, b, sharedMemBytes, hStream, kernelParams, extra);
}
RT_ALIAS(cuLaunchKernel, cuLaunchKernel_ptsz);

/* The attribute of a launch that ptxsim refuses, or NULL (the others change no result). */
static const char *refused_attr(const CUlaunchConfig *config)
{
    for (unsigned i = 0; config->attrs && i < config->numAttrs; i++) {
        const CUlaunchAttribute *a = &config->attrs[i];

        if (a->id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && a->value.cooperative)
            return "cooperative launch (grid-wide synchronisation)";
        if (a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
            (uint64_t)a->value.clusterDim.x * a->value.clusterDim.y * a->value.clusterDim.z > 1)
            return "thread-block clusters";
    }
    return NULL;
}

DRV_API CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams,
                                  void **extra)
{
    const char *refused;

    if (!config)
        return CUDA_ERROR_INVALID_VALUE;
    if ((refused = refused_attr(config)))
        return drv_unsupported("cuLaunchKernelEx", refused);
    return launch(f, (dim3){config->gridDimX, config->gridDimY, config->gridDimZ},
                  (dim3){config->blockDimX, config->blockDimY, config->blockDimZ},
                  config->sharedMemBytes, config->hStream, kernelParams, extra);
}
RT_ALIAS(cuLaunchKernelEx, cuLaunchKernelEx_ptsz);

DRV_API CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX,
                                           unsigned int gridDimY, unsigned int gridDimZ,
                                           unsigned int blockDimX, unsigned int blockDimY,
                                           unsigned int blockDimZ, unsigned int sharedMemBytes,
                                           CUstream hStream, void **kernelParams)
{
    (void)f, (void)gridDimX, (void)gridDimY, (void)gridDimZ, (void)blockDimX, (void)blockDimY;
    (void)blockDimZ, (void)sharedMemBytes, (void)hStream, (void)kernelParams;
    return drv_unsupported("cuLaunchCooperativeKernel",
                           "cooperative launch (grid-wide synchronisation)");
}

/* The runtime's attributes of a kernel handle (cudaFuncGetAttributes takes it as is). */
static CUresult attrs(const void *f, struct cudaFuncAttributes *a)
{
    struct rt_ctx *c;
    CUresult r = drv_enter(&c);

    if (!r && !drv_kernel_find(c, f))
        r = CUDA_ERROR_INVALID_HANDLE;
    drv_leave(c, r);
    return r ? r : DRV_RT(cudaFuncGetAttributes(a, f));
}

DRV_API CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    struct cudaFuncAttributes a;
    CUresult r = pi ? attrs(hfunc, &a) : CUDA_ERROR_INVALID_VALUE;

    if (r)
        return r;
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
        *pi = a.maxThreadsPerBlock;
        break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
        *pi = (int)a.sharedSizeBytes;
        break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
        *pi = (int)a.constSizeBytes;
        break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
        *pi = (int)a.localSizeBytes;
        break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS:
        *pi = a.numRegs;
        break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION:
        *pi = a.ptxVersion;
        break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
        *pi = a.binaryVersion;
        break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA:
        *pi = a.cacheModeCA;
        break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        *pi = a.maxDynamicSharedSizeBytes;
        break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        *pi = a.preferredShmemCarveout;
        break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: /* the default policy */
        *pi = 0;
        break;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
    struct cudaFuncAttributes a;
    CUresult r = attrs(hfunc, &a);

    /* CUfunction_attribute and cudaFuncAttribute share the values of the settable ones. */
    return r ? r : DRV_RT(cudaFuncSetAttribute(hfunc, (enum cudaFuncAttribute)attrib, value));
}

DRV_API CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
    struct cudaFuncAttributes a;
    CUresult r = attrs(hfunc, &a);

    return r ? r : DRV_RT(cudaFuncSetCacheConfig(hfunc, (enum cudaFuncCache)config));
}

DRV_API CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel,
                                      CUdevice dev)
{
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncGetAttribute(pi, attrib, (CUfunction)kernel);
}

DRV_API CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel,
                                      CUdevice dev)
{
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncSetAttribute((CUfunction)kernel, attrib, val);
}

DRV_API CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev)
{
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncSetCacheConfig((CUfunction)kernel, config);
}

DRV_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize, unsigned int flags)
{
    struct cudaFuncAttributes a;
    CUresult r = attrs(func, &a);

    return r ? r
             : DRV_RT(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                   numBlocks, func, blockSize, dynamicSMemSize, flags));
}

DRV_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func,
                                                             int blockSize, size_t dynamicSMemSize)
{
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                dynamicSMemSize, 0);
}

/*
 * The block size with the most resident threads per SM (the largest such
 * size on ties), trying multiples of the warp size from the kernel's limit
 * down, as CUDA's occupancy calculator does; the grid that fills the device.
 */
DRV_API CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(
    int *minGridSize, int *blockSize, CUfunction func,
    CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize, int blockSizeLimit,
    unsigned int flags)
{
    struct cudaFuncAttributes a;
    int best = 0, best_blocks = 0, best_size = 0, nsm = 0, limit;
    CUresult r = minGridSize && blockSize ? attrs(func, &a) : CUDA_ERROR_INVALID_VALUE;

    if (!r)
        r = DRV_RT(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    if (r)
        return r;
    limit = blockSizeLimit > 0 && blockSizeLimit < a.maxThreadsPerBlock ? blockSizeLimit
                                                                        : a.maxThreadsPerBlock;
    for (int b = (limit + 31) / 32 * 32; b > 0; b -= 32) {
        int size = b > limit ? limit : b, n = 0;
        size_t smem =
            blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(size) : dynamicSMemSize;

        r = cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, func, size, smem, flags);
        if (r)
            return r;
        if (n * size > best) {
            best = n * size;
            best_blocks = n;
            best_size = size;
        }
    }
    *minGridSize = best_blocks * nsm;
    *blockSize = best_size;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                                  CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                  size_t dynamicSMemSize, int blockSizeLimit)
{
    return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func,
                                                     blockSizeToDynamicSMemSize, dynamicSMemSize,
                                                     blockSizeLimit, 0);
}

DRV_API CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func,
                                                         int numBlocks, int blockSize)
{
    struct cudaFuncAttributes a;
    CUresult r = attrs(func, &a);

    return r ? r
             : DRV_RT(cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, func, numBlocks,
                                                                blockSize));
}
