/*
 * CCWS's victim tag arrays (Rogers et al., MICRO 2012, section 3.2; seed
 * 004 section 3.3): one small tag-only, set-associative array per warp
 * slot. When an L1D line is evicted, its line address goes into the array
 * of the warp that allocated it; when a warp misses in the L1D, its own
 * array is probed, and a hit means the warp lost locality it had.
 *
 * A partition of `entries` tags is split into entries / assoc sets, picked
 * by the low bits of the line address (line % sets) or, as the authors'
 * code does, by their hashed index (pol_ccws_vta_set_hashed). Tags are whole line addresses, so no
 * two lines alias. Replacement inside a set is FIFO (the authors' code, "2:128:8:F": re-inserting a
 * tag that is present does not move it, a probe hit does not move it) or
 * LRU (a probe hit and a re-insert make the tag the newest). A probe hit
 * leaves the entry in place in both.
 */
#ifndef PTXSIM_POLICIES_CCWS_VTA_H
#define PTXSIM_POLICIES_CCWS_VTA_H

#include <stdbool.h>
#include <stdint.h>

enum pol_ccws_vta_repl {
    POL_CCWS_VTA_FIFO,
    POL_CCWS_VTA_LRU,
};

struct pol_ccws_vta;

/*
 * nparts partitions (one per warp slot) of `entries` tags each, assoc ways
 * per set; assoc must divide entries and both be at least 1. Returns NULL
 * when the geometry is invalid or memory runs out (the caller words the
 * error; its arguments are checked before this is called).
 */
struct pol_ccws_vta *pol_ccws_vta_create(uint32_t nparts, uint32_t entries, uint32_t assoc,
                                         enum pol_ccws_vta_repl repl);
void pol_ccws_vta_destroy(struct pol_ccws_vta *v);

/*
 * hashed: pick the set as the authors' code does (low bits + 7 x the bits
 * above, for a power-of-two set count); false (the default): line % sets.
 */
void pol_ccws_vta_set_hashed(struct pol_ccws_vta *v, bool hashed);

/* Puts line into partition part (a line already there stays where it is under FIFO). */
void pol_ccws_vta_insert(struct pol_ccws_vta *v, uint32_t part, uint64_t line);

/* Is line in partition part? Under LRU a hit makes it the newest of its set. */
bool pol_ccws_vta_probe(struct pol_ccws_vta *v, uint32_t part, uint64_t line);

/* Empties partition part (a new warp in the slot starts without history). */
void pol_ccws_vta_clear(struct pol_ccws_vta *v, uint32_t part);

/* Removes line from every partition (write-evict, oracle 31); returns how many copies went. */
uint32_t pol_ccws_vta_invalidate(struct pol_ccws_vta *v, uint64_t line);

/* Tags held in partition part. */
uint32_t pol_ccws_vta_count(const struct pol_ccws_vta *v, uint32_t part);

#endif
