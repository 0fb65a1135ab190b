/*
 * The worker pool of the parallel phase (timing/parallel.h).
 *
 * One round: the caller publishes (fn, ctx, n) and a new round number in
 * every thread's claim word. Thread t (the caller is 0) owns the stripe of
 * indices t, t + T, t + 2T, ... (T threads) and takes them from its claim
 * word, on a cache line of its own, so a round costs each thread a few
 * uncontended atomics instead of one contended one per index (rounds come
 * once per simulated cycle, microseconds apart, and with one shared counter
 * the cache-line traffic cost as much as the SMs' work). A thread done with
 * its stripe takes what is left of the others' (a descheduled worker does
 * not stall the round). The round ends when the threads' counts of indices
 * run add up to n; a worker publishes its count once, when it finds nothing
 * left to take, on a line of its own (counting index by index beside the
 * claim word, the worker's every increment missed the line the caller was
 * polling). Workers spin on their claim word for a short while, then sleep
 * on a condition variable, so that idle or descheduled workers do not burn a
 * core that another process needs.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/err.h"
#include "timing/iinfo.h"
#include "timing/parallel.h"
#include "timing/sm.h"

/* The thread's number in its pool (tm_pool_self): workers set theirs, callers keep 0. */
static _Thread_local uint32_t self;

/* Polls of its claim word before a worker sleeps (a few microseconds). */
#define SPIN_POLLS 4000u

/*
 * Thread t's stripe, alone on its cache line. `claim` holds the round number
 * (24 bits), the steps other threads took from the stripe's end and the next
 * step k of the stripe's owner from its front (20 bits each; step k is index
 * t + k * T). A step is taken by a compare-and-swap of the whole word, so a
 * thread late from an earlier round can never take one of a later round, and
 * the front and the back never take the same step; fn, ctx and the round's
 * index count sit in the round's parity slot beside it, written before the
 * word is published. A worker waits on its own claim word: a new round number
 * there starts its round, and what it needs to start is on that one line (one
 * miss to the caller's cache instead of a generation, then the claim word,
 * then the round's function, one after the other). `done` is the round number
 * (high 32 bits) and the indices this worker ran in it, stored when it has run
 * them (the caller counts its own); `round` and `ran` are the worker's copy.
 */
struct stripe {
    _Atomic uint64_t claim;
    _Atomic(tm_pool_fn) fn[2];
    _Atomic(void *) ctx[2];
    _Atomic uint32_t n[2]; /* the round's index count */
    _Alignas(64) _Atomic uint64_t done;
    uint32_t round, ran;
} __attribute__((aligned(64)));

struct tm_pool {
    uint32_t nthreads;
    uint32_t round; /* the caller's count of rounds */
    pthread_t *tid;
    struct stripe *st; /* nthreads of them */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    _Atomic uint32_t sleepers; /* workers asleep on cv */
    _Atomic int quit;
};

#define IDX_BITS 20
#define IDX_MASK ((UINT64_C(1) << IDX_BITS) - 1)
#define ROUND_MASK 0xffffffu

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/*
 * Runs what is left of thread q's stripe in round `round` (own: the caller
 * is q); returns how many it ran. The owner takes its stripe from the front,
 * the others take from the back (as in a work-stealing deque): the indices
 * a thread steals are then the same few from round to round, so the SMs they
 * name stay in its cache rather than moving between cores with whichever
 * index came next.
 */
static uint32_t take(struct tm_pool *p, uint32_t q, uint32_t round, bool own)
{
    struct stripe *s = &p->st[q];
    uint64_t v = atomic_load_explicit(&s->claim, memory_order_acquire);
    uint32_t ran = 0;

    for (;;) {
        uint32_t k = (uint32_t)(v & IDX_MASK), back = (uint32_t)(v >> IDX_BITS & IDX_MASK);
        unsigned slot = (unsigned)(v >> (2 * IDX_BITS) & 1);
        uint32_t n, len, step;
        tm_pool_fn fn;
        void *ctx;

        if ((uint32_t)(v >> (2 * IDX_BITS)) != round)
            return ran; /* a later round: its indices count there */
        n = atomic_load_explicit(&s->n[slot], memory_order_relaxed);
        len = q < n ? (n - q + p->nthreads - 1) / p->nthreads : 0;
        if (k + back >= len)
            return ran; /* all taken */
        step = own ? k : len - 1 - back;
        fn = atomic_load_explicit(&s->fn[slot], memory_order_relaxed);
        ctx = atomic_load_explicit(&s->ctx[slot], memory_order_relaxed);
        if (!atomic_compare_exchange_weak_explicit(&s->claim, &v,
                                                   own ? v + 1 : v + (UINT64_C(1) << IDX_BITS),
                                                   memory_order_acq_rel, memory_order_acquire))
            continue; /* taken by another, or a new round: v holds the word now */
        fn(ctx, q + step * p->nthreads);
        ran++;
        v = atomic_load_explicit(&s->claim, memory_order_acquire);
    }
}

/* Thread t's part of a round: its own stripe, then what the others left. */
static uint32_t take_all(struct tm_pool *p, uint32_t t, uint32_t round)
{
    uint32_t ran = 0;

    for (uint32_t j = 0; j < p->nthreads; j++)
        ran += take(p, (t + j) % p->nthreads, round, j == 0);
    return ran;
}

/* A worker's part of the round its own claim word names, and its count published. */
static void work(struct tm_pool *p, uint32_t t)
{
    struct stripe *me = &p->st[t];
    uint32_t round =
        (uint32_t)(atomic_load_explicit(&me->claim, memory_order_acquire) >> (2 * IDX_BITS));
    uint32_t ran = take_all(p, t, round);

    if (!ran)
        return;
    if (me->round == round) /* a second pass over the same round */
        ran += me->ran;
    me->round = round;
    me->ran = ran;
    atomic_store_explicit(&me->done, (uint64_t)round << 32 | ran, memory_order_release);
}

static uint32_t claim_round(const struct stripe *s)
{
    return (uint32_t)(atomic_load_explicit(&s->claim, memory_order_acquire) >> (2 * IDX_BITS));
}

/* The round after `seen` that the worker's claim word names, once there is one. */
static uint32_t wait_round(struct tm_pool *p, const struct stripe *me, uint32_t seen)
{
    uint32_t r;

    for (uint32_t k = 0; k < SPIN_POLLS; k++) {
        if ((r = claim_round(me)) != seen)
            return r;
        cpu_relax();
    }
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add(&p->sleepers, 1); /* sequentially consistent: pairs with tm_pool_run's fence */
    while ((r = claim_round(me)) == seen && !atomic_load(&p->quit))
        pthread_cond_wait(&p->cv, &p->mu);
    atomic_fetch_sub(&p->sleepers, 1);
    pthread_mutex_unlock(&p->mu);
    return r;
}

struct worker_arg {
    struct tm_pool *pool;
    uint32_t t;
};

static void *worker(void *arg)
{
    struct tm_pool *p = ((struct worker_arg *)arg)->pool;
    uint32_t t = ((struct worker_arg *)arg)->t;
    uint32_t seen = 0; /* round 0: the claim words' first value, no round yet */

    free(arg);
    self = t;
    for (;;) {
        seen = wait_round(p, &p->st[t], seen);
        if (atomic_load(&p->quit))
            return NULL;
        work(p, t);
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
    if (atomic_load_explicit(&p->sleepers, memory_order_relaxed)) {
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
    if (p->nthreads > IDX_MASK)
        p->nthreads = IDX_MASK;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->st = aligned_alloc(64, p->nthreads * sizeof(*p->st));
    if (!p->st || (p->nthreads > 1 && !(p->tid = calloc(p->nthreads - 1, sizeof(*p->tid))))) {
        free(p->st);
        free(p);
        return NULL;
    }
    for (uint32_t t = 0; t < p->nthreads; t++) {
        atomic_init(&p->st[t].claim, 0);
        for (int k = 0; k < 2; k++) {
            atomic_init(&p->st[t].fn[k], NULL);
            atomic_init(&p->st[t].ctx[k], NULL);
            atomic_init(&p->st[t].n[k], 0);
        }
        atomic_init(&p->st[t].done, (uint64_t)ROUND_MASK << 32); /* no round yet (round 0) */
        p->st[t].round = ROUND_MASK;
        p->st[t].ran = 0;
    }
    for (uint32_t i = 0; i + 1 < p->nthreads; i++) {
        struct worker_arg *a = malloc(sizeof(*a));

        if (a)
            *a = (struct worker_arg){p, i + 1};
        if (!a || pthread_create(&p->tid[i], NULL, worker, a)) {
            free(a);
            p->nthreads = i + 1; /* fewer workers: still correct, only slower */
            break;
        }
    }
    return p;
}

void tm_pool_destroy(struct tm_pool *p)
{
    if (!p)
        return;
    atomic_store(&p->quit, 1);
    pthread_mutex_lock(&p->mu);
    /* a new round number wakes a spinning worker too, which then sees quit */
    for (uint32_t t = 1; t < p->nthreads; t++)
        atomic_store(&p->st[t].claim, (uint64_t)((p->round + 1) & ROUND_MASK) << (2 * IDX_BITS));
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (uint32_t i = 0; i + 1 < p->nthreads; i++)
        pthread_join(p->tid[i], NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p->tid);
    free(p->st);
    free(p);
}

uint32_t tm_pool_self(void)
{
    return self;
}

uint32_t tm_pool_threads(const struct tm_pool *p)
{
    return p ? p->nthreads : 1;
}

/* Indices run in the current round: the caller's own and what the workers published. */
static uint32_t finished(struct tm_pool *p, uint32_t own)
{
    uint32_t sum = own;

    for (uint32_t t = 1; t < p->nthreads; t++) {
        uint64_t d = atomic_load_explicit(&p->st[t].done, memory_order_acquire);

        if ((uint32_t)(d >> 32) == p->round)
            sum += (uint32_t)d;
    }
    return sum;
}

void tm_pool_run(struct tm_pool *p, tm_pool_fn fn, void *ctx, uint32_t n)
{
    uint64_t word;
    uint32_t own;

    if (!p || p->nthreads < 2 || n < 2 || n > IDX_MASK) {
        for (uint32_t i = 0; i < n; i++)
            fn(ctx, i);
        return;
    }
    /* the previous round is over: every index taken and finished */
    p->round = (p->round + 1) & ROUND_MASK;
    word = (uint64_t)p->round << (2 * IDX_BITS);
    /*
     * Each stripe gets the round's function in its parity slot, then its claim
     * word, the caller's own published with its first step (index 0) taken.
     * Plain stores, and index 0 run at once, without a claim: a locked
     * instruction here waited for the lines the workers poll to come back (2%
     * of a memory-bound run at two threads); by the end of index 0 the stores
     * have long drained. Only then the fence that pairs with a worker's count
     * of sleepers (wait_round), and the wake-up.
     */
    for (uint32_t t = 0; t < p->nthreads; t++) {
        struct stripe *s = &p->st[t];

        atomic_store_explicit(&s->fn[p->round & 1], fn, memory_order_relaxed);
        atomic_store_explicit(&s->ctx[p->round & 1], ctx, memory_order_relaxed);
        atomic_store_explicit(&s->n[p->round & 1], n, memory_order_relaxed);
        atomic_store_explicit(&s->claim, word + (t == 0), memory_order_release);
    }
    fn(ctx, 0);
    atomic_thread_fence(memory_order_seq_cst);
    wake_all(p);
    own = 1 + take_all(p, 0, p->round);
    for (uint32_t k = 0; finished(p, own) < n; k++) {
        cpu_relax();
        if (k >= SPIN_POLLS) /* a worker lost its core in the middle of an index: let it run */
            sched_yield();
    }
}

/* ------------------------------------------------------- stepping the SMs */

/* SMs a thread's marks name: up to 256, beyond that every SM takes the ordered part. */
#define MARK_WORDS 4u

/* An SM's instruction counts of one cycle, for its launch (tm_sm_take_counts). */
struct tm_par_count {
    struct isa_launch *L;
    uint64_t warp_insts, thread_insts;
    uint32_t sm;
};

/*
 * Per thread: the SMs it ran that need the ordered part (a bit each), and
 * the counts of those that do not, which run_ordered adds in SM order.
 */
struct tm_par_marks {
    uint64_t w[MARK_WORDS];
    uint32_t ncounts;
    struct tm_par_count counts[64 * MARK_WORDS];
} __attribute__((aligned(64)));

/*
 * Cycles per timing window; windows run with the faster mode between
 * comparisons (RUN_WINDOWS, doubled up to RUN_WINDOWS_MAX while parallel keeps
 * losing, and up to WIN_WINDOWS_MAX while it keeps winning: each comparison
 * runs two windows without the threads); and the margin parallel must win
 * by, since one window's wall time on a loaded machine is noisy and a wrong
 * "parallel" costs more than a wrong "sequential" (a descheduled worker
 * stalls every cycle of the run).
 */
#define WINDOW_CYCLES 4096u
#define RUN_WINDOWS 32u
#define RUN_WINDOWS_MAX 1024u
#define WIN_WINDOWS_MAX 256u
#define PAR_MARGIN 0.95
/* Cycles stepped sequentially, without looking, once fewer than two SMs hold CTAs. */
#define SEQ_CYCLES 64u

static double mono_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * On a loaded machine a parallel cycle waits for a preempted worker, and
 * threads make the run slower: compare sequential windows with parallel ones
 * now and then and run the faster. A comparison times four windows in the
 * order sequential, parallel, parallel, sequential, so a cost that grows or
 * shrinks steadily along them (a kernel's ramp, its CTAs' phases) weighs on
 * both modes alike; one window against the next read a kernel whose cycles
 * got dearer as a loss for the threads, and each loss doubled the stretch
 * run without them (kmeans `paper`: 24.3 s for 5 M cycles against 18.2 s
 * with the threads forced on).
 */
static void window_edge(struct tm_par *p)
{
    double t = mono_s(), el = t - p->t0;

    p->t0 = t;
    switch (p->stage) {
    case 0:
        p->t_seq = el;
        p->t_par = 0;
        p->stage = 1;
        break;
    case 1:
        p->t_par = el;
        p->stage = 2;
        break;
    case 2:
        p->t_par += el;
        p->stage = 3;
        break;
    case 3:
        p->t_seq += el;
        p->fast = p->t_par < PAR_MARGIN * p->t_seq;
        if (p->fast) {
            p->run = RUN_WINDOWS; /* a loss after this one starts the doubling over */
            p->win_run = !p->win_run                    ? RUN_WINDOWS
                         : p->win_run < WIN_WINDOWS_MAX ? 2 * p->win_run
                                                        : p->win_run;
            p->left = p->win_run;
        } else {
            p->win_run = 0;
            if (p->run < RUN_WINDOWS_MAX)
                p->run *= 2;
            p->left = p->run;
        }
        p->stage = 4;
        break;
    default:
        if (!--p->left)
            p->stage = 0;
    }
}

/* Whether this window runs with the threads (adaptive: see window_edge). */
static bool par_window(const struct tm_par *p)
{
    return !p->adaptive || p->stage == 1 || p->stage == 2 || (p->stage == 4 && p->fast);
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
    p->seq_until = 0;
    if (!p->run)
        p->run = RUN_WINDOWS / 2; /* the first loss brings it to RUN_WINDOWS */
    p->t0 = mono_s();
    if (p->pool && p->pid != (long)getpid())
        p->pool = NULL; /* forked: the workers stayed in the parent; this copy is not ours */
    if (p->on && !p->pool && (p->pid = (long)getpid(), !(p->pool = tm_pool_create(threads))))
        p->on = false; /* no threads: sequential, only slower */
    if (p->on && tm_pool_threads(p->pool) < 2)
        p->on = false;
    if (p->on && !p->marks) {
        p->nmarks = tm_pool_threads(p->pool);
        p->marks = aligned_alloc(64, p->nmarks * sizeof(*p->marks));
        if (p->marks)
            memset(p->marks, 0, p->nmarks * sizeof(*p->marks));
        else
            p->nmarks = 0; /* no marks: every SM takes the ordered part, only slower */
    }
    if (p->on && tm_itable_decode_all(it))
        return PS_ENOMEM;
    for (uint32_t i = 0; i < n; i++)
        tm_sm_set_parallel(sm[i], p->on);
    return 0;
}

struct cycle_ctx {
    struct tm_sm **sm;
    uint32_t n, stride; /* SMs; the pool's threads (a thread's next index is this far on) */
    uint64_t now;
    void (*side)(void *ctx, bool beside); /* index 0 when set, the SMs from 1 */
    void *side_ctx;
    struct tm_par_marks *marks; /* NULL: no marking */
};

static void begin_one(void *ctx, uint32_t i)
{
    const struct cycle_ctx *c = ctx;

    if (c->side && !i--) {
        c->side(c->side_ctx, true);
        return;
    }
    if (i + c->stride < c->n)
        tm_sm_prefetch_begin(c->sm[i + c->stride]);
    tm_sm_cycle_begin(c->sm[i], c->now, true);
    /* its end waits for the next round (or a settle); marked here, on the SM's own thread,
     * the caller does not write every SM's line between rounds */
    tm_sm_cycle_end_later(c->sm[i]);
    if (c->marks) {
        struct tm_par_marks *m = &c->marks[tm_pool_self()];
        struct tm_par_count *k = &m->counts[m->ncounts];

        if (tm_sm_needs_ordered(c->sm[i]))
            m->w[i / 64] |= 1ull << (i % 64);
        else if (tm_sm_take_counts(c->sm[i], &k->L, &k->warp_insts, &k->thread_insts))
            k->sm = i, m->ncounts++;
    }
}

/* The counts the round's threads took (the SMs without an ordered part), by SM. */
static uint32_t gather_counts(struct tm_par *p, const struct cycle_ctx *c,
                              struct tm_par_count **out)
{
    uint32_t n = 0;

    for (uint32_t t = 0; t < tm_pool_threads(p->pool); t++) {
        for (uint32_t j = 0; j < c->marks[t].ncounts; j++) {
            struct tm_par_count *x = &c->marks[t].counts[j];
            uint32_t k = n++;

            for (; k > 0 && out[k - 1]->sm > x->sm; k--) /* insertion: a few, mostly in order */
                out[k] = out[k - 1];
            out[k] = x;
        }
        c->marks[t].ncounts = 0;
    }
    return n;
}

static void add_counts(const struct tm_par_count *x)
{
    x->L->warp_insts += x->warp_insts;
    x->L->thread_insts += x->thread_insts;
}

void tm_par_settle_side(struct tm_par *p)
{
    void (*fn)(void *, bool) = p->side;

    if (!fn)
        return;
    p->side = NULL;
    fn(p->side_ctx, false);
}

void tm_par_defer(struct tm_par *p, void (*fn)(void *ctx, bool beside), void *ctx)
{
    tm_par_settle_side(p);
    p->side = fn;
    p->side_ctx = ctx;
}

static void end_one(void *ctx, uint32_t i)
{
    const struct cycle_ctx *c = ctx;

    tm_sm_settle(c->sm[i]); /* not twice: one SM may have settled alone (a CTA launch) */
}

/* Runs the last part of the SMs' previous cycle where it still waits. */
void tm_par_settle(struct tm_par *p, struct tm_sm **sm, uint32_t n)
{
    struct cycle_ctx c = {sm, n, tm_pool_threads(p->pool), 0, NULL, NULL, NULL};

    tm_par_settle_side(p);
    if (!p->pending)
        return;
    p->pending = false;
    tm_pool_run(p->pool, end_one, &c, n);
}

/*
 * The ordered part, in SM order, of the SMs the round marked (all of them
 * without marks): the others' ordered part would change nothing.
 */
static int run_ordered(struct tm_par *p, const struct cycle_ctx *c, bool *wrote)
{
    uint64_t todo[MARK_WORDS] = {0};
    uint32_t nw = (c->n + 63) / 64, i = 0, ncounts, next = 0;
    struct tm_par_count *counts[64 * MARK_WORDS];
    int rc;

    if (!c->marks) { /* every SM, one by one */
        for (i = 0; i < c->n; i++)
            tm_sm_prefetch_ordered(c->sm[i]);
        for (i = 0; i < c->n; i++)
            if ((rc = tm_sm_cycle_ordered(c->sm[i], true, wrote)))
                goto fail;
        return 0;
    }
    for (uint32_t t = 0; t < tm_pool_threads(p->pool); t++)
        for (uint32_t w = 0; w < nw; w++) {
            todo[w] |= c->marks[t].w[w];
            c->marks[t].w[w] = 0;
        }
    /*
     * The counts of the SMs before each one join the launch before its
     * ordered part, as sequentially (an instruction reading %globaltimer
     * there sees them); those after the last, at the end.
     */
    ncounts = gather_counts(p, c, counts);
    for (uint32_t w = 0; w < nw; w++)
        for (uint64_t b = todo[w]; b; b &= b - 1)
            tm_sm_prefetch_ordered(c->sm[w * 64 + (uint32_t)__builtin_ctzll(b)]);
    for (uint32_t w = 0; w < nw; w++)
        for (uint64_t b = todo[w]; b; b &= b - 1) {
            i = w * 64 + (uint32_t)__builtin_ctzll(b);
            for (; next < ncounts && counts[next]->sm < i; next++)
                add_counts(counts[next]);
            if ((rc = tm_sm_cycle_ordered(c->sm[i], true, wrote)))
                goto fail;
        }
    for (; next < ncounts; next++)
        add_counts(counts[next]);
    return 0;
fail:
    /* as sequentially: the SMs before it finish the cycle, those after never ran */
    for (uint32_t j = 0; j < i; j++)
        tm_sm_cycle_end(c->sm[j]);
    for (uint32_t j = i; j < c->n; j++)
        tm_sm_cycle_end_cancel(c->sm[j]);
    return rc;
}

int tm_par_cycle(struct tm_par *p, struct tm_sm **sm, uint32_t n, uint64_t now)
{
    struct cycle_ctx c = {sm, n, tm_pool_threads(p->pool), now, NULL, NULL, NULL};
    uint32_t awake = 0, busy = 0;
    bool threads, wrote = false; /* tm_sm_cycle_ordered: an SM ahead may have written */
    int rc;

    if (p->on && p->adaptive && !(now % WINDOW_CYCLES))
        window_edge(p);
    threads = p->on && par_window(p) && now >= p->seq_until;
    for (uint32_t i = 0; threads && i < n && awake < 2; i++)
        awake += tm_sm_awake(sm[i], now);
    if (awake < 2) {
        /* With CTAs on fewer than two SMs (a one-CTA kernel, a kernel's tail) that stays so
         * for a while: do not look again for SEQ_CYCLES. */
        for (uint32_t i = 0; threads && i < n && busy < 2; i++)
            busy += tm_sm_ctas(sm[i]) > 0;
        if (threads && busy < 2)
            p->seq_until = now + SEQ_CYCLES;
    }
    /* One SM or none at work: threads would only cost, unless the others hold CTAs but
     * sleep on memory and the partitions' ticks (the side task) can run beside the one. */
    if (awake < 2 && !(threads && busy >= 2 && awake == 1 && p->side)) {
        tm_par_settle(p, sm, n);
        for (uint32_t i = 0; i < n; i++) {
            if (i + 1 < n)
                tm_sm_prefetch_begin(sm[i + 1]);
            if ((rc = tm_sm_cycle(sm[i], now)))
                return rc;
        }
        return 0;
    }
    /* each SM's begin runs its last cycle's end first (tm_sm_cycle_begin); the side work
     * goes first, its thread then taking SMs like any other */
    p->pending = false;
    c.side = p->side;
    c.side_ctx = p->side_ctx;
    p->side = NULL;
    if (p->marks && n <= 64 * MARK_WORDS && tm_pool_threads(p->pool) <= p->nmarks)
        c.marks = p->marks;
    tm_pool_run(p->pool, begin_one, &c, n + (c.side != NULL));
    if ((rc = run_ordered(p, &c, &wrote)))
        return rc;
    /* each SM's end waits for the next cycle's round, or for tm_par_settle (begin_one) */
    p->pending = true;
    return 0;
}

void tm_par_fini(struct tm_par *p)
{
    /* the GPU settled its SMs when its loop ended */
    p->pending = false;
    if (p->pool && p->pid == (long)getpid()) /* a forked child cannot join the parent's workers */
        tm_pool_destroy(p->pool);
    p->pool = NULL;
    free(p->marks);
    p->marks = NULL;
    p->nmarks = 0;
    p->on = false;
}
