/*
 * The worker pool of the parallel phase (timing/parallel.h).
 *
 * One round: the caller publishes (fn, ctx, n), bumps the generation, and
 * takes indices from a shared atomic counter like every worker; the round
 * ends when `done` reaches n. Workers spin on the generation for a short
 * while (rounds come once per simulated cycle, microseconds apart), then
 * sleep on a condition variable, so that idle or descheduled workers do not
 * burn a core that another process needs.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "common/err.h"
#include "timing/iinfo.h"
#include "timing/parallel.h"
#include "timing/sm.h"

/* Polls of the generation before a worker sleeps (a few microseconds). */
#define SPIN_POLLS 4000u

struct tm_pool {
    uint32_t nthreads;
    pthread_t *tid;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    _Atomic uint64_t gen;      /* round number; workers wait for it to change */
    _Atomic uint32_t sleepers; /* workers asleep on cv */
    /*
     * The round's work in one word: round number (24 bits), index count
     * and next index to take (20 bits each). An index is taken by a
     * compare-and-swap of the whole word, so a worker late from an earlier
     * round can never take one of a later round; fn and ctx sit in the
     * round's parity slot, written before the word is published.
     */
    _Atomic uint64_t next;
    _Atomic uint32_t done; /* indices of this round finished */
    _Atomic int quit;
    _Atomic(tm_pool_fn) fn[2];
    _Atomic(void *) ctx[2];
};

#define IDX_BITS 20
#define IDX_MASK ((UINT64_C(1) << IDX_BITS) - 1)

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void take(struct tm_pool *p)
{
    uint64_t v = atomic_load_explicit(&p->next, memory_order_acquire);

    for (;;) {
        uint32_t i = (uint32_t)(v & IDX_MASK), n = (uint32_t)(v >> IDX_BITS & IDX_MASK);
        unsigned slot = (unsigned)(v >> (2 * IDX_BITS) & 1);
        tm_pool_fn fn;
        void *ctx;

        if (i >= n)
            return;
        fn = atomic_load_explicit(&p->fn[slot], memory_order_relaxed);
        ctx = atomic_load_explicit(&p->ctx[slot], memory_order_relaxed);
        if (!atomic_compare_exchange_weak_explicit(&p->next, &v, v + 1, memory_order_acq_rel,
                                                   memory_order_acquire))
            continue; /* taken by another, or a new round: v holds the word now */
        fn(ctx, i);
        atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
        v = atomic_load_explicit(&p->next, memory_order_acquire);
    }
}

static uint64_t wait_round(struct tm_pool *p, uint64_t seen)
{
    uint64_t g;

    for (uint32_t k = 0; k < SPIN_POLLS; k++) {
        if ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) != seen)
            return g;
        cpu_relax();
    }
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add(&p->sleepers, 1);
    while ((g = atomic_load(&p->gen)) == seen)
        pthread_cond_wait(&p->cv, &p->mu);
    atomic_fetch_sub(&p->sleepers, 1);
    pthread_mutex_unlock(&p->mu);
    return g;
}

static void *worker(void *arg)
{
    struct tm_pool *p = arg;
    uint64_t seen = 0;

    for (;;) {
        seen = wait_round(p, seen);
        if (atomic_load(&p->quit))
            return NULL;
        take(p);
    }
}

uint32_t tm_cpus_available(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;

    if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
        return (uint32_t)CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n > 0 ? (uint32_t)n : 1;
}

static void wake_all(struct tm_pool *p)
{
    if (atomic_load(&p->sleepers)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
}

struct tm_pool *tm_pool_create(uint32_t nthreads)
{
    struct tm_pool *p = calloc(1, sizeof(*p));

    if (!p)
        return NULL;
    p->nthreads = nthreads ? nthreads : 1;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    if (p->nthreads > 1 && !(p->tid = calloc(p->nthreads - 1, sizeof(*p->tid)))) {
        free(p);
        return NULL;
    }
    for (uint32_t i = 0; i + 1 < p->nthreads; i++)
        if (pthread_create(&p->tid[i], NULL, worker, p)) {
            p->nthreads = i + 1; /* fewer workers: still correct, only slower */
            break;
        }
    return p;
}

void tm_pool_destroy(struct tm_pool *p)
{
    if (!p)
        return;
    atomic_store(&p->quit, 1);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add(&p->gen, 1);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (uint32_t i = 0; i + 1 < p->nthreads; i++)
        pthread_join(p->tid[i], NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p->tid);
    free(p);
}

uint32_t tm_pool_threads(const struct tm_pool *p)
{
    return p ? p->nthreads : 1;
}

void tm_pool_run(struct tm_pool *p, tm_pool_fn fn, void *ctx, uint32_t n)
{
    uint64_t round;

    if (!p || p->nthreads < 2 || n < 2 || n > IDX_MASK) {
        for (uint32_t i = 0; i < n; i++)
            fn(ctx, i);
        return;
    }
    /* the previous round is over: every index taken and finished */
    round = (atomic_load_explicit(&p->next, memory_order_relaxed) >> (2 * IDX_BITS)) + 1;
    atomic_store_explicit(&p->fn[round & 1], fn, memory_order_relaxed);
    atomic_store_explicit(&p->ctx[round & 1], ctx, memory_order_relaxed);
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    atomic_store_explicit(&p->next, (round & 0xffffff) << (2 * IDX_BITS) | (uint64_t)n << IDX_BITS,
                          memory_order_release);
    atomic_fetch_add(&p->gen, 1); /* sequentially consistent against the sleepers count */
    wake_all(p);
    take(p);
    for (uint32_t k = 0; atomic_load_explicit(&p->done, memory_order_acquire) < n; k++) {
        cpu_relax();
        if (k >= SPIN_POLLS) /* a worker lost its core: let it run */
            sched_yield();
    }
}

/* ------------------------------------------------------- stepping the SMs */

/*
 * Cycles per timing window; windows run with the faster mode between
 * comparisons (RUN_WINDOWS, doubled up to RUN_WINDOWS_MAX while parallel keeps
 * losing); and the margin parallel must win by, since one window's wall time
 * on a loaded machine is noisy and a wrong "parallel" costs more than a wrong
 * "sequential" (a descheduled worker stalls every cycle of the run).
 */
#define WINDOW_CYCLES 4096u
#define RUN_WINDOWS 32u
#define RUN_WINDOWS_MAX 1024u
#define PAR_MARGIN 0.9

static double mono_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * On a loaded machine a parallel cycle waits for a preempted worker, and
 * threads make the run slower: compare a sequential window with a parallel
 * one now and then and run the faster.
 */
static void window_edge(struct tm_par *p)
{
    double t = mono_s(), el = t - p->t0;

    p->t0 = t;
    if (p->stage == 0) {
        p->t_seq = el;
        p->stage = 1;
    } else if (p->stage == 1) {
        p->fast = el < PAR_MARGIN * p->t_seq;
        if (p->fast)
            p->run = RUN_WINDOWS;
        else if (p->run < RUN_WINDOWS_MAX)
            p->run *= 2;
        p->stage = 2;
        p->left = p->run;
    } else if (!--p->left) {
        p->stage = 0;
    }
}

int tm_par_launch(struct tm_par *p, struct tm_sm **sm, uint32_t n, struct tm_itable *it,
                  uint32_t threads, bool allowed)
{
    p->adaptive = !threads;
    if (!threads)
        threads = tm_cpus_available();
    if (threads > n)
        threads = n;
    p->on = allowed && threads > 1;
    p->stage = 0;
    if (!p->run)
        p->run = RUN_WINDOWS / 2; /* the first loss brings it to RUN_WINDOWS */
    p->t0 = mono_s();
    if (p->pool && p->pid != (long)getpid())
        p->pool = NULL; /* forked: the workers stayed in the parent; this copy is not ours */
    if (p->on && !p->pool && (p->pid = (long)getpid(), !(p->pool = tm_pool_create(threads))))
        p->on = false; /* no threads: sequential, only slower */
    if (p->on && tm_pool_threads(p->pool) < 2)
        p->on = false;
    if (p->on && tm_itable_decode_all(it))
        return PS_ENOMEM;
    for (uint32_t i = 0; i < n; i++)
        tm_sm_set_parallel(sm[i], p->on);
    return 0;
}

struct cycle_ctx {
    struct tm_sm **sm;
    uint64_t now;
};

static void begin_one(void *ctx, uint32_t i)
{
    const struct cycle_ctx *c = ctx;

    tm_sm_cycle_begin(c->sm[i], c->now, true);
}

static void end_one(void *ctx, uint32_t i)
{
    const struct cycle_ctx *c = ctx;

    tm_sm_cycle_end(c->sm[i]);
}

int tm_par_cycle(struct tm_par *p, struct tm_sm **sm, uint32_t n, uint64_t now)
{
    struct cycle_ctx c = {sm, now};
    uint32_t awake = 0;
    bool threads;
    int rc;

    if (p->on && p->adaptive && !(now % WINDOW_CYCLES))
        window_edge(p);
    threads = p->on && (!p->adaptive || p->stage == 1 || (p->stage == 2 && p->fast));
    for (uint32_t i = 0; threads && i < n && awake < 2; i++)
        awake += tm_sm_awake(sm[i], now);
    if (awake < 2) { /* one SM or none at work: threads would only cost */
        for (uint32_t i = 0; i < n; i++)
            if ((rc = tm_sm_cycle(sm[i], now)))
                return rc;
        return 0;
    }
    tm_pool_run(p->pool, begin_one, &c, n);
    for (uint32_t i = 0; i < n; i++)
        if ((rc = tm_sm_cycle_ordered(sm[i], true))) {
            /* as sequentially: the SMs before it finish the cycle, those after never ran */
            for (uint32_t j = 0; j < i; j++)
                tm_sm_cycle_end(sm[j]);
            return rc;
        }
    tm_pool_run(p->pool, end_one, &c, n);
    return 0;
}

void tm_par_fini(struct tm_par *p)
{
    if (p->pool && p->pid == (long)getpid()) /* a forked child cannot join the parent's workers */
        tm_pool_destroy(p->pool);
    p->pool = NULL;
    p->on = false;
}
