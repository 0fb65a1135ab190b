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
#include <stdint.h>

#include "common/err.h"
#include "memsys/req.h"

/* Shape of the cache a policy instance serves. */
struct pol_l1d_params {
    uint32_t nsets, assoc, line_bytes;
    uint32_t sm;       /* owning SM (for set-dueling across SMs), or UINT32_MAX for shared caches */
    const char *args;  /* text after "name:" in the option value, "" if none */
};

/* One line as the policy sees it. */
struct pol_line_view {
    uint64_t tag;         /* line address (addr / line_bytes) */
    bool valid;           /* holds data (some sector valid) */
    bool reserved;        /* allocated and waiting for its fill: never a victim */
    bool dirty;
    uint64_t last_use;    /* cycle of the last hit or the fill */
    uint64_t insert_time; /* cycle of the allocation */
    uint16_t warp;        /* warp slot that allocated it */
    uint32_t pc;          /* instruction that allocated it */
};

struct pol_l1d_ops {
    const char *name;
    void *(*create)(const struct pol_l1d_params *p, struct ps_err *err);
    void (*destroy)(void *st);
    /* A read missed in set `set`: true = allocate a line, false = bypass to the next level. */
    bool (*on_miss)(void *st, const struct mem_req *r, uint32_t set, uint64_t now);
    /*
     * Way to (re)use in set: lines[0..assoc). Return assoc when every way is
     * reserved (the access then fails and is retried). Invalid ways should
     * be taken first.
     */
    uint32_t (*victim)(void *st, uint32_t set, const struct pol_line_view *lines, uint32_t assoc,
                       uint64_t now);
    /* Optional notifications (NULL = not wanted). */
    void (*on_hit)(void *st, const struct mem_req *r, uint32_t set, uint32_t way, uint64_t now);
    void (*on_insert)(void *st, const struct mem_req *r, uint32_t set, uint32_t way, uint64_t now);
    void (*on_evict)(void *st, const struct pol_line_view *line, uint32_t set, uint32_t way,
                     uint64_t now);
};

#endif
