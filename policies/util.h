/*
 * Helpers the built-in policies share: the orderings several warp schedulers are
 * built from (valid warps, by age, by slot from a starting point, greedy
 * warp first). Everything works on index arrays into the caller's views, so
 * no helper allocates or keeps state.
 */
#ifndef PTXSIM_POLICIES_UTIL_H
#define PTXSIM_POLICIES_UTIL_H

#include <stdint.h>

struct pol_warp_view;

/* No warp: the greedy slot of a scheduler that has not issued yet. */
#define POL_UTIL_NO_SLOT UINT32_MAX

/* Writes the indices of the valid views of v[0..n) into idx in view order; returns how many. */
uint32_t pol_util_valid(const struct pol_warp_view *v, uint32_t n, uint32_t *idx);

/* Sorts idx[0..n) (indices into v) oldest first: by age, then by slot. */
void pol_util_sort_age(uint32_t *idx, uint32_t n, const struct pol_warp_view *v);

/*
 * Sorts idx[0..n) by slot in cyclic order starting at slot `first`: first,
 * first + 1, ..., then the slots below first (loose round robin's order).
 */
void pol_util_sort_slot_from(uint32_t *idx, uint32_t n, const struct pol_warp_view *v,
                             uint32_t first);

/*
 * Moves the entry of idx[0..n) whose view is the warp (slot, age) to the
 * front, keeping the others in order; nothing moves when it is not there.
 */
void pol_util_greedy_first(uint32_t *idx, uint32_t n, const struct pol_warp_view *v, uint32_t slot,
                           uint64_t age);

/*
 * The dissertation's "slow warp" rule (CAWA, used by CACP): of the n warps
 * of a thread block, a warp whose criticality is larger than that of
 * `below` others is critical when those are at least half of the rest
 * (below * 2 >= n - 1; a lone warp is critical). Returns 1 or 0.
 */
int pol_critical_in_group(uint32_t below, uint32_t n);

#endif
