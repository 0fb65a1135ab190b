/*
 * Streams and events. In functional mode work runs synchronously in issue
 * order, so a stream is a validated handle with its flags and priority,
 * synchronising is a check of the sticky fault, and host callbacks run at
 * once. In timing mode launches, event records, waits and callbacks queue on
 * their streams (sched.c) and synchronising drains what it waits for. Events
 * record the simulated clock (advanced by launches and copies), so
 * cudaEventElapsedTime reports simulated, reproducible milliseconds.
 */
#include <stdlib.h>

#include "runtime/cuda/cudart.h"
#include "runtime/cuda/sched.h"

bool rt_stream_valid(struct rt_ctx *c, cudaStream_t s)
{
    if (!s || s == cudaStreamLegacy || s == cudaStreamPerThread)
        return true;
    for (struct rt_stream *st = c->streams; st; st = st->next)
        if ((cudaStream_t)st == s)
            return true;
    return false;
}

static struct rt_event *event_of(struct rt_ctx *c, cudaEvent_t ev)
{
    for (struct rt_event *e = c->events; e; e = e->next)
        if ((cudaEvent_t)e == ev)
            return e;
    return NULL;
}

void rt_streams_release(struct rt_ctx *c)
{
    rt_sched_release(c);
    while (c->streams) {
        struct rt_stream *s = c->streams;

        c->streams = s->next;
        free(s);
    }
    while (c->events) {
        struct rt_event *e = c->events;

        c->events = e->next;
        free(e);
    }
}

static cudaError_t stream_create(cudaStream_t *ps, unsigned flags, int priority)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);
    struct rt_stream *s = NULL;

    if (!e && (!ps || flags > cudaStreamNonBlocking))
        e = cudaErrorInvalidValue;
    if (!e && !(s = calloc(1, sizeof(*s))))
        e = cudaErrorMemoryAllocation;
    if (!e) {
        s->flags = flags;
        s->priority = priority < 0 ? 0 : priority; /* one priority level: 0 */
        s->id = ++c->next_stream_id;
        s->next = c->streams;
        c->streams = s;
        *ps = (cudaStream_t)s;
    }
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    return stream_create(pStream, cudaStreamDefault, 0);
}

RT_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    return stream_create(pStream, flags, 0);
}

RT_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags,
                                                int priority)
{
    return stream_create(pStream, flags, priority);
}

RT_API cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (e)
        return rt_unlock(c, e);
    for (struct rt_stream **ps = &c->streams; *ps; ps = &(*ps)->next) {
        if ((cudaStream_t)*ps == stream) {
            struct rt_stream *s = *ps;

            rt_sched_forget_stream(c, stream); /* its queued work completes first */
            *ps = s->next;
            free(s);
            return rt_unlock(c, cudaSuccess);
        }
    }
    return rt_unlock(c, cudaErrorInvalidResourceHandle);
}

/* Synchronize and query: the stream must exist; the answer is the sticky fault. */
static cudaError_t stream_check(cudaStream_t stream)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && !rt_stream_valid(c, stream))
        e = cudaErrorInvalidResourceHandle;
    if (!e && rt_sched_on(c))
        rt_sched_drain_stream(c, stream);
    return rt_unlock(c, e ? e : c->sticky);
}

RT_API cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    return stream_check(stream);
}

RT_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
    return stream_check(rt_ptsz(stream));
}

/* A query finishes the stream's work (a polling loop would otherwise never end). */
RT_API cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    return stream_check(stream);
}

RT_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
    return stream_check(rt_ptsz(stream));
}

RT_API cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    (void)flags;
    if (!e && (!rt_stream_valid(c, stream) || !event_of(c, event)))
        e = cudaErrorInvalidResourceHandle;
    if (!e && rt_sched_on(c))
        e = rt_sched_wait_event(c, stream, event_of(c, event));
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                            unsigned int flags)
{
    return cudaStreamWaitEvent(rt_ptsz(stream), event, flags);
}

/* Looks a stream up for the getters; the default streams have flags 0, priority 0, id 0. */
static cudaError_t stream_get(cudaStream_t stream, struct rt_stream *out)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    *out = (struct rt_stream){0};
    if (!e && !rt_stream_valid(c, stream))
        e = cudaErrorInvalidResourceHandle;
    if (!e && stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread)
        *out = *(struct rt_stream *)stream;
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
    struct rt_stream s;
    cudaError_t e = flags ? stream_get(hStream, &s) : cudaErrorInvalidValue;

    if (!e)
        *flags = s.flags;
    return e;
}
RT_ALIAS(cudaStreamGetFlags, cudaStreamGetFlags_ptsz);

RT_API cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
    struct rt_stream s;
    cudaError_t e = priority ? stream_get(hStream, &s) : cudaErrorInvalidValue;

    if (!e)
        *priority = s.priority;
    return e;
}
RT_ALIAS(cudaStreamGetPriority, cudaStreamGetPriority_ptsz);

RT_API cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
    struct rt_stream s;
    cudaError_t e = streamId ? stream_get(hStream, &s) : cudaErrorInvalidValue;

    if (!e)
        *streamId = s.id;
    return e;
}
RT_ALIAS(cudaStreamGetId, cudaStreamGetId_ptsz);

RT_API cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device)
{
    struct rt_stream s;
    cudaError_t e = device ? stream_get(hStream, &s) : cudaErrorInvalidValue;

    if (!e)
        *device = 0;
    return e;
}
RT_ALIAS(cudaStreamGetDevice, cudaStreamGetDevice_ptsz);

/* No stream is ever captured (capture itself is not supported). */
RT_API cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
                                         enum cudaStreamCaptureStatus *pCaptureStatus)
{
    struct rt_stream s;
    cudaError_t e = pCaptureStatus ? stream_get(stream, &s) : cudaErrorInvalidValue;

    if (!e)
        *pCaptureStatus = cudaStreamCaptureStatusNone;
    return e;
}
RT_ALIAS(cudaStreamIsCapturing, cudaStreamIsCapturing_ptsz);

/*
 * Host work queued on a stream: in functional mode it runs now (everything
 * before it has finished), unlocked since it may call the runtime; in timing
 * mode it runs when its stream reaches it.
 */
static cudaError_t host_work(cudaStream_t stream, cudaHostFn_t fn, cudaStreamCallback_t cb,
                             void *data)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c), status = cudaSuccess;
    bool queued = false;

    if (!e && !rt_stream_valid(c, stream))
        e = cudaErrorInvalidResourceHandle;
    if (!e && rt_sched_on(c)) {
        e = rt_sched_host(c, stream, fn, cb, data);
        queued = true;
    }
    if (!e)
        status = c->sticky;
    rt_unlock(c, e);
    if (!e && !queued && fn)
        fn(data);
    else if (!e && !queued)
        cb(stream, status, data);
    return e;
}

RT_API cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    if (!fn) {
        rt_set_last(cudaErrorInvalidValue);
        return cudaErrorInvalidValue;
    }
    return host_work(stream, fn, NULL, userData);
}

RT_API cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    return cudaLaunchHostFunc(rt_ptsz(stream), fn, userData);
}

RT_API cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                         void *userData, unsigned int flags)
{
    if (!callback || flags) {
        rt_set_last(cudaErrorInvalidValue);
        return cudaErrorInvalidValue;
    }
    return host_work(stream, NULL, callback, userData);
}

RT_API cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback,
                                              void *userData, unsigned int flags)
{
    return cudaStreamAddCallback(rt_ptsz(stream), callback, userData, flags);
}

RT_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);
    unsigned ok = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
    struct rt_event *ev = NULL;

    if (!e && (!event || (flags & ~ok)))
        e = cudaErrorInvalidValue;
    if (!e && !(ev = calloc(1, sizeof(*ev))))
        e = cudaErrorMemoryAllocation;
    if (!e) {
        ev->flags = flags;
        ev->next = c->events;
        c->events = ev;
        *event = (cudaEvent_t)ev;
    }
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, cudaEventDefault);
}

RT_API cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (e)
        return rt_unlock(c, e);
    for (struct rt_event **pe = &c->events; *pe; pe = &(*pe)->next) {
        if ((cudaEvent_t)*pe == event) {
            struct rt_event *ev = *pe;

            rt_sched_forget_event(c, ev); /* a pending record completes first */
            *pe = ev->next;
            free(ev);
            return rt_unlock(c, cudaSuccess);
        }
    }
    return rt_unlock(c, cudaErrorInvalidResourceHandle);
}

RT_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                            unsigned int flags)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);
    struct rt_event *ev = e ? NULL : event_of(c, event);

    (void)flags;
    if (!e && (!ev || !rt_stream_valid(c, stream)))
        e = cudaErrorInvalidResourceHandle;
    if (!e && rt_sched_on(c)) {
        e = rt_sched_record(c, ev, stream);
    } else if (!e) {
        ev->recorded = true;
        ev->t_ns = c->sim_ns;
    }
    return rt_unlock(c, e);
}

RT_API cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                 unsigned int flags)
{
    return cudaEventRecordWithFlags(event, rt_ptsz(stream), flags);
}

RT_API cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    return cudaEventRecordWithFlags(event, stream, 0);
}

RT_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
    return cudaEventRecordWithFlags(event, rt_ptsz(stream), 0);
}

/* Query and synchronize: the event must exist; everything it waits for is done. */
static cudaError_t event_check(cudaEvent_t event)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);

    if (!e && !event_of(c, event))
        e = cudaErrorInvalidResourceHandle;
    if (!e && rt_sched_on(c))
        rt_sched_drain_event(c, event_of(c, event));
    return rt_unlock(c, e ? e : c->sticky);
}

RT_API cudaError_t cudaEventQuery(cudaEvent_t event)
{
    return event_check(event);
}

RT_API cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    return event_check(event);
}

RT_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    struct rt_ctx *c;
    cudaError_t e = rt_lock(&c);
    struct rt_event *a = e ? NULL : event_of(c, start), *b = e ? NULL : event_of(c, end);

    if (!e && !ms)
        e = cudaErrorInvalidValue;
    if (!e && a && b && rt_sched_on(c)) {
        rt_sched_drain_event(c, a);
        rt_sched_drain_event(c, b);
    }
    if (!e && (!a || !b || !a->recorded || !b->recorded ||
               ((a->flags | b->flags) & cudaEventDisableTiming)))
        e = cudaErrorInvalidResourceHandle;
    if (!e)
        *ms = (float)((b->t_ns - a->t_ns) * 1e-6);
    return rt_unlock(c, e);
}
