/*
 * A look into the locality policy's tag store (policies/l1d_locality.c,
 * registered as "locality"), for tests and tools: the policy itself is used
 * only through its struct pol_l1d_ops table (pol_l1d_locality).
 */
#ifndef PTXSIM_POLICIES_L1D_LOCALITY_H
#define PTXSIM_POLICIES_L1D_LOCALITY_H

#include <stdbool.h>
#include <stdint.h>

/* One tag-store entry as the policy holds it. */
struct pol_loc_entry {
    uint64_t tag; /* line address */
    uint32_t rc;  /* reference count */
    uint32_t pos; /* data way; meaningful when committed */
    bool valid;
    bool committed; /* linked to a data line (Position valid) */
};

/* Tag ways per set of the instance st (a create() result of pol_l1d_locality). */
uint32_t pol_l1d_locality_ways(const void *st);
/* Entry `way` of `set`; false when either is out of range. */
bool pol_l1d_locality_entry(const void *st, uint32_t set, uint32_t way, struct pol_loc_entry *out);
/* Whether the instance runs the decoupled design now (false: the plain cache). */
bool pol_l1d_locality_decoupled(const void *st);

#endif
