/*
 * Driver API error names and strings (cuGetErrorName, cuGetErrorString), and
 * the refusal the unimplemented entry points share (drv_stubs.c).
 */
#include <stdio.h>
#include <string.h>

#include "runtime/cuda/drv.h"
#include "runtime/cuda/drv_stubs.h"
#include "runtime/cuda/stubs.h"

_Static_assert(DRV_SUCCESS == CUDA_SUCCESS && DRV_ERROR_INVALID_VALUE == CUDA_ERROR_INVALID_VALUE &&
                   DRV_ERROR_NOT_FOUND == CUDA_ERROR_NOT_FOUND,
               "drv_stubs.h's codes are cuda.h's");
_Static_assert(DRV_PROC_SUCCESS == CU_GET_PROC_ADDRESS_SUCCESS &&
                   DRV_PROC_SYMBOL_NOT_FOUND == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND &&
                   DRV_PROC_VERSION_NOT_SUFFICIENT == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT,
               "drv_stubs.h's cuGetProcAddress statuses are cuda.h's");

/* Our own words for each code; the names are the enumerators of cuda.h. */
#define DRV_ERRORS(X)                                                                              \
    X(CUDA_SUCCESS, "no error")                                                                    \
    X(CUDA_ERROR_INVALID_VALUE, "invalid argument")                                                \
    X(CUDA_ERROR_OUT_OF_MEMORY, "out of memory")                                                   \
    X(CUDA_ERROR_NOT_INITIALIZED, "initialization error (cuInit has not been called)")             \
    X(CUDA_ERROR_DEINITIALIZED, "driver shutting down")                                            \
    X(CUDA_ERROR_PROFILER_DISABLED, "profiler disabled")                                           \
    X(CUDA_ERROR_STUB_LIBRARY, "stub library")                                                     \
    X(CUDA_ERROR_DEVICE_UNAVAILABLE, "device unavailable")                                         \
    X(CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected")                                  \
    X(CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal")                                         \
    X(CUDA_ERROR_INVALID_IMAGE, "device kernel image is invalid")                                  \
    X(CUDA_ERROR_INVALID_CONTEXT, "invalid device context")                                        \
    X(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, "context already current")                               \
    X(CUDA_ERROR_NO_BINARY_FOR_GPU, "no kernel image is available for execution on the device")    \
    X(CUDA_ERROR_UNSUPPORTED_LIMIT, "limit is not supported")                                      \
    X(CUDA_ERROR_INVALID_PTX, "a PTX JIT compilation failed")                                      \
    X(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "the PTX version is not supported")                      \
    X(CUDA_ERROR_INVALID_SOURCE, "device kernel image is invalid")                                 \
    X(CUDA_ERROR_FILE_NOT_FOUND, "file not found")                                                 \
    X(CUDA_ERROR_OPERATING_SYSTEM, "OS call failed")                                               \
    X(CUDA_ERROR_INVALID_HANDLE, "invalid resource handle")                                        \
    X(CUDA_ERROR_ILLEGAL_STATE, "the operation is not valid in the current state")                 \
    X(CUDA_ERROR_NOT_FOUND, "named symbol not found")                                              \
    X(CUDA_ERROR_NOT_READY, "device not ready")                                                    \
    X(CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered")                      \
    X(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "too many resources requested for launch")               \
    X(CUDA_ERROR_LAUNCH_TIMEOUT, "the launch timed out and was terminated")                        \
    X(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, "the primary context is already active")                  \
    X(CUDA_ERROR_CONTEXT_IS_DESTROYED, "the context has been destroyed")                           \
    X(CUDA_ERROR_ASSERT, "device-side assert triggered")                                           \
    X(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "the host memory is already registered")          \
    X(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "the host memory is not registered")                  \
    X(CUDA_ERROR_HARDWARE_STACK_ERROR, "hardware stack error")                                     \
    X(CUDA_ERROR_ILLEGAL_INSTRUCTION, "an illegal instruction was encountered")                    \
    X(CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned address")                                         \
    X(CUDA_ERROR_INVALID_ADDRESS_SPACE, "operation not supported on the address space")            \
    X(CUDA_ERROR_INVALID_PC, "invalid program counter")                                            \
    X(CUDA_ERROR_LAUNCH_FAILED, "unspecified launch failure")                                      \
    X(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "too many blocks in a cooperative launch")          \
    X(CUDA_ERROR_NOT_PERMITTED, "operation not permitted")                                         \
    X(CUDA_ERROR_NOT_SUPPORTED, "operation not supported")                                         \
    X(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "operation not permitted when stream is capturing")   \
    X(CUDA_ERROR_TIMEOUT, "wait operation timed out")                                              \
    X(CUDA_ERROR_INVALID_CLUSTER_SIZE, "invalid cluster size")                                     \
    X(CUDA_ERROR_FUNCTION_NOT_LOADED, "function not loaded")                                       \
    X(CUDA_ERROR_UNKNOWN, "unknown error")

struct drv_errname {
    CUresult code;
    const char *name, *text;
};

#define DRV_ERR_ENTRY(code, text) {code, #code, text},
static const struct drv_errname g_errors[] = {DRV_ERRORS(DRV_ERR_ENTRY)};

/* Not in cuda.h: the code a bad launch configuration gets when NVIDIA's runtime calls (drv.h). */
static const struct drv_errname g_config_error = {DRV_ERROR_INVALID_CONFIGURATION,
                                                  "CUDA_ERROR_INVALID_CONFIGURATION",
                                                  "invalid configuration argument"};

static const struct drv_errname *find_error(CUresult e)
{
    if (e == DRV_ERROR_INVALID_CONFIGURATION)
        return &g_config_error;
    for (size_t i = 0; i < sizeof(g_errors) / sizeof(g_errors[0]); i++)
        if (g_errors[i].code == e)
            return &g_errors[i];
    return NULL;
}

/* Unknown codes: CUDA_ERROR_INVALID_VALUE and *pStr NULL, as the driver does. */
DRV_API CUresult cuGetErrorName(CUresult error, const char **pStr)
{
    const struct drv_errname *n = find_error(error);

    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    *pStr = n ? n->name : NULL;
    return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

DRV_API CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    const struct drv_errname *n = find_error(error);

    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    *pStr = n ? n->text : NULL;
    return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

int drv_stub_unsupported(const char *name)
{
    char rt[128];

    /* The runtime's name of the same call (cuGraphCreate: cudaGraphCreate) names its feature. */
    snprintf(rt, sizeof(rt), "cuda%s", name + 2);
    return (int)drv_unsupported(name, rt_feature_of(rt));
}

int drv_stub_refuse(const char *name, const char *why)
{
    return (int)drv_unsupported(name, why);
}
