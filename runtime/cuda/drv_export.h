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

/* The CUDA runtime's interface table (drv_export.c) and the handshake's (drv_export_check.c). */
extern const void *const drv_cudart_table[10];
extern const void *const drv_integrity_table[3];

/* c693336e: context-local storage (drv_export_cls.c); its four slots, no size slot. */
extern const void *const drv_cls_table[4];
/* Calls the destructors of ctx's stored values and forgets them (context destroyed or reset). */
void drv_cls_release(CUcontext ctx);

/* d4082055: the start-up handshake (drv_export_check.c): slot 1. */
CUresult drv_integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t result[2]);

#endif
