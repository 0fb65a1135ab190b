/* PTXSIM_DRV_TRACE's lines for the private tables' slot calls (drv_export*.c). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cuda/drv_export.h"

void drv_export_trace(const void *caller, const char *fmt, ...)
{
    const char *t = getenv("PTXSIM_DRV_TRACE");
    va_list ap;

    if (!t || !*t || !strcmp(t, "0"))
        return;
    fprintf(stderr, "ptxsim: trace: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " [called from %p]\n", caller);
}
