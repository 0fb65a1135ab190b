/*
 * L1D policy table: which misses allocate a line, which line a fill
 * evicts, and what a policy learns from hits, inserts and evictions. The
 * cache core (memsys/cache.c) owns tags, data state and MSHRs; a policy sees
 * lines only through struct pol_line_view and keeps its own state (counters,
 * tables) behind its opaque pointer.
 */
#ifndef PTXSIM_POLICIES_L1D_H
#define PTXSIM_POLICIES_L1D_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/err.h"
#include "memsys/req.h"

#define POL_L1D_NCOUNTERS 8

/*
 * A question about the SM's warp in slot `warp` at now that the warp
 * scheduler's SM monitor answers (policies/sm_view.h; CACP asks whether the
 * warp is critical): 1 yes, 0 no, -1 the scheduler cannot say.
 */
typedef int (*pol_l1d_critical_fn)(void *ctx, uint32_t warp, uint64_t now);

/* What the SM (or GPU) gives a policy besides the cache's shape. */
struct pol_l1d_link {
    uint32_t sm;                    /* owning SM, or UINT32_MAX for shared caches */
    uint32_t nsms;                  /* SMs of the GPU (set dueling across SMs) */
    void *shared;                   /* GPU-wide state from ops->shared_create, or NULL */
    pol_l1d_critical_fn warp_query; /* NULL outside an SM or without a monitor */
    void *warp_query_ctx;
};

/* Shape of the cache a policy instance serves. */
struct pol_l1d_params {
    uint32_t nsets, assoc, line_bytes;
    uint32_t sm;      /* owning SM (for set-dueling across SMs), or UINT32_MAX for shared caches */
    uint32_t nsms;    /* SMs of the GPU (0 when unknown) */
    void *shared;     /* GPU-wide state (ops->shared_create), or NULL */
    const char *args; /* text after "name:" in the option value, "" if none */
    void *state;      /* ops->state_size zeroed bytes (policies/create.h), or NULL */
    const void *cfg;  /* args parsed by ops->argspec (policies/create.h), during create */
    pol_l1d_critical_fn warp_query; /* NULL: no warp information (pol_l1d_link) */
    void *warp_query_ctx;
    /*
     * The policy's own statistics: POL_L1D_NCOUNTERS counters that live in
     * the cache's statistics (summed over SMs, per kernel and total, named by
     * ops->counter_names in the stats output). The policy increments them.
     */
    uint64_t *counters;
    /*
     * The policy's per-line state: nsets * assoc records of
     * ops->line_state_bytes zeroed bytes each, line (set, way) at record
     * set * assoc + way, kept by the cache for the cache's lifetime (NULL
     * when the table asks for none, or outside a cache: see
     * pol_l1d_line_state in policies/l1d_util.h). Only the policy writes it.
     */
    void *line_state;
};

/* Why a read could not allocate or merge (on_stall). */
enum pol_l1d_stall {
    POL_L1D_STALL_LINE,  /* every way of the set is reserved */
    POL_L1D_STALL_MSHR,  /* no free MSHR */
    POL_L1D_STALL_MISSQ, /* the miss queue is full */
    POL_L1D_STALL_MERGE, /* the line's MSHR entry has no free merge slot */
    POL_L1D_NSTALL
};

/* One line as the policy sees it. */
struct pol_line_view {
    uint64_t tag;  /* line address (addr / line_bytes) */
    bool valid;    /* holds data (some sector valid) */
    bool reserved; /* allocated and waiting for its fill: never a victim */
    bool dirty;
    uint64_t last_use;    /* cycle of the last hit or the fill */
    uint64_t insert_time; /* cycle of the allocation */
    uint16_t warp;        /* warp slot that allocated it */
    uint32_t pc;          /* instruction that allocated it */
    uint32_t hits;        /* hits since the allocation (saturating) */
    const void *state;    /* the policy's per-line state of this line (NULL: none) */
};

struct pol_argspec;

struct pol_l1d_ops {
    const char *name;
    const struct pol_argspec *argspec; /* its arguments (policies/args.h); NULL: none */
    /*
     * Bytes of private state that policies/create.c allocates (zeroed) and
     * hands create() as params->state, and frees after the optional
     * destroy() (which frees only what create allocated inside); create
     * returns it. Required: the registry refuses a table without it.
     */
    size_t state_size;
    /* Bytes of per-line state the cache keeps for the policy (params.line_state); 0 = none. */
    uint32_t line_state_bytes;
    /*
     * Optional GPU-wide state shared by the SMs' instances (set dueling),
     * made once per GPU before any create (p->sm is UINT32_MAX, counters
     * NULL) and handed to each create as p->shared.
     */
    void *(*shared_create)(const struct pol_l1d_params *p, struct ps_err *err);
    void (*shared_destroy)(void *shared);
    void *(*create)(const struct pol_l1d_params *p, struct ps_err *err);
    void (*destroy)(void *st);
    /*
     * A read missed in set `set` (no line, no MSHR for it): true = allocate a
     * line, false = bypass to the next level. Asked once per request: when
     * the allocation then fails for lack of resources and the request is
     * retried, the cache reuses the answer.
     */
    bool (*on_miss)(void *st, const struct mem_req *r, uint32_t set, uint64_t now);
    /*
     * Optional: a read the policy wanted cached cannot allocate (why), or a
     * read of a line already on its way finds no merge slot in its MSHR
     * (POL_L1D_STALL_MERGE; on_miss was not asked for it). true = send it
     * down uncached now (MRPB's stall-triggered bypass), false = fail the
     * access so that it is retried (the default when NULL). Asked again at
     * every retry.
     */
    bool (*on_stall)(void *st, const struct mem_req *r, uint32_t set, enum pol_l1d_stall why,
                     uint64_t now);
    /*
     * Way to (re)use in set: lines[0..assoc). Return assoc when every way is
     * reserved (the access then fails and is retried). Invalid ways should
     * be taken first. For a read miss that allocates, it is called after
     * on_miss for that request (on a retry, after the request's memoised
     * answer, with no other on_miss in between), so a policy may choose the
     * way from what on_miss saw; it may be called again for the same
     * request when the allocation fails and is retried.
     */
    uint32_t (*victim)(void *st, uint32_t set, const struct pol_line_view *lines, uint32_t assoc,
                       uint64_t now);
    /*
     * on_miss and victim read nothing but their arguments (victim not even
     * now) and change nothing: the cache may then answer a retried access
     * that failed, with nothing changed since, without asking them again.
     */
    bool choices_pure;
    /* Optional notifications (NULL = not wanted). */
    void (*on_hit)(void *st, const struct mem_req *r, uint32_t set, uint32_t way, uint64_t now);
    void (*on_insert)(void *st, const struct mem_req *r, uint32_t set, uint32_t way, uint64_t now);
    void (*on_evict)(void *st, const struct pol_line_view *line, uint32_t set, uint32_t way,
                     uint64_t now);
    /* A read merged into the pending miss of its line (a hit-reserved access, no new fetch). */
    void (*on_merge)(void *st, const struct mem_req *r, uint32_t set, uint64_t now);
    /*
     * Optional: a front-queue stage in front of this L1D (memsys/frontq.h;
     * MRPB's request reordering). The SM's LD/ST unit then puts each
     * global/local instruction's requests into FIFO queue (warp % *nqueues),
     * each holding up to *depth instructions, and the stage drains the
     * current queue until it is empty before moving to the next non-empty
     * one. *nqueues = 0: no stage (also when NULL).
     */
    void (*reorder)(const void *st, uint32_t *nqueues, uint32_t *depth);
    /* Names of the policy's counters (params.counters), NULL-terminated; NULL = none. */
    const char *const *counter_names;
    /* Writes the policy's state over time as CSV (NULL = nothing to write). */
    int (*dump)(const void *st, FILE *out, struct ps_err *err);
};

#endif
