/*
 * CACP, criticality-aware cache prioritisation (Lee, dissertation ch. 4,
 * CAWA; seed 003 section 3.5). The policy is the table pol_l1d_cacp (name
 * "cacp"); this header lets tests read its predictor tables and per-line
 * state.
 */
#ifndef PTXSIM_POLICIES_L1D_CACP_H
#define PTXSIM_POLICIES_L1D_CACP_H

#include <stdbool.h>
#include <stdint.h>

struct pol_cacp_line {
    bool valid;
    bool c_reuse, nc_reuse; /* hit by a critical / a non-critical warp */
    uint8_t rrpv;           /* 2-bit RRIP value: 0 near, 3 distant */
    uint16_t sig;           /* signature of the inserting access */
};

/* The signature of an access: low sig_bits of (pc XOR line address). */
uint32_t pol_l1d_cacp_sig(const void *st, uint32_t pc, uint64_t addr);

/* CCBP[sig] and SHiP[sig]. */
void pol_l1d_cacp_tables(const void *st, uint32_t sig, uint32_t *ccbp, uint32_t *ship);

/* Sets CCBP[sig] and SHiP[sig] (clamped to their widths): tests start from a chosen state. */
void pol_l1d_cacp_set_tables(void *st, uint32_t sig, uint32_t ccbp, uint32_t ship);

/* The policy's view of line (set, way). */
void pol_l1d_cacp_line(const void *st, uint32_t set, uint32_t way, struct pol_cacp_line *out);

/* The number of critical ways (ways 0 .. n-1 form the critical partition). */
uint32_t pol_l1d_cacp_cways(const void *st);

#endif
