/*
 * Errors: the name and a message for every cudaError_t value, the
 * per-thread last error, and the translation of engine faults into CUDA's
 * sticky launch errors. The messages are ptxsim's own wording.
 */
#include <stdio.h>
#include <string.h>

#include "common/err.h"
#include "runtime/cuda/cudart.h"

struct rt_errinfo {
    cudaError_t code;
    const char *name;
    const char *msg;
};

#define E(code, msg) {code, #code, msg}
static const struct rt_errinfo errors[] = {
    E(cudaSuccess, "no error"),
    E(cudaErrorInvalidValue, "an argument is invalid or out of range"),
    E(cudaErrorMemoryAllocation, "out of memory"),
    E(cudaErrorInitializationError, "the runtime could not be initialised"),
    E(cudaErrorCudartUnloading, "the runtime is shutting down"),
    E(cudaErrorProfilerDisabled, "the profiler is disabled"),
    E(cudaErrorProfilerNotInitialized, "the profiler is not initialised"),
    E(cudaErrorProfilerAlreadyStarted, "the profiler was already started"),
    E(cudaErrorProfilerAlreadyStopped, "the profiler was already stopped"),
    E(cudaErrorInvalidConfiguration, "invalid launch configuration (grid or block dimensions)"),
    E(cudaErrorInvalidPitchValue, "a pitch is smaller than the row width or too large"),
    E(cudaErrorInvalidSymbol, "the symbol is not a registered device variable"),
    E(cudaErrorInvalidHostPointer, "invalid host pointer"),
    E(cudaErrorInvalidDevicePointer, "invalid device pointer"),
    E(cudaErrorInvalidTexture, "invalid texture"),
    E(cudaErrorInvalidTextureBinding, "invalid texture binding"),
    E(cudaErrorInvalidChannelDescriptor, "invalid channel descriptor"),
    E(cudaErrorInvalidMemcpyDirection, "invalid copy direction (cudaMemcpyKind)"),
    E(cudaErrorAddressOfConstant, "the address of a constant variable was taken"),
    E(cudaErrorTextureFetchFailed, "texture fetch failed"),
    E(cudaErrorTextureNotBound, "texture not bound"),
    E(cudaErrorSynchronizationError, "synchronisation failed"),
    E(cudaErrorInvalidFilterSetting, "invalid texture filter setting"),
    E(cudaErrorInvalidNormSetting, "invalid texture normalisation setting"),
    E(cudaErrorMixedDeviceExecution, "mixed device execution"),
    E(cudaErrorNotYetImplemented, "not yet implemented"),
    E(cudaErrorMemoryValueTooLarge, "a memory value is too large"),
    E(cudaErrorStubLibrary, "the CUDA driver is a stub library"),
    E(cudaErrorInsufficientDriver, "the CUDA driver is older than the runtime"),
    E(cudaErrorCallRequiresNewerDriver, "the call needs a newer CUDA driver"),
    E(cudaErrorInvalidSurface, "invalid surface"),
    E(cudaErrorDuplicateVariableName, "two device variables have the same name"),
    E(cudaErrorDuplicateTextureName, "two textures have the same name"),
    E(cudaErrorDuplicateSurfaceName, "two surfaces have the same name"),
    E(cudaErrorDevicesUnavailable, "the device is unavailable"),
    E(cudaErrorIncompatibleDriverContext, "the driver context is incompatible with the runtime"),
    E(cudaErrorMissingConfiguration, "a kernel was called without a launch configuration"),
    E(cudaErrorPriorLaunchFailure, "an earlier launch failed"),
    E(cudaErrorLaunchMaxDepthExceeded, "device-side launches nest too deeply"),
    E(cudaErrorLaunchFileScopedTex, "file-scoped texture in a device-side launch"),
    E(cudaErrorLaunchFileScopedSurf, "file-scoped surface in a device-side launch"),
    E(cudaErrorSyncDepthExceeded, "device-side synchronisation nests too deeply"),
    E(cudaErrorLaunchPendingCountExceeded, "too many pending device-side launches"),
    E(cudaErrorInvalidDeviceFunction, "the function is not a registered kernel"),
    E(cudaErrorNoDevice, "no CUDA device"),
    E(cudaErrorInvalidDevice, "invalid device ordinal (ptxsim has one device, 0)"),
    E(cudaErrorDeviceNotLicensed, "the device is not licensed"),
    E(cudaErrorSoftwareValidityNotEstablished, "software validity not established"),
    E(cudaErrorStartupFailure, "runtime start-up failed"),
    E(cudaErrorInvalidKernelImage, "the device code (PTX) could not be loaded"),
    E(cudaErrorDeviceUninitialized, "the device context is not initialised"),
    E(cudaErrorMapBufferObjectFailed, "mapping a buffer object failed"),
    E(cudaErrorUnmapBufferObjectFailed, "unmapping a buffer object failed"),
    E(cudaErrorArrayIsMapped, "the array is mapped"),
    E(cudaErrorAlreadyMapped, "the resource is already mapped"),
    E(cudaErrorNoKernelImageForDevice, "the program carries no PTX that ptxsim can run"),
    E(cudaErrorAlreadyAcquired, "the resource was already acquired"),
    E(cudaErrorNotMapped, "the resource is not mapped"),
    E(cudaErrorNotMappedAsArray, "the resource is not mapped as an array"),
    E(cudaErrorNotMappedAsPointer, "the resource is not mapped as a pointer"),
    E(cudaErrorECCUncorrectable, "uncorrectable ECC error"),
    E(cudaErrorUnsupportedLimit, "the limit is not supported"),
    E(cudaErrorDeviceAlreadyInUse, "the device is already in use"),
    E(cudaErrorPeerAccessUnsupported, "peer access is not supported"),
    E(cudaErrorInvalidPtx, "the PTX could not be compiled"),
    E(cudaErrorInvalidGraphicsContext, "invalid graphics context"),
    E(cudaErrorNvlinkUncorrectable, "uncorrectable NVLink error"),
    E(cudaErrorJitCompilerNotFound, "PTX JIT compiler not found"),
    E(cudaErrorUnsupportedPtxVersion, "the PTX version is not supported"),
    E(cudaErrorJitCompilationDisabled, "PTX JIT compilation is disabled"),
    E(cudaErrorUnsupportedExecAffinity, "the execution affinity is not supported"),
    E(cudaErrorUnsupportedDevSideSync, "device-side synchronisation is not supported"),
    E(cudaErrorContained, "the device contained an error"),
    E(cudaErrorInvalidSource, "invalid device source"),
    E(cudaErrorFileNotFound, "file not found"),
    E(cudaErrorSharedObjectSymbolNotFound, "shared object symbol not found"),
    E(cudaErrorSharedObjectInitFailed, "shared object initialisation failed"),
    E(cudaErrorOperatingSystem, "an operating system call failed"),
    E(cudaErrorInvalidResourceHandle, "invalid handle (stream, event or similar)"),
    E(cudaErrorIllegalState, "the operation is not valid in the current state"),
    E(cudaErrorLossyQuery, "the query would lose information"),
    E(cudaErrorSymbolNotFound, "named symbol not found"),
    E(cudaErrorNotReady, "the work is not finished yet"),
    E(cudaErrorIllegalAddress, "a kernel accessed an invalid (out-of-bounds or null) address"),
    E(cudaErrorLaunchOutOfResources, "the launch needs more resources than the device has"),
    E(cudaErrorLaunchTimeout, "a kernel ran past its instruction budget (PTXSIM_BUDGET)"),
    E(cudaErrorLaunchIncompatibleTexturing, "the launch uses incompatible texturing"),
    E(cudaErrorPeerAccessAlreadyEnabled, "peer access is already enabled"),
    E(cudaErrorPeerAccessNotEnabled, "peer access is not enabled"),
    E(cudaErrorSetOnActiveProcess, "the setting cannot change once the device is active"),
    E(cudaErrorContextIsDestroyed, "the context was destroyed"),
    E(cudaErrorAssert, "a device-side assertion failed"),
    E(cudaErrorTooManyPeers, "too many peers"),
    E(cudaErrorHostMemoryAlreadyRegistered, "the host memory is already registered"),
    E(cudaErrorHostMemoryNotRegistered, "the host memory is not registered"),
    E(cudaErrorHardwareStackError, "device stack overflow or corruption"),
    E(cudaErrorIllegalInstruction, "a kernel executed an illegal instruction"),
    E(cudaErrorMisalignedAddress, "a kernel accessed a misaligned address"),
    E(cudaErrorInvalidAddressSpace, "a kernel used an address in the wrong state space"),
    E(cudaErrorInvalidPc, "a kernel jumped to an invalid program counter"),
    E(cudaErrorLaunchFailure, "a kernel failed (trap, barrier deadlock or other fault)"),
    E(cudaErrorCooperativeLaunchTooLarge, "the cooperative launch has too many blocks"),
    E(cudaErrorTensorMemoryLeak, "tensor memory was not freed"),
    E(cudaErrorNotPermitted, "the operation is not permitted"),
    E(cudaErrorNotSupported, "the operation is not supported by ptxsim"),
    E(cudaErrorSystemNotReady, "the system is not ready"),
    E(cudaErrorSystemDriverMismatch, "driver and kernel module versions differ"),
    E(cudaErrorCompatNotSupportedOnDevice, "forward compatibility is not supported on the device"),
    E(cudaErrorMpsConnectionFailed, "cannot connect to the MPS server"),
    E(cudaErrorMpsRpcFailure, "the MPS remote call failed"),
    E(cudaErrorMpsServerNotReady, "the MPS server is not ready"),
    E(cudaErrorMpsMaxClientsReached, "the MPS server has too many clients"),
    E(cudaErrorMpsMaxConnectionsReached, "the MPS server has too many connections"),
    E(cudaErrorMpsClientTerminated, "the MPS client was terminated"),
    E(cudaErrorCdpNotSupported, "dynamic parallelism is not supported"),
    E(cudaErrorCdpVersionMismatch, "dynamic parallelism version mismatch"),
    E(cudaErrorStreamCaptureUnsupported, "the operation is not allowed while capturing"),
    E(cudaErrorStreamCaptureInvalidated, "the stream capture was invalidated"),
    E(cudaErrorStreamCaptureMerge, "stream captures would merge"),
    E(cudaErrorStreamCaptureUnmatched, "the capture was not begun in this stream"),
    E(cudaErrorStreamCaptureUnjoined, "a forked capture was not joined"),
    E(cudaErrorStreamCaptureIsolation, "the dependency would cross a capture boundary"),
    E(cudaErrorStreamCaptureImplicit, "implicit dependency on a capturing stream"),
    E(cudaErrorCapturedEvent, "the event was recorded in a capture"),
    E(cudaErrorStreamCaptureWrongThread, "the capture was begun on another thread"),
    E(cudaErrorTimeout, "the wait timed out"),
    E(cudaErrorGraphExecUpdateFailure, "the graph update is not allowed"),
    E(cudaErrorExternalDevice, "an external device failed"),
    E(cudaErrorInvalidClusterSize, "invalid cluster size"),
    E(cudaErrorFunctionNotLoaded, "the function is not loaded"),
    E(cudaErrorInvalidResourceType, "invalid resource type"),
    E(cudaErrorInvalidResourceConfiguration, "invalid resource configuration"),
    E(cudaErrorUnknown, "unknown error"),
};
#undef E

static const struct rt_errinfo *info_of(cudaError_t e)
{
    for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
        if (errors[i].code == e)
            return &errors[i];
    return NULL;
}

RT_API const char *cudaGetErrorName(cudaError_t error)
{
    const struct rt_errinfo *i = info_of(error);

    return i ? i->name : "cudaErrorUnknown";
}

RT_API const char *cudaGetErrorString(cudaError_t error)
{
    const struct rt_errinfo *i = info_of(error);

    return i ? i->msg : "unrecognized error code";
}

/* A sticky fault outlives cudaGetLastError, as in CUDA; anything else is cleared. */
RT_API cudaError_t cudaGetLastError(void)
{
    struct rt_thread *t = rt_thread();
    cudaError_t e = t->last;
    struct rt_ctx *c;

    t->last = cudaSuccess;
    if (!rt_lock(&c) && c->sticky)
        t->last = c->sticky;
    rt_unlock(c, cudaSuccess);
    return e;
}

RT_API cudaError_t cudaPeekAtLastError(void)
{
    return rt_thread()->last;
}

static cudaError_t fault_error(int code, const char *msg)
{
    switch (code) {
    case PS_EFAULT:
        return strstr(msg, "misaligned") ? cudaErrorMisalignedAddress : cudaErrorIllegalAddress;
    case PS_ETRAP:
        return strstr(msg, "assert") ? cudaErrorAssert : cudaErrorLaunchFailure;
    case PS_ERUNAWAY:
        return cudaErrorLaunchTimeout;
    case PS_ENOTSUP:
        return cudaErrorNotSupported;
    case PS_ENOMEM:
        return cudaErrorLaunchOutOfResources;
    default: /* PS_EDEADLOCK and anything else that stops a kernel */
        return cudaErrorLaunchFailure;
    }
}

static cudaError_t api_error(int code)
{
    switch (code) {
    case PS_ENOMEM: return cudaErrorMemoryAllocation;
    case PS_EINVAL: return cudaErrorInvalidValue;
    case PS_ENOTFOUND: return cudaErrorInvalidDeviceFunction;
    case PS_ENOTSUP: return cudaErrorNotSupported;
    default: return cudaErrorUnknown;
    }
}

cudaError_t rt_take_fault(struct rt_ctx *c, int code)
{
    const struct ps_err *err = ptxsim_last_error_info(c->dev);

    if (code == PS_ERUNAWAY && err->code == code) {
        /* A cap (or a stop signal) ended the launch: a timeout, as when a GPU's watchdog
         * kills a kernel, and the statistics are those of a truncated run. */
        rt_stop_truncated(c, "%s", err->msg);
        c->sticky = cudaErrorLaunchTimeout;
        fprintf(stderr, "ptxsim: ");
        ps_err_print(err, stderr);
        return c->sticky;
    }
    if (!err->has_fault || err->code != code) {
        fprintf(stderr, "ptxsim: launch failed: %s\n", err->msg);
        return api_error(code);
    }
    c->sticky = fault_error(code, err->msg);
    fprintf(stderr, "ptxsim: ");
    ps_err_print(err, stderr);
    return c->sticky;
}
