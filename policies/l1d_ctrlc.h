/*
 * Ctrl-C (Lee, dissertation ch. 5; seed 003 section 4): instruction-aware,
 * control-loop-based L1D bypassing. The policy is the table pol_l1d_ctrlc
 * (policies/l1d_builtin.h, name "ctrlc"); this header lets tests and tools
 * read one PC entry's controller.
 */
#ifndef PTXSIM_POLICIES_L1D_CTRLC_H
#define PTXSIM_POLICIES_L1D_CTRLC_H

#include <stdint.h>

/* One iReuse entry (Table 5.2): the controller of a PC class. */
struct pol_ctrlc_entry {
    uint32_t agg;    /* AGG: insert 1 of 2^agg misses */
    uint32_t byp;    /* BYP: bypasses since the last insertion */
    uint32_t zero;   /* ZERO: evicted lines without a hit, this window */
    uint32_t insert; /* INSERT: evicted lines, this window */
    uint64_t inserts, bypasses, evictions, zero_total; /* whole-run totals */
};

/* Copies the entry of PC class `pc` (an instruction index; its low bits select the entry). */
void pol_l1d_ctrlc_entry(const void *st, uint32_t pc, struct pol_ctrlc_entry *out);

/* Storage of the mechanism in bytes (seed 003 section 4.3's breakdown). */
uint32_t pol_l1d_ctrlc_storage_bytes(const void *st);

#endif
