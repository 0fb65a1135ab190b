/*
 * The baseline way choice of the L1D policies: the lru policy's (l1d_lru.c)
 * and that of the policies that keep LRU replacement (ctrlc, pcbypass).
 * Argument text is read by policies/args.h.
 */
#ifndef PTXSIM_POLICIES_L1D_UTIL_H
#define PTXSIM_POLICIES_L1D_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pol_line_view;
struct pol_l1d_params;

/*
 * The way of lines[0..assoc) to replace: an invalid unreserved way first,
 * else the unreserved line used least recently (by_insert: inserted
 * earliest, FIFO); ties go to the lowest way. Returns assoc when every way
 * is reserved.
 */
uint32_t pol_l1d_lru_way(const struct pol_line_view *lines, uint32_t assoc, bool by_insert);

/*
 * The policy's per-line state: the cache's records (p->line_state), or,
 * when the policy runs outside a cache (unit tests driving it by hand), a
 * zeroed block of nsets * assoc records of `bytes` that *own keeps for the
 * policy's destroy to free (*own is NULL otherwise). NULL when out of memory.
 */
void *pol_l1d_line_state(const struct pol_l1d_params *p, size_t bytes, void **own);

#endif
