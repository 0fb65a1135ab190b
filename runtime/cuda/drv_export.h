/*
 * The private interface tables of cuGetExportTable (drv_export*.c,
 * docs/cuda-driver.md "Private interface tables").
 */
#ifndef PTXSIM_RUNTIME_CUDA_DRV_EXPORT_H
#define PTXSIM_RUNTIME_CUDA_DRV_EXPORT_H

#include <stdint.h>

#include "runtime/cuda/drv.h"

/* PTXSIM_DRV_TRACE=1: one line per slot call on stderr, with the caller's address. */
void drv_export_trace(const void *caller, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
#define TRACE(...) drv_export_trace(__builtin_return_address(0), __VA_ARGS__)

/* The CUDA runtime's interface table and the handshake's table (their addresses are hashed). */
const void *drv_export_cudart_table(void);
const void *drv_export_integrity_table(void);

/* c693336e: context-local storage (drv_export_cls.c); its four slots, no size slot. */
extern const void *const drv_cls_table[4];
/* Calls the destructors of ctx's stored values and forgets them (context destroyed or reset). */
void drv_cls_release(CUcontext ctx);

/* d4082055: the start-up handshake (drv_export_check.c): slots 1 and 2. */
CUresult drv_integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t result[2]);
CUresult drv_integrity_2(void);

#endif
