/*
 * Internals of the CUDA driver API (libcuda.so.1, the drv_*.c files). The
 * driver API is a second face of the same library as the runtime API: one
 * shared object, known as libcudart.so.13 and as libcuda.so.1, so both APIs
 * work on the one device, memory, module and launch layer of cudart.h, and
 * a program that mixes them (cudaMalloc, then cuLaunchKernel) sees one
 * address space. Most driver calls are the runtime's calls under another
 * name; what differs is the handles (modules, functions, contexts), the
 * CUresult codes and the error state: a driver call never changes the
 * runtime's last error (cudaGetLastError). docs/cuda-driver.md.
 */
#ifndef PTXSIM_RUNTIME_CUDA_DRV_H
#define PTXSIM_RUNTIME_CUDA_DRV_H

#include <cuda.h>

#include "runtime/cuda/cudart.h"

/* Exported unversioned-compatible (runtime/cuda/libcudart.map puts cu* in its own node). */
#define DRV_API __attribute__((visibility("default")))

/* The driver version reported by cuDriverGetVersion (CUDA 13.0). */
#define DRV_VERSION 13000

/* drv_ctx.c, the base of the driver files. */
/* The CUresult for a runtime error (most codes are equal; the rest map to their driver meaning). */
CUresult drv_result(cudaError_t e);

/*
 * DRV_RT(call): runs a runtime-API call on behalf of a driver call and
 * returns its CUresult, leaving the runtime's last error as it was.
 */
void drv_last_save(void);
CUresult drv_last_restore(cudaError_t e);
/* drv_last_restore at the end of a driver call (DRV_RT): there a thread may wait for exit. */
CUresult drv_rt_return(cudaError_t e);
#define DRV_RT(call) (drv_last_save(), drv_rt_return(call))

/*
 * The prologue of driver calls that touch the device: CUDA_ERROR_NOT_INITIALIZED
 * before cuInit (unless the runtime API started the library), CUDA_ERROR_INVALID_CONTEXT
 * when the thread's current context was destroyed; then locks the runtime
 * context. Pair with drv_leave.
 */
CUresult drv_enter(struct rt_ctx **c);
/* Unlocks c (if non-NULL) without touching the runtime's last error; returns r. */
CUresult drv_leave(struct rt_ctx *c, CUresult r);
/* Whether cuInit ran (or the runtime API started the library); cuInit marks it. */
bool drv_initialized(void);
void drv_mark_initialized(void);
/* The check of drv_enter without the lock: 0, NOT_INITIALIZED or INVALID_CONTEXT. */
CUresult drv_ready(void);
/* Whether exit() has begun: modules are then left to the library's destructor (drv_ctx.c). */
bool drv_exiting(void);
/*
 * Whether NVIDIA's runtime (the static cudart, nvcc's default link) is this driver's client:
 * it asked for its private table (drv_export.c). It takes a launch's bad configuration
 * as code 9, DRV_ERROR_INVALID_CONFIGURATION (docs/cuda-driver.md).
 */
bool drv_static_runtime(void);
#define DRV_ERROR_INVALID_CONFIGURATION ((CUresult)9)
/* Prints "ptxsim: NAME is not supported (WHY)" once per name; returns CUDA_ERROR_NOT_SUPPORTED. */
CUresult drv_unsupported(const char *name, const char *why);

/* Contexts (drv_ctx.c): the calling thread's current context (NULL: the primary one is used). */
CUcontext drv_ctx_current(void);
/* The device's primary context. */
CUcontext drv_ctx_primary(void);
/*
 * fn(ctx) is called, without locks held, when a context is destroyed or the
 * primary context reset (the private context-local storage, drv_export_cls.c,
 * runs its destructors then). One function; a later call replaces it.
 */
void drv_ctx_on_release(void (*fn)(CUcontext ctx));

/* Modules (drv_module.c): the module behind a CUmodule / CUlibrary handle, or NULL. */
struct rt_fatbin *drv_module_find(struct rt_ctx *c, const void *handle);
/* The kernel behind a CUfunction / CUkernel handle of a driver module or a registered fatbin. */
struct rt_kernel *drv_kernel_find(struct rt_ctx *c, const void *handle);
/*
 * Loads an image (PTX text, a fatbin container, a registration wrapper; a
 * cubin gets CUDA_ERROR_NO_BINARY_FOR_GPU) as a driver module; log, when
 * non-NULL, gets the error message (at most log_len bytes with the NUL).
 */
CUresult drv_module_load(struct rt_ctx *c, const void *image, size_t len, const char *name,
                         struct rt_fatbin **out, char *log, size_t log_len);

/* cuModuleLoad's file reading, then drv_module_load. */
CUresult drv_module_load_file(struct rt_ctx *c, const char *path, struct rt_fatbin **out);
/* Takes fb out of the list and frees it. */
void drv_module_unlink(struct rt_ctx *c, struct rt_fatbin *fb);
/* fb's kernel called name, or NULL. */
struct rt_kernel *drv_module_kernel(struct rt_ctx *c, struct rt_fatbin *fb, const char *name);
/* A module variable's address and size (either may be NULL); loads fb if needed. */
CUresult drv_module_global(struct rt_ctx *c, struct rt_fatbin *fb, const char *name,
                           CUdeviceptr *dptr, size_t *bytes);
/* Kernels of fb in load order into fns (at most n; fns NULL: count only); returns the count. */
unsigned drv_module_kernels(struct rt_ctx *c, struct rt_fatbin *fb, void **fns, unsigned n);

/* What a cuModuleLoadDataEx / cuLinkCreate option list asks for (drv_jit.c). */
struct drv_jit {
    char *info_log, *error_log;     /* the caller's buffers, or NULL */
    size_t info_len, error_len;     /* their sizes in bytes */
    void **info_slot, **error_slot; /* the size options' value slots: the bytes written go back */
    void **wall_slot;               /* CU_JIT_WALL_TIME's slot (a float goes back) */
};
/* Reads the options; unknown ones are ignored (they tune code generation, which ptxsim has none
 * of). */
void drv_jit_parse(struct drv_jit *j, unsigned n, const CUjit_option *opt, void **val);
/* Reports the result to the caller's buffers: msg into the error log (or "" on success). */
void drv_jit_finish(const struct drv_jit *j, const char *msg);

#endif
