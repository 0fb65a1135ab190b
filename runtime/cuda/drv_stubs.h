/*
 * The driver's symbol tables, kept free of cuda.h: the entry points ptxsim
 * does not implement (drv_stubs.def, defined by drv_stubs.c; their arguments
 * are never read, see stubs.c for why that is sound) and cuGetProcAddress's
 * table of every ABI version (drv_proc.def, used by drv_proc.c). Both name
 * symbols such as cuCtxCreate_v2 that cuda.h declares differently or hides
 * behind `#define name name_vN`, so neither file includes it; the few CUDA
 * values they need are below, checked against cuda.h in drv_error.c.
 */
#ifndef PTXSIM_RUNTIME_CUDA_DRV_STUBS_H
#define PTXSIM_RUNTIME_CUDA_DRV_STUBS_H

#include <stddef.h>

struct drv_named_fn {
    const char *name;
    void *fn;
};

/* Every stub, in drv_stubs.def's order (cuGetProcAddress resolves them by name). */
extern const struct drv_named_fn drv_stub_table[];
extern const size_t drv_stub_count;

#define DRV_SUCCESS 0
#define DRV_ERROR_INVALID_VALUE 1
#define DRV_ERROR_NOT_FOUND 500
#define DRV_PROC_SUCCESS 0          /* CU_GET_PROC_ADDRESS_SUCCESS */
#define DRV_PROC_SYMBOL_NOT_FOUND 1 /* CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND */
#define DRV_PROC_VERSION_NOT_SUFFICIENT 2

/* Prints "ptxsim: NAME is not supported" once; returns CUDA_ERROR_NOT_SUPPORTED (drv_error.c). */
int drv_stub_unsupported(const char *name);
/* The same with the reason in the message. */
int drv_stub_refuse(const char *name, const char *why);

#endif
