/*
 * cuGetExportTable: the private interface tables NVIDIA's libraries ask the
 * driver for by UUID. CUDA 13's static runtime (nvcc's default link) cannot
 * start without several of them; what each slot does, as far as public notes
 * and tracing the runtime tell, is in docs/cuda-driver.md ("Private interface
 * tables"). A table is an array of pointers whose slot 0 is usually its size
 * in bytes. Slots whose use is unknown hold functions that refuse by name
 * (table and slot), so a program that reaches one says what is missing.
 * PTXSIM_DRV_TRACE=1 names every slot call.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime/cuda/drv.h"
#include "runtime/cuda/drv_export.h"
#include "runtime/cuda/drv_md2.h"
#include "runtime/cuda/drv_stubs.h"

/* Names "table slot N", once, and refuses: the slot's use is not known. */
static CUresult refuse_slot(const char *table, int slot)
{
    char name[64];

    TRACE("%s slot %d: refused", table, slot);
    snprintf(name, sizeof(name), "private table %s slot %d", table, slot);
    return drv_unsupported(name, "its use is not known");
}

#define REFUSE(tab, n)                                                                             \
    static CUresult tab##_##n(void)                                                                \
    {                                                                                              \
        return refuse_slot(#tab, n);                                                               \
    }
#define SIZE_OF(table) ((const void *)sizeof(table))

/* ---- 6bd5fb6c: the CUDA runtime's interface (module loading, the primary context) ---- */

/* Slot 1: (CUmodule *, const registration wrapper *): the fatbin nvcc embedded, as a module. */
static CUresult cudart_load(CUmodule *module, const void *wrapper)
{
    TRACE("cudart slot 1 (module %p, wrapper %p)", (void *)module, wrapper);
    return cuModuleLoadData(module, wrapper);
}

/* Slot 2: (CUcontext *, CUdevice): the device's primary context, without a reference. */
static CUresult cudart_primary(CUcontext *pctx, CUdevice dev)
{
    TRACE("cudart slot 2 (ctx %p, device %d)", (void *)pctx, dev);
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *pctx = drv_ctx_primary();
    return CUDA_SUCCESS;
}

/*
 * Slots 6 and 8: the same load with three more arguments (two pointers and a
 * flag word, zero in every call seen); 6 takes (CUmodule *, wrapper), 8 takes
 * (fatbin, CUmodule *). Arguments that are not zero have a meaning ptxsim
 * does not know, so they are refused.
 */
static CUresult cudart_load_ext(CUmodule *module, const void *wrapper, void *a3, void *a4,
                                unsigned a5)
{
    TRACE("cudart slot 6 (module %p, wrapper %p, %p, %p, %u)", (void *)module, wrapper, a3, a4, a5);
    if (a3 || a4 || a5)
        return drv_unsupported("private table cudart slot 6 with extra arguments",
                               "their meaning is not known");
    return cuModuleLoadData(module, wrapper);
}

static CUresult cudart_load_fatbin(const void *fatbin, CUmodule *module, void *a3, void *a4,
                                   unsigned a5)
{
    TRACE("cudart slot 8 (fatbin %p, module %p, %p, %p, %u)", fatbin, (void *)module, a3, a4, a5);
    if (a3 || a4 || a5)
        return drv_unsupported("private table cudart slot 8 with extra arguments",
                               "their meaning is not known");
    return cuModuleLoadData(module, fatbin);
}

/* Slot 7: one word, called at start-up; nothing for ptxsim to do. */
static CUresult cudart_7(uintptr_t word)
{
    TRACE("cudart slot 7 (%#lx)", (unsigned long)word);
    return CUDA_SUCCESS;
}

REFUSE(cudart, 3)
REFUSE(cudart, 4)
REFUSE(cudart, 5)
REFUSE(cudart, 9)

const void *const drv_cudart_table[10] = {
    (const void *)sizeof(drv_cudart_table),
    (const void *)cudart_load,
    (const void *)cudart_primary,
    (const void *)cudart_3,
    (const void *)cudart_4,
    (const void *)cudart_5,
    (const void *)cudart_load_ext,
    (const void *)cudart_7,
    (const void *)cudart_load_fatbin,
    (const void *)cudart_9,
};

/* ---- a094798c: the tools' runtime callback hooks: two buffers, zero (no tool attached) ---- */

static uint32_t g_hooks1[1024], g_hooks2[14];

static void hooks_2(void **buf, size_t *size)
{
    TRACE("hooks slot 2 (%p, %p)", (void *)buf, (void *)size);
    *buf = g_hooks1;
    *size = sizeof(g_hooks1);
}

static void hooks_6(void **buf, size_t *size)
{
    TRACE("hooks slot 6 (%p, %p)", (void *)buf, (void *)size);
    *buf = g_hooks2;
    *size = sizeof(g_hooks2);
}

REFUSE(hooks, 1)
REFUSE(hooks, 3)
REFUSE(hooks, 4)
REFUSE(hooks, 5)

static const void *const g_hooks[7] = {
    SIZE_OF(g_hooks), (void *)hooks_1, (void *)hooks_2, (void *)hooks_3,
    (void *)hooks_4,  (void *)hooks_5, (void *)hooks_6,
};

/* ---- 42d85a81: the tools' thread-local storage: only the size is ever read ---- */

REFUSE(tools_tls, 1)
REFUSE(tools_tls, 2)
REFUSE(tools_tls, 3)

static const void *const g_tools_tls[4] = {SIZE_OF(g_tools_tls), (void *)tools_tls_1,
                                           (void *)tools_tls_2, (void *)tools_tls_3};

/* ---- 263e8860: context checks: no context here has the conditions they look for ---- */

static CUresult checks_2(CUcontext ctx, uint32_t *flags, const void **extra)
{
    TRACE("checks slot 2 (ctx %p, %p, %p)", (void *)ctx, (void *)flags, (void *)extra);
    (void)extra;
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    *flags = 0;
    return CUDA_SUCCESS;
}

static uint32_t checks_3(void)
{
    TRACE("checks slot 3 ()");
    return 0;
}

REFUSE(checks, 1)

static const void *const g_checks[4] = {SIZE_OF(g_checks), (void *)checks_1, (void *)checks_2,
                                        (void *)checks_3};

static _Atomic bool g_static_runtime;

bool drv_static_runtime(void)
{
    return g_static_runtime;
}

struct drv_export_table {
    const char *prefix; /* the UUID's bytes in hex, enough of them to tell tables apart */
    const void *const *table;
};

static const struct drv_export_table g_tables[] = {
    {"6bd5fb6c5bf4e74a8987d93912fd9df9", drv_cudart_table},
    {"a094798c2e742e7493f20800200c0a66", g_hooks},
    {"42d85a8123f6cb478298f6e78a3aecdc", g_tools_tls},
    {"c693336e1121df11a8c368f355d89593", drv_cls_table},
    {"263e88607cd2614392f6bbd5006dfa7e", g_checks},
    {"d4082055bde6704b8d34ba123c66e1f2", drv_integrity_table},
};

/* Tables NVIDIA's libraries ask for that a driver may refuse (their callers go on without). */
static const struct {
    const char *prefix;
    const char *what;
} g_refused[] = {
    {"f8cff951", NULL}, /* the static runtime's probe for another start-up path */
    {"da9151d3", "asked by NVRTC and nvJitLink, which work without it"},
};

DRV_API CUresult cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
    char name[80], hex[33];

    if (!ppExportTable || !pExportTableId)
        return CUDA_ERROR_INVALID_VALUE;
    for (int i = 0; i < 16; i++)
        snprintf(hex + 2 * i, sizeof(hex) - 2 * (size_t)i, "%02x",
                 (unsigned char)pExportTableId->bytes[i]);
    *ppExportTable = NULL;
    for (size_t i = 0; i < sizeof(g_tables) / sizeof(g_tables[0]); i++)
        if (!strcmp(hex, g_tables[i].prefix)) {
            if (g_tables[i].table == drv_cudart_table)
                g_static_runtime = true;
            if (g_tables[i].table == drv_cls_table) /* its destructors run with contexts */
                drv_ctx_on_release(drv_cls_release);
            *ppExportTable = g_tables[i].table;
            TRACE("cuGetExportTable(%s): %p", hex, *ppExportTable);
            return CUDA_SUCCESS;
        }
    TRACE("cuGetExportTable(%s): refused", hex);
    snprintf(name, sizeof(name), "cuGetExportTable(%s)", hex);
    for (size_t i = 0; i < sizeof(g_refused) / sizeof(g_refused[0]); i++)
        if (!strncmp(hex, g_refused[i].prefix, strlen(g_refused[i].prefix)))
            return g_refused[i].what ? drv_stub_refuse(name, g_refused[i].what)
                                     : CUDA_ERROR_NOT_SUPPORTED;
    return drv_stub_refuse(name, "a private interface table of NVIDIA's libraries");
}
