/*
 * Honest stops. A launch that a cap stopped (-gpgpu_max_cycle,
 * -gpgpu_max_insn, PTXSIM_BUDGET / --budget) becomes the sticky
 * cudaErrorLaunchTimeout that the program sees at its next call (see
 * error.c), and the statistics say the run was truncated and why.
 *
 * SIGINT and SIGTERM (when the program has not installed handlers of its
 * own): a signal that arrives during a launch sets the engine's stop flag,
 * the launch stops at its next check (a few thousand instructions or one
 * cycle later), and the runtime then writes the statistics gathered so far,
 * marked truncated with the signal as the reason, and dies of the same
 * signal, so the shell sees the conventional status 128+signo. A signal
 * that arrives while the program runs host code writes the statistics from
 * the handler directly (the runtime's lock is not taken: the signal may have
 * interrupted a runtime call, and the report only reads the launch list).
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "runtime/cuda/cudart.h"

static volatile int g_stop_sig; /* the signal that asked to stop, 0 = none */
static volatile sig_atomic_t g_in_launch;
static struct rt_ctx *g_stop_ctx;

static const char *sig_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

/* Writes the truncated statistics and dies of sig with its default action. */
static void die_of(int sig)
{
    struct rt_ctx *c = g_stop_ctx;

    if (c && !c->init_err) {
        rt_stop_truncated(c, "%s received", sig_name(sig));
        rt_stats_write(c);
        c->stats_path = NULL; /* written: nothing more at exit */
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_signal(int sig)
{
    g_stop_sig = sig;
    if (!g_in_launch)
        die_of(sig);
    /* else the launch stops at its next check and rt_stop_after_launch finishes the job */
}

static void install(int sig)
{
    struct sigaction old, sa;

    if (sigaction(sig, NULL, &old) || old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
        return; /* the program handles the signal itself */
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

const volatile int *rt_stop_install(struct rt_ctx *c)
{
    g_stop_ctx = c;
    install(SIGINT);
    install(SIGTERM);
    return &g_stop_sig;
}

void rt_stop_before_launch(void)
{
    g_in_launch = 1;
}

void rt_stop_after_launch(void)
{
    g_in_launch = 0;
    if (g_stop_sig)
        die_of(g_stop_sig);
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
