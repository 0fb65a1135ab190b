#include "common/log.h"

#include <stdarg.h>
#include <stdio.h>

/*
 * The one process-wide setting: a verbosity threshold chosen by the user.
 * It carries no simulation state, so determinism does not depend on it.
 */
static enum ps_log_level log_level = PS_LOG_WARN;

void ps_log_set_level(enum ps_log_level level)
{
    log_level = level;
}

int ps_log_enabled(enum ps_log_level level)
{
    return level <= log_level;
}

void ps_log(enum ps_log_level level, const char *fmt, ...)
{
    static const char *const names[] = {"error", "warning", "info", "debug"};
    va_list ap;

    if (level > log_level)
        return;
    fprintf(stderr, "ptxsim: %s: ", names[level]);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
