/*
 * What the ccws warp scheduler (policies/ws_ccws.c) shows of itself beyond
 * its ops table (whose dump op writes the same counters and the series of
 * permitted warps as CSV): its counters and the score of a warp, for tests
 * and tools. The `st` argument is the pointer the table's create()
 * returned; passing any other scheduler's state is undefined.
 */
#ifndef PTXSIM_POLICIES_WS_CCWS_H
#define PTXSIM_POLICIES_WS_CCWS_H

#include <stdint.h>

/* Counters of one scheduler instance, running totals since create() unless noted. */
struct pol_ccws_stats {
    uint64_t vta_probes;            /* L1D misses of resident warps: each probes its warp's VTA */
    uint64_t vta_hits;              /* probes that found the line: lost intra-warp locality */
    uint64_t vta_inserts;           /* evicted lines put into the allocating warp's VTA */
    uint64_t evict_dropped;         /* evicted lines whose allocating warp has left the slot */
    uint64_t evict_redirected;      /* evictions put into a later merging warp's VTA (evict_to) */
    uint64_t store_victims;         /* store_miss=probe: lines a store miss's probe put in a VTA */
    uint64_t writes;                /* global stores seen (POL_MEM_L1_WRITE) */
    uint64_t vta_write_invalidated; /* VTA tags those stores removed (vta_write=invalidate) */
    uint64_t barrier_released;      /* decay=inst: cycles x barred warps let load for a barrier */
    uint64_t l1_hits;               /* L1D hits reported (not used by the mechanism) */
    uint64_t issued;                /* instructions issued (on_issue calls) */
    uint64_t cycles;                /* scheduler cycles seen (order() calls) */
    uint64_t throttled_cycles;      /* of those, cycles in which some warp was barred from loads */
    uint64_t loads_held;            /* may_issue refusals: a barred warp's global/local load */
    uint64_t active_sum;            /* sum over cycles of the active (resident) warps */
    uint64_t permitted_sum;         /* sum over cycles of the warps allowed to load */
    /* Eq. (1)'s counters since their last reset (a warp arriving at an idle scheduler). */
    uint64_t llds_hits, llds_insts;
    /* As of the last cycle. */
    uint32_t active, permitted, cutoff;
    uint32_t llds;      /* the last LLDS computed (at the last VTA hit), 0 before any */
    uint32_t max_score; /* the highest lost-locality score of a resident warp */
};

void pol_ws_ccws_stats(const void *st, struct pol_ccws_stats *out);

/* The lost-locality score of the warp in slot (0 for an empty slot), as of the last update. */
uint32_t pol_ws_ccws_score(const void *st, uint32_t slot);

#endif
