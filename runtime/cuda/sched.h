/*
 * Stream scheduling in timing mode (sched.c): kernel launches, event
 * records, stream waits and host callbacks queue on their streams with
 * CUDA's ordering, and kernels of different streams run side by side in the
 * timing model (up to -gpgpu_max_concurrent_kernel). Functional mode does
 * not use it: there every call runs at once, in issue order.
 *
 * Ordering kept: operations of one stream run in order; the legacy default
 * stream (NULL, cudaStreamLegacy) waits for all earlier work of blocking
 * streams and they wait for its earlier work; cudaStreamNonBlocking streams
 * do not synchronise with it; the per-thread default stream
 * (cudaStreamPerThread, and NULL in the _ptsz/_ptds entry points of
 * --default-stream per-thread programs) is a blocking stream per host
 * thread; cudaStreamWaitEvent waits for the event's latest record. Copies
 * and sets run at once after draining what they must follow (their stream;
 * for a synchronous call, everything). Synchronising calls drain what they
 * wait for.
 */
#ifndef PTXSIM_RUNTIME_CUDA_SCHED_H
#define PTXSIM_RUNTIME_CUDA_SCHED_H

#include "runtime/cuda/cudart.h"

/* Whether calls queue (timing mode with a device). */
bool rt_sched_on(struct rt_ctx *c);
/* Queues a launch of k (checked and loaded) on stream; copies the arguments. */
cudaError_t rt_sched_kernel(struct rt_ctx *c, struct rt_kernel *k, dim3 grid, dim3 block,
                            void **args, size_t shmem, cudaStream_t stream);
cudaError_t rt_sched_record(struct rt_ctx *c, struct rt_event *ev, cudaStream_t stream);
cudaError_t rt_sched_wait_event(struct rt_ctx *c, cudaStream_t stream, struct rt_event *ev);
/* A host function (fn) or stream callback (cb) queued on stream. */
cudaError_t rt_sched_host(struct rt_ctx *c, cudaStream_t stream, cudaHostFn_t fn,
                          cudaStreamCallback_t cb, void *data);
/* Runs queued work until stream's is done (the legacy stream: with what it follows). */
void rt_sched_drain_stream(struct rt_ctx *c, cudaStream_t stream);
/* Runs queued work until ev's latest record is done. */
void rt_sched_drain_event(struct rt_ctx *c, struct rt_event *ev);
/* Timing mode: the simulated clock takes the timing model's time elapsed since it last looked. */
void rt_sched_clock(struct rt_ctx *c);
/* Runs every queued operation (device synchronisation, exit). */
void rt_sched_drain(struct rt_ctx *c);
/* Forgets a destroyed stream's queue (drained first) or every queue (device reset, exit). */
void rt_sched_forget_stream(struct rt_ctx *c, cudaStream_t stream);
void rt_sched_release(struct rt_ctx *c);
/* Before an event is destroyed: its latest record completes, and is forgotten. */
void rt_sched_forget_event(struct rt_ctx *c, struct rt_event *ev);
/* Stream NULL as a _ptsz entry point means it: the calling thread's default stream. */
static inline cudaStream_t rt_ptsz(cudaStream_t s)
{
    return s ? s : cudaStreamPerThread;
}

#endif
