/*
 * The Fermi (compute 2.x) coalescer and shared-memory bank conflicts: how
 * one warp instruction's per-lane addresses become memory transactions.
 */
#ifndef PTXSIM_MEMSYS_COALESCE_H
#define PTXSIM_MEMSYS_COALESCE_H

#include <stdbool.h>
#include <stdint.h>

#include "memsys/req.h"

#define MEM_MAX_WARP_REQS 64

/*
 * Coalesces the active lanes (bit i of active = lane i, addr[i] its first
 * byte, size bytes per lane) into one request per distinct line_bytes-aligned
 * line touched (a lane access crossing a line boundary touches two), in
 * order of the first lane that touches each line. Each request copies tmpl
 * and sets addr (line aligned), bytes (line_bytes) and sector_mask (32-byte
 * sectors that lanes touch). Returns the number written to out
 * (at most MEM_MAX_WARP_REQS).
 */
uint32_t mem_coalesce(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t line_bytes,
                      const struct mem_req *tmpl, struct mem_req *out);

/*
 * The same for global atomics and reductions: one 32-byte request per
 * segment, but lanes whose bytes overlap (the same word) each get a request
 * of their own, in order of the first lane of each. At most
 * MEM_MAX_WARP_REQS.
 */
uint32_t mem_coalesce_atomic(const uint64_t *addr, uint32_t active, uint32_t size,
                             const struct mem_req *tmpl, struct mem_req *out);

/*
 * Cycles a shared-memory access of the active lanes occupies the pipeline:
 * the largest number of distinct 4-byte words that fall into one of nbanks
 * banks (lanes reading the same word share it: broadcast), computed over
 * each of warp_parts equal lane groups and summed. limited_broadcast: only
 * one word may be broadcast per cycle. At least 1.
 */
uint32_t mem_shmem_cycles(const uint64_t *addr, uint32_t active, uint32_t size, uint32_t nbanks,
                          uint32_t warp_parts, bool limited_broadcast);

/*
 * Cycles of a shared-memory atomic: the lanes' read-modify-writes are not
 * broadcast, so lanes on the same bank (the same word included) serialise;
 * the result is the largest number of active lanes on one bank, at least 1.
 */
uint32_t mem_shmem_atomic_cycles(const uint64_t *addr, uint32_t active, uint32_t nbanks);

#endif
