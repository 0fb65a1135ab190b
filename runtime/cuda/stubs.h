/*
 * The unimplemented entry points (stubs.def) share one body: report the
 * name once on stderr and fail with cudaErrorNotSupported. stubs.c defines
 * them without the toolkit's prototypes (their arguments are never read),
 * so this header stays free of cuda_runtime_api.h.
 */
#ifndef PTXSIM_RUNTIME_CUDA_STUBS_H
#define PTXSIM_RUNTIME_CUDA_STUBS_H

/* Prints "ptxsim: NAME is not supported" once and returns cudaErrorNotSupported (as int). */
int rt_unsupported(const char *name);

/* The feature a refused entry point belongs to ("CUDA graphs", ...), or NULL (features.c). */
const char *rt_feature_of(const char *name);

#endif
