/*
 * Trace-driven L1D miss counts for the CCWS paper's "-BEL" bars (Rogers et
 * al., MICRO 2012, section 5; seed 004 section 4.5, oracles 28-30): a
 * stand-alone set-associative cache replays a line-address trace recorded
 * from a timing run, once with Belady's optimal replacement (on a miss in a
 * full set, evict the line whose next read is furthest away, never read
 * again counting as infinitely far) and once with LRU, which validates the
 * replay against the timing model's own LRU L1D.
 *
 * The trace is one uint64_t per L1D request, in the order the cache saw
 * them: a line address (byte address >> log2(line size)) for a read, the
 * same with BELADY_WRITE set for a store, which under write-evict removes
 * the line and allocates nothing, or BELADY_FLUSH for a kernel boundary
 * that empties the cache. Every read miss allocates (no bypass), as in the
 * authors' stand-alone simulator; MSHR timing, reservation failures and
 * sectors are not modelled, so a merge into a pending line counts as a hit.
 *
 * Belady is O(n log assoc) after an O(n) next-use pass (expected, through a
 * hash table of the distinct lines); LRU is O(n assoc).
 */
#ifndef PTXSIM_TOOLS_BELADY_H
#define PTXSIM_TOOLS_BELADY_H

#include <stddef.h>
#include <stdint.h>

struct ps_err;

#define BELADY_WRITE (UINT64_C(1) << 63) /* flag: a store (write-evict) */
#define BELADY_FLUSH UINT64_MAX          /* entry: kernel boundary, the cache empties */

struct belady_geom {
    uint32_t nsets, assoc;
    /* The set of a line, below nsets; NULL: line % nsets (a linear index). */
    uint32_t (*set_of)(uint64_t line, void *ctx);
    void *ctx;
};

struct belady_result {
    uint64_t reads, hits, misses;
    uint64_t writes, write_evicts; /* stores, and those that found their line */
    uint64_t flushes;
};

/*
 * Replays trace[0..n) with Belady's replacement into *out. Returns 0, or
 * PS_EINVAL (nsets or assoc 0, a set_of result out of range) / PS_ENOMEM
 * with a message in err.
 */
int belady_misses(const uint64_t *trace, size_t n, const struct belady_geom *g,
                  struct belady_result *out, struct ps_err *err);

/* The same replay with LRU replacement. */
int belady_lru_misses(const uint64_t *trace, size_t n, const struct belady_geom *g,
                      struct belady_result *out, struct ps_err *err);

#endif
