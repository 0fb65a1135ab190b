/*
 * Contexts (each owns one ptxsim engine device, functional or timing as the
 * environment says), in-order command queues and events. Commands run when
 * they are enqueued, so every command's event is complete when its command
 * returns and clFinish/clFlush have nothing to wait for; only user events
 * can be incomplete, and a command waiting on one waits in its enqueue call. Event timestamps are host time
 * in functional mode and the context's simulated clock in timing mode.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/opencl/cpu.h"
#include "runtime/opencl/ocl.h"

/* Checks the property list and copies it into c. */
static cl_int read_props(cl_context c, const cl_context_properties *props)
{
    uint32_t n = 0;

    for (; props && props[n]; n += 2) {
        if (props[n] != CL_CONTEXT_PLATFORM || n + 3 > sizeof(c->props) / sizeof(c->props[0]))
            return CL_INVALID_PROPERTY;
        if ((cl_platform_id)props[n + 1] != ocl_platform())
            return CL_INVALID_PLATFORM;
        c->props[n] = props[n];
        c->props[n + 1] = props[n + 1];
    }
    c->nprops = props ? n + 1 : 0;
    return CL_SUCCESS;
}

/* The context's engine device: the configured machine, in the configured mode. */
static cl_int device_new(cl_context c)
{
    const struct ocl_env *e = ocl_env();
    struct ptxsim_options o;
    struct ps_err err;
    int code;

    if (e->bad) {
        fprintf(stderr, "ptxsim opencl: device not available: bad PTXSIM_* environment (see "
                        "the message above)\n");
        return CL_DEVICE_NOT_AVAILABLE;
    }
    memset(&err, 0, sizeof(err));
    ptxsim_options_default(&o);
    o.nsm = e->compute_units;
    o.insn_budget = e->budget;
    o.memcheck = e->cfg.ptxsim_memcheck;
    o.shared_per_cta = e->local_bytes;
    o.max_threads_per_cta = e->max_wg;
    o.stop = e->stop;
    if (e->timing) {
        o.timing = &e->cfg;
        o.timing_err = &err;
    } else if (e->cfg.gpgpu_max_insn > 0) {
        o.max_thread_insts = (uint64_t)e->cfg.gpgpu_max_insn;
    }
    code = ptxsim_device_create(&o, &c->dev);
    if (!code)
        return CL_SUCCESS;
    if (code == PS_ENOMEM)
        return CL_OUT_OF_HOST_MEMORY;
    fprintf(stderr, "ptxsim opencl: timing model: %s\n", err.msg);
    return CL_DEVICE_NOT_AVAILABLE;
}

/* Records the context's devices, GPU first, each once. */
static void set_devices(cl_context c, bool gpu, bool cpu)
{
    c->ndev = 0;
    if (gpu)
        c->devs[c->ndev++] = ocl_device();
    if (cpu)
        c->devs[c->ndev++] = ocl_cpu_device();
}

static cl_context context_new(const cl_context_properties *props,
                              void(CL_CALLBACK *notify)(const char *, const void *, size_t,
                                                        void *),
                              void *data, cl_int *errcode)
{
    cl_context c = calloc(1, sizeof(*c));
    cl_int rc = c ? read_props(c, props) : CL_OUT_OF_HOST_MEMORY;

    if (rc == CL_SUCCESS)
        rc = device_new(c);
    if (rc != CL_SUCCESS) {
        free(c);
        c = NULL;
    } else {
        c->dispatch = &ocl_dispatch;
        c->magic = OCL_MAGIC_CONTEXT;
        ocl_registry_add(c);
        c->refs = 1;
        c->notify = notify;
        c->notify_data = data;
        pthread_mutex_init(&c->lock, NULL);
    }
    if (errcode)
        *errcode = rc;
    return c;
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(
    const cl_context_properties *props, cl_uint n, const cl_device_id *devices,
    void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *data,
    cl_int *errcode)
{
    cl_int rc = CL_SUCCESS;
    bool gpu = false, cpu = false;
    cl_context c;

    if (!devices || n == 0 || (!notify && data))
        rc = CL_INVALID_VALUE;
    for (cl_uint i = 0; rc == CL_SUCCESS && i < n; i++) {
        if (!ocl_device_ok(devices[i]))
            rc = CL_INVALID_DEVICE;
        gpu |= devices[i] == ocl_device();
        cpu |= devices[i] != ocl_device();
    }
    if (rc != CL_SUCCESS) {
        if (errcode)
            *errcode = rc;
        return NULL;
    }
    c = context_new(props, notify, data, errcode);
    if (c)
        set_devices(c, gpu, cpu);
    return c;
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(
    const cl_context_properties *props, cl_device_type type,
    void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *data,
    cl_int *errcode)
{
    cl_int rc = CL_SUCCESS;
    /* As clGetDeviceIDs: DEFAULT is the GPU alone, CPU and ALL add the CPU device. */
    bool gpu = type == CL_DEVICE_TYPE_ALL || (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT));
    bool cpu = (type == CL_DEVICE_TYPE_ALL || (type & CL_DEVICE_TYPE_CPU)) && ocl_cpu_device();
    cl_context c;

    if (!notify && data)
        rc = CL_INVALID_VALUE;
    else if (type & ~(cl_device_type)CL_DEVICE_TYPE_ALL)
        rc = CL_INVALID_DEVICE_TYPE;
    else if (!gpu && !cpu)
        rc = CL_DEVICE_NOT_FOUND;
    if (rc != CL_SUCCESS) {
        if (errcode)
            *errcode = rc;
        return NULL;
    }
    c = context_new(props, notify, data, errcode);
    if (c)
        set_devices(c, gpu, cpu);
    return c;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context c)
{
    if (!ocl_valid(c, OCL_MAGIC_CONTEXT))
        return CL_INVALID_CONTEXT;
    __atomic_add_fetch(&c->refs, 1, __ATOMIC_SEQ_CST);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context c)
{
    if (!ocl_valid(c, OCL_MAGIC_CONTEXT))
        return CL_INVALID_CONTEXT;
    if (__atomic_sub_fetch(&c->refs, 1, __ATOMIC_SEQ_CST) == 0) {
        ocl_cpu_context_free(c);
        ptxsim_device_destroy(c->dev);
        pthread_mutex_destroy(&c->lock);
        ocl_retire(c);
    }
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context c, cl_context_info name, size_t size,
                                                 void *value, size_t *size_ret)
{
    cl_uint u;

    if (!ocl_valid(c, OCL_MAGIC_CONTEXT))
        return CL_INVALID_CONTEXT;
    switch (name) {
    case CL_CONTEXT_REFERENCE_COUNT:
        u = c->refs;
        return ocl_info(&u, sizeof(u), size, value, size_ret);
    case CL_CONTEXT_NUM_DEVICES:
        u = c->ndev;
        return ocl_info(&u, sizeof(u), size, value, size_ret);
    case CL_CONTEXT_DEVICES:
        return ocl_info(c->devs, c->ndev * sizeof(c->devs[0]), size, value, size_ret);
    case CL_CONTEXT_PROPERTIES:
        return ocl_info(c->props, c->nprops * sizeof(c->props[0]), size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}

/* ---- command queues ---------------------------------------------------- */

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context c, cl_device_id d,
                                                              cl_command_queue_properties props,
                                                              cl_int *errcode)
{
    cl_command_queue q = NULL;
    cl_int rc = CL_SUCCESS;

    if (!ocl_valid(c, OCL_MAGIC_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (!ocl_device_ok(d) || (d != c->devs[0] && (c->ndev < 2 || d != c->devs[1])))
        rc = CL_INVALID_DEVICE; /* not one of the context's devices */
    else if (props & ~(cl_command_queue_properties)(CL_QUEUE_PROFILING_ENABLE |
                                                    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
        rc = CL_INVALID_VALUE;
    else if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        rc = CL_INVALID_QUEUE_PROPERTIES;
    else if (!(q = calloc(1, sizeof(*q))))
        rc = CL_OUT_OF_HOST_MEMORY;
    if (q) {
        q->dispatch = &ocl_dispatch;
        q->magic = OCL_MAGIC_QUEUE;
        ocl_registry_add(q);
        q->refs = 1;
        q->ctx = c;
        q->props = props;
        q->dev = d;
        clRetainContext(c);
    }
    if (errcode)
        *errcode = rc;
    return q;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue q)
{
    if (!ocl_valid(q, OCL_MAGIC_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    __atomic_add_fetch(&q->refs, 1, __ATOMIC_SEQ_CST);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q)
{
    if (!ocl_valid(q, OCL_MAGIC_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    if (__atomic_sub_fetch(&q->refs, 1, __ATOMIC_SEQ_CST) == 0) {
        clReleaseContext(q->ctx);
        ocl_retire(q);
    }
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q,
                                                      cl_command_queue_info name, size_t size,
                                                      void *value, size_t *size_ret)
{
    cl_uint u;

    if (!ocl_valid(q, OCL_MAGIC_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    switch (name) {
    case CL_QUEUE_CONTEXT:
        return ocl_info(&q->ctx, sizeof(q->ctx), size, value, size_ret);
    case CL_QUEUE_DEVICE:
        return ocl_info(&q->dev, sizeof(q->dev), size, value, size_ret);
    case CL_QUEUE_REFERENCE_COUNT:
        u = q->refs;
        return ocl_info(&u, sizeof(u), size, value, size_ret);
    case CL_QUEUE_PROPERTIES:
        return ocl_info(&q->props, sizeof(q->props), size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}

CL_API_ENTRY cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue q,
                                                          cl_command_queue_properties props,
                                                          cl_bool enable,
                                                          cl_command_queue_properties *old)
{
    (void)props, (void)enable, (void)old;
    return ocl_valid(q, OCL_MAGIC_QUEUE) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue q)
{
    return ocl_valid(q, OCL_MAGIC_QUEUE) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue q)
{
    return ocl_valid(q, OCL_MAGIC_QUEUE) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

/* ---- events ------------------------------------------------------------ */

/* Blocks until e is complete or failed; returns its final status. */
static cl_int event_wait(cl_event e)
{
    cl_int st;

    pthread_mutex_lock(&e->lock);
    while (e->status > CL_COMPLETE)
        pthread_cond_wait(&e->done, &e->lock);
    st = e->status;
    pthread_mutex_unlock(&e->lock);
    return st;
}

cl_int ocl_check_wait_list(cl_uint n, const cl_event *list)
{
    cl_int rc = CL_SUCCESS;

    if ((n > 0) != (list != NULL))
        return CL_INVALID_EVENT_WAIT_LIST;
    for (cl_uint i = 0; i < n; i++)
        if (!ocl_valid(list[i], OCL_MAGIC_EVENT))
            return CL_INVALID_EVENT_WAIT_LIST;
    for (cl_uint i = 0; i < n; i++)
        if (event_wait(list[i]) < 0)
            rc = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    return rc;
}

/* A new event of context c (retained) and queue q (retained; NULL for a user event). */
static cl_event event_new(cl_context c, cl_command_queue q, cl_command_type type, cl_int status)
{
    cl_event e = calloc(1, sizeof(*e));

    if (!e)
        return NULL;
    e->dispatch = &ocl_dispatch;
    e->magic = OCL_MAGIC_EVENT;
    ocl_registry_add(e);
    e->refs = 1;
    e->ctx = c;
    e->queue = q;
    e->type = type;
    e->status = status;
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->done, NULL);
    clRetainContext(c);
    if (q)
        clRetainCommandQueue(q);
    return e;
}

cl_int ocl_event_done(cl_command_queue q, cl_command_type type, cl_ulong t_start, cl_int status,
                      cl_event *event)
{
    cl_ulong now;

    if (!event)
        return CL_SUCCESS;
    if (!ocl_env()->timing)
        return ocl_event_at(q, type, t_start, ocl_now_ns(), status, event);
    /* Timing mode: only kernels take simulated time; this command takes none. */
    pthread_mutex_lock(&q->ctx->lock);
    now = (cl_ulong)llround(q->ctx->sim_ns);
    pthread_mutex_unlock(&q->ctx->lock);
    return ocl_event_at(q, type, now, now, status, event);
}

cl_int ocl_event_at(cl_command_queue q, cl_command_type type, cl_ulong t_start, cl_ulong t_end,
                    cl_int status, cl_event *event)
{
    cl_event e;

    if (!event)
        return CL_SUCCESS;
    e = event_new(q->ctx, q, type, status);
    if (!e)
        return CL_OUT_OF_HOST_MEMORY;
    e->t_queued = e->t_submit = e->t_start = t_start;
    e->t_end = t_end;
    *event = e;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context c, cl_int *errcode)
{
    cl_event e = NULL;
    cl_int rc = CL_SUCCESS;

    if (!ocl_valid(c, OCL_MAGIC_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (!(e = event_new(c, NULL, CL_COMMAND_USER, CL_SUBMITTED)))
        rc = CL_OUT_OF_HOST_MEMORY;
    if (errcode)
        *errcode = rc;
    return e;
}

/*
 * Calls, and drops, the callbacks whose status e has reached (OpenCL 1.2,
 * 5.9: an error status reaches them all and is what they receive). Called
 * with e->lock held; the callbacks run without it.
 */
static void event_fire(cl_event e)
{
    struct ocl_event_cb **pp = &e->cbs, *due = NULL, *cb;
    cl_int st = e->status;

    while ((cb = *pp)) {
        if (st > cb->type) {
            pp = &cb->next;
            continue;
        }
        *pp = cb->next;
        cb->next = due;
        due = cb;
    }
    pthread_mutex_unlock(&e->lock);
    for (; (cb = due); free(cb)) {
        due = cb->next;
        cb->fn(e, st < 0 ? st : cb->type, cb->data);
    }
    pthread_mutex_lock(&e->lock);
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event e, cl_int status)
{
    cl_int rc = CL_SUCCESS;

    if (!ocl_valid(e, OCL_MAGIC_EVENT) || e->type != CL_COMMAND_USER || e->queue)
        return CL_INVALID_EVENT;
    if (status > CL_COMPLETE)
        return CL_INVALID_VALUE;
    pthread_mutex_lock(&e->lock);
    if (e->status != CL_SUBMITTED) {
        rc = CL_INVALID_OPERATION; /* set once only */
    } else {
        e->status = status;
        pthread_cond_broadcast(&e->done);
        event_fire(e);
    }
    pthread_mutex_unlock(&e->lock);
    return rc;
}

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event *list)
{
    cl_int rc = CL_SUCCESS;

    if (n == 0 || !list)
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < n; i++) {
        if (!ocl_valid(list[i], OCL_MAGIC_EVENT))
            return CL_INVALID_EVENT;
        if (list[i]->ctx != list[0]->ctx)
            return CL_INVALID_CONTEXT;
    }
    for (cl_uint i = 0; i < n; i++)
        if (event_wait(list[i]) < 0)
            rc = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    return rc;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event e, cl_event_info name, size_t size,
                                               void *value, size_t *size_ret)
{
    cl_uint u;
    cl_int st;

    if (!ocl_valid(e, OCL_MAGIC_EVENT))
        return CL_INVALID_EVENT;
    switch (name) {
    case CL_EVENT_COMMAND_QUEUE:
        return ocl_info(&e->queue, sizeof(e->queue), size, value, size_ret);
    case CL_EVENT_CONTEXT:
        return ocl_info(&e->ctx, sizeof(e->ctx), size, value, size_ret);
    case CL_EVENT_COMMAND_TYPE:
        return ocl_info(&e->type, sizeof(e->type), size, value, size_ret);
    case CL_EVENT_COMMAND_EXECUTION_STATUS:
        pthread_mutex_lock(&e->lock);
        st = e->status;
        pthread_mutex_unlock(&e->lock);
        return ocl_info(&st, sizeof(st), size, value, size_ret);
    case CL_EVENT_REFERENCE_COUNT:
        u = e->refs;
        return ocl_info(&u, sizeof(u), size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event e, cl_profiling_info name,
                                                        size_t size, void *value,
                                                        size_t *size_ret)
{
    const cl_ulong *t;

    if (!ocl_valid(e, OCL_MAGIC_EVENT))
        return CL_INVALID_EVENT;
    if (!e->queue || !(e->queue->props & CL_QUEUE_PROFILING_ENABLE))
        return CL_PROFILING_INFO_NOT_AVAILABLE;
    switch (name) {
    case CL_PROFILING_COMMAND_QUEUED:
        t = &e->t_queued;
        break;
    case CL_PROFILING_COMMAND_SUBMIT:
        t = &e->t_submit;
        break;
    case CL_PROFILING_COMMAND_START:
        t = &e->t_start;
        break;
    case CL_PROFILING_COMMAND_END:
        t = &e->t_end;
        break;
    default:
        return CL_INVALID_VALUE;
    }
    return ocl_info(t, sizeof(*t), size, value, size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event e)
{
    if (!ocl_valid(e, OCL_MAGIC_EVENT))
        return CL_INVALID_EVENT;
    __atomic_add_fetch(&e->refs, 1, __ATOMIC_SEQ_CST);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event e)
{
    struct ocl_event_cb *cb;

    if (!ocl_valid(e, OCL_MAGIC_EVENT))
        return CL_INVALID_EVENT;
    if (__atomic_sub_fetch(&e->refs, 1, __ATOMIC_SEQ_CST))
        return CL_SUCCESS;
    while ((cb = e->cbs)) { /* a user event never set: its callbacks never run */
        e->cbs = cb->next;
        free(cb);
    }
    if (e->queue)
        clReleaseCommandQueue(e->queue);
    clReleaseContext(e->ctx);
    pthread_cond_destroy(&e->done);
    pthread_mutex_destroy(&e->lock);
    ocl_retire(e);
    return CL_SUCCESS;
}

/*
 * OpenCL 1.2 (5.9): fn runs once e reaches type (at once when it has, as
 * command events have) or ends in an error.
 */
CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event e, cl_int type,
                                                   void(CL_CALLBACK *fn)(cl_event, cl_int, void *),
                                                   void *data)
{
    struct ocl_event_cb *cb;

    if (!ocl_valid(e, OCL_MAGIC_EVENT))
        return CL_INVALID_EVENT;
    if (!fn || (type != CL_COMPLETE && type != CL_RUNNING && type != CL_SUBMITTED))
        return CL_INVALID_VALUE;
    cb = malloc(sizeof(*cb));
    if (!cb)
        return CL_OUT_OF_HOST_MEMORY;
    *cb = (struct ocl_event_cb){.fn = fn, .data = data, .type = type};
    pthread_mutex_lock(&e->lock);
    cb->next = e->cbs;
    e->cbs = cb;
    event_fire(e);
    pthread_mutex_unlock(&e->lock);
    return CL_SUCCESS;
}

/* Markers and barriers: nothing to order, since commands run at enqueue. */
CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n,
                                                            const cl_event *list,
                                                            cl_event *event)
{
    cl_int rc;

    if (!ocl_valid(q, OCL_MAGIC_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    rc = ocl_check_wait_list(n, list);
    return rc ? rc : ocl_event_done(q, CL_COMMAND_MARKER, ocl_now_ns(), CL_COMPLETE, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n,
                                                             const cl_event *list,
                                                             cl_event *event)
{
    cl_int rc;

    if (!ocl_valid(q, OCL_MAGIC_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    rc = ocl_check_wait_list(n, list);
    return rc ? rc : ocl_event_done(q, CL_COMMAND_BARRIER, ocl_now_ns(), CL_COMPLETE, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue q, cl_event *event)
{
    if (!event)
        return ocl_valid(q, OCL_MAGIC_QUEUE) ? CL_INVALID_VALUE : CL_INVALID_COMMAND_QUEUE;
    return clEnqueueMarkerWithWaitList(q, 0, NULL, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue q)
{
    return clEnqueueBarrierWithWaitList(q, 0, NULL, NULL);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue q, cl_uint n,
                                                       const cl_event *list)
{
    if (!ocl_valid(q, OCL_MAGIC_QUEUE))
        return CL_INVALID_COMMAND_QUEUE;
    return n && list ? ocl_check_wait_list(n, list) : CL_INVALID_VALUE;
}
