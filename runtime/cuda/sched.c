/*
 * Stream scheduling in timing mode (see sched.h for the ordering rules).
 *
 * Every stream has a FIFO queue of operations. An operation may start when
 * it heads its queue and the operations it depends on (recorded when it was
 * queued: the legacy stream's rules, cudaStreamWaitEvent) are done. Event
 * records and host functions complete as they start; a kernel starts when
 * the timing model has a free kernel slot and completes when the model says
 * so. Draining repeats: start what can start, then advance the timing model
 * until some kernel completes, until what the caller waits for is done.
 * Queues are visited in creation order, so runs are deterministic.
 *
 * The simulated clock (events) is the timing model's time plus the copies'
 * time (rt_account_copy), so kernels that overlap are not counted twice.
 * Programs with __managed__ variables do not queue (launch.c): the variables'
 * host copies are synchronised around every launch, one launch at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "runtime/cuda/sched.h"
#include "runtime/stop.h"

enum op_kind { OP_KERNEL, OP_RECORD, OP_WAIT, OP_HOST };

struct rt_op {
    struct rt_op *next;
    uint64_t id;
    enum op_kind kind;
    uint64_t deps[4]; /* the legacy stream's dependencies past 4 go to more */
    uint64_t *more;
    uint32_t ndeps;
    /* OP_KERNEL */
    struct rt_kernel *k;
    dim3 grid, block;
    uint32_t shmem, param_bytes;
    void *params;
    struct ptxsim_run *run;
    double t0;
    /* OP_RECORD */
    struct rt_event *ev;
    /* OP_HOST */
    cudaHostFn_t fn;
    cudaStreamCallback_t cb;
    void *data;
    cudaStream_t stream;
};

struct rt_queue {
    struct rt_queue *next;
    cudaStream_t handle; /* NULL for the legacy stream */
    pthread_t thread;    /* the per-thread default stream's thread */
    bool legacy, per_thread, nonblocking;
    struct rt_op *head, *tail;
};

/* The latest record of an event. */
struct rt_evrec {
    struct rt_evrec *next;
    struct rt_event *ev;
    uint64_t op;
};

struct rt_sched {
    struct rt_queue *queues, **qtail;
    struct rt_evrec *recs;
    uint64_t next_id;
    double gpu_seen_ns;
    bool draining; /* a host callback that synchronises must not drain again */
};

bool rt_sched_on(struct rt_ctx *c)
{
    return c->timing && c->dev && ptxsim_kernel_slots(c->dev) > 0;
}

static struct rt_sched *sched_of(struct rt_ctx *c)
{
    if (!c->sched && (c->sched = calloc(1, sizeof(*c->sched))))
        c->sched->qtail = &c->sched->queues;
    return c->sched;
}

static bool is_legacy(cudaStream_t s)
{
    return !s || s == cudaStreamLegacy;
}

static bool queue_is(const struct rt_queue *q, cudaStream_t s)
{
    if (is_legacy(s))
        return q->legacy;
    if (s == cudaStreamPerThread)
        return q->per_thread && pthread_equal(q->thread, pthread_self());
    return !q->legacy && !q->per_thread && q->handle == s;
}

static struct rt_queue *queue_of(struct rt_sched *s, cudaStream_t h, bool create)
{
    struct rt_queue *q;

    for (q = s->queues; q; q = q->next)
        if (queue_is(q, h))
            return q;
    if (!create || !(q = calloc(1, sizeof(*q))))
        return NULL;
    q->legacy = is_legacy(h);
    q->per_thread = h == cudaStreamPerThread;
    q->thread = pthread_self();
    q->handle = q->legacy ? NULL : h;
    q->nonblocking =
        !q->legacy && !q->per_thread && (((struct rt_stream *)h)->flags & cudaStreamNonBlocking);
    *s->qtail = q;
    s->qtail = &q->next;
    return q;
}

static bool pending(const struct rt_sched *s, uint64_t id)
{
    for (const struct rt_queue *q = s->queues; q; q = q->next)
        for (const struct rt_op *o = q->head; o && o->id <= id && id <= q->tail->id; o = o->next)
            if (o->id == id)
                return true;
    return false;
}

static uint64_t dep(const struct rt_op *o, uint32_t i)
{
    return i < 4 ? o->deps[i] : o->more[i - 4];
}

static bool add_dep(struct rt_op *o, uint64_t id)
{
    if (o->ndeps >= 4 && !((o->ndeps - 4) & 7)) {
        uint64_t *m = realloc(o->more, (o->ndeps - 4 + 8) * sizeof(*m));

        if (!m)
            return false;
        o->more = m;
    }
    if (o->ndeps < 4)
        o->deps[o->ndeps] = id;
    else
        o->more[o->ndeps - 4] = id;
    o->ndeps++;
    return true;
}

static bool ready(const struct rt_sched *s, const struct rt_op *o)
{
    for (uint32_t i = 0; i < o->ndeps; i++)
        if (pending(s, dep(o, i)))
            return false;
    return true;
}

static void op_free(struct rt_op *o)
{
    free(o->more);
    free(o->params);
    free(o);
}

/* Queues o on stream h with the legacy stream's dependencies. */
static cudaError_t enqueue(struct rt_ctx *c, cudaStream_t h, struct rt_op *o)
{
    struct rt_sched *s = sched_of(c);
    struct rt_queue *q = s ? queue_of(s, h, true) : NULL, *l;
    bool ok = true;

    if (!q) {
        op_free(o);
        return cudaErrorMemoryAllocation;
    }
    o->id = ++s->next_id;
    if (q->legacy) {
        for (struct rt_queue *b = s->queues; b; b = b->next)
            if (b != q && !b->nonblocking && b->tail)
                ok = ok && add_dep(o, b->tail->id);
    } else if (!q->nonblocking && (l = queue_of(s, NULL, false)) && l->tail) {
        ok = add_dep(o, l->tail->id);
    }
    if (!ok) {
        op_free(o);
        return cudaErrorMemoryAllocation;
    }
    if (q->tail)
        q->tail->next = o;
    else
        q->head = o;
    q->tail = o;
    return cudaSuccess;
}

static struct rt_op *op_new(enum op_kind kind)
{
    struct rt_op *o = calloc(1, sizeof(*o));

    if (o)
        o->kind = kind;
    return o;
}

cudaError_t rt_sched_kernel(struct rt_ctx *c, struct rt_kernel *k, dim3 grid, dim3 block,
                            void **args, size_t shmem, cudaStream_t stream)
{
    struct rt_op *o = op_new(OP_KERNEL);

    if (!o)
        return cudaErrorMemoryAllocation;
    if (ptxsim_pack_params(k->fb->mod, k->name, args, &o->params, &o->param_bytes)) {
        op_free(o);
        return rt_take_fault(c, ptxsim_last_error(c->dev));
    }
    o->k = k;
    o->grid = grid;
    o->block = block;
    o->shmem = (uint32_t)shmem;
    c->dev_used = true;
    return enqueue(c, stream, o);
}

static struct rt_evrec *evrec_of(struct rt_sched *s, const struct rt_event *ev, bool create)
{
    struct rt_evrec *r;

    for (r = s->recs; r; r = r->next)
        if (r->ev == ev)
            return r;
    if (create && (r = calloc(1, sizeof(*r)))) {
        r->ev = (struct rt_event *)ev;
        r->next = s->recs;
        s->recs = r;
    }
    return r;
}

cudaError_t rt_sched_record(struct rt_ctx *c, struct rt_event *ev, cudaStream_t stream)
{
    struct rt_op *o = op_new(OP_RECORD);
    struct rt_sched *s = sched_of(c);
    struct rt_evrec *r = s ? evrec_of(s, ev, true) : NULL;
    cudaError_t e;

    if (!o || !r) {
        free(o);
        return cudaErrorMemoryAllocation;
    }
    o->ev = ev;
    if (!(e = enqueue(c, stream, o)))
        r->op = o->id;
    return e;
}

cudaError_t rt_sched_wait_event(struct rt_ctx *c, cudaStream_t stream, struct rt_event *ev)
{
    struct rt_op *o = op_new(OP_WAIT);
    struct rt_sched *s = sched_of(c);
    struct rt_evrec *r = s ? evrec_of(s, ev, false) : NULL;

    if (!o || !s) {
        free(o);
        return cudaErrorMemoryAllocation;
    }
    /* A wait for an event never recorded waits for nothing. */
    if (r && pending(s, r->op) && !add_dep(o, r->op)) {
        op_free(o);
        return cudaErrorMemoryAllocation;
    }
    return enqueue(c, stream, o);
}

cudaError_t rt_sched_host(struct rt_ctx *c, cudaStream_t stream, cudaHostFn_t fn,
                          cudaStreamCallback_t cb, void *data)
{
    struct rt_op *o = op_new(OP_HOST);

    if (!o)
        return cudaErrorMemoryAllocation;
    o->fn = fn;
    o->cb = cb;
    o->data = data;
    o->stream = stream;
    return enqueue(c, stream, o);
}

/* Moves the simulated clock on by the timing model's time since it last looked. */
static void clock_sync(struct rt_ctx *c)
{
    double g = ptxsim_timing_time_ns(c->dev);

    if (!sched_of(c))
        return;
    if (g < c->sched->gpu_seen_ns) /* a fresh device */
        c->sched->gpu_seen_ns = 0;
    c->sim_ns += g - c->sched->gpu_seen_ns;
    c->sched->gpu_seen_ns = g;
}

static double wall_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The error of a queued operation that failed: no call is left to return it to. */
static void op_failed(struct rt_ctx *c, int rc)
{
    cudaError_t e = c->sticky ? c->sticky : rt_take_fault(c, rc);

    if (e != c->sticky)
        rt_set_last(e);
}

/* Starts kernel op o; false when it must wait for a kernel slot. */
static bool start_kernel(struct rt_ctx *c, struct rt_op *o)
{
    struct ptxsim_dim3 g = {o->grid.x, o->grid.y, o->grid.z},
                       b = {o->block.x, o->block.y, o->block.z};
    unsigned busy = ptxsim_kernels_in_flight(c->dev);
    int rc;

    if (busy >= ptxsim_kernel_slots(c->dev))
        return false;
    if (c->sticky) /* the context is broken: later work does not run */
        return true;
    rt_host_revalidate(c);
    o->t0 = wall_now();
    rc = ptxsim_launch_start(o->k->fb->mod, o->k->name, g, b, o->shmem, o->params, o->param_bytes,
                             &o->run);
    if (rc)
        op_failed(c, rc);
    return true;
}

static void finish_kernel(struct rt_ctx *c, struct rt_op *o)
{
    struct ptxsim_kstat ks = {.name = o->k->name,
                              .grid = {o->grid.x, o->grid.y, o->grid.z},
                              .block = {o->block.x, o->block.y, o->block.z},
                              .timed = true};
    int rc = ptxsim_run_finish(c->dev, o->run, &ks.tm);
    cudaError_t e;

    o->run = NULL;
    clock_sync(c);
    ks.warp_insn = ks.tm.c.warp_insts;
    ks.thread_insn = ks.tm.c.thread_insts;
    ks.cycles = ks.tm.c.cycles;
    ks.wall_s = wall_now() - o->t0;
    if ((e = rt_stats_add(c, &ks)))
        rt_set_last(e);
    if (rc == PS_EABANDONED)
        rt_stop_truncated(c, "the process exited while a kernel ran; that launch was abandoned");
    else if (rc)
        op_failed(c, rc);
}

/* Runs o, which heads its queue and is ready; false if it must wait (kernel slots). */
static bool start(struct rt_ctx *c, struct rt_op *o)
{
    switch (o->kind) {
    case OP_KERNEL:
        return start_kernel(c, o);
    case OP_RECORD:
        clock_sync(c);
        o->ev->recorded = true;
        o->ev->t_ns = c->sim_ns;
        return true;
    case OP_WAIT:
        return true;
    case OP_HOST:
        if (o->fn)
            o->fn(o->data);
        else
            o->cb(o->stream, c->sticky, o->data);
        return true;
    }
    return true;
}

static void pop(struct rt_queue *q)
{
    struct rt_op *o = q->head;

    q->head = o->next;
    if (!q->head)
        q->tail = NULL;
    op_free(o);
}

/* Starts and completes what can go without simulated time passing. */
static void start_ready(struct rt_ctx *c)
{
    struct rt_sched *s = c->sched;
    bool moved = true;

    while (moved) {
        moved = false;
        for (struct rt_queue *q = s->queues; q; q = q->next) {
            struct rt_op *o = q->head;

            if (!o || (o->kind == OP_KERNEL && o->run) || !ready(s, o) || !start(c, o))
                continue;
            if (o->kind != OP_KERNEL || !o->run)
                pop(q); /* done (or a kernel that could not start) */
            moved = true;
        }
    }
}

/* Completes the kernels the timing model finished. */
static void reap(struct rt_ctx *c)
{
    for (struct rt_queue *q = c->sched->queues; q; q = q->next)
        if (q->head && q->head->kind == OP_KERNEL && q->head->run &&
            ptxsim_run_done(q->head->run)) {
            finish_kernel(c, q->head);
            pop(q);
        }
}

/* Runs queued work until none of ids[0..n) is pending (n 0: until nothing is). */
static void drain_until(struct rt_ctx *c, const uint64_t *ids, uint32_t n)
{
    struct rt_sched *s = c->sched;

    if (!s || s->draining || !c->dev)
        return;
    s->draining = true;
    fflush(stdout);
    ptxsim_stop_before_launch();
    for (;;) {
        bool left = false;

        start_ready(c);
        for (uint32_t i = 0; i < n && !left; i++)
            left = pending(s, ids[i]);
        for (struct rt_queue *q = s->queues; !n && q && !left; q = q->next)
            left = q->head != NULL;
        if (!left || !ptxsim_kernels_in_flight(c->dev))
            break;
        ptxsim_run_wait(c->dev, NULL);
        reap(c);
    }
    fflush(stdout);
    s->draining = false;
    ptxsim_stop_after_launch(); /* a signal meanwhile: statistics, then the signal */
}

void rt_sched_clock(struct rt_ctx *c)
{
    clock_sync(c);
}

void rt_sched_drain(struct rt_ctx *c)
{
    drain_until(c, NULL, 0);
}

void rt_sched_drain_stream(struct rt_ctx *c, cudaStream_t stream)
{
    struct rt_sched *s = c->sched;
    uint64_t ids[64];
    uint32_t n = 0;
    struct rt_queue *q = s ? queue_of(s, stream, false) : NULL;

    if (!s)
        return;
    if (q && q->tail)
        ids[n++] = q->tail->id;
    for (struct rt_queue *b = s->queues; is_legacy(stream) && b; b = b->next)
        if (b != q && !b->nonblocking && b->tail) {
            if (n == 64) {
                rt_sched_drain(c); /* more streams than ids: everything */
                return;
            }
            ids[n++] = b->tail->id;
        }
    if (n)
        drain_until(c, ids, n);
}

void rt_sched_drain_event(struct rt_ctx *c, struct rt_event *ev)
{
    struct rt_evrec *r = c->sched ? evrec_of(c->sched, ev, false) : NULL;

    if (r && pending(c->sched, r->op))
        drain_until(c, &r->op, 1);
}

void rt_sched_forget_event(struct rt_ctx *c, struct rt_event *ev)
{
    struct rt_sched *s = c->sched;

    if (!s)
        return;
    rt_sched_drain_event(c, ev);
    for (struct rt_evrec **pr = &s->recs; *pr; pr = &(*pr)->next)
        if ((*pr)->ev == ev) {
            struct rt_evrec *r = *pr;

            *pr = r->next;
            free(r);
            return;
        }
}

void rt_sched_forget_stream(struct rt_ctx *c, cudaStream_t stream)
{
    struct rt_sched *s = c->sched;

    if (!s)
        return;
    rt_sched_drain_stream(c, stream);
    for (struct rt_queue **pq = &s->queues; *pq; pq = &(*pq)->next) {
        struct rt_queue *q = *pq;

        if (queue_is(q, stream) && !q->head) {
            *pq = q->next;
            if (s->qtail == &q->next)
                s->qtail = pq;
            free(q);
            return;
        }
    }
}

void rt_sched_release(struct rt_ctx *c)
{
    struct rt_sched *s = c->sched;

    if (!s)
        return;
    rt_sched_drain(c);
    while (s->queues) {
        struct rt_queue *q = s->queues;

        while (q->head) {
            if (q->head->run) /* only after a failed drain: the device goes too */
                q->head->run = NULL;
            pop(q);
        }
        s->queues = q->next;
        free(q);
    }
    while (s->recs) {
        struct rt_evrec *r = s->recs;

        s->recs = r->next;
        free(r);
    }
    free(s);
    c->sched = NULL;
}
