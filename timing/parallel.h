#ifndef PTXSIM_TIMING_PARALLEL_H
#define PTXSIM_TIMING_PARALLEL_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A pool of worker threads for the timing model's parallel phase: the
 * caller and the workers run fn(ctx, i) for every i < n, each index once,
 * and tm_pool_run returns when all are done. Which thread runs which index
 * does not matter to the results (each index touches only its own state).
 * Workers wait by spinning briefly, then sleep, so a loaded machine loses
 * little to them.
 */
struct tm_pool;

typedef void (*tm_pool_fn)(void *ctx, uint32_t i);

/* nthreads counts the caller: 1 gives a pool without workers. NULL when out of memory. */
struct tm_pool *tm_pool_create(uint32_t nthreads);
void tm_pool_destroy(struct tm_pool *p);
uint32_t tm_pool_threads(const struct tm_pool *p);
void tm_pool_run(struct tm_pool *p, tm_pool_fn fn, void *ctx, uint32_t n);
/* The calling thread's number in its pool: 0 for the caller, 1.. for the workers. */
uint32_t tm_pool_self(void);

/* The processors this process may run on (its affinity mask), at least 1. */
uint32_t tm_cpus_available(void);


/* ---- stepping the SMs of one GPU (the pool above, plus the rules of a parallel cycle) ---- */
struct tm_sm;
struct tm_itable;

struct tm_par {
    struct tm_pool *pool; /* created at the first launch that can use it */
    bool on;              /* this launch steps its SMs in parallel */
    long pid;             /* the process that created the pool (a forked child has no workers) */
    /*
     * Threads only where they pay (tm_par_cycle): windows of cycles timed
     * sequential, parallel, parallel, sequential, then the faster for a
     * while. Both give the same results, so this choice by wall-clock time
     * changes no figure.
     */
    bool adaptive; /* -ptxsim_threads 0 (automatic); N > 1 always uses the threads */
    int stage;     /* 0-3: timing the four windows, 4: running the faster */
    bool fast;     /* stage 4: parallel was faster */
    uint32_t left; /* windows of stage 4 before the next comparison */
    uint32_t run;  /* stage-4 length: doubles each time parallel loses (a loaded machine) */
    uint32_t win_run;        /* ... and each time it wins again (0: it lost last) */
    double t0, t_seq, t_par; /* the comparison's sequential and parallel windows, summed */
    bool pending;       /* the SMs' last parallel cycle left its end part for later */
    uint64_t seq_until; /* fewer than two SMs held CTAs: sequential until this cycle */
    /* Work beside the SMs (tm_par_defer): runs in the next cycle's round or at a settle. */
    void (*side)(void *ctx, bool beside);
    void *side_ctx;
    /*
     * Per thread of the pool, on a line of its own: the SMs whose first
     * part, run by that thread, left work for the ordered part (a bit per
     * SM; NULL, or more SMs than bits: every SM goes through it).
     */
    struct tm_par_marks *marks;
    uint32_t nmarks;
};

/*
 * Before each launch: `threads` is -ptxsim_threads (0: the processors
 * available, used only while they make the run faster); `allowed` is false when GPU-wide state
 * would be touched in the SMs' cycle (an L1D policy's shared state, the L1D trace, the warp
 * profile, per-line statistics). Marks the SMs and decodes the kernel's
 * instructions up front. 0 or PS_ENOMEM.
 */
int tm_par_launch(struct tm_par *p, struct tm_sm **sm, uint32_t n, struct tm_itable *it,
                  uint32_t threads, bool allowed);
/*
 * One core cycle of the n SMs, the same as tm_sm_cycle for each in order,
 * except that a parallel cycle leaves each SM's last part (tm_sm_cycle_end)
 * pending: the next cycle's parallel round runs it, so the SMs are handed
 * over once per cycle. Between cycles, whoever reads an SM's counters,
 * caches, warps or CTA slots first calls tm_par_settle (all SMs) or
 * tm_sm_settle (one).
 */
int tm_par_cycle(struct tm_par *p, struct tm_sm **sm, uint32_t n, uint64_t now);
void tm_par_settle(struct tm_par *p, struct tm_sm **sm, uint32_t n);
/*
 * Side work that touches nothing an SM's cycle reads or writes (the memory
 * partitions behind the interconnect: timing/gpu.c): fn(ctx, true) runs as
 * one more task of the next tm_par_cycle's round, beside the SMs' next
 * cycle, or fn(ctx, false) at tm_par_settle_side / tm_par_settle, whichever
 * comes first. At most one is pending; deferring another runs the first now.
 */
void tm_par_defer(struct tm_par *p, void (*fn)(void *ctx, bool beside), void *ctx);
void tm_par_settle_side(struct tm_par *p);
void tm_par_fini(struct tm_par *p);

#endif
