/*
 * PC-based adaptive bypassing (Tian et al., GPGPU'15), Ctrl-C's comparison
 * point in the dissertation (seed 003 section 4.4). The policy is the table
 * pol_l1d_pcbypass (name "pcbypass"); this header lets tests read a PC's
 * confidence counter.
 */
#ifndef PTXSIM_POLICIES_L1D_PCBYPASS_H
#define PTXSIM_POLICIES_L1D_PCBYPASS_H

#include <stdint.h>

struct pol_pcb_entry {
    uint32_t ctr;                     /* confidence that the PC's lines are dead */
    uint64_t inserts, bypasses, zero; /* whole-run totals */
};

/* Copies the entry of PC class `pc` (an instruction index; its low bits select the entry). */
void pol_l1d_pcbypass_entry(const void *st, uint32_t pc, struct pol_pcb_entry *out);

#endif
