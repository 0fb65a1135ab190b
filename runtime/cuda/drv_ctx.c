/*
 * Driver API contexts, and the state every driver call starts from: whether
 * cuInit ran, the calling thread's current context, the prologue of calls
 * that touch the device (drv_enter), CUresult codes and refusals. The other
 * drv_*.c files build on this one and it on none of them.
 *
 * Contexts. ptxsim has one device and one address space, so every
 * context, the primary one and those cuCtxCreate makes, is a view of the same
 * runtime state (memory, streams and events are shared; docs/cuda-driver.md).
 * What a context owns is its modules, unloaded when it is destroyed, and its
 * flags. Each host thread has a stack of current contexts; a thread with none
 * uses the primary context, as the runtime API does, and a thread where the
 * runtime API ran has the primary context current (cuCtxGetCurrent says so).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "runtime/cuda/drv.h"

#include <cudaProfiler.h> /* cuProfilerStart/Stop: their prototypes */

#define DRV_CTX_MAGIC 0x70637478u /* "pctx" */
#define DRV_CTX_DEPTH 32
/* The ABI version contexts report (cuCtxGetApiVersion): the v2 driver API. */
#define DRV_CTX_API 3020

struct CUctx_st {
    uint32_t magic;
    bool primary, destroyed;
    unsigned flags;
    unsigned long long id;
    struct CUctx_st *next; /* created contexts (destroyed ones stay listed: handles may linger) */
};

static struct CUctx_st g_primary = {DRV_CTX_MAGIC, true, false, 0, 1, NULL};
static unsigned g_primary_refs;
static struct CUctx_st *g_created;
static unsigned long long g_next_id = 2;
static _Thread_local CUcontext g_stack[DRV_CTX_DEPTH];
static _Thread_local unsigned g_depth;

static int g_init; /* cuInit ran (atomic) */

bool drv_initialized(void)
{
    return __atomic_load_n(&g_init, __ATOMIC_ACQUIRE) || rt_ctx_started();
}

void drv_mark_initialized(void)
{
    __atomic_store_n(&g_init, 1, __ATOMIC_RELEASE);
}

static _Thread_local cudaError_t g_saved_last;

void drv_last_save(void)
{
    g_saved_last = rt_thread()->last;
    rt_thread()->driver_depth++;
}

/*
 * Set once exit() has begun (an exit handler registered when the library
 * loads). A statically linked CUDA runtime unloads its modules from its own
 * exit handler; if another thread is running a kernel then, the driver call
 * takes the lock as the runtime's exit path does (the launch is abandoned),
 * so the process ends instead of waiting for the kernel. The thread whose
 * launch was abandoned, and any other thread that calls the driver while the
 * process exits, never returns into the runtime, whose state the exit
 * handlers are freeing: it waits there until the process ends, as a thread
 * blocked in a real driver does.
 */
static _Atomic bool g_exiting;
static pthread_t g_exit_thread;

static void mark_exiting(void)
{
    g_exit_thread = pthread_self();
    g_exiting = true;
}

/* How many drv_enter locks the calling thread holds: it parks only when it holds none. */
static _Thread_local int t_held;

static void park_if_exiting(void)
{
    if (g_exiting && t_held <= 0 && !pthread_equal(pthread_self(), g_exit_thread))
        for (;;)
            pause();
}

__attribute__((constructor)) static void watch_exit(void)
{
    atexit(mark_exiting);
}

bool drv_exiting(void)
{
    return g_exiting;
}

CUresult drv_last_restore(cudaError_t e)
{
    rt_thread()->last = g_saved_last;
    rt_thread()->driver_depth--;
    return drv_result(e);
}

CUresult drv_rt_return(cudaError_t e)
{
    CUresult r = drv_last_restore(e);

    park_if_exiting();
    return r;
}

CUresult drv_result(cudaError_t e)
{
    switch (e) {
    case cudaSuccess:
        return CUDA_SUCCESS;
    case cudaErrorMemoryAllocation:
        return CUDA_ERROR_OUT_OF_MEMORY;
    case cudaErrorInitializationError:
        return CUDA_ERROR_NOT_INITIALIZED;
    case cudaErrorCudartUnloading:
        return CUDA_ERROR_DEINITIALIZED;
    case cudaErrorInvalidSymbol:
        return CUDA_ERROR_NOT_FOUND;
    case cudaErrorInvalidDeviceFunction:
        return CUDA_ERROR_INVALID_HANDLE;
    case cudaErrorDevicesUnavailable:
        return CUDA_ERROR_DEVICE_UNAVAILABLE;
    case cudaErrorMissingConfiguration:
    case cudaErrorInvalidConfiguration:
    case cudaErrorInvalidPitchValue:
    case cudaErrorInvalidDevicePointer:
    case cudaErrorInvalidMemcpyDirection:
    case cudaErrorInvalidValue:
        return CUDA_ERROR_INVALID_VALUE;
    default:
        /* From 100 on, the runtime's codes are the driver's (cudaErrorIllegalAddress = 700, ...).
         */
        return (int)e >= 100 ? (CUresult)e : CUDA_ERROR_UNKNOWN;
    }
}

CUresult drv_enter(struct rt_ctx **c)
{
    CUresult r = drv_ready();

    *c = NULL;
    if (r)
        return r;
    drv_last_save();
    r = drv_last_restore(g_exiting ? rt_lock_for_exit(c) : rt_lock(c));
    if (*c)
        t_held++;
    return r;
}

CUresult drv_leave(struct rt_ctx *c, CUresult r)
{
    if (c) {
        pthread_mutex_unlock(&c->lock);
        if (t_held > 0) /* not so for the few calls that lock with rt_lock themselves */
            t_held--;
    }
    park_if_exiting();
    return r;
}

CUresult drv_unsupported(const char *name, const char *why)
{
    struct rt_ctx *c;

    drv_last_save();
    if (rt_lock(&c) == cudaSuccess) {
        if (rt_warned_mark(c, name))
            fprintf(stderr,
                    "ptxsim: %s is not supported%s%s%s: it returns CUDA_ERROR_NOT_SUPPORTED and "
                    "the program goes on\n",
                    name, why ? " (" : "", why ? why : "", why ? ")" : "");
        pthread_mutex_unlock(&c->lock);
    }
    drv_last_restore(cudaSuccess);
    return CUDA_ERROR_NOT_SUPPORTED;
}

/* The modules of a context being destroyed go with it (libraries belong to no context). */
static void release_modules(struct rt_ctx *c, CUcontext owner)
{
    for (struct rt_fatbin **pf = &c->fatbins; *pf;) {
        struct rt_fatbin *fb = *pf;

        if (fb->driver && fb->owner == owner) {
            *pf = fb->next;
            rt_fatbin_destroy(c, fb);
        } else {
            pf = &fb->next;
        }
    }
}

/* A thread where the runtime API ran has the primary context current, as in CUDA. */
CUcontext drv_ctx_current(void)
{
    if (g_depth)
        return g_stack[g_depth - 1];
    return rt_thread()->runtime_bound ? &g_primary : NULL;
}

CUcontext drv_ctx_primary(void)
{
    return &g_primary;
}

/* Who is told that a context's state goes (drv_ctx_on_release); NULL: nobody. */
static void (*_Atomic g_release)(CUcontext ctx);

void drv_ctx_on_release(void (*fn)(CUcontext ctx))
{
    g_release = fn;
}

static void release_hook(CUcontext ctx)
{
    void (*fn)(CUcontext) = g_release;

    if (fn)
        fn(ctx);
}

CUresult drv_ready(void)
{
    CUcontext cur = drv_ctx_current();

    if (!drv_initialized())
        return CUDA_ERROR_NOT_INITIALIZED;
    return cur && cur->destroyed ? CUDA_ERROR_CONTEXT_IS_DESTROYED : CUDA_SUCCESS;
}

/* Whether h is a live context (the caller holds the runtime lock). */
static bool ctx_valid(CUcontext h)
{
    if (h == &g_primary)
        return true;
    for (struct CUctx_st *x = g_created; x; x = x->next)
        if (x == h)
            return !x->destroyed;
    return false;
}

static CUresult ctx_create(CUcontext *pctx, unsigned flags, CUdevice dev)
{
    struct rt_ctx *c;
    CUresult r = drv_enter(&c);
    struct CUctx_st *x = NULL;

    if (!r && !pctx)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r && dev != 0)
        r = CUDA_ERROR_INVALID_DEVICE;
    if (!r && g_depth == DRV_CTX_DEPTH)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (!r && !(x = calloc(1, sizeof(*x))))
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (!r) {
        *x = (struct CUctx_st){DRV_CTX_MAGIC, false, false, flags, g_next_id++, g_created};
        g_created = x;
        g_stack[g_depth++] = x; /* the new context is current */
        *pctx = x;
    }
    return drv_leave(c, r);
}

/* Older ABI entry points: cuda.h declares them only for NVIDIA's own build. */
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams,
                        unsigned int flags, CUdevice dev);

DRV_API CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return ctx_create(pctx, flags, dev);
}

DRV_API CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams,
                                unsigned int flags, CUdevice dev)
{
    if (paramsArray && numParams > 0)
        return drv_unsupported("cuCtxCreate_v3", "execution affinity (SM partitions)");
    return ctx_create(pctx, flags, dev);
}

DRV_API CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
                                unsigned int flags, CUdevice dev)
{
    if (ctxCreateParams &&
        (ctxCreateParams->numExecAffinityParams > 0 || ctxCreateParams->cigParams))
        return drv_unsupported("cuCtxCreate_v4",
                               "execution affinity and CUDA in graphics contexts");
    return ctx_create(pctx, flags, dev);
}

DRV_API CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    struct rt_ctx *c;
    CUresult r = drv_initialized() ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;

    drv_last_save();
    if (!r)
        r = drv_last_restore(rt_lock(&c));
    if (r)
        return r;
    if (!ctx || ctx == &g_primary || !ctx_valid(ctx))
        return drv_leave(c, CUDA_ERROR_INVALID_CONTEXT);
    ctx->destroyed = true;
    release_modules(c, ctx);
    if (g_depth && g_stack[g_depth - 1] == ctx)
        g_depth--;
    drv_leave(c, CUDA_SUCCESS);
    release_hook(ctx); /* unlocked: the destructors may call the driver */
    return CUDA_SUCCESS;
}

DRV_API CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    struct rt_ctx *c;
    CUresult r = drv_enter(&c);

    if (!r && (!ctx || !ctx_valid(ctx)))
        r = CUDA_ERROR_INVALID_CONTEXT;
    if (!r && g_depth == DRV_CTX_DEPTH)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (!r)
        g_stack[g_depth++] = ctx;
    return drv_leave(c, r);
}

DRV_API CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
    if (!drv_initialized())
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!g_depth)
        return CUDA_ERROR_INVALID_CONTEXT;
    g_depth--;
    if (pctx)
        *pctx = g_stack[g_depth];
    return CUDA_SUCCESS;
}

/* Replaces the top of the stack; NULL unbinds the current context. */
DRV_API CUresult cuCtxSetCurrent(CUcontext ctx)
{
    struct rt_ctx *c;
    CUresult r = drv_initialized() ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;

    if (r)
        return r;
    if (!ctx) {
        if (g_depth)
            g_depth--;
        return CUDA_SUCCESS;
    }
    drv_last_save();
    r = drv_last_restore(rt_lock(&c));
    if (!r && !ctx_valid(ctx))
        r = CUDA_ERROR_INVALID_CONTEXT;
    if (!r) {
        if (!g_depth)
            g_depth = 1;
        g_stack[g_depth - 1] = ctx;
    }
    return drv_leave(c, r);
}

DRV_API CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    if (!drv_initialized())
        return CUDA_ERROR_NOT_INITIALIZED;
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    *pctx = drv_ctx_current();
    return CUDA_SUCCESS;
}

/* The calls below need a current context, as in CUDA (NULL: CUDA_ERROR_INVALID_CONTEXT). */
static CUresult current(CUcontext *out)
{
    CUresult r = drv_ready();

    *out = drv_ctx_current();
    return r ? r : *out ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

DRV_API CUresult cuCtxGetDevice(CUdevice *device)
{
    CUcontext x;
    CUresult r = current(&x);

    if (!r && !device)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        *device = 0;
    return r;
}

DRV_API CUresult cuCtxGetFlags(unsigned int *flags)
{
    CUcontext x;
    CUresult r = current(&x);

    if (!r && !flags)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        *flags = x->flags;
    return r;
}

DRV_API CUresult cuCtxSetFlags(unsigned int flags)
{
    CUcontext x;
    CUresult r = current(&x);

    if (!r)
        x->flags = flags;
    return r;
}

DRV_API CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId)
{
    CUcontext x = ctx;
    CUresult r = ctx ? drv_ready() : current(&x);

    if (!r && !ctxId)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        *ctxId = x->id;
    return r;
}

DRV_API CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    CUcontext x = ctx;
    CUresult r = ctx ? drv_ready() : current(&x);

    if (!r && !version)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        *version = DRV_CTX_API;
    return r;
}

DRV_API CUresult cuCtxSynchronize(void)
{
    CUresult r = drv_ready();

    return r ? r : DRV_RT(cudaDeviceSynchronize());
}

DRV_API CUresult cuCtxSetLimit(CUlimit limit, size_t value)
{
    CUresult r = drv_ready();

    return r ? r : DRV_RT(cudaDeviceSetLimit((enum cudaLimit)limit, value));
}

DRV_API CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
    CUresult r = drv_ready();

    return r ? r : DRV_RT(cudaDeviceGetLimit(pvalue, (enum cudaLimit)limit));
}

DRV_API CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig)
{
    CUresult r = drv_ready();

    return r ? r : DRV_RT(cudaDeviceGetCacheConfig((enum cudaFuncCache *)pconfig));
}

DRV_API CUresult cuCtxSetCacheConfig(CUfunc_cache config)
{
    CUresult r = drv_ready();

    return r ? r : DRV_RT(cudaDeviceSetCacheConfig((enum cudaFuncCache)config));
}

DRV_API CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    CUresult r = drv_ready();

    return r ? r : DRV_RT(cudaDeviceGetStreamPriorityRange(leastPriority, greatestPriority));
}

DRV_API CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    struct rt_ctx *c;
    CUresult r = drv_enter(&c);

    if (!r && !pctx)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r && dev != 0)
        r = CUDA_ERROR_INVALID_DEVICE;
    if (!r) {
        g_primary_refs++;
        *pctx = &g_primary;
    }
    return drv_leave(c, r);
}

DRV_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    struct rt_ctx *c;
    CUresult r = drv_enter(&c);

    if (!r && dev != 0)
        r = CUDA_ERROR_INVALID_DEVICE;
    if (!r && !g_primary_refs)
        r = CUDA_ERROR_INVALID_CONTEXT;
    if (!r)
        g_primary_refs--;
    return drv_leave(c, r);
}

/* Frees the device's memory and reloads modules on next use, as cudaDeviceReset does. */
DRV_API CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
    CUresult r = drv_ready();

    if (!r && dev != 0)
        r = CUDA_ERROR_INVALID_DEVICE;
    if (r)
        return r;
    release_hook(&g_primary); /* the static runtime's state for the context goes first */
    return DRV_RT(cudaDeviceReset());
}

DRV_API CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    struct rt_ctx *c;
    CUresult r = drv_enter(&c);

    if (!r && (!flags || !active))
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r && dev != 0)
        r = CUDA_ERROR_INVALID_DEVICE;
    if (!r) {
        *flags = g_primary.flags;
        *active = g_primary_refs > 0;
    }
    return drv_leave(c, r);
}

DRV_API CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
    struct rt_ctx *c;
    CUresult r = drv_enter(&c);

    if (!r && dev != 0)
        r = CUDA_ERROR_INVALID_DEVICE;
    if (!r)
        g_primary.flags = flags;
    return drv_leave(c, r);
}

/* CUDA 13's forms that name the context (NULL: the current one). */
DRV_API CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
    struct rt_ctx *c;
    CUresult r;

    if (!ctx)
        return cuCtxGetDevice(device);
    r = drv_enter(&c);
    if (!r && !ctx_valid(ctx))
        r = CUDA_ERROR_INVALID_CONTEXT;
    if (!r && !device)
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        *device = 0;
    return drv_leave(c, r);
}

DRV_API CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
    struct rt_ctx *c;
    CUresult r = drv_enter(&c);

    if (!r && ctx && !ctx_valid(ctx))
        r = CUDA_ERROR_INVALID_CONTEXT;
    drv_leave(c, r);
    return r ? r : DRV_RT(cudaDeviceSynchronize());
}

/* Profiling ranges change nothing in a simulation (the statistics cover the whole run). */
DRV_API CUresult cuProfilerStart(void)
{
    return drv_ready();
}

DRV_API CUresult cuProfilerStop(void)
{
    return drv_ready();
}
