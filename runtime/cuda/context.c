/*
 * The process-wide runtime context: created on first use (usually by the
 * program's static constructors calling __cudaRegisterFatBinary), configured
 * from the PTXSIM_* environment that `ptxsim run` sets, and torn down by the
 * library destructor after the statistics file is written (teardown.c, which
 * alone knows the parts that hold device state; this file calls none of them).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime/cuda/cudart.h"
#include "runtime/cuda/stubs.h"

#define RT_HOST_BASE UINT64_C(0x200000000000)
/* How long exit waits for an abandoned launch to let go of the runtime. */
#define RT_EXIT_WAIT_S 5

static struct rt_ctx *g_ctx;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static _Thread_local struct rt_thread g_thread;

struct rt_thread *rt_thread(void)
{
    return &g_thread;
}

void rt_set_last(cudaError_t e)
{
    if (e != cudaSuccess)
        g_thread.last = e;
}

static cudaError_t env_fail(const char *var, const char *val, const char *why)
{
    fprintf(stderr, "ptxsim: %s=%s: %s\n", var, val, why);
    return cudaErrorInitializationError;
}

/* PTXSIM_MODE, PTXSIM_CONFIG, PTXSIM_OPTIONS, PTXSIM_BUDGET (docs/cuda-runtime.md). */
static cudaError_t read_env(struct rt_ctx *c)
{
    const char *mode = getenv("PTXSIM_MODE"), *cfg = getenv("PTXSIM_CONFIG");
    const char *budget = getenv("PTXSIM_BUDGET"), *stats = getenv("PTXSIM_STATS");
    const char *opts = getenv("PTXSIM_OPTIONS");
    char *end;

    if (!cfg || !*cfg) {
        cfg = ptxsim_config_default();
        if (strcmp(cfg, "gtx480"))
            fprintf(stderr, "ptxsim: using ./%s from the working directory\n", cfg);
    }
    if (ptxsim_config_build(cfg, opts, &c->cfg, &c->cfg_err)) {
        /* As GPGPU-Sim does: a machine that cannot be built stops the program, with status 2,
           before it computes anything (this runs when its first fatbin registers). */
        ptxsim_config_perror("ptxsim", &c->cfg_err, stderr);
        fflush(NULL);
        _exit(2);
    }
    c->opts.memcheck = c->cfg.ptxsim_memcheck;
    /* Both modes simulate the configured machine's SM count (%nsmid, device properties). */
    c->opts.nsm = (uint32_t)(c->cfg.gpgpu_n_clusters * c->cfg.gpgpu_n_cores_per_cluster);
    if (mode && *mode && strcmp(mode, "functional") && strcmp(mode, "timing"))
        return env_fail("PTXSIM_MODE", mode, "unknown mode (functional or timing)");
    /* Without PTXSIM_MODE the configuration decides, as -gpgpu_ptx_sim_mode does in GPGPU-Sim. */
    c->timing = mode && *mode ? !strcmp(mode, "timing") : c->cfg.gpgpu_ptx_sim_mode == 0;
    if (c->timing) {
        c->opts.timing = &c->cfg;
        c->opts.timing_err = &c->cfg_err;
    } else if (c->cfg.gpgpu_max_insn > 0) {
        c->opts.max_thread_insts = (uint64_t)c->cfg.gpgpu_max_insn; /* the timing model's own */
    }
    if (budget && *budget) {
        errno = 0;
        c->opts.insn_budget = strtoull(budget, &end, 10);
        if (errno || *end || *budget == '-')
            return env_fail("PTXSIM_BUDGET", budget, "not a number of warp instructions");
    }
    c->opts.stop = rt_stop_install(c);
    if (stats && *stats && !(c->stats_path = strdup(stats)))
        return cudaErrorMemoryAllocation;
    return cudaSuccess;
}

static void ctx_create(void)
{
    struct rt_ctx *c = calloc(1, sizeof(*c));
    pthread_mutexattr_t a;

    if (!c)
        return;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&c->lock, &a);
    pthread_mutexattr_destroy(&a);
    ptxsim_options_default(&c->opts);
    c->opts.printf_out = stdout;
    c->host_next = (uintptr_t)RT_HOST_BASE;
    c->limit_stack = c->opts.local_per_thread;
    c->limit_heap = (size_t)c->opts.heap_bytes;
    c->limit_printf = 1 << 20;
    c->cache_config = cudaFuncCachePreferNone;
    c->next_stream_id = 1;
    c->init_err = read_env(c);
    if (!c->init_err && ptxsim_device_create(&c->opts, &c->dev)) {
        if (c->timing)
            fprintf(stderr, "ptxsim: timing model: %s\n", c->cfg_err.msg);
        c->init_err = c->timing ? cudaErrorInitializationError : cudaErrorMemoryAllocation;
    }
    g_ctx = c;
}

cudaError_t rt_lock(struct rt_ctx **out)
{
    struct rt_ctx *c;

    *out = NULL;
    pthread_once(&g_once, ctx_create);
    c = g_ctx;
    if (!c)
        return cudaErrorInitializationError;
    /* As NVIDIA's runtime makes the primary context current on a thread it runs on. */
    if (!g_thread.driver_depth)
        g_thread.runtime_bound = true;
    pthread_mutex_lock(&c->lock);
    if (c->unloading || c->init_err) {
        cudaError_t e = c->unloading ? cudaErrorCudartUnloading : c->init_err;

        pthread_mutex_unlock(&c->lock);
        return e;
    }
    *out = c;
    return cudaSuccess;
}

cudaError_t rt_unlock(struct rt_ctx *c, cudaError_t e)
{
    if (c)
        pthread_mutex_unlock(&c->lock);
    rt_set_last(e);
    return e;
}

/*
 * Takes the runtime lock at exit. When another thread holds it (it is
 * running a kernel), the launch is abandoned so the process exits promptly;
 * false if the lock still cannot be had (the holder is stuck elsewhere).
 */
static bool lock_for_exit(struct rt_ctx *c)
{
    struct timespec until;

    if (!pthread_mutex_trylock(&c->lock))
        return true;
    ptxsim_abandon(c->dev);
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += RT_EXIT_WAIT_S;
    return !pthread_mutex_timedlock(&c->lock, &until);
}

cudaError_t rt_lock_for_exit(struct rt_ctx **out)
{
    struct rt_ctx *c;

    *out = NULL;
    pthread_once(&g_once, ctx_create);
    c = g_ctx;
    if (!c)
        return cudaErrorInitializationError;
    if (!lock_for_exit(c))
        return cudaErrorCudartUnloading;
    if (c->unloading || c->init_err) {
        cudaError_t e = c->unloading ? cudaErrorCudartUnloading : c->init_err;

        pthread_mutex_unlock(&c->lock);
        return e;
    }
    *out = c;
    return cudaSuccess;
}

bool rt_warned_mark(struct rt_ctx *c, const char *name)
{
    char **nw;

    for (size_t i = 0; i < c->nwarned; i++)
        if (!strcmp(c->warned[i], name))
            return false;
    nw = realloc(c->warned, (c->nwarned + 1) * sizeof(*nw));
    if (!nw)
        return true;
    c->warned = nw;
    c->warned[c->nwarned] = strdup(name);
    if (c->warned[c->nwarned])
        c->nwarned++;
    return true;
}

void rt_warn_unsupported(struct rt_ctx *c, const char *name)
{
    const char *feature;

    if (!rt_warned_mark(c, name))
        return;
    feature = rt_feature_of(name);
    fprintf(stderr,
            "ptxsim: %s is not supported%s%s%s: it returns cudaErrorNotSupported and the "
            "program goes on\n",
            name, feature ? " (" : "", feature ? feature : "", feature ? ")" : "");
}

int rt_unsupported(const char *name)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e) {
        rt_warn_unsupported(c, name);
        e = cudaErrorNotSupported;
    }
    return (int)rt_unlock(c, e);
}

void rt_account_copy(struct rt_ctx *c, size_t n)
{
    c->sim_ns += (double)n / RT_MEM_BYTES_PER_NS;
    c->copy_bytes += n;
}

/*
 * The exit path's view of the context (teardown.c): NULL when it was never
 * created, else locked as rt_lock_for_exit does, but even after a failed start
 * (init_err) so that what was set up can still be freed.
 */
struct rt_ctx *rt_ctx_for_fini(void)
{
    struct rt_ctx *c = g_ctx;

    return c && lock_for_exit(c) ? c : NULL;
}

bool rt_ctx_started(void)
{
    return g_ctx != NULL;
}

void rt_warned_free(struct rt_ctx *c)
{
    for (size_t i = 0; i < c->nwarned; i++)
        free(c->warned[i]);
    free(c->warned);
    c->warned = NULL;
    c->nwarned = 0;
}
