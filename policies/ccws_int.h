/*
 * The insides of the ccws warp scheduler (policies/ws_ccws.c), shared with
 * its trace writer (policies/ccws_trace.c). Nothing else includes this.
 */
#ifndef PTXSIM_POLICIES_CCWS_INT_H
#define PTXSIM_POLICIES_CCWS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/err.h"
#include "policies/args.h"
#include "policies/ccws_vta.h"
#include "policies/series.h"
#include "policies/ws_ccws.h"

enum { REPL_FIFO, REPL_LRU };
enum { BOUNDARY_BEFORE, BOUNDARY_WITHIN };
enum { TIE_AGE, TIE_SLOT };
enum { RESET_LIVE, RESET_IDLE, RESET_NEVER };
enum { DECAY_CYCLE, DECAY_INST };
enum { WRITE_INVALIDATE, WRITE_KEEP };
enum { SHARE_SM, SHARE_SCHED };
enum { START_ZERO, START_BASE };
enum { VEXIT_KEEP, VEXIT_CLEAR };
enum { EEXIT_INSERT, EEXIT_DROP };
enum { MERGE_PROBE, MERGE_IGNORE };
enum { INDEX_HASH, INDEX_MOD };
enum { ATOMICS_HOLD, ATOMICS_FREE };
enum { EVICT_TO_SOURCE, EVICT_TO_ALLOC };
enum { STORE_MISS_PROBE, STORE_MISS_IGNORE };

#define CCWS_SRC_ENTRIES 4096u /* the source table: far more than an L1D's lines in flight */

/* Every option is a uint32_t; words-valued ones hold the index of the word. */
struct ccws_opts {
    uint32_t entries, assoc, repl, k, base, decay_period, boundary, tie, reclamp, reset;
    uint32_t decay, vta_write;
    uint32_t series_cap;
    uint32_t k_wsc, share, start, vta_exit, evict_exited, merge, vta_index, atomics, evict_to;
    uint32_t store_miss;
};

/* The options' table (ws_ccws.c), in the order the trace writes them. */
extern const struct pol_argspec pol_ccws_argspec;

struct ccws_warp {
    bool occupied;  /* a warp is in the slot */
    bool age_known; /* its age has been seen in a view */
    bool permitted; /* may issue global/local loads this cycle */
    bool done;      /* its last view was not valid: it has finished (not active) */
    bool used;      /* a warp held the slot before (start=zero: the next starts at 0) */
    uint64_t age;
    uint32_t lls;          /* lost-locality score */
    uint64_t issued, hits; /* its part of Eq. (1)'s counters (reset=live) */
};

struct ccws_point {
    uint64_t cycle;
    uint32_t active, permitted;
};

/*
 * The point system: scores, counters, VTAs and exclusive list. With
 * share=sm one per SM, shared by its schedulers (the authors' per-core
 * object); with share=sched, or without the SM's shared pointer, one per
 * scheduler over its own warps.
 */
struct ccws {
    struct ccws_opts o;
    uint32_t sm, max_warps;
    uint32_t refs;       /* schedulers using it */
    void **home;         /* the SM's shared pointer that holds it, or NULL */
    struct ccws_warp *w; /* [max_warps], by slot */
    struct pol_ccws_vta *vta;
    uint32_t *rank;    /* scratch: slots by score */
    uint32_t cut;      /* the cutoff the next evaluation uses (the last one's active x base) */
    bool evaluated;    /* eval_at is meaningful */
    uint64_t eval_at;  /* cycle of the last evaluation of the exclusive list */
    uint32_t resident; /* warps in its slots, from the events */
    /*
     * evict_to=source: the last slot that missed or merged on a line, in a
     * direct-mapped table by line (a collision forgets the older line, whose
     * eviction then goes to its allocator). Entries hold line + 1 (0: empty).
     */
    uint64_t *src_line;
    uint16_t *src_slot;
    bool anchored;     /* decay_at is meaningful */
    uint64_t decay_at; /* decay has been applied up to this cycle (decay=inst: instruction) */
    struct pol_ccws_stats st;
    uint64_t *hist;           /* [max_warps + 1]: cycles by permitted count */
    struct pol_series series; /* ccws_points: the changes of (active, permitted), oldest first */
    uint32_t last_active, last_permitted; /* as of the last cycle */
};

/* One scheduler's instance: its greedy warp, and the point system it uses. */
struct ccws_sched {
    struct ccws *c;
    uint32_t sched_id, nsched;
    bool shared; /* c is the SM's, shared with the other schedulers */
    uint32_t greedy_slot;
    uint64_t greedy_age;
};

/* One evaluated cycle into the counters and the series (ccws_trace.c). */
void pol_ccws_record(struct ccws *c, uint64_t now);

/* The dump op (ccws_trace.c). */
int pol_ccws_dump(const void *st, FILE *out, struct ps_err *err);

#endif
