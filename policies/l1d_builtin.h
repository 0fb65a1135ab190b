/*
 * The built-in L1D policies, defined in policies/l1d_lru.c (LRU
 * replacement, every read miss allocates), policies/l1d_bypass.c (no read
 * miss allocates), policies/l1d_locality.c (locality-driven bypassing,
 * Li et al. ICS 2015) and policies/l1d_profiled.c (that paper's
 * Profiled-BYPASS). policies/registry.c names them "lru", "bypass",
 * "locality" and "profiled".
 */
#ifndef PTXSIM_POLICIES_L1D_BUILTIN_H
#define PTXSIM_POLICIES_L1D_BUILTIN_H

#include <stdint.h>

struct pol_l1d_ops;
struct pol_argspec;

extern const struct pol_l1d_ops pol_l1d_lru;
extern const struct pol_l1d_ops pol_l1d_bypass_all;
extern const struct pol_l1d_ops pol_l1d_locality;
extern const struct pol_l1d_ops pol_l1d_profiled;
/* The locality-bypass paper's comparison schemes: l1d_mrpb.c, l1d_pdp.c, l1d_rrip.c. */
extern const struct pol_l1d_ops pol_l1d_mrpb;
extern const struct pol_l1d_ops pol_l1d_pdp;
extern const struct pol_l1d_ops pol_l1d_rrip;
extern const struct pol_l1d_ops pol_l1d_ctrlc;    /* policies/l1d_ctrlc.c: Ctrl-C */
extern const struct pol_l1d_ops pol_l1d_pcbypass; /* policies/l1d_pcbypass.c: PC-based bypassing */
extern const struct pol_l1d_ops pol_l1d_cacp;     /* policies/l1d_cacp.c: CAWA's CACP */

/* lru's arguments ("lru" or "fifo"), which bypass shares with it. */
struct pol_l1d_lru_cfg {
    uint32_t order; /* 0 lru, 1 fifo */
};
extern const struct pol_argspec pol_l1d_lru_argspec;

#endif
