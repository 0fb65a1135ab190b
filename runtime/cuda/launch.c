/*
 * Kernel launches. nvcc 13's stubs call __cudaPushCallConfiguration for
 * `<<<grid, block, shmem, stream>>>`, then, in the stub,
 * __cudaPopCallConfiguration, __cudaGetKernel (once, cached by the stub) and
 * __cudaLaunchKernel(_ptsz); older or hand-written code calls
 * cudaLaunchKernel or cudaLaunchKernelExC. All of them end in rt_launch,
 * with the grid and block of the call itself.
 *
 * A launch runs the whole grid before returning; a device fault in it
 * becomes the sticky error that the next call returns (as in CUDA, where
 * the launch returns before the kernel faults). Its cost in the
 * functional-mode estimate: ceil(warp instructions / min(15, CTAs)) core
 * cycles at 700 MHz, i.e. one warp instruction per SM per cycle.
 */
#include <stdio.h>
#include <time.h>

#include "runtime/cuda/cudart.h"
#include "runtime/cuda/sched.h"
#include "runtime/functional_time.h"
#include "runtime/stop.h"

RT_API unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                            struct CUstream_st *stream);
RT_API cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                              void *stream);
RT_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func);
RT_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                      size_t sharedMem, cudaStream_t stream);
RT_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                           void **args, size_t sharedMem, cudaStream_t stream);

#define RT_MAX_GRID_X 2147483647u
#define RT_MAX_GRID_YZ 65535u
#define RT_MAX_BLOCK_XY 1024u
#define RT_MAX_BLOCK_Z 64u

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     struct CUstream_st *stream)
{
    struct rt_thread *t = rt_thread();

    if (t->ncfg == RT_CFG_DEPTH) {
        rt_set_last(cudaErrorLaunchOutOfResources);
        return 1; /* the stub is not called */
    }
    t->cfg[t->ncfg++] = (struct rt_callcfg){gridDim, blockDim, sharedMem, stream};
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream)
{
    struct rt_thread *t = rt_thread();
    struct rt_callcfg *cfg;

    if (!t->ncfg) {
        rt_set_last(cudaErrorMissingConfiguration);
        return cudaErrorMissingConfiguration;
    }
    cfg = &t->cfg[--t->ncfg];
    *gridDim = cfg->grid;
    *blockDim = cfg->block;
    *sharedMem = cfg->shmem;
    *(cudaStream_t *)stream = cfg->stream;
    return cudaSuccess;
}

static bool config_ok(dim3 g, dim3 b)
{
    uint64_t threads = (uint64_t)b.x * b.y * b.z;

    return g.x && g.y && g.z && b.x && b.y && b.z && g.x <= RT_MAX_GRID_X &&
           g.y <= RT_MAX_GRID_YZ && g.z <= RT_MAX_GRID_YZ && b.x <= RT_MAX_BLOCK_XY &&
           b.y <= RT_MAX_BLOCK_XY && b.z <= RT_MAX_BLOCK_Z && threads <= RT_MAX_BLOCK_XY;
}

static double seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Statistics and simulated time of one finished (or faulted) launch. */
static cudaError_t account(struct rt_ctx *c, const struct rt_kernel *k, dim3 g, dim3 b,
                           uint64_t warp0, uint64_t thread0, double wall_s)
{
    uint64_t ctas = (uint64_t)g.x * g.y * g.z;
    struct ptxsim_kstat ks = {
        .name = k->name,
        .warp_insn = ptxsim_warp_insts(c->dev) - warp0,
        .thread_insn = ptxsim_thread_insts(c->dev) - thread0,
        .wall_s = wall_s,
        .grid = {g.x, g.y, g.z},
        .block = {b.x, b.y, b.z},
    };

    const struct tm_stats *tm = ptxsim_timing_last(c->dev);

    if (tm) {
        ks.timed = true;
        ks.tm = *tm;
        ks.cycles = tm->c.cycles;
        rt_sched_clock(c); /* the timing model's elapsed time, kernels side by side counted once */
        return rt_stats_add(c, &ks);
    }
    ks.cycles = ptxsim_functional_cycles(ks.warp_insn, ctas, RT_NSM);
    c->sim_ns += (double)ks.cycles * 1e9 / RT_CORE_HZ;
    return rt_stats_add(c, &ks);
}

static cudaError_t run(struct rt_ctx *c, struct rt_kernel *k, dim3 g, dim3 b, void **args,
                       size_t shmem)
{
    struct ptxsim_dim3 pg = {g.x, g.y, g.z}, pb = {b.x, b.y, b.z};
    uint64_t warp0 = ptxsim_warp_insts(c->dev), thread0 = ptxsim_thread_insts(c->dev);
    cudaError_t e = rt_managed_sync(c, true), e2;
    double t0;
    int rc;

    if (e)
        return e;
    rt_host_revalidate(c);
    fflush(stdout);
    t0 = seconds();
    ptxsim_stop_before_launch();
    rc = ptxsim_launch(k->fb->mod, k->name, pg, pb, (uint32_t)shmem, (void *const *)args);
    t0 = seconds() - t0;
    fflush(stdout);
    c->dev_used = true;
    if (rc == PS_EABANDONED) { /* exit() in another thread: the runtime is unloading */
        rt_stop_truncated(c, "the process exited while a kernel ran; that launch was abandoned");
        account(c, k, g, b, warp0, thread0, t0);
        return cudaErrorCudartUnloading;
    }
    e = rc ? rt_take_fault(c, rc) : cudaSuccess;
    /*
     * A device fault is reported as after an asynchronous launch: the launch
     * itself succeeded, and the sticky error comes back from the next call.
     */
    if (e && e == c->sticky)
        e = cudaSuccess;
    e2 = rt_managed_sync(c, false);
    if (!e)
        e = e2;
    e2 = account(c, k, g, b, warp0, thread0, t0);
    ptxsim_stop_after_launch(); /* a signal during the launch: statistics, then the signal */
    return e ? e : e2;
}

/* __managed__ variables have host copies synchronised around each launch (rt_managed_sync). */
static bool has_managed_vars(const struct rt_ctx *c)
{
    for (const struct rt_var *v = c->vars; v; v = v->next)
        if (v->managed && v->fb->mod)
            return true;
    return false;
}

static cudaError_t launch_kernel(struct rt_ctx *c, struct rt_kernel *k, dim3 grid, dim3 block,
                                 void **args, size_t shmem, cudaStream_t stream)
{
    cudaError_t e;

    if (c->sticky)
        return c->sticky;
    if (!k || !k->fb)
        return cudaErrorInvalidDeviceFunction;
    if (!rt_stream_valid(c, stream))
        return cudaErrorInvalidResourceHandle;
    if (!config_ok(grid, block))
        return cudaErrorInvalidConfiguration;
    if (shmem > RT_SHARED_PER_BLOCK ||
        (k->max_dyn_shared < 0 ? false : shmem > (size_t)k->max_dyn_shared))
        return cudaErrorInvalidValue;
    if ((e = rt_fatbin_load(c, k->fb)))
        return e;
    if (rt_sched_on(c) && !has_managed_vars(c)) /* timing mode: kernels of streams overlap */
        return rt_sched_kernel(c, k, grid, block, args, shmem, stream);
    if (rt_sched_on(c))
        rt_sched_drain(c); /* managed variables: one launch at a time, after the queued ones */
    return run(c, k, grid, block, args, shmem);
}

cudaError_t rt_launch(struct rt_ctx *c, struct rt_kernel *k, dim3 grid, dim3 block, void **args,
                      size_t shmem, cudaStream_t stream)
{
    return launch_kernel(c, k, grid, block, args, shmem, stream);
}

static cudaError_t launch(const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                          cudaStream_t stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e)
        e = launch_kernel(c, rt_kernel_find(c, func), grid, block, args, shmem, stream);
    return rt_unlock(c, e);
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);
    struct rt_kernel *k = e ? NULL : rt_kernel_find(c, func);

    if (!e && (!k || !kernel))
        e = kernel ? cudaErrorInvalidDeviceFunction : cudaErrorInvalidValue;
    if (!e)
        *kernel = (cudaKernel_t)k;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
    return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

RT_API cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr)
{
    return __cudaGetKernel((cudaKernel_t *)functionPtr, symbolPtr);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream)
{
    return launch(kernel, gridDim, blockDim, args, sharedMem, stream);
}

/* The _ptsz entry points (--default-stream per-thread): stream 0 is the thread's own. */
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream)
{
    return launch(kernel, gridDim, blockDim, args, sharedMem, rt_ptsz(stream));
}

RT_API cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream)
{
    return launch(func, gridDim, blockDim, args, sharedMem, stream);
}

RT_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                         size_t sharedMem, cudaStream_t stream)
{
    return launch(func, gridDim, blockDim, args, sharedMem, rt_ptsz(stream));
}

/*
 * The feature a launch attribute asks for that ptxsim refuses (a cooperative launch, clusters
 * of more than one CTA), or NULL. Other attributes (priorities, access policies, ...) change
 * no results and are ignored.
 */
static const char *refused_attr(const cudaLaunchConfig_t *config)
{
    for (unsigned i = 0; config->attrs && i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];

        if (a->id == cudaLaunchAttributeCooperative && a->val.cooperative)
            return "cooperative launch (grid-wide synchronisation)";
        if (a->id == cudaLaunchAttributeClusterDimension &&
            (uint64_t)a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z > 1)
            return "thread-block clusters";
    }
    return NULL;
}

RT_API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                       void **args)
{
    const char *refused;

    if (!config) {
        rt_set_last(cudaErrorInvalidValue);
        return cudaErrorInvalidValue;
    }
    if ((refused = refused_attr(config))) {
        fprintf(stderr,
                "ptxsim: cudaLaunchKernelExC: %s is not supported: the launch returns "
                "cudaErrorNotSupported and the program goes on\n",
                refused);
        rt_set_last(cudaErrorNotSupported);
        return cudaErrorNotSupported;
    }
    return launch(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                  config->stream);
}

RT_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                            void **args)
{
    cudaLaunchConfig_t own;

    if (!config)
        return cudaLaunchKernelExC(config, func, args);
    own = *config;
    own.stream = rt_ptsz(own.stream);
    return cudaLaunchKernelExC(&own, func, args);
}
