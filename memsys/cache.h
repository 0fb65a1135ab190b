/*
 * A set-associative cache with MSHRs and a miss queue, configured by a
 * GPGPU-Sim cache string, used for the L1D, L1I, L1C and the L2 slices.
 *
 * The owner drives it: mem_cache_access() looks a request up; misses and
 * write-throughs are queued for the next level (mem_cache_pop_miss); when
 * the next level answers a line request, mem_cache_fill() installs the line
 * and every request merged into that MSHR comes back out of
 * mem_cache_pop_ready(). Replacement and bypass decisions go through a
 * policies/l1d.h table (LRU when none is given).
 */
#ifndef PTXSIM_MEMSYS_CACHE_H
#define PTXSIM_MEMSYS_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/err.h"
#include "memsys/req.h"
#include "policies/l1d.h"

/*
 * "<kind>:<nsets>:<line>:<assoc>,<repl>:<wpol>:<alloc>:<walloc>:<index>,<mshr>:<entries>:<merge>,<missq>[:<fifo>][,<port>]"
 * kind N normal / S sectored; repl L LRU / F FIFO; wpol R read-only, B write-back, T
 * write-through, E write-evict, L local write-back + global write-evict; alloc m on miss /
 * f on fill / s streaming; walloc N none, W write-allocate, F fetch-on-write, L lazy fetch
 * on read; index L linear, H Fermi hash, P/X ipoly/xor hashes; mshr A/S associative, T texture FIFO.
 */
struct mem_cache_geom {
    char kind;
    uint32_t nsets, line_bytes, assoc;
    char repl, wpol, alloc, walloc, index;
    char mshr_kind;
    uint32_t mshr_entries, mshr_max_merge;
    uint32_t miss_queue;
    uint32_t result_fifo;
    uint32_t data_port; /* bytes per cycle, 0 = not given */
};

/*
 * Parses s into *g (left untouched on error). PS_EPARSE with the column and
 * the expected field for malformed text, PS_EINVAL (from the check below)
 * for well-formed but impossible shapes.
 */
int mem_cache_geom_parse(const char *s, struct mem_cache_geom *g, struct ps_err *err);
/*
 * Checks a geometry filled by hand: sets, ways, MSHRs, merge and miss queue
 * at least 1, a power-of-two line, 128-byte lines for 'S', known letters.
 * 0 or PS_EINVAL.
 */
int mem_cache_geom_check(const struct mem_cache_geom *g, struct ps_err *err);
/* Capacity in bytes. */
uint64_t mem_cache_geom_bytes(const struct mem_cache_geom *g);
/* Set of the line holding byte addr, by the geometry's index function. */
uint32_t mem_cache_geom_set_index(const struct mem_cache_geom *g, uint64_t addr);

enum mem_cache_result {
    MEM_HIT,          /* data present: the owner completes the request after its hit latency */
    MEM_HIT_RESERVED, /* the line is on its way: merged into its MSHR, comes back through pop_ready */
    MEM_MISS,         /* MSHR allocated, a line request queued for the next level */
    MEM_SENT,         /* passed to the next level without allocating: a write-through or a
                         write that does not allocate, a .cg/.cs load, or a bypassed miss. A read
                         sent this way still comes back through pop_ready after fill(). */
    MEM_RESFAIL,      /* no MSHR, merge slot, miss-queue entry or free way: nothing changed, retry */
};

/* Counters a replacement policy keeps in the cache's statistics (POL_L1D_NCOUNTERS). */
#define MEM_CACHE_POL_COUNTERS POL_L1D_NCOUNTERS

struct mem_cache_stats {
    uint64_t accesses, reads, writes;
    uint64_t hits, misses;        /* misses include hit_reserved */
    uint64_t hits_intra;          /* hits on a line the same warp allocated (intra-warp locality) */
    uint64_t hit_reserved;        /* merged into a pending MSHR */
    uint64_t sent;                /* MEM_SENT results (bypasses and write-throughs) */
    uint64_t bypassed;            /* reads the policy chose not to allocate */
    uint64_t resfail, resfail_mshr, resfail_merge, resfail_missq, resfail_line;
    uint64_t fills, evictions, writebacks;
    uint64_t evict_noreuse;       /* valid lines evicted without a hit since their allocation */
    uint64_t stall_bypassed;      /* reads sent down uncached when they could not allocate */
    uint64_t uncached;            /* L1: .cg reads and atomics passed down; not accesses (GPGPU-Sim) */
    uint64_t rd_hits, rd_hit_reserved;    /* the reads among hits and hit_reserved */
    uint64_t pol[MEM_CACHE_POL_COUNTERS]; /* the replacement policy's own counters */
};

struct mem_cache;

/* pol NULL = LRU (or FIFO when repl is 'F'). sm: owning SM or UINT32_MAX. */
struct mem_cache *mem_cache_create(const struct mem_cache_geom *g, const char *name,
                                   const struct pol_l1d_ops *pol, const char *pol_args,
                                   uint32_t sm, struct ps_err *err);
/* The same for an SM's L1D, with what the policy may use besides its shape (policies/l1d.h). */
struct mem_cache *mem_cache_create_linked(const struct mem_cache_geom *g, const char *name,
                                          const struct pol_l1d_ops *pol, const char *pol_args,
                                          const struct pol_l1d_link *link, struct ps_err *err);
void mem_cache_destroy(struct mem_cache *c);
/* Names of the policy's counters in stats.pol (NULL-terminated), or NULL. */
const char *const *mem_cache_policy_counter_names(const struct mem_cache *c);
/* The reordering queues the policy wants in front of the cache (policies/l1d.h reorder; 0 = none). */
void mem_cache_policy_reorder(const struct mem_cache *c, uint32_t *nqueues, uint32_t *depth);
/* The policy's state over time as CSV (nothing when it has no dump). */
int mem_cache_policy_dump(const struct mem_cache *c, FILE *out, struct ps_err *err);

/*
 * Sets take their index from fn(ctx, addr) instead of the address itself
 * (tags stay full line addresses). An L2 slice uses the partition address,
 * from which the channel and sub-partition bits are removed.
 */
void mem_cache_set_index_fn(struct mem_cache *c, uint64_t (*fn)(const void *ctx, uint64_t addr),
                            const void *ctx);

/*
 * Something that wants to see the cache's traffic (an SM forwarding it to a
 * warp scheduler that learns from it): every counted access (MEM_OBS_HIT or
 * MEM_OBS_MISS, r the request), and every eviction of a valid line
 * (MEM_OBS_EVICT, line and the warp that allocated it; r describes the line
 * as the request that allocated it, its t_issue the allocation cycle, so an
 * observer can tell a slot's earlier warp from its current one). A read
 * merging into a pending MSHR is MEM_OBS_MERGE (GPGPU-Sim's L1D answers it
 * MISS; an observer may treat it as one). A store that misses and goes on
 * without allocating is MEM_OBS_STORE_MISS, told through the line GPGPU-Sim's
 * tag probe picks for it (a read miss would replace it; nothing is evicted):
 * warp is the storing warp, line and r the line as MEM_OBS_EVICT gives one,
 * either the set's least recently used valid line (none reported while the
 * set has a free way or only reserved ones), or the store's own line when it
 * is being fetched (r->type MEM_WRITE then: a line with no contents yet).
 * CCWS's authors' code hooks every L1D MISS, stores included.
 */
enum mem_obs_kind { MEM_OBS_HIT, MEM_OBS_MISS, MEM_OBS_EVICT, MEM_OBS_MERGE, MEM_OBS_STORE_MISS };
typedef void (*mem_cache_observer)(void *ctx, enum mem_obs_kind kind, const struct mem_req *r,
                                   uint64_t line, uint16_t warp, uint64_t now);
void mem_cache_set_observer(struct mem_cache *c, mem_cache_observer fn, void *ctx);

enum mem_cache_result mem_cache_access(struct mem_cache *c, const struct mem_req *r, uint64_t now);

/* Next request for the next level (line fills, sent reads, writes, write-backs of dirty lines). */
/*
 * r, retried now, would fail as it did last time, changing nothing but the
 * failure counts, and keeps doing so until an access succeeds, a line is
 * filled or flushed, or (for a failure for lack of miss-queue room) a miss
 * is popped. Only for policies whose choices are pure (policies/l1d.h).
 */
bool mem_cache_fails_again(const struct mem_cache *c, const struct mem_req *r);
/* Counts n more of the failure mem_cache_fails_again vouches for (retries not simulated). */
void mem_cache_count_failures(struct mem_cache *c, uint64_t n);
const struct mem_req *mem_cache_peek_miss(const struct mem_cache *c);
bool mem_cache_pop_miss(struct mem_cache *c, struct mem_req *out);

/*
 * The next level answered r (a read that pop_miss produced). Reads sent down
 * carry the cache's own token in uid (the original uid comes back through
 * pop_ready), so r must be handed back with uid intact; unknown or repeated
 * uids are ignored.
 */
void mem_cache_fill(struct mem_cache *c, const struct mem_req *r, uint64_t now);

/* Requests satisfied by fills, in fill order then merge order. */
bool mem_cache_pop_ready(struct mem_cache *c, struct mem_req *out);

/* Pending MSHRs or queued misses: the cache is not quiescent. */
bool mem_cache_busy(const struct mem_cache *c);

/* Drops every clean line; dirty lines are queued as write-backs (kernel end for the L1D). */
void mem_cache_invalidate(struct mem_cache *c);
/*
 * Whether write r, if c accepts it now, goes on to the next level: write-
 * through hits, and misses without write-allocate or under write-through.
 */
bool mem_cache_forwards_write(struct mem_cache *c, const struct mem_req *r);
/*
 * Marks the sectors `mask` of addr's line present, as if data had passed
 * through the cache outside a kernel (GPGPU-Sim's -gpgpu_perf_sim_memcpy:
 * host copies update the L2's tags). A missing line takes the policy's
 * victim, dropped without a write-back (the copy moves no simulated
 * traffic); a line with a fetch in flight, or a set with every way
 * reserved, is left alone.
 */
void mem_cache_warm(struct mem_cache *c, uint64_t addr, uint8_t mask, uint64_t now);

const struct mem_cache_stats *mem_cache_get_stats(const struct mem_cache *c);
const struct mem_cache_geom *mem_cache_get_geom(const struct mem_cache *c);

#endif
