/*
 * Honest stops in the CUDA runtime. A launch that a cap stopped
 * (-gpgpu_max_cycle, -gpgpu_max_insn, PTXSIM_BUDGET / --budget) becomes the
 * sticky cudaErrorLaunchTimeout that the program sees at its next call (see
 * error.c), and the statistics say the run was truncated and why. SIGINT and
 * SIGTERM go through runtime/stop.h, with the writer below.
 */
#include <stdarg.h>
#include <stdio.h>

#include "runtime/cuda/cudart.h"
#include "runtime/stop.h"

static struct rt_ctx *g_stop_ctx;

/* The statistics, marked truncated with reason; may run in a signal handler. */
static void write_truncated(const char *reason)
{
    struct rt_ctx *c = g_stop_ctx;

    if (!c || c->init_err)
        return;
    rt_stop_truncated(c, "%s", reason);
    rt_stats_write(c);
    c->stats_path = NULL; /* written: nothing more at exit */
}

const volatile int *rt_stop_install(struct rt_ctx *c)
{
    g_stop_ctx = c;
    return ptxsim_stop_install(write_truncated);
}

void rt_stop_truncated(struct rt_ctx *c, const char *fmt, ...)
{
    va_list ap;

    if (c->truncated[0])
        return; /* the first reason is the one that stopped the run */
    va_start(ap, fmt);
    vsnprintf(c->truncated, sizeof(c->truncated), fmt, ap);
    va_end(ap);
}
