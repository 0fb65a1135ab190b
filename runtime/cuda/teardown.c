/*
 * Tearing the runtime down: cudaDeviceReset (and limit changes, and the
 * driver API's primary-context reset) recreate the device, and the library
 * destructor frees everything at exit. Each part of the runtime that holds
 * device state contributes one release step to the table below, which is
 * applied in order; the parts (register.c, memory.c, stream.c, array.c,
 * texture.c) call down into context.c for the lock, and only this file calls
 * back up into them, so context.c depends on none of them.
 */
#include <stdlib.h>

#include "runtime/cuda/cudart.h"
#include "runtime/cuda/sched.h"

/* One part's release step, for a device reset and for exit. NULL: nothing to do then. */
struct rt_teardown_step {
    void (*reset)(struct rt_ctx *c);
    void (*fini)(struct rt_ctx *c);
};

static void host_keep_vars(struct rt_ctx *c)
{
    rt_host_release_all(c, true); /* managed variables keep their host copies */
}

static void host_all(struct rt_ctx *c)
{
    rt_host_release_all(c, false);
}

/* In order: modules first (they may own host copies), then memory, arrays and the objects over
 * them. */
static const struct rt_teardown_step steps[] = {
    {rt_sched_release, rt_sched_release}, /* queued work completes on the old device */
    {rt_fatbin_unload_all, rt_registry_free},
    {host_keep_vars, host_all},
    {NULL, rt_streams_release},
    {rt_arrays_release, rt_arrays_release},
    {rt_texobjs_release, rt_texobjs_release},
};

cudaError_t rt_device_recreate(struct rt_ctx *c)
{
    struct ptxsim_options o = c->opts;

    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
        if (steps[i].reset)
            steps[i].reset(c);
    ptxsim_device_destroy(c->dev);
    c->dev = NULL;
    c->dev_used = false;
    c->dev_bytes = 0;
    c->sticky = cudaSuccess;
    if (c->limit_stack > o.local_per_thread)
        o.local_per_thread = (uint32_t)c->limit_stack;
    if (c->limit_heap > o.heap_bytes)
        o.heap_bytes = c->limit_heap;
    if (ptxsim_device_create(&o, &c->dev)) {
        c->init_err = cudaErrorDevicesUnavailable; /* no device any more: every call fails */
        return c->init_err;
    }
    c->opts = o;
    return rt_host_remap(c);
}

/*
 * At exit (after the program's atexit handlers, which unregister its
 * fatbins): write the statistics, then release the device. Later calls get
 * cudaErrorCudartUnloading.
 */
__attribute__((destructor)) static void ctx_fini(void)
{
    struct rt_ctx *c = rt_ctx_for_fini();

    if (!c)
        return;
    if (!c->init_err) {
        rt_sched_drain(c); /* work the program never waited for */
        rt_stats_write(c);
    }
    c->unloading = true;
    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
        if (steps[i].fini)
            steps[i].fini(c);
    ptxsim_device_destroy(c->dev);
    c->dev = NULL;
    rt_warned_free(c);
    free(c->kstats);
    c->kstats = NULL;
    c->nkstats = c->cap_kstats = 0;
    free(c->stats_path);
    c->stats_path = NULL;
    ps_config_free(&c->cfg);
    pthread_mutex_unlock(&c->lock);
}
