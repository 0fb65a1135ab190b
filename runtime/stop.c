/*
 * Honest stops on SIGINT and SIGTERM, shared by the CUDA runtime and the
 * OpenCL platform (stop.h). Handlers are installed only where the program
 * has none of its own. A signal that arrives during a launch sets the
 * engine's stop flag: the launch stops at its next check (a few thousand
 * instructions or one cycle later), and when it has returned the runtime's
 * writer puts out the statistics gathered so far, marked truncated with the
 * reason, and the process dies of the same signal, so the shell sees the
 * conventional status 128+signo. A signal that arrives while the program
 * runs host code writes the statistics from the handler itself (the
 * runtime's locks are not taken: the signal may have interrupted a runtime
 * call, and the writer only reads the launch list).
 */
#include "runtime/stop.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile int g_stop_sig; /* the signal that asked to stop, 0 = none */
static volatile sig_atomic_t g_in_launch;
static void (*g_write)(const char *reason);

static const char *sig_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

/* Writes the truncated statistics and dies of sig with its default action. */
static void die_of(int sig)
{
    char reason[64];

    snprintf(reason, sizeof(reason), "%s received", sig_name(sig));
    if (g_write)
        g_write(reason);
    g_write = NULL;
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_signal(int sig)
{
    g_stop_sig = sig;
    if (!g_in_launch)
        die_of(sig);
    /* else the launch stops at its next check and ptxsim_stop_after_launch finishes */
}

static void install(int sig)
{
    struct sigaction old, sa;

    if (sigaction(sig, NULL, &old) || old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
        return; /* the program handles (or ignores) the signal itself */
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

const volatile int *ptxsim_stop_install(void (*write_truncated)(const char *reason))
{
    g_write = write_truncated;
    install(SIGINT);
    install(SIGTERM);
    return &g_stop_sig;
}

void ptxsim_stop_before_launch(void)
{
    g_in_launch = 1;
}

void ptxsim_stop_after_launch(void)
{
    g_in_launch = 0;
    if (g_stop_sig)
        die_of(g_stop_sig);
}
